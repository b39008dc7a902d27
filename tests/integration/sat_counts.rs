//! The SAT engine (varisat, search split into cubes, blocking clauses per cube) reproduces the published counts of Soma, the three tetracube targets and pentominoes 3x20 in every mode; the larger runs in release builds only.

use cubesat::counting::UpTo;
use cubesat::puzzle::bundled;
use cubesat::run::{EngineChoice, Instance, RunOptions, count};
use cubesat_xc::Subproblem;
use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::sat::{Conquer, DEFAULT_EXACT_BUDGET, conquer_cubes};
use std::ops::ControlFlow;

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
    // Cut into about 2,100 cubes, a few of 6x10's are larger than the first check
    // interval (4,096 nodes): the exact engine gives them up, and they are cut deeper.
    let inst = Instance::new(bundled("pentominoes-6x10").unwrap()).unwrap();
    let opts = RunOptions {
        engine: EngineChoice::Sat,
        sat_cubes: Some(2048),
        sat_exact_budget: Some(1),
        ..RunOptions::default()
    };
    let r = count(&inst, &opts).unwrap();
    assert_eq!(r.count, 2339, "{}", r.engine);
    let number = |after: &str| -> u64 {
        let Some(at) = r.engine.find(after) else {
            return 0;
        };
        let tail = &r.engine[at + after.len()..];
        match tail.split([' ', ':']).next().unwrap() {
            "none" => 0,
            n => n.parse().unwrap(),
        }
    };
    let before = |what: &str| -> u64 {
        let head = &r.engine[..r.engine.find(what).unwrap()];
        head.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // The figures add up (issue 30): the cubes cut, those cut deeper and their children,
    // and what closed each cube left to solve.
    let (cubes, to_solve) = (before(" cubes, "), before(" after cutting "));
    let deeper = number("after cutting ");
    assert!(
        deeper > 0 && to_solve > cubes,
        "no cube was cut deeper: {}",
        r.engine
    );
    let closed = number("the exact engine closed ");
    let refuted = number("the lookahead refuted ");
    let solved = number("varisat solved ");
    assert_eq!(closed + refuted + solved, to_solve, "{}", r.engine);
    // Where no cube may be cut deeper, those go to varisat (the same cut, the same piece held
    // to one placement per rotation orbit as the run above).
    let r = inst.reducer(UpTo::Rotation, true).unwrap();
    let cubes = ExactEngine::new(&inst.model)
        .unwrap()
        .query()
        .exclude(r.excluded())
        .subproblems_within(2048, 6)
        .unwrap();
    let mut classes = 0;
    let (_, st) = conquer_cubes(
        &inst.model,
        &cubes,
        &Conquer {
            excluded: r.excluded().to_vec(),
            lookahead: true,
            exact_budget: 1,
            split_below: 0,
            ..Conquer::default()
        },
        || false,
        |_, sols| {
            classes += sols.iter().map(|s| r.weight(s)).sum::<u64>();
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert_eq!(classes, 2339, "{st:?}");
    assert!(st.cubes_exact > 0 && st.cubes_solved > 0, "{st:?}");
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
    use cubesat_xc::sat::{CUBES_ENUMERATION_VARISAT, CubeAndConquer, SatConfig};
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

    let engine =
        CubeAndConquer::new(&inst.model, SatConfig::default(), CUBES_ENUMERATION_VARISAT).unwrap();
    let query = Query {
        threads: 1,
        progress: Some(progress),
        ..Query::default()
    };
    let counted = engine.count(&query, &|_| 1).unwrap();
    assert!(counted.interrupted);
    assert_eq!(counted.total, 0);
}

/// A cube the exact engine cannot close within its budget is cut one choice deeper, and each
/// child is tried the same way, before varisat sees it: the whole of 4x15 given as one cube
/// (no symmetry restriction: a tree larger than the budget) is closed by the exact engine
/// alone in many pieces, with every solution once, the exact engine's own set.
#[test]
fn cubes_too_large_for_the_budget_are_cut_deeper() {
    let inst = Instance::new(bundled("pentominoes-4x15").unwrap()).unwrap();
    let m = &inst.model;
    let mut want = Vec::new();
    let whole = ExactEngine::new(m)
        .unwrap()
        .query()
        .enumerate(|s| {
            want.push(s.to_vec());
            true
        })
        .unwrap();
    assert!(whole.nodes > DEFAULT_EXACT_BUDGET, "{whole:?}");
    want.sort();
    assert_eq!(want.len(), 1472);
    let (got, st) = crate::sat_engine::conquered(
        m,
        &[Subproblem::default()],
        &Conquer {
            lookahead: true,
            exact_budget: DEFAULT_EXACT_BUDGET,
            split_below: 6,
            threads: 1,
            ..Conquer::default()
        },
    );
    assert_eq!(got, want, "{st:?}");
    assert!(st.cubes_exact > 1, "{st:?}");
    assert_eq!(st.cubes_solved, 0, "{st:?}");
}

/// The UNSAT benchmark instances of encodings/README.md (the Tetris Cube with two hints)
/// have no solution by every engine, the SAT engine with and without the exact engine's
/// first attempt.
#[test]
fn the_unsat_benchmark_instances_have_no_solution() {
    for k in ["a", "b"] {
        let path = format!(
            "{}/encodings/instances/tetris-cube-unsat-{k}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let puzzle = cubesat::puzzle::json::read_puzzle_file(path.as_ref()).unwrap();
        let inst = Instance::new(puzzle).unwrap();
        for (engine, budget) in [
            (EngineChoice::Exact, None),
            (EngineChoice::Dlx, None),
            (EngineChoice::Sat, None),
            (EngineChoice::Sat, Some(0)),
        ] {
            let opts = RunOptions {
                engine,
                up_to: UpTo::None,
                sat_exact_budget: budget,
                ..RunOptions::default()
            };
            let r = count(&inst, &opts).unwrap();
            assert_eq!(r.count, 0, "{k} {}", r.engine);
        }
    }
}
