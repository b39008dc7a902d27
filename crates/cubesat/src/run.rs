//! Solving runs: one puzzle's placements, model and verifier (an [`Instance`]), and the runs that list or count its solutions with a chosen engine and counting mode.
//!
//! Every solution an engine reports passes the independent [`Verifier`] and the counting
//! mode's [`Reducer`] before it is listed or counted; a solution that fails verification
//! aborts the run with an error.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Result, bail};
use cubesat_xc::cuts::{self, Refutation};
use cubesat_xc::dlx::Dlx;
use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::memo::{self, DEFAULT_CACHE_BYTES, MemoConfig, MemoEngine};
use cubesat_xc::sat::{
    CUBES_ENUMERATION, CUBES_ENUMERATION_VARISAT, CUBES_LISTING, CUBES_LISTING_VARISAT,
    CubeAndConquer, DEFAULT_EXACT_BUDGET, SatConfig,
};
use cubesat_xc::{Engine, ExactCover, Progress, Query, Shard, add_summary};

use crate::counting::{Branch, Reducer, UpTo};
use crate::placements::PlacementTable;
use crate::puzzle::{ModeCount, Puzzle};
use crate::solution::{Solution, Verifier};

/// Which engine runs the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The exact-cover engine for listing and counting alike (the fastest measured).
    #[default]
    Auto,
    /// The bitset exact-cover engine.
    Exact,
    /// The plain dancing-links baseline.
    Dlx,
    /// The varisat SAT engine with blocking clauses.
    Sat,
    /// The memoized counter ([`cubesat_xc::memo`]): counts only, where every solution of the
    /// search weighs the same (`none`, or a mode whose restriction alone is exact), whole
    /// runs only; its solutions are not listed, so not verified one by one.
    Memo,
}

impl EngineChoice {
    /// The engine `auto` stands for.
    pub fn resolve(self) -> EngineChoice {
        match self {
            EngineChoice::Auto => EngineChoice::Exact,
            e => e,
        }
    }
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Exact => "exact",
            EngineChoice::Dlx => "dlx",
            EngineChoice::Sat => "sat",
            EngineChoice::Memo => "memo",
        })
    }
}

impl FromStr for EngineChoice {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<EngineChoice> {
        Ok(match s {
            "auto" => EngineChoice::Auto,
            "exact" => EngineChoice::Exact,
            "dlx" => EngineChoice::Dlx,
            "sat" => EngineChoice::Sat,
            "memo" => EngineChoice::Memo,
            _ => bail!(
                "unknown engine '{}' (expected auto, exact, dlx, sat or memo)",
                crate::echo::echo(s)
            ),
        })
    }
}

/// A puzzle ready to solve: its placements and exact-cover model, placements checked.
pub struct Instance {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its placements.
    pub table: PlacementTable,
    /// The exact-cover model (option `o` = placement `o`; options past the placements are the
    /// holes of a puzzle with piece ranges and optional cells, see
    /// [`PlacementTable::hole_item`]); shared with the exact engine, which keeps it.
    pub model: Arc<ExactCover>,
}

/// The exact engine of an instance's model, prepared on first use and shared by one run's
/// reduction (which measures its candidate pieces with it) and its search; dropped with the
/// run, so an instance kept for its solutions does not keep the engine's tables.
pub struct LazyEngine<'a> {
    inst: &'a Instance,
    engine: std::sync::OnceLock<ExactEngine>,
}

impl<'a> LazyEngine<'a> {
    /// Nothing prepared yet.
    pub fn new(inst: &'a Instance) -> LazyEngine<'a> {
        LazyEngine {
            inst,
            engine: std::sync::OnceLock::new(),
        }
    }

    /// The engine (default settings), prepared at the first call.
    pub fn get(&self) -> Result<ExactEngine> {
        if let Some(e) = self.engine.get() {
            return Ok(e.clone());
        }
        let e = ExactEngine::new_shared(Arc::clone(&self.inst.model))?;
        Ok(self.engine.get_or_init(|| e).clone())
    }

    /// The instance's symmetry reduction for `mode` ([`Reducer::new`]), measured with this
    /// engine (prepared only if there is a restricted piece to choose).
    pub fn reducer(&self, mode: UpTo, counting: bool) -> Result<Reducer> {
        Reducer::with_engine_from(
            &self.inst.puzzle,
            &self.inst.table,
            mode,
            counting,
            false,
            &|| self.get().ok(),
        )
    }

    /// The reduction of a memoized count: a restricted piece only where the restriction
    /// alone is exact, chosen without measuring, the group taken as its distinct actions
    /// on placements.
    pub fn memo_reducer(&self, mode: UpTo) -> Result<Reducer> {
        Reducer::with_engine_from(
            &self.inst.puzzle,
            &self.inst.table,
            mode,
            true,
            true,
            &|| self.get().ok(),
        )
    }
}

impl Instance {
    /// Enumerates placements, builds the model and checks every placement geometrically.
    pub fn new(puzzle: Puzzle) -> Result<Instance> {
        let table = PlacementTable::new(&puzzle)?;
        let model = table.model(&puzzle);
        Verifier::new(&puzzle, &table).check_placements()?;
        Ok(Instance {
            puzzle,
            table,
            model: Arc::new(model),
        })
    }

