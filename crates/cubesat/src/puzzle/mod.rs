//! A validated puzzle: pieces with counts, a target made of one or more separate containers with must-fill and optional cells, and hint placements.
//!
//! Containers are laid out side by side along x in one global coordinate space, one empty
//! column apart, so every cell has a unique global position; a container keeps its own local
//! coordinates (`global = origin + local`) for input and output. Puzzles are built and checked
//! by [`crate::puzzle::json`]; the types here only hold the result.

mod bundled;
pub mod burrtools;
pub mod json;

use std::collections::HashMap;

pub use bundled::{
    BUNDLED, CATALOG, DEFAULT_PUZZLE, PuzzleFile, bundled, load, load_with, named, open, read_path,
};

use crate::geometry::{Cell, Grid, Shape, Transform, add, sub, zyx};
use crate::mode::UpTo;

/// Puzzle files (JSON or BurrTools) larger than this are refused, a regular file before it
/// is read, any other source (stdin, a FIFO) when reading reaches it.
pub const MAX_FILE_BYTES: u64 = 8 << 20;
/// The largest number of target cells cubesat accepts.
pub const MAX_TARGET_CELLS: usize = 1 << 16;
/// The largest box side, and the most cells a target or a piece spans along an axis: target
/// coordinates run from 0 to `MAX_COORD - 1`, piece coordinates (before they are moved to the
/// origin) from `-(MAX_COORD - 1)` to `MAX_COORD - 1`.
pub const MAX_COORD: i32 = 1024;
/// The largest number of cells in one piece.
pub const MAX_PIECE_CELLS: usize = 4096;
/// The largest number of piece copies in one puzzle (sum of counts).
pub const MAX_PIECE_COPIES: u64 = 4096;
/// The largest bounding box (in cells) written or drawn cell by cell, as layer art or one
/// character per cell: a sparser shape (two cells at opposite corners of a 1024-cube) is
/// written and drawn as a list of its cells, so that no output grows with the box rather than
/// with the cells.
pub const MAX_ART_CELLS: i64 = MAX_TARGET_CELLS as i64;

/// Whether a box of `size` cells is small enough to be written or drawn cell by cell
/// ([`MAX_ART_CELLS`]; each side also within the `MAX_COORD` that layer art is read back with).
pub fn fits_art(size: [i32; 3]) -> bool {
    size.iter().all(|&s| s <= MAX_COORD)
        && size.iter().map(|&s| i64::from(s.max(0))).product::<i64>() <= MAX_ART_CELLS
}

/// A piece: a polycube with a name, a one-character label for text output, and how many
/// identical copies the puzzle has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The name used in puzzle files and hints.
    pub name: String,
    /// One character shown in layer views.
    pub letter: char,
    /// The cells, normalised.
    pub shape: Shape,
    /// Identical copies (at least 1); copies are never told apart in solutions. With a range
    /// this is the largest number of copies a solution may use.
    pub count: u32,
    /// The fewest copies a solution must use (`count` for a fixed count; less for a range
    /// `min_count..=count`, BurrTools' `min`/`max`).
    pub min_count: u32,
    /// A colour per cell, aligned with `shape.cells()`; empty when every cell has the neutral
    /// colour 0.
    pub colours: Vec<u8>,
    /// BurrTools' shape weight (1 unless a file says otherwise): when a disassembly move
    /// slides some pieces against the others, the side holding the heaviest piece is drawn
    /// still, and of a separation's two parts the lighter one counts as removed.
    pub weight: i32,
    /// BurrTools piece groups: `(group, copies)` pairs, group numbers from 1. Pieces of one
    /// group may stay together at the end of a disassembly (a cage of interlocked pieces
    /// that is meant not to come apart). Empty: the piece is in no group.
    pub groups: Vec<(u16, u16)>,
}

/// The largest group number and shape weight cubesat accepts (BurrTools stores both in 16 bits).
pub const MAX_GROUP: u16 = 1000;

/// Cells with colours, normalised like [`Shape::new`] (translated to the origin, sorted by
/// (z, y, x)).
pub type ColouredCells = Vec<(Cell, u8)>;

