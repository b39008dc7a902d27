//! A challenge set's files: each challenge as a puzzle file, the index, and the booklet as a self-contained HTML page and a PDF (A4 or US Letter), all bytes fixed by the set.
//!
//! The booklet: a cover with the levels' figures, then the challenges level by level (each
//! level from a new page, two challenges a page: the target with its hint pieces and the
//! pieces to place, drawn by the grid's own SVG renderer), then the solutions, six a page.
//! The PDF's pictures are those SVGs converted to PDF vector graphics by `svg2pdf`; its
//! words are written in Helvetica, one of the fonts every PDF reader has, so no font file
//! is embedded or looked up on the machine (the SVGs' own text, titles and legends, is left
//! out of the PDF and said in the captions instead). Nothing in either file depends on the
//! time or the machine.

use std::collections::HashMap;
use std::fmt::Write as _;

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
use serde_json::{Value, json};

use crate::challenge::set::{Challenge, ChallengeSet};
use crate::error::{Error, Result};
use crate::render;
use crate::report::{pieces_to_place, plural, scene, sheet_scene};

/// The booklet's paper.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Width and height in PDF points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// `a4` or `letter`.
    pub fn parse(s: &str) -> Option<Paper> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" => Some(Paper::Letter),
            _ => None,
        }
    }
}

/// What the difficulty figure is, said in the index and on the cover.
pub const DIFFICULTY: &str = "search nodes of the exact engine solving the challenge completely (one thread, fewest-options branching so forced pieces come first, dead regions pruned): finding the completion and ruling out every other";

/// A challenge's file name under `challenges/`: its number, zero-padded to the set's width.
pub fn challenge_file(set: &ChallengeSet, c: &Challenge) -> String {
    let width = set.challenges.len().to_string().len().max(3);
    format!("challenges/{:0width$}.json", c.number)
}

/// Every file of the set, as (path relative to the output folder, bytes), in a fixed order.
pub fn files(set: &ChallengeSet, paper: Paper) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for c in &set.challenges {
        out.push((
            challenge_file(set, c),
            crate::puzzle::json::to_file_string(&c.instance.puzzle).into_bytes(),
        ));
    }
    let mut index = serde_json::to_string_pretty(&index_json(set))
        .map_err(|e| Error::Internal(format!("the index does not serialise: {e}")))?;
    index.push('\n');
    out.push(("challenges.json".into(), index.into_bytes()));
    out.push(("book.html".into(), html(set).into_bytes()));
    out.push(("book.pdf".into(), pdf(set, paper)?));
    Ok(out)
}

/// Minimum, median and maximum of some figures (zeros when there are none).
fn spread(mut v: Vec<u64>) -> (u64, u64, u64) {
    v.sort_unstable();
    match v.len() {
        0 => (0, 0, 0),
        n => (v[0], v[n / 2], v[n - 1]),
    }
}

/// Per level: challenges, pieces to place (min, max), difficulty (min, median, max).
fn level_figures(set: &ChallengeSet, k: usize) -> (usize, (u64, u64), (u64, u64, u64)) {
    let cs: Vec<&Challenge> = set.challenges.iter().filter(|c| c.level == k).collect();
    let left = spread(cs.iter().map(|c| c.figures.pieces_left as u64).collect());
    (
        cs.len(),
        (left.0, left.2),
        spread(cs.iter().map(|c| c.figures.nodes).collect()),
    )
}

