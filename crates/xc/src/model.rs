//! The exact-cover model every engine reads: items (pieces with their counts or ranges, target cells), options (placements) and forced options (hints).
//!
//! Conventions, shared by the exact-cover engines, the SAT encoder and the exporters:
//! - items and options are 0-based indices (`u32`); DIMACS numbering (1-based) exists only
//!   in the exporters;
//! - every item is covered between [`Item::min`] and [`Item::max`] times by the chosen
//!   options (Knuth's DLX3 bounds `a:b|`): an *exact* item has `min == max >= 1` (a cell, or
//!   a piece with `count` identical copies, whose copies share its options); a *secondary*
//!   item has `0..=1` (an optional cell, covered at most once); any other item is *ranged*
//!   (`min < max`, `max >= 2`: a piece of which `min..=max` copies may be used);
//! - every option holds at least one exact item. Once every exact item is covered as often
//!   as it needs, each option left shares a saturated exact item with the chosen ones, so no
//!   option can be added: a search that branches only on items still below their minimum
//!   finds every solution, and never has to branch on "use no more copies" of a ranged item;
//! - a solution is the strictly increasing list of chosen option indices, forced options
//!   included.
//!
//! A model built from a puzzle (cubesat's `PlacementTable`) has the piece items
//! first (item `p` is piece `p`), then one item per target cell (item `pieces + c` is target
//! cell `c`); option `o` is placement `o`. Engines must not rely on that layout except through
//! [`CellGeometry`], which describes it.

use crate::error::{Error, Result, ensure_cover, ensure_model};

/// One item of the exact-cover problem: a name and how often the chosen options cover it,
/// `min..=max` times (see the module documentation for the three kinds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// A short human-readable name, for statistics and error messages.
    pub name: String,
    /// The fewest coverings of a solution.
    pub min: u32,
    /// The most coverings of a solution (`>= 1`, `>= min`).
    pub max: u32,
}

impl Item {
    /// An exact item, covered exactly `k >= 1` times.
    pub fn exact(name: impl Into<String>, k: u32) -> Item {
        Item {
            name: name.into(),
            min: k,
            max: k,
        }
    }

    /// A secondary item, covered at most once.
    pub fn secondary(name: impl Into<String>) -> Item {
        Item {
            name: name.into(),
            min: 0,
            max: 1,
        }
    }

    /// An item covered `min..=max` times.
    pub fn range(name: impl Into<String>, min: u32, max: u32) -> Item {
        Item {
            name: name.into(),
            min,
            max,
        }
    }

    /// True for an exact item (`min == max >= 1`).
    pub fn is_exact(&self) -> bool {
        self.min == self.max && self.min >= 1
    }

    /// True for a secondary item (`0..=1`).
    pub fn is_secondary(&self) -> bool {
        self.min == 0 && self.max == 1
    }

    /// True for a ranged item (`min < max`, `max >= 2`).
    pub fn is_ranged(&self) -> bool {
        self.min < self.max && self.max >= 2
    }

    /// Whether `c` coverings lie within the item's bounds.
    pub fn allows(&self, c: u32) -> bool {
        self.min <= c && c <= self.max
    }
}

/// The geometry of the cell items, which lets an engine prune dead regions (connected groups of
/// uncovered cells that no combination of the remaining pieces can fill).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellGeometry {
    /// Item index of cell 0; cell `c` is item `first_cell + c`, and the cell items run to the
    /// end of the item list.
    pub first_cell: u32,
    /// Face neighbours of every cell (cell indices, not item indices), ascending.
    pub neighbors: Vec<Vec<u32>>,
    /// Every cell's coordinates on its grid when the caller knows them, else empty: the
    /// memoized engine then also tries orders along the grid's axes for its profile search
    /// (a board filled column by column has a narrower band than the breadth-first order's
    /// diagonals). Only their order along each axis matters, on any lattice.
    pub positions: Vec<[i32; 3]>,
    /// Volume of every piece item (items `0..first_cell`): each option holding that item covers
    /// exactly this many cell items.
    pub piece_sizes: Vec<u32>,
    /// The caller vouches that every option's cells are connected under `neighbors`, as the
    /// placements of connected shapes on a grid whose neighbours these are: region pruning,
    /// which is sound only then, skips testing each option (debug builds test anyway and
    /// panic on a false claim). `false`: the engine tests every option, and prunes no regions
    /// if one is not connected.
    pub connected: bool,
}

