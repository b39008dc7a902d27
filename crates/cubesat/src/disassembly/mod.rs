//! Disassembly analysis: can an assembly be taken apart by sliding pieces along the grid axes, in how many moves, and the moves themselves; and the slide-in order of the 3D page.
//!
//! A move slides one piece, or a group of pieces that must move together, or several
//! independent groups at once, by whole units along one of the grid's slide directions
//! ([`Grid::slide_axes`]: ±x, ±y, ±z on the cube grid; ±z and both ways along the three sides of
//! the triangles on the prism grid, as BurrTools moves them); every move counts 1
//! whatever its length. A move that takes a group out for good (it can slide on without end)
//! separates the pieces into two parts, each of which is then taken apart on its own, until
//! every part is one piece or a set of pieces of one BurrTools piece group. The search is
//! breadth-first, so the first separation uses the fewest moves. The `search` module holds the
//! details, read from BurrTools 0.7.1's disassembler; [`Mode`] the two rules for what counts.
//!
//! - [`Disassembler::analyse`] analyses one assembly (pieces in the order the analysis uses,
//!   each with its cells); the answer is a [`Separation`] tree, with its BurrTools level string
//!   ([`Separation::level`], e.g. `4.9.3`) and its moves ([`Separation::steps`]).
//! - [`replay`] checks a plan independently, unit step by unit step on the cells.
//! - [`solutions`] applies all this to the solutions of an [`Instance`](crate::Instance):
//!   BurrTools' piece order and orientation, many assemblies on several threads.
//! - [`stream`] lists the assemblies of a run and analyses them as they come, keeping those
//!   that come apart: what every front end's disassembly runs on.
//! - [`slide_in`]: the order in which pieces can be lowered into a box from above, for puzzles
//!   whose assembly is that simple (the 3D page's fallback when there is no plan).

mod grouping;
mod limits;
pub mod orient;
pub mod replay;
mod search;
pub mod slide_in;
pub mod solutions;
pub mod stream;

use std::fmt;
use std::str::FromStr;

pub use grouping::PartGroups;

use crate::error::{Error, Result, bail};
use crate::geometry::{Cell, Grid};
use limits::LimitCache;
use search::{Item, Searcher};

/// The states one assembly may visit by default (about 60 bytes each for six pieces).
pub const DEFAULT_MAX_STATES: u64 = 20_000_000;

/// The most states a front end lets a user give one assembly's analysis (the command line's
/// `--max-states`, the studio's and the Python package's `max_states`).
pub const MAX_ASKED_STATES: u64 = 1_000_000_000;

/// The memory the states of one part may take (6 bytes a piece and about 24 more a state,
/// counted as they are stored): the search stops there rather than run out of memory.
pub const MAX_SEARCH_BYTES: u64 = 2 << 30;

/// The rule the analysis follows.
///
/// Both accept exactly the assemblies that come apart and give the same plans: BurrTools'
/// rule stops at the first separation whose part fails, and that is never wrong (the proof is
/// in the `search` module's documentation, and the tests check it against a search that tries
/// every separation). They differ in bookkeeping only. One exception is not covered: piece
/// groups whose copies are counted ([`PartGroups`]) are assigned to sets in the order the sets
/// are met, as BurrTools does, so there another separation could fit the groups where the
/// first does not; both modes follow BurrTools' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// BurrTools 0.7.1's rule: the first separation found (fewest moves, BurrTools' move
    /// order) is final, and states are remembered for the last three fronts, as BurrTools
    /// does (its state counts are BurrTools' own).
    BurrTools,
    /// The AND-OR search: a separation is accepted when both its parts come apart, every
    /// state is remembered; it stops where a part fails, as that proves no separation works.
    #[default]
    Complete,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::BurrTools => "burrtools",
            Mode::Complete => "complete",
        })
    }
}

impl FromStr for Mode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Mode> {
        match s {
            "burrtools" => Ok(Mode::BurrTools),
            "complete" => Ok(Mode::Complete),
            _ => bail!("unknown disassembler '{s}' (expected burrtools or complete)"),
        }
    }
}

