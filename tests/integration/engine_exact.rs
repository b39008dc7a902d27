//! Differential and regression tests of the exact-cover engines: the bitset engine against a
//! brute-force enumerator and the dancing-links baseline, pruning on against off, and thread
//! counts against each other, on hand-made, random and polycube models.

use crate::common::puzzle_json;
use cubesat::counting::{Reducer, UpTo};
use cubesat::run::Instance;
use cubesat_xc::Progress;
use cubesat_xc::dlx::Dlx;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::{CellGeometry, ExactCover, Item};
use std::sync::Arc;

/// The exact-cover model of a bundled puzzle, built by the real placement pipeline.
fn bundled_model(name: &str) -> ExactCover {
    let puzzle = cubesat::puzzle::bundled(name).unwrap();
    Arc::unwrap_or_clone(Instance::new(puzzle).unwrap().model)
}

/// The Tetris Cube model and the options the rotation reduction excludes (one asymmetric
/// piece kept to one placement per rotation orbit, an exact restriction: 9,839 solutions).
fn tetris_reduced() -> (ExactCover, Vec<u32>) {
    let inst = Instance::new(cubesat::puzzle::bundled("tetris-cube").unwrap()).unwrap();
    let reducer = Reducer::new(&inst.puzzle, &inst.table, UpTo::Rotation, true).unwrap();
    assert!(reducer.restriction_is_exact());
    (
        Arc::unwrap_or_clone(inst.model),
        reducer.excluded().to_vec(),
    )
}

/// A cell `[x, y, z]`.
type Cell = [i32; 3];

/// A tiny deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Every solution by trying every subset of options.
fn brute_force(m: &ExactCover, forced: &[u32], excluded: &[u32]) -> Vec<Vec<u32>> {
    let n = m.options.len();
    assert!(n <= 16);
    let mut out = Vec::new();
    for mask in 0u32..(1 << n) {
        let sol: Vec<u32> = (0..n as u32).filter(|&o| mask >> o & 1 == 1).collect();
        if forced.iter().any(|f| !sol.contains(f)) || excluded.iter().any(|e| sol.contains(e)) {
            continue;
        }
        if m.check_solution(&sol).is_ok() {
            out.push(sol);
        }
    }
    out.sort();
    out
}

fn exact_all(
    m: &ExactCover,
    threads: usize,
    pruning: bool,
    forced: &[u32],
    excluded: &[u32],
) -> Vec<Vec<u32>> {
    let e = ExactEngine::new(m).unwrap();
    let mut v = Vec::new();
    let st = e
        .query()
        .threads(threads)
        .pruning(pruning)
        .force(forced)
        .exclude(excluded)
        .enumerate(|s| {
            v.push(s.to_vec());
            true
        })
        .unwrap();
    assert_eq!(st.solutions as usize, v.len());
    assert!(!st.interrupted && !st.stopped);
    v
}

/// The engine without its fast layouts (the path large models take).
fn general_all(m: &ExactCover, forced: &[u32], excluded: &[u32]) -> Vec<Vec<u32>> {
    let e = ExactEngine::new_general(m).unwrap();
    let mut v = Vec::new();
    e.query()
        .force(forced)
        .exclude(excluded)
        .enumerate(|s| {
            v.push(s.to_vec());
            true
        })
        .unwrap();
    v
}

fn sorted_all(
    m: &ExactCover,
    threads: usize,
    pruning: bool,
    forced: &[u32],
    excluded: &[u32],
) -> Vec<Vec<u32>> {
    let mut v = exact_all(m, threads, pruning, forced, excluded);
    v.sort();
    v
}

fn dlx_all(m: &ExactCover, forced: &[u32], excluded: &[u32]) -> Vec<Vec<u32>> {
    let mut v = Vec::new();
    Dlx::new(m)
        .unwrap()
        .force(forced)
        .unwrap()
        .exclude(excluded)
        .unwrap()
        .enumerate(|s| {
            v.push(s.to_vec());
            true
        })
        .unwrap();
    v.sort();
    v
}

