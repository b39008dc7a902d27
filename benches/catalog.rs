//! Catalog benchmark: the catalog puzzles too slow for the tests (marked `"slow": true`),
//! counted as the catalog test counts the others. Every mode by the exact engine, against the
//! counts the file records; the published count's mode by dancing links, the baseline run in
//! the same process, and the ratio of their CPU times in that mode. A count that differs from
//! the record fails the run.
//!
//! Arguments: puzzle names (default: every slow puzzle but those counted in shards, whose
//! records in `counts/NAME/` the catalog test merges), or `all` for the whole catalog;
//! `--no-dlx` skips the baseline; `--threads N` for the exact engine (default 1, as the
//! baseline). Prints a Markdown table.
//!
//! `cargo bench --bench catalog -- dominoes-8x8 --no-dlx`

use cpu_time::ProcessTime;
use cubesat::UpTo;
use cubesat::puzzle::{CatalogCounts, ModeCount, bundled, named};
use cubesat::run::{EngineChoice, Instance, RunOptions, catalog_count};

/// Counts `inst` in `mode`; the count and the process CPU seconds it took.
fn timed(inst: &Instance, engine: EngineChoice, mode: UpTo, threads: usize) -> (ModeCount, f64) {
    let opts = RunOptions {
        engine,
        up_to: mode,
        threads,
        ..RunOptions::default()
    };
    let t = ProcessTime::now();
    let n = catalog_count(inst, &opts).unwrap_or_else(|e| panic!("{}", e.report()));
    (n, t.elapsed().as_secs_f64())
}

fn shown(n: ModeCount) -> String {
    match n {
        ModeCount::Count(n) => n.to_string(),
        ModeCount::Undefined => "undefined".to_string(),
        ModeCount::NotCounted => "-".to_string(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let no_dlx = args.iter().any(|a| a == "--no-dlx");
    let threads = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .map_or(1, |s| s.parse().expect("--threads N"));
    let asked: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--threads"))
        .map(|(_, a)| a)
        .collect();
    let names: Vec<&str> = named()
        .map(|(n, _)| n)
        .filter(|n| {
            let Some(c) = bundled(n).unwrap().catalog else {
                return false;
            };
            // An open count (an estimate, no count recorded) is not a benchmark.
            if c.counts.get(UpTo::Rotation) == ModeCount::NotCounted {
                return false;
            }
            if asked.is_empty() {
                // A count run in shards took hours; its shard records are its evidence.
                let sharded = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("counts")
                    .join(n)
                    .is_dir();
                c.slow && !sharded
            } else {
                asked.iter().any(|a| *a == "all" || a.as_str() == *n)
            }
        })
        .collect();
    println!(
        "| puzzle | counts (none / rotation / rotation+reflection) | engine, 3 modes (cpu s) | mode checked | engine (cpu s) | dancing links (cpu s) | dlx / engine |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let mut wrong = Vec::new();
    for name in names {
        let puzzle = bundled(name).unwrap();
        let c = puzzle.catalog.clone().unwrap();
        let inst = Instance::new(puzzle).unwrap();
        let check = c.published.first().map_or(UpTo::Rotation, |p| p.up_to);
        let (mut counts, mut total, mut in_mode) = (Vec::new(), 0.0, 0.0);
        for mode in CatalogCounts::MODES {
            let (n, secs) = timed(&inst, EngineChoice::Exact, mode, threads);
            if n != c.counts.get(mode) {
                wrong.push(format!(
                    "{name} ({mode}): the engine counts {}, the file records {}",
                    shown(n),
                    shown(c.counts.get(mode))
                ));
            }
            counts.push(shown(n));
            total += secs;
            if mode == check {
                in_mode = secs;
            }
        }
        let (dlx, ratio) = if no_dlx {
            ("-".to_string(), "-".to_string())
        } else {
            let (n, secs) = timed(&inst, EngineChoice::Dlx, check, 1);
            if n != c.counts.get(check) {
                wrong.push(format!(
                    "{name} ({check}): dancing links counts {}, the file records {}",
                    shown(n),
                    shown(c.counts.get(check))
                ));
            }
            (
                format!("{secs:.2}"),
                format!("{:.1}x", secs / in_mode.max(1e-9)),
            )
        };
        println!(
            "| {name} | {} | {total:.2} | {check} | {in_mode:.2} | {dlx} | {ratio} |",
            counts.join(" / ")
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
