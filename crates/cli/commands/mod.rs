//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

mod convert;
mod decode;
mod export;
mod generate;
mod info;
mod list;
mod merge;
mod render;
mod show;
mod solve;
mod stl;

use std::ffi::OsStr;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tempfile::NamedTempFile;

use crate::args::{Cli, ColorChoice, Command};

/// How a command ended; `main` maps it to the documented exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Something was found, printed or written (exit 0).
    Found,
    /// No solution (exit 1).
    NoneFound,
    /// An external solver's answer that neither gives a solution nor proves there is none:
    /// an unfinished, killed or empty run (exit 3).
    Unknown,
    /// Ctrl-C stopped the run after printing what it had (exit 130).
    Interrupted,
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<Outcome> {
    let quiet = cli.quiet;
    match cli.command {
        Command::Solve(args) => solve::run(args, quiet),
        Command::Info(args) => info::run(args),
        Command::List => list::run(),
        Command::Render(args) => render::run(args),
        Command::Export(args) => export::run(args, quiet),
        Command::Decode(args) => decode::run(args, quiet),
        Command::Generate(args) => generate::run(&args, quiet),
        Command::Convert(args) => convert::run(args, quiet),
        Command::Stl(args) => stl::run(args, quiet),
        Command::Show(args) => show::run(args),
        Command::Merge(args) => merge::run(&args),
    }
}

pub(crate) fn found(any: bool) -> Outcome {
    if any {
        Outcome::Found
    } else {
        Outcome::NoneFound
    }
}

/// Where a command's result goes: stdout, or the file given with `--out`, which is written
/// to a temporary file beside it and renamed over it only by [`Output::finish`], so that an
/// existing file is never left half-written (an error, a full disk, Ctrl-C).
pub(crate) enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A temporary file that becomes `path` on success (deleted if dropped before).
    File {
        file: BufWriter<NamedTempFile>,
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
        match self {
            Output::Stdout(mut w) => Ok(w.flush()?),
            Output::Special { mut file, path } => file
                .flush()
                .with_context(|| format!("{}: cannot write", path.display())),
            Output::File { file, path } => {
                let shown = path.display().to_string();
                let tmp = file
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("{shown}: cannot write"))?;
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("{shown}: cannot write"))?;
                tmp.persist(&path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("{shown}: cannot replace"))?;
                Ok(())
            }
        }
    }
}

impl Output {
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

/// Stdout, or the file given with `--out` (see [`Output`]).
pub(crate) fn output(path: Option<&Path>) -> Result<Output> {
    Ok(match path {
        Some(p) if std::fs::metadata(p).is_ok_and(|m| !m.is_file()) => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(p)
                .with_context(|| format!("{}: cannot open", p.display()))?;
            Output::Special {
                file: BufWriter::new(file),
                path: p.to_path_buf(),
            }
        }
        Some(p) => {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            // The file keeps the mode of the one it replaces; a new one gets the usual
            // 0666 less the umask (a temporary file would otherwise stay private, 0600).
            let mode = std::fs::metadata(p)
                .map(|m| m.permissions())
                .unwrap_or_else(|_| std::os::unix::fs::PermissionsExt::from_mode(0o666));
            let tmp = tempfile::Builder::new()
                .prefix(".cubesat-")
                .permissions(mode)
                .tempfile_in(dir)
                .with_context(|| format!("{}: cannot create", p.display()))?;
            Output::File {
                file: BufWriter::new(tmp),
                path: p.to_path_buf(),
            }
        }
        None => Output::Stdout(BufWriter::new(io::stdout().lock())),
    })
}

/// The largest solver answer, exported instance, JSON Lines file or shard record `decode`,
/// `render` and `merge` read: a larger one is refused, a regular file before it is read, any
/// other source (stdin, a FIFO) when reading reaches the bound.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 << 20;

/// How an input path is named in messages: `stdin` for `-`, else the path (lossily, if it
/// is not UTF-8).
pub(crate) fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads an input of at most `limit` bytes, once; `-` is stdin.
pub(crate) fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>> {
    Ok(if path.as_os_str() == "-" {
        cubesat::input::read_bounded(io::stdin().lock(), limit, "stdin")?
    } else {
        cubesat::input::read_file(path, limit)?
    })
}

/// Reads a text input of at most [`MAX_INPUT_BYTES`], once; `-` is stdin. Text that is not
/// UTF-8 is refused with the line and column of the first bad byte.
pub(crate) fn read_input(path: &Path) -> Result<String> {
    let bytes = read_bytes(path, MAX_INPUT_BYTES)?;
    match cubesat::input::text(&bytes) {
        Ok(_) => Ok(String::from_utf8(bytes).expect("checked to be UTF-8")),
        Err(e) => Err(e.in_file(shown(path)).into()),
    }
}

/// The puzzle argument as the user typed it (a file or a bundled name), for messages about
/// what its run refused.
pub(crate) fn puzzle_source(arg: Option<&OsStr>) -> std::borrow::Cow<'_, str> {
    arg.map_or(
        cubesat::puzzle::DEFAULT_PUZZLE.into(),
        OsStr::to_string_lossy,
    )
}

/// One warning line on stderr per group of pieces with the same shape under different names:
/// solutions that swap them count as different though nobody can tell them apart.
pub(crate) fn warn_same_shapes(p: &cubesat::Puzzle) {
    for g in p.same_shapes() {
        let names: Vec<String> = g
            .iter()
            .map(|&i| format!("'{}'", p.pieces[i].name))
            .collect();
        eprintln!(
            "cubesat: warning: pieces {} have the same shape, so solutions that only swap them count as different; list the shape once with \"count\": {} to count them as identical copies",
            names.join(" and "),
            g.iter().map(|&i| p.pieces[i].count).sum::<u32>()
        );
    }
}

/// The puzzle argument, read once: a file (cubesat JSON or BurrTools, told apart by the
/// extension or the content), a bundled name, `-` for a puzzle file on stdin (at most
/// [`cubesat::puzzle::MAX_FILE_BYTES`]), or none for the Tetris Cube.
pub(crate) fn open_puzzle(arg: Option<&OsStr>) -> Result<cubesat::puzzle::PuzzleFile> {
    if arg == Some(OsStr::new("-")) {
        let bytes = read_bytes(Path::new("-"), cubesat::puzzle::MAX_FILE_BYTES)?;
        return Ok(cubesat::puzzle::PuzzleFile::parse(
            &bytes,
            Path::new("stdin"),
        )?);
    }
    Ok(cubesat::puzzle::open(arg)?)
}

/// The puzzle argument's puzzle (see [`open_puzzle`]); a BurrTools file's problem is chosen
/// by `--problem`.
pub(crate) fn load_puzzle(arg: &crate::args::PuzzleArg) -> Result<cubesat::Puzzle> {
    Ok(open_puzzle(arg.puzzle.as_deref())?.puzzle(arg.problem.as_deref())?)
}

/// Whether text output gets ANSI colour.
pub(crate) fn use_color(choice: ColorChoice, to_file: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            !to_file && io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    }
}
