//! The downloads, every one written by the library's writers: the puzzle file, BurrTools,
//! the exports for external solvers, sheets, STL meshes, a solution's pictures and the JSON
//! Lines of a listing. Exports and JSON Lines stream (see [`Contents::Stream`]).

use std::io::Write;
use std::sync::Arc;

use cubesat::interop::dimacs::Projection;
use cubesat::interop::{Export, ExportFormat};
use cubesat::plan::{ExportError, ExportSettings};
use cubesat::render::mesh::{piece_file, piece_title, solution_mesh, solution_title};
use cubesat::render::{self, piece_mesh, stl};
use cubesat::report::{self, scene};
use cubesat::run::{self, Instance, RunReport};
use cubesat::solution::Solution;
use cubesat::{Puzzle, UpTo};
use cubesat_xc::encoding::AtMostOne;
use serde_json::Value;

use super::request::{Attached, file_part};
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

/// The puzzle's downloads: `json`, every export format (`xmpuzzle`, `dimacs`, `dlx`, `asp`,
/// `placements`: [`ExportFormat`]), `sheet-svg`, `sheet-html`, `stl-piece` (setting `piece`,
/// `cube`, `gap`), `stl-solution` (the first solution assembled). Settings come from `spec`
/// (`up_to`, `amo`, `projection`, ...). Exports and meshes are the library's, as the command
/// line writes them.
pub fn download(text: &str, spec: &Value) -> Result<Download, Failure> {
    let format = setting(spec, "format", "json")?;
    let puzzle = parse(text)?;
    let stem = file_part(&puzzle.name);
    let file = |ext: &str| format!("{stem}.{ext}");
    if let Ok(export_format) = format.parse::<ExportFormat>() {
        return export(puzzle, export_format, spec);
    }
    Ok(match format {
        "json" => Download {
            contents: Contents::Bytes(editable_text(&puzzle).into_bytes()),
            file_name: file("json"),
            mime: "application/json",
        },
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
            let mesh = piece_mesh(
                puzzle.grid,
                piece.shape.cells(),
                millimetres(spec, "cube", 10.0)?,
                millimetres(spec, "gap", 0.2)?,
            )?;
            Download {
                contents: Contents::Bytes(stl::binary_stl(&mesh, &piece_title(piece))),
                file_name: piece_file(i, piece),
                mime: "model/stl",
            }
        }
        "stl-solution" => {
            let inst = Instance::new(puzzle)?;
            let mut first = None;
            run::list(&inst, &cubesat::plan::first_solution(), |s| {
                first = Some(s.placements.clone());
                false
            })?;
            let first =
                first.ok_or_else(|| Failure::new("the puzzle has no solution to assemble"))?;
            solution_stl(&inst, &first, None, spec)?
        }
        other => {
            return Err(Failure::new(format!(
                "unknown download format '{other}' (json, {}, sheet-svg, sheet-html, stl-piece, stl-solution)",
                ExportFormat::names()
            )));
        }
    })
}

/// The assembled solution as one STL, as `cubesat stl` writes it: every piece its own closed
/// body on the puzzle's grid; `index` is the solution's number (`None`: the first solution).
fn solution_stl(
    inst: &Instance,
    placements: &[u32],
    index: Option<u64>,
    spec: &Value,
) -> Result<Download, Failure> {
    let (cube, gap) = (
        millimetres(spec, "cube", 10.0)?,
        millimetres(spec, "gap", 0.2)?,
    );
    let mesh = solution_mesh(&inst.puzzle, &inst.table, placements, cube, gap)?;
    Ok(Download {
        contents: Contents::Bytes(stl::binary_stl(&mesh, &solution_title(index))),
        file_name: format!("{}-solution.stl", file_part(&inst.puzzle.name)),
        mime: "model/stl",
    })
}

/// A puzzle's export in `format` ([`Export`], as `cubesat export` writes it): a puzzle file
/// is made at once, an instance streams.
fn export(puzzle: Puzzle, format: ExportFormat, spec: &Value) -> Result<Download, Failure> {
    let settings = ExportSettings {
        up_to: parse_up_to(setting(spec, "up_to", "none")?)?,
        amo: setting(spec, "amo", AtMostOne::default().name())?
            .parse()
            .map_err(|e: cubesat_xc::Error| Failure::new(e.to_string()))?,
        projection: setting(spec, "projection", Projection::default().name())?
            .parse()
            .map_err(Failure::new)?,
    };
    let stem = file_part(&puzzle.name);
    let export = Export::new(puzzle, format, settings).map_err(|e| match e {
        ExportError::Plan(e) => Failure::new(e.to_string()),
        ExportError::Library(e) => e.into(),
    })?;
    let (file_name, contents) = if format.writes_instance() {
        let name = format!("{stem}-{}.{}", settings.up_to, format.extension()).replace('+', "-");
        let write: Writer = Box::new(move |out| Ok(export.write(out, |_| {})?));
        (name, Contents::Stream(write))
    } else {
        let mut bytes = Vec::new();
        export.write(&mut bytes, |_| {})?;
        (
            format!("{stem}.{}", format.extension()),
            Contents::Bytes(bytes),
        )
    };
    Ok(Download {
        contents,
        file_name,
        mime: format.mime(),
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
            let mut d = solution_stl(inst, placements, Some(index), spec)?;
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

/// A file a finished job offers ([`Attached`]: an estimate's shard scripts).
pub fn attached_download(a: &Attached) -> Download {
    Download {
        contents: Contents::Bytes(a.bytes.clone()),
        file_name: a.file_name.clone(),
        mime: a.mime,
    }
}

/// A download cut short (the page went away).
fn cut(e: std::io::Error) -> Failure {
    Failure::new(format!("the download was cut short: {e}"))
}
