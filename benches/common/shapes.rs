//! Puzzles the benches build rather than load: a box filled with copies of one piece.

pub const Y_PENTACUBE: &str = "[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [1, 1, 0]";
pub const N_PENTACUBE: &str = "[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [3, 1, 0]";
pub const BRICK: &str =
    "[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]";

/// A box of size `dims` (x, y, z) filled with copies of one piece (`pieces` names them in
/// the plural), its cells in JSON.
pub fn one_kind(
    name: &str,
    pieces: &str,
    dims: [usize; 3],
    cells: &str,
) -> anyhow::Result<cubesat::puzzle::Puzzle> {
    let copies = dims.iter().product::<usize>() / cells.matches('[').count();
    let mut sides = dims;
    sides.sort_unstable();
    let [x, y, z] = dims;
    let json = format!(
        r#"{{"name": "{copies} {pieces} in {}x{}x{}", "target": {{"box": [{x}, {y}, {z}]}}, "pieces": [{{"name": "A", "count": {copies}, "cells": [{cells}]}}]}}"#,
        sides[0], sides[1], sides[2],
    );
    Ok(cubesat::puzzle::json::parse_puzzle(&json, name)?)
}
