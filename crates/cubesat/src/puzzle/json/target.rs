//! Reading a puzzle file's `target`: one container or several, each a box, layer art or cell lists.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{JsonPath, array, cell_list, check_keys, integer, layer_art, object};
use crate::error::Result;
use crate::geometry::{Cell, Frame, Grid};
use crate::puzzle::{ContainerSpec, MAX_COORD, MAX_TARGET_CELLS, Target};

/// The puzzle's `target`, laid out on `grid`. Containers of a grid typed in a frame of layers
/// ([`Frame::Layers`]) have their cells moved to the grid's coordinates, then to non-negative
/// ones by a step of the grid that the container keeps as its frame (so its cells read back
/// as written).
pub(super) fn target(m: &Map<String, Value>, root: &JsonPath, grid: Grid) -> Result<Target> {
    let mut target_spec = match m.get("target") {
        Some(t) => containers(t, &root.key("target"), true)?,
        None => fail!(root, "the puzzle has no 'target'"),
    };
    let typed_in_layers = match grid.frame() {
        Frame::Lattice => false,
        Frame::Layers => true,
    };
    if typed_in_layers {
        for spec in &mut target_spec {
            let cells: Vec<Cell> = spec.cells.iter().map(|(c, _)| grid.from_user(*c)).collect();
            let off = grid.normal_offset(&cells).unwrap_or([0; 3]);
            for ((c, _), u) in spec.cells.iter_mut().zip(cells) {
                *c = crate::geometry::sub(u, off);
            }
            spec.frame = Some(off);
        }
    }
    Ok(Target::new_on(grid, &target_spec))
}

/// The keys that each give a whole target; a target has exactly one.
const TARGET_FORMS: &[&str] = &["box", "boxes", "layers", "cells", "containers"];

fn box_size(v: &Value, path: &JsonPath) -> Result<[i32; 3]> {
    let a = array(v, path, "a box size [x, y, z]")?;
    if a.len() != 3 {
        fail!(
            path,
            "expected a box size [x, y, z], found {} values",
            a.len()
        );
    }
    let mut s = [0i32; 3];
    for k in 0..3 {
        s[k] = integer(&a[k], &path.index(k), 1, MAX_COORD as i64)? as i32;
    }
    let volume: i64 = s.iter().map(|&x| x as i64).product();
    if volume > MAX_TARGET_CELLS as i64 {
        fail!(
            path,
            "box of {volume} cells, more than the {MAX_TARGET_CELLS} cubesat accepts"
        );
    }
    Ok(s)
}

/// Reads one container (or, at the top level, possibly several).
fn containers(v: &Value, path: &JsonPath, top: bool) -> Result<Vec<ContainerSpec>> {
    let m = object(v, path, "a target")?;
    let allowed: &[&str] = if top {
        &["box", "boxes", "layers", "cells", "optional", "containers"]
    } else {
        &["box", "layers", "cells", "optional"]
    };
    check_keys(m, path, allowed)?;
    let form = target_form(m, path, allowed)?;
    if m.contains_key("optional") && !m.contains_key("cells") {
        fail!(
            path.key("optional"),
            "'optional' goes with 'cells'; in layer art use '+'"
        );
    }
    let spec = match form {
        "box" => vec![ContainerSpec::full_box(box_size(
            &m["box"],
            &path.key("box"),
        )?)],
        "boxes" => boxes(&m["boxes"], &path.key("boxes"))?,
        "layers" => {
            let cells = layer_art(
                &m["layers"],
                &path.key("layers"),
                &[
                    ('#', Some(false)),
                    ('+', Some(true)),
                    ('.', None),
                    (' ', None),
                ],
            )?;
            vec![ContainerSpec { cells, frame: None }]
        }
        "cells" => vec![listed_cells(m, path)?],
        "containers" => {
            let p = path.key("containers");
            let a = array(&m["containers"], &p, "a list of containers")?;
            if a.is_empty() {
                fail!(p, "no containers");
            }
            let mut out = Vec::new();
            for (i, c) in a.iter().enumerate() {
                out.extend(containers(c, &p.index(i), false)?);
            }
            out
        }
        _ => unreachable!("forms are taken from TARGET_FORMS"),
    };
    check_cells(&spec, path)?;
    Ok(spec)
}

