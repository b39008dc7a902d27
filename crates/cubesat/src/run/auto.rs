//! The automatic count's choice between the exact engine and the memo engine: a count the
//! exact engine has measured long, on a puzzle whose subproblems may repeat, gets a memo
//! trial with a budget from the exact engine's estimate.

use std::sync::Arc;
use std::time::Duration;

use cubesat_xc::Progress;
use cubesat_xc::memo::{self, MemoEngine};

use super::{EngineChoice, Instance, LazyEngine, RunOptions, RunReport, count_with, memo_reducer};
use crate::error::Result;

/// When an automatic count ([`count_auto`]) looks at the memo engine.
#[derive(Clone, Copy, Debug)]
pub(super) struct AutoRule {
    /// Exact-engine nodes searched before the count asks whether the memo engine might be
    /// cheaper.
    check: u64,
    /// The count goes on with the exact engine unless its estimated tree is at least this
    /// many times the nodes searched at the check: the check wastes at most that share.
    long: f64,
    /// The memo trial's budget, as a share of the exact engine's estimated cost: the most
    /// a trial that does not finish wastes.
    memo_share: f64,
}

/// The rule of every automatic count: the check after 2^25 exact nodes (about three
/// seconds on one thread, so every count shorter than that, the Tetris Cube, Bedlam and
/// every bundled puzzle among them, runs as with `--engine exact` and loses nothing), a
/// count 20 times longer than that for a trial (at most a twentieth wasted on the exact
/// side), and a memo trial of at most half the exact count's estimated cost: the estimate at
/// the check runs low (on the 4x20 board of the polyominoes of orders 4 and 5 it said
/// 2.77e9 nodes of 6.66e9), and the memo count that beats the exact one there six times
/// over at the default memory bound takes 0.34 of that estimate (190 M memo nodes), so a
/// quarter would turn it away. Measured 2026-12-07: the automatic count of that board takes
/// 68 CPU s, the exact engine's 431.
pub(super) const AUTO: AutoRule = AutoRule {
    check: 1 << 25,
    long: 20.0,
    memo_share: 0.5,
};

/// The cost of one memo node in exact-engine nodes: the memo engine's profile search
/// computes a key and probes its table at each node, and has none of the exact engine's
/// pruning (measured one thread, 2026-12-07: 15.4 M exact nodes/s and 3.1 M memo nodes/s on
/// the 4x20 board of the polyominoes of orders 4 and 5, 11 M and 3.3 M on the solid
/// pentominoes' 3x4x5 box).
const MEMO_NODE_COST: f64 = 5.0;

/// The widest band of the profile order ([`cubesat_xc::memo::band`]) at which a puzzle of
/// distinct pieces is tried with the memo engine. The profile search's states grow
/// exponentially with the band; measured one thread, 2026-12-07 (`benches/README.md`): the
/// boards of the polyominoes of orders 4 and 5 count about 8 times faster than with the
/// exact engine at bands 5 (4x20) and 6 (5x16), the pentominoes' 6x10 (band 7, few
/// solutions) 20 times slower, and boxes (band 14: the solid pentominoes' 3x4x5, the
/// Tetris Cube, Bedlam) 10 to 30 times slower. A board up to 8 wide is worth a trial,
/// which the budget bounds; a box is not.
const MEMO_BAND: usize = 8;

/// Whether the memo engine may count `inst` faster than the exact engine, judged from the
/// model alone: a piece of several copies (its copies fill the same cells in other orders,
/// so subproblems repeat by construction), or a band narrow enough for the profile
/// search's states to repeat ([`MEMO_BAND`]).
pub(super) fn memo_may_pay(inst: &Instance) -> bool {
    has_copies(inst) || memo::band(&inst.model).is_some_and(|b| b <= MEMO_BAND)
}

/// How the automatic count ended up choosing, for the run's summary.
fn auto_summary(report: &mut RunReport, why: String) {
    report.engine = format!("{} (auto: {why})", report.engine);
}

