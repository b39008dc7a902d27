//! Hand-made sample scenes (a Tetris Cube solution, a 10x6 pentomino board, two 4x2x2 boxes,
//! a hints-only view, square pyramids of balls) for tests, documentation pictures and demos of the renderers.

use super::{Container, Scene, ScenePiece};
use std::collections::BTreeMap;

/// Build pieces from layer grids. `layers[z][row]` is a row of whitespace-separated tokens, one
/// per x; `rows_top_high_y` says whether the first row is the highest y (else y = 0). Token `.`
/// is an empty target cell, `_` a cell outside the target, anything else a piece id; pieces are
/// ordered by first appearance unless `order` lists the ids.
fn from_layers(
    title: &str,
    origin: [i32; 3],
    layers: &[&[&str]],
    rows_top_high_y: bool,
    order: Option<&[&str]>,
    describe: impl Fn(usize, &str) -> (String, char, bool),
) -> Scene {
    let sz = layers.len() as i32;
    let sy = layers[0].len() as i32;
    let sx = layers[0][0].split_whitespace().count() as i32;
    let mut cells: BTreeMap<String, Vec<[i32; 3]>> = BTreeMap::new();
    let mut seen: Vec<String> = Vec::new();
    let mut empty = Vec::new();
    for (z, layer) in layers.iter().enumerate() {
        assert_eq!(layer.len() as i32, sy, "every layer has the same rows");
        for (r, row) in layer.iter().enumerate() {
            let y = if rows_top_high_y {
                sy - 1 - r as i32
            } else {
                r as i32
            };
            let tokens: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(tokens.len() as i32, sx, "row {row:?} has {sx} cells");
            for (x, t) in tokens.into_iter().enumerate() {
                let c = [origin[0] + x as i32, origin[1] + y, origin[2] + z as i32];
                match t {
                    "." => empty.push(c),
                    "_" => {}
                    id => {
                        if !seen.iter().any(|s| s == id) {
                            seen.push(id.to_string());
                        }
                        cells.entry(id.to_string()).or_default().push(c);
                    }
                }
            }
        }
    }
    let ids: Vec<String> = match order {
        Some(o) => o.iter().map(|s| s.to_string()).collect(),
        None => seen,
    };
    let pieces = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let (name, letter, hint) = describe(i, id);
            ScenePiece {
                name,
                letter,
                hint,
                cells: cells.remove(id).unwrap_or_default(),
                color: i,
            }
        })
        .collect();
    Scene {
        title: title.to_string(),
        containers: vec![Container {
            origin,
            size: [sx, sy, sz],
        }],
        pieces,
        empty,
        loose: false,
        ..Default::default()
    }
}

/// A Tetris Cube solution: a 4x4x4 box, twelve pieces `A`..`L` (ids 0..11).
pub fn tetris_cube() -> Scene {
    let ids: Vec<String> = (0..12).map(|i| i.to_string()).collect();
    let order: Vec<&str> = ids.iter().map(String::as_str).collect();
    from_layers(
        "Tetris Cube, solution 1",
        [0, 0, 0],
        &[
            &["3 3 2 7", "3 3 2 7", "0 0 2 7", "1 0 0 0"],
            &["3 2 2 7", "8 10 10 6", "1 1 1 6", "1 11 4 6"],
            &["8 5 2 7", "8 8 10 6", "8 9 10 10", "11 11 4 4"],
            &["5 5 5 5", "9 8 6 6", "9 9 11 4", "9 11 11 4"],
        ],
        false,
        Some(&order),
        |i, _| (format!("piece {i}"), (b'A' + i as u8) as char, false),
    )
}

/// A 6x10 pentomino board (10 wide, 6 high, one layer), pieces named by their usual letters.
pub fn pentominoes_10x6() -> Scene {
    let rows = [
        "YWWTTTXPPP",
        "YYWWTXXXPP",
        "YNNWTUXUZZ",
        "YFNNNUUUZV",
        "FFFLLLLZZV",
        "FIIIIILVVV",
    ];
    let spaced: Vec<String> = rows
        .iter()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect();
    let layer: Vec<&str> = spaced.iter().map(String::as_str).collect();
    from_layers(
        "Pentominoes 10x6",
        [0, 0, 0],
        &[&layer],
        true,
        None,
        |_, id| {
            (
                format!("{id} pentomino"),
                id.chars().next().unwrap_or('?'),
                false,
            )
        },
    )
}

/// Two separate 4x2x2 boxes side by side (x 0..4 and 5..9), each packed with four tetracubes;
/// piece `o` in the first box is a hint.
pub fn two_boxes() -> Scene {
    let a = from_layers(
        "",
        [0, 0, 0],
        &[&["I I I I", "o o L L"], &["T T T L", "o o T L"]],
        true,
        None,
        |_, id| (String::new(), id.chars().next().unwrap_or('?'), id == "o"),
    );
    let b = from_layers(
        "",
        [5, 0, 0],
        &[&["S S Z Z", "N S S Z"], &["N N Z J", "N J J J"]],
        true,
        None,
        |_, id| (String::new(), id.chars().next().unwrap_or('?'), false),
    );
    let mut pieces = a.pieces;
    pieces.extend(b.pieces);
    for p in &mut pieces {
        p.name = format!("tetracube {}", p.letter.to_ascii_uppercase());
    }
    Scene {
        title: "Two 4x2x2 boxes".to_string(),
        containers: vec![a.containers[0], b.containers[0]],
        pieces,
        empty: Vec::new(),
        loose: false,
        ..Default::default()
    }
}

