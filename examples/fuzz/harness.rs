//! The mutation fuzzer shared by `examples/fuzz_readers.rs` (millions of inputs, figures) and
//! the CI property test `tests/integration/fuzz.rs` (a few thousand): seeds for every reader,
//! a seeded mutator, and one check per reader that runs it and verifies what it accepts.

#![allow(dead_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use cubesat::counting::UpTo;
use cubesat::interop::{answer, asp, dlx};
use cubesat::puzzle::{self, json::parse_puzzle};
use cubesat::report::{solution_json, summary_json};
use cubesat::run::{self, Instance, RunOptions, RunReport};

/// SplitMix64: small, seeded, the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that readers treat specially: structure, extreme numbers, control characters.
const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "-1",
    "0",
    "1e308",
    "-0",
    "18446744073709551616",
    "4294967297",
    "99999999",
    "null",
    "true",
    "\n",
    "\r\n",
    "\u{0}",
    "\u{1b}[2J",
    "\t",
    "#",
    "+",
    ".",
    "_",
    "layers",
    "cells",
    "count",
    "pieces",
    "target",
    "hints",
    "boxes",
    "optional",
    "name",
    "s SATISFIABLE",
    "s UNSATISFIABLE",
    "s UNKNOWN",
    "v ",
    " 0",
    "-",
    "UNSAT",
    "SAT",
    "INDET",
    "|",
    "%",
    "Answer: 1",
    "place(",
    ")",
    "cubesat-",
    "p cnf 3 2",
    "\u{fffd}",
    "é",
];

