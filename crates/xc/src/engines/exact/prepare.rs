//! The query-independent tables of the bitset engine (option bitsets per item, conflict
//! bitsets, and the cell geometry of [`Geo`]) and the search state they act on.

use super::geo::{Geo, achievable_sums, any_in_range, clear_bit, for_each_bit, set_bit, test_bit};
use super::sliced::{SlicedState, SlicedTables};
use super::tail::TailTables;
use crate::model::ExactCover;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Above this many bytes the per-option conflict bitsets are not stored; conflicts are then
/// computed from the per-item option bitsets at every step instead.
pub(crate) const CONFLICT_BYTES_LIMIT: usize = 64 << 20;

/// Padding item of [`Prepared::prim8`]: a spare counter slot nobody reads.
pub(crate) const PAD_ITEM: u8 = 255;

/// Copies `src` into `dst`, only its first `n` entries when `dst` already has the same length:
/// the per-item tables of the byte layout are padded to 256 slots, and past the items they
/// hold zeros (or, in the padding slot, a value nobody reads) in every level alike.
#[inline]
fn copy_prefix(dst: &mut Vec<u32>, src: &[u32], n: usize) {
    if dst.len() == src.len() && n <= src.len() {
        dst[..n].copy_from_slice(&src[..n]);
    } else {
        dst.clear();
        dst.extend_from_slice(src);
    }
}

/// `dst = src` for bitsets, in place when the lengths match.
#[inline]
fn copy_words(dst: &mut Vec<u64>, src: &[u64]) {
    if dst.len() == src.len() {
        dst.copy_from_slice(src);
    } else {
        dst.clear();
        dst.extend_from_slice(src);
    }
}

/// The state of one search node.
#[derive(Clone, Debug, Default)]
pub(crate) struct Level {
    /// Options still available.
    pub live: Vec<u64>,
    /// Indices of the words of `live` that may be non-zero (a superset of the non-zero ones):
    /// whole piece blocks die as the search goes down, and every bitset pass skips them.
    pub active: Vec<u32>,
    /// Number of live options.
    pub n_live: u32,
    /// Available options per item (meaningful for primary items still needing coverage).
    pub counts: Vec<u32>,
    /// Coverage still needed per item.
    pub rem: Vec<u32>,
    /// Primary items still needing coverage (a bitset over items): the fewest-options scan
    /// visits only these, and they thin out fast as cells get covered.
    pub open: Vec<u64>,
    /// Total coverage still needed; `0` means a solution.
    pub need_left: u64,
    /// Occupied cells (when geometry is in use).
    pub occ: Vec<u64>,
    /// Remaining pieces per distinct volume, and their mixed-radix state index.
    pub size_left: Vec<u32>,
    pub pstate: usize,
    /// Coverings every ranged item may still take (by [`Prepared::ranged`] slot), and the
    /// coverings the ranged items still need to reach their minimums; empty and 0 in models
    /// without ranged items.
    pub room: Vec<u32>,
    pub rlow: u32,
    /// The state of the sliced path (when [`Prepared::sliced`] is present), which replaces
    /// `live`, `active`, `counts`, `rem` and `open` below the root.
    pub s: SlicedState,
}

/// Buffers of [`Prepared::failed_options`].
#[derive(Default)]
struct StarveScratch {
    /// The live options of the item under test.
    mine: Vec<u32>,
    /// The running intersection of their conflict rows, and its non-zero words.
    acc: Vec<u64>,
    words: Vec<u32>,
    /// A computed conflict row (models without stored ones).
    row: Vec<u64>,
    /// The options found to starve the item.
    dead: Vec<u32>,
}

/// Everything precomputed for one model.
pub(crate) struct Prepared {
    /// The model, shared with the caller that built it rather than copied: a large target's
    /// cell items take a tenth of a megabyte, and much of a small count's time goes into
    /// touching fresh memory.
    pub model: Arc<ExactCover>,
    pub n_opts: usize,
    pub words: usize,
    /// The coverings every exact item needs (`0` for secondary and ranged items): the items
    /// the search branches on are the exact ones, "primary" below.
    pub need: Vec<u32>,
    /// Primary item indices.
    pub primary: Vec<u32>,
    /// Primary items of every option (flat, `prim_off[o]..prim_off[o+1]`).
    pub prim_off: Vec<u32>,
    /// The same lists in a fixed-stride byte layout, padded with [`PAD_ITEM`], when every item
    /// index fits in a byte and no option holds more than eight primary items: the count walks
    /// then run without offsets or bounds checks (counts and needs are padded to 256 entries).
    pub prim8: Option<Vec<[u8; 8]>>,
    pub prim: Vec<u32>,
    /// Items with need > 1 of every option (flat, `multi_off`).
    pub multi_off: Vec<u32>,
    pub multi: Vec<u32>,
    /// Items covered at most once (exact ones of need 1 and secondary ones) of every option
    /// (flat): choosing the option kills every option sharing one of them.
    pub excl_off: Vec<u32>,
    pub excl: Vec<u32>,
    /// The ranged items (by slot), their bounds, and the slots of every option's ranged items
    /// (flat, `rng_off`): never branched on, their options are killed once `max` is reached,
    /// and a cover of the exact items is a solution once each has reached its `min`.
    pub ranged: Vec<u32>,
    pub ranged_min: Vec<u32>,
    pub ranged_max: Vec<u32>,
    pub rng_off: Vec<u32>,
    pub rng: Vec<u32>,
    /// Options of every item (items × words).
    pub item_mask: Vec<u64>,
    /// Options sharing an item covered at most once with every option, itself included
    /// (options × words), once built (see [`Prepared::conflict_miss`]).
    conflict: OnceLock<Vec<u64>>,
    /// Whether the conflict rows may be stored (fast layouts, and small enough).
    pub conflict_ok: bool,
    /// Conflict rows computed on the fly so far, while none are stored.
    conflict_misses: AtomicUsize,
    pub geo: Option<Geo>,
    /// Tables of the bit-sliced counters, when the model qualifies (see [`SlicedTables`]).
    pub sliced: Option<SlicedTables>,
    /// Tables of the leaf search, when the model qualifies (see [`TailTables`]).
    pub tail: Option<TailTables>,
    /// Options removed by preprocessing (computed on first use of pruning), and the state
    /// with them dropped and nothing chosen, which every query's root starts from: a run
    /// broken into branches at a cell builds a root per branch.
    removed: OnceLock<Vec<u64>>,
    pruned: OnceLock<Level>,
    /// The items' needs in the form the solution check reads them.
    pub check: CheckTables,
}

