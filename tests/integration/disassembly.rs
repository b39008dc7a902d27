//! Disassembly analysis through the binary: `solve --disassemble` gives burrTxt's assemblies, solutions and level strings on cubesat's own test puzzles and its `-d` counts on the reference files, `disassemble` prints plans that a second, independent replay here accepts, groups and weights keep their BurrTools meaning, and bad requests fail with one line.
//!
//! The expected numbers come from BurrTools' `burrTxt -d -o N FILE` (0.7.1, built outside
//! the project) on the files tests/data/disassembly/make.py writes and on the reference files
//! (counts.json), never from cubesat.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::{Dir, Run};

fn data(name: &str) -> String {
    format!(
        "{}/tests/data/disassembly/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A problem with burrTxt's figures: (file, problem, assemblies, solutions, levels with the
/// number of solutions at each).
type Expected = (&'static str, u32, u64, u64, &'static [(&'static str, u64)]);

/// From `burrTxt -d -o N FILE` (BurrTools 0.7.1): its last line (`A assemblies and S
/// solutions`) and its `level:` lines, counted.
const BURRTXT: &[Expected] = &[
    ("maze.xmpuzzle", 0, 9, 9, &[("1", 5), ("2", 2), ("3", 2)]),
    (
        "maze.xmpuzzle",
        1,
        13,
        13,
        &[("1", 3), ("2", 2), ("3", 2), ("4", 2), ("5", 2), ("6", 2)],
    ),
    (
        "maze.xmpuzzle",
        2,
        81,
        81,
        &[
            ("1", 2),
            ("1.2", 6),
            ("1.3", 8),
            ("1.4", 6),
            ("1.5", 8),
            ("1.6", 6),
            ("2.2", 1),
            ("2.3", 4),
            ("2.4", 2),
            ("2.5", 6),
            ("2.6", 4),
            ("3.3", 1),
            ("3.4", 2),
            ("3.5", 4),
            ("3.6", 6),
            ("4.5", 3),
            ("4.6", 6),
            ("5.6", 5),
            ("6.6", 1),
        ],
    ),
    ("rings.xmpuzzle", 0, 1, 1, &[("1", 1)]),
    ("rings.xmpuzzle", 1, 1, 0, &[]),
    ("burr.xmpuzzle", 0, 1, 1, &[("1.2", 1)]),
];

/// The JSON Lines of a run: solution objects and the summary.
fn lines(r: &Run) -> (Vec<Value>, Value) {
    let mut sols = Vec::new();
    let mut summary = Value::Null;
    for l in r.stdout.lines() {
        let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}"));
        if v["type"] == "summary" {
            summary = v;
        } else {
            sols.push(v);
        }
    }
    (sols, summary)
}

fn check_problem(dir: &Dir, e: &Expected, rule: &str) {
    let (file, problem, assemblies, solutions, levels) = *e;
    let path = data(file);
    let p = problem.to_string();
    let r = dir.run(&[
        "solve",
        &path,
        "--problem",
        &p,
        "--disassemble",
        "--disassembler",
        rule,
        "--all",
        "--format",
        "json",
        "-q",
    ]);
    r.code(if solutions > 0 { 0 } else { 1 });
    let (sols, summary) = lines(&r);
    r.check(
        summary["assemblies"] == assemblies,
        &format!("{file} #{problem}: {assemblies} assemblies expected"),
    );
    let mut got: BTreeMap<String, u64> = BTreeMap::new();
    for s in &sols {
        *got.entry(s["level"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
        r.check(s["moves"].as_u64().is_some_and(|m| m > 0), "moves");
    }
    let want: BTreeMap<String, u64> = levels.iter().map(|(l, n)| (l.to_string(), *n)).collect();
    r.check(
        sols.len() as u64 == solutions && got == want,
        &format!("{file} #{problem} ({rule}): levels {got:?}, burrTxt {want:?}"),
    );
    // The count line says the same.
    let c = dir.run(&[
        "solve",
        &path,
        "--problem",
        &p,
        "--disassemble",
        "--disassembler",
        rule,
        "--count",
        "-q",
    ]);
    let noun = if assemblies == 1 {
        "assembly"
    } else {
        "assemblies"
    };
    c.stdout_has(&format!(", of {assemblies} {noun} ("));
    c.check(
        c.stdout.starts_with(&format!("{solutions} solution")),
        "count line",
    );
}

#[test]
fn levels_and_counts_are_burrtxts() {
    let dir = Dir::new();
    for e in BURRTXT {
        check_problem(&dir, e, "burrtools");
    }
}

#[test]
fn the_complete_search_agrees() {
    // BurrTools' rule loses nothing (see the search's documentation): both rules give the
    // same solutions and levels.
    let dir = Dir::new();
    for e in BURRTXT {
        check_problem(&dir, e, "complete");
    }
}

/// `burrTxt -q -d -o N` on the reference files (`../shared/reference/burrtools/counts.json`,
/// its `burrTxt_d` entries for the cube grid): (file, problem, assemblies, solutions).
const REFERENCE_D: &[(&str, u32, u64, u64)] = &[
    ("01a_soma.xmpuzzle", 0, 240, 240),
    ("01b_soma_screw_b_to_square.xmpuzzle", 0, 337, 337),
    ("02a_tetracubes_4x4x2.xmpuzzle", 0, 695, 695),
    ("02b_tetracubes_8x2x2.xmpuzzle", 0, 112, 112),
    ("03_pentominoes_6x10.xmpuzzle", 0, 2339, 2339),
    ("04_identical_pieces.xmpuzzle", 0, 1, 1),
    ("04_identical_pieces.xmpuzzle", 1, 720, 720),
    ("04_identical_pieces.xmpuzzle", 2, 1206, 1206),
    ("04_identical_pieces.xmpuzzle", 3, 1121, 1121),
    ("05_variable_voxels.xmpuzzle", 0, 240, 240),
    ("05_variable_voxels.xmpuzzle", 1, 1766, 1766),
    ("05_variable_voxels.xmpuzzle", 2, 1321, 1321),
    ("06a_ranges.xmpuzzle", 0, 7, 7),
    ("06a_ranges.xmpuzzle", 1, 3909, 3909),
    ("06a_ranges.xmpuzzle", 2, 3909, 3909),
    ("06b_mirror_paradox.xmpuzzle", 0, 1, 1),
    ("06b_mirror_paradox.xmpuzzle", 1, 38, 38),
    ("06b_mirror_paradox.xmpuzzle", 2, 27, 27),
    ("06b_mirror_paradox.xmpuzzle", 3, 2, 2),
    ("06c_max_holes.xmpuzzle", 0, 36, 36),
    ("06c_max_holes.xmpuzzle", 1, 168, 167),
    ("06c_max_holes.xmpuzzle", 2, 167, 167),
    ("06c_max_holes.xmpuzzle", 3, 1766, 1766),
    ("07_colours.xmpuzzle", 0, 219, 219),
    ("07_colours.xmpuzzle", 1, 1920, 1920),
    ("07_colours.xmpuzzle", 2, 240, 240),
    ("07_colours.xmpuzzle", 3, 21, 21),
    ("07_colours.xmpuzzle", 4, 219, 219),
    ("08_three_problems.xml", 0, 2, 2),
    ("08_three_problems.xml", 1, 368, 368),
    ("08_three_problems.xml", 2, 1010, 1010),
    ("09a_chiral_unpaired.xmpuzzle", 0, 8, 8),
    ("09b_chiral_result.xmpuzzle", 0, 413, 413),
    ("09b_chiral_result.xmpuzzle", 1, 4527, 4527),
    ("10b_version1_no_gridtype.xml", 0, 8, 8),
];

#[test]
fn reference_files_count_as_burrtxt_d() {
    // Nearly all packings, which come apart; 06c problem 1 holds one assembly that does not.
    let dir = Dir::new();
    for &(file, problem, assemblies, solutions) in REFERENCE_D {
        let path = format!(
            "{}/tests/data/burrtools/reference/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let rules: &[&str] = if file.starts_with("06c") {
            &["burrtools", "complete"]
        } else {
            &["burrtools"]
        };
        for rule in rules {
            let r = dir.run(&[
                "solve",
                &path,
                "--problem",
                &problem.to_string(),
                "--count",
                "--disassemble",
                "--disassembler",
                rule,
                "-q",
            ]);
            let noun = if solutions == 1 {
                "solution that comes"
            } else {
                "solutions that come"
            };
            let of = if assemblies == 1 {
                "assembly"
            } else {
                "assemblies"
            };
            r.check(
                r.stdout
                    .starts_with(&format!("{solutions} {noun} apart, of {assemblies} {of} (")),
                &format!("{file} #{problem} ({rule}): burrTxt -d {solutions} of {assemblies}"),
            );
        }
    }
}

/// Piece labels as the plan uses them: the letter, numbered when several pieces share it.
pub(crate) fn labels(sol: &Value) -> Vec<String> {
    let letters: Vec<String> = sol["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["letter"].as_str().unwrap().to_string())
        .collect();
    letters
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let same = letters.iter().filter(|m| *m == l).count();
            if same > 1 {
                let k = letters[..i].iter().filter(|m| *m == l).count() + 1;
                format!("{l}{k}")
            } else {
                l.clone()
            }
        })
        .collect()
}

/// A second replay, written here without the library: every unit step of every move keeps
/// the moving pieces off the others of their part; removals end clear of the part; at the end
/// every part is one piece or pieces that `together` allows.
fn replay(sol: &Value, together: &dyn Fn(&[usize]) -> bool) -> Result<usize, String> {
    let names = labels(sol);
    let mut cells: Vec<Vec<[i64; 3]>> = sol["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| [0, 1, 2].map(|a| c[a].as_i64().unwrap()))
                .collect()
        })
        .collect();
    let n = cells.len();
    let mut part = vec![0usize; n];
    let mut parts = 1;
    let plan = sol["plan"].as_array().ok_or("no plan")?;
    for (k, m) in plan.iter().enumerate() {
        let moving: Vec<usize> = m["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| names.iter().position(|x| x == p.as_str().unwrap()).unwrap())
            .collect();
        let dir = m["direction"].as_str().unwrap();
        let axis = "xyz".find(&dir[1..]).unwrap();
        let sign = if dir.starts_with('+') { 1 } else { -1 };
        let p = part[moving[0]];
        let others: Vec<usize> = (0..n)
            .filter(|&i| part[i] == p && !moving.contains(&i))
            .collect();
        if others.is_empty() || moving.iter().any(|&i| part[i] != p) {
            return Err(format!("move {}: not a proper subset of one part", k + 1));
        }
        let still: std::collections::HashSet<[i64; 3]> =
            others.iter().flat_map(|&i| cells[i].clone()).collect();
        for _ in 0..m["distance"].as_u64().unwrap() {
            for &i in &moving {
                for c in &mut cells[i] {
                    c[axis] += sign;
                    if still.contains(c) {
                        return Err(format!("move {}: collision", k + 1));
                    }
                }
            }
        }
        if m["removal"] == true {
            let ahead = still.iter().map(|c| sign * c[axis]).max().unwrap();
            let behind = moving
                .iter()
                .flat_map(|&i| cells[i].iter().map(move |c| sign * c[axis]))
                .min()
                .unwrap();
            if behind <= ahead {
                return Err(format!("move {}: removal not clear", k + 1));
            }
            for &i in &moving {
                part[i] = parts;
            }
            parts += 1;
        }
    }
    for q in 0..parts {
        let members: Vec<usize> = (0..n).filter(|&i| part[i] == q).collect();
        if members.len() > 1 && !together(&members) {
            return Err(format!("pieces {members:?} end together"));
        }
    }
    Ok(plan.len())
}

#[test]
fn plans_replay_independently() {
    let dir = Dir::new();
    // Every solution of the two-key maze (the keys are copies of one part), and the burr.
    for (file, problem, solutions) in [("maze.xmpuzzle", "2", 81), ("burr.xmpuzzle", "0", 1)] {
        for n in 1..=solutions {
            if n > 6 && n % 10 != 0 {
                continue;
            }
            let r = dir.run(&[
                "disassemble",
                &data(file),
                "--problem",
                problem,
                "--solution",
                &n.to_string(),
                "--format",
                "json",
                "-q",
            ]);
            r.code(0);
            let sol: Value = serde_json::from_str(r.stdout.trim()).unwrap();
            let moves = replay(&sol, &|_| false).unwrap_or_else(|e| panic!("{file} {n}: {e}"));
            r.check(sol["moves"] == moves, "moves counts the plan");
        }
    }
}

#[test]
fn the_hardest_maze_solution_has_six_moves() {
    let dir = Dir::new();
    let maze = data("maze.xmpuzzle");
    let r = dir.run(&[
        "disassemble",
        &maze,
        "--problem",
        "1",
        "--sort",
        "level",
        "--color",
        "never",
    ]);
    r.code(0).stdout_has("level 6, 6 moves");
    // Six numbered moves, the last one out of the cage; the cage (weight 2) never moves.
    let moves: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(". "))
        .collect();
    r.check(moves.len() == 6, "six moves");
    r.check(
        moves[5].ends_with(" out"),
        "the last move takes the key out",
    );
    r.check(
        moves.iter().all(|m| m.contains(". K ")),
        "only the key moves",
    );
    // --min-level counts number by number.
    let c = dir.run(&[
        "solve",
        &maze,
        "--problem",
        "1",
        "--disassemble",
        "--count",
        "--min-level",
        "4",
        "-q",
    ]);
    c.code(0)
        .stdout_has("6 solutions that come apart at level 4 or above, of 13 assemblies");
}

#[test]
fn groups_keep_linked_rings_together() {
    let dir = Dir::new();
    let rings = data("rings.xmpuzzle");
    let r = dir.run(&["disassemble", &rings, "--format", "json", "-q"]);
    r.code(0);
    let sol: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    // The rings (copies R1, R2) stay together: allowed for them only.
    let names = labels(&sol);
    let moves = replay(&sol, &|m: &[usize]| {
        m.iter().all(|&i| names[i].starts_with('R'))
    })
    .unwrap();
    r.check(moves == 1, "the cube leaves in one move");
    // Without groups nothing comes apart: a plan cannot be shown.
    dir.run(&["disassemble", &rings, "--problem", "1"])
        .code(2)
        .stderr_has("--solution 1: none of 1 assembly comes apart");
    // Converted to cubesat JSON and back, the groups and the weights stay.
    dir.run(&["convert", &rings, "rings.json"]).code(0);
    let json = std::fs::read_to_string(dir.path().join("rings.json")).unwrap();
    assert!(json.contains(r#""group": 1"#), "{json}");
    dir.run(&["solve", "rings.json", "--disassemble", "--count", "-q"])
        .code(0)
        .stdout_has("1 solution that comes apart, of 1 assembly");
    dir.run(&["convert", &data("maze.xmpuzzle"), "maze.json"])
        .code(0);
    let json = std::fs::read_to_string(dir.path().join("maze.json")).unwrap();
    assert!(json.contains(r#""weight": 2"#), "{json}");
    dir.run(&["convert", "rings.json", "back.xmpuzzle"]).code(0);
    dir.run(&["solve", "back.xmpuzzle", "--disassemble", "--count", "-q"])
        .code(0)
        .stdout_has("1 solution that comes apart, of 1 assembly");
}

#[test]
fn the_page_animates_the_plan() {
    let dir = Dir::new();
    let r = dir.run(&[
        "disassemble",
        &data("maze.xmpuzzle"),
        "--problem",
        "1",
        "--sort",
        "level",
        "--format",
        "html",
        "-q",
    ]);
    r.code(0)
        .stdout_has(r#""pt":"level 6, 6 moves""#)
        .stdout_has(r#""p":[["#)
        .stdout_has(r#""pl":["#);
    // Listing with --disassemble puts a plan on every scene.
    let r = dir.run(&[
        "solve",
        &data("maze.xmpuzzle"),
        "--disassemble",
        "--all",
        "--format",
        "html",
        "-q",
    ]);
    r.code(0);
    r.check(
        r.stdout.matches(r#""pt":"level "#).count() == 9,
        "nine plans",
    );
}

#[test]
fn bad_requests_fail_with_one_line() {
    let dir = Dir::new();
    let maze = data("maze.xmpuzzle");
    let one_line = |r: &Run| {
        r.code(2);
        r.check(r.stderr.trim().lines().count() == 1, "one line on stderr");
    };
    let r = dir.run(&["disassemble", &maze, "--solution", "99", "-q"]);
    one_line(&r);
    r.stderr_has("--solution 99: 9 of 9 assemblies come apart");
    // Values clap refuses: its usual message, exit 2.
    dir.run(&["solve", &maze, "--disassemble", "--disassembler", "greedy"])
        .code(2)
        .stderr_has("unknown disassembler 'greedy' (expected burrtools or complete)");
    dir.run(&["solve", &maze, "--disassemble", "--min-level", "2.x"])
        .code(2)
        .stderr_has("'2.x' is not a level");
    let r = dir.run(&["solve", &maze, "--disassembler", "complete", "--count"]);
    one_line(&r);
    r.stderr_has("add --disassemble");
    let r = dir.run(&[
        "solve",
        &maze,
        "--problem",
        "2",
        "--disassemble",
        "--count",
        "--max-states",
        "20",
        "-q",
    ]);
    one_line(&r);
    r.stderr_has("states");
    // A puzzle without any assembly has nothing to take apart.
    let none = dir.write(
        "none.json",
        &crate::common::puzzle_json(
            &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
            &[],
            &[(&[[0, 0, 0], [1, 0, 0], [2, 0, 0]], 1)],
        ),
    );
    let r = dir.run(&["disassemble", none.to_str().unwrap(), "-q"]);
    one_line(&r);
    r.stderr_has("no solution");
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn the_plan_page_plays_in_a_browser() {
    use crate::render_browser::{need_chromium, run_browser, script_problems, status_attr};
    let chromium = need_chromium();
    let dir = Dir::new();
    dir.run(&[
        "disassemble",
        &data("maze.xmpuzzle"),
        "--problem",
        "2",
        "--sort",
        "level",
        "--format",
        "html",
        "--out",
        "plan.html",
        "-q",
    ])
    .code(0);
    let page = dir.path().join("plan.html");
    // Assembled (the last step), and taken apart (step 0): both drawn, without script errors.
    for (tag, hash) in [("assembled", ""), ("apart", "#step=0")] {
        let url = format!("file://{}{hash}", page.display());
        let (dom, stderr) = run_browser(&chromium, dir.path(), tag, &["--dump-dom".into(), url]);
        assert_eq!(
            status_attr(&dom, "data-webgl"),
            Some("1"),
            "WebGL\n{stderr}"
        );
        assert_eq!(status_attr(&dom, "data-errors"), None, "script errors");
        let nonblank: u64 = status_attr(&dom, "data-nonblank").unwrap().parse().unwrap();
        assert!(nonblank > 1000, "{tag}: nearly blank ({nonblank} pixels)");
        let step = status_attr(&dom, "data-step").unwrap();
        assert_eq!(step == "0", tag == "apart", "{tag}: step {step}");
        // Taken apart, every piece's box is clear of every other's; assembled, none is.
        let apart = if tag == "apart" { "1" } else { "0" };
        assert_eq!(status_attr(&dom, "data-apart"), Some(apart), "{tag}");
        let problems = script_problems(&stderr);
        assert!(problems.is_empty(), "console problems: {problems:#?}");
    }
}
