//! What a count will cost before it runs: the exact engine's tree-size estimate over the
//! same branches a count searches, the node rate on this machine, the CPU time that follows,
//! and how many shards finish it in a given wall time; the words every front end says them
//! in ([`text`], [`to_json`], the shard commands), and the time left of a count under way as
//! its progress line says it ([`progress_line`]).

use std::fmt::Write as _;
use std::time::Duration;

use cubesat_xc::cuts::Refutation;
use cubesat_xc::exact::{EstimateOptions, Estimated, ExactQuery, TreeEstimate};
use cubesat_xc::{MAX_SHARDS, Progress, Shard};
use serde_json::{Value, json};

use crate::UpTo;
use crate::echo::{human_seconds, plural, sig};
use crate::error::{Result, bail};
use crate::run::{EngineChoice, Instance, RunOptions};

/// The normal quantile of the two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// The most probes an estimate may be asked for.
pub const MAX_PROBES: u64 = 100_000_000;
/// The longest an estimate may be asked to run.
pub const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;
/// The time an estimate runs when it is given neither a probe count nor a time.
pub const DEFAULT_SECONDS: f64 = 10.0;
/// The longest wall time a shard plan is made for: a year (of 366 days).
pub const MAX_WALL: Duration = Duration::from_secs(366 * 86_400);

/// How the largest of `n` shards compares with the mean shard: a shard plan deals subtrees of
/// uneven size (on the Tetris Cube the largest of 16 shards had 1.14 times the mean shard's
/// nodes, of 64 shards 1.33 times: `ExactQuery::shard_plan`), so the plan leaves this margin.
pub const SHARD_IMBALANCE: f64 = 1.5;

/// An estimate of one count, and what it costs on this machine.
#[derive(Clone, Debug)]
pub struct CountEstimate {
    /// The engine's estimate of the tree.
    pub tree: TreeEstimate,
    /// Branches of the count (the symmetry reduction's), all estimated together.
    pub branches: usize,
    /// Nodes per second of one thread on this machine, measured on this tree.
    pub rate: Option<f64>,
    /// Set when the colouring cut proves before any search that there is no solution, as the
    /// count would: the tree is then empty and reported exactly.
    pub refutation: Option<Refutation>,
}

impl CountEstimate {
    /// CPU seconds of the whole count (one thread's), at the measured rate: the estimate and
    /// its 95% interval; `None` without a rate, or when no probe finished
    /// ([`TreeEstimate::sampled`]: the tree's size is unknown).
    pub fn cpu_seconds(&self) -> Option<(f64, f64, f64)> {
        if !self.tree.sampled() {
            return None;
        }
        let rate = self.rate?;
        let (lo, hi) = self.tree.nodes.interval(Z95);
        Some((self.tree.nodes.mean / rate, lo / rate, hi / rate))
    }

    /// How to finish the count within `wall` on `cores` cores: a shard plan from the
    /// interval's high end, so that the plan holds unless the tree is larger than the
    /// estimate's interval says.
    pub fn plan(&self, wall: Duration, cores: u32) -> Option<ShardPlan> {
        let (_, _, high) = self.cpu_seconds()?;
        Some(ShardPlan::new(high, wall, cores))
    }
}

/// How many shards, on how many cores, finish a count of a given CPU time in a wall time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShardPlan {
    /// Shards to cut the count into (each one a whole process on one core).
    pub shards: u32,
    /// Cores to run them on at once (at most the cores given).
    pub cores: u32,
    /// Wall time the plan expects, largest shard included.
    pub wall_seconds: f64,
    /// False when even [`MAX_SHARDS`] shards on every core cannot meet the wall time.
    pub fits: bool,
}

