//! Reading a BurrTools file's XML: inflating it within bounds, its nesting depth, and each element (grid, colours, voxel shapes, problems) into a [`BurrFile`], every error positioned at its element.

use std::io::Read;

use crate::echo::echo;
use crate::error::{Error, Result, bail};

use crate::geometry::{Cell, Grid};
use crate::puzzle::{MAX_COORD, MAX_GROUP, MAX_PIECE_COPIES};

use super::{BurrFile, BurrShape, MAX_COLOUR, MAX_VOXELS, MAX_XML_BYTES, Part, Problem, State};

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
    let text = xml_text(&xml, shown)?;
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| Error::input("", format!("bad XML: {e}")).in_file(shown))?;
    let at = At { doc: &doc, shown };
    let root = doc.root_element();
    let version = puzzle_version(&at, root)?;
    let grid = grid_type(&at, root)?;
    let rgb = colours(&at, root)?;
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
    let mut notes = Vec::new();
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

/// The inflated bytes as XML text: UTF-8, nesting at most [`MAX_XML_DEPTH`] deep.
fn xml_text<'x>(xml: &'x [u8], shown: &str) -> Result<&'x str> {
    let text = std::str::from_utf8(xml).map_err(|e| {
        Error::input(
            "",
            format!("the XML is not UTF-8 (byte {})", e.valid_up_to()),
        )
        .in_file(shown)
    })?;
    check_depth(text, shown)?;
    Ok(text)
}

/// The version of a BurrTools file (its top element `root` must be `<puzzle>`).
fn puzzle_version(at: &At, root: roxmltree::Node) -> Result<u32> {
    if root.tag_name().name() != "puzzle" {
        return Err(at.err(
            root,
            &format!("<{}>", echo(root.tag_name().name())),
            "the top element is not <puzzle>, so this is not a BurrTools file",
        ));
    }
    match at.num(root, "<puzzle>", "version", u32::MAX as u64)? {
        Some(v @ (1 | 2)) => Ok(v as u32),
        Some(v) => Err(at.err(
            root,
            "<puzzle>",
            format!("version {v} is not supported (BurrTools files have version 1 or 2)"),
        )),
        None => Err(at.err(root, "<puzzle>", "no version attribute")),
    }
}

/// The grid of the file (`<gridType>`; cubes when absent).
fn grid_type(at: &At, root: roxmltree::Node) -> Result<Grid> {
    let mut grid = Grid::default();
    if let Some(g) = children(root, "gridType").next() {
        let t = at
            .num(g, "<gridType>", "type", u32::MAX as u64)?
            .unwrap_or(0);
        grid = match u32::try_from(t).ok().and_then(Grid::from_burrtools_type) {
            Some(grid) => grid,
            None => {
                return Err(at.err(
                    g,
                    "<gridType>",
                    format!(
                        "BurrTools has no grid {t}; cubesat reads {}",
                        Grid::titles()
                    ),
                ));
            }
        };
    }
    Ok(grid)
}

/// The file's custom colours (`<colors>`), as RGB.
fn colours(at: &At, root: roxmltree::Node) -> Result<Vec<[u8; 3]>> {
    let mut rgb = Vec::new();
    if let Some(cs) = children(root, "colors").next() {
        for c in children(cs, "color") {
            let v =
                |a: &str| -> Result<u8> { Ok(at.num(c, "<color>", a, 255)?.unwrap_or(0) as u8) };
            rgb.push([v("red")?, v("green")?, v("blue")?]);
        }
    }
    Ok(rgb)
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
    // BurrTools writes 0 on every grid; a file that says its grid's number means the same.
    match at.num(v, &what, "type", u32::MAX as u64)? {
        None | Some(0) => {}
        Some(t) if grid.burrtools_type().map(u64::from) == Some(t) => {}
        Some(t) => {
            return Err(at.err(
                v,
                &what,
                format!(
                    "shape type {t} is not a shape of the file's grid ({})",
                    grid.title()
                ),
            ));
        }
    }
    let text = VoxelText {
        at,
        v,
        what: &what,
        size,
        total,
        grid,
    };
    let voxels = text.voxels(v.text().unwrap_or(""))?;
    let weight = at.num(v, &what, "weight", MAX_GROUP as u64)?.unwrap_or(1) as i32;
    Ok(BurrShape {
        name: v.attribute("name").unwrap_or("").to_string(),
        size,
        voxels,
        line: at.line(v),
        weight,
    })
}

/// The voxel string of a `<voxel>` element (`v`, `what` in messages) whose box is `size`
/// (`total` voxels), on `grid`.
struct VoxelText<'a, 'd, 'input> {
    at: &'a At<'d, 'input>,
    v: roxmltree::Node<'d, 'input>,
    what: &'a str,
    size: [i32; 3],
    total: u64,
    grid: Grid,
}

