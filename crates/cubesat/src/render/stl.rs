//! STL meshes for 3D printing: a polycube (one piece, or a piece in its place in a solution) as a closed, outward-facing triangle mesh, optionally shrunk by a clearance gap (pieces of balls: [`super::ballmesh`]).
//!
//! A gap `g` erodes the piece by `g/2` in every direction (the cube metric), so two printed
//! pieces that touch in the puzzle are `g` apart. The eroded solid is still a union of boxes
//! on a grid whose lines sit at `k`, `k + g/2`, `k + 1 - g/2` per unit: every unit cell is
//! split into 3x3x3 sub-blocks, and a sub-block is solid when the cells its `g/2`
//! neighbourhood reaches are all in the piece. Faces are emitted between solid and empty
//! sub-blocks, two triangles each, so every mesh edge joins exactly two triangles of the same
//! grid (no T-junctions): the mesh is watertight, and triangles wind counter-clockwise seen
//! from outside (normals point out). With no gap, sub-blocks are whole cells; pieces whose
//! cells meet only along an edge then share that edge four times, which a gap avoids.

use std::collections::HashSet;

use crate::error::{Result, bail};

use crate::geometry::Cell;

/// A triangle mesh in millimetres.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    /// Triangles, vertices counter-clockwise seen from outside.
    pub triangles: Vec<[[f64; 3]; 3]>,
}

impl Mesh {
    /// The enclosed volume (divergence theorem; positive for outward-facing triangles).
    pub fn volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|[a, b, c]| {
                a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                    + a[2] * (b[0] * c[1] - b[1] * c[0])
            })
            .sum::<f64>()
            / 6.0
    }

    /// Appends another mesh (a second shell).
    pub fn extend(&mut self, other: Mesh) {
        self.triangles.extend(other.triangles);
    }
}

/// The largest cube edge accepted, in millimetres: STL stores 32-bit floats, and a printer's
/// bed is well under a metre.
pub const MAX_CUBE_MM: f64 = 1000.0;

/// The largest gap accepted, as a fraction of the cube edge: a gap `g` leaves a part of a
/// piece one cube wide `cube - g` thick, so a quarter keeps every part at least three
/// quarters of a cube thick (printers want clearances of a few percent).
pub const MAX_GAP_FRACTION: f64 = 0.25;

