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
//! Branching ([`Branching`]): DXZ keeps DLX's rule, the item of fewest free options. The
//! state determines that item, so every rule here is sound; what differs is how often
//! states repeat and how soon dead ends show. Filling the first free item in a fixed order
//! (cells in the model's scan order) makes a board the broken-profile dynamic program (the
//! covered cells a prefix plus a frontier), but sees a dead end only when the scan reaches
//! it. Measured one thread, 2026-12-06 (`cargo bench --bench memo`, table in
//! `benches/README.md`): dominoes 8x8 (12,988,816 tilings) take 2,505 nodes with fewest
//! options first and 3,071 in scan order, against 50 M for the plain exact engine;
//! pentominoes 3x20 take 15,660 nodes with fewest options first, 2.2 M with
//! [`Branching::FirstForced`] and over 22 M (unfinished at 40 s) in scan order. So the
//! default is DXZ's own [`Branching::Mrv`]. Where few states repeat (boxes of distinct
//! pentacubes, the Tetris Cube) the engine, which has none of the exact engine's pruning and
//! pays a key and a lookup per node, is more than ten times slower than the exact engine:
//! it is for many identical pieces and narrow boards, and nothing chooses it on its own yet.
//!
//! Memory: the cache is one open-addressing table of fixed-width keys and 64-bit counts
//! that doubles while the old and new tables together fit the byte bound
//! ([`MemoConfig::max_cache_bytes`], default [`DEFAULT_CACHE_BYTES`], at most
//! [`MAX_CACHE_BYTES`]); once it cannot grow it stops inserting and keeps answering from
//! what it holds. Counts stay exact at any bound, down to 0 (no cache: the plain search).
//!
//! Weights: the [`Engine::count`] weight is a function of each solution, which a memoized
//! count never sees. The engine therefore multiplies its count by the constant weight the
//! caller declares ([`MemoConfig::solution_weight`]) and refuses a count without one;
//! listing ([`Engine::enumerate`]) and shards are refused too. Threads are not used: the
//! count runs on the calling thread.

use std::ops::ControlFlow;

use crate::engines::{Counted, Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;

/// The cache bound when none is given: 1 GiB.
pub const DEFAULT_CACHE_BYTES: u64 = 1 << 30;
/// The largest cache bound accepted: 64 GiB.
pub const MAX_CACHE_BYTES: u64 = 64 << 30;
/// Nodes between two looks at the progress (counters published, interruption checked).
const FLUSH_NODES: u64 = 4096;
/// Slots of the first table.
const FIRST_SLOTS: usize = 1 << 10;

/// Which free item a node branches on ([module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branching {
    /// The item of fewest free options (DLX's and DXZ's rule), the first in scan order on a
    /// tie.
    #[default]
    Mrv,
    /// The first free item in scan order (cells first, in model order).
    First,
    /// An item with at most one free option if there is one, else the first free item.
    FirstForced,
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
    /// True when the cache stopped inserting at its bound.
    pub full: bool,
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

    /// Counts the solutions of `query` (its forced and excluded options and progress; one
    /// thread whatever it asks; a shard is [`Error::Unsupported`]).
    pub fn count_query(&self, query: &Query) -> Result<MemoCount> {
        if query.shard.is_some() {
            return Err(Error::Unsupported {
                engine: "memo",
                what: "run a shard of a search",
            });
        }
        for &o in query.forced.iter().chain(&query.excluded) {
            if o as usize >= self.options.len() {
                return Err(Error::OptionOutOfRange {
                    option: o,
                    options: self.options.len(),
                });
            }
        }
        let mut s = Search::new(self, query);
        let mut forced: Vec<u32> = self.forced.iter().chain(&query.forced).copied().collect();
        forced.sort_unstable();
        forced.dedup();
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
        let solutions = if possible { s.count(1.0)? } else { 0 };
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
            interrupted: s.interrupted,
        })
    }
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
                if c.full { ", full" } else { "" }
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
                    Branching::First => return Some(item),
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

/// Open addressing with linear probing over fixed-width keys: slot `s` holds its key in
/// `slots[s * (w + 1)..][..w]` and its count after it; `used` marks the taken slots.
struct Cache {
    w: usize,
    slots: Vec<u64>,
    used: Vec<u64>,
    mask: usize,
    len: usize,
    bound: u64,
    peak: u64,
    full: bool,
}

impl Cache {
    fn bytes(w: usize, slots: usize) -> u64 {
        (slots as u64 * (w as u64 + 1) + (slots as u64).div_ceil(64)) * 8
    }

