//! The quick count 64 bytes at a time, for the three commonest kinds of line read back into
//! windows-1252:
//!
//! - lines whose characters beyond ASCII all have three bytes in UTF-8 with a lead E0..ED (CJK,
//!   kana, Hangul, the scripts of India, Thai), each group answered by a few tests of bytes;
//! - lines whose characters beyond ASCII are letters of one script among Greek, Cyrillic,
//!   Armenian and Arabic, of two bytes, each group answered by its class and its neighbours;
//! - lines whose characters beyond ASCII are accented letters of Latin (leads C3..C8), each
//!   group answered by its class, its lead and the bytes beside it.
//!
//! Most mojibake of those scripts is such a line. The walk a group at a time took 4 ns for each
//! group of three bytes, and 10 ns for each of two; here a block of 64 bytes takes a few
//! masks. Where a line is of none of these kinds, or a group of it needs more than those tests,
//! the count here says nothing and the walk decides.

use super::PairTable;
use utf8kit_codec::unit::is_continuation;

/// The count of whichever of the three kinds the line may be, by its first byte beyond ASCII
/// (a lead of three bytes, or of two), or `None`: the others would say nothing.
pub(super) fn count_by_blocks(bytes: &[u8], pairs: &PairTable) -> Option<usize> {
    let first = bytes.iter().position(|&b| b >= 0x80)?;
    match bytes[first] {
        0xE0..=0xED => count_wide_groups(bytes),
        0xC2..=0xDF => {
            count_pair_groups(bytes, first, pairs).or_else(|| count_latin_groups(bytes, pairs))
        }
        _ => None,
    }
}

/// [`super::count_surely_clear_groups`] of `bytes` when every byte beyond ASCII is in a group
/// of three bytes that its tests answer by bytes alone, else `None` (which says nothing: the
/// walk decides). Such a group:
///
/// - has a lead E0..ED and two continuation bytes, and is no overlong form (E0 and a second
///   byte 80..9F) and no surrogate (ED and A0..BF): it decodes to a character that is text
///   (no control, private-use character or noncharacter: those start with EE or EF);
/// - has a second byte other than A0 and BB (no-break space and guillemet in windows-1252);
/// - has no ASCII letter just before it or just after it;
/// - if it may be a capital (its lead is E1, E2 or EA), has no lowercase letter of
///   windows-1252 just before it (the bytes 80..BF of ƒ š œ ž ª µ º; ASCII ones are letters
///   already), after which a capital decodes oddly.
///
/// The walk accepts each such group as clear mojibake that decodes to nothing odd, so that the
/// count is the number of groups (when there is one). A test holds the two to each other.
pub(super) fn count_wide_groups(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx512bw() {
            // SAFETY: the processor has AVX-512 F and BW (BW implies F), checked just above.
            return unsafe { avx512::count_wide_groups(bytes) };
        }
    }
    by_byte(bytes)
}

/// The bytes 80..BF that windows-1252 reads as a lowercase letter (a test checks the list).
const LOWER_CONTINUATIONS: [u8; 7] = [0x83, 0x9A, 0x9C, 0x9E, 0xAA, 0xB5, 0xBA];

/// The leads E0..ED of the capitals of three bytes: Georgian, Cherokee, the Latin and Greek
/// letters of E1, the letterlike signs, Roman numerals and circled letters of E2, the Cyrillic
/// and Latin letters of EA (a test checks that no other lead begins a capital).
const CAPITAL_LEADS: [u8; 3] = [0xE1, 0xE2, 0xEA];

/// [`count_wide_groups`] a byte at a time: what the SIMD path computes, the same way.
fn by_byte(bytes: &[u8]) -> Option<usize> {
    let mut groups = 0;
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        if lead < 0x80 {
            at += 1;
            continue;
        }
        let &[second, third] = bytes.get(at + 1..at + 3)? else {
            return None;
        };
        let prev = at.checked_sub(1).map_or(0, |p| bytes[p]);
        let next = bytes.get(at + 3).copied().unwrap_or(0);
        if !(0xE0..0xEE).contains(&lead)
            || !is_continuation(second)
            || !is_continuation(third)
            || lead == 0xE0 && second < 0xA0
            || lead == 0xED && second >= 0xA0
            || matches!(second, 0xA0 | 0xBB)
            || prev.is_ascii_alphabetic()
            || CAPITAL_LEADS.contains(&lead) && LOWER_CONTINUATIONS.contains(&prev)
            || next.is_ascii_alphabetic()
        {
            return None;
        }
        groups += 1;
        at += 3;
    }
    (groups > 0).then_some(groups)
}

