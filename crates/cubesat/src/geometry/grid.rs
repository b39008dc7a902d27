//! The grid type: every grid cubesat knows, listed once, and what each answers for itself (its cells, contacts, transforms, how it is typed, drawn and taken apart).
//!
//! A grid is one module implementing [`GridKind`] (BurrTools' `gridType` with its
//! capabilities); [`Grid`] names them and hands every question to the grid's module. Code
//! outside this module asks a grid, and never tests which grid it is: adding a grid is one
//! new module, one variant and one arm of [`Grid::kind`].

use super::cube::Cubes;
use super::hexagon::Hexagons;
use super::kind::{CellShape, Frame, GridKind};
use super::prism::Prisms;
use super::sphere::Spheres;
use super::tetra::{Rhombic, TetraOcta};
use super::{BOX_MIN_CELLS, Cell, Transform, add, box_order, min_corner, sub};

/// The lattice a puzzle lives on: what a cell is, which cells touch, and where a cell sits in
/// space. Cells are integer triples on every grid: the sphere grid uses the cube grid's
/// coordinates (as BurrTools' files do) and holds a ball only where `x + y + z` is even; the
/// prism grid numbers its triangles by their centroids (see its module).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grid {
    /// Unit cubes; cells touch across their six faces (BurrTools' grid 0).
    #[default]
    Cube,
    /// Triangular prisms of side 1 and height 1 in layers (BurrTools' grid 1): triangle
    /// centroids at `(u / 2, v √3 / 6)`, upward where `v ≡ 1 (mod 3)`, downward where
    /// `v ≡ 2`; prisms touch across their three sides and the layers above and below.
    Prism,
    /// Balls in face-centred cubic packing (BurrTools' grid 2): a ball at every `[x, y, z]`
    /// with `x + y + z` even; each ball touches the twelve at `(±1, ±1, 0)` and its
    /// permutations, at distance `√2` in these coordinates.
    Sphere,
    /// BurrTools' grid 3: each cube cut into 24 tetrahedra (48 of them make a rhombic
    /// dodecahedron), cells at their centroids in cubes of side 8.
    Rhombic,
    /// BurrTools' grid 4: the tetrahedral-octahedral honeycomb, each octahedron cut into
    /// eight corner tetrahedra, cells at their centroids in cubes of side 4.
    TetraOcta,
    /// Hexagonal prisms in layers (no BurrTools grid): hexagon centres at `(u / 2, v √3 / 2)`
    /// with `u ≡ v (mod 2)`; one layer is a polyhex board.
    Hexagon,
}

/// `$g.method(..)` on the grid's own implementation, dispatched statically so that the
/// small answers (`is_cell` on the cube grid is `true`) inline into the loops that ask them.
macro_rules! ask {
    ($grid:expr, $g:ident => $e:expr) => {
        match $grid {
            Grid::Cube => {
                let $g = &Cubes;
                $e
            }
            Grid::Prism => {
                let $g = &Prisms;
                $e
            }
            Grid::Sphere => {
                let $g = &Spheres;
                $e
            }
            Grid::Rhombic => {
                let $g = &Rhombic;
                $e
            }
            Grid::TetraOcta => {
                let $g = &TetraOcta;
                $e
            }
            Grid::Hexagon => {
                let $g = &Hexagons;
                $e
            }
        }
    };
}

/// `a`, `a or b`, `a, b or c`: items in prose, joined by `last` before the last.
/// `c` as a point of the line through it along step `v` (non-zero): the line's point whose
/// coordinate along `v`'s first non-zero coordinate is in `0..|v_i|`, and the steps from it.
#[inline]
fn line_along(v: Cell, c: Cell) -> (Cell, i32) {
    let i = if v[0] != 0 {
        0
    } else if v[1] != 0 {
        1
    } else {
        2
    };
    let t = c[i].div_euclid(v[i]);
    ([c[0] - t * v[0], c[1] - t * v[1], c[2] - t * v[2]], t)
}

fn listed(items: impl IntoIterator<Item = String>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        Some((tail, rest)) if !rest.is_empty() => format!("{} {last} {tail}", rest.join(", ")),
        _ => items.concat(),
    }
}