/// The index (`challenges.json`): the set, its levels' figures, each challenge's file and
/// figures, and every candidate measured grouped by pieces to place (how the difficulty
/// relates to the booklets' pieces-left grading, chosen or not).
pub fn index_json(set: &ChallengeSet) -> Value {
    let levels: Vec<Value> = set
        .levels
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let (n, left, nodes) = level_figures(set, k);
            json!({
                "name": name,
                "challenges": n,
                "minimal_hints": k + 1 == set.levels.len(),
                "pieces_to_place": {"min": left.0, "max": left.1},
                "difficulty": {"min": nodes.0, "median": nodes.1, "max": nodes.2},
            })
        })
        .collect();
    let challenges: Vec<Value> = set
        .challenges
        .iter()
        .map(|c| {
            json!({
                "file": challenge_file(set, c),
                "number": c.number,
                "level": set.levels[c.level],
                "pieces_to_place": c.figures.pieces_left,
                "hints": c.figures.hints,
                "minimal_hints": c.minimal,
                "difficulty": c.figures.nodes,
                "off_path_nodes": c.figures.off_path(),
                "candidate_placements": c.figures.candidates,
                "seed": set.seed,
                "draw": c.draw,
            })
        })
        .collect();
    let mut by_left: Vec<u32> = set.pool.iter().map(|c| c.figures.pieces_left).collect();
    by_left.sort_unstable();
    by_left.dedup();
    let pool: Vec<Value> = by_left
        .into_iter()
        .map(|l| {
            let nodes = spread(
                set.pool
                    .iter()
                    .filter(|c| c.figures.pieces_left == l)
                    .map(|c| c.figures.nodes)
                    .collect(),
            );
            let n = set
                .pool
                .iter()
                .filter(|c| c.figures.pieces_left == l)
                .count();
            json!({
                "pieces_to_place": l,
                "candidates": n,
                "difficulty": {"min": nodes.0, "median": nodes.1, "max": nodes.2},
            })
        })
        .collect();
    json!({
        "type": "challenge-set",
        "puzzle": set.base.puzzle.name,
        "seed": set.seed,
        "size": set.challenges.len(),
        "difficulty_measure": DIFFICULTY,
        "levels": levels,
        "challenges": challenges,
        "candidates_by_pieces_to_place": pool,
        "work": {
            "seeded_solutions": set.stats.draws,
            "uniqueness_checks": set.stats.checks,
            "duplicates_dropped": set.stats.duplicates,
            "symmetries": set.stats.symmetries,
        },
    })
}

/// A challenge's caption: number, level, pieces to place, difficulty.
fn caption(set: &ChallengeSet, c: &Challenge) -> String {
    format!(
        "Challenge {} - {} - {} to place - difficulty {}",
        c.number,
        set.levels[c.level],
        plural(c.figures.pieces_left as u64, "piece"),
        c.figures.nodes
    )
}

