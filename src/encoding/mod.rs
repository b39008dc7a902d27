//! The CNF encoding of the exact-cover model (in progress).