/// [`super::count_surely_clear_groups`] of `bytes` when every byte beyond ASCII is in a group
/// of two bytes that decodes to a letter the quick count answers beside letters of its own
/// script ([`super::PairClass::script_letter_byte`]), all of one script and of four leads
/// (Cyrillic D0..D3, Greek CC..CF, Arabic D8..DB), and each group:
///
/// - touches another group, before or after it (a letter of a word of two letters or more);
/// - has no ASCII letter just before it or just after it;
/// - if a capital, has no lowercase letter of windows-1252 just before it.
///
/// Then the quick count accepts each, a letter of its script beside letters of the same script
/// and no letter of another. Else `None`, which says nothing. A test holds the two to each
/// other. `first` is where the first byte beyond ASCII is.
pub(super) fn count_pair_groups(bytes: &[u8], first: usize, pairs: &PairTable) -> Option<usize> {
    let (first_lead, window, wanted) = pair_window(bytes, first, pairs)?;
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx512_vbmi() {
            // SAFETY: the processor has AVX-512 F, BW and VBMI, checked just above.
            return unsafe { avx512::count_pair_groups(bytes, first_lead, window, wanted) };
        }
    }
    pairs_by_byte(bytes, first_lead, window, wanted)
}

/// The window of four leads of the group at `first` (the first byte beyond ASCII): its first
/// lead, its bytes, and the byte (without the capital's bit) that every group must have;
/// `None` when that group is no letter that [`count_pair_groups`] counts.
fn pair_window<'a>(
    bytes: &[u8],
    first: usize,
    pairs: &'a PairTable,
) -> Option<(u8, &'a [u8; 256], u8)> {
    let lead = bytes[first];
    if !(0xC2..0xE0).contains(&lead) {
        return None;
    }
    let window = &pairs.script_letters[usize::from(lead - 0xC0) >> 2];
    let wanted = window[index(lead, *bytes.get(first + 1)?)] & !2;
    (wanted & 1 == 1).then_some((lead & 0xFC, window, wanted))
}

/// Where the character of `lead` (C0..DF) and `second` sits in its window of four leads.
fn index(lead: u8, second: u8) -> usize {
    usize::from(lead & 3) << 6 | usize::from(second & 0x3F)
}

/// [`count_pair_groups`] a byte at a time, with the window's first lead, its bytes, and the byte
/// wanted: what the SIMD path computes, the same way.
fn pairs_by_byte(bytes: &[u8], first_lead: u8, window: &[u8; 256], wanted: u8) -> Option<usize> {
    let mut groups = 0;
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        if lead < 0x80 {
            at += 1;
            continue;
        }
        let second = *bytes.get(at + 1)?;
        if !(0xC2..0xE0).contains(&lead) || lead & 0xFC != first_lead || !is_continuation(second) {
            return None;
        }
        let letter = window[index(lead, second)];
        let prev = at.checked_sub(1).map_or(0, |p| bytes[p]);
        let next = bytes.get(at + 2).copied().unwrap_or(0);
        if letter & !2 != wanted
            || prev.is_ascii_alphabetic()
            || next.is_ascii_alphabetic()
            || letter & 2 != 0 && LOWER_CONTINUATIONS.contains(&prev)
            || prev < 0x80 && next < 0x80
        {
            return None;
        }
        groups += 1;
        at += 2;
    }
    Some(groups)
}

