//! The bitset exact-cover engine: the fast native solver and counter behind `solve`, `count`
//! and `generate`, with parallel subtrees, progress and interruption.
//!
//! Design: the search state is a bitset of live options. Choosing an option ANDs away its
//! precomputed conflict bitset (options sharing an item of need 0 or 1 with it); per-item live
//! counts are updated by walking the killed options, and the search branches on the primary
//! item with the fewest choices. An item with need `k > 1` branches on the smallest option it
//! uses, and later branches exclude the earlier options, so every multiset of options is found
//! once. Models whose primary items all need one covering (up to 128 items and 4,096
//! options) keep the per-item counts bit-sliced instead, updated with carry-save adders over
//! the options' item masks (the `sliced` module); the search tree is the same. With pruning on, options that cannot be in any solution are removed up front and
//! every node checks that each connected region of free cells can still be filled by a
//! sub-multiset of the remaining pieces (see [`ExactQuery::pruning`]).
//!
//! ```no_run
//! # fn demo(model: &cubesat_xc::ExactCover) -> cubesat_xc::Result<()> {
//! use cubesat_xc::exact::ExactEngine;
//! let engine = ExactEngine::new(model)?;
//! let counted = engine.query().threads(2).count()?;
//! let mut first = None;
//! engine.query().enumerate(|sol| {
//!     first = Some(sol.to_vec());
//!     false // stop after the first solution
//! })?;
//! # Ok(()) }
//! ```

mod descend;
mod prepare;
mod search;
mod sliced;

use crate::control::{self, Event, Progress, Subproblem};
use crate::engines::{Counted, Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use prepare::{Level, Prepared};
use search::{FrontierSink, Searcher, Sink};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Deepest frontier the subproblem expansion goes to.
const MAX_FRONTIER_DEPTH: usize = 64;
/// Parallel runs cut the tree into at least this many subproblems per thread, so that uneven
/// subtrees still balance.
const SUBPROBLEMS_PER_THREAD: usize = 32;

/// What an enumeration did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Solutions delivered to the callback.
    pub solutions: u64,
    /// Search nodes visited.
    pub nodes: u64,
    /// True when [`Progress::interrupt`] cut the search short.
    pub interrupted: bool,
    /// True when the callback asked to stop.
    pub stopped: bool,
}

/// What a count found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountResult {
    /// Sum of the weight function over all solutions (equals `solutions` for [`ExactQuery::count`]).
    pub total: u64,
    /// Number of solutions, weighted or not.
    pub solutions: u64,
    /// Search nodes visited.
    pub nodes: u64,
    /// True when [`Progress::interrupt`] cut the search short: the figures are partial.
    pub interrupted: bool,
}

/// The engine for one model: validates it and precomputes its bitsets once; every query
/// ([`ExactEngine::query`]) reuses them. Cheap to clone (shared state).
#[derive(Clone)]
pub struct ExactEngine {
    prep: Arc<Prepared>,
    pruning: bool,
    preprocess: bool,
}

/// The most memory [`ExactEngine::new`] lets one engine's tables and one search thread's
/// levels take ([`ExactEngine::memory_estimate`]): a larger model is refused before anything
/// is allocated instead of exhausting the machine.
pub const MAX_ENGINE_BYTES: u64 = 4 << 30;

impl ExactEngine {
    /// An upper estimate of the bytes the engine needs for `model`: the per-item option
    /// bitsets, the conflict rows it stores (bounded), and one search thread's levels (one
    /// per depth, each a live-option bitset and per-item counters; the depth is at most the
    /// coverage the primary items need, divided by the fewest primary items an option holds).
    pub fn memory_estimate(model: &ExactCover) -> u64 {
        let items = model.items.len() as u64;
        let opts = model.options.len() as u64;
        let words = opts.div_ceil(64).max(1);
        let masks = items * words * 8;
        let conflicts = (opts * words * 8).min(prepare::CONFLICT_BYTES_LIMIT as u64);
        let need: u64 = model.items.iter().map(|i| u64::from(i.need)).sum();
        let narrowest = (0..model.options.len())
            .map(|o| model.primaries(o))
            .min()
            .unwrap_or(1)
            .max(1) as u64;
        let depth = need.div_ceil(narrowest) + 1;
        let level = words * 8 + items * 12;
        masks + conflicts + depth * level
    }

