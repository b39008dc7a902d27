//! `cubesat solve`: list or count a puzzle's solutions (text, JSON Lines, SVG or HTML on stdout, statistics on stderr).

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use cubesat::report::{stats_line, summary_json};
use cubesat::run::{self, EngineChoice, Instance, RunOptions, RunReport};
use cubesat::shard::{Job, ShardRecord};
use cubesat::solution::Solution;
use cubesat_xc::Progress;

use crate::args::{SolutionFormat, SolveArgs};
use crate::output::Output;
use crate::sink::{self, Shown};

use super::{Outcome, found, output, puzzle_source, use_color};

/// Refuses a format that cannot show what was asked, naming what can.
fn refuse_unshowable(args: &SolveArgs) -> Result<()> {
    let several = args.all || args.limit.is_some_and(|n| n > 1);
    match args.format {
        SolutionFormat::Svg | SolutionFormat::Html if args.count => bail!(
            "--count prints a number, which --format {} cannot draw; use --format text or json with --count",
            if args.format == SolutionFormat::Svg {
                "svg"
            } else {
                "html"
            }
        ),
        SolutionFormat::Svg if several => bail!(
            "--format svg draws one solution; use --format html for a page with every solution, or --format json and `cubesat render --solution N`"
        ),
        _ => Ok(()),
    }
}

/// `cubesat solve`: the count line, or the solutions in the chosen format, on stdout;
/// statistics on stderr.
pub fn run(args: SolveArgs, quiet: bool) -> Result<Outcome> {
    refuse_unshowable(&args)?;
    if args.disassemble {
        return super::disassemble::solve(args, quiet);
    }
    super::disassemble::refuse_without(&args)?;
    let (inst, opts, key) = prepare(&args, quiet)?;
    if let Some(dir) = &args.into {
        let reporter = |o: &RunOptions| progress_reporter(&args, &inst, o, quiet);
        return super::fill::run(&args, dir, &inst, &opts, key.as_deref(), quiet, &reporter);
    }
    let reporter = progress_reporter(&args, &inst, &opts, quiet);
    let mut out = output(args.out.as_deref())?;
    let key = key.as_deref();
    let report = if args.count {
        count(&args, &inst, &opts, reporter, key, &mut out)?
    } else {
        list(&args, &inst, &opts, reporter, key, &mut out)?
    };
    finish_output(out, &args, &report)?;
    Ok(conclude(&args, &inst, &opts, &report, quiet))
}

/// The run's set-up: the settings checked, the seal key read, Ctrl-C installed, the puzzle
/// read and its placements built, the plan's options with the progress counters.
fn prepare(args: &SolveArgs, quiet: bool) -> Result<(Instance, RunOptions, Option<Vec<u8>>)> {
    let settings = super::flags::settings(args)?;
    settings.check().map_err(|e| super::flags::flag_error(&e))?;
    let key = match &args.seal_key_file {
        Some(path) => Some(super::merge::read_key(path)?),
        None => None,
    };
    // Ctrl-C from here on stops the run and reports what it has (nothing found yet while the
    // puzzle is read and its placements built).
    let progress = Arc::new(Progress::new());
    crate::progress::install_interrupt(progress.clone());
    if !quiet {
        for note in settings.notes() {
            say!("note: {}", super::flags::flag_note(&note));
        }
    }
    let puzzle = super::load_puzzle(&args.puzzle)?;
    super::warn_same_shapes(&puzzle);
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
    }
    let plan = settings
        .resolve(&puzzle)
        .map_err(|e| super::flags::flag_error(&e))?;
    let inst = Instance::new(puzzle)?;
    let opts = RunOptions {
        progress: Some(progress),
        ..plan.options
    };
    Ok((inst, opts, key))
}

/// The progress display of a long run, if it gets one.
fn progress_reporter(
    args: &SolveArgs,
    inst: &Instance,
    opts: &RunOptions,
    quiet: bool,
) -> Option<crate::progress::Reporter> {
    // Long runs (counts and --all) show progress on stderr unless --quiet; the exact engine
    // and the SAT engine's cubes publish the counters and the tree estimate the display
    // needs (the DLX baseline does not).
    // The exact engine records its counters every few thousand nodes, so its display can wait
    // for a run that lasts; the SAT engine records once a cube, and shows at once.
    let engine = opts.engine.resolve();
    let shows = engine != EngineChoice::Dlx;
    (!quiet && shows && (args.count || args.all))
        .then(|| {
            opts.progress.clone().map(|p| {
                crate::progress::Reporter::start(
                    p,
                    cubesat::echo::echo(&inst.puzzle.name).to_string(),
                    engine == EngineChoice::Exact,
                )
            })
        })
        .flatten()
}

/// Closes stdout or the `--out` file; an interrupted run keeps its partial result apart.
fn finish_output(out: Output, args: &SolveArgs, report: &RunReport) -> Result<()> {
    // An interrupted run's partial result does not replace the --out file: the README
    // promises that only a command that succeeds replaces it.
    let partial = if report.interrupted {
        out.finish_interrupted()?
    } else {
        out.finish()?;
        None
    };
    if let (Some(p), Some(target)) = (&partial, &args.out) {
        eprintln!(
            "cubesat: interrupted: {} is left as it was; the partial result is in {}",
            target.display(),
            p.display()
        );
    }
    Ok(())
}

