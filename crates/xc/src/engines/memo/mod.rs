//! The memoized counting engine: counts exact covers by caching the count of every
//! subproblem under the items it has left, as the DXZ algorithm of Nishino, Yasuda, Minato
//! and Nagata, "Dancing with Decision Diagrams: A Combined Approach to Exact Cover" (AAAI
//! 2017) does with DLX. It counts; it never lists a solution.
//!
//! Why a count depends on the state alone: the search branches only on items needed
//! exactly once, and every option holds one (checked at construction, else
//! [`crate::Error::Unsupported`]), so the solutions below a node are the exact covers of the
//! items left by the options still free of every covered item. That residual is a function
//! of the *key*: the bitset of covered items of capacity one (primary items needed once and
//! secondary items) plus the number of coverings of every item of larger capacity (a piece
//! of several copies, a ranged piece), packed in as many bits as its bound needs. The query's
//! forced and excluded options are the same for every node of one query; the cache lives for
//! one query only.
//!
//! Items of capacity above one are never branched on: once every item needed once is
//! covered no option is free (each holds a covered one), and the leaf counts one solution
//! when every such item lies within its bounds. Branching only on items needed once also
//! keeps each solution counted once without DLX's tweaking of tried options, which would
//! make the free options depend on the path and not on the key.
//!
//! Branching ([`Branching`]): DXZ keeps DLX's rule, the item of fewest free options
//! ([`Branching::Mrv`]). The state determines the item under every rule here, so every rule
//! is sound; what differs is how often states repeat, how soon dead ends show and what a
//! node costs. The default, [`Branching::Profile`], fills the first open item in a band
//! order of the cells on bitsets (module `profile`): a board becomes the broken-profile
//! dynamic program, and a node costs a few word operations per option tried instead of
//! dancing links' updates. Measured one thread, 2026-12-07 (`cargo bench --bench memo`,
//! tables in `benches/README.md`): dominoes 8x8 (12,988,816 tilings) take 1,451 nodes with
//! it, 2,505 with fewest options first, against 50 M for the plain exact engine; the 4x20
//! board of the 17 polyominoes of orders 4 and 5 counts up to rotation in 17 CPU s against
//! the exact engine's 431 (fewest options first: over 800). Where few states repeat (boxes of
//! distinct pentacubes, the Tetris Cube) the exact engine, with its pruning, is 10 to 30
//! times faster, on boards with few solutions 3 to 6 times.
//!
//! Memory: the cache is one open-addressing table of fixed-width keys and 64-bit counts
//! that doubles while the old and new tables together fit the byte bound
//! ([`MemoConfig::max_cache_bytes`], default [`DEFAULT_CACHE_BYTES`], at most
//! [`MAX_CACHE_BYTES`]), then grows once more through a packed list of its entries to what
//! the bound holds beside that list; from then on a new entry replaces the one at its home
//! slot, so the cache keeps the states near the search's path. Every entry holds its state's
//! whole count, so counts stay exact at any bound, down to 0 (no cache: the plain search).
//!
//! Weights: the [`Engine::count`] weight is a function of each solution, which a memoized
//! count never sees. The engine therefore multiplies its count by the constant weight the
//! caller declares ([`MemoConfig::solution_weight`]) and refuses a count without one;
//! listing ([`Engine::enumerate`]) is refused too. Threads are not used: the count runs on
//! the calling thread, and a count is spread over processes by shards, cut from the memo search's own top
//! nodes ([`MemoEngine::count_query`]).

use std::ops::ControlFlow;

use crate::engines::{Counted, Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::{CellGeometry, ExactCover};
use cache::Cache;
use cut::Tree;
use profile::{Profile, ProfileSearch};

/// The version of how the default rule orders a memoized search and cuts it into shards
/// (the rule, the profile order, the cut): shards of searches of another scheme cover other
/// subtrees (and a memoized count picks its restricted piece its own way), so a shard record
/// names it and a merge never adds them up. 1: the profile rule
/// ([`Branching::Profile`]) in Cuthill–McKee order; 2: in the order of least band among
/// that and the grid's axes.
pub const SCHEME: u32 = 2;

/// The cache bound when none is given: 1 GiB.
pub const DEFAULT_CACHE_BYTES: u64 = 1 << 30;
/// The largest cache bound accepted: 64 GiB.
pub const MAX_CACHE_BYTES: u64 = 64 << 30;
/// Nodes between two looks at the progress (counters published, interruption checked).
const FLUSH_NODES: u64 = 4096;

/// Which free item a node branches on ([module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branching {
    /// The item of fewest free options (DLX's and DXZ's rule), the first in scan order on a
    /// tie.
    Mrv,
    /// The first free item in scan order (cells first, in model order).
    First,
    /// An item with at most one free option if there is one, else the first free item.
    FirstForced,
    /// The first free item in the profile order, on bitsets: cells in a band order that
    /// keeps the frontier narrow, then the other items (the broken-profile dynamic
    /// program, module `profile`).
    #[default]
    Profile,
}

