//! The exact engine's leaf search (the compact search that takes over subtrees with at most
//! 512 live options and 112 free cells) against the engine without it and
//! against dancing links: the same solutions on bundled puzzles, random polycube models with
//! copies, and models of more than 64 cells (renumbered boards of one or two words); the same
//! order and nodes for every thread count and shard split and every compiled body
//! (`CUBESAT_SIMD`, also on CPUs without AVX-512 under QEMU); node budgets and interrupts
//! still heard inside it.

use cubesat::counting::{Reducer, UpTo};
use cubesat::run::{EngineChoice, Instance, RunOptions, count};
use cubesat_xc::dlx::Dlx;
use cubesat_xc::exact::ExactEngine;
use cubesat_xc::{ExactCover, Progress, Shard};
use std::sync::Arc;

fn model_of(text: &str) -> ExactCover {
    let puzzle = cubesat::puzzle::json::parse_puzzle(text, "test").unwrap();
    Arc::unwrap_or_clone(Instance::new(puzzle).unwrap().model)
}

fn bundled_model(name: &str) -> ExactCover {
    Arc::unwrap_or_clone(
        Instance::new(cubesat::puzzle::bundled(name).unwrap())
            .unwrap()
            .model,
    )
}

/// Every solution in engine order, and the nodes.
fn listing(e: &ExactEngine, threads: usize, leaf: bool, excluded: &[u32]) -> (Vec<Vec<u32>>, u64) {
    let mut v = Vec::new();
    let st = e
        .query()
        .threads(threads)
        .leaf_search(leaf)
        .exclude(excluded)
        .enumerate(|s| {
            v.push(s.to_vec());
            true
        })
        .unwrap();
    assert_eq!(st.solutions as usize, v.len());
    (v, st.nodes)
}

fn sorted(mut v: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    v.sort();
    v
}

/// The leaf search finds what the engine without it finds, each solution valid, in an order
/// and with nodes that do not depend on the thread count.
fn check(m: &ExactCover, excluded: &[u32], what: &str) -> usize {
    let e = ExactEngine::new(m).unwrap();
    assert!(e.has_leaf_search(), "{what}: the leaf search should apply");
    let (with, nodes) = listing(&e, 1, true, excluded);
    let (without, _) = listing(&e, 1, false, excluded);
    for s in &with {
        m.check_solution(s).unwrap();
    }
    let want = sorted(without);
    assert_eq!(sorted(with.clone()), want, "{what}");
    for threads in [2, 3] {
        assert_eq!(
            listing(&e, threads, true, excluded),
            (with.clone(), nodes),
            "{what}, {threads} threads"
        );
    }
    let c = e.query().exclude(excluded).threads(2).count().unwrap();
    assert_eq!((c.solutions, c.nodes), (with.len() as u64, nodes), "{what}");
    with.len()
}

#[test]
fn bundled_puzzles_with_and_without_the_leaf_search() {
    for (name, n) in [
        ("soma", 11_520),
        ("pentominoes-3x20", 8),
        ("tetracubes-2x4x4", 11_120),
        ("tetracubes-two-2x2x4", 1_280),
        ("wooden-cube", 384),
    ] {
        assert_eq!(check(&bundled_model(name), &[], name), n, "{name}");
    }
    // The Tetris Cube's first subtree of 64, its path forced: big enough that leaf searches
    // start several levels down.
    let inst = Instance::new(cubesat::puzzle::bundled("tetris-cube").unwrap()).unwrap();
    let r = Reducer::new(&inst.puzzle, &inst.table, UpTo::Rotation, true).unwrap();
    let e = ExactEngine::new(&inst.model).unwrap();
    let sub = e.query().exclude(r.excluded()).subproblems(64).unwrap();
    let mut m = (*inst.model).clone();
    m.forced = sub[5].chosen.clone();
    m.forced.sort_unstable();
    let mut ex = r.excluded().to_vec();
    ex.extend(&sub[5].excluded);
    assert!(check(&m, &ex, "tetris subtree") > 0);
}

