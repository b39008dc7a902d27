//! Reading a puzzle file: the file or text to a validated [`Puzzle`], in named steps (grid, name, target, pieces, the optional keys, the volume check, hints).

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::catalog::{catalog, known_counts};
use super::piece::pieces;
use super::target::target;
use super::{
    JsonPath, MAX_COLOUR, MAX_FILE_BYTES, array, boolean, cell_list, check_keys, integer, object,
    string,
};
use crate::error::{Error, Result, bail};
use crate::geometry::{Cell, Grid, Shape};
use crate::puzzle::{Hint, MAX_COORD, MAX_PIECE_CELLS, MAX_TARGET_CELLS, Puzzle, Target};

/// Reads and validates a puzzle file (opened and read once, at most [`MAX_FILE_BYTES`]);
/// errors name the file and the JSON path.
pub fn read_puzzle_file(path: &Path) -> Result<Puzzle> {
    let shown = path.display().to_string();
    let bytes = crate::input::read_file(path, MAX_FILE_BYTES)?;
    let text = crate::input::text(&bytes).map_err(|e| e.in_file(&shown))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse_puzzle(text, &stem).map_err(|e| e.in_file(shown))
}

/// Parses and validates a puzzle from JSON text. `default_name` names a puzzle whose file has
/// no `name`. Errors carry the JSON path (the caller adds the file name); a key given twice
/// in one object is refused at its path.
pub fn parse_puzzle(text: &str, default_name: &str) -> Result<Puzzle> {
    if text.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "input is {} bytes, more than the {} bytes cubesat reads",
            text.len(),
            MAX_FILE_BYTES
        );
    }
    // Text is UTF-8 already; this refuses a byte order mark, with its place.
    crate::input::text(text.as_bytes())?;
    let value = crate::input::json(text).map_err(|e| e.into_error(0))?;
    from_value(&value, default_name)
}

/// The keys a puzzle file may have at its top level.
const PUZZLE_KEYS: &[&str] = &[
    "name",
    "description",
    "target",
    "pieces",
    "hints",
    "mirror",
    "allow_disconnected",
    "known_counts",
    "colours",
    "max_holes",
    "counting",
    "catalog",
    "comment",
    "grid",
];

/// Builds a validated puzzle from a parsed JSON value.
pub fn from_value(v: &Value, default_name: &str) -> Result<Puzzle> {
    let root = JsonPath::default();
    let m = object(v, &root, "a puzzle")?;
    check_keys(m, &root, PUZZLE_KEYS)?;
    let grid = grid(m, &root)?;
    let name = name(m, &root, default_name)?;
    let description = match m.get("description") {
        Some(d) => string(d, &root.key("description"), "a description")?.to_string(),
        None => String::new(),
    };
    let mirror = flag(m, &root, "mirror")?;
    let allow_disconnected = flag(m, &root, "allow_disconnected")?;
    let target = target(m, &root, grid)?;
    let pieces = pieces(m, &root, grid, allow_disconnected)?;
    let mut puzzle = Puzzle {
        description,
        mirror,
        allow_disconnected,
        ..Puzzle::new(name, grid, pieces, target)
    };
    read_options(m, &root, &mut puzzle)?;
    check_volume(&puzzle, &root.key("pieces"))?;
    if let Some(h) = m.get("hints") {
        puzzle.hints = hints(h, &root.key("hints"), &puzzle)?;
    }
    Ok(puzzle)
}

/// The puzzle's `grid`, by its name; the default grid (cubes) when it names none.
fn grid(m: &Map<String, Value>, root: &JsonPath) -> Result<Grid> {
    let Some(g) = m.get("grid") else {
        return Ok(Grid::default());
    };
    let name = string(g, &root.key("grid"), "a grid name")?;
    match Grid::from_name(name) {
        Some(grid) => Ok(grid),
        None => fail!(
            root.key("grid"),
            "unknown grid '{}' (expected {})",
            crate::echo::echo(name),
            Grid::names()
        ),
    }
}

/// The puzzle's `name`, or `default_name` (escaped) when it has none. The name titles every
/// picture and message, so it may not hold characters that act on a terminal; a name taken
/// from the file's name has them escaped instead.
fn name(m: &Map<String, Value>, root: &JsonPath, default_name: &str) -> Result<String> {
    Ok(match m.get("name") {
        Some(n) => {
            let name = string(n, &root.key("name"), "a puzzle name")?;
            if let Some(c) = name.chars().find(|&c| crate::echo::is_unsafe(c)) {
                fail!(
                    root.key("name"),
                    "the puzzle name '{}' holds the control character {}",
                    crate::echo::echo(name),
                    c.escape_default()
                );
            }
            name.to_string()
        }
        None => crate::echo::escape(default_name).into_owned(),
    })
}

/// A true-or-false key at the top level; false when not given.
fn flag(m: &Map<String, Value>, root: &JsonPath, key: &str) -> Result<bool> {
    match m.get(key) {
        Some(b) => boolean(b, &root.key(key)),
        None => Ok(false),
    }
}

