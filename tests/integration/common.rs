//! Shared helpers for the integration tests: run the real binary in a temporary directory and report command, stdout and stderr when an expectation fails; check what it writes (XML well-formed, STL closed and its volume, trimesh scripts, a 3D page's data).
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

/// Runs `cubesat ARGS` in `dir` and sends it SIGINT (with `kill -INT`, as Ctrl-C does) once
/// `ready` says so (checked every 20 ms, at most two minutes), then waits for it.
pub fn interrupted_when(dir: &Dir, args: &[&str], ready: impl Fn() -> bool, when: &str) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cubesat");
    let start = std::time::Instant::now();
    while !ready() && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    sigint(&child);
    let out = child.wait_with_output().expect("wait for cubesat");
    Run {
        cmd: format!("cubesat {} (SIGINT {when})", args.join(" ")),
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
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

/// Runs a Python `script` that checks the meshes under `dir` with trimesh (its one argument is
/// the folder) and must print `ok`; returns what it printed.
pub fn trimesh_check(dir: &Dir, script: &str) -> String {
    let out = Command::new(trimesh())
        .args(["-c", script, dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && stdout.contains("ok"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A binary STL's triangles (in f32, as written).
pub fn read_stl(bytes: &[u8]) -> Vec<[[f32; 3]; 3]> {
    let n = u32::from_le_bytes(bytes[80..84].try_into().unwrap()) as usize;
    assert_eq!(bytes.len(), 84 + 50 * n, "size of {n} triangles");
    let f = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    (0..n)
        .map(|t| {
            let base = 84 + 50 * t + 12;
            std::array::from_fn(|v| std::array::from_fn(|a| f(base + 12 * v + 4 * a)))
        })
        .collect()
}

/// True when every directed edge is used once and its reverse once: closed, consistently
/// wound, no T-junction and no edge of four triangles.
pub fn watertight(tris: &[[[f32; 3]; 3]]) -> bool {
    let mut edges: std::collections::HashMap<([u32; 3], [u32; 3]), u32> = Default::default();
    for t in tris {
        let v = t.map(|p| p.map(f32::to_bits));
        for m in 0..3 {
            *edges.entry((v[m], v[(m + 1) % 3])).or_default() += 1;
        }
    }
    edges
        .iter()
        .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
}

/// The enclosed volume of triangles wound counter-clockwise from outside.
pub fn stl_volume(tris: &[[[f32; 3]; 3]]) -> f64 {
    tris.iter()
        .map(|t| {
            let [a, b, c] = t.map(|p| p.map(f64::from));
            a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0])
        })
        .sum::<f64>()
        / 6.0
}

/// A small XML well-formedness check: balanced, properly nested tags, one root element,
/// quoted attributes, nothing but the declaration and comments outside it.
pub fn assert_well_formed(doc: &str) {
    let mut rest = doc
        .strip_prefix(r#"<?xml version="1.0" encoding="UTF-8"?>"#)
        .expect("XML declaration");
    let (mut stack, mut roots) = (Vec::<&str>::new(), 0);
    while let Some(i) = rest.find('<') {
        assert!(
            !stack.is_empty() || rest[..i].trim().is_empty(),
            "text outside the root"
        );
        rest = &rest[i..];
        if let Some(r) = rest.strip_prefix("<!--") {
            rest = &r[r.find("-->").expect("comment end") + 3..];
            continue;
        }
        let end = rest.find('>').expect("tag end");
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        assert_eq!(tag.matches('"').count() % 2, 0, "quotes in <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name), "mismatched </{name}>");
            continue;
        }
        let name = tag.split([' ', '/']).next().unwrap();
        assert!(!name.is_empty(), "empty tag");
        if stack.is_empty() {
            roots += 1;
        }
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    assert!(
        rest.trim().is_empty() && stack.is_empty(),
        "unclosed {stack:?}"
    );
    assert_eq!(roots, 1, "one root element");
}

/// The JSON inside a 3D page's `<script id="data" type="application/json">`.
pub fn page_data(page: &str) -> serde_json::Value {
    let open = r#"<script id="data" type="application/json">"#;
    let start = page.find(open).expect("data script") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("valid JSON")
}
