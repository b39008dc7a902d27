//! Lattice geometry: the grids, cells, their transforms (the cube's 48, the sphere grid's 240; proper rotations first), shapes and their distinct orientations.
//!
//! Coordinates are `[x, y, z]` integers. A [`Shape`] is a set of cells normalised so that its
//! bounding box starts at the origin, kept sorted, so two shapes are equal exactly when they are
//! translates of each other.

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
/// corner, and a tetrahedron of edge n as rectangles k + 1 wide and n - k high, layer k
/// indented n - 1 - k columns (`puzzles/perplexing-pyramid.json`).
pub fn sphere_from_layer([i, j, k]: [i32; 3]) -> Cell {
    [i + j + k, i - j, k]
}

/// The inverse of [`sphere_from_layer`]: `[column, row, layer]` of a ball (a cell with
/// `x + y + z` even).
pub fn sphere_to_layer([x, y, z]: Cell) -> [i32; 3] {
    debug_assert!(Grid::Sphere.is_cell([x, y, z]));
    [(x - z + y) / 2, (x - z - y) / 2, z]
}

/// A linear map of the lattice fixing the origin: an orthogonal matrix `m / den` with integer
/// `m` and `den` 1 (the 48 signed permutation matrices, the symmetries of the cube) or 3 (the
/// sphere grid's other 192, whose entries are ±1/3 and ±2/3).
///
/// A transform with `den` 3 maps only some cells to cells: it is used for a shape exactly
/// when it maps every ball of the shape, taken relative to the shape's first ball, onto a
/// ball again (BurrTools' rule for its sphere grid). Proper rotations have determinant +1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform {
    m: [[i8; 3]; 3],
    den: i8,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        m: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        den: 1,
    };

    /// The reflection `x -> -x`, the mirror used to pair chiral pieces (a symmetry of every
    /// grid: it keeps the parity of `x + y + z`).
    pub const MIRROR_X: Transform = Transform {
        m: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
        den: 1,
    };

    /// The signed permutation `apply(c)[i] = sign[i] * c[axis[i]]`.
    const fn signed_permutation(axis: [u8; 3], sign: [i8; 3]) -> Transform {
        let mut m = [[0i8; 3]; 3];
        m[0][axis[0] as usize] = sign[0];
        m[1][axis[1] as usize] = sign[1];
        m[2][axis[2] as usize] = sign[2];
        Transform { m, den: 1 }
    }

    /// The image of a cell, or `None` when it is not an integer point (a transform with
    /// denominator 3 and a cell it does not map onto the lattice).
    #[inline]
    pub fn apply(&self, c: Cell) -> Option<Cell> {
        let m = &self.m;
        let row =
            |r: &[i8; 3]| i32::from(r[0]) * c[0] + i32::from(r[1]) * c[1] + i32::from(r[2]) * c[2];
        let v = [row(&m[0]), row(&m[1]), row(&m[2])];
        if self.den == 1 {
            return Some(v);
        }
        let d = i32::from(self.den);
        if v.iter().all(|x| x % d == 0) {
            Some(v.map(|x| x / d))
        } else {
            None
        }
    }

    /// The determinant: +1 for a proper rotation, -1 for a reflection.
    pub(crate) fn determinant(&self) -> i32 {
        let m = self.m.map(|r| r.map(i32::from));
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        det.signum()
    }

    /// True for the proper rotations.
    pub fn is_proper(&self) -> bool {
        self.determinant() == 1
    }

    /// For an integral transform (a signed permutation), the axis each image coordinate
    /// is read from (at most 2) and its sign.
    fn signed_axes(&self) -> [(usize, i32); 3] {
        self.m.map(|row| {
            let a = row.iter().position(|&v| v != 0).unwrap_or(0).min(2);
            (a, i32::from(row[a]))
        })
    }

    /// True for the 48 transforms that map every cell to a cell (the cube's symmetries).
    pub fn is_integral(&self) -> bool {
        self.den == 1
    }

    /// `self ∘ other`: apply `other` first, then `self`.
    pub(crate) fn compose(&self, other: &Transform) -> Transform {
        let mut m = [[0i32; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..3)
                    .map(|k| i32::from(self.m[i][k]) * i32::from(other.m[k][j]))
                    .sum();
            }
        }
        // Reduced by the common factor, the product is exact: its denominator is 1, 3 or 9
        // (the 240 are not closed under composition, which is why a target's symmetries are
        // checked for closure before a count up to them).
        let den = i32::from(self.den) * i32::from(other.den);
        let g = m
            .iter()
            .flatten()
            .fold(den, |g, &v| gcd(g, v.unsigned_abs() as i32));
        Transform {
            m: m.map(|r| r.map(|v| (v / g) as i8)),
            den: (den / g) as i8,
        }
    }

    /// All 48 symmetries of the cube in a fixed order: the 24 proper rotations first
    /// (identity first), then the 24 improper ones (each proper rotation composed with
    /// [`Transform::MIRROR_X`]). The cube grid's transforms.
    pub fn all() -> &'static [Transform; 48] {
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

    /// The 24 proper rotations of the cube, identity first.
    pub fn rotations() -> &'static [Transform] {
        &Transform::all()[..24]
    }

    /// The sphere grid's 240 transforms (BurrTools' grid 2): every orthogonal matrix whose
    /// entries are multiples of 1/3. The 120 proper ones come first: the cube's 24 in
    /// [`Transform::rotations`] order, then the 96 others in the order of their numerators;
    /// then the 120 improper ones, each proper one composed with [`Transform::MIRROR_X`] in
    /// the same order (so the cube's 48 keep their order inside the first half of each).
    pub fn sphere_all() -> &'static [Transform] {
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
            let proper: Vec<Transform> = Transform::rotations()
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
}

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

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Grid {
    /// The transforms of the grid: the proper rotations first (identity first), then the
    /// reflections, each a proper one composed with [`Transform::MIRROR_X`]. Cubes: the 48 of
    /// [`Transform::all`]; spheres: the 240 of [`Transform::sphere_all`].
    pub fn transforms(self) -> &'static [Transform] {
        match self {
            Grid::Cube => Transform::all(),
            Grid::Sphere => Transform::sphere_all(),
        }
    }

    /// The proper rotations of the grid, identity first (24 or 120).
    pub fn rotations(self) -> &'static [Transform] {
        let all = self.transforms();
        &all[..all.len() / 2]
    }

    /// The rotations, or with `mirror` every transform.
    pub fn transforms_for(self, mirror: bool) -> &'static [Transform] {
        if mirror {
            self.transforms()
        } else {
            self.rotations()
        }
    }

    /// The coordinates people read and write for a cell: itself on the cube grid, its
    /// position in the layer frame ([`sphere_to_layer`]) on the sphere grid.
    pub fn to_user(self, c: Cell) -> Cell {
        match self {
            Grid::Cube => c,
            Grid::Sphere => sphere_to_layer(c),
        }
    }

    /// The inverse of [`Grid::to_user`]: every integer triple is a ball of the layer frame.
    pub fn from_user(self, c: Cell) -> Cell {
        match self {
            Grid::Cube => c,
            Grid::Sphere => sphere_from_layer(c),
        }
    }

    /// The translation that normalises `cells` ([`Shape::new_on`]): minus the component-wise
    /// minimum, except on the sphere grid when that minimum is not a ball: then one less along
    /// x (as BurrTools' `minimizePiece`), so balls stay balls. `None` for no cells.
    pub fn normal_offset(self, cells: &[Cell]) -> Option<Cell> {
        let mut m = min_corner(cells)?;
        if !self.is_cell(m) {
            m[0] -= 1;
        }
        Some(m)
    }

    /// The images of `cells` under an integral `t`, normalised and sorted as
    /// [`Shape::new_on`] leaves them, each with the index of the cell it is the image of
    /// (for what travels with the cells, colours): one pass to bound them, one to place them
    /// in their box, one to read it, without the lists and the sort of transforming and
    /// normalising apart. `None` for a transform with denominator 3, distinct cells that
    /// are not, few cells or a sparse box ([`zyx_order`]): then transform and normalise.
    pub(crate) fn normalised_image(
        self,
        t: &Transform,
        cells: &[Cell],
    ) -> Option<(Vec<Cell>, Vec<u32>)> {
        if !t.is_integral() || cells.len() < BOX_MIN_CELLS {
            return None;
        }
        let [(a0, s0), (a1, s1), (a2, s2)] = t.signed_axes();
        let images: Vec<Cell> = cells
            .iter()
            .map(|c| [s0 * c[a0], s1 * c[a1], s2 * c[a2]])
            .collect();
        let mut min = images[0];
        let mut max = images[0];
        for m in &images {
            for a in 0..3 {
                min[a] = min[a].min(m[a]);
                max[a] = max[a].max(m[a]);
            }
        }
        // As `Grid::normal_offset`.
        if !self.is_cell(min) {
            min[0] -= 1;
        }
        let side = |a: usize| u64::try_from(i64::from(max[a]) - i64::from(min[a]) + 1).ok();
        let (sx, sy, sz) = (side(0)?, side(1)?, side(2)?);
        let volume = sx.checked_mul(sy)?.checked_mul(sz)?;
        if volume > 4 * cells.len() as u64 + 64 {
            return None;
        }
        let from = box_order(
            volume as usize,
            images.iter().map(|m| {
                let [x, y, z] = sub(*m, min).map(|v| v as u64);
                ((z * sy + y) * sx + x) as usize
            }),
        );
        let out: Vec<Cell> = from.iter().map(|&i| sub(images[i as usize], min)).collect();
        (out.len() == cells.len()).then_some((out, from))
    }

    /// The images of `cells` under `t`, taken relative to the first cell, or `None` when some
    /// image is not a cell of the grid (a transform that does not fit the shape; never on
    /// the cube grid).
    pub fn transform_cells(self, t: &Transform, cells: &[Cell]) -> Option<Vec<Cell>> {
        if t.is_integral() {
            // A signed permutation: each image coordinate is one coordinate, perhaps negated
            // (no matrix product per cell).
            let [(a0, s0), (a1, s1), (a2, s2)] = t.signed_axes();
            return Some(
                cells
                    .iter()
                    .map(|c| [s0 * c[a0], s1 * c[a1], s2 * c[a2]])
                    .collect(),
            );
        }
        let first = *cells.first()?;
        cells
            .iter()
            .map(|&c| t.apply(sub(c, first)).filter(|&p| self.is_cell(p)))
            .collect()
    }

    /// True when `cells` form one connected group under [`Grid::neighbour_offsets`] (an empty
    /// list counts as connected).
    pub fn is_connected(self, cells: &[Cell]) -> bool {
        // Sorted cells looked up by binary search: a hash set's lookups cost 4 M instructions
        // for nine pieces of 152 cells, every count of such a puzzle.
        let mut all = cells.to_vec();
        all.sort_unstable();
        all.dedup();
        if all.is_empty() {
            return true;
        }
        let mut seen = vec![false; all.len()];
        seen[0] = true;
        let mut stack = vec![0usize];
        let mut reached = 1;
        while let Some(k) = stack.pop() {
            for &o in self.neighbour_offsets() {
                if let Ok(j) = all.binary_search(&add(all[k], o))
                    && !seen[j]
                {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
        reached == all.len()
    }
}

/// A finite set of cells of one grid up to translation: sorted, with its bounding box at the
/// origin (on the sphere grid: at the origin or one column right of it, see
/// [`Grid::normal_offset`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    cells: Vec<Cell>,
    grid: Grid,
}

impl Shape {
    /// Normalises cube-grid `cells` (translation to the origin, sorting, dropping duplicates).
    pub fn new(cells: impl IntoIterator<Item = Cell>) -> Shape {
        Shape::new_on(Grid::Cube, cells)
    }

    /// Normalises `cells` of `grid` ([`Grid::normal_offset`], sorting, dropping duplicates).
    pub fn new_on(grid: Grid, cells: impl IntoIterator<Item = Cell>) -> Shape {
        let mut cells: Vec<Cell> = cells.into_iter().collect();
        if let Some(min) = grid.normal_offset(&cells) {
            for c in &mut cells {
                *c = sub(*c, min);
            }
        }
        match zyx_order(&cells) {
            Some(order) => cells = order.iter().map(|&i| cells[i as usize]).collect(),
            None => {
                sort_zyx(&mut cells);
                cells.dedup();
            }
        }
        Shape { cells, grid }
    }

    /// A shape from cells already normalised and sorted as [`Shape::new_on`] leaves them
    /// (checked in debug builds).
    pub(crate) fn from_normalised(grid: Grid, cells: Vec<Cell>) -> Shape {
        let shape = Shape { cells, grid };
        debug_assert_eq!(shape, Shape::new_on(grid, shape.cells.iter().copied()));
        shape
    }

    /// The grid the shape lives on.
    pub fn grid(&self) -> Grid {
        self.grid
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

    /// Size of the bounding box from the origin, `[0, 0, 0]` for the empty shape.
    pub fn size(&self) -> [i32; 3] {
        let mut size = [0; 3];
        for c in &self.cells {
            for a in 0..3 {
                size[a] = size[a].max(c[a] + 1);
            }
        }
        size
    }

    /// The shape transformed by `t`, normalised again, or `None` when `t` does not fit it
    /// (see [`Grid::transform_cells`]).
    pub fn transformed(&self, t: &Transform) -> Option<Shape> {
        if let Some((cells, _)) = self.grid.normalised_image(t, &self.cells) {
            return Some(Shape::from_normalised(self.grid, cells));
        }
        let cells = self.grid.transform_cells(t, &self.cells)?;
        Some(Shape::new_on(self.grid, cells))
    }

    /// The mirror image (`x -> -x`).
    pub fn mirrored(&self) -> Shape {
        Shape::new_on(self.grid, self.cells.iter().map(|&[x, y, z]| [-x, y, z]))
    }

    /// The distinct orientations under the grid's proper rotations that fit the shape, in the
    /// order of [`Grid::rotations`] (first occurrence kept), so the first is the shape
    /// itself. With `mirror`, the mirror images' orientations follow (a free piece).
    pub fn orientations(&self, mirror: bool) -> Vec<Shape> {
        // At most 240 of them, told apart by a comparison that mostly stops at the first
        // cells: cheaper than hashing every cell of a large piece once per transform.
        let mut out: Vec<Shape> = Vec::new();
        for t in self.grid.transforms_for(mirror) {
            if let Some(s) = self.transformed(t)
                && !out.contains(&s)
            {
                out.push(s);
            }
        }
        out
    }

    /// A canonical representative of the shape's class under proper rotations (the smallest
    /// orientation), so two shapes are congruent by a rotation iff their canonical forms agree.
    pub fn canonical(&self) -> Shape {
        self.grid
            .rotations()
            .iter()
            .filter_map(|t| self.transformed(t))
            .min()
            .unwrap_or_else(|| self.clone())
    }

    /// True when the shape equals its own mirror image up to rotation.
    pub fn is_achiral(&self) -> bool {
        self.mirrored().canonical() == self.canonical()
    }

    /// True when the cells are connected on the shape's grid (faces for cubes, contacts for
    /// balls; the empty shape counts as connected).
    pub fn is_connected(&self) -> bool {
        self.grid.is_connected(&self.cells)
    }
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

/// Bits per coordinate in a [`zyx_key`].
const KEY_BITS: u32 = 18;

/// The (z, y, x) order as one integer, for cells whose coordinates are all in
/// `0..2^18` (normalised shapes are: their sides are at most [`crate::puzzle::MAX_COORD`]),
/// with 8 bits to spare below for a colour: sorting these keys sorts the cells, without the
/// three comparisons of [`zyx`] per step (orientations sort every shape once per transform).
pub(crate) fn zyx_key(c: Cell) -> Option<u64> {
    let fits = |v: i32| (0..1 << KEY_BITS).contains(&v);
    (fits(c[0]) && fits(c[1]) && fits(c[2])).then(|| {
        (((c[2] as u64) << (2 * KEY_BITS)) | ((c[1] as u64) << KEY_BITS) | c[0] as u64) << 8
    })
}

/// The cell of a [`zyx_key`] (its colour bits ignored).
pub(crate) fn from_zyx_key(k: u64) -> Cell {
    let m = (1u64 << KEY_BITS) - 1;
    let k = k >> 8;
    [
        (k & m) as i32,
        ((k >> KEY_BITS) & m) as i32,
        (k >> (2 * KEY_BITS)) as i32,
    ]
}

/// Fewer cells than this are sorted rather than read off their box ([`zyx_order`],
/// [`Grid::normalised_image`]): a few comparisons cost less than the box's lists.
const BOX_MIN_CELLS: usize = 24;

/// The indices of `cells` in (z, y, x) order, one per distinct cell (the last of equal
/// ones), read off their bounding box in that order: no comparisons, for the compact shapes
/// pieces are (orientations sort every shape once per transform). `None` when the box has
/// more than four positions per cell (a sparse set is sorted instead) or for fewer than
/// [`BOX_MIN_CELLS`] cells.
pub(crate) fn zyx_order(cells: &[Cell]) -> Option<Vec<u32>> {
    if cells.len() < BOX_MIN_CELLS {
        return None;
    }
    let min = min_corner(cells)?;
    let mut max = min;
    for c in cells {
        for a in 0..3 {
            max[a] = max[a].max(c[a]);
        }
    }
    let side = |a: usize| u64::try_from(i64::from(max[a]) - i64::from(min[a]) + 1).ok();
    let (sx, sy, sz) = (side(0)?, side(1)?, side(2)?);
    let volume = sx.checked_mul(sy)?.checked_mul(sz)?;
    if volume > 4 * cells.len() as u64 + 64 {
        return None;
    }
    Some(box_order(
        volume as usize,
        cells.iter().map(|c| {
            let [x, y, z] = sub(*c, min).map(|v| v as u64);
            ((z * sy + y) * sx + x) as usize
        }),
    ))
}

/// The indices of `positions` (each below `volume`) in ascending order of position, one
/// per distinct position (the last index placed there): a slot per position and a bit,
/// read a word of bits at a time, so an empty stretch of the box costs little.
fn box_order(volume: usize, positions: impl ExactSizeIterator<Item = usize>) -> Vec<u32> {
    let mut order = Vec::with_capacity(positions.len());
    let mut place = vec![0u32; volume];
    let mut bits = vec![0u64; volume.div_ceil(64)];
    for (i, p) in positions.enumerate() {
        place[p] = i as u32;
        bits[p >> 6] |= 1 << (p & 63);
    }
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            order.push(place[w * 64 + word.trailing_zeros() as usize]);
            word &= word - 1;
        }
    }
    order
}

/// Sorts cells by [`zyx`], through [`zyx_key`] where every cell has one.
pub(crate) fn sort_zyx(cells: &mut [Cell]) {
    let keys: Option<Vec<u64>> = cells.iter().map(|&c| zyx_key(c)).collect();
    match keys {
        Some(mut keys) => {
            keys.sort_unstable();
            for (c, &k) in cells.iter_mut().zip(&keys) {
                *c = from_zyx_key(k);
            }
        }
        None => cells.sort_unstable_by_key(|&c| zyx(c)),
    }
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
    use std::collections::HashSet;

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
                assert_eq!(c.apply(p), a.apply(b.apply(p).unwrap()));
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
                        for nb in Grid::Cube.neighbour_offsets().iter().map(|&o| add(c, o)) {
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

    /// The sphere grid's transforms: 240 orthogonal matrices with entries in Z/3, 120 proper,
    /// the cube's 48 in order inside them. They are not a group (two of them can compose to a
    /// matrix with entries in Z/9), but the set is closed under inverses and under composition
    /// with the cube's 48.
    #[test]
    fn the_sphere_grid_has_240_transforms_forming_a_group() {
        let all = Transform::sphere_all();
        assert_eq!(all.len(), 240);
        let set: HashSet<Transform> = all.iter().copied().collect();
        assert_eq!(set.len(), 240);
        assert!(all[..120].iter().all(|t| t.is_proper()));
        assert!(all[120..].iter().all(|t| !t.is_proper()));
        assert_eq!(&all[..24], Transform::rotations());
        assert_eq!(&all[120..144], &Transform::all()[24..]);
        assert_eq!(Grid::Sphere.rotations().len(), 120);
        assert_eq!(Grid::Cube.rotations(), Transform::rotations());
        let inverse = |t: &Transform| {
            let mut m = t.m;
            for (i, row) in m.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = t.m[j][i];
                }
            }
            Transform { m, den: t.den }
        };
        let not_closed = all
            .iter()
            .flat_map(|a| all.iter().map(move |b| a.compose(b)))
            .filter(|c| !set.contains(c))
            .count();
        assert!(not_closed > 0);
        for a in all {
            assert!(set.contains(&inverse(a)));
            assert_eq!(a.compose(&inverse(a)), Transform::IDENTITY);
            for b in Transform::all() {
                assert!(set.contains(&a.compose(b)));
                assert!(set.contains(&b.compose(a)));
            }
            // Orthogonal: M Mᵀ = den² I.
            let d = i32::from(a.den);
            for i in 0..3 {
                for j in 0..3 {
                    let dot: i32 = (0..3)
                        .map(|k| i32::from(a.m[i][k]) * i32::from(a.m[j][k]))
                        .sum();
                    assert_eq!(dot, if i == j { d * d } else { 0 });
                }
            }
        }
    }

    /// Orientation counts of small ball pieces, from the directions of the face-centred cubic
    /// lattice: a pair or a straight line lies along one of 6 directions; a triangle of three
    /// touching balls lies in one of the four {111} planes, pointing one of two ways (8); the
    /// tetrahedron of four has 2. Every orientation is made of balls, and normalising keeps
    /// balls on balls.
    #[test]
    fn sphere_orientations() {
        let on = |cells: &[Cell]| Shape::new_on(Grid::Sphere, cells.iter().copied());
        // Two touching balls: 12 contacts, 6 unordered directions.
        assert_eq!(on(&[[0, 0, 0], [1, 1, 0]]).orientations(false).len(), 6);
        // A straight line of three balls: 6 directions.
        assert_eq!(
            on(&[[0, 0, 0], [1, 1, 0], [2, 2, 0]])
                .orientations(false)
                .len(),
            6
        );
        // Three mutually touching balls.
        let tri = on(&[[0, 0, 0], [1, 1, 0], [1, 0, 1]]);
        assert!(tri.is_connected());
        assert_eq!(tri.orientations(false).len(), 8);
        assert!(tri.is_achiral());
        // Balls always stay balls.
        for s in tri.orientations(true) {
            assert!(s.cells().iter().all(|&c| Grid::Sphere.is_cell(c)));
        }
        // The tetrahedron of four balls: 2 orientations.
        let tet = on(&[[0, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]]);
        assert_eq!(tet.orientations(false).len(), 2);
        // Normalisation keeps balls on balls: a shape whose corner is not a ball starts at x 1.
        let s = on(&[[1, 0, 1], [0, 1, 1]]);
        assert_eq!(s.cells(), &[[2, 0, 0], [1, 1, 0]]);
    }

    #[test]
    fn connectivity() {
        assert!(shape(&[[0, 0, 0], [1, 0, 0]]).is_connected());
        assert!(!shape(&[[0, 0, 0], [1, 1, 0]]).is_connected());
        assert!(Shape::new([]).is_connected());
    }
}
