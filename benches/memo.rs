//! Memoized counting bench: the plain exact engine against the memoized engine
//! (`cubesat_xc::memo`, each branching rule) on the same model and query, one thread, in one
//! process: the count (checked equal), nodes, CPU seconds, the ratio, and the memo cache's
//! peak bytes.
//!
//! Workloads (arguments, default those of `WORKLOADS`): `dominoes8x8`, `pento3x20` (a
//! narrow polyomino board), `solid345` (a pentacube box), `tetris`, `bedlam`,
//! `poly45-4x20` (the 4x20 board of the polyominoes of orders 4 and 5); built boxes of one
//! piece: `bricks` (16 1x2x4 bricks in 4x4x8), `y25` (5x5x5), `n26` (2x5x13), `y30`
//! (2x5x15); any other argument is a puzzle name or file. Each is counted up to rotation
//! when the memo engine's rotation restriction alone is exact in one search (the query then
//! excludes its non-representatives, for both engines), else counting every placement. A
//! memoized run that passes `--cap SECS` (default 60) CPU seconds is interrupted and shown as
//! a lower bound. `--rule NAME` runs one branching rule (default all), `--cache-mib N` sets
//! the cache bound, `--no-exact` skips the exact engine (its columns then read 0).
//!
//! `cargo bench --bench memo -- dominoes8x8 pento3x20 --cap 30`

use cpu_time::ProcessTime;
use cubesat::counting::UpTo;
use cubesat::run::Instance;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::memo::{Branching, MemoConfig, MemoEngine};
use cubesat_xc::{Engine, Progress, Query};
use std::ffi::OsStr;
use std::sync::Arc;
use std::time::Duration;

#[path = "common/shapes.rs"]
mod shapes;
use shapes::{BRICK, N_PENTACUBE, Y_PENTACUBE, one_kind};

const WORKLOADS: [(&str, &str); 6] = [
    ("dominoes8x8", "dominoes-8x8"),
    ("pento3x20", "pentominoes-3x20"),
    ("solid345", "solid-pentominoes-3x4x5"),
    ("tetris", "tetris-cube"),
    ("bedlam", "bedlam"),
    ("poly45-4x20", "polyominoes-45-4x20"),
];

