//! Reading a puzzle file's `pieces`: each piece's name, letter, copies, cells, colours, weight and groups, and the checks across pieces.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    JsonPath, MAX_COLOUR, array, cell_list, check_keys, integer, layer_art, object, string,
};
use crate::error::Result;
use crate::geometry::{Cell, Grid, Shape};
use crate::puzzle::{MAX_COORD, MAX_GROUP, MAX_PIECE_CELLS, MAX_PIECE_COPIES, Piece};

/// The letters given, in this order, to pieces whose name starts with no free letter.
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A piece as written, before letters are assigned and its shape normalised.
struct RawPiece {
    name: String,
    letter: Option<char>,
    cells: Vec<Cell>,
    count: u32,
    min_count: u32,
    /// Aligned with `cells`; empty when uncoloured.
    colours: Vec<u8>,
    weight: i32,
    groups: Vec<(u16, u16)>,
}

/// The puzzle's `pieces` on `grid`: each read, moved from the typed frame to the grid's, its
/// name unique and (unless `allow_disconnected`) its cells connected, the copies in all
/// within [`MAX_PIECE_COPIES`]; then every piece gets its letter.
pub(super) fn pieces(
    m: &Map<String, Value>,
    root: &JsonPath,
    grid: Grid,
    allow_disconnected: bool,
) -> Result<Vec<Piece>> {
    let pp = root.key("pieces");
    let raw_pieces = match m.get("pieces") {
        Some(p) => array(p, &pp, "a list of pieces")?,
        None => fail!(root, "the puzzle has no 'pieces'"),
    };
    if raw_pieces.is_empty() {
        fail!(pp, "the puzzle has no pieces");
    }
    let mut raws = Vec::new();
    let mut names = HashMap::new();
    let mut copies = 0u64;
    for (i, p) in raw_pieces.iter().enumerate() {
        let path = pp.index(i);
        let mut raw = piece(p, &path)?;
        for c in &mut raw.cells {
            *c = grid.from_user(*c);
        }
        if let Some(j) = names.insert(raw.name.clone(), i) {
            fail!(
                path.key("name"),
                "piece name '{}' is already used by pieces[{j}]",
                raw.name
            );
        }
        if !allow_disconnected && !grid.is_connected(&raw.cells) {
            fail!(
                path,
                "piece '{}' is not {} (set \"allow_disconnected\": true if that is intended)",
                raw.name,
                grid.connectivity()
            );
        }
        copies += raw.count as u64;
        if copies > MAX_PIECE_COPIES {
            fail!(pp, "more than {MAX_PIECE_COPIES} piece copies in all");
        }
        raws.push(raw);
    }
    assign_letters(raws, &pp, grid)
}

/// One piece as written.
fn piece(v: &Value, path: &JsonPath) -> Result<RawPiece> {
    let m = object(v, path, "a piece")?;
    check_keys(
        m,
        path,
        &[
            "name", "letter", "count", "cells", "layers", "colours", "weight", "group", "comment",
        ],
    )?;
    let name = name(m, path)?;
    let letter = letter(m, path)?;
    let (min_count, count) = count(m, path)?;
    let cells = cells(m, path, &name)?;
    let colours = colours(m, path, cells.len())?;
    if cells.len() > MAX_PIECE_CELLS {
        fail!(
            path,
            "piece '{name}' has {} cells, more than {MAX_PIECE_CELLS}",
            cells.len()
        );
    }
    let weight = match m.get("weight") {
        Some(w) => integer(w, &path.key("weight"), 1, MAX_GROUP as i64)? as i32,
        None => 1,
    };
    let groups = groups(m, path, count)?;
    Ok(RawPiece {
        name,
        letter,
        cells,
        count,
        min_count,
        colours,
        weight,
        groups,
    })
}

