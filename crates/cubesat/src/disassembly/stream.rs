//! The disassembly stream: a run's assemblies listed, analysed in batches as they come, and the solutions that come apart (at the plan's level or above) handed on; a typed error for the bound an analysis hits.
//!
//! [`stream`] hands every solution that comes apart, in the order found, to a callback that
//! can stop the run; [`collect`] keeps them in the plan's order; [`stream_every`] hands on
//! every assembly analysed, whether it comes apart or not (a browser that lists them all). Both also stop on the plan's
//! progress interrupt ([`DisassemblyPlan::with_progress`]: Ctrl-C, a stop button), and then
//! report what was analysed so far. Every front end's disassembly runs on them.

use std::time::{Duration, Instant};

use crate::error::{Error, Request};
use crate::plan::DisassemblyPlan;
use crate::run::{self, Instance, RunReport};
use crate::solution::Solution;

use super::solutions::{self, Analysis, AnalysisError};
use super::{Halt, Level, Order};

/// A solution that comes apart, with its analysis.
#[derive(Clone, Debug)]
pub struct Found {
    /// The solution (its placements).
    pub solution: Solution,
    /// How it comes apart: its plan, level and moves.
    pub analysis: Analysis,
}

impl Found {
    /// Its level as numbers (the empty level for an analysis without a plan, which a
    /// [`stream`] never gives).
    pub fn level(&self) -> Level {
        self.analysis
            .tree
            .as_ref()
            .map_or(Level(Vec::new()), |t| t.level_numbers())
    }
}

/// What the analyses of a run found.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Assemblies analysed.
    pub assemblies: u64,
    /// Of them, those that come apart (in the mode asked, at any level).
    pub apart: u64,
    /// States visited.
    pub states: u64,
    /// Time spent analysing.
    pub elapsed: Duration,
    /// Stopped from outside (the progress's interrupt) before the end.
    pub interrupted: bool,
}

/// What a [`stream`] did.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The search for assemblies.
    pub report: RunReport,
    /// The analyses.
    pub tally: Tally,
    /// Solutions handed on: those that come apart at the plan's level or above.
    pub found: u64,
    /// True when the run stopped at the plan's `keep` ([`DisassemblyPlan::stop_after`]).
    pub limited: bool,
}

/// Why a disassembly run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// An assembly's analysis passed the states one assembly may visit (the plan's
    /// `max_states`, which a user can raise).
    #[error("{}", Halt::TooManyStates(*limit))]
    StateLimit {
        /// The states one assembly may visit.
        limit: u64,
        /// The assembly that passed it: its number among the assemblies listed, from 1.
        assembly: u64,
    },
    /// An assembly's analysis stopped at a fixed bound: the memory of its states, its
    /// pieces, how far a piece moved.
    #[error("{halt}")]
    Halted {
        /// The bound.
        halt: Halt,
        /// The assembly that hit it: its number among the assemblies listed, from 1.
        assembly: u64,
    },
    /// Listing the assemblies failed.
    #[error("listing the assemblies")]
    Listing(#[source] Error),
    /// A plan that failed its replay: a bug in cubesat, never bad input.
    #[error(transparent)]
    Library(Error),
}

impl From<StreamError> for Error {
    fn from(e: StreamError) -> Error {
        match e {
            StreamError::StateLimit { .. } | StreamError::Halted { .. } => {
                Error::unsupported(Request::Disassembly, e.to_string())
            }
            StreamError::Listing(e) => e.context("listing the assemblies"),
            StreamError::Library(e) => e,
        }
    }
}

/// Lists the assemblies of `inst` as `plan` says, analyses them in batches of `plan.batch`,
/// and hands `keep` every one that comes apart at `plan.min_level` or above, in the order
/// found. The run stops when `keep` returns false, after the plan's
/// [`stop_after`](DisassemblyPlan::stop_after) solutions, or on the progress's interrupt;
/// the assemblies of the last batch are analysed (and counted) even past a stop.
pub fn stream(
    inst: &Instance,
    plan: &DisassemblyPlan,
    keep: impl FnMut(Found) -> bool,
) -> Result<Streamed, StreamError> {
    run_stream(inst, plan, keep, false)
}

