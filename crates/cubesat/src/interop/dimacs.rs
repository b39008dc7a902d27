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
//! c p show <option vars…> 0        (projection set, lines of ≤ 50 variables; by default)
//! c ind <option vars…> 0           (the same set, ApproxMC's older convention; on request)
//! p cnf V C
//! <clauses>
//! ```
//!
//! Option `o` is DIMACS variable `o + 1`; auxiliary variables follow. Forced options are unit
//! clauses. Model counts projected on the option variables equal the numbers of solutions.
//! The projection is written as `c p show` only by default ([`Projection`]): the
//! model-counting competition format since 2021, which d4 requires (it refuses a file with any
//! `c ind` line), Ganak and ApproxMC. CryptoMiniSat 5's projected enumeration (`--maxsol`)
//! reads only `c ind`: export it with [`Projection::Ind`] (or `Both`).
//! For a puzzle's export the caller's header lines are [`puzzle_header`]: the preamble and
//! provenance lines every export opens with.

use crate::error::{Context, Result, bail, ensure};

use crate::interop::format::{Format, Writer};
use crate::interop::provenance::{Preamble, write_preamble};
use crate::placements::PlacementTable;
use crate::plan::ExportPlan;
use crate::puzzle::Puzzle;
use cubesat_xc::ExactCover;
use cubesat_xc::encoding::{CnfConfig, CnfEncoder, CnfStats, ForcedMode};
use std::io::Write;
use varisat::dimacs::{DimacsHeader, write_dimacs_clauses, write_dimacs_header};
use varisat::{CnfFormula, ExtendFormula, Lit, Var};

pub use crate::plan::Projection;

/// The comment prefixes a projection choice writes, in file order.
fn prefixes(projection: Projection) -> &'static [&'static str] {
    match projection {
        Projection::Show => &["c p show"],
        Projection::Ind => &["c ind"],
        Projection::Both => &["c p show", "c ind"],
        Projection::None => &[],
    }
}

/// The format as `cubesat export` and the studio offer it.
pub const FORMAT: Format = Format {
    name: "dimacs",
    extension: "cnf",
    mime: "text/plain; charset=utf-8",
    about: "DIMACS CNF with a variable map and model-counting projection lines",
    writer: Writer::Instance(write_plan),
};

/// The comment text of an export: caller's header lines, one label per option, and the
/// projection lines to write.
#[derive(Clone, Copy, Debug)]
pub struct Annotations<'a> {
    /// Lines put behind `c ` after the type line.
    pub header: &'a [String],
    /// One label per option, for the variable map.
    pub labels: &'a [String],
    /// Which projection lines to write.
    pub projection: Projection,
}

/// Option variables per `c p show` / `c ind` line.
pub(crate) const VARS_PER_LINE: usize = 50;

/// Comment prefixes with a meaning to some tool; a caller's header line must not start with
/// one (`cubesat var ` is reserved for the variable map).
const RESERVED: [&str; 5] = ["t ", "p ", "ind ", "s ", "cubesat var "];

/// The header lines of the plan's export, for [`write()`] (which puts them behind `c `): the
/// preamble every export opens with ([`write_preamble`]) with the DIMACS lines (which variables
/// are placements, what to project model counts on), then the provenance lines, which describe
/// the plan's symmetry reduction as for the other formats.
pub fn puzzle_header(plan: &ExportPlan) -> Result<Vec<String>> {
    let (puzzle, table) = (plan.puzzle(), plan.table());
    let (mode, excluded, reduction) = (plan.up_to, plan.excluded(), plan.reduction.as_str());
    let variables = if table.hole_item(puzzle).is_some() {
        "Variable v (1-based) is placement v-1 up to the placements, then come the holes of the optional cells (an empty one covered by its hole, so each solution has one model; map below); higher variables are auxiliary."
    } else {
        "Variable v (1-based) is placement v-1 (map below); higher variables are auxiliary."
    };
    let preamble = Preamble {
        prefix: "",
        kind: "DIMACS CNF",
        solutions: "Models",
        overcount: None,
        lines: vec![
            variables.to_string(),
            "Project model counts on the placement variables (the 'c p show' or 'c ind' lines). Decode answers against this file with cubesat.".to_string(),
        ],
    };
    let mut text = Vec::new();
    write_preamble(
        &mut text, &preamble, puzzle, table, mode, excluded, reduction,
    )?;
    let text = String::from_utf8(text).context("DIMACS header is not UTF-8")?;
    Ok(text.lines().map(str::to_string).collect())
}

/// One label per option of the model for the variable map of [`write()`]: each placement's
/// piece, orientation and cells in container coordinates (`piece=L orient=3 cells=0,0,0
/// 1,0,0 ...`, a container index before each cell when the target has several), then, for a
/// puzzle with ranges, the holes of its optional cells in cell order (`hole cell=0:1,2,0`; see
/// [`PlacementTable::hole_item`]).
pub fn placement_labels(puzzle: &Puzzle, table: &PlacementTable) -> Vec<String> {
    let t = &puzzle.target;
    let holes = table.hole_item(puzzle).is_some();
    let hole_labels = (0..t.cells().len())
        .filter(move |&c| holes && t.cells()[c].optional)
        .map(|c| {
            let (ci, l) = t.local(c as u32);
            format!("hole cell={ci}:{},{},{}", l[0], l[1], l[2])
        });
    table
        .placements()
        .iter()
        .map(|p| {
            let cells: Vec<String> = p
                .cells
                .iter()
                .map(|&c| {
                    let (ci, l) = t.local(c);
                    if t.containers().len() > 1 {
                        format!("{ci}:{},{},{}", l[0], l[1], l[2])
                    } else {
                        format!("{},{},{}", l[0], l[1], l[2])
                    }
                })
                .collect();
            format!(
                "piece={} orient={} cells={}",
                puzzle.pieces[p.piece as usize].name,
                p.orientation,
                cells.join(" ")
            )
        })
        .chain(hole_labels)
        .collect()
}

