//! BurrTools' orientation of an assembly: of the copies of a solution under the target's symmetries, the one BurrTools 0.7.1 reports, with the copies of each part in BurrTools' order.
//!
//! It matters because BurrTools tries moves along x, then y, then z and pieces in their
//! order: of several equally short separations, which one it takes (and, under its greedy
//! rule, whether the assembly is accepted) can depend on the orientation. Read from BurrTools
//! 0.7.1 (`assembler_0.cpp`, `assembler_1.cpp`, `assembly.cpp`, the cube grid's
//! transformation tables); no code is taken from it:
//!
//! - Transformations are numbered 0..48: proper rotation `4a + b` is `B[a] · X^b` (`X` a
//!   quarter turn about +x; `B` = identity, -90°, 180°, +90° about y, +90°, -90° about z),
//!   and `24 + i` is rotation `i` after the mirror `x -> -x`. A placement is a
//!   transformation and the position its shape's origin goes to; of the transformations that
//!   give the same cells (colours included), BurrTools keeps the smallest number. Placements
//!   compare by transformation, then x, y, z; copies of a part are sorted by placement.
//! - When the target has symmetries, BurrTools picks a "symmetry breaker" part: the first
//!   with the fewest transformations that are both its own symmetries and (conjugates of)
//!   the target's (assembler 1, used when some part has a count other than one, prefers the
//!   fewest copies first and drops the breaker when that part has copies or ranges). The
//!   breaker is placed only in the first rotation of each class the target's symmetries
//!   join, and when symmetries are left (or mirror images must be weeded out), an assembly
//!   is reported only when no symmetric copy of it compares smaller, the breaker's placement
//!   compared first.
//!
//! So the copy reported is the smallest, in that comparison, of the copies whose breaker
//! sits in one of its first rotations. (BurrTools would report none when the smallest copy
//! has its breaker elsewhere; the smallest reachable copy stands in for it here.)

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::geometry::Cell;
use crate::puzzle::Puzzle;
use crate::run::Instance;
use crate::solution::Solution;

use super::Placed;

/// A 3x3 integer matrix, row-major.
type Matrix = [[i32; 3]; 3];

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

fn apply(m: &Matrix, c: Cell) -> Cell {
    std::array::from_fn(|i| m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2])
}

/// BurrTools' 48 transformations of the cube grid, in its numbering.
pub fn transformations() -> &'static [Matrix; 48] {
    static ALL: OnceLock<[Matrix; 48]> = OnceLock::new();
    ALL.get_or_init(|| {
        let id: Matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
        let x: Matrix = [[1, 0, 0], [0, 0, -1], [0, 1, 0]];
        let y = |c: i32, s: i32| -> Matrix { [[c, 0, s], [0, 1, 0], [-s, 0, c]] };
        let z = |c: i32, s: i32| -> Matrix { [[c, -s, 0], [s, c, 0], [0, 0, 1]] };
        let bases = [id, y(0, -1), y(-1, 0), y(0, 1), z(0, 1), z(0, -1)];
        let mirror: Matrix = [[-1, 0, 0], [0, 1, 0], [0, 0, 1]];
        let mut all = [id; 48];
        for (a, b) in bases.iter().enumerate() {
            let mut m = *b;
            for q in 0..4 {
                all[4 * a + q] = m;
                m = mul(&m, &x);
            }
        }
        for i in 0..24 {
            all[24 + i] = mul(&all[i], &mirror);
        }
        all
    })
}

/// The number of a matrix among [`transformations`].
fn index_of(m: &Matrix) -> usize {
    transformations().iter().position(|t| t == m).unwrap_or(0)
}

/// Coloured cells moved so that their smallest corner is the origin, sorted.
fn normal(mut v: Vec<(Cell, u8)>) -> Vec<(Cell, u8)> {
    let lo = [0, 1, 2].map(|a| v.iter().map(|(c, _)| c[a]).min().unwrap_or(0));
    for (c, _) in &mut v {
        *c = [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]];
    }
    v.sort_unstable();
    v
}

fn corner(cells: impl Iterator<Item = Cell> + Clone) -> Cell {
    [0, 1, 2].map(|a| cells.clone().map(|c| c[a]).min().unwrap_or(0))
}

