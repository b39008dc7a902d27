//! Grids of tetrahedral cells: BurrTools' grid 3 (each cube cut into 24 tetrahedra, unions of which are rhombic dodecahedra) and grid 4 (the tetrahedral-octahedral honeycomb), their cells, contacts and BurrTools' voxels.
//!
//! Both keep the cube's 48 symmetries: a cell is the centroid of its tetrahedron in a cube
//! lattice scaled so that centroids and corners are integers, and the cube's signed
//! permutations about a lattice point map the cells onto themselves. Two cells touch when
//! they share a face (three corners); which offsets those are depends on the cell's kind, so
//! each kind's list is worked out once from the corners.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::kind::{CellShape, Frame, GridKind};
use super::{Cell, Transform, add, cube};

/// BurrTools' grid 3: cube `[i, j, k]` of side 8 (in these coordinates) cut by its six
/// diagonal planes into 24 tetrahedra, each with corners at the cube's centre, the centre of
/// one face and both ends of one edge of that face. Eight such cells around a cube face, four
/// on each side, make the pyramid pair of a rhombic dodecahedron; 48 make one.
pub(super) struct Rhombic;

/// BurrTools' grid 4: cube `[i, j, k]` of side 4 holds the regular tetrahedron on four of
/// its corners (those with an even sum in cube units) and the four corner tetrahedra cut off
/// at the others; the corner tetrahedra around a lattice point of odd sum make a regular
/// octahedron.
pub(super) struct TetraOcta;

/// BurrTools' in-block voxel `0..5` of grid 3 and the centroid's coordinate in a cube of
/// side 8: on a face (1, 7), towards an edge (2, 6), along it (4).
const RHOMBIC_AT: [i32; 5] = [1, 2, 4, 6, 7];

impl Rhombic {
    /// The cell's tetrahedron: cube centre, face centre, the face edge's two ends.
    fn corners(c: Cell) -> Option<[Cell; 4]> {
        let block = c.map(|v| v.div_euclid(8));
        let o = c.map(|v| v.rem_euclid(8));
        let face = (0..3).find(|&a| o[a] == 1 || o[a] == 7)?;
        let edge = (0..3).find(|&a| a != face && (o[a] == 2 || o[a] == 6))?;
        let run = 3 - face - edge;
        if o[run] != 4 {
            return None;
        }
        let side = |v: i32| if v < 4 { 0 } else { 8 };
        let mut centre = [4; 3];
        let mut face_centre = [4; 3];
        face_centre[face] = side(o[face]);
        let mut a = [0; 3];
        a[face] = side(o[face]);
        a[edge] = side(o[edge]);
        let mut b = a;
        b[run] = 8;
        let base = block.map(|v| 8 * v);
        centre = add(centre, base);
        Some([centre, add(face_centre, base), add(a, base), add(b, base)])
    }
}

impl TetraOcta {
    /// The cell's tetrahedron: for a cube centre, the cube's four corners of even sum; for
    /// a cell near corner `p` of its cube, `p` and its three neighbours along the cube's edges.
    fn corners(c: Cell) -> Option<[Cell; 4]> {
        let block = c.map(|v| v.div_euclid(4));
        let o = c.map(|v| v.rem_euclid(4));
        let base = block.map(|v| 4 * v);
        if o == [2, 2, 2] {
            let even = |p: Cell| (p.iter().sum::<i32>() / 4).rem_euclid(2) == 0;
            let mut out = [[0; 3]; 4];
            let mut k = 0;
            for bits in 0..8 {
                let p = add(base, [4 * (bits & 1), 2 * (bits & 2), bits & 4]);
                if even(p) {
                    out[k] = p;
                    k += 1;
                }
            }
            return Some(out);
        }
        if o.iter().any(|&v| v != 1 && v != 3) {
            return None;
        }
        let p = add(base, o.map(|v| if v == 1 { 0 } else { 4 }));
        // Corner cells sit at the lattice points of odd sum (cube units).
        if (p.iter().sum::<i32>() / 4).rem_euclid(2) == 0 {
            return None;
        }
        let towards = |a: usize| {
            let mut q = p;
            q[a] += if o[a] == 1 { 4 } else { -4 };
            q
        };
        Some([p, towards(0), towards(1), towards(2)])
    }
}

