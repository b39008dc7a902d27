//! The varisat SAT engine over an exact-cover model: the public surface of its three parts (one solver, cube and conquer, the engine that cuts a query into cubes).
//!
//! The engine finds a first solution, streams an enumeration with blocking clauses, runs the
//! guarded uniqueness check for the generator, and solves incrementally a list of cubes
//! (subproblems) produced by the exact-cover engine.
//!
//! One solver is built per engine, option variables first (option `o` = variable `o`, see
//! [`crate::encoding::cnf`]). The model's forced options and every query's extra forced and
//! excluded options are assumptions, so the same solver serves any number of queries.
//! Blocking clauses hold the negated chosen option variables only (never auxiliaries) and are
//! guarded by an activation literal per enumeration, which is retired by a unit clause at the
//! end, so one query's blocking clauses never constrain the next. Every model is decoded to a
//! solution and checked with [`crate::ExactCover::check_solution`] before it is reported.
//!
//! [`conquer_cubes`] is the cube-and-conquer path of `--engine sat`: the exact engine first
//! searches each cube within a small node budget ([`Conquer::exact_budget`]; most cubes are
//! a few hundred nodes, cheaper than building any solver), cutting a cube it cannot close one
//! choice deeper while the cube fixes under half a solution ([`Conquer::split_below`]); each
//! cube left becomes its own small residual model ([`crate::ExactCover::residual`]), probed by the
//! lookahead, encoded into a fresh solver and enumerated with blocking clauses; on as many
//! threads as asked, reported in cube order. [`CubeAndConquer`] gives the whole query the
//! same first attempt before it cuts anything. The statistics say how many cubes each method
//! closed.
//!
//! The parts: `solver` holds one varisat solver over a model (encoding, queries, blocking
//! clauses), `conquer` solves a list of cubes, and `engine` is the [`crate::Engine`] that cuts
//! a query into cubes.

mod conquer;
mod engine;
mod solver;

pub use conquer::{Conquer, ConquerStats, conquer_cubes};
pub use engine::{
    CUBES_ENUMERATION, CUBES_ENUMERATION_VARISAT, CUBES_LISTING, CUBES_LISTING_VARISAT,
    CubeAndConquer, DEFAULT_EXACT_BUDGET, MAX_CUBES,
};
pub use solver::{Ended, SatConfig, SatEngine, SatStats};
