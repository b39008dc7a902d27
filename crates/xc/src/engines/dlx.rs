//! The plain dancing-links baseline: Knuth's Algorithm X on array-based links (DLX1) with
//! secondary items and multiplicities, no pruning beyond "fewest options first".
//!
//! It exists to be obviously correct and to be beaten: the benchmarks compare the bitset engine
//! ([`crate::engines::exact`]) against it, and the tests use it as a differential oracle.
//!
//! Multiplicities (an item covered exactly `k > 1` times) follow the idea of Knuth's Algorithm
//! M: when the search branches on such an item it tries its options in list order, and after
//! trying option `x` it *tweaks* `x` out (removes it for the remaining branches), so every
//! branch enumerates the solutions whose smallest option on that item is `x`. A multiset of
//! options is therefore found exactly once.
//!
//! Ranged items (`min..=max` coverings) are never branched on: every option holds an exact
//! item (the model's convention), so covering the exact items decides the solution. A ranged
//! item is covered like a secondary one once its `max` is reached, and a cover of the exact
//! items is a solution when every ranged item has reached its `min`.

use crate::engines::{Engine, Query, Stats};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use std::ops::ControlFlow;

/// What a dancing-links run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DlxStats {
    /// Solutions delivered to the callback (or counted).
    pub solutions: u64,
    /// Search nodes: calls of the recursive search procedure.
    pub nodes: u64,
    /// True when the callback asked to stop before the search space was exhausted.
    pub stopped: bool,
}

/// The dancing-links solver for one model. Construction validates the model; every query
/// builds fresh links, so a solver can be queried repeatedly with different forced or excluded
/// options.
#[derive(Clone, Debug)]
pub struct Dlx {
    model: ExactCover,
    forced: Vec<u32>,
    excluded: Vec<u32>,
}

impl Dlx {
    /// A solver for `model` (validated; an invalid model is an error, never a panic).
    pub fn new(model: &ExactCover) -> Result<Self> {
        model.validate()?;
        Ok(Dlx {
            model: model.clone(),
            forced: Vec::new(),
            excluded: Vec::new(),
        })
    }

    /// Adds options every reported solution must contain (on top of the model's own).
    pub fn force(mut self, options: &[u32]) -> Result<Self> {
        check_range(&self.model, options)?;
        self.forced.extend_from_slice(options);
        Ok(self)
    }

    /// Adds options no reported solution may contain.
    pub fn exclude(mut self, options: &[u32]) -> Result<Self> {
        check_range(&self.model, options)?;
        self.excluded.extend_from_slice(options);
        Ok(self)
    }

    /// Streams every solution (ascending option indices, forced options included) to `f` in
    /// DFS order until `f` returns `false`. Every solution passes
    /// [`ExactCover::check_solution`] before it is delivered.
    pub fn enumerate(&self, mut f: impl FnMut(&[u32]) -> bool) -> Result<DlxStats> {
        let mut links = Links::new(&self.model);
        let mut stats = DlxStats::default();
        let Some(base) = links.apply_root(&self.model, &self.forced, &self.excluded) else {
            stats.nodes = 1;
            return Ok(stats);
        };
        let mut chosen = Vec::new();
        let mut err = None;
        let mut sorted = Vec::new();
        links.search(&mut chosen, &mut stats, &mut |path: &[u32]| {
            sorted.clear();
            sorted.extend_from_slice(&base);
            sorted.extend_from_slice(path);
            sorted.sort_unstable();
            if let Err(e) = self.model.check_solution(&sorted) {
                err = Some(e);
                return false;
            }
            f(&sorted)
        });
        match err {
            Some(e) => Err(Error::internal(format!(
                "dancing links produced an invalid solution: {e}"
            ))),
            None => Ok(stats),
        }
    }

    /// Counts every solution.
    pub fn count(&self) -> Result<DlxStats> {
        self.enumerate(|_| true)
    }
}

