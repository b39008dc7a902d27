//! Exact counting modes: every placement, up to rotation, or up to rotation and reflection, with symmetry broken exactly.
//!
//! How a reduced count is made exact:
//! 1. `G` is the group of target symmetries that keep the hints in place (rotations, plus
//!    reflections for `rotation+reflection`), acting on placements (`symmetry::PlacementSymmetries`).
//! 2. One piece `P` of count 1 (not a hint) is restricted to one placement per orbit of the
//!    subgroup `H` of `G` that maps `P` to itself. Every solution orbit still meets the
//!    restricted set `R`, because some element of `H` moves `P` onto its representative.
//! 3. A solution `S` found in `R` is counted only when it is the smallest (as a sorted list of
//!    placement indices) of the images `g·S` that lie in `R`. So exactly one solution of each
//!    orbit is counted, whatever the stabilisers. When every placement of `P` has a trivial
//!    stabiliser in `H`, the check never rejects anything for rotations alone, and the search
//!    is `|H|` times smaller.
//!
//! The count of all placements (`none`) is derived the same way: each counted orbit
//! representative `S` weighs `|G·S| = |G| / |Stab(S)|`, the number of distinct images, using
//! the largest group the piece set allows. When solutions are listed rather than counted,
//! `none` searches without any restriction instead.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Request, Result, bail};

use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::symmetry::PlacementSymmetries;

/// What a count identifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum UpTo {
    /// Every solution, every placement distinct.
    None,
    /// Solutions identified under the rotations of the target (default: physical pieces
    /// cannot be mirrored).
    #[default]
    Rotation,
    /// Also identified under reflections (only defined when the piece set is closed under
    /// mirror images).
    RotationReflection,
}

impl UpTo {
    /// The phrase used after a count: "solutions up to rotation".
    pub fn phrase(&self) -> &'static str {
        match self {
            UpTo::None => "counting every placement",
            UpTo::Rotation => "up to rotation",
            UpTo::RotationReflection => "up to rotation and reflection",
        }
    }
}

impl fmt::Display for UpTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UpTo::None => "none",
            UpTo::Rotation => "rotation",
            UpTo::RotationReflection => "rotation+reflection",
        })
    }
}

impl FromStr for UpTo {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<UpTo> {
        Ok(match s {
            "none" | "all" => UpTo::None,
            "rotation" => UpTo::Rotation,
            "rotation+reflection" | "reflection" => UpTo::RotationReflection,
            _ => bail!(
                "unknown counting mode '{s}' (expected none, rotation or rotation+reflection)"
            ),
        })
    }
}

/// Symmetry reduction for one counting mode: which placements to exclude from the search and
/// how much each solution found weighs.
#[derive(Clone, Debug)]
pub struct Reducer {
    mode: UpTo,
    counting: bool,
    group: Option<PlacementSymmetries>,
    /// `allowed[p]` is false for the restricted piece's non-representative placements.
    allowed: Vec<bool>,
    excluded: Vec<u32>,
    restricted_piece: Option<usize>,
    /// True when the restriction alone keeps exactly one solution per orbit (the subgroup
    /// acts freely on the restricted piece's placements), so no canonical check is needed.
    exact_restriction: bool,
    weights: bool,
}

