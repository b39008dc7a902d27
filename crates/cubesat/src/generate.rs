//! `cubesat generate`: seeded random solutions, hint pieces chosen from them (optionally so that exactly one completion exists), and the designer's report.
//!
//! How a puzzle is made, reproducibly from (puzzle, K, seed):
//! 1. **A random solution.** The model's options are shuffled by the seed ([`SeededRng`]) and
//!    the exact engine's first solution of the shuffled copy is taken (its MRV branching then
//!    tries options in a seeded order), mapped back to placement ids and verified. Further
//!    solutions, when `--unique` needs them, come from further shuffles of the same stream.
//! 2. **Hints.** K placements of that solution, in a seeded order. The input puzzle's own
//!    hints stay and do not count: K is the number of *additional* hint pieces, so K can be at
//!    most the number of piece copies the input leaves to place.
//! 3. **Uniqueness** (`--unique`): a hint set H is accepted when the puzzle with H has exactly
//!    one completion. Candidates per solution: every K-subset of its pieces in seeded order
//!    when there are few (at most [`Budget::exhaustive`]), else [`Budget::subsets`] seeded
//!    random K-subsets, then a greedy set (add the piece that leaves the fewest completions,
//!    counted up to [`Budget::greedy_cap`]; a superset of a unique-forcing set is unique too,
//!    so a greedy set smaller than K is padded in seeded order). Up to [`Budget::solutions`]
//!    solutions are tried. Every budget counts checks, never time, so results are the same on
//!    every machine.
//! 4. **Report.** Completions of the generated puzzle (counted up to [`Budget::count_cap`])
//!    and a difficulty figure: the exact engine's search nodes to the first solution from the
//!    hints (pruning on, one thread; deterministic), plus the nodes of the completion count.
//!
//! Every search obeys a stop ([`generate_with`]'s progress interrupt: a stop button, a page
//! that went away): each engine query publishes its counters there and ends at the interrupt,
//! and the budget loops check it between queries, so a generation ends soon after a stop
//! whatever budgets are left.
//!
//! The uniqueness check runs on the exact-cover engine by default (enumerate with the hints
//! forced, stop at the second solution); the SAT engine's guarded blocking clause
//! ([`SatEngine::other_solution`]) is kept as [`UniqueCheck::Sat`] for comparison: on the
//! bundled puzzles the exact engine measured faster (see the commit that chose it).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Request, Result};
use serde_json::{Value, json};

use crate::puzzle::{Hint, KnownCounts, Puzzle};
use crate::render;
use crate::report::{plural, scene, solution_json};
use crate::rng::SeededRng;
use crate::run::Instance;
use crate::solution::Solution;
use cubesat_xc::exact::{ExactEngine, ExactQuery};
use cubesat_xc::sat::{SatConfig, SatEngine};
use cubesat_xc::{ExactCover, Progress};

/// Which engine decides whether a hint set leaves exactly one completion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UniqueCheck {
    /// Exact-cover enumeration with the hints forced, stopped at the second solution.
    #[default]
    Exact,
    /// One incremental SAT call: another solution containing the hints, the known one blocked.
    Sat,
}

/// Search budgets. All of them count work items (checks, solutions), never time, so a run is
/// reproducible everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Seeded solutions tried for `--unique` before giving up.
    pub solutions: usize,
    /// Check every K-subset of a solution's pieces when there are at most this many.
    pub exhaustive: u64,
    /// Otherwise, this many seeded random K-subsets per solution (before the greedy set).
    pub subsets: usize,
    /// The greedy search counts completions up to this many (more are treated as equal).
    pub greedy_cap: u64,
    /// The report counts completions up to this many ("at least" beyond).
    pub count_cap: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            solutions: 4,
            exhaustive: 512,
            subsets: 64,
            greedy_cap: 16,
            count_cap: 100,
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Hint pieces to add (beyond the input puzzle's own hints).
    pub hints: usize,
    /// The seed.
    pub seed: u64,
    /// Require exactly one completion.
    pub unique: bool,
    /// The uniqueness check's engine.
    pub check: UniqueCheck,
    /// Search budgets.
    pub budget: Budget,
}

