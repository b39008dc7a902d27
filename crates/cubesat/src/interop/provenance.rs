//! The comment lines every exported instance opens with: a preamble for people and the provenance lines, so `cubesat decode INSTANCE ANSWER` can map a solver's answer back to placements with no other file.
//!
//! [`write_preamble`] writes the whole opening for every format: what wrote the file for which
//! puzzle, what its solutions count, the format's own lines, then the provenance lines
//! ([`write_header`]), behind the format's comment prefix (`c ` for DIMACS, `| ` for Knuth's
//! DLX format, `% ` for ASP):
//!
//! ```text
//! | cubesat-provenance 1
//! | cubesat-puzzle {"name":"Soma cube",...}
//! | cubesat-mode rotation
//! | cubesat-options 1144 fnv1a64=0123456789abcdef
//! | cubesat-excluded-count 120
//! | cubesat-excluded 3 17 42 ...
//! ```
//!
//! - `cubesat-puzzle`: the puzzle as compact JSON ([`crate::puzzle::json::to_value`]) on one
//!   line, so placements can be rebuilt ([`crate::placements::PlacementTable::new`]);
//! - `cubesat-mode`: the counting mode of the export (`none`, `rotation`,
//!   `rotation+reflection`);
//! - `cubesat-options`: the number of placements of the puzzle (options of the model before
//!   anything is excluded; DIMACS variable `v` is placement `v - 1`) and a digest of the
//!   placement list, so a reader rebuilding the table from the embedded puzzle detects a
//!   different numbering (another cubesat version) instead of decoding garbage;
//! - `cubesat-excluded-count` and `cubesat-excluded` (any number of lines, 20 indices each):
//!   the placements left out by the symmetry reduction ([`crate::counting::Reducer::excluded`]).

use std::io::{self, Write};

use crate::error::{Context, Result, bail, ensure};

use crate::counting::UpTo;
use crate::placements::PlacementTable;
use crate::puzzle::Puzzle;
use crate::puzzle::json::{from_value, to_value};

/// The comment prefixes [`read_provenance`] recognises, one per format.
pub(crate) const PREFIXES: [&str; 3] = ["c ", "| ", "% "];

/// Version of the provenance lines.
const VERSION: &str = "1";

/// Excluded placement indices per `cubesat-excluded` line.
const EXCLUDED_PER_LINE: usize = 20;

/// What an exported instance says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Provenance {
    /// The puzzle the instance was made from.
    pub puzzle: Puzzle,
    /// The counting mode of the export.
    pub mode: UpTo,
    /// Placements left out by the symmetry reduction, ascending.
    pub excluded: Vec<u32>,
    /// Number of placements of the puzzle when it was exported.
    pub option_count: usize,
    /// Digest of the placement list ([`options_digest`]) when it was exported.
    pub digest: u64,
    /// The comment prefix the lines were found behind (one of [`PREFIXES`]).
    pub prefix: &'static str,
    /// Line number (1-based) of the `cubesat-options` line, for error messages.
    pub options_line: usize,
}

impl Provenance {
    /// Rebuilds the placements from the embedded puzzle and checks they are the ones the
    /// instance was written with (count and digest), and that the excluded placements exist.
    pub(crate) fn placement_table(&self) -> Result<PlacementTable> {
        let table = PlacementTable::new(&self.puzzle)
            .context("rebuilding the placements of the embedded puzzle")?;
        let digest = options_digest(&table);
        ensure!(
            table.len() == self.option_count && digest == self.digest,
            "line {}: the embedded puzzle rebuilds {} placements (digest {digest:016x}) but the file was written with {} (digest {:016x}); it was probably written by another cubesat version",
            self.options_line,
            table.len(),
            self.option_count,
            self.digest
        );
        if let Some(&e) = self.excluded.iter().find(|&&e| e as usize >= table.len()) {
            bail!("excluded placement {e} does not exist");
        }
        Ok(table)
    }
}

/// A digest (64-bit FNV-1a) of the placement list: every placement's piece and cells in
/// order. Equal digests mean the same option numbering.
pub(crate) fn options_digest(table: &PlacementTable) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u32| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(table.len() as u32);
    for p in table.placements() {
        eat(p.piece);
        eat(p.cells.len() as u32);
        for &c in &p.cells {
            eat(c);
        }
    }
    h
}