/// Above this many bytes the solution check does not store each option's items as a
/// bitset and walks the model's item lists instead.
pub(crate) const CHECK_BYTES_LIMIT: usize = 16 << 20;

/// What the engine's check of every solution reads: the model's items and options in two
/// forms, both built here from the model alone (not from the search's tables).
pub(crate) struct CheckTables {
    /// Bounds of every item.
    pub min: Vec<u32>,
    pub max: Vec<u32>,
    /// Items needing exactly one covering, and items needing none (at most one), as bitsets
    /// over the items (`words` words).
    pub required: Vec<u64>,
    pub optional: Vec<u64>,
    pub words: usize,
    /// Items that may take more than one covering (exact ones of larger need and ranged ones),
    /// counted.
    pub multi: Vec<u32>,
    /// Each option's items covered at most once (options × `words`), and its counted items
    /// (flat, `multi_off`), when the bitsets fit [`CHECK_BYTES_LIMIT`].
    pub opt_bits: Option<Vec<u64>>,
    pub multi_off: Vec<u32>,
    pub opt_multi: Vec<u32>,
}

impl CheckTables {
    /// The tables of `model`, the options' bitsets only when `bitsets` allows them. Each
    /// option's items are strictly increasing, as [`ExactCover::validate`] requires of every
    /// model an engine is built for, so a bitset loses no repeated item.
    fn new(model: &ExactCover, bitsets: bool) -> CheckTables {
        let min: Vec<u32> = model.items.iter().map(|i| i.min).collect();
        let max: Vec<u32> = model.items.iter().map(|i| i.max).collect();
        let words = min.len().div_ceil(64).max(1);
        let (mut required, mut optional) = (vec![0u64; words], vec![0u64; words]);
        let mut multi = Vec::new();
        for (i, (&lo, &hi)) in min.iter().zip(&max).enumerate() {
            match (lo, hi) {
                (0, 1) => set_bit(&mut optional, i),
                (1, 1) => set_bit(&mut required, i),
                _ => multi.push(i as u32),
            }
        }
        let n_opts = model.options.len();
        let (mut multi_off, mut opt_multi) = (vec![0u32], Vec::new());
        let mut opt_bits = (bitsets
            && n_opts.saturating_mul(words).saturating_mul(8) <= CHECK_BYTES_LIMIT)
            .then(|| vec![0u64; n_opts * words]);
        for (o, items) in model.options.iter().enumerate() {
            for &i in items {
                if max[i as usize] > 1 {
                    opt_multi.push(i);
                } else if let Some(bits) = &mut opt_bits {
                    set_bit(&mut bits[o * words..(o + 1) * words], i as usize);
                }
            }
            multi_off.push(opt_multi.len() as u32);
        }
        CheckTables {
            min,
            max,
            required,
            optional,
            words,
            multi,
            opt_bits,
            multi_off,
            opt_multi,
        }
    }
}

impl Prepared {
    /// Prepares `model`; `fast_layouts` allows the byte layout, the conflict matrix, the
    /// solution check's option bitsets and the shift flood fill (tests turn it off to
    /// exercise the general paths on small models).
    pub fn new(shared: Arc<ExactCover>, fast_layouts: bool) -> Prepared {
        let model: &ExactCover = &shared;
        let n_items = model.items.len();
        let n_opts = model.options.len();
        let words = n_opts.div_ceil(64).max(1);
        let need: Vec<u32> = model
            .items
            .iter()
            .map(|i| if i.is_exact() { i.min } else { 0 })
            .collect();
        let primary = (0..n_items as u32)
            .filter(|&i| need[i as usize] > 0)
            .collect();
        let ranged: Vec<u32> = (0..n_items as u32)
            .filter(|&i| model.items[i as usize].is_ranged())
            .collect();
        let mut slot = vec![u32::MAX; n_items];
        for (k, &i) in ranged.iter().enumerate() {
            slot[i as usize] = k as u32;
        }
        let (mut prim_off, mut prim) = (vec![0u32], Vec::new());
        let (mut multi_off, mut multi) = (vec![0u32], Vec::new());
        let (mut excl_off, mut excl) = (vec![0u32], Vec::new());
        let (mut rng_off, mut rng) = (vec![0u32], Vec::new());
        let mut item_mask = vec![0u64; n_items * words];
        for (o, items) in model.options.iter().enumerate() {
            for &i in items {
                let n = need[i as usize];
                if n > 0 {
                    prim.push(i);
                }
                if n > 1 {
                    multi.push(i);
                } else if slot[i as usize] != u32::MAX {
                    rng.push(slot[i as usize]);
                } else {
                    excl.push(i);
                }
                set_bit(
                    &mut item_mask[i as usize * words..(i as usize + 1) * words],
                    o,
                );
            }
            prim_off.push(prim.len() as u32);
            multi_off.push(multi.len() as u32);
            excl_off.push(excl.len() as u32);
            rng_off.push(rng.len() as u32);
        }
        let mut p = Prepared {
            model: Arc::clone(&shared),
            n_opts,
            words,
            need,
            primary,
            prim8: None,
            prim_off,
            prim,
            multi_off,
            multi,
            excl_off,
            excl,
            ranged_min: ranged
                .iter()
                .map(|&i| model.items[i as usize].min)
                .collect(),
            ranged_max: ranged
                .iter()
                .map(|&i| model.items[i as usize].max)
                .collect(),
            ranged,
            rng_off,
            rng,
            item_mask,
            conflict: OnceLock::new(),
            conflict_ok: fast_layouts
                && n_opts.saturating_mul(words).saturating_mul(8) <= CONFLICT_BYTES_LIMIT,
            conflict_misses: AtomicUsize::new(0),
            geo: Geo::build(model, fast_layouts),
            sliced: None,
            tail: None,
            removed: OnceLock::new(),
            pruned: OnceLock::new(),
            check: CheckTables::new(model, fast_layouts),
        };
        if fast_layouts
            && n_items < PAD_ITEM as usize
            && (0..n_opts).all(|o| p.prim_of(o).len() <= 8)
        {
            p.prim8 = Some(
                (0..n_opts)
                    .map(|o| {
                        let mut row = [PAD_ITEM; 8];
                        for (r, &i) in row.iter_mut().zip(p.prim_of(o)) {
                            *r = i as u8;
                        }
                        row
                    })
                    .collect(),
            );
        }
        p.sliced = SlicedTables::build(&p);
        p.tail = TailTables::build(model);
        p
    }

