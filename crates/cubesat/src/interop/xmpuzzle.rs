//! Writes a puzzle as a BurrTools `.xmpuzzle` file (gzip-compressed XML, on any grid BurrTools has that cubesat reads): one shape per piece, the target as the result shape, counts or ranges, colours and `maxHoles`.
//!
//! The file says the same thing as the puzzle: every piece becomes a part in the same order
//! (so BurrTools' mirror pairing, which depends on part order, sees the same sequence), the
//! target's optional cells become `+` voxels, and the colour rule becomes `<colors>` plus
//! bitmap pairs (written 0-based, as BurrTools does). What BurrTools cannot express is refused
//! with one line: several containers, hints, and free (mirrorable) pieces.

use std::collections::HashMap;
use std::io::Write;

use crate::error::{Result, bail};

use crate::geometry::{Cell, Grid};
use crate::interop::format::{Format, Writer};
use crate::puzzle::burrtools::{MAX_VOXELS, MAX_XML_BYTES};
use crate::puzzle::{Piece, Puzzle, Target};

/// Escapes text for an XML attribute or element.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A BurrTools voxel string: one entry per voxel of the box, x fastest, then y, then z; `_`
/// for an empty voxel, else its state character followed by its colour number unless 0.
fn voxel_string(size: [i32; 3], voxel: impl Fn([i32; 3]) -> Option<(char, u8)>) -> String {
    let mut s = String::new();
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                match voxel([x, y, z]) {
                    None => s.push('_'),
                    Some((st, 0)) => s.push(st),
                    Some((st, k)) => {
                        s.push(st);
                        s.push_str(&k.to_string());
                    }
                }
            }
        }
    }
    s
}

