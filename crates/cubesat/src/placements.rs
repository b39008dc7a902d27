//! Every in-bounds placement of every piece, indexed by piece and by cell, and the exact-cover model built from them.
//!
//! A placement is one orientation of a piece translated so that all its cells are target cells
//! of one container. Placements are numbered deterministically: by piece, then orientation
//! (in [`crate::geometry::Shape::orientations`] order), then by the target cell its first
//! cell lands on. Placement `o` is option `o` of the model.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::{Error, Request, Result, bail};

use crate::geometry::{Cell, Shape, sub};
use crate::puzzle::{Puzzle, Target, TargetCell};
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
    /// The piece colour on each of `cells` (aligned with them); empty for an uncoloured
    /// piece. Two placements of one piece may cover the same cells with different colours.
    pub colours: Vec<u8>,
}

/// All placements of a puzzle, with indexes.
#[derive(Clone, Debug)]
pub struct PlacementTable {
    placements: Vec<Placement>,
    by_piece: Vec<Vec<u32>>,
    by_cell: Vec<Vec<u32>>,
    orientations: Vec<Vec<Shape>>,
    orientation_colours: Vec<Vec<Vec<u8>>>,
    /// Placements by fingerprint of (piece, cells); [`PlacementTable::find`] confirms the
    /// cells, so a fingerprint collision costs a comparison, never a wrong answer. Keyed by a
    /// number so that lookups (done for every symmetry and placement) allocate nothing. It
    /// holds the first placement of each fingerprint, `same_print` the next one of the same
    /// fingerprint (`u32::MAX` ends the chain): no list per key to allocate and follow.
    lookup: HashMap<u64, u32, BuildHasherDefault<Fingerprinted>>,
    same_print: Vec<u32>,
    /// Each target cell's word in [`fingerprint`].
    prints: Vec<u64>,
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

/// A well-mixed 64-bit word for `x` (the SplitMix64 finaliser).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A 64-bit fingerprint of a placement that does not depend on the order of its cells: the
/// sum of a mixed word per cell (`prints`, one per target cell, [`mix`] of its index) and
/// one for the piece, so that a symmetry's image of a placement is looked up without
/// sorting its cells.
fn fingerprint(prints: &[u64], piece: u32, cells: &[u32]) -> u64 {
    cells.iter().fold(mix(u64::from(piece) | 1 << 32), |h, &c| {
        h.wrapping_add(prints.get(c as usize).copied().unwrap_or(0))
    })
}

/// Each piece's orientations, and each orientation's colour layout.
type Orientations = (Vec<Vec<Shape>>, Vec<Vec<Vec<u8>>>);

/// Placements by fingerprint, as [`PlacementTable`] keeps them.
type Lookup = HashMap<u64, u32, BuildHasherDefault<Fingerprinted>>;

/// Each piece's orientations and their colour layouts, refused when the placements they
/// could make (orientations x target cells) exceed [`MAX_PLACEMENTS`].
fn bounded_orientations(puzzle: &Puzzle) -> Result<Orientations> {
    // Moved apart, not copied: a large piece's 24 orientations are a third of a megabyte.
    let (orientations, orientation_colours): Orientations = puzzle
        .pieces
        .iter()
        .map(|p| p.orientations(puzzle.mirror).into_iter().unzip())
        .unzip();
    let bound: u64 = orientations.iter().map(|o| o.len() as u64).sum::<u64>()
        * puzzle.target.cells().len() as u64;
    if bound > MAX_PLACEMENTS {
        return Err(Error::unsupported(
            Request::Size,
            format!(
                "the puzzle may have up to {bound} placements (orientations x target cells), more than the {MAX_PLACEMENTS} cubesat handles"
            ),
        ));
    }
    Ok((orientations, orientation_colours))
}

/// A position's index in a dense grid of `size` (x fastest): with it, a shape cell's
/// position in the target's dense index is the anchor's plus a step fixed per orientation.
#[inline]
fn linear(size: [i32; 3], c: [i32; 3]) -> i64 {
    (i64::from(c[2]) * i64::from(size[1]) + i64::from(c[1])) * i64::from(size[0]) + i64::from(c[0])
}

/// The enumeration of placements, orientation by orientation: what every orientation reads
/// of the puzzle, scratch reused between candidates, and the placements found so far.
struct Enumeration<'p> {
    puzzle: &'p Puzzle,
    target: &'p Target,
    /// The target's dense index (its grid size and the cell at each position), when it has
    /// one.
    dense: Option<([i32; 3], &'p [u32])>,
    /// More than one container: a candidate's cells must all lie in its anchor's.
    several: bool,
    /// The puzzle pairs colours: a candidate's colours must be allowed on its cells.
    colour_rule: bool,
    /// The cells of a candidate placement.
    cells: Vec<u32>,
    /// With a dense index, each shape cell's position in it relative to the shape's first
    /// cell: one addition and one load per cell of a candidate.
    steps: Vec<i64>,
    placements: Vec<Placement>,
    by_piece: Vec<Vec<u32>>,
}

impl<'p> Enumeration<'p> {
    fn new(puzzle: &'p Puzzle) -> Enumeration<'p> {
        let target = &puzzle.target;
        Enumeration {
            puzzle,
            target,
            dense: target.dense_index(),
            several: target.containers().len() > 1,
            colour_rule: puzzle.colour_pairs.is_some(),
            cells: Vec::new(),
            steps: Vec::new(),
            placements: Vec::new(),
            by_piece: vec![Vec::new(); puzzle.pieces.len()],
        }
    }

    /// Every placement of orientation `oi` of piece `pi` (`shape`, coloured `ocol`), in the
    /// order of the target cell its first cell lands on.
    fn place(&mut self, pi: usize, oi: usize, shape: &Shape, ocol: &[u8]) {
        let target = self.target;
        let anchor = shape.cells()[0];
        let size = shape.size();
        // Where the shape's cells start: the origin, or a little past it where the grid's
        // translations do not reach the corner (see `Grid::normal_offset`).
        let lo = crate::geometry::min_corner(shape.cells()).unwrap_or([0; 3]);
        if let Some((gsize, _)) = self.dense {
            self.steps.clear();
            self.steps
                .extend(shape.cells().iter().map(|&c| linear(gsize, sub(c, anchor))));
        }
        let grid = self.puzzle.grid;
        for tc in anchor_runs(target, anchor, lo, size).map(|&t| &target.cells()[t as usize]) {
            let offset = sub(tc.pos, anchor);
            // A move, not a turn: on the prism grid an upward triangle may not land on a
            // downward one (the turned shape is an orientation of its own).
            if !grid.is_translation(offset) {
                continue;
            }
            // The shape's box (normalised, from the origin) must lie in the container's:
            // most candidates of a large piece fail here without a lookup.
            let c = &target.containers()[tc.container as usize];
            if (0..3).any(|a| {
                offset[a] + lo[a] < c.origin[a] || offset[a] + size[a] > c.origin[a] + c.size[a]
            }) {
                continue;
            }
            if !self.translate(shape, ocol, tc, offset) {
                continue;
            }
            let (cells, colours) = ascending(&mut self.cells, ocol);
            let id = self.placements.len() as u32;
            self.by_piece[pi].push(id);
            self.placements.push(Placement {
                piece: pi as u32,
                orientation: oi as u32,
                cells,
                colours,
            });
        }
    }

    /// Fills `cells` with the target cells of `shape` moved by `offset` (its first cell on
    /// `tc`); false when one is outside the target or `tc`'s container, or the colour rule
    /// forbids it.
    #[inline]
    fn translate(&mut self, shape: &Shape, ocol: &[u8], tc: &TargetCell, offset: Cell) -> bool {
        let (puzzle, target, dense) = (self.puzzle, self.target, self.dense);
        let (several, colour_rule) = (self.several, self.colour_rule);
        let (cells, steps) = (&mut self.cells, &self.steps);
        cells.clear();
        let base = dense.map_or(0, |(gsize, _)| linear(gsize, tc.pos));
        for (k, &sc) in shape.cells().iter().enumerate() {
            let found = match dense {
                // The container's box lies in the index's, so every position
                // of the shape there is in it.
                Some((_, index)) => usize::try_from(base + steps[k])
                    .ok()
                    .and_then(|i| index.get(i).copied())
                    .filter(|&t| t != u32::MAX),
                None => target.cell_at(crate::geometry::add(sc, offset)),
            };
            let Some(t) = found else {
                return false;
            };
            if several && target.cells()[t as usize].container != tc.container {
                return false;
            }
            // The colour rule only removes placements.
            if colour_rule {
                let pc = ocol.get(k).copied().unwrap_or(0);
                if !puzzle.colour_allowed(pc, target.colour(t)) {
                    return false;
                }
            }
            cells.push(t)
        }
        true
    }
}

/// The target cells a shape's first cell (`anchor`, in a shape whose box runs from `lo` to
/// `size`) may land on: target cells come by container, then (z, y, x), so the anchors whose
/// layer lets the shape's box fit each container's are a run of them.
fn anchor_runs(
    target: &Target,
    anchor: Cell,
    lo: Cell,
    size: [i32; 3],
) -> impl Iterator<Item = &u32> {
    target.containers().iter().flat_map(move |c| {
        let z = |t: &u32| target.cells()[*t as usize].pos[2];
        let first = c.origin[2] + anchor[2] - lo[2];
        let last = c.origin[2] + c.size[2] - size[2] + anchor[2];
        let start = c.cells.partition_point(|t| z(t) < first);
        let end = c.cells.partition_point(|t| z(t) <= last).max(start);
        &c.cells[start..end]
    })
}

/// A placement's cells (from the scratch `cells`) and colours (`ocol`, aligned with them),
/// both sorted by cell.
#[inline]
fn ascending(cells: &mut [u32], ocol: &[u8]) -> (Vec<u32>, Vec<u8>) {
    // Target cells are numbered by container, then (z, y, x), as a shape's
    // cells are sorted, so a translate's cells come ascending, colours aligned.
    if cells.is_sorted() {
        (cells.to_vec(), ocol.to_vec())
    } else if ocol.is_empty() {
        cells.sort_unstable();
        (cells.to_vec(), Vec::new())
    } else {
        let mut pairs: Vec<(u32, u8)> = cells.iter().copied().zip(ocol.iter().copied()).collect();
        pairs.sort_unstable();
        (
            pairs.iter().map(|p| p.0).collect(),
            pairs.into_iter().map(|p| p.1).collect(),
        )
    }
}

/// The indexes of `placements`: by cell, sized first (growing a list per cell placement by
/// placement cost more than filling them), and by fingerprint, with the chain of placements
/// sharing one (see [`PlacementTable`]'s `lookup`).
fn index_placements(
    placements: &[Placement],
    ncells: usize,
    prints: &[u64],
) -> (Vec<Vec<u32>>, Lookup, Vec<u32>) {
    let mut counts = vec![0u32; ncells];
    for p in placements {
        for &t in &p.cells {
            counts[t as usize] += 1;
        }
    }
    let mut by_cell: Vec<Vec<u32>> = counts
        .iter()
        .map(|&n| Vec::with_capacity(n as usize))
        .collect();
    let mut lookup: Lookup =
        HashMap::with_capacity_and_hasher(placements.len(), Default::default());
    let mut same_print = Vec::with_capacity(placements.len());
    for (id, p) in placements.iter().enumerate() {
        for &t in &p.cells {
            by_cell[t as usize].push(id as u32);
        }
        // Newest first: the chain stays valid as placements are added.
        let next = lookup.insert(fingerprint(prints, p.piece, &p.cells), id as u32);
        same_print.push(next.unwrap_or(u32::MAX));
    }
    (by_cell, lookup, same_print)
}

impl PlacementTable {
    /// Enumerates every placement; refuses puzzles whose placements would not fit in memory.
    pub fn new(puzzle: &Puzzle) -> Result<PlacementTable> {
        let (orientations, orientation_colours) = bounded_orientations(puzzle)?;
        let mut enumeration = Enumeration::new(puzzle);
        for (pi, orients) in orientations.iter().enumerate() {
            for (oi, shape) in orients.iter().enumerate() {
                enumeration.place(pi, oi, shape, &orientation_colours[pi][oi]);
            }
        }
        let Enumeration {
            placements,
            by_piece,
            ..
        } = enumeration;
        let ncells = puzzle.target.cells().len();
        let prints: Vec<u64> = (0..ncells as u64).map(mix).collect();
        let (by_cell, lookup, same_print) = index_placements(&placements, ncells, &prints);
        let mut table = PlacementTable {
            placements,
            by_piece,
            by_cell,
            orientations,
            orientation_colours,
            lookup,
            same_print,
            prints,
            hints: Vec::new(),
        };
        table.hints = table.hint_placements(puzzle)?;
        Ok(table)
    }