    #[inline]
    pub fn prim_of(&self, o: usize) -> &[u32] {
        &self.prim[self.prim_off[o] as usize..self.prim_off[o + 1] as usize]
    }
    #[inline]
    pub fn multi_of(&self, o: usize) -> &[u32] {
        &self.multi[self.multi_off[o] as usize..self.multi_off[o + 1] as usize]
    }
    #[inline]
    pub fn rng_of(&self, o: usize) -> &[u32] {
        &self.rng[self.rng_off[o] as usize..self.rng_off[o + 1] as usize]
    }
    #[inline]
    pub fn excl_of(&self, o: usize) -> &[u32] {
        &self.excl[self.excl_off[o] as usize..self.excl_off[o + 1] as usize]
    }
    #[inline]
    pub fn mask(&self, i: usize) -> &[u64] {
        &self.item_mask[i * self.words..(i + 1) * self.words]
    }

    /// The state with every option live and nothing chosen.
    fn initial(&self) -> Level {
        let m = &self.model;
        let mut live = vec![u64::MAX; self.words];
        for o in self.n_opts..self.words * 64 {
            clear_bit(&mut live, o);
        }
        let slots = if self.prim8.is_some() {
            256
        } else {
            m.items.len()
        };
        let mut counts = vec![0u32; slots];
        for o in 0..self.n_opts {
            for &i in self.prim_of(o) {
                counts[i as usize] += 1;
            }
        }
        let mut rem: Vec<u32> = self.need.clone();
        rem.resize(slots, 0);
        let need_left = rem.iter().map(|&r| r as u64).sum();
        let mut open = vec![0u64; m.items.len().div_ceil(64).max(1)];
        for &i in &self.primary {
            set_bit(&mut open, i as usize);
        }
        let (occ, size_left, pstate) = match &self.geo {
            Some(g) => {
                let pstate = g
                    .size_counts
                    .iter()
                    .zip(&g.radix)
                    .map(|(&c, &r)| c as usize * r)
                    .sum();
                (vec![0u64; g.cw], g.size_counts.clone(), pstate)
            }
            None => (Vec::new(), Vec::new(), 0),
        };
        Level {
            live,
            active: (0..self.words as u32).collect(),
            n_live: self.n_opts as u32,
            counts,
            rem,
            open,
            need_left,
            occ,
            size_left,
            pstate,
            room: self.ranged_max.clone(),
            rlow: self.ranged_min.iter().sum(),
            ..Level::default()
        }
    }

    /// Removes a live option from a state.
    pub fn drop_option(&self, lv: &mut Level, o: usize) {
        if test_bit(&lv.live, o) {
            clear_bit(&mut lv.live, o);
            lv.n_live -= 1;
            for &i in self.prim_of(o) {
                lv.counts[i as usize] -= 1;
            }
        }
    }

    /// True when [`Prepared::descend_sibling`] may be used: byte layout, stored conflict
    /// bitsets and no multiplicity or ranged item (whose saturation kills options beyond the
    /// conflicts, and whose branches change the parent between siblings).
    pub fn sibling_mode(&self) -> bool {
        self.prim8.is_some()
            && self.conflict.get().is_some()
            && self.multi.is_empty()
            && self.ranged.is_empty()
    }

    /// [`Prepared::descend`] for the next sibling: `child` holds the complete state after
    /// choosing an earlier option of the same, unchanged `parent` (requires
    /// [`Prepared::sibling_mode`]). The candidates of one item mostly share cells with each
    /// other, so their conflict sets overlap and the counts are updated by walking only the
    /// options that differ between the two children (revived ones counted back in, newly
    /// killed ones counted out) instead of all killed or all surviving options. Always builds
    /// complete counts; a starved child is left to the search's fewest-options scan.
    pub fn descend_sibling(&self, parent: &Level, child: &mut Level, x: usize) {
        let (Some(conf), Some(p8)) = (self.conflict.get(), &self.prim8) else {
            self.descend(parent, child, x, false);
            return;
        };
        let Ok(counts) = <&mut [u32; 256]>::try_from(&mut child.counts[..]) else {
            self.descend(parent, child, x, false);
            return;
        };
        let w = self.words;
        let row = &conf[x * w..(x + 1) * w];
        child.active.clear();
        let mut n_live = child.n_live;
        // Words outside the parent's active list are zero in both children.
        for &wi in &parent.active {
            let wu = wi as usize;
            let new = parent.live[wu] & !row[wu];
            let old = child.live[wu];
            child.live[wu] = new;
            if new != 0 {
                child.active.push(wi);
            }
            let mut add = new & !old;
            while add != 0 {
                let o = wu * 64 + add.trailing_zeros() as usize;
                add &= add - 1;
                n_live += 1;
                let r = p8[o];
                macro_rules! inc {
                    ($($k:literal)*) => {$(
                        let i = r[$k] as usize;
                        counts[i] = counts[i].wrapping_add(1);
                    )*};
                }
                inc!(0 1 2 3 4 5 6 7);
            }
            let mut del = old & !new;
            while del != 0 {
                let o = wu * 64 + del.trailing_zeros() as usize;
                del &= del - 1;
                n_live -= 1;
                let r = p8[o];
                macro_rules! dec {
                    ($($k:literal)*) => {$(
                        let i = r[$k] as usize;
                        counts[i] = counts[i].wrapping_sub(1);
                    )*};
                }
                dec!(0 1 2 3 4 5 6 7);
            }
        }
        child.n_live = n_live;
        copy_prefix(&mut child.rem, &parent.rem, self.model.items.len());
        copy_words(&mut child.open, &parent.open);
        let prim = self.prim_of(x);
        child.need_left = parent.need_left - prim.len() as u64;
        for &i in prim {
            let r = child.rem[i as usize] - 1;
            child.rem[i as usize] = r;
            if r == 0 {
                clear_bit(&mut child.open, i as usize);
            }
        }
        self.apply_geo(parent, child, x);
    }