/// The memoized engine's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoConfig {
    /// The most bytes the cache may take, its growth included (old and new table together).
    pub max_cache_bytes: u64,
    /// The branching rule.
    pub branching: Branching,
    /// The weight every solution has, which [`Engine::count`] multiplies the count by in
    /// place of calling its weight function; `None` refuses [`Engine::count`].
    pub solution_weight: Option<u64>,
}

impl Default for MemoConfig {
    /// [`DEFAULT_CACHE_BYTES`], [`Branching::Mrv`], no declared weight.
    fn default() -> MemoConfig {
        MemoConfig {
            max_cache_bytes: DEFAULT_CACHE_BYTES,
            branching: Branching::default(),
            solution_weight: None,
        }
    }
}

/// What a memoized count found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoCount {
    /// Solutions (unweighted).
    pub solutions: u64,
    /// Search nodes: every visited state, cache hits included.
    pub nodes: u64,
    /// Nodes answered by the cache.
    pub hits: u64,
    /// Entries in the cache at the end.
    pub entries: u64,
    /// The most bytes the cache held at once (growth included).
    pub peak_bytes: u64,
    /// True when the cache reached its bound (from then on a new entry replaced an old one).
    pub full: bool,
    /// Entries replaced at the bound.
    pub evicted: u64,
    /// True when the query's progress was interrupted: the figures are partial.
    pub interrupted: bool,
}

/// How the search treats an item.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Capacity one: bit `b` of the key (needed once when `b < cells`, else secondary).
    Bit(u32),
    /// Capacity above one: counter `c`.
    Counter(u32),
}

/// A counter's bounds and its field in the key.
#[derive(Clone, Copy, Debug)]
struct Counter {
    min: u32,
    max: u32,
    /// First bit of its field in the key, and the field's width.
    shift: u32,
    width: u32,
}

/// The memoized counting engine for one model.
#[derive(Clone, Debug)]
pub struct MemoEngine {
    config: MemoConfig,
    kinds: Vec<Kind>,
    /// Items needed exactly once, in scan order (bit `b` is `cells[b]`).
    cells: Vec<u32>,
    /// Bits of the key: needed-once items first, then secondary items.
    bits: u32,
    counters: Vec<Counter>,
    /// Key width in 64-bit words.
    words: usize,
    options: Vec<Vec<u32>>,
    by_item: Vec<Vec<u32>>,
    forced: Vec<u32>,
    /// The model's cell geometry, for the profile order.
    geometry: Option<CellGeometry>,
}

impl MemoEngine {
    /// An engine for `model` with the default settings; a model with an option that holds
    /// no item needed exactly once is [`Error::Unsupported`] (its count would depend on which
    /// options were tried, not only on the items left).
    pub fn new(model: &ExactCover) -> Result<MemoEngine> {
        MemoEngine::with_config(model, MemoConfig::default())
    }

    /// [`MemoEngine::new`] with `config`; a cache bound over [`MAX_CACHE_BYTES`] is
    /// [`Error::TooLarge`].
    pub fn with_config(model: &ExactCover, config: MemoConfig) -> Result<MemoEngine> {
        model.validate()?;
        check_bound(config.max_cache_bytes)?;
        let n = model.items.len();
        let needed_once = |i: usize| model.items[i].is_exact() && model.items[i].min == 1;
        for o in &model.options {
            if !o.iter().any(|&i| needed_once(i as usize)) {
                return Err(Error::Unsupported {
                    engine: "memo",
                    what: "count a model with an option that covers no item needed exactly once",
                });
            }
        }
        // Scan order: the cells first when the model says where they are (so that `First`
        // fills the board in its own order), then the other items, each in model order.
        let first_cell = model.geometry.as_ref().map_or(0, |g| g.first_cell as usize);
        let scan: Vec<usize> = (first_cell..n).chain(0..first_cell).collect();
        let mut kinds = vec![Kind::Bit(0); n];
        let mut cells = Vec::new();
        for &i in &scan {
            if needed_once(i) {
                kinds[i] = Kind::Bit(cells.len() as u32);
                cells.push(i as u32);
            }
        }
        let mut bits = cells.len() as u32;
        for &i in &scan {
            if model.items[i].is_secondary() {
                kinds[i] = Kind::Bit(bits);
                bits += 1;
            }
        }
        let mut counters = Vec::new();
        let mut shift = bits;
        for (i, it) in model.items.iter().enumerate() {
            if !needed_once(i) && !it.is_secondary() {
                let width = 32 - it.max.leading_zeros();
                // A field never straddles two words, so packing is one shift and one or.
                if shift / 64 != (shift + width - 1) / 64 {
                    shift = shift.div_ceil(64) * 64;
                }
                kinds[i] = Kind::Counter(counters.len() as u32);
                counters.push(Counter {
                    min: it.min,
                    max: it.max,
                    shift,
                    width,
                });
                shift += width;
            }
        }
        Ok(MemoEngine {
            config,
            kinds,
            cells,
            bits,
            counters,
            words: (shift as usize).div_ceil(64).max(1),
            options: model.options.clone(),
            by_item: model.options_by_item(),
            forced: model.forced.clone(),
            geometry: model.geometry.clone(),
        })
    }

