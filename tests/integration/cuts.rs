//! The checkerboard colouring cut through the real binary: puzzles that the colouring
//! argument refutes report "no solution" with the reason before any search, and solvable
//! puzzles are never refuted (every known-count test goes through the same cut).

use crate::common::Dir;
use std::collections::BTreeSet;

type Shape = Vec<(i32, i32)>;
/// A turn or flip of the square grid.
type Isometry = fn((i32, i32)) -> (i32, i32);

/// The shape moved to the origin, sorted: a canonical key for one orientation.
fn normal(cells: &[(i32, i32)]) -> Shape {
    let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut v: Shape = cells.iter().map(|&(x, y)| (x - mx, y - my)).collect();
    v.sort_unstable();
    v
}

/// The least of the eight orientations (turns and flips): one key per free polyomino.
fn free_key(cells: &[(i32, i32)]) -> Shape {
    let maps: [Isometry; 8] = [
        |(x, y)| (x, y),
        |(x, y)| (-y, x),
        |(x, y)| (-x, -y),
        |(x, y)| (y, -x),
        |(x, y)| (-x, y),
        |(x, y)| (y, x),
        |(x, y)| (x, -y),
        |(x, y)| (-y, -x),
    ];
    maps.iter()
        .map(|m| normal(&cells.iter().map(|&c| m(c)).collect::<Vec<_>>()))
        .min()
        .unwrap_or_default()
}

/// Every free polyomino of `n` cells, grown cell by cell from the monomino.
fn free_polyominoes(n: usize) -> Vec<Shape> {
    let mut level: BTreeSet<Shape> = [vec![(0, 0)]].into_iter().collect();
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for shape in &level {
            for &(x, y) in shape {
                for c in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    if !shape.contains(&c) {
                        let mut grown = shape.clone();
                        grown.push(c);
                        next.insert(free_key(&grown));
                    }
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

/// A puzzle file: the given flat shapes in a `w` x `h` x `d` box.
fn puzzle(name: &str, shapes: &[Shape], size: [u32; 3]) -> String {
    let pieces: Vec<String> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let cells: Vec<String> = s.iter().map(|(x, y)| format!("[{x},{y},0]")).collect();
            format!(r#"{{"name": "p{i}", "cells": [{}]}}"#, cells.join(","))
        })
        .collect();
    format!(
        r#"{{"name": "{name}", "target": {{"box": [{}, {}, {}]}}, "pieces": [{}]}}"#,
        size[0],
        size[1],
        size[2],
        pieces.join(",\n")
    )
}

#[test]
fn the_35_hexominoes_tile_no_rectangle_of_210_cells() {
    let hexominoes = free_polyominoes(6);
    assert_eq!(hexominoes.len(), 35);
    assert_eq!(free_polyominoes(5).len(), 12);
    let dir = Dir::new();
    for (w, h) in [(15, 14), (10, 21), (7, 30), (6, 35), (5, 42), (3, 70)] {
        let file = format!("hex-{w}x{h}.json");
        dir.write(&file, &puzzle("35 hexominoes", &hexominoes, [w, h, 1]));
        for extra in [&["--count"][..], &[][..]] {
            let mut args = vec!["solve", file.as_str()];
            args.extend_from_slice(extra);
            let run = dir.run(&args);
            run.code(1)
                .stderr_has("no solution: checkerboard colouring")
                .stderr_has("11 piece(s) {-2, +2}")
                .stderr_has("24 piece(s) {+0}")
                .stderr_has("refuted by the checkerboard colouring before any search");
            if extra.is_empty() {
                run.stdout_has("no solution");
            } else {
                run.stdout_is("0 solutions up to rotation\n");
            }
        }
    }
}

#[test]
fn a_3d_box_the_colouring_refutes_and_one_it_does_not() {
    let dir = Dir::new();
    let t: Shape = vec![(0, 0), (1, 0), (2, 0), (1, 1)];
    let l: Shape = vec![(0, 0), (1, 0), (2, 0), (0, 1)];
    // Three T tetrominoes (each covers three of one colour and one of the other) cannot
    // fill a balanced 2x2x3 box.
    dir.write(
        "ttt.json",
        &puzzle("three T", &[t.clone(), t.clone(), t], [3, 2, 2]),
    );
    dir.run(&["solve", "--count", "ttt.json"])
        .code(1)
        .stderr_has("no solution: checkerboard colouring: the cells to fill are 6 of one colour and 6 of the other (imbalance 0)")
        .stderr_has("3 piece(s) {-2, +2}");
    // Three L tetrominoes are balanced: the cut stays silent and the search decides.
    dir.write(
        "lll.json",
        &puzzle("three L", &[l.clone(), l.clone(), l], [3, 2, 2]),
    );
    let run = dir.run(&["solve", "--count", "lll.json"]);
    run.check(
        !run.stderr.contains("checkerboard"),
        "the colouring refuted a balanced puzzle",
    );
    // Without pruning the plain search runs, and finds nothing either.
    dir.run(&["solve", "--count", "--no-prune", "ttt.json"])
        .code(1)
        .stdout_is("0 solutions up to rotation\n");
}
