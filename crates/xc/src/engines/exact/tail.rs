//! The leaf search of the bitset engine: once a node has at most [`MAX_TAIL_OPTIONS`] live
//! options (512 past 64 free cells) and 112 free cells, its options are renumbered onto a
//! bitset of one to sixteen words and its cells onto a board of one word (two past 64 cells),
//! and the subtree is searched
//! there with the same fewest-options rule, each count the popcount of a few words instead of
//! the bit-sliced bookkeeping the whole model's state needs. The search is compiled three
//! times, for the baseline x86-64 target, with the POPCNT instruction and with AVX-512's
//! VPOPCNTQ, and the most capable body the CPU runs is taken: the counts are popcounts. With
//! that body, and where the CPU has AVX-512 VBMI and GFNI, a board's per-cell option sets
//! are built by a bit-matrix transpose ([`board_simd`]).
//!
//! Sound only for models whose options each hold one piece item and that piece's cells, every
//! cell needing exactly one covering ([`TailTables::build`] checks it): a set of live options
//! that covers every free cell once and uses each remaining piece its remaining number of
//! times is then exactly a completion of the node, and branching on a free cell, or on a piece
//! needing one more copy, finds each completion once.
//!
//! Measured (one thread, the count up to rotation, 2026-11-25; `benches/README.md`): the leaf
//! search takes 3.9-6.7x off the Tetris Cube, Bedlam, the 6x10 and 8x8 pentomino boards and
//! the 3x4x5 solid pentominoes; boards of two words take 5x off Conway's puzzle (125 cells,
//! more than 128 items), 4.3x off the 25 Y pentacubes in 5x5x5 and 2.1x off the 1x2x4 bricks
//! in 4x4x8, whose boards cost about 20% more when they took all 128 cells from the root
//! (each node scans every free cell), hence 112. A dead-region test at every leaf node, as
//! the upper search runs, cost more instructions than the nodes it saved.

#[cfg(target_arch = "x86_64")]
use super::board_simd;
#[cfg(target_arch = "x86_64")]
use super::body::{SimdBody, simd_body};
use crate::model::ExactCover;

/// The most free cells a leaf board takes (boards of more than 64 take two words).
const MAX_TAIL_CELLS: u64 = 112;
/// Words of the widest option bitset of the leaf search.
const MAX_WORDS: usize = 16;

/// A board of cells: one word, or two for boards of more than 64 cells.
trait Board:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// Whether a forced cell ends the scan of the free cells (see the leaf node).
    const FORCED_ENDS_SCAN: bool;
    /// The board of cell `i` alone.
    fn bit(i: u8) -> Self;
    /// A board of one word's cells.
    fn from_u64(w: u64) -> Self;
    /// The lowest set bit's index.
    fn low(self) -> usize;
    /// Without its lowest set bit.
    fn drop_low(self) -> Self;
    /// Its cells 0-63 and 64-127, as words.
    fn halves(self) -> [u64; 2];
    /// The options' cell masks of the loaded board, and for loading them.
    fn masks(t: &Tail) -> &[Self];
    fn masks_mut(t: &mut Tail) -> &mut Vec<Self>;
    /// The face neighbours of cell `i` of the loaded board, where known (else none).
    fn adjacent(t: &Tail, i: usize) -> Self;
}

