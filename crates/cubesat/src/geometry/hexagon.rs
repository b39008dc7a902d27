//! The hexagon grid: hexagonal prisms stacked in layers (one layer is a polyhex board), their 24 symmetries and the rows people type them in.
//!
//! A cell is `[u, v, z]`: its hexagon's centre at `(u / 2, v · √3 / 2)` for hexagons one unit
//! across their flat sides (side `1 / √3`), pointing up and down, so that rows of hexagons
//! run along x; and layer `z` of height 1. Centres are the triangular lattice, `u ≡ v (mod 2)`; the twelve
//! rotations of the hexagonal prism about a centre and their mirror images are matrices over
//! 2, exact on every cell, and every move between cells is a translation.
//!
//! People type hexagon `x` of row `j` (rows top down) as `[x, j, z]`, its centre at
//! `(x + j / 2, -j · √3 / 2)`: each row starts half a hexagon right of the one above, so a
//! rhombus board is a rectangle of art; `[x, j]` touches `[x ± 1, j]`, `[x, j ± 1]`,
//! `[x - 1, j + 1]` and `[x + 1, j - 1]`. BurrTools has no such grid.

use std::sync::OnceLock;

use super::kind::{CellShape, Frame, GridKind};
use super::{Cell, Transform};

/// The hexagon grid's answers (see [`GridKind`]).
pub(super) struct Hexagons;

/// The six hexagons around a cell in its layer, and the prisms above and below.
const NEIGHBOURS: [Cell; 8] = [
    [-2, 0, 0],
    [2, 0, 0],
    [-1, -1, 0],
    [1, -1, 0],
    [-1, 1, 0],
    [1, 1, 0],
    [0, 0, -1],
    [0, 0, 1],
];

impl GridKind for Hexagons {
    fn name(&self) -> &'static str {
        "hexagons"
    }
    fn burrtools_type(&self) -> Option<u32> {
        None
    }
    fn title(&self) -> &'static str {
        "the hexagon grid"
    }
    fn cell_noun(&self) -> &'static str {
        "hexagon"
    }
    fn connectivity(&self) -> &'static str {
        "face-connected"
    }
    fn cell_shape(&self) -> CellShape {
        CellShape::Prism
    }
    fn frame(&self) -> Frame {
        Frame::Layers
    }
    fn symmetries_compose(&self) -> bool {
        true
    }
    #[inline]
    fn is_cell(&self, [u, v, _]: Cell) -> bool {
        (u - v).rem_euclid(2) == 0
    }
    #[inline]
    fn is_translation(&self, d: Cell) -> bool {
        // The centres are a lattice: its vectors are its moves.
        self.is_cell(d)
    }
    fn translation_below(&self, [u, v, z]: Cell) -> Cell {
        [u - (u - v).rem_euclid(2), v, z]
    }
    fn images(&self, t: &Transform, cells: &[Cell]) -> Option<Vec<Cell>> {
        // The symmetries fix a centre (the origin) and map every cell onto a cell.
        cells.iter().map(|&c| t.apply(c)).collect()
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &NEIGHBOURS
    }
    fn centre(&self, [u, v, z]: Cell) -> [f64; 3] {
        [
            f64::from(u) / 2.0,
            f64::from(v) * 3f64.sqrt() / 2.0,
            f64::from(z) + 0.5,
        ]
    }
    fn polygon(&self, c: Cell) -> Option<Vec<[f64; 2]>> {
        let [x, y, _] = self.centre(c);
        // Corners at 30° + k·60°, at the circumradius 1/√3 of a hexagon 1 across.
        let r = 1.0 / 3f64.sqrt();
        Some(
            (0..6)
                .map(|k| {
                    let a = std::f64::consts::PI / 6.0 + f64::from(k) * std::f64::consts::PI / 3.0;
                    [x + r * a.cos(), y + r * a.sin()]
                })
                .collect(),
        )
    }
    fn transforms(&self) -> &'static [Transform] {
        transforms()
    }
    #[inline]
    fn typed(&self, [u, v, z]: Cell) -> Cell {
        [(u + v) / 2, -v, z]
    }
    #[inline]
    fn typed_cell(&self, [x, j, z]: Cell) -> Cell {
        [2 * x + j, -j, z]
    }
    fn typed_translation(&self, d: Cell) -> Cell {
        self.typed_cell(d)
    }
}

/// The hexagon grid's 24 symmetries: the six turns about the z axis through a centre and
/// those followed by the half turn about the x axis (the twelve proper ones, identity
/// first), then each composed with [`Transform::MIRROR_X`] in the same order.
pub(super) fn transforms() -> &'static [Transform] {
    static ALL: OnceLock<Vec<Transform>> = OnceLock::new();
    ALL.get_or_init(|| {
        // A sixth of a turn, (X, Y) -> (X/2 - √3 Y/2, √3 X/2 + Y/2): in these coordinates
        // u' = (u - 3v) / 2, v' = (u + v) / 2.
        let sixth = Transform {
            m: [[1, -3, 0], [1, 1, 0], [0, 0, 2]],
            den: 2,
        };
        Transform::hexagonal_prism_group(sixth)
    })
}
