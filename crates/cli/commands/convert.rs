//! `cubesat convert IN OUT`: a puzzle between cubesat JSON and BurrTools files, the format chosen by OUT's extension.

use std::io::Write;

use anyhow::{Result, bail};

use cubesat::interop::xmpuzzle;
use cubesat::puzzle;

use crate::args::ConvertArgs;

use super::{Outcome, output};

pub fn run(args: ConvertArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = puzzle::load_with(Some(&args.input), args.problem.as_deref())?;
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let bytes = match ext.as_deref() {
        Some("json") => {
            let mut s = serde_json::to_string_pretty(&puzzle::json::to_value(&puzzle))?;
            s.push('\n');
            s.into_bytes()
        }
        Some("xmpuzzle") => xmpuzzle::to_xmpuzzle(&puzzle)?,
        Some("xml") => xmpuzzle::to_xml(&puzzle)?.into_bytes(),
        _ => bail!(
            "{}: unknown output format (use .json, .xmpuzzle or .xml)",
            args.output.display()
        ),
    };
    let mut out = output(Some(&args.output))?;
    out.write_all(&bytes)?;
    out.finish()?;
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
        say!(
            "wrote '{}' to {}",
            cubesat::echo::echo(&puzzle.name),
            args.output.display()
        );
    }
    Ok(Outcome::Found)
}
