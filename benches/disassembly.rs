//! Disassembly benchmark: cubesat's analyser against BurrTools' disassembler (`burrTxt -x`,
//! which takes apart the assemblies saved in a file and nothing else) on the same assemblies,
//! one thread each, in the same run: assemblies and states per second, CPU seconds, the ratio.
//!
//! `cargo bench --bench disassembly -- [--burrtxt PATH] [--repeat R] [FILE[:PROBLEM] ...]`
//!
//! Without files it runs cubesat's own test puzzles (tests/data/disassembly). The assemblies
//! are burrTxt's own when `--burrtxt` is given (`burrTxt -s` prints every assembly; its
//! pictures give each piece's cells in BurrTools' orientation and order), else cubesat's
//! listing turned into BurrTools' orientation ([`cubesat::disassembly::orient`]). Both tools
//! then analyse every assembly `R` times (default: enough for about a second of cubesat's
//! time): cubesat in this process (`Disassembler::analyse`, BurrTools' rule, a fresh analyser
//! each round as burrTxt starts afresh), burrTxt on a copy of the file holding the assemblies,
//! `R` times over, as saved solutions (its CPU time from the child's rusage, less that of the
//! same file with none saved). Solutions and first-separation moves must agree; cubesat's
//! state counts are BurrTools' own (same search, same order), so states per second compare
//! the same work. With `--whole` it also times the whole `cubesat solve --count
//! --disassemble` against `burrTxt -d` (assembling included; both processes' CPU seconds).
//!
//! The BurrTools example files are not part of cubesat: fetch them (github
//! burr-tools/burr-tools, `examples/`) and pass their paths.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cpu_time::ProcessTime;
use cubesat::UpTo;
use cubesat::disassembly::orient::{Orienter, transformations};
use cubesat::disassembly::{Disassembler, Mode, Placed, solutions};
use cubesat::geometry::Cell;
use cubesat::puzzle::burrtools::{self, BurrFile, State};
use cubesat::run::{self, Instance, RunOptions};

/// One workload: a problem of a file and its assemblies in BurrTools' order and orientation,
/// cells in the result's voxel coordinates.
struct Workload {
    name: String,
    path: PathBuf,
    problem: usize,
    file: BurrFile,
    inst: Instance,
    assemblies: Vec<Vec<Placed>>,
}

/// The CPU seconds (user + system) of this process's finished children so far.
fn children_cpu() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } != 0 {
        return 0.0;
    }
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// Runs a command to its end: (stdout, CPU seconds).
fn run_child(cmd: &mut Command) -> anyhow::Result<(String, f64)> {
    let before = children_cpu();
    let out = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output()?;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        children_cpu() - before,
    ))
}

fn read_xml(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut s)?;
        Ok(s)
    } else {
        Ok(String::from_utf8(bytes)?)
    }
}

/// The smallest corner of the problem's result voxels (file coordinates): cubesat's target
/// coordinates are these less this corner.
fn result_corner(file: &BurrFile, problem: usize) -> Cell {
    let r = &file.shapes[file.problems[problem].result];
    [0, 1, 2].map(|a| r.voxels.iter().map(|v| v.0[a]).min().unwrap_or(0))
}