    /// The placements of the puzzle's hints, ascending.
    fn hint_placements(&self, puzzle: &Puzzle) -> Result<Vec<u32>> {
        let mut hints = Vec::new();
        for (i, h) in puzzle.hints.iter().enumerate() {
            let cells: Option<Vec<u32>> =
                h.cells.iter().map(|&c| puzzle.target.cell_at(c)).collect();
            let found = cells.and_then(|mut c| {
                c.sort_unstable();
                self.find(h.piece as u32, &c)
            });
            match found {
                Some(id) => hints.push(id),
                // The reader checked hints against the piece and target already.
                None => bail!("hints[{i}] matches no placement of its piece"),
            }
        }
        hints.sort_unstable();
        Ok(hints)
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

    /// Each piece's orientations' colour layouts (aligned with the shapes' cells; empty for
    /// an uncoloured piece).
    pub fn orientation_colours(&self) -> &[Vec<Vec<u8>>] {
        &self.orientation_colours
    }

    /// The placement of `piece` covering exactly `cells` (ascending) with these colours
    /// (aligned with `cells`; empty for an uncoloured piece), if any.
    pub fn find_coloured(&self, piece: u32, cells: &[u32], colours: &[u8]) -> Option<u32> {
        self.with_cells(piece, cells).find(|&id| {
            let p = &self.placements[id as usize];
            p.piece == piece && p.cells == cells && p.colours == colours
        })
    }

    /// Candidates for the placement of `piece` covering `cells`, given in any order: every
    /// such placement is among them, with others whose fingerprint agrees by chance; the
    /// caller compares.
    pub(crate) fn with_cells(&self, piece: u32, cells: &[u32]) -> impl Iterator<Item = u32> + '_ {
        self.same_fingerprint(piece, cells)
    }

