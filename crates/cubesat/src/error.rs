//! The domain library's typed error: what went wrong (a file, malformed input and where in it,
//! a request the puzzle does not support, a solution that fails verification, the kernel),
//! carrying the file and the place (JSON path, line) as fields; messages name no command-line
//! flags, which belong to the binary.

use std::fmt;

/// Everything a call into the library can fail with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {what}")]
    Io {
        /// The file.
        path: String,
        /// What was being done ("cannot read").
        what: &'static str,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// Malformed or inconsistent input: a puzzle file, an exported instance, a solver's
    /// answer, saved solutions.
    #[error("{}", Located { file: file.as_deref(), place, message })]
    Input {
        /// The file, when the input came from one.
        file: Option<String>,
        /// Where in it: a JSON path (`pieces[3].cells[0]`), `line 12`; empty when the input
        /// as a whole is at fault.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A request the puzzle does not support or that exceeds a bound: a counting mode, more
    /// hints than pieces, too many placements.
    #[error("{message}")]
    Unsupported {
        /// Which request (the binary maps it to its option).
        request: Request,
        /// Why not.
        message: String,
    },
    /// A puzzle named by neither a file nor a bundled puzzle's name; a front end may add where
    /// its user finds the names.
    #[error("{}", unknown_puzzle(.name, .near))]
    UnknownPuzzle {
        /// The name as typed.
        name: String,
        /// Bundled puzzles whose names contain it (at most five), to suggest.
        near: Vec<String>,
    },
    /// A solution that fails the independent verifier: a bug in an engine, or an external
    /// solver's answer that is not a solution.
    #[error("{0}")]
    Invalid(String),
    /// A broken invariant: a bug in cubesat, never bad input.
    #[error("internal error: {0}")]
    Internal(String),
    /// The exact-cover kernel failed.
    #[error(transparent)]
    Kernel(#[from] cubesat_xc::Error),
    /// Writing an output (a picture, an export) failed.
    #[error("cannot write the output")]
    Write(#[from] std::io::Error),
    /// The caller's progress interrupt stopped a run that has nothing partial to report (a
    /// generation stopped before it made a puzzle).
    #[error("stopped before the run finished")]
    Interrupted,
    /// An error and what was being done when it happened.
    #[error("{context}")]
    Context {
        /// What was being done.
        context: String,
        /// The error.
        #[source]
        source: Box<Error>,
    },
}

/// The request an [`Error::Unsupported`] refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Request {
    /// The counting mode ([`crate::UpTo`]).
    UpTo,
    /// The number of hint pieces to generate.
    Hints,
    /// The size of the instance (placements, cells).
    Size,
    /// An export of the instance.
    Export,
    /// A disassembly analysis (too many states or pieces).
    Disassembly,
    /// The size of a challenge set (`--set`).
    Set,
    /// A challenge set's levels (`--levels`).
    Levels,
}

/// "'NAME' is neither a file nor a bundled puzzle", with the names near it if any.
fn unknown_puzzle(name: &str, near: &[String]) -> String {
    let shown = crate::echo::echo(name);
    match near.is_empty() {
        true => format!("'{shown}' is neither a file nor a bundled puzzle"),
        false => format!(
            "'{shown}' is neither a file nor a bundled puzzle (did you mean {}?)",
            near.join(", ")
        ),
    }
}

/// `FILE: PLACE: MESSAGE`, leaving out what is empty.
struct Located<'a> {
    file: Option<&'a str>,
    place: &'a str,
    message: &'a str,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = self.file {
            write!(f, "{file}: ")?;
        }
        if !self.place.is_empty() {
            write!(f, "{}: ", self.place)?;
        }
        f.write_str(self.message)
    }
}

impl Error {
    /// Malformed input at `place` (empty for the whole input).
    pub(crate) fn input(place: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Input {
            file: None,
            place: place.into(),
            message: message.into(),
        }
    }

    /// A refused request.
    pub(crate) fn unsupported(request: Request, message: impl Into<String>) -> Error {
        Error::Unsupported {
            request,
            message: message.into(),
        }
    }

    /// A file that could not be read.
    pub(crate) fn read(path: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            what: "cannot read",
            source,
        }
    }

    /// This error as coming from `file`: an input error gains the file name, any other is
    /// put in its context.
    pub fn in_file(self, file: impl Into<String>) -> Error {
        match self {
            Error::Input {
                file: None,
                place,
                message,
            } => Error::Input {
                file: Some(file.into()),
                place,
                message,
            },
            e => e.context(file.into()),
        }
    }

    /// This error with what was being done when it happened.
    pub fn context(self, context: impl fmt::Display) -> Error {
        Error::Context {
            context: context.to_string(),
            source: Box::new(self),
        }
    }

    /// The message with its causes on one line, `context: cause: ...` (what the binary
    /// prints).
    pub fn report(&self) -> String {
        let mut out = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }

    /// The innermost error, past every [`Error::Context`].
    pub fn root(&self) -> &Error {
        match self {
            Error::Context { source, .. } => source.root(),
            e => e,
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::input(
            format!("line {}, column {}", e.line(), e.column()),
            e.to_string(),
        )
    }
}

impl From<std::string::FromUtf8Error> for Error {
    fn from(e: std::string::FromUtf8Error) -> Error {
        Error::input("", e.to_string())
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// anyhow-style context on results and options inside the crate.
pub(crate) trait Context<T> {
    /// On error, adds what was being done.
    fn context(self, context: impl fmt::Display) -> Result<T>;
    /// On error, adds what was being done, computed lazily.
    fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T>;
}

impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
    fn context(self, context: impl fmt::Display) -> Result<T> {
        self.map_err(|e| e.into().context(context))
    }
    fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T> {
        self.map_err(|e| e.into().context(f()))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, context: impl fmt::Display) -> Result<T> {
        self.ok_or_else(|| Error::input("", context.to_string()))
    }
    fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T> {
        self.ok_or_else(|| Error::input("", f().to_string()))
    }
}

/// Returns malformed-input [`Error::Input`] for the whole input (no place).
macro_rules! bail {
    ($($arg:tt)+) => {
        return Err($crate::error::Error::input("", format!($($arg)+)))
    };
}

/// [`bail!`] unless the condition holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            $crate::error::bail!($($arg)+);
        }
    };
}

/// Returns [`Error::Input`] at a place (`line 12`, a JSON path).
macro_rules! bail_at {
    ($place:expr, $($arg:tt)+) => {
        return Err($crate::error::Error::input($place.to_string(), format!($($arg)+)))
    };
}

pub(crate) use {bail, bail_at, ensure};
