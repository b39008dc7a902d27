//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

mod convert;
mod decode;
mod disassemble;
mod estimate;
mod export;
mod fill;
mod flags;
mod generate;
mod info;
mod list;
mod merge;
mod render;
mod show;
mod solve;
mod stl;
mod studio;

use std::ffi::OsStr;
use std::io::{self, IsTerminal};
use std::path::Path;

use anyhow::Result;

use crate::args::{Cli, ColorChoice, Command};
pub(crate) use crate::output::output;

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
    // Ctrl-C in any command removes the temporary `--out` files it is writing.
    crate::progress::install_handler();
    leaf_body_from_env()?;
    let quiet = cli.quiet;
    match cli.command {
        Command::Solve(args) => solve::run(args, quiet),
        Command::Info(args) => info::run(args),
        Command::List(args) => list::run(&args),
        Command::Render(args) => render::run(args),
        Command::Export(args) => export::run(args, quiet),
        Command::Decode(args) => decode::run(args, quiet),
        Command::Generate(args) => generate::run(&args, quiet),
        Command::Convert(args) => convert::run(args, quiet),
        Command::Stl(args) => stl::run(args, quiet),
        Command::Show(args) => show::run(args),
        Command::Merge(args) => merge::run(&args),
        Command::Disassemble(args) => disassemble::run(args, quiet),
        Command::Studio(args) => studio::run(&args, quiet),
        Command::Estimate(args) => estimate::run(&args, quiet),
    }
}

/// Forces the exact engine's leaf search body that `CUBESAT_SIMD` names (`portable`,
/// `popcnt`, `avx2`, `avx512`; unset or empty: the fastest this CPU runs), refusing a name it
/// does not know and a body this CPU cannot run.
fn leaf_body_from_env() -> Result<()> {
    use cubesat_xc::exact::{SimdBody, set_simd_body};
    let Some(value) = std::env::var_os("CUBESAT_SIMD") else {
        return Ok(());
    };
    if value.is_empty() {
        return Ok(());
    }
    let text = value.to_string_lossy();
    let body: SimdBody = text.parse().map_err(|_| {
        anyhow::anyhow!("CUBESAT_SIMD={text} is not a body: use portable, popcnt, avx2 or avx512")
    })?;
    let missing = body.missing();
    if !missing.is_empty() {
        anyhow::bail!(
            "CUBESAT_SIMD={text} but this CPU lacks {}",
            missing.join(", ")
        );
    }
    Ok(set_simd_body(Some(body))?)
}

pub(crate) fn found(any: bool) -> Outcome {
    if any {
        Outcome::Found
    } else {
        Outcome::NoneFound
    }
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
        let names = cubesat::echo::list(
            g.iter().map(|&i| format!("'{}'", p.pieces[i].name)),
            " and ",
        );
        say!(
            "warning: pieces {names} have the same shape, so solutions that only swap them count as different; list the shape once with \"count\": {} to count them as identical copies",
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
    cubesat::puzzle::open(arg).map_err(|e| match e.root() {
        // The library names no command; here the user learns where the names are.
        cubesat::Error::UnknownPuzzle { name, near } if near.is_empty() => anyhow::anyhow!(
            "'{}' is neither a file nor a bundled puzzle (`cubesat list` shows them)",
            cubesat::echo::echo(name)
        ),
        cubesat::Error::UnknownPuzzle { name, near } => anyhow::anyhow!(
            "'{}' is neither a file nor a bundled puzzle (did you mean {}? `cubesat list` shows them all)",
            cubesat::echo::echo(name),
            near.join(", ")
        ),
        _ => e.into(),
    })
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