impl ShardPlan {
    /// The plan for `cpu_seconds` of work within `wall` on `cores` cores: the fewest shards
    /// whose expected wall time fits. A shard's work is the count's share of it times
    /// [`SHARD_IMBALANCE`]; up to `cores` shards run at once, and with more shards than
    /// cores the wall time is at most the cores' even share of the work plus one shard
    /// (Graham's bound for list scheduling).
    pub fn new(cpu_seconds: f64, wall: Duration, cores: u32) -> ShardPlan {
        let wall_s = wall.as_secs_f64().max(1.0);
        let cores = cores.max(1);
        let max = MAX_SHARDS;
        let shard = |n: u32| cpu_seconds / f64::from(n) * SHARD_IMBALANCE;
        let time = |n: u32| {
            if n <= cores {
                shard(n)
            } else {
                cpu_seconds / f64::from(cores) + shard(n)
            }
        };
        let mut n = 1u32;
        while n < max && time(n) > wall_s {
            n = if n < cores {
                (n * 2).min(cores)
            } else {
                n.saturating_mul(2).min(max)
            };
        }
        ShardPlan {
            shards: n,
            cores: cores.min(n),
            wall_seconds: time(n),
            fits: time(n) <= wall_s,
        }
    }
}

/// Whether an estimate may be asked for `probes` probes: 1 to [`MAX_PROBES`].
pub fn probes_in_bounds(probes: u64) -> bool {
    (1..=MAX_PROBES).contains(&probes)
}

/// Whether an estimate may be asked to run `seconds`: above 0, at most [`MAX_SECONDS`].
pub fn seconds_in_bounds(seconds: f64) -> bool {
    seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS
}

/// Checks the options of an estimate against their bounds.
pub fn check_options(probes: Option<u64>, seconds: Option<f64>) -> Result<()> {
    if let Some(p) = probes
        && !probes_in_bounds(p)
    {
        bail!("samples must be between 1 and {MAX_PROBES}, not {p}");
    }
    if let Some(s) = seconds
        && !seconds_in_bounds(s)
    {
        bail!("seconds must be above 0 and at most {MAX_SECONDS} (a week), not {s}");
    }
    Ok(())
}

/// Estimates the count `opts` asks for (its engine must be the exact one, its mode any): the
/// same branches, exclusions and pruning a count would search, every sampled solution
/// verified and weighed as the count weighs it.
pub fn estimate(
    inst: &Instance,
    opts: &RunOptions,
    options: &EstimateOptions,
) -> Result<CountEstimate> {
    estimate_with(inst, opts, options, None)
}

/// [`estimate`] that ends soon after `interrupt`'s [`Progress::interrupt`] (a stop button),
/// with [`Error::Interrupted`](crate::Error::Interrupted): the probes made before the stop
/// sampled the tree for less than the time asked, so no figure is given from them.
pub fn estimate_with(
    inst: &Instance,
    opts: &RunOptions,
    options: &EstimateOptions,
    interrupt: Option<&Progress>,
) -> Result<CountEstimate> {
    if !matches!(opts.engine.resolve(), EngineChoice::Exact) {
        bail!(
            "an estimate measures the exact engine's search; the {} engine's cost is not estimated",
            opts.engine
        );
    }
    check_options(options.probes, options.time.map(|t| t.as_secs_f64()))?;
    if opts.prune
        && let Some(r) = cubesat_xc::cuts::refute(&inst.model)
    {
        return Ok(CountEstimate {
            tree: TreeEstimate {
                exact: true,
                ..TreeEstimate::default()
            },
            branches: 0,
            rate: None,
            refutation: Some(r),
        });
    }
    let exact = crate::run::LazyEngine::new(inst);
    let reducer = exact.reducer(opts.up_to, true)?;
    let verifier = inst.verifier();
    let n = inst.table.len();
    let failure = std::sync::Mutex::new(None);
    let weigh = |s: &[u32]| -> u64 {
        let s = &s[..s.partition_point(|&o| (o as usize) < n)];
        if let Err(e) = verifier.verify(s) {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            return 0;
        }
        reducer.weight(s)
    };
    let engine = exact
        .get()?
        .with_pruning(opts.prune)
        .with_preprocess(opts.prune);
    let queries: Vec<ExactQuery> = reducer
        .branches()
        .map(|b| engine.query().force(&b.forced).exclude(&b.excluded))
        .collect();
    let tree = ExactQuery::estimate_all_with(&queries, &weigh, options, interrupt)?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e.context("the exact engine reported an invalid solution"));
    }
    if tree.interrupted {
        return Err(crate::Error::Interrupted);
    }
    let rate = tree.rate();
    Ok(CountEstimate {
        tree,
        branches: queries.len(),
        rate,
        refutation: None,
    })
}