/// The piece's `name`: 1 to 32 characters, no spaces or control characters.
fn name(m: &Map<String, Value>, path: &JsonPath) -> Result<String> {
    let name = match m.get("name") {
        Some(n) => string(n, &path.key("name"), "a piece name")?.to_string(),
        None => fail!(path, "piece has no 'name'"),
    };
    if name.is_empty()
        || name.len() > 32
        || name.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        fail!(
            path.key("name"),
            "piece name '{}' must be 1 to 32 characters without spaces",
            crate::echo::echo(&name)
        );
    }
    Ok(name)
}

/// The piece's `letter`, if given: one printable ASCII character, not one layer art uses.
fn letter(m: &Map<String, Value>, path: &JsonPath) -> Result<Option<char>> {
    Ok(match m.get("letter") {
        Some(l) => {
            let s = string(l, &path.key("letter"), "a single character")?;
            let mut it = s.chars();
            match (it.next(), it.next()) {
                (Some(c), None) if c.is_ascii_graphic() && c != '.' && c != '+' => Some(c),
                _ => fail!(
                    path.key("letter"),
                    "'{}' is not a single printable ASCII character other than '.' and '+'",
                    crate::echo::echo(s)
                ),
            }
        }
        None => None,
    })
}

/// The piece's `count` as `(min, max)`: a count, or a range [min, max] (any number of copies
/// in it may be used); 1 when not given.
fn count(m: &Map<String, Value>, path: &JsonPath) -> Result<(u32, u32)> {
    Ok(match m.get("count") {
        Some(Value::Array(a)) => {
            let cp = path.key("count");
            if a.len() != 2 {
                fail!(cp, "a range is [min, max], found {} numbers", a.len());
            }
            let lo = integer(&a[0], &cp.index(0), 0, MAX_PIECE_COPIES as i64)? as u32;
            let hi = integer(&a[1], &cp.index(1), 1, MAX_PIECE_COPIES as i64)? as u32;
            if lo > hi {
                fail!(cp, "min {lo} is above max {hi}");
            }
            (lo, hi)
        }
        Some(c) => {
            let n = integer(c, &path.key("count"), 1, MAX_PIECE_COPIES as i64)? as u32;
            (n, n)
        }
        None => (1, 1),
    })
}

/// The piece's cells, from `cells` or `layers` (exactly one of them): at least one, spanning
/// at most [`MAX_COORD`] along each axis.
fn cells(m: &Map<String, Value>, path: &JsonPath, name: &str) -> Result<Vec<Cell>> {
    let cells = match (m.get("cells"), m.get("layers")) {
        (Some(c), None) => cell_list(
            c,
            &path.key("cells"),
            -(MAX_COORD as i64 - 1),
            MAX_PIECE_CELLS,
        )?,
        (None, Some(l)) => layer_art(
            l,
            &path.key("layers"),
            &[('#', Some(())), ('.', None), (' ', None)],
        )?
        .into_iter()
        .map(|(c, ())| c)
        .collect(),
        (Some(_), Some(_)) => fail!(path, "give 'cells' or 'layers', not both"),
        (None, None) => fail!(path, "piece '{name}' has neither 'cells' nor 'layers'"),
    };
    if cells.is_empty() {
        fail!(path, "piece '{name}' has no cells");
    }
    for (axis, a) in ["x", "y", "z"].into_iter().enumerate() {
        let (lo, hi) = cells.iter().fold((i32::MAX, i32::MIN), |(lo, hi), c| {
            (lo.min(c[axis]), hi.max(c[axis]))
        });
        if hi - lo >= MAX_COORD {
            fail!(
                path.key("cells"),
                "piece '{name}' spans {} cells along {a}, more than the {MAX_COORD} cubesat accepts",
                hi - lo + 1
            );
        }
    }
    Ok(cells)
}

/// The piece's `colours`, one per cell of its `cells` list; empty when not given.
fn colours(m: &Map<String, Value>, path: &JsonPath, cells: usize) -> Result<Vec<u8>> {
    Ok(match m.get("colours") {
        None => Vec::new(),
        Some(_) if m.get("cells").is_none() => {
            fail!(
                path.key("colours"),
                "colours need 'cells' (one colour per cell)"
            )
        }
        Some(v) => {
            let cp = path.key("colours");
            let a = array(v, &cp, "a list of colours")?;
            if a.len() != cells {
                fail!(
                    cp,
                    "{} colours for {} cells (one colour per cell)",
                    a.len(),
                    cells
                );
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(integer(x, &cp.index(i), 0, MAX_COLOUR)? as u8);
            }
            out
        }
    })
}

