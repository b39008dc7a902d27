//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};

use std::sync::Arc;

use anyhow::{Context, Result};

use crate::cli::{
    Cli, ColorChoice, Command, DecodeArgs, ExportArgs, ExportFormat, InfoArgs, RenderArgs,
    RenderFormat, SolutionFormat, SolveArgs,
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
        Command::Export(args) => export(args, quiet),
        Command::Decode(args) => decode(args, quiet),
        Command::Generate(args) => crate::generate::run_cli(&args, quiet).map(found),
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
    // Threads pay off on whole trees (--count, --all); a limited listing stops after a few
    // hundred nodes, where splitting the tree costs more than it saves (Tetris Cube first
    // solution: 12 ms for the whole process on one thread, 32 ms on two).
    let threads = if !(args.count || args.all) {
        1
    } else if args.threads == 0 {
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
        sat_cubes: args.cubes,
        ..RunOptions::default()
    };
    let progress = Arc::new(Progress::new());
    solver::install_interrupt(progress.clone());
    let opts = RunOptions {
        progress: Some(progress),
        ..opts
    };
    let mut out = output(args.out.as_deref())?;
    // Long runs (counts and --all) show progress on stderr unless --quiet; the exact engine
    // and the SAT engine's cubes publish the counters and the tree estimate the display
    // needs (the DLX baseline does not).
    let shows = opts.engine.resolve() != solver::EngineChoice::Dlx;
    let reporter = (!quiet && shows && (args.count || args.all))
        .then(|| {
            opts.progress
                .clone()
                .map(|p| crate::progress::Reporter::start(p, inst.puzzle.name.clone()))
        })
        .flatten();
    if args.count {
        let report = solver::count(&inst, &opts);
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

/// A placement described for comments: piece, orientation and cells in container coordinates.
fn placement_label(inst: &Instance, o: usize) -> String {
    let p = &inst.table.placements()[o];
    let t = &inst.puzzle.target;
    let cells: Vec<String> = p
        .cells
        .iter()
        .map(|&c| {
            let (ci, l) = t.local(c);
            if t.containers().len() > 1 {
                format!("{ci}:{},{},{}", l[0], l[1], l[2])
            } else {
                format!("{},{},{}", l[0], l[1], l[2])
            }
        })
        .collect();
    format!(
        "piece={} orient={} cells={}",
        inst.puzzle.pieces[p.piece as usize].name,
        p.orientation,
        cells.join(" ")
    )
}

fn export(args: ExportArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = library::load(args.puzzle.puzzle.as_deref())?;
    let inst = Instance::new(puzzle)?;
    let (puzzle, table) = (&inst.puzzle, &inst.table);
    if args.up_to == UpTo::RotationReflection {
        anyhow::bail!(
            "export counts every placement (--up-to none) or, where one piece's restriction is exact, one solution per rotation class (--up-to rotation); reflections are left to `cubesat solve`"
        );
    }
    let reducer = Reducer::new(puzzle, table, args.up_to, false)?;
    if args.up_to == UpTo::Rotation && !reducer.restriction_is_exact() {
        anyhow::bail!(
            "'{}': restricting one piece does not leave exactly one solution per rotation class here ({}), so an external count would not be the count up to rotation; export with --up-to none, or count with `cubesat solve --count`",
            puzzle.name,
            reducer.describe(puzzle)
        );
    }
    let excluded = reducer.excluded();
    let reduction = reducer.describe(puzzle);
    let mut out = output(args.out.as_deref())?;
    match args.format {
        ExportFormat::Dimacs => {
            let mut prov = Vec::new();
            crate::export::provenance::write_header(
                &mut prov, "", puzzle, table, args.up_to, excluded,
            )?;
            let mut header = vec![
                format!("DIMACS CNF written by cubesat {} for the puzzle '{}'.", env!("CARGO_PKG_VERSION"), puzzle.name),
                format!("Models are the puzzle's solutions, counted: {reduction}."),
                "Variable v (1-based) is placement v-1 (map below); higher variables are auxiliary.".to_string(),
                "Project model counts on the 'c p show' / 'c ind' variables. Decode answers with: cubesat decode THIS-FILE ANSWER".to_string(),
            ];
            header.extend(String::from_utf8_lossy(&prov).lines().map(str::to_string));
            let labels: Vec<String> = (0..table.len())
                .map(|o| placement_label(&inst, o))
                .collect();
            let config = crate::encoding::CnfConfig {
                amo: args.amo,
                ..crate::encoding::CnfConfig::default()
            };
            let stats = crate::export::dimacs::write(
                &mut out,
                &inst.model,
                config,
                &header,
                &labels,
                excluded,
            )?;
            if !quiet {
                eprintln!(
                    "cubesat: DIMACS: {} option variables, {} variables, {} clauses ({} at-most-one)",
                    stats.option_vars,
                    stats.variables,
                    stats.clauses,
                    args.amo.name()
                );
            }
        }
        ExportFormat::Dlx => crate::export::dlx::write_dlx(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
        ExportFormat::Asp => crate::export::asp::write_asp(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
    }
    out.flush()?;
    Ok(Outcome::Found)
}

fn decode(args: DecodeArgs, quiet: bool) -> Result<Outcome> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).with_context(|| format!("{}: cannot read", p.display()))
    };
    let instance = read(&args.instance)?;
    let answer = read(&args.answer)?;
    let d = crate::export::answer::decode(&instance, &answer)
        .with_context(|| format!("{} with {}", args.instance.display(), args.answer.display()))?;
    let color = use_color(args.color, false);
    let mut out = output(None)?;
    let mut scenes = Vec::new();
    for (i, s) in d.solutions.iter().enumerate() {
        let title = format!("{}, solution {}", d.puzzle.name, i + 1);
        match args.format {
            SolutionFormat::Text => {
                if i > 0 {
                    writeln!(out)?;
                }
                write!(
                    out,
                    "{}",
                    render::text(&scene(&d.puzzle, &d.table, s, &title, false), color)
                )?;
            }
            SolutionFormat::Json => {
                let sol = Solution {
                    placements: s.clone(),
                };
                writeln!(
                    out,
                    "{}",
                    solution_json(&d.puzzle, &d.table, &sol, i as u64 + 1)
                )?;
            }
            SolutionFormat::Svg | SolutionFormat::Html => {
                scenes.push(scene(&d.puzzle, &d.table, s, &title, false))
            }
        }
    }
    match args.format {
        SolutionFormat::Svg if !scenes.is_empty() => {
            write!(out, "{}", render::svg(&scenes[0], false))?
        }
        SolutionFormat::Html if !scenes.is_empty() => write!(out, "{}", render::html(&scenes))?,
        SolutionFormat::Text if d.solutions.is_empty() => {
            writeln!(out, "no solution ({:?})", d.status)?
        }
        _ => {}
    }
    out.flush()?;
    if !quiet {
        eprintln!(
            "cubesat: decoded {} from a {:?} answer ({:?}); each verified; {} counted {}",
            plural(d.solutions.len() as u64, "solution"),
            d.kind,
            d.status,
            d.counted(),
            d.mode.phrase()
        );
    }
    Ok(found(!d.solutions.is_empty()))
}
