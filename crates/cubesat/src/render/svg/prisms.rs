//! The SVG of a scene of prisms (the prism grid's triangular ones, the hexagon grid's hexagonal ones: right prisms over [`crate::geometry::Grid::polygon`]): an oblique view from the south, each prism a shaded solid, drawn far to near, with piece outlines, ghosts for empty cells and the target's polygons as a floor.
//!
//! The view looks north from above the scene, at [`ELEVATION`] above the horizon: a point
//! `(x, y, z)` (cell units, [`crate::geometry::Grid::centre`]'s frame; layer `z` spans
//! `z..z + 1`) is drawn at `x` across and `y·sin φ + z·cos φ` up. Top faces show, and of the side
//! faces those facing south (running east, counter-clockwise): an upward triangle's base, a
//! downward one's two lower sides, a hexagon's two lower sides (its upright sides are seen
//! edge on); a one-layer board reads as its tiling, slightly foreshortened, with a rim of side
//! faces along its southern edges.
//!
//! Hidden faces are removed by drawing prisms far to near ([`far_to_near`]), which is exact on
//! these lattices: a prism of a higher layer is in front of any of a lower layer where the two
//! overlap (every line of sight crosses the plane between them from above), and in one layer,
//! of two prisms whose pictures overlap, the one lower on every upright line through both
//! polygons is in front (their x ranges overlap, so that line meets both, and convex disjoint
//! polygons keep their order along it), which is the one with the more southern centre:
//! triangles overlapping in x are neighbours in a row, where the upward one is lower and has
//! the lower centroid, or lie in different rows, the southern row lower; hexagons overlapping
//! in x lie in different rows (one row's hexagons touch only along upright sides). Faces between
//! two filled cells are left out. Prisms of different pieces interleave in that order, so each
//! prism is its own `<g class="prism">` with `data-piece` (its piece's index in the scene, `-1`
//! for an empty target cell) and `data-cell`, as balls are in the sphere grid's picture.
//!
//! Edges: a dark line where a face meets a face of another piece or the outline of the picture, a
//! faint one between faces of one piece (so the prisms stay countable). Exploded, every piece moves
//! from its container's centre by [`super::EXPLODE_FACTOR`] times its centroid's offset, rounded to
//! a move of the grid (so the drawing order stays exact).

use super::cells::{Ab, Drawn, Style, explode_want, page, place};
use crate::geometry::{Cell, Grid, add};
use crate::render::prismmesh::{Key, Poly, polygon as cell_polygon};
use crate::render::{Occupant, Scene};
use std::cmp::Ordering;
use std::collections::HashMap;

/// The view's height above the horizon (radians): the tiling foreshortened to sin φ ≈ 0.77,
/// a layer cos φ ≈ 0.64 of a side high.
const ELEVATION: f64 = 50.0 * std::f64::consts::PI / 180.0;

/// A cell unit (a triangle's side, a hexagon's width across its flat sides) in [`super::UNIT`]s:
/// larger than a cube's edge, as a triangle has less area.
const SCALE: f64 = 2.0;

/// Brightness of the top face.
const TOP: f64 = 1.0;

/// Where a point of space is drawn, in the lattice coordinates [`super::Layout`] maps to the page
/// (`a` in steps of `UNIT·√3/2` pixels across, `b` in half units down).
fn view(p: [f64; 3]) -> Ab {
    let (s, c) = ELEVATION.sin_cos();
    let across = p[0] * SCALE;
    let up = (p[1] * s + p[2] * c) * SCALE;
    (across / (3f64.sqrt() / 2.0), -2.0 * up)
}

/// A side face's brightness from its outward normal in the plane: lit from the south-west.
fn side_shade(n: [f64; 2]) -> f64 {
    0.74 - 0.14 * n[0]
}

/// True when the side from corner `i` to corner `i + 1` of `poly` faces the viewer (the view
/// looks north, and the outward normal of a counter-clockwise side running east points south;
/// an upright side, seen edge on, does not, whatever rounding its corners carry).
fn faces_viewer(poly: &Poly, i: usize) -> bool {
    poly.corner[(i + 1) % poly.len()][0] - poly.corner[i][0] > 1e-9
}

/// Far before near: layer up, then south (the centre's y down), then east (see the module
/// documentation).
fn far_to_near(grid: Grid, a: Cell, b: Cell) -> Ordering {
    let (p, q) = (grid.centre(a), grid.centre(b));
    a[2].cmp(&b[2])
        .then(q[1].total_cmp(&p[1]))
        .then(p[0].total_cmp(&q[0]))
}

