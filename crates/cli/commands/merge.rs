//! `cubesat merge`: adds up the shard records of a run after checking they make one complete
//! run, and words the commands that rerun missing shards (the library hands back a record's
//! command line as stored; [`crate::shell`] reads and quotes it); also what `solve --shard`
//! needs to write its record (the command line, CPU time).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use cubesat::shard::{self, ShardRecord};

use crate::args::{MergeArgs, MergeFormat};
use crate::shell;

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
        // An empty file holds no record: typically the shell's `> K.json` of a shard run that
        // failed before writing (a refused `--shard`). Skipping it cannot change the sum, since
        // every one of the N shards must still be there.
        if text.trim().is_empty() {
            eprintln!(
                "cubesat: warning: {}: empty (no shard record), skipped",
                f.display()
            );
            continue;
        }
        let rs = shard::parse_file(&text).map_err(|error| shard::MergeError::Record {
            file: f.clone(),
            error,
        })?;
        records.extend(rs.into_iter().map(|r| (f.clone(), r)));
    }
    match &args.seal_key_file {
        Some(path) => shard::check_seals(&records, &read_key(path)?)?,
        None if records.iter().any(|(_, r)| r.seal.is_some()) => eprintln!(
            "cubesat: note: the records are sealed with a key; give it with --seal-key-file to check that no one without it changed them"
        ),
        None => {}
    }
    // A run of several counting modes holds one record per mode in each shard's file: one
    // line each.
    let merged = shard::merge_modes(&records).map_err(rerun_advice)?;
    print_merged(&merged, args.format == MergeFormat::Json)?;
    Ok(Outcome::Found)
}

/// The merged counts on stdout, a line per mode: the count line a single run prints, or a
/// JSON object.
pub(super) fn print_merged(merged: &[shard::Merged], json: bool) -> Result<()> {
    let mut out = output(None)?;
    for m in merged {
        if json {
            writeln!(out, "{}", m.to_json())?;
        } else {
            let noun = if m.count == 1 {
                "solution"
            } else {
                "solutions"
            };
            writeln!(out, "{} {noun} {}", m.count, m.up_to.phrase())?;
        }
    }
    out.flush()?;
    Ok(())
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
/// missing shards. (A word that is not UTF-8 is kept with its bad bytes replaced.)
pub(super) fn command_line() -> String {
    let words: Vec<String> = std::iter::once("cubesat".to_string())
        // args_os: `args` panics on an argument that is not UTF-8 (a file name).
        .chain(
            std::env::args_os()
                .skip(1)
                .map(|w| w.to_string_lossy().into_owned()),
        )
        .collect();
    shell::join(&words)
}

/// [`command_line`] for shard `shard` alone, as a run of every shard into a folder
/// (`--shard all/N --into DIR`) runs it: `--shard K/N`, without `--into`, so that `merge`
/// hands back a command that reruns that one shard.
pub(super) fn shard_command_line(shard: cubesat_xc::Shard) -> String {
    let mut words = vec!["cubesat".to_string()];
    let mut args = std::env::args_os()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned());
    while let Some(w) = args.next() {
        match w.as_str() {
            "--shard" => {
                args.next();
                words.extend(["--shard".to_string(), shard.to_string()]);
            }
            "--into" => {
                args.next();
            }
            _ if w.starts_with("--shard=") => words.push(format!("--shard={shard}")),
            _ if w.starts_with("--into=") => {}
            _ => words.push(w),
        }
    }
    shell::join(&words)
}

/// The key in `path` for sealing shard records: its bytes less one trailing newline, at
/// least [`shard::MIN_KEY_BYTES`] and at most 4 KiB.
pub(super) fn read_key(path: &Path) -> Result<Vec<u8>> {
    const MAX: u64 = 4096;
    let shown = path.display();
    let mut key = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            std::fs::File::open(path).with_context(|| format!("{shown}: cannot read the key"))?,
            MAX + 1,
        ),
        &mut key,
    )
    .with_context(|| format!("{shown}: cannot read the key"))?;
    if key.len() as u64 > MAX {
        bail!("{shown}: a key file holds at most {MAX} bytes");
    }
    if key.ends_with(b"\n") {
        key.pop();
        if key.ends_with(b"\r") {
            key.pop();
        }
    }
    if key.len() < shard::MIN_KEY_BYTES {
        bail!(
            "{shown}: the key is {} bytes, fewer than the {} a seal needs (make one with: head -c 32 /dev/urandom | base64 > {shown})",
            key.len(),
            shard::MIN_KEY_BYTES
        );
    }
    Ok(key)
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

/// A merge error, with the commands that rerun the missing shards when shards are missing:
/// a Slurm array of exactly those, or GNU parallel repeating a present record's command.
fn rerun_advice(e: shard::MergeError) -> anyhow::Error {
    let shard::MergeError::Missing {
        missing,
        interrupted,
        shards,
        command,
    } = &e
    else {
        return e.into();
    };
    let mut s = format!(
        "{}; rerun exactly those: sbatch --array={} JOB_SCRIPT",
        shard::missing_summary(missing, interrupted, *shards),
        shard::shard_list(missing, ",")
    );
    match rerun_command(command, *shards) {
        Some(cmd) => {
            let list: Vec<String> = missing.iter().map(u32::to_string).collect();
            s.push_str(&format!(
                ", or: parallel {} ::: {}",
                shell::quote(&format!("{cmd} > {{}}.json")),
                list.join(" ")
            ));
        }
        None => s.push_str(
            " (the records' command line is not one cubesat writes, so it is not repeated here)",
        ),
    }
    anyhow::anyhow!(s)
}

/// A record's `command` with its shard argument replaced by `{}/N` (GNU parallel's
/// placeholder), each word quoted again; `None` when it is not a cubesat command line as
/// [`command_line`] writes it, so that nothing else a record holds reaches a shell.
fn rerun_command(command: &str, shards: u32) -> Option<String> {
    let mut words = shell::words(command)?;
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
    Some(shell::join(&words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rerun_commands_are_quoted_and_only_cubesats_own() {
        let cmd = "cubesat solve 'my file.json' --count --shard 3/8";
        assert_eq!(
            rerun_command(cmd, 8).as_deref(),
            Some("cubesat solve 'my file.json' --count --shard {}/8")
        );
        assert_eq!(
            rerun_command("cubesat solve x --shard=3/8", 8).as_deref(),
            Some("cubesat solve x --shard={}/8")
        );
        // A quote inside a quoted word, as records written by earlier versions hold it.
        assert_eq!(
            rerun_command(
                r#"cubesat solve 'my puzzle'\''s "copy".json' --shard=1/4"#,
                4
            )
            .as_deref(),
            Some(r#"cubesat solve 'my puzzle'\''s "copy".json' --shard={}/4"#)
        );
        for bad in [
            "cubesat solve x --shard 0/3; rm -rf ~",
            "cubesat solve $(x) --shard 0/3",
            "cubesat solve 'unclosed --shard 0/3",
            "cubesat  solve x --shard 0/3",
            "sh -c x --shard 0/3",
            "cubesat solve x --shard 0/3 \\n",
            "cubesat solve 'a\nb' --shard 0/3",
            "cubesat solve x --shard",
        ] {
            assert_eq!(rerun_command(bad, 3), None, "{bad}");
        }
    }
}
