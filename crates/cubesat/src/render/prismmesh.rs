//! The STL mesh of a piece of prisms (the prism grid's triangles, the hexagon grid's hexagons: any right prism over a convex polygon): a closed, outward-facing, watertight surface, optionally shrunk by a clearance gap as [`super::stl`] shrinks polycubes.
//!
//! A gap `g` erodes the piece by `d = g/2`, so two printed pieces that touch in the puzzle are
//! `g` apart across every side and layer they share. As for cubes, the eroded solid is a union
//! of sub-blocks: the lines parallel to a polygon's sides at distance `d` inside it cut it
//! into an inner polygon, a strip along each side (between the side, its parallel and the
//! parallels of the two sides beside it) and a parallelogram at each corner (between the two
//! sides through it and their parallels: a 60° rhombus in a triangle, a 120° one in a
//! hexagon); and the layer is cut at `d` and `1 - d` into three slabs. A region is kept in a
//! layer when every cell its `d`-neighbourhood reaches is in the piece: the inner polygon its
//! own cell, a strip its cell and the one across its side, a corner every cell of the layer
//! that has that corner (six triangles, three hexagons); a bottom (top) slab also needs the
//! same cells in the layer below (above). That is the analogue of the cube mesher's 3x3x3
//! sub-blocks: a kept point is at least `d` from every side or layer boundary with a cell of
//! another piece (or none) beyond it. Nothing here knows which grid it meshes: the cells
//! across a side are the neighbours ([`Grid::neighbour_offsets_of`]) whose polygon has both
//! of its corners, the cells at a corner those reached from the cell through sides that have
//! it, all read off [`Grid::polygon`].
//!
//! Faces are emitted between kept and removed sub-blocks, two triangles per rectangle and a fan
//! per region (every region is convex). Neighbouring polygons meet in the same points: every
//! lattice point has one value (the first polygon met there sets it), and every point where a
//! side is cut (at `d / sin θ` from its end, θ the corner's angle, equal in both polygons of
//! the side on these lattices) is computed once for the side's two ends in that order, so it
//! is equal to the bit in both; every slab boundary is at the same height in every cell, and a
//! region's status is a function of the cells it reaches, so the two strips or corners on
//! either side of a shared side, and a region's slabs either side of a layer boundary, agree.
//! Around every line where sub-blocks meet the kept ones are contiguous (a corner is kept only
//! with the strips and the inner polygon beside it, a strip only with its inner polygon, an
//! end slab only with the middle slab next to it, and all corners at one lattice point
//! together), so no edge has kept sub-blocks on two diagonal sides only: every mesh edge joins
//! exactly two triangles, without T-junctions, and the mesh is watertight, wound
//! counter-clockwise seen from outside. With no gap each prism is one block (its two polygons
//! and the side rectangles where no cell of the piece is beyond); pieces whose prisms meet only
//! along an edge then share that edge four times, which a gap avoids (its corners or strips
//! there are removed).

use std::collections::{HashMap, HashSet, VecDeque};

use crate::error::Result;
use crate::geometry::{Cell, Grid, add};

use super::stl::Mesh;

/// A point of the plane, in the grid's cell units ([`Grid::centre`]'s frame).
pub(crate) type P2 = [f64; 2];

/// A polygon corner's position on the grid's point lattice, to tell corners apart whatever
/// rounding their coordinates carry.
pub(crate) type Key = (i64, i64);

/// Key units per step of [`Grid::centre`] between neighbouring `u` (or `v`): the tilings'
/// corners lie at thirds and halves of those steps (a triangle's at `u ± 1`, `v ± 1` or
/// `v ± 2` of the prism grid's, a hexagon's at `u ± 1`, `v ± 1/3` or `v ± 2/3`), so at
/// whole numbers of twelfths.
const KEY_DIVISIONS: f64 = 12.0;

/// One of the regions of a polygon (or, with no gap, the whole polygon). Sides and corners
/// are numbered as [`Grid::polygon`] lists corners: side `i` runs from corner `i` to corner
/// `i + 1`, counter-clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    Whole,
    Inner,
    /// The strip along side `i`.
    Strip(usize),
    /// The parallelogram at corner `i`.
    Corner(usize),
}

/// What lies across one edge of a region's outline.
enum Beyond {
    /// Another region of the same polygon.
    Own(Region),
    /// The region of the cell across side `i` that shares this edge.
    Across(usize),
}

