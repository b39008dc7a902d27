//! Shapes: finite sets of cells of one grid up to translation, and their orientations.

use super::{Cell, Grid, Transform, sort_zyx, sub, zyx_order};

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
