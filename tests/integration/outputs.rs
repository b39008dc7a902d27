//! What cubesat writes and the results it reports, under the attacks of issue 30: a sparse
//! target in a huge box is drawn and written from its cells (and every written file reads
//! back), merged counts never wrap, merge's rerun command is quoted and never repeats a
//! record's text raw, decode refuses repeated or contradictory models and says when a list is
//! incomplete, Ctrl-C keeps the `--out` file and survives GNU `timeout`'s double signal,
//! temporary files are named and cleaned up, and shards are numbered from 0.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use cubesat::shard::ShardRecord;

use crate::common::{Dir, Run};

/// Issue 30's sparse target: two cells at opposite corners of a 1024-cube.
const FAR: &str = r#"{"target":{"cells":[[0,0,0],[1023,1023,1023]]},"pieces":[{"name":"a","cells":[[0,0,0]],"count":2}]}"#;

/// Nothing written in response to a two-cell puzzle may be anywhere near the size of its box.
const SMALL: usize = 100_000;

fn one_line(r: &Run) -> &Run {
    r.check(r.stderr.lines().count() == 1, "one error line")
}

#[test]
fn a_sparse_target_in_a_huge_box_is_drawn_and_written_from_its_cells() {
    let dir = Dir::new();
    dir.write("far.json", FAR);
    for args in [
        &["solve", "far.json"][..],
        &["solve", "far.json", "--format", "html"],
        &["solve", "far.json", "--format", "json"],
        &["solve", "far.json", "--format", "svg"],
        &["show", "far.json"],
        &["show", "far.json", "--format", "html"],
        &["info", "far.json"],
    ] {
        let r = dir.run(args);
        r.code(0)
            .check(r.stdout.len() < SMALL, "output the size of the cells");
    }
    // The text view lists the cells it cannot draw as layers.
    dir.run(&["solve", "far.json", "--color", "never"])
        .stdout_has("a 1024x1024x1024 box with 2 cells, too sparse to draw as layers")
        .stdout_has(": (1023, 1023, 1023)");
    dir.run(&["show", "far.json", "--color", "never"])
        .stdout_has("\"cells\": [[0,0,0], [1023,1023,1023]]");
    // The 3D page holds the two cells as a list, not a grid of a billion characters.
    let page = dir
        .run(&["solve", "far.json", "--format", "html"])
        .stdout
        .clone();
    assert!(
        page.contains("\"g\":[[0,0,0,0,1,1023,1023,1023]]"),
        "cell list in the page"
    );

    // Every file written reads back: JSON Lines through render, a converted puzzle by solve.
    let listing = dir.run(&["solve", "far.json", "--format", "json"]);
    dir.write("far.jsonl", &listing.stdout);
    dir.run(&["render", "far.jsonl", "--format", "text"])
        .code(0)
        .stdout_has("too sparse to draw as layers");
    dir.run(&["convert", "far.json", "back.json"]).code(0);
    let len = std::fs::metadata(dir.path().join("back.json"))
        .unwrap()
        .len();
    assert!((len as usize) < SMALL, "back.json is {len} bytes");
    dir.run(&["solve", "back.json", "--count"])
        .code(0)
        .stdout_is("1 solution up to rotation\n");
    // BurrTools voxel strings have a character per voxel of the box: refused before writing,
    // naming the input, the output and why.
    for out in ["far.xml", "far.xmpuzzle"] {
        let r = dir.run(&["convert", "far.json", out]);
        one_line(r.code(2))
            .stderr_has(&format!(
                "cubesat: error: far.json: cannot be written as a BurrTools file ({out}): the target spans a 1024x1024x1024 box"
            ))
            .stderr_has("write .json instead");
        assert!(!dir.path().join(out).exists(), "{out} not written");
    }
    // A piece spread out in a large box (allowed disconnected) is listed too, and written as
    // cells when a puzzle file is generated from it.
    dir.write(
        "spread.json",
        r#"{"target":{"box":[4,1,1]},"allow_disconnected":true,"pieces":[{"name":"p","cells":[[0,0,0],[900,900,900]]},{"name":"q","cells":[[0,0,0]],"count":2}]}"#,
    );
    let r = dir.run(&["show", "spread.json", "--piece", "p", "--color", "never"]);
    r.code(0)
        .stdout_has("a 901x901x901 box with 2 cells")
        .check(r.stdout.len() < SMALL, "small");
}

