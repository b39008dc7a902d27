//! The puzzle file format (JSON, documented in puzzles/README.md): reading with errors that name the JSON path, validation, and writing.
//!
//! Reading goes through `serde_json::Value` and walks it by hand, so every error can name the
//! place (`pieces[3].layers[0][2]`) and unknown keys are rejected. Errors read
//! `FILE: PATH: what is wrong`; JSON syntax errors carry serde_json's line and column.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

use crate::error::{Error, Result, bail};
use serde_json::{Map, Value, json};

use crate::geometry::{Cell, Grid, Shape, add};
use crate::mode::UpTo;
use crate::puzzle::{
    Catalog, CatalogCounts, ContainerSpec, Counted, Estimate, Finding, Hint, Incomplete,
    KnownCounts, MAX_ART_CELLS, MAX_COORD, MAX_GROUP, MAX_PIECE_CELLS, MAX_PIECE_COPIES,
    MAX_TARGET_CELLS, ModeCount, Piece, Published, Puzzle, Target, Verdict,
};

pub use crate::puzzle::MAX_FILE_BYTES;

/// A JSON path such as `pieces[2].cells[0]`, used in error messages.
#[derive(Clone, Debug, Default)]
struct JsonPath(String);

impl JsonPath {
    fn key(&self, k: &str) -> JsonPath {
        // A key is user text: an unknown one may be anything (see `crate::echo`).
        let k = crate::echo::echo(k);
        if self.0.is_empty() {
            JsonPath(k.to_string())
        } else {
            JsonPath(format!("{}.{k}", self.0))
        }
    }
    fn index(&self, i: usize) -> JsonPath {
        JsonPath(format!("{}[{i}]", self.0))
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("(top level)")
        } else {
            f.write_str(&self.0)
        }
    }
}

macro_rules! fail {
    ($path:expr, $($arg:tt)*) => {
        return Err(Error::input($path.to_string(), format!($($arg)*)))
    };
}

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

fn object<'a>(v: &'a Value, path: &JsonPath, what: &str) -> Result<&'a Map<String, Value>> {
    match v {
        Value::Object(m) => Ok(m),
        _ => fail!(path, "expected {what} (a JSON object), found {}", kind(v)),
    }
}

fn array<'a>(v: &'a Value, path: &JsonPath, what: &str) -> Result<&'a Vec<Value>> {
    match v {
        Value::Array(a) => Ok(a),
        _ => fail!(path, "expected {what} (a JSON array), found {}", kind(v)),
    }
}

fn string<'a>(v: &'a Value, path: &JsonPath, what: &str) -> Result<&'a str> {
    match v {
        Value::String(s) => Ok(s),
        _ => fail!(path, "expected {what} (a string), found {}", kind(v)),
    }
}

fn boolean(v: &Value, path: &JsonPath) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => fail!(path, "expected true or false, found {}", kind(v)),
    }
}

fn integer(v: &Value, path: &JsonPath, lo: i64, hi: i64) -> Result<i64> {
    match v.as_i64() {
        Some(i) if (lo..=hi).contains(&i) => Ok(i),
        Some(i) => fail!(path, "{i} is out of range ({lo} to {hi})"),
        None if too_large(v) => fail!(path, "{v} is out of range ({lo} to {hi})"),
        None => fail!(path, "expected an integer, found {}", found(v)),
    }
}

/// True for a whole number beyond the 64-bit integers (serde_json reads one as a float).
fn too_large(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.as_u64().is_some()
                || n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 2f64.powi(63))
        }
        _ => false,
    }
}

/// What a value is, in a message: a number is shown (`2.5`), anything else named by kind.
fn found(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        _ => kind(v).to_string(),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn check_keys(m: &Map<String, Value>, path: &JsonPath, allowed: &[&str]) -> Result<()> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            if let Some(near) = allowed.iter().find(|a| edit_distance(a, k) <= 2) {
                fail!(
                    path.key(k),
                    "unknown key '{}' (did you mean '{near}'?)",
                    crate::echo::echo(k)
                );
            }
            fail!(
                path.key(k),
                "unknown key '{}' (expected one of: {})",
                crate::echo::echo(k),
                allowed.join(", ")
            );
        }
    }
    Ok(())
}

/// Levenshtein distance, for suggesting the key a misspelt one meant.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn cell(v: &Value, path: &JsonPath, lo: i64) -> Result<Cell> {
    let a = array(v, path, "a cell [x, y, z]")?;
    if a.len() != 3 {
        fail!(
            path,
            "expected a cell [x, y, z] of three integers, found {} values",
            a.len()
        );
    }
    let mut c = [0i32; 3];
    for (k, x) in a.iter().enumerate() {
        c[k] = integer(x, &path.index(k), lo, MAX_COORD as i64 - 1)? as i32;
    }
    Ok(c)
}

fn cell_list(v: &Value, path: &JsonPath, lo: i64, max: usize) -> Result<Vec<Cell>> {
    let a = array(v, path, "a list of cells [[x, y, z], ...]")?;
    if a.len() > max {
        fail!(
            path,
            "{} cells, more than the {max} cubesat accepts here",
            a.len()
        );
    }
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(a.len());
    for (i, x) in a.iter().enumerate() {
        let c = cell(x, &path.index(i), lo)?;
        if !seen.insert(c) {
            fail!(path.index(i), "cell {c:?} is listed twice");
        }
        out.push(c);
    }
    Ok(out)
}

