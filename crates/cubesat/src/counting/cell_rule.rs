//! Symmetry broken at one target cell: the rule that keeps one solution of each class by the rank of its placement there.

use super::Branch;

use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::symmetry::PlacementSymmetries;
use std::cmp::Ordering;

/// Symmetry broken at one target cell `c` (see the module documentation): `R` holds the
/// solutions whose placement at `c` has a rank no higher than `least` of any of their
/// placements.
#[derive(Clone, Debug)]
pub(super) struct CellRule {
    /// The target cell `c`.
    pub(super) cell: u32,
    /// The placements covering `c`, in rank order (ascending placement index).
    roots: Vec<u32>,
    /// The rank of every placement covering `c`; `u32::MAX` for the others.
    rank: Vec<u32>,
    /// For every placement `q`, the least rank of `g⁻¹·q` over the elements `g` that map `c`
    /// into `q`'s cells; `u32::MAX` when `q` covers no cell of `c`'s orbit.
    least: Vec<u32>,
    /// For every placement `q` (from `hits_off[q]` to `hits_off[q + 1]`), each element `g`
    /// that maps `c` into `q`'s cells with the rank of `g⁻¹·q`.
    hits_off: Vec<u32>,
    hits: Vec<(u32, u32)>,
    /// The inverse of every element, when the rule uses the whole group: then the images of
    /// a solution `S` of `R` that lie in `R` are the `g⁻¹·S` of the elements `g` whose
    /// pulled-back rank ties with `S`'s own, so weighing `S` maps those alone.
    inverse: Option<Vec<usize>>,
}

impl CellRule {
    /// The rule for the elements `elements` of `group` (a subgroup, the identity included)
    /// at a must-fill cell that no hint covers: the one with the fewest placements (the
    /// fewest branches), then the largest orbit. Every element compares once whichever the
    /// cell (elements that fix it restrict its own placement), so the cell changes the
    /// pruning little: on the 25 Y pentacubes a corner (12 placements, 4 branches) and an
    /// edge cell (16) left 5,323 and 5,226 solutions for 2,528 classes, in the same time.
    /// `None` when no cell qualifies.
    pub(super) fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        group: &PlacementSymmetries,
        elements: &[usize],
    ) -> Option<CellRule> {
        let cells = puzzle.target.cells();
        let mut hinted = vec![false; cells.len()];
        for &h in table.hints() {
            for &c in &table.placements()[h as usize].cells {
                hinted[c as usize] = true;
            }
        }
        let mut orbit = Vec::with_capacity(elements.len());
        let mut best: Option<(usize, usize, u32)> = None;
        for (c, cell) in cells.iter().enumerate() {
            let covering = table.by_cell()[c].len();
            if cell.optional || hinted[c] || covering == 0 {
                continue;
            }
            orbit.clear();
            orbit.extend(elements.iter().map(|&e| group.cells[e][c]));
            orbit.sort_unstable();
            orbit.dedup();
            let key = (usize::MAX - covering, orbit.len());
            if best.is_none_or(|(k, o, _)| key > (k, o)) {
                best = Some((key.0, key.1, c as u32));
            }
        }
        let (_, _, cell) = best?;
        let roots = table.by_cell()[cell as usize].clone();
        let mut rank = vec![u32::MAX; table.len()];
        for (r, &o) in roots.iter().enumerate() {
            rank[o as usize] = r as u32;
        }
        // `g` maps the root `o` onto the placement `q` it has at `g·c`, so `g⁻¹·q = o`.
        let mut least = vec![u32::MAX; table.len()];
        let mut by_q: Vec<Vec<(u32, u32)>> = vec![Vec::new(); table.len()];
        for &e in elements {
            for (r, &o) in roots.iter().enumerate() {
                let q = group.images[e][o as usize] as usize;
                least[q] = least[q].min(r as u32);
                by_q[q].push((e as u32, r as u32));
            }
        }
        let mut hits_off = Vec::with_capacity(table.len() + 1);
        hits_off.push(0);
        let mut hits = Vec::new();
        for h in by_q {
            hits.extend(h);
            hits_off.push(hits.len() as u32);
        }
        let inverse = (elements.len() == group.len())
            .then(|| {
                let index: std::collections::HashMap<&[u32], usize> = (group.images.iter())
                    .enumerate()
                    .map(|(e, img)| (img.as_slice(), e))
                    .collect();
                let mut inv = vec![0u32; table.len()];
                group
                    .images
                    .iter()
                    .map(|img| {
                        for (q, &p) in img.iter().enumerate() {
                            inv[p as usize] = q as u32;
                        }
                        index.get(inv.as_slice()).copied()
                    })
                    .collect::<Option<Vec<usize>>>()
            })
            .flatten();
        Some(CellRule {
            cell,
            roots,
            rank,
            least,
            hits_off,
            hits,
            inverse,
        })
    }

    /// The weight of a solution of `R` when the rule uses the whole group (`None`
    /// otherwise): 0 unless it is the least of its images in `R`, else 1, or its orbit size
    /// `|G| / |Stab(S)|` with `orbit_sizes` (an element fixing `S` is the inverse of one
    /// that ties).
    pub(super) fn weight(
        &self,
        group: &PlacementSymmetries,
        solution: &[u32],
        image: &mut [u32],
        orbit_sizes: bool,
    ) -> Option<u64> {
        let inverse = self.inverse.as_ref()?;
        let root = solution
            .iter()
            .map(|&q| self.rank[q as usize])
            .min()
            .unwrap_or(u32::MAX);
        let mut fixing = 1u64;
        for &q in solution {
            let (from, to) = (self.hits_off[q as usize], self.hits_off[q as usize + 1]);
            for &(e, r) in &self.hits[from as usize..to as usize] {
                if r != root || e == 0 {
                    continue;
                }
                let img = &group.images[inverse[e as usize]];
                for (d, &p) in image.iter_mut().zip(solution) {
                    *d = img[p as usize];
                }
                image.sort_unstable();
                match (*image).cmp(solution) {
                    Ordering::Less => return Some(0),
                    Ordering::Equal => fixing += 1,
                    Ordering::Greater => {}
                }
            }
        }
        Some(if orbit_sizes {
            group.len() as u64 / fixing
        } else {
            1
        })
    }

    /// True when the solution lies in `R`.
    pub(super) fn holds(&self, solution: &[u32]) -> bool {
        let mut root = u32::MAX;
        let mut least = u32::MAX;
        for &q in solution {
            root = root.min(self.rank[q as usize]);
            least = least.min(self.least[q as usize]);
        }
        root != u32::MAX && least >= root
    }

    /// How many placements at `c` do not rule themselves out.
    pub(super) fn branch_count(&self) -> usize {
        (self.roots.iter().enumerate())
            .filter(|&(r, &o)| self.least[o as usize] >= r as u32)
            .count()
    }

    /// The branches, one per placement at `c` that does not rule itself out, each built when
    /// asked for: a branch's exclusions list up to every placement.
    pub(super) fn branches<'a>(&'a self, excluded: &'a [u32]) -> impl Iterator<Item = Branch> + 'a {
        (self.roots.iter().enumerate())
            .filter(|&(r, &o)| self.least[o as usize] >= r as u32)
            .map(move |(r, &o)| {
                let r = r as u32;
                let mut ex: Vec<u32> = excluded.to_vec();
                ex.extend((0..self.least.len() as u32).filter(|&q| self.least[q as usize] < r));
                ex.sort_unstable();
                ex.dedup();
                Branch {
                    forced: vec![o],
                    excluded: ex,
                }
            })
    }
}
