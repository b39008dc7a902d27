//! The bundled ball puzzles small enough for a Python search count the same in cubesat and in `tests/data/spheres/oracle.py`, an exact-cover counter written apart from cubesat (its own FCC rotations, symmetry classes and mirror rule).

use crate::common::Dir;
use std::process::Command;

/// Runs the oracle on a bundled puzzle file: its `all=.. rotation=.. rotation+reflection=..`.
fn oracle(file: &str) -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/tests/data/spheres/oracle.py"))
        .arg(format!("{root}/puzzles/{file}.json"))
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
