//! `cubesat disassemble` (one solution's plan: its moves, level, and a 3D page that animates them) and `cubesat solve --disassemble` (only the assemblies that come apart, counted or listed with their levels).
//!
//! Both list the assemblies with the chosen engine and counting mode, analyse them in batches
//! on the worker threads ([`cubesat::disassembly::solutions`], every plan replayed there), and
//! keep those that come apart.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use serde_json::{Value, json};

use cubesat::Puzzle;
use cubesat::disassembly::solutions::{self, Analysis};
use cubesat::disassembly::{Level, Mode, direction_name};
use cubesat::plan::{DisassemblyPlan, PlanError, Settings, Task};
use cubesat::render::{self, ScenePlan, plan::piece_labels};
use cubesat::report::{scene, solution_json, stats_line};
use cubesat::run::{self, Instance, RunOptions, RunReport};
use cubesat::solution::Solution;
use cubesat_xc::Progress;

use crate::args::{DisassembleArgs, DisassemblyArgs, SolutionFormat, SolveArgs, SortOrder};

use super::{Outcome, found, output, puzzle_source, use_color};

/// Refuses the disassembly options without `--disassemble`.
pub fn refuse_without(args: &SolveArgs) -> Result<()> {
    let d = &args.disassembly;
    let given = [
        (d.disassembler.is_some(), "--disassembler"),
        (d.min_level.is_some(), "--min-level"),
        (d.sort != SortOrder::Found, "--sort"),
        (d.max_states.is_some(), "--max-states"),
    ];
    if let Some((_, flag)) = given.iter().find(|g| g.0) {
        bail!("{flag} applies to the disassembly: add --disassemble");
    }
    Ok(())
}

/// What a run of analyses found.
#[derive(Default)]
struct Tally {
    /// Assemblies analysed.
    assemblies: u64,
    /// Of them, those that come apart (in the mode asked).
    apart: u64,
    /// States visited.
    states: u64,
    /// Time spent analysing.
    elapsed: Duration,
    /// Stopped by Ctrl-C.
    interrupted: bool,
}

/// One solution that comes apart: its number among the assemblies, its placements, analysis.
struct Found {
    solution: Solution,
    analysis: Analysis,
}

/// Lists the assemblies and analyses them in batches: `keep` gets every one that comes apart
/// and reaches `min_level`, in listing order, and returns false to stop.
fn stream(
    inst: &Instance,
    run_opts: &RunOptions,
    opts: &solutions::Options,
    min_level: Option<&Level>,
    batch: usize,
    mut keep: impl FnMut(Found) -> bool,
) -> Result<(RunReport, Tally)> {
    let mut tally = Tally::default();
    let mut pending: Vec<Solution> = Vec::new();
    let mut failure: Option<anyhow::Error> = None;
    let mut stop = false;
    let mut flush = |pending: &mut Vec<Solution>, tally: &mut Tally| -> Result<bool> {
        if pending.is_empty() {
            return Ok(true);
        }
        let start = Instant::now();
        let done = solutions::analyse(inst, pending, opts).map_err(|e| {
            let more = matches!(&e, cubesat::Error::Unsupported { message, .. } if message.contains(" states"));
            if more {
                anyhow!("{e} (--max-states raises the limit)")
            } else {
                anyhow::Error::from(e)
            }
        })?;
        tally.elapsed += start.elapsed();
        tally.interrupted |= done.interrupted;
        let mut go_on = !done.interrupted;
        for (sol, a) in pending.drain(..).zip(done.analyses) {
            tally.assemblies += 1;
            tally.states += a.states;
            let Some(tree) = &a.tree else { continue };
            tally.apart += 1;
            if min_level.is_some_and(|m| tree.level_numbers() < *m) || !go_on {
                continue;
            }
            go_on = keep(Found {
                solution: sol,
                analysis: a,
            });
        }
        Ok(go_on)
    };
    let report = run::list(inst, run_opts, |s: &Solution| {
        if stop {
            return false;
        }
        pending.push(s.clone());
        if pending.len() >= batch {
            match flush(&mut pending, &mut tally) {
                Ok(go_on) => stop = !go_on,
                Err(e) => {
                    failure = Some(e);
                    stop = true;
                }
            }
        }
        !stop
    });
    let report = report.with_context(|| "listing the assemblies".to_string())?;
    if let Some(e) = failure {
        return Err(e);
    }
    if !stop {
        flush(&mut pending, &mut tally)?;
    }
    tally.interrupted |= report.interrupted;
    Ok((report, tally))
}

