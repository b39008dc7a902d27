//! Writing a puzzle as JSON: [`to_value`] (what [`super::parse_puzzle`] reads back as the same puzzle), and the file form people write, in layer art and compact lines.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::catalog::{catalog_value, known_counts_value};
use crate::geometry::{Cell, Frame, Grid, Shape, add};
use crate::puzzle::{MAX_ART_CELLS, Piece, Puzzle, Target};

/// Writes a puzzle as JSON in the format [`super::parse_puzzle`] reads (boxes as `box`, other
/// containers as layer art, pieces as cell lists). Containers whose layer art would be larger
/// than [`MAX_ART_CELLS`] cells in all (a sparse target in a large box) are written as
/// `cells` and `optional` lists instead, so the file grows with the cells, not with the box,
/// and reads back as the same puzzle.
pub fn to_value(puzzle: &Puzzle) -> Value {
    let t = &puzzle.target;
    let mut out = json!({ "name": puzzle.name });
    if !puzzle.grid.is_default() {
        out["grid"] = json!(puzzle.grid.name());
    }
    if !puzzle.description.is_empty() {
        out["description"] = json!(puzzle.description);
    }
    out["target"] = target_value(puzzle);
    // Pieces past the last free letter share '?' (the reader gives it to every piece it runs
    // out of letters for); written, the shared letter would read as a duplicate, so it is
    // left out for the reader to give again.
    let shared = puzzle.pieces.iter().filter(|p| p.letter == '?').count() > 1;
    out["pieces"] = puzzle
        .pieces
        .iter()
        .map(|p| {
            let mut v = piece_value(p, puzzle.grid);
            if shared && p.letter == '?' {
                v.as_object_mut().map(|o| o.remove("letter"));
            }
            v
        })
        .collect();
    if puzzle.mirror {
        out["mirror"] = json!(true);
    }
    if puzzle.allow_disconnected {
        out["allow_disconnected"] = json!(true);
    }
    if !puzzle.hints.is_empty() {
        out["hints"] = hints_value(puzzle);
    }
    if puzzle.colour_pairs.is_some() || t.is_coloured() {
        out["colours"] = colours_value(puzzle);
    }
    if let Some(h) = puzzle.max_holes {
        out["max_holes"] = json!(h);
    }
    if let Some(u) = puzzle.default_up_to {
        out["counting"] = json!(u.to_string());
    }
    if !puzzle.known_counts.is_empty() {
        out["known_counts"] = known_counts_value(&puzzle.known_counts);
    }
    if let Some(c) = &puzzle.catalog {
        out["catalog"] = catalog_value(c);
    }
    out
}

/// The `target`: one container as itself, full boxes of a grid typed in its own coordinates as
/// `boxes`, else a list of `containers`.
fn target_value(puzzle: &Puzzle) -> Value {
    let t = &puzzle.target;
    let as_art = art_fits(t);
    let container = |ci: usize| container_value(puzzle, ci, as_art);
    if t.containers().len() == 1 {
        container(0)
    } else if typed_in_lattice(puzzle.grid) && (0..t.containers().len()).all(|i| t.is_full_box(i)) {
        json!({ "boxes": t.containers().iter().map(|c| c.size).collect::<Vec<_>>() })
    } else {
        json!({ "containers": (0..t.containers().len()).map(container).collect::<Vec<_>>() })
    }
}

/// Whether the containers that are not full boxes are written as layer art: their boxes
/// hold at most [`MAX_ART_CELLS`] cells in all, and each fits layer art.
fn art_fits(t: &Target) -> bool {
    let art_cells: i64 = (0..t.containers().len())
        .filter(|&ci| !t.is_full_box(ci))
        .map(|ci| {
            t.containers()[ci]
                .size
                .iter()
                .map(|&s| i64::from(s))
                .product::<i64>()
        })
        .sum();
    art_cells <= MAX_ART_CELLS
        && t.containers()
            .iter()
            .all(|c| crate::puzzle::fits_art(c.size))
}

/// True when people type `grid`'s cells in its own coordinates ([`Frame::Lattice`]), so that a
/// container's box and layer art are the grid's.
fn typed_in_lattice(grid: Grid) -> bool {
    match grid.frame() {
        Frame::Lattice => true,
        Frame::Layers => false,
    }
}

