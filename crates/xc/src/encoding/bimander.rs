//! The bimander at-most-one encoding (Nguyen & Mai 2015).
//!
//! The n inputs are split into `m = ⌈√n⌉` groups of at most `g = ⌈n/m⌉`; each group's
//! at-most-one is pairwise, and the group index is written in binary on `b = ⌈log₂ m⌉`
//! auxiliary bits `B_1..B_b`: every input `x` of group `i` gets `¬x ∨ B_j` or `¬x ∨ ¬B_j` for
//! each bit `j` (positive when bit `j` of `i` is 1). Two true inputs in different groups would
//! need two different bit patterns.
//!
//! - clauses: `m·g(g-1)/2 + n·b` (about `n√n/2 + ½·n·log₂ n`); auxiliary variables: `⌈log₂ m⌉`.
//! - Auxiliary bits are not determined when no input is true: block on inputs only.
//! - Reference: V.-H. Nguyen and S. T. Mai, "A new method to encode the at-most-one constraint
//!   into SAT", SoICT 2015, pp. 46–53 (bimander; m = √n is one of the group counts studied).

use varisat::{ExtendFormula, Lit};

/// Adds the bimander at-most-one constraint over `lits` to `f`.
pub fn encode<F: ExtendFormula>(f: &mut F, lits: &[Lit]) {
    let n = lits.len();
    if n <= 4 {
        super::pairwise::encode(f, lits);
        return;
    }
    let m = n.isqrt() + usize::from(n.isqrt() * n.isqrt() < n);
    let g = n.div_ceil(m);
    let groups: Vec<&[Lit]> = lits.chunks(g).collect();
    let bits_needed = (usize::BITS - (groups.len() - 1).leading_zeros()) as usize;
    let bits: Vec<Lit> = (0..bits_needed).map(|_| f.new_lit()).collect();
    for (i, group) in groups.iter().enumerate() {
        super::pairwise::encode(f, group);
        for &x in group.iter() {
            for (j, &b) in bits.iter().enumerate() {
                let bit = (i >> j) & 1 == 1;
                f.add_clause(&[!x, if bit { b } else { !b }]);
            }
        }
    }
}
