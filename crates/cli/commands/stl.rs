//! `cubesat stl`: STL files for 3D printing, one per piece and one of the first solution assembled (each piece its own closed shell, shrunk by the gap).

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::render::stl::{Mesh, binary_stl, polycube};
use cubesat::run::{self, Instance, RunOptions};
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

pub fn run(args: StlArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    // Check the sizes before anything is written.
    polycube(&[[0, 0, 0]], args.cube, args.gap)?;
    let inst = Instance::new(puzzle)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create", args.out.display()))?;
    let write = |name: &str, mesh: &Mesh| -> Result<()> {
        let path = args.out.join(name);
        let mut file = output(Some(&path))?;
        file.write_all(&binary_stl(mesh, name))?;
        file.finish()?;
        if !quiet {
            eprintln!(
                "cubesat: wrote {} ({} triangles, {:.1} mm3)",
                path.display(),
                mesh.triangles.len(),
                mesh.volume()
            );
        }
        Ok(())
    };
    for (i, piece) in inst.puzzle.pieces.iter().enumerate() {
        let mesh = polycube(piece.shape.cells(), args.cube, args.gap)?;
        write(
            &format!("piece-{}-{}.stl", i + 1, file_part(&piece.name)),
            &mesh,
        )?;
    }
    let mut first: Option<Solution> = None;
    let opts = RunOptions {
        limit: Some(1),
        up_to: cubesat::UpTo::Rotation,
        ..RunOptions::default()
    };
    run::list(&inst, &opts, |s| {
        first = Some(s.clone());
        false
    })?;
    let Some(sol) = first else {
        if !quiet {
            eprintln!("cubesat: no solution, so no solution.stl");
        }
        return Ok(Outcome::NoneFound);
    };
    let cells = inst.puzzle.target.cells();
    let mut mesh = Mesh::default();
    for &p in &sol.placements {
        let pl = &inst.table.placements()[p as usize];
        let pos: Vec<[i32; 3]> = pl.cells.iter().map(|&c| cells[c as usize].pos).collect();
        mesh.extend(polycube(&pos, args.cube, args.gap)?);
    }
    write("solution.stl", &mesh)?;
    Ok(Outcome::Found)
}
