//! The STL mesh of a piece of tetrahedral cells (the rhombic and tetra-octa grids): its tetrahedra's faces that no other cell of the piece shares, as one closed, outward-facing, watertight surface; no clearance gap.
//!
//! Both grids are face-to-face tilings (every face of a cell is a whole face of the cell
//! across it), and every corner lies on a lattice of eighths of a cube, so corners are keyed
//! by integers: a face two cells of the piece share has the same three keys in both and is
//! left out, and every vertex is computed once from its key, so edges pair up to the bit.
//! The faces left are the piece's boundary; each is wound counter-clockwise seen from outside
//! (away from its own tetrahedron's fourth corner), so every directed edge is used once and
//! its reverse once, except along an edge where cells of the piece meet only along that edge
//! (two separate fans of cells around it), which is then shared by four triangles, as two
//! cubes of a polycube meeting only along an edge are in [`super::stl::polycube`].
//!
//! A clearance gap is refused (a one-line error naming the grid): moving every boundary face
//! inwards by half the gap meets, at a corner where four or more faces meet (the apex of an
//! octahedron, the four-fold corners of a rhombic dodecahedron, and the concave corners of
//! arbitrary pieces), planes that have no common point, and neither that offset surface nor
//! an erosion by sub-regions (as the cube and prism meshes do; the tetrahedra's dihedral
//! angles differ, so the sub-regions of two cells sharing a face do not meet edge to edge) is
//! provably closed for every piece here. Print with `--gap 0` and give the clearance in the
//! slicer (a horizontal expansion of minus half the gap).

use std::collections::HashMap;

use super::stl::Mesh;
use crate::error::{Result, bail};
use crate::geometry::{Cell, CellShape, Grid};

/// Corners are multiples of this fraction of a cube on both tetrahedral grids (eighths on
/// the rhombic grid, quarters on the tetra-octa grid).
const KEY_SCALE: f64 = 8.0;

/// A corner's integer key: its position in eighths of a cube.
type Key = [i64; 3];

/// The mesh of a piece of tetrahedral cells: `cells` on `grid` (the rhombic or tetra-octa
/// grid), `edge` the cube side (mm) of the grid's unit of space, `gap` the clearance (mm),
/// which must be 0 (see the module documentation).
pub fn tetrahedra(grid: Grid, cells: &[Cell], edge: f64, gap: f64) -> Result<Mesh> {
    super::stl::check_sizes(edge, gap)?;
    if grid.cell_shape() != CellShape::Tetrahedron {
        bail!("{} has no tetrahedral cells to mesh", grid.title());
    }
    if gap > 0.0 {
        bail!(
            "STL files of {} cannot have a clearance gap yet: use --gap 0 and set the clearance in the slicer",
            grid.title()
        );
    }
    let mut sorted: Vec<Cell> = cells.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    // Every face of every cell, oriented outwards from its cell; a face seen twice is shared.
    let mut faces: Vec<[Key; 3]> = Vec::with_capacity(4 * sorted.len());
    let mut seen: HashMap<[Key; 3], u32> = HashMap::new();
    for &c in &sorted {
        let Some(t) = grid.tetrahedron(c) else {
            bail!("{c:?} is not a cell of {}", grid.title());
        };
        let k = t.map(key);
        for skip in 0..4 {
            let others: Vec<Key> = (0..4).filter(|&i| i != skip).map(|i| k[i]).collect();
            let face = outward([others[0], others[1], others[2]], k[skip]);
            *seen.entry(sorted_key(face)).or_default() += 1;
            faces.push(face);
        }
    }
    let at = |k: Key| k.map(|v| v as f64 / KEY_SCALE * edge);
    let triangles = faces
        .into_iter()
        .filter(|f| seen[&sorted_key(*f)] == 1)
        .map(|f| f.map(at))
        .collect();
    Ok(Mesh { triangles })
}

/// A corner's key (see [`KEY_SCALE`]).
fn key(p: [f64; 3]) -> Key {
    p.map(|v| (v * KEY_SCALE).round() as i64)
}

/// A face's corners in a fixed order, to find it in another cell.
fn sorted_key(mut f: [Key; 3]) -> [Key; 3] {
    f.sort_unstable();
    f
}

/// The face `f` wound counter-clockwise seen from outside its tetrahedron, whose fourth
/// corner is `apex`: its normal `(b - a) × (c - a)` points away from the apex (exact, on
/// integers).
fn outward(f: [Key; 3], apex: Key) -> [Key; 3] {
    let [a, b, c] = f;
    let u = sub(b, a);
    let v = sub(c, a);
    let w = sub(apex, a);
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    if n[0] * w[0] + n[1] * w[1] + n[2] * w[2] > 0 {
        [a, c, b]
    } else {
        f
    }
}

