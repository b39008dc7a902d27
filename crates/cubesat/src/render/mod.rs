//! Rendering solved (or hints-only) puzzles: the renderer input [`Scene`], the piece palette,
//! and the text, SVG and self-contained HTML/WebGL renderers plus the slide-in assembly order.
//!
//! The renderers know nothing about puzzles or solutions: a caller builds a [`Scene`] (global
//! cell coordinates, pieces in a fixed order) and hands it to
//!
//! - [`text::text`]: z layers side by side, one letter per piece, optional ANSI truecolour;
//! - [`svg::svg`]: an isometric picture with exact hidden-face removal, optionally exploded;
//! - [`html::html`]: one offline HTML file with an inline WebGL viewer (rotate, zoom, layer and
//!   explode sliders, slide-in assembly step-through, paging through several solutions);
//! - [`assembly::assembly_order`]: an order in which every piece slides straight down (-z) into
//!   place without passing through pieces placed before it.
//!
//! Coordinates: x grows to the right, y grows "north" (away from the viewer in pictures, towards
//! the top row in text) and z is the layer index (up). Piece colours come from
//! [`piece_color`] applied to [`ScenePiece::color`], except for a piece named after a CSS
//! colour ([`named_color`]: IQ Puzzler Pro's `red`, `darkgreen`, ...), drawn in that colour.

pub mod assembly;
pub mod ballmesh;
pub mod html;
pub mod mesh;
pub mod plan;
pub mod prismmesh;
pub mod samples;
pub mod stl;
pub mod svg;
pub mod tetramesh;
pub mod text;

pub use assembly::{AssemblyOrder, assembly_order, assembly_order_cells};
pub use html::{html, html_with_plans};
pub use plan::ScenePlan;
pub use svg::svg;
pub use text::text;

use std::collections::HashMap;

use crate::geometry::{CellShape, Grid};

/// Everything a renderer needs to draw one solution (or a puzzle with only its hints).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scene {
    /// Shown as the heading / `<title>`, e.g. `"Tetris Cube, solution 1"`.
    pub title: String,
    /// Bounding boxes of the target's containers in global coordinates; one or more, which the
    /// caller places side by side (disjoint) in global coordinates.
    pub containers: Vec<Container>,
    /// Placed pieces in a fixed order; the index in this vector picks the colour.
    pub pieces: Vec<ScenePiece>,
    /// Target cells left empty: optional cells of a solution, or the unsolved cells of a
    /// hints-only puzzle view. Cells of a container in neither `pieces` nor `empty` are outside
    /// the target (drawn as blank).
    pub empty: Vec<[i32; 3]>,
    /// The pieces are laid out on their own (a puzzle sheet's pieces to place, `show`), not
    /// assembled: the SVG labels each piece alone in its container with its name, and the HTML
    /// page offers no assembly order to step through.
    pub loose: bool,
    /// The lattice the cells are on: every renderer draws its cells as the grid says
    /// ([`Grid::cell_shape`]: cubes, or balls in the cube grid's coordinates), and the text
    /// view shows them in the frame people type them in ([`Grid::to_user`]).
    pub grid: Grid,
}

/// A container's bounding box in global coordinates: cells `origin + [0..size)` per axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Container {
    /// Lowest corner cell (x, y, z).
    pub origin: [i32; 3],
    /// Extent along x, y, z (each at least 1).
    pub size: [i32; 3],
}

/// One placed piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenePiece {
    /// Full name for legends, e.g. `"L tetracube"`.
    pub name: String,
    /// One character identifying the piece in text output and legends.
    pub letter: char,
    /// A hint (pre-placed by the puzzle) rather than a piece placed by the solver.
    pub hint: bool,
    /// The piece's cells in global coordinates.
    pub cells: Vec<[i32; 3]>,
    /// Palette index for [`piece_color`]: the puzzle's piece index, so a piece keeps its
    /// colour in every solution and in a hints-only view, and identical copies share it. Not
    /// used for a piece whose name is a colour ([`named_color`]).
    pub color: usize,
}