    /// The engine with another configuration (the model's tables kept).
    pub fn with(mut self, config: MemoConfig) -> Result<MemoEngine> {
        check_bound(config.max_cache_bytes)?;
        self.config = config;
        Ok(self)
    }

    /// The configuration.
    pub fn config(&self) -> MemoConfig {
        self.config
    }

    /// Counts the solutions of `query` (its forced and excluded options, its shard and its
    /// progress; one thread whatever it asks). A shard counts the subtrees of the memo
    /// search's own cut (its top nodes, breadth first, dealt by Knuth's estimate of their
    /// size as [`crate::deal`] deals) that fall to it: the shards of one query add up to its
    /// count, and they are not the exact engine's shards.
    pub fn count_query(&self, query: &Query) -> Result<MemoCount> {
        for &o in query.forced.iter().chain(&query.excluded) {
            if o as usize >= self.options.len() {
                return Err(Error::OptionOutOfRange {
                    option: o,
                    options: self.options.len(),
                });
            }
        }
        if let Some(p) = &query.progress {
            // Later subtrees find their states in the cache: the pace picks up.
            p.set_accelerates();
        }
        let mut forced: Vec<u32> = self.forced.iter().chain(&query.forced).copied().collect();
        forced.sort_unstable();
        forced.dedup();
        if self.config.branching == Branching::Profile {
            let p = Profile::new(self);
            let mut s =
                ProfileSearch::new(&p, query, self.options.len(), self.config.max_cache_bytes);
            let possible = s.force(&forced);
            let solutions = match (possible, query.shard) {
                (false, _) => 0,
                (true, None) => s.count(1.0)?,
                (true, Some(shard)) => s.count_shard(shard)?,
            };
            let out = s.outcome(solutions);
            if let Some(p) = &query.progress {
                p.record(0, solutions, if possible { 0.0 } else { 1.0 });
            }
            return Ok(out);
        }
        let mut s = Search::new(self, query);
        for &o in &query.excluded {
            s.block_option(o);
        }
        let mut possible = true;
        for &o in &forced {
            if s.blocked[o as usize] > 0 {
                possible = false;
                break;
            }
            s.choose(o);
        }
        let solutions = match (possible, query.shard) {
            (false, _) => 0,
            (true, None) => s.count(1.0)?,
            (true, Some(shard)) => s.count_shard(shard)?,
        };
        s.flush();
        if let Some(p) = &query.progress {
            p.record(0, solutions, if possible { 0.0 } else { 1.0 });
        }
        Ok(MemoCount {
            solutions,
            nodes: s.nodes,
            hits: s.hits,
            entries: s.cache.len as u64,
            peak_bytes: s.cache.peak,
            full: s.cache.full,
            evicted: s.cache.evicted,
            interrupted: s.interrupted,
        })
    }
}

/// The band of the profile rule's cell order on `model` (module `profile`): the most places
/// in the order between two neighbouring cells. The profile search's states grow with it
/// exponentially, so it says where the rule can pay before any search; `None` for a model
/// without geometry.
pub fn band(model: &ExactCover) -> Option<usize> {
    let g = model.geometry.as_ref()?;
    Some(profile::band_width(
        &g.neighbors,
        &profile::cell_order(&g.neighbors, &g.positions),
    ))
}

fn check_bound(bytes: u64) -> Result<()> {
    if bytes > MAX_CACHE_BYTES {
        return Err(Error::TooLarge {
            what: "memo cache bound",
            bytes,
            max: MAX_CACHE_BYTES,
        });
    }
    Ok(())
}