    /// The symmetry reduction of this instance for `mode` ([`Reducer::new`]), measured with
    /// an exact engine prepared only if there is a restricted piece to choose.
    pub fn reducer(&self, mode: UpTo, counting: bool) -> Result<Reducer> {
        LazyEngine::new(self).reducer(mode, counting)
    }

    /// The reduction a memoized count uses for `mode` ([`LazyEngine::memo_reducer`]).
    pub fn memo_reducer(&self, mode: UpTo) -> Result<Reducer> {
        LazyEngine::new(self).memo_reducer(mode)
    }

    /// The verifier for this instance's solutions.
    pub fn verifier(&self) -> Verifier<'_> {
        Verifier::new(&self.puzzle, &self.table)
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The engine.
    pub engine: EngineChoice,
    /// What counts as one solution.
    pub up_to: UpTo,
    /// Stop after this many solutions (listed or counted).
    pub limit: Option<u64>,
    /// Worker threads for the exact engine and the SAT engine's cubes (1 = sequential; the
    /// rules for how many a request gets are [`crate::plan`]'s).
    pub threads: usize,
    /// Prune dead regions in the exact engine.
    pub prune: bool,
    /// At-most-one encoding for the SAT engine.
    pub amo: AtMostOne,
    /// For the SAT engine: split the search into at least this many cubes (the exact-cover
    /// engine's top subtrees), each cube's residual model solved by a fresh solver with
    /// blocking clauses ([`CubeAndConquer`]); 0 or 1 searches the whole instance with
    /// blocking clauses alone; `None` picks [`CUBES_LISTING`] for a limited run and
    /// [`CUBES_ENUMERATION`] otherwise ([`CUBES_LISTING_VARISAT`] and
    /// [`CUBES_ENUMERATION_VARISAT`] when varisat gets every cube).
    pub sat_cubes: Option<usize>,
    /// For the SAT engine with pruning on: the exact engine's node budget per cube, before the
    /// cube goes to varisat (0 = every cube to varisat); `None` is
    /// [`cubesat_xc::sat::DEFAULT_EXACT_BUDGET`].
    pub sat_exact_budget: Option<u64>,
    /// Live counters for a progress display; its interrupt flag (set by Ctrl-C) stops the
    /// run, which then reports what it counted so far.
    pub progress: Option<Arc<Progress>>,
    /// Run only this shard of the search ([`Shard`]): the shards of one run partition its
    /// solutions (see [`crate::shard`]). Not with a limit; the dancing-links engine refuses.
    pub shard: Option<Shard>,
    /// The most bytes the memo engine's cache may take, its growth included; `None` is
    /// [`DEFAULT_CACHE_BYTES`]. The count is exact at any bound: a full cache replaces old
    /// entries by new ones.
    pub memory: Option<u64>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            engine: EngineChoice::Auto,
            up_to: UpTo::Rotation,
            limit: None,
            threads: 1,
            prune: true,
            amo: AtMostOne::default(),
            sat_cubes: None,
            sat_exact_budget: None,
            progress: None,
            shard: None,
            memory: None,
        }
    }
}

/// What a run did, for the statistics line.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The engine that ran.
    pub engine: String,
    /// Solutions listed, or the count (weighted for derived `none` counts).
    pub count: u64,
    /// Solutions the search reported before symmetry filtering.
    pub raw: u64,
    /// Search nodes, where the engine counts them.
    pub nodes: Option<u64>,
    /// True when the run stopped early on a limit.
    pub limited: bool,
    /// True when Ctrl-C stopped the run; the count is then a lower bound.
    pub interrupted: bool,
    /// What was counted, e.g. "up to rotation (24 symmetries; ...)".
    pub description: String,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Set when a global cut proved before any search that there is no solution (the count is
    /// then 0 and no engine ran).
    pub refutation: Option<Refutation>,
}