impl Container {
    /// Whether `cell` lies inside this bounding box.
    pub fn contains(&self, cell: [i32; 3]) -> bool {
        (0..3).all(|i| cell[i] >= self.origin[i] && cell[i] < self.origin[i] + self.size[i])
    }

    /// Centre of the box in cell units (cell `c` spans `c..c+1`).
    pub(crate) fn center(&self) -> [f64; 3] {
        std::array::from_fn(|i| self.origin[i] as f64 + self.size[i] as f64 / 2.0)
    }
}

/// The STL mesh of one piece on `grid`, as the grid's cells are meshed: [`stl::polycube`]
/// for cubes, [`ballmesh::balls`] for balls, [`prismmesh::prisms`] for prisms; `cube` is the
/// cube edge, ball diameter or prism edge (mm), `gap` the clearance (mm).
pub fn piece_mesh(
    grid: Grid,
    cells: &[crate::geometry::Cell],
    cube: f64,
    gap: f64,
) -> crate::error::Result<stl::Mesh> {
    match grid.cell_shape() {
        CellShape::Cube => stl::polycube(cells, cube, gap),
        CellShape::Ball => ballmesh::balls(cells, cube, gap),
        CellShape::Prism => prismmesh::prisms(grid, cells, cube, gap),
        CellShape::Tetrahedron => tetramesh::tetrahedra(grid, cells, cube, gap),
    }
}

/// Whether a container is small enough to draw cell by cell (text layers, the 3D page's cell
/// grid): at most [`crate::puzzle::MAX_ART_CELLS`] cells in its box. Larger boxes, which only a
/// sparse shape can have, are drawn from their cells alone.
pub fn drawn_cell_by_cell(c: &Container) -> bool {
    crate::puzzle::fits_art(c.size)
}

/// What occupies a cell of a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Occupant {
    Piece(usize),
    Empty,
}

impl Scene {
    /// Cell → occupant. A cell listed twice keeps the first piece that lists it.
    pub(crate) fn occupancy(&self) -> HashMap<[i32; 3], Occupant> {
        let mut map = HashMap::new();
        for (i, p) in self.pieces.iter().enumerate() {
            for &c in &p.cells {
                map.entry(c).or_insert(Occupant::Piece(i));
            }
        }
        for &c in &self.empty {
            map.entry(c).or_insert(Occupant::Empty);
        }
        map
    }

    /// Which copy each piece is: `Some((k, n))` for copy `k` (from 1, in scene order) of the
    /// `n` pieces of the scene that are copies of one puzzle piece (the same name, letter and
    /// colour index), `None` for a piece that appears once. Renderers mark copies with `k`
    /// (`b1`..`b6`) and draw them in shades of their piece's colour, so that they can be told
    /// apart.
    pub fn copies(&self) -> Vec<Option<(u32, u32)>> {
        let key = |p: &ScenePiece| (p.color, p.name.clone(), p.letter);
        let mut total: HashMap<(usize, String, char), u32> = HashMap::new();
        for p in &self.pieces {
            *total.entry(key(p)).or_default() += 1;
        }
        let mut seen: HashMap<(usize, String, char), u32> = HashMap::new();
        self.pieces
            .iter()
            .map(|p| {
                let n = total[&key(p)];
                let k = seen.entry(key(p)).or_default();
                *k += 1;
                (n > 1).then_some((*k, n))
            })
            .collect()
    }

    /// The colour piece `i` is drawn in: the colour its name names ([`named_color`]), else its
    /// palette colour; for one of several copies ([`Scene::copies`]) a shade of it, from
    /// darker (the first copy) to lighter (the last).
    pub fn colour(&self, i: usize, copy: Option<(u32, u32)>) -> Rgb {
        let piece = &self.pieces[i];
        let base = named_color(&piece.name).unwrap_or_else(|| piece_color(piece.color));
        match copy {
            Some((k, n)) if n > 1 => {
                let t = -0.4 + 0.8 * (k - 1) as f64 / (n - 1) as f64;
                if t < 0.0 {
                    base.scaled(1.0 + t)
                } else {
                    base.lightened(t)
                }
            }
            _ => base,
        }
    }

