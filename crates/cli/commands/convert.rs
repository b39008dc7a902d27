//! `cubesat convert IN OUT`: a puzzle between cubesat JSON and BurrTools files, the format chosen by OUT's extension.

use std::io::Write;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use cubesat::Puzzle;
use cubesat::interop::xmpuzzle;
use cubesat::puzzle::{burrtools, json};

use crate::args::ConvertArgs;

use super::{Outcome, output};

pub fn run(args: ConvertArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::open_puzzle(Some(&args.input))?.puzzle(args.problem.as_deref())?;
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let (out_shown, in_shown) = (args.output.display(), args.input.to_string_lossy());
    let burr = |r: cubesat::Result<Vec<u8>>| {
        r.with_context(|| {
            format!("{in_shown}: cannot be written as a BurrTools file ({out_shown})")
        })
    };
    let bytes = match ext.as_deref() {
        Some("json") => {
            let mut s = serde_json::to_string_pretty(&json::to_value(&puzzle))?;
            s.push('\n');
            s.into_bytes()
        }
        Some("xmpuzzle") => burr(xmpuzzle::to_xmpuzzle(&puzzle))?,
        Some("xml") => burr(xmpuzzle::to_xml(&puzzle).map(String::into_bytes))?,
        _ => bail!("{out_shown}: unknown output format (use .json, .xmpuzzle or .xml)"),
    };
    read_back(&bytes, ext.as_deref() == Some("json"), &puzzle).with_context(|| {
        format!("{in_shown}: not written to {out_shown}: cubesat could not read the file back")
    })?;
    let mut out = output(Some(&args.output))?;
    out.write_all(&bytes)?;
    out.finish()?;
    if !quiet {
        for n in &puzzle.notes {
            say!("note: {n}");
        }
        say!(
            "wrote '{}' to {out_shown}",
            cubesat::echo::echo(&puzzle.name)
        );
    }
    Ok(Outcome::Found)
}

/// Reads `bytes` back as cubesat reads a puzzle file of that format, within the same size
/// bounds, and checks that it says the same as `puzzle`: cubesat never writes a file it cannot
/// read. A BurrTools file carries no letters, known counts or name of its own, so only what it
/// can express is compared (the target, the pieces' shapes, counts and colours, the colour rule,
/// `maxHoles`).
fn read_back(bytes: &[u8], is_json: bool, puzzle: &Puzzle) -> Result<()> {
    let limit = if is_json {
        json::MAX_FILE_BYTES
    } else {
        burrtools::MAX_FILE_BYTES
    };
    if bytes.len() as u64 > limit {
        bail!(
            "it would be {} bytes, more than the {limit} bytes cubesat reads",
            bytes.len()
        );
    }
    let (again, keys): (Puzzle, &[&str]) = if is_json {
        let text = std::str::from_utf8(bytes)?;
        (json::parse_puzzle(text, &puzzle.name)?, &[])
    } else {
        let file = burrtools::parse(bytes, "the written file")?;
        (file.puzzle(0)?, &["grid", "pieces", "max_holes"])
    };
    let core = |p: &Puzzle| -> Value {
        let v = json::to_value(p);
        if keys.is_empty() {
            return v;
        }
        let mut o = serde_json::Map::new();
        for k in keys {
            let mut x = v.get(*k).cloned().unwrap_or(Value::Null);
            // Pieces are compared by shape, count and colours: names and letters are labels.
            for piece in x.as_array_mut().into_iter().flatten() {
                if let Some(m) = piece.as_object_mut() {
                    m.remove("name");
                    m.remove("letter");
                }
            }
            o.insert((*k).to_string(), x);
        }
        Value::Object(o)
    };
    // A BurrTools file holds each container in a box from the origin: the target is the same
    // moved by one of the grid's translations.
    let same_target = is_json || placed_target(&again) == placed_target(puzzle);
    if core(&again) != core(puzzle) || !same_target {
        bail!("it reads back as a different puzzle (a bug in cubesat's writer)");
    }
    Ok(())
}

/// Per container, its cells moved to the grid's normal position, each with whether it is
/// optional and its colour, sorted.
fn placed_target(p: &Puzzle) -> Vec<Vec<(cubesat::geometry::Cell, bool, u8)>> {
    let t = &p.target;
    t.containers()
        .iter()
        .map(|c| {
            let pos: Vec<_> = c.cells.iter().map(|&i| t.cells()[i as usize].pos).collect();
            let off = t.grid().normal_offset(&pos).unwrap_or([0; 3]);
            let mut v: Vec<_> = c
                .cells
                .iter()
                .map(|&i| {
                    let tc = t.cells()[i as usize];
                    let at = [0, 1, 2].map(|a| tc.pos[a] - off[a]);
                    (at, tc.optional, t.colour(i))
                })
                .collect();
            v.sort_unstable();
            v
        })
        .collect()
}
