//! The slide-in assembly order: an order in which each piece can be lowered straight down (-z)
//! from above the box into its place without passing through pieces placed before it (the 3D
//! page's assembly steps when there is no disassembly plan).
//!
//! Piece P can be inserted after the set S of placed pieces iff, for every cell (x, y, z) of P,
//! no cell of S lies in the same column (x, y) at a greater z: that column segment is the volume
//! the cell sweeps while P slides down from above. (Columns are global: the caller puts
//! containers side by side, never on top of each other.) The condition is pairwise: "Q blocks
//! P" iff Q has a cell above a cell of P in some column, and then P must come before Q. A full
//! order therefore exists iff that "before" relation has no cycle (it is a topological order);
//! interlocking pieces (each above the other somewhere) make a cycle.

/// Result of [`assembly_order_cells`] and [`order_grouped`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssemblyOrder {
    /// Indices into the scene's pieces, in insertion order. When `complete` is false this is the
    /// longest insertable sequence found (exactly the longest for up to `EXACT_LIMIT` (16) pieces,
    /// greedy beyond): it leaves out the pieces that cannot slide in.
    pub order: Vec<usize>,
    /// Whether `order` holds every piece.
    pub complete: bool,
}

/// Up to this many pieces, an incomplete order is the longest possible (search over subsets).
pub const EXACT_LIMIT: usize = 16;

/// The slide-in order for pieces given by their cells (global coordinates).
///
/// Among the pieces that may go next, the one lowest down goes first (smallest lowest z, then
/// smallest sum of z, then smallest index), so the order builds the box up from the bottom.
/// Deterministic.
pub fn assembly_order_cells<C: AsRef<[[i32; 3]]>>(pieces: &[C]) -> AssemblyOrder {
    order_grouped(pieces, &vec![0; pieces.len()])
}

/// The order, with ties broken by `group[piece]` before height (one container filled before
/// the next).
pub fn order_grouped<C: AsRef<[[i32; 3]]>>(pieces: &[C], group: &[usize]) -> AssemblyOrder {
    let n = pieces.len();
    let before = before(pieces);
    let key: Vec<Key> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let p = p.as_ref();
            let min_z = p.iter().map(|c| c[2]).min().unwrap_or(0);
            let sum_z = p.iter().map(|c| c[2] as i64).sum();
            (group[i], min_z, sum_z, i)
        })
        .collect();
    let all: Vec<usize> = (0..n).collect();
    let order = topological(&all, &before, &key);
    if order.len() == n {
        return AssemblyOrder {
            order,
            complete: true,
        };
    }
    let subset = if n <= EXACT_LIMIT {
        largest_insertable_subset(n, &before, &key)
    } else {
        greedy_insertable_subset(n, &before, &key)
    };
    let order = topological(&subset, &before, &key);
    debug_assert_eq!(order.len(), subset.len());
    AssemblyOrder {
        order,
        complete: false,
    }
}

/// Preference among pieces that may go next, smallest first: (group, lowest z, sum of z, index).
type Key = (usize, i32, i64, usize);

/// A piece's cells in one column: (piece, lowest z, highest z).
type ColumnSpan = (usize, i32, i32);

/// `before[q]` = the pieces that must be placed before `q`: those `q` covers, i.e. `q` has a
/// cell above one of their cells in the same column (once `q` is in, they can no longer slide
/// down).
fn before<C: AsRef<[[i32; 3]]>>(pieces: &[C]) -> Vec<Vec<usize>> {
    use std::collections::HashMap;
    // Column (x, y) -> per piece (min z, max z) of its cells in that column.
    let mut columns: HashMap<(i32, i32), Vec<ColumnSpan>> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        for c in p.as_ref() {
            let col = columns.entry((c[0], c[1])).or_default();
            match col.iter_mut().find(|e| e.0 == i) {
                Some(e) => {
                    e.1 = e.1.min(c[2]);
                    e.2 = e.2.max(c[2]);
                }
                None => col.push((i, c[2], c[2])),
            }
        }
    }
    let n = pieces.len();
    let mut must = vec![vec![false; n]; n];
    for col in columns.values() {
        for &(p, p_min, _) in col {
            for &(q, _, q_max) in col {
                // q has a cell above p's lowest cell in this column: p goes before q.
                if p != q && q_max > p_min {
                    must[q][p] = true;
                }
            }
        }
    }
    must.into_iter()
        .map(|row| (0..n).filter(|&p| row[p]).collect())
        .collect()
}

/// Kahn's algorithm restricted to `subset` (constraints to pieces outside it are ignored):
/// repeatedly take, among the pieces whose predecessors in the subset are all placed, the one
/// with the smallest key. Returns as many pieces as can be ordered (all of them iff the subset
/// has no cycle).
fn topological(subset: &[usize], before: &[Vec<usize>], key: &[Key]) -> Vec<usize> {
    let n = before.len();
    let mut in_subset = vec![false; n];
    for &p in subset {
        in_subset[p] = true;
    }
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(subset.len());
    while let Some(q) = subset
        .iter()
        .copied()
        .filter(|&q| !placed[q] && before[q].iter().all(|&p| placed[p] || !in_subset[p]))
        .min_by_key(|&q| key[q])
    {
        placed[q] = true;
        order.push(q);
    }
    order
}

