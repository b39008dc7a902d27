//! The symmetries that map solutions to solutions: the target's self-congruences (each container's own rotations, swaps of congruent containers, optionally one reflection applied to all containers at once) and their action on placements.
//!
//! An element is stored as a permutation of target cells plus whether it is a reflection. A
//! rotation maps a placement of piece `p` to a placement of `p`; a reflection maps it to a
//! placement of `p`'s mirror partner ([`crate::puzzle::Puzzle::mirror_partners`]).

use std::collections::HashMap;

use crate::error::{Error, Request, Result};

use crate::geometry::{Cell, Transform, add, sub};
use crate::placements::PlacementTable;
use crate::puzzle::{Puzzle, Target};

/// Groups larger than this are not enumerated (counting modes then refuse).
pub const MAX_GROUP: usize = 50_000;

/// The image of a placement that a reflection cannot map (its piece has no mirror image in
/// the set).
pub const UNMAPPED: u32 = u32::MAX;

/// One symmetry of the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSymmetry {
    /// Image of every target cell.
    pub cells: Vec<u32>,
    /// True for a reflection (an improper congruence).
    pub reflection: bool,
}

/// The congruences between containers: `maps[i][j][k]` lists the cell maps taking container
/// `i` onto container `j` (k = 0 proper, 1 improper), each listing images in the order of
/// `sources[i]`, container `i`'s cells.
struct ContainerMaps {
    sources: Vec<Vec<u32>>,
    maps: Vec<Vec<[Vec<Vec<u32>>; 2]>>,
}

fn container_maps(target: &Target, reflections: bool) -> ContainerMaps {
    let conts = target.containers();
    let grid = target.grid();
    // Each container's cells, normalised as a shape's are, and the translation that did it
    // (the target's index finds a container's cell from its normalised position and that).
    let norm: Vec<(Vec<Cell>, Cell)> = conts
        .iter()
        .map(|c| {
            let cells: Vec<Cell> = c
                .cells
                .iter()
                .map(|&i| target.cells()[i as usize].pos)
                .collect();
            let min = grid.normal_offset(&cells).unwrap_or([0; 3]);
            let local: Vec<Cell> = cells.iter().map(|&p| sub(p, min)).collect();
            (local, min)
        })
        .collect();
    // A transform counts when it maps a container's cells (with their optional flags and
    // colours) onto a container; on the sphere grid only some of the 240 map its balls onto
    // balls at all.
    let transforms: &[Transform] = grid.transforms_for(reflections);
    let mut maps = vec![vec![[Vec::new(), Vec::new()]; conts.len()]; conts.len()];
    for (i, (cells_i, _)) in norm.iter().enumerate() {
        for (j, (cells_j, corner_j)) in norm.iter().enumerate() {
            if cells_i.len() != cells_j.len() {
                continue;
            }
            'transforms: for t in transforms {
                let Some(mapped) = grid.transform_cells(t, cells_i) else {
                    continue;
                };
                let min = grid.normal_offset(&mapped).unwrap_or([0; 3]);
                let mut map = Vec::with_capacity(mapped.len());
                for (k, &m) in mapped.iter().enumerate() {
                    let optional = target.cells()[conts[i].cells[k] as usize].optional;
                    let colour = target.colour(conts[i].cells[k]);
                    match target.cell_at(add(sub(m, min), *corner_j)) {
                        Some(dst)
                            if target.cells()[dst as usize].container == j as u32
                                && target.cells()[dst as usize].optional == optional
                                && target.colour(dst) == colour =>
                        {
                            map.push(dst)
                        }
                        _ => continue 'transforms,
                    }
                }
                let kind = usize::from(!t.is_proper());
                // A symmetric container is reached by several transforms: keep each map once.
                if !maps[i][j][kind].contains(&map) {
                    maps[i][j][kind].push(map);
                }
            }
        }
    }
    ContainerMaps {
        sources: conts.iter().map(|c| c.cells.clone()).collect(),
        maps,
    }
}

