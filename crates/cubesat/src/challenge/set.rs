//! Challenge sets: many puzzles from one, graded in levels by a measured difficulty, each with exactly one completion, no two alike up to the target's symmetries.
//!
//! How a set is made, reproducibly from (puzzle, N, levels, seed); every budget counts work
//! (solutions drawn, subsets tried), never time:
//! 1. **The last level** (the wizard's) is made of *minimal* hint sets: a seeded solution with
//!    every piece given, then each piece taken away in seeded order while the completion
//!    stays unique. One pass is enough: a piece that could not go at some point cannot go
//!    later either, since taking more hints away only adds completions.
//! 2. **The other levels** leave a number of pieces to place that grows from level to level
//!    (the booklets' grading), from 3 (or fewer, on a small puzzle) up to one less than the
//!    fewest pieces a wizard challenge leaves. A candidate is a seeded solution and a seeded
//!    subset of its pieces as hints, kept when the completion is unique.
//! 3. **No two alike:** a candidate whose hint set is the image of an earlier one's under a
//!    symmetry of the target (rotations, and reflections where every piece has a mirror
//!    partner) is dropped.
//! 4. **Difficulty** ([`Figures::nodes`]) is the work the exact engine does to solve the
//!    challenge completely: one thread, fewest-options branching (a forced piece or cell is
//!    placed before any guess, and a guess is made where there are fewest choices), dead
//!    regions pruned, counting the search nodes to find the completion *and* to rule out
//!    every other. It is deterministic and machine-independent.
//! 5. **Levels separate:** each level draws more candidates than it needs
//!    ([`SetBudget::oversample`]); level by level, the easiest candidates harder than every
//!    challenge already chosen for the level before are taken, so every challenge of a level
//!    is strictly harder, by the measure, than every challenge of the levels before it. A
//!    level that cannot be filled so within budget draws more; past the budget the set is
//!    refused with a message naming the level.
//! 6. **Checked:** each chosen challenge is built as a puzzle of its own (the hints as fixed
//!    pieces), its solution passes the independent verifier and the exact engine counts its
//!    completions, every placement counted: exactly one.

use std::collections::HashSet;
use std::sync::Arc;

use cubesat_xc::Progress;
use cubesat_xc::exact::ExactEngine;

use crate::error::{Error, Request, Result};
use crate::generate::{Stop, completions, free_pieces, random_solution};
use crate::puzzle::{Hint, KnownCounts, Puzzle};
use crate::report::plural;
use crate::rng::SeededRng;
use crate::run::Instance;
use crate::symmetry::{PlacementSymmetries, UNMAPPED};

/// The largest set asked for at once.
pub const MAX_SET: usize = 1000;
/// The most levels a set may have.
pub const MAX_LEVELS: usize = 10;
/// The longest level name.
pub const MAX_LEVEL_NAME: usize = 24;
/// The levels when none are named: the commercial booklets' five.
pub const DEFAULT_LEVELS: [&str; 5] = ["starter", "junior", "expert", "master", "wizard"];

/// Work budgets of a set (counts, never time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetBudget {
    /// Candidates drawn per challenge a level needs, before choosing.
    pub oversample: usize,
    /// Seeded solutions drawn per challenge a level needs, at most (a hint count that rarely
    /// forces one completion stops there).
    pub draws: usize,
    /// Seeded hint subsets tried per drawn solution.
    pub subsets: usize,
}

impl Default for SetBudget {
    fn default() -> SetBudget {
        SetBudget {
            oversample: 3,
            draws: 40,
            subsets: 8,
        }
    }
}

/// What set to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOptions {
    /// Challenges in all.
    pub size: usize,
    /// Level names, easiest first; the last level's challenges have minimal hints.
    pub levels: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// Work budgets.
    pub budget: SetBudget,
}

impl SetOptions {
    /// Checked options: `size` in 1..=[`MAX_SET`] and at least one challenge per level;
    /// `levels` a comma-separated list (see [`parse_levels`]), the default five when `None`.
    pub fn new(size: usize, levels: Option<&str>, seed: u64) -> Result<SetOptions> {
        let levels = match levels {
            Some(s) => parse_levels(s)?,
            None => DEFAULT_LEVELS.iter().map(|s| s.to_string()).collect(),
        };
        if size == 0 || size > MAX_SET {
            return Err(Error::unsupported(
                Request::Set,
                format!("a set has 1 to {MAX_SET} challenges"),
            ));
        }
        if size < levels.len() {
            return Err(Error::unsupported(
                Request::Set,
                format!(
                    "{} cannot fill {} (at least one challenge per level)",
                    plural(size as u64, "challenge"),
                    plural(levels.len() as u64, "level")
                ),
            ));
        }
        Ok(SetOptions {
            size,
            levels,
            seed,
            budget: SetBudget::default(),
        })
    }

