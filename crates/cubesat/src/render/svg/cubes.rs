//! The SVG of a scene of cubes, with exact hidden-face removal on the isometric lattice.
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
//! faint lines between the cubes of one piece.

use super::{
    EXPLODE_FACTOR, GHOST, LABEL_WIDTH_PER_CHAR, Label, Layout, Legend, UNIT, write_head,
    write_labels,
};
use crate::render::{Occupant, Rgb, Scene, centroid, xml_escape};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Brightness of the top, front and right faces.
const SHADE: [f64; 3] = [1.0, 0.8, 0.62];

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

/// The layer a face is drawn in: 0 for pieces, 1 for the ghost cubes of empty cells. Each layer
/// has its own hidden-face removal and edges, because ghosts are see-through.
fn layer(face: &Face) -> usize {
    usize::from(face.owner == Occupant::Empty)
}

/// Per layer, every lattice segment bordering a visible triangle, with the faces on its sides
/// (one entry per bordering triangle). Ordered, so edges are written in a fixed order.
type Edges = [BTreeMap<(Lattice, Lattice), Vec<usize>>; 2];

/// The SVG of a scene of cubes ([`super::svg`]).
pub(super) fn svg(scene: &Scene, explode: bool) -> String {
    let faces = uncovered_faces(scene, explode);
    let visible = visible_triangles(&faces);
    let edges = edges(&faces, &visible);
    let floors = floors(scene, explode);
    let legend = Legend::new(scene);
    let labels = labels(scene, explode);
    let layout = Layout::new(scene, &edges, &floors, &legend, &labels);
    let mut groups = face_groups(scene, &faces, &visible, &layout);
    let strokes = EdgeStrokes::new(&faces, &edges, &layout);
    // Ghost outlines belong to the ghost cubes' own group, so they come and go with it.
    if !strokes.ghost.is_empty() {
        let _ = writeln!(
            groups.last_mut().expect("ghost group").1,
            r##"<path fill="none" stroke="#888888" stroke-width="0.8" stroke-dasharray="3 2" d="{}"/>"##,
            strokes.ghost.trim_end()
        );
    }

    let mut s = String::new();
    let floor_paths: Vec<String> = floors
        .iter()
        .map(|f| {
            let [a, b, c, d] = f.map(|p| layout.pt(p));
            format!("M{a} L{b} L{c} L{d} Z")
        })
        .collect();
    write_head(
        &mut s,
        scene,
        explode,
        &layout,
        &floor_paths,
        "isometric view",
    );
    write_groups(&mut s, scene, &groups, &strokes);
    write_labels(&mut s, &labels, &layout);
    legend.write(&mut s, &layout);
    let _ = writeln!(s, "</svg>");
    s
}

/// The scene's cubes after explosion, each cell once: the first occupant wins, as in
/// [`Scene::occupancy`].
struct Cubes {
    /// The occupied cells in scene order (pieces, then empty cells).
    unique: Vec<([i32; 3], Occupant)>,
    /// Which occupant holds each cell.
    occupied: HashMap<[i32; 3], Occupant>,
}

/// Places every cube: the pieces' cells moved by their [`offsets`], then the empty cells.
fn cubes(scene: &Scene, explode: bool) -> Cubes {
    let offs = offsets(scene, explode);
    let moved = scene.pieces.iter().enumerate().flat_map(|(i, p)| {
        let o = offs[i];
        p.cells
            .iter()
            .map(move |c| ([c[0] + o[0], c[1] + o[1], c[2] + o[2]], Occupant::Piece(i)))
    });
    let ghosts = scene.empty.iter().map(|&c| (c, Occupant::Empty));
    let mut occupied: HashMap<[i32; 3], Occupant> = HashMap::new();
    let mut unique = Vec::new();
    for (c, o) in moved.chain(ghosts) {
        if let std::collections::hash_map::Entry::Vacant(e) = occupied.entry(c) {
            e.insert(o);
            unique.push((c, o));
        }
    }
    Cubes { unique, occupied }
}

/// The faces of the cube at `[x, y, z]` that look towards the viewer, in [`Face::kind`] order
/// (top, front, right): each with the neighbouring cell that would cover it and its corners.
fn cube_faces([x, y, z]: [i32; 3]) -> [([i32; 3], [[i32; 3]; 4]); 3] {
    [
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
    ]
}

