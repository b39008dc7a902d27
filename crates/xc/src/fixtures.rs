//! Real puzzle models for the kernel's own tests, read from `crates/xc/fixtures/` (written by
//! the cubesat integration test `xc_fixtures`, which also checks that they are current), so
//! that the kernel is tested on real trees without depending on the puzzle library.
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
                    .map(|(i, &need)| Item {
                        name: format!("i{i}"),
                        need,
                    })
                    .collect()
            }
            "geometry" => {
                geometry = Some(CellGeometry {
                    first_cell: nums[0],
                    neighbors: Vec::new(),
                    piece_sizes: Vec::new(),
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