    /// Builds in `child` the state after choosing live option `x` in `parent`. Returns `false`
    /// when the child is starved (some primary item still needing coverage has fewer live
    /// options than it needs). With `early_exit` (the search) the walk stops at the first
    /// starved item, leaving the counts incomplete, and a starved child may also come back as
    /// `true` when spotting it would cost an extra pass: the search's fewest-options scan then
    /// finds it.
    pub fn descend(&self, parent: &Level, child: &mut Level, x: usize, early_exit: bool) -> bool {
        let w = self.words;
        if child.live.len() != w {
            child.live = vec![0; w];
            child.active.clear();
        }
        // Words outside the parent's active list are zero in the parent, hence in the child;
        // clear what an earlier use of this buffer left there.
        for &wi in &child.active {
            child.live[wi as usize] = 0;
        }
        child.active.clear();
        match self.conflict.get() {
            Some(conf) => {
                let row = &conf[x * w..(x + 1) * w];
                for &wi in &parent.active {
                    let v = parent.live[wi as usize] & !row[wi as usize];
                    child.live[wi as usize] = v;
                    if v != 0 {
                        child.active.push(wi);
                    }
                }
            }
            None => {
                self.conflict_miss();
                let excl = self.excl_of(x);
                for &wi in &parent.active {
                    let wu = wi as usize;
                    let mut v = parent.live[wu];
                    for &i in excl {
                        v &= !self.item_mask[i as usize * w + wu];
                    }
                    if wu == x >> 6 {
                        v &= !(1u64 << (x & 63));
                    }
                    child.live[wu] = v;
                    if v != 0 {
                        child.active.push(wi);
                    }
                }
            }
        }
        copy_prefix(&mut child.rem, &parent.rem, self.model.items.len());
        let prim = self.prim_of(x);
        child.need_left = parent.need_left - prim.len() as u64;
        copy_words(&mut child.open, &parent.open);
        for &i in prim {
            let r = child.rem[i as usize] - 1;
            child.rem[i as usize] = r;
            if r == 0 {
                clear_bit(&mut child.open, i as usize);
            }
        }
        for &i in self.multi_of(x) {
            if child.rem[i as usize] == 0 {
                let m = self.mask(i as usize);
                for &wi in &child.active {
                    child.live[wi as usize] &= !m[wi as usize];
                }
            }
        }
        if !self.ranged.is_empty() {
            self.apply_ranges(parent, child, x);
        }
        self.apply_geo(parent, child, x);
        // Counts: walk whichever looks smaller, the options this choice killed (decrementing
        // the parent's counts) or the survivors (counting from zero). The killed ones are
        // estimated from the counts of x's items, which avoids a popcount pass; the estimate is
        // doubled because the survivor walk has no early exit and measured cheaper per option.
        let est_killed: u32 = prim.iter().map(|&i| parent.counts[i as usize]).sum();
        let est_killed = est_killed.saturating_mul(2);
        let killed_mode = est_killed <= parent.n_live.saturating_sub(est_killed);
        if let Some(p8) = &self.prim8 {
            return self.walk8(p8, parent, child, killed_mode, early_exit);
        }
        if killed_mode {
            child.counts.clone_from(&parent.counts);
            let mut killed = 0;
            for &wi in &parent.active {
                let wu = wi as usize;
                let mut k = parent.live[wu] & !child.live[wu];
                while k != 0 {
                    let o = wu * 64 + k.trailing_zeros() as usize;
                    k &= k - 1;
                    killed += 1;
                    for &i in self.prim_of(o) {
                        let i = i as usize;
                        child.counts[i] -= 1;
                        if early_exit && child.counts[i] < child.rem[i] {
                            return false;
                        }
                    }
                }
            }
            child.n_live = parent.n_live - killed;
            if early_exit {
                // Only decremented items can have become starved.
                return true;
            }
        } else {
            child.counts.clear();
            child.counts.resize(parent.counts.len(), 0);
            let mut kept = 0;
            for &wi in &child.active {
                let wu = wi as usize;
                let mut k = child.live[wu];
                while k != 0 {
                    let o = wu * 64 + k.trailing_zeros() as usize;
                    k &= k - 1;
                    kept += 1;
                    for &i in self.prim_of(o) {
                        child.counts[i as usize] += 1;
                    }
                }
            }
            child.n_live = kept;
        }
        !self.starved(child)
    }

    /// The count walks of [`Prepared::descend`] for the byte layout.
    fn walk8(
        &self,
        p8: &[[u8; 8]],
        parent: &Level,
        child: &mut Level,
        killed_mode: bool,
        early_exit: bool,
    ) -> bool {
        let Ok(rem) = <&[u32; 256]>::try_from(&child.rem[..]) else {
            return !self.starved(child);
        };
        let mut n = 0;
        if killed_mode {
            copy_prefix(&mut child.counts, &parent.counts, self.model.items.len());
            let Ok(counts) = <&mut [u32; 256]>::try_from(&mut child.counts[..]) else {
                return !self.starved(child);
            };
            for &wi in &parent.active {
                let wu = wi as usize;
                let mut k = parent.live[wu] & !child.live[wu];
                while k != 0 {
                    let o = wu * 64 + k.trailing_zeros() as usize;
                    k &= k - 1;
                    n += 1;
                    let row = p8[o];
                    let mut starving = false;
                    // Every row has exactly eight slots; the padding slot wraps harmlessly
                    // (its need is 0).
                    macro_rules! dec {
                        ($($k:literal)*) => {$(
                            let i = row[$k] as usize;
                            let c = counts[i].wrapping_sub(1);
                            counts[i] = c;
                            starving |= c < rem[i];
                        )*};
                    }
                    dec!(0 1 2 3 4 5 6 7);
                    if early_exit && starving {
                        return false;
                    }
                }
            }
            child.n_live = parent.n_live - n;
            if early_exit {
                return true;
            }
        } else {
            if child.counts.len() == 256 {
                // Slots past the items stay zero (only the padding slot 255 changes, and
                // nobody reads it), so only the items' slots need clearing.
                child.counts[..self.model.items.len()].fill(0);
            } else {
                child.counts.clear();
                child.counts.resize(256, 0);
            }
            let Ok(counts) = <&mut [u32; 256]>::try_from(&mut child.counts[..]) else {
                return !self.starved(child);
            };
            for &wi in &child.active {
                let wu = wi as usize;
                let mut k = child.live[wu];
                while k != 0 {
                    let o = wu * 64 + k.trailing_zeros() as usize;
                    k &= k - 1;
                    n += 1;
                    let row = p8[o];
                    // Every row has exactly eight slots (this walk is the engine's hottest
                    // loop: about 40% of a Tetris count's instructions).
                    macro_rules! inc {
                        ($($k:literal)*) => {$(
                            let i = row[$k] as usize;
                            counts[i] = counts[i].wrapping_add(1);
                        )*};
                    }
                    inc!(0 1 2 3 4 5 6 7);
                }
            }
            child.n_live = n;
            if early_exit {
                // The search's fewest-options scan finds a starved child at no extra cost.
                return true;
            }
        }
        !self.starved(child)
    }

