//! Sharded runs: the record one shard of a count or listing leaves behind, the digest that
//! ties the shards of one run together, and the merge that checks a set of records and adds
//! them up exactly.
//!
//! A run split into `N` shards ([`RunOptions::shard`]) is `N` independent processes, typically
//! the tasks of a batch job array. Each prints one [`ShardRecord`] (one JSON object; a listing
//! carries it in its summary object as `"shard"`). [`merge`] accepts the records of one run
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

use std::fmt;
use std::path::{Path, PathBuf};

use cubesat_xc::Shard;
use serde_json::{Value, json};

use crate::counting::UpTo;
use crate::puzzle::Puzzle;
use crate::puzzle::json::to_value;
use crate::run::{EngineChoice, RunOptions, RunReport};

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
/// tree is split (counting mode, engine, count or listing, pruning, the SAT engine's cubes),
/// not the thread count or the SAT encoding.
pub fn run_digest(puzzle: &Puzzle, opts: &RunOptions, job: Job) -> String {
    let engine = opts.engine.resolve();
    let cubes = match engine {
        EngineChoice::Sat => json!(opts.sat_cubes),
        _ => Value::Null,
    };
    let parts = json!({
        "puzzle": to_value(puzzle),
        "up_to": opts.up_to.to_string(),
        "engine": engine.to_string(),
        "job": job.name(),
        "prune": opts.prune,
        "cubes": cubes,
        "subtrees_per_shard": cubesat_xc::SUBTREES_PER_SHARD,
        "reduction": crate::counting::SCHEME,
    });
    fnv128(parts.to_string().as_bytes())
}

/// What one shard of a run leaves behind.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardRecord {
    /// Which shard.
    pub shard: Shard,
    /// Count or listing.
    pub job: Job,
    /// The shard's count (weighted as the counting mode says), or solutions listed.
    pub count: u64,
    /// Solutions the search reported before symmetry filtering.
    pub raw: u64,
    /// Search nodes, where the engine counts them.
    pub nodes: Option<u64>,
    /// The counting mode.
    pub up_to: UpTo,
    /// The engine that ran ("exact", "sat").
    pub engine: String,
    /// The puzzle's name.
    pub puzzle: String,
    /// [`puzzle_digest`].
    pub puzzle_digest: String,
    /// [`run_digest`].
    pub digest: String,
    /// The cubesat version that ran the shard.
    pub version: String,
    /// CPU time of the process (user and system, every thread).
    pub cpu_seconds: f64,
    /// Wall-clock time of the search.
    pub seconds: f64,
    /// False when the shard was interrupted: its figures are partial and it must be rerun.
    pub complete: bool,
    /// The command line that ran the shard, for rerunning missing ones.
    pub command: String,
    /// A keyed seal of the other fields ([`ShardRecord::seal`]), when the run was given a
    /// key: `hmac-sha256:` and 64 hex digits.
    pub seal: Option<String>,
}

impl ShardRecord {
    /// The record of a finished (or interrupted) shard run.
    pub fn new(
        puzzle: &Puzzle,
        opts: &RunOptions,
        job: Job,
        report: &RunReport,
        cpu_seconds: f64,
        command: String,
    ) -> Option<ShardRecord> {
        Some(ShardRecord {
            shard: opts.shard?,
            job,
            count: report.count,
            raw: report.raw,
            nodes: report.nodes,
            up_to: opts.up_to,
            engine: opts.engine.resolve().to_string(),
            puzzle: puzzle.name.clone(),
            puzzle_digest: puzzle_digest(puzzle),
            digest: run_digest(puzzle, opts, job),
            version: VERSION.to_string(),
            cpu_seconds,
            seconds: report.elapsed.as_secs_f64(),
            complete: !report.interrupted && !report.limited,
            command,
            seal: None,
        })
    }

    /// The keyed seal of the record's fields (not `seal` or `check`): HMAC-SHA256 under
    /// `key`, as `hmac-sha256:` and 64 hex digits. Unlike `check`, which anyone can compute
    /// again, it can be made only with the key, so [`check_seals`] with the same key refuses a
    /// record whose fields were changed by someone without it.
    pub fn seal_with(&self, key: &[u8]) -> String {
        use hmac::{Hmac, Mac};
        let mut mac =
            Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(Value::Object(self.sealed_fields()).to_string().as_bytes());
        let tag = mac.finalize().into_bytes();
        let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        format!("{SEAL_PREFIX}{hex}")
    }