/// Reads layer art: an array of layers (z = 0, 1, ...), each an array of row strings
/// (y = 0, 1, ... top to bottom), each character a column (x = 0, 1, ...). `symbols` maps
/// accepted characters to a value; `None` marks "no cell".
fn layer_art<T: Copy>(
    v: &Value,
    path: &JsonPath,
    symbols: &[(char, Option<T>)],
) -> Result<Vec<(Cell, T)>> {
    let layers = array(
        v,
        path,
        "layer art: a list of layers, each a list of row strings",
    )?;
    if layers.is_empty() {
        fail!(path, "layer art has no layers");
    }
    let mut out = Vec::new();
    for (z, layer) in layers.iter().enumerate() {
        let lp = path.index(z);
        let rows = array(layer, &lp, "a layer: a list of row strings")?;
        if z as i32 >= MAX_COORD || rows.len() as i32 > MAX_COORD {
            fail!(
                lp,
                "layer art is larger than {MAX_COORD} cells along an axis"
            );
        }
        for (y, row) in rows.iter().enumerate() {
            let rp = lp.index(y);
            let s = string(row, &rp, "a row string")?;
            if s.chars().count() as i32 > MAX_COORD {
                fail!(rp, "row is longer than {MAX_COORD} characters");
            }
            for (x, ch) in s.chars().enumerate() {
                match symbols.iter().find(|(c, _)| *c == ch) {
                    Some((_, Some(t))) => out.push(([x as i32, y as i32, z as i32], *t)),
                    Some((_, None)) => {}
                    None => {
                        let expected: Vec<String> =
                            symbols.iter().map(|(c, _)| format!("'{c}'")).collect();
                        fail!(
                            rp,
                            "unexpected character '{}' at column {} (expected {})",
                            crate::echo::escape(ch.encode_utf8(&mut [0; 4])),
                            x + 1,
                            expected.join(", ")
                        );
                    }
                }
                if out.len() > MAX_TARGET_CELLS {
                    fail!(path, "more than {MAX_TARGET_CELLS} cells");
                }
            }
        }
    }
    Ok(out)
}

const TARGET_FORMS: &[&str] = &["box", "boxes", "layers", "cells", "containers"];

fn box_size(v: &Value, path: &JsonPath) -> Result<[i32; 3]> {
    let a = array(v, path, "a box size [x, y, z]")?;
    if a.len() != 3 {
        fail!(
            path,
            "expected a box size [x, y, z], found {} values",
            a.len()
        );
    }
    let mut s = [0i32; 3];
    for k in 0..3 {
        s[k] = integer(&a[k], &path.index(k), 1, MAX_COORD as i64)? as i32;
    }
    let volume: i64 = s.iter().map(|&x| x as i64).product();
    if volume > MAX_TARGET_CELLS as i64 {
        fail!(
            path,
            "box of {volume} cells, more than the {MAX_TARGET_CELLS} cubesat accepts"
        );
    }
    Ok(s)
}

/// Reads one container (or, at the top level, possibly several).
fn containers(v: &Value, path: &JsonPath, top: bool) -> Result<Vec<ContainerSpec>> {
    let m = object(v, path, "a target")?;
    let allowed: &[&str] = if top {
        &["box", "boxes", "layers", "cells", "optional", "containers"]
    } else {
        &["box", "layers", "cells", "optional"]
    };
    check_keys(m, path, allowed)?;
    let forms: Vec<&str> = TARGET_FORMS
        .iter()
        .copied()
        .filter(|f| m.contains_key(*f))
        .collect();
    if forms.len() != 1 {
        let usable: Vec<&str> = TARGET_FORMS
            .iter()
            .copied()
            .filter(|f| allowed.contains(f))
            .collect();
        fail!(
            path,
            "give exactly one of: {} (found {})",
            usable.join(", "),
            if forms.is_empty() {
                "none".to_string()
            } else {
                forms.join(", ")
            }
        );
    }
    if m.contains_key("optional") && !m.contains_key("cells") {
        fail!(
            path.key("optional"),
            "'optional' goes with 'cells'; in layer art use '+'"
        );
    }
    let spec = match forms[0] {
        "box" => vec![ContainerSpec::full_box(box_size(
            &m["box"],
            &path.key("box"),
        )?)],
        "boxes" => {
            let p = path.key("boxes");
            let a = array(&m["boxes"], &p, "a list of box sizes")?;
            if a.is_empty() {
                fail!(p, "no boxes");
            }
            let mut out = Vec::new();
            let mut total = 0i64;
            for (i, b) in a.iter().enumerate() {
                let s = box_size(b, &p.index(i))?;
                total += s.iter().map(|&x| x as i64).product::<i64>();
                if total > MAX_TARGET_CELLS as i64 {
                    fail!(p, "more than {MAX_TARGET_CELLS} cells in all");
                }
                out.push(ContainerSpec::full_box(s));
            }
            out
        }
        "layers" => {
            let cells = layer_art(
                &m["layers"],
                &path.key("layers"),
                &[
                    ('#', Some(false)),
                    ('+', Some(true)),
                    ('.', None),
                    (' ', None),
                ],
            )?;
            vec![ContainerSpec { cells, frame: None }]
        }
        "cells" => {
            let must = cell_list(&m["cells"], &path.key("cells"), 0, MAX_TARGET_CELLS)?;
            let optional = match m.get("optional") {
                Some(o) => cell_list(o, &path.key("optional"), 0, MAX_TARGET_CELLS)?,
                None => Vec::new(),
            };
            let must_set: HashSet<Cell> = must.iter().copied().collect();
            if let Some((i, c)) = optional
                .iter()
                .enumerate()
                .find(|(_, c)| must_set.contains(*c))
            {
                fail!(
                    path.key("optional").index(i),
                    "cell {c:?} is also listed in 'cells'"
                );
            }
            let mut cells: Vec<(Cell, bool)> = must.into_iter().map(|c| (c, false)).collect();
            cells.extend(optional.into_iter().map(|c| (c, true)));
            vec![ContainerSpec { cells, frame: None }]
        }
        "containers" => {
            let p = path.key("containers");
            let a = array(&m["containers"], &p, "a list of containers")?;
            if a.is_empty() {
                fail!(p, "no containers");
            }
            let mut out = Vec::new();
            for (i, c) in a.iter().enumerate() {
                out.extend(containers(c, &p.index(i), false)?);
            }
            out
        }
        _ => unreachable!("forms are taken from TARGET_FORMS"),
    };
    for (i, s) in spec.iter().enumerate() {
        if s.cells.is_empty() {
            let p = if spec.len() > 1 {
                path.key("containers").index(i)
            } else {
                path.clone()
            };
            fail!(p, "the target has no cells");
        }
    }
    let total: usize = spec.iter().map(|s| s.cells.len()).sum();
    if total > MAX_TARGET_CELLS {
        fail!(
            path,
            "{total} target cells, more than the {MAX_TARGET_CELLS} cubesat accepts"
        );
    }
    Ok(spec)
}

