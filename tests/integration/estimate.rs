//! `cubesat estimate`: reproducible for a fixed seed and probe count, exact on trees it
//! finishes, its interval and shard plan sensible on one it does not, bad flags refused in
//! one line; and the library's estimate against real counts.

use super::common::Dir;
use cubesat::UpTo;
use cubesat::estimate::{Z95, estimate};
use cubesat::puzzle::bundled;
use cubesat::run::{Instance, RunOptions, count};
use cubesat_xc::exact::EstimateOptions;

fn json(run: &super::common::Run) -> serde_json::Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| {
        run.check(false, &format!("stdout is not one JSON object: {e}"));
        unreachable!()
    })
}

#[test]
fn a_fixed_seed_and_probe_count_give_the_same_estimate() {
    let d = Dir::new();
    let args = [
        "estimate",
        "tetris-cube",
        "--samples",
        "40",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let a = d.run(&args);
    a.code(0);
    let b = d.run(&args);
    b.code(0);
    let (ja, jb) = (json(&a), json(&b));
    for k in ["nodes", "low", "high", "solutions", "probes", "exact"] {
        assert_eq!(ja[k], jb[k], "{k} differs between two runs with seed 7");
    }
    assert_eq!(ja["probes"], 40);
    assert_eq!(ja["exact"], false);
    // Another seed samples other paths.
    let c = d.run(&[
        "estimate",
        "tetris-cube",
        "--samples",
        "40",
        "--seed",
        "8",
        "--format",
        "json",
    ]);
    assert_ne!(json(&c)["nodes"], ja["nodes"]);
}

#[test]
fn a_tree_the_probes_finish_is_reported_exactly() {
    let d = Dir::new();
    let r = d.run(&["estimate", "soma", "--samples", "100000"]);
    r.code(0)
        .stdout_has("exact: the probes searched the whole tree")
        .stdout_has("480 solutions up to rotation");
    let c = d.run(&["solve", "soma", "--count", "--threads", "1"]);
    c.code(0);
    let nodes = c
        .stderr
        .trim_end()
        .split(", ")
        .find_map(|p| p.strip_suffix(" nodes"))
        .and_then(|n| n.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            c.check(false, "no node count in the statistics");
            0
        });
    r.stdout_has(&format!("{nodes} nodes"));
    let j = json(&d.run(&[
        "estimate",
        "soma",
        "--up-to",
        "rotation+reflection",
        "--samples",
        "100000",
        "--format",
        "json",
    ]));
    assert_eq!(j["exact"], true);
    assert_eq!(j["solutions"], 240.0);
    assert_eq!(j["low"], j["high"]);
}

#[test]
fn the_text_says_how_sure_it_is_and_plans_shards() {
    let d = Dir::new();
    let r = d.run(&[
        "estimate",
        "tetris-cube",
        "--samples",
        "60",
        "--wall",
        "1s",
        "--cores",
        "4",
    ]);
    r.code(0)
        .stdout_has("nodes: ")
        .stdout_has("95% interval")
        .stdout_has("from 60 probes")
        .stdout_has("speed: ")
        .stdout_has("cpu time: ")
        .stdout_has("plan: ")
        .stdout_has("--shard K/")
        .stdout_has("sbatch --array=0-");
    let j = json(&d.run(&[
        "estimate",
        "tetris-cube",
        "--samples",
        "60",
        "--format",
        "json",
        "--wall",
        "24h",
        "--cores",
        "64",
    ]));
    let (n, lo, hi) = (
        j["nodes"].as_f64().unwrap(),
        j["low"].as_f64().unwrap(),
        j["high"].as_f64().unwrap(),
    );
    assert!(lo <= n && n <= hi, "{j}");
    assert!(j["cpu_seconds"].as_f64().unwrap() > 0.0, "{j}");
    assert_eq!(
        j["plan"]["shards"], 1,
        "a few seconds of work is one shard: {j}"
    );
}

#[test]
fn bad_flags_are_one_line_errors() {
    let d = Dir::new();
    for (args, says) in [
        (&["estimate", "soma", "--samples", "0"][..], "samples"),
        (&["estimate", "soma", "--seconds", "-1"][..], "seconds"),
        (&["estimate", "soma", "--seconds", "nan"][..], "seconds"),
        (&["estimate", "soma", "--wall", "24"][..], "--wall 24"),
        (
            &["estimate", "soma", "--wall", "9999d"][..],
            "at most a year",
        ),
        (&["estimate", "soma", "--cores", "4"][..], "--wall"),
        (
            &["estimate", "soma", "--samples", "100000000000"][..],
            "samples",
        ),
    ] {
        let r = d.run(args);
        r.code(2).stderr_has(says);
        r.check(
            r.stderr.trim_end().lines().count() == 1 && r.stderr.starts_with("cubesat: error:"),
            "one line, prefixed",
        );
    }
}

/// The library's estimate of the Tetris Cube's count on a fixed probe count: within a factor
/// of two of the real tree, with the solutions estimated in the same mode.
#[test]
fn the_estimate_is_near_the_count() {
    let inst = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
    let opts = RunOptions {
        up_to: UpTo::Rotation,
        threads: 0,
        ..RunOptions::default()
    };
    let truth = count(&inst, &opts).unwrap();
    let e = estimate(
        &inst,
        &RunOptions {
            threads: 1,
            ..opts.clone()
        },
        &EstimateOptions {
            seed: 3,
            probes: Some(300),
            time: None,
            ..EstimateOptions::default()
        },
    )
    .unwrap();
    let nodes = truth.nodes.unwrap() as f64;
    let ratio = e.tree.nodes.mean / nodes;
    assert!((0.5..=2.0).contains(&ratio), "{ratio}: {:?}", e.tree.nodes);
    let (lo, hi) = e.tree.nodes.interval(Z95);
    assert!(lo > 0.0 && hi.is_finite() && lo < hi);
    let sratio = e.tree.total.mean / truth.count as f64;
    assert!(
        (0.3..=3.0).contains(&sratio),
        "{sratio}: {:?}",
        e.tree.total
    );
}

/// A puzzle the colouring cut refutes has no tree: the estimate says so exactly, as the count
/// does, instead of estimating a search that never runs.
#[test]
fn a_refuted_puzzle_has_an_empty_tree() {
    let d = Dir::new();
    let r = d.run(&["estimate", "hexominoes-7x30", "--seconds", "1"]);
    r.code(0)
        .stdout_has("exact: 0 nodes, 0 solutions up to rotation: refuted before any search")
        .stdout_has("checkerboard colouring");
    let j = json(&d.run(&["estimate", "hexominoes-7x30", "--format", "json"]));
    assert_eq!(j["nodes"], 0.0);
    assert_eq!(j["exact"], true);
    assert!(
        j["refutation"]
            .as_str()
            .is_some_and(|s| s.contains("colouring"))
    );
}
