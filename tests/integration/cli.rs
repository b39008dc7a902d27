//! The binary as a user runs it: solving, counting, listing, JSON output, exit codes and pipes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::{Dir, puzzle_file};

#[test]
fn solve_without_a_puzzle_solves_the_tetris_cube() {
    let run = Dir::new().run(&["solve"]);
    run.code(0).stdout_has("z=0").stderr_has("Tetris Cube");
    // Twelve different piece letters appear in the layers.
    let letters: std::collections::HashSet<char> = run
        .stdout
        .chars()
        .filter(|c| "0123456789AB".contains(*c))
        .collect();
    run.check(letters.len() == 12, "all twelve pieces appear");
}

#[test]
fn count_prints_one_line_starting_with_the_number() {
    let dir = Dir::new();
    dir.run(&["solve", "soma", "--count"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
    dir.run(&["solve", "soma", "--count", "--up-to", "none"])
        .code(0)
        .stdout_is("11520 solutions counting every placement\n");
    dir.run(&[
        "solve",
        "soma",
        "--count",
        "--up-to",
        "rotation+reflection",
        "--quiet",
    ])
    .code(0)
    .stdout_is("240 solutions up to rotation and reflection\n")
    .check(true, "");
    dir.run(&["solve", "soma", "--count", "--limit", "7"])
        .code(0)
        .stdout_is("7 solutions up to rotation (stopped at --limit)\n");
}

#[test]
fn a_puzzle_file_path_works_too() {
    let dir = Dir::new();
    dir.run(&["solve", &puzzle_file("pentominoes-3x20"), "--count"])
        .code(0)
        .stdout_is("2 solutions up to rotation\n");
}

#[test]
fn json_lines_hold_each_solution_and_a_summary() {
    let run = Dir::new().run(&["solve", "soma", "--limit", "3", "--format", "json"]);
    run.code(0);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    run.check(lines.len() == 4, "three solutions and a summary");
    for (i, l) in lines[..3].iter().enumerate() {
        run.check(
            l["type"] == "solution" && l["index"] == i as u64 + 1,
            "solution objects",
        );
        run.check(
            l["pieces"].as_array().map(|a| a.len()) == Some(7),
            "seven pieces each",
        );
    }
    run.check(
        lines[3]["type"] == "summary" && lines[3]["solutions"] == 3,
        "summary object",
    );
    run.check(lines[3]["complete"] == false, "stopped at the limit");
}

#[test]
fn no_solution_exits_1() {
    let dir = Dir::new();
    dir.write("none.json", r#"{"target": {"box": [4,1,1]}, "pieces": [{"name": "O", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}]}"#);
    dir.run(&["solve", "none.json"])
        .code(1)
        .stdout_has("no solution");
    dir.run(&["solve", "none.json", "--count"])
        .code(1)
        .stdout_is("0 solutions up to rotation\n");
}

#[test]
fn list_and_info_describe_the_library() {
    let dir = Dir::new();
    dir.run(&["list"])
        .code(0)
        .stdout_has("tetris-cube")
        .stdout_has("soma")
        .stdout_has("pentominoes-6x10");
    dir.run(&["info", "soma"])
        .code(0)
        .stdout_has("placements:")
        .stdout_has("symmetry rotation: up to rotation (24 symmetries")
        .stdout_has("symmetry rotation+reflection: up to rotation and reflection (48 symmetries");
    dir.run(&["info"])
        .code(0)
        .stdout_has("Tetris Cube")
        .stdout_has("symmetry rotation+reflection: not defined");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(["solve", "soma", "--all", "--up-to", "none"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read");
    // The reader is dropped here: the pipe closes while cubesat is still writing.
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("error"), "stderr: {stderr}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let dir = Dir::new();
    let plain = dir.run(&["solve", "soma"]);
    plain.code(0).check(
        !plain.stdout.contains('\u{1b}'),
        "no escape codes when piped",
    );
    let coloured = dir.run(&["solve", "soma", "--color", "always"]);
    coloured.code(0).check(
        coloured.stdout.contains('\u{1b}'),
        "escape codes with --color always",
    );
}

#[test]
fn help_documents_exit_codes() {
    Dir::new()
        .run(&["--help"])
        .code(0)
        .stdout_has("Exit codes: 0 = a solution was found");
}

/// The solution objects of a JSON Lines run (the summary line is left out).
fn solution_lines(r: &crate::common::Run) -> Vec<String> {
    r.stdout
        .lines()
        .filter(|l| l.contains("\"type\":\"solution\""))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_limited_listing_is_a_prefix_of_the_full_listing() {
    let dir = Dir::new();
    let all = dir.run(&[
        "solve",
        "tetracubes-2x2x8",
        "--all",
        "--format",
        "json",
        "--quiet",
    ]);
    let some = dir.run(&[
        "solve",
        "tetracubes-2x2x8",
        "--limit",
        "5",
        "--format",
        "json",
        "--quiet",
    ]);
    all.code(0);
    some.code(0);
    let (a, s) = (solution_lines(&all), solution_lines(&some));
    some.check(
        a.len() == 224 && s.len() == 5 && s[..] == a[..5],
        "the first five of --all",
    );
}

/// The SAT engine from the command line: cube and conquer counts Soma with varisat deciding
/// part of every cube (its residual CNFs hold clauses), and `--all` lists the same solutions
/// in the same order on one thread and on two.
#[test]
fn the_sat_engine_counts_and_lists_in_cube_order() {
    let dir = Dir::new();
    // With the default budget the exact engine closes every cube of Soma; budget 0 gives
    // them all to varisat.
    dir.run(&["solve", "soma", "--engine", "sat", "--count"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n")
        .stderr_has("varisat solved none (it gets only the cubes the exact engine cannot close");
    let count = dir.run(&[
        "solve",
        "soma",
        "--engine",
        "sat",
        "--count",
        "--exact-budget",
        "0",
    ]);
    count
        .code(0)
        .stdout_is("480 solutions up to rotation\n")
        .stderr_has("residual CNFs of");
    let clauses: u64 = count
        .stderr
        .split("residual CNFs of ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    count.check(clauses > 0, "varisat was given clauses to solve");
    let list = |threads: &str| {
        dir.run(&[
            "solve",
            "tetracubes-2x2x8",
            "--engine",
            "sat",
            "--all",
            "--threads",
            threads,
            "--format",
            "json",
            "--quiet",
        ])
    };
    let (one, two) = (list("1"), list("2"));
    one.code(0);
    two.code(0);
    // Solution lines only: the summary object carries the run's time.
    let (a, b) = (solution_lines(&one), solution_lines(&two));
    two.check(
        a.len() == 224 && a == b,
        "224 solutions, the same listing on one and two threads",
    );
}
