//! Tests of the SAT side on small hand-made exact-cover models: the encoder and the SAT engine
//! against the dancing-links oracle (needs ≥ 2, ranged and secondary items, forced options), the implied piece
//! at-most-one, the uniqueness helper, cubes, and the DIMACS round trip.

use cubesat::interop::dimacs::{self, Annotations, Projection};
use cubesat::rng::SeededRng;
use cubesat_xc::encoding::{
    AtMostOne, CnfConfig, CnfEncoder, ForcedMode, cnf::implied_piece_items,
};
use cubesat_xc::sat::{Conquer, ConquerStats, Ended, SatConfig, SatEngine, conquer_cubes};
use cubesat_xc::{CellGeometry, ExactCover, Item, Subproblem};
use std::ops::ControlFlow;
use varisat::dimacs::DimacsParser;
use varisat::{ExtendFormula, Lit, Solver};

/// A random model: 3 to 5 items (secondary, exact of one or two coverings, ranged `0..2` or
/// `1..3`; the first exact), 6 to 13 options, sometimes a forced option.
fn random_model(rng: &mut SeededRng) -> ExactCover {
    let n_items = 3 + rng.below(3) as u32;
    let mut items: Vec<Item> = (0..n_items)
        .map(|i| {
            let name = format!("i{i}");
            match rng.below(5) {
                0 => Item::secondary(name),
                3 => Item::range(name, 0, 2),
                4 => Item::range(name, 1, 3),
                k => Item::exact(name, k as u32),
            }
        })
        .collect();
    items[0] = Item::exact("i0", 1 + rng.below(2) as u32);
    let n_opts = 6 + rng.below(8) as usize;
    let mut options = Vec::new();
    for _ in 0..n_opts {
        let mut o: Vec<u32> = (0..n_items).filter(|_| rng.below(3) == 0).collect();
        if !o.iter().any(|&i| items[i as usize].is_exact()) {
            o.push(0);
            o.sort_unstable();
            o.dedup();
        }
        options.push(o);
    }
    let forced = if rng.below(4) == 0 {
        vec![rng.below(n_opts as u64) as u32]
    } else {
        vec![]
    };
    ExactCover {
        items,
        options,
        forced,
        geometry: None,
    }
}

/// Every solution of `m`, sorted, by the dancing-links oracle (itself checked against brute
/// force on random models in the exact engine's tests).
fn oracle(m: &ExactCover) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    cubesat_xc::dlx::Dlx::new(m)
        .expect("a valid model")
        .enumerate(|s| {
            out.push(s.to_vec());
            true
        })
        .unwrap();
    out.sort();
    out
}

fn sat_all(m: &ExactCover, config: SatConfig) -> Vec<Vec<u32>> {
    let mut e = SatEngine::new(m, config).unwrap();
    let mut all = e.solutions(&Subproblem::default(), None).unwrap();
    all.sort();
    all
}

#[test]
fn enumeration_equals_the_oracle_on_random_models() {
    let mut rng = SeededRng::new(0x9e37_79b9_7f4a_7c15);
    let mut nonempty = 0;
    for _ in 0..150 {
        let m = random_model(&mut rng);
        m.validate().unwrap();
        let expected = oracle(&m);
        nonempty += usize::from(!expected.is_empty());
        for amo in AtMostOne::ALL {
            let got = sat_all(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: false,
                },
            );
            assert_eq!(got, expected, "{amo} on {m:?}");
        }
    }
    assert!(
        nonempty > 20,
        "too few satisfiable random models ({nonempty})"
    );
}