/// The statistics and closing notes on stderr, and how the command ended.
fn conclude(
    args: &SolveArgs,
    inst: &Instance,
    opts: &RunOptions,
    report: &RunReport,
    quiet: bool,
) -> Outcome {
    if !quiet {
        let shard = opts
            .shard
            .map(|s| format!("shard {s}: "))
            .unwrap_or_default();
        say!("{shard}{}", stats_line(&inst.puzzle, &inst.table, report));
    }
    if opts.shard.is_some() {
        // A finished shard exits 0 even with no solution, so that a job array's dependent
        // merge runs; an interrupted one exits 130 and its record says it is incomplete.
        return if report.interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Found
        };
    }
    if let Some(r) = &report.refutation {
        say!("no solution: {r}");
    }
    if report.interrupted {
        say!("interrupted by Ctrl-C: the search did not finish");
    } else if report.count == 0 && (args.count || args.format != SolutionFormat::Text) {
        for why in inst.table.obstacles(&inst.puzzle) {
            say!("no solution: {why}");
        }
    }
    if report.interrupted {
        Outcome::Interrupted
    } else {
        found(report.count > 0)
    }
}

/// `--count`: one line, the count and what it counts.
fn count(
    args: &SolveArgs,
    inst: &Instance,
    opts: &RunOptions,
    reporter: Option<crate::progress::Reporter>,
    key: Option<&[u8]>,
    out: &mut dyn Write,
) -> Result<RunReport> {
    let report = run::count(inst, opts)
        .with_context(|| puzzle_source(args.puzzle.puzzle.as_deref()).to_string());
    if let Some(r) = reporter {
        r.finish();
    }
    let report = report?;
    if opts.shard.is_some() {
        write_shard_record(inst, opts, Job::Count, &report, None, key, out)?;
        return Ok(report);
    }
    // One line a counting mode (several when they share one search).
    for (mode, r) in report.by_mode(opts.up_to) {
        if args.format == SolutionFormat::Json {
            let summary = summary_json(&inst.puzzle, &r, &mode.to_string(), true);
            writeln!(out, "{summary}")?;
            continue;
        }
        let mut line = cubesat::report::count_line(&r, mode);
        if r.interrupted {
            line.push_str(" (interrupted: counted so far)");
        } else if r.limited {
            line.push_str(" (stopped at --limit)");
        }
        writeln!(out, "{line}")?;
    }
    Ok(report)
}

/// A listing: each solution to the format's sink, then the format's ending.
fn list(
    args: &SolveArgs,
    inst: &Instance,
    opts: &RunOptions,
    reporter: Option<crate::progress::Reporter>,
    key: Option<&[u8]>,
    out: &mut dyn Write,
) -> Result<RunReport> {
    let color = use_color(args.color, args.out.is_some());
    let mut sink = sink::sink(args.format, color, args.explode);
    let mut index = 0u64;
    let mut write_error = None;
    let report = run::list(inst, opts, |s: &Solution| {
        index += 1;
        match sink.solution(
            out,
            &Shown::nth(&inst.puzzle, &inst.table, &s.placements, index),
        ) {
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
    let report =
        report.with_context(|| puzzle_source(args.puzzle.puzzle.as_deref()).to_string())?;
    if let Some(e) = write_error {
        return Err(e);
    }
    sink.finish(out)?;
    match args.format {
        SolutionFormat::Json if opts.shard.is_some() => {
            let summary = summary_json(&inst.puzzle, &report, &opts.up_to.to_string(), false);
            write_shard_record(inst, opts, Job::List, &report, Some(summary), key, out)?;
        }
        SolutionFormat::Json => writeln!(
            out,
            "{}",
            summary_json(&inst.puzzle, &report, &opts.up_to.to_string(), false)
        )?,
        // A stopped search proves nothing: it must not read as "no solution".
        SolutionFormat::Text if report.count == 0 && report.interrupted => {
            writeln!(out, "interrupted before the first solution was found")?
        }
        SolutionFormat::Text if report.count == 0 => match inst.table.obstacles(&inst.puzzle)[..] {
            [] => writeln!(out, "no solution")?,
            ref why => writeln!(out, "no solution: {}", why.join("; "))?,
        },
        _ => {}
    }
    Ok(report)
}

/// Writes a shard's record, sealed with `key` if one was given: on its own for a count,
/// inside the listing's summary object for a listing.
fn write_shard_record(
    inst: &Instance,
    opts: &RunOptions,
    job: Job,
    report: &RunReport,
    summary: Option<serde_json::Value>,
    key: Option<&[u8]>,
    out: &mut dyn Write,
) -> Result<()> {
    // One record a counting mode: a count of several modes from one search leaves several.
    let mut records = ShardRecord::all(
        &inst.puzzle,
        opts,
        job,
        report,
        super::merge::cpu_seconds(),
        super::merge::command_line(),
    );
    if records.is_empty() {
        bail!("internal error: a shard run without its shard");
    }
    for record in &mut records {
        if let Some(key) = key {
            record.seal(key);
        }
    }
    match summary {
        Some(mut s) => {
            s["shard"] = records[0].to_json();
            writeln!(out, "{s}")?;
        }
        None => {
            for record in &records {
                writeln!(out, "{}", record.to_json())?;
            }
        }
    }
    Ok(())
}
