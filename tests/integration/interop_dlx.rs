//! DLX export checked without Knuth's programs (not packaged): the exported file is read back, solved by a small exact-cover search over its own item and option names, written out as `dlx1 m1` output, decoded, and compared with cubesat's model and the known counts.

use std::collections::BTreeSet;

use cubesat::counting::{Reducer, UpTo};
use cubesat::interop::Status;
use cubesat::interop::answer::decode;
use cubesat::interop::dlx::{self, DlxFile, read_dlx_file};
use cubesat::placements::PlacementTable;
use cubesat::puzzle::Puzzle;
use cubesat::puzzle::bundled;
use cubesat::puzzle::json::parse_puzzle;

/// Every solution of an exact-cover problem with multiplicities (`need`, 0 = secondary, at
/// most once), as sorted option lists, by Algorithm X on bitsets with the fewest-options
/// heuristic. Duplicate orders (items needed several times) are merged by the set.
fn solve(need: &[u32], options: &[Vec<usize>]) -> BTreeSet<Vec<usize>> {
    struct S<'a> {
        need: &'a [u32],
        options: &'a [Vec<usize>],
        by_item: Vec<Vec<usize>>,
        count: Vec<u32>,
        chosen: Vec<usize>,
        out: BTreeSet<Vec<usize>>,
    }
    impl S<'_> {
        fn full(&self, i: usize) -> bool {
            let cap = self.need[i].max(1);
            self.count[i] >= cap
        }
        fn free(&self, o: usize) -> bool {
            self.options[o].iter().all(|&i| !self.full(i))
        }
        fn go(&mut self) {
            let mut best: Option<(usize, usize)> = None;
            for i in 0..self.need.len() {
                if self.need[i] == 0 || self.count[i] >= self.need[i] {
                    continue;
                }
                let n = self.by_item[i].iter().filter(|&&o| self.free(o)).count();
                if best.is_none_or(|(_, b)| n < b) {
                    best = Some((i, n));
                }
            }
            let Some((i, n)) = best else {
                let mut s = self.chosen.clone();
                s.sort_unstable();
                self.out.insert(s);
                return;
            };
            if n == 0 {
                return;
            }
            for k in 0..self.by_item[i].len() {
                let o = self.by_item[i][k];
                if !self.free(o) {
                    continue;
                }
                for &j in &self.options[o] {
                    self.count[j] += 1;
                }
                self.chosen.push(o);
                self.go();
                self.chosen.pop();
                for &j in &self.options[o] {
                    self.count[j] -= 1;
                }
            }
        }
    }
    let mut by_item = vec![Vec::new(); need.len()];
    for (o, items) in options.iter().enumerate() {
        for &i in items {
            by_item[i].push(o);
        }
    }
    let mut s = S {
        need,
        options,
        by_item,
        count: vec![0; need.len()],
        chosen: Vec::new(),
        out: BTreeSet::new(),
    };
    s.go();
    s.out
}

/// Solves a DLX file by its names; returns the solutions as lists of option indices.
fn solve_file(f: &DlxFile) -> BTreeSet<Vec<usize>> {
    let need: Vec<u32> = f.items.iter().map(|(_, m)| m.unwrap_or(0)).collect();
    let options: Vec<Vec<usize>> = f
        .options
        .iter()
        .map(|o| {
            o.iter()
                .map(|n| f.items.iter().position(|(m, _)| m == n).unwrap())
                .collect()
        })
        .collect();
    solve(&need, &options)
}

/// Writes solutions the way `dlx1 m1` does: `k:` then each option, its names rotated (dlx1
/// starts at the item it branched on) and followed by ` (i of n)`; then the statistics line.
fn m1_output(f: &DlxFile, solutions: &BTreeSet<Vec<usize>>) -> String {
    let mut s = String::new();
    for (k, sol) in solutions.iter().enumerate() {
        s.push_str(&format!("{}:\n", k + 1));
        for (r, &o) in sol.iter().enumerate() {
            let names = &f.options[o];
            let r = r % names.len();
            let rotated: Vec<&str> = names[r..]
                .iter()
                .chain(&names[..r])
                .map(String::as_str)
                .collect();
            s.push_str(&format!(" {} (1 of 3)\n", rotated.join(" ")));
        }
    }
    s.push_str(&format!(
        "Altogether {} solutions, 123+456 mems, 78 updates, 9 bytes, 10 nodes.\n",
        solutions.len()
    ));
    s
}

