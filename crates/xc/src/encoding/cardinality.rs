//! Exactly-k cardinality constraints (for pieces with k identical copies): a sequential
//! counter with both directions.
//!
//! For inputs `x_1..x_n` and bound k it introduces registers `r_{i,j}` for `1 ≤ i ≤ n`,
//! `1 ≤ j ≤ min(i, k+1)` with `r_{i,j} ↔ r_{i-1,j} ∨ (x_i ∧ r_{i-1,j-1})` (where `r_{i,0}` is
//! true and `r_{i-1,i}` false), i.e. `r_{i,j}` ⇔ "at least j of `x_1..x_i` are true", and then
//! asserts `r_{n,k}` and `¬r_{n,k+1}`.
//!
//! - auxiliary variables: at most `n(k+1)`; clauses: at most `4n(k+1) + 2`.
//! - The registers are functionally determined by the inputs, so unprojected model counts
//!   equal projected ones.
//! - Reference: C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//!   CP 2005 (the sequential counter `LT_SEQ`; here with the reverse implications added so
//!   that it also enforces the lower bound).
//!
//! k = 0 becomes unit clauses, k = 1 becomes at-least-one plus the chosen at-most-one, and
//! k > n becomes the empty clause.

use super::AtMostOne;
use varisat::{ExtendFormula, Lit};

/// Adds "exactly `k` of `lits` are true" to `f`; `amo` encodes the k = 1 case.
pub fn exactly_k<F: ExtendFormula>(f: &mut F, lits: &[Lit], k: usize, amo: AtMostOne) {
    let n = lits.len();
    if k > n {
        f.add_clause(&[]);
        return;
    }
    match k {
        0 => {
            for &x in lits {
                f.add_clause(&[!x]);
            }
        }
        1 => {
            f.add_clause(lits);
            amo.encode(f, lits);
        }
        _ => counter(f, lits, k),
    }
}

/// Adds "at least one of `lits`" (a single clause).
pub fn at_least_one<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    f.add_clause(lits);
}

/// The two-way sequential counter for `k ≥ 1`.
fn counter<F: ExtendFormula>(f: &mut F, lits: &[Lit], k: usize) {
    let n = lits.len();
    // prev[j-1] = r_{i-1,j} for j = 1..=min(i-1, k+1).
    let mut prev: Vec<Lit> = Vec::new();
    for (i, &x) in lits.iter().enumerate() {
        let width = (i + 1).min(k + 1);
        let mut cur = Vec::with_capacity(width);
        for j in 1..=width {
            let r = f.new_lit();
            let same = prev.get(j - 1).copied(); // r_{i-1,j}, None = false
            let lower = if j == 1 {
                None
            } else {
                prev.get(j - 2).copied()
            }; // r_{i-1,j-1}, None = true when j = 1
            // r_{i-1,j} → r
            if let Some(s) = same {
                f.add_clause(&[!s, r]);
            }
            // x ∧ r_{i-1,j-1} → r
            match (j, lower) {
                (1, _) => f.add_clause(&[!x, r]),
                (_, Some(l)) => f.add_clause(&[!x, !l, r]),
                (_, None) => {}
            }
            // r → r_{i-1,j} ∨ x
            let mut c1 = vec![!r, x];
            c1.extend(same);
            f.add_clause(&c1);
            // r → r_{i-1,j} ∨ r_{i-1,j-1}
            if j > 1 {
                let mut c2 = vec![!r];
                c2.extend(same);
                c2.extend(lower);
                f.add_clause(&c2);
            }
            cur.push(r);
        }
        prev = cur;
    }
    // prev = r_{n,1..=min(n,k+1)}; k ≤ n here.
    f.add_clause(&[prev[k - 1]]);
    if let Some(&over) = prev.get(k) {
        f.add_clause(&[!over]);
    }
    debug_assert!(n >= k);
}
