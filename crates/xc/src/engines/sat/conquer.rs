//! Cube and conquer over a list of cubes: each tried by the exact engine within a budget, cut deeper or probed by the lookahead, and the rest enumerated by a fresh varisat solver on its residual model, on worker threads, delivered in cube order.

use super::solver::{Ended, SatConfig, SatEngine};
use crate::control::{self, Event, Subproblem};
use crate::engines::exact::{CubeSearch, ExactEngine};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
