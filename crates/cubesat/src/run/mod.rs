//! Solving runs: one puzzle's placements, model and verifier (an [`Instance`]), and the runs that list or count its solutions with a chosen engine and counting mode.
//!
//! Every solution an engine reports passes the independent [`Verifier`] and the counting
//! mode's [`Reducer`] before it is listed or counted; a solution that fails verification
//! aborts the run with an error.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Result, bail};
use cubesat_xc::cuts::{self, Refutation};
use cubesat_xc::dlx::Dlx;
use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::memo::{DEFAULT_CACHE_BYTES, MemoConfig, MemoEngine};
use cubesat_xc::sat::{
    CUBES_ENUMERATION, CUBES_ENUMERATION_VARISAT, CUBES_LISTING, CUBES_LISTING_VARISAT,
    CubeAndConquer, DEFAULT_EXACT_BUDGET, SatConfig,
};
use cubesat_xc::{Engine, ExactCover, Progress, Query, Shard, add_summary};

use crate::counting::{Branch, Reducer, UpTo};
use crate::placements::PlacementTable;
use crate::puzzle::{ModeCount, Puzzle};
use crate::solution::{Solution, Verifier};

mod auto;

use auto::{AUTO, count_auto, memo_may_pay};

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
    /// More counting modes to count from the same search as [`RunOptions::up_to`] (a whole
    /// count by an engine that visits its solutions): the search is the rotation mode's,
    /// and each mode weighs every solution it finds ([`Reducer`]'s module documentation),
    /// so the modes cost one search instead of one each. The counts are in
    /// [`RunReport::also`].
    pub also_up_to: Vec<UpTo>,
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
            also_up_to: Vec::new(),
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
    /// The counts of [`RunOptions::also_up_to`]'s modes from the same search, in its order.
    pub also: Vec<(UpTo, u64)>,
}

impl RunReport {
    /// The run's report in each mode it counted: its own mode (`up_to`, the run's
    /// [`RunOptions::up_to`]) first, then those counted from the same search
    /// ([`RunReport::also`]), each with that mode's count.
    pub fn by_mode(&self, up_to: UpTo) -> Vec<(UpTo, RunReport)> {
        let one = |count| RunReport {
            count,
            also: Vec::new(),
            ..self.clone()
        };
        std::iter::once((up_to, one(self.count)))
            .chain(self.also.iter().map(|&(m, c)| (m, one(c))))
            .collect()
    }
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
        && opts.also_up_to.is_empty()
        && memo_may_pay(inst)
    {
        return count_auto(inst, opts, AUTO);
    }
    count_with(inst, opts)
}

/// [`count`] with the engine `opts` names (`auto` as [`EngineChoice::resolve`] says).
fn count_with(inst: &Instance, opts: &RunOptions) -> Result<RunReport> {
    let exact = LazyEngine::new(inst);
    let (reducer, memo_weight) = if opts.engine.resolve() == EngineChoice::Memo {
        if !opts.also_up_to.is_empty() {
            bail!(
                "the memo engine counts one mode a run: it never sees a solution to weigh in another"
            );
        }
        memo_reducer(&exact, opts.up_to)?
    } else if opts.also_up_to.is_empty() {
        (exact.reducer(opts.up_to, true)?, 1)
    } else {
        (shared_search(inst, &exact)?, 1)
    };
    // Several modes: each weighs the rotation mode's search, the first as the count.
    let (reducer, also) = if opts.also_up_to.is_empty() {
        (reducer, Vec::new())
    } else {
        let mut also = Vec::with_capacity(opts.also_up_to.len());
        for &mode in &opts.also_up_to {
            also.push(sharing(inst, &reducer, mode)?);
        }
        (sharing(inst, &reducer, opts.up_to)?, also)
    };
    if !also.is_empty() && opts.limit.is_some() {
        bail!("counting several modes from one search counts whole runs: it takes no limit");
    }
    let verifier = inst.verifier();
    let mut report = RunReport {
        description: reducer.describe(&inst.puzzle),
        also: opts.also_up_to.iter().map(|&m| (m, 0)).collect(),
        ..RunReport::default()
    };
    if !also.is_empty() {
        let modes: Vec<String> = opts.also_up_to.iter().map(UpTo::to_string).collect();
        report.description.push_str(&format!(
            "; also counted from the same search: {}",
            modes.join(", ")
        ));
    }
    if let Some(r) = refuted(inst, opts, &mut report) {
        return Ok(r);
    }
    let failure: Mutex<Option<crate::Error>> = Mutex::new(None);
    let n = inst.table.len();
    let also_counts: Vec<AtomicU64> = also.iter().map(|_| AtomicU64::new(0)).collect();
    let weigh = |s: &[u32]| -> u64 {
        let s = placements_of(s, n);
        if let Err(e) = verifier.verify(s) {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            return 0;
        }
        for (r, c) in also.iter().zip(&also_counts) {
            c.fetch_add(r.weight(s), Ordering::Relaxed);
        }
        reducer.weight(s)
    };
    let tally = |report: &mut RunReport| {
        for ((_, count), c) in report.also.iter_mut().zip(&also_counts) {
            *count = c.load(Ordering::Relaxed);
        }
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
        tally(&mut report);
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

/// The search of a count in several modes: the rotation mode's reduction, whose group is
/// a subgroup of every mode's, with its restricted piece measured as a count's.
fn shared_search(inst: &Instance, exact: &LazyEngine) -> Result<Reducer> {
    let search = exact.reducer(UpTo::Rotation, true)?;
    if search.breaks_at_cell() {
        bail!(
            "'{}' has no piece used once to hold to one placement per orbit, so each counting mode needs a search of its own: count them one at a time",
            crate::echo::echo(&inst.puzzle.name)
        );
    }
    Ok(search)
}

/// The reduction of `mode` weighing the solutions of `search`'s restriction
/// ([`Reducer::sharing_search_of`]): `search` itself for its own mode.
fn sharing(inst: &Instance, search: &Reducer, mode: UpTo) -> Result<Reducer> {
    if mode == search.mode() {
        return Ok(search.clone());
    }
    // Its own restriction is replaced by the search's, so it is not measured.
    let own = Reducer::with_engine_from(&inst.puzzle, &inst.table, mode, true, false, &|| None)?;
    match own.sharing_search_of(search) {
        Some(r) => Ok(r),
        None => bail!(
            "counting up to {mode} cannot share the search up to {}: its symmetries do not include the search's; count it alone",
            search.mode()
        ),
    }
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
