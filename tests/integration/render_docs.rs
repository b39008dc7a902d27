//! Regenerates the pictures in `docs/` from the sample scenes. Ignored by default; run with
//! `cargo test --test render_docs -- --ignored` (set `RENDER_OUT=dir` to write elsewhere).

use cubesat::render::{html, samples, svg};
use std::path::PathBuf;

#[test]
#[ignore = "writes files; run explicitly to refresh docs/"]
fn write_docs() {
    let dir = std::env::var_os("RENDER_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs"));
    std::fs::create_dir_all(&dir).unwrap();
    let cube = samples::tetris_cube();
    std::fs::write(dir.join("tetris-cube.svg"), svg(&cube, false)).unwrap();
    if std::env::var_os("RENDER_OUT").is_some() {
        std::fs::write(dir.join("tetris-cube-exploded.svg"), svg(&cube, true)).unwrap();
        std::fs::write(dir.join("two-boxes.svg"), svg(&samples::two_boxes(), false)).unwrap();
        std::fs::write(dir.join("hints.svg"), svg(&samples::hints_only(), false)).unwrap();
        std::fs::write(
            dir.join("pento.svg"),
            svg(&samples::pentominoes_10x6(), true),
        )
        .unwrap();
        std::fs::write(
            dir.join("tetris-cube.html"),
            html(&[cube, samples::two_boxes(), samples::hints_only()]),
        )
        .unwrap();
    }
}

/// Writes the single-scene Tetris Cube page that `docs/tetris-cube.png` is a screenshot of
/// (chromium --headless --screenshot=docs/tetris-cube.png --window-size=800,600 <page>).
#[test]
#[ignore = "writes files; run explicitly to refresh docs/"]
fn write_screenshot_page() {
    let dir = std::env::var_os("RENDER_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tetris-cube-single.html");
    std::fs::write(&path, html(&[samples::tetris_cube()])).unwrap();
    eprintln!("wrote {}", path.display());
}
