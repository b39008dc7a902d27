//! The memoized engine's cache: one open-addressing table of fixed-width keys and counts,
//! bounded in bytes.

/// Slots of the first table.
const FIRST_SLOTS: usize = 1 << 10;
/// The most a table at its bound is filled, as a fraction: past it a new entry only
/// replaces one.
const FULL_LOAD: (usize, usize) = (7, 8);

/// Open addressing with linear probing over fixed-width keys: slot `s` holds its key in
/// `slots[s * (w + 1)..][..w]` and its count after it; `used` marks the taken slots.
pub(super) struct Cache {
    w: usize,
    slots: Vec<u64>,
    used: Vec<u64>,
    mask: usize,
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

    pub(super) fn new(w: usize, bound: u64) -> Cache {
        let mut c = Cache {
            w,
            slots: Vec::new(),
            used: Vec::new(),
            mask: 0,
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
        self.mask = n - 1;
    }

    pub(super) fn hash(key: &[u64]) -> usize {
        // FxHash's multiply-rotate, then the high bits folded down: keys are dense bitsets,
        // whose low bits alone would crowd a few slots.
        let mut h = 0u64;
        for &k in key {
            h = (h.rotate_left(5) ^ k).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        (h ^ (h >> 29)) as usize
    }

    pub(super) fn taken(&self, s: usize) -> bool {
        self.used[s / 64] >> (s % 64) & 1 == 1
    }

    pub(super) fn get(&self, key: &[u64]) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let mut s = Cache::hash(key) & self.mask;
        while self.taken(s) {
            let at = s * (self.w + 1);
            if &self.slots[at..at + self.w] == key {
                return Some(self.slots[at + self.w]);
            }
            s = (s + 1) & self.mask;
        }
        None
    }

    pub(super) fn insert(&mut self, key: &[u64], value: u64) {
        if self.slots.is_empty() {
            return;
        }
        let cap = self.mask + 1;
        if !self.full && (self.len + 1) * 4 > cap * 3 {
            // Grow only while the old and the new table fit the bound together.
            let grown = Cache::bytes(self.w, cap) + Cache::bytes(self.w, cap * 2);
            if grown > self.bound {
                self.full = true;
            } else {
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
            }
        }
        if self.full {
            self.replace(key, value);
        } else {
            self.place(key, value);
        }
    }

    /// A table at its bound keeps learning: the new entry takes its home slot, evicting the
    /// entry there (a search revisits the states near its current path most, so the newest
    /// entries are worth most). The slot stays taken, so every other key's probe run is
    /// unbroken; a free home slot is filled only up to [`FULL_LOAD`], so a probe always
    /// ends at a free slot.
    fn replace(&mut self, key: &[u64], value: u64) {
        let s = Cache::hash(key) & self.mask;
        if !self.taken(s) {
            if self.len * FULL_LOAD.1 < (self.mask + 1) * FULL_LOAD.0 {
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
        let mut s = Cache::hash(key) & self.mask;
        while self.taken(s) {
            s = (s + 1) & self.mask;
        }
        self.used[s / 64] |= 1 << (s % 64);
        let at = s * (self.w + 1);
        self.slots[at..at + self.w].copy_from_slice(key);
        self.slots[at + self.w] = value;
        self.len += 1;
    }
}
