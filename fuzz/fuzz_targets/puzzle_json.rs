//! cargo-fuzz target: the "puzzle JSON" reader (see examples/fuzz/harness.rs).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check("puzzle JSON", data));
