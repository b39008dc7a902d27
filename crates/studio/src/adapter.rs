//! The studio's one door into the cubesat library: every call the server makes into
//! `cubesat` and `cubesat-xc` (reading puzzles, checking them for the editor, drawing them,
//! the downloads, and the runs) is here, so that the rest of the crate handles HTTP and jobs
//! only.
//!
//! The run rules (the counting mode's default, the threads a run gets, its limit, which modes
//! an export accepts) belong to the library's run plan, which the CLI and the studio both
//! call. Until it lands, the places that decide one are marked `TODO(plan)` and ask for what
//! `cubesat solve` and `cubesat export` ask for; they are the only lines to replace.
//!
//! Errors leave this module as a [`Failure`]: the library's one-line message, and for a
//! puzzle the place it names (a JSON path, `line 4, column 12`), which the page shows at the
//! piece or layer.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use cubesat::counting::Reducer;
use cubesat::interop::dimacs::{self, Projection};
use cubesat::interop::{asp, dlx, xmpuzzle};
use cubesat::puzzle::{self, BUNDLED, burrtools, json as puzzle_json};
use cubesat::render::{self, Scene, stl};
use cubesat::report::{self, piece_scene, scene, sheet_scene};
use cubesat::run::{self, EngineChoice, Instance, RunOptions, RunReport};
use cubesat::solution::Solution;
use cubesat::{Error, Puzzle, UpTo};
use cubesat_xc::Progress;
use cubesat_xc::encoding::{AtMostOne, CnfConfig};
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

/// The containers' sizes, `4x4x4`.
fn sizes(p: &Puzzle) -> Vec<String> {
    p.target
        .containers()
        .iter()
        .map(|c| format!("{}x{}x{}", c.size[0], c.size[1], c.size[2]))
        .collect()
}

/// The file text of a bundled puzzle, as shipped.
pub fn bundled_text(key: &str) -> Result<String, Failure> {
    BUNDLED
        .iter()
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

/// What the editor shows beside its grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The target with its hints, and the pieces beside it (`cubesat show`).
    Sheet,
    /// One piece on its own.
    Piece(usize),
}

/// The editor's check of a puzzle text: `{"ok": true, "info": ..., "view": HTML}` or
/// `{"ok": false, "error": {"message", "place"}}`.
pub fn check(text: &str, view: View) -> Value {
    let puzzle = match parse(text) {
        Ok(p) => p,
        Err(f) => return json!({ "ok": false, "error": f.to_json() }),
    };
    let warnings = same_shape_warnings(&puzzle);
    let notes = puzzle.notes.clone();
    let inst = match Instance::new(puzzle) {
        Ok(i) => i,
        Err(e) => return json!({ "ok": false, "error": Failure::from(e).to_json() }),
    };
    let view_html = match view {
        View::Piece(i) if i < inst.puzzle.pieces.len() => {
            render::html(&[piece_scene(&inst.puzzle, i, &piece_title(&inst.puzzle, i))])
        }
        _ => render::html(&[sheet(&inst)]),
    };
    json!({
        "ok": true,
        "info": info(&inst),
        "notes": notes,
        "warnings": warnings,
        "obstacles": inst.table.obstacles(&inst.puzzle),
        "view": view_html,
    })
}

/// `piece 'L' (L): 4 cells, 2 copies`.
fn piece_title(p: &Puzzle, i: usize) -> String {
    let piece = &p.pieces[i];
    let copies = match (piece.min_count, piece.count) {
        (_, 1) if !piece.is_ranged() => String::new(),
        (a, b) if a == b => format!(", {b} copies"),
        (a, b) => format!(", {a} to {b} copies"),
    };
    format!(
        "piece '{}' ({}): {} cells{copies}",
        piece.name,
        piece.letter,
        piece.shape.len()
    )
}