/// [`Board`] for an unsigned word type whose loaded masks live in the given [`Tail`] field.
macro_rules! board {
    ($t:ty, $field:ident, $forced_ends_scan:expr, $adjacent:expr) => {
        impl Board for $t {
            const ZERO: Self = 0;
            const FORCED_ENDS_SCAN: bool = $forced_ends_scan;
            #[inline(always)]
            fn bit(i: u8) -> Self {
                1 << i
            }
            #[inline(always)]
            fn from_u64(w: u64) -> Self {
                w.into()
            }
            #[inline(always)]
            fn low(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn drop_low(self) -> Self {
                self & (self - 1)
            }
            #[inline(always)]
            fn halves(self) -> [u64; 2] {
                [self as u64, (self as u128 >> 64) as u64]
            }
            #[inline(always)]
            fn masks(t: &Tail) -> &[Self] {
                &t.$field
            }
            #[inline(always)]
            fn masks_mut(t: &mut Tail) -> &mut Vec<Self> {
                &mut t.$field
            }
            #[inline(always)]
            fn adjacent(t: &Tail, i: usize) -> Self {
                $adjacent(t, i)
            }
        }
    };
}

// On a two-word board, testing the other cells at every forced node costs more than the
// dead children it spares (Conway's puzzle, the 1x2x4 bricks).
board!(u64, mask, false, |t: &Tail, i: usize| t.adjacent[i % 64]);
board!(u128, wide_mask, true, |_, _| 0);

/// The most live options a leaf search takes, on a board of one word: a larger board leaves
/// fewer nodes to the upper search, whose nodes cost more, and serves more nodes per load,
/// but every leaf node's counts read more words. Against eight words, sixteen took 5-25% off
/// the 6x10 and 8x8 boards and Bedlam; four and 32 were 1.5-2x slower.
pub(crate) const MAX_TAIL_OPTIONS: u32 = 64 * MAX_WORDS as u32;
/// The same on a board of two words, whose counts cost twice as much: sixteen words made the
/// 25 Y pentacubes 30% slower.
const MAX_WIDE_OPTIONS: u32 = 512;

/// An option bitset of `W` words.
type Opts<const W: usize> = [u64; W];

#[inline(always)]
fn and<const W: usize>(a: &Opts<W>, b: &[u64; MAX_WORDS]) -> Opts<W> {
    std::array::from_fn(|w| a[w] & b[w])
}

#[inline(always)]
fn count<const W: usize>(a: &Opts<W>) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// [`TailTables::word_piece`] of a word holding options of several pieces.
const MIXED: u32 = u32::MAX;

/// Query-independent tables of the leaf search.
pub(crate) struct TailTables {
    /// Item index of cell 0, and the number of cells.
    first_cell: u32,
    n_cells: usize,
    /// Piece item of every option.
    opt_piece: Vec<u32>,
    /// The piece item of every word of options (64 options from word index times 64), or
    /// [`MIXED`] when they are not all one piece's.
    word_piece: Vec<u32>,
    /// Cells of every option (cell indices, flat: `cell_off[o]..cell_off[o + 1]`).
    cell_off: Vec<u32>,
    cells: Vec<u32>,
    /// The cell mask of every option, when the model has at most 64 cells (the board is then
    /// the model's own cell numbering and nothing is renumbered).
    opt_mask: Option<Vec<u64>>,
    /// Total coverage the piece items need.
    piece_need: u64,
    /// The face neighbours of every cell, when the model has at most 64 cells.
    adjacent: Option<Vec<u64>>,
}

impl TailTables {
    /// The tables, when every option holds exactly one piece item (items below the
    /// geometry's first cell, all exact) plus that piece's volume in cells and every cell
    /// needs one covering.
    pub fn build(m: &ExactCover) -> Option<TailTables> {
        let g = m.geometry.as_ref()?;
        let first = g.first_cell as usize;
        if m.items[first..]
            .iter()
            .any(|i| !(i.is_exact() && i.min == 1))
            || m.items[..first].iter().any(|i| !i.is_exact())
        {
            return None;
        }
        let n_cells = m.items.len() - first;
        let mut opt_piece = Vec::with_capacity(m.options.len());
        let mut cell_off = vec![0u32];
        let mut cells = Vec::new();
        for items in &m.options {
            let [p, rest @ ..] = &items[..] else {
                return None;
            };
            // Items are ascending: the piece item comes first, the cells after it.
            if *p as usize >= first
                || rest.first().is_none_or(|&c| (c as usize) < first)
                || rest.len() != g.piece_sizes[*p as usize] as usize
            {
                return None;
            }
            opt_piece.push(*p);
            cells.extend(rest.iter().map(|&c| c - first as u32));
            cell_off.push(cells.len() as u32);
        }
        let opt_mask = (n_cells <= 64).then(|| {
            (0..opt_piece.len())
                .map(|o| {
                    cells[cell_off[o] as usize..cell_off[o + 1] as usize]
                        .iter()
                        .fold(0u64, |m, &c| m | 1 << c)
                })
                .collect()
        });
        let word_piece = opt_piece
            .chunks(64)
            .map(|c| {
                if c.iter().all(|&p| p == c[0]) {
                    c[0]
                } else {
                    MIXED
                }
            })
            .collect();
        let adjacent = (n_cells <= 64).then(|| {
            g.neighbors
                .iter()
                .map(|nb| nb.iter().fold(0u64, |m, &c| m | 1 << c))
                .collect()
        });
        Some(TailTables {
            adjacent,
            word_piece,
            first_cell: first as u32,
            n_cells,
            opt_piece,
            cell_off,
            cells,
            opt_mask,
            piece_need: m.items[..first].iter().map(|i| u64::from(i.min)).sum(),
        })
    }

    fn cells_of(&self, o: usize) -> &[u32] {
        &self.cells[self.cell_off[o] as usize..self.cell_off[o + 1] as usize]
    }
}

/// Where a board is loaded from ([`Tail::load`]).
pub(crate) struct At<'a> {
    /// The node's total coverage still needed.
    pub need_left: u64,
    /// Options chosen above the node, forced ones included.
    pub chosen: usize,
    /// The node's occupied cells (a cell bitset), or empty when the search does not keep
    /// them; for models of more than 64 cells they number the board's cells.
    pub occ: &'a [u64],
    /// An option chosen on top of the node whose cells are occupied too (the node is then
    /// this option's child, loaded from its parent).
    pub option: Option<usize>,
    /// Whether to build the board. Without, the load only tells whether the node fits a
    /// board, for a split that cuts the tree at such nodes: the subtree's own run loads it,
    /// and settles it if it turns out dead, with the same node count.
    pub build: bool,
}

/// What [`Tail::load`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Load {
    /// The board is loaded ([`Tail::search`] searches it), or without [`At::build`] would
    /// be loaded or found dead.
    Ready,
    /// The node has no completion: a free cell no live option covers, or a piece still
    /// needed without a live option.
    Dead,
    /// More free cells or live options than a leaf board holds.
    TooBig,
}

/// What the leaf search reports to.
pub(crate) trait TailSink {
    /// A completion: the options chosen in the leaf search (model indices, in search order).
    /// Returns `false` to stop.
    fn cover(&mut self, options: &[u32]) -> bool;
    /// Called every [`CHECK_EVERY`] nodes with the nodes the leaf search visited so far and
    /// the share of its tree finished (Knuth's path weights, [`Tail::fraction_done`]);
    /// returns `false` to stop.
    fn check(&mut self, nodes: u64, done: f64) -> bool;
}

/// How often (in nodes) the search, the leaf search included, publishes progress and looks
/// at the stop flags.
pub(crate) const CHECK_EVERY: u64 = 4096;

