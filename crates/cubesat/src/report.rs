//! Solution output shared by the subcommands: the JSON Lines schema, the statistics line on
//! stderr, and numbers and durations worded for people ([`sig`], [`human_seconds`]).
//!
//! JSON Lines schema (`solve --format json`): one object per solution,
//! `{"type":"solution","index":1,"pieces":[{"piece":"L","letter":"L","copy":1,"hint":false,"container":0,"cells":[[x,y,z],...]}, ...]}`
//! with cells in their container's local coordinates (`copy` numbers the copies of one piece
//! from 1, in the order listed, as the text view's `b1`..`b6` do), then one summary object,
//! `{"type":"summary","puzzle":{...puzzle file...},"solutions":N,"up_to":"rotation","complete":true,...}`.
//! The summary carries the whole puzzle, so `cubesat render` needs nothing else.

use serde_json::{Value, json};

use crate::geometry::{Frame, add};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::puzzle::json::to_value;
use crate::run::RunReport;
use crate::solution::Solution;

pub use crate::echo::{human_seconds, plural, plural_word, sig};

/// One solution as a JSON object (`index` counts from 1).
pub fn solution_json(
    puzzle: &Puzzle,
    table: &PlacementTable,
    solution: &Solution,
    index: u64,
) -> Value {
    let mut copies = vec![0u32; puzzle.pieces.len()];
    let pieces: Vec<Value> = solution
        .placements
        .iter()
        .map(|&o| {
            let p = &table.placements()[o as usize];
            let piece = &puzzle.pieces[p.piece as usize];
            copies[p.piece as usize] += 1;
            let mut container = 0;
            let cells: Vec<[i32; 3]> = p
                .cells
                .iter()
                .map(|&c| {
                    let (ci, local) = puzzle.target.user_local(c);
                    container = ci;
                    local
                })
                .collect();
            json!({
                "piece": piece.name,
                "letter": piece.letter.to_string(),
                "copy": copies[p.piece as usize],
                "hint": table.hints().binary_search(&o).is_ok(),
                "container": container,
                "cells": cells,
            })
        })
        .collect();
    json!({ "type": "solution", "index": index, "pieces": pieces })
}

/// The summary object closing a JSON Lines listing.
pub fn summary_json(puzzle: &Puzzle, report: &RunReport, up_to: &str, counted: bool) -> Value {
    json!({
        "type": "summary",
        "puzzle": to_value(puzzle),
        "solutions": report.count,
        "counted": counted,
        "up_to": up_to,
        "meaning": report.description,
        "complete": !report.limited && !report.interrupted,
        "interrupted": report.interrupted,
        "engine": report.engine,
        "nodes": report.nodes,
        "seconds": report.elapsed.as_secs_f64(),
    })
}

/// The first words of a count's line: `480 solutions up to rotation`, and for BurrTools'
/// count what its number identifies; front ends add how the run ended.
pub fn count_line(report: &RunReport, up_to: crate::UpTo) -> String {
    let mut line = format!("{} {}", plural(report.count, "solution"), up_to.phrase());
    if up_to == crate::UpTo::BurrTools {
        line.push_str(&format!(" ({})", report.description));
    }
    line
}

/// The statistics line for stderr.
pub fn stats_line(puzzle: &Puzzle, table: &PlacementTable, report: &RunReport) -> String {
    let mut s = format!(
        "{}: {}, {}; engine {}; {} ({}); {:.3} s",
        crate::echo::echo(&puzzle.name),
        plural(puzzle.pieces.len() as u64, "piece"),
        plural(table.len() as u64, "placement"),
        report.engine,
        plural(report.count, "solution"),
        report.description,
        report.elapsed.as_secs_f64()
    );
    if let Some(n) = report.nodes {
        s.push_str(&format!(", {}", plural(n, "node")));
    }
    if report.raw != report.count {
        s.push_str(&format!(", {} found before symmetry filtering", report.raw));
    }
    if report.limited {
        s.push_str("; stopped at the limit");
    }
    if report.interrupted {
        s.push_str("; interrupted");
    }
    s
}