/// The target with its hints and the pieces beside it.
fn sheet(inst: &Instance) -> Scene {
    let p = &inst.puzzle;
    let mut s = sheet_scene(p, &inst.table, inst.table.hints(), &p.name);
    s.title = format!("{}: target and pieces", p.name);
    s
}

/// One warning per group of same-shaped pieces under different names.
fn same_shape_warnings(p: &Puzzle) -> Vec<String> {
    p.same_shapes()
        .iter()
        .map(|g| {
            let names: Vec<String> = g
                .iter()
                .map(|&i| format!("'{}'", p.pieces[i].name))
                .collect();
            format!(
                "pieces {} have the same shape, so solutions that only swap them count as different; list the shape once with a count of {} to count them as identical copies",
                names.join(" and "),
                g.iter().map(|&i| p.pieces[i].count).sum::<u32>()
            )
        })
        .collect()
}

/// The figures `cubesat info` shows, as JSON.
fn info(inst: &Instance) -> Value {
    let p = &inst.puzzle;
    let t = &p.target;
    let partners = p.mirror_partners();
    let pieces: Vec<Value> = p
        .pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let mirror = if piece.is_achiral_coloured() {
                "itself".to_string()
            } else if let Some(pp) = &partners {
                format!("'{}'", p.pieces[pp[i]].name)
            } else {
                match p.mirror_images_of(i)[..] {
                    [] => "not in the set".to_string(),
                    ref js => js
                        .iter()
                        .map(|&j| format!("'{}'", p.pieces[j].name))
                        .collect::<Vec<_>>()
                        .join(" or "),
                }
            };
            json!({
                "name": piece.name,
                "letter": piece.letter.to_string(),
                "cells": piece.shape.len(),
                "count": piece.count,
                "min": piece.min_count,
                "orientations": inst.table.orientations()[i].len(),
                "placements": inst.table.by_piece()[i].len(),
                "mirror": mirror,
            })
        })
        .collect();
    let mut modes = vec![UpTo::Rotation, UpTo::RotationReflection];
    if p.default_up_to == Some(UpTo::BurrTools) {
        modes.push(UpTo::BurrTools);
    }
    let symmetry: Vec<Value> = modes
        .into_iter()
        .map(|mode| match Reducer::new(p, &inst.table, mode, false) {
            Ok(r) => json!({"mode": mode.to_string(), "describe": r.describe(p)}),
            Err(e) => json!({"mode": mode.to_string(), "error": Failure::from(e).message}),
        })
        .collect();
    let k = &p.known_counts;
    json!({
        "name": p.name,
        "description": p.description,
        "cells": t.cells().len(),
        "must": t.must_count(),
        "optional": t.optional_count(),
        "containers": sizes(p),
        "volume": [p.min_piece_volume(), p.piece_volume()],
        "pieces": pieces,
        "placements": inst.table.len(),
        "hints": p.hints.len(),
        "mirror": p.mirror,
        "counting": p.default_up_to.map(|u| u.to_string()),
        "symmetry": symmetry,
        "known": {"all": k.all, "rotation": k.rotation, "rotation+reflection": k.rotation_reflection, "source": k.source},
    })
}

/// The sheet (target with hints, pieces beside it) of a puzzle text as SVG, for the library.
pub fn sheet_svg(text: &str) -> Result<String, Failure> {
    let inst = Instance::new(parse(text)?)?;
    Ok(render::svg(&sheet(&inst), false))
}

/// A writer of a download's contents, run while the response streams out (exports run to
/// hundreds of megabytes: they are never held in memory whole).
pub type Writer = Box<dyn FnOnce(&mut dyn Write) -> Result<(), Failure> + Send>;

/// A download's contents.
pub enum Contents {
    /// Made already (small files).
    Bytes(Vec<u8>),
    /// Written as the response is sent.
    Stream(Writer),
}

/// A file for the user to save: its contents, name and media type.
pub struct Download {
    /// The file's contents.
    pub contents: Contents,
    /// A file name for it.
    pub file_name: String,
    /// Its media type.
    pub mime: &'static str,
}

