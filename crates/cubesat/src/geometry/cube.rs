//! The cube grid (BurrTools' grid 0): unit cubes touching across their faces, and the cube's 48 symmetries.

use std::sync::OnceLock;

use super::kind::{CellShape, Frame, GridKind};
use super::{Cell, Transform};

/// The cube grid's answers (see [`GridKind`]).
pub(super) struct Cubes;

/// The six orders of the three axes, in lexicographic order (the cube's rotations are built
/// in this order, and the STL mesher cuts a cube into six tetrahedra along them).
pub(crate) const AXIS_ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const NEIGHBOURS: [Cell; 6] = [
    [-1, 0, 0],
    [1, 0, 0],
    [0, -1, 0],
    [0, 1, 0],
    [0, 0, -1],
    [0, 0, 1],
];

impl GridKind for Cubes {
    fn name(&self) -> &'static str {
        "cubes"
    }
    fn burrtools_type(&self) -> Option<u32> {
        Some(0)
    }
    fn title(&self) -> &'static str {
        "the cube grid"
    }
    fn cell_noun(&self) -> &'static str {
        "cube"
    }
    fn connectivity(&self) -> &'static str {
        "face-connected"
    }
    fn cell_shape(&self) -> CellShape {
        CellShape::Cube
    }
    fn frame(&self) -> Frame {
        Frame::Lattice
    }
    fn slide_axes(&self) -> &'static [Cell] {
        &[[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    }
    fn slide_sweep(&self, axis: usize, _c: Cell) -> &'static [Cell] {
        // A cube slides straight into the next cell.
        const STEPS: [[Cell; 1]; 3] = [[[1, 0, 0]], [[0, 1, 0]], [[0, 0, 1]]];
        &STEPS[axis]
    }
    fn direction_names(&self) -> &'static [&'static str] {
        &["+x", "-x", "+y", "-y", "+z", "-z"]
    }
    fn symmetries_compose(&self) -> bool {
        true
    }
    #[inline]
    fn is_cell(&self, _: Cell) -> bool {
        true
    }
    #[inline]
    fn is_translation(&self, _: Cell) -> bool {
        true
    }
    fn translation_below(&self, corner: Cell) -> Cell {
        corner
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &NEIGHBOURS
    }
    fn centre(&self, c: Cell) -> [f64; 3] {
        c.map(|v| f64::from(v) + 0.5)
    }
    fn transforms(&self) -> &'static [Transform] {
        transforms()
    }
    #[inline]
    fn typed(&self, c: Cell) -> Cell {
        c
    }
    #[inline]
    fn typed_cell(&self, c: Cell) -> Cell {
        c
    }
    fn typed_translation(&self, d: Cell) -> Cell {
        d
    }
}

/// All 48 symmetries of the cube in a fixed order: the 24 proper rotations first (identity
/// first), then the 24 improper ones (each proper rotation composed with
/// [`Transform::MIRROR_X`]).
pub(super) fn transforms() -> &'static [Transform; 48] {
    static ALL: OnceLock<[Transform; 48]> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut proper = Vec::with_capacity(24);
        for axis in AXIS_ORDERS.map(|p| p.map(|a| a as u8)) {
            for bits in 0..8u8 {
                let sign = [
                    if bits & 1 == 0 { 1 } else { -1 },
                    if bits & 2 == 0 { 1 } else { -1 },
                    if bits & 4 == 0 { 1 } else { -1 },
                ];
                let t = Transform::signed_permutation(axis, sign);
                if t.is_proper() {
                    proper.push(t);
                }
            }
        }
        let improper: Vec<Transform> = proper
            .iter()
            .map(|r| r.compose(&Transform::MIRROR_X))
            .collect();
        let mut all = [Transform::IDENTITY; 48];
        for (slot, t) in all.iter_mut().zip(proper.iter().chain(improper.iter())) {
            *slot = *t;
        }
        all
    })
}
