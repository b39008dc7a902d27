//! The cubesat binary: parses the command line, runs it, and maps the outcome to the exit code.
//!
//! Exit codes: 0 found, 1 none, 2 error, 3 unknown (an external solver's answer that settles
//! nothing), 130 interrupted. A closed stdout pipe ends the run quietly with 0.

use std::io;
use std::process::ExitCode;

use clap::Parser;

mod args;
mod commands;
mod output;
mod progress;
mod sink;

use args::Cli;
use commands::{Outcome, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(Outcome::Found) => ExitCode::from(0),
        Ok(Outcome::NoneFound) => ExitCode::from(1),
        Ok(Outcome::Unknown) => ExitCode::from(3),
        Ok(Outcome::Interrupted) => ExitCode::from(130),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(0),
        Err(e) => {
            // The whole cause chain on one line; user text echoed in it (a piece name, a
            // line of a file) may hold control characters, which are escaped.
            eprintln!("cubesat: error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// `s` with every control character escaped (`\n`, `\t`, `\u{1b}`), so that it prints
/// as one line and cannot drive the terminal.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