/// A prism's polygon: its corners counter-clockwise (in the mesher one value per lattice
/// point, shared by every polygon at that point), their lattice keys, the offsets to the
/// cells across its sides (side `i` from corner `i` to corner `i + 1`).
pub(crate) struct Poly {
    pub(crate) corner: Vec<P2>,
    pub(crate) key: Vec<Key>,
    pub(crate) across: Vec<Cell>,
}

impl Poly {
    /// The number of corners (and sides).
    pub(crate) fn len(&self) -> usize {
        self.corner.len()
    }
}

/// Where a polygon's sides are cut (see [`Prisms::new`]): per corner `i`, the point on side
/// `i` and the point on side `i - 1` at the cut distance from it, and the inner polygon's
/// corner near it (the far corner of its parallelogram).
struct Cuts {
    next: Vec<P2>,
    prev: Vec<P2>,
    inner: Vec<P2>,
}

/// The piece, its polygons and how it is cut (see the module documentation).
struct Prisms {
    full: HashSet<Cell>,
    /// Polygons by `[u, v]` (every layer of a column has the same one).
    polys: HashMap<[i32; 2], Poly>,
    /// The offsets to the cells around each of their corners ([`around`]).
    arounds: HashMap<[i32; 2], Vec<Vec<Cell>>>,
    /// Where each of them is cut, with a gap.
    cuts: HashMap<[i32; 2], Cuts>,
    /// Half the gap, in cell units.
    d: f64,
    /// Slab indices: 0 = `[z, z + d]`, 1 = `[z + d, z + 1 - d]`, 2 = `[z + 1 - d, z + 1]`;
    /// with no gap only 1, which is then the whole layer.
    slabs: &'static [usize],
    /// The heights of slab boundaries within a layer: slab `k` spans `level[k]..level[k + 1]`.
    level: [f64; 4],
    edge: f64,
}

/// The mesh of a piece of prisms: `cells` on `grid` (whose cells are prisms,
/// [`Grid::polygon`]), `edge` the cell size (mm: a triangle's side, a hexagon's width across
/// its flat sides, and the prism's height); the size checks of [`super::stl::polycube`] apply,
/// with the cell size for the cube's edge.
pub fn prisms(grid: Grid, cells: &[Cell], edge: f64, gap: f64) -> Result<Mesh> {
    super::stl::check_sizes(edge, gap)?;
    let piece = Prisms::new(grid, cells, edge, gap);
    let mut mesh = Mesh::default();
    let mut sorted: Vec<Cell> = piece.full.iter().copied().collect();
    sorted.sort_unstable();
    for &c in &sorted {
        let n = piece.poly(c).len();
        let regions: Vec<Region> = if piece.d > 0.0 {
            [Region::Inner]
                .into_iter()
                .chain((0..n).map(Region::Strip))
                .chain((0..n).map(Region::Corner))
                .collect()
        } else {
            vec![Region::Whole]
        };
        for &r in &regions {
            for &k in piece.slabs {
                piece.faces(c, r, k, &mut mesh);
            }
        }
    }
    Ok(mesh)
}

/// A corner's key on `grid`: its position in [`KEY_DIVISIONS`]ths of the steps of
/// [`Grid::centre`] from `u` to `u + 1` (along x) and from `v` to `v + 1` (along y), in which
/// every lattice point has integer coordinates.
pub(crate) fn key(grid: Grid, p: P2) -> Key {
    let (base, step) = key_frame(grid);
    let at = |a: usize| ((p[a] - base[a]) / step[a] * KEY_DIVISIONS).round() as i64;
    (at(0), at(1))
}

/// The origin of [`key`]s in the plane and the steps of [`Grid::centre`] they count.
fn key_frame(grid: Grid) -> (P2, P2) {
    let base = grid.centre([0, 0, 0]);
    let step = [
        grid.centre([1, 0, 0])[0] - base[0],
        grid.centre([0, 1, 0])[1] - base[1],
    ];
    ([base[0], base[1]], step)
}

