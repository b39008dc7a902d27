//! Disassembling the solutions of an [`Instance`]: each solution's pieces in BurrTools' order, the analysis of many assemblies on several threads, and every plan replayed by [`super::replay`] before it is returned.
//!
//! BurrTools numbers the pieces of an assembly part by part, the copies of a part one after
//! another; cubesat's pieces are BurrTools' parts in file order, so the analysis sees the same
//! order. Which of several equally short separations comes first depends on that order and
//! on the assembly's orientation (moves are tried along x, then y, then z): [`super::orient`]
//! turns a solution into the orientation BurrTools reports, and the plan found there is
//! turned back, so that its moves apply to the solution as listed.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cubesat_xc::Progress;

use crate::error::{Error, Result};
use crate::geometry::Cell;
use crate::puzzle::Puzzle;
use crate::run::Instance;
use crate::solution::Solution;

use super::{Disassembler, Halt, Mode, Part, Placed, Separation, Step, orient, replay};

/// The parts of a puzzle as the analyser needs them (weights and groups).
pub fn parts(puzzle: &Puzzle) -> Vec<Part> {
    puzzle
        .pieces
        .iter()
        .map(|p| Part {
            weight: p.weight,
            groups: p.groups.clone(),
        })
        .collect()
}

/// The pieces of a solution in BurrTools' order (by part, copies in placement order), each
/// with its cells in the target's global coordinates.
pub fn placed(inst: &Instance, solution: &Solution) -> Vec<Placed> {
    let cells = inst.puzzle.target.cells();
    let mut out: Vec<Placed> = solution
        .placements
        .iter()
        .filter_map(|&o| inst.table.placements().get(o as usize))
        .map(|p| Placed {
            part: p.piece as usize,
            cells: p.cells.iter().map(|&c| cells[c as usize].pos).collect(),
        })
        .collect();
    out.sort_by_key(|p| p.part);
    out
}

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Options {
    /// What counts as coming apart.
    pub mode: Mode,
    /// Turn each assembly into the orientation and copy order BurrTools reports first
    /// ([`orient::Orienter`]); off, the solution is analysed as cubesat lists it.
    pub burrtools_orientation: bool,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// States one assembly may visit.
    pub max_states: u64,
    /// Counters for a progress display (states as nodes, assemblies as solutions, the share
    /// of the assemblies done) and the interrupt flag (Ctrl-C): the analyses finished before
    /// it are returned.
    pub progress: Option<Arc<Progress>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mode: Mode::Complete,
            burrtools_orientation: true,
            threads: 1,
            max_states: super::DEFAULT_MAX_STATES,
            progress: None,
        }
    }
}

/// The analysis of one solution.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The solution's pieces as listed ([`placed`]), which the steps' indices refer to.
    pub pieces: Vec<Placed>,
    /// How it comes apart, in the frame it was analysed in (BurrTools' orientation and piece
    /// order: see [`Analysis::source`]); `None` when it does not (in the mode asked).
    pub tree: Option<Separation>,
    /// For each piece of the analysis (the tree's indices), its index in `pieces`.
    pub source: Vec<usize>,
    /// The plan: every move, in BurrTools' plan order, turned back onto the solution as
    /// listed (`pieces`); replayed and checked.
    pub steps: Vec<Step>,
    /// States visited.
    pub states: u64,
    /// The grid, which names the steps' directions ([`crate::geometry::Grid::direction_name`]).
    pub grid: crate::geometry::Grid,
}

impl Analysis {
    /// BurrTools' level string, when it comes apart.
    pub fn level(&self) -> Option<String> {
        self.tree.as_ref().map(|t| t.level())
    }

    /// Moves of the whole plan.
    pub fn moves(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.total_moves())
    }
}

/// What [`analyse`] returns: the analyses in solution order (all of them, or those finished
/// before a stop).
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// One per solution, in order; shorter than the input only when stopped.
    pub analyses: Vec<Analysis>,
    /// True when stopped from outside before the end.
    pub interrupted: bool,
}

/// Why the analyses of a batch failed: one assembly's search passed a bound, or its plan
/// failed its replay.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The search of `solutions[index]` stopped at a bound ([`Halt`]: its states, their
    /// memory, its pieces, its positions; never [`Halt::Interrupted`]).
    #[error("{halt}")]
    Halted {
        /// Why it stopped.
        halt: Halt,
        /// The assembly's index in the batch.
        index: usize,
    },
    /// A plan that failed its replay (a bug in cubesat, never bad input).
    #[error(transparent)]
    Library(#[from] Error),
}

