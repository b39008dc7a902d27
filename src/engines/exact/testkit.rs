//! A small self-contained polycube model builder for the engines' own tests and benchmarks
//! (rotations, placements in a set of cells, orbit restriction), plus the piece sets of a few
//! published puzzles. The real puzzle pipeline lives in [`crate::placements`]; this module only
//! lets the engines be exercised on realistic models without it.

use crate::model::{CellGeometry, ExactCover, Item};
use std::collections::HashMap;

/// A unit cube `[x, y, z]`.
pub type Cell = [i32; 3];

/// Pieces of the Tetris Cube (12 pieces, 4x4x4 box; 9,839 solutions up to rotation).
pub const TETRIS_CUBE: &[(&str, &[Cell])] = &[
    (
        "0",
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [3, 1, 0]],
    ),
    (
        "1",
        &[[0, 1, 1], [1, 1, 1], [2, 0, 0], [2, 0, 1], [2, 1, 1]],
    ),
    (
        "2",
        &[
            [0, 0, 0],
            [0, 1, 0],
            [0, 2, 0],
            [0, 2, 1],
            [0, 2, 2],
            [1, 2, 1],
        ],
    ),
    (
        "3",
        &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
    ),
    (
        "4",
        &[[0, 0, 1], [0, 0, 2], [0, 1, 2], [1, 0, 0], [1, 0, 1]],
    ),
    (
        "5",
        &[[0, 0, 1], [1, 0, 1], [2, 0, 0], [2, 0, 1], [3, 0, 1]],
    ),
    (
        "6",
        &[
            [0, 0, 0],
            [0, 1, 0],
            [0, 2, 0],
            [0, 2, 1],
            [0, 2, 2],
            [1, 2, 2],
        ],
    ),
    (
        "7",
        &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 2, 1], [0, 2, 2]],
    ),
    (
        "8",
        &[
            [0, 1, 1],
            [0, 1, 2],
            [1, 0, 1],
            [1, 1, 0],
            [1, 1, 1],
            [1, 2, 1],
        ],
    ),
    (
        "9",
        &[[0, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 1], [1, 2, 1]],
    ),
    (
        "10",
        &[[0, 0, 1], [1, 0, 1], [1, 1, 0], [1, 1, 1], [2, 1, 0]],
    ),
    (
        "11",
        &[
            [0, 0, 2],
            [0, 1, 2],
            [1, 0, 0],
            [1, 0, 1],
            [1, 0, 2],
            [2, 0, 1],
        ],
    ),
];

/// The seven Soma pieces (3x3x3 cube: 11,520 solutions).
pub const SOMA: &[(&str, &[Cell])] = &[
    ("V", &[[0, 0, 0], [0, 1, 0], [1, 0, 0]]),
    ("L", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]),
    ("T", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]]),
    ("Z", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]),
    ("A", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]]),
    ("B", &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]]),
    ("P", &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]),
];

/// The twelve pentominoes (6x10: 9,356 solutions; 3x20: 8).
pub const PENTOMINOES: &[(&str, &[Cell])] = &[
    (
        "F",
        &[[0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 0, 0]],
    ),
    (
        "I",
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 0]],
    ),
    (
        "L",
        &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0], [1, 0, 0]],
    ),
    (
        "N",
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]],
    ),
    (
        "P",
        &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0], [1, 1, 0]],
    ),
    (
        "T",
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 0, 0]],
    ),
    (
        "U",
        &[[0, 0, 0], [0, 1, 0], [1, 1, 0], [2, 0, 0], [2, 1, 0]],
    ),
    (
        "V",
        &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0], [2, 0, 0]],
    ),
    (
        "W",
        &[[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0], [2, 2, 0]],
    ),
    (
        "X",
        &[[0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 1, 0]],
    ),
    (
        "Y",
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0], [3, 0, 0]],
    ),
    (
        "Z",
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 2, 0]],
    ),
];

/// The 24 proper rotations as integer matrices (signed permutation matrices of determinant 1).
pub fn rotations() -> Vec<[[i32; 3]; 3]> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::new();
    for p in perms {
        // Parity of the permutation: odd permutations need an odd number of sign flips.
        let odd = matches!(p, [0, 2, 1] | [1, 0, 2] | [2, 1, 0]);
        for signs in 0..8u32 {
            let s: Vec<i32> = (0..3)
                .map(|k| if signs >> k & 1 == 1 { -1 } else { 1 })
                .collect();
            let det_sign = s[0] * s[1] * s[2] * if odd { -1 } else { 1 };
            if det_sign == 1 {
                let mut m = [[0; 3]; 3];
                for r in 0..3 {
                    m[r][p[r]] = s[r];
                }
                out.push(m);
            }
        }
    }
    out
}

