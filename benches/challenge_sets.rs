//! Challenge set bench: a 60-challenge, 5-level set (`cubesat generate --set 60`) for Kanoodle's board, the IQ Puzzler Pro pyramid and the Tetris Cube (and the Kanoodle pyramid of the test data), one thread: CPU seconds to make the set and to write its files (the booklet's PDF most of it), the difficulty per level, and how the difficulty of every candidate measured relates to the pieces it leaves to place.
//!
//! `cargo bench --bench challenge_sets -- [--seeds K] [--size N] [PUZZLE|FILE ...]`
//!
//! Per puzzle and seed (default seeds 1 to 3): the set's making (`make_set`: drawing,
//! uniqueness checks, measuring, checking each chosen challenge) and its files
//! (`book::files`: puzzle files, index, HTML, A4 PDF) in CPU seconds of this process; per
//! level, pieces to place and difficulty (min / median / max search nodes), with a check that
//! each level starts above the level before ends; and over every candidate measured (chosen
//! or not), the median difficulty per number of pieces to place and the share of pairs with
//! different pieces to place that the difficulty orders the same way (1.0: the measure always
//! agrees with the pieces-left grading). There is no baseline to divide by: the target is an
//! absolute one (under 60 s a set on one core), and the node figures are deterministic.

use cpu_time::ProcessTime;
use cubesat::challenge::book::{self, Paper};
use cubesat::challenge::set::{Candidate, SetOptions, make_set};

const DEFAULT: [&str; 4] = [
    "kanoodle-2d",
    "iq-puzzler-pro-pyramid",
    "tetris-cube",
    "tests/data/spheres/kanoodle-pyramid.json",
];

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    if v.is_empty() { 0 } else { v[v.len() / 2] }
}

/// The share of candidate pairs with different pieces to place whose difficulty is ordered
/// the same way (ties in difficulty count half).
fn agreement(pool: &[Candidate]) -> f64 {
    let (mut agree, mut pairs) = (0.0, 0u64);
    for (i, a) in pool.iter().enumerate() {
        for b in &pool[i + 1..] {
            let (la, lb) = (a.figures.pieces_left, b.figures.pieces_left);
            if la == lb {
                continue;
            }
            pairs += 1;
            let (na, nb) = (a.figures.nodes, b.figures.nodes);
            if na == nb {
                agree += 0.5;
            } else if (la < lb) == (na < nb) {
                agree += 1.0;
            }
        }
    }
    if pairs == 0 {
        1.0
    } else {
        agree / pairs as f64
    }
}

/// A bundled puzzle by name, or a puzzle file.
fn load(name: &str) -> anyhow::Result<cubesat::Puzzle> {
    Ok(cubesat::puzzle::load(Some(std::ffi::OsStr::new(name)))?)
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut take = |flag: &str, default: usize| -> usize {
        match args.iter().position(|a| a == flag) {
            Some(i) => {
                let v = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(default);
                args.drain(i..(i + 2).min(args.len()));
                v
            }
            None => default,
        }
    };
    let seeds = take("--seeds", 3) as u64;
    let size = take("--size", 60);
    let puzzles: Vec<String> = if args.is_empty() {
        DEFAULT.iter().map(|s| s.to_string()).collect()
    } else {
        args
    };
    println!(
        "| puzzle | seed | make set (cpu s) | files (cpu s) | level: pieces to place, difficulty min / median / max | separated |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut pools = Vec::new();
    for name in &puzzles {
        let mut pool_all: Vec<Candidate> = Vec::new();
        for seed in 1..=seeds {
            let puzzle = load(name)?;
            let title = puzzle.name.clone();
            let opts = SetOptions::new(size, None, seed)?;
            let t = ProcessTime::now();
            let set = make_set(puzzle, &opts, None, &mut |_| {})?;
            let make = t.elapsed().as_secs_f64();
            let t = ProcessTime::now();
            let files = book::files(&set, Paper::A4)?;
            let write = t.elapsed().as_secs_f64();
            assert_eq!(files.len(), size + 3, "challenges, index, HTML, PDF");
            let mut levels = Vec::new();
            let mut separated = true;
            let mut prev_max = None;
            for (k, level) in set.levels.iter().enumerate() {
                let cs: Vec<_> = set.challenges.iter().filter(|c| c.level == k).collect();
                let nodes: Vec<u64> = cs.iter().map(|c| c.figures.nodes).collect();
                let lmin = cs.iter().map(|c| c.figures.pieces_left).min().unwrap_or(0);
                let lmax = cs.iter().map(|c| c.figures.pieces_left).max().unwrap_or(0);
                let (min, max) = (
                    *nodes.iter().min().unwrap_or(&0),
                    *nodes.iter().max().unwrap_or(&0),
                );
                if prev_max.is_some_and(|p| min <= p) {
                    separated = false;
                }
                prev_max = Some(max);
                let left = if lmin == lmax {
                    lmin.to_string()
                } else {
                    format!("{lmin}-{lmax}")
                };
                levels.push(format!(
                    "{level}: {left}, {min} / {} / {max}",
                    median(nodes.clone())
                ));
            }
            println!(
                "| {title} | {seed} | {make:.3} | {write:.3} | {} | {} |",
                levels.join("; "),
                if separated { "yes" } else { "NO" }
            );
            pool_all.extend(set.pool);
        }
        pools.push((name.clone(), pool_all));
    }
    println!();
    println!(
        "| puzzle | candidates | median difficulty by pieces to place | pairs ordered as pieces to place |"
    );
    println!("| --- | --- | --- | --- |");
    for (name, pool) in &pools {
        let mut lefts: Vec<u32> = pool.iter().map(|c| c.figures.pieces_left).collect();
        lefts.sort_unstable();
        lefts.dedup();
        let by: Vec<String> = lefts
            .iter()
            .map(|&l| {
                let v: Vec<u64> = pool
                    .iter()
                    .filter(|c| c.figures.pieces_left == l)
                    .map(|c| c.figures.nodes)
                    .collect();
                format!("{l}: {} (n={})", median(v.clone()), v.len())
            })
            .collect();
        println!(
            "| {name} | {} | {} | {:.3} |",
            pool.len(),
            by.join(", "),
            agreement(pool)
        );
    }
    Ok(())
}
