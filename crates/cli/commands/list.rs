//! `cubesat list`: the bundled puzzles and the catalog by family, one aligned row per puzzle with its published and cubesat counts.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{Result, bail};

use cubesat::UpTo;
use cubesat::puzzle::{self, ModeCount, Puzzle, Verdict};

use cubesat::report::human_seconds;

use crate::args::ListArgs;

use super::{Outcome, output};

/// The widest line `list` prints: names that do not fit get a line of their own.
const WIDTH: usize = 100;

const HEADER: [&str; 7] = [
    "NAME",
    "PIECES",
    "CELLS",
    "PUBLISHED",
    "UP TO",
    "CUBESAT",
    "AGREES",
];

/// One listed puzzle.
struct Row {
    name: &'static str,
    pieces: u64,
    cells: usize,
    published: String,
    up_to: &'static str,
    cubesat: String,
    status: &'static str,
}

/// `cubesat list [--family F] [--search WORD]`.
pub fn run(args: &ListArgs) -> Result<Outcome> {
    let word = args.search.as_deref().map(str::to_lowercase);
    let mut families: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut known_families = Vec::new();
    for (name, _) in puzzle::named() {
        let p = puzzle::bundled(name)?;
        let family = p
            .catalog
            .as_ref()
            .map_or_else(|| "other".to_string(), |c| c.family.clone());
        if !known_families.contains(&family) {
            known_families.push(family.clone());
        }
        if args.family.as_ref().is_some_and(|f| *f != family) {
            continue;
        }
        if let Some(w) = &word {
            let text = format!("{name}\n{}\n{family}\n{}", p.name, p.description).to_lowercase();
            if !text.contains(w.as_str()) {
                continue;
            }
        }
        families.entry(family).or_default().push(row(name, &p));
    }
    if let Some(f) = &args.family
        && !known_families.contains(f)
    {
        known_families.sort();
        bail!(
            "no family '{}' (families: {})",
            cubesat::echo::echo(f),
            known_families.join(", ")
        );
    }
    for rows in families.values_mut() {
        rows.sort_by_key(|r| r.name);
    }
    let shown = families.values().map(Vec::len).sum::<usize>();
    let widths = column_widths(families.values().flatten());
    let mut out = output(None)?;
    let (mut agree, mut differ, mut unpublished) = (0, 0, 0);
    let open = families
        .values()
        .flatten()
        .filter(|r| r.cubesat.starts_with("open"))
        .count();
    for (family, rows) in &families {
        writeln!(
            out,
            "{family} ({})",
            cubesat::report::plural(rows.len() as u64, "puzzle")
        )?;
        line(&mut out, &widths, HEADER)?;
        for r in rows {
            match r.status {
                "yes" => agree += 1,
                "-" => unpublished += 1,
                _ => differ += 1,
            }
            line(
                &mut out,
                &widths,
                [
                    r.name,
                    &r.pieces.to_string(),
                    &r.cells.to_string(),
                    &r.published,
                    r.up_to,
                    &r.cubesat,
                    r.status,
                ],
            )?;
        }
    }
    out.finish()?;
    if shown == 0 {
        say!("no puzzle matches");
        return Ok(Outcome::NoneFound);
    }
    say!(
        "{} in {}: {agree} agreeing with their published count, {differ} differing (see `cubesat info NAME`), {unpublished} with no published count; {open} open (estimated, not counted)",
        cubesat::report::plural(shown as u64, "puzzle"),
        if families.len() == 1 {
            "1 family".to_string()
        } else {
            format!("{} families", families.len())
        },
    );
    Ok(Outcome::Found)
}

/// The width of every column: each as wide as its widest entry, and the names given what is
/// left of [`WIDTH`] (at least their header).
fn column_widths<'a>(rows: impl Iterator<Item = &'a Row>) -> [usize; 7] {
    let mut w = HEADER.map(str::len);
    for r in rows {
        let cols = [
            r.name.chars().count(),
            r.pieces.to_string().len(),
            r.cells.to_string().len(),
            r.published.len(),
            r.up_to.len(),
            r.cubesat.len(),
            r.status.len(),
        ];
        for (a, b) in w.iter_mut().zip(cols) {
            *a = (*a).max(b);
        }
    }
    // Two spaces before every column.
    let others: usize = w[1..].iter().map(|x| x + 2).sum();
    w[0] = w[0]
        .min(WIDTH.saturating_sub(others + 2))
        .max(HEADER[0].len());
    w
}

