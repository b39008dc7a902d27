//! The progress display on stderr for long runs: an indicatif bar on a terminal, a plain line every few seconds otherwise, both fed by the engine's live counters and Knuth's estimate of the fraction of the search tree done.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use cubesat_xc::Progress;

/// How often a plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// A running display; [`Reporter::finish`] stops it and clears the bar.
pub struct Reporter {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Reporter {
    /// Starts showing `progress` for a run named `what`.
    pub fn start(progress: Arc<Progress>, what: String) -> Reporter {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let bar = std::io::stderr().is_terminal().then(|| {
                let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template("{spinner} [{bar:30}] {msg}") {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar
            });
            let mut last_line = Instant::now();
            loop {
                // Parked rather than asleep, so that `finish` wakes it at once: a short run
                // does not wait for the next tick to end.
                std::thread::park_timeout(Duration::from_millis(100));
                if flag.load(Ordering::Relaxed) {
                    break;
                }
                let line = status(&progress, start.elapsed(), &what);
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
        });
        Reporter {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the display.
    pub fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// One status line: solutions, rate, fraction of the tree done and the time left at the
/// current pace.
fn status(p: &Progress, elapsed: Duration, what: &str) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let done = p.fraction_done();
    let eta = if done > 1e-6 {
        format_duration(secs * (1.0 - done) / done)
    } else {
        "?".to_string()
    };
    // Engines that count no nodes (the SAT path) leave the figure out.
    let nodes = match p.nodes() {
        0 => String::new(),
        n => format!(", {:.1} M nodes", n as f64 / 1e6),
    };
    format!(
        "{what}: {} ({:.0}/s){nodes}, {:.2}% of the tree, ETA {eta}",
        cubesat::report::plural(p.solutions(), "solution"),
        p.solutions() as f64 / secs,
        done * 100.0
    )
}

fn format_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// How long after the first Ctrl-C a second one forces an exit. A second signal sooner is
/// the same Ctrl-C delivered twice (GNU `timeout -s INT` signals the process and then its
/// group, microseconds apart) and is ignored, so that the run still prints what it has.
pub const FORCE_AFTER: Duration = Duration::from_secs(1);

/// The run Ctrl-C stops, and when it was first asked to.
static TARGET: Mutex<Option<(Arc<Progress>, Option<Instant>)>> = Mutex::new(None);

/// Installs the Ctrl-C handler (once per process; later calls do nothing). With no run to
/// stop ([`install_interrupt`]), Ctrl-C removes the temporary files being written and exits
/// with 130; with one, see [`install_interrupt`].
pub fn install_handler() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        // If a handler cannot be installed (another library owns SIGINT), Ctrl-C simply
        // terminates the process as usual.
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

fn on_interrupt() {
    let now = Instant::now();
    let force = match TARGET.lock() {
        Ok(mut g) => match g.as_mut() {
            Some((p, first @ None)) => {
                p.interrupt();
                *first = Some(now);
                false
            }
            Some((_, Some(t))) => now.duration_since(*t) > FORCE_AFTER,
            None => true,
        },
        Err(_) => true,
    };
    if force {
        crate::output::remove_temporaries();
        std::process::exit(130);
    }
}

/// Routes Ctrl-C to `progress`: the first Ctrl-C asks the run to stop and report what it has;
/// a second one more than [`FORCE_AFTER`] later exits at once (for a run that does not check
/// the flag, such as a long SAT call), removing the temporary files being written.
pub fn install_interrupt(progress: Arc<Progress>) {
    install_handler();
    if let Ok(mut g) = TARGET.lock() {
        let first = progress.is_interrupted().then(Instant::now);
        *g = Some((progress, first));
    }
}
