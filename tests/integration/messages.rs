//! Clear messages (issue 30): argument errors are one line, user text a message repeats is
//! cut and escaped (a 400 KB name, 60,000 problem names, terminal escape sequences), counts
//! and statistics read right (plurals, the SAT engine's figures, BurrTools' part order) and
//! `list` lines up.

use crate::common::{Dir, Run};

/// Expects a one-line error with exit code 2, shorter than `max` bytes.
fn one_line_error(r: &Run, max: usize) {
    r.code(2);
    r.check(
        r.stderr.lines().count() == 1 && r.stderr.starts_with("cubesat: error: "),
        "one line starting with 'cubesat: error: '",
    );
    r.check(
        r.stderr.len() < max,
        &format!("an error line under {max} bytes"),
    );
}

// 12. Argument errors.

#[test]
fn argument_errors_are_one_line_with_exit_2() {
    let dir = Dir::new();
    for (args, says) in [
        (
            &["solve", "--bogus"][..],
            "unexpected argument '--bogus' found",
        ),
        (&[], "no command given (solve, info, list,"),
        (&["frob"], "unrecognized subcommand 'frob'"),
        (
            &["solve", "--limit", "0"],
            "invalid value '0' for '--limit <N>'",
        ),
        (
            &["solve", "--limit"],
            "a value is required for '--limit <N>'",
        ),
        (
            &["solve", "--limx", "3"],
            "tip: a similar argument exists: '--limit'",
        ),
        (&["solve", "a", "b"], "unexpected argument 'b' found"),
        (
            &["stl", "soma"],
            "the following required arguments were not provided: --out <DIR>",
        ),
        (&["render"], "not provided: --format <FORMAT>, <SOLUTIONS>"),
        (
            &["solve", "--format", "xx"],
            "[possible values: text, json, svg, html]",
        ),
        (
            &["solve", "--all", "--limit", "3"],
            "the argument '--all' cannot be used with '--limit <N>'",
        ),
        (&["solve", "--up-to", "x"], "unknown counting mode 'x'"),
        (&["generate"], "--hints <K>"),
        (&["merge"], "<FILE>..."),
        (&["help", "frob"], "unrecognized subcommand 'frob'"),
    ] {
        let r = dir.run(args);
        one_line_error(&r, 400);
        r.stderr_has(says).stderr_has("--help'");
    }
    // The subcommand's own help is named.
    dir.run(&["solve", "--bogus"])
        .stderr_has("see 'cubesat solve --help'");
    // Help and version print as usual, on stdout.
    let help = dir.run(&["solve", "--help"]);
    help.code(0).stdout_has("Usage: cubesat solve");
    help.check(help.stdout.lines().count() > 20, "the whole help");
    dir.run(&["--version"]).code(0).stdout_has("cubesat ");
}

// 13. Long names and lists.

/// A puzzle file of one domino piece named `piece` (as a JSON string body) into a 2x1x1 box,
/// with `extra` top-level members.
fn domino(piece: &str, extra: &str) -> String {
    format!(
        r#"{{"target": {{"box": [2, 1, 1]}}, "pieces": [{{"name": "{piece}", "cells": [[0,0,0],[1,0,0]]}}]{extra}}}"#
    )
}

