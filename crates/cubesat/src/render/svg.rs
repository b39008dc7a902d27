//! The SVG renderer: an isometric picture of a scene with exact hidden-face removal, a title and
//! a legend; optionally exploded.
//!
//! The view looks from (+x, -y, +z) towards the scene, so the top (+z), front (-y) and right (+x)
//! faces of cubes are the visible ones, shaded light, medium and dark. A point (x, y, z)
//! projects onto the integer lattice `a = x + y`, `b = x - y - 2z` (screen x = a·√3/2·u,
//! screen y = b·u/2 for a cube edge of u pixels) and lies at depth `x - y + z` towards the
//! viewer. Every cube face projects onto exactly two triangles of that lattice, so hidden faces
//! are removed exactly: for each lattice triangle only the face nearest the viewer is kept
//! (faces between two occupied cells are dropped first). That is the painter's algorithm done
//! per lattice triangle: what is drawn never overlaps, so the faces of each piece can sit
//! together in one `<g id="piece-N">` (N = index in the scene) while the picture stays correct.
//!
//! Exploded view: every piece is moved away from its container's centre by
//! [`EXPLODE_FACTOR`] times its centroid's offset, rounded to whole cells (so the lattice, and
//! exact hiding, still apply); faces between different pieces then show.
//!
//! Empty target cells are drawn as pale ghost cubes (group `empty`), container floors as pale
//! outlines. Edges: dark lines where two different pieces (or a piece and the background) meet,
//! faint lines between the cubes of one piece. The output is deterministic (fixed number
//! formatting, ordered maps) and self-contained: no external references, generic font family.

use super::{Occupant, Scene, centroid, piece_color, xml_escape};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Pixels per cube edge.
pub const UNIT: f64 = 28.0;
/// How far [`svg`] with `explode` pushes pieces out, as a multiple of their centroid offset.
pub const EXPLODE_FACTOR: f64 = 1.5;

const MARGIN: f64 = 16.0;
const TITLE_HEIGHT: f64 = 30.0;
const LEGEND_ROW: f64 = 20.0;
const LEGEND_GAP: f64 = 28.0;
const LEGEND_WIDTH_PER_CHAR: f64 = 7.5;
/// Brightness of the top, front and right faces.
const SHADE: [f64; 3] = [1.0, 0.8, 0.62];
const GHOST: super::Rgb = super::Rgb {
    r: 0xe4,
    g: 0xe4,
    b: 0xe4,
};

type Lattice = (i32, i32);

struct Face {
    owner: Occupant,
    /// 0 top, 1 front, 2 right.
    kind: usize,
    verts: [[i32; 3]; 4],
}

fn lattice(p: [i32; 3]) -> Lattice {
    (p[0] + p[1], p[0] - p[1] - 2 * p[2])
}

fn depth(p: [i32; 3]) -> i32 {
    p[0] - p[1] + p[2]
}

/// The two triangles of a face (indices into its four vertices), split along the diagonal that
/// is a lattice edge.
fn triangles(verts: &[[i32; 3]; 4]) -> [[usize; 3]; 2] {
    let (a0, b0) = lattice(verts[0]);
    let (a2, b2) = lattice(verts[2]);
    let (da, db) = ((a2 - a0).abs(), (b2 - b0).abs());
    if (da, db) == (1, 1) || (da, db) == (0, 2) {
        [[0, 1, 2], [0, 2, 3]]
    } else {
        [[0, 1, 3], [1, 2, 3]]
    }
}

/// The integer offsets each piece is moved by (all zero unless exploded).
fn offsets(scene: &Scene, explode: bool) -> Vec<[i32; 3]> {
    scene
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| match (explode, centroid(&p.cells)) {
            (true, Some(c)) => {
                let centre = scene.explode_center(i);
                std::array::from_fn(|k| ((c[k] - centre[k]) * EXPLODE_FACTOR).round() as i32)
            }
            _ => [0, 0, 0],
        })
        .collect()
}