/// How many completions a puzzle has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completions {
    /// Exactly this many (every placement counted).
    Exactly(u64),
    /// At least this many: the count stopped at the cap.
    AtLeast(u64),
}

impl Completions {
    /// True for exactly one completion.
    pub fn is_unique(self) -> bool {
        self == Completions::Exactly(1)
    }

    /// "unique", "12 completions", "at least 100 completions".
    pub fn describe(self) -> String {
        match self {
            Completions::Exactly(1) => "unique (1 completion)".to_string(),
            Completions::Exactly(n) => plural(n, "completion"),
            Completions::AtLeast(n) => format!("at least {}", plural(n, "completion")),
        }
    }
}

/// Work counters of one generation (for the statistics line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerateStats {
    /// Seeded solutions drawn.
    pub solutions_drawn: usize,
    /// Uniqueness checks run.
    pub checks: u64,
    /// Time spent in uniqueness checks.
    pub check_time: Duration,
    /// Completion counts run by the greedy search.
    pub greedy_counts: u64,
}

/// A generated puzzle.
pub struct Generated {
    /// The input puzzle plus the new hints (known counts dropped: they no longer apply).
    pub instance: Instance,
    /// The solution the hints come from (placement ids, ascending, hints included), verified.
    pub solution: Vec<u32>,
    /// The new hint placements, ascending.
    pub new_hints: Vec<u32>,
    /// Completions of the generated puzzle.
    pub completions: Completions,
    /// Difficulty: exact-engine nodes to the first solution from the hints.
    pub difficulty: u64,
    /// Exact-engine nodes of the completion count.
    pub count_nodes: u64,
    /// Which seeded solution (1-based) the hints come from.
    pub solution_index: usize,
    /// Work counters.
    pub stats: GenerateStats,
}

/// Why no puzzle met the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The input puzzle has no solution at all.
    NoSolution,
    /// No set of K hint pieces tried forces a unique completion.
    NotUnique {
        /// The K asked for.
        hints: usize,
        /// Whether every K-subset of every solution tried was checked (else: within budget).
        exhaustive: bool,
        /// Seeded solutions tried.
        solutions_tried: usize,
        /// The smallest number of hint pieces found that makes the first seeded solution's
        /// completion unique.
        smallest: usize,
        /// True when every smaller size was checked exhaustively for that solution, so
        /// `smallest` is its true minimum.
        smallest_proven: bool,
    },
}

impl Failure {
    /// One line for the user.
    pub fn describe(&self) -> String {
        match self {
            Failure::NoSolution => "the puzzle has no solution, so no hints can be drawn".into(),
            Failure::NotUnique {
                hints,
                exhaustive,
                solutions_tried,
                smallest,
                smallest_proven,
            } => format!(
                "no set of {} makes the puzzle unique ({} of {} checked); smallest K that does for the first seeded solution: {smallest}{}",
                plural(*hints as u64, "hint piece"),
                if *exhaustive {
                    "every set"
                } else {
                    "sets within budget"
                },
                plural(*solutions_tried as u64, "seeded solution"),
                if *smallest_proven {
                    " (proven minimal for that solution)"
                } else {
                    " (the smallest found within budget)"
                }
            ),
        }
    }
}

/// The result of [`generate`]: a puzzle, or why none met the request (with the work done).
pub type Generation = std::result::Result<Box<Generated>, (Failure, GenerateStats)>;

/// A generation's stop: its queries report to the progress and end at its interrupt, after
/// which [`Stop::check`] fails every step with [`Error::Interrupted`].
#[derive(Clone, Default)]
pub(crate) struct Stop(pub(crate) Option<Arc<Progress>>);

