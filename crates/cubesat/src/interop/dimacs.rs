//! Strict DIMACS CNF export of an [`ExactCover`] for external SAT solvers and (projected)
//! model counters.
//!
//! Layout, all comments before the `p` line so strict parsers accept the file:
//!
//! ```text
//! c t pmc                          (first line: MC-competition problem type)
//! c <caller's header lines>        (puzzle, counting mode, …)
//! c cubesat encoding amo=<name> forced=units piece-amo=<kept|dropped>
//! c cubesat counts options=<n> variables=<V> clauses=<C>
//! c cubesat var <v> <option label>   (one per option variable, 1-based)
//! c p show <option vars…> 0        (projection set, split into lines of ≤ 50 variables)
//! c ind <option vars…> 0           (the same set in the ApproxMC/CryptoMiniSat convention)
//! p cnf V C
//! <clauses>
//! ```
//!
//! Option `o` is DIMACS variable `o + 1`; auxiliary variables follow. Forced options are unit
//! clauses. Model counts projected on the option variables equal the numbers of solutions.
//! For a puzzle's export the caller's header lines are [`puzzle_header`]: the preamble and
//! provenance lines every export opens with.

use crate::error::{Context, Result, bail, ensure};

use crate::counting::UpTo;
use crate::interop::provenance::{Preamble, write_preamble};
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use cubesat_xc::ExactCover;
use cubesat_xc::encoding::{CnfConfig, CnfEncoder, CnfStats, ForcedMode};
use std::io::Write;
use varisat::dimacs::{DimacsHeader, write_dimacs_clauses, write_dimacs_header};
use varisat::{CnfFormula, ExtendFormula};

/// Option variables per `c p show` / `c ind` line.
pub(crate) const VARS_PER_LINE: usize = 50;

/// Comment prefixes with a meaning to some tool; a caller's header line must not start with
/// one (`cubesat var ` is reserved for the variable map).
const RESERVED: [&str; 5] = ["t ", "p ", "ind ", "s ", "cubesat var "];

/// The header lines of `puzzle`'s export, for [`write()`] (which puts them behind `c `): the
/// preamble every export opens with ([`write_preamble`]) with the DIMACS lines (which variables
/// are placements, what to project model counts on), then the provenance lines. `mode`,
/// `excluded` and `reduction` describe the symmetry reduction as for the other formats.
pub fn puzzle_header(
    puzzle: &Puzzle,
    table: &PlacementTable,
    mode: UpTo,
    excluded: &[u32],
    reduction: &str,
) -> Result<Vec<String>> {
    let preamble = Preamble {
        prefix: "",
        kind: "DIMACS CNF",
        solutions: "Models",
        overcount: None,
        lines: vec![
            "Variable v (1-based) is placement v-1 (map below); higher variables are auxiliary.".to_string(),
            "Project model counts on the 'c p show' / 'c ind' variables. Decode answers with: cubesat decode THIS-FILE ANSWER".to_string(),
        ],
    };
    let mut text = Vec::new();
    write_preamble(
        &mut text, &preamble, puzzle, table, mode, excluded, reduction,
    )?;
    let text = String::from_utf8(text).context("DIMACS header is not UTF-8")?;
    Ok(text.lines().map(str::to_string).collect())
}

/// Encodes `model` as a self-contained formula: forced options as positive units, `excluded`
/// options (a symmetry reduction) as negative units, so variable `o + 1` stays option `o`.
pub fn formula(
    model: &ExactCover,
    config: CnfConfig,
    excluded: &[u32],
) -> Result<(CnfFormula, CnfStats)> {
    let mut f = CnfFormula::new();
    let mut stats = CnfEncoder::new(CnfConfig {
        forced: ForcedMode::Units,
        ..config
    })
    .encode(model, &mut f)?;
    for &o in excluded {
        ensure!(
            (o as usize) < model.option_count(),
            "excluded option {o} is out of range"
        );
        f.add_clause(&[varisat::Lit::from_index(o as usize, false)]);
        stats.clauses += 1;
    }
    f.set_var_count(stats.variables);
    Ok((f, stats))
}

/// Writes `model` as DIMACS to `out`. `header` lines become `c` comments after the type line
/// (they may not contain newlines or start with a reserved prefix such as `t `, `p `, `ind `);
/// `labels` gives one label per option (newlines are replaced by spaces). Returns the sizes.
pub fn write<W: Write>(
    out: &mut W,
    model: &ExactCover,
    config: CnfConfig,
    header: &[String],
    labels: &[String],
    excluded: &[u32],
) -> Result<CnfStats> {
    ensure!(
        labels.len() == model.option_count(),
        "{} option labels for {} options",
        labels.len(),
        model.option_count()
    );
    for (i, line) in header.iter().enumerate() {
        ensure!(
            !line.contains(['\n', '\r']),
            "header line {} contains a line break",
            i + 1
        );
        if let Some(p) = RESERVED
            .iter()
            .find(|p| line.starts_with(*p) || line == p.trim_end())
        {
            bail!(
                "header line {} starts with the reserved comment prefix {p:?}",
                i + 1
            );
        }
    }
    let (f, stats) = formula(model, config, excluded)?;
    writeln!(out, "c t pmc")?;
    for line in header {
        if line.is_empty() {
            writeln!(out, "c")?;
        } else {
            writeln!(out, "c {line}")?;
        }
    }
    writeln!(
        out,
        "c cubesat encoding amo={} forced=units piece-amo={}",
        config.amo,
        if stats.piece_amo_dropped {
            "dropped"
        } else {
            "kept"
        }
    )?;
    writeln!(
        out,
        "c cubesat counts options={} variables={} clauses={}",
        stats.option_vars,
        f.var_count(),
        f.len()
    )?;
    for (o, label) in labels.iter().enumerate() {
        let label = label.replace(['\n', '\r'], " ");
        writeln!(out, "c cubesat var {} {label}", o + 1)?;
    }
    let n = stats.option_vars;
    for prefix in ["c p show", "c ind"] {
        let vars: Vec<usize> = (1..=n).collect();
        if vars.is_empty() {
            writeln!(out, "{prefix} 0")?;
        }
        for chunk in vars.chunks(VARS_PER_LINE) {
            write!(out, "{prefix}")?;
            for v in chunk {
                write!(out, " {v}")?;
            }
            writeln!(out, " 0")?;
        }
    }
    write_dimacs_header(
        out,
        DimacsHeader {
            var_count: f.var_count(),
            clause_count: f.len(),
        },
    )?;
    write_dimacs_clauses(out, f.iter())?;
    Ok(stats)
}
