//! The catalog (`crates/cubesat/puzzles/catalog` and the bundled files' `catalog` records): every puzzle not marked slow is counted in every mode by the exact engine and in its published count's mode by dancing links, against the counts its file records and the published counts; `cubesat list` and `info` show it.
//!
//! The counts run in release builds only (`cargo test --release`, as CI runs): about 70 CPU
//! seconds for 159 puzzles, most of it dancing links, on two workers. The slow puzzles (more
//! than ten CPU seconds each) are counted by `cargo bench --bench catalog`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use cubesat::UpTo;
use cubesat::puzzle::{CatalogCounts, ModeCount, Verdict, bundled, named};
use cubesat::run::{EngineChoice, Instance, RunOptions, catalog_count};

use crate::common::Dir;

/// The catalog's puzzles: (name, slow), without the open ones (an estimate, no count).
fn catalog() -> Vec<(&'static str, bool)> {
    named()
        .filter_map(|(name, _)| {
            let c = bundled(name).unwrap().catalog?;
            let open = c.counts.get(UpTo::Rotation) == ModeCount::NotCounted
                && c.incomplete.as_ref().is_some_and(|i| i.estimate.is_some());
            (!open).then_some((name, c.slow))
        })
        .collect()
}

/// The catalog's puzzles whose source left the count incomplete.
fn incomplete() -> Vec<&'static str> {
    named()
        .map(|(name, _)| name)
        .filter(|name| {
            bundled(name)
                .unwrap()
                .catalog
                .is_some_and(|c| c.incomplete.is_some())
        })
        .collect()
}

fn counted(inst: &Instance, engine: EngineChoice, mode: UpTo) -> Result<ModeCount, String> {
    let opts = RunOptions {
        engine,
        up_to: mode,
        threads: 1,
        ..RunOptions::default()
    };
    catalog_count(inst, &opts).map_err(|e| e.report())
}