/// [`super::count_surely_clear_groups`] of `bytes` when every byte beyond ASCII is in a group
/// of two bytes that decodes to a letter of Latin the quick count answers by its bytes
/// ([`super::PairClass::latin_letter_byte`]: leads C3..C8, no oddity, no "ß"), and each group:
///
/// - has a second byte other than 92 and A0 (apostrophe and no-break space in windows-1252);
/// - after "Ã" (lead C3), does not follow two ASCII capitals ("CAFÃ©" may be "CAFÃ" and a sign);
/// - after "Ä" to "È" (C4..C8), is followed by an ASCII letter or a byte beyond ASCII (at a
///   word's end "HÄ…" may be text);
/// - if a capital, has no lowercase letter of windows-1252 (ASCII or not) just before it.
///
/// Then the quick count accepts each: its neighbours are ASCII or letters of Latin, which clash
/// with none. Else `None`, which says nothing. A test holds the two to each other.
pub(super) fn count_latin_groups(bytes: &[u8], pairs: &PairTable) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx512_vbmi() {
            // SAFETY: the processor has AVX-512 F, BW and VBMI, checked just above.
            return unsafe { avx512::count_latin_groups(bytes, &pairs.latin_letters) };
        }
    }
    latin_by_byte(bytes, &pairs.latin_letters)
}

