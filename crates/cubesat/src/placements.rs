//! Every in-bounds placement of every piece, indexed by piece and by cell, and the exact-cover model built from them.
//!
//! A placement is one orientation of a piece translated so that all its cells are target cells
//! of one container. Placements are numbered deterministically: by piece, then orientation
//! (in [`crate::geometry::Shape::orientations`] order), then by the target cell its first
//! cell lands on. Placement `o` is option `o` of the model.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::{Error, Request, Result, bail};

use crate::geometry::{Shape, sub};
use crate::puzzle::Puzzle;
use cubesat_xc::{CellGeometry, ExactCover, Item};

/// Placements beyond this (an upper bound computed before enumerating) are refused.
pub const MAX_PLACEMENTS: u64 = 4_000_000;

/// One placement of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece.
    pub piece: u32,
    /// Index into the piece's orientations.
    pub orientation: u32,
    /// The target cells covered, ascending.
    pub cells: Vec<u32>,
}

/// All placements of a puzzle, with indexes.
#[derive(Clone, Debug)]
pub struct PlacementTable {
    placements: Vec<Placement>,
    by_piece: Vec<Vec<u32>>,
    by_cell: Vec<Vec<u32>>,
    orientations: Vec<Vec<Shape>>,
    /// Placements by fingerprint of (piece, cells); [`PlacementTable::find`] confirms the
    /// cells, so a fingerprint collision costs a comparison, never a wrong answer. Keyed by a
    /// number so that lookups (done for every symmetry and placement) allocate nothing.
    lookup: HashMap<u64, Vec<u32>, BuildHasherDefault<Fingerprinted>>,
    hints: Vec<u32>,
}

/// The key is already a fingerprint, so the map uses it as its own hash instead of hashing
/// it again.
#[derive(Default)]
struct Fingerprinted(u64);

