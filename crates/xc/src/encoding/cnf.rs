//! The [`CnfEncoder`]: an [`ExactCover`] as CNF on any [`ExtendFormula`].
//!
//! Variables: option `o` is variable index `o` (so options are variables `0..options`, DIMACS
//! numbers `1..=options`), allocated first; auxiliary variables of the cardinality encodings
//! follow. Constraints:
//!
//! - every exact item covered `k` times: exactly k of the options holding it (k = 1:
//!   at-least-one clause + the chosen [`AtMostOne`]; k ≥ 2: [`cardinality::exactly_k`]);
//! - every secondary item: at most one of the options holding it;
//! - every ranged item covered `min..=max` times: that many of the options holding it
//!   ([`cardinality::between`]);
//! - forced options: unit clauses ([`ForcedMode::Units`]) or nothing, left to the caller's
//!   assumptions ([`ForcedMode::Assumptions`]).
//!
//! Optionally ([`CnfConfig::drop_implied_piece_amo`]) the at-most-one of the piece items is
//! left out when it is implied; see [`implied_piece_items`] for the condition and the proof.

use super::{AtMostOne, cardinality};
use crate::error::{Error, Result};
use crate::model::ExactCover;
use varisat::{ExtendFormula, Lit, Var};

/// How forced options enter the formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ForcedMode {
    /// As unit clauses (self-contained formula, e.g. for DIMACS export).
    #[default]
    Units,
    /// Not at all: the caller assumes them (the SAT engine, which reuses one solver).
    Assumptions,
}

/// Encoding choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnfConfig {
    /// The at-most-one encoding for items covered once and secondary items.
    pub amo: AtMostOne,
    /// How forced options are encoded.
    pub forced: ForcedMode,
    /// Leave out the at-most-one half of the piece items when [`implied_piece_items`] proves it
    /// redundant (the at-least-one clause stays).
    pub drop_implied_piece_amo: bool,
}

/// Sizes of an encoded formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnfStats {
    /// Option variables (indices `0..option_vars`).
    pub option_vars: usize,
    /// All variables, auxiliaries included.
    pub variables: usize,
    /// Clauses added.
    pub clauses: usize,
    /// Whether the piece at-most-one constraints were left out as implied.
    pub piece_amo_dropped: bool,
}

/// Counts clauses and variables on the way to the wrapped formula.
struct Counting<'a, F> {
    inner: &'a mut F,
    clauses: usize,
    vars: usize,
}

impl<F: ExtendFormula> ExtendFormula for Counting<'_, F> {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.clauses += 1;
        self.inner.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        self.vars += 1;
        self.inner.new_var()
    }
}

/// Turns an exact-cover model into CNF.
#[derive(Clone, Copy, Debug, Default)]
pub struct CnfEncoder {
    /// The encoding choices.
    pub config: CnfConfig,
}

impl CnfEncoder {
    /// An encoder with these choices.
    pub fn new(config: CnfConfig) -> Self {
        CnfEncoder { config }
    }

    /// Encodes `model` into `f`, which must be empty (no variables yet) so that option `o`
    /// becomes variable `o`. Returns the sizes.
    pub fn encode<F: ExtendFormula>(&self, model: &ExactCover, f: &mut F) -> Result<CnfStats> {
        model.validate()?;
        let mut c = Counting {
            inner: f,
            clauses: 0,
            vars: 0,
        };
        let n = model.option_count();
        for o in 0..n {
            let v = c.new_var();
            if v.index() != o {
                return Err(Error::internal(format!(
                    "the CNF encoder needs an empty formula (option {o} became variable {})",
                    v.index()
                )));
            }
        }
        let dropped = if self.config.drop_implied_piece_amo {
            implied_piece_items(model)
        } else {
            None
        };
        let mut is_dropped = vec![false; model.item_count()];
        if let Some(items) = &dropped {
            for &i in items {
                is_dropped[i as usize] = true;
            }
        }
        let amo = self.config.amo;
        for (i, opts) in model.options_by_item().iter().enumerate() {
            let lits: Vec<Lit> = opts
                .iter()
                .map(|&o| Lit::from_index(o as usize, true))
                .collect();
            let item = &model.items[i];
            if item.is_secondary() {
                amo.encode(&mut c, &lits);
            } else if is_dropped[i] {
                cardinality::at_least_one(&mut c, &lits);
            } else if item.is_exact() {
                cardinality::exactly_k(&mut c, &lits, item.min as usize, amo);
            } else {
                let (lo, hi) = (item.min as usize, item.max as usize);
                cardinality::between(&mut c, &lits, lo, hi, amo);
            }
        }
        if self.config.forced == ForcedMode::Units {
            for &o in &model.forced {
                c.add_clause(&[Lit::from_index(o as usize, true)]);
            }
        }
        Ok(CnfStats {
            option_vars: n,
            variables: c.vars,
            clauses: c.clauses,
            piece_amo_dropped: dropped.is_some(),
        })
    }
}

/// The piece items whose at-most-one is implied by the rest of the encoding, if the model
/// qualifies; `None` otherwise.
///
/// Let P be the piece items (items `0..first_cell` from [`crate::model::CellGeometry`]).
/// The model qualifies when (a) every piece item is exact of 1, (b) every option holds exactly
/// one item of P, (c) all options of piece p hold the same number `w_p ≥ 1` of exact items
/// outside P and no ranged item, and (d) `Σ_p w_p = M := Σ need` over the exact items outside
/// P.
///
/// Proof that "at least one option per piece" plus the exact constraints on the other primary
/// items then imply "at most one per piece": let `n_p ≥ 1` be the number of chosen options of
/// piece p. Counting (option, primary non-P item) incidences of a solution both ways gives
/// `Σ_p n_p·w_p = M` (each such item i lies in exactly `need_i` chosen options; secondary items
/// are not counted, and no option holds a ranged one). With (d), `Σ_p (n_p - 1)·w_p = 0`, and every term is ≥ 0 with `w_p ≥ 1`,
/// so `n_p = 1` for every p.
pub fn implied_piece_items(model: &ExactCover) -> Option<Vec<u32>> {
    let g = model.geometry.as_ref()?;
    let pieces = g.first_cell as usize;
    if pieces == 0 || pieces > model.item_count() {
        return None;
    }
    if model.items[..pieces]
        .iter()
        .any(|it| !(it.is_exact() && it.min == 1))
        || model.has_ranges()
    {
        return None;
    }
    let mut weight: Vec<Option<u64>> = vec![None; pieces];
    for items in &model.options {
        let mut in_p = items.iter().filter(|&&i| (i as usize) < pieces);
        let p = *in_p.next()? as usize;
        if in_p.next().is_some() {
            return None;
        }
        let w = items
            .iter()
            .filter(|&&i| (i as usize) >= pieces && model.items[i as usize].is_exact())
            .count() as u64;
        if w == 0 || weight[p].is_some_and(|x| x != w) {
            return None;
        }
        weight[p] = Some(w);
    }
    let total: u64 = weight.iter().map(|w| w.unwrap_or(0)).sum();
    if weight.iter().any(Option::is_none) {
        return None; // a piece without options: leave everything explicit
    }
    let must: u64 = model.items[pieces..]
        .iter()
        .filter(|it| it.is_exact())
        .map(|it| u64::from(it.min))
        .sum();
    (total == must).then(|| (0..pieces as u32).collect())
}