/// Analyses one solution with `d` (the analyser of the instance's puzzle; `orienter` for
/// BurrTools' orientation) and replays its plan: `Ok(Err(halt))` when the search stopped
/// without an answer ([`Halt::Interrupted`] when stopped from outside).
pub fn analyse_one(
    d: &mut Disassembler,
    orienter: Option<&orient::Orienter>,
    inst: &Instance,
    solution: &Solution,
    opts: &Options,
) -> Result<Result<Analysis, Halt>> {
    let listed = placed(inst, solution);
    let oriented = match orienter {
        Some(o) => o.orient(inst, solution),
        None => orient::Oriented {
            pieces: listed.clone(),
            transformation: 0,
            source: (0..listed.len()).collect(),
        },
    };
    let pieces = &oriented.pieces;
    let progress = opts.progress.clone();
    let stop = move || progress.as_ref().is_some_and(|p| p.is_interrupted());
    let out = match d.analyse(pieces, opts.mode, &stop) {
        Ok(o) => o,
        Err(h) => return Ok(Err(h)),
    };
    let states = out.states;
    let steps = match &out.tree {
        Some(t) => {
            let grid = d.grid();
            let cells: Vec<Vec<Cell>> = pieces.iter().map(|p| p.cells.clone()).collect();
            let steps: Vec<Step> = t
                .steps(grid, &cells)
                .into_iter()
                .map(|s| Step {
                    pieces: s.pieces.iter().map(|&i| oriented.source[i]).collect(),
                    // Identity when not turned (on every grid other than cubes).
                    direction: if oriented.transformation == 0 {
                        s.direction
                    } else {
                        orient::direction_back(oriented.transformation, s.direction)
                    },
                    ..s
                })
                .collect();
            let cells: Vec<Vec<Cell>> = listed.iter().map(|p| p.cells.clone()).collect();
            let part_of: Vec<usize> = listed.iter().map(|p| p.part).collect();
            let groups: Vec<super::PartGroups> = inst
                .puzzle
                .pieces
                .iter()
                .map(|p| p.groups.clone())
                .collect();
            replay::check(grid, &cells, &part_of, &groups, &steps).map_err(|e| {
                Error::Internal(format!("a disassembly plan failed its replay: {e}"))
            })?;
            steps
        }
        None => Vec::new(),
    };
    Ok(Ok(Analysis {
        pieces: listed,
        tree: out.tree,
        source: oriented.source,
        steps,
        states,
        grid: d.grid(),
    }))
}

/// The state the worker threads of one [`analyse`] share.
struct Shared<'a> {
    inst: &'a Instance,
    solutions: &'a [Solution],
    opts: &'a Options,
    orienter: Option<orient::Orienter>,
    /// The next solution to take.
    next: AtomicUsize,
    /// The failure of the earliest assembly that failed, by its index.
    failure: Mutex<Option<AnalysisError>>,
    /// Set at the first failure: the other workers stop.
    quit: AtomicBool,
}

impl Shared<'_> {
    fn stopped(&self) -> bool {
        self.quit.load(Ordering::Relaxed)
            || self
                .opts
                .progress
                .as_ref()
                .is_some_and(|p| p.is_interrupted())
    }

    /// Keeps `e` unless an earlier assembly failed too.
    fn fail(&self, e: AnalysisError) {
        self.quit.store(true, Ordering::Relaxed);
        let index = |e: &AnalysisError| match e {
            AnalysisError::Halted { index, .. } => *index,
            _ => usize::MAX,
        };
        if let Ok(mut f) = self.failure.lock()
            && f.as_ref().is_none_or(|old| index(&e) < index(old))
        {
            *f = Some(e);
        }
    }

    /// One worker: takes solutions until none is left or the run stops, each analysed with
    /// the worker's own analyser; returns its analyses with their indices.
    fn work(&self) -> Vec<(usize, Analysis)> {
        let mut d = match Disassembler::new(self.inst.puzzle.grid, parts(&self.inst.puzzle)) {
            Ok(d) => d,
            Err(e) => {
                self.fail(e.into());
                return Vec::new();
            }
        };
        d.max_states = self.opts.max_states;
        let share = 1.0 / self.solutions.len().max(1) as f64;
        let mut mine = Vec::new();
        while !self.stopped() {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(s) = self.solutions.get(index) else {
                break;
            };
            match analyse_one(&mut d, self.orienter.as_ref(), self.inst, s, self.opts) {
                Ok(Ok(a)) => {
                    if let Some(p) = &self.opts.progress {
                        p.record(a.states, 1, share);
                    }
                    mine.push((index, a));
                }
                Ok(Err(Halt::Interrupted)) => break,
                Ok(Err(halt)) => {
                    self.fail(AnalysisError::Halted { halt, index });
                    break;
                }
                Err(e) => {
                    self.fail(e.into());
                    break;
                }
            }
        }
        mine
    }
}

/// Analyses `solutions` of `inst` on `opts.threads` threads, each with its own analyser;
/// results in solution order, every plan replayed. When several assemblies fail, the error
/// is the earliest's among those that ran.
pub fn analyse(
    inst: &Instance,
    solutions: &[Solution],
    opts: &Options,
) -> Result<Batch, AnalysisError> {
    let threads = opts.threads.clamp(1, solutions.len().max(1));
    let shared = Shared {
        inst,
        solutions,
        opts,
        // BurrTools' numbering of orientations is the cube grid's: on other grids the
        // assemblies are analysed as listed.
        orienter: (opts.burrtools_orientation && inst.puzzle.grid.permutes_axes())
            .then(|| orient::Orienter::new(inst)),
        next: AtomicUsize::new(0),
        failure: Mutex::new(None),
        quit: AtomicBool::new(false),
    };
    let mut done: Vec<(usize, Analysis)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| shared.work()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    if let Some(e) = shared.failure.into_inner().ok().flatten() {
        return Err(e);
    }
    done.sort_by_key(|(i, _)| *i);
    // Keep the finished prefix: a stop leaves holes where other threads were still busy.
    let mut analyses = Vec::with_capacity(done.len());
    for (k, (i, a)) in done.into_iter().enumerate() {
        if i != k {
            break;
        }
        analyses.push(a);
    }
    let interrupted = analyses.len() < solutions.len();
    Ok(Batch {
        analyses,
        interrupted,
    })
}
