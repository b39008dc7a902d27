//! A new user's first hour (issue 17): interrupted runs and unfinished solver answers never
//! read as "no solution", CryptoMiniSat's solution lists decode, duplicate shapes are warned
//! about, formats refuse what they cannot show, generated puzzles print as sheets, `show`
//! draws pieces, and the causes of impossible puzzles are named.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{Dir, Run};

/// The 35 free hexominoes (layer art rows joined by `|`): 210 cells, but 11 of them cover
/// four cells of one checkerboard colour and two of the other, so they tile no 15x14 board.
/// cubesat does not know the parity argument and searches for a long time.
const HEXOMINOES: [&str; 35] = [
    "#|#|#|#|#|#",
    "##|#.|#.|#.|#.",
    "#.|##|#.|#.|#.",
    "#.|#.|##|#.|#.",
    "##|##|#.|#.",
    "##|#.|##|#.",
    "##|#.|#.|##",
    "###|#..|#..|#..",
    "#.|##|##|#.",
    "#..|###|#..|#..",
    "#.|#.|#.|##|.#",
    "##|##|##",
    "###|##.|#..",
    "##.|###|#..",
    "##|#.|##|.#",
    "###|#..|##.",
    "#.|##|##|.#",
    "#.#|###|#..",
    "#...|####|#...",
    "#.|#.|##|.#|.#",
    "#..|#..|###|.#.",
    "#..|#..|##.|.##",
    "#..|#..|###|..#",
    "##.|###|.#.",
    "##.|##.|.##",
    "#..|###|.#.|.#.",
    "#..|##.|.##|.#.",
    "#..|##.|.#.|.##",
    "#.#|###|.#.",
    "#...|####|.#..",
    "#..|##.|.##|..#",
    "#...|####|..#.",
    "#...|####|...#",
    ".#.|###|.#.|.#.",
    ".#.|##.|.##|.#.",
];

fn hexominoes_15x14() -> String {
    let pieces: Vec<String> = HEXOMINOES
        .iter()
        .enumerate()
        .map(|(i, art)| {
            let rows: Vec<String> = art.split('|').map(|r| format!("\"{r}\"")).collect();
            format!(
                "{{\"name\": \"h{}\", \"layers\": [[{}]]}}",
                i + 1,
                rows.join(", ")
            )
        })
        .collect();
    format!(
        "{{\"name\": \"Hexominoes 15x14\", \"target\": {{\"box\": [15, 14, 1]}}, \"pieces\": [{}]}}",
        pieces.join(", ")
    )
}

/// Runs `cubesat ARGS` in `dir`, sends SIGINT (with `kill -INT`) after `after`, and waits.
fn interrupted(dir: &Dir, args: &[&str], after: Duration) -> Run {
    let start = std::time::Instant::now();
    crate::common::interrupted_when(
        dir,
        args,
        || start.elapsed() >= after,
        &format!("after {after:?}"),
    )
}

