//! A disassembly plan as the 3D page animates it: each move's pieces and shift, removals taken far enough to clear every other piece, and two labels per move: the move as it takes the puzzle apart, and as an assembly step (the plan played backwards).

use super::Scene;
use crate::disassembly::Step;

/// The plan of one scene.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenePlan {
    /// Shown with the animation, e.g. `"level 4.9.3, 16 moves"`.
    pub title: String,
    /// The moves in disassembly order.
    pub moves: Vec<PlanMove>,
}

/// One move of a [`ScenePlan`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanMove {
    /// The scene's pieces that move.
    pub pieces: Vec<usize>,
    /// How far they move, in the grid's cell coordinates.
    pub shift: [i32; 3],
    /// The move as an assembly step (the reverse of the disassembly move), e.g. `"B C -x 2"`.
    pub label: String,
    /// The move as it takes the puzzle apart, e.g. `"B C +x 2"`, or `"A +z out"` for a part
    /// taken out.
    pub took: String,
}

/// Short names of a scene's pieces: the letter, numbered when several pieces share it.
pub fn piece_labels(scene: &Scene) -> Vec<String> {
    let mut out = Vec::with_capacity(scene.pieces.len());
    for (i, p) in scene.pieces.iter().enumerate() {
        let same = scene.pieces.iter().filter(|q| q.letter == p.letter).count();
        if same > 1 {
            let k = scene.pieces[..i]
                .iter()
                .filter(|q| q.letter == p.letter)
                .count()
                + 1;
            out.push(format!("{}{k}", p.letter));
        } else {
            out.push(p.letter.to_string());
        }
    }
    out
}

impl ScenePlan {
    /// The plan of `steps` (piece indices are the scene's). A removal goes as far as its
    /// step says, and further if needed to clear every piece of the scene, so that parts
    /// taken out never land on each other.
    pub fn new(scene: &Scene, steps: &[Step], title: String) -> ScenePlan {
        let names = piece_labels(scene);
        let n = scene.pieces.len();
        let mut offset = vec![[0i32; 3]; n];
        let mut moves = Vec::with_capacity(steps.len());
        let grid = scene.grid;
        for s in steps {
            let a = (s.direction >> 1) as usize;
            let sign = if s.direction & 1 == 0 { 1 } else { -1 };
            let unit = grid.slide_axes().get(a).copied().unwrap_or([0; 3]);
            let mut dist = s.distance as i32;
            if s.removal {
                // Along the lines of the axis, in unit steps.
                let reach = |i: usize, best: fn(i32, i32) -> i32, start: i32| {
                    scene.pieces[i]
                        .cells
                        .iter()
                        .map(|c| {
                            let at = [0, 1, 2].map(|x| c[x] + offset[i][x]);
                            sign * grid.slide_line(a, at).1
                        })
                        .fold(start, best)
                };
                let ahead = (0..n)
                    .filter(|i| !s.pieces.contains(i))
                    .map(|i| reach(i, i32::max, i32::MIN))
                    .max()
                    .unwrap_or(i32::MIN);
                let behind = s
                    .pieces
                    .iter()
                    .map(|&i| reach(i, i32::min, i32::MAX))
                    .min()
                    .unwrap_or(i32::MAX);
                if ahead > i32::MIN && behind < i32::MAX {
                    dist = dist.max(ahead - behind + 2);
                }
            }
            let shift = unit.map(|x| sign * dist * x);
            for &i in &s.pieces {
                for x in 0..3 {
                    offset[i][x] += shift[x];
                }
            }
            let who: Vec<&str> = s.pieces.iter().map(|&i| names[i].as_str()).collect();
            let (on, back) = (
                grid.direction_name(s.direction),
                grid.direction_name(s.direction ^ 1),
            );
            let (label, took) = if s.removal {
                (
                    format!("{} {back} in", who.join(" ")),
                    format!("{} {on} out", who.join(" ")),
                )
            } else {
                (
                    format!("{} {back} {}", who.join(" "), s.distance),
                    format!("{} {on} {}", who.join(" "), s.distance),
                )
            };
            moves.push(PlanMove {
                pieces: s.pieces.clone(),
                shift,
                label,
                took,
            });
        }
        ScenePlan { title, moves }
    }
}
