//! `cubesat info`: a puzzle's pieces, orientations, placements, symmetries and known counts.

use std::io::Write;

use anyhow::Result;

use cubesat::counting::UpTo;
use cubesat::puzzle::burrtools::BurrFile;
use cubesat::puzzle::{Catalog, CatalogCounts, ModeCount, Puzzle, Verdict};

use cubesat::echo::escape;
use cubesat::report::plural;
use cubesat::run::Instance;

use crate::args::InfoArgs;

use super::{Outcome, output};
use cubesat::report::human_seconds;

/// `cubesat info`: the puzzle's description on stdout.
pub fn run(args: InfoArgs) -> Result<Outcome> {
    // Read once: the file may be a FIFO.
    let source = super::open_puzzle(args.puzzle.puzzle.as_deref())?;
    let burrtools = source.burrtools().cloned();
    let puzzle = source.puzzle(args.puzzle.problem.as_deref())?;
    super::warn_same_shapes(&puzzle);
    let mut out = output(None)?;
    if let Some(file) = burrtools {
        burrtools_header(&mut out, &file, args.puzzle.problem.as_deref())?;
    }
    for n in &puzzle.notes {
        writeln!(out, "note: {}", escape(n))?;
    }
    let inst = Instance::new(puzzle)?;
    let p = &inst.puzzle;
    writeln!(out, "{}", p.name)?;
    for line in p.description.lines() {
        writeln!(out, "  {}", escape(line))?;
    }
    target(&mut out, p)?;
    pieces(&mut out, &inst)?;
    writeln!(
        out,
        "placements: {}; hints: {}",
        inst.table.len(),
        p.hints.len()
    )?;
    for why in inst.table.obstacles(p) {
        writeln!(out, "no solution: {why}")?;
    }
    symmetries(&mut out, &inst)?;
    known_counts(&mut out, p)?;
    if let Some(c) = &p.catalog {
        catalog(&mut out, c)?;
    }
    out.finish()?;
    Ok(Outcome::Found)
}

/// The BurrTools file's problems and the one chosen.
fn burrtools_header(out: &mut impl Write, file: &BurrFile, problem: Option<&str>) -> Result<()> {
    writeln!(
        out,
        "BurrTools file (version {}), {}:",
        file.version,
        plural(file.problems.len() as u64, "problem")
    )?;
    write!(out, "{}", file.describe_problems())?;
    let i = file.select(problem)?;
    writeln!(out, "problem {i}:")?;
    Ok(())
}

/// The target: its cells and each container's box.
fn target(out: &mut impl Write, p: &Puzzle) -> Result<()> {
    let t = &p.target;
    writeln!(
        out,
        "target: {} ({} must-fill, {} optional) in {}",
        plural(t.cells().len() as u64, "cell"),
        t.must_count(),
        t.optional_count(),
        plural(t.containers().len() as u64, "container")
    )?;
    for (i, c) in t.containers().iter().enumerate() {
        // The box people write the container in: in the frame they type it in.
        let size = if let cubesat::geometry::Frame::Lattice = p.grid.frame() {
            c.size
        } else {
            let user: Vec<_> = c.cells.iter().map(|&g| t.user_local(g).1).collect();
            std::array::from_fn(|a| {
                let lo = user.iter().map(|u| u[a]).min().unwrap_or(0);
                let hi = user.iter().map(|u| u[a] + 1).max().unwrap_or(0);
                hi - lo
            })
        };
        let volume = size.iter().map(|&s| i64::from(s)).product::<i64>();
        let full = volume == c.cells.len() as i64
            && c.cells.iter().all(|&g| !t.cells()[g as usize].optional);
        let kind = if full { "box" } else { "shape in a box of" };
        writeln!(
            out,
            "  container {i}: {kind} {}x{}x{}, {}",
            size[0],
            size[1],
            size[2],
            plural(c.cells.len() as u64, "cell")
        )?;
    }
    Ok(())
}

