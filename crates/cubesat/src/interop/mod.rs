//! Exchanging instances with external solvers, one module per format that both writes and reads: DIMACS CNF with SAT-solver answers ([`dimacs`], [`sat`]), Knuth's DLX format ([`dlx`]), clingo programs ([`asp`]); [`answer`] decodes any of their answers back into verified solutions.
//!
//! Every exported file carries its provenance in comments ([`provenance`]): the puzzle, the
//! counting mode and the excluded placements, so `cubesat decode INSTANCE ANSWER` needs no
//! other file.

pub mod answer;
pub mod asp;
pub mod dimacs;
pub mod dlx;
pub mod provenance;
pub mod sat;
pub mod xmpuzzle;

use anyhow::{Context, Result};

use crate::counting::{Reducer, UpTo};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;

/// Runs one format's writer on `puzzle` in `mode` (the symmetry reduction of [`Reducer`] with
/// `counting` off, so `none` excludes nothing) and returns the text. The writer receives the
/// placements, the mode, the excluded placements and a description of the reduction.
pub fn to_text(
    puzzle: &Puzzle,
    mode: UpTo,
    write: impl FnOnce(&mut Vec<u8>, &Puzzle, &PlacementTable, UpTo, &[u32], &str) -> Result<()>,
) -> Result<String> {
    let table = PlacementTable::new(puzzle)?;
    let reducer = Reducer::new(puzzle, &table, mode, false)?;
    let mut out = Vec::new();
    write(
        &mut out,
        puzzle,
        &table,
        mode,
        reducer.excluded(),
        &reducer.describe(puzzle),
    )?;
    String::from_utf8(out).context("exported text is not UTF-8")
}
