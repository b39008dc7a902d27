//! The CNF encoding of the exact-cover model: the at-most-one encodings (one file each), the
//! exactly-k cardinality constraint and the [`CnfEncoder`] that turns an
//! [`ExactCover`](crate::model::ExactCover) into clauses.
//!
//! Every encoder writes through [`varisat::ExtendFormula`], so the same code fills a
//! [`varisat::Solver`] (the SAT engine) or a [`varisat::CnfFormula`] (the DIMACS exporter).
//!
//! Variable layout (see [`cnf`]): option `o` is variable index `o` (DIMACS number `o + 1`);
//! auxiliary variables come after all option variables.

pub mod bimander;
pub mod cardinality;
pub mod cnf;
pub mod commander;
pub mod pairwise;
pub mod product;
pub mod sequential;

pub use cnf::{CnfConfig, CnfEncoder, CnfStats, ForcedMode};

use std::fmt;
use std::str::FromStr;
use varisat::{ExtendFormula, Lit};

/// A selectable at-most-one encoding.
///
/// The default is [`AtMostOne::Pairwise`]: despite being the largest formula (5.66 million
/// clauses for the Tetris Cube) it was the fastest with varisat in every measurement so far
/// (`encodings/README.md`); [`AtMostOne::Product`] is the best of the linear-size encodings
/// there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AtMostOne {
    /// [`pairwise`]: `n(n-1)/2` binary clauses, no auxiliary variables.
    #[default]
    Pairwise,
    /// [`sequential`]: Sinz's sequential counter, `3n-4` clauses, `n-1` auxiliary variables.
    Sequential,
    /// [`commander`]: Klieber & Kwon, groups of 3, about `3.5n` clauses and `n/2` auxiliaries.
    Commander,
    /// [`product`]: Chen's product encoding, `2n + 4√n + O(n^¼)` clauses, `2√n + O(n^¼)` auxiliaries.
    Product,
    /// [`bimander`]: Nguyen & Mai, `√n` groups, `n√n/2 + ½·n·log₂ n` clauses, `½·log₂ n` auxiliaries.
    Bimander,
}

impl AtMostOne {
    /// All encodings, in documentation order.
    pub const ALL: [AtMostOne; 5] = [
        AtMostOne::Pairwise,
        AtMostOne::Sequential,
        AtMostOne::Commander,
        AtMostOne::Product,
        AtMostOne::Bimander,
    ];

    /// The name used on the command line and in exported files.
    pub fn name(self) -> &'static str {
        match self {
            AtMostOne::Pairwise => "pairwise",
            AtMostOne::Sequential => "sequential",
            AtMostOne::Commander => "commander",
            AtMostOne::Product => "product",
            AtMostOne::Bimander => "bimander",
        }
    }

    /// Adds "at most one of `lits` is true" to `f`.
    pub fn encode<F: ExtendFormula>(self, f: &mut F, lits: &[Lit]) {
        match self {
            AtMostOne::Pairwise => pairwise::encode(f, lits),
            AtMostOne::Sequential => sequential::encode(f, lits),
            AtMostOne::Commander => commander::encode(f, lits),
            AtMostOne::Product => product::encode(f, lits),
            AtMostOne::Bimander => bimander::encode(f, lits),
        }
    }
}

impl fmt::Display for AtMostOne {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AtMostOne {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Self> {
        AtMostOne::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| crate::Error::UnknownName {
                what: "at-most-one encoding",
                name: s.to_string(),
                expected: AtMostOne::ALL.map(AtMostOne::name).join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::{CnfFormula, Solver};

    /// Is `f` satisfiable with the first `n` variables fixed to `bits`?
    fn sat_under(f: &CnfFormula, n: usize, bits: u32) -> bool {
        let mut s = Solver::new();
        s.add_formula(f);
        let assumptions: Vec<Lit> = (0..n)
            .map(|i| Lit::from_index(i, (bits >> i) & 1 == 1))
            .collect();
        s.assume(&assumptions);
        s.solve().expect("solver error")
    }

    /// The inputs are the first `n` variables of a fresh formula.
    fn inputs(f: &mut CnfFormula, n: usize) -> Vec<Lit> {
        (0..n).map(|_| f.new_lit()).collect()
    }

    macro_rules! amo_truth_table {
        ($($name:ident => $enc:expr),* $(,)?) => {$(
            #[test]
            fn $name() {
                for n in 0..=9usize {
                    let mut f = CnfFormula::new();
                    let xs = inputs(&mut f, n);
                    $enc.encode(&mut f, &xs);
                    for bits in 0..(1u32 << n) {
                        assert_eq!(
                            sat_under(&f, n, bits),
                            bits.count_ones() <= 1,
                            "{} n={n} bits={bits:b}", $enc
                        );
                    }
                }
            }
        )*};
    }

    amo_truth_table! {
        truth_table_pairwise => AtMostOne::Pairwise,
        truth_table_sequential => AtMostOne::Sequential,
        truth_table_commander => AtMostOne::Commander,
        truth_table_product => AtMostOne::Product,
        truth_table_bimander => AtMostOne::Bimander,
    }

    #[test]
    fn exactly_k_truth_table() {
        for amo in [AtMostOne::Pairwise, AtMostOne::Product] {
            for n in 0..=7usize {
                for k in 0..=n + 1 {
                    let mut f = CnfFormula::new();
                    let xs = inputs(&mut f, n);
                    cardinality::exactly_k(&mut f, &xs, k, amo);
                    for bits in 0..(1u32 << n) {
                        assert_eq!(
                            sat_under(&f, n, bits),
                            bits.count_ones() as usize == k,
                            "{amo} n={n} k={k} bits={bits:b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn between_truth_table() {
        for amo in [AtMostOne::Pairwise, AtMostOne::Sequential] {
            for n in 0..=6usize {
                for lo in 0..=n + 1 {
                    for hi in lo.max(1)..=n + 1 {
                        let mut f = CnfFormula::new();
                        let xs = inputs(&mut f, n);
                        cardinality::between(&mut f, &xs, lo, hi, amo);
                        for bits in 0..(1u32 << n) {
                            let k = bits.count_ones() as usize;
                            assert_eq!(
                                sat_under(&f, n, bits),
                                (lo..=hi).contains(&k),
                                "{amo} n={n} {lo}..{hi} bits={bits:b}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn documented_sizes() {
        let size = |amo: AtMostOne, n: usize| {
            let mut f = CnfFormula::new();
            let xs = inputs(&mut f, n);
            amo.encode(&mut f, &xs);
            (f.var_count() - n, f.len())
        };
        for n in 2..=40 {
            assert_eq!(size(AtMostOne::Pairwise, n), (0, n * (n - 1) / 2));
            assert_eq!(size(AtMostOne::Sequential, n), (n - 1, 3 * n - 4));
        }
        // Commander with n = 9: 3 groups of 3 (7 clauses each), then 3 commanders pairwise.
        assert_eq!(size(AtMostOne::Commander, 9), (3, 3 * 7 + 3));
        // Product with n = 9: 3x3 grid, 18 clauses + 2 pairwise triples.
        assert_eq!(size(AtMostOne::Product, 9), (6, 18 + 3 + 3));
        // Bimander with n = 9: 3 groups of 3 (3 pairs each), 2 bits for every input.
        assert_eq!(size(AtMostOne::Bimander, 9), (2, 9 + 18));
    }

    #[test]
    fn names_round_trip() {
        for a in AtMostOne::ALL {
            assert_eq!(a.to_string().parse::<AtMostOne>().unwrap(), a);
        }
        assert!("ladder".parse::<AtMostOne>().is_err());
    }
}
