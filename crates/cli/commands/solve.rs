//! `cubesat solve`: list or count a puzzle's solutions (text, JSON Lines, SVG or HTML on stdout, statistics on stderr).

use std::io::Write;
use std::sync::Arc;

use anyhow::{Result, bail};

use cubesat::UpTo;
use cubesat::render;
use cubesat::report::{scene, solution_json, stats_line, summary_json};
use cubesat::run::{self, EngineChoice, Instance, RunOptions};
use cubesat::solution::Solution;
use cubesat_xc::Progress;

use crate::args::{SolutionFormat, SolveArgs};

use super::{Outcome, found, output, use_color};

pub fn run(args: SolveArgs, quiet: bool) -> Result<Outcome> {
    if let Some(c) = args.cubes.filter(|&c| c > cubesat_xc::sat::MAX_CUBES) {
        bail!(
            "--cubes {c} is too many (at most {})",
            cubesat_xc::sat::MAX_CUBES
        );
    }
    let puzzle = args.puzzle.load()?;
    if !quiet {
        for n in &puzzle.notes {
            eprintln!("cubesat: note: {n}");
        }
    }
    let up_to = args
        .up_to
        .or(puzzle.default_up_to)
        .unwrap_or(UpTo::Rotation);
    let inst = Instance::new(puzzle)?;
    // Threads pay off on whole trees (--count, --all); a limited listing stops after a few
    // hundred nodes, where splitting the tree costs more than it saves (Tetris Cube first
    // solution: 12 ms for the whole process on one thread, 32 ms on two).
    let threads = if args.count || args.all {
        cubesat_xc::worker_threads(args.threads)
    } else {
        1
    };
    let limit = if args.count {
        args.limit
    } else if args.all {
        None
    } else {
        Some(args.limit.unwrap_or(1))
    };
    let opts = RunOptions {
        engine: args.engine,
        up_to,
        limit,
        threads,
        prune: !args.no_prune,
        amo: args.amo,
        sat_cubes: args.cubes,
        ..RunOptions::default()
    };
    let progress = Arc::new(Progress::new());
    crate::progress::install_interrupt(progress.clone());
    let opts = RunOptions {
        progress: Some(progress),
        ..opts
    };
    let mut out = output(args.out.as_deref())?;
    // Long runs (counts and --all) show progress on stderr unless --quiet; the exact engine
    // and the SAT engine's cubes publish the counters and the tree estimate the display
    // needs (the DLX baseline does not).
    let shows = opts.engine.resolve() != EngineChoice::Dlx;
    let reporter = (!quiet && shows && (args.count || args.all))
        .then(|| {
            opts.progress
                .clone()
                .map(|p| crate::progress::Reporter::start(p, inst.puzzle.name.clone()))
        })
        .flatten();
    if args.count {
        let report = run::count(&inst, &opts);
        if let Some(r) = reporter {
            r.finish();
        }
        let report = report?;
        let mut line = format!(
            "{} {} {}",
            report.count,
            if report.count == 1 {
                "solution"
            } else {
                "solutions"
            },
            up_to.phrase()
        );
        if up_to == UpTo::BurrTools {
            // Say what BurrTools' number identifies.
            line.push_str(&format!(" ({})", report.description));
        }
        if report.interrupted {
            line.push_str(" (interrupted: counted so far)");
        } else if report.limited {
            line.push_str(" (stopped at --limit)");
        }
        writeln!(out, "{line}")?;
        out.flush()?;
        if !quiet {
            eprintln!(
                "cubesat: {}",
                stats_line(&inst.puzzle, &inst.table, &report)
            );
        }
        return Ok(if report.interrupted {
            Outcome::Interrupted
        } else {
            found(report.count > 0)
        });
    }
    let color = use_color(args.color, args.out.is_some());
    let title = inst.puzzle.name.clone();
    let mut scenes = Vec::new();
    let mut index = 0u64;
    let mut write_error = None;
    let report = run::list(&inst, &opts, |s: &Solution| {
        index += 1;
        let r = (|| -> Result<()> {
            match args.format {
                SolutionFormat::Text => {
                    if index > 1 {
                        writeln!(out)?;
                    }
                    let sc = scene(
                        &inst.puzzle,
                        &inst.table,
                        &s.placements,
                        &format!("{title}, solution {index}"),
                        false,
                    );
                    write!(out, "{}", render::text(&sc, color))?;
                }
                SolutionFormat::Json => {
                    writeln!(
                        out,
                        "{}",
                        solution_json(&inst.puzzle, &inst.table, s, index)
                    )?;
                }
                SolutionFormat::Svg | SolutionFormat::Html => {
                    scenes.push(scene(
                        &inst.puzzle,
                        &inst.table,
                        &s.placements,
                        &format!("{title}, solution {index}"),
                        false,
                    ));
                }
            }
            Ok(())
        })();
        match r {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        }
    });
    if let Some(r) = reporter {
        r.finish();
    }
    let report = report?;
    if let Some(e) = write_error {
        return Err(e);
    }
    match args.format {
        SolutionFormat::Json => {
            writeln!(
                out,
                "{}",
                summary_json(&inst.puzzle, &report, &up_to.to_string(), false)
            )?;
        }
        SolutionFormat::Svg => {
            if let Some(first) = scenes.first() {
                write!(out, "{}", render::svg(first, args.explode))?;
            }
        }
        SolutionFormat::Html => {
            if !scenes.is_empty() {
                write!(out, "{}", render::html(&scenes))?;
            }
        }
        SolutionFormat::Text => {
            if report.count == 0 {
                writeln!(out, "no solution")?;
            }
        }
    }
    out.flush()?;
    if !quiet {
        eprintln!(
            "cubesat: {}",
            stats_line(&inst.puzzle, &inst.table, &report)
        );
    }
    Ok(if report.interrupted {
        Outcome::Interrupted
    } else {
        found(report.count > 0)
    })
}
