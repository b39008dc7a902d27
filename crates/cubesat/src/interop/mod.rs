//! Exchanging instances with external solvers, one module per format that both writes and reads: DIMACS CNF with SAT-solver answers ([`dimacs`], [`sat`]), Knuth's DLX format ([`dlx`]), clingo programs ([`asp`]); [`answer`] decodes any of their answers back into verified solutions. BurrTools files ([`xmpuzzle`]) and plain placement lists ([`placements`]) are written only.
//!
//! [`export`] is the one door to every format for every front end: [`ExportFormat`] (name,
//! extension, media type, writer) and [`Export`] (a puzzle's export checked, ready to stream).
//!
//! Every exported file carries its provenance in comments ([`provenance`]): the puzzle, the
//! counting mode and the excluded placements, so `cubesat decode INSTANCE ANSWER` needs no
//! other file.

pub mod answer;
pub mod asp;
pub mod dimacs;
pub mod dlx;
pub mod export;
pub mod format;
pub mod placements;
pub mod provenance;
pub mod sat;
pub mod xmpuzzle;

pub use export::{Export, ExportFormat};

use std::io::Write;

use crate::error::{Context, Result};

use crate::counting::UpTo;
use crate::plan::{ExportPlan, ExportSettings};
use crate::puzzle::Puzzle;
use crate::run::Instance;

/// Runs one format's writer on `puzzle` in `mode` and returns the text: the plan of
/// [`ExportPlan::unchecked`] (any mode is written, and `none` excludes nothing), with the
/// default CNF settings.
pub fn to_text(
    puzzle: &Puzzle,
    mode: UpTo,
    write: impl FnOnce(&mut dyn Write, &ExportPlan) -> Result<()>,
) -> Result<String> {
    let settings = ExportSettings {
        up_to: mode,
        ..ExportSettings::default()
    };
    let plan = ExportPlan::unchecked(Instance::new(puzzle.clone())?, settings)?;
    let mut out = Vec::new();
    write(&mut out, &plan)?;
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
