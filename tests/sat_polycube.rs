//! SAT engine on real polycube models built inside the test (so it does not depend on the
//! placement module): pentominoes 3x20 (8 solutions), the Soma cube with one piece fixed
//! (checked against a plain exact-cover search), and, behind `#[ignore]`, formula sizes and
//! first-solution times for the Soma cube and the Tetris Cube per at-most-one encoding.

use cubesat::encoding::{AtMostOne, CnfConfig, CnfEncoder};
use cubesat::engines::sat::{Cube, SatConfig, SatEngine};
use cubesat::model::{CellGeometry, ExactCover, Item};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

type Shape = &'static [(i32, i32, i32)];

const PENTOMINOES: [(&str, Shape); 12] = [
    (
        "F",
        &[(0, 1, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 0, 0)],
    ),
    (
        "I",
        &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)],
    ),
    (
        "L",
        &[(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0), (1, 0, 0)],
    ),
    (
        "N",
        &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)],
    ),
    (
        "P",
        &[(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0), (1, 1, 0)],
    ),
    (
        "T",
        &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 0, 0)],
    ),
    (
        "U",
        &[(0, 0, 0), (0, 1, 0), (1, 1, 0), (2, 0, 0), (2, 1, 0)],
    ),
    (
        "V",
        &[(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0), (2, 0, 0)],
    ),
    (
        "W",
        &[(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 2, 0), (2, 2, 0)],
    ),
    (
        "X",
        &[(0, 1, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 1, 0)],
    ),
    (
        "Y",
        &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 0, 0), (3, 0, 0)],
    ),
    (
        "Z",
        &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 2, 0)],
    ),
];

const SOMA: [(&str, Shape); 7] = [
    ("V", &[(0, 0, 0), (0, 1, 0), (1, 0, 0)]),
    ("L", &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)]),
    ("T", &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 0, 0)]),
    ("Z", &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)]),
    ("A_screw", &[(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 0, 1)]),
    ("B_screw", &[(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 0)]),
    ("P_branch", &[(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]),
];

const TETRIS_CUBE: [(&str, Shape); 12] = [
    (
        "piece_0",
        &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (3, 1, 0)],
    ),
    (
        "piece_1",
        &[(0, 1, 1), (1, 1, 1), (2, 0, 0), (2, 0, 1), (2, 1, 1)],
    ),
    (
        "piece_2",
        &[
            (0, 0, 0),
            (0, 1, 0),
            (0, 2, 0),
            (0, 2, 1),
            (0, 2, 2),
            (1, 2, 1),
        ],
    ),
    (
        "piece_3",
        &[(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)],
    ),
    (
        "piece_4",
        &[(0, 0, 1), (0, 0, 2), (0, 1, 2), (1, 0, 0), (1, 0, 1)],
    ),
    (
        "piece_5",
        &[(0, 0, 1), (1, 0, 1), (2, 0, 0), (2, 0, 1), (3, 0, 1)],
    ),
    (
        "piece_6",
        &[
            (0, 0, 0),
            (0, 1, 0),
            (0, 2, 0),
            (0, 2, 1),
            (0, 2, 2),
            (1, 2, 2),
        ],
    ),
    (
        "piece_7",
        &[(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 2, 1), (0, 2, 2)],
    ),
    (
        "piece_8",
        &[
            (0, 1, 1),
            (0, 1, 2),
            (1, 0, 1),
            (1, 1, 0),
            (1, 1, 1),
            (1, 2, 1),
        ],
    ),
    (
        "piece_9",
        &[(0, 1, 0), (0, 1, 1), (1, 0, 1), (1, 1, 1), (1, 2, 1)],
    ),
    (
        "piece_10",
        &[(0, 0, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1), (2, 1, 0)],
    ),
    (
        "piece_11",
        &[
            (0, 0, 2),
            (0, 1, 2),
            (1, 0, 0),
            (1, 0, 1),
            (1, 0, 2),
            (2, 0, 1),
        ],
    ),
];

type Cell = (i32, i32, i32);

