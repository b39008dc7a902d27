//! The varisat SAT engine over an [`ExactCover`]: first solution, streaming enumeration with
//! blocking clauses, the guarded uniqueness check for the generator, and incremental solving
//! of a list of cubes (subproblems) produced by the exact-cover engine.
//!
//! One solver is built per engine, option variables first (option `o` = variable `o`, see
//! [`crate::encoding::cnf`]). The model's forced options and every query's extra forced and
//! excluded options are assumptions, so the same solver serves any number of queries.
//! Blocking clauses hold the negated chosen option variables only (never auxiliaries) and are
//! guarded by an activation literal per enumeration, which is retired by a unit clause at the
//! end, so one query's blocking clauses never constrain the next. Every model is decoded to a
//! solution and checked with [`ExactCover::check_solution`] before it is reported.
//!
//! [`conquer_cubes`] is the cube-and-conquer path of `--engine sat`: the exact engine first
//! searches each cube within a small node budget ([`Conquer::exact_budget`]; most cubes are
//! a few hundred nodes, cheaper than building any solver), cutting a cube it cannot close one
//! choice deeper while the cube fixes under half a solution ([`Conquer::split_below`]); each
//! cube left becomes its own small residual model ([`ExactCover::residual`]), probed by the
//! lookahead, encoded into a fresh solver and enumerated with blocking clauses; on as many
//! threads as asked, reported in cube order. [`CubeAndConquer`] gives the whole query the
//! same first attempt before it cuts anything. The statistics say how many cubes each method
//! closed.

use crate::control::{self, Event, Subproblem};
use crate::encoding::{AtMostOne, CnfConfig, CnfEncoder, ForcedMode};
use crate::engines::exact::{CubeSearch, ExactEngine, WithinEnd};
use crate::engines::{Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use crate::shard::{SUBTREES_PER_SHARD, deal};
use cpu_time::ThreadTime;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use varisat::{ExtendFormula, Lit, Solver};

/// Choices for the SAT engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatConfig {
    /// The at-most-one encoding.
    pub amo: AtMostOne,
    /// Leave out implied piece at-most-one constraints (see
    /// [`crate::encoding::cnf::implied_piece_items`]).
    pub drop_implied_piece_amo: bool,
}

/// Counters of one engine, cumulative over its queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    /// Option variables.
    pub option_vars: usize,
    /// Variables of the encoding (activation literals not included).
    pub variables: usize,
    /// Clauses of the encoding (blocking and retiring clauses not included).
    pub clauses: usize,
    /// Whether the piece at-most-one constraints were dropped as implied.
    pub piece_amo_dropped: bool,
    /// Blocking clauses added.
    pub blocking_clauses: u64,
    /// Calls to `solve`.
    pub solve_calls: u64,
    /// Solutions reported.
    pub solutions: u64,
    /// CPU time the building thread spent building the solver (its own CPU clock).
    pub build_time: Duration,
    /// CPU time spent in `solve` (the calling thread's CPU clock).
    pub solve_time: Duration,
}

/// How an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every solution was reported.
    Exhausted,
    /// The limit was reached (more solutions may exist).
    Limit,
    /// The callback asked to stop.
    Stopped,
}

/// The SAT engine for one model.
pub struct SatEngine<'m> {
    model: &'m ExactCover,
    solver: Solver<'static>,
    stats: SatStats,
}

impl<'m> SatEngine<'m> {
    /// Encodes `model` into a fresh solver.
    pub fn new(model: &'m ExactCover, config: SatConfig) -> Result<Self> {
        // Thread CPU clocks, not wall clocks: on a loaded machine, or with more threads than
        // cores, wall time summed over threads is not work done.
        let start = ThreadTime::now();
        let mut solver = Solver::new();
        let cnf = CnfEncoder::new(CnfConfig {
            amo: config.amo,
            forced: ForcedMode::Assumptions,
            drop_implied_piece_amo: config.drop_implied_piece_amo,
        })
        .encode(model, &mut solver)?;
        let stats = SatStats {
            option_vars: cnf.option_vars,
            variables: cnf.variables,
            clauses: cnf.clauses,
            piece_amo_dropped: cnf.piece_amo_dropped,
            build_time: start.elapsed(),
            ..SatStats::default()
        };
        Ok(SatEngine {
            model,
            solver,
            stats,
        })
    }

    /// The counters so far.
    pub fn stats(&self) -> &SatStats {
        &self.stats
    }