/// A random model of secondary, exact (one to three coverings) and, when `ranges`, ranged
/// items (`0..2`, `1..3`, `0..3`).
fn random_model_of(rng: &mut Rng, ranges: bool) -> ExactCover {
    let n_items = 2 + rng.below(6) as usize;
    let kinds = if ranges { 9 } else { 6 };
    let items: Vec<Item> = (0..n_items)
        .map(|i| {
            let name = format!("i{i}");
            match rng.below(kinds) {
                0 => Item::secondary(name),
                1 => Item::exact(name, 2),
                2 => Item::exact(name, 3),
                6 => Item::range(name, 0, 2),
                7 => Item::range(name, 1, 3),
                8 => Item::range(name, 0, 3),
                _ => Item::exact(name, 1),
            }
        })
        .collect();
    let mut items = items;
    if !items.iter().any(|i| i.is_exact()) {
        // Every option holds an exact item, so there must be one.
        items[0] = Item::exact(items[0].name.clone(), 1);
    }
    let n_opts = 1 + rng.below(14) as usize;
    let mut options = Vec::new();
    while options.len() < n_opts {
        let mut v: Vec<u32> = (0..n_items as u32).filter(|_| rng.below(3) == 0).collect();
        if v.is_empty() || !v.iter().any(|&i| items[i as usize].is_exact()) {
            continue;
        }
        v.dedup();
        options.push(v);
    }
    let mut forced = Vec::new();
    if rng.below(4) == 0 {
        forced.push(rng.below(n_opts as u64) as u32);
    }
    ExactCover {
        items,
        options,
        forced,
        geometry: None,
    }
}

fn random_model(rng: &mut Rng) -> ExactCover {
    random_model_of(rng, false)
}

#[test]
fn random_instances_match_brute_force_and_dlx() {
    for ranges in [false, true] {
        random_instances_agree(ranges);
    }
}

/// The engines agree with brute force on random models, with ranged items or without.
fn random_instances_agree(ranges: bool) {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut nonempty = 0;
    for _ in 0..250 {
        let m = random_model_of(&mut rng, ranges);
        let n = m.options.len() as u64;
        let forced: Vec<u32> = if rng.below(3) == 0 {
            vec![rng.below(n) as u32]
        } else {
            vec![]
        };
        let excluded: Vec<u32> = if rng.below(3) == 0 {
            vec![rng.below(n) as u32]
        } else {
            vec![]
        };
        let want = brute_force(&m, &forced, &excluded);
        nonempty += usize::from(!want.is_empty());
        assert_eq!(dlx_all(&m, &forced, &excluded), want, "dlx on {m:?}");
        let seq = exact_all(&m, 1, true, &forced, &excluded);
        let mut sorted = seq.clone();
        sorted.sort();
        assert_eq!(
            sorted, want,
            "exact on {m:?} forced {forced:?} excluded {excluded:?}"
        );
        // Pruning changes the branching order, so only the sets must agree.
        assert_eq!(sorted_all(&m, 1, false, &forced, &excluded), sorted);
        assert_eq!(exact_all(&m, 2, true, &forced, &excluded), seq);
        assert_eq!(general_all(&m, &forced, &excluded), seq);
    }
    assert!(
        nonempty > 50,
        "the generator should produce solvable instances ({nonempty})"
    );
}

/// A random model whose primary items all need one covering (some secondary items too), with
/// a planted solution so that most have solutions: `n_items` up to 128 exercises both words
/// of the sliced counters.
fn random_need_one_model(rng: &mut Rng, n_items: usize) -> ExactCover {
    let items: Vec<Item> = (0..n_items)
        .map(|i| {
            if rng.below(8) != 0 {
                Item::exact(format!("i{i}"), 1)
            } else {
                Item::secondary(format!("i{i}"))
            }
        })
        .collect();
    let primary: Vec<u32> = (0..n_items as u32)
        .filter(|&i| items[i as usize].is_exact())
        .collect();
    let mut options: Vec<Vec<u32>> = Vec::new();
    // The planted solution: primary items in random blocks of one to six.
    let mut order = primary.clone();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut rest = &order[..];
    while !rest.is_empty() {
        let k = (1 + rng.below(6) as usize).min(rest.len());
        let mut o = rest[..k].to_vec();
        o.sort_unstable();
        options.push(o);
        rest = &rest[k..];
    }
    // Random extra options of one to seven items, at least one primary.
    let extra = 8 + n_items / 2 + rng.below(n_items as u64) as usize;
    while options.len() < extra + n_items / 3 {
        let mut o: Vec<u32> = (0..1 + rng.below(7))
            .map(|_| rng.below(n_items as u64) as u32)
            .collect();
        o.sort_unstable();
        o.dedup();
        if o.iter().any(|&i| items[i as usize].is_exact()) {
            options.push(o);
        }
    }
    // Shuffle the options so that the planted ones are not first.
    for i in (1..options.len()).rev() {
        options.swap(i, rng.below(i as u64 + 1) as usize);
    }
    ExactCover {
        items,
        options,
        forced: vec![],
        geometry: None,
    }
}

