//! The `Puzzle` class of the native module: one validated puzzle and its placements, with the
//! runs the library's plan resolves (count, estimate, generate, disassemble), its exports and
//! its pictures. The Python package (`cubesat/__init__.py`) wraps it in friendlier types.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use cubesat::disassembly::solutions::{self, Options as AnalysisOptions};
use cubesat::disassembly::stream::{self, Found};
use cubesat::disassembly::{MAX_ASKED_STATES, Mode, Order};
use cubesat::estimate as est;
use cubesat::generate::{GenerateOptions, generate_with};
use cubesat::interop::export::{Export, ExportFormat};
use cubesat::plan::{
    DisassemblyPlan, DisassemblySettings, EstimateSettings, ExportSettings, Settings, Task,
};
use cubesat::puzzle::{self, PuzzleFile};
use cubesat::render::ScenePlan;
use cubesat::run::{self, EngineChoice, Instance};
use cubesat::solution::Solution;
use cubesat::{Puzzle, UpTo, render, report};
use cubesat_xc::Progress;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::json;

use crate::errors::{OrRaise, library, refused};
use crate::stream::SolutionStream;
use crate::summary::report_json;
use crate::wait::{Stop, watched};

/// A puzzle and, once a run needs them, its placements and exact-cover model.
#[pyclass(frozen, module = "cubesat._native", name = "Puzzle")]
pub struct PyPuzzle {
    puzzle: Puzzle,
    instance: OnceLock<Arc<Instance>>,
}

impl PyPuzzle {
    fn new(puzzle: Puzzle) -> PyPuzzle {
        PyPuzzle {
            puzzle,
            instance: OnceLock::new(),
        }
    }

    /// The placements and model, built at the first call (off the GIL: a large puzzle's take
    /// a while).
    pub fn instance(&self, py: Python<'_>) -> PyResult<Arc<Instance>> {
        if let Some(i) = self.instance.get() {
            return Ok(i.clone());
        }
        let built = py
            .detach(|| Instance::new(self.puzzle.clone()))
            .or_raise()?;
        Ok(self.instance.get_or_init(|| Arc::new(built)).clone())
    }

    /// The run plan of a disassembly (the settings the command line's `disassemble` takes).
    fn disassembly_plan(
        &self,
        up_to: Option<&str>,
        limit: Option<u64>,
        disassembler: Option<&str>,
        max_states: Option<u64>,
        threads: usize,
    ) -> PyResult<DisassemblyPlan> {
        let mode = disassembler
            .map(|d| d.parse::<Mode>())
            .transpose()
            .or_raise()?;
        if let Some(m) = max_states.filter(|&m| m == 0 || m > MAX_ASKED_STATES) {
            return Err(refused(format!(
                "max_states: {m} is out of bounds (1 to {MAX_ASKED_STATES})"
            )));
        }
        settings(Task::List, up_to, "auto", threads, limit)?
            .resolve_disassembly(
                &self.puzzle,
                &DisassemblySettings {
                    mode,
                    max_states,
                    min_level: None,
                    order: Order::Found,
                },
            )
            .map_err(refused)
    }
}

/// A piece for Python: name, letter, fewest copies, most copies, cells.
type PieceRow = (String, String, u32, u32, Vec<[i32; 3]>);

/// A run's settings as the command line and the studio give them to the plan.
fn settings(
    task: Task,
    mode: Option<&str>,
    engine: &str,
    threads: usize,
    limit: Option<u64>,
) -> PyResult<Settings> {
    if limit == Some(0) {
        return Err(refused("limit: must be at least 1"));
    }
    // Several modes, separated by commas, share one search in a count (the plan refuses
    // them elsewhere).
    let (first, also) = match mode.map(UpTo::parse_list).transpose().or_raise()? {
        Some((first, also)) => (Some(first), also),
        None => (None, Vec::new()),
    };
    Ok(Settings {
        task,
        limit,
        up_to: first,
        also_up_to: also,
        engine: engine.parse::<EngineChoice>().or_raise()?,
        threads,
        ..Settings::default()
    })
}

