//! Engine benchmark: the dancing-links baseline against the bitset engine on the same model
//! and query, in one process (nodes, wall and CPU seconds, the ratio), the engine with its
//! leaf search off, the first-solution time and the 1-versus-2-thread speed-up.
//!
//! Workloads (first non-flag arguments, or `CUBESAT_BENCH`; default `tetris`): `tetris`,
//! `bedlam`, `pento8x8` (the 8x8 board with a square), `solid345` (solid pentominoes
//! 3x4x5), `pento6x10`, `soma`, `pento3x20`, counted up to rotation exactly as `cubesat solve
//! --count` counts them (the rotation reduction's excluded options and class weights) and
//! checked against their published counts; and models of more than 128 items with pieces of
//! many copies, checked against the baseline: `conway` (Conway's puzzle: thirteen 1x2x4,
//! one 2x2x2, one 1x2x2 and three 1x1x3 blocks in a 5x5x5 box), `bricks` (sixteen 1x2x4
//! bricks in a 4x4x8 box), `y25` (25 Y pentacubes in a 5x5x5 box, 2,528 up to rotation; 126
//! items), `n26` (26 N pentacubes in a 2x5x13 box) and `y30` (30 Y pentacubes in a 2x5x15
//! box). The last four have no piece of count 1: symmetry is broken at a cell, and both
//! engines count the reduction's branches together (`Engine::count_all`). `all` runs every
//! workload and ends with Markdown tables.
//!
//! Flags: `--no-dlx` skips the baseline, `--no-leaf` the run without leaf search, `--no-2`
//! the two-thread run, `--first-only` stops after the first-solution timings; `--bodies`
//! also counts with every body of the leaf search this CPU runs, one thread each, against
//! the portable body in the same process (nodes and counts must agree; `all` tabulates each
//! body's CPU seconds and their ratio to the fastest body's); `--part N
//! [--part-index K]` runs only subtree K (default 0) of the N asked of each branch, its path
//! forced (the baseline's count is then the check); `--peer PATH` (repeatable) also runs an
//! external solver of Knuth's DLX format, such as his DLX1 or SSXC1, on the same model as
//! `cubesat export --format dlx --up-to rotation` writes it (workloads of one search), its
//! solution count checked against the engine's and its wall time, input included, set
//! against the engine's CPU time. CPU seconds are printed next to wall seconds because the
//! machine may be shared; a measurement that takes under a second is repeated (up to a
//! second in all, at most 15 runs) and its medians kept. `CUBESAT_SIMD` forces the leaf
//! search's body, as for the binary.
//!
//! `cargo bench --bench engines -- pento6x10 bedlam`

use cpu_time::ProcessTime;
use cubesat::counting::{Reducer, UpTo};
use cubesat::run::Instance;
use cubesat_xc::dlx::Dlx;
use cubesat_xc::exact::{ExactEngine, SimdBody, set_simd_body};
use cubesat_xc::{Counted, Engine, ExactCover, Query};
use std::time::Instant;

#[path = "common/shapes.rs"]
mod shapes;
use shapes::{BRICK, N_PENTACUBE, Y_PENTACUBE, one_kind};

/// A workload: the model built by the real puzzle pipeline, the rotation reduction and the
/// expected count (when known for the whole model).
struct Workload {
    inst: Instance,
    reducer: Reducer,
    expected: Option<u64>,
}

fn workload(name: &str) -> anyhow::Result<Option<Workload>> {
    let bundled = |n: &str| cubesat::puzzle::bundled(n);
    let (puzzle, expected) = match name {
        "tetris" => (bundled("tetris-cube")?, Some(9_839)),
        "bedlam" => (bundled("bedlam")?, Some(19_186)),
        "pento8x8" => (bundled("pentominoes-8x8-square")?, Some(16_146)),
        "solid345" => (bundled("solid-pentominoes-3x4x5")?, Some(7_880)),
        "pento6x10" => (bundled("pentominoes-6x10")?, Some(2_339)),
        "soma" => (bundled("soma")?, Some(480)),
        "pento3x20" => (bundled("pentominoes-3x20")?, Some(2)),
        "y25" => (
            one_kind(name, "Y pentacubes", [5, 5, 5], Y_PENTACUBE)?,
            Some(2_528),
        ),
        "n26" => (
            one_kind(name, "N pentacubes", [13, 5, 2], N_PENTACUBE)?,
            None,
        ),
        "y30" => (
            one_kind(name, "Y pentacubes", [15, 5, 2], Y_PENTACUBE)?,
            None,
        ),
        "conway" => (
            cubesat::puzzle::json::parse_puzzle(
                r#"{"name": "Conway's puzzle", "target": {"box": [5, 5, 5]}, "pieces": [
                    {"name": "A", "count": 13, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]]},
                    {"name": "B", "cells": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]},
                    {"name": "C", "cells": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]},
                    {"name": "D", "count": 3, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}]}"#,
                "conway",
            )?,
            None,
        ),
        "bricks" => (one_kind(name, "1x2x4 bricks", [8, 4, 4], BRICK)?, None),
        _ => return Ok(None),
    };
    let inst = Instance::new(puzzle)?;
    let reducer = Reducer::new(&inst.puzzle, &inst.table, UpTo::Rotation, true)?;
    Ok(Some(Workload {
        inst,
        reducer,
        expected,
    }))
}

