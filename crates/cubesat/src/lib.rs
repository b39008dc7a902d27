//! cubesat: polycube packing puzzles (the Tetris Cube, Soma, tetracube boxes, pentomino
//! boards, any wooden cube) read, enumerated as exact-cover models, solved, counted exactly up
//! to symmetry, verified, generated, drawn and exchanged with external solvers.
//!
//! The pipeline, one way only (the engines live in the [`cubesat_xc`] kernel):
//!
//! ```text
//! geometry → puzzle (json, bundled) → placements → symmetry → counting
//!          → solution (the verifier) → run (Instance + engines) → disassembly
//!          → generate, render, report, interop
//! ```
//!
//! - [`echo`]: how messages repeat user text (escaped, cut to a line).
//! - [`input`]: any input source read once through a byte bound; UTF-8 and JSON checked
//!   with the place of a fault (a bad byte, a key given twice).
//! - [`geometry`]: cells, the 24 proper rotations (and 24 improper ones), shapes and their
//!   distinct orientations.
//! - [`puzzle`]: a validated puzzle: pieces with counts, a target of one or more containers
//!   with must-fill and optional cells, hints, and a catalog record (published counts with
//!   their sources); [`puzzle::json`] reads and writes the JSON format, [`puzzle::bundled`]
//!   names the bundled puzzles and the catalog's.
//! - [`placements`]: every in-bounds placement, indexed by piece and by cell, and the
//!   exact-cover model built from them.
//! - `symmetry` (internal): the target's self-symmetries acting on placements; [`counting`] turns them
//!   into exact counts up to rotation or rotation and reflection.
//! - [`solution`]: a solution and the independent verifier every printed or counted solution
//!   passes.
//! - [`run`]: an [`Instance`] and the runs that list or count it with a chosen engine;
//!   [`shard`]: the records of a run split into shards, and their exact merge.
//! - [`disassembly`]: whether an assembly comes apart by sliding pieces, its moves and
//!   BurrTools level (and the slide-in order of the 3D page).
//! - [`generate`], [`render`], [`report`] and [`interop`] (DIMACS, DLX, ASP and solver
//!   answers): outputs.
//!
//! ```
//! use cubesat::{Instance, RunOptions, UpTo, puzzle};
//! let soma = Instance::new(puzzle::bundled("soma")?)?;
//! let opts = RunOptions { up_to: UpTo::Rotation, ..RunOptions::default() };
//! assert_eq!(cubesat::run::count(&soma, &opts)?.count, 480);
//! # Ok::<(), cubesat::Error>(())
//! ```

#![warn(missing_docs)]

pub mod challenge;
pub mod counting;
pub mod disassembly;
pub mod echo;
mod error;
pub mod estimate;
pub mod generate;
pub mod geometry;
pub mod input;
pub mod interop;
mod mode;
pub mod placements;
pub mod plan;
pub mod puzzle;
pub mod render;
pub mod report;
pub mod rng;
pub mod run;
pub mod shard;
pub mod solution;
mod symmetry;

pub use counting::UpTo;
pub use error::{Error, Request, Result};
pub use puzzle::Puzzle;
pub use run::{EngineChoice, Instance, RunOptions, RunReport};
pub use solution::Solution;
