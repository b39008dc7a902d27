//! Solving runs: one puzzle's placements, model and verifier (an [`Instance`]), and the runs that list or count its solutions with a chosen engine and counting mode.
//!
//! Every solution an engine reports passes the independent [`Verifier`] and the counting
//! mode's [`Reducer`] before it is listed or counted; a solution that fails verification
//! aborts the run with an error.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::counting::{Reducer, UpTo};
use crate::encoding::AtMostOne;
use crate::engines::dlx::Dlx;
use crate::engines::exact::{ExactEngine, Progress};
use crate::engines::sat::{Conquer, Cube, SatConfig, SatEngine, conquer_cubes};
use crate::model::ExactCover;
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
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
        })
    }
}

impl FromStr for EngineChoice {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<EngineChoice> {
        Ok(match s {
            "auto" => EngineChoice::Auto,
            "exact" => EngineChoice::Exact,
            "dlx" => EngineChoice::Dlx,
            "sat" => EngineChoice::Sat,
            _ => bail!("unknown engine '{s}' (expected auto, exact, dlx or sat)"),
        })
    }
}

/// A puzzle ready to solve: its placements and exact-cover model, placements checked.
pub struct Instance {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its placements.
    pub table: PlacementTable,
    /// The exact-cover model (option `o` = placement `o`).
    pub model: ExactCover,
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
            model,
        })
    }

    /// The verifier for this instance's solutions.
    pub fn verifier(&self) -> Verifier<'_> {
        Verifier::new(&self.puzzle, &self.table)
    }
}

/// Cubes the SAT engine asks for by default in a limited listing (see
/// [`RunOptions::sat_cubes`]): cutting the tree costs time before the first cube is solved,
/// and a first Tetris Cube solution takes about 0.25 s with this split (75,714 cubes, four
/// of twelve placements fixed) against about 6 s with [`SAT_CUBES_ENUMERATION`].
pub const SAT_CUBES_LISTING: usize = 32_768;
/// Cubes the SAT engine asks for by default when it enumerates everything (`--all`,
/// `--count`): deeper cubes leave varisat smaller residual problems, the exact engine's
/// lookahead refutes most of them before any solver is built, and the cut is paid once. On
/// the Tetris Cube this makes 2,669,707 cubes, six of twelve placements fixed (the most
/// allowed: half a solution), where 262,144 asked made 580,550 cubes five deep and a count
/// about twice as slow (encodings/README.md).
pub const SAT_CUBES_ENUMERATION: usize = 1 << 20;
/// The most cubes `--cubes` may ask for.
pub const MAX_SAT_CUBES: usize = 1 << 22;

/// What to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The engine.
    pub engine: EngineChoice,
    /// What counts as one solution.
    pub up_to: UpTo,
    /// Stop after this many solutions (listed or counted).
    pub limit: Option<u64>,
    /// Worker threads for the exact engine and the SAT engine's cubes (1 = sequential).
    pub threads: usize,
    /// Prune dead regions in the exact engine.
    pub prune: bool,
    /// At-most-one encoding for the SAT engine.
    pub amo: AtMostOne,
    /// For the SAT engine: split the search into at least this many cubes (the exact-cover
    /// engine's top subtrees), each cube's residual model solved by a fresh solver with
    /// blocking clauses ([`conquer_cubes`]); 0 or 1 searches the whole instance with blocking
    /// clauses alone; `None` picks [`SAT_CUBES_LISTING`] for a limited run and
    /// [`SAT_CUBES_ENUMERATION`] otherwise.
    pub sat_cubes: Option<usize>,
    /// Live counters for a progress display; its interrupt flag (set by Ctrl-C) stops the
    /// run, which then reports what it counted so far.
    pub progress: Option<Arc<Progress>>,
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
            progress: None,
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
}

