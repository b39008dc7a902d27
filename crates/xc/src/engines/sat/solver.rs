//! One varisat solver over a model: the encoding, queries under assumptions, enumeration with guarded blocking clauses, and the uniqueness check.

use crate::control::Subproblem;
use crate::encoding::{AtMostOne, CnfConfig, CnfEncoder, ForcedMode};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use cpu_time::ThreadTime;
use std::ops::ControlFlow;
use std::time::Duration;
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