/// Every piece's canonical form and its mirror image's ([`Puzzle::canonical_forms`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalForms {
    /// [`Piece::coloured_canonical`] of every piece.
    pub canon: Vec<ColouredCells>,
    /// Every piece's mirror image, in a form equal to `canon[j]` exactly when the mirror
    /// image is piece `j` turned: [`Piece::mirrored_canonical`], or (when the forms are read
    /// off a placement table's orientations) for a chiral piece whose mirror image is no
    /// piece of the set, the mirror image as it lies.
    pub mirrored: Vec<ColouredCells>,
}

/// A cheap invariant of a piece under rotation and reflection, colours included: its cells
/// per colour, and [`layer_counts`]. Pieces with other invariants are not congruent.
fn congruence_invariant(p: &Piece) -> ((usize, Vec<Vec<u32>>), Vec<u8>) {
    let mut colours: Vec<u8> = p.colours.iter().copied().filter(|&c| c != 0).collect();
    colours.sort_unstable();
    (layer_counts(&p.shape), colours)
}

/// A cheap invariant of a shape under rotation and reflection: its cell count and, on the
/// cube grid, how many cells lie in each layer along each axis (each list read from the end
/// that makes it smaller, the three lists sorted), for a transform of the cube grid permutes
/// the axes and may turn each around. Shapes with other invariants are not congruent.
fn layer_counts(shape: &Shape) -> (usize, Vec<Vec<u32>>) {
    if shape.grid() != Grid::Cube {
        return (shape.len(), Vec::new());
    }
    let size = shape.size();
    let mut layers: Vec<Vec<u32>> = size.iter().map(|&n| vec![0; n as usize]).collect();
    for c in shape.cells() {
        for a in 0..3 {
            layers[a][c[a] as usize] += 1;
        }
    }
    for l in &mut layers {
        let reversed: Vec<u32> = l.iter().rev().copied().collect();
        if reversed < *l {
            *l = reversed;
        }
    }
    layers.sort_unstable();
    (shape.len(), layers)
}

fn normalise_coloured(grid: Grid, mut v: ColouredCells) -> ColouredCells {
    let mut min = [i32::MAX; 3];
    for (c, _) in &v {
        for a in 0..3 {
            min[a] = min[a].min(c[a]);
        }
    }
    if !v.is_empty() {
        // As `Grid::normal_offset`: one less along x where the corner is no ball.
        if !grid.is_cell(min) {
            min[0] -= 1;
        }
        for (c, _) in &mut v {
            *c = sub(*c, min);
        }
    }
    let cells: Vec<Cell> = v.iter().map(|(c, _)| *c).collect();
    if let Some(order) = crate::geometry::zyx_order(&cells)
        && order.len() == v.len()
    {
        return order.iter().map(|&i| v[i as usize]).collect();
    }
    // The colour rides in the low bits of the sort key (cells are distinct).
    let keys: Option<Vec<u64>> = v
        .iter()
        .map(|&(c, k)| crate::geometry::zyx_key(c).map(|key| key | u64::from(k)))
        .collect();
    match keys {
        Some(mut keys) => {
            keys.sort_unstable();
            for (slot, &key) in v.iter_mut().zip(&keys) {
                *slot = (crate::geometry::from_zyx_key(key), key as u8);
            }
        }
        None => v.sort_unstable_by_key(|(c, _)| zyx(*c)),
    }
    v
}

