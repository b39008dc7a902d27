//! BurrTools puzzle files (`.xmpuzzle`, the cube grid and the sphere grid): gzip or plain XML, puzzle versions 1 and 2, every problem of a file turned into a cubesat [`Puzzle`].
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

use std::io::Read;
use std::path::Path;

use crate::echo::echo;
use crate::error::{Error, Result, bail};

use crate::geometry::{Cell, Grid, Shape};
use crate::mode::UpTo;
use crate::puzzle::{
    ContainerSpec, MAX_COORD, MAX_GROUP, MAX_PIECE_CELLS, MAX_PIECE_COPIES, MAX_TARGET_CELLS,
    Piece, Puzzle, Target,
};

pub use crate::puzzle::MAX_FILE_BYTES;
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

/// Inflates gzip data (or passes plain bytes through), refusing more than [`MAX_XML_BYTES`]
/// while inflating (a gzip bomb stops there). The gzip trailer's size field is not trusted:
/// in a truncated file or one with bytes appended it is garbage. Several gzip members one
/// after another (RFC 1952, 2.2) are inflated in turn.
fn inflate(bytes: &[u8], shown: &str) -> Result<Vec<u8>> {
    const MAGIC: [u8; 2] = [0x1f, 0x8b];
    if !bytes.starts_with(&MAGIC) {
        return Ok(bytes.to_vec());
    }
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let at = bytes.len() - rest.len();
        if !rest.starts_with(&MAGIC) {
            bail!(
                "{shown}: {} bytes that are not gzip data follow the gzip data (from byte offset {at}): a damaged or appended-to file",
                rest.len()
            );
        }
        let mut member = flate2::bufread::GzDecoder::new(rest);
        let room = MAX_XML_BYTES + 1 - out.len() as u64;
        (&mut member)
            .take(room)
            .read_to_end(&mut out)
            .map_err(|e| {
                match e.kind() {
                    std::io::ErrorKind::UnexpectedEof => Error::input(
                        "",
                        format!(
                            "the gzip data is truncated (the file ends inside it, after {} bytes)",
                            bytes.len()
                        ),
                    ),
                    _ => Error::input(
                        "",
                        format!(
                            "the gzip data is corrupt (in the part from byte offset {at}: {e})"
                        ),
                    ),
                }
                .in_file(shown)
            })?;
        if out.len() as u64 > MAX_XML_BYTES {
            bail!(
                "{shown}: gzip data inflates to more than the {MAX_XML_BYTES} bytes cubesat reads"
            );
        }
        rest = member.into_inner();
    }
    Ok(out)
}

/// The deepest nesting of XML elements read. roxmltree 0.20 parses an element's content by
/// recursion, one call per level and with no bound of its own (RazrFalcon/roxmltree#154),
/// so a file of 20,000 nested elements (140 KB) overflows the stack; BurrTools files nest
/// about six deep. 256 is libxml2's default bound.
pub const MAX_XML_DEPTH: usize = 256;