/// Solutions (in order) and node counts of an engine, pruning on or off.
fn listing(e: &ExactEngine, pruning: bool) -> (Vec<Vec<u32>>, u64) {
    let mut v = Vec::new();
    let st = e
        .query()
        .pruning(pruning)
        .enumerate(|s| {
            v.push(s.to_vec());
            true
        })
        .unwrap();
    let c = e.query().pruning(pruning).count().unwrap();
    assert_eq!(c.solutions, v.len() as u64);
    assert_eq!(c.nodes, st.nodes);
    (v, st.nodes)
}

/// The bit-sliced counters build the same search tree as the general path: the same solutions
/// in the same order and the same node counts, pruning on and off (the children the sliced
/// path counts as dead ends without building them are nodes of both).
fn assert_sliced_matches_general(m: &ExactCover, what: &str) -> usize {
    let fast = ExactEngine::new(m).unwrap();
    let general = ExactEngine::new_general(m).unwrap();
    assert!(fast.uses_sliced_counters(), "{what}: sliced path not taken");
    assert!(!general.uses_sliced_counters());
    let mut found = 0;
    for pruning in [true, false] {
        let (sols, nodes) = listing(&fast, pruning);
        let (want, want_nodes) = listing(&general, pruning);
        assert_eq!(sols, want, "{what}, pruning {pruning}");
        assert_eq!(nodes, want_nodes, "{what}, pruning {pruning}: node counts");
        assert!(nodes > 0);
        for s in &sols {
            m.check_solution(s).unwrap();
        }
        found = sols.len();
    }
    // Subtrees run from forced roots; two threads must agree with one.
    let one = fast.query().count().unwrap();
    assert_eq!(fast.query().threads(2).count().unwrap(), one, "{what}");
    found
}

#[test]
fn sliced_counters_match_the_general_path_on_random_models() {
    let mut rng = Rng(0x5eed_51ced);
    let mut solvable = 0;
    for round in 0..60 {
        let n_items = match round % 3 {
            0 => 3 + rng.below(20) as usize,
            1 => 40 + rng.below(40) as usize,
            _ => 65 + rng.below(64) as usize,
        };
        let m = random_need_one_model(&mut rng, n_items);
        let n = assert_sliced_matches_general(&m, &format!("round {round}"));
        solvable += usize::from(n > 0);
        // Against DLX too.
        let dlx = Dlx::new(&m).unwrap().count().unwrap();
        assert_eq!(dlx.solutions, n as u64, "round {round}");
    }
    assert!(
        solvable >= 55,
        "planted solutions should survive ({solvable})"
    );
}

#[test]
fn sliced_counters_match_the_general_path_on_bundled_puzzles() {
    for (name, expected) in [
        ("soma", Some(11_520)),
        ("pentominoes-3x20", Some(8)),
        ("wooden-cube", None),
        ("tetracubes-two-2x2x4", Some(1_280)),
    ] {
        let m = bundled_model(name);
        let n = assert_sliced_matches_general(&m, name);
        if let Some(e) = expected {
            assert_eq!(n, e, "{name}");
        }
    }
    // Multiplicity items (pieces with copies) take the sliced path too, counted apart and
    // never branched on: the same solutions as the general path and dancing links.
    let text = r#"{"target": {"box": [4, 3, 2]}, "pieces": [{"name": "L", "count": 2, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]}, {"name": "D", "count": 8, "cells": [[0, 0, 0], [1, 0, 0]]}]}"#;
    let m = Instance::new(cubesat::puzzle::json::parse_puzzle(text, "copies").unwrap())
        .unwrap()
        .model;
    assert!(ExactEngine::new(&m).unwrap().uses_sliced_counters());
    let mut fast = exact_all(&m, 1, true, &[], &[]);
    fast.sort();
    let mut general = general_all(&m, &[], &[]);
    general.sort();
    assert_eq!(fast, general);
    assert_eq!(fast, dlx_all(&m, &[], &[]));
    assert!(fast.len() > 100, "{}", fast.len());
}

