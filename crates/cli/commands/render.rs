//! `cubesat render`: saved JSON Lines solutions drawn as SVG or HTML.

use anyhow::{Context, Result};

use cubesat::report::read_solutions_jsonl;

use crate::args::{RenderArgs, RenderFormat, SolutionFormat};
use crate::sink;

use super::{Outcome, output, read_input};

/// `cubesat render FILE`: saved JSON Lines solutions drawn as SVG (the first) or HTML (all).
pub fn run(args: RenderArgs) -> Result<Outcome> {
    let shown = args.solutions.display().to_string();
    let text = read_input(&args.solutions)?;
    let (inst, solutions) = read_solutions_jsonl(&text).with_context(|| shown.clone())?;
    if solutions.is_empty() {
        anyhow::bail!("{shown}: holds no solution to render");
    }
    let format = match args.format {
        RenderFormat::Svg => SolutionFormat::Svg,
        RenderFormat::Html => SolutionFormat::Html,
    };
    let mut out = output(args.out.as_deref())?;
    let mut sink = sink::sink(format, false, args.explode);
    sink::show_all(&mut *sink, &mut out, &inst.puzzle, &inst.table, &solutions)?;
    out.finish()?;
    Ok(Outcome::Found)
}
