//! `cubesat list`: the bundled puzzles, one line each, in columns that fit 100 characters.

use std::io::Write;

use anyhow::Result;

use cubesat::puzzle::{self, BUNDLED};

use super::{Outcome, output};

/// The widest line `list` prints.
const WIDTH: usize = 100;

/// `cubesat list`: one line per bundled puzzle under a header: its name, title, number of
/// pieces, target box(es) and the known count up to rotation.
pub fn run() -> Result<Outcome> {
    let mut rows: Vec<[String; 5]> = vec![[
        "puzzle".into(),
        "title".into(),
        "pieces".into(),
        "target".into(),
        "up to rotation".into(),
    ]];
    for (name, _) in BUNDLED {
        let p = puzzle::bundled(name)?;
        let sizes: Vec<String> = p
            .target
            .containers()
            .iter()
            .map(|c| format!("{}x{}x{}", c.size[0], c.size[1], c.size[2]))
            .collect();
        rows.push([
            name.to_string(),
            p.name.clone(),
            p.pieces.len().to_string(),
            sizes.join(" + "),
            p.known_counts
                .rotation
                .map_or(String::new(), |r| r.to_string()),
        ]);
    }
    let mut out = output(None)?;
    for line in table(&rows, [false, false, true, false, true]) {
        writeln!(out, "{line}")?;
    }
    out.finish()?;
    Ok(Outcome::Found)
}

/// The rows as lines of aligned columns (right-aligned where `right`), two spaces apart; when
/// they would be wider than [`WIDTH`], the title column is narrowed and long titles cut
/// with `…`.
fn table(rows: &[[String; 5]], right: [bool; 5]) -> Vec<String> {
    let mut widths = [0usize; 5];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let total = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
    if total > WIDTH {
        widths[1] = widths[1].saturating_sub(total - WIDTH).max(12);
    }
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .zip(right)
                .map(|((cell, w), right)| {
                    let cell = fit(cell, w);
                    if right {
                        format!("{cell:>w$}")
                    } else {
                        format!("{cell:<w$}")
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}

/// `s` cut to `w` characters, its last one `…` when cut.
fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, title: &str) -> [String; 5] {
        [name, title, "12", "4x4x4", "9839"].map(String::from)
    }

    #[test]
    fn columns_line_up_for_every_length_and_fit_the_width() {
        let rows = vec![
            row("a", "A"),
            row(&"n".repeat(40), "short"),
            row("b", &"T".repeat(90)),
        ];
        let lines = table(&rows, [false, false, true, false, true]);
        // Character (not byte) positions: a cut title ends in a three-byte '…'.
        let at: Vec<usize> = lines
            .iter()
            .map(|l| l[..l.find("4x4x4").unwrap()].chars().count())
            .collect();
        assert!(at.iter().all(|&a| a == at[0]), "{lines:#?}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:#?}"
        );
        assert!(lines[2].contains('…'));
    }
}