#[test]
fn multiplicity_and_secondary_by_hand() {
    let item = |name: &str, need| match need {
        0 => Item::secondary(name),
        k => Item::exact(name, k),
    };
    // Two identical dominoes (need 2) and a monomino in a 1x5 strip whose last cell is optional.
    let m = ExactCover {
        items: vec![
            item("D", 2),
            item("M", 1),
            item("c0", 1),
            item("c1", 1),
            item("c2", 1),
            item("c3", 1),
            item("c4", 0),
        ],
        options: vec![
            vec![0, 2, 3],
            vec![0, 3, 4],
            vec![0, 4, 5],
            vec![0, 5, 6],
            vec![1, 2],
            vec![1, 3],
            vec![1, 4],
            vec![1, 5],
            vec![1, 6],
        ],
        forced: vec![],
        geometry: None,
    };
    let want = brute_force(&m, &[], &[]);
    // M c0 + D c1c2 + D c3(c4) ... enumerated by brute force; the engines must agree exactly.
    assert!(!want.is_empty());
    let mut got = exact_all(&m, 1, true, &[], &[]);
    got.sort();
    assert_eq!(got, want);
    assert_eq!(dlx_all(&m, &[], &[]), want);
    assert_eq!(
        exact_all(&m, 3, true, &[], &[]),
        exact_all(&m, 1, true, &[], &[])
    );
    // Forcing and excluding.
    let mut got = exact_all(&m, 1, true, &[3], &[4]);
    got.sort();
    assert_eq!(got, brute_force(&m, &[3], &[4]));
    // Contradictory forced options give no solution, not an error.
    assert!(exact_all(&m, 1, true, &[4, 5], &[]).is_empty());
    // Out-of-range options are an error. (The sliced path takes this model: every option
    // holds an item of need one.)
    let e = ExactEngine::new(&m).unwrap();
    assert!(e.uses_sliced_counters());
    let mut general = general_all(&m, &[], &[]);
    general.sort();
    assert_eq!(general, want);
    assert!(e.query().force(&[99]).count().is_err());
}

fn check_polycube(m: &ExactCover, expected: u64) {
    let e = ExactEngine::new(m).unwrap();
    let on = e.query().count().unwrap();
    let off = e.query().pruning(false).count().unwrap();
    assert_eq!(on.solutions, expected);
    assert_eq!(off.solutions, expected);
    assert!(on.nodes <= off.nodes);
    let one = exact_all(m, 1, true, &[], &[]);
    assert_eq!(one.len() as u64, expected);
    assert_eq!(exact_all(m, 2, true, &[], &[]), one);
    assert_eq!(exact_all(m, 3, true, &[], &[]), one);
    assert_eq!(e.query().threads(3).count().unwrap(), on);
    for s in &one {
        m.check_solution(s).unwrap();
    }
}

#[test]
fn soma_cube_has_11520_solutions() {
    let m = bundled_model("soma");
    check_polycube(&m, 11_520);
    assert_eq!(Dlx::new(&m).unwrap().count().unwrap().solutions, 11_520);
    assert_eq!(general_all(&m, &[], &[]), exact_all(&m, 1, true, &[], &[]));
}

#[test]
fn pentominoes_3x20_has_8_solutions() {
    let m = bundled_model("pentominoes-3x20");
    check_polycube(&m, 8);
}

#[test]
fn pentominoes_6x10_has_9356_solutions() {
    let m = bundled_model("pentominoes-6x10");
    // One parallel count keeps the test short at the test profile's opt-level.
    let e = ExactEngine::new(&m).unwrap();
    assert_eq!(e.query().threads(2).count().unwrap().solutions, 9_356);
}

