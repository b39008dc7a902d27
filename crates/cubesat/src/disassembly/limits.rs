//! Pairwise slide limits: how far one piece can slide along each axis direction while another stays put, computed from their cells and cached by shape and relative position.
//!
//! The limit of piece A against piece B in direction +a is the smallest gap, along a line
//! parallel to axis a, between a cell of A and a cell of B further along +a (the number of empty
//! cells between them); [`FREE`] when no line holds a cell of A followed by a cell of B. The
//! analyser closes these limits under "A pushes B, B pushes C" itself; here they are only read
//! off the cells, once per pair of shapes and relative position (many assemblies of one puzzle
//! share them).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::geometry::Cell;

/// The limit of a pair that never meets in that direction: the piece slides without end.
/// Any finite limit is far below it, and so is the sum of two finite limits; a sum with a
/// `FREE` term stays at or above it.
pub(crate) const FREE: u32 = 32_000;

/// One shape as the cache sees it: its cells as lines along each axis.
struct ShapeLines {
    /// The largest coordinate of a cell along each axis (the smallest is 0).
    extent: [i32; 3],
    /// Per axis a: the lines parallel to a, keyed by the two other coordinates, each holding
    /// the sorted coordinates along a of the shape's cells on that line.
    lines: [HashMap<(i32, i32), Vec<i32>>; 3],
}

/// The two coordinates other than axis `a`, in increasing axis order.
fn across(c: Cell, a: usize) -> (i32, i32) {
    match a {
        0 => (c[1], c[2]),
        1 => (c[0], c[2]),
        _ => (c[0], c[1]),
    }
}

impl ShapeLines {
    fn new(cells: &[Cell]) -> ShapeLines {
        let lines = std::array::from_fn(|a| {
            let mut m: HashMap<(i32, i32), Vec<i32>> = HashMap::new();
            for &c in cells {
                m.entry(across(c, a)).or_default().push(c[a]);
            }
            for v in m.values_mut() {
                v.sort_unstable();
            }
            m
        });
        let extent = std::array::from_fn(|a| cells.iter().map(|c| c[a]).max().unwrap_or(0));
        ShapeLines { extent, lines }
    }
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

/// Interned shapes and the limits of every pair met so far.
#[derive(Default)]
pub(crate) struct LimitCache {
    ids: HashMap<Vec<Cell>, u32>,
    shapes: Vec<ShapeLines>,
    pairs: HashMap<u128, [u16; 6], BuildHasherDefault<Mixed>>,
    /// A small direct-mapped copy of recently used pairs in front of `pairs`: one search
    /// reads the same few pairs again and again.
    recent: Vec<(u128, [u16; 6])>,
}

/// Entries of [`LimitCache::recent`] (a power of two).
const RECENT: usize = 1024;

/// The cache key of shapes `a`, `b` with `b`'s anchor at offset `d` from `a`'s.
fn key(a: u32, b: u32, d: [i32; 3]) -> u128 {
    let o = |v: i32| (v as u16) as u128;
    (a as u128) | (b as u128) << 32 | o(d[0]) << 64 | o(d[1]) << 80 | o(d[2]) << 96
}

impl LimitCache {
    /// The id of the shape made of `cells` (already translated so that its smallest corner is
    /// the origin); a new id the first time a shape is seen.
    pub(crate) fn intern(&mut self, cells: Vec<Cell>) -> u32 {
        if let Some(&id) = self.ids.get(&cells) {
            return id;
        }
        let id = self.shapes.len() as u32;
        self.shapes.push(ShapeLines::new(&cells));
        self.ids.insert(cells, id);
        id
    }

    /// The largest cell coordinate of shape `id` along each axis.
    pub(crate) fn extent(&self, id: u32) -> [i32; 3] {
        self.shapes[id as usize].extent
    }

    /// Number of pairs computed so far.
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The limits of shape `a` against shape `b` placed with its anchor at offset `d` (at most
    /// ±32767 per axis) from `a`'s: for each axis, how far `a` can slide in the positive
    /// direction (entries 0..3) and in the negative direction (entries 3..6) while `b` stays.
    pub(crate) fn get(&mut self, a: u32, b: u32, d: [i32; 3]) -> [u16; 6] {
        let k = key(a, b, d);
        let slot = {
            let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
            (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize & (RECENT - 1)
        };
        if self.recent.is_empty() {
            // Key 0 (shape 0 against itself at offset 0, which never occurs) marks empty.
            self.recent = vec![(0, [0; 6]); RECENT];
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

    fn compute(&self, a: u32, b: u32, d: [i32; 3]) -> [u16; 6] {
        let (sa, sb) = (&self.shapes[a as usize], &self.shapes[b as usize]);
        let mut out = [FREE as u16; 6];
        for axis in 0..3 {
            let (du, dv) = across(d, axis);
            let (mut fwd, mut back) = (FREE, FREE);
            for (&(u, v), bl) in &sb.lines[axis] {
                let Some(al) = sa.lines[axis].get(&(u + du, v + dv)) else {
                    continue;
                };
                // Merge the two sorted lines; the smallest gap is always between neighbours
                // of different pieces.
                let (mut i, mut j) = (0, 0);
                let (mut last_a, mut last_b): (Option<i32>, Option<i32>) = (None, None);
                while i < al.len() || j < bl.len() {
                    let bj = bl.get(j).map(|&x| x + d[axis]);
                    let take_a = match (al.get(i), bj) {
                        (Some(&x), Some(y)) => x < y,
                        (Some(_), None) => true,
                        _ => false,
                    };
                    if take_a {
                        let x = al[i];
                        if let Some(y) = last_b {
                            back = back.min((x - y - 1) as u32);
                        }
                        last_a = Some(x);
                        i += 1;
                    } else {
                        let y = bj.unwrap_or_default();
                        if let Some(x) = last_a {
                            fwd = fwd.min((y - x - 1) as u32);
                        }
                        last_b = Some(y);
                        j += 1;
                    }
                }
            }
            out[axis] = fwd.min(FREE) as u16;
            out[3 + axis] = back.min(FREE) as u16;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_along_each_axis() {
        let mut c = LimitCache::default();
        let one = c.intern(vec![[0, 0, 0]]);
        // b three cells further along +x: a slides 2 towards it, freely away from it.
        let v = c.get(one, one, [3, 0, 0]);
        assert_eq!(
            v,
            [
                2,
                FREE as u16,
                FREE as u16,
                FREE as u16,
                FREE as u16,
                FREE as u16
            ]
        );
        let v = c.get(one, one, [0, -1, 0]);
        assert_eq!(v[4], 0);
        assert_eq!(v[1], FREE as u16);
        // Not on a common line: free everywhere.
        assert_eq!(c.get(one, one, [1, 1, 0]), [FREE as u16; 6]);
    }

    #[test]
    fn a_piece_around_another() {
        let mut c = LimitCache::default();
        // A U open towards +y: cells (0,0) (1,0) (2,0) (0,1) (2,1); b in the notch at (1,1).
        let u = c.intern(vec![[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0]]);
        let b = c.intern(vec![[0, 0, 0]]);
        let v = c.get(u, b, [1, 1, 0]);
        // The U cannot move along x (b sits between its arms) nor +y (b above its base)...
        assert_eq!((v[0], v[3], v[1]), (0, 0, 0));
        // ...but it can slide freely along -y, away from b, and along z.
        assert_eq!((v[4], v[2], v[5]), (FREE as u16, FREE as u16, FREE as u16));
    }
}
