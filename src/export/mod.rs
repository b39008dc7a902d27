//! Exporting instances (in progress).
