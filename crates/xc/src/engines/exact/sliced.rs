//! Bit-sliced (vertical) per-item live-option counters of the bitset engine, for models with
//! at most 128 primary items of need one, at most 16 of larger need and 4,096 options (and
//! stored conflict bitsets); everything else keeps the byte counters. The items of need one
//! are numbered by lane (their position among such items); an item of larger need (a piece
//! with copies) keeps only its remaining need, is never branched on, and is checked by a
//! popcount of its live options. It owns the arithmetic
//! (carry-save accumulation of option item masks, plane addition and subtraction), the
//! fewest-options scan over the planes and the test that tells a starved child without
//! building it; `descend` builds these tables from the prepared model and keeps them on the
//! way down.
//!
//! Item `i`'s count is `Σ_k bit_i(planes[k]) << k`. Adding an option's item mask to every
//! item counter at once is a ripple carry over the planes, a few register operations instead
//! of one memory read-modify-write per item; a whole walk of options is first summed with
//! Harley-Seal carry-save adders (seven adders per eight masks) and the sum then added to or
//! subtracted from the planes once. The search tree is exactly the one of the byte-counter
//! path: same counts, same fewest-options choice (ties to the lowest item).

/// Words per item bitset: up to 128 items.
pub(crate) const LANES: usize = 2;
/// Planes of a counter: counts below `1 << MAX_PLANES`.
pub(crate) const MAX_PLANES: usize = 16;
/// Slots of the option-indexed tables and buffers: option indices are stored as `u16`, so
/// indexing needs no bounds checks (sliced models have at most [`WORDS`]` * 64` options, and
/// only the touched part of a table is ever paged in); the last slot is a spare zero mask
/// that pads walks to whole blocks.
pub(super) const MAX_OPTS: usize = 1 << 16;
/// The spare option index of the zero mask.
pub(super) const PAD: u16 = (MAX_OPTS - 1) as u16;
/// An item bitset.
pub(crate) type Lanes = [u64; LANES];
/// The item bitset of every option (zero past the model's options).
pub(super) type OptTable = [Lanes; MAX_OPTS];
/// A list of option indices.
pub(super) type IdxBuf = [u16; MAX_OPTS];
/// A bit-sliced counter per item.
pub(crate) type Planes = [Lanes; MAX_PLANES];
/// How many recent starving items a depth remembers (see [`SlicedTables::starves`]):
/// instruction counts on a Tetris Cube subtree are lowest for 6 to 8.
pub(super) const HINTS: usize = 6;
/// Items that recently left a child at one depth without options, most recent first.
pub(crate) type Hints = [u8; HINTS];
/// The hints a depth starts with: distinct items (a bit of an item the model lacks is never
/// open, so such a hint is skipped).
pub(crate) const FIRST_HINTS: Hints = [0, 1, 2, 3, 4, 5];
/// Words of a live-option bitset: up to 4,096 options, so that the set of non-zero words is
/// itself one word and every per-word index needs no bounds check.
pub(crate) const WORDS: usize = 64;
/// A live-option bitset.
pub(crate) type Live = [u64; WORDS];
/// The most items of need above one (multiplicity items) a sliced model may have.
pub(crate) const MAX_MULTI: usize = 16;

/// The search state of the sliced path, held inline in a level (no heap indirection).
#[derive(Clone, Debug)]
pub(crate) struct SlicedState {
    /// Options still available.
    pub live: Live,
    /// The words of `live` that may be non-zero (a superset of the non-zero ones).
    pub active: u64,
    /// Per-item live-option counts as bit planes (exact for every item).
    pub planes: Planes,
    /// Primary items still needing their covering.
    pub open: Lanes,
    /// Occupied cells, when the geometry fits one word (see [`SlicedTables::fast_geo`]).
    pub occ: u64,
    /// Coverage each multiplicity item still needs.
    pub mrem: [u32; MAX_MULTI],
}

impl Default for SlicedState {
    fn default() -> Self {
        SlicedState {
            live: [0; WORDS],
            active: 0,
            planes: [ZERO; MAX_PLANES],
            open: ZERO,
            occ: 0,
            mrem: [0; MAX_MULTI],
        }
    }
}

pub(super) const ZERO: Lanes = [0; LANES];

