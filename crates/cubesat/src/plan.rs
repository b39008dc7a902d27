//! How a run behaves, decided once for every front end: the settings a user gives
//! ([`Settings`]: raw, as typed or clicked) are checked and resolved against the puzzle into a
//! [`Plan`] (the run's [`RunOptions`] and the notes a user should see), and an export's mode
//! is checked into an [`ExportPlan`]. The command line and the studio only collect settings
//! and show what comes back; refusals are typed ([`PlanError`]) and name settings, not flags.

use std::fmt;

use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::{MAX_THREADS_PER_CORE, Shard, available_cores, sat::MAX_CUBES};

use crate::counting::{Reducer, UpTo};
use crate::echo::echo;
use crate::error::Error;
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::run::{EngineChoice, RunOptions};

/// What a run does with the solutions it finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Task {
    /// Lists solutions: the first [`Settings::limit`] of them, or all when there is none.
    #[default]
    List,
    /// Counts solutions (stopping at [`Settings::limit`] if one is given).
    Count,
}

/// The settings of a run as a user gives them, before any rule is applied.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// List or count.
    pub task: Task,
    /// At most this many solutions; `None` lists or counts them all.
    pub limit: Option<u64>,
    /// The counting mode asked for; `None` takes the puzzle's own (a BurrTools file's), else
    /// [`UpTo::Rotation`].
    pub up_to: Option<UpTo>,
    /// The engine.
    pub engine: EngineChoice,
    /// Worker threads asked for; 0 is one per core.
    pub threads: usize,
    /// Turns off the exact engine's dead-region pruning.
    pub no_prune: bool,
    /// The SAT engine's at-most-one encoding.
    pub amo: AtMostOne,
    /// The SAT engine's cube count (at most [`MAX_CUBES`]).
    pub sat_cubes: Option<usize>,
    /// The SAT engine's exact-engine budget per cube.
    pub sat_exact_budget: Option<u64>,
    /// Run only this shard of the search.
    pub shard: Option<Shard>,
    /// A listing is written as a record a merge can read (JSON Lines with a summary): the
    /// only listing a shard may be.
    pub listing_is_record: bool,
    /// A key seals the shard's record.
    pub sealed: bool,
}

/// A run resolved: what to run, and what the user should be told about how.
#[derive(Clone, Debug)]
pub struct Plan {
    /// List or count.
    pub task: Task,
    /// The run's options (with no progress attached: the front end adds its own).
    pub options: RunOptions,
    /// What the plan changed from the settings, for the user to see.
    pub notes: Vec<Note>,
}

/// A change the plan made to the settings, worth telling the user.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// More threads were asked for than the machine gets: `to` are used
    /// ([`MAX_THREADS_PER_CORE`] per core).
    ThreadsClamped {
        /// Threads asked for.
        asked: usize,
        /// Threads used.
        to: usize,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::ThreadsClamped { asked, to } => write!(
                f,
                "{asked} threads asked for, {to} used ({MAX_THREADS_PER_CORE} per core)"
            ),
        }
    }
}

/// A request refused by the run's rules. The message names the setting, not how a front end
/// spells it; [`PlanError::setting`] says which one, for a front end to point at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// More SAT cubes than [`MAX_CUBES`].
    #[error("cubes: {asked} is too many (at most {most})")]
    TooManyCubes {
        /// Cubes asked for.
        asked: usize,
        /// The bound.
        most: usize,
    },
    /// A shard of a run whose result cannot be merged: a shard counts, or lists everything
    /// as a record.
    #[error(
        "shard: a shard counts, or lists every solution as a record (JSON Lines), since its record must be merged"
    )]
    ShardNotMergeable,
    /// A shard with a limit: a shard runs its whole part of the search.
    #[error("shard: a shard runs its whole part of the search, so it takes no limit")]
    ShardWithLimit,
    /// A key to seal a record that no shard writes.
    #[error("seal key: a key seals a shard's record, so it goes with a shard")]
    SealWithoutShard,
    /// A shard or a sealed record of a disassembly run, which runs whole and writes no record.
    #[error(
        "shard: a disassembly runs whole and writes no shard record, so it takes no shard or seal key"
    )]
    DisassemblyNotShardable,
    /// A disassembly of a puzzle on a grid other than cubes: pieces slide along the cube's
    /// axes only (BurrTools also takes apart only cube-grid assemblies).
    #[error(
        "grid: cubesat takes apart assemblies of cubes only, as BurrTools does, and this puzzle is made of {grid}"
    )]
    DisassemblyGrid {
        /// The puzzle's grid name.
        grid: &'static str,
    },
    /// An export in a counting mode an external solver's count cannot mean.
    #[error(
        "up to: an export counts every placement (none) or one solution per rotation class (rotation), not {up_to}"
    )]
    ExportMode {
        /// The mode asked for.
        up_to: UpTo,
    },
    /// An export up to rotation where the restriction the instance can carry does not leave
    /// one solution per rotation class.
    #[error(
        "up to: '{puzzle}': the restriction an instance can carry does not leave exactly one solution per rotation class here ({reduction}), so an external count would not be the count up to rotation"
    )]
    ExportInexact {
        /// The puzzle's name, escaped.
        puzzle: String,
        /// What the reduction does.
        reduction: String,
    },
}

