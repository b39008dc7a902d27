//! Byte-level pins of generated text: 64-bit FNV-1a digests of every sample scene's SVG and of
//! DLX, clingo and DIMACS exports of several puzzles, so a refactor of a writer proves that it
//! changes no output byte. A deliberate format change updates the digests (the failure message
//! lists the new ones).

use cubesat::counting::UpTo;
use cubesat::interop::{asp, dlx};
use cubesat::puzzle::Puzzle;
use cubesat::puzzle::bundled;
use cubesat::puzzle::json::parse_puzzle;
use cubesat::render::{Scene, samples, svg};

use crate::common::Dir;

/// Multiplicities, an optional cell, a partly hinted piece and a name longer than a DLX item
/// name: the header and item lines the bundled puzzles do not reach.
const MIXED: &str = r####"{
    "name": "small mixed",
    "target": {"layers": [["###", "###", "##+"]]},
    "allow_disconnected": false,
    "pieces": [
        {"name": "Ltromino", "count": 2, "cells": [[0,0,0],[1,0,0],[0,1,0]]},
        {"name": "long-domino-name", "cells": [[0,0,0],[1,0,0]]}
    ],
    "hints": [{"piece": "Ltromino", "cells": [[0,0,0],[1,0,0],[0,1,0]]}]
}"####;

/// 64-bit FNV-1a: stable across Rust versions and platforms, unlike `DefaultHasher`.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The digest of `text` with the crate version taken out, so a version bump changes no pin.
fn digest(text: &str) -> u64 {
    fnv1a(&text.replace(
        concat!("cubesat ", env!("CARGO_PKG_VERSION")),
        "cubesat VERSION",
    ))
}

/// Compares (label, digest) pairs with the pinned ones, listing every actual digest on failure.
fn check(actual: &[(String, u64)], pinned: &[(&str, u64)]) {
    let same = actual.len() == pinned.len()
        && actual
            .iter()
            .zip(pinned)
            .all(|((l, d), (pl, pd))| l == pl && d == pd);
    if !same {
        let listing: String = actual
            .iter()
            .map(|(l, d)| format!("        (\"{l}\", 0x{d:016x}),\n"))
            .collect();
        panic!("output changed; the digests now are:\n{listing}");
    }
}