/// A part's shape in every transformation, and the smallest number giving each.
struct PartShapes {
    /// The shape (coloured cells) in transformation 0.
    base: Vec<(Cell, u8)>,
    /// Normalised shape of each transformation.
    keys: Vec<Vec<(Cell, u8)>>,
    /// Normalised shape -> the smallest transformation giving it.
    smallest: HashMap<Vec<(Cell, u8)>, usize>,
}

impl PartShapes {
    fn new(base: Vec<(Cell, u8)>) -> PartShapes {
        let keys: Vec<Vec<(Cell, u8)>> = transformations()
            .iter()
            .map(|m| normal(base.iter().map(|&(c, k)| (apply(m, c), k)).collect()))
            .collect();
        let mut smallest = HashMap::new();
        for (t, k) in keys.iter().enumerate() {
            smallest.entry(k.clone()).or_insert(t);
        }
        PartShapes {
            base,
            keys,
            smallest,
        }
    }

    /// The part's symmetries as a bit set over the 48 transformations.
    fn symmetries(&self) -> u64 {
        (0..48)
            .filter(|&t| self.keys[t] == self.keys[0])
            .fold(0, |m, t| m | 1 << t)
    }
}

/// `{x : r⁻¹ x r is in s for some r}`: the transformations that are symmetries of some
/// rotated copy of a shape with symmetries `s` (BurrTools' "unified" symmetries).
fn unified(s: u64) -> u64 {
    let all = transformations();
    let mut out = s;
    for r in 0..48 {
        let inv = (0..48)
            .find(|&q| mul(&all[q], &all[r]) == all[0])
            .unwrap_or(0);
        for x in 0..48 {
            if s >> index_of(&mul(&all[inv], &mul(&all[x], &all[r]))) & 1 == 1 {
                out |= 1 << x;
            }
        }
    }
    out
}

/// A placement as BurrTools compares them: transformation, then position.
type Placement = (u8, i32, i32, i32);
const UNPLACED: Placement = (255, 0, 0, 0);

/// The solution's pieces in BurrTools' order and orientation, with the transformation number
/// used and, per piece, its index in [`super::solutions::placed`]'s order.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// The pieces, by part, copies in BurrTools' order, cells transformed.
    pub pieces: Vec<Placed>,
    /// BurrTools' number of the transformation applied (0 = as listed).
    pub transformation: usize,
    /// For each piece, its index among the solution's pieces as listed.
    pub source: Vec<usize>,
}

/// How one puzzle's assemblies are turned; computed once per instance.
pub struct Orienter {
    parts: Vec<PartShapes>,
    counts: Vec<u32>,
    /// Target symmetries allowed to turn an assembly, with the shift that puts the target
    /// back in place.
    moves: Vec<(usize, Cell)>,
    /// The part whose first copy is compared first, and where its copies may sit.
    pivot: Option<usize>,
    breaker: Option<(usize, u64)>,
}

impl Orienter {
    /// The rule for `inst`'s puzzle.
    pub fn new(inst: &Instance) -> Orienter {
        let puzzle = &inst.puzzle;
        let parts: Vec<PartShapes> = puzzle
            .pieces
            .iter()
            .map(|p| PartShapes::new(p.coloured_cells()))
            .collect();
        let counts: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
        let (group, mut moves) = target_symmetries(puzzle);
        if group == 1 {
            moves.truncate(1);
            return Orienter {
                parts,
                counts,
                moves,
                pivot: None,
                breaker: None,
            };
        }
        let rule = BreakerRule::new(puzzle, &parts, &counts, group);
        let (breaker, mut pivot, check) = if rule.single {
            rule.assembler0()
        } else {
            rule.assembler1()
        };
        if !check {
            // No copy is ever compared: the breaker alone decides (one copy reachable).
            pivot = None;
        }
        if !rule.mirrors_allowed() {
            moves.retain(|&(t, _)| t < 24);
        }
        let breaker = breaker.map(|b| (b, kept_rotations(&parts[b], group)));
        Orienter {
            parts,
            counts,
            moves,
            pivot,
            breaker,
        }
    }

