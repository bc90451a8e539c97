//! Validation 64 bytes at a time with AVX-512: the lookup algorithm of simdutf8 (Keiser and
//! Lemire, "Validating UTF-8 in less than one instruction per byte"), on vectors twice as wide
//! as its AVX2 path. Each byte is checked against the one, two and three before it: three
//! 16-entry tables, indexed by the high and low nibble of the byte before and the high nibble
//! of the byte itself, each give the errors the pair may be part of, and the errors that all
//! three agree on are real; a separate test asks that the second and third byte after a 3- or
//! 4-byte lead be continuation bytes. Blocks of ASCII only ask whether the block before ended
//! inside a character, and after one, ASCII is passed over four blocks at a time (a block at a
//! time, plain ASCII was 5% slower than simdutf8; now it is level).
//!
//! It answers where the input is surely well-formed up to: [`super::validate`] gives the exact
//! error from there with simdutf8, so the answer is the standard library's either way. On text
//! that is not ASCII it checks twice as many bytes per instruction as simdutf8's AVX2 path
//! (about 44 GB/s against 22 in a core's cache on the machines we measure on), which is what
//! lets the threads of `utf8check` on one big file outrun `cat`: their time is the kernel's
//! copy plus this.

use std::arch::x86_64::{
    __m512i, _mm_loadu_si128, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_loadu_si512,
    _mm512_maskz_loadu_epi8, _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutex2var_epi8,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_srli_epi16,
    _mm512_subs_epu8, _mm512_ternarylogic_epi64, _mm512_test_epi8_mask, _mm512_xor_si512,
};

// The error bits of the tables: each names a way a pair of bytes can be wrong. A pair is wrong
// when a bit is set in all three lookups.
/// A lead byte followed by one that is no continuation byte (or a lead after a lead).
const TOO_SHORT: u8 = 1 << 0;
/// A continuation byte after ASCII.
const TOO_LONG: u8 = 1 << 1;
/// E0 followed by 80..9F.
const OVERLONG_3: u8 = 1 << 2;
/// F4 followed by 90..BF, or F5..FF followed by anything.
const TOO_LARGE: u8 = 1 << 3;
/// ED followed by A0..BF.
const SURROGATE: u8 = 1 << 4;
/// C0 or C1 followed by a continuation byte.
const OVERLONG_2: u8 = 1 << 5;
/// F5..FF followed by 80..8F (its other seconds are TOO_LARGE).
const TOO_LARGE_1000: u8 = 1 << 6;
/// F0 followed by 80..8F: shares its bit with TOO_LARGE_1000, as the lead's low nibble tells
/// the two apart.
const OVERLONG_4: u8 = 1 << 6;
/// Two continuation bytes in a row: an error unless the second or third byte of a 3- or
/// 4-byte character, which the separate test of [`well_formed_prefix`] flips.
const TWO_CONTS: u8 = 1 << 7;
/// The errors the first byte's high nibble tells alone: its low nibble passes them through.
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// By the high nibble of the first byte of a pair.
const FIRST_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// By the low nibble of the first byte of a pair.
const FIRST_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// By the high nibble of the second byte of a pair.
const SECOND_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// The indexes that take, from the previous block followed by this one (128 bytes, the
/// previous at 0..64), the byte `N` places before each byte of this one.
const fn before(n: usize) -> [u8; 64] {
    let mut index = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        index[i] = (64 + i - n) as u8;
        i += 1;
    }
    index
}

static BEFORE: [[u8; 64]; 3] = [before(1), before(2), before(3)];

/// What each of a block's last three bytes may be without ending the block inside a
/// character: below F0, E0 and C0 for the third, second and last byte; anything before them.
static UNFINISHED_ABOVE: [u8; 64] = {
    let mut most = [0xFF; 64];
    most[61] = 0xF0 - 1;
    most[62] = 0xE0 - 1;
    most[63] = 0xC0 - 1;
    most
};

/// A 16-entry table in each 128-bit lane, for `_mm512_shuffle_epi8`.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes(table: &[u8; 16]) -> __m512i {
    // SAFETY: `table` is 16 readable bytes; the load has no alignment need.
    unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast())) }
}