/// The report of a run that the colouring cut ([`cuts::refute`]) settles before any search:
/// `None` when it does not refute the model, or when pruning is off (`--no-prune`, which
/// asks for the plain search).
fn refuted(inst: &Instance, opts: &RunOptions, report: &mut RunReport) -> Option<RunReport> {
    if !opts.prune {
        return None;
    }
    let start = Instant::now();
    let r = cuts::refute(&inst.model)?;
    Some(RunReport {
        engine: "none: refuted by the checkerboard colouring before any search".to_string(),
        elapsed: start.elapsed(),
        refutation: Some(r),
        ..std::mem::take(report)
    })
}

/// The placements of a solution: options below `placements` (the holes come after them, see
/// [`PlacementTable::hole_item`]).
fn placements_of(solution: &[u32], placements: usize) -> &[u32] {
    &solution[..solution.partition_point(|&o| (o as usize) < placements)]
}

/// The engine `opts` asks for, bound to the instance's model (`memo_weight`: the memo
/// engine's weight of every solution, [`memo_reducer`]). Listing skips the exact
/// engine's one-time option preprocessing: it would dominate the time to a first solution,
/// and skipping it in every listing keeps `limit N` a prefix of the full list. Counting keeps
/// it.
fn engine<'a>(
    inst: &'a Instance,
    exact: &LazyEngine,
    opts: &RunOptions,
    counting: bool,
    memo_weight: u64,
) -> Result<Box<dyn Engine + 'a>> {
    if opts.shard.is_some() && opts.limit.is_some() {
        // A limit would keep a prefix of each shard, which no merge can add up.
        bail!("a shard runs whole: it cannot stop at a limit");
    }
    Ok(match opts.engine.resolve() {
        EngineChoice::Exact | EngineChoice::Auto => Box::new(
            exact
                .get()?
                .with_pruning(opts.prune)
                .with_preprocess(opts.prune && counting),
        ),
        EngineChoice::Dlx => Box::new(Dlx::new(&inst.model)?),
        EngineChoice::Memo => {
            if !counting || opts.limit.is_some() {
                bail!("the memo engine only counts whole runs (--count without --limit)");
            }
            // [`memo_reducer`] kept the runs where every solution weighs the same.
            let config = MemoConfig {
                solution_weight: Some(memo_weight),
                max_cache_bytes: opts.memory.unwrap_or(DEFAULT_CACHE_BYTES),
                ..MemoConfig::default()
            };
            Box::new(MemoEngine::with_config(&inst.model, config)?)
        }
        EngineChoice::Sat => {
            let config = SatConfig {
                amo: opts.amo,
                ..SatConfig::default()
            };
            let budget = opts.sat_exact_budget.unwrap_or(DEFAULT_EXACT_BUDGET);
            let exact_first = budget > 0 && opts.prune;
            let cubes = opts.sat_cubes.unwrap_or(match (opts.limit, exact_first) {
                (None, true) => CUBES_ENUMERATION,
                (None, false) => CUBES_ENUMERATION_VARISAT,
                (Some(_), true) => CUBES_LISTING,
                (Some(_), false) => CUBES_LISTING_VARISAT,
            });
            Box::new(
                CubeAndConquer::new(&inst.model, config, cubes)?
                    .lookahead(opts.prune)
                    .exact_budget(budget),
            )
        }
    })
}

/// The engine query for one branch of a run: the branch's forced and excluded options, the
/// threads, the progress.
fn query(opts: &RunOptions, branch: &Branch) -> Query {
    Query {
        forced: branch.forced.clone(),
        excluded: branch.excluded.clone(),
        threads: opts.threads,
        progress: opts.progress.clone(),
        shard: opts.shard,
    }
}

/// The reducer's branches and their number, with the progress told each one's share of
/// the run.
fn branches<'a>(
    reducer: &'a Reducer,
    opts: &RunOptions,
) -> (impl Iterator<Item = Branch> + 'a, usize) {
    let n = reducer.branch_count();
    if let Some(p) = &opts.progress {
        p.set_share(1.0 / n as f64);
    }
    (reducer.branches(), n)
}

/// Node counts added up over branches: `None` once an engine does not count them.
fn add_nodes(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a? + b?)
}

