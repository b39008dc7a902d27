//! The sphere grid (BurrTools' grid 2): balls in face-centred cubic packing, their 240 transforms and the layer frame people type them in.

use std::sync::OnceLock;

use super::kind::{CellShape, Frame, GridKind};
use super::{Cell, Transform, cube};

/// The sphere grid's answers (see [`GridKind`]): a ball at every `[x, y, z]` with
/// `x + y + z` even, touching the twelve at `(±1, ±1, 0)` and its permutations, at distance
/// `√2` in these coordinates.
pub(super) struct Spheres;

const NEIGHBOURS: [Cell; 12] = [
    [-1, -1, 0],
    [1, -1, 0],
    [-1, 1, 0],
    [1, 1, 0],
    [-1, 0, -1],
    [1, 0, -1],
    [0, -1, -1],
    [0, 1, -1],
    [-1, 0, 1],
    [1, 0, 1],
    [0, -1, 1],
    [0, 1, 1],
];

impl GridKind for Spheres {
    fn name(&self) -> &'static str {
        "spheres"
    }
    fn burrtools_type(&self) -> Option<u32> {
        Some(2)
    }
    fn title(&self) -> &'static str {
        "the sphere grid"
    }
    fn cell_noun(&self) -> &'static str {
        "ball"
    }
    fn connectivity(&self) -> &'static str {
        "connected (some balls touch none of the others)"
    }
    fn cell_shape(&self) -> CellShape {
        CellShape::Ball
    }
    fn frame(&self) -> Frame {
        Frame::Layers
    }
    fn symmetries_compose(&self) -> bool {
        // Two of the 240 can make a matrix with entries in Z/9, outside them.
        false
    }
    #[inline]
    fn is_cell(&self, c: Cell) -> bool {
        (c[0] + c[1] + c[2]).rem_euclid(2) == 0
    }
    #[inline]
    fn is_translation(&self, d: Cell) -> bool {
        // The balls are a lattice: its vectors are its moves.
        self.is_cell(d)
    }
    fn translation_below(&self, mut corner: Cell) -> Cell {
        if !self.is_cell(corner) {
            corner[0] -= 1;
        }
        corner
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &NEIGHBOURS
    }
    fn centre(&self, c: Cell) -> [f64; 3] {
        // Touching balls one unit apart.
        c.map(|v| f64::from(v) * std::f64::consts::FRAC_1_SQRT_2)
    }
    fn transforms(&self) -> &'static [Transform] {
        transforms()
    }
    #[inline]
    fn typed(&self, c: Cell) -> Cell {
        to_layer(c)
    }
    #[inline]
    fn typed_cell(&self, c: Cell) -> Cell {
        from_layer(c)
    }
    fn voxel_rule(&self) -> &'static str {
        "a ball only where x + y + z is even"
    }
    fn typed_translation(&self, d: Cell) -> Cell {
        // The layer frame is a linear map of the ball lattice.
        from_layer(d)
    }
}

/// The sphere grid's layer frame, in which people type and read ball puzzles: square layers
/// stacked as in a square pyramid. Ball `[i, j]` of layer `k` (column `i`, row `j` of the
/// layer's art) is cell `[i + j + k, i - j, k]`; ball `[i, j]` of layer `k + 1` rests in the
/// hollow between balls `[i, j]`, `[i + 1, j]`, `[i, j + 1]` and `[i + 1, j + 1]` of layer `k`,
/// so a pyramid's layers are written as squares of side n, n - 1, ..., 1, each from its own
/// corner, and a tetrahedron of edge n as rectangles k + 1 wide and n - k high, layer k
/// indented n - 1 - k columns (`puzzles/perplexing-pyramid.json`).
pub fn from_layer([i, j, k]: [i32; 3]) -> Cell {
    [i + j + k, i - j, k]
}

/// The inverse of [`from_layer`]: `[column, row, layer]` of a ball (a cell with `x + y + z`
/// even).
pub fn to_layer([x, y, z]: Cell) -> [i32; 3] {
    debug_assert!(Spheres.is_cell([x, y, z]));
    [(x - z + y) / 2, (x - z - y) / 2, z]
}

/// The sphere grid's 240 transforms: every orthogonal matrix whose entries are multiples of
/// 1/3. The 120 proper ones come first: the cube's 24 in their order, then the 96 others in
/// the order of their numerators; then the 120 improper ones, each proper one composed with
/// [`Transform::MIRROR_X`] in the same order (so the cube's 48 keep their order inside the
/// first half of each).
pub(super) fn transforms() -> &'static [Transform] {
    static ALL: OnceLock<Vec<Transform>> = OnceLock::new();
    ALL.get_or_init(|| {
        // Integer rows of squared length 9: the numerators of unit rows over 3.
        let mut rows: Vec<[i8; 3]> = Vec::new();
        for x in -3i8..=3 {
            for y in -3i8..=3 {
                for z in -3i8..=3 {
                    if i32::from(x * x + y * y + z * z) == 9 {
                        rows.push([x, y, z]);
                    }
                }
            }
        }
        let dot = |a: &[i8; 3], b: &[i8; 3]| (0..3).map(|k| a[k] * b[k]).sum::<i8>();
        let mut thirds = Vec::new();
        for a in &rows {
            for b in rows.iter().filter(|b| dot(a, b) == 0) {
                for c in rows.iter().filter(|c| dot(a, c) == 0 && dot(b, c) == 0) {
                    let t = Transform {
                        m: [*a, *b, *c],
                        den: 3,
                    };
                    // Signed permutations (every entry 0 or ±3) are the cube's, below.
                    if t.is_proper() && t.m.iter().flatten().any(|v| v.abs() != 3 && *v != 0) {
                        thirds.push(t);
                    }
                }
            }
        }
        let proper: Vec<Transform> = cube::transforms()[..24]
            .iter()
            .copied()
            .chain(thirds)
            .collect();
        let improper: Vec<Transform> = proper
            .iter()
            .map(|r| r.compose(&Transform::MIRROR_X))
            .collect();
        proper.into_iter().chain(improper).collect()
    })
}