/// An exact-cover problem with multiplicities, ranges and secondary items (Knuth's XC with
/// DLX3's bounds), plus forced options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExactCover {
    /// The items.
    pub items: Vec<Item>,
    /// Each option's items, strictly increasing; an option holds at least one exact item.
    pub options: Vec<Vec<u32>>,
    /// Options every solution must contain (hint placements), ascending and distinct.
    pub forced: Vec<u32>,
    /// Cell geometry for region pruning, when the model comes from a puzzle.
    pub geometry: Option<CellGeometry>,
}

impl ExactCover {
    /// Number of items.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// Number of options.
    pub fn option_count(&self) -> usize {
        self.options.len()
    }

    /// How many exact items option `o` holds.
    pub fn exacts(&self, o: usize) -> usize {
        self.options[o]
            .iter()
            .filter(|&&i| self.items[i as usize].is_exact())
            .count()
    }

    /// True when some item is ranged ([`Item::is_ranged`]).
    pub fn has_ranges(&self) -> bool {
        self.items.iter().any(Item::is_ranged)
    }

    /// For every item, the options that contain it, ascending.
    pub fn options_by_item(&self) -> Vec<Vec<u32>> {
        let mut by_item = vec![Vec::new(); self.items.len()];
        for (o, items) in self.options.iter().enumerate() {
            for &i in items {
                by_item[i as usize].push(o as u32);
            }
        }
        by_item
    }

    /// Checks the structural invariants documented on the fields; engines may assume them.
    pub fn validate(&self) -> Result<()> {
        let n = self.items.len() as u32;
        for item in &self.items {
            ensure_model!(
                item.max >= 1 && item.min <= item.max,
                "item {} has bounds {}..{} (need 1 <= max and min <= max)",
                item.name,
                item.min,
                item.max
            );
        }
        for (o, items) in self.options.iter().enumerate() {
            ensure_model!(!items.is_empty(), "option {o} is empty");
            ensure_model!(
                items.windows(2).all(|w| w[0] < w[1]),
                "option {o} does not list its items strictly increasing"
            );
            ensure_model!(
                items.iter().all(|&i| i < n),
                "option {o} names an item out of range"
            );
            ensure_model!(
                items.iter().any(|&i| self.items[i as usize].is_exact()),
                "option {o} holds no exact item"
            );
        }
        ensure_model!(
            self.forced.windows(2).all(|w| w[0] < w[1]),
            "forced options are not strictly increasing"
        );
        if let Some(&o) = self
            .forced
            .iter()
            .find(|&&o| o as usize >= self.options.len())
        {
            return Err(Error::InvalidModel(format!(
                "forced option {o} is out of range"
            )));
        }
        if let Some(g) = &self.geometry {
            let cells = n.saturating_sub(g.first_cell) as usize;
            ensure_model!(g.first_cell <= n, "first cell item out of range");
            ensure_model!(
                g.neighbors.len() == cells,
                "neighbour lists do not match the cell items"
            );
            ensure_model!(
                g.piece_sizes.len() == g.first_cell as usize,
                "piece sizes do not match the piece items"
            );
            ensure_model!(
                g.positions.is_empty() || g.positions.len() == cells,
                "cell positions do not match the cell items"
            );
        }
        Ok(())
    }

    /// Checks that `solution` (ascending option indices) is an exact cover of this model:
    /// every item covered between its `min` and `max` times, every forced option present. Engines call this on every solution they report.
    pub fn check_solution(&self, solution: &[u32]) -> Result<()> {
        let mut cover = vec![0u32; self.items.len()];
        for w in solution.windows(2) {
            ensure_cover!(w[0] < w[1], "solution options are not strictly increasing");
        }
        for &o in solution {
            let items = self
                .options
                .get(o as usize)
                .ok_or(Error::OptionOutOfRange {
                    option: o,
                    options: self.options.len(),
                })?;
            for &i in items {
                cover[i as usize] += 1;
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            let c = cover[i];
            if item.is_secondary() {
                ensure_cover!(c <= 1, "secondary item {} covered {c} times", item.name);
            } else if item.is_exact() {
                ensure_cover!(
                    c == item.min,
                    "item {} covered {c} times, needs {}",
                    item.name,
                    item.min
                );
            } else {
                ensure_cover!(
                    item.allows(c),
                    "item {} covered {c} times, needs {}..{}",
                    item.name,
                    item.min,
                    item.max
                );
            }
        }
        for &f in &self.forced {
            ensure_cover!(
                solution.binary_search(&f).is_ok(),
                "forced option {f} missing"
            );
        }
        Ok(())
    }
}

/// A subproblem of an [`ExactCover`] with some options chosen and others excluded, as a model
/// of its own: what is left to cover and which options can still do it. Solutions of
/// [`Residual::model`] map back to solutions of the original with [`Residual::lift`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Residual {
    /// The remaining problem: items with room left (their bounds lowered by the coverings
    /// chosen), and the options made only of such items; no forced options; the original's
    /// geometry restricted to the cells left.
    pub model: ExactCover,
    /// Original index of every option of [`Residual::model`] (ascending).
    pub option_map: Vec<u32>,
    /// The original's chosen options: its forced options plus the subproblem's (ascending).
    pub chosen: Vec<u32>,
}

