//! cargo-fuzz target: the "BurrTools XML" reader (see examples/fuzz/harness.rs).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check("BurrTools XML", data));
