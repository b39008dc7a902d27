//! Estimate benchmark: how well `cubesat estimate` predicts the nodes of a full count. For
//! every workload it counts the tree exactly (the truth, cached), then runs the estimate
//! with several seeds for a fixed time each and reports the ratio of each estimate to the
//! truth, how many fell within a factor of 2, and how often the truth lay inside the stated
//! 95% interval; and the node rate the estimate measured against the count's own.
//!
//! Workloads (non-flag arguments): bundled puzzle names, puzzle files, or folders of puzzle
//! files (every `.json` in them, catalog entries included), each `NAME[@MODE]` (mode as
//! `--up-to`, default rotation); `families` stands for the five bundled families. Flags:
//! `--seconds S` per estimate (default 10), `--seeds K` (default 5), `--truth FILE` (the
//! cache of exact node counts, default `target/estimate-truth.json`; a truth is counted on
//! every core and kept by puzzle text and mode), `--max-count-seconds S` skips workloads
//! whose truth is not cached and whose count the estimate itself predicts above S seconds.
//! Ends with a Markdown table.
//!
//! `cargo bench --bench estimate -- families --seconds 10 --seeds 5`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cpu_time::ProcessTime;
use cubesat::UpTo;
use cubesat::estimate::{Z95, estimate};
use cubesat::puzzle::Puzzle;
use cubesat::run::{Instance, RunOptions, count};
use cubesat_xc::exact::EstimateOptions;

const FAMILIES: &[&str] = &[
    "tetris-cube",
    "bedlam",
    "solid-pentominoes-3x4x5",
    "pentominoes-8x8-square",
    "pentominoes-6x10",
];

struct Flags {
    seconds: f64,
    seeds: u64,
    truth: PathBuf,
    max_count_seconds: Option<f64>,
}

/// A workload: a puzzle and the mode its count runs in.
struct Workload {
    label: String,
    puzzle: Puzzle,
    text_key: String,
    up_to: UpTo,
}

/// The exact figures of a count.
#[derive(Clone, Copy, Debug)]
struct Truth {
    nodes: u64,
    count: u64,
    cpu_seconds: f64,
}

fn workloads(arg: &str) -> anyhow::Result<Vec<Workload>> {
    let (name, mode) = match arg.split_once('@') {
        Some((n, m)) => (n, m.parse::<UpTo>()?),
        None => (arg, UpTo::Rotation),
    };
    if name == "families" {
        return FAMILIES
            .iter()
            .map(|f| workloads(&format!("{f}@{mode}")).map(|mut w| w.remove(0)))
            .collect();
    }
    let path = Path::new(name);
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = walk(path)?;
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        let (puzzle, key) = if f.exists() {
            let text = std::fs::read_to_string(&f)?;
            (
                cubesat::puzzle::json::parse_puzzle(&text, &f.display().to_string())?,
                text,
            )
        } else {
            (cubesat::puzzle::bundled(name)?, format!("bundled:{name}"))
        };
        out.push(Workload {
            label: format!(
                "{}{}",
                f.file_stem().map_or(name.into(), |s| s.to_string_lossy()),
                if mode == UpTo::Rotation {
                    String::new()
                } else {
                    format!(" @{mode}")
                }
            ),
            puzzle,
            text_key: key,
            up_to: mode,
        });
    }
    Ok(out)
}

/// Every `.json` file under `dir`.
fn walk(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            out.extend(walk(&p)?);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    Ok(out)
}

/// The cache key of a workload's truth: its puzzle text and mode, hashed (FNV-1a, stable
/// across runs and toolchains), and the reduction scheme, which decides the tree counted.
fn key(w: &Workload) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in w.text_key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}@{}@{}", w.up_to, cubesat::counting::SCHEME)
}

fn load_truths(path: &Path) -> BTreeMap<String, Truth> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeMap::new();
    };
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str(&text) else {
        return BTreeMap::new();
    };
    map.into_iter()
        .filter_map(|(k, v)| {
            Some((
                k,
                Truth {
                    nodes: v.get("nodes")?.as_u64()?,
                    count: v.get("count")?.as_u64()?,
                    cpu_seconds: v.get("cpu_seconds")?.as_f64()?,
                },
            ))
        })
        .collect()
}

fn save_truths(path: &Path, truths: &BTreeMap<String, Truth>) -> anyhow::Result<()> {
    let map: serde_json::Map<String, serde_json::Value> = truths
        .iter()
        .map(|(k, t)| {
            (
                k.clone(),
                serde_json::json!({"nodes": t.nodes, "count": t.count, "cpu_seconds": t.cpu_seconds}),
            )
        })
        .collect();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, serde_json::to_string_pretty(&map)?)?;
    Ok(())
}

fn truth(inst: &Instance, up_to: UpTo) -> anyhow::Result<Truth> {
    let opts = RunOptions {
        up_to,
        threads: 0,
        ..RunOptions::default()
    };
    let start = ProcessTime::now();
    let r = count(inst, &opts)?;
    Ok(Truth {
        nodes: r.nodes.unwrap_or(0),
        count: r.count,
        cpu_seconds: start.elapsed().as_secs_f64(),
    })
}

/// One workload's results.
struct Row {
    label: String,
    truth: Truth,
    ratios: Vec<f64>,
    inside: usize,
    half_widths: Vec<f64>,
    rates: Vec<f64>,
    exact: usize,
    /// The estimates that did not finish the tree: their ratio to the truth, and whether the
    /// interval held it.
    open: Vec<(f64, bool)>,
}