/// A level as its numbers (`4.9.3`), compared number by number: more moves to the first
/// separation is harder, then more in the next part, and a longer string of equal numbers
/// is harder than its prefix.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(pub Vec<u32>);

impl FromStr for Level {
    type Err = Error;
    fn from_str(s: &str) -> Result<Level> {
        let parts: Option<Vec<u32>> = s.split('.').map(|p| p.trim().parse().ok()).collect();
        match parts {
            Some(v) if !v.is_empty() && v.len() <= 64 => Ok(Level(v)),
            _ => bail!("'{s}' is not a level (numbers joined by dots, such as 5 or 4.9.3)"),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: Vec<String> = self.0.iter().map(|n| n.to_string()).collect();
        f.write_str(&s.join("."))
    }
}

/// The order in which the solutions that come apart are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// As the search finds them.
    #[default]
    Found,
    /// By [`Level`], the hardest first (solutions of one level as found): every assembly is
    /// analysed before the first is given.
    Level,
}

/// Why an analysis stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// More states than the limit (the assembly's position graph is too large).
    TooManyStates(u64),
    /// The states of one part would take more than this many bytes ([`MAX_SEARCH_BYTES`]).
    TooMuchMemory(u64),
    /// More pieces than the analyser handles in one part.
    TooManyPieces(usize),
    /// A piece moved beyond BurrTools' 16-bit positions.
    TooFar,
    /// Stopped from outside (Ctrl-C).
    Interrupted,
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::TooManyStates(n) => write!(f, "the disassembly search passed {n} states"),
            Halt::TooMuchMemory(b) => write!(
                f,
                "the disassembly search's states would take more than {} MiB",
                b >> 20
            ),
            Halt::TooManyPieces(n) => write!(f, "{n} pieces: the disassembler handles at most 64"),
            Halt::TooFar => f.write_str("a piece moved more than 32,000 units"),
            Halt::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// What the analysis knows of a part (a cubesat piece and its copies).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// BurrTools' shape weight: of the two sides of a move, the one holding the heaviest
    /// piece stays still (drawing only, and which part of a separation counts as removed).
    pub weight: i32,
    /// BurrTools piece groups of the part.
    pub groups: PartGroups,
}

/// A placed piece: the part it is a copy of and its cells in the assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Index of the part.
    pub part: usize,
    /// Its cells.
    pub cells: Vec<Cell>,
}

/// One separation: the moves that split a part in two, and how each of the two parts comes
/// apart in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Separation {
    /// The pieces of this part (indices into the analysed pieces, ascending).
    pub pieces: Vec<usize>,
    /// Positions from this part's start to the last one before it separates: per position,
    /// each piece's offset from its assembled place. `path.len()` is the number of moves,
    /// the separating one included.
    pub path: Vec<Vec<[i32; 3]>>,
    /// Per piece of `pieces`: whether it leaves with the separating move.
    pub removed: Vec<bool>,
    /// The direction the removed pieces leave in: `2a` along slide axis `a`, `2a + 1` the
    /// opposite way (on the cube grid 0..6: +x, -x, +y, -y, +z, -z; see
    /// [`Grid::direction_name`]).
    pub direction: u8,
    /// How the part left behind comes apart; `None` when it needs nothing (one piece, or a
    /// group).
    pub left: Option<Box<Separation>>,
    /// How the removed part comes apart; `None` when it needs nothing.
    pub removed_part: Option<Box<Separation>>,
}

/// One move of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The pieces that move (indices into the analysed pieces).
    pub pieces: Vec<usize>,
    /// Direction: `2a` along slide axis `a` of the grid, `2a + 1` the opposite way
    /// ([`Grid::direction_name`]).
    pub direction: u8,
    /// Units moved; for a removal, just far enough to clear the rest of its part.
    pub distance: u32,
    /// True when the pieces leave their part for good (a separation).
    pub removal: bool,
}

