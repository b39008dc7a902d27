//! The bitset exact-cover engine: the fast native solver and counter behind `solve`, `count`
//! and `generate`, with parallel subtrees, progress and interruption.
//!
//! Design: the search state is a bitset of live options. Choosing an option ANDs away its
//! precomputed conflict bitset (options sharing an item of need 0 or 1 with it); per-item live
//! counts are updated by walking the killed options, and the search branches on the primary
//! item with the fewest choices. An item with need `k > 1` branches on the smallest option it
//! uses, and later branches exclude the earlier options, so every multiset of options is found
//! once. Models with at most 128 items of need one and 4,096 options keep the per-item
//! counts bit-sliced instead, updated with carry-save adders over the options' item masks
//! (the `sliced` module); their items of larger need (at most 16, each option holding an item
//! of need one) keep plain remaining counts and are never branched on, which is the only way
//! their tree differs from the general path's. With pruning on, options that cannot be in any
//! solution are removed up front and every node checks that each connected region of free
//! cells can still be filled by a sub-multiset of the remaining pieces (see
//! [`ExactQuery::pruning`]). Near the leaves of polycube models, a node with at most 1,024 live
//! options (512 past 64 free cells) and 112 free cells hands its subtree to the leaf search
//! (the `tail` module, [`ExactQuery::leaf_search`]): the same fewest-options rule on a
//! renumbered board of a few words, where most of the nodes are.
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

#[cfg(target_arch = "x86_64")]
mod board_simd;
mod body;
mod descend;
mod estimate;
mod geo;
mod prepare;
mod search;
mod sliced;
mod tail;

use crate::control::{self, Event, Progress, Subproblem};
use crate::engines::{Counted, Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use crate::shard::{self, SUBTREES_PER_SHARD, Shard};
pub use estimate::{
    DEFAULT_EXACT_BUDGET, DEFAULT_FANOUT, EstimateOptions, Estimated, TreeEstimate,
};
use prepare::{Level, Prepared};
use search::{FrontierSink, Searcher, Sink};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

pub use body::{SimdBody, set_simd_body, simd_body};

/// The version of the engine's search tree and of how a shard's cut is taken from it (the
/// branching rule, where the leaf search takes over, the cut): shards of another scheme hold
/// other subtrees, so a shard record's run digest names it and a merge never adds records of
/// two schemes up. Raise it with any change that moves the tree or the cut; the test that
/// pins the shards' counts and nodes on a board and a cube catches most such changes.
pub const SCHEME: u32 = 1;

/// Deepest frontier the subproblem expansion goes to.
const MAX_FRONTIER_DEPTH: usize = 64;
/// Parallel runs cut the tree into at least this many subproblems per thread, so that uneven
/// subtrees still balance. Each subtree's root is built on its own, which short runs feel:
/// two threads over one on Conway's puzzle (0.045 s), five alternating runs, went from a
/// median of 1.75x with 32 to 1.82x with 16; with 8 Bedlam's largest subtree left a thread
/// idle (1.73x against 1.94x).
const SUBTREES_PER_THREAD: usize = 16;

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

/// How a [`CubeSearch::search_within`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WithinEnd {
    /// Every solution of the cube was delivered.
    Closed,
    /// The budget ran out first.
    OverBudget,
    /// The caller's function stopped it.
    Stopped,
}

/// What a [`CubeSearch::search_within`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Within {
    /// Why it ended.
    pub ended: WithinEnd,
    /// Nodes visited.
    pub nodes: u64,
}

/// Searches the cubes of one query on one thread, each within a node budget (see
/// [`ExactQuery::cube_search`]): a cheap first attempt before a costlier method, such as the
/// SAT engine's cubes.
pub struct CubeSearch {
    prep: Arc<Prepared>,
    pruning: bool,
    leaf: bool,
    shared: Level,
    base: Vec<u32>,
    /// Paths of the last cube each worker searched, each choice with its (unsliced) level:
    /// cubes come in DFS order, so the next one mostly shares all but its last choice.
    paths: Mutex<Vec<Vec<(u32, Level)>>>,
}