    /// The solution's pieces as BurrTools reports the assembly.
    pub fn orient(&self, inst: &Instance, solution: &Solution) -> Oriented {
        let listed = listed(inst, solution);
        let mut best: Option<Candidate> = None;
        let mut fallback = None;
        for &(t, shift) in &self.moves {
            let Some(turned) = self.turn(&listed, t, shift) else {
                continue;
            };
            let full = self.placement_list(&turned);
            let slot = if self.reachable(&turned) {
                &mut best
            } else {
                &mut fallback
            };
            let better = match slot {
                None => true,
                Some((b, ..)) => smaller(&full, b, self.pivot),
            };
            if better {
                let order: Vec<usize> = turned.iter().map(|e| e.2).collect();
                let moved: Vec<Vec<(Cell, u8)>> = turned.into_iter().map(|e| e.3).collect();
                *slot = Some((full, t, order, moved));
            }
        }
        let (_, t, source, moved) = best.or(fallback).unwrap_or_else(|| {
            (
                Vec::new(),
                0,
                (0..listed.len()).collect(),
                listed.iter().map(|l| l.1.clone()).collect(),
            )
        });
        Oriented {
            pieces: source
                .iter()
                .zip(moved)
                .map(|(&i, cells)| Placed {
                    part: listed[i].0,
                    cells: cells.into_iter().map(|c| c.0).collect(),
                })
                .collect(),
            transformation: t,
            source,
        }
    }

    /// The listed pieces turned by transformation `t` and moved by `shift`, each with its
    /// BurrTools placement, sorted by part and placement; `None` when `t` is a mirror that
    /// turns some piece into its mirror image (BurrTools never reports that copy).
    fn turn(&self, listed: &[(usize, MarkedCells)], t: usize, shift: Cell) -> Option<Vec<Turned>> {
        let all = transformations();
        let m = &all[t];
        let mut turned: Vec<Turned> = Vec::with_capacity(listed.len());
        let mut mirrored = false;
        for (i, (part, pc)) in listed.iter().enumerate() {
            let moved: Vec<(Cell, u8)> = pc
                .iter()
                .map(|&(c, k)| {
                    let r = apply(m, c);
                    ([r[0] + shift[0], r[1] + shift[1], r[2] + shift[2]], k)
                })
                .collect();
            let shapes = &self.parts[*part];
            let tn = shapes
                .smallest
                .get(&normal(moved.clone()))
                .copied()
                .unwrap_or(0);
            mirrored |= tn >= 24;
            let origin = corner(shapes.base.iter().map(|&(c, _)| apply(&all[tn], c)));
            let here = corner(moved.iter().map(|c| c.0));
            let p = (
                tn as u8,
                here[0] - origin[0],
                here[1] - origin[1],
                here[2] - origin[2],
            );
            turned.push((*part, p, i, moved));
        }
        if t >= 24 && mirrored {
            return None;
        }
        turned.sort_by_key(|e| (e.0, e.1));
        Some(turned)
    }

    /// BurrTools' full placement list of turned pieces: every part's copies, unplaced ones
    /// last.
    fn placement_list(&self, turned: &[Turned]) -> Vec<Placement> {
        let mut full = Vec::new();
        let mut at = 0;
        for (part, &count) in self.counts.iter().enumerate() {
            let n = turned[at..].iter().take_while(|e| e.0 == part).count();
            full.extend(turned[at..at + n].iter().map(|e| e.1));
            full.extend(std::iter::repeat_n(
                UNPLACED,
                count as usize - n.min(count as usize),
            ));
            at += n;
        }
        full
    }

    /// Whether BurrTools' assembler can reach this copy: the breaker's copies in its kept
    /// rotations.
    fn reachable(&self, turned: &[Turned]) -> bool {
        match self.breaker {
            Some((b, kept)) => turned
                .iter()
                .filter(|e| e.0 == b)
                .all(|e| kept >> e.1.0 & 1 == 1),
            None => true,
        }
    }
}

/// The solution's pieces as listed, sorted by part: part, coloured cells.
fn listed(inst: &Instance, solution: &Solution) -> Vec<(usize, MarkedCells)> {
    let cells = inst.puzzle.target.cells();
    let mut v: Vec<(usize, MarkedCells)> = solution
        .placements
        .iter()
        .filter_map(|&o| inst.table.placements().get(o as usize))
        .map(|p| {
            let col = |i: usize| p.colours.get(i).copied().unwrap_or(0);
            (
                p.piece as usize,
                p.cells
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (cells[c as usize].pos, col(i)))
                    .collect(),
            )
        })
        .collect();
    v.sort_by_key(|p| p.0);
    v
}