/// Writes one row; a name wider than its column goes on a line of its own and the row
/// continues below it, so that the columns stay aligned and rows fit [`WIDTH`].
fn line(out: &mut impl Write, w: &[usize; 7], cols: [&str; 7]) -> std::io::Result<()> {
    let [name, pieces, cells, published, up_to, cubesat, status] = cols;
    let name = if name.chars().count() > w[0] {
        writeln!(out, "  {name}")?;
        ""
    } else {
        name
    };
    let row = format!(
        "  {name:<0$}  {pieces:>1$}  {cells:>2$}  {published:>3$}  {up_to:<4$}  {cubesat:>5$}  {status}",
        w[0], w[1], w[2], w[3], w[4], w[5]
    );
    writeln!(out, "{}", row.trim_end())
}

/// The row of one puzzle: its first published count, cubesat's count in that count's mode
/// (up to rotation when nothing is published), and whether every published count agrees.
fn row(name: &'static str, p: &Puzzle) -> Row {
    let pieces = p.pieces.iter().map(|x| x.count as u64).sum();
    let cells = p.target.cells().len();
    let (published, mode, cubesat, status) = match &p.catalog {
        Some(c) => {
            let first = c.published.first();
            let mode = first.map_or(UpTo::Rotation, |f| f.up_to);
            let status = match (
                c.agrees(),
                c.published.iter().find_map(|x| x.finding.as_ref()),
            ) {
                (None, _) => "-",
                (Some(true), _) => "yes",
                (Some(false), Some(f)) if f.verdict == Verdict::Source => "no: source",
                (Some(false), _) => "no: convention",
            };
            let estimate = c.incomplete.as_ref().and_then(|i| i.estimate.as_ref());
            let cubesat = match (c.counts.get(mode), estimate) {
                (ModeCount::Count(n), _) => grouped(n),
                (ModeCount::Undefined, _) => "undefined".to_string(),
                // No count finished: what one would cost (`info` gives the interval).
                (ModeCount::NotCounted, Some(e)) => {
                    format!("open, est. {} CPU", human_seconds(e.cpu_seconds))
                }
                (ModeCount::NotCounted, None) => "-".to_string(),
            };
            (
                first.map_or("-".to_string(), |f| grouped(f.count)),
                mode,
                cubesat,
                status,
            )
        }
        None => ("-".to_string(), UpTo::Rotation, "-".to_string(), "-"),
    };
    Row {
        name,
        pieces,
        cells,
        published,
        up_to: match mode {
            UpTo::None => "none",
            UpTo::Rotation => "rotation",
            UpTo::RotationReflection => "rot+refl",
            UpTo::BurrTools => "burrtools",
        },
        cubesat,
        status,
    }
}

/// 12988816 as "12,988,816".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_get_their_own_line_and_rows_stay_aligned() {
        let mut out = Vec::new();
        let long = "a-very-long-puzzle-name-that-does-not-fit-the-column-at-all";
        let w = [12, 6, 5, 9, 8, 7, 6];
        line(
            &mut out,
            &w,
            ["short", "7", "27", "240", "rot+refl", "240", "yes"],
        )
        .unwrap();
        line(
            &mut out,
            &w,
            [long, "12", "64", "9,839", "rotation", "9,839", "yes"],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1], format!("  {long}"));
        // The PIECES column ends at the same place on both rows.
        let edge = 2 + w[0] + 2 + w[1];
        assert!(lines[0][..edge].ends_with(" 7"), "{text}");
        assert!(lines[2][..edge].ends_with(" 12"), "{text}");
        assert_eq!(lines[0].len(), lines[2].len());
        assert_eq!(grouped(12988816), "12,988,816");
        assert_eq!(grouped(240), "240");
    }
}
