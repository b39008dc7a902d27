//! The memoized engine's cache: one open-addressing table of fixed-width keys and counts,
//! bounded in bytes.

/// Slots of the first table.
const FIRST_SLOTS: usize = 1 << 10;
/// The most a table is filled before it grows, as a fraction.
const GROW_LOAD: (usize, usize) = (3, 4);
/// The most a table at its bound is filled, as a fraction: past it a new entry only
/// replaces one, and a probe always ends at a free slot (short: linear probing's misses
/// cost about 8 probes at this load, 32 at seven eighths).
const FULL_LOAD: (usize, usize) = (3, 4);

/// Open addressing with linear probing over fixed-width keys: slot `s` holds its key in
/// `slots[s * (w + 1)..][..w]` and its count after it; `used` marks the taken slots. A key's
/// home slot is its hash scaled to the table (any size, not only powers of two).
///
/// Growth: the table doubles, rehashing its entries, while the old and the new table fit
/// the bound together; then it grows once more through a packed list of its entries (see
/// [`Cache::grow`]), so that a bound of B bytes ends with a table of about B / 2 to B
/// rather than B / 3. At that size it is full: a new entry replaces the one at its home
/// slot.
pub(super) struct Cache {
    w: usize,
    slots: Vec<u64>,
    used: Vec<u64>,
    cap: usize,
    pub(super) len: usize,
    bound: u64,
    pub(super) peak: u64,
    pub(super) full: bool,
    /// Entries replaced since the table reached its bound.
    pub(super) evicted: u64,
}

impl Cache {
    pub(super) fn bytes(w: usize, slots: usize) -> u64 {
        (slots as u64 * (w as u64 + 1) + (slots as u64).div_ceil(64)) * 8
    }

    /// The most slots a table of `w`-word keys may have in `bytes`.
    fn slots_within(w: usize, bytes: u64) -> usize {
        // Each slot takes w + 1 words and a bit; the bitset's last word is the rounding.
        let per = (w as u64 + 1) * 64 + 1;
        (bytes.saturating_sub(8) * 8 / per) as usize
    }

    pub(super) fn new(w: usize, bound: u64) -> Cache {
        let mut c = Cache {
            w,
            slots: Vec::new(),
            used: Vec::new(),
            cap: 0,
            len: 0,
            bound,
            peak: 0,
            full: false,
            evicted: 0,
        };
        if Cache::bytes(w, FIRST_SLOTS) <= bound {
            c.alloc(FIRST_SLOTS);
            c.peak = Cache::bytes(w, FIRST_SLOTS);
        } else {
            c.full = true;
        }
        c
    }

    pub(super) fn alloc(&mut self, n: usize) {
        self.slots = vec![0; n * (self.w + 1)];
        self.used = vec![0; n.div_ceil(64)];
        self.cap = n;
    }

    pub(super) fn hash(key: &[u64]) -> u64 {
        // FxHash's multiply-rotate, then the high bits folded down: keys are dense bitsets,
        // whose low bits alone would crowd a few slots.
        let mut h = 0u64;
        for &k in key {
            h = (h.rotate_left(5) ^ k).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h ^ (h >> 29)
    }

    /// The home slot of `key`: its hash scaled to the table (Lemire's multiply-shift).
    fn home(&self, key: &[u64]) -> usize {
        ((u128::from(Cache::hash(key)) * self.cap as u128) >> 64) as usize
    }

    fn next(&self, s: usize) -> usize {
        if s + 1 == self.cap { 0 } else { s + 1 }
    }

    pub(super) fn taken(&self, s: usize) -> bool {
        self.used[s / 64] >> (s % 64) & 1 == 1
    }

    pub(super) fn get(&self, key: &[u64]) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let mut s = self.home(key);
        while self.taken(s) {
            let at = s * (self.w + 1);
            if &self.slots[at..at + self.w] == key {
                return Some(self.slots[at + self.w]);
            }
            s = self.next(s);
        }
        None
    }

    pub(super) fn insert(&mut self, key: &[u64], value: u64) {
        if self.slots.is_empty() {
            return;
        }
        if !self.full && (self.len + 1) * GROW_LOAD.1 > self.cap * GROW_LOAD.0 {
            self.grow();
        }
        if self.full {
            self.replace(key, value);
        } else {
            self.place(key, value);
        }
    }

    /// Doubles the table while the old and the new fit the bound together. Past that, the
    /// entries are packed into a list, the old table freed, and the largest table that fits
    /// beside the list is filled from it, once, when the packing fits beside the old table
    /// and the new table is worth a quarter more slots. Then the table is full.
    fn grow(&mut self) {
        let cap = self.cap;
        let old = Cache::bytes(self.w, cap);
        let grown = old + Cache::bytes(self.w, cap * 2);
        if grown <= self.bound {
            self.peak = self.peak.max(grown);
            let (slots, used) = (
                std::mem::take(&mut self.slots),
                std::mem::take(&mut self.used),
            );
            self.alloc(cap * 2);
            self.len = 0;
            for s in 0..cap {
                if used[s / 64] >> (s % 64) & 1 == 1 {
                    let at = s * (self.w + 1);
                    self.place(&slots[at..at + self.w], slots[at + self.w]);
                }
            }
            return;
        }
        self.full = true;
        let packed = self.len as u64 * (self.w as u64 + 1) * 8;
        let last = Cache::slots_within(self.w, self.bound.saturating_sub(packed));
        if old + packed > self.bound || last < cap + cap / 4 {
            return;
        }
        let mut list = Vec::with_capacity(self.len * (self.w + 1));
        for s in 0..cap {
            if self.taken(s) {
                let at = s * (self.w + 1);
                list.extend_from_slice(&self.slots[at..at + self.w + 1]);
            }
        }
        self.slots = Vec::new();
        self.used = Vec::new();
        self.alloc(last);
        self.len = 0;
        self.peak = self
            .peak
            .max(old + packed)
            .max(packed + Cache::bytes(self.w, last));
        for e in list.chunks_exact(self.w + 1) {
            self.place(&e[..self.w], e[self.w]);
        }
    }

    /// A table at its bound keeps learning: the new entry takes its home slot, evicting the
    /// entry there (a search revisits the states near its current path most, so the newest
    /// entries are worth most). The slot stays taken, so every other key's probe run is
    /// unbroken; a free home slot is filled only up to [`FULL_LOAD`].
    fn replace(&mut self, key: &[u64], value: u64) {
        let s = self.home(key);
        if !self.taken(s) {
            if self.len * FULL_LOAD.1 < self.cap * FULL_LOAD.0 {
                self.place(key, value);
            }
            return;
        }
        let at = s * (self.w + 1);
        self.slots[at..at + self.w].copy_from_slice(key);
        self.slots[at + self.w] = value;
        self.evicted += 1;
    }

    pub(super) fn place(&mut self, key: &[u64], value: u64) {
        let mut s = self.home(key);
        while self.taken(s) {
            s = self.next(s);
        }
        self.used[s / 64] |= 1 << (s % 64);
        let at = s * (self.w + 1);
        self.slots[at..at + self.w].copy_from_slice(key);
        self.slots[at + self.w] = value;
        self.len += 1;
    }
}
