//! Pairwise slide limits: how far one piece can slide along each of the grid's slide directions while another stays put, computed from their cells and the grid's sweeps, and cached by shape and relative position.
//!
//! The limit of piece A against piece B in direction +a is the number of unit steps along
//! slide axis a that A can make before a step would pass through or land on a cell of B
//! ([`Grid::slide_sweep`]: on the cube grid the next cell, on the prism grid also the triangle
//! a triangle sweeps across); [`FREE`] when no step ever meets B. The limit of A in direction
//! -a is B's limit in +a against A. The analyser closes these limits under "A pushes B, B
//! pushes C" itself; here they are only read off the cells, once per pair of shapes and
//! relative position (many assemblies of one puzzle share them).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rustc_hash::FxHashMap;

use crate::geometry::{Cell, Grid};

/// The limit of a pair that never meets in that direction: the piece slides without end.
/// Any finite limit is far below it, and so is the sum of two finite limits; a sum with a
/// `FREE` term stays at or above it.
pub(crate) const FREE: u32 = 32_000;

/// Slide axes a grid may have (the prism grid has four): limits are kept for this many.
pub(crate) const MAX_AXES: usize = 4;

/// The limits of one pair: entry `2a` for +a, `2a + 1` for -a.
pub(crate) type Limits = [u16; 2 * MAX_AXES];

/// Points of a shape on the lines along one slide axis: per line ([`Grid::slide_line`]),
/// the sorted steps of the points on it.
type Lines = FxHashMap<Cell, Vec<i32>>;

/// One shape as the cache sees it.
struct ShapeLines {
    /// Per axis: the smallest and largest step of its cells along the axis's lines.
    steps: Vec<(i32, i32)>,
    /// Per axis: its cells on the lines along the axis.
    cells: Vec<Lines>,
    /// Per axis: the cells a unit step of the shape must find free, on those lines; `None`
    /// where each cell's step just lands on the next cell of its line (every axis of the
    /// cube grid, z on the prism grid), where the limits are gaps between cells.
    sweeps: Vec<Option<Lines>>,
}

impl ShapeLines {
    fn new(grid: Grid, cells: &[Cell]) -> ShapeLines {
        let axes = grid.slide_axes().len();
        let lines = |points: &mut dyn Iterator<Item = Cell>, a: usize| {
            let mut m: Lines = FxHashMap::default();
            for p in points {
                let (line, t) = grid.slide_line(a, p);
                m.entry(line).or_default().push(t);
            }
            for v in m.values_mut() {
                v.sort_unstable();
                v.dedup();
            }
            m
        };
        let cell_lines: Vec<Lines> = (0..axes)
            .map(|a| lines(&mut cells.iter().copied(), a))
            .collect();
        let sweeps = (0..axes)
            .map(|a| {
                let v = grid.slide_axes()[a];
                if cells.iter().all(|&c| grid.slide_sweep(a, c) == [v]) {
                    return None;
                }
                Some(lines(
                    &mut cells.iter().flat_map(|&c| {
                        grid.slide_sweep(a, c)
                            .iter()
                            .map(move |o| [c[0] + o[0], c[1] + o[1], c[2] + o[2]])
                    }),
                    a,
                ))
            })
            .collect();
        let steps = cell_lines
            .iter()
            .map(|m| {
                m.values().fold((i32::MAX, i32::MIN), |(lo, hi), v| {
                    (lo.min(v[0]), hi.max(v[v.len() - 1]))
                })
            })
            .collect();
        ShapeLines {
            steps,
            cells: cell_lines,
            sweeps,
        }
    }
}

/// The limits along a straight axis, both ways: the smallest gap between a cell of `a` and a
/// cell of `b` (at offset `d`) further along each line, and the smallest the other way round.
fn gaps(grid: Grid, x: usize, a: &Lines, b: &Lines, d: Cell) -> (u32, u32) {
    let (mut fwd, mut back) = (FREE, FREE);
    for (base, bl) in b {
        let (line, t0) = grid.slide_line(x, [base[0] + d[0], base[1] + d[1], base[2] + d[2]]);
        let Some(al) = a.get(&line) else {
            continue;
        };
        // Merge the two sorted lines; the smallest gap is always between neighbours of
        // different pieces.
        let (mut i, mut j) = (0, 0);
        let (mut last_a, mut last_b): (Option<i32>, Option<i32>) = (None, None);
        while i < al.len() || j < bl.len() {
            let bj = bl.get(j).map(|&y| y + t0);
            let take_a = match (al.get(i), bj) {
                (Some(&p), Some(q)) => p < q,
                (Some(_), None) => true,
                _ => false,
            };
            if take_a {
                let p = al[i];
                if let Some(q) = last_b {
                    back = back.min((p - q - 1) as u32);
                }
                last_a = Some(p);
                i += 1;
            } else {
                let q = bj.unwrap_or_default();
                if let Some(p) = last_a {
                    fwd = fwd.min((q - p - 1) as u32);
                }
                last_b = Some(q);
                j += 1;
            }
        }
    }
    (fwd, back)
}

