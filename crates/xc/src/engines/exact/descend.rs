//! The sliced counters on the way down the tree: building [`SlicedTables`] from the prepared
//! model, filling a query root's sliced state, and the descend steps that keep the planes
//! (the arithmetic itself is in `sliced`).

use super::prepare::{Level, Prepared, RegionScratch};
use super::sliced::{
    LANES, Live, MAX_MULTI, MAX_OPTS, MAX_PLANES, OptTable, SlicedScratch, SlicedState,
    SlicedTables, WORDS, ZERO, add_masks, andn, count_sum, each_bit, pad, sub_masks,
};

impl SlicedTables {
    /// The tables, when `p` qualifies: no ranged item, stored conflicts (so that siblings can
    /// be derived from each other), at most `64 * LANES` primary items of need one, at most
    /// [`MAX_MULTI`] of larger need (and then every option holding an item of need one), and
    /// every count below `1 << MAX_PLANES`.
    pub fn build(p: &Prepared) -> Option<SlicedTables> {
        let m = &p.model;
        if !p.conflict_ok || p.words > WORDS || !p.ranged.is_empty() {
            return None;
        }
        let mut lane = vec![u8::MAX; m.items.len()];
        let mut lane_item = Vec::new();
        let mut multi = Vec::new();
        for (i, &need) in p.need.iter().enumerate() {
            match need {
                0 => {}
                1 => {
                    if lane_item.len() == 64 * LANES {
                        return None;
                    }
                    lane[i] = lane_item.len() as u8;
                    lane_item.push(i as u32);
                }
                _ => multi.push(i as u32),
            }
        }
        if multi.len() > MAX_MULTI {
            return None;
        }
        // A state whose lanes are all covered is then complete or dead: every option holds a
        // lane, so none can still serve a multiplicity item alone.
        if !multi.is_empty()
            && (0..p.n_opts).any(|o| p.prim_of(o).iter().all(|&i| lane[i as usize] == u8::MAX))
        {
            return None;
        }
        let mut count = vec![0usize; lane_item.len()];
        let mut opt: Box<OptTable> = vec![ZERO; MAX_OPTS].into_boxed_slice().try_into().ok()?;
        let mut opt_multi = vec![0u16; p.n_opts];
        for (o, l) in opt.iter_mut().enumerate().take(p.n_opts) {
            for &i in p.prim_of(o) {
                match lane[i as usize] {
                    u8::MAX => {
                        let k = multi.iter().position(|&j| j == i)?;
                        opt_multi[o] |= 1 << k;
                    }
                    b => {
                        l[b as usize >> 6] |= 1 << (b & 63);
                        count[b as usize] += 1;
                    }
                }
            }
        }
        let max = count.into_iter().max().unwrap_or(0);
        let planes = (usize::BITS - max.leading_zeros()) as usize;
        let w = p.words;
        let conf = p.conflict_matrix()?;
        let padded = |rows: &[u64], n: usize| -> Vec<Live> {
            (0..n)
                .map(|r| {
                    let mut l = [0; WORDS];
                    l[..w].copy_from_slice(&rows[r * w..(r + 1) * w]);
                    l
                })
                .collect()
        };
        let item_opts: Vec<Live> = lane_item
            .iter()
            .map(|&i| padded(p.mask(i as usize), 1)[0])
            .collect();
        let item_words = item_opts
            .iter()
            .map(|l| (0..WORDS).filter(|&w| l[w] != 0).fold(0, |a, w| a | 1 << w))
            .collect();
        let multi_opts = multi
            .iter()
            .map(|&i| padded(p.mask(i as usize), 1)[0])
            .collect();
        (planes <= MAX_PLANES).then(|| SlicedTables {
            opt,
            conf: padded(conf, p.n_opts),
            item_opts,
            item_words,
            lane,
            lane_item,
            multi,
            multi_opts,
            opt_multi,
            planes: planes.max(1),
            fast_geo: p
                .geo
                .as_ref()
                .is_some_and(|g| g.cw == 1 && g.shifts.is_some() && g.sum_table.is_some()),
        })
    }
}