/// The assemblies `burrTxt -s` prints: per assembly, each placed piece's cells (result
/// coordinates), in BurrTools' piece order.
fn burrtxt_assemblies(
    burrtxt: &Path,
    path: &Path,
    problem: usize,
) -> anyhow::Result<Vec<Vec<Vec<Cell>>>> {
    let (text, _) = run_child(
        Command::new(burrtxt)
            .arg("-s")
            .arg("-o")
            .arg(problem.to_string())
            .arg(path),
    )?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = lines
        .iter()
        .position(|l| l.starts_with("-------"))
        .unwrap_or(lines.len());
    while i < lines.len() {
        if !lines[i].trim_start().starts_with("+-") {
            i += 1;
            continue;
        }
        i += 1;
        let mut pieces: HashMap<usize, Vec<Cell>> = HashMap::new();
        let mut y = 0;
        while i < lines.len() && !lines[i].trim_start().starts_with("+-") {
            for (k, block) in lines[i].split('!').enumerate().filter(|(k, _)| k % 2 == 1) {
                for (x, ch) in block.chars().enumerate() {
                    if ch != ' ' {
                        pieces.entry(ch as usize - 'a' as usize).or_default().push([
                            x as i32,
                            y,
                            (k / 2) as i32,
                        ]);
                    }
                }
            }
            y += 1;
            i += 1;
        }
        i += 1;
        out.push(
            (0..pieces.len())
                .map(|k| pieces.remove(&k).unwrap_or_default())
                .collect(),
        );
    }
    Ok(out)
}

/// The part each piece of an assembly is a copy of: the first whose shape fits its cells.
fn parts_of(inst: &Instance, pieces: &[Vec<Cell>], corner: Cell) -> anyhow::Result<Vec<usize>> {
    pieces
        .iter()
        .map(|cells| {
            let mut idx: Vec<u32> = cells
                .iter()
                .map(|c| {
                    inst.puzzle
                        .target
                        .cell_at([c[0] - corner[0], c[1] - corner[1], c[2] - corner[2]])
                        .ok_or_else(|| anyhow::anyhow!("a picture cell outside the target"))
                })
                .collect::<anyhow::Result<_>>()?;
            idx.sort_unstable();
            (0..inst.puzzle.pieces.len() as u32)
                .find(|&p| inst.table.find(p, &idx).is_some())
                .map(|p| p as usize)
                .ok_or_else(|| anyhow::anyhow!("a piece of no part"))
        })
        .collect()
}

fn workload(spec: &str, burrtxt: Option<&Path>) -> anyhow::Result<Workload> {
    let (path, problem) = match spec.rsplit_once(':') {
        Some((p, n)) if n.parse::<usize>().is_ok() => (PathBuf::from(p), n.parse()?),
        _ => (PathBuf::from(spec), 0),
    };
    let bytes = std::fs::read(&path)?;
    let file = burrtools::parse(&bytes, &path.display().to_string())?;
    let inst = Instance::new(file.puzzle(problem)?)?;
    let corner = result_corner(&file, problem);
    let assemblies = match burrtxt {
        Some(b) => burrtxt_assemblies(b, &path, problem)?
            .into_iter()
            .map(|a| {
                let parts = parts_of(&inst, &a, corner)?;
                Ok(a.into_iter()
                    .zip(parts)
                    .map(|(cells, part)| Placed { part, cells })
                    .collect())
            })
            .collect::<anyhow::Result<_>>()?,
        None => {
            let mut sols = Vec::new();
            let opts = RunOptions {
                up_to: UpTo::BurrTools,
                threads: 1,
                ..RunOptions::default()
            };
            run::list(&inst, &opts, |s| {
                sols.push(s.clone());
                true
            })?;
            let o = Orienter::new(&inst);
            sols.iter()
                .map(|s| {
                    o.orient(&inst, s)
                        .pieces
                        .into_iter()
                        .map(|p| Placed {
                            part: p.part,
                            cells: p
                                .cells
                                .iter()
                                .map(|c| [c[0] + corner[0], c[1] + corner[1], c[2] + corner[2]])
                                .collect(),
                        })
                        .collect()
                })
                .collect()
        }
    };
    let name = format!(
        "{}{}",
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        if problem > 0 {
            format!(" #{problem}")
        } else {
            String::new()
        }
    );
    Ok(Workload {
        name,
        path,
        problem,
        file,
        inst,
        assemblies,
    })
}

