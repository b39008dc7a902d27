//! Sharded runs: the shards of a count or listing hold every solution of the single run
//! exactly once (every counting mode, hints, optional cells, copies, the exact and SAT
//! engines), their node counts add up to the single run's and are balanced on the Tetris
//! Cube, and `merge` adds complete sets of shard records up and refuses everything else with
//! one line and exit 2.

use cubesat::counting::UpTo;
use cubesat::puzzle::{bundled, json::parse_puzzle};
use cubesat::run::{self, EngineChoice, Instance, RunOptions};
use cubesat_xc::Shard;

use crate::common::Dir;

fn opts(up_to: UpTo, shard: Option<Shard>) -> RunOptions {
    RunOptions {
        up_to,
        shard,
        ..RunOptions::default()
    }
}

/// The count and nodes of every shard of an `n`-way run.
fn shard_counts(inst: &Instance, base: &RunOptions, n: u32) -> Vec<(u64, u64)> {
    (0..n)
        .map(|k| {
            let o = RunOptions {
                shard: Some(Shard::new(k, n).unwrap()),
                ..base.clone()
            };
            let r = run::count(inst, &o).unwrap();
            assert!(!r.interrupted && !r.limited);
            (r.count, r.nodes.unwrap_or(0))
        })
        .collect()
}

/// Shards 0..n of every n in 1..=16 add up to the single run's count and nodes.
fn check_sums(inst: &Instance, modes: &[UpTo]) {
    for &mode in modes {
        let whole = run::count(inst, &opts(mode, None)).unwrap();
        for n in 1..=16 {
            let shards = shard_counts(inst, &opts(mode, None), n);
            let count: u64 = shards.iter().map(|s| s.0).sum();
            let nodes: u64 = shards.iter().map(|s| s.1).sum();
            assert_eq!(count, whole.count, "{} {mode} {n} shards", inst.puzzle.name);
            assert_eq!(
                Some(nodes),
                whole.nodes,
                "{} {mode} {n} shards",
                inst.puzzle.name
            );
        }
    }
}

/// The exact engine's split, pinned: each shard's count and nodes on a board and a cube
/// whose leaves the leaf search takes. Records of one split must never merge with another's,
/// so a change here (the branching rule, the leaf search's bounds, the cut) must raise
/// `cubesat_xc::exact::SCHEME`, which the records' run digest carries, and then update these.
#[test]
fn the_exact_split_is_pinned_to_its_scheme() {
    assert_eq!(cubesat_xc::exact::SCHEME, 1, "update the figures below");
    let pinned: [(&str, [(u64, u64); 5]); 2] = [
        (
            "pentominoes-6x10",
            [
                (466, 136736),
                (665, 176825),
                (401, 131319),
                (377, 124892),
                (430, 134607),
            ],
        ),
        (
            "bedlam",
            [
                (3310, 5933153),
                (4264, 7377749),
                (3797, 6337033),
                (3184, 5108711),
                (4631, 6884048),
            ],
        ),
    ];
    for (name, shards) in pinned {
        let inst = Instance::new(bundled(name).unwrap()).unwrap();
        let base = RunOptions {
            engine: EngineChoice::Exact,
            ..opts(UpTo::Rotation, None)
        };
        assert_eq!(shard_counts(&inst, &base, 5), shards, "{name}");
    }
}

const ALL_MODES: [UpTo; 3] = [UpTo::None, UpTo::Rotation, UpTo::RotationReflection];

#[test]
fn shards_add_up_on_soma_tetracubes_and_pentominoes_in_every_mode() {
    for name in [
        "soma",
        "tetracubes-2x4x4",
        "tetracubes-two-2x2x4",
        "pentominoes-6x10",
    ] {
        check_sums(&Instance::new(bundled(name).unwrap()).unwrap(), &ALL_MODES);
    }
}

