//! The cell geometry of the bitset engine's pruning: free-cell components as bitsets, the
//! piece volumes still to place (as a mixed-radix state) and the sums they can reach, and the
//! bitset helpers the engine shares.

use crate::model::ExactCover;

/// Above this many words the achievable-sum table (a bitset per piece-count state) is not
/// stored; sums are then computed from the remaining counts when a region check needs them.
/// A pool of many pieces has millions of states, most of which its search never meets.
const SUM_TABLE_WORDS_LIMIT: usize = 1 << 20;

/// Iterates the set bits of a bitset, lowest first.
#[inline]
pub(crate) fn for_each_bit(words: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(w * 64 + b);
        }
    }
}

#[inline]
pub(crate) fn test_bit(words: &[u64], i: usize) -> bool {
    words[i >> 6] >> (i & 63) & 1 != 0
}

#[inline]
pub(crate) fn clear_bit(words: &mut [u64], i: usize) {
    words[i >> 6] &= !(1u64 << (i & 63));
}

#[inline]
pub(crate) fn set_bit(words: &mut [u64], i: usize) {
    words[i >> 6] |= 1u64 << (i & 63);
}

/// True if any bit in `lo..=hi` is set.
pub(crate) fn any_in_range(words: &[u64], lo: usize, hi: usize) -> bool {
    let hi = hi.min(words.len() * 64 - 1);
    if lo > hi {
        return false;
    }
    let (lw, hw) = (lo >> 6, hi >> 6);
    for (w, &word) in words.iter().enumerate().take(hw + 1).skip(lw) {
        let mut m = u64::MAX;
        if w == lw {
            m &= u64::MAX << (lo & 63);
        }
        if w == hw {
            m &= u64::MAX >> (63 - (hi & 63));
        }
        if word & m != 0 {
            return true;
        }
    }
    false
}

/// `dst |= src << shift` over bitsets of equal length.
fn or_shifted(dst: &mut [u64], src: &[u64], shift: usize) {
    let (ws, bs) = (shift >> 6, shift & 63);
    for i in (0..dst.len()).rev() {
        if i < ws {
            break;
        }
        let j = i - ws;
        let mut v = src[j] << bs;
        if bs != 0 && j > 0 {
            v |= src[j - 1] >> (64 - bs);
        }
        dst[i] |= v;
    }
}

/// At or above this many words per cell bitset the flood fill of the region test walks the
/// neighbour lists ([`Geo::walk`]) instead of OR-ing whole neighbour rows: a row costs `cw`
/// words per reached cell, a walk a few neighbour tests, and BurrTools'
/// DraculasDentalDesaster (1,656 cells, 26 words) spent a quarter of its count in the rows.
const WALK_MIN_WORDS: usize = 8;

/// The most distinct neighbour offsets the shift flood fills take ([`Geo::shifts`],
/// [`Geo::wide`]): each costs a shift per word and step.
const MAX_SHIFTS: usize = 8;

