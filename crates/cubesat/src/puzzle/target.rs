//! The target: its cells, laid out container by container along x, indexed by position, with their colours and the coordinates people read and write.

use std::collections::HashMap;

use crate::geometry::{Cell, Grid, add, sub, zyx};

/// A cell of the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetCell {
    /// Global position.
    pub pos: Cell,
    /// Index of the container holding the cell.
    pub container: u32,
    /// True for a cell that may stay empty (`+` in layer art).
    pub optional: bool,
}

/// One separate container of the target (a box, or any shape of cells).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    /// Global position of the container's local origin.
    pub origin: Cell,
    /// Size of the container's local bounding box (from the local origin).
    pub size: [i32; 3],
    /// Indices of the container's target cells, ascending.
    pub cells: Vec<u32>,
    /// Where the coordinates people read and write ([`Target::user_local`]) start, in local
    /// grid coordinates: zero where people type the grid's own coordinates
    /// ([`crate::geometry::Frame::Lattice`]); in a frame of layers (the sphere grid) a step of
    /// the grid (an even vector) so that local cell `c` is typed as `grid.to_user(c + frame)`.
    pub frame: Cell,
}

/// The target cells by position: a dense grid over their bounding box (`u32::MAX` where no
/// cell is), or a map when the box is large for the number of cells. Placement enumeration
/// looks up every cell of every orientation at every target cell: a hashed lookup each was
/// three quarters of a count of BurrTools' DraculasDentalDesaster (1,656 cells).
#[derive(Clone, Debug, PartialEq, Eq)]
enum CellIndex {
    Grid { size: [i32; 3], cells: Vec<u32> },
    Map(HashMap<Cell, u32>),
}

impl CellIndex {
    /// The index of `cells`; a grid when its box has at most 64 entries per cell (or 4,096).
    fn new(cells: &[TargetCell]) -> CellIndex {
        let mut size = [0i32; 3];
        for c in cells {
            for (s, &v) in size.iter_mut().zip(&c.pos) {
                *s = (*s).max(v.saturating_add(1));
            }
        }
        let volume = size.iter().map(|&s| s.max(0) as u64).product::<u64>();
        let limit = (64 * cells.len() as u64).max(4096);
        if volume <= limit && cells.iter().all(|c| c.pos.iter().all(|&v| v >= 0)) {
            let mut grid = vec![u32::MAX; volume as usize];
            for (i, c) in cells.iter().enumerate() {
                let [x, y, z] = c.pos;
                grid[((z * size[1] + y) * size[0] + x) as usize] = i as u32;
            }
            CellIndex::Grid { size, cells: grid }
        } else {
            CellIndex::Map(
                cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (c.pos, i as u32))
                    .collect(),
            )
        }
    }

    fn get(&self, pos: Cell) -> Option<u32> {
        match self {
            CellIndex::Grid { size, cells } => {
                let [x, y, z] = pos;
                if x < 0 || y < 0 || z < 0 || x >= size[0] || y >= size[1] || z >= size[2] {
                    return None;
                }
                let c = cells[((z * size[1] + y) * size[0] + x) as usize];
                (c != u32::MAX).then_some(c)
            }
            CellIndex::Map(m) => m.get(&pos).copied(),
        }
    }
}

/// The target: every cell the pieces go into, grouped into containers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    grid: Grid,
    cells: Vec<TargetCell>,
    containers: Vec<Container>,
    index: CellIndex,
    /// A colour per target cell (BurrTools colours), empty when every cell has colour 0.
    colours: Vec<u8>,
}

/// One container as read from a file, in local coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerSpec {
    /// Local cells (non-negative coordinates) and whether each is optional.
    pub cells: Vec<(Cell, bool)>,
    /// The container's [`Container::frame`]; `None` picks the one whose user coordinates
    /// start at 0 along every axis.
    pub frame: Option<Cell>,
}

impl ContainerSpec {
    /// A full box of must-fill cells.
    pub fn full_box(size: [i32; 3]) -> ContainerSpec {
        let mut cells = Vec::new();
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    cells.push(([x, y, z], false));
                }
            }
        }
        ContainerSpec { cells, frame: None }
    }
}

impl Target {
    /// A cube-grid target ([`Target::new_on`]).
    pub fn new(specs: &[ContainerSpec]) -> Target {
        Target::new_on(Grid::Cube, specs)
    }

