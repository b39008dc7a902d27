//! The memoized engine's profile search ([`Branching::Profile`](super::Branching::Profile)):
//! the broken-profile dynamic program over items ordered to keep the frontier narrow, on bitsets.
//!
//! Items needed once are ordered, and each node branches on the first one still uncovered.
//! Every item before it is covered, so the only options that can cover it are the ones whose
//! first item needed once it is: each item keeps that list, and an option is free when its
//! bitset meets no covered bit and none of its counters is full. No option is blocked and
//! unblocked as dancing links does, so a node costs a few words of bitwise work per option
//! tried, where the fewest-options rule pays a walk over every option of every item covered.
//!
//! The order ([`cell_order`]): the cells of a puzzle (the model's
//! [`CellGeometry`](crate::model::CellGeometry)) are numbered in the order of least band among
//! Cuthill and McKee's breadth-first order from a pseudo-peripheral cell (Gibbs, Poole and
//! Stockmeyer's repeated breadth-first search) and, when the model gives the cells'
//! positions, the orders along the grid's axes; each keeps every cell's neighbours close to
//! it in the order. The covered cells are then a prefix and a band of about one
//! cross-section behind it, so states repeat: on a board the count becomes the classic
//! broken-profile dynamic program, with the unused pieces in the key. The other items
//! needed once (pieces of one copy) come after the cells, in model order; a model without
//! geometry keeps its own order.
//!
//! The key is the covered bits and the counters, as for the other rules (an excluded or forced
//! option is the same at every node of a query), so the count below a state is a function of
//! the key.

use super::cache::Cache;
use super::cut::Tree;
use super::{FLUSH_NODES, Kind, MemoCount, MemoEngine};
use crate::engines::Query;
use crate::error::{Error, Result};
use std::collections::VecDeque;

/// The profile search's tables for one model: option bitsets in the profile's bit order.
pub(super) struct Profile {
    /// Key words taken by the covered bits.
    words: usize,
    /// Items needed once (the first bits).
    needed: usize,
    /// Option `o`'s bits: `masks[o * words..][..words]`.
    masks: Vec<u64>,
    /// Option `o`'s counters: `raises[raise_at[o]..raise_at[o + 1]]`.
    raises: Vec<u32>,
    raise_at: Vec<u32>,
    /// Per needed-once bit: the options whose first needed-once bit it is.
    starts: Vec<Vec<u32>>,
    /// Per counter: its bit position in the key and its bounds.
    counter_shift: Vec<u32>,
    counter_max: Vec<u32>,
    counter_min: Vec<u32>,
    /// Total key words (covered bits, then the counters' fields).
    key_words: usize,
}

/// The cells of `neighbors` in Cuthill–McKee order from a pseudo-peripheral cell, component
/// after component.
pub(crate) fn band_order(neighbors: &[Vec<u32>]) -> Vec<u32> {
    let n = neighbors.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // Breadth-first levels from `start` within its component: (last level, eccentricity).
    let levels = |start: usize, mark: &mut Vec<u32>, stamp: u32| -> (Vec<usize>, usize) {
        let mut frontier = vec![start];
        mark[start] = stamp;
        let mut depth = 0;
        loop {
            let mut next = Vec::new();
            for &c in &frontier {
                for &d in &neighbors[c] {
                    if mark[d as usize] != stamp {
                        mark[d as usize] = stamp;
                        next.push(d as usize);
                    }
                }
            }
            if next.is_empty() {
                return (frontier, depth);
            }
            depth += 1;
            frontier = next;
        }
    };
    let mut mark = vec![0u32; n];
    let mut stamp = 0;
    for first in 0..n {
        if seen[first] {
            continue;
        }
        // Pseudo-peripheral: hop to a cell of least degree on the last level while that
        // lengthens the eccentricity.
        let mut start = first;
        stamp += 1;
        let (mut last, mut ecc) = levels(start, &mut mark, stamp);
        loop {
            let far = *last
                .iter()
                .min_by_key(|&&c| (neighbors[c].len(), c))
                .expect("a level is never empty");
            stamp += 1;
            let (l, e) = levels(far, &mut mark, stamp);
            if e <= ecc {
                break;
            }
            (start, last, ecc) = (far, l, e);
        }
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        while let Some(c) = queue.pop_front() {
            order.push(c as u32);
            let mut next: Vec<usize> = neighbors[c]
                .iter()
                .map(|&d| d as usize)
                .filter(|&d| !seen[d])
                .collect();
            next.sort_by_key(|&d| (neighbors[d].len(), d));
            for d in next {
                seen[d] = true;
                queue.push_back(d);
            }
        }
    }
    order
}

