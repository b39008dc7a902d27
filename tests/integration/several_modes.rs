//! Several counting modes from one search (`--up-to none,rotation,rotation+reflection`): each
//! mode's count equals its own run's on cube, flat, ball and hinted puzzles and BurrTools
//! files (whole and in shards), the binary prints a line or a shard record per mode, `merge`
//! adds such records up per mode, and what cannot share a search is refused with one line.

use cubesat::counting::UpTo;
use cubesat::puzzle::{bundled, json::parse_puzzle};
use cubesat::run::{self, EngineChoice, Instance, RunOptions};
use cubesat_xc::Shard;

use crate::common::Dir;

fn burrtools(file: &str) -> String {
    format!("{}/tests/data/burrtools/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// Each mode's count alone.
fn alone(inst: &Instance, mode: UpTo) -> u64 {
    let o = RunOptions {
        up_to: mode,
        ..RunOptions::default()
    };
    run::count(inst, &o).unwrap().count
}

/// The counts of `modes` from one search (in `n` shards), in the order given.
fn together(inst: &Instance, modes: &[UpTo], n: u32) -> Vec<u64> {
    let mut sums = vec![0u64; modes.len()];
    for k in 0..n {
        let o = RunOptions {
            up_to: modes[0],
            also_up_to: modes[1..].to_vec(),
            shard: (n > 1).then(|| Shard::new(k, n).unwrap()),
            ..RunOptions::default()
        };
        let r = run::count(inst, &o).unwrap();
        assert!(!r.interrupted && !r.limited);
        let by_mode = r.by_mode(modes[0]);
        assert_eq!(
            by_mode.iter().map(|m| m.0).collect::<Vec<_>>(),
            modes,
            "{}",
            inst.puzzle.name
        );
        for (s, (_, m)) in sums.iter_mut().zip(by_mode) {
            *s += m.count;
        }
    }
    sums
}

fn check(inst: &Instance, modes: &[UpTo]) {
    let want: Vec<u64> = modes.iter().map(|&m| alone(inst, m)).collect();
    for n in [1, 3] {
        assert_eq!(
            together(inst, modes, n),
            want,
            "{} {modes:?} in {n} shards",
            inst.puzzle.name
        );
    }
    // Any mode first: the search is the rotation mode's whichever is the run's own.
    let mut turned = modes.to_vec();
    turned.rotate_left(1);
    let mut want_turned = want.clone();
    want_turned.rotate_left(1);
    assert_eq!(together(inst, &turned, 1), want_turned, "{turned:?}");
}

const THREE: [UpTo; 3] = [UpTo::None, UpTo::Rotation, UpTo::RotationReflection];

#[test]
fn every_mode_counts_as_its_own_run_from_one_search() {
    // Cubes (Soma: 11520, 480, 240), a flat board whose turning over is a rotation, a
    // box, balls on their own grid.
    for name in [
        "soma",
        "pentominoes-6x10",
        "tetracubes-2x4x4",
        "perplexing-pyramid",
        "ball-room-tetrahedron",
    ] {
        let inst = Instance::new(bundled(name).unwrap()).unwrap();
        check(&inst, &THREE);
    }
    let inst = Instance::new(bundled("soma").unwrap()).unwrap();
    assert_eq!(together(&inst, &THREE, 1), [11520, 480, 240]);
    // A set that is not mirror-closed: none and rotation share, a reflection is refused.
    let inst = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
    let two = [UpTo::Rotation, UpTo::None];
    assert_eq!(together(&inst, &two, 1), [9839, 236136]);
}

#[test]
fn hints_optional_cells_and_copies_beside_a_piece_used_once() {
    let text = r#"{"name": "strip", "target": {"cells": [[0,0,0],[1,0,0],[2,0,0],[3,0,0],[0,1,0],[1,1,0],[2,1,0],[3,1,0],[0,2,0],[1,2,0],[2,2,0],[3,2,0]], "optional": [[4,0,0],[4,1,0],[4,2,0]]},
        "pieces": [{"name": "L", "count": 1, "cells": [[0,0,0],[1,0,0],[0,1,0]]},
                   {"name": "S", "count": 1, "cells": [[0,0,0],[1,0,0],[1,1,0],[2,1,0]]},
                   {"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]},
                   {"name": "M", "count": 2, "cells": [[0,0,0]]}]}"#;
    let inst = Instance::new(parse_puzzle(text, "strip").unwrap()).unwrap();
    assert!(alone(&inst, UpTo::None) > 100);
    check(&inst, &THREE);
    let hinted = text.replace(
        r#""pieces""#,
        r#""hints": [{"piece": "D", "cells": [[0,0,0],[1,0,0]]}], "pieces""#,
    );
    let inst = Instance::new(parse_puzzle(&hinted, "hinted").unwrap()).unwrap();
    assert!(alone(&inst, UpTo::None) > 10);
    check(&inst, &THREE);
}

#[test]
fn burrtools_files_count_every_mode_beside_burrtools_own() {
    let dir = Dir::new();
    // Soma (BurrTools 240), a result with no mirror symmetry (413), colours (219).
    for (file, burr) in [
        ("reference/01a_soma.xmpuzzle", 240),
        ("reference/09b_chiral_result.xmpuzzle", 413),
        ("reference/07_colours.xmpuzzle", 219),
    ] {
        let path = burrtools(file);
        let r = dir.run(&[
            "solve",
            &path,
            "--count",
            "-q",
            "--up-to",
            "burrtools,none,rotation,rotation+reflection",
        ]);
        r.code(0);
        let counts: Vec<u64> = (r.stdout.lines())
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        let mut alone = Vec::new();
        for mode in ["burrtools", "none", "rotation", "rotation+reflection"] {
            alone.push(dir.count(&path, None, &["--up-to", mode]));
        }
        assert_eq!(counts, alone, "{file}");
        assert_eq!(counts[0], burr, "{file}");
    }
}

#[test]
fn the_binary_prints_a_line_and_a_record_per_mode_and_merge_adds_them_up() {
    let dir = Dir::new();
    let modes = "none,rotation,rotation+reflection";
    dir.run(&["solve", "soma", "--count", "--up-to", modes])
        .code(0)
        .stdout_is(
            "11520 solutions counting every placement\n480 solutions up to rotation\n240 solutions up to rotation and reflection\n",
        )
        .stderr_has("also counted from the same search: rotation, rotation+reflection");
    let r = dir.run(&[
        "solve", "soma", "--count", "--up-to", modes, "--format", "json",
    ]);
    let lines: Vec<serde_json::Value> = (r.code(0).stdout.lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, u64)> = (lines.iter())
        .map(|v| {
            let mode = v["up_to"].as_str().unwrap().to_string();
            (mode, v["solutions"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        got,
        [
            ("none".to_string(), 11520),
            ("rotation".to_string(), 480),
            ("rotation+reflection".to_string(), 240)
        ]
    );

    // Shards of the 6x10 board: a record per mode in each shard's file.
    std::fs::create_dir(dir.path().join("shards")).unwrap();
    for k in 0..4 {
        let shard = format!("{k}/4");
        let r = dir.run(&[
            "solve",
            "pentominoes-6x10",
            "--count",
            "--up-to",
            modes,
            "--shard",
            &shard,
        ]);
        let records: Vec<serde_json::Value> = (r.code(0).stdout.lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 3, "{}", r.stdout);
        assert_eq!(records[0]["nodes"], records[2]["nodes"], "one search");
        assert_ne!(
            records[0]["digest"], records[1]["digest"],
            "a digest per mode"
        );
        dir.write(&format!("shards/{k}.json"), &r.stdout);
    }
    dir.run(&["merge", "shards"]).code(0).stdout_is(
        "9356 solutions counting every placement\n2339 solutions up to rotation\n2339 solutions up to rotation and reflection\n",
    );
    // One mode's records alone (a folder per mode) merge as a run of their own; mixed with
    // a single-mode run's record they are refused.
    std::fs::create_dir(dir.path().join("rotation")).unwrap();
    for k in 0..4 {
        let text = std::fs::read_to_string(dir.path().join(format!("shards/{k}.json"))).unwrap();
        let line = text.lines().nth(1).unwrap();
        dir.write(&format!("rotation/{k}.json"), &format!("{line}\n"));
    }
    dir.run(&["merge", "rotation"])
        .code(0)
        .stdout_is("2339 solutions up to rotation\n");
    let single = dir.run(&["solve", "pentominoes-6x10", "--count", "--shard", "3/4"]);
    dir.write("single.json", &single.code(0).stdout);
    let r = dir.run(&[
        "merge",
        "rotation/0.json",
        "rotation/1.json",
        "rotation/2.json",
        "single.json",
    ]);
    r.code(2)
        .stderr_has("different options")
        .check(r.stderr.lines().count() == 1, "one error line");
}

#[test]
fn what_cannot_share_a_search_is_refused_with_one_line() {
    let dir = Dir::new();
    for (args, says) in [
        (
            &[
                "solve",
                "soma",
                "--count",
                "--up-to",
                "none,rotation",
                "--engine",
                "memo",
            ][..],
            "several counting modes share one search in a whole count",
        ),
        (
            &[
                "solve",
                "soma",
                "--count",
                "--up-to",
                "none,rotation",
                "--limit",
                "3",
            ],
            "several counting modes share one search in a whole count",
        ),
        (
            &["solve", "soma", "--up-to", "none,rotation"],
            "several counting modes share one search in a whole count",
        ),
        (
            &[
                "solve",
                "soma",
                "--count",
                "--up-to",
                "rotation,none,rotation",
            ],
            "rotation is asked for twice",
        ),
        (
            &["solve", "soma", "--count", "--up-to", "none,sideways"],
            "unknown counting mode 'sideways'",
        ),
        (
            &["solve", "soma", "--count", "--up-to", "none,"],
            "unknown counting mode ''",
        ),
        (
            &[
                "solve",
                "dominoes-8x4",
                "--count",
                "--up-to",
                "none,rotation",
            ],
            "has no piece used once",
        ),
        (
            &[
                "solve",
                "tetris-cube",
                "--count",
                "--up-to",
                "rotation,rotation+reflection",
            ],
            "needs the mirror image of every chiral piece",
        ),
        (
            &[
                "solve",
                "soma",
                "--count",
                "--disassemble",
                "--up-to",
                "none,rotation",
            ],
            "--disassemble counts in one mode",
        ),
    ] {
        let r = dir.run(args);
        r.code(2)
            .stderr_has(says)
            .check(r.stderr.lines().count() == 1, "one error line")
            .check(r.stdout.is_empty(), "nothing on stdout");
    }
    // The library refuses the memo engine on its own too.
    let inst = Instance::new(bundled("soma").unwrap()).unwrap();
    let o = RunOptions {
        engine: EngineChoice::Memo,
        up_to: UpTo::None,
        also_up_to: vec![UpTo::Rotation],
        ..RunOptions::default()
    };
    let e = run::count(&inst, &o).unwrap_err().to_string();
    assert!(e.contains("one mode a run"), "{e}");
}
