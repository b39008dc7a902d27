//! The Python extension module `cubesat._native`: the library's puzzles, runs, exports and
//! pictures for the `cubesat` Python package (`python/cubesat/`), which gives them their
//! Python shape. Every run goes through the library's run plan, as the command line's and
//! the studio's do; long runs release the GIL and stop at Ctrl-C.

mod errors;
mod puzzle;
mod stream;
mod summary;
mod wait;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CubesatError", m.py().get_type::<errors::CubesatError>())?;
    m.add_class::<puzzle::PyPuzzle>()?;
    m.add_class::<stream::SolutionStream>()?;
    m.add_class::<wait::Stop>()?;
    m.add_function(wrap_pyfunction!(puzzle::load, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::parse, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::names, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::bundled_names, m)?)?;
    Ok(())
}
