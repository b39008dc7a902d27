//! The leaf search's compiled bodies (portable, POPCNT, AVX2, AVX-512): the CPU features each
//! needs, the fastest one this CPU runs, and the process-wide choice a binary may make (the
//! `cubesat` binary's `CUBESAT_SIMD`).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::error::{Error, Result};

/// One compiled body of the leaf search. Every body visits the same nodes and reports the
/// same solutions in the same order; they differ in speed only. By default the leaf search
/// takes the fastest body the CPU runs ([`SimdBody::best`]); [`set_simd_body`] forces one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdBody {
    /// The target's baseline instructions only (any architecture).
    Portable,
    /// x86-64 with POPCNT (x86-64-v2: Intel since Nehalem, AMD since Barcelona).
    Popcnt,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (x86-64-v3: Intel since Haswell, AMD
    /// since Zen; Intel's desktops and laptops whose AVX-512 is disabled).
    Avx2,
    /// The AVX2 body's features plus AVX-512 F, VL, BW and VPOPCNTDQ (Intel since Ice Lake,
    /// AMD since Zen 4). Where the CPU also has AVX-512 VBMI and GFNI, boards are loaded with
    /// a bit-matrix transpose.
    Avx512,
}

impl SimdBody {
    /// Every body, from the most portable.
    pub const ALL: [SimdBody; 4] = [
        SimdBody::Portable,
        SimdBody::Popcnt,
        SimdBody::Avx2,
        SimdBody::Avx512,
    ];

    /// The body's name, as [`FromStr`] reads it: `portable`, `popcnt`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            SimdBody::Portable => "portable",
            SimdBody::Popcnt => "popcnt",
            SimdBody::Avx2 => "avx2",
            SimdBody::Avx512 => "avx512",
        }
    }

    /// The CPU features the body is compiled with (the names of
    /// `std::is_x86_feature_detected!`).
    pub fn features(self) -> &'static [&'static str] {
        const AVX2: &[&str] = &["popcnt", "avx2", "bmi1", "bmi2", "lzcnt"];
        match self {
            SimdBody::Portable => &[],
            SimdBody::Popcnt => &["popcnt"],
            SimdBody::Avx2 => AVX2,
            SimdBody::Avx512 => &[
                "popcnt",
                "avx2",
                "bmi1",
                "bmi2",
                "lzcnt",
                "avx512f",
                "avx512vl",
                "avx512bw",
                "avx512vpopcntdq",
            ],
        }
    }

    /// The features of [`SimdBody::features`] this CPU lacks: empty when it runs the body.
    pub fn missing(self) -> Vec<&'static str> {
        self.features()
            .iter()
            .copied()
            .filter(|f| !has_feature(f))
            .collect()
    }

    /// The fastest body this CPU runs.
    pub fn best() -> SimdBody {
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        match BEST.load(Ordering::Relaxed) {
            u8::MAX => {
                let best = SimdBody::ALL
                    .into_iter()
                    .rev()
                    .find(|b| b.missing().is_empty())
                    .unwrap_or(SimdBody::Portable);
                BEST.store(best as u8, Ordering::Relaxed);
                best
            }
            b => SimdBody::ALL[b as usize],
        }
    }
}

impl fmt::Display for SimdBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimdBody {
    type Err = Error;

    fn from_str(s: &str) -> Result<SimdBody> {
        SimdBody::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| Error::UnknownName {
                what: "leaf search body",
                name: s.to_string(),
                expected: "portable, popcnt, avx2, avx512".to_string(),
            })
    }
}

/// Whether this CPU has `feature` (false for every feature off x86-64).
fn has_feature(feature: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match feature {
            "popcnt" => std::is_x86_feature_detected!("popcnt"),
            "avx2" => std::is_x86_feature_detected!("avx2"),
            "bmi1" => std::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::is_x86_feature_detected!("bmi2"),
            "lzcnt" => std::is_x86_feature_detected!("lzcnt"),
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
            "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
            "avx512vpopcntdq" => std::is_x86_feature_detected!("avx512vpopcntdq"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = feature;
        false
    }
}

/// The body every leaf search of this process takes: `u8::MAX` for the fastest the CPU runs,
/// else a [`SimdBody`] as `u8`.
static CHOSEN: AtomicU8 = AtomicU8::new(u8::MAX);

/// Makes every later leaf search of this process take `body`, or with `None` the fastest body
/// the CPU runs (the default). A body the CPU lacks a feature of is refused
/// ([`Error::CpuLacks`]).
pub fn set_simd_body(body: Option<SimdBody>) -> Result<()> {
    if let Some(b) = body {
        let missing = b.missing();
        if !missing.is_empty() {
            return Err(Error::CpuLacks {
                what: format!("the {b} leaf search"),
                missing: missing.join(", "),
            });
        }
    }
    CHOSEN.store(body.map_or(u8::MAX, |b| b as u8), Ordering::Relaxed);
    Ok(())
}

/// The body the leaf searches of this process take ([`set_simd_body`]).
pub fn simd_body() -> SimdBody {
    match CHOSEN.load(Ordering::Relaxed) {
        u8::MAX => SimdBody::best(),
        b => SimdBody::ALL[b as usize],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for b in SimdBody::ALL {
            assert_eq!(b.name().parse::<SimdBody>().unwrap(), b);
        }
        let e = "avx".parse::<SimdBody>().unwrap_err().to_string();
        assert!(
            e.contains("\"avx\"") && e.contains("portable, popcnt, avx2, avx512"),
            "{e}"
        );
        assert!(SimdBody::Portable.missing().is_empty());
        assert!(SimdBody::best().missing().is_empty());
        // Each body's features include the previous one's.
        for w in SimdBody::ALL.windows(2) {
            assert!(w[0].features().iter().all(|f| w[1].features().contains(f)));
        }
    }
}
