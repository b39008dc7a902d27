//! What the page shows of a puzzle and a solution: the editor's check (the figures of
//! `cubesat info`, the obstacles, the 3D preview) and a solution's text, SVG, 3D page and
//! assembly steps.

use std::sync::OnceLock;

use cubesat::geometry::{CellShape, Frame, Grid};
use cubesat::puzzle::{self, Catalog, CatalogCounts, ModeCount, Verdict};
use cubesat::render::{self, Scene};
use cubesat::report::{estimate_words, human_seconds, piece_scene, scene, sheet_scene};
use cubesat::run::Instance;
use cubesat::{Puzzle, UpTo};
use serde_json::{Value, json};

use super::{Failure, parse, sizes};

/// What the editor shows beside its grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The target with its hints, and the pieces beside it (`cubesat show`).
    Sheet,
    /// One piece on its own.
    Piece(usize),
}

/// The editor's check of a puzzle text: `{"ok": true, "info": ..., "view": HTML}` or
/// `{"ok": false, "error": {"message", "place"}}`.
pub fn check(text: &str, view: View) -> Value {
    let puzzle = match parse(text) {
        Ok(p) => p,
        Err(f) => return json!({ "ok": false, "error": f.to_json() }),
    };
    let warnings = same_shape_warnings(&puzzle);
    let notes = puzzle.notes.clone();
    let inst = match Instance::new(puzzle) {
        Ok(i) => i,
        Err(e) => return json!({ "ok": false, "error": Failure::from(e).to_json() }),
    };
    let view_html = match view {
        View::Piece(i) if i < inst.puzzle.pieces.len() => {
            render::html(&[piece_scene(&inst.puzzle, i, &piece_title(&inst.puzzle, i))])
        }
        _ => render::html(&[sheet(&inst)]),
    };
    json!({
        "ok": true,
        "info": info(&inst),
        "notes": notes,
        "warnings": warnings,
        "obstacles": inst.table.obstacles(&inst.puzzle),
        "view": view_html,
    })
}

/// `piece 'L' (L): 4 cells, 2 copies`.
fn piece_title(p: &Puzzle, i: usize) -> String {
    let piece = &p.pieces[i];
    let copies = match (piece.min_count, piece.count) {
        (_, 1) if !piece.is_ranged() => String::new(),
        (a, b) if a == b => format!(", {b} copies"),
        (a, b) => format!(", {a} to {b} copies"),
    };
    format!(
        "piece '{}' ({}): {} cells{copies}",
        piece.name,
        piece.letter,
        piece.shape.len()
    )
}

/// The target with its hints and the pieces beside it.
pub(super) fn sheet(inst: &Instance) -> Scene {
    let p = &inst.puzzle;
    let mut s = sheet_scene(p, &inst.table, inst.table.hints(), &p.name);
    s.title = format!("{}: target and pieces", p.name);
    s
}

/// One warning per group of same-shaped pieces under different names.
fn same_shape_warnings(p: &Puzzle) -> Vec<String> {
    p.same_shapes()
        .iter()
        .map(|g| {
            let names: Vec<String> = g
                .iter()
                .map(|&i| format!("'{}'", p.pieces[i].name))
                .collect();
            format!(
                "pieces {} have the same shape, so solutions that only swap them count as different; list the shape once with a count of {} to count them as identical copies",
                names.join(" and "),
                g.iter().map(|&i| p.pieces[i].count).sum::<u32>()
            )
        })
        .collect()
}

/// Every grid the library has ([`Grid::ALL`]), as the editor's grid menu offers them: each
/// grid's facts (name, title, cell noun, frame, whether it comes apart, BurrTools number), so that the page names no grid of its own.
pub fn grids() -> Value {
    Value::Array(Grid::ALL.into_iter().map(grid_json).collect())
}

/// What the page needs to know of a grid: its name in puzzle files, its title in prose, a
/// cell in words, how its cells are typed (`lattice`: the grid's own coordinates; `layers`: a
/// frame of square layers), whether its assemblies can be taken apart, its BurrTools
/// `gridType` (null where BurrTools has none), whether it is the grid a file with no
/// `"grid"` key means, and how the editor draws a cell of a typed layer ([`typed_cell`]).
fn grid_json(g: Grid) -> Value {
    json!({
        "name": g.name(),
        "title": g.title(),
        "cell_noun": g.cell_noun(),
        "frame": frame_name(g.frame()),
        "typed_cell": typed_cell(g),
        "can_disassemble": g.can_disassemble(),
        "burrtools_type": g.burrtools_type(),
        "default": g.is_default(),
    })
}

