//! The commander at-most-one encoding (Klieber & Kwon 2007).
//!
//! The inputs are split into groups of [`GROUP`] (3) literals. Each group gets a commander
//! variable `c` with `c ↔ (x_1 ∨ … ∨ x_g)` (clauses `¬x_i ∨ c` and `¬c ∨ x_1 ∨ … ∨ x_g`), the
//! group's own at-most-one is pairwise, and the commanders are constrained recursively by the
//! same encoding; at most [`BASE`] (6) literals are encoded pairwise directly.
//!
//! - per group of g literals: `g(g-1)/2 + g + 1` clauses and 1 auxiliary variable, so for
//!   groups of 3: 7 clauses per group, about `7n/3 + 7n/9 + … ≈ 3.5n` clauses and `n/2`
//!   auxiliary variables in total.
//! - The commanders are functionally determined by the inputs (`c` is the OR of its group).
//! - Reference: W. Klieber and G. Kwon, "Efficient CNF encoding for selecting 1 from N
//!   objects", 4th Workshop on Constraints in Formal Verification (CFV), 2007.

use varisat::{ExtendFormula, Lit};

/// Group size.
pub const GROUP: usize = 3;
/// At most this many literals are encoded pairwise without commanders.
pub const BASE: usize = 6;

/// Adds the commander at-most-one constraint over `lits` to `f`.
pub fn encode<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    if lits.len() <= BASE {
        super::pairwise::encode(f, lits);
        return;
    }
    let mut commanders = Vec::with_capacity(lits.len().div_ceil(GROUP));
    for group in lits.chunks(GROUP) {
        super::pairwise::encode(f, group);
        let c = f.new_lit();
        let mut back = Vec::with_capacity(group.len() + 1);
        back.push(!c);
        for &x in group {
            f.add_clause(&[!x, c]);
            back.push(x);
        }
        f.add_clause(&back);
        commanders.push(c);
    }
    encode(f, &commanders);
}
