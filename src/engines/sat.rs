//! The varisat SAT engine (in progress).
