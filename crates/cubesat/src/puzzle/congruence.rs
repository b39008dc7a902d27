//! Which pieces are the same: coloured orientations and canonical forms, their cheap invariants, and the pairings of pieces with their mirror images.

use super::{Piece, Puzzle};
use crate::geometry::{Cell, Grid, Shape, Transform, sub, zyx};

/// Cells with colours, normalised like [`Shape::new`] (translated to the origin, sorted by
/// (z, y, x)).
pub type ColouredCells = Vec<(Cell, u8)>;

/// Every piece's canonical form and its mirror image's ([`Puzzle::canonical_forms`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalForms {
    /// [`Piece::coloured_canonical`] of every piece.
    pub canon: Vec<ColouredCells>,
    /// Every piece's mirror image, in a form equal to `canon[j]` exactly when the mirror
    /// image is piece `j` turned: [`Piece::mirrored_canonical`], or (when the forms are read
    /// off a placement table's orientations) for a chiral piece whose mirror image is no
    /// piece of the set, the mirror image as it lies.
    pub mirrored: Vec<ColouredCells>,
}

/// A cheap invariant of a piece under rotation and reflection, colours included: its cells
/// per colour, and [`layer_counts`]. Pieces with other invariants are not congruent.
fn congruence_invariant(p: &Piece) -> ((usize, Vec<Vec<u32>>), Vec<u8>) {
    let mut colours: Vec<u8> = p.colours.iter().copied().filter(|&c| c != 0).collect();
    colours.sort_unstable();
    (layer_counts(&p.shape), colours)
}

/// A cheap invariant of a shape under rotation and reflection: its cell count and, on a grid
/// whose transforms permute the axes and may turn each around ([`Grid::permutes_axes`]: the
/// cube grid), how many cells lie in each layer along each axis (each list read from the end
/// that makes it smaller, the three lists sorted). Shapes with other invariants are not
/// congruent.
pub(super) fn layer_counts(shape: &Shape) -> (usize, Vec<Vec<u32>>) {
    if !shape.grid().permutes_axes() {
        return (shape.len(), Vec::new());
    }
    let size = shape.size();
    let mut layers: Vec<Vec<u32>> = size.iter().map(|&n| vec![0; n as usize]).collect();
    for c in shape.cells() {
        for a in 0..3 {
            layers[a][c[a] as usize] += 1;
        }
    }
    for l in &mut layers {
        // A normalised shape may start a little past the origin (a grid whose translations
        // do not reach every corner): the empty layers before and after say nothing.
        let first = l.iter().position(|&n| n != 0).unwrap_or(l.len());
        let last = l.iter().rposition(|&n| n != 0).map_or(first, |p| p + 1);
        *l = l[first..last].to_vec();
        let reversed: Vec<u32> = l.iter().rev().copied().collect();
        if reversed < *l {
            *l = reversed;
        }
    }
    layers.sort_unstable();
    (shape.len(), layers)
}

fn normalise_coloured(grid: Grid, mut v: ColouredCells) -> ColouredCells {
    let mut min = [i32::MAX; 3];
    for (c, _) in &v {
        for a in 0..3 {
            min[a] = min[a].min(c[a]);
        }
    }
    if !v.is_empty() {
        // As `Grid::normal_offset`.
        let min = grid.translation_below(min);
        for (c, _) in &mut v {
            *c = sub(*c, min);
        }
    }
    let cells: Vec<Cell> = v.iter().map(|(c, _)| *c).collect();
    if let Some(order) = crate::geometry::zyx_order(&cells)
        && order.len() == v.len()
    {
        return order.iter().map(|&i| v[i as usize]).collect();
    }
    // The colour rides in the low bits of the sort key (cells are distinct).
    let keys: Option<Vec<u64>> = v
        .iter()
        .map(|&(c, k)| crate::geometry::zyx_key(c).map(|key| key | u64::from(k)))
        .collect();
    match keys {
        Some(mut keys) => {
            keys.sort_unstable();
            for (slot, &key) in v.iter_mut().zip(&keys) {
                *slot = (crate::geometry::from_zyx_key(key), key as u8);
            }
        }
        None => v.sort_unstable_by_key(|(c, _)| zyx(*c)),
    }
    v
}

