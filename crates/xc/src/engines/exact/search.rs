//! The depth-first search of the bitset engine: fewest-options branching over live-option
//! bitsets, dead-region pruning, Knuth's progress estimate, interruption, and the frontier
//! mode that cuts the tree into subproblems.

use super::prepare::{Level, Prepared, RegionScratch};
use super::sliced::{FIRST_HINTS, Hints, SlicedScratch, andn, each_bit};
use super::tail::{At, CHECK_EVERY, Load, MAX_TAIL_OPTIONS, Tail, TailSink};
use crate::control::Progress;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the search delivers what it finds.
pub(crate) trait Sink {
    /// A verified solution (ascending option indices); return `false` to stop the search.
    fn solution(&mut self, sol: &[u32]) -> bool;
    /// A frontier node in subproblem mode: options chosen below the root, options excluded
    /// below the root, and the node's share of the tree; return `false` to stop the cut.
    fn frontier(&mut self, _chosen: &[u32], _excluded: &[u32], _weight: f64) -> bool {
        true
    }
}

pub(crate) struct Searcher<'a> {
    p: &'a Prepared,
    pruning: bool,
    levels: Vec<Level>,
    cands: Vec<Vec<u32>>,
    chosen: Vec<u32>,
    excluded: Vec<u32>,
    /// Options chosen at the root (forced), ascending.
    base: Vec<u32>,
    sol: Vec<u32>,
    /// Scratch of [`Searcher::verify`]: coverings of the items needing several, and the
    /// items needing at most one seen so far (a bitset).
    cover: Vec<u32>,
    seen: Vec<u64>,
    region: RegionScratch,
    sliced: SlicedScratch,
    tail: Tail,
    /// Per depth, the items that recently left a node there without options (sliced path).
    hints: Vec<Hints>,
    /// Frontier depth (subproblem mode).
    limit: Option<usize>,
    /// In subproblem mode, whether nodes the leaf search would take over end the cut.
    tail_leaves: bool,
    /// Whether the leaf search may take over subtrees at all.
    leaf: bool,
    progress: Option<&'a Progress>,
    stop: Option<&'a AtomicBool>,
    /// Stop once this many nodes are visited (checked every [`CHECK_EVERY`] nodes).
    budget: Option<u64>,
    /// True when the budget stopped the search.
    pub over_budget: bool,
    /// Probe mode: the state of the generator that picks the one child followed at each node.
    sample: Option<u64>,
    /// In probe mode, Knuth's estimate of the tree's nodes from this path: every node
    /// visited adds the product of the branching degrees above it.
    estimate: f64,
    pub nodes: u64,
    pub solutions: u64,
    /// Share of the tree finished since the last flush.
    done: f64,
    flushed_nodes: u64,
    flushed_solutions: u64,
    pub interrupted: bool,
    pub stopped: bool,
    pub invalid: Option<Vec<u32>>,
}

impl<'a> Searcher<'a> {
    pub fn new(p: &'a Prepared, pruning: bool, root: Level, base: Vec<u32>) -> Self {
        Searcher {
            p,
            pruning,
            levels: vec![root],
            cands: Vec::new(),
            chosen: Vec::new(),
            excluded: Vec::new(),
            base,
            sol: Vec::new(),
            cover: vec![0; p.model.items.len()],
            seen: vec![0; p.check.required.len()],
            region: RegionScratch::default(),
            sliced: SlicedScratch::default(),
            tail: Tail::default(),
            hints: vec![FIRST_HINTS],
            limit: None,
            tail_leaves: true,
            leaf: true,
            progress: None,
            stop: None,
            budget: None,
            over_budget: false,
            sample: None,
            estimate: 0.0,
            nodes: 0,
            solutions: 0,
            done: 0.0,
            flushed_nodes: 0,
            flushed_solutions: 0,
            interrupted: false,
            stopped: false,
            invalid: None,
        }
    }

    /// Whether the leaf search may take over subtrees.
    pub fn with_leaf(mut self, on: bool) -> Self {
        self.leaf = on;
        self
    }

    /// Subproblem mode: the cut at depth `limit`, nodes the leaf search would take over
    /// being leaves of the cut too when `tail_leaves` (else the cut ignores the leaf search).
    pub fn with_limit(mut self, limit: usize, tail_leaves: bool) -> Self {
        self.limit = Some(limit);
        self.tail_leaves = tail_leaves;
        self
    }

