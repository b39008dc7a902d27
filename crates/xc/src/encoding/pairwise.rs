//! The pairwise (binomial) at-most-one encoding.
//!
//! For inputs `x_1..x_n`: one binary clause `¬x_i ∨ ¬x_j` for every pair `i < j`.
//!
//! - clauses: `n(n-1)/2`; auxiliary variables: 0.
//! - Reference: the folklore "naive" or binomial encoding; see e.g. S. D. Prestwich,
//!   "CNF Encodings", Handbook of Satisfiability (2009), ch. 2.
//! - Strong propagation (arc consistency) but quadratic size: 4,080 options of the Tetris Cube
//!   make millions of clauses.

use varisat::{ExtendFormula, Lit};

/// Adds the pairwise at-most-one constraint over `lits` to `f`.
pub fn encode<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            f.add_clause(&[!a, !b]);
        }
    }
}