impl Engine for Dlx {
    /// The baseline has no hook inside its search: an interrupt is obeyed between solutions.
    fn enumerate(
        &self,
        query: &Query,
        sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats> {
        if query.shard.is_some() {
            // Its search has no cut into subtrees to deal out.
            return Err(Error::Unsupported {
                engine: "dlx",
                what: "run a shard of a search (use the exact or sat engine)",
            });
        }
        let mut d = self.clone();
        check_range(&d.model, &query.forced)?;
        check_range(&d.model, &query.excluded)?;
        d.forced.extend_from_slice(&query.forced);
        d.excluded.extend_from_slice(&query.excluded);
        let st = d.enumerate(|s| !query.is_interrupted() && sink(s).is_continue())?;
        let interrupted = query.is_interrupted();
        Ok(Stats {
            solutions: st.solutions,
            nodes: Some(st.nodes),
            interrupted,
            stopped: st.stopped && !interrupted,
            summary: "dlx".into(),
        })
    }
}

fn check_range(model: &ExactCover, options: &[u32]) -> Result<()> {
    if let Some(&o) = options.iter().find(|&&o| o as usize >= model.options.len()) {
        return Err(Error::OptionOutOfRange {
            option: o,
            options: model.options.len(),
        });
    }
    Ok(())
}

/// The link arrays. Nodes `0..items` are the item headers, node `items` is the root of the
/// list of active primary items, and the option nodes follow, option by option.
struct Links {
    items: usize,
    /// Horizontal links of the active primary items (indices `0..=items`, root last).
    left: Vec<u32>,
    right: Vec<u32>,
    /// Options still available for each item.
    len: Vec<u32>,
    /// Coverage still needed by each exact item (`0` for the others).
    rem: Vec<u32>,
    secondary: Vec<bool>,
    /// Ranged items, and the coverings every item may still take (read for ranged items).
    ranged: Vec<u32>,
    room: Vec<u32>,
    min: Vec<u32>,
    max: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Item of every node.
    top: Vec<u32>,
    /// Option of every option node.
    opt: Vec<u32>,
    /// First node of every option, plus one sentinel.
    start: Vec<u32>,
}

enum Flow {
    Continue,
    Stop,
}

impl Links {
    fn new(model: &ExactCover) -> Self {
        let n = model.items.len();
        let total: usize = model.options.iter().map(Vec::len).sum();
        let nodes = n + 1 + total;
        let mut l = Links {
            items: n,
            left: vec![0; n + 1],
            right: vec![0; n + 1],
            len: vec![0; n],
            rem: model
                .items
                .iter()
                .map(|i| if i.is_exact() { i.min } else { 0 })
                .collect(),
            secondary: model.items.iter().map(|i| i.is_secondary()).collect(),
            ranged: (0..n as u32)
                .filter(|&i| model.items[i as usize].is_ranged())
                .collect(),
            room: model.items.iter().map(|i| i.max).collect(),
            min: model.items.iter().map(|i| i.min).collect(),
            max: model.items.iter().map(|i| i.max).collect(),
            up: (0..nodes as u32).collect(),
            down: (0..nodes as u32).collect(),
            top: vec![0; nodes],
            opt: vec![0; nodes],
            start: Vec::with_capacity(model.options.len() + 1),
        };
        // Active list: exact items in index order, so ties in "fewest options" go to the
        // lowest item.
        let mut prev = n;
        let listed: Vec<usize> = (0..n).filter(|&i| l.listed(i)).collect();
        for i in listed {
            l.right[prev] = i as u32;
            l.left[i] = prev as u32;
            prev = i;
        }
        l.right[prev] = n as u32;
        l.left[n] = prev as u32;
        let mut node = n + 1;
        for (o, items) in model.options.iter().enumerate() {
            l.start.push(node as u32);
            for &i in items {
                let i = i as usize;
                // Append at the bottom of item i's list.
                let last = l.up[i] as usize;
                l.down[last] = node as u32;
                l.up[node] = last as u32;
                l.down[node] = i as u32;
                l.up[i] = node as u32;
                l.top[node] = i as u32;
                l.opt[node] = o as u32;
                l.len[i] += 1;
                node += 1;
            }
        }
        l.start.push(node as u32);
        l
    }

    /// Whether item `i` is in the active list (an exact item).
    fn listed(&self, i: usize) -> bool {
        !self.secondary[i] && self.max[i] == self.min[i]
    }

    fn option_nodes(&self, o: u32) -> std::ops::Range<usize> {
        self.start[o as usize] as usize..self.start[o as usize + 1] as usize
    }

    fn unlink(&mut self, q: usize) {
        let (u, d) = (self.up[q] as usize, self.down[q] as usize);
        self.down[u] = d as u32;
        self.up[d] = u as u32;
        self.len[self.top[q] as usize] -= 1;
    }