const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

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

/// The largest colour number (as in BurrTools).
pub const MAX_COLOUR: i64 = 63;

fn piece(v: &Value, path: &JsonPath) -> Result<RawPiece> {
    let m = object(v, path, "a piece")?;
    check_keys(
        m,
        path,
        &[
            "name", "letter", "count", "cells", "layers", "colours", "weight", "group", "comment",
        ],
    )?;
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
    let letter = match m.get("letter") {
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
    };
    // A count, or a range [min, max] (any number of copies in it may be used).
    let (min_count, count) = match m.get("count") {
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
    };
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
    let colours = match m.get("colours") {
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
            if a.len() != cells.len() {
                fail!(
                    cp,
                    "{} colours for {} cells (one colour per cell)",
                    a.len(),
                    cells.len()
                );
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(integer(x, &cp.index(i), 0, MAX_COLOUR)? as u8);
            }
            out
        }
    };
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
    // BurrTools piece groups: one number (every copy in that group), or [[group, copies], ...].
    let groups = match m.get("group") {
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
    };
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

fn known_counts(v: &Value, path: &JsonPath) -> Result<KnownCounts> {
    let m = object(v, path, "known counts")?;
    check_keys(
        m,
        path,
        &["all", "rotation", "rotation+reflection", "source", "note"],
    )?;
    let num = |k: &str| -> Result<Option<u64>> {
        match m.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => match x.as_u64() {
                Some(n) => Ok(Some(n)),
                None if too_large(x) && x.as_f64().is_some_and(|f| f > 0.0) => {
                    fail!(path.key(k), "{x} is out of range (0 to {})", u64::MAX)
                }
                None => fail!(
                    path.key(k),
                    "expected a non-negative integer or null, found {}",
                    found(x)
                ),
            },
        }
    };
    let source = match m.get("source") {
        Some(s) => Some(string(s, &path.key("source"), "a source")?.to_string()),
        None => None,
    };
    Ok(KnownCounts {
        all: num("all")?,
        rotation: num("rotation")?,
        rotation_reflection: num("rotation+reflection")?,
        source,
    })
}

/// The longest family name: it names a folder and a `list --family` argument.
const MAX_FAMILY_LEN: usize = 32;

/// A counting mode a catalog records (not BurrTools', which depends on the reader).
fn catalog_mode(v: &Value, path: &JsonPath) -> Result<UpTo> {
    let s = string(v, path, "a counting mode")?;
    match s.parse::<UpTo>() {
        Ok(UpTo::BurrTools) | Err(_) => fail!(
            path,
            "unknown counting mode '{s}' (expected none, rotation or rotation+reflection)"
        ),
        Ok(m) => Ok(m),
    }
}

/// A non-empty string of at most 4,096 characters (catalog text fields).
fn text(v: &Value, path: &JsonPath, what: &str) -> Result<String> {
    let s = string(v, path, what)?;
    if s.trim().is_empty() {
        fail!(path, "{what} is empty");
    }
    if s.chars().count() > 4096 {
        fail!(path, "{what} is longer than 4,096 characters");
    }
    Ok(s.to_string())
}

fn catalog_counts(v: &Value, path: &JsonPath) -> Result<CatalogCounts> {
    let m = object(v, path, "cubesat's counts per mode")?;
    check_keys(m, path, &["none", "rotation", "rotation+reflection"])?;
    let count = |k: &str| -> Result<ModeCount> {
        Ok(match m.get(k) {
            None => ModeCount::NotCounted,
            Some(Value::Null) => ModeCount::Undefined,
            Some(x) => match x.as_u64() {
                Some(n) => ModeCount::Count(n),
                None => fail!(
                    path.key(k),
                    "expected a non-negative integer or null (undefined), found {}",
                    kind(x)
                ),
            },
        })
    };
    Ok(CatalogCounts {
        none: count("none")?,
        rotation: count("rotation")?,
        rotation_reflection: count("rotation+reflection")?,
    })
}

fn finding(v: &Value, path: &JsonPath) -> Result<Finding> {
    let m = object(v, path, "a finding")?;
    check_keys(m, path, &["verdict", "matches", "text"])?;
    let verdict = match m.get("verdict") {
        Some(x) => match string(x, &path.key("verdict"), "a verdict")? {
            "convention" => Verdict::Convention,
            "source" => Verdict::Source,
            other => fail!(
                path.key("verdict"),
                "unknown verdict '{other}' (expected convention or source)"
            ),
        },
        None => fail!(path, "the finding has no 'verdict'"),
    };
    let matches = match m.get("matches") {
        Some(x) => Some(catalog_mode(x, &path.key("matches"))?),
        None => None,
    };
    if matches.is_some() && verdict != Verdict::Convention {
        fail!(
            path.key("matches"),
            "'matches' names the mode of a 'convention' verdict"
        );
    }
    let text = match m.get("text") {
        Some(x) => text(x, &path.key("text"), "the finding's text")?,
        None => fail!(path, "the finding has no 'text'"),
    };
    Ok(Finding {
        verdict,
        matches,
        text,
    })
}