/// The symmetry group of the target: every combination of a permutation of congruent
/// containers and, per container, a congruence onto its image, all proper or (with
/// `reflections`) all improper. The identity comes first.
pub fn target_symmetries(target: &Target, reflections: bool) -> Result<Vec<TargetSymmetry>> {
    let cm = container_maps(target, reflections);
    let mut group = Vec::new();
    for kind in 0..if reflections { 2 } else { 1 } {
        let mut cells = vec![u32::MAX; target.cells().len()];
        let mut used = vec![false; cm.sources.len()];
        extend(&cm, kind, 0, &mut used, &mut cells, &mut group)?;
    }
    if target.grid().symmetries_compose() {
        // The grid's transforms are a group (the cube's 48), so those that fit a target are
        // one too.
    } else if !is_closed(&group) {
        // The grid's transforms are not closed under composition (two of the sphere grid's
        // 240 can make a matrix with entries in Z/9): a target whose symmetries need such a
        // product would give a set that is not a group, and orbit counts that mean nothing.
        return Err(Error::unsupported(
            Request::UpTo,
            "the target's symmetries among the sphere grid's 240 transforms do not form a group (a product of two lies outside them), so counts up to symmetry are not defined; count every placement (up to none)",
        ));
    }
    let identity: Vec<u32> = (0..target.cells().len() as u32).collect();
    if let Some(pos) = group
        .iter()
        .position(|g| g.cells == identity && !g.reflection)
    {
        group.swap(0, pos);
    }
    Ok(group)
}

/// True when the cell maps are closed under composition; not checked (true) where that would
/// take more than 50 million steps, a group of thousands of elements that only several
/// congruent containers make.
fn is_closed(group: &[TargetSymmetry]) -> bool {
    let cells = group.first().map_or(0, |g| g.cells.len());
    if (group.len() as u64).pow(2) * cells as u64 > 50_000_000 {
        return true;
    }
    let set: std::collections::HashSet<(&[u32], bool)> = group
        .iter()
        .map(|g| (g.cells.as_slice(), g.reflection))
        .collect();
    let mut product = vec![0u32; cells];
    group.iter().all(|a| {
        group.iter().all(|b| {
            for (p, &c) in product.iter_mut().zip(&b.cells) {
                *p = a.cells[c as usize];
            }
            set.contains(&(product.as_slice(), a.reflection != b.reflection))
        })
    })
}

/// A fingerprint of an element by its reflection flag and the images of its first 64 cells
/// (an Fx-style fold): enough to tell a box's symmetries apart, and confirmed where used.
fn prefix_print(reflection: bool, images: impl Iterator<Item = u32>) -> u64 {
    images.take(64).fold(u64::from(reflection), |h, c| {
        (h.rotate_left(5) ^ u64::from(c)).wrapping_mul(0x517c_c1b7_2722_0a95)
    })
}

/// The order of a cell map (the least `k` with `map^k` the identity), counted up to 64.
fn element_order(map: &[u32]) -> usize {
    let mut power = map.to_vec();
    let mut next = vec![0u32; map.len()];
    for k in 1..64 {
        if power.iter().enumerate().all(|(i, &c)| c == i as u32) {
            return k;
        }
        for (n, &c) in next.iter_mut().zip(&power) {
            *n = map[c as usize];
        }
        std::mem::swap(&mut power, &mut next);
    }
    64
}