/// A leaf-search state found dead: the free cells (two words) and the packed needs.
///
/// Different orders of placements reach the same state (two pieces filling one region in
/// either of two ways), and a state's subtree depends on nothing else, so a state seen dead
/// is not searched again within the load. This is nogood caching with an exact key; a
/// table of one load only, for the upper search may have excluded options (the siblings'
/// options of an item needing several coverings) that another load's state still has.
#[derive(Clone, Copy, Default)]
struct Dead {
    lo: u64,
    hi: u64,
    needs: u64,
    load: u64,
}

/// How a load keys its dead states. With the free cells, the copies every slot still needs
/// are the whole state of a leaf node: its live options are the load's that lie on free
/// cells and belong to open slots.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Memo {
    /// Not remembered: the counts take more than a word.
    #[default]
    Off,
    /// Every slot needs one copy: the open slots are the needs.
    Single,
    /// The counts packed into one word, each in as many bits as its count at the load takes
    /// (computed at each lookup, so that a node pays nothing to keep them).
    Packed,
}

/// Entries of the dead-state table (2^13 of 32 bytes: it stays in the L2 cache; 2^10 kept
/// fewer states, 2^16 and 2^20 more, but their misses cost more than they saved).
const DEAD_BITS: u32 = 13;

#[cfg(test)]
thread_local! {
    /// Whether this thread's leaf searches remember dead states, so that a test can compare.
    static MEMO: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Scratch of one searcher's leaf searches, reused from load to load.
#[derive(Default)]
pub(crate) struct Tail {
    /// Board bit of every model cell (valid for the current board's cells only), when the
    /// board is renumbered.
    local: Vec<u8>,
    /// Slot of every piece item (valid for the current board's pieces only).
    slot: Vec<u8>,
    /// Piece items of the slots, and the copies each still needs.
    pieces: Vec<u32>,
    left: Vec<u32>,
    /// Model option, cell mask (on a board of one word, or of two in `wide_mask`) and slot of
    /// every local option.
    option: Vec<u32>,
    mask: Vec<u64>,
    wide_mask: Vec<u128>,
    opt_slot: Vec<u8>,
    /// Local options covering each board cell, and of each slot.
    cover: Vec<[u64; MAX_WORDS]>,
    of_slot: Vec<[u64; MAX_WORDS]>,
    /// The board's model cells, when renumbered.
    board: Vec<u32>,
    /// The free cells.
    free: u128,
    /// The face neighbours of every cell of the loaded board: a one-word board of a model of at
    /// most 64 cells (whose cells are the model's), else none.
    adjacent: Vec<u64>,
    /// Whether the board takes two words.
    wide: bool,
    chosen: Vec<u32>,
    /// Per depth of the current path: the children of that node finished before the one
    /// being searched, and how many it has. A leaf search can run for minutes on a board
    /// with a monocube; from these a check tells how much of it is done, at the cost of one
    /// store per node.
    path: Vec<(u32, u32)>,
    /// Nodes visited by the current leaf search.
    pub nodes: u64,
    /// Completions reached by the current leaf search.
    covers: u64,
    /// Whether and how this load remembers dead states.
    memo: Memo,
    /// Where each slot's count starts in the packed needs ([`Memo::Packed`]).
    shift: Vec<u32>,
    /// States of this load whose subtree held no completion ([`Dead`]), direct-mapped.
    dead: Vec<Dead>,
    /// The current load's number, telling its entries in `dead` from older loads'.
    load_id: u64,
    next_check: u64,
    stopped: bool,
}

/// A leaf-search node ([`Tail::rec`]) under the name and attributes given: one body, compiled
/// for the baseline target and with the target features of each faster body ([`SimdBody`]), which
/// the per-cell option counts are made of.
macro_rules! leaf_node {
    ($(#[$attr:meta])* $name:ident) => {
        /// One node: `live` options, `free` cells, `open` slots (pieces still needed, `left[s]`
        /// copies each); `near` holds the cells next to the option just chosen.
        $(#[$attr])*
        fn $name<const W: usize, B: Board>(
            &mut self,
            live: Opts<W>,
            free: B,
            open: u64,
            left: &mut [u32; 64],
            near: B,
            sink: &mut impl TailSink,
        ) {
            if free == B::ZERO {
                self.covers += 1;
                if !sink.cover(&self.chosen) {
                    self.stopped = true;
                }
                return;
            }
            // The item of fewest live options: a free cell, or a slot needing one more copy
            // (slots needing several are only checked), the first in cell order on a tie. A
            // count of one cannot be beaten by a useful choice, but on a one-word board the
            // rest of the cells are still counted, for none: a forced option taken while
            // another cell has no option makes a dead child, and often a chain of them (13%
            // fewer nodes on the 6x10 board, 18% on 3x4x5). The running minimum is one key,
            // the count above the cell, kept without a branch: which cell wins next is data
            // the branch predictor cannot learn. The cells next to the option just chosen are
            // counted first: a cell that option left without options is most often one of
            // them, and a dead node's scan ends there (Bedlam 6-9% faster with every body).
            // The order does not change the cell chosen, the key breaking ties by cell; a
            // two-word board, whose scan also ends at a forced cell, has no `near` cells.
            let mut key = u32::MAX;
            let near = near & free;
            'scan: for part in [near, free & !near] {
                for (h, mut f) in part.halves().into_iter().enumerate() {
                    while f != 0 {
                        let c = h * 64 + f.trailing_zeros() as usize;
                        f &= f - 1;
                        let n = count(&and(&live, &self.cover[c]));
                        key = key.min(n << 8 | c as u32);
                        if n == 0 || n == 1 && B::FORCED_ENDS_SCAN {
                            break 'scan;
                        }
                    }
                }
            }
            let (mut best, best_cell) = (key >> 8, (key & 0xff) as usize);
            if best == 0 {
                return;
            }
            let mut branch = and(&live, &self.cover[best_cell]);
            if best > 1 {
                let mut a = open;
                while a != 0 {
                    let s = a.trailing_zeros() as usize;
                    a &= a - 1;
                    let opts = and(&live, &self.of_slot[s]);
                    let n = count(&opts);
                    if n < left[s] {
                        return;
                    }
                    if left[s] == 1 && n < best {
                        best = n;
                        branch = opts;
                    }
                }
            }
            // A state seen dead in this load is dead again. Looked up only once the scan has
            // found every cell covered (a dead node's scan usually ends in two or three
            // counts, about the price of a lookup) and only where it branches: a forced
            // node's one child is looked up in turn, and forced nodes too spared 0.5% more
            // nodes on 6x10 and the 8x8 board for as many instructions, and cost 26 N
            // pentacubes 1% more.
            let [lo, hi] = free.halves();
            let memo = self.memo != Memo::Off && best > 1;
            let needs = match self.memo {
                Memo::Single => open,
                Memo::Packed if memo => self.packed(open, left),
                _ => 0,
            };
            let slot = if memo {
                let h = (lo ^ hi.rotate_left(29) ^ needs.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                    .wrapping_mul(0xff51_afd7_ed55_8ccd);
                let slot = (h >> (64 - DEAD_BITS)) as usize;
                let e = &self.dead[slot];
                if e.load == self.load_id && e.lo == lo && e.hi == hi && e.needs == needs {
                    return;
                }
                slot
            } else {
                0
            };
            let covers = self.covers;
            let depth = self.chosen.len();
            let mut finished = 0;
            for (w, &bits) in branch.iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    let j = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    if let Some(at) = self.path.get_mut(depth) {
                        *at = (finished, best);
                    }
                    finished += 1;
                    self.nodes += 1;
                    if self.nodes >= self.next_check {
                        self.next_check += CHECK_EVERY;
                        if !sink.check(self.nodes, self.fraction_done(depth)) {
                            self.stopped = true;
                            return;
                        }
                    }
                    let m = B::masks(self)[j];
                    let s = self.opt_slot[j] as usize;
                    // The child keeps the live options sharing no cell with j (j covers its own
                    // cells, so it goes too), and none of j's piece once its last copy is
                    // placed. Clearing j's bit on its own would be a narrow store into the
                    // vector just before the vector is loaded whole: a store-forwarding stall.
                    let mut child = live;
                    let mut u = m;
                    let mut next = B::ZERO;
                    while u != B::ZERO {
                        let cov = &self.cover[u.low()];
                        next = next | B::adjacent(self, u.low());
                        u = u.drop_low();
                        for (c, &k) in child.iter_mut().zip(cov) {
                            *c &= !k;
                        }
                    }
                    left[s] -= 1;
                    let o = if left[s] == 0 {
                        for (c, &k) in child.iter_mut().zip(&self.of_slot[s]) {
                            *c &= !k;
                        }
                        open & !(1 << s)
                    } else {
                        open
                    };
                    self.chosen.push(self.option[j]);
                    self.$name::<W, B>(child, free & !m, o, left, next, sink);
                    self.chosen.pop();
                    left[s] += 1;
                    if self.stopped {
                        return;
                    }
                }
            }
            if memo && self.covers == covers {
                self.dead[slot] = Dead {
                    lo,
                    hi,
                    needs,
                    load: self.load_id,
                };
            }
        }
    };
}

impl Tail {
    /// Loads the board of a node: `live` calls its argument with every word of the node's
    /// live-option bitset that may be non-zero (word index, bits; called twice), `rem` gives
    /// the coverage a piece item still needs (options of pieces needing none are dropped),
    /// and `at` says where the node is.
    pub fn load(
        &mut self,
        t: &TailTables,
        live: impl Fn(&mut dyn FnMut(usize, u64)),
        rem: impl Fn(u32) -> u32,
        at: At,
    ) -> Load {
        let At {
            need_left,
            chosen,
            occ,
            option: chosen_option,
            build,
        } = at;
        // Each chosen option covers one piece unit, so the rest of `need_left` is cells.
        let pieces_left = t.piece_need.saturating_sub(chosen as u64);
        let cells_left = need_left.saturating_sub(pieces_left);
        if cells_left > MAX_TAIL_CELLS {
            return Load::TooBig;
        }
        let wide = cells_left > 64;
        let mut n = 0;
        live(&mut |_, bits| n += bits.count_ones());
        let max_options = if wide {
            MAX_WIDE_OPTIONS
        } else {
            MAX_TAIL_OPTIONS
        };
        if n > max_options {
            return Load::TooBig;
        }
        if self.slot.len() != t.first_cell as usize {
            self.slot = vec![u8::MAX; t.first_cell as usize];
            self.local = vec![u8::MAX; t.n_cells];
            self.cover = vec![[0; MAX_WORDS]; 128];
            self.of_slot = vec![[0; MAX_WORDS]; 64];
        }
        self.wide = wide;
        // A slot for every piece still needed, in item order. A slot is a bit of one word: a
        // node needing more than 64 pieces is too big for a board.
        self.pieces.clear();
        self.left.clear();
        for p in 0..t.first_cell {
            let r = rem(p);
            self.slot[p as usize] = if r == 0 {
                u8::MAX
            } else if self.pieces.len() == 64 {
                return Load::TooBig;
            } else {
                self.pieces.push(p);
                self.left.push(r);
                (self.pieces.len() - 1) as u8
            };
        }
        // The live options and their slots, in one pass over the words that writes into
        // slices of the known length (pushing would store each vector's length on every
        // option). A word of one piece's options looks its slot up once; options of a piece
        // no longer needed are dropped.
        self.option.resize(n as usize, 0);
        self.opt_slot.resize(n as usize, 0);
        let (option, opt_slot) = (&mut self.option[..], &mut self.opt_slot[..]);
        let (slot, opt_piece, word_piece) = (&self.slot[..], &t.opt_piece[..], &t.word_piece[..]);
        let (mut k, mut seen) = (0, 0u64);
        live(&mut |w, mut bits| match word_piece.get(w) {
            // A word past the model's options holds none (the caller may pass it all the same).
            None => {}
            Some(&MIXED) => {
                while bits != 0 {
                    let o = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let s = slot[opt_piece[o] as usize];
                    if s != u8::MAX {
                        option[k] = o as u32;
                        opt_slot[k] = s;
                        seen |= 1 << s;
                        k += 1;
                    }
                }
            }
            Some(&p) => {
                let s = slot[p as usize];
                if s != u8::MAX && bits != 0 {
                    seen |= 1 << s;
                    while bits != 0 {
                        option[k] = (w * 64 + bits.trailing_zeros() as usize) as u32;
                        opt_slot[k] = s;
                        k += 1;
                        bits &= bits - 1;
                    }
                }
            }
        });
        self.option.truncate(k);
        self.opt_slot.truncate(k);
        // Every piece still needed has a live option, or the node is dead.
        let all = match self.pieces.len() {
            64 => u64::MAX,
            k => (1 << k) - 1,
        };
        if seen != all {
            return Load::Dead;
        }
        if !build {
            return Load::Ready;
        }
        self.adjacent.clear();
        if let Some(a) = &t.adjacent
            && !wide
        {
            self.adjacent.extend_from_slice(a);
        }
        self.adjacent.resize(64, 0);
        let skip = chosen_option.map_or(&[][..], |x| t.cells_of(x));
        let union = if wide {
            self.load_masks::<u128>(t, occ, skip)
        } else {
            self.load_masks::<u64>(t, occ, skip).map(u128::from)
        };
        let union = match union {
            Ok(u) => u,
            Err(load) => return load,
        };
        // Live options cover free cells only, so the free cells are their union exactly when
        // it has as many cells as are free; otherwise a free cell has no option.
        self.free = union;
        if u64::from(union.count_ones()) == cells_left {
            Load::Ready
        } else {
            Load::Dead
        }
    }

    /// The cell masks of the loaded options on a board of `B`, the options of every cell and
    /// slot, and the union of the masks; the load's end when the board is too small. `skip`
    /// holds the cells of an option chosen on top of the node.
    fn load_masks<B: Board>(
        &mut self,
        t: &TailTables,
        occ: &[u64],
        skip: &[u32],
    ) -> Result<B, Load> {
        let mut masks = std::mem::take(B::masks_mut(self));
        masks.clear();
        let union = self.fill_masks(&mut masks, t, occ, skip);
        *B::masks_mut(self) = masks;
        union
    }

    /// [`Tail::load_masks`] into `masks`.
    fn fill_masks<B: Board>(
        &mut self,
        masks: &mut Vec<B>,
        t: &TailTables,
        occ: &[u64],
        skip: &[u32],
    ) -> Result<B, Load> {
        let board_cells = 64 * std::mem::size_of::<B>() / 8;
        match &t.opt_mask {
            Some(cells) => {
                masks.extend(self.option.iter().map(|&o| B::from_u64(cells[o as usize])));
            }
            None if occ.len() == t.n_cells.div_ceil(64) => {
                // Number the free cells in order: then every live option's cells have numbers
                // (live options cover free cells only) and no lookup needs a test.
                let mut k = 0;
                for (w, &o) in occ.iter().enumerate() {
                    let mut free = !o;
                    if w == occ.len() - 1 && !t.n_cells.is_multiple_of(64) {
                        free &= (1u64 << (t.n_cells % 64)) - 1;
                    }
                    while free != 0 {
                        let c = w * 64 + free.trailing_zeros() as usize;
                        free &= free - 1;
                        if skip.contains(&(c as u32)) {
                            continue;
                        }
                        if k == board_cells {
                            return Err(Load::TooBig);
                        }
                        self.local[c] = k as u8;
                        k += 1;
                    }
                }
                for &o in &self.option {
                    let m = t
                        .cells_of(o as usize)
                        .iter()
                        .fold(B::ZERO, |m, &c| m | B::bit(self.local[c as usize]));
                    masks.push(m);
                }
            }
            None => {
                // Number the cells the live options cover, in order of first appearance.
                for &c in &self.board {
                    self.local[c as usize] = u8::MAX;
                }
                self.board.clear();
                for &o in &self.option {
                    let mut m = B::ZERO;
                    for &c in t.cells_of(o as usize) {
                        let l = &mut self.local[c as usize];
                        if *l == u8::MAX {
                            // Live options cover free cells only, so this cannot happen; the
                            // upper search would still be right if it did.
                            if self.board.len() == board_cells {
                                return Err(Load::TooBig);
                            }
                            *l = self.board.len() as u8;
                            self.board.push(c);
                        }
                        m = m | B::bit(*l);
                    }
                    masks.push(m);
                }
            }
        }
        let union = masks.iter().fold(B::ZERO, |a, &m| a | m);
        #[cfg(target_arch = "x86_64")]
        if simd_load() {
            // SAFETY: `simd_load` checked the CPU's features.
            unsafe { self.fill_sets_simd(masks, union) };
            return Ok(union);
        }
        for s in &mut self.of_slot[..self.pieces.len()] {
            *s = [0; MAX_WORDS];
        }
        let mut u = union;
        while u != B::ZERO {
            self.cover[u.low()] = [0; MAX_WORDS];
            u = u.drop_low();
        }
        for (j, (&m, &s)) in masks.iter().zip(&self.opt_slot).enumerate() {
            let (w, bit) = (j >> 6, 1u64 << (j & 63));
            self.of_slot[s as usize][w] |= bit;
            let mut u = m;
            while u != B::ZERO {
                self.cover[u.low()][w] |= bit;
                u = u.drop_low();
            }
        }
        Ok(union)
    }

    /// The option sets of the board's cells (the `union` of the `masks`) and slots, built a
    /// word of options at a time by [`board_simd`]'s transpose and byte compares.
    ///
    /// # Safety
    /// The CPU must have the features [`board_simd::available`] checks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    unsafe fn fill_sets_simd<B: Board>(&mut self, masks: &[B], union: B) {
        let halves = union.halves();
        let n_halves = std::mem::size_of::<B>() / 8;
        let words = masks.len().div_ceil(64);
        for (h, &u) in halves.iter().enumerate().take(n_halves) {
            let mut f = u;
            while f != 0 {
                self.cover[64 * h + f.trailing_zeros() as usize][words..].fill(0);
                f &= f - 1;
            }
        }
        let (mut rows, mut out) = ([0u64; 64], [0u64; 64]);
        for w in 0..words {
            let chunk = &masks[64 * w..masks.len().min(64 * w + 64)];
            for (h, &u) in halves.iter().enumerate().take(n_halves) {
                for (r, m) in rows.iter_mut().zip(chunk.iter().map(|m| m.halves()[h])) {
                    *r = m;
                }
                rows[chunk.len()..].fill(0);
                // SAFETY: the caller checked the features.
                unsafe { board_simd::transpose(&rows, &mut out) };
                let mut f = u;
                while f != 0 {
                    let c = f.trailing_zeros() as usize;
                    f &= f - 1;
                    self.cover[64 * h + c][w] = out[board_simd::POS[c] as usize];
                }
            }
            let mut slots = [u8::MAX; 64];
            slots[..chunk.len()].copy_from_slice(&self.opt_slot[64 * w..64 * w + chunk.len()]);
            let mut sets = [0u64; 64];
            let sets = &mut sets[..self.pieces.len()];
            // SAFETY: the caller checked the features.
            unsafe { board_simd::equal_bytes(&slots, sets) };
            for (s, &set) in self.of_slot.iter_mut().zip(sets.iter()) {
                s[w] = set;
            }
        }
        for s in &mut self.of_slot[..self.pieces.len()] {
            s[words..].fill(0);
        }
    }

    /// Searches the loaded board, reporting every completion to `sink`, with option bitsets
    /// as narrow as the board's options allow; returns `false` when the sink stopped the
    /// search. `nodes_before` is the caller's node count: checks come whenever the sum
    /// crosses a multiple of [`CHECK_EVERY`], as in the caller's own search.
    pub fn search(&mut self, nodes_before: u64, sink: &mut impl TailSink) -> bool {
        self.nodes = 0;
        self.covers = 0;
        self.start_memo();
        // Every option covers a board cell or the last copy of a piece: deeper paths than
        // this are not expected, and would only be left out of the fraction.
        self.path.resize(MAX_TAIL_CELLS as usize + 65, (0, 1));
        self.next_check = CHECK_EVERY - nodes_before % CHECK_EVERY;
        self.stopped = false;
        self.chosen.clear();
        let mut left = [0u32; 64];
        left[..self.left.len()].copy_from_slice(&self.left);
        let open = (0..self.pieces.len()).fold(0u64, |a, s| a | 1 << s);
        let (n, free) = (self.option.len(), self.free);
        // The option bitsets take the fewest words the body counts at full width: a count
        // reads every word of the width, so a load of nine words of options counted as
        // sixteen reads seven words of zeros in every count. The POPCNT body counts a word at
        // a time and takes the exact width; the compiler vectorises the portable body's
        // counts two words a register (SSE2 on x86-64), AVX2's four and AVX-512's eight, and
        // a width that is not a whole number of registers costs more than the zeros it spares
        // (on 6x10, every width made the portable body 13% more instructions than the powers
        // of two; steps of one to eight words and of two past eight, the AVX2 body 2% more).
        macro_rules! dispatch {
            ($rec:ident; $($w:literal)* ; $last:literal; $($v:literal)* ; $vlast:literal) => {{
                let words = n.div_ceil(64);
                debug_assert!(words <= if self.wide { $vlast } else { $last });
                if self.wide {
                    $(if words <= $v {
                        self.$rec::<$v, u128>(first(n), free, open, &mut left, 0, sink)
                    } else)* {
                        self.$rec::<$vlast, u128>(first(n), free, open, &mut left, 0, sink)
                    }
                } else {
                    let free = free as u64;
                    $(if words <= $w {
                        self.$rec::<$w, u64>(first(n), free, open, &mut left, 0, sink)
                    } else)* {
                        self.$rec::<$last, u64>(first(n), free, open, &mut left, 0, sink)
                    }
                }
            }};
        }
        // The last width of each list is the widest board's: MAX_WORDS words on a board of one
        // word, MAX_WIDE_OPTIONS / 64 on a board of two.
        const _: () = assert!(MAX_WORDS == 16 && MAX_WIDE_OPTIONS == 8 * 64);
        #[cfg(target_arch = "x86_64")]
        match body() {
            // SAFETY: `body` names a body only when this CPU has every feature it is compiled
            // with (run-time detection, `SimdBody::missing`).
            SimdBody::Avx512 => unsafe { dispatch!(rec_avx512; 1 2 4 8; 16; 1 2 4; 8) },
            SimdBody::Avx2 => unsafe { dispatch!(rec_avx2; 1 2 4 8 12; 16; 1 2 4; 8) },
            SimdBody::Popcnt => unsafe {
                dispatch!(rec_popcnt; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; 16; 1 2 3 4 5 6 7; 8)
            },
            SimdBody::Portable => dispatch!(rec; 1 2 4 6 8 10 12 14; 16; 1 2 4 6; 8),
        }
        #[cfg(not(target_arch = "x86_64"))]
        dispatch!(rec; 1 2 4 6 8 10 12 14; 16; 1 2 4 6; 8);
        !self.stopped
    }

    /// Chooses how this load keys its dead states ([`Memo`]) and turns the dead-state table
    /// to a new load.
    fn start_memo(&mut self) {
        let bits = |l: u32| u32::BITS - l.leading_zeros();
        self.memo = if self.left.iter().all(|&l| l == 1) {
            Memo::Single
        } else if self.left.iter().map(|&l| bits(l)).sum::<u32>() <= u64::BITS {
            Memo::Packed
        } else {
            Memo::Off
        };
        #[cfg(test)]
        if !MEMO.with(std::cell::Cell::get) {
            self.memo = Memo::Off;
        }
        if self.memo == Memo::Off {
            return;
        }
        self.shift.clear();
        let mut at = 0;
        for &l in &self.left {
            self.shift.push(at);
            at += bits(l);
        }
        if self.dead.is_empty() {
            self.dead = vec![Dead::default(); 1 << DEAD_BITS];
        }
        // Entries of earlier loads hold their load's number; the first load is number 1.
        self.load_id += 1;
    }

    /// The packed needs of the open slots ([`Memo::Packed`]).
    fn packed(&self, open: u64, left: &[u32; 64]) -> u64 {
        let mut needs = 0;
        let mut a = open;
        while a != 0 {
            let s = a.trailing_zeros() as usize;
            a &= a - 1;
            needs |= u64::from(left[s]) << self.shift[s];
        }
        needs
    }

    /// The share of the leaf search's tree finished, in Knuth's path weights: the children
    /// finished at each depth of the current path (up to `depth`), each weighing one over
    /// the product of the branch counts above and at it.
    fn fraction_done(&self, depth: usize) -> f64 {
        let (mut done, mut weight) = (0.0, 1.0);
        for &(finished, branches) in &self.path[..=depth.min(self.path.len() - 1)] {
            weight /= f64::from(branches.max(1));
            done += weight * f64::from(finished);
        }
        done
    }

    leaf_node!(rec);
    #[cfg(target_arch = "x86_64")]
    leaf_node!(
        #[target_feature(enable = "popcnt")]
        rec_popcnt
    );
    #[cfg(target_arch = "x86_64")]
    leaf_node!(
        #[target_feature(enable = "popcnt,avx2,bmi1,bmi2,lzcnt")]
        rec_avx2
    );
    // Eight words of options are one AVX-512 register: the per-cell counts become an AND and
    // a VPOPCNTQ per register (the compiler vectorises the same body).
    #[cfg(target_arch = "x86_64")]
    leaf_node!(
        #[target_feature(
            enable = "popcnt,avx2,bmi1,bmi2,lzcnt,avx512f,avx512vl,avx512bw,avx512vpopcntdq"
        )]
        rec_avx512
    );
}