    /// Seals the record with `key` ([`ShardRecord::seal_with`]).
    pub fn seal(&mut self, key: &[u8]) {
        self.seal = Some(self.seal_with(key));
    }

    /// Whether the record carries the seal `key` gives its fields (compared in constant
    /// time).
    pub fn seal_matches(&self, key: &[u8]) -> bool {
        use hmac::{Hmac, Mac};
        let Some(hex) = self
            .seal
            .as_deref()
            .and_then(|s| s.strip_prefix(SEAL_PREFIX))
        else {
            return false;
        };
        let Some(tag) = unhex(hex) else { return false };
        let mut mac =
            Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(Value::Object(self.sealed_fields()).to_string().as_bytes());
        mac.verify_slice(&tag).is_ok()
    }

    /// The fields other than `check`: the sealed ones and the seal.
    fn fields(&self) -> serde_json::Map<String, Value> {
        let mut m = self.sealed_fields();
        if let Some(seal) = &self.seal {
            m.insert("seal".into(), Value::String(seal.clone()));
        }
        m
    }

    /// The fields other than `check` and `seal`. Times are rounded to microseconds: a short
    /// decimal reads back as exactly the same number, so that a record written again is
    /// unchanged.
    fn sealed_fields(&self) -> serde_json::Map<String, Value> {
        let micro = |x: f64| (x * 1e6).round() / 1e6;
        let v = json!({
            "type": "shard",
            "shard": self.shard.to_string(),
            "job": self.job.name(),
            "count": self.count,
            "raw": self.raw,
            "nodes": self.nodes,
            "up_to": self.up_to.to_string(),
            "engine": self.engine,
            "puzzle": self.puzzle,
            "puzzle_digest": self.puzzle_digest,
            "digest": self.digest,
            "version": self.version,
            "cpu_seconds": micro(self.cpu_seconds),
            "seconds": micro(self.seconds),
            "complete": self.complete,
            "command": self.command,
        });
        match v {
            Value::Object(m) => m,
            _ => serde_json::Map::new(),
        }
    }

    /// The record as one JSON object, with its `check`.
    pub fn to_json(&self) -> Value {
        let mut m = self.fields();
        let check = fnv128(Value::Object(m.clone()).to_string().as_bytes());
        m.insert("check".into(), Value::String(check));
        Value::Object(m)
    }

    /// Reads a record written by [`ShardRecord::to_json`]; refuses a missing or mistyped
    /// field and a record whose `check` does not match its fields.
    pub fn from_json(v: &Value) -> Result<ShardRecord, RecordError> {
        let bad =
            |field: &'static str, expected: &'static str| RecordError::Field { field, expected };
        let obj = v.as_object().ok_or(RecordError::NotARecord)?;
        if obj.get("type").and_then(Value::as_str) != Some("shard") {
            return Err(RecordError::NotARecord);
        }
        let s = |f: &'static str| -> Result<String, RecordError> {
            obj.get(f)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or(bad(f, "a string"))
        };
        let u = |f: &'static str| obj.get(f).and_then(Value::as_u64).ok_or(bad(f, "a count"));
        let secs = |f: &'static str| {
            obj.get(f)
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or(bad(f, "seconds"))
        };
        let record = ShardRecord {
            shard: s("shard")?
                .parse()
                .map_err(|_| bad("shard", "K/N with 0 <= K < N"))?,
            job: match s("job")?.as_str() {
                "count" => Job::Count,
                "list" => Job::List,
                _ => return Err(bad("job", "\"count\" or \"list\"")),
            },
            count: u("count")?,
            raw: u("raw")?,
            nodes: match obj.get("nodes") {
                Some(Value::Null) => None,
                Some(n) => Some(n.as_u64().ok_or(bad("nodes", "a count or null"))?),
                None => return Err(bad("nodes", "a count or null")),
            },
            up_to: s("up_to")?
                .parse()
                .map_err(|_| bad("up_to", "a counting mode"))?,
            engine: s("engine")?,
            puzzle: s("puzzle")?,
            puzzle_digest: s("puzzle_digest")?,
            digest: s("digest")?,
            version: s("version")?,
            cpu_seconds: secs("cpu_seconds")?,
            seconds: secs("seconds")?,
            complete: obj
                .get("complete")
                .and_then(Value::as_bool)
                .ok_or(bad("complete", "true or false"))?,
            command: s("command")?,
            seal: match obj.get("seal") {
                None => None,
                Some(Value::String(x))
                    if x.strip_prefix(SEAL_PREFIX).is_some_and(|h| {
                        h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
                    }) =>
                {
                    Some(x.clone())
                }
                Some(_) => return Err(bad("seal", "hmac-sha256: and 64 hex digits")),
            },
        };
        s("check")?;
        // Written again, the record must be the same object: same fields, none added, and
        // the check digest of their values.
        if record.to_json() != *v {
            return Err(RecordError::Edited);
        }
        Ok(record)
    }
}

