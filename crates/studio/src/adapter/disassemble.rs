//! The studio's disassembly jobs: the settings read, the run on the library's stream (every
//! assembly analysed kept with its level, so that the page can sort and filter them), and one
//! solution's plan as the 3D page animates it.
//!
//! A job keeps each assembly's placements and level only; a solution's plan is analysed again
//! when the page opens it (the analysis is deterministic), since plans of thousands of
//! solutions would take far more memory than the page ever shows.

use std::sync::Arc;

use cubesat::Puzzle;
use cubesat::disassembly::solutions::{self, Analysis};
use cubesat::disassembly::stream::{self, Found, StreamError};
use cubesat::disassembly::{Level, Mode, Order};
use cubesat::plan::{DisassemblyPlan, DisassemblySettings};
use cubesat::render::{self, ScenePlan, plan::piece_labels};
use cubesat::report::{plural, scene, stats_line};
use cubesat::run::Instance;
use cubesat::solution::Solution;
use cubesat_xc::Progress;
use serde_json::{Value, json};

use super::request::{Finished, Keep, RunRequest, Taken, settings as run_settings};
use super::{Failure, number, setting};

/// The most states the analysis of one assembly may be given (as `--max-states`).
pub const MAX_STATES: u64 = 1_000_000_000;

impl Taken {
    fn of(a: &Analysis) -> Taken {
        Taken {
            level: a.level(),
            rank: a
                .tree
                .as_ref()
                .map_or(Level(Vec::new()), |t| t.level_numbers()),
            moves: a.moves(),
        }
    }

    /// Whether the assembly comes apart.
    pub fn apart(&self) -> bool {
        self.level.is_some()
    }
}

/// Reads a disassembly's settings: `disassembler` (`complete`, `burrtools`; default: the
/// puzzle's) and `max_states` (1 to [`MAX_STATES`]).
pub fn settings(v: &Value) -> Result<DisassemblySettings, Failure> {
    let mode = match setting(v, "disassembler", "default")? {
        "default" | "" => None,
        s => Some(s.parse::<Mode>()?),
    };
    let max_states = match number(v, "max_states", MAX_STATES) {
        Ok(Some(0)) | Err(_) => {
            return Err(Failure::new(format!(
                "setting 'max_states' must be a whole number from 1 to {MAX_STATES}"
            )));
        }
        Ok(n) => n,
    };
    Ok(DisassemblySettings {
        mode,
        max_states,
        min_level: None,
        order: Order::Found,
    })
}

/// The library's plan of the request's disassembly (its refusals: a grid that cannot be
/// taken apart, too many cubes).
fn plan(puzzle: &Puzzle, req: &RunRequest) -> Result<DisassemblyPlan, Failure> {
    run_settings(req)
        .resolve_disassembly(puzzle, &req.disassembly)
        .map_err(|e| Failure::new(e.to_string()))
}

/// Refuses what the plan refuses, before the job starts.
pub fn precheck(puzzle: &Puzzle, req: &RunRequest) -> Result<(), Failure> {
    plan(puzzle, req).map(|_| ())
}

/// A failed stream, worded with the setting that raises the limit it names.
fn stream_failure(e: StreamError) -> Failure {
    match e {
        StreamError::StateLimit { .. } => {
            Failure::new(format!("{e} (the setting max_states raises the limit)"))
        }
        e => cubesat::Error::from(e).into(),
    }
}