impl Reducer {
    /// Prepares the reduction for `mode`. With `counting`, mode `none` is derived from the
    /// largest available group (faster); without, `none` searches everything.
    pub fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        mode: UpTo,
        counting: bool,
    ) -> Result<Reducer> {
        let partners = puzzle.mirror_partners();
        let reflections = match mode {
            UpTo::None => counting && partners.is_some(),
            UpTo::Rotation => false,
            UpTo::RotationReflection => {
                if partners.is_none() {
                    return Err(Error::unsupported(
                        Request::UpTo,
                        format!(
                            "counting up to rotation and reflection needs the mirror image of every chiral piece in the set, which '{}' lacks (count up to rotation instead)",
                            puzzle.name
                        ),
                    ));
                }
                true
            }
        };
        let use_group = mode != UpTo::None || counting;
        let group = if use_group {
            Some(PlacementSymmetries::new(
                puzzle,
                table,
                reflections,
                partners.as_deref(),
            )?)
        } else {
            None
        };
        let exact_restriction = reducer_group_is_trivial(&group);
        let mut reducer = Reducer {
            mode,
            counting,
            group,
            allowed: vec![true; table.len()],
            excluded: Vec::new(),
            restricted_piece: None,
            exact_restriction,
            weights: mode == UpTo::None,
        };
        if let Some(g) = &reducer.group
            && g.len() > 1
            && let Some((piece, reps, free)) =
                choose_restriction(puzzle, table, g, partners.as_deref())
        {
            // Exact on its own when the subgroup keeping the piece acts freely on its
            // placements and is the whole group (no reflection left to a canonical check).
            let whole = (0..g.len()).all(|e| {
                !g.reflection[e] || partners.as_deref().is_some_and(|pp| pp[piece] == piece)
            });
            reducer.exact_restriction = free && whole;
            for &p in &table.by_piece()[piece] {
                if !reps.contains(&p) {
                    reducer.allowed[p as usize] = false;
                    reducer.excluded.push(p);
                }
            }
            reducer.restricted_piece = Some(piece);
        }
        Ok(reducer)
    }

    /// The counting mode.
    pub fn mode(&self) -> UpTo {
        self.mode
    }

    /// Placements the search must exclude (the restricted piece's non-representatives).
    pub fn excluded(&self) -> &[u32] {
        &self.excluded
    }

    /// True when the instance restricted by [`Reducer::excluded`] has exactly one solution per
    /// class, so an external solver's plain count is the reduced count.
    pub fn restriction_is_exact(&self) -> bool {
        self.exact_restriction
    }

    /// Number of symmetries used (1 when none).
    pub(crate) fn group_size(&self) -> usize {
        self.group.as_ref().map_or(1, |g| g.len())
    }

    /// How much a solution found by the restricted search counts: 0 when it is not its
    /// orbit's representative; otherwise 1, or its orbit size when deriving `none`.
    pub fn weight(&self, solution: &[u32]) -> u64 {
        let Some(group) = &self.group else {
            return 1;
        };
        let in_r = |s: &[u32]| s.iter().all(|&p| self.allowed[p as usize]);
        let mut images: Vec<Vec<u32>> = Vec::new();
        for img in group.images.iter().skip(1) {
            let mut s: Vec<u32> = solution.iter().map(|&p| img[p as usize]).collect();
            s.sort_unstable();
            if s.as_slice() < solution && in_r(&s) {
                return 0;
            }
            if self.weights {
                images.push(s);
            }
        }
        if !self.weights {
            return 1;
        }
        images.push(solution.to_vec());
        images.sort_unstable();
        images.dedup();
        images.len() as u64
    }

    /// A description of what is counted, for statistics: the mode, the group and the
    /// restriction.
    pub fn describe(&self, puzzle: &Puzzle) -> String {
        let mut s = match (self.mode, self.counting) {
            (UpTo::None, true) if self.group_size() > 1 => {
                format!(
                    "every placement, derived from {} symmetries (orbit sizes)",
                    self.group_size()
                )
            }
            (UpTo::None, _) => "every placement".to_string(),
            (m, _) => format!("{} ({} symmetries)", m.phrase(), self.group_size()),
        };
        if let Some(p) = self.restricted_piece {
            s.push_str(&format!(
                "; piece '{}' held to one placement per orbit ({} excluded)",
                puzzle.pieces[p].name,
                self.excluded.len()
            ));
        }
        s
    }
}

/// Picks the piece whose restriction shrinks the search most: for each candidate (count 1,
/// not hinted), the subgroup keeping it, the orbits of its placements, and the fraction of
/// placements kept. Returns the piece, its representatives (smallest index per orbit) and
/// whether the subgroup acts freely on its placements.
fn choose_restriction(
    puzzle: &Puzzle,
    table: &PlacementTable,
    group: &PlacementSymmetries,
    partners: Option<&[usize]>,
) -> Option<(usize, Vec<u32>, bool)> {
    let hinted: Vec<u32> = table
        .hints()
        .iter()
        .map(|&h| table.placements()[h as usize].piece)
        .collect();
    let mut best: Option<(f64, usize, usize, Vec<u32>)> = None;
    for (pi, piece) in puzzle.pieces.iter().enumerate() {
        if piece.count != 1 || hinted.contains(&(pi as u32)) {
            continue;
        }
        let keeps = |g: usize| !group.reflection[g] || partners.is_some_and(|pp| pp[pi] == pi);
        let elements: Vec<usize> = (0..group.len()).filter(|&g| keeps(g)).collect();
        if elements.len() < 2 {
            continue;
        }
        let placements = &table.by_piece()[pi];
        if placements.is_empty() {
            continue;
        }
        let mut reps = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut fixed_points = 0usize;
        for &p in placements {
            let orbit: Vec<u32> = elements
                .iter()
                .map(|&g| group.images[g][p as usize])
                .collect();
            if orbit.iter().skip(1).any(|&q| q == p) {
                fixed_points += 1;
            }
            if seen.insert(p) {
                reps.push(p);
                seen.extend(orbit);
            }
        }
        let fraction = reps.len() as f64 / placements.len() as f64;
        let better = match &best {
            None => true,
            Some((f, fp, _, _)) => {
                fraction < *f - 1e-12 || ((fraction - f).abs() < 1e-12 && fixed_points < *fp)
            }
        };
        if better {
            best = Some((fraction, fixed_points, pi, reps));
        }
    }
    best.map(|(_, fixed, pi, reps)| (pi, reps, fixed == 0))
}

/// A group of one element (or none at all) needs no reduction: every solution is its own class.
fn reducer_group_is_trivial(group: &Option<PlacementSymmetries>) -> bool {
    group.as_ref().is_none_or(|g| g.len() <= 1)
}
