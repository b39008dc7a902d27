//! The studio's estimate jobs: the settings read and bounded, the library's estimate run as
//! `cubesat estimate` runs it (ending at the job's Stop), worded by the library as the command
//! line prints it, and the shard plan's scripts offered for download.

use std::time::Duration;

use cubesat::Error;
use cubesat::Puzzle;
use cubesat::estimate::{self as est, MAX_PROBES, MAX_WALL};
use cubesat::plan::{EstimatePlan, EstimateSettings, Settings};
use cubesat::run::Instance;
use cubesat_xc::Progress;
use serde_json::{Value, json};

use super::request::{Attached, Finished, RunRequest};
use super::{Failure, number};

/// The media type of the shard scripts.
const SCRIPT: &str = "text/x-shellscript; charset=utf-8";

/// The longest a studio estimate's probes run (Stop ends them sooner); the command line takes
/// up to a week.
pub const MAX_SECONDS: f64 = 600.0;
/// The most cores a shard plan may be made for.
pub const MAX_CORES: u64 = 1_000_000;

/// A whole number setting from 1 to `max`, or `None`.
fn positive(v: &Value, key: &str, max: u64) -> Result<Option<u64>, Failure> {
    match number(v, key, max) {
        Ok(Some(0)) | Err(_) => Err(Failure::new(format!(
            "setting '{key}' must be a whole number from 1 to {max}"
        ))),
        Ok(n) => Ok(n),
    }
}

/// Reads an estimate's settings: `seconds` (above 0, at most [`MAX_SECONDS`]), `samples`,
/// `seed`, `wall_seconds` (at most a year) and `cores` (with `wall_seconds`). A probe count
/// without a time still stops at [`MAX_SECONDS`].
pub fn settings(v: &Value) -> Result<EstimateSettings, Failure> {
    let seconds = match v.get("seconds") {
        None | Some(Value::Null) => None,
        Some(n) => Some(
            n.as_f64()
                .filter(|s| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
                .ok_or_else(|| {
                    Failure::new(format!(
                        "setting 'seconds' must be a number above 0 and at most {MAX_SECONDS}"
                    ))
                })?,
        ),
    };
    let samples = positive(v, "samples", MAX_PROBES)?;
    let s = EstimateSettings {
        seconds: seconds.or(samples.map(|_| MAX_SECONDS)),
        samples,
        seed: number(v, "seed", u64::MAX)?.unwrap_or(0),
        wall: positive(v, "wall_seconds", MAX_WALL.as_secs())?.map(Duration::from_secs),
        cores: positive(v, "cores", MAX_CORES)?.map(|c| c as u32),
    };
    s.check().map_err(|e| Failure::new(e.to_string()))?;
    Ok(s)
}

/// The puzzle as the shard commands name it: the file name the puzzle's JSON download gets
/// (`./` before one that would read as a flag).
fn puzzle_file(p: &Puzzle) -> String {
    let name = format!("{}.json", super::request::file_part(&p.name));
    if name.starts_with('-') {
        format!("./{name}")
    } else {
        name
    }
}

/// The plan of the request's estimate (its refusals).
fn plan(puzzle: &Puzzle, req: &RunRequest) -> Result<EstimatePlan, Failure> {
    Settings {
        up_to: req.up_to,
        ..Settings::default()
    }
    .resolve_estimate(puzzle, &req.estimate)
    .map_err(|e| Failure::new(e.to_string()))
}

/// Refuses what the plan refuses, before the job starts.
pub fn precheck(puzzle: &Puzzle, req: &RunRequest) -> Result<(), Failure> {
    plan(puzzle, req).map(|_| ())
}

/// `cubesat estimate`: the estimate's text and JSON as the command line prints them, and with
/// a plan of several shards its Slurm script and shard commands; stopped by the progress's
/// interrupt, a result that says so and gives no figure.
pub fn run(puzzle: Puzzle, req: &RunRequest, progress: &Progress) -> Result<Finished, Failure> {
    let plan = plan(&puzzle, req)?;
    let file = puzzle_file(&puzzle);
    let inst = Instance::new(puzzle)?;
    let e = match est::estimate_with(&inst, &plan.count, &plan.probes, Some(progress)) {
        Err(Error::Interrupted) => {
            return Ok(Finished {
                summary: json!({
                    "line": "no estimate: stopped before it finished",
                    "interrupted": true,
                }),
                report: None,
                up_to: plan.count.up_to,
                attached: Vec::new(),
            });
        }
        e => e?,
    };
    let shards = plan.shards(&e);
    let up_to = plan.count.up_to;
    let text = est::text(&e, up_to, plan.wall, shards.as_ref(), &file);
    let attached = match shards.filter(|p| p.shards > 1) {
        Some(p) => vec![
            Attached {
                format: "sbatch",
                file_name: "count.sbatch".into(),
                bytes: est::sbatch_script(&p, up_to, &file).into_bytes(),
                mime: SCRIPT,
            },
            Attached {
                format: "shards",
                file_name: "shards.sh".into(),
                bytes: est::shard_script(&p, up_to, &file).into_bytes(),
                mime: SCRIPT,
            },
        ],
        None => Vec::new(),
    };
    let summary = json!({
        "line": text.lines().next().unwrap_or_default(),
        "text": text,
        "estimate": est::to_json(&e, up_to, plan.wall, shards.as_ref()),
        "puzzle_file": file,
        "downloads": attached.iter().map(|a| a.format).collect::<Vec<_>>(),
    });
    Ok(Finished {
        summary,
        report: None,
        up_to,
        attached,
    })
}
