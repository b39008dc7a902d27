//! A problem of a BurrTools file as a cubesat [`crate::Puzzle`]: selecting it, its pieces with their names and counts, its target and BurrTools' counting settings.

use crate::echo::echo;
use crate::error::{Result, bail};

use crate::geometry::{Cell, Grid, Shape};
use crate::mode::UpTo;
use crate::puzzle::{
    ContainerSpec, MAX_PIECE_CELLS, MAX_PIECE_COPIES, MAX_TARGET_CELLS, Piece, Puzzle, Target,
};

use super::{BurrFile, Problem, State};

const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl BurrFile {
    /// The problem `selector` names: an index, or a problem name; the first when `None`.
    pub fn select(&self, selector: Option<&str>) -> Result<usize> {
        let Some(s) = selector else { return Ok(0) };
        if let Ok(i) = s.parse::<usize>() {
            if i < self.problems.len() {
                return Ok(i);
            }
            bail!(
                "{}: problem {i}: the file has {} problems (0 to {})",
                self.shown,
                self.problems.len(),
                self.problems.len() - 1
            );
        }
        match self.problems.iter().position(|p| p.name == s) {
            Some(i) => Ok(i),
            None => bail!(
                "{}: no problem named '{}' (problems: {})",
                self.shown,
                echo(s),
                crate::echo::list(
                    self.problems
                        .iter()
                        .enumerate()
                        .map(|(i, p)| format!("{i} '{}'", echo(&p.name))),
                    ", "
                )
            ),
        }
    }

    /// A display name for shape `id`.
    pub fn shape_name(&self, id: usize) -> String {
        let n = &self.shapes[id].name;
        if n.is_empty() {
            format!("S{}", id + 1)
        } else {
            n.clone()
        }
    }

    /// One line per problem: index, name, parts and result shape (for `info`).
    pub fn describe_problems(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.problems.iter().enumerate() {
            let parts: Vec<String> = p
                .parts
                .iter()
                .map(|pt| {
                    let n = echo(&self.shape_name(pt.shape)).to_string();
                    match (pt.min, pt.max) {
                        (1, 1) => n,
                        (a, b) if a == b => format!("{n} x{a}"),
                        (a, b) => format!("{n} x{a}..{b}"),
                    }
                })
                .collect();
            let r = &self.shapes[p.result];
            out.push_str(&format!(
                "  {i}: '{}': {} -> {} ({}x{}x{}, {} voxels){}\n",
                echo(&p.name),
                parts.join(", "),
                echo(&self.shape_name(p.result)),
                r.size[0],
                r.size[1],
                r.size[2],
                r.voxels.len(),
                if i == 0 { " [default]" } else { "" }
            ));
        }
        out
    }

    /// Problem `index` as a cubesat puzzle (BurrTools' meaning of every feature).
    pub fn puzzle(&self, index: usize) -> Result<Puzzle> {
        let prob = &self.problems[index];
        let here = format!(
            "{}: problem {index}{}",
            self.shown,
            if prob.name.is_empty() {
                String::new()
            } else {
                format!(" '{}'", echo(&prob.name))
            }
        );
        let mut notes: Vec<String> = self.notes.clone();
        notes.extend(prob.notes.iter().cloned());
        let target = self.result_target(prob, &here)?;
        let pieces = self.pieces(prob, &here, &mut notes)?;
        // The name titles pictures and messages: characters that act on a terminal are
        // escaped (a cubesat JSON file may not hold them at all).
        let name = if prob.name.is_empty() {
            format!("problem {index}")
        } else {
            crate::echo::escape(&prob.name).into_owned()
        };
        let mut puzzle = Puzzle {
            description: self.comment.clone(),
            allow_disconnected: true,
            colour_pairs: (self.colours > 0).then(|| prob.pairs.clone()),
            default_up_to: Some(UpTo::BurrTools),
            ..Puzzle::new(name, self.grid, pieces, target)
        };
        let (lo, hi) = fitting_volume(&puzzle, &here)?;
        if let Some(h) = prob.max_holes {
            if lo == hi {
                notes.push(format!(
                    "maxHoles {h} is ignored: the piece volume is fixed, as BurrTools ignores it"
                ));
            } else {
                puzzle.max_holes = Some(h);
            }
        }
        notes.sort();
        notes.dedup();
        puzzle.notes = notes;
        Ok(puzzle)
    }

    /// The target of problem `prob` (`here` in messages): its result's `#` voxels must be
    /// filled, `+` may stay empty; colours travel with the cells.
    fn result_target(&self, prob: &Problem, here: &str) -> Result<Target> {
        let res = &self.shapes[prob.result];
        if res.voxels.is_empty() {
            bail!(
                "{here}: <result id=\"{}\">: the result shape has no voxels",
                prob.result
            );
        }
        if res.voxels.len() > MAX_TARGET_CELLS {
            bail!(
                "{here}: the result has {} voxels, more than the {MAX_TARGET_CELLS} cubesat accepts",
                res.voxels.len()
            );
        }
        let grid = self.grid;
        // Moved to the origin, by an even step on the sphere grid (balls stay balls).
        let corner: Vec<Cell> = res.voxels.iter().map(|v| v.0).collect();
        let min = grid.normal_offset(&corner).unwrap_or([0; 3]);
        let local = |c: Cell| [c[0] - min[0], c[1] - min[1], c[2] - min[2]];
        let spec = ContainerSpec {
            cells: res
                .voxels
                .iter()
                .map(|v| (local(v.0), v.1 == State::Variable))
                .collect(),
            frame: None,
        };
        let mut target = Target::new_on(grid, &[spec]);
        if res.voxels.iter().any(|v| v.2 != 0) {
            let colour_of: std::collections::HashMap<Cell, u8> =
                res.voxels.iter().map(|v| (local(v.0), v.2)).collect();
            let colours = (0..target.cells().len() as u32)
                .map(|c| colour_of.get(&target.local(c).1).copied().unwrap_or(0))
                .collect();
            target.set_colours(colours);
        }
        Ok(target)
    }

    /// The pieces of problem `prob` (`here` in messages), one per part with copies; what is
    /// left out or read differently goes to `notes`. Only `#` voxels of a piece count
    /// (BurrTools treats `+` there as empty).
    fn pieces(&self, prob: &Problem, here: &str, notes: &mut Vec<String>) -> Result<Vec<Piece>> {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut names = PieceNames::new();
        let mut copies = 0u64;
        for (k, part) in prob.parts.iter().enumerate() {
            if part.max == 0 {
                notes.push(format!(
                    "part {k} ('{}') has at most 0 copies and is left out",
                    echo(&self.shape_name(part.shape))
                ));
                continue;
            }
            let sh = &self.shapes[part.shape];
            if sh.voxels.iter().any(|v| v.1 == State::Variable) {
                notes.push(format!(
                    "shape '{}' has variable voxels; as in BurrTools they are not part of the piece",
                    echo(&self.shape_name(part.shape))
                ));
            }
            let cells: Vec<(Cell, u8)> = sh
                .voxels
                .iter()
                .filter(|v| v.1 == State::Fixed)
                .map(|v| (v.0, v.2))
                .collect();
            if cells.is_empty() {
                bail!(
                    "{here}: <shape id=\"{}\"> (part {k}): the shape has no '#' voxels",
                    part.shape
                );
            }
            if cells.len() > MAX_PIECE_CELLS {
                bail!(
                    "{here}: part {k}: {} voxels, more than the {MAX_PIECE_CELLS} cubesat accepts",
                    cells.len()
                );
            }
            copies += part.max as u64;
            if copies > MAX_PIECE_COPIES {
                bail!("{here}: more than {MAX_PIECE_COPIES} piece copies in all");
            }
            let (shape, colours) = piece_shape(self.grid, &cells);
            let (name, letter) = names.next(&self.shape_name(part.shape));
            pieces.push(Piece {
                name,
                letter,
                shape,
                count: part.max,
                min_count: part.min,
                colours,
                weight: sh.weight,
                groups: part.groups.clone(),
            });
        }
        if pieces.is_empty() {
            bail!("{here}: <shapes>: the problem has no parts");
        }
        Ok(pieces)
    }
}

