//! Where in well-formed text a character that a lint of characters may match starts, read 32
//! bytes at a time (SPEC 1.6): the scanner decodes and classifies only those characters.
//!
//! A character may match a lint (`non-ascii` aside) when it is a control other than TAB, LF,
//! VT, FF and CR, DEL, or has the first bytes of one [`crate::Lint::classify`] names: C1
//! controls (C2 80..9F), the grapheme joiner (CD 8F), the Hangul and Khmer fillers and the
//! Mongolian separator (E1 85, E1 9E, E1 A0), the zero-width and bidi controls and Braille blank
//! (E2 80, E2 81, E2 A0), the Hangul filler (E3 85), private use (EE, EF 80..A3, F3 B0..BF,
//! F4), noncharacters, variation selectors, the byte order mark and U+FFFD (EF B7, EF B8,
//! EF BB, EF BE, EF BF), tags and the supplementary variation selectors (F3 A0), and the
//! noncharacters that end each plane (F0..F3, then a byte ending in F, then BF). Emoji and the
//! other characters of four bytes are passed over. With `non-ascii`, every character above
//! U+007F may.

/// Whether a character that starts with `bytes` (its first three, or any bytes after its end)
/// may match a lint of characters; with `non_ascii`, also any character above U+007F.
#[inline]
pub(crate) fn may_start([byte, next, third]: [u8; 3], non_ascii: bool) -> bool {
    // The last two code points of a plane (U+1FFFE, ..): 0xBF after a second byte of 0x?F.
    let ends_plane = next & 0x0F == 0x0F && third == 0xBF;
    match byte {
        0x09..=0x0D => false,
        0x00..=0x1F | 0x7F => true,
        0xC0.. if non_ascii => true,
        0xC2 => (0x80..=0x9F).contains(&next),
        0xCD => next == 0x8F,
        0xE1 => matches!(next, 0x85 | 0x9E | 0xA0),
        0xE2 => matches!(next, 0x80 | 0x81 | 0xA0),
        0xE3 => next == 0x85,
        0xEE | 0xF4.. => true,
        0xEF => matches!(next, 0x80..=0xA3 | 0xB7 | 0xB8 | 0xBB | 0xBE | 0xBF),
        // Tags and variation selectors (U+E0000..U+E01EF), plane 15's private use.
        0xF3 => next == 0xA0 || (0xB0..=0xBF).contains(&next) || ends_plane,
        0xF0..=0xF2 => ends_plane,
        _ => false,
    }
}

/// The first place in `text` (well-formed, so a character is never cut by its end) where a
/// character [`may_start`].
pub(crate) fn first_start(text: &[u8], non_ascii: bool) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::has_avx2() {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::first_start(text, non_ascii) };
    }
    first_start_bytewise(text, 0, non_ascii)
}

