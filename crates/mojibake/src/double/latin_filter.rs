//! Which lines may hold CJK text read as windows-1252 or Latin-1: two characters side by side
//! that are bytes 80..FF in those encodings, found 64 bytes at a time.

use super::filter::{LOW, ONES, gather, with_neighbours, words_of, zero_bytes};
use crate::bytes::byte_in;

/// Where in `text` (well-formed UTF-8) such a line may start: two characters side by side that
/// are both bytes 80..FF in windows-1252 or Latin-1, one of them in Latin-1's upper half or a
/// C1 control; or Shift_JIS's lead of katakana (83, `ƒ`) or a C1 control before a byte 40..7E
/// (`ƒtƒ@ƒCƒ‹` is `ファイル`: Shift_JIS pairs many a lead with an ASCII byte).
///
/// 64 bytes at a time (AVX-512, AVX2, or eight bytes at a time): a block's masks give the
/// places that may begin one ([`CandidateMasks`]), each then asked on its own; clean text,
/// whose accented letters stand between ASCII letters, seldom has one.
pub(crate) fn first_latin_suspect(text: &[u8]) -> Option<usize> {
    crate::simd::walk_at_best_level!(
        first_latin_suspect_with(text: &[u8]),
        portable_candidate_masks,
        avx2_candidate_masks,
        avx512_candidate_masks
    )
}

/// [`first_latin_suspect`] with the block masks of one SIMD level.
#[inline(always)]
pub(super) fn first_latin_suspect_with(text: &[u8], masks: CandidateMasks) -> Option<usize> {
    // A block judges its bytes 1..=61, whose neighbours it holds; the first byte on its own.
    const INNER: u64 = ((1 << 62) - 1) & !1;
    if text
        .first()
        .is_some_and(|&b| matches!(b, 0xC2 | 0xC3 | 0xC6))
        && is_suspect_at(text, 0)
    {
        return Some(0);
    }
    let mut start = 0;
    while let Some(block) = text.get(start..start + 64) {
        let bits = masks(block.try_into().expect("64 bytes")) & INNER;
        let found =
            crate::simd::first_of_bits(start, bits, |i| is_suspect_at(text, i).then_some(i));
        if found.is_some() {
            return found;
        }
        start += 61;
    }
    bytewise_from(text, start + 1)
}