/// Cell `c`'s polygon ([`Grid::polygon`]) with its corners' keys and the offsets to the cells
/// across its sides: the cell across side `i` is the neighbour in the layer
/// ([`Grid::neighbour_offsets_of`]) whose polygon has both of the side's corners.
pub(crate) fn polygon(grid: Grid, c: Cell) -> Poly {
    let keys = |x: Cell| -> Vec<Key> {
        grid.polygon(x)
            .expect("a prism cell has a polygon")
            .iter()
            .map(|&p| key(grid, p))
            .collect()
    };
    let corner = grid.polygon(c).expect("a prism cell has a polygon");
    let key = keys(c);
    let n = corner.len();
    let mut across = vec![[0; 3]; n];
    for m in touching(grid, c) {
        let theirs = keys(m);
        for i in 0..n {
            if theirs.contains(&key[i]) && theirs.contains(&key[(i + 1) % n]) {
                across[i] = [m[0] - c[0], m[1] - c[1], 0];
            }
        }
    }
    debug_assert!(across.iter().all(|o| *o != [0; 3]), "{c:?}");
    debug_assert!(
        corner.iter().zip(&key).all(|(p, k)| {
            let (base, step) = key_frame(grid);
            let back = [k.0, k.1].map(|v| v as f64 / KEY_DIVISIONS);
            (0..2).all(|a| (base[a] + back[a] * step[a] - p[a]).abs() < 1e-9)
        }),
        "the corners of {c:?} are lattice points"
    );
    Poly {
        corner,
        key,
        across,
    }
}

/// The offsets from cell `c` (of polygon `poly`, [`polygon`]) to the other cells of its layer
/// that have each of its corners: those reached from `c` through neighbours
/// ([`Grid::neighbour_offsets_of`]) that have the corner, as around a lattice point the
/// polygons that have it form a ring joined by sides (six triangles, three hexagons).
pub(crate) fn around(grid: Grid, c: Cell, poly: &Poly) -> Vec<Vec<Cell>> {
    let mut known: HashMap<Cell, Vec<Key>> = HashMap::new();
    let mut keys = |x: Cell| {
        known
            .entry(x)
            .or_insert_with(|| {
                grid.polygon(x)
                    .expect("a prism cell has a polygon")
                    .iter()
                    .map(|&p| key(grid, p))
                    .collect()
            })
            .clone()
    };
    poly.key
        .iter()
        .map(|k| {
            let mut seen = vec![c];
            let mut queue = VecDeque::from([c]);
            while let Some(x) = queue.pop_front() {
                for m in touching(grid, x) {
                    if !seen.contains(&m) && keys(m).contains(k) {
                        seen.push(m);
                        queue.push_back(m);
                    }
                }
            }
            seen[1..]
                .iter()
                .map(|&m| [m[0] - c[0], m[1] - c[1], 0])
                .collect()
        })
        .collect()
}

/// The cells of `x`'s layer that touch it ([`Grid::neighbour_offsets_of`]).
fn touching(grid: Grid, x: Cell) -> impl Iterator<Item = Cell> {
    grid.neighbour_offsets_of(x)
        .iter()
        .filter(|o| o[2] == 0)
        .map(move |&o| add(x, o))
        .filter(move |&m| grid.is_cell(m))
}

