//! The downloads, every one written by the library's writers: the puzzle file, BurrTools,
//! the exports for external solvers, sheets, STL meshes, a solution's pictures and the JSON
//! Lines of a listing. Exports and JSON Lines stream (see [`Contents::Stream`]).

use std::io::Write;
use std::sync::Arc;

use cubesat::counting::Reducer;
use cubesat::interop::dimacs::{self, Projection};
use cubesat::interop::{asp, dlx, xmpuzzle};
use cubesat::render::{self, stl};
use cubesat::report::{self, scene};
use cubesat::run::{self, Instance, RunOptions, RunReport};
use cubesat::solution::Solution;
use cubesat::{Puzzle, UpTo};
use cubesat_xc::encoding::{AtMostOne, CnfConfig};
use serde_json::Value;

use super::views::sheet;
use super::{Failure, editable_text, millimetres, number, parse, parse_up_to, setting};

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