/// 64 bytes of a static table.
#[inline]
#[target_feature(enable = "avx512f")]
fn load64(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: `bytes` is 64 readable bytes; the load has no alignment need.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// A place at or before the first error of `bytes` up to which they are surely well-formed:
/// `bytes.len()` when they are well-formed, otherwise the start of the last character that
/// begins before the 64-byte block where the error shows (or 0).
///
/// # Safety
///
/// The processor must have AVX-512 F, BW and VBMI ([`crate::simd::has_avx512_vbmi`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn well_formed_prefix(bytes: &[u8]) -> usize {
    let first_high = lanes(&FIRST_HIGH);
    let first_low = lanes(&FIRST_LOW);
    let second_high = lanes(&SECOND_HIGH);
    let nibble = _mm512_set1_epi8(0x0F);
    let [before1, before2, before3] = BEFORE.each_ref().map(|index| load64(index));
    let unfinished_above = load64(&UNFINISHED_ABOVE);
    let third_lead = _mm512_set1_epi8((0xE0u8 - 0x80) as i8);
    let fourth_lead = _mm512_set1_epi8((0xF0u8 - 0x80) as i8);
    let high_bit = _mm512_set1_epi8(0x80u8 as i8);

    let mut previous = _mm512_setzero_si512();
    // Set in the last three places when the previous block ends inside a character.
    let mut unfinished = _mm512_setzero_si512();
    let mut at = 0;
    while at < bytes.len() {
        let left = bytes.len() - at;
        let input = if left >= 64 {
            // SAFETY: the 64 bytes from `at` are inside `bytes`.
            unsafe { _mm512_loadu_si512(bytes.as_ptr().add(at).cast()) }
        } else {
            // The last block: the bytes past the end read as 0 (ASCII), so that a character
            // the input ends inside shows as one cut short. The mask keeps the load inside
            // `bytes`: masked-out bytes are never read.
            let mask = (1u64 << left) - 1;
            // SAFETY: only the `left` bytes from `at`, all inside `bytes`, are read.
            unsafe { _mm512_maskz_loadu_epi8(mask, bytes.as_ptr().add(at).cast()) }
        };
        if _mm512_movepi8_mask(input) == 0 {
            // ASCII only: wrong exactly when the block before ended inside a character.
            if _mm512_test_epi8_mask(unfinished, unfinished) != 0 {
                return last_start_before(bytes, at);
            }
            // A run of ASCII is likely to go on: four blocks at a time, one test for them.
            at += 64;
            previous = input;
            unfinished = _mm512_setzero_si512();
            while at + 256 <= bytes.len() {
                // SAFETY: the 256 bytes from `at` are inside `bytes`.
                let [a, b, c, d] = [0, 64, 128, 192]
                    .map(|k| unsafe { _mm512_loadu_si512(bytes.as_ptr().add(at + k).cast()) });
                if _mm512_movepi8_mask(_mm512_or_si512(
                    _mm512_or_si512(a, b),
                    _mm512_or_si512(c, d),
                )) != 0
                {
                    break;
                }
                previous = d;
                at += 256;
            }
            continue;
        }
        let error = {
            let prev1 = _mm512_permutex2var_epi8(previous, before1, input);
            let prev2 = _mm512_permutex2var_epi8(previous, before2, input);
            let prev3 = _mm512_permutex2var_epi8(previous, before3, input);
            let high1 = _mm512_and_si512(_mm512_srli_epi16::<4>(prev1), nibble);
            let low1 = _mm512_and_si512(prev1, nibble);
            let high = _mm512_and_si512(_mm512_srli_epi16::<4>(input), nibble);
            // 0x80: the bits set in all three lookups.
            let special = _mm512_ternarylogic_epi64::<0x80>(
                _mm512_shuffle_epi8(first_high, high1),
                _mm512_shuffle_epi8(first_low, low1),
                _mm512_shuffle_epi8(second_high, high),
            );
            // The second and third bytes after a 3- or 4-byte lead must be continuation bytes:
            // exactly those places have the high bit here, and TWO_CONTS there.
            let must_continue = _mm512_and_si512(
                _mm512_or_si512(
                    _mm512_subs_epu8(prev2, third_lead),
                    _mm512_subs_epu8(prev3, fourth_lead),
                ),
                high_bit,
            );
            unfinished = _mm512_subs_epu8(input, unfinished_above);
            _mm512_xor_si512(must_continue, special)
        };
        if _mm512_test_epi8_mask(error, error) != 0 {
            return last_start_before(bytes, at);
        }
        previous = input;
        at += 64;
    }
    if _mm512_test_epi8_mask(unfinished, unfinished) != 0 {
        return last_start_before(bytes, at.min(bytes.len()));
    }
    bytes.len()
}

/// The start of the last character that begins before `at`: the last byte among the four
/// before it that is no continuation byte (a character is at most four bytes long), or 0.
fn last_start_before(bytes: &[u8], at: usize) -> usize {
    (at.saturating_sub(4)..at)
        .rev()
        .find(|&i| bytes[i] & 0xC0 != 0x80)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prefix for `bytes`, on a processor that has the path.
    fn prefix(bytes: &[u8]) -> Option<usize> {
        // SAFETY: the processor has AVX-512 F, BW and VBMI, checked first.
        crate::simd::has_avx512_vbmi().then(|| unsafe { well_formed_prefix(bytes) })
    }

    #[test]
    fn the_prefix_ends_at_the_last_character_before_the_block_with_the_error() {
        if !crate::simd::has_avx512_vbmi() {
            eprintln!("this processor has no AVX-512 F, BW and VBMI: nothing to test");
            return;
        }
        let emoji = "😀".repeat(16).into_bytes();
        // An error in the second block: the last character before it is whole, and starts 4
        // bytes before the block.
        let with = |tail: &[u8]| [&emoji[..], tail].concat();
        assert_eq!(prefix(&with(b"\xFF")), Some(60));
        assert_eq!(prefix(&with(b"ok\x80")), Some(60));
        // The first block ends inside a character (it starts at 62) that the second does not
        // finish, or that the end of the input cuts, in the second block or at its start.
        let cut = |len: usize, tail: &[u8]| [b"ab", &emoji[..len], tail].concat();
        assert_eq!(prefix(&cut(62, b"a")), Some(62));
        assert_eq!(prefix(&cut(63, b"")), Some(62));
        assert_eq!(prefix(&cut(62, b"")), Some(62));
        assert_eq!(prefix(&cut(64, b"")), Some(66));
        assert_eq!(prefix(&emoji[..64]), Some(64));
        // An error in the first block, and none.
        assert_eq!(prefix(b"\xC0\xAF"), Some(0));
        assert_eq!(prefix(&with("é".as_bytes())), Some(66));
        assert_eq!(prefix(b""), Some(0));
    }
}