fn published(v: &Value, path: &JsonPath, counts: &CatalogCounts) -> Result<Published> {
    let m = object(v, path, "a published count")?;
    check_keys(
        m,
        path,
        &["count", "up_to", "convention", "source", "finding"],
    )?;
    let count = match m.get("count") {
        Some(x) => match x.as_u64() {
            Some(n) => n,
            None => fail!(
                path.key("count"),
                "expected a non-negative integer, found {}",
                kind(x)
            ),
        },
        None => fail!(path, "the published count has no 'count'"),
    };
    let need = |k: &str, what: &str| -> Result<String> {
        match m.get(k) {
            Some(x) => text(x, &path.key(k), what),
            None => fail!(path, "the published count has no '{k}'"),
        }
    };
    let up_to = match m.get("up_to") {
        Some(x) => catalog_mode(x, &path.key("up_to"))?,
        None => fail!(path, "the published count has no 'up_to'"),
    };
    let p = Published {
        count,
        up_to,
        convention: need("convention", "the convention")?,
        source: need("source", "the source")?,
        finding: match m.get("finding") {
            Some(f) => Some(finding(f, &path.key("finding"))?),
            None => None,
        },
    };
    // A disagreement is written down with its settlement, and only a disagreement is.
    if let ModeCount::Count(mine) = counts.get(up_to) {
        match (&p.finding, mine == count) {
            (None, false) => fail!(
                path,
                "the published count {count} ({up_to}) differs from cubesat's {mine}: add a 'finding' saying which is right"
            ),
            (Some(_), true) => fail!(
                path.key("finding"),
                "the published count {count} ({up_to}) agrees with cubesat's: there is nothing to settle"
            ),
            _ => {}
        }
    }
    if let Some(Finding {
        matches: Some(mode),
        ..
    }) = &p.finding
        && let ModeCount::Count(theirs) = counts.get(*mode)
        && theirs != count
    {
        fail!(
            path.key("finding").key("matches"),
            "cubesat counts {theirs} {}, not the published {count}",
            mode.phrase()
        );
    }
    Ok(p)
}

fn catalog(v: &Value, path: &JsonPath) -> Result<Catalog> {
    let m = object(v, path, "a catalog record")?;
    check_keys(
        m,
        path,
        &["family", "published", "cubesat", "slow", "incomplete"],
    )?;
    let family = match m.get("family") {
        Some(f) => {
            let fp = path.key("family");
            let f = string(f, &fp, "a family name")?;
            if f.is_empty()
                || f.len() > MAX_FAMILY_LEN
                || !f
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                fail!(
                    fp,
                    "a family name is 1 to {MAX_FAMILY_LEN} characters of a-z, 0-9 and '-', found '{f}'"
                );
            }
            f.to_string()
        }
        None => fail!(path, "the catalog record has no 'family'"),
    };
    let counts = match m.get("cubesat") {
        Some(c) => catalog_counts(c, &path.key("cubesat"))?,
        None => CatalogCounts::default(),
    };
    let pp = path.key("published");
    let published = match m.get("published") {
        None => fail!(
            path,
            "the catalog record has no 'published' (null when no count is published)"
        ),
        Some(Value::Null) => Vec::new(),
        Some(p) => {
            let a = array(p, &pp, "a list of published counts, or null")?;
            if a.is_empty() {
                fail!(pp, "no published count: write null");
            }
            a.iter()
                .enumerate()
                .map(|(i, x)| published(x, &pp.index(i), &counts))
                .collect::<Result<Vec<_>>>()?
        }
    };
    let slow = match m.get("slow") {
        Some(b) => boolean(b, &path.key("slow"))?,
        None => false,
    };
    let incomplete = match m.get("incomplete") {
        Some(x) => Some(incomplete(x, &path.key("incomplete"))?),
        None => None,
    };
    Ok(Catalog {
        family,
        published,
        counts,
        slow,
        incomplete,
    })
}

/// A day, `YYYY-MM-DD`.
fn date(v: &Value, path: &JsonPath) -> Result<String> {
    let s = string(v, path, "a date")?;
    let b = s.as_bytes();
    let ok = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !ok {
        fail!(
            path,
            "expected a date YYYY-MM-DD, found '{}'",
            crate::echo::echo(s)
        );
    }
    Ok(s.to_string())
}

/// A finite non-negative number.
fn amount(v: &Value, path: &JsonPath) -> Result<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => fail!(path, "expected a non-negative number, found {}", found(v)),
    }
}

fn incomplete(v: &Value, path: &JsonPath) -> Result<Incomplete> {
    let m = object(v, path, "an incomplete count")?;
    check_keys(m, path, &["source", "convention", "counted", "estimate"])?;
    let need = |k: &str, what: &str| -> Result<String> {
        match m.get(k) {
            Some(x) => text(x, &path.key(k), what),
            None => fail!(path, "the incomplete count has no '{k}'"),
        }
    };
    let counted = match m.get("counted") {
        Some(c) => {
            let cp = path.key("counted");
            let o = object(c, &cp, "how the counts were made")?;
            check_keys(o, &cp, &["date", "cpu_seconds", "how"])?;
            let get = |k: &str| match o.get(k) {
                Some(x) => Ok(x),
                None => fail!(cp, "'counted' has no '{k}'"),
            };
            Some(Counted {
                date: date(get("date")?, &cp.key("date"))?,
                cpu_seconds: amount(get("cpu_seconds")?, &cp.key("cpu_seconds"))?,
                how: text(get("how")?, &cp.key("how"), "how the counts were made")?,
            })
        }
        None => None,
    };
    let estimate = match m.get("estimate") {
        Some(e) => {
            let ep = path.key("estimate");
            let o = object(e, &ep, "an estimate")?;
            check_keys(
                o,
                &ep,
                &[
                    "up_to",
                    "nodes",
                    "low",
                    "high",
                    "cpu_seconds",
                    "seconds",
                    "seed",
                    "date",
                ],
            )?;
            let get = |k: &str| match o.get(k) {
                Some(x) => Ok(x),
                None => fail!(ep, "the estimate has no '{k}'"),
            };
            let est = Estimate {
                up_to: catalog_mode(get("up_to")?, &ep.key("up_to"))?,
                nodes: amount(get("nodes")?, &ep.key("nodes"))?,
                low: amount(get("low")?, &ep.key("low"))?,
                high: match get("high")? {
                    Value::Null => None,
                    x => Some(amount(x, &ep.key("high"))?),
                },
                cpu_seconds: amount(get("cpu_seconds")?, &ep.key("cpu_seconds"))?,
                seconds: amount(get("seconds")?, &ep.key("seconds"))?,
                seed: integer(get("seed")?, &ep.key("seed"), 0, i64::MAX)? as u64,
                date: date(get("date")?, &ep.key("date"))?,
            };
            if est.low > est.nodes || est.high.is_some_and(|h| h < est.nodes) {
                fail!(ep, "the interval does not hold the estimate");
            }
            Some(est)
        }
        None => None,
    };
    Ok(Incomplete {
        source: need("source", "the source")?,
        convention: need("convention", "the convention")?,
        counted,
        estimate,
    })
}

