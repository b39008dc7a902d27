//! Merging shard records: the checks that a set of records is one complete run (one version,
//! one run digest, every shard once and complete, sealed with the key when one is given) and
//! the exact sums that make the single run's figures.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use cubesat_xc::Shard;

use super::Job;
use super::record::{RecordError, ShardRecord};
use crate::counting::UpTo;

/// The sum of a complete set of shards: what a single run would have printed.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The count, the same as a single run's.
    pub count: u64,
    /// Solutions before symmetry filtering.
    pub raw: u64,
    /// Search nodes of all shards (the split's own counted once), where counted.
    pub nodes: Option<u64>,
    /// The number of shards.
    pub shards: u32,
    /// The counting mode.
    pub up_to: UpTo,
    /// The engine.
    pub engine: String,
    /// Count or listing.
    pub job: Job,
    /// The puzzle's name.
    pub puzzle: String,
    /// The run's digest.
    pub digest: String,
    /// The version that ran it.
    pub version: String,
    /// CPU seconds of all shards.
    pub cpu_seconds: f64,
    /// The largest shard's nodes over the mean shard's (a measure of the balance).
    pub balance: Option<f64>,
}

impl Merged {
    /// The merge as a JSON object.
    pub fn to_json(&self) -> Value {
        json!({
            "type": "merged",
            "puzzle": self.puzzle,
            "count": self.count,
            "raw": self.raw,
            "up_to": self.up_to.to_string(),
            "meaning": self.up_to.phrase(),
            "job": self.job.name(),
            "engine": self.engine,
            "shards": self.shards,
            "nodes": self.nodes,
            "largest_shard_over_mean": self.balance,
            "cpu_seconds": self.cpu_seconds,
            "digest": self.digest,
            "version": self.version,
        })
    }
}

/// Why a set of shard records does not make one complete run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no shard records to merge")]
    Nothing,
    /// A file that is not a valid record.
    #[error("{file}: {error}")]
    Record {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        error: RecordError,
    },
    /// A record of another cubesat version.
    #[error(
        "{file} was written by cubesat {version}, {first} by cubesat {first_version}: shards of different versions may split the search differently; rerun one of them"
    )]
    OtherVersion {
        /// The odd file.
        file: PathBuf,
        /// Its version.
        version: String,
        /// The first file.
        first: PathBuf,
        /// Its version.
        first_version: String,
    },
    /// A record of another run.
    #[error("{file} belongs to another run than {first}: {what}")]
    OtherRun {
        /// The odd file.
        file: PathBuf,
        /// The first file.
        first: PathBuf,
        /// How they differ.
        what: String,
    },
    /// Two records of the same shard.
    #[error("shard {shard} appears twice: {first} and {second}")]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A record refused by the key given to check the seals ([`check_seals`]).
    #[error("{file}: the shard record {what}")]
    Seal {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        what: &'static str,
    },
    /// The records' counts add up to more than a 64-bit count holds.
    #[error(
        "the shards' \"{field}\" values add up to more than {}, the largest number cubesat counts to (64 bits): edited records, or a run too large to add up",
        u64::MAX
    )]
    Overflow {
        /// The field that overflowed.
        field: &'static str,
    },
    /// Some shards are missing or were interrupted.
    #[error("{}; rerun exactly those shards", missing_summary(.missing, .interrupted, *.shards))]
    Missing {
        /// Shards with no record or an interrupted one, ascending.
        missing: Vec<u32>,
        /// Those of them whose record says the shard was interrupted.
        interrupted: Vec<u32>,
        /// N.
        shards: u32,
        /// The command line of a present shard ([`ShardRecord::command`]), for a front end
        /// to rerun the others with.
        command: String,
    },
}

/// Shard numbers as a list, `sep` between items: "3, 17" (runs shortened to ranges: "0-7, 9";
/// with `sep` "," it is a Slurm `--array` list).
pub fn shard_list(list: &[u32], sep: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}-{}", list[i], list[j])
        } else if j == i + 1 {
            format!("{}{sep}{}", list[i], list[j])
        } else {
            list[i].to_string()
        });
        i = j + 1;
    }
    out.join(sep)
}

