//! Solutions and the independent verifier: every solution cubesat prints or counts passes it.
//!
//! The verifier does not trust the placement table or the engines. When built it checks every
//! placement geometrically (its cells, read back as coordinates, are a rotation — or, for a
//! puzzle with `mirror`, a reflection — of its piece, inside one container). Per solution it
//! checks from the target's cells: every must-fill cell covered exactly once, every optional
//! cell at most once, every piece used exactly its count of times, every hint present.

use crate::error::{Error, Result};

/// Returns [`Error::Invalid`] with a formatted message.
macro_rules! invalid {
    ($($arg:tt)+) => {
        return Err(Error::Invalid(format!($($arg)+)))
    };
}

/// [`invalid!`] unless the condition holds.
macro_rules! ensure_valid {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            invalid!($($arg)+);
        }
    };
}

use std::sync::atomic::{AtomicBool, Ordering};

use crate::geometry::{Cell, Shape, Transform, sub, zyx};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;

/// A solution: the chosen placements (option indices of the model), ascending. Identical
/// copies of a piece share placements, so a solution never tells copies apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    /// Placement indices, ascending.
    pub placements: Vec<u32>,
}

impl Solution {
    /// A solution from placement indices in any order.
    pub fn new(mut placements: Vec<u32>) -> Solution {
        placements.sort_unstable();
        Solution { placements }
    }
}

/// Checks solutions against the puzzle, independently of how they were found.
pub struct Verifier<'a> {
    puzzle: &'a Puzzle,
    table: &'a PlacementTable,
    /// Placements this verifier has found to obey the colour rule (a puzzle with one): a
    /// placement's colours do not change from solution to solution, so each is read against
    /// the target once, not once a solution (1,336 cells for each of DraculasDentalDesaster's
    /// 84 solutions, half the cost of checking them).
    colours_ok: Vec<AtomicBool>,
}