    fn relink(&mut self, q: usize) {
        let (u, d) = (self.up[q] as usize, self.down[q] as usize);
        self.down[u] = q as u32;
        self.up[d] = q as u32;
        self.len[self.top[q] as usize] += 1;
    }

    /// Removes the other nodes of `p`'s option from their item lists.
    fn hide(&mut self, p: usize) {
        for q in self.option_nodes(self.opt[p]) {
            if q != p {
                self.unlink(q);
            }
        }
    }

    fn unhide(&mut self, p: usize) {
        for q in self.option_nodes(self.opt[p]).rev() {
            if q != p {
                self.relink(q);
            }
        }
    }

    /// Removes a whole option (all its nodes), for tweaking, excluded and forced options.
    fn tweak(&mut self, o: u32) {
        for q in self.option_nodes(o) {
            self.unlink(q);
        }
    }

    fn untweak(&mut self, o: u32) {
        for q in self.option_nodes(o).rev() {
            self.relink(q);
        }
    }

    fn cover(&mut self, i: usize) {
        if self.listed(i) {
            let (l, r) = (self.left[i] as usize, self.right[i] as usize);
            self.right[l] = r as u32;
            self.left[r] = l as u32;
        }
        let mut p = self.down[i] as usize;
        while p != i {
            self.hide(p);
            p = self.down[p] as usize;
        }
    }

    fn uncover(&mut self, i: usize) {
        let mut p = self.up[i] as usize;
        while p != i {
            self.unhide(p);
            p = self.up[p] as usize;
        }
        if self.listed(i) {
            let (l, r) = (self.left[i] as usize, self.right[i] as usize);
            self.right[l] = i as u32;
            self.left[r] = i as u32;
        }
    }

    /// One more chosen option holds item `i`.
    fn commit(&mut self, i: usize) {
        if self.secondary[i] {
            self.cover(i);
        } else if self.listed(i) {
            self.rem[i] -= 1;
            if self.rem[i] == 0 {
                self.cover(i);
            }
        } else {
            self.room[i] -= 1;
            if self.room[i] == 0 {
                self.cover(i);
            }
        }
    }

    fn uncommit(&mut self, i: usize) {
        if self.secondary[i] {
            self.uncover(i);
        } else if self.listed(i) {
            if self.rem[i] == 0 {
                self.uncover(i);
            }
            self.rem[i] += 1;
        } else {
            if self.room[i] == 0 {
                self.uncover(i);
            }
            self.room[i] += 1;
        }
    }

    /// True when every ranged item has reached its `min`.
    fn ranges_met(&self) -> bool {
        self.ranged.iter().all(|&i| {
            let i = i as usize;
            self.max[i] - self.room[i] >= self.min[i]
        })
    }

    /// Applies excluded and forced options for the whole run; `None` when they are
    /// contradictory (no solution). Returns the forced options, sorted and deduplicated.
    fn apply_root(
        &mut self,
        model: &ExactCover,
        forced: &[u32],
        excluded: &[u32],
    ) -> Option<Vec<u32>> {
        let mut all: Vec<u32> = model.forced.iter().chain(forced).copied().collect();
        all.sort_unstable();
        all.dedup();
        let mut ex = excluded.to_vec();
        ex.sort_unstable();
        ex.dedup();
        if all.iter().any(|o| ex.binary_search(o).is_ok()) {
            return None;
        }
        // Forced options must not over-cover anything; then committing them one by one never
        // hides a later forced option.
        let mut cover = vec![0u32; self.items];
        for &o in &all {
            for &i in &model.options[o as usize] {
                cover[i as usize] += 1;
            }
        }
        let over = model.items.iter().zip(&cover).any(|(it, &c)| c > it.max);
        if over {
            return None;
        }
        for &o in &ex {
            self.tweak(o);
        }
        for &o in &all {
            self.tweak(o);
            for &i in &model.options[o as usize] {
                self.commit(i as usize);
            }
        }
        Some(all)
    }