impl Stop {
    /// `q` reporting to the progress and obeying its interrupt.
    pub(crate) fn watch(&self, q: ExactQuery) -> ExactQuery {
        match &self.0 {
            Some(p) => q.progress(p.clone()),
            None => q,
        }
    }

    /// Fails once the progress was interrupted (an interrupted query's figures are partial,
    /// so none of them may be used).
    pub(crate) fn check(&self) -> Result<()> {
        match &self.0 {
            Some(p) if p.is_interrupted() => Err(Error::Interrupted),
            _ => Ok(()),
        }
    }
}

/// The uniqueness oracle for one model (the input's own hints forced).
enum Checker<'m> {
    Exact(ExactEngine),
    Sat(Box<SatEngine<'m>>),
}

impl<'m> Checker<'m> {
    fn new(kind: UniqueCheck, model: &'m ExactCover, exact: &ExactEngine) -> Result<Checker<'m>> {
        Ok(match kind {
            UniqueCheck::Exact => Checker::Exact(exact.clone()),
            UniqueCheck::Sat => {
                Checker::Sat(Box::new(SatEngine::new(model, SatConfig::default())?))
            }
        })
    }

    /// Does `hints` (a subset of `solution`) leave `solution` as the only completion?
    fn unique(
        &mut self,
        solution: &[u32],
        hints: &[u32],
        stats: &mut GenerateStats,
        stop: &Stop,
    ) -> Result<bool> {
        let start = Instant::now();
        stats.checks += 1;
        stop.check()?;
        let unique = match self {
            Checker::Exact(e) => completions(e, hints, 2, stop)?.0 == 1,
            Checker::Sat(s) => s.other_solution(solution, hints)?.is_none(),
        };
        stats.check_time += start.elapsed();
        Ok(unique)
    }
}

/// Completions with `forced` added, counted up to `cap`: (count, complete, nodes).
pub(crate) fn completions(
    engine: &ExactEngine,
    forced: &[u32],
    cap: u64,
    stop: &Stop,
) -> Result<(u64, bool, u64)> {
    let mut n = 0u64;
    let st = stop
        .watch(engine.query().threads(1).force(forced))
        .enumerate(|_| {
            n += 1;
            n < cap
        })?;
    stop.check()?;
    Ok((n, !st.stopped, st.nodes))
}

/// A solution drawn from `rng`: the first solution of a copy of `model` whose options are
/// shuffled, mapped back to the original option ids (ascending).
pub(crate) fn random_solution(
    model: &ExactCover,
    rng: &mut SeededRng,
    stop: &Stop,
) -> Result<Option<Vec<u32>>> {
    let n = model.option_count();
    // perm[new] = old.
    let mut perm: Vec<u32> = (0..n as u32).collect();
    rng.shuffle(&mut perm);
    let mut inv = vec![0u32; n];
    for (new, &old) in perm.iter().enumerate() {
        inv[old as usize] = new as u32;
    }
    let mut forced: Vec<u32> = model.forced.iter().map(|&o| inv[o as usize]).collect();
    forced.sort_unstable();
    let shuffled = ExactCover {
        items: model.items.clone(),
        options: perm
            .iter()
            .map(|&old| model.options[old as usize].clone())
            .collect(),
        forced,
        geometry: model.geometry.clone(),
    };
    stop.check()?;
    let first = stop
        .watch(ExactEngine::new(&shuffled)?.query().threads(1))
        .first()?;
    stop.check()?;
    Ok(first.map(|s| {
        let mut back: Vec<u32> = s.iter().map(|&o| perm[o as usize]).collect();
        back.sort_unstable();
        back
    }))
}

/// `n` choose `k`, saturating.
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
        if r > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    r as u64
}