/// The `<assembly>` text of an assembly: per BurrTools piece (every copy of every part),
/// `x y z t` (the position the shape's voxel origin goes to, and the rotation) or `x`.
fn assembly_text(w: &Workload, pieces: &[Placed]) -> String {
    let prob = &w.file.problems[w.problem];
    let all = transformations();
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    // cubesat's parts are the file's parts with at least one copy, in order.
    let mut cubesat_part = 0;
    for part in &prob.parts {
        if part.max == 0 {
            continue;
        }
        let shape: Vec<Cell> = w.file.shapes[part.shape]
            .voxels
            .iter()
            .filter(|v| v.1 == State::Fixed)
            .map(|v| v.0)
            .collect();
        let mut placed = 0;
        while k < pieces.len() && pieces[k].part == cubesat_part {
            let cells = &pieces[k].cells;
            let lo = [0, 1, 2].map(|a| cells.iter().map(|c| c[a]).min().unwrap_or(0));
            let mut want: Vec<Cell> = cells
                .iter()
                .map(|c| [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]])
                .collect();
            want.sort_unstable();
            let (t, pos) = (0..24)
                .find_map(|t| {
                    let m = &all[t];
                    let turned: Vec<Cell> = shape
                        .iter()
                        .map(|c| {
                            std::array::from_fn(|i| {
                                m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]
                            })
                        })
                        .collect();
                    let tl = [0, 1, 2].map(|a| turned.iter().map(|c| c[a]).min().unwrap_or(0));
                    let mut got: Vec<Cell> = turned
                        .iter()
                        .map(|c| [c[0] - tl[0], c[1] - tl[1], c[2] - tl[2]])
                        .collect();
                    got.sort_unstable();
                    (got == want).then_some((t, [lo[0] - tl[0], lo[1] - tl[1], lo[2] - tl[2]]))
                })
                .expect("every piece is a rotation of its part");
            out.push(format!("{} {} {} {t}", pos[0], pos[1], pos[2]));
            placed += 1;
            k += 1;
        }
        for _ in placed..part.max {
            out.push("x".into());
        }
        cubesat_part += 1;
    }
    out.join(" ")
}

/// The file with problem `problem`'s saved solutions replaced by these assemblies, each
/// `repeat` times.
fn with_assemblies(xml: &str, problem: usize, texts: &[String], repeat: usize) -> String {
    // The problem's start tag: `<problem` then a space or `>` (not `<problems>`).
    let starts: Vec<usize> = xml
        .match_indices("<problem")
        .map(|(i, _)| i)
        .filter(|&i| matches!(xml.as_bytes().get(i + 8), Some(b' ') | Some(b'>')))
        .collect();
    let start = starts[problem];
    let end = start + xml[start..].find("</problem>").unwrap_or(0);
    let mut body = xml[start..end].to_string();
    if let (Some(a), Some(b)) = (body.find("<solutions"), body.find("</solutions>")) {
        body.replace_range(a..b + "</solutions>".len(), "");
    }
    let mut sols = String::from("<solutions>\n");
    for _ in 0..repeat {
        for t in texts {
            sols.push_str(&format!("<solution><assembly>{t}</assembly></solution>\n"));
        }
    }
    sols.push_str("</solutions>\n");
    format!("{}{body}{sols}{}", &xml[..start], &xml[end..])
}

struct Row {
    name: String,
    assemblies: usize,
    solutions: usize,
    states: u64,
    repeat: usize,
    cubesat: f64,
    burrtxt: Option<f64>,
    whole: Option<(f64, f64)>,
    /// Level strings of the solutions, with how many have each.
    levels: String,
}