impl Residual {
    /// The original solution made of `solution` (options of the residual model) and the
    /// chosen options, ascending.
    pub fn lift(&self, solution: &[u32]) -> Vec<u32> {
        let mut s: Vec<u32> = solution
            .iter()
            .map(|&o| self.option_map[o as usize])
            .chain(self.chosen.iter().copied())
            .collect();
        s.sort_unstable();
        s
    }
}

impl ExactCover {
    /// The residual problem after choosing `chosen` (besides the forced options) and ruling
    /// out `excluded`; `None` when the chosen options already conflict (an item covered more
    /// often than allowed, or an excluded option chosen) or name an option out of range. An
    /// option survives when it is neither chosen nor excluded and each of its items still has
    /// room (fewer coverings than its `max`). An item covered `c` times keeps the bounds
    /// `min - c` (at least 0) to `max - c`, so exact items stay exact and secondary ones
    /// secondary.
    /// Cube and conquer solves each cube's residual model instead of the whole instance under
    /// assumptions.
    pub fn residual(&self, chosen: &[u32], excluded: &[u32]) -> Option<Residual> {
        let n = self.options.len();
        let mut all: Vec<u32> = self.forced.iter().chain(chosen).copied().collect();
        all.sort_unstable();
        all.dedup();
        let mut out = vec![false; n];
        for &o in excluded {
            if let Some(x) = out.get_mut(o as usize) {
                *x = true;
            }
        }
        let mut room: Vec<u32> = self.items.iter().map(|it| it.max).collect();
        for &o in &all {
            let items = self.options.get(o as usize)?;
            if out[o as usize] {
                return None;
            }
            out[o as usize] = true;
            for &i in items {
                let r = &mut room[i as usize];
                *r = r.checked_sub(1)?;
            }
        }
        // New item indices: items with room left, their bounds lowered by the coverings.
        let mut new_index = vec![u32::MAX; self.items.len()];
        let mut items = Vec::new();
        for (i, it) in self.items.iter().enumerate() {
            if room[i] > 0 {
                new_index[i] = items.len() as u32;
                let used = it.max - room[i];
                items.push(Item::range(
                    it.name.clone(),
                    it.min.saturating_sub(used),
                    room[i],
                ));
            }
        }
        let mut options = Vec::new();
        let mut option_map = Vec::new();
        for (o, its) in self.options.iter().enumerate() {
            if out[o] || its.iter().any(|&i| room[i as usize] == 0) {
                continue;
            }
            options.push(its.iter().map(|&i| new_index[i as usize]).collect());
            option_map.push(o as u32);
        }
        // The geometry restricted to the cells left: pieces still come first, then cells, so
        // the layout [`CellGeometry`] describes survives with the covered cells cut out.
        let geometry = self.geometry.as_ref().map(|g| {
            let first = g.first_cell as usize;
            let new_first = new_index[..first]
                .iter()
                .filter(|&&x| x != u32::MAX)
                .count();
            let cell = |c: u32| match new_index[first + c as usize] {
                u32::MAX => None,
                x => Some(x - new_first as u32),
            };
            CellGeometry {
                first_cell: new_first as u32,
                neighbors: (0..g.neighbors.len() as u32)
                    .filter(|&c| cell(c).is_some())
                    .map(|c| {
                        g.neighbors[c as usize]
                            .iter()
                            .filter_map(|&n| cell(n))
                            .collect()
                    })
                    .collect(),
                positions: (0..g.positions.len() as u32)
                    .filter(|&c| cell(c).is_some())
                    .map(|c| g.positions[c as usize])
                    .collect(),
                piece_sizes: (0..first)
                    .filter(|&p| new_index[p] != u32::MAX)
                    .map(|p| g.piece_sizes[p])
                    .collect(),
                // An option kept keeps all its cells, and the paths between them.
                connected: g.connected,
            }
        });
        Some(Residual {
            model: ExactCover {
                items,
                options,
                forced: Vec::new(),
                geometry,
            },
            option_map,
            chosen: all,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> ExactCover {
        // Two dominoes D (need 2) covering a 1x3 strip with an optional cell at the end.
        ExactCover {
            items: vec![
                Item::exact("D", 2),
                Item::exact("c0", 1),
                Item::exact("c1", 1),
                Item::exact("c2", 1),
                Item::secondary("c3"),
            ],
            options: vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 4]],
            forced: vec![],
            geometry: None,
        }
    }

    /// `m` (the strip of [`tiny`]) with its cells' neighbours and positions in a row.
    fn strip_geometry(mut m: ExactCover) -> ExactCover {
        m.geometry = Some(CellGeometry {
            first_cell: 1,
            neighbors: vec![vec![1], vec![0, 2], vec![1, 3], vec![2]],
            positions: (0..4).map(|x| [x, 0, 0]).collect(),
            piece_sizes: vec![2],
            connected: true,
        });
        m
    }

    #[test]
    fn validate_accepts_a_well_formed_model_and_rejects_bad_ones() {
        let m = tiny();
        m.validate().unwrap();
        let mut bad = m.clone();
        bad.options[0] = vec![2, 1];
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .contains("increasing")
        );
        let mut bad = m.clone();
        bad.options.push(vec![4]);
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .contains("no exact item")
        );
        let mut bad = m.clone();
        bad.items[0] = Item::range("D", 3, 2);
        assert!(bad.validate().unwrap_err().to_string().contains("bounds"));
        let mut bad = strip_geometry(m.clone());
        bad.validate().unwrap();
        bad.geometry.as_mut().unwrap().positions.pop();
        assert!(
            bad.validate()
                .unwrap_err()
                .to_string()
                .contains("positions")
        );
        let mut ranged = m.clone();
        ranged.items[0] = Item::range("D", 0, 2);
        ranged.validate().unwrap();
        assert!(ranged.has_ranges() && !m.has_ranges());
    }

    #[test]
    fn ranged_items_take_any_count_within_their_bounds() {
        // The only cover of the exact cells uses D twice: D = 1..2 accepts it, D = 0..1 not.
        let mut m = tiny();
        m.items[0] = Item::range("D", 1, 2);
        m.check_solution(&[0, 2]).unwrap();
        m.items[0] = Item::range("D", 0, 1);
        assert!(m.check_solution(&[0, 2]).is_err());
        // A ranged item keeps its lowered bounds in a residual.
        m.items[0] = Item::range("D", 1, 3);
        let r = m.residual(&[0], &[]).unwrap();
        assert_eq!((r.model.items[0].min, r.model.items[0].max), (0, 2));
    }

    #[test]
    fn check_solution_counts_needs_and_secondaries() {
        let m = tiny();
        m.check_solution(&[0, 2]).unwrap();
        assert!(m.check_solution(&[0, 1]).is_err()); // c2 twice
        assert!(m.check_solution(&[0]).is_err()); // D once, c3.. uncovered
        assert_eq!(m.options_by_item()[2], vec![0, 1]);
    }

    #[test]
    fn residual_keeps_what_is_left_and_lifts_back() {
        let m = tiny();
        // Choosing option 0 (D on c0 c1) leaves D needing 1 more, c2 to cover and c3 free;
        // option 1 holds the covered c1, so only option 2 survives.
        let r = m.residual(&[0], &[]).unwrap();
        assert_eq!(r.option_map, vec![2]);
        let names: Vec<(&str, u32, u32)> = r
            .model
            .items
            .iter()
            .map(|it| (it.name.as_str(), it.min, it.max))
            .collect();
        assert_eq!(names, vec![("D", 1, 1), ("c2", 1, 1), ("c3", 0, 1)]);
        assert_eq!(r.model.options, vec![vec![0, 1, 2]]);
        assert_eq!(r.lift(&[0]), vec![0, 2]);
        m.check_solution(&r.lift(&[0])).unwrap();
        // The cells left keep their neighbours among themselves and their positions.
        let g = strip_geometry(m.clone())
            .residual(&[0], &[])
            .unwrap()
            .model
            .geometry;
        let g = g.unwrap();
        assert_eq!(g.neighbors, vec![vec![1], vec![0]]);
        assert_eq!(g.positions, vec![[2, 0, 0], [3, 0, 0]]);
        // Excluding the only completion leaves an option-less item: no residual solution.
        let r = m.residual(&[0], &[2]).unwrap();
        assert!(r.option_map.is_empty() && r.model.items.iter().any(|it| it.min > 0));
        // Conflicting or excluded choices have no residual at all.
        assert!(m.residual(&[0, 1], &[]).is_none());
        assert!(m.residual(&[0], &[0]).is_none());
        // Nothing chosen: the model itself (minus exclusions).
        let r = m.residual(&[], &[1]).unwrap();
        assert_eq!(r.option_map, vec![0, 2]);
        assert_eq!(r.model.items.len(), m.items.len());
    }
}
