//! `cubesat decode`: an external solver's answer read back as verified solutions.

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::render;
use cubesat::report::{plural, scene, solution_json};
use cubesat::solution::Solution;

use crate::args::{DecodeArgs, SolutionFormat};

use super::{Outcome, found, output, use_color};

pub fn run(args: DecodeArgs, quiet: bool) -> Result<Outcome> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).with_context(|| format!("{}: cannot read", p.display()))
    };
    let instance = read(&args.instance)?;
    let answer = read(&args.answer)?;
    let d = cubesat::interop::answer::decode(&instance, &answer)
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
