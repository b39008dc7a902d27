//! Decoding an external solver's answer to an exported instance (DIMACS, DLX or ASP) back into verified puzzle solutions, using only the instance file and the answer.
//!
//! The instance's provenance lines ([`crate::interop::provenance`]) give the puzzle, the
//! counting mode and the excluded placements; the placements are rebuilt and checked against
//! the recorded digest, the answer is parsed by the reader of the instance's format, and every
//! solution passes the [`Verifier`] before it is returned.

use crate::error::{Context, Result, bail, ensure};

use crate::counting::{Reducer, UpTo};
use crate::interop::provenance::{Provenance, read_provenance};
use crate::interop::{ParsedAnswer, Status, asp, dlx};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::solution::Verifier;

/// The format of an exported instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstanceKind {
    /// DIMACS CNF (`c` comments, `p cnf`).
    Dimacs,
    /// Knuth's DLX format (`|` comments).
    Dlx,
    /// A clingo program (`%` comments).
    Asp,
}

/// A decoded answer: the instance's puzzle and mode, and its verified solutions.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The instance's format.
    pub kind: InstanceKind,
    /// The puzzle embedded in the instance.
    pub puzzle: Puzzle,
    /// The counting mode of the export.
    pub mode: UpTo,
    /// Placements the export left out.
    pub excluded: Vec<u32>,
    /// The placements rebuilt from the puzzle (solutions index into it).
    pub table: PlacementTable,
    /// The solver's verdict.
    pub status: Status,
    /// Verified solutions, each its placement indices ascending, in answer order.
    pub solutions: Vec<Vec<u32>>,
    /// How many solutions the solver reports, if it says.
    pub reported_count: Option<u64>,
    /// Whether the solver says it enumerated everything.
    pub complete: Option<bool>,
    /// For each solution, its weight under the export's symmetry reduction
    /// ([`Reducer::weight`]): 1 for the one counted solution of each class, 0 for the other
    /// members of its class the export still admits. All 1 for mode `none`.
    pub weights: Vec<u64>,
    /// Models of a SAT answer left out because they repeat an earlier model's placements
    /// (they differ only in auxiliary variables).
    pub repeats: u64,
}

impl Decoded {
    /// The number of solutions counted in the export's mode: the sum of the weights. Equal to
    /// the puzzle's count in that mode when the solver enumerated every answer.
    pub fn counted(&self) -> u64 {
        self.weights.iter().sum()
    }
}

/// Detects an instance's format from its first non-blank line.
pub(crate) fn detect_kind(instance_text: &str) -> Result<InstanceKind> {
    for line in instance_text.lines() {
        let l = line.trim_start();
        if l.is_empty() {
            continue;
        }
        return Ok(if l.starts_with('c') || l.starts_with("p cnf") {
            InstanceKind::Dimacs
        } else if l.starts_with('|') {
            InstanceKind::Dlx
        } else if l.starts_with('%') {
            InstanceKind::Asp
        } else {
            bail!(
                "line 1: not an exported instance (expected DIMACS 'c'/'p cnf', DLX '|' or ASP '%' comment lines first)"
            )
        });
    }
    bail!("the instance file is empty")
}

/// Decodes `answer_text`, a solver's output for the instance `instance_text` (a file written by
/// cubesat export): rebuilds the puzzle's placements from the instance's provenance, parses
/// the answer with the reader for the instance's format, and verifies every solution.
pub fn decode(instance_text: &str, answer_text: &str) -> Result<Decoded> {
    let kind = detect_kind(instance_text)?;
    let prov = read_provenance(instance_text).context("instance")?;
    let expected_prefix = match kind {
        InstanceKind::Dimacs => "c ",
        InstanceKind::Dlx => "| ",
        InstanceKind::Asp => "% ",
    };
    ensure!(
        prov.prefix == expected_prefix,
        "instance: provenance lines behind '{}' in a {kind:?} file",
        crate::echo::echo(prov.prefix.trim())
    );
    let table = prov.placement_table().context("instance")?;
    let parsed = match kind {
        InstanceKind::Dlx => dlx::parse_answer(answer_text, &prov.puzzle, &table),
        InstanceKind::Asp => asp::parse_answer(answer_text, table.len()),
        InstanceKind::Dimacs => sat_answer(answer_text, table.len(), cnf_variables(instance_text)?),
    }
    .context("answer")?;
    finish(kind, prov, table, parsed)
}

