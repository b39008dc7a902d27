//! The text renderer: a scene's z layers side by side, one letter per cell, optional ANSI colour.
//!
//! Layout, per container (several containers come one below the other, separated by a blank
//! line and headed `box K of N: XxYxZ`):
//!
//! ```text
//! z=0       z=1       z=2
//! A A b     A C C     D D D
//! A . b     C C       D . D
//! ```
//!
//! - Layers go left to right by increasing z, labelled with the global z (`z=0  z=1 ...`).
//! - Rows: the **top row is y = 0**, as in the layer art of puzzle files, so a layer prints the
//!   way it is written. Cells in a row are separated by one space.
//! - A cell shows its piece's letter as the puzzle gives it, and a **hint's letter in
//!   lowercase** (non-alphabetic letters are shown as they are; with colour, hints are also
//!   bold and underlined); `.` is a target cell left empty; a blank is a cell of the bounding
//!   box outside the target.
//! - With `color`, each piece's cells get its palette colour (24-bit ANSI background, black or
//!   white text by luminance), the space between two horizontally adjacent cells of one piece is
//!   coloured too so pieces read as blocks, and hint cells are additionally bold and underlined.
//! - Copies of one piece ([`Scene::copies`]) carry their copy number after the letter
//!   (`b1 b1 b2`; every cell of such a scene is then as wide as the widest mark), and with
//!   colour each copy has its own shade of the piece's colour.
//! - A legend follows: `legend: A = name, b = name (hint), b1..b6 = name, . = empty`, wrapped
//!   at 78 columns.
//!
//! A container whose box is too large to draw cell by cell ([`super::drawn_cell_by_cell`]: two
//! cells at opposite corners of a 1024-cube) is listed instead: a line saying so, then one line
//! per piece with its cells as `(x, y, z)` in the container's coordinates (`.` for the empty
//! ones), so the text grows with the cells, not with the box.
//!
//! Balls (a scene on the sphere grid) are drawn the same way in the layer frame
//! ([`Grid::to_user`]), the frame their puzzle files are typed in: `z=k` is layer k, a row
//! is a row of that layer's art, one character per ball, so a square pyramid reads as
//! squares shrinking from their common corner. A ball of layer k + 1 rests on the four
//! below it at the same and the next column and row.
//!
//! Trailing blanks are trimmed from every line; the output ends with a newline.

use super::{Container, Occupant, Scene};
use crate::geometry::{self, Grid};

/// Gap between two layers.
const LAYER_GAP: usize = 3;
/// Legend wrap width.
const WRAP: usize = 78;

/// What is drawn at one character position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Piece(usize),
}

/// Render `scene` as text; `color` adds ANSI truecolour escapes (the caller decides, e.g. from
/// `--color auto|always|never` and whether stdout is a terminal).
pub fn text(scene: &Scene, color: bool) -> String {
    let occ = scene.occupancy();
    let copies = scene.copies();
    let marks: Vec<String> = (0..scene.pieces.len())
        .map(|i| shown_mark(scene, i, copies[i]))
        .collect();
    // Every cell as wide as the widest mark, so columns stay aligned.
    let cell = marks
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let colours: Vec<String> = (0..scene.pieces.len())
        .map(|i| sgr(scene, i, copies[i]))
        .collect();
    let mut out = String::new();
    if !scene.title.is_empty() {
        out.push_str(&scene.title);
        out.push('\n');
    }
    let n = scene.containers.len();
    let frames = Frame::all(scene);
    let listed = sparse_cells(scene, &frames);
    for (k, frame) in frames.iter().enumerate() {
        if n > 1 {
            if k > 0 {
                out.push('\n');
            }
            let size = frame.shown.size;
            out.push_str(&format!(
                "box {} of {}: {}x{}x{}\n",
                k + 1,
                n,
                size[0],
                size[1],
                size[2]
            ));
        }
        if !super::drawn_cell_by_cell(&frame.shown) {
            out.push_str(&cell_list(scene, frame, &listed[k], color));
            continue;
        }
        let [ox, oy, oz] = frame.shown.origin;
        let [sx, sy, sz] = frame.shown.size;
        let labels: Vec<String> = (0..sz).map(|z| format!("z={}", oz + z)).collect();
        let grid_width = (cell + 1) * sx.max(1) as usize - 1;
        let widths: Vec<usize> = labels.iter().map(|l| l.len().max(grid_width)).collect();

        let mut label_line: Vec<(char, Style)> = Vec::new();
        for (z, label) in labels.iter().enumerate() {
            if z > 0 {
                push_blank(&mut label_line, LAYER_GAP);
            }
            label_line.extend(label.chars().map(|c| (c, Style::Plain)));
            push_blank(&mut label_line, widths[z] - label.len());
        }
        emit_line(&mut out, label_line, &colours, color);

        for y in 0..sy {
            let mut line: Vec<(char, Style)> = Vec::new();
            for z in 0..sz {
                if z > 0 {
                    push_blank(&mut line, LAYER_GAP);
                }
                let start = line.len();
                let mut prev: Option<Occupant> = None;
                for x in 0..sx {
                    let here = occ.get(&frame.cell([ox + x, oy + y, oz + z])).copied();
                    if x > 0 {
                        match (prev, here) {
                            (Some(Occupant::Piece(a)), Some(Occupant::Piece(b))) if a == b => {
                                line.push((' ', Style::Piece(a)))
                            }
                            _ => line.push((' ', Style::Plain)),
                        }
                    }
                    let (shown, style) = match here {
                        Some(Occupant::Piece(i)) => (marks[i].as_str(), Style::Piece(i)),
                        Some(Occupant::Empty) => (".", Style::Plain),
                        None => (" ", Style::Plain),
                    };
                    let used = shown.chars().count();
                    line.extend(shown.chars().map(|c| (c, style)));
                    push_styled(&mut line, cell - used, style);
                    prev = here;
                }
                let used = line.len() - start;
                push_blank(&mut line, widths[z as usize] - used);
            }
            emit_line(&mut out, line, &colours, color);
        }
    }
    out.push_str(&legend(scene, &copies, &colours, color));
    out
}

