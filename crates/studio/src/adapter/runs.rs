//! The runs behind the studio's jobs: a request's settings read and checked, resolved by
//! the library's run plan ([`cubesat::plan`]), run with live counters, and
//! summarised for the page as `cubesat solve` and `cubesat generate` report them (the
//! disassemblies and estimates: `disassemble` and `estimate` beside this file).

use std::sync::Arc;

use cubesat::plan::{DisassemblySettings, EstimateSettings};
use cubesat::puzzle::json as puzzle_json;
use cubesat::report;
use cubesat::run::{self, EngineChoice, Instance, RunOptions, RunReport};
use cubesat::solution::Solution;
use cubesat::{Puzzle, UpTo};
use cubesat_xc::Progress;
use cubesat_xc::encoding::AtMostOne;
use serde_json::{Value, json};

use super::challenges;
use super::disassemble;
use super::estimate;
use super::request::{Action, Finished, Keep, RunRequest, settings};
use super::{Failure, MAX_LISTED, number, parse, setting};

/// Reads a run request's settings: `action`, `up_to` (`default`, a mode, or for a count
/// several separated by commas, counted from one search), `engine`,
/// `threads`, `limit`, `amo`, `cubes`, `exact_budget`, `hints`, `seed`, `unique`, and the
/// disassembly's and the estimate's (see there).
pub fn run_request(v: &Value) -> Result<RunRequest, Failure> {
    let action = match setting(v, "action", "count")? {
        "solve" => Action::Solve,
        "count" => Action::Count,
        "generate" => Action::Generate,
        "disassemble" => Action::Disassemble,
        "estimate" => Action::Estimate,
        "challenges" => Action::Challenges,
        other => {
            return Err(Failure::new(format!(
                "unknown action '{other}' (solve, count, generate, disassemble, estimate or challenges)"
            )));
        }
    };
    let (up_to, also_up_to) = match setting(v, "up_to", "default")? {
        "default" | "" => (None, Vec::new()),
        s => {
            let (first, rest) = UpTo::parse_list(s)?;
            (Some(first), rest)
        }
    };
    if !also_up_to.is_empty() && action != Action::Count {
        return Err(Failure::new(
            "setting 'up_to': several counting modes share one search in a count, not in a listing, disassembly, estimate or generation",
        ));
    }
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
        also_up_to,
        engine,
        threads: number(v, "threads", u32::MAX as u64)?.unwrap_or(0) as usize,
        limit,
        amo,
        cubes: number(v, "cubes", cubesat_xc::sat::MAX_CUBES as u64)?.map(|c| c as usize),
        exact_budget: number(v, "exact_budget", u64::MAX)?,
        memory: match setting(v, "memory", "")?.trim() {
            "" => None,
            size => {
                Some(cubesat::plan::parse_bytes(size).map_err(|e| Failure::new(e.to_string()))?)
            }
        },
        generate: cubesat::generate::GenerateOptions {
            hints: number(v, "hints", u32::MAX as u64)?.unwrap_or(0) as usize,
            seed: number(v, "seed", u64::MAX)?.unwrap_or(0),
            unique,
            ..Default::default()
        },
        disassembly: if action == Action::Disassemble {
            disassemble::settings(v)?
        } else {
            DisassemblySettings::default()
        },
        estimate: if action == Action::Estimate {
            estimate::settings(v)?
        } else {
            EstimateSettings::default()
        },
        challenges: if action == Action::Challenges {
            Some(challenges::settings(v)?)
        } else {
            None
        },
    })
}

