//! Memoized counts against dancing links and the exact engine, on the kernel's fixtures
//! and on seeded random models, at every branching rule and cache bound.

use super::*;
use crate::engines::{dlx::Dlx, exact::ExactEngine};
use crate::fixtures;
use crate::model::Item;
use crate::{Progress, Shard};
use std::sync::Arc;

const RULES: [Branching; 4] = [
    Branching::Mrv,
    Branching::First,
    Branching::FirstForced,
    Branching::Profile,
];

fn memo(model: &ExactCover, branching: Branching, bytes: u64) -> MemoEngine {
    let config = MemoConfig {
        max_cache_bytes: bytes,
        branching,
        solution_weight: Some(1),
    };
    MemoEngine::with_config(model, config).unwrap()
}

/// A seeded random model (xorshift): `cells` items needed once, some secondary items and
/// `pieces` items of need 1..=3 or ranged, every option holding at least one cell.
fn random_model(seed: u64, cells: usize, options: usize) -> ExactCover {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (secondary, pieces) = (cells / 4, 3);
    let mut items: Vec<Item> = (0..cells)
        .map(|i| Item::exact(format!("c{i}"), 1))
        .collect();
    items.extend((0..secondary).map(|i| Item::secondary(format!("s{i}"))));
    for p in 0..pieces {
        items.push(match next(3) {
            0 => Item::exact(format!("p{p}"), 1 + next(3) as u32),
            1 => Item::range(format!("p{p}"), next(2) as u32, 2 + next(2) as u32),
            _ => Item::exact(format!("p{p}"), 1),
        });
    }
    let mut model = ExactCover {
        items,
        ..ExactCover::default()
    };
    for _ in 0..options {
        let k = 1 + next(3) as usize;
        let mut o: Vec<u32> = (0..k).map(|_| next(cells as u64) as u32).collect();
        if next(3) == 0 {
            o.push((cells + next(secondary as u64) as usize) as u32);
        }
        if next(2) == 0 {
            o.push((cells + secondary + next(pieces as u64) as usize) as u32);
        }
        o.sort_unstable();
        o.dedup();
        if !model.options.contains(&o) {
            model.options.push(o);
        }
    }
    model
}

fn dlx_count(model: &ExactCover, query: &Query) -> u64 {
    Engine::count(&Dlx::new(model).unwrap(), query, &|_| 1)
        .unwrap()
        .total
}

#[test]
fn random_models_count_as_dancing_links_and_the_exact_engine() {
    let mut nonempty = 0;
    for seed in 1..60 {
        let cells = 6 + (seed % 9) as usize;
        let model = random_model(seed, cells, 12 + 2 * seed as usize);
        let q = Query {
            excluded: vec![(seed % 5) as u32],
            ..Query::default()
        };
        let want = dlx_count(&model, &q);
        let exact = ExactEngine::new(&model).unwrap();
        assert_eq!(Engine::count(&exact, &q, &|_| 1).unwrap().total, want);
        nonempty += usize::from(want > 0);
        for rule in RULES {
            for bytes in [0, 1 << 12, DEFAULT_CACHE_BYTES] {
                let c = memo(&model, rule, bytes).count_query(&q).unwrap();
                assert_eq!(c.solutions, want, "seed {seed}, {rule:?}, {bytes} bytes");
                assert!(c.peak_bytes <= bytes);
            }
        }
    }
    assert!(nonempty > 20, "the random models should have solutions");
}

/// The first solution the exact engine lists, as forced options that leave a smaller
/// problem of the same puzzle (debug builds run the tests).
fn first_solution(model: &ExactCover) -> Vec<u32> {
    let mut first = Vec::new();
    let exact = ExactEngine::new(model).unwrap();
    Engine::enumerate(&exact, &Query::default(), &mut |s| {
        first = s.to_vec();
        ControlFlow::Break(())
    })
    .unwrap();
    first
}

#[test]
fn fixtures_count_as_the_exact_engine_at_any_bound() {
    // Soma whole (11,520 placements), the pentominoes 6x10 and the Tetris Cube with the
    // first pieces of a solution placed (debug builds run these).
    let mut replaced = false;
    for (name, forced) in [("soma", 0), ("pentominoes-6x10", 2), ("tetris-cube", 3)] {
        let model = fixtures::model(name);
        let q = Query {
            forced: first_solution(&model)[..forced].to_vec(),
            ..Query::default()
        };
        let exact = ExactEngine::new(&model).unwrap();
        let want = Engine::count(&exact, &q, &|_| 1).unwrap();
        assert!(want.total >= 1, "{name}");
        for rule in RULES {
            let mut nodes = None;
            // No cache, a first table that can never grow (it replaces entries), and room.
            for bytes in [0, 1 << 16, DEFAULT_CACHE_BYTES] {
                let e = memo(&model, rule, bytes);
                let c = Engine::count(&e, &q, &|_| 7).unwrap();
                // The declared weight (1) counts, not the function's.
                assert_eq!(c.solutions, want.total, "{name} {rule:?} {bytes}");
                assert_eq!(c.total, want.total);
                let again = e.count_query(&q).unwrap();
                assert_eq!(Some(again.nodes), c.nodes, "nodes are deterministic");
                assert!(again.peak_bytes <= bytes);
                replaced |= again.evicted > 0;
                // A larger cache never visits more nodes.
                assert!(nodes.is_none_or(|n| n >= again.nodes), "{name} {rule:?}");
                nodes = Some(again.nodes);
            }
        }
    }
    assert!(replaced, "some count ran with its cache at the bound");
}

