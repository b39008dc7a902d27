//! Piece groups, with BurrTools' meaning: pieces of one group may stay together at the end of a disassembly.
//!
//! A part (a piece and its copies) lists groups, each with a count of copies that belong to it
//! (BurrTools' `group` attribute, or `<group group= count=>` children). Two rules, read from
//! BurrTools 0.7.1 (`disassembler_a.cpp`, `grouping.cpp`):
//!
//! - a set of pieces needs no further analysis when every piece's part lists exactly one group
//!   and it is the same group for all ([`same_group`]);
//! - a set that cannot be taken apart is still accepted when its pieces can be assigned to one
//!   group, copies of a part counted against the part's count in that group, together with
//!   the sets accepted before it in the same disassembly ([`Grouping::accept`]). The
//!   assignment is searched as BurrTools does: each set tries groups 1, 2, ... in turn and,
//!   when none fits, the sets before it move on to their next group.
//!
//! Two differences from BurrTools, both where BurrTools' result depends on history rather
//! than on the assembly: the counts start afresh for every assembly (BurrTools keeps what
//! earlier assemblies of the run took), and when a set no longer fits a group the copies it
//! took are all given back (BurrTools' loop gives back the wrong ones).

/// The groups of one part: `(group, count)` pairs as listed (group 0 means none).
pub type PartGroups = Vec<(u16, u16)>;

/// The group shared by the parts `parts` (one entry per piece) when each lists exactly one
/// group and they agree; `None` otherwise (also when that group is 0).
pub(crate) fn same_group(
    groups: &[PartGroups],
    parts: impl IntoIterator<Item = usize>,
) -> Option<u16> {
    let mut group = 0u16;
    for p in parts {
        let g = groups.get(p)?;
        if g.len() != 1 {
            return None;
        }
        if group == 0 {
            group = g[0].0;
        } else if group != g[0].0 {
            return None;
        }
    }
    (group != 0).then_some(group)
}

/// The assignment state of one disassembly: how many copies of each (part, group) are still
/// free, and the sets accepted so far with the group each is in.
#[derive(Clone, Debug, Default)]
pub(crate) struct Grouping {
    /// (part, group, copies still free).
    free: Vec<(usize, u16, i64)>,
    /// One past the largest group number.
    groups: u16,
    /// Accepted sets: (group, the parts of its pieces).
    sets: Vec<(u16, Vec<usize>)>,
    /// Set once an assignment failed: every later set fails too.
    failed: bool,
}

impl Grouping {
    /// The starting state for parts with these groups.
    pub(crate) fn new(groups: &[PartGroups]) -> Grouping {
        let mut g = Grouping::default();
        for (part, list) in groups.iter().enumerate() {
            for &(group, count) in list {
                if group == 0 {
                    continue;
                }
                match g.free.iter_mut().find(|e| e.0 == part && e.1 == group) {
                    Some(e) => e.2 += count as i64,
                    None => {
                        g.free.push((part, group, count as i64));
                        g.groups = g.groups.max(group + 1);
                    }
                }
            }
        }
        g
    }

    /// True when no part lists a group: then [`Grouping::accept`] always fails.
    pub(crate) fn is_empty(&self) -> bool {
        self.free.is_empty()
    }

    fn slot(&mut self, part: usize, group: u16) -> Option<&mut i64> {
        self.free
            .iter_mut()
            .find(|e| e.0 == part && e.1 == group)
            .map(|e| &mut e.2)
    }

    fn give_back(&mut self, parts: &[usize], group: u16) {
        for &p in parts {
            if let Some(c) = self.slot(p, group) {
                *c += 1;
            }
        }
    }

    /// Takes one copy of each part for `group`: all or nothing.
    fn take(&mut self, parts: &[usize], group: u16) -> bool {
        for (k, &p) in parts.iter().enumerate() {
            match self.slot(p, group) {
                Some(c) if *c > 0 => *c -= 1,
                _ => {
                    self.give_back(&parts[..k], group);
                    return false;
                }
            }
        }
        true
    }

