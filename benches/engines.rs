//! Engine benchmark: the dancing-links baseline against the bitset engine (nodes, seconds,
//! ratio), the engine's first-solution time and its 1-versus-2-thread speed-up.
//!
//! Workload: first non-flag argument or `CUBESAT_BENCH`: `tetris` (default; Tetris Cube with
//! one asymmetric piece restricted to one placement per rotation orbit: 9,839 solutions),
//! `soma`, `pento6x10`, `pento3x20`. Flags: `--no-dlx` (or `CUBESAT_BENCH_NO_DLX=1`) skips the
//! baseline, `--no-off` the unpruned engine run, `--no-2` the two-thread run; `--first-only`
//! stops after the first-solution timings; `--part N [--part-index K]` runs only subtree K
//! (default 0) of N, its path forced, for quick comparisons (`--expect M` gives its count
//! instead of recounting it first, so that only the measured runs show in a profile);
//! `--subs` times each of 64
//! subtrees. CPU seconds are printed next to wall seconds because the machine may be shared.
//!
//! Models come from the real pipeline: the bundled puzzle, `solver::Instance` and, for
//! `tetris`, the exact rotation restriction of `counting::Reducer`.
//!
//! `cargo bench --bench engines -- soma`

use cubesat::counting::{Reducer, UpTo};
use cubesat::run::Instance;
use cubesat_xc::ExactCover;
use cubesat_xc::dlx::Dlx;
use cubesat_xc::exact::ExactEngine;
use std::time::Instant;

/// A workload: the model built by the real puzzle pipeline, the options every query excludes
/// and the expected count.
struct Workload {
    model: ExactCover,
    excluded: Vec<u32>,
    expected: u64,
}

fn workload(name: &str) -> anyhow::Result<Option<Workload>> {
    let (bundled, reduced, expected) = match name {
        "tetris" => ("tetris-cube", true, 9_839),
        "soma" => ("soma", false, 11_520),
        "pento6x10" => ("pentominoes-6x10", false, 9_356),
        "pento3x20" => ("pentominoes-3x20", false, 8),
        _ => return Ok(None),
    };
    let inst = Instance::new(cubesat::puzzle::bundled(bundled)?)?;
    let excluded = if reduced {
        // One asymmetric piece restricted to one placement per rotation orbit; the restriction
        // is exact, so the plain count of the restricted search is the reduced count.
        let r = Reducer::new(&inst.puzzle, &inst.table, UpTo::Rotation, true)?;
        anyhow::ensure!(r.restriction_is_exact(), "{name}: restriction is not exact");
        r.excluded().to_vec()
    } else {
        Vec::new()
    };
    Ok(Some(Workload {
        model: inst.model,
        excluded,
        expected,
    }))
}