#[inline(always)]
pub(super) fn and(a: Lanes, b: Lanes) -> Lanes {
    [a[0] & b[0], a[1] & b[1]]
}
#[inline(always)]
pub(super) fn andn(a: Lanes, b: Lanes) -> Lanes {
    // a & !b
    [a[0] & !b[0], a[1] & !b[1]]
}
#[inline(always)]
pub(super) fn or(a: Lanes, b: Lanes) -> Lanes {
    [a[0] | b[0], a[1] | b[1]]
}
#[inline(always)]
pub(super) fn xor(a: Lanes, b: Lanes) -> Lanes {
    [a[0] ^ b[0], a[1] ^ b[1]]
}
#[inline(always)]
pub(super) fn nonzero(a: Lanes) -> bool {
    a[0] | a[1] != 0
}

/// Carry-save adder: `(carry, sum)` of three bitsets, bitwise.
#[inline(always)]
pub(super) fn csa(a: Lanes, b: Lanes, c: Lanes) -> (Lanes, Lanes) {
    let u = xor(a, b);
    (or(and(a, b), and(u, c)), xor(u, c))
}

/// Tables of the sliced path.
pub(crate) struct SlicedTables {
    /// Primary items of need one of every option as a lane bitset.
    pub opt: Box<OptTable>,
    /// Conflict bitset of every option (the prepared tables' conflict rows).
    pub conf: Vec<Live>,
    /// Options of every lane.
    pub item_opts: Vec<Live>,
    /// The words of `item_opts` that are not zero, per lane.
    pub item_words: Vec<u64>,
    /// Lane of every item of need one (`u8::MAX` for the others), and item of every lane.
    pub lane: Vec<u8>,
    pub lane_item: Vec<u32>,
    /// The multiplicity items, their options, and the multiplicity items of every option (a
    /// bitset over their positions).
    pub multi: Vec<u32>,
    pub multi_opts: Vec<Live>,
    pub opt_multi: Vec<u16>,
    /// Planes in use: every item's initial count is below `1 << planes`.
    pub planes: usize,
    /// The geometry has one-word cell sets, shift adjacency and a stored achievable-sum
    /// table: occupied cells then live in [`SlicedState::occ`] and the piece-count state in
    /// the level's `pstate` alone (the general `occ` and `size_left` stay as at the root).
    pub fast_geo: bool,
}

/// `x += Σ opt[o]` over the options `idx` (whole blocks of eight and at most one half block
/// of four, padded with [`PAD`]): Harley-Seal carry-save adders fold each block into the
/// planes of weight 1, 2 and 4, held in registers, and one carry of weight 8, which alone
/// ripples into the planes `3..top` (a runtime bound, so that they stay in memory rather
/// than in a long prologue).
#[inline]
pub(super) fn add_masks(opt: &OptTable, idx: &[u16], x: &mut Planes, top: usize) {
    let (low, hi) = x.split_at_mut(3);
    let hi = &mut hi[..top.max(3) - 3];
    let [mut ones, mut twos, mut fours] = [low[0], low[1], low[2]];
    for c in idx.chunks_exact(8) {
        let m = |j: usize| opt[c[j] as usize];
        let (ta, o) = csa(ones, m(0), m(1));
        let (tb, o) = csa(o, m(2), m(3));
        let (fa, t) = csa(twos, ta, tb);
        let (ta, o) = csa(o, m(4), m(5));
        let (tb, o) = csa(o, m(6), m(7));
        let (fb, t) = csa(t, ta, tb);
        let (e, f) = csa(fours, fa, fb);
        ones = o;
        twos = t;
        fours = f;
        ripple(hi, e);
    }
    if let [a, b, c, d] = *idx.chunks_exact(8).remainder() {
        // A half block: its carry of weight 4 ripples from `fours` on.
        let m = |j: u16| opt[j as usize];
        let (ta, o) = csa(ones, m(a), m(b));
        let (tb, o) = csa(o, m(c), m(d));
        let (f, t) = csa(twos, ta, tb);
        ones = o;
        twos = t;
        let e = and(fours, f);
        fours = xor(fours, f);
        ripple(hi, e);
    }
    low[0] = ones;
    low[1] = twos;
    low[2] = fours;
}

