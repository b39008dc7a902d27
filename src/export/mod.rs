//! Exporting instances: DIMACS CNF for external SAT solvers and model counters.

pub mod dimacs;
