//! The prism grid (BurrTools' grid 1): triangular prisms stacked in layers, their 24 symmetries, BurrTools' voxel coordinates and the layer frame people type them in.
//!
//! A cell is `[u, v, z]`: its triangle's centroid at `(u / 2, v · √3 / 6)` for triangles of
//! side 1, and layer `z` of height 1. Triangles pointing up (apex towards +y) have
//! `v ≡ 1 (mod 3)`, those pointing down `v ≡ 2`, and `u ≡ v (mod 2)` for both; so the twelve
//! rotations of the hexagonal prism about a lattice vertex and their mirror images are
//! matrices over 2, exact on every cell. Moving a piece keeps each triangle's direction: the
//! translations are `[2i + j, 3j, k]`.
//!
//! BurrTools stores triangle `x` of row `y` (voxel `[x, y, z]`), pointing up when `x + y` is
//! even, its centroid at `(x / 2 + 1/2, y · √3 / 2 + √3 / 6)` (`/ 3` down): that is
//! `u = x + 1` and `v = 3y + 1` (up) or `3y + 2` (down). People type and read the rows top
//! down, as layer art is printed: typed cell `[x, j, z]` is BurrTools' voxel `[x, -j, z]`, so
//! triangle `[0, 0]` of the art points up, its right neighbour down, and the triangle under
//! an upward one (row `j + 1`) shares its base.

use std::sync::OnceLock;

use super::kind::{CellShape, Frame, GridKind};
use super::{Cell, Transform};

/// The prism grid's answers (see [`GridKind`]).
pub(super) struct Prisms;

/// The offsets to the cells that share a face: for an upward triangle `[±1, 1, 0]` (its
/// left and right neighbours) and `[0, -2, 0]` (the one under its base), for a downward one
/// `[±1, -1, 0]` and `[0, 2, 0]`; and the prisms above and below. The others of the eight
/// land on no cell.
const NEIGHBOURS: [Cell; 8] = [
    [-1, 1, 0],
    [1, 1, 0],
    [0, -2, 0],
    [-1, -1, 0],
    [1, -1, 0],
    [0, 2, 0],
    [0, 0, -1],
    [0, 0, 1],
];

