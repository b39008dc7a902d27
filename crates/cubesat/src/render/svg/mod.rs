//! The SVG renderer: an isometric picture of a scene, a title and a legend; optionally exploded. Cubes, balls, prisms and tetrahedra are drawn apart (`cubes`, `balls`, `prisms`, `tetrahedra`; the last two share `cells`); this module holds the document frame, the legend, the labels and the page layout they share.
//!
//! The cube and ball views look from (+x, -y, +z) towards the scene and map a point onto lattice
//! coordinates `a = x + y`, `b = x - y - 2z` (screen x = a·√3/2·u, screen y = b·u/2 for a cube
//! edge of u pixels), at depth `x - y + z` towards the viewer; balls are turned 45° about z
//! first, so that a square pyramid shows two faces; prisms are seen from the south, from
//! above (see `prisms`), on the same lattice coordinates. Exploded view: every piece is moved
//! away from its container's centre by [`EXPLODE_FACTOR`] times its centroid's offset.
//!
//! The output is deterministic (fixed number formatting, ordered maps) and self-contained: no
//! external references, generic font family.

mod balls;
mod cells;
mod cubes;
mod prisms;
mod tetrahedra;

use super::{Scene, xml_escape};
use crate::geometry::CellShape;
use std::fmt::Write as _;

/// Pixels per cube edge.
pub const UNIT: f64 = 28.0;
/// How far [`svg`] with `explode` pushes pieces out, as a multiple of their centroid offset.
pub const EXPLODE_FACTOR: f64 = 1.5;

const MARGIN: f64 = 16.0;
const TITLE_HEIGHT: f64 = 30.0;
const LEGEND_ROW: f64 = 20.0;
const LEGEND_GAP: f64 = 28.0;
const LEGEND_WIDTH_PER_CHAR: f64 = 7.5;
const GHOST: super::Rgb = super::Rgb {
    r: 0xe4,
    g: 0xe4,
    b: 0xe4,
};

/// Render `scene` as a standalone SVG document; `explode` pulls the pieces apart.
pub fn svg(scene: &Scene, explode: bool) -> String {
    match scene.grid.cell_shape() {
        CellShape::Cube => cubes::svg(scene, explode),
        CellShape::Ball => balls::svg(scene, explode),
        CellShape::Prism => prisms::svg(scene, explode),
        CellShape::Tetrahedron => tetrahedra::svg(scene, explode),
    }
}

/// A label under a loose piece: the lattice point its text is centred on (the baseline) and
/// the text.
struct Label {
    a: f64,
    b: f64,
    text: String,
}

/// Approximate width of a label character, in pixels (12 px sans-serif).
const LABEL_WIDTH_PER_CHAR: f64 = 6.8;

/// A piece's label, and its legend row before "(hint)": its mark, then its name two spaces
/// on, unless the name is the mark or just the piece's letter (Soma's `A`, pentomino `V`),
/// which would read "A  A" or "b1  b".
fn label_text(scene: &Scene, i: usize, copy: Option<(u32, u32)>) -> String {
    let mark = scene.mark(i, copy);
    let p = &scene.pieces[i];
    if p.name == mark || p.name.chars().eq(std::iter::once(p.letter)) {
        mark
    } else {
        format!("{mark}  {}", p.name)
    }
}

/// The labels' group (nothing when there are none).
fn write_labels(s: &mut String, labels: &[Label], layout: &Layout) {
    if labels.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        r##"<g id="labels" font-size="12" fill="#222222" text-anchor="middle">"##
    );
    for l in labels {
        let (x, y) = layout.xy(l.a, l.b);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            num(x),
            num(y),
            xml_escape(&l.text)
        );
    }
    let _ = writeln!(s, "</g>");
}

/// The legend: one row per piece (its mark, its name unless that is just the letter, and
/// "(hint)" for hints), then a row for the ghost cubes when cells are empty, sized so the page
/// can make room for it beside the picture.
struct Legend {
    rows: Vec<(String, super::Rgb)>,
    width: f64,
    height: f64,
}