/// [`count`] with [`EngineChoice::Auto`], a whole count: the exact engine counts, and where
/// the memo engine applies (a mode it counts, a model it takes) a count still running at
/// `rule.check` nodes whose estimated tree (Knuth's, from the finished share) is
/// `rule.long` times larger is stopped, and the memo engine tries the count with a budget
/// of `rule.memo_share` of the exact engine's estimated cost (in exact-engine nodes,
/// [`MEMO_NODE_COST`] a memo node, against the exact engine's threads). A trial that
/// finishes within it is the count; else the exact count starts over, having lost at most
/// that share. The memo search's own finished share is no guide (a cache hit ends a subtree
/// of any size: on the 4x20 board of the polyominoes of orders 4 and 5 it showed 0.1% done
/// with an ETA of a day a minute before the count finished), so the trial is judged by
/// finishing. The choice depends on timing only through when a check looks, never the
/// count: both engines count the same.
pub(super) fn count_auto(inst: &Instance, opts: &RunOptions, rule: AutoRule) -> Result<RunReport> {
    let exact_opts = RunOptions {
        engine: EngineChoice::Exact,
        ..opts.clone()
    };
    // Whether the memo engine can take the count is asked only of a long count, on the
    // watcher's thread: a short one pays nothing for it.
    let memo_applies = || {
        memo_reducer(&LazyEngine::new(inst), opts.up_to).is_ok()
            && MemoEngine::new(&inst.model).is_ok()
    };
    let mut exact_tree = 0.0;
    let (report, stopped) = watched(inst, &exact_opts, |p| {
        let (nodes, done) = (p.nodes(), p.fraction_done());
        if nodes < rule.check {
            return Watch::Going;
        }
        let tree = nodes as f64 / done.max(1e-12);
        if tree < rule.long * nodes as f64 || !memo_applies() {
            return Watch::Settled;
        }
        exact_tree = tree;
        Watch::Stop
    })?;
    let interrupted = || own_interrupted_by_user(&opts.progress);
    if !stopped || interrupted() {
        return Ok(report);
    }
    let exact_cost = exact_tree / opts.threads.max(1) as f64;
    let budget = exact_cost * rule.memo_share / MEMO_NODE_COST;
    let memo_opts = RunOptions {
        engine: EngineChoice::Memo,
        ..opts.clone()
    };
    let (mut report, stopped) = watched(inst, &memo_opts, |p| {
        if p.nodes() as f64 > budget {
            Watch::Stop
        } else {
            Watch::Going
        }
    })?;
    let threads = format!(
        "{} thread{}",
        opts.threads.max(1),
        if opts.threads > 1 { "s" } else { "" }
    );
    let figures = format!(
        "an estimated {exact_tree:.3e} exact-engine nodes on {threads}, a memo trial of at most {budget:.3e} nodes"
    );
    if !stopped || interrupted() {
        auto_summary(&mut report, format!("memo chosen, {figures}"));
        return Ok(report);
    }
    if let Some(u) = &opts.progress {
        u.reset_counters();
    }
    let mut report = count_with(inst, &exact_opts)?;
    auto_summary(&mut report, format!("exact kept, {figures} did not finish"));
    Ok(report)
}

/// Whether the model has an item some solution covers more than once (a piece of several
/// copies, a ranged piece).
fn has_copies(inst: &Instance) -> bool {
    inst.model
        .items
        .iter()
        .any(|it| !it.is_secondary() && it.max > 1)
}

/// What a watch over a running count says.
enum Watch {
    /// Look again later.
    Going,
    /// Let the count finish; stop looking.
    Settled,
    /// Stop the count: another engine is to run.
    Stop,
}

/// Runs [`count_with`] on a progress of its own, watched: its counters are passed on to
/// the run's progress (a display goes on as before; they are set back to zero when a new
/// count starts over), a Ctrl-C on the run's progress stops it, and `watch` looks at its
/// counters every 5 ms until it settles or stops the count. Returns the report
/// and whether `watch` stopped it.
fn watched(
    inst: &Instance,
    opts: &RunOptions,
    mut watch: impl FnMut(&Progress) -> Watch + Send,
) -> Result<(RunReport, bool)> {
    let own = Arc::new(Progress::new());
    let user = opts.progress.clone();
    if let Some(u) = &user {
        u.reset_counters();
    }
    let finished = std::sync::atomic::AtomicBool::new(false);
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let relaxed = std::sync::atomic::Ordering::Relaxed;
    let run_opts = RunOptions {
        progress: Some(Arc::clone(&own)),
        ..opts.clone()
    };
    let report = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let (mut nodes, mut solutions, mut done) = (0u64, 0u64, 0f64);
            let mut looking = true;
            loop {
                let end = finished.load(relaxed);
                if let Some(u) = &user {
                    let (n, s, d) = (own.nodes(), own.solutions(), own.fraction_done());
                    u.record(n - nodes, s - solutions, d - done);
                    (nodes, solutions, done) = (n, s, d);
                    if own.accelerates() && !u.accelerates() {
                        u.set_accelerates();
                    }
                    if u.is_interrupted() {
                        own.interrupt();
                    }
                }
                if end {
                    return;
                }
                if looking {
                    match watch(&own) {
                        Watch::Going => {}
                        Watch::Settled => looking = false,
                        Watch::Stop => {
                            stopped.store(true, relaxed);
                            own.interrupt();
                            looking = false;
                        }
                    }
                }
                std::thread::park_timeout(Duration::from_millis(5));
            }
        });
        let report = count_with(inst, &run_opts);
        finished.store(true, relaxed);
        watcher.thread().unpark();
        // The watcher only reads counters and sets flags; it cannot panic but by a bug.
        let _ = watcher.join();
        report
    })?;
    // A count the watch stopped is not a Ctrl-C: the caller runs another engine. A count
    // that finished before it saw the stop is whole, and kept.
    let stopped = stopped.load(relaxed) && report.interrupted;
    let interrupted = report.interrupted && (!stopped || own_interrupted_by_user(&user));
    Ok((
        RunReport {
            interrupted,
            ..report
        },
        stopped,
    ))
}

