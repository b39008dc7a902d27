//! BurrTools files side by side: every problem of every BurrTools file given (default: the
//! project's own test files, `tests/data/burrtools/`) counted by the `cubesat` binary in
//! BurrTools' convention on one thread and, with `--burrtxt PATH`, by BurrTools' `burrTxt -q`
//! (built outside the project); whole processes, each one's CPU seconds (user + system, from
//! the kernel's accounting of the finished child), the counts checked against each other.
//!
//! `cargo bench --bench burrtools -- [--burrtxt PATH] [--reduce] [--runs N] [FILE|DIR ...]`
//!
//! `--reduce` adds a column for `burrTxt -q -r` (its placement reduction before the search);
//! `--runs N` (default 3) repeats every measurement and keeps the median. Directories are read
//! for `*.xmpuzzle` and `*.xml` files, in name order; files of grids other than cubes are
//! listed as skipped. BurrTools' example files (`examples/` of github.com/burr-tools/burr-tools)
//! are not part of the project: pass their folder on the command line. Ends with a Markdown
//! table.

use std::path::{Path, PathBuf};
use std::process::Command;

/// CPU seconds (user + system) of the children that finished so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes the struct it is given and reads nothing else.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// Runs `cmd` to its end; its stdout and stderr, and its CPU seconds.
fn run(cmd: &mut Command) -> anyhow::Result<(String, String, f64)> {
    let before = children_cpu();
    let out = cmd
        .output()
        .map_err(|e| anyhow::anyhow!("{:?}: {e}", cmd.get_program()))?;
    let cpu = children_cpu() - before;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        cpu,
    ))
}

/// The median of `times` (sorted in place).
fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The first number of `text` after which `word` follows (`588 assemblies`, `588 solutions`).
fn number_before(text: &str, word: &str) -> Option<u64> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    tokens
        .windows(2)
        .find(|w| w[1].starts_with(word))
        .and_then(|w| w[0].parse().ok())
}

/// The files to run: the arguments (directories listed), or the project's test files.
fn inputs(args: &[String]) -> anyhow::Result<Vec<PathBuf>> {
    let roots: Vec<PathBuf> = if args.is_empty() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/burrtools");
        vec![data.join("reference"), data.join("own")]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut files = Vec::new();
    for r in roots {
        if r.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&r)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xmpuzzle" || x == "xml"))
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(r);
        }
    }
    Ok(files)
}