/// The outline of one cell in a layer as people type it (`layers` art, one character a
/// cell): "square" (cubes), "ball" (the sphere grid's layer frame), "triangle" or "hexagon"
/// (a prism cell's polygon); null where cells are typed in the grid's own 3D coordinates,
/// which no layer of cells draws (tetrahedra).
fn typed_cell(g: Grid) -> Option<&'static str> {
    match g.cell_shape() {
        CellShape::Cube => Some("square"),
        CellShape::Ball => Some("ball"),
        CellShape::Prism => match g.polygon(g.from_user([0, 0, 0])).map(|p| p.len()) {
            Some(3) => Some("triangle"),
            Some(6) => Some("hexagon"),
            _ => None,
        },
        CellShape::Tetrahedron => None,
    }
}

/// A frame's word in the API.
fn frame_name(f: Frame) -> &'static str {
    match f {
        Frame::Lattice => "lattice",
        Frame::Layers => "layers",
    }
}

/// The figures `cubesat info` shows, as JSON.
fn info(inst: &Instance) -> Value {
    let p = &inst.puzzle;
    let t = &p.target;
    let partners = p.mirror_partners();
    let pieces: Vec<Value> = p
        .pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let mirror = if piece.is_achiral_coloured() {
                "itself".to_string()
            } else if let Some(pp) = &partners {
                format!("'{}'", p.pieces[pp[i]].name)
            } else {
                match p.mirror_images_of(i)[..] {
                    [] => "not in the set".to_string(),
                    ref js => js
                        .iter()
                        .map(|&j| format!("'{}'", p.pieces[j].name))
                        .collect::<Vec<_>>()
                        .join(" or "),
                }
            };
            json!({
                "name": piece.name,
                "letter": piece.letter.to_string(),
                "cells": piece.shape.len(),
                "count": piece.count,
                "min": piece.min_count,
                "orientations": inst.table.orientations()[i].len(),
                "placements": inst.table.by_piece()[i].len(),
                "mirror": mirror,
            })
        })
        .collect();
    let mut modes = vec![UpTo::Rotation, UpTo::RotationReflection];
    if p.default_up_to == Some(UpTo::BurrTools) {
        modes.push(UpTo::BurrTools);
    }
    let symmetry: Vec<Value> = modes
        .into_iter()
        .map(|mode| match inst.reducer(mode, false) {
            Ok(r) => json!({"mode": mode.to_string(), "describe": r.describe(p)}),
            Err(e) => json!({"mode": mode.to_string(), "error": Failure::from(e).message}),
        })
        .collect();
    let k = &p.known_counts;
    json!({
        "name": p.name,
        "description": p.description,
        "grid": p.grid.name(),
        "frame": frame_name(p.grid.frame()),
        "cell_noun": p.grid.cell_noun(),
        "can_disassemble": p.grid.can_disassemble(),
        "cells": t.cells().len(),
        "must": t.must_count(),
        "optional": t.optional_count(),
        "containers": sizes(p),
        "volume": [p.min_piece_volume(), p.piece_volume()],
        "pieces": pieces,
        "placements": inst.table.len(),
        "hints": p.hints.len(),
        "mirror": p.mirror,
        "counting": p.default_up_to.map(|u| u.to_string()),
        "symmetry": symmetry,
        "known": {"all": k.all, "rotation": k.rotation, "rotation+reflection": k.rotation_reflection, "source": k.source},
    })
}

/// The sheet (target with hints, pieces beside it) of a puzzle text as SVG, for the library.
pub fn sheet_svg(text: &str) -> Result<String, Failure> {
    let inst = Instance::new(parse(text)?)?;
    Ok(render::svg(&sheet(&inst), false))
}

/// One solution for the browser: text layers, SVG, the 3D page, the slide-in assembly steps.
pub fn solution_view(inst: &Instance, placements: &[u32], index: u64) -> Value {
    let title = format!("{}, solution {index}", inst.puzzle.name);
    let s = scene(&inst.puzzle, &inst.table, placements, &title, false);
    let order = render::assembly_order(&s);
    let steps: Vec<Value> = order
        .order
        .iter()
        .map(|&i| {
            let p = &s.pieces[i];
            json!({"name": p.name, "letter": p.letter.to_string(), "hint": p.hint})
        })
        .collect();
    json!({
        "index": index,
        "title": title,
        "text": render::text(&s, false),
        "svg": render::svg(&s, false),
        "html": render::html(std::slice::from_ref(&s)),
        "steps": steps,
        "complete": order.complete,
        "pieces": s.pieces.len(),
    })
}

