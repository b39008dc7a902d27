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
//! Partial mirror sets and ranges: a reflection maps a solution to a solution only when every
//! placed chiral piece has its mirror image in the set and the mirrored piece counts stay
//! within their ranges. Classes are then taken under the rotations, plus the reflections for
//! the solutions whose mirror image is a solution (this relation is symmetric, so the classes
//! are well defined), and step 2 restricts by rotations only. `rotation+reflection` uses this
//! rule when some piece has a range (and refuses a fixed-count set that is not mirror-closed,
//! where no mirror image is ever a solution); `burrtools` uses BurrTools' narrower rule (see
//! [`BurrMirror`]).
//!
//! When no piece has count 1 (sixteen identical bricks, 25 Y pentacubes), step 2 is
//! replaced by a rule at one cell `c` (see [`Reducer::branches`]): with the placements
//! covering `c` ranked, `R` is the set of solutions whose placement at `c` ranks no higher
//! than `g⁻¹·q` for every element `g` and the placement `q` the solution has at `g·c`. Each
//! orbit meets `R` (move the solution by the `g` of least rank), and the search splits into
//! one branch per placement `o` at `c`: `o` forced, and excluded every placement whose
//! pulled-back rank is below `o`'s.
//! Step 3 is unchanged, so the count stays exact; a solution from elsewhere (an external
//! solver's answer to an exported instance) weighs 0 unless it lies in `R`.
//!
//! The count of all placements (`none`) is derived the same way: each counted orbit
//! representative `S` weighs `|G·S| = |G| / |Stab(S)|`, the number of distinct images, using
//! the largest group the piece set allows. When solutions are listed rather than counted,
//! `none` searches without any restriction instead.
//!
//! Several modes from one search (`Reducer::sharing_search_of`): the rotation mode's
//! restricted set `R` meets every orbit of a group that contains the rotations (such an
//! orbit is a union of rotation orbits), so each mode can weigh the solutions of that one
//! search by step 3 with its own group: `none`, `rotation+reflection` and `burrtools` all
//! count from the search `rotation` makes.

use crate::echo::plural;
use crate::error::Result;

use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::symmetry::PlacementSymmetries;
use cubesat_xc::exact::ExactEngine;
use std::cmp::Ordering;

pub use crate::mode::UpTo;
pub use mirror::BurrMirror;

use cell_rule::CellRule;
use mirror::{Eligibility, MirrorRule, mirror_valid};
use pick::choose_restriction;

mod cell_rule;
mod mirror;
mod pick;

/// The version of how a reduced run is split into searches (the restricted piece, since
/// scheme 2 the branches at a cell, since scheme 3 the restricted piece chosen by measuring
/// the candidates' trees); shard records carry it in their run digest, so that shards of
/// runs that searched differently are never added up.
pub const SCHEME: u32 = 3;

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
    /// When reflections apply to a solution.
    eligibility: Eligibility,
    /// Piece of every placement, for per-solution eligibility.
    piece_of: Vec<u32>,
    /// What BurrTools' mirror check decided, for `describe`.
    note: String,
    /// The rule at one cell, when no piece could be restricted.
    rule: Option<CellRule>,
}

/// One search of a reduced run: the options forced and the options excluded. The branches
/// of a [`Reducer`] partition the solutions its search must visit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Branch {
    /// Options every solution of the branch contains.
    pub forced: Vec<u32>,
    /// Options no solution of the branch contains, ascending.
    pub excluded: Vec<u32>,
}

