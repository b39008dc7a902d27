//! Where a command's result goes: stdout, or the file given with `--out`, written to a
//! temporary file beside it that replaces it only when the command succeeds (an interrupted
//! run's partial result goes to a sibling instead), and stale temporary files of killed runs.
//!
//! A temporary file is named for its target and its writer,
//! `.TARGET.cubesat-tmp.HOST.PID.XXXXXX`, so that a user who finds one knows what it is, and so
//! that a later run can tell a stale one (its writer gone) from one in use. It holds an
//! exclusive `flock` for as long as it is written. A run that creates one in a folder first
//! removes the stale ones there: only names of exactly that form, of this host, whose process
//! no longer exists, whose lock is free, and that were last written [`STALE_AFTER`] ago.

use std::ffi::{CStr, CString};
use std::io::{self, BufWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tempfile::NamedTempFile;

/// The middle of a temporary file's name.
const TAG: &str = ".cubesat-tmp.";

/// How long a temporary file whose writer is gone must have been left untouched before a
/// later run removes it.
pub(crate) const STALE_AFTER: Duration = Duration::from_secs(600);

/// How many temporary files being written a forced exit can remove (a command writes one).
const MAX_LIVE: usize = 64;

/// Temporary files being written, removed by [`remove_temporaries`] when Ctrl-C forces an exit
/// (which runs no destructors): their paths as C strings, in slots a signal handler can read
/// without a lock. A path is never freed (a handler on another thread may be reading it).
static LIVE: [AtomicPtr<libc::c_char>; MAX_LIVE] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_LIVE];

/// Removes every temporary file still being written; for an exit that skips destructors.
/// Async-signal-safe (atomic loads and `unlink`): the Ctrl-C handler calls it.
pub(crate) fn remove_temporaries() {
    for slot in &LIVE {
        let p = slot.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: a non-null slot holds a C string that is never freed.
            unsafe { libc::unlink(p) };
        }
    }
}

/// Puts `path` in a free slot of [`LIVE`]; beyond [`MAX_LIVE`] files, a forced exit leaves
/// the others behind (a later run removes them as stale).
fn remember(path: &Path) {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return;
    };
    let p = c.into_raw();
    for slot in &LIVE {
        if slot
            .compare_exchange(std::ptr::null_mut(), p, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return;
        }
    }
    // SAFETY: `p` came from `into_raw` just above and was published nowhere.
    drop(unsafe { CString::from_raw(p) });
}

/// A temporary file in [`LIVE`] while it exists (deleted on drop, like the file itself).
pub(crate) struct Temp(Option<NamedTempFile>);

impl Temp {
    fn file(&mut self) -> io::Result<&mut NamedTempFile> {
        self.0
            .as_mut()
            .ok_or_else(|| io::Error::other("the temporary file is already closed"))
    }

    /// Syncs the file and renames it to `to`.
    fn persist(mut self, to: &Path) -> io::Result<()> {
        let tmp = self.file()?;
        tmp.as_file().sync_all()?;
        let tmp = self.0.take().expect("checked above");
        forget(tmp.path());
        tmp.persist(to).map(|_| ()).map_err(|e| e.error)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(t) = &self.0 {
            forget(t.path());
        }
    }
}

/// Takes `path` out of [`LIVE`] (its string stays allocated; see there).
fn forget(path: &Path) {
    let bytes = path.as_os_str().as_bytes();
    for slot in &LIVE {
        let p = slot.load(Ordering::Acquire);
        // SAFETY: a non-null slot holds a C string that is never freed.
        if !p.is_null() && unsafe { CStr::from_ptr(p) }.to_bytes() == bytes {
            let _ =
                slot.compare_exchange(p, std::ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire);
            return;
        }
    }
}

impl Write for Temp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

/// Stdout, or a file given with `--out` (see the module documentation).
pub(crate) enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A temporary file that becomes `path` on success (deleted if dropped before).
    File {
        file: BufWriter<Temp>,
        path: PathBuf,
    },
    /// A path that is not a regular file (`/dev/stdout`, a pipe): written in place.
    Special {
        file: BufWriter<std::fs::File>,
        path: PathBuf,
    },
}

