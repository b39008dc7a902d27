//! The bundled ball puzzles: the small ones count the same in cubesat and in `tests/data/spheres/oracle.py` (an exact-cover counter written apart from cubesat), and every count survives conversion to BurrTools files and back.

use crate::common::Dir;
use std::process::Command;

/// Runs the oracle on a bundled puzzle file: its `all=.. rotation=.. rotation+reflection=..`.
fn oracle(file: &str) -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/tests/data/spheres/oracle.py"))
        .arg(format!("{root}/crates/cubesat/puzzles/{file}.json"))
        .output()
        .expect("python3 runs (CI installs it)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "oracle on {file}: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("all="))
        .unwrap_or_else(|| panic!("oracle on {file} printed no counts: {text}"));
    line.split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn small_ball_puzzles_count_as_the_independent_oracle_does() {
    let dir = Dir::new();
    for file in [
        "perplexing-pyramid",
        "ball-room-pyramid",
        "ball-room-tetrahedron",
        "ball-room-cube",
    ] {
        let want = oracle(file);
        assert_eq!(want.len(), 3, "{file}: {want:?}");
        for (mode, n) in want {
            let run = dir.run(&["solve", file, "--count", "--up-to", &mode, "-q"]);
            if n == "undefined" {
                run.code(2).stderr_has("mirror image");
            } else {
                run.code(0).stdout_has(&format!("{n} solution"));
            }
        }
    }
}

#[test]
fn bundled_ball_puzzles_keep_their_counts_through_burrtools_files() {
    // JSON -> .xmpuzzle -> JSON: every mode counts the same at each step (BurrTools 0.7.1's
    // burrTxt gives the same default counts on these .xmpuzzle files: 2, 2, 1 and 3).
    let dir = Dir::new();
    for (file, burrtools) in [
        ("perplexing-pyramid", 2),
        ("ball-room-pyramid", 2),
        ("ball-room-tetrahedron", 1),
        ("ball-room-cube", 3),
    ] {
        let bt = format!("{file}.xmpuzzle");
        let back = format!("{file}.json");
        dir.run(&["convert", file, &bt, "-q"]).code(0);
        dir.run(&["convert", &bt, &back, "-q"]).code(0);
        dir.run(&["solve", &bt, "--count", "-q"])
            .code(0)
            .stdout_has(&format!("{burrtools} solution"));
        for mode in ["none", "rotation"] {
            let counts: Vec<String> = [file, bt.as_str(), back.as_str()]
                .iter()
                .map(|f| {
                    dir.run(&["solve", f, "--count", "--up-to", mode, "-q"])
                        .code(0)
                        .stdout
                        .clone()
                })
                .collect();
            assert!(
                counts.iter().all(|c| *c == counts[0]),
                "{file} {mode}: {counts:?}"
            );
        }
    }
}
