//! The subcommands: turning parsed arguments into library calls, results on stdout and statistics on stderr.

mod decode;
mod export;
mod generate;
mod info;
mod list;
mod merge;
mod render;
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

/// Stdout, or the file given with `--out`, buffered.
pub(crate) fn output(path: Option<&std::path::Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("{}: cannot create", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
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