/// The profile search's cell order: of Cuthill–McKee's ([`band_order`]) and, when the cells'
/// positions are known, the six orders along the grid's axes (by one coordinate, then a
/// second, then the third), the first of least band. On a board the axes give the classic
/// column by column fill, band the board's width, where the breadth-first order from a
/// corner sweeps diagonals one wider: the 4x20 board of the polyominoes of orders 4 and 5
/// counts in 17 CPU s against 58, its 5x16 board in 192 against 660.
pub(crate) fn cell_order(neighbors: &[Vec<u32>], positions: &[[i32; 3]]) -> Vec<u32> {
    let mut best = band_order(neighbors);
    let mut band = band_width(neighbors, &best);
    if positions.len() == neighbors.len() {
        for [a, b, c] in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            let mut order: Vec<u32> = (0..neighbors.len() as u32).collect();
            order.sort_by_key(|&i| {
                let p = positions[i as usize];
                (p[a], p[b], p[c])
            });
            let w = band_width(neighbors, &order);
            if w < band {
                (best, band) = (order, w);
            }
        }
    }
    best
}

/// The band of `order` over `neighbors`: the most places in the order between two
/// neighbouring cells. The profile rule's states grow exponentially with it (the covered
/// cells past the first open one lie within a band of this width).
pub(crate) fn band_width(neighbors: &[Vec<u32>], order: &[u32]) -> usize {
    let mut pos = vec![0usize; neighbors.len()];
    for (i, &c) in order.iter().enumerate() {
        pos[c as usize] = i;
    }
    (0..neighbors.len())
        .flat_map(|a| neighbors[a].iter().map(move |&b| (a, b as usize)))
        .map(|(a, b)| pos[a].abs_diff(pos[b]))
        .max()
        .unwrap_or(0)
}

impl Profile {
    pub(super) fn new(e: &MemoEngine) -> Profile {
        let n = e.kinds.len();
        // The needed-once items in profile order: the band order of the cells when the
        // model has geometry, then the rest in the engine's scan order.
        let mut needed_items: Vec<u32> = Vec::with_capacity(e.cells.len());
        let mut placed = vec![false; n];
        if let Some(g) = &e.geometry {
            for c in cell_order(&g.neighbors, &g.positions) {
                let item = g.first_cell + c;
                if matches!(e.kinds[item as usize], Kind::Bit(b) if (b as usize) < e.cells.len()) {
                    needed_items.push(item);
                    placed[item as usize] = true;
                }
            }
        }
        for &item in &e.cells {
            if !placed[item as usize] {
                needed_items.push(item);
            }
        }
        let needed = needed_items.len();
        let mut bit_of = vec![u32::MAX; n];
        for (b, &item) in needed_items.iter().enumerate() {
            bit_of[item as usize] = b as u32;
        }
        // Secondary items keep their engine bits, after the needed-once ones (the engine
        // numbers them the same way).
        for (i, k) in e.kinds.iter().enumerate() {
            if let Kind::Bit(b) = *k
                && b as usize >= e.cells.len()
            {
                bit_of[i] = b;
            }
        }
        let words = (e.bits as usize).div_ceil(64).max(1);
        let mut masks = vec![0u64; e.options.len() * words];
        let mut raises = Vec::new();
        let mut raise_at = vec![0u32];
        let mut starts = vec![Vec::new(); needed];
        for (o, items) in e.options.iter().enumerate() {
            let mut first = u32::MAX;
            for &i in items {
                match e.kinds[i as usize] {
                    Kind::Bit(_) => {
                        let b = bit_of[i as usize];
                        masks[o * words + b as usize / 64] |= 1 << (b % 64);
                        if (b as usize) < needed {
                            first = first.min(b);
                        }
                    }
                    Kind::Counter(c) => raises.push(c),
                }
            }
            raise_at.push(raises.len() as u32);
            // Every option holds an item needed once (checked when the engine was built).
            starts[first as usize].push(o as u32);
        }
        Profile {
            words,
            needed,
            masks,
            raises,
            raise_at,
            starts,
            counter_shift: e.counters.iter().map(|c| c.shift).collect(),
            counter_max: e.counters.iter().map(|c| c.max).collect(),
            counter_min: e.counters.iter().map(|c| c.min).collect(),
            key_words: e.words,
        }
    }

    fn mask(&self, o: u32) -> &[u64] {
        &self.masks[o as usize * self.words..][..self.words]
    }

    fn raises(&self, o: u32) -> &[u32] {
        &self.raises[self.raise_at[o as usize] as usize..self.raise_at[o as usize + 1] as usize]
    }
}

/// One query's profile search.
pub(super) struct ProfileSearch<'a> {
    p: &'a Profile,
    query: &'a Query,
    covered: Vec<u64>,
    used: Vec<u32>,
    excluded: Vec<bool>,
    stack: Vec<u32>,
    key: Vec<u64>,
    pub(super) cache: Cache,
    pub(super) nodes: u64,
    pub(super) hits: u64,
    pending_nodes: u64,
    pending_done: f64,
    pub(super) interrupted: bool,
}

