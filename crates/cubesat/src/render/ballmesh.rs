//! The STL mesh of a piece of balls: its balls fused along their contacts by necks, meshed as one closed, outward-facing, self-intersection-free surface.
//!
//! Touching balls meet at a single point, which a printer cannot join (and a mesh of the bare
//! union would be non-manifold there), so every contact of a piece becomes a neck: a capsule
//! of radius [`NECK`] (in ball diameters) along the segment between the two centres. The
//! piece is the union of its balls and necks, the zero set of the signed distance `min` over
//! those primitives, shrunk by `gap / 2` everywhere (balls and necks lose `gap / 2` of their
//! radii), so that pieces touching in the puzzle are `gap` apart. The neck radius keeps two
//! pieces apart: in face-centred cubic packing a contact segment is at least `√3/2` from the
//! centre of a ball off it that touches both ends, and two contact segments of four mutually
//! touching balls are `1/√2` apart, so necks of radius 1/4 stay `0.116` from another piece's
//! ball and `0.207` from its necks, with no gap.
//!
//! The surface is extracted by marching tetrahedra on a grid of [`STEPS`] points per ball
//! diameter: every grid cube is cut into the six tetrahedra around its main diagonal (the
//! same cut in every cube, so neighbouring cubes cut their shared faces alike), and each
//! tetrahedron holds the piece of the zero set of the distance interpolated linearly in it.
//! That is the level set of one piecewise-linear function, so, with no grid value exactly
//! zero (zero counts as outside), it is a closed 2-manifold without self-intersections, and
//! neighbouring tetrahedra meet in the same crossing points (each computed from its edge's
//! endpoints in one fixed order). Marching cubes' 256-case table has ambiguous faces that
//! need extra rules to stay watertight; tetrahedra have none, which is why they are used here
//! (no well-kept Rust crate offers a marching-tetrahedra or a manifold-guaranteed mesher).
//! Triangles are wound counter-clockwise seen from outside: each is turned so that its
//! normal points from the tetrahedron's inside corners to its outside ones.
//!
//! Work is bounded: the distance is computed only near the primitives (a ball's box, a neck's
//! box), so time and memory grow with the number of balls ([`MAX_BALLS`] at most), not with
//! the piece's bounding box.

use std::collections::HashMap;

use crate::error::{Result, bail};
use crate::geometry::{Cell, Grid};

use super::stl::Mesh;

/// Grid points per ball diameter: about 0.5 % of a ball's volume is lost to the flat
/// triangles, and a ball takes a few thousand triangles.
pub const STEPS: i32 = 14;

/// The neck's radius, in ball diameters (see the module documentation for why 1/4).
pub const NECK: f64 = 0.25;

/// The most balls one piece may have: a piece of balls takes some thousand triangles per
/// ball, so this bounds a mesh to a few hundred megabytes of STL.
pub const MAX_BALLS: usize = 4096;

/// One primitive of the union: a ball (centre) or a neck (segment between two centres).
enum Prim {
    Ball([f64; 3]),
    Neck([f64; 3], [f64; 3]),
}

