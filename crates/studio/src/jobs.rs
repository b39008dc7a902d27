//! The studio's jobs: each solve, count, generation, disassembly or estimate runs on a thread
//! of its own with the library's live counters ([`Progress`]); the page watches it through an
//! event stream or by polling and stops it with the counters' interrupt, and a job nobody
//! watches any more (its page was closed or reloaded) is stopped too.
//!
//! Bounds: at most [`MAX_RUNNING`] jobs run at once (more are refused, not queued); a stopped
//! job gives up its place at once, and at most [`MAX_WINDING`] stopped jobs may still be
//! ending; the last [`MAX_FINISHED`] finished jobs are kept for their solutions and downloads
//! (a listing or a disassembly keeps at most [`adapter::MAX_LISTED`] solutions: it stops
//! there).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cubesat::run::Instance;
use cubesat_xc::Progress;
use serde_json::{Value, json};

use crate::adapter::{self, Action, Download, Failure, Finished, RunRequest, Taken};

/// Jobs running at once; a request for one more is refused until one ends. Each job already
/// uses every core it is given, so more would only share them.
pub const MAX_RUNNING: usize = 4;
/// Finished jobs kept for their solutions and downloads; older ones are dropped.
pub const MAX_FINISHED: usize = 16;
/// A running job that no page has watched for this long is stopped: a page watches a job
/// through its event stream, or, one that never opened one, by polling its state. (A page
/// whose event stream closed went away, whatever else still asks for the job's state.)
pub const UNWATCHED: Duration = Duration::from_secs(5);
/// Stopped jobs still ending at once (every search and estimate ends within a second of its
/// stop; a puzzle still being prepared ends once it is); past it no job starts, so that
/// stopping and starting again cannot pile up threads.
pub const MAX_WINDING: usize = 8;
/// The most solutions a page of a disassembly listing holds.
pub const MAX_PAGE: u64 = 1000;

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
pub enum Busy {
    /// Every place is taken.
    #[error(
        "{MAX_RUNNING} jobs are running, the most the studio runs at once; stop one or wait for it"
    )]
    Running,
    /// Too many stopped jobs are still ending.
    #[error("{MAX_WINDING} stopped jobs are still winding down; wait a moment")]
    Winding,
}

/// One run and what it found.
pub struct Job {
    /// Its number, from 1.
    pub id: u64,
    /// What it does.
    pub action: Action,
    /// The request it runs (a disassembly's solutions are analysed again by it).
    req: RunRequest,
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
    /// A disassembly's verdict on each of `solutions`.
    taken: Vec<Taken>,
    finished: Option<Finished>,
    error: Option<Failure>,
    /// Who stopped it: the user, or the page going away.
    stopped: Option<&'static str>,
    /// Open event streams watching it.
    watchers: usize,
    /// Set once an event stream watched it: polls no longer count as watching.
    streamed: bool,
    /// Since when no page watches it (set at the start: the page has to connect).
    unwatched_since: Option<Instant>,
    /// Where a run that is not a search stands ([`adapter::Keep::note`]).
    note: Option<Value>,
}

