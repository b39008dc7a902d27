//! The studio's jobs beyond solve and count, through the real binary: a generation and an
//! estimate that stop within a second of their Stop and free their places at once, BurrTools files with several
//! problems, disassemblies with plans the page can play, estimates with their shard plans and
//! scripts, and a flood of such jobs bounded like counts.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{BALLS, Reply, Studio};
use crate::common::puzzle_file;

/// A generation that runs for minutes: three hint pieces that must leave the 35 hexominoes
/// one completion.
fn slow_generation(s: &Studio) -> Value {
    let text = s.get("/api/library/hexominoes-square").json()["text"].clone();
    json!({"puzzle": text, "action": "generate", "hints": 3, "unique": true})
}

/// Stops job `id` and returns how long it took to end.
fn stop_and_time(s: &Studio, id: u64) -> Duration {
    let start = Instant::now();
    s.post(&format!("/api/jobs/{id}/stop"), &json!({}))
        .expect(200, "\"stopped\":\"stopped\"");
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["stopped"], "stopped", "{j}");
    start.elapsed()
}

#[test]
fn studio_stops_a_generation_within_a_second_and_frees_its_place() {
    let s = Studio::start(&["-q"]);
    let generation = slow_generation(&s);
    let id = s.post("/api/jobs", &generation).json()["id"]
        .as_u64()
        .unwrap();
    // Under way: its searches publish their nodes.
    let j = s.wait_job(id, |j| j["nodes"].as_u64() > Some(0));
    assert_eq!(j["state"], "running", "{j}");
    let took = stop_and_time(&s, id);
    let j = s.get(&format!("/api/jobs/{id}")).json();
    assert_eq!(j["result"]["interrupted"], true, "{j}");
    assert_eq!(
        j["result"]["line"],
        "no puzzle: stopped before one was made"
    );
    // The issue asks for a second; the bound leaves room for a loaded machine.
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    // Four generations stopped at once free their places at once: a fifth starts.
    let ids: Vec<u64> = (0..4)
        .map(|_| {
            let r = s.post("/api/jobs", &generation);
            r.expect(201, "running");
            r.json()["id"].as_u64().unwrap()
        })
        .collect();
    s.post("/api/jobs", &generation)
        .expect(429, "4 jobs are running");
    for &id in &ids {
        s.post(&format!("/api/jobs/{id}/stop"), &json!({}))
            .expect(200, "\"stopped\":\"stopped\"");
    }
    let fifth = s.post("/api/jobs", &generation);
    fifth.expect(201, "running");
    for &id in &ids {
        let j = s.wait_job(id, |j| j["state"] != "running");
        assert_eq!(j["result"]["interrupted"], true, "{j}");
    }
    let took = stop_and_time(&s, fifth.json()["id"].as_u64().unwrap());
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
}

#[test]
fn studio_stops_an_estimate_within_a_second_and_frees_its_place() {
    let s = Studio::start(&["-q"]);
    let tetris = std::fs::read_to_string(puzzle_file("tetris-cube")).unwrap();
    // The Tetris Cube's tree is far too large for ten minutes of probes to finish it.
    let estimate = json!({"puzzle": tetris, "action": "estimate", "seconds": 600});
    let ids: Vec<u64> = (0..4)
        .map(|_| {
            let r = s.post("/api/jobs", &estimate);
            r.expect(201, "running");
            r.json()["id"].as_u64().unwrap()
        })
        .collect();
    s.post("/api/jobs", &estimate)
        .expect(429, "4 jobs are running");
    // Under way: past its preparation, into its probes.
    let j = s.wait_job(ids[0], |j| j["seconds"].as_f64() > Some(1.5));
    assert_eq!(j["state"], "running", "{j}");
    let took = stop_and_time(&s, ids[0]);
    let j = s.get(&format!("/api/jobs/{}", ids[0])).json();
    assert_eq!(j["result"]["interrupted"], true, "{j}");
    assert_eq!(
        j["result"]["line"],
        "no estimate: stopped before it finished"
    );
    assert_eq!(j["result"]["estimate"], Value::Null, "no figure: {j}");
    // The issue asks for a second; the bound leaves room for a loaded machine.
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    // Its place is free: a new job starts while the other three run.
    let fifth = s.post("/api/jobs", &estimate);
    fifth.expect(201, "running");
    for &id in &ids[1..] {
        let took = stop_and_time(&s, id);
        assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    }
    let took = stop_and_time(&s, fifth.json()["id"].as_u64().unwrap());
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
}