impl Piece {
    /// The cells with their colours (colour 0 when the piece is uncoloured).
    pub fn coloured_cells(&self) -> ColouredCells {
        self.shape
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, self.colours.get(i).copied().unwrap_or(0)))
            .collect()
    }

    /// True when some cell has a colour other than 0.
    pub fn is_coloured(&self) -> bool {
        self.colours.iter().any(|&c| c != 0)
    }

    /// True when the number of copies is a range rather than fixed.
    pub fn is_ranged(&self) -> bool {
        self.min_count != self.count
    }

    /// The coloured cells transformed by `t`, normalised, or `None` when `t` does not fit
    /// the piece (see [`Grid::transform_cells`]).
    pub fn coloured_transformed(&self, t: &Transform) -> Option<ColouredCells> {
        let grid = self.shape.grid();
        let colour = |i: usize| self.colours.get(i).copied().unwrap_or(0);
        if let Some((cells, from)) = grid.normalised_image(t, self.shape.cells()) {
            return Some(
                cells
                    .into_iter()
                    .zip(from)
                    .map(|(c, i)| (c, colour(i as usize)))
                    .collect(),
            );
        }
        let cells = grid.transform_cells(t, self.shape.cells())?;
        Some(normalise_coloured(
            grid,
            cells
                .into_iter()
                .enumerate()
                .map(|(i, c)| (c, self.colours.get(i).copied().unwrap_or(0)))
                .collect(),
        ))
    }

    /// The distinct orientations (shape and colour layout) under the grid's proper rotations,
    /// or all its transforms with `mirror`, first occurrence kept. Two orientations with the
    /// same cells but different colour layouts are different (as in BurrTools). For an
    /// uncoloured piece this is [`Shape::orientations`] with empty colour lists.
    pub fn orientations(&self, mirror: bool) -> Vec<(Shape, Vec<u8>)> {
        if !self.is_coloured() {
            return self
                .shape
                .orientations(mirror)
                .into_iter()
                .map(|s| (s, Vec::new()))
                .collect();
        }
        let grid = self.shape.grid();
        // Told apart by comparison, not hashing (see `Shape::orientations`).
        let mut seen: Vec<ColouredCells> = Vec::new();
        for t in grid.transforms_for(mirror) {
            let Some(v) = self.coloured_transformed(t) else {
                continue;
            };
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen.into_iter()
            .map(|v| {
                // Normalised and sorted already: a shape as it stands.
                let shape = Shape::from_normalised(grid, v.iter().map(|(c, _)| *c).collect());
                (shape, v.into_iter().map(|(_, k)| k).collect())
            })
            .collect()
    }

    /// The smallest coloured orientation under the proper rotations: two pieces are the same
    /// up to rotation (colours included) iff these agree.
    pub fn coloured_canonical(&self) -> ColouredCells {
        self.shape
            .grid()
            .rotations()
            .iter()
            .filter_map(|t| self.coloured_transformed(t))
            .min()
            .unwrap_or_default()
    }

    /// The canonical form of the mirror image (colours included).
    pub fn mirrored_canonical(&self) -> ColouredCells {
        let grid = self.shape.grid();
        let m: ColouredCells = self
            .coloured_cells()
            .into_iter()
            .map(|([x, y, z], k)| ([-x, y, z], k))
            .collect();
        let cells: Vec<Cell> = m.iter().map(|(c, _)| *c).collect();
        grid.rotations()
            .iter()
            .filter_map(|t| {
                if let Some((moved, from)) = grid.normalised_image(t, &cells) {
                    return Some(
                        moved
                            .into_iter()
                            .zip(from)
                            .map(|(c, i)| (c, m[i as usize].1))
                            .collect(),
                    );
                }
                let moved = grid.transform_cells(t, &cells)?;
                Some(normalise_coloured(
                    grid,
                    moved
                        .into_iter()
                        .zip(&m)
                        .map(|(c, &(_, k))| (c, k))
                        .collect(),
                ))
            })
            .min()
            .unwrap_or_default()
    }

    /// True when the piece (colours included) is its own mirror image up to rotation.
    pub fn is_achiral_coloured(&self) -> bool {
        self.coloured_canonical() == self.mirrored_canonical()
    }
}

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
    /// grid coordinates: zero on the cube grid; on the sphere grid an even vector so that
    /// local cell `c` is ball `sphere_to_layer(c + frame)` of the layer frame.
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
    /// container (the caller checks and reports positions). On the sphere grid each container
    /// starts at an even x, so a ball stays a ball when moved into place.
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
            let frame = spec.frame.unwrap_or_else(|| match grid {
                Grid::Cube => [0; 3],
                // The layer frame is linear, so moving every ball by the least layer
                // coordinates (negated) starts them at 0.
                Grid::Sphere => {
                    let mut m = [i32::MAX; 3];
                    for (c, _) in &spec.cells {
                        let l = crate::geometry::sphere_to_layer(*c);
                        for a in 0..3 {
                            m[a] = m[a].min(l[a]);
                        }
                    }
                    if spec.cells.is_empty() {
                        [0; 3]
                    } else {
                        crate::geometry::sphere_from_layer(m.map(|v| -v))
                    }
                }
            });
            let origin = [next_x, 0, 0];
            next_x += size[0] + 1;
            if !grid.is_cell([next_x, 0, 0]) {
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

/// A hint: one copy of a piece fixed at the given global cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Index of the piece.
    pub piece: usize,
    /// Global cells, sorted.
    pub cells: Vec<Cell>,
}

