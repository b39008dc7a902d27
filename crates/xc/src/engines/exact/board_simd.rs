//! The AVX-512 steps of loading a leaf board: a 64x64 bit-matrix transpose (VBMI and GFNI)
//! that turns the options' cell masks into the cells' option sets, and byte compares that
//! give each slot's option set (x86-64 only).
//!
//! Setting one bit per option and cell, as the portable load does, is a read-modify-write of
//! the same few words over and over: neighbouring options share cells, so every store waits
//! for the one before it. The transpose instead moves whole registers: one byte permutation
//! gathers each 8x8 bit block into a word, one GF(2) affine instruction transposes the
//! bits of every block, and three rounds of unpacks interleave the blocks' bytes.

use std::arch::x86_64::*;

/// Whether this CPU runs [`transpose`].
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("gfni")
}

/// The bytes of register `k` (rows `8k..8k+8`, row `r` at bytes `8r..8r+8`) regrouped so that
/// word `b` holds byte `b` of the eight rows, the last row first (the affine instruction
/// reads its matrix rows from the top byte down).
const GATHER: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (b, p) = (i / 8, i % 8);
        idx[i] = (8 * (7 - p) + b) as u8;
        i += 1;
    }
    idx
};

/// Where [`transpose`]'s unpacks leave row `c` of the transpose, as an index into its output:
/// within each 128-bit lane the three unpack rounds take bytes 0-7 or 8-15, then 0-3 or 4-7
/// of those, then 0-1 or 2-3, and the lane's two rows land side by side.
pub(crate) const POS: [u8; 64] = {
    let mut pos = [0u8; 64];
    let mut reg = 0;
    while reg < 8 {
        let base = 8 * (reg >> 2) + 4 * ((reg >> 1) & 1) + 2 * (reg & 1);
        let mut lane = 0;
        while lane < 4 {
            let mut e = 0;
            while e < 2 {
                pos[16 * lane + base + e] = (8 * reg + 2 * lane + e) as u8;
                e += 1;
            }
            lane += 1;
        }
        reg += 1;
    }
    pos
};

/// Transposes `rows` (bit `c` of row `r`) into `out`: bit `r` of `out[POS[c]]` is bit `c` of
/// `rows[r]`.
///
/// # Safety
/// The CPU must have the features [`available`] checks.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub(crate) unsafe fn transpose(rows: &[u64; 64], out: &mut [u64; 64]) {
    // SAFETY: `GATHER` holds 64 bytes.
    let gather = unsafe { _mm512_loadu_si512(GATHER.as_ptr().cast()) };
    // Byte i of every word is 1 << i: output byte i takes bit i of each matrix row.
    let pick = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    // r[k], byte c: bits c of rows 8k..8k+8, that is byte k of row c of the transpose.
    let r: [__m512i; 8] = std::array::from_fn(|k| {
        // SAFETY: `rows` holds 64 words, so words 8k..8k+8 are in bounds.
        let v = unsafe { _mm512_loadu_si512(rows.as_ptr().add(8 * k).cast()) };
        _mm512_gf2p8affine_epi64_epi8::<0>(pick, _mm512_permutexvar_epi8(gather, v))
    });
    // Interleave bytes, then pairs, then quads: each output word gathers byte c of r[0..8].
    let b: [__m512i; 8] = std::array::from_fn(|i| {
        let (x, y) = (r[2 * (i % 4)], r[2 * (i % 4) + 1]);
        if i < 4 {
            _mm512_unpacklo_epi8(x, y)
        } else {
            _mm512_unpackhi_epi8(x, y)
        }
    });
    // b[0..4]: bytes 0-7 of each lane of (r0, r1), (r2, r3), ...; b[4..8]: bytes 8-15.
    let w: [__m512i; 8] = std::array::from_fn(|i| {
        let h = 4 * (i / 4);
        let (x, y) = if i % 4 < 2 {
            (b[h], b[h + 1])
        } else {
            (b[h + 2], b[h + 3])
        };
        if i % 2 == 0 {
            _mm512_unpacklo_epi16(x, y)
        } else {
            _mm512_unpackhi_epi16(x, y)
        }
    });
    // w[0], w[1]: each lane's bytes 0-3 and 4-7 of r[0..4]; w[2], w[3] the same of r[4..8];
    // w[4..8] the same for bytes 8-15.
    let q: [__m512i; 8] = std::array::from_fn(|reg| {
        // reg = 4 * half + 2 * quad + pair: half of the lane, quad of the half, pair of the quad.
        let (half, quad, pair) = (reg >> 2, (reg >> 1) & 1, reg & 1);
        let (x, y) = (w[4 * half + quad], w[4 * half + 2 + quad]);
        if pair == 0 {
            _mm512_unpacklo_epi32(x, y)
        } else {
            _mm512_unpackhi_epi32(x, y)
        }
    });
    for (k, v) in q.iter().enumerate() {
        // SAFETY: `out` holds 64 words, so words 8k..8k+8 are in bounds.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(8 * k).cast(), *v) };
    }
}

/// `out[s]`: the bits of the bytes of `bytes` equal to `s`, for every `s < out.len()`.
///
/// # Safety
/// The CPU must have the features [`available`] checks.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn equal_bytes(bytes: &[u8; 64], out: &mut [u64]) {
    // SAFETY: `bytes` holds 64 bytes.
    let v = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
    for (s, o) in out.iter_mut().enumerate() {
        *o = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(s as i8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bit lands where [`POS`] says, on random matrices and on each single bit.
    #[test]
    fn transposes_every_bit() {
        if !available() {
            eprintln!("no AVX-512 VBMI and GFNI on this CPU: the transpose is not used");
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut cases: Vec<[u64; 64]> = (0..64)
            .map(|_| std::array::from_fn(|_| next() & next()))
            .collect();
        for r in 0..64 {
            for c in 0..64 {
                let mut m = [0u64; 64];
                m[r] = 1 << c;
                cases.push(m);
            }
        }
        let mut seen = [false; 64];
        for &p in &POS {
            seen[p as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "POS is a permutation");
        for rows in cases {
            let mut out = [0u64; 64];
            // SAFETY: `available` said the CPU has the features.
            unsafe { transpose(&rows, &mut out) };
            for c in 0..64 {
                let want = (0..64).fold(0u64, |t, r| t | (rows[r] >> c & 1) << r);
                assert_eq!(out[POS[c] as usize], want, "row {c}");
            }
        }
    }

    #[test]
    fn equal_bytes_marks_each_value() {
        if !available() {
            eprintln!("no AVX-512 VBMI and GFNI on this CPU: the byte compares are not used");
            return;
        }
        let bytes: [u8; 64] = std::array::from_fn(|i| [3, 0, 200, 1, 3][i % 5]);
        let mut out = [0u64; 5];
        // SAFETY: `available` said the CPU has the features.
        unsafe { equal_bytes(&bytes, &mut out) };
        for (s, &o) in out.iter().enumerate() {
            let want = (0..64).fold(0u64, |m, i| m | u64::from(bytes[i] == s as u8) << i);
            assert_eq!(o, want, "value {s}");
        }
    }
}