/// Residual models keep exactly the solutions that extend their cube: on random models (needs
/// 0..=2, secondary items, forced options), the lifted solutions of the residual after choosing
/// and excluding random options are the oracle's solutions that contain the chosen options
/// and avoid the excluded ones.
#[test]
fn residual_models_hold_exactly_the_cube_solutions() {
    let mut rng = SeededRng::new(0x5eed_c0be);
    let mut checked = 0;
    for _ in 0..300 {
        let m = random_model(&mut rng);
        let all = oracle(&m);
        let n = m.option_count() as u64;
        let chosen: Vec<u32> = (0..rng.below(3)).map(|_| rng.below(n) as u32).collect();
        let excluded: Vec<u32> = (0..rng.below(3)).map(|_| rng.below(n) as u32).collect();
        let expected: Vec<Vec<u32>> = all
            .iter()
            .filter(|s| chosen.iter().all(|o| s.contains(o)))
            .filter(|s| excluded.iter().all(|o| !s.contains(o)))
            .cloned()
            .collect();
        match m.residual(&chosen, &excluded) {
            None => assert!(expected.is_empty(), "{m:?} {chosen:?} {excluded:?}"),
            Some(r) => {
                r.model.validate().unwrap();
                let mut lifted: Vec<Vec<u32>> =
                    oracle(&r.model).iter().map(|s| r.lift(s)).collect();
                lifted.sort();
                assert_eq!(lifted, expected, "{m:?} {chosen:?} {excluded:?}");
                checked += usize::from(!expected.is_empty());
            }
        }
    }
    assert!(checked > 20, "too few cubes with solutions ({checked})");
}

/// Subproblem and conquer on random models: any partition into cubes gives every solution once,
/// every solution inside its cube, cubes reported in order, the same list on one thread and
/// on three, and the same solutions of every cube with the lookahead on or off (the options
/// it drops change the residual CNF, so varisat may list them in another order), under every
/// at-most-one encoding.
#[test]
fn conquered_cubes_give_every_solution_once_in_cube_order() {
    let mut rng = SeededRng::new(0xc0de_cafe);
    for _ in 0..60 {
        let m = random_model(&mut rng);
        let expected = oracle(&m);
        // Partition on option 0: chosen, or excluded and then split on option 1.
        let cubes = vec![
            Subproblem {
                chosen: vec![0],
                excluded: vec![],
                ..Subproblem::default()
            },
            Subproblem {
                chosen: vec![1],
                excluded: vec![0],
                ..Subproblem::default()
            },
            Subproblem {
                chosen: vec![],
                excluded: vec![0, 1],
                ..Subproblem::default()
            },
        ];
        for amo in AtMostOne::ALL {
            let config = SatConfig {
                amo,
                drop_implied_piece_amo: false,
            };
            let run = |threads: usize, lookahead: bool| {
                let mut got: Vec<(usize, Vec<u32>)> = Vec::new();
                let mut seen = Vec::new();
                let (outcome, st) = conquer_cubes(
                    &m,
                    &cubes,
                    &Conquer {
                        config,
                        threads,
                        lookahead,
                        ..Conquer::default()
                    },
                    || false,
                    |i, sols| {
                        seen.push(i);
                        got.extend(sols.iter().map(|s| (i, s.clone())));
                        ControlFlow::Continue(())
                    },
                )
                .unwrap();
                assert_eq!(outcome, Ended::Exhausted);
                assert_eq!(seen, vec![0, 1, 2], "every cube once, in order");
                assert_eq!(st.solutions as usize, got.len());
                got
            };
            let one = run(1, false);
            assert_eq!(
                run(3, false),
                one,
                "{amo}: the thread count changed the output"
            );
            let sorted = |mut v: Vec<(usize, Vec<u32>)>| {
                v.sort();
                v
            };
            let ahead = run(1, true);
            assert_eq!(
                sorted(ahead.clone()),
                sorted(one.clone()),
                "{amo}: the lookahead changed the solutions"
            );
            assert_eq!(
                run(3, true),
                ahead,
                "{amo}: the lookahead on threads changed the output"
            );
            for (i, s) in &one {
                assert!(cubes[*i].chosen.iter().all(|o| s.contains(o)));
                assert!(cubes[*i].excluded.iter().all(|o| !s.contains(o)));
                m.check_solution(s).unwrap();
            }
            let mut all: Vec<Vec<u32>> = one.into_iter().map(|(_, s)| s).collect();
            all.sort();
            assert_eq!(all, expected, "{amo} on {m:?}");
        }
    }
}