/// The pieces' table: cells, count, orientations, placements and mirror image of each.
fn pieces(out: &mut impl Write, inst: &Instance) -> Result<()> {
    let p = &inst.puzzle;
    let partners = p.mirror_partners();
    writeln!(
        out,
        "pieces: {} ({}, volume {})",
        p.pieces.len(),
        plural(p.pieces.iter().map(|x| x.count as u64).sum::<u64>(), "copy"),
        p.piece_volume()
    )?;
    let labels: Vec<String> = p
        .pieces
        .iter()
        .map(|x| format!("{} ({})", x.name, x.letter))
        .collect();
    let w = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    writeln!(
        out,
        "  {:<w$} {:>6} {:>5} {:>12} {:>10}  mirror image",
        "piece", "cells", "count", "orientations", "placements"
    )?;
    for (i, piece) in p.pieces.iter().enumerate() {
        let others = p.mirror_images_of(i);
        let mirror = match &partners {
            _ if piece.is_achiral_coloured() => "itself".to_string(),
            Some(pp) => format!("'{}'", p.pieces[pp[i]].name),
            // The set is not closed under mirror images as a whole, but this piece's mirror
            // image may still be here under another name (with another count).
            None if !others.is_empty() => others
                .iter()
                .map(|&j| format!("'{}'", p.pieces[j].name))
                .collect::<Vec<_>>()
                .join(" or "),
            None => "(not in the set)".to_string(),
        };
        writeln!(
            out,
            "  {:<w$} {:>6} {:>5} {:>12} {:>10}  {}",
            labels[i],
            piece.shape.len(),
            if piece.is_ranged() {
                format!("{}..{}", piece.min_count, piece.count)
            } else {
                piece.count.to_string()
            },
            inst.table.orientations()[i].len(),
            inst.table.by_piece()[i].len(),
            mirror
        )?;
    }
    Ok(())
}

/// The symmetry reduction of each mode the puzzle can be counted in.
fn symmetries(out: &mut impl Write, inst: &Instance) -> Result<()> {
    let p = &inst.puzzle;
    let mut modes = vec![UpTo::Rotation, UpTo::RotationReflection];
    if p.default_up_to == Some(UpTo::BurrTools) {
        modes.push(UpTo::BurrTools);
    }
    for mode in modes {
        match inst.reducer(mode, false) {
            Ok(r) => writeln!(out, "symmetry {}: {}", mode, r.describe(p))?,
            Err(e) => writeln!(out, "symmetry {}: not defined ({})", mode, e.report())?,
        }
    }
    Ok(())
}

/// The counts the puzzle file records, with their source.
fn known_counts(out: &mut impl Write, p: &Puzzle) -> Result<()> {
    let k = &p.known_counts;
    if !k.is_empty() {
        let show = |v: Option<u64>| v.map_or("-".to_string(), |n| n.to_string());
        writeln!(
            out,
            "known counts: all {}, up to rotation {}, up to rotation and reflection {}",
            show(k.all),
            show(k.rotation),
            show(k.rotation_reflection)
        )?;
        if let Some(s) = &k.source {
            writeln!(out, "  source: {}", escape(s))?;
        }
    }
    Ok(())
}

/// The catalog record: family, each published count with its convention, source and, for a
/// disagreement, how it was settled; cubesat's counts in every mode.
fn catalog(out: &mut impl Write, c: &Catalog) -> Result<()> {
    writeln!(out, "catalog: family {}", c.family)?;
    if c.published.is_empty() {
        writeln!(out, "  published: no published count found")?;
    }
    for p in &c.published {
        let verdict = match (&p.finding, p.agrees(&c.counts)) {
            (_, true) => "cubesat agrees".to_string(),
            (Some(f), false) => format!(
                "cubesat differs, settled: {}",
                match f.verdict {
                    Verdict::Convention => "another convention",
                    Verdict::Source => "the source is wrong",
                }
            ),
            (None, false) => "cubesat differs".to_string(),
        };
        writeln!(
            out,
            "  published: {} {} ({verdict})",
            p.count,
            p.up_to.phrase()
        )?;
        writeln!(out, "    convention: {}", escape(&p.convention))?;
        writeln!(out, "    source: {}", escape(&p.source))?;
        if let Some(f) = &p.finding {
            writeln!(out, "    finding: {}", escape(&f.text))?;
        }
    }
    let counts: Vec<String> = CatalogCounts::MODES
        .iter()
        .filter_map(|&m| match c.counts.get(m) {
            ModeCount::Count(n) => Some(format!("{n} {}", m.phrase())),
            ModeCount::Undefined => Some(format!("{} not defined", m.phrase())),
            ModeCount::NotCounted => None,
        })
        .collect();
    if !counts.is_empty() {
        writeln!(out, "  cubesat: {}", counts.join(", "))?;
    }
    if let Some(i) = &c.incomplete {
        writeln!(out, "  incomplete: the source left its count unfinished")?;
        writeln!(out, "    convention: {}", escape(&i.convention))?;
        writeln!(out, "    source: {}", escape(&i.source))?;
        if let Some(k) = &i.counted {
            writeln!(
                out,
                "    counted: {}, {} CPU in all: {}",
                k.date,
                human_seconds(k.cpu_seconds),
                escape(&k.how)
            )?;
        }
        if let Some(e) = &i.estimate {
            writeln!(
                out,
                "    {} (cubesat estimate --seconds {} --seed {}, {})",
                cubesat::report::estimate_words(e),
                e.seconds,
                e.seed,
                e.date
            )?;
        }
    }
    Ok(())
}
