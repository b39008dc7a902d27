//! Lattice geometry: the grids, cells, the 48 symmetries of the cube (24 proper rotations first), shapes and their distinct orientations.
//!
//! Coordinates are `[x, y, z]` integers. A [`Shape`] is a set of cells normalised so that its
//! bounding box starts at the origin, kept sorted, so two shapes are equal exactly when they are
//! translates of each other.

use std::collections::HashSet;
use std::sync::OnceLock;

/// A lattice cell `[x, y, z]`, in the grid's integer coordinates (see [`Grid`]).
pub type Cell = [i32; 3];

/// The lattice a puzzle lives on: what a cell is, which cells touch, and where a cell sits in
/// space. Cells are integer triples on every grid, as in BurrTools' files: the sphere grid
/// uses the cube grid's coordinates and holds a ball only where `x + y + z` is even.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grid {
    /// Unit cubes; cells touch across their six faces (BurrTools' grid 0).
    #[default]
    Cube,
    /// Balls in face-centred cubic packing (BurrTools' grid 2): a ball at every `[x, y, z]`
    /// with `x + y + z` even; each ball touches the twelve at `(±1, ±1, 0)` and its
    /// permutations, at distance `√2` in these coordinates.
    Sphere,
}

impl Grid {
    /// The name used in cubesat JSON (`"grid": "spheres"`) and messages.
    pub fn name(self) -> &'static str {
        match self {
            Grid::Cube => "cubes",
            Grid::Sphere => "spheres",
        }
    }

    /// BurrTools' `gridType` number.
    pub fn burrtools_type(self) -> u32 {
        match self {
            Grid::Cube => 0,
            Grid::Sphere => 2,
        }
    }

    /// True when `c` is a cell of this grid.
    pub fn is_cell(self, c: Cell) -> bool {
        match self {
            Grid::Cube => true,
            Grid::Sphere => (c[0] + c[1] + c[2]).rem_euclid(2) == 0,
        }
    }

    /// The offsets from a cell to the cells it touches (shares a face with, or, for balls,
    /// touches at a point).
    pub fn neighbour_offsets(self) -> &'static [Cell] {
        const CUBE: [Cell; 6] = [
            [-1, 0, 0],
            [1, 0, 0],
            [0, -1, 0],
            [0, 1, 0],
            [0, 0, -1],
            [0, 0, 1],
        ];
        const SPHERE: [Cell; 12] = [
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
        match self {
            Grid::Cube => &CUBE,
            Grid::Sphere => &SPHERE,
        }
    }

    /// The centre of a cell in space, in units of the cell size (a cube's edge, a ball's
    /// diameter): cube `c` spans `c..c+1`; ball `c` is centred at `c / √2`, so touching balls
    /// are one unit apart.
    pub fn centre(self, c: Cell) -> [f64; 3] {
        match self {
            Grid::Cube => c.map(|v| f64::from(v) + 0.5),
            Grid::Sphere => c.map(|v| f64::from(v) * std::f64::consts::FRAC_1_SQRT_2),
        }
    }
}

/// The sphere grid's layer frame, in which people type and read ball puzzles: square layers
/// stacked as in a square pyramid. Ball `[i, j]` of layer `k` (column `i`, row `j` of the
/// layer's art) is cell `[i + j + k, i - j, k]`; ball `[i, j]` of layer `k + 1` rests in the
/// hollow between balls `[i, j]`, `[i + 1, j]`, `[i, j + 1]` and `[i + 1, j + 1]` of layer `k`,
/// so a pyramid's layers are written as squares of side n, n - 1, ..., 1, each from its own
/// corner, and a tetrahedron as rectangles 1 x n, 2 x (n - 1), ..., n x 1.
pub fn sphere_from_layer([i, j, k]: [i32; 3]) -> Cell {
    [i + j + k, i - j, k]
}

/// The inverse of [`sphere_from_layer`]: `[column, row, layer]` of a ball (a cell with
/// `x + y + z` even).
pub fn sphere_to_layer([x, y, z]: Cell) -> [i32; 3] {
    debug_assert!(Grid::Sphere.is_cell([x, y, z]));
    [(x - z + y) / 2, (x - z - y) / 2, z]
}

