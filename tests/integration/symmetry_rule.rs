//! Counts of puzzles without a piece of count 1, where symmetry is broken at a cell: every mode and engine against classes computed here from the full listing, plus the binary's count.

use std::collections::HashSet;

use crate::common::{Dir, puzzle_json};
use cubesat::counting::{Reducer, UpTo};
use cubesat::rng::SeededRng;
use cubesat::run::{EngineChoice, Instance, RunOptions, count, list};

type Cell = [i32; 3];

/// The 48 signed permutations of the axes, each with whether it is a reflection.
fn axis_maps() -> Vec<([usize; 3], [i32; 3], bool)> {
    let perms = [
        ([0, 1, 2], false),
        ([0, 2, 1], true),
        ([1, 0, 2], true),
        ([1, 2, 0], false),
        ([2, 0, 1], false),
        ([2, 1, 0], true),
    ];
    let mut out = Vec::new();
    for (perm, odd) in perms {
        for signs in 0..8 {
            let s = [0, 1, 2].map(|k| if signs >> k & 1 == 1 { -1 } else { 1 });
            let negative = s.iter().filter(|&&v| v < 0).count() % 2 == 1;
            out.push((perm, s, odd != negative));
        }
    }
    out
}

/// The cell maps of the target (must-fill cells onto must-fill cells, optional onto
/// optional), each with whether it is a reflection: computed from coordinates alone.
fn target_maps(must: &[Cell], optional: &[Cell]) -> Vec<(Vec<(Cell, Cell)>, bool)> {
    let all: Vec<Cell> = must.iter().chain(optional).copied().collect();
    let must_set: HashSet<Cell> = must.iter().copied().collect();
    let optional_set: HashSet<Cell> = optional.iter().copied().collect();
    let mut maps = Vec::new();
    for (perm, sign, reflection) in axis_maps() {
        let raw = |c: &Cell| -> Cell { [0, 1, 2].map(|k| sign[k] * c[perm[k]]) };
        let low = [0, 1, 2].map(|k| all.iter().map(|c| raw(c)[k]).min().unwrap());
        let low0 = [0, 1, 2].map(|k| all.iter().map(|c| c[k]).min().unwrap());
        let f = |c: &Cell| -> Cell {
            let r = raw(c);
            [0, 1, 2].map(|k| r[k] - low[k] + low0[k])
        };
        if must.iter().all(|c| must_set.contains(&f(c)))
            && optional.iter().all(|c| optional_set.contains(&f(c)))
        {
            maps.push((all.iter().map(|c| (*c, f(c))).collect(), reflection));
        }
    }
    maps
}

/// A solution as its pieces' cell sets, each sorted, the list sorted: the piece of a
/// placement is its shape, since every listed shape is distinct up to rotation.
fn canonical(pieces: &[Vec<Cell>]) -> Vec<Vec<Cell>> {
    let mut v: Vec<Vec<Cell>> = pieces
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.sort_unstable();
            p
        })
        .collect();
    v.sort_unstable();
    v
}

/// Classes of `solutions` under `maps` (the least image of each solution, counted once).
fn classes(solutions: &[Vec<Vec<Cell>>], maps: &[(Vec<(Cell, Cell)>, bool)]) -> u64 {
    let mut seen = HashSet::new();
    for s in solutions {
        let least = maps
            .iter()
            .map(|(m, _)| {
                let lookup: std::collections::HashMap<Cell, Cell> = m.iter().copied().collect();
                let image: Vec<Vec<Cell>> = s
                    .iter()
                    .map(|p| p.iter().map(|c| lookup[c]).collect())
                    .collect();
                canonical(&image)
            })
            .min()
            .unwrap();
        seen.insert(least);
    }
    seen.len() as u64
}

