//! The prism grid (BurrTools' grid 1, triangular prisms) typed as people type it: JSON layer art counts as its BurrTools file, hints, `generate` and the refusals work on it (its BurrTools files: `burrtools_grids.rs`).

use crate::common::*;

/// A hexagon of side 2 (24 triangles) in layer art: typed triangle `[x, j]` points up where
/// `x + j` is even, so the rows read as the picture: 5, 7, 7 and 5 triangles, the top row
/// starting with an upward one (column 2: the left corner of the second row is column 1,
/// and the art starts at an even column).
const HEXAGON: &str = r#########"{"name": "hexagon of side 2", "grid": "prisms",
 "target": {"layers": [["..#####.", ".#######", ".#######", "..#####."]]},
 "pieces": [
  {"name": "bar", "count": 3, "layers": [["####"]]},
  {"name": "hexagon", "layers": [["###", "###"]]},
  {"name": "diamond", "count": 3, "layers": [["##"]]}]}"#########;

#[test]
fn json_layer_art_counts_as_its_burrtools_file() {
    let dir = Dir::new();
    dir.write("h.json", HEXAGON);
    let raw = dir.count("h.json", None, &["--up-to", "none"]);
    let rot = dir.count("h.json", None, &["--up-to", "rotation"]);
    assert!(raw > 0 && rot > 0 && rot <= raw, "{raw} {rot}");
    // The engines agree, and the count up to the hexagon's 12 rotations, times 12, bounds
    // the count of every placement.
    assert_eq!(
        dir.count("h.json", None, &["--up-to", "none", "--engine", "dlx"]),
        raw
    );
    assert!(raw <= 12 * rot, "{raw} {rot}");
    // To BurrTools and back: the same counts, and the target written back as typed.
    dir.run(&["convert", "-q", "h.json", "h.xmpuzzle"]).code(0);
    assert_eq!(dir.count("h.xmpuzzle", None, &["--up-to", "none"]), raw);
    assert_eq!(dir.count("h.xmpuzzle", None, &["--up-to", "rotation"]), rot);
    dir.run(&["convert", "-q", "h.xmpuzzle", "back.json"])
        .code(0);
    let back = std::fs::read_to_string(dir.path().join("back.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&back).unwrap();
    assert_eq!(
        v["target"]["layers"],
        serde_json::json!([["..#####.", ".#######", ".#######", "..#####."]]),
        "{back}"
    );
    assert_eq!(dir.count("back.json", None, &["--up-to", "none"]), raw);
    // Two columns to the right is a move (each triangle keeps its direction): the same
    // counts. One column to the right turns every triangle over: another figure.
    let moved = |cols: &str| {
        HEXAGON.replace(
            "[\"..#####.\", \".#######\", \".#######\", \"..#####.\"]",
            &format!(
                "[\"{cols}..#####.\", \"{cols}.#######\", \"{cols}.#######\", \"{cols}..#####.\"]"
            ),
        )
    };
    dir.write("moved.json", &moved(".."));
    assert_eq!(dir.count("moved.json", None, &["--up-to", "none"]), raw);
    dir.write("turned.json", &moved("."));
    let r = dir.run(&["info", "turned.json"]);
    r.code(0);
    assert_ne!(r.stdout, dir.run(&["info", "h.json"]).stdout);
    // Solutions as JSON name triangles in the typed frame: every cell is a target cell.
    let r = dir.run(&["solve", "h.json", "--format", "json", "--limit", "1", "-q"]);
    r.code(0);
    let line = r.stdout.lines().next().unwrap();
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let art = ["..#####.", ".#######", ".#######", "..#####."];
    let mut seen = 0;
    for p in v["pieces"].as_array().unwrap() {
        for c in p["cells"].as_array().unwrap() {
            let c: [usize; 3] = serde_json::from_value(c.clone()).unwrap();
            assert_eq!(art[c[1]].as_bytes()[c[0]], b'#', "{c:?} in {line}");
            seen += 1;
        }
    }
    assert_eq!(seen, 24, "{line}");
    // The text picture is the art, one piece's letter per triangle.
    let t = dir.run(&["solve", "h.json", "--limit", "1", "-q"]);
    t.code(0).stdout_has("z=0");
}

#[test]
fn hints_and_generate_work_on_prisms() {
    let dir = Dir::new();
    dir.write("h.json", HEXAGON);
    let raw = dir.count("h.json", None, &["--up-to", "none"]);
    dir.run(&[
        "generate", "-q", "--hints", "2", "--seed", "5", "h.json", "--out", "g.json",
    ])
    .code(0);
    let g = std::fs::read_to_string(dir.path().join("g.json")).unwrap();
    assert!(
        g.contains("\"grid\": \"prisms\"") && g.contains("\"hints\""),
        "{g}"
    );
    let n = dir.count("g.json", None, &["--up-to", "none"]);
    assert!(n >= 1 && n < raw, "{n} of {raw}");
    // A hint typed in the frame: the hexagon piece in the middle of the board.
    let hinted = HEXAGON.replace(
        "\"pieces\"",
        "\"hints\": [{\"piece\": \"hexagon\", \"cells\": [[3, 1, 0], [4, 1, 0], [5, 1, 0], [3, 2, 0], [4, 2, 0], [5, 2, 0]]}], \"pieces\"",
    );
    dir.write("h1.json", &hinted);
    let n = dir.count("h1.json", None, &["--up-to", "none"]);
    assert!(n > 0 && n < raw, "{n} of {raw}");
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
fn prism_inputs_are_refused_with_one_line() {
    let dir = Dir::new();
    // Two triangles that meet only at a corner are not a piece.
    dir.write(
        "d.json",
        &HEXAGON.replace(
            "{\"name\": \"hexagon\", \"layers\": [[\"###\", \"###\"]]}",
            "{\"name\": \"hexagon\", \"layers\": [[\"#.#\"]]}",
        ),
    );
    one_line(
        &dir.run(&["solve", "d.json"]),
        &["d.json", "pieces[1]", "not face-connected"],
    );
    // BurrTools has no hexagon grid: a polyhex puzzle stays JSON.
    dir.write(
        "hex.json",
        r####"{"grid": "hexagons", "target": {"layers": [["###"]]}, "pieces": [{"name": "I", "layers": [["###"]]}]}"####,
    );
    one_line(
        &dir.run(&["convert", "hex.json", "hex.xmpuzzle"]),
        &["hex.json", "BurrTools has no grid of hexagons"],
    );
    // The disassembler takes prisms apart (prism_disassembly.rs), hexagons not.
    one_line(
        &dir.run(&["solve", "--disassemble", "hex.json"]),
        &["--disassemble", "hexagons"],
    );
}

/// Every polyiamond of the catalog with a published count written as a BurrTools file and
/// read back counts the same up to rotation (BurrTools' own `burrTxt` gives 156, 74 and 61,251
/// for three of these files: hexiamonds-6x6, hexiamonds-4x9, polyiamonds-12345-bat); those
/// whose count Polyform Puzzler left incomplete are open or take minutes.
#[test]
fn catalog_polyiamonds_keep_their_counts_through_burrtools_files() {
    let dir = Dir::new();
    let root = format!(
        "{}/crates/cubesat/puzzles/catalog",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut n = 0;
    for family in ["hexiamonds", "polyiamonds"] {
        for e in std::fs::read_dir(format!("{root}/{family}")).unwrap() {
            let path = e.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            let catalog = cubesat::puzzle::bundled(&name).unwrap().catalog.unwrap();
            if catalog.incomplete.is_some() {
                continue;
            }
            dir.run(&["convert", "-q", &name, "x.xmpuzzle"]).code(0);
            let up_to = ["--up-to", "rotation"];
            assert_eq!(
                dir.count("x.xmpuzzle", None, &up_to),
                dir.count(&name, None, &up_to),
                "{name}"
            );
            n += 1;
        }
    }
    assert!(n >= 60, "{n} puzzles");
}

/// Typed coordinates at the bound every grid shares (`MAX_COORD`: a target's cells from 0 to
/// 1023, a piece's within 1024 of each other) on the prism and rhombic grids, whose typed
/// cells are not their cells (a prism's row is a third of a unit; a rhombic cube is 8 typed
/// units): counted there, refused one past it with the file and the place, as on cubes
/// (`inputs.rs`), never a panic or a wrapped coordinate.
#[test]
fn typed_coordinates_at_the_bound_count_and_one_past_are_refused() {
    let dir = Dir::new();
    let file = |name: &str, grid: &str, target: String, pieces: String| {
        dir.write(
            name,
            &format!(r#"{{"grid": "{grid}", "target": {target}, "pieces": [{pieces}]}}"#),
        );
    };
    let cells = |v: &[[i32; 3]]| {
        let list: Vec<String> = v.iter().map(|c| format!("{c:?}")).collect();
        format!("[{}]", list.join(", "))
    };
    // Prisms: a trapezoid of three diamonds in the last rows and columns; two triangles at
    // opposite corners of the 1024-cube, filled by a diamond typed at the least coordinates a
    // piece may have; layer art 1024 columns wide.
    let trapezoid = [
        [1021, 1022, 0],
        [1022, 1022, 0],
        [1020, 1023, 0],
        [1021, 1023, 0],
        [1022, 1023, 0],
        [1023, 1023, 0],
    ];
    file(
        "corner.json",
        "prisms",
        format!(r#"{{"cells": {}}}"#, cells(&trapezoid)),
        r#"{"name": "d", "count": 3, "cells": [[0, 0, 0], [1, 0, 0]]}"#.into(),
    );
    let far = [[-1023, -1023, -1023], [-1022, -1023, -1023]];
    file(
        "far.json",
        "prisms",
        r#"{"cells": [[1022, 1023, 1023], [1023, 1023, 1023]]}"#.into(),
        format!(r#"{{"name": "d", "cells": {}}}"#, cells(&far)),
    );
    let row = |width: usize| format!(r#"{{"layers": [["{}##"]]}}"#, ".".repeat(width - 2));
    file(
        "wide.json",
        "prisms",
        row(1024),
        r###"{"name": "d", "layers": [["##"]]}"###.into(),
    );
    for f in ["corner.json", "far.json", "wide.json"] {
        dir.run(&["info", f]).code(0);
        assert_eq!(dir.count(f, None, &["--up-to", "none"]), 1, "{f}");
    }
    // One past: a column or row of 1024, a row of 1025 characters, a piece 1025 wide.
    let mut past = trapezoid;
    past[5][1] = 1024;
    file(
        "row.json",
        "prisms",
        format!(r#"{{"cells": {}}}"#, cells(&past)),
        r#"{"name": "d", "count": 3, "cells": [[0, 0, 0], [1, 0, 0]]}"#.into(),
    );
    one_line(
        &dir.run(&["solve", "--count", "row.json"]),
        &["row.json: target.cells[5][1]: 1024 is out of range (0 to 1023)"],
    );
    file(
        "wider.json",
        "prisms",
        row(1025),
        r###"{"name": "d", "layers": [["##"]]}"###.into(),
    );
    one_line(
        &dir.run(&["solve", "--count", "wider.json"]),
        &["wider.json: target.layers[0][0]: row is longer than 1024 characters"],
    );
    file(
        "long.json",
        "prisms",
        r#"{"cells": [[0, 0, 0], [1, 0, 0]]}"#.into(),
        r#"{"name": "d", "cells": [[-1023, 0, 0], [1, 0, 0]]}"#.into(),
    );
    one_line(
        &dir.run(&["solve", "--count", "long.json"]),
        &["long.json: pieces[0].cells: piece 'd' spans 1025 cells along x"],
    );

    // Rhombic: cube 0's 24 cells (centroids in eighths of a cube) moved to the last cube
    // below 1024, its six face pyramids typed at the least coordinates; moved one cube
    // further, past the bound.
    let cube: Vec<[i32; 3]> = (0..8)
        .flat_map(|x| (0..8).flat_map(move |y| (0..8).map(move |z| [x, y, z])))
        .filter(|&c| cubesat::geometry::Grid::Rhombic.is_cell(c))
        .collect();
    assert_eq!(cube.len(), 24);
    let moved = |d: i32| -> Vec<[i32; 3]> { cube.iter().map(|c| c.map(|v| v + d)).collect() };
    let pyramid: Vec<[i32; 3]> = moved(-1024).into_iter().filter(|c| c[2] == -1023).collect();
    assert_eq!(pyramid.len(), 4);
    let pyramids = format!(
        r#"{{"name": "p", "count": 6, "cells": {}}}"#,
        cells(&pyramid)
    );
    file(
        "rd.json",
        "rhombic",
        format!(r#"{{"cells": {}}}"#, cells(&moved(1016))),
        pyramids.clone(),
    );
    dir.run(&["info", "rd.json"]).code(0);
    assert_eq!(dir.count("rd.json", None, &["--up-to", "none"]), 1);
    assert_eq!(dir.count("rd.json", None, &[]), 1);
    file(
        "rd-past.json",
        "rhombic",
        format!(r#"{{"cells": {}}}"#, cells(&moved(1024))),
        pyramids,
    );
    one_line(
        &dir.run(&["solve", "--count", "rd-past.json"]),
        &["rd-past.json: target.cells[0][0]: 1025 is out of range (0 to 1023)"],
    );
    let spread: Vec<[i32; 3]> = moved(-1024)
        .into_iter()
        .chain(cube.iter().map(|c| [c[0] + 1000, c[1], c[2]]))
        .collect();
    file(
        "rd-long.json",
        "rhombic",
        format!(r#"{{"cells": {}}}"#, cells(&moved(1016))),
        format!(r#"{{"name": "far", "cells": {}}}"#, cells(&spread)),
    );
    one_line(
        &dir.run(&["solve", "--count", "rd-long.json"]),
        &["rd-long.json: pieces[0].cells: piece 'far' spans 2031 cells along x"],
    );
}
