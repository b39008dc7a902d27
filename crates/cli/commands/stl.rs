//! `cubesat stl`: STL files for 3D printing, one per piece and one of the first solution assembled (each piece its own closed shell, shrunk by the gap; on the sphere grid, balls fused along their contacts, `--cube` their diameter), meshed and named by the library ([`cubesat::render::mesh`]).

use std::io::Write;

use anyhow::{Context, Result};

use cubesat::render::mesh::{self, piece_file, piece_title, solution_mesh, solution_title};
use cubesat::render::piece_mesh;
use cubesat::render::stl::{Mesh, binary_stl};
use cubesat::run::{self, Instance};
use cubesat::solution::Solution;

use crate::args::StlArgs;

use super::{Outcome, output};

pub fn run(args: StlArgs, quiet: bool) -> Result<Outcome> {
    let puzzle = super::load_puzzle(&args.puzzle)?;
    // Check the sizes before anything is written.
    mesh::check_sizes(args.cube, args.gap)
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
        write(&piece_file(i, piece), &piece_title(piece), &mesh)?;
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
    let mesh = solution_mesh(
        &inst.puzzle,
        &inst.table,
        &sol.placements,
        args.cube,
        args.gap,
    )?;
    write("solution.stl", &solution_title(None), &mesh)?;
    Ok(Outcome::Found)
}