    /// Challenges per level: an even share, the earlier levels taking the remainder.
    pub fn quotas(&self) -> Vec<usize> {
        let l = self.levels.len();
        (0..l)
            .map(|k| self.size / l + usize::from(k < self.size % l))
            .collect()
    }
}

/// Level names from `a,b,c`: 1 to [`MAX_LEVELS`] distinct names of 1 to [`MAX_LEVEL_NAME`]
/// characters, each a letter, digit, `-` or `_`.
pub fn parse_levels(s: &str) -> Result<Vec<String>> {
    let bad = |m: String| Err(Error::unsupported(Request::Levels, m));
    let names: Vec<String> = s.split(',').map(|n| n.trim().to_string()).collect();
    if names.len() > MAX_LEVELS {
        return bad(format!(
            "{} named; a set has 1 to {MAX_LEVELS}",
            plural(names.len() as u64, "level")
        ));
    }
    for (i, n) in names.iter().enumerate() {
        if n.is_empty() {
            return bad(format!("level {} has no name", i + 1));
        }
        if n.chars().count() > MAX_LEVEL_NAME
            || !n
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return bad(format!(
                "level name '{}': 1 to {MAX_LEVEL_NAME} letters, digits, '-' or '_'",
                crate::echo::echo(n)
            ));
        }
        if names[..i].contains(n) {
            return bad(format!("level '{n}' is named twice"));
        }
    }
    Ok(names)
}

/// A challenge's measured figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Pieces to place.
    pub pieces_left: u32,
    /// Hint pieces given (beyond the input puzzle's own).
    pub hints: u32,
    /// Placements of the pieces to place that fit the empty cells at the start.
    pub candidates: u64,
    /// The difficulty: exact-engine search nodes to find the completion and rule out every
    /// other (one thread, fewest-options branching, dead regions pruned).
    pub nodes: u64,
}

impl Figures {
    /// Search nodes off the completion's path: placements the engine tried that a later
    /// dead end took back (the path itself is one node per piece to place, plus the root).
    pub fn off_path(&self) -> u64 {
        self.nodes.saturating_sub(self.pieces_left as u64 + 1)
    }
}

/// One challenge of a set.
pub struct Challenge {
    /// Its number in the set, from 1, in booklet order (by level, then difficulty).
    pub number: usize,
    /// Its level (index into [`ChallengeSet::levels`]).
    pub level: usize,
    /// The challenge as a puzzle: the input with the hints added as fixed pieces.
    pub instance: Instance,
    /// The hint placements added (ids of the input's placements, which are the challenge's
    /// too), ascending.
    pub hints: Vec<u32>,
    /// Its one completion, hints included (placement ids, ascending), verified.
    pub solution: Vec<u32>,
    /// Measured figures.
    pub figures: Figures,
    /// True when removing any hint leaves more than one completion (the last level's).
    pub minimal: bool,
    /// Which seeded solution of the run it was drawn from (1-based), for the record.
    pub draw: u64,
}

/// A candidate that passed the uniqueness and duplicate checks; its level's challenges are
/// chosen among these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The level it was drawn for.
    pub level: usize,
    /// The hints added, ascending.
    pub hints: Vec<u32>,
    /// The completion.
    pub solution: Vec<u32>,
    /// Its figures.
    pub figures: Figures,
    /// The seeded solution it came from.
    pub draw: u64,
}

/// Work counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetStats {
    /// Seeded solutions drawn.
    pub draws: u64,
    /// Uniqueness checks.
    pub checks: u64,
    /// Candidates dropped as the same as an earlier one up to symmetry.
    pub duplicates: u64,
    /// Symmetries the duplicate check used.
    pub symmetries: usize,
}