/// Runs `cubesat ARGS` in `dir` with `input` on stdin.
fn with_stdin(dir: &Dir, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cubesat");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait for cubesat");
    Run {
        cmd: format!("cubesat {} < input", args.join(" ")),
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

// 1. Ctrl-C during a plain solve.

#[test]
fn ctrl_c_before_the_first_solution_says_interrupted_not_no_solution() {
    let dir = Dir::new();
    dir.write("hex.json", &hexominoes_15x14());
    // The colouring cut refutes this puzzle at once; with it off (`--no-prune`) the search
    // runs for hours, which is what this test needs.
    let run = interrupted(
        &dir,
        &["solve", "hex.json", "--color", "never", "--no-prune"],
        Duration::from_millis(1500),
    );
    run.code(130)
        .stdout_is("interrupted before the first solution was found\n")
        .stderr_has("interrupted");
    run.check(
        !run.stdout.to_lowercase().contains("no solution"),
        "an interrupted search never says no solution",
    );
    // The same with --count: a lower bound, said as such.
    let run = interrupted(
        &dir,
        &["solve", "hex.json", "--count", "--quiet", "--no-prune"],
        Duration::from_millis(1500),
    );
    run.code(130)
        .stdout_has("(interrupted: counted so far)")
        .check(!run.stdout.contains("no solution"), "no verdict");
}

// 2. An unfinished, killed or empty solver answer is unknown, exit 3.

#[test]
fn decode_of_an_unfinished_answer_is_unknown_with_exit_3() {
    let dir = Dir::new();
    dir.run(&["export", "soma", "--format", "dimacs", "--out", "soma.cnf"])
        .code(0);
    for (name, answer) in [
        ("empty.txt", ""),
        ("killed.txt", "c CaDiCaL\nc --- [ parsing input ] ---\n"),
        ("unknown.txt", "s UNKNOWN\n"),
        ("indet.txt", "INDET\n"),
    ] {
        dir.write(name, answer);
        let run = dir.run(&["decode", "soma.cnf", name]);
        run.code(3)
            .stdout_has("unknown: the answer gives no solution and no verdict");
        run.check(
            !run.stdout.contains("no solution ("),
            "an unfinished answer is not called no solution",
        );
    }
    // A proof of unsatisfiability is still "no solution", exit 1.
    dir.write("o.json", r#"{"target": {"box": [4,1,1]}, "pieces": [{"name": "O", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}]}"#);
    dir.run(&["export", "o.json", "--format", "dimacs", "--out", "o.cnf"])
        .code(0);
    dir.write("unsat.txt", "s UNSATISFIABLE\n");
    dir.run(&["decode", "o.cnf", "unsat.txt"])
        .code(1)
        .stdout_has("no solution");
    dir.run(&["--help"])
        .code(0)
        .stdout_has("3 = unknown")
        .stdout_has("never says \"no solution\"");
}

/// Two monominoes in a 2x1x1 box, exported with every solution a model: placements 0, 1
/// are 'a' at x = 0, 1 and 2, 3 'b' at x = 0, 1, so the two solutions are {1, 4} and {2, 3}.
fn two_monominoes(dir: &Dir) {
    dir.write(
        "mono.json",
        r#"{"name": "Two cubes", "target": {"box": [2,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0]]}, {"name": "b", "cells": [[0,0,0]]}]}"#,
    );
    dir.run(&[
        "export",
        "mono.json",
        "--format",
        "dimacs",
        "--out",
        "mono.cnf",
    ])
    .code(0);
    dir.write(
        "cms.txt",
        "c CryptoMiniSat --maxsol 10\ns SATISFIABLE\nv 1 -2 -3 4 0\ns SATISFIABLE\nv -1 2 3 -4 0\ns UNSATISFIABLE\n",
    );
}

// 3. CryptoMiniSat's --maxsol list.

#[test]
fn decode_reads_a_cryptominisat_solution_list() {
    let dir = Dir::new();
    two_monominoes(&dir);
    dir.run(&["decode", "mono.cnf", "cms.txt", "--color", "never"])
        .code(0)
        .stdout_has("solution 2")
        .stderr_has("decoded 2 solutions from a DIMACS answer");
}

// 4. Duplicate shapes under different names; info's mirror column.

#[test]
fn same_shape_under_two_names_is_warned_and_mirror_partners_are_named() {
    let dir = Dir::new();
    dir.write(
        "twins.json",
        r###"{"name": "Twins", "target": {"box": [2, 2, 2]}, "pieces": [
            {"name": "left", "layers": [["##", "#."]]},
            {"name": "right", "layers": [["##", ".#"]]},
            {"name": "bar", "layers": [["##"]]}]}"###,
    );
    let run = dir.run(&["solve", "twins.json", "--count"]);
    run.code(0)
        .stderr_has("warning: pieces 'left' and 'right' have the same shape")
        .stderr_has("\"count\": 2");
    run.check(
        run.stderr.lines().filter(|l| l.contains("warning")).count() == 1,
        "one warning line",
    );
    // Soma's A and B plus a second A under another name: the set is not closed under mirror
    // images as a whole, but A's mirror image is there, and info names it.
    dir.write(
        "mirrors.json",
        r#"{"name": "Mirrors", "target": {"box": [3, 2, 2]}, "pieces": [
            {"name": "A", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,0,1]]},
            {"name": "B", "cells": [[0,0,0],[1,0,0],[0,1,0],[0,1,1]]},
            {"name": "A2", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,0,1]]}]}"#,
    );
    let info = dir.run(&["info", "mirrors.json"]);
    info.code(0)
        .stderr_has("pieces 'A' and 'A2' have the same shape");
    let row = |name: &str| {
        info.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} (")))
            .unwrap_or("")
            .to_string()
    };
    info.check(row("A").ends_with("'B'"), "A's mirror image is B");
    info.check(row("A2").ends_with("'B'"), "A2's mirror image is B");
    info.check(row("B").ends_with("'A' or 'A2'"), "B's mirror images");
    info.check(!info.stdout.contains("not in the set"), "no false claim");
}

// 5. Formats that cannot show what was asked.