impl Separation {
    /// Moves to this separation (the separating move included).
    pub fn moves(&self) -> usize {
        self.path.len()
    }

    /// The level as numbers (see [`Level`]).
    pub fn level_numbers(&self) -> Level {
        self.level()
            .parse()
            .unwrap_or(Level(vec![self.moves() as u32]))
    }

    /// Moves of the whole tree.
    pub fn total_moves(&self) -> usize {
        self.moves()
            + self.left.as_ref().map_or(0, |s| s.total_moves())
            + self.removed_part.as_ref().map_or(0, |s| s.total_moves())
    }

    fn has_multi_moves(&self) -> bool {
        self.moves() > 1
            || self.left.as_ref().is_some_and(|s| s.has_multi_moves())
            || self
                .removed_part
                .as_ref()
                .is_some_and(|s| s.has_multi_moves())
    }

    /// BurrTools' level string: the moves to this separation, then `.` and the string of the
    /// part left behind, then `.` and the string of the removed part, each only when that
    /// subtree holds a separation of more than one move (`4.9.3`). Cut as BurrTools' 200-byte
    /// buffer cuts it.
    pub fn level(&self) -> String {
        let mut buf = [0u8; 200];
        self.level_into(&mut buf, 0);
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).into_owned()
    }

    /// `snprintf` into `buf[at..]` as BurrTools' `movesText2` does; returns what snprintf
    /// would return in total.
    fn level_into(&self, buf: &mut [u8], at: usize) -> usize {
        fn put(buf: &mut [u8], at: usize, s: &str) -> usize {
            let room = buf.len().saturating_sub(at);
            if room > 0 {
                let n = s.len().min(room - 1);
                buf[at..at + n].copy_from_slice(&s.as_bytes()[..n]);
                buf[at + n] = 0;
            }
            s.len()
        }
        let len = buf.len() - at.min(buf.len());
        let mut n = put(buf, at, &self.moves().to_string());
        for sub in [&self.left, &self.removed_part] {
            if n + 5 > len {
                return n;
            }
            if let Some(s) = sub.as_ref().filter(|s| s.has_multi_moves()) {
                put(buf, at + n, ".");
                n += 1;
                n += s.level_into(buf, at + n);
            }
        }
        n
    }

    /// The tree with every position moved by `d` (a part met again elsewhere).
    pub(crate) fn shifted(&self, d: [i32; 3]) -> Separation {
        let mut s = self.clone();
        s.shift(d);
        s
    }

    fn shift(&mut self, d: [i32; 3]) {
        for p in &mut self.path {
            for o in p.iter_mut() {
                *o = [o[0] + d[0], o[1] + d[1], o[2] + d[2]];
            }
        }
        for sub in [&mut self.left, &mut self.removed_part]
            .into_iter()
            .flatten()
        {
            sub.shift(d);
        }
    }

    /// The moves of the whole tree in BurrTools' plan order: this separation's moves, then
    /// the removed part's, then the part left behind. `cells[i]` are the assembled cells of
    /// piece `i` on `grid` (to know how far a removal must go).
    pub fn steps(&self, grid: Grid, cells: &[Vec<Cell>]) -> Vec<Step> {
        let mut out = Vec::new();
        self.collect_steps(grid, cells, &mut out);
        out
    }

    fn collect_steps(&self, grid: Grid, cells: &[Vec<Cell>], out: &mut Vec<Step>) {
        for w in self.path.windows(2) {
            let moved: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| w[0][i] != w[1][i])
                .collect();
            let Some(&first) = moved.first() else {
                continue;
            };
            let d = [0, 1, 2].map(|a| w[1][first][a] - w[0][first][a]);
            let (direction, distance) = slide_of(grid, d);
            out.push(Step {
                pieces: moved.iter().map(|&i| self.pieces[i]).collect(),
                direction,
                distance,
                removal: false,
            });
        }
        // The removal: far enough that the removed cells pass every other cell of the part,
        // in steps along the lines of its axis.
        let last = self.path.last().cloned().unwrap_or_default();
        let a = (self.direction >> 1) as usize;
        let sign = if self.direction & 1 == 0 { 1 } else { -1 };
        let (mut gone_lo, mut rest_hi) = (i32::MAX, i32::MIN);
        for (i, &p) in self.pieces.iter().enumerate() {
            for c in &cells[p] {
                let at = [0, 1, 2].map(|x| c[x] + last[i][x]);
                let v = sign * grid.slide_line(a, at).1;
                if self.removed[i] {
                    gone_lo = gone_lo.min(v);
                } else {
                    rest_hi = rest_hi.max(v);
                }
            }
        }
        out.push(Step {
            pieces: (0..self.pieces.len())
                .filter(|&i| self.removed[i])
                .map(|i| self.pieces[i])
                .collect(),
            direction: self.direction,
            distance: (rest_hi - gone_lo + 1).max(1) as u32,
            removal: true,
        });
        for sub in [&self.removed_part, &self.left].into_iter().flatten() {
            sub.collect_steps(grid, cells, out);
        }
    }
}

