//! Mutation fuzzing of every reader, in process: `cargo run --release --example fuzz_readers
//! -- [INPUTS_PER_READER] [SEED] [READER NAME]` (default 100,000, every reader; the figures in docs/limits.md come from
//! 1,000,000). Prints, per reader, the inputs run, panics, wrong accepted results, inputs over
//! 10 s, the slowest input, and the process's peak memory; exits 1 if anything was found.

#[path = "fuzz/harness.rs"]
mod harness;

use std::time::{Duration, Instant};

/// Peak resident memory of this process (VmHWM), in MiB, where /proc tells.
fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let only = args.next();
    // Panics are counted, not printed one by one.
    std::panic::set_hook(Box::new(|_| {}));
    let mut bad = false;
    println!("| reader | inputs | panics | wrong results | over 10 s | slowest | seconds |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for reader in harness::readers() {
        if only.as_deref().is_some_and(|o| o != reader.name) {
            continue;
        }
        let start = Instant::now();
        let f = harness::run(&reader, n, seed, Duration::from_secs(10));
        println!(
            "| {} | {} | {} | {} | {} | {:.1} ms | {:.0} |",
            reader.name,
            f.inputs,
            f.panics.len(),
            f.wrong.len(),
            f.slow.len(),
            f.slowest.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64()
        );
        for p in f.panics.iter().take(3) {
            eprintln!("panic on input: {p:?}");
        }
        for w in f.wrong.iter().take(3) {
            eprintln!("wrong: {w}");
        }
        bad |= !f.panics.is_empty() || !f.wrong.is_empty() || !f.slow.is_empty();
    }
    if let Some(m) = peak_mib() {
        println!("\npeak memory of the process: {m:.1} MiB");
    }
    std::process::exit(i32::from(bad));
}