impl PlanError {
    /// The setting at fault: `cubes`, `shard`, `seal key`, `grid` or `up to`.
    pub fn setting(&self) -> &'static str {
        match self {
            PlanError::TooManyCubes { .. } => "cubes",
            PlanError::ShardNotMergeable
            | PlanError::ShardWithLimit
            | PlanError::DisassemblyNotShardable => "shard",
            PlanError::SealWithoutShard => "seal key",
            PlanError::DisassemblyGrid { .. } => "grid",
            PlanError::ExportMode { .. } | PlanError::ExportInexact { .. } => "up to",
        }
    }
}

/// The counting mode a run uses: the one asked for, else the puzzle's own, else rotation.
pub fn counting_mode(asked: Option<UpTo>, puzzle: &Puzzle) -> UpTo {
    asked.or(puzzle.default_up_to).unwrap_or(UpTo::Rotation)
}

impl Settings {
    /// The rules that need no puzzle, checked before one is read: bounds, and that a shard's
    /// result can be merged.
    pub fn check(&self) -> Result<(), PlanError> {
        if let Some(c) = self.sat_cubes.filter(|&c| c > MAX_CUBES) {
            return Err(PlanError::TooManyCubes {
                asked: c,
                most: MAX_CUBES,
            });
        }
        if self.shard.is_some() {
            match self.task {
                Task::List if !(self.listing_is_record && self.limit.is_none()) => {
                    return Err(PlanError::ShardNotMergeable);
                }
                Task::Count if self.limit.is_some() => return Err(PlanError::ShardWithLimit),
                _ => {}
            }
        } else if self.sealed {
            return Err(PlanError::SealWithoutShard);
        }
        Ok(())
    }

    /// Whether the run searches a whole tree (a count, or a listing of every solution): only
    /// those use more than one thread.
    pub fn is_whole(&self) -> bool {
        self.task == Task::Count || self.limit.is_none()
    }

    /// The notes the plan will give, known before the puzzle is read (so a front end can show
    /// them at once).
    pub fn notes(&self) -> Vec<Note> {
        let cap = available_cores() * MAX_THREADS_PER_CORE;
        if self.is_whole() && self.threads > cap {
            vec![Note::ThreadsClamped {
                asked: self.threads,
                to: cap,
            }]
        } else {
            Vec::new()
        }
    }

    /// The options every run of these settings shares: engine, mode, pruning, the SAT
    /// engine's settings, on `threads`; no limit, shard or progress.
    fn options(&self, puzzle: &Puzzle, threads: usize) -> RunOptions {
        RunOptions {
            engine: self.engine,
            up_to: counting_mode(self.up_to, puzzle),
            limit: None,
            threads,
            prune: !self.no_prune,
            amo: self.amo,
            sat_cubes: self.sat_cubes,
            sat_exact_budget: self.sat_exact_budget,
            progress: None,
            shard: None,
        }
    }

    /// The plan for `puzzle`: [`Settings::check`]'s rules, the counting mode, the threads.
    ///
    /// Threads pay off on whole trees; a limited run stops after a few hundred nodes, where
    /// splitting the tree costs more than it saves (benches/README.md), and a limited SAT
    /// run wants its first cubes in order, soon: those run on one thread.
    pub fn resolve(&self, puzzle: &Puzzle) -> Result<Plan, PlanError> {
        self.check()?;
        let limited_sat = self.engine.resolve() == EngineChoice::Sat && self.limit.is_some();
        let threads = if self.is_whole() && !limited_sat {
            cubesat_xc::worker_threads(self.threads)
        } else {
            1
        };
        Ok(Plan {
            task: self.task,
            options: RunOptions {
                limit: self.limit,
                shard: self.shard,
                ..self.options(puzzle, threads)
            },
            notes: self.notes(),
        })
    }
}

