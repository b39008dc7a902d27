//! `cubesat decode`: an external solver's answer read back as verified solutions.

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::interop::Status;
use cubesat::interop::answer::{Decoded, InstanceKind};
use cubesat::report::{plural, summary_json};
use cubesat::run::RunReport;
use serde_json::json;

use crate::args::{DecodeArgs, SolutionFormat};
use crate::sink;

use super::{Outcome, found, output, read_input, use_color};

/// `cubesat decode INSTANCE ANSWER`: the answer's solutions, each verified, in the chosen
/// format.
pub fn run(args: DecodeArgs, quiet: bool) -> Result<Outcome> {
    let instance = read_input(&args.instance)?;
    let answer = read_input(&args.answer)?;
    let d = cubesat::interop::answer::decode(&instance, &answer)
        .with_context(|| format!("{} with {}", args.instance.display(), args.answer.display()))?;
    let color = use_color(args.color, false);
    let mut out = output(None)?;
    let mut sink = sink::sink(args.format, color, false);
    sink::show_all(&mut *sink, &mut out, &d.puzzle, &d.table, &d.solutions)?;
    // Only a solver that says UNSATISFIABLE proves there is no solution; an answer without a
    // verdict (killed, unfinished, empty) settles nothing and says so.
    let unknown = d.solutions.is_empty() && d.status != Status::Unsat;
    match args.format {
        SolutionFormat::Text if unknown => writeln!(
            out,
            "unknown: the answer gives no solution and no verdict (an unfinished, killed or empty solver run)"
        )?,
        SolutionFormat::Text if d.solutions.is_empty() => {
            writeln!(out, "no solution (the solver proved it)")?
        }
        SolutionFormat::Json => writeln!(out, "{}", summary(&d))?,
        _ => {}
    }
    out.finish()?;
    if !quiet {
        if d.repeats > 0 {
            say!(
                "note: {} of the answer repeat the placements of an earlier model (they differ only in auxiliary variables); each solution is counted once",
                plural(d.repeats, "model")
            );
        }
        // Only an answer that says its list is whole gives a count; any other (a killed
        // enumeration, one stopped at --maxsol, a solver that stops at the first) a lower bound.
        let whole = d.complete == Some(true) || d.status == Status::Unsat;
        let so_far = match d.complete {
            _ if whole => "",
            Some(false) => {
                " so far: incomplete, the solver says there are more solutions than it listed"
            }
            _ => {
                " so far: incomplete as far as the answer says (it does not end by saying the list is complete: an enumeration killed or stopped at a limit, or a solver that stops at the first solution)"
            }
        };
        say!(
            "decoded {} from {} answer ({}); each verified; {} counted {}{so_far}",
            plural(d.solutions.len() as u64, "solution"),
            kind_name(d.kind),
            status_name(d.status),
            d.counted(),
            d.mode.phrase()
        );
    }
    Ok(if unknown {
        Outcome::Unknown
    } else {
        found(!d.solutions.is_empty())
    })
}

/// "a DIMACS", "a DLX", "an ASP".
fn kind_name(k: InstanceKind) -> &'static str {
    match k {
        InstanceKind::Dimacs => "a DIMACS",
        InstanceKind::Dlx => "a DLX",
        InstanceKind::Asp => "an ASP",
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Sat => "satisfiable",
        Status::Unsat => "unsatisfiable",
        Status::Unknown => "no verdict",
    }
}

/// The summary line of the JSON Lines schema, so `cubesat render` reads decoded solutions as
/// it reads `solve --format json`; `status` and `complete` say what the solver said.
fn summary(d: &Decoded) -> serde_json::Value {
    let report = RunReport {
        engine: format!(
            "external ({})",
            kind_name(d.kind).split(' ').nth(1).unwrap_or("")
        ),
        count: d.solutions.len() as u64,
        raw: d.solutions.len() as u64,
        nodes: None,
        limited: false,
        interrupted: false,
        description: d.mode.phrase().to_string(),
        elapsed: std::time::Duration::ZERO,
        refutation: None,
        also: Vec::new(),
    };
    let mut v = summary_json(&d.puzzle, &report, &d.mode.to_string(), false);
    v["status"] = json!(status_name(d.status));
    v["complete"] = json!(d.complete.unwrap_or(d.status == Status::Unsat));
    v["counted_solutions"] = json!(d.counted());
    v
}