/// A file-name-safe version of a name.
fn file_part(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() { "puzzle".into() } else { s }
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

/// The puzzle's downloads: `json`, `xmpuzzle`, `dimacs`, `dlx`, `asp`, `sheet-svg`,
/// `sheet-html`, `stl-piece` (setting `piece`, `cube`, `gap`), `stl-solution` (the first
/// solution assembled). Settings come from `spec` (`up_to`, `amo`, `projection`, ...).
pub fn download(text: &str, spec: &Value) -> Result<Download, Failure> {
    let format = setting(spec, "format", "json")?;
    let puzzle = parse(text)?;
    let stem = file_part(&puzzle.name);
    let file = |ext: &str| format!("{stem}.{ext}");
    Ok(match format {
        "json" => Download {
            contents: Contents::Bytes(editable_text(&puzzle).into_bytes()),
            file_name: file("json"),
            mime: "application/json",
        },
        "xmpuzzle" => Download {
            contents: Contents::Bytes(xmpuzzle::to_xmpuzzle(&puzzle)?),
            file_name: file("xmpuzzle"),
            mime: "application/gzip",
        },
        "dimacs" | "dlx" | "asp" => export(puzzle, format, spec)?,
        "sheet-svg" | "sheet-html" => {
            let inst = Instance::new(puzzle)?;
            let s = sheet(&inst);
            if format == "sheet-svg" {
                Download {
                    contents: Contents::Bytes(render::svg(&s, false).into_bytes()),
                    file_name: format!("{stem}-sheet.svg"),
                    mime: "image/svg+xml",
                }
            } else {
                Download {
                    contents: Contents::Bytes(render::html(&[s]).into_bytes()),
                    file_name: format!("{stem}-sheet.html"),
                    mime: "text/html; charset=utf-8",
                }
            }
        }
        "stl-piece" => {
            let i = number(spec, "piece", u32::MAX as u64)?.unwrap_or(0) as usize;
            let piece = puzzle
                .pieces
                .get(i)
                .ok_or_else(|| Failure::new(format!("the puzzle has no piece {i}")))?;
            let mesh = stl::polycube(
                piece.shape.cells(),
                millimetres(spec, "cube", 10.0)?,
                millimetres(spec, "gap", 0.2)?,
            )?;
            let name = format!("piece-{}-{}.stl", i + 1, file_part(&piece.name));
            Download {
                contents: Contents::Bytes(stl::binary_stl(&mesh, &name)),
                file_name: name,
                mime: "model/stl",
            }
        }
        "stl-solution" => {
            let inst = Instance::new(puzzle)?;
            // TODO(plan): the run behind `cubesat stl`'s assembled file (its first solution
            // up to rotation) is the plan's to define; this asks for the same one.
            let opts = RunOptions {
                limit: Some(1),
                up_to: UpTo::Rotation,
                ..RunOptions::default()
            };
            let mut first = None;
            run::list(&inst, &opts, |s| {
                first = Some(s.placements.clone());
                false
            })?;
            let first =
                first.ok_or_else(|| Failure::new("the puzzle has no solution to assemble"))?;
            solution_stl(&inst, &first, spec)?
        }
        other => {
            return Err(Failure::new(format!(
                "unknown download format '{other}' (json, xmpuzzle, dimacs, dlx, asp, sheet-svg, sheet-html, stl-piece, stl-solution)"
            )));
        }
    })
}

/// The assembled solution as one STL: every piece its own closed shell.
fn solution_stl(inst: &Instance, placements: &[u32], spec: &Value) -> Result<Download, Failure> {
    let (cube, gap) = (
        millimetres(spec, "cube", 10.0)?,
        millimetres(spec, "gap", 0.2)?,
    );
    let cells = inst.puzzle.target.cells();
    let mut mesh = stl::Mesh::default();
    for &o in placements {
        let pl = &inst.table.placements()[o as usize];
        let pos: Vec<[i32; 3]> = pl.cells.iter().map(|&c| cells[c as usize].pos).collect();
        mesh.extend(stl::polycube(&pos, cube, gap)?);
    }
    let name = format!("{}-solution.stl", file_part(&inst.puzzle.name));
    Ok(Download {
        contents: Contents::Bytes(stl::binary_stl(&mesh, &name)),
        file_name: name,
        mime: "model/stl",
    })
}

/// An instance for an external solver, as `cubesat export` writes it.
fn export(puzzle: Puzzle, format: &str, spec: &Value) -> Result<Download, Failure> {
    let up_to = parse_up_to(setting(spec, "up_to", "none")?)?;
    let amo: AtMostOne = setting(spec, "amo", AtMostOne::default().name())?
        .parse()
        .map_err(|e: cubesat_xc::Error| Failure::new(e.to_string()))?;
    let projection: Projection = setting(spec, "projection", Projection::default().name())?
        .parse()
        .map_err(Failure::new)?;
    // TODO(plan): which puzzles and modes an export accepts is decided by `cubesat export`
    // today and moves into the run plan; until then the same refusals, so that no exported
    // file counts something else than it says.
    if puzzle.has_ranges() || puzzle.max_holes.is_some() {
        return Err(Failure::new(format!(
            "'{}' has piece ranges or a hole limit, which the dimacs, dlx and asp exports do not express; count it in the studio or download the .xmpuzzle",
            puzzle.name
        )));
    }
    if !matches!(up_to, UpTo::None | UpTo::Rotation) {
        return Err(Failure::new(
            "an export counts every placement (none) or one solution per rotation class (rotation); other modes are counted in the studio",
        ));
    }
    let inst = Instance::new(puzzle)?;
    let (p, table) = (&inst.puzzle, &inst.table);
    let reducer = Reducer::new(p, table, up_to, false)?;
    if up_to == UpTo::Rotation && !reducer.restriction_is_exact() {
        return Err(Failure::new(format!(
            "'{}': the restriction an instance can carry does not leave exactly one solution per rotation class here ({}), so an external count would not be the count up to rotation; export with none",
            p.name,
            reducer.describe(p)
        )));
    }
    let (excluded, reduction) = (reducer.excluded().to_vec(), reducer.describe(p));
    let file_name = format!(
        "{}-{up_to}.{ext}",
        file_part(&p.name),
        ext = match format {
            "dimacs" => "cnf",
            "dlx" => "dlx",
            _ => "lp",
        }
    )
    .replace('+', "-");
    let format = format.to_string();
    let write: Writer = Box::new(move |mut out| {
        // The writers take a sized writer; `&mut dyn Write` is one.
        let out = &mut out;
        let (p, table) = (&inst.puzzle, &inst.table);
        match format.as_str() {
            "dimacs" => {
                let header = dimacs::puzzle_header(p, table, up_to, &excluded, &reduction)?;
                let labels = dimacs::placement_labels(p, table);
                let config = CnfConfig {
                    amo,
                    ..CnfConfig::default()
                };
                dimacs::write(
                    out,
                    |_| {},
                    &inst.model,
                    config,
                    dimacs::Annotations {
                        header: &header,
                        labels: &labels,
                        projection,
                    },
                    &excluded,
                )?;
            }
            "dlx" => dlx::write_dlx(out, p, table, up_to, &excluded, &reduction)?,
            _ => asp::write_asp(out, p, table, up_to, &excluded, &reduction)?,
        }
        Ok(())
    });
    Ok(Download {
        contents: Contents::Stream(write),
        file_name,
        mime: "text/plain; charset=utf-8",
    })
}

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// List solutions (up to a limit, or all), keeping them for the browser.
    Solve,
    /// Count solutions.
    Count,
    /// Generate a puzzle with hint pieces.
    Generate,
}