/// Cell geometry as bitsets, present only when the model's geometry makes region pruning sound:
/// every option holds exactly one piece item and that piece's volume in cells, the cells are
/// face-connected, and no cell needs more than one covering.
pub(crate) struct Geo {
    /// Words per cell bitset.
    pub cw: usize,
    /// Neighbour mask of every cell (cells × cw), when the flood fill ORs rows (empty when
    /// it walks the lists).
    pub nbr: Vec<u64>,
    /// The neighbours of every cell, flat (`adj[adj_off[c]..adj_off[c + 1]]`), symmetric.
    pub adj_off: Vec<u32>,
    pub adj: Vec<u32>,
    /// Whether the flood fill walks `adj` (large targets, see [`WALK_MIN_WORDS`]).
    pub walk: bool,
    /// The same walk a run of cells at a time, where the cells fall into runs long enough
    /// to pay ([`Runs`]).
    pub runs: Option<Runs>,
    /// All cells, and the must-fill (primary) cells.
    pub all: Vec<u64>,
    pub must: Vec<u64>,
    /// Cells of every option (options × cw).
    pub opt_cells: Vec<u64>,
    /// Distinct-size index of every option's piece.
    pub opt_size: Vec<u32>,
    /// The distinct piece volumes, the initial number of pieces of each and the mixed-radix
    /// place value of each in the piece-count state index.
    pub sizes: Vec<u32>,
    pub size_counts: Vec<u32>,
    pub radix: Vec<usize>,
    /// Words of an achievable-sum bitset (bits `0..=cells`).
    pub sw: usize,
    /// Achievable sums of every piece-count state (states × sw), if small enough to store.
    pub sum_table: Option<Vec<u64>>,
    /// For targets of at most 64 cells whose adjacency uses few index offsets (boxes do: ±1,
    /// ±row, ±layer): per offset, the cells having a neighbour at that offset. Flood fill then
    /// grows a whole component with a few shifts per step instead of a loop over its cells.
    pub shifts: Option<Vec<(i32, u64)>>,
    /// The same for larger targets (more than one word per cell set): per offset, the cells
    /// having a neighbour at that offset (`cw` words). A step of the flood fill then costs a
    /// few shifted words per offset however many cells it reaches.
    pub wide: Option<Vec<(i32, Vec<u64>)>>,
    /// Whether the free cells as a whole are checked too: with ranged pieces the pieces left
    /// may hold more volume than the cells, and a sub-multiset of them must fill every
    /// region at once (with fixed counts every piece left is placed, so the pieces' volume
    /// is the free cells' and the whole never fails where the regions pass).
    pub whole: bool,
}

