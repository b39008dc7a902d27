//! A folder that one run's shard records fill over time (`DIR/K.json`, one file a shard):
//! which shards it already holds for this run, writing a record so that a crash never leaves
//! half of one, and the merge once every shard is there.
//!
//! A long count is then run in pieces at different times on one machine: a run that is
//! stopped (Ctrl-C, a reboot) keeps every shard it finished, and the next run of the same
//! command does only the rest. A file is trusted only if it is a record of this very run
//! (its digest, version and number of shards); any other file named `K.json` is refused
//! rather than overwritten, so two runs never share a folder by mistake.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::record::{RecordError, ShardRecord, parse_file};
use super::{Job, MergeError, Merged, VERSION, merge_modes, mode_digests};
use crate::counting::UpTo;
use crate::puzzle::Puzzle;
use crate::run::RunOptions;

/// The largest record file the folder reads (a count's file is a line per mode, well under a
/// kilobyte; anything far larger is not one).
const MAX_RECORD_BYTES: u64 = 1 << 20;

/// What a folder holds for one shard.
#[derive(Clone, Debug, PartialEq)]
pub enum Held {
    /// No file: the shard has not run.
    Missing,
    /// The shard's records for every mode of the run, complete.
    Done(Vec<ShardRecord>),
    /// Records of this run left by an interrupted shard: it runs again.
    Interrupted,
}

/// Why a folder cannot take a run's records.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FolderError {
    /// The folder cannot be created or a file in it read or written (the system's error is
    /// the cause, which front ends print after this).
    #[error("{}: {what}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
    /// A file that is not a shard record.
    #[error("{}: {error}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// Why it is not one.
        error: RecordError,
    },
    /// A record of another run: another puzzle, options, version or number of shards.
    #[error(
        "{}: a record of another run ({why}); give this run a folder of its own",
        path.display()
    )]
    OtherRun {
        /// The file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// A file too large to be a record.
    #[error("{}: over {MAX_RECORD_BYTES} bytes, not a shard record", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Not a regular file (a folder, a FIFO, a device): never read, since a FIFO would block.
    #[error("{}: not a regular file, so not a shard record", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The records do not merge (cannot happen for a folder this module filled).
    #[error(transparent)]
    Merge(#[from] MergeError),
}

/// A folder of one counting run's shard records.
#[derive(Clone, Debug)]
pub struct Folder {
    dir: PathBuf,
    shards: u32,
    /// The digest of each mode the run counts, in the order its records are written.
    modes: Vec<(UpTo, String)>,
}

impl Folder {
    /// The folder `dir` for the count `opts` describes, split into `shards` shards (the shard
    /// in `opts` is ignored). Creates `dir` if it does not exist.
    pub fn open(
        dir: &Path,
        puzzle: &Puzzle,
        opts: &RunOptions,
        shards: u32,
    ) -> Result<Folder, FolderError> {
        std::fs::create_dir_all(dir).map_err(|source| FolderError::Io {
            path: dir.to_path_buf(),
            what: "cannot create the folder",
            source,
        })?;
        Ok(Folder {
            dir: dir.to_path_buf(),
            shards,
            modes: mode_digests(puzzle, opts, Job::Count),
        })
    }

    /// The number of shards of the run.
    pub fn shards(&self) -> u32 {
        self.shards
    }

    /// The file of shard `k`: `DIR/K.json`.
    pub fn path(&self, k: u32) -> PathBuf {
        self.dir.join(format!("{k}.json"))
    }

    /// What the folder holds for shard `k`; an error for a file that is not a record of this
    /// run.
    pub fn held(&self, k: u32) -> Result<Held, FolderError> {
        let path = self.path(k);
        let text = match read_bounded(&path) {
            Ok(Some(t)) => t,
            Ok(None) => return Ok(Held::Missing),
            Err(e) => return Err(e),
        };
        let records = parse_file(&text).map_err(|error| FolderError::Record {
            path: path.clone(),
            error,
        })?;
        let other = |why: String| FolderError::OtherRun {
            path: path.clone(),
            why,
        };
        let mut complete = true;
        for r in &records {
            if r.version != VERSION {
                return Err(other(format!("cubesat {}, this is {VERSION}", r.version)));
            }
            if r.shard.count() != self.shards || r.shard.index() != k {
                return Err(other(format!(
                    "its shard is {}, the file's name says {k}/{}",
                    r.shard, self.shards
                )));
            }
            if r.job != Job::Count || !self.modes.iter().any(|(_, d)| *d == r.digest) {
                return Err(other(format!(
                    "{} of {:?}, up to {}, with other options",
                    if r.job == Job::Count {
                        "a count"
                    } else {
                        "a listing"
                    },
                    r.puzzle,
                    r.up_to
                )));
            }
            complete &= r.complete;
        }
        let same_modes = records.len() == self.modes.len()
            && (records.iter().zip(&self.modes)).all(|(r, (_, d))| r.digest == *d);
        if !same_modes {
            return Err(other(format!(
                "{} record(s) where this run writes one for each of {}",
                records.len(),
                self.modes.len()
            )));
        }
        Ok(if complete {
            Held::Done(records)
        } else {
            Held::Interrupted
        })
    }

    /// Writes shard `k`'s records (a line each) to a temporary file beside its own, then
    /// renames it into place: a reader sees no file or the whole record, never half of one.
    pub fn write(&self, k: u32, records: &[ShardRecord]) -> Result<(), FolderError> {
        let path = self.path(k);
        // `K.json.tmp`: not a `*.json` file, so `cubesat merge DIR` passes over it.
        let tmp = self.dir.join(format!("{k}.json.tmp"));
        let io = |what: &'static str, p: &Path| {
            let p = p.to_path_buf();
            move |source| FolderError::Io {
                path: p,
                what,
                source,
            }
        };
        let mut f = std::fs::File::create(&tmp).map_err(io("cannot write", &tmp))?;
        for r in records {
            writeln!(f, "{}", r.to_json()).map_err(io("cannot write", &tmp))?;
        }
        f.sync_all().map_err(io("cannot write", &tmp))?;
        drop(f);
        std::fs::rename(&tmp, &path).map_err(io("cannot rename into place", &path))
    }

    /// The merged counts, a line per mode, when every shard is done; `None` while some are
    /// missing or interrupted.
    pub fn merged(&self) -> Result<Option<Vec<Merged>>, FolderError> {
        let mut records = Vec::new();
        for k in 0..self.shards {
            match self.held(k)? {
                Held::Done(rs) => records.extend(rs.into_iter().map(|r| (self.path(k), r))),
                Held::Missing | Held::Interrupted => return Ok(None),
            }
        }
        Ok(Some(merge_modes(&records)?))
    }
}

/// The text of `path`, `None` when it does not exist; bounded by [`MAX_RECORD_BYTES`].
fn read_bounded(path: &Path) -> Result<Option<String>, FolderError> {
    use std::io::Read;
    let io = |what: &'static str| {
        let p = path.to_path_buf();
        move |source| FolderError::Io {
            path: p,
            what,
            source,
        }
    };
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(FolderError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io("cannot read")(e)),
    }
    let f = std::fs::File::open(path).map_err(io("cannot read"))?;
    let mut bytes = Vec::new();
    f.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io("cannot read"))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(FolderError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}