/// The shard argument of one shard of a plan, for the text that tells a user how to run it.
pub fn shard_of(plan: &ShardPlan, index: u32) -> Option<Shard> {
    Shard::new(index, plan.shards).ok()
}

/// The relative half width of the 95% interval above the estimate, as a percentage.
fn spread(e: &Estimated) -> String {
    let (_, hi) = e.interval(Z95);
    if e.mean <= 0.0 || !hi.is_finite() {
        return "unknown spread".to_string();
    }
    format!("±{}%", sig(100.0 * (hi - e.mean) / e.mean, 2))
}

/// The estimate as `cubesat estimate` prints it, a few lines for people: the tree, the speed,
/// the CPU time, and with a wall time the shard plan and the commands that run it (`puzzle`
/// is the puzzle as those commands name it, quoted for a POSIX shell).
pub fn text(
    est: &CountEstimate,
    up_to: UpTo,
    wall: Option<Duration>,
    plan: Option<&ShardPlan>,
    puzzle: &str,
) -> String {
    let mut out = String::new();
    if let Some(r) = &est.refutation {
        let _ = writeln!(
            out,
            "exact: 0 nodes, 0 solutions {}: refuted before any search ({r})",
            up_to.phrase()
        );
        return out;
    }
    tree_lines(&mut out, est, up_to);
    cost_lines(&mut out, est);
    match (wall, plan) {
        (Some(w), Some(p)) => shard_lines(&mut out, p, w, up_to, puzzle),
        (Some(_), None) if !est.tree.sampled() => {
            let _ = writeln!(out, "plan: none, for a tree of unknown size");
        }
        _ => {}
    }
    out
}

