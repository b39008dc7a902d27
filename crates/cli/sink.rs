//! The output writers behind one trait: every listed solution goes to a [`SolutionSink`] for
//! the chosen format (text layers, JSON Lines, SVG, HTML), which writes it at once or keeps
//! it for a format that is one document.

use std::io::Write;

use anyhow::Result;
use cubesat::placements::PlacementTable;
use cubesat::puzzle::Puzzle;
use cubesat::render::{self, Scene};
use cubesat::report::{scene, solution_json};
use cubesat::solution::Solution;

use crate::args::SolutionFormat;

/// One solution to show: its puzzle, placements, 1-based index and title.
pub struct Shown<'a> {
    pub puzzle: &'a Puzzle,
    pub table: &'a PlacementTable,
    pub placements: &'a [u32],
    pub index: u64,
    pub title: String,
}

impl<'a> Shown<'a> {
    /// Solution `index` (from 1) of `puzzle`, titled as listings title it.
    pub fn nth(
        puzzle: &'a Puzzle,
        table: &'a PlacementTable,
        placements: &'a [u32],
        index: u64,
    ) -> Shown<'a> {
        Shown {
            puzzle,
            table,
            placements,
            index,
            title: format!("{}, solution {index}", puzzle.name),
        }
    }

    fn scene(&self) -> Scene {
        scene(self.puzzle, self.table, self.placements, &self.title, false)
    }
}

/// Where listed solutions go.
pub trait SolutionSink {
    /// Shows one solution (written now, or kept for [`SolutionSink::finish`]).
    fn solution(&mut self, out: &mut dyn Write, s: &Shown) -> Result<()>;
    /// Writes what was kept; nothing for a format that writes as it goes.
    fn finish(&mut self, out: &mut dyn Write) -> Result<()>;
}

/// Shows every solution of a list in `sink`, then finishes it.
pub fn show_all(
    sink: &mut dyn SolutionSink,
    out: &mut dyn Write,
    puzzle: &Puzzle,
    table: &PlacementTable,
    solutions: &[Vec<u32>],
) -> Result<()> {
    for (i, s) in solutions.iter().enumerate() {
        sink.solution(out, &Shown::nth(puzzle, table, s, i as u64 + 1))?;
    }
    sink.finish(out)
}

/// The sink for `format`: text with or without colour, SVG exploded or not.
pub fn sink(format: SolutionFormat, color: bool, explode: bool) -> Box<dyn SolutionSink> {
    match format {
        SolutionFormat::Text => Box::new(Text { color, shown: 0 }),
        SolutionFormat::Json => Box::new(Json),
        SolutionFormat::Svg => Box::new(Svg {
            explode,
            first: None,
        }),
        SolutionFormat::Html => Box::new(Html { scenes: Vec::new() }),
    }
}

/// Layer art, solutions one blank line apart.
struct Text {
    color: bool,
    shown: u64,
}

impl SolutionSink for Text {
    fn solution(&mut self, out: &mut dyn Write, s: &Shown) -> Result<()> {
        if self.shown > 0 {
            writeln!(out)?;
        }
        self.shown += 1;
        write!(out, "{}", render::text(&s.scene(), self.color))?;
        Ok(())
    }
    fn finish(&mut self, _: &mut dyn Write) -> Result<()> {
        Ok(())
    }
}

/// One JSON object per line.
struct Json;

impl SolutionSink for Json {
    fn solution(&mut self, out: &mut dyn Write, s: &Shown) -> Result<()> {
        let sol = Solution {
            placements: s.placements.to_vec(),
        };
        writeln!(out, "{}", solution_json(s.puzzle, s.table, &sol, s.index))?;
        Ok(())
    }
    fn finish(&mut self, _: &mut dyn Write) -> Result<()> {
        Ok(())
    }
}

/// One picture: the first solution.
struct Svg {
    explode: bool,
    first: Option<Scene>,
}

impl SolutionSink for Svg {
    fn solution(&mut self, _: &mut dyn Write, s: &Shown) -> Result<()> {
        if self.first.is_none() {
            self.first = Some(s.scene());
        }
        Ok(())
    }
    fn finish(&mut self, out: &mut dyn Write) -> Result<()> {
        if let Some(first) = &self.first {
            write!(out, "{}", render::svg(first, self.explode))?;
        }
        Ok(())
    }
}

/// One page holding every solution.
struct Html {
    scenes: Vec<Scene>,
}

impl SolutionSink for Html {
    fn solution(&mut self, _: &mut dyn Write, s: &Shown) -> Result<()> {
        self.scenes.push(s.scene());
        Ok(())
    }
    fn finish(&mut self, out: &mut dyn Write) -> Result<()> {
        if !self.scenes.is_empty() {
            write!(out, "{}", render::html(&self.scenes))?;
        }
        Ok(())
    }
}
