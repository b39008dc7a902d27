//! `cubesat generate`: a seeded puzzle with hint pieces, printed and optionally written as a puzzle file.

use std::io::Write;

use anyhow::Result;

use std::time::Instant;

use cubesat::generate::{Failure, GenerateOptions, generate};
use cubesat::report::plural;
use serde_json::json;

use crate::args::{GenerateArgs, GenerateFormat};

use super::{Outcome, output, use_color};

/// `cubesat generate`: prints the puzzle and solution (text or JSON) on stdout, writes the
/// puzzle file with `--out`, statistics on stderr.
pub fn run(args: &GenerateArgs, quiet: bool) -> Result<Outcome> {
    let start = Instant::now();
    let puzzle = args.puzzle.load()?;
    let opts = GenerateOptions {
        hints: args.hints,
        seed: args.seed,
        unique: args.unique,
        ..GenerateOptions::default()
    };
    let outcome = generate(puzzle, &opts).map_err(|e| match e.root() {
        cubesat::Error::Unsupported {
            request: cubesat::Request::Hints,
            ..
        } => anyhow::anyhow!("--hints {}: {e}", args.hints),
        _ => e.into(),
    })?;
    let mut out = output(None)?;
    match outcome {
        Ok(g) => {
            if let Some(path) = &args.out {
                let text = serde_json::to_string_pretty(&g.puzzle_json())?;
                let mut file = output(Some(path))?;
                writeln!(file, "{text}")?;
                file.finish()?;
            }
            match args.format {
                GenerateFormat::Text => {
                    let color = use_color(args.color, false);
                    write!(out, "{}", g.to_text(color))?;
                }
                GenerateFormat::Json => writeln!(out, "{}", g.to_json(&opts))?,
            }
            out.finish()?;
            if !quiet {
                eprintln!(
                    "cubesat: generated '{}': {} from seeded solution {} of {}; {}; difficulty {} nodes to the first solution ({} nodes to count); {} uniqueness checks ({:.3} s), {} greedy counts; {:.3} s",
                    g.instance.puzzle.name,
                    plural(opts.hints as u64, "hint piece"),
                    g.solution_index,
                    g.stats.solutions_drawn,
                    g.completions.describe(),
                    g.difficulty,
                    g.count_nodes,
                    g.stats.checks,
                    g.stats.check_time.as_secs_f64(),
                    g.stats.greedy_counts,
                    start.elapsed().as_secs_f64()
                );
            }
            Ok(Outcome::Found)
        }
        Err((failure, stats)) => {
            match args.format {
                GenerateFormat::Text => writeln!(out, "no puzzle: {}", failure.describe())?,
                GenerateFormat::Json => {
                    let mut v = json!({
                        "type": "none",
                        "reason": failure.describe(),
                        "seed": opts.seed,
                        "hints": opts.hints,
                    });
                    if let Failure::NotUnique {
                        smallest,
                        smallest_proven,
                        ..
                    } = failure
                    {
                        v["smallest_hints"] = json!(smallest);
                        v["smallest_proven"] = json!(smallest_proven);
                    }
                    writeln!(out, "{v}")?;
                }
            }
            out.finish()?;
            if !quiet {
                eprintln!(
                    "cubesat: no puzzle met the request: {} seeded solutions, {} uniqueness checks ({:.3} s), {} greedy counts; {:.3} s",
                    stats.solutions_drawn,
                    stats.checks,
                    stats.check_time.as_secs_f64(),
                    stats.greedy_counts,
                    start.elapsed().as_secs_f64()
                );
            }
            Ok(Outcome::NoneFound)
        }
    }
}
