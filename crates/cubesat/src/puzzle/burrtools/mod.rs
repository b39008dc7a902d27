//! BurrTools puzzle files (`.xmpuzzle`, the cube grid and the sphere grid): gzip or plain XML, puzzle versions 1 and 2, every problem of a file turned into a cubesat [`crate::Puzzle`].
//!
//! The format and BurrTools' meaning of each feature are described in
//! `../shared/notes/formats.md` and `../shared/reference/burrtools/README.md` (read from
//! BurrTools' source; no BurrTools code is used here). In short: shapes are voxel strings
//! (`#` fixed, `+` variable, `_` empty, an optional colour number after a state, x fastest);
//! a problem lists parts (`count`, or a range `min`..`max`), names a result shape whose `+`
//! voxels may stay empty, an optional `maxHoles`, and colour pairs (written 0-based: pair
//! `piece="a" result="b"` lets colour a+1 sit on colour b+1).
//!
//! Errors are one line, `FILE: line L: <element> ...: what is wrong`. Sizes are bounded
//! before anything is allocated or inflated: the file, the inflated XML (checked against the
//! gzip trailer first, then while inflating), and every voxel box.

use std::path::Path;

use crate::error::Result;

use crate::geometry::{Cell, Grid};

pub use crate::puzzle::MAX_FILE_BYTES;
pub use xml::{MAX_XML_DEPTH, parse};

mod convert;
mod xml;
/// Inflated XML larger than this is refused (a gzip bomb stops here).
pub const MAX_XML_BYTES: u64 = 32 << 20;
/// The largest voxel box (x*y*z) of one shape.
pub const MAX_VOXELS: u64 = 1 << 22;
/// The largest colour number BurrTools allows.
pub const MAX_COLOUR: u32 = 63;

/// The state of a voxel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// `#`: a voxel that must be filled (in a result) or is part of the piece.
    Fixed,
    /// `+`: a result voxel that may stay empty.
    Variable,
}

/// A shape of the file: its non-empty voxels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrShape {
    /// The shape's name (may be empty).
    pub name: String,
    /// The voxel box size.
    pub size: [i32; 3],
    /// Non-empty voxels: position in the box, state, colour (0 = neutral).
    pub voxels: Vec<(Cell, State, u8)>,
    /// Line of the `<voxel>` element, for messages.
    pub line: u32,
    /// The shape's weight (`weight`, default 1): which side of a disassembly move stays still.
    pub weight: i32,
}

/// One part of a problem: a shape and how many copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Shape id (index into the file's shapes).
    pub shape: usize,
    /// Fewest copies.
    pub min: u32,
    /// Most copies.
    pub max: u32,
    /// Piece groups: `(group, copies)`, from a `group` attribute (every copy) or `<group
    /// group= count=>` children; group 0 entries are dropped.
    pub groups: Vec<(u16, u16)>,
}

/// A problem of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The name (may be empty).
    pub name: String,
    /// The parts, in file order.
    pub parts: Vec<Part>,
    /// The result shape id.
    pub result: usize,
    /// `maxHoles`, if given.
    pub max_holes: Option<u32>,
    /// Colour pairs as colour numbers (from 1): piece colour, result colour.
    pub pairs: Vec<(u8, u8)>,
    /// Notes on what was read and ignored.
    pub notes: Vec<String>,
}

/// A whole BurrTools file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrFile {
    /// The name shown in messages (the path).
    pub shown: String,
    /// Puzzle format version (1 or 2).
    pub version: u32,
    /// Number of custom colours (`<color>` elements).
    pub colours: u32,
    /// The colours' RGB values.
    pub rgb: Vec<[u8; 3]>,
    /// The shapes.
    pub shapes: Vec<BurrShape>,
    /// The problems.
    pub problems: Vec<Problem>,
    /// The file's comment.
    pub comment: String,
    /// Notes about the whole file.
    pub notes: Vec<String>,
    /// The grid (`<gridType>`; cubes when absent).
    pub grid: Grid,
}

/// True when `path` or its first bytes look like a BurrTools file: the `.xmpuzzle` or `.xml`
/// extension, the gzip magic, or XML text.
pub fn looks_like_burrtools(path: &Path, head: &[u8]) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if matches!(ext.as_deref(), Some("xmpuzzle") | Some("xml")) {
        return true;
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return true;
    }
    let text = head.iter().position(|b| !b.is_ascii_whitespace());
    text.is_some_and(|i| head[i] == b'<')
}

/// Reads a BurrTools file from disk (opened and read once, at most [`MAX_FILE_BYTES`]).
pub fn read_file(path: &Path) -> Result<BurrFile> {
    let bytes = crate::input::read_file(path, MAX_FILE_BYTES)?;
    parse(&bytes, &path.display().to_string())
}
