//! The HTML renderer: one self-contained page (works offline, no external references) with the
//! scenes embedded as compact JSON and an inline WebGL viewer written for it
//! (`VIEWER_JS`, `viewer.js` beside this file, embedded without its comment lines).
//!
//! The viewer draws each piece's cubes in its palette colour with directional shading and dark
//! edges (light edges for hints), or on the sphere grid its balls (unit diameter, at
//! [`crate::geometry::Grid::centre`], a light ring round a hint's, layers the balls' z), or on
//! the prism and hexagon grids their prisms (faces two of its prisms share left out, each face
//! outlined), or on the tetrahedral grids its tetrahedra (likewise); mouse or touch drag
//! rotates, the wheel zooms; a layer slider shows only z ≤ k, an explode slider pulls pieces apart from their container's centre, and
//! prev / play / next, a step slider and a speed step through the slide-in assembly order
//! computed here by [`assembly_order`] (with a message when no full order exists), each piece
//! lowered in or lifted out, or, for a scene with a disassembly plan ([`html_with_plans`]),
//! through the plan either way: taking it apart (the default) or putting it together (the plan
//! played backwards), each move slid both ways. Several scenes (e.g. every
//! solution) are paged with the solution prev / next buttons. The first frame is drawn
//! synchronously while the page loads.
//!
//! Page contract, relied on by the browser test: the canvas is `<canvas id="view">`; after every
//! frame `<div id="status">` carries `data-frames` (frames drawn), `data-webgl` (`1` when WebGL
//! works), `data-errors` (script errors and `console.error` messages, `|`-separated, absent when
//! none) and, for the first frame, `data-nonblank` (pixels differing from the background) and
//! `data-piece-pixels` (comma-separated, per piece of the shown scene: pixels whose colour is a
//! shade of that piece's colour), `data-step` (assembly steps shown), `data-moving` (`1` while a
//! step is animated). With a plan it also carries `data-apart`: `1` once every
//! piece's box, at its place in the plan, is clear of every other's (the pieces apart), else
//! `0`; and `window.cubesatPlayer` drives the player from a page that frames this one.
//!
//! Data format (`<script id="data" type="application/json">`), kept small for thousands of
//! solutions: `{"legend": [[name, mark, hint, "#rrggbb"], ...], "scenes": [{"t": title,
//! "c": [[ox, oy, oz, sx, sy, sz], ...], "g": [grid per container], "k": [legend index per
//! piece], "o": [insertion order], "f": complete, "a": 0 for loose pieces (no assembly to step
//! through; absent otherwise), "s": 1 for balls (the sphere grid), 2 for prisms (the prism
//! and hexagon grids), 3 for tetrahedra (the rhombic and tetra-octa grids; absent for cubes), "x": [piece, x, y, z, ...], and with a disassembly plan "p":
//! [[dx, dy, dz, piece, ...] per move], "pl": [assembly label per move], "dl": [disassembly
//! label per move], "pt": plan title}],
//! "tr": where prisms are drawn (on a page with prisms only: [`prism_frame`]), "te": where
//! tetrahedral cells are drawn (on a page with them only, "s" 3: [`tetra_frame`])}`. A mark is the
//! piece's letter, with its copy number for one of several copies (`b3`, drawn in a shade of
//! its own). A grid is a
//! string with one character per cell of its container, index `x + sx·(y + sy·z)`: `' '`
//! outside the target, `'.'` empty, otherwise the character with code 48 + piece index. A
//! container too large to draw cell by cell ([`super::drawn_cell_by_cell`]: a sparse shape in
//! a large box) has instead a list `[piece, x, y, z, ...]` of its cells (piece -1 for an empty
//! one), so the page grows with the cells, not with the box. Cells outside every container
//! (which a well-formed scene does not have) go to `"x"`, in the same form.

use super::{Container, Occupant, Scene, ScenePlan, assembly_order};
use crate::geometry::{CellShape, Grid};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The inline viewer script.
pub(crate) const VIEWER_JS: &str = include_str!("viewer.js");