impl Geo {
    /// The geometry of `m`, `None` when region pruning would not be sound. `fast` allows the
    /// shift flood fill and the neighbour rows (tests turn it off to exercise the walk on
    /// small models).
    pub(crate) fn build(m: &ExactCover, fast: bool) -> Option<Geo> {
        let g = m.geometry.as_ref()?;
        let first = g.first_cell as usize;
        let cells = m.items.len() - first;
        if cells == 0 || m.items[first..].iter().any(|i| i.max > 1) {
            return None;
        }
        let cw = cells.div_ceil(64);
        // Adjacency must be symmetric for components to be well defined: every listed pair
        // goes in both ways, once.
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (c, ns) in g.neighbors.iter().enumerate() {
            for &n in ns {
                if n as usize >= cells {
                    return None;
                }
                lists[c].push(n);
                lists[n as usize].push(c as u32);
            }
        }
        let mut adj_off = Vec::with_capacity(cells + 1);
        let mut adj = Vec::new();
        adj_off.push(0u32);
        for l in &mut lists {
            l.sort_unstable();
            l.dedup();
            adj.extend_from_slice(l);
            adj_off.push(adj.len() as u32);
        }
        drop(lists);
        // The neighbour offsets (`b - a` of every adjacent pair) with their cells: few for a
        // box (±1, ±row, ±layer), many for other shapes (whose rows differ in length).
        let mut by_offset: Vec<(i32, Vec<u64>)> = Vec::new();
        'offsets: for a in 0..cells {
            for &b in &adj[adj_off[a] as usize..adj_off[a + 1] as usize] {
                let off = b as i32 - a as i32;
                let k = match by_offset.iter().position(|(o, _)| *o == off) {
                    Some(k) => k,
                    None if by_offset.len() == MAX_SHIFTS => {
                        by_offset.clear();
                        break 'offsets;
                    }
                    None => {
                        by_offset.push((off, vec![0; cw]));
                        by_offset.len() - 1
                    }
                };
                set_bit(&mut by_offset[k].1, a);
            }
        }
        let few = fast && !by_offset.is_empty();
        let shifts = (few && cw == 1).then(|| by_offset.iter().map(|(o, m)| (*o, m[0])).collect());
        let wide = (few && cw > 1).then_some(by_offset);
        let walk = !fast || (wide.is_none() && cw >= WALK_MIN_WORDS);
        let mut nbr = Vec::new();
        if !walk {
            nbr = vec![0u64; cells * cw];
            for c in 0..cells {
                let row = &mut nbr[c * cw..(c + 1) * cw];
                for &n in &adj[adj_off[c] as usize..adj_off[c + 1] as usize] {
                    set_bit(row, n as usize);
                }
            }
        }
        let mut all = vec![0u64; cw];
        let mut must = vec![0u64; cw];
        for c in 0..cells {
            set_bit(&mut all, c);
            if m.items[first + c].min == 1 {
                set_bit(&mut must, c);
            }
        }
        let mut sizes: Vec<u32> = g.piece_sizes.clone();
        sizes.sort_unstable();
        sizes.dedup();
        let size_index = |s: u32| sizes.binary_search(&s).unwrap_or(0) as u32;
        let mut size_counts = vec![0u32; sizes.len()];
        // A ranged piece counts its most copies: the sums are those of what may still be
        // placed, which a search checks against the free cells.
        for (p, &s) in g.piece_sizes.iter().enumerate() {
            size_counts[size_index(s) as usize] += m.items[p].max;
        }
        let mut opt_cells = vec![0u64; m.options.len() * cw];
        let mut opt_size = vec![0u32; m.options.len()];
        let mut walker = Connected::new(cells);
        for (o, items) in m.options.iter().enumerate() {
            // Items ascend, so the piece items (below `first`) come first.
            let k = items.partition_point(|&i| (i as usize) < first);
            let ([p], cs) = items.split_at(k) else {
                return None;
            };
            if cs.len() != g.piece_sizes[*p as usize] as usize {
                return None;
            }
            // A caller's word for it saves the walk (5-7 M instructions for the 3,601
            // placements of BurrTools' PelikanBurr, a tenth of its whole process), except
            // where debug assertions check the word.
            if !g.connected || cfg!(debug_assertions) {
                let connected = walker.connected(cs, first, &adj_off, &adj);
                debug_assert!(connected || !g.connected, "option {o} is not connected");
                if !connected {
                    return None;
                }
            }
            let oc = &mut opt_cells[o * cw..(o + 1) * cw];
            for &i in cs {
                set_bit(oc, i as usize - first);
            }
            opt_size[o] = size_index(g.piece_sizes[*p as usize]);
        }
        let mut radix = vec![0usize; sizes.len()];
        let mut states = 1usize;
        for (k, &c) in size_counts.iter().enumerate() {
            radix[k] = states;
            states = states.saturating_mul(c as usize + 1);
        }
        let sw = cells / 64 + 1;
        // Each state's sums from the state with one piece less of its lowest volume that has
        // any (a smaller index, so already filled): a shift and an OR per state. Summing every
        // state's multiset afresh took 2.3 billion instructions for a pool of 35 sticks of
        // two copies each (2 million states).
        let sum_table = (states.saturating_mul(sw) <= SUM_TABLE_WORDS_LIMIT).then(|| {
            let mut t = vec![0u64; states * sw];
            t[0] = 1;
            // The state's digits, counted up like an odometer: the digit that goes up is the
            // lowest non-zero one (those below it go back to 0).
            let mut digits = vec![0u32; sizes.len()];
            for s in 1..states {
                let mut k = 0;
                while digits[k] == size_counts[k] {
                    digits[k] = 0;
                    k += 1;
                }
                digits[k] += 1;
                let (done, rest) = t.split_at_mut(s * sw);
                let from = &done[(s - radix[k]) * sw..(s - radix[k] + 1) * sw];
                let to = &mut rest[..sw];
                to.copy_from_slice(from);
                or_shifted(to, from, sizes[k] as usize);
            }
            t
        });
        let runs = (fast && walk)
            .then(|| Runs::build(&adj_off, &adj))
            .flatten();
        Some(Geo {
            whole: m.items[..first].iter().any(|i| i.is_ranged()),
            cw,
            nbr,
            adj_off,
            adj,
            walk,
            runs,
            all,
            must,
            opt_cells,
            opt_size,
            sizes,
            size_counts,
            radix,
            sw,
            sum_table,
            shifts,
            wide,
        })
    }
}

/// Subset sums of a multiset of piece volumes (`counts[k]` pieces of volume `sizes[k]`). The
/// copies of one volume go in as groups of 1, 2, 4, ... and the rest (binary splitting),
/// whose sums are those of 0 to `counts[k]` copies: a few shifts for a pool of many copies.
pub(crate) fn achievable_sums(sizes: &[u32], counts: &[u32], out: &mut [u64]) {
    out.fill(0);
    out[0] = 1;
    let mut tmp = out.to_vec();
    for (&s, &c) in sizes.iter().zip(counts) {
        let (mut left, mut group) = (c, 1);
        while left > 0 {
            let g = group.min(left);
            tmp.copy_from_slice(out);
            or_shifted(out, &tmp, (s * g) as usize);
            left -= g;
            group *= 2;
        }
    }
}

