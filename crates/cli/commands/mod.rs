//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

mod decode;
mod export;
mod generate;
mod info;
mod list;
mod render;
mod show;
mod solve;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};

use anyhow::{Context, Result};

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
        Command::Show(args) => show::run(args),
    }
}

pub(crate) fn found(any: bool) -> Outcome {
    if any {
        Outcome::Found
    } else {
        Outcome::NoneFound
    }
}

/// Stdout, or the file given with `--out`, buffered.
pub(crate) fn output(path: Option<&std::path::Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("{}: cannot create", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
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

/// The puzzle argument: a file, a bundled name, `-` for a puzzle file on stdin, or none for
/// the Tetris Cube.
pub(crate) fn load_puzzle(arg: Option<&str>) -> Result<cubesat::Puzzle> {
    if arg == Some("-") {
        let text = read_input(std::path::Path::new("-"))?;
        return cubesat::puzzle::json::parse_puzzle(&text, "stdin").context("stdin");
    }
    Ok(cubesat::puzzle::load(arg)?)
}

/// The text of a file argument, `-` being stdin.
pub(crate) fn read_input(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    if path.as_os_str() == "-" {
        let mut s = String::new();
        io::stdin()
            .read_to_string(&mut s)
            .context("stdin: cannot read")?;
        return Ok(s);
    }
    std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))
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
