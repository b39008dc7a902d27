//! The studio's one door into the cubesat library: every call the server makes into
//! `cubesat` and `cubesat-xc` (reading puzzles, checking them for the editor, drawing them,
//! the downloads, and the runs) is here, so that the rest of the crate handles HTTP and jobs
//! only.
//!
//! The run rules (the counting mode's default, the threads a run gets, its limit, which modes
//! an export accepts) are the library's run plan ([`cubesat::plan`]), which the CLI calls
//! too: this module only turns a request's settings into the plan's.
//!
//! Errors leave this module as a [`Failure`]: the library's one-line message, and for a
//! puzzle the place it names (a JSON path, `line 4, column 12`), which the page shows at the
//! piece or layer.
//!
//! Here: reading puzzles (the editor's text, the bundled ones, dropped files); `views`: the
//! editor's check, the drawings and the catalog; `files`: the downloads; `request`: what a
//! job is asked and leaves; `runs`: solve, count, generate; `disassemble` and `estimate`:
//! those jobs.

mod challenges;
mod disassemble;
mod estimate;
mod files;
mod request;
mod runs;
mod views;

pub use disassemble::view as disassembly_view;
pub use files::{
    Contents, Download, Writer, attached_download, download, solution_download, solutions_jsonl,
};
pub use request::{Action, Attached, Finished, Keep, RunRequest, Taken};
pub use runs::{precheck, run, run_request};
pub use views::{View, catalog, check, grids, sheet_svg, solution_view};

use std::path::Path;

use cubesat::puzzle::{self, BUNDLED, burrtools, json as puzzle_json};
use cubesat::{Error, Puzzle, UpTo};
use serde_json::{Value, json};

/// The largest request body: a puzzle file as large as the library reads (JSON or
/// BurrTools), with room for the request's other fields.
pub const MAX_BODY_BYTES: usize = {
    let (a, b) = (puzzle_json::MAX_FILE_BYTES, burrtools::MAX_FILE_BYTES);
    (if a > b { a } else { b }) as usize + (64 << 10)
};

/// The most solutions a listing keeps for the browser: a listing stops there and says it
/// stopped at its limit (a count has no such bound).
pub const MAX_LISTED: u64 = 100_000;

/// A refused or failed request: one line, and the place in the puzzle when it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The whole message on one line, as the CLI prints it after `cubesat: error:`.
    pub message: String,
    /// The JSON path or line it names (`pieces[3].layers[0][1]`), empty when none.
    pub place: String,
}

impl Failure {
    /// A failure with no place.
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: one_line(&message.into()),
            place: String::new(),
        }
    }

    /// As JSON for the page: `{"message": ..., "place": ...}`.
    pub fn to_json(&self) -> Value {
        json!({ "message": self.message, "place": self.place })
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let place = match e.root() {
            Error::Input { place, .. } => place.clone(),
            _ => String::new(),
        };
        Failure {
            message: one_line(&e.report()),
            place,
        }
    }
}

/// `s` with control characters escaped, so that it shows as one line.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The name of a puzzle whose text gives none.
const SHOWN: &str = "puzzle";

/// Parses the editor's puzzle text as a puzzle file.
pub fn parse(text: &str) -> Result<Puzzle, Failure> {
    Ok(puzzle_json::parse_puzzle(text, SHOWN)?)
}

/// The bundled puzzles, one object each: key, name, description, sizes and known counts.
pub fn library() -> Value {
    let items: Vec<Value> = BUNDLED
        .iter()
        .filter_map(|(key, _)| {
            let p = puzzle::bundled(key).ok()?;
            let k = &p.known_counts;
            Some(json!({
                "key": key,
                "name": p.name,
                "description": p.description,
                "pieces": p.pieces.len(),
                "copies": p.pieces.iter().map(|x| x.count as u64).sum::<u64>(),
                "containers": sizes(&p),
                "known": {"all": k.all, "rotation": k.rotation, "rotation+reflection": k.rotation_reflection},
            }))
        })
        .collect();
    Value::Array(items)
}

/// The containers' sizes as the puzzle's file types them, `4x4x4` (a ball board typed as 11x5
/// is `11x5x1`, not the box its balls span in the grid's own coordinates).
fn sizes(p: &Puzzle) -> Vec<String> {
    p.target
        .containers()
        .iter()
        .map(|c| {
            let [x, y, z] = cubesat::report::typed_size(&p.target, c);
            format!("{x}x{y}x{z}")
        })
        .collect()
}

/// The file text of a bundled or catalog puzzle, as shipped.
pub fn bundled_text(key: &str) -> Result<String, Failure> {
    puzzle::named()
        .find(|(k, _)| *k == key)
        .map(|(_, text)| text.to_string())
        .ok_or_else(|| Failure::new(format!("no bundled puzzle '{key}'")))
}

/// A puzzle file dropped on the page, as the editor's text.
pub struct Imported {
    /// The puzzle as cubesat JSON text (a JSON file's own text).
    pub text: String,
    /// For a BurrTools file: its problems' names, and the one read.
    pub problems: Vec<String>,
    /// The problem read (0 for a JSON file).
    pub problem: usize,
    /// What the reader noticed and ignored.
    pub notes: Vec<String>,
    /// For a BurrTools file: each problem as `cubesat info` lists it, with what BurrTools'
    /// settings mean for its count.
    pub problem_list: Vec<Value>,
    /// For a BurrTools file: `BurrTools file (version 2), 3 problems`, as `cubesat info` says.
    pub burrtools: Option<String>,
}

/// The problems whose count's meaning an import works out (each needs the problem's
/// placements); past them it is left out.
pub const MAX_DESCRIBED_PROBLEMS: usize = 32;

