//! Resource bounds and output integrity on the real binary: the thread clamp, `--out` written
//! atomically (never half-written, errors naming the file), interrupted JSON Lines that end
//! on a complete line with a summary saying so, inputs too large refused before reading, and
//! the same results for every thread count.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::Dir;

/// The solution lines of a JSON Lines listing (the summary holds timings).
fn solution_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.contains(r#""type":"solution""#))
        .collect()
}

/// The `nodes N` figure of the statistics line.
fn nodes(stderr: &str) -> u64 {
    let i = stderr.find(" nodes").expect("a node count on stderr");
    let digits: String = stderr[..i]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn thread_requests_are_clamped_with_a_note() {
    let dir = Dir::new();
    for threads in ["100000", "18446744073709551615"] {
        dir.run(&["solve", "soma", "--count", "--threads", threads])
            .code(0)
            .stdout_is("480 solutions up to rotation\n")
            .stderr_has("is clamped to");
    }
}

#[test]
fn every_thread_count_gives_the_same_listing_count_and_nodes() {
    let dir = Dir::new();
    let base = dir.run(&[
        "solve",
        "soma",
        "--all",
        "--format",
        "json",
        "--threads",
        "1",
    ]);
    base.code(0);
    let want = solution_lines(&base.stdout);
    assert_eq!(want.len(), 480);
    let count = dir.run(&["solve", "soma", "--count", "--threads", "1"]);
    count.code(0);
    let want_nodes = nodes(&count.stderr);
    for threads in ["2", "8", "64"] {
        let r = dir.run(&[
            "solve",
            "soma",
            "--all",
            "--format",
            "json",
            "--threads",
            threads,
        ]);
        r.code(0);
        r.check(
            solution_lines(&r.stdout) == want,
            "the same solutions in the same order",
        );
        let c = dir.run(&["solve", "soma", "--count", "--threads", threads]);
        c.code(0).stdout_is("480 solutions up to rotation\n");
        c.check(nodes(&c.stderr) == want_nodes, "the same node count");
    }
}

#[test]
fn out_replaces_a_file_only_when_the_command_succeeds() {
    let dir = Dir::new();
    let keep = dir.write("keep.svg", "old contents\n");
    let bad = dir.write("bad.jsonl", "not json\n");
    let r = dir.run(&[
        "render",
        bad.to_str().unwrap(),
        "--format",
        "svg",
        "--out",
        keep.to_str().unwrap(),
    ]);
    r.code(2);
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "old contents\n");
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".cubesat-tmp.")),
        "{names:?}"
    );
    // Success replaces it, keeping its mode; a new file gets the mode any new file gets.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    std::fs::set_permissions(&keep, std::fs::Permissions::from_mode(0o640)).unwrap();
    dir.run(&["export", "soma", "--format", "dlx", "--out", "keep.svg"])
        .code(0);
    assert_eq!(mode(&keep), 0o640);
    let reference = dir.write("reference", "");
    dir.run(&["export", "soma", "--format", "dlx", "--out", "new.dlx"])
        .code(0);
    assert_eq!(mode(&dir.path().join("new.dlx")), mode(&reference));
    assert!(
        std::fs::read_to_string(&keep)
            .unwrap()
            .starts_with("| Exact-cover instance")
    );
}

#[test]
fn a_killed_run_leaves_the_old_file_whole() {
    let dir = Dir::new();
    let keep = dir.write("all.json", "old contents\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "solve",
            "tetris-cube",
            "--all",
            "--format",
            "json",
            "--threads",
            "1",
        ])
        .args(["--out", keep.to_str().unwrap(), "--quiet"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "old contents\n");
}

#[test]
fn write_errors_name_the_file_on_one_line() {
    let dir = Dir::new();
    if std::path::Path::new("/dev/full").exists() {
        let r = dir.run(&["export", "soma", "--format", "dlx", "--out", "/dev/full"]);
        r.code(2).stderr_has("/dev/full: ");
        r.check(r.stderr.lines().count() == 1, "one line");
    }
    dir.write("plain", "a file, not a folder\n");
    let r = dir.run(&[
        "export",
        "soma",
        "--format",
        "dlx",
        "--out",
        "plain/out.dlx",
    ]);
    r.code(2).stderr_has("plain/out.dlx: cannot create");
    r.check(r.stderr.lines().count() == 1, "one line");
}

#[test]
fn an_interrupted_listing_ends_on_a_complete_line_and_says_so() {
    let dir = Dir::new();
    let out = std::fs::File::create(dir.path().join("stdout")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "solve",
            "tetris-cube",
            "--all",
            "--format",
            "json",
            "--threads",
            "2",
        ])
        .arg("--quiet")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(out)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    crate::common::sigint(&child);
    let start = Instant::now();
    let status = child.wait().unwrap();
    assert!(start.elapsed() < Duration::from_secs(20), "stops soon");
    assert_eq!(status.code(), Some(130));
    let text = std::fs::read_to_string(dir.path().join("stdout")).unwrap();
    assert!(text.ends_with('\n'), "ends on a complete line");
    let lines: Vec<&str> = text.lines().collect();
    for l in &lines {
        serde_json::from_str::<serde_json::Value>(l).expect("every line is JSON");
    }
    let summary: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["interrupted"], true);
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["solutions"], lines.len() as u64 - 1);
}

#[test]
fn a_huge_answer_file_is_refused_before_it_is_read() {
    let dir = Dir::new();
    dir.run(&["export", "soma", "--format", "dimacs", "--out", "soma.cnf"])
        .code(0);
    // A sparse file: a gigabyte on paper, nothing on disk.
    let f = std::fs::File::create(dir.path().join("answer.txt")).unwrap();
    f.set_len(1 << 30).unwrap();
    let start = Instant::now();
    let r = dir.run(&["decode", "soma.cnf", "answer.txt"]);
    r.code(2).stderr_has("answer.txt: file is 1073741824 bytes");
    r.check(start.elapsed() < Duration::from_secs(5), "refused early");
    let r = dir.run(&["render", "answer.txt", "--format", "svg"]);
    r.code(2).stderr_has("answer.txt: file is 1073741824 bytes");
}

#[test]
fn stl_sizes_are_bounded() {
    let dir = Dir::new();
    for cube in ["--cube=-1", "--cube=1e12", "--cube=nan"] {
        let r = dir.run(&["stl", "soma", "--out", "stl", cube]);
        r.code(2)
            .stderr_has("the cube size must be a positive number");
        r.check(r.stderr.lines().count() == 1, "one line");
    }
    let r = dir.run(&["stl", "soma", "--out", "stl", "--cube", "10", "--gap", "50"]);
    r.code(2)
        .stderr_has("the gap must be at least 0 and at most a quarter of the cube size");
}