/// Every solution [`conquer_cubes`] finds in `cubes` of `m`, sorted, with the run's
/// statistics (the run must end by exhausting the cubes).
pub(crate) fn conquered(
    m: &ExactCover,
    cubes: &[Subproblem],
    how: &Conquer,
) -> (Vec<Vec<u32>>, ConquerStats) {
    let mut got = Vec::new();
    let (ended, st) = conquer_cubes(
        m,
        cubes,
        how,
        || false,
        |_, sols| {
            got.extend_from_slice(sols);
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert_eq!(ended, Ended::Exhausted, "{st:?}");
    got.sort();
    (got, st)
}

/// A run-wide exclusion applies to every cube, and a callback that stops is obeyed.
#[test]
fn conquered_cubes_honour_exclusions_and_stop() {
    let m = strip();
    // The plain enumeration, checked against the oracle on this model by another test.
    let all = sat_all(&m, SatConfig::default());
    let avoid = all[0][0];
    let cubes = vec![Subproblem::default()];
    let (got, _) = conquered(
        &m,
        &cubes,
        &Conquer {
            excluded: vec![avoid],
            ..Conquer::default()
        },
    );
    let want: Vec<Vec<u32>> = all
        .iter()
        .filter(|s| !s.contains(&avoid))
        .cloned()
        .collect();
    assert_eq!(got, want);
    let two = vec![Subproblem::default(), Subproblem::default()];
    let mut calls = 0;
    let (outcome, _) = conquer_cubes(
        &m,
        &two,
        &Conquer::default(),
        || false,
        |_, _| {
            calls += 1;
            ControlFlow::Break(())
        },
    )
    .unwrap();
    assert_eq!((outcome, calls), (Ended::Stopped, 1));
    // On worker threads too: nothing is delivered after the callback stops.
    let many = vec![Subproblem::default(); 40];
    let mut calls = 0;
    let (outcome, _) = conquer_cubes(
        &m,
        &many,
        &Conquer {
            threads: 3,
            ..Conquer::default()
        },
        || false,
        |i, _| {
            calls += 1;
            if i == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )
    .unwrap();
    assert_eq!((outcome, calls), (Ended::Stopped, 5));
    let (outcome, st) = conquer_cubes(
        &m,
        &two,
        &Conquer::default(),
        || true,
        |_, _| ControlFlow::Continue(()),
    )
    .unwrap();
    assert_eq!((outcome, st.cubes_solved), (Ended::Stopped, 0));
}

/// Face neighbours on a 1xN strip.
fn strip_neighbors(cells: u32) -> Vec<Vec<u32>> {
    (0..cells)
        .map(|c| {
            [c.wrapping_sub(1), c + 1]
                .into_iter()
                .filter(|&d| d < cells)
                .collect()
        })
        .collect()
}

/// Pieces `(name, need, size)` as straight rods on a 1xN strip; the last `optional` cells are
/// secondary items.
fn strip_model(cells: u32, optional: u32, pieces: &[(&str, u32, u32)]) -> ExactCover {
    let first_cell = pieces.len() as u32;
    let mut items: Vec<Item> = pieces
        .iter()
        .map(|&(n, need, _)| Item::exact(n, need))
        .collect();
    for c in 0..cells {
        items.push(if c + optional < cells {
            Item::exact(format!("c{c}"), 1)
        } else {
            Item::secondary(format!("c{c}"))
        });
    }
    let mut options = Vec::new();
    for (p, &(_, _, size)) in pieces.iter().enumerate() {
        for start in 0..=cells - size {
            let mut o = vec![p as u32];
            o.extend((start..start + size).map(|c| first_cell + c));
            options.push(o);
        }
    }
    ExactCover {
        items,
        options,
        forced: vec![],
        geometry: Some(CellGeometry {
            first_cell,
            neighbors: strip_neighbors(cells),
            positions: Vec::new(),
            piece_sizes: pieces.iter().map(|p| p.2).collect(),
            connected: false,
        }),
    }
}

/// Two copies of a domino D (need 2), a domino E and a monomino M on a 1x8 strip whose last
/// cell is optional: needs ≥ 2, secondary items, geometry.
fn strip() -> ExactCover {
    strip_model(8, 1, &[("D", 2, 2), ("E", 1, 2), ("M", 1, 1)])
}

/// Monomino, domino and tromino (each once) on a 1x6 strip: piece volumes equal the must cells.
fn strip_exact() -> ExactCover {
    strip_model(6, 0, &[("p1", 1, 1), ("p2", 1, 2), ("p3", 1, 3)])
}

#[test]
fn need_two_and_secondary_items() {
    let m = strip();
    m.validate().unwrap();
    let expected = oracle(&m);
    assert!(!expected.is_empty());
    for amo in AtMostOne::ALL {
        assert_eq!(
            sat_all(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: true
                }
            ),
            expected
        );
    }
}

#[test]
fn implied_piece_amo_is_dropped_only_when_implied() {
    let m = strip_exact();
    assert_eq!(implied_piece_items(&m), Some(vec![0, 1, 2]));
    assert_eq!(implied_piece_items(&strip()), None); // need 2 and an optional cell
    let expected = oracle(&m);
    assert_eq!(expected.len(), 6); // 3! orders of the three pieces
    for amo in AtMostOne::ALL {
        let mut enc = CnfEncoder::new(CnfConfig {
            amo,
            ..Default::default()
        });
        let full = enc.encode(&m, &mut varisat::CnfFormula::new()).unwrap();
        enc.config.drop_implied_piece_amo = true;
        let dropped = enc.encode(&m, &mut varisat::CnfFormula::new()).unwrap();
        assert!(dropped.piece_amo_dropped && !full.piece_amo_dropped);
        assert!(dropped.clauses < full.clauses, "{amo}");
        assert_eq!(
            sat_all(
                &m,
                SatConfig {
                    amo,
                    drop_implied_piece_amo: true
                }
            ),
            expected
        );
    }
    // Volumes not equal to the must cells: nothing is dropped.
    let m2 = strip_model(
        7,
        1,
        &[("p1", 1, 1), ("p2", 1, 2), ("p3", 1, 3), ("q", 1, 1)],
    );
    assert_eq!(implied_piece_items(&m2), None); // volume 7 > 6 must cells
    let m3 = strip_model(7, 0, &[("p1", 1, 1), ("p2", 1, 2), ("p3", 1, 3)]);
    assert_eq!(implied_piece_items(&m3), None); // volume 6 < 7 cells
}

#[test]
fn forced_options_units_or_assumptions() {
    let mut m = strip_exact();
    m.forced = vec![0]; // monomino on cell 0
    let expected = oracle(&m);
    assert_eq!(expected.len(), 2);
    assert_eq!(sat_all(&m, SatConfig::default()), expected);
    let mut f = varisat::CnfFormula::new();
    let units = CnfEncoder::new(CnfConfig::default())
        .encode(&m, &mut f)
        .unwrap();
    let mut g = varisat::CnfFormula::new();
    let cfg = CnfConfig {
        forced: ForcedMode::Assumptions,
        ..Default::default()
    };
    let assumed = CnfEncoder::new(cfg).encode(&m, &mut g).unwrap();
    assert_eq!(units.clauses, assumed.clauses + 1);
}

#[test]
fn encoder_needs_an_empty_formula() {
    let mut s = Solver::new();
    s.new_var();
    assert!(CnfEncoder::default().encode(&strip(), &mut s).is_err());
}

#[test]
fn uniqueness_helper_and_reuse() {
    let m = strip();
    let all = oracle(&m);
    assert!(all.len() > 6);
    let mut e = SatEngine::new(&m, SatConfig::default()).unwrap();
    let first = e.solve_first(&Subproblem::default()).unwrap().unwrap();
    // Another solution exists without hints…
    let other = e.other_solution(&first, &[]).unwrap().unwrap();
    assert_ne!(other, first);
    // …but not once every option of `first` is forced.
    assert_eq!(e.other_solution(&first, &first).unwrap(), None);
    // The retired clauses do not constrain later queries.
    assert_eq!(
        e.solutions(&Subproblem::default(), None).unwrap().len(),
        all.len()
    );
    assert_eq!(
        e.solutions(&Subproblem::default(), None).unwrap().len(),
        all.len()
    );
    // Limit and stop.
    let mut seen = 0;
    let out = e
        .enumerate(&Subproblem::default(), None, |_| {
            seen += 1;
            if seen == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
    assert_eq!((out, seen), (Ended::Stopped, 2));
    let mut n = 0;
    let out = e
        .enumerate(&Subproblem::default(), Some(4), |_| {
            n += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!((out, n), (Ended::Limit, 4));
    assert!(
        e.solutions(
            &Subproblem {
                chosen: vec![999],
                ..Subproblem::default()
            },
            None
        )
        .is_err()
    );
    assert!(e.stats().solve_calls > 10);
}

#[test]
fn cubes_partition_the_solutions() {
    let m = strip();
    let all = oracle(&m);
    // Split on the options of the monomino M (item 2): each cube chooses one, a last cube
    // excludes them all.
    let by_item = m.options_by_item();
    let ms = &by_item[2];
    let mut cubes: Vec<Subproblem> = ms
        .iter()
        .map(|&o| Subproblem {
            chosen: vec![o],
            excluded: vec![],
            ..Subproblem::default()
        })
        .collect();
    cubes.push(Subproblem {
        chosen: vec![],
        excluded: ms.clone(),
        ..Subproblem::default()
    });
    for amo in AtMostOne::ALL {
        let mut e = SatEngine::new(
            &m,
            SatConfig {
                amo,
                drop_implied_piece_amo: false,
            },
        )
        .unwrap();
        let per_cube = e.solve_cubes(&cubes).unwrap();
        assert_eq!(per_cube.len(), cubes.len());
        for (c, sols) in cubes.iter().zip(&per_cube) {
            for s in sols {
                assert!(c.chosen.iter().all(|o| s.contains(o)));
                assert!(c.excluded.iter().all(|o| !s.contains(o)));
            }
        }
        let mut union: Vec<Vec<u32>> = per_cube.into_iter().flatten().collect();
        union.sort();
        assert_eq!(union, all, "{amo}");
    }
}

/// Counts models projected on the first `n` variables by blocking.
fn projected_count(f: &varisat::CnfFormula, n: usize) -> usize {
    let mut s = Solver::new();
    s.add_formula(f);
    let mut count = 0;
    while s.solve().unwrap() {
        let model = s.model().unwrap();
        let block: Vec<Lit> = model
            .iter()
            .filter(|l| l.index() < n)
            .map(|&l| !l)
            .collect();
        count += 1;
        if block.is_empty() {
            break;
        }
        s.add_clause(&block);
    }
    count
}

#[test]
fn dimacs_round_trip() {
    let mut rng = SeededRng::new(12345);
    let mut models = vec![strip(), strip_exact()];
    models.extend((0..30).map(|_| random_model(&mut rng)));
    for m in &models {
        let expected = oracle(m).len();
        for amo in AtMostOne::ALL {
            let config = CnfConfig {
                amo,
                ..Default::default()
            };
            let labels: Vec<String> = (0..m.option_count()).map(|o| format!("opt={o}")).collect();
            let header = vec!["puzzle test".to_string(), "mode all".to_string()];
            let mut out = Vec::new();
            let text = Annotations {
                header: &header,
                labels: &labels,
                projection: Projection::default(),
            };
            let stats = dimacs::write(&mut out, |_| {}, m, config, text, &[]).unwrap();
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], "c t pmc");
            let p = lines.iter().position(|l| l.starts_with("p cnf")).unwrap();
            assert!(lines[..p].iter().all(|l| l.starts_with('c')));
            assert!(lines[p + 1..].iter().all(|l| !l.starts_with('c')));
            assert!(lines.contains(&"c cubesat var 1 opt=0"));
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("c p show 1 ") && l.ends_with(" 0"))
            );
            // d4 refuses a file with any `c ind` line: the default writes `c p show` only.
            assert!(!lines.iter().any(|l| l.starts_with("c ind")));

            let parsed = DimacsParser::parse(text.as_bytes()).unwrap();
            let (f, _) = dimacs::formula(m, config, &[]).unwrap();
            assert_eq!(parsed.var_count(), stats.variables);
            assert_eq!(parsed.len(), stats.clauses);
            let clauses = |f: &varisat::CnfFormula| {
                let mut v: Vec<Vec<Lit>> = f.iter().map(|c| c.to_vec()).collect();
                v.sort();
                v
            };
            assert_eq!(clauses(&parsed), clauses(&f));
            assert_eq!(
                projected_count(&parsed, m.option_count()),
                expected,
                "{amo} {m:?}"
            );
        }
    }
}

#[test]
fn dimacs_rejects_reserved_header_lines_and_bad_labels() {
    let m = strip();
    let labels: Vec<String> = (0..m.option_count()).map(|o| o.to_string()).collect();
    let mut out = Vec::new();
    for bad in [
        "t mc",
        "p show 1 0",
        "ind 1 0",
        "cubesat var 1 x",
        "two\nlines",
    ] {
        let r = dimacs::write(
            &mut out,
            |_| {},
            &m,
            CnfConfig::default(),
            Annotations {
                header: &[bad.to_string()],
                labels: &labels,
                projection: Projection::Show,
            },
            &[],
        );
        assert!(r.is_err(), "{bad:?}");
    }
    assert!(
        dimacs::write(
            &mut out,
            |_| {},
            &m,
            CnfConfig::default(),
            Annotations {
                header: &[],
                labels: &labels[1..],
                projection: Projection::Show,
            },
            &[]
        )
        .is_err()
    );
}

#[test]
fn at_most_one_parses_as_a_clap_argument() {
    use clap::Parser;
    #[derive(Parser)]
    struct Args {
        #[arg(long, default_value_t = AtMostOne::default())]
        amo: AtMostOne,
    }
    let a = Args::try_parse_from(["x", "--amo", "commander"]).unwrap();
    assert_eq!(a.amo, AtMostOne::Commander);
    assert_eq!(
        Args::try_parse_from(["x"]).unwrap().amo,
        AtMostOne::Pairwise
    );
    let e = Args::try_parse_from(["x", "--amo", "ladder"])
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("pairwise, sequential"), "{e}");
}

#[test]
fn dimacs_golden_file() {
    // Piece A on cell 0 or cell 1 (cell 1 optional); option 1 forced.
    let m = ExactCover {
        items: vec![
            Item::exact("A", 1),
            Item::secondary("c0"),
            Item::secondary("c1"),
        ],
        options: vec![vec![0, 1], vec![0, 2]],
        forced: vec![1],
        geometry: None,
    };
    let labels = vec!["piece=A at=0".to_string(), "piece=A at=1".to_string()];
    let header = vec!["cubesat puzzle=tiny".to_string(), "mode=all".to_string()];
    let golden = |projection| {
        let mut out = Vec::new();
        let text = Annotations {
            header: &header,
            labels: &labels,
            projection,
        };
        dimacs::write(&mut out, |_| {}, &m, CnfConfig::default(), text, &[]).unwrap();
        String::from_utf8(out).unwrap()
    };
    let expected = "\
c t pmc
c cubesat puzzle=tiny
c mode=all
c cubesat encoding amo=pairwise forced=units piece-amo=kept
c cubesat counts options=2 variables=2 clauses=3
c cubesat var 1 piece=A at=0
c cubesat var 2 piece=A at=1
c p show 1 2 0
p cnf 2 3
1 2 0
-1 -2 0
2 0
";
    assert_eq!(golden(Projection::Show), expected);
    assert_eq!(
        golden(Projection::Ind),
        expected.replace("c p show 1 2 0", "c ind 1 2 0")
    );
    assert_eq!(
        golden(Projection::Both),
        expected.replace("c p show 1 2 0", "c p show 1 2 0\nc ind 1 2 0")
    );
    assert_eq!(
        golden(Projection::None),
        expected.replace("c p show 1 2 0\n", "")
    );
}