/// The names of the pieces a challenge leaves to place, with copies.
fn to_place(c: &Challenge) -> String {
    let p = &c.instance.puzzle;
    pieces_to_place(p, &c.instance.table, &c.solution)
        .into_iter()
        .map(|(i, n)| {
            if n > 1 {
                format!("{} x{n}", p.pieces[i].name)
            } else {
                p.pieces[i].name.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sheet picture of a challenge: its target with the hints, and the pieces to place.
fn sheet_svg(c: &Challenge) -> String {
    let p = &c.instance.puzzle;
    let title = format!("Challenge {}", c.number);
    render::svg(
        &sheet_scene(p, &c.instance.table, &c.solution, &title),
        false,
    )
}

/// The solution picture of a challenge.
fn solution_svg(c: &Challenge) -> String {
    let p = &c.instance.puzzle;
    let title = format!("Solution {}", c.number);
    render::svg(
        &scene(p, &c.instance.table, &c.solution, &title, false),
        false,
    )
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The booklet as one self-contained HTML page (inline SVG pictures; prints a challenge a
/// page).
pub fn html(set: &ChallengeSet) -> String {
    let mut s = String::new();
    let name = esc(&set.base.puzzle.name);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{name}: challenges</title>\n<style>\nbody{{font-family:sans-serif;margin:2em;color:#222}}\nsection.c{{break-inside:avoid;margin:1.5em 0}}\nh2{{break-before:page}}\nsvg{{max-width:100%;height:auto}}\ntable{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:right}}\n</style>\n</head>\n<body>\n<h1>{name}: {} challenges</h1>\n",
        set.challenges.len()
    );
    let _ = writeln!(
        s,
        "<p>Place the pieces left so that they fill the target; each challenge has exactly one way. Seed {}. Difficulty: {}.</p>",
        set.seed,
        esc(DIFFICULTY)
    );
    s.push_str("<table><tr><th>level</th><th>challenges</th><th>pieces to place</th><th>difficulty (min / median / max)</th></tr>\n");
    for (k, level) in set.levels.iter().enumerate() {
        let (n, left, nodes) = level_figures(set, k);
        let _ = writeln!(
            s,
            "<tr><th>{}</th><td>{n}</td><td>{}&ndash;{}</td><td>{} / {} / {}</td></tr>",
            esc(level),
            left.0,
            left.1,
            nodes.0,
            nodes.1,
            nodes.2
        );
    }
    s.push_str("</table>\n");
    for (k, level) in set.levels.iter().enumerate() {
        let _ = writeln!(s, "<h2>{}</h2>", esc(level));
        for c in set.challenges.iter().filter(|c| c.level == k) {
            let _ = writeln!(
                s,
                "<section class=\"c\" id=\"c{}\"><h3>{}</h3><p>To place: {}</p>\n{}</section>",
                c.number,
                esc(&caption(set, c)),
                esc(&to_place(c)),
                strip_prolog(&sheet_svg(c))
            );
        }
    }
    s.push_str("<h2>Solutions</h2>\n");
    for c in &set.challenges {
        let _ = writeln!(
            s,
            "<section class=\"c\" id=\"s{}\">{}</section>",
            c.number,
            strip_prolog(&solution_svg(c))
        );
    }
    s.push_str("</body>\n</html>\n");
    s
}

/// An SVG document without its XML declaration and comment, to inline in HTML.
fn strip_prolog(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |i| &svg[i..])
}

/// The picture part of one of our SVGs: the document with its legend removed and its view
/// box cut to the picture (the renderer puts the title above it and the legend to its
/// right; the booklet says both in its captions).
fn picture_only(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut legend_x: Option<f64> = None;
    let mut in_legend = false;
    for line in svg.lines() {
        if line.starts_with(r#"<g id="legend""#) {
            in_legend = true;
            continue;
        }
        if in_legend {
            if line == "</g>" {
                in_legend = false;
            } else if legend_x.is_none() {
                legend_x = line
                    .strip_prefix(r#"<rect x=""#)
                    .and_then(|r| r.split('"').next())
                    .and_then(|x| x.parse().ok());
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    // The renderer's page: a 16 px margin, a 30 px title band, the legend 28 px right of the
    // picture.
    let Some(start) = out.find("<svg ") else {
        return out;
    };
    let end = start + out[start..].find('>').unwrap_or(0);
    let tag = &out[start..end];
    let attr = |name: &str| -> Option<f64> {
        let i = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[i..].split('"').next()?.parse().ok()
    };
    let (Some(w), Some(h)) = (attr("width"), attr("height")) else {
        return out;
    };
    let w2 = legend_x.map_or(w, |x| (x - 28.0 + 16.0).min(w));
    let h2 = h - 30.0;
    let new_tag = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w2}" height="{h2}" viewBox="0 30 {w2} {h2}""#
    );
    format!("{}{}{}", &out[..start], new_tag, &out[end..])
}

/// Text for a standard PDF font: printable ASCII kept, anything else as `?`.
fn pdf_text(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() {
                c as u8
            } else {
                b'?'
            }
        })
        .collect()
}

/// Approximate width of Helvetica text at `size` points (average glyph width), to wrap lines.
fn text_width(s: &str, size: f32) -> f32 {
    s.chars().count() as f32 * size * 0.5
}

/// Splits `s` into lines that fit `width` points at `size`.
fn wrap(s: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let trial = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&trial, size) > width {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = trial;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One page being laid out: its content stream and the pictures it shows.
struct Page {
    content: Content,
    pictures: Vec<(String, Ref)>,
}

/// The PDF under construction: object ids, pages, the font.
struct Book {
    pdf: Pdf,
    next: Ref,
    pages: Vec<Page>,
    font: Ref,
    width: f32,
    height: f32,
}

const MARGIN: f32 = 42.0;

impl Book {
    fn alloc(&mut self) -> Ref {
        let r = self.next;
        self.next = Ref::new(r.get() + 1);
        r
    }

    fn new_page(&mut self) -> &mut Page {
        self.pages.push(Page {
            content: Content::new(),
            pictures: Vec::new(),
        });
        self.pages.last_mut().expect("a page was just pushed")
    }

    /// Writes `text` at (x, y) (y from the bottom) on the last page.
    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, text: &str) {
        let font = if bold { b"F2" as &[u8] } else { b"F1" };
        let page = self.pages.last_mut().expect("a page is open");
        page.content
            .begin_text()
            .set_fill_gray(0.13)
            .set_font(Name(font), size)
            .next_line(x, y)
            .show(Str(&pdf_text(text)))
            .end_text();
    }

    /// Draws our SVG `svg` into the box (x, y, w, h) on the last page, scaled to fit and
    /// centred.
    fn picture(&mut self, svg: &str, x: f32, y: f32, w: f32, h: f32) -> Result<()> {
        let svg = picture_only(svg);
        let tree = svg2pdf::usvg::Tree::from_str(&svg, &svg2pdf::usvg::Options::default())
            .map_err(|e| Error::Internal(format!("a booklet picture does not parse: {e}")))?;
        let size = tree.size();
        let (sw, sh) = (size.width(), size.height());
        let (chunk, id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| Error::Internal(format!("a booklet picture does not convert: {e}")))?;
        let mut map = HashMap::new();
        let mut next = self.next;
        let chunk = chunk.renumber(|old| {
            *map.entry(old).or_insert_with(|| {
                let r = next;
                next = Ref::new(r.get() + 1);
                r
            })
        });
        self.next = next;
        let id = map[&id];
        self.pdf.extend(&chunk);
        // Pictures are never drawn larger than 1.5 times their pixel size, so a small
        // target does not fill a page.
        let scale = (w / sw).min(h / sh).min(1.5);
        let (dw, dh) = (sw * scale, sh * scale);
        let (dx, dy) = (x + (w - dw) / 2.0, y + (h - dh) / 2.0);
        let page = self.pages.last_mut().expect("a page is open");
        let name = format!("P{}", page.pictures.len());
        page.content
            .save_state()
            .transform([dw, 0.0, 0.0, dh, dx, dy])
            .x_object(Name(name.as_bytes()))
            .restore_state();
        page.pictures.push((name, id));
        Ok(())
    }
}

/// The booklet as a PDF on `paper`.
pub fn pdf(set: &ChallengeSet, paper: Paper) -> Result<Vec<u8>> {
    let (width, height) = paper.size();
    let mut book = Book {
        pdf: Pdf::new(),
        next: Ref::new(1),
        pages: Vec::new(),
        font: Ref::new(1),
        width,
        height,
    };
    let catalog = book.alloc();
    let tree = book.alloc();
    book.font = book.alloc();
    let bold = book.alloc();
    let info = book.alloc();
    let inner = width - 2.0 * MARGIN;

    // The cover.
    book.new_page();
    let mut y = height - MARGIN - 20.0;
    for line in wrap(&set.base.puzzle.name, 20.0, inner) {
        book.text(MARGIN, y, 20.0, true, &line);
        y -= 26.0;
    }
    book.text(
        MARGIN,
        y,
        13.0,
        false,
        &format!(
            "{} in {}, seed {}",
            plural(set.challenges.len() as u64, "challenge"),
            plural(set.levels.len() as u64, "level"),
            set.seed
        ),
    );
    y -= 30.0;
    let intro = format!(
        "Place the pieces left so that they fill the target: each challenge has exactly one way, checked by cubesat. Hint pieces are marked with a white stroke. The last level gives as few hints as possible: take any away and the challenge has more than one solution. Difficulty is measured, not guessed: the {DIFFICULTY}. Every challenge of a level is harder by it than every challenge of the levels before."
    );
    for line in wrap(&intro, 10.5, inner) {
        book.text(MARGIN, y, 10.5, false, &line);
        y -= 14.0;
    }
    y -= 14.0;
    book.text(MARGIN, y, 11.0, true, "level");
    book.text(MARGIN + 130.0, y, 11.0, true, "challenges");
    book.text(MARGIN + 210.0, y, 11.0, true, "pieces to place");
    book.text(
        MARGIN + 320.0,
        y,
        11.0,
        true,
        "difficulty min / median / max",
    );
    y -= 16.0;
    for (k, level) in set.levels.iter().enumerate() {
        let (n, left, nodes) = level_figures(set, k);
        book.text(MARGIN, y, 11.0, false, level);
        book.text(MARGIN + 130.0, y, 11.0, false, &n.to_string());
        let left = if left.0 == left.1 {
            left.0.to_string()
        } else {
            format!("{} - {}", left.0, left.1)
        };
        book.text(MARGIN + 210.0, y, 11.0, false, &left);
        book.text(
            MARGIN + 320.0,
            y,
            11.0,
            false,
            &format!("{} / {} / {}", nodes.0, nodes.1, nodes.2),
        );
        y -= 15.0;
    }

    // The challenges, two a page, each level from a new page.
    let half = (height - 2.0 * MARGIN) / 2.0;
    for k in 0..set.levels.len() {
        for (i, c) in set.challenges.iter().filter(|c| c.level == k).enumerate() {
            if i % 2 == 0 {
                book.new_page();
            }
            let top = height - MARGIN - (i % 2) as f32 * half;
            book.text(MARGIN, top - 14.0, 13.0, true, &caption(set, c));
            let mut ty = top - 30.0;
            for line in wrap(&format!("To place: {}", to_place(c)), 10.0, inner) {
                book.text(MARGIN, ty, 10.0, false, &line);
                ty -= 13.0;
            }
            let pic_top = ty - 4.0;
            let pic_bottom = top - half + 8.0;
            book.picture(
                &sheet_svg(c),
                MARGIN,
                pic_bottom,
                inner,
                pic_top - pic_bottom,
            )?;
        }
    }

    // The solutions, six a page.
    let (cols, rows) = (2usize, 3usize);
    let cell_w = inner / cols as f32;
    let cell_h = (height - 2.0 * MARGIN - 24.0) / rows as f32;
    for (i, c) in set.challenges.iter().enumerate() {
        if i % (cols * rows) == 0 {
            book.new_page();
            book.text(MARGIN, height - MARGIN - 14.0, 14.0, true, "Solutions");
        }
        let slot = i % (cols * rows);
        let x = MARGIN + (slot % cols) as f32 * cell_w;
        let top = height - MARGIN - 24.0 - (slot / cols) as f32 * cell_h;
        book.text(
            x,
            top - 12.0,
            10.0,
            true,
            &format!("{} ({})", c.number, set.levels[c.level]),
        );
        book.picture(
            &solution_svg(c),
            x,
            top - cell_h + 4.0,
            cell_w - 8.0,
            cell_h - 20.0,
        )?;
    }

    // Page numbers, then the page objects.
    let count = book.pages.len();
    for n in 1..count {
        let (w, m) = (book.width, MARGIN);
        let label = format!("{}", n + 1);
        let page = &mut book.pages[n];
        page.content
            .begin_text()
            .set_fill_gray(0.4)
            .set_font(Name(b"F1"), 9.0)
            .next_line(w / 2.0 - 4.0, m / 2.0)
            .show(Str(label.as_bytes()))
            .end_text();
    }
    let pages = std::mem::take(&mut book.pages);
    let mut page_ids = Vec::with_capacity(count);
    for page in pages {
        let id = book.alloc();
        let content_id = book.alloc();
        page_ids.push(id);
        let mut p = book.pdf.page(id);
        p.media_box(Rect::new(0.0, 0.0, book.width, book.height));
        p.parent(tree);
        p.contents(content_id);
        let mut res = p.resources();
        res.fonts()
            .pair(Name(b"F1"), book.font)
            .pair(Name(b"F2"), bold);
        let mut xo = res.x_objects();
        for (name, r) in &page.pictures {
            xo.pair(Name(name.as_bytes()), *r);
        }
        xo.finish();
        res.finish();
        p.finish();
        book.pdf.stream(content_id, &page.content.finish());
    }
    book.pdf
        .pages(tree)
        .kids(page_ids.iter().copied())
        .count(count as i32);
    book.pdf.catalog(catalog).pages(tree);
    book.pdf
        .type1_font(book.font)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    book.pdf
        .type1_font(bold)
        .base_font(Name(b"Helvetica-Bold"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    book.pdf
        .document_info(info)
        .title(pdf_writer::TextStr(&format!(
            "{}: challenges",
            set.base.puzzle.name
        )))
        .creator(pdf_writer::TextStr("cubesat"));
    let mut bytes = book.pdf.finish();
    fix_entry_order(&mut bytes);
    Ok(bytes)
}

/// Sorts every run of consecutive `/Name N 0 R` lines of equal indent outside streams.
///
/// svg2pdf writes a picture's resource dictionaries (its patterns, graphics states) from a
/// hash map, in an order that changes from run to run; the order of a dictionary's entries
/// means nothing in PDF, so sorting them makes the bytes depend on the set alone. Each run
/// keeps its length, so the cross-reference offsets stay right; streams (compressed binary)
/// are skipped by their `/Length`.
fn fix_entry_order(pdf: &mut [u8]) {
    fn entry(line: &[u8]) -> Option<usize> {
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let rest = std::str::from_utf8(&line[indent..]).ok()?;
        let t: Vec<&str> = rest.split(' ').collect();
        let ok = t.len() == 4
            && t[0].len() > 1
            && t[0].starts_with('/')
            && t[1].bytes().all(|b| b.is_ascii_digit())
            && t[2] == "0"
            && t[3] == "R";
        ok.then_some(indent)
    }
    fn flush(pdf: &mut [u8], run: &mut Vec<(usize, usize)>) {
        if run.len() > 1 {
            let (start, end) = (run[0].0, run[run.len() - 1].1);
            let mut lines: Vec<Vec<u8>> = run.iter().map(|&(a, b)| pdf[a..b].to_vec()).collect();
            lines.sort();
            pdf[start..end].copy_from_slice(&lines.join(&b'\n'));
        }
        run.clear();
    }
    let mut run: Vec<(usize, usize)> = Vec::new();
    let mut run_indent = 0;
    let mut length: Option<usize> = None;
    let mut i = 0;
    while i < pdf.len() {
        let end = pdf[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(pdf.len(), |p| i + p);
        let line = &pdf[i..end];
        match entry(line) {
            Some(indent) if run.is_empty() || indent == run_indent => {
                run_indent = indent;
                run.push((i, end));
            }
            Some(indent) => {
                flush(pdf, &mut run);
                run_indent = indent;
                run.push((i, end));
            }
            None => flush(pdf, &mut run),
        }
        let line = &pdf[i..end];
        let text = String::from_utf8_lossy(line);
        if let Some(n) = text.trim_start().strip_prefix("/Length ") {
            length = n.trim().parse().ok();
        }
        if line == b"stream"
            && let Some(n) = length.take()
        {
            i = end + 1 + n;
            continue;
        }
        i = end + 1;
    }
    flush(pdf, &mut run);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_wrapping() {
        assert_eq!(pdf_text("5×11 ok"), b"5?11 ok".to_vec());
        let lines = wrap("aa bb cc dd", 10.0, 30.0);
        assert!(lines.len() > 1 && lines.iter().all(|l| !l.is_empty()));
        assert_eq!(Paper::parse("Letter"), Some(Paper::Letter));
        assert_eq!(Paper::parse("a5"), None);
    }

    #[test]
    fn resource_entries_are_sorted_outside_streams() {
        let mut pdf = b"<<\n  /po9 61 0 R\n  /po10 5 0 R\n  /Length 17\n>>\nstream\n/b 1 0 R\n/a 1 0 R\nendstream\n  /z 1 0 R\n  /y 2 0 R\n".to_vec();
        let before = pdf.len();
        fix_entry_order(&mut pdf);
        assert_eq!(pdf.len(), before);
        assert_eq!(
            String::from_utf8(pdf).unwrap(),
            "<<\n  /po10 5 0 R\n  /po9 61 0 R\n  /Length 17\n>>\nstream\n/b 1 0 R\n/a 1 0 R\nendstream\n  /y 2 0 R\n  /z 1 0 R\n"
        );
    }

    #[test]
    fn the_picture_loses_its_legend() {
        let s = render::svg(&render::samples::tetris_cube(), false);
        let p = picture_only(&s);
        assert!(s.contains(r#"<g id="legend""#) && !p.contains(r#"<g id="legend""#));
        assert!(
            p.contains(r#"viewBox="0 30 "#),
            "{}",
            &p[..300.min(p.len())]
        );
    }
}