/// Checks one puzzle; returns what is wrong.
fn check(name: &str) -> Vec<String> {
    let puzzle = bundled(name).unwrap();
    let c = puzzle.catalog.clone().unwrap();
    let inst = Instance::new(puzzle).unwrap();
    let mut wrong = Vec::new();
    let mut mine = CatalogCounts::default();
    for mode in CatalogCounts::MODES {
        let got = match counted(&inst, EngineChoice::Exact, mode) {
            Ok(n) => n,
            Err(e) => {
                wrong.push(format!("{name} ({mode}): {e}"));
                continue;
            }
        };
        match mode {
            UpTo::None => mine.none = got,
            UpTo::Rotation => mine.rotation = got,
            _ => mine.rotation_reflection = got,
        }
        if got != c.counts.get(mode) {
            wrong.push(format!(
                "{name} ({mode}): the exact engine counts {got:?}, the file records {:?}",
                c.counts.get(mode)
            ));
        }
    }
    for p in &c.published {
        let agrees = p.agrees(&mine);
        match &p.finding {
            None if !agrees => wrong.push(format!(
                "{name}: published {} ({}) differs from cubesat's {:?} and has no finding",
                p.count,
                p.up_to,
                mine.get(p.up_to)
            )),
            Some(_) if agrees => wrong.push(format!(
                "{name}: published {} ({}) agrees with cubesat, yet has a finding",
                p.count, p.up_to
            )),
            Some(f) => {
                if let Some(m) = f.matches
                    && mine.get(m) != ModeCount::Count(p.count)
                {
                    wrong.push(format!(
                        "{name}: the finding says the published {} is cubesat's count {}, which is {:?}",
                        p.count,
                        m.phrase(),
                        mine.get(m)
                    ));
                }
                if f.verdict == Verdict::Source && f.matches.is_some() {
                    wrong.push(format!("{name}: a source error matches no mode"));
                }
            }
            None => {}
        }
    }
    // The second engine, in the mode the (first) published count is stated in.
    let mode = c.published.first().map_or(UpTo::Rotation, |p| p.up_to);
    match counted(&inst, EngineChoice::Dlx, mode) {
        Ok(n) if n == mine.get(mode) => {}
        Ok(n) => wrong.push(format!(
            "{name} ({mode}): dancing links counts {n:?}, the exact engine {:?}",
            mine.get(mode)
        )),
        Err(e) => wrong.push(format!("{name} ({mode}, dancing links): {e}")),
    }
    wrong
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release-mode counts: run `cargo test --release`"
)]
fn every_quick_catalog_puzzle_counts_as_recorded_with_two_engines() {
    let quick: Vec<&str> = catalog()
        .into_iter()
        .filter(|(_, slow)| !slow)
        .map(|(n, _)| n)
        .collect();
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let wrong = Mutex::new(Vec::new());
    // Two workers, one thread each: the puzzles are small, and whole puzzles in parallel keep
    // both cores busy with dancing links (which has no threads of its own).
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(name) = quick.get(i) else { break };
                    let w = check(name);
                    wrong.lock().unwrap().extend(w);
                }
            });
        }
    });
    let wrong = wrong.into_inner().unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    eprintln!(
        "catalog: {} puzzles counted in 3 modes and checked with dancing links in {:.1} s",
        quick.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn the_catalog_holds_150_puzzles_with_sources_and_every_count_recorded() {
    let all = catalog();
    assert!(all.len() >= 150, "{} puzzles", all.len());
    let (mut published, mut findings, mut sourced) = (0, 0, 0);
    for (name, _) in &all {
        let c = bundled(name).unwrap().catalog.unwrap();
        if c.incomplete.is_some() {
            continue; // no count is published: the test below checks these
        }
        sourced += 1;
        for mode in CatalogCounts::MODES {
            assert_ne!(
                c.counts.get(mode),
                ModeCount::NotCounted,
                "{name}: record cubesat's count {}",
                mode.phrase()
            );
        }
        if !c.published.is_empty() {
            published += 1;
        }
        findings += c.published.iter().filter(|p| p.finding.is_some()).count();
        for p in &c.published {
            assert!(p.source.len() > 20, "{name}: cite the source fully");
        }
    }
    // Most puzzles have a published count; every disagreement carries its settlement (the
    // reader refuses a disagreement without one).
    assert!(published * 10 >= sourced * 9, "{published} of {sourced}");
    assert!(findings >= 1);
}

#[test]
fn every_incomplete_puzzle_has_placements_and_a_count_or_an_estimate() {
    let names = incomplete();
    // Polyform Puzzler's "solutions incomplete" polycube and polyomino puzzles that cubesat
    // expresses (crates/cubesat/puzzles/catalog/tools/polyform-puzzler.py).
    assert!(names.len() >= 160, "{} puzzles", names.len());
    let (mut counted, mut open) = (0, 0);
    for name in names {
        let puzzle = bundled(name).unwrap();
        let c = puzzle.catalog.clone().unwrap();
        let i = c.incomplete.clone().unwrap();
        assert!(
            i.source.contains("Polyform Puzzler"),
            "{name}: {}",
            i.source
        );
        assert!(
            c.published.is_empty(),
            "{name}: an incomplete count is not published"
        );
        let piece_cells: usize = puzzle
            .pieces
            .iter()
            .map(|p| p.shape.len() * p.count as usize)
            .sum();
        assert_eq!(piece_cells, puzzle.target.cells().len(), "{name}");
        // Every piece and every cell has a placement: the figure and the pieces fit.
        let inst = Instance::new(puzzle).unwrap();
        assert!(
            inst.table.by_piece().iter().all(|p| !p.is_empty()),
            "{name}"
        );
        assert!(inst.table.by_cell().iter().all(|p| !p.is_empty()), "{name}");
        let counts: Vec<ModeCount> = CatalogCounts::MODES
            .iter()
            .map(|&m| c.counts.get(m))
            .collect();
        match (counts.as_slice(), &i.counted, &i.estimate) {
            (
                [
                    ModeCount::Count(none),
                    ModeCount::Count(rotation),
                    ModeCount::Count(reflection),
                ],
                Some(_),
                None,
            ) => {
                // Each class up to rotation holds at most 24 placements, each up to
                // reflection at most two classes up to rotation.
                assert!(
                    rotation <= none && *none <= rotation * 24,
                    "{name}: {counts:?}"
                );
                assert!(
                    reflection <= rotation && *rotation <= reflection * 2,
                    "{name}"
                );
                counted += 1;
            }
            (
                [
                    ModeCount::NotCounted,
                    ModeCount::NotCounted,
                    ModeCount::NotCounted,
                ],
                None,
                Some(e),
            ) => {
                assert!(
                    e.low <= e.nodes && e.nodes > 0.0 && e.cpu_seconds > 0.0,
                    "{name}"
                );
                assert!(!c.slow, "{name}: an open count is not a bench");
                open += 1;
            }
            _ => panic!("{name}: record all three counts with 'counted', or an estimate"),
        }
    }
    assert!(
        counted >= 20 && open >= 100,
        "{counted} counted, {open} open"
    );
}

/// The display width of a line (every character of `list` is one column).
fn columns(line: &str) -> usize {
    line.chars().count()
}

#[test]
fn list_shows_every_family_aligned_within_100_columns() {
    let dir = Dir::new();
    let run = dir.run(&["list"]);
    run.code(0)
        .stdout_has("soma (")
        .stdout_has("pentominoes (")
        .stdout_has("PUBLISHED")
        .stderr_has("agreeing with their published count");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines.len() > 150);
    for l in &lines {
        run.check(
            columns(l) <= 100,
            &format!("line wider than 100 columns: {l:?}"),
        );
    }
    // Every header and row puts its columns at the same places: the right edge of PIECES.
    let header = lines.iter().find(|l| l.contains("PIECES")).unwrap();
    let edge = header.find("PIECES").unwrap() + "PIECES".len();
    for l in lines
        .iter()
        .filter(|l| l.starts_with("  ") && !l.contains("PIECES"))
    {
        let rest = &l[2..];
        if !rest.contains(' ') {
            continue; // a long name on a line of its own
        }
        let c = l.as_bytes()[edge - 1];
        run.check(
            c.is_ascii_digit(),
            &format!("PIECES column misaligned: {l:?}"),
        );
        run.check(
            l.as_bytes()[edge] == b' ',
            &format!("PIECES column misaligned: {l:?}"),
        );
    }
    let n = lines.iter().filter(|l| l.contains("  yes")).count();
    run.check(n >= 140, "most published counts agree");
}