impl CubeSearch {
    /// Every solution of the cube (`chosen` options forced, `excluded` ones dropped;
    /// ascending option indices, in DFS order) and the nodes visited, or `None` when the
    /// search needs more than about `budget` nodes (checked every 4,096 nodes).
    pub fn enumerate_within(
        &self,
        chosen: &[u32],
        excluded: &[u32],
        budget: u64,
    ) -> Result<Option<(Vec<Vec<u32>>, u64)>> {
        let mut found = Vec::new();
        let within = self.search_within(chosen, excluded, budget, |s| {
            found.push(s.to_vec());
            true
        })?;
        Ok((within.ended == WithinEnd::Closed).then_some((found, within.nodes)))
    }

    /// [`CubeSearch::enumerate_within`] streaming each solution to `f` as it is found, until
    /// `f` returns `false` or the budget runs out: the caller sees the solutions of a cube
    /// the budget does not close too.
    pub fn search_within(
        &self,
        chosen: &[u32],
        excluded: &[u32],
        budget: u64,
        f: impl FnMut(&[u32]) -> bool,
    ) -> Result<Within> {
        // Options the shared root chose already (the query's forced ones) are not chosen
        // again: they are no longer live there.
        let mut chosen: Vec<u32> = chosen
            .iter()
            .copied()
            .filter(|o| self.base.binary_search(o).is_err())
            .collect();
        let root = if excluded.is_empty() {
            let mut path = self.paths.lock().ok().and_then(|mut p| p.pop());
            let path = path.get_or_insert_with(Vec::new);
            let root = self.path_root(path, &chosen);
            if let Ok(mut p) = self.paths.lock() {
                p.push(std::mem::take(path));
            }
            root
        } else {
            chosen.sort_unstable();
            chosen.dedup();
            self.prep.cube_root(&self.shared, &chosen, excluded)
        };
        let Some(root) = root else {
            return Ok(Within {
                ended: WithinEnd::Closed,
                nodes: 0,
            });
        };
        chosen.sort_unstable();
        chosen.dedup();
        let mut base = self.base.clone();
        base.extend_from_slice(&chosen);
        base.sort_unstable();
        base.dedup();
        struct Call<F>(F);
        impl<F: FnMut(&[u32]) -> bool> Sink for Call<F> {
            fn solution(&mut self, sol: &[u32]) -> bool {
                (self.0)(sol)
            }
        }
        let mut sink = Call(f);
        let mut s = Searcher::new(&self.prep, self.pruning, root, base)
            .with_leaf(self.leaf)
            .with_budget(budget);
        s.run(1.0, &mut sink);
        if let Some(bad) = &s.invalid {
            return Err(Error::internal(format!(
                "the exact engine produced an invalid solution {bad:?}"
            )));
        }
        let ended = if s.over_budget {
            WithinEnd::OverBudget
        } else if s.stopped {
            WithinEnd::Stopped
        } else {
            WithinEnd::Closed
        };
        Ok(Within {
            ended,
            nodes: s.nodes,
        })
    }

    /// The sliced root of the cube whose choices are `chosen` (in path order), reusing the
    /// longest prefix `path` holds and leaving the cube's own path there; `None` when a
    /// choice is not live (the cube is empty).
    fn path_root(&self, path: &mut Vec<(u32, Level)>, chosen: &[u32]) -> Option<Level> {
        let same = path
            .iter()
            .zip(chosen)
            .take_while(|((o, _), c)| o == *c)
            .count();
        path.truncate(same);
        for &f in &chosen[same..] {
            let parent = path.last().map_or(&self.shared, |(_, lv)| lv);
            if !geo::test_bit(&parent.live, f as usize) {
                return None;
            }
            let mut next = Level::default();
            self.prep.descend(parent, &mut next, f as usize, false);
            path.push((f, next));
        }
        let mut lv = path.last().map_or(&self.shared, |(_, lv)| lv).clone();
        self.prep.slice_level(&mut lv);
        Some(lv)
    }
}

/// The root of a query ([`ExactQuery::top`]), for measuring the top of its tree.
pub struct TreeTop {
    prep: Arc<Prepared>,
    pruning: bool,
    root: Option<(Level, Vec<u32>)>,
}

