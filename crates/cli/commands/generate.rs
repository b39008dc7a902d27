//! `cubesat generate`: a seeded puzzle with hint pieces, printed and optionally written as a puzzle file.

use std::io::Write;

use anyhow::{Context, Result};

use std::time::Instant;

use cubesat::challenge::book;
use cubesat::challenge::{SetOptions, make_set};
use cubesat::generate::{Failure, GenerateOptions, Generated, generate};
use cubesat::render;
use cubesat::report::{piece_scene, pieces_to_place, plural, scene, sheet_scene};
use serde_json::json;

use crate::args::{GenerateArgs, GenerateFormat, Paper};

use super::{Outcome, output, use_color};

/// The puzzle sheet as text: the target with its hint pieces, then each piece still to place
/// drawn on its own.
fn sheet_text(g: &Generated, title: &str, color: bool) -> String {
    let p = &g.instance.puzzle;
    let t = &g.instance.table;
    let mut s = render::text(&scene(p, t, &g.solution, title, true), color);
    let left = pieces_to_place(p, t, &g.solution);
    s.push_str(&format!(
        "\npieces to place ({}):\n",
        left.iter().map(|&(_, n)| n as u64).sum::<u64>()
    ));
    for (k, (i, n)) in left.into_iter().enumerate() {
        let piece = &p.pieces[i];
        let copies = if n > 1 {
            format!(", {n} copies")
        } else {
            String::new()
        };
        let title = format!(
            "piece '{}' ({}{copies})",
            piece.name,
            plural(piece.shape.len() as u64, "cell")
        );
        if k > 0 {
            s.push('\n');
        }
        s.push_str(&render::text(&piece_scene(p, i, &title), color));
    }
    s
}

/// `cubesat generate`: prints the puzzle and solution (text or JSON) on stdout, writes the
/// puzzle file with `--out`, statistics on stderr.
pub fn run(args: &GenerateArgs, quiet: bool) -> Result<Outcome> {
    if let Some(n) = args.set {
        return run_set(args, n, quiet);
    }
    let start = Instant::now();
    // clap requires one of --hints and --set.
    let hints = args.hints.unwrap_or_default();
    let puzzle = super::load_puzzle(&args.puzzle)?;
    super::warn_same_shapes(&puzzle);
    let opts = GenerateOptions {
        hints,
        seed: args.seed,
        unique: args.unique,
        ..GenerateOptions::default()
    };
    let outcome = generate(puzzle, &opts).map_err(|e| match e.root() {
        cubesat::Error::Unsupported {
            request: cubesat::Request::Hints,
            ..
        } => anyhow::anyhow!("--hints {hints}: {e}"),
        _ => e.into(),
    })?;
    let mut out = output(None)?;
    match outcome {
        Ok(g) => {
            if let Some(path) = &args.out {
                let text = cubesat::puzzle::json::to_file_string(&g.instance.puzzle);
                let mut file = output(Some(path))?;
                file.write_all(text.as_bytes())?;
                file.finish()?;
            }
            write_generated(&mut out, args, &g, &opts)?;
            out.finish()?;
            if !quiet {
                say_generated(&g, &opts, start);
            }
            Ok(Outcome::Found)
        }
        Err((failure, stats)) => {
            write_failure(&mut out, args, &failure, &opts)?;
            out.finish()?;
            if !quiet {
                say!(
                    "no puzzle met the request: {} seeded solutions, {} uniqueness checks ({:.3} s), {} greedy counts; {:.3} s",
                    stats.solutions_drawn,
                    stats.checks,
                    stats.check_time.as_secs_f64(),
                    stats.greedy_counts,
                    start.elapsed().as_secs_f64()
                );
            }
            Ok(Outcome::NoneFound)
        }
    }
}