/// A run that takes solutions apart: the search for assemblies, and the analyses.
#[derive(Clone, Debug)]
pub struct DisassemblyPlan {
    /// The search for assemblies: every one, in the counting mode, on every thread asked for.
    pub run: RunOptions,
    /// The analyses of the assemblies.
    pub analysis: crate::disassembly::solutions::Options,
    /// Stop once this many solutions came apart (`None`: all).
    pub keep: Option<u64>,
    /// Assemblies handed to the analysers at once: a few per thread when only a few
    /// solutions are wanted (the first come soon), more for whole runs (less waiting).
    pub batch: usize,
    /// What the plan changed from the settings.
    pub notes: Vec<Note>,
}

impl Settings {
    /// The plan of a disassembly run: `mode` as asked, else BurrTools' rule for a BurrTools
    /// file (or one converted from it) and the complete search otherwise; every assembly is
    /// searched (a limit counts solutions that come apart), on the threads asked for, each
    /// assembly's analysis bounded by `max_states`.
    pub fn resolve_disassembly(
        &self,
        puzzle: &Puzzle,
        mode: Option<crate::disassembly::Mode>,
        max_states: Option<u64>,
    ) -> Result<DisassemblyPlan, PlanError> {
        use crate::disassembly::{DEFAULT_MAX_STATES, Mode};
        if self.shard.is_some() || self.sealed {
            return Err(PlanError::DisassemblyNotShardable);
        }
        if puzzle.grid != crate::geometry::Grid::Cube {
            return Err(PlanError::DisassemblyGrid {
                grid: puzzle.grid.name(),
            });
        }
        if let Some(c) = self.sat_cubes.filter(|&c| c > MAX_CUBES) {
            return Err(PlanError::TooManyCubes {
                asked: c,
                most: MAX_CUBES,
            });
        }
        let threads = cubesat_xc::worker_threads(self.threads);
        let mode = mode.unwrap_or(if puzzle.default_up_to == Some(UpTo::BurrTools) {
            Mode::BurrTools
        } else {
            Mode::Complete
        });
        let run = self.options(puzzle, threads);
        let notes = if self.threads > threads {
            vec![Note::ThreadsClamped {
                asked: self.threads,
                to: threads,
            }]
        } else {
            Vec::new()
        };
        Ok(DisassemblyPlan {
            run,
            analysis: crate::disassembly::solutions::Options {
                mode,
                burrtools_orientation: true,
                threads,
                max_states: max_states.unwrap_or(DEFAULT_MAX_STATES),
                progress: None,
            },
            keep: self.limit,
            batch: if self.limit.is_some_and(|w| w <= 16) {
                4 * threads
            } else {
                64 * threads
            },
            notes,
        })
    }
}

/// The run that finds the solution an assembled picture or STL shows: the first solution
/// up to rotation, on one thread.
pub fn first_solution() -> RunOptions {
    RunOptions {
        limit: Some(1),
        up_to: UpTo::Rotation,
        ..RunOptions::default()
    }
}

/// An export checked: the reduction its instance carries, so that an external solver's count
/// is the count of the mode it names.
pub struct ExportPlan {
    /// The counting mode.
    pub up_to: UpTo,
    /// The reduction (excluded options, and what it does).
    pub reducer: Reducer,
    /// The reduction described, for the file's header.
    pub reduction: String,
}

impl ExportPlan {
    /// Checks an export of `puzzle` (with its placements) counted `up_to`: an external count
    /// means every placement (`none`) or, where one piece's restriction is exact, one
    /// solution per rotation class.
    pub fn new(
        puzzle: &Puzzle,
        table: &PlacementTable,
        up_to: UpTo,
    ) -> Result<ExportPlan, ExportError> {
        if !matches!(up_to, UpTo::None | UpTo::Rotation) {
            return Err(PlanError::ExportMode { up_to }.into());
        }
        let reducer = Reducer::new(puzzle, table, up_to, false)?;
        let reduction = reducer.describe(puzzle);
        if up_to == UpTo::Rotation && !reducer.restriction_is_exact() {
            return Err(PlanError::ExportInexact {
                puzzle: echo(&puzzle.name).to_string(),
                reduction,
            }
            .into());
        }
        Ok(ExportPlan {
            up_to,
            reducer,
            reduction,
        })
    }