/// Writes the provenance lines, each behind `prefix` (`"c "`, `"| "` or `"% "`): the puzzle,
/// the mode, the number and digest of `table`'s placements (so a reader can check that
/// rebuilding them from the puzzle gives the same options) and `excluded`, the placements the
/// symmetry reduction left out (any order).
pub fn write_header(
    out: &mut impl Write,
    prefix: &str,
    puzzle: &Puzzle,
    table: &PlacementTable,
    mode: UpTo,
    excluded: &[u32],
) -> io::Result<()> {
    let (option_count, digest) = (table.len(), options_digest(table));
    // The catalog record (sources, findings) says nothing about placements: left out, it
    // would only lengthen every export.
    let bare = Puzzle {
        catalog: None,
        ..puzzle.clone()
    };
    let json = serde_json::to_string(&to_value(&bare)).map_err(io::Error::other)?;
    let mut excluded = excluded.to_vec();
    excluded.sort_unstable();
    excluded.dedup();
    writeln!(
        out,
        "{prefix}cubesat-provenance {VERSION} (the lines below let cubesat decode answers to this file)"
    )?;
    writeln!(out, "{prefix}cubesat-puzzle {json}")?;
    writeln!(out, "{prefix}cubesat-mode {mode}")?;
    writeln!(
        out,
        "{prefix}cubesat-options {option_count} fnv1a64={digest:016x}"
    )?;
    writeln!(out, "{prefix}cubesat-excluded-count {}", excluded.len())?;
    for chunk in excluded.chunks(EXCLUDED_PER_LINE) {
        let list: Vec<String> = chunk.iter().map(|e| e.to_string()).collect();
        writeln!(out, "{prefix}cubesat-excluded {}", list.join(" "))?;
    }
    Ok(())
}

/// What one format says in the opening comments of its exports, around the lines every export
/// shares (see [`write_preamble`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preamble<'a> {
    /// The format's comment prefix: `"| "` for DLX, `"% "` for ASP; `""` for DIMACS, whose
    /// writer ([`super::dimacs::write`]) adds the `c ` itself.
    pub prefix: &'a str,
    /// What the file is, e.g. `"clingo program"`.
    pub kind: &'a str,
    /// What a solver's solutions of the file are called, e.g. `"Answer sets"` (followed by
    /// "are the puzzle's solutions").
    pub solutions: &'a str,
    /// Whose count can exceed the count up to symmetry when the mode is not `none` (a symmetry
    /// reduction by a restricted piece may keep several solutions of a class), e.g. `"clingo's
    /// model count"`; `None` leaves that warning out.
    pub overcount: Option<&'a str>,
    /// The format's own lines, without the prefix: its layout, how to run a solver and decode.
    pub lines: Vec<String>,
}

/// Writes the opening comments of an exported instance, each line behind the preamble's
/// prefix: which cubesat wrote the file for which puzzle, what its solutions count
/// (`reduction`, the symmetry reduction described), the overcount warning, the format's own
/// lines, then the provenance lines ([`write_header`]). One writer for every format, so the
/// shared lines read the same in all of them.
pub fn write_preamble(
    out: &mut impl Write,
    preamble: &Preamble,
    puzzle: &Puzzle,
    table: &PlacementTable,
    mode: UpTo,
    excluded: &[u32],
    reduction: &str,
) -> io::Result<()> {
    let prefix = preamble.prefix;
    writeln!(
        out,
        "{prefix}{} written by cubesat {} for the puzzle '{}'.",
        preamble.kind,
        env!("CARGO_PKG_VERSION"),
        puzzle.name
    )?;
    writeln!(
        out,
        "{prefix}{} are the puzzle's solutions, counted: {reduction}.",
        preamble.solutions
    )?;
    if let Some(who) = preamble.overcount
        && mode != UpTo::None
    {
        writeln!(
            out,
            "{prefix}{who} can exceed the count {}: cubesat, decoding an answer, keeps one solution per symmetry class.",
            mode.phrase()
        )?;
    }
    for line in &preamble.lines {
        writeln!(out, "{prefix}{line}")?;
    }
    write_header(out, prefix, puzzle, table, mode, excluded)
}