impl Prisms {
    fn new(grid: Grid, cells: &[Cell], edge: f64, gap: f64) -> Prisms {
        let d = gap / 2.0 / edge;
        let full: HashSet<Cell> = cells.iter().copied().collect();
        let mut sorted: Vec<Cell> = full.iter().copied().collect();
        sorted.sort_unstable();
        // One value per lattice point: the first polygon met at a corner sets it, so the
        // points cut on a shared side are computed from equal corners in both polygons.
        let mut points: HashMap<Key, P2> = HashMap::new();
        let mut polys = HashMap::new();
        let mut columns = Vec::new();
        for &c in &sorted {
            polys.entry([c[0], c[1]]).or_insert_with(|| {
                columns.push([c[0], c[1]]);
                let mut poly = polygon(grid, c);
                for (p, k) in poly.corner.iter_mut().zip(&poly.key) {
                    *p = *points.entry(*k).or_insert(*p);
                }
                poly
            });
        }
        // One value per cut point too, keyed by the side's end it is near and the other
        // end: the two polygons of a side cut it at the same distances from its ends, and
        // this makes the points equal to the bit whatever rounding each would carry.
        let arounds = columns
            .iter()
            .map(|&[u, v]| ([u, v], around(grid, [u, v, 0], &polys[&[u, v]])))
            .collect();
        let mut cut_at: HashMap<(Key, Key), P2> = HashMap::new();
        let mut cuts = HashMap::new();
        if d > 0.0 {
            for col in &columns {
                let poly: &Poly = &polys[col];
                let n = poly.len();
                let (mut next, mut prev, mut inner) = (Vec::new(), Vec::new(), Vec::new());
                for i in 0..n {
                    let (a, b, e) = (
                        poly.corner[i],
                        poly.corner[(i + 1) % n],
                        poly.corner[(i + n - 1) % n],
                    );
                    let (u, w) = ([b[0] - a[0], b[1] - a[1]], [e[0] - a[0], e[1] - a[1]]);
                    // The parallel at d to side i - 1 crosses side i at d / sin θ from the
                    // corner: u × w = |u| |w| sin θ, so at d·|w| / (u × w) of u; and the
                    // parallel to side i crosses side i - 1 at d·|u| / (u × w) of w.
                    let cross = u[0] * w[1] - u[1] * w[0];
                    let (tn, tp) = (d * w[0].hypot(w[1]) / cross, d * u[0].hypot(u[1]) / cross);
                    let nx = *cut_at
                        .entry((poly.key[i], poly.key[(i + 1) % n]))
                        .or_insert([a[0] + tn * u[0], a[1] + tn * u[1]]);
                    let pv = *cut_at
                        .entry((poly.key[i], poly.key[(i + n - 1) % n]))
                        .or_insert([a[0] + tp * w[0], a[1] + tp * w[1]]);
                    // The corner's parallelogram: its far corner is where the two parallels
                    // cross.
                    inner.push([nx[0] + pv[0] - a[0], nx[1] + pv[1] - a[1]]);
                    next.push(nx);
                    prev.push(pv);
                }
                cuts.insert(*col, Cuts { next, prev, inner });
            }
        }
        let (slabs, level): (&'static [usize], [f64; 4]) = if d > 0.0 {
            (&[0, 1, 2], [0.0, d, 1.0 - d, 1.0])
        } else {
            (&[1], [0.0, 0.0, 1.0, 1.0])
        };
        Prisms {
            full,
            polys,
            arounds,
            cuts,
            d,
            slabs,
            level,
            edge,
        }
    }

    /// The polygon of a cell of the piece.
    fn poly(&self, c: Cell) -> &Poly {
        &self.polys[&[c[0], c[1]]]
    }

    /// True when the cells region `r` of cell `c` reaches in its own layer are all in the
    /// piece.
    fn reaches_piece(&self, c: Cell, r: Region) -> bool {
        if !self.full.contains(&c) {
            return false;
        }
        match r {
            Region::Whole | Region::Inner => true,
            Region::Strip(i) => self.full.contains(&add(c, self.poly(c).across[i])),
            Region::Corner(i) => self.arounds[&[c[0], c[1]]][i]
                .iter()
                .all(|&o| self.full.contains(&add(c, o))),
        }
    }

    /// True when slab `k` of region `r` of cell `c` is in the eroded piece: the cells the
    /// region reaches are in the piece in its own layer, and for an end slab in the layer
    /// beyond that end too.
    fn solid(&self, c: Cell, r: Region, k: usize) -> bool {
        let layers: &[i32] = match k {
            0 => &[-1, 0],
            2 => &[0, 1],
            _ => &[0],
        };
        layers
            .iter()
            .all(|&dz| self.reaches_piece(add(c, [0, 0, dz]), r))
    }

    /// The region of the cell across side `j` of cell `c` that meets region `r` along that
    /// side: the whole polygon, the strip along the same side, or the corner at the same
    /// lattice point.
    fn across(&self, c: Cell, r: Region, j: usize) -> (Cell, Region) {
        let poly = self.poly(c);
        let n = add(c, poly.across[j]);
        let Some(theirs) = self.polys.get(&[n[0], n[1]]) else {
            // No cell of the piece in that column: whatever the region, it is empty there.
            return (n, r);
        };
        let r2 = match r {
            Region::Whole | Region::Inner => Region::Whole,
            Region::Strip(_) => Region::Strip(
                (0..theirs.len())
                    .find(|&i| add(n, theirs.across[i]) == c)
                    .expect("the shared side"),
            ),
            Region::Corner(i) => Region::Corner(
                (0..theirs.len())
                    .find(|&m| theirs.key[m] == poly.key[i])
                    .expect("the shared corner"),
            ),
        };
        (n, r2)
    }

