//! Malformed input: every bad file or argument (puzzle files, saved solutions, exported instances, solver answers) gives one line on stderr naming the file and the place, exit code 2, and never a panic; saved solutions render back.

use crate::common::Dir;

/// (file name, contents, expected fragment of the error line)
const CASES: &[(&str, &str, &str)] = &[
    (
        "syntax.json",
        "{\n  \"target\": ,\n}",
        "syntax.json: line 2, column 13: invalid JSON",
    ),
    (
        "unknown-key.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}], "hint": []}"#,
        "unknown-key.json: hint: unknown key 'hint'",
    ),
    (
        "no-target.json",
        r#"{"pieces": [{"name": "D", "cells": [[0,0,0]]}]}"#,
        "no-target.json: (top level): the puzzle has no 'target'",
    ),
    (
        "bad-box.json",
        r#"{"target": {"box": [2,1]}, "pieces": [{"name": "D", "cells": [[0,0,0]]}]}"#,
        "bad-box.json: target.box: expected a box size [x, y, z], found 2 values",
    ),
    (
        "two-forms.json",
        r#"{"target": {"box": [2,1,1], "cells": [[0,0,0]]}, "pieces": [{"name": "D", "cells": [[0,0,0]]}]}"#,
        "two-forms.json: target: give exactly one of",
    ),
    (
        "huge.json",
        r#"{"target": {"box": [1000,1000,1000]}, "pieces": [{"name": "D", "cells": [[0,0,0]]}]}"#,
        "huge.json: target.box: box of 1000000000 cells, more than the 65536 cubesat accepts",
    ),
    (
        "disconnected.json",
        r#"{"target": {"box": [3,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[2,0,0]]}, {"name": "m", "cells": [[0,0,0]]}]}"#,
        "disconnected.json: pieces[0]: piece 'D' is not face-connected",
    ),
    (
        "empty-piece.json",
        r#"{"target": {"box": [1,1,1]}, "pieces": [{"name": "D", "cells": []}]}"#,
        "empty-piece.json: pieces[0]: piece 'D' has no cells",
    ),
    (
        "empty-layers.json",
        r#"{"target": {"box": [1,1,1]}, "pieces": [{"name": "D", "layers": [["..."]]}]}"#,
        "empty-layers.json: pieces[0]: piece 'D' has no cells",
    ),
    (
        "bad-char.json",
        r##"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "layers": [["#x"]]}]}"##,
        "bad-char.json: pieces[0].layers[0][0]: unexpected character 'x' at column 2",
    ),
    (
        "bad-target-char.json",
        r##"{"target": {"layers": [["#", "#?"]]}, "pieces": [{"name": "D", "cells": [[0,0,0]]}]}"##,
        "bad-target-char.json: target.layers[0][1]: unexpected character '?' at column 2",
    ),
    (
        "bad-cell.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,"0",0]]}]}"#,
        "bad-cell.json: pieces[0].cells[1][1]: expected an integer, found a string",
    ),
    (
        "dup-cell.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[0,0,0]]}]}"#,
        "dup-cell.json: pieces[0].cells[1]: cell [0, 0, 0] is listed twice",
    ),
    (
        "dup-name.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0]]}, {"name": "D", "cells": [[0,0,0]]}]}"#,
        "dup-name.json: pieces[1].name: piece name 'D' is already used by pieces[0]",
    ),
    (
        "zero-count.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "count": 0, "cells": [[0,0,0]]}]}"#,
        "zero-count.json: pieces[0].count: 0 is out of range (1 to 4096)",
    ),
    (
        "volume.json",
        r#"{"target": {"box": [3,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}]}"#,
        "volume.json: pieces: the pieces' total volume is 2 cells but the target has 3 cells",
    ),
    (
        "volume-optional.json",
        r##"{"target": {"layers": [["#+"]]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0],[2,0,0]]}]}"##,
        "volume-optional.json: pieces: the pieces' total volume is 3 cells but the target needs between 1 and 2",
    ),
    (
        "hint-piece.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}], "hints": [{"piece": "Q", "cells": [[0,0,0],[1,0,0]]}]}"#,
        "hint-piece.json: hints[0].piece: no piece named 'Q'",
    ),
    (
        "hint-shape.json",
        r#"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]}], "hints": [{"piece": "D", "cells": [[0,0,0],[1,1,0]]}]}"#,
        "hint-shape.json: hints[0].cells: these cells are not a rotation of piece 'D'",
    ),
    (
        "hint-outside.json",
        r#"{"target": {"box": [2,1,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}], "hints": [{"piece": "D", "cells": [[1,0,0],[2,0,0]]}]}"#,
        "hint-outside.json: hints[0].cells[1]: [2, 0, 0] is not a cell of the target's container 0",
    ),
    (
        "hint-overlap.json",
        r#"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "count": 2, "cells": [[0,0,0],[1,0,0]]}], "hints": [{"piece": "D", "cells": [[0,0,0],[1,0,0]]}, {"piece": "D", "cells": [[0,0,0],[0,1,0]]}]}"#,
        "hint-overlap.json: hints[1].cells[0]: [0, 0, 0] is already taken by hints[0]",
    ),
    (
        "hint-count.json",
        r#"{"target": {"box": [2,2,1]}, "pieces": [{"name": "D", "cells": [[0,0,0],[1,0,0]]}, {"name": "E", "cells": [[0,0,0],[1,0,0]]}], "hints": [{"piece": "D", "cells": [[0,0,0],[1,0,0]]}, {"piece": "D", "cells": [[0,1,0],[1,1,0]]}]}"#,
        "hint-count.json: hints[1]: more hints for piece 'D' than its count (1)",
    ),
    (
        "not-object.json",
        "[1, 2]",
        "not-object.json: (top level): expected a puzzle (a JSON object), found an array",
    ),
];