    /// Accepts the pieces of parts `parts` (one entry per piece) as one group if an
    /// assignment of every accepted set to a group exists; false (and every later call
    /// false) when none does.
    pub(crate) fn accept(&mut self, parts: &[usize]) -> bool {
        if self.failed {
            return false;
        }
        self.sets.push((1, Vec::new()));
        // The pieces join the newest set one at a time, as in BurrTools: a piece that fits the
        // set's group is simply taken; the first that does not starts the search.
        let last = self.sets.len() - 1;
        for (k, &p) in parts.iter().enumerate() {
            self.sets[last].1.push(p);
            let group = self.sets[last].0;
            match self.slot(p, group) {
                Some(c) if *c > 0 => {
                    *c -= 1;
                    continue;
                }
                _ => {}
            }
            let taken = self.sets[last].1[..k].to_vec();
            self.give_back(&taken, group);
            if !self.search(last) {
                self.failed = true;
                return false;
            }
            // The search placed the whole set (this piece included); the next pieces join it.
            let _ = k;
        }
        true
    }

    /// Moves set `set` (holding no copies) and, when needed, the sets before it on to their
    /// next groups until every set from `set` on holds its copies; false when no assignment
    /// is left.
    fn search(&mut self, mut set: usize) -> bool {
        loop {
            self.sets[set].0 += 1;
            if self.sets[set].0 >= self.groups {
                self.sets[set].0 = 0;
                if set == 0 {
                    return false;
                }
                set -= 1;
                let (g, parts) = self.sets[set].clone();
                self.give_back(&parts, g);
                continue;
            }
            let (g, parts) = self.sets[set].clone();
            if self.take(&parts, g) {
                set += 1;
                if set == self.sets.len() {
                    return true;
                }
            }
        }
    }

    /// The group each accepted set ended up in, in the order they were accepted.
    #[cfg(test)]
    fn assigned(&self) -> Vec<u16> {
        self.sets.iter().map(|s| s.0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_group_for_all() {
        let groups = vec![vec![(1, 1)], vec![(1, 2)], vec![], vec![(2, 1)]];
        assert_eq!(same_group(&groups, [0, 1, 1]), Some(1));
        assert_eq!(same_group(&groups, [0, 2]), None);
        assert_eq!(same_group(&groups, [0, 3]), None);
    }

    #[test]
    fn copies_split_between_two_groups() {
        // Part 0: two copies in group 1, two in group 2; part 1: one copy in each.
        let groups = vec![vec![(1, 2), (2, 2)], vec![(1, 1), (2, 1)]];
        let mut g = Grouping::new(&groups);
        assert!(g.accept(&[0, 0, 1]));
        assert_eq!(g.assigned(), vec![1]);
        // A second set of the same kind must go to group 2.
        assert!(g.accept(&[0, 0, 1]));
        assert_eq!(g.assigned(), vec![1, 2]);
        // No copies are left for a third.
        assert!(!g.accept(&[1]));
        assert!(!g.accept(&[0]), "a failure is final");
    }

    #[test]
    fn an_earlier_set_moves_to_make_room() {
        // Part 0 in groups 1 and 2 (one copy each), part 1 only in group 1.
        let groups = vec![vec![(1, 1), (2, 1)], vec![(1, 1)]];
        let mut g = Grouping::new(&groups);
        assert!(g.accept(&[0]));
        assert_eq!(g.assigned(), vec![1]);
        // {0, 1} needs group 1, so the first set moves to group 2.
        assert!(g.accept(&[0, 1]));
        assert_eq!(g.assigned(), vec![2, 1]);
    }

    #[test]
    fn no_groups_never_accept() {
        let mut g = Grouping::new(&[vec![], vec![]]);
        assert!(g.is_empty());
        assert!(!g.accept(&[0, 1]));
    }
}
