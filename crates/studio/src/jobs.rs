//! The studio's jobs: each solve, count or generation runs on a thread of its own with the
//! library's live counters ([`Progress`]); the page watches it through an event stream and
//! stops it with the counters' interrupt, and a job nobody watches any more (its page was
//! closed or reloaded) is stopped too.
//!
//! Bounds: at most [`MAX_RUNNING`] jobs run at once (more are refused, not queued), and the
//! last [`MAX_FINISHED`] finished jobs are kept for their solutions and downloads (a listing
//! keeps at most [`adapter::MAX_LISTED`] solutions: it stops there).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cubesat::run::Instance;
use cubesat_xc::Progress;
use serde_json::{Value, json};

use crate::adapter::{self, Action, Download, Failure, Finished, RunRequest};

/// Jobs running at once; a request for one more is refused until one ends. Each job already
/// uses every core it is given, so more would only share them.
pub const MAX_RUNNING: usize = 4;
/// Finished jobs kept for their solutions and downloads; older ones are dropped.
pub const MAX_FINISHED: usize = 16;
/// A running job that no page has watched for this long is stopped.
pub const UNWATCHED: Duration = Duration::from_secs(5);

/// Every job of the server.
#[derive(Default)]
pub struct Jobs {
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next: u64,
    jobs: Vec<Arc<Job>>,
}

/// Why a job could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{MAX_RUNNING} jobs are running, the most the studio runs at once; stop one or wait for it"
)]
pub struct Busy;

/// One run and what it found.
pub struct Job {
    /// Its number, from 1.
    pub id: u64,
    /// What it does.
    pub action: Action,
    progress: Arc<Progress>,
    started: Instant,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Set when the run returned (or failed).
    ended: Option<Duration>,
    instance: Option<Arc<Instance>>,
    solutions: Vec<Vec<u32>>,
    finished: Option<Finished>,
    error: Option<Failure>,
    /// Who stopped it: the user, or the page going away.
    stopped: Option<&'static str>,
    /// Open event streams watching it.
    watchers: usize,
    /// Since when no page watches it (set at the start: the page has to connect).
    unwatched_since: Option<Instant>,
}