    /// The ranged part of choosing `x`: the room of its ranged items, the coverings they still
    /// need, and the options of an item whose room runs out killed (before the counts are
    /// walked, which then see them as killed).
    fn apply_ranges(&self, parent: &Level, child: &mut Level, x: usize) {
        child.room.clone_from(&parent.room);
        child.rlow = parent.rlow;
        for &k in self.rng_of(x) {
            let k = k as usize;
            let room = child.room[k] - 1;
            child.room[k] = room;
            // Coverings up to the minimum count towards it.
            if self.ranged_max[k] - room <= self.ranged_min[k] {
                child.rlow -= 1;
            }
            if room == 0 {
                let m = self.mask(self.ranged[k] as usize);
                for &wi in &child.active {
                    child.live[wi as usize] &= !m[wi as usize];
                }
            }
        }
    }

    /// True when the ranged items with coverings still to reach their minimums have enough
    /// live options for them (each option covers an item once).
    pub fn ranges_feasible(&self, lv: &Level) -> bool {
        lv.rlow == 0
            || self.ranged.iter().enumerate().all(|(k, &i)| {
                let covered = self.ranged_max[k] - lv.room[k];
                let short = self.ranged_min[k].saturating_sub(covered);
                if short == 0 {
                    return true;
                }
                let m = self.mask(i as usize);
                let live: u32 = lv
                    .active
                    .iter()
                    .map(|&w| (lv.live[w as usize] & m[w as usize]).count_ones())
                    .sum();
                live >= short
            })
    }

    /// The geometric part of choosing `x`: occupied cells and remaining piece volumes.
    pub(crate) fn apply_geo(&self, parent: &Level, child: &mut Level, x: usize) {
        if let Some(g) = &self.geo {
            let cells = &g.opt_cells[x * g.cw..(x + 1) * g.cw];
            // Level buffers are reused down the tree: overwrite in place when the sizes match
            // (always, after a level's first use) instead of clearing and refilling.
            if child.occ.len() == parent.occ.len() {
                for ((c, &a), &b) in child.occ.iter_mut().zip(&parent.occ).zip(cells) {
                    *c = a | b;
                }
            } else {
                child.occ.clear();
                child
                    .occ
                    .extend(parent.occ.iter().zip(cells).map(|(&a, &b)| a | b));
            }
            copy_prefix(
                &mut child.size_left,
                &parent.size_left,
                parent.size_left.len(),
            );
            let s = g.opt_size[x] as usize;
            // An optional piece may already be counted out; never underflow.
            if child.size_left[s] > 0 {
                child.size_left[s] -= 1;
                child.pstate = parent.pstate - g.radix[s];
            } else {
                child.pstate = parent.pstate;
            }
        }
    }

    /// True if some primary item still needing coverage has too few live options.
    pub fn starved(&self, lv: &Level) -> bool {
        self.primary
            .iter()
            .any(|&i| lv.counts[i as usize] < lv.rem[i as usize])
    }

    /// The root state of a query: preprocessing removals (if `pruning`), `excluded` removed,
    /// then the model's and `forced` options chosen. `None` if they contradict each other.
    pub fn root(&self, forced: &[u32], excluded: &[u32], pruning: bool) -> Option<Level> {
        let mut lv = self.root_unsliced(forced, excluded, pruning)?;
        self.slice_level(&mut lv);
        Some(lv)
    }

    /// A cube's root from a shared unsliced root ([`Prepared::root_unsliced`]): `excluded`
    /// dropped and `chosen` (ascending) chosen, then sliced; `None` when a chosen option is
    /// not live there. Cheaper than [`Prepared::root`] when many cubes share the same
    /// exclusions.
    pub fn cube_root(&self, shared: &Level, chosen: &[u32], excluded: &[u32]) -> Option<Level> {
        let mut lv = shared.clone();
        for &o in excluded {
            if test_bit(&lv.live, o as usize) {
                self.drop_option(&mut lv, o as usize);
            }
        }
        let mut next = Level::default();
        for &f in chosen {
            if !test_bit(&lv.live, f as usize) {
                return None;
            }
            self.descend(&lv, &mut next, f as usize, false);
            std::mem::swap(&mut lv, &mut next);
        }
        self.slice_level(&mut lv);
        Some(lv)
    }

    /// [`Prepared::root`] before the sliced counters are built.
    pub fn root_unsliced(&self, forced: &[u32], excluded: &[u32], pruning: bool) -> Option<Level> {
        let mut lv = if pruning {
            self.pruned
                .get_or_init(|| {
                    let mut lv = self.initial();
                    for_each_bit(self.removed(), |o| self.drop_option(&mut lv, o));
                    lv
                })
                .clone()
        } else {
            self.initial()
        };
        for &o in excluded {
            self.drop_option(&mut lv, o as usize);
        }
        let mut all: Vec<u32> = self.model.forced.iter().chain(forced).copied().collect();
        all.sort_unstable();
        all.dedup();
        let mut next = Level::default();
        for &f in &all {
            if !test_bit(&lv.live, f as usize) {
                return None;
            }
            self.descend(&lv, &mut next, f as usize, false);
            std::mem::swap(&mut lv, &mut next);
        }
        Some(lv)
    }

    /// Options no solution can contain, found once per model at the root (the model's forced
    /// options chosen, nothing else): first the options that conflict with an option every
    /// solution holds, that of an item with as many live options as it needs (the box or
    /// cage of a packing puzzle, given as a piece of one placement), chosen in turn until
    /// none is left; then [`Prepared::failed_options`] in the state they leave. Probing the
    /// whole model with the cage still open took three times PelikanBurr's whole search and
    /// setup (87 M instructions; its 3,601 options mostly overlap the cage).
    pub fn removed(&self) -> &[u64] {
        self.removed.get_or_init(|| {
            let all = || {
                let mut removed = vec![0u64; self.words];
                for o in 0..self.n_opts {
                    set_bit(&mut removed, o);
                }
                removed
            };
            let Some(mut root) = self.root(&[], &[], false) else {
                // Contradictory forced options: nothing can be chosen.
                return all();
            };
            let mut removed = vec![0u64; self.words];
            if !self.choose_units(&mut root, &mut removed) {
                return all();
            }
            let failed = self.failed_options(&mut root, false);
            for (r, f) in removed.iter_mut().zip(failed) {
                *r |= f;
            }
            removed
        })
    }