/// A made set.
pub struct ChallengeSet {
    /// The input puzzle.
    pub base: Instance,
    /// Level names, easiest first.
    pub levels: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// The challenges in booklet order.
    pub challenges: Vec<Challenge>,
    /// Every candidate measured, chosen or not (for the figures relating difficulty to
    /// pieces left).
    pub pool: Vec<Candidate>,
    /// Pieces to place asked of each level's candidates (`None`: the last level, minimal).
    pub pieces_left: Vec<Option<u32>>,
    /// Work counters.
    pub stats: SetStats,
}

/// Where a running set is, for a progress display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetProgress {
    /// The level being drawn (0-based).
    pub level: usize,
    /// Levels in all.
    pub levels: usize,
    /// Candidates found for the set so far.
    pub found: usize,
    /// Candidates wanted before choosing.
    pub wanted: usize,
    /// Seeded solutions drawn so far.
    pub draws: u64,
}

/// The drawing and measuring state of one set.
struct Maker<'a> {
    inst: &'a Instance,
    engine: ExactEngine,
    sym: PlacementSymmetries,
    rng: SeededRng,
    stop: Stop,
    seen: HashSet<Vec<u32>>,
    stats: SetStats,
    budget: SetBudget,
    pool: Vec<Candidate>,
    wanted: usize,
    levels: usize,
}

impl Maker<'_> {
    /// Whether `hints` (plus the input's own) leave exactly one completion.
    fn unique(&mut self, hints: &[u32]) -> Result<bool> {
        self.stats.checks += 1;
        Ok(completions(&self.engine, hints, 2, &self.stop)?.0 == 1)
    }

    /// A seeded solution and its free pieces in seeded order, verified.
    fn draw(&mut self) -> Result<Option<(Vec<u32>, Vec<u32>)>> {
        let Some(solution) = random_solution(&self.inst.model, &mut self.rng, &self.stop)? else {
            return Ok(None);
        };
        self.stats.draws += 1;
        self.inst
            .verifier()
            .verify(&solution)
            .map_err(|e| Error::Internal(format!("a drawn solution does not verify: {e}")))?;
        let free = free_pieces(&solution, self.inst.table.hints(), &mut self.rng);
        Ok(Some((solution, free)))
    }

    /// The smallest image of `hints` under the symmetries (a reflection that cannot map one
    /// of them is skipped): equal for two hint sets exactly when one maps onto the other.
    fn canonical(&self, hints: &[u32]) -> Vec<u32> {
        let mut best: Option<Vec<u32>> = None;
        for img in &self.sym.images {
            let mut v: Vec<u32> = hints.iter().map(|&h| img[h as usize]).collect();
            if v.contains(&UNMAPPED) {
                continue;
            }
            v.sort_unstable();
            if best.as_ref().is_none_or(|b| v < *b) {
                best = Some(v);
            }
        }
        best.unwrap_or_else(|| hints.to_vec())
    }

    /// Measures a unique hint set: its figures, after the exact engine confirms one
    /// completion.
    fn measure(&mut self, hints: &[u32], solution: &[u32]) -> Result<Figures> {
        let st = self
            .stop
            .watch(self.engine.query().threads(1).pruning(true).force(hints))
            .enumerate(|_| true)?;
        self.stop.check()?;
        if st.solutions != 1 {
            return Err(Error::Internal(format!(
                "a hint set checked unique has {} completions",
                st.solutions
            )));
        }
        let table = &self.inst.table;
        let given: Vec<u32> = table.hints().iter().chain(hints).copied().collect();
        let mut used = vec![false; self.inst.puzzle.target.cells().len()];
        let mut copies: Vec<u32> = self.inst.puzzle.pieces.iter().map(|p| p.count).collect();
        for &o in &given {
            let p = &table.placements()[o as usize];
            for &c in &p.cells {
                used[c as usize] = true;
            }
            copies[p.piece as usize] = copies[p.piece as usize].saturating_sub(1);
        }
        let candidates = table
            .placements()
            .iter()
            .filter(|p| copies[p.piece as usize] > 0 && p.cells.iter().all(|&c| !used[c as usize]))
            .count() as u64;
        let free = solution.len() - table.hints().len();
        Ok(Figures {
            pieces_left: (free - hints.len()) as u32,
            hints: hints.len() as u32,
            candidates,
            nodes: st.nodes,
        })
    }

    /// Keeps a unique hint set unless it repeats an earlier one up to symmetry.
    fn offer(&mut self, level: usize, hints: Vec<u32>, solution: &[u32]) -> Result<bool> {
        if !self.seen.insert(self.canonical(&hints)) {
            self.stats.duplicates += 1;
            return Ok(false);
        }
        let figures = self.measure(&hints, solution)?;
        self.pool.push(Candidate {
            level,
            hints,
            solution: solution.to_vec(),
            figures,
            draw: self.stats.draws,
        });
        Ok(true)
    }

    /// One candidate of the last level from a fresh seeded solution: its minimal hint set.
    fn minimal_candidate(&mut self, level: usize) -> Result<bool> {
        let Some((solution, free)) = self.draw()? else {
            return Err(Error::unsupported(
                Request::Set,
                "the puzzle has no solution, so no challenge can be drawn",
            ));
        };
        let mut hints = free.clone();
        for p in &free {
            let trial: Vec<u32> = hints.iter().copied().filter(|h| h != p).collect();
            let mut sorted = trial.clone();
            sorted.sort_unstable();
            if self.unique(&sorted)? {
                hints = trial;
            }
        }
        hints.sort_unstable();
        self.offer(level, hints, &solution)
    }

    /// One candidate leaving `left` pieces to place from a fresh seeded solution, trying
    /// seeded hint subsets until one forces a unique completion.
    fn level_candidate(&mut self, level: usize, left: usize) -> Result<bool> {
        let Some((solution, mut free)) = self.draw()? else {
            return Err(Error::unsupported(
                Request::Set,
                "the puzzle has no solution, so no challenge can be drawn",
            ));
        };
        let k = free.len().saturating_sub(left);
        for t in 0..self.budget.subsets.max(1) {
            if t > 0 {
                self.rng.shuffle(&mut free);
            }
            let mut hints = free[..k].to_vec();
            hints.sort_unstable();
            if self.unique(&hints)? {
                return self.offer(level, hints, &solution);
            }
        }
        Ok(false)
    }

    /// Draws for `level` until it has `want` candidates satisfying `good`, or `draws` seeded
    /// solutions were spent.
    fn fill(
        &mut self,
        level: usize,
        left: Option<usize>,
        want: usize,
        draws: usize,
        good: &dyn Fn(&Candidate) -> bool,
        report: &mut dyn FnMut(&SetProgress),
    ) -> Result<()> {
        let have = |pool: &[Candidate]| pool.iter().filter(|c| c.level == level && good(c)).count();
        let mut spent = 0;
        while have(&self.pool) < want && spent < draws {
            spent += 1;
            let added = match left {
                None => self.minimal_candidate(level)?,
                Some(l) => self.level_candidate(level, l)?,
            };
            if added {
                report(&SetProgress {
                    level,
                    levels: self.levels,
                    found: self.pool.len(),
                    wanted: self.wanted,
                    draws: self.stats.draws,
                });
            }
        }
        Ok(())
    }
}

