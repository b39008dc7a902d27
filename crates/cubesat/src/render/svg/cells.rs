//! What the cell-by-cell pictures (`prisms`, `tetrahedra`) share: the drawn cells and their occupants, an explosion's wanted offset, labels under loose pieces, the picture's extent, path data, and each cell's group of shaded faces and edges.
//!
//! The two pictures differ in how they find visible faces and order them; once a cell's faces
//! and edges are known, they are placed, framed and written the same way, so a change to
//! labels, ghosts or hint marks reaches both grids at once.

use super::{
    EXPLODE_FACTOR, GHOST, LABEL_WIDTH_PER_CHAR, Label, Layout, Legend, UNIT, write_head,
    write_labels,
};
use crate::geometry::{Cell, add};
use crate::render::{Occupant, Rgb, Scene};
use std::collections::HashMap;
use std::fmt::Write as _;

/// A point in the picture's lattice coordinates (see [`Layout`]).
pub(super) type Ab = (f64, f64);

/// Every drawn cell and its occupant: the pieces' cells moved by `explode_move` when
/// exploded (the first piece to claim a cell keeps it, as in [`Scene::occupancy`]), then the
/// empty cells.
pub(super) fn place(
    scene: &Scene,
    explode: bool,
    explode_move: fn(&Scene, usize) -> Cell,
) -> HashMap<Cell, Occupant> {
    let mut occupied = HashMap::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let o = if explode {
            explode_move(scene, i)
        } else {
            [0; 3]
        };
        for &c in &p.cells {
            occupied.entry(add(c, o)).or_insert(Occupant::Piece(i));
        }
    }
    for &c in &scene.empty {
        occupied.entry(c).or_insert(Occupant::Empty);
    }
    occupied
}

/// [`EXPLODE_FACTOR`] times piece `i`'s centroid's offset from the centre of its container's
/// box (in space, [`crate::geometry::Grid::centre`]'s frame), which each grid rounds to one
/// of its moves; `None` for a piece without cells.
pub(super) fn explode_want(scene: &Scene, i: usize) -> Option<[f64; 3]> {
    let grid = scene.grid;
    let p = &scene.pieces[i];
    if p.cells.is_empty() {
        return None;
    }
    let n = p.cells.len() as f64;
    let mid: [f64; 3] =
        std::array::from_fn(|a| p.cells.iter().map(|&c| grid.centre(c)[a]).sum::<f64>() / n);
    // Grid::centre is linear in a cell's coordinates, so a box's centre is the mean of its
    // corner cells' centres.
    let home = match p.cells.first().and_then(|&c| scene.container_of(c)) {
        Some(k) => {
            let c = &scene.containers[k];
            let (lo, hi) = (
                grid.centre(c.origin),
                grid.centre(std::array::from_fn(|a| c.origin[a] + c.size[a] - 1)),
            );
            std::array::from_fn(|a| (lo[a] + hi[a]) / 2.0)
        }
        None => mid,
    };
    Some(std::array::from_fn(|a| (mid[a] - home[a]) * EXPLODE_FACTOR))
}

/// The labels of a scene whose pieces are laid out on their own ([`Scene::loose`]): every
/// piece alone in its container gets its mark and name centred under its drawn faces.
fn labels(scene: &Scene, explode: bool, drawn: &[Drawn]) -> Vec<Label> {
    if !scene.loose || explode {
        return Vec::new();
    }
    let copies = scene.copies();
    let mut pieces_in = vec![0usize; scene.containers.len()];
    let home = |cells: &[Cell]| cells.first().and_then(|&c| scene.container_of(c));
    for p in &scene.pieces {
        if let Some(k) = home(&p.cells) {
            pieces_in[k] += 1;
        }
    }
    for &c in &scene.empty {
        if let Some(k) = scene.container_of(c) {
            pieces_in[k] += 1;
        }
    }
    // Each piece's least and greatest a and greatest b.
    let mut bounds =
        vec![(f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY); scene.pieces.len()];
    for d in drawn {
        if let Occupant::Piece(i) = d.owner {
            let (a0, a1, b1) = &mut bounds[i];
            for &(a, b) in d.points() {
                (*a0, *a1, *b1) = (a0.min(a), a1.max(a), b1.max(b));
            }
        }
    }
    let mut out = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let Some(k) = home(&p.cells) else { continue };
        if pieces_in[k] != 1 {
            continue;
        }
        let (a0, a1, b1) = bounds[i];
        if a0 > a1 {
            continue;
        }
        out.push(Label {
            a: (a0 + a1) / 2.0,
            b: b1 + 2.0,
            text: super::label_text(scene, i, copies[i]),
        });
    }
    out
}

/// The lowest and highest lattice coordinates of everything drawn (`points`, labels with
/// their text's width and a unit below the baseline), or the origin twice for an empty
/// picture.
fn extent(points: impl IntoIterator<Item = Ab>, labels: &[Label]) -> (Ab, Ab) {
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut extend = |(a, b): Ab| {
        lo = (lo.0.min(a), lo.1.min(b));
        hi = (hi.0.max(a), hi.1.max(b));
    };
    points.into_iter().for_each(&mut extend);
    for l in labels {
        let half =
            l.text.chars().count() as f64 * LABEL_WIDTH_PER_CHAR / 2.0 / (UNIT * 3f64.sqrt() / 2.0);
        extend((l.a - half, l.b + 1.0));
        extend((l.a + half, l.b));
    }
    if lo.0 > hi.0 {
        return ((0.0, 0.0), (0.0, 0.0));
    }
    (lo, hi)
}

/// A closed polygon's path data.
fn polygon(layout: &Layout, points: &[Ab]) -> String {
    let mut d = String::new();
    for (n, &(a, b)) in points.iter().enumerate() {
        d.push_str(if n == 0 { "M" } else { " L" });
        d.push_str(&layout.at(a, b));
    }
    d.push_str(" Z");
    d
}