/// Random polycube models with copies and optional cells, built through the puzzle parser and
/// placement pipeline: the region pruning and preprocessing must keep exactly the solutions of
/// the unpruned search and DLX.
#[test]
fn pruning_keeps_every_solution_on_random_polycube_models() {
    let shapes: &[&[Cell]] = &[
        &[[0, 0, 0]],
        &[[0, 0, 0], [1, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
        &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]],
        &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]],
        &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]],
    ];
    let mut rng = Rng(12345);
    let mut checked = 0;
    for round in 0..60 {
        let (x, y, z) = (
            2 + rng.below(3) as i32,
            2 + rng.below(2) as i32,
            1 + rng.below(2) as i32,
        );
        let mut must = Vec::new();
        let mut optional = Vec::new();
        for cz in 0..z {
            for cy in 0..y {
                for cx in 0..x {
                    // Knock out a few cells to make irregular targets; some become optional.
                    if rng.below(8) == 0 {
                        continue;
                    }
                    if rng.below(6) == 0 {
                        optional.push([cx, cy, cz]);
                    } else {
                        must.push([cx, cy, cz]);
                    }
                }
            }
        }
        // Pieces up to the must-fill volume, topped up with identical monominoes (a
        // multiplicity item), sometimes plus a piece that needs some optional cells.
        let volume = must.len() as u32;
        let mut pieces: Vec<(&[Cell], u32)> = Vec::new();
        let mut total = 0;
        for _ in 0..6 {
            let s = shapes[1 + rng.below(shapes.len() as u64 - 1) as usize];
            let count = 1 + rng.below(2) as u32;
            if total + s.len() as u32 * count <= volume {
                total += s.len() as u32 * count;
                pieces.push((s, count));
            }
        }
        if total < volume {
            pieces.push((shapes[0], volume - total));
        }
        let extra = shapes[rng.below(3) as usize];
        if rng.below(2) == 0 && extra.len() <= optional.len() {
            pieces.push((extra, 1));
        }
        let text = puzzle_json(&must, &optional, &pieces);
        let Ok(puzzle) = cubesat::puzzle::json::parse_puzzle(&text, "random") else {
            continue;
        };
        let Ok(inst) = Instance::new(puzzle) else {
            continue;
        };
        let m = inst.model;
        if m.validate().is_err() || m.options.len() > 200 {
            continue;
        }
        let want = dlx_all(&m, &[], &[]);
        let on = exact_all(&m, 1, true, &[], &[]);
        let mut sorted = on.clone();
        sorted.sort();
        assert_eq!(sorted, want, "round {round}");
        assert_eq!(sorted_all(&m, 1, false, &[], &[]), sorted, "round {round}");
        assert_eq!(exact_all(&m, 2, true, &[], &[]), on, "round {round}");
        // The general path may branch on a piece with copies, which the sliced one never
        // does: the same solutions, in its own order.
        let mut general = general_all(&m, &[], &[]);
        general.sort();
        assert_eq!(general, sorted, "round {round}");
        checked += usize::from(!want.is_empty());
    }
    assert!(
        checked > 10,
        "too few solvable random polycube models ({checked})"
    );
}

/// The cube lookahead (failed-literal probing) is sound: the options it proves dead are in no
/// solution of the cube, and a cube it refutes has none. Checked against brute force on random
/// models (needs 0 to 3) and against the search on the subtrees of the Soma cube, where the
/// region test takes part; the counters show that it is not idle.
#[test]
fn lookahead_drops_only_dead_options_and_refutes_only_empty_cubes() {
    let mut rng = Rng(0x10ca_11ead);
    let (mut dropped, mut refuted) = (0, 0);
    for round in 0..600 {
        // Small models with needs 0 to 3 against brute force; larger need-one models with a
        // planted solution against the search without pruning.
        let m = if round % 2 == 0 {
            random_model(&mut rng)
        } else {
            let items = 8 + rng.below(24) as usize;
            random_need_one_model(&mut rng, items)
        };
        let n = m.options.len() as u64;
        let forced: Vec<u32> = (0..rng.below(3)).map(|_| rng.below(n) as u32).collect();
        let excluded: Vec<u32> = (0..rng.below(3)).map(|_| rng.below(n) as u32).collect();
        let want = if round % 2 == 0 {
            brute_force(&m, &forced, &excluded)
        } else {
            exact_all(&m, 1, false, &forced, &excluded)
        };
        let e = ExactEngine::new(&m).unwrap();
        let q = e.query().force(&forced).exclude(&excluded);
        match q.lookahead().unwrap() {
            None => {
                assert!(want.is_empty(), "refuted {m:?} {forced:?} {excluded:?}");
                refuted += 1;
            }
            Some(dead) => {
                for s in &want {
                    assert!(
                        dead.iter().all(|o| !s.contains(o)),
                        "{dead:?} meets {s:?} in {m:?} {forced:?} {excluded:?}"
                    );
                }
                dropped += dead.len();
            }
        }
    }
    assert!(
        dropped > 20 && refuted > 20,
        "{dropped} dropped, {refuted} refuted"
    );
    let m = bundled_model("soma");
    let e = ExactEngine::new(&m).unwrap();
    let (mut dropped, mut refuted, mut solved) = (0, 0, 0);
    for sub in e.query().subproblems_within(2000, 3).unwrap() {
        let sols = exact_all(&m, 1, false, &sub.chosen, &sub.excluded);
        match e
            .query()
            .force(&sub.chosen)
            .exclude(&sub.excluded)
            .lookahead()
            .unwrap()
        {
            None => {
                assert!(sols.is_empty(), "refuted {:?}", sub.chosen);
                refuted += 1;
            }
            Some(dead) => {
                assert!(sols.iter().all(|s| dead.iter().all(|o| !s.contains(o))));
                dropped += dead.len();
                solved += usize::from(!sols.is_empty());
            }
        }
    }
    assert!(
        dropped > 0 && refuted > 0 && solved > 0,
        "{dropped} {refuted} {solved}"
    );
    let err = e
        .query()
        .force(&[m.options.len() as u32])
        .lookahead()
        .unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
}

