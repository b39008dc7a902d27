//! ASP (clingo) export: generated facts for one puzzle plus the rule template `cubesat.lp` (beside this file), and reading clingo's answers (text or `--outf=2` JSON) back into placements.
//!
//! The facts describe cubesat's exact-cover model: pieces with counts or ranges, placements
//! (options) with the cells they cover, must-fill and optional cells, the hole limit, hints. Placements left out by the
//! symmetry reduction get no `placement/2` fact, so they can never be chosen. The answer is the
//! set of `place(O)` atoms, `O` being cubesat's placement index.

use std::collections::HashSet;
use std::io::Write;

use crate::error::{Context, Result, bail};
use serde_json::Value;

use crate::counting::UpTo;
use crate::interop::format::{Format, Writer};
use crate::interop::provenance::{Preamble, write_preamble};
use crate::interop::{ParsedAnswer, Status};
use crate::placements::PlacementTable;
use crate::plan::ExportPlan;
use crate::puzzle::Puzzle;

/// The rules, appended to every export.
pub(crate) const TEMPLATE: &str = include_str!("cubesat.lp");

/// The format as `cubesat export` and the studio offer it.
pub const FORMAT: Format = Format {
    name: "asp",
    extension: "lp",
    mime: "text/plain; charset=utf-8",
    about: "A clingo program",
    writer: Writer::Instance(|plan, out, _| write_asp(out, plan)),
};

/// Exports `puzzle` in `mode` as a clingo program (see [`super::to_text`]).
pub fn export(puzzle: &Puzzle, mode: UpTo) -> Result<String> {
    super::to_text(puzzle, mode, write_asp)
}

