//! The SAT engine on a real polycube model built by the puzzle pipeline (the bundled Soma cube): with pieces fixed, under every at-most-one encoding and with implied piece constraints dropped or kept, and split into cubes on one solver, its solution sets equal the dancing-links baseline's.

use cubesat::puzzle::bundled;
use cubesat::run::Instance;
use cubesat_xc::dlx::Dlx;
use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::sat::{SatConfig, SatEngine};
use cubesat_xc::{ExactCover, Subproblem};

/// Soma with the pieces `fixed` (piece indices) forced to their placements in the first
/// solution the dancing-links search finds.
fn soma_fixed(fixed: &[u32]) -> ExactCover {
    let inst = Instance::new(bundled("soma").unwrap()).unwrap();
    let mut m = std::sync::Arc::unwrap_or_clone(inst.model);
    let mut first = None;
    Dlx::new(&m)
        .unwrap()
        .enumerate(|s| {
            first = Some(s.to_vec());
            false
        })
        .unwrap();
    let first = first.expect("Soma has solutions");
    m.forced = first
        .into_iter()
        .filter(|&o| fixed.contains(&inst.table.placements()[o as usize].piece))
        .collect();
    assert_eq!(m.forced.len(), fixed.len());
    m
}

/// Every solution by dancing links, sorted.
fn dancing_links(m: &ExactCover) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    Dlx::new(m)
        .unwrap()
        .enumerate(|s| {
            out.push(s.to_vec());
            true
        })
        .unwrap();
    out.sort();
    out
}

#[test]
fn soma_with_two_pieces_fixed_matches_dancing_links() {
    let m = soma_fixed(&[0, 1]); // V and L
    let expected = dancing_links(&m);
    assert!(!expected.is_empty());
    for amo in AtMostOne::ALL {
        for drop in [false, true] {
            let mut e = SatEngine::new(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: drop,
                },
            )
            .unwrap();
            assert_eq!(e.stats().piece_amo_dropped, drop);
            let mut got = e.solutions(&Subproblem::default(), None).unwrap();
            got.sort();
            assert_eq!(got, expected, "{amo} drop={drop}");
        }
    }
}

/// Soma with V fixed, split into one cube per placement of L, solved with one solver: the
/// union is every solution, each in the cube of its own L placement.
#[test]
fn soma_cubes_on_one_solver_match_dancing_links() {
    let m = soma_fixed(&[0]);
    let expected = dancing_links(&m);
    assert!(expected.len() > 20, "{}", expected.len());
    let cubes: Vec<Subproblem> = m.options_by_item()[1]
        .iter()
        .map(|&o| Subproblem {
            chosen: vec![o],
            excluded: vec![],
            ..Subproblem::default()
        })
        .collect();
    let mut e = SatEngine::new(
        &m,
        SatConfig {
            amo: AtMostOne::Pairwise,
            drop_implied_piece_amo: false,
        },
    )
    .unwrap();
    let per_cube = e.solve_cubes(&cubes).unwrap();
    for (c, sols) in cubes.iter().zip(&per_cube) {
        assert!(sols.iter().all(|s| s.contains(&c.chosen[0])));
    }
    let mut union: Vec<Vec<u32>> = per_cube.into_iter().flatten().collect();
    union.sort();
    assert_eq!(union, expected);
}