/// A piece's shape on `grid` from its voxels (position, colour), and its colours aligned
/// with the shape's cells (empty when all are neutral).
fn piece_shape(grid: Grid, cells: &[(Cell, u8)]) -> (Shape, Vec<u8>) {
    let shape = Shape::new_on(grid, cells.iter().map(|c| c.0));
    let corner: Vec<Cell> = cells.iter().map(|c| c.0).collect();
    let pmin = grid.normal_offset(&corner).unwrap_or([0; 3]);
    let colour_of: std::collections::HashMap<Cell, u8> = cells
        .iter()
        .map(|&(c, k)| ([c[0] - pmin[0], c[1] - pmin[1], c[2] - pmin[2]], k))
        .collect();
    let colours: Vec<u8> = if cells.iter().any(|c| c.1 != 0) {
        shape
            .cells()
            .iter()
            .map(|c| colour_of.get(c).copied().unwrap_or(0))
            .collect()
    } else {
        Vec::new()
    };
    (shape, colours)
}

/// Unique names and letters for a problem's pieces: a shape's name (blanks and control
/// characters made `_`, at most 28 characters) with `#2`, `#3`.. for repeats, and its first
/// character as the letter when that is alphanumeric and free, else the next free of
/// [`LETTERS`] (`?` when none is left).
struct PieceNames {
    names: std::collections::HashSet<String>,
    letters: std::collections::HashSet<char>,
    spare: std::str::Chars<'static>,
}

impl PieceNames {
    fn new() -> PieceNames {
        PieceNames {
            names: std::collections::HashSet::new(),
            letters: std::collections::HashSet::new(),
            spare: LETTERS.chars(),
        }
    }

    /// The name and letter of the next piece, made from its shape's name.
    fn next(&mut self, shape_name: &str) -> (String, char) {
        let base: String = shape_name
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            .take(28)
            .collect();
        let mut name = base.clone();
        let mut n = 2;
        while !self.names.insert(name.clone()) {
            name = format!("{base}#{n}");
            n += 1;
        }
        let first = name.chars().next().filter(|c| c.is_ascii_alphanumeric());
        let letter = match first {
            Some(c) if self.letters.insert(c) => c,
            _ => loop {
                match self.spare.next() {
                    Some(c) if self.letters.insert(c) => break c,
                    Some(_) => continue,
                    None => break '?',
                }
            },
        };
        (name, letter)
    }
}

/// BurrTools' definition check: the pieces' volume must fit the result. Returns the least
/// and the most volume the pieces can have.
fn fitting_volume(puzzle: &Puzzle, here: &str) -> Result<(u64, u64)> {
    let must = puzzle.target.must_count() as u64;
    let optional = puzzle.target.optional_count() as u64;
    let (lo, hi) = (puzzle.min_piece_volume(), puzzle.piece_volume());
    if lo > must + optional {
        bail!(
            "{here}: {} units too many for the result (pieces need at least {lo} voxels, the result has {must} '#' and {optional} '+')",
            lo - must - optional
        );
    }
    if hi < must {
        bail!(
            "{here}: {} units too few for the result (pieces have at most {hi} voxels, the result has {must} '#')",
            must - hi
        );
    }
    Ok((lo, hi))
}