/// Streams the solutions of every branch of `reducer` to `sink`, branch after branch, until
/// the sink breaks or the run is interrupted; the engine's summary, the nodes and the
/// interruption go into `report`.
fn enumerate_branches(
    engine: &dyn Engine,
    reducer: &Reducer,
    opts: &RunOptions,
    report: &mut RunReport,
    sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<()> {
    report.nodes = Some(0);
    let (all, n) = branches(reducer, opts);
    for (i, branch) in all.enumerate() {
        let stats = engine.enumerate(&query(opts, &branch), sink)?;
        add_summary(&mut report.engine, stats.summary, i, n);
        report.nodes = add_nodes(report.nodes, stats.nodes);
        report.interrupted = stats.interrupted;
        if stats.stopped || stats.interrupted {
            break;
        }
    }
    Ok(())
}

/// Lists solutions in the engine's order, each verified and (in reduced modes) canonical,
/// up to `opts.limit`; `sink` returns false to stop early.
pub fn list(
    inst: &Instance,
    opts: &RunOptions,
    mut sink: impl FnMut(&Solution) -> bool,
) -> Result<RunReport> {
    let exact = LazyEngine::new(inst);
    let reducer = exact.reducer(opts.up_to, false)?;
    let verifier = inst.verifier();
    let mut report = RunReport {
        description: reducer.describe(&inst.puzzle),
        ..RunReport::default()
    };
    if let Some(r) = refuted(inst, opts, &mut report) {
        return Ok(r);
    }
    let mut failure = None;
    let start = Instant::now();
    let n = inst.table.len();
    let (mut raw, mut count, mut limited) = (0u64, 0u64, false);
    let mut visit = |s: &[u32]| -> bool {
        let s = placements_of(s, n);
        raw += 1;
        if let Err(e) = verifier.verify(s) {
            failure = Some(e);
            return false;
        }
        if reducer.weight(s) == 0 {
            return true;
        }
        count += 1;
        let go_on = sink(&Solution {
            placements: s.to_vec(),
        });
        if opts.limit.is_some_and(|l| count >= l) {
            limited = true;
            return false;
        }
        go_on
    };
    let engine = engine(inst, &exact, opts, false, 1)?;
    enumerate_branches(&*engine, &reducer, opts, &mut report, &mut |s| {
        if visit(s) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    (report.raw, report.count, report.limited) = (raw, count, limited);
    if let Some(e) = failure {
        return Err(e.context(format!(
            "the {} engine reported an invalid solution",
            report.engine
        )));
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Counts solutions in the given mode (up to `opts.limit` counted solutions), verifying
/// every one the engine visits. With [`EngineChoice::Auto`] a whole count of a puzzle the
/// memo engine may count faster (a piece of several copies, or a profile band of at most 8
/// cells) that is still running after 2^25 nodes,
/// with an estimated tree 20 times larger, goes to the memo engine when a memo trial
/// finishes within half the exact engine's estimated cost.
pub fn count(inst: &Instance, opts: &RunOptions) -> Result<RunReport> {
    if opts.engine == EngineChoice::Auto
        && opts.limit.is_none()
        && opts.shard.is_none()
        && memo_may_pay(inst)
    {
        return count_auto(inst, opts, AUTO);
    }
    count_with(inst, opts)
}

/// When an automatic count ([`count_auto`]) looks at the memo engine.
#[derive(Clone, Copy, Debug)]
struct AutoRule {
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
const AUTO: AutoRule = AutoRule {
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
fn memo_may_pay(inst: &Instance) -> bool {
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
fn count_auto(inst: &Instance, opts: &RunOptions, rule: AutoRule) -> Result<RunReport> {
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

/// [`count`] with the engine `opts` names (`auto` as [`EngineChoice::resolve`] says).
fn count_with(inst: &Instance, opts: &RunOptions) -> Result<RunReport> {
    let exact = LazyEngine::new(inst);
    let (reducer, memo_weight) = if opts.engine.resolve() == EngineChoice::Memo {
        memo_reducer(&exact, opts.up_to)?
    } else {
        (exact.reducer(opts.up_to, true)?, 1)
    };
    let verifier = inst.verifier();
    let mut report = RunReport {
        description: reducer.describe(&inst.puzzle),
        ..RunReport::default()
    };
    if let Some(r) = refuted(inst, opts, &mut report) {
        return Ok(r);
    }
    let failure: Mutex<Option<crate::Error>> = Mutex::new(None);
    let n = inst.table.len();
    let weigh = |s: &[u32]| -> u64 {
        let s = placements_of(s, n);
        if let Err(e) = verifier.verify(s) {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            return 0;
        }
        reducer.weight(s)
    };
    let start = Instant::now();
    let engine = engine(inst, &exact, opts, true, memo_weight)?;
    let invalid = |summary: &str, e: crate::Error| {
        e.context(format!("the {summary} engine reported an invalid solution"))
    };
    if opts.limit.is_none() {
        // Nothing stored or formatted; every solution is still verified inside `weigh`.
        let (all, _) = branches(&reducer, opts);
        let queries: Vec<Query> = all.map(|b| query(opts, &b)).collect();
        let r = engine.count_all(&queries, &weigh)?;
        report.engine = r.summary;
        (report.count, report.raw, report.nodes) = (r.total, r.solutions, r.nodes);
        report.interrupted = r.interrupted;
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(invalid(&opts.engine.resolve().to_string(), e));
        }
        report.elapsed = start.elapsed();
        return Ok(report);
    }
    let limit = opts.limit.unwrap_or(u64::MAX);
    let (mut total, mut raw, mut classes) = (0u64, 0u64, 0u64);
    enumerate_branches(&*engine, &reducer, opts, &mut report, &mut |s| {
        raw += 1;
        let w = weigh(s);
        if w > 0 {
            total += w;
            classes += 1;
        }
        if classes < limit && failure.lock().map(|f| f.is_none()).unwrap_or(false) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(invalid(&report.engine, e));
    }
    report.limited = classes >= limit;
    report.count = total;
    report.raw = raw;
    report.elapsed = start.elapsed();
    Ok(report)
}

/// The reduction of a memoized count and the weight of every solution it counts: the memo
/// engine never sees a solution, so it cannot weigh one. Kept are the reductions whose
/// restriction alone is exact in one search: each solution it counts then stands for one
/// class (weight 1), or for `none` for its whole orbit, whose size is the group's (its
/// distinct actions) because the restricted piece's placements have no symmetry in it.
/// `none` without such a restriction searches everything.
fn memo_reducer(exact: &LazyEngine, mode: UpTo) -> Result<(Reducer, u64)> {
    let r = exact.memo_reducer(mode)?;
    if r.restriction_is_exact() && r.branch_count() == 1 {
        let weight = if mode == UpTo::None {
            r.group_size() as u64
        } else {
            1
        };
        return Ok((r, weight));
    }
    if mode == UpTo::None {
        return Ok((exact.reducer(mode, false)?, 1));
    }
    bail!(
        "the memo engine cannot count this puzzle up to {mode}: its solutions need a check each (try --up-to none or another engine)"
    );
}

/// A full count as a catalog record states it ([`crate::puzzle::Catalog`]):
/// [`ModeCount::Undefined`] when the mode is refused for the piece set (up to reflection
/// for a set that is not closed under mirror images), the count otherwise. A limited or
/// interrupted run is an error: it would record a lower bound.
pub fn catalog_count(inst: &Instance, opts: &RunOptions) -> Result<ModeCount> {
    if opts.limit.is_some() {
        bail!("a catalog count is a full count: no limit");
    }
    match count(inst, opts) {
        Ok(r) if r.interrupted => bail!("interrupted"),
        Ok(r) => Ok(ModeCount::Count(r.count)),
        Err(e)
            if matches!(
                e.root(),
                crate::Error::Unsupported {
                    request: crate::Request::UpTo,
                    ..
                }
            ) =>
        {
            Ok(ModeCount::Undefined)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::bundled;

    fn counts(name: &str, engine: EngineChoice) -> [u64; 3] {
        let inst = Instance::new(bundled(name).unwrap()).unwrap();
        let mut out = [0; 3];
        for (i, mode) in [UpTo::None, UpTo::Rotation, UpTo::RotationReflection]
            .into_iter()
            .enumerate()
        {
            let opts = RunOptions {
                engine,
                up_to: mode,
                ..RunOptions::default()
            };
            out[i] = count(&inst, &opts).unwrap().count;
        }
        out
    }

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

    #[test]
    fn small_known_counts_with_dancing_links() {
        assert_eq!(counts("soma", EngineChoice::Dlx), [11520, 480, 240]);
        assert_eq!(
            counts("tetracubes-two-2x2x4", EngineChoice::Dlx),
            [1280, 10, 5]
        );
        assert_eq!(counts("pentominoes-3x20", EngineChoice::Dlx), [8, 2, 2]);
    }

    #[test]
    fn small_known_counts_with_the_exact_engine() {
        assert_eq!(counts("soma", EngineChoice::Exact), [11520, 480, 240]);
        assert_eq!(
            counts("tetracubes-two-2x2x4", EngineChoice::Exact),
            [1280, 10, 5]
        );
        assert_eq!(counts("pentominoes-3x20", EngineChoice::Exact), [8, 2, 2]);
    }
}
