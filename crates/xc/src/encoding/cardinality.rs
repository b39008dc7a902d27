//! Cardinality constraints `lo ≤ Σ x ≤ hi` (exactly k for pieces with k identical copies, a
//! range for a piece with a range of copies): a sequential counter with both directions.
//!
//! For inputs `x_1..x_n` and bounds `lo..=hi` it introduces registers `r_{i,j}` for
//! `1 ≤ i ≤ n`, `1 ≤ j ≤ min(i, t)` (`t = hi+1`, or `lo` when `hi ≥ n` needs no upper
//! register) with `r_{i,j} ↔ r_{i-1,j} ∨ (x_i ∧ r_{i-1,j-1})` (where `r_{i,0}` is true and
//! `r_{i-1,i}` false), i.e. `r_{i,j}` ⇔ "at least j of `x_1..x_i` are true", and then
//! asserts `r_{n,lo}` (when `lo ≥ 1`) and `¬r_{n,hi+1}` (when `hi < n`); exactly k is
//! `lo = hi = k`.
//!
//! - auxiliary variables: at most `n(hi+1)`; clauses: at most `4n(hi+1) + 2`.
//! - The registers are functionally determined by the inputs, so unprojected model counts
//!   equal projected ones.
//! - Reference: C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//!   CP 2005 (the sequential counter `LT_SEQ`; here with the reverse implications added so
//!   that it also enforces the lower bound).
//!
//! Exactly 0 becomes unit clauses, exactly 1 at-least-one plus the chosen at-most-one, at
//! most one the chosen at-most-one alone, and a lower bound above n the empty clause.

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
        _ => counter(f, lits, k, k),
    }
}

/// Adds "between `lo` and `hi` of `lits` are true" to `f` (`lo ≤ hi`); `amo` encodes the
/// at-most-one cases.
pub fn between<F: ExtendFormula>(f: &mut F, lits: &[Lit], lo: usize, hi: usize, amo: AtMostOne) {
    let n = lits.len();
    if lo == hi {
        exactly_k(f, lits, lo, amo);
    } else if lo > n {
        f.add_clause(&[]);
    } else if lo == 0 && hi >= n {
        // No constraint at all.
    } else if lo == 0 && hi == 1 {
        amo.encode(f, lits);
    } else {
        counter(f, lits, lo, hi);
    }
}

/// Adds "at least one of `lits`" (a single clause).
pub fn at_least_one<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    f.add_clause(lits);
}

/// The two-way sequential counter for `lo..=hi`, `lo ≤ n`, `hi ≥ 1`.
fn counter<F: ExtendFormula>(f: &mut F, lits: &[Lit], lo: usize, hi: usize) {
    let n = lits.len();
    let top = if hi < n { hi + 1 } else { lo };
    // prev[j-1] = r_{i-1,j} for j = 1..=min(i-1, top).
    let mut prev: Vec<Lit> = Vec::new();
    for (i, &x) in lits.iter().enumerate() {
        let width = (i + 1).min(top);
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
    // prev = r_{n,1..=min(n,top)}; lo ≤ n here.
    if lo >= 1 {
        f.add_clause(&[prev[lo - 1]]);
    }
    if hi < n {
        f.add_clause(&[!prev[hi]]);
    }
    debug_assert!(n >= lo);
}
