//! Lattice geometry: the grids, cells, their transforms (the cube's 48, the prism grid's 24, the sphere grid's 240; proper rotations first), shapes and their distinct orientations.
//!
//! Coordinates are `[x, y, z]` integers. A [`Shape`] is a set of cells normalised by the grid's
//! translation nearest below its bounding box's corner, kept sorted, so two shapes are equal
//! exactly when they are translates of each other. Each grid is a module of its own, behind [`Grid`].

mod cube;
mod grid;
mod hexagon;
mod kind;
mod prism;
mod shape;
pub mod sphere;
mod tetra;
mod transform;

pub(crate) use cube::AXIS_ORDERS;
pub use grid::Grid;
pub use kind::{CellShape, Frame};
pub use shape::Shape;
pub use sphere::{from_layer as sphere_from_layer, to_layer as sphere_to_layer};
pub use transform::Transform;

/// A lattice cell `[x, y, z]`, in the grid's integer coordinates (see [`Grid`]).
pub type Cell = [i32; 3];

/// Component-wise minimum of a list of cells.
pub(crate) fn min_corner(cells: &[Cell]) -> Option<Cell> {
    let mut it = cells.iter();
    let mut m = *it.next()?;
    for c in it {
        for a in 0..3 {
            m[a] = m[a].min(c[a]);
        }
    }
    Some(m)
}

/// `a - b` component-wise.
pub fn sub(a: Cell, b: Cell) -> Cell {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b` component-wise.
pub fn add(a: Cell, b: Cell) -> Cell {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Sort key ordering cells by layer, then row, then column (the reading order of layer art).
pub(crate) fn zyx(c: Cell) -> (i32, i32, i32) {
    (c[2], c[1], c[0])
}

/// Bits per coordinate in a [`zyx_key`].
const KEY_BITS: u32 = 18;

/// The (z, y, x) order as one integer, for cells whose coordinates are all in
/// `0..2^18` (normalised shapes are: their sides are at most [`crate::puzzle::MAX_COORD`]),
/// with 8 bits to spare below for a colour: sorting these keys sorts the cells, without the
/// three comparisons of [`zyx`] per step (orientations sort every shape once per transform).
pub(crate) fn zyx_key(c: Cell) -> Option<u64> {
    let fits = |v: i32| (0..1 << KEY_BITS).contains(&v);
    (fits(c[0]) && fits(c[1]) && fits(c[2])).then(|| {
        (((c[2] as u64) << (2 * KEY_BITS)) | ((c[1] as u64) << KEY_BITS) | c[0] as u64) << 8
    })
}

/// The cell of a [`zyx_key`] (its colour bits ignored).
pub(crate) fn from_zyx_key(k: u64) -> Cell {
    let m = (1u64 << KEY_BITS) - 1;
    let k = k >> 8;
    [
        (k & m) as i32,
        ((k >> KEY_BITS) & m) as i32,
        (k >> (2 * KEY_BITS)) as i32,
    ]
}

/// Fewer cells than this are sorted rather than read off their box ([`zyx_order`],
/// [`Grid::normalised_image`]): a few comparisons cost less than the box's lists.
pub(super) const BOX_MIN_CELLS: usize = 24;

/// The indices of `cells` in (z, y, x) order, one per distinct cell (the last of equal
/// ones), read off their bounding box in that order: no comparisons, for the compact shapes
/// pieces are (orientations sort every shape once per transform). `None` when the box has
/// more than four positions per cell (a sparse set is sorted instead) or for fewer than
/// [`BOX_MIN_CELLS`] cells.
pub(crate) fn zyx_order(cells: &[Cell]) -> Option<Vec<u32>> {
    if cells.len() < BOX_MIN_CELLS {
        return None;
    }
    let min = min_corner(cells)?;
    let mut max = min;
    for c in cells {
        for a in 0..3 {
            max[a] = max[a].max(c[a]);
        }
    }
    let side = |a: usize| u64::try_from(i64::from(max[a]) - i64::from(min[a]) + 1).ok();
    let (sx, sy, sz) = (side(0)?, side(1)?, side(2)?);
    let volume = sx.checked_mul(sy)?.checked_mul(sz)?;
    if volume > 4 * cells.len() as u64 + 64 {
        return None;
    }
    Some(box_order(
        volume as usize,
        cells.iter().map(|c| {
            let [x, y, z] = sub(*c, min).map(|v| v as u64);
            ((z * sy + y) * sx + x) as usize
        }),
    ))
}

/// The indices of `positions` (each below `volume`) in ascending order of position, one
/// per distinct position (the last index placed there): a slot per position and a bit,
/// read a word of bits at a time, so an empty stretch of the box costs little.
pub(super) fn box_order(
    volume: usize,
    positions: impl ExactSizeIterator<Item = usize>,
) -> Vec<u32> {
    let mut order = Vec::with_capacity(positions.len());
    let mut place = vec![0u32; volume];
    let mut bits = vec![0u64; volume.div_ceil(64)];
    for (i, p) in positions.enumerate() {
        place[p] = i as u32;
        bits[p >> 6] |= 1 << (p & 63);
    }
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            order.push(place[w * 64 + word.trailing_zeros() as usize]);
            word &= word - 1;
        }
    }
    order
}

/// Sorts cells by [`zyx`], through [`zyx_key`] where every cell has one.
pub(crate) fn sort_zyx(cells: &mut [Cell]) {
    let keys: Option<Vec<u64>> = cells.iter().map(|&c| zyx_key(c)).collect();
    match keys {
        Some(mut keys) => {
            keys.sort_unstable();
            for (c, &k) in cells.iter_mut().zip(&keys) {
                *c = from_zyx_key(k);
            }
        }
        None => cells.sort_unstable_by_key(|&c| zyx(c)),
    }
}

#[cfg(test)]
mod tests;