impl Action {
    /// The action's name in requests.
    pub fn name(self) -> &'static str {
        match self {
            Action::Solve => "solve",
            Action::Count => "count",
            Action::Generate => "generate",
        }
    }
}

/// A run as the page asks for it, settings checked but not yet resolved into a plan.
#[derive(Clone, Debug)]
pub struct RunRequest {
    /// What to do.
    pub action: Action,
    /// The counting mode asked for (`None`: the puzzle's or the default).
    pub up_to: Option<UpTo>,
    /// The engine.
    pub engine: EngineChoice,
    /// Threads asked for (0 = one per core).
    pub threads: usize,
    /// At most this many solutions (listing or counting); `None` = all.
    pub limit: Option<u64>,
    /// The SAT engine's at-most-one encoding.
    pub amo: AtMostOne,
    /// The SAT engine's cubes.
    pub cubes: Option<usize>,
    /// The SAT engine's exact budget.
    pub exact_budget: Option<u64>,
    /// Generate: hint pieces, seed, uniqueness.
    pub generate: cubesat::generate::GenerateOptions,
}

/// Reads a run request's settings: `action`, `up_to` (`default` or a mode), `engine`,
/// `threads`, `limit`, `amo`, `cubes`, `exact_budget`, `hints`, `seed`, `unique`.
pub fn run_request(v: &Value) -> Result<RunRequest, Failure> {
    let action = match setting(v, "action", "count")? {
        "solve" => Action::Solve,
        "count" => Action::Count,
        "generate" => Action::Generate,
        other => {
            return Err(Failure::new(format!(
                "unknown action '{other}' (solve, count or generate)"
            )));
        }
    };
    let up_to = match setting(v, "up_to", "default")? {
        "default" | "" => None,
        s => Some(parse_up_to(s)?),
    };
    let engine = setting(v, "engine", "auto")?.parse::<EngineChoice>()?;
    let amo = setting(v, "amo", AtMostOne::default().name())?
        .parse()
        .map_err(|e: cubesat_xc::Error| Failure::new(e.to_string()))?;
    let limit = match number(v, "limit", u64::MAX)? {
        Some(0) => return Err(Failure::new("setting 'limit' must be at least 1")),
        l => l,
    };
    let unique = match v.get("unique") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Failure::new("setting 'unique' must be true or false")),
    };
    Ok(RunRequest {
        action,
        up_to,
        engine,
        threads: number(v, "threads", u32::MAX as u64)?.unwrap_or(0) as usize,
        limit,
        amo,
        cubes: number(v, "cubes", cubesat_xc::sat::MAX_CUBES as u64)?.map(|c| c as usize),
        exact_budget: number(v, "exact_budget", u64::MAX)?,
        generate: cubesat::generate::GenerateOptions {
            hints: number(v, "hints", u32::MAX as u64)?.unwrap_or(0) as usize,
            seed: number(v, "seed", u64::MAX)?.unwrap_or(0),
            unique,
            ..Default::default()
        },
    })
}