/// For each container too large to draw as layers ([`super::drawn_cell_by_cell`]), its cells:
/// piece index (`None` for an empty cell) and position, pieces in scene order; an empty list
/// for the others. One pass over the scene's cells.
fn sparse_cells(scene: &Scene, frames: &[Frame]) -> Vec<Vec<(Option<usize>, [i32; 3])>> {
    let sparse: Vec<bool> = frames
        .iter()
        .map(|f| !super::drawn_cell_by_cell(&f.shown))
        .collect();
    let mut out = vec![Vec::new(); scene.containers.len()];
    if !sparse.contains(&true) {
        return out;
    }
    let cells = scene
        .pieces
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.cells.iter().map(move |&c| (Some(i), c)));
    for (who, c) in cells.chain(scene.empty.iter().map(|&c| (None, c))) {
        if let Some(k) = scene.container_of(c).filter(|&k| sparse[k]) {
            out[k].push((who, c));
        }
    }
    out
}

/// A container too large to draw as layers: a line saying so, then each piece's cells in it
/// (and the empty ones) as `(x, y, z)` in the container's own coordinates (balls: `(column,
/// row, layer)` from the frame's corner), wrapped at [`WRAP`] columns.
fn cell_list(
    scene: &Scene,
    frame: &Frame,
    cells: &[(Option<usize>, [i32; 3])],
    color: bool,
) -> String {
    let cont = &frame.shown;
    let [sx, sy, sz] = cont.size;
    let mut out = format!(
        "a {sx}x{sy}x{sz} box with {} cells, too sparse to draw as layers; its cells (x, y, z) by piece:\n",
        cells.len()
    );
    let copies = scene.copies();
    let mut at = 0;
    while at < cells.len() {
        let who = cells[at].0;
        let label = match who {
            Some(i) if color => format!(
                "{}{}\x1b[0m:",
                sgr(scene, i, copies[i]),
                shown_mark(scene, i, copies[i])
            ),
            Some(i) => format!("{}:", shown_mark(scene, i, copies[i])),
            None => ".:".to_string(),
        };
        out.push_str(&label);
        let mut col = 2;
        while at < cells.len() && cells[at].0 == who {
            let c = frame.pos(cells[at].1);
            let shown = format!(
                "({}, {}, {})",
                c[0] - cont.origin[0],
                c[1] - cont.origin[1],
                c[2] - cont.origin[2]
            );
            if col + 1 + shown.len() > WRAP && col > 2 {
                out.push_str("\n  ");
                col = 2;
            }
            out.push(' ');
            out.push_str(&shown);
            col += 1 + shown.len();
            at += 1;
        }
        out.push('\n');
    }
    out
}

