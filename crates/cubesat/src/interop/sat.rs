//! The SAT-solver output reader: SAT-competition output (`s …` status lines, `v …`
//! value lines in any order, possibly before the `s` line as clasp prints them, `c`
//! comments; several models when the output enumerates, as `picosat --all` and
//! `clasp -n 0` do, or as CryptoMiniSat's `--maxsol N` does: `s SATISFIABLE` and a model per
//! solution, then `s UNSATISFIABLE` when the list is complete) and MiniSat's result file
//! (`SAT` then a literal line ending in `0`, `UNSAT`, or `INDET`).
//!
//! [`parse_model_count`] reads model counters' answers (MC-competition lines).
//!
//! Variables are DIMACS numbers (1-based); [`SatModel::options`] maps them to 0-based
//! option indices (option `o` is variable `o + 1`). Decoded solutions must still be
//! checked against the model by the caller.

use crate::error::{Result, bail};
use std::collections::BTreeSet;

use crate::interop::Status;

/// One model: the variables assigned true (DIMACS numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SatModel {
    /// True variables, 1-based.
    pub true_vars: BTreeSet<u32>,
    /// The line the model starts on (its first value line), from 1.
    pub line: usize,
}

impl SatModel {
    /// The 0-based option indices among the true variables (variables `1..=option_count`),
    /// ascending: the candidate solution.
    pub fn options(&self, option_count: usize) -> Vec<u32> {
        self.true_vars
            .iter()
            .filter(|&&v| (v as usize) <= option_count)
            .map(|&v| v - 1)
            .collect()
    }
}

/// A parsed output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SatOutput {
    /// The status.
    pub status: Status,
    /// The models, in output order (empty unless satisfiable).
    pub models: Vec<SatModel>,
    /// The number picosat reports in `s SOLUTIONS n`, if present.
    pub reported_solutions: Option<u64>,
    /// `Some(true)` when the output says its list of models is complete (an enumeration
    /// that ends with `s UNSATISFIABLE` after its models); `None` when it does not say.
    pub complete: Option<bool>,
}

/// Parses either style: a first non-blank line `SAT`, `UNSAT` or `INDET` means a MiniSat
/// result file, anything else SAT-competition output.
pub fn parse(text: &str) -> Result<SatOutput> {
    parse_for(text, None)
}

/// [`parse`] for the answer to a formula of `variables` variables (its `p cnf` line): a
/// literal above them is refused with its line, since the answer is then for another formula.
pub fn parse_for(text: &str, variables: Option<u32>) -> Result<SatOutput> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        Some("SAT" | "UNSAT" | "INDET") => parse_minisat(text, variables),
        _ => parse_competition(text, variables),
    }
}

/// The model being read: its true variables and the ones given false so far, to refuse a
/// variable given both ways.
#[derive(Default)]
struct Open {
    model: SatModel,
    false_vars: BTreeSet<u32>,
}

/// Adds the literals of one value line to `current`; returns true when the line ends the
/// model with `0`. A variable given both true and false, or above `variables`, is refused.
fn add_literals(
    words: &mut dyn Iterator<Item = &str>,
    current: &mut Option<Open>,
    lineno: usize,
    variables: Option<u32>,
) -> Result<bool> {
    let open = current.get_or_insert_with(|| Open {
        model: SatModel {
            line: lineno,
            ..SatModel::default()
        },
        false_vars: BTreeSet::new(),
    });
    let mut ended = false;
    for w in words {
        if ended {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "literal {w:?} after the terminating 0"
            );
        }
        let lit: i64 = match w.parse() {
            Ok(v) => v,
            Err(_) => crate::error::bail_at!(format!("line {lineno}"), "{w:?} is not a literal"),
        };
        if lit == 0 {
            ended = true;
            continue;
        }
        let Ok(v) = u32::try_from(lit.unsigned_abs()) else {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "variable {} is out of range",
                lit.unsigned_abs()
            );
        };
        if let Some(n) = variables
            && v > n
        {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "literal {lit}: the formula has only {n} variables (an answer to another formula?)"
            );
        }
        let (this, other) = if lit > 0 {
            (&mut open.model.true_vars, &open.false_vars)
        } else {
            (&mut open.false_vars, &open.model.true_vars)
        };
        if other.contains(&v) {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "variable {v} is given both true and false in the model starting on line {}",
                open.model.line
            );
        }
        this.insert(v);
    }
    Ok(ended)
}