/// The viewer as pages embed it: without its comment lines, which are for its readers here
/// and would make up a sixth of every page.
fn viewer_script() -> &'static str {
    static SCRIPT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SCRIPT.get_or_init(|| {
        VIEWER_JS
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| [l, "\n"])
            .collect()
    })
}

/// Render `scenes` (at least one; an empty slice gives a page saying there is nothing to show)
/// as one self-contained HTML page.
pub fn html(scenes: &[Scene]) -> String {
    html_with_plans(scenes, &[])
}

/// [`html`] with a disassembly plan for some scenes (`plans[i]` for `scenes[i]`): the page's
/// steps are then the plan's moves, played either way, instead of the slide-in order.
pub fn html_with_plans(scenes: &[Scene], plans: &[Option<ScenePlan>]) -> String {
    let mut legend = Legend::default();
    let out_scenes: Vec<Value> = scenes
        .iter()
        .enumerate()
        .map(|(i, scene)| {
            let keys = legend.keys(scene);
            scene_json(scene, keys, plans.get(i).and_then(Option::as_ref))
        })
        .collect();
    let mut data = json!({ "legend": legend.entries, "scenes": out_scenes });
    // A page shows one puzzle, so one grid of prisms: the first scene's of them.
    if let Some(s) = scenes
        .iter()
        .find(|s| s.grid.cell_shape() == CellShape::Prism)
    {
        data["tr"] = prism_frame(s.grid);
    }
    let tetra_grids: Vec<Grid> = Grid::ALL
        .into_iter()
        .filter(|&g| g.cell_shape() == CellShape::Tetrahedron)
        .filter(|&g| scenes.iter().any(|s| s.grid == g))
        .collect();
    if !tetra_grids.is_empty() {
        data["te"] = tetra_frame(&tetra_grids);
    }
    // Inside <script>, "</script>" or "<!--" in a string would end or confuse the element.
    let data = data.to_string().replace('<', "\\u003c");
    page(scenes, &data)
}

/// The legend of a page: one entry per distinct (name, mark, hint, colour) over all scenes.
#[derive(Default)]
struct Legend {
    entries: Vec<Value>,
    index: HashMap<(String, String, bool, String), usize>,
}

impl Legend {
    /// The legend index of each piece of `scene`, adding the entries not there yet.
    fn keys(&mut self, scene: &Scene) -> Vec<usize> {
        let copies = scene.copies();
        scene
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let colour = scene.colour(i, copies[i]).hex();
                let mark = scene.mark(i, copies[i]);
                let key = (p.name.clone(), mark.clone(), p.hint, colour.clone());
                *self.index.entry(key).or_insert_with(|| {
                    self.entries.push(json!([p.name, mark, p.hint, colour]));
                    self.entries.len() - 1
                })
            })
            .collect()
    }
}

/// One scene's entry in the page's data (its keys are in the module documentation).
fn scene_json(scene: &Scene, keys: Vec<usize>, plan: Option<&ScenePlan>) -> Value {
    let occupancy = scene.occupancy();
    let mut cells: Vec<(&[i32; 3], &Occupant)> = occupancy.iter().collect();
    cells.sort();
    let stray: Vec<i64> = cells
        .iter()
        .filter(|(c, _)| scene.container_of(**c).is_none())
        .flat_map(|(c, o)| tagged(c, o))
        .collect();
    let grids: Vec<Value> = scene
        .containers
        .iter()
        .enumerate()
        .map(|(k, cont)| {
            if super::drawn_cell_by_cell(cont) {
                char_grid(scene, k, cont, &occupancy)
            } else {
                // Too large a box for one character per cell: its cells as a flat list of
                // [tag, x, y, z], as for stray cells.
                let list: Vec<i64> = cells
                    .iter()
                    .filter(|(c, _)| scene.container_of(**c) == Some(k))
                    .flat_map(|(c, o)| tagged(c, o))
                    .collect();
                json!(list)
            }
        })
        .collect();
    let assembly = assembly_order(scene);
    let mut s = json!({
        "t": scene.title,
        "c": scene.containers.iter().map(|c| {
            [c.origin[0], c.origin[1], c.origin[2], c.size[0], c.size[1], c.size[2]]
        }).collect::<Vec<_>>(),
        "g": grids,
        "k": keys,
        "o": assembly.order,
        "f": assembly.complete,
    });
    if !stray.is_empty() {
        s["x"] = json!(stray);
    }
    if scene.loose {
        s["a"] = json!(0);
    }
    match scene.grid.cell_shape() {
        // The viewer draws cubes unless told otherwise.
        CellShape::Cube => {}
        CellShape::Ball => s["s"] = json!(1),
        // Where prisms are drawn comes once per page ("tr", [`prism_frame`]).
        CellShape::Prism => s["s"] = json!(2),
        CellShape::Tetrahedron => s["s"] = json!(3),
    }
    if let Some(plan) = plan {
        add_plan(&mut s, plan);
    }
    s
}

