//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

mod convert;
mod decode;
mod disassemble;
mod export;
mod generate;
mod info;
mod list;
mod merge;
mod render;
mod show;
mod solve;
mod stl;

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
        Command::Disassemble(args) => disassemble::run(args, quiet),
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

/// The largest solver answer, exported instance or JSON Lines file `decode` and `render`
/// read: the whole file is held in memory, so anything larger is refused before reading.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads a text input of at most [`MAX_INPUT_BYTES`], refusing a larger one before reading it;
/// `-` is stdin.
pub(crate) fn read_input(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        io::Read::read_to_string(
            &mut io::Read::take(io::stdin(), MAX_INPUT_BYTES + 1),
            &mut text,
        )
        .context("stdin: cannot read")?;
        if text.len() as u64 > MAX_INPUT_BYTES {
            anyhow::bail!("stdin: more than the {MAX_INPUT_BYTES} bytes cubesat reads");
        }
        return Ok(text);
    }
    let shown = path.display();
    let len = std::fs::metadata(path)
        .with_context(|| format!("{shown}: cannot read"))?
        .len();
    if len > MAX_INPUT_BYTES {
        anyhow::bail!(
            "{shown}: file is {len} bytes, more than the {MAX_INPUT_BYTES} bytes cubesat reads"
        );
    }
    let mut text = String::new();
    // Read through a limit as well: the file may grow after the size was checked.
    io::Read::read_to_string(
        &mut io::Read::take(
            std::fs::File::open(path).with_context(|| format!("{shown}: cannot read"))?,
            MAX_INPUT_BYTES + 1,
        ),
        &mut text,
    )
    .with_context(|| format!("{shown}: cannot read"))?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        anyhow::bail!("{shown}: more than the {MAX_INPUT_BYTES} bytes cubesat reads");
    }
    Ok(text)
}

/// The puzzle argument as the user typed it (a file or a bundled name), for messages about
/// what its run refused.
pub(crate) fn puzzle_source(arg: Option<&str>) -> &str {
    arg.unwrap_or(cubesat::puzzle::DEFAULT_PUZZLE)
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

/// The puzzle argument: a file (a BurrTools file's problem chosen by `--problem`), a bundled
/// name, `-` for a puzzle file on stdin, or none for the Tetris Cube.
pub(crate) fn load_puzzle(arg: &crate::args::PuzzleArg) -> Result<cubesat::Puzzle> {
    if arg.puzzle.as_deref() == Some("-") {
        let text = read_input(std::path::Path::new("-"))?;
        return cubesat::puzzle::json::parse_puzzle(&text, "stdin").context("stdin");
    }
    Ok(cubesat::puzzle::load_with(
        arg.puzzle.as_deref(),
        arg.problem.as_deref(),
    )?)
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
