//! Puzzle models for the kernel's own tests: real ones read from `crates/xc/fixtures/`
//! (written by the cubesat integration test `xc_fixtures`, which also checks that they are
//! current), so that the kernel is tested on real trees without depending on the puzzle
//! library, and small ones of a single piece built from their cells ([`one_piece`]).
//!
//! Format, one record per line: `#` comments; `items NEED...`; `geometry FIRST_CELL` then
//! `size S` per piece item and `cell NEIGHBOUR...` per cell; `option ITEM...` per option;
//! `forced OPTION...`.

use crate::{CellGeometry, ExactCover, Item};

/// The model of a bundled puzzle: `soma`, `pentominoes-6x10` or `tetris-cube`.
pub(crate) fn model(name: &str) -> ExactCover {
    let text = match name {
        "soma" => include_str!("../fixtures/soma.xcm"),
        "pentominoes-6x10" => include_str!("../fixtures/pentominoes-6x10.xcm"),
        "tetris-cube" => include_str!("../fixtures/tetris-cube.xcm"),
        _ => panic!("no fixture {name}"),
    };
    parse(text)
}

fn parse(text: &str) -> ExactCover {
    let mut m = ExactCover::default();
    let mut geometry: Option<CellGeometry> = None;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut words = line.split_ascii_whitespace();
        let key = words.next().unwrap_or_default();
        let nums: Vec<u32> = words.map(|w| w.parse().expect("a number")).collect();
        match key {
            "items" => {
                m.items = nums
                    .iter()
                    .enumerate()
                    .map(|(i, &need)| match need {
                        0 => Item::secondary(format!("i{i}")),
                        k => Item::exact(format!("i{i}"), k),
                    })
                    .collect()
            }
            "geometry" => {
                geometry = Some(CellGeometry {
                    first_cell: nums[0],
                    neighbors: Vec::new(),
                    positions: Vec::new(),
                    piece_sizes: Vec::new(),
                    connected: false,
                })
            }
            "size" => geometry
                .as_mut()
                .expect("geometry first")
                .piece_sizes
                .push(nums[0]),
            "cell" => geometry
                .as_mut()
                .expect("geometry first")
                .neighbors
                .push(nums),
            "option" => m.options.push(nums),
            "forced" => m.forced = nums,
            _ => panic!("unknown fixture line {line:?}"),
        }
    }
    m.geometry = geometry;
    m.validate().expect("a valid fixture");
    m
}

/// A model of one piece of `size` cells with as many copies as fill the `neighbors.len()`
/// cells: piece item 0, cell `c` item `1 + c`, one option per entry of `placements` (the
/// cells it covers, in any order); `neighbors` lists each cell's face neighbours.
pub(crate) fn one_piece(
    name: &str,
    size: u32,
    neighbors: Vec<Vec<u32>>,
    placements: &[Vec<u32>],
) -> ExactCover {
    let n = neighbors.len();
    let mut items = vec![Item::exact(name, n as u32 / size)];
    items.extend((0..n).map(|c| Item::exact(format!("c{c}"), 1)));
    let options = placements
        .iter()
        .map(|cells| {
            let mut o: Vec<u32> = std::iter::once(0)
                .chain(cells.iter().map(|c| c + 1))
                .collect();
            o.sort_unstable();
            o
        })
        .collect();
    ExactCover {
        items,
        options,
        forced: Vec::new(),
        geometry: Some(CellGeometry {
            first_cell: 1,
            neighbors,
            positions: Vec::new(),
            piece_sizes: vec![size],
            connected: false,
        }),
    }
}