/// Checks an STL cell size and clearance: `cube` (mm, the cube edge or ball diameter) in
/// `(0, MAX_CUBE_MM]`, `gap` (mm) at most [`MAX_GAP_FRACTION`] of it.
pub(crate) fn check_sizes(cube: f64, gap: f64) -> Result<()> {
    if !(cube > 0.0 && cube <= MAX_CUBE_MM) {
        bail!(
            "the cube size must be a positive number of millimetres up to {MAX_CUBE_MM}, not {cube}"
        );
    }
    let max_gap = cube * MAX_GAP_FRACTION;
    if !(gap >= 0.0 && gap <= max_gap) {
        bail!(
            "the gap must be at least 0 and at most a quarter of the cube size ({max_gap} mm for {cube} mm cubes), not {gap}{}",
            if gap > max_gap && gap < cube {
                format!(
                    ": it would leave a part of a piece one cube wide {} mm thick",
                    (cube - gap) as f32
                )
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// The mesh of a polycube: `cells` in cube units, `cube` the edge length (mm), `gap` the
/// clearance (mm, at most [`MAX_GAP_FRACTION`] of `cube`).
pub fn polycube(cells: &[Cell], cube: f64, gap: f64) -> Result<Mesh> {
    check_sizes(cube, gap)?;
    let blocks = SubBlocks::new(cells, cube, gap);
    let mut mesh = Mesh::default();
    let mut sorted: Vec<Cell> = blocks.full.iter().copied().collect();
    sorted.sort_unstable();
    for &c in &sorted {
        for &ix in blocks.idxs {
            for &iy in blocks.idxs {
                for &iz in blocks.idxs {
                    blocks.faces(c, [ix, iy, iz], &mut mesh);
                }
            }
        }
    }
    Ok(mesh)
}

/// The sub-blocks of a piece's unit cells (see the module documentation): which are solid,
/// their neighbours and their bounds.
struct SubBlocks {
    full: HashSet<Cell>,
    /// Half the gap, in cube units.
    d: f64,
    /// Sub-block indices per axis: 0 = [k, k+d], 1 = [k+d, k+1-d], 2 = [k+1-d, k+1]; with no
    /// gap only index 1, which is then the whole unit.
    idxs: &'static [usize],
    /// Each index's low and high bound within its unit.
    lo: [f64; 3],
    hi: [f64; 3],
    cube: f64,
}

impl SubBlocks {
    fn new(cells: &[Cell], cube: f64, gap: f64) -> SubBlocks {
        let d = gap / 2.0 / cube;
        let (lo, hi) = if d > 0.0 {
            ([0.0, d, 1.0 - d], [d, 1.0 - d, 1.0])
        } else {
            ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
        };
        SubBlocks {
            full: cells.iter().copied().collect(),
            d,
            idxs: if d > 0.0 { &[0, 1, 2] } else { &[1] },
            lo,
            hi,
            cube,
        }
    }

    /// True when sub-block `i` of cell `c` is in the eroded piece.
    fn solid(&self, c: Cell, i: [usize; 3]) -> bool {
        if !self.full.contains(&c) {
            return false;
        }
        // The cells the sub-block's d-neighbourhood reaches: one step back for index 0, one
        // step forward for index 2, along each axis.
        let range = |k: usize| -> &'static [i32] {
            match k {
                0 => &[-1, 0],
                2 => &[0, 1],
                _ => &[0],
            }
        };
        for &dx in range(i[0]) {
            for &dy in range(i[1]) {
                for &dz in range(i[2]) {
                    if !self.full.contains(&[c[0] + dx, c[1] + dy, c[2] + dz]) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The neighbouring sub-block along axis `a`, direction `s` (+1 or -1).
    fn step(&self, c: Cell, i: [usize; 3], a: usize, s: i32) -> (Cell, [usize; 3]) {
        let mut c2 = c;
        let mut i2 = i;
        if self.d > 0.0 {
            let next = i[a] as i32 + s;
            if (0..3).contains(&next) {
                i2[a] = next as usize;
            } else {
                c2[a] += s;
                i2[a] = if s > 0 { 0 } else { 2 };
            }
        } else {
            c2[a] += s;
        }
        (c2, i2)
    }

    /// The faces of sub-block `i` of cell `c` that border an empty sub-block, two triangles
    /// each, added to `mesh` (nothing when the sub-block is empty).
    fn faces(&self, c: Cell, i: [usize; 3], mesh: &mut Mesh) {
        if !self.solid(c, i) {
            return;
        }
        let cube = self.cube;
        let low: [f64; 3] = std::array::from_fn(|a| (c[a] as f64 + self.lo[i[a]]) * cube);
        let high: [f64; 3] = std::array::from_fn(|a| (c[a] as f64 + self.hi[i[a]]) * cube);
        for a in 0..3 {
            for s in [1, -1] {
                let (c2, i2) = self.step(c, i, a, s);
                if !self.solid(c2, i2) {
                    push_face(mesh, low, high, a, s);
                }
            }
        }
    }
}

/// The face of the box from `low` to `high` facing direction `s` (+1 or -1) along axis `a`,
/// as two triangles counter-clockwise seen from outside.
fn push_face(mesh: &mut Mesh, low: [f64; 3], high: [f64; 3], a: usize, s: i32) {
    let (b, e) = ((a + 1) % 3, (a + 2) % 3);
    let plane = if s > 0 { high[a] } else { low[a] };
    let v = |u: f64, w: f64| {
        let mut p = [0.0; 3];
        p[a] = plane;
        p[b] = u;
        p[e] = w;
        p
    };
    let p0 = v(low[b], low[e]);
    let p1 = v(high[b], low[e]);
    let p2 = v(high[b], high[e]);
    let p3 = v(low[b], high[e]);
    // e_b x e_e = e_a: p0 p1 p2 is counter-clockwise seen from +a.
    if s > 0 {
        mesh.triangles.push([p0, p1, p2]);
        mesh.triangles.push([p0, p2, p3]);
    } else {
        mesh.triangles.push([p0, p2, p1]);
        mesh.triangles.push([p0, p3, p2]);
    }
}

/// Binary STL bytes (80-byte header with `name`, triangle count, then per triangle the unit
/// normal, three vertices and a zero attribute word).
pub fn binary_stl(mesh: &Mesh, name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(84 + 50 * mesh.triangles.len());
    let mut header = [b' '; 80];
    let text = format!("cubesat {name}");
    for (h, b) in header.iter_mut().zip(text.bytes()) {
        *h = b;
    }
    out.extend_from_slice(&header);
    out.extend_from_slice(&(mesh.triangles.len() as u32).to_le_bytes());
    for [a, b, c] in &mesh.triangles {
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let mut n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if len > 0.0 {
            n = n.map(|x| x / len);
        }
        for x in n.iter().chain(a).chain(b).chain(c) {
            out.extend_from_slice(&(*x as f32).to_le_bytes());
        }
        out.extend_from_slice(&0u16.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volumes_with_and_without_a_gap() {
        let l = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]];
        let m = polycube(&l, 10.0, 0.0).unwrap();
        assert!((m.volume() - 4000.0).abs() < 1e-6);
        assert_eq!(m.triangles.len(), 2 * 18);
        // One cube shrunk by 1 mm (0.5 each side): 9^3.
        let m = polycube(&[[0, 0, 0]], 10.0, 1.0).unwrap();
        assert!((m.volume() - 729.0).abs() < 1e-6);
        // Two cubes in a row shrunk: 19 x 9 x 9.
        let m = polycube(&[[0, 0, 0], [1, 0, 0]], 10.0, 1.0).unwrap();
        assert!((m.volume() - 19.0 * 81.0).abs() < 1e-6);
        assert!(polycube(&l, 10.0, 10.0).is_err());
        assert!(polycube(&l, 10.0, 2.5).is_ok() && polycube(&l, 10.0, 2.6).is_err());
        assert_eq!(binary_stl(&m, "x").len(), 84 + 50 * m.triangles.len());
    }
}