/// The body this thread's leaf searches take: the process's ([`simd_body`]), capped in tests.
#[cfg(target_arch = "x86_64")]
#[inline]
fn body() -> SimdBody {
    #[cfg(test)]
    return simd_body().min(tests::cap());
    #[cfg(not(test))]
    simd_body()
}

/// Whether boards are loaded with [`board_simd`] (only with the AVX-512 body, so that a test
/// capping the body tests the portable load too).
#[cfg(target_arch = "x86_64")]
#[inline]
fn simd_load() -> bool {
    use std::sync::OnceLock;
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    body() == SimdBody::Avx512 && *AVAILABLE.get_or_init(board_simd::available)
}

/// The option bitset of the first `n` options.
fn first<const W: usize>(n: usize) -> Opts<W> {
    std::array::from_fn(|w| {
        let lo = w * 64;
        if n >= lo + 64 {
            u64::MAX
        } else if n > lo {
            (1u64 << (n - lo)) - 1
        } else {
            0
        }
    })
}

#[cfg(test)]
#[cfg(target_arch = "x86_64")]
mod tests {
    use super::{MEMO, SimdBody, body};
    use crate::exact::ExactEngine;
    use crate::fixtures;
    use crate::model::ExactCover;
    use std::cell::Cell;

    thread_local! {
        /// Caps the body this thread's leaf searches take, so that every body the CPU has
        /// is tested.
        static CAP: Cell<SimdBody> = const { Cell::new(SimdBody::Avx512) };
    }

