//! Mutation property tests of every reader, run in CI: a few thousand seeded mutations of real
//! inputs per reader must never panic, never accept a wrong result and never take 10 s
//! (library level), and through the real binary a bad input is exit 2 with exactly one stderr
//! line naming the file (puzzle JSON, BurrTools XML, JSON Lines; solver answers). `cargo run --release --example fuzz_readers -- 1000000` runs the
//! same mutator at scale.

#[path = "../../examples/fuzz/harness.rs"]
mod harness;

use std::time::Duration;

use crate::common::Dir;

#[test]
fn readers_survive_mutated_inputs() {
    for reader in harness::readers() {
        let f = harness::run(&reader, 2_000, 7, Duration::from_secs(10));
        assert!(
            f.panics.is_empty(),
            "{}: {} panics, first on {:?}",
            reader.name,
            f.panics.len(),
            f.panics[0]
        );
        assert!(f.wrong.is_empty(), "{}: {:?}", reader.name, f.wrong);
        assert!(
            f.slow.is_empty(),
            "{}: slow inputs {:?}",
            reader.name,
            f.slow
        );
    }
}

/// Exit 2 with one stderr line naming `file`, or a clean success or "none" (0 or 1).
fn one_line_or_ok(r: &crate::common::Run, file: &str) {
    r.check(!r.stderr.contains("panicked"), "the binary must not panic");
    match r.code {
        0 | 1 => {}
        2 => {
            r.check(r.stderr.lines().count() == 1, "exactly one stderr line");
            r.check(r.stderr.contains(file), "the error names the file");
        }
        _ => {
            r.check(false, "exit 0, 1 or 2");
        }
    }
}

#[test]
fn the_binary_reports_mutated_files_on_one_line() {
    let dir = Dir::new();
    let readers = harness::readers();
    let puzzles = readers.iter().find(|r| r.name == "puzzle JSON").unwrap();
    let lines = readers
        .iter()
        .find(|r| r.name == "render JSON Lines")
        .unwrap();
    let mut rng = harness::Rng::new(11);
    for i in 0..150 {
        let name = format!("p{i}.json");
        dir.write(&name, &harness::mutate(&mut rng, &puzzles.seeds));
        one_line_or_ok(&dir.run(&["info", &name]), &name);
        let name = format!("s{i}.jsonl");
        dir.write(&name, &harness::mutate(&mut rng, &lines.seeds));
        one_line_or_ok(&dir.run(&["render", &name, "--format", "svg"]), &name);
    }
    let burr = readers.iter().find(|r| r.name == "BurrTools XML").unwrap();
    for i in 0..100 {
        let name = format!("b{i}.xml");
        dir.write(&name, &harness::mutate(&mut rng, &burr.seeds));
        one_line_or_ok(&dir.run(&["info", &name]), &name);
    }
    dir.run(&["export", "soma", "--format", "asp", "--out", "soma.lp"])
        .code(0);
    let answers = readers.iter().find(|r| r.name == "decode answers").unwrap();
    for i in 0..100 {
        let name = format!("a{i}.txt");
        dir.write(&name, &harness::mutate(&mut rng, &answers.seeds));
        let r = dir.run(&["decode", "soma.lp", &name]);
        r.check(!r.stderr.contains("panicked"), "no panic");
        if r.code == 2 {
            r.check(r.stderr.lines().count() == 1, "exactly one stderr line");
        }
    }
}