impl Hasher for Fingerprinted {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in for completeness.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A 64-bit fingerprint of a placement: the piece and the cell indices folded in word by word
/// with a multiply-rotate mix (the Fx hash step), finished with a xor-shift so low bits vary.
fn fingerprint(piece: u32, cells: &[u32]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = 0;
    for x in std::iter::once(piece).chain(cells.iter().copied()) {
        h = (h.rotate_left(5) ^ x as u64).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

impl PlacementTable {
    /// Enumerates every placement; refuses puzzles whose placements would not fit in memory.
    pub fn new(puzzle: &Puzzle) -> Result<PlacementTable> {
        let target = &puzzle.target;
        let orientations: Vec<Vec<Shape>> = puzzle
            .pieces
            .iter()
            .map(|p| p.shape.orientations(puzzle.mirror))
            .collect();
        let bound: u64 =
            orientations.iter().map(|o| o.len() as u64).sum::<u64>() * target.cells().len() as u64;
        if bound > MAX_PLACEMENTS {
            return Err(Error::unsupported(
                Request::Size,
                format!(
                    "the puzzle may have up to {bound} placements (orientations x target cells), more than the {MAX_PLACEMENTS} cubesat handles"
                ),
            ));
        }
        let mut placements = Vec::new();
        let mut by_piece = vec![Vec::new(); puzzle.pieces.len()];
        let mut by_cell = vec![Vec::new(); target.cells().len()];
        let mut lookup: HashMap<u64, Vec<u32>, BuildHasherDefault<Fingerprinted>> =
            HashMap::default();
        for (pi, orients) in orientations.iter().enumerate() {
            for (oi, shape) in orients.iter().enumerate() {
                let anchor = shape.cells()[0];
                'cells: for tc in target.cells() {
                    let offset = sub(tc.pos, anchor);
                    let mut cells = Vec::with_capacity(shape.len());
                    for &c in shape.cells() {
                        let pos = [c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]];
                        match target.cell_at(pos) {
                            Some(t) if target.cells()[t as usize].container == tc.container => {
                                cells.push(t)
                            }
                            _ => continue 'cells,
                        }
                    }
                    cells.sort_unstable();
                    let id = placements.len() as u32;
                    for &t in &cells {
                        by_cell[t as usize].push(id);
                    }
                    by_piece[pi].push(id);
                    lookup
                        .entry(fingerprint(pi as u32, &cells))
                        .or_default()
                        .push(id);
                    placements.push(Placement {
                        piece: pi as u32,
                        orientation: oi as u32,
                        cells,
                    });
                }
            }
        }
        let mut table = PlacementTable {
            placements,
            by_piece,
            by_cell,
            orientations,
            lookup,
            hints: Vec::new(),
        };
        let mut hints = Vec::new();
        for (i, h) in puzzle.hints.iter().enumerate() {
            let cells: Option<Vec<u32>> = h.cells.iter().map(|&c| target.cell_at(c)).collect();
            let found = cells.and_then(|mut c| {
                c.sort_unstable();
                table.find(h.piece as u32, &c)
            });
            match found {
                Some(id) => hints.push(id),
                // The reader checked hints against the piece and target already.
                None => bail!("hints[{i}] matches no placement of its piece"),
            }
        }
        hints.sort_unstable();
        table.hints = hints;
        Ok(table)
    }

    /// All placements; placement `o` is option `o` of [`PlacementTable::model`].
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// True when no piece fits anywhere.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// The placements of each piece, ascending.
    pub fn by_piece(&self) -> &[Vec<u32>] {
        &self.by_piece
    }

    /// The placements covering each target cell, ascending.
    pub fn by_cell(&self) -> &[Vec<u32>] {
        &self.by_cell
    }

    /// Each piece's distinct orientations.
    pub fn orientations(&self) -> &[Vec<Shape>] {
        &self.orientations
    }

    /// The placements fixed by hints, ascending.
    pub fn hints(&self) -> &[u32] {
        &self.hints
    }

    /// The placement of `piece` covering exactly `cells` (ascending), if any.
    pub fn find(&self, piece: u32, cells: &[u32]) -> Option<u32> {
        self.lookup
            .get(&fingerprint(piece, cells))?
            .iter()
            .copied()
            .find(|&id| {
                let p = &self.placements[id as usize];
                p.piece == piece && p.cells == cells
            })
    }

    /// Reasons, found without a search, why the puzzle has no solution: a piece that fits
    /// nowhere in the target, or a container whose cells no selection of whole pieces can
    /// fill (pieces are never split between containers). Empty when none is found, which
    /// does not mean a solution exists.
    pub fn obstacles(&self, puzzle: &Puzzle) -> Vec<String> {
        let mut out = Vec::new();
        for (i, p) in puzzle.pieces.iter().enumerate() {
            if p.count > 0 && self.by_piece[i].is_empty() {
                let [x, y, z] = p.shape.size();
                out.push(format!(
                    "piece '{}' ({} cells, {x}x{y}x{z}) fits nowhere in the target",
                    p.name,
                    p.shape.len()
                ));
            }
        }
        let target = &puzzle.target;
        if target.containers().len() > 1 {
            // The volumes a selection of whole piece copies can have (a bounded subset sum).
            let cap = target.cells().len();
            let mut reach = vec![false; cap + 1];
            reach[0] = true;
            for p in &puzzle.pieces {
                for _ in 0..p.count {
                    let v = p.shape.len();
                    for s in (v..=cap).rev() {
                        reach[s] |= reach[s - v];
                    }
                }
            }
            for (ci, c) in target.containers().iter().enumerate() {
                let must = c
                    .cells
                    .iter()
                    .filter(|&&t| !target.cells()[t as usize].optional)
                    .count();
                let all = c.cells.len();
                if !(must..=all).any(|v| reach[v]) {
                    let need = if must == all {
                        format!("{must} cells")
                    } else {
                        format!("between {must} and {all} cells")
                    };
                    out.push(format!(
                        "container {ci} needs {need}, and no selection of whole pieces has that volume (pieces are never split between containers)"
                    ));
                }
            }
        }
        out
    }

    /// The exact-cover model: piece items first (need = count), then one item per target cell
    /// (need 1, or 0 for an optional cell); option `o` is placement `o`; hints are forced.
    pub fn model(&self, puzzle: &Puzzle) -> ExactCover {
        let target = &puzzle.target;
        let pieces = puzzle.pieces.len() as u32;
        let mut items: Vec<Item> = puzzle
            .pieces
            .iter()
            .map(|p| Item {
                name: p.name.clone(),
                need: p.count,
            })
            .collect();
        for (i, c) in target.cells().iter().enumerate() {
            let (ci, l) = target.local(i as u32);
            let name = if target.containers().len() > 1 {
                format!("{ci}:{},{},{}", l[0], l[1], l[2])
            } else {
                format!("{},{},{}", l[0], l[1], l[2])
            };
            items.push(Item {
                name,
                need: if c.optional { 0 } else { 1 },
            });
        }
        let options = self
            .placements
            .iter()
            .map(|p| {
                let mut items = Vec::with_capacity(p.cells.len() + 1);
                items.push(p.piece);
                items.extend(p.cells.iter().map(|&c| pieces + c));
                items
            })
            .collect();
        let neighbors = target
            .cells()
            .iter()
            .map(|c| {
                let mut n: Vec<u32> = crate::geometry::face_neighbors(c.pos)
                    .iter()
                    .filter_map(|&p| target.cell_at(p))
                    .collect();
                n.sort_unstable();
                n
            })
            .collect();
        ExactCover {
            items,
            options,
            forced: self.hints.clone(),
            geometry: Some(CellGeometry {
                first_cell: pieces,
                neighbors,
                piece_sizes: puzzle.pieces.iter().map(|p| p.shape.len() as u32).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::json::parse_puzzle;

    #[test]
    fn dominoes_in_a_2x2_box() {
        let p = parse_puzzle(
            r##"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]}]}"##,
            "t",
        )
        .unwrap();
        let t = PlacementTable::new(&p).unwrap();
        // Two orientations in the plane (x and y) and one along z that never fits.
        assert_eq!(t.len(), 4);
        assert_eq!(t.by_cell()[0].len(), 2);
        let m = t.model(&p);
        m.validate().unwrap();
        assert_eq!(m.items[0].need, 2);
        assert_eq!(m.options[0][0], 0);
    }

    #[test]
    fn placements_never_straddle_containers() {
        let p = parse_puzzle(
            r##"{"target": {"boxes": [[1,1,1],[1,1,1]]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0],[2,0,0]]}, {"name": "x", "allow": 1, "cells": [[0,0,0]]}]}"##,
            "t",
        );
        assert!(p.is_err()); // unknown key
        let p = parse_puzzle(
            r##"{"target": {"boxes": [[1,1,1],[1,1,1]]}, "allow_disconnected": true, "pieces": [{"name": "D", "cells": [[0,0,0],[2,0,0]]}]}"##,
            "t",
        )
        .unwrap();
        // The two boxes sit two apart along x, but a piece cannot be in both.
        assert_eq!(PlacementTable::new(&p).unwrap().len(), 0);
    }
}