    /// Prepares `model`; an invalid model is an error, and so is one whose tables would take
    /// more than [`MAX_ENGINE_BYTES`].
    pub fn new(model: &ExactCover) -> Result<Self> {
        model.validate()?;
        let bytes = Self::memory_estimate(model);
        if bytes > MAX_ENGINE_BYTES {
            return Err(Error::TooLarge {
                what: "exact engine's tables",
                bytes,
                max: MAX_ENGINE_BYTES,
            });
        }
        Ok(ExactEngine {
            prep: Arc::new(Prepared::new(model, true)),
            pruning: true,
            preprocess: true,
        })
    }

    /// Like [`ExactEngine::new`] but without the fast data layouts (byte-packed item lists,
    /// stored conflict bitsets, shift flood fill), which large models fall back from; for tests
    /// of those paths.
    #[doc(hidden)]
    pub fn new_general(model: &ExactCover) -> Result<Self> {
        model.validate()?;
        Ok(ExactEngine {
            prep: Arc::new(Prepared::new(model, false)),
            pruning: true,
            preprocess: true,
        })
    }

    /// True when the search keeps its per-item counts bit-sliced (models whose primary items
    /// all need one covering, with at most 128 items and 4,096 options); for tests that compare
    /// it with the general path.
    #[doc(hidden)]
    pub fn uses_sliced_counters(&self) -> bool {
        self.prep.sliced.is_some()
    }

    /// The model this engine solves.
    pub fn model(&self) -> &ExactCover {
        &self.prep.model
    }

    /// The pruning every query of this engine starts with ([`ExactQuery::pruning`]; on by
    /// default), also what [`Engine`] queries use.
    pub fn with_pruning(mut self, on: bool) -> Self {
        self.pruning = on;
        self
    }

    /// The preprocessing every query of this engine starts with ([`ExactQuery::preprocess`];
    /// on by default), also what [`Engine`] queries use.
    pub fn with_preprocess(mut self, on: bool) -> Self {
        self.preprocess = on;
        self
    }

    /// A query with this engine's pruning settings, one thread, no extra forced or excluded
    /// options, no progress reporting.
    pub fn query(&self) -> ExactQuery {
        ExactQuery {
            prep: self.prep.clone(),
            threads: 1,
            pruning: self.pruning,
            preprocess: self.preprocess,
            forced: Vec::new(),
            excluded: Vec::new(),
            progress: None,
        }
    }

    /// Options that preprocessing proved to be in no solution (ascending). Computed once.
    pub fn removed_options(&self) -> Vec<u32> {
        let mut v = Vec::new();
        prepare::for_each_bit(self.prep.removed(), |o| v.push(o as u32));
        v
    }
}

/// One question to the engine: configuration (builder methods) plus the operations.
#[derive(Clone)]
pub struct ExactQuery {
    prep: Arc<Prepared>,
    threads: usize,
    pruning: bool,
    preprocess: bool,
    forced: Vec<u32>,
    excluded: Vec<u32>,
    progress: Option<Arc<Progress>>,
}

impl ExactQuery {
    /// Worker threads ([`control::worker_threads`]: `0` means one per core, and requests are
    /// clamped). Results and solution order do not depend on it.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Turns the solution-preserving pruning on (default) or off: preprocessing removes
    /// options whose choice leaves some item with too few options or cuts off an unfillable
    /// region, and every node checks its free-cell regions against achievable sums of the
    /// remaining piece volumes (only for models whose geometry allows it).
    pub fn pruning(mut self, on: bool) -> Self {
        self.pruning = on;
        self
    }

    /// With pruning on, whether to start from the preprocessed option set (default) or skip
    /// the one-time removal of options that can be in no solution, keeping the per-node
    /// region checks. Skipping keeps every solution; it saves the preprocessing cost (most of
    /// the time to a first solution on the Tetris Cube) but may change the order in which
    /// solutions are found, since the fewest-options counts differ.
    pub fn preprocess(mut self, on: bool) -> Self {
        self.preprocess = on;
        self
    }