/// Published solution counts, recorded in the puzzle file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownCounts {
    /// Every placement, each listed piece distinct.
    pub all: Option<u64>,
    /// Up to the rotations mapping the target onto itself.
    pub rotation: Option<u64>,
    /// Up to rotations and reflections.
    pub rotation_reflection: Option<u64>,
    /// Where the counts come from.
    pub source: Option<String>,
}

impl KnownCounts {
    /// True when no count is recorded.
    pub fn is_empty(&self) -> bool {
        self.all.is_none() && self.rotation.is_none() && self.rotation_reflection.is_none()
    }
}

/// A puzzle's catalog record (the `catalog` key of the files under `puzzles/catalog`): its
/// family, the counts published for it with their conventions and sources, and cubesat's own
/// counts, so that a disagreement is written down together with how it was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    /// The family (`soma`, `pentominoes`, ...): the folder the file lives in.
    pub family: String,
    /// Published counts; empty when no published count was found (`"published": null`).
    pub published: Vec<Published>,
    /// cubesat's own count in every mode.
    pub counts: CatalogCounts,
    /// True when the check (every mode by the exact engine, the published mode by dancing links,
    /// one thread each) takes more than ten CPU seconds: the `catalog` bench counts it and the
    /// catalog test leaves it out.
    pub slow: bool,
    /// For a puzzle whose source left its count unfinished: where it says so, and what cubesat
    /// measured (the count's cost, or an estimate where no count finished).
    pub incomplete: Option<Incomplete>,
}

/// A count the source left unfinished (Polyform Puzzler's "solutions incomplete"), the
/// `incomplete` key of a catalog record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incomplete {
    /// Where the source says its solutions are incomplete: author, page, section, address.
    pub source: String,
    /// The source's counting convention, and the cubesat mode it translates into.
    pub convention: String,
    /// How cubesat's counts in the record were made, when they were.
    pub counted: Option<Counted>,
    /// cubesat's estimate of the count's cost, where no count finished.
    pub estimate: Option<Estimate>,
}

/// How the counts of an [`Incomplete`] record were made.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// CPU seconds of the counts in every recorded mode together.
    pub cpu_seconds: f64,
    /// What was run and what the counts mean.
    pub how: String,
}

// The reader admits finite numbers only.
impl Eq for Counted {}

/// `cubesat estimate`'s figures for a count that did not finish.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The counting mode estimated.
    pub up_to: UpTo,
    /// The estimated nodes of the search tree.
    pub nodes: f64,
    /// The low end of the estimate's interval.
    pub low: f64,
    /// The high end; `None` when the interval is unbounded.
    pub high: Option<f64>,
    /// The CPU seconds the count would take on the machine measured.
    pub cpu_seconds: f64,
    /// How long the estimate's probes ran, in seconds.
    pub seconds: f64,
    /// The seed of the random probes.
    pub seed: u64,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

// The reader admits finite numbers only.
impl Eq for Estimate {}

impl Catalog {
    /// Whether cubesat's counts agree with every published count: `None` when nothing is
    /// published, `Some(false)` when some published count differs (its finding says why).
    pub fn agrees(&self) -> Option<bool> {
        if self.published.is_empty() {
            return None;
        }
        Some(self.published.iter().all(|p| p.agrees(&self.counts)))
    }
}

/// One published count: the number, the cubesat mode its convention amounts to, the
/// convention in the source's own terms, and the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    /// The number the source gives.
    pub count: u64,
    /// The cubesat counting mode the source's convention translates into (for a board one
    /// cell thick, "up to rotation and reflection" of the plane is cubesat's `rotation`:
    /// turning the board over is a rotation in space).
    pub up_to: UpTo,
    /// The convention as the source states it, and how it translates.
    pub convention: String,
    /// Where the count is published: author, title, section or page, address.
    pub source: String,
    /// How a disagreement with cubesat's count was settled; required exactly when the
    /// counts differ.
    pub finding: Option<Finding>,
}

impl Published {
    /// True when cubesat's count in this count's mode equals it.
    pub fn agrees(&self, counts: &CatalogCounts) -> bool {
        counts.get(self.up_to) == ModeCount::Count(self.count)
    }
}

/// How a published count that differs from cubesat's was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which side is right.
    pub verdict: Verdict,
    /// For [`Verdict::Convention`]: the cubesat mode whose count equals the published one,
    /// when there is one.
    pub matches: Option<UpTo>,
    /// The explanation: what differs and how the second engine decided it.
    pub text: String,
}