/// One problem's figures.
struct Row {
    file: String,
    problem: usize,
    count: Option<u64>,
    nodes: Option<u64>,
    cubesat: f64,
    burrtxt: Option<(Option<u64>, f64)>,
    reduced: Option<(Option<u64>, f64)>,
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let value = |f: &str| {
        let i = args.iter().position(|a| a == f)?;
        args.get(i + 1).cloned()
    };
    let burrtxt = value("--burrtxt");
    let reduce = args.iter().any(|a| a == "--reduce");
    let runs: usize = value("--runs").and_then(|r| r.parse().ok()).unwrap_or(3);
    let paths: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            !a.starts_with("--")
                && (i == 0 || !matches!(args[i - 1].as_str(), "--burrtxt" | "--runs"))
        })
        .map(|(_, a)| a.clone())
        .collect();
    // The binary as `cargo install` leaves it: a copy. The file the linker has just written
    // sits in the page cache in small pieces, and each process started from it takes some 30
    // more page faults than one started from a copy: 0.6 ms of a 3 ms problem on the shared
    // 2-core VM (08_chiral_result: 3.39 ms from target/release, 2.78 ms from a copy beside
    // it, median of 200 alternating runs). burrTxt runs from a copy as well.
    let installed = tempfile::tempdir()?;
    let cubesat = installed.path().join("cubesat");
    std::fs::copy(env!("CARGO_BIN_EXE_cubesat"), &cubesat)?;
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for path in inputs(&paths)? {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let file = match cubesat::puzzle::burrtools::read_file(&path) {
            Ok(f) => f,
            Err(e) => {
                println!("{name}: skipped ({})", e.report());
                skipped.push(name);
                continue;
            }
        };
        for problem in 0..file.problems.len() {
            let p = problem.to_string();
            // The programs take turns, a round each, so that a machine whose load drifts
            // weighs on all of them alike (a problem takes 2-3 ms: a drift of a millisecond
            // between blocks of runs decided the ratio).
            // burrTxt's runs: its plain count, and with `--reduce` its reduced one.
            let peers: Vec<(&str, bool)> = match burrtxt.as_deref() {
                Some(b) if reduce => vec![(b, false), (b, true)],
                Some(b) => vec![(b, false)],
                None => Vec::new(),
            };
            let burr = |b: &str, reduced: bool| -> anyhow::Result<(Option<u64>, f64)> {
                let mut cmd = Command::new(b);
                cmd.args(["-q", "-o", &p]);
                if reduced {
                    cmd.arg("-r");
                }
                let (stdout, _, cpu) = run(cmd.arg(&path))?;
                Ok((number_before(&stdout, "assemblies"), cpu))
            };
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); 1 + peers.len()];
            let mut out = (String::new(), String::new());
            let mut peer_counts: Vec<Option<u64>> = vec![None; peers.len()];
            for _ in 0..runs.max(1) {
                let (stdout, stderr, cpu) = run(Command::new(&cubesat)
                    .args(["solve", "--count", "--threads", "1", "--problem", &p])
                    .arg(&path))?;
                out = (stdout, stderr);
                times[0].push(cpu);
                for (k, &(b, reduced)) in peers.iter().enumerate() {
                    let (n, cpu) = burr(b, reduced)?;
                    peer_counts[k] = n;
                    times[1 + k].push(cpu);
                }
            }
            let cpu = median(&mut times[0]);
            let count = number_before(&out.0, "solution");
            let nodes = number_before(&out.1, "node");
            let mut peer = |reduced: bool| {
                let k = peers.iter().position(|&(_, r)| r == reduced)?;
                Some((peer_counts[k], median(&mut times[1 + k])))
            };
            let bt = peer(false);
            let btr = peer(true);
            let row = Row {
                file: name.clone(),
                problem,
                count,
                nodes,
                cubesat: cpu,
                burrtxt: bt,
                reduced: btr,
            };
            let agree = [row.burrtxt, row.reduced]
                .iter()
                .flatten()
                .all(|(n, _)| *n == row.count);
            println!(
                "{name} #{problem}: cubesat {} ({} nodes) {:.3} s{}{}{}",
                row.count.map_or("?".into(), |c| c.to_string()),
                row.nodes.map_or("?".into(), |c| c.to_string()),
                row.cubesat,
                row.burrtxt.map_or(String::new(), |(n, t)| format!(
                    "; burrTxt -q {} {t:.3} s",
                    n.map_or("?".into(), |c| c.to_string())
                )),
                row.reduced.map_or(String::new(), |(n, t)| format!(
                    "; burrTxt -q -r {} {t:.3} s",
                    n.map_or("?".into(), |c| c.to_string())
                )),
                if agree { "" } else { "  COUNTS DIFFER" }
            );
            anyhow::ensure!(agree, "{name} problem {problem}: the counts differ");
            rows.push(row);
        }
    }
    println!();
    let fmt = |c: Option<u64>| c.map_or("?".to_string(), |c| c.to_string());
    let mut head = "| file | # | count | cubesat nodes | cubesat (cpu s) |".to_string();
    let mut rule = "| --- | --- | --- | --- | --- |".to_string();
    if burrtxt.is_some() {
        head.push_str(" burrTxt -q (cpu s) | burrTxt / cubesat |");
        rule.push_str(" --- | --- |");
        if reduce {
            head.push_str(" burrTxt -q -r (cpu s) | burrTxt -r / cubesat |");
            rule.push_str(" --- | --- |");
        }
    }
    println!("{head}\n{rule}");
    let ratio = |b: f64, c: f64| {
        if c > 0.0 {
            format!("{:.1}x", b / c)
        } else {
            "-".to_string()
        }
    };
    for r in &rows {
        let mut line = format!(
            "| {} | {} | {} | {} | {:.3} |",
            r.file,
            r.problem,
            fmt(r.count),
            fmt(r.nodes),
            r.cubesat
        );
        for (_, t) in [r.burrtxt, r.reduced].iter().flatten() {
            line.push_str(&format!(" {t:.3} | {} |", ratio(*t, r.cubesat)));
        }
        println!("{line}");
    }
    if !skipped.is_empty() {
        println!(
            "\nSkipped (not the cube grid, or not read): {}",
            skipped.join(", ")
        );
    }
    Ok(())
}
