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

use crate::error::{Context, Result};

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

/// What the solver said about satisfiability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// At least one solution exists.
    Sat,
    /// No solution exists.
    Unsat,
    /// The solver did not say (interrupted, or its output does not tell).
    Unknown,
}

/// A parsed answer before verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedAnswer {
    /// The solver's verdict.
    pub status: Status,
    /// Every solution found in the answer: placement indices, ascending.
    pub solutions: Vec<Vec<u32>>,
    /// The number of solutions the solver reports (clingo's `Models`, DLX's `Altogether`).
    pub reported_count: Option<u64>,
    /// Whether the solver says it enumerated everything (`Some(false)` for clingo's `N+`).
    pub complete: Option<bool>,
    /// Where each solution is in the answer (`line 12`, `Call[0].Witnesses[3]`), for messages.
    pub places: Vec<String>,
    /// Models left out because they give the same placements as an earlier model (SAT models
    /// that differ only in auxiliary variables: one solution, counted once).
    pub repeats: u64,
}
