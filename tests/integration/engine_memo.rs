//! The memoized counting engine through the binary: `--engine memo` counts what the default
//! engine counts on bundled and catalog puzzles in every mode it accepts, refuses the others
//! with one line, and refuses listing; its shards merge into the whole count, and its cache
//! takes the memory bound it is given.

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
    ] {
        let r = dir.run(args);
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains("memo"), "{args:?}: {}", r.stderr);
    }
}

/// The memo engine's shards (its own cut, not the exact engine's) merge into the count of
/// one run, in every mode it accepts, whatever the number of shards; the records say
/// `memo`, and a record of the exact engine's shards does not merge with them.
#[test]
fn memo_shards_merge_into_the_whole_count() {
    let dir = Dir::new();
    for (name, mode) in [
        ("dominoes-6x6", "none"),
        ("pentominoes-3x20", "rotation"),
        ("soma", "none"),
    ] {
        let want = dir.count(name, None, &["--up-to", mode]);
        for n in [1, 3, 8] {
            let mut files = Vec::new();
            for k in 0..n {
                let r = dir.run(&[
                    "solve",
                    name,
                    "--count",
                    "--up-to",
                    mode,
                    "--engine",
                    "memo",
                    "--shard",
                    &format!("{k}/{n}"),
                ]);
                r.code(0).stdout_has("\"engine\":\"memo\"");
                files.push(dir.write(&format!("{name}-{mode}-{k}-{n}.json"), &r.stdout));
            }
            let mut args = vec!["merge", "--format", "json"];
            args.extend(files.iter().map(|f| f.to_str().unwrap()));
            let r = dir.run(&args);
            let v: serde_json::Value = serde_json::from_str(&r.code(0).stdout)
                .unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
            assert_eq!(v["count"].as_u64(), Some(want), "{name} {mode} {n}: {v}");
        }
    }
    // A shard of the exact engine is another run: the merge refuses the mixture.
    let memo = dir.run(&[
        "solve", "soma", "--count", "--up-to", "none", "--engine", "memo", "--shard", "0/2",
    ]);
    let exact = dir.run(&[
        "solve", "soma", "--count", "--up-to", "none", "--shard", "1/2",
    ]);
    let a = dir.write("mixed-0.json", &memo.code(0).stdout);
    let b = dir.write("mixed-1.json", &exact.code(0).stdout);
    let r = dir.run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
}

/// `--max-memory` bounds the memo cache: the count is the same at 0 bytes, at 4K and by
/// default; a size that is not one, or one over 64G, is refused in one line before any
/// search.
#[test]
fn max_memory_bounds_the_cache_and_keeps_the_count() {
    let dir = Dir::new();
    let want = dir.count("dominoes-6x6", None, &["--up-to", "none"]);
    for size in ["0", "4K", "1.5M", "1G", "64GiB"] {
        let got = dir.count(
            "dominoes-6x6",
            None,
            &["--up-to", "none", "--engine", "memo", "--max-memory", size],
        );
        assert_eq!(got, want, "--max-memory {size}");
    }
    for (size, says) in [
        ("65G", "at most 64G"),
        ("lots", "not a size"),
        ("4GB", "not a size"),
        ("-1", "not a size"),
        ("1.5", "not a size"),
        ("99999999999T", "not a size"),
    ] {
        let r = dir.run(&[
            "solve",
            "dominoes-6x6",
            "--count",
            "--engine",
            "memo",
            "--max-memory",
            size,
        ]);
        r.code(2).stderr_has(says).stderr_has("--max-memory");
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
}

/// The front end gives the memo engine its cells' positions, so a board is filled along its
/// axes, column by column across its width (band the width), and a box along its longest
/// axis when that is narrower than the breadth-first order from a corner.
#[test]
fn the_profile_order_follows_the_grids_axes() {
    for (name, band) in [
        ("pentominoes-3x20", 3),
        ("pentominoes-6x10", 6),
        ("dominoes-8x4", 4),
        ("dominoes-8x8", 8),
        ("solid-pentominoes-3x4x5", 12),
    ] {
        let inst = cubesat::run::Instance::new(cubesat::puzzle::bundled(name).unwrap()).unwrap();
        assert_eq!(cubesat_xc::memo::band(&inst.model), Some(band), "{name}");
    }
}
