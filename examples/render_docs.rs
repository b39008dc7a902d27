//! Writes the pictures in `docs/` from the sample scenes: `cargo run --example render_docs --
//! docs` refreshes the committed ones (the test `docs_picture_is_current` checks
//! docs/tetris-cube.svg), any other folder gets every sample picture.

use cubesat::render::{html, samples, svg};
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "docs".into()));
    std::fs::create_dir_all(&dir)?;
    let cube = samples::tetris_cube();
    std::fs::write(dir.join("tetris-cube.svg"), svg(&cube, false))?;
    std::fs::write(dir.join("tetris-cube-exploded.svg"), svg(&cube, true))?;
    std::fs::write(dir.join("two-boxes.svg"), svg(&samples::two_boxes(), false))?;
    std::fs::write(dir.join("hints.svg"), svg(&samples::hints_only(), false))?;
    std::fs::write(
        dir.join("pento.svg"),
        svg(&samples::pentominoes_10x6(), true),
    )?;
    // docs/tetris-cube.png is a screenshot of this page (chromium --headless
    // --screenshot=docs/tetris-cube.png --window-size=800,600 PAGE).
    std::fs::write(
        dir.join("tetris-cube-single.html"),
        html(std::slice::from_ref(&cube)),
    )?;
    std::fs::write(
        dir.join("tetris-cube.html"),
        html(&[cube, samples::two_boxes(), samples::hints_only()]),
    )?;
    // Balls: docs/square-pyramid.png is a screenshot of square-pyramid.html, taken as the
    // cube's is (chromium --headless --use-gl=angle --use-angle=swiftshader
    // --enable-unsafe-swiftshader --window-size=800,600
    // --screenshot=docs/square-pyramid.png file://PAGE), in the page's first view.
    let pyramid = samples::square_pyramid();
    std::fs::write(dir.join("square-pyramid.svg"), svg(&pyramid, false))?;
    std::fs::write(
        dir.join("square-pyramid.html"),
        html(std::slice::from_ref(&pyramid)),
    )?;
    eprintln!("wrote the sample pictures to {}", dir.display());
    Ok(())
}
