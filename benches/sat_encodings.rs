//! SAT benchmark: every at-most-one encoding on every bundled puzzle, varisat (whole instance, and split into cubes by the exact engine) against CaDiCaL on the same exported CNF, with ratios against CaDiCaL measured in the same run.
//!
//! Each measurement runs the release binary as a child process and is killed at the budget
//! (varisat cannot be interrupted), so a row says "> budget" instead of hanging. Usage:
//!
//! ```text
//! cargo build --release && cargo bench --bench sat_encodings -- [--budget SECS] [--cubes N] [PUZZLE ...]
//! ```
//!
//! Prints a Markdown table: first-solution times (varisat whole, varisat cubes, CaDiCaL on the
//! exported CNF of the same instance: restricted up to rotation where that restriction is
//! exact, else every placement), the ratio CaDiCaL / varisat-cubes, and the time to enumerate
//! every solution up to rotation with varisat cubes on every core (or "> budget"). Without
//! `--cubes` the binary's default split is used.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ENCODINGS: [&str; 5] = ["pairwise", "sequential", "commander", "product", "bimander"];
const PUZZLES: [&str; 8] = [
    "soma",
    "wooden-cube",
    "tetracubes-2x4x4",
    "tetracubes-2x2x8",
    "tetracubes-two-2x2x4",
    "pentominoes-3x20",
    "pentominoes-6x10",
    "tetris-cube",
];

/// Runs `cmd` until it exits or `budget` passes; returns the wall time if it finished
/// successfully (exit 0 or, for CaDiCaL, 10/20).
fn timed(mut cmd: Command, budget: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let ok = matches!(status.code(), Some(0 | 10 | 20));
            return ok.then(|| start.elapsed());
        }
        if start.elapsed() > budget {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn show(t: Option<Duration>, budget: Duration) -> String {
    match t {
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
        None => format!("> {:.0} s", budget.as_secs_f64()),
    }
}

fn binary() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = root.join("target/release/cubesat");
    if !bin.exists() {
        eprintln!("build the release binary first: cargo build --release");
        std::process::exit(2);
    }
    bin
}

fn main() {
    let mut budget = Duration::from_secs(20);
    // Without --cubes the binary's own default split is measured.
    let mut cubes: Option<String> = None;
    let mut puzzles: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--budget" => {
                budget = Duration::from_secs_f64(
                    args.next().and_then(|s| s.parse().ok()).unwrap_or(20.0),
                )
            }
            "--cubes" => cubes = args.next(),
            "--bench" => {}
            p => puzzles.push(p.to_string()),
        }
    }
    if puzzles.is_empty() {
        puzzles = PUZZLES.iter().map(|s| s.to_string()).collect();
    }
    let bin = binary();
    let have_cadical = Command::new("cadical").arg("--version").output().is_ok();
    let tmp = std::env::temp_dir().join(format!("cubesat-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    println!(
        "budget {:.0} s per run; cubes {}; machine load changes figures, compare ratios",
        budget.as_secs_f64(),
        cubes.as_deref().unwrap_or("the default")
    );
    println!();
    println!(
        "| puzzle | encoding | first: varisat whole | first: varisat cubes | first: CaDiCaL | CaDiCaL / cubes | all up to rotation: varisat cubes |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for p in &puzzles {
        for amo in ENCODINGS {
            let solve = |extra: &[&str]| {
                let mut c = Command::new(&bin);
                c.args(["solve", p, "--engine", "sat", "--amo", amo, "--quiet"])
                    .args(extra);
                c
            };
            let whole = timed(solve(&["--cubes", "0"]), budget);
            let split_args: Vec<&str> = match &cubes {
                Some(n) => vec!["--cubes", n],
                None => vec![],
            };
            let split = timed(solve(&split_args), budget);
            let all = timed(solve(&[&split_args[..], &["--count"]].concat()), budget);
            // CaDiCaL gets the same instance varisat solves: restricted up to rotation where
            // that restriction is exact on its own, otherwise every placement.
            let cnf = tmp.join(format!("{p}-{amo}.cnf"));
            let export = |mode: &str| {
                Command::new(&bin)
                    .args([
                        "export", p, "--format", "dimacs", "--up-to", mode, "--amo", amo,
                        "--quiet", "--out",
                    ])
                    .arg(&cnf)
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            };
            let exported = export("rotation") || export("none");
            let cadical = if have_cadical && exported {
                let mut c = Command::new("cadical");
                c.arg("-q").arg(&cnf);
                timed(c, budget)
            } else {
                None
            };
            let ratio = match (cadical, split) {
                (Some(c), Some(s)) => format!("{:.1}x", c.as_secs_f64() / s.as_secs_f64()),
                (None, Some(_)) => "> budget".to_string(),
                _ => "-".to_string(),
            };
            let _ = std::fs::remove_file(&cnf);
            println!(
                "| {p} | {amo} | {} | {} | {} | {ratio} | {} |",
                show(whole, budget),
                show(split, budget),
                if have_cadical {
                    show(cadical, budget)
                } else {
                    "not installed".into()
                },
                show(all, budget)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
