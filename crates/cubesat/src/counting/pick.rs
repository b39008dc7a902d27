//! Choosing the piece to restrict: the candidates' search trees measured to a small depth, the smallest kept.

use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::symmetry::PlacementSymmetries;
use cubesat_xc::exact::{ExactEngine, TreeTop};

/// The deepest level below the root at which the candidates' trees are compared: the
/// smallest tree to depth 3 was the smallest whole tree, or one within 11% of it, on the
/// five families of issue 29, while depths 1 and 2 tied or misled on the Tetris Cube.
const PICK_DEPTH: usize = 3;
/// After depth 1 and after depth 2, the candidates more than this many times as large as the
/// best go no deeper (as numerator / denominator). Depth 1 is the first branching alone
/// (the Tetris Cube's best piece had 13 nodes there against 9), depth 2 already separates.
const PICK_SPREAD: [(u64, u64); 2] = [(2, 1), (5, 4)];
/// The nodes the whole comparison may visit, for a model of 64 words of options: a larger
/// model's nodes cost more, and it gets proportionally fewer (the Tetris Cube, 4,080 options,
/// spends about 60 ms of it).
const PICK_NODES: u64 = 100_000;
/// The comparison visits at most this fraction of the first candidate's estimated tree: its
/// nodes, outside the leaf search and at the top of the tree, cost several times a count's.
const PICK_SHARE: f64 = 512.0;
/// Knuth's probes that estimate the first candidate's tree ([`TreeTop::sample`]);
/// the estimate only sizes the comparison's budget, so a factor of ten off does no harm.
const PICK_PROBES: u32 = 8;
const PICK_SEED: u64 = 0x5eed;
/// With a budget under this many nodes a candidate, the comparison cannot reach depth 2 and
/// is not begun.
const PICK_MIN_NODES: u64 = 64;

/// One piece that could be restricted: its representatives (smallest index per orbit of the
/// subgroup keeping it), the fraction of its placements they are, and how many of its
/// placements an element other than the identity fixes.
pub(super) struct Candidate {
    piece: usize,
    reps: Vec<u32>,
    fraction: f64,
    fixed_points: usize,
}

/// Picks the piece whose restriction shrinks the search most. The candidates are the pieces
/// of count 1 (not hinted) whose subgroup has more than one element. Restricting any of them
/// keeps the same solution classes, but the trees differ by up to 4x (the Tetris Cube's
/// pieces: 30 to 132 million nodes), and no static rule (fewest placements kept, largest
/// piece) ranked them on every family. So each candidate's tree is measured to depth 1, 2
/// and 3 ([`TreeTop::breadth`]), the clearly larger ones dropped on the way (see
/// [`PICK_SPREAD`]) within a node budget ([`PICK_NODES`], [`PICK_SHARE`]). A budget that
/// runs out during depth 3 leaves the order at depth 2. Ties, a budget too small to finish
/// depth 2 and a model the engine refuses go to the smallest fraction kept, then the fewest
/// fixed points. Only a count (`counting`) measures: a listing wants its first solution at
/// once, and an export and its decode, `info` and the studio's views keep the static choice
/// (on a box of 29 pentacubes the comparison took 0.4 s against `info`'s 30 ms). Every step
/// is deterministic, so every shard of a count picks the same piece. Returns the piece, its
/// representatives and whether the subgroup acts freely on its placements.
pub(super) fn choose_restriction(
    puzzle: &Puzzle,
    table: &PlacementTable,
    group: &PlacementSymmetries,
    partners: Option<&[usize]>,
    counting: bool,
    exact_only: bool,
    engine: &dyn Fn() -> Option<ExactEngine>,
) -> Option<(usize, Vec<u32>, bool)> {
    let mut cands = candidates(puzzle, table, group, partners);
    if exact_only {
        // A memoized count never sees a solution to check: only a piece whose placements
        // the whole group moves freely keeps one solution per orbit by itself.
        let whole = |pi: usize| {
            (0..group.len())
                .all(|g| !group.reflection[g] || partners.is_some_and(|pp| pp[pi] == pi))
        };
        cands.retain(|c| c.fixed_points == 0 && whole(c.piece));
    }
    cands.sort_by(|a, b| {
        a.fraction
            .total_cmp(&b.fraction)
            .then(a.fixed_points.cmp(&b.fixed_points))
            .then(a.piece.cmp(&b.piece))
    });
    let pick = if counting && !exact_only && cands.len() > 1 {
        measured_pick(table, &cands, engine).unwrap_or(0)
    } else {
        0
    };
    (pick < cands.len()).then(|| {
        let c = cands.swap_remove(pick);
        (c.piece, c.reps, c.fixed_points == 0)
    })
}

