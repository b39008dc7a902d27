//! What an export format is: its [`Format`] record (name, extension, media type, writer),
//! which each format's module defines and [`super::export::ExportFormat`] lists.

use std::io::Write;

use cubesat_xc::encoding::CnfStats;

use crate::error::Result;
use crate::plan::ExportPlan;
use crate::puzzle::Puzzle;

/// What a format is and how it is written.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The name a user types (`dimacs`).
    pub name: &'static str,
    /// The file extension, without the dot (`cnf`).
    pub extension: &'static str,
    /// The media type of a download.
    pub mime: &'static str,
    /// One line for help texts.
    pub about: &'static str,
    /// The writer.
    pub writer: Writer,
}

/// A format's writer.
#[derive(Clone, Copy, Debug)]
pub enum Writer {
    /// Writes the puzzle alone (a puzzle file for another program): no instance, no counting
    /// mode.
    Puzzle(PuzzleWriter),
    /// Writes the plan's instance.
    Instance(InstanceWriter),
}

/// Writes a puzzle file.
pub type PuzzleWriter = fn(&Puzzle, &mut dyn Write) -> Result<()>;

/// Writes a plan's instance; the callback hears the sizes of a CNF before its clauses are
/// streamed out (other formats do not call it).
pub type InstanceWriter = fn(&ExportPlan, &mut dyn Write, &mut dyn FnMut(&CnfStats)) -> Result<()>;