    /// Region `r`'s outline in cell `c`'s polygon, counter-clockwise, and what lies beyond
    /// each of its edges (edge `m` runs from point `m` to point `m + 1`).
    fn outline(&self, c: Cell, r: Region) -> (Vec<P2>, Vec<Beyond>) {
        let poly = self.poly(c);
        let n = poly.len();
        if r == Region::Whole {
            return (poly.corner.clone(), (0..n).map(Beyond::Across).collect());
        }
        let cut = &self.cuts[&[c[0], c[1]]];
        match r {
            Region::Inner => (
                cut.inner.clone(),
                (0..n).map(|i| Beyond::Own(Region::Strip(i))).collect(),
            ),
            Region::Strip(i) => (
                vec![
                    cut.next[i],
                    cut.prev[(i + 1) % n],
                    cut.inner[(i + 1) % n],
                    cut.inner[i],
                ],
                vec![
                    Beyond::Across(i),
                    Beyond::Own(Region::Corner((i + 1) % n)),
                    Beyond::Own(Region::Inner),
                    Beyond::Own(Region::Corner(i)),
                ],
            ),
            Region::Corner(i) => (
                vec![poly.corner[i], cut.next[i], cut.inner[i], cut.prev[i]],
                vec![
                    Beyond::Across(i),
                    Beyond::Own(Region::Strip(i)),
                    Beyond::Own(Region::Strip((i + n - 1) % n)),
                    Beyond::Across((i + n - 1) % n),
                ],
            ),
            Region::Whole => unreachable!("handled above"),
        }
    }