/// The piece's BurrTools piece groups: one number (every one of its `count` copies in that
/// group), or [[group, copies], ...]; empty when not given.
fn groups(m: &Map<String, Value>, path: &JsonPath, count: u32) -> Result<Vec<(u16, u16)>> {
    Ok(match m.get("group") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let gp = path.key("group");
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                let xp = gp.index(i);
                let pair = array(x, &xp, "[group, copies]")?;
                if pair.len() != 2 {
                    fail!(xp, "a group share is [group, copies]");
                }
                let g = integer(&pair[0], &xp.index(0), 1, MAX_GROUP as i64)? as u16;
                let c = integer(&pair[1], &xp.index(1), 1, MAX_PIECE_COPIES as i64)? as u16;
                if out.iter().any(|&(h, _)| h == g) {
                    fail!(xp, "group {g} is listed twice");
                }
                out.push((g, c));
            }
            out
        }
        Some(g) => vec![(
            integer(g, &path.key("group"), 1, MAX_GROUP as i64)? as u16,
            count.min(u16::MAX as u32) as u16,
        )],
    })
}

/// The pieces with their letters (a given one, else the name's first character when free,
/// else the next free one of [`LETTERS`]) and their normalised shapes and colours.
fn assign_letters(raws: Vec<RawPiece>, path: &JsonPath, grid: Grid) -> Result<Vec<Piece>> {
    let mut used: HashSet<char> = HashSet::new();
    for (i, r) in raws.iter().enumerate() {
        if let Some(l) = r.letter
            && !used.insert(l)
        {
            fail!(
                path.index(i).key("letter"),
                "letter '{l}' is already used by another piece"
            );
        }
    }
    let mut out = Vec::with_capacity(raws.len());
    let mut spare = LETTERS.chars();
    for r in raws {
        let shape = Shape::new_on(grid, r.cells.iter().copied());
        // Colours follow their cells through the normalisation.
        let colours = if r.colours.iter().any(|&c| c != 0) {
            let min = grid.normal_offset(&r.cells).unwrap_or([0; 3]);
            let of: HashMap<Cell, u8> = r
                .cells
                .iter()
                .zip(&r.colours)
                .map(|(&c, &k)| (crate::geometry::sub(c, min), k))
                .collect();
            shape
                .cells()
                .iter()
                .map(|c| of.get(c).copied().unwrap_or(0))
                .collect()
        } else {
            Vec::new()
        };
        let letter = match r.letter {
            Some(l) => l,
            None => {
                let first = r.name.chars().next().filter(|c| c.is_ascii_alphanumeric());
                match first {
                    Some(c) if used.insert(c) => c,
                    _ => loop {
                        match spare.next() {
                            Some(c) if used.insert(c) => break c,
                            Some(_) => continue,
                            // More pieces than letters: reuse '?', text views say so.
                            None => break '?',
                        }
                    },
                }
            }
        };
        out.push(Piece {
            name: r.name,
            letter,
            shape,
            count: r.count,
            min_count: r.min_count,
            colours,
            weight: r.weight,
            groups: r.groups,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::puzzle::json::parse_puzzle;

    #[test]
    fn letters_are_unique() {
        let text = r##"{"target": {"box": [3,1,1]}, "pieces": [
            {"name": "Ab", "cells": [[0,0,0]]}, {"name": "Ac", "cells": [[0,0,0]]}, {"name": "x", "letter": "Q", "cells": [[0,0,0]]}]}"##;
        let p = parse_puzzle(text, "t").unwrap();
        let letters: Vec<char> = p.pieces.iter().map(|p| p.letter).collect();
        assert_eq!(letters, vec!['A', 'B', 'Q']);
    }
}