/// Encodes `model` as a self-contained formula: forced options as positive units, `excluded`
/// options (a symmetry reduction) as negative units, so variable `o + 1` stays option `o`.
pub fn formula(
    model: &ExactCover,
    config: CnfConfig,
    excluded: &[u32],
) -> Result<(CnfFormula, CnfStats)> {
    let mut f = CnfFormula::new();
    let stats = encode(model, config, excluded, &mut f)?;
    f.set_var_count(stats.variables);
    Ok((f, stats))
}

/// The encoding of [`formula`] into any formula sink.
fn encode<F: ExtendFormula>(
    model: &ExactCover,
    config: CnfConfig,
    excluded: &[u32],
    f: &mut F,
) -> Result<CnfStats> {
    let mut stats = CnfEncoder::new(CnfConfig {
        forced: ForcedMode::Units,
        ..config
    })
    .encode(model, f)?;
    for &o in excluded {
        ensure!(
            (o as usize) < model.option_count(),
            "excluded option {o} is out of range"
        );
        f.add_clause(&[varisat::Lit::from_index(o as usize, false)]);
        stats.clauses += 1;
    }
    Ok(stats)
}

/// A formula sink that only numbers variables (the encoder's counts come from its stats).
#[derive(Default)]
struct Counter {
    vars: usize,
}

impl ExtendFormula for Counter {
    fn add_clause(&mut self, _: &[Lit]) {}
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }
}

/// A formula sink that writes each clause as a DIMACS line at once, keeping the first write
/// error.
struct Streamer<'w, W: Write> {
    out: &'w mut W,
    vars: usize,
    error: Option<std::io::Error>,
}

impl<W: Write> ExtendFormula for Streamer<'_, W> {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.error.is_none()
            && let Err(e) = write_dimacs_clauses(self.out, std::iter::once(clause.iter().copied()))
        {
            self.error = Some(e);
        }
    }
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }
}

/// Writes `model` as DIMACS to `out`, streamed: the formula is encoded twice, once to count
/// its variables and clauses for the `p cnf` line (`announce` hears the sizes before anything
/// is written) and once straight to `out`, so that memory does not grow with the formula.
/// The `text.header` lines become `c` comments after the type line (they may not contain
/// newlines or start with a reserved prefix such as `t `, `p `, `ind `); `text.labels` gives
/// one label per option (newlines are replaced by spaces). Returns the sizes.
pub fn write<W: Write>(
    out: &mut W,
    announce: impl FnOnce(&CnfStats),
    model: &ExactCover,
    config: CnfConfig,
    text: Annotations<'_>,
    excluded: &[u32],
) -> Result<CnfStats> {
    let Annotations {
        header,
        labels,
        projection,
    } = text;
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
    let mut counter = Counter::default();
    let stats = encode(model, config, excluded, &mut counter)?;
    announce(&stats);
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
        stats.option_vars, stats.variables, stats.clauses
    )?;
    for (o, label) in labels.iter().enumerate() {
        let label = label.replace(['\n', '\r'], " ");
        writeln!(out, "c cubesat var {} {label}", o + 1)?;
    }
    let n = stats.option_vars;
    for prefix in prefixes(projection) {
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
            var_count: stats.variables,
            clause_count: stats.clauses,
        },
    )?;
    let mut writer = Streamer {
        out,
        vars: 0,
        error: None,
    };
    encode(model, config, excluded, &mut writer)?;
    if let Some(e) = writer.error {
        return Err(e.into());
    }
    Ok(stats)
}

/// The writer of [`FORMAT`]: the plan's instance as DIMACS ([`write()`]) with the puzzle's
/// header ([`puzzle_header`]), its variable map ([`placement_labels`]) and the plan's
/// at-most-one encoding and projection lines; `announce` hears the sizes before the clauses
/// are streamed out (a pairwise encoding of a large puzzle runs to gigabytes).
pub fn write_plan(
    plan: &ExportPlan,
    out: &mut dyn Write,
    announce: &mut dyn FnMut(&CnfStats),
) -> Result<()> {
    let header = puzzle_header(plan)?;
    let labels = placement_labels(plan.puzzle(), plan.table());
    let config = CnfConfig {
        amo: plan.amo,
        ..CnfConfig::default()
    };
    let text = Annotations {
        header: &header,
        labels: &labels,
        projection: plan.projection,
    };
    // `write` takes a sized writer; `&mut dyn Write` is one.
    let mut out = out;
    write(
        &mut out,
        |stats| announce(stats),
        &plan.instance.model,
        config,
        text,
        plan.excluded(),
    )?;
    Ok(())
}