#[test]
fn count_in_json_and_svg_refuses_several_solutions() {
    let dir = Dir::new();
    let run = dir.run(&["solve", "soma", "--count", "--format", "json", "--quiet"]);
    run.code(0);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    run.check(
        v["type"] == "summary" && v["solutions"] == 480 && v["counted"] == true,
        "the count as JSON",
    );
    run.check(run.stdout.lines().count() == 1, "one line");
    dir.run(&["solve", "soma", "--all", "--format", "svg"])
        .code(2)
        .stderr_has("--format svg draws one solution; use --format html");
    dir.run(&["solve", "soma", "--limit", "3", "--format", "svg"])
        .code(2)
        .stderr_has("--format html");
    dir.run(&["solve", "soma", "--count", "--format", "svg"])
        .code(2)
        .stderr_has("use --format text or json with --count");
    dir.run(&["solve", "soma", "--format", "svg", "--quiet"])
        .code(0)
        .stdout_has("<svg");
}

// 6. decode --format json feeds render.

#[test]
fn decoded_json_lines_render() {
    let dir = Dir::new();
    two_monominoes(&dir);
    let run = dir.run(&["decode", "mono.cnf", "cms.txt", "--format", "json"]);
    run.code(0);
    let last: serde_json::Value =
        serde_json::from_str(run.stdout.lines().last().unwrap_or("")).expect("JSON line");
    run.check(
        last["type"] == "summary" && last["solutions"] == 2 && last["complete"] == true,
        "a summary line; the UNSATISFIABLE closing the list makes it complete",
    );
    dir.write("decoded.jsonl", &run.stdout);
    dir.run(&["render", "decoded.jsonl", "--format", "html"])
        .code(0)
        .stdout_has("Two cubes, solution 2");
}

// 7. generate: puzzle sheet, --no-solution, SVG/HTML, layer art in --out.

#[test]
fn generate_prints_a_puzzle_sheet_alone_and_writes_layer_art() {
    let dir = Dir::new();
    let base = ["generate", "soma", "--hints", "2", "--seed", "3"];
    let sheet = dir.run(
        &[
            &base[..],
            &["--no-solution", "--color", "never", "--out", "g.json"],
        ]
        .concat(),
    );
    sheet
        .code(0)
        .stdout_has("Soma cube, generated (seed 3, 2 hints): puzzle")
        .stdout_has("pieces to place (5):")
        .stdout_has("piece 'P' (4 cells)");
    sheet.check(!sheet.stdout.contains(": solution"), "no solution shown");
    let full = dir.run(&[&base[..], &["--color", "never"]].concat());
    full.code(0)
        .stdout_has("pieces to place (5):")
        .stdout_has(": solution");
    let file = std::fs::read_to_string(dir.path().join("g.json")).expect("g.json");
    sheet.check(file.contains("\"layers\": [["), "pieces in layer art");
    sheet.check(
        file.lines().count() < 40,
        "a short file, not one number per line",
    );
    dir.run(&["solve", "g.json", "--count", "--up-to", "none"])
        .code(0);
    let svg = dir.run(&[&base[..], &["--format", "svg"]].concat());
    svg.code(0).stdout_has("<svg");
    let html = dir.run(&[&base[..], &["--format", "html", "--no-solution"]].concat());
    html.code(0).stdout_has("<html").stdout_has(": puzzle");
    html.check(!html.stdout.contains(": solution"), "sheet only");
}

// 8. show; the cause of an impossible puzzle.