impl Reducer {
    /// Prepares the reduction for `mode`. With `counting`, mode `none` is derived from the
    /// largest available group (faster); without, `none` searches everything. With
    /// `counting`, the restricted piece is chosen by measuring the tops of the candidates'
    /// trees, with an exact engine prepared here when there is a choice
    /// ([`crate::run::LazyEngine::reducer`] uses the run's).
    pub fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        mode: UpTo,
        counting: bool,
    ) -> Result<Reducer> {
        let engine = || ExactEngine::new_shared(std::sync::Arc::new(table.model(puzzle))).ok();
        Reducer::with_engine_from(puzzle, table, mode, counting, false, &engine)
    }

    /// [`Reducer::new`] with the exact engine of the model `table` makes for `puzzle` made by
    /// `engine`, asked only when a count has a restricted piece to choose
    /// ([`crate::run::LazyEngine`] shares it with the run). With `exact_only` (a memoized
    /// count, which never sees a solution to check) only a piece whose restriction alone
    /// keeps one solution per orbit is restricted: the first such candidate, unmeasured.
    pub(crate) fn with_engine_from(
        puzzle: &Puzzle,
        table: &PlacementTable,
        mode: UpTo,
        counting: bool,
        exact_only: bool,
        engine: &dyn Fn() -> Option<ExactEngine>,
    ) -> Result<Reducer> {
        let forms = puzzle.canonical_forms_from(table.orientations(), table.orientation_colours());
        let partners = puzzle.mirror_partners_of(&forms);
        let parts = puzzle.mirror_parts_of(&forms);
        let mut mirror =
            MirrorRule::new(puzzle, &forms, &parts, partners.is_some(), mode, counting)?;
        let use_group = mode != UpTo::None || counting;
        let group = if use_group {
            let g = mirror.group(puzzle, table, partners.as_deref(), &parts)?;
            // A memoized count needs a free restriction, which a reflection acting as a
            // rotation (on a flat target) would deny.
            Some(if exact_only { g.distinct_actions() } else { g })
        } else {
            None
        };
        mirror.settle_note(mode, group.as_ref());
        let MirrorRule {
            eligibility, note, ..
        } = mirror;
        // With a partial action, the restriction may only use rotations.
        let restrict_partners = match eligibility {
            Eligibility::All => partners,
            _ => None,
        };
        let piece_of = match eligibility {
            Eligibility::All => Vec::new(),
            _ => table.placements().iter().map(|p| p.piece).collect(),
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
            eligibility,
            piece_of,
            note,
            rule: None,
        };
        reducer.restrict_piece(
            puzzle,
            table,
            restrict_partners.as_deref(),
            exact_only,
            engine,
        );
        reducer.rule_at_cell(puzzle, table);
        Ok(reducer)
    }

    /// Step 2 of the module documentation: one piece held to one placement per orbit, when
    /// the group is not trivial and a piece can be restricted (`partners`: the mirror
    /// partners the restriction may use).
    fn restrict_piece(
        &mut self,
        puzzle: &Puzzle,
        table: &PlacementTable,
        partners: Option<&[usize]>,
        exact_only: bool,
        engine: &dyn Fn() -> Option<ExactEngine>,
    ) {
        let Some(g) = &self.group else {
            return;
        };
        if g.len() <= 1 {
            return;
        }
        let Some((piece, reps, free)) = choose_restriction(
            puzzle,
            table,
            g,
            partners,
            self.counting,
            exact_only,
            engine,
        ) else {
            return;
        };
        // Exact on its own when the subgroup keeping the piece acts freely on its
        // placements and is the whole group (no reflection left to a canonical check).
        let whole =
            (0..g.len()).all(|e| !g.reflection[e] || partners.is_some_and(|pp| pp[piece] == piece));
        self.exact_restriction = free && whole;
        for &p in &table.by_piece()[piece] {
            if !reps.contains(&p) {
                self.allowed[p as usize] = false;
                self.excluded.push(p);
            }
        }
        self.restricted_piece = Some(piece);
    }

    /// The rule at one cell ([`Reducer::branches`]), when the group is not trivial and no
    /// piece was restricted.
    fn rule_at_cell(&mut self, puzzle: &Puzzle, table: &PlacementTable) {
        let Some(g) = &self.group else {
            return;
        };
        if self.restricted_piece.is_some() || g.len() <= 1 {
            return;
        }
        // A reflection acts on every solution only with a mirror-closed set; the
        // elements that leave some placement unmapped act on some solutions only.
        let all = matches!(self.eligibility, Eligibility::All);
        let elements: Vec<usize> = (0..g.len())
            .filter(|&e| {
                (all || !g.reflection[e]) && !g.images[e].contains(&crate::symmetry::UNMAPPED)
            })
            .collect();
        if elements.len() > 1 {
            self.rule = CellRule::new(puzzle, table, g, &elements);
            if self.rule.is_some() {
                self.exact_restriction = false;
            }
        }
    }

    /// True when the group's reflections act on this solution.
    fn reflects(&self, solution: &[u32]) -> bool {
        let cnt = |n: usize| {
            let mut c = vec![0u32; n];
            for &o in solution {
                c[self.piece_of[o as usize] as usize] += 1;
            }
            c
        };
        match &self.eligibility {
            Eligibility::All => true,
            Eligibility::MirrorValid { parts, min, max } => {
                mirror_valid(&cnt(parts.len()), parts, min, max)
            }
            Eligibility::BurrTools {
                parts,
                min,
                max,
                chiral,
                registered,
            } => {
                let c = cnt(parts.len());
                (0..c.len()).all(|p| !chiral[p] || c[p] <= registered[p])
                    && mirror_valid(&c, parts, min, max)
            }
        }
    }

    /// This mode's weights for the solutions of `search`'s branches, so that one search
    /// counts several modes: `search`'s restriction (its restricted piece's representatives)
    /// replaces this reduction's own. Exact when every element of `search`'s group is a
    /// rotation of this one's: each orbit of this group is then a union of orbits of
    /// `search`'s, so it meets the restricted set `R`, and [`Reducer::weight`] keeps the
    /// least of its images in `R`. Refused (`None`) when `search` breaks symmetry at a cell,
    /// whose branches weigh by a rule of their own, or when its group is not such a subgroup.
    pub(crate) fn sharing_search_of(mut self, search: &Reducer) -> Option<Reducer> {
        if search.rule.is_some() {
            return None;
        }
        if let Some(sg) = &search.group {
            let g = self.group.as_ref()?;
            let rotation =
                |img: &Vec<u32>| (g.images.iter().zip(&g.reflection)).any(|(i, &r)| !r && i == img);
            if !sg.images.iter().all(rotation) {
                return None;
            }
        }
        self.allowed.clone_from(&search.allowed);
        self.excluded.clone_from(&search.excluded);
        self.restricted_piece = search.restricted_piece;
        self.exact_restriction = false;
        self.rule = None;
        Some(self)
    }

    /// The counting mode.
    pub fn mode(&self) -> UpTo {
        self.mode
    }

    /// Placements every search must exclude (the restricted piece's non-representatives).
    /// An instance restricted by these alone may hold more solutions than the searches of
    /// [`Reducer::branches`]; [`Reducer::weight`] counts each class once either way.
    pub fn excluded(&self) -> &[u32] {
        &self.excluded
    }

    /// The searches whose solutions, weighed, give the count: one, with
    /// [`Reducer::excluded`], unless symmetry is broken at a cell, then one per placement
    /// there ([`Reducer::branch_count`] of them), each built when the iterator reaches it.
    pub fn branches(&self) -> impl Iterator<Item = Branch> + '_ {
        let single = self.rule.is_none().then(|| Branch {
            forced: Vec::new(),
            excluded: self.excluded.clone(),
        });
        let rule = self.rule.iter().flat_map(|r| r.branches(&self.excluded));
        single.into_iter().chain(rule)
    }

    /// How many branches [`Reducer::branches`] yields.
    pub fn branch_count(&self) -> usize {
        self.rule.as_ref().map_or(1, |r| r.branch_count())
    }

    /// True when symmetry is broken at a cell ([`Reducer::branches`]) rather than by a
    /// restricted piece.
    pub(crate) fn breaks_at_cell(&self) -> bool {
        self.rule.is_some()
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

    /// How much a solution counts: 0 when it is not its orbit's representative (the least
    /// of its images in `R`, the set the branches search); otherwise 1, or its orbit size
    /// when deriving `none`.
    pub fn weight(&self, solution: &[u32]) -> u64 {
        let Some(group) = &self.group else {
            return 1;
        };
        let in_r = |s: &[u32]| {
            s.iter().all(|&p| self.allowed[p as usize])
                && self.rule.as_ref().is_none_or(|r| r.holds(s))
        };
        // A solution from a wider search (an external solver's, or a listing of everything)
        // stands for its class only from within `R`.
        if !in_r(solution) {
            return 0;
        }
        let reflects = group.reflection.iter().any(|&r| r) && self.reflects(solution);
        let mut images: Vec<Vec<u32>> = Vec::new();
        // One image at a time in a buffer on the stack for solutions of up to 64 placements:
        // a count weighs every solution it finds, often hundreds of thousands.
        let mut stack = [0u32; 64];
        let mut heap = Vec::new();
        let s: &mut [u32] = match stack.get_mut(..solution.len()) {
            Some(s) => s,
            None => {
                heap.resize(solution.len(), 0);
                &mut heap
            }
        };
        if let Some(w) =
            (self.rule.as_ref()).and_then(|r| r.weight(group, solution, s, self.weights))
        {
            return w;
        }
        for (e, img) in group.images.iter().enumerate().skip(1) {
            if group.reflection[e] && !reflects {
                continue;
            }
            let mut least = u32::MAX;
            for (d, &p) in s.iter_mut().zip(solution) {
                *d = img[p as usize];
                least = least.min(*d);
            }
            if s.contains(&crate::symmetry::UNMAPPED) {
                continue;
            }
            // Both are sorted before they are compared, so their least placements decide
            // unless equal, and only a tie needs the image sorted (or orbit sizes wanted).
            let order = solution.first().map_or(Ordering::Equal, |f| least.cmp(f));
            if !self.weights && order != Ordering::Equal {
                if order == Ordering::Less && in_r(s) {
                    return 0;
                }
                continue;
            }
            s.sort_unstable();
            if &*s < solution && in_r(s) {
                return 0;
            }
            if self.weights {
                images.push(s.to_vec());
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
                    "every placement, derived from {} (orbit sizes)",
                    plural(self.group_size() as u64, "symmetry")
                )
            }
            (UpTo::None, _) => "every placement".to_string(),
            (UpTo::BurrTools, _) => {
                let g = self.group.as_ref();
                let rot = g.map_or(1, |g| g.rotations());
                let refl = self.group_size() - rot;
                let mut s = format!("up to the result's {}", plural(rot as u64, "rotation"));
                if refl > 0 {
                    s.push_str(&format!(
                        " and its {} where BurrTools recognises the mirrored assembly",
                        plural(refl as u64, "reflection")
                    ));
                }
                if !self.note.is_empty() {
                    s.push_str(&format!(" ({})", self.note));
                }
                s
            }
            (m, _) => format!(
                "{} ({})",
                m.phrase(),
                plural(self.group_size() as u64, "symmetry")
            ),
        };
        if let Some(p) = self.restricted_piece {
            s.push_str(&format!(
                "; piece '{}' held to one placement per orbit ({} excluded)",
                puzzle.pieces[p].name,
                self.excluded.len()
            ));
        }
        if let Some(r) = &self.rule {
            // Where people type a grid's cells in a frame of their own (balls, in layers), the
            // cell is given there.
            let [x, y, z] = match puzzle.grid.frame() {
                crate::geometry::Frame::Lattice => puzzle.target.cells()[r.cell as usize].pos,
                crate::geometry::Frame::Layers => puzzle.target.user_local(r.cell).1,
            };
            s.push_str(&format!(
                "; symmetry broken at cell ({x}, {y}, {z}): {}, one per placement there",
                plural(r.branch_count() as u64, "branch")
            ));
        }
        s
    }
}

/// A group of one element (or none at all) needs no reduction: every solution is its own class.
fn reducer_group_is_trivial(group: &Option<PlacementSymmetries>) -> bool {
    group.as_ref().is_none_or(|g| g.len() <= 1)
}