/// A tiny deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Random boxes filled by random polyominoes and polycubes, several with copies (pieces of
/// need > 1, which the leaf search only checks and never branches on): the same solutions as
/// dancing links, with and without the leaf search.
#[test]
fn random_polycube_models_with_copies() {
    let shapes: &[&str] = &[
        "[[0,0,0],[1,0,0]]",
        "[[0,0,0],[1,0,0],[2,0,0]]",
        "[[0,0,0],[1,0,0],[0,1,0]]",
        "[[0,0,0],[1,0,0],[2,0,0],[2,1,0]]",
        "[[0,0,0],[1,0,0],[1,1,0],[2,0,0]]",
        "[[0,0,0],[0,1,0],[1,0,0],[1,0,1]]",
        "[[0,0,0],[1,0,0],[1,1,0],[2,1,0]]",
    ];
    let size = |s: &str| s.matches('[').count() as u32 - 1;
    let mut rng = Rng(0x5eed);
    let mut solved = 0;
    for round in 0..80 {
        let (x, y, z) = (2 + rng.below(4), 2 + rng.below(2), 1 + rng.below(2));
        let volume = (x * y * z) as u32;
        let mut pieces = Vec::new();
        let mut total = 0;
        for i in 0..8 {
            let s = shapes[rng.below(shapes.len() as u64) as usize];
            let count = 1 + rng.below(3) as u32;
            if total + size(s) * count <= volume {
                total += size(s) * count;
                pieces.push(format!(r#"{{"name":"p{i}","count":{count},"cells":{s}}}"#));
            }
        }
        if total < volume {
            pieces.push(format!(
                r#"{{"name":"m","count":{},"cells":[[0,0,0]]}}"#,
                volume - total
            ));
        }
        let text = format!(
            r#"{{"target":{{"box":[{x},{y},{z}]}},"pieces":[{}]}}"#,
            pieces.join(",")
        );
        let m = model_of(&text);
        let e = ExactEngine::new(&m).unwrap();
        let want = sorted({
            let mut v = Vec::new();
            Dlx::new(&m)
                .unwrap()
                .enumerate(|s| {
                    v.push(s.to_vec());
                    true
                })
                .unwrap();
            v
        });
        let (with, _) = listing(&e, 1, true, &[]);
        assert_eq!(sorted(with.clone()), want, "round {round}: {text}");
        assert_eq!(listing(&e, 2, true, &[]).0, with, "round {round}");
        solved += usize::from(!want.is_empty());
    }
    assert!(solved > 20, "too few solvable models ({solved})");
}

/// A 3x23 box of 23 identical straight trominoes: 69 cells, so leaf boards are renumbered
/// (two words at the root, one from 64 free cells on), and one piece item needs 23 copies. Its tilings follow
/// a(n) = a(n-1) + a(n-3): 1, 1, 1, 2, 3, 4, 6, ..., a(23) = 4,023.
#[test]
fn a_model_of_more_than_64_cells_with_one_piece_of_23_copies() {
    let text = r#"{"target":{"box":[23,3,1]},"pieces":[{"name":"I","count":23,"cells":[[0,0,0],[1,0,0],[2,0,0]]}]}"#;
    let m = model_of(text);
    assert!(m.items.len() > 64);
    let mut a = vec![1u64, 1, 1];
    for n in 3..=23 {
        a.push(a[n - 1] + a[n - 3]);
    }
    assert_eq!(a[23], 4_023);
    assert_eq!(check(&m, &[], "3x23 trominoes") as u64, a[23]);
    // The run the CLI makes: every tiling counted once, copies never told apart.
    let inst = Instance::new(cubesat::puzzle::json::parse_puzzle(text, "t").unwrap()).unwrap();
    let opts = RunOptions {
        engine: EngineChoice::Exact,
        up_to: UpTo::None,
        ..RunOptions::default()
    };
    assert_eq!(count(&inst, &opts).unwrap().count, a[23]);
}

/// Conway's puzzle (thirteen 1x2x4 blocks, one 2x2x2, one 1x2x2 and three 1x1x3 in a 5x5x5
/// box): 125 cells, so once a node has at most 512 live options and 112 free cells its board
/// takes two words.
/// The leaf search finds what the engine without it and dancing links find, on a part of
/// the tree (one cell's covering fixed) and, counted up to rotation, on the whole.
#[test]
fn a_model_of_more_than_64_cells_on_boards_of_two_words() {
    let text = r#"{"target": {"box": [5, 5, 5]}, "pieces": [
        {"name": "A", "count": 13, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]]},
        {"name": "B", "cells": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]},
        {"name": "C", "cells": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]},
        {"name": "D", "count": 3, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}]}"#;
    let m = model_of(text);
    assert!(m.items.len() > 128 && m.options.len() > 512);
    // Every option but the first few covering the corner cell's item is excluded there.
    let corner = m.geometry.as_ref().unwrap().first_cell;
    let covering: Vec<u32> = (0..m.options.len() as u32)
        .filter(|&o| m.options[o as usize].contains(&corner))
        .collect();
    let excluded = &covering[1..];
    let n = check(&m, excluded, "Conway, one corner covering");
    let query = cubesat_xc::Query {
        excluded: excluded.to_vec(),
        ..cubesat_xc::Query::default()
    };
    let dlx = cubesat_xc::Engine::count(&Dlx::new(&m).unwrap(), &query, &|_| 1).unwrap();
    assert_eq!(n as u64, dlx.total);
    assert!(n > 0);
    let inst = Instance::new(cubesat::puzzle::json::parse_puzzle(text, "t").unwrap()).unwrap();
    let counts: Vec<u64> = [EngineChoice::Exact, EngineChoice::Dlx]
        .into_iter()
        .map(|engine| {
            let opts = RunOptions {
                engine,
                ..RunOptions::default()
            };
            count(&inst, &opts).unwrap().count
        })
        .collect();
    assert_eq!(counts[0], counts[1]);
}

