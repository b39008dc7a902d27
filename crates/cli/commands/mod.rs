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

use std::io::{self, IsTerminal};
use std::path::Path;

use anyhow::{Context, Result};

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