fn bench(
    w: &Workload,
    burrtxt: Option<&Path>,
    repeat: Option<usize>,
    whole: bool,
) -> anyhow::Result<Row> {
    let parts = solutions::parts(&w.inst.puzzle);
    // Shift the cells into cubesat's target coordinates (the same assembly, translated).
    let corner = result_corner(&w.file, w.problem);
    let local: Vec<Vec<Placed>> = w
        .assemblies
        .iter()
        .map(|a| {
            a.iter()
                .map(|p| Placed {
                    part: p.part,
                    cells: p
                        .cells
                        .iter()
                        .map(|c| [c[0] - corner[0], c[1] - corner[1], c[2] - corner[2]])
                        .collect(),
                })
                .collect()
        })
        .collect();
    let round = |firsts: &mut Vec<Option<usize>>| -> anyhow::Result<u64> {
        let mut d = Disassembler::new(w.inst.puzzle.grid, parts.clone())?;
        let mut states = 0;
        firsts.clear();
        for a in &local {
            let o = d
                .analyse(a, Mode::BurrTools, &|| false)
                .map_err(|h| anyhow::anyhow!("{h}"))?;
            states += o.states;
            firsts.push(o.tree.map(|t| t.moves()));
        }
        Ok(states)
    };
    let mut firsts = Vec::new();
    let t = ProcessTime::now();
    let states = round(&mut firsts)?;
    let once = t.elapsed().as_secs_f64();
    let repeat = repeat.unwrap_or(((1.0 / once.max(1e-4)) as usize).clamp(1, 200));
    let t = ProcessTime::now();
    for _ in 0..repeat {
        round(&mut firsts)?;
    }
    let cubesat = t.elapsed().as_secs_f64() / repeat as f64;
    let solutions = firsts.iter().filter(|f| f.is_some()).count();
    // The level strings, untimed: burrTxt -d prints them for the solutions it finds.
    let mut levels: std::collections::BTreeMap<String, usize> = Default::default();
    let mut d = Disassembler::new(w.inst.puzzle.grid, parts.clone())?;
    for a in &local {
        let o = d
            .analyse(a, Mode::BurrTools, &|| false)
            .map_err(|h| anyhow::anyhow!("{h}"))?;
        if let Some(t) = o.tree {
            *levels.entry(t.level()).or_default() += 1;
        }
    }
    let levels = levels
        .iter()
        .map(|(l, n)| format!("{l} x{n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut row = Row {
        name: w.name.clone(),
        assemblies: local.len(),
        solutions,
        states,
        repeat,
        cubesat,
        burrtxt: None,
        whole: None,
        levels,
    };
    let Some(b) = burrtxt else { return Ok(row) };
    let xml = read_xml(&w.path)?;
    let texts: Vec<String> = w.assemblies.iter().map(|a| assembly_text(w, a)).collect();
    let dir = tempfile::tempdir()?;
    let write = |name: &str, n: usize| -> anyhow::Result<PathBuf> {
        let p = dir.path().join(name);
        std::fs::File::create(&p)?
            .write_all(with_assemblies(&xml, w.problem, &texts, n).as_bytes())?;
        Ok(p)
    };
    let (full, empty) = (write("full.xml", repeat)?, write("empty.xml", 0)?);
    let x = |p: &Path| {
        run_child(
            Command::new(b)
                .arg("-x")
                .arg("-o")
                .arg(w.problem.to_string())
                .arg(p),
        )
    };
    let (out, cpu) = x(&full)?;
    let (_, base) = x(&empty)?;
    // burrTxt -x prints `level: M` (the first separation's moves) per saved solution that
    // comes apart: the same solutions, with the same first moves, as cubesat's.
    let levels: Vec<usize> = out
        .lines()
        .filter_map(|l| l.strip_prefix("level: ")?.trim().parse().ok())
        .collect();
    let mine: Vec<usize> = firsts.iter().flatten().copied().collect();
    let expected: Vec<usize> = (0..repeat).flat_map(|_| mine.iter().copied()).collect();
    anyhow::ensure!(
        levels == expected,
        "{}: burrTxt -x found {} solutions over {repeat} rounds, cubesat {} (or their first moves differ)",
        w.name,
        levels.len(),
        expected.len()
    );
    row.burrtxt = Some((cpu - base).max(0.0) / repeat as f64);
    if whole {
        let (_, bt) = run_child(
            Command::new(b)
                .arg("-d")
                .arg("-q")
                .arg("-o")
                .arg(w.problem.to_string())
                .arg(&w.path),
        )?;
        let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/cubesat");
        let (_, cs) = run_child(
            Command::new(exe)
                .args([
                    "solve",
                    "--disassemble",
                    "--count",
                    "--threads",
                    "1",
                    "-q",
                    "--problem",
                ])
                .arg(w.problem.to_string())
                .arg(&w.path),
        )?;
        row.whole = Some((cs, bt));
    }
    Ok(row)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let (mut burrtxt, mut repeat, mut whole, mut files) = (None, None, false, Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--burrtxt" => burrtxt = args.next().map(PathBuf::from),
            "--repeat" => repeat = args.next().and_then(|r| r.parse().ok()),
            "--whole" => whole = true,
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        let own = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/disassembly");
        files = [
            "maze.xmpuzzle:0",
            "maze.xmpuzzle:1",
            "maze.xmpuzzle:2",
            "rings.xmpuzzle",
            "burr.xmpuzzle",
        ]
        .iter()
        .map(|f| format!("{own}/{f}"))
        .collect();
    }
    let mut rows = Vec::new();
    for f in &files {
        let w = workload(f, burrtxt.as_deref())?;
        let row = bench(&w, burrtxt.as_deref(), repeat, whole)?;
        eprintln!(
            "{}: {} assemblies, {} solutions (levels {}), {} states; cubesat {:.4} s{}",
            row.name,
            row.assemblies,
            row.solutions,
            row.levels,
            row.states,
            row.cubesat,
            row.burrtxt.map_or(String::new(), |b| format!(
                ", burrTxt {b:.4} s, {:.1}x",
                b / row.cubesat.max(1e-9)
            ))
        );
        rows.push(row);
    }
    println!(
        "| problem | assemblies | solutions | states | rounds | cubesat CPU s | assemblies/s | states/s | burrTxt -x CPU s | assemblies/s | states/s | burrTxt / cubesat |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let rate = |n: f64, s: f64| {
        if s > 0.0 {
            format!("{:.0}", n / s)
        } else {
            "-".into()
        }
    };
    let (mut tc, mut tb) = (0.0, 0.0);
    for r in &rows {
        tc += r.cubesat;
        tb += r.burrtxt.unwrap_or(0.0);
        println!(
            "| {} | {} | {} | {} | {} | {:.4} | {} | {} | {} | {} | {} | {} |",
            r.name,
            r.assemblies,
            r.solutions,
            r.states,
            r.repeat,
            r.cubesat,
            rate(r.assemblies as f64, r.cubesat),
            rate(r.states as f64, r.cubesat),
            r.burrtxt.map_or("-".into(), |b| format!("{b:.4}")),
            r.burrtxt
                .map_or("-".into(), |b| rate(r.assemblies as f64, b)),
            r.burrtxt.map_or("-".into(), |b| rate(r.states as f64, b)),
            r.burrtxt
                .map_or("-".into(), |b| format!("{:.1}x", b / r.cubesat.max(1e-9))),
        );
    }
    if burrtxt.is_some() {
        println!(
            "| all | | | | | {tc:.4} | | | {tb:.4} | | | {:.1}x |",
            tb / tc.max(1e-9)
        );
    }
    if rows.iter().any(|r| r.whole.is_some()) {
        println!(
            "\n| problem | cubesat solve --count --disassemble (CPU s) | burrTxt -d (CPU s) | ratio |"
        );
        println!("| --- | --- | --- | --- |");
        for r in &rows {
            if let Some((c, b)) = r.whole {
                println!("| {} | {c:.3} | {b:.3} | {:.1}x |", r.name, b / c.max(1e-9));
            }
        }
    }
    Ok(())
}
