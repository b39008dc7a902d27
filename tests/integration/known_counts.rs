//! Every bundled puzzle with published counts is counted in every mode with the exact engine and must match its file's `known_counts` (taken from ../shared/reference/known-counts.json); the largest run in release builds only (`cargo test --release`, as CI does).

use cubesat::counting::UpTo;
use cubesat::puzzle::{BUNDLED, bundled};
use cubesat::run::{EngineChoice, Instance, RunOptions, count};

/// Counts `name` in every mode its file records, and checks that an undefined mode (null) is
/// refused rather than guessed.
fn check(name: &str) {
    check_modes(
        name,
        &[UpTo::None, UpTo::Rotation, UpTo::RotationReflection],
    );
}

/// Counts `name` in the given modes only (for a puzzle whose every mode would cost a minute).
fn check_modes(name: &str, modes: &[UpTo]) {
    let puzzle = bundled(name).unwrap();
    let known = puzzle.known_counts.clone();
    assert!(!known.is_empty(), "{name} records no counts");
    let inst = Instance::new(puzzle).unwrap();
    for (mode, want) in [
        (UpTo::None, known.all),
        (UpTo::Rotation, known.rotation),
        (UpTo::RotationReflection, known.rotation_reflection),
    ] {
        if !modes.contains(&mode) {
            continue;
        }
        let opts = RunOptions {
            engine: EngineChoice::Exact,
            up_to: mode,
            threads: 2,
            ..RunOptions::default()
        };
        match want {
            Some(n) => {
                let r =
                    count(&inst, &opts).unwrap_or_else(|e| panic!("{name} {mode}: {}", e.report()));
                assert_eq!(r.count, n, "{name}, {mode}: {}", r.description);
                assert!(!r.limited && !r.interrupted);
            }
            None => {
                let e = count(&inst, &opts).expect_err("an undefined count must be refused");
                assert!(
                    matches!(
                        e.root(),
                        cubesat::Error::Unsupported {
                            request: cubesat::Request::UpTo,
                            ..
                        }
                    ) && e.report().contains("mirror image"),
                    "{name} {mode}: {}",
                    e.report()
                );
            }
        }
    }
}

#[test]
fn every_bundled_puzzle_with_counts_is_tested_here() {
    let tested = [
        "soma",
        "tetracubes-2x4x4",
        "tetracubes-2x2x8",
        "tetracubes-two-2x2x4",
        "pentominoes-3x20",
        "pentominoes-6x10",
        "tetris-cube",
        "pentominoes-8x8-square",
        "solid-pentominoes-3x4x5",
        "bedlam",
        "kanoodle-2d",
        "iq-puzzler-pro-2d",
        "iq-puzzler-pro-pyramid",
        "perplexing-pyramid",
        "ball-room-pyramid",
        "ball-room-tetrahedron",
        "ball-room-cube",
    ];
    for (name, _) in BUNDLED {
        let has_counts = !bundled(name).unwrap().known_counts.is_empty();
        assert_eq!(
            has_counts,
            tested.contains(name),
            "{name}: add it to a known-count test"
        );
    }
}

#[test]
fn soma() {
    check("soma");
}

#[test]
fn tetracubes_2x4x4() {
    check("tetracubes-2x4x4");
}

#[test]
fn tetracubes_2x2x8() {
    check("tetracubes-2x2x8");
}

#[test]
fn tetracubes_two_2x2x4() {
    check("tetracubes-two-2x2x4");
}

#[test]
fn pentominoes_3x20() {
    check("pentominoes-3x20");
}

#[test]
fn pentominoes_6x10() {
    check("pentominoes-6x10");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn tetris_cube() {
    check("tetris-cube");
}

#[test]
fn pentominoes_8x8_square() {
    check("pentominoes-8x8-square");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn solid_pentominoes_3x4x5() {
    check("solid-pentominoes-3x4x5");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn bedlam() {
    check("bedlam");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn kanoodle_board() {
    check("kanoodle-2d");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn iq_puzzler_pro_board() {
    // 53 M nodes a mode: the published mode here; `cargo bench --bench catalog` counts all three.
    check_modes("iq-puzzler-pro-2d", &[UpTo::Rotation]);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release-mode count: run `cargo test --release`"
)]
fn iq_puzzler_pro_pyramid() {
    check("iq-puzzler-pro-pyramid");
}

#[test]

fn perplexing_pyramid() {
    check("perplexing-pyramid");
}

#[test]

fn ball_room_pyramid() {
    check("ball-room-pyramid");
}

#[test]

fn ball_room_tetrahedron() {
    check("ball-room-tetrahedron");
}

#[test]

fn ball_room_cube() {
    check("ball-room-cube");
}
