//! The solving engines: the bitset exact-cover search, the dancing-links baseline and the varisat SAT engine.

pub mod dlx;
pub mod exact;
pub mod sat;
