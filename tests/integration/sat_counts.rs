//! The SAT engine (varisat, search split into cubes, blocking clauses per cube) reproduces the published counts of Soma, the three tetracube targets and pentominoes 3x20 in every mode; the larger runs in release builds only.

use cubesat::counting::UpTo;
use cubesat::puzzle::bundled;
use cubesat::run::{EngineChoice, Instance, RunOptions, count};
use cubesat_xc::encoding::AtMostOne;

fn check(name: &str, amo: AtMostOne) {
    let puzzle = bundled(name).unwrap();
    let k = puzzle.known_counts.clone();
    let inst = Instance::new(puzzle).unwrap();
    for (mode, want) in [
        (UpTo::None, k.all),
        (UpTo::Rotation, k.rotation),
        (UpTo::RotationReflection, k.rotation_reflection),
    ] {
        let want = want.unwrap_or_else(|| panic!("{name} records every count"));
        // A moderate split: varisat enumerates several solutions inside most cubes.
        let opts = RunOptions {
            engine: EngineChoice::Sat,
            up_to: mode,
            amo,
            sat_cubes: Some(64),
            ..RunOptions::default()
        };
        let r = count(&inst, &opts).unwrap_or_else(|e| panic!("{name} {mode}: {}", e.report()));
        assert_eq!(r.count, want, "{name} {mode} with {amo}: {}", r.engine);
    }
}

#[test]
fn small_targets() {
    check("tetracubes-two-2x2x4", AtMostOne::Product);
    check("pentominoes-3x20", AtMostOne::Pairwise);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "thousands of SAT calls: run `cargo test --release`"
)]
fn soma_and_tetracube_boxes() {
    check("soma", AtMostOne::Product);
    check("tetracubes-2x2x8", AtMostOne::Sequential);
    check("tetracubes-2x4x4", AtMostOne::Product);
}

/// The SAT engine's first Tetris Cube solution (the search split into the default number of
/// cubes) passes the verifier inside `list`.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a large SAT instance: run `cargo test --release`"
)]
fn tetris_cube_first_solution_verifies() {
    use cubesat::run::list;
    let inst = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
    let opts = RunOptions {
        engine: EngineChoice::Sat,
        limit: Some(1),
        ..RunOptions::default()
    };
    let mut found = Vec::new();
    let report = list(&inst, &opts, |s| {
        found.push(s.placements.clone());
        true
    })
    .unwrap();
    assert_eq!(found.len(), 1, "{}", report.engine);
    assert_eq!(found[0].len(), 12);
    inst.verifier().verify(&found[0]).unwrap();
}

/// An interrupt reaches the cube cut: with the flag already raised, the exact engine's split
/// stops at its first check (no subproblems), and cube and conquer on the Tetris Cube with a
/// million cubes asked returns at once, interrupted and with no solution, instead of cutting
/// the whole frontier first.
#[test]
fn an_interrupt_stops_the_cube_cut() {
    use cubesat_xc::sat::{CUBES_ENUMERATION, CubeAndConquer, SatConfig};
    use cubesat_xc::{Engine, Progress, Query};
    use std::sync::Arc;

    let inst = Instance::new(bundled("tetris-cube").unwrap()).unwrap();
    let exact = cubesat_xc::exact::ExactEngine::new(&inst.model).unwrap();
    assert!(exact.query().subproblems(4096).unwrap().len() >= 4096);
    let progress = Arc::new(Progress::new());
    progress.interrupt();
    let cut = exact
        .query()
        .progress(progress.clone())
        .subproblems(1 << 20)
        .unwrap();
    assert!(
        cut.is_empty(),
        "{} subproblems after an interrupt",
        cut.len()
    );

    let engine = CubeAndConquer::new(&inst.model, SatConfig::default(), CUBES_ENUMERATION).unwrap();
    let query = Query {
        threads: 1,
        progress: Some(progress),
        ..Query::default()
    };
    let counted = engine.count(&query, &|_| 1).unwrap();
    assert!(counted.interrupted);
    assert_eq!(counted.total, 0);
}