/// The mesh of a piece of balls on the sphere grid: `cells` (cube-grid coordinates with
/// `x + y + z` even), `ball` the diameter (mm), `gap` the clearance (mm); the size checks of
/// [`super::stl::polycube`] apply, with the ball diameter for the cube edge.
pub fn balls(cells: &[Cell], ball: f64, gap: f64) -> Result<Mesh> {
    super::stl::check_sizes(ball, gap)?;
    let mut cells: Vec<Cell> = cells.to_vec();
    cells.sort_unstable();
    cells.dedup();
    if cells.len() > MAX_BALLS {
        bail!(
            "a piece of {} balls is more than the {MAX_BALLS} that one STL mesh takes",
            cells.len()
        );
    }
    if let Some(c) = cells.iter().find(|&&c| !Grid::Sphere.is_cell(c)) {
        bail!(
            "({}, {}, {}) is not a ball of the sphere grid (x + y + z must be even)",
            c[0],
            c[1],
            c[2]
        );
    }
    let shrink = gap / ball / 2.0;
    let (r_ball, r_neck) = (0.5 - shrink, NECK - shrink);
    let mut prims: Vec<Prim> = Vec::new();
    for &c in &cells {
        let a = Grid::Sphere.centre(c);
        prims.push(Prim::Ball(a));
        for d in Grid::Sphere.neighbour_offsets() {
            let n = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
            // Each contact once: from its lower ball.
            if n > c && cells.binary_search(&n).is_ok() {
                prims.push(Prim::Neck(a, Grid::Sphere.centre(n)));
            }
        }
    }
    let h = 1.0 / f64::from(STEPS);
    // The distance at grid points near the primitives; a point not here is farther than
    // `2h` from every primitive, so outside.
    let mut value: HashMap<[i32; 3], f64> = HashMap::new();
    for prim in &prims {
        let (lo, hi, r) = match *prim {
            Prim::Ball(a) => (a, a, r_ball),
            Prim::Neck(a, b) => (
                std::array::from_fn(|k| a[k].min(b[k])),
                std::array::from_fn(|k| a[k].max(b[k])),
                r_neck,
            ),
        };
        let from: [i32; 3] = std::array::from_fn(|k| ((lo[k] - r) / h).floor() as i32 - 2);
        let to: [i32; 3] = std::array::from_fn(|k| ((hi[k] + r) / h).ceil() as i32 + 2);
        for x in from[0]..=to[0] {
            for y in from[1]..=to[1] {
                for z in from[2]..=to[2] {
                    let p = [f64::from(x) * h, f64::from(y) * h, f64::from(z) * h];
                    let d = match *prim {
                        Prim::Ball(a) => dist(p, a) - r,
                        Prim::Neck(a, b) => segment_dist(p, a, b) - r,
                    };
                    let v = value.entry([x, y, z]).or_insert(f64::INFINITY);
                    *v = v.min(d);
                }
            }
        }
    }
    // Every grid cube with an inside corner, in a fixed order.
    let mut cubes: Vec<[i32; 3]> = value
        .iter()
        .filter(|(_, v)| **v < 0.0)
        .flat_map(|(p, _)| {
            (0..8).map(move |k| [p[0] - (k & 1), p[1] - ((k >> 1) & 1), p[2] - ((k >> 2) & 1)])
        })
        .collect();
    cubes.sort_unstable();
    cubes.dedup();
    let at = |p: [i32; 3]| value.get(&p).copied().unwrap_or(f64::INFINITY);
    let mut mesh = Mesh::default();
    for q in cubes {
        for perm in crate::geometry::AXIS_ORDERS {
            // The tetrahedron from the cube's low corner to its high one along axes `perm`.
            let mut v = [q; 4];
            for (k, &axis) in perm.iter().enumerate() {
                v[k + 1] = v[k];
                v[k + 1][axis] += 1;
            }
            tetrahedron(&v, &at, h * ball, &mut mesh);
        }
    }
    Ok(mesh)
}

/// Adds the triangles of the zero set in the tetrahedron with grid corners `v` (`at` gives the
/// distance at a grid point, `scale` the grid step in mm).
fn tetrahedron(v: &[[i32; 3]; 4], at: &impl Fn([i32; 3]) -> f64, scale: f64, mesh: &mut Mesh) {
    let f = v.map(at);
    let inside: Vec<usize> = (0..4).filter(|&k| f[k] < 0.0).collect();
    let outside: Vec<usize> = (0..4).filter(|&k| f[k] >= 0.0).collect();
    let pos = |k: usize| v[k].map(|c| f64::from(c) * scale);
    let cross = |i: usize, o: usize| crossing(v[i], f[i], v[o], f[o], scale);
    match (inside.as_slice(), outside.as_slice()) {
        ([i], [a, b, c]) => {
            // The triangle separates i from the others: its normal must point away from i.
            let tri = [cross(*i, *a), cross(*i, *b), cross(*i, *c)];
            push(mesh, tri, sub(pos(*a), pos(*i)));
        }
        ([a, b, c], [o]) => {
            let tri = [cross(*a, *o), cross(*b, *o), cross(*c, *o)];
            push(mesh, tri, sub(pos(*o), pos(*a)));
        }
        ([a, b], [c, d]) => {
            // A quadrilateral, its corners in order around it.
            let quad = [cross(*a, *c), cross(*a, *d), cross(*b, *d), cross(*b, *c)];
            let out = sub(add(pos(*c), pos(*d)), add(pos(*a), pos(*b)));
            let n = cross_product(sub(quad[2], quad[0]), sub(quad[3], quad[1]));
            let quad = if dot(n, out) < 0.0 {
                [quad[0], quad[3], quad[2], quad[1]]
            } else {
                quad
            };
            mesh.triangles.push([quad[0], quad[1], quad[2]]);
            mesh.triangles.push([quad[0], quad[2], quad[3]]);
        }
        _ => {}
    }
}

/// Where the distance crosses zero on the edge between grid points `p` (value `fp`) and `q`
/// (value `fq`), in mm. The edge's endpoints are taken in one fixed order, so every
/// tetrahedron sharing the edge gets the very same point; the point keeps a 1/64 of the edge
/// from either end, so that no two crossings coincide once written as 32-bit floats.
fn crossing(p: [i32; 3], fp: f64, q: [i32; 3], fq: f64, scale: f64) -> [f64; 3] {
    let ((p, fp), (q, fq)) = if p <= q {
        ((p, fp), (q, fq))
    } else {
        ((q, fq), (p, fp))
    };
    // One value is negative and one is not, so the division is safe; an infinite value
    // (a grid point far from the piece) puts the crossing at the finite end's far side.
    let t = if fq.is_infinite() {
        1.0
    } else if fp.is_infinite() {
        0.0
    } else {
        fp / (fp - fq)
    };
    let t = t.clamp(1.0 / 64.0, 63.0 / 64.0);
    std::array::from_fn(|k| (f64::from(p[k]) + t * f64::from(q[k] - p[k])) * scale)
}