    /// Adds options every solution must contain (on top of the model's forced options).
    pub fn force(mut self, options: &[u32]) -> Self {
        self.forced.extend_from_slice(options);
        self
    }

    /// Adds options no solution may contain.
    pub fn exclude(mut self, options: &[u32]) -> Self {
        self.excluded.extend_from_slice(options);
        self
    }

    /// Publishes counters to `progress` and obeys its interrupt flag.
    pub fn progress(mut self, progress: Arc<Progress>) -> Self {
        self.progress = Some(progress);
        self
    }

    fn worker_threads(&self) -> usize {
        control::worker_threads(self.threads)
    }

    /// Fails on a forced or excluded option that the model does not have.
    fn check_range(&self) -> Result<()> {
        let n = self.prep.n_opts;
        if let Some(o) = self
            .forced
            .iter()
            .chain(&self.excluded)
            .find(|&&o| o as usize >= n)
        {
            return Err(Error::OptionOutOfRange {
                option: *o,
                options: n,
            });
        }
        Ok(())
    }

    /// Root state and root forced options (ascending), or `None` if the query is infeasible.
    fn root(&self) -> Result<Option<(Level, Vec<u32>)>> {
        self.check_range()?;
        let preprocess = self.pruning && self.preprocess;
        let Some(root) = self.prep.root(&self.forced, &self.excluded, preprocess) else {
            return Ok(None);
        };
        let mut base: Vec<u32> = self
            .prep
            .model
            .forced
            .iter()
            .chain(&self.forced)
            .copied()
            .collect();
        base.sort_unstable();
        base.dedup();
        Ok(Some((root, base)))
    }

    /// Cuts the search tree into at least `min_count` subproblems (fewer if the tree is
    /// smaller), in DFS order. Together they hold every solution of this query exactly once.
    pub fn subproblems(&self, min_count: usize) -> Result<Vec<Subproblem>> {
        let Some((root, base)) = self.root()? else {
            return Ok(Vec::new());
        };
        Ok(self.expand(&root, &base, min_count, MAX_FRONTIER_DEPTH).0)
    }

    /// [`ExactQuery::subproblems`] with the frontier no deeper than `max_depth` choices below the
    /// root (at least 1), so fewer subproblems come back when the tree is too shallow:
    /// cube-and-conquer uses it to leave part of every cube to the SAT solver.
    pub fn subproblems_within(
        &self,
        min_count: usize,
        max_depth: usize,
    ) -> Result<Vec<Subproblem>> {
        let Some((root, base)) = self.root()? else {
            return Ok(Vec::new());
        };
        let depth = max_depth.clamp(1, MAX_FRONTIER_DEPTH);
        Ok(self.expand(&root, &base, min_count, depth).0)
    }

    /// Lookahead at this query's root, for a cube-and-conquer split: the live options that
    /// failed-literal probing with the engine's cheap tests proves to be in no solution
    /// (choosing one starves an item or cuts off an unfillable region; ascending), or `None`
    /// when the query has no solution (forced options in conflict, or an item left with too
    /// few options). Always uses the model's preprocessing, whatever [`ExactQuery::pruning`] says.
    pub fn lookahead(&self) -> Result<Option<Vec<u32>>> {
        self.check_range()?;
        Ok(self.prep.probe(&self.forced, &self.excluded).map(|dead| {
            let mut v = Vec::new();
            prepare::for_each_bit(&dead, |o| v.push(o as u32));
            v
        }))
    }

    /// Iterative deepening of the frontier until it holds `target` nodes, reaches
    /// `max_depth` or the tree ends.
    fn expand(
        &self,
        root: &Level,
        base: &[u32],
        target: usize,
        max_depth: usize,
    ) -> (Vec<Subproblem>, u64) {
        let mut limit = 1;
        loop {
            let mut s = Searcher::new(&self.prep, self.pruning, root.clone(), base.to_vec())
                .with_limit(limit);
            let mut sink = FrontierSink {
                limit,
                ..Default::default()
            };
            s.run(1.0, &mut sink);
            if sink.leaves.len() >= target || sink.open == 0 || limit >= max_depth {
                let subs = sink
                    .leaves
                    .into_iter()
                    .map(|(chosen, excluded, weight)| Subproblem {
                        chosen,
                        excluded,
                        weight,
                    })
                    .collect();
                return (subs, s.nodes);
            }
            limit += 1;
        }
    }