impl Grid {
    /// Every grid, in the order of BurrTools' grid numbers.
    pub const ALL: [Grid; 6] = [
        Grid::Cube,
        Grid::Prism,
        Grid::Sphere,
        Grid::Rhombic,
        Grid::TetraOcta,
        Grid::Hexagon,
    ];

    /// The grid's implementation, for code that wants it whole.
    #[cfg(test)]
    pub(super) fn kind(self) -> &'static dyn GridKind {
        ask!(self, g => g)
    }

    /// The name used in cubesat JSON (`"grid": "spheres"`) and messages.
    pub fn name(self) -> &'static str {
        ask!(self, g => g.name())
    }

    /// The grid named `name` in cubesat JSON, if any.
    pub fn from_name(name: &str) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Every grid's name, quoted, for messages: `"cubes" or "spheres"`.
    pub fn names() -> String {
        listed(Grid::ALL.map(|g| format!("\"{}\"", g.name())), "or")
    }

    /// BurrTools' `gridType` number.
    pub fn burrtools_type(self) -> Option<u32> {
        ask!(self, g => g.burrtools_type())
    }

    /// The grid of BurrTools' `gridType` number `n`, if cubesat has it.
    pub fn from_burrtools_type(n: u32) -> Option<Grid> {
        Grid::ALL
            .into_iter()
            .find(|g| g.burrtools_type() == Some(n))
    }

    /// True for the grid a puzzle file means when it names none (cubes).
    pub fn is_default(self) -> bool {
        self == Grid::default()
    }

    /// The grid in prose: "the cube grid", "the sphere grid".
    pub fn title(self) -> &'static str {
        ask!(self, g => g.title())
    }

    /// Every grid BurrTools has, in prose with its BurrTools number, for messages: "the cube
    /// grid (type 0), the prism grid (type 1) and the sphere grid (type 2)".
    pub fn titles() -> String {
        listed(
            Grid::ALL.into_iter().filter_map(|g| {
                g.burrtools_type()
                    .map(|t| format!("{} (type {t})", g.title()))
            }),
            "and",
        )
    }

    /// One cell, in words ("cube", "ball").
    pub fn cell_noun(self) -> &'static str {
        ask!(self, g => g.cell_noun())
    }

    /// What a piece must be to hang together, in words ("face-connected" for cubes).
    pub fn connectivity(self) -> &'static str {
        ask!(self, g => g.connectivity())
    }

    /// How the grid's cells are drawn and meshed.
    pub fn cell_shape(self) -> CellShape {
        ask!(self, g => g.cell_shape())
    }

    /// How people type and read the grid's cells.
    pub fn frame(self) -> Frame {
        ask!(self, g => g.frame())
    }

    /// True when the disassembler can take the grid's assemblies apart.
    pub fn can_disassemble(self) -> bool {
        !self.slide_axes().is_empty()
    }

    /// The axes the disassembler slides pieces along, each a unit step (a translation of the
    /// grid), in BurrTools' order; direction `2a` is `+axes[a]` and `2a + 1` its opposite.
    /// Empty when the grid's assemblies are not taken apart.
    pub fn slide_axes(self) -> &'static [Cell] {
        ask!(self, g => g.slide_axes())
    }

    /// The offsets from cell `c` of the cells one unit step of `c` along `+slide_axes()[axis]`
    /// passes through or lands on; the step is free when all of them are.
    #[inline]
    pub fn slide_sweep(self, axis: usize, c: Cell) -> &'static [Cell] {
        ask!(self, g => g.slide_sweep(axis, c))
    }

    /// The name of slide direction `d` (`"+x"`, `"-x"`, ...; on the prism grid in BurrTools'
    /// voxel axes, `"+x+y"` for its step `(1, 1, 0)`); `"?"` past the grid's directions.
    pub fn direction_name(self, d: u8) -> &'static str {
        ask!(self, g => g.direction_names())
            .get(d as usize)
            .copied()
            .unwrap_or("?")
    }

    /// Where `c` lies on the lines along slide axis `axis`: the line (its point with the
    /// smallest non-negative coordinate along the axis's first non-zero coordinate) and the
    /// number of unit steps from that point to `c`. Cells on one line differ by whole steps.
    #[inline]
    pub fn slide_line(self, axis: usize, c: Cell) -> (Cell, i32) {
        line_along(self.slide_axes()[axis], c)
    }

    /// The names of the grids the disassembler takes apart, for messages ("cubes").
    pub fn disassembled_names() -> String {
        listed(
            Grid::ALL
                .into_iter()
                .filter(|g| g.can_disassemble())
                .map(|g| g.name().to_string()),
            "and",
        )
    }

    /// True when every transform of the grid is a signed permutation of the axes: then the
    /// cells in each layer along each axis are invariants of a shape, and a mirror image is
    /// `[-x, y, z]` normalised.
    pub fn permutes_axes(self) -> bool {
        self.transforms().iter().all(Transform::is_integral)
    }

    /// True when the product of two of the grid's transforms is again one of them, so that
    /// the transforms that fit a target always form a group.
    pub fn symmetries_compose(self) -> bool {
        ask!(self, g => g.symmetries_compose())
    }

    /// True when `c` is a cell of this grid.
    #[inline]
    pub fn is_cell(self, c: Cell) -> bool {
        ask!(self, g => g.is_cell(c))
    }

    /// The offsets from a cell to the cells it touches (shares a face with, or, for balls,
    /// touches at a point).
    pub fn neighbour_offsets(self) -> &'static [Cell] {
        ask!(self, g => g.neighbour_offsets())
    }

    /// The centre of a cell in space, in units of the cell size (a cube's edge, a ball's
    /// diameter): cube `c` spans `c..c+1`; ball `c` is centred at `c / √2`, so touching balls
    /// are one unit apart.
    pub fn centre(self, c: Cell) -> [f64; 3] {
        ask!(self, g => g.centre(c))
    }

    /// The transforms of the grid: the proper rotations first (identity first), then the
    /// reflections, each a proper one composed with [`Transform::MIRROR_X`]. Cubes: the
    /// cube's 48; spheres: the 240 orthogonal matrices whose entries are multiples of 1/3
    /// (the cube's 48 keep their order inside the first half of each).
    pub fn transforms(self) -> &'static [Transform] {
        ask!(self, g => g.transforms())
    }

    /// The coordinates people read and write for a cell: itself on the cube grid, its
    /// position in the layer frame ([`super::sphere::to_layer`]) on the sphere grid.
    #[inline]
    pub fn to_user(self, c: Cell) -> Cell {
        ask!(self, g => g.typed(c))
    }

    /// The inverse of [`Grid::to_user`]: every integer triple is a cell of the typed frame.
    #[inline]
    pub fn from_user(self, c: Cell) -> Cell {
        ask!(self, g => g.typed_cell(c))
    }

    /// The frame offset that starts typed `cells` at 0 in every coordinate people type (or
    /// just below, where the grid's typed steps do not reach 0): `[0, 0, 0]` where people
    /// type the grid's own coordinates ([`Frame::Lattice`]); in a frame of layers, the move
    /// by minus the least typed coordinates ([`Grid::typed_step_below`]).
    pub fn layer_origin(self, cells: impl IntoIterator<Item = Cell>) -> Cell {
        match self.frame() {
            Frame::Lattice => [0; 3],
            Frame::Layers => {
                let mut m: Option<Cell> = None;
                for c in cells {
                    let l = self.to_user(c);
                    let m = m.get_or_insert(l);
                    for a in 0..3 {
                        m[a] = m[a].min(l[a]);
                    }
                }
                m.map_or([0; 3], |m| {
                    self.typed_translation(self.typed_step_below(m).map(|v| -v))
                })
            }
        }
    }

    /// How many typed columns one cell is wide in a picture (a triangle spans two).
    pub fn typed_columns_per_cell(self) -> i32 {
        ask!(self, g => g.typed_columns_per_cell())
    }

    /// The move of cells that adds `d` to their typed coordinates, for a `d` that
    /// [`Grid::typed_step_below`] gives.
    pub fn typed_translation(self, d: Cell) -> Cell {
        ask!(self, g => g.typed_translation(d))
    }

    /// The typed step nearest below `corner` that moves cells without turning them (each
    /// coordinate at most `corner`'s): typed pictures and files start there, so a cell reads
    /// the same wherever it is drawn (on the prism grid, an even column plus row).
    pub fn typed_step_below(self, corner: Cell) -> Cell {
        ask!(self, g => g.typed_step_below(corner))
    }

    /// The proper rotations: the first half of [`Grid::transforms`].
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

    /// The translation that normalises `cells` ([`super::Shape::new_on`]): the grid's
    /// translation nearest below their component-wise minimum (the minimum itself on the cube
    /// grid; on the sphere grid one less along x where the minimum is no ball, as BurrTools'
    /// `minimizePiece`; on the prism grid a step that keeps each triangle's direction).
    /// `None` for no cells.
    pub fn normal_offset(self, cells: &[Cell]) -> Option<Cell> {
        Some(self.translation_below(min_corner(cells)?))
    }

    /// The translation that moves a set whose bounding box starts at `corner` to the origin,
    /// or as close to it as the grid's translations go (each coordinate at most `corner`'s).
    pub fn translation_below(self, corner: Cell) -> Cell {
        ask!(self, g => g.translation_below(corner))
    }

    /// True when moving by `d` maps every cell onto a cell of the same kind: placements are
    /// a piece's orientations moved by these.
    #[inline]
    pub fn is_translation(self, d: Cell) -> bool {
        ask!(self, g => g.is_translation(d))
    }

    /// The corners of a tetrahedral cell in space; `None` on a grid of other cells.
    pub fn tetrahedron(self, c: Cell) -> Option<[[f64; 3]; 4]> {
        ask!(self, g => g.tetrahedron(c))
    }

    /// The offsets from `c` to exactly the cells it touches.
    #[inline]
    pub fn neighbour_offsets_of(self, c: Cell) -> &'static [Cell] {
        ask!(self, g => g.neighbour_offsets_of(c))
    }

    /// Which of BurrTools' voxels are cells, in words.
    pub fn voxel_rule(self) -> &'static str {
        ask!(self, g => g.voxel_rule())
    }

    /// The corners of a prism cell's polygon (a triangle or a hexagon) in the plane,
    /// counterclockwise; `None` on a grid whose cells are not prisms.
    pub fn polygon(self, c: Cell) -> Option<Vec<[f64; 2]>> {
        ask!(self, g => g.polygon(c))
    }

    /// The cell of BurrTools' voxel `v` of a shape's box, or `None` where the grid has no
    /// cell (BurrTools' sphere grid has balls only where x + y + z is even).
    pub fn from_burrtools(self, v: Cell) -> Option<Cell> {
        ask!(self, g => g.voxel_cell(v))
    }

    /// BurrTools' voxels of `cells`, moved into a box from the origin as BurrTools may move
    /// a shape, and the box's size.
    pub fn to_burrtools(self, cells: impl IntoIterator<Item = Cell>) -> (Vec<Cell>, [i32; 3]) {
        let voxels: Vec<Cell> = cells
            .into_iter()
            .map(|c| ask!(self, g => g.cell_voxel(c)))
            .collect();
        let Some(min) = min_corner(&voxels) else {
            return (voxels, [0; 3]);
        };
        let step = ask!(self, g => g.burrtools_step_below(min));
        let voxels: Vec<Cell> = voxels.iter().map(|&v| sub(v, step)).collect();
        let mut size = [0; 3];
        for v in &voxels {
            for a in 0..3 {
                size[a] = size[a].max(v[a] + 1);
            }
        }
        (voxels, size)
    }

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
        min = self.translation_below(min);
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

    /// The images of `cells` (normalised) under `t`, or `None` when `t` does not fit them
    /// (never on the cube and prism grids; on the sphere grid BurrTools' rule, see
    /// where a transform applies to a shape taken relative to its first ball).
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
        ask!(self, g => g.images(t, cells))
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
            for &o in self.neighbour_offsets_of(all[k]) {
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
