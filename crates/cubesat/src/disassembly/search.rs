//! The search: breadth-first over positions, BurrTools' move order, and the recursion into the two parts of every separation (greedy as BurrTools, or complete).
//!
//! Read from BurrTools 0.7.1 (`disassembler_0.cpp`, `disassembler_a.cpp`,
//! `movementanalysator.cpp`); no code is taken from it. For one position of the pieces of a
//! part:
//!
//! 1. The pairwise limits ([`super::limits`]) fill, per slide axis of the grid (x, y, z on the
//!    cube grid; z and the three sides of the triangles on the prism grid), `lim[i][j]`: how
//!    far `i` can slide in the positive direction while `j` stays; `i` sliding the negative
//!    way is `lim[j][i]`.
//! 2. Moving piece `p` by `k` units in direction `d` drags every piece `j` it reaches through
//!    pieces that block at less than `k` (`p` pushes `x`, which pushes `j`): with `b[p][j]`
//!    the smallest largest limit on a chain from `p` to `j` (a min-max closure), the moving
//!    set is `p` and every `j` with `b[p][j] < k`.
//! 3. Moves are tried in BurrTools' order: for each direction (+x, -x, +y, -y, +z, -z on the
//!    cube grid; `2a` is +a, `2a + 1` is -a), each piece alone removed (it slides without end); then each piece removed with
//!    what it drags, if that is at most half of the pieces; then, direction by direction and
//!    piece by piece, steps of 1, 2, 3... units while the moving set stays at most half of the
//!    pieces, each new (set, step) followed by its unions with the earlier moves of the same
//!    direction and step (independent groups moving together). The other half never moves:
//!    its move is the opposite move of this half, the same position up to translation.
//! 4. A move whose heavier side (the largest shape weight) is the moving one is made by the
//!    other side in the opposite direction: the same position, drawn with the heavy side
//!    still; for a removal it decides which part counts as removed.
//!
//! Positions equal up to a translation of all pieces are one state. The first removal found
//! in breadth-first order is a separation reached in the fewest moves; its two parts start
//! from the position just before it. In BurrTools mode states are remembered for the last
//! three fronts only (as BurrTools does); in complete mode every state is remembered (the
//! same states: moves can always be undone, so a state met again is at most one front away).
//!
//! BurrTools takes the first separation as final: if one of its parts cannot be taken apart,
//! it rejects the assembly without trying another separation. That loses nothing, and the
//! complete search (an AND-OR search over every separation) may stop at that point too:
//!
//! *If the pieces of a position P come apart, so do the pieces of any subset Q of them from
//! P's positions.* Moves can be undone (sliding back sweeps the same cells), so P's pieces
//! come apart from every position reachable from P, and a plan that takes them apart,
//! restricted to the pieces of Q, is a plan for Q: a move of a set M slides M ∩ Q, which
//! meets nothing of Q that a move of M did not meet; the separating move of two parts A, B
//! separates A ∩ Q from B ∩ Q; and a part left together as one group leaves Q's pieces in it
//! together, which a group allows. So when a part Q of the first separation cannot be taken
//! apart, no separation of the whole can work, and BurrTools' rule accepts exactly the
//! assemblies that come apart. The tests check this against the search that does try every
//! separation ([`Searcher::exhaustive`]) on small assemblies.

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::grouping::{Grouping, PartGroups, same_group};
use super::limits::{FREE, LimitCache};
use super::{Halt, MAX_SEARCH_BYTES, Separation};
use crate::geometry::Cell;

/// A removal slides its pieces this far, BurrTools' "without end" (above every finite limit,
/// below [`FREE`]).
const OUT: u32 = 30_000;

/// One piece of the assembly as the search sees it.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    /// Interned shape of its cells.
    pub sid: u32,
    /// Smallest corner of its cells in the assembly.
    pub anchor: [i32; 3],
    /// The part (cubesat piece) it is a copy of.
    pub part: usize,
    /// The part's shape weight.
    pub weight: i32,
}