/// The face-neighbour offsets of every kind of cell of a tetrahedral grid, keyed by `key`
/// (cells with one key are translates of each other), found by shared faces among the cells
/// within `reach` along every axis.
fn neighbour_table(
    corners: fn(Cell) -> Option<[Cell; 4]>,
    key: fn(Cell) -> Cell,
    reach: i32,
) -> Offsets {
    let mut table = HashMap::new();
    for x in 0..2 * reach {
        for y in 0..2 * reach {
            for z in 0..2 * reach {
                let c = [x, y, z];
                let Some(mine) = corners(c) else { continue };
                if table.contains_key(&key(c)) {
                    continue;
                }
                let mut offsets = Vec::new();
                for dx in -reach..=reach {
                    for dy in -reach..=reach {
                        for dz in -reach..=reach {
                            let d = [dx, dy, dz];
                            if d == [0; 3] {
                                continue;
                            }
                            let Some(theirs) = corners(add(c, d)) else {
                                continue;
                            };
                            if mine.iter().filter(|p| theirs.contains(p)).count() == 3 {
                                offsets.push(d);
                            }
                        }
                    }
                }
                table.insert(key(c), offsets);
            }
        }
    }
    table
}

/// Each kind of cell's face-neighbour offsets, by its key.
type Offsets = HashMap<Cell, Vec<Cell>>;

fn union(table: &Offsets) -> Vec<Cell> {
    let mut all: Vec<Cell> = table.values().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

fn rhombic_key(c: Cell) -> Cell {
    c.map(|v| v.rem_euclid(8))
}

fn rhombic_table() -> &'static (Offsets, Vec<Cell>) {
    static T: OnceLock<(Offsets, Vec<Cell>)> = OnceLock::new();
    T.get_or_init(|| {
        let t = neighbour_table(Rhombic::corners, rhombic_key, 8);
        let u = union(&t);
        (t, u)
    })
}

fn tetra_key(c: Cell) -> Cell {
    // Translations move by whole cubes of even sum: the block's parity is part of the kind.
    let parity = c.iter().map(|v| v.div_euclid(4)).sum::<i32>().rem_euclid(2);
    let o = c.map(|v| v.rem_euclid(4));
    [o[0] + 4 * parity, o[1], o[2]]
}

fn tetra_table() -> &'static (Offsets, Vec<Cell>) {
    static T: OnceLock<(Offsets, Vec<Cell>)> = OnceLock::new();
    T.get_or_init(|| {
        let t = neighbour_table(TetraOcta::corners, tetra_key, 8);
        let u = union(&t);
        (t, u)
    })
}

/// The corners of a cell in space (cube side 1), for the grid's `tetrahedron`.
fn in_space(corners: Option<[Cell; 4]>, side: f64) -> Option<[[f64; 3]; 4]> {
    corners.map(|cs| cs.map(|p| p.map(|v| f64::from(v) / side)))
}

impl GridKind for Rhombic {
    fn name(&self) -> &'static str {
        "rhombic"
    }
    fn burrtools_type(&self) -> Option<u32> {
        Some(3)
    }
    fn title(&self) -> &'static str {
        "the rhombic grid"
    }
    fn cell_noun(&self) -> &'static str {
        "tetrahedron"
    }
    fn connectivity(&self) -> &'static str {
        "face-connected"
    }
    fn cell_shape(&self) -> CellShape {
        CellShape::Tetrahedron
    }
    fn frame(&self) -> Frame {
        Frame::Lattice
    }
    fn symmetries_compose(&self) -> bool {
        true
    }
    fn is_cell(&self, c: Cell) -> bool {
        Rhombic::corners(c).is_some()
    }
    fn is_translation(&self, d: Cell) -> bool {
        d.iter().all(|v| v.rem_euclid(8) == 0)
    }
    fn translation_below(&self, corner: Cell) -> Cell {
        corner.map(|v| 8 * v.div_euclid(8))
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &rhombic_table().1
    }
    fn neighbour_offsets_of(&self, c: Cell) -> &'static [Cell] {
        rhombic_table().0.get(&rhombic_key(c)).map_or(&[], |v| v)
    }
    fn centre(&self, c: Cell) -> [f64; 3] {
        c.map(|v| f64::from(v) / 8.0)
    }
    fn tetrahedron(&self, c: Cell) -> Option<[[f64; 3]; 4]> {
        in_space(Rhombic::corners(c), 8.0)
    }
    fn transforms(&self) -> &'static [Transform] {
        cube::transforms()
    }
    fn typed(&self, c: Cell) -> Cell {
        c
    }
    fn typed_cell(&self, c: Cell) -> Cell {
        c
    }
    fn typed_translation(&self, d: Cell) -> Cell {
        d
    }
    fn typed_step_below(&self, corner: Cell) -> Cell {
        self.translation_below(corner)
    }
    fn voxel_cell(&self, v: Cell) -> Option<Cell> {
        let c = v.map(|x| 8 * x.div_euclid(5) + RHOMBIC_AT[x.rem_euclid(5) as usize]);
        self.is_cell(c).then_some(c)
    }
    fn cell_voxel(&self, c: Cell) -> Cell {
        c.map(|v| {
            let at = RHOMBIC_AT.iter().position(|&o| o == v.rem_euclid(8));
            5 * v.div_euclid(8) + at.unwrap_or(0) as i32
        })
    }
    fn burrtools_step_below(&self, corner: Cell) -> Cell {
        // Shapes move by whole blocks of 5x5x5 voxels.
        corner.map(|v| 5 * v.div_euclid(5))
    }
    fn voxel_rule(&self) -> &'static str {
        "a tetrahedron only where, in its block of 5x5x5 voxels, one coordinate is 0 or 4, one 1 or 3 and one 2"
    }
}