/// Reads the provenance lines back from an instance file, detecting the comment prefix.
/// Errors name the line.
pub(crate) fn read_provenance(text: &str) -> Result<Provenance> {
    let mut reader = ProvenanceReader::default();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some((key, value)) = reader.split(n, line)? {
            reader.read(n, key, value)?;
        }
    }
    reader.finish()
}

/// The provenance lines read so far, line by line ([`read_provenance`]).
#[derive(Default)]
struct ProvenanceReader {
    /// The comment prefix of the first provenance line: every other must have it too.
    prefix: Option<&'static str>,
    /// The line of `cubesat-provenance`.
    version: Option<usize>,
    puzzle: Option<Puzzle>,
    mode: Option<UpTo>,
    /// Count, digest and line of `cubesat-options`.
    options: Option<(usize, u64, usize)>,
    excluded_count: Option<usize>,
    excluded: Vec<u32>,
}

impl ProvenanceReader {
    /// Line `n`'s key and value when it is a provenance line (behind a known prefix, the
    /// same as the first one's), `None` when it is any other line.
    fn split<'a>(&mut self, n: usize, line: &'a str) -> Result<Option<(&'a str, &'a str)>> {
        let line = line.trim_end();
        let Some((p, rest)) = PREFIXES
            .iter()
            .find_map(|p| line.strip_prefix(p).map(|r| (*p, r.trim_start())))
        else {
            return Ok(None);
        };
        let Some(rest) = rest.strip_prefix("cubesat-") else {
            return Ok(None);
        };
        match self.prefix {
            None => self.prefix = Some(p),
            Some(q) if q != p => {
                crate::error::bail_at!(
                    format!("line {n}"),
                    "provenance line behind '{}' after lines behind '{}'",
                    crate::echo::echo(p),
                    crate::echo::echo(q)
                )
            }
            _ => {}
        }
        let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
        Ok(Some((key, value.trim())))
    }

    /// Takes in the value of line `n`, a provenance line with key `key`.
    fn read(&mut self, n: usize, key: &str, value: &str) -> Result<()> {
        match key {
            "provenance" => {
                let v = value.split_whitespace().next().unwrap_or("");
                ensure!(
                    v == VERSION,
                    "line {n}: provenance version '{}' is not {VERSION}; the file was written by another cubesat version",
                    crate::echo::echo(v)
                );
                self.version = Some(n);
            }
            "puzzle" => {
                ensure!(
                    self.puzzle.is_none(),
                    "line {n}: a second cubesat-puzzle line"
                );
                let v: serde_json::Value = serde_json::from_str(value)
                    .with_context(|| format!("line {n}: the embedded puzzle is not JSON"))?;
                let p = from_value(&v, "exported puzzle")
                    .with_context(|| format!("line {n}: the embedded puzzle"))?;
                self.puzzle = Some(p);
            }
            "mode" => {
                let m: UpTo = value.parse().with_context(|| format!("line {n}"))?;
                self.mode = Some(m);
            }
            "options" => self.options = Some(options_line(n, value)?),
            "excluded-count" => {
                let c: usize = value.parse().map_err(|_| {
                    crate::error::Error::input(
                        format!("line {n}"),
                        format!(
                            "'{}' is not a count of excluded placements",
                            crate::echo::echo(value)
                        ),
                    )
                })?;
                self.excluded_count = Some(c);
            }
            "excluded" => {
                for tok in value.split_whitespace() {
                    let e: u32 = tok.parse().map_err(|_| {
                        crate::error::Error::input(
                            format!("line {n}"),
                            format!("'{}' is not a placement index", crate::echo::echo(tok)),
                        )
                    })?;
                    self.excluded.push(e);
                }
            }
            // Unknown keys are left for later versions.
            _ => {}
        }
        Ok(())
    }

    /// The provenance once every line is read: each line it needs present, the excluded
    /// placements as many as announced and distinct.
    fn finish(self) -> Result<Provenance> {
        let Some(prefix) = self.prefix else {
            bail!(
                "no cubesat provenance lines found (expected comment lines like '| cubesat-puzzle ...'): the file was not written by cubesat as an exported instance"
            );
        };
        ensure!(self.version.is_some(), "no cubesat-provenance line");
        let Some(puzzle) = self.puzzle else {
            bail!("no cubesat-puzzle line");
        };
        let Some(mode) = self.mode else {
            bail!("no cubesat-mode line");
        };
        let Some((option_count, digest, options_line)) = self.options else {
            bail!("no cubesat-options line");
        };
        let count = self.excluded_count.unwrap_or(0);
        let mut excluded = self.excluded;
        ensure!(
            excluded.len() == count,
            "cubesat-excluded lines list {} placements, cubesat-excluded-count says {count}: the file is truncated or edited",
            excluded.len()
        );
        excluded.sort_unstable();
        excluded.dedup();
        ensure!(
            excluded.len() == count,
            "cubesat-excluded lines repeat a placement"
        );
        Ok(Provenance {
            puzzle,
            mode,
            excluded,
            option_count,
            digest,
            prefix,
            options_line,
        })
    }
}