/// Chooses, container by container, an unused image container and a congruence onto it.
fn extend(
    cm: &ContainerMaps,
    kind: usize,
    i: usize,
    used: &mut [bool],
    cells: &mut [u32],
    group: &mut Vec<TargetSymmetry>,
) -> Result<()> {
    if i == cm.sources.len() {
        if group.len() >= MAX_GROUP {
            return Err(Error::unsupported(
                Request::Size,
                format!(
                    "the target has more than {MAX_GROUP} symmetries; cubesat does not enumerate them"
                ),
            ));
        }
        group.push(TargetSymmetry {
            cells: cells.to_vec(),
            reflection: kind == 1,
        });
        return Ok(());
    }
    for j in 0..cm.sources.len() {
        if used[j] || cm.maps[i][j][kind].is_empty() {
            continue;
        }
        used[j] = true;
        for map in &cm.maps[i][j][kind] {
            for (&s, &d) in cm.sources[i].iter().zip(map) {
                cells[s as usize] = d;
            }
            extend(cm, kind, i + 1, used, cells, group)?;
        }
        used[j] = false;
    }
    Ok(())
}

/// The symmetries of a puzzle acting on its placements.
#[derive(Clone, Debug)]
pub struct PlacementSymmetries {
    /// For each group element, the image of every placement; element 0 is the identity.
    pub images: Vec<Vec<u32>>,
    /// For each group element, whether it is a reflection.
    pub reflection: Vec<bool>,
    /// For each group element, the image of every target cell.
    pub cells: Vec<Vec<u32>>,
}

/// Scratch marks on the target cells for [`PlacementSymmetries::image`]: which placement's
/// image last covered each cell (a stamp), and with which colour.
struct Marks {
    stamp: Vec<u32>,
    colour: Vec<u8>,
    next: u32,
}

impl Marks {
    fn new(cells: usize) -> Marks {
        Marks {
            stamp: vec![u32::MAX; cells],
            colour: vec![0; cells],
            next: 0,
        }
    }

    /// A stamp no cell holds yet.
    fn fresh(&mut self) -> u32 {
        if self.next == u32::MAX {
            self.stamp.fill(u32::MAX);
            self.next = 0;
        }
        self.next += 1;
        self.next - 1
    }
}

/// The order [`PlacementSymmetries::new_partial`] searches elements in when not known yet:
/// rotations first (a product is composed only with a rotation on the right), of largest
/// order first, as those generate more: a box's 24 rotations from two quarter turns, where
/// the listed order would search a half turn, another and a quarter turn before the rest
/// follow.
fn search_order(group: &[TargetSymmetry], cells_n: usize) -> Vec<usize> {
    let mut search: Vec<usize> = (0..group.len()).collect();
    if group.len() as u64 * cells_n as u64 <= 2_000_000 {
        let orders: Vec<usize> = group.iter().map(|g| element_order(&g.cells)).collect();
        search.sort_by_key(|&i| (group[i].reflection, std::cmp::Reverse(orders[i])));
    }
    search
}

/// The placement images of a group's elements as [`PlacementSymmetries::new_partial`]
/// finds them: each element searched is added with its image, and every product of known
/// elements it makes is composed from theirs.
struct Composition<'g> {
    group: &'g [TargetSymmetry],
    /// Each element by its cell map and whether it is a reflection: a reflection of a
    /// board one cell thick (through its plane) moves no cell, as the identity does, but
    /// maps pieces to their mirror partners.
    /// Keyed by a fingerprint of the first cells' images only (a product is identified
    /// from those, then confirmed in full only when its element is not known yet).
    index: HashMap<u64, Vec<usize>>,
    /// Each element's image of every placement, once known.
    all: Vec<Option<Vec<u32>>>,
    /// How many elements' images are not known yet.
    unknown: usize,
    /// The right factors: the first known rotations (a group of thousands of elements,
    /// many congruent containers, would otherwise cost the square of its size).
    factors: Vec<usize>,
    /// The elements composed with so far, in the order they became known.
    known: Vec<usize>,
}

impl<'g> Composition<'g> {
    fn new(group: &'g [TargetSymmetry]) -> Composition<'g> {
        let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, g) in group.iter().enumerate() {
            index
                .entry(prefix_print(g.reflection, g.cells.iter().copied()))
                .or_default()
                .push(i);
        }
        Composition {
            group,
            index,
            all: vec![None; group.len()],
            unknown: group.len(),
            factors: Vec::new(),
            known: Vec::new(),
        }
    }