/// The solutions of cubesat's own model for the export: excluded placements removed, hint
/// placements forced.
fn model_solutions(p: &Puzzle, mode: UpTo) -> BTreeSet<Vec<u32>> {
    let t = PlacementTable::new(p).unwrap();
    let r = Reducer::new(p, &t, mode, false).unwrap();
    let m = t.model(p);
    let kept: Vec<u32> = (0..t.len() as u32)
        .filter(|o| !r.excluded().contains(o))
        .collect();
    // Forced options: cover their items first by giving each a private primary item.
    let mut need: Vec<u32> = m.items.iter().map(|i| i.need).collect();
    let mut options: Vec<Vec<usize>> = kept
        .iter()
        .map(|&o| m.options[o as usize].iter().map(|&i| i as usize).collect())
        .collect();
    for &f in &m.forced {
        let k = kept.iter().position(|&o| o == f).unwrap();
        options[k].push(need.len());
        need.push(1);
    }
    solve(&need, &options)
        .into_iter()
        .map(|s| s.into_iter().map(|k| kept[k]).collect())
        .collect()
}

/// Exports, solves the file, decodes, and checks against the model and `expected` (counted in
/// `mode`).
fn round_trip(p: &Puzzle, mode: UpTo, expected: u64) {
    let text = dlx::export(p, mode).unwrap();
    let f = read_dlx_file(&text).unwrap();
    assert!(f.items.iter().all(|(n, _)| n.len() <= dlx::MAX_NAME));
    let file_solutions = solve_file(&f);
    let answer = m1_output(&f, &file_solutions);
    let d = decode(&text, &answer).unwrap_or_else(|e| panic!("{} {mode}: {}", p.name, e.report()));
    assert_eq!(d.reported_count, Some(file_solutions.len() as u64));
    let decoded: BTreeSet<Vec<u32>> = d.solutions.iter().cloned().collect();
    assert_eq!(decoded.len(), d.solutions.len());
    assert_eq!(
        decoded,
        model_solutions(p, mode),
        "{} {mode}: the file's solutions are not the model's",
        p.name
    );
    assert_eq!(d.counted(), expected, "{} {mode}", p.name);
    if expected > 0 {
        assert_eq!(d.status, Status::Sat);
    }
}

#[test]
fn bundled_puzzles_round_trip_with_known_counts() {
    let p = bundled("pentominoes-3x20").unwrap();
    round_trip(&p, UpTo::Rotation, 2);
    let p = bundled("soma").unwrap();
    round_trip(&p, UpTo::Rotation, 480);
    let p = bundled("tetracubes-two-2x2x4").unwrap();
    round_trip(&p, UpTo::Rotation, 10);
}

#[test]
fn multiplicities_optional_cells_and_hints() {
    // Three L trominoes and a domino (count 2) in a 3x3 board with one optional corner
    // cell, one L hinted: DLX3 syntax, a secondary item and a hint item.
    let text = r####"{
        "name": "small mixed",
        "target": {"layers": [["###", "###", "##+"]]},
        "allow_disconnected": false,
        "pieces": [
            {"name": "Ltromino", "count": 2, "cells": [[0,0,0],[1,0,0],[0,1,0]]},
            {"name": "dom", "cells": [[0,0,0],[1,0,0]]}
        ],
        "hints": [{"piece": "Ltromino", "cells": [[0,0,0],[1,0,0],[0,1,0]]}]
    }"####;
    let p = parse_puzzle(text, "t").unwrap();
    let out = dlx::export(&p, UpTo::None).unwrap();
    let f = read_dlx_file(&out).unwrap();
    assert!(f.items.contains(&("Ltromino".to_string(), Some(2))));
    assert!(f.items.iter().any(|(n, m)| n == "220" && m.is_none()));
    assert!(f.items.iter().any(|(n, _)| n.starts_with("hint")));
    assert!(out.contains("dlx3 m1"));
    // By hand: the free L covers (2,0),(2,1),(1,1) or (1,1),(1,2),(0,2), the domino the rest.
    let count = model_solutions(&p, UpTo::None).len() as u64;
    assert_eq!(count, 2);
    round_trip(&p, UpTo::None, count);
}

#[test]
fn plain_option_blocks_and_wrong_answers() {
    let p = bundled("soma").unwrap();
    let text = dlx::export(&p, UpTo::Rotation).unwrap();
    let f = read_dlx_file(&text).unwrap();
    let sols = solve_file(&f);
    let mut two = sols.iter();
    // Two blank-line-separated blocks of plain option lines.
    let block = |s: &Vec<usize>| -> String {
        s.iter()
            .map(|&o| format!("{}\n", f.options[o].join(" ")))
            .collect()
    };
    let (first, second) = (block(two.next().unwrap()), block(two.next().unwrap()));
    let d = decode(&text, &format!("{first}\n{second}")).unwrap();
    assert_eq!(d.solutions.len(), 2);
    assert_eq!(d.reported_count, None);
    // The same solution twice would be counted twice: refused, naming both places.
    let e = decode(&text, &format!("{first}\n{first}"))
        .unwrap_err()
        .report();
    assert!(e.contains("this solution repeats the one at line 1"), "{e}");
    // An answer to another instance: no item names, nothing to decode.
    let e = decode(&text, "1:\n foo bar\n").unwrap_err().report();
    assert!(e.contains("no DLX solution"), "{e}");
}