/// The 24 proper rotations as functions on cells, generated from quarter turns about x and z.
fn rotations() -> Vec<[[i32; 3]; 3]> {
    let mul = |a: [[i32; 3]; 3], b: [[i32; 3]; 3]| {
        let mut c = [[0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        c
    };
    let rx = [[1, 0, 0], [0, 0, -1], [0, 1, 0]];
    let rz = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];
    let mut all = vec![[[1, 0, 0], [0, 1, 0], [0, 0, 1]]];
    let mut i = 0;
    while i < all.len() {
        for g in [rx, rz] {
            let m = mul(g, all[i]);
            if !all.contains(&m) {
                all.push(m);
            }
        }
        i += 1;
    }
    assert_eq!(all.len(), 24);
    all
}

/// The distinct orientations of a shape, each normalised to a sorted cell list at the origin.
fn orientations(shape: Shape) -> BTreeSet<Vec<Cell>> {
    rotations()
        .into_iter()
        .map(|m| {
            let mut cells: Vec<Cell> = shape
                .iter()
                .map(|&(x, y, z)| {
                    let v = [x, y, z];
                    let r: Vec<i32> = (0..3)
                        .map(|i| (0..3).map(|k| m[i][k] * v[k]).sum())
                        .collect();
                    (r[0], r[1], r[2])
                })
                .collect();
            let min = (
                cells.iter().map(|c| c.0).min().unwrap_or(0),
                cells.iter().map(|c| c.1).min().unwrap_or(0),
                cells.iter().map(|c| c.2).min().unwrap_or(0),
            );
            for c in &mut cells {
                *c = (c.0 - min.0, c.1 - min.1, c.2 - min.2);
            }
            cells.sort_unstable();
            cells
        })
        .collect()
}

/// Every in-box placement of every piece (each piece once) in an `x × y × z` box. Returns the
/// model and one label per option.
fn box_model(pieces: &[(&str, Shape)], dims: (i32, i32, i32)) -> (ExactCover, Vec<String>) {
    let (dx, dy, dz) = dims;
    let index = |c: Cell| (c.0 + dx * (c.1 + dy * c.2)) as u32;
    let first_cell = pieces.len() as u32;
    let mut items: Vec<Item> = pieces
        .iter()
        .map(|p| Item {
            name: p.0.into(),
            need: 1,
        })
        .collect();
    let n_cells = (dx * dy * dz) as u32;
    items.extend((0..n_cells).map(|c| Item {
        name: format!("cell{c}"),
        need: 1,
    }));
    let mut options = Vec::new();
    let mut labels = Vec::new();
    for (p, &(name, shape)) in pieces.iter().enumerate() {
        for (k, o) in orientations(shape).iter().enumerate() {
            for (ox, oy, oz) in
                (0..dz).flat_map(|z| (0..dy).flat_map(move |y| (0..dx).map(move |x| (x, y, z))))
            {
                let cells: Vec<Cell> = o.iter().map(|c| (c.0 + ox, c.1 + oy, c.2 + oz)).collect();
                if cells.iter().all(|c| c.0 < dx && c.1 < dy && c.2 < dz) {
                    let mut opt = vec![p as u32];
                    let mut cs: Vec<u32> = cells.iter().map(|&c| first_cell + index(c)).collect();
                    cs.sort_unstable();
                    opt.extend(cs);
                    options.push(opt);
                    labels.push(format!("piece={name} orient={k} at={ox},{oy},{oz}"));
                }
            }
        }
    }
    let mut neighbors = vec![Vec::new(); n_cells as usize];
    for z in 0..dz {
        for y in 0..dy {
            for x in 0..dx {
                let c = index((x, y, z));
                for (nx, ny, nz) in [
                    (x - 1, y, z),
                    (x + 1, y, z),
                    (x, y - 1, z),
                    (x, y + 1, z),
                    (x, y, z - 1),
                    (x, y, z + 1),
                ] {
                    if (0..dx).contains(&nx) && (0..dy).contains(&ny) && (0..dz).contains(&nz) {
                        neighbors[c as usize].push(index((nx, ny, nz)));
                    }
                }
                neighbors[c as usize].sort_unstable();
            }
        }
    }
    let piece_sizes = pieces.iter().map(|p| p.1.len() as u32).collect();
    let model = ExactCover {
        items,
        options,
        forced: vec![],
        geometry: Some(CellGeometry {
            first_cell,
            neighbors,
            piece_sizes,
        }),
    };
    model.validate().unwrap();
    (model, labels)
}

/// A plain exact-cover search (all needs 1), for cross-checking.
fn count_exact_cover(m: &ExactCover) -> Vec<Vec<u32>> {
    fn go(
        m: &ExactCover,
        by_item: &[Vec<u32>],
        covered: &mut [bool],
        chosen: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        // The uncovered item with the fewest compatible options.
        let mut best: Option<(usize, Vec<u32>)> = None;
        for (i, opts) in by_item.iter().enumerate() {
            if covered[i] {
                continue;
            }
            let ok: Vec<u32> = opts
                .iter()
                .copied()
                .filter(|&o| m.options[o as usize].iter().all(|&j| !covered[j as usize]))
                .collect();
            if best.as_ref().is_none_or(|b| ok.len() < b.1.len()) {
                best = Some((i, ok));
            }
        }
        let Some((_, opts)) = best else {
            let mut s = chosen.clone();
            s.sort_unstable();
            out.push(s);
            return;
        };
        for o in opts {
            for &j in &m.options[o as usize] {
                covered[j as usize] = true;
            }
            chosen.push(o);
            go(m, by_item, covered, chosen, out);
            chosen.pop();
            for &j in &m.options[o as usize] {
                covered[j as usize] = false;
            }
        }
    }
    let by_item = m.options_by_item();
    let mut covered = vec![false; m.item_count()];
    let mut chosen: Vec<u32> = m.forced.clone();
    for &o in &m.forced {
        for &j in &m.options[o as usize] {
            covered[j as usize] = true;
        }
    }
    let mut out = Vec::new();
    go(m, &by_item, &mut covered, &mut chosen, &mut out);
    out.sort();
    out
}

/// Slow: about 5 minutes for the four encodings in the test profile (proving that no ninth
/// solution exists is the hard part for varisat).
#[test]
#[ignore]
fn pentominoes_3x20_has_8_solutions() {
    let (m, _) = box_model(&PENTOMINOES, (20, 3, 1));
    let only = std::env::var("CUBESAT_AMO").ok();
    for amo in AtMostOne::ALL {
        if only.as_deref().is_some_and(|o| o != amo.name()) {
            continue;
        }
        let start = Instant::now();
        let mut e = SatEngine::new(
            &m,
            SatConfig {
                amo,
                drop_implied_piece_amo: true,
            },
        )
        .unwrap();
        assert!(e.stats().piece_amo_dropped);
        let sols = e.solutions(&Cube::default(), None).unwrap();
        assert_eq!(sols.len(), 8, "{amo}");
        println!(
            "pentominoes 3x20 amo={amo}: all 8 in {:.2?}",
            start.elapsed()
        );
    }
}

/// The Soma cube with the pieces in `fixed` held at their placements in a first solution.
fn soma_fixed(fixed: &[u32]) -> ExactCover {
    let (mut m, _) = box_model(&SOMA, (3, 3, 3));
    let first = SatEngine::new(&m, SatConfig::default())
        .unwrap()
        .solve_first(&Cube::default())
        .unwrap()
        .unwrap();
    let by_item = m.options_by_item();
    m.forced = first
        .iter()
        .copied()
        .filter(|o| fixed.iter().any(|&p| by_item[p as usize].contains(o)))
        .collect();
    assert_eq!(m.forced.len(), fixed.len());
    m
}

#[test]
fn soma_with_two_pieces_fixed_matches_exact_cover_search() {
    let m = soma_fixed(&[0, 1]); // V and L
    let expected = count_exact_cover(&m);
    assert!(!expected.is_empty());
    for amo in AtMostOne::ALL {
        for drop in [false, true] {
            let mut e = SatEngine::new(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: drop,
                },
            )
            .unwrap();
            assert_eq!(e.stats().piece_amo_dropped, drop);
            let mut got = e.solutions(&Cube::default(), None).unwrap();
            got.sort();
            assert_eq!(got, expected, "{amo} drop={drop}");
        }
    }
}