/// The keys a puzzle may go without: `known_counts`, `catalog`, `colours`, `max_holes` and
/// `counting`, in that order.
fn read_options(m: &Map<String, Value>, root: &JsonPath, puzzle: &mut Puzzle) -> Result<()> {
    if let Some(k) = m.get("known_counts") {
        puzzle.known_counts = known_counts(k, &root.key("known_counts"))?;
    }
    if let Some(c) = m.get("catalog") {
        puzzle.catalog = Some(catalog(c, &root.key("catalog"))?);
    }
    if let Some(c) = m.get("colours") {
        let (pairs, colours) = colour_rule(c, &root.key("colours"), &puzzle.target)?;
        puzzle.colour_pairs = pairs;
        puzzle.target.set_colours(colours);
    }
    if let Some(h) = m.get("max_holes") {
        puzzle.max_holes =
            Some(integer(h, &root.key("max_holes"), 0, MAX_TARGET_CELLS as i64)? as u32);
    }
    if let Some(c) = m.get("counting") {
        let cp = root.key("counting");
        let s = string(c, &cp, "a counting mode")?;
        puzzle.default_up_to = Some(
            s.parse()
                .map_err(|e| Error::input("", format!("{cp}: {e}")))?,
        );
    }
    Ok(())
}

/// Refuses pieces whose total volume (each at its fewest to its most copies) cannot fill the
/// target's must-fill cells within its optional ones; `pp` is the pieces' path.
fn check_volume(puzzle: &Puzzle, pp: &JsonPath) -> Result<()> {
    let must = puzzle.target.must_count() as u64;
    let optional = puzzle.target.optional_count() as u64;
    let volume = puzzle.piece_volume();
    let least = puzzle.min_piece_volume();
    if puzzle.has_ranges() && (least > must + optional || volume < must) {
        fail!(
            pp,
            "the pieces' total volume ranges from {least} to {volume} cells but the target needs between {must} and {} ({must} must-fill, {optional} optional)",
            must + optional
        );
    }
    if !puzzle.has_ranges() && (volume < must || volume > must + optional) {
        if optional == 0 {
            fail!(
                pp,
                "the pieces' total volume is {volume} cells but the target has {must} cells"
            );
        }
        fail!(
            pp,
            "the pieces' total volume is {volume} cells but the target needs between {must} and {} ({must} must-fill, {optional} optional)",
            must + optional
        );
    }
    Ok(())
}

/// The colour rule `{"pairs": [[a, b], ...], "target": [[x, y, z, colour], ...]}`: piece colour
/// `a` may sit on target colour `b` (no `pairs`: any colour anywhere); target cells are local
/// to container 0. Returns the pairs and a colour per target cell.
#[allow(clippy::type_complexity)]
fn colour_rule(
    v: &Value,
    path: &JsonPath,
    target: &Target,
) -> Result<(Option<Vec<(u8, u8)>>, Vec<u8>)> {
    let m = object(v, path, "a colour rule")?;
    check_keys(m, path, &["pairs", "target"])?;
    let pairs = match m.get("pairs") {
        None => None,
        Some(p) => {
            let pp = path.key("pairs");
            let mut out = Vec::new();
            for (i, x) in array(p, &pp, "a list of [piece colour, target colour]")?
                .iter()
                .enumerate()
            {
                let xp = pp.index(i);
                let a = array(x, &xp, "[piece colour, target colour]")?;
                if a.len() != 2 {
                    fail!(xp, "a pair is [piece colour, target colour]");
                }
                out.push((
                    integer(&a[0], &xp.index(0), 1, MAX_COLOUR)? as u8,
                    integer(&a[1], &xp.index(1), 1, MAX_COLOUR)? as u8,
                ));
            }
            Some(out)
        }
    };
    let mut colours = vec![0u8; target.cells().len()];
    if let Some(t) = m.get("target") {
        let tp = path.key("target");
        for (i, x) in array(t, &tp, "a list of [x, y, z, colour]")?
            .iter()
            .enumerate()
        {
            let xp = tp.index(i);
            let a = array(x, &xp, "[x, y, z, colour]")?;
            if a.len() != 4 {
                fail!(xp, "expected [x, y, z, colour]");
            }
            let mut c = [0i32; 3];
            for k in 0..3 {
                c[k] = integer(&a[k], &xp.index(k), 0, MAX_COORD as i64 - 1)? as i32;
            }
            let k = integer(&a[3], &xp.index(3), 0, MAX_COLOUR)? as u8;
            match target.cell_at(target.user_to_global(0, c)) {
                Some(cell) if target.cells()[cell as usize].container == 0 => {
                    colours[cell as usize] = k
                }
                _ => fail!(xp, "{c:?} is not a cell of the target's container 0"),
            }
        }
    }
    Ok((pairs, colours))
}

