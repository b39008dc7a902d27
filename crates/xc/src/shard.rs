//! Shards: one of N deterministic parts of a search, its "K/N" name, and the dealing of a
//! split's subtrees to N shards balanced by their estimated sizes.
//!
//! A sharded run cuts the top of the search tree into many more subtrees than shards (the
//! same cut on every machine and for every thread count), estimates each subtree's size
//! (Knuth's path weight), and deals the subtrees out largest first, each to the shard with the least estimated work so
//! far (ties to the lowest shard). Every subtree goes to exactly one shard, so the shards
//! partition the solutions whatever the estimates are worth; the estimates only decide the
//! balance.

use std::fmt;
use std::str::FromStr;

/// The most shards a run may be split into: every shard's run cuts the tree into
/// [`SUBTREES_PER_SHARD`] subtrees per shard and holds their paths in memory.
pub const MAX_SHARDS: u32 = 1 << 16;

/// Subtrees cut per shard: many small subtrees per shard let the estimates' errors average
/// out (the split stops early when the tree is smaller).
pub const SUBTREES_PER_SHARD: usize = 64;

/// Shard `index` of `count` (written "K/N", `0 <= K < N`): a fixed part of a search. The
/// shards `0/N` to `N-1/N` of one search hold every solution of it exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// The text is not two whole numbers `K/N`.
    #[error("shard {0:?} is not K/N (two whole numbers with 0 <= K < N, such as 3/64)")]
    Syntax(String),
    /// `N` is zero.
    #[error("a search cannot be split into 0 shards (N must be at least 1)")]
    NoShards,
    /// `N` is over [`MAX_SHARDS`] (the number as written: it may not fit 64 bits).
    #[error("{0} shards is too many (at most {MAX_SHARDS})")]
    TooMany(String),
    /// `K` is not below `N`.
    #[error(
        "there is no shard {index}/{count}: shards are numbered from 0, so the {count} shards are 0/{count} to {}/{count}",
        count - 1
    )]
    OutOfRange {
        /// The index asked for, as written (it may not fit 64 bits).
        index: String,
        /// The number of shards.
        count: u32,
    },
}

impl Shard {
    /// Shard `index` of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany(count.to_string()));
        }
        if index >= count {
            return Err(ShardError::OutOfRange {
                index: index.to_string(),
                count,
            });
        }
        Ok(Shard { index, count })
    }

    /// `K`: which shard, from 0.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// `N`: how many shards the search is split into.
    pub fn count(&self) -> u32 {
        self.count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(syntax)?;
        let (k, n) = (k.trim(), n.trim());
        for t in [k, n] {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
        }
        // All digits: a number too long for u32 is out of range, and is shown as written.
        let written = |t: &str| match t.trim_start_matches('0') {
            "" => "0".to_string(),
            d => d.to_string(),
        };
        let n = n
            .parse::<u32>()
            .map_err(|_| ShardError::TooMany(written(n)))?;
        match k.parse::<u32>() {
            Ok(k) => Shard::new(k, n),
            Err(_) => {
                // N's own faults first.
                Shard::new(0, n)?;
                Err(ShardError::OutOfRange {
                    index: written(k),
                    count: n,
                })
            }
        }
    }
}

/// Deals items of estimated sizes `sizes` to `shards` shards: largest first (ties to the
/// lower index), each to the shard with the least estimated load so far (ties to the lower
/// shard). Returns each item's shard. Deterministic: the same sizes give the same deal on
/// every machine. Sizes that are not finite or are negative count as 0.
pub fn deal(sizes: &[f64], shards: u32) -> Vec<u32> {
    let shards = shards.max(1) as usize;
    let size = |i: usize| {
        let s = sizes[i];
        if s.is_finite() && s > 0.0 { s } else { 0.0 }
    };
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&a, &b| size(b).total_cmp(&size(a)).then(a.cmp(&b)));
    // A binary heap of (load, shard) keyed on the smallest load, then the lowest shard.
    let mut heap: Vec<(f64, u32)> = (0..shards as u32).map(|s| (0.0, s)).collect();
    let less = |a: (f64, u32), b: (f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).is_lt();
    let mut owner = vec![0u32; sizes.len()];
    for i in order {
        let (load, s) = heap[0];
        owner[i] = s;
        heap[0] = (load + size(i), s);
        // Sift the grown root down.
        let mut at = 0;
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut min = at;
            if l < heap.len() && less(heap[l], heap[min]) {
                min = l;
            }
            if r < heap.len() && less(heap[r], heap[min]) {
                min = r;
            }
            if min == at {
                break;
            }
            heap.swap(at, min);
            at = min;
        }
    }
    owner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_k_of_n() {
        let s: Shard = "3/64".parse().unwrap();
        assert_eq!((s.index(), s.count()), (3, 64));
        assert_eq!(s.to_string(), "3/64");
        assert_eq!("0/1".parse::<Shard>().unwrap(), Shard::new(0, 1).unwrap());
        for bad in [
            "x", "", "3", "3/", "/4", "-1/4", "1/-4", "a/b", "1.5/4", "1/4/5", "+1/4",
        ] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::Syntax(bad.into())),
                "{bad:?}"
            );
        }
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards));
        assert_eq!(
            "5/4".parse::<Shard>(),
            Err(ShardError::OutOfRange {
                index: "5".to_string(),
                count: 4
            })
        );
        assert_eq!("4/4".parse::<Shard>().unwrap_err().to_string(), {
            "there is no shard 4/4: shards are numbered from 0, so the 4 shards are 0/4 to 3/4"
        });
        assert!(matches!(
            "1/99999999999999999999".parse::<Shard>(),
            Err(ShardError::TooMany(_))
        ));
        assert!(matches!(
            format!("0/{}", MAX_SHARDS + 1).parse::<Shard>(),
            Err(ShardError::TooMany(_))
        ));
        // Numbers past u32 are shown as written, not as u32::MAX.
        assert_eq!(
            "0/4294967296".parse::<Shard>().unwrap_err().to_string(),
            "4294967296 shards is too many (at most 65536)"
        );
        assert_eq!(
            "099999999999999999999/4"
                .parse::<Shard>()
                .unwrap_err()
                .to_string(),
            "there is no shard 99999999999999999999/4: shards are numbered from 0, so the 4 shards are 0/4 to 3/4"
        );
        assert_eq!(
            "99999999999999999999/0".parse::<Shard>(),
            Err(ShardError::NoShards)
        );
    }

    #[test]
    fn deals_every_item_once_and_balances() {
        let sizes: Vec<f64> = (0..1000).map(|i| ((i * 7919) % 97 + 1) as f64).collect();
        let owner = deal(&sizes, 16);
        let mut load = [0.0; 16];
        for (i, &s) in owner.iter().enumerate() {
            load[s as usize] += sizes[i];
        }
        let mean = sizes.iter().sum::<f64>() / 16.0;
        let max = load.iter().cloned().fold(0.0, f64::max);
        assert!(max <= mean * 1.01, "{load:?}");
        assert_eq!(deal(&sizes, 16), owner, "deterministic");
        assert_eq!(deal(&sizes, 1), vec![0; 1000]);
        // More shards than items: some shards stay empty.
        assert_eq!(deal(&[1.0, 2.0], 4), vec![1, 0]);
        // Nothing to balance: every empty item goes to the first shard.
        assert_eq!(deal(&[f64::NAN, -1.0, 0.0], 2), vec![0, 0, 0]);
    }
}
