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
    /// BurrTools' `gridType` number.
    fn burrtools_type(&self) -> u32;
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
    /// True when the disassembler can take its assemblies apart.
    fn can_disassemble(&self) -> bool;
    /// True when the product of two of its transforms is again one of them.
    fn symmetries_compose(&self) -> bool;
    /// True when `c` is a cell.
    fn is_cell(&self, c: Cell) -> bool;
    /// The offsets from a cell to the cells it touches.
    fn neighbour_offsets(&self) -> &'static [Cell];
    /// The centre of a cell in space, in units of the cell size.
    fn centre(&self, c: Cell) -> [f64; 3];
    /// The transforms, proper rotations first (identity first), then each composed with
    /// [`Transform::MIRROR_X`] in the same order.
    fn transforms(&self) -> &'static [Transform];
    /// The coordinates people type for a cell (see [`Frame`]).
    fn typed(&self, c: Cell) -> Cell;
    /// The cell typed as `c`.
    fn typed_cell(&self, c: Cell) -> Cell;
}
