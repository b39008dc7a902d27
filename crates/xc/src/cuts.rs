//! Global cuts that refute a model before any search: the checkerboard colouring argument.
//!
//! Colour the cells black and white so that face neighbours differ (a proper 2-colouring of
//! the cell graph, found by breadth-first search; the cubic grid's cells always have one).
//! Every option of a piece covers a fixed number of each colour, so its *imbalance* (black
//! minus white) is fixed. A solution's options, one per copy of each piece (as many copies
//! as a ranged piece's bounds allow), cover every must-fill cell once, so their imbalances
//! must add up to the target's. A subset-sum over the pieces (a bitset of reachable sums, one
//! shift per distinct imbalance of a piece's options) decides whether they can; when they
//! cannot, the model has no solution, whatever a search would take to find that out.
//! Optional cells widen the target to a range.
//!
//! This is the classical proof that the 35 hexominoes tile no rectangle: 24 of them are
//! balanced and 11 cover four cells of one colour and two of the other, so their imbalances
//! (each ±2) add up to 2 mod 4, while a rectangle of even area is balanced.

use crate::model::ExactCover;
use std::collections::VecDeque;
use std::fmt;

/// Why a model has no solution, found without search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// Must-fill cells of each colour (black, white).
    pub cells: (u32, u32),
    /// Optional cells of each colour (black, white).
    pub optional: (u32, u32),
    /// For each distinct set of imbalances a piece's options can have (ascending), the
    /// number of piece copies with that set (a ranged piece's most copies).
    pub pieces: Vec<(Vec<i32>, u32)>,
}

impl fmt::Display for Refutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w) = self.cells;
        write!(
            f,
            "checkerboard colouring: the cells to fill are {b} of one colour and {w} of the other (imbalance {})",
            b as i64 - w as i64
        )?;
        if self.optional != (0, 0) {
            write!(
                f,
                ", plus {} and {} optional",
                self.optional.0, self.optional.1
            )?;
        }
        write!(
            f,
            ", but every choice of placements has another imbalance ("
        )?;
        for (i, (set, n)) in self.pieces.iter().enumerate() {
            let set: Vec<String> = set.iter().map(|d| format!("{d:+}")).collect();
            let sep = if i == 0 { "" } else { "; " };
            write!(f, "{sep}{n} piece(s) {{{}}}", set.join(", "))?;
        }
        write!(f, ")")
    }
}

/// A proper 2-colouring of the model's cells (`true` = black), or `None` when the model has
/// no cell geometry or its cell graph has an odd cycle.
fn two_colouring(model: &ExactCover) -> Option<Vec<bool>> {
    let g = model.geometry.as_ref()?;
    let n = g.neighbors.len();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    let mut queue = VecDeque::new();
    for start in 0..n {
        if colour[start].is_some() {
            continue;
        }
        colour[start] = Some(true);
        queue.push_back(start);
        while let Some(c) = queue.pop_front() {
            let here = colour[c]?;
            for &nb in &g.neighbors[c] {
                let nb = nb as usize;
                match colour.get(nb)? {
                    None => {
                        colour[nb] = Some(!here);
                        queue.push_back(nb);
                    }
                    Some(k) if *k == here => return None,
                    Some(_) => {}
                }
            }
        }
    }
    colour.into_iter().collect()
}