/// The direction and number of unit steps of a move by `d`, a whole number of steps along
/// one of `grid`'s slide axes (as every move of a plan is).
pub(crate) fn slide_of(grid: Grid, d: Cell) -> (u8, u32) {
    for a in 0..grid.slide_axes().len() {
        let (line, t) = grid.slide_line(a, d);
        if line == [0; 3] && t != 0 {
            return ((2 * a + usize::from(t < 0)) as u8, t.unsigned_abs());
        }
    }
    (0, 0)
}

/// The result of analysing one assembly.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// How it comes apart; `None` when it does not.
    pub tree: Option<Separation>,
    /// States visited (positions stored, over all parts).
    pub states: u64,
}

/// The disassembly analyser of one puzzle: the parts' weights and groups, and the slide
/// limits cached across the assemblies it analyses.
pub struct Disassembler {
    grid: Grid,
    parts: Vec<Part>,
    groups: Vec<PartGroups>,
    cache: LimitCache,
    /// Stop an assembly above this many states ([`Halt::TooManyStates`]).
    pub max_states: u64,
}

impl Disassembler {
    /// An analyser for assemblies on `grid` of pieces that are copies of `parts`; an error
    /// when the grid's assemblies are not taken apart ([`Grid::can_disassemble`]).
    pub fn new(grid: Grid, parts: Vec<Part>) -> Result<Disassembler> {
        if !grid.can_disassemble() || grid.slide_axes().len() > limits::MAX_AXES {
            bail!(
                "assemblies on {} cannot be taken apart (the disassembler takes apart {})",
                grid.title(),
                Grid::disassembled_names()
            );
        }
        Ok(Disassembler {
            grid,
            groups: parts.iter().map(|p| p.groups.clone()).collect(),
            parts,
            cache: LimitCache::new(grid),
            max_states: DEFAULT_MAX_STATES,
        })
    }

    /// The grid of the assemblies it analyses.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Pairs of shapes whose slide limits are cached.
    pub fn cached_pairs(&self) -> usize {
        self.cache.len()
    }

    /// Analyses one assembly: `pieces` in the order the analysis uses (it decides which of
    /// several equally short separations comes first). An assembly of fewer than two pieces
    /// does not come apart (BurrTools reports it so, and both modes agree). `stop` is polled now and then: when it says true, the analysis
    /// ends with [`Halt::Interrupted`].
    pub fn analyse(
        &mut self,
        pieces: &[Placed],
        mode: Mode,
        stop: &dyn Fn() -> bool,
    ) -> Result<Outcome, Halt> {
        self.run(pieces, mode, false, stop)
    }

    /// [`Disassembler::analyse`] trying every separation until one works, parts memoised:
    /// the search the module's claim is checked against (it can take very long).
    #[doc(hidden)]
    pub fn analyse_exhaustive(
        &mut self,
        pieces: &[Placed],
        stop: &dyn Fn() -> bool,
    ) -> Result<Outcome, Halt> {
        self.run(pieces, Mode::Complete, true, stop)
    }

