//! Cross-checks with real external solvers: bundled puzzles exported as ASP are solved by clingo (`clingo -n 0`), every answer set is decoded and verified, and the counts must equal the puzzles' known counts.
//!
//! clingo is looked up as `clingo` on PATH, then as `python3 -m clingo` (PyPI's `clingo`
//! package). Ignored by default; CI installs clingo and runs them with `--include-ignored`, and
//! a missing clingo fails them: they never pass by skipping.

use std::io::Write;
use std::process::Command;

use cubesat::counting::UpTo;
use cubesat::interop::Status;
use cubesat::interop::answer::{InstanceKind, decode};
use cubesat::interop::asp;
use cubesat::puzzle::Puzzle;
use cubesat::puzzle::bundled;
use cubesat::puzzle::json::parse_puzzle;

/// The command that runs clingo; fails the test when there is none.
fn clingo() -> Vec<String> {
    let candidates: [&[&str]; 2] = [&["clingo"], &["python3", "-m", "clingo"]];
    for c in candidates {
        let ok = Command::new(c[0])
            .args(&c[1..])
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return c.iter().map(|s| s.to_string()).collect();
        }
    }
    panic!(
        "clingo is not installed (neither `clingo` nor `python3 -m clingo` runs): pip install clingo"
    );
}

/// A 3x3 board with an optional corner, two L trominoes (one hinted) and a domino: 2
/// solutions (worked out by hand in tests/interop_dlx.rs).
const SMALL_MIXED: &str = r####"{
    "name": "small mixed",
    "target": {"layers": [["###", "###", "##+"]]},
    "pieces": [
        {"name": "Ltromino", "count": 2, "cells": [[0,0,0],[1,0,0],[0,1,0]]},
        {"name": "dom", "cells": [[0,0,0],[1,0,0]]}
    ],
    "hints": [{"piece": "Ltromino", "cells": [[0,0,0],[1,0,0],[0,1,0]]}]
}"####;

/// A bundled puzzle, the small mixed one, or `FILE#N`: problem N of a BurrTools file of
/// tests/data/burrtools.
fn puzzle(name: &str) -> Puzzle {
    if name == "small-mixed" {
        parse_puzzle(SMALL_MIXED, name).unwrap()
    } else if let Some((file, problem)) = name.split_once('#') {
        let path = format!("{}/tests/data/burrtools/{file}", env!("CARGO_MANIFEST_DIR"));
        cubesat::puzzle::read_path(std::path::Path::new(&path), Some(problem)).unwrap()
    } else {
        bundled(name).unwrap()
    }
}

/// Runs clingo on the export of a puzzle and returns (instance, answer).
fn run_clingo(cmd: &[String], puzzle_name: &str, mode: UpTo, extra: &[&str]) -> (String, String) {
    let p = puzzle(puzzle_name);
    let instance = asp::export(&p, mode).unwrap();
    let mut file = tempfile::Builder::new().suffix(".lp").tempfile().unwrap();
    file.write_all(instance.as_bytes()).unwrap();
    file.flush().unwrap();
    // Bounded by clingo's own time limit, far above what these puzzles need (seconds).
    let out = Command::new(&cmd[0])
        .args(&cmd[1..])
        .args(["-n", "0", "--time-limit=300"])
        .args(extra)
        .arg(file.path())
        .output()
        .unwrap();
    let answer = String::from_utf8(out.stdout).unwrap();
    assert!(
        !answer.is_empty(),
        "clingo printed nothing; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (instance, answer)
}

/// Solves, decodes, and checks the count in `mode` against the puzzle's known count.
fn check(cmd: &[String], puzzle: &str, mode: UpTo, expected: u64, extra: &[&str]) {
    let (instance, answer) = run_clingo(cmd, puzzle, mode, extra);
    let d =
        decode(&instance, &answer).unwrap_or_else(|e| panic!("{puzzle} {mode}: {}", e.report()));
    assert_eq!(d.kind, InstanceKind::Asp);
    assert_eq!(d.status, Status::Sat, "{puzzle} {mode}");
    assert_eq!(
        d.complete,
        Some(true),
        "{puzzle} {mode}: clingo did not finish"
    );
    assert_eq!(
        d.reported_count,
        Some(d.solutions.len() as u64),
        "{puzzle} {mode}: clingo's model count differs from the answers decoded"
    );
    let mut distinct = d.solutions.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        d.solutions.len(),
        "{puzzle} {mode}: repeated answer sets"
    );
    assert_eq!(d.counted(), expected, "{puzzle} {mode}");
    eprintln!(
        "{puzzle} {mode}: clingo {} answer sets, {} counted {}",
        d.solutions.len(),
        d.counted(),
        mode.phrase()
    );
}

fn known(puzzle: &str, mode: UpTo) -> u64 {
    let k = bundled(puzzle).unwrap().known_counts;
    match mode {
        UpTo::None => k.all,
        UpTo::Rotation => k.rotation,
        UpTo::RotationReflection => k.rotation_reflection,
        UpTo::BurrTools => None,
    }
    .unwrap_or_else(|| panic!("{puzzle} has no known count for {mode}"))
}

#[test]
#[ignore = "needs clingo; CI runs it with --include-ignored"]
fn clingo_pentominoes_3x20_every_placement_and_up_to_rotation() {
    let cmd = clingo();
    check(
        &cmd,
        "pentominoes-3x20",
        UpTo::None,
        known("pentominoes-3x20", UpTo::None),
        &[],
    );
    assert_eq!(known("pentominoes-3x20", UpTo::None), 8);
    check(
        &cmd,
        "pentominoes-3x20",
        UpTo::Rotation,
        known("pentominoes-3x20", UpTo::Rotation),
        &[],
    );
}

#[test]
#[ignore = "needs clingo; CI runs it with --include-ignored"]
fn clingo_tetracubes_two_boxes() {
    let cmd = clingo();
    for mode in [UpTo::Rotation, UpTo::None] {
        check(
            &cmd,
            "tetracubes-two-2x2x4",
            mode,
            known("tetracubes-two-2x2x4", mode),
            &[],
        );
    }
}

#[test]
#[ignore = "needs clingo; CI runs it with --include-ignored"]
fn clingo_soma_up_to_rotation_text_and_json() {
    let cmd = clingo();
    assert_eq!(known("soma", UpTo::Rotation), 480);
    check(&cmd, "soma", UpTo::Rotation, 480, &[]);
    check(&cmd, "soma", UpTo::Rotation, 480, &["--outf=2"]);
}

#[test]
#[ignore = "needs clingo; CI runs it with --include-ignored"]
fn clingo_piece_ranges_and_hole_limits() {
    // piece_range/3 and max_holes/1; counts: the reference oracle's raw column.
    let cmd = clingo();
    check(&cmd, "reference/06a_ranges.xmpuzzle#0", UpTo::None, 28, &[]);
    for (problem, raw) in [(0, 288), (1, 1340), (2, 1332)] {
        let name = format!("reference/06c_max_holes.xmpuzzle#{problem}");
        check(&cmd, &name, UpTo::None, raw, &[]);
    }
}

#[test]
#[ignore = "needs clingo; CI runs it with --include-ignored"]
fn clingo_multiplicities_optional_cells_and_hints() {
    let cmd = clingo();
    check(&cmd, "small-mixed", UpTo::None, 2, &[]);
}
