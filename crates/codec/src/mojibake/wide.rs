//! The quick count of a line read back into windows-1252 whose characters beyond ASCII all have
//! three bytes in UTF-8 with a lead E0..ED: CJK, kana, Hangul, the scripts of India, Thai.
//! Most mojibake of those scripts is such a line, and each of its groups is answered by the
//! same few tests of bytes, which are made here 64 bytes at a time: the walk a group at a time
//! took about 4 ns for each.

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
        if std::is_x86_feature_detected!("avx512bw") {
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

/// Whether `byte` is an ASCII letter.
fn is_letter(byte: u8) -> bool {
    byte.is_ascii_alphabetic()
}

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
        let is_continuation = |b: u8| (0x80..0xC0).contains(&b);
        if !(0xE0..0xEE).contains(&lead)
            || !is_continuation(second)
            || !is_continuation(third)
            || lead == 0xE0 && second < 0xA0
            || lead == 0xED && second >= 0xA0
            || matches!(second, 0xA0 | 0xBB)
            || is_letter(prev)
            || CAPITAL_LEADS.contains(&lead) && LOWER_CONTINUATIONS.contains(&prev)
            || is_letter(next)
        {
            return None;
        }
        groups += 1;
        at += 3;
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

    /// [`super::count_wide_groups`] 64 bytes at a time, each test a mask of the block's bytes;
    /// the groups that straddle two blocks are followed by the bits carried from one to the
    /// next.
    ///
    /// The processor must have AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn count_wide_groups(bytes: &[u8]) -> Option<usize> {
        let len = bytes.len() as isize;
        let start = bytes.as_ptr();
        // The 64 bytes from `from` (which may be -1, or past the end), those outside `bytes`
        // read as 0: no lead, no continuation byte, no letter.
        let load = |from: isize| {
            let mask = bits(
                (-from).clamp(0, 64) as u32,
                (len - from).clamp(0, 64) as u32,
            );
            // SAFETY: only the bytes whose bits are set are read, and they are in `bytes`; a
            // masked load neither reads nor faults on the others.
            unsafe { _mm512_maskz_loadu_epi8(mask, start.wrapping_offset(from).cast()) }
        };
        let splat = |b: u8| _mm512_set1_epi8(b as i8);
        let at_least = |v: __m512i, b: u8| _mm512_cmpge_epu8_mask(v, splat(b));
        let below = |v: __m512i, b: u8| _mm512_cmplt_epu8_mask(v, splat(b));
        let equal = |v: __m512i, b: u8| _mm512_cmpeq_epi8_mask(v, splat(b));
        // ASCII letters: a byte with 0x20 set is 'a'..='z' (bytes 80..FF stay above).
        let letters = |v: __m512i| {
            let folded = _mm512_or_si512(v, splat(0x20));
            at_least(folded, b'a') & !at_least(folded, b'z' + 1)
        };
        let mut groups = 0;
        // Continuation bytes owed to leads near the end of the last block: bit 0 and bit 1 of
        // this one.
        let mut owed = 0u64;
        let mut from = 0isize;
        while from < len {
            let v = load(from);
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
                let second = load(from + 1);
                let odd_second = equal(second, 0xA0)
                    | equal(second, 0xBB)
                    | equal(v, 0xE0) & below(second, 0xA0)
                    | equal(v, 0xED) & at_least(second, 0xA0);
                let prev = load(from - 1);
                let capitals = super::CAPITAL_LEADS
                    .iter()
                    .fold(0, |all, &b| all | equal(v, b));
                let lower_prev = super::LOWER_CONTINUATIONS
                    .iter()
                    .fold(0, |all, &b| all | equal(prev, b));
                let next = load(from + 3);
                let odd_neighbour = letters(prev) | capitals & lower_prev | letters(next);
                if leads & (odd_second | odd_neighbour) != 0 {
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

    /// Both paths on `bytes`; where they count, the walk and the careful count give the same.
    fn both(bytes: &[u8]) -> Option<usize> {
        let answer = by_byte(bytes);
        assert_eq!(count_wide_groups(bytes), answer, "{bytes:02X?}");
        if answer.is_some() {
            assert_eq!(super::super::count_surely_clear_groups(bytes), answer);
            assert_eq!(super::super::count_clear_groups(bytes), answer);
        }
        answer
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
        for refused in [
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
        ] {
            assert_eq!(both(refused), None, "{refused:02X?}");
        }
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

    proptest! {
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