/// Every face towards the viewer that no neighbouring cube covers. Dropping faces between
/// occupied cells first keeps the per-triangle depth test from having to break ties.
fn uncovered_faces(scene: &Scene, explode: bool) -> Vec<Face> {
    let Cubes { unique, occupied } = cubes(scene, explode);
    // A piece face is hidden by a neighbouring piece cube only (ghosts are see-through); a
    // ghost face by any neighbouring cube.
    let covers = |neighbour: &[i32; 3], owner: Occupant| match (owner, occupied.get(neighbour)) {
        (_, None) => false,
        (Occupant::Empty, Some(_)) => true,
        (Occupant::Piece(_), Some(o)) => matches!(o, Occupant::Piece(_)),
    };
    let mut faces: Vec<Face> = Vec::new();
    for &(cell, owner) in &unique {
        for (kind, (neighbour, verts)) in cube_faces(cell).into_iter().enumerate() {
            if !covers(&neighbour, owner) {
                faces.push(Face { owner, kind, verts });
            }
        }
    }
    faces
}

/// Exact hidden-face removal: for each face, whether each of its two [`triangles`] shows. A
/// triangle shows when its face is the nearest of its layer on that lattice triangle; a ghost
/// triangle also has to lie in front of the nearest piece there (ghosts are drawn translucent
/// over pieces, never through them).
fn visible_triangles(faces: &[Face]) -> Vec<[bool; 2]> {
    // Nearest face per lattice triangle and layer (key: the sum of its vertices, i.e. 3 ×
    // centroid), with its depth.
    let mut nearest: [HashMap<Lattice, (i32, usize)>; 2] = [HashMap::new(), HashMap::new()];
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
    faces
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
        .collect()
}

/// The lattice segments bordering visible triangles, per layer, with the faces on their sides:
/// what [`EdgeStrokes`] classifies and what sets the picture's extent.
fn edges(faces: &[Face], visible: &[[bool; 2]]) -> Edges {
    let mut edges: Edges = Default::default();
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
    edges
}

/// The container floors as lattice quadrilaterals; none when exploded, where pieces leave
/// their containers.
fn floors(scene: &Scene, explode: bool) -> Vec<[Lattice; 4]> {
    scene
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
        .collect()
}

/// The lowest and highest lattice coordinates of everything drawn (edges and floors), or the
/// origin twice for an empty picture.
fn extent(edges: &Edges, floors: &[[Lattice; 4]]) -> (Lattice, Lattice) {
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
    for f in floors {
        f.iter().for_each(|&p| extend(p));
    }
    if lo.0 > hi.0 {
        return ((0, 0), (0, 0));
    }
    (lo, hi)
}

/// The labels of a scene whose pieces are laid out on their own ([`Scene::loose`]): every
/// piece alone in its container (no other piece, no empty cell there) gets its mark and name
/// centred under its container, so the pieces of a sheet can be told apart without colour.
fn labels(scene: &Scene, explode: bool) -> Vec<Label> {
    if !scene.loose || explode {
        return Vec::new();
    }
    let copies = scene.copies();
    let mut pieces_in = vec![0usize; scene.containers.len()];
    for p in &scene.pieces {
        if let Some(k) = p.cells.first().and_then(|&c| scene.container_of(c)) {
            pieces_in[k] += 1;
        }
    }
    for &c in &scene.empty {
        if let Some(k) = scene.container_of(c) {
            pieces_in[k] += 1;
        }
    }
    let mut out = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let Some(k) = p.cells.first().and_then(|&c| scene.container_of(c)) else {
            continue;
        };
        if pieces_in[k] != 1 || p.cells.iter().any(|&c| scene.container_of(c) != Some(k)) {
            continue;
        }
        let c = &scene.containers[k];
        let [x, y, z] = c.origin;
        let [sx, sy, _] = c.size;
        let text = super::label_text(scene, i, copies[i]);
        out.push(Label {
            a: (2 * (x + y) + sx + sy) as f64 / 2.0,
            b: (x + sx - y - 2 * z) as f64 + 2.0,
            text,
        });
    }
    out
}

/// The lattice-to-page mapping and page size for the cubes' picture: everything drawn (edges,
/// floors) and room for the labels.
impl Layout {
    fn new(
        scene: &Scene,
        edges: &Edges,
        floors: &[[Lattice; 4]],
        legend: &Legend,
        labels: &[Label],
    ) -> Layout {
        let (mut lo, mut hi) = extent(edges, floors);
        let sx = UNIT * 3f64.sqrt() / 2.0;
        // Room for the labels: half their width either side, and a unit below the baseline.
        for l in labels {
            let half = l.text.chars().count() as f64 * LABEL_WIDTH_PER_CHAR / 2.0 / sx;
            lo.0 = lo.0.min((l.a - half).floor() as i32);
            hi.0 = hi.0.max((l.a + half).ceil() as i32);
            hi.1 = hi.1.max(l.b.ceil() as i32 + 1);
        }
        Layout::fit(
            scene,
            (lo.0 as f64, lo.1 as f64),
            (hi.0 as f64, hi.1 as f64),
            legend,
        )
    }