/// One mutated copy of a seed (1 to 4 edits; sometimes spliced with another seed).
pub fn mutate(rng: &mut Rng, seeds: &[String]) -> String {
    let mut b: Vec<u8> = seeds[rng.below(seeds.len())].clone().into_bytes();
    for _ in 0..1 + rng.below(4) {
        let n = b.len();
        match rng.below(8) {
            0 if n > 0 => {
                let i = rng.below(n);
                b[i] = rng.next() as u8;
            }
            1 if n > 0 => {
                let i = rng.below(n);
                let j = (i + 1 + rng.below(64)).min(n);
                b.drain(i..j);
            }
            2 if n > 0 && n < 1 << 20 => {
                let i = rng.below(n);
                let j = (i + 1 + rng.below(256)).min(n);
                let copy = b[i..j].to_vec();
                let at = rng.below(n);
                b.splice(at..at, copy);
            }
            3 => b.truncate(rng.below(n + 1)),
            4 => {
                let other = seeds[rng.below(seeds.len())].as_bytes();
                let cut = rng.below(n + 1);
                let from = rng.below(other.len() + 1);
                b.truncate(cut);
                b.extend_from_slice(&other[from..]);
            }
            5 if n > 0 => {
                // A digit run replaced by an extreme number.
                let i = rng.below(n);
                if b[i].is_ascii_digit() {
                    let mut j = i;
                    while j < n && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    let t = [
                        "0",
                        "4096",
                        "65536",
                        "1000000",
                        "18446744073709551615",
                        "-5",
                    ];
                    b.splice(i..j, t[rng.below(t.len())].bytes());
                }
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let at = rng.below(n + 1);
                b.splice(at..at, t.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs a reader on one input: `Err` only for a wrong result it accepted.
pub type Check = dyn Fn(&str) -> Result<(), String>;

/// A reader under test: its name, its seeds and a check that runs it on one input and returns
/// an error only for a wrong result it accepted (a rejected input is fine).
pub struct Reader {
    pub name: &'static str,
    pub seeds: Vec<String>,
    pub check: Box<Check>,
}

const SMALL: &[&str] = &[
    "soma",
    "tetracubes-two-2x2x4",
    "pentominoes-3x20",
    "wooden-cube",
];

fn bundled_text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/crates/cubesat/puzzles/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("bundled puzzle file")
}

/// The first `n` solutions of a bundled puzzle (placement lists).
fn solutions(inst: &Instance, n: u64) -> Vec<Vec<u32>> {
    let opts = RunOptions {
        up_to: UpTo::None,
        limit: Some(n),
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    run::list(inst, &opts, |s| {
        out.push(s.placements.clone());
        true
    })
    .expect("solutions");
    out
}

/// Every reader with its seeds.
pub fn readers() -> Vec<Reader> {
    let mut all = Vec::new();

    // Puzzle files (JSON, with layer art and cell lists): accepted ones must build and verify
    // their placements.
    let mut seeds: Vec<String> = puzzle::BUNDLED
        .iter()
        .map(|(n, _)| bundled_text(n))
        .collect();
    seeds.push(
        r####"{"name":"art","target":{"layers":[["##+","#_#"],["###","+##"]]},"pieces":[{"name":"a","layers":[["##"]],"count":2},{"name":"b","cells":[[0,0,0],[0,0,1]]}],"hints":[{"piece":"b","cells":[[1,0,0],[1,0,1]]}]}"####
            .to_string(),
    );
    all.push(Reader {
        name: "puzzle JSON",
        seeds,
        check: Box::new(|text| {
            if let Ok(p) = parse_puzzle(text, "fuzz")
                && p.target.cells().len() <= 512
            {
                Instance::new(p).map_err(|e| format!("accepted, then {}", e.report()))?;
            }
            Ok(())
        }),
    });

    // Solver answers for `decode`, against real exported instances: whatever decodes must
    // be verified solutions of the instance (decode verifies; the check re-counts).
    let mut instances = Vec::new();
    let mut seeds = Vec::new();
    let mut sat_seeds = Vec::new();
    for name in SMALL {
        let p = puzzle::bundled(name).expect("bundled");
        let inst = Instance::new(p.clone()).expect("instance");
        let sols = solutions(&inst, 3);
        let mut ans = String::from("c an answer\ns SATISFIABLE\n");
        for s in &sols {
            let lits: Vec<String> = (0..inst.table.len() as u32)
                .map(|o| {
                    if s.contains(&o) {
                        format!("{}", o + 1)
                    } else {
                        format!("-{}", o + 1)
                    }
                })
                .collect();
            ans.push_str(&format!("v {} 0\n", lits.join(" ")));
        }
        sat_seeds.push(ans);
        let asp_text = asp::export(&p, UpTo::None).expect("asp");
        let atoms: Vec<String> = sols[0].iter().map(|o| format!("place({o})")).collect();
        instances.push(asp_text);
        seeds.push(format!(
            "clingo version 5.8.0\nAnswer: 1\n{}\nSATISFIABLE\n\nModels       : 1+\n",
            atoms.join(" ")
        ));
        instances.push(dlx::export(&p, UpTo::None).expect("dlx"));
        seeds.push("1:\n".to_string());
    }
    sat_seeds.push("s UNSATISFIABLE\n".into());
    sat_seeds.push("SAT\n1 -2 3 0\n".into());
    sat_seeds.push("s SATISFIABLE\nv 1 -2\nv 3 0\nc solutions 1\n".into());
    seeds.extend(sat_seeds.iter().cloned());

    // BurrTools files (plain XML; gzip is inflated first, into the same reader): accepted
    // problems must build and verify their placements.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/burrtools");
    let mut burr_seeds: Vec<String> = ["reference", "own"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(format!("{dir}/{d}"))
                .into_iter()
                .flatten()
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    for name in SMALL {
        let p = puzzle::bundled(name).expect("bundled");
        if let Ok(xml) = cubesat::interop::xmpuzzle::to_xml(&p) {
            burr_seeds.push(xml);
        }
    }
    all.push(Reader {
        name: "BurrTools XML",
        seeds: burr_seeds,
        check: Box::new(|text| {
            let Ok(file) = cubesat::puzzle::burrtools::parse(text.as_bytes(), "fuzz") else {
                return Ok(());
            };
            for i in 0..file.problems.len().min(4) {
                if let Ok(p) = file.puzzle(i)
                    && p.target.cells().len() <= 512
                {
                    Instance::new(p).map_err(|e| format!("accepted, then {}", e.report()))?;
                }
            }
            Ok(())
        }),
    });

    // SAT-solver output (competition and MiniSat formats, model counters' answers).
    all.push(Reader {
        name: "SAT solver output",
        seeds: sat_seeds,
        check: Box::new(|text| {
            if let Ok(out) = cubesat::interop::sat::parse(text) {
                for m in &out.models {
                    let _ = m.options(4096);
                }
            }
            let _ = cubesat::interop::sat::parse_model_count(text);
            Ok(())
        }),
    });
    let inst_for_answers = instances.clone();
    all.push(Reader {
        name: "decode answers",
        seeds,
        check: Box::new(move |text| {
            // One instance per input (decoding rebuilds its placements), picked by the input.
            let instance = &inst_for_answers[text.len() % inst_for_answers.len()];
            match answer::decode(instance, text) {
                Ok(d) if d.solutions.iter().any(|s| !s.is_sorted()) => {
                    Err("a decoded solution is not ascending".into())
                }
                _ => Ok(()),
            }
        }),
    });

    // Exported instances themselves (the provenance reader) with a fixed, empty answer.
    all.push(Reader {
        name: "decode instances",
        seeds: instances,
        check: Box::new(|text| {
            let _ = answer::decode(text, "s UNSATISFIABLE\n");
            Ok(())
        }),
    });

    // JSON Lines for `render`: whatever is accepted is verified solutions.
    let mut seeds = Vec::new();
    for name in SMALL {
        let p = puzzle::bundled(name).expect("bundled");
        let inst = Instance::new(p.clone()).expect("instance");
        let mut text = String::new();
        for (i, s) in solutions(&inst, 2).into_iter().enumerate() {
            let sol = cubesat::Solution { placements: s };
            text.push_str(&format!(
                "{}\n",
                solution_json(&inst.puzzle, &inst.table, &sol, i as u64 + 1)
            ));
        }
        let report = RunReport::default();
        text.push_str(&format!(
            "{}\n",
            summary_json(&inst.puzzle, &report, "none", false)
        ));
        seeds.push(text);
    }
    all.push(Reader {
        name: "render JSON Lines",
        seeds,
        check: Box::new(|text| {
            if let Ok((inst, sols)) = cubesat::report::read_solutions_jsonl(text) {
                for s in &sols {
                    inst.verifier()
                        .verify(s)
                        .map_err(|e| format!("accepted an invalid solution: {}", e.report()))?;
                }
            }
            Ok(())
        }),
    });
    all
}

/// What a run over one reader found.
#[derive(Debug, Default)]
pub struct Findings {
    pub inputs: u64,
    pub panics: Vec<String>,
    pub wrong: Vec<String>,
    pub slow: Vec<(Duration, String)>,
    pub slowest: Duration,
}

/// Runs `n` mutated inputs through `reader`, seeded by `seed`.
pub fn run(reader: &Reader, n: u64, seed: u64, slow: Duration) -> Findings {
    let mut rng = Rng::new(seed);
    let mut f = Findings::default();
    for _ in 0..n {
        let input = mutate(&mut rng, &reader.seeds);
        let start = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| (reader.check)(&input)));
        let took = start.elapsed();
        f.inputs += 1;
        f.slowest = f.slowest.max(took);
        match r {
            Err(_) => f.panics.push(input.chars().take(2000).collect()),
            Ok(Err(e)) => f.wrong.push(e),
            Ok(Ok(())) => {}
        }
        if took > slow {
            f.slow.push((took, input.chars().take(300).collect()));
        }
    }
    f
}