/// Pieces to place for the levels before the last: from `min(3, hi)` up to `hi`, spread
/// evenly (`hi`: one less than the fewest pieces a minimal challenge leaves).
fn schedule(levels: usize, hi: u32) -> Vec<u32> {
    let lo = hi.clamp(1, 3);
    let hi = hi.max(lo);
    let n = levels.saturating_sub(1);
    (0..n)
        .map(|k| {
            if n == 1 {
                (lo + hi) / 2
            } else {
                lo + ((hi - lo) as usize * k).div_ceil(n - 1) as u32
            }
        })
        .collect()
}

/// Makes a challenge set from `puzzle` (see the module documentation), reporting its
/// candidates to `report` and its searches to `progress`, whose interrupt stops it with
/// [`Error::Interrupted`].
pub fn make_set(
    puzzle: Puzzle,
    opts: &SetOptions,
    progress: Option<Arc<Progress>>,
    report: &mut dyn FnMut(&SetProgress),
) -> Result<ChallengeSet> {
    let stop = Stop(progress);
    let inst = Instance::new(puzzle)?;
    stop.check()?;
    let free_total: u64 = inst
        .puzzle
        .pieces
        .iter()
        .map(|p| p.count as u64)
        .sum::<u64>()
        - inst.puzzle.hints.len() as u64;
    if free_total < 2 {
        return Err(Error::unsupported(
            Request::Set,
            format!(
                "the puzzle leaves {} to place; a challenge needs at least 2",
                plural(free_total, "piece")
            ),
        ));
    }
    let partners = inst.puzzle.mirror_partners();
    let sym = match PlacementSymmetries::new(
        &inst.puzzle,
        &inst.table,
        partners.is_some(),
        partners.as_deref(),
    ) {
        Ok(s) => s,
        Err(_) => PlacementSymmetries::new(&inst.puzzle, &inst.table, false, None)?,
    };
    let quotas = opts.quotas();
    let levels = opts.levels.len();
    let last = levels - 1;
    let mut maker = Maker {
        inst: &inst,
        engine: ExactEngine::new_shared(Arc::clone(&inst.model))?,
        stats: SetStats {
            symmetries: sym.len(),
            ..SetStats::default()
        },
        sym,
        rng: SeededRng::new(opts.seed),
        stop,
        seen: HashSet::new(),
        budget: opts.budget,
        pool: Vec::new(),
        wanted: quotas.iter().sum::<usize>() * opts.budget.oversample.max(1),
        levels,
    };
    let b = opts.budget;
    let any = |_: &Candidate| true;
    // The last level first: the fewest pieces its challenges leave bounds the others.
    maker.fill(
        last,
        None,
        quotas[last] * b.oversample.max(1),
        quotas[last] * b.draws,
        &any,
        report,
    )?;
    let wizard_min = maker
        .pool
        .iter()
        .map(|c| c.figures.pieces_left)
        .min()
        .unwrap_or(free_total as u32);
    let left = schedule(levels, wizard_min.saturating_sub(1));
    for (k, &l) in left.iter().enumerate() {
        maker.fill(
            k,
            Some(l as usize),
            quotas[k] * b.oversample.max(1),
            quotas[k] * b.draws,
            &any,
            report,
        )?;
    }
    // Choose level by level: the easiest candidates strictly harder than the level before.
    let mut chosen: Vec<(usize, usize)> = Vec::new(); // (level, pool index)
    let mut floor: Option<u64> = None;
    for k in 0..levels {
        let above = |c: &Candidate| floor.is_none_or(|f| c.figures.nodes > f);
        let pick = |pool: &[Candidate]| -> Vec<usize> {
            let mut idx: Vec<usize> = (0..pool.len())
                .filter(|&i| pool[i].level == k && above(&pool[i]))
                .collect();
            idx.sort_by_key(|&i| (pool[i].figures.nodes, i));
            idx.truncate(quotas[k]);
            idx
        };
        let mut picked = pick(&maker.pool);
        if picked.len() < quotas[k] {
            let l = (k != last).then(|| left[k] as usize);
            maker.fill(k, l, quotas[k], quotas[k] * b.draws, &above, report)?;
            picked = pick(&maker.pool);
        }
        if picked.len() < quotas[k] {
            let what = match floor {
                Some(f) => format!(
                    "harder than level '{}' (over {} nodes)",
                    opts.levels[k - 1],
                    f
                ),
                None => "with one completion".to_string(),
            };
            return Err(Error::unsupported(
                Request::Set,
                format!(
                    "level '{}': only {} of {} distinct challenges {what} were found within budget ({}); ask for fewer challenges or levels",
                    opts.levels[k],
                    picked.len(),
                    quotas[k],
                    plural(maker.stats.draws, "seeded solution"),
                ),
            ));
        }
        floor = picked.iter().map(|&i| maker.pool[i].figures.nodes).max();
        chosen.extend(picked.into_iter().map(|i| (k, i)));
    }
    let stats = maker.stats;
    let pool = std::mem::take(&mut maker.pool);
    drop(maker);
    let width = opts.size.to_string().len().max(3);
    let mut challenges = Vec::with_capacity(chosen.len());
    for (n, &(k, i)) in chosen.iter().enumerate() {
        let c = &pool[i];
        let number = n + 1;
        let instance = build(&inst, c, number, width, opts)?;
        challenges.push(Challenge {
            number,
            level: k,
            instance,
            hints: c.hints.clone(),
            solution: c.solution.clone(),
            figures: c.figures,
            minimal: k == last,
            draw: c.draw,
        });
    }
    let mut pieces_left: Vec<Option<u32>> = left.into_iter().map(Some).collect();
    pieces_left.push(None);
    Ok(ChallengeSet {
        base: inst,
        levels: opts.levels.clone(),
        seed: opts.seed,
        challenges,
        pool,
        pieces_left,
        stats,
    })
}

