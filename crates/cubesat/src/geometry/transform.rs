//! The linear maps of the lattice that fix the origin: the matrices every grid's symmetries are made of.

use super::Cell;

/// A linear map of space fixing the origin, a symmetry of a grid written in that grid's
/// coordinates: the matrix `m / den` with integer `m`. On the cube grid `den` is 1 (the 48
/// signed permutation matrices); on the sphere grid 1 or 3 (the other 192 are orthogonal with
/// entries ±1/3 and ±2/3); on the prism grid 1 or 2 (its coordinates are not orthonormal, so
/// neither are its sixth turns).
///
/// A sphere-grid transform with `den` 3 maps only some balls to balls: it is used for a shape
/// exactly when it maps every ball of the shape, taken relative to the shape's first ball,
/// onto a ball again (BurrTools' rule for its sphere grid). Proper rotations have a positive
/// determinant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform {
    pub(super) m: [[i8; 3]; 3],
    pub(super) den: i8,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        m: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        den: 1,
    };

    /// The reflection `x -> -x`, the mirror used to pair chiral pieces (a symmetry of every
    /// grid: it keeps the parity of `x + y + z`).
    pub const MIRROR_X: Transform = Transform {
        m: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
        den: 1,
    };

    /// The signed permutation `apply(c)[i] = sign[i] * c[axis[i]]`.
    pub(super) const fn signed_permutation(axis: [u8; 3], sign: [i8; 3]) -> Transform {
        let mut m = [[0i8; 3]; 3];
        m[0][axis[0] as usize] = sign[0];
        m[1][axis[1] as usize] = sign[1];
        m[2][axis[2] as usize] = sign[2];
        Transform { m, den: 1 }
    }

    /// The image of a cell, or `None` when it is not an integer point (a transform with
    /// denominator 3 and a cell it does not map onto the lattice).
    #[inline]
    pub fn apply(&self, c: Cell) -> Option<Cell> {
        let m = &self.m;
        let row =
            |r: &[i8; 3]| i32::from(r[0]) * c[0] + i32::from(r[1]) * c[1] + i32::from(r[2]) * c[2];
        let v = [row(&m[0]), row(&m[1]), row(&m[2])];
        if self.den == 1 {
            return Some(v);
        }
        let d = i32::from(self.den);
        if v.iter().all(|x| x % d == 0) {
            Some(v.map(|x| x / d))
        } else {
            None
        }
    }

    /// The determinant's sign: +1 for a proper rotation, -1 for a reflection.
    pub(crate) fn determinant(&self) -> i32 {
        let m = self.m.map(|r| r.map(i32::from));
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        det.signum()
    }

    /// True for the proper rotations.
    pub fn is_proper(&self) -> bool {
        self.determinant() == 1
    }

    /// For an integral transform (a signed permutation), the axis each image coordinate
    /// is read from (at most 2) and its sign.
    pub(super) fn signed_axes(&self) -> [(usize, i32); 3] {
        self.m.map(|row| {
            let a = row.iter().position(|&v| v != 0).unwrap_or(0).min(2);
            (a, i32::from(row[a]))
        })
    }

    /// True for the signed permutation matrices (the cube's 48 symmetries, and those among
    /// the other grids' transforms): each image coordinate is one coordinate, perhaps negated.
    pub fn is_integral(&self) -> bool {
        self.den == 1
            && self.m.iter().all(|r| {
                r.iter().filter(|&&v| v != 0).count() == 1 && r.iter().all(|v| v.abs() <= 1)
            })
    }

    /// The 24 symmetries of a hexagonal prism whose axis is z, given its sixth turn about z
    /// in a grid's coordinates: the six turns and those followed by the half turn about the
    /// x axis (the twelve proper ones, identity first), then each composed with
    /// [`Transform::MIRROR_X`] in the same order.
    pub(super) fn hexagonal_prism_group(sixth: Transform) -> Vec<Transform> {
        let flip = Transform::signed_permutation([0, 1, 2], [1, -1, -1]);
        let mut turns = vec![Transform::IDENTITY];
        for _ in 1..6 {
            let last = turns[turns.len() - 1];
            turns.push(sixth.compose(&last));
        }
        let proper: Vec<Transform> = turns
            .iter()
            .copied()
            .chain(turns.iter().map(|t| t.compose(&flip)))
            .collect();
        let improper: Vec<Transform> = proper
            .iter()
            .map(|r| r.compose(&Transform::MIRROR_X))
            .collect();
        proper.into_iter().chain(improper).collect()
    }

    /// `self ∘ other`: apply `other` first, then `self`.
    pub(crate) fn compose(&self, other: &Transform) -> Transform {
        let mut m = [[0i32; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..3)
                    .map(|k| i32::from(self.m[i][k]) * i32::from(other.m[k][j]))
                    .sum();
            }
        }
        // Reduced by the common factor, the product is exact: its denominator is 1, 3 or 9
        // (the 240 are not closed under composition, which is why a target's symmetries are
        // checked for closure before a count up to them).
        let den = i32::from(self.den) * i32::from(other.den);
        let g = m
            .iter()
            .flatten()
            .fold(den, |g, &v| gcd(g, v.unsigned_abs() as i32));
        Transform {
            m: m.map(|r| r.map(|v| (v / g) as i8)),
            den: (den / g) as i8,
        }
    }
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}