    /// The mark of piece `i` in text and legends: its letter, and its copy number when it is
    /// one of several copies (`b3`).
    pub fn mark(&self, i: usize, copy: Option<(u32, u32)>) -> String {
        match copy {
            Some((k, _)) => format!("{}{k}", self.pieces[i].letter),
            None => self.pieces[i].letter.to_string(),
        }
    }

    /// Index of the container holding `cell`, if any.
    pub(crate) fn container_of(&self, cell: [i32; 3]) -> Option<usize> {
        self.containers.iter().position(|c| c.contains(cell))
    }

    /// The explode centre of piece `i`: the centre of the container holding its first cell, or
    /// the centre of all containers together.
    pub(crate) fn explode_center(&self, i: usize) -> [f64; 3] {
        let own = self.pieces[i]
            .cells
            .first()
            .and_then(|&c| self.container_of(c));
        match own {
            Some(k) => self.containers[k].center(),
            None => self.overall_center(),
        }
    }

    fn overall_center(&self) -> [f64; 3] {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for c in &self.containers {
            for i in 0..3 {
                lo[i] = lo[i].min(c.origin[i] as f64);
                hi[i] = hi[i].max((c.origin[i] + c.size[i]) as f64);
            }
        }
        if lo[0].is_finite() {
            std::array::from_fn(|i| (lo[i] + hi[i]) / 2.0)
        } else {
            [0.0; 3]
        }
    }
}

/// Centroid of a piece's cells (cell centres), `None` for a piece without cells.
pub(crate) fn centroid(cells: &[[i32; 3]]) -> Option<[f64; 3]> {
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as f64;
    Some(std::array::from_fn(|i| {
        cells.iter().map(|c| c[i] as f64 + 0.5).sum::<f64>() / n
    }))
}

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb {
    /// Red, 0-255.
    pub r: u8,
    /// Green, 0-255.
    pub g: u8,
    /// Blue, 0-255.
    pub b: u8,
}

impl Rgb {
    /// `#rrggbb`, as the pages and pictures write it.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// Multiply each channel by `f` (0..=1 darkens).
    pub(crate) fn scaled(self, f: f64) -> Rgb {
        let s = |v: u8| (v as f64 * f).round().clamp(0.0, 255.0) as u8;
        Rgb {
            r: s(self.r),
            g: s(self.g),
            b: s(self.b),
        }
    }

    /// Mix towards white by `t` (0 = unchanged, 1 = white).
    pub(crate) fn lightened(self, t: f64) -> Rgb {
        let s = |v: u8| {
            (v as f64 + (255.0 - v as f64) * t)
                .round()
                .clamp(0.0, 255.0) as u8
        };
        Rgb {
            r: s(self.r),
            g: s(self.g),
            b: s(self.b),
        }
    }

    /// Relative luminance in 0..=1 (rough sRGB weights, enough to pick black or white text).
    pub(crate) fn luminance(self) -> f64 {
        (0.2126 * self.r as f64 + 0.7152 * self.g as f64 + 0.0722 * self.b as f64) / 255.0
    }
}

/// The base palette: twelve well-separated colours (one per Tetris Cube piece), then four more.
pub(crate) const PALETTE: [Rgb; 16] = [
    rgb(0xe6194b), // red
    rgb(0x3cb44b), // green
    rgb(0xffe119), // yellow
    rgb(0x4363d8), // blue
    rgb(0xf58231), // orange
    rgb(0x911eb4), // purple
    rgb(0x42d4f4), // cyan
    rgb(0xf032e6), // magenta
    rgb(0xbfef45), // lime
    rgb(0xfabed4), // pink
    rgb(0x469990), // teal
    rgb(0x9a6324), // brown
    rgb(0xdcbeff), // lavender
    rgb(0x800000), // maroon
    rgb(0xaaffc3), // mint
    rgb(0x808000), // olive
];

