//! `cubesat list`: the bundled puzzles, one line each.

use std::io::Write;

use anyhow::Result;

use cubesat::puzzle::{self, BUNDLED};

use super::{Outcome, output};

/// `cubesat list`: one line per bundled puzzle.
pub fn run() -> Result<Outcome> {
    let mut out = output(None)?;
    for (name, _) in BUNDLED {
        let p = puzzle::bundled(name)?;
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
    out.finish()?;
    Ok(Outcome::Found)
}