/// The outcome of a disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The source counts under another convention than it states (or than the catalog first
    /// read it as); the number is right for that convention.
    Convention,
    /// The source's number is wrong: cubesat and a second engine agree on another.
    Source,
}

impl Verdict {
    /// The name used in files.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Convention => "convention",
            Verdict::Source => "source",
        }
    }
}

/// cubesat's count in one mode, as the catalog records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ModeCount {
    /// Not recorded.
    #[default]
    NotCounted,
    /// The mode is not defined for the puzzle (a piece set that is not closed under mirror
    /// images has no count up to reflection).
    Undefined,
    /// The count.
    Count(u64),
}

/// cubesat's counts in the three modes of a catalog record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CatalogCounts {
    /// Every placement (`none`).
    pub none: ModeCount,
    /// Up to rotation.
    pub rotation: ModeCount,
    /// Up to rotation and reflection.
    pub rotation_reflection: ModeCount,
}

impl CatalogCounts {
    /// The modes a catalog records, in order.
    pub const MODES: [UpTo; 3] = [UpTo::None, UpTo::Rotation, UpTo::RotationReflection];

    /// The count in `mode` (BurrTools' mode is never recorded).
    pub fn get(&self, mode: UpTo) -> ModeCount {
        match mode {
            UpTo::None => self.none,
            UpTo::Rotation => self.rotation,
            UpTo::RotationReflection => self.rotation_reflection,
            UpTo::BurrTools => ModeCount::NotCounted,
        }
    }
}

/// A validated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Display name.
    pub name: String,
    /// The lattice the pieces and the target live on.
    pub grid: Grid,
    /// Free text from the file.
    pub description: String,
    /// The pieces, in file order.
    pub pieces: Vec<Piece>,
    /// Where they go.
    pub target: Target,
    /// Fixed placements.
    pub hints: Vec<Hint>,
    /// True when pieces may also be used mirrored (free pieces), not just rotated.
    pub mirror: bool,
    /// True when disconnected pieces were explicitly allowed.
    pub allow_disconnected: bool,
    /// Published counts.
    pub known_counts: KnownCounts,
    /// The catalog record, for the puzzles of `puzzles/catalog` (and any file with a
    /// `catalog` key).
    pub catalog: Option<Catalog>,
    /// The colour rule: `None` lets any piece colour sit on any target colour; otherwise a
    /// piece cell of colour `a` may sit on a target cell of colour `b` when either is 0 or
    /// `(a, b)` is listed (colour numbers as written in voxel strings, from 1).
    pub colour_pairs: Option<Vec<(u8, u8)>>,
    /// At most this many optional cells may stay empty (BurrTools' `maxHoles`); `None` = any.
    pub max_holes: Option<u32>,
    /// The counting mode `solve --count` uses when none is given (BurrTools files count in
    /// BurrTools' convention).
    pub default_up_to: Option<UpTo>,
    /// What the reader noticed and ignored (BurrTools groups, stored solutions...), for the
    /// user.
    pub notes: Vec<String>,
}

impl Puzzle {
    /// A puzzle of these pieces and this target with every other field at its plain value:
    /// no description, hints, known counts, catalog record, colour rule, hole limit, default
    /// counting mode or notes; rotations only; connected pieces only.
    pub fn new(name: String, grid: Grid, pieces: Vec<Piece>, target: Target) -> Puzzle {
        Puzzle {
            name,
            grid,
            description: String::new(),
            pieces,
            target,
            hints: Vec::new(),
            mirror: false,
            allow_disconnected: false,
            known_counts: KnownCounts::default(),
            catalog: None,
            colour_pairs: None,
            max_holes: None,
            default_up_to: None,
            notes: Vec::new(),
        }
    }

    /// True when some piece has a range of copies.
    pub fn has_ranges(&self) -> bool {
        self.pieces.iter().any(|p| p.is_ranged())
    }

    /// The smallest total volume of the pieces (every piece at its `min_count`).
    pub fn min_piece_volume(&self) -> u64 {
        self.pieces
            .iter()
            .map(|p| p.shape.len() as u64 * p.min_count as u64)
            .sum()
    }

