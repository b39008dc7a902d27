//! The grid type: every grid cubesat knows, listed once, and what each answers for itself (its cells, contacts, transforms, how it is typed, drawn and taken apart).
//!
//! A grid is one module implementing [`GridKind`] (BurrTools' `gridType` with its
//! capabilities); [`Grid`] names them and hands every question to the grid's module. Code
//! outside this module asks a grid, and never tests which grid it is: adding a grid is one
//! new module, one variant and one arm of [`Grid::kind`].

use super::cube::Cubes;
use super::kind::{CellShape, Frame, GridKind};
use super::sphere::Spheres;
use super::{BOX_MIN_CELLS, Cell, Transform, add, box_order, min_corner, sub};

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

/// `$g.method(..)` on the grid's own implementation, dispatched statically so that the
/// small answers (`is_cell` on the cube grid is `true`) inline into the loops that ask them.
macro_rules! ask {
    ($grid:expr, $g:ident => $e:expr) => {
        match $grid {
            Grid::Cube => {
                let $g = &Cubes;
                $e
            }
            Grid::Sphere => {
                let $g = &Spheres;
                $e
            }
        }
    };
}

/// `a`, `a or b`, `a, b or c`: items in prose, joined by `last` before the last.
fn listed(items: impl IntoIterator<Item = String>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        Some((tail, rest)) if !rest.is_empty() => format!("{} {last} {tail}", rest.join(", ")),
        _ => items.concat(),
    }
}

impl Grid {
    /// Every grid, in the order of BurrTools' grid numbers.
    pub const ALL: [Grid; 2] = [Grid::Cube, Grid::Sphere];

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
    pub fn burrtools_type(self) -> u32 {
        ask!(self, g => g.burrtools_type())
    }

    /// The grid of BurrTools' `gridType` number `n`, if cubesat has it.
    pub fn from_burrtools_type(n: u32) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.burrtools_type() == n)
    }

    /// True for the grid a puzzle file means when it names none (cubes).
    pub fn is_default(self) -> bool {
        self == Grid::default()
    }

    /// The grid in prose: "the cube grid", "the sphere grid".
    pub fn title(self) -> &'static str {
        ask!(self, g => g.title())
    }

    /// Every grid in prose with its BurrTools number, for messages: "the cube grid (type 0)
    /// and the sphere grid (type 2)".
    pub fn titles() -> String {
        listed(
            Grid::ALL.map(|g| format!("{} (type {})", g.title(), g.burrtools_type())),
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
        ask!(self, g => g.can_disassemble())
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

    /// The frame offset that starts typed `cells` at 0 in every coordinate people type:
    /// `[0, 0, 0]` where people type the grid's own coordinates ([`Frame::Lattice`]); in a
    /// frame of layers, the cell typed as minus the least typed coordinates (the frame is
    /// linear, so adding it to every cell moves each typed coordinate's least value to 0).
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
                m.map_or([0; 3], |m| self.from_user(m.map(|v| -v)))
            }
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

    /// The translation that normalises `cells` ([`super::Shape::new_on`]): minus the component-wise
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
    /// [`super::Shape::new_on`] leaves them, each with the index of the cell it is the image of
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