/// Adds a finished model to `models`, refusing one identical to an earlier model (an
/// enumeration lists each model once; a repeat means the output was doubled or is not one
/// solver's enumeration). `seen` maps a hash of each model's true variables to its index.
fn push_model(
    models: &mut Vec<SatModel>,
    seen: &mut std::collections::HashMap<u64, Vec<usize>>,
    open: Open,
) -> Result<()> {
    use std::hash::{Hash, Hasher};
    let m = open.model;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    m.true_vars.hash(&mut h);
    let same = seen.entry(h.finish()).or_default();
    if let Some(&k) = same.iter().find(|&&k| models[k].true_vars == m.true_vars) {
        crate::error::bail_at!(
            format!("line {}", m.line),
            "this model repeats the model of line {} (an enumeration lists each model once)",
            models[k].line
        );
    }
    same.push(models.len());
    models.push(m);
    Ok(())
}

/// Parses SAT-competition output.
pub(crate) fn parse_competition(text: &str, variables: Option<u32>) -> Result<SatOutput> {
    let mut reader = Competition {
        variables,
        status: None,
        models: Vec::new(),
        seen: std::collections::HashMap::new(),
        current: None,
        open_since: 0,
        reported: None,
        complete: None,
    };
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if line.is_empty() || line == "c" || line.starts_with("c ") {
            continue;
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("s") => reader.status_line(lineno, line, words.collect())?,
            Some("v") => reader.value_line(lineno, &mut words)?,
            _ => crate::error::bail_at!(
                format!("line {lineno}"),
                "expected a `c`, `s` or `v` line, found {line:?}"
            ),
        }
    }
    reader.end()
}

/// What SAT-competition output has said so far, line by line ([`parse_competition`]).
struct Competition {
    /// The formula's variables, when known: a literal above them is refused.
    variables: Option<u32>,
    /// The status and its line.
    status: Option<(Status, usize)>,
    models: Vec<SatModel>,
    /// The models by a hash of their true variables ([`push_model`]).
    seen: std::collections::HashMap<u64, Vec<usize>>,
    /// The model whose value lines have not ended yet, and its first line.
    current: Option<Open>,
    open_since: usize,
    /// `s SOLUTIONS n` and its line.
    reported: Option<(u64, usize)>,
    complete: Option<bool>,
}

impl Competition {
    /// An `s` line (`rest`, the words after the `s`): the status, or picosat's count.
    fn status_line(&mut self, lineno: usize, line: &str, rest: Vec<&str>) -> Result<()> {
        let s = match rest.as_slice() {
            ["SATISFIABLE"] => Status::Sat,
            ["UNSATISFIABLE"] => Status::Unsat,
            ["UNKNOWN"] => Status::Unknown,
            ["SOLUTIONS", n] => {
                match n.parse() {
                    Ok(n) => self.reported = Some((n, lineno)),
                    Err(_) => {
                        crate::error::bail_at!(format!("line {lineno}"), "bad solution count {n:?}")
                    }
                }
                return Ok(());
            }
            _ => crate::error::bail_at!(format!("line {lineno}"), "unknown status line {line:?}"),
        };
        // An enumerating solver (CryptoMiniSat --maxsol) closes its list of models
        // with UNSATISFIABLE: no further solution, not a contradiction.
        if s == Status::Unsat && !self.models.is_empty() && self.current.is_none() {
            self.complete = Some(true);
            return Ok(());
        }
        if self.complete.is_some() {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "status line after the UNSATISFIABLE that ended the list of models"
            );
        }
        if let Some((old, at)) = self.status
            && old != s
        {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "status {s:?} contradicts {old:?} on line {at}"
            );
        }
        self.status = Some((s, lineno));
        Ok(())
    }

    /// A `v` line (`words`, the literals after the `v`): added to the open model, which it
    /// may end.
    fn value_line(&mut self, lineno: usize, words: &mut dyn Iterator<Item = &str>) -> Result<()> {
        if self.complete.is_some() {
            crate::error::bail_at!(
                format!("line {lineno}"),
                "value line after the UNSATISFIABLE that ended the list of models"
            );
        }
        if self.current.is_none() {
            self.open_since = lineno;
        }
        if add_literals(words, &mut self.current, lineno, self.variables)?
            && let Some(open) = self.current.take()
        {
            push_model(&mut self.models, &mut self.seen, open)?;
        }
        Ok(())
    }

    /// The output once every line is read: no model left open, picosat's count matched.
    fn end(self) -> Result<SatOutput> {
        if self.current.is_some() {
            crate::error::bail_at!(
                format!("line {}", self.open_since),
                "value lines starting here do not end with 0"
            );
        }
        let status = self.status.map_or(Status::Unknown, |(s, _)| s);
        // picosat --all closes a whole enumeration with `s SOLUTIONS n`.
        let mut complete = self.complete;
        if let Some((n, at)) = self.reported {
            if n != self.models.len() as u64 {
                crate::error::bail_at!(
                    format!("line {at}"),
                    "the output reports {n} solutions but lists {} models",
                    self.models.len()
                );
            }
            complete = Some(true);
        }
        finish(status, self.models, self.reported.map(|(n, _)| n), complete)
    }
}