/// Workloads built here: boxes of one piece (as in `benches/engines.rs`).
fn built(key: &str) -> anyhow::Result<Option<cubesat::puzzle::Puzzle>> {
    Ok(Some(match key {
        "bricks" => one_kind(key, "1x2x4 bricks", [8, 4, 4], BRICK)?,
        "y25" => one_kind(key, "Y pentacubes", [5, 5, 5], Y_PENTACUBE)?,
        "n26" => one_kind(key, "N pentacubes", [13, 5, 2], N_PENTACUBE)?,
        "y30" => one_kind(key, "Y pentacubes", [15, 5, 2], Y_PENTACUBE)?,
        _ => return Ok(None),
    }))
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut cap = 60.0;
    if let Some(i) = args.iter().position(|a| a == "--cap") {
        cap = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(cap);
        args.drain(i..(i + 2).min(args.len()));
    }
    let mut rules = vec![
        Branching::FirstForced,
        Branching::First,
        Branching::Mrv,
        Branching::Profile,
    ];
    if let Some(i) = args.iter().position(|a| a == "--rule") {
        let want = args.get(i + 1).cloned().unwrap_or_default();
        rules.retain(|r| format!("{r:?}").eq_ignore_ascii_case(&want));
        args.drain(i..(i + 2).min(args.len()));
    }
    let mut cache_bytes = cubesat_xc::memo::DEFAULT_CACHE_BYTES;
    if let Some(i) = args.iter().position(|a| a == "--cache-mib") {
        let mib: u64 = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1024);
        cache_bytes = mib << 20;
        args.drain(i..(i + 2).min(args.len()));
    }
    let mut skip_exact = false;
    if let Some(i) = args.iter().position(|a| a == "--no-exact") {
        skip_exact = true;
        args.remove(i);
    }
    let mut rows = Vec::new();
    // Known workloads by key, and any other argument as a puzzle name or file.
    let mut names: Vec<String> = WORKLOADS
        .iter()
        .filter(|(key, _)| args.is_empty() || args.iter().any(|a| a == key || a == "all"))
        .map(|(_, name)| name.to_string())
        .collect();
    names.extend(
        args.iter()
            .filter(|a| *a != "all" && !WORKLOADS.iter().any(|(k, _)| k == a))
            .cloned(),
    );
    for name in &names {
        let puzzle = match built(name)? {
            Some(p) => p,
            None => cubesat::puzzle::load(Some(OsStr::new(name.as_str())))?,
        };
        let inst = Instance::new(puzzle)?;
        let reducer = inst.memo_reducer(UpTo::Rotation)?;
        let (mode, excluded) = if reducer.restriction_is_exact() && reducer.branch_count() == 1 {
            ("rotation", reducer.excluded().to_vec())
        } else {
            ("none", Vec::new())
        };
        let q = Query {
            excluded,
            ..Query::default()
        };
        let exact = ExactEngine::new_shared(Arc::clone(&inst.model))?;
        let t = ProcessTime::now();
        let plain = if skip_exact {
            cubesat_xc::Counted::default()
        } else {
            exact.count(&q, &|_| 1)?
        };
        let plain_s = t.elapsed().as_secs_f64();
        println!(
            "{name} ({mode}, band {:?}): exact {} solutions, {} nodes, {plain_s:.3} cpu s",
            cubesat_xc::memo::band(&inst.model),
            plain.total,
            plain.nodes.unwrap_or(0)
        );
        for rule in rules.iter().copied() {
            let config = MemoConfig {
                branching: rule,
                solution_weight: Some(1),
                max_cache_bytes: cache_bytes,
            };
            let memo = MemoEngine::with_config(&inst.model, config)?;
            let progress = Arc::new(Progress::new());
            let p = Arc::clone(&progress);
            // A CPU-time cap: the watcher interrupts the count once the process has spent
            // `cap` more CPU seconds than at the start.
            let start = ProcessTime::now();
            let watch = std::thread::spawn(move || {
                while Arc::strong_count(&p) > 1 {
                    if start.elapsed().as_secs_f64() > cap {
                        p.interrupt();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
            let mq = Query {
                progress: Some(Arc::clone(&progress)),
                ..q.clone()
            };
            let t = ProcessTime::now();
            let c = memo.count_query(&mq)?;
            let s = t.elapsed().as_secs_f64();
            drop(mq);
            drop(progress);
            let _ = watch.join();
            if !c.interrupted && !skip_exact {
                anyhow::ensure!(
                    c.solutions == plain.total,
                    "{name} {rule:?}: memo {} against exact {}",
                    c.solutions,
                    plain.total
                );
            }
            println!(
                "  memo {rule:?}: {}{} solutions, {} nodes, {} hits, {} entries, peak {:.1} MiB, {s:.3} cpu s, exact/memo {:.2}x",
                if c.interrupted { ">= " } else { "" },
                c.solutions,
                c.nodes,
                c.hits,
                c.entries,
                c.peak_bytes as f64 / (1 << 20) as f64,
                plain_s / s
            );
            rows.push(format!(
                "| {name} | {mode} | {} | {plain_s:.3} | {rule:?} | {}{s:.3} | {} | {:.1} | {}{:.2}x |",
                plain.total,
                if c.interrupted { "> " } else { "" },
                c.nodes,
                c.peak_bytes as f64 / (1 << 20) as f64,
                if c.interrupted { "< " } else { "" },
                plain_s / s
            ));
        }
    }
    println!(
        "\n| puzzle | counted | count | exact (cpu s) | memo rule | memo (cpu s) | memo nodes | memo peak cache (MiB) | exact / memo |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in rows {
        println!("{r}");
    }
    Ok(())
}
