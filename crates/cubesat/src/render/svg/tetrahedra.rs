//! The SVG of a scene of tetrahedral cells (the rhombic and tetra-octa grids): a fixed oblique view, each piece's visible boundary faces as shaded triangles drawn far to near, with piece outlines, ghosts for empty cells and labels for loose pieces.
//!
//! The view looks from the south-south-west, [`ELEVATION`] above the horizon and [`AZIMUTH`]
//! round from due south: a generic direction, so that no face of either grid (whose planes
//! are the cube's faces and its diagonal planes) is seen edge-on. A point of space (cube
//! units, [`crate::geometry::Grid::tetrahedron`]'s frame) is drawn by an orthographic
//! projection onto the picture plane, at lattice coordinates [`super::Layout`] maps to the page.
//!
//! Faces drawn: a cell's faces that face the viewer and have no filled cell across them (a
//! face between two cells of one piece is inside it, and a face between two pieces is hidden
//! by the piece in front, until an explosion pulls them apart). Faces are drawn in order of
//! their centroids' depth, far first (the painter's algorithm): the grids' faces are a
//! face-to-face tiling, so two faces never cross, and only front faces are drawn, so a
//! convex body (a cell, an octahedron, a rhombic dodecahedron) is always right; where the
//! faces of a concave piece or of two pieces overlap in the picture, a long face can still
//! be drawn over a nearer small one, which the centroids alone cannot tell. Each face is its own `<g class="tetra">` with `data-piece` (its
//! piece's index in the scene, `-1` for an empty target cell) and `data-cell`, as the prism
//! and ball pictures mark their cells.
//!
//! Edges: a dark line where a drawn face meets a face of another piece or the outline of the
//! picture (an edge no other drawn face of its piece shares), a faint one between two drawn faces
//! of one piece (so the cells stay countable). Exploded, every piece moves from its container's
//! centre by [`super::EXPLODE_FACTOR`] times its centroid's offset, rounded to a move of the grid
//! (whole cubes, at least one; on the tetra-octa grid an even number of them in all).

use super::cells::{Ab, Drawn, Style, explode_want, page, place};
use crate::geometry::{Cell, Grid};
use crate::render::{Occupant, Scene};
use std::collections::HashMap;

/// The view's height above the horizon (radians). With [`AZIMUTH`], the direction is some
/// 25° or more from every axis, face diagonal and body diagonal of the cube, so a regular
/// tetrahedron of either orientation shows two faces, not one seen head-on.
const ELEVATION: f64 = 25.0 * std::f64::consts::PI / 180.0;

/// How far the viewer stands round from due south towards the west (radians).
const AZIMUTH: f64 = 15.0 * std::f64::consts::PI / 180.0;

/// A cube's edge in [`super::UNIT`]s: tetrahedral cells are small (a cube holds 24 or 6 of them).
const SCALE: f64 = 3.5;

/// Where the light comes from (towards it, unnormalised): the upper left, in front.
const LIGHT: [f64; 3] = [-0.45, -0.6, 0.8];

/// A corner's integer key, in eighths of a cube (both grids' corners lie on that lattice).
type Key = [i64; 3];

