//! The bitset exact-cover engine (in progress).
