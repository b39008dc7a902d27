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
//! [`piece_color`] applied to [`ScenePiece::color`].

pub mod assembly;
pub mod ballmesh;
pub mod html;
pub mod mesh;
pub mod plan;
pub mod samples;
pub mod stl;
pub mod svg;
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
    /// colour in every solution and in a hints-only view, and identical copies share it.
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
/// for cubes, [`ballmesh::balls`] for balls; `cube` is the cube edge or ball diameter (mm),
/// `gap` the clearance (mm).
pub fn piece_mesh(
    grid: Grid,
    cells: &[crate::geometry::Cell],
    cube: f64,
    gap: f64,
) -> crate::error::Result<stl::Mesh> {
    match grid.cell_shape() {
        CellShape::Cube => stl::polycube(cells, cube, gap),
        CellShape::Ball => ballmesh::balls(cells, cube, gap),
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

    /// The colour piece `i` is drawn in: its palette colour, or for one of several copies
    /// ([`Scene::copies`]) a shade of it, from darker (the first copy) to lighter (the last).
    pub fn colour(&self, i: usize, copy: Option<(u32, u32)>) -> Rgb {
        let base = piece_color(self.pieces[i].color);
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
    /// `#rrggbb`.
    pub(crate) fn hex(self) -> String {
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
    fn escape() {
        assert_eq!(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }
}
