//! How a run behaves, decided once for every front end: the settings a user gives
//! ([`Settings`]: raw, as typed or clicked) are checked and resolved against the puzzle into a
//! [`Plan`] (the run's [`RunOptions`] and the notes a user should see), a disassembly's and
//! an estimate's settings into a [`DisassemblyPlan`] and an [`EstimatePlan`], and an export's
//! mode is checked into an [`ExportPlan`]. The command line and the studio only collect settings
//! and show what comes back; refusals are typed ([`PlanError`]) and name settings, not flags.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use cubesat_xc::encoding::AtMostOne;
use cubesat_xc::exact::EstimateOptions;
use cubesat_xc::memo::MAX_CACHE_BYTES;
use cubesat_xc::{MAX_THREADS_PER_CORE, Progress, Shard, available_cores, sat::MAX_CUBES};

use crate::counting::{Reducer, UpTo};
use crate::disassembly::solutions::Options as AnalysisOptions;
use crate::disassembly::{DEFAULT_MAX_STATES, Level, Mode, Order};
use crate::echo::echo;
use crate::error::Error;
use crate::estimate::{
    CountEstimate, DEFAULT_SECONDS, MAX_PROBES, MAX_SECONDS, MAX_WALL, ShardPlan,
};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::run::{EngineChoice, Instance, RunOptions};

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
    /// The most bytes the memo engine's cache may take (at most [`MAX_CACHE_BYTES`]);
    /// `None` is its default, [`cubesat_xc::memo::DEFAULT_CACHE_BYTES`].
    pub memory: Option<u64>,
    /// More counting modes counted from the same search ([`RunOptions::also_up_to`]).
    pub also_up_to: Vec<UpTo>,
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
        "grid: cubesat takes apart assemblies of {able} only, as BurrTools does, and this puzzle is made of {grid}"
    )]
    DisassemblyGrid {
        /// The puzzle's grid name.
        grid: &'static str,
        /// The names of the grids the disassembler takes apart.
        able: String,
    },
    /// A memory bound above [`MAX_CACHE_BYTES`].
    #[error("memory: {asked} bytes is more than the {most} bytes (64 GiB) a cache may take")]
    MemoryTooLarge {
        /// Bytes asked for.
        asked: u64,
        /// The bound.
        most: u64,
    },
    /// A memory bound that is not a size.
    #[error(
        "memory: '{0}' is not a size (a whole number of bytes, or a number with K, M, G or T: binary units, 1K = 1024 bytes)"
    )]
    MemorySyntax(String),
    /// An estimate's probe count out of bounds (1 to [`MAX_PROBES`]).
    #[error("samples: {asked} is out of bounds (1 to {most})")]
    EstimateSamples {
        /// Probes asked for.
        asked: u64,
        /// The bound.
        most: u64,
    },
    /// An estimate's time out of bounds (above 0, at most [`MAX_SECONDS`]).
    #[error("seconds: {asked} is out of bounds (above 0, at most {most}, a week)")]
    EstimateSeconds {
        /// The time asked for, as a number is written.
        asked: String,
        /// The bound, in seconds.
        most: u64,
    },
    /// A shard plan's wall time longer than [`MAX_WALL`].
    #[error("wall: a shard plan is made for at most a year")]
    WallTooLong,
    /// Cores for shards without a wall time, which is what a shard plan is made for.
    #[error("cores: the cores are those of a shard plan, made for a wall time: give one")]
    CoresWithoutWall,
    /// Several counting modes for a run that is not a whole count by an engine that sees
    /// its solutions.
    #[error(
        "up to: several counting modes share one search in a whole count (no limit) by an engine that visits the solutions (not memo)"
    )]
    SeveralModes,
    /// A counting mode asked for twice.
    #[error("up to: {up_to} is asked for twice")]
    ModeTwice {
        /// The mode.
        up_to: UpTo,
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
    /// The setting at fault: `cubes`, `memory`, `shard`, `seal key`, `grid`, `samples`,
    /// `seconds`, `wall`, `cores` or `up to`.
    pub fn setting(&self) -> &'static str {
        match self {
            PlanError::TooManyCubes { .. } => "cubes",
            PlanError::MemoryTooLarge { .. } | PlanError::MemorySyntax(_) => "memory",
            PlanError::ShardNotMergeable
            | PlanError::ShardWithLimit
            | PlanError::DisassemblyNotShardable => "shard",
            PlanError::SealWithoutShard => "seal key",
            PlanError::DisassemblyGrid { .. } => "grid",
            PlanError::EstimateSamples { .. } => "samples",
            PlanError::EstimateSeconds { .. } => "seconds",
            PlanError::WallTooLong => "wall",
            PlanError::CoresWithoutWall => "cores",
            PlanError::ExportMode { .. }
            | PlanError::ExportInexact { .. }
            | PlanError::SeveralModes
            | PlanError::ModeTwice { .. } => "up to",
        }
    }
}

