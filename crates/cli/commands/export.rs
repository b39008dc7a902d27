//! `cubesat export`: the instance for an external solver (DIMACS, DLX, clingo).

use std::io::Write;

use anyhow::Result;

use cubesat::counting::{Reducer, UpTo};
use cubesat::run::Instance;

use crate::args::{ExportArgs, ExportFormat};

use super::{Outcome, output};

/// A placement described for comments: piece, orientation and cells in container coordinates.
fn placement_label(inst: &Instance, o: usize) -> String {
    let p = &inst.table.placements()[o];
    let t = &inst.puzzle.target;
    let cells: Vec<String> = p
        .cells
        .iter()
        .map(|&c| {
            let (ci, l) = t.local(c);
            if t.containers().len() > 1 {
                format!("{ci}:{},{},{}", l[0], l[1], l[2])
            } else {
                format!("{},{},{}", l[0], l[1], l[2])
            }
        })
        .collect();
    format!(
        "piece={} orient={} cells={}",
        inst.puzzle.pieces[p.piece as usize].name,
        p.orientation,
        cells.join(" ")
    )
}

pub fn run(args: ExportArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = args.puzzle.load()?;
    if args.format == ExportFormat::Xmpuzzle {
        let bytes = cubesat::interop::xmpuzzle::to_xmpuzzle(&puzzle)?;
        let mut out = output(args.out.as_deref())?;
        out.write_all(&bytes)?;
        out.flush()?;
        return Ok(Outcome::Found);
    }
    if puzzle.has_ranges() || puzzle.max_holes.is_some() {
        anyhow::bail!(
            "'{}' has piece ranges or a hole limit, which the dimacs, dlx and asp exports do not express; count it with `cubesat solve --count` or export --format xmpuzzle",
            puzzle.name
        );
    }
    let inst = Instance::new(puzzle)?;
    let (puzzle, table) = (&inst.puzzle, &inst.table);
    if args.up_to == UpTo::BurrTools {
        anyhow::bail!(
            "export counts every placement (--up-to none) or one solution per rotation class (--up-to rotation); BurrTools' count is left to `cubesat solve --count`"
        );
    }
    if args.up_to == UpTo::RotationReflection {
        anyhow::bail!(
            "export counts every placement (--up-to none) or, where one piece's restriction is exact, one solution per rotation class (--up-to rotation); reflections are left to `cubesat solve`"
        );
    }
    let reducer = Reducer::new(puzzle, table, args.up_to, false)?;
    if args.up_to == UpTo::Rotation && !reducer.restriction_is_exact() {
        anyhow::bail!(
            "'{}': restricting one piece does not leave exactly one solution per rotation class here ({}), so an external count would not be the count up to rotation; export with --up-to none, or count with `cubesat solve --count`",
            puzzle.name,
            reducer.describe(puzzle)
        );
    }
    let excluded = reducer.excluded();
    let reduction = reducer.describe(puzzle);
    let mut out = output(args.out.as_deref())?;
    match args.format {
        ExportFormat::Dimacs => {
            let mut prov = Vec::new();
            cubesat::interop::provenance::write_header(
                &mut prov, "", puzzle, table, args.up_to, excluded,
            )?;
            let mut header = vec![
                format!("DIMACS CNF written by cubesat {} for the puzzle '{}'.", env!("CARGO_PKG_VERSION"), puzzle.name),
                format!("Models are the puzzle's solutions, counted: {reduction}."),
                "Variable v (1-based) is placement v-1 (map below); higher variables are auxiliary.".to_string(),
                "Project model counts on the 'c p show' / 'c ind' variables. Decode answers with: cubesat decode THIS-FILE ANSWER".to_string(),
            ];
            header.extend(String::from_utf8_lossy(&prov).lines().map(str::to_string));
            let labels: Vec<String> = (0..table.len())
                .map(|o| placement_label(&inst, o))
                .collect();
            let config = cubesat_xc::encoding::CnfConfig {
                amo: args.amo,
                ..cubesat_xc::encoding::CnfConfig::default()
            };
            let stats = cubesat::interop::dimacs::write(
                &mut out,
                &inst.model,
                config,
                &header,
                &labels,
                excluded,
            )?;
            if !quiet {
                eprintln!(
                    "cubesat: DIMACS: {} option variables, {} variables, {} clauses ({} at-most-one)",
                    stats.option_vars,
                    stats.variables,
                    stats.clauses,
                    args.amo.name()
                );
            }
        }
        ExportFormat::Dlx => cubesat::interop::dlx::write_dlx(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
        ExportFormat::Xmpuzzle => unreachable!("written above"),
        ExportFormat::Asp => cubesat::interop::asp::write_asp(
            &mut out, puzzle, table, args.up_to, excluded, &reduction,
        )?,
    }
    out.flush()?;
    Ok(Outcome::Found)
}