/// Balls on the sphere grid from layer art in the layer frame
/// ([`crate::geometry::sphere_from_layer`]): `layers[k][row]` is a row of whitespace-separated
/// tokens, one per column, the first row row 0; `.` is an empty target ball, `_` no ball,
/// anything else a piece id (pieces in order of first appearance, named by `describe`). The
/// container is the bounding box of the balls in the cube grid's coordinates.
fn balls_from_layers(
    title: &str,
    layers: &[&[&str]],
    describe: impl Fn(usize, &str) -> (String, char, bool),
) -> Scene {
    use crate::geometry::sphere_from_layer;
    let mut cells: BTreeMap<String, Vec<[i32; 3]>> = BTreeMap::new();
    let mut seen: Vec<String> = Vec::new();
    let mut empty = Vec::new();
    let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
    for (k, layer) in layers.iter().enumerate() {
        for (j, row) in layer.iter().enumerate() {
            for (i, t) in row.split_whitespace().enumerate() {
                let c = sphere_from_layer([i as i32, j as i32, k as i32]);
                if t == "_" {
                    continue;
                }
                for a in 0..3 {
                    lo[a] = lo[a].min(c[a]);
                    hi[a] = hi[a].max(c[a]);
                }
                if t == "." {
                    empty.push(c);
                    continue;
                }
                if !seen.iter().any(|s| s == t) {
                    seen.push(t.to_string());
                }
                cells.entry(t.to_string()).or_default().push(c);
            }
        }
    }
    let pieces = seen
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let (name, letter, hint) = describe(i, id);
            ScenePiece {
                name,
                letter,
                hint,
                cells: cells.remove(id).unwrap_or_default(),
                color: i,
            }
        })
        .collect();
    Scene {
        title: title.to_string(),
        containers: vec![Container {
            origin: lo,
            size: std::array::from_fn(|a| hi[a] - lo[a] + 1),
        }],
        pieces,
        empty,
        loose: false,
        grid: crate::geometry::Grid::Sphere,
    }
}

/// A square pyramid of 30 balls (layers 4x4, 3x3, 2x2, 1x1 on the sphere grid) packed with six
/// five-ball pieces `A`..`F`, each piece connected through touching balls.
pub fn square_pyramid() -> Scene {
    balls_from_layers(
        "Square pyramid, 30 balls",
        &[
            &["A A B B", "A C C B", "D C E E", "D D E F"],
            &["A B B", "D C E", "D F F"],
            &["A E", "C F"],
            &["F"],
        ],
        |_, id| {
            let letter = id.chars().next().unwrap_or('?');
            (format!("piece {letter}"), letter, false)
        },
    )
}

/// A square pyramid of 14 balls (layers 3x3, 2x2, 1x1) with three four-ball pieces, a hint
/// `d` and one ball left empty.
pub fn small_pyramid() -> Scene {
    balls_from_layers(
        "Square pyramid, 14 balls",
        &[&["A A A", "B C C", "B B C"], &["A d", "B ."], &["d"]],
        |_, id| {
            let letter = id.chars().next().unwrap_or('?');
            let hint = letter.is_lowercase();
            (
                format!("piece {}", letter.to_ascii_uppercase()),
                letter.to_ascii_uppercase(),
                hint,
            )
        },
    )
}

/// A hints-only puzzle view: a 3x3x3 box with two hint pieces and the rest empty; the box's
/// corner cell (2, 2, 2) is outside the target.
pub fn hints_only() -> Scene {
    from_layers(
        "Puzzle with hints",
        [0, 0, 0],
        &[
            &["a a .", ". . .", "b . ."],
            &["a . .", ". . .", "b b ."],
            &[". . _", ". . .", ". . ."],
        ],
        true,
        None,
        |_, id| {
            let letter = id.chars().next().unwrap_or('?');
            (format!("hint {letter}"), letter, true)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(scene: &Scene, cells: usize) {
        let occ = scene.occupancy();
        let total: usize = scene.pieces.iter().map(|p| p.cells.len()).sum();
        assert_eq!(total + scene.empty.len(), occ.len(), "no cell twice");
        assert_eq!(occ.len(), cells);
        for c in occ.keys() {
            assert!(scene.container_of(*c).is_some());
        }
    }

    #[test]
    fn samples_are_consistent() {
        let t = tetris_cube();
        check(&t, 64);
        assert_eq!(t.pieces.len(), 12);
        assert_eq!(t.pieces[0].cells.len(), 5);
        check(&pentominoes_10x6(), 60);
        assert!(pentominoes_10x6().pieces.iter().all(|p| p.cells.len() == 5));
        let two = two_boxes();
        check(&two, 32);
        assert!(two.pieces.iter().all(|p| p.cells.len() == 4));
        check(&hints_only(), 26);
        check(&square_pyramid(), 30);
        check(&small_pyramid(), 14);
        // Every piece of the pyramid is one body: its balls touch in a chain.
        for p in &square_pyramid().pieces {
            assert_eq!(p.cells.len(), 5);
            assert!(
                p.cells
                    .iter()
                    .all(|&c| crate::geometry::Grid::Sphere.is_cell(c))
            );
            let mut reached = vec![p.cells[0]];
            let mut k = 0;
            while k < reached.len() {
                let c = reached[k];
                for d in crate::geometry::Grid::Sphere.neighbour_offsets() {
                    let n = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                    if p.cells.contains(&n) && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
                k += 1;
            }
            assert_eq!(reached.len(), 5, "piece {} is one body", p.letter);
        }
    }
}
