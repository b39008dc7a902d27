//! One shard's record: what it holds, its JSON form with the `check` digest and the keyed
//! seal, and reading it back from a shard file (count records, or a listing's summary).

use serde_json::{Value, json};

use cubesat_xc::Shard;

use super::{Job, VERSION, fnv128, mode_digests, puzzle_digest, run_digest};
use crate::counting::UpTo;
use crate::puzzle::Puzzle;
use crate::run::{RunOptions, RunReport};

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
    /// The command line that ran the shard, as its front end wrote it (the binary: words
    /// quoted for a POSIX shell), kept for rerunning missing shards; the library never parses
    /// or runs it.
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

    /// The records of a shard run, one per counting mode: [`ShardRecord::new`]'s, then one
    /// for each mode counted from the same search ([`RunOptions::also_up_to`]), each with
    /// its count and the run digest of its mode (the search's figures are shared).
    pub fn all(
        puzzle: &Puzzle,
        opts: &RunOptions,
        job: Job,
        report: &RunReport,
        cpu_seconds: f64,
        command: String,
    ) -> Vec<ShardRecord> {
        let Some(first) = ShardRecord::new(puzzle, opts, job, report, cpu_seconds, command) else {
            return Vec::new();
        };
        let digests = mode_digests(puzzle, opts, job);
        let mut out = vec![first.clone()];
        for &(mode, count) in &report.also {
            let Some((_, digest)) = digests.iter().find(|(m, _)| *m == mode) else {
                continue;
            };
            out.push(ShardRecord {
                count,
                up_to: mode,
                digest: digest.clone(),
                ..first.clone()
            });
        }
        out
    }

    /// The keyed seal of the record's fields (not `seal` or `check`): HMAC-SHA256 under
    /// `key`, as `hmac-sha256:` and 64 hex digits. Unlike `check`, which anyone can compute
    /// again, it can be made only with the key, so [`check_seals`](super::check_seals) with
    /// the same key refuses a record whose fields were changed by someone without it.
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
