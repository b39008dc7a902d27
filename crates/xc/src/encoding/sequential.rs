//! The sequential-counter at-most-one encoding (Sinz 2005).
//!
//! For inputs `x_1..x_n` (n ≥ 2) it introduces `s_1..s_{n-1}`, where `s_i` means "some of
//! `x_1..x_i` is true", and adds
//! `¬x_1 ∨ s_1`; for `1 < i < n`: `¬x_i ∨ s_i`, `¬s_{i-1} ∨ s_i`, `¬x_i ∨ ¬s_{i-1}`;
//! and `¬x_n ∨ ¬s_{n-1}`.
//!
//! - clauses: `3n - 4` (for n ≥ 2; 0 for n ≤ 1); auxiliary variables: `n - 1`.
//! - The auxiliary variables are not functionally determined by the inputs (`s_i` may be true
//!   with `x_1..x_i` false), so block on input variables only and project model counts.
//! - Reference: C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//!   CP 2005, LNCS 3709, pp. 827–831 (the `LT_SEQ` encoding with k = 1).

use varisat::{ExtendFormula, Lit};

/// Adds the sequential-counter at-most-one constraint over `lits` to `f`.
pub fn encode<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    let n = lits.len();
    if n <= 1 {
        return;
    }
    let mut prev = f.new_lit(); // s_1
    f.add_clause(&[!lits[0], prev]);
    for &x in &lits[1..n - 1] {
        let s = f.new_lit();
        f.add_clause(&[!x, s]);
        f.add_clause(&[!prev, s]);
        f.add_clause(&[!x, !prev]);
        prev = s;
    }
    f.add_clause(&[!lits[n - 1], !prev]);
}