    /// Chooses, in `lv`, the live options of every item with exactly as many live options as
    /// it still needs (again and again, as choices make new such items), adding the options
    /// each choice kills to `removed`; `false` when the state turns out to have no solution.
    fn choose_units(&self, lv: &mut Level, removed: &mut [u64]) -> bool {
        let mut next = Level::default();
        loop {
            if self.starved(lv) {
                return false;
            }
            let Some(&i) = self.primary.iter().find(|&&i| {
                let i = i as usize;
                lv.rem[i] > 0 && lv.counts[i] == lv.rem[i]
            }) else {
                return true;
            };
            let m = self.mask(i as usize);
            let Some(x) = lv.active.iter().map(|&w| w as usize).find_map(|w| {
                let bits = lv.live[w] & m[w];
                (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
            }) else {
                return false;
            };
            self.descend(lv, &mut next, x, false);
            for &w in &lv.active {
                let w = w as usize;
                let mut dead = lv.live[w] & !next.live[w];
                if w == x >> 6 {
                    dead &= !(1u64 << (x & 63));
                }
                removed[w] |= dead;
            }
            std::mem::swap(lv, &mut next);
        }
    }

    /// Lookahead at a subproblem (`forced` chosen, `excluded` and the model's removed options
    /// dropped): the live options [`Prepared::failed_options`] proves dead there, or `None`
    /// when the subproblem has no solution (contradictory choices, or an item left with too
    /// few options before or after the dead options are dropped).
    pub fn probe(&self, forced: &[u32], excluded: &[u32]) -> Option<Vec<u64>> {
        let mut lv = self.root(forced, excluded, true)?;
        if self.starved(&lv) {
            return None;
        }
        let dead = self.failed_options(&mut lv, true);
        (!self.starved(&lv)).then_some(dead)
    }

    /// Failed-literal probing with the engine's cheap tests, dropping what it finds from `lv`:
    /// a live option is dead when choosing it leaves a primary item with fewer live options
    /// than it needs, or cuts off a region of free cells that no sub-multiset of the remaining
    /// pieces can fill. The first test is repeated until nothing changes, since each removal
    /// lowers other items' counts; the region test is independent of the removals and runs
    /// once per option. With `refute`, it stops as soon as an item has too few options left
    /// (the state is dead; the caller sees it in the counts). Returns the dropped options.
    ///
    /// The starvation test runs per item rather than per option: an item needing one more
    /// covering is starved exactly by the options that conflict with all of its live options,
    /// the intersection of their conflict rows (narrowed row by row, and abandoned once empty).
    /// Only items that lost an option are looked at again. Extra kills by saturated
    /// multiplicity items are ignored (sound: it only prunes less).
    fn failed_options(&self, lv: &mut Level, refute: bool) -> Vec<u64> {
        let mut removed = vec![0u64; self.words];
        let mut pending: Vec<u32> = self
            .primary
            .iter()
            .copied()
            .filter(|&j| lv.rem[j as usize] > 0)
            .collect();
        let mut queued = vec![false; self.model.items.len()];
        for &j in &pending {
            queued[j as usize] = true;
        }
        let mut scratch = StarveScratch::default();
        let mut regions_done = self.geo.is_none();
        loop {
            while let Some(j) = pending.pop() {
                queued[j as usize] = false;
                self.starved_by(lv, j as usize, &mut scratch);
                for &x in &scratch.dead {
                    let x = x as usize;
                    if !test_bit(&lv.live, x) {
                        continue;
                    }
                    if self.drop_dead(lv, x, &mut removed, &mut pending, &mut queued) && refute {
                        return removed;
                    }
                }
            }
            if regions_done {
                return removed;
            }
            // The region test, once per option still live (nothing below changes its answer).
            regions_done = true;
            let mut child = Level::default();
            let mut region = RegionScratch::default();
            let mut cands = Vec::new();
            for_each_bit(&lv.live, |o| cands.push(o));
            for o in cands {
                self.apply_geo(lv, &mut child, o);
                if !self.regions_ok(&child, &mut region)
                    && self.drop_dead(lv, o, &mut removed, &mut pending, &mut queued)
                    && refute
                {
                    return removed;
                }
            }
        }
    }

    /// Drops live option `x` as dead, queues its items for another starvation test, and tells
    /// whether one of them now has too few options.
    fn drop_dead(
        &self,
        lv: &mut Level,
        x: usize,
        removed: &mut [u64],
        pending: &mut Vec<u32>,
        queued: &mut [bool],
    ) -> bool {
        self.drop_option(lv, x);
        set_bit(removed, x);
        let mut starved = false;
        for &i in self.prim_of(x) {
            let i = i as usize;
            if lv.rem[i] == 0 {
                continue;
            }
            starved |= lv.counts[i] < lv.rem[i];
            if !queued[i] {
                queued[i] = true;
                pending.push(i as u32);
            }
        }
        starved
    }

    /// The live options of `lv` that starve item `j` (which still needs coverage) and do not
    /// hold it, into `sc.dead`.
    fn starved_by(&self, lv: &Level, j: usize, sc: &mut StarveScratch) {
        sc.dead.clear();
        let w = self.words;
        let mask = self.mask(j);
        let need = lv.rem[j];
        sc.mine.clear();
        for &wi in &lv.active {
            let wi = wi as usize;
            let mut v = lv.live[wi] & mask[wi];
            while v != 0 {
                sc.mine.push((wi * 64) as u32 + v.trailing_zeros());
                v &= v - 1;
            }
        }
        if need > 1 {
            // A multiplicity item: count its survivors option by option.
            for_each_bit(&lv.live, |x| {
                if test_bit(mask, x) {
                    return;
                }
                let row = self.conflict_row(x, &mut sc.row);
                let alive = sc
                    .mine
                    .iter()
                    .filter(|&&o| !test_bit(row, o as usize))
                    .count();
                if (alive as u32) < need {
                    sc.dead.push(x as u32);
                }
            });
            return;
        }
        // Candidates: live options not holding j, narrowed by each of j's options' conflicts;
        // only the words still non-zero are carried on.
        sc.acc.clear();
        sc.acc.resize(w, 0);
        sc.words.clear();
        for &wi in &lv.active {
            let v = lv.live[wi as usize] & !mask[wi as usize];
            if v != 0 {
                sc.acc[wi as usize] = v;
                sc.words.push(wi);
            }
        }
        // The options alternately from both ends of the list: they are in index order, which
        // in a puzzle's model is piece order, and options of one piece all conflict over the
        // piece item, so the intersection shrinks only once another piece's option comes;
        // taking the first and the last first empties it at once for most items (a third of
        // a count of BurrTools' PelikanBurr went into this narrowing in list order).
        let k = sc.mine.len();
        for i in 0..k {
            let o = sc.mine[if i % 2 == 0 { i / 2 } else { k - 1 - i / 2 }] as usize;
            let row = self.conflict_row(o, &mut sc.row);
            let acc = &mut sc.acc;
            sc.words.retain(|&wi| {
                let wi = wi as usize;
                acc[wi] &= row[wi];
                acc[wi] != 0
            });
            if sc.words.is_empty() {
                return;
            }
        }
        for &wi in &sc.words {
            let mut v = sc.acc[wi as usize];
            while v != 0 {
                sc.dead.push(wi * 64 + v.trailing_zeros());
                v &= v - 1;
            }
        }
    }

    /// The options sharing a need <= 1 item with option `o` (itself included), from the stored
    /// conflict bitsets or computed into `buf`.
    pub(crate) fn conflict_row<'b>(&'b self, o: usize, buf: &'b mut Vec<u64>) -> &'b [u64] {
        let w = self.words;
        if let Some(conf) = self.conflict.get() {
            return &conf[o * w..(o + 1) * w];
        }
        self.conflict_miss();
        buf.clear();
        buf.resize(w, 0);
        for &e in self.excl_of(o) {
            for (r, &b) in buf.iter_mut().zip(self.mask(e as usize)) {
                *r |= b;
            }
        }
        set_bit(buf, o);
        buf
    }

    /// The stored conflict rows, built now if they are not yet (`None` where they may not
    /// be stored).
    pub(crate) fn conflict_matrix(&self) -> Option<&[u64]> {
        self.conflict_ok
            .then(|| self.conflict.get_or_init(|| conflict_rows(self)).as_slice())
    }

    /// Notes a conflict row computed on the fly, and stores them all once as many rows have
    /// been computed as there are options (rent or buy: a search then never spends more
    /// than twice what storing them up front costs). A setup-bound count never pays for
    /// them: BurrTools' PelikanBurr reads some 500 rows of its 3,601 (1.6 MB, a tenth of
    /// its whole run with the page faults), a count of millions of nodes stores them early.
    #[inline]
    fn conflict_miss(&self) {
        if self.conflict_ok && self.conflict_misses.fetch_add(1, Ordering::Relaxed) >= self.n_opts {
            self.conflict_matrix();
        }
    }

    /// Dead-region test: every connected component of free cells holding `m` must-fill cells
    /// and `s` optional cells needs a sub-multiset of the remaining pieces whose volume lies in
    /// `m..=m+s` (pieces are connected, so each lies inside one component). True when no
    /// component fails (or there is no usable geometry).
    pub fn regions_ok(&self, lv: &Level, sc: &mut RegionScratch) -> bool {
        let Some(g) = &self.geo else { return true };
        if let Some(shifts) = &g.shifts {
            return g.regions_ok_word(shifts, lv.occ[0], lv.pstate, &lv.size_left);
        }
        let cw = g.cw;
        sc.ensure(cw, g.sw);
        if g.walk {
            return Self::regions_ok_walk(g, lv, sc);
        }
        let RegionScratch {
            free,
            todo,
            comp,
            frontier,
            next,
            sums,
            have_sums,
            ..
        } = sc;
        *have_sums = false;
        for w in 0..cw {
            free[w] = g.all[w] & !lv.occ[w];
            todo[w] = g.must[w] & !lv.occ[w];
        }
        let mut w0 = 0;
        loop {
            while w0 < cw && todo[w0] == 0 {
                w0 += 1;
            }
            if w0 == cw {
                break;
            }
            let seed = w0 * 64 + todo[w0].trailing_zeros() as usize;
            g.flood(free, seed, comp, frontier, next);
            let mut m = 0;
            let mut total = 0;
            for w in 0..cw {
                m += (comp[w] & g.must[w]).count_ones() as usize;
                total += comp[w].count_ones() as usize;
                todo[w] &= !comp[w];
            }
            let row: &[u64] = match &g.sum_table {
                Some(t) => &t[lv.pstate * g.sw..(lv.pstate + 1) * g.sw],
                None => {
                    if !*have_sums {
                        achievable_sums(&g.sizes, &lv.size_left, sums);
                        *have_sums = true;
                    }
                    sums
                }
            };
            if !any_in_range(row, m, total) {
                return false;
            }
        }
        if !g.whole {
            return true;
        }
        // The free cells as a whole (see [`Geo::whole`]).
        let (mut m, mut total) = (0, 0);
        for ((&must, &occ), &f) in g.must.iter().zip(&lv.occ).zip(free.iter()) {
            m += (must & !occ).count_ones() as usize;
            total += f.count_ones() as usize;
        }
        let row: &[u64] = match &g.sum_table {
            Some(t) => &t[lv.pstate * g.sw..(lv.pstate + 1) * g.sw],
            None => {
                if !*have_sums {
                    achievable_sums(&g.sizes, &lv.size_left, sums);
                }
                sums
            }
        };
        any_in_range(row, m, total)
    }
}

impl Prepared {
    /// [`Prepared::regions_ok`] on a large target ([`Geo::walk`]): each component is walked
    /// from a must-fill cell, every free cell reached once and cleared from `free` as it is
    /// reached, counting its cells and must-fill cells as it goes; a run of cells at a time
    /// where the target has [`Geo::runs`], else cell by cell over the neighbour lists.
    fn regions_ok_walk(g: &Geo, lv: &Level, sc: &mut RegionScratch) -> bool {
        let RegionScratch {
            free,
            stack,
            blocks,
            sums,
            ..
        } = sc;
        match &g.runs {
            Some(runs) => Self::components_ok(g, lv, free, sums, |free, seed| {
                runs.walk(&g.must, free, seed, blocks)
            }),
            None => Self::components_ok(g, lv, free, sums, |free, seed| {
                walk_cells(g, free, seed, stack)
            }),
        }
    }