    fn new(w: usize, bound: u64) -> Cache {
        let mut c = Cache {
            w,
            slots: Vec::new(),
            used: Vec::new(),
            mask: 0,
            len: 0,
            bound,
            peak: 0,
            full: false,
        };
        if Cache::bytes(w, FIRST_SLOTS) <= bound {
            c.alloc(FIRST_SLOTS);
            c.peak = Cache::bytes(w, FIRST_SLOTS);
        } else {
            c.full = true;
        }
        c
    }

    fn alloc(&mut self, n: usize) {
        self.slots = vec![0; n * (self.w + 1)];
        self.used = vec![0; n.div_ceil(64)];
        self.mask = n - 1;
    }

    fn hash(key: &[u64]) -> usize {
        // FxHash's multiply-rotate, then the high bits folded down: keys are dense bitsets,
        // whose low bits alone would crowd a few slots.
        let mut h = 0u64;
        for &k in key {
            h = (h.rotate_left(5) ^ k).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        (h ^ (h >> 29)) as usize
    }

    fn taken(&self, s: usize) -> bool {
        self.used[s / 64] >> (s % 64) & 1 == 1
    }

    fn get(&self, key: &[u64]) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let mut s = Cache::hash(key) & self.mask;
        while self.taken(s) {
            let at = s * (self.w + 1);
            if &self.slots[at..at + self.w] == key {
                return Some(self.slots[at + self.w]);
            }
            s = (s + 1) & self.mask;
        }
        None
    }

    fn insert(&mut self, key: &[u64], value: u64) {
        if self.slots.is_empty() {
            return;
        }
        let cap = self.mask + 1;
        if (self.len + 1) * 4 > cap * 3 {
            // Grow only while the old and the new table fit the bound together.
            let grown = Cache::bytes(self.w, cap) + Cache::bytes(self.w, cap * 2);
            if self.full || grown > self.bound {
                self.full = true;
                return;
            }
            self.peak = self.peak.max(grown);
            let (slots, used) = (
                std::mem::take(&mut self.slots),
                std::mem::take(&mut self.used),
            );
            self.alloc(cap * 2);
            self.len = 0;
            for s in 0..cap {
                if used[s / 64] >> (s % 64) & 1 == 1 {
                    let at = s * (self.w + 1);
                    self.place(&slots[at..at + self.w], slots[at + self.w]);
                }
            }
        }
        self.place(key, value);
    }

    fn place(&mut self, key: &[u64], value: u64) {
        let mut s = Cache::hash(key) & self.mask;
        while self.taken(s) {
            s = (s + 1) & self.mask;
        }
        self.used[s / 64] |= 1 << (s % 64);
        let at = s * (self.w + 1);
        self.slots[at..at + self.w].copy_from_slice(key);
        self.slots[at + self.w] = value;
        self.len += 1;
    }
}