#[test]
fn every_malformed_file_gives_one_line_with_its_place_and_exit_2() {
    let dir = Dir::new();
    for (name, contents, expected) in CASES {
        dir.write(name, contents);
        let run = dir.run(&["solve", name]);
        run.code(2).stderr_has(expected);
        run.check(
            run.stderr.lines().count() == 1,
            "the error must be one line",
        );
        run.check(
            run.stderr.starts_with("cubesat: error: "),
            "the error line starts with 'cubesat: error: '",
        );
        run.check(run.stdout.is_empty(), "nothing on stdout");
        // The same file fails the same way for every command that reads puzzles.
        dir.run(&["info", name]).code(2).stderr_has(expected);
    }
}

#[test]
fn missing_files_and_unknown_puzzles_are_errors() {
    let dir = Dir::new();
    dir.run(&["solve", "./nope.json"])
        .code(2)
        .stderr_has("./nope.json: no such file");
    dir.run(&["solve", "nope"])
        .code(2)
        .stderr_has("'nope' is neither a file nor a bundled puzzle");
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let dir = Dir::new();
    let big = format!("{{\"comment\": \"{}\"}}", "x".repeat(9 << 20));
    dir.write("big.json", &big);
    dir.run(&["solve", "big.json"])
        .code(2)
        .stderr_has("big.json: file is");
}

#[test]
fn bad_arguments_exit_2() {
    let dir = Dir::new();
    dir.run(&["solve", "soma", "--up-to", "sideways"])
        .code(2)
        .stderr_has("unknown counting mode 'sideways'");
    dir.run(&["solve", "soma", "--engine", "magic"])
        .code(2)
        .stderr_has("unknown engine 'magic'");
    dir.run(&["solve", "--count", "--up-to", "rotation+reflection"])
        .code(2)
        .stderr_has("needs the mirror image of every chiral piece");
    // A cube split past the bound is refused before any cube is made.
    let r = dir.run(&["solve", "soma", "--engine", "sat", "--cubes", "99999999"]);
    r.code(2)
        .stderr_has("--cubes 99999999 is too many (at most 4194304)")
        .check(r.stderr.lines().count() == 1, "one error line");
}

#[test]
fn bad_inputs_to_render_decode_and_export_are_one_line_errors() {
    let dir = Dir::new();
    let one_line = |r: &crate::common::Run| {
        r.check(
            r.stderr.lines().count() == 1 && r.stderr.starts_with("cubesat: error: "),
            "one error line",
        );
    };
    dir.write("bad.jsonl", "not json\n");
    let r = dir.run(&["render", "bad.jsonl", "--format", "svg"]);
    r.code(2)
        .stderr_has("bad.jsonl: line 1, column 2: invalid JSON");
    one_line(&r);
    dir.write("nosummary.jsonl", "{\"type\":\"solution\",\"pieces\":[]}\n");
    let r = dir.run(&["render", "nosummary.jsonl", "--format", "html"]);
    r.code(2)
        .stderr_has("nosummary.jsonl: no summary line with the puzzle");
    one_line(&r);
    dir.run(&["export", "soma", "--format", "dlx", "--out", "soma.dlx"])
        .code(0);
    dir.write("garbage.txt", "garbage\n");
    let r = dir.run(&["decode", "soma.dlx", "garbage.txt"]);
    r.code(2)
        .stderr_has("soma.dlx with garbage.txt: answer: no DLX solution found");
    one_line(&r);
    let r = dir.run(&["decode", "missing.cnf", "garbage.txt"]);
    r.code(2).stderr_has("missing.cnf: cannot read");
    one_line(&r);
    let r = dir.run(&[
        "export",
        "tetracubes-two-2x2x4",
        "--format",
        "dimacs",
        "--up-to",
        "rotation",
    ]);
    r.code(2)
        .stderr_has("does not leave exactly one solution per rotation class");
    one_line(&r);
    r.check(r.stdout.is_empty(), "nothing exported");
}

#[test]
fn saved_solutions_render_back() {
    let dir = Dir::new();
    let saved = dir.run(&[
        "solve", "soma", "--limit", "2", "--format", "json", "--quiet",
    ]);
    saved.code(0);
    dir.write("soma.jsonl", &saved.stdout);
    let svg = dir.run(&["render", "soma.jsonl", "--format", "svg"]);
    svg.code(0)
        .stdout_has("<svg")
        .stdout_has("Soma cube, solution 1");
    let html = dir.run(&[
        "render",
        "soma.jsonl",
        "--format",
        "html",
        "--out",
        "soma.html",
    ]);
    html.code(0);
    let page = std::fs::read_to_string(dir.path().join("soma.html")).expect("page written");
    html.check(
        page.contains("Soma cube, solution 2"),
        "both solutions in the page",
    );
}
