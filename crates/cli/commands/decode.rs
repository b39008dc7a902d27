//! `cubesat decode`: an external solver's answer read back as verified solutions.

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::report::plural;

use crate::args::{DecodeArgs, SolutionFormat};
use crate::sink;

use super::{Outcome, found, output, read_input, use_color};

/// `cubesat decode INSTANCE ANSWER`: the answer's solutions, each verified, in the chosen
/// format.
pub fn run(args: DecodeArgs, quiet: bool) -> Result<Outcome> {
    let instance = read_input(&args.instance)?;
    let answer = read_input(&args.answer)?;
    let d = cubesat::interop::answer::decode(&instance, &answer)
        .with_context(|| format!("{} with {}", args.instance.display(), args.answer.display()))?;
    let color = use_color(args.color, false);
    let mut out = output(None)?;
    let mut sink = sink::sink(args.format, color, false);
    sink::show_all(&mut *sink, &mut out, &d.puzzle, &d.table, &d.solutions)?;
    if args.format == SolutionFormat::Text && d.solutions.is_empty() {
        writeln!(out, "no solution ({:?})", d.status)?;
    }
    out.finish()?;
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