impl<'a> ProfileSearch<'a> {
    pub(super) fn new(
        p: &'a Profile,
        query: &'a Query,
        options: usize,
        max_cache_bytes: u64,
    ) -> ProfileSearch<'a> {
        let mut excluded = vec![false; options];
        for &o in &query.excluded {
            excluded[o as usize] = true;
        }
        ProfileSearch {
            p,
            query,
            covered: vec![0; p.words],
            used: vec![0; p.counter_max.len()],
            excluded,
            stack: Vec::new(),
            key: vec![0; p.key_words],
            cache: Cache::new(p.key_words, max_cache_bytes),
            nodes: 0,
            hits: 0,
            pending_nodes: 0,
            pending_done: 0.0,
            interrupted: false,
        }
    }

    /// Whether option `o` can be chosen in the current state.
    fn free(&self, o: u32) -> bool {
        !self.excluded[o as usize]
            && self
                .p
                .mask(o)
                .iter()
                .zip(&self.covered)
                .all(|(m, c)| m & c == 0)
            && self
                .p
                .raises(o)
                .iter()
                .all(|&c| self.used[c as usize] < self.p.counter_max[c as usize])
    }

    /// The first needed-once bit not covered, `None` when all are.
    fn first_open(&self) -> Option<usize> {
        for (w, &word) in self.covered.iter().enumerate() {
            let open = !word;
            if open != 0 {
                let b = w * 64 + open.trailing_zeros() as usize;
                return (b < self.p.needed).then_some(b);
            }
        }
        None
    }

    fn counters_met(&self) -> bool {
        self.used
            .iter()
            .enumerate()
            .all(|(c, &u)| self.p.counter_min[c] <= u)
    }

    fn make_key(&mut self) {
        self.key.fill(0);
        self.key[..self.covered.len()].copy_from_slice(&self.covered);
        for (c, &u) in self.used.iter().enumerate() {
            let s = self.p.counter_shift[c];
            self.key[s as usize / 64] |= u64::from(u) << (s % 64);
        }
    }

    /// Chooses the forced options; false when one of them is not free.
    pub(super) fn force(&mut self, forced: &[u32]) -> bool {
        for &o in forced {
            if !self.free(o) {
                return false;
            }
            Tree::choose(self, o);
        }
        true
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

    pub(super) fn outcome(mut self, solutions: u64) -> MemoCount {
        self.flush();
        MemoCount {
            solutions,
            nodes: self.nodes,
            hits: self.hits,
            entries: self.cache.len as u64,
            peak_bytes: self.cache.peak,
            full: self.cache.full,
            evicted: self.cache.evicted,
            interrupted: self.interrupted,
        }
    }
}

impl Tree for ProfileSearch<'_> {
    fn branch(&self) -> Option<Vec<u32>> {
        let b = self.first_open()?;
        Some(
            self.p.starts[b]
                .iter()
                .copied()
                .filter(|&o| self.free(o))
                .collect(),
        )
    }

    fn choose(&mut self, o: u32) {
        let p = self.p;
        for (c, m) in self.covered.iter_mut().zip(p.mask(o)) {
            *c |= m;
        }
        for &c in p.raises(o) {
            self.used[c as usize] += 1;
        }
    }

    fn unchoose(&mut self, o: u32) {
        let p = self.p;
        for (c, m) in self.covered.iter_mut().zip(p.mask(o)) {
            *c &= !m;
        }
        for &c in p.raises(o) {
            self.used[c as usize] -= 1;
        }
    }

    fn count(&mut self, weight: f64) -> Result<u64> {
        self.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= FLUSH_NODES {
            self.flush();
        }
        if self.interrupted {
            return Ok(0);
        }
        let Some(b) = self.first_open() else {
            self.pending_done += weight;
            return Ok(u64::from(self.counters_met()));
        };
        let base = self.stack.len();
        for &o in &self.p.starts[b] {
            if self.free(o) {
                self.stack.push(o);
            }
        }
        let free = self.stack.len() - base;
        if free == 0 {
            self.pending_done += weight;
            return Ok(0);
        }
        // A node of one free option is not worth a cache entry: its child has one.
        let memo = free > 1;
        if memo {
            self.make_key();
            if let Some(v) = self.cache.get(&self.key) {
                self.hits += 1;
                self.stack.truncate(base);
                self.pending_done += weight;
                return Ok(v);
            }
        }
        let child = weight / free as f64;
        let mut total = 0u64;
        for k in base..base + free {
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
            self.make_key();
            self.cache.insert(&self.key, total);
        }
        Ok(total)
    }

    fn interrupted(&self) -> bool {
        self.interrupted
    }
}