/// The plan of a disassembly run from the flags' settings (the rules are the library's),
/// reporting to `progress`.
fn plan(
    settings: &Settings,
    d: &DisassemblyArgs,
    puzzle: &Puzzle,
    progress: Arc<Progress>,
    quiet: bool,
) -> Result<DisassemblyPlan> {
    let mut p = settings
        .resolve_disassembly(puzzle, d.disassembler, d.max_states)
        .map_err(|e| match e {
            PlanError::DisassemblyNotShardable => {
                anyhow!("--shard and --seal-key-file cannot be combined with --disassemble")
            }
            e => super::flags::flag_error(&e),
        })?;
    if !quiet {
        for note in &p.notes {
            say!("note: {}", super::flags::flag_note(note));
        }
    }
    p.run.progress = Some(progress.clone());
    p.analysis.progress = Some(progress);
    Ok(p)
}

/// The statistics line of the analyses.
fn tally_line(t: &Tally, mode: Mode, threads: usize) -> String {
    let secs = t.elapsed.as_secs_f64().max(1e-9);
    format!(
        "disassembly ({mode}): {} assemblies analysed, {} come apart; {} states; {:.3} s ({:.0} assemblies/s, {:.0} states/s, {} thread{})",
        t.assemblies,
        t.apart,
        t.states,
        secs,
        t.assemblies as f64 / secs,
        t.states as f64 / secs,
        threads,
        if threads == 1 { "" } else { "s" }
    )
}

/// What the disassembler rule means, for count lines and summaries.
fn rule(mode: Mode) -> &'static str {
    match mode {
        Mode::BurrTools => "BurrTools 0.7.1's rule, the first separation found is final",
        Mode::Complete => "the search over every separation",
    }
}

/// `solve --disassemble`.
pub fn solve(args: SolveArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
    }
    let progress = Arc::new(Progress::new());
    crate::progress::install_interrupt(progress.clone());
    let settings = super::flags::settings(&args)?;
    let DisassemblyPlan {
        run: run_opts,
        analysis: opts,
        keep: want,
        batch,
        ..
    } = plan(
        &settings,
        &args.disassembly,
        &puzzle,
        progress.clone(),
        quiet,
    )?;
    let inst = Instance::new(puzzle)?;
    let threads = opts.threads;
    let mode = opts.mode;
    let reporter = (!quiet && (args.count || args.all)).then(|| {
        // Disassembly records once an assembly, and one assembly can take long: shown at once.
        crate::progress::Reporter::start(progress.clone(), inst.puzzle.name.clone(), false)
    });
    let sorting = args.disassembly.sort == SortOrder::Level;
    let mut kept: Vec<Found> = Vec::new();
    let mut seen = 0u64;
    let result = stream(
        &inst,
        &run_opts,
        &opts,
        args.disassembly.min_level.as_ref(),
        batch,
        |f| {
            seen += 1;
            if !args.count {
                kept.push(f);
            }
            sorting || want.is_none_or(|w| seen < w)
        },
    );
    if let Some(r) = reporter {
        r.finish();
    }
    let (report, tally) =
        result.with_context(|| puzzle_source(args.puzzle.puzzle.as_deref()).to_string())?;
    let limited = !sorting && want.is_some_and(|w| seen >= w);
    let mut out = output(args.out.as_deref())?;
    if args.count {
        count_line(&args, &inst, &report, &tally, mode, seen, limited, &mut out)?;
    } else {
        if sorting {
            kept.sort_by_key(|f| std::cmp::Reverse(level_of(f)));
            if let Some(w) = want {
                kept.truncate(w as usize);
            }
        }
        let color = use_color(args.color, args.out.is_some());
        list_found(&args, &inst, &kept, &report, &tally, mode, color, &mut out)?;
    }
    out.finish()?;
    if !quiet {
        say!("{}", stats_line(&inst.puzzle, &inst.table, &report));
        say!("{}", tally_line(&tally, mode, threads));
    }
    if tally.interrupted {
        say!("interrupted by Ctrl-C: the search did not finish");
        return Ok(Outcome::Interrupted);
    }
    Ok(found(seen > 0))
}

fn level_of(f: &Found) -> Level {
    f.analysis
        .tree
        .as_ref()
        .map_or(Level(Vec::new()), |t| t.level_numbers())
}