/// Adds `e` into `planes` by ripple carry (the true sums fit, so the carry dies in time).
#[inline(always)]
pub(super) fn ripple(planes: &mut [Lanes], mut e: Lanes) {
    for plane in planes.iter_mut() {
        if !nonzero(e) {
            break;
        }
        let carry = and(*plane, e);
        *plane = xor(*plane, e);
        e = carry;
    }
}

/// Pads the `n` indices gathered in `buf` with [`PAD`] to whole blocks of eight, or to a
/// final half block of four.
#[inline(always)]
pub(super) fn pad(buf: &mut IdxBuf, n: usize) -> &[u16] {
    buf[n..n + 8].copy_from_slice(&[PAD; 8]);
    &buf[..(n + 3) & !3]
}

/// Index buffers and a spare counter of the sliced walks (one per search, reused at every
/// node; allocated on first use, and only the touched part of them is ever paged in).
pub(crate) struct SlicedScratch {
    bufs: Option<(Box<IdxBuf>, Box<IdxBuf>)>,
    sum: Planes,
    /// The options of several multiplicity items saturated at once.
    sat: Live,
}

impl Default for SlicedScratch {
    fn default() -> Self {
        SlicedScratch {
            bufs: None,
            sum: [ZERO; MAX_PLANES],
            sat: [0; WORDS],
        }
    }
}

impl SlicedScratch {
    #[inline]
    pub(super) fn bufs(&mut self) -> (&mut IdxBuf, &mut IdxBuf, &mut Planes, &mut Live) {
        let (a, d) = self.bufs.get_or_insert_with(|| {
            let buf = || -> Box<IdxBuf> {
                match vec![0u16; MAX_OPTS].into_boxed_slice().try_into() {
                    Ok(b) => b,
                    Err(_) => unreachable!("the length is MAX_OPTS"),
                }
            };
            (buf(), buf())
        });
        (a, d, &mut self.sum, &mut self.sat)
    }
}

/// `x -= Σ opt[o]` over the `n` options gathered in `idx` (never negative): the masks are
/// summed into the spare planes `d`, which are then subtracted with one borrow chain.
#[inline]
pub(super) fn sub_masks(
    opt: &OptTable,
    idx: &mut IdxBuf,
    n: usize,
    x: &mut Planes,
    d: &mut Planes,
    top: usize,
) {
    if n == 0 {
        return;
    }
    let top = top.max(3);
    d[..top].fill(ZERO);
    add_masks(opt, pad(idx, n), d, top);
    // The sum has no more planes than the number of masks needs.
    let used = top.min((usize::BITS - n.leading_zeros()) as usize);
    let mut b = ZERO;
    for (xk, &dk) in x.iter_mut().zip(d.iter()).take(used) {
        let u = xor(*xk, dk);
        let s = xor(u, b);
        b = or(andn(dk, *xk), andn(b, u));
        *xk = s;
    }
    for xk in x.iter_mut().skip(used) {
        if !nonzero(b) {
            break;
        }
        let nb = andn(b, *xk);
        *xk = xor(*xk, b);
        b = nb;
    }
}

/// The fewest-options item among `open`: `None` when one of them has no option left, else the
/// lowest item of minimum count (descending the planes keeps the items whose bit is clear
/// whenever any is).
#[inline]
pub(crate) fn fewest(planes: &Planes, open: Lanes, n: usize) -> Option<usize> {
    let p = &planes[..n];
    let any = p.iter().fold(ZERO, |a, &k| or(a, k));
    if nonzero(andn(open, any)) {
        return None;
    }
    let mut cand = open;
    for &k in p.iter().rev() {
        let z = andn(cand, k);
        if nonzero(z) {
            cand = z;
        }
    }
    Some(if cand[0] != 0 {
        cand[0].trailing_zeros() as usize
    } else {
        64 + cand[1].trailing_zeros() as usize
    })
}

/// Sum of the counts of the items of `m`.
#[inline]
pub(super) fn count_sum(planes: &Planes, m: Lanes, n: usize) -> u32 {
    let mut s = 0;
    for (k, &p) in planes.iter().enumerate().take(n) {
        let h = and(p, m);
        s += (h[0].count_ones() + h[1].count_ones()) << k;
    }
    s
}