impl GridKind for Prisms {
    fn name(&self) -> &'static str {
        "prisms"
    }
    fn burrtools_type(&self) -> Option<u32> {
        Some(1)
    }
    fn title(&self) -> &'static str {
        "the prism grid"
    }
    fn cell_noun(&self) -> &'static str {
        "prism"
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
    fn slide_axes(&self) -> &'static [Cell] {
        // BurrTools' order (movementcache_1.cpp): along z, then along the three sides of the
        // triangles, its voxel steps (2, 0, 0), (1, 1, 0) and (-1, 1, 0).
        &[[0, 0, 1], [2, 0, 0], [1, 3, 0], [-1, 3, 0]]
    }
    fn slide_sweep(&self, axis: usize, [_, v, _]: Cell) -> &'static [Cell] {
        // A triangle sliding one side's length along a side passes through the triangle
        // between it and where it lands (BurrTools' `checks` table, in these coordinates).
        const UP: [&[Cell]; 4] = [
            &[[0, 0, 1]],
            &[[1, 1, 0], [2, 0, 0]],
            &[[1, 1, 0], [1, 3, 0]],
            &[[-1, 1, 0], [-1, 3, 0]],
        ];
        const DOWN: [&[Cell]; 4] = [
            &[[0, 0, 1]],
            &[[1, -1, 0], [2, 0, 0]],
            &[[0, 2, 0], [1, 3, 0]],
            &[[0, 2, 0], [-1, 3, 0]],
        ];
        if v.rem_euclid(3) == 1 {
            UP[axis]
        } else {
            DOWN[axis]
        }
    }
    fn direction_names(&self) -> &'static [&'static str] {
        // In BurrTools' voxel axes: x along the rows, y across them (up the page).
        &["+z", "-z", "+x", "-x", "+x+y", "-x-y", "-x+y", "+x-y"]
    }
    fn symmetries_compose(&self) -> bool {
        true
    }
    #[inline]
    fn is_cell(&self, [u, v, _]: Cell) -> bool {
        (u - v).rem_euclid(2) == 0 && v.rem_euclid(3) != 0
    }
    #[inline]
    fn is_translation(&self, [u, v, _]: Cell) -> bool {
        v.rem_euclid(3) == 0 && (u - v / 3).rem_euclid(2) == 0
    }
    fn translation_below(&self, [u, v, z]: Cell) -> Cell {
        let j = v.div_euclid(3);
        [2 * (u - j).div_euclid(2) + j, 3 * j, z]
    }
    fn images(&self, t: &Transform, cells: &[Cell]) -> Option<Vec<Cell>> {
        // The symmetries fix a lattice vertex (the origin) and map every cell onto a cell.
        cells.iter().map(|&c| t.apply(c)).collect()
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &NEIGHBOURS
    }
    fn neighbour_offsets_of(&self, [_, v, _]: Cell) -> &'static [Cell] {
        const UP: [Cell; 5] = [[-1, 1, 0], [1, 1, 0], [0, -2, 0], [0, 0, -1], [0, 0, 1]];
        const DOWN: [Cell; 5] = [[-1, -1, 0], [1, -1, 0], [0, 2, 0], [0, 0, -1], [0, 0, 1]];
        if v.rem_euclid(3) == 1 { &UP } else { &DOWN }
    }
    fn centre(&self, [u, v, z]: Cell) -> [f64; 3] {
        [
            f64::from(u) / 2.0,
            f64::from(v) * 3f64.sqrt() / 6.0,
            f64::from(z) + 0.5,
        ]
    }
    fn polygon(&self, c: Cell) -> Option<Vec<[f64; 2]>> {
        let [x, y, _] = self.centre(c);
        let h = 3f64.sqrt() / 6.0;
        Some(if c[1].rem_euclid(3) == 1 {
            vec![[x - 0.5, y - h], [x + 0.5, y - h], [x, y + 2.0 * h]]
        } else {
            vec![[x - 0.5, y + h], [x, y - 2.0 * h], [x + 0.5, y + h]]
        })
    }
    fn transforms(&self) -> &'static [Transform] {
        transforms()
    }
    #[inline]
    fn typed(&self, c: Cell) -> Cell {
        let [x, y, z] = to_burrtools(c);
        [x, -y, z]
    }
    #[inline]
    fn typed_cell(&self, [x, j, z]: Cell) -> Cell {
        from_burrtools([x, -j, z])
    }
    fn typed_columns_per_cell(&self) -> i32 {
        // Neighbouring triangles of a row overlap by half their width.
        2
    }
    fn typed_translation(&self, [dx, dj, dz]: Cell) -> Cell {
        debug_assert!((dx + dj).rem_euclid(2) == 0);
        [dx, -3 * dj, dz]
    }
    fn typed_step_below(&self, [x, j, z]: Cell) -> Cell {
        // Typed rows keep BurrTools' parity: an even x + row step keeps directions.
        [x - (x + j).rem_euclid(2), j, z]
    }
    fn voxel_cell(&self, v: Cell) -> Option<Cell> {
        Some(from_burrtools(v))
    }
    fn cell_voxel(&self, c: Cell) -> Cell {
        to_burrtools(c)
    }
    fn burrtools_step_below(&self, [x, y, z]: Cell) -> Cell {
        // BurrTools keeps a triangle's direction by moving shapes only by an even x + y.
        [x - (x + y).rem_euclid(2), y, z]
    }
}

/// The cell of BurrTools' voxel `[x, y, z]` (every voxel is a prism).
fn from_burrtools([x, y, z]: Cell) -> Cell {
    [x + 1, 3 * y + 1 + (x + y).rem_euclid(2), z]
}

/// BurrTools' voxel of a cell.
fn to_burrtools([u, v, z]: Cell) -> Cell {
    [u - 1, v.div_euclid(3), z]
}

/// The prism grid's 24 symmetries: the six turns about the z axis through a lattice vertex
/// and those followed by the half turn about the x axis (the twelve proper ones, identity
/// first), then each composed with [`Transform::MIRROR_X`] in the same order.
pub(super) fn transforms() -> &'static [Transform] {
    static ALL: OnceLock<Vec<Transform>> = OnceLock::new();
    ALL.get_or_init(|| {
        // A sixth of a turn: (X, Y) -> (X/2 - √3 Y/2, √3 X/2 + Y/2), in these coordinates
        // u' = (u - v) / 2, v' = (3u + v) / 2.
        let sixth = Transform {
            m: [[1, -1, 0], [3, 1, 0], [0, 0, 2]],
            den: 2,
        };
        Transform::hexagonal_prism_group(sixth)
    })
}
