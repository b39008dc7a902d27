//! Running a search: live progress counters and cancellation, the thread count, the
//! subproblem a split hands out, and the one ordered parallel scheduler every engine uses.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use crate::error::{Error, Result};

/// Worker threads per available core at most: more only adds switching (and a user typing
/// `--threads 100000` must not start 100,000 OS threads).
pub const MAX_THREADS_PER_CORE: usize = 4;

/// Live counters of a running search, shareable with a progress display (`Arc<Progress>`),
/// and its cancellation flag. Counters accumulate over every query that uses the same value.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    solutions: AtomicU64,
    /// The finished fraction, as `f64` bits: a tree of 10^15 nodes or more finishes dead ends
    /// of weight below any fixed-point step, and their sum must still show.
    done: AtomicU64,
    /// The share of the whole run the queries from now on make up, as `f64` bits; 0 = 1.0.
    share: AtomicU64,
    interrupt: AtomicBool,
    /// Set while an [`Alarm`] waits, so that [`Progress::record`] looks at the clock only then.
    armed: AtomicBool,
    alarm: Mutex<Option<Alarm>>,
    /// Set by an engine whose fraction done grows faster as it goes ([`Progress::accelerates`]).
    accelerates: AtomicBool,
    /// `(seconds, fraction done)` as [`Progress::seconds_left`] saw them, at least
    /// [`PACE_SPACING`] apart in time: a few hundred for a run of days.
    pace: Mutex<Vec<(f64, f64)>>,
}

/// The least ratio between the times of two kept pace samples.
const PACE_SPACING: f64 = 1.05;
/// The steepest growth of the fraction done the time left assumes: a burst of subtrees
/// finished at once must not promise an instant end.
const MAX_PACE_EXPONENT: f64 = 8.0;

/// A call [`Progress::call_at`] set up: when, and what.
struct Alarm {
    at: Instant,
    call: Box<dyn FnOnce() + Send>,
}

impl std::fmt::Debug for Alarm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Alarm")
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

impl Progress {
    /// Fresh counters, not interrupted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Search nodes visited so far (published every few thousand nodes).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }

    /// Knuth's estimate of the finished fraction of the search tree, in `0.0..=1.0`: every
    /// node weighs the product of `1/choices` along its path, and every dead end or solution
    /// adds its weight.
    pub fn fraction_done(&self) -> f64 {
        f64::from_bits(self.done.load(Ordering::Relaxed)).min(1.0)
    }

    /// Asks every search using this value to stop soon and return what it has counted.
    pub fn interrupt(&self) {
        self.interrupt.store(true, Ordering::Relaxed);
    }

    /// True once [`Progress::interrupt`] was called.
    pub fn is_interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Calls `call` once, on the thread that records counters, at the first
    /// [`Progress::record`] at or after `at`; replaces an alarm not yet rung. A front end
    /// starts its progress display this way once a run has lasted long enough to need one,
    /// rather than starting a thread for every run: most runs end in milliseconds, and a
    /// thread's start and end cost a short run a tenth of its time. Engines record every few
    /// thousand nodes; an engine that records rarely (a SAT call without cubes) rings late.
    pub fn call_at(&self, at: Instant, call: impl FnOnce() + Send + 'static) {
        if let Ok(mut g) = self.alarm.lock() {
            *g = Some(Alarm {
                at,
                call: Box::new(call),
            });
            self.armed.store(true, Ordering::Release);
        }
    }

    /// Rings the alarm if it is due.
    #[cold]
    fn ring(&self) {
        let due = {
            let Ok(mut g) = self.alarm.lock() else { return };
            match g.as_ref() {
                Some(a) if Instant::now() >= a.at => {
                    self.armed.store(false, Ordering::Relaxed);
                    g.take()
                }
                Some(_) => None,
                None => {
                    self.armed.store(false, Ordering::Relaxed);
                    None
                }
            }
        };
        // Called with the lock released: the call may set another alarm.
        if let Some(a) = due {
            (a.call)();
        }
    }

