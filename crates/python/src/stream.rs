//! The solutions iterator: a listing run on a thread of its own hands each verified solution
//! through a small bounded channel (so a slow consumer holds the search back rather than
//! piling solutions up), and `__next__` waits for the next one off the GIL, watching for
//! signals; an iterator dropped or interrupted stops its run.

use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use cubesat::run::{self, Instance, RunOptions, RunReport};
use cubesat::solution::Solution;
use cubesat_xc::Progress;
use pyo3::prelude::*;

use crate::errors::{OrRaise, refused};
use crate::wait::POLL;

/// Solutions waiting for the consumer.
const QUEUE: usize = 64;

/// The listing's end: its report, or its error.
type Ending = JoinHandle<cubesat::Result<RunReport>>;

/// An iterator of solutions, each its placements (option indices).
#[pyclass(module = "cubesat._native")]
pub struct SolutionStream {
    instance: Arc<Instance>,
    up_to: cubesat::UpTo,
    progress: Arc<Progress>,
    solutions: Mutex<Option<Receiver<Vec<u32>>>>,
    worker: Mutex<Option<Ending>>,
    report: Mutex<Option<String>>,
}

impl SolutionStream {
    /// Starts the listing of `opts` on `instance`.
    pub fn start(instance: Arc<Instance>, opts: RunOptions) -> SolutionStream {
        let progress = Arc::new(Progress::new());
        let (tx, rx) = sync_channel::<Vec<u32>>(QUEUE);
        let opts = RunOptions {
            progress: Some(progress.clone()),
            ..opts
        };
        let up_to = opts.up_to;
        let inst = instance.clone();
        let worker = std::thread::spawn(move || {
            run::list(&inst, &opts, |s: &Solution| {
                tx.send(s.placements.clone()).is_ok()
            })
        });
        SolutionStream {
            instance,
            up_to,
            progress,
            solutions: Mutex::new(Some(rx)),
            worker: Mutex::new(Some(worker)),
            report: Mutex::new(None),
        }
    }

    /// The run's live counters and interrupt.
    pub fn progress(&self) -> &Arc<Progress> {
        &self.progress
    }

    /// Stops the run: its next solution finds no consumer, and its engine the interrupt.
    fn stop(&self) {
        self.progress.interrupt();
        if let Ok(mut rx) = self.solutions.lock() {
            rx.take();
        }
    }

    /// The run ended: its report kept, or its error raised. A run stopped from outside
    /// (`stopped`: closed, dropped, a signal) reports itself interrupted, since its count is
    /// then only what it found so far.
    fn finish(&self, stopped: bool, signal: bool) -> PyResult<()> {
        let worker = self.worker.lock().ok().and_then(|mut w| w.take());
        if let Some(w) = worker {
            let mut report = match w.join() {
                Ok(r) => r.or_raise()?,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            report.interrupted |= stopped;
            let json = crate::summary::report_json(&report, self.up_to, &self.instance, signal);
            if let Ok(mut r) = self.report.lock() {
                *r = Some(json);
            }
        }
        Ok(())
    }
}

#[pymethods]
impl SolutionStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<u32>>> {
        loop {
            let got = py.detach(|| {
                let rx = self
                    .solutions
                    .lock()
                    .map_err(|_| refused("the solutions iterator was broken by a panic"))?;
                Ok::<_, PyErr>(match rx.as_ref() {
                    Some(rx) => rx.recv_timeout(POLL),
                    None => Err(RecvTimeoutError::Disconnected),
                })
            })?;
            match got {
                Ok(s) => return Ok(Some(s)),
                Err(RecvTimeoutError::Disconnected) => {
                    self.finish(false, false)?;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        self.stop();
                        py.detach(|| self.finish(true, true))?;
                        return Err(signal);
                    }
                }
            }
        }
    }

    /// Stops the run (a `for` loop left early need not call it: dropping the iterator does).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.stop();
        py.detach(|| self.finish(true, false))
    }

    /// The run's report as JSON once the iterator is exhausted or closed, else `None`.
    fn report_json(&self) -> Option<String> {
        self.report.lock().ok().and_then(|r| r.clone())
    }
}

impl Drop for SolutionStream {
    fn drop(&mut self) {
        self.stop();
    }
}