/// Where a run's solutions go while it runs.
pub trait Keep {
    /// The instance the solutions belong to, once it is built.
    fn instance(&mut self, inst: Arc<Instance>);
    /// One solution (placement indices); returns false to stop the run.
    fn solution(&mut self, placements: &[u32]) -> bool;
}

/// A finished run: the page's summary, and what the downloads of its solutions need.
pub struct Finished {
    /// For the page: the count line, the statistics, the report's figures.
    pub summary: Value,
    /// The run's report (none for a generation).
    pub report: Option<RunReport>,
    /// The counting mode the run used.
    pub up_to: UpTo,
}

/// The options of a run.
// TODO(plan): the run plan resolves the request; these are the rules `cubesat solve` applies
// today (the puzzle's counting mode or rotation; all threads for counts and whole listings,
// one for a limited listing; a listing stops at its limit).
fn run_options(req: &RunRequest, puzzle: &Puzzle, progress: Arc<Progress>) -> RunOptions {
    let whole = req.action == Action::Count || req.limit.is_none();
    RunOptions {
        engine: req.engine,
        up_to: req.up_to.or(puzzle.default_up_to).unwrap_or(UpTo::Rotation),
        limit: req.limit,
        threads: if whole {
            cubesat_xc::worker_threads(req.threads)
        } else {
            1
        },
        prune: true,
        amo: req.amo,
        sat_cubes: req.cubes,
        sat_exact_budget: req.exact_budget,
        progress: Some(progress),
        shard: None,
    }
}

