//! `cubesat export`: the instance for an external solver (DIMACS, DLX, clingo), a BurrTools
//! file or a placement list, written by the library ([`cubesat::interop::Export`]); here only
//! the wording.

use anyhow::Result;

use cubesat::counting::UpTo;
use cubesat::echo::echo;
use cubesat::interop::Export;
use cubesat::plan::{ExportError, ExportSettings, PlanError};

use crate::args::ExportArgs;

use super::{Outcome, output, puzzle_source};

/// `cubesat export`: the instance in the chosen format, with its provenance, to stdout or `--out`.
pub fn run(args: ExportArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    let source = puzzle_source(args.puzzle.puzzle.as_deref());
    let name = echo(&puzzle.name).to_string();
    let settings = ExportSettings {
        up_to: args.up_to,
        amo: args.amo,
        projection: args.projection,
    };
    let export = Export::new(puzzle, args.format, settings).map_err(|e| match e {
        ExportError::Plan(e) => flag_error(&e, &source, &name),
        ExportError::Library(e) => anyhow::Error::new(e).context(source.to_string()),
    })?;
    let mut out = output(args.out.as_deref())?;
    // The sizes are announced before the clauses are streamed out: a pairwise encoding of a
    // large puzzle runs to gigabytes.
    let amo = args.amo.name();
    export.write(&mut out, |stats| {
        if !quiet {
            say!(
                "DIMACS: {} option variables, {} variables, {} clauses ({amo} at-most-one)",
                stats.option_vars,
                stats.variables,
                stats.clauses,
            );
        }
    })?;
    out.finish()?;
    Ok(Outcome::Found)
}

/// A refusal of the export's rules, worded with the flags and commands that do what the
/// export cannot.
fn flag_error(e: &PlanError, source: &str, name: &str) -> anyhow::Error {
    match e {
        PlanError::ExportMode {
            up_to: UpTo::BurrTools,
        } => anyhow::anyhow!(
            "export counts every placement (--up-to none) or one solution per rotation class (--up-to rotation); BurrTools' count is left to `cubesat solve --count`"
        ),
        PlanError::ExportMode { .. } => anyhow::anyhow!(
            "{source}: export counts every placement (--up-to none) or, where one piece's restriction is exact, one solution per rotation class (--up-to rotation); reflections are left to `cubesat solve`"
        ),
        PlanError::ExportInexact { reduction, .. } => anyhow::anyhow!(
            "{source}: '{name}': the restriction an instance can carry does not leave exactly one solution per rotation class here ({reduction}), so an external count would not be the count up to rotation; export with --up-to none, or count with `cubesat solve --count`"
        ),
        other => anyhow::anyhow!("{source}: {other}"),
    }
}