#[test]
fn list_filters_by_family_and_word() {
    let dir = Dir::new();
    let run = dir.run(&["list", "--family", "soma"]);
    run.code(0)
        .stdout_has("soma-bathtub")
        .stdout_has("soma-castle-1")
        .check(!run.stdout.contains("pentominoes"), "only the soma family");
    let run = dir.run(&["list", "--search", "SOMA-CASTLE"]);
    run.code(0).stdout_has("soma-castle-2").check(
        run.stdout.lines().filter(|l| l.starts_with("  ")).count() == 3,
        "a header and two castles",
    );
    dir.run(&["list", "--family", "nope"])
        .code(2)
        .stderr_has("no family 'nope' (families: bricks,");
    dir.run(&["list", "--search", "no-such-puzzle-anywhere"])
        .code(1)
        .stderr_has("no puzzle matches");
}

#[test]
fn info_cites_the_sources_and_the_findings() {
    let dir = Dir::new();
    dir.run(&["info", "soma-bathtub"])
        .code(0)
        .stdout_has("catalog: family soma")
        .stdout_has("published: 158 up to rotation (cubesat agrees)")
        .stdout_has("source: David Goodger, Polyform Puzzler documentation")
        .stdout_has("cubesat: 316 counting every placement, 158 up to rotation, 79 up to rotation and reflection");
    dir.run(&["info", "soma-castle-1"])
        .code(0)
        .stdout_has("published: 10 up to rotation (cubesat differs, settled: the source is wrong)")
        .stdout_has("finding: The page gives 10 solutions");
    dir.run(&["info", "polycubes-234-ring-wall-6x6x2"])
        .code(0)
        .stdout_has("published: no published count found")
        .stdout_has("cubesat: ")
        .stdout_has("incomplete: the source left its count unfinished")
        .stdout_has("source: David Goodger, Polyform Puzzler documentation")
        .stdout_has("counted: 20");
    dir.run(&["info", "pentacubes-3x3x20-tower-1"])
        .code(0)
        .stdout_has("open, estimated up to rotation: ")
        .stdout_has("nodes (95% interval ");
    let run = dir.run(&["list", "--family", "pentacubes"]);
    run.code(0)
        .stdout_has("pentacubes-3x3x20-tower-1")
        .stdout_has("open, est. ")
        .stderr_has(" open (estimated, not counted)");
    dir.run(&["list", "--family", "polycubes"])
        .code(0)
        .stdout_has("polycubes-234-ring-wall-6x6x2");
    dir.run(&["info", "conway-puzzle"])
        .code(0)
        .stdout_has("published: no published count found");
    dir.run(&["solve", "soma-crystal", "--count"])
        .code(0)
        .stdout_is("2800 solutions up to rotation\n");
}