impl Jobs {
    /// Starts a job on the puzzle text, unless [`MAX_RUNNING`] are running or
    /// [`MAX_WINDING`] stopped ones are still ending.
    pub fn start(&self, text: String, req: RunRequest) -> Result<Arc<Job>, Busy> {
        let mut t = lock(&self.table);
        let (mut running, mut winding) = (0, 0);
        for j in &t.jobs {
            let inner = lock(&j.inner);
            match (inner.ended, inner.stopped) {
                (Some(_), _) => {}
                (None, None) => running += 1,
                (None, Some(_)) => winding += 1,
            }
        }
        if running >= MAX_RUNNING {
            return Err(Busy::Running);
        }
        if winding >= MAX_WINDING {
            return Err(Busy::Winding);
        }
        t.next += 1;
        let now = Instant::now();
        let job = Arc::new(Job {
            id: t.next,
            action: req.action,
            req: req.clone(),
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
    fn analysed(&mut self, placements: &[u32], taken: Taken) -> bool {
        let mut inner = lock(&self.0.inner);
        inner.solutions.push(placements.to_vec());
        inner.taken.push(taken);
        true
    }
    fn note(&mut self, note: Value) {
        lock(&self.0.inner).note = Some(note);
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

    /// Notes that a page polled the job's state: for a job no event stream ever watched,
    /// unwatched time starts again.
    pub fn touch(&self) {
        let mut inner = lock(&self.inner);
        if !inner.streamed && inner.unwatched_since.is_some() {
            inner.unwatched_since = Some(Instant::now());
        }
    }

    /// Marks the job watched until the returned value is dropped.
    pub fn watch(self: &Arc<Self>) -> Watch {
        let mut inner = lock(&self.inner);
        inner.watchers += 1;
        inner.streamed = true;
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

    /// The job as the page sees it: state, live counters (for a search, the time left as the
    /// command line's progress line says it), and the result once it ended.
    pub fn status(&self) -> Value {
        let inner = lock(&self.inner);
        let state = match (&inner.ended, &inner.error) {
            (None, _) => "running",
            (Some(_), Some(_)) => "failed",
            (Some(_), None) => "done",
        };
        let elapsed = inner.ended.unwrap_or_else(|| self.started.elapsed());
        let tree = self.action.searches_a_tree();
        let live = tree && inner.ended.is_none();
        let found = match self.action {
            Action::Disassemble => inner.taken.iter().filter(|t| t.apart()).count() as u64,
            _ if tree => self.progress.solutions(),
            _ => 0,
        };
        json!({
            "id": self.id,
            "action": self.action.name(),
            "state": state,
            "seconds": elapsed.as_secs_f64(),
            "nodes": self.progress.nodes(),
            "found": found,
            "fraction": if tree { self.progress.fraction_done() } else { 0.0 },
            "eta": live.then(|| cubesat::estimate::eta(&self.progress, elapsed)),
            "progress_line": live.then(|| {
                cubesat::estimate::progress_line(&self.progress, elapsed, self.action.name())
            }),
            "kept": inner.solutions.len(),
            "note": inner.note,
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

    /// Solution `n` for the browser; a disassembly's with its plan (analysed again) and the
    /// 3D page that animates it.
    pub fn solution_view(&self, n: u64) -> Result<Value, Failure> {
        let (inst, s) = self.solution(n)?;
        let mut v = adapter::solution_view(&inst, &s, n);
        v["kept"] = json!(lock(&self.inner).solutions.len());
        if self.action == Action::Disassemble {
            let d = adapter::disassembly_view(&inst, &s, n, &self.req)?;
            v["html"] = d["html"].clone();
            v["disassembly"] = d["disassembly"].clone();
        }
        Ok(v)
    }

    /// A page of a disassembly's solutions: `sort` by level (hardest first) or as found,
    /// only those that come apart with `apart`, `count` from `offset`.
    pub fn disassembly(
        &self,
        by_level: bool,
        apart: bool,
        offset: u64,
        count: u64,
    ) -> Result<Value, Failure> {
        if self.action != Action::Disassemble {
            return Err(Failure::new(format!(
                "job {} is a {}, not a disassembly",
                self.id,
                self.action.name()
            )));
        }
        let inner = lock(&self.inner);
        let mut rows: Vec<(usize, &Taken)> = inner
            .taken
            .iter()
            .enumerate()
            .filter(|(_, t)| !apart || t.apart())
            .collect();
        if by_level {
            // Hardest first: the level number by number, then the moves; ties as found.
            rows.sort_by(|a, b| (&b.1.rank, b.1.moves).cmp(&(&a.1.rank, a.1.moves)));
        }
        let page: Vec<Value> = rows
            .iter()
            .skip(offset as usize)
            .take(count as usize)
            .map(|(i, t)| {
                json!({"n": i + 1, "apart": t.apart(), "level": t.level, "moves": t.moves})
            })
            .collect();
        Ok(json!({
            "total": inner.taken.len(),
            "matching": rows.len(),
            "offset": offset,
            "solutions": page,
        }))
    }

    /// A file the finished job offers (an estimate's `sbatch` and `shards` scripts).
    pub fn attached(&self, format: &str) -> Result<Download, Failure> {
        let inner = lock(&self.inner);
        let offered = inner.finished.as_ref().map_or(&[][..], |f| &f.attached[..]);
        offered
            .iter()
            .find(|a| a.format == format)
            .map(adapter::attached_download)
            .ok_or_else(|| {
                let names: Vec<&str> = offered.iter().map(|a| a.format).collect();
                Failure::new(if names.is_empty() {
                    format!("job {} offers no files (an estimate's shard plan of more than one shard does, and a finished challenge set)", self.id)
                } else {
                    format!("job {} offers no '{format}' ({})", self.id, names.join(", "))
                })
            })
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