    pub(super) fn cap() -> SimdBody {
        CAP.with(Cell::get)
    }

    /// Straight 1x1x3 rods (one piece item, as many copies as fill the box) lying along the
    /// first two axes of an `x`×`y`×`z` box: each layer is tiled on its own, so a 2x3x11
    /// box has T(11)² = 41² solutions (T(n) = T(n-1) + T(n-3), tilings of a 3xn strip),
    /// and its 66 cells take a leaf board of two words from the root.
    fn rods(x: u32, y: u32, z: u32) -> ExactCover {
        let cell = |i: u32, j: u32, k: u32| (k * y + j) * x + i;
        let mut placements = Vec::new();
        let mut neighbors = vec![Vec::new(); (x * y * z) as usize];
        for k in 0..z {
            for j in 0..y {
                for i in 0..x {
                    let c = cell(i, j, k);
                    let mut nb = Vec::new();
                    if i > 0 {
                        nb.push(cell(i - 1, j, k));
                    }
                    if i + 1 < x {
                        nb.push(cell(i + 1, j, k));
                    }
                    if j > 0 {
                        nb.push(cell(i, j - 1, k));
                    }
                    if j + 1 < y {
                        nb.push(cell(i, j + 1, k));
                    }
                    if k > 0 {
                        nb.push(cell(i, j, k - 1));
                    }
                    if k + 1 < z {
                        nb.push(cell(i, j, k + 1));
                    }
                    nb.sort_unstable();
                    neighbors[c as usize] = nb;
                    if i + 3 <= x {
                        placements.push(vec![c, cell(i + 1, j, k), cell(i + 2, j, k)]);
                    }
                    if j + 3 <= y {
                        placements.push(vec![c, cell(i, j + 1, k), cell(i, j + 2, k)]);
                    }
                }
            }
        }
        fixtures::one_piece("rod", 3, neighbors, &placements)
    }