impl TreeTop {
    /// The size of the tree down to `depth` choices below the root (at least 1): the nodes
    /// the search visits above that depth plus the nodes it reaches there (solutions and
    /// dead ends above it included), or `None` once that passes `cap`. One thread,
    /// deterministic, and the leaf search ignored: a cheap measure for comparing the trees
    /// of queries on one model, whose top levels predict their whole trees' order well.
    pub fn breadth(&self, depth: usize, cap: u64) -> Option<u64> {
        let Some((root, base)) = &self.root else {
            return Some(0);
        };
        struct Tally {
            reached: u64,
            cap: u64,
        }
        impl Sink for Tally {
            fn solution(&mut self, _sol: &[u32]) -> bool {
                true
            }
            fn frontier(&mut self, _chosen: &[u32], _excluded: &[u32], _weight: f64) -> bool {
                self.reached += 1;
                self.reached <= self.cap
            }
        }
        let mut sink = Tally { reached: 0, cap };
        let mut s = Searcher::new(&self.prep, self.pruning, root.clone(), base.clone())
            .with_limit(depth.clamp(1, MAX_FRONTIER_DEPTH), false);
        s.run(1.0, &mut sink);
        let size = s.nodes + sink.reached;
        (!s.stopped && size <= cap).then_some(size)
    }

    /// Knuth's estimate of the tree's nodes (leaf search off), the mean over `probes` random
    /// paths drawn from `seed`: unbiased but of high variance on packing puzzles (a tenth to
    /// ten times the tree), enough to tell a tree of thousands of nodes from one of
    /// millions. Deterministic for a seed.
    pub fn sample(&self, probes: u32, seed: u64) -> f64 {
        let Some((root, base)) = &self.root else {
            return 0.0;
        };
        struct Ignore;
        impl Sink for Ignore {
            fn solution(&mut self, _sol: &[u32]) -> bool {
                true
            }
        }
        let mut s = Searcher::new(&self.prep, false, root.clone(), base.clone()).with_leaf(false);
        let mut total = 0.0;
        for i in 0..probes {
            let seed = seed ^ u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            total += s.probe(root, seed, &mut Ignore);
        }
        total / f64::from(probes.max(1))
    }

    /// The 64-bit words of the model's option bitsets: what one node of the search costs
    /// grows with it.
    pub fn words(&self) -> usize {
        self.prep.n_opts.div_ceil(64)
    }
}

/// The engine for one model: validates it and precomputes its bitsets once; every query
/// ([`ExactEngine::query`]) reuses them. Cheap to clone (shared state).
#[derive(Clone)]
pub struct ExactEngine {
    prep: Arc<Prepared>,
    pruning: bool,
    preprocess: bool,
    leaf: bool,
}

/// The most memory [`ExactEngine::new`] lets one engine's tables and one search thread's
/// levels take ([`ExactEngine::memory_estimate`]): a larger model is refused before anything
/// is allocated instead of exhausting the machine.
pub const MAX_ENGINE_BYTES: u64 = 4 << 30;

impl ExactEngine {
    /// An upper estimate of the bytes the engine needs for `model`: the per-item option
    /// bitsets, the conflict rows and the solution check's option bitsets it stores (both
    /// bounded), and one search thread's levels (one per depth, each a live-option bitset and
    /// per-item counters; the depth is at most the coverage the exact items need, divided
    /// by the fewest exact items an option holds).
    pub fn memory_estimate(model: &ExactCover) -> u64 {
        let items = model.items.len() as u64;
        let opts = model.options.len() as u64;
        let words = opts.div_ceil(64).max(1);
        let masks = items * words * 8;
        let conflicts = (opts * words * 8).min(prepare::CONFLICT_BYTES_LIMIT as u64);
        let checks = (opts * items.div_ceil(64) * 8).min(prepare::CHECK_BYTES_LIMIT as u64);
        let need: u64 = model
            .items
            .iter()
            .filter(|i| i.is_exact())
            .map(|i| u64::from(i.min))
            .sum();
        let narrowest = (0..model.options.len())
            .map(|o| model.exacts(o))
            .min()
            .unwrap_or(1)
            .max(1) as u64;
        let depth = need.div_ceil(narrowest) + 1;
        let level = words * 8 + items * 12;
        masks + conflicts + checks + depth * level
    }

    /// Prepares `model`; an invalid model is an error, and so is one whose tables would take
    /// more than [`MAX_ENGINE_BYTES`].
    pub fn new(model: &ExactCover) -> Result<Self> {
        Self::check(model)?;
        Ok(Self::prepare(Arc::new(model.clone())))
    }