#[test]
fn subproblems_partition_the_solutions() {
    let m = bundled_model("soma");
    let e = ExactEngine::new(&m).unwrap();
    let subs = e.query().subproblems(40).unwrap();
    assert!(subs.len() >= 40);
    let weight: f64 = subs.iter().map(|s| s.weight).sum();
    assert!(weight <= 1.0 + 1e-9);
    let mut all = Vec::new();
    for s in &subs {
        e.query()
            .force(&s.chosen)
            .exclude(&s.excluded)
            .enumerate(|sol| {
                all.push(sol.to_vec());
                true
            })
            .unwrap();
    }
    assert_eq!(all, exact_all(&m, 1, true, &[], &[]));
}

/// The measure of a tree's top that picks the restricted piece: to a depth past the leaves it
/// is the whole tree as the general search (leaf search off) visits it; a cap below the size
/// refuses; the sizes grow with the depth; Knuth's probes are deterministic for a seed.
#[test]
fn the_top_of_a_tree_measures_as_the_search_visits_it() {
    for name in ["soma", "pentominoes-3x20", "tetracubes-2x4x4"] {
        let m = bundled_model(name);
        let e = ExactEngine::new(&m).unwrap();
        let whole = e.query().leaf_search(false).count().unwrap();
        let top = e.query().top().unwrap();
        assert_eq!(top.breadth(64, u64::MAX), Some(whole.nodes), "{name}");
        let sizes: Vec<u64> = (1..=4).map(|d| top.breadth(d, u64::MAX).unwrap()).collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{name}: {sizes:?}");
        assert_eq!(top.breadth(3, sizes[2]), Some(sizes[2]), "{name}");
        assert_eq!(top.breadth(3, sizes[2] - 1), None, "{name}");
        let a = top.sample(16, 7);
        assert_eq!(a, top.sample(16, 7), "{name}");
        assert!(a >= 1.0 && a.is_finite(), "{name}: {a}");
    }
}

/// The restricted piece is the candidate whose tree measures smallest, not the first by the
/// fraction of placements kept: on 6x10 that is X (704,379 nodes) rather than F, the first by
/// that fraction, with the same count; the choice is the same with the run's engine and
/// without.
#[test]
fn the_restricted_piece_is_chosen_by_measuring_the_trees() {
    let inst = Instance::new(cubesat::puzzle::bundled("pentominoes-6x10").unwrap()).unwrap();
    let r = inst.reducer(UpTo::Rotation, true).unwrap();
    let text = r.describe(&inst.puzzle);
    assert!(text.contains("piece 'X' held"), "{text}");
    let fresh = Reducer::new(&inst.puzzle, &inst.table, UpTo::Rotation, true).unwrap();
    assert_eq!(fresh.excluded(), r.excluded());
    let opts = cubesat::RunOptions {
        up_to: UpTo::Rotation,
        threads: 1,
        ..cubesat::RunOptions::default()
    };
    let report = cubesat::run::count(&inst, &opts).unwrap();
    assert_eq!(
        (report.count, report.nodes),
        (2339, Some(704_379)),
        "{}",
        report.engine
    );
    // A listing does not measure: it holds the first candidate by the fraction kept.
    let listing = inst.reducer(UpTo::Rotation, false).unwrap();
    let text = listing.describe(&inst.puzzle);
    assert!(text.contains("piece 'F' held"), "{text}");
    // A tree too small to pay for the comparison keeps the first candidate (Soma's L).
    let soma = Instance::new(cubesat::puzzle::bundled("soma").unwrap()).unwrap();
    let text = soma
        .reducer(UpTo::Rotation, true)
        .unwrap()
        .describe(&soma.puzzle);
    assert!(text.contains("piece 'L' held"), "{text}");
}

