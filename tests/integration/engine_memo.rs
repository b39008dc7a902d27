//! The memoized counting engine through the binary: `--engine memo` counts what the default
//! engine counts on bundled and catalog puzzles in every mode it accepts, refuses the others
//! with one line, and refuses listing.

use crate::common::Dir;

/// Puzzles small enough for a debug build: a polyomino board, two domino boards (one piece
/// of many copies), polycube boxes.
const PUZZLES: [&str; 5] = [
    "pentominoes-3x20",
    "dominoes-6x6",
    "dominoes-8x4",
    "tetracubes-two-2x2x4",
    "soma",
];

#[test]
fn memo_counts_equal_the_default_engine() {
    let dir = Dir::new();
    for name in PUZZLES {
        for mode in ["none", "rotation", "rotation+reflection"] {
            let want = dir.count(name, None, &["--up-to", mode]);
            let r = dir.run(&[
                "solve", "--count", "-q", name, "--up-to", mode, "--engine", "memo",
            ]);
            if mode != "none" && r.code == 2 && r.stderr.contains("cannot count this puzzle") {
                // A mode whose solutions need a check each: refused in one line.
                assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
                continue;
            }
            let got: u64 = r
                .stdout
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name} {mode}: {}{}", r.stdout, r.stderr));
            assert_eq!(got, want, "{name} up to {mode}");
        }
    }
}

#[test]
fn memo_refuses_what_it_cannot_do() {
    let dir = Dir::new();
    for args in [
        &["solve", "soma", "--engine", "memo"][..],
        &["solve", "soma", "--all", "--engine", "memo"],
        &[
            "solve", "soma", "--count", "--limit", "3", "--engine", "memo",
        ],
        &[
            "solve", "soma", "--count", "--up-to", "none", "--engine", "memo", "--shard", "1/2",
        ],
    ] {
        let r = dir.run(args);
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains("memo"), "{args:?}: {}", r.stderr);
    }
}
