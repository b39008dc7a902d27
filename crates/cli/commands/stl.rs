//! `cubesat stl`: STL files for 3D printing, one per piece and one of the first solution assembled (each piece its own closed shell, shrunk by the gap; on the sphere grid, balls fused along their contacts, `--cube` their diameter).

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::render::piece_mesh;
use cubesat::render::stl::{Mesh, binary_stl, polycube};
use cubesat::run::{self, Instance};
use cubesat::solution::Solution;

use crate::args::StlArgs;

use super::{Outcome, output};

/// A file-name-safe version of a piece name.
fn file_part(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The file of piece `i` (from 0) of `count` copies: `piece-K-NAME.stl`, K = i + 1 (so that
/// names that differ only in characters a file name cannot hold stay apart), with `-xN`
/// before the extension when N copies are to be printed.
fn piece_file(i: usize, name: &str, count: u32) -> String {
    let copies = if count > 1 {
        format!("-x{count}")
    } else {
        String::new()
    };
    format!("piece-{}-{}{copies}.stl", i + 1, file_part(name))
}

pub fn run(args: StlArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    // Check the sizes before anything is written.
    polycube(&[[0, 0, 0]], args.cube, args.gap)
        .with_context(|| format!("--cube {} --gap {}", args.cube, args.gap))?;
    let inst = Instance::new(puzzle)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create", args.out.display()))?;
    let write = |name: &str, what: &str, mesh: &Mesh| -> Result<()> {
        let path = args.out.join(name);
        let mut file = output(Some(&path))?;
        file.write_all(&binary_stl(mesh, what))?;
        file.finish()?;
        if !quiet {
            say!(
                "wrote {} ({what}; {} triangles, {:.1} mm3)",
                path.display(),
                mesh.triangles.len(),
                mesh.volume()
            );
        }
        Ok(())
    };
    for (i, piece) in inst.puzzle.pieces.iter().enumerate() {
        let mesh = piece_mesh(inst.puzzle.grid, piece.shape.cells(), args.cube, args.gap)?;
        // A ranged piece may be used up to its maximum: that many are printed.
        let what = match piece.count {
            1 => format!("piece '{}', print 1", piece.name),
            n => format!("piece '{}', print {n} copies", piece.name),
        };
        write(&piece_file(i, &piece.name, piece.count), &what, &mesh)?;
    }
    let mut first: Option<Solution> = None;
    run::list(&inst, &cubesat::plan::first_solution(), |s| {
        first = Some(s.clone());
        false
    })?;
    let Some(sol) = first else {
        if !quiet {
            say!("no solution, so no solution.stl");
        }
        return Ok(Outcome::NoneFound);
    };
    let cells = inst.puzzle.target.cells();
    let mut mesh = Mesh::default();
    for &p in &sol.placements {
        let pl = &inst.table.placements()[p as usize];
        let pos: Vec<[i32; 3]> = pl.cells.iter().map(|&c| cells[c as usize].pos).collect();
        mesh.extend(piece_mesh(inst.puzzle.grid, &pos, args.cube, args.gap)?);
    }
    write(
        "solution.stl",
        "the first solution assembled, one shell per piece",
        &mesh,
    )?;
    Ok(Outcome::Found)
}
