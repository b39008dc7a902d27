//! The kernel's typed error: what went wrong at its edge (a malformed model, an option out of
//! range, a bound exceeded, the SAT solver failing), with no knowledge of files or flags.

use std::fmt;

/// Everything a kernel call can fail with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The model breaks one of the invariants [`crate::ExactCover`] documents.
    #[error("invalid exact-cover model: {0}")]
    InvalidModel(String),
    /// A list of options is not an exact cover of the model (an engine or a caller handed in
    /// a wrong solution); the text says which item or option is at fault.
    #[error("not an exact cover: {0}")]
    NotACover(String),
    /// A forced or excluded option that the model does not have.
    #[error("option {option} is out of range ({options} options)")]
    OptionOutOfRange {
        /// The option asked for.
        option: u32,
        /// How many options the model has.
        options: usize,
    },
    /// A request over one of the kernel's bounds (checked before anything is allocated).
    #[error("{asked} {what} is too many (at most {max})")]
    TooMany {
        /// What was asked for, plural ("cubes", "threads").
        what: &'static str,
        /// How many were asked for.
        asked: usize,
        /// The bound.
        max: usize,
    },
    /// A model whose engine tables would take more memory than the engine allows; refused
    /// before anything is allocated.
    #[error("the {what} would take {} MiB, more than the {} MiB allowed", bytes >> 20, max >> 20)]
    TooLarge {
        /// What would be built ("exact engine's tables").
        what: &'static str,
        /// The estimate, in bytes.
        bytes: u64,
        /// The bound, in bytes.
        max: u64,
    },
    /// A name that is not one of the accepted values.
    #[error("unknown {what} {name:?}; expected one of {expected}")]
    UnknownName {
        /// What kind of value ("at-most-one encoding").
        what: &'static str,
        /// The name given.
        name: String,
        /// The accepted names, comma-separated.
        expected: String,
    },
    /// The engine cannot answer this kind of query.
    #[error("the {engine} engine cannot {what}")]
    Unsupported {
        /// The engine ("dlx").
        engine: &'static str,
        /// What it was asked ("run a shard of a search").
        what: &'static str,
    },
    /// A count past `u64::MAX` (the memoized engine's sums are checked, not saturated).
    #[error("the {what} overflows 64 bits")]
    Overflow {
        /// What overflowed ("count").
        what: &'static str,
    },
    /// A compiled body of an engine that needs CPU features this CPU lacks.
    #[error("{what} needs {missing}, which this CPU lacks")]
    CpuLacks {
        /// What was asked for ("the avx512 leaf search").
        what: String,
        /// The features it lacks, comma-separated.
        missing: String,
    },
    /// The SAT solver failed.
    #[error("varisat failed: {0}")]
    Solver(String),
    /// Worker threads could not be started.
    #[error("cannot start worker threads")]
    Threads(#[source] std::io::Error),
    /// A broken internal invariant: a bug in cubesat-xc, never bad input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub(crate) fn internal(what: impl fmt::Display) -> Error {
        Error::Internal(what.to_string())
    }
}

/// The kernel's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Returns [`Error::InvalidModel`] with a formatted message unless the condition holds.
macro_rules! ensure_model {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err($crate::Error::InvalidModel(format!($($arg)+)));
        }
    };
}

/// Returns [`Error::NotACover`] with a formatted message unless the condition holds.
macro_rules! ensure_cover {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err($crate::Error::NotACover(format!($($arg)+)));
        }
    };
}

pub(crate) use {ensure_cover, ensure_model};