/// The unit step of direction `d` over slide axes `axes` (`2a` is `+axes[a]`, `2a + 1` its
/// opposite).
pub(crate) fn unit(axes: &[Cell], d: usize) -> Cell {
    let v = axes[d >> 1];
    if d & 1 == 0 { v } else { v.map(|x| -x) }
}

/// States of one part. A state is stored as the offset of its first piece from its
/// assembled place, then every other piece's offset relative to the first: two states are
/// the same position up to translation exactly when the relative parts are equal.
struct Arena {
    k: usize,
    /// `3 * k` entries per state: base offset, then relative offsets.
    data: Vec<i16>,
    parent: Vec<u32>,
    hash: Vec<u32>,
    /// The front (number of moves from the start) each state was put in.
    front: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// The hash of a state's relative offsets (four at a time).
fn hash_rel(rel: &[i16]) -> u32 {
    let mut h: u64 = 0x17fe_3b3c;
    let mut chunks = rel.chunks_exact(4);
    for c in &mut chunks {
        let w = c[0] as u16 as u64
            | (c[1] as u16 as u64) << 16
            | (c[2] as u16 as u64) << 32
            | (c[3] as u16 as u64) << 48;
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    for &x in chunks.remainder() {
        h = (h.rotate_left(23) ^ x as u16 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    ((h ^ (h >> 29)) >> 32) as u32 | 1
}

impl Arena {
    fn stored(&self, id: u32) -> &[i16] {
        let w = 3 * self.k;
        &self.data[id as usize * w..(id as usize + 1) * w]
    }

    /// The offsets of every piece in state `id`, written to `out` (3 per piece).
    fn offsets(&self, id: u32, out: &mut Vec<i16>) {
        let s = self.stored(id);
        out.clear();
        out.extend_from_slice(&s[..3]);
        for i in 1..self.k {
            for a in 0..3 {
                out.push(s[a] + s[3 * i + a]);
            }
        }
    }

    /// Turns offsets into the stored form (`out`, `3 * k` entries).
    fn encode(&self, pos: &[i16], out: &mut [i16]) {
        out[..3].copy_from_slice(&pos[..3]);
        for i in 1..self.k {
            for a in 0..3 {
                out[3 * i + a] = pos[3 * i + a] - pos[a];
            }
        }
    }

    /// Appends a state in stored form.
    fn push(&mut self, stored: &[i16], hash: u32, parent: u32, front: u32) -> u32 {
        self.data.extend_from_slice(stored);
        self.parent.push(parent);
        self.hash.push(hash);
        self.front.push(front);
        (self.parent.len() - 1) as u32
    }

    /// The positions from the part's start to state `id`, in order.
    fn path(&self, mut id: u32) -> Vec<Vec<[i32; 3]>> {
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while id != NONE {
            self.offsets(id, &mut buf);
            out.push(
                (0..self.k)
                    .map(|i| {
                        [
                            buf[3 * i] as i32,
                            buf[3 * i + 1] as i32,
                            buf[3 * i + 2] as i32,
                        ]
                    })
                    .collect(),
            );
            id = self.parent[id as usize];
        }
        out.reverse();
        out
    }
}

/// The states met so far, by position up to translation (open addressing over state ids).
#[derive(Default)]
struct StateTable {
    slots: Vec<u32>,
    len: usize,
}

impl StateTable {
    /// The slot of the stored state equal to `stored` (hash `hash`), or the empty slot where
    /// it would go.
    fn probe(&mut self, arena: &Arena, stored: &[i16], hash: u32) -> (usize, Option<u32>) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow(arena);
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match self.slots[i] {
                NONE => return (i, None),
                s if arena.hash[s as usize] == hash && arena.stored(s)[3..] == stored[3..] => {
                    return (i, Some(s));
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Puts `id` in slot `i` (from [`StateTable::probe`]), in place of what was there.
    fn put(&mut self, i: usize, id: u32) {
        if self.slots[i] == NONE {
            self.len += 1;
        }
        self.slots[i] = id;
    }

    fn grow(&mut self, arena: &Arena) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![NONE; (old.len() * 2).max(64)];
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != NONE) {
            let mut i = arena.hash[s as usize] as usize & mask;
            while self.slots[i] != NONE {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

/// Row stride of the frame's matrices: whole blocks of 16 entries, so that the closures'
/// inner loops run on full vectors.
fn stride(k: usize) -> usize {
    k.div_ceil(16).max(1) * 16
}

/// The move analysis of one position: closed limits and drag thresholds, per slide axis, as
/// `k` rows of `s` entries (the entries past `k` are padding that stays [`FREE`]). Entries are at
/// most [`FREE`], so they fit `i16`; sums saturate.
struct Frame {
    k: usize,
    s: usize,
    /// Slide axes.
    axes: usize,
    /// `lim[a*k*s + i*s + j]`: how far `i` slides +a while `j` stays.
    lim: Vec<i16>,
    /// `mm[d*k*s + p*s + j]`: moving `p` by a step above this in direction `d` drags `j`
    /// (the min-max closure of `lim`: the chain from `p` to `j` whose largest limit is the
    /// smallest; for -a the chains run the other way, the transpose).
    mm: Vec<i16>,
    /// Moves found in the current direction (set, step), for duplicates and unions.
    found: Vec<(u64, u32)>,
}

/// Bit `j` set for every entry `row[j] < step` (`row` is whole blocks of 16 entries).
#[inline]
fn lanes_below(row: &[i16], step: i16) -> u64 {
    let mut m = 0u64;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmplt_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16, _mm_set1_epi16,
        };
        for (c, chunk) in row.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is part of the x86_64 baseline, and both loads read 8 entries
            // inside `chunk` (16 entries).
            let bits = unsafe {
                let t = _mm_set1_epi16(step);
                let a = _mm_loadu_si128(chunk.as_ptr().cast());
                let b = _mm_loadu_si128(chunk.as_ptr().add(8).cast());
                _mm_movemask_epi8(_mm_packs_epi16(
                    _mm_cmplt_epi16(a, t),
                    _mm_cmplt_epi16(b, t),
                ))
            };
            m |= (bits as u16 as u64) << (16 * c);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (j, &v) in row.iter().enumerate() {
        m |= ((v < step) as u64) << j;
    }
    m
}

/// `row_i[j] = min(row_i[j], max(ix, row_x[j]))` (both rows whole blocks of 16 entries).
#[inline]
fn relax_max(row_i: &mut [i16], row_x: &[i16], ix: i16) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_loadu_si128, _mm_max_epi16, _mm_min_epi16, _mm_set1_epi16, _mm_storeu_si128,
        };
        for (ci, cx) in row_i.chunks_exact_mut(8).zip(row_x.chunks_exact(8)) {
            // SAFETY: SSE2 is part of the x86_64 baseline; each load and store covers the 8
            // entries of its chunk.
            unsafe {
                let v = _mm_min_epi16(
                    _mm_loadu_si128(ci.as_ptr().cast()),
                    _mm_max_epi16(_mm_set1_epi16(ix), _mm_loadu_si128(cx.as_ptr().cast())),
                );
                _mm_storeu_si128(ci.as_mut_ptr().cast(), v);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (e, &y) in row_i.iter_mut().zip(row_x) {
        *e = (*e).min(ix.max(y));
    }
}

/// Rows `i` and `x` (distinct) of a matrix with stride `s`, the first mutable.
#[inline]
fn two_rows(m: &mut [i16], s: usize, i: usize, x: usize) -> (&mut [i16], &[i16]) {
    if i < x {
        let (lo, hi) = m.split_at_mut(x * s);
        (&mut lo[i * s..i * s + s], &hi[..s])
    } else {
        let (lo, hi) = m.split_at_mut(i * s);
        (&mut hi[..s], &lo[x * s..x * s + s])
    }
}

impl Frame {
    fn new(k: usize, axes: usize) -> Frame {
        let s = stride(k);
        Frame {
            k,
            s,
            axes,
            lim: vec![FREE as i16; axes * k * s],
            mm: vec![FREE as i16; 2 * axes * k * s],
            found: Vec::new(),
        }
    }

    fn prepare(&mut self, items: &[Item], pieces: &[usize], pos: &[i16], cache: &mut LimitCache) {
        let (k, s, axes) = (self.k, self.s, self.axes);
        let ks = k * s;
        let at = |i: usize| {
            let it = &items[pieces[i]];
            [
                it.anchor[0] + pos[3 * i] as i32,
                it.anchor[1] + pos[3 * i + 1] as i32,
                it.anchor[2] + pos[3 * i + 2] as i32,
            ]
        };
        for i in 0..k {
            let pi = at(i);
            let si = items[pieces[i]].sid;
            for a in 0..axes {
                self.lim[a * ks + i * s + i] = 0;
            }
            for j in i + 1..k {
                let pj = at(j);
                let v = cache.get(
                    si,
                    items[pieces[j]].sid,
                    [pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2]],
                );
                for a in 0..axes {
                    self.lim[a * ks + i * s + j] = v[2 * a] as i16;
                    self.lim[a * ks + j * s + i] = v[2 * a + 1] as i16;
                }
            }
        }
        for a in 0..axes {
            // The drag thresholds for +a: the min-max closure of the limits (Floyd-Warshall;
            // the closure is unique, so its order does not matter). BurrTools first closes the
            // limits under min-plus and drags along chains of the closed limits; that gives
            // the same thresholds: a closed limit is the sum of limits along a chain, never
            // below the chain's largest limit, and never above the direct limit.
            let (plus, minus) = self.mm[2 * a * ks..(2 * a + 2) * ks].split_at_mut(ks);
            plus.copy_from_slice(&self.lim[a * ks..(a + 1) * ks]);
            for x in 0..k {
                for i in 0..k {
                    let ix = plus[i * s + x];
                    if i == x || ix as u32 >= OUT {
                        continue;
                    }
                    let (row_i, row_x) = two_rows(plus, s, i, x);
                    relax_max(row_i, row_x, ix);
                }
            }
            // ... and its transpose for -a.
            for i in 0..k {
                for j in 0..k {
                    minus[i * s + j] = plus[j * s + i];
                }
            }
        }
    }

    /// The pieces that move when `p` moves `step` units in direction `d`.
    #[inline]
    fn drag(&self, d: usize, p: usize, step: u32) -> u64 {
        let base = d * self.k * self.s + p * self.s;
        let row = &self.mm[base..base + self.s];
        let m = lanes_below(row, step.min(i16::MAX as u32) as i16);
        let all = if self.k == 64 {
            u64::MAX
        } else {
            (1u64 << self.k) - 1
        };
        (m & all) | 1 << p
    }

    /// The removals in BurrTools' order: (moving set, direction), each piece alone first,
    /// then with what it drags (at most half of the pieces).
    fn removals(&self, out: &mut Vec<(u64, usize)>) {
        out.clear();
        let half = (self.k / 2) as u32;
        for limit in [1, half] {
            for d in 0..2 * self.axes {
                for p in 0..self.k {
                    let m = self.drag(d, p, OUT);
                    if m.count_ones() <= limit {
                        out.push((m, d));
                    }
                }
            }
        }
    }
}

/// What one breadth-first search over the positions of a part reads while it expands a
/// state: the part, the move analysis of the loaded state and the buffers the phases share
/// (made once per part, so that expanding a state allocates nothing but new states).
struct Bfs<'p> {
    /// The part's pieces (item indices, ascending).
    pieces: &'p [usize],
    k: usize,
    /// The mask of all `k` pieces.
    full: u64,
    /// The pieces of the largest shape weight (see [`Bfs::orient`]).
    heavy: u64,
    /// The move analysis of the loaded state.
    frame: Frame,
    removals: Vec<(u64, usize)>,
    /// The sides already tried as removals from the loaded state.
    tried: Vec<u64>,
    /// The offsets of the loaded state.
    pos: Vec<i16>,
}

/// What making a move writes: the states met and the fronts. Kept apart from [`Bfs`] (and
/// in a local of its own) so that a move borrows only this, and the expansion's own fields
/// stay in registers across the moves it makes.
struct StateStore {
    arena: Arena,
    /// Every state met, with the front it was put in. BurrTools mode remembers the last
    /// three fronts only: a state met again from an older front counts as new.
    table: StateTable,
    /// Moves from the start to the states of `front`.
    depth: u32,
    front: Vec<u32>,
    next: Vec<u32>,
    /// A move's scratch: the moved offsets, then their stored form.
    child: Vec<i16>,
}

impl<'p> Bfs<'p> {
    fn new(items: &[Item], pieces: &'p [usize], axes: usize) -> Result<Self, Halt> {
        let k = pieces.len();
        if k > 64 {
            return Err(Halt::TooManyPieces(k));
        }
        let top = pieces.iter().map(|&i| items[i].weight).max().unwrap_or(0);
        let heavy: u64 = (0..k)
            .filter(|&i| items[pieces[i]].weight == top)
            .fold(0, |m, i| m | 1 << i);
        Ok(Bfs {
            pieces,
            k,
            full: if k == 64 { u64::MAX } else { (1u64 << k) - 1 },
            heavy,
            frame: Frame::new(k, axes),
            removals: Vec::new(),
            tried: Vec::new(),
            pos: Vec::with_capacity(3 * k),
        })
    }

    /// Which pieces move, and which way, for a move of set `m` in direction `d`: the side
    /// holding the heaviest pieces stays (when every heaviest piece is in `m`, the others
    /// move the opposite way).
    #[inline]
    fn orient(&self, m: u64, d: usize) -> (u64, usize) {
        if self.heavy & !m == 0 {
            (self.full & !m, d ^ 1)
        } else {
            (m, d)
        }
    }

    /// Loads state `node`: its offsets and the move analysis of its position.
    #[inline]
    fn load(&mut self, arena: &Arena, node: u32, items: &[Item], cache: &mut LimitCache) {
        arena.offsets(node, &mut self.pos);
        self.frame.prepare(items, self.pieces, &self.pos, cache);
    }

    /// The span of the loaded position along each slide axis, in unit steps: a step that
    /// long takes any set clear of the rest.
    #[inline]
    fn span(&self, items: &[Item], cache: &LimitCache, axes: &[Cell], out: &mut [u32]) {
        for (a, s) in out.iter_mut().enumerate() {
            let v = axes[a];
            let (mut lo, mut hi) = (i32::MAX, i32::MIN);
            // A shape's cells moved by `o` sit `t(o)` steps further along the axis's lines,
            // or one more where the step's leading coordinate is not ±1 (the remainders add).
            let lead = v.iter().find(|&&x| x != 0).map_or(1, |x| x.abs());
            for i in 0..self.k {
                let it = &items[self.pieces[i]];
                let o = [0, 1, 2].map(|x| it.anchor[x] + self.pos[3 * i + x] as i32);
                let (_, t) = cache.line(a, o);
                let (tlo, thi) = cache.steps(it.sid, a);
                lo = lo.min(t + tlo);
                hi = hi.max(t + thi + lead - 1);
            }
            *s = (hi - lo + 1).max(1) as u32;
        }
    }
}

impl StateStore {
    /// The search's set-up: the start position as the first state, alone in the first front.
    fn new(start: &[[i32; 3]]) -> Result<Self, Halt> {
        let k = start.len();
        let mut arena = Arena {
            k,
            data: Vec::new(),
            parent: Vec::new(),
            hash: Vec::new(),
            front: Vec::new(),
        };
        let mut first = Vec::with_capacity(3 * k);
        for s in start {
            for &c in s {
                first.push(to16(c)?);
            }
        }
        let mut stored = vec![0i16; 3 * k];
        arena.encode(&first, &mut stored);
        let h = hash_rel(&stored[3..]);
        arena.push(&stored, h, NONE, 0);
        let mut table = StateTable::default();
        let (slot, _) = table.probe(&arena, &stored, h);
        table.put(slot, 0);
        Ok(StateStore {
            arena,
            table,
            depth: 0,
            front: vec![0],
            next: Vec::new(),
            child: vec![0i16; 6 * k],
        })
    }

    /// Moves on to the next front; false when it is empty (the part does not come apart).
    fn advance(&mut self) -> bool {
        if self.next.is_empty() {
            return false;
        }
        std::mem::swap(&mut self.front, &mut self.next);
        self.next.clear();
        self.depth += 1;
        true
    }
}

/// A part analysed before: its result and the offset of its first piece then.
pub(crate) type Memo = (Option<Separation>, [i32; 3]);

/// What a search needs besides the part it is given.
pub(crate) struct Searcher<'a> {
    pub items: &'a [Item],
    /// The grid's slide axes.
    pub axes: &'a [Cell],
    pub cache: &'a mut LimitCache,
    pub groups: &'a [PartGroups],
    pub grouping: Grouping,
    /// Complete mode: every state is remembered (else the last three fronts, as BurrTools).
    pub complete: bool,
    /// Try every separation until one works, instead of stopping at the first whose part
    /// fails (which is enough: see the module documentation; for the tests of that claim).
    pub exhaustive: bool,
    /// With `exhaustive`: results of parts already analysed, by pieces and relative position
    /// (the offsets of their first state are kept to shift a stored result).
    pub memo: Option<HashMap<Vec<i32>, Memo>>,
    /// Stop above this many states in all (whole assembly).
    pub max_states: u64,
    /// States stored so far.
    pub states: u64,
    pub stop: &'a dyn Fn() -> bool,
}

impl Searcher<'_> {
    /// Analyses the part made of `pieces` (item indices, ascending) starting at offsets
    /// `start`: the separation tree, or `None` when it cannot be taken apart.
    pub(crate) fn part(
        &mut self,
        pieces: &[usize],
        start: &[[i32; 3]],
    ) -> Result<Option<Separation>, Halt> {
        let key = self.memo.as_ref().map(|_| memo_key(pieces, start));
        if let (Some(memo), Some(key)) = (&self.memo, &key)
            && let Some((found, origin)) = memo.get(key)
        {
            let shift = [
                start[0][0] - origin[0],
                start[0][1] - origin[1],
                start[0][2] - origin[2],
            ];
            return Ok(found.as_ref().map(|s| s.shifted(shift)));
        }
        let found = self.bfs(pieces, start)?;
        if let (Some(memo), Some(key)) = (&mut self.memo, key) {
            memo.insert(key, (found.clone(), start[0]));
        }
        Ok(found)
    }

    /// Accepts a part that needs no (further) separation: one piece, or pieces of one group;
    /// after a failed analysis, pieces that can be assigned one group.
    fn trivial(&self, pieces: &[usize]) -> bool {
        pieces.len() == 1
            || same_group(self.groups, pieces.iter().map(|&i| self.items[i].part)).is_some()
    }

    /// One side of a separation: `Some(tree or None)` when it comes apart (or needs
    /// nothing), `None` when it does not.
    fn side(
        &mut self,
        pieces: &[usize],
        start: &[[i32; 3]],
    ) -> Result<Option<Option<Box<Separation>>>, Halt> {
        if self.trivial(pieces) {
            return Ok(Some(None));
        }
        if let Some(s) = self.part(pieces, start)? {
            return Ok(Some(Some(Box::new(s))));
        }
        let parts: Vec<usize> = pieces.iter().map(|&i| self.items[i].part).collect();
        Ok(if self.grouping.accept(&parts) {
            Some(None)
        } else {
            None
        })
    }

    /// The two parts of the separation that removes `removed` (a mask over `pieces`) from the
    /// position `path.last()`: both analysed, the part left behind first (BurrTools' order).
    fn separate(
        &mut self,
        pieces: &[usize],
        path: Vec<Vec<[i32; 3]>>,
        removed: u64,
        dir: usize,
    ) -> Result<Option<Separation>, Halt> {
        let last = path.last().cloned().unwrap_or_default();
        let split = |gone: bool| -> (Vec<usize>, Vec<[i32; 3]>) {
            (0..pieces.len())
                .filter(|&i| (removed >> i & 1 == 1) == gone)
                .map(|i| (pieces[i], last[i]))
                .unzip()
        };
        let (lp, ls) = split(false);
        let Some(left) = self.side(&lp, &ls)? else {
            return Ok(None);
        };
        let (rp, rs) = split(true);
        let Some(gone) = self.side(&rp, &rs)? else {
            return Ok(None);
        };
        Ok(Some(Separation {
            pieces: pieces.to_vec(),
            path,
            removed: (0..pieces.len()).map(|i| removed >> i & 1 == 1).collect(),
            direction: dir as u8,
            left,
            removed_part: gone,
        }))
    }

    fn check_halt(&self) -> Result<(), Halt> {
        if self.states > self.max_states {
            return Err(Halt::TooManyStates(self.max_states));
        }
        if (self.stop)() {
            return Err(Halt::Interrupted);
        }
        Ok(())
    }

    /// The breadth-first search over the positions of a part: front by front, each state
    /// first tried for a removal, then expanded by every smaller move.
    fn bfs(&mut self, pieces: &[usize], start: &[[i32; 3]]) -> Result<Option<Separation>, Halt> {
        let mut run = Bfs::new(self.items, pieces, self.axes.len())?;
        let mut store = StateStore::new(start)?;
        self.states += 1;
        loop {
            for f in 0..store.front.len() {
                let node = store.front[f];
                self.check_halt()?;
                run.load(&store.arena, node, self.items, self.cache);
                if let ControlFlow::Break(found) =
                    self.try_removals(&mut run, &store.arena, node)?
                {
                    return Ok(found);
                }
                self.expand(&mut run, &mut store, node)?;
            }
            if !store.advance() {
                return Ok(None);
            }
        }
    }

    /// Recording a found separation: tries the removals from the loaded state `node` in
    /// BurrTools' order, each side once. Breaks with the first separation's verdict (in
    /// exhaustive mode, with the first separation whose parts come apart).
    #[inline]
    fn try_removals(
        &mut self,
        run: &mut Bfs,
        arena: &Arena,
        node: u32,
    ) -> Result<ControlFlow<Option<Separation>>, Halt> {
        run.frame.removals(&mut run.removals);
        run.tried.clear();
        for &(m, d) in &run.removals {
            let (gone, dir) = run.orient(m, d);
            let side = gone.min(run.full & !gone);
            if run.tried.contains(&side) {
                continue;
            }
            run.tried.push(side);
            let path = arena.path(node);
            let before = self.exhaustive.then(|| self.grouping.clone());
            let found = self.separate(run.pieces, path, gone, dir)?;
            if found.is_some() || !self.exhaustive {
                return Ok(ControlFlow::Break(found));
            }
            if let Some(g) = before {
                self.grouping = g;
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Expanding one state: from the loaded state `node`, direction by direction and piece by
    /// piece, steps of 1, 2, ... while at most half of the pieces move (and, for a set that
    /// could leave, until it is clear of the rest); each new state joins the next front.
    #[inline]
    fn expand(&mut self, run: &mut Bfs, store: &mut StateStore, node: u32) -> Result<(), Halt> {
        let mut span = [0u32; super::limits::MAX_AXES];
        let span = &mut span[..self.axes.len()];
        run.span(self.items, self.cache, self.axes, span);
        let half = (run.k / 2) as u32;
        for d in 0..2 * self.axes.len() {
            run.frame.found.clear();
            for p in 0..run.k {
                let top = span[d >> 1];
                let mut step = 1;
                loop {
                    let m = run.frame.drag(d, p, step);
                    if step > top || m.count_ones() > half {
                        break;
                    }
                    if !run.frame.found.contains(&(m, step)) {
                        self.slide(run, store, node, m, d, step)?;
                    }
                    step += 1;
                }
            }
        }
        Ok(())
    }

    /// A new move of set `m` by `step` in direction `d`, then its unions with the earlier
    /// moves of the same direction and step (independent groups moving together), each
    /// made once.
    #[inline]
    fn slide(
        &mut self,
        run: &mut Bfs,
        store: &mut StateStore,
        node: u32,
        m: u64,
        d: usize,
        step: u32,
    ) -> Result<(), Halt> {
        run.frame.found.push((m, step));
        let end = run.frame.found.len() - 1;
        self.visit(store, node, &run.pos, run.orient(m, d), step)?;
        for q in (0..end).rev() {
            let (m2, s2) = run.frame.found[q];
            if s2 != step {
                continue;
            }
            let u = m | m2;
            if u == m || u == m2 || u == run.full || run.frame.found.contains(&(u, step)) {
                continue;
            }
            run.frame.found.push((u, step));
            self.visit(store, node, &run.pos, run.orient(u, d), step)?;
        }
        Ok(())
    }

    /// Makes the move of set `m` by `step` in direction `d` from `node` (at offsets `pos`);
    /// keeps the new state unless one of the remembered fronts holds it.
    fn visit(
        &mut self,
        store: &mut StateStore,
        node: u32,
        pos: &[i16],
        (m, d): (u64, usize),
        step: u32,
    ) -> Result<(), Halt> {
        let StateStore {
            arena,
            table,
            depth,
            next,
            child,
            ..
        } = store;
        let depth = *depth;
        let u = unit(self.axes, d);
        let w = 3 * arena.k;
        let (moved, stored) = child.split_at_mut(w);
        moved.copy_from_slice(pos);
        for i in 0..arena.k {
            if m >> i & 1 == 1 {
                for a in 0..3 {
                    moved[3 * i + a] = to16(pos[3 * i + a] as i32 + u[a] * step as i32)?;
                }
            }
        }
        arena.encode(moved, stored);
        let hash = hash_rel(&stored[3..]);
        let (slot, known) = table.probe(arena, stored, hash);
        let fresh = match known {
            None => true,
            Some(_) if self.complete => false,
            // BurrTools keeps the fronts before (depth - 1), at and after this one.
            Some(s) => arena.front[s as usize] + 1 < depth,
        };
        if fresh {
            let id = arena.push(stored, hash, node, depth + 1);
            table.put(slot, id);
            next.push(id);
            self.states += 1;
            // Per state: its positions, parent, hash and front, a queue entry and about two
            // table slots.
            if (id as u64 + 1) * (6 * arena.k as u64 + 24) > MAX_SEARCH_BYTES {
                return Err(Halt::TooMuchMemory(MAX_SEARCH_BYTES));
            }
            if self.states & 0xfff == 0 {
                self.check_halt()?;
            }
        }
        Ok(())
    }
}

/// Offsets must fit BurrTools' 16-bit positions.
fn to16(v: i32) -> Result<i16, Halt> {
    i16::try_from(v)
        .ok()
        .filter(|v| v.abs() < 32_000)
        .ok_or(Halt::TooFar)
}

/// The memo key of a part: its pieces, then every piece's offset relative to the first.
fn memo_key(pieces: &[usize], start: &[[i32; 3]]) -> Vec<i32> {
    let mut key: Vec<i32> = pieces.iter().map(|&p| p as i32).collect();
    for s in start {
        for a in 0..3 {
            key.push(s[a] - start[0][a]);
        }
    }
    key
}