impl Piece {
    /// The coloured cells transformed by `t`, normalised, or `None` when `t` does not fit
    /// the piece (see [`Grid::transform_cells`]).
    pub fn coloured_transformed(&self, t: &Transform) -> Option<ColouredCells> {
        let grid = self.shape.grid();
        let colour = |i: usize| self.colours.get(i).copied().unwrap_or(0);
        if let Some((cells, from)) = grid.normalised_image(t, self.shape.cells()) {
            return Some(
                cells
                    .into_iter()
                    .zip(from)
                    .map(|(c, i)| (c, colour(i as usize)))
                    .collect(),
            );
        }
        let cells = grid.transform_cells(t, self.shape.cells())?;
        Some(normalise_coloured(
            grid,
            cells
                .into_iter()
                .enumerate()
                .map(|(i, c)| (c, self.colours.get(i).copied().unwrap_or(0)))
                .collect(),
        ))
    }

    /// The distinct orientations (shape and colour layout) under the grid's proper rotations,
    /// or all its transforms with `mirror`, first occurrence kept. Two orientations with the
    /// same cells but different colour layouts are different (as in BurrTools). For an
    /// uncoloured piece this is [`Shape::orientations`] with empty colour lists.
    pub fn orientations(&self, mirror: bool) -> Vec<(Shape, Vec<u8>)> {
        if !self.is_coloured() {
            return self
                .shape
                .orientations(mirror)
                .into_iter()
                .map(|s| (s, Vec::new()))
                .collect();
        }
        let grid = self.shape.grid();
        // Told apart by comparison, not hashing (see `Shape::orientations`).
        let mut seen: Vec<ColouredCells> = Vec::new();
        for t in grid.transforms_for(mirror) {
            let Some(v) = self.coloured_transformed(t) else {
                continue;
            };
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen.into_iter()
            .map(|v| {
                // Normalised and sorted already: a shape as it stands.
                let shape = Shape::from_normalised(grid, v.iter().map(|(c, _)| *c).collect());
                (shape, v.into_iter().map(|(_, k)| k).collect())
            })
            .collect()
    }

    /// The smallest coloured orientation under the proper rotations: two pieces are the same
    /// up to rotation (colours included) iff these agree.
    pub fn coloured_canonical(&self) -> ColouredCells {
        self.shape
            .grid()
            .rotations()
            .iter()
            .filter_map(|t| self.coloured_transformed(t))
            .min()
            .unwrap_or_default()
    }

    /// The canonical form of the mirror image (colours included).
    pub fn mirrored_canonical(&self) -> ColouredCells {
        let grid = self.shape.grid();
        let m: ColouredCells = self
            .coloured_cells()
            .into_iter()
            .map(|([x, y, z], k)| ([-x, y, z], k))
            .collect();
        let cells: Vec<Cell> = m.iter().map(|(c, _)| *c).collect();
        grid.rotations()
            .iter()
            .filter_map(|t| {
                if let Some((moved, from)) = grid.normalised_image(t, &cells) {
                    return Some(
                        moved
                            .into_iter()
                            .zip(from)
                            .map(|(c, i)| (c, m[i as usize].1))
                            .collect(),
                    );
                }
                let moved = grid.transform_cells(t, &cells)?;
                Some(normalise_coloured(
                    grid,
                    moved
                        .into_iter()
                        .zip(&m)
                        .map(|(c, &(_, k))| (c, k))
                        .collect(),
                ))
            })
            .min()
            .unwrap_or_default()
    }

    /// True when the piece (colours included) is its own mirror image up to rotation.
    pub fn is_achiral_coloured(&self) -> bool {
        self.coloured_canonical() == self.mirrored_canonical()
    }
}

impl Puzzle {
    /// Every piece's canonical form and its mirror image's ([`Piece::coloured_canonical`],
    /// [`Piece::mirrored_canonical`]), for the mirror pairings below, which a symmetry
    /// reduction asks for several times (each form is the least of 24 transformed copies: a
    /// fifth of a count of BurrTools' DraculasDentalDesaster, whose box is a piece of 936
    /// cells, went into computing them three times).
    pub fn canonical_forms(&self) -> CanonicalForms {
        CanonicalForms {
            canon: self.pieces.iter().map(|p| p.coloured_canonical()).collect(),
            mirrored: self.pieces.iter().map(|p| p.mirrored_canonical()).collect(),
        }
    }

