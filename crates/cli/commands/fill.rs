//! `cubesat solve --count --shard all/N --into DIR`: a count run shard by shard into a folder
//! of records, resumable (the folder's rules are the library's, `cubesat::shard::Folder`).

use std::path::Path;

use anyhow::{Context, Result};

use cubesat::run::{self, Instance, RunOptions};
use cubesat::shard::{Folder, Held, Job, ShardRecord};
use cubesat_xc::Shard;

use crate::args::{SolutionFormat, SolveArgs};
use crate::progress::Reporter;

use super::merge::{cpu_seconds, print_merged, shard_command_line};
use super::{Outcome, found};

/// Runs the shards `dir` lacks (every one for `all/N`, else the one shard asked for), each
/// record written as it finishes; prints the merged count once all N are there. `reporter`
/// starts the progress display of a shard's run.
pub(super) fn run(
    args: &SolveArgs,
    dir: &Path,
    inst: &Instance,
    opts: &RunOptions,
    key: Option<&[u8]>,
    quiet: bool,
    reporter: &dyn Fn(&RunOptions) -> Option<Reporter>,
) -> Result<Outcome> {
    let asked = opts
        .shard
        .context("internal error: --into without a shard")?;
    let n = asked.count();
    let folder = Folder::open(dir, &inst.puzzle, opts, n)?;
    let wanted: Vec<u32> = if super::flags::every_shard(args) {
        (0..n).collect()
    } else {
        vec![asked.index()]
    };
    let mut todo = Vec::new();
    for &k in &wanted {
        match folder.held(k)? {
            Held::Done(_) => {}
            Held::Missing | Held::Interrupted => todo.push(k),
        }
    }
    if !quiet {
        say!(
            "{}: {} of the {} shard(s) asked for already done, {} to run",
            dir.display(),
            wanted.len() - todo.len(),
            wanted.len(),
            todo.len()
        );
    }
    for (i, &k) in todo.iter().enumerate() {
        let shard = Shard::new(k, n)?;
        let opts = RunOptions {
            shard: Some(shard),
            ..opts.clone()
        };
        if let Some(p) = &opts.progress {
            p.reset_counters();
        }
        let reporter = reporter(&opts);
        let cpu = cpu_seconds();
        let report = run::count(inst, &opts)
            .with_context(|| super::puzzle_source(args.puzzle.puzzle.as_deref()).to_string());
        if let Some(r) = reporter {
            r.finish();
        }
        let report = report?;
        if report.interrupted {
            if !quiet {
                say!(
                    "shard {shard} interrupted: not written; the same command goes on from it ({} of {} done)",
                    i,
                    todo.len()
                );
            }
            return Ok(Outcome::Interrupted);
        }
        let mut records = ShardRecord::all(
            &inst.puzzle,
            &opts,
            Job::Count,
            &report,
            cpu_seconds() - cpu,
            shard_command_line(shard),
        );
        if let Some(key) = key {
            for r in &mut records {
                r.seal(key);
            }
        }
        folder.write(k, &records)?;
        if !quiet {
            let counts: Vec<String> = (records.iter())
                .map(|r| format!("{} {}", r.count, r.up_to))
                .collect();
            say!(
                "shard {shard}: {}; {:.2} CPU s; {} of {} this run",
                counts.join(", "),
                records.first().map_or(0.0, |r| r.cpu_seconds),
                i + 1,
                todo.len()
            );
        }
    }
    match folder.merged()? {
        Some(merged) => {
            print_merged(&merged, args.format == SolutionFormat::Json)?;
            Ok(found(merged.first().is_some_and(|m| m.count > 0)))
        }
        None => {
            if !quiet {
                let left = (0..n)
                    .filter(|&k| !matches!(folder.held(k), Ok(Held::Done(_))))
                    .count();
                say!(
                    "{}: {left} of {n} shards still to run (--shard all/{n} runs them)",
                    dir.display()
                );
            }
            Ok(Outcome::Found)
        }
    }
}
