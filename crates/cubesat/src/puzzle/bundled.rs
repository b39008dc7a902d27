//! The bundled puzzle library and the catalog (`puzzles/catalog`), embedded in the binary so puzzles can be named instead of given as paths (`cubesat solve soma`).

use std::ffi::OsStr;
use std::path::Path;

use crate::error::{Context, Result, bail};

use crate::puzzle::burrtools::BurrFile;
use crate::puzzle::json::parse_puzzle;
use crate::puzzle::{MAX_FILE_BYTES, Puzzle, burrtools};

/// The bundled puzzles: (name, file contents), in the order `cubesat list` shows them.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "tetris-cube",
        include_str!("../../puzzles/tetris-cube.json"),
    ),
    ("soma", include_str!("../../puzzles/soma.json")),
    (
        "wooden-cube",
        include_str!("../../puzzles/wooden-cube.json"),
    ),
    (
        "tetracubes-2x4x4",
        include_str!("../../puzzles/tetracubes-2x4x4.json"),
    ),
    (
        "tetracubes-2x2x8",
        include_str!("../../puzzles/tetracubes-2x2x8.json"),
    ),
    (
        "tetracubes-two-2x2x4",
        include_str!("../../puzzles/tetracubes-two-2x2x4.json"),
    ),
    (
        "pentominoes-6x10",
        include_str!("../../puzzles/pentominoes-6x10.json"),
    ),
    (
        "pentominoes-3x20",
        include_str!("../../puzzles/pentominoes-3x20.json"),
    ),
    (
        "pentominoes-8x8-square",
        include_str!("../../puzzles/pentominoes-8x8-square.json"),
    ),
    (
        "solid-pentominoes-3x4x5",
        include_str!("../../puzzles/solid-pentominoes-3x4x5.json"),
    ),
    ("bedlam", include_str!("../../puzzles/bedlam.json")),
    (
        "kanoodle-2d",
        include_str!("../../puzzles/kanoodle-2d.json"),
    ),
    (
        "iq-puzzler-pro-2d",
        include_str!("../../puzzles/iq-puzzler-pro-2d.json"),
    ),
    (
        "iq-puzzler-pro-pyramid",
        include_str!("../../puzzles/iq-puzzler-pro-pyramid.json"),
    ),
    (
        "perplexing-pyramid",
        include_str!("../../puzzles/perplexing-pyramid.json"),
    ),
    (
        "ball-room-pyramid",
        include_str!("../../puzzles/ball-room-pyramid.json"),
    ),
    (
        "ball-room-tetrahedron",
        include_str!("../../puzzles/ball-room-tetrahedron.json"),
    ),
    (
        "ball-room-cube",
        include_str!("../../puzzles/ball-room-cube.json"),
    ),
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
            // Suggest names that contain what was typed; a front end says where the whole
            // list is.
            let near = named()
                .map(|(n, _)| n.to_string())
                .filter(|n| !key.is_empty() && n.contains(key))
                .take(5)
                .collect();
            Err(crate::Error::UnknownPuzzle {
                name: name.to_string(),
                near,
            })
        }
    }
}

/// A puzzle file as read, once: a cubesat JSON puzzle, or a BurrTools file with all its
/// problems.
#[derive(Clone, Debug)]
pub enum PuzzleFile {
    /// A cubesat JSON puzzle (a file or a bundled one), with the name shown in messages.
    Json(Box<Puzzle>, String),
    /// A BurrTools file.
    BurrTools(BurrFile),
}

impl PuzzleFile {
    /// Opens and reads a puzzle file once, at most [`MAX_FILE_BYTES`] (a regular file, a
    /// FIFO, `/dev/fd/N` from a process substitution).
    pub fn read(path: &Path) -> Result<PuzzleFile> {
        let bytes = crate::input::read_file(path, MAX_FILE_BYTES)?;
        PuzzleFile::parse(&bytes, path)
    }

    /// A puzzle file's bytes: BurrTools by `name`'s extension (`.xmpuzzle`, `.xml`) or by the
    /// content (gzip magic, XML), else cubesat JSON. `name` names the input in messages, and
    /// its stem names a JSON puzzle without a `name`.
    pub fn parse(bytes: &[u8], name: &Path) -> Result<PuzzleFile> {
        let shown = name.display().to_string();
        if bytes.len() as u64 > MAX_FILE_BYTES {
            bail!(
                "{shown}: {} bytes, more than the {MAX_FILE_BYTES} bytes cubesat reads",
                bytes.len()
            );
        }
        if burrtools::looks_like_burrtools(name, bytes) {
            return Ok(PuzzleFile::BurrTools(burrtools::parse(bytes, &shown)?));
        }
        let stem = name
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = crate::input::text(bytes).map_err(|e| e.in_file(&shown))?;
        let puzzle = parse_puzzle(text, &stem).map_err(|e| e.in_file(&shown))?;
        Ok(PuzzleFile::Json(Box::new(puzzle), shown))
    }

    /// The BurrTools file, for a BurrTools input.
    pub fn burrtools(&self) -> Option<&BurrFile> {
        match self {
            PuzzleFile::BurrTools(f) => Some(f),
            PuzzleFile::Json(..) => None,
        }
    }