    /// True when a piece cell of colour `piece` may sit on a target cell of colour `target`.
    pub fn colour_allowed(&self, piece: u8, target: u8) -> bool {
        match &self.colour_pairs {
            None => true,
            Some(pairs) => piece == 0 || target == 0 || pairs.contains(&(piece, target)),
        }
    }

    /// Every piece's canonical form and its mirror image's ([`Piece::coloured_canonical`],
    /// [`Piece::mirrored_canonical`]), for the mirror pairings below, which a symmetry
    /// reduction asks for several times (each form is the least of 24 transformed copies: a
    /// fifth of a count of BurrTools' DraculasDentalDesaster, whose box is a piece of 936
    /// cells, went into computing them three times).
    pub fn canonical_forms(&self) -> CanonicalForms {
        CanonicalForms {
            canon: self.pieces.iter().map(|p| p.coloured_canonical()).collect(),
            mirrored: self.pieces.iter().map(|p| p.mirrored_canonical()).collect(),
        }
    }

    /// [`Puzzle::canonical_forms`], each piece's own form taken as the least of its
    /// orientations under the rotations when those are at hand (`orientations`, as
    /// [`Piece::orientations`] without mirror lists them: the distinct rotated copies, so
    /// their least is the canonical form) instead of transforming the piece again.
    pub(crate) fn canonical_forms_from(
        &self,
        orientations: &[Vec<Shape>],
        colours: &[Vec<Vec<u8>>],
    ) -> CanonicalForms {
        if self.mirror || orientations.len() != self.pieces.len() {
            return self.canonical_forms();
        }
        // An orientation as coloured cells, as the canonical forms list them.
        let coloured = |shape: &Shape, cols: Option<&Vec<u8>>| -> ColouredCells {
            let col = cols.map_or(&[][..], |c| c.as_slice());
            shape
                .cells()
                .iter()
                .enumerate()
                .map(|(k, &c)| (c, col.get(k).copied().unwrap_or(0)))
                .collect()
        };
        let canon: Vec<ColouredCells> = orientations
            .iter()
            .zip(colours)
            .map(|(shapes, cols)| {
                shapes
                    .iter()
                    .enumerate()
                    .map(|(o, s)| coloured(s, cols.get(o)))
                    .min()
                    .unwrap_or_default()
            })
            .collect();
        // The mirror image's canonical form is a piece's own when the mirror image, moved to
        // the origin, is one of that piece's orientations (itself when achiral, or another
        // with its invariant): one reflection and a few comparisons instead of turning the
        // mirror image through every rotation. When it is none of them it is no piece's
        // orientation, so it equals no canonical form as it lies, and is kept so (see
        // `CanonicalForms::mirrored`). Off the cube grid: the long way.
        let invariants: Vec<_> = self.pieces.iter().map(congruence_invariant).collect();
        let mirrored = (0..self.pieces.len())
            .map(|i| {
                let piece = &self.pieces[i];
                if piece.shape.grid() != Grid::Cube {
                    return piece.mirrored_canonical();
                }
                let image = normalise_coloured(
                    Grid::Cube,
                    piece
                        .coloured_cells()
                        .into_iter()
                        .map(|([x, y, z], k)| ([-x, y, z], k))
                        .collect(),
                );
                let mut partners = std::iter::once(i).chain(
                    (0..self.pieces.len()).filter(|&j| j != i && invariants[j] == invariants[i]),
                );
                match partners.find(|&j| {
                    orientations[j].iter().enumerate().any(|(o, s)| {
                        s.len() == image.len()
                            && coloured(s, colours.get(j).and_then(|c| c.get(o))) == image
                    })
                }) {
                    Some(j) => canon[j].clone(),
                    None => image,
                }
            })
            .collect();
        CanonicalForms { canon, mirrored }
    }

    /// For every piece, the piece its mirror image is: itself when achiral (colours
    /// included), else the first piece congruent to its mirror image by a rotation, or `None`.
    /// Counts are not compared (see [`Puzzle::mirror_partners`] for a full pairing).
    pub fn mirror_parts(&self) -> Vec<Option<usize>> {
        self.mirror_parts_of(&self.canonical_forms())
    }

    /// [`Puzzle::mirror_parts`] from the pieces' [`Puzzle::canonical_forms`].
    pub fn mirror_parts_of(&self, forms: &CanonicalForms) -> Vec<Option<usize>> {
        let canon = &forms.canon;
        (0..self.pieces.len())
            .map(|i| {
                let m = &forms.mirrored[i];
                if *m == canon[i] {
                    Some(i)
                } else {
                    canon.iter().position(|c| c == m)
                }
            })
            .collect()
    }