fn finish(
    kind: InstanceKind,
    prov: Provenance,
    table: PlacementTable,
    parsed: ParsedAnswer,
) -> Result<Decoded> {
    let verifier = Verifier::new(&prov.puzzle, &table);
    verifier.check_placements()?;
    // A solution listed twice would be counted twice: no solver lists one twice, so the
    // answer is refused (SAT models that differ only in auxiliary variables were merged
    // before, where the models are known).
    let mut first: std::collections::HashMap<&[u32], usize> = std::collections::HashMap::new();
    for (i, s) in parsed.solutions.iter().enumerate() {
        if let Some(&j) = first.get(s.as_slice()) {
            let at = |k: usize| {
                parsed
                    .places
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| format!("solution {}", k + 1))
            };
            bail!(
                "answer: {}: this solution repeats the one at {} (a solver lists each solution once)",
                at(i),
                at(j)
            );
        }
        first.insert(s, i);
    }
    for (i, s) in parsed.solutions.iter().enumerate() {
        verifier
            .verify(s)
            .with_context(|| format!("answer: solution {} does not solve the puzzle", i + 1))?;
        if let Some(e) = s.iter().find(|o| prov.excluded.binary_search(o).is_ok()) {
            bail!(
                "answer: solution {} uses placement {e}, which the instance excludes: the answer is not for this instance",
                i + 1
            );
        }
    }
    // Weights need the same reduction as the export; rebuild it and compare the exclusions.
    let weights = if prov.mode == UpTo::None {
        vec![1; parsed.solutions.len()]
    } else {
        let reducer = Reducer::new(&prov.puzzle, &table, prov.mode, false)?;
        let mut ex = reducer.excluded().to_vec();
        ex.sort_unstable();
        ensure!(
            ex == prov.excluded,
            "instance: the symmetry reduction rebuilt here excludes other placements than the file lists; it was written by another cubesat version"
        );
        parsed.solutions.iter().map(|s| reducer.weight(s)).collect()
    };
    Ok(Decoded {
        kind,
        puzzle: prov.puzzle,
        mode: prov.mode,
        excluded: prov.excluded,
        table,
        status: parsed.status,
        solutions: parsed.solutions,
        reported_count: parsed.reported_count,
        complete: parsed.complete,
        weights,
        repeats: parsed.repeats,
    })
}

/// The variable count `V` of a DIMACS instance's `p cnf V C` line, if it has one.
fn cnf_variables(instance_text: &str) -> Result<Option<u32>> {
    for (i, line) in instance_text.lines().enumerate() {
        let mut words = line.split_whitespace();
        if words.next() == Some("p") && words.next() == Some("cnf") {
            let v = words.next().and_then(|w| w.parse::<u32>().ok());
            return match v {
                Some(v) => Ok(Some(v)),
                None => crate::error::bail_at!(
                    format!("instance: line {}", i + 1),
                    "the 'p cnf' line has no variable count"
                ),
            };
        }
    }
    Ok(None)
}

