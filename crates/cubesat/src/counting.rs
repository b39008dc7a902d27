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

use crate::echo::{echo, list, plural};
use crate::error::{Error, Request, Result};

use crate::placements::PlacementTable;
use crate::puzzle::{CanonicalForms, Puzzle};
use crate::symmetry::PlacementSymmetries;
use cubesat_xc::exact::{ExactEngine, TreeTop};
use std::cmp::Ordering;

pub use crate::mode::UpTo;

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

/// Symmetry broken at one target cell `c` (see the module documentation): `R` holds the
/// solutions whose placement at `c` has a rank no higher than `least` of any of their
/// placements.
#[derive(Clone, Debug)]
struct CellRule {
    /// The target cell `c`.
    cell: u32,
    /// The placements covering `c`, in rank order (ascending placement index).
    roots: Vec<u32>,
    /// The rank of every placement covering `c`; `u32::MAX` for the others.
    rank: Vec<u32>,
    /// For every placement `q`, the least rank of `g⁻¹·q` over the elements `g` that map `c`
    /// into `q`'s cells; `u32::MAX` when `q` covers no cell of `c`'s orbit.
    least: Vec<u32>,
    /// For every placement `q` (from `hits_off[q]` to `hits_off[q + 1]`), each element `g`
    /// that maps `c` into `q`'s cells with the rank of `g⁻¹·q`.
    hits_off: Vec<u32>,
    hits: Vec<(u32, u32)>,
    /// The inverse of every element, when the rule uses the whole group: then the images of
    /// a solution `S` of `R` that lie in `R` are the `g⁻¹·S` of the elements `g` whose
    /// pulled-back rank ties with `S`'s own, so weighing `S` maps those alone.
    inverse: Option<Vec<usize>>,
}