/// Checks the checkerboard argument on `model`: `Some` when no choice of the pieces'
/// placements can have the target's colour imbalance, so the model has no solution. `None`
/// when the argument does not refute it, or does not apply: no cell geometry, a cell graph
/// that is not bipartite, or an option that does not hold exactly one piece item.
pub fn refute(model: &ExactCover) -> Option<Refutation> {
    let g = model.geometry.as_ref()?;
    let first = g.first_cell as usize;
    let colour = two_colouring(model)?;
    let mut cells = (0u32, 0u32);
    let mut optional = (0u32, 0u32);
    for (c, &black) in colour.iter().enumerate() {
        let item = model.items.get(first + c)?;
        let slot = match (item.is_secondary(), item.is_exact() && item.min == 1, black) {
            (true, _, true) => &mut optional.0,
            (true, _, false) => &mut optional.1,
            (_, true, true) => &mut cells.0,
            (_, true, false) => &mut cells.1,
            _ => return None,
        };
        *slot += 1;
    }
    // The imbalances each piece item's options can have.
    let mut sets: Vec<Vec<i32>> = vec![Vec::new(); first];
    for opt in &model.options {
        let mut piece = None;
        let mut d = 0i32;
        for &i in opt {
            let i = i as usize;
            if i < first {
                if piece.replace(i).is_some() {
                    return None;
                }
            } else {
                d += if colour[i - first] { 1 } else { -1 };
            }
        }
        sets[piece?].push(d);
    }
    for s in &mut sets {
        s.sort_unstable();
        s.dedup();
    }
    // Reachable sums, offset by the total volume so that they are non-negative.
    let volume: i64 = (cells.0 + cells.1 + optional.0 + optional.1) as i64;
    let width = 2 * volume as usize + 1;
    let mut reach = vec![false; width];
    reach[volume as usize] = true;
    let mut groups: Vec<(Vec<i32>, u32)> = Vec::new();
    for (p, set) in sets.iter().enumerate() {
        // A piece of `min..=max` copies: the sums of any number of copies in that range.
        let (least, copies) = (model.items[p].min, model.items[p].max);
        if least > 0 && set.is_empty() {
            // A piece with no placement: other checks report that; this one stays silent.
            return None;
        }
        let mut any = if least == 0 {
            reach.clone()
        } else {
            vec![false; width]
        };
        for k in 1..=copies {
            if set.is_empty() {
                break;
            }
            let mut next = vec![false; width];
            for (v, _) in reach.iter().enumerate().filter(|(_, r)| **r) {
                for &d in set {
                    let t = v as i64 + d as i64;
                    if (0..width as i64).contains(&t) {
                        next[t as usize] = true;
                    }
                }
            }
            reach = next;
            if k >= least {
                for (a, &r) in any.iter_mut().zip(&reach) {
                    *a |= r;
                }
            }
        }
        reach = any;
        match groups.iter_mut().find(|(s, _)| s == set) {
            Some((_, n)) => *n += copies,
            None => groups.push((set.clone(), copies)),
        }
    }
    // The target imbalance, widened by whatever the optional cells may add.
    let base = cells.0 as i64 - cells.1 as i64;
    let (lo, hi) = (base - optional.1 as i64, base + optional.0 as i64);
    let possible = (lo..=hi).any(|t| {
        let i = t + volume;
        (0..width as i64).contains(&i) && reach[i as usize]
    });
    if possible {
        return None;
    }
    groups.sort();
    Some(Refutation {
        cells,
        optional,
        pieces: groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    /// A `w` x `h` board of must-fill cells (`holes` removed) tiled by dominoes: piece item 0
    /// with need `area / 2`, every horizontal and vertical domino an option.
    fn dominoes(w: u32, h: u32, holes: &[(u32, u32)]) -> ExactCover {
        let cells: Vec<(u32, u32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|c| !holes.contains(c))
            .collect();
        let index = |x: u32, y: u32| cells.iter().position(|&c| c == (x, y));
        let neighbors: Vec<Vec<u32>> = cells
            .iter()
            .map(|&(x, y)| {
                let mut v: Vec<u32> = [
                    (x + 1, y),
                    (x.wrapping_sub(1), y),
                    (x, y + 1),
                    (x, y.wrapping_sub(1)),
                ]
                .iter()
                .filter_map(|&(a, b)| index(a, b).map(|i| i as u32))
                .collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut placements = Vec::new();
        for (i, &(x, y)) in cells.iter().enumerate() {
            for (a, b) in [(x + 1, y), (x, y + 1)] {
                if let Some(j) = index(a, b) {
                    placements.push(vec![i as u32, j as u32]);
                }
            }
        }
        crate::fixtures::one_piece("domino", 2, neighbors, &placements)
    }

    #[test]
    fn the_mutilated_chessboard_is_refuted_and_the_whole_one_is_not() {
        assert_eq!(refute(&dominoes(8, 8, &[])), None);
        let r = refute(&dominoes(8, 8, &[(0, 0), (7, 7)])).expect("refuted");
        // The first cell, (1, 0), is black: the colour of the removed corners is white.
        assert_eq!(r.cells, (32, 30));
        assert_eq!(r.pieces, vec![(vec![0], 31)]);
        assert!(r.to_string().contains("(imbalance 2)"), "{r}");
        // Two opposite-colour corners removed: balanced, not refuted (and tileable).
        assert_eq!(refute(&dominoes(8, 8, &[(0, 0), (7, 0)])), None);
    }

    #[test]
    fn optional_cells_widen_the_target() {
        let optional = |k: usize| {
            let mut m = dominoes(8, 8, &[(0, 0), (7, 7)]);
            let colour = two_colouring(&m).unwrap();
            let black: Vec<usize> = (0..colour.len()).filter(|&c| colour[c]).collect();
            for &c in &black[..k] {
                m.items[1 + c] = Item::secondary(m.items[1 + c].name.clone());
            }
            m
        };
        // Two black cells optional: both may stay empty, and the rest is balanced.
        assert_eq!(refute(&optional(2)), None);
        // One: the must-fill cells are still one black cell over.
        let r = refute(&optional(1)).expect("refuted");
        assert_eq!((r.cells, r.optional), ((31, 30), (1, 0)));
    }
}
