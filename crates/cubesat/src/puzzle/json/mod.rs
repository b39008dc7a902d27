//! The puzzle file format (JSON, documented in puzzles/README.md): the public surface, and the value readers every part of a file shares.
//!
//! Reading goes through `serde_json::Value` and walks it by hand, so every error can name the
//! place (`pieces[3].layers[0][2]`) and unknown keys are rejected. Errors read
//! `FILE: PATH: what is wrong`; JSON syntax errors carry serde_json's line and column.
//! `read` builds a puzzle from a file, `target` and `piece` read its containers and pieces,
//! `catalog` its counts and catalog record (both ways), and `write` writes a puzzle back in
//! the form [`parse_puzzle`] reads.

use std::collections::HashSet;
use std::fmt;

use crate::error::Result;
use serde_json::{Map, Value};

use crate::geometry::Cell;
use crate::puzzle::{MAX_COORD, MAX_TARGET_CELLS};

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

/// Returns an input error at a JSON path. Defined before the submodules are declared, so
/// that every part of the reader can use it.
macro_rules! fail {
    ($path:expr, $($arg:tt)*) => {
        return Err($crate::error::Error::input($path.to_string(), format!($($arg)*)))
    };
}

mod catalog;
mod piece;
mod read;
mod target;
mod write;

pub use read::{from_value, parse_puzzle, read_puzzle_file};
pub use write::{to_file_string, to_file_value, to_value};

/// The largest colour number (as in BurrTools).
pub const MAX_COLOUR: i64 = 63;

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

#[cfg(test)]
mod tests {
    //! What the reader's and the writer's tests share, and a round trip through both.

    use super::*;

    /// The report of the error reading `text`.
    pub(in crate::puzzle::json) fn err(text: &str) -> String {
        parse_puzzle(text, "t").unwrap_err().report()
    }

    /// Two dominoes in a 2x2x1 box.
    pub(in crate::puzzle::json) const DOMINOES: &str = r###"{
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
}