/// The scene a renderer draws for one solution: every placed piece in global coordinates,
/// hint pieces marked, optional cells left empty listed. With `hints_only`, only the hint
/// pieces are placed and every other target cell is listed as empty (a puzzle view).
pub fn scene(
    puzzle: &Puzzle,
    table: &PlacementTable,
    placements: &[u32],
    title: &str,
    hints_only: bool,
) -> crate::render::Scene {
    use crate::render::{Container, Scene, ScenePiece};
    let mut covered = vec![false; puzzle.target.cells().len()];
    let mut pieces = Vec::new();
    for &o in placements {
        let hint = table.hints().binary_search(&o).is_ok();
        if hints_only && !hint {
            continue;
        }
        let p = &table.placements()[o as usize];
        let piece = &puzzle.pieces[p.piece as usize];
        for &c in &p.cells {
            covered[c as usize] = true;
        }
        pieces.push(ScenePiece {
            name: piece.name.clone(),
            letter: piece.letter,
            hint,
            cells: p
                .cells
                .iter()
                .map(|&c| puzzle.target.cells()[c as usize].pos)
                .collect(),
            color: p.piece as usize,
        });
    }
    let empty = puzzle
        .target
        .cells()
        .iter()
        .zip(&covered)
        .filter(|(_, c)| !**c)
        .map(|(t, _)| t.pos)
        .collect();
    let containers = puzzle
        .target
        .containers()
        .iter()
        .map(|c| Container {
            origin: c.origin,
            size: c.size,
        })
        .collect();
    Scene {
        title: title.to_string(),
        containers,
        pieces,
        empty,
        loose: false,
        grid: puzzle.grid,
    }
}

/// Piece `i` drawn on its own in its own box at the origin (as written in the puzzle file),
/// titled `title`; a piece with several copies says so in its legend name.
pub fn piece_scene(puzzle: &Puzzle, i: usize, title: &str) -> crate::render::Scene {
    let mut s = crate::render::Scene {
        title: title.to_string(),
        loose: true,
        grid: puzzle.grid,
        ..Default::default()
    };
    add_piece(&mut s, puzzle, i, puzzle.pieces[i].count, [0, 0, 0]);
    s
}

/// Adds piece `i` in a box of its own with its lowest corner at `origin`, named with the
/// number of copies it stands for when that is more than one.
fn add_piece(
    scene: &mut crate::render::Scene,
    puzzle: &Puzzle,
    i: usize,
    copies: u32,
    origin: [i32; 3],
) {
    use crate::render::ScenePiece;
    let piece = &puzzle.pieces[i];
    let name = if copies > 1 {
        format!("{} ({copies} copies)", piece.name)
    } else {
        piece.name.clone()
    };
    let cells: Vec<[i32; 3]> = piece
        .shape
        .cells()
        .iter()
        .map(|&c| crate::geometry::add(origin, c))
        .collect();
    // The box the cells span: a normalised shape need not start at its box's corner (a
    // ball shape's translations keep parity).
    let container = bounding_box(&cells);
    scene.containers.push(container);
    scene.pieces.push(ScenePiece {
        name,
        letter: piece.letter,
        hint: false,
        cells,
        color: i,
    });
}

/// The bounding box of `cells` (a unit box at the origin for none).
fn bounding_box(cells: &[[i32; 3]]) -> crate::render::Container {
    let Some(&first) = cells.first() else {
        return crate::render::Container {
            origin: [0; 3],
            size: [1; 3],
        };
    };
    let (mut lo, mut hi) = (first, first);
    for c in cells {
        for a in 0..3 {
            lo[a] = lo[a].min(c[a]);
            hi[a] = hi[a].max(c[a]);
        }
    }
    crate::render::Container {
        origin: lo,
        size: std::array::from_fn(|a| hi[a] - lo[a] + 1),
    }
}