#[test]
fn a_target_away_from_the_origin_converts_to_burrtools_and_back() {
    // A BurrTools file holds the target in a box from the origin: the same target moved, the
    // same counts (cubes, and prisms moved by a step that keeps the triangles' directions).
    let dir = Dir::new();
    dir.write(
        "off.json",
        r#"{"target": {"cells": [[5,5,5],[6,5,5],[7,5,5],[5,6,5],[6,6,5],[7,6,5]], "optional": [[8,5,5]]}, "pieces": [{"name": "L", "cells": [[0,0,0],[1,0,0],[0,1,0]]}, {"name": "d", "cells": [[0,0,0],[1,0,0]]}, {"name": "m", "cells": [[0,0,0]]}]}"#,
    );
    dir.write(
        "offp.json",
        r#####"{"grid": "prisms", "target": {"layers": [["....########", "....########"]]}, "pieces": [{"name": "bar", "count": 4, "layers": [["####"]]}]}"#####,
    );
    for f in ["off", "offp"] {
        let before = dir.count(&format!("{f}.json"), None, &["--up-to", "none"]);
        assert!(before > 0, "{f}");
        dir.run(&[
            "convert",
            "-q",
            &format!("{f}.json"),
            &format!("{f}.xmpuzzle"),
        ])
        .code(0);
        let after = dir.count(&format!("{f}.xmpuzzle"), None, &["--up-to", "none"]);
        assert_eq!(before, after, "{f}");
    }
}

/// A count record of `puzzle`'s shard `k/n`, as `solve --count --shard` prints it.
fn shard_record(dir: &Dir, puzzle: &str, k: u32, n: u32) -> serde_json::Value {
    let shard = format!("{k}/{n}");
    let r = dir.run(&["solve", puzzle, "--count", "--quiet", "--shard", &shard]);
    r.code(0);
    serde_json::from_str(r.stdout.trim()).unwrap()
}

/// `record` changed by `edit` and sealed again, as anyone can (the seal has no key).
fn forged(record: &serde_json::Value, edit: impl FnOnce(&mut ShardRecord)) -> String {
    let mut r = ShardRecord::from_json(record).unwrap();
    edit(&mut r);
    format!("{}\n", r.to_json())
}

#[test]
fn merged_counts_never_wrap_around() {
    let dir = Dir::new();
    for k in 0..2 {
        let r = shard_record(&dir, "soma", k, 2);
        dir.write(
            &format!("{k}.json"),
            &forged(&r, |r| {
                r.count = 1 << 63;
                r.raw = 1 << 63;
            }),
        );
    }
    let r = dir.run(&["merge", "0.json", "1.json"]);
    one_line(r.code(2))
        .stderr_has("the shards' \"count\" values add up to more than 18446744073709551615")
        .check(r.stdout.is_empty(), "no count printed");
}