/// The pieces [`choose_restriction`] chooses from, in piece order.
pub(super) fn candidates(
    puzzle: &Puzzle,
    table: &PlacementTable,
    group: &PlacementSymmetries,
    partners: Option<&[usize]>,
) -> Vec<Candidate> {
    let hinted: Vec<u32> = table
        .hints()
        .iter()
        .map(|&h| table.placements()[h as usize].piece)
        .collect();
    let mut out = Vec::new();
    for (pi, piece) in puzzle.pieces.iter().enumerate() {
        if piece.count != 1 || piece.min_count != 1 || hinted.contains(&(pi as u32)) {
            continue;
        }
        let keeps = |g: usize| !group.reflection[g] || partners.is_some_and(|pp| pp[pi] == pi);
        let elements: Vec<usize> = (0..group.len()).filter(|&g| keeps(g)).collect();
        if elements.len() < 2 {
            continue;
        }
        let placements = &table.by_piece()[pi];
        if placements.is_empty() {
            continue;
        }
        let mut reps = Vec::new();
        // Placements already in an orbit, by number (the piece's placements are a few of the
        // table's, and a flag each is cheaper than hashing every image).
        let mut seen = vec![false; table.len()];
        let mut fixed_points = 0usize;
        for &p in placements {
            let orbit = elements.iter().map(|&g| group.images[g][p as usize]);
            if orbit.clone().skip(1).any(|q| q == p) {
                fixed_points += 1;
            }
            if !seen[p as usize] {
                reps.push(p);
                for q in orbit {
                    if let Some(s) = seen.get_mut(q as usize) {
                        *s = true;
                    }
                }
            }
        }
        out.push(Candidate {
            piece: pi,
            fraction: reps.len() as f64 / placements.len() as f64,
            reps,
            fixed_points,
        });
    }
    out
}

/// The index in `cands` of the candidate whose tree measures smallest (see
/// [`choose_restriction`]); `None` when the engine refuses the model. `engine` is asked for
/// the exact engine only here, so a reduction without a choice never prepares one.
pub(super) fn measured_pick(
    table: &PlacementTable,
    cands: &[Candidate],
    engine: &dyn Fn() -> Option<ExactEngine>,
) -> Option<usize> {
    // Whatever the run's own settings, so that every run of the puzzle picks alike.
    let engine = engine()?.with_pruning(true).with_preprocess(true);
    let top = |c: &Candidate| {
        // Both ascending.
        let excluded: Vec<u32> = table.by_piece()[c.piece]
            .iter()
            .copied()
            .filter(|p| c.reps.binary_search(p).is_err())
            .collect();
        engine.query().exclude(&excluded).top().ok()
    };
    let mut tops: Vec<Option<TreeTop>> = (0..cands.len()).map(|_| None).collect();
    let first = top(&cands[0])?;
    // The comparison is worth a small share of the search it shortens: a tree of a few
    // thousand nodes (Soma) keeps the first candidate untested.
    let tree = first.sample(PICK_PROBES, PICK_SEED);
    let mut budget =
        ((tree / PICK_SHARE) as u64).min(PICK_NODES * 64 / first.words().max(64) as u64);
    tops[0] = Some(first);
    if budget < PICK_MIN_NODES * cands.len() as u64 {
        return Some(0);
    }
    // The candidates still compared, with their size at the last depth measured, best first.
    let mut alive: Vec<(u64, usize)> = (0..cands.len()).map(|i| (0, i)).collect();
    for depth in 1..=PICK_DEPTH {
        let (num, den) = PICK_SPREAD.get(depth - 1).copied().unwrap_or((1, 1));
        let mut best = u64::MAX;
        let mut next = Vec::with_capacity(alive.len());
        for &(_, i) in &alive {
            let cap = (best.saturating_mul(num) / den).min(budget);
            if tops[i].is_none() {
                tops[i] = Some(top(&cands[i])?);
            }
            match tops[i].as_ref()?.breadth(depth, cap) {
                Some(size) => {
                    budget -= size;
                    best = best.min(size);
                    next.push((size, i));
                }
                // Over the budget: the last depth measured decides, if the second; the
                // first branching alone misleads as often as not.
                None if cap == budget => {
                    return Some(if depth > 2 { alive[0].1 } else { 0 });
                }
                None => budget -= cap,
            }
        }
        next.retain(|&(size, _)| size.saturating_mul(den) <= best.saturating_mul(num));
        next.sort();
        alive = next;
        if alive.len() <= 1 {
            break;
        }
    }
    alive.first().map(|&(_, i)| i)
}