/// Calls `f` on every k-subset of `items` (as index combinations, lexicographic, so the
/// order follows `items`' seeded order) until it returns `Some`.
fn each_subset<T>(
    items: &[u32],
    k: usize,
    mut f: impl FnMut(&[u32]) -> Result<Option<T>>,
) -> Result<Option<T>> {
    let n = items.len();
    if k > n {
        return Ok(None);
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        let set: Vec<u32> = idx.iter().map(|&i| items[i]).collect();
        if let Some(t) = f(&set)? {
            return Ok(Some(t));
        }
        // Next combination.
        let mut i = k;
        loop {
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
            if i == 0 {
                return Ok(None);
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Sorted copy.
fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

/// The search for a unique-forcing hint set within one solution.
struct UniqueSearch<'a, 'm> {
    engine: &'a ExactEngine,
    checker: &'a mut Checker<'m>,
    budget: Budget,
    stats: GenerateStats,
    stop: Stop,
}

impl UniqueSearch<'_, '_> {
    /// A k-subset of `free` (the solution's non-hint placements in seeded order) that makes
    /// `solution` the only completion, searching subsets only (no greedy): every subset when
    /// there are few, else seeded random ones. Returns the set and whether the search was
    /// exhaustive.
    fn subsets(
        &mut self,
        solution: &[u32],
        free: &[u32],
        k: usize,
        rng: &mut SeededRng,
    ) -> Result<(Option<Vec<u32>>, bool)> {
        if binomial(free.len(), k) <= self.budget.exhaustive {
            let found = each_subset(free, k, |set| {
                let set = sorted(set);
                Ok(self
                    .checker
                    .unique(solution, &set, &mut self.stats, &self.stop)?
                    .then_some(set))
            })?;
            return Ok((found, true));
        }
        for _ in 0..self.budget.subsets {
            let mut pick = free.to_vec();
            rng.shuffle(&mut pick);
            let set = sorted(&pick[..k]);
            if self
                .checker
                .unique(solution, &set, &mut self.stats, &self.stop)?
            {
                return Ok((Some(set), false));
            }
        }
        Ok((None, false))
    }

    /// Greedy: from no hints, repeatedly add the piece of `free` whose addition leaves the
    /// fewest completions (counted up to the greedy cap; ties go to the earlier piece in seeded
    /// order) until the completion is unique. Returns the pieces in the order added.
    fn greedy(&mut self, free: &[u32]) -> Result<Vec<u32>> {
        let mut chosen: Vec<u32> = Vec::new();
        let mut left = free.to_vec();
        loop {
            let (n, complete, _) = completions(self.engine, &chosen, 2, &self.stop)?;
            self.stats.greedy_counts += 1;
            if n <= 1 && complete || left.is_empty() {
                return Ok(chosen);
            }
            let mut best: Option<(u64, usize)> = None;
            for (i, &p) in left.iter().enumerate() {
                let mut trial = chosen.clone();
                trial.push(p);
                let (c, _, _) =
                    completions(self.engine, &trial, self.budget.greedy_cap, &self.stop)?;
                self.stats.greedy_counts += 1;
                if best.is_none_or(|(b, _)| c < b) {
                    best = Some((c, i));
                }
                if c == 1 {
                    break;
                }
            }
            let Some((_, i)) = best else {
                return Ok(chosen);
            };
            chosen.push(left.remove(i));
        }
    }

    /// A k-subset of `free` that makes `solution` the only completion: by
    /// [`UniqueSearch::subsets`], then, when those were not all checked, the greedy set
    /// padded in seeded order if it has at most k pieces. Returns the set, the greedy set's
    /// size when one was computed, and whether the subset search was exhaustive.
    fn unique_set(
        &mut self,
        solution: &[u32],
        free: &[u32],
        k: usize,
        rng: &mut SeededRng,
    ) -> Result<(Option<Vec<u32>>, Option<usize>, bool)> {
        let (found, exhaustive) = self.subsets(solution, free, k, rng)?;
        if found.is_some() || exhaustive {
            return Ok((found, None, exhaustive));
        }
        let g = self.greedy(free)?;
        if g.len() > k {
            return Ok((None, Some(g.len()), exhaustive));
        }
        // Pad in seeded order: a superset of a unique-forcing set is unique.
        let mut set = g.clone();
        set.extend(free.iter().filter(|o| !g.contains(o)).take(k - g.len()));
        let set = sorted(&set);
        if !(self
            .checker
            .unique(solution, &set, &mut self.stats, &self.stop)?)
        {
            return Err(Error::Internal(
                "a padded greedy hint set is not unique".into(),
            ));
        }
        Ok((Some(set), Some(g.len()), exhaustive))
    }

    /// The failure when no K-subset (`k`) worked: with the smallest size that works for the
    /// first solution, searched by subsets of increasing size (within budget) below the
    /// greedy bound.
    fn not_unique(
        &mut self,
        first: &Drawn,
        k: usize,
        all_exhaustive: bool,
        rng: &mut SeededRng,
    ) -> Result<Failure> {
        let Drawn {
            solution,
            free,
            greedy,
        } = first;
        // Fixing every piece leaves one completion, so the free pieces' count is an upper
        // bound when no greedy set was computed (a greedy search here would cost more than
        // the subset search by increasing size, which stops at the first size that works).
        let bound = greedy.unwrap_or(free.len());
        let mut smallest = bound;
        let mut proven = all_exhaustive_for_first(self, free.len(), k);
        for size in k + 1..bound {
            let (found, exhaustive) = self.subsets(solution, free, size, rng)?;
            if found.is_some() {
                smallest = size;
                break;
            }
            proven &= exhaustive;
        }
        Ok(Failure::NotUnique {
            hints: k,
            exhaustive: all_exhaustive,
            solutions_tried: self.stats.solutions_drawn,
            smallest,
            smallest_proven: proven,
        })
    }
}

/// Generates a puzzle from `puzzle` (see the module documentation). Errors are bad requests
/// (K larger than the pieces left to place) and internal failures; a request no puzzle meets
/// is `Ok(Err(..))`.
pub fn generate(puzzle: Puzzle, opts: &GenerateOptions) -> Result<Generation> {
    generate_with(puzzle, opts, None)
}

/// [`generate`] reporting to `progress` (the nodes of its searches) and stopping soon after
/// its interrupt, with [`Error::Interrupted`]: every engine query ends at the interrupt and
/// every budget loop checks it between queries.
pub fn generate_with(
    puzzle: Puzzle,
    opts: &GenerateOptions,
    progress: Option<Arc<Progress>>,
) -> Result<Generation> {
    let stop = Stop(progress);
    let inst = Instance::new(puzzle)?;
    stop.check()?;
    check_hint_count(&inst.puzzle, opts.hints)?;
    let engine = ExactEngine::new_shared(std::sync::Arc::clone(&inst.model))?;
    let mut checker = Checker::new(opts.check, &inst.model, &engine)?;
    let mut rng = SeededRng::new(opts.seed);
    let mut search = UniqueSearch {
        engine: &engine,
        checker: &mut checker,
        budget: opts.budget,
        stats: GenerateStats::default(),
        stop: stop.clone(),
    };
    let attempts = if opts.unique {
        opts.budget.solutions.max(1)
    } else {
        1
    };
    let verifier = inst.verifier();
    let mut first: Option<Drawn> = None;
    let mut all_exhaustive = true;
    for attempt in 0..attempts {
        let Some(solution) = random_solution(&inst.model, &mut rng, &stop)? else {
            return Ok(Err((Failure::NoSolution, search.stats)));
        };
        search.stats.solutions_drawn += 1;
        verifier
            .verify(&solution)
            .map_err(|e| Error::Internal(format!("the drawn solution does not verify: {e}")))?;
        let free = free_pieces(&solution, inst.table.hints(), &mut rng);
        let (chosen, greedy) = if !opts.unique {
            (Some(sorted(&free[..opts.hints])), None)
        } else {
            let (set, greedy, exhaustive) =
                search.unique_set(&solution, &free, opts.hints, &mut rng)?;
            all_exhaustive &= exhaustive;
            (set, greedy)
        };
        if let Some(set) = chosen {
            let stats = search.stats;
            return finish(inst, solution, set, attempt + 1, stats, opts, &stop).map(Ok);
        }
        if first.is_none() {
            first = Some(Drawn {
                solution,
                free,
                greedy,
            });
        }
    }
    let Some(first) = first else {
        return Err(Error::Internal("no solution was drawn".into()));
    };
    let failure = search.not_unique(&first, opts.hints, all_exhaustive, &mut rng)?;
    Ok(Err((failure, search.stats)))
}

/// Refuses `hints` more hint pieces than `puzzle` leaves to place.
fn check_hint_count(puzzle: &Puzzle, hints: usize) -> Result<()> {
    let copies: u64 = puzzle.pieces.iter().map(|p| p.count as u64).sum();
    let given = puzzle.hints.len() as u64;
    let free_copies = copies.saturating_sub(given);
    if hints as u64 > free_copies {
        return Err(Error::unsupported(
            Request::Hints,
            format!(
                "the puzzle leaves only {} to place ({} in all, {} already given as hints)",
                plural(free_copies, "piece"),
                copies,
                given
            ),
        ));
    }
    Ok(())
}

/// The solution's pieces that are not hints already (`hints`, ascending), in seeded order.
pub(crate) fn free_pieces(solution: &[u32], hints: &[u32], rng: &mut SeededRng) -> Vec<u32> {
    let mut free: Vec<u32> = solution
        .iter()
        .copied()
        .filter(|o| hints.binary_search(o).is_err())
        .collect();
    rng.shuffle(&mut free);
    free
}

/// The first solution drawn, kept for the smallest-K report when no solution takes K hints.
struct Drawn {
    solution: Vec<u32>,
    /// Its free pieces in seeded order.
    free: Vec<u32>,
    /// The size of its greedy set, if one was computed.
    greedy: Option<usize>,
}

/// Whether every K-subset of the first solution was checked (so sizes up to K are ruled out
/// for it).
fn all_exhaustive_for_first(search: &UniqueSearch, free: usize, k: usize) -> bool {
    binomial(free, k) <= search.budget.exhaustive
}

/// Builds the generated puzzle around `solution` with `new_hints`, verifies the solution
/// against it and measures completions and difficulty.
fn finish(
    inst: Instance,
    solution: Vec<u32>,
    new_hints: Vec<u32>,
    solution_index: usize,
    stats: GenerateStats,
    opts: &GenerateOptions,
    stop: &Stop,
) -> Result<Box<Generated>> {
    let mut puzzle = inst.puzzle;
    let name = puzzle.name.clone();
    for &o in &new_hints {
        let p = &inst.table.placements()[o as usize];
        let mut cells: Vec<_> = p
            .cells
            .iter()
            .map(|&c| puzzle.target.cells()[c as usize].pos)
            .collect();
        cells.sort_unstable();
        puzzle.hints.push(Hint {
            piece: p.piece as usize,
            cells,
        });
    }
    puzzle.name = format!(
        "{name}, generated (seed {}, {})",
        opts.seed,
        plural(opts.hints as u64, "hint")
    );
    puzzle.description = format!(
        "Generated by cubesat from '{name}' with hints {}, seed {}{}.",
        opts.hints,
        opts.seed,
        if opts.unique { ", unique" } else { "" }
    );
    // Counts of the input (without the new hints) do not describe the generated puzzle.
    puzzle.known_counts = KnownCounts::default();
    puzzle.catalog = None;
    let generated = Instance::new(puzzle)?;
    // Placement ids depend only on pieces and target, so the input's ids carry over; check.
    let mut expected: Vec<u32> = inst
        .table
        .hints()
        .iter()
        .chain(&new_hints)
        .copied()
        .collect();
    expected.sort_unstable();
    if generated.table.hints() != expected.as_slice() {
        return Err(Error::Internal(
            "the generated puzzle's hints do not match the chosen placements".into(),
        ));
    }
    generated.verifier().verify(&solution).map_err(|e| {
        Error::Internal(format!(
            "the solution does not complete the generated puzzle: {e}"
        ))
    })?;
    let engine = ExactEngine::new(&generated.model)?;
    let mut difficulty = 0;
    let st = stop
        .watch(engine.query().threads(1).pruning(true))
        .enumerate(|_| false)?;
    stop.check()?;
    difficulty += st.nodes;
    let (n, complete, count_nodes) = completions(&engine, &[], opts.budget.count_cap.max(2), stop)?;
    let completions = if complete {
        Completions::Exactly(n)
    } else {
        Completions::AtLeast(n)
    };
    if opts.unique && !completions.is_unique() {
        return Err(Error::Internal(format!(
            "the generated puzzle is not unique ({})",
            completions.describe()
        )));
    }
    Ok(Box::new(Generated {
        instance: generated,
        solution,
        new_hints,
        completions,
        difficulty,
        count_nodes,
        solution_index,
        stats,
    }))
}

impl Generated {
    /// The generated puzzle as a puzzle file (pieces in layer art, hints in container-local
    /// coordinates).
    pub fn puzzle_json(&self) -> Value {
        crate::puzzle::json::to_file_value(&self.instance.puzzle)
    }

    /// The report as JSON: only deterministic figures (no times), so output is reproducible.
    pub fn report_json(&self, opts: &GenerateOptions) -> Value {
        let (count, exact) = match self.completions {
            Completions::Exactly(n) => (n, true),
            Completions::AtLeast(n) => (n, false),
        };
        json!({
            "seed": opts.seed,
            "hints": opts.hints,
            "given_hints": self.instance.puzzle.hints.len() - self.new_hints.len(),
            "unique_requested": opts.unique,
            "unique": self.completions.is_unique(),
            "completions": count,
            "completions_exact": exact,
            "difficulty_nodes": self.difficulty,
            "count_nodes": self.count_nodes,
            "solution_index": self.solution_index,
            "uniqueness_checks": self.stats.checks,
        })
    }

    /// The whole result as one JSON object: puzzle file, solution, report.
    pub fn to_json(&self, opts: &GenerateOptions) -> Value {
        let sol = solution_json(
            &self.instance.puzzle,
            &self.instance.table,
            &Solution {
                placements: self.solution.clone(),
            },
            1,
        );
        json!({
            "type": "generated",
            "puzzle": self.puzzle_json(),
            "solution": sol["pieces"],
            "report": self.report_json(opts),
        })
    }

    /// Text: the puzzle (hint pieces only), a blank line, the solution.
    pub fn to_text(&self, color: bool) -> String {
        let p = &self.instance.puzzle;
        let t = &self.instance.table;
        let puzzle_view = scene(p, t, &self.solution, &format!("{}: puzzle", p.name), true);
        let solution_view = scene(
            p,
            t,
            &self.solution,
            &format!("{}: solution", p.name),
            false,
        );
        format!(
            "{}\n{}",
            render::text(&puzzle_view, color),
            render::text(&solution_view, color)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_and_subsets() {
        assert_eq!(binomial(12, 4), 495);
        assert_eq!(binomial(3, 5), 0);
        let mut seen = Vec::new();
        let r: Option<()> = each_subset(&[7, 8, 9], 2, |s| {
            seen.push(s.to_vec());
            Ok(None)
        })
        .unwrap();
        assert!(r.is_none());
        assert_eq!(seen, vec![vec![7, 8], vec![7, 9], vec![8, 9]]);
        let mut empty = 0;
        each_subset::<()>(&[1, 2], 0, |s| {
            assert!(s.is_empty());
            empty += 1;
            Ok(None)
        })
        .unwrap();
        assert_eq!(empty, 1);
    }
}
