//! `cubesat render`: saved JSON Lines solutions drawn as text, SVG or HTML.

use anyhow::{Context, Result, bail};

use cubesat::report::read_solutions_jsonl;

use crate::args::{RenderArgs, RenderFormat, SolutionFormat};
use crate::sink::{self, Shown};

use super::{Outcome, output, read_input};

/// `cubesat render FILE`: saved JSON Lines solutions drawn as text (all), SVG (one: the first,
/// said on stderr, or `--solution N`) or HTML (all, or solution N).
pub fn run(args: RenderArgs) -> Result<Outcome> {
    let shown = if args.solutions.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        args.solutions.display().to_string()
    };
    let text = read_input(&args.solutions)?;
    let (inst, solutions) = read_solutions_jsonl(&text).with_context(|| shown.clone())?;
    if solutions.is_empty() {
        bail!("{shown}: holds no solution to render");
    }
    let picked: Vec<usize> = match args.solution {
        Some(n) if n as usize > solutions.len() => bail!(
            "--solution {n}: {shown} holds {} solution{}",
            solutions.len(),
            if solutions.len() == 1 { "" } else { "s" }
        ),
        Some(n) => vec![n as usize - 1],
        None => (0..solutions.len()).collect(),
    };
    let mut picked = picked;
    if args.format == RenderFormat::Svg && picked.len() > 1 {
        say!(
            "note: the SVG shows solution 1 of {}; --solution N draws another, --format html shows them all",
            picked.len()
        );
        picked.truncate(1);
    }
    let format = match args.format {
        RenderFormat::Text => SolutionFormat::Text,
        RenderFormat::Svg => SolutionFormat::Svg,
        RenderFormat::Html => SolutionFormat::Html,
    };
    let mut out = output(args.out.as_deref())?;
    let mut sink = sink::sink(format, false, args.explode);
    for i in picked {
        let shown = Shown::nth(&inst.puzzle, &inst.table, &solutions[i], i as u64 + 1);
        sink.solution(&mut out, &shown)?;
    }
    sink.finish(&mut out)?;
    out.finish()?;
    Ok(Outcome::Found)
}