/// Soma with V fixed (207 solutions for the first solution varisat finds here), split into
/// cubes on the placements of L, solved with one solver: the union is every solution.
#[test]
fn soma_cubes_on_one_solver_match_exact_cover_search() {
    let m = soma_fixed(&[0]);
    let expected = count_exact_cover(&m);
    assert!(expected.len() > 20, "{}", expected.len());
    let ls = m.options_by_item()[1].clone();
    let cubes: Vec<Cube> = ls
        .iter()
        .map(|&o| Cube {
            chosen: vec![o],
            excluded: vec![],
        })
        .collect();
    let cfg = SatConfig {
        amo: AtMostOne::Pairwise,
        drop_implied_piece_amo: false,
    };
    let mut e = SatEngine::new(&m, cfg).unwrap();
    let per_cube = e.solve_cubes(&cubes).unwrap();
    for (c, sols) in cubes.iter().zip(&per_cube) {
        assert!(sols.iter().all(|s| s.contains(&c.chosen[0])));
    }
    let mut union: Vec<Vec<u32>> = per_cube.into_iter().flatten().collect();
    union.sort();
    assert_eq!(union, expected);
}

/// Prints variable/clause counts per encoding (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn print_formula_sizes() {
    for (name, pieces, dims) in [
        ("Soma", &SOMA[..], (3, 3, 3)),
        ("Tetris Cube", &TETRIS_CUBE[..], (4, 4, 4)),
        ("Pentominoes 3x20", &PENTOMINOES[..], (20, 3, 1)),
    ] {
        let (m, _) = box_model(pieces, dims);
        for amo in AtMostOne::ALL {
            for drop in [false, true] {
                let cfg = CnfConfig {
                    amo,
                    drop_implied_piece_amo: drop,
                    ..Default::default()
                };
                let s = CnfEncoder::new(cfg)
                    .encode(&m, &mut varisat::CnfFormula::new())
                    .unwrap();
                println!(
                    "{name}: options={} amo={amo} drop-piece-amo={} variables={} clauses={}",
                    s.option_vars, s.piece_amo_dropped, s.variables, s.clauses
                );
            }
        }
    }
}