impl Engine for MemoEngine {
    /// Refused: a memoized count never visits its solutions.
    fn enumerate(
        &self,
        _query: &Query,
        _sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats> {
        Err(Error::Unsupported {
            engine: "memo",
            what: "list solutions (it counts without visiting them)",
        })
    }

    /// The count times [`MemoConfig::solution_weight`]; `weight` is never called, and a
    /// count without a declared weight is [`Error::Unsupported`].
    fn count(&self, query: &Query, _weight: &(dyn Fn(&[u32]) -> u64 + Sync)) -> Result<Counted> {
        let Some(w) = self.config.solution_weight else {
            return Err(Error::Unsupported {
                engine: "memo",
                what: "weigh each solution (declare a constant weight)",
            });
        };
        let c = self.count_query(query)?;
        let total = c.solutions.checked_mul(w).ok_or(Error::Overflow {
            what: "weighted count",
        })?;
        Ok(Counted {
            total,
            solutions: c.solutions,
            nodes: Some(c.nodes),
            interrupted: c.interrupted,
            summary: format!(
                "memo ({} cache entries, {} hits, peak {} KiB{})",
                c.entries,
                c.hits,
                c.peak_bytes.div_ceil(1024),
                if c.full {
                    format!(", full, {} replaced", c.evicted)
                } else {
                    String::new()
                }
            ),
        })
    }
}

/// One query's search state.
struct Search<'a> {
    e: &'a MemoEngine,
    query: &'a Query,
    /// Covered bits (the key's first part).
    covered: Vec<u64>,
    used: Vec<u32>,
    /// Per option: covered items, full counters and exclusions it holds (0 = free).
    blocked: Vec<u32>,
    /// Per item: its free options.
    len: Vec<u32>,
    /// Branch option lists, one segment per open node.
    stack: Vec<u32>,
    key: Vec<u64>,
    cache: Cache,
    nodes: u64,
    hits: u64,
    /// Nodes and finished tree share not yet published.
    pending_nodes: u64,
    pending_done: f64,
    interrupted: bool,
}