/// Builds a validated puzzle from a parsed JSON value.
pub fn from_value(v: &Value, default_name: &str) -> Result<Puzzle> {
    let root = JsonPath::default();
    let m = object(v, &root, "a puzzle")?;
    check_keys(
        m,
        &root,
        &[
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
        ],
    )?;
    let grid = match m.get("grid") {
        None => Grid::Cube,
        Some(g) => match string(g, &root.key("grid"), "a grid name")? {
            "cubes" => Grid::Cube,
            "spheres" => Grid::Sphere,
            other => fail!(
                root.key("grid"),
                "unknown grid '{}' (expected \"cubes\" or \"spheres\")",
                crate::echo::echo(other)
            ),
        },
    };
    // The name titles every picture and message, so it may not hold characters that act on
    // a terminal; a name taken from the file's name has them escaped instead.
    let name = match m.get("name") {
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
    };
    let description = match m.get("description") {
        Some(d) => string(d, &root.key("description"), "a description")?.to_string(),
        None => String::new(),
    };
    let mirror = match m.get("mirror") {
        Some(b) => boolean(b, &root.key("mirror"))?,
        None => false,
    };
    let allow_disconnected = match m.get("allow_disconnected") {
        Some(b) => boolean(b, &root.key("allow_disconnected"))?,
        None => false,
    };
    let mut target_spec = match m.get("target") {
        Some(t) => containers(t, &root.key("target"), true)?,
        None => fail!(root, "the puzzle has no 'target'"),
    };
    if grid == Grid::Sphere {
        // Layer-frame balls to the grid's coordinates, moved to non-negative ones by an even
        // step that the container keeps as its frame (so its cells read back as written).
        for spec in &mut target_spec {
            let cells: Vec<Cell> = spec.cells.iter().map(|(c, _)| grid.from_user(*c)).collect();
            let off = grid.normal_offset(&cells).unwrap_or([0; 3]);
            for ((c, _), u) in spec.cells.iter_mut().zip(cells) {
                *c = crate::geometry::sub(u, off);
            }
            spec.frame = Some(off);
        }
    }
    let mut target = Target::new_on(grid, &target_spec);

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
            let how = match grid {
                Grid::Cube => "face-connected",
                Grid::Sphere => "connected (some balls touch none of the others)",
            };
            fail!(
                path,
                "piece '{}' is not {how} (set \"allow_disconnected\": true if that is intended)",
                raw.name
            );
        }
        copies += raw.count as u64;
        if copies > MAX_PIECE_COPIES {
            fail!(pp, "more than {MAX_PIECE_COPIES} piece copies in all");
        }
        raws.push(raw);
    }
    let pieces = assign_letters(raws, &pp, grid)?;

    let mut puzzle = Puzzle {
        description,
        mirror,
        allow_disconnected,
        ..Puzzle::new(name, grid, pieces, target)
    };
    if let Some(k) = m.get("known_counts") {
        puzzle.known_counts = known_counts(k, &root.key("known_counts"))?;
    }
    if let Some(c) = m.get("catalog") {
        puzzle.catalog = Some(catalog(c, &root.key("catalog"))?);
    }
    if let Some(c) = m.get("colours") {
        let (pairs, colours) = colour_rule(c, &root.key("colours"), &puzzle.target)?;
        puzzle.colour_pairs = pairs;
        target = puzzle.target.clone();
        target.set_colours(colours);
        puzzle.target = target;
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

    if let Some(h) = m.get("hints") {
        puzzle.hints = hints(h, &root.key("hints"), &puzzle)?;
    }
    Ok(puzzle)
}

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