    /// [`Puzzle::canonical_forms`], each piece's own form taken as the least of its
    /// orientations under the rotations when those are at hand (`orientations`, as
    /// [`Piece::orientations`] without mirror lists them: the distinct rotated copies, so
    /// their least is the canonical form) instead of transforming the piece again.
    pub(crate) fn canonical_forms_from(
        &self,
        orientations: &[Vec<Shape>],
        colours: &[Vec<Vec<u8>>],
    ) -> CanonicalForms {
        if self.mirror || orientations.len() != self.pieces.len() {
            return self.canonical_forms();
        }
        // An orientation as coloured cells, as the canonical forms list them.
        let coloured = |shape: &Shape, cols: Option<&Vec<u8>>| -> ColouredCells {
            let col = cols.map_or(&[][..], |c| c.as_slice());
            shape
                .cells()
                .iter()
                .enumerate()
                .map(|(k, &c)| (c, col.get(k).copied().unwrap_or(0)))
                .collect()
        };
        let canon: Vec<ColouredCells> = orientations
            .iter()
            .zip(colours)
            .map(|(shapes, cols)| {
                shapes
                    .iter()
                    .enumerate()
                    .map(|(o, s)| coloured(s, cols.get(o)))
                    .min()
                    .unwrap_or_default()
            })
            .collect();
        // The mirror image's canonical form is a piece's own when the mirror image, moved to
        // the origin, is one of that piece's orientations (itself when achiral, or another
        // with its invariant): one reflection and a few comparisons instead of turning the
        // mirror image through every rotation. When it is none of them it is no piece's
        // orientation, so it equals no canonical form as it lies, and is kept so (see
        // `CanonicalForms::mirrored`). On a grid whose transforms do not permute the axes
        // (where the mirror image is not `[-x, y, z]`): the long way.
        let invariants: Vec<_> = self.pieces.iter().map(congruence_invariant).collect();
        let mirrored = (0..self.pieces.len())
            .map(|i| {
                let piece = &self.pieces[i];
                let grid = piece.shape.grid();
                if !grid.permutes_axes() {
                    return piece.mirrored_canonical();
                }
                let image = normalise_coloured(
                    grid,
                    piece
                        .coloured_cells()
                        .into_iter()
                        .map(|([x, y, z], k)| ([-x, y, z], k))
                        .collect(),
                );
                let mut partners = std::iter::once(i).chain(
                    (0..self.pieces.len()).filter(|&j| j != i && invariants[j] == invariants[i]),
                );
                match partners.find(|&j| {
                    orientations[j].iter().enumerate().any(|(o, s)| {
                        s.len() == image.len()
                            && coloured(s, colours.get(j).and_then(|c| c.get(o))) == image
                    })
                }) {
                    Some(j) => canon[j].clone(),
                    None => image,
                }
            })
            .collect();
        CanonicalForms { canon, mirrored }
    }

    /// For every piece, the piece its mirror image is: itself when achiral (colours
    /// included), else the first piece congruent to its mirror image by a rotation, or `None`.
    /// Counts are not compared (see [`Puzzle::mirror_partners`] for a full pairing).
    pub fn mirror_parts(&self) -> Vec<Option<usize>> {
        self.mirror_parts_of(&self.canonical_forms())
    }

