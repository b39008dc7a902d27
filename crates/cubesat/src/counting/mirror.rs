//! Reflections in a count: which solutions a group's reflections act on, and BurrTools' mirror check (its pairing of chiral pieces), as its assemblers prepare it.

use super::UpTo;
use crate::echo::{echo, list};
use crate::error::{Error, Request, Result};

use crate::placements::PlacementTable;
use crate::puzzle::{CanonicalForms, Puzzle};
use crate::symmetry::PlacementSymmetries;

/// Which solutions the group's reflections act on.
#[derive(Clone, Debug)]
pub(super) enum Eligibility {
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

/// How a counting mode treats mirror images: whether its group has reflections, which
/// solutions they act on, and what BurrTools' mirror check decided.
pub(super) struct MirrorRule {
    reflections: bool,
    pub(super) eligibility: Eligibility,
    /// For `describe`: why BurrTools' mirror check is off, or (after
    /// [`MirrorRule::settle_note`]) what it decided.
    pub(super) note: String,
    /// Why BurrTools identifies only some assemblies with their mirror images (said only
    /// when the result has a mirror symmetry).
    pairing: String,
}

impl MirrorRule {
    /// The rule of `mode` for `puzzle`, whose pieces' canonical forms are `forms` and mirror
    /// parts `parts` (`partnered`: every piece has a mirror partner). Refuses
    /// `rotation+reflection` for a fixed-count set that is not mirror-closed.
    pub(super) fn new(
        puzzle: &Puzzle,
        forms: &CanonicalForms,
        parts: &[Option<usize>],
        partnered: bool,
        mode: UpTo,
        counting: bool,
    ) -> Result<MirrorRule> {
        let min: Vec<u32> = puzzle.pieces.iter().map(|p| p.min_count).collect();
        let max: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
        let (reflections, eligibility) = match mode {
            UpTo::None => (counting && partnered, Eligibility::All),
            UpTo::Rotation => (false, Eligibility::All),
            UpTo::RotationReflection => {
                if partnered {
                    (true, Eligibility::All)
                } else if puzzle.has_ranges() {
                    let parts = parts.to_vec();
                    (true, Eligibility::MirrorValid { parts, min, max })
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
            UpTo::BurrTools => return Ok(MirrorRule::burrtools(puzzle, forms, parts, min, max)),
        };
        Ok(MirrorRule {
            reflections,
            eligibility,
            note: String::new(),
            pairing: String::new(),
        })
    }

    /// BurrTools' rule ([`BurrMirror`]); `min` and `max` are the pieces' count ranges.
    pub(super) fn burrtools(
        puzzle: &Puzzle,
        forms: &CanonicalForms,
        parts: &[Option<usize>],
        min: Vec<u32>,
        max: Vec<u32>,
    ) -> MirrorRule {
        let bt = BurrMirror::new(puzzle, forms);
        let mut note = String::new();
        if !bt.on {
            let who = bt.unpaired.map_or(String::new(), |p| {
                format!(" ('{}' has no mirror partner left)", puzzle.pieces[p].name)
            });
            note = format!("BurrTools' mirror check is off{who}");
        }
        let mut pairing = String::new();
        let all = bt.all_paired && !puzzle.has_ranges() && mirror_valid(&max, parts, &min, &max);
        let eligibility = if all {
            Eligibility::All
        } else {
            pairing = bt.describe_pairing(puzzle);
            Eligibility::BurrTools {
                parts: parts.to_vec(),
                min,
                max,
                chiral: bt.chiral,
                registered: bt.registered,
            }
        };
        MirrorRule {
            reflections: bt.on,
            eligibility,
            note,
            pairing,
        }
    }

    /// The group the rule counts under: on every solution, or partially (reflections map
    /// a placement to [`crate::symmetry::UNMAPPED`] where its piece has no mirror part).
    pub(super) fn group(
        &self,
        puzzle: &Puzzle,
        table: &PlacementTable,
        partners: Option<&[usize]>,
        parts: &[Option<usize>],
    ) -> Result<PlacementSymmetries> {
        if matches!(self.eligibility, Eligibility::All) {
            PlacementSymmetries::new(puzzle, table, self.reflections, partners)
        } else {
            PlacementSymmetries::new_partial(puzzle, table, self.reflections, parts)
        }
    }

    /// For BurrTools' rule with its mirror check on, the note says whether the result (its
    /// `group`) has a mirror symmetry, and if so which copies were paired.
    pub(super) fn settle_note(&mut self, mode: UpTo, group: Option<&PlacementSymmetries>) {
        if mode == UpTo::BurrTools && self.note.is_empty() {
            let mirrors = group.is_some_and(|g| g.reflection.iter().any(|&r| r));
            if !mirrors {
                self.note = "the result has no mirror symmetry".to_string();
            } else {
                self.note = std::mem::take(&mut self.pairing);
            }
        }
    }
}

/// True when the mirrored counts (`cnt[p]` copies of `p` become copies of `parts[p]`) are
/// within the ranges.
pub(super) fn mirror_valid(cnt: &[u32], parts: &[Option<usize>], min: &[u32], max: &[u32]) -> bool {
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
