//! The studio's "Make a challenge set" (`cubesat generate --set`): its settings read and checked, the set made with its progress published as the job's note (candidates found of those wanted) and stopped by the job's Stop, and its files offered for download.

use std::sync::Arc;

use cubesat::Puzzle;
use cubesat::challenge::book::{self, Paper};
use cubesat::challenge::{SetOptions, make_set};
use cubesat::report::plural;
use cubesat::run::Instance;
use cubesat_xc::Progress;
use serde_json::{Value, json};

use super::request::{Attached, Finished, Keep, RunRequest};
use super::{Failure, number, setting};

/// Reads a challenge set's settings: `set` (its size, default 60), `levels` (comma-separated
/// names, default the five of the booklets), `seed` and `paper` (`a4` or `letter`), refused
/// with the command line's messages.
pub fn settings(v: &Value) -> Result<(SetOptions, Paper), Failure> {
    let size = number(v, "set", cubesat::challenge::set::MAX_SET as u64)?.unwrap_or(60);
    let levels = match setting(v, "levels", "")?.trim() {
        "" => None,
        s => Some(s.to_string()),
    };
    let seed = number(v, "seed", u64::MAX)?.unwrap_or(0);
    let opts = SetOptions::new(size as usize, levels.as_deref(), seed).map_err(|e| {
        Failure::new(match e.root() {
            cubesat::Error::Unsupported {
                request: cubesat::Request::Levels,
                ..
            } => format!("levels: {e}"),
            _ => format!("set of {size}: {e}"),
        })
    })?;
    let paper = setting(v, "paper", "a4")?;
    let paper = Paper::parse(paper)
        .ok_or_else(|| Failure::new(format!("paper '{paper}': a4 or letter")))?;
    Ok((opts, paper))
}

/// Makes the set: the summary has the levels' figures and each challenge's row of the index;
/// the booklet (PDF and HTML) and the set as one JSON file (the index and every challenge's
/// puzzle file) are offered for download; the first challenge and its solution are kept,
/// so the page can show one.
pub fn run(
    puzzle: Puzzle,
    req: &RunRequest,
    keep: &mut dyn Keep,
    progress: Arc<Progress>,
) -> Result<Finished, Failure> {
    let Some((opts, paper)) = &req.challenges else {
        return Err(Failure::new("a challenge set needs its settings"));
    };
    let made = make_set(puzzle, opts, Some(progress), &mut |p| {
        keep.note(json!({
            "level": p.level + 1,
            "levels": p.levels,
            "found": p.found,
            "wanted": p.wanted,
            "draws": p.draws,
        }))
    });
    let set = match made {
        Err(cubesat::Error::Interrupted) => {
            return Ok(Finished {
                summary: json!({
                    "line": "no challenge set: stopped before it was made",
                    "interrupted": true,
                }),
                report: None,
                up_to: cubesat::UpTo::None,
                attached: Vec::new(),
            });
        }
        made => made?,
    };
    let files = book::files(&set, *paper)?;
    let index = book::index_json(&set);
    let mut puzzles = serde_json::Map::new();
    for c in &set.challenges {
        puzzles.insert(
            book::challenge_file(&set, c),
            cubesat::puzzle::json::to_file_value(&c.instance.puzzle),
        );
    }
    let bundle = json!({ "index": index, "challenges": puzzles });
    let name = super::request::file_part(&set.base.puzzle.name);
    let mut attached = Vec::new();
    for (path, bytes) in files {
        let (format, mime) = match path.as_str() {
            "book.pdf" => ("book-pdf", "application/pdf"),
            "book.html" => ("book-html", "text/html; charset=utf-8"),
            _ => continue,
        };
        attached.push(Attached {
            format,
            file_name: format!("{name}-{path}"),
            bytes,
            mime,
        });
    }
    attached.push(Attached {
        format: "set-json",
        file_name: format!("{name}-challenges.json"),
        bytes: serde_json::to_vec_pretty(&bundle)
            .map_err(|e| Failure::new(format!("the set does not serialise: {e}")))?,
        mime: "application/json",
    });
    let levels: Vec<String> = index["levels"]
        .as_array()
        .map(|ls| {
            ls.iter()
                .map(|l| {
                    format!(
                        "{} {} ({}-{} to place, difficulty {}-{})",
                        l["challenges"],
                        l["name"].as_str().unwrap_or(""),
                        l["pieces_to_place"]["min"],
                        l["pieces_to_place"]["max"],
                        l["difficulty"]["min"],
                        l["difficulty"]["max"]
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let line = format!(
        "challenge set of {}: {}",
        plural(set.challenges.len() as u64, "challenge"),
        levels.join("; ")
    );
    if let Some(first) = set.challenges.first() {
        let inst = Instance::new(first.instance.puzzle.clone())?;
        keep.instance(Arc::new(inst));
        keep.solution(&first.solution);
    }
    Ok(Finished {
        summary: json!({
            "line": line,
            "levels": index["levels"],
            "challenges": index["challenges"],
            "files": attached.iter().map(|a| a.format).collect::<Vec<_>>(),
        }),
        report: None,
        up_to: cubesat::UpTo::None,
        attached,
    })
}