/// Calls `f` with the index of every set bit of `m`, lowest first.
#[inline(always)]
pub(super) fn each_bit(mut m: u64, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

impl SlicedTables {
    /// True when choosing live option `x` in state `s` provably leaves one of the `hints` items
    /// without options: an open item that `x` does not hold, none of whose live options is
    /// outside `x`'s conflicts. Such a child is a dead end that the search can count without
    /// building it. 65% of the nodes of a Tetris Cube subtree are such children, and building
    /// one walks the options that differ from its last built sibling, while the items that
    /// starve a depth's children are few and recur: the test reads a few words per hint, and a
    /// hint that fires moves to the front.
    #[inline]
    pub(crate) fn starves(&self, s: &SlicedState, x: usize, hints: &mut Hints) -> bool {
        let row = &self.conf[x];
        let open = andn(s.open, self.opt[x]);
        for i in 0..HINTS {
            let j = hints[i] as usize;
            if open[j >> 6] >> (j & 63) & 1 == 0 {
                continue;
            }
            let m = &self.item_opts[j];
            let mut words = self.item_words[j] & s.active;
            let mut kept = false;
            while words != 0 {
                let w = words.trailing_zeros() as usize;
                words &= words - 1;
                if s.live[w] & m[w] & !row[w] != 0 {
                    kept = true;
                    break;
                }
            }
            if !kept {
                hints[..=i].rotate_right(1);
                return true;
            }
        }
        false
    }

    /// Records in `hints` the lowest open item that `s` (a starved node) left without
    /// options, first, so that its siblings and cousins test it first.
    #[inline]
    pub(crate) fn note_starved(&self, s: &SlicedState, hints: &mut Hints) {
        let any = s.planes[..self.planes].iter().fold(ZERO, |a, &k| or(a, k));
        let zero = andn(s.open, any);
        let j = match zero {
            [0, 0] => return,
            [0, hi] => 64 + hi.trailing_zeros(),
            [lo, _] => lo.trailing_zeros(),
        } as u8;
        let at = hints.iter().position(|&h| h == j).unwrap_or(HINTS - 1);
        hints[..=at].rotate_right(1);
        hints[0] = j;
    }

    /// The lowest lane of fewest options in `s` (see [`fewest`]); `None` also when no lane is
    /// open (a node that still needs coverage then needs it of multiplicity items alone, which
    /// no option serves without a lane: it is dead).
    #[inline]
    pub(crate) fn fewest(&self, s: &SlicedState) -> Option<usize> {
        if !nonzero(s.open) {
            return None;
        }
        fewest(&s.planes, s.open, self.planes)
    }

    /// True when a multiplicity item of `s` has fewer live options than it still needs.
    #[inline]
    pub(crate) fn multi_starved(&self, s: &SlicedState) -> bool {
        self.multi_opts.iter().zip(&s.mrem).any(|(m, &r)| {
            if r == 0 {
                return false;
            }
            let mut n = 0;
            let mut words = s.active;
            while words != 0 {
                let w = words.trailing_zeros() as usize;
                words &= words - 1;
                n += (s.live[w] & m[w]).count_ones();
            }
            n < r
        })
    }

    /// The coverage primary item `i` still needs in a state whose open lanes are `open` and
    /// whose multiplicity items need `mrem`.
    #[inline]
    pub(crate) fn rem(&self, open: Lanes, mrem: &[u32; MAX_MULTI], i: u32) -> u32 {
        match self.lane[i as usize] {
            u8::MAX => self
                .multi
                .iter()
                .position(|&m| m == i)
                .map_or(0, |k| mrem[k]),
            l => (open[l as usize >> 6] >> (l & 63) & 1) as u32,
        }
    }

    /// The options option `x` kills besides its conflicts: those of the multiplicity items
    /// whose last needed covering `x` is (into `buf`), or `None`.
    #[inline]
    pub(crate) fn saturated<'b>(
        &'b self,
        s: &SlicedState,
        x: usize,
        buf: &'b mut Live,
    ) -> Option<&'b Live> {
        let mut m = self.opt_multi[x];
        let mut first: Option<usize> = None;
        let mut merged = false;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if s.mrem[k] != 1 {
                continue;
            }
            match first {
                None => first = Some(k),
                Some(f) => {
                    if !merged {
                        *buf = self.multi_opts[f];
                        merged = true;
                    }
                    for (b, &o) in buf.iter_mut().zip(&self.multi_opts[k]) {
                        *b |= o;
                    }
                }
            }
        }
        match (first, merged) {
            (None, _) => None,
            (Some(_), true) => Some(buf),
            (Some(f), false) => Some(&self.multi_opts[f]),
        }
    }

    /// The multiplicity needs after choosing `x` in `s`.
    #[inline]
    pub(crate) fn mrem_after(&self, s: &SlicedState, x: usize) -> [u32; MAX_MULTI] {
        let mut r = s.mrem;
        let mut m = self.opt_multi[x];
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            r[k] -= 1;
        }
        r
    }

    /// Appends the live options of lane `i` in `s`, ascending, and narrows the active words
    /// of `s` to the non-zero ones: the descend steps only pass the parent's set on (a
    /// superset), and a node refines it once, here, before its children use it.
    #[inline]
    pub(crate) fn options_of(&self, s: &mut SlicedState, i: usize, out: &mut Vec<u32>) {
        let m = &self.item_opts[i];
        let mut active = 0;
        each_bit(s.active, |w| {
            let v = s.live[w];
            active |= u64::from(v != 0) << w;
            each_bit(v & m[w], |b| out.push((w * 64 + b) as u32));
        });
        s.active = active;
    }
}

