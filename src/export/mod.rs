//! Exporting instances for external solvers (DIMACS CNF, Knuth's DLX format, clingo programs) and decoding their answers back into verified solutions.
//!
//! Every exported file carries its provenance in comments ([`provenance`]): the puzzle, the
//! counting mode and the excluded placements, so `cubesat decode INSTANCE ANSWER` needs no
//! other file.

pub mod answer;
pub mod asp;
pub mod dimacs;
pub mod dlx;
pub mod provenance;
