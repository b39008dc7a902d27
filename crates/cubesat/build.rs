//! Lists the catalog's puzzle files (`puzzles/catalog/FAMILY/NAME.json`, inside this crate so that its
//! package carries them) for `include_str!`, so that every file in the catalog is built into the library without a hand-kept list.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // The folder of the crate being built, read when the script runs: a script binary built
    // for one checkout and run for another (a shared target directory) reads its own.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("puzzles/catalog");
    // A directory is watched as a whole: adding, removing or editing a file rebuilds.
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files: Vec<(String, String, PathBuf)> = Vec::new();
    // A missing folder is an error, not an empty catalog (a package that left it out).
    let families = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: the catalog folder: {e}", root.display()));
    for family in families.flatten() {
        let fpath = family.path();
        if !fpath.is_dir() {
            continue;
        }
        let fname = family.file_name().to_string_lossy().into_owned();
        for entry in std::fs::read_dir(&fpath)
            .expect("read a catalog family folder")
            .flatten()
        {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let stem = path
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            // Names are typed on command lines and listed in 100 columns.
            assert!(
                !stem.is_empty()
                    && stem.len() <= 40
                    && stem
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}: a catalog file name is 1 to 40 characters of a-z, 0-9 and '-'",
                path.display()
            );
            let path = path
                .canonicalize()
                .expect("canonical path of a catalog file");
            files.push((fname.clone(), stem, path));
        }
    }
    files.sort();
    let mut out = String::from(
        "/// The catalog's puzzles: (family folder, name, file contents), by family and name.\n\
         pub const CATALOG: &[(&str, &str, &str)] = &[\n",
    );
    for (family, name, path) in &files {
        writeln!(
            out,
            "    ({family:?}, {name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("write to a string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalog.rs");
    std::fs::write(dest, out).expect("write the catalog list");
}
