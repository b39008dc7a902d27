//! The independent plan checker: replays a plan's moves unit step by unit step on the pieces' cells; every plan cubesat prints or counts passes it.
//!
//! It trusts nothing the analyser computed (no limits, no states, no tree): only the assembled
//! cells, the list of moves and the grid's geometry (its slide axes and the cells a unit step
//! of a cell passes through, [`Grid::slide_sweep`]). Pieces start in one part, assembled. A
//! move must slide pieces of one part, not all of them, by at least one unit along a slide
//! axis; at every unit step no cell a moving piece passes through or lands on may hold a cell
//! of a piece of the same part that stays (for a step against the axis: no cell a staying
//! piece would sweep stepping along it holds a moving piece). A removal must end with the
//! moving pieces clear of the rest of their part (every moving cell further along the
//! direction's lines than every staying cell, so that no later step can meet them), and they
//! become a part of their own: parts apart never meet again. At the end every part must be a single piece, or pieces whose parts all list one
//! common group (the checker's own reading of the groups, not the analyser's).

use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::geometry::{Cell, Grid};

use super::{PartGroups, Step};

/// Replays `steps` on pieces with assembled `cells` on `grid`, copies of parts `part_of`
/// (groups `groups[part]`). `Ok` when every move is legal and every piece ends separated;
/// otherwise an [`Error::Invalid`] naming the move and what went wrong.
pub fn check(
    grid: Grid,
    cells: &[Vec<Cell>],
    part_of: &[usize],
    groups: &[PartGroups],
    steps: &[Step],
) -> Result<()> {
    let n = cells.len();
    let mut offset = vec![[0i32; 3]; n];
    let mut part = vec![0usize; n];
    let mut parts = 1usize;
    let bad = |i: usize, what: String| {
        Err(Error::Invalid(format!(
            "disassembly plan, move {}: {what}",
            i + 1
        )))
    };
    for (i, s) in steps.iter().enumerate() {
        if s.pieces.is_empty() || s.pieces.iter().any(|&p| p >= n) {
            return bad(i, "no pieces, or a piece out of range".into());
        }
        let axes = grid.slide_axes();
        if s.direction as usize >= 2 * axes.len() || s.distance == 0 {
            return bad(i, format!("direction {} by {}", s.direction, s.distance));
        }
        let p = part[s.pieces[0]];
        let moving: HashSet<usize> = s.pieces.iter().copied().collect();
        if moving.len() != s.pieces.len() || s.pieces.iter().any(|&q| part[q] != p) {
            return bad(
                i,
                "the moving pieces are not distinct pieces of one part".into(),
            );
        }
        let staying: Vec<usize> = (0..n)
            .filter(|&q| part[q] == p && !moving.contains(&q))
            .collect();
        if staying.is_empty() {
            return bad(i, "the whole part moves".into());
        }
        let at = |c: &Cell, off: [i32; 3]| [c[0] + off[0], c[1] + off[1], c[2] + off[2]];
        let mut still: Vec<Cell> = Vec::new();
        for &q in &staying {
            still.extend(cells[q].iter().map(|c| at(c, offset[q])));
        }
        still.sort_unstable();
        let axis = (s.direction >> 1) as usize;
        let sign = if s.direction & 1 == 0 { 1 } else { -1 };
        let unit = axes[axis].map(|x| sign * x);
        for _ in 0..s.distance {
            let mut moving: Vec<Cell> = s
                .pieces
                .iter()
                .flat_map(|&q| {
                    let off = offset[q];
                    cells[q].iter().map(move |c| at(c, off))
                })
                .collect();
            moving.sort_unstable();
            // Stepping along the axis, the moving cells sweep; against it, the staying cells
            // sweep towards them (the same relative motion).
            let (sweeping, swept) = if sign > 0 {
                (&moving, &still)
            } else {
                (&still, &moving)
            };
            let hit = sweeping.iter().find_map(|&c| {
                grid.slide_sweep(axis, c)
                    .iter()
                    .map(|o| at(&c, *o))
                    .find(|x| swept.binary_search(x).is_ok())
            });
            if let Some(x) = hit {
                return bad(
                    i,
                    format!(
                        "pieces {} run into another piece moving {} (at cell {x:?})",
                        s.pieces
                            .iter()
                            .map(|q| (q + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        grid.direction_name(s.direction),
                    ),
                );
            }
            for &q in &s.pieces {
                offset[q] = at(&offset[q], unit);
            }
        }
        if s.removal {
            let step = |c: Cell| sign * grid.slide_line(axis, c).1;
            let ahead = still.iter().map(|&c| step(c)).max().unwrap_or(i32::MIN);
            let mut behind = i32::MAX;
            for &q in &s.pieces {
                for c in &cells[q] {
                    behind = behind.min(step(at(c, offset[q])));
                }
            }
            if behind <= ahead {
                return bad(i, "the removed pieces are not clear of their part".into());
            }
            for &q in &s.pieces {
                part[q] = parts;
            }
            parts += 1;
        }
    }
    for k in 0..parts {
        let members: Vec<usize> = (0..n).filter(|&q| part[q] == k).collect();
        if members.len() > 1 && !common_group(members.iter().map(|&q| &groups[part_of[q]])) {
            return Err(Error::Invalid(format!(
                "disassembly plan: pieces {} end together and share no group",
                members
                    .iter()
                    .map(|q| (q + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

/// True when one group (other than 0) is listed by every one of these parts.
fn common_group<'a>(mut lists: impl Iterator<Item = &'a PartGroups>) -> bool {
    let Some(first) = lists.next() else {
        return true;
    };
    let mut common: Vec<u16> = first.iter().map(|g| g.0).filter(|&g| g != 0).collect();
    for l in lists {
        common.retain(|g| l.iter().any(|e| e.0 == *g));
    }
    !common.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(pieces: &[usize], direction: u8, distance: u32, removal: bool) -> Step {
        Step {
            pieces: pieces.to_vec(),
            direction,
            distance,
            removal,
        }
    }

    /// Whether `steps` replay on `cells` (pieces of parts 0, 1, ... without groups).
    fn replays(grid: Grid, cells: &[Vec<Cell>], steps: &[Step]) -> bool {
        let parts: Vec<usize> = (0..cells.len()).collect();
        check(grid, cells, &parts, &vec![vec![]; cells.len()], steps).is_ok()
    }

    #[test]
    fn two_cubes_side_by_side() {
        let cells = vec![vec![[0, 0, 0]], vec![[1, 0, 0]]];
        assert!(replays(Grid::Cube, &cells, &[step(&[1], 0, 1, true)]));
        // Moving into the other piece fails.
        assert!(!replays(Grid::Cube, &cells, &[step(&[1], 1, 1, true)]));
        // A removal that stops while still level with the other piece is refused.
        let tall = vec![vec![[0, 0, 0], [0, 0, 1], [0, 0, 2]], vec![[1, 0, 0]]];
        assert!(!replays(Grid::Cube, &tall, &[step(&[1], 4, 1, true)]));
        assert!(replays(Grid::Cube, &tall, &[step(&[1], 4, 3, true)]));
        // Nothing removed: the two pieces end together.
        assert!(!replays(Grid::Cube, &cells, &[step(&[1], 2, 3, false)]));
    }

    #[test]
    fn a_piece_in_a_u_must_leave_sideways() {
        // A U open towards +y and a cube in its notch.
        let cells = vec![
            vec![[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0]],
            vec![[1, 1, 0]],
        ];
        assert!(!replays(Grid::Cube, &cells, &[step(&[1], 0, 2, true)]));
        assert!(replays(Grid::Cube, &cells, &[step(&[1], 2, 1, true)]));
        assert!(replays(Grid::Cube, &cells, &[step(&[1], 4, 1, true)]));
    }

    #[test]
    fn a_triangle_may_not_slide_across_its_neighbour() {
        // An up triangle and the down triangle to its right: the up one cannot leave along
        // +x or +x+y (it would pass over the other), but can along their common side (-x+y)
        // or away from it (-x); the down one is blocked going -x.
        let cells = vec![vec![[1, 1, 0]], vec![[2, 2, 0]]];
        assert!(!replays(Grid::Prism, &cells, &[step(&[0], 2, 1, true)]));
        assert!(!replays(Grid::Prism, &cells, &[step(&[0], 4, 1, true)]));
        assert!(replays(Grid::Prism, &cells, &[step(&[0], 6, 1, true)]));
        assert!(replays(Grid::Prism, &cells, &[step(&[0], 3, 1, true)]));
        assert!(!replays(Grid::Prism, &cells, &[step(&[1], 3, 1, true)]));
        // Along z every direction is free.
        assert!(replays(Grid::Prism, &cells, &[step(&[1], 0, 1, true)]));
    }

    #[test]
    fn groups_may_stay_together() {
        let cells = vec![vec![[0, 0, 0]], vec![[1, 0, 0]], vec![[5, 0, 0]]];
        let groups = vec![vec![(1, 2)], vec![]];
        assert!(
            check(
                Grid::Cube,
                &cells,
                &[0, 0, 1],
                &groups,
                &[step(&[2], 0, 1, true)]
            )
            .is_ok()
        );
        assert!(
            check(
                Grid::Cube,
                &cells,
                &[0, 1, 1],
                &groups,
                &[step(&[0], 1, 1, true)]
            )
            .is_err()
        );
    }
}
