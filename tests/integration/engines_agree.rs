//! Differential test: the exact-cover engine, the dancing-links baseline and the SAT engine list the same solution sets, mode by mode, on every bundled puzzle small enough for blocking-clause SAT enumeration.

use cubesat::counting::UpTo;
use cubesat::puzzle::bundled;
use cubesat::run::{EngineChoice, Instance, RunOptions, list};
use cubesat_xc::encoding::AtMostOne;

fn solutions(inst: &Instance, engine: EngineChoice, up_to: UpTo, amo: AtMostOne) -> Vec<Vec<u32>> {
    // A moderate split: varisat enumerates several solutions inside most cubes.
    let opts = RunOptions {
        engine,
        up_to,
        amo,
        threads: 2,
        sat_cubes: Some(64),
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    list(inst, &opts, |s| {
        out.push(s.placements.clone());
        true
    })
    .unwrap_or_else(|e| panic!("{engine} {up_to}: {}", e.report()));
    let n = out.len();
    out.sort();
    out.dedup();
    assert_eq!(
        out.len(),
        n,
        "{engine} {up_to}: a solution was listed twice"
    );
    out
}

fn agree(name: &str, modes: &[UpTo]) {
    let inst = Instance::new(bundled(name).unwrap()).unwrap();
    for &mode in modes {
        let exact = solutions(&inst, EngineChoice::Exact, mode, AtMostOne::default());
        assert!(!exact.is_empty(), "{name} {mode}");
        let dlx = solutions(&inst, EngineChoice::Dlx, mode, AtMostOne::default());
        assert_eq!(exact, dlx, "{name} {mode}: exact vs dancing links");
        let sat = solutions(&inst, EngineChoice::Sat, mode, AtMostOne::Product);
        assert_eq!(exact, sat, "{name} {mode}: exact vs SAT");
    }
}

#[test]
fn pentominoes_3x20() {
    agree(
        "pentominoes-3x20",
        &[UpTo::None, UpTo::Rotation, UpTo::RotationReflection],
    );
}

#[test]
fn tetracubes_two_boxes() {
    agree(
        "tetracubes-two-2x2x4",
        &[UpTo::Rotation, UpTo::RotationReflection],
    );
}

#[test]
fn wooden_cube() {
    agree("wooden-cube", &[UpTo::None, UpTo::Rotation]);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "hundreds of SAT calls: run `cargo test --release`"
)]
fn soma_and_tetracube_boxes() {
    agree("soma", &[UpTo::Rotation, UpTo::RotationReflection]);
    agree(
        "tetracubes-2x2x8",
        &[UpTo::Rotation, UpTo::RotationReflection],
    );
}
