//! The cubesat binary: parses the command line, runs it, and maps the outcome to the exit code.
//!
//! Exit codes: 0 found, 1 none, 2 error, 3 unknown (an external solver's answer that settles
//! nothing), 130 interrupted. A closed stdout pipe ends the run quietly with 0.

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

/// Prints one line on stderr, `cubesat: ` and the formatted message, with the user text in it
/// escaped and cut (`cubesat::echo::line`): the one way the binary talks on stderr.
macro_rules! say {
    ($($arg:tt)+) => {
        eprintln!("cubesat: {}", cubesat::echo::line(&format!($($arg)+)))
    };
}

mod args;
mod commands;
mod output;
mod progress;
mod shell;
mod sink;

use args::Cli;
use commands::{Outcome, run};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(&e),
    };
    match run(cli) {
        Ok(Outcome::Found) => ExitCode::from(0),
        Ok(Outcome::NoneFound) => ExitCode::from(1),
        Ok(Outcome::Unknown) => ExitCode::from(3),
        Ok(Outcome::Interrupted) => ExitCode::from(130),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(0),
        Err(e) => {
            // The whole cause chain on one line.
            say!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A command line clap refused, as one error line with exit code 2 like any other bad input;
/// `--help` and `--version` print as clap prints them.
fn argument_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let see = format!("see '{} --help'", command_path());
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => e.exit(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let names: Vec<String> = Cli::command()
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .filter(|n| n != "help")
                .collect();
            say!("error: no command given ({}); {see}", names.join(", "));
        }
        _ => {
            // The values clap repeats are cut like any user text (see `cubesat::echo`).
            let mut text = e.render().to_string();
            for (_, value) in e.context() {
                if let clap::error::ContextValue::String(v) = value
                    && v.chars().count() > cubesat::echo::MAX_CHARS
                {
                    text = text.replace(v.as_str(), &cubesat::echo::echo(v).to_string());
                }
            }
            say!("error: {}; {see}", clap_line(&text));
        }
    }
    ExitCode::from(2)
}

/// clap's message on one line: its usage block and "For more information" line left out (the
/// caller points to `--help`), the lines of a list joined by commas, a tip after a semicolon.
fn clap_line(rendered: &str) -> String {
    let mut out = String::new();
    let mut in_usage = false;
    let mut in_list = false;
    for raw in rendered.lines() {
        let t = raw.trim();
        if t.starts_with("Usage:") {
            in_usage = true;
            continue;
        }
        if t.is_empty() {
            in_usage = false;
            continue;
        }
        if in_usage || t.starts_with("For more information") {
            continue;
        }
        let t = t.strip_prefix("error: ").unwrap_or(t);
        if out.is_empty() {
            out.push_str(t);
        } else if out.ends_with(':') {
            out.push(' ');
            out.push_str(t);
            in_list = true;
            continue;
        } else if t.starts_with('[') {
            out.push(' ');
            out.push_str(t);
        } else if in_list && !t.starts_with("tip:") {
            out.push_str(", ");
            out.push_str(t);
            continue;
        } else {
            out.push_str("; ");
            out.push_str(t);
        }
        in_list = false;
    }
    out
}

/// `cubesat SUBCOMMAND` for the subcommand the command line names, or `cubesat`.
fn command_path() -> String {
    let cmd = Cli::command();
    let sub = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .filter(|a| cmd.find_subcommand(a).is_some() && a != "help");
    match sub {
        Some(s) => format!("cubesat {s}"),
        None => "cubesat".to_string(),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
