//! Shards of a memoized count: the memo search's own top cut into subtrees, their sizes by
//! Knuth's estimate, and the deal of the subtrees to shards ([`crate::shard::deal`]).
//!
//! The cut expands the memo tree from the query's root breadth first, a node at a time,
//! until it holds [`SUBTREES_PER_SHARD`] subtrees per shard or no node is left to expand.
//! It branches as the count does (the state picks the item), so the subtrees partition the
//! count's solutions: the children of a node choose different options for one item needed
//! once. A dead node (an item with no free option) holds no solution and is dropped; a leaf
//! (every item needed once covered) is a subtree of its own. Everything depends on the
//! model and the query alone (no clock, no thread count, a fixed seed per subtree), so the
//! same `K/N` is the same work on every machine.
//!
//! A shard counts its subtrees one after the other with one cache: the query's forced and
//! excluded options are the same for each, so a state's count is the same in all of them.

use std::collections::VecDeque;

use crate::error::Result;
use crate::rng::SplitMix;
use crate::shard::{SUBTREES_PER_SHARD, Shard, deal};

/// Knuth probes per subtree for its estimated size.
const PROBES: u64 = 8;

/// A subtree of the cut: the options chosen from the root, and its share of the tree (the
/// product of the branching degrees above it, inverted).
pub(super) struct Subtree {
    path: Vec<u32>,
    share: f64,
}

/// A memo search as the cut sees it: the state's branch, a move down and up, and the count
/// below the state.
pub(super) trait Tree {
    /// The free options of the item the current state branches on: `None` at a leaf (every
    /// item needed once covered), an empty list at a dead end.
    fn branch(&self) -> Option<Vec<u32>>;
    fn choose(&mut self, o: u32);
    fn unchoose(&mut self, o: u32);
    /// The count below the current state; `weight` is the node's share of the tree.
    fn count(&mut self, weight: f64) -> Result<u64>;
    fn interrupted(&self) -> bool;

    /// The count of `shard`'s subtrees from the current state (the query's root).
    fn count_shard(&mut self, shard: Shard) -> Result<u64> {
        let want = SUBTREES_PER_SHARD.saturating_mul(shard.count() as usize);
        let cut = self.cut(want);
        let sizes: Vec<f64> = cut
            .iter()
            .enumerate()
            .map(|(i, t)| self.estimate(&t.path, i as u64))
            .collect();
        let owner = deal(&sizes, shard.count());
        let mine: Vec<&Subtree> = cut
            .iter()
            .zip(&owner)
            .filter(|&(_, &o)| o == shard.index())
            .map(|(t, _)| t)
            .collect();
        // The progress is the shard's own: its subtrees' shares scaled to add up to one.
        let all: f64 = mine.iter().map(|t| t.share).sum();
        let mut total = 0u64;
        for t in mine {
            for &o in &t.path {
                self.choose(o);
            }
            let weight = if all > 0.0 { t.share / all } else { 0.0 };
            let sub = self.count(weight);
            for &o in t.path.iter().rev() {
                self.unchoose(o);
            }
            total = total
                .checked_add(sub?)
                .ok_or(crate::Error::Overflow { what: "count" })?;
            if self.interrupted() {
                break;
            }
        }
        Ok(total)
    }

    /// The cut: at least `want` subtrees, or every node down to the leaves when the tree is
    /// smaller, in breadth-first order.
    fn cut(&mut self, want: usize) -> Vec<Subtree> {
        let mut open = VecDeque::from([Subtree {
            path: Vec::new(),
            share: 1.0,
        }]);
        let mut leaves = Vec::new();
        while let Some(t) = open.pop_front() {
            if open.len() + leaves.len() + 1 >= want {
                open.push_front(t);
                break;
            }
            for &o in &t.path {
                self.choose(o);
            }
            match self.branch() {
                None => leaves.push((t.path.clone(), t.share)),
                Some(free) => {
                    let share = t.share / free.len().max(1) as f64;
                    for o in free {
                        let mut path = Vec::with_capacity(t.path.len() + 1);
                        path.extend_from_slice(&t.path);
                        path.push(o);
                        open.push_back(Subtree { path, share });
                    }
                }
            }
            for &o in t.path.iter().rev() {
                self.unchoose(o);
            }
        }
        leaves
            .into_iter()
            .map(|(path, share)| Subtree { path, share })
            .chain(open)
            .collect()
    }

    /// Knuth's estimate of the nodes below `path` ("Estimating the efficiency of backtrack
    /// programs", 1975): the mean over [`PROBES`] random paths of the sum of the products of
    /// the branching degrees, each path drawn by a generator seeded with `seed`.
    fn estimate(&mut self, path: &[u32], seed: u64) -> f64 {
        for &o in path {
            self.choose(o);
        }
        let mut rng = SplitMix(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xC0FF_EE00);
        let mut sum = 0.0;
        let mut walk = Vec::new();
        for _ in 0..PROBES {
            let mut degree = 1.0;
            sum += 1.0;
            while let Some(free) = self.branch() {
                if free.is_empty() {
                    break;
                }
                degree *= free.len() as f64;
                sum += degree;
                let o = free[(rng.next_u64() % free.len() as u64) as usize];
                self.choose(o);
                walk.push(o);
            }
            while let Some(o) = walk.pop() {
                self.unchoose(o);
            }
        }
        for &o in path.iter().rev() {
            self.unchoose(o);
        }
        sum / PROBES as f64
    }
}