#[test]
fn a_key_seals_shard_records_against_forgery() {
    let dir = Dir::new();
    dir.write("key", "a key of at least sixteen bytes\n");
    for k in 0..2 {
        let shard = format!("{k}/2");
        let r = dir.run(&[
            "solve",
            "soma",
            "--count",
            "--quiet",
            "--shard",
            &shard,
            "--seal-key-file",
            "key",
        ]);
        r.code(0).stdout_has("\"seal\":\"hmac-sha256:");
        dir.write(&format!("{k}.json"), &r.stdout);
    }
    dir.run(&["merge", "0.json", "1.json", "--seal-key-file", "key"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
    // Forged: a count changed and the unkeyed check computed again. Without the key, merge
    // cannot tell (and says the records are sealed); with it, the forgery is refused.
    let one: serde_json::Value = serde_json::from_str(&read(&dir, "1.json")).unwrap();
    dir.write("1.json", &forged(&one, |r| r.count += 1000));
    dir.run(&["merge", "0.json", "1.json"])
        .code(0)
        .stderr_has("note: the records are sealed with a key");
    let r = dir.run(&["merge", "0.json", "1.json", "--seal-key-file", "key"]);
    one_line(r.code(2)).stderr_has(
        "1.json: the shard record does not carry the seal of this key: sealed with another key, or changed after it was sealed",
    );
    // Unsealed records, short keys and a key without a shard are refused.
    let plain = shard_record(&dir, "soma", 1, 2);
    dir.write("1.json", &format!("{plain}\n"));
    let r = dir.run(&["merge", "0.json", "1.json", "--seal-key-file", "key"]);
    one_line(r.code(2)).stderr_has("1.json: the shard record has no seal");
    dir.write("short", "tiny\n");
    let r = dir.run(&["merge", "0.json", "--seal-key-file", "short"]);
    one_line(r.code(2)).stderr_has("short: the key is 4 bytes, fewer than the 16 a seal needs");
    let r = dir.run(&["solve", "soma", "--count", "--seal-key-file", "key"]);
    one_line(r.code(2)).stderr_has("--seal-key-file seals a shard's record: it goes with --shard");
}

/// The GNU parallel command `merge` suggests, as the shell would run it with shard `k`: the
/// single-quoted command text unquoted by `sh`, then `{}` replaced.
fn suggested_command(dir: &Dir, message: &str, k: u32) -> String {
    let start = message.find("or: parallel ").expect("a parallel command") + 13;
    let end = message.rfind(" ::: ").expect("the shard list");
    let out = Command::new("sh")
        .args(["-c", &format!("printf %s {}", &message[start..end])])
        .current_dir(dir.path())
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .replace("{}", &k.to_string())
}

#[test]
fn merge_quotes_its_rerun_command_and_never_repeats_a_records_text_raw() {
    let dir = Dir::new();
    let name = "my puzzle's \"copy\".json";
    std::fs::copy(crate::common::puzzle_file("soma"), dir.path().join(name)).unwrap();
    let r = shard_record(&dir, name, 0, 3);
    dir.write("0.json", &format!("{r}\n"));
    let m = dir.run(&["merge", "0.json"]);
    one_line(m.code(2)).stderr_has("2 of 3 shards missing: 1, 2");
    // The suggested command, run by a shell, makes shard 1's record; merge then misses only 2.
    let cmd = suggested_command(&dir, &m.stderr, 1);
    assert!(cmd.ends_with("--shard 1/3 > 1.json"), "{cmd}");
    let cmd = cmd.replacen("cubesat", env!("CARGO_BIN_EXE_cubesat"), 1);
    let status = Command::new("sh")
        .args(["-c", &cmd])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success(), "{cmd}");
    dir.run(&["merge", "0.json", "1.json"])
        .code(2)
        .stderr_has("1 of 3 shards missing: 2;");

    // A record whose command is not one cubesat writes (it would run more than cubesat) is
    // not repeated to the shell.
    let evil = "cubesat solve soma --count --shard 0/3; touch pwned";
    dir.write("0.json", &forged(&r, |r| r.command = evil.to_string()));
    let m = dir.run(&["merge", "0.json"]);
    one_line(m.code(2))
        .stderr_has("sbatch --array=1,2 JOB_SCRIPT")
        .stderr_has("not repeated")
        .check(
            !m.stderr.contains("touch"),
            "the record's text is not echoed",
        );
}

/// Two monominoes in a 2x1x1 box (as in first_hour.rs): variables 1-4 are the placements,
/// {1, 4} and {2, 3} the two solutions.
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
    .code(0)
    .stderr_has("4 variables");
}

#[test]
fn decode_refuses_repeated_contradictory_and_foreign_models() {
    let dir = Dir::new();
    two_monominoes(&dir);
    for (answer, says) in [
        (
            "s SATISFIABLE\nv 1 -2 -3 4 0\ns SATISFIABLE\nv -2 -3\nv 4 1 0\ns UNSATISFIABLE\n",
            "line 4: this model repeats the model of line 2",
        ),
        (
            "s SATISFIABLE\nv 1 -2 -3 4 -1 0\n",
            "line 2: variable 1 is given both true and false",
        ),
        (
            "s SATISFIABLE\nv 1 -2 -3 4 0\ns SATISFIABLE\nv -1 2 3 -4 -9 0\n",
            "line 4: literal -9: the formula has only 4 variables",
        ),
        (
            "SAT\n1 -2 -3 4 5 0\n",
            "line 2: literal 5: the formula has only 4 variables",
        ),
    ] {
        dir.write("answer.txt", answer);
        let r = dir.run(&["decode", "mono.cnf", "answer.txt"]);
        one_line(r.code(2))
            .stderr_has("cubesat: error: mono.cnf with answer.txt: answer: ")
            .stderr_has(says)
            .check(r.stdout.is_empty(), "nothing decoded");
    }
}

#[test]
fn decode_says_when_an_enumeration_was_cut_short() {
    let dir = Dir::new();
    two_monominoes(&dir);
    // CryptoMiniSat --maxsol killed (or stopped at its limit): no closing UNSATISFIABLE.
    dir.write(
        "cut.txt",
        "c CryptoMiniSat --maxsol 10\ns SATISFIABLE\nv 1 -2 -3 4 0\ns SATISFIABLE\nv -1 2 3 -4 0\n",
    );
    let r = dir.run(&["decode", "mono.cnf", "cut.txt", "--color", "never"]);
    r.code(0).stdout_has("solution 2").stderr_has(
        "2 counted counting every placement so far: incomplete as far as the answer says",
    );
    let r = dir.run(&["decode", "mono.cnf", "cut.txt", "--format", "json"]);
    let summary: serde_json::Value =
        serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["complete"], false);
    // The whole list, closed by UNSATISFIABLE, is a count.
    dir.write(
        "whole.txt",
        "s SATISFIABLE\nv 1 -2 -3 4 0\ns SATISFIABLE\nv -1 2 3 -4 0\ns UNSATISFIABLE\n",
    );
    let r = dir.run(&["decode", "mono.cnf", "whole.txt"]);
    r.code(0)
        .check(!r.stderr.contains("so far"), "a complete list is a count");
}

