//! cargo-fuzz target: the "render JSON Lines" reader (see examples/fuzz/harness.rs).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check("render JSON Lines", data));
