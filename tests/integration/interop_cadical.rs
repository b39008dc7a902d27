//! Cross-checks with CaDiCaL (Debian package `cadical`): puzzles exported as DIMACS by the real binary, solved by CaDiCaL, decoded back by `cubesat decode` and verified; an unsatisfiable instance decodes to "no solution" with exit 1.
//!
//! Ignored by default (they need the tool); CI installs it and runs them with
//! `--include-ignored`, and a missing `cadical` fails them: they never pass by skipping.

use std::process::Command;

use crate::common::Dir;

/// Fails the test when CaDiCaL is missing.
fn need_cadical() {
    let ok = Command::new("cadical")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "cadical is not installed (apt-get install -y cadical)");
}

/// Runs CaDiCaL on `cnf`, writing its competition-format answer to `answer`; returns its exit
/// code (10 SAT, 20 UNSAT).
fn cadical(dir: &Dir, cnf: &str, answer: &str) -> i32 {
    let out = Command::new("cadical")
        .arg("-q")
        .arg(dir.path().join(cnf))
        .output()
        .expect("run cadical");
    std::fs::write(dir.path().join(answer), &out.stdout).expect("write answer");
    out.status.code().unwrap_or(-1)
}

#[test]
#[ignore = "needs cadical; CI runs it with --include-ignored"]
fn cadical_solves_every_encoding_and_decode_verifies() {
    need_cadical();
    let dir = Dir::new();
    for amo in ["pairwise", "sequential", "commander", "product", "bimander"] {
        let cnf = format!("soma-{amo}.cnf");
        dir.run(&[
            "export", "soma", "--format", "dimacs", "--up-to", "rotation", "--amo", amo, "--out",
            &cnf,
        ])
        .code(0);
        assert_eq!(
            cadical(&dir, &cnf, "answer.txt"),
            10,
            "{amo}: CaDiCaL says SAT"
        );
        let run = dir.run(&["decode", &cnf, "answer.txt", "--format", "json"]);
        run.code(0)
            .stderr_has("decoded 1 solution")
            .stderr_has("each verified");
        let v: serde_json::Value =
            serde_json::from_str(run.stdout.lines().next().unwrap_or("")).expect("JSON");
        run.check(
            v["pieces"].as_array().map(|a| a.len()) == Some(7),
            "seven pieces",
        );
    }
}

#[test]
#[ignore = "needs cadical; CI runs it with --include-ignored"]
fn cadical_completes_a_puzzle_with_hints_and_reports_unsat() {
    need_cadical();
    let dir = Dir::new();
    dir.write(
        "hinted.json",
        r#"{"target": {"boxes": [[4,2,2],[4,2,2]]},
            "pieces": [{"name": "I", "cells": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]},
                       {"name": "O", "cells": [[0,0,0],[0,1,0],[1,0,0],[1,1,0]]},
                       {"name": "T", "cells": [[0,0,0],[1,0,0],[1,1,0],[2,0,0]]},
                       {"name": "L", "cells": [[0,0,0],[1,0,0],[2,0,0],[2,1,0]]},
                       {"name": "S", "cells": [[0,0,0],[1,0,0],[1,1,0],[2,1,0]]},
                       {"name": "P", "cells": [[0,0,0],[0,0,1],[0,1,0],[1,0,0]]},
                       {"name": "A", "cells": [[0,0,0],[0,1,0],[1,0,0],[1,0,1]]},
                       {"name": "B", "cells": [[0,0,0],[0,1,0],[0,1,1],[1,0,0]]}],
            "hints": [{"piece": "I", "container": 1, "cells": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]},
                      {"piece": "O", "container": 1, "cells": [[2,0,1],[3,0,1],[2,1,1],[3,1,1]]}]}"#,
    );
    dir.run(&[
        "export",
        "hinted.json",
        "--format",
        "dimacs",
        "--out",
        "hinted.cnf",
    ])
    .code(0);
    assert_eq!(cadical(&dir, "hinted.cnf", "answer.txt"), 10);
    let run = dir.run(&["decode", "hinted.cnf", "answer.txt", "--format", "json"]);
    run.code(0);
    let v: serde_json::Value =
        serde_json::from_str(run.stdout.lines().next().unwrap_or("")).expect("JSON");
    let hints = v["pieces"]
        .as_array()
        .map(|a| a.iter().filter(|p| p["hint"] == true).count());
    run.check(hints == Some(2), "both hints are in the decoded solution");

    // An O tetromino cannot lie in a 4x1x1 box: CaDiCaL proves it, decode says so.
    dir.write("none.json", r#"{"target": {"box": [4,1,1]}, "pieces": [{"name": "O", "cells": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}]}"#);
    dir.run(&[
        "export",
        "none.json",
        "--format",
        "dimacs",
        "--out",
        "none.cnf",
    ])
    .code(0);
    assert_eq!(cadical(&dir, "none.cnf", "none.txt"), 20);
    dir.run(&["decode", "none.cnf", "none.txt"])
        .code(1)
        .stdout_has("no solution");
}