impl Prepared {
    /// The dead-region test of [`Prepared::regions_ok`] on the sliced state.
    #[inline]
    pub(crate) fn regions_ok_sliced(
        &self,
        st: &SlicedTables,
        lv: &Level,
        sc: &mut RegionScratch,
    ) -> bool {
        match (&self.geo, st.fast_geo) {
            (Some(g), true) => match &g.shifts {
                Some(shifts) => g.regions_ok_word(shifts, lv.s.occ, lv.pstate, &[]),
                None => true,
            },
            _ => self.regions_ok(lv, sc),
        }
    }
}

impl Prepared {
    /// [`Prepared::apply_geo`] on the sliced state: with [`SlicedTables::fast_geo`] only the
    /// occupied-cell word and the piece-count state change.
    #[inline]
    fn apply_geo_sliced(&self, st: &SlicedTables, parent: &Level, child: &mut Level, x: usize) {
        match &self.geo {
            Some(g) if st.fast_geo => {
                child.s.occ = parent.s.occ | g.opt_cells[x];
                let s = g.opt_size[x] as usize;
                // An optional piece may already be counted out (its digit of the state is 0).
                let digit = parent.pstate / g.radix[s] % (g.size_counts[s] as usize + 1);
                child.pstate = parent.pstate - if digit > 0 { g.radix[s] } else { 0 };
            }
            _ => self.apply_geo(parent, child, x),
        }
    }

    /// Fills the sliced state of `lv` from its general state (a query root).
    pub(crate) fn slice_level(&self, lv: &mut Level) {
        let Some(st) = &self.sliced else { return };
        let s = &mut lv.s;
        *s = SlicedState::default();
        for (w, &v) in lv.live.iter().enumerate() {
            s.live[w] = v;
            if v != 0 {
                s.active |= 1 << w;
            }
        }
        if st.fast_geo {
            s.occ = lv.occ[0];
        }
        for (b, &i) in st.lane_item.iter().enumerate() {
            let c = lv.counts[i as usize];
            for (k, plane) in s.planes.iter_mut().enumerate().take(st.planes) {
                if c >> k & 1 != 0 {
                    plane[b >> 6] |= 1 << (b & 63);
                }
            }
            if lv.rem[i as usize] > 0 {
                s.open[b >> 6] |= 1 << (b & 63);
            }
        }
        for (k, &i) in st.multi.iter().enumerate() {
            s.mrem[k] = lv.rem[i as usize];
        }
    }

    /// The sliced [`Prepared::descend`]: the state after choosing live option `x` in `parent`,
    /// with complete counts (a starved child is left to the search's fewest-options scan).
    /// The counts come from walking whichever set looks smaller, as in the byte path: the
    /// options this choice kills (subtracted from the parent's counts) or the survivors.
    pub(crate) fn descend_sliced(
        &self,
        parent: &Level,
        child: &mut Level,
        x: usize,
        sc: &mut SlicedScratch,
    ) {
        let Some(st) = &self.sliced else {
            unreachable!("the sliced path needs its tables")
        };
        let (ps, cs) = (&parent.s, &mut child.s);
        // Words outside the parent's active set are zero in the parent, hence in the child;
        // clear what an earlier use of this buffer left there.
        each_bit(cs.active & !ps.active, |w| cs.live[w] = 0);
        let row = &st.conf[x];
        let xm = st.opt[x];
        // The estimate of the killed options counts an option once per item of x it holds;
        // it is doubled because the survivor walk needs no final subtraction.
        let est = count_sum(&ps.planes, xm, st.planes).saturating_mul(2);
        let killed_mode = est <= parent.n_live.saturating_sub(est);
        let (idx, _, d, buf) = sc.bufs();
        let sat = st.saturated(ps, x, buf);
        let mut n = 0usize;
        each_bit(ps.active, |w| {
            let pl = ps.live[w];
            let r = row[w] | sat.map_or(0, |s| s[w]);
            let v = pl & !r;
            cs.live[w] = v;
            let k = if killed_mode { pl & r } else { v };
            each_bit(k, |b| {
                idx[n as u16 as usize] = (w * 64 + b) as u16;
                n += 1;
            });
        });
        cs.active = ps.active;
        if killed_mode {
            cs.planes = ps.planes;
            sub_masks(&st.opt, idx, n, &mut cs.planes, d, st.planes);
            child.n_live = parent.n_live - n as u32;
        } else {
            cs.planes = [ZERO; MAX_PLANES];
            add_masks(&st.opt, pad(idx, n), &mut cs.planes, st.planes);
            child.n_live = n as u32;
        }
        cs.open = andn(ps.open, xm);
        cs.mrem = st.mrem_after(ps, x);
        child.need_left = parent.need_left - self.prim_of(x).len() as u64;
        self.apply_geo_sliced(st, parent, child, x);
    }

