//! `cubesat solve`: list or count a puzzle's solutions (text, JSON Lines, SVG or HTML on stdout, statistics on stderr).

use std::io::Write;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};

use cubesat::puzzle;
use cubesat::render;
use cubesat::report::{scene, solution_json, stats_line, summary_json};
use cubesat::run::{self, EngineChoice, Instance, RunOptions};
use cubesat::shard::{Job, ShardRecord};
use cubesat::solution::Solution;
use cubesat_xc::{Progress, Shard};

use crate::args::{SolutionFormat, SolveArgs};

use super::{Outcome, found, output, use_color};

pub fn run(args: SolveArgs, quiet: bool) -> Result<Outcome> {
    if let Some(c) = args.cubes.filter(|&c| c > cubesat_xc::sat::MAX_CUBES) {
        bail!(
            "--cubes {c} is too many (at most {})",
            cubesat_xc::sat::MAX_CUBES
        );
    }
    let shard = sharded(&args)?;
    let puzzle = puzzle::load(args.puzzle.puzzle.as_deref())?;
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
        up_to: args.up_to,
        limit,
        threads,
        prune: !args.no_prune,
        amo: args.amo,
        sat_cubes: args.cubes,
        shard,
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
        if shard.is_some() {
            return shard_record(&inst, &opts, Job::Count, &report, None, &mut out, quiet);
        }
        let mut line = format!(
            "{} {} {}",
            report.count,
            if report.count == 1 {
                "solution"
            } else {
                "solutions"
            },
            args.up_to.phrase()
        );
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
        SolutionFormat::Json if shard.is_some() => {
            let summary = summary_json(&inst.puzzle, &report, &args.up_to.to_string(), false);
            return shard_record(
                &inst,
                &opts,
                Job::List,
                &report,
                Some(summary),
                &mut out,
                quiet,
            );
        }
        SolutionFormat::Json => {
            writeln!(
                out,
                "{}",
                summary_json(&inst.puzzle, &report, &args.up_to.to_string(), false)
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

/// The shard `--shard K/N` asks for, checked against the other flags: a shard runs a whole
/// count or a whole JSON listing, so that its record can be merged.
fn sharded(args: &SolveArgs) -> Result<Option<Shard>> {
    let Some(text) = &args.shard else {
        return Ok(None);
    };
    let shard: Shard = text.parse().map_err(|e| anyhow!("--shard {text}: {e}"))?;
    let mergeable = args.count || (args.all && args.format == SolutionFormat::Json);
    if !mergeable {
        bail!("--shard needs --count, or --all --format json (a shard's record must be merged)");
    }
    if args.limit.is_some() {
        bail!("--shard runs a whole shard: it cannot be combined with --limit");
    }
    Ok(Some(shard))
}

/// Prints a shard's record: on its own for a count, inside the listing's summary object for a
/// listing. A finished shard exits 0 even with no solution, so that a job array's dependent
/// merge runs; an interrupted one exits 130 and its record says it is incomplete.
fn shard_record(
    inst: &Instance,
    opts: &RunOptions,
    job: Job,
    report: &cubesat::RunReport,
    summary: Option<serde_json::Value>,
    out: &mut dyn Write,
    quiet: bool,
) -> Result<Outcome> {
    let record = ShardRecord::new(
        &inst.puzzle,
        opts,
        job,
        report,
        super::merge::cpu_seconds(),
        super::merge::command_line(),
    )
    .ok_or_else(|| anyhow!("internal error: a shard run without its shard"))?;
    match summary {
        Some(mut s) => {
            s["shard"] = record.to_json();
            writeln!(out, "{s}")?;
        }
        None => writeln!(out, "{}", record.to_json())?,
    }
    out.flush()?;
    if !quiet {
        eprintln!(
            "cubesat: shard {}: {}",
            record.shard,
            stats_line(&inst.puzzle, &inst.table, report)
        );
    }
    Ok(if report.interrupted {
        Outcome::Interrupted
    } else {
        Outcome::Found
    })
}
