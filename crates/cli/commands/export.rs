//! `cubesat export`: the instance for an external solver (DIMACS, DLX, clingo).

use anyhow::{Context, Result};
use std::io::Write;

use cubesat::counting::{Reducer, UpTo};
use cubesat::echo::echo;
use cubesat::run::Instance;

use crate::args::{ExportArgs, ExportFormat};

use super::{Outcome, output, puzzle_source};

/// `cubesat export`: the instance in the chosen format, with its provenance, to stdout or `--out`.
pub fn run(args: ExportArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    if args.format == ExportFormat::Xmpuzzle {
        let bytes = cubesat::interop::xmpuzzle::to_xmpuzzle(&puzzle)?;
        let mut out = output(args.out.as_deref())?;
        out.write_all(&bytes)?;
        out.finish()?;
        return Ok(Outcome::Found);
    }
    if puzzle.has_ranges() || puzzle.max_holes.is_some() {
        anyhow::bail!(
            "'{}' has piece ranges or a hole limit, which the dimacs, dlx and asp exports do not express; count it with `cubesat solve --count` or export --format xmpuzzle",
            echo(&puzzle.name)
        );
    }
    let inst = Instance::new(puzzle)?;
    let (puzzle, table) = (&inst.puzzle, &inst.table);
    let source = puzzle_source(args.puzzle.puzzle.as_deref());
    if args.up_to == UpTo::BurrTools {
        anyhow::bail!(
            "export counts every placement (--up-to none) or one solution per rotation class (--up-to rotation); BurrTools' count is left to `cubesat solve --count`"
        );
    }
    if args.up_to == UpTo::RotationReflection {
        anyhow::bail!(
            "{source}: export counts every placement (--up-to none) or, where one piece's restriction is exact, one solution per rotation class (--up-to rotation); reflections are left to `cubesat solve`"
        );
    }
    let reducer =
        Reducer::new(puzzle, table, args.up_to, false).with_context(|| source.to_string())?;
    if args.up_to == UpTo::Rotation && !reducer.restriction_is_exact() {
        anyhow::bail!(
            "{source}: '{}': the restriction an instance can carry does not leave exactly one solution per rotation class here ({}), so an external count would not be the count up to rotation; export with --up-to none, or count with `cubesat solve --count`",
            echo(&puzzle.name),
            reducer.describe(puzzle)
        );
    }
    let excluded = reducer.excluded();
    let reduction = reducer.describe(puzzle);
    let mut out = output(args.out.as_deref())?;
    match args.format {
        ExportFormat::Dimacs => {
            let header = cubesat::interop::dimacs::puzzle_header(
                puzzle, table, args.up_to, excluded, &reduction,
            )?;
            let labels = cubesat::interop::dimacs::placement_labels(puzzle, table);
            let config = cubesat_xc::encoding::CnfConfig {
                amo: args.amo,
                ..cubesat_xc::encoding::CnfConfig::default()
            };
            // The sizes are announced before the clauses are streamed out: a pairwise
            // encoding of a large puzzle runs to gigabytes.
            let amo = args.amo.name();
            cubesat::interop::dimacs::write(
                &mut out,
                |stats| {
                    if !quiet {
                        say!(
                            "DIMACS: {} option variables, {} variables, {} clauses ({amo} at-most-one)",
                            stats.option_vars,
                            stats.variables,
                            stats.clauses,
                        );
                    }
                },
                &inst.model,
                config,
                cubesat::interop::dimacs::Annotations {
                    header: &header,
                    labels: &labels,
                    projection: args.projection,
                },
                excluded,
            )?;
        }
        ExportFormat::Dlx => cubesat::interop::dlx::write_dlx(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
        ExportFormat::Xmpuzzle => unreachable!("written above"),
        ExportFormat::Asp => cubesat::interop::asp::write_asp(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
    }
    out.finish()?;
    Ok(Outcome::Found)
}