/// Random boxes (some with optional cells placed symmetrically or not) filled with copies of
/// achiral shapes or of a mirror pair of screws, none of count 1: the exact engine and
/// dancing links, on one and two threads, count every mode as the classes of the full
/// listing; the weights of the full listing (an external solver's answer) add up to the
/// same; and most rounds do break symmetry at a cell.
#[test]
fn cell_rule_counts_match_classes_of_the_full_listing() {
    let achiral: &[&[Cell]] = &[
        &[[0, 0, 0], [1, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]],
    ];
    let screws: [&[Cell]; 2] = [
        &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]],
        &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]],
    ];
    let mut rng = SeededRng::new(0x5eed_ce11);
    let (mut checked, mut ruled) = (0, 0);
    // Solutions the rounds that broke symmetry at a cell found, and their full listings'.
    let (mut found, mut full) = (0, 0);
    for round in 0..200 {
        let size = [
            2 + rng.below(2) as i32,
            2 + rng.below(2) as i32,
            1 + rng.below(3) as i32,
        ];
        let (mut must, mut optional) = (Vec::new(), Vec::new());
        let corners = rng.below(3) == 0;
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    let corner = [x, y, z]
                        .iter()
                        .zip(size)
                        .all(|(&v, n)| v == 0 || v == n - 1);
                    if (corners && corner) || rng.below(12) == 0 {
                        optional.push([x, y, z]);
                    } else {
                        must.push([x, y, z]);
                    }
                }
            }
        }
        let mut pieces: Vec<(&[Cell], u32)> = Vec::new();
        let mut volume = 0;
        let room = must.len() as u32;
        let n = 1 + rng.below(2) as u32;
        if rng.below(3) == 0 && 8 * n <= room {
            pieces.extend(screws.iter().map(|&s| (s, n)));
            volume += 8 * n;
        }
        let a = achiral[rng.below(achiral.len() as u64) as usize];
        let b = achiral[rng.below(achiral.len() as u64) as usize];
        for s in [a, b] {
            if pieces.iter().any(|p| p.0 == s) || volume >= room {
                continue;
            }
            let n = ((room - volume) / s.len() as u32).min(2 + rng.below(3) as u32);
            if n >= 2 {
                pieces.push((s, n));
                volume += n * s.len() as u32;
            }
        }
        // Monominoes make up the volume.
        let rest = room.saturating_sub(volume);
        let mono: &[Cell] = &[[0, 0, 0]];
        if rest >= 1 {
            pieces.push((mono, rest));
        }
        if pieces.is_empty() {
            continue;
        }
        let text = puzzle_json(&must, &optional, &pieces);
        let puzzle = cubesat::puzzle::json::parse_puzzle(&text, "random").unwrap();
        let Ok(inst) = Instance::new(puzzle) else {
            continue;
        };
        if inst.model.options.len() > 400 {
            continue;
        }
        let opts = |up_to, engine, threads| RunOptions {
            engine,
            up_to,
            threads,
            ..RunOptions::default()
        };
        let mut all = Vec::new();
        let r = list(&inst, &opts(UpTo::None, EngineChoice::Exact, 1), |s| {
            all.push(s.placements.clone());
            true
        })
        .unwrap();
        if all.is_empty() || all.len() > 20_000 {
            continue;
        }
        assert!(!r.limited);
        let pos = |c: u32| inst.puzzle.target.cells()[c as usize].pos;
        let shapes: Vec<Vec<Vec<Cell>>> = all
            .iter()
            .map(|s| {
                s.iter()
                    .map(|&p| {
                        let cells = &inst.table.placements()[p as usize].cells;
                        cells.iter().map(|&c| pos(c)).collect()
                    })
                    .collect()
            })
            .collect();
        let maps = target_maps(&must, &optional);
        let rotations: Vec<_> = maps.iter().filter(|m| !m.1).cloned().collect();
        for (mode, want) in [
            (UpTo::None, all.len() as u64),
            (UpTo::Rotation, classes(&shapes, &rotations)),
            (UpTo::RotationReflection, classes(&shapes, &maps)),
        ] {
            for (engine, threads) in [
                (EngineChoice::Exact, 1),
                (EngineChoice::Exact, 2),
                (EngineChoice::Dlx, 1),
            ] {
                let r = count(&inst, &opts(mode, engine, threads)).unwrap();
                assert_eq!(
                    r.count, want,
                    "round {round}, {mode}, {engine}, {threads} threads: {}\n{text}",
                    r.description
                );
                if mode == UpTo::Rotation
                    && engine == EngineChoice::Exact
                    && threads == 1
                    && r.description.contains("symmetry broken at cell")
                {
                    ruled += 1;
                    found += r.raw;
                    full += all.len() as u64;
                }
            }
            let mut listed = 0;
            list(&inst, &opts(mode, EngineChoice::Exact, 2), |_| {
                listed += 1;
                true
            })
            .unwrap();
            if mode != UpTo::None {
                assert_eq!(listed, want, "round {round}, listing {mode}\n{text}");
            }
            let reducer = Reducer::new(&inst.puzzle, &inst.table, mode, true).unwrap();
            let weighed: u64 = all.iter().map(|s| reducer.weight(s)).sum();
            assert_eq!(
                weighed, want,
                "round {round}, weights of the listing, {mode}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "too few random puzzles checked ({checked})");
    assert!(
        ruled >= 20,
        "too few random puzzles broke symmetry at a cell ({ruled})"
    );
    assert!(
        2 * found < full,
        "the rule left {found} of {full} solutions to filter"
    );
    eprintln!(
        "{checked} puzzles, {ruled} broke symmetry at a cell: {found} of {full} solutions found"
    );
}

/// The binary counts sixteen 1x2x4 bricks in a 4x4x8 box (68,980 up to rotation), says where
/// it broke symmetry, and finds about a quarter of the 527,010 solutions of the whole count
/// before filtering (136,419); three shards merge to the same count.
#[test]
fn bricks_count_breaks_symmetry_at_a_corner() {
    let dir = Dir::new();
    let file = dir.write(
        "bricks.json",
        r#"{"name": "bricks", "target": {"box": [8, 4, 4]}, "pieces": [{"name": "A", "count": 16, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]]}]}"#,
    );
    let f = file.to_str().unwrap();
    dir.run(&["solve", f, "--count", "--threads", "2"])
        .code(0)
        .stdout_has("68980 solutions up to rotation")
        .stderr_has("symmetry broken at cell (0, 0, 0): 4 branches")
        .stderr_has("469396 nodes, 136419 found before symmetry filtering");
    dir.run(&["solve", f, "--count", "--up-to", "none", "--threads", "2"])
        .code(0)
        .stdout_has("527010 solutions");
    // Each shard runs its part of every branch; the merge adds them up to the same count.
    let mut records = Vec::new();
    for k in 0..3 {
        let r = dir.run(&["solve", f, "--count", "--shard", &format!("{k}/3"), "-q"]);
        r.code(0);
        let path = dir.write(&format!("shard{k}.json"), &r.stdout);
        records.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(records.iter().map(String::as_str));
    dir.run(&args)
        .code(0)
        .stdout_has("68980 solutions up to rotation");
}

/// The binary counts 26 N pentacubes in a 2x5x13 box (131 items: the engine's general path)
/// with its branches pooled on two threads, and dancing links agrees on one.
#[test]
fn n_pentacubes_count_the_same_in_both_engines() {
    let dir = Dir::new();
    let file = dir.write(
        "n26.json",
        r#"{"name": "N pentacubes", "target": {"box": [13, 5, 2]}, "pieces": [{"name": "N", "count": 26, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [3, 1, 0]]}]}"#,
    );
    let f = file.to_str().unwrap();
    dir.run(&["solve", f, "--count", "--threads", "2"])
        .code(0)
        .stdout_has("7092 solutions up to rotation")
        .stderr_has("engine exact, 2 threads")
        .stderr_has("symmetry broken at cell (0, 0, 0): 8 branches")
        .stderr_has("3284678 nodes, 9275 found before symmetry filtering");
    dir.run(&["solve", f, "--count", "--engine", "dlx"])
        .code(0)
        .stdout_has("7092 solutions up to rotation")
        .stderr_has("4245804 nodes, 9275 found before symmetry filtering");
}
