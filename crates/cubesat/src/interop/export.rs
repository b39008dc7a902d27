//! The export formats, one door for every front end: [`ExportFormat`] names each format (as
//! typed: `dimacs`, `dlx`, ...), its file extension and media type, and its writer, which
//! takes the checked [`ExportPlan`] (or, for a puzzle file, the puzzle alone); [`Export`] is an
//! export prepared from a puzzle and the user's [`ExportSettings`], ready to stream.
//!
//! Each format lives in its own module with its [`Format`] record (`dimacs::FORMAT`, ...), so
//! a new format is one new file and one arm of [`ExportFormat`] (and its place in
//! [`ExportFormat::ALL`]).

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use cubesat_xc::encoding::CnfStats;

use crate::error::Result;
use crate::interop::{asp, dimacs, dlx, placements, xmpuzzle};
use crate::plan::{ExportError, ExportPlan, ExportSettings};
use crate::puzzle::Puzzle;
use crate::run::Instance;

pub use crate::interop::format::{Format, PuzzleWriter, Writer};

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// DIMACS CNF ([`dimacs`]).
    Dimacs,
    /// Knuth's DLX format ([`dlx`]).
    Dlx,
    /// A clingo program ([`asp`]).
    Asp,
    /// A BurrTools puzzle file ([`xmpuzzle`]).
    Xmpuzzle,
    /// A plain-text list of the placements ([`placements`]).
    Placements,
}

impl ExportFormat {
    /// Every format, in the order front ends list them.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Dimacs,
        ExportFormat::Dlx,
        ExportFormat::Asp,
        ExportFormat::Xmpuzzle,
        ExportFormat::Placements,
    ];

    /// The format's record: name, extension, media type, writer.
    pub fn format(self) -> &'static Format {
        match self {
            ExportFormat::Dimacs => &dimacs::FORMAT,
            ExportFormat::Dlx => &dlx::FORMAT,
            ExportFormat::Asp => &asp::FORMAT,
            ExportFormat::Xmpuzzle => &xmpuzzle::FORMAT,
            ExportFormat::Placements => &placements::FORMAT,
        }
    }

    /// The name a user types (`dimacs`, `dlx`, ...).
    pub fn name(self) -> &'static str {
        self.format().name
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.format().extension
    }

    /// The media type of a download.
    pub fn mime(self) -> &'static str {
        self.format().mime
    }

    /// One line for help texts.
    pub fn about(self) -> &'static str {
        self.format().about
    }

    /// Whether the format writes an instance (from an [`ExportPlan`]), not the puzzle alone:
    /// only those take a counting mode and the CNF settings.
    pub fn writes_instance(self) -> bool {
        matches!(self.format().writer, Writer::Instance(_))
    }

    /// The names, comma-separated, for messages and help texts.
    pub fn names() -> String {
        ExportFormat::ALL.map(ExportFormat::name).join(", ")
    }

    /// Writes `plan`'s export in this format to `out`; `announce` hears a CNF's sizes before
    /// its clauses are written.
    pub fn write(
        self,
        plan: &ExportPlan,
        out: &mut dyn Write,
        mut announce: impl FnMut(&CnfStats),
    ) -> Result<()> {
        match self.format().writer {
            Writer::Puzzle(write) => write(plan.puzzle(), out),
            Writer::Instance(write) => write(plan, out, &mut announce),
        }
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        ExportFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown export format '{}' ({})",
                    crate::echo::echo(s),
                    ExportFormat::names()
                )
            })
    }
}

/// An export prepared: its format and what the format writes, checked, ready to stream.
pub struct Export {
    format: ExportFormat,
    source: Source,
}

/// What an export is written from.
enum Source {
    /// A puzzle file: the puzzle and its format's writer.
    Puzzle(Puzzle, PuzzleWriter),
    /// An instance.
    Plan(ExportPlan),
}

impl Export {
    /// Prepares the export of `puzzle` in `format`: for a format that writes an instance, the
    /// placements and the checked [`ExportPlan`] of `settings`; a puzzle file needs neither
    /// (and ignores the settings).
    pub fn new(
        puzzle: Puzzle,
        format: ExportFormat,
        settings: ExportSettings,
    ) -> std::result::Result<Export, ExportError> {
        let source = match format.format().writer {
            Writer::Puzzle(write) => Source::Puzzle(puzzle, write),
            Writer::Instance(_) => Source::Plan(ExportPlan::new(Instance::new(puzzle)?, settings)?),
        };
        Ok(Export { format, source })
    }

    /// The export of a plan checked already.
    pub fn from_plan(plan: ExportPlan, format: ExportFormat) -> Export {
        Export {
            format,
            source: Source::Plan(plan),
        }
    }

    /// The format.
    pub fn format(&self) -> ExportFormat {
        self.format
    }

    /// The puzzle exported.
    pub fn puzzle(&self) -> &Puzzle {
        match &self.source {
            Source::Puzzle(p, _) => p,
            Source::Plan(plan) => plan.puzzle(),
        }
    }

    /// The plan, for a format that writes an instance.
    pub fn plan(&self) -> Option<&ExportPlan> {
        match &self.source {
            Source::Puzzle(..) => None,
            Source::Plan(plan) => Some(plan),
        }
    }

    /// Writes the export to `out`; `announce` hears a CNF's sizes before its clauses are
    /// written (a pairwise encoding of a large puzzle runs to gigabytes: a front end may want
    /// to say so first).
    pub fn write(&self, out: &mut dyn Write, announce: impl FnMut(&CnfStats)) -> Result<()> {
        match &self.source {
            Source::Plan(plan) => self.format.write(plan, out, announce),
            Source::Puzzle(puzzle, write) => write(puzzle, out),
        }
    }
}