impl<'a> Verifier<'a> {
    /// A verifier for solutions of `puzzle` over `table`. Call
    /// `Verifier::check_placements` once per table before trusting it.
    pub fn new(puzzle: &'a Puzzle, table: &'a PlacementTable) -> Verifier<'a> {
        let colours_ok = if puzzle.colour_pairs.is_some() {
            (0..table.len()).map(|_| AtomicBool::new(false)).collect()
        } else {
            Vec::new()
        };
        Verifier {
            puzzle,
            table,
            colours_ok,
        }
    }

    /// Checks every placement of the table geometrically: its cells, read back as coordinates,
    /// are a rotation (or, for a puzzle with `mirror`, a reflection) of its piece, inside one
    /// container.
    pub(crate) fn check_placements(&self) -> Result<()> {
        let (puzzle, table) = (self.puzzle, self.table);
        // The grid's transforms, each used where it maps the piece onto cells of the grid.
        let transforms: &[Transform] = puzzle.grid.transforms_for(puzzle.mirror);
        // The set of shapes each piece may take, computed here from the raw transforms rather
        // than taken from the table's orientation lists.
        let allowed: Vec<Vec<Shape>> = puzzle
            .pieces
            .iter()
            .map(|p| {
                // Transformed and normalised apart, not by the fused `Shape::transformed`
                // that the table's orientations take.
                let mut v: Vec<Shape> = transforms
                    .iter()
                    .filter_map(|t| {
                        let grid = p.shape.grid();
                        Some(Shape::new_on(
                            grid,
                            grid.transform_cells(t, p.shape.cells())?,
                        ))
                    })
                    .collect();
                v.sort();
                v.dedup();
                v
            })
            .collect();
        let cells = puzzle.target.cells();
        // A placement's cells as coordinates, normalised as a shape's are (scratch).
        let mut pos: Vec<Cell> = Vec::new();
        // The allowed shape each piece's last placement had: the table lists a piece's
        // placements orientation by orientation, so most placements are compared with one
        // shape, not searched for.
        let mut last: Vec<Option<usize>> = vec![None; allowed.len()];
        for (i, p) in table.placements().iter().enumerate() {
            let Some(first) = p.cells.first() else {
                invalid!("placement {i} has no cells");
            };
            let container = cells[*first as usize].container;
            ensure_valid!(
                p.cells
                    .iter()
                    .all(|&c| cells[c as usize].container == container),
                "placement {i} spans two containers"
            );
            let Some(shapes) = allowed.get(p.piece as usize) else {
                invalid!(
                    "placement {i} is of piece {}, which does not exist",
                    p.piece
                );
            };
            pos.clear();
            pos.extend(p.cells.iter().map(|&c| cells[c as usize].pos));
            if let Some(min) = puzzle.grid.normal_offset(&pos) {
                for c in &mut pos {
                    *c = sub(*c, min);
                }
            }
            // Equal to the last allowed shape, cell for cell: a translate of it (whose cells
            // are distinct and sorted, so these are too).
            if last[p.piece as usize].is_some_and(|j| shapes[j].cells() == pos.as_slice()) {
                continue;
            }
            // Sorted by (z, y, x), as a shape: target cells are numbered in that order inside
            // a container, so ascending cells need no sort, which is checked, not assumed.
            if !pos.windows(2).all(|w| zyx(w[0]) < zyx(w[1])) {
                pos.sort_unstable_by_key(|&c| zyx(c));
            }
            let distinct = pos.windows(2).all(|w| w[0] != w[1]);
            let found = distinct
                && match shapes.binary_search_by(|s| s.cells().cmp(&pos)) {
                    Ok(j) => {
                        last[p.piece as usize] = Some(j);
                        true
                    }
                    Err(_) => false,
                };
            ensure_valid!(
                found,
                "placement {i} is not a rotation and translation of piece '{}'",
                puzzle.pieces[p.piece as usize].name
            );
        }
        Ok(())
    }

    /// Checks one solution (placement indices, ascending).
    pub fn verify(&self, placements: &[u32]) -> Result<()> {
        let cells = self.puzzle.target.cells();
        // Counts on the stack for the usual sizes: a count verifies every solution it finds,
        // often hundreds of thousands, and two allocations each were a third of this check.
        let (mut cover_stack, mut used_stack) = ([0u32; 256], [0u32; 64]);
        let (mut cover_heap, mut used_heap) = (Vec::new(), Vec::new());
        let cover = scratch(&mut cover_stack, &mut cover_heap, cells.len());
        let used = scratch(&mut used_stack, &mut used_heap, self.puzzle.pieces.len());
        for w in placements.windows(2) {
            ensure_valid!(w[0] < w[1], "placements are not distinct and ascending");
        }
        for &o in placements {
            let Some(p) = self.table.placements().get(o as usize) else {
                invalid!("placement {o} does not exist");
            };
            used[p.piece as usize] += 1;
            for &c in &p.cells {
                cover[c as usize] += 1;
            }
        }
        let mut holes = 0;
        for (i, c) in cells.iter().enumerate() {
            let n = cover[i];
            if c.optional {
                ensure_valid!(n <= 1, "optional cell {:?} covered {n} times", c.pos);
                holes += usize::from(n == 0);
            } else {
                ensure_valid!(n == 1, "cell {:?} covered {n} times", c.pos);
            }
        }
        if let Some(h) = self.puzzle.max_holes {
            ensure_valid!(
                holes <= h as usize,
                "{holes} optional cells are left empty, more than the hole limit of {h}"
            );
        }
        for (p, piece) in self.puzzle.pieces.iter().enumerate() {
            ensure_valid!(
                piece.min_count <= used[p] && used[p] <= piece.count,
                "piece '{}' used {}, its count is {}",
                piece.name,
                crate::echo::plural(used[p] as u64, "time"),
                if piece.is_ranged() {
                    format!("{}..{}", piece.min_count, piece.count)
                } else {
                    piece.count.to_string()
                }
            );
        }
        // The colour rule, read from the target rather than trusted from the table.
        if self.puzzle.colour_pairs.is_some() {
            for &o in placements {
                let known = &self.colours_ok[o as usize];
                if known.load(Ordering::Relaxed) {
                    continue;
                }
                let p = &self.table.placements()[o as usize];
                for (&c, &k) in p.cells.iter().zip(&p.colours) {
                    ensure_valid!(
                        self.puzzle.colour_allowed(k, self.puzzle.target.colour(c)),
                        "placement {o} puts colour {k} on a cell of colour {}",
                        self.puzzle.target.colour(c)
                    );
                }
                known.store(true, Ordering::Relaxed);
            }
        }
        for &h in self.table.hints() {
            ensure_valid!(
                placements.binary_search(&h).is_ok(),
                "hint placement {h} is missing"
            );
        }
        Ok(())
    }
}