/// Writes a puzzle as JSON in the format [`parse_puzzle`] reads (boxes as `box`, other
/// containers as layer art, pieces as cell lists). Containers whose layer art would be larger
/// than [`MAX_ART_CELLS`] cells in all (a sparse target in a large box) are written as
/// `cells` and `optional` lists instead, so the file grows with the cells, not with the box,
/// and reads back as the same puzzle.
pub fn to_value(puzzle: &Puzzle) -> Value {
    let t = &puzzle.target;
    let art_cells: i64 = (0..t.containers().len())
        .filter(|&ci| !t.is_full_box(ci))
        .map(|ci| {
            t.containers()[ci]
                .size
                .iter()
                .map(|&s| i64::from(s))
                .product::<i64>()
        })
        .sum();
    let as_art = art_cells <= MAX_ART_CELLS
        && t.containers()
            .iter()
            .all(|c| crate::puzzle::fits_art(c.size));
    let container_value = |ci: usize| -> Value {
        let c = &t.containers()[ci];
        if puzzle.grid != Grid::Cube {
            return user_container_value(t, ci);
        }
        if t.is_full_box(ci) {
            return json!({ "box": c.size });
        }
        if !as_art {
            let (optional, must): (Vec<u32>, Vec<u32>) = c
                .cells
                .iter()
                .partition(|&&i| t.cells()[i as usize].optional);
            let local =
                |ids: Vec<u32>| -> Vec<Cell> { ids.iter().map(|&i| t.local(i).1).collect() };
            let mut o = json!({ "cells": local(must) });
            if !optional.is_empty() {
                o["optional"] = json!(local(optional));
            }
            return o;
        }
        let mut layers = Vec::new();
        for z in 0..c.size[2] {
            let mut rows = Vec::new();
            for y in 0..c.size[1] {
                let row: String = (0..c.size[0])
                    .map(|x| match t.cell_at(add(c.origin, [x, y, z])) {
                        Some(i) if t.cells()[i as usize].optional => '+',
                        Some(_) => '#',
                        None => '.',
                    })
                    .collect();
                rows.push(Value::String(row));
            }
            layers.push(Value::Array(rows));
        }
        json!({ "layers": layers })
    };
    let target = if t.containers().len() == 1 {
        container_value(0)
    } else if puzzle.grid == Grid::Cube && (0..t.containers().len()).all(|i| t.is_full_box(i)) {
        json!({ "boxes": t.containers().iter().map(|c| c.size).collect::<Vec<_>>() })
    } else {
        json!({ "containers": (0..t.containers().len()).map(container_value).collect::<Vec<_>>() })
    };
    let pieces: Vec<Value> = puzzle
        .pieces
        .iter()
        .map(|p| {
            let cells: Vec<Cell> = p
                .shape
                .cells()
                .iter()
                .map(|&c| puzzle.grid.to_user(c))
                .collect();
            let mut o = json!({ "name": p.name, "letter": p.letter.to_string(), "cells": cells });
            if p.is_ranged() {
                o["count"] = json!([p.min_count, p.count]);
            } else if p.count != 1 {
                o["count"] = json!(p.count);
            }
            if p.is_coloured() {
                o["colours"] = json!(p.colours);
            }
            if p.weight != 1 {
                o["weight"] = json!(p.weight);
            }
            match p.groups.as_slice() {
                [] => {}
                [(g, c)] if *c as u32 == p.count => o["group"] = json!(g),
                gs => o["group"] = json!(gs.iter().map(|&(g, c)| [g, c]).collect::<Vec<_>>()),
            }
            o
        })
        .collect();
    let mut out = json!({ "name": puzzle.name });
    if puzzle.grid != Grid::Cube {
        out["grid"] = json!(puzzle.grid.name());
    }
    if !puzzle.description.is_empty() {
        out["description"] = json!(puzzle.description);
    }
    out["target"] = target;
    out["pieces"] = Value::Array(pieces);
    if puzzle.mirror {
        out["mirror"] = json!(true);
    }
    if puzzle.allow_disconnected {
        out["allow_disconnected"] = json!(true);
    }
    if !puzzle.hints.is_empty() {
        let hints: Vec<Value> = puzzle
            .hints
            .iter()
            .map(|h| {
                let first = t.cell_at(h.cells[0]).map(|c| t.local(c).0).unwrap_or(0);
                let local: Vec<Cell> = h
                    .cells
                    .iter()
                    .filter_map(|&c| t.cell_at(c).map(|i| t.user_local(i).1))
                    .collect();
                let mut o = json!({ "piece": puzzle.pieces[h.piece].name, "cells": local });
                if t.containers().len() > 1 {
                    o["container"] = json!(first);
                }
                o
            })
            .collect();
        out["hints"] = Value::Array(hints);
    }
    if puzzle.colour_pairs.is_some() || t.is_coloured() {
        let mut o = json!({});
        if let Some(pairs) = &puzzle.colour_pairs {
            o["pairs"] = json!(pairs.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>());
        }
        if t.is_coloured() {
            let cells: Vec<[i32; 4]> = (0..t.cells().len() as u32)
                .filter(|&c| t.colour(c) != 0)
                .map(|c| {
                    let (_, l) = t.user_local(c);
                    [l[0], l[1], l[2], t.colour(c) as i32]
                })
                .collect();
            o["target"] = json!(cells);
        }
        out["colours"] = o;
    }
    if let Some(h) = puzzle.max_holes {
        out["max_holes"] = json!(h);
    }
    if let Some(u) = puzzle.default_up_to {
        out["counting"] = json!(u.to_string());
    }
    let k = &puzzle.known_counts;
    if !k.is_empty() {
        let mut o = json!({ "all": k.all, "rotation": k.rotation, "rotation+reflection": k.rotation_reflection });
        if let Some(s) = &k.source {
            o["source"] = json!(s);
        }
        out["known_counts"] = o;
    }
    if let Some(c) = &puzzle.catalog {
        out["catalog"] = catalog_value(c);
    }
    out
}

/// A container of a grid other than cubes, in the grid's user frame (the layer frame for
/// balls, see [`Target::user_local`]): `box` when its cells fill a box from the origin, layer
/// art when that is small enough, else cell lists.
fn user_container_value(t: &Target, ci: usize) -> Value {
    let c = &t.containers()[ci];
    let user: Vec<(Cell, bool)> = c
        .cells
        .iter()
        .map(|&i| (t.user_local(i).1, t.cells()[i as usize].optional))
        .collect();
    let mut size = [0i32; 3];
    for (u, _) in &user {
        for a in 0..3 {
            size[a] = size[a].max(u[a] + 1);
        }
    }
    let volume: i64 = size.iter().map(|&v| i64::from(v)).product();
    if volume == user.len() as i64 && user.iter().all(|(_, o)| !o) {
        return json!({ "box": size });
    }
    if !crate::puzzle::fits_art(size) {
        let pick = |opt: bool| -> Vec<Cell> {
            user.iter()
                .filter(|(_, o)| *o == opt)
                .map(|(u, _)| *u)
                .collect()
        };
        let mut o = json!({ "cells": pick(false) });
        if user.iter().any(|(_, o)| *o) {
            o["optional"] = json!(pick(true));
        }
        return o;
    }
    let at: HashMap<Cell, bool> = user.into_iter().collect();
    let layers: Vec<Value> = (0..size[2])
        .map(|z| {
            let rows = (0..size[1])
                .map(|y| {
                    let row: String = (0..size[0])
                        .map(|x| match at.get(&[x, y, z]) {
                            Some(true) => '+',
                            Some(false) => '#',
                            None => '.',
                        })
                        .collect();
                    Value::String(row)
                })
                .collect();
            Value::Array(rows)
        })
        .collect();
    json!({ "layers": layers })
}

