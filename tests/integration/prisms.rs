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

/// Every polyiamond of the catalog written as a BurrTools file and read back counts the same
/// up to rotation (BurrTools' own `burrTxt` gives 156, 74 and 61,251 for three of these
/// files: hexiamonds-6x6, hexiamonds-4x9, polyiamonds-12345-bat).
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