    fn run(
        &mut self,
        pieces: &[Placed],
        mode: Mode,
        exhaustive: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Outcome, Halt> {
        let grid = self.grid;
        let items: Vec<Item> = pieces
            .iter()
            .map(|p| {
                // Moved by one of the grid's translations, so every cell keeps its kind (a
                // triangle its direction): the limits depend on it.
                let lo = grid.normal_offset(&p.cells).unwrap_or([0; 3]);
                let mut norm: Vec<Cell> = p
                    .cells
                    .iter()
                    .map(|c| [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]])
                    .collect();
                norm.sort_unstable();
                Item {
                    sid: self.cache.intern(norm),
                    anchor: lo,
                    part: p.part,
                    weight: self.parts.get(p.part).map_or(1, |q| q.weight),
                }
            })
            .collect();
        if items.len() < 2 {
            return Ok(Outcome {
                tree: None,
                states: 0,
            });
        }
        let grouping = grouping::Grouping::new(&self.groups);
        let memo = (exhaustive && grouping.is_empty()).then(Default::default);
        let mut s = Searcher {
            items: &items,
            axes: grid.slide_axes(),
            cache: &mut self.cache,
            groups: &self.groups,
            grouping,
            complete: mode == Mode::Complete,
            exhaustive,
            memo,
            max_states: self.max_states,
            states: 0,
            stop,
        };
        let all: Vec<usize> = (0..items.len()).collect();
        let start = vec![[0; 3]; items.len()];
        let tree = s.part(&all, &start)?;
        Ok(Outcome {
            states: s.states,
            tree,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;

    /// The six sticks of a six-piece burr (two along each axis) in a 6x6x6 box.
    fn sticks() -> Vec<Vec<Cell>> {
        let bar = |lo: [i32; 3], hi: [i32; 3]| {
            let mut v = Vec::new();
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        v.push([x, y, z]);
                    }
                }
            }
            v
        };
        vec![
            bar([0, 1, 2], [5, 2, 3]),
            bar([0, 3, 2], [5, 4, 3]),
            bar([2, 0, 1], [3, 5, 2]),
            bar([2, 0, 3], [3, 5, 4]),
            bar([1, 2, 0], [2, 3, 5]),
            bar([3, 2, 0], [4, 3, 5]),
        ]
    }

    /// A burr: every cell of the sticks' union given to one of the sticks covering it, or,
    /// where several sticks cover it, possibly to none.
    fn random_burr(rng: &mut SeededRng) -> Vec<Placed> {
        let s = sticks();
        let mut owners: std::collections::BTreeMap<Cell, Vec<usize>> = Default::default();
        for (i, st) in s.iter().enumerate() {
            for &c in st {
                owners.entry(c).or_default().push(i);
            }
        }
        // Drawn again until every stick is one connected piece, as a real burr's are.
        let mut pieces = vec![Vec::new(); 6];
        for _ in 0..1000 {
            pieces = vec![Vec::new(); 6];
            for (c, o) in &owners {
                // A contested cell may also stay empty: the gaps let pieces move.
                let n = 2 * o.len() as u64 + u64::from(o.len() > 1);
                if let Some(&owner) = o.get(rng.below(n) as usize / 2) {
                    pieces[owner].push(*c);
                }
            }
            if pieces
                .iter()
                .all(|p| crate::geometry::Grid::Cube.is_connected(p))
            {
                break;
            }
        }
        pieces
            .into_iter()
            .filter(|p| !p.is_empty())
            .enumerate()
            .map(|(i, cells)| Placed { part: i, cells })
            .collect()
    }