/// The cells of a large target in runs, for the region test's walk ([`Geo::runs`]): maximal
/// ranges of consecutive cells each adjacent to the next, at most 64 cells long (a row of a
/// box along x, as targets number their cells row by row), and the rest of the adjacency as
/// links between runs. The walk then takes a block of free cells of a run at a time, and
/// finds the blocks it touches in each linked run with a few word operations, where the
/// cell by cell walk tests every neighbour of every cell. BurrTools' DraculasDentalDesaster
/// (1,656 cells in runs of up to 14) spent a fifth of its count in that walk: by runs its
/// region tests take 9.2 M instructions instead of 14.5 M.
pub(crate) struct Runs {
    /// Run `r` is the cells `start[r]..start[r + 1]`.
    start: Vec<u32>,
    /// The run of every cell.
    of_cell: Vec<u32>,
    /// The links of run `r` are `links[link_off[r]..link_off[r + 1]]`.
    link_off: Vec<u32>,
    links: Vec<Link>,
}

/// Cells `lo..hi` of a run are each adjacent to the cell `off` further on, all of them in
/// run `to`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    lo: u32,
    hi: u32,
    off: i32,
    to: u32,
}

/// Fewer neighbour entries per link than this and the walk by runs is not taken: short runs
/// (a target of scattered cells, the sphere grid's layers) leave about as many links as
/// neighbours, and a link costs more to follow than a neighbour.
const MIN_NEIGHBOURS_PER_LINK: usize = 4;

impl Runs {
    /// The runs of the symmetric adjacency `adj` (cell `c`'s neighbours, ascending, at
    /// `adj_off[c]..adj_off[c + 1]`), when they pay.
    fn build(adj_off: &[u32], adj: &[u32]) -> Option<Runs> {
        let runs = Runs::new(adj_off, adj);
        (runs.links.len() * MIN_NEIGHBOURS_PER_LINK <= adj.len()).then_some(runs)
    }

    /// The runs of `adj`, whether they pay or not.
    fn new(adj_off: &[u32], adj: &[u32]) -> Runs {
        let cells = adj_off.len() - 1;
        let nbrs = |c: usize| &adj[adj_off[c] as usize..adj_off[c + 1] as usize];
        let mut start = vec![0u32];
        let mut of_cell = vec![0u32; cells];
        for (c, run) in of_cell.iter_mut().enumerate().skip(1) {
            let run_start = *start.last().unwrap_or(&0) as usize;
            if c - run_start == 64 || nbrs(c).binary_search(&(c as u32 - 1)).is_err() {
                start.push(c as u32);
            }
            *run = start.len() as u32 - 1;
        }
        start.push(cells as u32);
        // Every adjacent pair but the consecutive cells of one run, run by run and cell by
        // cell: a pair extends the run's link of its linked run and offset that ends at the
        // cell, else starts a link (a run has a few, so a scan finds it).
        let mut links: Vec<Link> = Vec::new();
        let mut link_off = Vec::with_capacity(start.len());
        link_off.push(0u32);
        for r in 0..start.len() - 1 {
            let first = links.len();
            for c in start[r]..start[r + 1] {
                for &n in nbrs(c as usize) {
                    let to = of_cell[n as usize];
                    if to == r as u32 && n.abs_diff(c) == 1 {
                        continue;
                    }
                    let off = n as i32 - c as i32;
                    match links[first..]
                        .iter_mut()
                        .find(|l| l.hi == c && l.off == off && l.to == to)
                    {
                        Some(l) => l.hi = c + 1,
                        None => links.push(Link {
                            lo: c,
                            hi: c + 1,
                            off,
                            to,
                        }),
                    }
                }
            }
            link_off.push(links.len() as u32);
        }
        Runs {
            start,
            of_cell,
            link_off,
            links,
        }
    }

    /// The run of cell `c`.
    #[inline]
    fn run_of(&self, c: usize) -> usize {
        self.of_cell[c] as usize
    }

