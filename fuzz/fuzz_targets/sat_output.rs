//! cargo-fuzz target: the "SAT solver output" reader (see examples/fuzz/harness.rs).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check("SAT solver output", data));