    #[test]
    fn stopping_at_a_failed_part_loses_nothing() {
        // Random burrs: BurrTools' rule (stop where the first separation's part fails)
        // and the search that tries every separation agree on every one.
        let mut rng = SeededRng::new(31);
        let mut d = Disassembler::new(Grid::Cube, vec![Part::default(); 6]).unwrap();
        // The exhaustive search may explore a great many positions: burrs it cannot finish
        // within this many states are left out (and counted).
        d.max_states = 20_000;
        let (mut apart, mut checked) = (0, 0);
        for _ in 0..300 {
            let burr = random_burr(&mut rng);
            let greedy = d.analyse(&burr, Mode::BurrTools, &|| false).unwrap();
            let Ok(every) = d.analyse_exhaustive(&burr, &|| false) else {
                continue;
            };
            checked += 1;
            assert_eq!(greedy.tree.is_some(), every.tree.is_some(), "{burr:?}");
            if let (Some(a), Some(b)) = (&greedy.tree, &every.tree) {
                assert_eq!(a.level(), b.level());
            }
            apart += greedy.tree.is_some() as u32;
        }
        // The sample holds burrs that come apart and burrs that do not.
        assert!(
            checked > 100 && apart > 0 && apart < checked,
            "checked {checked}, apart {apart}"
        );
    }

    #[test]
    fn a_failed_first_separation_is_final() {
        // Two linked rings and a loose cube: the first separation takes the cube away, then
        // the rings cannot be parted. BurrTools' rule stops there; the search that tries every
        // other separation goes on and finds none either.
        let ring_a: Vec<Cell> = (1..4)
            .flat_map(|x| (1..4).map(move |y| [x, y, 1]))
            .filter(|c| *c != [2, 2, 1])
            .collect();
        let ring_b: Vec<Cell> = (2..5)
            .flat_map(|x| (0..3).map(move |z| [x, 2, z]))
            .filter(|c| *c != [3, 2, 1])
            .collect();
        let pieces = vec![
            Placed {
                part: 0,
                cells: ring_a,
            },
            Placed {
                part: 1,
                cells: ring_b,
            },
            Placed {
                part: 2,
                cells: vec![[0, 0, 0]],
            },
        ];
        let mut d = Disassembler::new(Grid::Cube, vec![Part::default(); 3]).unwrap();
        d.max_states = 20_000;
        let greedy = d.analyse(&pieces, Mode::BurrTools, &|| false).unwrap();
        assert!(greedy.tree.is_none() && greedy.states < d.max_states);
        // The cube can wander far: the exhaustive search finds nothing, or is still going
        // (past the greedy search's states) when it reaches the limit.
        match d.analyse_exhaustive(&pieces, &|| false) {
            Ok(every) => assert!(every.tree.is_none() && every.states > greedy.states),
            Err(h) => assert_eq!(h, Halt::TooManyStates(d.max_states)),
        }
    }

    fn leaf(moves: usize) -> Separation {
        Separation {
            pieces: vec![0, 1],
            path: vec![vec![[0; 3]; 2]; moves],
            removed: vec![false, true],
            direction: 0,
            left: None,
            removed_part: None,
        }
    }

    #[test]
    fn level_strings_leave_out_single_moves() {
        // 4 moves, then the part left behind in 9, then the removed part in 3: 4.9.3.
        let mut t = leaf(4);
        t.left = Some(Box::new(leaf(9)));
        t.removed_part = Some(Box::new(leaf(3)));
        assert_eq!(t.level(), "4.9.3");
        assert_eq!(t.total_moves(), 16);
        // A single-move part left behind is left out; a subtree holding more is not.
        let mut t = leaf(2);
        t.left = Some(Box::new(leaf(1)));
        assert_eq!(t.level(), "2");
        let mut inner = leaf(1);
        inner.removed_part = Some(Box::new(leaf(2)));
        t.left = Some(Box::new(inner));
        assert_eq!(t.level(), "2.1.2");
        assert_eq!("2.1.2".parse::<Level>().unwrap(), t.level_numbers());
        assert!(Level(vec![4, 9]) > Level(vec![4, 8, 10]));
        assert!(Level(vec![4, 9, 3]) > Level(vec![4, 9]));
        assert!("4.x".parse::<Level>().is_err());
    }
}