/// Adds triangle `t`, turned so that its normal has a positive component along `out`.
fn push(mesh: &mut Mesh, t: [[f64; 3]; 3], out: [f64; 3]) {
    let n = cross_product(sub(t[1], t[0]), sub(t[2], t[0]));
    if dot(n, out) < 0.0 {
        mesh.triangles.push([t[0], t[2], t[1]]);
    } else {
        mesh.triangles.push(t);
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross_product(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = sub(a, b);
    dot(d, d).sqrt()
}

/// The distance from `p` to the segment `a`..`b`.
fn segment_dist(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> f64 {
    let ab = sub(b, a);
    let t = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    dist(p, add(a, ab.map(|c| c * t)))
}

/// The volume of the union of balls and necks that [`balls`] meshes, computed exactly: balls
/// of radius `R` that touch do not overlap, each neck adds the part of its cylinder (radius
/// `r`, length 1) outside its two balls, and necks meet outside the balls nowhere (contact
/// directions are at least 60° apart, where two necks' circles on a ball only touch). In
/// cubic millimetres for balls of diameter `ball`.
pub fn union_volume(balls: usize, contacts: usize, ball: f64, gap: f64) -> f64 {
    use std::f64::consts::PI;
    let shrink = gap / ball / 2.0;
    let (big_r, r) = (0.5 - shrink, NECK - shrink);
    // A cylinder of radius r through a ball's centre: its part inside the ball, on one side.
    let half_cap = 2.0 * PI / 3.0 * (big_r.powi(3) - (big_r * big_r - r * r).powf(1.5));
    let neck = PI * r * r - 2.0 * half_cap;
    let units = balls as f64 * 4.0 / 3.0 * PI * big_r.powi(3) + contacts as f64 * neck;
    units * ball.powi(3)
}

/// The number of contacts (touching pairs) among `cells` on the sphere grid.
pub fn contacts(cells: &[Cell]) -> usize {
    let set: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    set.iter()
        .map(|c| {
            Grid::Sphere
                .neighbour_offsets()
                .iter()
                .filter(|d| set.contains(&[c[0] + d[0], c[1] + d[1], c[2] + d[2]]))
                .count()
        })
        .sum::<usize>()
        / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Every edge used exactly twice, once in each direction: closed and consistently wound.
    fn closed(mesh: &Mesh) -> bool {
        let key = |p: [f64; 3]| p.map(|c| (c as f32).to_bits());
        let mut edges: HashMap<([u32; 3], [u32; 3]), i32> = HashMap::new();
        for t in &mesh.triangles {
            for k in 0..3 {
                *edges.entry((key(t[k]), key(t[(k + 1) % 3]))).or_default() += 1;
            }
        }
        edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
    }

    #[test]
    fn one_ball_and_a_chain() {
        let one = balls(&[[0, 0, 0]], 20.0, 0.0).unwrap();
        assert!(closed(&one));
        let want = union_volume(1, 0, 20.0, 0.0);
        assert!(
            (one.volume() / want - 1.0).abs() < 0.01,
            "{} {want}",
            one.volume()
        );
        // Three balls: two contacts.
        let chain = [[0, 0, 0], [1, 1, 0], [2, 0, 0]];
        assert_eq!(contacts(&chain), 2);
        let m = balls(&chain, 20.0, 0.4).unwrap();
        assert!(closed(&m));
        let want = union_volume(3, 2, 20.0, 0.4);
        assert!(
            (m.volume() / want - 1.0).abs() < 0.01,
            "{} {want}",
            m.volume()
        );
        assert!(balls(&[[1, 0, 0]], 20.0, 0.0).is_err());
        assert!(balls(&chain, 20.0, 6.0).is_err());
    }

    #[test]
    fn necks_keep_pieces_apart() {
        // Over a patch of the lattice: every contact segment against every ball touching
        // neither end, and against every contact segment sharing no ball.
        let mut cells = Vec::new();
        for x in -2..=2 {
            for y in -2..=2 {
                for z in -2..=2 {
                    if Grid::Sphere.is_cell([x, y, z]) {
                        cells.push([x, y, z]);
                    }
                }
            }
        }
        let mut segs = Vec::new();
        for &c in &cells {
            for d in Grid::Sphere.neighbour_offsets() {
                let n = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                if n > c && cells.contains(&n) {
                    segs.push((c, n));
                }
            }
        }
        let mut to_ball = f64::INFINITY;
        for &(a, b) in &segs {
            for &c in &cells {
                if c != a && c != b {
                    let (pa, pb) = (Grid::Sphere.centre(a), Grid::Sphere.centre(b));
                    to_ball = to_ball.min(segment_dist(Grid::Sphere.centre(c), pa, pb));
                }
            }
        }
        assert!((to_ball - 3f64.sqrt() / 2.0).abs() < 1e-9, "{to_ball}");
        assert!(to_ball - 0.5 - NECK > 0.1);
    }
}