    fn search(
        &mut self,
        chosen: &mut Vec<u32>,
        stats: &mut DlxStats,
        f: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Flow {
        stats.nodes += 1;
        let root = self.items;
        if self.right[root] as usize == root {
            if !self.ranges_met() {
                return Flow::Continue;
            }
            stats.solutions += 1;
            if f(chosen) {
                return Flow::Continue;
            }
            stats.stopped = true;
            return Flow::Stop;
        }
        // Fewest options first; for an item still needing r coverings, len - r + 1 branches.
        let mut best = usize::MAX;
        let mut best_theta = i64::MAX;
        let mut i = self.right[root] as usize;
        while i != root {
            let theta = self.len[i] as i64 - self.rem[i] as i64 + 1;
            if theta < best_theta {
                best_theta = theta;
                best = i;
                if theta <= 0 {
                    break;
                }
            }
            i = self.right[i] as usize;
        }
        if best_theta <= 0 {
            return Flow::Continue;
        }
        let i = best;
        let mut flow = Flow::Continue;
        if self.rem[i] == 1 {
            self.cover(i);
            let mut p = self.down[i] as usize;
            while p != i {
                let o = self.opt[p];
                chosen.push(o);
                for q in self.option_nodes(o) {
                    if q != p {
                        self.commit(self.top[q] as usize);
                    }
                }
                flow = self.search(chosen, stats, f);
                for q in self.option_nodes(o).rev() {
                    if q != p {
                        self.uncommit(self.top[q] as usize);
                    }
                }
                chosen.pop();
                if let Flow::Stop = flow {
                    break;
                }
                p = self.down[p] as usize;
            }
            self.uncover(i);
        } else {
            // Multiplicity: branch on the smallest option used for item i, tweaking each tried
            // option out of the later branches.
            let mut tweaked = Vec::new();
            let mut p = self.down[i] as usize;
            while p != i && self.len[i] >= self.rem[i] {
                let next = self.down[p] as usize;
                let o = self.opt[p];
                self.tweak(o);
                tweaked.push(o);
                chosen.push(o);
                for q in self.option_nodes(o) {
                    self.commit(self.top[q] as usize);
                }
                flow = self.search(chosen, stats, f);
                for q in self.option_nodes(o).rev() {
                    self.uncommit(self.top[q] as usize);
                }
                chosen.pop();
                if let Flow::Stop = flow {
                    break;
                }
                p = next;
            }
            for &o in tweaked.iter().rev() {
                self.untweak(o);
            }
        }
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    fn item(name: &str, need: u32) -> Item {
        match need {
            0 => Item::secondary(name),
            k => Item::exact(name, k),
        }
    }

    #[test]
    fn knuth_example_has_one_solution() {
        // Knuth's running example from "Dancing Links".
        let m = ExactCover {
            items: "abcdefg".chars().map(|c| item(&c.to_string(), 1)).collect(),
            options: vec![
                vec![2, 4],
                vec![0, 3, 6],
                vec![1, 2, 5],
                vec![0, 3, 5],
                vec![1, 6],
                vec![3, 4, 6],
            ],
            forced: vec![],
            geometry: None,
        };
        let mut sols = Vec::new();
        let st = Dlx::new(&m).unwrap().enumerate(|s| {
            sols.push(s.to_vec());
            true
        });
        assert_eq!(st.unwrap().solutions, 1);
        assert_eq!(sols, vec![vec![0, 3, 4]]);
    }

    #[test]
    fn multiplicity_counts_each_multiset_once() {
        // Item A needs 2; four options each hold A and one distinct cell; two cells are primary,
        // two secondary: solutions = pick the two primary-cell options = 1.
        let m = ExactCover {
            items: vec![
                item("A", 2),
                item("c0", 1),
                item("c1", 1),
                item("s0", 0),
                item("s1", 0),
            ],
            options: vec![vec![0, 1], vec![0, 3], vec![0, 2], vec![0, 4]],
            forced: vec![],
            geometry: None,
        };
        assert_eq!(Dlx::new(&m).unwrap().count().unwrap().solutions, 1);
        // Without primary cells: any 2 of 4 options = 6 multisets.
        let m2 = ExactCover {
            items: vec![
                item("A", 2),
                item("s0", 0),
                item("s1", 0),
                item("s2", 0),
                item("s3", 0),
            ],
            options: vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![0, 4]],
            forced: vec![],
            geometry: None,
        };
        let d = Dlx::new(&m2).unwrap();
        assert_eq!(d.count().unwrap().solutions, 6);
        assert_eq!(d.clone().force(&[1]).unwrap().count().unwrap().solutions, 3);
        assert_eq!(d.exclude(&[0, 1]).unwrap().count().unwrap().solutions, 1);
    }
}
