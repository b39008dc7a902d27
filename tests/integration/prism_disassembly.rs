//! Disassembly on the prism grid through the binary: every problem of the prism test files gives burrTxt's assemblies, solutions and level lines (tests/data/burrtools/prisms/disassembly.txt), in both rules, and the plans pass a replay written here from the triangles' geometry, not from the library's tables.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::Dir;

fn prisms(name: &str) -> String {
    format!(
        "{}/tests/data/burrtools/prisms/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The problems of disassembly.txt: (file, problem, assemblies, solutions, levels), levels as
/// burrtools_counts.py writes them (`1.2*14 2.2.2*1`, `-` for none).
fn expected() -> Vec<(String, String, u64, u64, String)> {
    std::fs::read_to_string(prisms("disassembly.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(f.len() >= 5, "{l}");
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4..].join(" "),
            )
        })
        .collect()
}

#[test]
fn every_prism_problem_comes_apart_as_burrtxt_d_says() {
    let dir = Dir::new();
    let all = expected();
    assert!(all.len() >= 40, "{} problems", all.len());
    // Several levels of more than one move must be among them, not only removals.
    assert!(all.iter().filter(|e| e.4.contains('.')).count() >= 8);
    for (file, problem, assemblies, solutions, levels) in &all {
        for rule in ["burrtools", "complete"] {
            let r = dir.run(&[
                "solve",
                &prisms(file),
                "--problem",
                problem,
                "--disassemble",
                "--disassembler",
                rule,
                "--all",
                "--format",
                "json",
                "-q",
            ]);
            r.code(if *solutions > 0 { 0 } else { 1 });
            let mut got: BTreeMap<String, u64> = BTreeMap::new();
            let mut summary = Value::Null;
            for l in r.stdout.lines() {
                let v: Value = serde_json::from_str(l).unwrap();
                if v["type"] == "summary" {
                    summary = v;
                } else {
                    *got.entry(v["level"].as_str().unwrap().to_string())
                        .or_default() += 1;
                }
            }
            let got_levels = if got.is_empty() {
                "-".to_string()
            } else {
                got.iter()
                    .map(|(l, n)| format!("{l}*{n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            r.check(
                summary["assemblies"] == *assemblies
                    && got.values().sum::<u64>() == *solutions
                    && got_levels == *levels,
                &format!(
                    "{file} #{problem} ({rule}): {} assemblies, levels {got_levels}; burrTxt -d: {assemblies}, {solutions}, {levels}",
                    summary["assemblies"]
                ),
            );
        }
    }
}

/// A point of the plane in units where a triangle's side is 2 across and 1 up: BurrTools'
/// voxel steps are vectors here as they are (a step `(1, 1)` is along a side).
type P = [i64; 2];

/// The corners of typed triangle `[x, j]` (BurrTools' voxel `[x, -j]`; up where `x + j` is
/// even), from the grid's definition in docs/grids.md.
fn triangle(x: i64, j: i64) -> Vec<P> {
    let y = -j;
    if (x + y).rem_euclid(2) == 0 {
        vec![[x, y], [x + 2, y], [x + 1, y + 1]]
    } else {
        vec![[x, y + 1], [x + 1, y], [x + 2, y + 1]]
    }
}

/// True when the interiors of convex polygons `a` and `b` meet: no line parallel to one of
/// the edges `axes` (all edge directions of both) separates them.
fn interiors_meet(a: &[P], b: &[P], axes: &[P]) -> bool {
    axes.iter().all(|e| {
        let f = |p: &P| e[1] * p[0] - e[0] * p[1];
        let (alo, ahi) = a
            .iter()
            .map(f)
            .fold((i64::MAX, i64::MIN), |(l, h), v| (l.min(v), h.max(v)));
        let (blo, bhi) = b
            .iter()
            .map(f)
            .fold((i64::MAX, i64::MIN), |(l, h), v| (l.min(v), h.max(v)));
        ahi > blo && bhi > alo
    })
}

fn edges(poly: &[P]) -> Vec<P> {
    (0..poly.len())
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            [q[0] - p[0], q[1] - p[1]]
        })
        .collect()
}

/// True when prism `c` (typed `[x, j, z]`) sliding by one unit `d` (plane vector, layers)
/// passes through or lands on prism `s`.
fn sweeps(c: [i64; 3], d: (P, i64), s: [i64; 3]) -> bool {
    let (dp, dz) = d;
    if dz != 0 {
        return c[0] == s[0] && c[1] == s[1] && c[2] + dz == s[2];
    }
    if c[2] != s[2] {
        return false;
    }
    let t = triangle(c[0], c[1]);
    // The region the triangle passes over: it and its image (their hull's edges are the
    // triangle's and the step's).
    let mut swept = t.clone();
    swept.extend(t.iter().map(|p| [p[0] + dp[0], p[1] + dp[1]]));
    let other = triangle(s[0], s[1]);
    let mut axes = edges(&t);
    axes.push(dp);
    axes.extend(edges(&other));
    interiors_meet(&swept, &other, &axes)
}