/// `n` zeroed counters: a prefix of `stack` when it is long enough, else `heap`, resized.
fn scratch<'a>(stack: &'a mut [u32], heap: &'a mut Vec<u32>, n: usize) -> &'a mut [u32] {
    match stack.get_mut(..n) {
        Some(s) => {
            s.fill(0);
            s
        }
        None => {
            heap.clear();
            heap.resize(n, 0);
            heap
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::json::parse_puzzle;

    #[test]
    fn scratch_counters_are_zeroed_on_the_stack_or_the_heap() {
        let (mut stack, mut heap) = ([7u32; 4], vec![5u32; 2]);
        assert_eq!(scratch(&mut stack, &mut heap, 3), &[0, 0, 0]);
        assert_eq!(
            heap,
            [5, 5],
            "the heap is left alone when the stack will do"
        );
        assert_eq!(scratch(&mut stack, &mut heap, 6), &[0; 6]);
    }

    #[test]
    fn verifier_accepts_covers_and_rejects_the_rest() {
        let p = parse_puzzle(
            r##"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]}]}"##,
            "t",
        )
        .unwrap();
        let t = PlacementTable::new(&p).unwrap();
        let v = Verifier::new(&p, &t);
        v.check_placements().unwrap();
        // Find two disjoint placements.
        let pl = t.placements();
        let mut good = None;
        for a in 0..pl.len() {
            for b in a + 1..pl.len() {
                if pl[a].cells.iter().all(|c| !pl[b].cells.contains(c)) {
                    good = Some(vec![a as u32, b as u32]);
                }
            }
        }
        let good = good.unwrap();
        v.verify(&good).unwrap();
        assert!(v.verify(&good[..1]).is_err());
        assert!(v.verify(&[good[0], good[0]]).is_err());
        assert!(v.verify(&[99]).is_err());
    }

    /// The colour rule is read from the target for each placement a solution uses: a
    /// placement that breaks it is refused every time, one that keeps it is accepted every
    /// time (a table built without the rule holds both).
    #[test]
    fn the_colour_rule_is_checked_for_every_placement_every_time() {
        let text = |rule: &str| {
            format!(
                r##"{{"target": {{"box": [2,1,1]}}, "pieces": [{{"name": "M", "cells": [[0,0,0]], "colours": [1], "count": 2}}]{rule}}}"##
            )
        };
        let ruled = parse_puzzle(
            &text(r#", "colours": {"pairs": [[1, 1]], "target": [[0,0,0,1],[1,0,0,2]]}"#),
            "t",
        )
        .unwrap();
        let free = parse_puzzle(&text(""), "t").unwrap();
        let t = PlacementTable::new(&free).unwrap();
        assert_eq!(t.len(), 2);
        let v = Verifier::new(&ruled, &t);
        let at = |x: i32| {
            (0..t.len() as u32)
                .find(|&o| {
                    ruled.target.cells()[t.placements()[o as usize].cells[0] as usize].pos
                        == [x, 0, 0]
                })
                .unwrap()
        };
        let (fits, breaks) = (at(0), at(1));
        for _ in 0..2 {
            assert!(v.verify(&[fits]).is_err(), "one cell left empty");
            let mut both = vec![fits, breaks];
            both.sort_unstable();
            let e = v.verify(&both).unwrap_err().to_string();
            assert!(
                e.contains(&format!(
                    "placement {breaks} puts colour 1 on a cell of colour 2"
                )),
                "{e}"
            );
        }
    }
}