/// True when the run's own progress was interrupted (a Ctrl-C, a stop button).
fn own_interrupted_by_user(user: &Option<Arc<Progress>>) -> bool {
    user.as_ref().is_some_and(|u| u.is_interrupted())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UpTo;
    use crate::puzzle::bundled;
    use crate::run::count;

    /// An automatic count switches engines only through measurement, and whatever it
    /// chooses counts the published figure. With the check moved down to a few thousand
    /// nodes, the 8x8 domino board (one piece of many copies) goes to the memo engine,
    /// Conway's puzzle (pieces of several copies) stays with the exact one when the memo
    /// trial has no budget, and the pentominoes' 6x10 board (a narrow band) stays with it
    /// when the trial does not finish in its half; the Tetris Cube's distinct pieces in
    /// a box never try the memo engine. Under the real rule short counts run as the exact
    /// engine does.
    #[test]
    fn an_automatic_count_chooses_by_measurement_and_counts_the_same() {
        let early = AutoRule {
            check: 4096,
            long: 2.0,
            memo_share: 0.25,
        };
        // Every look stops the exact count, and no memo trial is good enough.
        let eager = AutoRule {
            long: 1.0,
            memo_share: 0.0,
            ..early
        };
        let auto = |up_to| RunOptions {
            engine: EngineChoice::Auto,
            up_to,
            progress: Some(Arc::new(Progress::new())),
            ..RunOptions::default()
        };
        for (name, up_to, rule, known, chosen) in [
            (
                "dominoes-8x8",
                UpTo::None,
                early,
                12_988_816,
                "(auto: memo chosen",
            ),
            (
                "conway-puzzle",
                UpTo::None,
                eager,
                27_456,
                "(auto: exact kept",
            ),
            // Distinct pieces on a narrow board are tried, and the trial runs out of budget:
            // few solutions, so few states repeat.
            (
                "pentominoes-6x10",
                UpTo::Rotation,
                early,
                2_339,
                "(auto: exact kept",
            ),
        ] {
            let inst = Instance::new(bundled(name).unwrap()).unwrap();
            let opts = auto(up_to);
            let r = count_auto(&inst, &opts, rule).unwrap();
            assert_eq!(r.count, known, "{name}: {}", r.engine);
            assert!(
                !r.interrupted && r.engine.contains(chosen),
                "{name}: {}",
                r.engine
            );
            // The run's progress holds the figures of the count that finished, not those
            // of a count stopped before it.
            let p = opts.progress.as_ref().unwrap();
            assert_eq!(p.solutions(), r.raw, "{name}: {}", r.engine);
            // Its time left follows a rising pace only when the memo engine counted.
            assert_eq!(p.accelerates(), chosen.contains("memo"), "{name}");
        }
        // Distinct pieces in a box are never measured against the memo engine.
        let tetris = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
        assert!(!memo_may_pay(&tetris));
        let r = count(&tetris, &auto(UpTo::Rotation)).unwrap();
        assert_eq!(r.count, 9_839);
        assert!(!r.engine.contains("auto:"), "{}", r.engine);
        let soma = Instance::new(bundled("soma").unwrap()).unwrap();
        for (up_to, known) in [(UpTo::None, 11_520), (UpTo::Rotation, 480)] {
            let r = count(&soma, &auto(up_to)).unwrap();
            assert_eq!(r.count, known);
            assert!(!r.engine.contains("auto:"), "{}", r.engine);
        }
    }
}
