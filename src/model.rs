//! The exact-cover model every engine reads: items (pieces with their counts, target cells), options (placements) and forced options (hints).
//!
//! Conventions, shared by the exact-cover engines, the SAT encoder and the exporters:
//! - items and options are 0-based indices (`u32`); DIMACS numbering (1-based) exists only
//!   in the exporters;
//! - an item's `need` is how many chosen options must contain it: `need >= 1` makes it a
//!   primary item covered exactly `need` times (a piece with `count` identical copies has
//!   `need = count`, and its copies share its options); `need == 0` makes it a secondary item
//!   that at most one chosen option may contain (an optional cell);
//! - a solution is the strictly increasing list of chosen option indices, forced options
//!   included.
//!
//! A model built from a puzzle ([`crate::placements::PlacementTable`]) has the piece items
//! first (item `p` is piece `p`), then one item per target cell (item `pieces + c` is target
//! cell `c`); option `o` is placement `o`. Engines must not rely on that layout except through
//! [`CellGeometry`], which describes it.

use anyhow::{Result, bail, ensure};

/// One item of the exact-cover problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// A short human-readable name, for statistics and error messages.
    pub name: String,
    /// Exact coverage for a primary item (`>= 1`); `0` for a secondary item (at most once).
    pub need: u32,
}

impl Item {
    /// True for a secondary item (covered at most once).
    pub fn is_secondary(&self) -> bool {
        self.need == 0
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
    /// Volume of every piece item (items `0..first_cell`): each option holding that item covers
    /// exactly this many cell items.
    pub piece_sizes: Vec<u32>,
}

/// An exact-cover problem with multiplicities and secondary items (Knuth's XC with DLX3's
/// multiplicities), plus forced options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExactCover {
    /// The items.
    pub items: Vec<Item>,
    /// Each option's items, strictly increasing; an option holds at least one primary item.
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
        for (o, items) in self.options.iter().enumerate() {
            ensure!(!items.is_empty(), "option {o} is empty");
            ensure!(
                items.windows(2).all(|w| w[0] < w[1]),
                "option {o} does not list its items strictly increasing"
            );
            ensure!(
                items.iter().all(|&i| i < n),
                "option {o} names an item out of range"
            );
            ensure!(
                items.iter().any(|&i| self.items[i as usize].need > 0),
                "option {o} holds no primary item"
            );
        }
        ensure!(
            self.forced.windows(2).all(|w| w[0] < w[1]),
            "forced options are not strictly increasing"
        );
        if let Some(&o) = self
            .forced
            .iter()
            .find(|&&o| o as usize >= self.options.len())
        {
            bail!("forced option {o} is out of range");
        }
        if let Some(g) = &self.geometry {
            let cells = n.saturating_sub(g.first_cell) as usize;
            ensure!(g.first_cell <= n, "first cell item out of range");
            ensure!(
                g.neighbors.len() == cells,
                "neighbour lists do not match the cell items"
            );
            ensure!(
                g.piece_sizes.len() == g.first_cell as usize,
                "piece sizes do not match the piece items"
            );
        }
        Ok(())
    }

    /// Checks that `solution` (ascending option indices) is an exact cover of this model:
    /// every primary item covered exactly `need` times, every secondary item at most once,
    /// every forced option present. Engines call this on every solution they report.
    pub fn check_solution(&self, solution: &[u32]) -> Result<()> {
        let mut cover = vec![0u32; self.items.len()];
        for w in solution.windows(2) {
            ensure!(w[0] < w[1], "solution options are not strictly increasing");
        }
        for &o in solution {
            let items = self
                .options
                .get(o as usize)
                .ok_or_else(|| anyhow::anyhow!("option {o} out of range"))?;
            for &i in items {
                cover[i as usize] += 1;
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            let c = cover[i];
            if item.need == 0 {
                ensure!(c <= 1, "secondary item {} covered {c} times", item.name);
            } else {
                ensure!(
                    c == item.need,
                    "item {} covered {c} times, needs {}",
                    item.name,
                    item.need
                );
            }
        }
        for &f in &self.forced {
            ensure!(
                solution.binary_search(&f).is_ok(),
                "forced option {f} missing"
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> ExactCover {
        // Two dominoes D (need 2) covering a 1x3 strip with an optional cell at the end.
        ExactCover {
            items: vec![
                Item {
                    name: "D".into(),
                    need: 2,
                },
                Item {
                    name: "c0".into(),
                    need: 1,
                },
                Item {
                    name: "c1".into(),
                    need: 1,
                },
                Item {
                    name: "c2".into(),
                    need: 1,
                },
                Item {
                    name: "c3".into(),
                    need: 0,
                },
            ],
            options: vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 4]],
            forced: vec![],
            geometry: None,
        }
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
                .contains("no primary")
        );
    }

    #[test]
    fn check_solution_counts_needs_and_secondaries() {
        let m = tiny();
        m.check_solution(&[0, 2]).unwrap();
        assert!(m.check_solution(&[0, 1]).is_err()); // c2 twice
        assert!(m.check_solution(&[0]).is_err()); // D once, c3.. uncovered
        assert_eq!(m.options_by_item()[2], vec![0, 1]);
    }
}
