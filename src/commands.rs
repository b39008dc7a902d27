//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};

use std::sync::Arc;

use anyhow::{Context, Result};

use crate::cli::{
    Cli, ColorChoice, Command, InfoArgs, RenderArgs, RenderFormat, SolutionFormat, SolveArgs,
};
use crate::counting::{Reducer, UpTo};
use crate::engines::exact::Progress;
use crate::library::{self, BUNDLED};
use crate::outputs::{
    plural, read_solutions_jsonl, scene, solution_json, stats_line, summary_json,
};
use crate::render;
use crate::solution::Solution;
use crate::solver::{self, Instance, RunOptions};

/// How a command ended; `main` maps it to the documented exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Something was found, printed or written (exit 0).
    Found,
    /// No solution (exit 1).
    NoneFound,
    /// Ctrl-C stopped the run after printing what it had (exit 130).
    Interrupted,
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<Outcome> {
    let quiet = cli.quiet;
    match cli.command {
        Command::Solve(args) => solve(args, quiet),
        Command::Info(args) => info(args),
        Command::List => list(),
        Command::Render(args) => render_saved(args),
        Command::Generate(args) => crate::generate::run_cli(&args, quiet).map(found),
        Command::Export(_) | Command::Decode(_) => {
            anyhow::bail!("WIP")
        }
    }
}

fn found(any: bool) -> Outcome {
    if any {
        Outcome::Found
    } else {
        Outcome::NoneFound
    }
}

/// Stdout, or the file given with `--out`, buffered.
fn output(path: Option<&std::path::Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("{}: cannot create", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
}

/// Whether text output gets ANSI colour.
pub fn use_color(choice: ColorChoice, to_file: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            !to_file && io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    }
}

fn solve(args: SolveArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = library::load(args.puzzle.puzzle.as_deref())?;
    let inst = Instance::new(puzzle)?;
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
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
        ..RunOptions::default()
    };
    let progress = Arc::new(Progress::new());
    solver::install_interrupt(progress.clone());
    let opts = RunOptions {
        progress: Some(progress),
        ..opts
    };
    let mut out = output(args.out.as_deref())?;
    if args.count {
        let report = solver::count(&inst, &opts)?;
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
    let report = solver::list(&inst, &opts, |s: &Solution| {
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
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    match args.format {
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

fn info(args: InfoArgs) -> Result<Outcome> {
    let puzzle = library::load(args.puzzle.puzzle.as_deref())?;
    let inst = Instance::new(puzzle)?;
    let p = &inst.puzzle;
    let mut out = output(None)?;
    writeln!(out, "{}", p.name)?;
    if !p.description.is_empty() {
        writeln!(out, "  {}", p.description)?;
    }
    let t = &p.target;
    writeln!(
        out,
        "target: {} cells ({} must-fill, {} optional) in {}",
        t.cells().len(),
        t.must_count(),
        t.optional_count(),
        plural(t.containers().len() as u64, "container")
    )?;
    for (i, c) in t.containers().iter().enumerate() {
        let kind = if t.is_full_box(i) {
            "box"
        } else {
            "shape in a box of"
        };
        writeln!(
            out,
            "  container {i}: {kind} {}x{}x{}, {} cells",
            c.size[0],
            c.size[1],
            c.size[2],
            c.cells.len()
        )?;
    }
    let partners = p.mirror_partners();
    writeln!(
        out,
        "pieces: {} ({} copies, volume {})",
        p.pieces.len(),
        p.pieces.iter().map(|x| x.count as u64).sum::<u64>(),
        p.piece_volume()
    )?;
    writeln!(
        out,
        "  {:<10} {:>6} {:>5} {:>12} {:>10}  mirror image",
        "piece", "cells", "count", "orientations", "placements"
    )?;
    for (i, piece) in p.pieces.iter().enumerate() {
        let mirror = match &partners {
            _ if piece.shape.is_achiral() => "itself".to_string(),
            Some(pp) => format!("'{}'", p.pieces[pp[i]].name),
            None => "(not in the set)".to_string(),
        };
        writeln!(
            out,
            "  {:<10} {:>6} {:>5} {:>12} {:>10}  {}",
            format!("{} ({})", piece.name, piece.letter),
            piece.shape.len(),
            piece.count,
            inst.table.orientations()[i].len(),
            inst.table.by_piece()[i].len(),
            mirror
        )?;
    }
    writeln!(
        out,
        "placements: {}; hints: {}",
        inst.table.len(),
        p.hints.len()
    )?;
    for mode in [UpTo::Rotation, UpTo::RotationReflection] {
        match Reducer::new(p, &inst.table, mode, false) {
            Ok(r) => writeln!(out, "symmetry {}: {}", mode, r.describe(p))?,
            Err(e) => writeln!(out, "symmetry {}: not defined ({e:#})", mode)?,
        }
    }
    let k = &p.known_counts;
    if !k.is_empty() {
        let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
        writeln!(
            out,
            "known counts: all {}, up to rotation {}, up to rotation and reflection {}",
            show(k.all),
            show(k.rotation),
            show(k.rotation_reflection)
        )?;
        if let Some(s) = &k.source {
            writeln!(out, "  source: {s}")?;
        }
    }
    out.flush()?;
    Ok(Outcome::Found)
}

fn list() -> Result<Outcome> {
    let mut out = output(None)?;
    for (name, _) in BUNDLED {
        let p = library::bundled(name)?;
        let sizes: Vec<String> = p
            .target
            .containers()
            .iter()
            .map(|c| format!("{}x{}x{}", c.size[0], c.size[1], c.size[2]))
            .collect();
        let mut line = format!(
            "{name:<22} {:<40} {:>2} pieces into {}",
            p.name,
            p.pieces.len(),
            sizes.join(" + ")
        );
        if let Some(r) = p.known_counts.rotation {
            line.push_str(&format!("; {r} up to rotation"));
        }
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(Outcome::Found)
}

fn render_saved(args: RenderArgs) -> Result<Outcome> {
    let shown = args.solutions.display().to_string();
    let text = std::fs::read_to_string(&args.solutions)
        .with_context(|| format!("{shown}: cannot read"))?;
    let (inst, solutions) = read_solutions_jsonl(&text).with_context(|| shown.clone())?;
    if solutions.is_empty() {
        anyhow::bail!("{shown}: holds no solution to render");
    }
    let scenes: Vec<_> = solutions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            scene(
                &inst.puzzle,
                &inst.table,
                s,
                &format!("{}, solution {}", inst.puzzle.name, i + 1),
                false,
            )
        })
        .collect();
    let mut out = output(args.out.as_deref())?;
    match args.format {
        RenderFormat::Svg => write!(out, "{}", render::svg(&scenes[0], args.explode))?,
        RenderFormat::Html => write!(out, "{}", render::html(&scenes))?,
    }
    out.flush()?;
    Ok(Outcome::Found)
}