/// Reads SAT-solver output with [`crate::interop::sat`] (literals above the instance's
/// `variables` refused) and maps the true placement variables of each model (variable `v` is
/// placement `v - 1`; variables above `option_count` are auxiliaries) to a solution. Models
/// that give the same placements as an earlier one (they differ only in auxiliaries, as an
/// unprojected enumeration lists them) are one solution, kept once.
fn sat_answer(text: &str, option_count: usize, variables: Option<u32>) -> Result<ParsedAnswer> {
    use crate::interop::sat::parse_for;
    let out = parse_for(text, variables)?;
    let mut seen = std::collections::HashSet::new();
    let mut solutions = Vec::new();
    let mut places = Vec::new();
    let mut repeats = 0;
    for m in &out.models {
        let s = m.options(option_count);
        if seen.insert(s.clone()) {
            solutions.push(s);
            places.push(format!("line {}", m.line));
        } else {
            repeats += 1;
        }
    }
    Ok(ParsedAnswer {
        status: out.status,
        solutions,
        reported_count: out.reported_solutions,
        complete: out.complete,
        places,
        repeats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::bundled;
    use cubesat_xc::ExactCover;

    /// The first solution of a small exact-cover model (items of need 1 only), by Algorithm X.
    fn first_solution(m: &ExactCover) -> Vec<u32> {
        fn go(m: &ExactCover, by: &[Vec<u32>], used: &mut [bool], chosen: &mut Vec<u32>) -> bool {
            let free =
                |o: u32, used: &[bool]| m.options[o as usize].iter().all(|&i| !used[i as usize]);
            let best = (0..m.items.len())
                .filter(|&i| m.items[i].need > 0 && !used[i])
                .min_by_key(|&i| by[i].iter().filter(|&&o| free(o, used)).count());
            let Some(i) = best else { return true };
            for &o in &by[i] {
                if !free(o, used) {
                    continue;
                }
                for &j in &m.options[o as usize] {
                    used[j as usize] = true;
                }
                chosen.push(o);
                if go(m, by, used, chosen) {
                    return true;
                }
                chosen.pop();
                for &j in &m.options[o as usize] {
                    used[j as usize] = false;
                }
            }
            false
        }
        let mut used = vec![false; m.items.len()];
        let mut chosen = Vec::new();
        assert!(go(m, &m.options_by_item(), &mut used, &mut chosen));
        chosen.sort_unstable();
        chosen
    }

    #[test]
    fn detects_kinds() {
        assert_eq!(
            detect_kind("\nc x\np cnf 1 1\n").unwrap(),
            InstanceKind::Dimacs
        );
        assert_eq!(detect_kind("| x\n").unwrap(), InstanceKind::Dlx);
        assert_eq!(detect_kind("% x\n").unwrap(), InstanceKind::Asp);
        assert!(detect_kind("hello").is_err());
    }

    #[test]
    fn decodes_a_dlx_answer_and_rejects_wrong_ones() {
        let p = bundled("soma").unwrap();
        let text = dlx::export(&p, UpTo::None).unwrap();
        let t = PlacementTable::new(&p).unwrap();
        let names = dlx::DlxNames::new(&p, &t);
        // Find one solution with cubesat's own model by brute force over the file's options.
        let sol = first_solution(&t.model(&p));
        let mut answer = String::from("1:\n");
        for &o in &sol {
            let pl = &t.placements()[o as usize];
            let cells: Vec<&str> = pl
                .cells
                .iter()
                .map(|&c| names.cells[c as usize].as_str())
                .collect();
            answer.push_str(&format!(
                " {} {} (1 of 9)\n",
                cells.join(" "),
                names.pieces[pl.piece as usize]
            ));
        }
        answer.push_str("Altogether 1 solutions, 1+2 mems\n");
        let d = decode(&text, &answer).unwrap();
        assert_eq!(d.solutions, vec![sol.clone()]);
        assert_eq!(d.reported_count, Some(1));
        assert_eq!(d.counted(), 1);
        // Drop a line: the verifier refuses.
        let short: String = answer.lines().take(3).map(|l| format!("{l}\n")).collect();
        let e = decode(&text, &short).unwrap_err().report();
        assert!(e.contains("does not solve the puzzle"), "{e}");
    }
}