fn rotate(m: &[[i32; 3]; 3], c: Cell) -> Cell {
    let mut out = [0; 3];
    for (r, row) in m.iter().enumerate() {
        out[r] = row[0] * c[0] + row[1] * c[1] + row[2] * c[2];
    }
    out
}

/// Translates to the origin corner and sorts, the canonical form of a shape.
fn normalize(cells: &mut [Cell]) {
    let mut min = [i32::MAX; 3];
    for c in cells.iter() {
        for k in 0..3 {
            min[k] = min[k].min(c[k]);
        }
    }
    for c in cells.iter_mut() {
        for k in 0..3 {
            c[k] -= min[k];
        }
    }
    cells.sort_unstable();
}

/// The distinct orientations of a shape under the 24 rotations, each normalized.
pub fn orientations(shape: &[Cell]) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for m in rotations() {
        let mut v: Vec<Cell> = shape.iter().map(|&c| rotate(&m, c)).collect();
        normalize(&mut v);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The cells of an `x` by `y` by `z` box.
pub fn box_cells(x: i32, y: i32, z: i32) -> Vec<Cell> {
    let mut v = Vec::new();
    for k in 0..z {
        for j in 0..y {
            for i in 0..x {
                v.push([i, j, k]);
            }
        }
    }
    v
}

/// One piece of a test model: name, shape, number of identical copies (`0` = optional piece,
/// used at most once).
pub struct Piece<'a> {
    pub name: &'a str,
    pub cells: &'a [Cell],
    pub count: u32,
}

/// Builds the exact-cover model of placing `pieces` into `must` cells (covered exactly once)
/// plus `optional` cells (covered at most once), with every rotation and translation that fits;
/// items are the pieces, then the `must` cells, then the `optional` cells.
pub fn model(pieces: &[Piece], must: &[Cell], optional: &[Cell]) -> ExactCover {
    let cells: Vec<Cell> = must.iter().chain(optional).copied().collect();
    let index: HashMap<Cell, u32> = cells
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u32))
        .collect();
    let first = pieces.len() as u32;
    let mut items: Vec<Item> = pieces
        .iter()
        .map(|p| Item {
            name: p.name.to_string(),
            need: p.count,
        })
        .collect();
    items.extend(must.iter().map(|c| Item {
        name: format!("{c:?}"),
        need: 1,
    }));
    items.extend(optional.iter().map(|c| Item {
        name: format!("{c:?}"),
        need: 0,
    }));
    let mut options = Vec::new();
    let mut lo = [i32::MAX; 3];
    let mut hi = [i32::MIN; 3];
    for c in &cells {
        for k in 0..3 {
            lo[k] = lo[k].min(c[k]);
            hi[k] = hi[k].max(c[k]);
        }
    }
    for (p, piece) in pieces.iter().enumerate() {
        for o in orientations(piece.cells) {
            for dz in lo[2]..=hi[2] {
                for dy in lo[1]..=hi[1] {
                    for dx in lo[0]..=hi[0] {
                        let placed: Option<Vec<u32>> = o
                            .iter()
                            .map(|c| {
                                index
                                    .get(&[c[0] + dx, c[1] + dy, c[2] + dz])
                                    .map(|&i| i + first)
                            })
                            .collect();
                        if let Some(mut v) = placed {
                            v.sort_unstable();
                            v.insert(0, p as u32);
                            options.push(v);
                        }
                    }
                }
            }
        }
    }
    let neighbors = cells
        .iter()
        .map(|c| {
            let mut n: Vec<u32> = [
                [1, 0, 0],
                [-1, 0, 0],
                [0, 1, 0],
                [0, -1, 0],
                [0, 0, 1],
                [0, 0, -1],
            ]
            .iter()
            .filter_map(|d| index.get(&[c[0] + d[0], c[1] + d[1], c[2] + d[2]]).copied())
            .collect();
            n.sort_unstable();
            n
        })
        .collect();
    ExactCover {
        items,
        options,
        forced: Vec::new(),
        geometry: Some(CellGeometry {
            first_cell: first,
            neighbors,
            piece_sizes: pieces.iter().map(|p| p.cells.len() as u32).collect(),
        }),
    }
}