/// `--count --disassemble`: the count line, or the summary object.
#[allow(clippy::too_many_arguments)]
fn count_line(
    args: &SolveArgs,
    inst: &Instance,
    report: &RunReport,
    tally: &Tally,
    mode: Mode,
    kept: u64,
    limited: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let filtered = args.disassembly.min_level.as_ref();
    if args.format == SolutionFormat::Json {
        let mut v = json!({
            "type": "summary",
            "solutions": kept,
            "come_apart": tally.apart,
            "assemblies": tally.assemblies,
            "disassembler": mode.to_string(),
            "rule": rule(mode),
            "states": tally.states,
            "up_to": report_mode(args, inst),
            "meaning": report.description,
            "complete": !limited && !tally.interrupted,
            "interrupted": tally.interrupted,
            "seconds": tally.elapsed.as_secs_f64(),
        });
        if let Some(m) = filtered {
            v["min_level"] = json!(m.to_string());
        }
        writeln!(out, "{v}")?;
        return Ok(());
    }
    let noun = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut line = format!(
        "{} that come{} apart{}, of {} ({}; {} disassembler: {}",
        noun(kept, "solution", "solutions"),
        if kept == 1 { "s" } else { "" },
        filtered.map_or(String::new(), |m| format!(" at level {m} or above")),
        noun(tally.assemblies, "assembly", "assemblies"),
        report.description,
        mode,
        rule(mode)
    );
    line.push(')');
    if tally.interrupted {
        line.push_str(" (interrupted: counted so far)");
    } else if limited {
        line.push_str(" (stopped at --limit)");
    }
    writeln!(out, "{line}")?;
    Ok(())
}

fn report_mode(args: &SolveArgs, inst: &Instance) -> String {
    cubesat::plan::counting_mode(args.up_to, &inst.puzzle).to_string()
}

/// `level 4.9.3, 16 moves`.
fn level_text(a: &Analysis) -> String {
    format!(
        "level {}, {} move{}",
        a.level().unwrap_or_default(),
        a.moves(),
        if a.moves() == 1 { "" } else { "s" }
    )
}

/// A listing of the solutions that come apart, in the chosen format.
#[allow(clippy::too_many_arguments)]
fn list_found(
    args: &SolveArgs,
    inst: &Instance,
    kept: &[Found],
    report: &RunReport,
    tally: &Tally,
    mode: Mode,
    color: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let (puzzle, table) = (&inst.puzzle, &inst.table);
    let title = |i: usize, f: &Found| {
        format!(
            "{}, solution {} ({})",
            puzzle.name,
            i + 1,
            level_text(&f.analysis)
        )
    };
    match args.format {
        SolutionFormat::Text => {
            for (i, f) in kept.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                let sc = scene(puzzle, table, &f.solution.placements, &title(i, f), false);
                write!(out, "{}", render::text(&sc, color))?;
            }
            if kept.is_empty() {
                writeln!(
                    out,
                    "{}",
                    if tally.interrupted {
                        "interrupted before a solution that comes apart was found".to_string()
                    } else {
                        format!(
                            "no solution comes apart ({} analysed)",
                            match tally.assemblies {
                                1 => "1 assembly".to_string(),
                                n => format!("{n} assemblies"),
                            }
                        )
                    }
                )?;
            }
        }
        SolutionFormat::Json => {
            for (i, f) in kept.iter().enumerate() {
                let mut v = solution_json(puzzle, table, &f.solution, i as u64 + 1);
                add_level(&mut v, &f.analysis);
                writeln!(out, "{v}")?;
            }
            let mut s =
                cubesat::report::summary_json(puzzle, report, &report_mode(args, inst), false);
            s["solutions"] = json!(kept.len());
            s["assemblies"] = json!(tally.assemblies);
            s["disassembler"] = json!(mode.to_string());
            s["states"] = json!(tally.states);
            s["interrupted"] = json!(tally.interrupted);
            writeln!(out, "{s}")?;
        }
        SolutionFormat::Svg => {
            if let Some(f) = kept.first() {
                let sc = scene(puzzle, table, &f.solution.placements, &title(0, f), false);
                write!(out, "{}", render::svg(&sc, args.explode))?;
            }
        }
        SolutionFormat::Html => {
            if !kept.is_empty() {
                let mut scenes = Vec::new();
                let mut plans = Vec::new();
                for (i, f) in kept.iter().enumerate() {
                    let sc = scene(puzzle, table, &f.solution.placements, &title(i, f), false);
                    plans.push(Some(ScenePlan::new(
                        &sc,
                        &f.analysis.steps,
                        level_text(&f.analysis),
                    )));
                    scenes.push(sc);
                }
                write!(out, "{}", render::html_with_plans(&scenes, &plans))?;
            }
        }
    }
    Ok(())
}

/// The level and moves added to a solution's JSON object.
fn add_level(v: &mut Value, a: &Analysis) {
    v["level"] = json!(a.level());
    v["moves"] = json!(a.moves());
}