/// A direction's name as a unit step: plane vector and layers.
fn step(name: &str) -> (P, i64) {
    match name {
        "+z" => ([0, 0], 1),
        "-z" => ([0, 0], -1),
        "+x" => ([2, 0], 0),
        "-x" => ([-2, 0], 0),
        "+x+y" => ([1, 1], 0),
        "-x-y" => ([-1, -1], 0),
        "-x+y" => ([-1, 1], 0),
        "+x-y" => ([1, -1], 0),
        _ => panic!("unknown direction {name}"),
    }
}

/// Moves typed cell `c` by one unit step `d`.
fn moved(c: [i64; 3], d: (P, i64)) -> [i64; 3] {
    // Typed rows run down the page: a step up (+y) is a row less.
    [c[0] + d.0[0], c[1] - d.0[1], c[2] + d.1]
}

/// Replays a plan on the solution's typed cells: no unit step sweeps a prism of its part that
/// stays; a removal can then slide on without end; every piece ends alone.
fn replay(sol: &Value) -> Result<usize, String> {
    let pieces = sol["pieces"].as_array().unwrap();
    let names = crate::disassembly::labels(sol);
    let mut cells: Vec<Vec<[i64; 3]>> = pieces
        .iter()
        .map(|p| {
            p["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| [0, 1, 2].map(|a| c[a].as_i64().unwrap()))
                .collect()
        })
        .collect();
    let n = cells.len();
    let mut part = vec![0usize; n];
    let mut parts = 1;
    let plan = sol["plan"].as_array().ok_or("no plan")?;
    let hits = |moving: &[usize], still: &[[i64; 3]], cells: &[Vec<[i64; 3]>], d| {
        moving.iter().any(|&i| {
            cells[i]
                .iter()
                .any(|&c| still.iter().any(|&s| sweeps(c, d, s)))
        })
    };
    for (k, m) in plan.iter().enumerate() {
        let moving: Vec<usize> = m["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| names.iter().position(|x| x == p.as_str().unwrap()).unwrap())
            .collect();
        let d = step(m["direction"].as_str().unwrap());
        let p = part[moving[0]];
        let others: Vec<usize> = (0..n)
            .filter(|&i| part[i] == p && !moving.contains(&i))
            .collect();
        if others.is_empty() || moving.iter().any(|&i| part[i] != p) {
            return Err(format!("move {}: not a proper subset of one part", k + 1));
        }
        let still: Vec<[i64; 3]> = others.iter().flat_map(|&i| cells[i].clone()).collect();
        let go = |cells: &mut Vec<Vec<[i64; 3]>>| {
            for &i in &moving {
                for c in &mut cells[i] {
                    *c = moved(*c, d);
                }
            }
        };
        for _ in 0..m["distance"].as_u64().unwrap() {
            if hits(&moving, &still, &cells, d) {
                return Err(format!("move {}: collision", k + 1));
            }
            go(&mut cells);
        }
        if m["removal"] == true {
            // Without end: on until the moving prisms are past every other one along the
            // step (well beyond any part here), meeting nothing.
            let mut probe = cells.clone();
            for _ in 0..40 {
                if hits(&moving, &still, &probe, d) {
                    return Err(format!("move {}: the removal meets a piece later", k + 1));
                }
                go(&mut probe);
            }
            for &i in &moving {
                part[i] = parts;
            }
            parts += 1;
        }
    }
    for q in 0..parts {
        let members: Vec<usize> = (0..n).filter(|&i| part[i] == q).collect();
        if members.len() > 1 {
            return Err(format!("pieces {members:?} end together"));
        }
    }
    Ok(plan.len())
}

#[test]
fn prism_plans_replay_on_the_triangles() {
    let dir = Dir::new();
    let mut checked = 0;
    // The windows and doors: plans of up to four separations, sideways moves among them.
    for (file, problem, solutions) in [
        ("p12_window.xmpuzzle", "1", 10),
        ("p12_window.xmpuzzle", "4", 9),
        ("p13_door.xmpuzzle", "1", 137),
        ("p14_tall_window.xmpuzzle", "1", 168),
    ] {
        for n in 1..=solutions {
            if n > 10 && n % 17 != 0 {
                continue;
            }
            let r = dir.run(&[
                "disassemble",
                &prisms(file),
                "--problem",
                problem,
                "--solution",
                &n.to_string(),
                "--format",
                "json",
                "-q",
            ]);
            r.code(0);
            let sol: Value = serde_json::from_str(r.stdout.trim()).unwrap();
            let moves = replay(&sol).unwrap_or_else(|e| panic!("{file} #{problem} {n}: {e}"));
            r.check(sol["moves"] == moves, "moves counts the plan");
            checked += 1;
        }
    }
    assert!(checked > 40);
}

#[test]
fn the_replay_sees_a_triangle_sweep() {
    // An up triangle [0, 0] and the down one to its right, [1, 0]: a step of the up one
    // along +x or +x+y passes over the down one; along -x+y (their common side) it does not.
    let (up, down) = ([0, 0, 0], [1, 0, 0]);
    assert!(sweeps(up, step("+x"), down));
    assert!(sweeps(up, step("+x+y"), down));
    assert!(!sweeps(up, step("-x+y"), down));
    assert!(!sweeps(up, step("-x"), down));
    assert!(!sweeps(up, step("+z"), down));
    // Up and down one layer: only the same triangle.
    assert!(sweeps(up, step("+z"), [0, 0, 1]));
}