/// Container `ci` of a target typed in the grid's own coordinates: `box` when full, layer art
/// when `as_art`, else cell lists (in local coordinates); containers of a grid typed in a
/// frame of layers are written in that frame ([`user_container_value`]).
fn container_value(puzzle: &Puzzle, ci: usize, as_art: bool) -> Value {
    let t = &puzzle.target;
    let c = &t.containers()[ci];
    if !typed_in_lattice(puzzle.grid) {
        return user_container_value(t, ci);
    }
    if t.is_full_box(ci) {
        return json!({ "box": c.size });
    }
    if !as_art {
        let (optional, must): (Vec<u32>, Vec<u32>) = c
            .cells
            .iter()
            .partition(|&&i| t.cells()[i as usize].optional);
        let local = |ids: Vec<u32>| -> Vec<Cell> { ids.iter().map(|&i| t.local(i).1).collect() };
        let mut o = json!({ "cells": local(must) });
        if !optional.is_empty() {
            o["optional"] = json!(local(optional));
        }
        return o;
    }
    let mut layers = Vec::new();
    for z in 0..c.size[2] {
        let mut rows = Vec::new();
        for y in 0..c.size[1] {
            let row: String = (0..c.size[0])
                .map(|x| match t.cell_at(add(c.origin, [x, y, z])) {
                    Some(i) if t.cells()[i as usize].optional => '+',
                    Some(_) => '#',
                    None => '.',
                })
                .collect();
            rows.push(Value::String(row));
        }
        layers.push(Value::Array(rows));
    }
    json!({ "layers": layers })
}

/// A container of a grid typed in a frame of layers, in that frame (the layer frame for
/// balls, see [`Target::user_local`]): `box` when its cells fill a box from the origin, layer
/// art when that is small enough, else cell lists.
fn user_container_value(t: &Target, ci: usize) -> Value {
    let c = &t.containers()[ci];
    let user: Vec<(Cell, bool)> = c
        .cells
        .iter()
        .map(|&i| (t.user_local(i).1, t.cells()[i as usize].optional))
        .collect();
    let mut size = [0i32; 3];
    for (u, _) in &user {
        for a in 0..3 {
            size[a] = size[a].max(u[a] + 1);
        }
    }
    let volume: i64 = size.iter().map(|&v| i64::from(v)).product();
    if volume == user.len() as i64 && user.iter().all(|(_, o)| !o) {
        return json!({ "box": size });
    }
    if !crate::puzzle::fits_art(size) {
        let pick = |opt: bool| -> Vec<Cell> {
            user.iter()
                .filter(|(_, o)| *o == opt)
                .map(|(u, _)| *u)
                .collect()
        };
        let mut o = json!({ "cells": pick(false) });
        if user.iter().any(|(_, o)| *o) {
            o["optional"] = json!(pick(true));
        }
        return o;
    }
    let at: HashMap<Cell, bool> = user.into_iter().collect();
    let layers: Vec<Value> = (0..size[2])
        .map(|z| {
            let rows = (0..size[1])
                .map(|y| {
                    let row: String = (0..size[0])
                        .map(|x| match at.get(&[x, y, z]) {
                            Some(true) => '+',
                            Some(false) => '#',
                            None => '.',
                        })
                        .collect();
                    Value::String(row)
                })
                .collect();
            Value::Array(rows)
        })
        .collect();
    json!({ "layers": layers })
}

/// A piece as a cell list in the grid's user frame, with what differs from the plain values
/// (one copy, no colours, weight 1, no group).
fn piece_value(p: &Piece, grid: Grid) -> Value {
    let cells: Vec<Cell> = p.shape.cells().iter().map(|&c| grid.to_user(c)).collect();
    // From 0 where the grid's typed steps allow (a prism piece's first typed column may be
    // -1 otherwise).
    let min = grid.typed_step_below(crate::geometry::min_corner(&cells).unwrap_or([0; 3]));
    let cells: Vec<Cell> = cells
        .iter()
        .map(|&c| crate::geometry::sub(c, min))
        .collect();
    let mut o = json!({ "name": p.name, "letter": p.letter.to_string(), "cells": cells });
    if p.is_ranged() {
        o["count"] = json!([p.min_count, p.count]);
    } else if p.count != 1 {
        o["count"] = json!(p.count);
    }
    if p.is_coloured() {
        o["colours"] = json!(p.colours);
    }
    if p.weight != 1 {
        o["weight"] = json!(p.weight);
    }
    match p.groups.as_slice() {
        [] => {}
        [(g, c)] if *c as u32 == p.count => o["group"] = json!(g),
        gs => o["group"] = json!(gs.iter().map(|&(g, c)| [g, c]).collect::<Vec<_>>()),
    }
    o
}

/// The `hints`, each in its container's user coordinates (the container named when the
/// target has several).
fn hints_value(puzzle: &Puzzle) -> Value {
    let t = &puzzle.target;
    let hints: Vec<Value> = puzzle
        .hints
        .iter()
        .map(|h| {
            let first = t.cell_at(h.cells[0]).map(|c| t.local(c).0).unwrap_or(0);
            let local: Vec<Cell> = h
                .cells
                .iter()
                .filter_map(|&c| t.cell_at(c).map(|i| t.user_local(i).1))
                .collect();
            let mut o = json!({ "piece": puzzle.pieces[h.piece].name, "cells": local });
            if t.containers().len() > 1 {
                o["container"] = json!(first);
            }
            o
        })
        .collect();
    Value::Array(hints)
}