/// [`stream`], handing `keep` every assembly analysed in the order listed: one that does not
/// come apart (or comes apart below the plan's `min_level`) with an analysis that has no
/// tree. The plan's [`stop_after`](DisassemblyPlan::stop_after) still counts only the
/// solutions that come apart at its level.
pub fn stream_every(
    inst: &Instance,
    plan: &DisassemblyPlan,
    keep: impl FnMut(Found) -> bool,
) -> Result<Streamed, StreamError> {
    run_stream(inst, plan, keep, true)
}

fn run_stream(
    inst: &Instance,
    plan: &DisassemblyPlan,
    keep: impl FnMut(Found) -> bool,
    every: bool,
) -> Result<Streamed, StreamError> {
    let mut s = Streaming {
        inst,
        plan,
        keep,
        every,
        pending: Vec::new(),
        tally: Tally::default(),
        found: 0,
        stopped: false,
        failure: None,
    };
    let report =
        run::list(inst, &plan.run, |sol: &Solution| s.offer(sol)).map_err(StreamError::Listing)?;
    if let Some(e) = s.failure.take() {
        return Err(e);
    }
    if !s.stopped {
        s.flush()?;
    }
    s.tally.interrupted |= report.interrupted;
    Ok(Streamed {
        report,
        tally: s.tally,
        found: s.found,
        limited: plan.stop_after().is_some_and(|w| s.found >= w),
    })
}

/// The solutions that come apart as [`stream`] hands them on, in the plan's order: by
/// level, the hardest first (solutions of one level as found), cut to the plan's `keep`.
pub fn collect(
    inst: &Instance,
    plan: &DisassemblyPlan,
) -> Result<(Vec<Found>, Streamed), StreamError> {
    let mut kept = Vec::new();
    let streamed = stream(inst, plan, |f| {
        kept.push(f);
        true
    })?;
    if plan.order == Order::Level {
        kept.sort_by_cached_key(|f| std::cmp::Reverse(f.level()));
        if let Some(w) = plan.keep {
            kept.truncate(usize::try_from(w).unwrap_or(usize::MAX));
        }
    }
    Ok((kept, streamed))
}

/// One [`stream`] under way.
struct Streaming<'a, K> {
    inst: &'a Instance,
    plan: &'a DisassemblyPlan,
    keep: K,
    /// Hand on every assembly, not only those that come apart.
    every: bool,
    /// Assemblies listed and not analysed yet.
    pending: Vec<Solution>,
    tally: Tally,
    found: u64,
    /// Set once no more assemblies are to be analysed: the callback, the plan's limit or an
    /// interrupt stopped the run, or a batch failed.
    stopped: bool,
    /// A batch's failure, kept while the listing winds down.
    failure: Option<StreamError>,
}

impl<K: FnMut(Found) -> bool> Streaming<'_, K> {
    /// The listing's sink: queues an assembly, and analyses the queue once it is a batch;
    /// false stops the listing.
    fn offer(&mut self, solution: &Solution) -> bool {
        if self.stopped {
            return false;
        }
        self.pending.push(solution.clone());
        if self.pending.len() >= self.plan.batch
            && let Err(e) = self.flush()
        {
            self.failure = Some(e);
            self.stopped = true;
        }
        !self.stopped
    }

    /// Analyses the queued assemblies and hands on those that come apart (none of a batch
    /// an interrupt cut short); sets `stopped` when the run is to stop.
    fn flush(&mut self) -> Result<(), StreamError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let start = Instant::now();
        let first = self.tally.assemblies;
        let done = solutions::analyse(self.inst, &self.pending, &self.plan.analysis)
            .map_err(|e| numbered(e, first))?;
        self.tally.elapsed += start.elapsed();
        self.tally.interrupted |= done.interrupted;
        let mut go_on = !done.interrupted;
        let pending = std::mem::take(&mut self.pending);
        for (solution, mut analysis) in pending.into_iter().zip(done.analyses) {
            self.tally.assemblies += 1;
            self.tally.states += analysis.states;
            let below = match &analysis.tree {
                Some(tree) => {
                    self.tally.apart += 1;
                    (self.plan.min_level.as_ref()).is_some_and(|m| tree.level_numbers() < *m)
                }
                None => true,
            };
            if go_on && !below {
                go_on = self.hand_on(Found { solution, analysis });
            } else if go_on && self.every {
                // Below the plan's level counts as not coming apart here.
                analysis.tree = None;
                analysis.steps.clear();
                go_on = (self.keep)(Found { solution, analysis });
            }
        }
        self.stopped |= !go_on;
        Ok(())
    }

    /// Hands `found` to the callback; false when the run is to stop.
    fn hand_on(&mut self, found: Found) -> bool {
        self.found += 1;
        let go_on = (self.keep)(found);
        go_on && self.plan.stop_after().is_none_or(|w| self.found < w)
    }
}

