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

use super::{Occupant, Scene, centroid, xml_escape};
use crate::geometry::{Grid, sphere_to_layer};
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

/// The layer a face is drawn in: 0 for pieces, 1 for the ghost cubes of empty cells. Each layer
/// has its own hidden-face removal and edges, because ghosts are see-through.
fn layer(face: &Face) -> usize {
    usize::from(face.owner == Occupant::Empty)
}

/// Per layer, every lattice segment bordering a visible triangle, with the faces on its sides
/// (one entry per bordering triangle). Ordered, so edges are written in a fixed order.
type Edges = [BTreeMap<(Lattice, Lattice), Vec<usize>>; 2];

/// Render `scene` as a standalone SVG document; `explode` pulls the pieces apart.
pub fn svg(scene: &Scene, explode: bool) -> String {
    if scene.grid == Grid::Sphere {
        return ball_svg(scene, explode);
    }
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

/// A label under a loose piece: the lattice point its text is centred on (the baseline) and
/// the text.
struct Label {
    a: f64,
    b: f64,
    text: String,
}

/// Approximate width of a label character, in pixels (12 px sans-serif).
const LABEL_WIDTH_PER_CHAR: f64 = 6.8;

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
        let mark = scene.mark(i, copies[i]);
        let text = if p.name == mark {
            mark
        } else {
            format!("{mark}  {}", p.name)
        };
        out.push(Label {
            a: (2 * (x + y) + sx + sy) as f64 / 2.0,
            b: (x + sx - y - 2 * z) as f64 + 2.0,
            text,
        });
    }
    out
}

/// The labels' group (nothing when there are none).
fn write_labels(s: &mut String, labels: &[Label], layout: &Layout) {
    if labels.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        r##"<g id="labels" font-size="12" fill="#222222" text-anchor="middle">"##
    );
    for l in labels {
        let (x, y) = layout.xy(l.a, l.b);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            num(x),
            num(y),
            xml_escape(&l.text)
        );
    }
    let _ = writeln!(s, "</g>");
}

/// The legend: one row per piece (its mark, its name unless that is just the letter, and
/// "(hint)" for hints), then a row for the ghost cubes when cells are empty, sized so the page
/// can make room for it beside the picture.
struct Legend {
    rows: Vec<(String, super::Rgb)>,
    width: f64,
    height: f64,
}