/// Every named puzzle (the bundled ones, then the catalog's), one object each, as the
/// library page lists them: key, name, family, grid, description, sizes, the published
/// counts with their conventions and sources, cubesat's count in every mode, and for an open
/// puzzle its estimated cost, worded as `cubesat info` words them. Read once, without solving
/// anything: the text of the JSON list.
pub fn catalog() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let items: Vec<Value> = puzzle::named()
            .filter_map(|(key, _)| Some(entry(key, &puzzle::bundled(key).ok()?)))
            .collect();
        Value::Array(items).to_string()
    })
}

/// One entry of [`catalog`].
fn entry(key: &str, p: &Puzzle) -> Value {
    let c = p.catalog.as_ref();
    let k = &p.known_counts;
    let published: Vec<Value> = c.map_or_else(Vec::new, |c| {
        c.published
            .iter()
            .map(|x| {
                let agrees = x.agrees(&c.counts);
                json!({
                    "count": x.count,
                    "up_to": x.up_to.to_string(),
                    "phrase": x.up_to.phrase(),
                    "convention": x.convention,
                    "source": x.source,
                    "url": url(&x.source),
                    "agrees": agrees,
                    "verdict": match (&x.finding, agrees) {
                        (_, true) => "cubesat agrees",
                        (Some(f), false) if f.verdict == Verdict::Source => "cubesat differs, settled: the source is wrong",
                        (Some(_), false) => "cubesat differs, settled: another convention",
                        (None, false) => "cubesat differs",
                    },
                })
            })
            .collect()
    });
    let estimate = c
        .and_then(|c| c.incomplete.as_ref())
        .and_then(|i| i.estimate.as_ref());
    let status = match (c.and_then(Catalog::agrees), estimate) {
        (Some(false), _) => "disagreeing",
        (_, Some(_)) => "open",
        (Some(true), None) => "published",
        (None, None) => "unpublished",
    };
    let source = c
        .and_then(|c| c.incomplete.as_ref().map(|i| i.source.clone()))
        .or_else(|| k.source.clone());
    json!({
        "key": key,
        "name": p.name,
        "family": c.map_or("other", |c| c.family.as_str()),
        "grid": p.grid.name(),
        "description": p.description,
        "pieces": p.pieces.len(),
        "copies": p.pieces.iter().map(|x| x.count as u64).sum::<u64>(),
        "cells": p.target.cells().len(),
        "containers": sizes(p),
        "status": status,
        "published": published,
        "counts": c.map_or(Value::Null, |c| counts(&c.counts)),
        "incomplete": c.and_then(|c| c.incomplete.as_ref()).map(|i| json!({
            "source": i.source,
            "url": url(&i.source),
            "convention": i.convention,
        })),
        "source": source.as_deref().map(|s| json!({"text": s, "url": url(s)})),
        "estimate": estimate.map(|e| json!({
            "up_to": e.up_to.to_string(),
            "nodes": e.nodes,
            "cpu_seconds": e.cpu_seconds,
            "text": estimate_words(e),
            "cpu": human_seconds(e.cpu_seconds),
        })),
    })
}

/// cubesat's counts of a catalog record, by mode: a number, `"undefined"`, or null.
fn counts(c: &CatalogCounts) -> Value {
    let mut out = serde_json::Map::new();
    for m in CatalogCounts::MODES {
        let v = match c.get(m) {
            ModeCount::Count(n) => json!(n),
            ModeCount::Undefined => json!("undefined"),
            ModeCount::NotCounted => Value::Null,
        };
        out.insert(m.to_string(), v);
    }
    Value::Object(out)
}

/// The first web address a source names, if any.
fn url(source: &str) -> Option<&str> {
    let start = source.find("https://").or_else(|| source.find("http://"))?;
    let rest = &source[start..];
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>' | ')' | ']'))
        .unwrap_or(rest.len());
    Some(rest[..end].trim_end_matches(['.', ',', ';']))
}