    /// Stops the search (as `stopped`, with `over_budget` set) once it has visited about
    /// `nodes` nodes: the count is checked every [`CHECK_EVERY`] nodes.
    pub fn with_budget(mut self, nodes: u64) -> Self {
        self.budget = Some(nodes);
        self
    }

    /// A probe: one random path from `root` (Knuth, "Estimating the efficiency of backtrack
    /// programs", 1975), each child drawn uniformly by a generator seeded with `seed`;
    /// returns the path's estimate of the tree's nodes. Reuses this searcher's buffers.
    pub fn probe<S: Sink>(&mut self, root: &Level, seed: u64, sink: &mut S) -> f64 {
        self.levels[0].clone_from(root);
        self.chosen.clear();
        self.excluded.clear();
        self.sample = Some(seed | 1);
        self.estimate = 0.0;
        self.node(0, 1.0, sink);
        self.estimate
    }

    pub fn with_progress(
        mut self,
        progress: Option<&'a Progress>,
        stop: Option<&'a AtomicBool>,
    ) -> Self {
        self.progress = progress;
        self.stop = stop;
        self
    }

    /// Runs the search from the root; `weight` is the root's share of the whole tree.
    pub fn run<S: Sink>(&mut self, weight: f64, sink: &mut S) {
        // An interrupt that came before the start (or during another subtree) stops at once.
        if self.check() {
            return;
        }
        self.node(0, weight, sink);
        self.flush();
    }

    /// Publishes progress counters. In subproblem mode nothing is published: the caller
    /// accounts for the expansion as a whole.
    fn flush(&mut self) {
        if let (Some(pr), None) = (self.progress, self.limit) {
            pr.record(
                self.nodes - self.flushed_nodes,
                self.solutions - self.flushed_solutions,
                self.done,
            );
        }
        self.flushed_nodes = self.nodes;
        self.flushed_solutions = self.solutions;
        self.done = 0.0;
    }

    /// True when the search must stop (interrupt, external stop, or a failed verification).
    fn check(&mut self) -> bool {
        self.flush();
        if self.progress.is_some_and(|p| p.is_interrupted()) {
            self.interrupted = true;
        }
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        if self.budget.is_some_and(|b| self.nodes >= b) {
            self.over_budget = true;
            self.stopped = true;
        }
        self.interrupted || self.stopped
    }

    /// Whether `sol` is an exact cover of the model, as the model itself says
    /// ([`super::prepare::CheckTables`]): ascending options, the forced ones among them,
    /// every item covered within its bounds. Items covered at most once are checked as bits,
    /// a word of them at a time where the options' bitsets are stored, and the others
    /// counted: a count may check hundreds of thousands of solutions, each of many options.
    fn verify(&mut self) -> bool {
        let m = &self.p.model;
        let c = &self.p.check;
        if !self.sol.windows(2).all(|w| w[0] < w[1])
            || !m.forced.iter().all(|f| self.sol.binary_search(f).is_ok())
            || self
                .sol
                .last()
                .is_some_and(|&o| o as usize >= m.options.len())
        {
            return false;
        }
        self.seen.fill(0);
        for &i in &c.multi {
            self.cover[i as usize] = 0;
        }
        for &o in &self.sol {
            let o = o as usize;
            for &i in &c.opt_multi[c.multi_off[o] as usize..c.multi_off[o + 1] as usize] {
                self.cover[i as usize] += 1;
            }
            match &c.opt_bits {
                Some(bits) => {
                    let row = &bits[o * c.words..(o + 1) * c.words];
                    for (s, &b) in self.seen.iter_mut().zip(row) {
                        if *s & b != 0 {
                            return false;
                        }
                        *s |= b;
                    }
                }
                None => {
                    for &i in &m.options[o] {
                        let i = i as usize;
                        if c.max[i] > 1 {
                            continue;
                        }
                        let (w, bit) = (i >> 6, 1u64 << (i & 63));
                        if self.seen[w] & bit != 0 {
                            return false;
                        }
                        self.seen[w] |= bit;
                    }
                }
            }
        }
        self.seen
            .iter()
            .zip(&c.optional)
            .zip(&c.required)
            .all(|((&s, &opt), &req)| s & !opt == req)
            && c.multi.iter().all(|&i| {
                let n = self.cover[i as usize];
                c.min[i as usize] <= n && n <= c.max[i as usize]
            })
    }