impl Output {
    /// Flushes, and for a file puts it in place.
    pub(crate) fn finish(self) -> Result<()> {
        self.finish_as(|p| p.to_path_buf()).map(|_| ())
    }

    /// For an interrupted run: flushes, and puts a file's partial result beside the target
    /// ([`partial_path`]), leaving the target as it was. Returns where the result went when it
    /// did not go where `--out` said.
    pub(crate) fn finish_interrupted(self) -> Result<Option<PathBuf>> {
        self.finish_as(partial_path)
    }

    fn finish_as(self, place: impl Fn(&Path) -> PathBuf) -> Result<Option<PathBuf>> {
        match self {
            Output::Stdout(mut w) => {
                w.flush()?;
                Ok(None)
            }
            Output::Special { mut file, path } => {
                file.flush()
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                Ok(None)
            }
            Output::File { file, path } => {
                let to = place(&path);
                let shown = to.display().to_string();
                let tmp = file
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("{shown}: cannot write"))?;
                tmp.persist(&to)
                    .with_context(|| format!("{shown}: cannot write"))?;
                Ok((to != path).then_some(to))
            }
        }
    }

    /// An error writing to a file names the file (kept of its kind, so that a closed pipe is
    /// still recognised).
    fn named(&self, e: io::Error) -> io::Error {
        match self {
            Output::Stdout(_) => e,
            Output::File { path, .. } | Output::Special { path, .. } => {
                io::Error::new(e.kind(), format!("{}: {e}", path.display()))
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = match self {
            Output::Stdout(w) => w.write(buf),
            Output::File { file, .. } => file.write(buf),
            Output::Special { file, .. } => file.write(buf),
        };
        r.map_err(|e| self.named(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        let r = match self {
            Output::Stdout(w) => w.flush(),
            Output::File { file, .. } => file.flush(),
            Output::Special { file, .. } => file.flush(),
        };
        r.map_err(|e| self.named(e))
    }
}

/// Where an interrupted run's partial result goes instead of `path`: `.partial` before the
/// extension (`all.json` → `all.partial.json`), so the file still opens as its kind.
pub(crate) fn partial_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let name = match (stem, path.extension()) {
        (Some(stem), Some(ext)) => format!("{stem}.partial.{}", ext.to_string_lossy()),
        (Some(stem), None) => format!("{stem}.partial"),
        (None, _) => "cubesat-output.partial".to_string(),
    };
    path.with_file_name(name)
}

/// This host's name as it appears in temporary files' names (characters other than letters,
/// digits, `-` and `_` dropped).
fn host() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into the buffer it is given.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name: String = String::from_utf8_lossy(&buf[..if ok { end } else { 0 }])
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if name.is_empty() {
        "host".to_string()
    } else {
        name
    }
}

/// Whether process `pid` exists on this host.
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The writer's pid, when `name` is a temporary file of ours on `host`:
/// `.TARGET.cubesat-tmp.HOST.PID.XXXXXX` with six letters or digits at the end.
fn temporary_of(name: &str, host: &str) -> Option<u32> {
    let (rest, random) = name.strip_prefix('.')?.rsplit_once('.')?;
    if random.len() != 6 || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let (rest, pid) = rest.rsplit_once('.')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let target = rest.strip_suffix(host)?.strip_suffix(TAG)?;
    if target.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Removes the stale temporary files of killed runs in `dir` (see the module documentation)
/// and says so on stderr.
fn remove_stale(dir: &Path, host: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temporary_of(name, host) else {
            continue;
        };
        if alive(pid) {
            continue;
        }
        let path = e.path();
        let old = std::fs::symlink_metadata(&path).is_ok_and(|m| {
            m.file_type().is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age >= STALE_AFTER)
        });
        if !old {
            continue;
        }
        // A writer holds the lock for as long as it writes (a process of another pid
        // namespace on this host, say): a free lock is the last word that it is gone.
        let Ok(f) = std::fs::File::open(&path) else {
            continue;
        };
        // SAFETY: flock on a file descriptor this function owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            eprintln!(
                "cubesat: note: removed {}, the temporary file of a cubesat run (process {pid}) that was killed",
                path.display()
            );
        }
    }
}