    /// [`Puzzle::mirror_parts`] from the pieces' [`Puzzle::canonical_forms`].
    pub fn mirror_parts_of(&self, forms: &CanonicalForms) -> Vec<Option<usize>> {
        let canon = &forms.canon;
        (0..self.pieces.len())
            .map(|i| {
                let m = &forms.mirrored[i];
                if *m == canon[i] {
                    Some(i)
                } else {
                    canon.iter().position(|c| c == m)
                }
            })
            .collect()
    }

    /// Groups of two or more listed pieces with the same shape and colours (congruent by a
    /// rotation, or also by a reflection when the puzzle allows mirroring), in piece order.
    /// Such pieces are told apart by name only, so solutions that swap them count as
    /// different; one entry with `count` makes them identical copies. Pieces of one shape in
    /// other colours are not interchangeable, and not grouped.
    pub fn same_shapes(&self) -> Vec<Vec<usize>> {
        // Canonical forms cost 24 to 48 transforms of the whole shape: taken only for pieces
        // that share a `congruence_invariant` with another piece (of the nine 136- and
        // 152-cell teeth of BurrTools' DraculasDentalDesaster, two).
        let roughs: Vec<_> = self.pieces.iter().map(congruence_invariant).collect();
        let key = |p: &Piece| {
            let c = p.coloured_canonical();
            if self.mirror {
                c.min(p.mirrored_canonical())
            } else {
                c
            }
        };
        let keys: Vec<Option<ColouredCells>> = (0..self.pieces.len())
            .map(|i| {
                (roughs.iter().filter(|&r| *r == roughs[i]).count() > 1)
                    .then(|| key(&self.pieces[i]))
            })
            .collect();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..self.pieces.len() {
            if keys[i].is_none() || groups.iter().any(|g| g.contains(&i)) {
                continue;
            }
            let g: Vec<usize> = (i..self.pieces.len())
                .filter(|&j| keys[j] == keys[i])
                .collect();
            if g.len() > 1 {
                groups.push(g);
            }
        }
        groups
    }

    /// The other pieces whose shape is the mirror image of piece `i` (up to rotation), in
    /// piece order; empty for an achiral piece or a piece whose mirror image is not in the set.
    pub fn mirror_images_of(&self, i: usize) -> Vec<usize> {
        let shape = &self.pieces[i].shape;
        if shape.is_achiral() {
            return Vec::new();
        }
        let m = shape.mirrored().canonical();
        (0..self.pieces.len())
            .filter(|&j| j != i && self.pieces[j].shape.canonical() == m)
            .collect()
    }

    /// For every piece, the piece that is its mirror image (itself when achiral, or always
    /// when the puzzle allows mirroring), or `None` when some chiral piece's partner is missing
    /// or has another count: then "up to rotation and reflection" is not defined.
    pub fn mirror_partners(&self) -> Option<Vec<usize>> {
        if self.mirror {
            return Some((0..self.pieces.len()).collect());
        }
        self.mirror_partners_of(&self.canonical_forms())
    }

    /// [`Puzzle::mirror_partners`] from the pieces' [`Puzzle::canonical_forms`].
    pub fn mirror_partners_of(&self, forms: &CanonicalForms) -> Option<Vec<usize>> {
        if self.mirror {
            return Some((0..self.pieces.len()).collect());
        }
        let canon = &forms.canon;
        let mut partner = Vec::with_capacity(self.pieces.len());
        for (i, p) in self.pieces.iter().enumerate() {
            let m = &forms.mirrored[i];
            if *m == canon[i] {
                partner.push(i);
                continue;
            }
            let candidates: Vec<usize> = (0..self.pieces.len())
                .filter(|&j| {
                    canon[j] == *m
                        && self.pieces[j].count == p.count
                        && self.pieces[j].min_count == p.min_count
                })
                .collect();
            // Pair the k-th piece of a shape with the k-th piece of the mirrored shape, so
            // several listed pieces of the same shape still pair one to one.
            let rank = (0..i).filter(|&j| canon[j] == canon[i]).count();
            partner.push(*candidates.get(rank)?);
        }
        // The pairing must be an involution.
        if partner.iter().enumerate().all(|(i, &j)| partner[j] == i) {
            Some(partner)
        } else {
            None
        }
    }
}