/// Refuses XML whose elements nest deeper than [`MAX_XML_DEPTH`], before roxmltree reads it.
/// The scan never fails and never counts less than the nesting roxmltree would recurse
/// through: comments, CDATA sections and processing instructions are skipped to their ends
/// (roxmltree does the same or reports an error), a start tag counts unless it ends with
/// `/>` (quoted attribute values skipped, as roxmltree skips them to the quote or a `<`),
/// and an end tag closes one level. On malformed XML it may count more, which only matters
/// past the bound, where the file is refused either way.
fn check_depth(text: &str, shown: &str) -> Result<()> {
    let b = text.as_bytes();
    let find = |from: usize, pat: &[u8]| -> usize {
        b[from.min(b.len())..]
            .windows(pat.len())
            .position(|w| w == pat)
            .map_or(b.len(), |i| from + i + pat.len())
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = find(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(i + 2, b"?>");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i += 2;
        } else if rest.starts_with(b"<!") {
            // A DOCTYPE: roxmltree refuses DTDs unless told otherwise.
            i += 2;
        } else {
            let start = i;
            let mut j = i + 1;
            let mut open = true;
            while j < b.len() {
                match b[j] {
                    q @ (b'"' | b'\'') => {
                        j += 1;
                        while j < b.len() && b[j] != q && b[j] != b'<' {
                            j += 1;
                        }
                        if j < b.len() && b[j] == b'<' {
                            break;
                        }
                        j += 1;
                    }
                    b'>' => {
                        open = b[j - 1] != b'/';
                        j += 1;
                        break;
                    }
                    b'<' => break,
                    _ => j += 1,
                }
            }
            i = j;
            if open {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    let line = b[..start].iter().filter(|&&c| c == b'\n').count() + 1;
                    return Err(Error::Input {
                        file: Some(shown.to_string()),
                        place: format!("line {line}"),
                        message: format!(
                            "elements nest more than {MAX_XML_DEPTH} deep, more than cubesat reads (a BurrTools file nests about 6 deep)"
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}

/// A positioned element for error messages.
struct At<'a, 'input> {
    doc: &'a roxmltree::Document<'input>,
    shown: &'a str,
}

impl At<'_, '_> {
    fn line(&self, n: roxmltree::Node) -> u32 {
        self.doc.text_pos_at(n.range().start).row
    }
    /// Malformed input at element `what` on `n`'s line, of the file shown as `shown`.
    fn err(&self, n: roxmltree::Node, what: &str, msg: impl std::fmt::Display) -> Error {
        Error::Input {
            file: Some(self.shown.to_string()),
            place: format!("line {}: {what}", self.line(n)),
            message: msg.to_string(),
        }
    }
    fn num(&self, n: roxmltree::Node, what: &str, attr: &str, max: u64) -> Result<Option<u64>> {
        match n.attribute(attr) {
            None => Ok(None),
            Some(v) => match v.trim().parse::<u64>() {
                Ok(x) if x <= max => Ok(Some(x)),
                Ok(x) => Err(self.err(n, what, format!("{attr}=\"{x}\" is above {max}"))),
                // Digits only, too many for 64 bits: a number out of range, not a non-number.
                Err(_) if !v.trim().is_empty() && v.trim().bytes().all(|c| c.is_ascii_digit()) => {
                    Err(self.err(n, what, format!("{attr}=\"{}\" is above {max}", v.trim())))
                }
                Err(_) => Err(self.err(
                    n,
                    what,
                    format!("{attr}=\"{}\" is not a non-negative integer", echo(v)),
                )),
            },
        }
    }
}

fn children<'a, 'i>(
    n: roxmltree::Node<'a, 'i>,
    tag: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    n.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// Parses a BurrTools file's bytes (gzip or plain XML).
pub fn parse(bytes: &[u8], shown: &str) -> Result<BurrFile> {
    let xml = inflate(bytes, shown)?;
    let text = std::str::from_utf8(&xml).map_err(|e| {
        Error::input(
            "",
            format!("the XML is not UTF-8 (byte {})", e.valid_up_to()),
        )
        .in_file(shown)
    })?;
    check_depth(text, shown)?;
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| Error::input("", format!("bad XML: {e}")).in_file(shown))?;
    let at = At { doc: &doc, shown };
    let root = doc.root_element();
    if root.tag_name().name() != "puzzle" {
        return Err(at.err(
            root,
            &format!("<{}>", echo(root.tag_name().name())),
            "the top element is not <puzzle>, so this is not a BurrTools file",
        ));
    }
    let version = match at.num(root, "<puzzle>", "version", u32::MAX as u64)? {
        Some(v @ (1 | 2)) => v as u32,
        Some(v) => {
            return Err(at.err(
                root,
                "<puzzle>",
                format!("version {v} is not supported (BurrTools files have version 1 or 2)"),
            ));
        }
        None => return Err(at.err(root, "<puzzle>", "no version attribute")),
    };
    let mut notes = Vec::new();
    let mut grid = Grid::Cube;
    if let Some(g) = children(root, "gridType").next() {
        let t = at
            .num(g, "<gridType>", "type", u32::MAX as u64)?
            .unwrap_or(0);
        grid = match t {
            0 => Grid::Cube,
            2 => Grid::Sphere,
            _ => {
                let name = match t {
                    1 => "triangular prisms",
                    3 => "rhombic dodecahedra",
                    4 => "tetrahedra-octahedra",
                    _ => "unknown",
                };
                return Err(at.err(
                    g,
                    "<gridType>",
                    format!(
                        "BurrTools grid {t} ({name}) is not supported; cubesat reads the cube grid (type 0) and the sphere grid (type 2)"
                    ),
                ));
            }
        };
    }
    let mut rgb = Vec::new();
    if let Some(cs) = children(root, "colors").next() {
        for c in children(cs, "color") {
            let v =
                |a: &str| -> Result<u8> { Ok(at.num(c, "<color>", a, 255)?.unwrap_or(0) as u8) };
            rgb.push([v("red")?, v("green")?, v("blue")?]);
        }
    }
    let Some(shapes_el) = children(root, "shapes").next() else {
        return Err(at.err(root, "<puzzle>", "no <shapes> element"));
    };
    let mut shapes = Vec::new();
    for (i, v) in children(shapes_el, "voxel").enumerate() {
        shapes.push(shape(&at, v, i, grid)?);
    }
    let mut problems = Vec::new();
    if let Some(ps) = children(root, "problems").next() {
        for (i, p) in children(ps, "problem").enumerate() {
            problems.push(problem(&at, p, i, shapes.len(), rgb.len())?);
        }
    }
    if problems.is_empty() {
        return Err(at.err(root, "<puzzle>", "the file has no <problem>"));
    }
    let comment = children(root, "comment")
        .next()
        .and_then(|c| c.text())
        .unwrap_or("")
        .trim()
        .to_string();
    if shapes.iter().any(|s| s.voxels.iter().any(|v| v.2 != 0)) && rgb.is_empty() {
        notes.push(
            "voxel colours without <colors>: BurrTools applies no colour rule then".to_string(),
        );
    }
    Ok(BurrFile {
        shown: shown.to_string(),
        version,
        colours: rgb.len() as u32,
        rgb,
        shapes,
        problems,
        comment,
        notes,
        grid,
    })
}

fn shape(at: &At, v: roxmltree::Node, i: usize, grid: Grid) -> Result<BurrShape> {
    let what = format!("<voxel> (shape {i})");
    let dim = |a: &str| -> Result<i32> {
        match at.num(v, &what, a, MAX_COORD as u64)? {
            Some(x) => Ok(x as i32),
            None => Err(at.err(v, &what, format!("no {a} attribute"))),
        }
    };
    let size = [dim("x")?, dim("y")?, dim("z")?];
    let total = size.iter().map(|&s| s as u64).product::<u64>();
    if total > MAX_VOXELS {
        return Err(at.err(
            v,
            &what,
            format!(
                "a {}x{}x{} box is more than the {MAX_VOXELS} voxels cubesat reads",
                size[0], size[1], size[2]
            ),
        ));
    }
    match at.num(v, &what, "type", u32::MAX as u64)? {
        None | Some(0) => {}
        Some(t) => {
            return Err(at.err(
                v,
                &what,
                format!("shape type {t} is not a cube-grid shape (type 0)"),
            ));
        }
    }
    let text = v.text().unwrap_or("");
    let mut voxels = Vec::new();
    let mut index: u64 = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((pos, ch)) = chars.next() {
        let state = match ch {
            '#' => Some(State::Fixed),
            '+' => Some(State::Variable),
            '_' => None,
            c if c.is_ascii_digit() => {
                return Err(at.err(
                    v,
                    &what,
                    format!("colour number at character {pos} follows no '#' or '+'"),
                ));
            }
            c => {
                return Err(at.err(
                    v,
                    &what,
                    format!(
                        "unknown state character {c:?} at character {pos} (expected '#', '+' or '_')"
                    ),
                ));
            }
        };
        let mut colour: u32 = 0;
        let mut digits = false;
        while let Some(&(_, d)) = chars.peek() {
            let Some(x) = d.to_digit(10) else { break };
            chars.next();
            digits = true;
            colour = colour * 10 + x;
            if colour > MAX_COLOUR {
                return Err(at.err(
                    v,
                    &what,
                    format!("colour above {MAX_COLOUR} at character {pos}"),
                ));
            }
        }
        if digits && state.is_none() {
            return Err(at.err(
                v,
                &what,
                format!("colour number after '_' at character {pos}"),
            ));
        }
        if index >= total {
            return Err(at.err(
                v,
                &what,
                format!(
                    "more than the {total} voxels of a {}x{}x{} box",
                    size[0], size[1], size[2]
                ),
            ));
        }
        if let Some(s) = state {
            let (sx, sy) = (size[0] as u64, size[1] as u64);
            let cell = [
                (index % sx) as i32,
                ((index / sx) % sy) as i32,
                (index / (sx * sy)) as i32,
            ];
            // BurrTools' sphere grid has a ball only where x + y + z is even; its code keeps a
            // voxel elsewhere in the identity orientation and drops it in every other, so such
            // a file has no consistent meaning.
            if !grid.is_cell(cell) {
                return Err(at.err(
                    v,
                    &what,
                    format!(
                        "'{ch}' at character {pos} is voxel [{}, {}, {}], where x + y + z is odd: the sphere grid has no ball there",
                        cell[0], cell[1], cell[2]
                    ),
                ));
            }
            voxels.push((cell, s, colour as u8));
        }
        index += 1;
    }
    if index != total {
        return Err(at.err(
            v,
            &what,
            format!(
                "{index} voxels, but a {}x{}x{} box has {total}",
                size[0], size[1], size[2]
            ),
        ));
    }
    let weight = at.num(v, &what, "weight", MAX_GROUP as u64)?.unwrap_or(1) as i32;
    Ok(BurrShape {
        name: v.attribute("name").unwrap_or("").to_string(),
        size,
        voxels,
        line: at.line(v),
        weight,
    })
}

fn problem(
    at: &At,
    p: roxmltree::Node,
    i: usize,
    nshapes: usize,
    ncolours: usize,
) -> Result<Problem> {
    let what = format!("<problem> {i}");
    let mut notes = Vec::new();
    let mut parts = Vec::new();
    let Some(list) = children(p, "shapes").next() else {
        return Err(at.err(p, &what, "no <shapes> (parts list)"));
    };
    for (k, s) in children(list, "shape").enumerate() {
        let w = format!("{what}, <shape> {k}");
        let id = match at.num(s, &w, "id", u32::MAX as u64)? {
            Some(id) if (id as usize) < nshapes => id as usize,
            Some(id) => {
                return Err(at.err(
                    s,
                    &w,
                    format!("id {id} names no shape (the file has {nshapes})"),
                ));
            }
            None => return Err(at.err(s, &w, "no id attribute: the part names no shape")),
        };
        let count = at.num(s, &w, "count", MAX_PIECE_COPIES)?;
        let min = at.num(s, &w, "min", MAX_PIECE_COPIES)?;
        let max = at.num(s, &w, "max", MAX_PIECE_COPIES)?;
        let (lo, hi) = match (count, min, max) {
            (Some(c), _, _) => (c, c),
            (None, Some(a), Some(b)) if a <= b => (a, b),
            (None, Some(a), Some(b)) => {
                return Err(at.err(s, &w, format!("min {a} is above max {b}")));
            }
            (None, None, None) => (1, 1),
            _ => return Err(at.err(s, &w, "a range needs both min and max")),
        };
        // BurrTools: a nonzero `group` attribute puts every copy in that group (its children
        // are then not read); otherwise each <group group= count=> child adds a share.
        let mut groups = Vec::new();
        match at.num(s, &w, "group", MAX_GROUP as u64)? {
            Some(g) if g > 0 => groups.push((g as u16, hi.min(u16::MAX as u64) as u16)),
            _ => {
                for (j, gnode) in children(s, "group").enumerate() {
                    let gw = format!("{w}, <group> {j}");
                    let Some(g) = at.num(gnode, &gw, "group", MAX_GROUP as u64)? else {
                        return Err(at.err(gnode, &gw, "no group attribute"));
                    };
                    let Some(c) = at.num(gnode, &gw, "count", MAX_PIECE_COPIES)? else {
                        return Err(at.err(gnode, &gw, "no count attribute"));
                    };
                    if g > 0 && c > 0 {
                        groups.push((g as u16, c as u16));
                    }
                }
            }
        }
        parts.push(Part {
            shape: id,
            min: lo as u32,
            max: hi as u32,
            groups,
        });
    }
    let result = match children(p, "result").next() {
        None => return Err(at.err(p, &what, "no <result>")),
        Some(r) => match at.num(r, &format!("{what}, <result>"), "id", u32::MAX as u64)? {
            Some(id) if (id as usize) < nshapes => id as usize,
            Some(id) => {
                return Err(at.err(
                    r,
                    &format!("{what}, <result>"),
                    format!("id {id} is out of range (the file has {nshapes} shapes)"),
                ));
            }
            None => return Err(at.err(r, &format!("{what}, <result>"), "no id attribute")),
        },
    };
    let max_holes = at
        .num(p, &what, "maxHoles", u32::MAX as u64)?
        .map(|h| h as u32);
    let mut pairs = Vec::new();
    if let Some(b) = children(p, "bitmap").next() {
        for pair in children(b, "pair") {
            let w = format!("{what}, <pair>");
            let get = |a: &str| -> Result<u8> {
                match at.num(pair, &w, a, (MAX_COLOUR - 1) as u64)? {
                    Some(x) => Ok(x as u8 + 1),
                    None => Err(at.err(pair, &w, format!("no {a} attribute"))),
                }
            };
            pairs.push((get("piece")?, get("result")?));
        }
    }
    if ncolours == 0 && !pairs.is_empty() {
        notes.push("colour pairs without <colors> are ignored, as BurrTools does".to_string());
    }
    if children(p, "solutions").next().is_some() {
        notes.push("stored solutions and disassembly data are read and ignored".to_string());
    }
    if children(p, "assembler").next().is_some() {
        notes.push("the saved assembler state is ignored".to_string());
    }
    notes.dedup();
    Ok(Problem {
        name: p.attribute("name").unwrap_or("").to_string(),
        parts,
        result,
        max_holes,
        pairs,
        notes,
    })
}

const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl BurrFile {
    /// The problem `selector` names: an index, or a problem name; the first when `None`.
    pub fn select(&self, selector: Option<&str>) -> Result<usize> {
        let Some(s) = selector else { return Ok(0) };
        if let Ok(i) = s.parse::<usize>() {
            if i < self.problems.len() {
                return Ok(i);
            }
            bail!(
                "{}: problem {i}: the file has {} problems (0 to {})",
                self.shown,
                self.problems.len(),
                self.problems.len() - 1
            );
        }
        match self.problems.iter().position(|p| p.name == s) {
            Some(i) => Ok(i),
            None => bail!(
                "{}: no problem named '{}' (problems: {})",
                self.shown,
                echo(s),
                crate::echo::list(
                    self.problems
                        .iter()
                        .enumerate()
                        .map(|(i, p)| format!("{i} '{}'", echo(&p.name))),
                    ", "
                )
            ),
        }
    }

    /// A display name for shape `id`.
    pub fn shape_name(&self, id: usize) -> String {
        let n = &self.shapes[id].name;
        if n.is_empty() {
            format!("S{}", id + 1)
        } else {
            n.clone()
        }
    }

    /// One line per problem: index, name, parts and result shape (for `info`).
    pub fn describe_problems(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.problems.iter().enumerate() {
            let parts: Vec<String> = p
                .parts
                .iter()
                .map(|pt| {
                    let n = echo(&self.shape_name(pt.shape)).to_string();
                    match (pt.min, pt.max) {
                        (1, 1) => n,
                        (a, b) if a == b => format!("{n} x{a}"),
                        (a, b) => format!("{n} x{a}..{b}"),
                    }
                })
                .collect();
            let r = &self.shapes[p.result];
            out.push_str(&format!(
                "  {i}: '{}': {} -> {} ({}x{}x{}, {} voxels){}\n",
                echo(&p.name),
                parts.join(", "),
                echo(&self.shape_name(p.result)),
                r.size[0],
                r.size[1],
                r.size[2],
                r.voxels.len(),
                if i == 0 { " [default]" } else { "" }
            ));
        }
        out
    }

    /// Problem `index` as a cubesat puzzle (BurrTools' meaning of every feature).
    pub fn puzzle(&self, index: usize) -> Result<Puzzle> {
        let shown = &self.shown;
        let prob = &self.problems[index];
        let here = format!(
            "{shown}: problem {index}{}",
            if prob.name.is_empty() {
                String::new()
            } else {
                format!(" '{}'", echo(&prob.name))
            }
        );
        let mut notes: Vec<String> = self.notes.clone();
        notes.extend(prob.notes.iter().cloned());
        // The result: # must be filled, + may stay empty; colours travel with the cells.
        let res = &self.shapes[prob.result];
        if res.voxels.is_empty() {
            bail!(
                "{here}: <result id=\"{}\">: the result shape has no voxels",
                prob.result
            );
        }
        if res.voxels.len() > MAX_TARGET_CELLS {
            bail!(
                "{here}: the result has {} voxels, more than the {MAX_TARGET_CELLS} cubesat accepts",
                res.voxels.len()
            );
        }
        let grid = self.grid;
        // Moved to the origin, by an even step on the sphere grid (balls stay balls).
        let corner: Vec<Cell> = res.voxels.iter().map(|v| v.0).collect();
        let min = grid.normal_offset(&corner).unwrap_or([0; 3]);
        let local = |c: Cell| [c[0] - min[0], c[1] - min[1], c[2] - min[2]];
        let spec = ContainerSpec {
            cells: res
                .voxels
                .iter()
                .map(|v| (local(v.0), v.1 == State::Variable))
                .collect(),
            frame: None,
        };
        let mut target = Target::new_on(grid, &[spec]);
        if res.voxels.iter().any(|v| v.2 != 0) {
            let colour_of: std::collections::HashMap<Cell, u8> =
                res.voxels.iter().map(|v| (local(v.0), v.2)).collect();
            let colours = (0..target.cells().len() as u32)
                .map(|c| colour_of.get(&target.local(c).1).copied().unwrap_or(0))
                .collect();
            target.set_colours(colours);
        }
        // The parts: only `#` voxels of a piece count (BurrTools treats `+` there as empty).
        let mut pieces: Vec<Piece> = Vec::new();
        let mut used_names = std::collections::HashSet::new();
        let mut used_letters = std::collections::HashSet::new();
        let mut spare = LETTERS.chars();
        let mut copies = 0u64;
        for (k, part) in prob.parts.iter().enumerate() {
            if part.max == 0 {
                notes.push(format!(
                    "part {k} ('{}') has at most 0 copies and is left out",
                    echo(&self.shape_name(part.shape))
                ));
                continue;
            }
            let sh = &self.shapes[part.shape];
            if sh.voxels.iter().any(|v| v.1 == State::Variable) {
                notes.push(format!(
                    "shape '{}' has variable voxels; as in BurrTools they are not part of the piece",
                    echo(&self.shape_name(part.shape))
                ));
            }
            let cells: Vec<(Cell, u8)> = sh
                .voxels
                .iter()
                .filter(|v| v.1 == State::Fixed)
                .map(|v| (v.0, v.2))
                .collect();
            if cells.is_empty() {
                bail!(
                    "{here}: <shape id=\"{}\"> (part {k}): the shape has no '#' voxels",
                    part.shape
                );
            }
            if cells.len() > MAX_PIECE_CELLS {
                bail!(
                    "{here}: part {k}: {} voxels, more than the {MAX_PIECE_CELLS} cubesat accepts",
                    cells.len()
                );
            }
            copies += part.max as u64;
            if copies > MAX_PIECE_COPIES {
                bail!("{here}: more than {MAX_PIECE_COPIES} piece copies in all");
            }
            let shape = Shape::new_on(grid, cells.iter().map(|c| c.0));
            let corner: Vec<Cell> = cells.iter().map(|c| c.0).collect();
            let pmin = grid.normal_offset(&corner).unwrap_or([0; 3]);
            let colour_of: std::collections::HashMap<Cell, u8> = cells
                .iter()
                .map(|&(c, k)| ([c[0] - pmin[0], c[1] - pmin[1], c[2] - pmin[2]], k))
                .collect();
            let colours: Vec<u8> = if cells.iter().any(|c| c.1 != 0) {
                shape
                    .cells()
                    .iter()
                    .map(|c| colour_of.get(c).copied().unwrap_or(0))
                    .collect()
            } else {
                Vec::new()
            };
            let base: String = self
                .shape_name(part.shape)
                .chars()
                .map(|c| {
                    if c.is_whitespace() || c.is_control() {
                        '_'
                    } else {
                        c
                    }
                })
                .take(28)
                .collect();
            let mut name = base.clone();
            let mut n = 2;
            while !used_names.insert(name.clone()) {
                name = format!("{base}#{n}");
                n += 1;
            }
            let first = name.chars().next().filter(|c| c.is_ascii_alphanumeric());
            let letter = match first {
                Some(c) if used_letters.insert(c) => c,
                _ => loop {
                    match spare.next() {
                        Some(c) if used_letters.insert(c) => break c,
                        Some(_) => continue,
                        None => break '?',
                    }
                },
            };
            pieces.push(Piece {
                name,
                letter,
                shape,
                count: part.max,
                min_count: part.min,
                colours,
                weight: sh.weight,
                groups: part.groups.clone(),
            });
        }
        if pieces.is_empty() {
            bail!("{here}: <shapes>: the problem has no parts");
        }
        // The name titles pictures and messages: characters that act on a terminal are
        // escaped (a cubesat JSON file may not hold them at all).
        let name = if prob.name.is_empty() {
            format!("problem {index}")
        } else {
            crate::echo::escape(&prob.name).into_owned()
        };
        let mut puzzle = Puzzle {
            description: self.comment.clone(),
            allow_disconnected: true,
            colour_pairs: (self.colours > 0).then(|| prob.pairs.clone()),
            default_up_to: Some(UpTo::BurrTools),
            ..Puzzle::new(name, grid, pieces, target)
        };
        // BurrTools' definition check: the pieces' volume must fit the result.
        let must = puzzle.target.must_count() as u64;
        let optional = puzzle.target.optional_count() as u64;
        let (lo, hi) = (puzzle.min_piece_volume(), puzzle.piece_volume());
        if lo > must + optional {
            bail!(
                "{here}: {} units too many for the result (pieces need at least {lo} voxels, the result has {must} '#' and {optional} '+')",
                lo - must - optional
            );
        }
        if hi < must {
            bail!(
                "{here}: {} units too few for the result (pieces have at most {hi} voxels, the result has {must} '#')",
                must - hi
            );
        }
        if let Some(h) = prob.max_holes {
            if lo == hi {
                notes.push(format!(
                    "maxHoles {h} is ignored: the piece volume is fixed, as BurrTools ignores it"
                ));
            } else {
                puzzle.max_holes = Some(h);
            }
        }
        notes.sort();
        notes.dedup();
        puzzle.notes = notes;
        Ok(puzzle)
    }
}