/// An ASP string literal.
fn quoted(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Writes the plan's clingo program: explanatory `%` comments, the provenance lines, the facts
/// (no placement fact for an option the plan's reduction excludes) and the rule template.
pub fn write_asp(out: &mut dyn Write, plan: &ExportPlan) -> Result<()> {
    // The helpers take a sized writer; `&mut dyn Write` is one.
    let mut out = out;
    let out = &mut out;
    let (puzzle, table) = (plan.puzzle(), plan.table());
    let (mode, excluded, reduction) = (plan.up_to, plan.excluded(), plan.reduction.as_str());
    let target = &puzzle.target;
    let preamble = Preamble {
        prefix: "% ",
        kind: "clingo program",
        solutions: "Answer sets",
        overcount: Some("clingo's model count"),
        lines: vec![
            "Run: clingo -n 0 FILE > ANSWER   (or python3 -m clingo; --outf=2 for JSON)   then decode ANSWER against FILE with cubesat".to_string(),
            "Facts first (described in the rules section at the end), then the rules.".to_string(),
        ],
    };
    write_preamble(out, &preamble, puzzle, table, mode, excluded, reduction)?;
    writeln!(out)?;
    writeln!(
        out,
        "% Pieces: piece(P,Count) or piece_range(P,Min,Max), piece_name(P,Name)."
    )?;
    for (p, piece) in puzzle.pieces.iter().enumerate() {
        let count = if piece.is_ranged() {
            format!("piece_range({p},{},{})", piece.min_count, piece.count)
        } else {
            format!("piece({p},{})", piece.count)
        };
        writeln!(out, "{count}. piece_name({p},{}).", quoted(&piece.name))?;
    }
    if let Some(h) = puzzle.max_holes {
        writeln!(out, "% At most this many optional cells stay empty.")?;
        writeln!(out, "max_holes({h}).")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "% Cells: must(X,Y,Z,C) / optional(X,Y,Z,C), local coordinates in container C."
    )?;
    for (i, c) in target.cells().iter().enumerate() {
        let (ci, l) = target.local(i as u32);
        let kind = if c.optional { "optional" } else { "must" };
        writeln!(out, "{kind}({},{},{},{ci}).", l[0], l[1], l[2])?;
    }
    writeln!(out)?;
    if !table.hints().is_empty() {
        writeln!(out, "% Hints: hint(O).")?;
        for h in table.hints() {
            writeln!(out, "hint({h}).")?;
        }
        writeln!(out)?;
    }
    let excluded: HashSet<u32> = excluded.iter().copied().collect();
    writeln!(
        out,
        "% Placements: placement(O,P), orient(O,R), at(O,X,Y,Z,C), covers(O,X,Y,Z,C).{}",
        if excluded.is_empty() {
            String::new()
        } else {
            format!(
                " {} placements are left out by the symmetry reduction.",
                excluded.len()
            )
        }
    )?;
    write_placements(out, puzzle, table, &excluded)?;
    writeln!(out)?;
    out.write_all(TEMPLATE.as_bytes())?;
    Ok(())
}

/// One line of facts per placement not in `excluded`: its piece, orientation, lowest corner
/// and covered cells, in container-local coordinates.
fn write_placements(
    out: &mut impl Write,
    puzzle: &Puzzle,
    table: &PlacementTable,
    excluded: &HashSet<u32>,
) -> Result<()> {
    let target = &puzzle.target;
    for (o, p) in table.placements().iter().enumerate() {
        if excluded.contains(&(o as u32)) {
            continue;
        }
        let locals: Vec<(u32, [i32; 3])> = p.cells.iter().map(|&c| target.local(c)).collect();
        let ci = locals.first().map_or(0, |l| l.0);
        let mut min = [i32::MAX; 3];
        for (_, l) in &locals {
            for a in 0..3 {
                min[a] = min[a].min(l[a]);
            }
        }
        write!(
            out,
            "placement({o},{}). orient({o},{}). at({o},{},{},{},{ci}).",
            p.piece, p.orientation, min[0], min[1], min[2]
        )?;
        for (c, l) in &locals {
            write!(out, " covers({o},{},{},{},{c}).", l[0], l[1], l[2])?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The placement index of a `place(O)` atom; other atoms give `None`.
fn place_atom(atom: &str, option_count: usize) -> Result<Option<u32>> {
    let Some(arg) = atom
        .strip_prefix("place(")
        .and_then(|a| a.strip_suffix(')'))
    else {
        return Ok(None);
    };
    let shown = crate::echo::echo(atom);
    let o: u32 = arg.parse().map_err(|_| {
        crate::error::Error::input("", format!("'{shown}' is not place(PLACEMENT)"))
    })?;
    if o as usize >= option_count {
        bail!("'{shown}' names a placement that does not exist");
    }
    Ok(Some(o))
}

fn solution(atoms: &[&str], option_count: usize) -> Result<Vec<u32>> {
    let mut s = Vec::new();
    for a in atoms {
        if let Some(o) = place_atom(a, option_count)? {
            s.push(o);
        }
    }
    s.sort_unstable();
    s.dedup();
    Ok(s)
}

/// Reads clingo's output: the text format (`Answer: N` then a line of atoms, `SATISFIABLE` /
/// `UNSATISFIABLE` / `UNKNOWN`, `Models : N` or `N+`) or the JSON of `--outf=2`. Only `place/1`
/// atoms are used. Solutions are not verified here. Errors name the line.
pub(crate) fn parse_answer(text: &str, option_count: usize) -> Result<ParsedAnswer> {
    if text.trim_start().starts_with('{') {
        return parse_json(text, option_count);
    }
    let mut status = None;
    let mut solutions = Vec::new();
    let mut places = Vec::new();
    let mut reported = None;
    let mut complete = None;
    let mut expect_atoms = false;
    let mut seen_clingo = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if expect_atoms {
            expect_atoms = false;
            let atoms: Vec<&str> = line.split_whitespace().collect();
            solutions.push(solution(&atoms, option_count).with_context(|| format!("line {n}"))?);
            places.push(format!("line {n}"));
            continue;
        }
        if line.starts_with("Answer:") {
            expect_atoms = true;
            seen_clingo = true;
            continue;
        }
        match line {
            "SATISFIABLE" | "OPTIMUM FOUND" => status = Some(Status::Sat),
            "UNSATISFIABLE" => status = Some(Status::Unsat),
            "UNKNOWN" => status = Some(Status::Unknown),
            _ => {}
        }
        if status.is_some() {
            seen_clingo = true;
        }
        if let Some(rest) = line.strip_prefix("Models")
            && let Some(v) = rest.trim_start().strip_prefix(':')
        {
            let v = v.trim();
            let (num, more) = match v.strip_suffix('+') {
                Some(num) => (num, true),
                None => (v, false),
            };
            reported = Some(num.parse::<u64>().map_err(|_| {
                crate::error::Error::input(
                    format!("line {n}"),
                    format!("bad model count '{}'", crate::echo::echo(v)),
                )
            })?);
            complete = Some(!more);
        }
        if line.starts_with("*** ERROR") {
            crate::error::bail_at!(format!("line {n}"), "clingo reported an error: {line}");
        }
    }
    if expect_atoms {
        // An `Answer:` line at the very end with an empty atom line cut off.
        solutions.push(Vec::new());
        places.push(format!("line {}", text.lines().count()));
    }
    if !seen_clingo {
        bail!(
            "not clingo output (no 'Answer:' line and no SATISFIABLE/UNSATISFIABLE/UNKNOWN line)"
        );
    }
    let status = status.unwrap_or(if solutions.is_empty() {
        Status::Unknown
    } else {
        Status::Sat
    });
    Ok(ParsedAnswer {
        status,
        solutions,
        reported_count: reported,
        complete,
        places,
        repeats: 0,
    })
}

fn parse_json(text: &str, option_count: usize) -> Result<ParsedAnswer> {
    let v: Value = serde_json::from_str(text).context("clingo JSON output (--outf=2)")?;
    let status = match v.get("Result").and_then(Value::as_str) {
        Some("SATISFIABLE") | Some("OPTIMUM FOUND") => Status::Sat,
        Some("UNSATISFIABLE") => Status::Unsat,
        Some(_) | None => Status::Unknown,
    };
    let mut solutions = Vec::new();
    let mut places = Vec::new();
    let calls = v.get("Call").and_then(Value::as_array);
    for (ci, call) in calls.into_iter().flatten().enumerate() {
        let witnesses = call.get("Witnesses").and_then(Value::as_array);
        for (wi, w) in witnesses.into_iter().flatten().enumerate() {
            let atoms: Vec<&str> = w
                .get("Value")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            solutions.push(
                solution(&atoms, option_count)
                    .with_context(|| format!("Call[{ci}].Witnesses[{wi}]"))?,
            );
            places.push(format!("Call[{ci}].Witnesses[{wi}]"));
        }
    }
    let models = v.get("Models");
    let reported = models.and_then(|m| m.get("Number")).and_then(Value::as_u64);
    let complete = models
        .and_then(|m| m.get("More"))
        .and_then(Value::as_str)
        .map(|m| m == "no");
    Ok(ParsedAnswer {
        status,
        solutions,
        reported_count: reported,
        complete,
        places,
        repeats: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::bundled;

    #[test]
    fn export_has_facts_for_every_kept_placement_and_the_rules() {
        let p = bundled("soma").unwrap();
        let t = PlacementTable::new(&p).unwrap();
        let r = crate::counting::Reducer::new(&p, &t, UpTo::Rotation, false).unwrap();
        let text = export(&p, UpTo::Rotation).unwrap();
        let facts = text.lines().filter(|l| l.starts_with("placement(")).count();
        assert_eq!(facts, t.len() - r.excluded().len());
        assert_eq!(text.lines().filter(|l| l.starts_with("must(")).count(), 27);
        assert!(text.contains("#show place/1."));
        assert!(text.starts_with("% clingo program"));
        assert_eq!(quoted("a\"b\\"), "\"a\\\"b\\\\\"");
    }

    #[test]
    fn reads_text_and_json_output() {
        let text = "clingo version 5.8.3\nReading from x.lp\nSolving...\nAnswer: 1 (Time: 0.001s)\nplace(3) place(1) other(2)\nAnswer: 2\n\nSATISFIABLE\n\nModels       : 2+\nCalls        : 1\n";
        let a = parse_answer(text, 5).unwrap();
        assert_eq!(a.solutions, vec![vec![1, 3], vec![]]);
        assert_eq!(a.status, Status::Sat);
        assert_eq!(a.reported_count, Some(2));
        assert_eq!(a.complete, Some(false));
        let e = parse_answer("Answer: 1\nplace(9)\n", 5)
            .unwrap_err()
            .report();
        assert!(e.starts_with("line 2: 'place(9)'"), "{e}");
        assert_eq!(
            parse_answer("UNSATISFIABLE\n", 5).unwrap().status,
            Status::Unsat
        );
        assert!(parse_answer("hello\n", 5).is_err());
        let json = r#"{"Call": [{"Witnesses": [{"Value": ["place(2)", "place(0)"]}]}], "Result": "SATISFIABLE", "Models": {"Number": 1, "More": "no"}}"#;
        let a = parse_answer(json, 5).unwrap();
        assert_eq!(a.solutions, vec![vec![0, 2]]);
        assert_eq!(a.complete, Some(true));
    }
}