    /// The options the instance leaves out.
    pub fn excluded(&self) -> &[u32] {
        self.reducer.excluded()
    }
}

/// Why an export was refused: by its rules, or by the library while building its reduction.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A rule of the export.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The library.
    #[error(transparent)]
    Library(#[from] Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::bundled;

    fn soma() -> Puzzle {
        bundled("soma").unwrap()
    }

    #[test]
    fn shards_must_merge_and_run_whole() {
        let shard: Shard = "0/4".parse().unwrap();
        let count = Settings {
            task: Task::Count,
            shard: Some(shard),
            ..Settings::default()
        };
        assert!(count.check().is_ok());
        let first = Settings {
            task: Task::List,
            limit: Some(1),
            shard: Some(shard),
            ..Settings::default()
        };
        assert_eq!(first.check(), Err(PlanError::ShardNotMergeable));
        let text_listing = Settings {
            task: Task::List,
            shard: Some(shard),
            ..Settings::default()
        };
        assert_eq!(text_listing.check(), Err(PlanError::ShardNotMergeable));
        let limited_count = Settings {
            limit: Some(3),
            ..count.clone()
        };
        let whole_record = Settings {
            task: Task::List,
            listing_is_record: true,
            shard: Some(shard),
            ..Settings::default()
        };
        assert!(whole_record.check().is_ok());
        assert_eq!(limited_count.check(), Err(PlanError::ShardWithLimit));
        let sealed = Settings {
            sealed: true,
            ..Settings::default()
        };
        assert_eq!(sealed.check(), Err(PlanError::SealWithoutShard));
        assert_eq!(sealed.check().unwrap_err().setting(), "seal key");
    }

    #[test]
    fn threads_go_to_whole_trees_only() {
        let cap = available_cores() * MAX_THREADS_PER_CORE;
        let p = soma();
        let count = Settings {
            task: Task::Count,
            threads: cap + 1,
            ..Settings::default()
        };
        let plan = count.resolve(&p).unwrap();
        assert_eq!(plan.options.threads, cap);
        assert_eq!(
            plan.notes,
            vec![Note::ThreadsClamped {
                asked: cap + 1,
                to: cap
            }]
        );
        let first = Settings {
            limit: Some(1),
            threads: 0,
            ..Settings::default()
        };
        let plan = first.resolve(&p).unwrap();
        assert_eq!((plan.options.threads, plan.notes.len()), (1, 0));
        assert_eq!(plan.options.up_to, UpTo::Rotation);
        let cubes = Settings {
            sat_cubes: Some(MAX_CUBES + 1),
            ..Settings::default()
        };
        assert!(matches!(
            cubes.resolve(&p),
            Err(PlanError::TooManyCubes { .. })
        ));
    }

    #[test]
    fn disassembly_runs_whole_with_the_rule_of_the_file() {
        use crate::disassembly::Mode;
        let p = soma();
        let plan = Settings {
            limit: Some(2),
            ..Settings::default()
        }
        .resolve_disassembly(&p, None, None)
        .unwrap();
        assert_eq!(plan.analysis.mode, Mode::Complete);
        assert_eq!((plan.run.limit, plan.keep), (None, Some(2)));
        let mut burr = soma();
        burr.default_up_to = Some(UpTo::BurrTools);
        let plan = Settings::default()
            .resolve_disassembly(&burr, None, Some(7))
            .unwrap();
        assert_eq!(
            (plan.analysis.mode, plan.run.up_to, plan.analysis.max_states),
            (Mode::BurrTools, UpTo::BurrTools, 7)
        );
        let sharded = Settings {
            task: Task::Count,
            shard: Some("0/2".parse().unwrap()),
            ..Settings::default()
        };
        assert_eq!(
            sharded.resolve_disassembly(&p, None, None).unwrap_err(),
            PlanError::DisassemblyNotShardable
        );
    }

    #[test]
    fn exports_refuse_what_an_external_count_cannot_mean() {
        let inst = crate::run::Instance::new(soma()).unwrap();
        assert!(ExportPlan::new(&inst.puzzle, &inst.table, UpTo::None).is_ok());
        assert!(ExportPlan::new(&inst.puzzle, &inst.table, UpTo::Rotation).is_ok());
        for mode in [UpTo::RotationReflection, UpTo::BurrTools] {
            assert!(matches!(
                ExportPlan::new(&inst.puzzle, &inst.table, mode),
                Err(ExportError::Plan(PlanError::ExportMode { .. }))
            ));
        }
    }
}
