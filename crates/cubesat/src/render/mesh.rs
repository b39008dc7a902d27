//! What a front end prints in 3D, on any grid: a solution's mesh (every piece its own closed
//! body, [`super::piece_mesh`] on the puzzle's grid), the names and header lines of the STL
//! files, and the size check, so that the command line and the studio write the same bytes.

use crate::error::Result;
use crate::placements::PlacementTable;
use crate::puzzle::{Piece, Puzzle};

use super::piece_mesh;
use super::stl::Mesh;

/// Checks a cell size (the cube edge or ball diameter, mm) and a clearance gap (mm) before
/// anything is meshed or written: the checks every mesh makes.
pub fn check_sizes(size: f64, gap: f64) -> Result<()> {
    super::stl::check_sizes(size, gap)
}

/// The mesh of a solution on the puzzle's grid: every placement's piece in its place, its own
/// closed body (cubes, or balls fused along their contacts), shrunk by `gap`; `size` is the
/// cube edge or ball diameter (mm).
pub fn solution_mesh(
    puzzle: &Puzzle,
    table: &PlacementTable,
    placements: &[u32],
    size: f64,
    gap: f64,
) -> Result<Mesh> {
    let cells = puzzle.target.cells();
    let mut mesh = Mesh::default();
    for &o in placements {
        let pl = &table.placements()[o as usize];
        let pos: Vec<[i32; 3]> = pl.cells.iter().map(|&c| cells[c as usize].pos).collect();
        mesh.extend(piece_mesh(puzzle.grid, &pos, size, gap)?);
    }
    Ok(mesh)
}

/// A file-name-safe version of a name: ASCII letters, digits, `-` and `_` kept, anything
/// else `_`.
pub fn file_part(name: &str) -> String {
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

/// The STL file of piece `i` (from 0): `piece-K-NAME.stl`, K = i + 1 (so that names that
/// differ only in characters a file name cannot hold stay apart), with `-xN` before the
/// extension when N copies are to be printed.
pub fn piece_file(i: usize, piece: &Piece) -> String {
    let copies = if piece.count > 1 {
        format!("-x{}", piece.count)
    } else {
        String::new()
    };
    format!("piece-{}-{}{copies}.stl", i + 1, file_part(&piece.name))
}

/// The header line of a piece's STL: its name and how many to print (a ranged piece may be
/// used up to its maximum: that many).
pub fn piece_title(piece: &Piece) -> String {
    match piece.count {
        1 => format!("piece '{}', print 1", piece.name),
        n => format!("piece '{}', print {n} copies", piece.name),
    }
}

/// The header line of a solution's STL: the first solution (`None`, as `cubesat stl` and the
/// studio's puzzle download assemble it) or solution `n`.
pub fn solution_title(n: Option<u64>) -> String {
    match n {
        None => "the first solution assembled, one shell per piece".to_string(),
        Some(n) => format!("solution {n} assembled, one shell per piece"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::bundled;
    use crate::run::Instance;

    #[test]
    fn a_ball_solution_is_balls_and_a_cube_solution_cubes() {
        for (name, balls) in [("soma", false), ("perplexing-pyramid", true)] {
            let inst = Instance::new(bundled(name).unwrap()).unwrap();
            let mut first = None;
            crate::run::list(&inst, &crate::plan::first_solution(), |s| {
                first = Some(s.placements.clone());
                false
            })
            .unwrap();
            let mesh =
                solution_mesh(&inst.puzzle, &inst.table, &first.unwrap(), 10.0, 0.0).unwrap();
            let cells = inst.puzzle.target.cells().len() as f64;
            // Flush cubes fill their cells; balls (and necks) fill about π/6 of them.
            let fill = mesh.volume() / (cells * 1000.0);
            if balls {
                assert!(0.5 < fill && fill < 0.6, "{name}: {fill}");
            } else {
                assert!((fill - 1.0).abs() < 1e-9, "{name}: {fill}");
            }
        }
    }

    #[test]
    fn piece_files_are_numbered_and_safe() {
        let soma = bundled("soma").unwrap();
        assert_eq!(piece_file(0, &soma.pieces[0]), "piece-1-V.stl");
        let mut p = soma.pieces[1].clone();
        p.name = "L/á b".into();
        p.count = 3;
        assert_eq!(piece_file(1, &p), "piece-2-L___b-x3.stl");
        assert_eq!(piece_title(&p), "piece 'L/á b', print 3 copies");
    }
}