    /// The placements whose fingerprint is that of (`piece`, `cells`).
    fn same_fingerprint(&self, piece: u32, cells: &[u32]) -> impl Iterator<Item = u32> + '_ {
        let first = self
            .lookup
            .get(&fingerprint(&self.prints, piece, cells))
            .copied();
        std::iter::successors(first, |&id| {
            let next = self.same_print[id as usize];
            (next != u32::MAX).then_some(next)
        })
    }

    /// The placements fixed by hints, ascending.
    pub fn hints(&self) -> &[u32] {
        &self.hints
    }

    /// The placement of `piece` covering exactly `cells` (ascending), if any.
    pub fn find(&self, piece: u32, cells: &[u32]) -> Option<u32> {
        self.same_fingerprint(piece, cells).find(|&id| {
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
        let nowhere: Vec<&crate::puzzle::Piece> = puzzle
            .pieces
            .iter()
            .enumerate()
            .filter(|&(i, p)| p.count > 0 && self.by_piece[i].is_empty())
            .map(|(_, p)| p)
            .collect();
        // One line each for the first few; the rest are counted (see `crate::echo`).
        for p in nowhere.iter().take(crate::echo::MAX_ITEMS) {
            let [x, y, z] = p.shape.size();
            out.push(format!(
                "piece '{}' ({}, {x}x{y}x{z}) fits nowhere in the target",
                p.name,
                crate::echo::plural(p.shape.len() as u64, "cell")
            ));
        }
        if nowhere.len() > crate::echo::MAX_ITEMS {
            out.push(format!(
                "{} more pieces fit nowhere in the target",
                nowhere.len() - crate::echo::MAX_ITEMS
            ));
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
                        crate::echo::plural(must as u64, "cell")
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

    /// The exact-cover model: piece items first (exact of `count`, or ranged `min..=count`),
    /// then one item per target cell (exact of 1, or secondary for an optional cell); option
    /// `o` is placement `o`; hints are forced. A puzzle with piece ranges and optional cells
    /// gets holes besides (see [`PlacementTable::hole_item`]); a hole limit is part of the
    /// model, so every cover is a solution.
    pub fn model(&self, puzzle: &Puzzle) -> ExactCover {
        let target = &puzzle.target;
        let pieces = puzzle.pieces.len() as u32;
        let holes = self.holes(puzzle);
        let mut items: Vec<Item> = puzzle
            .pieces
            .iter()
            .map(|p| Item::range(p.name.clone(), p.min_count, p.count))
            .collect();
        let mut piece_sizes: Vec<u32> =
            puzzle.pieces.iter().map(|p| p.shape.len() as u32).collect();
        if let Some(h) = holes {
            items.push(Item::range("holes", 0, h));
            piece_sizes.push(1);
        }
        let first_cell = items.len() as u32;
        // Holes fill the optional cells left empty, so those cells are must-fill; so are they
        // under a hole limit that no cover meets: 0, or with fixed counts (whose covers all
        // leave the cells the pieces' volume does not fill empty) one below that number, when
        // the model then has no solution, as the puzzle has none. A hole limit the fixed
        // counts always meet says nothing.
        let fixed_holes =
            target.cells().len() as u64 - puzzle.piece_volume().min(target.cells().len() as u64);
        let unmet = puzzle
            .max_holes
            .is_some_and(|h| h == 0 || !puzzle.has_ranges() && u64::from(h) < fixed_holes);
        let must_fill_all = holes.is_some() || unmet;
        for (i, c) in target.cells().iter().enumerate() {
            let (ci, l) = target.local(i as u32);
            // Written into a string sized once: `format!` guesses four bytes and grows the
            // string twice or three times, for each of a large target's thousands of cells.
            let mut name = String::with_capacity(24);
            if target.containers().len() > 1 {
                let _ = write!(name, "{ci}:");
            }
            let _ = write!(name, "{},{},{}", l[0], l[1], l[2]);
            items.push(if c.optional && !must_fill_all {
                Item::secondary(name)
            } else {
                Item::exact(name, 1)
            });
        }
        let mut options: Vec<Vec<u32>> = self
            .placements
            .iter()
            .map(|p| {
                let mut items = Vec::with_capacity(p.cells.len() + 1);
                items.push(p.piece);
                items.extend(p.cells.iter().map(|&c| first_cell + c));
                items
            })
            .collect();
        if holes.is_some() {
            for (i, c) in target.cells().iter().enumerate() {
                if c.optional {
                    options.push(vec![pieces, first_cell + i as u32]);
                }
            }
        }
        let neighbors = target
            .cells()
            .iter()
            .map(|c| {
                let mut n: Vec<u32> = puzzle
                    .grid
                    .neighbour_offsets_of(c.pos)
                    .iter()
                    .filter_map(|&o| target.cell_at(crate::geometry::add(c.pos, o)))
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
                first_cell,
                neighbors,
                positions: target.cells().iter().map(|c| c.pos).collect(),
                piece_sizes,
                // A placement is a connected shape turned and moved on the grid whose
                // neighbours `neighbors` lists, so its cells are connected there (a hole is
                // one cell).
                connected: puzzle.pieces.iter().all(|p| p.shape.is_connected()),
            }),
        }
    }

    /// The most optional cells a solution may leave empty, when the model represents them
    /// by holes: for a puzzle with piece ranges and optional cells (and a hole limit other
    /// than 0), every optional cell is must-fill and an empty one is covered by a *hole*, an
    /// option of its own after the placements holding the cell and the ranged item
    /// `holes` (`0..=limit`, item `pieces`, before the cells). A solution's placements are
    /// then the prefix of its options below [`PlacementTable::len`], each solution of the
    /// puzzle has exactly one such cover, and every option holds an exact item (a cell), so
    /// the engines never branch on how many copies of a ranged piece to use: the cells
    /// decide it. `None` for every other puzzle.
    pub fn hole_item(&self, puzzle: &Puzzle) -> Option<u32> {
        self.holes(puzzle).map(|_| puzzle.pieces.len() as u32)
    }

    /// The most holes the model's hole item allows (see [`PlacementTable::hole_item`]).
    pub fn hole_limit(&self, puzzle: &Puzzle) -> Option<u32> {
        self.holes(puzzle)
    }

    fn holes(&self, puzzle: &Puzzle) -> Option<u32> {
        let optional = puzzle.target.optional_count() as u32;
        if !puzzle.has_ranges() || optional == 0 {
            return None;
        }
        match puzzle.max_holes {
            Some(0) => None,
            Some(h) => Some(h.min(optional)),
            None => Some(optional),
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
        assert_eq!((m.items[0].min, m.items[0].max), (2, 2));
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