impl Jobs {
    /// Starts a job on the puzzle text, unless [`MAX_RUNNING`] are running.
    pub fn start(&self, text: String, req: RunRequest) -> Result<Arc<Job>, Busy> {
        let mut t = lock(&self.table);
        if t.jobs.iter().filter(|j| j.is_running()).count() >= MAX_RUNNING {
            return Err(Busy);
        }
        t.next += 1;
        let now = Instant::now();
        let job = Arc::new(Job {
            id: t.next,
            action: req.action,
            progress: Arc::new(Progress::new()),
            started: now,
            inner: Mutex::new(Inner {
                unwatched_since: Some(now),
                ..Inner::default()
            }),
        });
        t.jobs.push(job.clone());
        // Keep the newest finished jobs; running ones always stay.
        let finished = t.jobs.iter().filter(|j| !j.is_running()).count();
        let mut extra = finished.saturating_sub(MAX_FINISHED);
        t.jobs.retain(|j| {
            if extra > 0 && !j.is_running() {
                extra -= 1;
                false
            } else {
                true
            }
        });
        drop(t);
        let worker = job.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("studio-job-{}", job.id))
            .spawn(move || worker.work(text, req));
        if let Err(e) = spawned {
            job.end(Err(Failure::new(format!("cannot start a thread: {e}"))));
        }
        Ok(job)
    }

    /// The job with this id, while it is kept.
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        lock(&self.table).jobs.iter().find(|j| j.id == id).cloned()
    }

    /// Stops every running job that no page has watched for [`UNWATCHED`].
    pub fn reap(&self) {
        let jobs: Vec<Arc<Job>> = lock(&self.table).jobs.clone();
        for j in jobs {
            let forgotten = lock(&j.inner)
                .unwatched_since
                .is_some_and(|t| t.elapsed() >= UNWATCHED);
            if j.is_running() && forgotten {
                j.stop("the page went away");
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside a job is caught where it runs; a poisoned lock still holds valid data.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Holds a job watched while it lives (an open event stream).
pub struct Watch(Arc<Job>);

impl Drop for Watch {
    fn drop(&mut self) {
        let mut inner = lock(&self.0.inner);
        inner.watchers -= 1;
        if inner.watchers == 0 {
            inner.unwatched_since = Some(Instant::now());
        }
    }
}

/// Collects a running job's instance and solutions.
struct Keeper<'a>(&'a Job);

impl adapter::Keep for Keeper<'_> {
    fn instance(&mut self, inst: Arc<Instance>) {
        lock(&self.0.inner).instance = Some(inst);
    }
    fn solution(&mut self, placements: &[u32]) -> bool {
        // A listing stops at adapter::MAX_LISTED, so every solution it reports is kept.
        lock(&self.0.inner).solutions.push(placements.to_vec());
        true
    }
}

impl Job {
    fn work(&self, text: String, req: RunRequest) {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            adapter::run(&text, &req, self.progress.clone(), &mut Keeper(self))
        }));
        self.end(run.unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Failure::new(format!(
                "internal error: the run panicked: {what}"
            )))
        }));
    }

    fn end(&self, r: Result<Finished, Failure>) {
        let mut inner = lock(&self.inner);
        inner.ended = Some(self.started.elapsed());
        match r {
            Ok(f) => inner.finished = Some(f),
            Err(e) => inner.error = Some(e),
        }
    }

    /// True until the run returns.
    pub fn is_running(&self) -> bool {
        lock(&self.inner).ended.is_none()
    }

    /// Marks the job watched until the returned value is dropped.
    pub fn watch(self: &Arc<Self>) -> Watch {
        let mut inner = lock(&self.inner);
        inner.watchers += 1;
        inner.unwatched_since = None;
        Watch(self.clone())
    }

    /// Asks the run to stop soon and report what it has (`why` is shown on the page).
    pub fn stop(&self, why: &'static str) {
        let mut inner = lock(&self.inner);
        if inner.ended.is_none() && inner.stopped.is_none() {
            inner.stopped = Some(why);
        }
        self.progress.interrupt();
    }

    /// The job as the page sees it: state, live counters, and the result once it ended.
    pub fn status(&self) -> Value {
        let inner = lock(&self.inner);
        let state = match (&inner.ended, &inner.error) {
            (None, _) => "running",
            (Some(_), Some(_)) => "failed",
            (Some(_), None) => "done",
        };
        let elapsed = inner.ended.unwrap_or_else(|| self.started.elapsed());
        json!({
            "id": self.id,
            "action": self.action.name(),
            "state": state,
            "seconds": elapsed.as_secs_f64(),
            "nodes": self.progress.nodes(),
            "found": self.progress.solutions(),
            "fraction": self.progress.fraction_done(),
            "kept": inner.solutions.len(),
            "stopped": inner.stopped,
            "result": inner.finished.as_ref().map(|f| f.summary.clone()),
            "error": inner.error.as_ref().map(Failure::to_json),
        })
    }

    /// Solution `n` (from 1) among those kept, with its instance.
    fn solution(&self, n: u64) -> Result<(Arc<Instance>, Vec<u32>), Failure> {
        let inner = lock(&self.inner);
        let kept = inner.solutions.len();
        match (&inner.instance, n.checked_sub(1)) {
            (Some(inst), Some(i)) if (i as usize) < kept => {
                Ok((inst.clone(), inner.solutions[i as usize].clone()))
            }
            _ => Err(Failure::new(format!(
                "job {} has {kept} solutions kept; there is no solution {n}",
                self.id
            ))),
        }
    }

    /// Solution `n` for the browser.
    pub fn solution_view(&self, n: u64) -> Result<Value, Failure> {
        let (inst, s) = self.solution(n)?;
        let mut v = adapter::solution_view(&inst, &s, n);
        v["kept"] = json!(lock(&self.inner).solutions.len());
        Ok(v)
    }

    /// A download of solution `n`.
    pub fn solution_download(&self, n: u64, spec: &Value) -> Result<Download, Failure> {
        let (inst, s) = self.solution(n)?;
        adapter::solution_download(&inst, &s, n, spec)
    }

    /// The kept solutions as JSON Lines, with the summary once the run has finished.
    pub fn jsonl(&self) -> Result<Download, Failure> {
        let inner = lock(&self.inner);
        let inst = inner
            .instance
            .clone()
            .ok_or_else(|| Failure::new(format!("job {} has no solutions yet", self.id)))?;
        let finished = inner
            .finished
            .as_ref()
            .and_then(|f| f.report.clone().map(|r| (r, f.up_to)));
        Ok(adapter::solutions_jsonl(
            inst,
            inner.solutions.clone(),
            finished,
        ))
    }
}