/// A share and its 95% Wilson score interval (Wilson, J. Amer. Statist. Assoc. 22, 1927):
/// how sure a coverage measured on a few dozen runs is.
fn wilson(k: usize, n: usize) -> String {
    if n == 0 {
        return "none".into();
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    format!(
        "{:.0}%, 95% interval {:.0}-{:.0}%",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half)
    )
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut flags = Flags {
        seconds: 10.0,
        seeds: 5,
        truth: PathBuf::from("target/estimate-truth.json"),
        max_count_seconds: None,
    };
    let mut names = Vec::new();
    while let Some(a) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .ok_or_else(|| anyhow::anyhow!("{what} needs a value"))
        };
        match a.as_str() {
            "--seconds" => flags.seconds = value("--seconds")?.parse()?,
            "--seeds" => flags.seeds = value("--seeds")?.parse()?,
            "--truth" => flags.truth = value("--truth")?.into(),
            "--max-count-seconds" => {
                flags.max_count_seconds = Some(value("--max-count-seconds")?.parse()?)
            }
            _ => names.push(a),
        }
    }
    if names.is_empty() {
        names.push("families".into());
    }
    let mut truths = load_truths(&flags.truth);
    let mut rows = Vec::new();
    for name in &names {
        for w in workloads(name)? {
            let inst = Instance::new(w.puzzle.clone())?;
            let opts = RunOptions {
                up_to: w.up_to,
                ..RunOptions::default()
            };
            let k = key(&w);
            let mut row = Row {
                label: w.label.clone(),
                truth: Truth {
                    nodes: 0,
                    count: 0,
                    cpu_seconds: 0.0,
                },
                ratios: Vec::new(),
                inside: 0,
                half_widths: Vec::new(),
                rates: Vec::new(),
                exact: 0,
                open: Vec::new(),
            };
            let mut estimates = Vec::new();
            for seed in 1..=flags.seeds {
                let e = estimate(
                    &inst,
                    &opts,
                    &EstimateOptions {
                        seed,
                        probes: None,
                        time: Some(Duration::from_secs_f64(flags.seconds)),
                        ..EstimateOptions::default()
                    },
                )?;
                estimates.push(e);
            }
            let t = match truths.get(&k) {
                Some(t) => *t,
                None => {
                    let predicted = estimates
                        .iter()
                        .filter_map(|e| e.cpu_seconds().map(|c| c.0))
                        .fold(0.0, f64::max);
                    if flags.max_count_seconds.is_some_and(|m| predicted > m) {
                        println!(
                            "{}: skipped, its count is estimated at {predicted:.0} CPU s",
                            w.label
                        );
                        continue;
                    }
                    println!("{}: counting the truth ...", w.label);
                    let t = truth(&inst, w.up_to)?;
                    truths.insert(k.clone(), t);
                    save_truths(&flags.truth, &truths)?;
                    t
                }
            };
            row.truth = t;
            for e in &estimates {
                let n = &e.tree.nodes;
                let (lo, hi) = n.interval(Z95);
                let truth = t.nodes as f64;
                row.ratios.push(n.mean / truth);
                let held = lo <= truth && truth <= hi;
                row.inside += usize::from(held);
                row.exact += usize::from(e.tree.exact);
                if !e.tree.exact {
                    row.open.push((n.mean / truth, held));
                }
                if n.mean > 0.0 && hi.is_finite() {
                    row.half_widths.push((hi - lo) / 2.0 / n.mean);
                }
                if let Some(r) = e.rate {
                    row.rates.push(r);
                }
            }
            println!(
                "{}: {} nodes, count {} in {:.1} CPU s; ratios {}; {} of {} inside the interval",
                row.label,
                t.nodes,
                t.count,
                t.cpu_seconds,
                row.ratios
                    .iter()
                    .map(|r| format!("{r:.2}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                row.inside,
                row.ratios.len()
            );
            rows.push(row);
        }
    }
    let median = |v: &[f64]| -> f64 {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            f64::NAN
        } else {
            v[v.len() / 2]
        }
    };
    println!(
        "\n| workload | nodes | count CPU s | estimate/true (median, range) | within 2x | inside 95% interval | exact | median ± | rate vs count |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let (mut within, mut inside, mut total) = (0, 0, 0);
    for r in &rows {
        let w2 = r
            .ratios
            .iter()
            .filter(|&&x| (0.5..=2.0).contains(&x))
            .count();
        within += w2;
        inside += r.inside;
        total += r.ratios.len();
        let lo = r.ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = r.ratios.iter().copied().fold(0.0, f64::max);
        let count_rate = r.truth.nodes as f64 / r.truth.cpu_seconds.max(1e-9);
        println!(
            "| {} | {} | {:.1} | {:.2} ({:.2}-{:.2}) | {}/{} | {}/{} | {} | {:.0}% | {:.2} |",
            r.label,
            r.truth.nodes,
            r.truth.cpu_seconds,
            median(&r.ratios),
            lo,
            hi,
            w2,
            r.ratios.len(),
            r.inside,
            r.ratios.len(),
            r.exact,
            100.0 * median(&r.half_widths),
            median(&r.rates) / count_rate
        );
    }
    println!(
        "\nAll: {within}/{total} within a factor of 2, {inside}/{total} inside the stated 95% interval ({}).",
        wilson(inside, total)
    );
    let open: Vec<(f64, bool)> = rows.iter().flat_map(|r| r.open.iter().copied()).collect();
    let open_within = open.iter().filter(|o| (0.5..=2.0).contains(&o.0)).count();
    let open_inside = open.iter().filter(|o| o.1).count();
    println!(
        "Estimates that did not finish their tree: {open_within}/{} within a factor of 2, {open_inside}/{} inside the interval ({}).",
        open.len(),
        open.len(),
        wilson(open_inside, open.len())
    );
    Ok(())
}