    /// The region test over the components `component` walks: given the free cells and a
    /// free must-fill cell, it clears that cell's component from them and returns its
    /// must-fill cells and cells.
    #[inline(always)]
    fn components_ok(
        g: &Geo,
        lv: &Level,
        free: &mut [u64],
        sums: &mut [u64],
        mut component: impl FnMut(&mut [u64], usize) -> (usize, usize),
    ) -> bool {
        let cw = g.cw;
        let mut have_sums = false;
        let (mut must_free, mut all_free) = (0, 0);
        for (w, fw) in free.iter_mut().enumerate().take(cw) {
            let f = g.all[w] & !lv.occ[w];
            *fw = f;
            must_free += (g.must[w] & f).count_ones() as usize;
            all_free += f.count_ones() as usize;
        }
        let mut w0 = 0;
        loop {
            while w0 < cw && g.must[w0] & free[w0] == 0 {
                w0 += 1;
            }
            if w0 == cw {
                break;
            }
            let seed = w0 * 64 + (g.must[w0] & free[w0]).trailing_zeros() as usize;
            let (m, total) = component(free, seed);
            let row: &[u64] = match &g.sum_table {
                Some(t) => &t[lv.pstate * g.sw..(lv.pstate + 1) * g.sw],
                None => {
                    if !have_sums {
                        achievable_sums(&g.sizes, &lv.size_left, sums);
                        have_sums = true;
                    }
                    sums
                }
            };
            if !any_in_range(row, m, total) {
                return false;
            }
        }
        if !g.whole {
            return true;
        }
        // The free cells as a whole (see [`Geo::whole`]).
        let row: &[u64] = match &g.sum_table {
            Some(t) => &t[lv.pstate * g.sw..(lv.pstate + 1) * g.sw],
            None => {
                if !have_sums {
                    achievable_sums(&g.sizes, &lv.size_left, sums);
                }
                sums
            }
        };
        any_in_range(row, must_free, all_free)
    }
}

/// The component of free cell `seed` walked cell by cell over the neighbour lists, cleared
/// from `free`: its must-fill cells and cells. `stack` holds `64 * cw` cells.
#[inline(always)]
fn walk_cells(g: &Geo, free: &mut [u64], seed: usize, stack: &mut [u32]) -> (usize, usize) {
    clear_bit(free, seed);
    stack[0] = seed as u32;
    let mut sp = 1;
    let (mut m, mut total) = (0, 0);
    while sp > 0 {
        sp -= 1;
        let c = stack[sp] as usize;
        total += 1;
        m += (g.must[c >> 6] >> (c & 63) & 1) as usize;
        for &n in &g.adj[g.adj_off[c] as usize..g.adj_off[c + 1] as usize] {
            let (w, b) = (n as usize >> 6, 1u64 << (n & 63));
            if free[w] & b != 0 {
                free[w] &= !b;
                stack[sp] = n;
                sp += 1;
            }
        }
    }
    (m, total)
}

/// The conflict rows of [`Prepared::conflict`]: each option's row is the OR of the option
/// bitsets of its items covered at most once, its own bit included. Some 27 rows of 57 words
/// per option for BurrTools' PelikanBurr (3,601 options): OR-ed into memory a word pair at a
/// time, they took a tenth of its whole count. Each block of a row is instead accumulated in
/// registers over the option's items and stored once, and where the CPU has AVX2 the same
/// code runs four words a step.
fn conflict_rows(p: &Prepared) -> Vec<u64> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU runs AVX2, all the function asks.
        return unsafe { conflict_rows_avx2(p) };
    }
    conflict_rows_portable(p)
}