/// Process CPU seconds (all threads) from `/proc/self/stat`, when available: on a shared
/// machine it is a steadier measure of work than wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Wall and CPU seconds of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), cpu_seconds().unwrap_or(0.0));
    let r = f();
    (
        r,
        t.elapsed().as_secs_f64(),
        cpu_seconds().unwrap_or(0.0) - c,
    )
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let name = args
        .iter()
        .enumerate()
        .find(|&(i, a)| {
            // Not a flag, nor the value of one.
            !a.starts_with('-')
                && (i == 0
                    || !matches!(args[i - 1].as_str(), "--part" | "--part-index" | "--expect"))
        })
        .map(|(_, a)| a.clone())
        .or_else(|| std::env::var("CUBESAT_BENCH").ok())
        .unwrap_or_else(|| "tetris".into());
    let part_index: usize = args
        .iter()
        .position(|a| a == "--part-index")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(0);
    let part: Option<usize> = args
        .iter()
        .position(|a| a == "--part")
        .and_then(|i| args.get(i + 1)?.parse().ok());
    let no_dlx = flag("--no-dlx") || std::env::var("CUBESAT_BENCH_NO_DLX").is_ok_and(|v| v == "1");
    let t_process = Instant::now();
    let Some(Workload {
        mut model,
        excluded,
        mut expected,
    }) = workload(&name)?
    else {
        anyhow::bail!("unknown workload {name:?} (tetris, soma, pento6x10, pento3x20)");
    };
    let build_s = t_process.elapsed().as_secs_f64();
    if let Some(n) = part {
        // A smaller, same-shaped workload: one of n subtrees, its path forced into the
        // model (the DFS-order exclusions are dropped, so the count is recomputed).
        let sub = ExactEngine::new(&model)?
            .query()
            .exclude(&excluded)
            .subproblems(n)?
            .into_iter()
            .nth(part_index);
        let sub = sub.ok_or_else(|| anyhow::anyhow!("no subproblem"))?;
        model.forced = sub.chosen;
        model.forced.sort_unstable();
        expected = match args
            .iter()
            .position(|a| a == "--expect")
            .and_then(|i| args.get(i + 1)?.parse().ok())
        {
            Some(n) => n,
            None => {
                ExactEngine::new(&model)?
                    .query()
                    .exclude(&excluded)
                    .count()?
                    .solutions
            }
        };
        println!(
            "part: subtree {part_index} of {n}, forced {:?}",
            model.forced
        );
    }
    println!(
        "workload {name}: {} items, {} options ({} excluded), expected {expected} solutions",
        model.items.len(),
        model.options.len(),
        excluded.len()
    );

    let t = Instant::now();
    let engine = ExactEngine::new(&model)?;
    let first = engine.query().exclude(&excluded).first()?;
    let first_s = t.elapsed().as_secs_f64();
    println!(
        "engine first solution (prepare + preprocess + search): {:.2} ms, found {}",
        first_s * 1e3,
        first.is_some()
    );
    println!(
        "first solution since process start (puzzle, placements, model, engine, search): {:.2} ms",
        (build_s + first_s) * 1e3
    );
    let t = Instant::now();
    let again = engine.query().exclude(&excluded).first()?;
    println!(
        "engine first solution, prepared engine: {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    assert_eq!(first, again);
    println!(
        "preprocessing removed {} of {} options",
        engine.removed_options().len(),
        model.options.len()
    );

    if flag("--first-only") {
        return Ok(());
    }
    let mut dlx = None;
    if !no_dlx {
        let (d, s, c) = timed(|| Dlx::new(&model)?.exclude(&excluded)?.count());
        let d = d?;
        println!(
            "dlx baseline: {} solutions, {} nodes, {s:.3} s (cpu {c:.2} s)",
            d.solutions, d.nodes
        );
        assert_eq!(d.solutions, expected);
        dlx = Some((s, c));
    }

    if !flag("--no-off") {
        let (r, s, c) = timed(|| engine.query().exclude(&excluded).pruning(false).count());
        let r = r?;
        println!(
            "engine 1 thread, pruning off: {} solutions, {} nodes, {s:.3} s (cpu {c:.2} s)",
            r.solutions, r.nodes
        );
        assert_eq!(r.solutions, expected);
    }

    let (r1, s1, c1) = timed(|| engine.query().exclude(&excluded).threads(1).count());
    let r1 = r1?;
    println!(
        "engine 1 thread: {} solutions, {} nodes, {s1:.3} s (cpu {c1:.2} s)",
        r1.solutions, r1.nodes
    );
    assert_eq!(r1.solutions, expected);
    if let Some((d, dc)) = dlx {
        println!(
            "speed-up over dlx (1 thread): {:.1}x wall, {:.1}x cpu",
            d / s1,
            dc / c1.max(0.01)
        );
    }
    if flag("--no-2") {
        return Ok(());
    }

    if flag("--subs") {
        let subs = engine.query().exclude(&excluded).subproblems(64)?;
        for (i, sp) in subs.iter().enumerate() {
            let (r, s, _) = timed(|| {
                engine
                    .query()
                    .force(&sp.chosen)
                    .exclude(&excluded)
                    .exclude(&sp.excluded)
                    .count()
            });
            println!(
                "sub {i}: chosen {:?} weight {:.4} nodes {} {s:.3}s",
                sp.chosen, sp.weight, r?.nodes
            );
        }
    }
    let (r2, s2, c2) = timed(|| engine.query().exclude(&excluded).threads(2).count());
    let r2 = r2?;
    println!(
        "engine 2 threads: {} solutions, {} nodes, {s2:.3} s (cpu {c2:.2} s)",
        r2.solutions, r2.nodes
    );
    assert_eq!(r2.solutions, expected);
    assert_eq!(r2.nodes, r1.nodes);
    println!("1 vs 2 threads: {:.2}x", s1 / s2);
    Ok(())
}