/// The challenge `c` as a puzzle of its own, checked: its hints are the chosen placements,
/// its solution verifies and the exact engine finds exactly one completion.
fn build(
    base: &Instance,
    c: &Candidate,
    number: usize,
    width: usize,
    opts: &SetOptions,
) -> Result<Instance> {
    let mut puzzle = base.puzzle.clone();
    let name = puzzle.name.clone();
    for &o in &c.hints {
        let p = &base.table.placements()[o as usize];
        let mut cells: Vec<_> = p
            .cells
            .iter()
            .map(|&i| puzzle.target.cells()[i as usize].pos)
            .collect();
        cells.sort_unstable();
        puzzle.hints.push(Hint {
            piece: p.piece as usize,
            cells,
        });
    }
    let level = &opts.levels[c.level];
    puzzle.name = format!("{name}, challenge {number:0width$} ({level})");
    puzzle.description = format!(
        "Challenge {number} of {} made by cubesat from '{name}' (levels {}, seed {}): {}, {} to place, exactly one completion.",
        opts.size,
        opts.levels.join(","),
        opts.seed,
        level,
        plural(c.figures.pieces_left as u64, "piece"),
    );
    puzzle.known_counts = KnownCounts::default();
    puzzle.catalog = None;
    let inst = Instance::new(puzzle)?;
    let mut expected: Vec<u32> = base.table.hints().iter().chain(&c.hints).copied().collect();
    expected.sort_unstable();
    if inst.table.hints() != expected.as_slice() {
        return Err(Error::Internal(
            "a challenge's hints do not match the chosen placements".into(),
        ));
    }
    inst.verifier()
        .verify(&c.solution)
        .map_err(|e| Error::Internal(format!("a challenge's solution does not verify: {e}")))?;
    let (n, complete, _) = completions(&ExactEngine::new(&inst.model)?, &[], 2, &Stop(None))?;
    if !(complete && n == 1) {
        return Err(Error::Internal(format!(
            "challenge {number} does not have exactly one completion"
        )));
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_grow() {
        assert_eq!(schedule(5, 8), vec![3, 5, 7, 8]);
        assert_eq!(schedule(2, 8), vec![5]);
        assert_eq!(schedule(3, 1), vec![1, 1]);
        assert_eq!(schedule(1, 8), Vec::<u32>::new());
    }

    #[test]
    fn levels_are_checked() {
        assert_eq!(parse_levels("a,b").unwrap(), vec!["a", "b"]);
        assert!(parse_levels("a,,b").is_err());
        assert!(parse_levels("a,a").is_err());
        assert!(parse_levels("a b").is_err());
        assert!(parse_levels(&["x"; 11].join(",")).is_err());
        assert!(SetOptions::new(3, Some("a,b,c,d"), 1).is_err());
        assert!(SetOptions::new(0, None, 1).is_err());
        assert!(SetOptions::new(MAX_SET + 1, None, 1).is_err());
        assert_eq!(SetOptions::new(15, None, 1).unwrap().quotas(), vec![3; 5]);
        assert_eq!(
            SetOptions::new(12, None, 1).unwrap().quotas(),
            vec![3, 3, 2, 2, 2]
        );
        assert_eq!(
            SetOptions::new(7, Some("a,b,c"), 1).unwrap().quotas(),
            vec![3, 2, 2]
        );
    }

    #[test]
    fn a_small_set_is_graded_and_unique() {
        let puzzle = crate::puzzle::bundled("kanoodle-2d").unwrap();
        let opts = SetOptions::new(10, None, 7).unwrap();
        let set = make_set(puzzle, &opts, None, &mut |_| {}).unwrap();
        assert_eq!(set.challenges.len(), 10);
        let mut prev_max = 0;
        for k in 0..5 {
            let level: Vec<&Challenge> = set.challenges.iter().filter(|c| c.level == k).collect();
            assert_eq!(level.len(), 2);
            let min = level.iter().map(|c| c.figures.nodes).min().unwrap();
            assert!(min > prev_max, "level {k}");
            prev_max = level.iter().map(|c| c.figures.nodes).max().unwrap();
        }
    }
}