/// The picture plane's right and up vectors and the direction towards the viewer.
fn frame() -> [[f64; 3]; 3] {
    let (se, ce) = ELEVATION.sin_cos();
    let (sa, ca) = AZIMUTH.sin_cos();
    // Towards the viewer: south (-y), turned west (-x) by the azimuth, raised by the elevation.
    let v = [-sa * ce, -ca * ce, se];
    let r = [ca, -sa, 0.0];
    // up = v × r, so that right × up = towards the viewer.
    let u = [
        v[1] * r[2] - v[2] * r[1],
        v[2] * r[0] - v[0] * r[2],
        v[0] * r[1] - v[1] * r[0],
    ];
    [r, u, v]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Where a point of space is drawn (lattice coordinates: `a` in steps of `UNIT·√3/2` pixels
/// across, `b` in half units down) and its depth towards the viewer.
fn view(p: [f64; 3]) -> (Ab, f64) {
    let [r, u, v] = frame();
    let across = dot(p, r) * SCALE;
    let up = dot(p, u) * SCALE;
    ((across / (3f64.sqrt() / 2.0), -2.0 * up), dot(p, v))
}

/// One face as drawn: whose it is, its cell, its corners' keys and picture points, its
/// brightness and depth.
struct Face {
    owner: Occupant,
    cell: Cell,
    keys: [Key; 3],
    points: [Ab; 3],
    shade: f64,
    depth: f64,
    /// Its edges, dark ones and faint ones (filled in once every face is known).
    strong: Vec<(Ab, Ab)>,
    faint: Vec<(Ab, Ab)>,
}

/// The SVG of a scene of tetrahedra ([`crate::geometry::CellShape::Tetrahedron`]).
pub(super) fn svg(scene: &Scene, explode: bool) -> String {
    let occupied = place(scene, explode, explode_move);
    let faces = visible_faces(scene.grid, &occupied);
    let drawn: Vec<Drawn> = faces
        .iter()
        .map(|f| Drawn {
            owner: f.owner,
            cell: f.cell,
            faces: vec![(&f.points[..], f.shade)],
            strong: &f.strong,
            faint: &f.faint,
        })
        .collect();
    page(scene, explode, &STYLE, &[], &drawn)
}

/// Cells per cube along an axis: [`Grid::centre`] is a cell's coordinates over this.
fn cells_per_cube(grid: Grid) -> i32 {
    (1.0 / grid.centre([1, 0, 0])[0]).round() as i32
}

/// The move of the grid nearest to [`super::EXPLODE_FACTOR`] times piece `i`'s centroid's offset
/// from the centre of its container's box (in space), none for a piece without cells: whole cubes
/// along each axis, the nearest such move that is a translation of the grid.
fn explode_move(scene: &Scene, i: usize) -> Cell {
    let grid = scene.grid;
    let Some(mut want) = explode_want(scene, i) else {
        return [0; 3];
    };
    // The grid moves by whole cubes, much larger than a cell: a piece off the centre moves
    // at least a cube, so that small pieces part too.
    let big = want.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    if big > 1e-9 && big < 1.0 {
        want = want.map(|w| w / big);
    }
    let unit = cells_per_cube(grid);
    let near: [i32; 3] = want.map(|w| w.round() as i32);
    // The tetra-octa grid moves only by an even number of cubes in all: of the moves one
    // cube off along one axis, the nearest.
    let mut candidates = vec![near];
    for a in 0..3 {
        for s in [-1, 1] {
            let mut m = near;
            m[a] += s;
            candidates.push(m);
        }
    }
    let dist = |m: &[i32; 3]| {
        (0..3)
            .map(|a| (f64::from(m[a]) - want[a]).powi(2))
            .sum::<f64>()
    };
    candidates
        .into_iter()
        .map(|m| m.map(|v| v * unit))
        .filter(|&t| grid.is_translation(t))
        .min_by(|x, y| dist(&x.map(|v| v / unit)).total_cmp(&dist(&y.map(|v| v / unit))))
        .unwrap_or([0; 3])
}

/// A corner's key (see [`Key`]).
fn key(p: [f64; 3]) -> Key {
    p.map(|v| (v * 8.0).round() as i64)
}

/// A face's corners in a fixed order.
fn sorted(mut k: [Key; 3]) -> [Key; 3] {
    k.sort_unstable();
    k
}

/// The faces of the drawn cells that face the viewer and have no filled cell across them,
/// far to near, with their edges sorted into dark and faint.
fn visible_faces(grid: Grid, occupied: &HashMap<Cell, Occupant>) -> Vec<Face> {
    let mut cells: Vec<(Cell, Occupant)> = occupied.iter().map(|(&c, &o)| (c, o)).collect();
    cells.sort_unstable();
    let tets: Vec<[[f64; 3]; 4]> = cells
        .iter()
        .map(|&(c, _)| grid.tetrahedron(c).unwrap_or([[0.0; 3]; 4]))
        .collect();
    // Which drawn cells have each face (the grids tile face to face: at most two).
    let mut by_face: HashMap<[Key; 3], Vec<usize>> = HashMap::new();
    for (i, t) in tets.iter().enumerate() {
        let k = t.map(key);
        for skip in 0..4 {
            let f = [k[(skip + 1) % 4], k[(skip + 2) % 4], k[(skip + 3) % 4]];
            by_face.entry(sorted(f)).or_default().push(i);
        }
    }
    let [_, _, towards] = frame();
    let light = {
        let l = (dot(LIGHT, LIGHT)).sqrt();
        LIGHT.map(|v| v / l)
    };
    let mut faces = Vec::new();
    for (i, t) in tets.iter().enumerate() {
        let (c, owner) = cells[i];
        if grid.tetrahedron(c).is_none() {
            continue;
        }
        for skip in 0..4 {
            let mut idx = [(skip + 1) % 4, (skip + 2) % 4, (skip + 3) % 4];
            let (a, b, e) = (t[idx[0]], t[idx[1]], t[idx[2]]);
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [e[0] - a[0], e[1] - a[1], e[2] - a[2]];
            let mut n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let apex = t[skip];
            if dot(n, [apex[0] - a[0], apex[1] - a[1], apex[2] - a[2]]) > 0.0 {
                n = n.map(|x| -x);
                idx.swap(1, 2);
            }
            let len = dot(n, n).sqrt();
            let n = n.map(|x| x / len);
            if dot(n, towards) <= 1e-9 {
                continue;
            }
            let keys = idx.map(|j| key(t[j]));
            // Pieces are solid to pieces; empty cells are see-through, hidden by any cell.
            let across = by_face[&sorted(keys)].iter().find(|&&j| j != i);
            let hidden = across.is_some_and(|&j| match owner {
                Occupant::Empty => true,
                Occupant::Piece(_) => matches!(cells[j].1, Occupant::Piece(_)),
            });
            if hidden {
                continue;
            }
            let seen = idx.map(|j| view(t[j]));
            let centroid: [f64; 3] =
                std::array::from_fn(|k| idx.iter().map(|&j| t[j][k]).sum::<f64>() / 3.0);
            faces.push(Face {
                owner,
                cell: c,
                keys,
                points: seen.map(|(p, _)| p),
                shade: 0.55 + 0.45 * dot(n, light).max(0.0),
                depth: view(centroid).1,
                strong: Vec::new(),
                faint: Vec::new(),
            });
        }
    }
    faces.sort_by(|x, y| {
        x.depth
            .total_cmp(&y.depth)
            .then(x.cell.cmp(&y.cell))
            .then(x.keys.cmp(&y.keys))
    });
    // Edges: faint where another drawn face of the same owner shares the edge.
    let mut owners: HashMap<[Key; 2], Vec<Occupant>> = HashMap::new();
    for f in &faces {
        for m in 0..3 {
            let mut e = [f.keys[m], f.keys[(m + 1) % 3]];
            e.sort_unstable();
            owners.entry(e).or_default().push(f.owner);
        }
    }
    for f in &mut faces {
        for m in 0..3 {
            let mut e = [f.keys[m], f.keys[(m + 1) % 3]];
            e.sort_unstable();
            let same = owners[&e].iter().filter(|&&o| o == f.owner).count();
            let seg = (f.points[m], f.points[(m + 1) % 3]);
            if same > 1 {
                f.faint.push(seg);
            } else {
                f.strong.push(seg);
            }
        }
    }
    faces
}

/// How tetrahedral cells' faces are written (see [`page`]): thinner strokes than prisms', as
/// the cells are smaller.
const STYLE: Style = Style {
    view: "oblique view of tetrahedra",
    group: "tetrahedra",
    class: "tetra",
    ghost_opacity: "0.45",
    faint_opacity: "0.25",
    faint_width: "0.7",
    strong_width: "1.5",
    hint_width: "5",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{Container, ScenePiece};

    fn piece(name: &str, letter: char, cells: Vec<Cell>, color: usize) -> ScenePiece {
        ScenePiece {
            name: name.into(),
            letter,
            hint: false,
            cells,
            color,
        }
    }

    /// The 24 cells of cube 0 of the rhombic grid.
    fn rhombic_cube() -> Vec<Cell> {
        let mut out = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                for z in 0..8 {
                    if Grid::Rhombic.is_cell([x, y, z]) {
                        out.push([x, y, z]);
                    }
                }
            }
        }
        out
    }

    /// Cube 0 of the rhombic grid as six pieces: its face pyramids (four cells each, the
    /// cells standing on one face of the cube).
    fn cube_scene() -> Scene {
        let cells = rhombic_cube();
        assert_eq!(cells.len(), 24);
        let on_face = |a: usize, v: i32| -> Vec<Cell> {
            cells.iter().copied().filter(|c| c[a] == v).collect()
        };
        let pieces = (0..6)
            .map(|k| {
                let (a, v) = (k / 2, if k % 2 == 0 { 1 } else { 7 });
                let letter = char::from(b'a' + k as u8);
                piece(&format!("pyramid {letter}"), letter, on_face(a, v), k)
            })
            .collect();
        Scene {
            title: "cube of pyramids".into(),
            // The cells' bounding box (centroids 1..=7), as a solution's container is.
            containers: vec![Container {
                origin: [1, 1, 1],
                size: [7, 7, 7],
            }],
            pieces,
            grid: Grid::Rhombic,
            ..Default::default()
        }
    }

    /// The tetra-octa grid's cube 0: its regular tetrahedron and its four corner cells, five
    /// pieces.
    fn tetra_cube() -> Scene {
        let corners: Vec<Cell> = [
            [1, 1, 1],
            [3, 3, 1],
            [3, 1, 3],
            [1, 3, 3],
            [3, 1, 1],
            [1, 3, 1],
            [1, 1, 3],
            [3, 3, 3],
        ]
        .into_iter()
        .filter(|&c| Grid::TetraOcta.is_cell(c))
        .collect();
        assert_eq!(corners.len(), 4);
        Scene {
            title: "tetra-octa cube".into(),
            containers: vec![Container {
                origin: [1, 1, 1],
                size: [3, 3, 3],
            }],
            // The corners apart, so that an explosion uncovers the tetrahedron.
            pieces: std::iter::once(piece("tetrahedron", 't', vec![[2, 2, 2]], 0))
                .chain(corners.iter().enumerate().map(|(k, &c)| {
                    let letter = char::from(b'a' + k as u8);
                    piece(&format!("corner {letter}"), letter, vec![c], k + 1)
                }))
                .collect(),
            grid: Grid::TetraOcta,
            ..Default::default()
        }
    }

    #[test]
    fn every_piece_is_drawn_with_the_legend() {
        for scene in [cube_scene(), tetra_cube()] {
            let s = svg(&scene, false);
            assert!(s.starts_with("<?xml") && s.trim_end().ends_with("</svg>"));
            assert_eq!(s.matches("<g").count(), s.matches("</g>").count(), "{s}");
            assert!(s.contains("oblique view of tetrahedra"));
            // Exploded, every piece shows (assembled, the far side's pyramids are hidden).
            let x = svg(&scene, true);
            for (i, p) in scene.pieces.iter().enumerate() {
                assert!(x.contains(&format!(r#"data-piece="{i}""#)), "piece {i}");
                assert!(
                    s.contains(&format!("{}  {}", p.letter, p.name)),
                    "legend {i}"
                );
            }
            assert_eq!(s, svg(&scene, false), "deterministic");
            assert_eq!(x, svg(&scene, true));
        }
        // The pieces move apart.
        assert_ne!(svg(&cube_scene(), true), svg(&cube_scene(), false));
        assert_ne!(svg(&tetra_cube(), true), svg(&tetra_cube(), false));
    }

    #[test]
    fn only_the_outside_shows_assembled() {
        // A whole cube: only its outer faces, at most three square faces of four triangles
        // each seen from one side; exploded, the faces between the pieces show too.
        let scene = cube_scene();
        let occupied = place(&scene, false, explode_move);
        let faces = visible_faces(scene.grid, &occupied);
        assert_eq!(faces.len(), 12, "three cube faces of four triangles");
        let exploded = visible_faces(scene.grid, &place(&scene, true, explode_move));
        assert!(exploded.len() > 12, "{}", exploded.len());
        // Edges between two pieces and along the outline are dark, inside a cube face faint.
        let strong: usize = faces.iter().map(|f| f.strong.len()).sum();
        let faint: usize = faces.iter().map(|f| f.faint.len()).sum();
        assert_eq!(strong + faint, 36);
        assert!(strong > 0 && faint > 0, "{strong} {faint}");
        // Far to near.
        assert!(faces.windows(2).all(|w| w[0].depth <= w[1].depth));
    }

    #[test]
    fn explosion_moves_by_the_grid() {
        for scene in [cube_scene(), tetra_cube()] {
            for i in 0..scene.pieces.len() {
                let t = explode_move(&scene, i);
                assert!(scene.grid.is_translation(t), "{t:?}");
            }
        }
        // The regular tetrahedron sits at the cube's centre: it stays; a corner cell moves
        // two cubes out (one cube along each axis would be a move of odd sum), a pyramid a
        // cube away from the cube's centre, across its face.
        let scene = tetra_cube();
        assert_eq!(explode_move(&scene, 0), [0; 3]);
        let corner = explode_move(&scene, 1);
        assert_eq!(corner.iter().map(|v| v.abs()).sum::<i32>(), 8, "{corner:?}");
        assert_eq!(explode_move(&cube_scene(), 0), [-8, 0, 0]);
    }

    #[test]
    fn empty_cells_are_ghosts_and_hints_marked() {
        let mut scene = cube_scene();
        let top = scene.pieces.pop().unwrap();
        scene.empty = top.cells;
        scene.pieces[0].hint = true;
        let s = svg(&scene, false);
        assert!(s.contains(r#"data-piece="-1""#));
        assert!(s.contains("·  empty"));
        assert!(s.contains("hint-mark"));
    }

    #[test]
    fn nothing_to_draw_is_an_empty_picture() {
        let scene = Scene {
            grid: Grid::TetraOcta,
            ..Default::default()
        };
        for explode in [false, true] {
            let s = svg(&scene, explode);
            assert!(s.contains(r#"<g id="tetrahedra""#) && !s.contains(r#"class="tetra""#));
        }
    }
}
