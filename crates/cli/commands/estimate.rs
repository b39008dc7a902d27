//! `cubesat estimate`: what a count will cost (tree nodes with their interval, the node rate, CPU time, a shard plan for a wall time) on stdout.
//!
//! The run plan resolves the estimate's settings ([`Settings::resolve_estimate`]); this module
//! reads them from the flags and words the refusals; the library words the estimate
//! ([`estimate::text`], [`estimate::to_json`]) as the studio shows it too.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};

use cubesat::estimate::{self, CountEstimate, MAX_WALL};
use cubesat::plan::{EstimatePlan, EstimateSettings, PlanError, Settings};
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
        EstimateFormat::Json => writeln!(
            out,
            "{}",
            estimate::to_json(&est, up_to, wall, shards.as_ref())
        )?,
        EstimateFormat::Text => write!(
            out,
            "{}",
            estimate::text(
                &est,
                up_to,
                wall,
                shards.as_ref(),
                &puzzle_words(&args.puzzle)
            )
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

#[cfg(test)]
mod tests {
    use super::*;
    use cubesat::report::{human_seconds, sig};

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