    /// The page coordinates `"X Y"` of a lattice point.
    fn pt(&self, p: Lattice) -> String {
        self.at(p.0 as f64, p.1 as f64)
    }
}

/// The group bodies: one per piece (by scene index), then one for the ghost cubes; see
/// [`group_body`].
fn face_groups(
    scene: &Scene,
    faces: &[Face],
    visible: &[[bool; 2]],
    layout: &Layout,
) -> Vec<(Occupant, String)> {
    let copies = scene.copies();
    (0..scene.pieces.len())
        .map(Occupant::Piece)
        .chain([Occupant::Empty])
        .map(|owner| {
            let colour = match owner {
                Occupant::Piece(i) => scene.colour(i, copies[i]),
                Occupant::Empty => GHOST,
            };
            let body = group_body(scene, owner, colour, faces, visible, layout);
            (owner, body)
        })
        .collect()
}

/// The faces of one owner: a path per shade (top, front, right) outlining the visible part of
/// each face (the whole quadrilateral, or the triangle that shows), and for a hint a white dot
/// on each fully visible face, so hints stand out in a still picture. `base` is the owner's
/// colour.
fn group_body(
    scene: &Scene,
    owner: Occupant,
    base: Rgb,
    faces: &[Face],
    visible: &[[bool; 2]],
    layout: &Layout,
) -> String {
    let extra = match owner {
        Occupant::Piece(_) => r#" stroke-width="0.6" stroke-linejoin="round""#,
        Occupant::Empty => r#" fill-opacity="0.55" stroke="none""#,
    };
    let hint = matches!(owner, Occupant::Piece(i) if scene.pieces[i].hint);
    let mut body = String::new();
    let mut marks = String::new();
    for (kind, shade) in SHADE.iter().enumerate() {
        let mut d = String::new();
        for (f, face) in faces.iter().enumerate() {
            if face.owner != owner || face.kind != kind {
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
                d.push_str(&layout.pt(lattice(face.verts[v])));
            }
            d.push_str(" Z");
            if hint && vis == [true, true] {
                let (a0, b0) = lattice(face.verts[0]);
                let (a2, b2) = lattice(face.verts[2]);
                let centre = layout.at((a0 + a2) as f64 / 2.0, (b0 + b2) as f64 / 2.0);
                let _ = write!(marks, "M{centre} h0 ");
            }
        }
        if !d.is_empty() {
            let c = base.scaled(*shade).hex();
            let stroke = if owner == Occupant::Empty {
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
    body
}

/// The edges as path data, by how they are stroked: strong where two owners meet and on the
/// outline, faint between faces of one piece (so cubes stay countable), and the ghost cubes'
/// own outlines. A segment with the same face on both sides is a face's diagonal: not drawn.
struct EdgeStrokes {
    strong: String,
    faint: String,
    ghost: String,
}

impl EdgeStrokes {
    fn new(faces: &[Face], edges: &Edges, layout: &Layout) -> EdgeStrokes {
        let mut strokes = EdgeStrokes {
            strong: String::new(),
            faint: String::new(),
            ghost: String::new(),
        };
        for (layer, edges) in edges.iter().enumerate() {
            for ((p, q), fs) in edges {
                let target = match fs.as_slice() {
                    [f, g] if f == g => continue,
                    _ if layer == 1 => &mut strokes.ghost,
                    [_] => &mut strokes.strong,
                    [f, g] if faces[*f].owner == faces[*g].owner => &mut strokes.faint,
                    _ => &mut strokes.strong,
                };
                let _ = write!(target, "M{} L{} ", layout.pt(*p), layout.pt(*q));
            }
        }
        strokes
    }
}

/// The piece groups (with the piece's letter, name and hint flag as data attributes and a
/// tooltip title), the edges on top of all faces, then the ghost cubes' group when it has
/// anything to draw.
fn write_groups(
    s: &mut String,
    scene: &Scene,
    groups: &[(Occupant, String)],
    strokes: &EdgeStrokes,
) {
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
        strokes.faint.trim_end(),
        strokes.strong.trim_end()
    );
    if !ghost_group.1.is_empty() {
        let _ = writeln!(s, r#"<g id="empty"><title>empty target cells</title>"#);
        s.push_str(&ghost_group.1);
        let _ = writeln!(s, "</g>");
    }
}

fn tri_key(face: &Face, tri: [usize; 3]) -> Lattice {
    tri.iter().fold((0, 0), |acc, &v| {
        let (a, b) = lattice(face.verts[v]);
        (acc.0 + a, acc.1 + b)
    })
}
#[cfg(test)]
mod tests {
    use super::super::super::{Container, ScenePiece};
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
            loose: false,
            ..Default::default()
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
}
