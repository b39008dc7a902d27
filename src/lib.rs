//! cubesat: solve, count and generate 3D polycube packing puzzles.
//!
//! The pipeline, one way only:
//!
//! ```text
//! geometry → puzzle (+ puzzle_json, library) → placements → symmetry → model
//!          → engines (exact, dlx, sat via encoding) → counting → outputs (render, export, decode, generate) → CLI
//! ```
//!
//! - [`geometry`]: cells, the 24 proper rotations (and 24 improper ones), shapes and their
//!   distinct orientations.
//! - [`puzzle`]: a validated puzzle: pieces with counts, a target of one or more containers with
//!   must-fill and optional cells, hints; [`puzzle_json`] reads and writes the JSON format and
//!   [`library`] holds the bundled puzzles.
//! - [`placements`]: every in-bounds placement, indexed by piece and by cell, and the
//!   [`model::ExactCover`] model built from them.
//! - [`symmetry`]: the target's self-symmetries acting on placements; [`counting`] turns them
//!   into exact counts up to rotation or rotation and reflection.
//! - [`solution`]: a solution and the independent verifier every printed or counted solution
//!   passes.
//! - [`engines`]: the exact-cover engines and the varisat SAT engine; [`encoding`]: the CNF
//!   encoding with selectable at-most-one encodings.
//! - [`render`], [`export`], [`decode`], [`generate`]: outputs.

pub mod cli;
pub mod commands;
pub mod counting;
pub mod decode;
pub mod encoding;
pub mod engines;
pub mod export;
pub mod generate;
pub mod geometry;
pub mod library;
pub mod model;
pub mod outputs;
pub mod placements;
pub mod progress;
pub mod puzzle;
pub mod puzzle_json;
pub mod render;
pub mod rng;
pub mod solution;
pub mod solver;
pub mod symmetry;