const fn rgb(v: u32) -> Rgb {
    Rgb {
        r: (v >> 16) as u8,
        g: (v >> 8) as u8,
        b: v as u8,
    }
}

/// The colour of the piece with index `index`: the palette in order; past its end the palette
/// repeats, alternately darker and lighter by growing steps (round 1 darker by 30 %, round 2
/// lighter by 30 %, round 3 darker by 45 %, ...), so colours stay deterministic and distinct for
/// a long while.
pub fn piece_color(index: usize) -> Rgb {
    let base = PALETTE[index % PALETTE.len()];
    let round = index / PALETTE.len();
    if round == 0 {
        return base;
    }
    let step = (0.15 + 0.15 * round.div_ceil(2) as f64).min(0.75);
    if round % 2 == 1 {
        base.scaled(1.0 - step)
    } else {
        base.lightened(step)
    }
}

/// The colour a piece's name names, if it is a CSS named colour (`red`, `darkgreen`; case,
/// spaces, `-` and `_` aside, so `Dark Green` too): puzzles whose pieces are told apart by
/// their colours (IQ Puzzler Pro, Kanoodle) name them so, and their pictures should match the
/// pieces in the box and the studio's editor, which colours a piece by its name the same way.
pub fn named_color(name: &str) -> Option<Rgb> {
    if name.len() > 40 {
        return None;
    }
    let key: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    CSS_COLORS
        .binary_search_by(|(n, _)| (*n).cmp(key.as_str()))
        .ok()
        .map(|k| CSS_COLORS[k].1)
}