    /// The links of run `r`.
    #[inline]
    fn links(&self, r: usize) -> &[Link] {
        &self.links[self.link_off[r] as usize..self.link_off[r + 1] as usize]
    }

    /// The block of free cells of run `r` around free cell `c`: the cells `lo..hi` of the
    /// run, all free, with no free cell of the run just below or above them.
    #[inline]
    fn block(&self, free: &[u64], r: usize, c: usize) -> (usize, usize) {
        let (s, e) = (self.start[r] as usize, self.start[r + 1] as usize);
        let x = range_bits(free, s, e - s);
        let q = c - s;
        let up = ((!x >> q).trailing_zeros() as usize).min(e - s - q);
        let below = !x & ((1u64 << q) - 1);
        let lo = if below == 0 {
            0
        } else {
            64 - below.leading_zeros() as usize
        };
        (s + lo, c + up)
    }

    /// Walks the component of free cells around free cell `seed`, clearing it from `free`,
    /// and returns how many of its cells are in `must` and how many it has. Each block of a
    /// run's free cells is cleared as soon as it is reached and its links looked at once:
    /// a link finds the free cells it reaches in a word, and the blocks around them.
    /// `blocks` is scratch: first cell, end and run of the blocks still to look at.
    pub(crate) fn walk(
        &self,
        must: &[u64],
        free: &mut [u64],
        seed: usize,
        blocks: &mut Vec<(u32, u32, u32)>,
    ) -> (usize, usize) {
        let r = self.run_of(seed);
        let (a, b) = self.block(free, r, seed);
        clear_range(free, a, b);
        blocks.clear();
        blocks.push((a as u32, b as u32, r as u32));
        let (mut m, mut total) = (0, 0);
        while let Some((a, b, r)) = blocks.pop() {
            let (a, b) = (a as usize, b as usize);
            total += b - a;
            m += range_bits(must, a, b - a).count_ones() as usize;
            for link in self.links(r as usize) {
                let (at, len) = link.reach(a, b);
                if len == 0 {
                    continue;
                }
                let mut bits = range_bits(free, at, len);
                while bits != 0 {
                    let c = at + bits.trailing_zeros() as usize;
                    let (lo, hi) = self.block(free, link.to(), c);
                    clear_range(free, lo, hi);
                    blocks.push((lo as u32, hi as u32, link.to));
                    // The block holds every reached cell from `c` up to its end.
                    let done = hi - at;
                    bits = if done >= 64 {
                        0
                    } else {
                        bits & u64::MAX << done
                    };
                }
            }
        }
        (m, total)
    }
}

impl Link {
    /// Which cells the block `a..b` of the link's run reaches through it: the first of them
    /// and how many (none when the block and the link do not overlap).
    #[inline]
    fn reach(&self, a: usize, b: usize) -> (usize, usize) {
        let (lo, hi) = (a.max(self.lo as usize), b.min(self.hi as usize));
        if lo >= hi {
            return (0, 0);
        }
        ((lo as isize + self.off as isize) as usize, hi - lo)
    }

    /// The run the link leads to.
    #[inline]
    fn to(&self) -> usize {
        self.to as usize
    }
}

/// Bits `start..start + len` of a bitset (`1 <= len <= 64`) as the low bits of a word.
#[inline]
fn range_bits(words: &[u64], start: usize, len: usize) -> u64 {
    let (w, sh) = (start >> 6, start & 63);
    let mut v = words[w] >> sh;
    if sh != 0 && sh + len > 64 {
        v |= words[w + 1] << (64 - sh);
    }
    if len < 64 { v & ((1u64 << len) - 1) } else { v }
}

/// Clears bits `a..b` of a bitset (`1 <= b - a <= 64`).
#[inline]
fn clear_range(words: &mut [u64], a: usize, b: usize) {
    let (w, sh, len) = (a >> 6, a & 63, b - a);
    let mask = if len < 64 {
        (1u64 << len) - 1
    } else {
        u64::MAX
    };
    words[w] &= !(mask << sh);
    if sh != 0 && sh + len > 64 {
        words[w + 1] &= !(mask >> (64 - sh));
    }
}