fn sub(a: Key, b: Key) -> Key {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every directed edge once and its reverse once, no degenerate triangle; vertices
    /// compared to the bit.
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
            assert_eq!(edges.get(&(b, a)), Some(&1), "{what}: edge without twin");
        }
    }

    /// The volume of a cell's tetrahedron, in cube units.
    fn cell_volume(grid: Grid, c: Cell) -> f64 {
        let [a, b, e, d] = grid.tetrahedron(c).unwrap();
        let s = |p: [f64; 3]| [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
        let (u, v, w) = (s(b), s(e), s(d));
        (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0]))
            .abs()
            / 6.0
    }

    /// The cells of `grid` in the box `lo..hi` (per axis) that `keep` keeps.
    fn cells_where(grid: Grid, lo: i32, hi: i32, keep: impl Fn(Cell) -> bool) -> Vec<Cell> {
        let mut out = Vec::new();
        for x in lo..hi {
            for y in lo..hi {
                for z in lo..hi {
                    let c = [x, y, z];
                    if grid.is_cell(c) && keep(c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The rhombic dodecahedron around the centre of cube 0 (centroids, in eighths, with
    /// `|x_i - 4| + |x_j - 4| < 8` for every two axes).
    fn rhombic_dodecahedron() -> Vec<Cell> {
        cells_where(Grid::Rhombic, -8, 16, |c| {
            let d = c.map(|v| (v - 4).abs());
            d[0] + d[1] < 8 && d[1] + d[2] < 8 && d[0] + d[2] < 8
        })
    }

    /// The octahedron of the tetra-octa grid around the lattice point (4, 0, 0) (odd sum in
    /// cube units): its eight corner cells.
    fn octahedron() -> Vec<Cell> {
        cells_where(Grid::TetraOcta, -4, 8, |c| {
            c[0] != 4 && (c[0] - 4).abs() == 1 && c[1].abs() == 1 && c[2].abs() == 1
        })
    }

    fn pieces() -> Vec<(&'static str, Grid, Vec<Cell>, usize)> {
        let rd = rhombic_dodecahedron();
        let mut two_rd: Vec<Cell> = rd.clone();
        // The neighbour across the face towards (+x, +y) (FCC step (1, 1, 0) in cubes).
        two_rd.extend(rd.iter().map(|c| [c[0] + 8, c[1] + 8, c[2]]));
        let oct = octahedron();
        let mut oct_tet = oct.clone();
        // The regular tetrahedron of cube 0 (corners (0,0,0), (4,4,0), (4,0,4), (0,4,4) in
        // quarters) shares its face (0,0,0) (4,4,0) (4,0,4) with the octahedron's cell there.
        oct_tet.push([2, 2, 2]);
        vec![
            ("one rhombic cell", Grid::Rhombic, vec![[1, 2, 4]], 4),
            (
                "a face pyramid",
                Grid::Rhombic,
                vec![[1, 2, 4], [1, 4, 2], [1, 6, 4], [1, 4, 6]],
                8,
            ),
            ("rhombic dodecahedron", Grid::Rhombic, rd, 24),
            ("two rhombic dodecahedra", Grid::Rhombic, two_rd, 44),
            ("one corner cell", Grid::TetraOcta, vec![[3, 1, 1]], 4),
            ("regular tetrahedron", Grid::TetraOcta, vec![[2, 2, 2]], 4),
            ("octahedron", Grid::TetraOcta, oct, 8),
            ("octahedron and tetrahedron", Grid::TetraOcta, oct_tet, 10),
        ]
    }

    #[test]
    fn meshes_are_the_pieces_boundaries_with_exact_volumes() {
        assert_eq!(rhombic_dodecahedron().len(), 48);
        assert_eq!(octahedron().len(), 8);
        for (what, grid, cells, triangles) in pieces() {
            let m = tetrahedra(grid, &cells, 10.0, 0.0).unwrap();
            let exact: f64 = cells.iter().map(|&c| cell_volume(grid, c)).sum::<f64>() * 1000.0;
            assert!(
                (m.volume() - exact).abs() < 1e-9 * exact.max(1.0),
                "{what}: {} vs {exact}",
                m.volume()
            );
            assert_eq!(m.triangles.len(), triangles, "{what}");
            assert_watertight(&m, what);
        }
        // The rhombic dodecahedron is two cubes' volume (2000 mm³ for 10 mm cubes), the
        // octahedron with corners a cube from its centre 4/3 of a cube, the regular
        // tetrahedron on four corners of a cube a third of it.
        let rd = tetrahedra(Grid::Rhombic, &rhombic_dodecahedron(), 10.0, 0.0).unwrap();
        assert!((rd.volume() - 2000.0).abs() < 1e-9, "{}", rd.volume());
        let oct = tetrahedra(Grid::TetraOcta, &octahedron(), 10.0, 0.0).unwrap();
        assert!(
            (oct.volume() - 4000.0 / 3.0).abs() < 1e-9,
            "{}",
            oct.volume()
        );
        let tet = tetrahedra(Grid::TetraOcta, &[[2, 2, 2]], 10.0, 0.0).unwrap();
        assert!(
            (tet.volume() - 1000.0 / 3.0).abs() < 1e-9,
            "{}",
            tet.volume()
        );
    }

    #[test]
    fn gaps_and_other_grids_are_refused() {
        let e = tetrahedra(Grid::Rhombic, &[[1, 2, 4]], 10.0, 0.2).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("the rhombic grid") && !msg.contains('\n'),
            "{msg}"
        );
        let e = tetrahedra(Grid::TetraOcta, &[[2, 2, 2]], 10.0, 0.2).unwrap_err();
        assert!(e.to_string().contains("tetrahedra-octahedra"), "{e}");
        assert!(tetrahedra(Grid::Rhombic, &[[1, 2, 4]], 0.0, 0.0).is_err());
        assert!(tetrahedra(Grid::Cube, &[[0, 0, 0]], 10.0, 0.0).is_err());
        assert!(tetrahedra(Grid::Rhombic, &[[0, 0, 0]], 10.0, 0.0).is_err());
        assert!(
            tetrahedra(Grid::Rhombic, &[], 10.0, 0.0)
                .unwrap()
                .triangles
                .is_empty()
        );
    }
}