/// [`count_latin_groups`] a byte at a time, with the table of Latin letters: what the SIMD path
/// computes, the same way.
fn latin_by_byte(bytes: &[u8], letters: &[u8; 512]) -> Option<usize> {
    let byte = |at: Option<usize>| at.and_then(|at| bytes.get(at)).copied().unwrap_or(0);
    let mut groups = 0;
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        if lead < 0x80 {
            at += 1;
            continue;
        }
        let second = byte(Some(at + 1));
        if !(0xC2..0xCA).contains(&lead) || !is_continuation(second) {
            return None;
        }
        let letter = letters[usize::from(lead - 0xC2) << 6 | usize::from(second & 0x3F)];
        let (prev, before_prev) = (byte(at.checked_sub(1)), byte(at.checked_sub(2)));
        let next = byte(Some(at + 2));
        let is_lower = |b: u8| b.is_ascii_lowercase() || LOWER_CONTINUATIONS.contains(&b);
        if letter & 1 == 0
            || matches!(second, 0x92 | 0xA0)
            || lead == 0xC3 && prev.is_ascii_uppercase() && before_prev.is_ascii_uppercase()
            || lead != 0xC3 && !(next >= 0x80 || next.is_ascii_alphabetic())
            || letter & 2 != 0 && is_lower(prev)
        {
            return None;
        }
        groups += 1;
        at += 2;
    }
    (groups > 0).then_some(groups)
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// The bits `low..high` of a mask of 64 (each at most 64).
    fn bits(low: u32, high: u32) -> u64 {
        let below = |n: u32| if n >= 64 { u64::MAX } else { (1 << n) - 1 };
        below(high) & !below(low)
    }

    /// The bytes of a line, read 64 at a time.
    struct Line {
        start: *const u8,
        len: isize,
    }

    impl Line {
        fn new(bytes: &[u8]) -> Line {
            Line {
                start: bytes.as_ptr(),
                len: bytes.len() as isize,
            }
        }

        /// The 64 bytes from `from` (which may be before the start, or past the end), those
        /// outside the line read as 0: no lead, no continuation byte, no letter.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        fn load(&self, from: isize) -> __m512i {
            let mask = bits(
                (-from).clamp(0, 64) as u32,
                (self.len - from).clamp(0, 64) as u32,
            );
            // SAFETY: only the bytes whose bits are set are read, and they are in the line; a
            // masked load neither reads nor faults on the others.
            unsafe { _mm512_maskz_loadu_epi8(mask, self.start.wrapping_offset(from).cast()) }
        }
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn splat(b: u8) -> __m512i {
        _mm512_set1_epi8(b as i8)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn at_least(v: __m512i, b: u8) -> u64 {
        _mm512_cmpge_epu8_mask(v, splat(b))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn below(v: __m512i, b: u8) -> u64 {
        _mm512_cmplt_epu8_mask(v, splat(b))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn equal(v: __m512i, b: u8) -> u64 {
        _mm512_cmpeq_epi8_mask(v, splat(b))
    }

    /// ASCII letters: a byte with 0x20 set is 'a'..='z' (bytes 80..FF stay above).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn letters(v: __m512i) -> u64 {
        let folded = _mm512_or_si512(v, splat(0x20));
        at_least(folded, b'a') & !at_least(folded, b'z' + 1)
    }

    /// ASCII capitals.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn capitals(v: __m512i) -> u64 {
        at_least(v, b'A') & below(v, b'Z' + 1)
    }

    /// The bytes 80..BF that windows-1252 reads as lowercase letters.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn lower_continuations(v: __m512i) -> u64 {
        super::LOWER_CONTINUATIONS
            .iter()
            .fold(0, |all, &b| all | equal(v, b))
    }

    /// A table of `64 * N` bytes in `N` registers.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn registers<const N: usize>(table: &[u8]) -> [__m512i; N] {
        assert_eq!(table.len(), 64 * N);
        // SAFETY: each load reads 64 bytes of the table, which holds `64 * N`.
        std::array::from_fn(|k| unsafe { _mm512_loadu_si512(table[k * 64..].as_ptr().cast()) })
    }

    /// The block of `line` at `from` and its leads C2..`end` (leads of two bytes), when every
    /// byte of it beyond ASCII is such a lead or the continuation byte after one; `owed` carries
    /// the continuation byte that a lead at the end of a block owes the next, and is updated.
    /// `None` when a byte is anything else.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn pair_block(line: &Line, from: isize, end: u8, owed: &mut u64) -> Option<(__m512i, u64)> {
        let v = line.load(from);
        let leads = at_least(v, 0xC2) & below(v, end);
        if at_least(v, 0xC0) & !leads != 0 {
            return None;
        }
        let continuations = at_least(v, 0x80) & below(v, 0xC0);
        if continuations != leads << 1 | *owed {
            return None;
        }
        *owed = leads >> 63;
        Some((v, leads))
    }

    /// [`super::count_wide_groups`] 64 bytes at a time, each test a mask of the block's bytes;
    /// the groups that straddle two blocks are followed by the bits carried from one to the
    /// next.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn count_wide_groups(bytes: &[u8]) -> Option<usize> {
        let line = Line::new(bytes);
        let mut groups = 0;
        // Continuation bytes owed to leads near the end of the last block: bit 0 and bit 1 of
        // this one.
        let mut owed = 0u64;
        let mut from = 0isize;
        while from < line.len {
            let v = line.load(from);
            let leads = at_least(v, 0xE0) & below(v, 0xEE);
            if at_least(v, 0xC0) & !leads != 0 {
                return None;
            }
            // Every lead is followed by two continuation bytes, and every continuation byte
            // follows a lead: bytes past the end are none, so a lead too near it fails.
            let continuations = at_least(v, 0x80) & below(v, 0xC0);
            if continuations != leads << 1 | leads << 2 | owed {
                return None;
            }
            owed = leads >> 62 | leads >> 63;
            if leads != 0 {
                let second = line.load(from + 1);
                let odd_second = equal(second, 0xA0)
                    | equal(second, 0xBB)
                    | equal(v, 0xE0) & below(second, 0xA0)
                    | equal(v, 0xED) & at_least(second, 0xA0);
                let prev = line.load(from - 1);
                let capitals = super::CAPITAL_LEADS
                    .iter()
                    .fold(0, |all, &b| all | equal(v, b));
                let next = line.load(from + 3);
                let odd_neighbour =
                    letters(prev) | capitals & lower_continuations(prev) | letters(next);
                if leads & (odd_second | odd_neighbour) != 0 {
                    return None;
                }
                groups += leads.count_ones() as usize;
            }
            from += 64;
        }
        (owed == 0 && groups > 0).then_some(groups)
    }

    /// [`super::count_pair_groups`] 64 bytes at a time, with the window's first lead, its
    /// bytes, and the byte wanted. Each group's byte is looked up in the window (two tables of
    /// 128, each two registers, one permute of two registers into each).
    ///
    /// The processor must have AVX-512 F, BW and VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) fn count_pair_groups(
        bytes: &[u8],
        first_lead: u8,
        window: &[u8; 256],
        wanted: u8,
    ) -> Option<usize> {
        let line = Line::new(bytes);
        let [low_0, low_1, high_0, high_1] = registers(window);
        let mut groups = 0;
        // A continuation byte owed to a lead at the end of the last block.
        let mut owed = 0u64;
        let mut from = 0isize;
        while from < line.len {
            let (v, leads) = pair_block(&line, from, 0xE0, &mut owed)?;
            if leads != 0 {
                if leads & !equal(_mm512_and_si512(v, splat(0xFC)), first_lead) != 0 {
                    return None;
                }
                // Each lead's place in the window: its two low bits, then the six of its
                // second byte; the first half of the window or the second by the top bit.
                let second = line.load(from + 1);
                let index = _mm512_or_si512(
                    _mm512_and_si512(_mm512_slli_epi16::<6>(v), splat(0xC0)),
                    _mm512_and_si512(second, splat(0x3F)),
                );
                let in_low = _mm512_permutex2var_epi8(low_0, index, low_1);
                let in_high = _mm512_permutex2var_epi8(high_0, index, high_1);
                let letter = _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), in_low, in_high);
                let unwanted = !equal(_mm512_and_si512(letter, splat(!2)), wanted);
                let capitals = !equal(_mm512_and_si512(letter, splat(2)), 0);
                let prev = line.load(from - 1);
                let next = line.load(from + 2);
                let alone = below(prev, 0x80) & below(next, 0x80);
                let odd_neighbour =
                    letters(prev) | letters(next) | capitals & lower_continuations(prev);
                if leads & (unwanted | odd_neighbour | alone) != 0 {
                    return None;
                }
                groups += leads.count_ones() as usize;
            }
            from += 64;
        }
        (owed == 0).then_some(groups)
    }

    /// [`super::count_latin_groups`] 64 bytes at a time, with the table of Latin letters: eight
    /// registers, each group looked up by four permutes of two of them and two blends.
    ///
    /// The processor must have AVX-512 F, BW and VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) fn count_latin_groups(bytes: &[u8], table: &[u8; 512]) -> Option<usize> {
        let line = Line::new(bytes);
        let parts: [__m512i; 8] = registers(table);
        let mut groups = 0;
        // A continuation byte owed to a lead at the end of the last block.
        let mut owed = 0u64;
        let mut from = 0isize;
        while from < line.len {
            let (v, leads) = pair_block(&line, from, 0xCA, &mut owed)?;
            if leads != 0 {
                // Each lead's place from C2 (three bits), then the six of its second byte: the
                // lowest of the three and the six pick a byte of a pair of registers, the other
                // two the pair.
                let second = line.load(from + 1);
                let place = _mm512_sub_epi8(v, splat(0xC2));
                let index = _mm512_or_si512(
                    _mm512_and_si512(_mm512_slli_epi16::<6>(place), splat(0x40)),
                    _mm512_and_si512(second, splat(0x3F)),
                );
                let pair = |k: usize| _mm512_permutex2var_epi8(parts[k], index, parts[k + 1]);
                let odd_pair = _mm512_test_epi8_mask(place, splat(2));
                let high_half = _mm512_test_epi8_mask(place, splat(4));
                let letter = _mm512_mask_blend_epi8(
                    high_half,
                    _mm512_mask_blend_epi8(odd_pair, pair(0), pair(2)),
                    _mm512_mask_blend_epi8(odd_pair, pair(4), pair(6)),
                );
                let answered = _mm512_test_epi8_mask(letter, splat(1));
                let capital = _mm512_test_epi8_mask(letter, splat(2));
                let prev = line.load(from - 1);
                let before_prev = line.load(from - 2);
                let next = line.load(from + 2);
                let c3 = equal(v, 0xC3);
                let lower_prev = letters(prev) & !capitals(prev) | lower_continuations(prev);
                let refused = !answered
                    | equal(second, 0x92)
                    | equal(second, 0xA0)
                    | c3 & capitals(prev) & capitals(before_prev)
                    | !c3 & !(at_least(next, 0x80) | letters(next))
                    | capital & lower_prev;
                if leads & refused != 0 {
                    return None;
                }
                groups += leads.count_ones() as usize;
            }
            from += 64;
        }
        (owed == 0 && groups > 0).then_some(groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A count's two paths on `bytes` agree (`answer`, then the path a byte at a time), and
    /// where they count, the walk and the careful count give the same.
    fn agreed(bytes: &[u8], answer: Option<usize>, by_byte: Option<usize>) -> Option<usize> {
        assert_eq!(answer, by_byte, "{bytes:02X?}");
        if answer.is_some() {
            assert_eq!(super::super::count_surely_clear_groups(bytes), answer);
            assert_eq!(super::super::count_clear_groups(bytes), answer);
        }
        answer
    }

    /// How many lines `count` answers of those that put each character of two bytes beside
    /// each neighbour in each context ("{c}" the character, "{d}" the neighbour).
    fn count_beside(
        neighbours: &[&str],
        contexts: &[&str],
        count: impl Fn(&[u8]) -> Option<usize>,
    ) -> usize {
        let mut counted = 0;
        for c in (0x80..0x800u32).filter_map(char::from_u32) {
            for d in neighbours {
                for context in contexts {
                    let line = context
                        .replace("{c}", c.encode_utf8(&mut [0; 4]))
                        .replace("{d}", d);
                    counted += usize::from(count(line.as_bytes()).is_some());
                }
            }
        }
        counted
    }

    /// `count` answers none of `lines`.
    fn refuses(count: impl Fn(&[u8]) -> Option<usize>, lines: &[&[u8]]) {
        for line in lines {
            assert_eq!(count(line), None, "{:?}", String::from_utf8_lossy(line));
        }
    }

    /// The count of wide groups, both paths.
    fn both(bytes: &[u8]) -> Option<usize> {
        agreed(bytes, count_wide_groups(bytes), by_byte(bytes))
    }

    /// Every character of three bytes with a lead E0..ED, beside what may stand around it.
    #[test]
    fn every_wide_character_is_counted_as_the_walk_counts_it() {
        let mut counted = 0;
        for c in ('\u{800}'..'\u{E000}').filter(|c| c.len_utf8() == 3) {
            for context in [
                "{c}",
                " {c}.",
                "{c}{c}",
                "x{c}",
                "{c}x",
                // "語" ends with 9E, "ž" in windows-1252.
                "語{c}",
                "1{c}\u{3001}",
            ] {
                let line = context.replace("{c}", c.encode_utf8(&mut [0; 4]));
                counted += usize::from(both(line.as_bytes()).is_some());
            }
        }
        // Most are counted: all but those beside a letter, those with a second byte A0 or BB,
        // and the capitals after "語".
        assert!(counted > 240_000, "{counted}");
    }

    #[test]
    fn capitals_of_three_bytes_have_the_capital_leads() {
        let mut leads: Vec<u8> = ('\u{800}'..'\u{E000}')
            .filter(|c| c.is_uppercase())
            .map(|c| c.encode_utf8(&mut [0; 4]).as_bytes()[0])
            .collect();
        leads.dedup();
        assert_eq!(leads, CAPITAL_LEADS);
    }

    #[test]
    fn lower_continuations_are_the_lowercase_letters_of_windows_1252() {
        let lower: Vec<u8> = (0x80..0xC0u8)
            .filter(|&b| super::super::windows_1252_original(b).is_lowercase())
            .collect();
        assert_eq!(lower, LOWER_CONTINUATIONS);
    }

    #[test]
    fn groups_are_counted_where_every_test_passes() {
        // 日本語 and हिंदी, with ASCII that is no letter around them; "語" ends with 9E, "ž"
        // in windows-1252, which a capital of three bytes may not follow ("Ⅻ").
        assert_eq!(both("日本語".as_bytes()), Some(3));
        assert_eq!(both("語。".as_bytes()), Some(2));
        assert_eq!(both("語\u{216B}".as_bytes()), None);
        assert_eq!(both("(हिंदी) 1, 2".as_bytes()), Some(5));
        assert_eq!(both(b"plain ASCII"), None);
        assert_eq!(both(b""), None);
        // A letter beside a group, a lowercase letter of windows-1252 before one, a second
        // byte A0 or BB, a lead of two bytes, EE or EF, a lost byte, an overlong form, a
        // surrogate: the walk decides.
        refuses(
            both,
            &[
                "x日".as_bytes(),
                "日x".as_bytes(),
                b"\x9A\xE2\x85\xAB",
                "栠".as_bytes(),
                "滻".as_bytes(),
                "é日".as_bytes(),
                "\u{E000}".as_bytes(),
                "（".as_bytes(),
                b"\xE6\x97",
                b"\xE6\x97 ",
                b"\xE0\x9F\xBF",
                b"\xED\xA0\x80",
                b"\x97\xA5",
            ],
        );
    }

    /// Groups that straddle the blocks of 64 bytes, at every place, and a lead at the very end.
    #[test]
    fn groups_across_blocks_are_followed() {
        for pad in 0..70 {
            let mut bytes = vec![b' '; pad];
            bytes.extend_from_slice("中文字。".repeat(12).as_bytes());
            assert_eq!(both(&bytes), Some(48), "{pad}");
            for cut in 1..=2 {
                assert_eq!(both(&bytes[..bytes.len() - cut]), None, "{pad} {cut}");
            }
            bytes.push(b'x');
            assert_eq!(both(&bytes), None, "{pad}");
        }
    }

    /// Both paths of the count of script letters on `bytes`; where they count, the walk and
    /// the careful count give the same.
    fn both_pairs(bytes: &[u8]) -> Option<usize> {
        let pairs = super::super::PairClass::table();
        let Some(first) = bytes.iter().position(|&b| b >= 0x80) else {
            return agreed(bytes, None, None);
        };
        let by_byte = pair_window(bytes, first, pairs)
            .and_then(|(lead, window, wanted)| pairs_by_byte(bytes, lead, window, wanted));
        agreed(bytes, count_pair_groups(bytes, first, pairs), by_byte)
    }

    #[test]
    fn script_letters_are_counted_where_every_test_passes() {
        assert_eq!(both_pairs("Привет, мир".as_bytes()), Some(9));
        assert_eq!(both_pairs("Καλημέρα (κόσμε)".as_bytes()), Some(13));
        assert_eq!(both_pairs("مرحبا بالعالم".as_bytes()), Some(12));
        refuses(
            both_pairs,
            &[
                // A letter alone, an ASCII letter beside one, a capital after "К" (its second byte
                // 9A is "š"), two scripts, two windows, a letter of Latin, a sign, a lost byte.
                "в доме".as_bytes(),
                "xмир".as_bytes(),
                "мирx".as_bytes(),
                "КМ".as_bytes(),
                "мир κόσμος".as_bytes(),
                "мирԁ".as_bytes(),
                "café".as_bytes(),
                "мир§".as_bytes(),
                "".as_bytes(),
                "plain".as_bytes(),
                b"\xD0\xBC\xD0",
                b"\xD0\xBC\xBC",
            ],
        );
    }

    /// Every character of two bytes beside letters of the four scripts, and what else may
    /// stand around them.
    #[test]
    fn every_pair_is_counted_as_the_walk_counts_it() {
        let neighbours = [
            "д", "Д", "ё", "λ", "Ω", "ά", "ب", "ա", "Ա", "ґ", "§", "é", "x", "К",
        ];
        let contexts = [
            "{c}{d}",
            "{d}{c}",
            " {c}{d}.",
            "{d}{c}x",
            "{c} {d}",
            "{d}{c}{d}",
        ];
        let counted = count_beside(&neighbours, &contexts, both_pairs);
        assert!(counted > 7_000, "{counted}");
    }

    /// Words that straddle the blocks of 64 bytes, at every place.
    #[test]
    fn script_letters_across_blocks_are_followed() {
        for pad in 0..70 {
            let mut line = " ".repeat(pad);
            line.push_str(&"слово, ".repeat(12));
            assert_eq!(both_pairs(line.as_bytes()), Some(60), "{pad}");
            let bytes = line.trim_end().trim_end_matches(',').as_bytes();
            assert_eq!(both_pairs(&bytes[..bytes.len() - 1]), None, "{pad}");
            line.push('x');
            assert_eq!(both_pairs(line.as_bytes()), Some(60), "{pad}");
            line.insert(line.len() - 2, 'ы');
            assert_eq!(both_pairs(line.as_bytes()), None, "{pad}");
        }
    }

    /// Both paths of the count of Latin letters on `bytes`; where they count, the walk and the
    /// careful count give the same.
    fn both_latin(bytes: &[u8]) -> Option<usize> {
        let pairs = super::super::PairClass::table();
        let by_byte = latin_by_byte(bytes, &pairs.latin_letters);
        agreed(bytes, count_latin_groups(bytes, pairs), by_byte)
    }

    #[test]
    fn latin_letters_are_counted_where_every_test_passes() {
        assert_eq!(both_latin("café crème, déjá vu".as_bytes()), Some(4));
        assert_eq!(both_latin("Łódka, żółw".as_bytes()), Some(5));
        assert_eq!(both_latin("Înțelegere".as_bytes()), Some(2));
        refuses(
            both_latin,
            &[
                // A lead C4..C8 at a word's end, "Ã" after two capitals, a capital after a
                // lowercase letter, "ß", a second byte A0, Cyrillic, a sign, plain ASCII.
                "się".as_bytes(),
                "CAFé".as_bytes(),
                "aÉ".as_bytes(),
                "Straße".as_bytes(),
                "à".as_bytes(),
                "café мир".as_bytes(),
                "café §".as_bytes(),
                "plain".as_bytes(),
                "".as_bytes(),
                b"caf\xC3",
                b"caf\xC3\xA9\xA9",
            ],
        );
    }

    /// Every character of two bytes beside letters of Latin, and what else may stand around
    /// them.
    #[test]
    fn every_latin_pair_is_counted_as_the_walk_counts_it() {
        let neighbours = [
            "a", "B", "é", "É", "ł", "Ż", "ș", "š", "œ", "Ÿ", "ß", "д", " ", "'",
        ];
        let contexts = ["{c}{d}", "{d}{c}", " {c}{d}.", "{d}{c}x", "AB{c}", "{c}"];
        let counted = count_beside(&neighbours, &contexts, both_latin);
        assert!(counted > 5_000, "{counted}");
    }

    /// Words that straddle the blocks of 64 bytes, at every place.
    #[test]
    fn latin_letters_across_blocks_are_followed() {
        for pad in 0..70 {
            let mut line = "x".repeat(pad);
            line.push_str(&" après, żółw".repeat(8));
            assert_eq!(both_latin(line.as_bytes()), Some(32), "{pad}");
            line.push('ą');
            assert_eq!(both_latin(line.as_bytes()), None, "{pad}");
            let bytes = line.as_bytes();
            assert_eq!(both_latin(&bytes[..bytes.len() - 1]), None, "{pad}");
        }
    }

    /// What the random lines of Latin letters are made of.
    const LATIN_PARTS: [&str; 15] = [
        "é", "É", "ł", "Ż", "ș", "ß", "à", "a", "B", "C", " ", ",", "д", "§", "\u{A0}",
    ];

    /// What the random lines of letters of the four scripts are made of.
    const SCRIPT_PARTS: [&str; 15] = [
        "д", "Д", "ё", "λ", "Ω", "ά", "ب", "ա", "ґ", "К", "М", " ", "a", ",", "é",
    ];

    proptest! {
        /// The two paths of the counts of script letters and of Latin letters agree on lines
        /// of letters of Latin, or of the four scripts, and ASCII.
        #[test]
        fn the_two_byte_paths_agree(
            parts in prop_oneof![
                prop::collection::vec(prop::sample::select(&LATIN_PARTS[..]), 0..100),
                prop::collection::vec(prop::sample::select(&SCRIPT_PARTS[..]), 0..100),
            ]
        ) {
            let line = parts.concat();
            both_latin(line.as_bytes());
            both_pairs(line.as_bytes());
        }

        /// The two paths agree on lines of wide characters, ASCII and a few other bytes.
        #[test]
        fn the_paths_agree(
            parts in prop::collection::vec(
                prop_oneof![
                    (0x800u32..0xE000).prop_filter_map("a character", char::from_u32)
                        .prop_map(|c| c.to_string().into_bytes()),
                    prop::sample::select(vec![
                        b" ".to_vec(), b"a".to_vec(), b"1".to_vec(), b"\xA0".to_vec(),
                        b"\x9A".to_vec(), b"\xC3\xA9".to_vec(), b"\xEF\xBC\x88".to_vec(),
                    ]),
                ],
                0..80,
            )
        ) {
            both(&parts.concat());
        }
    }
}