#[test]
fn weighted_count_progress_and_interrupt() {
    let m = bundled_model("soma");
    let e = ExactEngine::new(&m).unwrap();
    let p = Arc::new(Progress::new());
    // Count only solutions whose smallest option is even, with weight 3.
    let w = |s: &[u32]| if s[0].is_multiple_of(2) { 3 } else { 0 };
    let r1 = e.query().progress(p.clone()).count_weighted(w).unwrap();
    let r2 = e.query().threads(2).count_weighted(w).unwrap();
    assert_eq!(r1, r2);
    let even = exact_all(&m, 1, true, &[], &[])
        .iter()
        .filter(|s| s[0].is_multiple_of(2))
        .count() as u64;
    assert_eq!(r1.total, 3 * even);
    assert_eq!(r1.solutions, 11_520);
    assert_eq!(p.solutions(), 11_520);
    assert_eq!(p.nodes(), r1.nodes);
    assert!(
        (p.fraction_done() - 1.0).abs() < 1e-6,
        "fraction {}",
        p.fraction_done()
    );

    let p2 = Arc::new(Progress::new());
    let r2 = e.query().threads(2).progress(p2.clone()).count().unwrap();
    assert!(
        (p2.fraction_done() - 1.0).abs() < 1e-6,
        "fraction {}",
        p2.fraction_done()
    );
    assert_eq!(p2.nodes(), r2.nodes);

    let stop = Arc::new(Progress::new());
    stop.interrupt();
    let r = e.query().progress(stop.clone()).count().unwrap();
    assert!(r.interrupted);
    assert!(r.solutions < 11_520);
    let r = e.query().threads(2).progress(stop).count().unwrap();
    assert!(r.interrupted);

    // First solution and limits.
    let first = e.query().first().unwrap().unwrap();
    assert_eq!(first, exact_all(&m, 1, true, &[], &[])[0]);
    let mut n = 0;
    let st = e
        .query()
        .threads(2)
        .enumerate(|_| {
            n += 1;
            n < 5
        })
        .unwrap();
    assert!(st.stopped);
    assert_eq!(n, 5);
}

/// Tetris Cube restricted to one placement per rotation orbit of an asymmetric piece: 9,839.
#[test]
#[ignore = "minutes at the test profile's opt-level 1; CI runs it in release with --include-ignored"]
fn tetris_cube_has_9839_solutions_up_to_rotation() {
    let (m, excluded) = tetris_reduced();
    let e = ExactEngine::new(&m).unwrap();
    let r = e.query().threads(2).exclude(&excluded).count().unwrap();
    assert_eq!(r.solutions, 9_839);
}

#[test]
fn progress_shows_inside_a_long_leaf_search() {
    // Polyform Puzzler's stacked squares of the polycubes of orders 1-4 (a 2.2e9-node tree):
    // with a monocube the leaf search takes over high in the tree, and the first one runs for
    // over a hundred million nodes. Its finished share still shows as it goes, so a count
    // has a fraction done (and a time left) within seconds, and the count's fraction still
    // ends at exactly 1 on a whole tree (above).
    let m = bundled_model("polycubes-1234-stacked-squares-1");
    let e = ExactEngine::new(&m).unwrap();
    let p = Arc::new(Progress::new());
    let mut seen = 0u32;
    e.query()
        .progress(p.clone())
        .enumerate(|_| {
            seen += 1;
            seen < 300_000
        })
        .unwrap();
    let done = p.fraction_done();
    assert!(
        done > 0.0 && done < 0.1,
        "fraction {done} after {} nodes",
        p.nodes()
    );
}

