//! Memoized counting bench: the plain exact engine against the memoized engine
//! (`cubesat_xc::memo`, each branching rule) on the same model and query, one thread, in one
//! process: the count (checked equal), nodes, CPU seconds, the ratio, and the memo cache's
//! peak bytes.
//!
//! Workloads (arguments, default all): `dominoes8x8`, `pento3x20` (a narrow polyomino
//! board), `solid345` (a pentacube box), `tetris`. Each is counted up to rotation when the
//! rotation reduction's restriction alone is exact in one search (the query then excludes
//! its non-representatives, for both engines), else counting every placement. A memoized
//! run that passes `--cap SECS` (default 60) CPU seconds is interrupted and shown as a
//! lower bound.
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

const WORKLOADS: [(&str, &str); 4] = [
    ("dominoes8x8", "dominoes-8x8"),
    ("pento3x20", "pentominoes-3x20"),
    ("solid345", "solid-pentominoes-3x4x5"),
    ("tetris", "tetris-cube"),
];

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
    let mut rows = Vec::new();
    for (key, name) in WORKLOADS {
        if !args.is_empty() && !args.iter().any(|a| a == key || a == "all") {
            continue;
        }
        let inst = Instance::new(cubesat::puzzle::load(Some(OsStr::new(name)))?)?;
        let reducer = inst.reducer(UpTo::Rotation, true)?;
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
        let plain = exact.count(&q, &|_| 1)?;
        let plain_s = t.elapsed().as_secs_f64();
        println!(
            "{name} ({mode}): exact {} solutions, {} nodes, {plain_s:.3} cpu s",
            plain.total,
            plain.nodes.unwrap_or(0)
        );
        for rule in [Branching::FirstForced, Branching::First, Branching::Mrv] {
            let config = MemoConfig {
                branching: rule,
                solution_weight: Some(1),
                ..MemoConfig::default()
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
            if !c.interrupted {
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