/// Routes Ctrl-C to `progress`: the first Ctrl-C asks the run to stop and report what it has;
/// a second one exits at once (for a run that does not check the flag, such as a long SAT
/// call). The handler is installed once per process.
pub fn install_interrupt(progress: Arc<Progress>) {
    static TARGET: OnceLock<Mutex<Option<Arc<Progress>>>> = OnceLock::new();
    let slot = TARGET.get_or_init(|| {
        // If a handler cannot be installed (another library owns SIGINT), Ctrl-C simply
        // terminates the process as usual.
        let _ = ctrlc::set_handler(|| {
            let target = TARGET
                .get()
                .and_then(|m| m.lock().ok().and_then(|g| g.clone()));
            match target {
                Some(p) if !p.is_interrupted() => p.interrupt(),
                _ => std::process::exit(130),
            }
        });
        Mutex::new(None)
    });
    if let Ok(mut g) = slot.lock() {
        *g = Some(progress);
    }
}

/// Runs the search, handing each raw solution (ascending placements) to `visit`, which
/// returns whether to go on.
fn search(
    inst: &Instance,
    opts: &RunOptions,
    excluded: &[u32],
    visit: &mut dyn FnMut(&[u32]) -> bool,
    report: &mut RunReport,
) -> Result<()> {
    let engine = opts.engine.resolve();
    report.engine = engine.to_string();
    let interrupted = || opts.progress.as_ref().is_some_and(|p| p.is_interrupted());
    match engine {
        EngineChoice::Exact | EngineChoice::Auto => {
            // Listing skips the one-time option preprocessing: it would dominate the time to a
            // first solution, and skipping it in every listing keeps `--limit N` a prefix of
            // `--all`. Counting (below) keeps it.
            let mut q = ExactEngine::new(&inst.model)?
                .query()
                .threads(opts.threads)
                .pruning(opts.prune)
                .preprocess(false)
                .exclude(excluded);
            if let Some(p) = &opts.progress {
                q = q.progress(p.clone());
            }
            let stats = q.enumerate(|s| visit(s))?;
            report.nodes = Some(stats.nodes);
            report.interrupted = stats.interrupted;
        }
        EngineChoice::Dlx => {
            // The baseline has no interrupt hook: it is checked between solutions.
            let stats = Dlx::new(&inst.model)?
                .exclude(excluded)?
                .enumerate(|s| !interrupted() && visit(s))?;
            report.nodes = Some(stats.nodes);
            report.interrupted = interrupted();
        }
        EngineChoice::Sat => {
            let config = SatConfig {
                amo: opts.amo,
                ..SatConfig::default()
            };
            let (cubes, weights, run_excluded) = sat_cubes(inst, opts, excluded)?;
            if cubes.len() <= 1 {
                // The whole instance on one solver, blocking clauses alone.
                let mut sat = SatEngine::new(&inst.model, config)?;
                sat.exclude_permanently(&run_excluded)?;
                sat.solve_cubes_with(&cubes, |_, s| {
                    if !interrupted() && visit(s) {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                })?;
                let st = sat.stats();
                report.engine = format!(
                    "sat ({} at-most-one, {} variables, {} clauses, {} cube(s), {} solve calls)",
                    opts.amo.name(),
                    st.variables,
                    st.clauses,
                    cubes.len(),
                    st.solve_calls
                );
            } else {
                // A limited listing wants its first cubes in order, soon: one thread.
                let threads = if opts.limit.is_some() {
                    1
                } else {
                    opts.threads
                };
                let how = Conquer {
                    config,
                    excluded: run_excluded,
                    lookahead: opts.prune,
                    threads,
                };
                let (_, st) = conquer_cubes(&inst.model, &cubes, &how, interrupted, |i, sols| {
                    if let Some(p) = &opts.progress {
                        p.record(0, sols.len() as u64, weights[i]);
                    }
                    for s in sols {
                        if interrupted() || !visit(s) {
                            return ControlFlow::Break(());
                        }
                    }
                    ControlFlow::Continue(())
                })?;
                report.engine = format!(
                    "sat ({} at-most-one, {} cubes, lookahead dropped {} options and refuted {} cubes, {} residual CNFs of {} clauses in all, largest {}, {} solve calls; CPU {:.1} s building, {:.1} s solving)",
                    opts.amo.name(),
                    cubes.len(),
                    st.lookahead_removed,
                    st.cubes_refuted,
                    st.cubes_solved,
                    st.clauses,
                    st.largest_clauses,
                    st.solve_calls,
                    st.build_time.as_secs_f64(),
                    st.solve_time.as_secs_f64()
                );
            }
            report.interrupted = interrupted();
        }
    }
    Ok(())
}

/// The cubes the SAT engine solves: the exact-cover engine's top subtrees (options chosen and
/// excluded on each path), which partition the solutions; one cube (the whole instance) when
/// splitting is off; and each cube's share of the tree (for the progress estimate). A cube
/// fixes at most half of the options of a solution (by a lower bound on how many a solution
/// holds), so the SAT solver always decides the rest: on a small puzzle the split stops short
/// of the cubes asked for rather than letting the exact engine hand over finished solutions.
/// Also returns the run-wide exclusions (`excluded`, plus the options the exact engine's
/// preprocessing proved to be in no solution).
fn sat_cubes(
    inst: &Instance,
    opts: &RunOptions,
    excluded: &[u32],
) -> Result<(Vec<Cube>, Vec<f64>, Vec<u32>)> {
    let wanted = opts.sat_cubes.unwrap_or(if opts.limit.is_some() {
        SAT_CUBES_LISTING
    } else {
        SAT_CUBES_ENUMERATION
    });
    // Every cube is held in memory (its path), so the split is bounded like other inputs.
    if wanted > MAX_SAT_CUBES {
        bail!("--cubes {wanted} is too many (at most {MAX_SAT_CUBES})");
    }
    if wanted <= 1 {
        return Ok((vec![Cube::default()], vec![1.0], excluded.to_vec()));
    }
    let exact = ExactEngine::new(&inst.model)?;
    let mut run_excluded = if opts.prune {
        exact.removed_options()
    } else {
        Vec::new()
    };
    run_excluded.extend_from_slice(excluded);
    run_excluded.sort_unstable();
    run_excluded.dedup();
    let subproblems = exact
        .query()
        .pruning(opts.prune)
        .exclude(excluded)
        .subproblems_within(wanted, min_solution_options(&inst.model) / 2)?;
    let weights = subproblems.iter().map(|s| s.weight).collect();
    let cubes = subproblems
        .into_iter()
        .map(|s| Cube {
            chosen: s.chosen,
            excluded: s.excluded,
        })
        .collect();
    Ok((cubes, weights, run_excluded))
}

/// A lower bound on the number of options in any solution of `model`. Exact for a puzzle
/// model, where every option holds exactly one piece item (the items before the cells): the
/// pieces' needs. Otherwise the coverage its primary items need, divided by the most primary
/// items one option holds (rounded up).
fn min_solution_options(model: &ExactCover) -> usize {
    if let Some(g) = &model.geometry {
        let pieces = g.first_cell;
        if model
            .options
            .iter()
            .all(|o| o.iter().filter(|&&i| i < pieces).count() == 1)
        {
            return model.items[..pieces as usize]
                .iter()
                .map(|it| it.need as usize)
                .sum();
        }
    }
    let need: usize = model.items.iter().map(|it| it.need as usize).sum();
    let widest = model
        .options
        .iter()
        .map(|o| {
            o.iter()
                .filter(|&&i| model.items[i as usize].need > 0)
                .count()
        })
        .max()
        .unwrap_or(1)
        .max(1);
    need.div_ceil(widest)
}

/// Lists solutions in the engine's order, each verified and (in reduced modes) canonical,
/// up to `opts.limit`; `sink` returns false to stop early.
pub fn list(
    inst: &Instance,
    opts: &RunOptions,
    mut sink: impl FnMut(&Solution) -> bool,
) -> Result<RunReport> {
    let reducer = Reducer::new(&inst.puzzle, &inst.table, opts.up_to, false)?;
    let verifier = inst.verifier();
    let mut report = RunReport {
        description: reducer.describe(&inst.puzzle),
        ..RunReport::default()
    };
    let mut failure = None;
    let start = Instant::now();
    let mut visit = |s: &[u32]| -> bool {
        report.raw += 1;
        if let Err(e) = verifier.verify(s) {
            failure = Some(e);
            return false;
        }
        if reducer.weight(s) == 0 {
            return true;
        }
        report.count += 1;
        let go_on = sink(&Solution {
            placements: s.to_vec(),
        });
        if opts.limit.is_some_and(|l| report.count >= l) {
            report.limited = true;
            return false;
        }
        go_on
    };
    let mut inner = RunReport::default();
    search(inst, opts, reducer.excluded(), &mut visit, &mut inner)?;
    if let Some(e) = failure {
        return Err(e.context(format!(
            "the {} engine reported an invalid solution",
            inner.engine
        )));
    }
    report.engine = inner.engine;
    report.nodes = inner.nodes;
    report.interrupted = inner.interrupted;
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Counts solutions in the given mode (up to `opts.limit` counted solutions), verifying
/// every one.
pub fn count(inst: &Instance, opts: &RunOptions) -> Result<RunReport> {
    let reducer = Reducer::new(&inst.puzzle, &inst.table, opts.up_to, true)?;
    let verifier = inst.verifier();
    let mut report = RunReport {
        description: reducer.describe(&inst.puzzle),
        ..RunReport::default()
    };
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let weigh = |s: &[u32]| -> u64 {
        if let Err(e) = verifier.verify(s) {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            return 0;
        }
        reducer.weight(s)
    };
    let start = Instant::now();
    let engine = opts.engine.resolve();
    if matches!(engine, EngineChoice::Exact) && opts.limit.is_none() {
        // The fast path: parallel subtrees, nothing stored or formatted; every solution is
        // still verified inside `weigh`.
        let mut q = ExactEngine::new(&inst.model)?
            .query()
            .threads(opts.threads)
            .pruning(opts.prune)
            .exclude(reducer.excluded());
        if let Some(p) = &opts.progress {
            q = q.progress(p.clone());
        }
        let r = q.count_weighted(weigh)?;
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e.context("the exact engine reported an invalid solution"));
        }
        report.engine = format!("exact, {} threads", q_threads(opts.threads));
        report.count = r.total;
        report.raw = r.solutions;
        report.nodes = Some(r.nodes);
        report.interrupted = r.interrupted;
        report.elapsed = start.elapsed();
        return Ok(report);
    }
    let (mut total, mut raw, mut classes) = (0u64, 0u64, 0u64);
    let mut visit = |s: &[u32]| -> bool {
        raw += 1;
        let w = weigh(s);
        if w > 0 {
            total += w;
            classes += 1;
        }
        opts.limit.is_none_or(|l| classes < l)
            && failure.lock().map(|f| f.is_none()).unwrap_or(false)
    };
    let mut inner = RunReport::default();
    search(inst, opts, reducer.excluded(), &mut visit, &mut inner)?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e.context(format!(
            "the {} engine reported an invalid solution",
            inner.engine
        )));
    }
    report.limited = opts.limit.is_some_and(|l| classes >= l);
    report.interrupted = inner.interrupted;
    report.engine = inner.engine;
    report.nodes = inner.nodes;
    report.count = total;
    report.raw = raw;
    report.elapsed = start.elapsed();
    Ok(report)
}

/// The thread count a query with `threads` uses (0 = every core).
fn q_threads(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::bundled;

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