/// Runs `req` on the puzzle text, publishing counters on `progress` (whose interrupt stops
/// it), solutions to `keep`.
pub fn run(
    text: &str,
    req: &RunRequest,
    progress: Arc<Progress>,
    keep: &mut dyn Keep,
) -> Result<Finished, Failure> {
    let puzzle = parse(text)?;
    if req.action == Action::Generate {
        return generate(puzzle, req, keep);
    }
    let opts = run_options(req, &puzzle, progress);
    let inst = Arc::new(Instance::new(puzzle)?);
    keep.instance(inst.clone());
    let report = match req.action {
        Action::Count => run::count(&inst, &opts)?,
        _ => run::list(&inst, &opts, |s: &Solution| keep.solution(&s.placements))?,
    };
    let summary = summary(&inst, &opts, &report, req.action == Action::Count);
    Ok(Finished {
        summary,
        report: Some(report),
        up_to: opts.up_to,
    })
}

/// The page's summary of a run: the count line as `cubesat solve --count` prints it, the
/// statistics line, and why there is no solution when there is none.
fn summary(inst: &Instance, opts: &RunOptions, report: &RunReport, counted: bool) -> Value {
    let mut line = format!(
        "{} {} {}",
        report.count,
        if report.count == 1 {
            "solution"
        } else {
            "solutions"
        },
        opts.up_to.phrase()
    );
    if opts.up_to == UpTo::BurrTools {
        line.push_str(&format!(" ({})", report.description));
    }
    if report.interrupted {
        line.push_str(if counted {
            " (interrupted: counted so far)"
        } else {
            " (interrupted: found so far)"
        });
    } else if report.limited {
        line.push_str(" (stopped at the limit)");
    }
    let mut why: Vec<String> = report.refutation.iter().map(|r| r.to_string()).collect();
    if report.count == 0 && !report.interrupted && why.is_empty() {
        why = inst.table.obstacles(&inst.puzzle);
    }
    json!({
        "count": report.count,
        "line": line,
        "stats": report::stats_line(&inst.puzzle, &inst.table, report),
        "up_to": opts.up_to.to_string(),
        "meaning": report.description,
        "engine": report.engine,
        "nodes": report.nodes,
        "interrupted": report.interrupted,
        "limited": report.limited,
        "seconds": report.elapsed.as_secs_f64(),
        "no_solution": why,
    })
}

/// `cubesat generate`: the generated puzzle (text for the editor), its report, and its
/// solution kept as the job's one solution.
fn generate(puzzle: Puzzle, req: &RunRequest, keep: &mut dyn Keep) -> Result<Finished, Failure> {
    let opts = &req.generate;
    let outcome = cubesat::generate::generate(puzzle, opts)?;
    let summary = match outcome {
        Ok(g) => {
            let text = puzzle_json::to_file_string(&g.instance.puzzle);
            let line = format!(
                "generated '{}': {} from seeded solution {}; {}; difficulty {} nodes to the first solution",
                g.instance.puzzle.name,
                report::plural(opts.hints as u64, "hint piece"),
                g.solution_index,
                g.completions.describe(),
                g.difficulty
            );
            let summary = json!({
                "line": line,
                "puzzle": text,
                "report": g.report_json(opts),
            });
            let solution = g.solution.clone();
            keep.instance(Arc::new(g.instance));
            keep.solution(&solution);
            summary
        }
        Err((failure, _)) => json!({ "line": format!("no puzzle: {}", failure.describe()) }),
    };
    Ok(Finished {
        summary,
        report: None,
        up_to: UpTo::None,
    })
}