/// The pieces to place beside a puzzle: every piece copy the hints among `placements` leave
/// unplaced, as (piece index, copies left).
pub fn pieces_to_place(
    puzzle: &Puzzle,
    table: &PlacementTable,
    placements: &[u32],
) -> Vec<(usize, u32)> {
    let mut left: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
    for &o in placements {
        if table.hints().binary_search(&o).is_ok() {
            let p = table.placements()[o as usize].piece as usize;
            left[p] = left[p].saturating_sub(1);
        }
    }
    left.into_iter()
        .enumerate()
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// A target drawn the way a puzzle file writes it, so that what is shown can be pasted back:
/// each container's z layers side by side, each row a layer-art string (`#` must be filled,
/// `+` may stay empty, `.` not part of the target); a cell of a hint piece shows the hint's
/// letter in lowercase. A container whose bounding box is far larger than its cells is
/// listed as the file's `cells` instead of being drawn cell by cell.
pub fn target_art(puzzle: &Puzzle, table: &PlacementTable, hints: &[u32], title: &str) -> String {
    let t = &puzzle.target;
    let mut hinted = std::collections::HashMap::new();
    for &o in hints {
        let p = &table.placements()[o as usize];
        let letter = puzzle.pieces[p.piece as usize].letter;
        for &c in &p.cells {
            hinted.insert(c, letter.to_lowercase().next().unwrap_or(letter));
        }
    }
    let mut out = format!(
        "{title}, as in a puzzle file (# = must be filled, + = may stay empty, . = not part of the target{})\n",
        if hinted.is_empty() {
            ""
        } else {
            "; a lowercase letter is a cell the hint piece of that letter fills"
        }
    );
    let n = t.containers().len();
    for (k, c) in t.containers().iter().enumerate() {
        let [sx, sy, sz] = c.size;
        if n > 1 {
            out.push_str(&format!(
                "{}container {k} of {n}: {sx}x{sy}x{sz}\n",
                if k > 0 { "\n" } else { "" }
            ));
        }
        match puzzle.grid.frame() {
            Frame::Layers => {
                out.push_str(&layers_art(t, c, &hinted));
                continue;
            }
            Frame::Lattice => {}
        }
        let volume = c.size.iter().map(|&s| s as u64).product::<u64>();
        if volume > 64 * c.cells.len() as u64 + 4096 {
            // Sparse: the cells as the file's "cells" and "optional" lists (local coordinates).
            let list = |optional: bool| -> String {
                let cells: Vec<String> = c
                    .cells
                    .iter()
                    .filter(|&&i| t.cells()[i as usize].optional == optional)
                    .map(|&i| {
                        let [x, y, z] = t.user_local(i).1;
                        format!("[{x},{y},{z}]")
                    })
                    .collect();
                cells.join(", ")
            };
            out.push_str(&format!(
                "{} in a {sx}x{sy}x{sz} box, too sparse to draw: \"cells\": [{}], \"optional\": [{}]\n",
                plural(c.cells.len() as u64, "cell"),
                list(false),
                list(true)
            ));
            continue;
        }
        out.push_str(&layers_side_by_side([sx, sy, sz], |p| {
            t.cell_at(add(c.origin, p))
                .map_or('.', |i| art_mark(t, &hinted, i))
        }));
    }
    out
}

/// A container's size as people type it: its box on a grid typed in its own coordinates
/// ([`Frame::Lattice`]); in a frame of layers, the box its cells span in that frame, as
/// [`target_art`] draws it (a ball board typed as 11x5 is `[11, 5, 1]`, not the 15x15x1 box
/// its cells span in the grid's own coordinates).
pub fn typed_size(t: &crate::puzzle::Target, c: &crate::puzzle::Container) -> [i32; 3] {
    match t.grid().frame() {
        Frame::Lattice => c.size,
        Frame::Layers => typed_span(t, c).map_or([0; 3], |(lo, hi)| {
            std::array::from_fn(|a| hi[a] - lo[a] + 1)
        }),
    }
}

/// The lowest and highest corners of the box a container's cells span in the frame people
/// type them in ([`crate::geometry::Grid::to_user`]), the lowest taken a typed step below
/// their least coordinates so that each cell reads as it is typed; `None` without cells.
fn typed_span(
    t: &crate::puzzle::Target,
    c: &crate::puzzle::Container,
) -> Option<([i32; 3], [i32; 3])> {
    let grid = t.grid();
    let mut typed = c
        .cells
        .iter()
        .map(|&i| grid.to_user(t.cells()[i as usize].pos));
    let first = typed.next()?;
    let (mut lo, mut hi) = (first, first);
    for l in typed {
        for a in 0..3 {
            lo[a] = lo[a].min(l[a]);
            hi[a] = hi[a].max(l[a]);
        }
    }
    Some((grid.typed_step_below(lo), hi))
}

/// One container of a target typed in a frame of layers ([`Frame::Layers`], the sphere
/// grid's) as [`target_art`] draws it: in that frame ([`crate::geometry::Grid::to_user`]),
/// where the grid's files write their art, layer k as `z=k` (counted from the container's
/// lowest layer), a row of the art per row, one character per cell, from the corner of the
/// box its cells span; a sparse one as the frame's cells the file would list.
fn layers_art(
    t: &crate::puzzle::Target,
    c: &crate::puzzle::Container,
    hinted: &std::collections::HashMap<u32, char>,
) -> String {
    let grid = t.grid();
    let Some((lo, hi)) = typed_span(t, c) else {
        return String::new();
    };
    let layer: Vec<(u32, [i32; 3])> = c
        .cells
        .iter()
        .map(|&i| (i, grid.to_user(t.cells()[i as usize].pos)))
        .collect();
    let [sx, sy, sz] = std::array::from_fn(|a| hi[a] - lo[a] + 1);
    if !crate::puzzle::fits_art([sx, sy, sz]) {
        let list = |optional: bool| -> String {
            let cells: Vec<String> = layer
                .iter()
                .filter(|(i, _)| t.cells()[*i as usize].optional == optional)
                .map(|(_, l)| format!("[{},{},{}]", l[0] - lo[0], l[1] - lo[1], l[2] - lo[2]))
                .collect();
            cells.join(", ")
        };
        return format!(
            "{} in a {sx}x{sy}x{sz} box of layers, too sparse to draw: \"cells\": [{}], \"optional\": [{}]\n",
            plural(layer.len() as u64, grid.cell_noun()),
            list(false),
            list(true)
        );
    }
    layers_side_by_side([sx, sy, sz], |[x, y, z]| {
        t.cell_at(grid.from_user([lo[0] + x, lo[1] + y, lo[2] + z]))
            .map_or('.', |i| art_mark(t, hinted, i))
    })
}

/// A target cell's character in layer art: its hint piece's letter, `+` when optional, `#`.
fn art_mark(
    t: &crate::puzzle::Target,
    hinted: &std::collections::HashMap<u32, char>,
    i: u32,
) -> char {
    match hinted.get(&i) {
        Some(&h) => h,
        None if t.cells()[i as usize].optional => '+',
        None => '#',
    }
}

/// Layer art of a `size` box, layers `z=0`, `z=1`, ... side by side under their labels,
/// three spaces apart, one character per position from `at([x, y, z])`.
fn layers_side_by_side(size: [i32; 3], at: impl Fn([i32; 3]) -> char) -> String {
    let [sx, sy, sz] = size;
    let labels: Vec<String> = (0..sz).map(|z| format!("z={z}")).collect();
    let width = labels
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(sx as usize);
    let mut out = String::new();
    let mut line = String::new();
    for (z, l) in labels.iter().enumerate() {
        let gap = if z + 1 < labels.len() { 3 } else { 0 };
        line.push_str(&format!("{l:<w$}", w = width + gap));
    }
    out.push_str(line.trim_end());
    out.push('\n');
    for y in 0..sy {
        let mut line = String::new();
        for z in 0..sz {
            let row: String = (0..sx).map(|x| at([x, y, z])).collect();
            let gap = if z + 1 < sz { 3 } else { 0 };
            line.push_str(&format!("{row:<w$}", w = width + gap));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A printable puzzle sheet as one scene: the target with its hint pieces and its empty
/// cells outlined, and beside it, each in a box of its own, the pieces still to place.
///
/// The pieces are laid out for the isometric picture (`render::svg`, which draws cell
/// `(x, y, z)` at lattice point `a = x + y`, `b = x - y - 2z`): each piece's box is measured
/// there and the boxes are set in rows to the right of the target, apart from each other and
/// with room below each for its label, so that no two overlap in the picture.
pub fn sheet_scene(
    puzzle: &Puzzle,
    table: &PlacementTable,
    placements: &[u32],
    title: &str,
) -> crate::render::Scene {
    let mut s = scene(puzzle, table, placements, title, true);
    s.loose = true;
    match puzzle.grid.frame() {
        Frame::Layers => {
            layers_sheet(&mut s, puzzle, table, placements);
            return s;
        }
        Frame::Lattice => {}
    }
    // The lattice box of a box at `o` of size `n`: (a from, a to, b from, b to).
    let lattice_box = |o: [i32; 3], n: [i32; 3]| {
        (
            o[0] + o[1],
            o[0] + n[0] + o[1] + n[1],
            o[0] - o[1] - n[1] - 2 * (o[2] + n[2]),
            o[0] + n[0] - o[1] - 2 * o[2],
        )
    };
    let (mut a_lo, mut a_hi, mut b_lo) = (i32::MAX, i32::MIN, i32::MAX);
    for c in &s.containers {
        let (a0, a1, b0, _) = lattice_box(c.origin, c.size);
        (a_lo, a_hi, b_lo) = (a_lo.min(a0), a_hi.max(a1), b_lo.min(b0));
    }
    if s.containers.is_empty() {
        (a_lo, a_hi, b_lo) = (0, 0, 0);
    }
    // Rows start two lattice units right of the target and are about as wide as the target
    // (at least 30 units); a row's height leaves four units below its tallest piece for labels.
    const GAP: i32 = 2;
    const LABEL: i32 = 4;
    let start = a_hi + GAP;
    let row_width = (a_hi - a_lo).max(30);
    let (mut a, mut b, mut row_bottom) = (start, b_lo, b_lo);
    for (i, left) in pieces_to_place(puzzle, table, placements) {
        let [sx, sy, sz] = puzzle.pieces[i].shape.size();
        let width = sx + sy;
        if a > start && a + width > start + row_width {
            (a, b) = (start, row_bottom + LABEL);
        }
        // The box's lattice corner (a, b) is reached from an integer origin only when
        // a + b + sy is even; otherwise the piece goes one unit lower.
        let b_here = b + (a + b + sy).rem_euclid(2);
        let x = (a + b_here + sy + 2 * sz) / 2;
        let origin = [x, a - x, 0];
        add_piece(&mut s, puzzle, i, left, origin);
        row_bottom = row_bottom.max(lattice_box(origin, [sx, sy, sz]).3);
        a += width + GAP;
    }
    s
}

/// [`sheet_scene`] on a grid typed in a frame of layers (the sphere grid's): the pieces to
/// place in rows beside the target, in that frame (where the ball pictures lay out the square
/// layers), a column apart and a few rows between rows of pieces. Translations by the frame's
/// steps keep every cell a cell.
fn layers_sheet(
    s: &mut crate::render::Scene,
    puzzle: &Puzzle,
    table: &PlacementTable,
    placements: &[u32],
) {
    let grid = puzzle.grid;
    // The layer-frame span of some cells: (lowest corner, highest corner).
    let span = |cells: &mut dyn Iterator<Item = [i32; 3]>| {
        let mut lo = [i32::MAX; 3];
        let mut hi = [i32::MIN; 3];
        for c in cells {
            let l = grid.to_user(c);
            for a in 0..3 {
                lo[a] = lo[a].min(l[a]);
                hi[a] = hi[a].max(l[a]);
            }
        }
        (lo[0] <= hi[0]).then_some((lo, hi))
    };
    let target = puzzle.target.cells().iter().map(|c| c.pos);
    let (t_lo, t_hi) = span(&mut target.into_iter()).unwrap_or(([0; 3], [0; 3]));
    // Two cells apart: as many typed columns as two cells are wide.
    let gap = 2 * grid.typed_columns_per_cell();
    const ROW_GAP: i32 = 3;
    let start = t_hi[0] + 1 + gap;
    let row_width = (t_hi[0] - t_lo[0] + 1).max(6 * gap);
    let (mut i, mut j, mut row_depth) = (start, t_lo[1], 0);
    for (k, left) in pieces_to_place(puzzle, table, placements) {
        let shape = puzzle.pieces[k].shape.cells();
        let Some((lo, hi)) = span(&mut shape.iter().copied()) else {
            continue;
        };
        let width = hi[0] - lo[0] + 1;
        if i > start && i + width > start + row_width {
            (i, j, row_depth) = (start, j + row_depth + ROW_GAP, 0);
        }
        // Move the piece's layer-frame corner to (i, j, target's lowest layer), or one
        // column left where the grid's typed steps need it.
        let want = [i - lo[0], j - lo[1], t_lo[2] - lo[2]];
        let shift = grid.typed_step_below(want);
        let origin = grid.typed_translation(shift);
        add_piece(s, puzzle, k, left, origin);
        row_depth = row_depth.max(hi[1] - lo[1] + 1);
        i += width + gap;
    }
}

/// The longest line of a JSON Lines listing that is read: a line is parsed whole, into a
/// value several times its size, so this bounds the memory one line takes (a solution line
/// of the largest target is under 2 MiB).
pub const MAX_JSONL_LINE_BYTES: usize = 32 << 20;

/// Pass one over JSON Lines written by `solve --format json`: the instance of the puzzle its
/// summary line carries, and how many solution lines there are. Every line must be a JSON
/// object with `"type": "solution"` or `"summary"` (at most one summary); nothing but the
/// summary is kept, so memory does not grow with the file. Errors name the line.
pub fn jsonl_instance(
    mut reader: impl std::io::BufRead,
) -> crate::error::Result<(crate::run::Instance, u64)> {
    use crate::error::{Error, bail};
    use crate::input::{Line, read_line};
    let mut buf = Vec::new();
    let mut summary: Option<(usize, crate::puzzle::Puzzle)> = None;
    let mut solutions = 0u64;
    let mut n = 0;
    while let Line::Text(line) = read_line(&mut reader, &mut buf, n + 1, MAX_JSONL_LINE_BYTES)? {
        n += 1;
        if line.trim().is_empty() {
            continue;
        }
        match line_type(&line)
            .map_err(|e| e.into_error(n - 1))?
            .as_deref()
        {
            Some("solution") => solutions += 1,
            Some("summary") => {
                if let Some((first, _)) = summary {
                    bail!(
                        "line {n}: a second summary line (the first is line {first}): one listing per file"
                    );
                }
                let v = crate::input::json(&line).map_err(|e| e.into_error(n - 1))?;
                let p = crate::puzzle::json::from_value(&v["puzzle"], "puzzle").map_err(|e| {
                    Error::input(
                        format!("line {n}"),
                        format!("summary.puzzle: {}", e.report()),
                    )
                })?;
                summary = Some((n, p));
            }
            _ => bail!("line {n}: expected an object with \"type\": \"solution\" or \"summary\""),
        }
    }
    let Some((_, puzzle)) = summary else {
        bail!("no summary line with the puzzle (a listing saved in the json format ends with one)");
    };
    Ok((crate::run::Instance::new(puzzle)?, solutions))
}

/// Pass two over the JSON Lines [`jsonl_instance`] read: every solution line, checked
/// against `inst` and verified, goes to `each` (its number from 1, its placement indices) in
/// file order, one line held at a time. Errors name the line; `each`'s own errors are passed
/// on as they are.
pub fn jsonl_solutions<E: From<crate::Error>>(
    mut reader: impl std::io::BufRead,
    inst: &crate::run::Instance,
    mut each: impl FnMut(u64, Vec<u32>) -> Result<(), E>,
) -> Result<u64, E> {
    use crate::input::{Line, read_line};
    let mut buf = Vec::new();
    let mut count = 0u64;
    let mut n = 0;
    while let Line::Text(line) = read_line(&mut reader, &mut buf, n + 1, MAX_JSONL_LINE_BYTES)? {
        n += 1;
        if line.trim().is_empty() {
            continue;
        }
        let v = crate::input::json(&line).map_err(|e| e.into_error(n - 1))?;
        match v["type"].as_str() {
            Some("solution") => {
                count += 1;
                each(count, solution_from_json(&v, n, inst)?)?;
            }
            Some("summary") => {}
            _ => {
                return Err(crate::error::Error::input(
                    format!("line {n}"),
                    "expected an object with \"type\": \"solution\" or \"summary\"",
                )
                .into());
            }
        }
    }
    Ok(count)
}

/// Reads JSON Lines written by `solve --format json` back from memory: the puzzle from the
/// summary object, and every solution as placement indices, each verified (both passes,
/// [`jsonl_instance`] and [`jsonl_solutions`]). Errors name the line.
pub fn read_solutions_jsonl(
    text: &str,
) -> crate::error::Result<(crate::run::Instance, Vec<Vec<u32>>)> {
    let (inst, _) = jsonl_instance(text.as_bytes())?;
    let mut solutions = Vec::new();
    jsonl_solutions(text.as_bytes(), &inst, |_, s| {
        solutions.push(s);
        Ok::<(), crate::Error>(())
    })?;
    Ok((inst, solutions))
}

/// The `"type"` of a JSON Lines line, read without building the rest of it (pass one reads
/// every line of a large file): `None` when the line is not an object or has no string
/// type. The whole line is still checked to be JSON.
fn line_type(line: &str) -> Result<Option<String>, crate::input::JsonError> {
    use serde::Deserializer as _;
    use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
    struct TypeOf;
    impl<'de> Visitor<'de> for TypeOf {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Option<String>, A::Error> {
            let mut kind = None;
            while let Some(k) = m.next_key::<std::borrow::Cow<'de, str>>()? {
                if k == "type" {
                    kind = m.next_value::<Value>()?.as_str().map(str::to_string);
                } else {
                    m.next_value::<IgnoredAny>()?;
                }
            }
            Ok(kind)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Option<String>, A::Error> {
            while s.next_element::<IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Option<String>, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Option<String>, E> {
            Ok(None)
        }
    }
    let mut de = serde_json::Deserializer::from_str(line);
    de.deserialize_any(TypeOf)
        .and_then(|t| de.end().map(|()| t))
        .map_err(|_| match crate::input::json(line) {
            // The checked parse gives the same error with its place (or a repeated key).
            Err(e) => e,
            Ok(_) => crate::input::JsonError {
                line: 1,
                column: 1,
                path: None,
                message: "not JSON".to_string(),
            },
        })
}

/// One solution line's placements (sorted), each piece's cells checked to be a placement of
/// `inst` and the whole verified; `line` is its line in the file, for messages.
fn solution_from_json(
    v: &Value,
    line: usize,
    inst: &crate::run::Instance,
) -> crate::error::Result<Vec<u32>> {
    use crate::error::Error;
    let Some(pieces) = v["pieces"].as_array() else {
        crate::error::bail_at!(format!("line {line}"), "solution has no \"pieces\" array");
    };
    let mut placements = Vec::new();
    for (k, p) in pieces.iter().enumerate() {
        let name = p["piece"].as_str().ok_or_else(|| {
            Error::input(
                format!("line {line}"),
                format!("pieces[{k}].piece is not a string"),
            )
        })?;
        let piece = inst.puzzle.piece_index(name).ok_or_else(|| {
            Error::input(
                format!("line {line}"),
                format!(
                    "pieces[{k}].piece: no piece named '{}'",
                    crate::echo::echo(name)
                ),
            )
        })?;
        let container = p["container"].as_u64().unwrap_or(0) as usize;
        if container >= inst.puzzle.target.containers().len() {
            return Err(Error::input(
                format!("line {line}"),
                format!("pieces[{k}].container: no container {container}"),
            ));
        }
        let cells: Vec<[i32; 3]> = serde_json::from_value(p["cells"].clone())
            .map_err(|e| Error::input(format!("line {line}"), format!("pieces[{k}].cells: {e}")))?;
        let mut ids = Vec::with_capacity(cells.len());
        for c in cells {
            // The cells as `solution_json` writes them: in the grid's user frame.
            let g = inst.puzzle.target.user_to_global(container, c);
            ids.push(inst.puzzle.target.cell_at(g).ok_or_else(|| {
                Error::input(
                    format!("line {line}"),
                    format!("pieces[{k}].cells: {c:?} is not a target cell"),
                )
            })?);
        }
        ids.sort_unstable();
        let o = inst.table.find(piece as u32, &ids).ok_or_else(|| {
            Error::input(
                format!("line {line}"),
                format!("pieces[{k}]: the cells are not a placement of '{name}'"),
            )
        })?;
        placements.push(o);
    }
    placements.sort_unstable();
    inst.verifier().verify(&placements).map_err(|e| {
        Error::input(
            format!("line {line}"),
            format!("not a solution: {}", e.report()),
        )
    })?;
    Ok(placements)
}

/// A catalog estimate in words, as `cubesat info` and the studio give it: "open, estimated up
/// to rotation: 1.313e28 nodes (95% interval 1.068e5 to 3.683e28), ... CPU on the machine
/// measured".
pub fn estimate_words(e: &crate::puzzle::Estimate) -> String {
    let high = e
        .high
        .map_or("unbounded".to_string(), |h| format!("{h:.3e}"));
    format!(
        "open, estimated {}: {:.3e} nodes (95% interval {:.3e} to {high}), {} CPU on the machine measured",
        e.up_to.phrase(),
        e.nodes,
        e.low,
        human_seconds(e.cpu_seconds),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Grid, Shape, sphere_from_layer};
    use crate::puzzle::{ContainerSpec, Piece, Target};

    /// A 14-ball square pyramid target (its far corner ball optional) and one three-ball
    /// piece, on the sphere grid, built by hand (in cube coordinates, moved by an even step
    /// so that every coordinate is non-negative).
    fn pyramid() -> Puzzle {
        let ball = |l: [i32; 3]| add(sphere_from_layer(l), [0, 2, 0]);
        let mut cells = Vec::new();
        for k in 0..3 {
            for j in 0..3 - k {
                for i in 0..3 - k {
                    cells.push((ball([i, j, k]), [i, j, k] == [2, 2, 0]));
                }
            }
        }
        let piece = Piece {
            name: "bar".into(),
            letter: 'A',
            shape: Shape::new_on(
                Grid::Sphere,
                [ball([0, 0, 0]), ball([1, 0, 0]), ball([0, 0, 1])],
            ),
            count: 1,
            min_count: 1,
            colours: Vec::new(),
            weight: 0,
            groups: Vec::new(),
        };
        Puzzle::new(
            "pyramid".into(),
            Grid::Sphere,
            vec![piece],
            Target::new_on(Grid::Sphere, &[ContainerSpec { cells, frame: None }]),
        )
    }

    #[test]
    fn ball_target_art_is_in_the_layer_frame() {
        let p = pyramid();
        let mut out = String::new();
        for c in p.target.containers() {
            out.push_str(&layers_art(&p.target, c, &Default::default()));
        }
        let want = "\
z=0   z=1   z=2
###   ##.   #..
###   ##.   ...
##+   ...   ...
";
        assert_eq!(out, want);
        // The piece alone: its balls, in the layer frame.
        let s = piece_scene(&p, 0, "bar");
        assert_eq!(s.grid, Grid::Sphere);
        let text = crate::render::text(&s, false);
        assert_eq!(text, "bar\nz=0   z=1\nA A   A\nlegend: A = bar\n");
    }
}