    /// The general fewest-options scan over the counters of the open items (see
    /// [`Searcher::node`]); `None` when some item has fewer options than it needs.
    fn fewest(lv: &Level) -> Option<usize> {
        let mut best = None;
        let mut best_theta = u32::MAX;
        for (wi, &word) in lv.open.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let r = lv.rem[i];
                let n = lv.counts[i];
                if n < r {
                    return None;
                }
                let theta = n - r + 1;
                if theta < best_theta {
                    best_theta = theta;
                    best = Some(i);
                }
            }
        }
        best
    }

    /// Delivers the solution made of the base, the path and `extra` (options chosen by the
    /// leaf search), verified; returns `false` when the search must stop.
    fn emit<S: Sink>(&mut self, extra: &[u32], sink: &mut S) -> bool {
        self.sol.clear();
        self.sol.extend_from_slice(&self.base);
        self.sol.extend_from_slice(&self.chosen);
        self.sol.extend_from_slice(extra);
        self.sol.sort_unstable();
        if !self.verify() {
            self.invalid = Some(self.sol.clone());
            return false;
        }
        self.solutions += 1;
        if !sink.solution(&self.sol) {
            self.stopped = true;
            return false;
        }
        true
    }

    /// Hands the subtree of level `d` to the leaf search when the model allows it and the
    /// level is small enough; `None` when it does not apply, else whether to go on. In
    /// subproblem mode such a node is a leaf of the cut, its board not built (one found dead
    /// without it is settled here, any other by its subtree's run), so that a split run
    /// hands exactly the same subtrees to the leaf search as a whole run: the same solutions
    /// in the same order, and the same nodes.
    fn tail_at<S: Sink>(&mut self, d: usize, weight: f64, sink: &mut S) -> Option<bool> {
        let p = self.p;
        let t = p.tail.as_ref()?;
        let lv = &self.levels[d];
        if lv.n_live > MAX_TAIL_OPTIONS || !self.tail_leaves || !self.leaf {
            return None;
        }
        let chosen = self.base.len() + self.chosen.len();
        // A split only asks whether the node is a leaf of its cut.
        let build = self.limit.is_none();
        let mut tail = std::mem::take(&mut self.tail);
        let load = match &p.sliced {
            Some(st) => {
                let s = &lv.s;
                tail.load(
                    t,
                    |f| each_bit(s.active, |w| f(w, s.live[w])),
                    |i| st.rem(s.open, &s.mrem, i),
                    At {
                        need_left: lv.need_left,
                        chosen,
                        occ: &lv.occ,
                        option: None,
                        build,
                    },
                )
            }
            None => tail.load(
                t,
                |f| {
                    for &w in &lv.active {
                        f(w as usize, lv.live[w as usize]);
                    }
                },
                |i| lv.rem[i as usize],
                At {
                    need_left: lv.need_left,
                    chosen,
                    occ: &lv.occ,
                    option: None,
                    build,
                },
            ),
        };
        self.tail = tail;
        self.run_tail(load, weight, sink)
    }

    /// [`Searcher::tail_at`] for the child of level `d` that chooses live option `x`, loaded
    /// straight from the parent without building the child's level.
    fn tail_child<S: Sink>(
        &mut self,
        d: usize,
        x: usize,
        weight: f64,
        sink: &mut S,
    ) -> Option<bool> {
        let p = self.p;
        let t = p.tail.as_ref()?;
        let lv = &self.levels[d];
        let chosen = self.base.len() + self.chosen.len() + 1;
        let need_left = lv.need_left - p.prim_of(x).len() as u64;
        let build = self.limit.is_none();
        let mut tail = std::mem::take(&mut self.tail);
        let load = match &p.sliced {
            Some(st) => {
                let s = &lv.s;
                let row = &st.conf[x];
                let open = andn(s.open, st.opt[x]);
                let mrem = st.mrem_after(s, x);
                tail.load(
                    t,
                    |f| each_bit(s.active, |w| f(w, s.live[w] & !row[w])),
                    |i| st.rem(open, &mrem, i),
                    At {
                        need_left,
                        chosen,
                        occ: &lv.occ,
                        option: Some(x),
                        build,
                    },
                )
            }
            None => {
                // Options of a multiplicity item x saturates are dropped by their need.
                let xi = p.prim_of(x);
                let rem = |i: u32| lv.rem[i as usize] - u32::from(xi.contains(&i));
                let mut buf = Vec::new();
                let row = p.conflict_row(x, &mut buf);
                tail.load(
                    t,
                    |f| {
                        for &w in &lv.active {
                            let w = w as usize;
                            f(w, lv.live[w] & !row[w]);
                        }
                    },
                    rem,
                    At {
                        need_left,
                        chosen,
                        occ: &lv.occ,
                        option: Some(x),
                        build,
                    },
                )
            }
        };
        self.tail = tail;
        if load == Load::TooBig {
            return None;
        }
        self.chosen.push(x as u32);
        let go_on = self.run_tail(load, weight, sink);
        self.chosen.pop();
        go_on
    }

    /// Searches the leaf board just loaded (`load`) as one node of weight `weight` and its
    /// subtree, or in subproblem mode makes it a leaf of the cut; `None` when it was too big
    /// to load.
    fn run_tail<S: Sink>(&mut self, load: Load, weight: f64, sink: &mut S) -> Option<bool> {
        let mut go_on = true;
        match load {
            Load::TooBig => return None,
            Load::Ready if self.limit.is_some() => {
                return Some(self.frontier(weight, sink));
            }
            Load::Dead => self.nodes += 1,
            Load::Ready => {
                self.nodes += 1;
                struct Leaf<'s, 'a, S> {
                    s: &'s mut Searcher<'a>,
                    sink: &'s mut S,
                    nodes0: u64,
                    /// The leaf search's weight, and the share of it already published.
                    weight: f64,
                    published: f64,
                }
                impl<S: Sink> TailSink for Leaf<'_, '_, S> {
                    fn cover(&mut self, options: &[u32]) -> bool {
                        self.s.emit(options, self.sink)
                    }
                    fn check(&mut self, nodes: u64, done: f64) -> bool {
                        self.s.nodes = self.nodes0 + nodes;
                        // Progress inside a long leaf search, so that a count spending
                        // minutes in one still shows a fraction done and a time left.
                        if done > self.published {
                            self.s.done += (done - self.published) * self.weight;
                            self.published = done;
                        }
                        !self.s.check()
                    }
                }
                let mut tail = std::mem::take(&mut self.tail);
                let nodes0 = self.nodes;
                let mut leaf = Leaf {
                    s: self,
                    sink,
                    nodes0,
                    weight,
                    published: 0.0,
                };
                let finished = tail.search(nodes0, &mut leaf);
                let published = leaf.published;
                self.nodes = nodes0 + tail.nodes;
                self.tail = tail;
                go_on = finished && !self.stopped && !self.interrupted && self.invalid.is_none();
                if go_on {
                    self.done += weight * (1.0 - published);
                }
                return Some(self.after_tail(go_on));
            }
        }
        if go_on {
            self.done += weight;
        }
        Some(self.after_tail(go_on))
    }

    /// In probe mode, adds a node of share `weight` to the path's estimate (Knuth's: the
    /// product of the branching degrees above it); nothing otherwise.
    fn tally(&mut self, weight: f64) {
        if self.sample.is_some() {
            self.estimate += 1.0 / weight;
        }
    }

    /// Hands the current node to the sink as a leaf of the cut; `false` when the sink stops
    /// the cut.
    fn frontier<S: Sink>(&mut self, weight: f64, sink: &mut S) -> bool {
        if sink.frontier(&self.chosen, &self.excluded, weight) {
            return true;
        }
        self.stopped = true;
        false
    }

    /// The check after a leaf board (a node like any other): `false` when the search must
    /// stop.
    fn after_tail(&mut self, go_on: bool) -> bool {
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.check() {
            return false;
        }
        go_on
    }

    /// Returns `false` when the search must stop.
    fn node<S: Sink>(&mut self, d: usize, weight: f64, sink: &mut S) -> bool {
        let p = self.p;
        let expanding = self.limit.is_some();
        if self.levels[d].need_left > 0
            && let Some(go_on) = self.tail_at(d, weight, sink)
        {
            return go_on;
        }
        let lv = &self.levels[d];
        if lv.need_left == 0 {
            if expanding {
                return self.frontier(weight, sink);
            }
            let short = lv.rlow > 0;
            self.nodes += 1;
            self.tally(weight);
            self.done += weight;
            // The exact items are covered, so no option is left (every option holds one): a
            // ranged item short of its minimum stays short.
            if short {
                return true;
            }
            return self.emit(&[], sink);
        }
        // Fewest options first: an item still needing r coverings out of n live options has
        // n - r + 1 choices for its smallest option; ties go to the lowest item. `None`: some
        // item has too few options left.
        let best = match &p.sliced {
            Some(st) => {
                let best = st.fewest(&lv.s);
                if best.is_none() {
                    st.note_starved(&lv.s, &mut self.hints[d]);
                }
                best
            }
            None => Self::fewest(lv),
        };
        let dead = match (best, &p.sliced) {
            (None, _) => true,
            (Some(_), Some(st)) => {
                st.multi_starved(&lv.s)
                    || self.pruning && !p.regions_ok_sliced(st, lv, &mut self.region)
            }
            (Some(_), None) => {
                !p.ranges_feasible(lv) || self.pruning && !p.regions_ok(lv, &mut self.region)
            }
        };
        // The sliced path branches on lanes only: items of need one.
        let need = match best {
            Some(i) if p.sliced.is_none() => lv.rem[i] as usize,
            Some(_) => 1,
            None => 0,
        };
        if !expanding || self.limit != Some(d) || dead {
            self.nodes += 1;
            self.tally(weight);
            if self.nodes.is_multiple_of(CHECK_EVERY) && self.check() {
                return false;
            }
        }
        if dead {
            self.done += weight;
            return true;
        }
        if self.limit == Some(d) {
            return self.frontier(weight, sink);
        }
        let Some(i) = best else { return true };
        let multi = need > 1;
        let lv = &self.levels[d];
        if self.cands.len() <= d {
            self.cands.resize_with(d + 1, Vec::new);
            self.hints.resize(d + 2, FIRST_HINTS);
        }
        let mut cands = std::mem::take(&mut self.cands[d]);
        cands.clear();
        if let Some(st) = &p.sliced {
            st.options_of(&mut self.levels[d].s, i, &mut cands);
        } else {
            let mask = p.mask(i);
            for &w in &lv.active {
                let w = w as usize;
                let mut bits = lv.live[w] & mask[w];
                while bits != 0 {
                    cands.push((w * 64 + bits.trailing_zeros() as usize) as u32);
                    bits &= bits - 1;
                }
            }
        }
        if self.levels.len() <= d + 1 {
            self.levels.push(Level::default());
        }
        let k = cands.len();
        let w = weight / k as f64;
        if let Some(state) = &mut self.sample
            && k > 1
        {
            // xorshift64: a probe needs a few draws, not a good generator.
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            cands.swap(0, (*state % k as u64) as usize);
            cands.truncate(1);
        }
        let excluded_mark = self.excluded.len();
        let mut go_on = true;
        let sibling = p.sibling_mode();
        let use_sliced = p.sliced.is_some();
        let mut prev_complete = false;
        // Children may fit the leaf search once the parent has few options left (a child
        // keeps a fraction of them: the bound only spares the attempts that cannot fit).
        let tail_gate = p.tail.is_some()
            && self.leaf
            && self.tail_leaves
            && self.levels[d].n_live <= 4 * MAX_TAIL_OPTIONS;
        for (idx, &x) in cands.iter().enumerate() {
            if multi && k - idx < need {
                // Too few options left to cover this item: the remaining branches are empty.
                self.done += w * (k - idx) as f64;
                break;
            }
            // A child that provably leaves an item without options is a dead end, counted
            // without being built; the child slot keeps the last built sibling, which the
            // next one is derived from.
            let hints = &mut self.hints[d + 1];
            let skipped = p
                .sliced
                .as_ref()
                .is_some_and(|st| st.starves(&self.levels[d].s, x as usize, hints));
            if !skipped
                && tail_gate
                && let Some(g) = self.tail_child(d, x as usize, w, sink)
            {
                go_on = g;
                if !go_on {
                    break;
                }
                if multi {
                    p.drop_option(&mut self.levels[d], x as usize);
                    self.excluded.push(x);
                }
                continue;
            }
            let (lo, hi) = self.levels.split_at_mut(d + 1);
            let alive = if skipped {
                false
            } else if use_sliced {
                if prev_complete {
                    p.descend_sibling_sliced(&lo[d], &mut hi[0], x as usize, &mut self.sliced);
                } else {
                    p.descend_sliced(&lo[d], &mut hi[0], x as usize, &mut self.sliced);
                }
                true
            } else if sibling && prev_complete {
                p.descend_sibling(&lo[d], &mut hi[0], x as usize);
                true
            } else {
                p.descend(&lo[d], &mut hi[0], x as usize, true)
            };
            // `true` means complete counts (only the byte walk's early exit stops short; the
            // sliced walks always complete, leaving a starved child to its own scan).
            if !skipped {
                prev_complete = alive;
            }
            if alive {
                self.chosen.push(x);
                go_on = self.node(d + 1, w, sink);
                self.chosen.pop();
            } else {
                // A starved child: a dead end, counted like any visited node.
                self.done += w;
                self.nodes += 1;
                self.tally(w);
                go_on = !(self.nodes.is_multiple_of(CHECK_EVERY) && self.check());
            }
            if !go_on {
                break;
            }
            if multi {
                // Later branches use only options after x on this item (smallest option
                // first), so no multiset is found twice.
                p.drop_option(&mut self.levels[d], x as usize);
                self.excluded.push(x);
            }
        }
        self.excluded.truncate(excluded_mark);
        self.cands[d] = cands;
        go_on
    }
}