/// A batch's failure with the assembly numbered among all those listed (`first` before
/// the batch).
fn numbered(e: AnalysisError, first: u64) -> StreamError {
    let number = |index: usize| first + index as u64 + 1;
    match e {
        AnalysisError::Halted {
            halt: Halt::TooManyStates(limit),
            index,
        } => StreamError::StateLimit {
            limit,
            assembly: number(index),
        },
        AnalysisError::Halted { halt, index } => StreamError::Halted {
            halt,
            assembly: number(index),
        },
        AnalysisError::Library(e) => StreamError::Library(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{DisassemblySettings, Settings};
    use crate::puzzle::bundled;

    fn soma() -> Instance {
        Instance::new(bundled("soma").unwrap()).unwrap()
    }

    fn plan(inst: &Instance, limit: Option<u64>, d: DisassemblySettings) -> DisassemblyPlan {
        Settings {
            limit,
            threads: 1,
            ..Settings::default()
        }
        .resolve_disassembly(&inst.puzzle, &d)
        .unwrap()
    }

    #[test]
    fn the_stream_stops_at_the_limit_and_at_the_callback() {
        let inst = soma();
        let p = plan(&inst, Some(2), DisassemblySettings::default());
        let (kept, s) = collect(&inst, &p).unwrap();
        assert_eq!((kept.len(), s.found, s.limited), (2, 2, true));
        assert!(s.tally.assemblies >= 2 && s.tally.apart >= 2);
        // The callback stops it too: one solution, and the run is not limited by the plan.
        let p = plan(&inst, None, DisassemblySettings::default());
        let mut seen = 0;
        let s = stream(&inst, &p, |_| {
            seen += 1;
            false
        })
        .unwrap();
        assert_eq!((seen, s.found, s.limited), (1, 1, false));
        assert!(!s.tally.interrupted);
    }

    #[test]
    fn every_assembly_is_handed_on_when_asked() {
        let inst = soma();
        // A level no soma solution reaches: every assembly is handed on as not coming apart
        // at it, and none counts as found.
        let d = DisassemblySettings {
            min_level: Some("99".parse().unwrap()),
            ..DisassemblySettings::default()
        };
        let mut seen = Vec::new();
        let s = stream_every(&inst, &plan(&inst, None, d), |f| {
            seen.push(f.analysis.tree.is_some());
            true
        })
        .unwrap();
        assert_eq!(seen.len() as u64, s.tally.assemblies);
        assert!(seen.iter().all(|apart| !apart) && s.found == 0);
        let mut apart = 0;
        let s = stream_every(
            &inst,
            &plan(&inst, None, DisassemblySettings::default()),
            |f| {
                apart += u64::from(f.analysis.tree.is_some());
                true
            },
        )
        .unwrap();
        assert_eq!((apart, s.found), (s.tally.apart, s.tally.apart));
    }

    #[test]
    fn a_state_limit_is_typed_with_the_assembly_that_hit_it() {
        let inst = soma();
        let d = DisassemblySettings {
            max_states: Some(1),
            ..DisassemblySettings::default()
        };
        let e = stream(&inst, &plan(&inst, Some(1), d), |_| true).unwrap_err();
        assert!(
            matches!(
                e,
                StreamError::StateLimit {
                    limit: 1,
                    assembly: 1
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "the disassembly search passed 1 states");
    }

    #[test]
    fn by_level_every_assembly_is_analysed_and_the_hardest_kept() {
        let inst = soma();
        let d = DisassemblySettings {
            order: Order::Level,
            ..DisassemblySettings::default()
        };
        let (kept, s) = collect(&inst, &plan(&inst, Some(3), d)).unwrap();
        assert_eq!(kept.len(), 3);
        assert!(!s.limited && s.found == s.tally.apart);
        let (all, _) = collect(&inst, &plan(&inst, None, DisassemblySettings::default())).unwrap();
        let hardest = all.iter().map(Found::level).max().unwrap();
        assert_eq!(kept[0].level(), hardest);
        assert!(kept.windows(2).all(|w| w[0].level() >= w[1].level()));
    }
}
