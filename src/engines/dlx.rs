//! A plain dancing-links search, the baseline (in progress).