impl CellRule {
    /// The rule for the elements `elements` of `group` (a subgroup, the identity included)
    /// at a must-fill cell that no hint covers: the one with the fewest placements (the
    /// fewest branches), then the largest orbit. Every element compares once whichever the
    /// cell (elements that fix it restrict its own placement), so the cell changes the
    /// pruning little: on the 25 Y pentacubes a corner (12 placements, 4 branches) and an
    /// edge cell (16) left 5,323 and 5,226 solutions for 2,528 classes, in the same time.
    /// `None` when no cell qualifies.
    fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        group: &PlacementSymmetries,
        elements: &[usize],
    ) -> Option<CellRule> {
        let cells = puzzle.target.cells();
        let mut hinted = vec![false; cells.len()];
        for &h in table.hints() {
            for &c in &table.placements()[h as usize].cells {
                hinted[c as usize] = true;
            }
        }
        let mut orbit = Vec::with_capacity(elements.len());
        let mut best: Option<(usize, usize, u32)> = None;
        for (c, cell) in cells.iter().enumerate() {
            let covering = table.by_cell()[c].len();
            if cell.optional || hinted[c] || covering == 0 {
                continue;
            }
            orbit.clear();
            orbit.extend(elements.iter().map(|&e| group.cells[e][c]));
            orbit.sort_unstable();
            orbit.dedup();
            let key = (usize::MAX - covering, orbit.len());
            if best.is_none_or(|(k, o, _)| key > (k, o)) {
                best = Some((key.0, key.1, c as u32));
            }
        }
        let (_, _, cell) = best?;
        let roots = table.by_cell()[cell as usize].clone();
        let mut rank = vec![u32::MAX; table.len()];
        for (r, &o) in roots.iter().enumerate() {
            rank[o as usize] = r as u32;
        }
        // `g` maps the root `o` onto the placement `q` it has at `g·c`, so `g⁻¹·q = o`.
        let mut least = vec![u32::MAX; table.len()];
        let mut by_q: Vec<Vec<(u32, u32)>> = vec![Vec::new(); table.len()];
        for &e in elements {
            for (r, &o) in roots.iter().enumerate() {
                let q = group.images[e][o as usize] as usize;
                least[q] = least[q].min(r as u32);
                by_q[q].push((e as u32, r as u32));
            }
        }
        let mut hits_off = Vec::with_capacity(table.len() + 1);
        hits_off.push(0);
        let mut hits = Vec::new();
        for h in by_q {
            hits.extend(h);
            hits_off.push(hits.len() as u32);
        }
        let inverse = (elements.len() == group.len())
            .then(|| {
                let index: std::collections::HashMap<&[u32], usize> = (group.images.iter())
                    .enumerate()
                    .map(|(e, img)| (img.as_slice(), e))
                    .collect();
                let mut inv = vec![0u32; table.len()];
                group
                    .images
                    .iter()
                    .map(|img| {
                        for (q, &p) in img.iter().enumerate() {
                            inv[p as usize] = q as u32;
                        }
                        index.get(inv.as_slice()).copied()
                    })
                    .collect::<Option<Vec<usize>>>()
            })
            .flatten();
        Some(CellRule {
            cell,
            roots,
            rank,
            least,
            hits_off,
            hits,
            inverse,
        })
    }

    /// The weight of a solution of `R` when the rule uses the whole group (`None`
    /// otherwise): 0 unless it is the least of its images in `R`, else 1, or its orbit size
    /// `|G| / |Stab(S)|` with `orbit_sizes` (an element fixing `S` is the inverse of one
    /// that ties).
    fn weight(
        &self,
        group: &PlacementSymmetries,
        solution: &[u32],
        image: &mut [u32],
        orbit_sizes: bool,
    ) -> Option<u64> {
        let inverse = self.inverse.as_ref()?;
        let root = solution
            .iter()
            .map(|&q| self.rank[q as usize])
            .min()
            .unwrap_or(u32::MAX);
        let mut fixing = 1u64;
        for &q in solution {
            let (from, to) = (self.hits_off[q as usize], self.hits_off[q as usize + 1]);
            for &(e, r) in &self.hits[from as usize..to as usize] {
                if r != root || e == 0 {
                    continue;
                }
                let img = &group.images[inverse[e as usize]];
                for (d, &p) in image.iter_mut().zip(solution) {
                    *d = img[p as usize];
                }
                image.sort_unstable();
                match (*image).cmp(solution) {
                    Ordering::Less => return Some(0),
                    Ordering::Equal => fixing += 1,
                    Ordering::Greater => {}
                }
            }
        }
        Some(if orbit_sizes {
            group.len() as u64 / fixing
        } else {
            1
        })
    }

    /// True when the solution lies in `R`.
    fn holds(&self, solution: &[u32]) -> bool {
        let mut root = u32::MAX;
        let mut least = u32::MAX;
        for &q in solution {
            root = root.min(self.rank[q as usize]);
            least = least.min(self.least[q as usize]);
        }
        root != u32::MAX && least >= root
    }

    /// How many placements at `c` do not rule themselves out.
    fn branch_count(&self) -> usize {
        (self.roots.iter().enumerate())
            .filter(|&(r, &o)| self.least[o as usize] >= r as u32)
            .count()
    }

    /// The branches, one per placement at `c` that does not rule itself out, each built when
    /// asked for: a branch's exclusions list up to every placement.
    fn branches<'a>(&'a self, excluded: &'a [u32]) -> impl Iterator<Item = Branch> + 'a {
        (self.roots.iter().enumerate())
            .filter(|&(r, &o)| self.least[o as usize] >= r as u32)
            .map(move |(r, &o)| {
                let r = r as u32;
                let mut ex: Vec<u32> = excluded.to_vec();
                ex.extend((0..self.least.len() as u32).filter(|&q| self.least[q as usize] < r));
                ex.sort_unstable();
                ex.dedup();
                Branch {
                    forced: vec![o],
                    excluded: ex,
                }
            })
    }
}

/// Which solutions the group's reflections act on.
#[derive(Clone, Debug)]
enum Eligibility {
    /// Every solution (a mirror-closed set with matching counts).
    All,
    /// Solutions whose mirrored piece counts stay within the ranges (`parts[p]` is the piece
    /// a mirrored copy of `p` becomes).
    MirrorValid {
        parts: Vec<Option<usize>>,
        min: Vec<u32>,
        max: Vec<u32>,
    },
    /// Like `MirrorValid`, and every used copy of a chiral piece was paired by BurrTools'
    /// pairing pass (`registered[p]` = the number of paired copies of piece `p`, a prefix).
    BurrTools {
        parts: Vec<Option<usize>>,
        min: Vec<u32>,
        max: Vec<u32>,
        chiral: Vec<bool>,
        registered: Vec<u32>,
    },
}

