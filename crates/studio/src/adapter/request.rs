//! What a studio job is asked and what it leaves: the request's actions and settings, the
//! sink its solutions go to, the run's summary and files, and the plan settings a request
//! makes (below the runs themselves, which `runs`, `disassemble` and `estimate` carry out).

use std::sync::Arc;

use cubesat::UpTo;
use cubesat::disassembly::Level;
use cubesat::plan::{DisassemblySettings, EstimateSettings, Settings, Task};
use cubesat::run::{EngineChoice, Instance, RunReport};
use cubesat_xc::encoding::AtMostOne;
use serde_json::Value;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// List solutions (up to a limit, or all), keeping them for the browser.
    Solve,
    /// Count solutions.
    Count,
    /// Generate a puzzle with hint pieces.
    Generate,
    /// Take the solutions apart (`cubesat solve --disassemble`), keeping every one analysed.
    Disassemble,
    /// Estimate what a count will cost, with a shard plan (`cubesat estimate`).
    Estimate,
    /// Make a challenge set (`cubesat generate --set`): graded challenges and their booklet.
    Challenges,
}

impl Action {
    /// The action's name in requests.
    pub fn name(self) -> &'static str {
        match self {
            Action::Solve => "solve",
            Action::Count => "count",
            Action::Generate => "generate",
            Action::Disassemble => "disassemble",
            Action::Estimate => "estimate",
            Action::Challenges => "challenges",
        }
    }

    /// Whether its progress is a search tree's (a count or listing: the fraction done and the
    /// time left mean something).
    pub fn searches_a_tree(self) -> bool {
        matches!(self, Action::Solve | Action::Count | Action::Disassemble)
    }
}

/// A run as the page asks for it, settings checked but not yet resolved into a plan.
#[derive(Clone, Debug)]
pub struct RunRequest {
    /// What to do.
    pub action: Action,
    /// The counting mode asked for (`None`: the puzzle's or the default).
    pub up_to: Option<UpTo>,
    /// More modes a count counts from the same search ([`cubesat::run::RunOptions::also_up_to`]).
    pub also_up_to: Vec<UpTo>,
    /// The engine.
    pub engine: EngineChoice,
    /// Threads asked for (0 = one per core).
    pub threads: usize,
    /// At most this many solutions (listing or counting); `None` = all.
    pub limit: Option<u64>,
    /// The SAT engine's at-most-one encoding.
    pub amo: AtMostOne,
    /// The SAT engine's cubes.
    pub cubes: Option<usize>,
    /// The SAT engine's exact budget.
    pub exact_budget: Option<u64>,
    /// The memo engine's cache bound in bytes (`None`: the default).
    pub memory: Option<u64>,
    /// Generate: hint pieces, seed, uniqueness.
    pub generate: cubesat::generate::GenerateOptions,
    /// Disassemble: the rule and the states one assembly may visit.
    pub disassembly: DisassemblySettings,
    /// Estimate: probes, time, seed, and the wall time and cores of a shard plan.
    pub estimate: EstimateSettings,
    /// Challenges: the set's size, levels and seed, and the booklet's paper.
    pub challenges: Option<(
        cubesat::challenge::SetOptions,
        cubesat::challenge::book::Paper,
    )>,
}

/// How one assembly came apart, as a disassembly job keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// BurrTools' level string (`4.9.3`); `None` when it does not come apart.
    pub level: Option<String>,
    /// The level as numbers, for sorting (empty when it does not come apart).
    pub rank: Level,
    /// Moves of the whole plan.
    pub moves: usize,
}

/// Where a run's solutions go while it runs.
pub trait Keep {
    /// The instance the solutions belong to, once it is built.
    fn instance(&mut self, inst: Arc<Instance>);
    /// One solution (placement indices); returns false to stop the run.
    fn solution(&mut self, placements: &[u32]) -> bool;
    /// One assembly of a disassembly run and how it comes apart; returns false to stop.
    fn analysed(&mut self, placements: &[u32], taken: Taken) -> bool {
        let _ = taken;
        self.solution(placements)
    }
    /// Where a run that is not a search stands (a challenge set's candidates found of those
    /// wanted), for the page's progress.
    fn note(&mut self, note: Value) {
        let _ = note;
    }
}

/// A file a finished run offers for download (an estimate's shard scripts, a challenge
/// set's booklet).
#[derive(Clone, Debug)]
pub struct Attached {
    /// What the page asks for (`sbatch`, `shards`, `book-pdf`).
    pub format: &'static str,
    /// Its file name.
    pub file_name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its media type.
    pub mime: &'static str,
}

/// A finished run: the page's summary, and what the downloads of its solutions need.
pub struct Finished {
    /// For the page: the count line, the statistics, the report's figures.
    pub summary: Value,
    /// The run's report (none for a generation).
    pub report: Option<RunReport>,
    /// The counting mode the run used.
    pub up_to: UpTo,
    /// Files it offers for download.
    pub attached: Vec<Attached>,
}

/// The request's settings for the library's run plan, which decides the counting mode, the
/// threads and the limit as it does for `cubesat solve`.
pub(crate) fn settings(req: &RunRequest) -> Settings {
    Settings {
        task: if req.action == Action::Count {
            Task::Count
        } else {
            Task::List
        },
        limit: req.limit,
        up_to: req.up_to,
        also_up_to: req.also_up_to.clone(),
        engine: req.engine,
        threads: req.threads,
        amo: req.amo,
        sat_cubes: req.cubes,
        sat_exact_budget: req.exact_budget,
        memory: req.memory,
        ..Settings::default()
    }
}

/// A file-name-safe version of a name, as the command line makes them, cut to 64 characters
/// for a download's name (and "puzzle" for a puzzle without one).
pub(super) fn file_part(name: &str) -> String {
    let s: String = cubesat::render::mesh::file_part(name)
        .chars()
        .take(64)
        .collect();
    if s.is_empty() { "puzzle".into() } else { s }
}