/// One face as drawn: its corners in lattice coordinates and its brightness.
struct Face {
    points: Vec<Ab>,
    shade: f64,
}

/// One prism of the picture: whose it is, where it is drawn, its visible faces and its edges.
struct Prism {
    owner: Occupant,
    cell: Cell,
    faces: Vec<Face>,
    /// Edges as segments, dark ones and faint ones.
    strong: Vec<(Ab, Ab)>,
    faint: Vec<(Ab, Ab)>,
}

/// The SVG of a scene of prisms ([`crate::geometry::CellShape::Prism`]).
pub(super) fn svg(scene: &Scene, explode: bool) -> String {
    let grid = scene.grid;
    let occupied = place(scene, explode, explode_move);
    let mut cells: Vec<(Cell, Occupant)> = occupied.iter().map(|(&c, &o)| (c, o)).collect();
    cells.sort_by(|a, b| far_to_near(grid, a.0, b.0).then(a.1.cmp(&b.1)));
    let prisms: Vec<Prism> = cells
        .iter()
        .map(|&(c, o)| prism(grid, &occupied, c, o))
        .collect();
    let floors = if explode { Vec::new() } else { floors(scene) };
    let drawn: Vec<Drawn> = prisms
        .iter()
        .map(|p| Drawn {
            owner: p.owner,
            cell: p.cell,
            faces: p.faces.iter().map(|f| (&f.points[..], f.shade)).collect(),
            strong: &p.strong,
            faint: &p.faint,
        })
        .collect();
    page(scene, explode, &STYLE, &floors, &drawn)
}

/// The move of the grid nearest to [`super::EXPLODE_FACTOR`] times piece `i`'s centroid's offset
/// from the centre of its container's box (in space, [`explode_want`]), none for a piece without
/// cells.
fn explode_move(scene: &Scene, i: usize) -> Cell {
    let grid = scene.grid;
    let Some(want) = explode_want(scene, i) else {
        return [0; 3];
    };
    // The grid's moves in a layer are [ei + nu·j, nv·j]: the shortest move east (along u),
    // and the first move north-east (the least v, then the least u); [2i + j, 3j] on the
    // prism grid, [2i + j, j] on the hexagon grid. Their lengths in space from Grid::centre.
    let eu = (1..=12)
        .find(|&u| grid.is_translation([u, 0, 0]))
        .expect("a move along u");
    let (nu, nv) = (1..=12)
        .find_map(|v| {
            (0..eu)
                .find(|&u| grid.is_translation([u, v, 0]))
                .map(|u| (u, v))
        })
        .expect("a move along v");
    let step = |t: Cell| -> [f64; 3] {
        let (a, b) = (grid.centre(t), grid.centre([0; 3]));
        std::array::from_fn(|k| a[k] - b[k])
    };
    let (east, north) = (step([eu, 0, 0]), step([nu, nv, 0]));
    let j = (want[1] / north[1]).round();
    let i = ((want[0] - j * north[0]) / east[0]).round();
    let k = want[2].round();
    let t = [eu * i as i32 + nu * j as i32, nv * j as i32, k as i32];
    debug_assert!(grid.is_translation(t));
    t
}