/// A large target that is no box (a 12x10x5 box with a few holes, the largest component of
/// what is left) holding twelve connected pieces of up to seven cells, grown from random
/// seeds: the cells they cover must be filled, the rest are optional, and each piece is
/// placed at every shift that fits. The region test walks such a target a run of cells at a
/// time, and must prune exactly as the general path's walk cell by cell (the same solutions
/// in the same order, the same nodes) and keep the covers dancing links finds. It prunes here
/// (must-fill cells cut off with too few free cells around them for the pieces left): a walk
/// that never failed a region changes the node counts.
#[test]
fn the_region_walk_by_runs_prunes_as_the_walk_by_cells() {
    let mut rng = Rng(0x0bad_c0ffee);
    let mut runs_nodes = 0;
    for round in 0..4 {
        let (x, y, z) = (12i32, 10i32, 5i32);
        let kept: Vec<bool> = (0..x * y * z).map(|_| rng.below(20) < 19).collect();
        let at = |i: i32, j: i32, k: i32| -> Option<usize> {
            let inside = (0..x).contains(&i) && (0..y).contains(&j) && (0..z).contains(&k);
            let p = ((k * y + j) * x + i) as usize;
            (inside && kept[p]).then_some(p)
        };
        let steps = [
            (1, 0, 0),
            (-1, 0, 0),
            (0, 1, 0),
            (0, -1, 0),
            (0, 0, 1),
            (0, 0, -1),
        ];
        let pos = |p: usize| {
            let p = p as i32;
            (p % x, p / x % y, p / (x * y))
        };
        // The largest component of the kept positions is the target.
        let mut comp = vec![usize::MAX; kept.len()];
        let mut best = (0, 0);
        for s in (0..kept.len()).filter(|&p| kept[p]) {
            if comp[s] != usize::MAX {
                continue;
            }
            let (mut stack, mut size) = (vec![s], 0);
            comp[s] = s;
            while let Some(p) = stack.pop() {
                size += 1;
                let (i, j, k) = pos(p);
                for (a, b, c) in steps {
                    if let Some(q) = at(i + a, j + b, k + c).filter(|&q| comp[q] == usize::MAX) {
                        comp[q] = s;
                        stack.push(q);
                    }
                }
            }
            best = best.max((size, s));
        }
        let positions: Vec<usize> = (0..kept.len()).filter(|&p| comp[p] == best.1).collect();
        let cell_of = |p: Option<usize>| p.and_then(|p| positions.binary_search(&p).ok());
        // Twelve pieces grown breadth first from random seeds, every cell to the first to
        // reach it, up to seven cells each.
        let mut owner = vec![usize::MAX; positions.len()];
        let mut size = [0; 12];
        let mut queue = std::collections::VecDeque::new();
        for (piece, size) in size.iter_mut().enumerate() {
            let c = rng.below(positions.len() as u64) as usize;
            if owner[c] == usize::MAX {
                owner[c] = piece;
                *size = 1;
                queue.push_back(c);
            }
        }
        while let Some(c) = queue.pop_front() {
            let (i, j, k) = pos(positions[c]);
            for (a, b, d) in steps {
                if let Some(n) =
                    cell_of(at(i + a, j + b, k + d)).filter(|&n| owner[n] == usize::MAX)
                    && size[owner[c]] < 7
                {
                    size[owner[c]] += 1;
                    owner[n] = owner[c];
                    queue.push_back(n);
                }
            }
        }
        let pieces: Vec<Vec<(i32, i32, i32)>> = (0..12)
            .map(|piece| {
                (0..positions.len())
                    .filter(|&c| owner[c] == piece)
                    .map(|c| pos(positions[c]))
                    .collect()
            })
            .filter(|cells: &Vec<_>| !cells.is_empty())
            .collect();
        let first = pieces.len() as u32;
        let mut items: Vec<Item> = (0..pieces.len())
            .map(|p| Item::exact(format!("p{p}"), 1))
            .collect();
        items.extend((0..positions.len()).map(|c| {
            if owner[c] == usize::MAX {
                Item::secondary(format!("c{c}"))
            } else {
                Item::exact(format!("c{c}"), 1)
            }
        }));
        let mut options = Vec::new();
        for (p, cells) in pieces.iter().enumerate() {
            for (dx, dy, dz) in
                (-x..x).flat_map(|a| (-y..y).flat_map(move |b| (-z..z).map(move |c| (a, b, c))))
            {
                let moved: Option<Vec<u32>> = cells
                    .iter()
                    .map(|&(i, j, k)| cell_of(at(i + dx, j + dy, k + dz)).map(|c| first + c as u32))
                    .collect();
                if let Some(mut o) = moved {
                    o.insert(0, p as u32);
                    o[1..].sort_unstable();
                    options.push(o);
                }
            }
        }
        let neighbors = positions
            .iter()
            .map(|&p| {
                let (i, j, k) = pos(p);
                let mut n: Vec<u32> = steps
                    .iter()
                    .filter_map(|&(a, b, c)| cell_of(at(i + a, j + b, k + c)).map(|c| c as u32))
                    .collect();
                n.sort_unstable();
                n
            })
            .collect();
        let m = ExactCover {
            items,
            options,
            forced: vec![],
            geometry: Some(CellGeometry {
                first_cell: first,
                neighbors,
                positions: Vec::new(),
                piece_sizes: pieces.iter().map(|c| c.len() as u32).collect(),
                connected: true,
            }),
        };
        let fast = ExactEngine::new(&m).unwrap();
        let general = ExactEngine::new_general(&m).unwrap();
        assert!(
            fast.walks_regions_by_runs(),
            "round {round}: {} cells",
            positions.len()
        );
        assert!(!general.walks_regions_by_runs());
        let (sols, nodes) = listing(&fast, true);
        assert_eq!(
            (sols.clone(), nodes),
            listing(&general, true),
            "round {round}"
        );
        assert!(!sols.is_empty(), "round {round}: the planted cover");
        assert_eq!(
            Dlx::new(&m).unwrap().count().unwrap().solutions,
            sols.len() as u64
        );
        runs_nodes += nodes;
    }
    assert!(runs_nodes > 20, "{runs_nodes} nodes");
}