/// The one key of [`TARGET_FORMS`] that a target object gives, or an error naming the ones
/// it may give.
fn target_form(m: &Map<String, Value>, path: &JsonPath, allowed: &[&str]) -> Result<&'static str> {
    let forms: Vec<&'static str> = TARGET_FORMS
        .iter()
        .copied()
        .filter(|f| m.contains_key(*f))
        .collect();
    if forms.len() != 1 {
        let usable: Vec<&str> = TARGET_FORMS
            .iter()
            .copied()
            .filter(|f| allowed.contains(f))
            .collect();
        fail!(
            path,
            "give exactly one of: {} (found {})",
            usable.join(", "),
            if forms.is_empty() {
                "none".to_string()
            } else {
                forms.join(", ")
            }
        );
    }
    Ok(forms[0])
}

/// `boxes`: a list of full boxes, each its own container.
fn boxes(v: &Value, p: &JsonPath) -> Result<Vec<ContainerSpec>> {
    let a = array(v, p, "a list of box sizes")?;
    if a.is_empty() {
        fail!(p, "no boxes");
    }
    let mut out = Vec::new();
    let mut total = 0i64;
    for (i, b) in a.iter().enumerate() {
        let s = box_size(b, &p.index(i))?;
        total += s.iter().map(|&x| x as i64).product::<i64>();
        if total > MAX_TARGET_CELLS as i64 {
            fail!(p, "more than {MAX_TARGET_CELLS} cells in all");
        }
        out.push(ContainerSpec::full_box(s));
    }
    Ok(out)
}

/// A container given as `cells`, with its `optional` cells, if any, listed apart.
fn listed_cells(m: &Map<String, Value>, path: &JsonPath) -> Result<ContainerSpec> {
    let must = cell_list(&m["cells"], &path.key("cells"), 0, MAX_TARGET_CELLS)?;
    let optional = match m.get("optional") {
        Some(o) => cell_list(o, &path.key("optional"), 0, MAX_TARGET_CELLS)?,
        None => Vec::new(),
    };
    let must_set: HashSet<Cell> = must.iter().copied().collect();
    if let Some((i, c)) = optional
        .iter()
        .enumerate()
        .find(|(_, c)| must_set.contains(*c))
    {
        fail!(
            path.key("optional").index(i),
            "cell {c:?} is also listed in 'cells'"
        );
    }
    let mut cells: Vec<(Cell, bool)> = must.into_iter().map(|c| (c, false)).collect();
    cells.extend(optional.into_iter().map(|c| (c, true)));
    Ok(ContainerSpec { cells, frame: None })
}

/// Refuses a container without cells, and more target cells in all than cubesat accepts.
fn check_cells(spec: &[ContainerSpec], path: &JsonPath) -> Result<()> {
    for (i, s) in spec.iter().enumerate() {
        if s.cells.is_empty() {
            let p = if spec.len() > 1 {
                path.key("containers").index(i)
            } else {
                path.clone()
            };
            fail!(p, "the target has no cells");
        }
    }
    let total: usize = spec.iter().map(|s| s.cells.len()).sum();
    if total > MAX_TARGET_CELLS {
        fail!(
            path,
            "{total} target cells, more than the {MAX_TARGET_CELLS} cubesat accepts"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::puzzle::json::{from_value, parse_puzzle, to_value};

    #[test]
    fn layer_art_targets_with_optional_cells_and_several_containers() {
        let text = r##"{
            "target": {"containers": [{"layers": [["#+", ".#"]]}, {"box": [1, 1, 2]}]},
            "pieces": [{"name": "a", "cells": [[0,0,0],[1,0,0]]}, {"name": "b", "cells": [[0,0,0],[0,0,1]]}]
        }"##;
        let p = parse_puzzle(text, "t").unwrap();
        assert_eq!(p.target.containers().len(), 2);
        assert_eq!(p.target.optional_count(), 1);
        assert_eq!(p.target.must_count(), 4);
        // The second container starts one empty column after the first.
        assert_eq!(p.target.containers()[1].origin, [3, 0, 0]);
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
    }
}
