//! The exceptions the module raises: `CubesatError` carrying the library's one-line message
//! (the file and place of bad input, a refused setting), and the conversions into it.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    _native,
    CubesatError,
    PyException,
    "A puzzle, a setting or a run that cubesat refuses; the message is the library's one line (the file and the place in it for bad input)."
);

/// A library error as the exception, with its causes on the same line.
pub fn library(e: cubesat::Error) -> PyErr {
    CubesatError::new_err(e.report())
}

/// Any other refusal (the run plan's, an export's) as the exception.
pub fn refused(e: impl std::fmt::Display) -> PyErr {
    CubesatError::new_err(e.to_string())
}

/// `Result<T, cubesat::Error>` into a Python result.
pub trait OrRaise<T> {
    /// The value, or the exception.
    fn or_raise(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for cubesat::Result<T> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(library)
    }
}