/// Where the viewer draws a prism of `grid`, given once per page (the page's `"tr"`):
/// `[[ax, ay], [pu, pv], t0, t1, ...]`, cell `[u, v, z]`'s polygon having its centre at
/// `(u·ax, v·ay)` and its corners at the centre plus `t` number `(u mod pu)·pv + v mod pv`
/// (flat `[x, y, x, y, ...]`, counter-clockwise; empty for a class that holds no cell), its
/// layer `z` to `z + 1`. Read off [`Grid::centre`] and [`Grid::polygon`], so the page knows
/// no geometry of its own: a cell's polygon depends only on its class ([`polygon_period`]):
/// on the prism grid `[1, 3]` (an upward triangle for `v mod 3 = 1`, a downward one for 2),
/// on the hexagon grid `[1, 1]` (one hexagon).
fn prism_frame(grid: Grid) -> Value {
    let origin = grid.centre([0, 0, 0]);
    let scale = [
        grid.centre([1, 0, 0])[0] - origin[0],
        grid.centre([0, 1, 0])[1] - origin[1],
    ];
    let period = polygon_period(grid);
    let mut frame = vec![json!(scale), json!(period)];
    for a in 0..period[0] {
        for b in 0..period[1] {
            let corners: Vec<f64> = (0..PERIOD_PATCH)
                .flat_map(|j| {
                    (0..PERIOD_PATCH).map(move |i| [a + period[0] * i, b + period[1] * j, 0])
                })
                .find(|&c| grid.is_cell(c))
                .map(|c| corner_offsets(grid, c).into_iter().flatten().collect())
                .unwrap_or_default();
            frame.push(json!(corners));
        }
    }
    json!(frame)
}

/// How many cells along each of `u` and `v` [`polygon_period`] compares.
const PERIOD_PATCH: i32 = 12;

/// A cell's polygon about its centre ([`Grid::polygon`] less [`Grid::centre`]).
fn corner_offsets(grid: Grid, c: [i32; 3]) -> Vec<[f64; 2]> {
    let centre = grid.centre(c);
    grid.polygon(c)
        .expect("a prism cell has a polygon")
        .iter()
        .map(|p| [p[0] - centre[0], p[1] - centre[1]])
        .collect()
}

