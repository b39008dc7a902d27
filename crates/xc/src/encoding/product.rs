//! The product at-most-one encoding (Chen 2010).
//!
//! The n inputs are laid out on a `p × q` grid with `p = ⌈√n⌉`, `q = ⌈n/p⌉`; input `k` sits at
//! row `k / q`, column `k % q`. Row variables `u_1..u_p` and column variables `v_1..v_q` get
//! `¬x_k ∨ u_row(k)` and `¬x_k ∨ v_col(k)`, and at-most-one over the rows and over the columns
//! is encoded recursively by the same encoding (pairwise at [`BASE`] (4) literals or fewer).
//! Two true inputs differ in their row or their column, so one of the two recursive
//! constraints fails.
//!
//! - clauses: `2n + 4√n + O(n^¼)`; auxiliary variables: `2√n + O(n^¼)`.
//! - Auxiliary variables are not functionally determined: block on inputs only.
//! - Reference: J. Chen, "A new SAT encoding of the at-most-one constraint", 10th Workshop on
//!   Constraint Modelling and Reformulation (ModRef), 2010.

use varisat::{ExtendFormula, Lit};

/// At most this many literals are encoded pairwise.
pub const BASE: usize = 4;

/// Adds the product at-most-one constraint over `lits` to `f`.
pub fn encode<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    let n = lits.len();
    if n <= BASE {
        super::pairwise::encode(f, lits);
        return;
    }
    let p = n.isqrt() + usize::from(n.isqrt() * n.isqrt() < n);
    let q = n.div_ceil(p);
    let rows: Vec<Lit> = (0..p).map(|_| f.new_lit()).collect();
    let cols: Vec<Lit> = (0..q).map(|_| f.new_lit()).collect();
    for (k, &x) in lits.iter().enumerate() {
        f.add_clause(&[!x, rows[k / q]]);
        f.add_clause(&[!x, cols[k % q]]);
    }
    // A row or column that no input uses would only add a free variable: harmless.
    encode(f, &rows);
    encode(f, &cols);
}