/// A memory size as a user writes it: a whole number of bytes, or a number (decimals
/// allowed) followed by `K`, `M`, `G` or `T`, alone or as `KiB`..`TiB`, in binary units
/// (`1.5G` is 1,610,612,736 bytes). Bounded by [`MAX_CACHE_BYTES`] later, in
/// [`Settings::check`]; a size past `u64` is refused here.
pub fn parse_bytes(text: &str) -> Result<u64, PlanError> {
    let bad = || PlanError::MemorySyntax(echo(text).to_string());
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim() {
        "" | "B" => 0,
        "K" | "KiB" => 10,
        "M" | "MiB" => 20,
        "G" | "GiB" => 30,
        "T" | "TiB" => 40,
        _ => return Err(bad()),
    };
    if number.is_empty() || number.starts_with('.') || number.ends_with('.') {
        return Err(bad());
    }
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if frac.contains('.') || (shift == 0 && !frac.is_empty()) {
        return Err(bad());
    }
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    let mut bytes = whole.checked_mul(1u64 << shift).ok_or_else(bad)?;
    if !frac.is_empty() {
        // The fraction of the unit, rounded down to a byte (at most 19 digits are kept).
        let digits = &frac[..frac.len().min(18)];
        let f: u128 = digits.parse().map_err(|_| bad())?;
        let part = f * (1u128 << shift) / 10u128.pow(digits.len() as u32);
        bytes = bytes.checked_add(part as u64).ok_or_else(bad)?;
    }
    Ok(bytes)
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
        if let Some(m) = self.memory.filter(|&m| m > MAX_CACHE_BYTES) {
            return Err(PlanError::MemoryTooLarge {
                asked: m,
                most: MAX_CACHE_BYTES,
            });
        }
        if !self.also_up_to.is_empty()
            && (self.task != Task::Count
                || self.limit.is_some()
                || self.engine == EngineChoice::Memo)
        {
            return Err(PlanError::SeveralModes);
        }
        let modes = self.up_to.iter().chain(&self.also_up_to);
        for (i, m) in modes.clone().enumerate() {
            if modes.clone().take(i).any(|o| o == m) {
                return Err(PlanError::ModeTwice { up_to: *m });
            }
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
            memory: self.memory,
            also_up_to: self.also_up_to.clone(),
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

/// The settings of a disassembly as a user gives them, beside the run's ([`Settings`]).
#[derive(Clone, Debug, Default)]
pub struct DisassemblySettings {
    /// The rule; `None` takes BurrTools' for a BurrTools file (or one converted from it) and
    /// the complete search otherwise.
    pub mode: Option<Mode>,
    /// The states one assembly's analysis may visit; `None` is [`DEFAULT_MAX_STATES`].
    pub max_states: Option<u64>,
    /// Keep only the solutions of at least this level.
    pub min_level: Option<Level>,
    /// The order of the solutions kept.
    pub order: Order,
}

/// A run that takes solutions apart: the search for assemblies, the analyses, and which of
/// the solutions that come apart are kept (what `disassembly::stream` runs).
#[derive(Clone, Debug)]
pub struct DisassemblyPlan {
    /// The search for assemblies: every one, in the counting mode, on every thread asked for.
    pub run: RunOptions,
    /// The analyses of the assemblies.
    pub analysis: AnalysisOptions,
    /// Keep only the solutions of at least this level.
    pub min_level: Option<Level>,
    /// The order of the solutions kept.
    pub order: Order,
    /// At most this many solutions that come apart (`None`: all). In the order found the run
    /// stops there; by level every assembly is analysed, and the hardest are kept.
    pub keep: Option<u64>,
    /// Assemblies handed to the analysers at once: a few per thread when only a few
    /// solutions are wanted (the first come soon), more for whole runs (less waiting).
    pub batch: usize,
    /// What the plan changed from the settings.
    pub notes: Vec<Note>,
}

impl DisassemblyPlan {
    /// The plan reporting to `progress`: the search's and the analyses' counters, and the
    /// interrupt flag that stops both (Ctrl-C, a stop button).
    pub fn with_progress(mut self, progress: Arc<Progress>) -> DisassemblyPlan {
        self.run.progress = Some(progress.clone());
        self.analysis.progress = Some(progress);
        self
    }

    /// The number of solutions that come apart after which the run stops: `keep` in the
    /// order found, none by level (every assembly is needed to sort them).
    pub fn stop_after(&self) -> Option<u64> {
        match self.order {
            Order::Found => self.keep,
            Order::Level => None,
        }
    }
}

impl Settings {
    /// The plan of a disassembly run: the rule asked for, else BurrTools' for a BurrTools
    /// file (or one converted from it) and the complete search otherwise; every assembly is
    /// searched (a limit counts solutions that come apart), on the threads asked for, each
    /// assembly's analysis bounded by the states asked for.
    pub fn resolve_disassembly(
        &self,
        puzzle: &Puzzle,
        disassembly: &DisassemblySettings,
    ) -> Result<DisassemblyPlan, PlanError> {
        if self.shard.is_some() || self.sealed {
            return Err(PlanError::DisassemblyNotShardable);
        }
        if !puzzle.grid.can_disassemble() {
            return Err(PlanError::DisassemblyGrid {
                grid: puzzle.grid.name(),
                able: crate::geometry::Grid::disassembled_names(),
            });
        }
        if let Some(c) = self.sat_cubes.filter(|&c| c > MAX_CUBES) {
            return Err(PlanError::TooManyCubes {
                asked: c,
                most: MAX_CUBES,
            });
        }
        let threads = cubesat_xc::worker_threads(self.threads);
        let mode = disassembly
            .mode
            .unwrap_or(if puzzle.default_up_to == Some(UpTo::BurrTools) {
                Mode::BurrTools
            } else {
                Mode::Complete
            });
        let notes = if self.threads > threads {
            vec![Note::ThreadsClamped {
                asked: self.threads,
                to: threads,
            }]
        } else {
            Vec::new()
        };
        let few = disassembly.order == Order::Found && self.limit.is_some_and(|w| w <= 16);
        Ok(DisassemblyPlan {
            run: self.options(puzzle, threads),
            analysis: AnalysisOptions {
                mode,
                burrtools_orientation: true,
                threads,
                max_states: disassembly.max_states.unwrap_or(DEFAULT_MAX_STATES),
                progress: None,
            },
            min_level: disassembly.min_level.clone(),
            order: disassembly.order,
            keep: self.limit,
            batch: if few { 4 * threads } else { 64 * threads },
            notes,
        })
    }
}

/// The settings of an estimate as a user gives them, beside its count's ([`Settings`]).
#[derive(Clone, Debug, Default)]
pub struct EstimateSettings {
    /// Stop after this many probes.
    pub samples: Option<u64>,
    /// Stop after this many seconds; with neither this nor `samples`, [`DEFAULT_SECONDS`].
    pub seconds: Option<f64>,
    /// The probes' seed: with a probe count and no time, the same seed gives the same
    /// estimate.
    pub seed: u64,
    /// Plan shards that finish the count within this wall time.
    pub wall: Option<Duration>,
    /// The cores the shards may run on at once (with a wall time); `None` is this
    /// machine's.
    pub cores: Option<u32>,
}

impl EstimateSettings {
    /// The rules that need no puzzle, checked before one is read: the probe count's, the
    /// time's and the wall time's bounds, and cores only with a wall time.
    pub fn check(&self) -> Result<(), PlanError> {
        if let Some(p) = self.samples
            && !crate::estimate::probes_in_bounds(p)
        {
            return Err(PlanError::EstimateSamples {
                asked: p,
                most: MAX_PROBES,
            });
        }
        if let Some(s) = self.seconds()
            && !crate::estimate::seconds_in_bounds(s)
        {
            return Err(PlanError::EstimateSeconds {
                asked: s.to_string(),
                most: MAX_SECONDS as u64,
            });
        }
        if self.wall.is_some_and(|w| w > MAX_WALL) {
            return Err(PlanError::WallTooLong);
        }
        if self.cores.is_some() && self.wall.is_none() {
            return Err(PlanError::CoresWithoutWall);
        }
        Ok(())
    }

    /// The time the probes run: the one asked for, else [`DEFAULT_SECONDS`] unless a probe
    /// count was given.
    pub fn seconds(&self) -> Option<f64> {
        match (self.seconds, self.samples) {
            (Some(s), _) => Some(s),
            (None, None) => Some(DEFAULT_SECONDS),
            (None, Some(_)) => None,
        }
    }
}

/// An estimate resolved: the count it is of, its probes, and what its shard plan is for.
#[derive(Clone, Debug)]
pub struct EstimatePlan {
    /// The count estimated: the run a count in these settings' mode would be, on the exact
    /// engine (whose tree the probes sample), one thread.
    pub count: RunOptions,
    /// The probes: how many, how long, their seed.
    pub probes: EstimateOptions,
    /// The probe count asked for, if any (the probes stop at it).
    pub samples: Option<u64>,
    /// The time the probes run, as given or by default, in seconds (`probes.time` as a
    /// number, for the words that tell it).
    pub seconds: Option<f64>,
    /// The wall time the shard plan must fit, when one is asked for.
    pub wall: Option<Duration>,
    /// The cores the shards may run on at once: those asked for, else this machine's.
    pub cores: u32,
}

impl EstimatePlan {
    /// The shard plan that finishes the count `estimate` measured within the wall time, when
    /// one was asked for and the estimate has a rate.
    pub fn shards(&self, estimate: &CountEstimate) -> Option<ShardPlan> {
        self.wall.and_then(|w| estimate.plan(w, self.cores))
    }
}

impl Settings {
    /// The plan of an estimate of the count in these settings' counting mode and pruning
    /// (the other run settings do not apply: the probes sample the exact engine's tree, on
    /// one thread): [`EstimateSettings::check`]'s rules, the time, the cores.
    pub fn resolve_estimate(
        &self,
        puzzle: &Puzzle,
        estimate: &EstimateSettings,
    ) -> Result<EstimatePlan, PlanError> {
        estimate.check()?;
        let count = Settings {
            task: Task::Count,
            up_to: self.up_to,
            engine: EngineChoice::Exact,
            threads: 1,
            no_prune: self.no_prune,
            ..Settings::default()
        }
        .resolve(puzzle)?;
        let seconds = estimate.seconds();
        Ok(EstimatePlan {
            count: count.options,
            probes: EstimateOptions {
                seed: estimate.seed,
                probes: estimate.samples,
                time: seconds.map(Duration::from_secs_f64),
                ..EstimateOptions::default()
            },
            samples: estimate.samples,
            seconds,
            wall: estimate.wall,
            cores: estimate
                .cores
                .unwrap_or_else(|| available_cores().try_into().unwrap_or(u32::MAX)),
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

/// Which projection lines a DIMACS export carries. Both kinds name the same set, the option
/// variables (see [`crate::interop::dimacs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Projection {
    /// `c p show … 0`, the model-counting competition format (d4, Ganak, ApproxMC).
    #[default]
    Show,
    /// `c ind … 0` only, for tools that read nothing else (CryptoMiniSat 5's `--maxsol`,
    /// older ApproxMC and UniGen builds).
    Ind,
    /// Both kinds of line (d4 refuses such a file).
    Both,
    /// No projection line: with an auxiliary-variable encoding, a plain model count then
    /// counts encodings, not solutions.
    None,
}

impl Projection {
    /// Every value, in the order front ends list them.
    pub const ALL: [Projection; 4] = [
        Projection::Show,
        Projection::Ind,
        Projection::Both,
        Projection::None,
    ];

    /// The name front ends use.
    pub fn name(self) -> &'static str {
        match self {
            Projection::Show => "show",
            Projection::Ind => "ind",
            Projection::Both => "both",
            Projection::None => "none",
        }
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Projection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Projection::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown projection '{}' (show, ind, both or none)", echo(s)))
    }
}

/// The settings of an export as a user gives them (the format aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportSettings {
    /// The counting mode: `none` (the default) or `rotation`.
    pub up_to: UpTo,
    /// The at-most-one encoding of a CNF export.
    pub amo: AtMostOne,
    /// The projection lines of a CNF export.
    pub projection: Projection,
}

impl Default for ExportSettings {
    fn default() -> ExportSettings {
        ExportSettings {
            up_to: UpTo::None,
            amo: AtMostOne::default(),
            projection: Projection::default(),
        }
    }
}

/// An export checked: the instance, the reduction it carries (so that an external solver's
/// count is the count of the mode it names) and the writers' settings. Every format's writer
/// takes this ([`crate::interop::export`]).
pub struct ExportPlan {
    /// The instance exported: the puzzle, its placements and its exact-cover model.
    pub instance: Arc<Instance>,
    /// The counting mode.
    pub up_to: UpTo,
    /// The reduction (excluded options, and what it does).
    pub reducer: Reducer,
    /// The reduction described, for the file's header.
    pub reduction: String,
    /// The at-most-one encoding of a CNF export.
    pub amo: AtMostOne,
    /// The projection lines of a CNF export.
    pub projection: Projection,
}

impl ExportPlan {
    /// Checks an export of `instance` with `settings`: an external count means every
    /// placement (`none`) or, where one piece's restriction is exact, one solution per
    /// rotation class.
    pub fn new(
        instance: impl Into<Arc<Instance>>,
        settings: ExportSettings,
    ) -> Result<ExportPlan, ExportError> {
        let up_to = settings.up_to;
        if !matches!(up_to, UpTo::None | UpTo::Rotation) {
            return Err(PlanError::ExportMode { up_to }.into());
        }
        let plan = ExportPlan::unchecked(instance, settings)?;
        if up_to == UpTo::Rotation && !plan.reducer.restriction_is_exact() {
            return Err(PlanError::ExportInexact {
                puzzle: echo(&plan.puzzle().name).to_string(),
                reduction: plan.reduction,
            }
            .into());
        }
        Ok(plan)
    }

    /// The plan of `settings` without the export's rules: the reduction of any mode (with
    /// counting off, so `none` excludes nothing), for tests and tools that read the
    /// instance themselves.
    pub fn unchecked(
        instance: impl Into<Arc<Instance>>,
        settings: ExportSettings,
    ) -> Result<ExportPlan, Error> {
        let instance = instance.into();
        let reducer = Reducer::new(&instance.puzzle, &instance.table, settings.up_to, false)?;
        let reduction = reducer.describe(&instance.puzzle);
        Ok(ExportPlan {
            instance,
            up_to: settings.up_to,
            reducer,
            reduction,
            amo: settings.amo,
            projection: settings.projection,
        })
    }

    /// The options the instance leaves out.
    pub fn excluded(&self) -> &[u32] {
        self.reducer.excluded()
    }

    /// The puzzle exported.
    pub fn puzzle(&self) -> &Puzzle {
        &self.instance.puzzle
    }

    /// Its placements (option `o` is placement `o`).
    pub fn table(&self) -> &PlacementTable {
        &self.instance.table
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

    #[test]
    fn memory_sizes_read_in_binary_units_and_are_bounded() {
        for (text, bytes) in [
            ("0", 0),
            ("4096", 4096),
            ("4K", 4096),
            ("4KiB", 4096),
            ("1.5M", 3 << 19),
            ("1G", 1 << 30),
            (" 64GiB ", 64 << 30),
            ("2T", 2 << 40),
            ("0.5K", 512),
        ] {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for bad in [
            "",
            "G",
            "-1",
            "1.5",
            "4GB",
            "4 g",
            "1..5G",
            ".5G",
            "5.G",
            "99999999999T",
            "1e9",
        ] {
            assert!(
                matches!(parse_bytes(bad), Err(PlanError::MemorySyntax(_))),
                "{bad}"
            );
        }
        let too_much = Settings {
            memory: Some(MAX_CACHE_BYTES + 1),
            ..Settings::default()
        };
        assert_eq!(too_much.check().unwrap_err().setting(), "memory");
        let most = Settings {
            memory: Some(MAX_CACHE_BYTES),
            ..Settings::default()
        };
        assert!(most.check().is_ok());
    }
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
        let p = soma();
        let plan = Settings {
            limit: Some(2),
            ..Settings::default()
        }
        .resolve_disassembly(&p, &DisassemblySettings::default())
        .unwrap();
        assert_eq!(plan.analysis.mode, Mode::Complete);
        assert_eq!((plan.run.limit, plan.keep), (None, Some(2)));
        let mut burr = soma();
        burr.default_up_to = Some(UpTo::BurrTools);
        let plan = Settings::default()
            .resolve_disassembly(
                &burr,
                &DisassemblySettings {
                    max_states: Some(7),
                    ..DisassemblySettings::default()
                },
            )
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
            sharded
                .resolve_disassembly(&p, &DisassemblySettings::default())
                .unwrap_err(),
            PlanError::DisassemblyNotShardable
        );
    }

    #[test]
    fn a_disassembly_by_level_analyses_every_assembly() {
        let settings = Settings {
            limit: Some(3),
            ..Settings::default()
        };
        let found = settings
            .resolve_disassembly(&soma(), &DisassemblySettings::default())
            .unwrap();
        assert_eq!(found.stop_after(), Some(3));
        let by_level = DisassemblySettings {
            order: Order::Level,
            ..DisassemblySettings::default()
        };
        let plan = settings.resolve_disassembly(&soma(), &by_level).unwrap();
        assert_eq!((plan.keep, plan.stop_after()), (Some(3), None));
        assert!(plan.batch > found.batch);
    }

    #[test]
    fn estimates_sample_the_exact_engine_for_a_time_or_a_probe_count() {
        let p = soma();
        let plan = Settings {
            up_to: Some(UpTo::None),
            engine: EngineChoice::Sat,
            threads: 8,
            ..Settings::default()
        }
        .resolve_estimate(&p, &EstimateSettings::default())
        .unwrap();
        let count = &plan.count;
        assert_eq!(
            (count.engine, count.threads, count.up_to, count.limit),
            (EngineChoice::Exact, 1, UpTo::None, None)
        );
        assert_eq!((plan.samples, plan.seconds), (None, Some(DEFAULT_SECONDS)));
        assert_eq!(plan.wall, None);
        let probes = EstimateSettings {
            samples: Some(5),
            ..EstimateSettings::default()
        };
        assert_eq!(probes.seconds(), None);
        let day = Some(Duration::from_secs(86_400));
        let shards = EstimateSettings {
            wall: day,
            cores: Some(4),
            ..EstimateSettings::default()
        };
        let plan = Settings::default().resolve_estimate(&p, &shards).unwrap();
        assert_eq!((plan.wall, plan.cores), (day, 4));
        let refused = [
            (Some(0), None, None, None, "samples"),
            (Some(MAX_PROBES + 1), None, None, None, "samples"),
            (None, Some(-1.0), None, None, "seconds"),
            (None, Some(f64::NAN), None, None, "seconds"),
            (None, None, Some(MAX_WALL * 2), None, "wall"),
            (None, None, None, Some(4), "cores"),
        ];
        for (samples, seconds, wall, cores, setting) in refused {
            let e = EstimateSettings {
                samples,
                seconds,
                wall,
                cores,
                seed: 0,
            };
            assert_eq!(e.check().unwrap_err().setting(), setting, "{e:?}");
            assert!(Settings::default().resolve_estimate(&p, &e).is_err());
        }
    }

    #[test]
    fn exports_refuse_what_an_external_count_cannot_mean() {
        let inst = Arc::new(crate::run::Instance::new(soma()).unwrap());
        let settings = |up_to| ExportSettings {
            up_to,
            ..ExportSettings::default()
        };
        assert!(ExportPlan::new(inst.clone(), settings(UpTo::None)).is_ok());
        assert!(ExportPlan::new(inst.clone(), settings(UpTo::Rotation)).is_ok());
        for mode in [UpTo::RotationReflection, UpTo::BurrTools] {
            assert!(matches!(
                ExportPlan::new(inst.clone(), settings(mode)),
                Err(ExportError::Plan(PlanError::ExportMode { .. }))
            ));
        }
    }
}