/// Memoized counts against dancing links and the exact engine, on the kernel's fixtures
/// and on seeded random models, at every branching rule and cache bound.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{dlx::Dlx, exact::ExactEngine};
    use crate::fixtures;
    use crate::model::Item;
    use crate::{Progress, Shard};
    use std::sync::Arc;

    const RULES: [Branching; 3] = [Branching::Mrv, Branching::First, Branching::FirstForced];

    fn memo(model: &ExactCover, branching: Branching, bytes: u64) -> MemoEngine {
        let config = MemoConfig {
            max_cache_bytes: bytes,
            branching,
            solution_weight: Some(1),
        };
        MemoEngine::with_config(model, config).unwrap()
    }

    /// A seeded random model (xorshift): `cells` items needed once, some secondary items and
    /// `pieces` items of need 1..=3 or ranged, every option holding at least one cell.
    fn random_model(seed: u64, cells: usize, options: usize) -> ExactCover {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (secondary, pieces) = (cells / 4, 3);
        let mut items: Vec<Item> = (0..cells)
            .map(|i| Item::exact(format!("c{i}"), 1))
            .collect();
        items.extend((0..secondary).map(|i| Item::secondary(format!("s{i}"))));
        for p in 0..pieces {
            items.push(match next(3) {
                0 => Item::exact(format!("p{p}"), 1 + next(3) as u32),
                1 => Item::range(format!("p{p}"), next(2) as u32, 2 + next(2) as u32),
                _ => Item::exact(format!("p{p}"), 1),
            });
        }
        let mut model = ExactCover {
            items,
            ..ExactCover::default()
        };
        for _ in 0..options {
            let k = 1 + next(3) as usize;
            let mut o: Vec<u32> = (0..k).map(|_| next(cells as u64) as u32).collect();
            if next(3) == 0 {
                o.push((cells + next(secondary as u64) as usize) as u32);
            }
            if next(2) == 0 {
                o.push((cells + secondary + next(pieces as u64) as usize) as u32);
            }
            o.sort_unstable();
            o.dedup();
            if !model.options.contains(&o) {
                model.options.push(o);
            }
        }
        model
    }

    fn dlx_count(model: &ExactCover, query: &Query) -> u64 {
        Engine::count(&Dlx::new(model).unwrap(), query, &|_| 1)
            .unwrap()
            .total
    }

    #[test]
    fn random_models_count_as_dancing_links_and_the_exact_engine() {
        let mut nonempty = 0;
        for seed in 1..60 {
            let cells = 6 + (seed % 9) as usize;
            let model = random_model(seed, cells, 12 + 2 * seed as usize);
            let q = Query {
                excluded: vec![(seed % 5) as u32],
                ..Query::default()
            };
            let want = dlx_count(&model, &q);
            let exact = ExactEngine::new(&model).unwrap();
            assert_eq!(Engine::count(&exact, &q, &|_| 1).unwrap().total, want);
            nonempty += usize::from(want > 0);
            for rule in RULES {
                for bytes in [0, 1 << 12, DEFAULT_CACHE_BYTES] {
                    let c = memo(&model, rule, bytes).count_query(&q).unwrap();
                    assert_eq!(c.solutions, want, "seed {seed}, {rule:?}, {bytes} bytes");
                    assert!(c.peak_bytes <= bytes);
                }
            }
        }
        assert!(nonempty > 20, "the random models should have solutions");
    }

    /// The first solution the exact engine lists, as forced options that leave a smaller
    /// problem of the same puzzle (debug builds run the tests).
    fn first_solution(model: &ExactCover) -> Vec<u32> {
        let mut first = Vec::new();
        let exact = ExactEngine::new(model).unwrap();
        Engine::enumerate(&exact, &Query::default(), &mut |s| {
            first = s.to_vec();
            ControlFlow::Break(())
        })
        .unwrap();
        first
    }

    #[test]
    fn fixtures_count_as_the_exact_engine_at_any_bound() {
        // Soma whole (11,520 placements), the pentominoes 6x10 and the Tetris Cube with the
        // first pieces of a solution placed (debug builds run these).
        for (name, forced) in [("soma", 0), ("pentominoes-6x10", 2), ("tetris-cube", 3)] {
            let model = fixtures::model(name);
            let q = Query {
                forced: first_solution(&model)[..forced].to_vec(),
                ..Query::default()
            };
            let exact = ExactEngine::new(&model).unwrap();
            let want = Engine::count(&exact, &q, &|_| 1).unwrap();
            assert!(want.total >= 1, "{name}");
            for rule in RULES {
                let mut nodes = None;
                for bytes in [0, 1 << 14, DEFAULT_CACHE_BYTES] {
                    let e = memo(&model, rule, bytes);
                    let c = Engine::count(&e, &q, &|_| 7).unwrap();
                    // The declared weight (1) counts, not the function's.
                    assert_eq!(c.solutions, want.total, "{name} {rule:?} {bytes}");
                    assert_eq!(c.total, want.total);
                    let again = e.count_query(&q).unwrap();
                    assert_eq!(Some(again.nodes), c.nodes, "nodes are deterministic");
                    assert!(again.peak_bytes <= bytes);
                    // A larger cache never visits more nodes.
                    assert!(nodes.is_none_or(|n| n >= again.nodes), "{name} {rule:?}");
                    nodes = Some(again.nodes);
                }
            }
        }
    }

    #[test]
    fn forced_and_excluded_options_restrict_the_count() {
        let model = fixtures::model("pentominoes-6x10");
        let exact = ExactEngine::new(&model).unwrap();
        let e = memo(&model, Branching::default(), DEFAULT_CACHE_BYTES);
        let some = first_solution(&model)[..3].to_vec();
        for q in [
            Query {
                forced: some.clone(),
                ..Query::default()
            },
            Query {
                forced: some.clone(),
                excluded: (0..400).filter(|o| !some.contains(o)).collect(),
                ..Query::default()
            },
            Query {
                forced: some.clone(),
                excluded: some.clone(),
                ..Query::default()
            },
        ] {
            let want = Engine::count(&exact, &q, &|_| 1).unwrap().total;
            assert_eq!(e.count_query(&q).unwrap().solutions, want);
        }
    }

    /// Dominoes on a 4xN board (a piece item of need 2N and 4N cells): the count is the
    /// known tiling number, and the memoized tree stays linear in N where the plain one
    /// grows exponentially.
    #[test]
    fn domino_boards_count_tilings_in_few_nodes() {
        // Tilings of a 4xN board by dominoes (OEIS A005178).
        let known = [1u64, 1, 5, 11, 36, 95, 281, 781, 2245, 6336, 18061];
        for (n, &tilings) in known.iter().enumerate().skip(1) {
            let cells = 4 * n as u32;
            let mut items = vec![Item::exact("domino", cells / 2)];
            items.extend((0..cells).map(|c| Item::exact(format!("c{c}"), 1)));
            let mut options = Vec::new();
            for c in 0..cells {
                let (r, col) = (c % 4, c / 4);
                if r < 3 {
                    options.push(vec![0, 1 + c, 2 + c]);
                }
                if col + 1 < n as u32 {
                    options.push(vec![0, 1 + c, 5 + c]);
                }
            }
            let model = ExactCover {
                items,
                options,
                ..ExactCover::default()
            };
            let c = memo(&model, Branching::First, DEFAULT_CACHE_BYTES)
                .count_query(&Query::default())
                .unwrap();
            assert_eq!(c.solutions, tilings, "4x{n}");
            assert!(c.nodes <= 40 * n as u64, "4x{n}: {} nodes", c.nodes);
        }
    }

    #[test]
    fn refusals_are_typed() {
        let model = fixtures::model("soma");
        let e = MemoEngine::new(&model).unwrap();
        let unsupported = |r: Result<Counted>| matches!(r, Err(Error::Unsupported { .. }));
        // No declared weight; a shard; listing.
        assert!(unsupported(Engine::count(&e, &Query::default(), &|_| 1)));
        let e = e
            .with(MemoConfig {
                solution_weight: Some(1),
                ..MemoConfig::default()
            })
            .unwrap();
        let shard = Query {
            shard: Some(Shard::new(0, 2).unwrap()),
            ..Query::default()
        };
        assert!(unsupported(Engine::count(&e, &shard, &|_| 1)));
        assert!(matches!(
            Engine::enumerate(&e, &Query::default(), &mut |_| ControlFlow::Continue(())),
            Err(Error::Unsupported { .. })
        ));
        let far = Query {
            forced: vec![u32::MAX],
            ..Query::default()
        };
        assert!(matches!(
            e.count_query(&far),
            Err(Error::OptionOutOfRange { .. })
        ));
        let huge = MemoConfig {
            max_cache_bytes: MAX_CACHE_BYTES + 1,
            ..MemoConfig::default()
        };
        assert!(matches!(
            MemoEngine::with_config(&model, huge),
            Err(Error::TooLarge { .. })
        ));
        // An option of secondary and multiplicity items only.
        let m = ExactCover {
            items: vec![
                Item::exact("A", 2),
                Item::secondary("s0"),
                Item::secondary("s1"),
            ],
            options: vec![vec![0, 1], vec![0, 2]],
            ..ExactCover::default()
        };
        assert!(matches!(
            MemoEngine::new(&m),
            Err(Error::Unsupported { .. })
        ));
    }

    #[test]
    fn progress_counts_nodes_and_an_interrupt_stops_the_count() {
        let model = fixtures::model("soma");
        let e = memo(&model, Branching::Mrv, DEFAULT_CACHE_BYTES);
        let p = Arc::new(Progress::new());
        let q = Query {
            progress: Some(Arc::clone(&p)),
            ..Query::default()
        };
        let c = e.count_query(&q).unwrap();
        assert!(!c.interrupted);
        assert_eq!(p.nodes(), c.nodes);
        assert_eq!(p.solutions(), c.solutions);
        assert!(
            (p.fraction_done() - 1.0).abs() < 1e-6,
            "{}",
            p.fraction_done()
        );
        let p = Arc::new(Progress::new());
        p.interrupt();
        let q = Query {
            progress: Some(p),
            ..Query::default()
        };
        let c = e.count_query(&q).unwrap();
        assert!(c.interrupted && c.nodes <= FLUSH_NODES && c.solutions < 11_520);
    }
}