/// The box a container is drawn in, cell by cell or as a list: the container itself on the
/// cube grid; on a grid typed in a frame of layers (the sphere grid's, [`Grid::to_user`]) the
/// box its cells span in that frame, where every integer triple is a cell and a layer is a
/// square grid.
struct Frame {
    grid: Grid,
    shown: Container,
}

impl Frame {
    /// The frame of every container of `scene`.
    fn all(scene: &Scene) -> Vec<Frame> {
        let mut frames: Vec<Frame> = scene
            .containers
            .iter()
            .map(|&c| Frame {
                grid: scene.grid,
                shown: c,
            })
            .collect();
        match scene.grid.frame() {
            geometry::Frame::Lattice => return frames,
            geometry::Frame::Layers => {}
        }
        let mut span = vec![None::<([i32; 3], [i32; 3])>; frames.len()];
        let cells = scene
            .pieces
            .iter()
            .flat_map(|p| &p.cells)
            .chain(&scene.empty);
        for &c in cells.filter(|&&c| scene.grid.is_cell(c)) {
            let Some(k) = scene.container_of(c) else {
                continue;
            };
            let l = scene.grid.to_user(c);
            let (lo, hi) = span[k].get_or_insert((l, l));
            for a in 0..3 {
                lo[a] = lo[a].min(l[a]);
                hi[a] = hi[a].max(l[a]);
            }
        }
        for (f, s) in frames.iter_mut().zip(span) {
            let (lo, hi) = s.unwrap_or(([0; 3], [-1; 3]));
            // From a typed step below the corner, so each cell reads as it is typed.
            let lo = scene.grid.typed_step_below(lo);
            f.shown = Container {
                origin: lo,
                size: std::array::from_fn(|a| hi[a] - lo[a] + 1),
            };
        }
        frames
    }

    /// The scene cell at frame position `p`.
    fn cell(&self, p: [i32; 3]) -> [i32; 3] {
        self.grid.from_user(p)
    }

    /// The frame position of scene cell `c`.
    fn pos(&self, c: [i32; 3]) -> [i32; 3] {
        self.grid.to_user(c)
    }
}

/// The letter shown for piece `i`: its own, or lowercase for a hint.
fn shown_letter(scene: &Scene, i: usize) -> char {
    let p = &scene.pieces[i];
    if p.hint {
        p.letter.to_lowercase().next().unwrap_or(p.letter)
    } else {
        p.letter
    }
}

/// What a cell of piece `i` shows: its letter ([`shown_letter`]) and its copy number.
fn shown_mark(scene: &Scene, i: usize, copy: Option<(u32, u32)>) -> String {
    let letter = shown_letter(scene, i);
    match copy {
        Some((k, _)) => format!("{letter}{k}"),
        None => letter.to_string(),
    }
}

fn push_blank(line: &mut Vec<(char, Style)>, n: usize) {
    push_styled(line, n, Style::Plain);
}

fn push_styled(line: &mut Vec<(char, Style)>, n: usize, style: Style) {
    line.extend(std::iter::repeat_n((' ', style), n));
}

/// Trim trailing plain blanks, then write the line with escapes around runs of one style
/// (`colours[i]` starts a run of piece `i`).
fn emit_line(out: &mut String, mut line: Vec<(char, Style)>, colours: &[String], color: bool) {
    while line.last() == Some(&(' ', Style::Plain)) {
        line.pop();
    }
    let mut current = Style::Plain;
    for (ch, style) in line {
        if color && style != current {
            if current != Style::Plain {
                out.push_str("\x1b[0m");
            }
            if let Style::Piece(i) = style {
                out.push_str(&colours[i]);
            }
            current = style;
        }
        out.push(ch);
    }
    if color && current != Style::Plain {
        out.push_str("\x1b[0m");
    }
    out.push('\n');
}

/// The SGR escape that starts a run of piece `i`'s cells (copy `copy` of its piece).
fn sgr(scene: &Scene, i: usize, copy: Option<(u32, u32)>) -> String {
    let bg = scene.colour(i, copy);
    let fg = if bg.luminance() > 0.5 {
        (0, 0, 0)
    } else {
        (255, 255, 255)
    };
    let hint = if scene.pieces[i].hint { "1;4;" } else { "" };
    format!(
        "\x1b[{hint}48;2;{};{};{};38;2;{};{};{}m",
        bg.r, bg.g, bg.b, fg.0, fg.1, fg.2
    )
}