    /// The faces of slab `k` of region `r` of cell `c` that border a removed sub-block,
    /// added to `mesh` (nothing when the sub-block is removed itself).
    fn faces(&self, c: Cell, r: Region, k: usize, mesh: &mut Mesh) {
        if !self.solid(c, r, k) {
            return;
        }
        let (points, beyond) = self.outline(c, r);
        let z = f64::from(c[2]);
        let (low, high) = (
            (z + self.level[k]) * self.edge,
            (z + self.level[k + 1]) * self.edge,
        );
        let at = |p: P2, h: f64| [p[0] * self.edge, p[1] * self.edge, h];
        let n = points.len();
        for (m, b) in beyond.iter().enumerate() {
            let (c2, r2) = match *b {
                Beyond::Own(r2) => (c, r2),
                Beyond::Across(j) => self.across(c, r, j),
            };
            if !self.solid(c2, r2, k) {
                // The outward side of an edge of a counter-clockwise outline is its right:
                // p0 q0 q1 is counter-clockwise seen from there.
                let (p, q) = (points[m], points[(m + 1) % n]);
                let (p0, q0, q1, p1) = (at(p, low), at(q, low), at(q, high), at(p, high));
                mesh.triangles.push([p0, q0, q1]);
                mesh.triangles.push([p0, q1, p1]);
            }
        }
        let last = *self.slabs.last().expect("a slab");
        let first = self.slabs[0];
        let up = if k < last {
            (c, k + 1)
        } else {
            (add(c, [0, 0, 1]), first)
        };
        let down = if k > first {
            (c, k - 1)
        } else {
            (add(c, [0, 0, -1]), last)
        };
        if !self.solid(up.0, r, up.1) {
            // Counter-clockwise in the plane: seen from above as it is.
            for m in 1..n - 1 {
                mesh.triangles.push([
                    at(points[0], high),
                    at(points[m], high),
                    at(points[m + 1], high),
                ]);
            }
        }
        if !self.solid(down.0, r, down.1) {
            for m in 1..n - 1 {
                mesh.triangles.push([
                    at(points[0], low),
                    at(points[m + 1], low),
                    at(points[m], low),
                ]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prisms `[u, v]` of layer `z`.
    fn layer(z: i32, uv: &[[i32; 2]]) -> Vec<Cell> {
        uv.iter().map(|&[u, v]| [u, v, z]).collect()
    }

    /// The six triangles around the lattice point at the origin, counter-clockwise from the
    /// one at 30°.
    const HEXAGON: [[i32; 2]; 6] = [[1, 1], [0, 2], [-1, 1], [-1, -1], [0, -2], [1, -1]];
    /// A triangle of side 2: three upward triangles and the downward one between them.
    const TRIANGLE2: [[i32; 2]; 4] = [[1, 1], [2, 2], [3, 1], [2, 4]];

    /// Every directed edge once and its reverse once: closed, consistently wound, no
    /// T-junction (a vertex inside another triangle's edge leaves that edge unpaired), and
    /// no edge shared by four triangles. Vertices are compared to the bit.
    fn assert_watertight(mesh: &Mesh, what: &str) {
        let bits = |p: [f64; 3]| p.map(f64::to_bits);
        let mut edges: HashMap<([u64; 3], [u64; 3]), u32> = HashMap::new();
        for t in &mesh.triangles {
            let v = t.map(bits);
            assert!(
                v[0] != v[1] && v[1] != v[2] && v[2] != v[0],
                "{what}: degenerate"
            );
            for m in 0..3 {
                *edges.entry((v[m], v[(m + 1) % 3])).or_default() += 1;
            }
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1, "{what}: directed edge used {n} times");
            assert_eq!(
                edges.get(&(b, a)),
                Some(&1),
                "{what}: edge without its twin"
            );
        }
    }

    fn shapes() -> Vec<(&'static str, Vec<Cell>)> {
        let mut two_layers = layer(0, &TRIANGLE2);
        // Layer 1 overhangs layer 0 by a triangle (the downward one right of [3, 1]).
        two_layers.extend(layer(1, &[[2, 2], [3, 1], [4, 2]]));
        let mut tall = layer(0, &TRIANGLE2);
        tall.extend(layer(1, &TRIANGLE2));
        tall.extend(layer(2, &[[1, 1]]));
        vec![
            ("one", layer(0, &[[1, 1]])),
            ("diamond", layer(0, &[[1, 1], [2, 2]])),
            ("hexagon", layer(0, &HEXAGON)),
            ("five of a hexagon", layer(0, &HEXAGON[..5])),
            ("triangle of side 2", layer(0, &TRIANGLE2)),
            ("two layers", two_layers),
            ("three layers", tall),
        ]
    }

    const AREA: f64 = 0.4330127018922193; // √3/4, a triangle of side 1

    #[test]
    fn flush_pieces_are_their_prisms() {
        let m = prisms(Grid::Prism, &layer(0, &[[1, 1]]), 10.0, 0.0).unwrap();
        assert_eq!(m.triangles.len(), 8, "two triangles and three rectangles");
        for (what, cells) in shapes() {
            let m = prisms(Grid::Prism, &cells, 10.0, 0.0).unwrap();
            let exact = cells.len() as f64 * AREA * 1000.0;
            assert!((m.volume() - exact).abs() < 1e-9, "{what}: {}", m.volume());
            assert_watertight(&m, what);
        }
        // A downward prism alone too.
        assert_watertight(
            &prisms(Grid::Prism, &layer(3, &[[2, 2]]), 7.0, 0.0).unwrap(),
            "down",
        );
    }

    #[test]
    fn gaps_erode_by_half_the_gap() {
        let (edge, gap) = (10.0, 1.0);
        let d = gap / 2.0 / edge;
        let s3 = 3f64.sqrt();
        let height = (1.0 - 2.0 * d) * edge;
        // One prism: the inner triangle (side 1 - 2√3 d) over the middle slab.
        let inner = AREA * (1.0 - 2.0 * s3 * d).powi(2);
        let m = prisms(Grid::Prism, &layer(0, &[[1, 1]]), edge, gap).unwrap();
        assert!((m.volume() - inner * edge * edge * height).abs() < 1e-9);
        // A diamond: two inner triangles and the two strips along the shared side
        // (trapezoids of height d between sides 1 - 4d/√3 and 1 - 2√3 d).
        let strip = d * ((1.0 - 4.0 * d / s3) + (1.0 - 2.0 * s3 * d)) / 2.0;
        let m = prisms(Grid::Prism, &layer(0, &[[1, 1], [2, 2]]), edge, gap).unwrap();
        let exact = 2.0 * (inner + strip) * edge * edge * height;
        assert!((m.volume() - exact).abs() < 1e-9, "{} {exact}", m.volume());
        // A hexagon: the regular hexagon of inradius √3/2 - d (its six rhombi at the centre
        // are kept).
        let m = prisms(Grid::Prism, &layer(0, &HEXAGON), edge, gap).unwrap();
        let exact = 2.0 * s3 * (s3 / 2.0 - d).powi(2) * edge * edge * height;
        assert!((m.volume() - exact).abs() < 1e-9, "{} {exact}", m.volume());
        // Two stacked prisms: one inner triangle two layers high, less d at each end.
        let m = prisms(Grid::Prism, &[[1, 1, 0], [1, 1, 1]], edge, gap).unwrap();
        let exact = inner * edge * edge * (2.0 - 2.0 * d) * edge;
        assert!((m.volume() - exact).abs() < 1e-9, "{} {exact}", m.volume());
    }

    #[test]
    fn gapped_meshes_are_watertight_and_shrink_with_the_gap() {
        let mut shapes = shapes();
        // Triangles of one layer meeting only at a corner, joined through the layer above:
        // with a gap the rhombi there go, so no edge is shared by four triangles.
        let mut corner = layer(0, &[HEXAGON[0], HEXAGON[3]]);
        corner.extend(layer(1, &HEXAGON[..4]));
        shapes.push(("touching at a corner", corner));
        for (what, cells) in shapes {
            let mut last = f64::INFINITY;
            for gap in [0.0, 0.1, 0.4, 1.0, 2.5] {
                let m = prisms(Grid::Prism, &cells, 10.0, gap).unwrap();
                if gap > 0.0 || what != "touching at a corner" {
                    assert_watertight(&m, &format!("{what}, gap {gap}"));
                }
                let v = m.volume();
                assert!(0.0 < v && v < last, "{what}, gap {gap}: {v} after {last}");
                last = v;
            }
        }
    }

    #[test]
    fn sizes_are_checked() {
        let one = layer(0, &[[1, 1]]);
        assert!(prisms(Grid::Prism, &one, 10.0, 2.5).is_ok());
        assert!(prisms(Grid::Prism, &one, 10.0, 2.6).is_err());
        assert!(prisms(Grid::Prism, &one, 0.0, 0.0).is_err());
        assert!(
            prisms(Grid::Prism, &[], 10.0, 0.2)
                .unwrap()
                .triangles
                .is_empty()
        );
    }

    /// Hexagons `[u, v]` of layer `z` on the hexagon grid.
    fn hexes(z: i32, uv: &[[i32; 2]]) -> Vec<Cell> {
        layer(z, uv)
    }

    /// A hexagon and its six neighbours, the centre first, the ring counter-clockwise from
    /// the east.
    const FLOWER: [[i32; 2]; 7] = [[0, 0], [2, 0], [1, 1], [-1, 1], [-2, 0], [-1, -1], [1, -1]];
    /// Three hexagons around the lattice point between them.
    const THREE: [[i32; 2]; 3] = [[0, 0], [2, 0], [1, 1]];

    fn hexagon_shapes() -> Vec<(&'static str, Vec<Cell>)> {
        let mut two_layers = hexes(0, &FLOWER);
        // Layer 1 overhangs layer 0 by a hexagon east of the ring.
        two_layers.extend(hexes(1, &[[1, 1], [2, 0], [3, 1], [4, 0]]));
        let mut stacked = hexes(0, &THREE);
        stacked.extend(hexes(1, &THREE));
        stacked.extend(hexes(2, &[[0, 0]]));
        vec![
            ("one", hexes(0, &[[0, 0]])),
            ("two", hexes(0, &[[0, 0], [2, 0]])),
            ("three at a point", hexes(0, &THREE)),
            ("flower", hexes(0, &FLOWER)),
            ("ring", hexes(0, &FLOWER[1..])),
            ("bent", hexes(0, &[[0, 0], [2, 0], [3, 1], [2, 2]])),
            ("two layers", two_layers),
            ("three layers", stacked),
        ]
    }

    /// A hexagon one unit across its flat sides, in unit² : √3/2.
    const HEX_AREA: f64 = 0.8660254037844386;

    #[test]
    fn hexagon_polygons_know_their_neighbours() {
        let poly = polygon(Grid::Hexagon, [0, 0, 0]);
        let corners = around(Grid::Hexagon, [0, 0, 0], &poly);
        assert_eq!(poly.len(), 6);
        let mut across = poly.across.clone();
        across.sort_unstable();
        let mut ring: Vec<Cell> = FLOWER[1..].iter().map(|&[u, v]| [u, v, 0]).collect();
        ring.sort_unstable();
        assert_eq!(across, ring, "one neighbour across each side");
        // Two other hexagons at each corner: the cells across the two sides through it.
        assert_eq!(corners.len(), 6);
        for (i, at) in corners.iter().enumerate() {
            let mut at = at.clone();
            at.sort_unstable();
            let mut want = vec![poly.across[i], poly.across[(i + 5) % 6]];
            want.sort_unstable();
            assert_eq!(at, want, "corner {i}");
        }
        // And five other triangles at a triangle's corner.
        let tri = polygon(Grid::Prism, [1, 1, 0]);
        let corners = around(Grid::Prism, [1, 1, 0], &tri);
        assert!(corners.iter().all(|a| a.len() == 5));
    }

    #[test]
    fn flush_hexagons_are_their_prisms() {
        let m = prisms(Grid::Hexagon, &hexes(0, &[[0, 0]]), 10.0, 0.0).unwrap();
        assert_eq!(
            m.triangles.len(),
            20,
            "two hexagons of four triangles and six rectangles of two"
        );
        for (what, cells) in hexagon_shapes() {
            let (w, h) = (10.0, 10.0);
            let m = prisms(Grid::Hexagon, &cells, w, 0.0).unwrap();
            let exact = cells.len() as f64 * (3f64.sqrt() / 2.0) * w * w * h;
            assert!((m.volume() - exact).abs() < 1e-9, "{what}: {}", m.volume());
            assert_watertight(&m, what);
        }
    }

    #[test]
    fn gaps_erode_hexagons_by_half_the_gap() {
        let (edge, gap): (f64, f64) = (10.0, 1.0);
        let d = gap / 2.0 / edge;
        let s3 = 3f64.sqrt();
        let (height, scale) = ((1.0 - 2.0 * d) * edge, edge * edge);
        let close = |m: &Mesh, exact: f64, what: &str| {
            assert!(
                (m.volume() - exact).abs() < 1e-9,
                "{what}: {} {exact}",
                m.volume()
            );
        };
        // One hexagon: the hexagon of inradius 1/2 - d over the middle slab.
        let inner = 2.0 * s3 * (0.5 - d).powi(2);
        let m = prisms(Grid::Hexagon, &hexes(0, &[[0, 0]]), edge, gap).unwrap();
        close(&m, inner * scale * height, "one");
        // Two: each also keeps its strip along the shared side, a trapezoid of height d
        // between the side less a corner's 2d/√3 at each end (1/√3 - 4d/√3) and the inner
        // hexagon's side (1/√3 - 2d/√3).
        let strip = d * (1.0 / s3 - s3 * d);
        let m = prisms(Grid::Hexagon, &hexes(0, &[[0, 0], [2, 0]]), edge, gap).unwrap();
        close(&m, 2.0 * (inner + strip) * scale * height, "two");
        // Three around a point: two strips each, and the 120° rhombus of side 2d/√3 at the
        // point.
        let rhombus = 2.0 * d * d / s3;
        let m = prisms(Grid::Hexagon, &hexes(0, &THREE), edge, gap).unwrap();
        close(
            &m,
            3.0 * (inner + 2.0 * strip + rhombus) * scale * height,
            "three",
        );
        // The flower: the centre whole (its inner hexagon, six strips and six rhombi fill
        // it), each petal three strips and the two rhombi at the centre's corners.
        assert!((inner + 6.0 * strip + 6.0 * rhombus - HEX_AREA).abs() < 1e-12);
        let m = prisms(Grid::Hexagon, &hexes(0, &FLOWER), edge, gap).unwrap();
        let petals = 6.0 * (inner + 3.0 * strip + 2.0 * rhombus);
        close(&m, (HEX_AREA + petals) * scale * height, "flower");
        // Two stacked: one inner hexagon two layers high, less d at each end.
        let m = prisms(Grid::Hexagon, &[[0, 0, 0], [0, 0, 1]], edge, gap).unwrap();
        close(&m, inner * scale * (2.0 - 2.0 * d) * edge, "stacked");
    }

    #[test]
    fn gapped_hexagon_meshes_are_watertight_and_shrink_with_the_gap() {
        let mut shapes = hexagon_shapes();
        // Hexagons of two layers meeting only along an edge, joined through a column beside
        // both: with a gap the strips there go, so no edge is shared by four triangles.
        let mut edge_only = hexes(0, &[[0, 0], [1, 1]]);
        edge_only.extend(hexes(1, &[[1, 1], [2, 0]]));
        shapes.push(("touching along an edge", edge_only));
        for (what, cells) in shapes {
            let mut last = f64::INFINITY;
            for gap in [0.0, 0.1, 0.4, 1.0, 2.5] {
                let m = prisms(Grid::Hexagon, &cells, 10.0, gap).unwrap();
                if gap > 0.0 || what != "touching along an edge" {
                    assert_watertight(&m, &format!("{what}, gap {gap}"));
                }
                let v = m.volume();
                assert!(0.0 < v && v < last, "{what}, gap {gap}: {v} after {last}");
                last = v;
            }
        }
    }
}