impl<'a> Search<'a> {
    fn new(e: &'a MemoEngine, query: &'a Query) -> Search<'a> {
        Search {
            e,
            query,
            covered: vec![0; (e.bits as usize).div_ceil(64).max(1)],
            used: vec![0; e.counters.len()],
            blocked: vec![0; e.options.len()],
            len: e.by_item.iter().map(|v| v.len() as u32).collect(),
            stack: Vec::new(),
            key: vec![0; e.words],
            cache: Cache::new(e.words, e.config.max_cache_bytes),
            nodes: 0,
            hits: 0,
            pending_nodes: 0,
            pending_done: 0.0,
            interrupted: false,
        }
    }

    fn block_option(&mut self, o: u32) {
        let b = &mut self.blocked[o as usize];
        *b += 1;
        if *b == 1 {
            for &j in &self.e.options[o as usize] {
                self.len[j as usize] -= 1;
            }
        }
    }

    fn unblock_option(&mut self, o: u32) {
        if self.blocked[o as usize] == 1 {
            for &j in &self.e.options[o as usize] {
                self.len[j as usize] += 1;
            }
        }
        self.blocked[o as usize] -= 1;
    }

    /// Item `i` can take no more coverings: its options are no longer free.
    fn fill(&mut self, i: u32) {
        for k in 0..self.e.by_item[i as usize].len() {
            self.block_option(self.e.by_item[i as usize][k]);
        }
    }

    fn unfill(&mut self, i: u32) {
        for k in (0..self.e.by_item[i as usize].len()).rev() {
            self.unblock_option(self.e.by_item[i as usize][k]);
        }
    }

    fn choose(&mut self, o: u32) {
        let e = self.e;
        for &i in &e.options[o as usize] {
            match e.kinds[i as usize] {
                Kind::Bit(b) => {
                    self.covered[b as usize / 64] |= 1 << (b % 64);
                    self.fill(i);
                }
                Kind::Counter(c) => {
                    let u = &mut self.used[c as usize];
                    *u += 1;
                    if *u == e.counters[c as usize].max {
                        self.fill(i);
                    }
                }
            }
        }
    }

    fn unchoose(&mut self, o: u32) {
        let e = self.e;
        for &i in e.options[o as usize].iter().rev() {
            match e.kinds[i as usize] {
                Kind::Bit(b) => {
                    self.unfill(i);
                    self.covered[b as usize / 64] &= !(1 << (b % 64));
                }
                Kind::Counter(c) => {
                    if self.used[c as usize] == e.counters[c as usize].max {
                        self.unfill(i);
                    }
                    self.used[c as usize] -= 1;
                }
            }
        }
    }

    fn make_key(&mut self) {
        self.key.fill(0);
        self.key[..self.covered.len()].copy_from_slice(&self.covered);
        for (c, &u) in self.e.counters.iter().zip(&self.used) {
            self.key[c.shift as usize / 64] |= u64::from(u) << (c.shift % 64);
            debug_assert!(u < 1 << c.width);
        }
    }

    /// The item this node branches on, `None` when every item needed once is covered (a
    /// dead end comes back as an item with no free option).
    fn pick(&self) -> Option<u32> {
        let e = self.e;
        let mut best: Option<(u32, u32)> = None;
        for (w, &word) in self.covered.iter().enumerate() {
            let mut free = !word;
            if (w + 1) * 64 > e.cells.len() {
                let keep = e.cells.len().saturating_sub(w * 64);
                free &= if keep >= 64 { !0 } else { (1u64 << keep) - 1 };
            }
            while free != 0 {
                let b = w * 64 + free.trailing_zeros() as usize;
                free &= free - 1;
                let item = e.cells[b];
                let l = self.len[item as usize];
                if l == 0 {
                    return Some(item);
                }
                match e.config.branching {
                    // The profile rule has its own search; this one never sees it.
                    Branching::First | Branching::Profile => return Some(item),
                    Branching::FirstForced => {
                        if l == 1 {
                            return Some(item);
                        }
                        best.get_or_insert((item, l));
                    }
                    Branching::Mrv => {
                        if best.is_none_or(|(_, bl)| l < bl) {
                            best = Some((item, l));
                        }
                        if l == 1 {
                            return Some(item);
                        }
                    }
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// True when every counter lies within its bounds (checked once every item needed once
    /// is covered).
    fn counters_met(&self) -> bool {
        self.e
            .counters
            .iter()
            .zip(&self.used)
            .all(|(c, &u)| c.min <= u && u <= c.max)
    }

    fn tick(&mut self, done: f64) {
        self.pending_done += done;
    }

    fn flush(&mut self) {
        if let Some(p) = &self.query.progress {
            p.record(self.pending_nodes, 0, self.pending_done);
            if p.is_interrupted() {
                self.interrupted = true;
            }
        }
        self.pending_nodes = 0;
        self.pending_done = 0.0;
    }

    /// The count below the current state; `weight` is the node's share of the tree.
    fn count(&mut self, weight: f64) -> Result<u64> {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= FLUSH_NODES {
            self.flush();
        }
        if self.interrupted {
            return Ok(0);
        }
        let Some(item) = self.pick() else {
            self.tick(weight);
            return Ok(u64::from(self.counters_met()));
        };
        let free = self.len[item as usize];
        if free == 0 {
            self.tick(weight);
            return Ok(0);
        }
        // A node of one free option is not worth a cache entry: its child has one.
        let memo = free > 1;
        if memo {
            self.make_key();
            if let Some(v) = self.cache.get(&self.key) {
                self.hits += 1;
                self.tick(weight);
                return Ok(v);
            }
        }
        let base = self.stack.len();
        for &o in &self.e.by_item[item as usize] {
            if self.blocked[o as usize] == 0 {
                self.stack.push(o);
            }
        }
        let child = weight / free as f64;
        let mut total = 0u64;
        for k in base..self.stack.len() {
            let o = self.stack[k];
            self.choose(o);
            let sub = self.count(child);
            self.unchoose(o);
            total = total
                .checked_add(sub?)
                .ok_or(Error::Overflow { what: "count" })?;
            if self.interrupted {
                break;
            }
        }
        self.stack.truncate(base);
        if memo && !self.interrupted {
            // The state is restored: the same key as on entry.
            self.make_key();
            self.cache.insert(&self.key, total);
        }
        Ok(total)
    }
}

impl Tree for Search<'_> {
    fn branch(&self) -> Option<Vec<u32>> {
        let item = self.pick()?;
        Some(
            self.e.by_item[item as usize]
                .iter()
                .copied()
                .filter(|&o| self.blocked[o as usize] == 0)
                .collect(),
        )
    }

    fn choose(&mut self, o: u32) {
        Search::choose(self, o)
    }

    fn unchoose(&mut self, o: u32) {
        Search::unchoose(self, o)
    }

    fn count(&mut self, weight: f64) -> Result<u64> {
        Search::count(self, weight)
    }

    fn interrupted(&self) -> bool {
        self.interrupted
    }
}

mod cache;
mod cut;
mod profile;
#[cfg(test)]
mod tests;