/// [`first_latin_suspect`] from `from` on (a byte that begins a character or continues one),
/// asking at each byte C2, C3 or C6: what the block walk must find.
pub(super) fn bytewise_from(text: &[u8], from: usize) -> Option<usize> {
    let mut at = from.min(text.len());
    while let Some(i) = memchr::memchr3(0xC2, 0xC3, 0xC6, &text[at..]) {
        let i = at + i;
        if is_suspect_at(text, i) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// Whether a line of such mojibake may begin at `i`, a byte C2, C3 or C6.
fn is_suspect_at(text: &[u8], i: usize) -> bool {
    if text[i] == 0xC2 && text.get(i + 1) == Some(&0xA0) {
        return false;
    }
    let lead_before_ascii = (text[i] == 0xC2 && text.get(i + 1).is_some_and(|&b| b < 0xA0)
        || text[i] == 0xC6 && text.get(i + 1) == Some(&0x92))
        && text.get(i + 2).is_some_and(|b| (0x40..=0x7E).contains(b));
    lead_before_ascii
        || (text[i] != 0xC6 || text.get(i + 1) == Some(&0x92))
            && (text
                .get(i + 2)
                .is_some_and(|&b| is_byte_lead(b) && one_byte_at(text, i + 2))
                || (i > 0 && one_byte_before(text, i)))
}

/// The places of a block of 64 bytes where [`is_suspect_at`] may hold, a bit each (at least
/// those of bytes 1..=61): a byte C2, C3 or C6 with a byte above 7F right before it or two
/// after it, a C2 before a byte 80..9F, a C6 before 92.
pub(super) type CandidateMasks = fn(&[u8; 64]) -> u64;

/// The candidates from the masks of a block's high bytes, its bytes C2, C3 or C6, C2, C6, its
/// bytes 80..9F and its bytes 92.
fn candidates(high: u64, leads: u64, c2: u64, c6: u64, c1: u64, x92: u64) -> u64 {
    leads & (high >> 2 | high << 1) | c2 & c1 >> 1 | c6 & x92 >> 1
}

/// [`CandidateMasks`] eight bytes at a time.
pub(super) fn portable_candidate_masks(block: &[u8; 64]) -> u64 {
    let words = words_of(block);
    let lead_masks = words.map(|w| {
        let (c2, c6) = (zero_bytes(w ^ (ONES * 0xC2)), zero_bytes(w ^ (ONES * 0xC6)));
        (c2, c6, c2 | zero_bytes(w ^ (ONES * 0xC3)) | c6)
    });
    // Every candidate is a byte C2, C3 or C6: only the words with one and those beside them are
    // looked at (none in Cyrillic or CJK text).
    let with_leads = (0..8).fold(0u32, |bits, k| bits | u32::from(lead_masks[k].2 != 0) << k);
    if with_leads == 0 {
        return 0;
    }
    let wanted = with_neighbours(with_leads);
    let mut m = [0u64; 6];
    for (k, (&w, &(c2, c6, leads))) in words.iter().zip(&lead_masks).enumerate() {
        if wanted >> k & 1 == 0 {
            continue;
        }
        let words = [
            w & !LOW,
            leads,
            c2,
            c6,
            zero_bytes((w & (ONES * 0xE0)) ^ (ONES * 0x80)),
            zero_bytes(w ^ (ONES * 0x92)),
        ];
        for (mask, word) in m.iter_mut().zip(words) {
            *mask |= gather(word) << (8 * k);
        }
    }
    candidates(m[0], m[1], m[2], m[3], m[4], m[5])
}

/// [`CandidateMasks`] with AVX2.
#[cfg(target_arch = "x86_64")]
pub(super) fn avx2_candidate_masks(block: &[u8; 64]) -> u64 {
    #[target_feature(enable = "avx2")]
    fn masks(block: &[u8; 64]) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: the block holds 64 bytes: two unaligned loads of 32 read inside it.
        let [a, b] = unsafe {
            [
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block.as_ptr().add(32).cast()),
            ]
        };
        let bits = |lo: __m256i, hi: __m256i| {
            u64::from(_mm256_movemask_epi8(lo) as u32)
                | u64::from(_mm256_movemask_epi8(hi) as u32) << 32
        };
        let equal = |byte: u8| {
            let v = _mm256_set1_epi8(byte as i8);
            bits(_mm256_cmpeq_epi8(a, v), _mm256_cmpeq_epi8(b, v))
        };
        let top = _mm256_set1_epi8(0xE0u8 as i8);
        let c1 = _mm256_set1_epi8(0x80u8 as i8);
        let (c2, c6) = (equal(0xC2), equal(0xC6));
        candidates(
            bits(a, b),
            c2 | equal(0xC3) | c6,
            c2,
            c6,
            bits(
                _mm256_cmpeq_epi8(_mm256_and_si256(a, top), c1),
                _mm256_cmpeq_epi8(_mm256_and_si256(b, top), c1),
            ),
            equal(0x92),
        )
    }
    // SAFETY: `candidate_masks` chooses this path only when the processor has AVX2.
    unsafe { masks(block) }
}

/// [`CandidateMasks`] with AVX-512 BW.
#[cfg(target_arch = "x86_64")]
pub(super) fn avx512_candidate_masks(block: &[u8; 64]) -> u64 {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn masks(block: &[u8; 64]) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: the block holds 64 bytes: one unaligned load of 64 reads inside it.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let equal = |byte: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8));
        let (c2, c6) = (equal(0xC2), equal(0xC6));
        candidates(
            _mm512_movepi8_mask(v),
            c2 | equal(0xC3) | c6,
            c2,
            c6,
            _mm512_cmpeq_epi8_mask(
                _mm512_and_si512(v, _mm512_set1_epi8(0xE0u8 as i8)),
                _mm512_set1_epi8(0x80u8 as i8),
            ),
            equal(0x92),
        )
    }
    // SAFETY: `candidate_masks` chooses this path only when the processor has AVX-512 BW.
    unsafe { masks(block) }
}