/// One of the 48 symmetries of the cube fixing the origin: a signed permutation matrix.
///
/// `apply(c)[i] = sign[i] * c[axis[i]]`. Proper rotations have determinant +1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform {
    axis: [u8; 3],
    sign: [i8; 3],
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        axis: [0, 1, 2],
        sign: [1, 1, 1],
    };

    /// The reflection `x -> -x`, the mirror used to pair chiral pieces.
    pub const MIRROR_X: Transform = Transform {
        axis: [0, 1, 2],
        sign: [-1, 1, 1],
    };

    /// Applies the transform to a cell.
    pub fn apply(&self, c: Cell) -> Cell {
        [
            self.sign[0] as i32 * c[self.axis[0] as usize],
            self.sign[1] as i32 * c[self.axis[1] as usize],
            self.sign[2] as i32 * c[self.axis[2] as usize],
        ]
    }

    /// The determinant: +1 for a proper rotation, -1 for a reflection.
    pub(crate) fn determinant(&self) -> i32 {
        let parity = {
            // Count inversions of the axis permutation.
            let a = self.axis;
            let inv = (a[0] > a[1]) as i32 + (a[0] > a[2]) as i32 + (a[1] > a[2]) as i32;
            if inv % 2 == 0 { 1 } else { -1 }
        };
        parity * self.sign.iter().map(|&s| s as i32).product::<i32>()
    }

    /// True for the 24 proper rotations.
    pub fn is_proper(&self) -> bool {
        self.determinant() == 1
    }

    /// `self ∘ other`: apply `other` first, then `self`.
    pub(crate) fn compose(&self, other: &Transform) -> Transform {
        let mut axis = [0u8; 3];
        let mut sign = [0i8; 3];
        for i in 0..3 {
            let j = self.axis[i] as usize;
            axis[i] = other.axis[j];
            sign[i] = self.sign[i] * other.sign[j];
        }
        Transform { axis, sign }
    }

    /// All 48 transforms in a fixed order: the 24 proper rotations first (identity first),
    /// then the 24 improper ones (each proper rotation composed with [`Transform::MIRROR_X`]).
    pub fn all() -> &'static [Transform; 48] {
        static ALL: OnceLock<[Transform; 48]> = OnceLock::new();
        ALL.get_or_init(|| {
            let perms: [[u8; 3]; 6] = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ];
            let mut proper = Vec::with_capacity(24);
            for axis in perms {
                for bits in 0..8u8 {
                    let sign = [
                        if bits & 1 == 0 { 1 } else { -1 },
                        if bits & 2 == 0 { 1 } else { -1 },
                        if bits & 4 == 0 { 1 } else { -1 },
                    ];
                    let t = Transform { axis, sign };
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

    /// The 24 proper rotations, identity first.
    pub fn rotations() -> &'static [Transform] {
        &Transform::all()[..24]
    }
}

/// A finite set of cells up to translation: sorted, with its bounding box at the origin.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    cells: Vec<Cell>,
}

impl Shape {
    /// Normalises `cells` (translation to the origin, sorting, dropping duplicates).
    pub fn new(cells: impl IntoIterator<Item = Cell>) -> Shape {
        let mut cells: Vec<Cell> = cells.into_iter().collect();
        if let Some(min) = min_corner(&cells) {
            for c in &mut cells {
                *c = sub(*c, min);
            }
        }
        cells.sort_unstable_by_key(|c| zyx(*c));
        cells.dedup();
        Shape { cells }
    }

    /// The cells, sorted by (z, y, x).
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Number of cells (the volume).
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True for the empty shape.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Size of the bounding box, `[0, 0, 0]` for the empty shape.
    pub fn size(&self) -> [i32; 3] {
        let mut size = [0; 3];
        for c in &self.cells {
            for a in 0..3 {
                size[a] = size[a].max(c[a] + 1);
            }
        }
        size
    }