/// Starts `cubesat ARGS` in `dir` with stdout and stderr to files there.
fn spawn(dir: &Dir, args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.path().join("stdout")).unwrap())
        .stderr(std::fs::File::create(dir.path().join("stderr")).unwrap())
        .spawn()
        .unwrap()
}

fn read(dir: &Dir, name: &str) -> String {
    std::fs::read_to_string(dir.path().join(name)).unwrap_or_default()
}

#[test]
fn ctrl_c_keeps_the_out_file_and_says_where_the_partial_result_is() {
    let dir = Dir::new();
    dir.write("count.txt", "old contents\n");
    // The dancing-links count of the Tetris Cube takes minutes: Ctrl-C comes first.
    let mut child = spawn(
        &dir,
        &[
            "solve",
            "tetris-cube",
            "--count",
            "--engine",
            "dlx",
            "--out",
            "count.txt",
        ],
    );
    std::thread::sleep(Duration::from_millis(1000));
    crate::common::sigint(&child);
    let status = child.wait().unwrap();
    let stderr = read(&dir, "stderr");
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_eq!(read(&dir, "count.txt"), "old contents\n", "{stderr}");
    let partial = read(&dir, "count.partial.txt");
    assert!(
        partial.ends_with("solutions up to rotation (interrupted: counted so far)\n")
            || partial.ends_with("solution up to rotation (interrupted: counted so far)\n"),
        "{partial:?}"
    );
    assert!(
        stderr.contains(
            "cubesat: interrupted: count.txt is left as it was; the partial result is in count.partial.txt"
        ),
        "{stderr}"
    );
}

/// `timeout -s INT` signals cubesat and then its process group, microseconds apart: the
/// second signal is the same Ctrl-C and must not cut the output short.
#[test]
fn gnu_timeouts_double_sigint_never_drops_the_partial_result() {
    if Command::new("timeout").arg("--version").output().is_err() {
        panic!("GNU timeout (coreutils) is needed");
    }
    let dir = Dir::new();
    let timed = |args: &[&str]| -> String {
        let out = Command::new("timeout")
            .args(["-s", "INT", "1", env!("CARGO_BIN_EXE_cubesat")])
            .args(args)
            .arg("--quiet")
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for _ in 0..6 {
        let count = timed(&["solve", "tetris-cube", "--count"]);
        assert!(
            count == "9839 solutions up to rotation\n"
                || (count.ends_with(" up to rotation (interrupted: counted so far)\n")
                    && count.lines().count() == 1),
            "a count line: {count:?}"
        );
        let listing = timed(&["solve", "tetris-cube", "--all", "--format", "json"]);
        assert!(listing.ends_with('\n'), "ends on a whole line");
        let last: serde_json::Value =
            serde_json::from_str(listing.lines().last().unwrap_or("")).expect("JSON");
        assert_eq!(last["type"], "summary", "the summary closes the listing");
    }
}

/// A run that cannot stop at the first Ctrl-C (here blocked writing to a full pipe nobody
/// reads) is ended by a second one more than a second later, with exit code 130.
#[test]
fn a_second_ctrl_c_ends_a_run_that_cannot_stop() {
    let dir = Dir::new();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "solve",
            "tetris-cube",
            "--all",
            "--format",
            "json",
            "--quiet",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Thousands of solutions of some 300 bytes each fill the pipe in milliseconds.
    std::thread::sleep(Duration::from_millis(1500));
    crate::common::sigint(&child);
    std::thread::sleep(Duration::from_millis(1300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "blocked on the full pipe, the first Ctrl-C cannot end the run"
    );
    crate::common::sigint(&child);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the second Ctrl-C ends it"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    drop(child.stdout.take());
}

#[test]
fn out_errors_name_the_target_and_convert_errors_the_file() {
    let dir = Dir::new();
    let r = dir.run(&["solve", "soma", "--out", "missing/x.txt"]);
    one_line(r.code(2))
        .stderr_has("cubesat: error: missing/x.txt: cannot create a file in missing: No such file")
        .check(!r.stderr.contains(".cubesat"), "no temporary file named");
    let r = dir.run(&["solve", "soma", "--out", "x/"]);
    one_line(r.code(2)).stderr_has("x/: names a folder, not a file");
    dir.write(
        "hinted.json",
        r#"{"name": "Hinted", "target": {"box": [2,1,1]}, "pieces": [{"name": "a", "cells": [[0,0,0]]}, {"name": "b", "cells": [[0,0,0]]}], "hints": [{"piece": "a", "cells": [[0,0,0]]}]}"#,
    );
    let r = dir.run(&["convert", "hinted.json", "h.xmpuzzle"]);
    one_line(r.code(2)).stderr_has(
        "cubesat: error: hinted.json: cannot be written as a BurrTools file (h.xmpuzzle): the puzzle has hints",
    );
}

/// Temporary files in `dir`, by name.
fn temporaries(dir: &Dir) -> Vec<String> {
    std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".cubesat-tmp."))
        .collect()
}

