//! Writes a puzzle as a BurrTools `.xmpuzzle` file (gzip-compressed XML, the cube or the sphere grid): one shape per piece, the target as the result shape, counts or ranges, colours and `maxHoles`.
//!
//! The file says the same thing as the puzzle: every piece becomes a part in the same order
//! (so BurrTools' mirror pairing, which depends on part order, sees the same sequence), the
//! target's optional cells become `+` voxels, and the colour rule becomes `<colors>` plus
//! bitmap pairs (written 0-based, as BurrTools does). What BurrTools cannot express is refused
//! with one line: several containers, hints, and free (mirrorable) pieces.

use std::io::Write;

use crate::error::{Result, bail};

use crate::puzzle::Puzzle;
use crate::puzzle::burrtools::{MAX_VOXELS, MAX_XML_BYTES};

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
    let t = &puzzle.target;
    if t.containers().len() != 1 {
        bail!(
            "the target has {} containers; a BurrTools problem has one result shape",
            t.containers().len()
        );
    }
    if !puzzle.hints.is_empty() {
        bail!("the puzzle has hints, which a BurrTools file cannot express");
    }
    if puzzle.mirror {
        bail!(
            "the puzzle allows mirrored pieces (\"mirror\": true); BurrTools only rotates pieces"
        );
    }
    let boxes = puzzle
        .pieces
        .iter()
        .map(|p| (format!("piece '{}'", p.name), p.shape.size()))
        .chain(std::iter::once((
            "the target".to_string(),
            t.containers()[0].size,
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
    let mut max_colour: u8 = 0;
    for p in &puzzle.pieces {
        max_colour = max_colour.max(p.colours.iter().copied().max().unwrap_or(0));
    }
    for c in 0..t.cells().len() as u32 {
        max_colour = max_colour.max(t.colour(c));
    }
    if let Some(pairs) = &puzzle.colour_pairs {
        for &(a, b) in pairs {
            max_colour = max_colour.max(a).max(b);
        }
    }
    let mut x = String::from("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
    x.push_str(&format!(
        "  <gridType type=\"{}\"/>\n",
        puzzle.grid.burrtools_type()
    ));
    // Custom colours exist only with a colour rule: without <colors> BurrTools lets any
    // colour sit anywhere, which is what no rule means.
    if puzzle.colour_pairs.is_some() {
        let n = max_colour.max(1);
        x.push_str("  <colors>\n");
        for k in 1..=n as u32 {
            // Distinct, readable colours; only the number matters to the solver.
            let (r, g, b) = ((k * 67) % 256, (k * 139 + 40) % 256, (k * 29 + 90) % 256);
            x.push_str(&format!(
                "    <color red=\"{r}\" green=\"{g}\" blue=\"{b}\"/>\n"
            ));
        }
        x.push_str("  </colors>\n");
    } else {
        x.push_str("  <colors/>\n");
    }
    x.push_str("  <shapes>\n");
    for p in &puzzle.pieces {
        let size = p.shape.size();
        let cells = p.coloured_cells();
        let s = voxel_string(size, |c| {
            cells.iter().find(|(d, _)| *d == c).map(|&(_, k)| ('#', k))
        });
        let weight = if p.weight != 1 {
            format!(" weight=\"{}\"", p.weight)
        } else {
            String::new()
        };
        x.push_str(&format!(
            "    <voxel x=\"{}\" y=\"{}\" z=\"{}\"{weight} name=\"{}\" type=\"0\">{s}</voxel>\n",
            size[0],
            size[1],
            size[2],
            esc(&p.name)
        ));
    }
    let c0 = &t.containers()[0];
    let mut local = std::collections::HashMap::new();
    for &i in &c0.cells {
        let (_, l) = t.local(i);
        let st = if t.cells()[i as usize].optional {
            '+'
        } else {
            '#'
        };
        local.insert(l, (st, t.colour(i)));
    }
    let rs = voxel_string(c0.size, |c| local.get(&c).copied());
    x.push_str(&format!(
        "    <voxel x=\"{}\" y=\"{}\" z=\"{}\" name=\"result\" type=\"0\">{rs}</voxel>\n",
        c0.size[0], c0.size[1], c0.size[2]
    ));
    x.push_str("  </shapes>\n  <problems>\n");
    let holes = puzzle
        .max_holes
        .map_or(String::new(), |h| format!(" maxHoles=\"{h}\""));
    x.push_str(&format!(
        "    <problem name=\"{}\" state=\"0\"{holes}>\n      <shapes>\n",
        esc(&puzzle.name)
    ));
    for (i, p) in puzzle.pieces.iter().enumerate() {
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
    x.push_str("      </shapes>\n");
    x.push_str(&format!("      <result id=\"{}\"/>\n", puzzle.pieces.len()));
    match &puzzle.colour_pairs {
        Some(pairs) if !pairs.is_empty() => {
            x.push_str("      <bitmap>\n");
            for &(a, b) in pairs {
                // Stored as colour numbers minus one.
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
    x.push_str("    </problem>\n  </problems>\n");
    x.push_str(&format!(
        "  <comment>{}</comment>\n",
        esc(&puzzle.description)
    ));
    x.push_str("</puzzle>\n");
    Ok(x)
}

/// The puzzle as a gzip-compressed BurrTools file.
pub fn to_xmpuzzle(puzzle: &Puzzle) -> Result<Vec<u8>> {
    let xml = to_xml(puzzle)?;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(xml.as_bytes())?;
    Ok(enc.finish()?)
}