/// "2 of 4 shards missing: 0, 2 (1 interrupted: 2)": which shards a merge still needs.
pub fn missing_summary(missing: &[u32], interrupted: &[u32], shards: u32) -> String {
    let mut s = format!(
        "{} of {shards} shards missing: {}",
        missing.len(),
        shard_list(missing, ", ")
    );
    if !interrupted.is_empty() {
        s.push_str(&format!(
            " ({} interrupted: {})",
            interrupted.len(),
            shard_list(interrupted, ", ")
        ));
    }
    s
}

/// With a key, checks that every record carries the seal the key gives it: a record without
/// one, or whose fields were changed after it was sealed, is refused. Without a key, nothing
/// is checked here (the unkeyed `check` catches accidents, not forgery).
pub fn check_seals(records: &[(PathBuf, ShardRecord)], key: &[u8]) -> Result<(), MergeError> {
    for (file, r) in records {
        if r.seal.is_none() {
            return Err(MergeError::Seal {
                file: file.clone(),
                what: "has no seal (run without the key?)",
            });
        }
        if !r.seal_matches(key) {
            return Err(MergeError::Seal {
                file: file.clone(),
                what: "does not carry the seal of this key: sealed with another key, or changed after it was sealed",
            });
        }
    }
    Ok(())
}

/// [`merge()`], or one merge per counting mode for the records of a run that counted
/// several modes from one search: each of its shard files holds a record per mode, the same
/// modes in the same order, and each mode's records make one run of their own. Records of
/// several modes in any other arrangement (a stray record of another run) are one merge,
/// which refuses them.
pub fn merge_modes(records: &[(PathBuf, ShardRecord)]) -> Result<Vec<Merged>, MergeError> {
    let mut files: Vec<(&Path, Vec<UpTo>)> = Vec::new();
    for (file, r) in records {
        match files.last_mut() {
            Some((f, modes)) if f == file => modes.push(r.up_to),
            _ => files.push((file, vec![r.up_to])),
        }
    }
    let modes = files.first().map(|(_, m)| m.clone()).unwrap_or_default();
    let distinct = (1..modes.len()).all(|i| !modes[..i].contains(&modes[i]));
    let several = modes.len() > 1 && distinct && files.iter().all(|(_, m)| *m == modes);
    if !several {
        return Ok(vec![merge(records)?]);
    }
    modes
        .iter()
        .map(|&m| {
            let of_mode: Vec<(PathBuf, ShardRecord)> = (records.iter())
                .filter(|(_, r)| r.up_to == m)
                .cloned()
                .collect();
            merge(&of_mode)
        })
        .collect()
}

/// Checks that `records` (with the files they came from) are the shards of one run, each
/// once and complete, and adds them up.
pub fn merge(records: &[(PathBuf, ShardRecord)]) -> Result<Merged, MergeError> {
    let Some((first_file, first)) = records.first() else {
        return Err(MergeError::Nothing);
    };
    let n = first.shard.count();
    // Per shard, the record that counts: a complete one supersedes an interrupted one (a
    // rerun appended after it), two complete ones are an error.
    let mut kept: Vec<Option<(&Path, &ShardRecord)>> = vec![None; n as usize];
    for (file, r) in records {
        same_run(file, r, first_file, first)?;
        keep(&mut kept, file, r)?;
    }
    let used = complete_set(&kept, first)?;
    add_up(&used, first)
}

/// Checks that `r` (from `file`) is a shard of the same run as `first`: the same version,
/// then the same puzzle, counting mode, engine, job, number of shards and digest.
fn same_run(
    file: &Path,
    r: &ShardRecord,
    first_file: &Path,
    first: &ShardRecord,
) -> Result<(), MergeError> {
    if r.version != first.version {
        return Err(MergeError::OtherVersion {
            file: file.to_path_buf(),
            version: r.version.clone(),
            first: first_file.to_path_buf(),
            first_version: first.version.clone(),
        });
    }
    match difference(r, first) {
        Some(what) => Err(MergeError::OtherRun {
            file: file.to_path_buf(),
            first: first_file.to_path_buf(),
            what,
        }),
        None => Ok(()),
    }
}