fn is_acyclic(subset: &[usize], before: &[Vec<usize>], key: &[Key]) -> bool {
    topological(subset, before, key).len() == subset.len()
}

/// Exact: a largest set of pieces with a valid insertion order (no cycle among them). Tries
/// leaving out 1, 2, ... pieces; among equally small sets of left-out pieces, prefers leaving
/// out higher indices.
fn largest_insertable_subset(n: usize, before: &[Vec<usize>], key: &[Key]) -> Vec<usize> {
    let full: u32 = (1u32 << n) - 1;
    for dropped in 1..=n as u32 {
        for mask in (0..=full).rev() {
            if mask.count_ones() != dropped {
                continue;
            }
            let subset: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) == 0).collect();
            if is_acyclic(&subset, before, key) {
                return subset;
            }
        }
    }
    Vec::new()
}

/// Greedy for many pieces: order what can be ordered; when stuck, leave out the stuck piece
/// with the most unplaced predecessors (ties: the highest index) and go on.
fn greedy_insertable_subset(n: usize, before: &[Vec<usize>], key: &[Key]) -> Vec<usize> {
    let mut subset: Vec<usize> = (0..n).collect();
    loop {
        let order = topological(&subset, before, key);
        if order.len() == subset.len() {
            return subset;
        }
        let placed: Vec<bool> = (0..n).map(|i| order.contains(&i)).collect();
        let in_subset: Vec<bool> = (0..n).map(|i| subset.contains(&i)).collect();
        let worst = subset
            .iter()
            .copied()
            .filter(|&q| !placed[q])
            .max_by_key(|&q| {
                let waiting = before[q]
                    .iter()
                    .filter(|&&p| in_subset[p] && !placed[p])
                    .count();
                (waiting, q)
            })
            .expect("a stuck subset has unplaced pieces");
        subset.retain(|&q| q != worst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_valid(pieces: &[Vec<[i32; 3]>], order: &[usize]) {
        let mut placed: Vec<[i32; 3]> = Vec::new();
        for &p in order {
            for c in &pieces[p] {
                assert!(
                    !placed
                        .iter()
                        .any(|q| q[0] == c[0] && q[1] == c[1] && q[2] > c[2]),
                    "piece {p} cannot slide down past placed cells"
                );
            }
            placed.extend(&pieces[p]);
        }
    }

    #[test]
    fn layered_box_builds_bottom_up() {
        // Three flat slabs in a 2x1x3 box, given top first.
        let pieces = vec![
            vec![[0, 0, 2], [1, 0, 2]],
            vec![[0, 0, 1], [1, 0, 1]],
            vec![[0, 0, 0], [1, 0, 0]],
        ];
        let a = assembly_order_cells(&pieces);
        assert!(a.complete);
        assert_eq!(a.order, vec![2, 1, 0]);
        check_valid(&pieces, &a.order);
    }

    #[test]
    fn interlocking_pieces_have_no_full_order() {
        // A C shape around a single cube: the cube is above the C's bottom arm and below its top
        // arm, so neither can slide in after the other.
        let pieces = vec![
            vec![[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2], [0, 0, 2]],
            vec![[0, 0, 1]],
            vec![[2, 0, 0], [2, 0, 1], [2, 0, 2]],
        ];
        let a = assembly_order_cells(&pieces);
        assert!(!a.complete);
        assert_eq!(a.order.len(), 2, "all but one piece: {:?}", a.order);
        assert!(a.order.contains(&2));
        check_valid(&pieces, &a.order);
    }

    #[test]
    fn piece_under_an_overhang_goes_first() {
        // Piece 1 (top slab) overhangs piece 0 in column (1,0).
        let pieces = vec![vec![[1, 0, 0]], vec![[0, 0, 0], [0, 0, 1], [1, 0, 1]]];
        let a = assembly_order_cells(&pieces);
        assert_eq!(a.order, vec![0, 1]);
        assert!(a.complete);
    }

    #[test]
    fn greedy_matches_exact_on_small_cycles() {
        let pieces = vec![
            vec![[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2], [0, 0, 2]],
            vec![[0, 0, 1]],
        ];
        let before = before(&pieces);
        let key = vec![(0, 0, 0, 0), (0, 1, 1, 1)];
        assert_eq!(
            largest_insertable_subset(2, &before, &key).len(),
            greedy_insertable_subset(2, &before, &key).len()
        );
    }

    #[test]
    fn empty_scene() {
        let pieces: Vec<Vec<[i32; 3]>> = Vec::new();
        let a = assembly_order_cells(&pieces);
        assert!(a.complete);
        assert!(a.order.is_empty());
    }
}