    /// The sliced [`Prepared::descend_sibling`]: `child` holds the complete state after
    /// choosing an earlier option of the same `parent`; only the options that differ between
    /// the two children are walked, revived ones added and newly killed ones subtracted.
    pub(crate) fn descend_sibling_sliced(
        &self,
        parent: &Level,
        child: &mut Level,
        x: usize,
        sc: &mut SlicedScratch,
    ) {
        let Some(st) = &self.sliced else {
            unreachable!("the sliced path needs its tables")
        };
        let (ps, cs) = (&parent.s, &mut child.s);
        let row = &st.conf[x];
        let (add, del, sum, buf) = sc.bufs();
        let sat = st.saturated(ps, x, buf);
        let (mut na, mut nd) = (0usize, 0usize);
        // Words outside the parent's active set are zero in both children.
        each_bit(ps.active, |w| {
            let new = ps.live[w] & !(row[w] | sat.map_or(0, |s| s[w]));
            let old = cs.live[w];
            cs.live[w] = new;
            each_bit(new & !old, |b| {
                add[na as u16 as usize] = (w * 64 + b) as u16;
                na += 1;
            });
            each_bit(old & !new, |b| {
                del[nd as u16 as usize] = (w * 64 + b) as u16;
                nd += 1;
            });
        });
        cs.active = ps.active;
        child.n_live = child.n_live + na as u32 - nd as u32;
        add_masks(&st.opt, pad(add, na), &mut cs.planes, st.planes);
        sub_masks(&st.opt, del, nd, &mut cs.planes, sum, st.planes);
        cs.open = andn(ps.open, st.opt[x]);
        cs.mrem = st.mrem_after(ps, x);
        child.need_left = parent.need_left - self.prim_of(x).len() as u64;
        self.apply_geo_sliced(st, parent, child, x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::exact::sliced::HINTS;
    use crate::engines::exact::sliced::tests::value;

    /// The count of item `i` in `lv`.
    fn count(lv: &Level, i: usize) -> u32 {
        value(&lv.s.planes, i)
    }

    /// The starved-child test agrees with building the child, item by item: on every node of
    /// the first levels of real puzzles' trees, for every live option `x` of the node's
    /// fewest-options item and every open item `j` that `x` does not hold, `starves` with `j`
    /// as the only hint fires exactly when the built child has no option left for `j`.
    #[test]
    fn starved_child_test_matches_the_built_child() {
        let mut fired = 0;
        let mut tested = 0;
        for name in ["soma", "pentominoes-6x10", "tetris-cube"] {
            let p = Prepared::new(std::sync::Arc::new(crate::fixtures::model(name)), true);
            let st = p.sliced.as_ref().expect("sliced layout");
            let mut sc = SlicedScratch::default();
            // Depth-first over the first levels, a bounded number of nodes per puzzle.
            let mut stack = vec![p.root(&[], &[], true).unwrap()];
            let mut nodes = 0;
            while let Some(mut lv) = stack.pop() {
                nodes += 1;
                if nodes > 60 {
                    break;
                }
                if lv.need_left == 0 {
                    continue;
                }
                let Some(i) = st.fewest(&lv.s) else { continue };
                let mut cands = Vec::new();
                st.options_of(&mut lv.s, i, &mut cands);
                for &x in &cands {
                    let x = x as usize;
                    let mut child = Level::default();
                    p.descend_sliced(&lv, &mut child, x, &mut sc);
                    let open = andn(lv.s.open, st.opt[x]);
                    for j in 0..64 * LANES {
                        if open[j >> 6] >> (j & 63) & 1 == 0 {
                            continue;
                        }
                        let mut hints = [j as u8; HINTS];
                        let starved = count(&child, j) == 0;
                        assert_eq!(st.starves(&lv.s, x, &mut hints), starved, "{name} item {j}");
                        tested += 1;
                        fired += usize::from(starved);
                    }
                    if st.fewest(&child.s).is_some() && stack.len() < 8 {
                        stack.push(child);
                    }
                }
            }
        }
        assert!(
            fired > 100 && tested > 10 * fired,
            "fired {fired} of {tested}"
        );
    }
}