    /// The model this engine solves.
    pub fn model(&self) -> &'m ExactCover {
        self.model
    }

    fn option_lit(&self, o: u32) -> Result<Lit> {
        if o as usize >= self.model.option_count() {
            return Err(Error::OptionOutOfRange {
                option: o,
                options: self.model.option_count(),
            });
        }
        Ok(Lit::from_index(o as usize, true))
    }

    /// The assumptions of a cube: the model's forced options, the cube's chosen options, the
    /// negations of its excluded options.
    fn cube_assumptions(&self, cube: &Subproblem) -> Result<Vec<Lit>> {
        let mut a = Vec::new();
        for &o in self.model.forced.iter().chain(&cube.chosen) {
            a.push(self.option_lit(o)?);
        }
        for &o in &cube.excluded {
            a.push(!self.option_lit(o)?);
        }
        Ok(a)
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<bool> {
        let start = ThreadTime::now();
        self.solver.assume(assumptions);
        // The assumptions stay set until the next query replaces them; clearing them here
        // would discard the model.
        let r = self
            .solver
            .solve()
            .map_err(|e| Error::Solver(e.to_string()));
        self.stats.solve_calls += 1;
        self.stats.solve_time += start.elapsed();
        r
    }

    /// Reads the solver's model as a checked solution. Must follow a satisfiable solve with
    /// no clause added since.
    fn decode(&self) -> Result<Vec<u32>> {
        let lits = self
            .solver
            .model()
            .ok_or_else(|| Error::Solver("it reported SAT without a model".into()))?;
        let n = self.model.option_count();
        let mut chosen: Vec<u32> = lits
            .iter()
            .filter(|l| l.is_positive() && l.index() < n)
            .map(|l| l.index() as u32)
            .collect();
        chosen.sort_unstable();
        self.model
            .check_solution(&chosen)
            .map_err(|e| Error::internal(format!("the SAT model is not an exact cover: {e}")))?;
        Ok(chosen)
    }

    /// A first solution under `cube` (use `Subproblem::default()` for the whole model), or `None`.
    pub fn solve_first(&mut self, cube: &Subproblem) -> Result<Option<Vec<u32>>> {
        let a = self.cube_assumptions(cube)?;
        if !self.solve_under(&a)? {
            return Ok(None);
        }
        let s = self.decode()?;
        self.stats.solutions += 1;
        Ok(Some(s))
    }

    /// Enumerates the solutions within `cube`, at most `limit` of them, passing each to
    /// `on_solution`, which may stop the enumeration. The blocking clauses are retired at the
    /// end, so the engine can be queried again.
    pub fn enumerate(
        &mut self,
        cube: &Subproblem,
        limit: Option<u64>,
        on_solution: impl FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Ended> {
        let mut guard = None;
        let outcome = self.enumerate_guarded(cube, limit, &mut guard, on_solution);
        self.retire(guard);
        outcome
    }

    /// [`Self::enumerate`] with the blocking clauses guarded by `guard` (created on the first
    /// solution) and left in place: several cubes of one run share one guard, so the solver
    /// sees a single retiring unit clause at the end instead of one per cube (each new unit
    /// makes varisat simplify the whole clause database on its next solve).
    fn enumerate_guarded(
        &mut self,
        cube: &Subproblem,
        limit: Option<u64>,
        guard: &mut Option<Lit>,
        mut on_solution: impl FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Ended> {
        let base = self.cube_assumptions(cube)?;
        let mut found = 0u64;
        let mut a = Vec::with_capacity(base.len() + 1);
        loop {
            if limit.is_some_and(|l| found >= l) {
                return Ok(Ended::Limit);
            }
            a.clear();
            a.extend_from_slice(&base);
            a.extend(guard.map(|x| !x));
            if !self.solve_under(&a)? {
                return Ok(Ended::Exhausted);
            }
            let s = self.decode()?;
            found += 1;
            self.stats.solutions += 1;
            // Block it before handing it out (the model is read already).
            let g = match *guard {
                Some(x) => x,
                None => {
                    // Created together with its first clause (see the varisat notes, §3.6).
                    let x = self.solver.new_lit();
                    *guard = Some(x);
                    x
                }
            };
            self.block(&s, g);
            if on_solution(&s).is_break() {
                return Ok(Ended::Stopped);
            }
        }
    }

    /// Retires the blocking clauses guarded by `guard`.
    fn retire(&mut self, guard: Option<Lit>) {
        if let Some(x) = guard {
            self.solver.add_clause(&[x]);
        }
    }

    /// Excludes options for every later query, as unit clauses added once (rather than as
    /// assumptions repeated on every solve): for run-wide restrictions such as a symmetry
    /// reduction or options proved to be in no solution. The engine then answers only
    /// queries compatible with them.
    pub fn exclude_permanently(&mut self, options: &[u32]) -> Result<()> {
        for &o in options {
            let l = self.option_lit(o)?;
            self.solver.add_clause(&[!l]);
        }
        Ok(())
    }

    fn block(&mut self, solution: &[u32], guard: Lit) {
        let mut clause: Vec<Lit> = solution
            .iter()
            .map(|&o| Lit::from_index(o as usize, false))
            .collect();
        clause.push(guard);
        self.solver.add_clause(&clause);
        self.stats.blocking_clauses += 1;
    }

    /// All solutions within `cube`, up to `limit`.
    pub fn solutions(&mut self, cube: &Subproblem, limit: Option<u64>) -> Result<Vec<Vec<u32>>> {
        let mut out = Vec::new();
        self.enumerate(cube, limit, |s| {
            out.push(s.to_vec());
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// The generator's uniqueness check: is there a solution other than `known` that contains
    /// all of `forced` (and the model's forced options)? Returns one if so. The guarded
    /// blocking clause is retired afterwards, so the engine stays reusable.
    pub fn other_solution(&mut self, known: &[u32], forced: &[u32]) -> Result<Option<Vec<u32>>> {
        let mut a = self.cube_assumptions(&Subproblem {
            chosen: forced.to_vec(),
            ..Subproblem::default()
        })?;
        for &o in known {
            self.option_lit(o)?;
        }
        let act = self.solver.new_lit();
        self.block(known, act);
        a.push(!act);
        let r = if self.solve_under(&a)? {
            let s = self.decode()?;
            self.stats.solutions += 1;
            Some(s)
        } else {
            None
        };
        self.solver.add_clause(&[act]);
        Ok(r)
    }

    /// Solves every cube in turn with this one solver, enumerating all solutions within each
    /// (blocking clauses retired per cube). The result holds one list per cube, in cube order;
    /// when the cubes partition the search space, their union is every solution exactly once.
    pub fn solve_cubes(&mut self, cubes: &[Subproblem]) -> Result<Vec<Vec<Vec<u32>>>> {
        cubes.iter().map(|c| self.solutions(c, None)).collect()
    }

    /// Like [`Self::solve_cubes`] but streaming: `on_solution(cube_index, solution)` may stop
    /// the whole run. Returns `Ended::Stopped` if it did.
    pub fn solve_cubes_with(
        &mut self,
        cubes: &[Subproblem],
        mut on_solution: impl FnMut(usize, &[u32]) -> ControlFlow<()>,
    ) -> Result<Ended> {
        // One guard for the whole run: the cubes are disjoint, so a solution blocked in one
        // cube never needed to be found in another.
        let mut guard = None;
        for (i, c) in cubes.iter().enumerate() {
            match self.enumerate_guarded(c, None, &mut guard, |s| on_solution(i, s)) {
                Ok(Ended::Stopped) => {
                    self.retire(guard);
                    return Ok(Ended::Stopped);
                }
                Ok(_) => {}
                Err(e) => {
                    self.retire(guard);
                    return Err(e);
                }
            }
        }
        self.retire(guard);
        Ok(Ended::Exhausted)
    }
}

/// How [`conquer_cubes`] solves its cubes.
#[derive(Clone, Debug, Default)]
pub struct Conquer {
    /// The encoding of every residual CNF.
    pub config: SatConfig,
    /// Options excluded in every cube (a symmetry restriction, options proved useless).
    pub excluded: Vec<u32>,
    /// Drop the options that starve an item or cut off an unfillable region from each
    /// residual model before encoding it, and skip cubes left with an uncoverable item.
    pub lookahead: bool,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// With the lookahead on: each cube is first searched by the exact engine for at most
    /// about this many nodes, and only the cubes it cannot close go to a varisat solver
    /// (0 = every cube the lookahead leaves goes to varisat).
    pub exact_budget: u64,
    /// With the exact engine's first attempt on: a cube of fewer than this many chosen
    /// options that the exact engine cannot close within its budget is split into its
    /// children (the exact engine's branches one choice deeper), each tried the same way,
    /// before any of them goes to varisat; 0 never splits. A shallow cut then costs little:
    /// only the subtrees too large for the exact engine are cut deeper.
    pub split_below: usize,
}

/// What [`conquer_cubes`] did, summed over its cubes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConquerStats {
    /// Cubes whose solver was built and searched (the others were stopped before).
    pub cubes_solved: u64,
    /// Cubes whose chosen options conflict with each other or an exclusion (nothing to solve),
    /// found without the lookahead (with it, they count as refuted).
    pub cubes_empty: u64,
    /// Variables over all residual CNFs.
    pub variables: u64,
    /// Clauses over all residual CNFs.
    pub clauses: u64,
    /// Clauses of the largest residual CNF.
    pub largest_clauses: u64,
    /// Options the lookahead removed from residual models before encoding.
    pub lookahead_removed: u64,
    /// Cubes the lookahead refuted (chosen options in conflict, or an item left without
    /// options), never encoded.
    pub cubes_refuted: u64,
    /// Cubes the exact engine closed within its budget, never encoded.
    pub cubes_exact: u64,
    /// Search nodes the exact engine spent on cubes, closed or not.
    pub exact_nodes: u64,
    /// Cubes the exact engine could not close and that were cut one choice deeper (each is
    /// replaced by its children, which are counted in the other figures instead).
    pub cubes_split: u64,
    /// The children those cuts made.
    pub cubes_added: u64,
    /// Calls to `solve`.
    pub solve_calls: u64,
    /// Solutions reported.
    pub solutions: u64,
    /// CPU time spent building solvers, each thread's CPU clock, summed over threads.
    pub build_time: Duration,
    /// CPU time spent in `solve`, each thread's CPU clock, summed over threads.
    pub solve_time: Duration,
}

impl ConquerStats {
    fn add(&mut self, o: &ConquerStats) {
        self.cubes_solved += o.cubes_solved;
        self.cubes_empty += o.cubes_empty;
        self.variables += o.variables;
        self.clauses += o.clauses;
        self.largest_clauses = self.largest_clauses.max(o.largest_clauses);
        self.lookahead_removed += o.lookahead_removed;
        self.cubes_refuted += o.cubes_refuted;
        self.cubes_exact += o.cubes_exact;
        self.exact_nodes += o.exact_nodes;
        self.cubes_split += o.cubes_split;
        self.cubes_added += o.cubes_added;
        self.solve_calls += o.solve_calls;
        self.solutions += o.solutions;
        self.build_time += o.build_time;
        self.solve_time += o.solve_time;
    }
}

/// What every cube of one [`conquer_cubes`] run shares.
struct Conquering<'a> {
    model: &'a ExactCover,
    config: SatConfig,
    /// The run-wide exclusions (with the preprocessing's removals).
    excluded: &'a [u32],
    /// The exact engine over `model`, for the lookahead and for cutting cubes deeper.
    lookahead: Option<&'a ExactEngine>,
    /// The exact engine's first attempt at each cube, from the shared root.
    first: Option<&'a CubeSearch>,
    exact_budget: u64,
    split_below: usize,
}

/// Solves one cube: its residual model in a fresh solver, every solution enumerated with
/// blocking clauses, lifted back to the model and checked there. With the lookahead on, the
/// exact engine tries the cube first within its budget (cutting it deeper when it is too
/// large), and then probes it.
fn conquer_one(run: &Conquering, cube: &Subproblem) -> Result<CubeResult> {
    let &Conquering {
        model,
        config,
        excluded,
        lookahead,
        first,
        exact_budget,
        split_below,
    } = run;
    let mut st = ConquerStats::default();
    let mut out = Vec::new();
    if let Some(first) = first {
        // Most cubes are a few hundred nodes of the exact engine (a refuted one a handful),
        // less than probing them or building a solver costs; CDCL is kept for the cubes
        // it cannot close at once.
        let closed = first.enumerate_within(&cube.chosen, &cube.excluded, exact_budget)?;
        if let Some((found, nodes)) = closed {
            st.cubes_exact = 1;
            st.exact_nodes = nodes;
            st.solutions = found.len() as u64;
            return Ok((found, st));
        }
        st.exact_nodes = exact_budget;
        let children = match lookahead {
            Some(exact) if cube.chosen.len() < split_below => split_cube(exact, cube, excluded)?,
            _ => None,
        };
        if let Some(children) = children {
            st.cubes_split = 1;
            st.cubes_added = children.len() as u64;
            let mut found = Vec::new();
            for child in &children {
                let (sols, cst) = conquer_one(run, child)?;
                st.add(&cst);
                found.extend(sols);
            }
            return Ok((found, st));
        }
    }
    if let Some(exact) = lookahead {
        // One level of lookahead before the SAT solver sees the cube, on the whole model's
        // precomputed tables (no residual model is built for a cube it refutes, which is
        // most of them): options that starve an item or cut off an unfillable region are
        // dropped from the residual CNF (failed literals, in SAT terms), and a cube left with
        // an item it cannot cover is refuted.
        match exact
            .query()
            .force(&cube.chosen)
            .exclude(excluded)
            .exclude(&cube.excluded)
            .lookahead()?
        {
            None => {
                st.cubes_refuted = 1;
                return Ok((Vec::new(), st));
            }
            Some(dead) => {
                st.lookahead_removed = dead.len() as u64;
                out = dead;
            }
        }
    }
    out.extend(excluded.iter().chain(&cube.excluded));
    out.sort_unstable();
    out.dedup();
    let Some(res) = model.residual(&cube.chosen, &out) else {
        st.cubes_empty = 1;
        return Ok((Vec::new(), st));
    };
    let mut engine = SatEngine::new(&res.model, config)?;
    let mut found = Vec::new();
    engine.enumerate(&Subproblem::default(), None, |s| {
        found.push(res.lift(s));
        ControlFlow::Continue(())
    })?;
    for s in &found {
        model.check_solution(s).map_err(|e| {
            Error::internal(format!(
                "a cube's solution does not lift to an exact cover: {e}"
            ))
        })?;
    }
    let es = engine.stats();
    st.cubes_solved = 1;
    st.variables = es.variables as u64;
    st.clauses = es.clauses as u64;
    st.largest_clauses = es.clauses as u64;
    st.solve_calls = es.solve_calls;
    st.solutions = es.solutions;
    st.build_time = es.build_time;
    st.solve_time = es.solve_time;
    Ok((found, st))
}

/// The children of `cube`: the exact engine's branches one choice below it, each with the
/// cube's choices and exclusions added (together they partition the cube's solutions), or
/// `None` when the cube cannot be cut deeper.
fn split_cube(
    exact: &ExactEngine,
    cube: &Subproblem,
    excluded: &[u32],
) -> Result<Option<Vec<Subproblem>>> {
    let children = exact
        .query()
        .force(&cube.chosen)
        .exclude(excluded)
        .exclude(&cube.excluded)
        .subproblems_within(2, 1)?;
    if children.iter().any(|c| c.chosen.is_empty()) {
        return Ok(None);
    }
    Ok(Some(
        children
            .into_iter()
            .map(|c| Subproblem {
                chosen: cube.chosen.iter().chain(&c.chosen).copied().collect(),
                excluded: cube.excluded.iter().chain(&c.excluded).copied().collect(),
                weight: cube.weight * c.weight,
            })
            .collect(),
    ))
}

/// Cube and conquer: every cube (chosen and excluded options; together the cubes must
/// partition the solutions, as the exact engine's subproblems do) is turned into its residual
/// model, which a fresh varisat solver enumerates with blocking clauses. A residual model
/// holds only the options still compatible with the cube, so each solver is small and its
/// calls are cheap, where one solver for the whole instance under assumptions pays for the
/// whole clause database on every call. With `how.lookahead`, each cube is first probed by
/// the exact engine ([`crate::exact::ExactQuery::lookahead`]) and most never reach a
/// solver.
///
/// `threads > 1` solves cubes in parallel (each thread builds its own solvers:
/// varisat's are not `Send`), and the output still does not depend on the thread count:
/// `on_cube(cube_index, solutions)` gets every cube once, in cube order, with its solutions,
/// and may stop the run; so may `stop` (asked between cubes).
pub fn conquer_cubes(
    model: &ExactCover,
    cubes: &[Subproblem],
    how: &Conquer,
    stop: impl Fn() -> bool + Sync,
    mut on_cube: impl FnMut(usize, &[Vec<u32>]) -> ControlFlow<()>,
) -> Result<(Ended, ConquerStats)> {
    let Conquer {
        config,
        ref excluded,
        lookahead,
        threads,
        exact_budget,
        split_below,
    } = *how;
    let mut total = ConquerStats::default();
    let exact = if lookahead {
        Some(ExactEngine::new(model)?)
    } else {
        None
    };
    // The exact engine's first attempt at each cube starts from one shared root with the
    // run-wide exclusions already applied (`excluded` holds the preprocessing's removals).
    let first = match (&exact, exact_budget > 0) {
        (Some(e), true) => e
            .query()
            .preprocess(false)
            .exclude(excluded)
            .cube_search()?,
        _ => None,
    };
    let threads = control::worker_threads(threads);
    // Cubes run on the workers and are handed on in cube order, each as soon as it and every
    // cube before it are solved. The cubes' costs vary a thousandfold (most are refuted by the
    // lookahead in about a tenth of a millisecond, a few take the SAT solver hundreds), and a
    // slow cube holds up only the delivery of later ones. Each worker builds its own solvers:
    // varisat's are not `Send`.
    let run = Conquering {
        model,
        config,
        excluded,
        lookahead: exact.as_ref(),
        first: first.as_ref(),
        exact_budget,
        split_below,
    };
    let work = |i: usize, _: &mut dyn FnMut(()), _: &AtomicBool| conquer_one(&run, &cubes[i]);
    let mut error = None;
    let complete = control::ordered(
        cubes.len(),
        threads,
        &stop,
        &work,
        &mut |i, event| match event {
            Event::Item(()) => ControlFlow::Continue(()),
            Event::Done(Ok((sols, st))) => {
                total.add(&st);
                on_cube(i, &sols)
            }
            Event::Done(Err(e)) => {
                error = Some(e);
                ControlFlow::Break(())
            }
        },
    )?;
    if let Some(e) = error {
        return Err(e);
    }
    let outcome = if complete {
        Ended::Exhausted
    } else {
        Ended::Stopped
    };
    Ok((outcome, total))
}

/// The solutions of one cube (lifted to the whole model) and what solving it took.
type CubeResult = (Vec<Vec<u32>>, ConquerStats);

/// Cubes [`CubeAndConquer`] is best asked for in a limited listing with the exact engine's
/// first attempt on: cutting the tree costs time before the first cube is solved, and a cube
/// too large for the exact engine's budget is cut deeper when its turn comes
/// ([`Conquer::split_below`]), so a listing wants a shallow cut (figures in
/// encodings/README.md).
pub const CUBES_LISTING: usize = 1024;
/// Cubes [`CubeAndConquer`] is best asked for in a limited listing when varisat solves every
/// cube (an exact budget of 0): no cube is cut deeper later, so the cut must leave varisat
/// small cubes from the start.
pub const CUBES_LISTING_VARISAT: usize = 32_768;
/// Cubes [`CubeAndConquer`] is best asked for when it enumerates everything with the exact
/// engine's first attempt on: a deeper cut costs more than the cubes it saves from being cut
/// later (the Tetris Cube 1.37x the exact engine's CPU time with 16,384 asked, 2.28x with
/// 2^20; benches/README.md).
pub const CUBES_ENUMERATION: usize = 16_384;
/// Cubes [`CubeAndConquer`] is best asked for when it enumerates everything and varisat solves
/// every cube: deeper cubes leave varisat smaller residual problems, the exact engine's
/// lookahead refutes most of them before any solver is built, and the cut is paid once.
pub const CUBES_ENUMERATION_VARISAT: usize = 1 << 20;
/// The most cubes a split may ask for: every cube's path is held in memory.
pub const MAX_CUBES: usize = 1 << 22;

/// The SAT engine as an [`Engine`]: the exact engine's top subtrees as cubes, each solved by
/// [`conquer_cubes`]; with at most one cube asked for, one solver over the whole model with
/// blocking clauses alone.
pub struct CubeAndConquer<'m> {
    model: &'m ExactCover,
    config: SatConfig,
    cubes: usize,
    lookahead: bool,
    exact_budget: u64,
}

/// The exact engine's node budget per cube before a cube goes to varisat
/// ([`CubeAndConquer::exact_budget`]): one check interval of the exact search.
pub const DEFAULT_EXACT_BUDGET: u64 = 4096;

impl<'m> CubeAndConquer<'m> {
    /// The engine for `model`, splitting into at least `cubes` cubes (at most
    /// [`MAX_CUBES`]; 0 or 1 = no split). A cube fixes at most half of the options of a
    /// solution, so the SAT solver always decides the rest: on a small model the split stops
    /// short of the cubes asked for.
    pub fn new(model: &'m ExactCover, config: SatConfig, cubes: usize) -> Result<Self> {
        if cubes > MAX_CUBES {
            return Err(Error::TooMany {
                what: "cubes",
                asked: cubes,
                max: MAX_CUBES,
            });
        }
        model.validate()?;
        Ok(CubeAndConquer {
            model,
            config,
            cubes,
            lookahead: true,
            exact_budget: DEFAULT_EXACT_BUDGET,
        })
    }

    /// With the lookahead on, the exact engine searches each cube for at most about `nodes`
    /// nodes first (checked every 4,096 nodes), and varisat gets only the cubes it cannot
    /// close; 0 sends every cube the lookahead leaves to varisat. Default
    /// [`DEFAULT_EXACT_BUDGET`].
    pub fn exact_budget(mut self, nodes: u64) -> Self {
        self.exact_budget = nodes;
        self
    }

    /// Whether the exact engine's preprocessing and lookahead trim the cubes (default on).
    pub fn lookahead(mut self, on: bool) -> Self {
        self.lookahead = on;
        self
    }

    /// The whole model on one solver with blocking clauses.
    fn one_solver(
        &self,
        query: &Query,
        sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats> {
        let mut sat = SatEngine::new(self.model, self.config)?;
        sat.exclude_permanently(&query.excluded)?;
        let cube = Subproblem {
            chosen: query.forced.clone(),
            ..Subproblem::default()
        };
        let mut solutions = 0;
        let outcome = sat.solve_cubes_with(std::slice::from_ref(&cube), |_, s| {
            if query.is_interrupted() {
                return ControlFlow::Break(());
            }
            solutions += 1;
            sink(s)
        })?;
        let st = sat.stats();
        Ok(stats(
            query,
            solutions,
            outcome,
            format!(
                "sat ({} at-most-one, one instance with blocking clauses: {} variables, {} clauses, {})",
                self.config.amo.name(),
                st.variables,
                st.clauses,
                counted(st.solve_calls, "solve call", "solve calls")
            ),
        ))
    }
}

impl Engine for CubeAndConquer<'_> {
    fn enumerate(
        &self,
        query: &Query,
        sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats> {
        let shards = query.shard.map_or(1, |s| s.count());
        if self.cubes <= 1 && shards == 1 {
            return self.one_solver(query, sink);
        }
        let exact = ExactEngine::new(self.model)?.with_pruning(self.lookahead);
        let mut excluded = if self.lookahead {
            exact.removed_options()
        } else {
            Vec::new()
        };
        excluded.extend_from_slice(&query.excluded);
        excluded.sort_unstable();
        excluded.dedup();
        let mut solutions = 0;
        // The exact engine's first attempt at the whole query, streamed: a small puzzle ends
        // here, and a listing's first solutions come before any cut. What it delivered before
        // its budget ran out is skipped when the cubes find it again (both give solutions in
        // ascending option order, so they compare as they come).
        let mut delivered: HashSet<Vec<u32>> = HashSet::new();
        let mut root_nodes = 0;
        let root = if self.lookahead && self.exact_budget > 0 && shards == 1 {
            exact
                .query()
                .preprocess(false)
                .exclude(&excluded)
                .cube_search()?
        } else {
            None
        };
        if let Some(search) = root {
            let within = search.search_within(&query.forced, &[], self.exact_budget, |s| {
                if query.is_interrupted() {
                    return false;
                }
                solutions += 1;
                delivered.insert(s.to_vec());
                sink(s).is_continue()
            })?;
            root_nodes = within.nodes;
            let ended = match within.ended {
                WithinEnd::Closed => Some(Ended::Exhausted),
                WithinEnd::Stopped => Some(Ended::Stopped),
                WithinEnd::OverBudget => None,
            };
            if let Some(ended) = ended {
                let summary = format!(
                    "sat (the exact engine's first attempt at the whole query ended it in {root_nodes} nodes, within its budget of {}: no cube was cut and varisat was not needed; an exact budget of 0 gives every cube to varisat)",
                    self.exact_budget
                );
                return Ok(stats(query, solutions, ended, summary));
            }
        }
        // The cut itself can take seconds (a million cubes of the Tetris Cube): it hears
        // the query's interrupt too.
        let mut cut = exact.query();
        if let Some(p) = &query.progress {
            cut = cut.progress(p.clone());
        }
        let mut cubes = cut
            .force(&query.forced)
            .exclude(&query.excluded)
            .subproblems_within(
                self.cubes.max(shards as usize * SUBTREES_PER_SHARD),
                min_solution_options(self.model) / 2,
            )?;
        if let Some(sh) = query.shard {
            // The shard's cubes, dealt by Knuth's path weight (probing a million cubes would
            // cost more than it balances), their weights scaled to the shard's share.
            let weights: Vec<f64> = cubes.iter().map(|c| c.weight).collect();
            let owner = deal(&weights, sh.count());
            let mut i = 0;
            cubes.retain(|_| {
                i += 1;
                owner[i - 1] == sh.index()
            });
            let share: f64 = cubes.iter().map(|c| c.weight).sum();
            if share > 0.0 {
                for c in &mut cubes {
                    c.weight /= share;
                }
            }
        }
        for c in &mut cubes {
            c.chosen.extend_from_slice(&query.forced);
        }
        let how = Conquer {
            config: self.config,
            excluded,
            lookahead: self.lookahead,
            threads: query.threads,
            exact_budget: self.exact_budget,
            // The half-solution bound of the cut holds for the cubes split later too.
            split_below: min_solution_options(self.model) / 2 + query.forced.len(),
        };
        let wall = Instant::now();
        let (outcome, st) = conquer_cubes(
            self.model,
            &cubes,
            &how,
            || query.is_interrupted(),
            |i, sols| {
                if let Some(p) = &query.progress {
                    p.record(0, sols.len() as u64, cubes[i].weight);
                }
                for s in sols {
                    if query.is_interrupted() {
                        return ControlFlow::Break(());
                    }
                    if !delivered.is_empty() && delivered.contains(s.as_slice()) {
                        continue;
                    }
                    solutions += 1;
                    if sink(s).is_break() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            },
        )?;
        let budget = if self.lookahead { self.exact_budget } else { 0 };
        let first = if root_nodes > 0 {
            format!(
                "the exact engine's first attempt at the whole query gave up after {root_nodes} nodes with {}; ",
                counted(delivered.len() as u64, "solution", "solutions")
            )
        } else {
            String::new()
        };
        Ok(stats(
            query,
            solutions,
            outcome,
            format!(
                "sat ({} at-most-one; {first}{}; {:.1} s wall for the cubes)",
                self.config.amo.name(),
                describe_cubes(cubes.len() as u64, &st, self.lookahead, budget),
                wall.elapsed().as_secs_f64()
            ),
        ))
    }
}

/// What happened to the cubes, in figures that add up: the cubes cut, how many there were to
/// solve after cutting some deeper, and which method closed how many of those.
fn describe_cubes(cut: u64, st: &ConquerStats, lookahead: bool, budget: u64) -> String {
    let mut s = counted(cut, "cube", "cubes");
    if st.cubes_split > 0 {
        s.push_str(&format!(
            ", {} after cutting {} of them one choice deeper",
            cut - st.cubes_split + st.cubes_added,
            st.cubes_split
        ));
    }
    s.push_str(": ");
    let mut parts = Vec::new();
    if budget > 0 {
        parts.push(format!(
            "the exact engine closed {} within its budget of {} each ({} in all)",
            st.cubes_exact,
            counted(budget, "node", "nodes"),
            counted(st.exact_nodes, "node", "nodes")
        ));
    }
    if lookahead {
        parts.push(format!(
            "the lookahead refuted {} (and dropped {} from the others)",
            st.cubes_refuted,
            counted(st.lookahead_removed, "option", "options")
        ));
    }
    if st.cubes_empty > 0 {
        parts.push(format!("{} had conflicting choices", st.cubes_empty));
    }
    if st.cubes_solved > 0 {
        parts.push(format!(
            "varisat solved {}: residual CNFs of {} in all, largest {}, {}; CPU {:.1} s building and {:.1} s solving, summed over threads",
            st.cubes_solved,
            counted(st.clauses, "clause", "clauses"),
            st.largest_clauses,
            counted(st.solve_calls, "solve call", "solve calls"),
            st.build_time.as_secs_f64(),
            st.solve_time.as_secs_f64()
        ));
    } else if budget > 0 {
        parts.push(
            "varisat solved none (it gets only the cubes the exact engine cannot close within its budget; a budget of 0 gives it every cube)"
                .to_string(),
        );
    } else {
        parts.push("varisat solved none".to_string());
    }
    s.push_str(&parts.join(", "));
    s
}

/// `n` and the noun in its number.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The statistics of a run that delivered `solutions` and ended so.
fn stats(query: &Query, solutions: u64, ended: Ended, summary: String) -> Stats {
    let interrupted = query.is_interrupted();
    Stats {
        solutions,
        nodes: None,
        interrupted,
        stopped: ended == Ended::Stopped && !interrupted,
        summary,
    }
}

/// A lower bound on the number of options in any solution of `model`. Exact for a model
/// with cell geometry whose every option holds exactly one piece item (the items before the
/// cells): the pieces' needs. Otherwise the coverage its primary items need, divided by the
/// most primary items one option holds (rounded up).
pub(crate) fn min_solution_options(model: &ExactCover) -> usize {
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
    let widest = (0..model.options.len())
        .map(|o| model.primaries(o))
        .max()
        .unwrap_or(1)
        .max(1);
    need.div_ceil(widest)
}
