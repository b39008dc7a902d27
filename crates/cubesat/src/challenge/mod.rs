//! Challenge sets (`cubesat generate --set`): the graded, unique, symmetry-distinct challenges ([`set`]).

pub mod set;

pub use set::{ChallengeSet, SetOptions, make_set};