/// `cubesat solve --disassemble` keeping every assembly analysed (at most `most`; the run
/// stops there), with the progress's counters and interrupt.
pub fn run(
    puzzle: Puzzle,
    req: &RunRequest,
    progress: Arc<Progress>,
    keep: &mut dyn Keep,
    most: u64,
) -> Result<Finished, Failure> {
    let plan = plan(&puzzle, req)?.with_progress(progress);
    let inst = Arc::new(Instance::new(puzzle)?);
    keep.instance(inst.clone());
    let mut kept = 0u64;
    let mut full = false;
    let streamed = stream::stream_every(&inst, &plan, |f: Found| {
        if kept >= most {
            full = true;
            return false;
        }
        kept += 1;
        keep.analysed(&f.solution.placements, Taken::of(&f.analysis))
    })
    .map_err(stream_failure)?;
    let (t, mode) = (&streamed.tally, plan.analysis.mode);
    let limited = streamed.limited || full;
    let found = streamed.found;
    let mut line = format!(
        "{} that come{} apart, of {} ({}; {mode} disassembler)",
        plural(found, "solution"),
        if found == 1 { "s" } else { "" },
        plural(t.assemblies, "assembly"),
        streamed.report.description,
    );
    if t.interrupted {
        line.push_str(" (interrupted: counted so far)");
    } else if limited {
        line.push_str(" (stopped at the limit)");
    }
    let secs = t.elapsed.as_secs_f64();
    let summary = json!({
        "line": line,
        "assemblies": t.assemblies,
        "apart": found,
        "states": t.states,
        "disassembler": mode.to_string(),
        "interrupted": t.interrupted,
        "limited": limited,
        "kept": kept,
        "seconds": secs,
        "stats": stats_line(&inst.puzzle, &inst.table, &streamed.report),
    });
    Ok(Finished {
        summary,
        up_to: plan.run.up_to,
        report: Some(streamed.report),
        attached: Vec::new(),
    })
}

/// `level 4.9.3, 16 moves`, or why there is no level.
fn level_words(a: &Analysis) -> String {
    match a.level() {
        Some(l) => format!("level {l}, {}", plural(a.moves() as u64, "move")),
        None => "does not come apart".to_string(),
    }
}

/// One solution of a disassembly job taken apart again for the page: its 3D page with the
/// plan animated (as `cubesat disassemble --format html` writes it) and the plan itself:
/// per move, the scene's pieces that move and by how much, in the 3D page's cells; each
/// piece with the colour the page draws it in (`#rrggbb`).
pub fn view(
    inst: &Instance,
    placements: &[u32],
    n: u64,
    req: &RunRequest,
) -> Result<Value, Failure> {
    let plan = plan(&inst.puzzle, req)?;
    let opts = solutions::Options {
        threads: 1,
        progress: None,
        ..plan.analysis
    };
    let solution = Solution {
        placements: placements.to_vec(),
    };
    let batch = solutions::analyse(inst, std::slice::from_ref(&solution), &opts)
        .map_err(|e| Failure::new(e.to_string()))?;
    let a = batch
        .analyses
        .into_iter()
        .next()
        .ok_or_else(|| Failure::new("the analysis of the solution was stopped"))?;
    let words = level_words(&a);
    let title = format!("{}, solution {n} ({words})", inst.puzzle.name);
    let sc = scene(&inst.puzzle, &inst.table, placements, &title, false);
    let labels = piece_labels(&sc);
    let shown = ScenePlan::new(&sc, &a.steps, words.clone());
    // Each piece's colour as every view draws it: the one its name gives, else the palette's.
    let copies = sc.copies();
    let pieces: Vec<Value> = sc
        .pieces
        .iter()
        .zip(&labels)
        .enumerate()
        .map(|(i, (p, label))| {
            json!({
                "name": p.name,
                "letter": p.letter.to_string(),
                "label": label,
                "color": sc.colour(i, copies[i]).hex(),
                "hint": p.hint,
                "cells": p.cells,
            })
        })
        .collect();
    let moves: Vec<Value> = shown
        .moves
        .iter()
        .zip(&a.steps)
        .map(|(m, s)| {
            json!({
                "pieces": m.pieces,
                "labels": m.pieces.iter().map(|&i| labels[i].clone()).collect::<Vec<_>>(),
                "shift": m.shift,
                "removal": s.removal,
                "direction": a.grid.direction_name(s.direction),
                "distance": s.distance,
                "label": m.label,
            })
        })
        .collect();
    let apart = a.tree.is_some();
    let html = if apart {
        render::html_with_plans(std::slice::from_ref(&sc), &[Some(shown)])
    } else {
        render::html(std::slice::from_ref(&sc))
    };
    Ok(json!({
        "html": html,
        "disassembly": {
            "apart": apart,
            "level": a.level(),
            "moves": a.moves(),
            "disassembler": opts.mode.to_string(),
            "title": words,
            "pieces": pieces,
            "plan": moves,
        },
    }))
}