/// Whether `b` leads a character that windows-1252 or Latin-1 may hold above 7F.
fn is_byte_lead(b: u8) -> bool {
    matches!(b, 0xC2 | 0xC3 | 0xC5 | 0xC6 | 0xCB | 0xE2)
}

/// Whether the character at `i` is one that windows-1252 or Latin-1 reads a byte 80..FF as, but
/// for the no-break space that French writes against `«` and `:` (byte A0 stands in no pair of
/// the common rows) and the apostrophe of `l’été`.
fn one_byte_at(text: &[u8], i: usize) -> bool {
    let len = if text[i] == 0xE2 { 3 } else { 2 };
    text.get(i..i + len)
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
        .is_some_and(|c| !matches!(c, '\u{A0}' | '’') && latin_byte(c).is_some())
}

/// Whether the character that ends right before `i` is one [`one_byte_at`] accepts.
fn one_byte_before(text: &[u8], i: usize) -> bool {
    (2..=3).any(|len| {
        i >= len
            && is_byte_lead(text[i - len])
            && (text[i - len] == 0xE2) == (len == 3)
            && one_byte_at(text, i - len)
    })
}

/// The byte `c` stands for, read as windows-1252 (its undefined bytes kept as C1 controls) or
/// as Latin-1, and whether only Latin-1 reads it so; `None` for ASCII and the rest.
pub(super) fn latin_byte(c: char) -> Option<(u8, bool)> {
    let cp = u32::from(c);
    if c.is_ascii() {
        return None;
    }
    if (0x80..=0x9F).contains(&cp) {
        // windows-1252 leaves five bytes undefined, which its sloppy decoders keep as these.
        return Some((cp as u8, ![0x81, 0x8D, 0x8F, 0x90, 0x9D].contains(&cp)));
    }
    match byte_in(c, 0) {
        0 => None,
        b => Some((b, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn levels() -> Vec<(&'static str, CandidateMasks)> {
        crate::simd::levels_here!(
            portable_candidate_masks,
            avx2_candidate_masks,
            avx512_candidate_masks
        )
    }

    /// Text of the characters the filter tells apart: ASCII letters and signs, Latin-1's
    /// letters, windows-1252's signs, C1 controls, `ƒ`, Latin Extended, CJK.
    fn texts() -> impl Strategy<Value = String> {
        crate::simd::texts_of("ab@~ \nÄãºÃÊÀ½çé¤ƒ•‰‚¯’“\u{81}\u{8e}\u{9e}ǅļ中文ア")
    }

    proptest! {
        /// Every level's block walk finds what the walk a byte at a time finds.
        #[test]
        fn every_simd_level_finds_what_the_bytewise_walk_finds(text in texts(), cut in 0usize..64) {
            // Each start within a block, so every byte sits at every place of one.
            let text = &text.as_bytes()[cut.min(text.len())..];
            let text = &text[text.iter().position(|&b| b & 0xC0 != 0x80).unwrap_or(text.len())..];
            let want = bytewise_from(text, 0);
            for (name, masks) in levels() {
                prop_assert_eq!(first_latin_suspect_with(text, masks), want, "{}", name);
            }
        }
    }

    proptest! {
        /// Every level's masks of a block of such text are the portable ones, which look only
        /// at the words with a lead and those beside them.
        #[test]
        fn every_level_gives_the_portable_masks_of_any_block(text in texts(), cut in 0usize..64) {
            let bytes = text.as_bytes();
            let block = crate::simd::block_from(&bytes[cut.min(bytes.len())..]);
            let want = portable_candidate_masks(&block);
            for (name, masks) in levels() {
                prop_assert_eq!(masks(&block), want, "{}", name);
            }
        }
    }

    #[test]
    fn every_level_gives_the_portable_candidates() {
        let text = "xxÄãºÃÊÀ½ç ƒtƒ@ \u{8e}\u{9e}( é é ü aß ".repeat(3);
        let mut block = [0u8; 64];
        block.copy_from_slice(&text.as_bytes()[..64]);
        let want = portable_candidate_masks(&block);
        assert_ne!(want, 0);
        for (name, masks) in levels() {
            assert_eq!(masks(&block), want, "{name}");
        }
    }
}
