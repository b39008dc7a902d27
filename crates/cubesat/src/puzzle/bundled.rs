//! The bundled puzzle library and the catalog (`puzzles/catalog`), embedded in the binary so puzzles can be named instead of given as paths (`cubesat solve soma`).

use std::path::Path;

use crate::error::{Context, Result, bail};

use crate::puzzle::json::{parse_puzzle, read_puzzle_file};
use crate::puzzle::{Puzzle, burrtools};

/// The bundled puzzles: (name, file contents), in the order `cubesat list` shows them.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "tetris-cube",
        include_str!("../../../../puzzles/tetris-cube.json"),
    ),
    ("soma", include_str!("../../../../puzzles/soma.json")),
    (
        "wooden-cube",
        include_str!("../../../../puzzles/wooden-cube.json"),
    ),
    (
        "tetracubes-2x4x4",
        include_str!("../../../../puzzles/tetracubes-2x4x4.json"),
    ),
    (
        "tetracubes-2x2x8",
        include_str!("../../../../puzzles/tetracubes-2x2x8.json"),
    ),
    (
        "tetracubes-two-2x2x4",
        include_str!("../../../../puzzles/tetracubes-two-2x2x4.json"),
    ),
    (
        "pentominoes-6x10",
        include_str!("../../../../puzzles/pentominoes-6x10.json"),
    ),
    (
        "pentominoes-3x20",
        include_str!("../../../../puzzles/pentominoes-3x20.json"),
    ),
    (
        "pentominoes-8x8-square",
        include_str!("../../../../puzzles/pentominoes-8x8-square.json"),
    ),
    (
        "solid-pentominoes-3x4x5",
        include_str!("../../../../puzzles/solid-pentominoes-3x4x5.json"),
    ),
    ("bedlam", include_str!("../../../../puzzles/bedlam.json")),
];

// `CATALOG`: every file of `puzzles/catalog`, listed by the build script.
include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// Every named puzzle: (name, file contents), the bundled ones first, then the catalog's by
/// family folder and name.
pub fn named() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUNDLED
        .iter()
        .copied()
        .chain(CATALOG.iter().map(|&(_, name, text)| (name, text)))
}

/// The puzzle used when none is named.
pub const DEFAULT_PUZZLE: &str = "tetris-cube";

/// Loads a bundled puzzle by name.
pub fn bundled(name: &str) -> Result<Puzzle> {
    let key = name.strip_suffix(".json").unwrap_or(name);
    match named().find(|(n, _)| *n == key) {
        Some((n, text)) => parse_puzzle(text, n).with_context(|| format!("bundled puzzle {n}")),
        None => {
            // Suggest names that contain what was typed; the whole list is `cubesat list`.
            let near: Vec<&str> = named()
                .map(|(n, _)| n)
                .filter(|n| !key.is_empty() && n.contains(key))
                .take(5)
                .collect();
            if near.is_empty() {
                bail!("'{name}' is neither a file nor a bundled puzzle (`cubesat list` shows them)")
            }
            bail!(
                "'{name}' is neither a file nor a bundled puzzle (did you mean {}? `cubesat list` shows them all)",
                near.join(", ")
            )
        }
    }
}

/// Resolves what the user typed: an existing file path, else a bundled name, else the
/// default puzzle when nothing was given.
pub fn load(arg: Option<&str>) -> Result<Puzzle> {
    load_with(arg, None)
}

/// Like [`load`], with a BurrTools problem selector (`--problem N|NAME`; the first problem
/// when `None`). A selector for a puzzle that has one problem only is an error.
pub fn load_with(arg: Option<&str>, problem: Option<&str>) -> Result<Puzzle> {
    match arg {
        Some(a) if Path::new(a).exists() => read_path(Path::new(a), problem),
        _ if problem.is_some() => {
            bail!("--problem selects a problem of a BurrTools file (.xmpuzzle)")
        }
        None => bundled(DEFAULT_PUZZLE),
        Some(a) if a.contains('/') || a.contains('\\') => bail!("{a}: no such file"),
        Some(a) => bundled(a),
    }
}

/// Reads a puzzle file: BurrTools (by extension or content: gzip magic, XML) or cubesat JSON.
pub fn read_path(path: &Path, problem: Option<&str>) -> Result<Puzzle> {
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    if burrtools::looks_like_burrtools(path, &head[..n]) {
        let file = burrtools::read_file(path)?;
        let index = file.select(problem)?;
        return file.puzzle(index);
    }
    if problem.is_some() {
        bail!(
            "{}: --problem selects a problem of a BurrTools file (.xmpuzzle)",
            path.display()
        );
    }
    read_puzzle_file(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_puzzle_parses_and_matches_its_file_name() {
        for (name, _) in BUNDLED {
            let p = bundled(name).unwrap();
            assert!(!p.pieces.is_empty(), "{name}");
        }
        assert!(bundled("nope").is_err());
        assert_eq!(load(None).unwrap().name, "Tetris Cube");
    }

    #[test]
    fn catalog_names_are_unique_and_files_sit_in_their_family_folder() {
        let mut seen = std::collections::HashSet::new();
        for (name, _) in named() {
            assert!(seen.insert(name), "{name} is named twice");
        }
        for (folder, name, _) in CATALOG {
            let p = bundled(name).unwrap();
            let c = p
                .catalog
                .unwrap_or_else(|| panic!("{name} has no catalog record"));
            assert_eq!(c.family, *folder, "{name}");
        }
        let e = bundled("pentominoes-6x1").unwrap_err().report();
        assert!(e.contains("did you mean pentominoes-6x10"), "{e}");
    }
}