    /// The puzzle: a JSON file's, or the BurrTools problem `problem` selects (by index from
    /// 0 or by name; the first when `None`). A selector for a JSON puzzle is an error.
    pub fn puzzle(self, problem: Option<&str>) -> Result<Puzzle> {
        match self {
            PuzzleFile::BurrTools(file) => {
                let index = file.select(problem)?;
                file.puzzle(index)
            }
            PuzzleFile::Json(_, shown) if problem.is_some() => {
                bail!(
                    "{shown}: a problem is selected only in a BurrTools file (.xmpuzzle); this is a cubesat JSON puzzle"
                )
            }
            PuzzleFile::Json(puzzle, _) => Ok(*puzzle),
        }
    }
}

/// Resolves what the user typed: an existing file path, else a bundled name, else the
/// default puzzle when nothing was given. A path need not be UTF-8.
pub fn open(arg: Option<&OsStr>) -> Result<PuzzleFile> {
    let Some(a) = arg else {
        return Ok(PuzzleFile::Json(
            Box::new(bundled(DEFAULT_PUZZLE)?),
            DEFAULT_PUZZLE.to_string(),
        ));
    };
    let path = Path::new(a);
    if path.exists() {
        return PuzzleFile::read(path);
    }
    match a.to_str() {
        Some(name) if !name.contains('/') && !name.contains('\\') => {
            Ok(PuzzleFile::Json(Box::new(bundled(name)?), name.to_string()))
        }
        _ => bail!("{}: no such file", crate::echo::path(path)),
    }
}

/// Resolves what the user typed (see [`open`]) and returns its puzzle.
pub fn load(arg: Option<&OsStr>) -> Result<Puzzle> {
    load_with(arg, None)
}

/// Like [`load`], with a BurrTools problem selector (`--problem N|NAME`; the first problem
/// when `None`). A selector for a puzzle that has one problem only is an error.
pub fn load_with(arg: Option<&OsStr>, problem: Option<&str>) -> Result<Puzzle> {
    open(arg)?.puzzle(problem)
}

/// Reads a puzzle file: BurrTools (by extension or content: gzip magic, XML) or cubesat JSON.
pub fn read_path(path: &Path, problem: Option<&str>) -> Result<Puzzle> {
    PuzzleFile::read(path)?.puzzle(problem)
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

    /// Pieces are grouped as the same shape exactly when their canonical forms agree: the
    /// cheap invariant that spares most canonical forms never splits a group (on every bundled
    /// puzzle, and on the Tetris Cube's pieces joined by turned and mirrored copies, with and
    /// without mirroring), and no transform of the grid changes it.
    #[test]
    fn same_shapes_agree_with_canonical_forms() {
        let tetris = bundled("tetris-cube").unwrap();
        let mut pieces = tetris.pieces.clone();
        for (k, piece) in tetris.pieces.iter().enumerate() {
            let t = &crate::geometry::Grid::Cube.transforms()[(7 * k + 5) % 48];
            let mut copy = piece.clone();
            copy.name = format!("{}'", piece.name);
            copy.shape = piece.shape.transformed(t).unwrap();
            pieces.push(copy);
        }
        // The first piece again in another colour: the same shape, not the same piece.
        let mut recoloured = tetris.pieces[0].clone();
        recoloured.name = "recoloured".into();
        recoloured.colours = vec![1; recoloured.shape.len()];
        pieces.push(recoloured);
        let recoloured = pieces.len() - 1;
        let mixed = Puzzle::new("mixed".into(), tetris.grid, pieces, tetris.target.clone());
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/burrtools");
        let mut puzzles: Vec<Puzzle> = BUNDLED
            .iter()
            .map(|(name, _)| bundled(name).unwrap())
            .collect();
        for sub in ["reference", "own", "spheres"] {
            for entry in std::fs::read_dir(format!("{dir}/{sub}")).unwrap() {
                if let Ok(p) = crate::puzzle::read_path(&entry.unwrap().path(), None) {
                    puzzles.push(p);
                }
            }
        }
        puzzles.push(mixed);
        let mut grouped = 0;
        for mut p in puzzles {
            for mirror in [false, true] {
                p.mirror = mirror;
                let keys: Vec<_> = p
                    .pieces
                    .iter()
                    .map(|piece| {
                        let c = piece.coloured_canonical();
                        if mirror {
                            c.min(piece.mirrored_canonical())
                        } else {
                            c
                        }
                    })
                    .collect();
                let mut expected: Vec<Vec<usize>> = Vec::new();
                for i in 0..keys.len() {
                    if !expected.iter().any(|g| g.contains(&i)) {
                        let g: Vec<usize> =
                            (i..keys.len()).filter(|&j| keys[j] == keys[i]).collect();
                        if g.len() > 1 {
                            expected.push(g);
                        }
                    }
                }
                grouped += expected.len();
                let groups = p.same_shapes();
                assert_eq!(groups, expected, "{}, mirror {mirror}", p.name);
                if p.name == "mixed" {
                    assert!(groups.iter().all(|g| !g.contains(&recoloured)));
                }
            }
            for piece in &p.pieces {
                let k = crate::puzzle::layer_counts(&piece.shape);
                for t in p.grid.transforms() {
                    if let Some(image) = piece.shape.transformed(t) {
                        assert_eq!(crate::puzzle::layer_counts(&image), k, "{}", p.name);
                    }
                }
            }
        }
        assert!(
            grouped >= 12,
            "the turned and mirrored copies form groups: {grouped}"
        );
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
