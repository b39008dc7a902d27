//! Rendering solutions (in progress).
