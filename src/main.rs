//! The cubesat command line (in progress).
fn main() {}