/// The tree: its nodes and solutions, exact when the probes searched it whole, else with
/// their 95% intervals.
fn tree_lines(out: &mut String, est: &CountEstimate, up_to: UpTo) {
    let t = &est.tree;
    if t.exact {
        let _ = writeln!(
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
        );
        return;
    }
    if !t.sampled() {
        let floor = if t.nodes.known >= 1.0 {
            format!(
                " (at least {} nodes, counted above the probes)",
                sig(t.nodes.known, 3)
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "nodes: unknown: no probe of the tree finished in {}, so there is no estimate{floor}; give it more time (--seconds)",
            human_seconds(t.elapsed.as_secs_f64()),
        );
        let _ = writeln!(out, "solutions: unknown {}", up_to.phrase());
        return;
    }
    let (lo, hi) = t.nodes.interval(Z95);
    let _ = writeln!(
        out,
        "nodes: {} (95% interval {} to {}, {}), from {} {}",
        sig(t.nodes.mean, 3),
        sig(lo, 2),
        sig(hi, 2),
        spread(&t.nodes),
        t.probes,
        if t.probes == 1 { "probe" } else { "probes" }
    );
    let (slo, shi) = t.total.interval(Z95);
    let _ = writeln!(
        out,
        "solutions: {} {} (95% interval {} to {})",
        sig(t.total.mean, 3),
        up_to.phrase(),
        sig(slo, 2),
        sig(shi, 2)
    );
}

/// The node rate on this machine, and the CPU time that follows.
fn cost_lines(out: &mut String, est: &CountEstimate) {
    let _ = match est.rate {
        Some(rate) => writeln!(
            out,
            "speed: {} nodes/s on one thread of this machine",
            sig(rate, 3)
        ),
        None => writeln!(out, "speed: too few nodes searched to measure"),
    };
    let Some((cpu, lo, hi)) = est.cpu_seconds() else {
        if !est.tree.sampled() {
            let _ = writeln!(out, "cpu time: unknown");
        }
        return;
    };
    let _ = if est.tree.exact {
        writeln!(out, "cpu time: about {} on one thread", human_seconds(cpu))
    } else {
        writeln!(
            out,
            "cpu time: {} on one thread (95% interval {} to {})",
            human_seconds(cpu),
            human_seconds(lo),
            human_seconds(hi)
        )
    };
}

/// ` --up-to MODE` for a mode other than the default one of `cubesat solve`.
fn mode_flag(up_to: UpTo) -> String {
    match up_to {
        UpTo::Rotation => String::new(),
        m => format!(" --up-to {m}"),
    }
}

/// The shard plan for the wall time `wall`, and the commands that run it.
fn shard_lines(out: &mut String, p: &ShardPlan, wall: Duration, up_to: UpTo, puzzle: &str) {
    let fits = if p.fits {
        format!("about {} of wall time", human_seconds(p.wall_seconds))
    } else {
        format!(
            "about {}: more than the {} asked, even at the most shards",
            human_seconds(p.wall_seconds),
            human_seconds(wall.as_secs_f64())
        )
    };
    let _ = writeln!(
        out,
        "plan: {} {} on {} {}, {fits} (from the interval's high end)",
        p.shards,
        if p.shards == 1 { "shard" } else { "shards" },
        p.cores,
        if p.cores == 1 { "core" } else { "cores" }
    );
    if p.shards <= 1 {
        return;
    }
    let mode = mode_flag(up_to);
    let (n, last) = (p.shards, p.shards - 1);
    let _ = writeln!(
        out,
        "  cubesat solve {puzzle}{mode} --count --shard K/{n} for K = 0..{last}, then cubesat merge"
    );
    let _ = writeln!(
        out,
        "  Slurm: N={n} in examples/slurm/count.sbatch, submitted as sbatch --array=0-{last}%{c} count.sbatch {puzzle}",
        c = p.cores
    );
}

/// The shard plan's commands as a POSIX shell script: every shard's count written to
/// `results/K.json`, then `cubesat merge results` (what the plan's line sums up as
/// `--shard K/N for K = 0..N-1, then cubesat merge`).
pub fn shard_script(p: &ShardPlan, up_to: UpTo, puzzle: &str) -> String {
    let mode = mode_flag(up_to);
    let n = p.shards;
    let mut out = format!(
        "#!/bin/sh\n# {} of one cubesat count; run them anywhere, in any order, {} at once, then merge.\nset -e\nmkdir -p results\n",
        plural(u64::from(n), "shard"),
        p.cores
    );
    for k in 0..n {
        let _ = writeln!(
            out,
            "cubesat solve {puzzle}{mode} --count --quiet --shard {k}/{n} > results/{k}.json"
        );
    }
    out.push_str("cubesat merge results\n");
    out
}

/// The Slurm script of `examples/slurm/count.sbatch`, which the plan's line names (kept in
/// the crate, so the package builds alone; the example is a link to it).
const COUNT_SBATCH: &str = include_str!("shard/count.sbatch");

/// `examples/slurm/count.sbatch` set up for the shard plan (what the plan's `Slurm:` line
/// tells a user to do by hand): `N` and the array are the plan's shards, at most its cores
/// running at once, the puzzle `puzzle` by default, and the counting mode's flag when the
/// mode is not `cubesat solve`'s default.
pub fn sbatch_script(p: &ShardPlan, up_to: UpTo, puzzle: &str) -> String {
    let (n, last) = (p.shards, p.shards.saturating_sub(1));
    COUNT_SBATCH
        .replacen(
            "#SBATCH --array=0-63",
            &format!("#SBATCH --array=0-{last}%{}", p.cores),
            1,
        )
        .replacen("\nN=64\n", &format!("\nN={n}\n"), 1)
        .replacen(
            "PUZZLE=${1:-tetris-cube}",
            &format!("PUZZLE=${{1:-{puzzle}}}"),
            1,
        )
        .replacen(
            "solve \"$PUZZLE\" --count",
            &format!("solve \"$PUZZLE\"{} --count", mode_flag(up_to)),
            1,
        )
}

/// The estimate as `cubesat estimate --format json` prints it.
pub fn to_json(
    est: &CountEstimate,
    up_to: UpTo,
    wall: Option<Duration>,
    plan: Option<&ShardPlan>,
) -> Value {
    let t = &est.tree;
    let (lo, hi) = t.nodes.interval(Z95);
    let (slo, shi) = t.total.interval(Z95);
    let finite = |x: f64| x.is_finite().then_some(x);
    // Without a finished probe the means are only the counted lower bounds (`low`).
    let sized = |x: f64| t.sampled().then_some(x);
    let cpu = est.cpu_seconds();
    json!({
        "up_to": up_to.to_string(),
        "exact": t.exact,
        "refutation": est.refutation.as_ref().map(|r| r.to_string()),
        "nodes": sized(t.nodes.mean),
        "low": lo,
        "high": finite(hi),
        "std_error": finite(t.nodes.std_error),
        "degrees_of_freedom": finite(t.nodes.dof),
        "confidence": 0.95,
        "solutions": sized(t.total.mean),
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

/// The time left of a run after `elapsed`, from its progress ([`Progress::seconds_left`]: at
/// its pace so far, or at its rising pace for a memoized count): `ETA 3m20s`, or
/// `ETA once a first subtree is finished` before any part of the tree is done. The fraction
/// is Knuth's (every finished subtree adds its path weight), so the time left sharpens as
/// subtrees finish.
pub fn eta(p: &Progress, elapsed: Duration) -> String {
    match p.seconds_left(elapsed) {
        Some(secs) => format!("ETA {}", time_left(secs)),
        None => "ETA once a first subtree is finished".to_string(),
    }
}

/// A run's progress line, as the command line shows it while a count runs: solutions, rate,
/// fraction of the tree done and the time left at the current pace ([`eta`]); tiny fractions
/// of huge trees show in scientific notation rather than as 0.00%.
pub fn progress_line(p: &Progress, elapsed: Duration, what: &str) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let done = p.fraction_done();
    // Engines that count no nodes (the SAT path) leave the figure out.
    let nodes = match p.nodes() {
        0 => String::new(),
        n => format!(", {:.1} M nodes", n as f64 / 1e6),
    };
    format!(
        "{what}: {} ({:.0}/s){nodes}, {} of the tree, {}",
        plural(p.solutions(), "solution"),
        p.solutions() as f64 / secs,
        fraction_words(done),
        eta(p, elapsed)
    )
}

/// A fraction as a percentage, or in scientific notation below 0.01%.
fn fraction_words(f: f64) -> String {
    if f >= 1e-4 || f == 0.0 {
        format!("{:.2}%", f * 100.0)
    } else {
        format!("{f:.1e}")
    }
}

/// A time left: minutes and seconds up to an hour, hours and minutes up to two days, then
/// days or years with two significant digits (a count may need centuries).
pub fn time_left(secs: f64) -> String {
    if !secs.is_finite() || secs > 1e18 {
        return "beyond 10^10 years".to_string();
    }
    let s = secs.round() as u64;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if secs >= YEAR {
        format!("{} years", two_digits(secs / YEAR))
    } else if secs >= 2.0 * DAY {
        format!("{} days", two_digits(secs / DAY))
    } else if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// `x` (at least 1) with two significant digits.
fn two_digits(x: f64) -> String {
    if x < 10.0 {
        return format!("{x:.1}");
    }
    if x >= 1e6 {
        return format!("{x:.1e}");
    }
    let step = 10f64.powi(x.log10().floor() as i32 - 1);
    format!("{:.0}", (x / step).round() * step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UpTo;
    use crate::puzzle::bundled;
    use crate::run::count;

    /// A tree the probes finish is reported exactly: Soma's nodes and its count in each mode.
    #[test]
    fn a_finished_estimate_is_the_count() {
        let inst = Instance::new(bundled("soma").unwrap()).unwrap();
        for up_to in [UpTo::None, UpTo::Rotation, UpTo::RotationReflection] {
            let opts = RunOptions {
                up_to,
                ..RunOptions::default()
            };
            let c = count(&inst, &opts).unwrap();
            let e = estimate(
                &inst,
                &opts,
                &EstimateOptions {
                    probes: Some(1_000_000),
                    time: None,
                    exact_budget: 4096,
                    fanout: 4,
                    seed: 1,
                },
            )
            .unwrap();
            assert!(e.tree.exact, "{up_to}");
            assert_eq!(e.tree.total.mean, c.count as f64, "{up_to}");
            assert_eq!(e.tree.nodes.mean, c.nodes.unwrap() as f64, "{up_to}");
        }
    }

    /// An estimate no probe of which finished (a tree whose every probe outlasts the time
    /// given) reports the size as unknown, with what was counted as a lower bound, and gives
    /// no CPU time or shard plan, rather than a point estimate from no sample.
    #[test]
    fn an_estimate_without_a_probe_gives_no_size() {
        let known = Estimated {
            mean: 2.0,
            std_error: f64::INFINITY,
            known: 2.0,
            dof: 1.0,
        };
        let est = CountEstimate {
            tree: TreeEstimate {
                nodes: known,
                total: Estimated {
                    mean: 0.0,
                    known: 0.0,
                    ..known
                },
                elapsed: Duration::from_secs(5),
                ..TreeEstimate::default()
            },
            branches: 1,
            rate: Some(6e4),
            refutation: None,
        };
        assert!(!est.tree.sampled());
        assert_eq!(est.cpu_seconds(), None);
        assert!(est.plan(Duration::from_secs(3600), 2).is_none());
        let said = text_of(&est);
        assert!(
            said.starts_with("nodes: unknown: no probe of the tree finished in 5"),
            "{said}"
        );
        assert!(said.contains("at least 2.00 nodes"), "{said}");
        assert!(
            said.contains("solutions: unknown up to rotation\n"),
            "{said}"
        );
        assert!(said.contains("cpu time: unknown\n"), "{said}");
        let day = Some(Duration::from_secs(86_400));
        let planned = text(&est, UpTo::Rotation, day, None, "ring.json");
        assert!(
            planned.ends_with("plan: none, for a tree of unknown size\n"),
            "{planned}"
        );
        let j = to_json(&est, UpTo::Rotation, None, None);
        assert_eq!(j["nodes"], Value::Null);
        assert_eq!(j["solutions"], Value::Null);
        assert_eq!(j["cpu_seconds"], Value::Null);
        assert_eq!(j["low"], 2.0);
        // One finished probe is an estimate (Knuth's, unbiased), if a rough one.
        let one = CountEstimate {
            tree: TreeEstimate {
                probes: 1,
                ..est.tree.clone()
            },
            ..est.clone()
        };
        assert!(one.cpu_seconds().is_some());
        assert!(
            text_of(&one).starts_with("nodes: 2.00 ("),
            "{}",
            text_of(&one)
        );
    }

    fn text_of(e: &CountEstimate) -> String {
        text(e, UpTo::Rotation, None, None, "ring.json")
    }

    #[test]
    fn times_left_read_right() {
        assert_eq!(time_left(42.0), "42s");
        assert_eq!(time_left(3725.0), "1h02m");
        assert_eq!(time_left(5.0 * 86_400.0), "5.0 days");
        assert_eq!(time_left(2.3 * 365.25 * 86_400.0), "2.3 years");
        assert_eq!(time_left(470.0 * 365.25 * 86_400.0), "470 years");
        assert_eq!(fraction_words(0.5), "50.00%");
        assert_eq!(fraction_words(3.2e-9), "3.2e-9");
        let p = Progress::new();
        assert_eq!(
            eta(&p, Duration::from_secs(10)),
            "ETA once a first subtree is finished"
        );
        p.record(0, 0, 0.5);
        assert_eq!(eta(&p, Duration::from_secs(10)), "ETA 10s");
    }

    #[test]
    fn a_shard_script_runs_every_shard_then_merges() {
        let p = ShardPlan {
            shards: 3,
            cores: 2,
            wall_seconds: 10.0,
            fits: true,
        };
        let s = shard_script(&p, UpTo::None, "'a b.json'");
        assert!(s.contains("cubesat solve 'a b.json' --up-to none --count --quiet --shard 2/3 > results/2.json\n"), "{s}");
        assert!(s.ends_with("cubesat merge results\n"), "{s}");
        // Every line the script's set-up changes is still in the example it starts from.
        let b = sbatch_script(&p, UpTo::None, "a.json");
        for line in [
            "#SBATCH --array=0-2%2\n",
            "\nN=3\n",
            "PUZZLE=${1:-a.json}\n",
            "solve \"$PUZZLE\" --up-to none --count",
        ] {
            assert!(b.contains(line), "{line:?} in {b}");
        }
    }

    #[test]
    fn plans_fit_the_wall_time() {
        let day = Duration::from_secs(86_400);
        let p = ShardPlan::new(1000.0, day, 64);
        assert_eq!((p.shards, p.cores), (1, 1));
        let p = ShardPlan::new(32.0 * 86_400.0, day, 64);
        assert!(p.fits && p.shards >= 32, "{p:?}");
        assert!(p.wall_seconds <= 86_400.0);
        let p = ShardPlan::new(1e15, day, 4);
        assert!(!p.fits);
    }
}