fn scenes() -> [(&'static str, Scene); 4] {
    [
        ("tetris_cube", samples::tetris_cube()),
        ("pentominoes_10x6", samples::pentominoes_10x6()),
        ("two_boxes", samples::two_boxes()),
        ("hints_only", samples::hints_only()),
    ]
}

fn puzzles() -> Vec<(&'static str, Puzzle)> {
    let mut out: Vec<(&'static str, Puzzle)> = [
        "soma",
        "tetracubes-2x4x4",
        "tetracubes-two-2x2x4",
        "pentominoes-3x20",
    ]
    .into_iter()
    .map(|n| (n, bundled(n).unwrap()))
    .collect();
    out.push(("mixed", parse_puzzle(MIXED, "mixed").unwrap()));
    out
}

#[test]
fn svg_of_every_sample_scene() {
    let mut actual = Vec::new();
    for (name, scene) in scenes() {
        for explode in [false, true] {
            let label = format!("{name}{}", if explode { " exploded" } else { "" });
            actual.push((label, digest(&svg(&scene, explode))));
        }
    }
    check(
        &actual,
        &[
            ("tetris_cube", 0x6bcfa5fb4d25262d),
            ("tetris_cube exploded", 0xcc59d7341edbf341),
            ("pentominoes_10x6", 0xeb0493b7b0825437),
            ("pentominoes_10x6 exploded", 0xc422604e92756d5a),
            ("two_boxes", 0x7a6dcdb86a79cc78),
            ("two_boxes exploded", 0x979c992d113eb0df),
            ("hints_only", 0xa410d127943ebc63),
            ("hints_only exploded", 0xf42f841e96c056b6),
        ],
    );
}

#[test]
fn dlx_and_asp_exports() {
    let mut actual = Vec::new();
    for (name, puzzle) in puzzles() {
        for mode in [UpTo::None, UpTo::Rotation] {
            let d = dlx::export(&puzzle, mode).unwrap();
            actual.push((format!("dlx {name} {mode}"), digest(&d)));
            let a = asp::export(&puzzle, mode).unwrap();
            actual.push((format!("asp {name} {mode}"), digest(&a)));
        }
    }
    check(
        &actual,
        &[
            ("dlx soma none", 0x8b7182a9344ba38c),
            ("asp soma none", 0x588d8ca648bc90b8),
            ("dlx soma rotation", 0xca26d1f4ce3682b4),
            ("asp soma rotation", 0xb1f4bb293ef9752f),
            ("dlx tetracubes-2x4x4 none", 0xb631f1c18686c6a1),
            ("asp tetracubes-2x4x4 none", 0x67bb981cb10c2a50),
            ("dlx tetracubes-2x4x4 rotation", 0xc8ff3d3e93bd4318),
            ("asp tetracubes-2x4x4 rotation", 0x48c9512ad0635835),
            ("dlx tetracubes-two-2x2x4 none", 0xe22f2be82465fb8d),
            ("asp tetracubes-two-2x2x4 none", 0x4aed5af820292491),
            ("dlx tetracubes-two-2x2x4 rotation", 0x728e62317059ace0),
            ("asp tetracubes-two-2x2x4 rotation", 0x95c0fbc920f11d51),
            ("dlx pentominoes-3x20 none", 0xf946799a53b28593),
            ("asp pentominoes-3x20 none", 0x89c65ade61025ab4),
            ("dlx pentominoes-3x20 rotation", 0xfce5c2a816ce53c3),
            ("asp pentominoes-3x20 rotation", 0x58353d7b5c301221),
            ("dlx mixed none", 0x62b90f236a5f3448),
            ("asp mixed none", 0xdc796c6a2c9978ee),
            ("dlx mixed rotation", 0x97eedb02b0d2aa59),
            ("asp mixed rotation", 0xee484af4d3fa644a),
        ],
    );
}

#[test]
fn cli_exports() {
    let dir = Dir::new();
    let mixed = dir.write("mixed.json", MIXED);
    let mixed = mixed.to_str().unwrap();
    let mut actual = Vec::new();
    for (name, puzzle, mode) in [
        ("soma", "soma", "rotation"),
        ("soma", "soma", "none"),
        ("tetracubes-two-2x2x4", "tetracubes-two-2x2x4", "none"),
        ("pentominoes-3x20", "pentominoes-3x20", "rotation"),
        ("mixed", mixed, "none"),
    ] {
        for format in ["dimacs", "dlx", "asp"] {
            let run = dir.run(&["export", puzzle, "--format", format, "--up-to", mode]);
            run.code(0);
            actual.push((format!("{format} {name} {mode}"), digest(&run.stdout)));
        }
    }
    check(
        &actual,
        &[
            ("dimacs soma rotation", 0x0dfea16ce2f3211a),
            ("dlx soma rotation", 0xca26d1f4ce3682b4),
            ("asp soma rotation", 0xb1f4bb293ef9752f),
            ("dimacs soma none", 0xb13e7d0b3ace3978),
            ("dlx soma none", 0x8b7182a9344ba38c),
            ("asp soma none", 0x588d8ca648bc90b8),
            ("dimacs tetracubes-two-2x2x4 none", 0x304ceda74ff8697c),
            ("dlx tetracubes-two-2x2x4 none", 0xe22f2be82465fb8d),
            ("asp tetracubes-two-2x2x4 none", 0x4aed5af820292491),
            ("dimacs pentominoes-3x20 rotation", 0xe1e35fea52936277),
            ("dlx pentominoes-3x20 rotation", 0xfce5c2a816ce53c3),
            ("asp pentominoes-3x20 rotation", 0x58353d7b5c301221),
            ("dimacs mixed none", 0xf65b6702a9877945),
            ("dlx mixed none", 0x62b90f236a5f3448),
            ("asp mixed none", 0xdc796c6a2c9978ee),
        ],
    );
}