    /// Every solution of a one-thread enumeration, in order, and the nodes it visited.
    fn solutions(e: &ExactEngine) -> (Vec<Vec<u32>>, u64) {
        let mut sols = Vec::new();
        let st = e
            .query()
            .enumerate(|s| {
                sols.push(s.to_vec());
                true
            })
            .unwrap();
        (sols, st.nodes)
    }

    /// A forced cell does not end the scan of a one-word board: a later cell without
    /// options ends the node first. The 6x10 count without symmetry reduction (9,356
    /// solutions, one-word leaf boards), without the dead-state table: a scan ending at the
    /// forced cell visits 3,686,369 nodes.
    #[test]
    fn a_forced_cell_does_not_hide_an_empty_one() {
        let m = fixtures::model("pentominoes-6x10");
        let e = ExactEngine::new(&m).unwrap();
        MEMO.with(|f| f.set(false));
        let c = e.query().count().unwrap();
        MEMO.with(|f| f.set(true));
        assert_eq!((c.solutions, c.nodes), (9_356, 3_231_360));
    }

    /// The dead-state table takes nodes away, never solutions: with and without it the
    /// leaf search finds the same solutions in the same order, on boards of one word and of
    /// two, with pieces of one copy and of many (the rods: 22 copies, five bits of the
    /// packed needs). Where states recur it visits fewer nodes: without symmetry reduction
    /// Soma 20% fewer, 6x10 13%; none on the rods, where no dead state recurs.
    #[test]
    fn dead_states_remembered_keep_every_solution() {
        let models = [
            ("soma", fixtures::model("soma"), 0.85),
            ("pentominoes-6x10", fixtures::model("pentominoes-6x10"), 0.9),
            ("rods 2x3x11", rods(11, 3, 2), 1.0),
        ];
        for (name, m, at_most) in models {
            let e = ExactEngine::new(&m).unwrap();
            let run = |memo: bool| {
                MEMO.with(|f| f.set(memo));
                let found = solutions(&e);
                MEMO.with(|f| f.set(true));
                found
            };
            let (with, without) = (run(true), run(false));
            assert!(!with.0.is_empty(), "{name}");
            assert_eq!(with.0, without.0, "{name}");
            let ratio = with.1 as f64 / without.1 as f64;
            eprintln!(
                "{name}: {} nodes remembering, {} not ({ratio:.3})",
                with.1, without.1
            );
            assert!(ratio <= at_most, "{name}: {} against {}", with.1, without.1);
        }
    }

