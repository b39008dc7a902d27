//! Exporting instances (in progress).
//! (in progress)

pub mod answer;
pub mod asp;
pub mod dlx;
pub mod provenance;
