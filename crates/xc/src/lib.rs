//! cubesat-xc: a puzzle-agnostic exact-cover kernel. It knows items and options, not cubes.
//!
//! - [`ExactCover`]: items covered a bounded number of times (exact, ranged as in Knuth's
//!   DLX3, or at most once: secondary), options, forced options; [`Residual`] subproblems.
//! - [`encoding`]: the CNF encoding of a model, one module per at-most-one encoding.
//! - Engines behind one [`Engine`] trait: [`exact`] (the bitset search, the fast one),
//!   [`dlx`] (plain dancing links, the baseline and oracle), [`memo`] (counting with a
//!   cache of subproblem counts, DXZ) and [`sat`] (varisat with blocking clauses, cube and
//!   conquer).
//! - [`Progress`], [`Subproblem`] and [`worker_threads`]: cancellation, live counters, the
//!   thread count and the split every parallel run, SAT cube list and shard shares.
//! - [`Shard`]: one of N deterministic parts of a search ([`Query::shard`]), for runs spread
//!   over a batch system; [`deal`] balances a split's subtrees over the shards.
//!
//! ```
//! use cubesat_xc::{Engine, ExactCover, Item, Query, exact::ExactEngine};
//! // Cover {a, b, c} exactly once with {a}, {b, c}, {a, b}, {c}: two solutions.
//! let item = |name: &str| Item::exact(name, 1);
//! let model = ExactCover {
//!     items: vec![item("a"), item("b"), item("c")],
//!     options: vec![vec![0], vec![1, 2], vec![0, 1], vec![2]],
//!     ..ExactCover::default()
//! };
//! let engine = ExactEngine::new(&model)?;
//! assert_eq!(engine.count(&Query::default(), &|_| 1)?.total, 2);
//! # Ok::<(), cubesat_xc::Error>(())
//! ```

#![warn(missing_docs)]

mod control;
pub mod cuts;
pub mod encoding;
mod engines;
mod error;
#[cfg(test)]
mod fixtures;
mod model;
mod rng;
mod shard;

pub use control::{MAX_THREADS_PER_CORE, Progress, Subproblem, available_cores, worker_threads};
pub use engines::{Counted, Engine, Query, Stats, add_summary, dlx, exact, memo, sat};
pub use error::{Error, Result};
pub use model::{CellGeometry, ExactCover, Item, Residual};
pub use shard::{MAX_SHARDS, SUBTREES_PER_SHARD, Shard, ShardError, deal};