/// Segments' path data.
fn segments(layout: &Layout, segs: &[(Ab, Ab)]) -> String {
    segs.iter()
        .map(|&(p, q)| format!("M{} L{}", layout.at(p.0, p.1), layout.at(q.0, q.1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How one kind of cell is written: the picture's view (for the generator comment), its
/// group's id and each cell's class, and the strokes (attribute values) that suit its size.
pub(super) struct Style {
    pub view: &'static str,
    pub group: &'static str,
    pub class: &'static str,
    pub ghost_opacity: &'static str,
    pub faint_opacity: &'static str,
    pub faint_width: &'static str,
    pub strong_width: &'static str,
    pub hint_width: &'static str,
}

/// One cell as drawn: whose it is, where, its visible faces (corners and brightness) and its
/// edges, dark ones and faint ones.
pub(super) struct Drawn<'a> {
    pub owner: Occupant,
    pub cell: Cell,
    pub faces: Vec<(&'a [Ab], f64)>,
    pub strong: &'a [(Ab, Ab)],
    pub faint: &'a [(Ab, Ab)],
}

impl Drawn<'_> {
    /// The corners of its faces, face by face.
    fn points(&self) -> impl Iterator<Item = &Ab> {
        self.faces.iter().flat_map(|&(points, _)| points)
    }
}

/// The SVG document of `cells` in drawing order, over `floors` (each container's floor as
/// polygons), with labels for loose pieces and the legend, laid out to fit.
pub(super) fn page(
    scene: &Scene,
    explode: bool,
    style: &Style,
    floors: &[Vec<Vec<Ab>>],
    cells: &[Drawn],
) -> String {
    let labels = labels(scene, explode, cells);
    let legend = Legend::new(scene);
    let drawn = cells.iter().flat_map(|d| d.points().copied());
    let (lo, hi) = extent(
        drawn.chain(floors.iter().flatten().flatten().copied()),
        &labels,
    );
    let layout = Layout::fit(scene, lo, hi, &legend);
    let floor_paths: Vec<String> = floors
        .iter()
        .map(|polys| {
            polys
                .iter()
                .map(|p| polygon(&layout, p))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut s = String::new();
    write_head(&mut s, scene, explode, &layout, &floor_paths, style.view);
    write_cells(&mut s, scene, &layout, style, cells);
    write_labels(&mut s, &labels, &layout);
    legend.write(&mut s, &layout);
    let _ = writeln!(s, "</svg>");
    s
}

/// The cells in drawing order, each a group of its faces (filled in its piece's colour,
/// shaded by the way they face), its edges, and for a hint a white dot on each face; an
/// empty cell a pale see-through ghost with dashed edges. A cell with no visible face is
/// left out.
fn write_cells(s: &mut String, scene: &Scene, layout: &Layout, style: &Style, cells: &[Drawn]) {
    let copies = scene.copies();
    let _ = writeln!(s, r#"<g id="{}" stroke-linejoin="round">"#, style.group);
    for p in cells {
        if p.faces.is_empty() {
            continue;
        }
        let (index, base, hint): (i64, Rgb, bool) = match p.owner {
            Occupant::Piece(i) => (i as i64, scene.colour(i, copies[i]), scene.pieces[i].hint),
            Occupant::Empty => (-1, GHOST, false),
        };
        let [x, y, z] = p.cell;
        let _ = write!(
            s,
            r#"<g class="{}" data-piece="{index}" data-cell="{x} {y} {z}">"#,
            style.class
        );
        let ghost = p.owner == Occupant::Empty;
        for &(points, shade) in &p.faces {
            let c = base.scaled(shade).hex();
            let d = polygon(layout, points);
            if ghost {
                let _ = write!(
                    s,
                    r#"<path fill="{c}" fill-opacity="{}" stroke="none" d="{d}"/>"#,
                    style.ghost_opacity
                );
            } else {
                let _ = write!(
                    s,
                    r#"<path fill="{c}" stroke="{c}" stroke-width="0.6" d="{d}"/>"#
                );
            }
        }
        if ghost {
            let all: Vec<(Ab, Ab)> = p.strong.iter().chain(p.faint).copied().collect();
            let _ = write!(
                s,
                r##"<path fill="none" stroke="#888888" stroke-width="0.8" stroke-dasharray="3 2" d="{}"/>"##,
                segments(layout, &all)
            );
        } else {
            if !p.faint.is_empty() {
                let _ = write!(
                    s,
                    r##"<path fill="none" stroke="#000000" stroke-opacity="{}" stroke-width="{}" stroke-linecap="round" d="{}"/>"##,
                    style.faint_opacity,
                    style.faint_width,
                    segments(layout, p.faint)
                );
            }
            if !p.strong.is_empty() {
                let _ = write!(
                    s,
                    r##"<path fill="none" stroke="#222222" stroke-width="{}" stroke-linecap="round" d="{}"/>"##,
                    style.strong_width,
                    segments(layout, p.strong)
                );
            }
        }
        if hint {
            let marks: Vec<String> = p
                .faces
                .iter()
                .map(|&(points, _)| {
                    let n = points.len() as f64;
                    let a = points.iter().map(|q| q.0).sum::<f64>() / n;
                    let b = points.iter().map(|q| q.1).sum::<f64>() / n;
                    format!("M{} h0", layout.at(a, b))
                })
                .collect();
            let _ = write!(
                s,
                r##"<path class="hint-mark" fill="none" stroke="#ffffff" stroke-width="{}" stroke-linecap="round" d="{}"/>"##,
                style.hint_width,
                marks.join(" ")
            );
        }
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</g>");
}
