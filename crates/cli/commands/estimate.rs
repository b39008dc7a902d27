//! `cubesat estimate`: what a count will cost (tree nodes with their interval, the node rate, CPU time, a shard plan for a wall time) on stdout.
//!
//! The run plan resolves the estimate's settings ([`Settings::resolve_estimate`]); this module
//! reads them from the flags and words the refusals and the estimate.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use serde_json::json;

use cubesat::UpTo;
use cubesat::estimate::{self, CountEstimate, MAX_WALL, ShardPlan, Z95};
use cubesat::plan::{EstimatePlan, EstimateSettings, PlanError, Settings};
use cubesat::report::{human_seconds, sig};
use cubesat::run::Instance;

use crate::args::{EstimateArgs, EstimateFormat};
use crate::shell::quote as shell_quote;

use super::{Outcome, output, puzzle_source};

/// `cubesat estimate`.
pub fn run(args: &EstimateArgs, quiet: bool) -> Result<Outcome> {
    let wall = args.wall.as_deref().map(parse_wall).transpose()?;
    let estimate = EstimateSettings {
        samples: args.samples,
        seconds: args.seconds,
        seed: args.seed,
        wall,
        cores: args.cores,
    };
    estimate.check().map_err(|e| flag_error(&e, args))?;
    let puzzle = super::load_puzzle(&args.puzzle)?;
    let plan = Settings {
        up_to: args.up_to,
        no_prune: args.no_prune,
        ..Settings::default()
    }
    .resolve_estimate(&puzzle, &estimate)
    .map_err(|e| flag_error(&e, args))?;
    let inst = Instance::new(puzzle)?;
    if !quiet {
        say!("{}", intro(&inst.puzzle.name, &plan));
    }
    let est = estimate::estimate(&inst, &plan.count, &plan.probes)
        .with_context(|| puzzle_source(args.puzzle.puzzle.as_deref()).to_string())?;
    let shards = plan.shards(&est);
    let up_to = plan.count.up_to;
    let mut out = output(None)?;
    match args.format {
        EstimateFormat::Json => writeln!(out, "{}", to_json(&est, up_to, wall, shards.as_ref()))?,
        EstimateFormat::Text => write_text(
            &mut out,
            &est,
            up_to,
            wall,
            shards.as_ref(),
            &puzzle_words(&args.puzzle),
        )?,
    }
    out.finish()?;
    if !quiet {
        say!("{}", outro(&est));
    }
    Ok(Outcome::Found)
}

/// A refusal of the estimate's rules, worded with the flags that set what it names.
fn flag_error(e: &PlanError, args: &EstimateArgs) -> anyhow::Error {
    match e {
        PlanError::EstimateSamples { asked, most } => {
            anyhow!("--samples must be between 1 and {most}, not {asked}")
        }
        PlanError::EstimateSeconds { asked, most } => {
            anyhow!("--seconds must be above 0 and at most {most} (a week), not {asked}")
        }
        PlanError::WallTooLong => anyhow!(
            "--wall {}: at most a year",
            args.wall.as_deref().unwrap_or_default()
        ),
        PlanError::CoresWithoutWall => {
            anyhow!("--cores plans shards for a wall time: give --wall too (e.g. --wall 24h)")
        }
        e => super::flags::flag_error(e),
    }
}

/// The line said before the probes start: the count, and when the probes stop.
fn intro(name: &str, plan: &EstimatePlan) -> String {
    let budget = match (plan.samples, plan.seconds) {
        (Some(n), Some(s)) => format!("{n} probes or {s} s, whichever comes first"),
        (Some(n), None) => format!("{n} probes"),
        (None, Some(s)) => format!("{s} s"),
        (None, None) => "until the tree is searched".to_string(),
    };
    format!(
        "estimating the count of {name} {} ({budget})",
        plan.count.up_to.phrase()
    )
}

/// The line said after the estimate: the probes, the nodes they searched, the time.
fn outro(est: &CountEstimate) -> String {
    let t = &est.tree;
    format!(
        "{} {}, {} nodes searched in {:.2} s, {} {}",
        t.probes,
        if t.probes == 1 { "probe" } else { "probes" },
        t.visited,
        t.elapsed.as_secs_f64(),
        est.branches,
        if est.branches == 1 {
            "branch"
        } else {
            "branches"
        }
    )
}