/// The shards of a count with the leaf search add up to the whole run: solutions and nodes.
#[test]
fn shards_add_up_with_the_leaf_search() {
    let m = bundled_model("tetracubes-2x4x4");
    let e = ExactEngine::new(&m).unwrap();
    let whole = e.query().count().unwrap();
    for n in [2, 5] {
        let (mut sols, mut nodes) = (0, 0);
        for k in 0..n {
            let c = e.query().shard(Shard::new(k, n).unwrap()).count().unwrap();
            sols += c.solutions;
            nodes += c.nodes;
        }
        assert_eq!((sols, nodes), (whole.solutions, whole.nodes), "{n} shards");
    }
}

/// A stop and an interrupt are heard inside leaf searches: a listing that stops at its first
/// solution reports one, and a count interrupted from its tenth solution on stops early.
#[test]
fn stops_and_interrupts_are_heard_inside_the_leaf_search() {
    let m = bundled_model("pentominoes-6x10");
    let e = ExactEngine::new(&m).unwrap();
    let mut seen = 0;
    let st = e
        .query()
        .enumerate(|_| {
            seen += 1;
            false
        })
        .unwrap();
    assert!(st.stopped && st.solutions == 1 && seen == 1, "{st:?}");
    let p = Arc::new(Progress::new());
    let mut n = 0;
    let st = e
        .query()
        .progress(p.clone())
        .enumerate(|_| {
            n += 1;
            if n == 10 {
                p.interrupt();
            }
            true
        })
        .unwrap();
    assert!(st.interrupted && st.solutions < 9_356, "{st:?}");
}

/// `CUBESAT_SIMD` forces a body of the leaf search: every body this CPU runs counts the same
/// solutions with the same nodes, lists them in the same order and names itself in the
/// statistics line, on boards of one word and of two (66 cells of 1x1x3 rods); a body the
/// CPU lacks, and a name that is no body, are refused in one line with exit 2; `--help` names
/// the variable.
#[test]
fn cubesat_simd_forces_a_body_and_every_body_agrees() {
    use cubesat_xc::exact::SimdBody;
    let dir = crate::common::Dir::new();
    dir.write(
        "rods.json",
        r#"{"name": "Rods", "target": {"box": [11, 3, 2]}, "pieces": [{"name": "I", "count": 22, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}]}"#,
    );
    let runs = [
        vec!["solve", "pentominoes-6x10", "--count", "--threads", "1"],
        vec!["solve", "soma", "--count", "--up-to", "none"],
        vec!["solve", "rods.json", "--count", "--threads", "2"],
        vec!["solve", "pentominoes-3x20", "--limit", "5"],
    ];
    for args in &runs {
        let mut seen: Option<(String, String)> = None;
        for body in SimdBody::ALL {
            let r = dir.run_env(args, &[("CUBESAT_SIMD", body.name())]);
            let missing = body.missing();
            if !missing.is_empty() {
                r.code(2).stdout_is("").stderr_has(&format!(
                    "cubesat: error: CUBESAT_SIMD={body} but this CPU lacks {}\n",
                    missing.join(", ")
                ));
                r.check(r.stderr.lines().count() == 1, "one line");
                continue;
            }
            r.code(0).stderr_has(&format!("; leaf search {body};"));
            // The statistics line without its times: the count, nodes and what they mean.
            let stats = r
                .stderr
                .lines()
                .find(|l| l.contains("; engine exact"))
                .unwrap_or_default();
            let nodes = stats.rsplit_once(" s, ").map(|(_, n)| n.to_string());
            r.check(nodes.is_some(), "a node count");
            let got = (r.stdout.clone(), nodes.unwrap_or_default());
            match &seen {
                None => seen = Some(got),
                Some(first) => {
                    r.check(*first == got, "the same output and nodes as the first body");
                }
            }
        }
    }
    for bad in ["avx", "AVX2", "sse"] {
        let r = dir.run_env(&["solve", "soma", "--count"], &[("CUBESAT_SIMD", bad)]);
        r.code(2).stdout_is("").stderr_has(&format!(
            "cubesat: error: CUBESAT_SIMD={bad} is not a body: use portable, popcnt, avx2 or avx512\n"
        ));
        r.check(r.stderr.lines().count() == 1, "one line");
    }
    // Empty is unset: the fastest body this CPU runs.
    dir.run_env(&["solve", "soma", "--count"], &[("CUBESAT_SIMD", "")])
        .code(0)
        .stderr_has(&format!("; leaf search {};", SimdBody::best()));
    dir.run(&["--help"])
        .code(0)
        .stdout_has("CUBESAT_SIMD=portable|popcnt|avx2|avx512");
}