/// Stdout, or the file given with `--out` (see [`Output`]).
pub(crate) fn output(path: Option<&Path>) -> Result<Output> {
    let Some(p) = path else {
        return Ok(Output::Stdout(BufWriter::new(io::stdout().lock())));
    };
    if std::fs::metadata(p).is_ok_and(|m| !m.is_file()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .with_context(|| format!("{}: cannot open", p.display()))?;
        return Ok(Output::Special {
            file: BufWriter::new(file),
            path: p.to_path_buf(),
        });
    }
    let Some(name) = p.file_name() else {
        bail!("{}: names a folder, not a file", p.display());
    };
    if p.as_os_str().as_encoded_bytes().ends_with(b"/") {
        bail!("{}: names a folder, not a file", p.display());
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let host = host();
    remove_stale(dir, &host);
    // The file keeps the mode of the one it replaces; a new one gets the usual 0666 less the
    // umask (a temporary file would otherwise stay private, 0600).
    let mode = std::fs::metadata(p).map_or(0o666, |m| {
        std::os::unix::fs::PermissionsExt::mode(&m.permissions())
    });
    // The target's name, shortened so the whole name stays within the usual 255 bytes.
    let target: String = name.to_string_lossy().chars().take(100).collect();
    let prefix = format!(".{target}{TAG}{host}.{}.", std::process::id());
    let tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .rand_bytes(6)
        .make_in(dir, |path| {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode)
                .open(path)?;
            // SAFETY: flock on the descriptor of the file just opened.
            unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            Ok(f)
        })
        .with_context(|| format!("{}: cannot create a file in {}", p.display(), dir.display()))?;
    remember(tmp.path());
    Ok(Output::File {
        file: BufWriter::new(Temp(Some(tmp))),
        path: p.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised_exactly() {
        let name = |t: &str| format!(".{t}{TAG}node-1.4242.aB3xY9");
        assert_eq!(temporary_of(&name("all.json"), "node-1"), Some(4242));
        assert_eq!(temporary_of(&name("a.b.c"), "node-1"), Some(4242));
        assert_eq!(temporary_of(&name("all.json"), "node-2"), None);
        assert_eq!(temporary_of(&name(""), "node-1"), None);
        for other in [
            ".all.json.cubesat-tmp.node-1.4242.aB3xY",
            ".all.json.cubesat-tmp.node-1.42x2.aB3xY9",
            "all.json.cubesat-tmp.node-1.4242.aB3xY9",
            ".all.json.cubesat-tmp.node-1..aB3xY9",
            ".cubesat-4N4o4W",
            ".all.json.cubesat-tm.node-1.4242.aB3xY9",
        ] {
            assert_eq!(temporary_of(other, "node-1"), None, "{other}");
        }
    }

    /// A forced exit removes the temporary files remembered and not forgotten, and only those.
    #[test]
    fn a_forced_exit_removes_the_files_being_written() {
        let dir = tempfile::tempdir().unwrap();
        let [kept, written] = ["kept", "written"].map(|n| dir.path().join(n));
        for p in [&kept, &written] {
            std::fs::write(p, "x").unwrap();
            remember(p);
        }
        forget(&kept);
        remove_temporaries();
        assert!(kept.exists(), "a file forgotten (renamed into place) stays");
        assert!(!written.exists(), "a file still being written is removed");
        forget(&written);
        assert!(
            LIVE.iter().all(|s| s.load(Ordering::Acquire).is_null()),
            "every slot is free again"
        );
    }

    #[test]
    fn partial_results_go_beside_the_target() {
        assert_eq!(
            partial_path(Path::new("r/all.json")),
            Path::new("r/all.partial.json")
        );
        assert_eq!(partial_path(Path::new("count")), Path::new("count.partial"));
        assert_eq!(
            partial_path(Path::new("/x/.hidden")),
            Path::new("/x/.hidden.partial")
        );
    }
}