/// The plan's moves as text lines (piece labels as in the layer view).
fn plan_lines(labels: &[String], a: &Analysis) -> Vec<String> {
    let width = a.steps.len().to_string().len();
    a.steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let who: Vec<&str> = s.pieces.iter().map(|&p| labels[p].as_str()).collect();
            if s.removal {
                format!(
                    "{:>width$}. {} {} out",
                    i + 1,
                    who.join(" "),
                    direction_name(s.direction)
                )
            } else {
                format!(
                    "{:>width$}. {} {} {}",
                    i + 1,
                    who.join(" "),
                    direction_name(s.direction),
                    s.distance
                )
            }
        })
        .collect()
}

/// The plan as JSON: one object per move.
fn plan_json(labels: &[String], a: &Analysis) -> Value {
    Value::Array(
        a.steps
            .iter()
            .map(|s| {
                json!({
                    "pieces": s.pieces.iter().map(|&p| labels[p].clone()).collect::<Vec<_>>(),
                    "direction": direction_name(s.direction),
                    "distance": s.distance,
                    "removal": s.removal,
                })
            })
            .collect(),
    )
}

/// `cubesat disassemble`.
pub fn run(args: DisassembleArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
    }
    let sorting = args.disassembly.sort == SortOrder::Level;
    let want = args.solution;
    let progress = Arc::new(Progress::new());
    crate::progress::install_interrupt(progress.clone());
    // Sorted by level, every solution that comes apart is needed; else the first `want`.
    let settings = Settings {
        task: Task::List,
        limit: (!sorting).then_some(want),
        up_to: args.up_to,
        threads: args.threads,
        ..Settings::default()
    };
    let DisassemblyPlan {
        run: run_opts,
        analysis: opts,
        batch,
        ..
    } = plan(&settings, &args.disassembly, &puzzle, progress, quiet)?;
    let inst = Instance::new(puzzle)?;
    let (threads, mode) = (opts.threads, opts.mode);
    let mut kept: Vec<Found> = Vec::new();
    let (report, tally) = stream(
        &inst,
        &run_opts,
        &opts,
        args.disassembly.min_level.as_ref(),
        batch,
        |f| {
            kept.push(f);
            sorting || (kept.len() as u64) < want
        },
    )
    .with_context(|| puzzle_source(args.puzzle.puzzle.as_deref()).to_string())?;
    if !quiet {
        say!("{}", stats_line(&inst.puzzle, &inst.table, &report));
        say!("{}", tally_line(&tally, mode, threads));
    }
    if tally.interrupted && (kept.len() as u64) < want {
        say!("interrupted by Ctrl-C before solution {want} was found");
        return Ok(Outcome::Interrupted);
    }
    if sorting {
        kept.sort_by_key(|f| std::cmp::Reverse(level_of(f)));
    }
    let source = puzzle_source(args.puzzle.puzzle.as_deref());
    let Some(f) = kept.get(want as usize - 1) else {
        if tally.assemblies == 0 {
            bail!("{source}: the puzzle has no solution, so there is nothing to take apart");
        }
        let apart = kept.len();
        let min = args
            .disassembly
            .min_level
            .as_ref()
            .map_or(String::new(), |m| format!(" at level {m} or above"));
        return Err(anyhow!(
            "{source}: --solution {want}: {} of {} come{} apart{min} ({mode} disassembler)",
            match apart {
                0 => "none".to_string(),
                n => n.to_string(),
            },
            match tally.assemblies {
                1 => "1 assembly".to_string(),
                n => format!("{n} assemblies"),
            },
            if apart <= 1 { "s" } else { "" },
        ));
    };
    let a = &f.analysis;
    let title = format!(
        "{}, solution {} ({})",
        inst.puzzle.name,
        want,
        level_text(a)
    );
    let sc = scene(
        &inst.puzzle,
        &inst.table,
        &f.solution.placements,
        &title,
        false,
    );
    let labels = piece_labels(&sc);
    let mut out = output(args.out.as_deref())?;
    match args.format {
        SolutionFormat::Text => {
            let color = use_color(args.color, args.out.is_some());
            write!(out, "{}", render::text(&sc, color))?;
            writeln!(out)?;
            writeln!(out, "{} ({mode} disassembler)", level_text(a))?;
            for l in plan_lines(&labels, a) {
                writeln!(out, "{l}")?;
            }
        }
        SolutionFormat::Json => {
            let mut v = solution_json(&inst.puzzle, &inst.table, &f.solution, want);
            add_level(&mut v, a);
            v["disassembler"] = json!(mode.to_string());
            v["plan"] = plan_json(&labels, a);
            writeln!(out, "{v}")?;
        }
        SolutionFormat::Svg => write!(out, "{}", render::svg(&sc, false))?,
        SolutionFormat::Html => {
            let plan = ScenePlan::new(&sc, &a.steps, level_text(a));
            write!(out, "{}", render::html_with_plans(&[sc], &[Some(plan)]))?;
        }
    }
    out.finish()?;
    Ok(Outcome::Found)
}