#[test]
fn forced_and_excluded_options_restrict_the_count() {
    let model = fixtures::model("pentominoes-6x10");
    let exact = ExactEngine::new(&model).unwrap();
    let e = memo(&model, Branching::default(), DEFAULT_CACHE_BYTES);
    let some = first_solution(&model)[..3].to_vec();
    for q in [
        Query {
            forced: some.clone(),
            ..Query::default()
        },
        Query {
            forced: some.clone(),
            excluded: (0..400).filter(|o| !some.contains(o)).collect(),
            ..Query::default()
        },
        Query {
            forced: some.clone(),
            excluded: some.clone(),
            ..Query::default()
        },
    ] {
        let want = Engine::count(&exact, &q, &|_| 1).unwrap().total;
        assert_eq!(e.count_query(&q).unwrap().solutions, want);
    }
}

/// Dominoes on a 4xN board (a piece item of need 2N and 4N cells): the count is the
/// known tiling number, and the memoized tree stays linear in N where the plain one
/// grows exponentially.
#[test]
fn domino_boards_count_tilings_in_few_nodes() {
    // Tilings of a 4xN board by dominoes (OEIS A005178).
    let known = [1u64, 1, 5, 11, 36, 95, 281, 781, 2245, 6336, 18061];
    for (n, &tilings) in known.iter().enumerate().skip(1) {
        let cells = 4 * n as u32;
        let mut items = vec![Item::exact("domino", cells / 2)];
        items.extend((0..cells).map(|c| Item::exact(format!("c{c}"), 1)));
        let mut options = Vec::new();
        for c in 0..cells {
            let (r, col) = (c % 4, c / 4);
            if r < 3 {
                options.push(vec![0, 1 + c, 2 + c]);
            }
            if col + 1 < n as u32 {
                options.push(vec![0, 1 + c, 5 + c]);
            }
        }
        let model = ExactCover {
            items,
            options,
            ..ExactCover::default()
        };
        let c = memo(&model, Branching::First, DEFAULT_CACHE_BYTES)
            .count_query(&Query::default())
            .unwrap();
        assert_eq!(c.solutions, tilings, "4x{n}");
        assert!(c.nodes <= 40 * n as u64, "4x{n}: {} nodes", c.nodes);
    }
}

/// The profile rule orders the cells by the model's geometry, not by the model's numbering:
/// on 4xN boards of dominoes whose cells are numbered along the long side (so that the
/// model's order has a frontier N cells wide), it still counts in nodes linear in N, and the
/// band order keeps every cell within a cross-section of its neighbours; with the cells'
/// positions, within the board's width.
#[test]
fn the_profile_rule_follows_the_geometry() {
    let known = [
        1u64, 1, 5, 11, 36, 95, 281, 781, 2245, 6336, 18061, 51205, 145601,
    ];
    for (n, &tilings) in known.iter().enumerate().skip(1) {
        let n = n as u32;
        let cells = 4 * n;
        let at = |r: u32, col: u32| r * n + col;
        let mut neighbors = vec![Vec::new(); cells as usize];
        let mut options = Vec::new();
        for r in 0..4 {
            for col in 0..n {
                for (r2, c2) in [(r + 1, col), (r, col + 1)] {
                    if r2 < 4 && c2 < n {
                        let (a, b) = (at(r, col), at(r2, c2));
                        neighbors[a as usize].push(b);
                        neighbors[b as usize].push(a);
                        options.push(vec![0, 1 + a.min(b), 1 + a.max(b)]);
                    }
                }
            }
        }
        for v in &mut neighbors {
            v.sort_unstable();
        }
        let band = profile::band_width(&neighbors, &profile::band_order(&neighbors));
        assert!(band <= 5, "4x{n}: band {band}");
        let mut items = vec![Item::exact("domino", cells / 2)];
        items.extend((0..cells).map(|c| Item::exact(format!("c{c}"), 1)));
        let model = ExactCover {
            items,
            options,
            forced: Vec::new(),
            geometry: Some(crate::model::CellGeometry {
                first_cell: 1,
                neighbors,
                positions: Vec::new(),
                piece_sizes: vec![2],
                connected: true,
            }),
        };
        assert_eq!(super::band(&model), Some(band));
        let c = memo(&model, Branching::Profile, DEFAULT_CACHE_BYTES)
            .count_query(&Query::default())
            .unwrap();
        assert_eq!(c.solutions, tilings, "4x{n}");
        assert!(c.nodes <= 40 * u64::from(n), "4x{n}: {} nodes", c.nodes);
        // Given the cells' positions, an order along the axes fills the board column by
        // column: band 4, where the breadth-first order's diagonals are one wider.
        let mut model = model;
        let g = model.geometry.as_mut().unwrap();
        g.positions = (0..cells as i32)
            .map(|i| [i / n as i32, i % n as i32, 0])
            .collect();
        model.validate().unwrap();
        let along = super::band(&model).unwrap();
        assert!(
            along <= band && along <= 4,
            "4x{n}: band {along} against {band}"
        );
        let c = memo(&model, Branching::Profile, DEFAULT_CACHE_BYTES)
            .count_query(&Query::default())
            .unwrap();
        assert_eq!(c.solutions, tilings, "4x{n} along the axes");
    }
}