    /// Adds to the counters: `done` is the share of the query's tree just finished.
    pub fn record(&self, nodes: u64, solutions: u64, done: f64) {
        if self.armed.load(Ordering::Acquire) {
            self.ring();
        }
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.solutions.fetch_add(solutions, Ordering::Relaxed);
        let share = match self.share.load(Ordering::Relaxed) {
            0 => 1.0,
            bits => f64::from_bits(bits),
        };
        let add = done.max(0.0) * share;
        if add > 0.0 {
            // A compare-and-swap loop: no atomic float add in std. Flushes are rare (every
            // few thousand nodes), so contention is too.
            let _ = self
                .done
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                    Some((f64::from_bits(bits) + add).to_bits())
                });
        }
    }

    /// Sets the counters (nodes, solutions, the finished fraction, its pace) back to zero,
    /// for a run that starts its search over (a plan that switched engines); the interrupt,
    /// the share and any alarm stay.
    pub fn reset_counters(&self) {
        self.nodes.store(0, Ordering::Relaxed);
        self.solutions.store(0, Ordering::Relaxed);
        self.done.store(0f64.to_bits(), Ordering::Relaxed);
        self.accelerates.store(false, Ordering::Relaxed);
        if let Ok(mut pace) = self.pace.lock() {
            pace.clear();
        }
    }

    /// Says that the fraction done grows faster as the run goes, as in a memoized count:
    /// its first subtrees fill the cache and the later ones find their states there, so the
    /// average pace so far overstates the time left (on a 5x16 board, 50 times at a quarter
    /// of the run).
    pub fn set_accelerates(&self) {
        self.accelerates.store(true, Ordering::Relaxed);
    }

    /// True once [`Progress::set_accelerates`] was called (since the last reset).
    pub fn accelerates(&self) -> bool {
        self.accelerates.load(Ordering::Relaxed)
    }

    /// The seconds left of a run at `elapsed` since its start, from the fraction done, or
    /// `None` before any part of the tree is done. At an even pace (every engine but a
    /// memoized one) it is the time so far scaled by the fraction left: `t (1 - f) / f`.
    /// When the run [accelerates](Progress::accelerates), the fraction is taken to grow as a
    /// power of the time, `f ~ t^k`, with `k` measured over the last three quarters of the run
    /// (from the fraction at a quarter of the time so far; at least 1, at most 8), and the time
    /// left is `t (f^(-1/k) - 1)`. On the memoized counts of the 4x20 and 5x16 boards of the
    /// polyominoes of orders 4 and 5 (87 s and 11 minutes) this said 0.8 to 4 times the time
    /// left from a quarter of the run on, where the even pace said 3 to 50 times. Each call
    /// keeps a sample of the fraction for the next ones, so a display asks once a tick.
    pub fn seconds_left(&self, elapsed: std::time::Duration) -> Option<f64> {
        let t = elapsed.as_secs_f64().max(1e-3);
        let f = self.fraction_done();
        let earlier = match self.pace.lock() {
            Ok(mut pace) => {
                if pace
                    .last()
                    .is_none_or(|&(last, _)| t >= last * PACE_SPACING)
                {
                    pace.push((t, f));
                }
                let at = pace.partition_point(|&(s, _)| s <= t / 4.0);
                at.checked_sub(1).map(|i| pace[i])
            }
            Err(_) => None,
        };
        if f <= 0.0 {
            return None;
        }
        let k = match earlier {
            Some((t0, f0)) if self.accelerates() && f0 > 0.0 && f > f0 && t > t0 => {
                ((f / f0).ln() / (t / t0).ln()).clamp(1.0, MAX_PACE_EXPONENT)
            }
            _ => 1.0,
        };
        Some(t * (f.powf(-1.0 / k) - 1.0).max(0.0))
    }

    /// Sets the share of the whole run that each query from now on makes up (for a run of
    /// several queries, e.g. `1/k` each for `k` of them), so that
    /// [`Progress::fraction_done`] reaches 1 only when all are done.
    pub fn set_share(&self, share: f64) {
        let share = if share.is_finite() && share > 0.0 {
            share.min(1.0)
        } else {
            1.0
        };
        self.share.store(share.to_bits(), Ordering::Relaxed);
    }
}

/// One subtree of a search: the options chosen on the path to it and the options excluded on
/// that path (earlier siblings of a multiplicity branch). The subproblems of one split
/// partition its solutions, and solving them in list order reproduces the sequential order;
/// threads, SAT cubes and shards all hand out these.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subproblem {
    /// Options forced true in this subtree (besides the query's own forced options).
    pub chosen: Vec<u32>,
    /// Options forced false in this subtree (besides the query's own excluded options).
    pub excluded: Vec<u32>,
    /// The subtree's share of the whole tree (Knuth's estimate: the product of `1/choices`
    /// along its path).
    pub weight: f64,
}