/// How `r`'s run differs from `first`'s, the most telling difference first; `None` when
/// they are the same run.
fn difference(r: &ShardRecord, first: &ShardRecord) -> Option<String> {
    let n = first.shard.count();
    Some(if r.puzzle_digest != first.puzzle_digest {
        format!(
            "another puzzle ({} against {})",
            Quoted(&r.puzzle),
            Quoted(&first.puzzle)
        )
    } else if r.up_to != first.up_to {
        format!("counted up to {} against up to {}", r.up_to, first.up_to)
    } else if r.engine != first.engine {
        format!("engine {} against {}", r.engine, first.engine)
    } else if r.job != first.job {
        format!("a {} against a {}", r.job.name(), first.job.name())
    } else if r.shard.count() != n {
        format!("shard {} against {n} shards", r.shard)
    } else if r.digest != first.digest {
        format!(
            "different options (digest {} against {})",
            r.digest, first.digest
        )
    } else {
        return None;
    })
}

/// Keeps `r` as its shard's record unless a complete one is already kept: a complete record
/// replaces an interrupted one, and a second complete record of one shard is refused.
fn keep<'a>(
    kept: &mut [Option<(&'a Path, &'a ShardRecord)>],
    file: &'a Path,
    r: &'a ShardRecord,
) -> Result<(), MergeError> {
    // `same_run` has checked that every record has the first's number of shards.
    let Some(slot) = kept.get_mut(r.shard.index() as usize) else {
        return Ok(());
    };
    match slot {
        Some((prev, p)) if p.complete && r.complete => Err(MergeError::Duplicate {
            shard: r.shard,
            first: prev.to_path_buf(),
            second: file.to_path_buf(),
        }),
        Some((_, p)) if p.complete => Ok(()),
        _ => {
            *slot = Some((file, r));
            Ok(())
        }
    }
}

/// The kept records when every shard has a complete one; else the shards still missing
/// (with those interrupted), and the first record's command line for rerunning them.
fn complete_set<'a>(
    kept: &[Option<(&Path, &'a ShardRecord)>],
    first: &ShardRecord,
) -> Result<Vec<&'a ShardRecord>, MergeError> {
    let shards = (0u32..).zip(kept);
    let interrupted: Vec<u32> = shards
        .clone()
        .filter(|(_, s)| s.is_some_and(|(_, r)| !r.complete))
        .map(|(k, _)| k)
        .collect();
    let missing: Vec<u32> = shards
        .filter(|(_, s)| s.is_none_or(|(_, r)| !r.complete))
        .map(|(k, _)| k)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            interrupted,
            shards: first.shard.count(),
            command: first.command.clone(),
        });
    }
    Ok(kept.iter().flatten().map(|(_, r)| *r).collect())
}

/// The sums of a complete set of shards, with the run's own fields from `first`.
fn add_up(used: &[&ShardRecord], first: &ShardRecord) -> Result<Merged, MergeError> {
    let n = first.shard.count();
    // Sums are checked: past 2^64 - 1 a wrapped sum would be a wrong count, so the merge is
    // refused instead.
    let total = |field: &'static str, of: &dyn Fn(&ShardRecord) -> u64| {
        used.iter()
            .try_fold(0u64, |t, r| t.checked_add(of(r)))
            .ok_or(MergeError::Overflow { field })
    };
    let count = total("count", &|r| r.count)?;
    let raw = total("raw", &|r| r.raw)?;
    let nodes = match used.iter().all(|r| r.nodes.is_some()) {
        true => Some(total("nodes", &|r| r.nodes.unwrap_or(0))?),
        false => None,
    };
    let balance = nodes.filter(|&t| t > 0).map(|t| {
        let max = used.iter().filter_map(|r| r.nodes).max().unwrap_or(0);
        max as f64 / (t as f64 / f64::from(n))
    });
    Ok(Merged {
        count,
        raw,
        nodes,
        shards: n,
        up_to: first.up_to,
        engine: first.engine.clone(),
        job: first.job,
        puzzle: first.puzzle.clone(),
        digest: first.digest.clone(),
        version: first.version.clone(),
        cpu_seconds: used.iter().map(|r| r.cpu_seconds).sum(),
        balance,
    })
}

/// A name in quotes.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", crate::echo::echo(self.0))
    }
}