#[pymethods]
impl PyPuzzle {
    /// The puzzle's name.
    #[getter]
    fn name(&self) -> &str {
        &self.puzzle.name
    }

    /// The puzzle's description.
    #[getter]
    fn description(&self) -> &str {
        &self.puzzle.description
    }

    /// The grid's name (`cube`, `sphere`, `prism`, ...).
    #[getter]
    fn grid(&self) -> &'static str {
        self.puzzle.grid.name()
    }

    /// Whether pieces may be placed mirrored.
    #[getter]
    fn mirror(&self) -> bool {
        self.puzzle.mirror
    }

    /// The counting mode a count uses when none is given.
    #[getter]
    fn default_up_to(&self) -> String {
        cubesat::plan::counting_mode(None, &self.puzzle).to_string()
    }

    /// Each piece as (name, letter, fewest copies, most copies, cells).
    #[getter]
    fn pieces(&self) -> Vec<PieceRow> {
        self.puzzle
            .pieces
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.letter.to_string(),
                    p.min_count,
                    p.count,
                    p.shape.cells().to_vec(),
                )
            })
            .collect()
    }

    /// The target's cells in order, each as (x, y, z, optional), in global coordinates
    /// (several containers lie side by side along x).
    #[getter]
    fn cells(&self) -> Vec<(i32, i32, i32, bool)> {
        self.puzzle
            .target
            .cells()
            .iter()
            .map(|c| (c.pos[0], c.pos[1], c.pos[2], c.optional))
            .collect()
    }

    /// The known counts as JSON: `all`, `rotation`, `rotation+reflection` (null when not
    /// recorded), `source`.
    fn known_counts_json(&self) -> String {
        let k = &self.puzzle.known_counts;
        json!({
            "none": k.all,
            "rotation": k.rotation,
            "rotation+reflection": k.rotation_reflection,
            "source": k.source,
        })
        .to_string()
    }

    /// What the reader noticed and ignored.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.puzzle.notes.clone()
    }

    /// The puzzle as a cubesat JSON file.
    fn to_json(&self) -> String {
        cubesat::puzzle::json::to_file_string(&self.puzzle)
    }

    /// The number of placements.
    fn placement_count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.instance(py)?.table.len())
    }

    /// Placement `o` as (piece index, orientation index, cells as (x, y, z)).
    fn placement(&self, py: Python<'_>, o: usize) -> PyResult<(u32, u32, Vec<[i32; 3]>)> {
        let inst = self.instance(py)?;
        let p = inst
            .table
            .placements()
            .get(o)
            .ok_or_else(|| PyIndexError::new_err(format!("placement {o} is out of range")))?;
        let cells = inst.puzzle.target.cells();
        Ok((
            p.piece,
            p.orientation,
            p.cells.iter().map(|&c| cells[c as usize].pos).collect(),
        ))
    }

    /// For the solution of these placements, the piece index on each target cell (in the
    /// order of `cells`), -1 on a cell left empty.
    fn cell_pieces(&self, py: Python<'_>, placements: Vec<u32>) -> PyResult<Vec<i32>> {
        let inst = self.instance(py)?;
        let mut out = vec![-1i32; inst.puzzle.target.cells().len()];
        for &o in &placements {
            let p =
                inst.table.placements().get(o as usize).ok_or_else(|| {
                    PyIndexError::new_err(format!("placement {o} is out of range"))
                })?;
            for &c in &p.cells {
                out[c as usize] = p.piece as i32;
            }
        }
        Ok(out)
    }

    /// Checks these placements with the independent verifier.
    fn verify(&self, py: Python<'_>, placements: Vec<u32>) -> PyResult<()> {
        let inst = self.instance(py)?;
        inst.verifier().verify(&placements).or_raise()
    }

    /// Counts the solutions: the run plan's settings, the run on the engines' threads off the
    /// GIL, stopped by a signal with the count so far. Returns the report as JSON.
    /// `max_memory`: the memo engine's cache bound, a size as `--max-memory` takes it.
    #[pyo3(signature = (up_to=None, engine="auto", threads=0, limit=None, stop=None, max_memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        up_to: Option<&str>,
        engine: &str,
        threads: usize,
        limit: Option<u64>,
        stop: Option<&Stop>,
        max_memory: Option<&str>,
    ) -> PyResult<String> {
        let memory = max_memory
            .map(cubesat::plan::parse_bytes)
            .transpose()
            .map_err(refused)?;
        let plan = Settings {
            memory,
            ..settings(Task::Count, up_to, engine, threads, limit)?
        }
        .resolve(&self.puzzle)
        .map_err(refused)?;
        let inst = self.instance(py)?;
        let progress = Arc::new(Progress::new());
        if let Some(s) = stop {
            s.watch(&progress);
        }
        let opts = run::RunOptions {
            progress: Some(progress.clone()),
            ..plan.options
        };
        let done = watched(py, &progress, || run::count(&inst, &opts));
        let report = done.value.or_raise()?;
        Ok(report_json(
            &report,
            opts.up_to,
            &inst,
            done.signal.is_some(),
        ))
    }

    /// Lists the solutions lazily: an iterator of placement lists, fed by a run on its own
    /// thread.
    #[pyo3(signature = (up_to=None, engine="auto", threads=0, limit=None, stop=None))]
    fn solutions(
        &self,
        py: Python<'_>,
        up_to: Option<&str>,
        engine: &str,
        threads: usize,
        limit: Option<u64>,
        stop: Option<&Stop>,
    ) -> PyResult<SolutionStream> {
        let plan = settings(Task::List, up_to, engine, threads, limit)?
            .resolve(&self.puzzle)
            .map_err(refused)?;
        let stream = SolutionStream::start(self.instance(py)?, plan.options);
        if let Some(s) = stop {
            s.watch(stream.progress());
        }
        Ok(stream)
    }

    /// Estimates what a full count costs (the exact engine's tree sampled for `seconds` or
    /// `samples` probes). Returns (the estimate as JSON, its text).
    #[pyo3(signature = (up_to=None, seconds=None, samples=None, seed=0))]
    fn estimate(
        &self,
        py: Python<'_>,
        up_to: Option<&str>,
        seconds: Option<f64>,
        samples: Option<u64>,
        seed: u64,
    ) -> PyResult<(String, String)> {
        let estimate = EstimateSettings {
            samples,
            seconds,
            seed,
            ..EstimateSettings::default()
        };
        let plan = settings(Task::Count, up_to, "exact", 1, None)?
            .resolve_estimate(&self.puzzle, &estimate)
            .map_err(refused)?;
        let inst = self.instance(py)?;
        let progress = Arc::new(Progress::new());
        let done = watched(py, &progress, || {
            est::estimate_with(&inst, &plan.count, &plan.probes, Some(&progress))
        });
        if let Some(signal) = done.signal {
            return Err(signal);
        }
        let e = done.value.or_raise()?;
        let mode = plan.count.up_to;
        let file = self.puzzle.name.clone();
        Ok((
            est::to_json(&e, mode, None, None).to_string(),
            est::text(&e, mode, None, None, &file),
        ))
    }

    /// Generates a puzzle from this one: `hints` hint pieces of a seeded solution, with one
    /// completion when `unique`. Returns (the puzzle, its solution's placements, the report as
    /// JSON, the report's line).
    #[pyo3(signature = (hints=0, seed=0, unique=false))]
    fn generate(
        &self,
        py: Python<'_>,
        hints: usize,
        seed: u64,
        unique: bool,
    ) -> PyResult<(PyPuzzle, Vec<u32>, String, String)> {
        let opts = GenerateOptions {
            hints,
            seed,
            unique,
            ..GenerateOptions::default()
        };
        let progress = Arc::new(Progress::new());
        let done = watched(py, &progress, || {
            generate_with(self.puzzle.clone(), &opts, Some(progress.clone()))
        });
        if let Some(signal) = done.signal {
            return Err(signal);
        }
        match done.value.or_raise()? {
            Ok(g) => {
                let line = format!(
                    "generated '{}': {} from seeded solution {}; {}; difficulty {} nodes to the first solution",
                    g.instance.puzzle.name,
                    report::plural(hints as u64, "hint piece"),
                    g.solution_index,
                    g.completions.describe(),
                    g.difficulty
                );
                let report = g.report_json(&opts).to_string();
                let g = *g;
                let out = PyPuzzle {
                    puzzle: g.instance.puzzle.clone(),
                    instance: OnceLock::new(),
                };
                let _ = out.instance.set(Arc::new(g.instance));
                Ok((out, g.solution, report, line))
            }
            Err((failure, _)) => Err(refused(format!("no puzzle: {}", failure.describe()))),
        }
    }

    /// Takes the solutions apart: every assembly the run plan's search finds (at most `limit`
    /// that come apart), each analysed by the `disassembler` (`complete` or `burrtools`;
    /// `None` takes the puzzle's). Returns (each assembly as (placements, level or None,
    /// moves), the run's summary as JSON).
    #[pyo3(signature = (up_to=None, limit=None, disassembler=None, max_states=None, threads=0, stop=None))]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn disassemble(
        &self,
        py: Python<'_>,
        up_to: Option<&str>,
        limit: Option<u64>,
        disassembler: Option<&str>,
        max_states: Option<u64>,
        threads: usize,
        stop: Option<&Stop>,
    ) -> PyResult<(Vec<(Vec<u32>, Option<String>, usize)>, String)> {
        let progress = Arc::new(Progress::new());
        if let Some(s) = stop {
            s.watch(&progress);
        }
        let plan = self
            .disassembly_plan(up_to, limit, disassembler, max_states, threads)?
            .with_progress(progress.clone());
        let inst = self.instance(py)?;
        let mut kept = Vec::new();
        let done = watched(py, &progress, || {
            stream::stream_every(&inst, &plan, |f: Found| {
                kept.push((
                    f.solution.placements,
                    f.analysis.level(),
                    f.analysis.moves(),
                ));
                true
            })
        });
        let streamed = done.value.map_err(|e| library(e.into()))?;
        let t = &streamed.tally;
        let summary = json!({
            "assemblies": t.assemblies,
            "apart": streamed.found,
            "states": t.states,
            "disassembler": plan.analysis.mode.to_string(),
            "interrupted": t.interrupted,
            "signal": done.signal.is_some(),
            "limited": streamed.limited,
            "seconds": t.elapsed.as_secs_f64(),
            "meaning": streamed.report.description,
        });
        Ok((kept, summary.to_string()))
    }

    /// One solution taken apart and drawn: the 3D page with its plan animated (as
    /// `cubesat disassemble --format html` draws it), titled with its level.
    #[pyo3(signature = (placements, title, disassembler=None, max_states=None))]
    fn disassembly_page(
        &self,
        py: Python<'_>,
        placements: Vec<u32>,
        title: &str,
        disassembler: Option<&str>,
        max_states: Option<u64>,
    ) -> PyResult<String> {
        let plan = self.disassembly_plan(None, None, disassembler, max_states, 1)?;
        let inst = self.instance(py)?;
        inst.verifier().verify(&placements).or_raise()?;
        let solution = Solution { placements };
        let opts = AnalysisOptions {
            threads: 1,
            progress: None,
            ..plan.analysis
        };
        let batch = py
            .detach(|| solutions::analyse(&inst, std::slice::from_ref(&solution), &opts))
            .map_err(refused)?;
        let a = batch
            .analyses
            .into_iter()
            .next()
            .ok_or_else(|| refused("the analysis of the solution was stopped"))?;
        let words = match a.level() {
            Some(l) => format!("level {l}, {}", report::plural(a.moves() as u64, "move")),
            None => "does not come apart".to_string(),
        };
        let title = format!("{title} ({words})");
        let scene = report::scene(
            &inst.puzzle,
            &inst.table,
            &solution.placements,
            &title,
            false,
        );
        let shown = ScenePlan::new(&scene, &a.steps, words);
        Ok(render::html_with_plans(&[scene], &[Some(shown)]))
    }

    /// The puzzle exported as `format` (`dimacs`, `dlx`, `asp`, `xmpuzzle`, `placements`), an
    /// instance counting every placement (`none`) or one solution per rotation class.
    #[pyo3(signature = (format, up_to="none", amo=None, projection=None))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        up_to: &str,
        amo: Option<&str>,
        projection: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let format = format.parse::<ExportFormat>().map_err(refused)?;
        let mut export = ExportSettings {
            up_to: up_to.parse::<UpTo>().or_raise()?,
            ..ExportSettings::default()
        };
        if let Some(a) = amo {
            export.amo = a.parse().map_err(refused)?;
        }
        if let Some(p) = projection {
            export.projection = p.parse().map_err(refused)?;
        }
        let puzzle = self.puzzle.clone();
        let bytes = py.detach(|| -> PyResult<Vec<u8>> {
            let e = Export::new(puzzle, format, export).map_err(refused)?;
            let mut out = Vec::new();
            e.write(&mut out, |_| {}).or_raise()?;
            Ok(out)
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The puzzle's sheet as SVG: the target with its hints, and every piece beside it.
    fn sheet_svg(&self, py: Python<'_>) -> PyResult<String> {
        let inst = self.instance(py)?;
        let p = &inst.puzzle;
        let hints = inst.table.hints().to_vec();
        let mut scene = report::sheet_scene(p, &inst.table, &hints, &p.name);
        scene.title = format!("{}: target and pieces", p.name);
        Ok(render::svg(&scene, false))
    }

    /// A solution drawn: `html` (the offline 3D page), `svg` or `text` (layers).
    #[pyo3(signature = (placements, format, title))]
    fn draw(
        &self,
        py: Python<'_>,
        placements: Vec<u32>,
        format: &str,
        title: &str,
    ) -> PyResult<String> {
        let inst = self.instance(py)?;
        if let Some(&o) = placements.iter().find(|&&o| o as usize >= inst.table.len()) {
            return Err(PyIndexError::new_err(format!(
                "placement {o} is out of range"
            )));
        }
        let scene = report::scene(&inst.puzzle, &inst.table, &placements, title, false);
        match format {
            "html" => Ok(render::html(&[scene])),
            "svg" => Ok(render::svg(&scene, false)),
            "text" => Ok(render::text(&scene, false)),
            _ => Err(refused(format!(
                "unknown picture format '{}' (html, svg or text)",
                cubesat::echo::echo(format)
            ))),
        }
    }
}

/// Opens what a user names: an existing file (cubesat JSON or BurrTools), else a bundled or
/// catalog puzzle's name; `problem` selects a BurrTools file's problem.
#[pyfunction]
#[pyo3(signature = (source, problem=None))]
pub fn load(py: Python<'_>, source: &str, problem: Option<&str>) -> PyResult<PyPuzzle> {
    let p = py
        .detach(|| puzzle::open(Some(OsStr::new(source)))?.puzzle(problem))
        .or_raise()?;
    Ok(PyPuzzle::new(p))
}

/// Reads a puzzle from the text of a cubesat JSON file (or a BurrTools file's bytes);
/// `name` names it in messages and, without a `name` key, names the puzzle.
#[pyfunction]
#[pyo3(signature = (data, name, problem=None))]
pub fn parse(data: &[u8], name: &str, problem: Option<&str>) -> PyResult<PyPuzzle> {
    let p = PuzzleFile::parse(data, Path::new(name))
        .and_then(|f| f.puzzle(problem))
        .or_raise()?;
    Ok(PyPuzzle::new(p))
}

/// The names of the bundled puzzles, then the catalog's.
#[pyfunction]
pub fn names() -> Vec<&'static str> {
    puzzle::named().map(|(n, _)| n).collect()
}

/// The names of the bundled puzzles only (`cubesat list`'s first part).
#[pyfunction]
pub fn bundled_names() -> Vec<&'static str> {
    puzzle::BUNDLED.iter().map(|(n, _)| *n).collect()
}