    /// The shape transformed by `t`, normalised again.
    pub fn transformed(&self, t: &Transform) -> Shape {
        Shape::new(self.cells.iter().map(|&c| t.apply(c)))
    }

    /// The mirror image (`x -> -x`).
    pub fn mirrored(&self) -> Shape {
        self.transformed(&Transform::MIRROR_X)
    }

    /// The distinct orientations under the 24 proper rotations, in the order of
    /// [`Transform::rotations`] (first occurrence kept), so the first is the shape itself.
    /// With `mirror`, the mirror images' orientations follow (a free piece).
    pub fn orientations(&self, mirror: bool) -> Vec<Shape> {
        let transforms: &[Transform] = if mirror {
            Transform::all()
        } else {
            Transform::rotations()
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for t in transforms {
            let s = self.transformed(t);
            if seen.insert(s.clone()) {
                out.push(s);
            }
        }
        out
    }

    /// A canonical representative of the shape's class under proper rotations (the smallest
    /// orientation), so two shapes are congruent by a rotation iff their canonical forms agree.
    pub fn canonical(&self) -> Shape {
        Transform::rotations()
            .iter()
            .map(|t| self.transformed(t))
            .min()
            .unwrap_or_else(|| self.clone())
    }

    /// True when the shape equals its own mirror image up to rotation.
    pub fn is_achiral(&self) -> bool {
        self.mirrored().canonical() == self.canonical()
    }

    /// True when the cells are face-connected (the empty shape counts as connected).
    pub fn is_connected(&self) -> bool {
        is_face_connected(&self.cells)
    }
}

/// True when `cells` form one face-connected group (an empty list counts as connected).
pub(crate) fn is_face_connected(cells: &[Cell]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let all: HashSet<Cell> = cells.iter().copied().collect();
    let mut seen = HashSet::from([first]);
    let mut stack = vec![first];
    while let Some(c) = stack.pop() {
        for n in face_neighbors(c) {
            if all.contains(&n) && seen.insert(n) {
                stack.push(n);
            }
        }
    }
    seen.len() == all.len()
}

/// The six face neighbours of a cell.
pub(crate) fn face_neighbors(c: Cell) -> [Cell; 6] {
    [
        [c[0] - 1, c[1], c[2]],
        [c[0] + 1, c[1], c[2]],
        [c[0], c[1] - 1, c[2]],
        [c[0], c[1] + 1, c[2]],
        [c[0], c[1], c[2] - 1],
        [c[0], c[1], c[2] + 1],
    ]
}

/// Component-wise minimum of a list of cells.
pub(crate) fn min_corner(cells: &[Cell]) -> Option<Cell> {
    let mut it = cells.iter();
    let mut m = *it.next()?;
    for c in it {
        for a in 0..3 {
            m[a] = m[a].min(c[a]);
        }
    }
    Some(m)
}

/// `a - b` component-wise.
pub fn sub(a: Cell, b: Cell) -> Cell {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b` component-wise.
pub fn add(a: Cell, b: Cell) -> Cell {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Sort key ordering cells by layer, then row, then column (the reading order of layer art).
pub(crate) fn zyx(c: Cell) -> (i32, i32, i32) {
    (c[2], c[1], c[0])
}

#[cfg(test)]
mod grid_tests {
    use super::*;

    #[test]
    fn the_layer_frame_round_trips_and_stacks_balls_in_hollows() {
        for k in 0..4 {
            for j in -3..4 {
                for i in -3..4 {
                    let c = sphere_from_layer([i, j, k]);
                    assert!(Grid::Sphere.is_cell(c));
                    assert_eq!(sphere_to_layer(c), [i, j, k]);
                }
            }
        }
        // A ball of layer 1 touches the four balls of layer 0 below it, and neighbours in a
        // layer touch.
        let top = sphere_from_layer([0, 0, 1]);
        let offsets = Grid::Sphere.neighbour_offsets();
        for below in [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] {
            assert!(offsets.contains(&sub(sphere_from_layer(below), top)));
        }
        assert!(offsets.contains(&sub(
            sphere_from_layer([1, 0, 0]),
            sphere_from_layer([0, 0, 0])
        )));
        assert!(offsets.contains(&sub(
            sphere_from_layer([0, 1, 0]),
            sphere_from_layer([0, 0, 0])
        )));
        for o in offsets {
            assert!(Grid::Sphere.is_cell(*o));
            let c = Grid::Sphere.centre(*o);
            let d = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
            assert!((d - 1.0).abs() < 1e-12);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(cells: &[Cell]) -> Shape {
        Shape::new(cells.iter().copied())
    }

    #[test]
    fn there_are_24_proper_rotations_and_they_form_a_group() {
        let all = Transform::all();
        assert_eq!(all.iter().filter(|t| t.is_proper()).count(), 24);
        assert!(all[..24].iter().all(|t| t.is_proper()));
        assert!(all[24..].iter().all(|t| !t.is_proper()));
        assert_eq!(all[0], Transform::IDENTITY);
        let set: HashSet<Transform> = all.iter().copied().collect();
        assert_eq!(set.len(), 48);
        for a in Transform::rotations() {
            for b in Transform::rotations() {
                let c = a.compose(b);
                assert!(c.is_proper());
                let p = [1, 2, 3];
                assert_eq!(c.apply(p), a.apply(b.apply(p)));
            }
        }
    }

    /// Orientation counts from ../shared/reference/README.md.
    #[test]
    fn tetracube_orientation_counts_match_the_reference() {
        let cases: [(&str, &[Cell], usize); 8] = [
            ("I", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], 3),
            ("O", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]], 3),
            ("T", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]], 12),
            ("L", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]], 24),
            ("S", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]], 12),
            ("branch", &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]], 8),
            ("screw_a", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]], 12),
            ("screw_b", &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], 12),
        ];
        for (name, cells, n) in cases {
            assert_eq!(shape(cells).orientations(false).len(), n, "{name}");
        }
        // The two screws are mirror images of each other, the others are achiral.
        let a = shape(cases[6].1);
        let b = shape(cases[7].1);
        assert_eq!(a.mirrored().canonical(), b.canonical());
        assert!(!a.is_achiral());
        assert!(shape(cases[5].1).is_achiral());
    }

    /// Grows every polycube of n cells up to translation and sums the orientation counts of
    /// the one-sided classes: OEIS A001931 gives 1, 3, 15, 86, 534 fixed polycubes.
    #[test]
    fn orientation_counts_sum_to_the_fixed_polycube_numbers() {
        let mut fixed: HashSet<Shape> = HashSet::from([shape(&[[0, 0, 0]])]);
        let expected = [1usize, 3, 15, 86, 534];
        for (n, &want) in expected.iter().enumerate() {
            if n > 0 {
                let mut next = HashSet::new();
                for s in &fixed {
                    for &c in s.cells() {
                        for nb in face_neighbors(c) {
                            if !s.cells().contains(&nb) {
                                let mut cells = s.cells().to_vec();
                                cells.push(nb);
                                next.insert(Shape::new(cells));
                            }
                        }
                    }
                }
                fixed = next;
            }
            assert_eq!(fixed.len(), want, "fixed polycubes of size {}", n + 1);
            // One-sided classes: group fixed shapes by canonical form; their orientation
            // counts must add up to the number of fixed shapes.
            let classes: HashSet<Shape> = fixed.iter().map(|s| s.canonical()).collect();
            let total: usize = classes.iter().map(|s| s.orientations(false).len()).sum();
            assert_eq!(total, want, "orientation sum for size {}", n + 1);
        }
    }

    #[test]
    fn mirror_orientations_include_both_hands() {
        let screw = shape(&[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]]);
        assert_eq!(screw.orientations(true).len(), 24);
        let l = shape(&[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]);
        // A planar piece is its own mirror image in 3D: no new orientations.
        assert_eq!(l.orientations(true).len(), 24);
    }

    #[test]
    fn connectivity() {
        assert!(shape(&[[0, 0, 0], [1, 0, 0]]).is_connected());
        assert!(!shape(&[[0, 0, 0], [1, 1, 0]]).is_connected());
        assert!(Shape::new([]).is_connected());
    }
}
