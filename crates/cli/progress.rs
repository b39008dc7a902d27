//! The progress display on stderr for long runs (an indicatif bar on a terminal, a plain line every few seconds otherwise, both fed by the engine's live counters and Knuth's estimate of the fraction of the search tree done), and the Ctrl-C handler.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use cubesat_xc::Progress;

/// How often a plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// How long a run goes before its display starts: most runs end sooner, and a display
/// thread's start, wake-up and join cost a run of a few milliseconds a tenth of its time.
/// Below the time a person takes to look up, so that no run a person waits on goes unshown.
pub const SHOW_AFTER: Duration = Duration::from_millis(200);

/// A running display; [`Reporter::finish`] stops it and clears the bar.
pub struct Reporter {
    shared: Arc<Shared>,
}

/// What the display thread and the run share: the stop flag, and the thread once started
/// (under the lock, so that a display that starts while the run finishes is either joined
/// or never started).
struct Shared {
    stop: AtomicBool,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Reporter {
    /// Starts showing `progress` for a run named `what`: at once, or with `deferred`, from
    /// the first counters recorded [`SHOW_AFTER`] after now (for engines that record every
    /// few thousand nodes; one that records rarely would start its display late).
    pub fn start(progress: Arc<Progress>, what: String, deferred: bool) -> Reporter {
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            thread: Mutex::new(None),
        });
        let start = Instant::now();
        let begin = {
            let shared = shared.clone();
            // Weak: the alarm that may hold this lives in `progress` itself.
            let progress = Arc::downgrade(&progress);
            move || {
                let Ok(mut slot) = shared.thread.lock() else {
                    return;
                };
                let Some(progress) = progress.upgrade() else {
                    return;
                };
                if shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                let flag = shared.clone();
                // A display that cannot start leaves the run without one, nothing worse.
                *slot = std::thread::Builder::new()
                    .spawn(move || show(&progress, &what, start, &flag.stop))
                    .ok();
            }
        };
        if deferred {
            progress.call_at(start + SHOW_AFTER, begin);
        } else {
            begin();
        }
        Reporter { shared }
    }

    /// Stops the display.
    pub fn finish(self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        let thread = self.shared.thread.lock().ok().and_then(|mut t| t.take());
        if let Some(t) = thread {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// The display thread's loop: a bar on a terminal, a plain line every [`PLAIN_EVERY`]
/// otherwise, until `stop`.
fn show(progress: &Progress, what: &str, start: Instant, stop: &AtomicBool) {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{bar:30}] {msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    });
    let mut last_line = start;
    loop {
        // Parked rather than asleep, so that `finish` wakes it at once: a short run does not
        // wait for the next tick to end.
        std::thread::park_timeout(Duration::from_millis(100));
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let line = status(progress, start.elapsed(), what);
        match &bar {
            Some(b) => {
                b.set_position((progress.fraction_done() * 1000.0) as u64);
                b.set_message(line);
            }
            None if last_line.elapsed() >= PLAIN_EVERY => {
                say!("{line}");
                last_line = Instant::now();
            }
            None => {}
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// One status line, worded by the library as every front end words it
/// ([`cubesat::estimate::progress_line`]).
fn status(p: &Progress, elapsed: Duration, what: &str) -> String {
    cubesat::estimate::progress_line(p, elapsed, what)
}

/// How long after the first Ctrl-C a second one forces an exit. A second signal sooner is
/// the same Ctrl-C delivered twice (GNU `timeout -s INT` signals the process and then its
/// group, microseconds apart) and is ignored, so that the run still prints what it has.
pub const FORCE_AFTER: Duration = Duration::from_secs(1);

/// The run Ctrl-C stops (a `Progress` of [`install_interrupt`], never freed), or null.
static TARGET: AtomicPtr<Progress> = AtomicPtr::new(std::ptr::null_mut());

/// When the run in [`TARGET`] was first asked to stop, in nanoseconds of `CLOCK_MONOTONIC`;
/// 0 while it was not.
static FIRST_NS: AtomicU64 = AtomicU64::new(0);

/// Installs the Ctrl-C handler (once per process; later calls do nothing). With no run to
/// stop ([`install_interrupt`]), Ctrl-C removes the temporary files being written and exits
/// with 130; with one, see [`install_interrupt`].
///
/// The handler runs in the signal's context, not on a thread of its own: a thread for it
/// (as the `ctrlc` crate starts) cost every run 0.3 ms, a tenth of a small puzzle's whole
/// process. So it does only what is safe there: atomic loads and stores, `clock_gettime`,
/// `unlink` and `_exit`.
pub fn install_handler() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        // SAFETY: `on_interrupt` is async-signal-safe (see there). If a handler cannot be
        // installed, Ctrl-C simply terminates the process as usual.
        let _ = unsafe { signal_hook_registry::register(libc::SIGINT, on_interrupt) };
    });
}

/// Nanoseconds of `CLOCK_MONOTONIC`, at least 1 (0 means "not yet" in [`FIRST_NS`]).
fn monotonic_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` is async-signal-safe and writes only `t`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
        .max(1)
}

/// The SIGINT handler: only atomics, `clock_gettime`, `unlink` and `_exit`, all
/// async-signal-safe.
fn on_interrupt() {
    let now = monotonic_ns();
    let target = TARGET.load(Ordering::Acquire);
    if !target.is_null() {
        match FIRST_NS.compare_exchange(0, now, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                // SAFETY: a `TARGET` is never freed; `interrupt` is one atomic store.
                unsafe { (*target).interrupt() };
                return;
            }
            Err(first) if now.saturating_sub(first) <= FORCE_AFTER.as_nanos() as u64 => return,
            Err(_) => {}
        }
    }
    crate::output::remove_temporaries();
    // SAFETY: `_exit` is async-signal-safe; destructors and buffers are skipped on purpose,
    // as by a forced exit.
    unsafe { libc::_exit(130) };
}

/// Routes Ctrl-C to `progress`: the first Ctrl-C asks the run to stop and report what it has;
/// a second one more than [`FORCE_AFTER`] later exits at once (for a run that does not check
/// the flag, such as a long SAT call), removing the temporary files being written.
pub fn install_interrupt(progress: Arc<Progress>) {
    install_handler();
    FIRST_NS.store(
        if progress.is_interrupted() {
            monotonic_ns()
        } else {
            0
        },
        Ordering::Release,
    );
    // The run before (a process routes at most a few) is not freed: a handler running on
    // another thread may still be reading it.
    TARGET.store(Arc::into_raw(progress).cast_mut(), Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_fractions_and_long_times_read_right() {
        let p = Progress::new();
        p.record(1000, 0, 1e-12);
        let line = status(&p, Duration::from_secs(10), "x");
        assert!(line.contains("1.0e-12 of the tree"), "{line}");
        assert!(line.contains("ETA ") && line.contains("years"), "{line}");
        p.record(0, 0, 0.5);
        assert!(status(&p, Duration::from_secs(10), "x").contains("50.00%"));
    }
}