fn backdate(dir: &Dir, name: &str, by: Duration) {
    let f = std::fs::File::options()
        .write(true)
        .open(dir.path().join(name))
        .unwrap();
    f.set_modified(SystemTime::now() - by).unwrap();
}

#[test]
fn a_killed_runs_temporary_file_says_what_it_is_and_is_cleaned_up_later() {
    let dir = Dir::new();
    dir.write("all.json", "old contents\n");
    let mut child = spawn(
        &dir,
        &[
            "solve",
            "tetris-cube",
            "--all",
            "--format",
            "json",
            "--out",
            "all.json",
        ],
    );
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    let left = temporaries(&dir);
    assert_eq!(left.len(), 1, "{left:?}");
    let stale = left[0].clone();
    // `.all.json.cubesat-tmp.HOST.PID.XXXXXX`: what it is for and who wrote it.
    let pid = child.id().to_string();
    let host = stale
        .strip_prefix(".all.json.cubesat-tmp.")
        .and_then(|r| r.strip_suffix(&stale[stale.len() - 7..]))
        .and_then(|r| r.strip_suffix(&format!(".{pid}")))
        .unwrap_or_else(|| panic!("{stale}"))
        .to_string();
    // Files a later run must leave alone: a young one, one of a live process, another
    // host's, names not of cubesat's form.
    let live = std::process::id();
    let keep = [
        format!(".all.json.cubesat-tmp.{host}.{pid}.young1"),
        format!(".all.json.cubesat-tmp.{host}.{live}.alive1"),
        format!(".all.json.cubesat-tmp.{host}x.{pid}.other1"),
        ".cubesat-4N4o4W".to_string(),
        format!("all.json.cubesat-tmp.{host}.{pid}.nodot1"),
    ];
    for k in &keep {
        dir.write(k, "x");
    }
    let hour = Duration::from_secs(3600);
    for k in [&stale, &keep[1], &keep[2], &keep[3], &keep[4]] {
        backdate(&dir, k, hour);
    }
    let r = dir.run(&["solve", "soma", "--out", "all.json"]);
    r.code(0).stderr_has(&format!(
        "cubesat: note: removed ./{stale}, the temporary file of a cubesat run (process {pid}) that was killed"
    ));
    assert!(!dir.path().join(&stale).exists());
    for k in &keep {
        assert!(dir.path().join(k).exists(), "{k} kept");
    }
    assert!(read(&dir, "all.json").starts_with("Soma cube, solution 1"));
}

#[test]
fn shards_are_numbered_from_0_and_a_refused_shards_empty_file_does_not_break_merge() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("results")).unwrap();
    for k in 0..4 {
        let r = shard_record(&dir, "soma", k, 4);
        dir.write(&format!("results/{k}.json"), &format!("{r}\n"));
    }
    // `--shard 4/4 > results/4.json`: refused, and the shell has made an empty file.
    let cmd = format!(
        "'{}' solve soma --count --shard 4/4 > results/4.json",
        env!("CARGO_BIN_EXE_cubesat")
    );
    let out = Command::new("sh")
        .args(["-c", &cmd])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "there is no shard 4/4: shards are numbered from 0, so the 4 shards are 0/4 to 3/4"
        ),
        "{stderr}"
    );
    assert_eq!(read(&dir, "results/4.json"), "");
    dir.run(&["merge", "results"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n")
        .stderr_has("results/4.json: empty (no shard record), skipped");
    // With --out, nothing is written at all.
    dir.run(&[
        "solve",
        "soma",
        "--count",
        "--shard",
        "4/4",
        "--out",
        "results/5.json",
    ])
    .code(2);
    assert!(!dir.path().join("results/5.json").exists());
}
