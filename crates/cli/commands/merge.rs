//! `cubesat merge`: adds up the shard records of a run after checking they make one complete
//! run; also what `solve --shard` needs to write its record (the command line, CPU time).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use cubesat::shard::{self, ShardRecord};

use crate::args::{MergeArgs, MergeFormat};

use super::{Outcome, output};

pub fn run(args: &MergeArgs) -> Result<Outcome> {
    let mut files = Vec::new();
    for path in &args.files {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("{}: cannot read the folder", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                .collect();
            if inside.is_empty() {
                bail!("{}: no *.json shard records in the folder", path.display());
            }
            inside.sort_by_key(|p| natural_key(p));
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    let mut records: Vec<(PathBuf, ShardRecord)> = Vec::with_capacity(files.len());
    for f in files {
        // `-` is stdin; every input is read once, bounded.
        let text = super::read_input(&f)?;
        let f = PathBuf::from(super::shown(&f));
        let rs = shard::parse_file(&text).map_err(|error| shard::MergeError::Record {
            file: f.clone(),
            error,
        })?;
        records.extend(rs.into_iter().map(|r| (f.clone(), r)));
    }
    let m = shard::merge(&records)?;
    let mut out = output(None)?;
    match args.format {
        MergeFormat::Json => writeln!(out, "{}", m.to_json())?,
        MergeFormat::Text => writeln!(
            out,
            "{} {} {}",
            m.count,
            if m.count == 1 {
                "solution"
            } else {
                "solutions"
            },
            m.up_to.phrase()
        )?,
    }
    out.flush()?;
    Ok(Outcome::Found)
}

/// Sorts `results/2.json` before `results/10.json`.
fn natural_key(p: &Path) -> (u64, PathBuf) {
    let n = p
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    (n, p.to_path_buf())
}

/// The command line as typed, with the program called `cubesat` and words quoted for a POSIX
/// shell where needed: a shard record keeps it so that `merge` can print how to rerun the
/// missing shards.
pub(super) fn command_line() -> String {
    let quote = |w: &str| {
        let plain = !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,{}".contains(&b));
        if plain {
            w.to_string()
        } else {
            format!("'{}'", w.replace('\'', "'\\''"))
        }
    };
    std::iter::once("cubesat".to_string())
        // args_os: `args` panics on an argument that is not UTF-8 (a file name).
        .chain(
            std::env::args_os()
                .skip(1)
                .map(|w| quote(&w.to_string_lossy())),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// CPU seconds (user and system, every thread) this process has used so far; 0 where the
/// system will not say.
pub(super) fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
            return t(ru.ru_utime) + t(ru.ru_stime);
        }
    }
    0.0
}