/// How a keyed seal starts.
const SEAL_PREFIX: &str = "hmac-sha256:";

/// Bytes from lowercase hex digits.
fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The shortest seal key, in bytes, that the binary accepts from a key file (a shorter one is
/// too easy to guess).
pub const MIN_KEY_BYTES: usize = 16;

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

/// Why a shard file is not a valid record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Not JSON at all (a truncated file, say).
    #[error("line {line}: not JSON ({what}); truncated?")]
    Json {
        /// The line.
        line: usize,
        /// The parser's message.
        what: String,
    },
    /// JSON, but not a shard record.
    #[error("not a shard record (expected an object with \"type\": \"shard\")")]
    NotARecord,
    /// A field is missing or has the wrong type.
    #[error("field {field:?} is missing or not {expected}")]
    Field {
        /// The field.
        field: &'static str,
        /// What it should hold.
        expected: &'static str,
    },
    /// The record's check does not match its fields.
    #[error("the record does not match its check digest (edited by hand?)")]
    Edited,
    /// No record in the file.
    #[error("no shard record in the file (empty, or a run that did not shard)")]
    Empty,
    /// More than one record in a listing.
    #[error("{0} shard records in one listing (expected one)")]
    Several(usize),
    /// A listing whose solution lines do not match the record's count.
    #[error("{lines} solution lines but the shard record says {count}; truncated?")]
    Listing {
        /// Solution lines in the file.
        lines: u64,
        /// Solutions the record counts.
        count: u64,
    },
}

/// Reads one shard file: count records (one JSON object per line; several, such as GNU
/// parallel's collected output, are fine) or a listing (JSON Lines whose summary object carries
/// the record as `"shard"`; its solution lines must number the record's count).
pub fn parse_file(text: &str) -> Result<Vec<ShardRecord>, RecordError> {
    let mut records = Vec::new();
    let mut solutions = 0u64;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| RecordError::Json {
            line: i + 1,
            what: e.to_string(),
        })?;
        match v.get("type").and_then(Value::as_str) {
            Some("shard") => records.push(ShardRecord::from_json(&v)?),
            Some("summary") => match v.get("shard") {
                Some(r) => records.push(ShardRecord::from_json(r)?),
                None => return Err(RecordError::Empty),
            },
            Some("solution") => solutions += 1,
            _ => return Err(RecordError::NotARecord),
        }
    }
    if records.is_empty() {
        return Err(RecordError::Empty);
    }
    let listing = solutions > 0 || records.iter().any(|r| r.job == Job::List);
    if listing {
        if records.len() > 1 {
            return Err(RecordError::Several(records.len()));
        }
        if solutions != records[0].count {
            return Err(RecordError::Listing {
                lines: solutions,
                count: records[0].count,
            });
        }
    }
    Ok(records)
}

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
    #[error("{}", missing_message(.missing, .interrupted, *.shards, .command))]
    Missing {
        /// Shards with no record or an interrupted one, ascending.
        missing: Vec<u32>,
        /// Those of them whose record says the shard was interrupted.
        interrupted: Vec<u32>,
        /// N.
        shards: u32,
        /// The command line of a present shard, to rerun the others.
        command: String,
    },
}