    /// [`ExactEngine::new`] for a model the caller shares rather than lends: the engine keeps
    /// it without a copy.
    pub fn new_shared(model: Arc<ExactCover>) -> Result<Self> {
        Self::check(&model)?;
        Ok(Self::prepare(model))
    }

    /// Refuses an invalid model, or one whose tables would be too large, before anything is
    /// copied or built.
    fn check(model: &ExactCover) -> Result<()> {
        model.validate()?;
        let bytes = Self::memory_estimate(model);
        if bytes > MAX_ENGINE_BYTES {
            return Err(Error::TooLarge {
                what: "exact engine's tables",
                bytes,
                max: MAX_ENGINE_BYTES,
            });
        }
        Ok(())
    }

    /// The engine of a checked model.
    fn prepare(model: Arc<ExactCover>) -> Self {
        ExactEngine {
            prep: Arc::new(Prepared::new(model, true)),
            pruning: true,
            preprocess: true,
            leaf: true,
        }
    }

    /// Like [`ExactEngine::new`] but without the fast data layouts (byte-packed item lists,
    /// stored conflict bitsets, shift flood fill), which large models fall back from; for tests
    /// of those paths. Refuses the same models as [`ExactEngine::new`].
    #[doc(hidden)]
    pub fn new_general(model: &ExactCover) -> Result<Self> {
        Self::check(model)?;
        Ok(ExactEngine {
            prep: Arc::new(Prepared::new(Arc::new(model.clone()), false)),
            pruning: true,
            preprocess: true,
            leaf: true,
        })
    }

    /// True when the search keeps its per-item counts bit-sliced (models with at most 128
    /// items of need one, 16 of larger need and 4,096 options); for tests that compare it with
    /// the general path.
    #[doc(hidden)]
    pub fn uses_sliced_counters(&self) -> bool {
        self.prep.sliced.is_some()
    }