/// The count, digest and line of a `cubesat-options` line (line `n`, value `value`).
fn options_line(n: usize, value: &str) -> Result<(usize, u64, usize)> {
    let mut parts = value.split_whitespace();
    let count = parts.next().and_then(|c| c.parse::<usize>().ok());
    let digest = parts
        .next()
        .and_then(|d| d.strip_prefix("fnv1a64="))
        .and_then(|d| u64::from_str_radix(d, 16).ok());
    match (count, digest) {
        (Some(c), Some(d)) => Ok((c, d, n)),
        _ => crate::error::bail_at!(
            format!("line {n}"),
            "expected 'cubesat-options COUNT fnv1a64=HEX', found '{}'",
            crate::echo::echo(value)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::Reducer;
    use crate::puzzle::bundled;

    #[test]
    fn round_trips_behind_every_prefix() {
        let puzzle = bundled("soma").unwrap();
        let table = PlacementTable::new(&puzzle).unwrap();
        let reducer = Reducer::new(&puzzle, &table, UpTo::Rotation, false).unwrap();
        assert!(!reducer.excluded().is_empty());
        for prefix in PREFIXES {
            let mut out = Vec::new();
            write_header(
                &mut out,
                prefix,
                &puzzle,
                &table,
                UpTo::Rotation,
                reducer.excluded(),
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            let text = format!("{prefix}free comment\np cnf 1 1\n{text}");
            let p = read_provenance(&text).unwrap();
            assert_eq!(p.prefix, prefix);
            // Everything but the catalog record, which the header leaves out.
            let expected = Puzzle {
                catalog: None,
                ..puzzle.clone()
            };
            assert_eq!(p.puzzle, expected);
            assert_eq!(p.mode, UpTo::Rotation);
            let mut ex = reducer.excluded().to_vec();
            ex.sort_unstable();
            assert_eq!(p.excluded, ex);
            assert_eq!(p.option_count, table.len());
            assert_eq!(p.options_line, 6);
            assert_eq!(p.placement_table().unwrap().len(), table.len());
        }
    }

    #[test]
    fn errors_name_the_line() {
        let puzzle = bundled("soma").unwrap();
        let table = PlacementTable::new(&puzzle).unwrap();
        let mut out = Vec::new();
        write_header(&mut out, "% ", &puzzle, &table, UpTo::None, &[]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let bad = text.replace("cubesat-mode none", "cubesat-mode sideways");
        let e = read_provenance(&bad).unwrap_err().report();
        assert!(e.starts_with("line 3"), "{e}");
        let bad = text.replace(
            &format!("cubesat-options {}", table.len()),
            "cubesat-options 7",
        );
        let e = read_provenance(&bad)
            .unwrap()
            .placement_table()
            .unwrap_err()
            .report();
        assert!(e.starts_with("line 4"), "{e}");
        let e = read_provenance("| hello\n").unwrap_err().report();
        assert!(e.contains("not written by cubesat"), "{e}");
        let mut bad = text.clone();
        bad.push_str("| cubesat-excluded 1\n");
        let e = read_provenance(&bad).unwrap_err().report();
        assert!(e.starts_with("line 6"), "{e}");
        let mut bad = text.clone();
        bad.push_str("% cubesat-excluded 1\n");
        let e = read_provenance(&bad).unwrap_err().report();
        assert!(e.contains("excluded-count says 0"), "{e}");
    }
}