/// The puzzle as the shard commands of a plan name it: the path (or bundled name) quoted for
/// a POSIX shell, and the BurrTools problem if one was chosen.
fn puzzle_words(arg: &crate::args::PuzzleArg) -> String {
    let mut words = shell_quote(&puzzle_source(arg.puzzle.as_deref()));
    if let Some(p) = &arg.problem {
        words.push_str(" --problem ");
        words.push_str(&shell_quote(p));
    }
    words
}

/// A wall time: a positive number and a unit (s, m, h, d); the plan bounds it.
fn parse_wall(text: &str) -> Result<Duration> {
    let t = text.trim();
    let (num, unit) = t.split_at(t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len()));
    let scale = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        _ => bail!("--wall {text}: expected a number and a unit s, m, h or d (e.g. 24h)"),
    };
    let v: f64 = num
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .with_context(|| format!("--wall {text}: expected a positive number before the unit"))?;
    // Bounded so that the duration cannot overflow; the plan refuses more than a year.
    let secs = (v * scale).clamp(1.0, 2.0 * MAX_WALL.as_secs_f64());
    Ok(Duration::from_secs_f64(secs))
}

/// The relative half width of the 95% interval above the estimate, as a percentage.
fn spread(e: &cubesat_xc::exact::Estimated) -> String {
    let (_, hi) = e.interval(Z95);
    if e.mean <= 0.0 || !hi.is_finite() {
        return "unknown spread".to_string();
    }
    format!("±{}%", sig(100.0 * (hi - e.mean) / e.mean, 2))
}

/// The estimate as a few lines for people: the tree, the speed, the CPU time, the shard
/// plan.
fn write_text(
    out: &mut dyn Write,
    est: &CountEstimate,
    up_to: UpTo,
    wall: Option<Duration>,
    plan: Option<&ShardPlan>,
    puzzle: &str,
) -> Result<()> {
    if let Some(r) = &est.refutation {
        writeln!(
            out,
            "exact: 0 nodes, 0 solutions {}: refuted before any search ({r})",
            up_to.phrase()
        )?;
        return Ok(());
    }
    write_tree(out, est, up_to)?;
    write_cost(out, est)?;
    if let (Some(w), Some(p)) = (wall, plan) {
        write_shards(out, p, w, up_to, puzzle)?;
    }
    Ok(())
}

/// The tree: its nodes and solutions, exact when the probes searched it whole, else with
/// their 95% intervals.
fn write_tree(out: &mut dyn Write, est: &CountEstimate, up_to: UpTo) -> Result<()> {
    let t = &est.tree;
    if t.exact {
        writeln!(
            out,
            "exact: the probes searched the whole tree: {} nodes, {} {} {}",
            t.nodes.mean,
            t.total.mean,
            if t.total.mean == 1.0 {
                "solution"
            } else {
                "solutions"
            },
            up_to.phrase()
        )?;
        return Ok(());
    }
    let (lo, hi) = t.nodes.interval(Z95);
    writeln!(
        out,
        "nodes: {} (95% interval {} to {}, {}), from {} {}",
        sig(t.nodes.mean, 3),
        sig(lo, 2),
        sig(hi, 2),
        spread(&t.nodes),
        t.probes,
        if t.probes == 1 { "probe" } else { "probes" }
    )?;
    let (slo, shi) = t.total.interval(Z95);
    writeln!(
        out,
        "solutions: {} {} (95% interval {} to {})",
        sig(t.total.mean, 3),
        up_to.phrase(),
        sig(slo, 2),
        sig(shi, 2)
    )?;
    Ok(())
}

/// The node rate on this machine, and the CPU time that follows.
fn write_cost(out: &mut dyn Write, est: &CountEstimate) -> Result<()> {
    match est.rate {
        Some(rate) => writeln!(
            out,
            "speed: {} nodes/s on one thread of this machine",
            sig(rate, 3)
        )?,
        None => writeln!(out, "speed: too few nodes searched to measure")?,
    }
    let Some((cpu, lo, hi)) = est.cpu_seconds() else {
        return Ok(());
    };
    if est.tree.exact {
        writeln!(out, "cpu time: about {} on one thread", human_seconds(cpu))?;
    } else {
        writeln!(
            out,
            "cpu time: {} on one thread (95% interval {} to {})",
            human_seconds(cpu),
            human_seconds(lo),
            human_seconds(hi)
        )?;
    }
    Ok(())
}