/// The puzzle as BurrTools XML (one problem). A shape's voxel string has one character per
/// voxel of its box, so a box of more than [`MAX_VOXELS`] voxels (a sparse target in a large
/// box), or shapes of more than [`MAX_XML_BYTES`] voxels in all, are refused before anything is
/// written: cubesat's reader would refuse the file.
pub fn to_xml(puzzle: &Puzzle) -> Result<String> {
    check_expressible(puzzle)?;
    check_shape_sizes(puzzle)?;
    let mut x = String::from("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
    let Some(grid_type) = puzzle.grid.burrtools_type() else {
        bail!(
            "BurrTools has no grid of {}s ({}); write .json instead",
            puzzle.grid.cell_noun(),
            puzzle.grid.title()
        );
    };
    x.push_str(&format!("  <gridType type=\"{grid_type}\"/>\n"));
    write_colours(&mut x, puzzle);
    write_shapes(&mut x, puzzle);
    x.push_str("  <problems>\n");
    write_problem(&mut x, puzzle);
    x.push_str("  </problems>\n");
    x.push_str(&format!(
        "  <comment>{}</comment>\n",
        esc(&puzzle.description)
    ));
    x.push_str("</puzzle>\n");
    Ok(x)
}

/// Refuses what a BurrTools problem cannot say: several containers, hints, mirrored pieces.
fn check_expressible(puzzle: &Puzzle) -> Result<()> {
    let containers = puzzle.target.containers().len();
    if containers != 1 {
        bail!("the target has {containers} containers; a BurrTools problem has one result shape");
    }
    if !puzzle.hints.is_empty() {
        bail!("the puzzle has hints, which a BurrTools file cannot express");
    }
    if puzzle.mirror {
        bail!(
            "the puzzle allows mirrored pieces (\"mirror\": true); BurrTools only rotates pieces"
        );
    }
    Ok(())
}

/// Refuses shapes whose voxel strings cubesat's reader would refuse: one box over
/// [`MAX_VOXELS`], or all boxes together over [`MAX_XML_BYTES`].
fn check_shape_sizes(puzzle: &Puzzle) -> Result<()> {
    let grid = puzzle.grid;
    let boxes = puzzle
        .pieces
        .iter()
        .map(|p| {
            let (_, size) = grid.to_burrtools(p.shape.cells().iter().copied());
            (format!("piece '{}'", p.name), size)
        })
        .chain(std::iter::once((
            "the target".to_string(),
            result_cells(&puzzle.target).1,
        )));
    let mut total: u64 = 0;
    for (what, size) in boxes {
        let voxels: u64 = size.iter().map(|&s| s.max(0) as u64).product();
        if voxels > MAX_VOXELS {
            bail!(
                "{what} spans a {}x{}x{} box, {voxels} voxels, more than the {MAX_VOXELS} of a BurrTools shape cubesat reads (a voxel string has one character per voxel); write .json instead",
                size[0],
                size[1],
                size[2]
            );
        }
        total += voxels;
    }
    if total > MAX_XML_BYTES {
        bail!(
            "the shapes' boxes hold {total} voxels in all, more than the {MAX_XML_BYTES} bytes of BurrTools XML cubesat reads; write .json instead"
        );
    }
    Ok(())
}

/// The largest colour number any piece cell, target cell or colour pair uses (0: none).
fn max_colour(puzzle: &Puzzle) -> u8 {
    let t = &puzzle.target;
    let pieces = puzzle.pieces.iter().flat_map(|p| p.colours.iter().copied());
    let target = (0..t.cells().len() as u32).map(|c| t.colour(c));
    let pairs = puzzle
        .colour_pairs
        .iter()
        .flatten()
        .flat_map(|&(a, b)| [a, b]);
    pieces.chain(target).chain(pairs).max().unwrap_or(0)
}

/// Writes `<colors>`: one entry per colour number when there is a colour rule, else empty.
fn write_colours(x: &mut String, puzzle: &Puzzle) {
    // Custom colours exist only with a colour rule: without <colors> BurrTools lets any
    // colour sit anywhere, which is what no rule means.
    if puzzle.colour_pairs.is_none() {
        x.push_str("  <colors/>\n");
        return;
    }
    let n = max_colour(puzzle).max(1);
    x.push_str("  <colors>\n");
    for k in 1..=n as u32 {
        // Distinct, readable colours; only the number matters to the solver.
        let (r, g, b) = ((k * 67) % 256, (k * 139 + 40) % 256, (k * 29 + 90) % 256);
        x.push_str(&format!(
            "    <color red=\"{r}\" green=\"{g}\" blue=\"{b}\"/>\n"
        ));
    }
    x.push_str("  </colors>\n");
}

/// Writes `<shapes>`: one voxel shape per piece, in piece order, then the target as the
/// result shape (so its id is the number of pieces).
fn write_shapes(x: &mut String, puzzle: &Puzzle) {
    x.push_str("  <shapes>\n");
    for p in &puzzle.pieces {
        x.push_str(&piece_voxel(puzzle.grid, p));
    }
    x.push_str(&result_voxel(&puzzle.target));
    x.push_str("  </shapes>\n");
}

/// A piece's `<voxel>` element: `#` cells with their colours, and its weight unless 1.
fn piece_voxel(grid: Grid, p: &Piece) -> String {
    let cells = p.coloured_cells();
    let (voxels, size) = grid.to_burrtools(cells.iter().map(|&(c, _)| c));
    let at: HashMap<Cell, u8> = voxels.into_iter().zip(cells.iter().map(|c| c.1)).collect();
    let s = voxel_string(size, |c| at.get(&c).map(|&k| ('#', k)));
    let weight = if p.weight != 1 {
        format!(" weight=\"{}\"", p.weight)
    } else {
        String::new()
    };
    format!(
        "    <voxel x=\"{}\" y=\"{}\" z=\"{}\"{weight} name=\"{}\" type=\"0\">{s}</voxel>\n",
        size[0],
        size[1],
        size[2],
        esc(&p.name)
    )
}

/// The target's single container as BurrTools voxels: each voxel's state (`#` must fill, `+`
/// optional) and colour, and the box's size.
fn result_cells(t: &Target) -> (HashMap<Cell, (char, u8)>, [i32; 3]) {
    let c0 = &t.containers()[0];
    let states: Vec<(Cell, (char, u8))> = c0
        .cells
        .iter()
        .map(|&i| {
            let st = if t.cells()[i as usize].optional {
                '+'
            } else {
                '#'
            };
            (t.cells()[i as usize].pos, (st, t.colour(i)))
        })
        .collect();
    let (voxels, size) = t.grid().to_burrtools(states.iter().map(|s| s.0));
    (
        voxels
            .into_iter()
            .zip(states.into_iter().map(|s| s.1))
            .collect(),
        size,
    )
}

/// The target's single container as the `result` `<voxel>` element: must-fill cells `#`,
/// optional cells `+`, each with its colour.
fn result_voxel(t: &Target) -> String {
    let (local, size) = result_cells(t);
    let rs = voxel_string(size, |c| local.get(&c).copied());
    format!(
        "    <voxel x=\"{}\" y=\"{}\" z=\"{}\" name=\"result\" type=\"0\">{rs}</voxel>\n",
        size[0], size[1], size[2]
    )
}

/// Writes the one `<problem>`: its name and `maxHoles`, the parts with their counts and
/// groups, the result shape and the colour pairs.
fn write_problem(x: &mut String, puzzle: &Puzzle) {
    let holes = puzzle
        .max_holes
        .map_or(String::new(), |h| format!(" maxHoles=\"{h}\""));
    x.push_str(&format!(
        "    <problem name=\"{}\" state=\"0\"{holes}>\n      <shapes>\n",
        esc(&puzzle.name)
    ));
    for (i, p) in puzzle.pieces.iter().enumerate() {
        write_part(x, i, p);
    }
    x.push_str("      </shapes>\n");
    x.push_str(&format!("      <result id=\"{}\"/>\n", puzzle.pieces.len()));
    write_bitmap(x, puzzle.colour_pairs.as_deref());
    x.push_str("    </problem>\n");
}

/// Writes a problem's `<shape>` entry for piece `i`: its count or `min`/`max` range, and
/// its groups.
fn write_part(x: &mut String, i: usize, p: &Piece) {
    let counts = if p.is_ranged() {
        format!("min=\"{}\" max=\"{}\"", p.min_count, p.count)
    } else {
        format!("count=\"{}\"", p.count)
    };
    // Piece groups as BurrTools writes them: one attribute when every copy is in one
    // group, else a <group> child per share.
    match p.groups.as_slice() {
        [] => x.push_str(&format!("        <shape id=\"{i}\" {counts}/>\n")),
        [(g, c)] if *c as u32 == p.count => x.push_str(&format!(
            "        <shape id=\"{i}\" {counts} group=\"{g}\"/>\n"
        )),
        shares => {
            x.push_str(&format!("        <shape id=\"{i}\" {counts}>\n"));
            for (g, c) in shares {
                x.push_str(&format!("          <group group=\"{g}\" count=\"{c}\"/>\n"));
            }
            x.push_str("        </shape>\n");
        }
    }
}

/// Writes the colour rule's `<bitmap>` of allowed (piece colour, result colour) pairs.
fn write_bitmap(x: &mut String, pairs: Option<&[(u8, u8)]>) {
    match pairs {
        Some(pairs) if !pairs.is_empty() => {
            x.push_str("      <bitmap>\n");
            for &(a, b) in pairs {
                // BurrTools stores colour numbers minus one.
                x.push_str(&format!(
                    "        <pair piece=\"{}\" result=\"{}\"/>\n",
                    a - 1,
                    b - 1
                ));
            }
            x.push_str("      </bitmap>\n");
        }
        _ => x.push_str("      <bitmap/>\n"),
    }
}

/// The format as `cubesat export` and the studio offer it: the puzzle alone, no instance.
pub const FORMAT: Format = Format {
    name: "xmpuzzle",
    extension: "xmpuzzle",
    mime: "application/gzip",
    about: "A BurrTools puzzle file (gzip XML, the cube or the sphere grid), as `convert` writes it",
    writer: Writer::Puzzle(|puzzle, out| Ok(out.write_all(&to_xmpuzzle(puzzle)?)?)),
};

/// The puzzle as a gzip-compressed BurrTools file.
pub fn to_xmpuzzle(puzzle: &Puzzle) -> Result<Vec<u8>> {
    let xml = to_xml(puzzle)?;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(xml.as_bytes())?;
    Ok(enc.finish()?)
}