const ALL: &[&str] = &[
    "tetris",
    "bedlam",
    "solid345",
    "pento8x8",
    "pento6x10",
    "conway",
    "bricks",
    "y25",
    "n26",
    "y30",
];

/// Wall and process CPU seconds (all threads) of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), ProcessTime::now());
    let r = f();
    (r, t.elapsed().as_secs_f64(), c.elapsed().as_secs_f64())
}

/// A run shorter than this is repeated and its median taken: one sub-second run on a shared
/// machine is mostly noise, and the thread start-up and the split are a larger share of it.
const SHORT_RUN_S: f64 = 1.0;
/// Most runs of one short measurement.
const MAX_REPEATS: usize = 15;

/// [`timed`], repeated while the runs so far took less than [`SHORT_RUN_S`] in all (at most
/// [`MAX_REPEATS`] runs): the first run's result, the median wall and median CPU seconds, and
/// the number of runs. Every run must give the same result.
fn timed_median<T: PartialEq + std::fmt::Debug>(
    mut f: impl FnMut() -> anyhow::Result<T>,
) -> anyhow::Result<(T, f64, f64, usize)> {
    let (first, s, c) = timed(&mut f);
    let first = first?;
    let (mut walls, mut cpus) = (vec![s], vec![c]);
    while walls.iter().sum::<f64>() < SHORT_RUN_S && walls.len() < MAX_REPEATS {
        let (r, s, c) = timed(&mut f);
        let r = r?;
        anyhow::ensure!(r == first, "a repeated run gave {r:?} instead of {first:?}");
        walls.push(s);
        cpus.push(c);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let n = walls.len();
    Ok((first, median(&mut walls), median(&mut cpus), n))
}

/// How a measurement was taken, for the printed line.
fn runs(n: usize) -> String {
    if n > 1 {
        format!(", median of {n} runs")
    } else {
        String::new()
    }
}

/// One row of the summary table.
struct Row {
    name: String,
    what: String,
    count: u64,
    dlx: Option<(f64, u64)>,
    exact: (f64, u64),
    no_leaf: Option<f64>,
    /// With `--bodies`: each leaf search body this CPU runs and its CPU seconds.
    bodies: Vec<(SimdBody, f64)>,
    /// Each external solver's name, solutions, nodes and wall seconds.
    peers: Vec<(String, u64, u64, f64)>,
}

struct Flags {
    no_dlx: bool,
    no_leaf: bool,
    no_2: bool,
    first_only: bool,
    bodies: bool,
    part: Option<(usize, usize)>,
    peers: Vec<String>,
}

/// Runs an external solver of Knuth's DLX format (`peer < FILE`, as DLX1 and SSXC1 take it)
/// on `dlx`: its solution and node counts from its last line on stderr ("Altogether N
/// solutions, ..., M nodes"), and its wall seconds, input included.
fn run_peer(peer: &str, name: &str, dlx: &str) -> anyhow::Result<(u64, u64, f64)> {
    use std::process::{Command, Stdio};
    let file =
        std::env::temp_dir().join(format!("cubesat-bench-{}-{name}.dlx", std::process::id()));
    std::fs::write(&file, dlx)?;
    let t = Instant::now();
    let out = Command::new(peer)
        .stdin(std::fs::File::open(&file)?)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let wall = t.elapsed().as_secs_f64();
    std::fs::remove_file(&file)?;
    let out = out.map_err(|e| anyhow::anyhow!("{peer}: {e}"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .rfind(|l| l.starts_with("Altogether "))
        .ok_or_else(|| anyhow::anyhow!("{peer} printed no \"Altogether\" line: {err}"))?;
    let number_before = |word: &str| -> anyhow::Result<u64> {
        let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let i = words
            .iter()
            .position(|w| w.trim_end_matches('.').starts_with(word))
            .filter(|&i| i > 0)
            .ok_or_else(|| anyhow::anyhow!("{peer}: no {word} in {line:?}"))?;
        Ok(words[i - 1].parse()?)
    };
    Ok((number_before("solution")?, number_before("nodes")?, wall))
}

fn run(name: &str, flags: &Flags) -> anyhow::Result<Row> {
    let t_process = Instant::now();
    let Some(w) = workload(name)? else {
        anyhow::bail!(
            "unknown workload {name:?} (all, {}, soma, pento3x20)",
            ALL.join(", ")
        );
    };
    let build_s = t_process.elapsed().as_secs_f64();
    let model: &ExactCover = &w.inst.model;
    let mut expected = w.expected;
    let mut what = "whole".to_string();
    // The reduction's searches: one, or one per placement at the cell where symmetry is
    // broken; both engines run all of them.
    let mut queries: Vec<Query> = w
        .reducer
        .branches()
        .map(|b| Query {
            forced: b.forced,
            excluded: b.excluded,
            ..Query::default()
        })
        .collect();
    if let Some((n, k)) = flags.part {
        // A smaller, same-shaped workload: one subtree of the split (of all branches, in
        // order), its path forced and its DFS-order exclusions kept; the baseline's count
        // is the check.
        let engine = ExactEngine::new(model)?;
        let mut subs = Vec::new();
        for q in &queries {
            for sub in engine
                .query()
                .force(&q.forced)
                .exclude(&q.excluded)
                .subproblems(n)?
            {
                let mut forced = q.forced.clone();
                forced.extend(&sub.chosen);
                let mut excluded = q.excluded.clone();
                excluded.extend(&sub.excluded);
                subs.push(Query {
                    forced,
                    excluded,
                    ..Query::default()
                });
            }
        }
        let count = subs.len();
        queries = vec![
            subs.into_iter()
                .nth(k)
                .ok_or_else(|| anyhow::anyhow!("no subtree {k} of {count}"))?,
        ];
        expected = None;
        what = format!("subtree {k} of {count} ({n} asked per branch)");
    }
    let weight = |s: &[u32]| w.reducer.weight(s);
    println!(
        "workload {name} ({}; {what}): {} items, {} options, {} {} ({} options excluded in the first)",
        w.inst.puzzle.name,
        model.items.len(),
        model.options.len(),
        queries.len(),
        if queries.len() == 1 {
            "search"
        } else {
            "branches"
        },
        queries[0].excluded.len()
    );

    let t = Instant::now();
    let engine = ExactEngine::new(model)?;
    let mut first = None;
    for q in &queries {
        first = engine
            .query()
            .force(&q.forced)
            .exclude(&q.excluded)
            .first()?;
        if first.is_some() {
            break;
        }
    }
    let first_s = t.elapsed().as_secs_f64();
    println!(
        "first solution: {:.2} ms in the engine (prepare, preprocess, search), {:.2} ms since process start; found {}",
        first_s * 1e3,
        (build_s + first_s) * 1e3,
        first.is_some()
    );
    if flags.first_only {
        return Ok(Row {
            name: name.into(),
            what,
            count: 0,
            dlx: None,
            exact: (0.0, 0),
            no_leaf: None,
            bodies: Vec::new(),
            peers: Vec::new(),
        });
    }
    // Every query counted on `threads` threads, added up (the engine pools them).
    let count_all = |e: &dyn Engine, threads: usize| -> anyhow::Result<Counted> {
        let qs: Vec<Query> = queries
            .iter()
            .map(|q| Query {
                threads,
                ..q.clone()
            })
            .collect();
        Ok(e.count_all(&qs, &weight)?)
    };

    let mut dlx = None;
    if !flags.no_dlx {
        let (d, s, c, n) = timed_median(|| count_all(&Dlx::new(model)?, 1))?;
        let nodes = d.nodes.unwrap_or(0);
        println!(
            "dlx baseline: {} ({} solutions before the symmetry filter), {nodes} nodes, {s:.3} s (cpu {c:.3} s{})",
            d.total,
            d.solutions,
            runs(n)
        );
        if let Some(e) = expected {
            anyhow::ensure!(d.total == e, "dlx counted {} instead of {e}", d.total);
        }
        expected = Some(d.total);
        dlx = Some((c, nodes));
    }

    let mut no_leaf = None;
    if !flags.no_leaf {
        let e = engine.clone().with_leaf_search(false);
        let (r, s, c, n) = timed_median(|| count_all(&e, 1))?;
        println!(
            "engine 1 thread, leaf search off: {}, {} nodes, {s:.3} s (cpu {c:.3} s{})",
            r.total,
            r.nodes.unwrap_or(0),
            runs(n)
        );
        if let Some(e) = expected {
            anyhow::ensure!(
                r.total == e,
                "the engine counted {} instead of {e}",
                r.total
            );
        }
        no_leaf = Some(c);
    }

    let (r1, s1, c1, k1) = timed_median(|| count_all(&engine, 1))?;
    let n1 = r1.nodes.unwrap_or(0);
    println!(
        "engine 1 thread: {}, {n1} nodes, {s1:.3} s (cpu {c1:.3} s{})",
        r1.total,
        runs(k1)
    );
    if let Some(e) = expected {
        anyhow::ensure!(
            r1.total == e,
            "the engine counted {} instead of {e}",
            r1.total
        );
    }
    if let Some((dc, _)) = dlx {
        println!(
            "speed-up over dlx (1 thread, cpu): {:.1}x",
            dc / c1.max(1e-6)
        );
    }
    if let Some(nc) = no_leaf {
        println!(
            "speed-up of the leaf search (cpu): {:.2}x",
            nc / c1.max(1e-6)
        );
    }
    if !flags.no_2 {
        let (r2, s2, c2, k2) = timed_median(|| count_all(&engine, 2))?;
        println!(
            "engine 2 threads: {}, {} nodes, {s2:.3} s (cpu {c2:.3} s{}); 1 vs 2 threads: {:.2}x wall",
            r2.total,
            r2.nodes.unwrap_or(0),
            runs(k2),
            s1 / s2.max(1e-6)
        );
        anyhow::ensure!(
            (r2.total, r2.nodes) == (r1.total, r1.nodes),
            "two threads counted differently"
        );
    }
    let mut bodies = Vec::new();
    if flags.bodies {
        let chosen = cubesat_xc::exact::simd_body();
        for b in SimdBody::ALL {
            if !b.missing().is_empty() {
                println!("body {b}: this CPU lacks {}", b.missing().join(", "));
                continue;
            }
            set_simd_body(Some(b))?;
            let (r, s, c, k) = timed_median(|| count_all(&engine, 1))?;
            anyhow::ensure!(
                (r.total, r.nodes) == (r1.total, r1.nodes),
                "the {b} body counted {} in {:?} nodes, not {} in {:?}",
                r.total,
                r.nodes,
                r1.total,
                r1.nodes
            );
            let portable = bodies.first().map_or(c, |&(_, p)| p);
            println!(
                "engine 1 thread, {b} body: {s:.3} s (cpu {c:.3} s{}); {:.2}x the portable body",
                runs(k),
                portable / c.max(1e-6)
            );
            bodies.push((b, c));
        }
        set_simd_body(Some(chosen))?;
    }
    let mut peers: Vec<(String, u64, u64, f64)> = Vec::new();
    let single = queries.len() == 1 && flags.part.is_none();
    let copies = w.inst.puzzle.pieces.iter().any(|p| p.count > 1);
    if !flags.peers.is_empty() && (!single || copies) {
        println!("peers skipped: they take whole searches of pieces of one copy each");
    } else if !flags.peers.is_empty() {
        // The file holds the one search of a puzzle with a piece of count 1, its
        // non-representative placements left out, as `cubesat export --up-to rotation`
        // writes it: the baseline's model, whose solutions before the symmetry filter the
        // peer counts.
        let text = cubesat::interop::dlx::export(&w.inst.puzzle, UpTo::Rotation)?;
        for peer in &flags.peers {
            let (solutions, nodes, wall) = run_peer(peer, name, &text)?;
            anyhow::ensure!(
                solutions == r1.solutions,
                "{peer} found {solutions} solutions, the engine {}",
                r1.solutions
            );
            println!(
                "peer {peer}: {solutions} solutions, {nodes} nodes, {wall:.3} s wall; the engine (1 thread, cpu) is {:.1}x faster",
                wall / c1.max(1e-6)
            );
            let short = std::path::Path::new(peer)
                .file_name()
                .map_or(peer.clone(), |f| f.to_string_lossy().into_owned());
            peers.push((short, solutions, nodes, wall));
        }
    }
    Ok(Row {
        name: name.into(),
        what,
        count: r1.total,
        dlx,
        exact: (c1, n1),
        no_leaf,
        bodies,
        peers,
    })
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| -> Option<usize> {
        let i = args.iter().position(|a| a == f)?;
        args.get(i + 1)?.parse().ok()
    };
    let mut names: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            // Not a flag, nor the value of one; `cargo bench` passes `--bench` too.
            !a.starts_with('-')
                && (i == 0 || !matches!(args[i - 1].as_str(), "--part" | "--part-index" | "--peer"))
        })
        .map(|(_, a)| a.clone())
        .collect();
    if names.is_empty() {
        names.push(std::env::var("CUBESAT_BENCH").unwrap_or_else(|_| "tetris".into()));
    }
    if names.iter().any(|n| n == "all") {
        names = ALL.iter().map(|s| s.to_string()).collect();
    }
    let flags = Flags {
        no_dlx: flag("--no-dlx"),
        no_leaf: flag("--no-leaf"),
        no_2: flag("--no-2"),
        first_only: flag("--first-only"),
        bodies: flag("--bodies"),
        part: value("--part").map(|n| (n, value("--part-index").unwrap_or(0))),
        peers: args
            .iter()
            .enumerate()
            .filter(|&(i, _)| i > 0 && args[i - 1] == "--peer")
            .map(|(_, a)| a.clone())
            .collect(),
    };
    if let Some(b) = std::env::var("CUBESAT_SIMD").ok().filter(|b| !b.is_empty()) {
        set_simd_body(Some(b.parse()?))?;
    }
    let mut rows = Vec::new();
    for n in &names {
        rows.push(run(n, &flags)?);
        println!();
    }
    if rows.len() > 1 && !flags.first_only {
        println!(
            "| workload | run | count | dancing links (cpu s, nodes) | engine (cpu s, nodes) | engine / dlx | leaf search off (cpu s) |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for r in &rows {
            let dlx = r
                .dlx
                .map_or("-".to_string(), |(c, n)| format!("{c:.3}, {n}"));
            let ratio = r.dlx.map_or("-".to_string(), |(c, _)| {
                format!("{:.1}x", c / r.exact.0.max(1e-6))
            });
            let off = r.no_leaf.map_or("-".to_string(), |c| format!("{c:.3}"));
            println!(
                "| {} | {} | {} | {dlx} | {:.3}, {} | {ratio} | {off} |",
                r.name, r.what, r.count, r.exact.0, r.exact.1
            );
        }
    }
    if rows.iter().any(|r| !r.bodies.is_empty()) {
        println!();
        let names: Vec<&str> = rows[0].bodies.iter().map(|(b, _)| b.name()).collect();
        println!(
            "| workload | {} | fastest / portable |",
            names
                .iter()
                .map(|n| format!("{n} (cpu s, / fastest)"))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        println!("|{}", " --- |".repeat(names.len() + 2));
        for r in rows.iter().filter(|r| !r.bodies.is_empty()) {
            let (p, best) = (r.bodies[0].1, r.bodies.last().map_or(0.0, |b| b.1));
            let cells: Vec<String> = r
                .bodies
                .iter()
                .map(|(_, c)| format!("{c:.3}, {:.2}x", c / best.max(1e-6)))
                .collect();
            println!(
                "| {} | {} | {:.2}x |",
                r.name,
                cells.join(" | "),
                p / best.max(1e-6)
            );
        }
    }
    if rows.iter().any(|r| !r.peers.is_empty()) {
        println!();
        println!(
            "| workload | peer | solutions before the filter, nodes | peer (wall s) | dancing links (cpu s) | engine (cpu s) | engine / peer |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for r in &rows {
            let dlx = r.dlx.map_or("-".to_string(), |(c, _)| format!("{c:.3}"));
            for (peer, solutions, nodes, wall) in &r.peers {
                println!(
                    "| {} | {peer} | {solutions}, {nodes} | {wall:.3} | {dlx} | {:.3} | {:.1}x |",
                    r.name,
                    r.exact.0,
                    wall / r.exact.0.max(1e-6)
                );
            }
        }
    }
    Ok(())
}