/// The studio's text of a BurrTools problem, imported as the page drops a file.
fn import(s: &Studio, file: &str, query: &str) -> Reply {
    let bytes = std::fs::read(file).unwrap();
    let head = format!(
        "POST /api/import{query} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nX-File-Name: maze.xmpuzzle\r\nContent-Length: {1}",
        s.addr,
        bytes.len()
    );
    s.send(&head, &bytes)
}

#[test]
fn studio_lists_the_problems_of_a_burrtools_file() {
    let s = Studio::start(&["-q"]);
    let maze = format!(
        "{}/tests/data/disassembly/maze.xmpuzzle",
        env!("CARGO_MANIFEST_DIR")
    );
    let info = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(["info", &maze])
        .output()
        .unwrap();
    let info = String::from_utf8(info.stdout).unwrap();
    let v = import(&s, &maze, "").json();
    assert_eq!(
        v["burrtools"], "BurrTools file (version 2), 3 problems",
        "{v}"
    );
    let list = v["problem_list"].as_array().unwrap();
    assert_eq!(list.len(), 3, "{v}");
    for (i, p) in list.iter().enumerate() {
        assert_eq!(p["index"], i);
        // The line `cubesat info` gives the problem.
        let line = p["line"].as_str().unwrap();
        assert!(info.contains(line), "{line:?} not in\n{info}");
        assert_eq!(p["grid"], "cubes", "{p}");
        let counting = p["counting"].as_str().unwrap();
        assert!(
            counting.starts_with("in BurrTools' convention: up to the result's"),
            "{counting}"
        );
    }
    assert_eq!(list[2]["name"], "two keys");
    assert_eq!(list[2]["pieces"], 2);
    assert_eq!(list[2]["copies"], 3);
    // The page picks a problem by index or by name.
    let deep = import(&s, &maze, "?problem=1").json();
    assert_eq!(deep["problem"], 1);
    assert!(
        deep["text"].as_str().unwrap().contains("deep maze"),
        "{deep}"
    );
    let two = import(&s, &maze, "?problem=two%20keys").json();
    assert_eq!(two["problem"], 2);
    import(&s, &maze, "?problem=nope").expect(400, "no problem named 'nope'");
}