/// A straight axis's sweeps: each cell's next on its line.
fn next_cells(cells: &Lines) -> Lines {
    cells
        .iter()
        .map(|(l, ts)| (*l, ts.iter().map(|t| t + 1).collect()))
        .collect()
}

/// How far a shape whose sweeps along axis `a` are `sweeps` can step along +a before one of
/// them meets a cell of `cells`, a shape placed at offset `d` from it.
fn reach(grid: Grid, a: usize, sweeps: &Lines, cells: &Lines, d: Cell) -> u32 {
    let mut best = FREE;
    for (base, ts) in cells {
        // The other shape's line, moved by `d`: a line of this shape's frame, its steps
        // shifted by `t0`.
        let (line, t0) = grid.slide_line(a, [base[0] + d[0], base[1] + d[1], base[2] + d[2]]);
        let Some(qs) = sweeps.get(&line) else {
            continue;
        };
        // Both sorted: for each swept point the first cell at or past it.
        let mut j = 0;
        for &q in qs {
            while j < ts.len() && ts[j] + t0 < q {
                j += 1;
            }
            let Some(&t) = ts.get(j) else {
                break;
            };
            best = best.min((t + t0 - q) as u32);
            if best == 0 {
                return 0;
            }
        }
    }
    best
}

/// The cache's key is mixed into a fingerprint by [`key`], so the map hashes it no further.
#[derive(Default)]
struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xc4ce_b9fe_1a85_ec53) ^ (x >> 32);
    }
}

/// Interned shapes and the limits of every pair met so far, on one grid.
pub(crate) struct LimitCache {
    grid: Grid,
    ids: HashMap<Vec<Cell>, u32>,
    shapes: Vec<ShapeLines>,
    pairs: HashMap<u128, Limits, BuildHasherDefault<Mixed>>,
    /// A small direct-mapped copy of recently used pairs in front of `pairs`: one search
    /// reads the same few pairs again and again.
    recent: Vec<(u128, Limits)>,
}

/// Entries of [`LimitCache::recent`] (a power of two).
const RECENT: usize = 1024;

/// The cache key of shapes `a`, `b` with `b`'s anchor at offset `d` from `a`'s.
fn key(a: u32, b: u32, d: [i32; 3]) -> u128 {
    let o = |v: i32| (v as u16) as u128;
    (a as u128) | (b as u128) << 32 | o(d[0]) << 64 | o(d[1]) << 80 | o(d[2]) << 96
}

impl LimitCache {
    /// An empty cache for shapes on `grid` (one with slide axes, at most [`MAX_AXES`]).
    pub(crate) fn new(grid: Grid) -> LimitCache {
        debug_assert!((1..=MAX_AXES).contains(&grid.slide_axes().len()));
        LimitCache {
            grid,
            ids: HashMap::new(),
            shapes: Vec::new(),
            pairs: HashMap::default(),
            recent: Vec::new(),
        }
    }

    /// The id of the shape made of `cells` (already moved by one of the grid's translations
    /// to near the origin, so that every cell keeps its kind); a new id the first time a
    /// shape is seen.
    pub(crate) fn intern(&mut self, cells: Vec<Cell>) -> u32 {
        if let Some(&id) = self.ids.get(&cells) {
            return id;
        }
        let id = self.shapes.len() as u32;
        self.shapes.push(ShapeLines::new(self.grid, &cells));
        self.ids.insert(cells, id);
        id
    }

    /// [`Grid::slide_line`] on the cache's grid.
    #[inline]
    pub(crate) fn line(&self, a: usize, c: Cell) -> (Cell, i32) {
        self.grid.slide_line(a, c)
    }

    /// The smallest and largest step of shape `id`'s cells along the lines of axis `a`.
    pub(crate) fn steps(&self, id: u32, a: usize) -> (i32, i32) {
        self.shapes[id as usize].steps[a]
    }