    /// True when the region test walks the free cells a run at a time (large targets that
    /// are not boxes); for tests that compare it with the general path's walk cell by cell.
    #[doc(hidden)]
    pub fn walks_regions_by_runs(&self) -> bool {
        self.prep
            .geo
            .as_ref()
            .is_some_and(|g| g.walk && g.runs.is_some())
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

    /// Whether the leaf search takes over small subtrees ([`ExactQuery::leaf_search`]; on by
    /// default), for every query of this engine, [`Engine`] queries included.
    pub fn with_leaf_search(mut self, on: bool) -> Self {
        self.leaf = on;
        self
    }

    /// True when the model qualifies for the leaf search ([`ExactQuery::leaf_search`]).
    pub fn has_leaf_search(&self) -> bool {
        self.prep.tail.is_some()
    }

    /// A query with this engine's pruning settings, one thread, no extra forced or excluded
    /// options, no progress reporting.
    pub fn query(&self) -> ExactQuery {
        ExactQuery {
            prep: self.prep.clone(),
            threads: 1,
            pruning: self.pruning,
            preprocess: self.preprocess,
            leaf: self.leaf,
            forced: Vec::new(),
            excluded: Vec::new(),
            progress: None,
            shard: None,
        }
    }

    /// Options that preprocessing proved to be in no solution (ascending). Computed once.
    pub fn removed_options(&self) -> Vec<u32> {
        let mut v = Vec::new();
        geo::for_each_bit(self.prep.removed(), |o| v.push(o as u32));
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
    leaf: bool,
    forced: Vec<u32>,
    excluded: Vec<u32>,
    progress: Option<Arc<Progress>>,
    shard: Option<Shard>,
}

/// How a sharded run splits a query ([`ExactQuery::shard_plan`]): the subtrees cut from the
/// top of the tree in DFS order, each one's estimated size and its shard.
#[derive(Clone, Debug, Default)]
pub struct ShardPlan {
    /// The subtrees, in DFS order; together they hold every solution once.
    pub subproblems: Vec<Subproblem>,
    /// Each subtree's estimated share of the tree (Knuth's path weight).
    pub estimates: Vec<f64>,
    /// Each subtree's shard.
    pub owner: Vec<u32>,
    /// Search nodes above the subtrees (inner nodes and dead ends of the cut); a sharded run
    /// counts them in shard 0, so that the shards' nodes add up to the whole tree's.
    pub split_nodes: u64,
}

impl ShardPlan {
    /// The subtrees of shard `index`, in DFS order.
    pub fn subproblems_of(&self, index: u32) -> Vec<Subproblem> {
        self.subproblems
            .iter()
            .zip(&self.owner)
            .filter(|&(_, &o)| o == index)
            .map(|(s, _)| s.clone())
            .collect()
    }
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

    /// Turns the leaf search on (default) or off. Models whose options each hold one piece
    /// and its cells, every cell needed once, hand each subtree whose node has at most 512
    /// live options and 112 free cells to a compact search on a renumbered board, with the same
    /// fewest-options rule and no region test (about twice as fast on the bundled puzzles).
    /// The solutions are the same either way; their order and the node counts differ.
    pub fn leaf_search(mut self, on: bool) -> Self {
        self.leaf = on;
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

    /// Runs only `shard` of the search ([`ExactQuery::shard_plan`]): the shards of a query
    /// partition its solutions, and a shard's solutions, their order and its node count do
    /// not depend on the thread count. Progress then measures the shard's own part.
    pub fn shard(mut self, shard: Shard) -> Self {
        self.shard = Some(shard);
        self
    }

    /// The split every shard of an `shards`-way run computes alike: the tree cut at the
    /// shallowest depth that gives at least [`SUBTREES_PER_SHARD`] subtrees per shard (fewer
    /// when the tree is smaller), dealt to the shards by [`shard::deal`] on Knuth's estimate
    /// of their sizes (the product of `1/choices` along the path). Depends on the query's
    /// model, forced and excluded options and pruning, never on its threads.
    ///
    /// Measured on the Tetris Cube (59,859,515 nodes, 6,439 subtrees three placements deep):
    /// the largest of 16 shards has 1.14 times the mean shard's nodes, of 64 shards 1.33
    /// times. Averaging seeded random probes per subtree (Knuth's size estimate) balanced 64
    /// shards worse with 1 to 16 probes (1.33 to 1.63; a single probe overestimates wildly)
    /// and only to 1.27 with 32, at 100 times the split's cost; cutting at equal path weights
    /// instead of one depth did no better; one level deeper (75,714 subtrees) balanced 64
    /// shards to 1.09 but cost every shard about 0.5 s of splitting.
    pub fn shard_plan(&self, shards: u32) -> Result<ShardPlan> {
        let Some((root, base)) = self.root()? else {
            return Ok(ShardPlan::default());
        };
        let target = (shards.max(1) as usize).saturating_mul(SUBTREES_PER_SHARD);
        let (subproblems, split_nodes) =
            self.expand(&root, &base, target, MAX_FRONTIER_DEPTH, true);
        let estimates: Vec<f64> = subproblems.iter().map(|s| s.weight).collect();
        let owner = shard::deal(&estimates, shards);
        Ok(ShardPlan {
            subproblems,
            estimates,
            owner,
            split_nodes,
        })
    }

    /// The root state of subproblem `sub` of this query, from `shared`, the query's root
    /// before slicing ([`ExactQuery::shared_root`]): only the subproblem's own exclusions and
    /// choices are applied, not the whole preprocessing again (a split run has hundreds of
    /// subproblems; on the 6x10 board rebuilding each root cost 9% of the run).
    fn sub_root(&self, sub: &Subproblem, shared: &Level, base: &[u32]) -> Result<Level> {
        // Options the shared root chose already (the query's forced ones) are not chosen
        // again: they are no longer live there.
        let mut chosen: Vec<u32> = sub
            .chosen
            .iter()
            .copied()
            .filter(|o| base.binary_search(o).is_err())
            .collect();
        chosen.sort_unstable();
        chosen.dedup();
        self.prep
            .cube_root(shared, &chosen, &sub.excluded)
            .ok_or_else(|| Error::internal("a subproblem root is infeasible"))
    }

    /// The query's root before slicing, shared by the roots of its subproblems.
    fn shared_root(&self) -> Result<Level> {
        self.prep
            .root_unsliced(
                &self.forced,
                &self.excluded,
                self.pruning && self.preprocess,
            )
            .ok_or_else(|| Error::internal("the query's root is infeasible"))
    }

    /// The subtrees this query runs, and the search nodes spent above them that it counts:
    /// its shard's part of [`ExactQuery::shard_plan`] (the split's nodes counted in shard 0;
    /// their weights scaled to the shard's share so that progress measures the shard), or a
    /// cut into at least `subtrees` subtrees for `threads` workers, or `None` (one thread)
    /// to search the whole tree at once.
    fn split(
        &self,
        root: &Level,
        base: &[u32],
        threads: usize,
        subtrees: usize,
    ) -> Result<Option<(Vec<Subproblem>, u64)>> {
        let split = self.split_unchecked(root, base, threads, subtrees)?;
        // An interrupt during the cut leaves a partial frontier: the caller runs the single
        // search instead, which stops at its first check and reports the interrupt.
        if self.progress.as_ref().is_some_and(|p| p.is_interrupted()) {
            return Ok(None);
        }
        Ok(split)
    }

    /// [`ExactQuery::split`] without the interrupt check.
    fn split_unchecked(
        &self,
        root: &Level,
        base: &[u32],
        threads: usize,
        subtrees: usize,
    ) -> Result<Option<(Vec<Subproblem>, u64)>> {
        if let Some(sh) = self.shard {
            let plan = self.shard_plan(sh.count())?;
            let mut mine = plan.subproblems_of(sh.index());
            let share: f64 = mine.iter().map(|s| s.weight).sum();
            if share > 0.0 {
                for s in &mut mine {
                    s.weight /= share;
                }
            }
            let nodes = if sh.index() == 0 { plan.split_nodes } else { 0 };
            return Ok(Some((mine, nodes)));
        }
        if threads <= 1 {
            return Ok(None);
        }
        let (subs, nodes) = self.expand(root, base, subtrees, MAX_FRONTIER_DEPTH, true);
        self.account_expansion(&subs, nodes);
        Ok(Some((subs, nodes)))
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
    /// smaller), in DFS order. Together they hold every solution of this query exactly once,
    /// unless the query's [`Progress`] was interrupted during the cut (then they are partial).
    pub fn subproblems(&self, min_count: usize) -> Result<Vec<Subproblem>> {
        let Some((root, base)) = self.root()? else {
            return Ok(Vec::new());
        };
        Ok(self
            .expand(&root, &base, min_count, MAX_FRONTIER_DEPTH, false)
            .0)
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
        Ok(self.expand(&root, &base, min_count, depth, false).0)
    }

    /// This query's root, kept for measuring the top of its tree at several depths
    /// ([`TreeTop::breadth`]).
    pub fn top(&self) -> Result<TreeTop> {
        Ok(TreeTop {
            prep: self.prep.clone(),
            pruning: self.pruning,
            root: self.root()?,
        })
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
            geo::for_each_bit(&dead, |o| v.push(o as u32));
            v
        }))
    }

    /// Iterative deepening of the frontier until it holds `target` nodes, reaches
    /// `max_depth` or the tree ends. An interrupt ([`ExactQuery::progress`]) stops it within
    /// a few thousand nodes, with the subproblems found so far: not a partition, but the
    /// interrupted query stops before solving any of them.
    ///
    /// With `tail_leaves`, a node the leaf search would take over is a leaf of the cut, so
    /// that the subtrees of a split run (threads, shards) give exactly the whole run's
    /// solutions, order and nodes; without, the cut goes on through such nodes (cubes for a
    /// SAT solver, whatever their size).
    fn expand(
        &self,
        root: &Level,
        base: &[u32],
        target: usize,
        max_depth: usize,
        tail_leaves: bool,
    ) -> (Vec<Subproblem>, u64) {
        let mut limit = 1;
        loop {
            let mut s = Searcher::new(&self.prep, self.pruning, root.clone(), base.to_vec())
                .with_leaf(self.leaf)
                .with_limit(limit, tail_leaves)
                .with_progress(self.progress.as_deref(), None);
            let mut sink = FrontierSink {
                limit,
                ..Default::default()
            };
            s.run(1.0, &mut sink);
            if s.interrupted || sink.leaves.len() >= target || sink.open == 0 || limit >= max_depth
            {
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

    /// Runs one subproblem (or the whole query when `sub` is `None`) into `sink`; a
    /// subproblem comes with the query's [`ExactQuery::shared_root`].
    fn run_one<S: Sink>(
        &self,
        root: &Level,
        base: &[u32],
        sub: Option<(&Subproblem, &Level)>,
        stop: Option<&AtomicBool>,
        sink: &mut S,
    ) -> Result<SearchStats> {
        let (lv, base, weight) = match sub {
            None => (root.clone(), base.to_vec(), 1.0),
            Some((sp, shared)) => {
                let lv = self.sub_root(sp, shared, base)?;
                let mut b: Vec<u32> = base.iter().chain(&sp.chosen).copied().collect();
                b.sort_unstable();
                (lv, b, sp.weight)
            }
        };
        let mut s = Searcher::new(&self.prep, self.pruning, lv, base)
            .with_leaf(self.leaf)
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
        let Some((subs, expand_nodes)) =
            self.split(&root, &base, threads, threads * SUBTREES_PER_THREAD)?
        else {
            struct Call<F>(F);
            impl<F: FnMut(&[u32]) -> bool> Sink for Call<F> {
                fn solution(&mut self, sol: &[u32]) -> bool {
                    (self.0)(sol)
                }
            }
            return self.run_one(&root, &base, None, None, &mut Call(&mut f));
        };
        /// Hands each solution of a subtree to the scheduler.
        struct Emit<'e>(&'e mut dyn FnMut(Vec<u32>));
        impl Sink for Emit<'_> {
            fn solution(&mut self, sol: &[u32]) -> bool {
                (self.0)(sol.to_vec());
                true
            }
        }
        let shared = self.shared_root()?;
        let work = |i: usize, emit: &mut dyn FnMut(Vec<u32>), halt: &AtomicBool| {
            self.run_one(
                &root,
                &base,
                Some((&subs[i], &shared)),
                Some(halt),
                &mut Emit(emit),
            )
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

    /// A searcher for many cubes of this query ([`CubeSearch`]): the query's root is built
    /// once, without its forced options' descent, and each cube only adds its own choices.
    /// `None` when the query has no solution at all.
    pub fn cube_search(&self) -> Result<Option<CubeSearch>> {
        self.check_range()?;
        let preprocess = self.pruning && self.preprocess;
        let Some(shared) = self
            .prep
            .root_unsliced(&self.forced, &self.excluded, preprocess)
        else {
            return Ok(None);
        };
        let Some((_, base)) = self.root()? else {
            return Ok(None);
        };
        Ok(Some(CubeSearch {
            prep: self.prep.clone(),
            pruning: self.pruning,
            leaf: self.leaf,
            shared,
            base,
            paths: Mutex::new(Vec::new()),
        }))
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
        Self::count_weighted_all(std::slice::from_ref(self), weight)
    }

    /// [`ExactQuery::count_weighted`] over several queries, their figures added up: the
    /// branches of one run, such as the searches a symmetry reduction breaks a puzzle into
    /// (their solutions should be disjoint for the sum to mean anything). Every query is cut
    /// for its own threads (or shard) as it would be alone, and all the subtrees go to one
    /// pool of the largest thread count asked, so that no thread waits at the end of one
    /// query while another has work. The result does not depend on the thread counts.
    pub fn count_weighted_all<W: Fn(&[u32]) -> u64 + Sync>(
        queries: &[ExactQuery],
        weight: W,
    ) -> Result<CountResult> {
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
        /// One query's root, and its subtrees with their shared root when it was cut.
        struct Part<'q> {
            query: &'q ExactQuery,
            root: Level,
            base: Vec<u32>,
            cut: Option<(Vec<Subproblem>, Level)>,
        }
        let add = |t: &mut CountResult, r: CountResult| {
            t.total = t.total.saturating_add(r.total);
            t.solutions += r.solutions;
            t.nodes += r.nodes;
            t.interrupted |= r.interrupted;
        };
        let one = |part: &Part, sub: Option<usize>| -> Result<CountResult> {
            let mut sink = Sum {
                weight: &weight,
                total: 0,
            };
            let sub = match (&part.cut, sub) {
                (Some((subs, shared)), Some(i)) => Some((&subs[i], shared)),
                _ => None,
            };
            let s = part
                .query
                .run_one(&part.root, &part.base, sub, None, &mut sink)?;
            Ok(CountResult {
                total: sink.total,
                solutions: s.solutions,
                nodes: s.nodes,
                interrupted: s.interrupted,
            })
        };
        let mut total = CountResult::default();
        let threads = queries
            .iter()
            .map(|q| q.worker_threads())
            .max()
            .unwrap_or(1);
        let split = threads > 1 || queries.iter().any(|q| q.shard.is_some());
        if !split {
            // One thread: each query's root is built only when its turn comes.
            for q in queries {
                let Some((root, base)) = q.root()? else {
                    continue;
                };
                let part = Part {
                    query: q,
                    root,
                    base,
                    cut: None,
                };
                add(&mut total, one(&part, None)?);
                if total.interrupted {
                    break;
                }
            }
            return Ok(total);
        }
        let mut parts = Vec::with_capacity(queries.len());
        // (part, subtree): `None` runs the part's whole tree (an interrupt during its cut).
        let mut tasks: Vec<(usize, Option<usize>)> = Vec::new();
        for q in queries {
            let Some((root, base)) = q.root()? else {
                continue;
            };
            // The pool balances over all queries' subtrees, so each query is cut into its
            // share of them (at least two a thread): building the subtrees' roots took 7%
            // more CPU on 30 Y pentacubes' eight branches cut into 64 subtrees each than
            // into eight.
            let t = q.worker_threads();
            let subtrees = (t * SUBTREES_PER_THREAD).div_ceil(queries.len()).max(2 * t);
            let cut = match q.split(&root, &base, t, subtrees)? {
                Some((subs, nodes)) => {
                    total.nodes += nodes;
                    tasks.extend((0..subs.len()).map(|i| (parts.len(), Some(i))));
                    Some((subs, q.shared_root()?))
                }
                None => {
                    tasks.push((parts.len(), None));
                    None
                }
            };
            parts.push(Part {
                query: q,
                root,
                base,
                cut,
            });
        }
        let weight_of = |&(p, sub): &(usize, Option<usize>)| match (&parts[p].cut, sub) {
            (Some((subs, _)), Some(i)) => subs[i].weight,
            _ => 1.0,
        };
        // A count adds up in any order, so the subtrees estimated largest go first and the
        // small ones fill in at the end, where a large one would leave a thread idle. On 6x10,
        // Conway's puzzle and 8x8 two threads went from 1.75-1.89x, 1.69-1.72x and 1.91-1.99x
        // over one to 1.89-1.93x, 1.75-1.81x and 1.96-2.07x (three runs each). An estimate is
        // a share of its own query's tree, so a query cut into few subtrees (the bricks' last
        // branch is one) goes first: on the bricks two threads gave 1.67x over one with the
        // branches in order, 1.88-1.95x in five runs sorted so.
        tasks.sort_by(|a, b| weight_of(b).total_cmp(&weight_of(a)));
        let work = |i: usize, _: &mut dyn FnMut(()), _: &AtomicBool| {
            let (p, sub) = tasks[i];
            one(&parts[p], sub)
        };
        let mut error = None;
        control::ordered(tasks.len(), threads, &|| false, &work, &mut |_, event| {
            match event {
                Event::Item(()) => {}
                Event::Done(Ok(r)) => add(&mut total, r),
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
        if let Some(sh) = q.shard {
            e = e.shard(sh);
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
            summary: self.summary(None),
        })
    }

    fn count(&self, query: &Query, weight: &(dyn Fn(&[u32]) -> u64 + Sync)) -> Result<Counted> {
        self.count_all(std::slice::from_ref(query), weight)
    }

    fn count_all(
        &self,
        queries: &[Query],
        weight: &(dyn Fn(&[u32]) -> u64 + Sync),
    ) -> Result<Counted> {
        let all: Vec<ExactQuery> = queries.iter().map(|q| self.for_query(q)).collect();
        let r = ExactQuery::count_weighted_all(&all, weight)?;
        let threads = all.iter().map(|q| q.worker_threads()).max().unwrap_or(1);
        Ok(Counted {
            total: r.total,
            solutions: r.solutions,
            nodes: Some(r.nodes),
            interrupted: r.interrupted,
            summary: self.summary(Some(threads)),
        })
    }
}

impl ExactEngine {
    /// The engine's summary for statistics: its threads, when given, and the leaf search's
    /// body when the model has the leaf search.
    fn summary(&self, threads: Option<usize>) -> String {
        let mut s = match threads {
            None => "exact".to_string(),
            Some(1) => "exact, 1 thread".to_string(),
            Some(n) => format!("exact, {n} threads"),
        };
        if self.has_leaf_search() && self.leaf {
            s.push_str(&format!("; leaf search {}", simd_body()));
        }
        s
    }
}