impl GridKind for TetraOcta {
    fn name(&self) -> &'static str {
        "tetra-octa"
    }
    fn burrtools_type(&self) -> Option<u32> {
        Some(4)
    }
    fn title(&self) -> &'static str {
        "the tetrahedra-octahedra grid"
    }
    fn cell_noun(&self) -> &'static str {
        "tetrahedron"
    }
    fn connectivity(&self) -> &'static str {
        "face-connected"
    }
    fn cell_shape(&self) -> CellShape {
        CellShape::Tetrahedron
    }
    fn frame(&self) -> Frame {
        Frame::Lattice
    }
    fn symmetries_compose(&self) -> bool {
        true
    }
    fn is_cell(&self, c: Cell) -> bool {
        TetraOcta::corners(c).is_some()
    }
    fn is_translation(&self, d: Cell) -> bool {
        d.iter().all(|v| v.rem_euclid(4) == 0) && (d.iter().sum::<i32>() / 4).rem_euclid(2) == 0
    }
    fn translation_below(&self, corner: Cell) -> Cell {
        let mut b = corner.map(|v| v.div_euclid(4));
        if (b[0] + b[1] + b[2]).rem_euclid(2) != 0 {
            b[0] -= 1;
        }
        b.map(|v| 4 * v)
    }
    fn neighbour_offsets(&self) -> &'static [Cell] {
        &tetra_table().1
    }
    fn neighbour_offsets_of(&self, c: Cell) -> &'static [Cell] {
        tetra_table().0.get(&tetra_key(c)).map_or(&[], |v| v)
    }
    fn centre(&self, c: Cell) -> [f64; 3] {
        c.map(|v| f64::from(v) / 4.0)
    }
    fn tetrahedron(&self, c: Cell) -> Option<[[f64; 3]; 4]> {
        in_space(TetraOcta::corners(c), 4.0)
    }
    fn transforms(&self) -> &'static [Transform] {
        cube::transforms()
    }
    fn typed(&self, c: Cell) -> Cell {
        c
    }
    fn typed_cell(&self, c: Cell) -> Cell {
        c
    }
    fn typed_translation(&self, d: Cell) -> Cell {
        d
    }
    fn typed_step_below(&self, corner: Cell) -> Cell {
        self.translation_below(corner)
    }
    fn voxel_cell(&self, v: Cell) -> Option<Cell> {
        let c = v.map(|x| 4 * x.div_euclid(3) + x.rem_euclid(3) + 1);
        self.is_cell(c).then_some(c)
    }
    fn cell_voxel(&self, c: Cell) -> Cell {
        c.map(|v| 3 * v.div_euclid(4) + v.rem_euclid(4) - 1)
    }
    fn burrtools_step_below(&self, corner: Cell) -> Cell {
        // Shapes move by whole blocks of 3x3x3 voxels whose block numbers sum to an even number.
        let mut b = corner.map(|v| v.div_euclid(3));
        if (b[0] + b[1] + b[2]).rem_euclid(2) != 0 {
            b[0] -= 1;
        }
        b.map(|v| 3 * v)
    }
    fn voxel_rule(&self) -> &'static str {
        "a cell only at the centre of a block of 3x3x3 voxels and at four of its corners, alternating with the block's parity"
    }
}