/// The visible faces and the edges of the prism at `c` (of `owner`), given every drawn cell.
fn prism(grid: Grid, occupied: &HashMap<Cell, Occupant>, c: Cell, owner: Occupant) -> Prism {
    let poly = cell_polygon(grid, c);
    let sides = poly.len();
    // Pieces are solid to pieces; empty cells are see-through, hidden by any filled cell.
    let filled = |n: Cell| match (owner, occupied.get(&n)) {
        (_, None) => None,
        (Occupant::Empty, Some(&o)) => Some(o),
        (Occupant::Piece(_), Some(&o)) => matches!(o, Occupant::Piece(_)).then_some(o),
    };
    let z = f64::from(c[2]);
    let at = |p: [f64; 2], h: f64| view([p[0], p[1], h]);
    let mut out = Prism {
        owner,
        cell: c,
        faces: Vec::new(),
        strong: Vec::new(),
        faint: Vec::new(),
    };
    // Sorts an edge by what lies beyond it: a visible face of the same piece (faint), or
    // anything else (dark).
    let edge = |out: &mut Prism, p: Ab, q: Ab, beyond: Option<(Occupant, bool)>| {
        if beyond == Some((owner, true)) {
            out.faint.push((p, q));
        } else {
            out.strong.push((p, q));
        }
    };
    let above = add(c, [0, 0, 1]);
    let below = add(c, [0, 0, -1]);
    let across = |i: usize| add(c, poly.across[i]);
    if filled(above).is_none() {
        out.faces.push(Face {
            points: poly.corner.iter().map(|&p| at(p, z + 1.0)).collect(),
            shade: TOP,
        });
        for i in 0..sides {
            let (p, q) = (poly.corner[i], poly.corner[(i + 1) % sides]);
            let n = across(i);
            // The face beyond the top's edge: the side of the prism above the cell across
            // (a step up), that cell's top (flat), or this prism's own side (a fold).
            let beyond = if let Some(o) = filled(add(n, [0, 0, 1])) {
                Some((o, !faces_viewer(&poly, i)))
            } else if let Some(o) = filled(n) {
                Some((o, true))
            } else {
                Some((owner, faces_viewer(&poly, i)))
            };
            edge(&mut out, at(p, z + 1.0), at(q, z + 1.0), beyond);
        }
    }
    for i in 0..sides {
        let (p, q) = (poly.corner[i], poly.corner[(i + 1) % sides]);
        let n = across(i);
        if !faces_viewer(&poly, i) || filled(n).is_some() {
            continue;
        }
        let len = ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt();
        let normal = [(q[1] - p[1]) / len, -(q[0] - p[0]) / len];
        let (p0, q0, q1, p1) = (at(p, z), at(q, z), at(q, z + 1.0), at(p, z + 1.0));
        out.faces.push(Face {
            points: vec![p0, q0, q1, p1],
            shade: side_shade(normal),
        });
        // Bottom edge: the top of the cell below the one across (a step down), the same
        // side of the prism below (flat), or this prism's bottom (unseen).
        let bottom = filled(add(n, [0, 0, -1]))
            .or_else(|| filled(below))
            .map(|o| (o, true));
        edge(&mut out, p0, q0, bottom);
        // Top edge: the bottom of the prism above the one across (unseen), the same side of
        // the prism above (flat), or this prism's top (a fold).
        let top = if filled(add(n, [0, 0, 1])).is_some() {
            None
        } else if let Some(o) = filled(above) {
            Some((o, true))
        } else {
            Some((owner, true))
        };
        edge(&mut out, p1, q1, top);
        // The vertical edges: the first side met going round each corner away from this
        // prism through empty cells.
        let (kp, kq) = (poly.key[i], poly.key[(i + 1) % sides]);
        edge(&mut out, q0, q1, round_corner(grid, &filled, c, i, kq));
        edge(&mut out, p0, p1, round_corner(grid, &filled, c, i, kp));
    }
    out
}

/// The face beyond the vertical edge at corner `k` of the side face on side `i` of the prism
/// at `c`: going round the corner from the (empty) cell across that side, away from `c`, the
/// side of the first filled cell facing the empty one before it (`c`'s own other side when
/// all are empty); its owner, and whether it faces the viewer.
fn round_corner(
    grid: Grid,
    filled: &dyn Fn(Cell) -> Option<Occupant>,
    c: Cell,
    i: usize,
    k: Key,
) -> Option<(Occupant, bool)> {
    let mut prev = c;
    let mut cur = add(c, cell_polygon(grid, c).across[i]);
    // Six triangles or three hexagons meet at a lattice point: the walk is back at `c`
    // (filled) before this bound.
    for _ in 0..12 {
        let poly = cell_polygon(grid, cur);
        let m = poly.key.iter().position(|&q| q == k)?;
        // The sides through corner m are m and m - 1: leave through the one not entered by.
        let a = add(cur, poly.across[m]);
        let next = if a != prev {
            a
        } else {
            add(cur, poly.across[(m + poly.len() - 1) % poly.len()])
        };
        // `c` itself is filled: round the corner through empty cells only, back to its
        // other side.
        if let Some(o) = filled(next) {
            let theirs = cell_polygon(grid, next);
            let side = (0..theirs.len()).find(|&s| add(next, theirs.across[s]) == cur)?;
            return Some((o, faces_viewer(&theirs, side)));
        }
        (prev, cur) = (cur, next);
    }
    None
}

