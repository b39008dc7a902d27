//! `cubesat render`: saved JSON Lines solutions drawn as SVG or HTML.

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::render;
use cubesat::report::{read_solutions_jsonl, scene};

use crate::args::{RenderArgs, RenderFormat};

use super::{Outcome, output};

pub fn run(args: RenderArgs) -> Result<Outcome> {
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