/// Pieces with one copy each.
pub fn singles<'a>(set: &'a [(&'a str, &'a [Cell])]) -> Vec<Piece<'a>> {
    set.iter()
        .map(|&(name, cells)| Piece {
            name,
            cells,
            count: 1,
        })
        .collect()
}

/// Restricts piece item `piece` of a model built by [`model`] on `cells` (must cells then
/// optional cells, as passed to [`model`]) to one placement per orbit of the rotations mapping
/// the target onto itself. Returns `None` unless every orbit has the full group size (trivial
/// stabilisers), which is what makes "solutions with this restriction" equal "solutions up to
/// rotation".
pub fn restrict_to_rotation_orbits(
    m: &ExactCover,
    cells: &[Cell],
    piece: u32,
) -> Option<ExactCover> {
    let mut sorted = cells.to_vec();
    normalize(&mut sorted);
    let index: HashMap<Cell, u32> = {
        let mut norm = cells.to_vec();
        let mut min = [i32::MAX; 3];
        for c in &norm {
            for k in 0..3 {
                min[k] = min[k].min(c[k]);
            }
        }
        for c in norm.iter_mut() {
            for k in 0..3 {
                c[k] -= min[k];
            }
        }
        norm.iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect()
    };
    let mut perms: Vec<Vec<u32>> = Vec::new();
    for r in rotations() {
        let mut rot: Vec<Cell> = sorted.iter().map(|&c| rotate(&r, c)).collect();
        normalize(&mut rot);
        if rot != sorted {
            continue;
        }
        // Map each normalized cell through the rotation, re-normalized by the same offset.
        let raw: Vec<Cell> = sorted.iter().map(|&c| rotate(&r, c)).collect();
        let mut min = [i32::MAX; 3];
        for c in &raw {
            for k in 0..3 {
                min[k] = min[k].min(c[k]);
            }
        }
        let mut perm = vec![0u32; cells.len()];
        for (c, rc) in sorted.iter().zip(&raw) {
            let to = [rc[0] - min[0], rc[1] - min[1], rc[2] - min[2]];
            perm[index[c] as usize] = index[&to];
        }
        perms.push(perm);
    }
    let first = m.geometry.as_ref()?.first_cell;
    let by_items: HashMap<&[u32], usize> = m
        .options
        .iter()
        .enumerate()
        .map(|(o, v)| (v.as_slice(), o))
        .collect();
    let mut keep = vec![true; m.options.len()];
    let mut seen = vec![false; m.options.len()];
    for (o, items) in m.options.iter().enumerate() {
        if items[0] != piece || seen[o] {
            continue;
        }
        let mut orbit = Vec::new();
        for perm in &perms {
            let mut img: Vec<u32> = items[1..]
                .iter()
                .map(|&i| perm[(i - first) as usize] + first)
                .collect();
            img.sort_unstable();
            img.insert(0, piece);
            let &t = by_items.get(img.as_slice())?;
            if !orbit.contains(&t) {
                orbit.push(t);
            }
        }
        if orbit.len() != perms.len() {
            return None;
        }
        for &t in &orbit {
            seen[t] = true;
            keep[t] = t == o;
        }
    }
    let mut out = m.clone();
    out.options = m
        .options
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| v.clone())
        .collect();
    Some(out)
}

/// A piece item of `set` with 24 distinct orientations, the first one found.
pub fn asymmetric_piece(set: &[(&str, &[Cell])]) -> Option<u32> {
    set.iter()
        .position(|(_, cells)| orientations(cells).len() == 24)
        .map(|p| p as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_counts_match_known_values() {
        assert_eq!(rotations().len(), 24);
        let l4: &[Cell] = &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]];
        let i4: &[Cell] = &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]];
        let branch: &[Cell] = &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]];
        assert_eq!(orientations(l4).len(), 24);
        assert_eq!(orientations(i4).len(), 3);
        assert_eq!(orientations(branch).len(), 8);
    }

    #[test]
    fn soma_model_is_valid() {
        let m = model(&singles(SOMA), &box_cells(3, 3, 3), &[]);
        m.validate().unwrap();
        assert_eq!(m.items.len(), 7 + 27);
    }
}