/// The floor under each container: the polygons of its target's columns at its lowest
/// layer, so an empty board still shows its tiling.
fn floors(scene: &Scene) -> Vec<Vec<Vec<Ab>>> {
    let mut columns: Vec<Vec<Cell>> = vec![Vec::new(); scene.containers.len()];
    let cells = scene
        .pieces
        .iter()
        .flat_map(|p| &p.cells)
        .chain(&scene.empty);
    for &c in cells {
        if let Some(k) = scene.container_of(c) {
            columns[k].push([c[0], c[1], scene.containers[k].origin[2]]);
        }
    }
    columns
        .into_iter()
        .map(|mut cs| {
            cs.sort_unstable();
            cs.dedup();
            cs.iter()
                .map(|&c| {
                    let z = f64::from(c[2]);
                    cell_polygon(scene.grid, c)
                        .corner
                        .iter()
                        .map(|p| view([p[0], p[1], z]))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// How prisms are written (see [`page`]).
const STYLE: Style = Style {
    view: "oblique view of prisms",
    group: "prisms",
    class: "prism",
    ghost_opacity: "0.55",
    faint_opacity: "0.3",
    faint_width: "0.8",
    strong_width: "1.6",
    hint_width: "6",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{Container, ScenePiece};

    /// The hexagon around the origin as three diamonds, in one layer.
    fn hexagon() -> Scene {
        let piece = |name: &str, letter: char, cells: &[[i32; 2]], color: usize| ScenePiece {
            name: name.into(),
            letter,
            hint: false,
            cells: cells.iter().map(|&[u, v]| [u, v, 0]).collect(),
            color,
        };
        Scene {
            title: "hexagon".into(),
            containers: vec![Container {
                origin: [-1, -2, 0],
                size: [3, 5, 1],
            }],
            pieces: vec![
                piece("north-east", 'a', &[[1, 1], [0, 2]], 0),
                piece("west", 'b', &[[-1, 1], [-1, -1]], 1),
                piece("south", 'c', &[[0, -2], [1, -1]], 2),
            ],
            grid: Grid::Prism,
            ..Default::default()
        }
    }

    /// The prism at `c` as drawn in `scene` (not exploded).
    fn drawn(scene: &Scene, c: Cell) -> Prism {
        let occupied = place(scene, false, explode_move);
        prism(scene.grid, &occupied, c, occupied[&c])
    }

    #[test]
    fn every_prism_is_drawn_with_the_legend() {
        let scene = hexagon();
        let s = svg(&scene, false);
        assert!(s.starts_with("<?xml") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<g").count(), s.matches("</g>").count(), "{s}");
        assert!(s.contains("oblique view of prisms"));
        for (i, p) in scene.pieces.iter().enumerate() {
            let n = s.matches(&format!(r#"data-piece="{i}""#)).count();
            assert_eq!(n, p.cells.len(), "piece {i}");
            assert!(
                s.contains(&format!("{}  {}", p.letter, p.name)),
                "legend {i}"
            );
        }
        // The floor: the target's six triangles.
        let floor = &s[s.find(r#"<g id="floors""#).unwrap()..];
        let floor = &floor[..floor.find("</g>").unwrap()];
        assert_eq!(floor.matches(" Z").count(), 6, "{floor}");
        assert_eq!(s, svg(&scene, false), "deterministic");
        let x = svg(&scene, true);
        assert_ne!(x, s);
        assert_eq!(x, svg(&scene, true));
        // Exploded, pieces leave their containers: no floors.
        let floor = &x[x.find(r#"<g id="floors""#).unwrap()..];
        assert!(!floor[..floor.find("</g>").unwrap()].contains("<path"));
    }

    #[test]
    fn edges_are_dark_between_pieces_and_faint_inside_one() {
        let scene = hexagon();
        // An upward prism: only its top shows (the cell across its base is filled); its
        // edge towards its own piece is faint, the one towards another piece and the
        // outline (its north-east side, which faces away) dark.
        let up = drawn(&scene, [1, 1, 0]);
        assert_eq!((up.faces.len(), up.faint.len(), up.strong.len()), (1, 1, 2));
        // A downward prism on the southern rim: its top and its south-east side. Faint: the
        // top's edges towards its own piece and towards its own side face, that face's top
        // edge, and its edge at the rim's corner, where its piece's other prism's south face
        // continues. Dark: the top's edge towards another piece, the side's bottom (the
        // picture's outline) and its edge where the side turns away.
        let down = drawn(&scene, [1, -1, 0]);
        assert_eq!(
            (down.faces.len(), down.faint.len(), down.strong.len()),
            (2, 4, 3)
        );
    }

    #[test]
    fn prisms_are_drawn_far_to_near() {
        let mut scene = hexagon();
        // A prism on top of the southern diamond's eastern prism, of another piece.
        scene.pieces.push(ScenePiece {
            name: "top".into(),
            letter: 't',
            hint: true,
            cells: vec![[1, -1, 1]],
            color: 3,
        });
        let s = svg(&scene, false);
        let at = |c: &str| s.find(&format!(r#"data-cell="{c}""#)).unwrap();
        // The upper layer after the lower one, the south after the north.
        assert!(at("1 -1 0") < at("1 -1 1"));
        assert!(at("0 2 0") < at("1 1 0") && at("1 1 0") < at("1 -1 0"));
        // Covered faces are left out: the prism under the new one shows its side, not its
        // top, and one whose top and sides are all covered is not drawn.
        assert_eq!(drawn(&scene, [1, -1, 0]).faces.len(), 1);
        let mut covered = scene.clone();
        covered.pieces[3].cells = vec![[0, 2, 1]];
        assert!(!svg(&covered, false).contains(r#"data-cell="0 2 0""#));
        // A hint's faces are marked.
        assert_eq!(s.matches("hint-mark").count(), 1);
    }

    #[test]
    fn nothing_to_draw_is_an_empty_picture() {
        let scene = Scene {
            grid: Grid::Prism,
            ..Default::default()
        };
        for explode in [false, true] {
            let s = svg(&scene, explode);
            assert!(s.contains(r#"<g id="prisms""#) && !s.contains(r#"class="prism""#));
        }
    }

    #[test]
    fn empty_cells_are_ghosts_and_explosion_moves_by_the_grid() {
        let mut scene = hexagon();
        let south = scene.pieces.pop().unwrap();
        scene.empty = south.cells;
        let s = svg(&scene, false);
        assert_eq!(s.matches(r#"data-piece="-1""#).count(), 2);
        assert!(s.contains("·  empty"));
        for i in 0..scene.pieces.len() {
            let t = explode_move(&scene, i);
            assert!(Grid::Prism.is_translation(t), "{t:?}");
            assert_ne!(t, [0; 3]);
        }
    }

    /// The seven hexagons of a flower (a hexagon and its ring) as a monohex and three
    /// dihexes, on the hexagon grid; with `layers` the flower stacked that high, each layer
    /// its own pieces.
    fn flower(layers: i32) -> Scene {
        let piece = |name: String, cells: &[[i32; 2]], z: i32, color: usize| ScenePiece {
            name,
            letter: 'a',
            hint: false,
            cells: cells.iter().map(|&[u, v]| [u, v, z]).collect(),
            color,
        };
        let mut pieces = Vec::new();
        for z in 0..layers {
            let shapes: [&[[i32; 2]]; 4] = [
                &[[0, 0]],
                &[[2, 0], [1, 1]],
                &[[-1, 1], [-2, 0]],
                &[[-1, -1], [1, -1]],
            ];
            for (i, cells) in shapes.iter().enumerate() {
                pieces.push(piece(format!("p{z}{i}"), cells, z, pieces.len()));
            }
        }
        Scene {
            title: "flower".into(),
            containers: vec![Container {
                origin: [-2, -1, 0],
                size: [5, 3, layers],
            }],
            pieces,
            grid: Grid::Hexagon,
            ..Default::default()
        }
    }

    #[test]
    fn hexagons_are_drawn_as_prisms_with_their_floor() {
        let scene = flower(1);
        let s = svg(&scene, false);
        assert_eq!(s.matches("<g").count(), s.matches("</g>").count(), "{s}");
        for (i, p) in scene.pieces.iter().enumerate() {
            let n = s.matches(&format!(r#"data-piece="{i}""#)).count();
            assert_eq!(n, p.cells.len(), "piece {i}");
        }
        // The floor: the target's seven hexagons.
        let floor = &s[s.find(r#"<g id="floors""#).unwrap()..];
        let floor = &floor[..floor.find("</g>").unwrap()];
        assert_eq!(floor.matches(" Z").count(), 7, "{floor}");
        assert_eq!(floor.matches(" L").count(), 7 * 5, "six corners each");
        // The centre shows only its top, a hexagon, its edges dark (other pieces all round).
        let centre = drawn(&scene, [0, 0, 0]);
        assert_eq!(centre.faces.len(), 1);
        assert_eq!(centre.faces[0].points.len(), 6);
        assert_eq!((centre.faint.len(), centre.strong.len()), (0, 6));
        // A southern petal: its top and its two lower sides (the upright sides are seen
        // edge on); one top edge faint towards its own piece, and the side face between the
        // two lower sides faint.
        let south = drawn(&scene, [-1, -1, 0]);
        assert_eq!(south.faces.len(), 3);
        assert!(south.faces[1..].iter().all(|f| f.points.len() == 4));
        // A lone hexagon: its top and two sides, its outline dark, the folds faint.
        let mut lone = scene.clone();
        lone.pieces.truncate(1);
        let one = drawn(&lone, [0, 0, 0]);
        assert_eq!(one.faces.len(), 3);
        // Faint: the top's two lower edges and the side faces' tops (each drawn by both
        // faces that meet there), the upright edge between the two sides (once per side).
        // Dark: the top's other four edges, the sides' bottoms and their outer upright edges.
        assert_eq!((one.faint.len(), one.strong.len()), (6, 8));
        assert_eq!(svg(&scene, true), svg(&scene, true), "deterministic");
        for i in 0..scene.pieces.len() {
            let t = explode_move(&scene, i);
            assert!(Grid::Hexagon.is_translation(t), "{t:?}");
        }
        assert_ne!(explode_move(&scene, 1), [0; 3]);
    }

    #[test]
    fn two_layers_of_hexagons_draw_the_upper_over_the_lower() {
        let scene = flower(2);
        let s = svg(&scene, false);
        let at = |c: &str| s.find(&format!(r#"data-cell="{c}""#)).unwrap();
        // Lower layer first, north before south in a layer.
        assert!(at("1 -1 0") < at("1 1 1"));
        assert!(at("1 1 1") < at("0 0 1") && at("0 0 1") < at("-1 -1 1"));
        // The lower layer's tops are covered: only the southern rim's sides show.
        assert!(!s.contains(r#"data-cell="0 0 0""#));
        assert_eq!(drawn(&scene, [1, -1, 0]).faces.len(), 2);
    }

    /// The y range of a convex polygon on the upright line at `x`, if it meets it.
    fn span_at(poly: &[[f64; 2]], x: f64) -> Option<(f64, f64)> {
        let mut ys = Vec::new();
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            if (p[0] - x) * (q[0] - x) <= 0.0 && p[0] != q[0] {
                ys.push(p[1] + (x - p[0]) / (q[0] - p[0]) * (q[1] - p[1]));
            }
        }
        let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo <= hi).then_some((lo, hi))
    }

    #[test]
    fn the_drawing_order_puts_the_lower_of_overlapping_prisms_last() {
        // Every pair of cells of one layer whose pictures overlap (x ranges overlapping by
        // more than a point): the one lower on an upright line through both is in front, so
        // drawn later; and an upper layer after a lower.
        for grid in [Grid::Prism, Grid::Hexagon] {
            let cells: Vec<Cell> = (-6..=6)
                .flat_map(|u| (-6..=6).map(move |v| [u, v, 0]))
                .filter(|&c| grid.is_cell(c))
                .collect();
            let mut pairs = 0;
            for &a in &cells {
                for &b in &cells {
                    let (pa, pb) = (grid.polygon(a).unwrap(), grid.polygon(b).unwrap());
                    let range = |p: &[[f64; 2]]| {
                        let xs = p.iter().map(|q| q[0]);
                        (
                            xs.clone().fold(f64::INFINITY, f64::min),
                            xs.fold(f64::NEG_INFINITY, f64::max),
                        )
                    };
                    let (ra, rb) = (range(&pa), range(&pb));
                    let (lo, hi) = (ra.0.max(rb.0), ra.1.min(rb.1));
                    if a == b || hi - lo < 1e-9 {
                        continue;
                    }
                    let x = (lo + hi) / 2.0;
                    let (sa, sb) = (span_at(&pa, x).unwrap(), span_at(&pb, x).unwrap());
                    assert!(sa.1 <= sb.0 + 1e-9 || sb.1 <= sa.0 + 1e-9, "{a:?} {b:?}");
                    let a_lower = sa.1 <= sb.0 + 1e-9;
                    let a_later = far_to_near(grid, a, b) == Ordering::Greater;
                    assert_eq!(a_lower, a_later, "{grid:?}: {a:?} {b:?}");
                    let up = add(b, [0, 0, 1]);
                    assert_eq!(far_to_near(grid, a, up), Ordering::Less);
                    pairs += 1;
                }
            }
            assert!(pairs > 100, "{grid:?}: {pairs}");
        }
    }
}