impl Legend {
    fn new(scene: &Scene) -> Legend {
        let copies = scene.copies();
        let mut rows: Vec<(String, super::Rgb)> = scene
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let hint = if p.hint { " (hint)" } else { "" };
                (
                    format!("{}{hint}", label_text(scene, i, copies[i])),
                    scene.colour(i, copies[i]),
                )
            })
            .collect();
        if !scene.empty.is_empty() {
            rows.push(("·  empty".to_string(), GHOST));
        }
        let chars = rows.iter().map(|l| l.0.chars().count()).max().unwrap_or(0);
        let width = if rows.is_empty() {
            0.0
        } else {
            LEGEND_GAP + 18.0 + chars as f64 * LEGEND_WIDTH_PER_CHAR
        };
        let height = rows.len() as f64 * LEGEND_ROW;
        Legend {
            rows,
            width,
            height,
        }
    }

    /// Writes the legend group to the right of the picture (nothing when there are no rows).
    fn write(&self, s: &mut String, layout: &Layout) {
        if self.rows.is_empty() {
            return;
        }
        let lx = MARGIN + layout.pic_w + LEGEND_GAP;
        let _ = writeln!(s, r##"<g id="legend" font-size="13" fill="#222222">"##);
        for (k, (label, colour)) in self.rows.iter().enumerate() {
            let y = MARGIN + TITLE_HEIGHT + k as f64 * LEGEND_ROW;
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="13" height="13" fill="{}" stroke="#222222" stroke-width="0.8"/><text x="{}" y="{}">{}</text>"##,
                num(lx),
                num(y + 1.0),
                colour.hex(),
                num(lx + 19.0),
                num(y + 12.0),
                xml_escape(label)
            );
        }
        let _ = writeln!(s, "</g>");
    }
}

/// Where things go on the page: the lattice-to-pixel mapping (scale `sx`, `sy`, then shift
/// `tx`, `ty` so the picture starts at the margin below the title) and the page size, which
/// fits the picture and the legend beside it, and the title.
struct Layout {
    sx: f64,
    sy: f64,
    tx: f64,
    ty: f64,
    /// Width of the picture alone, where the legend starts.
    pic_w: f64,
    width: f64,
    height: f64,
}

impl Layout {
    /// The layout for a picture spanning lattice coordinates `lo` to `hi`.
    fn fit(scene: &Scene, lo: (f64, f64), hi: (f64, f64), legend: &Legend) -> Layout {
        let sx = UNIT * 3f64.sqrt() / 2.0;
        let sy = UNIT / 2.0;
        let pic_w = (hi.0 - lo.0) * sx;
        let pic_h = (hi.1 - lo.1) * sy;
        let title_w = scene.title.chars().count() as f64 * 9.0;
        Layout {
            sx,
            sy,
            tx: MARGIN - lo.0 * sx,
            ty: MARGIN + TITLE_HEIGHT - lo.1 * sy,
            pic_w,
            width: (MARGIN * 2.0 + pic_w + legend.width)
                .max(MARGIN * 2.0 + title_w)
                .ceil(),
            height: (MARGIN * 2.0 + TITLE_HEIGHT + pic_h.max(legend.height)).ceil(),
        }
    }

    /// The page coordinates of lattice coordinates (a, b), which may be fractional.
    fn xy(&self, a: f64, b: f64) -> (f64, f64) {
        (a * self.sx + self.tx, b * self.sy + self.ty)
    }

    /// The page coordinates `"X Y"` of lattice coordinates (a, b), which may be fractional.
    fn at(&self, a: f64, b: f64) -> String {
        let (x, y) = self.xy(a, b);
        format!("{} {}", num(x), num(y))
    }
}

/// The document's opening: XML declaration, generator comment, the `<svg>` element sized by
/// the layout, title, white background, heading, and the container floors (drawn first, under
/// everything).
fn write_head(
    s: &mut String,
    scene: &Scene,
    explode: bool,
    layout: &Layout,
    floors: &[String],
    view: &str,
) {
    let title = xml_escape(&scene.title);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        "<!-- Generated by cubesat {} (render::svg): {view}{}, {} pieces. Self-contained; no external references. -->",
        env!("CARGO_PKG_VERSION"),
        if explode { ", exploded" } else { "" },
        scene.pieces.len()
    );
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = num(layout.width),
        h = num(layout.height)
    );
    let _ = writeln!(s, "<title>{title}</title>");
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="17" font-weight="bold" fill="#222222">{title}</text>"##,
        num(MARGIN),
        num(MARGIN + 16.0)
    );
    let _ = writeln!(
        s,
        r##"<g id="floors" fill="#f3f3f3" stroke="#bbbbbb" stroke-width="1" stroke-linejoin="round">"##
    );
    for d in floors {
        let _ = writeln!(s, r#"<path d="{d}"/>"#);
    }
    let _ = writeln!(s, "</g>");
}

/// A coordinate rounded to 0.1 without a negative zero.
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0 + 0.0;
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(3.0), "3");
    }
}
