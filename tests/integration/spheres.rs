//! The sphere grid (BurrTools' grid 2, balls in face-centred cubic packing): BurrTools files of grid 2 count to burrTxt's numbers in every mode, convert to cubesat JSON and back with the same counts, and the JSON layer frame, hints, `generate` and the refusals work on it.

use crate::common::{Dir, Run};

fn data(path: &str) -> String {
    format!("{}/tests/data/burrtools/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Per file and problem: cubesat's count of every placement (`--up-to none`), then BurrTools
/// 0.7.1's counts, from `tests/data/burrtools/spheres/counts.txt` (written by
/// `burrtools_counts.py`): `burrTxt -q` (the default), `burrTxt2 -c -m` (mirror solutions
/// kept) and `burrTxt2 -c -m -r` (rotated solutions kept too). `burrTxt2 -c` equals the
/// default and `-c -r` equals `-c -m -r` on every problem here.
///
/// What each BurrTools count is, and how cubesat's modes meet it:
/// - the default is cubesat's `--up-to burrtools` (the default for BurrTools files), equal on
///   every problem;
/// - `-c -m` removes every rotation of the result and keeps mirror images: cubesat's
///   `--up-to rotation`, equal on every problem (the rotations are those of the 120 that map
///   the result onto itself, e.g. 12 for a tetrahedron, 4 for a square pyramid, 6 for a
///   triangle in a {111} plane);
/// - `-c -m -r` is not a count of every placement. `-r` only turns off BurrTools' final
///   check for a smaller rotated assembly; its assembler still lets one piece, the "symmetry
///   breaker" (a piece of a single copy, the fewest symmetries in common with the result),
///   take only one orientation of each orbit of the result's rotations, so it counts the
///   assemblies in which that piece lies in one chosen orientation per orbit; when no piece
///   qualifies (every piece has several copies, or a range) it is the raw count. Where it
///   differs from the raw count below: 10a problem 0 (72 / 6 = 12: the line of three, whose
///   6 orientations are one orbit of the tetrahedron's 12 rotations), s01 (4 / 4: the pair's
///   4 orientations in the pyramid are one orbit), s02 problem 0 (6 / 6), s04 problem 1 (the
///   pair: 32 assemblies lie in the square layers, two directions, one orbit, and 24 slant,
///   four directions, one orbit of the pyramid's 4 rotations: 32 / 2 + 24 / 4 = 22), s05
///   problem 1 (48 / 12 = 4). The same rules hold on the cube grid (the reference table's
///   Soma: -c -m -r 480, raw 11,520).
const SPHERES: &[(&str, u32, u64, u64, u64, u64)] = &[
    ("reference/10a_spheres_gridtype2.xmpuzzle", 0, 72, 4, 6, 12),
    ("reference/10a_spheres_gridtype2.xmpuzzle", 1, 24, 1, 2, 24),
    ("spheres/s01_pyramid5.xmpuzzle", 0, 4, 1, 1, 1),
    ("spheres/s02_tri_board10.xmpuzzle", 0, 6, 1, 1, 1),
    ("spheres/s02_tri_board10.xmpuzzle", 1, 2, 1, 1, 2),
    ("spheres/s03_square_board.xmpuzzle", 0, 4, 2, 2, 4),
    ("spheres/s03_square_board.xmpuzzle", 1, 16, 5, 5, 16),
    ("spheres/s03_square_board.xmpuzzle", 2, 44, 14, 14, 44),
    ("spheres/s04_pyramid14.xmpuzzle", 0, 0, 0, 0, 0),
    ("spheres/s04_pyramid14.xmpuzzle", 1, 56, 7, 14, 22),
    ("spheres/s05_tetra10.xmpuzzle", 0, 8, 1, 2, 8),
    ("spheres/s05_tetra10.xmpuzzle", 1, 48, 2, 4, 4),
    ("spheres/s05_tetra10.xmpuzzle", 2, 0, 0, 0, 0),
    ("spheres/s06_tetra20.xmpuzzle", 0, 0, 0, 0, 0),
    ("spheres/s06_tetra20.xmpuzzle", 1, 48, 2, 4, 48),
    ("spheres/s07_chiral.xmpuzzle", 0, 1, 1, 1, 1),
    ("spheres/s07_chiral.xmpuzzle", 1, 6, 5, 6, 6),
    ("spheres/s08_ranges.xmpuzzle", 0, 413, 413, 413, 413),
    ("spheres/s09_lines.xmpuzzle", 0, 1, 1, 1, 1),
    ("spheres/s09_lines.xmpuzzle", 1, 6, 3, 6, 6),
    ("spheres/s10_square4.xmpuzzle", 0, 136, 17, 34, 136),
];

#[test]
fn grid_2_files_count_to_burrtools_numbers_in_every_mode_and_engine() {
    let dir = Dir::new();
    for &(f, p, raw, default, keep_mirror, keep_both) in SPHERES {
        let file = data(f);
        let at = format!("{f} problem {p}");
        assert_eq!(dir.count(&file, Some(p), &[]), default, "{at}: default");
        assert_eq!(
            dir.count(&file, Some(p), &["--up-to", "burrtools"]),
            default,
            "{at}: burrtools"
        );
        assert_eq!(
            dir.count(&file, Some(p), &["--up-to", "rotation"]),
            keep_mirror,
            "{at}: rotation = burrTxt2 -c -m"
        );
        // Every engine counts every placement alike; BurrTools' -c -m -r is at most that.
        for engine in ["exact", "dlx", "sat"] {
            assert_eq!(
                dir.count(&file, Some(p), &["--up-to", "none", "--engine", engine]),
                raw,
                "{at}: none, {engine}"
            );
        }
        assert!(keep_mirror <= keep_both && keep_both <= raw, "{at}");
        // The count up to rotation and reflection lies between BurrTools' mirror-aware
        // count and the count up to rotation (it is defined here for every problem whose
        // chiral pieces have partners).
        let r = dir.run(&[
            "solve",
            "--count",
            "-q",
            &file,
            "--problem",
            &p.to_string(),
            "--up-to",
            "rotation+reflection",
        ]);
        if r.code == 0 {
            let n: u64 = r.stdout.split_whitespace().next().unwrap().parse().unwrap();
            assert!(default <= n && n <= keep_mirror, "{at}: {n}");
        }
    }
}

#[test]
fn grid_2_files_convert_to_json_and_back_with_the_same_counts() {
    let dir = Dir::new();
    for &(f, p, raw, default, keep_mirror, _) in SPHERES {
        let file = data(f);
        let at = format!("{f} problem {p}");
        dir.run(&[
            "convert",
            "-q",
            &file,
            "c.json",
            "--problem",
            &p.to_string(),
        ])
        .code(0);
        let json = std::fs::read_to_string(dir.path().join("c.json")).unwrap();
        assert!(json.contains("\"grid\": \"spheres\""), "{at}: {json}");
        dir.run(&["convert", "-q", "c.json", "c.xmpuzzle"]).code(0);
        for f in ["c.json", "c.xmpuzzle"] {
            assert_eq!(dir.count(f, None, &[]), default, "{at}: {f}");
            assert_eq!(
                dir.count(f, None, &["--up-to", "rotation"]),
                keep_mirror,
                "{at}: {f}"
            );
            assert_eq!(dir.count(f, None, &["--up-to", "none"]), raw, "{at}: {f}");
        }
    }
}

/// The 14-ball square pyramid typed in the layer frame, with the pieces of
/// s04_pyramid14 problem 1: the same counts as BurrTools' file (56 placements, 14 up to
/// rotation = burrTxt2 -c -m, 7 = burrTxt).
const PYRAMID: &str = r####"{"name": "pyramid 14", "grid": "spheres",
 "target": {"layers": [["###", "###", "###"], ["##", "##"], ["#"]]},
 "pieces": [
  {"name": "V", "count": 2, "cells": [[0, 0, 0], [1, 0, 0], [1, 0, 1]]},
  {"name": "L", "count": 2, "layers": [["##", "#."]]},
  {"name": "pair", "cells": [[0, 0, 0], [1, 0, 0]]}]}"####;

/// The 10-ball tetrahedron in the layer frame: layer k is a (k + 1) x (3 - k) rectangle, one
/// column further left per layer (each layer sits in the hollows of the one below), with
/// the pieces of 10a problem 0.
const TETRAHEDRON: &str = r####"{"name": "tetrahedron 10", "grid": "spheres",
 "target": {"layers": [["..#", "..#", "..#"], [".##", ".##"], ["###"]]},
 "pieces": [
  {"name": "triangle", "cells": [[0, 0, 0], [1, 0, 0], [0, 0, 1]]},
  {"name": "line", "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
  {"name": "pair", "count": 2, "cells": [[0, 0, 0], [1, 0, 0]]}]}"####;

#[test]
fn json_in_the_layer_frame_counts_as_the_burrtools_files() {
    let dir = Dir::new();
    dir.write("p.json", PYRAMID);
    assert_eq!(dir.count("p.json", None, &["--up-to", "none"]), 56);
    assert_eq!(dir.count("p.json", None, &["--up-to", "rotation"]), 14);
    assert_eq!(dir.count("p.json", None, &["--up-to", "burrtools"]), 7);
    dir.write("t.json", TETRAHEDRON);
    assert_eq!(dir.count("t.json", None, &["--up-to", "none"]), 72);
    assert_eq!(dir.count("t.json", None, &["--up-to", "rotation"]), 6);
    assert_eq!(dir.count("t.json", None, &["--up-to", "burrtools"]), 4);
    // To BurrTools and back: the same puzzle, the same counts, and JSON written back in the
    // layer frame as typed.
    dir.run(&["convert", "-q", "t.json", "t.xmpuzzle"]).code(0);
    assert_eq!(dir.count("t.xmpuzzle", None, &["--up-to", "none"]), 72);
    dir.run(&["convert", "-q", "t.xmpuzzle", "back.json"])
        .code(0);
    let back = std::fs::read_to_string(dir.path().join("back.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&back).unwrap();
    assert_eq!(
        v["target"]["layers"],
        serde_json::json!([
            ["..#", "..#", "..#"],
            [".##", ".##", "..."],
            ["###", "...", "..."]
        ]),
        "{back}"
    );
    // Solutions as JSON name balls in the layer frame: every cell is a target ball.
    let r = dir.run(&["solve", "t.json", "--format", "json", "--limit", "1", "-q"]);
    r.code(0).stdout_has("\"cells\"");
    let target: Vec<[i64; 3]> = vec![
        [2, 0, 0],
        [2, 1, 0],
        [2, 2, 0],
        [1, 0, 1],
        [2, 0, 1],
        [1, 1, 1],
        [2, 1, 1],
        [0, 0, 2],
        [1, 0, 2],
        [2, 0, 2],
    ];
    let line = r.stdout.lines().next().unwrap();
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let mut seen = 0;
    for p in v["pieces"].as_array().unwrap() {
        for c in p["cells"].as_array().unwrap() {
            let c: [i64; 3] = serde_json::from_value(c.clone()).unwrap();
            assert!(target.contains(&c), "{c:?} in {line}");
            seen += 1;
        }
    }
    assert_eq!(seen, 10, "{line}");
    // Saved solutions read back (render checks each against the puzzle).
    let all = dir.run(&["solve", "t.json", "--all", "--format", "json", "-q"]);
    all.code(0);
    dir.write("t.jsonl", &all.stdout);
    dir.run(&["render", "t.jsonl", "--format", "text"]).code(0);
}

#[test]
fn hints_and_generate_work_on_balls() {
    let dir = Dir::new();
    dir.write("p.json", PYRAMID);
    dir.run(&[
        "generate", "-q", "--hints", "2", "--seed", "3", "p.json", "--out", "g.json",
    ])
    .code(0);
    let g = std::fs::read_to_string(dir.path().join("g.json")).unwrap();
    assert!(
        g.contains("\"grid\": \"spheres\"") && g.contains("\"hints\""),
        "{g}"
    );
    let n = dir.count("g.json", None, &["--up-to", "none"]);
    assert!((1..56).contains(&n), "{n}");
    // The same bytes again for the same seed.
    dir.run(&[
        "generate", "-q", "--hints", "2", "--seed", "3", "p.json", "--out", "h.json",
    ])
    .code(0);
    assert_eq!(
        g,
        std::fs::read_to_string(dir.path().join("h.json")).unwrap()
    );
    // A hint in the layer frame: the pair on the pyramid's top two layers.
    let hinted = PYRAMID.replace(
        "\"pieces\"",
        "\"hints\": [{\"piece\": \"pair\", \"cells\": [[0, 0, 1], [0, 0, 2]]}], \"pieces\"",
    );
    dir.write("h1.json", &hinted);
    let n = dir.count("h1.json", None, &["--up-to", "none"]);
    assert!(n > 0 && n < 56, "{n}");
}

fn one_line(r: &Run, what: &[&str]) {
    r.code(2);
    let line = r.stderr.trim_end();
    r.check(!line.contains('\n'), "one line");
    for w in what {
        r.stderr_has(w);
    }
}

#[test]
fn sphere_inputs_are_refused_with_one_line() {
    let dir = Dir::new();
    dir.write("g.json", &PYRAMID.replace("\"spheres\"", "\"octagons\""));
    one_line(
        &dir.run(&["solve", "g.json"]),
        &["g.json", "grid", "octagons"],
    );
    dir.write(
        "d.json",
        &PYRAMID.replace("[[0, 0, 0], [1, 0, 0]]}", "[[0, 0, 0], [2, 0, 0]]}"),
    );
    one_line(
        &dir.run(&["solve", "d.json"]),
        &["d.json", "pieces[2]", "not connected"],
    );
    // A '#' where x + y + z is odd: BurrTools keeps it in one orientation and drops it in the
    // others, so cubesat refuses it and names the element.
    let odd = "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"2\"/>\n<colors/>\n<shapes>\n<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">#__#</voxel>\n</shapes>\n<problems>\n<problem name=\"p\"><shapes><shape id=\"0\" count=\"1\"/></shapes><result id=\"1\"/><bitmap/></problem>\n</problems>\n</puzzle>\n";
    dir.write("odd.xml", odd);
    one_line(
        &dir.run(&["solve", "odd.xml"]),
        &["odd.xml", "<voxel> (shape 0)", "x + y + z is even"],
    );
    // On the tetrahedra-octahedra grid voxel [0, 0, 0] is no cell either, for its own reason.
    dir.write("tetra.xml", &odd.replace("type=\"2\"/>", "type=\"4\"/>"));
    one_line(
        &dir.run(&["info", "tetra.xml"]),
        &[
            "<voxel> (shape 0)",
            "no cell of the tetrahedra-octahedra grid",
            "centre of a block of 3x3x3 voxels",
        ],
    );
    // BurrTools also takes apart only cube-grid assemblies.
    dir.write("p.json", PYRAMID);
    one_line(
        &dir.run(&["solve", "--disassemble", "p.json"]),
        &["--disassemble", "cubes and prisms only", "spheres"],
    );
}
