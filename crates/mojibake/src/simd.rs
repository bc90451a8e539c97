//! Which SIMD paths this processor may take.

// The processor checks, with the program's cap, are the codec's.
#[cfg(target_arch = "x86_64")]
pub(crate) use utf8kit_codec::simd::{has_avx2, has_avx512_vbmi, has_avx512bw};

/// The first answer `take` gives for the places `from + k`, `k` each set bit of `bits` from
/// the lowest up: how a block walk asks about the places its masks found one by one.
#[inline(always)]
pub(crate) fn first_of_bits(
    from: usize,
    mut bits: u64,
    mut take: impl FnMut(usize) -> Option<usize>,
) -> Option<usize> {
    while bits != 0 {
        if let Some(found) = take(from + bits.trailing_zeros() as usize) {
            return Some(found);
        }
        bits &= bits - 1;
    }
    None
}

/// A block filter's masks: 64 bytes in, the masks of type `T` out.
/// The answer of `$walk`, a block walk that takes the block masks of one SIMD level last,
/// called with `$args` and the masks of the highest level this processor has and the program
/// allows (`$avx512`, `$avx2`, else `$portable`). Each level's walk is compiled with its
/// instructions, so that the masks of each block are inlined into it rather than called.
macro_rules! walk_at_best_level {
    ($walk:ident($($arg:ident: $ty:ty),*), $portable:path, $avx2:path, $avx512:path) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,avx512bw")]
            fn avx512($($arg: $ty),*) -> Option<usize> {
                $walk($($arg,)* $avx512)
            }
            #[target_feature(enable = "avx2")]
            fn avx2($($arg: $ty),*) -> Option<usize> {
                $walk($($arg,)* $avx2)
            }
            if crate::simd::has_avx512bw() {
                // SAFETY: the processor has AVX-512 BW (and so F), checked just above.
                return unsafe { avx512($($arg),*) };
            }
            if crate::simd::has_avx2() {
                // SAFETY: the processor has AVX2, checked just above.
                return unsafe { avx2($($arg),*) };
            }
        }
        $walk($($arg,)* $portable)
    }};
}
pub(crate) use walk_at_best_level;

#[cfg(test)]
pub(crate) type BlockFn<T> = fn(&[u8; 64]) -> T;

/// The block-mask functions of each level this processor has ([`block_levels`]); on another
/// architecture the portable one alone, its SIMD twins not being built there.
#[cfg(test)]
macro_rules! levels_here {
    ($portable:expr, $avx2:expr, $avx512bw:expr) => {{
        #[cfg(target_arch = "x86_64")]
        let levels = crate::simd::block_levels($portable, $avx2, $avx512bw);
        #[cfg(not(target_arch = "x86_64"))]
        let levels = vec![("portable", $portable as crate::simd::BlockFn<_>)];
        levels
    }};
}
#[cfg(test)]
pub(crate) use levels_here;

/// The first 64 bytes of `bytes` as a block, zeros past their end: the block a property test
/// holds every level's masks to the portable ones on.
#[cfg(test)]
pub(crate) fn block_from(bytes: &[u8]) -> [u8; 64] {
    let mut block = [0u8; 64];
    let n = bytes.len().min(64);
    block[..n].copy_from_slice(&bytes[..n]);
    block
}

/// Random text of the characters in `pool`, up to 300 of them: what a filter's property test
/// holds every level to the byte-at-a-time walk on.
#[cfg(test)]
pub(crate) fn texts_of(pool: &str) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    let pool: Vec<char> = pool.chars().collect();
    proptest::collection::vec(proptest::sample::select(pool), 0..300)
        .prop_map(|chars| chars.into_iter().collect())
}

/// The block-mask functions (64 bytes in, masks out) of each level this processor has,
/// portable first, for the tests that hold every level to the portable one.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn block_levels<T>(
    portable: BlockFn<T>,
    avx2: BlockFn<T>,
    avx512bw: BlockFn<T>,
) -> Vec<(&'static str, BlockFn<T>)> {
    let mut levels = vec![("portable", portable)];
    if std::is_x86_feature_detected!("avx2") {
        levels.push(("avx2", avx2));
    }
    if std::is_x86_feature_detected!("avx512bw") {
        levels.push(("avx512", avx512bw));
    }
    levels
}