/// Render `scene` as a standalone SVG document; `explode` pulls the pieces apart.
pub fn svg(scene: &Scene, explode: bool) -> String {
    // Cubes after explosion; the first occupant of a cell wins.
    let offs = offsets(scene, explode);
    let mut cubes: Vec<([i32; 3], Occupant)> = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        for c in &p.cells {
            let o = offs[i];
            cubes.push(([c[0] + o[0], c[1] + o[1], c[2] + o[2]], Occupant::Piece(i)));
        }
    }
    for &c in &scene.empty {
        cubes.push((c, Occupant::Empty));
    }
    let mut occupied: HashMap<[i32; 3], Occupant> = HashMap::new();
    let mut unique = Vec::new();
    for (c, o) in cubes {
        if let std::collections::hash_map::Entry::Vacant(e) = occupied.entry(c) {
            e.insert(o);
            unique.push((c, o));
        }
    }
    // A piece face is hidden by a neighbouring piece cube only (ghosts are see-through); a
    // ghost face by any neighbouring cube.
    let covers = |neighbour: &[i32; 3], owner: Occupant| match (owner, occupied.get(neighbour)) {
        (_, None) => false,
        (Occupant::Empty, Some(_)) => true,
        (Occupant::Piece(_), Some(o)) => matches!(o, Occupant::Piece(_)),
    };

    // Faces not covered by a neighbouring cube.
    let mut faces: Vec<Face> = Vec::new();
    for &([x, y, z], owner) in &unique {
        let candidates = [
            (
                [x, y, z + 1],
                [
                    [x, y, z + 1],
                    [x + 1, y, z + 1],
                    [x + 1, y + 1, z + 1],
                    [x, y + 1, z + 1],
                ],
            ),
            (
                [x, y - 1, z],
                [[x, y, z], [x + 1, y, z], [x + 1, y, z + 1], [x, y, z + 1]],
            ),
            (
                [x + 1, y, z],
                [
                    [x + 1, y, z],
                    [x + 1, y + 1, z],
                    [x + 1, y + 1, z + 1],
                    [x + 1, y, z + 1],
                ],
            ),
        ];
        for (kind, (neighbour, verts)) in candidates.into_iter().enumerate() {
            if !covers(&neighbour, owner) {
                faces.push(Face { owner, kind, verts });
            }
        }
    }

    // Nearest piece face and nearest ghost face per lattice triangle (key: the sum of its
    // vertices, i.e. 3 × centroid). Ghosts show (translucent) only in front of pieces.
    let mut nearest: [HashMap<Lattice, (i32, usize)>; 2] = [HashMap::new(), HashMap::new()];
    let layer = |face: &Face| usize::from(face.owner == Occupant::Empty);
    for (f, face) in faces.iter().enumerate() {
        for tri in triangles(&face.verts) {
            let key = tri_key(face, tri);
            let d: i32 = tri.iter().map(|&v| depth(face.verts[v])).sum();
            let e = nearest[layer(face)].entry(key).or_insert((d, f));
            if d > e.0 {
                *e = (d, f);
            }
        }
    }
    let visible: Vec<[bool; 2]> = faces
        .iter()
        .enumerate()
        .map(|(f, face)| {
            let t = triangles(&face.verts);
            [0, 1].map(|k| {
                let key = tri_key(face, t[k]);
                let (d, g) = nearest[layer(face)][&key];
                g == f
                    && (layer(face) == 0
                        || nearest[0].get(&key).is_none_or(|&(piece_d, _)| d > piece_d))
            })
        })
        .collect();

    // Edges between visible triangles, per layer: lattice segment -> faces on its sides.
    let mut edges: [BTreeMap<(Lattice, Lattice), Vec<usize>>; 2] = Default::default();
    for (f, face) in faces.iter().enumerate() {
        for (k, tri) in triangles(&face.verts).into_iter().enumerate() {
            if !visible[f][k] {
                continue;
            }
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                let p = lattice(face.verts[tri[i]]);
                let q = lattice(face.verts[tri[j]]);
                edges[layer(face)]
                    .entry((p.min(q), p.max(q)))
                    .or_default()
                    .push(f);
            }
        }
    }

    // Container floors.
    let floors: Vec<[Lattice; 4]> = scene
        .containers
        .iter()
        .filter(|_| !explode)
        .map(|c| {
            let [x, y, z] = c.origin;
            let [sx, sy, _] = c.size;
            [
                [x, y, z],
                [x + sx, y, z],
                [x + sx, y + sy, z],
                [x, y + sy, z],
            ]
            .map(lattice)
        })
        .collect();

    // Picture extent in lattice units.
    let mut lo = (i32::MAX, i32::MAX);
    let mut hi = (i32::MIN, i32::MIN);
    let mut extend = |p: Lattice| {
        lo = (lo.0.min(p.0), lo.1.min(p.1));
        hi = (hi.0.max(p.0), hi.1.max(p.1));
    };
    for (p, q) in edges.iter().flat_map(|e| e.keys()) {
        extend(*p);
        extend(*q);
    }
    for f in &floors {
        f.iter().for_each(|&p| extend(p));
    }
    if lo.0 > hi.0 {
        lo = (0, 0);
        hi = (0, 0);
    }
    let sx = UNIT * 3f64.sqrt() / 2.0;
    let sy = UNIT / 2.0;
    let pic_w = (hi.0 - lo.0) as f64 * sx;
    let pic_h = (hi.1 - lo.1) as f64 * sy;
    let tx = MARGIN - lo.0 as f64 * sx;
    let ty = MARGIN + TITLE_HEIGHT - lo.1 as f64 * sy;
    let pt = |p: Lattice| {
        format!(
            "{} {}",
            num(p.0 as f64 * sx + tx),
            num(p.1 as f64 * sy + ty)
        )
    };

    // Legend size.
    let mut legend: Vec<(String, super::Rgb)> = scene
        .pieces
        .iter()
        .map(|p| {
            let hint = if p.hint { " (hint)" } else { "" };
            (
                if p.name.chars().eq(std::iter::once(p.letter)) {
                    format!("{}{hint}", p.letter)
                } else {
                    format!("{}  {}{hint}", p.letter, p.name)
                },
                piece_color(p.color),
            )
        })
        .collect();
    if !scene.empty.is_empty() {
        legend.push(("·  empty".to_string(), GHOST));
    }
    let legend_chars = legend
        .iter()
        .map(|l| l.0.chars().count())
        .max()
        .unwrap_or(0);
    let legend_w = if legend.is_empty() {
        0.0
    } else {
        LEGEND_GAP + 18.0 + legend_chars as f64 * LEGEND_WIDTH_PER_CHAR
    };
    let legend_h = legend.len() as f64 * LEGEND_ROW;
    let title_w = scene.title.chars().count() as f64 * 9.0;
    let width = (MARGIN * 2.0 + pic_w + legend_w)
        .max(MARGIN * 2.0 + title_w)
        .ceil();
    let height = (MARGIN * 2.0 + TITLE_HEIGHT + pic_h.max(legend_h)).ceil();

    let mut s = String::new();
    let title = xml_escape(&scene.title);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        "<!-- Generated by cubesat {} (render::svg): isometric view{}, {} pieces. Self-contained; no external references. -->",
        env!("CARGO_PKG_VERSION"),
        if explode { ", exploded" } else { "" },
        scene.pieces.len()
    );
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(s, "<title>{title}</title>");
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="17" font-weight="bold" fill="#222222">{title}</text>"##,
        num(MARGIN),
        num(MARGIN + 16.0)
    );
    let _ = writeln!(
        s,
        r##"<g id="floors" fill="#f3f3f3" stroke="#bbbbbb" stroke-width="1" stroke-linejoin="round">"##
    );
    for f in &floors {
        let _ = writeln!(
            s,
            r#"<path d="M{} L{} L{} L{} Z"/>"#,
            pt(f[0]),
            pt(f[1]),
            pt(f[2]),
            pt(f[3])
        );
    }
    let _ = writeln!(s, "</g>");

    // One group per piece (then the ghost cubes), one path per shade.
    let mut groups: Vec<(Occupant, String)> = (0..scene.pieces.len())
        .map(|i| (Occupant::Piece(i), String::new()))
        .collect();
    groups.push((Occupant::Empty, String::new()));
    for (owner, body) in groups.iter_mut() {
        let (base, extra) = match owner {
            Occupant::Piece(_) => (
                piece_color_of(scene, *owner),
                r#" stroke-width="0.6" stroke-linejoin="round""#,
            ),
            Occupant::Empty => (GHOST, r#" fill-opacity="0.55" stroke="none""#),
        };
        let mut marks = String::new();
        for (kind, shade) in SHADE.iter().enumerate() {
            let mut d = String::new();
            for (f, face) in faces.iter().enumerate() {
                if face.owner != *owner || face.kind != kind {
                    continue;
                }
                let vis = visible[f];
                let idx: Vec<usize> = match vis {
                    [true, true] => vec![0, 1, 2, 3],
                    [false, false] => continue,
                    _ => triangles(&face.verts)[usize::from(vis[1])].to_vec(),
                };
                for (n, &v) in idx.iter().enumerate() {
                    d.push_str(if n == 0 { "M" } else { " L" });
                    d.push_str(&pt(lattice(face.verts[v])));
                }
                d.push_str(" Z");
                // Hints: a white dot in the middle of each fully visible face.
                if let (Occupant::Piece(i), [true, true]) = (*owner, vis)
                    && scene.pieces[i].hint
                {
                    let (a0, b0) = lattice(face.verts[0]);
                    let (a2, b2) = lattice(face.verts[2]);
                    let _ = write!(
                        marks,
                        "M{} {} h0 ",
                        num((a0 + a2) as f64 / 2.0 * sx + tx),
                        num((b0 + b2) as f64 / 2.0 * sy + ty)
                    );
                }
            }
            if !d.is_empty() {
                let c = base.scaled(*shade).hex();
                let stroke = if *owner == Occupant::Empty {
                    String::new()
                } else {
                    format!(r#" stroke="{c}""#)
                };
                let _ = writeln!(body, r#"<path fill="{c}"{stroke}{extra} d="{d}"/>"#);
            }
        }
        if !marks.is_empty() {
            let _ = writeln!(
                body,
                r##"<path class="hint-mark" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round" d="{}"/>"##,
                marks.trim_end()
            );
        }
    }

    // Edges: strong between different owners and on the outline, faint inside a piece; ghost
    // cubes get grey outlines inside their own group.
    let mut strong = String::new();
    let mut faint = String::new();
    let mut ghost = String::new();
    for (layer, edges) in edges.iter().enumerate() {
        for ((p, q), fs) in edges {
            let target = match fs.as_slice() {
                [f, g] if f == g => continue,
                _ if layer == 1 => &mut ghost,
                [_] => &mut strong,
                [f, g] if faces[*f].owner == faces[*g].owner => &mut faint,
                _ => &mut strong,
            };
            let _ = write!(target, "M{} L{} ", pt(*p), pt(*q));
        }
    }
    if !ghost.is_empty() {
        let _ = writeln!(
            groups.last_mut().expect("ghost group").1,
            r##"<path fill="none" stroke="#888888" stroke-width="0.8" stroke-dasharray="3 2" d="{}"/>"##,
            ghost.trim_end()
        );
    }

    let (ghost_group, piece_groups) = groups.split_last().expect("ghost group");
    for (owner, body) in piece_groups {
        let Occupant::Piece(i) = owner else { continue };
        let p = &scene.pieces[*i];
        let _ = writeln!(
            s,
            r#"<g id="piece-{i}" data-letter="{}" data-name="{}" data-hint="{}">"#,
            xml_escape(&p.letter.to_string()),
            xml_escape(&p.name),
            p.hint
        );
        let _ = writeln!(
            s,
            "<title>{}: {}{}</title>",
            xml_escape(&p.letter.to_string()),
            xml_escape(&p.name),
            if p.hint { " (hint)" } else { "" }
        );
        s.push_str(body);
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(
        s,
        r##"<g id="edges" fill="none" stroke-linecap="round"><path stroke="#000000" stroke-opacity="0.3" stroke-width="0.8" d="{}"/><path stroke="#222222" stroke-width="1.6" d="{}"/></g>"##,
        faint.trim_end(),
        strong.trim_end()
    );
    if !ghost_group.1.is_empty() {
        let _ = writeln!(s, r#"<g id="empty"><title>empty target cells</title>"#);
        s.push_str(&ghost_group.1);
        let _ = writeln!(s, "</g>");
    }

    // Legend.
    if !legend.is_empty() {
        let lx = MARGIN + pic_w + LEGEND_GAP;
        let _ = writeln!(s, r##"<g id="legend" font-size="13" fill="#222222">"##);
        for (k, (label, colour)) in legend.iter().enumerate() {
            let y = MARGIN + TITLE_HEIGHT + k as f64 * LEGEND_ROW;
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="13" height="13" fill="{}" stroke="#222222" stroke-width="0.8"/><text x="{}" y="{}">{}</text>"##,
                num(lx),
                num(y + 1.0),
                colour.hex(),
                num(lx + 19.0),
                num(y + 12.0),
                xml_escape(label)
            );
        }
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</svg>");
    s
}

fn piece_color_of(scene: &Scene, owner: Occupant) -> super::Rgb {
    match owner {
        Occupant::Piece(i) => piece_color(scene.pieces[i].color),
        Occupant::Empty => GHOST,
    }
}

fn tri_key(face: &Face, tri: [usize; 3]) -> Lattice {
    tri.iter().fold((0, 0), |acc, &v| {
        let (a, b) = lattice(face.verts[v]);
        (acc.0 + a, acc.1 + b)
    })
}

/// A coordinate rounded to 0.1 without a negative zero.
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0 + 0.0;
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::super::{Container, ScenePiece};
    use super::*;

    fn cube_scene() -> Scene {
        Scene {
            title: "two".into(),
            containers: vec![Container {
                origin: [0, 0, 0],
                size: [2, 1, 1],
            }],
            pieces: vec![
                ScenePiece {
                    name: "a".into(),
                    letter: 'A',
                    hint: false,
                    cells: vec![[0, 0, 0]],
                    color: 0,
                },
                ScenePiece {
                    name: "b".into(),
                    letter: 'B',
                    hint: false,
                    cells: vec![[1, 0, 0]],
                    color: 1,
                },
            ],
            empty: vec![],
        }
    }

    #[test]
    fn shared_faces_are_hidden() {
        let s = svg(&cube_scene(), false);
        // Piece A: top and front only (its right face touches B).
        let a = &s[s.find(r#"<g id="piece-0""#).unwrap()..s.find(r#"<g id="piece-1""#).unwrap()];
        assert_eq!(a.matches("<path").count(), 2, "{a}");
        let b = &s[s.find(r#"<g id="piece-1""#).unwrap()..];
        let b = &b[..b.find("</g>").unwrap()];
        assert_eq!(b.matches("<path").count(), 3, "{b}");
    }

    #[test]
    fn deterministic() {
        assert_eq!(svg(&cube_scene(), true), svg(&cube_scene(), true));
    }

    #[test]
    fn split_is_a_lattice_edge() {
        let top = [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
        assert_eq!(triangles(&top), [[0, 1, 3], [1, 2, 3]]);
        let right = [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]];
        assert_eq!(triangles(&right), [[0, 1, 3], [1, 2, 3]]);
        let front = [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]];
        assert_eq!(triangles(&front), [[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn numbers() {
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(3.0), "3");
    }
}