/// The `catalog` record as written in files.
fn catalog_value(c: &Catalog) -> Value {
    let published: Value = if c.published.is_empty() {
        Value::Null
    } else {
        c.published
            .iter()
            .map(|p| {
                let mut o = json!({
                    "count": p.count,
                    "up_to": p.up_to.to_string(),
                    "convention": p.convention,
                    "source": p.source,
                });
                if let Some(f) = &p.finding {
                    let mut fo = json!({ "verdict": f.verdict.as_str(), "text": f.text });
                    if let Some(m) = f.matches {
                        fo["matches"] = json!(m.to_string());
                    }
                    o["finding"] = fo;
                }
                o
            })
            .collect()
    };
    let mut counts = Map::new();
    for mode in CatalogCounts::MODES {
        match c.counts.get(mode) {
            ModeCount::NotCounted => {}
            ModeCount::Undefined => {
                counts.insert(mode.to_string(), Value::Null);
            }
            ModeCount::Count(n) => {
                counts.insert(mode.to_string(), json!(n));
            }
        }
    }
    let mut o = json!({ "family": c.family, "published": published });
    if !counts.is_empty() {
        o["cubesat"] = Value::Object(counts);
    }
    if c.slow {
        o["slow"] = json!(true);
    }
    if let Some(i) = &c.incomplete {
        let mut io = json!({ "source": i.source, "convention": i.convention });
        if let Some(k) = &i.counted {
            io["counted"] = json!({ "date": k.date, "cpu_seconds": k.cpu_seconds, "how": k.how });
        }
        if let Some(e) = &i.estimate {
            io["estimate"] = json!({
                "up_to": e.up_to.to_string(),
                "nodes": e.nodes,
                "low": e.low,
                "high": e.high,
                "cpu_seconds": e.cpu_seconds,
                "seconds": e.seconds,
                "seed": e.seed,
                "date": e.date,
            });
        }
        o["incomplete"] = io;
    }
    o
}

/// A puzzle file as a person would write it ([`to_file_value`]), short arrays and objects
/// kept on one line, so a generated file reads like the bundled ones.
pub fn to_file_string(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    write_compact(&to_file_value(puzzle), 0, &mut out);
    out.push('\n');
    out
}

/// [`to_value`] with every piece in layer art, as people write pieces (a piece whose box is
/// too large for art, a disconnected one spread out, keeps its cell list).
pub fn to_file_value(puzzle: &Puzzle) -> Value {
    let mut v = to_value(puzzle);
    if let Some(pieces) = v["pieces"].as_array_mut() {
        for (piece, p) in pieces.iter_mut().zip(&puzzle.pieces) {
            // In the grid's user frame, moved to start at 0 (any integer step is a step of
            // the lattice in the layer frame).
            let user: Vec<Cell> = p
                .shape
                .cells()
                .iter()
                .map(|&c| puzzle.grid.to_user(c))
                .collect();
            let min = crate::geometry::min_corner(&user).unwrap_or([0; 3]);
            let user = Shape::new(user.iter().map(|&c| crate::geometry::sub(c, min)));
            if !crate::puzzle::fits_art(user.size()) {
                continue;
            }
            if let Some(o) = piece.as_object_mut() {
                o.remove("cells");
                o.insert("layers".into(), shape_layers(&user));
            }
        }
    }
    v
}