/// "3, 17" (long lists shortened to ranges: "0-7, 9").
fn ranges(list: &[u32], sep: &str) -> String {
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

fn missing_message(missing: &[u32], interrupted: &[u32], shards: u32, command: &str) -> String {
    let mut s = format!(
        "{} of {shards} shards missing: {}",
        missing.len(),
        ranges(missing, ", ")
    );
    if !interrupted.is_empty() {
        s.push_str(&format!(
            " ({} interrupted: {})",
            interrupted.len(),
            ranges(interrupted, ", ")
        ));
    }
    s.push_str(&format!(
        "; rerun exactly those: sbatch --array={} JOB_SCRIPT",
        ranges(missing, ",")
    ));
    match rerun_command(command, shards) {
        Some(cmd) => {
            let list: Vec<String> = missing.iter().map(u32::to_string).collect();
            s.push_str(&format!(
                ", or: parallel {} ::: {}",
                shell_quote(&format!("{cmd} > {{}}.json")),
                list.join(" ")
            ));
        }
        None => s.push_str(
            " (the records' command line is not one cubesat writes, so it is not repeated here)",
        ),
    }
    s
}

/// `word` quoted for a POSIX shell where needed: as it is when it holds only characters no
/// shell treats specially, else in single quotes (a quote inside written `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,{}".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The words of a command line written with [`shell_quote`]: `None` unless `line` is exactly
/// such words, one space apart (plain characters, single-quoted text, `\'`), so that nothing
/// else a record holds (a `;`, a `$(...)`) is ever repeated to a shell.
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = line.chars();
    let mut started = false;
    while let Some(c) = chars.next() {
        match c {
            ' ' if started => {
                words.push(std::mem::take(&mut word));
                started = false;
            }
            '\'' => {
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
                started = true;
            }
            '\\' => {
                if chars.next()? != '\'' {
                    return None;
                }
                word.push('\'');
                started = true;
            }
            c if c.is_ascii_alphanumeric() || "-_./:=@%+,{}".contains(c) => {
                word.push(c);
                started = true;
            }
            _ => return None,
        }
    }
    if !started {
        return None;
    }
    words.push(word);
    Some(words)
}