    /// Total volume of all piece copies (every piece at its largest count).
    pub fn piece_volume(&self) -> u64 {
        self.pieces
            .iter()
            .map(|p| p.shape.len() as u64 * p.count as u64)
            .sum()
    }

    /// Index of the piece with this name.
    pub fn piece_index(&self, name: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.name == name)
    }

    /// Groups of two or more listed pieces with the same shape and colours (congruent by a
    /// rotation, or also by a reflection when the puzzle allows mirroring), in piece order.
    /// Such pieces are told apart by name only, so solutions that swap them count as
    /// different; one entry with `count` makes them identical copies. Pieces of one shape in
    /// other colours are not interchangeable, and not grouped.
    pub fn same_shapes(&self) -> Vec<Vec<usize>> {
        // Canonical forms cost 24 to 48 transforms of the whole shape: taken only for pieces
        // that share a `congruence_invariant` with another piece (of the nine 136- and
        // 152-cell teeth of BurrTools' DraculasDentalDesaster, two).
        let roughs: Vec<_> = self.pieces.iter().map(congruence_invariant).collect();
        let key = |p: &Piece| {
            let c = p.coloured_canonical();
            if self.mirror {
                c.min(p.mirrored_canonical())
            } else {
                c
            }
        };
        let keys: Vec<Option<ColouredCells>> = (0..self.pieces.len())
            .map(|i| {
                (roughs.iter().filter(|&r| *r == roughs[i]).count() > 1)
                    .then(|| key(&self.pieces[i]))
            })
            .collect();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..self.pieces.len() {
            if keys[i].is_none() || groups.iter().any(|g| g.contains(&i)) {
                continue;
            }
            let g: Vec<usize> = (i..self.pieces.len())
                .filter(|&j| keys[j] == keys[i])
                .collect();
            if g.len() > 1 {
                groups.push(g);
            }
        }
        groups
    }

    /// The other pieces whose shape is the mirror image of piece `i` (up to rotation), in
    /// piece order; empty for an achiral piece or a piece whose mirror image is not in the set.
    pub fn mirror_images_of(&self, i: usize) -> Vec<usize> {
        let shape = &self.pieces[i].shape;
        if shape.is_achiral() {
            return Vec::new();
        }
        let m = shape.mirrored().canonical();
        (0..self.pieces.len())
            .filter(|&j| j != i && self.pieces[j].shape.canonical() == m)
            .collect()
    }

    /// For every piece, the piece that is its mirror image (itself when achiral, or always
    /// when the puzzle allows mirroring), or `None` when some chiral piece's partner is missing
    /// or has another count: then "up to rotation and reflection" is not defined.
    pub fn mirror_partners(&self) -> Option<Vec<usize>> {
        if self.mirror {
            return Some((0..self.pieces.len()).collect());
        }
        self.mirror_partners_of(&self.canonical_forms())
    }

    /// [`Puzzle::mirror_partners`] from the pieces' [`Puzzle::canonical_forms`].
    pub fn mirror_partners_of(&self, forms: &CanonicalForms) -> Option<Vec<usize>> {
        if self.mirror {
            return Some((0..self.pieces.len()).collect());
        }
        let canon = &forms.canon;
        let mut partner = Vec::with_capacity(self.pieces.len());
        for (i, p) in self.pieces.iter().enumerate() {
            let m = &forms.mirrored[i];
            if *m == canon[i] {
                partner.push(i);
                continue;
            }
            let candidates: Vec<usize> = (0..self.pieces.len())
                .filter(|&j| {
                    canon[j] == *m
                        && self.pieces[j].count == p.count
                        && self.pieces[j].min_count == p.min_count
                })
                .collect();
            // Pair the k-th piece of a shape with the k-th piece of the mirrored shape, so
            // several listed pieces of the same shape still pair one to one.
            let rank = (0..i).filter(|&j| canon[j] == canon[i]).count();
            partner.push(*candidates.get(rank)?);
        }
        // The pairing must be an involution.
        if partner.iter().enumerate().all(|(i, &j)| partner[j] == i) {
            Some(partner)
        } else {
            None
        }
    }
}