/// `cubesat generate --set N --out DIR`: makes the challenge set, writes its files into DIR
/// (each replacing its old self only when written whole), lists them on stdout, progress
/// and statistics on stderr.
fn run_set(args: &GenerateArgs, n: usize, quiet: bool) -> Result<Outcome> {
    let start = Instant::now();
    let opts =
        SetOptions::new(n, args.levels.as_deref(), args.seed).map_err(|e| match e.root() {
            cubesat::Error::Unsupported {
                request: cubesat::Request::Levels,
                ..
            } => anyhow::anyhow!("--levels: {e}"),
            _ => anyhow::anyhow!("--set {n}: {e}"),
        })?;
    let dir = args.out.as_deref().ok_or_else(|| {
        anyhow::anyhow!("--set needs --out DIR, the folder to write the set into")
    })?;
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "{}: not a folder (--out with --set names the folder to write the set into)",
            dir.display()
        );
    }
    let puzzle = super::load_puzzle(&args.puzzle)?;
    super::warn_same_shapes(&puzzle);
    let mut level = usize::MAX;
    let set = make_set(puzzle, &opts, None, &mut |p| {
        if !quiet && p.level != level {
            level = p.level;
            say!(
                "challenge set: drawing level {} of {} ({} candidates so far, {})",
                p.level + 1,
                p.levels,
                p.found,
                plural(p.draws, "seeded solution")
            );
        }
    })
    .map_err(|e| match e.root() {
        cubesat::Error::Unsupported {
            request: cubesat::Request::Set,
            ..
        } => anyhow::anyhow!("--set {n}: {e}"),
        _ => e.into(),
    })?;
    let paper = match args.paper {
        Paper::A4 => book::Paper::A4,
        Paper::Letter => book::Paper::Letter,
    };
    let files = book::files(&set, paper)?;
    std::fs::create_dir_all(dir.join("challenges")).with_context(|| {
        format!(
            "{}: cannot create the folder",
            dir.join("challenges").display()
        )
    })?;
    let mut out = output(None)?;
    for (name, bytes) in &files {
        let path = dir.join(name);
        let mut file = output(Some(&path))?;
        file.write_all(bytes)?;
        file.finish()?;
        writeln!(out, "{}", path.display())?;
    }
    out.finish()?;
    if !quiet {
        for (k, name) in set.levels.iter().enumerate() {
            let cs: Vec<_> = set.challenges.iter().filter(|c| c.level == k).collect();
            let nodes: Vec<u64> = cs.iter().map(|c| c.figures.nodes).collect();
            let left: Vec<u32> = cs.iter().map(|c| c.figures.pieces_left).collect();
            say!(
                "level {name}: {}, {}-{} pieces to place, difficulty {}-{} nodes{}",
                plural(cs.len() as u64, "challenge"),
                left.iter().min().unwrap_or(&0),
                left.iter().max().unwrap_or(&0),
                nodes.iter().min().unwrap_or(&0),
                nodes.iter().max().unwrap_or(&0),
                if k + 1 == set.levels.len() {
                    ", minimal hints"
                } else {
                    ""
                }
            );
        }
        say!(
            "challenge set of {}: {}, {} uniqueness checks, {} duplicates up to {} dropped; {:.3} s",
            plural(set.challenges.len() as u64, "challenge"),
            plural(set.stats.draws, "seeded solution"),
            set.stats.checks,
            set.stats.duplicates,
            plural(set.stats.symmetries as u64, "symmetry"),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(Outcome::Found)
}

/// The generated puzzle on stdout in the format asked for: the sheet, and the solution
/// unless `--no-solution`.
fn write_generated(
    out: &mut impl Write,
    args: &GenerateArgs,
    g: &Generated,
    opts: &GenerateOptions,
) -> Result<()> {
    let p = &g.instance.puzzle;
    let t = &g.instance.table;
    let sheet_title = format!("{}: puzzle", p.name);
    let solution = || scene(p, t, &g.solution, &format!("{}: solution", p.name), false);
    match args.format {
        GenerateFormat::Text => {
            let color = use_color(args.color, false);
            write!(out, "{}", sheet_text(g, &sheet_title, color))?;
            if !args.no_solution {
                write!(out, "\n{}", render::text(&solution(), color))?;
            }
        }
        GenerateFormat::Json => {
            let mut v = g.to_json(opts);
            if args.no_solution
                && let Some(o) = v.as_object_mut()
            {
                o.remove("solution");
            }
            writeln!(out, "{v}")?
        }
        GenerateFormat::Svg => write!(
            out,
            "{}",
            render::svg(&sheet_scene(p, t, &g.solution, &sheet_title), false)
        )?,
        GenerateFormat::Html => {
            let mut scenes = vec![sheet_scene(p, t, &g.solution, &sheet_title)];
            if !args.no_solution {
                scenes.push(solution());
            }
            write!(out, "{}", render::html(&scenes))?
        }
    }
    Ok(())
}

/// Why no puzzle met the request, in the format asked for.
fn write_failure(
    out: &mut impl Write,
    args: &GenerateArgs,
    failure: &Failure,
    opts: &GenerateOptions,
) -> Result<()> {
    match args.format {
        GenerateFormat::Text | GenerateFormat::Svg | GenerateFormat::Html => {
            writeln!(out, "no puzzle: {}", failure.describe())?
        }
        GenerateFormat::Json => {
            let mut v = json!({
                "type": "none",
                "reason": failure.describe(),
                "seed": opts.seed,
                "hints": opts.hints,
            });
            if let Failure::NotUnique {
                smallest,
                smallest_proven,
                ..
            } = failure
            {
                v["smallest_hints"] = json!(smallest);
                v["smallest_proven"] = json!(smallest_proven);
            }
            writeln!(out, "{v}")?;
        }
    }
    Ok(())
}

/// The statistics of a generated puzzle on stderr.
fn say_generated(g: &Generated, opts: &GenerateOptions, start: Instant) {
    say!(
        "generated '{}': {} from seeded solution {} of {}; {}; difficulty {} nodes to the first solution ({} nodes to count); {} uniqueness checks ({:.3} s), {} greedy counts; {:.3} s",
        cubesat::echo::echo(&g.instance.puzzle.name),
        plural(opts.hints as u64, "hint piece"),
        g.solution_index,
        g.stats.solutions_drawn,
        g.completions.describe(),
        g.difficulty,
        g.count_nodes,
        g.stats.checks,
        g.stats.check_time.as_secs_f64(),
        g.stats.greedy_counts,
        start.elapsed().as_secs_f64()
    );
}
