//! What a puzzle file records of its counts: the published ones (`known_counts`), and the catalog record with its sources, findings and cubesat's own counts.

use crate::mode::UpTo;

/// Published solution counts, recorded in the puzzle file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownCounts {
    /// Every placement, each listed piece distinct.
    pub all: Option<u64>,
    /// Up to the rotations mapping the target onto itself.
    pub rotation: Option<u64>,
    /// Up to rotations and reflections.
    pub rotation_reflection: Option<u64>,
    /// Where the counts come from.
    pub source: Option<String>,
}

impl KnownCounts {
    /// True when no count is recorded.
    pub fn is_empty(&self) -> bool {
        self.all.is_none() && self.rotation.is_none() && self.rotation_reflection.is_none()
    }
}

/// A puzzle's catalog record (the `catalog` key of the files under `puzzles/catalog`): its
/// family, the counts published for it with their conventions and sources, and cubesat's own
/// counts, so that a disagreement is written down together with how it was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    /// The family (`soma`, `pentominoes`, ...): the folder the file lives in.
    pub family: String,
    /// Published counts; empty when no published count was found (`"published": null`).
    pub published: Vec<Published>,
    /// cubesat's own count in every mode.
    pub counts: CatalogCounts,
    /// True when the check (every mode by the exact engine, the published mode by dancing links,
    /// one thread each) takes more than ten CPU seconds: the `catalog` bench counts it and the
    /// catalog test leaves it out.
    pub slow: bool,
    /// For a puzzle whose source left its count unfinished: where it says so, and what cubesat
    /// measured (the count's cost, or an estimate where no count finished).
    pub incomplete: Option<Incomplete>,
}

/// A count the source left unfinished (Polyform Puzzler's "solutions incomplete"), the
/// `incomplete` key of a catalog record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incomplete {
    /// Where the source says its solutions are incomplete: author, page, section, address.
    pub source: String,
    /// The source's counting convention, and the cubesat mode it translates into.
    pub convention: String,
    /// How cubesat's counts in the record were made, when they were.
    pub counted: Option<Counted>,
    /// cubesat's estimate of the count's cost, where no count finished.
    pub estimate: Option<Estimate>,
}

/// How the counts of an [`Incomplete`] record were made.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// CPU seconds of the counts in every recorded mode together.
    pub cpu_seconds: f64,
    /// What was run and what the counts mean.
    pub how: String,
}

// The reader admits finite numbers only.
impl Eq for Counted {}

/// `cubesat estimate`'s figures for a count that did not finish.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The counting mode estimated.
    pub up_to: UpTo,
    /// The estimated nodes of the search tree.
    pub nodes: f64,
    /// The low end of the estimate's interval.
    pub low: f64,
    /// The high end; `None` when the interval is unbounded.
    pub high: Option<f64>,
    /// The CPU seconds the count would take on the machine measured.
    pub cpu_seconds: f64,
    /// How long the estimate's probes ran, in seconds.
    pub seconds: f64,
    /// The seed of the random probes.
    pub seed: u64,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

// The reader admits finite numbers only.
impl Eq for Estimate {}

impl Catalog {
    /// Whether cubesat's counts agree with every published count: `None` when nothing is
    /// published, `Some(false)` when some published count differs (its finding says why).
    pub fn agrees(&self) -> Option<bool> {
        if self.published.is_empty() {
            return None;
        }
        Some(self.published.iter().all(|p| p.agrees(&self.counts)))
    }
}

/// One published count: the number, the cubesat mode its convention amounts to, the
/// convention in the source's own terms, and the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    /// The number the source gives.
    pub count: u64,
    /// The cubesat counting mode the source's convention translates into (for a board one
    /// cell thick, "up to rotation and reflection" of the plane is cubesat's `rotation`:
    /// turning the board over is a rotation in space).
    pub up_to: UpTo,
    /// The convention as the source states it, and how it translates.
    pub convention: String,
    /// Where the count is published: author, title, section or page, address.
    pub source: String,
    /// How a disagreement with cubesat's count was settled; required exactly when the
    /// counts differ.
    pub finding: Option<Finding>,
}

impl Published {
    /// True when cubesat's count in this count's mode equals it.
    pub fn agrees(&self, counts: &CatalogCounts) -> bool {
        counts.get(self.up_to) == ModeCount::Count(self.count)
    }
}

/// How a published count that differs from cubesat's was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which side is right.
    pub verdict: Verdict,
    /// For [`Verdict::Convention`]: the cubesat mode whose count equals the published one,
    /// when there is one.
    pub matches: Option<UpTo>,
    /// The explanation: what differs and how the second engine decided it.
    pub text: String,
}

/// The outcome of a disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The source counts under another convention than it states (or than the catalog first
    /// read it as); the number is right for that convention.
    Convention,
    /// The source's number is wrong: cubesat and a second engine agree on another.
    Source,
}

impl Verdict {
    /// The name used in files.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Convention => "convention",
            Verdict::Source => "source",
        }
    }
}

/// cubesat's count in one mode, as the catalog records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ModeCount {
    /// Not recorded.
    #[default]
    NotCounted,
    /// The mode is not defined for the puzzle (a piece set that is not closed under mirror
    /// images has no count up to reflection).
    Undefined,
    /// The count.
    Count(u64),
}

/// cubesat's counts in the three modes of a catalog record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CatalogCounts {
    /// Every placement (`none`).
    pub none: ModeCount,
    /// Up to rotation.
    pub rotation: ModeCount,
    /// Up to rotation and reflection.
    pub rotation_reflection: ModeCount,
}

impl CatalogCounts {
    /// The modes a catalog records, in order.
    pub const MODES: [UpTo; 3] = [UpTo::None, UpTo::Rotation, UpTo::RotationReflection];

    /// The count in `mode` (BurrTools' mode is never recorded).
    pub fn get(&self, mode: UpTo) -> ModeCount {
        match mode {
            UpTo::None => self.none,
            UpTo::Rotation => self.rotation,
            UpTo::RotationReflection => self.rotation_reflection,
            UpTo::BurrTools => ModeCount::NotCounted,
        }
    }
}
