//! `cubesat disassemble` (one solution's plan: its moves, level, and a 3D page that animates them) and `cubesat solve --disassemble` (only the assemblies that come apart, counted or listed with their levels).
//!
//! The library's stream ([`cubesat::disassembly::stream`]) lists the assemblies with the
//! chosen engine and counting mode, analyses them in batches on the worker threads, and keeps
//! those that come apart; this module turns the flags into its settings and words what it
//! finds.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use cubesat::Puzzle;
use cubesat::disassembly::solutions::Analysis;
use cubesat::disassembly::stream::{self, Found, StreamError, Streamed, Tally};
use cubesat::disassembly::{Mode, Order};
use cubesat::plan::{DisassemblyPlan, DisassemblySettings, PlanError, Settings, Task};
use cubesat::render::{self, ScenePlan, plan::piece_labels};
use cubesat::report::{scene, solution_json, stats_line};
use cubesat::run::Instance;
use cubesat_xc::Progress;

use crate::args::{
    DisassembleArgs, DisassemblyArgs, PuzzleArg, SolutionFormat, SolveArgs, SortOrder,
};

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

/// The puzzle, its notes said unless `quiet`.
fn load(arg: &PuzzleArg, quiet: bool) -> Result<Puzzle> {
    let puzzle = super::load_puzzle(arg)?;
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
    }
    Ok(puzzle)
}

/// Progress counters whose interrupt flag Ctrl-C sets.
fn interruptible() -> Arc<Progress> {
    let progress = Arc::new(Progress::new());
    crate::progress::install_interrupt(progress.clone());
    progress
}

/// The disassembly flags as the plan's settings.
fn disassembly_settings(d: &DisassemblyArgs) -> DisassemblySettings {
    DisassemblySettings {
        mode: d.disassembler,
        max_states: d.max_states,
        min_level: d.min_level.clone(),
        order: match d.sort {
            SortOrder::Found => Order::Found,
            SortOrder::Level => Order::Level,
        },
    }
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
    let p = settings
        .resolve_disassembly(puzzle, &disassembly_settings(d))
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
    Ok(p.with_progress(progress))
}

/// A failed run, worded with the flag that raises the limit it names, as coming from
/// `puzzle`.
fn run_error(e: StreamError, puzzle: &PuzzleArg) -> anyhow::Error {
    let e = match e {
        StreamError::StateLimit { .. } => anyhow!("{e} (--max-states raises the limit)"),
        e => anyhow::Error::from(e),
    };
    e.context(puzzle_source(puzzle.puzzle.as_deref()).to_string())
}

/// The statistics lines of the search and of the analyses, on stderr.
fn say_stats(inst: &Instance, s: &Streamed, plan: &DisassemblyPlan) {
    say!("{}", stats_line(&inst.puzzle, &inst.table, &s.report));
    say!(
        "{}",
        tally_line(&s.tally, plan.analysis.mode, plan.analysis.threads)
    );
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
    if args.up_to.as_ref().is_some_and(|m| !m.1.is_empty()) {
        bail!("--disassemble counts in one mode: give --up-to one mode");
    }
    let puzzle = load(&args.puzzle, quiet)?;
    let progress = interruptible();
    let settings = super::flags::settings(&args)?;
    let plan = plan(
        &settings,
        &args.disassembly,
        &puzzle,
        progress.clone(),
        quiet,
    )?;
    let inst = Instance::new(puzzle)?;
    let mode = plan.analysis.mode;
    let reporter = (!quiet && (args.count || args.all)).then(|| {
        // Disassembly records once an assembly, and one assembly can take long: shown at once.
        crate::progress::Reporter::start(progress, inst.puzzle.name.clone(), false)
    });
    let result = if args.count {
        stream::stream(&inst, &plan, |_| true).map(|s| (Vec::new(), s))
    } else {
        stream::collect(&inst, &plan)
    };
    if let Some(r) = reporter {
        r.finish();
    }
    let (kept, streamed) = result.map_err(|e| run_error(e, &args.puzzle))?;
    let mut out = output(args.out.as_deref())?;
    if args.count {
        count_line(&args, &inst, &streamed, mode, &mut out)?;
    } else {
        let color = use_color(args.color, args.out.is_some());
        list_found(&args, &inst, &kept, &streamed, mode, color, &mut out)?;
    }
    out.finish()?;
    if !quiet {
        say_stats(&inst, &streamed, &plan);
    }
    if streamed.tally.interrupted {
        say!("interrupted by Ctrl-C: the search did not finish");
        return Ok(Outcome::Interrupted);
    }
    Ok(found(streamed.found > 0))
}

