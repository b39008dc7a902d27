//! SAT counting against exact counting: the SAT engine's count (cube and conquer, the exact
//! engine's first attempt at each cube, varisat for the rest) and the exact engine's count of
//! the same puzzle, one thread each, back to back in one process; prints process CPU seconds
//! and the ratio. The counts must agree.
//!
//! `cargo bench --bench sat_count -- [PUZZLE ...]` (bundled names; default
//! `pentominoes-6x10 tetris-cube`). `--exact-budget N` sets the SAT engine's per-cube budget
//! (0: every cube to varisat); `--cubes N` the cubes its cut asks for (default the engine's
//! enumeration split).

use cpu_time::ProcessTime;
use cubesat::puzzle::bundled;
use cubesat::run::{EngineChoice, Instance, RunOptions, count};

fn main() -> anyhow::Result<()> {
    let mut puzzles = Vec::new();
    let mut budget = None;
    let mut cubes = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--exact-budget" => {
                let n = args
                    .next()
                    .ok_or_else(|| anyhow::anyhow!("--exact-budget N"))?;
                budget = Some(n.parse()?);
            }
            "--cubes" => {
                let n = args.next().ok_or_else(|| anyhow::anyhow!("--cubes N"))?;
                cubes = Some(n.parse()?);
            }
            _ => puzzles.push(a),
        }
    }
    if puzzles.is_empty() {
        puzzles = vec!["pentominoes-6x10".into(), "tetris-cube".into()];
    }
    println!("| puzzle | exact CPU s | SAT CPU s | SAT / exact | count |");
    println!("| --- | --- | --- | --- | --- |");
    for name in &puzzles {
        let inst = Instance::new(bundled(name)?)?;
        let run = |engine| -> anyhow::Result<(f64, u64, String)> {
            let opts = RunOptions {
                engine,
                threads: 1,
                sat_exact_budget: budget,
                sat_cubes: cubes,
                ..RunOptions::default()
            };
            let start = ProcessTime::now();
            let r = count(&inst, &opts).map_err(|e| anyhow::anyhow!(e.report()))?;
            Ok((start.elapsed().as_secs_f64(), r.count, r.engine))
        };
        let (exact_s, exact_n, _) = run(EngineChoice::Exact)?;
        let (sat_s, sat_n, summary) = run(EngineChoice::Sat)?;
        anyhow::ensure!(exact_n == sat_n, "{name}: exact {exact_n}, SAT {sat_n}");
        eprintln!("{name}: {summary}");
        println!(
            "| {name} | {exact_s:.2} | {sat_s:.2} | {:.2}x | {exact_n} |",
            sat_s / exact_s
        );
    }
    Ok(())
}