/// The face-connectivity test of the options' cells, with its buffers.
struct Connected {
    /// Per cell: `stamp` while it is a cell of the option under test not yet reached,
    /// `stamp + 1` once reached, anything else otherwise.
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl Connected {
    fn new(cells: usize) -> Connected {
        Connected {
            mark: vec![0; cells],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// Whether the cell items `items` (cell `c` is item `first + c`) are face-connected: a
    /// walk from the first over the neighbour lists, each cell visited once. Run for every
    /// option of a model (3,601 of 23-27 cells in 512 for BurrTools' PelikanBurr), so the
    /// cells are told apart by a stamp per test rather than by bitsets cleared per option.
    fn connected(&mut self, items: &[u32], first: usize, adj_off: &[u32], adj: &[u32]) -> bool {
        let Some(&seed) = items.first() else {
            return true;
        };
        if self.stamp >= u32::MAX - 2 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        let (todo, done) = (self.stamp + 1, self.stamp + 2);
        self.stamp = done;
        for &i in items {
            self.mark[i as usize - first] = todo;
        }
        let seed = seed as usize - first;
        self.mark[seed] = done;
        self.stack.clear();
        self.stack.push(seed as u32);
        let mut reached = 0;
        while let Some(c) = self.stack.pop() {
            reached += 1;
            let c = c as usize;
            for &n in &adj[adj_off[c] as usize..adj_off[c + 1] as usize] {
                let mk = &mut self.mark[n as usize];
                if *mk == todo {
                    *mk = done;
                    self.stack.push(n);
                }
            }
        }
        reached == items.len()
    }
}

impl Geo {
    /// The dead-region test for one-word cell sets with shift adjacency: every connected
    /// component of free cells holding `m` must-fill cells and `s` optional cells needs a
    /// sub-multiset of the remaining pieces whose volume lies in `m..=m+s` (pieces are
    /// connected, so each lies inside one component). Occupied cells `occ`, piece-count state
    /// `pstate` and remaining pieces per volume `size_left` (read only without a sum table).
    pub(crate) fn regions_ok_word(
        &self,
        shifts: &[(i32, u64)],
        occ: u64,
        pstate: usize,
        size_left: &[u32],
    ) -> bool {
        let g = self;
        let free = g.all[0] & !occ;
        let must = g.must[0];
        let mut todo = must & !occ;
        let mut sums: Option<Vec<u64>> = None;
        while todo != 0 {
            let mut comp = todo & todo.wrapping_neg();
            loop {
                let mut next = comp;
                for &(off, mask) in shifts {
                    // `mask` keeps the cells whose neighbour at `off` exists, so no bit wraps
                    // and a rotation is the shift, without a branch on the sign.
                    next |= (comp & mask).rotate_left(off as u32 & 63);
                }
                next &= free;
                if next == comp {
                    break;
                }
                comp = next;
            }
            todo &= !comp;
            let m = (comp & must).count_ones() as usize;
            let total = comp.count_ones() as usize;
            let row: &[u64] = match &g.sum_table {
                Some(t) => &t[pstate * g.sw..(pstate + 1) * g.sw],
                None => sums.get_or_insert_with(|| {
                    let mut v = vec![0u64; g.sw];
                    achievable_sums(&g.sizes, size_left, &mut v);
                    v
                }),
            };
            if !any_in_range(row, m, total) {
                return false;
            }
        }
        if g.whole {
            let m = (must & !occ).count_ones() as usize;
            let row: &[u64] = match &g.sum_table {
                Some(t) => &t[pstate * g.sw..(pstate + 1) * g.sw],
                None => sums.get_or_insert_with(|| {
                    let mut v = vec![0u64; g.sw];
                    achievable_sums(&g.sizes, size_left, &mut v);
                    v
                }),
            };
            return any_in_range(row, m, free.count_ones() as usize);
        }
        true
    }
}

/// `dst |= (src & mask)` moved up by `off` bits (down for a negative `off`), over bitsets of
/// equal length; `mask` keeps only bits whose target lies inside.
#[inline]
fn or_moved(dst: &mut [u64], src: &[u64], mask: &[u64], off: i32) {
    let n = dst.len();
    let d = off.unsigned_abs() as usize;
    let (ws, bs) = (d >> 6, (d & 63) as u32);
    let at = |j: usize| src[j] & mask[j];
    if off > 0 {
        for (i, d) in dst.iter_mut().enumerate().skip(ws) {
            let j = i - ws;
            let mut v = at(j) << bs;
            if bs != 0 && j > 0 {
                v |= at(j - 1) >> (64 - bs);
            }
            *d |= v;
        }
    } else {
        for (i, d) in dst.iter_mut().enumerate().take(n - ws.min(n)) {
            let j = i + ws;
            let mut v = at(j) >> bs;
            if bs != 0 && j + 1 < n {
                v |= at(j + 1) << (64 - bs);
            }
            *d |= v;
        }
    }
}

impl Geo {
    /// The component of free cells `free` holding cell `seed`, grown into `comp` a step at a
    /// time: by shifts of whole bitsets where the target allows ([`Geo::wide`]), else by
    /// OR-ing the neighbour rows of the cells reached last. `frontier` and `next` are scratch
    /// (all `cw` words).
    pub(crate) fn flood(
        &self,
        free: &[u64],
        seed: usize,
        comp: &mut [u64],
        frontier: &mut [u64],
        next: &mut [u64],
    ) {
        let cw = self.cw;
        match &self.wide {
            Some(wide) => flood_by(free, seed, comp, frontier, next, |f, n| {
                for (off, mask) in wide {
                    or_moved(n, f, mask, *off);
                }
            }),
            None => flood_by(free, seed, comp, frontier, next, |f, n| {
                for_each_bit(f, |c| {
                    for (d, &v) in n.iter_mut().zip(&self.nbr[c * cw..(c + 1) * cw]) {
                        *d |= v;
                    }
                });
            }),
        }
    }
}

/// [`Geo::flood`] with its growth step: `grow(frontier, next)` ORs into `next` the
/// neighbours of the cells reached last.
#[inline(always)]
fn flood_by(
    free: &[u64],
    seed: usize,
    comp: &mut [u64],
    frontier: &mut [u64],
    next: &mut [u64],
    mut grow: impl FnMut(&[u64], &mut [u64]),
) {
    comp.fill(0);
    frontier.fill(0);
    set_bit(comp, seed);
    set_bit(frontier, seed);
    loop {
        next.fill(0);
        grow(frontier, next);
        let mut any = 0;
        for w in 0..comp.len() {
            let v = next[w] & free[w] & !comp[w];
            frontier[w] = v;
            comp[w] |= v;
            any |= v;
        }
        if any == 0 {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of four cells, two pieces of two: a disconnected option (cells 0 and 2) makes
    /// region pruning unsound, so without the caller's word there is no geometry; with it the
    /// option is not tested in release builds, and debug builds catch the false word.
    fn split_option(connected: bool) -> ExactCover {
        let strip = vec![vec![1], vec![0, 2], vec![1, 3], vec![2]];
        let mut m =
            crate::fixtures::one_piece("domino", 2, strip, &[vec![0, 1], vec![2, 3], vec![0, 2]]);
        if let Some(g) = m.geometry.as_mut() {
            g.connected = connected;
        }
        m
    }

    #[test]
    fn an_option_not_connected_turns_region_pruning_off() {
        assert!(Geo::build(&split_option(false), true).is_none());
        let mut whole = split_option(false);
        whole.options.pop();
        assert!(Geo::build(&whole, true).is_some());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "not connected")]
    fn a_false_word_for_connected_options_is_caught_in_debug_builds() {
        Geo::build(&split_option(true), true);
    }

    #[test]
    fn bit_helpers() {
        let mut s = vec![0u64; 3];
        achievable_sums(&[5, 6], &[2, 1], &mut s);
        let mut got = Vec::new();
        for_each_bit(&s, |b| got.push(b));
        assert_eq!(got, vec![0, 5, 6, 10, 11, 16]);
        // Binary splitting: seven copies of 3 reach every multiple of 3 up to 21.
        let mut t = vec![0u64; 1];
        achievable_sums(&[3], &[7], &mut t);
        let mut got = Vec::new();
        for_each_bit(&t, |b| got.push(b));
        assert_eq!(got, (0..=7).map(|k| 3 * k).collect::<Vec<_>>());
        assert!(any_in_range(&s, 7, 10));
        assert!(!any_in_range(&s, 7, 9));
        assert!(any_in_range(&s, 16, 500));
        let mut big = vec![0u64; 3];
        big[0] = 1;
        let src = big.clone();
        or_shifted(&mut big, &src, 130);
        assert!(test_bit(&big, 130) && test_bit(&big, 0));
    }

    /// The cells of an `x`×`y`×`z` box kept by `keep`, numbered in (z, y, x) order as
    /// targets number theirs, and their face adjacency as [`Geo::build`] lays it out.
    fn box_cells(
        x: i32,
        y: i32,
        z: i32,
        keep: impl Fn(i32, i32, i32) -> bool,
    ) -> (Vec<u32>, Vec<u32>) {
        let mut num = std::collections::HashMap::new();
        for k in 0..z {
            for j in 0..y {
                for i in 0..x {
                    if keep(i, j, k) {
                        let n = num.len() as u32;
                        num.insert((i, j, k), n);
                    }
                }
            }
        }
        let mut cells: Vec<_> = num.iter().map(|(&p, &n)| (n, p)).collect();
        cells.sort_unstable();
        let (mut adj_off, mut adj) = (vec![0u32], Vec::new());
        for &(_, (i, j, k)) in &cells {
            let mut ns: Vec<u32> = [
                (1, 0, 0),
                (-1, 0, 0),
                (0, 1, 0),
                (0, -1, 0),
                (0, 0, 1),
                (0, 0, -1),
            ]
            .iter()
            .filter_map(|&(a, b, c)| num.get(&(i + a, j + b, k + c)).copied())
            .collect();
            ns.sort_unstable();
            adj.extend(ns);
            adj_off.push(adj.len() as u32);
        }
        (adj_off, adj)
    }

    /// The walk by runs clears exactly the component of its seed, and counts its cells and
    /// its must-fill cells, as a cell by cell walk over the neighbour lists does: on an
    /// irregular target with holes (runs of every length, several runs to a row), on a
    /// sparse one, and on rows longer than a word (runs cut at 64 cells), for free cells of
    /// every density.
    #[test]
    fn the_walk_by_runs_finds_the_components_of_the_neighbour_lists() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let hash = |i: i32, j: i32, k: i32| {
            ((i * 73 + j * 151 + k * 283) as u64).wrapping_mul(0x2545_f491_4f6c_dd1d) >> 58
        };
        let targets = [
            box_cells(11, 9, 7, |i, j, k| hash(i, j, k) % 8 < 6),
            box_cells(9, 9, 9, |i, j, k| hash(i, j, k) % 8 < 3),
            box_cells(70, 3, 2, |_, _, _| true),
        ];
        let mut components = 0;
        for (adj_off, adj) in &targets {
            let runs = Runs::new(adj_off, adj);
            let cells = adj_off.len() - 1;
            let cw = cells.div_ceil(64);
            assert!(runs.start.windows(2).all(|w| w[1] - w[0] <= 64));
            for round in 0..300 {
                let density = 1 + next(9);
                let (mut free, mut must) = (vec![0u64; cw], vec![0u64; cw]);
                for c in 0..cells {
                    if next(10) < density {
                        set_bit(&mut free, c);
                    }
                    if next(3) > 0 {
                        set_bit(&mut must, c);
                    }
                }
                let mut reference = free.clone();
                let mut blocks = Vec::new();
                while let Some(seed) = (0..cells).find(|&c| test_bit(&free, c)) {
                    let got = runs.walk(&must, &mut free, seed, &mut blocks);
                    clear_bit(&mut reference, seed);
                    let (mut stack, mut want) = (vec![seed], (0, 0));
                    while let Some(c) = stack.pop() {
                        want.0 += usize::from(test_bit(&must, c));
                        want.1 += 1;
                        for &n in &adj[adj_off[c] as usize..adj_off[c + 1] as usize] {
                            if test_bit(&reference, n as usize) {
                                clear_bit(&mut reference, n as usize);
                                stack.push(n as usize);
                            }
                        }
                    }
                    assert_eq!(got, want, "{cells} cells, round {round}, seed {seed}");
                    assert_eq!(free, reference, "{cells} cells, round {round}, seed {seed}");
                    components += 1;
                }
            }
        }
        assert!(components > 10_000, "{components} components");
    }
}