/// The shard plan for the wall time `wall`, and the commands that run it.
fn write_shards(
    out: &mut dyn Write,
    p: &ShardPlan,
    wall: Duration,
    up_to: UpTo,
    puzzle: &str,
) -> Result<()> {
    let fits = if p.fits {
        format!("about {} of wall time", human_seconds(p.wall_seconds))
    } else {
        format!(
            "about {}: more than the {} asked, even at the most shards",
            human_seconds(p.wall_seconds),
            human_seconds(wall.as_secs_f64())
        )
    };
    writeln!(
        out,
        "plan: {} {} on {} {}, {fits} (from the interval's high end)",
        p.shards,
        if p.shards == 1 { "shard" } else { "shards" },
        p.cores,
        if p.cores == 1 { "core" } else { "cores" }
    )?;
    if p.shards <= 1 {
        return Ok(());
    }
    let mode = match up_to {
        UpTo::Rotation => String::new(),
        m => format!(" --up-to {m}"),
    };
    let (n, last) = (p.shards, p.shards - 1);
    writeln!(
        out,
        "  cubesat solve {puzzle}{mode} --count --shard K/{n} for K = 0..{last}, then cubesat merge"
    )?;
    writeln!(
        out,
        "  Slurm: N={n} in examples/slurm/count.sbatch, submitted as sbatch --array=0-{last}%{c} count.sbatch {puzzle}",
        c = p.cores
    )?;
    Ok(())
}

fn to_json(
    est: &CountEstimate,
    up_to: UpTo,
    wall: Option<Duration>,
    plan: Option<&ShardPlan>,
) -> serde_json::Value {
    let t = &est.tree;
    let (lo, hi) = t.nodes.interval(Z95);
    let (slo, shi) = t.total.interval(Z95);
    let finite = |x: f64| x.is_finite().then_some(x);
    let cpu = est.cpu_seconds();
    json!({
        "up_to": up_to.to_string(),
        "exact": t.exact,
        "refutation": est.refutation.as_ref().map(|r| r.to_string()),
        "nodes": t.nodes.mean,
        "low": lo,
        "high": finite(hi),
        "std_error": finite(t.nodes.std_error),
        "degrees_of_freedom": finite(t.nodes.dof),
        "confidence": 0.95,
        "solutions": t.total.mean,
        "solutions_low": slo,
        "solutions_high": finite(shi),
        "probes": t.probes,
        "branches": est.branches,
        "nodes_searched": t.visited,
        "seconds": t.elapsed.as_secs_f64(),
        "nodes_per_second": est.rate,
        "cpu_seconds": cpu.map(|c| c.0),
        "cpu_seconds_low": cpu.map(|c| c.1),
        "cpu_seconds_high": cpu.and_then(|c| finite(c.2)),
        "plan": plan.map(|p| json!({
            "wall_seconds_asked": wall.map(|w| w.as_secs_f64()),
            "shards": p.shards,
            "cores": p.cores,
            "wall_seconds": finite(p.wall_seconds),
            "fits": p.fits,
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_and_numbers() {
        assert_eq!(parse_wall("24h").unwrap(), Duration::from_secs(86_400));
        assert_eq!(parse_wall("90m").unwrap(), Duration::from_secs(5400));
        assert!(parse_wall("24").is_err());
        assert!(parse_wall("-1h").is_err());
        assert!(parse_wall("400d").unwrap() > MAX_WALL);
        assert_eq!(sig(1234.5, 3), "1234");
        assert_eq!(sig(2.31e12, 3), "2.31e12");
        assert_eq!(sig(0.000123, 2), "1.2e-4");
        assert_eq!(human_seconds(30.0), "30 seconds");
        assert_eq!(human_seconds(7.3e7), "2.3 years");
    }
}