/// The colour rule: its `pairs`, and the `target` cells of a colour other than 0.
fn colours_value(puzzle: &Puzzle) -> Value {
    let t = &puzzle.target;
    let mut o = json!({});
    if let Some(pairs) = &puzzle.colour_pairs {
        o["pairs"] = json!(pairs.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>());
    }
    if t.is_coloured() {
        let cells: Vec<[i32; 4]> = (0..t.cells().len() as u32)
            .filter(|&c| t.colour(c) != 0)
            .map(|c| {
                let (_, l) = t.user_local(c);
                [l[0], l[1], l[2], t.colour(c) as i32]
            })
            .collect();
        o["target"] = json!(cells);
    }
    o
}

/// A puzzle file as a person would write it ([`to_file_value`]), short arrays and objects
/// kept on one line, so a generated file reads like the bundled ones.
pub fn to_file_string(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    write_compact(&to_file_value(puzzle), 0, &mut out);
    out.push('\n');
    out
}

/// [`to_value`] with every piece in layer art, as people write pieces (a piece whose box is
/// too large for art, a disconnected one spread out, keeps its cell list).
pub fn to_file_value(puzzle: &Puzzle) -> Value {
    let mut v = to_value(puzzle);
    if let Some(pieces) = v["pieces"].as_array_mut() {
        for (piece, p) in pieces.iter_mut().zip(&puzzle.pieces) {
            // In the grid's user frame, moved to start at 0 by a typed step that moves cells
            // without turning them.
            let user: Vec<Cell> = p
                .shape
                .cells()
                .iter()
                .map(|&c| puzzle.grid.to_user(c))
                .collect();
            let min = crate::geometry::min_corner(&user).unwrap_or([0; 3]);
            let min = puzzle.grid.typed_step_below(min);
            let user: Vec<Cell> = user.iter().map(|&c| crate::geometry::sub(c, min)).collect();
            let size = Shape::new(user.iter().copied()).size();
            // One more column where the typed step stopped short of the corner.
            let size = [
                size[0] + user.iter().map(|c| c[0]).min().unwrap_or(0),
                size[1],
                size[2],
            ];
            if !crate::puzzle::fits_art(size) {
                continue;
            }
            if let Some(o) = piece.as_object_mut() {
                o.remove("cells");
                o.insert("layers".into(), shape_layers(&user));
            }
        }
    }
    v
}

/// A shape as layer art: one list of row strings per z, `#` a cube, `.` empty.
fn shape_layers(cells: &[Cell]) -> Value {
    let at: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    let mut size = [0; 3];
    for c in cells {
        for a in 0..3 {
            size[a] = size[a].max(c[a] + 1);
        }
    }
    let [sx, sy, sz] = size;
    let layers: Vec<Value> = (0..sz)
        .map(|z| {
            let rows: Vec<Value> = (0..sy)
                .map(|y| {
                    let row: String = (0..sx)
                        .map(|x| if at.contains(&[x, y, z]) { '#' } else { '.' })
                        .collect();
                    Value::String(row)
                })
                .collect();
            Value::Array(rows)
        })
        .collect();
    Value::Array(layers)
}

/// A value on one line, with a space after each comma and colon.
fn inline(v: &Value) -> String {
    match v {
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{}: {}", Value::String(k.clone()), inline(x)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        _ => v.to_string(),
    }
}

/// Pretty JSON that keeps an array on one line when it fits in 96 columns, and an object
/// when it also holds no text (a cell, a box size).
fn write_compact(v: &Value, indent: usize, out: &mut String) {
    let flat = inline(v);
    let fits = indent + flat.len() <= 96;
    let pad = |out: &mut String, n: usize| out.push_str(&" ".repeat(n));
    match v {
        Value::Array(a) if !fits && !a.is_empty() => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                pad(out, indent + 2);
                write_compact(x, indent + 2, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push(']');
        }
        Value::Object(m) if !m.is_empty() && (!fits || indent == 0) => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                pad(out, indent + 2);
                out.push_str(&format!("{}: ", Value::String(k.clone())));
                write_compact(x, indent + 2, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push('}');
        }
        _ => out.push_str(&flat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::json::parse_puzzle;

    #[test]
    fn files_are_written_in_layer_art_and_read_back() {
        let p = crate::puzzle::bundled("tetris-cube").unwrap();
        let text = to_file_string(&p);
        assert!(text.contains("\"layers\": [["), "{text}");
        assert!(!text.contains("\"cells\""), "{text}");
        // The catalog record round-trips too.
        let back = parse_puzzle(&text, "x").unwrap();
        assert_eq!(to_value(&back), to_value(&p));
        assert_eq!(back.catalog, p.catalog);
        let bare = Puzzle {
            catalog: None,
            ..p.clone()
        };
        let text = to_file_string(&bare);
        assert!(text.lines().count() < 40, "{text}");
    }
}
