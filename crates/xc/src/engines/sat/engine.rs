//! The SAT engine as an [`Engine`]: a query on one solver, or the exact engine's first attempt and then its top subtrees as cubes for [`conquer_cubes`], with the statistics line that says what happened to them.

use super::conquer::{Conquer, ConquerStats, conquer_cubes};
use super::solver::{Ended, SatConfig, SatEngine};
use crate::control::Subproblem;
use crate::engines::exact::{ExactEngine, WithinEnd};
use crate::engines::{Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use crate::shard::{SUBTREES_PER_SHARD, deal};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::time::Instant;

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
/// cells): the pieces' fewest copies. Otherwise the coverage its items need at least, divided
/// by the most items of such a need one option holds (rounded up).
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
                .map(|it| it.min as usize)
                .sum();
        }
    }
    let need: usize = model.items.iter().map(|it| it.min as usize).sum();
    let widest = (0..model.options.len())
        .map(|o| {
            let items = &model.options[o];
            items
                .iter()
                .filter(|&&i| model.items[i as usize].min > 0)
                .count()
        })
        .max()
        .unwrap_or(1)
        .max(1);
    need.div_ceil(widest)
}