    /// Lays the containers out side by side along x and indexes their cells (container, then
    /// z, y, x). Cells must be distinct, non-negative and cells of `grid` within each
    /// container (the caller checks and reports positions). Each container starts at a
    /// translation of the grid (an even x on the sphere and prism grids), so its cells stay
    /// cells of the same kind when moved into place.
    pub fn new_on(grid: Grid, specs: &[ContainerSpec]) -> Target {
        let mut cells = Vec::new();
        let mut containers = Vec::new();
        let mut next_x = 0;
        for (ci, spec) in specs.iter().enumerate() {
            let mut size = [0; 3];
            for (c, _) in &spec.cells {
                for a in 0..3 {
                    size[a] = size[a].max(c[a] + 1);
                }
            }
            // The typed coordinates start at 0 along every axis.
            let frame = spec
                .frame
                .unwrap_or_else(|| grid.layer_origin(spec.cells.iter().map(|(c, _)| *c)));
            let origin = [next_x, 0, 0];
            next_x += size[0] + 1;
            while !grid.is_translation([next_x, 0, 0]) {
                next_x += 1;
            }
            let mut local: Vec<(Cell, bool)> = spec.cells.clone();
            local.sort_by_key(|(c, _)| zyx(*c));
            let mut ids = Vec::with_capacity(local.len());
            for (c, optional) in local {
                let pos = add(origin, c);
                let id = cells.len() as u32;
                cells.push(TargetCell {
                    pos,
                    container: ci as u32,
                    optional,
                });
                ids.push(id);
            }
            containers.push(Container {
                origin,
                size,
                cells: ids,
                frame,
            });
        }
        Target {
            grid,
            index: CellIndex::new(&cells),
            cells,
            containers,
            colours: Vec::new(),
        }
    }

    /// The grid the target lives on.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Sets a colour per target cell (in [`Target::cells`] order); all zeros clears them.
    pub fn set_colours(&mut self, colours: Vec<u8>) {
        if colours.iter().all(|&c| c == 0) || colours.len() != self.cells.len() {
            self.colours = Vec::new();
        } else {
            self.colours = colours;
        }
    }

    /// The colour of a target cell (0 = neutral).
    pub fn colour(&self, cell: u32) -> u8 {
        self.colours.get(cell as usize).copied().unwrap_or(0)
    }

    /// True when some target cell has a colour other than 0.
    pub fn is_coloured(&self) -> bool {
        !self.colours.is_empty()
    }

    /// All target cells.
    pub fn cells(&self) -> &[TargetCell] {
        &self.cells
    }

    /// The containers.
    pub fn containers(&self) -> &[Container] {
        &self.containers
    }

    /// The target cell at a global position.
    pub fn cell_at(&self, pos: Cell) -> Option<u32> {
        self.index.get(pos)
    }

    /// The dense index of the cells, when the target has one: the size of the box from the
    /// origin holding every cell, and for each position `[x, y, z]` in it, at
    /// `(z * size[1] + y) * size[0] + x`, its cell or `u32::MAX`. Each container's box lies
    /// inside it.
    pub(crate) fn dense_index(&self) -> Option<([i32; 3], &[u32])> {
        match &self.index {
            CellIndex::Grid { size, cells } => Some((*size, cells)),
            CellIndex::Map(_) => None,
        }
    }

    /// Number of must-fill cells.
    pub fn must_count(&self) -> usize {
        self.cells.iter().filter(|c| !c.optional).count()
    }

    /// Number of optional cells.
    pub fn optional_count(&self) -> usize {
        self.cells.len() - self.must_count()
    }

    /// Local coordinates of a target cell inside its container.
    pub fn local(&self, cell: u32) -> (u32, Cell) {
        let c = self.cells[cell as usize];
        let o = self.containers[c.container as usize].origin;
        (
            c.container,
            [c.pos[0] - o[0], c.pos[1] - o[1], c.pos[2] - o[2]],
        )
    }

    /// The coordinates people read and write for a target cell: its container and its
    /// position there, in the grid's user frame (cube grid: the local coordinates; sphere
    /// grid: the layer frame, see [`Container::frame`]).
    pub fn user_local(&self, cell: u32) -> (u32, Cell) {
        let (ci, local) = self.local(cell);
        let frame = self.containers[ci as usize].frame;
        (ci, self.grid.to_user(add(local, frame)))
    }

    /// The global position of user coordinates `c` of container `ci` (the inverse of
    /// [`Target::user_local`]; the position need not be a target cell).
    pub fn user_to_global(&self, ci: usize, c: Cell) -> Cell {
        let cont = &self.containers[ci];
        add(cont.origin, sub(self.grid.from_user(c), cont.frame))
    }

    /// True when a container is a full box of must-fill cells.
    pub fn is_full_box(&self, container: usize) -> bool {
        let c = &self.containers[container];
        let volume = c.size.iter().map(|&s| s as i64).product::<i64>();
        volume == c.cells.len() as i64 && c.cells.iter().all(|&i| !self.cells[i as usize].optional)
    }
}