fn finish(
    status: Status,
    models: Vec<SatModel>,
    reported: Option<u64>,
    complete: Option<bool>,
) -> Result<SatOutput> {
    if status != Status::Sat && !models.is_empty() {
        bail!("the output has value lines but its status is {status:?}");
    }
    Ok(SatOutput {
        status,
        models,
        reported_solutions: reported,
        complete,
    })
}

/// Parses a MiniSat result file (`minisat in.cnf out.txt`).
pub(crate) fn parse_minisat(text: &str, variables: Option<u32>) -> Result<SatOutput> {
    let mut status = None;
    let mut models = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut current = None;
    let mut open_since = 0;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        match (status, line) {
            (None, "SAT") => status = Some(Status::Sat),
            (None, "UNSAT") => status = Some(Status::Unsat),
            (None, "INDET") => status = Some(Status::Unknown),
            (None, _) => crate::error::bail_at!(
                format!("line {lineno}"),
                "expected SAT, UNSAT or INDET, found {line:?}"
            ),
            (Some(Status::Sat), _) => {
                if current.is_none() {
                    open_since = lineno;
                }
                if add_literals(
                    &mut line.split_whitespace(),
                    &mut current,
                    lineno,
                    variables,
                )? && let Some(open) = current.take()
                {
                    push_model(&mut models, &mut seen, open)?;
                }
            }
            (Some(_), _) => {
                crate::error::bail_at!(format!("line {lineno}"), "unexpected text after the status")
            }
        }
    }
    if current.is_some() {
        crate::error::bail_at!(
            format!("line {open_since}"),
            "the model starting here does not end with 0"
        );
    }
    let status = status.unwrap_or(Status::Unknown);
    if status == Status::Sat && models.is_empty() {
        bail!("SAT without a model line");
    }
    finish(status, models, None, None)
}

/// A model counter's answer (MC-competition output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelCount {
    /// An exact count, as printed (`c s exact arb int N`, `s mc N`; `s UNSATISFIABLE`
    /// gives `"0"`). Kept as decimal text: counts can exceed `u128`.
    Exact(String),
    /// An approximate or floating-point count, as printed (`c s approx arb int N`,
    /// `c s exact double prec-sci X`).
    Approximate(String),
    /// Only `c s log10-estimate X` was given: the base-10 logarithm of the count.
    Log10Estimate(String),
}

