//! Challenge sets (`cubesat generate --set`): the graded, unique, symmetry-distinct challenges ([`set`]) and the files and printable booklet written for them ([`book`]).

pub mod book;
pub mod set;

pub use set::{ChallengeSet, SetOptions, make_set};