/// A BurrTools file's problems for the page to pick from: index, name, pieces, grid, the line
/// `cubesat info` gives it, and what BurrTools' settings mean for its count (the words of
/// `cubesat info`'s `symmetry burrtools:` line).
fn problem_list(file: &burrtools::BurrFile) -> Vec<Value> {
    let lines = file.describe_problems();
    let mut lines = lines.lines();
    (0..file.problems.len())
        .map(|i| {
            let line = lines.next().unwrap_or_default().trim().to_string();
            let (counting, pieces, copies, error) = match file.puzzle(i) {
                Ok(p) => {
                    let counting = (i < MAX_DESCRIBED_PROBLEMS)
                        .then(|| burrtools_counting(p.clone()))
                        .flatten();
                    let copies: u64 = p.pieces.iter().map(|x| x.count as u64).sum();
                    (counting, p.pieces.len(), copies, None)
                }
                Err(e) => (None, 0, 0, Some(Failure::from(e).message)),
            };
            json!({
                "index": i,
                "name": file.problems[i].name,
                "pieces": pieces,
                "copies": copies,
                "grid": file.grid.name(),
                "line": line,
                "counting": counting,
                "error": error,
            })
        })
        .collect()
}

/// What counting a BurrTools problem in BurrTools' convention means, as `cubesat info` says
/// it; `None` when the problem cannot be counted so.
fn burrtools_counting(p: Puzzle) -> Option<String> {
    let mode = p.default_up_to?;
    let inst = cubesat::run::Instance::new(p).ok()?;
    let words = match inst.reducer(mode, false) {
        Ok(r) => r.describe(&inst.puzzle),
        Err(e) => format!("not defined ({})", Failure::from(e).message),
    };
    Some(format!("{}: {words}", mode.phrase()))
}

/// Reads a dropped file: BurrTools (by name or content) or cubesat JSON. A JSON file is kept
/// as written, even when it does not parse, so that the editor shows the error in place.
pub fn import(bytes: &[u8], file_name: &str, problem: Option<&str>) -> Result<Imported, Failure> {
    let head = &bytes[..bytes.len().min(64)];
    if burrtools::looks_like_burrtools(Path::new(file_name), head) {
        let file = burrtools::parse(bytes, file_name)?;
        let index = file.select(problem)?;
        let puzzle = file.puzzle(index)?;
        return Ok(Imported {
            text: editable_text(&puzzle),
            problems: file.problems.iter().map(|p| p.name.clone()).collect(),
            problem: index,
            notes: puzzle.notes.clone(),
            problem_list: problem_list(&file),
            burrtools: Some(format!(
                "BurrTools file (version {}), {}",
                file.version,
                cubesat::report::plural(file.problems.len() as u64, "problem")
            )),
        });
    }
    if problem.is_some() {
        return Err(Failure::new(format!(
            "{file_name}: a problem selects one of a BurrTools file's problems"
        )));
    }
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|e| Failure::new(format!("{file_name}: not UTF-8 text: {e}")))?;
    Ok(Imported {
        text,
        problems: Vec::new(),
        problem: 0,
        notes: Vec::new(),
        problem_list: Vec::new(),
        burrtools: None,
    })
}

/// A puzzle as a file people edit: pieces in layer art (coloured pieces as cell lists, which
/// carry their colours).
fn editable_text(p: &Puzzle) -> String {
    if p.pieces.iter().any(|x| x.is_coloured()) {
        let mut s = serde_json::to_string_pretty(&puzzle_json::to_value(p)).unwrap_or_default();
        s.push('\n');
        s
    } else {
        puzzle_json::to_file_string(p)
    }
}

/// A string setting of a request, or `default`.
fn setting<'a>(v: &'a Value, key: &str, default: &'a str) -> Result<&'a str, Failure> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(Failure::new(format!("setting '{key}' must be a string"))),
    }
}

/// A number setting of a request, or `None`, within `0..=max`.
fn number(v: &Value, key: &str, max: u64) -> Result<Option<u64>, Failure> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(n) => match n.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(Failure::new(format!(
                "setting '{key}' must be a whole number from 0 to {max}"
            ))),
        },
    }
}

/// A millimetre setting of a request, or `default`.
fn millimetres(v: &Value, key: &str, default: f64) -> Result<f64, Failure> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(n) => n
            .as_f64()
            .ok_or_else(|| Failure::new(format!("setting '{key}' must be a number (mm)"))),
    }
}

fn parse_up_to(s: &str) -> Result<UpTo, Failure> {
    Ok(s.parse::<UpTo>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_their_place() {
        let f = parse(
            r##"{"target": {"box": [2,2,1]}, "pieces": [{"name": "a", "layers": [["#x"]]}]}"##,
        )
        .unwrap_err();
        assert_eq!(f.place, "pieces[0].layers[0][0]", "{f:?}");
        assert!(f.message.contains("unexpected character 'x'"), "{f:?}");
        let f = parse("{\n\"target\": }").unwrap_err();
        assert!(f.message.contains("line 2"), "{f:?}");
    }

    #[test]
    fn soma_checks_and_exports() {
        let text = bundled_text("soma").unwrap();
        let v = check(&text, View::Sheet);
        assert_eq!(v["ok"], true, "{v}");
        assert_eq!(v["info"]["placements"], 688, "{}", v["info"]);
        assert!(v["view"].as_str().unwrap().contains("<canvas"));
        let d = download(&text, &json!({"format": "dlx", "up_to": "rotation"})).unwrap();
        let Contents::Stream(write) = d.contents else {
            panic!("an export streams")
        };
        let mut out = Vec::new();
        write(&mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("dlx1"));
        let refused = download(&text, &json!({"format": "dimacs", "up_to": "burrtools"}));
        assert!(refused.is_err());
    }
}
