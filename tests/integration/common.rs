//! Shared helpers for the integration tests: run the real binary in a temporary directory and report command, stdout and stderr when an expectation fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// One finished run of the cubesat binary.
pub struct Run {
    pub cmd: String,
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\n--- command: {}\n--- exit code: {}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.cmd, self.code, self.stdout, self.stderr
        );
    }

    /// Expects this exit code.
    pub fn code(&self, code: i32) -> &Run {
        if self.code != code {
            self.fail(&format!("expected exit code {code}"));
        }
        if self.stderr.contains("panicked") {
            self.fail("the binary panicked");
        }
        self
    }

    /// Expects stdout to contain `s`.
    pub fn stdout_has(&self, s: &str) -> &Run {
        if !self.stdout.contains(s) {
            self.fail(&format!("stdout lacks {s:?}"));
        }
        self
    }

    /// Expects stderr to contain `s`.
    pub fn stderr_has(&self, s: &str) -> &Run {
        if !self.stderr.contains(s) {
            self.fail(&format!("stderr lacks {s:?}"));
        }
        self
    }

    /// Expects exactly `s` on stdout.
    pub fn stdout_is(&self, s: &str) -> &Run {
        if self.stdout != s {
            self.fail(&format!("stdout is not {s:?}"));
        }
        self
    }

    /// Fails with the run's output attached.
    pub fn check(&self, ok: bool, what: &str) -> &Run {
        if !ok {
            self.fail(what);
        }
        self
    }
}

/// A temporary directory for one test.
pub struct Dir {
    pub tmp: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Writes a file in the directory and returns its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.tmp.path().join(name);
        std::fs::write(&p, contents).expect("write test file");
        p
    }

    /// Runs `cubesat ARGS` with this directory as the working directory.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_env(args, &[])
    }

    /// `cubesat solve --count -q FILE [--problem N] EXTRA`: the count it prints (exit 0, or 1
    /// for none).
    pub fn count(&self, file: &str, problem: Option<u32>, extra: &[&str]) -> u64 {
        let p = problem.map(|p| p.to_string());
        let mut args = vec!["solve", "--count", "-q", file];
        if let Some(p) = &p {
            args.extend(["--problem", p.as_str()]);
        }
        args.extend(extra);
        let r = self.run(&args);
        if r.code != 0 && r.code != 1 {
            r.code(0);
        }
        r.stdout
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count from {args:?}: {}{}", r.stdout, r.stderr))
    }

    /// Runs with extra environment variables.
    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cubesat"));
        c.args(args)
            .current_dir(self.path())
            .stdin(Stdio::null())
            .env_remove("NO_COLOR");
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().expect("run cubesat");
        Run {
            cmd: format!("cubesat {}", args.join(" ")),
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// The path of a bundled puzzle file in the source tree.
pub fn puzzle_file(name: &str) -> String {
    format!(
        "{}/crates/cubesat/puzzles/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A puzzle file for `must` and `optional` cells and `(cells, count)` pieces.
pub fn puzzle_json(
    must: &[[i32; 3]],
    optional: &[[i32; 3]],
    pieces: &[(&[[i32; 3]], u32)],
) -> String {
    let cells = |v: &[[i32; 3]]| {
        let list: Vec<String> = v
            .iter()
            .map(|c| format!("[{}, {}, {}]", c[0], c[1], c[2]))
            .collect();
        format!("[{}]", list.join(", "))
    };
    let pieces: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(i, (shape, count))| {
            format!(
                r#"{{"name": "p{i}", "count": {count}, "cells": {}}}"#,
                cells(shape)
            )
        })
        .collect();
    format!(
        r#"{{"target": {{"cells": {}, "optional": {}}}, "pieces": [{}]}}"#,
        cells(must),
        cells(optional),
        pieces.join(", ")
    )
}

/// Sends SIGINT to `child` with `kill -INT`, as Ctrl-C in a terminal does.
pub fn sigint(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -INT {}", child.id());
}

/// Python with trimesh (CI installs it, .ci/run); fails the test when it is missing, so a
/// mesh check never passes by skipping.
pub fn trimesh() -> PathBuf {
    let ok = Command::new("python3")
        .args(["-c", "import trimesh"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 with trimesh is not installed (pip install trimesh numpy)"
    );
    PathBuf::from("python3")
}