/// BurrTools' mirror check, as its assemblers prepare it (read from BurrTools 0.7.1 and
/// confirmed on the reference files, see `../shared/reference/burrtools/README.md`):
/// a pass walks the piece copies in part order and pairs each chiral copy with the first later
/// free copy of its mirror shape, stopping at the first chiral copy that finds none. The
/// mirror check is on when the result has a mirror symmetry and either the pass paired every
/// chiral copy, or some part has a range (BurrTools' second assembler then uses the pairs
/// made before the stop). A mirrored assembly is then recognised when every copy it uses of
/// a chiral piece was paired and the mirrored counts stay within the ranges.
#[derive(Clone, Debug)]
pub struct BurrMirror {
    /// Whether the mirror check runs (before looking at the result's symmetry).
    pub on: bool,
    /// True when the pass paired every chiral copy.
    pub all_paired: bool,
    /// Paired copies per piece.
    pub registered: Vec<u32>,
    /// Chirality per piece (colours included).
    pub chiral: Vec<bool>,
    /// The first chiral piece the pass could not pair, if any.
    pub unpaired: Option<usize>,
    /// The pairs the pass made, in the order first made: (piece, its mirror piece, copies).
    pub pairs: Vec<(usize, usize, u32)>,
}

impl BurrMirror {
    /// Runs the pairing pass over the puzzle's pieces, whose [`Puzzle::canonical_forms`] are
    /// `forms`.
    pub fn new(puzzle: &Puzzle, forms: &CanonicalForms) -> BurrMirror {
        let (canon, mirrored) = (&forms.canon, &forms.mirrored);
        let chiral: Vec<bool> = (0..canon.len()).map(|i| canon[i] != mirrored[i]).collect();
        let copies: Vec<usize> = puzzle
            .pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| std::iter::repeat_n(i, p.count as usize))
            .collect();
        let mut paired = vec![false; copies.len()];
        let mut registered = vec![0u32; canon.len()];
        let mut unpaired = None;
        let mut pairs: Vec<(usize, usize, u32)> = Vec::new();
        for a in 0..copies.len() {
            let pa = copies[a];
            if paired[a] || !chiral[pa] {
                continue;
            }
            let b = (a + 1..copies.len()).find(|&b| !paired[b] && canon[copies[b]] == mirrored[pa]);
            match b {
                Some(b) => {
                    paired[a] = true;
                    paired[b] = true;
                    registered[pa] += 1;
                    registered[copies[b]] += 1;
                    match pairs.iter_mut().find(|p| (p.0, p.1) == (pa, copies[b])) {
                        Some(p) => p.2 += 1,
                        None => pairs.push((pa, copies[b], 1)),
                    }
                }
                None => {
                    unpaired = Some(pa);
                    break;
                }
            }
        }
        let all_paired = unpaired.is_none();
        BurrMirror {
            on: all_paired || puzzle.has_ranges(),
            all_paired,
            registered,
            chiral,
            unpaired,
            pairs,
        }
    }

    /// Why an assembly is or is not identified with its mirror image under this pairing, for
    /// the count line: which copies were paired (the part order decides it, so two problems
    /// with the same parts in another order can count differently) and where the pass stopped.
    /// Empty when the set has no chiral piece (only the ranges then decide).
    pub fn describe_pairing(&self, puzzle: &Puzzle) -> String {
        if !self.chiral.iter().any(|&c| c) {
            return String::new();
        }
        let name = |p: usize| echo(&puzzle.pieces[p].name).to_string();
        let paired = if self.pairs.is_empty() {
            "no copy".to_string()
        } else {
            list(
                self.pairs
                    .iter()
                    .map(|&(a, b, n)| format!("{n} '{}' with {n} '{}'", name(a), name(b))),
                ", ",
            )
        };
        let stop = self.unpaired.map_or(String::new(), |p| {
            format!(
                ", then stops at '{}', which has no mirror partner left",
                name(p)
            )
        });
        format!(
            "BurrTools pairs chiral copies in part order: {paired}{stop}; an assembly is the same as its mirror image only if it uses no unpaired chiral copy"
        )
    }
}