/// Every bundled and catalog puzzle written as a cubesat file reads back as the same puzzle,
/// estimates' floats included (their shortest decimal forms must parse to the same number,
/// which serde_json's default float parser did not always give), and `cubesat convert`
/// writes it.
#[test]
fn every_puzzle_reads_back_from_the_file_it_is_written_as() {
    use cubesat::puzzle::json::{parse_puzzle, to_file_string, to_value};
    let mut differ = Vec::new();
    let mut names = 0;
    for (name, _) in named() {
        let p = bundled(name).unwrap();
        let again = parse_puzzle(&to_file_string(&p), name).unwrap();
        if to_value(&again) != to_value(&p) {
            differ.push(name);
        }
        names += 1;
    }
    assert!(names > 300, "{names} puzzles");
    assert!(differ.is_empty(), "read back differently: {differ:?}");
    // One that differed through a float (the estimate's "high" of 3.683e28), by the binary.
    let dir = Dir::new();
    dir.run(&["convert", "hexominoes-plus-18x12", "board.json"])
        .code(0);
}

/// Every count finished in shards (`counts/NAME/MODE/K.json` in the repository, one folder
/// per puzzle and mode) is reproduced by `cubesat merge` from its committed records: the
/// merged count is the catalog's, the records are of the catalog's puzzle (its name, and
/// its file in the command that ran each; the puzzle digest also covers the catalog record,
/// which the finished count rewrote) and of the mode, and the catalog says how it was
/// counted.
#[test]
fn counts_finished_in_shards_merge_from_their_committed_records() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("counts");
    let dir = Dir::new();
    let mut merged = 0;
    for puzzle in std::fs::read_dir(&root).unwrap() {
        let puzzle = puzzle.unwrap().path();
        // `unfinished/` holds the records of counts still running in pieces.
        if !puzzle.is_dir() || puzzle.ends_with("unfinished") {
            continue;
        }
        let name = puzzle.file_name().unwrap().to_str().unwrap().to_string();
        let p = bundled(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let catalog = p.catalog.clone().unwrap();
        let how = &catalog
            .incomplete
            .as_ref()
            .unwrap()
            .counted
            .as_ref()
            .unwrap()
            .how;
        assert!(how.contains(&format!("counts/{name}/")), "{name}: {how}");
        let file = format!(
            "crates/cubesat/puzzles/catalog/{}/{name}.json",
            catalog.family
        );
        for mode in CatalogCounts::MODES {
            let folder = puzzle.join(mode.to_string().replace('+', "-"));
            let r = dir.run(&["merge", "--format", "json", folder.to_str().unwrap()]);
            let v: serde_json::Value = serde_json::from_str(&r.code(0).stdout).unwrap();
            let want = match catalog.counts.get(mode) {
                ModeCount::Count(n) => n,
                other => panic!("{name} {mode}: {other:?}"),
            };
            assert_eq!(v["count"].as_u64(), Some(want), "{name} {mode}: {v}");
            for f in std::fs::read_dir(&folder).unwrap() {
                let rec: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(f.unwrap().path()).unwrap())
                        .unwrap();
                assert_eq!(rec["up_to"].as_str(), Some(&*mode.to_string()), "{name}");
                assert_eq!(rec["puzzle"].as_str(), Some(&*p.name), "{name} {mode}");
                // The command as it was run: the file from the repository's root, or the
                // same file by an absolute path.
                let command = rec["command"].as_str().unwrap();
                let given = command
                    .strip_prefix("cubesat solve ")
                    .and_then(|rest| rest.split_once(" --count"))
                    .map(|(path, _)| path);
                assert!(
                    given
                        .is_some_and(|g| g == file
                            || (g.starts_with('/') && g.ends_with(&format!("/{file}")))),
                    "{name} {mode}: {command}"
                );
                assert_eq!(rec["complete"].as_bool(), Some(true), "{name} {mode}");
            }
            merged += 1;
        }
    }
    assert!(merged >= 12, "{merged} counts merged");
}