/// The least `[pu, pv]` (by `pu·pv`, then `pu`) such that the cells of `grid` whose `u`
/// agree mod `pu` and `v` mod `pv` have the same polygon about their centres, over a patch
/// of cells; the viewer tells a cell's polygon by that class.
fn polygon_period(grid: Grid) -> [i32; 2] {
    let cells: Vec<[i32; 3]> = (0..PERIOD_PATCH)
        .flat_map(|u| (0..PERIOD_PATCH).map(move |v| [u, v, 0]))
        .filter(|&c| grid.is_cell(c))
        .collect();
    let shapes: Vec<Vec<[f64; 2]>> = cells.iter().map(|&c| corner_offsets(grid, c)).collect();
    let same = |p: &[[f64; 2]], q: &[[f64; 2]]| {
        p.len() == q.len()
            && p.iter()
                .zip(q)
                .all(|(a, b)| (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9)
    };
    let mut candidates: Vec<[i32; 2]> = (1..=6)
        .flat_map(|pu| (1..=6).map(move |pv| [pu, pv]))
        .collect();
    candidates.sort_by_key(|&[pu, pv]| (pu * pv, pu));
    candidates
        .into_iter()
        .find(|&[pu, pv]| {
            let mut first: HashMap<[i32; 2], usize> = HashMap::new();
            cells.iter().enumerate().all(|(k, c)| {
                let class = [c[0].rem_euclid(pu), c[1].rem_euclid(pv)];
                let f = *first.entry(class).or_insert(k);
                same(&shapes[f], &shapes[k])
            })
        })
        .expect("a grid of prisms repeats its polygons")
}

/// Where the viewer draws a tetrahedral cell, given once per page (the page's `"te"`, on a
/// page with such cells only): `{"x,y,z": [n, dx0, dy0, dz0, ..., dz3]}` for every kind of
/// cell of `grids`, keyed by the cell's coordinates mod 8: its four corners are at
/// `(cell + d) / n` in cube units, `n` its grid's cells per cube. Both grids repeat every 8
/// cells along each axis (the rhombic grid every cube of 8, the tetra-octa grid every two
/// cubes of 4), and their keys do not collide (a rhombic cell has a coordinate 4 mod 8, a
/// tetra-octa cell none), so one table serves a page of both. Read off [`Grid::centre`] and
/// [`Grid::tetrahedron`], so the page knows no geometry of its own.
fn tetra_frame(grids: &[Grid]) -> Value {
    let mut frame = serde_json::Map::new();
    for &grid in grids {
        let n = (1.0 / grid.centre([1, 0, 0])[0]).round();
        for x in 0..8 {
            for y in 0..8 {
                for z in 0..8 {
                    let c = [x, y, z];
                    let Some(t) = grid.tetrahedron(c) else {
                        continue;
                    };
                    let mut entry = vec![n as i64];
                    for p in t {
                        for a in 0..3 {
                            entry.push((p[a] * n).round() as i64 - i64::from(c[a]));
                        }
                    }
                    frame.insert(format!("{x},{y},{z}"), json!(entry));
                }
            }
        }
    }
    Value::Object(frame)
}

/// A disassembly plan's keys in a scene's entry: its moves, their labels both ways, its title.
fn add_plan(s: &mut Value, plan: &ScenePlan) {
    // Moves in disassembly order: [dx, dy, dz, piece, piece, ...].
    let moves: Vec<Vec<i64>> = plan
        .moves
        .iter()
        .map(|m| {
            let mut v: Vec<i64> = m.shift.iter().map(|&d| d as i64).collect();
            v.extend(m.pieces.iter().map(|&p| p as i64));
            v
        })
        .collect();
    s["p"] = json!(moves);
    s["pl"] = json!(
        plan.moves
            .iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
    );
    s["dl"] = json!(
        plan.moves
            .iter()
            .map(|m| m.took.as_str())
            .collect::<Vec<_>>()
    );
    s["pt"] = json!(plan.title);
}

/// A cell as the page lists it: `[piece, x, y, z]`, piece -1 for an empty cell.
fn tagged(c: &[i32; 3], o: &Occupant) -> [i64; 4] {
    let tag = match o {
        Occupant::Piece(i) => *i as i64,
        Occupant::Empty => -1,
    };
    [tag, c[0] as i64, c[1] as i64, c[2] as i64]
}

/// Container `k`'s grid string: one character per cell of its box.
fn char_grid(
    scene: &Scene,
    k: usize,
    cont: &Container,
    occupancy: &HashMap<[i32; 3], Occupant>,
) -> Value {
    let [ox, oy, oz] = cont.origin;
    let [sx, sy, sz] = cont.size;
    let mut g = String::new();
    for z in 0..sz {
        for y in 0..sy {
            for x in 0..sx {
                let c = [ox + x, oy + y, oz + z];
                // A cell inside two overlapping containers belongs to the first.
                let mine = scene.container_of(c) == Some(k);
                g.push(match occupancy.get(&c) {
                    Some(_) if !mine => ' ',
                    Some(Occupant::Piece(i)) => piece_char(*i),
                    Some(Occupant::Empty) => '.',
                    None => ' ',
                });
            }
        }
    }
    Value::String(g)
}

/// The page: the template's head, the data, the viewer.
fn page(scenes: &[Scene], data: &str) -> String {
    let title = scenes
        .first()
        .map(|s| s.title.as_str())
        .filter(|t| !t.is_empty())
        .unwrap_or("cubesat");
    let viewer = viewer_script();
    let mut page = String::with_capacity(TEMPLATE_HEAD.len() + data.len() + viewer.len() + 512);
    page.push_str(
        &TEMPLATE_HEAD
            .replace("{VERSION}", env!("CARGO_PKG_VERSION"))
            .replace("{COUNT}", &scenes.len().to_string())
            .replace("{TITLE}", &super::xml_escape(title)),
    );
    page.push_str("<script id=\"data\" type=\"application/json\">");
    page.push_str(data);
    page.push_str("</script>\n<script>\n");
    page.push_str(viewer);
    page.push_str("</script>\n</body>\n</html>\n");
    page
}

/// The grid character of piece `i`: code point 48 + i, skipping the surrogate range.
fn piece_char(i: usize) -> char {
    let code = 48 + i as u32;
    let code = if code >= 0xd800 { code + 0x800 } else { code };
    char::from_u32(code).unwrap_or('\u{fffd}')
}

const TEMPLATE_HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<!-- Generated by cubesat {VERSION} (render::html): {COUNT} scene(s) and an inline WebGL viewer.
     Self-contained: no network, no external scripts, styles or fonts. Drag to rotate, wheel to zoom. -->
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{TITLE}</title>
<style>
html, body { margin: 0; height: 100%; font: 13px/1.4 sans-serif; color: #222; background: #f5f5f7; }
body { display: flex; flex-direction: column; }
#bar { display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; padding: 6px 10px; background: #fff; border-bottom: 1px solid #ddd; }
#bar h1 { font-size: 15px; margin: 0; }
#bar button { font: inherit; padding: 1px 8px; }
#bar input[type=range] { vertical-align: middle; width: 110px; }
#msg { color: #a33; }
#msg:empty { display: none; }
#wrap { position: relative; flex: 1; min-height: 200px; }
#view { position: absolute; left: 0; top: 0; width: 100%; height: 100%; touch-action: none; cursor: grab; display: block; }
#legend { position: absolute; right: 8px; top: 8px; background: rgba(255,255,255,0.85); padding: 4px 8px; border-radius: 4px; max-height: 90%; overflow: auto; }
#legend div { white-space: nowrap; }
#legend .off { opacity: 0.35; }
#legend i { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border: 1px solid #333; vertical-align: -1px; }
#nogl { position: absolute; left: 20px; top: 20px; color: #a33; }
</style>
<script>
// Record script errors and console.error calls where a test (or a curious user) can read them.
window.cubesatErrors = [];
window.cubesatNote = function (m) {
  window.cubesatErrors.push(String(m));
  var s = document.getElementById('status');
  if (s) s.setAttribute('data-errors', window.cubesatErrors.join(' | '));
};
window.addEventListener('error', function (e) { window.cubesatNote(e.message || 'error'); });
(function () {
  var ce = console.error;
  console.error = function () { window.cubesatNote(Array.prototype.join.call(arguments, ' ')); return ce.apply(console, arguments); };
})();
</script>
</head>
<body>
<div id="bar">
<h1 id="title"></h1>
<span id="solnav"><button id="sprev" title="previous solution">&laquo;</button> <span id="sinfo"></span> <button id="snext" title="next solution">&raquo;</button></span>
<span id="asm"><span id="aword">assembly</span><label id="adirbox">direction <select id="adir"><option value="apart">taking it apart</option><option value="together">putting it together</option></select></label> <button id="aprev" type="button" title="one step back">prev</button> <button id="aplay" type="button">play</button> <button id="anext" type="button" title="one step on">next</button> <label>step <input id="ascrub" type="range" min="0" max="0" value="0"></label> <label>speed <select id="aspeed"><option value="0.5">&frac12;&times;</option><option value="1" selected>1&times;</option><option value="2">2&times;</option><option value="4">4&times;</option></select></label> <span id="ainfo" aria-live="polite"></span></span>
<label>layers z &le; <span id="lval"></span> <input id="layer" type="range" min="0" max="0" value="0"></label>
<label>explode <input id="explode" type="range" min="0" max="100" value="0"></label>
<span id="msg"></span>
</div>
<div id="wrap"><canvas id="view" width="800" height="500"></canvas><div id="legend"></div></div>
<div id="status" hidden></div>
"#;

#[cfg(test)]
mod tests {
    use super::super::samples;
    use super::*;

    #[test]
    fn grid_encoding() {
        let page = html(&[samples::two_boxes()]);
        // Box 1: z=0 rows y=0 then y=1: "o o L L" then "I I I I"; pieces in order I, o, L, T.
        assert!(page.contains(r#""g":["1122000011323332","#), "{page}");
        assert_eq!(piece_char(0), '0');
        assert_ne!(piece_char(0xd800 - 48), '\u{fffd}');
    }

    #[test]
    fn legend_is_shared_between_scenes() {
        let page = html(&[samples::tetris_cube(), samples::tetris_cube()]);
        assert_eq!(page.matches(r#""piece 3""#).count(), 1);
        assert_eq!(
            page.matches(r#""k":[0,1,2,3,4,5,6,7,8,9,10,11]"#).count(),
            2
        );
    }

    #[test]
    fn script_breakers_are_escaped() {
        let mut s = samples::two_boxes();
        s.title = "</script><script>alert(1)</script>".into();
        let page = html(&[s]);
        assert_eq!(
            page.matches("</script>").count(),
            3,
            "head script, data, viewer"
        );
    }

    #[test]
    fn prism_frame_gives_every_cell_its_polygon() {
        // The viewer's rule, over cells on both sides of the origin: the centre (u·ax, v·ay)
        // plus the corners of class (u mod pu)·pv + v mod pv are the grid's polygon.
        for (grid, period, corners) in [(Grid::Prism, [1, 3], 3), (Grid::Hexagon, [1, 1], 6)] {
            let frame = prism_frame(grid);
            let f = |v: &Value| v.as_f64().unwrap();
            assert_eq!(frame[1], json!(period), "{grid:?}");
            let (ax, ay) = (f(&frame[0][0]), f(&frame[0][1]));
            for u in -7..7 {
                for v in -7..7 {
                    let c = [u, v, 2];
                    let Some(poly) = grid.polygon(c).filter(|_| grid.is_cell(c)) else {
                        continue;
                    };
                    let class = u.rem_euclid(period[0]) * period[1] + v.rem_euclid(period[1]);
                    let t = frame[2 + class as usize].as_array().unwrap();
                    assert_eq!(t.len(), 2 * corners, "{grid:?} {c:?}");
                    for (i, p) in poly.iter().enumerate() {
                        let x = f64::from(u) * ax + f(&t[2 * i]);
                        let y = f64::from(v) * ay + f(&t[2 * i + 1]);
                        assert!((x - p[0]).abs() < 1e-12 && (y - p[1]).abs() < 1e-12);
                    }
                }
            }
        }
    }

    #[test]
    fn tetra_frame_has_every_kind_of_cell_once() {
        // 24 kinds of the rhombic grid (a cube of 8), 40 of the tetra-octa grid (eight cubes
        // of 4, five cells each), keys apart; each entry the corners as the grid has them.
        let frame = tetra_frame(&[Grid::Rhombic, Grid::TetraOcta]);
        let map = frame.as_object().unwrap();
        assert_eq!(map.len(), 24 + 40);
        for (grid, c) in [(Grid::Rhombic, [9, -6, 12]), (Grid::TetraOcta, [-1, 5, 9])] {
            assert!(grid.is_cell(c), "{c:?}");
            let k = c.map(|v| v.rem_euclid(8));
            let e = map[&format!("{},{},{}", k[0], k[1], k[2])]
                .as_array()
                .unwrap();
            let n = e[0].as_f64().unwrap();
            let t = grid.tetrahedron(c).unwrap();
            for (i, p) in t.iter().enumerate() {
                for a in 0..3 {
                    let d = e[1 + 3 * i + a].as_f64().unwrap();
                    assert_eq!((f64::from(c[a]) + d) / n, p[a], "{grid:?} {c:?}");
                }
            }
        }
    }
}
