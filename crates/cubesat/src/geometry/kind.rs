//! The interface every grid implements (BurrTools' `gridType` and its capabilities), and the types of its answers.

use super::{Cell, Transform};

/// How a grid's cells are drawn and meshed: pictures and STL files match on it, so a grid
/// with a new kind of cell is a compile error wherever cells are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// Unit cubes: faces, edges and layers of squares.
    Cube,
    /// Balls of unit diameter centred at [`super::Grid::centre`], fused along their contacts in meshes.
    Ball,
    /// Right prisms of height 1 over the grid's polygon (see [`super::Grid::polygon`]):
    /// triangles, upward or downward, of side 1, or hexagons 1 across.
    Prism,
    /// Tetrahedra (see [`super::Grid::tetrahedron`]): faces of triangles in space.
    Tetrahedron,
}

/// How people type and read a grid's cells in puzzle files, layer art and text pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The grid's own coordinates: a container may be a box, and layer `z` of the art is the
    /// cells with that `z`.
    Lattice,
    /// A frame of square layers ([`super::Grid::to_user`], [`super::Grid::from_user`]): every integer
    /// triple is a cell there, and containers are listed as layers of art in that frame.
    Layers,
}

/// What one grid answers for itself. Each grid is one module with one implementation.
pub(super) trait GridKind {
    /// The name used in cubesat JSON (`"grid": "spheres"`) and messages.
    fn name(&self) -> &'static str;
    /// BurrTools' `gridType` number; `None` for a grid BurrTools does not have.
    fn burrtools_type(&self) -> Option<u32>;
    /// The grid in prose ("the cube grid").
    fn title(&self) -> &'static str;
    /// One cell, in words ("cube", "ball").
    fn cell_noun(&self) -> &'static str;
    /// What a piece's cells must be to hang together, in words.
    fn connectivity(&self) -> &'static str;
    /// How its cells are drawn and meshed.
    fn cell_shape(&self) -> CellShape;
    /// How people type its cells.
    fn frame(&self) -> Frame;
    /// The axes the disassembler slides pieces along, in BurrTools' order of directions
    /// (`movementcache_N.cpp`): each a unit step, a translation of the grid. Direction `2a`
    /// is `+axes[a]`, `2a + 1` its opposite. Empty when the grid's assemblies are not taken
    /// apart.
    fn slide_axes(&self) -> &'static [Cell] {
        &[]
    }
    /// The offsets from `c` of the cells a unit step of `c` along `+axes[axis]` passes
    /// through or lands on: all must be free for the step (the step itself on a grid whose
    /// cells slide straight into the next, more where a cell sweeps across others).
    fn slide_sweep(&self, axis: usize, _c: Cell) -> &'static [Cell] {
        let _ = axis;
        &[]
    }
    /// The names of the directions, `2a` and `2a + 1` for axis `a` (`"+x"`, `"-x"`, ...).
    fn direction_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// True when the product of two of its transforms is again one of them.
    fn symmetries_compose(&self) -> bool;
    /// True when `c` is a cell.
    fn is_cell(&self, c: Cell) -> bool;
    /// True when moving every cell by `d` maps cells onto cells of the same kind (a move
    /// of a piece, not a turn).
    fn is_translation(&self, d: Cell) -> bool;
    /// The translation that moves a set whose bounding box starts at `corner` to the
    /// origin, or as close to it as the grid's translations go (each coordinate at most
    /// `corner`'s): normalised shapes are their cells minus this.
    fn translation_below(&self, corner: Cell) -> Cell;
    /// The images of `cells` (normalised, so the grid's own cells) under `t`, or `None`
    /// when `t` does not map them onto cells. This default is BurrTools' rule for a grid
    /// whose transforms fit only some shapes: `t` is applied to each cell taken relative to
    /// the first, and fits when every image is a cell.
    fn images(&self, t: &Transform, cells: &[Cell]) -> Option<Vec<Cell>> {
        let first = *cells.first()?;
        cells
            .iter()
            .map(|&c| t.apply(super::sub(c, first)).filter(|&p| self.is_cell(p)))
            .collect()
    }
    /// The offsets from a cell to the cells it touches, of every kind of cell together
    /// (some land on no cell, or on a cell that does not touch a cell of another kind).
    fn neighbour_offsets(&self) -> &'static [Cell];
    /// The offsets from cell `c` to exactly the cells it touches.
    fn neighbour_offsets_of(&self, _c: Cell) -> &'static [Cell] {
        self.neighbour_offsets()
    }
    /// The centre of a cell in space, in units of the cell size.
    fn centre(&self, c: Cell) -> [f64; 3];
    /// For a grid of tetrahedra, the corners of a cell in space (the same units as
    /// [`GridKind::centre`]).
    fn tetrahedron(&self, _c: Cell) -> Option<[[f64; 3]; 4]> {
        None
    }
    /// For a grid of prisms, the corners of a cell's polygon in the plane, counterclockwise.
    fn polygon(&self, _c: Cell) -> Option<Vec<[f64; 2]>> {
        None
    }
    /// The transforms, proper rotations first (identity first), then each composed with
    /// [`Transform::MIRROR_X`] in the same order.
    fn transforms(&self) -> &'static [Transform];
    /// The coordinates people type for a cell (see [`Frame`]).
    fn typed(&self, c: Cell) -> Cell;
    /// The cell typed as `c`.
    fn typed_cell(&self, c: Cell) -> Cell;
    /// How many typed columns one cell is wide in a picture (a triangle spans two).
    fn typed_columns_per_cell(&self) -> i32 {
        1
    }
    /// The move of cells that adds `d` to their typed coordinates, for a `d` that
    /// [`GridKind::typed_step_below`] gives (a typed step that moves cells, not turns them).
    fn typed_translation(&self, d: Cell) -> Cell;
    /// The typed step nearest below `corner` that moves cells without turning them (each
    /// coordinate at most `corner`'s): typed pictures and files start there, so a cell
    /// reads the same wherever it is drawn. Every integer step, unless a grid says otherwise.
    fn typed_step_below(&self, corner: Cell) -> Cell {
        corner
    }
    /// The cell of BurrTools' voxel `v` (a position in a shape's box), or `None` where the
    /// grid has no cell. By default BurrTools' voxels are the grid's own coordinates.
    fn voxel_cell(&self, v: Cell) -> Option<Cell> {
        self.is_cell(v).then_some(v)
    }
    /// Which of BurrTools' voxels are cells, in words, for messages.
    fn voxel_rule(&self) -> &'static str {
        "every voxel"
    }
    /// BurrTools' voxel of a cell, before its shape is moved into its box.
    fn cell_voxel(&self, c: Cell) -> Cell {
        c
    }
    /// The step that moves BurrTools voxels whose box starts at `corner` to the origin as a
    /// BurrTools shape may be moved (each coordinate at most `corner`'s).
    fn burrtools_step_below(&self, corner: Cell) -> Cell {
        self.translation_below(corner)
    }
}
