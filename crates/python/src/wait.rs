//! Long runs off the GIL: a run goes to a worker thread while the calling thread, holding no
//! GIL, waits for it and every tenth of a second asks Python whether a signal came (Ctrl-C,
//! a notebook's interrupt); at one, the run's progress is interrupted, so its engines stop
//! within their interrupt latency and the run returns what it found so far.

use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use cubesat_xc::Progress;
use pyo3::prelude::*;

/// How often the waiting thread asks Python for signals.
pub const POLL: Duration = Duration::from_millis(100);

/// What a watched run returned, and whether a signal stopped it.
pub struct Watched<T> {
    /// The run's own result (a partial one when a signal stopped it).
    pub value: T,
    /// The exception Python's signal handler raised (KeyboardInterrupt for Ctrl-C), when a
    /// signal stopped the run.
    pub signal: Option<PyErr>,
}

/// Runs `job` on a worker thread without the GIL, so that other Python threads run, and
/// stops it through `progress` when a signal arrives (see the module's documentation).
pub fn watched<T: Send>(
    py: Python<'_>,
    progress: &Arc<Progress>,
    job: impl FnOnce() -> T + Send,
) -> Watched<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            // The worker says it is done on `done` (or drops it, when the job panics), so the
            // wait ends at once rather than at the next poll.
            let (done, finished) = std::sync::mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let value = job();
                let _ = done.send(());
                value
            });
            let mut signal = None;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if signal.is_none()
                    && let Err(e) = Python::attach(|py| py.check_signals())
                {
                    progress.interrupt();
                    signal = Some(e);
                }
            }
            let value = match worker.join() {
                Ok(v) => v,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            Watched { value, signal }
        })
    })
}

/// A stop button for runs on other threads: `set()` interrupts every run given it (now or
/// later), as Ctrl-C does for a run on the main thread.
#[pyclass(frozen, module = "cubesat._native")]
#[derive(Default)]
pub struct Stop {
    state: Mutex<StopState>,
}

#[derive(Default)]
struct StopState {
    set: bool,
    runs: Vec<Weak<Progress>>,
}

impl Stop {
    /// Ties a run's progress to this stop: interrupted at once if the stop is set already.
    pub fn watch(&self, progress: &Arc<Progress>) {
        if let Ok(mut s) = self.state.lock() {
            if s.set {
                progress.interrupt();
            }
            s.runs.retain(|w| w.strong_count() > 0);
            s.runs.push(Arc::downgrade(progress));
        }
    }
}

#[pymethods]
impl Stop {
    #[new]
    fn new() -> Stop {
        Stop::default()
    }

    /// Stops every run given this stop; runs started with it later stop at once.
    fn set(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.set = true;
            for p in s.runs.drain(..).filter_map(|w| w.upgrade()) {
                p.interrupt();
            }
        }
    }

    /// Whether `set()` was called.
    fn is_set(&self) -> bool {
        self.state.lock().map(|s| s.set).unwrap_or(true)
    }
}