/// A record's `command` with its shard argument replaced by `{}/N` (GNU parallel's
/// placeholder), each word quoted again; `None` when it is not a cubesat command line as
/// cubesat writes it.
fn rerun_command(command: &str, shards: u32) -> Option<String> {
    let mut words = shell_words(command)?;
    if words.first().map(String::as_str) != Some("cubesat") {
        return None;
    }
    let at = words
        .iter()
        .position(|w| w == "--shard" || w.starts_with("--shard="))?;
    if words[at] == "--shard" {
        *words.get_mut(at + 1)? = format!("{{}}/{shards}");
    } else {
        words[at] = format!("--shard={{}}/{shards}");
    }
    Some(
        words
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    )
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
    let mut seen: Vec<Option<(&Path, &ShardRecord)>> = vec![None; n as usize];
    for (file, r) in records {
        if r.version != first.version {
            return Err(MergeError::OtherVersion {
                file: file.clone(),
                version: r.version.clone(),
                first: first_file.clone(),
                first_version: first.version.clone(),
            });
        }
        let other = |what: String| MergeError::OtherRun {
            file: file.clone(),
            first: first_file.clone(),
            what,
        };
        if r.puzzle_digest != first.puzzle_digest {
            return Err(other(format!(
                "another puzzle ({} against {})",
                Quoted(&r.puzzle),
                Quoted(&first.puzzle)
            )));
        }
        if r.up_to != first.up_to {
            return Err(other(format!(
                "counted up to {} against up to {}",
                r.up_to, first.up_to
            )));
        }
        if r.engine != first.engine {
            return Err(other(format!(
                "engine {} against {}",
                r.engine, first.engine
            )));
        }
        if r.job != first.job {
            return Err(other(format!(
                "a {} against a {}",
                r.job.name(),
                first.job.name()
            )));
        }
        if r.shard.count() != n {
            return Err(other(format!("shard {} against {n} shards", r.shard)));
        }
        if r.digest != first.digest {
            return Err(other(format!(
                "different options (digest {} against {})",
                r.digest, first.digest
            )));
        }
        let slot = &mut seen[r.shard.index() as usize];
        match slot {
            Some((prev, p)) if p.complete && r.complete => {
                return Err(MergeError::Duplicate {
                    shard: r.shard,
                    first: prev.to_path_buf(),
                    second: file.clone(),
                });
            }
            Some((_, p)) if p.complete => {}
            _ => *slot = Some((file, r)),
        }
    }
    let interrupted: Vec<u32> = (0..n)
        .filter(|&k| seen[k as usize].is_some_and(|(_, r)| !r.complete))
        .collect();
    let missing: Vec<u32> = (0..n)
        .filter(|&k| seen[k as usize].is_none_or(|(_, r)| !r.complete))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            interrupted,
            shards: n,
            command: first.command.clone(),
        });
    }
    let used: Vec<&ShardRecord> = seen.iter().flatten().map(|(_, r)| *r).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(k: u32, n: u32, count: u64) -> ShardRecord {
        ShardRecord {
            shard: Shard::new(k, n).unwrap(),
            job: Job::Count,
            count,
            raw: count,
            nodes: Some(100 + u64::from(k)),
            up_to: UpTo::Rotation,
            engine: "exact".into(),
            puzzle: "soma".into(),
            puzzle_digest: "p".into(),
            digest: "d".into(),
            version: VERSION.into(),
            cpu_seconds: 0.25,
            seconds: 0.5,
            complete: true,
            command: format!("cubesat solve soma --count --shard {k}/{n}"),
            seal: None,
        }
    }

    fn files(rs: Vec<ShardRecord>) -> Vec<(PathBuf, ShardRecord)> {
        rs.into_iter()
            .map(|r| (PathBuf::from(format!("{}.json", r.shard.index())), r))
            .collect()
    }

    #[test]
    fn a_record_round_trips_and_refuses_edits() {
        let r = record(3, 8, 42);
        let text = r.to_json().to_string();
        assert_eq!(parse_file(&text), Ok(vec![r.clone()]));
        let edited = text.replace("\"count\":42", "\"count\":43");
        assert_eq!(parse_file(&edited), Err(RecordError::Edited));
        let added = text.replace("\"count\":42", "\"count\":42,\"extra\":1");
        assert_eq!(parse_file(&added), Err(RecordError::Edited));
        assert!(matches!(
            parse_file(&text[..text.len() / 2]),
            Err(RecordError::Json { line: 1, .. })
        ));
        assert_eq!(parse_file(""), Err(RecordError::Empty));
        assert_eq!(
            parse_file(&format!("{text}\n{text}\n")),
            Ok(vec![r.clone(), r.clone()])
        );
        let mut l = r.clone();
        l.job = Job::List;
        l.count = 1;
        let listed = l.to_json().to_string();
        let solution = "{\"type\":\"solution\"}";
        assert_eq!(
            parse_file(&format!("{solution}\n{listed}\n{listed}")),
            Err(RecordError::Several(2))
        );
        assert_eq!(
            parse_file(&listed),
            Err(RecordError::Listing { lines: 0, count: 1 })
        );
    }

    #[test]
    fn merges_a_complete_set_and_names_what_is_wrong() {
        let all = files((0..4).map(|k| record(k, 4, 10 + u64::from(k))).collect());
        let m = merge(&all).unwrap();
        assert_eq!((m.count, m.nodes, m.shards), (46, Some(406), 4));
        let mut gap = all.clone();
        gap.remove(2);
        gap.remove(0);
        let e = merge(&gap).unwrap_err();
        assert!(matches!(&e, MergeError::Missing { missing, .. } if missing == &[0, 2]));
        let text = e.to_string();
        assert!(text.contains("2 of 4 shards missing: 0, 2"), "{text}");
        assert!(text.contains("sbatch --array=0,2 "), "{text}");
        assert!(
            text.contains("parallel 'cubesat solve soma --count --shard {}/4 > {}.json' ::: 0 2"),
            "{text}"
        );
        let mut dup = all.clone();
        dup.push((PathBuf::from("again.json"), record(1, 4, 11)));
        assert!(matches!(merge(&dup), Err(MergeError::Duplicate { .. })));
        let mut other = all.clone();
        other[1].1.puzzle_digest = "q".into();
        assert!(
            merge(&other)
                .unwrap_err()
                .to_string()
                .contains("another puzzle")
        );
        let mut old = all.clone();
        old[3].1.version = "0.0.1".into();
        assert!(matches!(merge(&old), Err(MergeError::OtherVersion { .. })));
        let mut n = all.clone();
        n[2].1.shard = Shard::new(2, 5).unwrap();
        assert!(
            merge(&n)
                .unwrap_err()
                .to_string()
                .contains("against 4 shards")
        );
        let mut cut = all.clone();
        cut[1].1.complete = false;
        cut[1].1.count = 3;
        let e = merge(&cut).unwrap_err().to_string();
        assert!(
            e.contains("1 of 4 shards missing: 1 (1 interrupted: 1)"),
            "{e}"
        );
        // A rerun after the interrupted record (or before it) supersedes it.
        cut.push(all[1].clone());
        assert_eq!(merge(&cut).unwrap().count, 46);
        cut.swap(1, 4);
        assert_eq!(merge(&cut).unwrap().count, 46);
        assert_eq!(ranges(&[0, 1, 2, 3, 5, 7, 8], ","), "0-3,5,7,8");
    }

    #[test]
    fn keyed_seals_refuse_a_record_resealed_without_the_key() {
        let key = b"0123456789abcdef-shard-key";
        let mut r = record(1, 2, 42);
        r.seal(key);
        let text = r.to_json().to_string();
        let back = parse_file(&text).unwrap();
        assert_eq!(back, vec![r.clone()]);
        let at = |r: ShardRecord| vec![(PathBuf::from("1.json"), r)];
        assert_eq!(check_seals(&at(r.clone()), key), Ok(()));
        // A forger changes the count and computes the unkeyed check again: the record reads,
        // but its seal no longer matches.
        let mut forged = r.clone();
        forged.count = 43;
        let forged = parse_file(&forged.to_json().to_string()).unwrap().remove(0);
        assert!(matches!(
            check_seals(&at(forged), key),
            Err(MergeError::Seal { .. })
        ));
        assert!(check_seals(&at(r.clone()), b"another key, long enough").is_err());
        assert!(check_seals(&at(record(1, 2, 42)), key).is_err());
        let bad = text.replace("hmac-sha256:", "hmac-sha256:zz");
        assert!(matches!(
            parse_file(&bad),
            Err(RecordError::Field { field: "seal", .. })
        ));
    }

    #[test]
    fn sums_past_64_bits_are_refused() {
        let mut big = files((0..2).map(|k| record(k, 2, 1 << 63)).collect());
        assert_eq!(merge(&big), Err(MergeError::Overflow { field: "count" }));
        big[1].1.count = (1 << 63) - 1;
        big[1].1.raw = (1 << 63) - 1;
        assert_eq!(merge(&big).unwrap().count, u64::MAX);
    }

    #[test]
    fn rerun_commands_are_quoted_and_only_cubesats_own() {
        for w in ["plain", "a b", "it's", "\"q\"", "", "$(x)", "{}/4", "é"] {
            let line = format!("cubesat {}", shell_quote(w));
            assert_eq!(
                shell_words(&line),
                Some(vec!["cubesat".to_string(), w.to_string()]),
                "{line}"
            );
        }
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        let cmd = "cubesat solve 'my file.json' --count --shard 3/8";
        assert_eq!(
            rerun_command(cmd, 8).as_deref(),
            Some("cubesat solve 'my file.json' --count --shard {}/8")
        );
        assert_eq!(
            rerun_command("cubesat solve x --shard=3/8", 8).as_deref(),
            Some("cubesat solve x --shard={}/8")
        );
        for bad in [
            "cubesat solve x --shard 0/3; rm -rf ~",
            "cubesat solve $(x) --shard 0/3",
            "cubesat solve 'unclosed --shard 0/3",
            "cubesat  solve x --shard 0/3",
            "sh -c x --shard 0/3",
            "cubesat solve x --shard 0/3 \\n",
            "cubesat solve 'a\nb' --shard 0/3",
        ] {
            assert_eq!(rerun_command(bad, 3), None, "{bad}");
        }
    }
}