#[test]
fn long_names_and_lists_are_cut_in_messages() {
    let dir = Dir::new();
    let long = "n".repeat(400_000);
    // A piece name over its bound, an unknown key and a hint's piece name of 400 KB.
    dir.write("piece.json", &domino(&long, ""));
    dir.write("key.json", &domino("d", &format!(r#", "{long}": 1"#)));
    dir.write(
        "hint.json",
        &domino(
            "d",
            &format!(r#", "hints": [{{"piece": "{long}", "cells": [[0,0,0],[1,0,0]]}}]"#),
        ),
    );
    for (file, says) in [
        ("piece.json", "piece name 'nnnn"),
        ("key.json", "unknown key 'nnnn"),
        ("hint.json", "no piece named 'nnnn"),
    ] {
        let r = dir.run(&["solve", file]);
        one_line_error(&r, 1000);
        r.stderr_has(says).stderr_has("characters cut]");
    }
    // A BurrTools file with 60,000 problems: a wrong --problem lists the first few.
    let problems: String = (0..60_000)
        .map(|i| format!("<problem name=\"p{i}\"><shapes><shape id=\"0\" count=\"2\"/></shapes><result id=\"1\"/><bitmap/></problem>\n"))
        .collect();
    dir.write(
        "many.xml",
        &format!(
            "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n<colors/>\n<shapes>\n<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">####</voxel>\n</shapes>\n<problems>\n{problems}</problems>\n</puzzle>\n"
        ),
    );
    let r = dir.run(&["solve", "many.xml", "--problem", "nope"]);
    one_line_error(&r, 1000);
    r.stderr_has("no problem named 'nope' (problems: 0 'p0', 1 'p1',")
        .stderr_has("7 'p7' (and 59992 more)");
    // show --piece on a puzzle of 100 pieces.
    let pieces: Vec<String> = (0..100)
        .map(|i| format!(r#"{{"name": "m{i}", "cells": [[0,0,0]]}}"#))
        .collect();
    dir.write(
        "hundred.json",
        &format!(
            r#"{{"target": {{"box": [10, 10, 1]}}, "pieces": [{}]}}"#,
            pieces.join(", ")
        ),
    );
    let r = dir.run(&["show", "hundred.json", "--piece", "nope"]);
    r.code(2)
        .stderr_has("(pieces: m0, m1, m2, m3, m4, m5, m6, m7 (and 92 more))\n")
        // The warning that the 100 pieces share a shape is cut the same way.
        .stderr_has("pieces 'm0' and 'm1' and 'm2' and 'm3' and 'm4' and 'm5' and 'm6' and 'm7' (and 92 more) have the same shape");
    r.check(r.stderr.lines().count() == 2, "a warning and an error");
    // A value clap repeats.
    let value = "x".repeat(100_000);
    let r = dir.run(&["solve", "--up-to", &value]);
    one_line_error(&r, 1000);
    r.stderr_has("characters cut]");
    // A title of 400 KB: the statistics line on stderr is cut, the output is the user's.
    dir.write(
        "title.json",
        &domino("d", &format!(r#", "name": "{long}""#)),
    );
    let r = dir.run(&["solve", "title.json", "--count"]);
    r.code(0).stdout_is("1 solution up to rotation\n");
    r.check(r.stderr.len() < 1000, "a statistics line under 1000 bytes")
        .stderr_has("characters cut]");
}

// 15. Terminal escape sequences.

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = Dir::new();
    let no_escape = |r: &Run| {
        r.check(
            !r.stdout.contains('\x1b') && !r.stderr.contains('\x1b') && !r.stderr.contains('\x07'),
            "no raw escape character on stdout or stderr",
        );
    };
    // A puzzle name with escape sequences is refused, as piece names are.
    dir.write(
        "esc.json",
        &domino("d", r#", "name": "evil\u001b[31mRED\u001b]0;pwned\u0007""#),
    );
    let r = dir.run(&["solve", "esc.json"]);
    one_line_error(&r, 400);
    no_escape(&r);
    r.stderr_has("esc.json: name: the puzzle name 'evil\\u{1b}[31mRED")
        .stderr_has("holds the control character \\u{1b}");
    dir.write("bidi.json", &domino("d", r#", "name": "abc\u202edef""#));
    let r = dir.run(&["info", "bidi.json"]);
    one_line_error(&r, 400);
    r.stderr_has("\\u{202e}");
    // A file name with an escape sequence names an unnamed puzzle: shown escaped.
    dir.write("e\x1b[31mx.json", &domino("d", ""));
    let r = dir.run(&["solve", "e\x1b[31mx.json"]);
    r.code(0)
        .stdout_has("e\\u{1b}[31mx, solution 1")
        .stderr_has("cubesat: e\\u{1b}[31mx: 1 piece");
    no_escape(&r);
    // A BurrTools problem name with a newline and a tab: escaped in titles, and a converted
    // file reads back.
    dir.write(
        "nl.xml",
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n<colors/>\n<shapes>\n<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n<voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">####</voxel>\n</shapes>\n<problems>\n<problem name=\"two&#10;lines&#9;tab\"><shapes><shape id=\"0\" count=\"2\"/></shapes><result id=\"1\"/><bitmap/></problem>\n</problems>\n</puzzle>\n",
    );
    let r = dir.run(&["solve", "nl.xml"]);
    r.code(0).stdout_has("two\\nlines\\ttab, solution 1");
    dir.run(&["info", "nl.xml"])
        .code(0)
        .stdout_has("0: 'two\\nlines\\ttab'");
    dir.run(&["convert", "-q", "nl.xml", "nl.json"]).code(0);
    dir.run(&["solve", "nl.json", "--count", "-q"]).code(0);
    // What clap repeats.
    let r = dir.run(&["solve", "--format", "\x1b]0;pwned\x07"]);
    one_line_error(&r, 400);
    no_escape(&r);
}

// 23. Counts and statistics.

#[test]
fn counts_and_statistics_read_right() {
    let dir = Dir::new();
    // Plurals: one branch, one symmetry, one copy, one cell.
    dir.write(
        "dd.json",
        r#"{"name": "two dominoes", "target": {"box": [2,2,1]}, "pieces": [{"name": "d", "cells": [[0,0,0],[1,0,0]], "count": 2}]}"#,
    );
    dir.run(&["solve", "dd.json", "--count"])
        .code(0)
        .stderr_has("1 branch, one per placement there");
    dir.write(
        "chiral.json",
        r#"{"name": "chiral", "target": {"cells": [[0,0,0],[1,0,0],[2,0,0],[2,1,0],[2,1,1]]}, "pieces": [{"name": "m", "cells": [[0,0,0]], "count": 5}]}"#,
    );
    dir.run(&["info", "chiral.json"])
        .code(0)
        .stdout_has("up to rotation (1 symmetry)");
    dir.write(
        "one.json",
        r#"{"name": "one", "target": {"box": [1,1,1]}, "pieces": [{"name": "m", "cells": [[0,0,0]]}]}"#,
    );
    dir.run(&["info", "one.json"])
        .code(0)
        .stdout_has("target: 1 cell (")
        .stdout_has("box 1x1x1, 1 cell\n")
        .stdout_has("pieces: 1 (1 copy, volume 1)");
    for r in [
        dir.run(&["solve", "dd.json", "--count"]),
        dir.run(&["info", "chiral.json"]),
        dir.run(&["info", "one.json"]),
    ] {
        for bad in [
            "1 branches",
            "1 symmetries",
            "1 copies",
            "1 cells",
            "1 nodes",
        ] {
            r.check(
                !r.stdout.contains(bad) && !r.stderr.contains(bad),
                &format!("no '{bad}'"),
            );
        }
    }
}

/// The figure after `after` in `s` ("none" is 0).
fn figure(s: &str, after: &str) -> u64 {
    let at = s
        .find(after)
        .unwrap_or_else(|| panic!("no {after:?} in {s}"))
        + after.len();
    match s[at..].split([' ', ':', ',']).next().unwrap() {
        "none" => 0,
        n => n.parse().unwrap(),
    }
}

#[test]
fn sat_statistics_add_up_and_say_why_varisat_solved_none() {
    let dir = Dir::new();
    let r = dir.run(&["solve", "pentominoes-6x10", "--engine", "sat", "--count"]);
    r.code(0).stdout_is("2339 solutions up to rotation\n");
    let s = &r.stderr;
    // The cubes there were to solve: after cutting some deeper, or as cut.
    let before = |what: &str| -> u64 {
        let head = &s[..s.find(what).unwrap()];
        head.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let to_solve = if s.contains(" after cutting ") {
        before(" after cutting ")
    } else {
        before(" cubes: ")
    };
    let total = figure(s, "exact engine closed ")
        + figure(s, "the lookahead refuted ")
        + figure(s, "varisat solved ");
    r.check(
        total == to_solve,
        "the cubes closed, refuted and solved add up to the cubes there were",
    );
    r.stderr_has("varisat solved none (it gets only the cubes the exact engine cannot close");
}

#[test]
fn the_burrtools_count_line_says_how_part_order_decides_mirror_images() {
    let dir = Dir::new();
    let f = format!(
        "{}/tests/data/burrtools/reference/06b_mirror_paradox.xmpuzzle",
        env!("CARGO_MANIFEST_DIR")
    );
    // The same parts in two orders: 38 and 27 (BurrTools' own counts).
    dir.run(&["solve", "--count", "-q", &f, "--problem", "1"])
        .code(0)
        .stdout_has("38 solutions in BurrTools' convention")
        .stdout_has("BurrTools pairs chiral copies in part order: no copy, then stops at 'X_chiral_pentacube', which has no mirror partner left");
    dir.run(&["solve", "--count", "-q", &f, "--problem", "2"])
        .code(0)
        .stdout_has("27 solutions in BurrTools' convention")
        .stdout_has(
            "in part order: 2 'screw_a' with 2 'screw_b', then stops at 'X_chiral_pentacube'",
        );
}

#[test]
fn list_columns_line_up_within_100_characters() {
    let dir = Dir::new();
    let r = dir.run(&["list"]);
    r.code(0).stdout_has("solid-pentominoes-3x4x5");
    let lines: Vec<&str> = r.stdout.lines().collect();
    r.check(
        lines.iter().all(|l| l.chars().count() <= 100),
        "every line fits 100 characters",
    );
    // Every title starts where the header's does, every target box where its heading does.
    let title = lines[0].find("title").unwrap();
    let target = lines[0].find("target").unwrap();
    for l in &lines[1..] {
        r.check(
            l.as_bytes()[title - 1] == b' ' && l.as_bytes()[title] != b' ',
            "titles line up",
        );
        r.check(
            l[target..].starts_with(|c: char| c.is_ascii_digit()),
            "target boxes line up",
        );
    }
}