/// Copies (two of each piece), optional cells and a hint.
#[test]
fn shards_add_up_with_copies_optional_cells_and_hints() {
    let text = r#"{"name": "strip", "target": {"cells": [[0,0,0],[1,0,0],[2,0,0],[3,0,0],[0,1,0],[1,1,0],[2,1,0],[3,1,0],[0,2,0],[1,2,0],[2,2,0],[3,2,0]], "optional": [[4,0,0],[4,1,0],[4,2,0]]},
        "pieces": [{"name": "L", "count": 2, "cells": [[0,0,0],[1,0,0],[0,1,0]]},
                   {"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]},
                   {"name": "M", "count": 2, "cells": [[0,0,0]]}]}"#;
    let inst = Instance::new(parse_puzzle(text, "strip").unwrap()).unwrap();
    assert!(run::count(&inst, &opts(UpTo::None, None)).unwrap().count > 100);
    check_sums(&inst, &ALL_MODES);
    let hinted = text.replace(
        r#""pieces""#,
        r#""hints": [{"piece": "D", "cells": [[0,0,0],[1,0,0]]}], "pieces""#,
    );
    let inst = Instance::new(parse_puzzle(&hinted, "hinted").unwrap()).unwrap();
    assert!(run::count(&inst, &opts(UpTo::None, None)).unwrap().count > 10);
    check_sums(&inst, &ALL_MODES);
}

#[test]
fn sat_shards_add_up_and_dlx_refuses() {
    let inst = Instance::new(bundled("soma").unwrap()).unwrap();
    for cubes in [None, Some(0), Some(64)] {
        let base = RunOptions {
            engine: EngineChoice::Sat,
            sat_cubes: cubes,
            threads: 2,
            ..opts(UpTo::Rotation, None)
        };
        for n in [1, 3, 8] {
            let total: u64 = shard_counts(&inst, &base, n).iter().map(|s| s.0).sum();
            assert_eq!(total, 480, "cubes {cubes:?}, {n} shards");
        }
    }
    let dlx = RunOptions {
        engine: EngineChoice::Dlx,
        ..opts(UpTo::Rotation, Shard::new(0, 2).ok())
    };
    let e = run::count(&inst, &dlx).unwrap_err().to_string();
    assert!(e.contains("dlx engine cannot run a shard"), "{e}");
}

/// The listings of all shards together are the single run's listing.
#[test]
fn shard_listings_together_are_the_single_listing() {
    for (name, mode) in [
        ("soma", UpTo::Rotation),
        ("soma", UpTo::None),
        ("pentominoes-6x10", UpTo::RotationReflection),
    ] {
        let inst = Instance::new(bundled(name).unwrap()).unwrap();
        let list = |o: &RunOptions| {
            let mut v = Vec::new();
            run::list(&inst, o, |s| {
                v.push(s.placements.clone());
                true
            })
            .unwrap();
            v
        };
        let mut whole = list(&opts(mode, None));
        whole.sort();
        for n in [1, 2, 5, 16] {
            let mut all = Vec::new();
            for k in 0..n {
                all.extend(list(&opts(mode, Shard::new(k, n).ok())));
            }
            all.sort();
            assert_eq!(all, whole, "{name} {mode} {n} shards");
        }
    }
}

/// The Tetris Cube in 4, 16 and 64 shards: the counts add up to 9,839, the nodes to the
/// single run's exactly, and the largest shard has at most 1.5 times the mean shard's nodes
/// (node counts are deterministic; the figures are printed for the record).
#[test]
fn tetris_cube_shards_add_up_and_balance() {
    let inst = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
    let base = RunOptions {
        threads: 2,
        ..opts(UpTo::Rotation, None)
    };
    let whole = run::count(&inst, &base).unwrap();
    assert_eq!(whole.count, 9839);
    let whole_nodes = whole.nodes.unwrap();
    for n in [4, 16, 64] {
        let shards = shard_counts(&inst, &base, n);
        let count: u64 = shards.iter().map(|s| s.0).sum();
        let nodes: Vec<u64> = shards.iter().map(|s| s.1).collect();
        let sum: u64 = nodes.iter().sum();
        let mean = sum as f64 / f64::from(n);
        let max = *nodes.iter().max().unwrap() as f64;
        let min = *nodes.iter().min().unwrap() as f64;
        eprintln!(
            "tetris-cube, {n} shards: nodes {sum} (single run {whole_nodes}), largest/mean {:.3}, smallest/mean {:.3}",
            max / mean,
            min / mean
        );
        assert_eq!(count, 9839, "{n} shards");
        assert_eq!(sum, whole_nodes, "{n} shards");
        if n >= 16 {
            assert!(max <= 1.5 * mean, "{n} shards: largest {max}, mean {mean}");
        }
    }
}

fn record(dir: &Dir, args: &[&str], file: &str) {
    let r = dir.run(args);
    r.code(0);
    dir.write(file, &r.stdout);
}