    /// Records element `gi`'s `image`, then composes every product it makes with the known
    /// elements, and the products those make, until no new element appears.
    fn add(&mut self, gi: usize, image: Vec<u32>) {
        self.all[gi] = Some(image);
        self.unknown -= 1;
        let mut queue = vec![gi];
        while let Some(x) = queue.pop() {
            if self.unknown == 0 {
                break;
            }
            self.known.push(x);
            let mut pairs: Vec<(usize, usize)> = self.factors.iter().map(|&b| (x, b)).collect();
            if !self.group[x].reflection && self.factors.len() < COMPOSE_WITH {
                self.factors.push(x);
                pairs.extend(self.known.iter().map(|&a| (a, x)));
            }
            for (a, b) in pairs {
                if self.unknown == 0 {
                    break;
                }
                let Some(e) = self.new_product(a, b) else {
                    continue;
                };
                let composed: Vec<u32> = match (self.all[a].as_deref(), self.all[b].as_deref()) {
                    (Some(ia), Some(ib)) => ib.iter().map(|&q| ia[q as usize]).collect(),
                    _ => continue,
                };
                self.all[e] = Some(composed);
                self.unknown -= 1;
                queue.push(e);
            }
        }
    }

    /// The element that is `a` after `b`, if it is one not known yet.
    fn new_product(&self, a: usize, b: usize) -> Option<usize> {
        let group = self.group;
        let (ga, gb) = (&group[a].cells, &group[b].cells);
        let print = prefix_print(group[a].reflection, gb.iter().map(|&c| ga[c as usize]));
        let same = self.index.get(&print)?;
        same.iter().copied().find(|&e| {
            self.all[e].is_none()
                && group[e].reflection == group[a].reflection
                && gb
                    .iter()
                    .zip(&group[e].cells)
                    .all(|(&c, &d)| ga[c as usize] == d)
        })
    }

    /// The elements that map the hint placements (`hints`) onto themselves, with their
    /// actions; every element's image must be known.
    fn keeping_hints(self, hints: &[u32]) -> Result<PlacementSymmetries> {
        let mut hints = hints.to_vec();
        hints.sort_unstable();
        let group = self.group;
        let mut images = Vec::with_capacity(group.len());
        let mut reflection = Vec::with_capacity(group.len());
        let mut cell_images = Vec::with_capacity(group.len());
        for (img, g) in self.all.into_iter().zip(group) {
            let Some(img) = img else {
                return Err(Error::Internal(
                    "a symmetry's action on placements was left uncomputed".to_string(),
                ));
            };
            // Only the elements that map the hint set onto itself are kept.
            let mut mapped: Vec<u32> = hints.iter().map(|&h| img[h as usize]).collect();
            mapped.sort_unstable();
            if mapped == hints {
                images.push(img);
                reflection.push(g.reflection);
                cell_images.push(g.cells.clone());
            }
        }
        Ok(PlacementSymmetries {
            images,
            reflection,
            cells: cell_images,
        })
    }
}

/// How many of the earliest known rotations [`PlacementSymmetries::new_partial`] composes
/// elements with (as the right factor).
const COMPOSE_WITH: usize = 64;

impl PlacementSymmetries {
    /// The group as it acts on placements: one element for each distinct action (the
    /// identity first), a reflection only when no rotation acts the same way. On a flat
    /// target every reflection of space acts as a rotation does (turning the board over), so
    /// the same orbits come from half the elements, and a restriction that is free under the
    /// rotations stays free.
    pub fn distinct_actions(self) -> PlacementSymmetries {
        let mut out = PlacementSymmetries {
            images: Vec::new(),
            reflection: Vec::new(),
            cells: Vec::new(),
        };
        for ((images, reflection), cells) in
            self.images.into_iter().zip(self.reflection).zip(self.cells)
        {
            match out.images.iter().position(|i| *i == images) {
                Some(k) => out.reflection[k] &= reflection,
                None => {
                    out.images.push(images);
                    out.reflection.push(reflection);
                    out.cells.push(cells);
                }
            }
        }
        out
    }