/// The cores this process may use (1 when the system will not say). Asked once a process:
/// the standard library reads the cgroup quota files at every call, and a pooled count asks
/// for every branch (a 39-node BurrTools problem of 27 branches spent a third of its 5 ms
/// there).
pub fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The worker threads a request for `requested` runs: `0` means one per core, and any
/// request is clamped to [`MAX_THREADS_PER_CORE`] times the cores.
pub fn worker_threads(requested: usize) -> usize {
    let cores = available_cores();
    match requested {
        0 => cores,
        n => n.min(cores * MAX_THREADS_PER_CORE),
    }
}

/// A task body for [`ordered`]: `work(i, emit, halt)` runs task `i`.
pub(crate) type Work<'a, T, R> = dyn Fn(usize, &mut dyn FnMut(T), &AtomicBool) -> R + Sync + 'a;

/// What [`ordered`] hands the consumer for one task: an item the task emitted (in the order
/// it emitted them), then, once, the task's result.
pub enum Event<T, R> {
    /// An item the task emitted.
    Item(T),
    /// The task finished with this result; no item of it follows.
    Done(R),
}

/// Runs tasks `0..tasks` on up to `threads` workers and hands their items and results to
/// `deliver` on the calling thread in task order, as if they had run one after another: task
/// `i`'s events come after all of task `i - 1`'s, whatever the thread count. A task's items
/// are delivered while it still runs once every earlier task is done, so a listing streams.
///
/// `work(i, emit, halt)` runs task `i`, calling `emit` for each item; it should return soon
/// once `halt` is set. `deliver` returning `Break`, or `cancelled()` turning true (asked
/// before each task starts on one thread, and before each result is delivered), sets `halt`
/// and ends the run: no further event is delivered. Returns `true` when every task was
/// delivered.
pub(crate) fn ordered<T: Send, R: Send>(
    tasks: usize,
    threads: usize,
    cancelled: &(dyn Fn() -> bool + Sync),
    work: &Work<'_, T, R>,
    deliver: &mut dyn FnMut(usize, Event<T, R>) -> ControlFlow<()>,
) -> Result<bool> {
    let halt = AtomicBool::new(false);
    let threads = threads.clamp(1, tasks.max(1));
    if threads == 1 {
        for i in 0..tasks {
            if cancelled() {
                return Ok(false);
            }
            let mut flow = ControlFlow::Continue(());
            let r = work(
                i,
                &mut |t| {
                    if flow.is_continue() {
                        flow = deliver(i, Event::Item(t));
                        if flow.is_break() {
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                },
                &halt,
            );
            if flow.is_break() || cancelled() || deliver(i, Event::Done(r)).is_break() {
                return Ok(false);
            }
        }
        return Ok(true);
    }

    /// A task's undelivered items and, once it ends, its result (`None` inside when its
    /// worker panicked).
    struct Slot<T, R> {
        pending: Vec<T>,
        result: Option<Option<R>>,
    }
    struct Shared<T, R> {
        slots: Mutex<Vec<Slot<T, R>>>,
        ready: Condvar,
    }
    /// Marks its task finished without a result if the worker unwinds, so that the consumer
    /// never waits for it forever.
    struct Guard<'a, T, R> {
        shared: &'a Shared<T, R>,
        index: usize,
        armed: bool,
    }
    impl<T, R> Drop for Guard<'_, T, R> {
        fn drop(&mut self) {
            if self.armed {
                if let Ok(mut slots) = self.shared.slots.lock() {
                    slots[self.index].result = Some(None);
                }
                self.shared.ready.notify_all();
            }
        }
    }

    let shared = Shared {
        slots: Mutex::new(
            (0..tasks)
                .map(|_| Slot {
                    pending: Vec::new(),
                    result: None,
                })
                .collect(),
        ),
        ready: Condvar::new(),
    };
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| -> Result<bool> {
        let worker = || {
            while !halt.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= tasks {
                    break;
                }
                let mut guard = Guard {
                    shared: &shared,
                    index: i,
                    armed: true,
                };
                let r = work(
                    i,
                    &mut |t| {
                        if let Ok(mut slots) = shared.slots.lock() {
                            slots[i].pending.push(t);
                        }
                        shared.ready.notify_all();
                    },
                    &halt,
                );
                guard.armed = false;
                if let Ok(mut slots) = shared.slots.lock() {
                    slots[i].result = Some(Some(r));
                }
                shared.ready.notify_all();
            }
        };
        let mut handles = Vec::with_capacity(threads);
        for _ in 0..threads {
            match std::thread::Builder::new().spawn_scoped(scope, worker) {
                Ok(h) => handles.push(h),
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    return Err(Error::Threads(e));
                }
            }
        }
        // Joined by hand so that a panicked worker becomes an error here, not a panic of the
        // whole scope.
        let join = |handles: Vec<std::thread::ScopedJoinHandle<'_, ()>>| {
            halt.store(true, Ordering::Relaxed);
            for h in handles {
                let _ = h.join();
            }
        };
        let mut batch = Vec::new();
        let mut complete = true;
        'tasks: for cur in 0..tasks {
            loop {
                let finished = {
                    let Ok(mut slots) = shared.slots.lock() else {
                        complete = false;
                        break 'tasks;
                    };
                    while slots[cur].pending.is_empty() && slots[cur].result.is_none() {
                        slots = match shared.ready.wait(slots) {
                            Ok(s) => s,
                            Err(_) => {
                                complete = false;
                                break 'tasks;
                            }
                        };
                    }
                    std::mem::swap(&mut batch, &mut slots[cur].pending);
                    // Finished only once its last items are taken.
                    if slots[cur].pending.is_empty() {
                        slots[cur].result.take()
                    } else {
                        None
                    }
                };
                for t in batch.drain(..) {
                    if deliver(cur, Event::Item(t)).is_break() {
                        complete = false;
                        break 'tasks;
                    }
                }
                match finished {
                    None => {}
                    Some(None) => {
                        join(handles);
                        return Err(Error::internal(format!("worker for task {cur} panicked")));
                    }
                    Some(Some(r)) => {
                        if cancelled() || deliver(cur, Event::Done(r)).is_break() {
                            complete = false;
                            break 'tasks;
                        }
                        break;
                    }
                }
            }
        }
        join(handles);
        Ok(complete)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Task `i` emits `i` items `(i, j)` and returns `i * 10`.
    fn run(tasks: usize, threads: usize, stop_at: Option<usize>) -> (Vec<(usize, usize)>, bool) {
        let mut seen = Vec::new();
        let work = |i: usize, emit: &mut dyn FnMut((usize, usize)), _: &AtomicBool| {
            for j in 0..i {
                emit((i, j));
            }
            i * 10
        };
        let done = ordered(tasks, threads, &|| false, &work, &mut |i, ev| {
            match ev {
                Event::Item(t) => seen.push(t),
                Event::Done(r) => {
                    assert_eq!(r, i * 10);
                    seen.push((i, usize::MAX));
                }
            }
            if stop_at.is_some_and(|s| seen.len() >= s) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        (seen, done)
    }

    #[test]
    fn delivers_in_task_order_for_any_thread_count() {
        let (one, done) = run(40, 1, None);
        assert!(done);
        assert_eq!(one.len(), (0..40).sum::<usize>() + 40);
        for threads in [2, 3, 8] {
            assert_eq!(run(40, threads, None), (one.clone(), true));
        }
    }

    #[test]
    fn a_break_stops_the_run_at_the_same_event() {
        let (one, done) = run(40, 1, Some(100));
        assert!(!done);
        assert_eq!(one.len(), 100);
        assert_eq!(run(40, 4, Some(100)), (one, false));
    }

    #[test]
    fn threads_are_clamped() {
        assert_eq!(worker_threads(0), available_cores());
        assert_eq!(
            worker_threads(usize::MAX),
            available_cores() * MAX_THREADS_PER_CORE
        );
        assert_eq!(worker_threads(1), 1);
    }

    #[test]
    fn a_panicking_task_is_an_error_not_a_hang() {
        let work = |i: usize, _: &mut dyn FnMut(()), _: &AtomicBool| {
            assert!(i != 3, "task 3 fails");
            i
        };
        let r = ordered(
            8,
            2,
            &|| false,
            &work,
            &mut |_, _| ControlFlow::Continue(()),
        );
        assert!(matches!(r, Err(Error::Internal(_))));
    }

    /// An alarm rings at the first record at or after its time, once, and not before.
    #[test]
    fn an_alarm_rings_once_at_the_first_record_after_its_time() {
        use std::sync::Arc;
        use std::time::Duration;
        let p = Progress::new();
        let rung = Arc::new(AtomicUsize::new(0));
        let r = rung.clone();
        p.call_at(Instant::now() + Duration::from_secs(3600), move || {
            r.fetch_add(1, Ordering::Relaxed);
        });
        p.record(1, 0, 0.0);
        assert_eq!(rung.load(Ordering::Relaxed), 0, "not due yet");
        let r = rung.clone();
        p.call_at(Instant::now(), move || {
            r.fetch_add(10, Ordering::Relaxed);
        });
        p.record(1, 0, 0.0);
        p.record(1, 0, 0.0);
        assert_eq!(
            rung.load(Ordering::Relaxed),
            10,
            "the later alarm replaced the first"
        );
        assert_eq!(p.nodes(), 3);
    }

    /// An even pace scales the time so far; an accelerating one follows the fraction's growth
    /// over the last three quarters of the run; a reset forgets both.
    #[test]
    fn time_left_follows_the_pace() {
        use std::time::Duration;
        let secs = Duration::from_secs_f64;
        // f = (t / 100)^3: a quarter of the way at 12.5 s, an eighth done at 50 s.
        let f = |t: f64| (t / 100.0f64).powi(3);
        let even = Progress::new();
        let fast = Progress::new();
        fast.set_accelerates();
        assert_eq!(fast.seconds_left(secs(1.0)), None, "nothing done yet");
        let mut shown = (0.0, 0.0);
        for t in [12.5, 20.0, 30.0, 50.0] {
            for p in [&even, &fast] {
                p.record(0, 0, f(t) - p.fraction_done());
            }
            shown = (
                even.seconds_left(secs(t)).unwrap(),
                fast.seconds_left(secs(t)).unwrap(),
            );
        }
        assert!((shown.0 - 350.0).abs() < 1e-6, "{shown:?}");
        assert!((shown.1 - 50.0).abs() < 1e-6, "{shown:?}");
        fast.reset_counters();
        assert!(!fast.accelerates());
        fast.record(0, 0, 0.5);
        assert!((fast.seconds_left(secs(60.0)).unwrap() - 60.0).abs() < 1e-6);
        // A burst of finished subtrees is held to the steepest pace assumed.
        let burst = Progress::new();
        burst.set_accelerates();
        burst.record(0, 0, 1e-9);
        burst.seconds_left(secs(1.0));
        burst.record(0, 0, 0.5);
        let left = burst.seconds_left(secs(4.0)).unwrap();
        assert!(
            (left - 4.0 * (2f64.powf(1.0 / 8.0) - 1.0)).abs() < 1e-6,
            "{left}"
        );
    }

    /// Queries that each make up a share of a run add up to the whole run, and not before.
    #[test]
    fn shares_add_up_to_one() {
        let p = Progress::new();
        p.record(10, 1, 0.5);
        assert!((p.fraction_done() - 0.5).abs() < 1e-9);
        let p = Progress::new();
        p.set_share(0.25);
        for _ in 0..3 {
            p.record(1, 0, 1.0);
        }
        assert!((p.fraction_done() - 0.75).abs() < 1e-9);
        p.record(1, 0, 0.5);
        p.record(1, 0, 0.5);
        assert!((p.fraction_done() - 1.0).abs() < 1e-9);
        assert_eq!(p.nodes(), 5);
        // The tiniest shares add up, as in a tree of 10^20 nodes.
        let p = Progress::new();
        for _ in 0..1000 {
            p.record(1, 0, 1e-20);
        }
        assert!((p.fraction_done() - 1e-17).abs() < 1e-25);
        // Nonsense shares count as the whole.
        let p = Progress::new();
        p.set_share(f64::NAN);
        p.record(0, 0, 0.5);
        assert!((p.fraction_done() - 0.5).abs() < 1e-9);
    }
}
