//! The first hour with pictures (issue 30): `show` draws the target in the file's own symbols,
//! copies of one piece can be told apart in every view and in STL files, and a puzzle sheet
//! lays its pieces out apart, names them, and offers no assembly it does not have.

use crate::common::{Dir, Run};

/// Six copies of one domino into a 3x2x2 box.
const BLOCKS: &str = r#"{"name": "six blocks", "target": {"box": [3, 2, 2]},
    "pieces": [{"name": "block", "letter": "b", "cells": [[0,0,0],[1,0,0]], "count": 6}]}"#;

/// A target with an optional cell and a cell outside it.
const HOLEY: &str = r####"{"name": "holey", "target": {"layers": [["##+", "#.#"], ["###", "..."]]},
    "pieces": [{"name": "m", "cells": [[0,0,0]], "count": 7}]}"####;

// 20. show's target.

/// The layer-art rows `show` prints for the target: the lines after its `z=` header, each
/// split into its layers.
fn target_rows(r: &Run) -> Vec<Vec<String>> {
    let lines: Vec<&str> = r.stdout.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("z=0"))
        .expect("a target");
    lines[at + 1..]
        .iter()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn show_draws_the_target_as_the_file_writes_it() {
    let dir = Dir::new();
    dir.write("holey.json", HOLEY);
    let r = dir.run(&["show", "holey.json"]);
    r.code(0)
        .stdout_has("holey: target, as in a puzzle file (# = must be filled, + = may stay empty, . = not part of the target)");
    r.check(
        !r.stdout.contains(". = empty"),
        "'.' never means an empty target cell",
    );
    let rows = target_rows(&r);
    r.check(
        rows == [vec!["##+", "###"], vec!["#.#", "..."]],
        "the rows of the file's layers, side by side",
    );
    // Pasted back as layers, the rows make the same target.
    let layers: Vec<String> = (0..2)
        .map(|z| {
            let rows: Vec<String> = rows.iter().map(|r| format!("\"{}\"", r[z])).collect();
            format!("[{}]", rows.join(", "))
        })
        .collect();
    dir.write(
        "pasted.json",
        &HOLEY.replace(
            r####"[["##+", "#.#"], ["###", "..."]]"####,
            &format!("[{}]", layers.join(", ")),
        ),
    );
    let info = |f: &str| {
        let r = dir.run(&["info", f]);
        r.code(0);
        r.stdout
            .lines()
            .filter(|l| l.contains("target:") || l.contains("container"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(info("holey.json"), info("pasted.json"));
    // Soma: three full layers.
    let r = dir.run(&["show", "soma"]);
    r.code(0).stdout_has("z=0   z=1   z=2\n###   ###   ###\n");
}

// 21. Copies.

#[test]
fn copies_are_told_apart_in_text_json_svg_and_html() {
    let dir = Dir::new();
    dir.write("blocks.json", BLOCKS);
    let text = dir.run(&["solve", "blocks.json", "-q"]);
    text.code(0)
        .stdout_has("b1 b1 b5   b3 b3 b6\nb2 b2 b5   b4 b4 b6\n")
        .stdout_has("legend: b1..b6 = block");
    // JSON: a copy index beside the keys there were.
    let json = dir.run(&["solve", "blocks.json", "-q", "--format", "json"]);
    json.code(0);
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    let pieces = first["pieces"].as_array().unwrap();
    let copies: Vec<u64> = pieces.iter().map(|p| p["copy"].as_u64().unwrap()).collect();
    json.check(copies == [1, 2, 3, 4, 5, 6], "copies numbered 1 to 6");
    for p in pieces {
        for key in ["piece", "letter", "hint", "container", "cells"] {
            json.check(p.get(key).is_some(), &format!("the key {key} is kept"));
        }
    }
    // The JSON renders back with the same marks.
    dir.write("blocks.jsonl", &json.stdout);
    dir.run(&["render", "blocks.jsonl", "--format", "text"])
        .code(0)
        .stdout_has("b1 b1 b5   b3 b3 b6");
    // SVG: six legend rows, six fill colours.
    let svg = dir.run(&["solve", "blocks.json", "-q", "--format", "svg"]);
    svg.code(0);
    let legend = &svg.stdout[svg.stdout.find(r#"<g id="legend""#).unwrap()..];
    let mut fills: Vec<&str> = legend.split(r#"fill=""#).skip(2).map(|s| &s[..7]).collect();
    for k in 1..=6 {
        svg.stdout_has(&format!(">b{k}  block</text>"));
    }
    fills.sort_unstable();
    fills.dedup();
    svg.check(fills.len() == 6, "six shades");
    // HTML: six legend entries, each with its mark and a colour of its own.
    let html = dir.run(&["solve", "blocks.json", "-q", "--format", "html"]);
    html.code(0);
    let page = &html.stdout;
    let open = r#"<script id="data" type="application/json">"#;
    let start = page.find(open).unwrap() + open.len();
    let data: serde_json::Value =
        serde_json::from_str(&page[start..start + page[start..].find("</script>").unwrap()])
            .unwrap();
    let legend = data["legend"].as_array().unwrap();
    let marks: Vec<&str> = legend.iter().map(|e| e[1].as_str().unwrap()).collect();
    html.check(
        marks == ["b1", "b2", "b3", "b4", "b5", "b6"],
        "marks b1..b6",
    );
    let mut colours: Vec<&str> = legend.iter().map(|e| e[3].as_str().unwrap()).collect();
    colours.sort_unstable();
    colours.dedup();
    html.check(colours.len() == 6, "six colours");
}

#[test]
fn stl_says_how_many_to_print_and_bounds_the_gap() {
    let dir = Dir::new();
    dir.write("blocks.json", BLOCKS);
    let r = dir.run(&["stl", "blocks.json", "--out", "out"]);
    r.code(0)
        .stderr_has("wrote out/piece-1-block-x6.stl (piece 'block', print 6 copies;");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut names = names;
    names.sort();
    r.check(
        names == ["piece-1-block-x6.stl", "solution.stl"],
        "one file per piece, named with its count, and the solution",
    );
    let head = std::fs::read(dir.path().join("out/piece-1-block-x6.stl")).unwrap();
    r.check(
        String::from_utf8_lossy(&head[..80]).contains("print 6 copies"),
        "the STL header says it too",
    );
    // --help names the files as they are written.
    dir.run(&["stl", "--help"])
        .code(0)
        .stdout_has("piece-K-NAME.stl")
        .stdout_has("piece-K-NAME-xN.stl");
    // A gap that leaves half a millimetre of a 10 mm cube.
    let r = dir.run(&["stl", "soma", "--out", "g", "--cube", "10", "--gap", "9.5"]);
    r.code(2)
        .stderr_has("--gap 9.5: the gap must be at least 0 and at most a quarter of the cube size (2.5 mm for 10 mm cubes), not 9.5: it would leave a part of a piece one cube wide 0.5 mm thick");
    r.check(r.stderr.lines().count() == 1, "one line");
    r.check(!dir.path().join("g").exists(), "nothing written");
}

// 22. Puzzle sheets.

/// The page bounding box (x0, y0, x1, y1) of every `<g id="piece-N">` of an SVG, with its
/// `data-hint`.
fn piece_boxes(svg: &str) -> Vec<(bool, [f64; 4])> {
    let mut out = Vec::new();
    for part in svg.split(r#"<g id="piece-"#).skip(1) {
        let group = &part[..part.find("</g>").unwrap()];
        let hint = group.contains(r#"data-hint="true""#);
        let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        // The faces' outlines (a hint's white dots are drawn inside them).
        for path in group.split("<path").skip(1) {
            if path.contains("hint-mark") {
                continue;
            }
            let d = &path[path.find(r#" d=""#).unwrap() + 4..];
            let d = &d[..d.find('"').unwrap()];
            let nums: Vec<f64> = d
                .split(['M', 'L', 'Z', ' '])
                .filter_map(|t| t.parse().ok())
                .collect();
            for p in nums.chunks(2).filter(|p| p.len() == 2) {
                b = [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ];
            }
        }
        out.push((hint, b));
    }
    out
}

#[test]
fn the_puzzle_sheet_lays_pieces_apart_names_them_and_offers_no_assembly() {
    let dir = Dir::new();
    let r = dir.run(&[
        "generate",
        "--hints",
        "2",
        "--seed",
        "1",
        "--no-solution",
        "--format",
        "svg",
        "-q",
    ]);
    r.code(0);
    let boxes = piece_boxes(&r.stdout);
    let loose: Vec<[f64; 4]> = boxes.iter().filter(|b| !b.0).map(|b| b.1).collect();
    r.check(loose.len() == 10, "ten pieces to place");
    // No two pieces' pictures overlap (the hints sit in the target, apart from them too).
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[..i] {
            if a.0 && b.0 {
                continue;
            }
            let (a, b) = (a.1, b.1);
            let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
            r.check(apart, &format!("pieces overlap: {a:?} and {b:?}"));
        }
    }
    // Each piece to place is labelled with its name, under it.
    let labels = &r.stdout[r.stdout.find(r#"<g id="labels""#).expect("labels")..];
    let labels = &labels[..labels.find("</g>").unwrap()];
    r.check(labels.matches("<text ").count() == 10, "ten labels");
    for name in ["0", "3", "9", "B"] {
        r.check(
            labels.contains(&format!(">{name}</text>")),
            &format!("piece {name} is labelled"),
        );
    }
    // The HTML sheet has no assembly controls; the solution page after it has.
    let data = |args: &[&str]| -> serde_json::Value {
        let r = dir.run(args);
        r.code(0);
        let page = &r.stdout;
        let open = r#"<script id="data" type="application/json">"#;
        let start = page.find(open).unwrap() + open.len();
        serde_json::from_str(&page[start..start + page[start..].find("</script>").unwrap()])
            .unwrap()
    };
    let sheet = data(&[
        "generate",
        "--hints",
        "2",
        "--no-solution",
        "--format",
        "html",
        "-q",
    ]);
    assert_eq!(sheet["scenes"][0]["a"], 0, "a sheet offers no assembly");
    let both = data(&["generate", "--hints", "2", "--format", "html", "-q"]);
    assert_eq!(both["scenes"][0]["a"], 0);
    assert!(both["scenes"][1].get("a").is_none(), "the solution does");
    let page = dir.run(&["show", "soma", "--format", "html"]);
    page.code(0).stdout_has(r#"<span id="asm">"#);
}