    /// The symmetries of the target (with reflections if asked) that map the hint set onto
    /// itself, acting on placements. Reflections need mirror partners for every piece
    /// (`partners`), which the caller checks.
    pub fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        reflections: bool,
        partners: Option<&[usize]>,
    ) -> Result<PlacementSymmetries> {
        let partial: Option<Vec<Option<usize>>> =
            partners.map(|pp| pp.iter().map(|&p| Some(p)).collect());
        if reflections && partial.is_none() {
            return Err(Error::unsupported(
                Request::UpTo,
                "reflections need a mirror partner for every piece",
            ));
        }
        let g = Self::new_partial(
            puzzle,
            table,
            reflections,
            partial.as_deref().unwrap_or(&[]),
        )?;
        if g.images.iter().any(|img| img.contains(&UNMAPPED)) {
            return Err(Error::unsupported(
                Request::UpTo,
                "reflections need a mirror partner for every piece",
            ));
        }
        Ok(g)
    }

    /// Like [`PlacementSymmetries::new`], but a reflection maps a placement of piece `p` to
    /// one of `partners[p]` where that exists and to [`UNMAPPED`] otherwise (a piece without
    /// a mirror image in the set, or a mirror image that cannot take those cells). The
    /// caller applies a reflection only to solutions without unmapped placements.
    pub fn new_partial(
        puzzle: &Puzzle,
        table: &PlacementTable,
        reflections: bool,
        partners: &[Option<usize>],
    ) -> Result<PlacementSymmetries> {
        let group = target_symmetries(&puzzle.target, reflections)?;
        let work = group.len() as u64 * table.len() as u64;
        if work > 100_000_000 {
            return Err(Error::unsupported(
                Request::Size,
                format!(
                    "{} symmetries x {} placements is too large to tabulate",
                    group.len(),
                    table.len()
                ),
            ));
        }
        let cells_n = puzzle.target.cells().len();
        // Every element's placement image. An element that is `a` after a rotation `b`, both
        // known, takes `a`'s image of `b`'s, a lookup in an array instead of a placement
        // search (the table is most of the time to a first solution): the first element not
        // yet known is searched, then every product with it is composed, and so on, so a
        // search is needed only for an element outside the subgroup known so far (two or
        // three for a box's 24 rotations). A rotation maps every placement to one of the same
        // piece, so the composition loses nothing.
        let mut composition = Composition::new(&group);
        let mut marks = Marks::new(cells_n);
        let identity: Vec<u32> = (0..cells_n as u32).collect();
        for gi in search_order(&group, cells_n) {
            if composition.all[gi].is_some() {
                continue;
            }
            let g = &group[gi];
            let image = if !g.reflection && g.cells == identity {
                (0..table.len() as u32).collect()
            } else {
                Self::image(puzzle, table, g, partners, &mut marks)?
            };
            composition.add(gi, image);
        }
        composition.keeping_hints(table.hints())
    }

    /// The image of every placement under `g`, found in the table one by one (see
    /// [`PlacementSymmetries::new_partial`]; `marks` is scratch). The image cells are looked
    /// up in any order ([`PlacementTable::with_cells`]) and confirmed cell by cell, with
    /// their colours, against marks: no sorting.
    fn image(
        puzzle: &Puzzle,
        table: &PlacementTable,
        g: &TargetSymmetry,
        partners: &[Option<usize>],
        marks: &mut Marks,
    ) -> Result<Vec<u32>> {
        let mut img = Vec::with_capacity(table.len());
        let mut cells: Vec<u32> = Vec::new();
        for p in table.placements() {
            let piece = if g.reflection {
                match partners.get(p.piece as usize).copied().flatten() {
                    Some(q) => q as u32,
                    None => {
                        img.push(UNMAPPED);
                        continue;
                    }
                }
            } else {
                p.piece
            };
            cells.clear();
            let stamp = marks.fresh();
            let coloured = !p.colours.is_empty();
            for (k, &c) in p.cells.iter().enumerate() {
                let d = g.cells[c as usize];
                cells.push(d);
                marks.stamp[d as usize] = stamp;
                if coloured {
                    // Colours travel with their cells.
                    marks.colour[d as usize] = p.colours[k];
                }
            }
            let found = table.with_cells(piece, &cells).find(|&q| {
                let image = &table.placements()[q as usize];
                let marked = |c: u32| marks.stamp.get(c as usize) == Some(&stamp);
                image.piece == piece
                    && image.cells.len() == cells.len()
                    && image.colours.len() == p.colours.len()
                    && if coloured {
                        (image.cells.iter().zip(&image.colours))
                            .all(|(&c, &k)| marked(c) && marks.colour[c as usize] == k)
                    } else {
                        image.cells.iter().all(|&c| marked(c))
                    }
            });
            match found {
                Some(q) => img.push(q),
                None if g.reflection => img.push(UNMAPPED),
                None => {
                    return Err(Error::Internal(format!(
                        "a target symmetry maps a placement of '{}' to no placement",
                        puzzle.pieces[p.piece as usize].name
                    )));
                }
            }
        }
        Ok(img)
    }

    /// Number of group elements.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Number of rotations (proper elements).
    pub fn rotations(&self) -> usize {
        self.reflection.iter().filter(|r| !**r).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::ContainerSpec;

    /// On a flat board every reflection of space acts on placements as a rotation does (it
    /// turns the board over), so the full group has as many distinct actions as the
    /// rotations and none of them is a reflection; a box keeps its reflections.
    #[test]
    fn reflections_of_a_flat_board_act_as_rotations() {
        for (name, rotations, distinct, reflections) in
            [("pentominoes-3x20", 4, 4, 0), ("soma", 24, 48, 24)]
        {
            let puzzle = crate::puzzle::bundled(name).unwrap();
            let table = PlacementTable::new(&puzzle).unwrap();
            let forms =
                puzzle.canonical_forms_from(table.orientations(), table.orientation_colours());
            let partners = puzzle.mirror_partners_of(&forms).unwrap();
            let full = PlacementSymmetries::new(&puzzle, &table, true, Some(&partners)).unwrap();
            assert_eq!(full.images.len(), 2 * rotations, "{name}");
            let d = full.distinct_actions();
            assert_eq!(d.images.len(), distinct, "{name}");
            assert_eq!(
                d.reflection.iter().filter(|&&r| r).count(),
                reflections,
                "{name}"
            );
            assert!(
                !d.reflection[0] && d.images[0].iter().enumerate().all(|(p, &q)| p as u32 == q)
            );
        }
    }

    #[test]
    fn box_symmetry_group_sizes() {
        let cube = Target::new(&[ContainerSpec::full_box([4, 4, 4])]);
        assert_eq!(target_symmetries(&cube, false).unwrap().len(), 24);
        assert_eq!(target_symmetries(&cube, true).unwrap().len(), 48);
        let slab = Target::new(&[ContainerSpec::full_box([4, 4, 2])]);
        assert_eq!(target_symmetries(&slab, false).unwrap().len(), 8);
        let board = Target::new(&[ContainerSpec::full_box([10, 6, 1])]);
        assert_eq!(target_symmetries(&board, false).unwrap().len(), 4);
        assert_eq!(target_symmetries(&board, true).unwrap().len(), 8);
        let two = Target::new(&[
            ContainerSpec::full_box([4, 2, 2]),
            ContainerSpec::full_box([4, 2, 2]),
        ]);
        let g = target_symmetries(&two, false).unwrap();
        assert_eq!(g.len(), 128);
        assert_eq!(g[0].cells, (0..32).collect::<Vec<u32>>());
        assert_eq!(target_symmetries(&two, true).unwrap().len(), 256);
    }

    /// The canonical forms read off the placement table's orientations equal the ones
    /// computed from the pieces, and the mirror images are the same pieces', on the bundled
    /// puzzles and the BurrTools files of both grids (colours included).
    #[test]
    fn canonical_forms_from_the_table_match_the_pieces() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/burrtools");
        let mut puzzles: Vec<Puzzle> = ["tetris-cube", "soma", "pentominoes-6x10"]
            .iter()
            .map(|n| crate::puzzle::bundled(n).unwrap())
            .collect();
        let mut coloured = 0;
        for sub in ["reference", "own", "spheres"] {
            for entry in std::fs::read_dir(format!("{dir}/{sub}")).unwrap() {
                let path = entry.unwrap().path();
                if let Ok(p) = crate::puzzle::read_path(&path, None) {
                    coloured += usize::from(p.pieces.iter().any(|x| x.is_coloured()));
                    puzzles.push(p);
                }
            }
        }
        assert!(puzzles.len() > 10 && coloured > 0);
        for puzzle in &puzzles {
            let Ok(table) = PlacementTable::new(puzzle) else {
                continue;
            };
            let fast =
                puzzle.canonical_forms_from(table.orientations(), table.orientation_colours());
            let slow = puzzle.canonical_forms();
            assert_eq!(fast.canon, slow.canon, "{}", puzzle.name);
            // The mirror images may differ in form where they are no piece's (see
            // `CanonicalForms::mirrored`), never in which pieces they are.
            for (i, m) in slow.mirrored.iter().enumerate() {
                let is = |m: &crate::puzzle::ColouredCells| -> Vec<bool> {
                    slow.canon.iter().map(|c| c == m).collect()
                };
                assert_eq!(is(&fast.mirrored[i]), is(m), "{} piece {i}", puzzle.name);
                if slow.canon.contains(m) {
                    assert_eq!(&fast.mirrored[i], m, "{} piece {i}", puzzle.name);
                }
            }
        }
    }

    /// The images composed from earlier elements equal the ones searched in the table, for
    /// rotations and for reflections whose partners leave placements unmapped (every third
    /// piece has none), on one box, a flat board and two separate containers.
    #[test]
    fn composed_images_match_the_searched_ones() {
        for name in [
            "tetris-cube",
            "soma",
            "tetracubes-two-2x2x4",
            "pentominoes-6x10",
        ] {
            let puzzle = crate::puzzle::bundled(name).unwrap();
            let table = PlacementTable::new(&puzzle).unwrap();
            assert!(table.hints().is_empty(), "{name}");
            for reflections in [false, true] {
                let partners: Vec<Option<usize>> = (0..puzzle.pieces.len())
                    .map(|p| (p % 3 != 2).then_some(p))
                    .collect();
                let sym = PlacementSymmetries::new_partial(&puzzle, &table, reflections, &partners)
                    .unwrap();
                let group = target_symmetries(&puzzle.target, reflections).unwrap();
                assert_eq!(sym.images.len(), group.len(), "{name}");
                let mut unmapped = 0;
                let mut marks = Marks::new(puzzle.target.cells().len());
                for (g, img) in group.iter().zip(&sym.images) {
                    let searched =
                        PlacementSymmetries::image(&puzzle, &table, g, &partners, &mut marks)
                            .unwrap();
                    assert_eq!(img, &searched, "{name}, reflections {reflections}");
                    unmapped += img.iter().filter(|&&q| q == UNMAPPED).count();
                }
                assert_eq!(unmapped > 0, reflections, "{name}");
            }
        }
    }
}