/// The shards of a memoized count add up to the whole count, on random models (with
/// excluded options) and on Soma, for shard counts that do and do not divide the cut; a
/// shard is the same work every time (its nodes repeat).
#[test]
fn shards_add_up_to_the_whole_count() {
    let cases: Vec<(String, ExactCover, Query)> = (1..25u64)
        .map(|seed| {
            let model = random_model(seed, 8 + (seed % 7) as usize, 16 + 2 * seed as usize);
            let q = Query {
                excluded: vec![(seed % 3) as u32],
                ..Query::default()
            };
            (format!("seed {seed}"), model, q)
        })
        .chain(std::iter::once((
            "soma".to_string(),
            fixtures::model("soma"),
            Query::default(),
        )))
        .collect();
    for ((name, model, q), rule) in cases
        .into_iter()
        .flat_map(|c| [Branching::Mrv, Branching::Profile].map(|r| (c.clone(), r)))
    {
        let e = memo(&model, rule, DEFAULT_CACHE_BYTES);
        let whole = e.count_query(&q).unwrap().solutions;
        let name = format!("{name} {rule:?}");
        for n in [1u32, 2, 3, 7] {
            let mut sum = 0;
            for k in 0..n {
                let q = Query {
                    shard: Some(Shard::new(k, n).unwrap()),
                    ..q.clone()
                };
                let c = e.count_query(&q).unwrap();
                assert_eq!(e.count_query(&q).unwrap(), c, "{name} {k}/{n}");
                sum += c.solutions;
            }
            assert_eq!(sum, whole, "{name}, {n} shards");
        }
    }
}

#[test]
fn refusals_are_typed() {
    let model = fixtures::model("soma");
    let e = MemoEngine::new(&model).unwrap();
    let unsupported = |r: Result<Counted>| matches!(r, Err(Error::Unsupported { .. }));
    // No declared weight; listing.
    assert!(unsupported(Engine::count(&e, &Query::default(), &|_| 1)));
    let e = e
        .with(MemoConfig {
            solution_weight: Some(1),
            ..MemoConfig::default()
        })
        .unwrap();
    assert!(matches!(
        Engine::enumerate(&e, &Query::default(), &mut |_| ControlFlow::Continue(())),
        Err(Error::Unsupported { .. })
    ));
    let far = Query {
        forced: vec![u32::MAX],
        ..Query::default()
    };
    assert!(matches!(
        e.count_query(&far),
        Err(Error::OptionOutOfRange { .. })
    ));
    let huge = MemoConfig {
        max_cache_bytes: MAX_CACHE_BYTES + 1,
        ..MemoConfig::default()
    };
    assert!(matches!(
        MemoEngine::with_config(&model, huge),
        Err(Error::TooLarge { .. })
    ));
    // An option of secondary and multiplicity items only.
    let m = ExactCover {
        items: vec![
            Item::exact("A", 2),
            Item::secondary("s0"),
            Item::secondary("s1"),
        ],
        options: vec![vec![0, 1], vec![0, 2]],
        ..ExactCover::default()
    };
    assert!(matches!(
        MemoEngine::new(&m),
        Err(Error::Unsupported { .. })
    ));
}

#[test]
fn progress_counts_nodes_and_an_interrupt_stops_the_count() {
    let model = fixtures::model("soma");
    for rule in RULES {
        let e = memo(&model, rule, DEFAULT_CACHE_BYTES);
        let p = Arc::new(Progress::new());
        let q = Query {
            progress: Some(Arc::clone(&p)),
            ..Query::default()
        };
        let c = e.count_query(&q).unwrap();
        assert!(!c.interrupted);
        assert_eq!(p.nodes(), c.nodes);
        assert_eq!(p.solutions(), c.solutions);
        assert!(
            (p.fraction_done() - 1.0).abs() < 1e-6,
            "{}",
            p.fraction_done()
        );
        assert!(
            p.accelerates(),
            "a memoized count's time left follows its rising pace"
        );
        let p = Arc::new(Progress::new());
        p.interrupt();
        let q = Query {
            progress: Some(p),
            ..Query::default()
        };
        let c = e.count_query(&q).unwrap();
        assert!(c.interrupted && c.nodes <= FLUSH_NODES && c.solutions < 11_520);
    }
}