impl Legend {
    fn new(scene: &Scene) -> Legend {
        let copies = scene.copies();
        let mut rows: Vec<(String, super::Rgb)> = scene
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let hint = if p.hint { " (hint)" } else { "" };
                let mark = scene.mark(i, copies[i]);
                (
                    if p.name.chars().eq(std::iter::once(p.letter)) {
                        format!("{mark}{hint}")
                    } else {
                        format!("{mark}  {}{hint}", p.name)
                    },
                    scene.colour(i, copies[i]),
                )
            })
            .collect();
        if !scene.empty.is_empty() {
            rows.push(("·  empty".to_string(), GHOST));
        }
        let chars = rows.iter().map(|l| l.0.chars().count()).max().unwrap_or(0);
        let width = if rows.is_empty() {
            0.0
        } else {
            LEGEND_GAP + 18.0 + chars as f64 * LEGEND_WIDTH_PER_CHAR
        };
        let height = rows.len() as f64 * LEGEND_ROW;
        Legend {
            rows,
            width,
            height,
        }
    }

    /// Writes the legend group to the right of the picture (nothing when there are no rows).
    fn write(&self, s: &mut String, layout: &Layout) {
        if self.rows.is_empty() {
            return;
        }
        let lx = MARGIN + layout.pic_w + LEGEND_GAP;
        let _ = writeln!(s, r##"<g id="legend" font-size="13" fill="#222222">"##);
        for (k, (label, colour)) in self.rows.iter().enumerate() {
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
}

/// Where things go on the page: the lattice-to-pixel mapping (scale `sx`, `sy`, then shift
/// `tx`, `ty` so the picture starts at the margin below the title) and the page size, which
/// fits the picture and the legend beside it, and the title.
struct Layout {
    sx: f64,
    sy: f64,
    tx: f64,
    ty: f64,
    /// Width of the picture alone, where the legend starts.
    pic_w: f64,
    width: f64,
    height: f64,
}

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

    /// The layout for a picture spanning lattice coordinates `lo` to `hi`.
    fn fit(scene: &Scene, lo: (f64, f64), hi: (f64, f64), legend: &Legend) -> Layout {
        let sx = UNIT * 3f64.sqrt() / 2.0;
        let sy = UNIT / 2.0;
        let pic_w = (hi.0 - lo.0) * sx;
        let pic_h = (hi.1 - lo.1) * sy;
        let title_w = scene.title.chars().count() as f64 * 9.0;
        Layout {
            sx,
            sy,
            tx: MARGIN - lo.0 * sx,
            ty: MARGIN + TITLE_HEIGHT - lo.1 * sy,
            pic_w,
            width: (MARGIN * 2.0 + pic_w + legend.width)
                .max(MARGIN * 2.0 + title_w)
                .ceil(),
            height: (MARGIN * 2.0 + TITLE_HEIGHT + pic_h.max(legend.height)).ceil(),
        }
    }

    /// The page coordinates of lattice coordinates (a, b), which may be fractional.
    fn xy(&self, a: f64, b: f64) -> (f64, f64) {
        (a * self.sx + self.tx, b * self.sy + self.ty)
    }

    /// The page coordinates `"X Y"` of lattice coordinates (a, b), which may be fractional.
    fn at(&self, a: f64, b: f64) -> String {
        let (x, y) = self.xy(a, b);
        format!("{} {}", num(x), num(y))
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
    base: super::Rgb,
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

/// The document's opening: XML declaration, generator comment, the `<svg>` element sized by
/// the layout, title, white background, heading, and the container floors (drawn first, under
/// everything).
fn write_head(
    s: &mut String,
    scene: &Scene,
    explode: bool,
    layout: &Layout,
    floors: &[String],
    view: &str,
) {
    let title = xml_escape(&scene.title);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        "<!-- Generated by cubesat {} (render::svg): {view}{}, {} pieces. Self-contained; no external references. -->",
        env!("CARGO_PKG_VERSION"),
        if explode { ", exploded" } else { "" },
        scene.pieces.len()
    );
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = num(layout.width),
        h = num(layout.height)
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
    for d in floors {
        let _ = writeln!(s, r#"<path d="{d}"/>"#);
    }
    let _ = writeln!(s, "</g>");
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

/// A ball of the picture: who it is, its centre in lattice coordinates (fractional) and its
/// depth towards the viewer.
struct Ball {
    owner: Occupant,
    a: f64,
    b: f64,
    depth: f64,
}

/// A point in space (ball diameters, [`Grid::centre`]'s frame) seen as the cube picture sees
/// its space, after turning the scene 45° about z so that the layer frame's columns and rows
/// run along the picture's x and y axes (a square pyramid then shows two faces): lattice
/// coordinates `(a, b)` and depth.
fn ball_view(p: [f64; 3]) -> (f64, f64, f64) {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let (x, y, z) = ((p[0] + p[1]) * s, (p[1] - p[0]) * s, p[2]);
    (x + y, x - y - 2.0 * z, x - y + z)
}

/// The radius of a ball (diameter 1) in pixels: the picture maps a unit along any axis to
/// [`UNIT`] pixels, an orthographic view scaled by √(3/2).
fn ball_radius() -> f64 {
    0.5 * UNIT * 1.5f64.sqrt()
}

/// The SVG of a scene of balls ([`Grid::Sphere`]): shaded balls with their piece's mark, drawn
/// far to near (balls are round, so drawing in depth order hides exactly), empty target balls
/// as pale see-through ghosts, each container's lowest layer on a pale tray; exploded, every
/// piece moves from its container's centre by [`EXPLODE_FACTOR`] times its centroid's offset.
/// Balls of different pieces interleave in depth, so each ball is its own `<g class="ball">`
/// with `data-piece` (its index in the scene; `-1` for an empty ball).
fn ball_svg(scene: &Scene, explode: bool) -> String {
    let centre = |c: [i32; 3]| Grid::Sphere.centre(c);
    let copies = scene.copies();
    // The centre of a container's box, in space.
    let box_centre = |k: usize| -> [f64; 3] {
        let c = &scene.containers[k];
        std::array::from_fn(|a| {
            (f64::from(c.origin[a]) + f64::from(c.size[a] - 1) / 2.0)
                * std::f64::consts::FRAC_1_SQRT_2
        })
    };
    let mut balls: Vec<Ball> = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let off = match (explode, p.cells.is_empty()) {
            (true, false) => {
                let n = p.cells.len() as f64;
                let mid: [f64; 3] =
                    std::array::from_fn(|a| p.cells.iter().map(|&c| centre(c)[a]).sum::<f64>() / n);
                let home = match p.cells.first().and_then(|&c| scene.container_of(c)) {
                    Some(k) => box_centre(k),
                    None => mid,
                };
                std::array::from_fn(|a| (mid[a] - home[a]) * EXPLODE_FACTOR)
            }
            _ => [0.0; 3],
        };
        for &c in &p.cells {
            let q = centre(c);
            let (a, b, depth) = ball_view(std::array::from_fn(|k| q[k] + off[k]));
            balls.push(Ball {
                owner: Occupant::Piece(i),
                a,
                b,
                depth,
            });
        }
    }
    for &c in &scene.empty {
        let (a, b, depth) = ball_view(centre(c));
        balls.push(Ball {
            owner: Occupant::Empty,
            a,
            b,
            depth,
        });
    }
    balls.sort_by(|x, y| x.depth.total_cmp(&y.depth).then(x.owner.cmp(&y.owner)));
    // Trays under each container's lowest layer, in the layer frame (half a ball beyond the
    // outer balls' centres, half a ball below them).
    let mut trays: Vec<[(f64, f64); 4]> = Vec::new();
    if !explode {
        let mut span: Vec<Option<([i32; 3], [i32; 3])>> = vec![None; scene.containers.len()];
        let cells = scene
            .pieces
            .iter()
            .flat_map(|p| &p.cells)
            .chain(&scene.empty);
        for &c in cells {
            if let Some(k) = scene.container_of(c) {
                let l = sphere_to_layer(c);
                let (lo, hi) = span[k].get_or_insert((l, l));
                for a in 0..3 {
                    lo[a] = lo[a].min(l[a]);
                    hi[a] = hi[a].max(l[a]);
                }
            }
        }
        for (lo, hi) in span.into_iter().flatten() {
            // Layer-frame ball [i, j, k] is at (i + k/2, j + k/2, k/√2) in the turned space;
            // back to Grid::centre's frame for ball_view.
            let corner = |i: f64, j: f64| {
                let k = f64::from(lo[2]);
                let (u, v, w) = (
                    i + k / 2.0,
                    j + k / 2.0,
                    k * std::f64::consts::FRAC_1_SQRT_2 - 0.5,
                );
                let s = std::f64::consts::FRAC_1_SQRT_2;
                let p = [(u + v) * s, (u - v) * s, w];
                let (a, b, _) = ball_view(p);
                (a, b)
            };
            let (i0, i1) = (f64::from(lo[0]) - 0.5, f64::from(hi[0]) + 0.5);
            let (j0, j1) = (f64::from(lo[1]) - 0.5, f64::from(hi[1]) + 0.5);
            trays.push([
                corner(i0, j0),
                corner(i1, j0),
                corner(i1, j1),
                corner(i0, j1),
            ]);
        }
    }
    let r = ball_radius();
    let (ra, rb) = (r / (UNIT * 3f64.sqrt() / 2.0), r / (UNIT / 2.0));
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut extend = |a: f64, b: f64| {
        lo = (lo.0.min(a), lo.1.min(b));
        hi = (hi.0.max(a), hi.1.max(b));
    };
    for ball in &balls {
        extend(ball.a - ra, ball.b - rb);
        extend(ball.a + ra, ball.b + rb);
    }
    for t in &trays {
        t.iter().for_each(|&(a, b)| extend(a, b));
    }
    // Loose pieces (a puzzle sheet): each piece's mark and name under its balls.
    let mut labels: Vec<Label> = Vec::new();
    if scene.loose && !explode {
        for (i, p) in scene.pieces.iter().enumerate() {
            let mine: Vec<&Ball> = balls
                .iter()
                .filter(|b| b.owner == Occupant::Piece(i))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let a0 = mine.iter().map(|b| b.a).fold(f64::INFINITY, f64::min);
            let a1 = mine.iter().map(|b| b.a).fold(f64::NEG_INFINITY, f64::max);
            let b1 = mine.iter().map(|b| b.b).fold(f64::NEG_INFINITY, f64::max);
            let mark = scene.mark(i, copies[i]);
            let text = if p.name == mark {
                mark
            } else {
                format!("{mark}  {}", p.name)
            };
            let label = Label {
                a: (a0 + a1) / 2.0,
                b: b1 + rb + 2.0,
                text,
            };
            let half = label.text.chars().count() as f64 * LABEL_WIDTH_PER_CHAR
                / 2.0
                / (UNIT * 3f64.sqrt() / 2.0);
            extend(label.a - half, label.b + 1.0);
            extend(label.a + half, label.b);
            labels.push(label);
        }
    }
    if lo.0 > hi.0 {
        (lo, hi) = ((0.0, 0.0), (0.0, 0.0));
    }
    let legend = Legend::new(scene);
    let layout = Layout::fit(scene, lo, hi, &legend);
    let floors: Vec<String> = trays
        .iter()
        .map(|t| {
            let [a, b, c, d] = t.map(|(x, y)| layout.at(x, y));
            format!("M{a} L{b} L{c} L{d} Z")
        })
        .collect();
    let mut s = String::new();
    write_head(
        &mut s,
        scene,
        explode,
        &layout,
        &floors,
        "isometric view of balls",
    );
    // One radial gradient per piece (and the ghosts): light upper left, dark rim.
    let _ = writeln!(s, "<defs>");
    let shades: Vec<(String, super::Rgb)> = (0..scene.pieces.len())
        .map(|i| (format!("ball-{i}"), scene.colour(i, copies[i])))
        .chain([("ball-empty".to_string(), GHOST)])
        .collect();
    for (id, c) in &shades {
        let _ = writeln!(
            s,
            r#"<radialGradient id="{id}" cx="0.38" cy="0.32" r="0.72"><stop offset="0" stop-color="{}"/><stop offset="0.5" stop-color="{}"/><stop offset="1" stop-color="{}"/></radialGradient>"#,
            c.lightened(0.55).hex(),
            c.hex(),
            c.scaled(0.55).hex()
        );
    }
    let _ = writeln!(s, "</defs>");
    let _ = writeln!(s, r#"<g id="balls" font-size="12" text-anchor="middle">"#);
    for ball in &balls {
        let (x, y) = layout.xy(ball.a, ball.b);
        let (cx, cy, rr) = (num(x), num(y), num(r));
        match ball.owner {
            Occupant::Piece(i) => {
                let p = &scene.pieces[i];
                let colour = scene.colour(i, copies[i]);
                let ink = if colour.luminance() > 0.5 {
                    "#000000"
                } else {
                    "#ffffff"
                };
                let mark = scene.mark(i, copies[i]);
                let mark = if p.hint { mark.to_lowercase() } else { mark };
                let hint = if p.hint {
                    r##" stroke="#ffffff" stroke-width="2.4" stroke-dasharray="4 2""##
                } else {
                    r##" stroke="#222222" stroke-width="1""##
                };
                let _ = writeln!(
                    s,
                    r#"<g class="ball" data-piece="{i}"><circle cx="{cx}" cy="{cy}" r="{rr}" fill="url(#ball-{i})"{hint}/><text x="{cx}" y="{}" fill="{ink}">{}</text></g>"#,
                    num(y + 4.0),
                    xml_escape(&mark)
                );
            }
            Occupant::Empty => {
                let _ = writeln!(
                    s,
                    r##"<g class="ball" data-piece="-1"><circle cx="{cx}" cy="{cy}" r="{rr}" fill="url(#ball-empty)" fill-opacity="0.55" stroke="#888888" stroke-width="0.8" stroke-dasharray="3 2"/></g>"##
                );
            }
        }
    }
    let _ = writeln!(s, "</g>");
    write_labels(&mut s, &labels, &layout);
    legend.write(&mut s, &layout);
    let _ = writeln!(s, "</svg>");
    s
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

    #[test]
    fn balls_are_circles_far_to_near() {
        let scene = super::super::samples::small_pyramid();
        let s = svg(&scene, false);
        assert_eq!(s.matches("<circle").count(), 14, "{s}");
        assert_eq!(s.matches(r#"data-piece="-1""#).count(), 1);
        for (i, p) in scene.pieces.iter().enumerate() {
            let n = s.matches(&format!(r#"data-piece="{i}""#)).count();
            assert_eq!(n, p.cells.len(), "piece {i}");
        }
        // A ball resting on another is nearer the viewer, so drawn after it whatever the
        // pieces' order.
        let mut two = scene.clone();
        two.pieces.truncate(2);
        two.pieces[0].cells = vec![crate::geometry::sphere_from_layer([0, 0, 1])];
        two.pieces[1].cells = vec![[0, 0, 0]];
        two.empty.clear();
        let t = svg(&two, false);
        assert!(
            t.find(r#"data-piece="1""#) < t.find(r#"data-piece="0""#),
            "{t}"
        );
        assert!(s.contains("isometric view of balls"));
        assert_eq!(s.matches("<radialGradient").count(), 5);
        assert_eq!(svg(&scene, true), svg(&scene, true));
        assert_ne!(svg(&scene, true), s);
    }

    #[test]
    fn numbers() {
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(3.0), "3");
    }
}
