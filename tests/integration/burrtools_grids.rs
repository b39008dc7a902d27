//! BurrTools files of grids 1, 3 and 4 (triangular prisms, the rhombic grid's tetrahedra, tetrahedra and octahedra) count to burrTxt's numbers in every mode and engine, and convert to cubesat JSON and back with the same counts.

use crate::common::*;

fn data(path: &str) -> String {
    format!("{}/tests/data/burrtools/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// BurrTools 0.7.1's counts of one grid's files, as `burrtools_counts.py` wrote them into
/// `tests/data/burrtools/FOLDER/counts.txt` (lines `file problem default c cm cr cmr`; `#`
/// lines say how): `burrTxt -q` (the default), `burrTxt2 -c`, `-c -m` (mirror solutions
/// kept), `-c -r`, `-c -m -r`. What each means, and how cubesat's modes meet it, is said
/// above `SPHERES` in `spheres.rs`: the default is `--up-to burrtools`, `-c -m` is
/// `--up-to rotation`, and `-c -m -r` lies between that and the count of every placement.
fn burrtools_counts(folder: &str) -> Vec<(String, u32, [u64; 5])> {
    let text = std::fs::read_to_string(data(&format!("{folder}/counts.txt"))).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 7, "counts.txt: {line}");
        let n: Vec<u64> = f[2..]
            .iter()
            .map(|v| v.parse().unwrap_or_else(|_| panic!("counts.txt: {line}")))
            .collect();
        out.push((
            format!("{folder}/{}", f[0]),
            f[1].parse().unwrap(),
            [n[0], n[1], n[2], n[3], n[4]],
        ));
    }
    assert!(out.len() >= 30, "{folder}: {} problems", out.len());
    let files: std::collections::HashSet<&str> = out.iter().map(|a| a.0.as_str()).collect();
    assert!(files.len() >= 10, "{folder}: {} files", files.len());
    out
}

fn counts_to_burrtools_numbers(folder: &str) {
    let dir = Dir::new();
    for (f, p, [default, c, keep_mirror, _, keep_both]) in burrtools_counts(folder) {
        let file = data(&f);
        let at = format!("{f} problem {p}");
        assert_eq!(c, default, "{at}: burrTxt2 -c is the default count");
        assert_eq!(dir.count(&file, Some(p), &[]), default, "{at}: default");
        assert_eq!(
            dir.count(&file, Some(p), &["--up-to", "rotation"]),
            keep_mirror,
            "{at}: rotation = burrTxt2 -c -m"
        );
        let mut raw = None;
        for engine in ["exact", "dlx", "sat"] {
            let n = dir.count(&file, Some(p), &["--up-to", "none", "--engine", engine]);
            assert_eq!(*raw.get_or_insert(n), n, "{at}: none, {engine}");
        }
        let raw = raw.unwrap();
        assert!(keep_mirror <= keep_both && keep_both <= raw, "{at}: {raw}");
    }
}

fn converts_to_json_and_back(folder: &str, grid: &str) {
    let dir = Dir::new();
    for (f, p, [default, _, keep_mirror, _, _]) in burrtools_counts(folder) {
        let file = data(&f);
        let at = format!("{f} problem {p}");
        let raw = dir.count(&file, Some(p), &["--up-to", "none"]);
        dir.run(&[
            "convert",
            "-q",
            &file,
            "c.json",
            "--problem",
            &p.to_string(),
        ])
        .code(0);
        let json = std::fs::read_to_string(dir.path().join("c.json")).unwrap();
        assert!(
            json.contains(&format!("\"grid\": \"{grid}\"")),
            "{at}: {json}"
        );
        dir.run(&["convert", "-q", "c.json", "c.xmpuzzle"]).code(0);
        for f in ["c.json", "c.xmpuzzle"] {
            assert_eq!(dir.count(f, None, &[]), default, "{at}: {f}");
            assert_eq!(
                dir.count(f, None, &["--up-to", "rotation"]),
                keep_mirror,
                "{at}: {f}"
            );
            assert_eq!(dir.count(f, None, &["--up-to", "none"]), raw, "{at}: {f}");
        }
    }
}

#[test]
fn grid_1_files_count_to_burrtools_numbers_in_every_mode_and_engine() {
    counts_to_burrtools_numbers("prisms");
}

#[test]
fn grid_1_files_convert_to_json_and_back_with_the_same_counts() {
    converts_to_json_and_back("prisms", "prisms");
}

#[test]
fn grid_3_files_count_to_burrtools_numbers_in_every_mode_and_engine() {
    counts_to_burrtools_numbers("rhombic");
}

#[test]
fn grid_3_files_convert_to_json_and_back_with_the_same_counts() {
    converts_to_json_and_back("rhombic", "rhombic");
}

#[test]
fn grid_4_files_count_to_burrtools_numbers_in_every_mode_and_engine() {
    counts_to_burrtools_numbers("tetraocta");
}

#[test]
fn grid_4_files_convert_to_json_and_back_with_the_same_counts() {
    converts_to_json_and_back("tetraocta", "tetra-octa");
}