    /// Runs one subproblem (or the whole query when `sub` is `None`) into `sink`.
    fn run_one<S: Sink>(
        &self,
        root: &Level,
        base: &[u32],
        sub: Option<&Subproblem>,
        stop: Option<&AtomicBool>,
        sink: &mut S,
    ) -> Result<SearchStats> {
        let (lv, base, weight) = match sub {
            None => (root.clone(), base.to_vec(), 1.0),
            Some(sp) => {
                let forced: Vec<u32> = self.forced.iter().chain(&sp.chosen).copied().collect();
                let excluded: Vec<u32> =
                    self.excluded.iter().chain(&sp.excluded).copied().collect();
                let lv = self
                    .prep
                    .root(&forced, &excluded, self.pruning && self.preprocess)
                    .ok_or_else(|| Error::internal("a subproblem root is infeasible"))?;
                let mut b: Vec<u32> = base.iter().chain(&sp.chosen).copied().collect();
                b.sort_unstable();
                (lv, b, sp.weight)
            }
        };
        let mut s = Searcher::new(&self.prep, self.pruning, lv, base)
            .with_progress(self.progress.as_deref(), stop);
        s.run(weight, sink);
        if let Some(bad) = &s.invalid {
            return Err(Error::internal(format!(
                "the exact engine produced an invalid solution {bad:?}"
            )));
        }
        Ok(SearchStats {
            solutions: s.solutions,
            nodes: s.nodes,
            interrupted: s.interrupted,
            stopped: s.stopped,
        })
    }