#[test]
fn show_draws_pieces_and_impossible_puzzles_name_the_cause() {
    let dir = Dir::new();
    dir.run(&["show", "soma", "--piece", "L", "--color", "never"])
        .code(0)
        .stdout_is("piece 'L' (L): 4 cells\nz=0\nL L L\n    L\n");
    dir.run(&["show", "soma", "--color", "never"])
        .code(0)
        .stdout_has("piece 'V' (V): 3 cells")
        .stdout_has("piece 'P' (P): 4 cells")
        .stdout_has("Soma cube: target");
    dir.run(&["show", "soma", "--format", "svg"])
        .code(0)
        .stdout_has("<svg");
    dir.run(&["show", "soma", "--piece", "Q"])
        .code(2)
        .stderr_has("--piece Q: no piece of that name")
        .stderr_has("V, L, T, Z, A, B, P");
    dir.write("o.json", r#"{"target": {"box": [4,1,1]}, "pieces": [{"name": "O", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}]}"#);
    dir.run(&["solve", "o.json"])
        .code(1)
        .stdout_is("no solution: piece 'O' (4 cells, 2x2x1) fits nowhere in the target\n");
    dir.run(&["solve", "o.json", "--count"])
        .code(1)
        .stdout_is("0 solutions up to rotation\n")
        .stderr_has("no solution: piece 'O'");
    dir.run(&["info", "o.json"])
        .code(0)
        .stdout_has("no solution: piece 'O' (4 cells, 2x2x1) fits nowhere");
    // Two 1x1x3 boxes and dominoes and a monomino: 6 cells, but each box needs an odd volume
    // and only one piece is odd.
    dir.write(
        "boxes.json",
        r#"{"target": {"boxes": [[3,1,1],[3,1,1]]}, "pieces": [{"name": "d", "count": 2, "cells": [[0,0,0],[1,0,0]]}, {"name": "m", "count": 2, "cells": [[0,0,0]]}]}"#,
    );
    dir.run(&["solve", "boxes.json"]).code(0);
    dir.write(
        "boxes2.json",
        r#"{"target": {"boxes": [[3,1,1],[3,1,1]]}, "pieces": [{"name": "d", "count": 3, "cells": [[0,0,0],[1,0,0]]}]}"#,
    );
    dir.run(&["solve", "boxes2.json"])
        .code(1)
        .stdout_has("container 0 needs 3 cells, and no selection of whole pieces has that volume");
}

// 9. --limit 0, render --solution N and text, - as stdin.

#[test]
fn limit_zero_render_one_solution_and_stdin() {
    let dir = Dir::new();
    dir.run(&["solve", "soma", "--limit", "0"])
        .code(2)
        .stderr_has("--limit");
    let saved = dir.run(&[
        "solve", "soma", "--limit", "3", "--format", "json", "--quiet",
    ]);
    saved.code(0);
    dir.write("soma.jsonl", &saved.stdout);
    let two = dir.run(&[
        "render",
        "soma.jsonl",
        "--format",
        "text",
        "--solution",
        "2",
    ]);
    two.code(0)
        .stdout_has("Soma cube, solution 2")
        .stdout_has("z=0");
    two.check(!two.stdout.contains("solution 1"), "only solution 2");
    dir.run(&["render", "soma.jsonl", "--format", "svg", "--solution", "4"])
        .code(2)
        .stderr_has("holds 3 solutions");
    with_stdin(&dir, &["render", "-", "--format", "text"], &saved.stdout)
        .code(0)
        .stdout_has("Soma cube, solution 3");
    let file = std::fs::read_to_string(crate::common::puzzle_file("soma")).expect("soma.json");
    with_stdin(&dir, &["solve", "-", "--count", "--quiet"], &file)
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
}

// 10. Docs point nowhere outside the repository; bundled descriptions describe the puzzle.

#[test]
fn user_facing_text_stays_inside_the_repository() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = vec![
        format!("{root}/README.md"),
        format!("{root}/crates/cubesat/puzzles/README.md"),
    ];
    for e in std::fs::read_dir(format!("{root}/crates/cubesat/puzzles")).expect("puzzles") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            files.push(p.display().to_string());
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        for bad in ["../shared", "/work/", "seed 00"] {
            assert!(!text.contains(bad), "{f} mentions {bad:?}");
        }
    }
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README");
    assert!(readme.contains("several minutes"), "the first build's time");
}

// 11. Help values, plurals, info alignment, did-you-mean.

#[test]
fn help_lists_values_and_messages_read_right() {
    let dir = Dir::new();
    let help = dir.run(&["solve", "--help"]);
    help.code(0)
        .stdout_has("rotation+reflection")
        .stdout_has("pairwise");
    dir.write(
        "one.json",
        r#"{"name": "One", "target": {"box": [2,1,1]}, "pieces": [{"name": "a-rather-long-piece-name", "cells": [[0,0,0],[1,0,0]]}]}"#,
    );
    let run = dir.run(&["solve", "one.json", "--count", "--threads", "1"]);
    run.code(0)
        .stderr_has("One: 1 piece, 1 placement;")
        .stderr_has("exact, 1 thread;");
    let info = dir.run(&["info", "one.json"]);
    info.code(0);
    let header = info
        .stdout
        .lines()
        .find(|l| l.contains("orientations"))
        .unwrap_or("");
    let row = info
        .stdout
        .lines()
        .find(|l| l.contains("a-rather-long-piece-name"))
        .unwrap_or("");
    info.check(
        header.find("  mirror image").is_some()
            && header.find("  mirror image") == row.find("  itself"),
        "the columns line up under their headings",
    );
    dir.write(
        "typo.json",
        r#"{"target": {"bx": [2,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}]}"#,
    );
    dir.run(&["solve", "typo.json"])
        .code(2)
        .stderr_has("did you mean 'box'?");
}