#[test]
fn merge_prints_the_single_runs_count_line() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("results")).unwrap();
    for k in 0..5 {
        let shard = format!("{k}/5");
        let out = format!("results/{k}.json");
        record(
            &dir,
            &[
                "solve", "soma", "--count", "--up-to", "none", "--shard", &shard,
            ],
            &out,
        );
    }
    let r = dir.run(&[
        "solve", "soma", "--count", "--shard", "2/5", "--up-to", "none",
    ]);
    r.code(0).check(
        r.stdout.lines().count() == 1 && r.stdout.starts_with("{\"check\""),
        "one JSON object",
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for key in [
        "shard",
        "count",
        "nodes",
        "up_to",
        "engine",
        "digest",
        "version",
        "cpu_seconds",
    ] {
        assert!(v.get(key).is_some(), "{key} in {v}");
    }
    assert_eq!(v["shard"], "2/5");
    dir.run(&["merge", "results"])
        .code(0)
        .stdout_is("11520 solutions counting every placement\n");
    let mut files: Vec<String> = (0..5).map(|k| format!("results/{k}.json")).collect();
    files.insert(0, "merge".into());
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    dir.run(&args)
        .code(0)
        .stdout_is("11520 solutions counting every placement\n");
    let r = dir.run(&["merge", "results", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.code(0).stdout).unwrap();
    assert_eq!(v["count"], 11520);
    assert_eq!(v["shards"], 5);

    // Listings merge too; a listing cut short is refused. The 6x10 board splits into
    // subtrees under its root (Soma's whole search is one leaf board, so one shard).
    std::fs::create_dir(dir.path().join("lists")).unwrap();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = format!("lists/{k}.json");
        record(
            &dir,
            &[
                "solve",
                "pentominoes-6x10",
                "--all",
                "--format",
                "json",
                "--shard",
                &shard,
            ],
            &out,
        );
    }
    dir.run(&["merge", "lists"])
        .code(0)
        .stdout_is("2339 solutions up to rotation\n");
    let text = std::fs::read_to_string(dir.path().join("lists/1.json")).unwrap();
    let cut: Vec<&str> = text.lines().skip(1).collect();
    dir.write("lists/1.json", &cut.join("\n"));
    let r = dir.run(&["merge", "lists"]);
    r.code(2)
        .stderr_has("lists/1.json: ")
        .stderr_has("truncated?");
}

