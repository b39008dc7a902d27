//! A validated puzzle: pieces with counts, a target made of one or more separate containers with must-fill and optional cells, and hint placements.
//!
//! Containers are laid out side by side along x in one global coordinate space, one empty
//! column apart, so every cell has a unique global position; a container keeps its own local
//! coordinates (`global = origin + local`) for input and output. Puzzles are built and checked
//! by [`crate::puzzle::json`]; the types here only hold the result. The target lives in
//! `target`, the published counts and catalog record in `catalog`, and which pieces are the
//! same or mirror images of each other in `congruence`.

mod bundled;
pub mod burrtools;
mod catalog;
mod congruence;
pub mod json;
mod target;

pub use bundled::{
    BUNDLED, CATALOG, DEFAULT_PUZZLE, PuzzleFile, bundled, load, load_with, named, open, read_path,
};
pub use catalog::{
    Catalog, CatalogCounts, Counted, Estimate, Finding, Incomplete, KnownCounts, ModeCount,
    Published, Verdict,
};
pub use congruence::{CanonicalForms, ColouredCells};
pub use target::{Container, ContainerSpec, Target, TargetCell};

use crate::geometry::{Cell, Grid, Shape};
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
}

/// A hint: one copy of a piece fixed at the given global cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Index of the piece.
    pub piece: usize,
    /// Global cells, sorted.
    pub cells: Vec<Cell>,
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
}

// The bundled puzzles' tests check the layer-count invariant on every piece.
#[cfg(test)]
use congruence::layer_counts;