/// True when the mirrored counts (`cnt[p]` copies of `p` become copies of `parts[p]`) are
/// within the ranges.
fn mirror_valid(cnt: &[u32], parts: &[Option<usize>], min: &[u32], max: &[u32]) -> bool {
    let mut new = vec![0u32; cnt.len()];
    for (p, &c) in cnt.iter().enumerate() {
        if c > 0 {
            match parts[p] {
                Some(q) => new[q] += c,
                None => return false,
            }
        }
    }
    (0..cnt.len()).all(|i| min[i] <= new[i] && new[i] <= max[i])
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
        Reducer::with_engine_from(puzzle, table, mode, counting, &engine)
    }

    /// [`Reducer::new`] with the exact engine of the model `table` makes for `puzzle` made by
    /// `engine`, asked only when a count has a restricted piece to choose
    /// ([`crate::run::LazyEngine`] shares it with the run).
    pub(crate) fn with_engine_from(
        puzzle: &Puzzle,
        table: &PlacementTable,
        mode: UpTo,
        counting: bool,
        engine: &dyn Fn() -> Option<ExactEngine>,
    ) -> Result<Reducer> {
        let forms = puzzle.canonical_forms_from(table.orientations(), table.orientation_colours());
        let partners = puzzle.mirror_partners_of(&forms);
        let parts = puzzle.mirror_parts_of(&forms);
        let min: Vec<u32> = puzzle.pieces.iter().map(|p| p.min_count).collect();
        let max: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
        let mut note = String::new();
        // Why BurrTools identifies only some assemblies with their mirror images (said only
        // when the result has a mirror symmetry).
        let mut pairing = String::new();
        let (reflections, eligibility) = match mode {
            UpTo::None => (counting && partners.is_some(), Eligibility::All),
            UpTo::Rotation => (false, Eligibility::All),
            UpTo::RotationReflection => {
                if partners.is_some() {
                    (true, Eligibility::All)
                } else if puzzle.has_ranges() {
                    (
                        true,
                        Eligibility::MirrorValid {
                            parts: parts.clone(),
                            min: min.clone(),
                            max: max.clone(),
                        },
                    )
                } else {
                    return Err(Error::unsupported(
                        Request::UpTo,
                        format!(
                            "counting up to rotation and reflection needs the mirror image of every chiral piece in the set, which '{}' lacks (count up to rotation instead)",
                            crate::echo::echo(&puzzle.name)
                        ),
                    ));
                }
            }
            UpTo::BurrTools => {
                let bt = BurrMirror::new(puzzle, &forms);
                if !bt.on {
                    let who = bt.unpaired.map_or(String::new(), |p| {
                        format!(" ('{}' has no mirror partner left)", puzzle.pieces[p].name)
                    });
                    note = format!("BurrTools' mirror check is off{who}");
                }
                let all =
                    bt.all_paired && !puzzle.has_ranges() && mirror_valid(&max, &parts, &min, &max);
                let e = if all {
                    Eligibility::All
                } else {
                    pairing = bt.describe_pairing(puzzle);
                    Eligibility::BurrTools {
                        parts: parts.clone(),
                        min: min.clone(),
                        max: max.clone(),
                        chiral: bt.chiral,
                        registered: bt.registered,
                    }
                };
                (bt.on, e)
            }
        };
        let use_group = mode != UpTo::None || counting;
        let group = if use_group {
            Some(if matches!(eligibility, Eligibility::All) {
                PlacementSymmetries::new(puzzle, table, reflections, partners.as_deref())?
            } else {
                PlacementSymmetries::new_partial(puzzle, table, reflections, &parts)?
            })
        } else {
            None
        };
        if mode == UpTo::BurrTools && note.is_empty() {
            let mirrors = group
                .as_ref()
                .is_some_and(|g| g.reflection.iter().any(|&r| r));
            if !mirrors {
                note = "the result has no mirror symmetry".to_string();
            } else {
                note = pairing;
            }
        }
        // With a partial action, the restriction may only use rotations.
        let restrict_partners = match eligibility {
            Eligibility::All => partners.clone(),
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
        if let Some(g) = &reducer.group
            && g.len() > 1
            && let Some((piece, reps, free)) = choose_restriction(
                puzzle,
                table,
                g,
                restrict_partners.as_deref(),
                counting,
                engine,
            )
        {
            // Exact on its own when the subgroup keeping the piece acts freely on its
            // placements and is the whole group (no reflection left to a canonical check).
            let whole = (0..g.len()).all(|e| {
                !g.reflection[e]
                    || restrict_partners
                        .as_deref()
                        .is_some_and(|pp| pp[piece] == piece)
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
        if let Some(g) = &reducer.group
            && reducer.restricted_piece.is_none()
            && g.len() > 1
        {
            // A reflection acts on every solution only with a mirror-closed set; the
            // elements that leave some placement unmapped act on some solutions only.
            let all = matches!(reducer.eligibility, Eligibility::All);
            let elements: Vec<usize> = (0..g.len())
                .filter(|&e| {
                    (all || !g.reflection[e]) && !g.images[e].contains(&crate::symmetry::UNMAPPED)
                })
                .collect();
            if elements.len() > 1 {
                reducer.rule = CellRule::new(puzzle, table, g, &elements);
                if reducer.rule.is_some() {
                    reducer.exact_restriction = false;
                }
            }
        }
        Ok(reducer)
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
            // Ball positions are given in the layer frame people write them in.
            let [x, y, z] = match puzzle.grid {
                crate::geometry::Grid::Cube => puzzle.target.cells()[r.cell as usize].pos,
                crate::geometry::Grid::Sphere => puzzle.target.user_local(r.cell).1,
            };
            s.push_str(&format!(
                "; symmetry broken at cell ({x}, {y}, {z}): {}, one per placement there",
                plural(r.branch_count() as u64, "branch")
            ));
        }
        s
    }
}

/// The deepest level below the root at which the candidates' trees are compared: the
/// smallest tree to depth 3 was the smallest whole tree, or one within 11% of it, on the
/// five families of issue 29, while depths 1 and 2 tied or misled on the Tetris Cube.
const PICK_DEPTH: usize = 3;
/// After depth 1 and after depth 2, the candidates more than this many times as large as the
/// best go no deeper (as numerator / denominator). Depth 1 is the first branching alone
/// (the Tetris Cube's best piece had 13 nodes there against 9), depth 2 already separates.
const PICK_SPREAD: [(u64, u64); 2] = [(2, 1), (5, 4)];
/// The nodes the whole comparison may visit, for a model of 64 words of options: a larger
/// model's nodes cost more, and it gets proportionally fewer (the Tetris Cube, 4,080 options,
/// spends about 60 ms of it).
const PICK_NODES: u64 = 100_000;
/// The comparison visits at most this fraction of the first candidate's estimated tree: its
/// nodes, outside the leaf search and at the top of the tree, cost several times a count's.
const PICK_SHARE: f64 = 512.0;
/// Knuth's probes that estimate the first candidate's tree ([`TreeTop::sample`]);
/// the estimate only sizes the comparison's budget, so a factor of ten off does no harm.
const PICK_PROBES: u32 = 8;
const PICK_SEED: u64 = 0x5eed;
/// With a budget under this many nodes a candidate, the comparison cannot reach depth 2 and
/// is not begun.
const PICK_MIN_NODES: u64 = 64;

/// One piece that could be restricted: its representatives (smallest index per orbit of the
/// subgroup keeping it), the fraction of its placements they are, and how many of its
/// placements an element other than the identity fixes.
struct Candidate {
    piece: usize,
    reps: Vec<u32>,
    fraction: f64,
    fixed_points: usize,
}

/// Picks the piece whose restriction shrinks the search most. The candidates are the pieces
/// of count 1 (not hinted) whose subgroup has more than one element. Restricting any of them
/// keeps the same solution classes, but the trees differ by up to 4x (the Tetris Cube's
/// pieces: 30 to 132 million nodes), and no static rule (fewest placements kept, largest
/// piece) ranked them on every family. So each candidate's tree is measured to depth 1, 2
/// and 3 ([`TreeTop::breadth`]), the clearly larger ones dropped on the way (see
/// [`PICK_SPREAD`]) within a node budget ([`PICK_NODES`], [`PICK_SHARE`]). A budget that
/// runs out during depth 3 leaves the order at depth 2. Ties, a budget too small to finish
/// depth 2 and a model the engine refuses go to the smallest fraction kept, then the fewest
/// fixed points. Only a count (`counting`) measures: a listing wants its first solution at
/// once, and an export and its decode, `info` and the studio's views keep the static choice
/// (on a box of 29 pentacubes the comparison took 0.4 s against `info`'s 30 ms). Every step
/// is deterministic, so every shard of a count picks the same piece. Returns the piece, its
/// representatives and whether the subgroup acts freely on its placements.
fn choose_restriction(
    puzzle: &Puzzle,
    table: &PlacementTable,
    group: &PlacementSymmetries,
    partners: Option<&[usize]>,
    counting: bool,
    engine: &dyn Fn() -> Option<ExactEngine>,
) -> Option<(usize, Vec<u32>, bool)> {
    let mut cands = candidates(puzzle, table, group, partners);
    cands.sort_by(|a, b| {
        a.fraction
            .total_cmp(&b.fraction)
            .then(a.fixed_points.cmp(&b.fixed_points))
            .then(a.piece.cmp(&b.piece))
    });
    let pick = if counting && cands.len() > 1 {
        measured_pick(table, &cands, engine).unwrap_or(0)
    } else {
        0
    };
    (pick < cands.len()).then(|| {
        let c = cands.swap_remove(pick);
        (c.piece, c.reps, c.fixed_points == 0)
    })
}

/// The pieces [`choose_restriction`] chooses from, in piece order.
fn candidates(
    puzzle: &Puzzle,
    table: &PlacementTable,
    group: &PlacementSymmetries,
    partners: Option<&[usize]>,
) -> Vec<Candidate> {
    let hinted: Vec<u32> = table
        .hints()
        .iter()
        .map(|&h| table.placements()[h as usize].piece)
        .collect();
    let mut out = Vec::new();
    for (pi, piece) in puzzle.pieces.iter().enumerate() {
        if piece.count != 1 || piece.min_count != 1 || hinted.contains(&(pi as u32)) {
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
        // Placements already in an orbit, by number (the piece's placements are a few of the
        // table's, and a flag each is cheaper than hashing every image).
        let mut seen = vec![false; table.len()];
        let mut fixed_points = 0usize;
        for &p in placements {
            let orbit = elements.iter().map(|&g| group.images[g][p as usize]);
            if orbit.clone().skip(1).any(|q| q == p) {
                fixed_points += 1;
            }
            if !seen[p as usize] {
                reps.push(p);
                for q in orbit {
                    if let Some(s) = seen.get_mut(q as usize) {
                        *s = true;
                    }
                }
            }
        }
        out.push(Candidate {
            piece: pi,
            fraction: reps.len() as f64 / placements.len() as f64,
            reps,
            fixed_points,
        });
    }
    out
}

/// The index in `cands` of the candidate whose tree measures smallest (see
/// [`choose_restriction`]); `None` when the engine refuses the model. `engine` is asked for
/// the exact engine only here, so a reduction without a choice never prepares one.
fn measured_pick(
    table: &PlacementTable,
    cands: &[Candidate],
    engine: &dyn Fn() -> Option<ExactEngine>,
) -> Option<usize> {
    // Whatever the run's own settings, so that every run of the puzzle picks alike.
    let engine = engine()?.with_pruning(true).with_preprocess(true);
    let top = |c: &Candidate| {
        // Both ascending.
        let excluded: Vec<u32> = table.by_piece()[c.piece]
            .iter()
            .copied()
            .filter(|p| c.reps.binary_search(p).is_err())
            .collect();
        engine.query().exclude(&excluded).top().ok()
    };
    let mut tops: Vec<Option<TreeTop>> = (0..cands.len()).map(|_| None).collect();
    let first = top(&cands[0])?;
    // The comparison is worth a small share of the search it shortens: a tree of a few
    // thousand nodes (Soma) keeps the first candidate untested.
    let tree = first.sample(PICK_PROBES, PICK_SEED);
    let mut budget =
        ((tree / PICK_SHARE) as u64).min(PICK_NODES * 64 / first.words().max(64) as u64);
    tops[0] = Some(first);
    if budget < PICK_MIN_NODES * cands.len() as u64 {
        return Some(0);
    }
    // The candidates still compared, with their size at the last depth measured, best first.
    let mut alive: Vec<(u64, usize)> = (0..cands.len()).map(|i| (0, i)).collect();
    for depth in 1..=PICK_DEPTH {
        let (num, den) = PICK_SPREAD.get(depth - 1).copied().unwrap_or((1, 1));
        let mut best = u64::MAX;
        let mut next = Vec::with_capacity(alive.len());
        for &(_, i) in &alive {
            let cap = (best.saturating_mul(num) / den).min(budget);
            if tops[i].is_none() {
                tops[i] = Some(top(&cands[i])?);
            }
            match tops[i].as_ref()?.breadth(depth, cap) {
                Some(size) => {
                    budget -= size;
                    best = best.min(size);
                    next.push((size, i));
                }
                // Over the budget: the last depth measured decides, if the second; the
                // first branching alone misleads as often as not.
                None if cap == budget => {
                    return Some(if depth > 2 { alive[0].1 } else { 0 });
                }
                None => budget -= cap,
            }
        }
        next.retain(|&(size, _)| size.saturating_mul(den) <= best.saturating_mul(num));
        next.sort();
        alive = next;
        if alive.len() <= 1 {
            break;
        }
    }
    alive.first().map(|&(_, i)| i)
}

/// A group of one element (or none at all) needs no reduction: every solution is its own class.
fn reducer_group_is_trivial(group: &Option<PlacementSymmetries>) -> bool {
    group.as_ref().is_none_or(|g| g.len() <= 1)
}