    /// Number of pairs computed so far.
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The limits of shape `a` against shape `b` placed with its anchor at offset `d` (at most
    /// ±32767 per axis) from `a`'s: for each slide axis `x`, how far `a` can slide in the
    /// positive direction (entry `2x`) and in the negative direction (entry `2x + 1`) while
    /// `b` stays.
    pub(crate) fn get(&mut self, a: u32, b: u32, d: [i32; 3]) -> Limits {
        let k = key(a, b, d);
        let slot = {
            let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
            (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize & (RECENT - 1)
        };
        if self.recent.is_empty() {
            // Key 0 (shape 0 against itself at offset 0, which never occurs) marks empty.
            self.recent = vec![(0, [0; 2 * MAX_AXES]); RECENT];
        }
        if self.recent[slot].0 == k {
            return self.recent[slot].1;
        }
        let v = match self.pairs.get(&k) {
            Some(v) => *v,
            None => {
                let v = self.compute(a, b, d);
                self.pairs.insert(k, v);
                v
            }
        };
        self.recent[slot] = (k, v);
        v
    }

    fn compute(&self, a: u32, b: u32, d: [i32; 3]) -> Limits {
        let (sa, sb) = (&self.shapes[a as usize], &self.shapes[b as usize]);
        let back = [-d[0], -d[1], -d[2]];
        let mut out = [FREE as u16; 2 * MAX_AXES];
        for x in 0..sa.cells.len() {
            let g = self.grid;
            let (fwd, bwd) = match (&sa.sweeps[x], &sb.sweeps[x]) {
                (None, None) => gaps(g, x, &sa.cells[x], &sb.cells[x], d),
                (wa, wb) => {
                    // A straight shape's sweeps are made only when the other shape sweeps.
                    let (made_a, made_b);
                    let wa = match wa {
                        Some(w) => w,
                        None => {
                            made_a = next_cells(&sa.cells[x]);
                            &made_a
                        }
                    };
                    let wb = match wb {
                        Some(w) => w,
                        None => {
                            made_b = next_cells(&sb.cells[x]);
                            &made_b
                        }
                    };
                    (
                        reach(g, x, wa, &sb.cells[x], d),
                        // `a` sliding -x is `b` sliding +x against it.
                        reach(g, x, wb, &sa.cells[x], back),
                    )
                }
            };
            out[2 * x] = fwd as u16;
            out[2 * x + 1] = bwd as u16;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_along_each_axis() {
        let mut c = LimitCache::new(Grid::Cube);
        let one = c.intern(vec![[0, 0, 0]]);
        const F: u16 = FREE as u16;
        // b three cells further along +x: a slides 2 towards it, freely away from it.
        let v = c.get(one, one, [3, 0, 0]);
        assert_eq!(v, [2, F, F, F, F, F, F, F]);
        let v = c.get(one, one, [0, -1, 0]);
        assert_eq!(v[3], 0);
        assert_eq!(v[2], F);
        // Not on a common line: free everywhere.
        assert_eq!(c.get(one, one, [1, 1, 0]), [F; 8]);
    }

    #[test]
    fn a_piece_around_another() {
        let mut c = LimitCache::new(Grid::Cube);
        // A U open towards +y: cells (0,0) (1,0) (2,0) (0,1) (2,1); b in the notch at (1,1).
        let u = c.intern(vec![[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0]]);
        let b = c.intern(vec![[0, 0, 0]]);
        let v = c.get(u, b, [1, 1, 0]);
        // The U cannot move along x (b sits between its arms) nor +y (b above its base)...
        assert_eq!((v[0], v[1], v[2]), (0, 0, 0));
        // ...but it can slide freely along -y, away from b, and along z.
        assert_eq!((v[3], v[4], v[5]), (FREE as u16, FREE as u16, FREE as u16));
    }

    #[test]
    fn a_triangle_sweeps_across_its_neighbour() {
        let mut c = LimitCache::new(Grid::Prism);
        // An up triangle at (1, 1) and a down one at (2, 2), its right-hand neighbour: a
        // step along +x (two columns) or +x+y passes through the down triangle; along the
        // side they share (-x+y) they slide past each other.
        // Shapes are moved by the grid's translations: the down triangle by [2, 0, 0].
        let up = c.intern(vec![[1, 1, 0]]);
        let down = c.intern(vec![[0, 2, 0]]);
        assert_eq!(Grid::Prism.translation_below([2, 2, 0]), [2, 0, 0]);
        let v = c.get(up, down, [2, 0, 0]);
        assert_eq!(v[2], 0, "+x");
        assert_eq!(v[3], FREE as u16, "-x");
        assert_eq!(v[4], 0, "+x+y");
        assert_eq!(v[6], FREE as u16, "-x+y");
        assert_eq!((v[0], v[1]), (FREE as u16, FREE as u16), "z");
        // Two up triangles side by side (two columns apart) along +x.
        let v = c.get(up, up, [2, 0, 0]);
        assert_eq!(v[2], 0);
        let v = c.get(up, up, [6, 0, 0]);
        assert_eq!(v[2], 2);
    }
}