/// A shape as layer art: one list of row strings per z, `#` a cube, `.` empty.
fn shape_layers(shape: &Shape) -> Value {
    let [sx, sy, sz] = shape.size();
    let layers: Vec<Value> = (0..sz)
        .map(|z| {
            let rows: Vec<Value> = (0..sy)
                .map(|y| {
                    let row: String = (0..sx)
                        .map(|x| {
                            if shape.cells().contains(&[x, y, z]) {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect();
                    Value::String(row)
                })
                .collect();
            Value::Array(rows)
        })
        .collect();
    Value::Array(layers)
}

/// A value on one line, with a space after each comma and colon.
fn inline(v: &Value) -> String {
    match v {
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{}: {}", Value::String(k.clone()), inline(x)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        _ => v.to_string(),
    }
}

/// Pretty JSON that keeps an array on one line when it fits in 96 columns, and an object
/// when it also holds no text (a cell, a box size).
fn write_compact(v: &Value, indent: usize, out: &mut String) {
    let flat = inline(v);
    let fits = indent + flat.len() <= 96;
    let pad = |out: &mut String, n: usize| out.push_str(&" ".repeat(n));
    match v {
        Value::Array(a) if !fits && !a.is_empty() => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                pad(out, indent + 2);
                write_compact(x, indent + 2, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push(']');
        }
        Value::Object(m) if !m.is_empty() && (!fits || indent == 0) => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                pad(out, indent + 2);
                out.push_str(&format!("{}: ", Value::String(k.clone())));
                write_compact(x, indent + 2, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push('}');
        }
        _ => out.push_str(&flat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_puzzle(text, "t").unwrap_err().report()
    }

    const DOMINOES: &str = r###"{
        "target": {"box": [2, 2, 1]},
        "pieces": [{"name": "D", "count": 2, "layers": [["##"]]}]
    }"###;

    #[test]
    fn reads_a_small_puzzle_and_writes_it_back() {
        let p = parse_puzzle(DOMINOES, "dominoes").unwrap();
        assert_eq!(p.name, "dominoes");
        assert_eq!(p.pieces[0].count, 2);
        assert_eq!(p.pieces[0].letter, 'D');
        assert_eq!(p.target.cells().len(), 4);
        let again = from_value(&to_value(&p), "x").unwrap();
        assert_eq!(again, p);
    }

    /// The dominoes puzzle with a catalog record.
    fn with_catalog(record: &str) -> String {
        DOMINOES.replacen(
            "\"pieces\"",
            &format!("\"catalog\": {record},\n        \"pieces\""),
            1,
        )
    }

    #[test]
    fn incomplete_counts_carry_their_source_and_an_estimate_or_how_they_were_counted() {
        let estimate = r#"{"up_to": "rotation", "nodes": 2.5e15, "low": 1e15, "high": null,
            "cpu_seconds": 1.9e8, "seconds": 10.0, "seed": 1, "date": "2026-11-26"}"#;
        let ok = with_catalog(&format!(
            r#"{{"family": "bricks", "published": null, "incomplete": {{"source": "a page",
                "convention": "every placement", "estimate": {estimate}}}}}"#
        ));
        let p = parse_puzzle(&ok, "t").unwrap();
        let i = p.catalog.clone().unwrap().incomplete.unwrap();
        let e = i.estimate.unwrap();
        assert_eq!(
            (e.up_to, e.nodes, e.high, e.seed),
            (UpTo::Rotation, 2.5e15, None, 1)
        );
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        let counted = with_catalog(
            r#"{"family": "bricks", "published": null, "cubesat": {"none": 2, "rotation": 1, "rotation+reflection": 1},
                "incomplete": {"source": "s", "convention": "c",
                "counted": {"date": "2026-11-26", "cpu_seconds": 0.5, "how": "three modes"}}}"#,
        );
        let p = parse_puzzle(&counted, "t").unwrap();
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        for (bad, wanted) in [
            (
                estimate.replace("2026-11-26", "26/11/2026"),
                "catalog.incomplete.estimate.date: expected a date YYYY-MM-DD",
            ),
            (
                estimate.replace("\"low\": 1e15", "\"low\": 1e16"),
                "catalog.incomplete.estimate: the interval does not hold the estimate",
            ),
            (
                estimate.replace("\"nodes\": 2.5e15", "\"nodes\": -1"),
                "catalog.incomplete.estimate.nodes: expected a non-negative number",
            ),
            (
                estimate.replace("\"seed\": 1,", ""),
                "catalog.incomplete.estimate: the estimate has no 'seed'",
            ),
        ] {
            let e = err(&with_catalog(&format!(
                r#"{{"family": "bricks", "published": null, "incomplete": {{"source": "s",
                    "convention": "c", "estimate": {bad}}}}}"#
            )));
            assert!(e.starts_with(wanted), "{e}");
        }
    }

    #[test]
    fn catalog_records_are_read_and_disagreements_need_a_finding() {
        let ok = with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2, "rotation": 1, "rotation+reflection": 1},
                "published": [{"count": 2, "up_to": "none", "convention": "tilings", "source": "a book"},
                              {"count": 3, "up_to": "rotation", "convention": "c", "source": "s",
                               "finding": {"verdict": "source", "text": "a typo"}}]}"#,
        );
        let p = parse_puzzle(&ok, "t").unwrap();
        let c = p.catalog.clone().unwrap();
        assert_eq!(c.counts.none, ModeCount::Count(2));
        assert_eq!(c.agrees(), Some(false));
        assert!(c.published[0].agrees(&c.counts));
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        let none = with_catalog(
            r#"{"family": "bricks", "published": null, "cubesat": {"rotation+reflection": null}}"#,
        );
        let c = parse_puzzle(&none, "t").unwrap().catalog.unwrap();
        assert_eq!(c.agrees(), None);
        assert_eq!(c.counts.rotation_reflection, ModeCount::Undefined);
        assert_eq!(c.counts.none, ModeCount::NotCounted);
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2}, "published": [{"count": 3, "up_to": "none", "convention": "c", "source": "s"}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0]: the published count 3 (none) differs from cubesat's 2: add a 'finding'"),
            "{e}"
        );
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2}, "published": [{"count": 2, "up_to": "none", "convention": "c", "source": "s", "finding": {"verdict": "source", "text": "t"}}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0].finding: the published count 2 (none) agrees"),
            "{e}"
        );
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2, "rotation": 1}, "published": [{"count": 2, "up_to": "rotation", "convention": "c", "source": "s", "finding": {"verdict": "convention", "matches": "rotation", "text": "t"}}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0].finding.matches: cubesat counts 1 up to rotation"),
            "{e}"
        );
        for (record, start) in [
            (
                r#"{"family": "Soma", "published": null}"#,
                "catalog.family: a family name is",
            ),
            (
                r#"{"family": "soma"}"#,
                "catalog: the catalog record has no 'published'",
            ),
            (
                r#"{"family": "soma", "published": []}"#,
                "catalog.published: no published count: write null",
            ),
            (
                r#"{"family": "soma", "published": null, "cubesat": {"burrtools": 1}}"#,
                "catalog.cubesat.burrtools: unknown key",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "burrtools", "convention": "c", "source": "s"}]}"#,
                "catalog.published[0].up_to: unknown counting mode 'burrtools'",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "none", "convention": " ", "source": "s"}]}"#,
                "catalog.published[0].convention: the convention is empty",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "none", "convention": "c", "source": "s", "finding": {"verdict": "typo", "text": "t"}}]}"#,
                "catalog.published[0].finding.verdict: unknown verdict 'typo'",
            ),
        ] {
            let e = err(&with_catalog(record));
            assert!(e.starts_with(start), "{record}: {e}");
        }
    }

    #[test]
    fn files_are_written_in_layer_art_and_read_back() {
        let p = crate::puzzle::bundled("tetris-cube").unwrap();
        let text = to_file_string(&p);
        assert!(text.contains("\"layers\": [["), "{text}");
        assert!(!text.contains("\"cells\""), "{text}");
        // The catalog record round-trips too.
        let back = parse_puzzle(&text, "x").unwrap();
        assert_eq!(to_value(&back), to_value(&p));
        assert_eq!(back.catalog, p.catalog);
        let bare = Puzzle {
            catalog: None,
            ..p.clone()
        };
        let text = to_file_string(&bare);
        assert!(text.lines().count() < 40, "{text}");
    }

    #[test]
    fn layer_art_targets_with_optional_cells_and_several_containers() {
        let text = r##"{
            "target": {"containers": [{"layers": [["#+", ".#"]]}, {"box": [1, 1, 2]}]},
            "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}, {"name": "b", "cells": [[0,0,0],[0,0,1]]}]
        }"##;
        let p = parse_puzzle(text, "t").unwrap();
        assert_eq!(p.target.containers().len(), 2);
        assert_eq!(p.target.optional_count(), 1);
        assert_eq!(p.target.must_count(), 4);
        // The second container starts one empty column after the first.
        assert_eq!(p.target.containers()[1].origin, [3, 0, 0]);
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
    }

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

    #[test]
    fn letters_are_unique() {
        let text = r##"{"target": {"box": [3,1,1]}, "pieces": [
            {"name": "Ab", "cells": [[0,0,0]]}, {"name": "Ac", "cells": [[0,0,0]]}, {"name": "x", "letter": "Q", "cells": [[0,0,0]]}]}"##;
        let p = parse_puzzle(text, "t").unwrap();
        let letters: Vec<char> = p.pieces.iter().map(|p| p.letter).collect();
        assert_eq!(letters, vec!['A', 'B', 'Q']);
    }
}