/// The offsets `plan` moves each of `n` pieces by, all moves applied.
fn moved(n: usize, plan: &[Value]) -> Vec<[i64; 3]> {
    let mut at = vec![[0i64; 3]; n];
    for m in plan {
        let shift: Vec<i64> = m["shift"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        for p in m["pieces"].as_array().unwrap() {
            let p = p.as_u64().unwrap() as usize;
            for a in 0..3 {
                at[p][a] += shift[a];
            }
        }
    }
    at
}

#[test]
fn studio_disassembles_solutions_with_plans_the_page_can_play() {
    let s = Studio::start(&["-q"]);
    let maze = format!(
        "{}/tests/data/disassembly/maze.xmpuzzle",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = import(&s, &maze, "?problem=1").json()["text"].clone();
    let r = s.post(
        "/api/jobs",
        &json!({"puzzle": text, "action": "disassemble"}),
    );
    r.expect(201, "\"action\":\"disassemble\"");
    let id = r.json()["id"].as_u64().unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["state"], "done", "{j}");
    let result = &j["result"];
    assert_eq!(result["disassembler"], "burrtools", "{j}");
    // The CLI's listing of the same problem: every solution that comes apart, its level.
    let cli = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "solve",
            &maze,
            "--problem",
            "1",
            "--disassemble",
            "--all",
            "--format",
            "json",
            "-q",
        ])
        .output()
        .unwrap();
    let cli: Vec<Value> = String::from_utf8(cli.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("level").is_some())
        .collect();
    assert_eq!(result["apart"], cli.len(), "{j}");
    assert!(
        result["line"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{} solutions that come apart", cli.len())),
        "{j}"
    );
    let all = s
        .get(&format!("/api/jobs/{id}/disassembly?count=1000"))
        .json();
    assert_eq!(all["total"], result["assemblies"], "{all}");
    let apart: Vec<&Value> = all["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["apart"] == true)
        .collect();
    let levels: Vec<&Value> = apart.iter().map(|x| &x["level"]).collect();
    let cli_levels: Vec<&Value> = cli.iter().map(|x| &x["level"]).collect();
    assert_eq!(levels, cli_levels);
    // Sorted by level, hardest first; the filter keeps those that come apart.
    let sorted = s
        .get(&format!(
            "/api/jobs/{id}/disassembly?sort=level&apart=1&count=1000"
        ))
        .json();
    let rank = |v: &Value| -> Vec<u32> {
        v["level"]
            .as_str()
            .unwrap()
            .split('.')
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let sorted = sorted["solutions"].as_array().unwrap().clone();
    assert_eq!(sorted.len(), cli.len());
    assert!(
        sorted.windows(2).all(|w| rank(&w[0]) >= rank(&w[1])),
        "{sorted:?}"
    );
    // The hardest one's plan: its level as the CLI gives it, and its moves take every piece
    // apart in the 3D page's cells.
    let n = sorted[0]["n"].as_u64().unwrap();
    let v = s.get(&format!("/api/jobs/{id}/solutions/{n}")).json();
    let d = &v["disassembly"];
    assert_eq!(d["apart"], true, "{d}");
    assert_eq!(d["level"], sorted[0]["level"], "{d}");
    assert_eq!(d["moves"], sorted[0]["moves"], "{d}");
    let plan = d["plan"].as_array().unwrap();
    assert_eq!(plan.len() as u64, d["moves"].as_u64().unwrap());
    assert!(
        v["html"]
            .as_str()
            .unwrap()
            .contains(d["title"].as_str().unwrap()),
        "the 3D page animates the plan"
    );
    let pieces = d["pieces"].as_array().unwrap();
    let at = moved(pieces.len(), plan);
    let boxes: Vec<([i64; 3], [i64; 3])> = pieces
        .iter()
        .zip(&at)
        .map(|(p, off)| {
            let mut lo = [i64::MAX; 3];
            let mut hi = [i64::MIN; 3];
            for c in p["cells"].as_array().unwrap() {
                for a in 0..3 {
                    let x = c[a].as_i64().unwrap() + off[a];
                    lo[a] = lo[a].min(x);
                    hi[a] = hi[a].max(x);
                }
            }
            (lo, hi)
        })
        .collect();
    for i in 0..boxes.len() {
        for k in i + 1..boxes.len() {
            let (a, b) = (boxes[i], boxes[k]);
            let overlap = (0..3).all(|x| a.0[x] <= b.1[x] && b.0[x] <= a.1[x]);
            assert!(!overlap, "pieces {i} and {k} end where they overlap: {d}");
        }
    }
    // A grid that cannot be taken apart is refused with the library's reason.
    let balls = std::fs::read_to_string(puzzle_file(BALLS)).unwrap();
    s.post(
        "/api/jobs",
        &json!({"puzzle": balls, "action": "disassemble"}),
    )
    .expect(400, "takes apart assemblies of");
    // An unknown job has no listing.
    s.get("/api/jobs/999/disassembly").expect(404, "no job 999");
}

/// A disassembly's pieces carry the colours every view draws them in: the colour a piece is
/// named after (IQ Puzzler's "orange"), else the palette's, never a palette index.
#[test]
fn studio_colours_a_disassembly_as_every_view_does() {
    let s = Studio::start(&["-q"]);
    let text = r#"{"target": {"cells": [[0, 0, 0], [1, 0, 0]]}, "pieces": [{"name": "orange", "count": 1, "cells": [[0, 0, 0]]}, {"name": "p1", "count": 1, "cells": [[0, 0, 0]]}]}"#;
    let r = s.post(
        "/api/jobs",
        &json!({"puzzle": text, "action": "disassemble"}),
    );
    r.expect(201, "\"action\":\"disassemble\"");
    let id = r.json()["id"].as_u64().unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["state"], "done", "{j}");
    let v = s.get(&format!("/api/jobs/{id}/solutions/1")).json();
    let d = &v["disassembly"];
    assert_eq!(d["apart"], true, "{d}");
    let pieces = d["pieces"].as_array().unwrap();
    let colour = |name: &str| {
        pieces.iter().find(|p| p["name"] == name).unwrap()["color"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(colour("orange"), "#ffa500", "{d}");
    let other = colour("p1");
    assert!(
        other.starts_with('#') && other.len() == 7 && other != "#ffa500",
        "{d}"
    );
    // The 3D page draws them in the same colours.
    let html = v["html"].as_str().unwrap();
    assert!(
        html.contains("\"#ffa500\"") && html.contains(&format!("\"{other}\"")),
        "{html}"
    );
}

#[test]
fn studio_estimates_a_count_with_its_shard_plan() {
    let s = Studio::start(&["-q"]);
    let tetris = std::fs::read_to_string(puzzle_file("tetris-cube")).unwrap();
    let r = s.post(
        "/api/jobs",
        &json!({"puzzle": tetris, "action": "estimate", "samples": 200, "seed": 1, "wall_seconds": 1, "cores": 4}),
    );
    r.expect(201, "\"action\":\"estimate\"");
    let id = r.json()["id"].as_u64().unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    let result = &j["result"];
    let text = result["text"].as_str().unwrap();
    // The same probes give the same tree: the CLI's first lines, word for word.
    let cli = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "estimate",
            "tetris-cube",
            "--samples",
            "200",
            "--seed",
            "1",
            "-q",
        ])
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    let head = |t: &str| t.lines().take(2).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(head(text), head(&cli), "{text}");
    assert!(text.contains("cpu time: "), "{text}");
    let shards = result["estimate"]["plan"]["shards"].as_u64().unwrap();
    assert!(shards > 1, "{j}");
    assert!(
        text.contains(&format!(
            "cubesat solve Tetris_Cube.json --count --shard K/{shards} for K = 0..{}",
            shards - 1
        )),
        "{text}"
    );
    assert_eq!(result["downloads"], json!(["sbatch", "shards"]), "{j}");
    let sbatch = s.post(
        &format!("/api/jobs/{id}/download"),
        &json!({"format": "sbatch"}),
    );
    sbatch.expect(200, &format!("\nN={shards}\n"));
    assert!(
        sbatch.head.contains("filename=\"count.sbatch\""),
        "{}",
        sbatch.head
    );
    assert!(
        sbatch
            .body
            .contains(&format!("#SBATCH --array=0-{}%4", shards - 1)),
        "{}",
        sbatch.body
    );
    let script = s.post(
        &format!("/api/jobs/{id}/download"),
        &json!({"format": "shards"}),
    );
    script.expect(200, "cubesat merge results");
    assert_eq!(
        script.body.matches(" --count --quiet --shard ").count() as u64,
        shards
    );
    s.post(
        &format!("/api/jobs/{id}/download"),
        &json!({"format": "nope"}),
    )
    .expect(400, "offers no 'nope'");
    // Out-of-bounds settings are refused in one line.
    s.post(
        "/api/jobs",
        &json!({"puzzle": tetris, "action": "estimate", "seconds": 601}),
    )
    .expect(
        400,
        "setting 'seconds' must be a number above 0 and at most 600",
    );
    s.post(
        "/api/jobs",
        &json!({"puzzle": tetris, "action": "estimate", "cores": 4}),
    )
    .expect(400, "cores");
}

#[test]
fn studio_bounds_a_flood_of_disassembly_and_estimate_jobs() {
    let s = Studio::start(&["-q"]);
    let tetris = std::fs::read_to_string(puzzle_file("tetris-cube")).unwrap();
    let disassemble = json!({"puzzle": tetris, "action": "disassemble", "threads": 1});
    let estimate = json!({"puzzle": tetris, "action": "estimate", "seconds": 600});
    let mut ids = Vec::new();
    for body in [&disassemble, &estimate, &disassemble, &estimate] {
        let r = s.post("/api/jobs", body);
        r.expect(201, "running");
        ids.push(r.json()["id"].as_u64().unwrap());
    }
    // A search's progress carries the time left as the command line says it.
    let j = s.wait_job(ids[0], |j| {
        j["eta"].as_str().is_some_and(|e| e.starts_with("ETA "))
    });
    assert!(
        j["progress_line"].as_str().unwrap().contains("of the tree"),
        "{j}"
    );
    s.post("/api/jobs", &disassemble)
        .expect(429, "4 jobs are running");
    s.post("/api/jobs", &estimate)
        .expect(429, "4 jobs are running");
    for &id in &ids {
        s.post(&format!("/api/jobs/{id}/stop"), &json!({}))
            .expect(200, "\"stopped\":\"stopped\"");
    }
    // Every one ends at its Stop, and their places are free again.
    for &id in &ids {
        let j = s.wait_job(id, |j| j["state"] != "running");
        assert_eq!(j["result"]["interrupted"], true, "{j}");
    }
    for body in [&disassemble, &estimate] {
        s.post("/api/jobs", body).expect(201, "running");
    }
}

/// The memo engine from the page: a count within the memory bound the page sets, the same
/// count as the CLI's; a bound that is not a size is refused with the setting's name, and
/// one over 64G fails the job with it.
#[test]
fn studio_counts_with_the_memo_engine_within_its_memory_bound() {
    let s = Studio::start(&["-q"]);
    let text = std::fs::read_to_string(puzzle_file("catalog/bricks/dominoes-10x5")).unwrap();
    let job = |memory: &str| json!({"puzzle": text, "action": "count", "up_to": "none", "engine": "memo", "memory": memory});
    let id = s.post("/api/jobs", &job("64M")).json()["id"]
        .as_u64()
        .unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    // Domino tilings of 5xN boards: 8, 95, 1,183, 14,824, 185,921 for N = 2, 4, ..., 10.
    assert_eq!(j["result"]["count"], 185_921, "{j}");
    assert!(
        j["result"]["engine"].as_str().unwrap().starts_with("memo"),
        "{j}"
    );
    s.post("/api/jobs", &job("lots"))
        .expect(400, "memory: 'lots' is not a size");
    let id = s.post("/api/jobs", &job("65G")).json()["id"]
        .as_u64()
        .unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert!(j.to_string().contains("a cache may take"), "{j}");
}

/// Every counting mode from one search, as the page's "every mode" asks: each mode's count
/// beside the others, as the CLI prints them; refused for a listing with the setting's name.
#[test]
fn studio_counts_every_mode_from_one_search() {
    let s = Studio::start(&["-q"]);
    let text = std::fs::read_to_string(puzzle_file("soma")).unwrap();
    let modes = "none,rotation,rotation+reflection";
    let job = json!({"puzzle": text, "action": "count", "up_to": modes});
    let id = s.post("/api/jobs", &job).json()["id"].as_u64().unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    let r = &j["result"];
    assert_eq!(
        r["counts"],
        json!({"none": 11520, "rotation": 480, "rotation+reflection": 240}),
        "{j}"
    );
    assert_eq!(
        r["line"],
        "11520 solutions counting every placement; 480 solutions up to rotation; 240 solutions up to rotation and reflection",
        "{j}"
    );
    let listing = json!({"puzzle": text, "action": "solve", "up_to": modes});
    s.post("/api/jobs", &listing).expect(
        400,
        "setting 'up_to': several counting modes share one search in a count",
    );
}
