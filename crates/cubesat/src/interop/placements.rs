//! A plain-text placement list: one line per option of the instance, its number, piece and
//! cells, behind `#` comments that say how to read it. For a script or a spreadsheet, not for a
//! solver (nothing reads it back).

use std::collections::HashSet;
use std::io::Write;

use crate::error::Result;
use crate::interop::format::{Format, Writer};
use crate::plan::ExportPlan;

/// The format as `cubesat export` and the studio offer it.
pub const FORMAT: Format = Format {
    name: "placements",
    extension: "txt",
    mime: "text/plain; charset=utf-8",
    about: "A plain-text list of the placements, one line each: number, piece, cells",
    writer: Writer::Instance(|plan, out, _| write_placements(out, plan)),
};

/// Writes the plan's placement list: the comment header, then one line per placement that the
/// plan's reduction keeps, tab-separated: the placement's number (cubesat's option index), the
/// piece's name, the container and the cells as `x,y,z` in the container's coordinates (as a
/// puzzle file and a solution's JSON give them).
pub fn write_placements(out: &mut dyn Write, plan: &ExportPlan) -> Result<()> {
    let (puzzle, table) = (plan.puzzle(), plan.table());
    let excluded = plan.excluded();
    let kept = table.len() - excluded.len();
    for line in [
        format!(
            "Placement list written by cubesat {} for the puzzle '{}'.",
            env!("CARGO_PKG_VERSION"),
            puzzle.name
        ),
        format!(
            "{kept} placements ({} left out), counted: {}.",
            excluded.len(),
            plan.reduction
        ),
        "One line per placement, tab-separated: its number (cubesat's option), the piece, the container (from 0), then the cells it covers as x,y,z in the container's coordinates.".into(),
        "A solution chooses placements that cover every must-fill cell once and every optional cell at most once, and uses each piece its number of times.".into(),
    ] {
        writeln!(out, "# {}", line.replace(['\n', '\r'], " "))?;
    }
    if !table.hints().is_empty() {
        let hints: Vec<String> = table.hints().iter().map(u32::to_string).collect();
        writeln!(out, "# Hints, in every solution: {}.", hints.join(" "))?;
    }
    let excluded: HashSet<u32> = excluded.iter().copied().collect();
    for (o, p) in table.placements().iter().enumerate() {
        if excluded.contains(&(o as u32)) {
            continue;
        }
        let name = puzzle.pieces[p.piece as usize]
            .name
            .replace(['\t', '\n', '\r'], " ");
        let mut container = 0;
        let cells: Vec<String> = p
            .cells
            .iter()
            .map(|&c| {
                let (ci, l) = puzzle.target.user_local(c);
                container = ci;
                format!("{},{},{}", l[0], l[1], l[2])
            })
            .collect();
        writeln!(out, "{o}\t{name}\t{container}\t{}", cells.join(" "))?;
    }
    Ok(())
}