    /// Streams every solution (ascending option indices, forced options included) to `f` in
    /// deterministic DFS order until `f` returns `false`. With several threads the order is
    /// the same as with one: subtrees are solved in parallel and delivered in tree order.
    pub fn enumerate(&self, mut f: impl FnMut(&[u32]) -> bool) -> Result<SearchStats> {
        let Some((root, base)) = self.root()? else {
            return Ok(SearchStats::default());
        };
        let threads = self.worker_threads();
        if threads <= 1 {
            struct Call<F>(F);
            impl<F: FnMut(&[u32]) -> bool> Sink for Call<F> {
                fn solution(&mut self, sol: &[u32]) -> bool {
                    (self.0)(sol)
                }
            }
            return self.run_one(&root, &base, None, None, &mut Call(&mut f));
        }
        let (subs, expand_nodes) = self.expand(
            &root,
            &base,
            threads * SUBPROBLEMS_PER_THREAD,
            MAX_FRONTIER_DEPTH,
        );
        self.account_expansion(&subs, expand_nodes);
        /// Hands each solution of a subtree to the scheduler.
        struct Emit<'e>(&'e mut dyn FnMut(Vec<u32>));
        impl Sink for Emit<'_> {
            fn solution(&mut self, sol: &[u32]) -> bool {
                (self.0)(sol.to_vec());
                true
            }
        }
        let work = |i: usize, emit: &mut dyn FnMut(Vec<u32>), halt: &AtomicBool| {
            self.run_one(&root, &base, Some(&subs[i]), Some(halt), &mut Emit(emit))
        };
        let mut stats = SearchStats {
            nodes: expand_nodes,
            ..Default::default()
        };
        let mut error = None;
        control::ordered(subs.len(), threads, &|| false, &work, &mut |_, event| {
            match event {
                Event::Item(sol) => {
                    stats.solutions += 1;
                    if !f(&sol) {
                        stats.stopped = true;
                        return ControlFlow::Break(());
                    }
                }
                Event::Done(Ok(s)) => {
                    stats.nodes += s.nodes;
                    stats.interrupted |= s.interrupted;
                    if s.interrupted {
                        // Later subtrees would not continue the DFS order.
                        return ControlFlow::Break(());
                    }
                }
                Event::Done(Err(e)) => {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })?;
        match error {
            Some(e) => Err(e),
            None => Ok(stats),
        }
    }

    /// The first solution in DFS order, if any.
    pub fn first(&self) -> Result<Option<Vec<u32>>> {
        let mut first = None;
        self.enumerate(|s| {
            first = Some(s.to_vec());
            false
        })?;
        Ok(first)
    }

    /// Counts the solutions.
    pub fn count(&self) -> Result<CountResult> {
        self.count_weighted(|_| 1)
    }

    /// Counts the solutions and sums `weight` over them (`0` = not counted in `total`; the
    /// symmetry code keeps one canonical solution per orbit and weights orbit sizes). Runs in
    /// parallel on the configured threads; the result does not depend on the thread count.
    pub fn count_weighted<W: Fn(&[u32]) -> u64 + Sync>(&self, weight: W) -> Result<CountResult> {
        struct Sum<'w, W> {
            weight: &'w W,
            total: u64,
        }
        impl<W: Fn(&[u32]) -> u64> Sink for Sum<'_, W> {
            fn solution(&mut self, sol: &[u32]) -> bool {
                self.total = self.total.saturating_add((self.weight)(sol));
                true
            }
        }
        let Some((root, base)) = self.root()? else {
            return Ok(CountResult::default());
        };
        let threads = self.worker_threads();
        let one = |sub: Option<&Subproblem>| -> Result<CountResult> {
            let mut sink = Sum {
                weight: &weight,
                total: 0,
            };
            let s = self.run_one(&root, &base, sub, None, &mut sink)?;
            Ok(CountResult {
                total: sink.total,
                solutions: s.solutions,
                nodes: s.nodes,
                interrupted: s.interrupted,
            })
        };
        if threads <= 1 {
            return one(None);
        }
        let (subs, expand_nodes) = self.expand(
            &root,
            &base,
            threads * SUBPROBLEMS_PER_THREAD,
            MAX_FRONTIER_DEPTH,
        );
        self.account_expansion(&subs, expand_nodes);
        let work = |i: usize, _: &mut dyn FnMut(()), _: &AtomicBool| one(Some(&subs[i]));
        let mut total = CountResult {
            nodes: expand_nodes,
            ..Default::default()
        };
        let mut error = None;
        control::ordered(subs.len(), threads, &|| false, &work, &mut |_, event| {
            match event {
                Event::Item(()) => {}
                Event::Done(Ok(r)) => {
                    total.total = total.total.saturating_add(r.total);
                    total.solutions += r.solutions;
                    total.nodes += r.nodes;
                    total.interrupted |= r.interrupted;
                }
                Event::Done(Err(e)) => {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })?;
        match error {
            Some(e) => Err(e),
            None => Ok(total),
        }
    }

    /// Publishes the expansion's nodes and the share of the tree it already settled (dead ends
    /// above the frontier).
    fn account_expansion(&self, subs: &[Subproblem], nodes: u64) {
        if let Some(p) = &self.progress {
            let open: f64 = subs.iter().map(|s| s.weight).sum();
            p.record(nodes, 0, 1.0 - open);
        }
    }
}

impl ExactEngine {
    /// This engine's query for an [`Engine`] query.
    fn for_query(&self, q: &Query) -> ExactQuery {
        let mut e = self
            .query()
            .threads(q.threads)
            .force(&q.forced)
            .exclude(&q.excluded);
        if let Some(p) = &q.progress {
            e = e.progress(p.clone());
        }
        e
    }
}

impl Engine for ExactEngine {
    fn enumerate(
        &self,
        query: &Query,
        sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats> {
        let s = self
            .for_query(query)
            .enumerate(|sol| sink(sol).is_continue())?;
        Ok(Stats {
            solutions: s.solutions,
            nodes: Some(s.nodes),
            interrupted: s.interrupted,
            stopped: s.stopped,
            summary: "exact".into(),
        })
    }

    fn count(&self, query: &Query, weight: &(dyn Fn(&[u32]) -> u64 + Sync)) -> Result<Counted> {
        let r = self.for_query(query).count_weighted(weight)?;
        Ok(Counted {
            total: r.total,
            solutions: r.solutions,
            nodes: Some(r.nodes),
            interrupted: r.interrupted,
            summary: match control::worker_threads(query.threads) {
                1 => "exact, 1 thread".to_string(),
                n => format!("exact, {n} threads"),
            },
        })
    }
}