/// First-solution time on the Tetris Cube per encoding, each capped (run in release with
/// `--ignored --nocapture`; `CUBESAT_CAP_SECS` sets the cap, default 90; `CUBESAT_AMO=<name>`
/// runs one encoding; `CUBESAT_DROP=1` drops the implied piece at-most-ones).
#[test]
#[ignore]
fn tetris_cube_first_solution_times() {
    let cap = std::env::var("CUBESAT_CAP_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(Duration::from_secs(90), Duration::from_secs);
    let only = std::env::var("CUBESAT_AMO").ok();
    let drop = std::env::var("CUBESAT_DROP").is_ok_and(|v| v == "1");
    for amo in AtMostOne::ALL {
        if only.as_deref().is_some_and(|o| o != amo.name()) {
            continue;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        // varisat cannot be interrupted: solve in a detached thread and stop waiting at the cap.
        std::thread::spawn(move || {
            let (m, _) = box_model(&TETRIS_CUBE, (4, 4, 4));
            let start = Instant::now();
            let mut e = SatEngine::new(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: drop,
                },
            )
            .unwrap();
            let built = start.elapsed();
            let s = e.solve_first(&Cube::default()).unwrap();
            let _ = tx.send((built, start.elapsed(), s.is_some(), e.stats().clone()));
        });
        match rx.recv_timeout(cap) {
            Ok((built, total, found, st)) => println!(
                "Tetris Cube amo={amo} drop-piece-amo={drop}: vars={} clauses={} build={built:.2?} first solution after {total:.2?} (found={found})",
                st.variables, st.clauses
            ),
            Err(_) => {
                println!(
                    "Tetris Cube amo={amo} drop-piece-amo={drop}: no solution within {cap:?} (gave up)"
                );
                // The detached thread would keep a core busy: end the test process here.
                std::process::exit(0);
            }
        }
    }
}