/// The target's symmetries as a bit set over the 48 transformations, and each with the shift
/// that puts the turned target back in place.
fn target_symmetries(puzzle: &Puzzle) -> (u64, Vec<(usize, Cell)>) {
    let target: Vec<(Cell, u8)> = puzzle
        .target
        .cells()
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pos, puzzle.target.colour(i as u32) * 2 + c.optional as u8))
        .collect();
    let tkey = normal(target.clone());
    let tcorner = corner(target.iter().map(|c| c.0));
    let mut group = 0u64;
    let mut moves = Vec::new();
    for (t, m) in transformations().iter().enumerate() {
        let image: Vec<(Cell, u8)> = target.iter().map(|&(c, k)| (apply(m, c), k)).collect();
        if normal(image.clone()) == tkey {
            group |= 1 << t;
            let ic = corner(image.iter().map(|c| c.0));
            moves.push((
                t,
                [tcorner[0] - ic[0], tcorner[1] - ic[1], tcorner[2] - ic[2]],
            ));
        }
    }
    (group, moves)
}

/// What decides BurrTools' symmetry breaker for a target with symmetries: the steps of
/// [`Orienter::new`] past the target's symmetries.
struct BreakerRule<'a> {
    parts: &'a [PartShapes],
    counts: &'a [u32],
    /// The target's symmetries.
    group: u64,
    /// Each part's own symmetries.
    sym: Vec<u64>,
    /// [`unified`] of `group`.
    unified_group: u64,
    /// Every piece has count one (assembler 0; else assembler 1).
    single: bool,
    /// Some piece has a range of counts.
    ranges: bool,
    /// The target has mirror symmetries.
    mirror_target: bool,
    /// Mirror images can be weeded out (see [`BreakerRule::mirror_check`]).
    mirror_check: bool,
}

impl<'a> BreakerRule<'a> {
    fn new(puzzle: &Puzzle, parts: &'a [PartShapes], counts: &'a [u32], group: u64) -> Self {
        let single = puzzle
            .pieces
            .iter()
            .all(|p| p.count == 1 && p.min_count == 1);
        let mut rule = BreakerRule {
            parts,
            counts,
            group,
            sym: parts.iter().map(|p| p.symmetries()).collect(),
            unified_group: unified(group),
            single,
            ranges: puzzle.pieces.iter().any(|p| p.is_ranged()),
            mirror_target: group >> 24 != 0,
            mirror_check: false,
        };
        rule.mirror_check = rule.mirror_check();
        rule
    }

    /// How many of part `i`'s symmetries the target's (unified) symmetries share.
    fn shared(&self, i: usize) -> u32 {
        (self.unified_group & self.sym[i]).count_ones()
    }

    /// Every part is its own mirror image or has a partner among the others (pieces for
    /// assembler 1, parts for assembler 0).
    fn mirror_check(&self) -> bool {
        let achiral = |i: usize| self.sym[i] >> 24 != 0;
        let mirror_of =
            |i: usize, j: usize| (24..48).any(|t| self.parts[i].keys[t] == self.parts[j].keys[0]);
        let copies: Vec<usize> = (0..self.parts.len())
            .flat_map(|i| {
                std::iter::repeat_n(
                    i,
                    if self.single {
                        1
                    } else {
                        self.counts[i] as usize
                    },
                )
            })
            .collect();
        let mut partner = vec![false; copies.len()];
        for i in 0..copies.len() {
            if partner[i] || achiral(copies[i]) {
                continue;
            }
            match (i + 1..copies.len()).find(|&j| !partner[j] && mirror_of(copies[i], copies[j])) {
                Some(j) => {
                    partner[i] = true;
                    partner[j] = true;
                }
                None => return false,
            }
        }
        true
    }

    /// Assembler 0's choice (every piece once): the breaker, the pivot, and whether copies
    /// are compared.
    fn assembler0(&self) -> (Option<usize>, Option<usize>, bool) {
        let mut b = 0;
        for i in 1..self.parts.len() {
            if self.shared(i) < self.shared(b) {
                b = i;
            }
        }
        let mut check = self.group & unified(self.sym[b]) & !1 != 0;
        if self.mirror_target && self.mirror_check {
            check = true;
        }
        (Some(b), Some(b), check)
    }