/// One solution for the browser: text layers, SVG, the 3D page, the slide-in assembly steps.
pub fn solution_view(inst: &Instance, placements: &[u32], index: u64) -> Value {
    let title = format!("{}, solution {index}", inst.puzzle.name);
    let s = scene(&inst.puzzle, &inst.table, placements, &title, false);
    let order = render::assembly_order(&s);
    let steps: Vec<Value> = order
        .order
        .iter()
        .map(|&i| {
            let p = &s.pieces[i];
            json!({"name": p.name, "letter": p.letter.to_string(), "hint": p.hint})
        })
        .collect();
    json!({
        "index": index,
        "title": title,
        "text": render::text(&s, false),
        "svg": render::svg(&s, false),
        "html": render::html(std::slice::from_ref(&s)),
        "steps": steps,
        "complete": order.complete,
        "pieces": s.pieces.len(),
    })
}

/// A solution's downloads: `svg`, `html`, `text`, `json` (its JSON Lines object), `stl`.
pub fn solution_download(
    inst: &Instance,
    placements: &[u32],
    index: u64,
    spec: &Value,
) -> Result<Download, Failure> {
    let stem = format!("{}-solution-{index}", file_part(&inst.puzzle.name));
    let title = format!("{}, solution {index}", inst.puzzle.name);
    let s = || scene(&inst.puzzle, &inst.table, placements, &title, false);
    Ok(match setting(spec, "format", "svg")? {
        "svg" => Download {
            contents: Contents::Bytes(
                render::svg(&s(), setting(spec, "explode", "no")? == "yes").into_bytes(),
            ),
            file_name: format!("{stem}.svg"),
            mime: "image/svg+xml",
        },
        "html" => Download {
            contents: Contents::Bytes(render::html(&[s()]).into_bytes()),
            file_name: format!("{stem}.html"),
            mime: "text/html; charset=utf-8",
        },
        "text" => Download {
            contents: Contents::Bytes(render::text(&s(), false).into_bytes()),
            file_name: format!("{stem}.txt"),
            mime: "text/plain; charset=utf-8",
        },
        "stl" => {
            let mut d = solution_stl(inst, placements, spec)?;
            d.file_name = format!("{stem}.stl");
            d
        }
        other => {
            return Err(Failure::new(format!(
                "unknown solution format '{other}' (svg, html, text, stl)"
            )));
        }
    })
}

/// Solutions as JSON Lines, as `cubesat solve --all --format json` writes them: one object
/// per solution, then the summary once the run has finished.
pub fn solutions_jsonl(
    inst: Arc<Instance>,
    solutions: Vec<Vec<u32>>,
    finished: Option<(RunReport, UpTo)>,
) -> Download {
    let file_name = format!("{}-solutions.jsonl", file_part(&inst.puzzle.name));
    let write: Writer = Box::new(move |out| {
        for (i, s) in solutions.into_iter().enumerate() {
            let sol = Solution { placements: s };
            let line = report::solution_json(&inst.puzzle, &inst.table, &sol, i as u64 + 1);
            writeln!(out, "{line}").map_err(cut)?;
        }
        if let Some((r, up_to)) = finished {
            let line = report::summary_json(&inst.puzzle, &r, &up_to.to_string(), false);
            writeln!(out, "{line}").map_err(cut)?;
        }
        Ok(())
    });
    Download {
        contents: Contents::Stream(write),
        file_name,
        mime: "application/jsonl",
    }
}

/// A download cut short (the page went away).
fn cut(e: std::io::Error) -> Failure {
    Failure::new(format!("the download was cut short: {e}"))
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