/// Reads a model counter's output: `c s exact arb int N`, `s mc N` (MC 2020),
/// `c s approx arb int N`, `c s exact double prec-sci X`, `c s log10-estimate X`, and
/// `s UNSATISFIABLE` (count 0). An exact integer wins over everything else.
pub fn parse_model_count(text: &str) -> Result<ModelCount> {
    let mut exact: Option<String> = None;
    let mut approx: Option<String> = None;
    let mut log10: Option<String> = None;
    let mut unsat = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let words: Vec<&str> = raw.split_whitespace().collect();
        let integer = |w: &str| -> Result<String> {
            if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
                Ok(w.to_string())
            } else {
                crate::error::bail_at!(
                    format!("line {lineno}"),
                    "{w:?} is not a non-negative integer"
                )
            }
        };
        match words.as_slice() {
            ["c", "s", "exact", "arb", "int", n] | ["s", "mc", n] => {
                let n = integer(n)?;
                if let Some(old) = &exact
                    && *old != n
                {
                    crate::error::bail_at!(
                        format!("line {lineno}"),
                        "count {n} contradicts an earlier count {old}"
                    );
                }
                exact = Some(n);
            }
            ["c", "s", "approx", "arb", "int", n] => approx = Some(integer(n)?),
            ["c", "s", "exact", "double", _, x] => approx = Some((*x).to_string()),
            ["c", "s", "log10-estimate", x] => log10 = Some((*x).to_string()),
            ["s", "UNSATISFIABLE"] => unsat = true,
            _ => {}
        }
    }
    if unsat {
        if exact
            .as_ref()
            .is_some_and(|n| !n.trim_start_matches('0').is_empty())
        {
            bail!("the output says UNSATISFIABLE but reports a positive count");
        }
        return Ok(ModelCount::Exact("0".into()));
    }
    if let Some(n) = exact {
        return Ok(ModelCount::Exact(n));
    }
    approx
        .map(ModelCount::Approximate)
        .or(log10.map(ModelCount::Log10Estimate))
        .ok_or_else(|| crate::error::Error::input("", "no model count found in the output"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(m: &SatModel) -> Vec<u32> {
        m.true_vars.iter().copied().collect()
    }

    #[test]
    fn cryptominisat_maxsol_list_ends_with_unsatisfiable() {
        let out =
            parse("s SATISFIABLE\nv 1 -2 0\ns SATISFIABLE\nv -1 2 0\ns UNSATISFIABLE\n").unwrap();
        assert_eq!(out.status, Status::Sat);
        assert_eq!(out.models.len(), 2);
        assert_eq!(out.complete, Some(true));
        // A contradiction is still one: UNSATISFIABLE first, then a model.
        assert!(parse("s UNSATISFIABLE\ns SATISFIABLE\nv 1 0\n").is_err());
        assert!(parse("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\nv 2 0\n").is_err());
    }

    #[test]
    fn cadical_style() {
        let out = parse("c comment\ns SATISFIABLE\nv -1 2 3\nv -4 5 0\n").unwrap();
        assert_eq!(out.status, Status::Sat);
        assert_eq!(out.models.len(), 1);
        assert_eq!(vars(&out.models[0]), vec![2, 3, 5]);
        assert_eq!(out.models[0].options(3), vec![1, 2]);
    }

    #[test]
    fn clasp_value_before_status_and_unordered() {
        let out = parse("c clasp\nv 5 -3 1 0\ns SATISFIABLE\nc Models : 1\n").unwrap();
        assert_eq!(out.status, Status::Sat);
        assert_eq!(vars(&out.models[0]), vec![1, 5]);
    }

    #[test]
    fn several_models() {
        // picosat --all
        let text = "s SATISFIABLE\nv 1 -2 0\ns SATISFIABLE\nv -1 2 0\ns SOLUTIONS 2\n";
        let out = parse(text).unwrap();
        assert_eq!(out.models.len(), 2);
        assert_eq!(out.reported_solutions, Some(2));
        assert_eq!(vars(&out.models[1]), vec![2]);
        // clasp -n 0
        let out = parse("v 1 -2 0\nv -1 2\nv 0\ns SATISFIABLE\n").unwrap();
        assert_eq!(out.models.len(), 2);
    }

    #[test]
    fn unsat_and_unknown() {
        let out = parse("c x\ns UNSATISFIABLE\n").unwrap();
        assert_eq!(out.status, Status::Unsat);
        assert!(out.models.is_empty());
        assert_eq!(parse("s UNKNOWN\n").unwrap().status, Status::Unknown);
        assert_eq!(parse("").unwrap().status, Status::Unknown);
    }

    #[test]
    fn minisat_files() {
        let out = parse("SAT\n1 -2 3 0\n").unwrap();
        assert_eq!(out.status, Status::Sat);
        assert_eq!(vars(&out.models[0]), vec![1, 3]);
        assert_eq!(parse("UNSAT\n").unwrap().status, Status::Unsat);
        assert_eq!(parse("INDET\n").unwrap().status, Status::Unknown);
    }

    #[test]
    fn model_counts() {
        let ganak =
            "c t pmc\ns SATISFIABLE\nc s type pmc\nc s log10-estimate 0.477\nc s exact arb int 3\n";
        assert_eq!(
            parse_model_count(ganak).unwrap(),
            ModelCount::Exact("3".into())
        );
        assert_eq!(
            parse_model_count("s mc 12\n").unwrap(),
            ModelCount::Exact("12".into())
        );
        assert_eq!(
            parse_model_count("s UNSATISFIABLE\n").unwrap(),
            ModelCount::Exact("0".into())
        );
        assert_eq!(
            parse_model_count("c s approx arb int 96\n").unwrap(),
            ModelCount::Approximate("96".into())
        );
        assert_eq!(
            parse_model_count("c s log10-estimate 2.5\n").unwrap(),
            ModelCount::Log10Estimate("2.5".into())
        );
        assert!(parse_model_count("c nothing\n").is_err());
        let e = parse_model_count("c s exact arb int 3x\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1"), "{e}");
        assert!(parse_model_count("s mc 1\nc s exact arb int 2\n").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("s SATISFIABLE\nv 1 x 0\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse("s SATISFIABLE\nv 1 2\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("0"), "{e}");
        let e = parse("s SATISFIABLE\ns UNSATISFIABLE\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("line 1"), "{e}");
        let e = parse("c\nhello\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse("SAT\n1 2 0\nUNSAT\n").unwrap_err().to_string();
        assert!(e.contains("line 3"), "{e}");
        let e = parse("s SATISFIABLE\nv 1 0 2\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        assert!(parse("s UNSATISFIABLE\nv 1 0\n").is_err());
    }
}