/// The CSS named colours (CSS Color Module Level 4), sorted by name for [`named_color`].
const CSS_COLORS: [(&str, Rgb); 148] = [
    ("aliceblue", rgb(0xf0f8ff)),
    ("antiquewhite", rgb(0xfaebd7)),
    ("aqua", rgb(0x00ffff)),
    ("aquamarine", rgb(0x7fffd4)),
    ("azure", rgb(0xf0ffff)),
    ("beige", rgb(0xf5f5dc)),
    ("bisque", rgb(0xffe4c4)),
    ("black", rgb(0x000000)),
    ("blanchedalmond", rgb(0xffebcd)),
    ("blue", rgb(0x0000ff)),
    ("blueviolet", rgb(0x8a2be2)),
    ("brown", rgb(0xa52a2a)),
    ("burlywood", rgb(0xdeb887)),
    ("cadetblue", rgb(0x5f9ea0)),
    ("chartreuse", rgb(0x7fff00)),
    ("chocolate", rgb(0xd2691e)),
    ("coral", rgb(0xff7f50)),
    ("cornflowerblue", rgb(0x6495ed)),
    ("cornsilk", rgb(0xfff8dc)),
    ("crimson", rgb(0xdc143c)),
    ("cyan", rgb(0x00ffff)),
    ("darkblue", rgb(0x00008b)),
    ("darkcyan", rgb(0x008b8b)),
    ("darkgoldenrod", rgb(0xb8860b)),
    ("darkgray", rgb(0xa9a9a9)),
    ("darkgreen", rgb(0x006400)),
    ("darkgrey", rgb(0xa9a9a9)),
    ("darkkhaki", rgb(0xbdb76b)),
    ("darkmagenta", rgb(0x8b008b)),
    ("darkolivegreen", rgb(0x556b2f)),
    ("darkorange", rgb(0xff8c00)),
    ("darkorchid", rgb(0x9932cc)),
    ("darkred", rgb(0x8b0000)),
    ("darksalmon", rgb(0xe9967a)),
    ("darkseagreen", rgb(0x8fbc8f)),
    ("darkslateblue", rgb(0x483d8b)),
    ("darkslategray", rgb(0x2f4f4f)),
    ("darkslategrey", rgb(0x2f4f4f)),
    ("darkturquoise", rgb(0x00ced1)),
    ("darkviolet", rgb(0x9400d3)),
    ("deeppink", rgb(0xff1493)),
    ("deepskyblue", rgb(0x00bfff)),
    ("dimgray", rgb(0x696969)),
    ("dimgrey", rgb(0x696969)),
    ("dodgerblue", rgb(0x1e90ff)),
    ("firebrick", rgb(0xb22222)),
    ("floralwhite", rgb(0xfffaf0)),
    ("forestgreen", rgb(0x228b22)),
    ("fuchsia", rgb(0xff00ff)),
    ("gainsboro", rgb(0xdcdcdc)),
    ("ghostwhite", rgb(0xf8f8ff)),
    ("gold", rgb(0xffd700)),
    ("goldenrod", rgb(0xdaa520)),
    ("gray", rgb(0x808080)),
    ("green", rgb(0x008000)),
    ("greenyellow", rgb(0xadff2f)),
    ("grey", rgb(0x808080)),
    ("honeydew", rgb(0xf0fff0)),
    ("hotpink", rgb(0xff69b4)),
    ("indianred", rgb(0xcd5c5c)),
    ("indigo", rgb(0x4b0082)),
    ("ivory", rgb(0xfffff0)),
    ("khaki", rgb(0xf0e68c)),
    ("lavender", rgb(0xe6e6fa)),
    ("lavenderblush", rgb(0xfff0f5)),
    ("lawngreen", rgb(0x7cfc00)),
    ("lemonchiffon", rgb(0xfffacd)),
    ("lightblue", rgb(0xadd8e6)),
    ("lightcoral", rgb(0xf08080)),
    ("lightcyan", rgb(0xe0ffff)),
    ("lightgoldenrodyellow", rgb(0xfafad2)),
    ("lightgray", rgb(0xd3d3d3)),
    ("lightgreen", rgb(0x90ee90)),
    ("lightgrey", rgb(0xd3d3d3)),
    ("lightpink", rgb(0xffb6c1)),
    ("lightsalmon", rgb(0xffa07a)),
    ("lightseagreen", rgb(0x20b2aa)),
    ("lightskyblue", rgb(0x87cefa)),
    ("lightslategray", rgb(0x778899)),
    ("lightslategrey", rgb(0x778899)),
    ("lightsteelblue", rgb(0xb0c4de)),
    ("lightyellow", rgb(0xffffe0)),
    ("lime", rgb(0x00ff00)),
    ("limegreen", rgb(0x32cd32)),
    ("linen", rgb(0xfaf0e6)),
    ("magenta", rgb(0xff00ff)),
    ("maroon", rgb(0x800000)),
    ("mediumaquamarine", rgb(0x66cdaa)),
    ("mediumblue", rgb(0x0000cd)),
    ("mediumorchid", rgb(0xba55d3)),
    ("mediumpurple", rgb(0x9370db)),
    ("mediumseagreen", rgb(0x3cb371)),
    ("mediumslateblue", rgb(0x7b68ee)),
    ("mediumspringgreen", rgb(0x00fa9a)),
    ("mediumturquoise", rgb(0x48d1cc)),
    ("mediumvioletred", rgb(0xc71585)),
    ("midnightblue", rgb(0x191970)),
    ("mintcream", rgb(0xf5fffa)),
    ("mistyrose", rgb(0xffe4e1)),
    ("moccasin", rgb(0xffe4b5)),
    ("navajowhite", rgb(0xffdead)),
    ("navy", rgb(0x000080)),
    ("oldlace", rgb(0xfdf5e6)),
    ("olive", rgb(0x808000)),
    ("olivedrab", rgb(0x6b8e23)),
    ("orange", rgb(0xffa500)),
    ("orangered", rgb(0xff4500)),
    ("orchid", rgb(0xda70d6)),
    ("palegoldenrod", rgb(0xeee8aa)),
    ("palegreen", rgb(0x98fb98)),
    ("paleturquoise", rgb(0xafeeee)),
    ("palevioletred", rgb(0xdb7093)),
    ("papayawhip", rgb(0xffefd5)),
    ("peachpuff", rgb(0xffdab9)),
    ("peru", rgb(0xcd853f)),
    ("pink", rgb(0xffc0cb)),
    ("plum", rgb(0xdda0dd)),
    ("powderblue", rgb(0xb0e0e6)),
    ("purple", rgb(0x800080)),
    ("rebeccapurple", rgb(0x663399)),
    ("red", rgb(0xff0000)),
    ("rosybrown", rgb(0xbc8f8f)),
    ("royalblue", rgb(0x4169e1)),
    ("saddlebrown", rgb(0x8b4513)),
    ("salmon", rgb(0xfa8072)),
    ("sandybrown", rgb(0xf4a460)),
    ("seagreen", rgb(0x2e8b57)),
    ("seashell", rgb(0xfff5ee)),
    ("sienna", rgb(0xa0522d)),
    ("silver", rgb(0xc0c0c0)),
    ("skyblue", rgb(0x87ceeb)),
    ("slateblue", rgb(0x6a5acd)),
    ("slategray", rgb(0x708090)),
    ("slategrey", rgb(0x708090)),
    ("snow", rgb(0xfffafa)),
    ("springgreen", rgb(0x00ff7f)),
    ("steelblue", rgb(0x4682b4)),
    ("tan", rgb(0xd2b48c)),
    ("teal", rgb(0x008080)),
    ("thistle", rgb(0xd8bfd8)),
    ("tomato", rgb(0xff6347)),
    ("turquoise", rgb(0x40e0d0)),
    ("violet", rgb(0xee82ee)),
    ("wheat", rgb(0xf5deb3)),
    ("white", rgb(0xffffff)),
    ("whitesmoke", rgb(0xf5f5f5)),
    ("yellow", rgb(0xffff00)),
    ("yellowgreen", rgb(0x9acd32)),
];

