//! Which SIMD paths this processor may take.

/// Whether this processor has AVX-512 F, BW and VBMI, which every 64-byte SIMD path of the
/// crate needs (the line filter, the shortcut's counts). std caches the answer.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512_vbmi() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}