/// [`first_start`] a byte at a time, from `from`: the bytes no character that may start with
/// are passed over by a table, the others asked [`may_start`] with the bytes after them.
pub(crate) fn first_start_bytewise(text: &[u8], from: usize, non_ascii: bool) -> Option<usize> {
    let table = if non_ascii { &LEADS_ANY } else { &LEADS };
    let mut at = from;
    while let Some(i) = text[at..].iter().position(|&b| table[usize::from(b)]) {
        let i = at + i;
        let after = |k: usize| text.get(i + k).copied().unwrap_or(0x80);
        if may_start([text[i], after(1), after(2)], non_ascii) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The bytes [`may_start`] may say yes to (whatever follows), without `non-ascii`...
static LEADS: [bool; 256] = leads(false);
/// ... and with it.
static LEADS_ANY: [bool; 256] = leads(true);

const fn leads(non_ascii: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            0x09..=0x0D => false,
            0x00..=0x1F | 0x7F => true,
            0xC0.. if non_ascii => true,
            0xC2 | 0xCD | 0xE1..=0xE3 | 0xEE | 0xEF | 0xF0.. => true,
            _ => false,
        };
        b += 1;
    }
    table
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// [`super::first_start`] with AVX2: 32 bytes a step, each with the byte after it.
    #[target_feature(enable = "avx2")]
    pub(super) fn first_start(text: &[u8], non_ascii: bool) -> Option<usize> {
        let splat = |b: u8| _mm256_set1_epi8(b as i8);
        let is = |v: __m256i, b: u8| _mm256_cmpeq_epi8(v, splat(b));
        // Bytes of `v` in `lo..=hi`: `v - lo` (wrapping) is at most `hi - lo`.
        let within = |v: __m256i, lo: u8, hi: u8| {
            let d = _mm256_sub_epi8(v, splat(lo));
            _mm256_cmpeq_epi8(_mm256_min_epu8(d, splat(hi - lo)), d)
        };
        let or = |a: __m256i, b: __m256i| _mm256_or_si256(a, b);
        let and = |a: __m256i, b: __m256i| _mm256_and_si256(a, b);
        let mut at = 0;
        while at + 34 <= text.len() {
            // SAFETY: `at + 34 <= text.len()`: the three loads read inside the text.
            let (v, next, third) = unsafe {
                let p = text.as_ptr().add(at);
                (
                    _mm256_loadu_si256(p.cast()),
                    _mm256_loadu_si256(p.add(1).cast()),
                    _mm256_loadu_si256(p.add(2).cast()),
                )
            };
            let controls = or(
                _mm256_andnot_si256(within(v, 0x09, 0x0D), within(v, 0x00, 0x1F)),
                is(v, 0x7F),
            );
            let mut found = _mm256_movemask_epi8(controls) as u32;
            if non_ascii {
                found |= _mm256_movemask_epi8(within(v, 0xC0, 0xFF)) as u32;
            } else {
                let leads = or(
                    or(is(v, 0xC2), is(v, 0xCD)),
                    or(within(v, 0xE1, 0xE3), within(v, 0xEE, 0xFF)),
                );
                if _mm256_movemask_epi8(leads) != 0 {
                    // E3 and EF lead most characters of CJK text (kana, CJK punctuation, the
                    // fullwidth forms): their few characters a lint may match are asked for
                    // first, the other leads' only where the block holds one.
                    let ef = or(
                        or(within(next, 0x80, 0xA3), within(next, 0xB7, 0xB8)),
                        or(is(next, 0xBB), within(next, 0xBE, 0xBF)),
                    );
                    let cjk = or(and(is(v, 0xE3), is(next, 0x85)), and(is(v, 0xEF), ef));
                    found |= _mm256_movemask_epi8(cjk) as u32;
                    let others = _mm256_andnot_si256(or(is(v, 0xE3), is(v, 0xEF)), leads);
                    if _mm256_movemask_epi8(others) != 0 {
                        let ends_plane = and(
                            is(_mm256_and_si256(next, _mm256_set1_epi8(0x0F)), 0x0F),
                            is(third, 0xBF),
                        );
                        let e1 = or(or(is(next, 0x85), is(next, 0x9E)), is(next, 0xA0));
                        let e2 = or(or(is(next, 0x80), is(next, 0x81)), is(next, 0xA0));
                        let hits = [
                            and(is(v, 0xC2), within(next, 0x80, 0x9F)),
                            and(is(v, 0xCD), is(next, 0x8F)),
                            and(is(v, 0xE1), e1),
                            and(is(v, 0xE2), e2),
                            or(is(v, 0xEE), within(v, 0xF4, 0xFF)),
                            and(within(v, 0xF0, 0xF3), ends_plane),
                            and(is(v, 0xF3), or(is(next, 0xA0), within(next, 0xB0, 0xBF))),
                        ];
                        found |= _mm256_movemask_epi8(hits.into_iter().fold(controls, or)) as u32;
                    }
                }
            }
            if found != 0 {
                return Some(at + found.trailing_zeros() as usize);
            }
            at += 32;
        }
        super::first_start_bytewise(text, at, non_ascii)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lint;

    #[test]
    fn every_character_a_lint_classifies_may_start_there() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            let first = [0, 1, 2].map(|k| bytes.get(k).copied().unwrap_or(b' '));
            for offset in [0, 7] {
                let lint = Lint::classify(u32::from(c), offset);
                assert!(
                    lint.is_none() || may_start(first, false),
                    "U+{:04X} ({lint:?})",
                    u32::from(c)
                );
            }
            assert_eq!(may_start(first, true), !c.is_ascii() || lint_ascii(c));
        }
        // Emoji are passed over.
        assert!(!may_start([0xF0, 0x9F, 0x98], false));
    }

    #[test]
    fn the_lead_tables_hold_every_byte_may_start_says_yes_to() {
        for byte in 0..=0xFF {
            for next in 0..=0xFF {
                for third in [0x00, 0x80, 0xBF] {
                    for (non_ascii, table) in [(false, &LEADS), (true, &LEADS_ANY)] {
                        assert!(
                            !may_start([byte, next, third], non_ascii) || table[usize::from(byte)],
                            "{byte:02X} {next:02X} {third:02X} {non_ascii}"
                        );
                    }
                }
            }
        }
    }

    /// Whether an ASCII character may be a finding: a control other than TAB, LF, VT, FF, CR.
    fn lint_ascii(c: char) -> bool {
        c.is_ascii_control() && !('\t'..='\r').contains(&c)
    }

    #[test]
    fn every_level_finds_every_first_two_bytes_at_every_place_of_a_step() {
        // Each lead with each byte after it, alone among quiet bytes, on both sides of the
        // step of 32 bytes and at its ends.
        for lead in 0xC0..=0xFF {
            for next in 0x80..=0xBF {
                for third in [0x80, 0xBF] {
                    for at in [0, 1, 30, 31, 32, 33, 47] {
                        let mut text: Vec<u8> = b"xyz\xD0\xB0".repeat(16);
                        text[at..at + 4].copy_from_slice(&[lead, next, third, 0xBF]);
                        let want = first_start_bytewise(&text, 0, false);
                        assert_eq!(first_start(&text, false), want, "{lead:02X} {next:02X}");
                        #[cfg(target_arch = "x86_64")]
                        if std::is_x86_feature_detected!("avx2") {
                            // SAFETY: the processor has AVX2, checked just above.
                            let got = unsafe { avx2::first_start(&text, false) };
                            assert_eq!(got, want, "{lead:02X} {next:02X} {third:02X} at {at}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_finds_the_first_start_the_bytewise_walk_finds() {
        let pool = [
            0x00, 0x09, 0x0A, 0x0D, 0x1F, b' ', b'a', 0x7F, 0x80, 0x85, 0x8F, 0x9E, 0x9F, 0xA0,
            0xA3, 0xA4, 0xB7, 0xBB, 0xBC, 0xBF, 0xC2, 0xC3, 0xCD, 0xD0, 0xE1, 0xE2, 0xE3, 0xE4,
            0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0x8F, 0xB0,
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut byte = |dense: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly quiet bytes, so that starts are far apart and whole steps pass over.
            if seed.is_multiple_of(dense) {
                pool[(seed >> 8) as usize % pool.len()]
            } else {
                [b'x', 0xD0, 0xB0][(seed >> 8) as usize % 3]
            }
        };
        for len in 0..300 {
            for dense in [2, 40, 400] {
                let text: Vec<u8> = (0..len).map(|_| byte(dense)).collect();
                for non_ascii in [false, true] {
                    let want = first_start_bytewise(&text, 0, non_ascii);
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: the processor has AVX2, checked just above.
                        let got = unsafe { avx2::first_start(&text, non_ascii) };
                        assert_eq!(got, want, "{text:02X?} {non_ascii}");
                    }
                    assert_eq!(first_start(&text, non_ascii), want);
                }
            }
        }
    }
}