/// Escape text for XML/HTML element content and attribute values.
pub(crate) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_is_distinct_for_many_pieces() {
        let colors: Vec<Rgb> = (0..64).map(piece_color).collect();
        for i in 0..colors.len() {
            for j in 0..i {
                assert_ne!(colors[i], colors[j], "pieces {i} and {j} share a colour");
            }
        }
        assert_eq!(piece_color(0).hex(), "#e6194b");
    }

    #[test]
    fn pieces_named_after_a_colour_are_drawn_in_it() {
        assert!(CSS_COLORS.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
        assert_eq!(
            named_color("orange").map(Rgb::hex).as_deref(),
            Some("#ffa500")
        );
        assert_eq!(
            named_color("Dark Green").map(Rgb::hex).as_deref(),
            Some("#006400")
        );
        assert_eq!(
            named_color("light_blue").map(Rgb::hex).as_deref(),
            Some("#add8e6")
        );
        assert_eq!(named_color("L tetracube"), None);
        assert_eq!(named_color("transparent"), None);
        let piece = |name: &str, color| ScenePiece {
            name: name.to_string(),
            letter: 'A',
            cells: vec![[0, 0, 0]],
            color,
            ..ScenePiece::default()
        };
        let scene = Scene {
            pieces: vec![piece("red", 3), piece("A", 3), piece("red", 3)],
            ..Scene::default()
        };
        assert_eq!(scene.colour(0, None).hex(), "#ff0000");
        assert_eq!(scene.colour(1, None), piece_color(3));
        // Copies of a named piece are shades of its colour.
        assert_eq!(scene.colour(2, Some((1, 2))), rgb(0xff0000).scaled(0.6));
    }

    #[test]
    fn escape() {
        assert_eq!(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }
}