    /// Every body of the leaf search this CPU runs visits the same nodes and finds the same
    /// solutions in the same order (one thread: the searches run on this thread), on boards
    /// of one word and of two. The bodies take different widths of option bitsets (a load of
    /// nine words is nine words wide with POPCNT, ten portable, twelve with AVX2 and sixteen
    /// with AVX-512), so this compares the widths too.
    #[test]
    fn every_body_agrees_with_the_baseline() {
        let bodies: Vec<SimdBody> = SimdBody::ALL
            .into_iter()
            .filter(|&b| {
                CAP.with(|c| c.set(b));
                let ok = body() == b;
                CAP.with(|c| c.set(SimdBody::Avx512));
                ok
            })
            .collect();
        eprintln!("leaf search bodies compared: {bodies:?}");
        let models = [
            ("soma", fixtures::model("soma"), None),
            (
                "pentominoes-6x10",
                fixtures::model("pentominoes-6x10"),
                None,
            ),
            ("rods 2x3x11", rods(11, 3, 2), Some(41 * 41)),
        ];
        for (name, m, count) in models {
            let e = ExactEngine::new(&m).unwrap();
            let run = |b: SimdBody| {
                CAP.with(|c| c.set(b));
                let found = solutions(&e);
                CAP.with(|c| c.set(SimdBody::Avx512));
                found
            };
            let baseline = run(SimdBody::Portable);
            assert!(!baseline.0.is_empty(), "{name}");
            if let Some(c) = count {
                assert_eq!(baseline.0.len(), c, "{name}");
            }
            for &b in &bodies[1..] {
                assert_eq!(run(b), baseline, "{name}, {b:?}");
            }
        }
    }
}