/// The refusals a job's plan makes before it runs, so that the page gets them as the
/// answer to its request rather than as a failed job: a disassembly of a grid that cannot be
/// taken apart, an estimate's settings the plan refuses.
pub fn precheck(text: &str, req: &RunRequest) -> Result<(), Failure> {
    match req.action {
        Action::Disassemble => disassemble::precheck(&parse(text)?, req),
        Action::Estimate => estimate::precheck(&parse(text)?, req),
        Action::Solve | Action::Count | Action::Generate | Action::Challenges => Ok(()),
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
    run_kept(text, req, progress, keep, MAX_LISTED)
}

/// [`run`], a listing keeping at most `most` solutions.
fn run_kept(
    text: &str,
    req: &RunRequest,
    progress: Arc<Progress>,
    keep: &mut dyn Keep,
    most: u64,
) -> Result<Finished, Failure> {
    let puzzle = parse(text)?;
    match req.action {
        Action::Generate => return generate(puzzle, req, keep, progress),
        Action::Disassemble => return disassemble::run(puzzle, req, progress, keep, most),
        Action::Estimate => return estimate::run(puzzle, req, &progress),
        Action::Challenges => return challenges::run(puzzle, req, keep, progress),
        Action::Solve | Action::Count => {}
    }
    let plan = settings(req)
        .resolve(&puzzle)
        .map_err(|e| Failure::new(e.to_string()))?;
    let opts = RunOptions {
        progress: Some(progress),
        ..plan.options
    };
    let inst = Arc::new(Instance::new(puzzle)?);
    keep.instance(inst.clone());
    let report = match req.action {
        Action::Count => run::count(&inst, &opts)?,
        _ => {
            // The studio keeps what it lists: past `most` solutions the listing stops, and the
            // one solution more that shows it would go on is dropped.
            let mut listed = 0u64;
            let mut report = run::list(&inst, &opts, |s: &Solution| {
                listed += 1;
                listed <= most && keep.solution(&s.placements)
            })?;
            if listed > most {
                report.count = most;
                report.limited = true;
            }
            report
        }
    };
    let summary = summary(&inst, &opts, &report, req.action == Action::Count);
    Ok(Finished {
        summary,
        report: Some(report),
        up_to: opts.up_to,
        attached: Vec::new(),
    })
}

/// The page's summary of a run: the count line as `cubesat solve --count` prints it (its
/// lines joined by "; " when several modes were counted, each mode's count in `counts`),
/// the statistics line, and why there is no solution when there is none.
fn summary(inst: &Instance, opts: &RunOptions, report: &RunReport, counted: bool) -> Value {
    let by_mode = report.by_mode(opts.up_to);
    let lines: Vec<String> = (by_mode.iter())
        .map(|(mode, r)| report::count_line(r, *mode))
        .collect();
    let counts: serde_json::Map<String, Value> = (by_mode.iter())
        .map(|(mode, r)| (mode.to_string(), json!(r.count)))
        .collect();
    let mut line = lines.join("; ");
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
        "counts": counts,
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
/// solution kept as the job's one solution. The progress's interrupt stops it within its
/// current search.
fn generate(
    puzzle: Puzzle,
    req: &RunRequest,
    keep: &mut dyn Keep,
    progress: Arc<Progress>,
) -> Result<Finished, Failure> {
    let opts = &req.generate;
    let outcome = match cubesat::generate::generate_with(puzzle, opts, Some(progress)) {
        Err(cubesat::Error::Interrupted) => {
            return Ok(Finished {
                summary: json!({
                    "line": "no puzzle: stopped before one was made",
                    "interrupted": true,
                }),
                report: None,
                up_to: UpTo::None,
                attached: Vec::new(),
            });
        }
        outcome => outcome?,
    };
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
        attached: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Kept(Vec<Vec<u32>>);

    impl Keep for Kept {
        fn instance(&mut self, _: Arc<Instance>) {}
        fn solution(&mut self, placements: &[u32]) -> bool {
            self.0.push(placements.to_vec());
            true
        }
    }

    #[test]
    fn a_listing_stops_where_the_studio_stops_keeping() {
        let soma = super::super::bundled_text("soma").unwrap();
        let req = run_request(&serde_json::json!({"action": "solve"})).unwrap();
        let mut kept = Kept::default();
        let f = run_kept(&soma, &req, Arc::new(Progress::new()), &mut kept, 5).unwrap();
        assert_eq!(kept.0.len(), 5);
        assert_eq!(
            f.summary["line"],
            "5 solutions up to rotation (stopped at the limit)"
        );
        // Room for all 480: the listing is complete, and says nothing of a limit.
        let mut kept = Kept::default();
        let f = run_kept(&soma, &req, Arc::new(Progress::new()), &mut kept, 480).unwrap();
        assert_eq!(kept.0.len(), 480);
        assert_eq!(f.summary["line"], "480 solutions up to rotation");
    }
}