fn legend(scene: &Scene, copies: &[Option<(u32, u32)>], colours: &[String], color: bool) -> String {
    let mut entries: Vec<(String, usize)> = Vec::new(); // (text, visible width)
    // Copies of a piece share an entry (`b1..b6 = name`), hint copies apart from the others.
    // (shown letter, name, hint) and the pieces of that entry.
    type Entry<'a> = ((char, &'a str, bool), Vec<usize>);
    let mut groups: Vec<Entry> = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let key = (shown_letter(scene, i), p.name.as_str(), p.hint);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    for ((letter, name, hint), members) in groups {
        let numbers: Vec<u32> = members
            .iter()
            .filter_map(|&i| copies[i].map(|(k, _)| k))
            .collect();
        // A name that is just the letter says nothing new, unless copies are numbered.
        let trivial = name.chars().eq(std::iter::once(letter)) && !hint && numbers.is_empty();
        if trivial {
            continue;
        }
        let key = match numbers.as_slice() {
            [] => letter.to_string(),
            [k] => format!("{letter}{k}"),
            [first, .., last] if numbers.windows(2).all(|w| w[1] == w[0] + 1) => {
                format!("{letter}{first}..{letter}{last}")
            }
            _ => numbers
                .iter()
                .map(|k| format!("{letter}{k}"))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let rest = format!(" = {name}{}", if hint { " (hint)" } else { "" });
        let width = key.chars().count() + rest.chars().count();
        let shown = if color {
            format!("{}{key}\x1b[0m{rest}", colours[members[0]])
        } else {
            format!("{key}{rest}")
        };
        entries.push((shown, width));
    }
    if !scene.empty.is_empty() {
        entries.push((". = empty".to_string(), 9));
    }
    if entries.is_empty() {
        return String::new();
    }
    let mut out = String::from("legend:");
    let mut col = out.len();
    let count = entries.len();
    for (k, (shown, width)) in entries.into_iter().enumerate() {
        let width = width + usize::from(k + 1 < count); // the comma
        if col + 1 + width > WRAP && col > "legend:".len() {
            out.push_str("\n       ");
            col = 7;
        }
        out.push(' ');
        out.push_str(&shown);
        if k + 1 < count {
            out.push(',');
        }
        col += 1 + width;
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Container, ScenePiece};
    use super::*;

    fn piece(name: &str, letter: char, hint: bool, cells: &[[i32; 3]]) -> ScenePiece {
        ScenePiece {
            name: name.into(),
            letter,
            hint,
            cells: cells.to_vec(),
            color: (letter.to_ascii_uppercase() as u8).saturating_sub(b'A') as usize,
        }
    }

    fn small() -> Scene {
        Scene {
            title: "small".into(),
            containers: vec![Container {
                origin: [0, 0, 0],
                size: [3, 2, 2],
            }],
            pieces: vec![
                piece("bar", 'A', false, &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
                piece("ell", 'b', true, &[[0, 1, 0], [0, 1, 1], [1, 1, 1]]),
            ],
            empty: vec![[1, 1, 0], [0, 0, 1]],
            loose: false,
            ..Default::default()
        }
    }

    #[test]
    fn plain_golden() {
        let want = "\
small
z=0     z=1
A A A   .
b .     b b
legend: A = bar, b = ell (hint), . = empty
";
        assert_eq!(text(&small(), false), want);
    }

    #[test]
    fn balls_are_drawn_in_the_layer_frame() {
        let want = "\
Square pyramid, 14 balls
z=0     z=1     z=2
A A A   A d     d
B C C   B .
B B C
legend: A = piece A, B = piece B, C = piece C, d = piece D (hint), . = empty
";
        assert_eq!(text(&super::super::samples::small_pyramid(), false), want);
        let want = "\
Square pyramid, 30 balls
z=0       z=1       z=2       z=3
A A B B   A B B     A E       F
A C C B   D C E     C F
D C E E   D F F
D D E F
legend: A = piece A, B = piece B, C = piece C, D = piece D, E = piece E,
        F = piece F
";
        assert_eq!(text(&super::super::samples::square_pyramid(), false), want);
    }

    #[test]
    fn colour_marks_runs_and_hints() {
        let t = text(&small(), true);
        assert!(
            t.contains("\x1b[48;2;230;25;75;38;2;255;255;255mA A A\x1b[0m"),
            "{t:?}"
        );
        assert!(
            t.contains("\x1b[1;4;48;2;60;180;75;"),
            "hint is bold+underlined: {t:?}"
        );
    }
}