fn hints(v: &Value, path: &JsonPath, puzzle: &Puzzle) -> Result<Vec<Hint>> {
    let a = array(v, path, "a list of hints")?;
    let mut out: Vec<Hint> = Vec::new();
    let mut used_cells: HashMap<Cell, usize> = HashMap::new();
    let mut per_piece = vec![0u32; puzzle.pieces.len()];
    for (i, h) in a.iter().enumerate() {
        let hp = path.index(i);
        let m = object(h, &hp, "a hint")?;
        check_keys(m, &hp, &["piece", "cells", "container"])?;
        let name = match m.get("piece") {
            Some(n) => string(n, &hp.key("piece"), "a piece name")?,
            None => fail!(hp, "hint has no 'piece'"),
        };
        let Some(piece) = puzzle.piece_index(name) else {
            fail!(
                hp.key("piece"),
                "no piece named '{}'",
                crate::echo::echo(name)
            );
        };
        let containers = puzzle.target.containers();
        let ci = match m.get("container") {
            Some(c) => integer(c, &hp.key("container"), 0, containers.len() as i64 - 1)? as usize,
            None => 0,
        };
        let local = match m.get("cells") {
            Some(c) => cell_list(c, &hp.key("cells"), 0, MAX_PIECE_CELLS)?,
            None => fail!(hp, "hint has no 'cells'"),
        };
        let mut cells = Vec::with_capacity(local.len());
        for (k, &c) in local.iter().enumerate() {
            let g = puzzle.target.user_to_global(ci, c);
            match puzzle.target.cell_at(g) {
                Some(t) if puzzle.target.cells()[t as usize].container as usize == ci => {}
                _ => fail!(
                    hp.key("cells").index(k),
                    "{c:?} is not a cell of the target's container {ci}"
                ),
            }
            if let Some(j) = used_cells.insert(g, i) {
                fail!(
                    hp.key("cells").index(k),
                    "{c:?} is already taken by hints[{j}]"
                );
            }
            cells.push(g);
        }
        let p = &puzzle.pieces[piece];
        let placed = Shape::new_on(puzzle.grid, cells.iter().copied());
        let fits = p.shape.orientations(puzzle.mirror).contains(&placed);
        if !fits {
            let how = if puzzle.mirror {
                "a rotation or reflection"
            } else {
                "a rotation"
            };
            fail!(
                hp.key("cells"),
                "these cells are not {how} of piece '{name}'"
            );
        }
        per_piece[piece] += 1;
        if per_piece[piece] > p.count {
            fail!(
                hp,
                "more hints for piece '{name}' than its count ({})",
                p.count
            );
        }
        cells.sort_unstable();
        out.push(Hint { piece, cells });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::puzzle::json::parse_puzzle;
    use crate::puzzle::json::tests::err;

    #[test]
    fn errors_name_the_json_path() {
        assert!(
            err(r#"{"target": {"box": [2,2]}, "pieces": []}"#)
                .starts_with("target.box: expected a box size")
        );
        assert!(
            err(r#"{"target": {"bx": [2,2,1]}, "pieces": []}"#)
                .contains("target.bx: unknown key 'bx'")
        );
        let e =
            err(r##"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "layers": [["#x"]]}]}"##);
        assert!(
            e.contains("pieces[0].layers[0][0]: unexpected character 'x' at column 2"),
            "{e}"
        );
        let e = err(
            r##"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[2,0,0]]}]}"##,
        );
        assert!(
            e.contains("pieces[0]: piece 'D' is not face-connected"),
            "{e}"
        );
        let e = err(
            r##"{"target": {"box": [3,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}]}"##,
        );
        assert!(
            e.contains("pieces: the pieces' total volume is 2 cells but the target has 3"),
            "{e}"
        );
        let e = err("{\n  \"target\": ,\n}");
        assert!(e.starts_with("line 2, column"), "{e}");
        let e = err(r##"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": []}]}"##);
        assert!(e.contains("has no cells"), "{e}");
        let e = err(r#"{"target": {"box": [1000,1000,1000]}, "pieces": []}"#);
        assert!(e.contains("more than"), "{e}");
    }

    #[test]
    fn hint_errors() {
        let base = |hint: &str| {
            format!(
                r##"{{"target": {{"box": [2,2,1]}}, "pieces": [{{"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]}}], "hints": [{hint}]}}"##
            )
        };
        parse_puzzle(&base(r#"{"piece": "D", "cells": [[0,0,0],[0,1,0]]}"#), "t").unwrap();
        assert!(
            err(&base(r#"{"piece": "Q", "cells": [[0,0,0],[0,1,0]]}"#))
                .contains("hints[0].piece: no piece named 'Q'")
        );
        assert!(
            err(&base(r#"{"piece": "D", "cells": [[0,0,0],[1,1,0]]}"#))
                .contains("hints[0].cells: these cells are not a rotation of piece 'D'")
        );
        assert!(
            err(&base(r#"{"piece": "D", "cells": [[0,0,0],[2,0,0]]}"#))
                .contains("hints[0].cells[1]: [2, 0, 0] is not a cell")
        );
    }
}