/// On CPUs without AVX-512, emulated by QEMU's user mode (`qemu-x86_64 -cpu MODEL`): the
/// default is the fastest body the model has, every body it has counts as on this machine
/// (same output, same nodes) and names itself, and every body it lacks is refused in one line
/// that names the missing features, with exit 2. QEMU's models: `qemu64` has none of the
/// bodies' features (the portable body), `Nehalem` POPCNT, `Haswell-noTSX` x86-64-v3 (AVX2).
#[cfg(target_arch = "x86_64")]
#[test]
#[ignore = "needs qemu-x86_64 (Debian's qemu-user); CI runs it with --include-ignored"]
fn cpus_without_avx512_take_their_best_body_and_refuse_the_others() {
    use crate::common::Run;
    use cubesat_xc::exact::SimdBody;
    use std::process::{Command, Stdio};
    let dir = crate::common::Dir::new();
    dir.write(
        "rods.json",
        r#"{"name": "Rods", "target": {"box": [11, 3, 2]}, "pieces": [{"name": "I", "count": 22, "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}]}"#,
    );
    let run = |cpu: Option<&str>, args: &[&str], body: Option<SimdBody>| {
        let bin = env!("CARGO_BIN_EXE_cubesat");
        let mut c = match cpu {
            Some(cpu) => {
                let mut c = Command::new("qemu-x86_64");
                c.args(["-cpu", cpu, bin]);
                c
            }
            None => Command::new(bin),
        };
        c.args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .env_remove("CUBESAT_SIMD");
        if let Some(b) = body {
            c.env("CUBESAT_SIMD", b.name());
        }
        let out = c
            .output()
            .expect("qemu-x86_64 runs (install Debian's qemu-user)");
        Run {
            cmd: format!(
                "{}{}cubesat {}",
                body.map_or(String::new(), |b| format!("CUBESAT_SIMD={b} ")),
                cpu.map_or(String::new(), |c| format!("qemu-x86_64 -cpu {c} ")),
                args.join(" ")
            ),
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            // Without QEMU's own warnings (features of a model that it does not emulate).
            stderr: String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| !l.starts_with("qemu-x86_64: warning: "))
                .map(|l| format!("{l}\n"))
                .collect(),
        }
    };
    // The output and the statistics line's node count.
    let outcome = |r: &Run| {
        let stats = r
            .stderr
            .lines()
            .find(|l| l.contains("; engine exact"))
            .unwrap_or_default();
        let nodes = stats.rsplit_once(" s, ").map(|(_, n)| n.to_string());
        r.check(nodes.is_some(), "a statistics line with a node count");
        (r.stdout.clone(), nodes.unwrap_or_default())
    };
    let cpus: [(&str, &[&str]); 3] = [
        ("qemu64", &[]),
        ("Nehalem", &["popcnt"]),
        (
            "Haswell-noTSX",
            &["popcnt", "avx2", "bmi1", "bmi2", "lzcnt"],
        ),
    ];
    let runs = [
        vec!["solve", "soma", "--count", "--threads", "1"],
        vec!["solve", "rods.json", "--count", "--threads", "1"],
    ];
    for args in &runs {
        let host = run(None, args, None);
        host.code(0);
        let want = outcome(&host);
        for (cpu, has) in cpus {
            let lacks = |b: SimdBody| -> Vec<&str> {
                b.features()
                    .iter()
                    .copied()
                    .filter(|f| !has.contains(f))
                    .collect()
            };
            let best = SimdBody::ALL
                .into_iter()
                .rev()
                .find(|&b| lacks(b).is_empty())
                .unwrap_or(SimdBody::Portable);
            let r = run(Some(cpu), args, None);
            r.code(0).stderr_has(&format!("; leaf search {best};"));
            r.check(
                outcome(&r) == want,
                "the same output and nodes as on this CPU",
            );
            for body in SimdBody::ALL {
                let r = run(Some(cpu), args, Some(body));
                let missing = lacks(body);
                if missing.is_empty() {
                    r.code(0).stderr_has(&format!("; leaf search {body};"));
                    r.check(
                        outcome(&r) == want,
                        "the same output and nodes as on this CPU",
                    );
                } else {
                    r.code(2).stdout_is("");
                    r.check(
                        r.stderr
                            == format!(
                                "cubesat: error: CUBESAT_SIMD={body} but this CPU lacks {}\n",
                                missing.join(", ")
                            ),
                        "one line naming the missing features",
                    );
                }
            }
        }
    }
}