/// Collects frontier nodes (subproblem mode).
#[derive(Default)]
pub(crate) struct FrontierSink {
    pub leaves: Vec<(Vec<u32>, Vec<u32>, f64)>,
    pub open: usize,
    pub limit: usize,
}

impl Sink for FrontierSink {
    fn solution(&mut self, _sol: &[u32]) -> bool {
        true
    }
    fn frontier(&mut self, chosen: &[u32], excluded: &[u32], weight: f64) -> bool {
        if chosen.len() == self.limit {
            self.open += 1;
        }
        self.leaves
            .push((chosen.to_vec(), excluded.to_vec(), weight));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Searcher;
    use crate::engines::exact::prepare::Prepared;
    use crate::model::{ExactCover, Item};

    /// The engine's check of a solution agrees with [`ExactCover::check_solution`] on every
    /// kind of item (secondary, exact of one or several coverings, ranged), with the options' bitsets
    /// stored and without (models of more than 64 items take several words): random models,
    /// random option sets, and the exact covers among them.
    #[test]
    fn the_solution_check_agrees_with_the_model() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let (mut covers, mut rejects) = (0, 0);
        for round in 0..60 {
            let n_items = 3 + next(if round % 2 == 0 { 12 } else { 140 }) as usize;
            let items: Vec<Item> = (0..n_items)
                .map(|i| {
                    let [min, max] = [
                        [0, 1],
                        [1, 1],
                        [1, 1],
                        [1, 1],
                        [2, 2],
                        [3, 3],
                        [0, 2],
                        [1, 3],
                    ][next(8) as usize];
                    Item::range(format!("i{i}"), min, max)
                })
                .collect();
            let n_opts = 4 + next(40) as usize;
            let options: Vec<Vec<u32>> = (0..n_opts)
                .map(|_| {
                    let mut o: Vec<u32> = (0..1 + next(4))
                        .map(|_| next(n_items as u64) as u32)
                        .collect();
                    o.sort_unstable();
                    o.dedup();
                    o
                })
                .collect();
            let model = ExactCover {
                items,
                options,
                forced: vec![],
                geometry: None,
            };
            for fast in [true, false] {
                let p = Prepared::new(std::sync::Arc::new(model.clone()), fast);
                let Some(root) = p.root(&[], &[], false) else {
                    continue;
                };
                let mut s = Searcher::new(&p, false, root, Vec::new());
                // Every subset of the first options, so that exact covers come up too.
                let k = n_opts.min(12);
                for mask in 0u32..1 << k {
                    s.sol.clear();
                    s.sol.extend((0..k as u32).filter(|&o| mask >> o & 1 == 1));
                    let want = model.check_solution(&s.sol).is_ok();
                    assert_eq!(s.verify(), want, "round {round}, {:?}", s.sol);
                    if want {
                        covers += 1;
                    } else {
                        rejects += 1;
                    }
                }
                // Unsorted, repeated and unknown options are no solution.
                for bad in [vec![1, 0], vec![0, 0], vec![n_opts as u32]] {
                    s.sol = bad;
                    assert!(!s.verify(), "round {round}, {:?}", s.sol);
                }
            }
        }
        assert!(
            covers > 50 && rejects > 1000,
            "{covers} covers, {rejects} rejects"
        );
    }
}