/// The item bitset of `items`.
#[cfg(test)]
pub(super) fn lanes_of(items: &[usize]) -> Lanes {
    let mut l = ZERO;
    for &i in items {
        l[i >> 6] |= 1 << (i & 63);
    }
    l
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::engines::exact) fn value(p: &Planes, i: usize) -> u32 {
        (0..MAX_PLANES)
            .map(|k| ((p[k][i >> 6] >> (i & 63) & 1) as u32) << k)
            .sum()
    }

    /// Mask addition and subtraction, the scan and the count sum agree with plain counters on
    /// pseudo-random masks.
    #[test]
    fn sliced_arithmetic_matches_plain_counters() {
        let mut s = 0x2545f4914f6cdd1du64;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for round in 0..300 {
            let items = 1 + (rnd() % 128) as usize;
            let mut opt: Box<OptTable> =
                vec![ZERO; MAX_OPTS].into_boxed_slice().try_into().unwrap();
            let n_opts = 1 + (rnd() % 300) as usize;
            for l in opt.iter_mut().take(n_opts) {
                let m: Vec<usize> = (0..1 + rnd() % 8)
                    .map(|_| (rnd() as usize) % items)
                    .collect();
                *l = lanes_of(&m);
            }
            let idx: Vec<u16> = (0..n_opts as u16).filter(|_| rnd() % 3 != 0).collect();
            let mut buf: Box<IdxBuf> = vec![0u16; MAX_OPTS].into_boxed_slice().try_into().unwrap();
            buf[..idx.len()].copy_from_slice(&idx);
            let mut base: Planes = [ZERO; MAX_PLANES];
            let mut want = vec![0u32; 128];
            for (i, w) in want.iter_mut().enumerate().take(items) {
                let c = (rnd() % 2000) as u32;
                *w = c;
                for (k, plane) in base.iter_mut().enumerate() {
                    if c >> k & 1 != 0 {
                        plane[i >> 6] |= 1 << (i & 63);
                    }
                }
            }
            let orig = base;
            for &o in &idx {
                for (i, w) in want.iter_mut().enumerate() {
                    *w += (opt[o as usize][i >> 6] >> (i & 63) & 1) as u32;
                }
            }
            add_masks(&opt, pad(&mut buf, idx.len()), &mut base, MAX_PLANES);
            for (i, &w) in want.iter().enumerate() {
                assert_eq!(value(&base, i), w, "round {round} item {i}");
            }
            let open = lanes_of(&(0..items).collect::<Vec<_>>());
            let min = want[..items].iter().copied().min().unwrap_or(0);
            let got = fewest(&base, open, MAX_PLANES);
            if min == 0 {
                assert_eq!(got, None);
            } else {
                assert_eq!(got, (0..items).find(|&i| want[i] == min));
            }
            let sum: u32 = (0..items).step_by(3).map(|i| want[i]).sum();
            let every3 = lanes_of(&(0..items).step_by(3).collect::<Vec<_>>());
            assert_eq!(count_sum(&base, every3, MAX_PLANES), sum);
            let mut d = [ZERO; MAX_PLANES];
            sub_masks(&opt, &mut buf, idx.len(), &mut base, &mut d, MAX_PLANES);
            assert_eq!(base, orig, "round {round}");
        }
    }
}
