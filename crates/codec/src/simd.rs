//! The instruction-set level the SIMD kernels may use: what the processor has, capped by the
//! program (`UTF8KIT_FORCE_IMPL`, which the programs read; the crate reads no environment).
//!
//! Every kernel gives the answer of the portable code, so a cap changes only the speed: it lets
//! one machine measure (and test) every level it has.
//!
//! ```
//! use utf8kit_codec::simd::{self, Level};
//! assert!(simd::detected() >= Level::Portable);
//! assert!(simd::allows(Level::Portable));
//! assert_eq!(Level::parse("avx2"), Some(Level::Avx2));
//! assert_eq!(Level::parse("sse"), None);
//! ```

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

/// A level of the kernels: each allows the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Level {
    /// No SIMD beyond what the compiler makes of portable code.
    Portable,
    /// SSE2 to AVX2 (256-bit).
    Avx2,
    /// AVX-512 F, BW and VBMI (64-byte steps).
    Avx512,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: &'static [Level] = &[Level::Portable, Level::Avx2, Level::Avx512];

    /// The name `UTF8KIT_FORCE_IMPL` takes: `portable`, `avx2`, `avx512`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// The level of a name, `None` for an unknown one.
    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL
            .iter()
            .copied()
            .find(|level| level.as_str() == name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The highest level this processor has.
pub fn detected() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
        {
            return Level::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Level::Avx2;
        }
    }
    Level::Portable
}

/// No cap: every kernel the processor can run.
const UNCAPPED: u8 = u8::MAX;

static CAP: AtomicU8 = AtomicU8::new(UNCAPPED);

/// Why a cap was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// The level asked for.
    pub asked: Level,
    /// The highest this processor has.
    pub detected: Level,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "this processor has no {} (its highest level is {})",
            self.asked, self.detected
        )
    }
}

impl std::error::Error for LevelError {}

/// Caps the kernels at `level` from now on, for the whole process.
///
/// # Errors
///
/// The processor lacks `level`.
pub fn cap(level: Level) -> Result<(), LevelError> {
    let detected = detected();
    if level > detected {
        return Err(LevelError {
            asked: level,
            detected,
        });
    }
    CAP.store(level as u8, Ordering::Relaxed);
    Ok(())
}

/// Whether the cap lets kernels of `level` run (each kernel still checks that the processor has
/// its instructions). Kernels of SSE2 to SSSE3 count as [`Level::Avx2`].
#[inline]
pub fn allows(level: Level) -> bool {
    level == Level::Portable || CAP.load(Ordering::Relaxed) >= level as u8
}

/// The level the kernels run at: what the processor has, at most the cap.
pub fn level() -> Level {
    let cap = CAP.load(Ordering::Relaxed);
    Level::ALL
        .iter()
        .copied()
        .rfind(|&level| level <= detected() && (cap == UNCAPPED || level as u8 <= cap))
        .unwrap_or(Level::Portable)
}

/// Whether this processor has AVX2 and the cap allows it. std caches the answer.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    allows(Level::Avx2) && std::is_x86_feature_detected!("avx2")
}

/// Whether this processor has AVX-512 BW (and so F) and the cap allows AVX-512.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx512bw() -> bool {
    allows(Level::Avx512) && std::is_x86_feature_detected!("avx512bw")
}

/// Whether this processor has AVX-512 F, BW and VBMI and the cap allows AVX-512: what the
/// 64-byte paths that permute bytes need (the validator, the mojibake line filter).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx512_vbmi() -> bool {
    allows(Level::Avx512)
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}