/// `--count --disassemble`: the count line, or the summary object.
fn count_line(
    args: &SolveArgs,
    inst: &Instance,
    streamed: &Streamed,
    mode: Mode,
    out: &mut dyn Write,
) -> Result<()> {
    let (tally, report) = (&streamed.tally, &streamed.report);
    let (kept, limited) = (streamed.found, streamed.limited);
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
    cubesat::plan::counting_mode(
        args.up_to.as_ref().map(crate::args::Modes::first),
        &inst.puzzle,
    )
    .to_string()
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

/// `1 assembly`, `9 assemblies`.
fn assemblies(n: u64) -> String {
    match n {
        1 => "1 assembly".to_string(),
        n => format!("{n} assemblies"),
    }
}

/// What a text listing says when no solution comes apart.
fn none_apart(tally: &Tally) -> String {
    if tally.interrupted {
        "interrupted before a solution that comes apart was found".to_string()
    } else {
        format!(
            "no solution comes apart ({} analysed)",
            assemblies(tally.assemblies)
        )
    }
}

/// A listing of the solutions that come apart, in the chosen format.
fn list_found(
    args: &SolveArgs,
    inst: &Instance,
    kept: &[Found],
    streamed: &Streamed,
    mode: Mode,
    color: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let (puzzle, table) = (&inst.puzzle, &inst.table);
    let (report, tally) = (&streamed.report, &streamed.tally);
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
                writeln!(out, "{}", none_apart(tally))?;
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
                    a.grid.direction_name(s.direction)
                )
            } else {
                format!(
                    "{:>width$}. {} {} {}",
                    i + 1,
                    who.join(" "),
                    a.grid.direction_name(s.direction),
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
                    "direction": a.grid.direction_name(s.direction),
                    "distance": s.distance,
                    "removal": s.removal,
                })
            })
            .collect(),
    )
}

/// `cubesat disassemble`.
pub fn run(args: DisassembleArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = load(&args.puzzle, quiet)?;
    let want = args.solution;
    let progress = interruptible();
    // The first `want` that come apart, or with --sort level the `want` hardest.
    let settings = Settings {
        task: Task::List,
        limit: Some(want),
        up_to: args.up_to,
        threads: args.threads,
        ..Settings::default()
    };
    let plan = plan(&settings, &args.disassembly, &puzzle, progress, quiet)?;
    let inst = Instance::new(puzzle)?;
    let (kept, streamed) = stream::collect(&inst, &plan).map_err(|e| run_error(e, &args.puzzle))?;
    if !quiet {
        say_stats(&inst, &streamed, &plan);
    }
    if streamed.tally.interrupted && (kept.len() as u64) < want {
        say!("interrupted by Ctrl-C before solution {want} was found");
        return Ok(Outcome::Interrupted);
    }
    let f = wanted(&args, &kept, &streamed.tally, plan.analysis.mode)?;
    write_plan(&args, &inst, f, plan.analysis.mode)?;
    Ok(Outcome::Found)
}

/// The solution `--solution` names among those kept, or why there is none.
fn wanted<'k>(
    args: &DisassembleArgs,
    kept: &'k [Found],
    tally: &Tally,
    mode: Mode,
) -> Result<&'k Found> {
    let want = args.solution;
    let index = usize::try_from(want.saturating_sub(1)).unwrap_or(usize::MAX);
    if let Some(f) = kept.get(index) {
        return Ok(f);
    }
    let source = puzzle_source(args.puzzle.puzzle.as_deref());
    if tally.assemblies == 0 {
        bail!("{source}: the puzzle has no solution, so there is nothing to take apart");
    }
    let apart = kept.len();
    let min = args
        .disassembly
        .min_level
        .as_ref()
        .map_or(String::new(), |m| format!(" at level {m} or above"));
    bail!(
        "{source}: --solution {want}: {} of {} come{} apart{min} ({mode} disassembler)",
        match apart {
            0 => "none".to_string(),
            n => n.to_string(),
        },
        assemblies(tally.assemblies),
        if apart <= 1 { "s" } else { "" },
    )
}

/// The solution `f`, its plan and level, in the chosen format.
fn write_plan(args: &DisassembleArgs, inst: &Instance, f: &Found, mode: Mode) -> Result<()> {
    let a = &f.analysis;
    let want = args.solution;
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
    Ok(())
}