    /// Assembler 1's choice (some piece counted otherwise): the fewest copies first; no
    /// breaker when that part has copies or some piece a range.
    fn assembler1(&self) -> (Option<usize>, Option<usize>, bool) {
        let counts = self.counts;
        let (mut b, mut best, mut first, mut at) = (0, self.shared(0), 0, counts[0] as usize);
        for i in 1..self.parts.len() {
            let c = self.shared(i);
            if counts[i] < counts[b] || (counts[i] == counts[b] && c < best) {
                best = c;
                b = i;
                first = at;
            }
            at += counts[i] as usize;
        }
        let left = self.group & unified(self.sym[b]) & !1 != 0;
        let many = counts[b] > 1;
        let mut check = left || many || self.ranges;
        let mut pivot = Some(first);
        let breaker = (!self.ranges && !many).then_some(b);
        if check && (self.ranges || many) {
            pivot = None;
        }
        if self.mirror_target && (self.mirror_check || self.ranges) {
            check = true;
        }
        (breaker, pivot, check)
    }

    /// Whether the target's mirror symmetries may turn an assembly.
    fn mirrors_allowed(&self) -> bool {
        self.mirror_target
            && if self.single {
                self.mirror_check
            } else {
                self.mirror_check || self.ranges
            }
    }
}

/// A piece's cells, each with its colour.
type MarkedCells = Vec<(Cell, u8)>;

/// One piece under a symmetry: its part, BurrTools placement, index in the listing, cells.
type Turned = (usize, Placement, usize, MarkedCells);

/// The best image of an assembly so far: BurrTools' placement list, the symmetry, the
/// listing's piece order and the pieces' cells.
type Candidate = (Vec<Placement>, usize, Vec<usize>, Vec<MarkedCells>);

/// BurrTools' comparison of two assemblies: the pivot's placement first, then the others in
/// order; true when `a` is smaller.
fn smaller(a: &[Placement], b: &[Placement], pivot: Option<usize>) -> bool {
    if let Some(p) = pivot.filter(|&p| p < a.len())
        && a[p] != b[p]
    {
        return a[p] < b[p];
    }
    for i in 0..a.len() {
        if Some(i) != pivot && a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// The breaker's rotations BurrTools places: the first of each class of rotations that the
/// target's symmetries (proper ones) map onto each other.
fn kept_rotations(part: &PartShapes, group: u64) -> u64 {
    let all = transformations();
    let mut seen: Vec<&Vec<(Cell, u8)>> = Vec::new();
    let mut kept = 0u64;
    for rot in 0..24 {
        if seen.contains(&&part.keys[rot]) {
            continue;
        }
        kept |= 1 << rot;
        seen.push(&part.keys[rot]);
        for r in 1..24 {
            if group >> r & 1 == 1 {
                seen.push(&part.keys[index_of(&mul(&all[r], &all[rot]))]);
            }
        }
    }
    kept
}

/// The direction (0..6) that direction `d` of an assembly turned by transformation `t` is in
/// the assembly as listed.
pub fn direction_back(t: usize, d: u8) -> u8 {
    let m = &transformations()[t];
    let a = (d >> 1) as usize;
    let sign = if d & 1 == 0 { 1 } else { -1 };
    // The listed frame's vector v with m·v = sign·e_a: v = mᵀ (sign·e_a), row a of m.
    let v = [sign * m[a][0], sign * m[a][1], sign * m[a][2]];
    let axis = (0..3).find(|&i| v[i] != 0).unwrap_or(0);
    (2 * axis + usize::from(v[axis] < 0)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        let all = transformations();
        let det = |m: &Matrix| {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        };
        assert_eq!(all[0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
        for (i, m) in all.iter().enumerate() {
            assert_eq!(det(m), if i < 24 { 1 } else { -1 }, "{i}");
            assert_eq!(
                all.iter().filter(|n| *n == m).count(),
                1,
                "{i} appears once"
            );
        }
        // A quarter turn about x, then one about y (BurrTools' numbers 1 and 12).
        assert_eq!(all[1], [[1, 0, 0], [0, 0, -1], [0, 1, 0]]);
        assert_eq!(all[12], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]);
        assert_eq!(all[24], [[-1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    }

    #[test]
    fn directions_map_back() {
        // Turning by x -> -x (24) swaps +x and -x and keeps the others.
        assert_eq!(direction_back(24, 0), 1);
        assert_eq!(direction_back(24, 2), 2);
        for t in 0..48 {
            let mut seen: Vec<u8> = (0..6).map(|d| direction_back(t, d)).collect();
            seen.sort_unstable();
            assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
        }
    }

    #[test]
    fn unified_symmetries_contain_conjugates() {
        // A quarter turn about x is conjugate to quarter turns about y and z.
        let u = unified(1 | 1 << 1);
        assert!(u >> 12 & 1 == 1 || u >> 16 & 1 == 1);
        assert_eq!(unified(1), 1);
    }
}
