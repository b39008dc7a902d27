//! Sharded runs: the digest that ties the shards of one run together, the record one shard of
//! a count or listing leaves behind ([`record`]), and the merge that checks a set of records
//! and adds them up exactly ([`merge`](mod@merge)).
//!
//! A run split into `N` shards ([`RunOptions::shard`]) is `N` independent processes, typically
//! the tasks of a batch job array. Each prints one [`ShardRecord`] (one JSON object; a listing
//! carries it in its summary object as `"shard"`). [`merge()`] accepts the records of one run
//! only: the same digest (the puzzle and everything that changes the count or the split), the
//! same version, the same `N`, every shard once and complete.
//!
//! Record schema (`"type":"shard"`): `shard` ("K/N"), `job` ("count" or "list"), `count`,
//! `raw`, `nodes` (null for engines that do not count them), `up_to`, `engine`, `puzzle`,
//! `puzzle_digest`, `digest`, `version`, `cpu_seconds`, `seconds`, `complete`, `command`, with
//! a key `seal` ([`ShardRecord::seal`]), and `check`: a digest of all the other fields, so that
//! a record edited by hand is refused. The digests are 128-bit FNV-1a, with no key: they catch
//! accidents (a truncated or edited file, records of different runs mixed up), not a forger,
//! who can change a count and compute `check` again. Only the seal, an HMAC-SHA256 under a key
//! the user gives every shard and the merge ([`check_seals`]), stops a forger without the key.
//!
//! `command` is the command line that ran the shard as its front end wrote it (the binary
//! writes words quoted for a POSIX shell): the library stores it and hands it back with the
//! shards a merge misses, but never parses or runs it; rerunning is the front end's concern.

pub mod folder;
pub mod merge;
pub mod record;

use serde_json::{Value, json};

use crate::counting::UpTo;
use crate::puzzle::Puzzle;
use crate::puzzle::json::to_value;
use crate::run::{EngineChoice, RunOptions};

pub use folder::{Folder, FolderError, Held};
pub use merge::{MergeError, Merged, check_seals, merge, merge_modes, missing_summary, shard_list};
pub use record::{MIN_KEY_BYTES, RecordError, ShardRecord, parse_file};

/// The cubesat version that writes and accepts records; shards of other versions may split
/// the tree differently and are refused.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a sharded run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Counted solutions (`solve --count`).
    Count,
    /// Listed solutions (a listing skips the exact engine's preprocessing, so its split
    /// differs from a count's).
    List,
}

impl Job {
    /// The job as records and digests name it: "count" or "list".
    fn name(self) -> &'static str {
        match self {
            Job::Count => "count",
            Job::List => "list",
        }
    }
}

/// 128-bit FNV-1a of `bytes`, as 32 hex digits.
pub fn fnv128(bytes: &[u8]) -> String {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for &b in bytes {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013B);
    }
    format!("{h:032x}")
}

/// The digest of a puzzle: its canonical JSON form (sorted keys), so that the same puzzle
/// read from a file or bundled gives the same digest.
pub fn puzzle_digest(puzzle: &Puzzle) -> String {
    fnv128(to_value(puzzle).to_string().as_bytes())
}

/// The digest of a sharded run: the puzzle and everything that changes the count or how the
/// tree is split (counting mode, engine, count or listing, pruning, the SAT engine's cubes,
/// the memo and exact engines' schemes ([`cubesat_xc::memo::SCHEME`],
/// [`cubesat_xc::exact::SCHEME`]), the modes counted from the same search),
/// not the thread count or the SAT encoding.
pub fn run_digest(puzzle: &Puzzle, opts: &RunOptions, job: Job) -> String {
    let engine = opts.engine.resolve();
    let cubes = match engine {
        EngineChoice::Sat => json!(opts.sat_cubes),
        EngineChoice::Memo => json!({ "memo": cubesat_xc::memo::SCHEME }),
        EngineChoice::Exact => json!({ "exact": cubesat_xc::exact::SCHEME }),
        _ => Value::Null,
    };
    let mut parts = json!({
        "puzzle": to_value(puzzle),
        "up_to": opts.up_to.to_string(),
        "engine": engine.to_string(),
        "job": job.name(),
        "prune": opts.prune,
        "cubes": cubes,
        "subtrees_per_shard": cubesat_xc::SUBTREES_PER_SHARD,
        "reduction": crate::counting::SCHEME,
    });
    if !opts.also_up_to.is_empty() {
        // A mode counted beside others weighs the rotation mode's search, which its own
        // run would not: its shards add up only with those of a run of the same modes.
        let mut modes: Vec<String> = std::iter::once(opts.up_to)
            .chain(opts.also_up_to.iter().copied())
            .map(|m| m.to_string())
            .collect();
        modes.sort();
        parts["searched_with"] = json!(modes);
    }
    fnv128(parts.to_string().as_bytes())
}

/// The run digest of each mode a run writes a record for, in [`ShardRecord::all`]'s order:
/// the first mode, then each mode counted beside it from the same search.
pub fn mode_digests(puzzle: &Puzzle, opts: &RunOptions, job: Job) -> Vec<(UpTo, String)> {
    let modes: Vec<UpTo> = std::iter::once(opts.up_to)
        .chain(opts.also_up_to.iter().copied())
        .collect();
    modes
        .iter()
        .map(|&mode| {
            let mode_opts = RunOptions {
                up_to: mode,
                also_up_to: modes.iter().copied().filter(|&m| m != mode).collect(),
                ..opts.clone()
            };
            (mode, run_digest(puzzle, &mode_opts, job))
        })
        .collect()
}

#[cfg(test)]
mod tests;