/// [`conflict_rows`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn conflict_rows_avx2(p: &Prepared) -> Vec<u64> {
    conflict_rows_portable(p)
}

#[inline(always)]
fn conflict_rows_portable(p: &Prepared) -> Vec<u64> {
    let w = p.words;
    let mut conf = vec![0u64; p.n_opts * w];
    for (o, row) in conf.chunks_exact_mut(w).enumerate() {
        let items = p.excl_of(o);
        let mut at = 0;
        while w - at >= 32 {
            or_block::<32>(row, &p.item_mask, w, at, items);
            at += 32;
        }
        while w - at >= 8 {
            or_block::<8>(row, &p.item_mask, w, at, items);
            at += 8;
        }
        while w > at {
            or_block::<1>(row, &p.item_mask, w, at, items);
            at += 1;
        }
        set_bit(row, o);
    }
    conf
}

/// `row[at..at + B]` = the OR of words `at..at + B` of the option bitsets of `items` (rows of
/// `w` words in `masks`), accumulated in registers.
#[inline(always)]
fn or_block<const B: usize>(row: &mut [u64], masks: &[u64], w: usize, at: usize, items: &[u32]) {
    let mut acc = [0u64; B];
    for &i in items {
        let m: &[u64; B] = masks[i as usize * w + at..][..B]
            .try_into()
            .expect("a block of B words");
        for k in 0..B {
            acc[k] |= m[k];
        }
    }
    row[at..at + B].copy_from_slice(&acc);
}

/// Reusable buffers of the region check.
#[derive(Default)]
pub(crate) struct RegionScratch {
    free: Vec<u64>,
    todo: Vec<u64>,
    comp: Vec<u64>,
    frontier: Vec<u64>,
    next: Vec<u64>,
    sums: Vec<u64>,
    have_sums: bool,
    /// The walk's stack of reached cells still to expand (each cell enters once per check,
    /// so `64 * cw` entries always suffice).
    stack: Vec<u32>,
    /// The blocks of [`Runs::walk`].
    blocks: Vec<(u32, u32, u32)>,
}

impl RegionScratch {
    fn ensure(&mut self, cw: usize, sw: usize) {
        if self.free.len() != cw {
            for v in [
                &mut self.free,
                &mut self.todo,
                &mut self.comp,
                &mut self.frontier,
                &mut self.next,
            ] {
                *v = vec![0; cw];
            }
            self.stack = vec![0; cw * 64];
        }
        if self.sums.len() != sw {
            self.sums = vec![0; sw];
        }
    }
}