#[test]
fn merge_refuses_missing_foreign_edited_and_truncated_shards() {
    let dir = Dir::new();
    let one_line = |r: &crate::common::Run| {
        r.code(2).check(
            r.stderr.lines().count() == 1 && r.stderr.starts_with("cubesat: error: "),
            "one error line",
        );
    };
    for k in [0, 1, 2, 4, 5, 7] {
        record(
            &dir,
            &["solve", "soma", "--count", "--shard", &format!("{k}/8")],
            &format!("{k}.json"),
        );
    }
    let r = dir.run(&["merge", "."]);
    one_line(&r);
    r.stderr_has("2 of 8 shards missing: 3, 6")
        .stderr_has("sbatch --array=3,6 ")
        .stderr_has("cubesat solve soma --count --shard {}/8");
    for k in [3, 6] {
        record(
            &dir,
            &["solve", "soma", "--count", "--shard", &format!("{k}/8")],
            &format!("{k}.json"),
        );
    }
    dir.run(&["merge", "."])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");

    // Another puzzle, another mode, another N, a duplicate.
    let other = Dir::new();
    let cases: [(&[&str], &str); 4] = [
        (
            &["solve", "tetracubes-2x4x4", "--count", "--shard", "3/8"],
            "another puzzle",
        ),
        (
            &[
                "solve", "soma", "--count", "--up-to", "none", "--shard", "3/8",
            ],
            "counted up to none",
        ),
        (
            &["solve", "soma", "--count", "--shard", "3/9"],
            "against 8 shards",
        ),
        (
            &[
                "solve",
                "soma",
                "--count",
                "--shard",
                "3/8",
                "--threads",
                "1",
            ],
            "appears twice",
        ),
    ];
    for (args, says) in cases {
        record(&other, args, "x.json");
        let x = other.path().join("x.json");
        let r = dir.run(&["merge", ".", x.to_str().unwrap()]);
        one_line(&r);
        r.stderr_has(says);
    }

    // Edited by hand, truncated, not a record at all.
    let good = std::fs::read_to_string(dir.path().join("5.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&good).unwrap();
    let count = v["count"].as_u64().unwrap();
    let edited = good.replace(
        &format!("\"count\":{count}"),
        &format!("\"count\":{}", count + 1),
    );
    assert_ne!(edited, good);
    for (text, says) in [
        (
            edited.as_str(),
            "5.json: the record does not match its check digest",
        ),
        (&good[..good.len() - 20], "5.json: line 1: not JSON"),
        ("{\"type\":\"solution\"}\n", "5.json: no shard record"),
        ("480 solutions up to rotation\n", "5.json: line 1: not JSON"),
    ] {
        dir.write("5.json", text);
        let r = dir.run(&["merge", "."]);
        one_line(&r);
        r.stderr_has(says)
            .check(r.stdout.is_empty(), "nothing counted");
    }
}

#[test]
fn bad_shard_arguments_are_one_line_errors() {
    let dir = Dir::new();
    for (args, says) in [
        (
            &["--shard", "5/4"][..],
            "--shard 5/4: there is no shard 5/4: shards are numbered from 0, so the 4 shards are 0/4 to 3/4",
        ),
        (
            &["--shard", "0/0"],
            "--shard 0/0: a search cannot be split into 0 shards",
        ),
        (&["--shard", "x"], "--shard x: shard \"x\" is not K/N"),
        (&["--shard", "-1/4"], "is not K/N"),
        (
            &["--shard", "1/4", "--limit", "3"],
            "cannot be combined with --limit",
        ),
        (
            &["--shard", "1/4", "--engine", "dlx"],
            "the dlx engine cannot run a shard",
        ),
    ] {
        let mut full = vec!["solve", "soma", "--count"];
        full.extend_from_slice(args);
        let r = dir.run(&full);
        r.code(2)
            .stderr_has(says)
            .check(r.stderr.lines().count() == 1, "one error line")
            .check(r.stdout.is_empty(), "nothing on stdout");
    }
    let r = dir.run(&["solve", "soma", "--shard", "1/4"]);
    r.code(2).stderr_has("--shard needs --count");
    let r = dir.run(&["merge", "nothing-here.json"]);
    r.code(2).stderr_has("nothing-here.json: cannot read");
}

/// `--shard all/N --into DIR` runs the shards the folder lacks, one record file each, and
/// prints the merged counts once all are there; a rerun skips what is done, a shard run alone
/// adds its file, and a file of another run is refused, not overwritten.
#[test]
fn a_count_fills_a_folder_shard_by_shard_and_resumes() {
    let dir = Dir::new();
    let whole = dir.run(&["solve", "soma", "--count", "--up-to", "none,rotation"]);
    whole.code(0);
    let all = [
        "solve",
        "soma",
        "--count",
        "--up-to",
        "none,rotation",
        "--shard",
        "all/6",
        "--into",
        "runs/soma",
    ];
    dir.run(&all)
        .code(0)
        .stdout_is(&whole.stdout)
        .stderr_has("0 of the 6 shard(s) asked for already done, 6 to run")
        .stderr_has("shard 5/6: ");
    for k in 0..6 {
        let text = std::fs::read_to_string(dir.path().join(format!("runs/soma/{k}.json"))).unwrap();
        let records: Vec<serde_json::Value> = (text.lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 2, "a record a mode in {k}.json");
        assert_eq!(
            records[0]["command"],
            format!("cubesat solve soma --count --up-to none,rotation --shard {k}/6"),
            "the command that reruns shard {k} alone"
        );
    }
    assert!(!dir.path().join("runs/soma/0.json.tmp").exists());
    dir.run(&["merge", "runs/soma"])
        .code(0)
        .stdout_is(&whole.stdout);

    // Done shards are not run again; a missing one is, alone or with the rest.
    dir.run(&all)
        .code(0)
        .stdout_is(&whole.stdout)
        .stderr_has("6 of the 6 shard(s) asked for already done, 0 to run");
    let three = dir.path().join("runs/soma/3.json");
    let kept = std::fs::read_to_string(&three).unwrap();
    std::fs::remove_file(&three).unwrap();
    std::fs::remove_file(dir.path().join("runs/soma/4.json")).unwrap();
    let mut one = all;
    one[6] = "3/6";
    dir.run(&one)
        .code(0)
        .stdout_is("")
        .stderr_has("0 of the 1 shard(s) asked for already done, 1 to run")
        .stderr_has("1 of 6 shards still to run");
    let again = std::fs::read_to_string(&three).unwrap();
    let same = |t: &str| -> Vec<(serde_json::Value, serde_json::Value)> {
        (t.lines())
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| (v["count"].clone(), v["digest"].clone()))
            .collect()
    };
    assert_eq!(same(&again), same(&kept), "shard 3 counted again the same");
    dir.run(&all)
        .code(0)
        .stdout_is(&whole.stdout)
        .stderr_has("5 of the 6 shard(s) asked for already done, 1 to run");

    // A file of another run (another mode) is refused with one line, and left as it was.
    let other = dir.run(&["solve", "soma", "--count", "--shard", "4/6"]);
    dir.write("runs/soma/4.json", &other.code(0).stdout);
    let r = dir.run(&all);
    r.code(2)
        .check(r.stderr.lines().count() == 1, "one error line")
        .stderr_has("runs/soma/4.json: a record of another run");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("runs/soma/4.json")).unwrap(),
        other.stdout
    );

    // Flags that do not go together.
    let cases: [(&[&str], &str); 7] = [
        (
            &["solve", "soma", "--count", "--shard", "all/6"],
            "add --into DIR",
        ),
        (
            &[
                "solve", "soma", "--count", "--shard", "all/0", "--into", "d",
            ],
            "cannot be split into 0 shards",
        ),
        (
            &[
                "solve",
                "soma",
                "--count",
                "--shard",
                "all/99999999999",
                "--into",
                "d",
            ],
            "is too many",
        ),
        (
            &[
                "solve", "soma", "--count", "--shard", "all/2", "--into", "afile",
            ],
            "afile: cannot create the folder: ",
        ),
        (
            &["solve", "soma", "--count", "--into", "d"],
            "--into DIR takes the records of a count's shards",
        ),
        (
            &["solve", "soma", "--all", "--shard", "1/6", "--into", "d"],
            "--into DIR takes the records of a count's shards",
        ),
        (
            &[
                "solve", "soma", "--count", "--shard", "all/x", "--into", "d",
            ],
            "--shard all/x: not all/N",
        ),
    ];
    dir.write("afile", "");
    for (args, says) in cases {
        let r = dir.run(args);
        r.code(2)
            .stderr_has(says)
            .check(r.stderr.lines().count() == 1, "one error line");
    }

    // A FIFO (or a folder) named like a record is refused, not read: a FIFO would block.
    std::fs::create_dir(dir.path().join("odd")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.path().join("odd/0.json"))
        .status()
        .expect("run mkfifo");
    assert!(fifo.success());
    std::fs::create_dir(dir.path().join("odd/1.json")).unwrap();
    for k in ["0", "1"] {
        let mut one = all;
        let shard = format!("{k}/6");
        one[6] = &shard;
        one[8] = "odd";
        let r = dir.run(&one);
        r.code(2)
            .stderr_has(&format!("odd/{k}.json: not a regular file"))
            .check(r.stderr.lines().count() == 1, "one error line");
    }
}

/// Ctrl-C stops a folder run after the shards it finished, each on file and none half
/// written; the same command then runs the rest and prints the whole count.
#[test]
fn an_interrupted_folder_run_keeps_its_shards_and_goes_on() {
    let dir = Dir::new();
    let args = [
        "solve",
        "bedlam",
        "--count",
        "--threads",
        "1",
        "--shard",
        "all/8",
        "--into",
        "runs",
    ];
    let files = || {
        std::fs::read_dir(dir.path().join("runs"))
            .map(|d| d.filter_map(|e| e.ok()).count())
            .unwrap_or(0)
    };
    let r = crate::common::interrupted_when(&dir, &args, || files() >= 2, "after two shards");
    r.code(130)
        .stderr_has("interrupted: not written")
        .stdout_is("");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let done = names.len();
    assert!((2..8).contains(&done), "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".json")), "{names:?}");
    dir.run(&args)
        .code(0)
        .stdout_is("19186 solutions up to rotation\n")
        .stderr_has(&format!(
            "{done} of the 8 shard(s) asked for already done, {} to run",
            8 - done
        ));
}
