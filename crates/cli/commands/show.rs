//! `cubesat show`: a puzzle's pieces and target drawn on their own (text, SVG or HTML), to check a puzzle file by eye before solving it.

use std::io::Write;

use anyhow::{Result, bail};

use cubesat::echo::echo;
use cubesat::render;
use cubesat::report::{piece_scene, sheet_scene, target_art};
use cubesat::run::Instance;

use crate::args::{ShowArgs, ShowFormat};

use super::{Outcome, load_puzzle, output, use_color};

/// `cubesat show PUZZLE [--piece NAME]`: every piece (or one) as layers, then the target with
/// its hints; SVG and HTML draw the target with the pieces beside it.
pub fn run(args: ShowArgs) -> Result<Outcome> {
    let puzzle = load_puzzle(&args.puzzle)?;
    super::warn_same_shapes(&puzzle);
    let which: Vec<usize> = match &args.piece {
        Some(name) => match puzzle.piece_index(name) {
            Some(i) => vec![i],
            None => bail!(
                "--piece {}: no piece of that name in '{}' (pieces: {})",
                echo(name),
                echo(&puzzle.name),
                cubesat::echo::list(puzzle.pieces.iter().map(|p| &p.name), ", ")
            ),
        },
        None => (0..puzzle.pieces.len()).collect(),
    };
    let inst = Instance::new(puzzle)?;
    let p = &inst.puzzle;
    let title = |i: usize| {
        let piece = &p.pieces[i];
        let copies = if piece.count > 1 {
            format!(", {} copies", piece.count)
        } else {
            String::new()
        };
        format!(
            "piece '{}' ({}): {}{copies}",
            piece.name,
            piece.letter,
            cubesat::report::plural(piece.shape.len() as u64, "cell")
        )
    };
    let mut out = output(args.out.as_deref())?;
    let hints = inst.table.hints().to_vec();
    match args.format {
        ShowFormat::Text => {
            let color = use_color(args.color, args.out.is_some());
            for (k, &i) in which.iter().enumerate() {
                if k > 0 {
                    writeln!(out)?;
                }
                write!(
                    out,
                    "{}",
                    render::text(&piece_scene(p, i, &title(i)), color)
                )?;
            }
            if args.piece.is_none() {
                // The target in the file's own symbols, so that it can be pasted back.
                let art = target_art(p, &inst.table, &hints, &format!("{}: target", p.name));
                write!(out, "\n{art}")?;
            }
        }
        ShowFormat::Svg | ShowFormat::Html => {
            let scene = if args.piece.is_some() {
                piece_scene(p, which[0], &title(which[0]))
            } else {
                // The target with its hints, and every piece beside it.
                let mut s = sheet_scene(p, &inst.table, &hints, &p.name);
                s.title = format!("{}: target and pieces", p.name);
                s
            };
            if args.format == ShowFormat::Svg {
                write!(out, "{}", render::svg(&scene, false))?;
            } else {
                write!(out, "{}", render::html(&[scene]))?;
            }
        }
    }
    out.flush()?;
    for why in inst.table.obstacles(p) {
        say!("no solution: {why}");
    }
    Ok(Outcome::Found)
}
