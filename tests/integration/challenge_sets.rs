//! `cubesat generate --set` as a user runs it: the same bytes from the same inputs, every challenge file completing in exactly one way by `cubesat solve --count --up-to none`, no two challenges alike under the target's rotations, the last level's hints minimal, levels separated by the measured difficulty, bad arguments refused in one line, and the booklet PDF rendered by pdftoppm.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::Dir;
use serde_json::Value;

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Makes a set into `out` and returns its index.
fn make(dir: &Dir, puzzle: &str, n: &str, seed: &str, out: &str, extra: &[&str]) -> Value {
    let mut args = vec!["generate", puzzle, "--set", n, "--seed", seed, "--out", out];
    args.extend_from_slice(extra);
    let run = dir.run(&args);
    run.code(0)
        .stdout_has("challenges.json")
        .stdout_has("book.pdf");
    json(&dir.path().join(out).join("challenges.json"))
}

/// Every file under `root`, relative path -> bytes.
fn tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).expect("under root");
                out.push((rel.display().to_string(), std::fs::read(&p).expect("read")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let dir = Dir::new();
    let a = make(&dir, "kanoodle-2d", "10", "5", "a", &[]);
    make(&dir, "kanoodle-2d", "10", "5", "b", &[]);
    let (ta, tb) = (tree(&dir.path().join("a")), tree(&dir.path().join("b")));
    assert_eq!(ta.len(), 10 + 3, "ten challenges, the index, two booklets");
    assert!(
        ta == tb,
        "two runs with the same inputs wrote different bytes"
    );
    assert_eq!(a["size"], 10);
    // Another seed, another set; another paper, another PDF and nothing else.
    make(&dir, "kanoodle-2d", "10", "6", "c", &[]);
    let tc = tree(&dir.path().join("c"));
    assert!(ta.iter().zip(&tc).any(|(x, y)| x.1 != y.1));
    make(&dir, "kanoodle-2d", "10", "5", "d", &["--paper", "letter"]);
    let td = tree(&dir.path().join("d"));
    for (x, y) in ta.iter().zip(&td) {
        assert_eq!(x.0, y.0);
        assert_eq!(x.1 != y.1, x.0 == "book.pdf", "{}", x.0);
    }
}

/// Checks the index of a set: `n` challenges, each file counting to exactly one completion
/// with every placement counted, levels strictly harder by the difficulty, pieces to place
/// not falling from level to level, the last level flagged minimal.
fn check_set(dir: &Dir, out: &str, n: usize, levels: usize) {
    let index = json(&dir.path().join(out).join("challenges.json"));
    let cs = index["challenges"].as_array().expect("challenges");
    assert_eq!(cs.len(), n);
    assert_eq!(index["levels"].as_array().expect("levels").len(), levels);
    for c in cs {
        let file = format!("{out}/{}", c["file"].as_str().expect("file"));
        assert_eq!(
            dir.count(&file, None, &["--up-to", "none"]),
            1,
            "{file}: exactly one completion"
        );
    }
    let mut prev_max: Option<u64> = None;
    let mut prev_left = 0;
    for (k, level) in index["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .enumerate()
    {
        let name = level["name"].as_str().expect("name");
        let mine: Vec<&Value> = cs.iter().filter(|c| c["level"] == name).collect();
        assert!(!mine.is_empty(), "{out}: level {name} is empty");
        let d: Vec<u64> = mine
            .iter()
            .map(|c| c["difficulty"].as_u64().unwrap())
            .collect();
        let min = *d.iter().min().unwrap();
        if let Some(p) = prev_max {
            assert!(
                min > p,
                "{out}: level {name} starts at {min}, the level before ends at {p}"
            );
        }
        prev_max = d.iter().max().copied();
        let left = mine
            .iter()
            .map(|c| c["pieces_to_place"].as_u64().unwrap())
            .min()
            .unwrap();
        assert!(left >= prev_left, "{out}: level {name} leaves fewer pieces");
        prev_left = left;
        let last = k + 1 == levels;
        assert!(mine.iter().all(|c| c["minimal_hints"] == last));
    }
}

#[test]
fn every_challenge_has_exactly_one_completion_on_every_grid() {
    let dir = Dir::new();
    let kanoodle_pyramid = format!(
        "{}/tests/data/spheres/kanoodle-pyramid.json",
        env!("CARGO_MANIFEST_DIR")
    );
    for (puzzle, n, out) in [
        ("kanoodle-2d", 10, "kanoodle"),
        (kanoodle_pyramid.as_str(), 5, "kanoodle-pyramid"),
        ("iq-puzzler-pro-pyramid", 5, "iq"),
        ("tetris-cube", 10, "tetris"),
        ("pentominoes-6x10", 5, "pentominoes"),
        ("polyhexes-1234-6x7", 5, "polyhexes"),
        ("hexiamonds-4x10-long-hex", 5, "hexiamonds"),
    ] {
        make(&dir, puzzle, &n.to_string(), "11", out, &[]);
        check_set(&dir, out, n, 5);
    }
    // Named levels, fewer of them.
    make(&dir, "soma", "4", "2", "soma", &["--levels", "easy,hard"]);
    check_set(&dir, "soma", 4, 2);
}

/// The hint pieces of a challenge file as (piece, sorted cells), sorted.
type Hints = BTreeSet<(String, Vec<[i64; 3]>)>;

fn hints(file: &Value) -> Hints {
    file["hints"]
        .as_array()
        .expect("hints")
        .iter()
        .map(|h| {
            let mut cells: Vec<[i64; 3]> =
                serde_json::from_value(h["cells"].clone()).expect("cells");
            cells.sort();
            (h["piece"].as_str().expect("piece").to_string(), cells)
        })
        .collect()
}

/// The rotations of a box of `size` onto itself, as cell maps (signed axis permutations of
/// determinant +1 whose image is the same box).
fn box_rotations(size: [i64; 3]) -> Vec<impl Fn([i64; 3]) -> [i64; 3]> {
    let perms = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ];
    let mut out = Vec::new();
    for (pi, p) in perms.iter().enumerate() {
        if (0..3).any(|i| size[p[i]] != size[i]) {
            continue;
        }
        for signs in 0..8 {
            let neg: Vec<bool> = (0..3).map(|i| signs >> i & 1 == 1).collect();
            let odd_perm = pi >= 3;
            let odd_signs = neg.iter().filter(|&&b| b).count() % 2 == 1;
            if odd_perm != odd_signs {
                continue;
            }
            let p = *p;
            out.push(move |c: [i64; 3]| {
                let mut r = [0; 3];
                for i in 0..3 {
                    let v = c[p[i]];
                    r[i] = if neg[i] { size[i] - 1 - v } else { v };
                }
                r
            });
        }
    }
    out
}

#[test]
fn no_two_challenges_are_alike_up_to_rotation() {
    let dir = Dir::new();
    for (puzzle, size, n) in [
        ("tetris-cube", [4, 4, 4], "20"),
        ("kanoodle-2d", [11, 5, 1], "20"),
    ] {
        let index = make(&dir, puzzle, n, "3", puzzle, &[]);
        let rotations = box_rotations(size);
        assert_eq!(rotations.len(), if size[0] == size[1] { 24 } else { 4 });
        let sets: Vec<Hints> = index["challenges"]
            .as_array()
            .expect("challenges")
            .iter()
            .map(|c| {
                hints(&json(
                    &dir.path().join(puzzle).join(c["file"].as_str().unwrap()),
                ))
            })
            .collect();
        for (i, a) in sets.iter().enumerate() {
            for (j, b) in sets.iter().enumerate().skip(i + 1) {
                for g in &rotations {
                    let image: Hints = a
                        .iter()
                        .map(|(p, cells)| {
                            let mut c: Vec<[i64; 3]> = cells.iter().map(|&c| g(c)).collect();
                            c.sort();
                            (p.clone(), c)
                        })
                        .collect();
                    assert!(
                        image != *b,
                        "{puzzle}: challenges {} and {} are alike",
                        i + 1,
                        j + 1
                    );
                }
            }
        }
    }
}

#[test]
fn the_last_levels_hints_are_minimal() {
    let dir = Dir::new();
    for puzzle in ["kanoodle-2d", "tetris-cube"] {
        let index = make(&dir, puzzle, "10", "8", puzzle, &[]);
        let wizard: Vec<&Value> = index["challenges"]
            .as_array()
            .expect("challenges")
            .iter()
            .filter(|c| c["level"] == "wizard")
            .collect();
        assert_eq!(wizard.len(), 2);
        for c in wizard {
            let path = dir.path().join(puzzle).join(c["file"].as_str().unwrap());
            let file = json(&path);
            let n = file["hints"].as_array().expect("hints").len();
            assert_eq!(n as u64, c["hints"].as_u64().unwrap());
            for drop in 0..n {
                let mut fewer = file.clone();
                fewer["hints"].as_array_mut().unwrap().remove(drop);
                let name = format!("{puzzle}-fewer-{}-{drop}.json", c["number"]);
                dir.write(&name, &fewer.to_string());
                let count = dir.count(&name, None, &["--up-to", "none"]);
                assert!(
                    count > 1,
                    "{puzzle} {}: without hint {drop}: {count}",
                    c["file"]
                );
            }
        }
    }
}

#[test]
fn bad_arguments_get_one_line() {
    let dir = Dir::new();
    for (args, says) in [
        (
            vec!["--set", "0", "--out", "x"],
            "--set 0: a set has 1 to 1000",
        ),
        (
            vec!["--set", "1001", "--out", "x"],
            "--set 1001: a set has 1 to 1000",
        ),
        (vec!["--set", "3", "--out", "x"], "cannot fill 5 levels"),
        (vec!["--set", "-2", "--out", "x"], "'-2'"),
        (vec!["--set", "5"], "--out"),
        (
            vec!["--set", "5", "--hints", "3", "--out", "x"],
            "cannot be used with",
        ),
        (
            vec!["--set", "5", "--unique", "--out", "x"],
            "cannot be used with",
        ),
        (
            vec!["--set", "5", "--levels", "a,,b", "--out", "x"],
            "--levels: level 2 has no name",
        ),
        (
            vec!["--set", "5", "--levels", "a,a", "--out", "x"],
            "--levels: level 'a' is named twice",
        ),
        (
            vec!["--set", "5", "--levels", "a b", "--out", "x"],
            "--levels: level name 'a b'",
        ),
        (
            vec![
                "--set",
                "50",
                "--levels",
                "1,2,3,4,5,6,7,8,9,10,11",
                "--out",
                "x",
            ],
            "--levels: 11 levels named",
        ),
        (vec!["--levels", "a,b", "--hints", "2"], "--set"),
        (vec!["--set", "5", "--paper", "a5", "--out", "x"], "a5"),
        (
            vec!["--set", "5", "--out", "file.txt"],
            "file.txt: not a folder",
        ),
    ] {
        dir.write("file.txt", "not a folder");
        let mut full = vec!["generate", "kanoodle-2d"];
        full.extend_from_slice(&args);
        let run = dir.run(&full);
        run.code(2).stderr_has(says);
        run.check(
            run.stderr.trim_end().lines().count() == 1,
            "one line on stderr",
        );
        run.check(!dir.path().join("x").exists(), "nothing written");
    }
    // A puzzle too small for the set asked: refused naming the level, nothing written.
    let run = dir.run(&[
        "generate",
        "perplexing-pyramid",
        "--set",
        "10",
        "--out",
        "x",
    ]);
    run.code(2).stderr_has("--set 10: level '");
    run.check(!dir.path().join("x").exists(), "nothing written");
}

#[test]
fn the_html_booklet_has_every_challenge_and_solution() {
    let dir = Dir::new();
    make(&dir, "iq-puzzler-pro-pyramid", "5", "1", "s", &[]);
    let html = std::fs::read_to_string(dir.path().join("s/book.html")).expect("book.html");
    for n in 1..=5 {
        assert!(html.contains(&format!("id=\"c{n}\"")), "challenge {n}");
        assert!(html.contains(&format!("id=\"s{n}\"")), "solution {n}");
    }
    assert_eq!(html.matches("<svg").count(), 10);
}

/// `pdfinfo FILE` as (pages, page size line).
fn pdfinfo(path: &Path) -> (usize, String) {
    let out = std::process::Command::new("pdfinfo")
        .arg(path)
        .output()
        .expect("pdfinfo (poppler-utils) is installed");
    assert!(
        out.status.success(),
        "pdfinfo: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .map(|l| l[name.len()..].trim().to_string())
            .unwrap_or_default()
    };
    (field("Pages:").parse().expect("pages"), field("Page size:"))
}

#[test]
#[ignore = "needs pdftoppm and pdfinfo (poppler-utils); CI runs it with --include-ignored"]
fn the_pdf_booklet_renders() {
    let dir = Dir::new();
    make(&dir, "tetris-cube", "10", "1", "a4", &[]);
    make(
        &dir,
        "kanoodle-2d",
        "10",
        "1",
        "letter",
        &["--paper", "letter"],
    );
    // A cover, two challenges a page with each level from a new page (five levels of two),
    // six solutions a page.
    let (pages, size) = pdfinfo(&dir.path().join("a4/book.pdf"));
    assert_eq!(pages, 1 + 5 + 2);
    assert!(size.contains("(A4)"), "{size}");
    let (pages, size) = pdfinfo(&dir.path().join("letter/book.pdf"));
    assert_eq!(pages, 8);
    assert!(size.contains("612 x 792"), "{size}");
    for set in ["a4", "letter"] {
        let out = std::process::Command::new("pdftoppm")
            .args(["-r", "30", "-png"])
            .arg(dir.path().join(set).join("book.pdf"))
            .arg(dir.path().join(set).join("page"))
            .output()
            .expect("pdftoppm (poppler-utils) is installed");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "pdftoppm: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pngs: Vec<_> = std::fs::read_dir(dir.path().join(set))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".png"))
            .collect();
        assert_eq!(pngs.len(), 8, "{set}: every page rendered");
        // A challenge page is drawn on: its PNG is far from a blank page's size.
        let blank_ish = pngs
            .iter()
            .filter(|e| std::fs::metadata(e.path()).unwrap().len() < 2_000)
            .count();
        assert_eq!(blank_ish, 0, "{set}: a page rendered blank");
    }
}
