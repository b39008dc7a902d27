//! The SAT engine (varisat, search split into cubes, blocking clauses per cube) reproduces the published counts of Soma, the three tetracube targets and pentominoes 3x20 in every mode; the larger runs in release builds only.

use cubesat::counting::UpTo;
use cubesat::puzzle::bundled;
use cubesat::run::{EngineChoice, Instance, RunOptions, count};
use cubesat_xc::encoding::AtMostOne;

/// Counts `name` in every mode with the SAT engine; `budget` is the exact engine's node
/// budget per cube (`Some(0)`: every cube the lookahead leaves goes to varisat).
fn check(name: &str, amo: AtMostOne, budget: Option<u64>) -> Vec<String> {
    check_cut(name, amo, budget, Some(64))
}

/// [`check`] with the number of cubes asked for (`None`: the engine's default).
fn check_cut(name: &str, amo: AtMostOne, budget: Option<u64>, cubes: Option<usize>) -> Vec<String> {
    let mut summaries = Vec::new();
    let puzzle = bundled(name).unwrap();
    let k = puzzle.known_counts.clone();
    let inst = Instance::new(puzzle).unwrap();
    for (mode, want) in [
        (UpTo::None, k.all),
        (UpTo::Rotation, k.rotation),
        (UpTo::RotationReflection, k.rotation_reflection),
    ] {
        let want = want.unwrap_or_else(|| panic!("{name} records every count"));
        // A moderate split (64): varisat enumerates several solutions inside most cubes.
        let opts = RunOptions {
            engine: EngineChoice::Sat,
            up_to: mode,
            amo,
            sat_cubes: cubes,
            sat_exact_budget: budget,
            ..RunOptions::default()
        };
        let r = count(&inst, &opts).unwrap_or_else(|e| panic!("{name} {mode}: {}", e.report()));
        assert_eq!(r.count, want, "{name} {mode} with {amo}: {}", r.engine);
        summaries.push(r.engine);
    }
    summaries
}

#[test]
fn small_targets() {
    check("tetracubes-two-2x2x4", AtMostOne::Product, Some(0));
    check("pentominoes-3x20", AtMostOne::Pairwise, Some(0));
    check("pentominoes-3x20", AtMostOne::Pairwise, None);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "thousands of SAT calls: run `cargo test --release`"
)]
fn soma_and_tetracube_boxes() {
    check("soma", AtMostOne::Product, Some(0));
    check("tetracubes-2x2x8", AtMostOne::Sequential, Some(0));
    check("tetracubes-2x4x4", AtMostOne::Product, Some(0));
}

/// With the exact engine's first attempt at each cube (the default budget, and a budget of
/// one check interval so that some cubes overflow it and go to varisat), the counts stay the
/// published ones; the statistics say which method closed how many cubes, and both did.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "thousands of SAT calls: run `cargo test --release`"
)]
fn exact_first_then_varisat_counts_like_the_exact_engine() {
    for name in ["soma", "tetracubes-2x4x4", "pentominoes-6x10"] {
        for s in check_cut(name, AtMostOne::Pairwise, None, None) {
            assert!(s.contains("the exact engine closed"), "{s}");
        }
    }
    // Cut into about 22,000 cubes, a few of 6x10's are larger than the first check
    // interval (4,096 nodes): the exact engine gives them up and varisat solves them.
    let inst = Instance::new(bundled("pentominoes-6x10").unwrap()).unwrap();
    let opts = RunOptions {
        engine: EngineChoice::Sat,
        sat_cubes: Some(8192),
        sat_exact_budget: Some(1),
        ..RunOptions::default()
    };
    let r = count(&inst, &opts).unwrap();
    assert_eq!(r.count, 2339, "{}", r.engine);
    let both = !r.engine.contains("varisat solved 0:") && !r.engine.contains("closed 0 ");
    assert!(both, "no run used both methods");
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