impl VoxelText<'_, '_, '_> {
    /// Malformed voxel text: `msg`, placed at the element.
    fn err(&self, msg: impl std::fmt::Display) -> Error {
        self.at.err(self.v, self.what, msg)
    }

    /// The non-empty voxels of `text`, x fastest; exactly the box's count of voxels.
    fn voxels(&self, text: &str) -> Result<Vec<(Cell, State, u8)>> {
        let size = self.size;
        let mut voxels = Vec::new();
        let mut index: u64 = 0;
        let mut chars = text.char_indices().peekable();
        while let Some((pos, ch)) = chars.next() {
            let state = self.state(ch, pos)?;
            let colour = self.colour(&mut chars, pos)?;
            if colour.is_some() && state.is_none() {
                return Err(self.err(format!("colour number after '_' at character {pos}")));
            }
            if index >= self.total {
                return Err(self.err(format!(
                    "more than the {} voxels of a {}x{}x{} box",
                    self.total, size[0], size[1], size[2]
                )));
            }
            if let Some(s) = state {
                voxels.push((self.cell(index, ch, pos)?, s, colour.unwrap_or(0) as u8));
            }
            index += 1;
        }
        if index != self.total {
            return Err(self.err(format!(
                "{index} voxels, but a {}x{}x{} box has {}",
                size[0], size[1], size[2], self.total
            )));
        }
        Ok(voxels)
    }

    /// The state character `ch` (at character `pos`): `None` for an empty voxel.
    fn state(&self, ch: char, pos: usize) -> Result<Option<State>> {
        match ch {
            '#' => Ok(Some(State::Fixed)),
            '+' => Ok(Some(State::Variable)),
            '_' => Ok(None),
            c if c.is_ascii_digit() => Err(self.err(format!(
                "colour number at character {pos} follows no '#' or '+'"
            ))),
            c => Err(self.err(format!(
                "unknown state character {c:?} at character {pos} (expected '#', '+' or '_')"
            ))),
        }
    }

    /// The colour number after the state character at `pos`, if there is one.
    fn colour(
        &self,
        chars: &mut std::iter::Peekable<std::str::CharIndices>,
        pos: usize,
    ) -> Result<Option<u32>> {
        let mut colour: u32 = 0;
        let mut digits = false;
        while let Some(&(_, d)) = chars.peek() {
            let Some(x) = d.to_digit(10) else { break };
            chars.next();
            digits = true;
            colour = colour * 10 + x;
            if colour > MAX_COLOUR {
                return Err(self.err(format!("colour above {MAX_COLOUR} at character {pos}")));
            }
        }
        Ok(digits.then_some(colour))
    }

    /// The position of voxel `index` (x fastest), which must be a cell of the grid (`ch`
    /// at character `pos` in messages).
    fn cell(&self, index: u64, ch: char, pos: usize) -> Result<Cell> {
        let (sx, sy) = (self.size[0] as u64, self.size[1] as u64);
        let cell = [
            (index % sx) as i32,
            ((index / sx) % sy) as i32,
            (index / (sx * sy)) as i32,
        ];
        // BurrTools' sphere grid has a ball only where x + y + z is even; its code keeps a
        // voxel elsewhere in the identity orientation and drops it in every other, so such
        // a file has no consistent meaning.
        self.grid.from_burrtools(cell).ok_or_else(|| {
            self.err(format!(
                "'{ch}' at character {pos} is voxel [{}, {}, {}], no cell of {} ({})",
                cell[0],
                cell[1],
                cell[2],
                self.grid.title(),
                self.grid.voxel_rule()
            ))
        })
    }
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
        parts.push(part(at, s, &format!("{what}, <shape> {k}"), nshapes)?);
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
    let pairs = colour_pairs(at, p, &what)?;
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

/// One part of a problem's parts list (`<shape>` element `s`, `w` in messages): the shape
/// it names among `nshapes`, its copies and its piece groups.
fn part(at: &At, s: roxmltree::Node, w: &str, nshapes: usize) -> Result<Part> {
    let id = match at.num(s, w, "id", u32::MAX as u64)? {
        Some(id) if (id as usize) < nshapes => id as usize,
        Some(id) => {
            return Err(at.err(
                s,
                w,
                format!("id {id} names no shape (the file has {nshapes})"),
            ));
        }
        None => return Err(at.err(s, w, "no id attribute: the part names no shape")),
    };
    let count = at.num(s, w, "count", MAX_PIECE_COPIES)?;
    let min = at.num(s, w, "min", MAX_PIECE_COPIES)?;
    let max = at.num(s, w, "max", MAX_PIECE_COPIES)?;
    let (lo, hi) = match (count, min, max) {
        (Some(c), _, _) => (c, c),
        (None, Some(a), Some(b)) if a <= b => (a, b),
        (None, Some(a), Some(b)) => {
            return Err(at.err(s, w, format!("min {a} is above max {b}")));
        }
        (None, None, None) => (1, 1),
        _ => return Err(at.err(s, w, "a range needs both min and max")),
    };
    Ok(Part {
        shape: id,
        min: lo as u32,
        max: hi as u32,
        groups: part_groups(at, s, w, hi)?,
    })
}

/// The piece groups of a part (`<shape>` element `s`, `w` in messages, at most `copies`
/// copies). BurrTools: a nonzero `group` attribute puts every copy in that group (its
/// children are then not read); otherwise each <group group= count=> child adds a share.
fn part_groups(at: &At, s: roxmltree::Node, w: &str, copies: u64) -> Result<Vec<(u16, u16)>> {
    let mut groups = Vec::new();
    match at.num(s, w, "group", MAX_GROUP as u64)? {
        Some(g) if g > 0 => groups.push((g as u16, copies.min(u16::MAX as u64) as u16)),
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
    Ok(groups)
}

/// A problem's colour pairs (its `<bitmap>`), as colour numbers from 1.
fn colour_pairs(at: &At, p: roxmltree::Node, what: &str) -> Result<Vec<(u8, u8)>> {
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
    Ok(pairs)
}
