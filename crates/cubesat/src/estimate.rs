//! What a count will cost before it runs: the exact engine's tree-size estimate over the
//! same branches a count searches, the node rate on this machine, the CPU time that follows,
//! and how many shards finish it in a given wall time.

use std::time::Duration;

use cubesat_xc::cuts::Refutation;
use cubesat_xc::exact::{EstimateOptions, ExactQuery, TreeEstimate};
use cubesat_xc::{MAX_SHARDS, Shard};

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
    /// its 95% interval; `None` without a rate.
    pub fn cpu_seconds(&self) -> Option<(f64, f64, f64)> {
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
    let tree = ExactQuery::estimate_all(&queries, &weigh, options)?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e.context("the exact engine reported an invalid solution"));
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
