//! Which lines may hold Cyrillic text through the wrong code page: a Cyrillic letter before a
//! capital, box drawing against a character that is not ASCII, a letter of Serbian or
//! Macedonian against a Cyrillic letter, a C1 control or a sign right after one; found 64
//! bytes at a time.

use std::ops::Range;

use crate::double::{LOW, ONES, gather, with_neighbours, words_of, zero_bytes};
use crate::simd::first_of_bits;
use crate::suspect::char_before;
use utf8kit_codec::unit::first_char;

/// Where in `text` (well-formed UTF-8) such a line may start ([`is_suspect_at`]).
///
/// 64 bytes at a time (AVX-512, AVX2, or eight bytes at a time): a block's masks give the
/// places that may be one ([`CandidateMasks`]), each then asked on its own. Clean Russian text,
/// whose capitals begin words, seldom has one.
pub(crate) fn first_cyrillic_suspect(text: &[u8]) -> Option<usize> {
    crate::simd::walk_at_best_level!(
        first_cyrillic_suspect_with(text: &[u8]),
        portable_candidate_masks,
        avx2_candidate_masks,
        avx512_candidate_masks
    )
}

/// [`first_cyrillic_suspect`] with the block masks of one SIMD level.
#[inline(always)]
pub(super) fn first_cyrillic_suspect_with(text: &[u8], masks: CandidateMasks) -> Option<usize> {
    // A block judges its bytes 2..=61, whose neighbours it holds (two before, two after); the
    // first two on their own.
    const INNER: u64 = ((1 << 62) - 1) & !3;
    let mut memo = 0..0;
    if let Some(at) = bytewise_with(text, 0, 2.min(text.len()), &mut memo) {
        return Some(at);
    }
    let mut start = 0;
    while let Some(block) = text.get(start..start + 64) {
        let bits = masks(block.try_into().expect("64 bytes")) & INNER;
        if let Some(at) = first_of_bits(start, bits, |i| {
            is_suspect_at(text, i, &mut memo).then_some(i)
        }) {
            return Some(at);
        }
        start += 60;
    }
    // The last bytes, fewer than a block, in a copy padded with zeros: no candidate begins at a
    // zero byte or needs one around it.
    let rest = &text[start..];
    let mut block = [0; 64];
    block[..rest.len()].copy_from_slice(rest);
    let bits = masks(&block) & !3 & ((1 << rest.len()) - 1);
    first_of_bits(start, bits, |i| {
        is_suspect_at(text, i, &mut memo).then_some(i)
    })
}

/// [`first_cyrillic_suspect`] a byte at a time, over the bytes `from..to`: what the block walk
/// must find.
#[cfg(test)]
pub(super) fn bytewise_in(text: &[u8], from: usize, to: usize) -> Option<usize> {
    bytewise_with(text, from, to, &mut (0..0))
}

/// [`bytewise_in`] with the caller's `memo` (see [`is_suspect_at`]).
fn bytewise_with(text: &[u8], from: usize, to: usize, memo: &mut Range<usize>) -> Option<usize> {
    (from..to).find(|&i| {
        matches!(text[i], 0xC2 | 0xC6 | 0xD0..=0xD2 | 0xE2) && is_suspect_at(text, i, memo)
    })
}

/// Whether the Cyrillic letter that ends right before `i` is small.
fn small_before(text: &[u8], i: usize) -> bool {
    i >= 2
        && matches!(
            (text[i - 2], text[i - 1]),
            (0xD0, 0xB0..=0xBF) | (0xD1, 0x80..=0x9F)
        )
}

/// Where the line of `text` that holds byte `i` lies, without its newline.
fn line_of(text: &[u8], i: usize) -> Range<usize> {
    let start = memchr::memrchr(b'\n', &text[..i]).map_or(0, |n| n + 1);
    let end = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |n| i + n);
    start..end
}

/// Whether the Cyrillic letter that ends right before `i` is a capital of Russian's alphabet.
fn capital_before(text: &[u8], i: usize) -> bool {
    i >= 2 && text[i - 2] == 0xD0 && matches!(text[i - 1], 0x90..=0xAF)
}

/// Whether a Cyrillic letter (U+0400..U+045F) ends right before `i`.
fn letter_before(text: &[u8], i: usize) -> bool {
    i >= 2 && matches!(text[i - 2], 0xD0 | 0xD1) && text[i - 1] >= 0x80
}

/// Whether a Cyrillic letter (U+0400..U+045F) begins at `i`.
fn letter_at(text: &[u8], i: usize) -> bool {
    matches!(text.get(i..i + 2), Some(&[0xD0 | 0xD1, second]) if second >= 0x80)
}

/// Whether a small Cyrillic letter (а..я, ѐ..џ) begins at `i`.
fn small_at(text: &[u8], i: usize) -> bool {
    matches!(
        text.get(i..i + 2),
        Some(&[0xD0, 0xB0..=0xBF] | &[0xD1, 0x80..=0x9F])
    )
}

/// Whether no ASCII letter or digit and no Cyrillic letter ends right before `i`.
fn no_letter_before(text: &[u8], i: usize) -> bool {
    !(i > 0 && text[i - 1].is_ascii_alphanumeric() || letter_before(text, i))
}

/// Whether the character at `i`, which ends before `after`, begins a word of small Cyrillic
/// letters: no letter or digit right before it, a small letter right after.
fn begins_small_word(text: &[u8], i: usize, after: usize) -> bool {
    no_letter_before(text, i) && small_at(text, after)
}

/// Whether a character that is not ASCII begins at `i`.
fn high_at(text: &[u8], i: usize) -> bool {
    text.get(i).is_some_and(|&b| b >= 0xC0)
}

/// Whether a line of such mojibake may begin at `i`, a byte C2, D0, D1 or E2: a small letter
/// before the capital at `i`, or a capital of Russian's alphabet on a line of words of
/// capitals ([`super::all_capitals`]); a letter of Serbian or Macedonian (`Ђ Ѓ Ѕ Ј Љ Њ Ћ Ќ Џ` and
/// their small forms) against a Cyrillic letter; a C1 control or a sign of Latin-1 against a
/// Cyrillic letter (not the no-break space, the soft hyphen or the guillemets, which stand
/// against words); box drawing against a character that is not ASCII; a sign of
/// U+2000..U+217F between a Cyrillic letter and one that is not ASCII (not the apostrophe `’`
/// or the non-breaking hyphen); a sign of U+2000..U+217F (not `„`) or a no-break space that
/// begins a word of small Cyrillic letters (`—тобы`, `“становить`: a capital that the code page
/// read as shows as a sign); `Ђ` before ASCII (`Ђ%sї`, `«%s»` in windows-1251 read as
/// x-mac-cyrillic); a capital alone before `%` (`З%sИ`, the reverse); `Ч` or `Р` alone between
/// spaces before a small letter (a dash of the one read as the other).
///
/// `memo` is the line last found to be no line of capitals, so that each capital after a
/// capital does not read its line again.
fn is_suspect_at(text: &[u8], i: usize, memo: &mut Range<usize>) -> bool {
    let Some(&second) = text.get(i + 1) else {
        return false;
    };
    match text[i] {
        0xD0 => {
            let capital_after_letter = matches!(second, 0x80..=0xAF)
                && (small_before(text, i)
                    || capital_before(text, i) && !memo.contains(&i) && {
                        let line = line_of(text, i);
                        let capitals = super::all_capitals(&text[line.clone()]);
                        if !capitals {
                            *memo = line;
                        }
                        capitals
                    });
            let serbian = matches!(second, 0x82 | 0x83 | 0x85 | 0x88..=0x8C | 0x8F)
                && (letter_before(text, i) || high_at(text, i + 2));
            let quote = second == 0x82
                && text
                    .get(i + 2)
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b"%$-<{[(/'\"`".contains(&b));
            capital_after_letter
                || serbian
                || quote
                || second == 0x94 && low_quotes_read_as_letters(text, i)
                || alone_before_directive(text, i)
                || dash_letter(text, i)
        }
        0xD1 => {
            matches!(second, 0x92 | 0x93 | 0x95 | 0x98..=0x9C | 0x9F)
                && (letter_before(text, i) || high_at(text, i + 2))
        }
        0xD2 => second == 0x91 && hard_g(text, i),
        // Before a letter too: IBM866's small letters read as windows-1251 put signs at both
        // ends of the soft hyphens and no-break spaces of `н` and `а` (`Ё\u{AD}¤ҐЄб`).
        0xC2 => {
            !matches!(second, 0xA0 | 0xAB | 0xAD | 0xBB)
                && (letter_before(text, i) || letter_at(text, i + 2))
                || matches!(second, 0xA0 | 0xBB) && begins_small_word(text, i, i + 2)
        }
        // `ƒ` before a word of small letters: x-mac-cyrillic's, for windows-1251's `Д`.
        0xC6 => second == 0x92 && begins_small_word(text, i, i + 2),
        0xE2 => {
            let boxes = matches!(second, 0x94 | 0x95)
                && (i > 0 && text[i - 1] >= 0x80 || high_at(text, i + 3));
            let third = text.get(i + 2).copied().unwrap_or(0);
            let sign = matches!(second, 0x80..=0x84)
                && !(second == 0x80 && matches!(third, 0x91 | 0x99))
                && letter_before(text, i)
                && (high_at(text, i + 3) || never_after_letters(second, third));
            // `≤ ≥` against a letter: IBM866's signs, x-mac-cyrillic's for `і І`.
            let compares = second == 0x89
                && matches!(third, 0xA4 | 0xA5)
                && (letter_before(text, i) || high_at(text, i + 3));
            // `√ ∆ ≈` before a word of small letters: x-mac-cyrillic's, for windows-1251's
            // `Г Ж Е`.
            let math = matches!((second, third), (0x88, 0x9A | 0x86) | (0x89, 0x88))
                && begins_small_word(text, i, i + 3);
            // Not the non-breaking hyphen, nor `„`, which opens a word in text.
            let before_word = matches!(second, 0x80..=0x84)
                && !(second == 0x80 && matches!(third, 0x91 | 0x9E))
                && begins_small_word(text, i, i + 3);
            // `„` before a word of small letters that nothing after it closes: x-mac-cyrillic's
            // `Д` read as windows-1251 (`„одати`).
            let low_quote = second == 0x80
                && third == 0x9E
                && begins_small_word(text, i, i + 3)
                && !closed_after(text, i + 3);
            boxes || sign || compares || math || before_word || low_quote
        }
        _ => false,
    }
}

/// Whether the `ґ` at `i` (bytes D2 91) is x-mac-cyrillic's `і` read as windows-1251
/// (`super::is_hard_g`, from the characters around it).
fn hard_g(text: &[u8], i: usize) -> bool {
    let prev = (i > 0)
        .then(|| first_char(&text[char_before(text, i)..]))
        .flatten();
    let next = first_char(&text[i + 2..]);
    super::is_hard_g(prev.unwrap_or(' '), next.unwrap_or(' '))
}

/// Whether the `Д` at `i` opens a quote of ASCII that a `У` closes (`Д%sУ`, `ДgitУ`:
/// windows-1251's `„` and `“` read as x-mac-cyrillic): no letter right before it, ASCII but a
/// space right after it, and a `У` after ASCII but a space later on its line.
fn low_quotes_read_as_letters(text: &[u8], i: usize) -> bool {
    let end = line_of(text, i).end;
    no_letter_before(text, i)
        && text.get(i + 2).is_some_and(u8::is_ascii_graphic)
        && memchr::memmem::find_iter(&text[i + 2..end], b"\xD0\xA3")
            .any(|k| k > 0 && text[i + 1 + k].is_ascii_graphic())
}

/// Whether a `“` or `”` follows `i` on its line.
fn closed_after(text: &[u8], i: usize) -> bool {
    let end = line_of(text, i).end;
    memchr::memmem::find_iter(&text[i..end], b"\xE2\x80")
        .any(|k| matches!(text.get(i + k + 2), Some(0x9C | 0x9D)))
}

/// Whether the letter at `i` (a byte D0) is `Ч` or `Р` alone between spaces before a small
/// letter: a dash of windows-1251 read as x-mac-cyrillic, or the reverse (`super::is_dash_letter`).
fn dash_letter(text: &[u8], i: usize) -> bool {
    matches!(text[i + 1], 0xA0 | 0xA7)
        && i > 0
        && text[i - 1] == b' '
        && text.get(i + 2) == Some(&b' ')
        && small_at(text, i + 3)
}

/// Whether the Cyrillic capital at `i` (a byte D0) stands alone right before a `%` (`З%sИ`:
/// x-mac-cyrillic's guillemets around a printf directive, read as windows-1251).
fn alone_before_directive(text: &[u8], i: usize) -> bool {
    text.get(i + 2) == Some(&b'%')
        && matches!(text[i + 1], 0x80..=0xAF)
        && no_letter_before(text, i)
}

/// Whether the sign E2 `second` `third` is one that no text writes right after a letter:
/// `€ ‰ † ‡ • ™ №`, what the code pages read as one another show for letters (`дл€` is `для`
/// in windows-1251 read as x-mac-cyrillic).
fn never_after_letters(second: u8, third: u8) -> bool {
    matches!(
        (second, third),
        (0x80, 0xA0..=0xA2 | 0xB0) | (0x82, 0xAC) | (0x84, 0x96 | 0xA2)
    )
}

/// The places of a block of 64 bytes where [`is_suspect_at`] may hold, a bit each (at least
/// those of bytes 2..=61).
pub(super) type CandidateMasks = fn(&[u8; 64]) -> u64;

/// The byte masks a block's candidates are made of.
struct ByteMasks {
    c2: u64,
    c6: u64,
    d0: u64,
    d1: u64,
    d2: u64,
    e2: u64,
    /// Bytes 80..8F, 90..9F, A0..AF, 94..95, 89.
    x8: u64,
    x9: u64,
    xa: u64,
    /// Bytes whose low half is one that Serbian and Macedonian letters end with in both rows
    /// (D0 8x and D1 9x: 2, 3, 5, 8..C, F).
    serbian: u64,
    boxes: u64,
    x89: u64,
    /// Bytes 91 (`ґ` is D2 91).
    x91: u64,
    /// Bytes `%`, and spaces.
    percent: u64,
    space: u64,
}

/// The candidates from a block's byte masks: each byte C2, D0, D1, D2 or E2 that
/// [`is_suspect_at`] may take, from the bytes right around it.
fn candidates(m: &ByteMasks) -> u64 {
    let leads = m.d0 | m.d1;
    m.d0 & (leads << 2 & (m.x8 | m.x9 | m.xa) >> 1 | (m.x8 & m.serbian) >> 1)
        | m.d1 & (m.x9 & m.serbian) >> 1
        | m.d2 & m.x91 >> 1
        | m.c2 & (leads << 2 | leads >> 2)
        | m.c6 & leads >> 2
        | m.d0 & m.boxes >> 1
        | m.e2 & (m.boxes >> 1 | m.x8 >> 1 & (leads << 2 | leads >> 3 | 1 << 61) | m.x89 >> 1)
        | m.d0 & (m.percent >> 2 | m.xa >> 1 & m.space << 1 & m.space >> 2)
}

/// The low halves of [`ByteMasks::serbian`], a bit each.
const SERBIAN_LOW: u16 = 1 << 2 | 1 << 3 | 1 << 5 | 0x1F << 8 | 1 << 15;

/// [`SERBIAN_LOW`] as a table of 16 bytes, for a byte shuffle: 0xFF where the low half is in.
#[cfg(target_arch = "x86_64")]
const SERBIAN_TABLE: [u8; 16] = {
    let mut table = [0; 16];
    let mut i = 0;
    while i < 16 {
        if SERBIAN_LOW >> i & 1 != 0 {
            table[i] = 0xFF;
        }
        i += 1;
    }
    table
};

/// [`CandidateMasks`] eight bytes at a time.
pub(super) fn portable_candidate_masks(block: &[u8; 64]) -> u64 {
    let words = words_of(block);
    // A block of ASCII, or of no byte C2, D0..D3 or E2, has no candidate: most blocks of
    // text that is not Cyrillic, passed over after one look at each word.
    let leads = |w: u64| {
        zero_bytes(w ^ (ONES * 0xC2))
            | zero_bytes((w & (ONES * 0xFC)) ^ (ONES * 0xD0))
            | zero_bytes(w ^ (ONES * 0xE2))
    };
    let with_leads = (0..8).fold(0u32, |bits, k| {
        let w = words[k];
        bits | u32::from(w & !LOW != 0 && leads(w) != 0) << k
    });
    if with_leads == 0 {
        return 0;
    }
    // Only the words with a lead and those beside them are looked at (French text has a `«` or
    // a no-break space here and there, and most of its words none).
    let wanted = with_neighbours(with_leads);
    let mut m = [0u64; 13];
    for (k, &w) in words.iter().enumerate() {
        if wanted >> k & 1 == 0 {
            continue;
        }
        let masked = |mask: u8, value: u8| {
            zero_bytes((w & (ONES * u64::from(mask))) ^ (ONES * u64::from(value)))
        };
        let words = [
            zero_bytes(w ^ (ONES * 0xC2)),
            zero_bytes(w ^ (ONES * 0xD0)),
            zero_bytes(w ^ (ONES * 0xD1)),
            zero_bytes(w ^ (ONES * 0xE2)),
            masked(0xF0, 0x80),
            masked(0xF0, 0x90),
            masked(0xF0, 0xA0),
            masked(0xFE, 0x94),
            masked(0xFF, 0x89),
            zero_bytes(w ^ (ONES * u64::from(b'%'))),
            zero_bytes(w ^ (ONES * u64::from(b' '))),
            zero_bytes(w ^ (ONES * 0xD2)),
            zero_bytes(w ^ (ONES * 0xC6)),
        ];
        for (mask, word) in m.iter_mut().zip(words) {
            *mask |= gather(word) << (8 * k);
        }
    }
    // The low halves are looked up only for bytes 80..9F right after a byte D0 or D1, the only
    // ones `candidates` asks them of.
    let mut asked = (m[4] | m[5]) & (m[1] | m[2]) << 1;
    let mut serbian = 0;
    while asked != 0 {
        let i = asked.trailing_zeros();
        serbian |= u64::from(SERBIAN_LOW >> (block[i as usize] & 0x0F) & 1) << i;
        asked &= asked - 1;
    }
    // Bytes 91 are looked for only right after a byte D2, which Russian text lacks.
    let (mut leads_d2, mut x91) = (m[11] & !(1 << 63), 0);
    while leads_d2 != 0 {
        let i = leads_d2.trailing_zeros() + 1;
        x91 |= u64::from(block[i as usize] == 0x91) << i;
        leads_d2 &= leads_d2 - 1;
    }
    candidates(&ByteMasks {
        c2: m[0],
        d0: m[1],
        d1: m[2],
        e2: m[3],
        x8: m[4],
        x9: m[5],
        xa: m[6],
        boxes: m[7],
        x89: m[8],
        percent: m[9],
        space: m[10],
        d2: m[11],
        c6: m[12],
        x91,
        serbian,
    })
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
        let zero = _mm256_setzero_si256();
        // SAFETY: the table holds 16 bytes: one unaligned load of 16 reads inside it.
        let table =
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(SERBIAN_TABLE.as_ptr().cast()) });
        let is = |v: __m256i, mask: u8, value: u8| {
            _mm256_cmpeq_epi8(
                _mm256_and_si256(v, _mm256_set1_epi8(mask as i8)),
                _mm256_set1_epi8(value as i8),
            )
        };
        let (or, and) = (
            |x: __m256i, y: __m256i| _mm256_or_si256(x, y),
            |x: __m256i, y: __m256i| _mm256_and_si256(x, y),
        );
        // The candidates of one half, `v`, from the half before it and the one after (zero past
        // the block), as `candidates` has them: each byte against the two before it and the two
        // after, in the vectors, and one mask at the end.
        let half = |before: __m256i, v: __m256i, after: __m256i| {
            let carried = _mm256_permute2x128_si256(before, v, 0x21);
            let prev2 = _mm256_alignr_epi8(v, carried, 14);
            let ahead = _mm256_permute2x128_si256(v, after, 0x21);
            let next = _mm256_alignr_epi8(ahead, v, 1);
            let after = _mm256_alignr_epi8(ahead, v, 2);
            let lead_after = is(after, 0xFE, 0xD0);
            let percent_after = is(after, 0xFF, b'%');
            let lead_third = is(_mm256_alignr_epi8(ahead, v, 3), 0xFE, 0xD0);
            let lead_before = is(prev2, 0xFE, 0xD0);
            let capital = or(is(next, 0xE0, 0x80), is(next, 0xF0, 0xA0));
            let serbian = _mm256_shuffle_epi8(table, and(next, _mm256_set1_epi8(0x0F)));
            let d0 = and(
                is(v, 0xFF, 0xD0),
                or(
                    and(lead_before, capital),
                    and(is(next, 0xF0, 0x80), serbian),
                ),
            );
            // A capital before `%`; `Ч` or `Р` (and the capitals beside them) between spaces.
            let prev1 = _mm256_alignr_epi8(v, carried, 15);
            let alone = and(is(prev1, 0xFF, b' '), is(after, 0xFF, b' '));
            // `Д` (and `Е`) before what may be a quote of ASCII.
            let d0 = or(
                d0,
                and(
                    is(v, 0xFF, 0xD0),
                    or(
                        or(percent_after, and(is(next, 0xF0, 0xA0), alone)),
                        is(next, 0xFE, 0x94),
                    ),
                ),
            );
            let d1 = and(is(v, 0xFF, 0xD1), and(is(next, 0xF0, 0x90), serbian));
            let d2 = and(is(v, 0xFF, 0xD2), is(next, 0xFF, 0x91));
            let c2 = and(is(v, 0xFF, 0xC2), or(lead_before, lead_after));
            let c6 = and(is(v, 0xFF, 0xC6), lead_after);
            let e2 = is(v, 0xFF, 0xE2);
            let sign = and(e2, is(next, 0xF0, 0x80));
            let e2 = or(
                and(e2, or(is(next, 0xFE, 0x94), is(next, 0xFF, 0x89))),
                and(sign, or(lead_before, lead_third)),
            );
            (
                _mm256_movemask_epi8(or(or(or(d0, d1), or(d2, c6)), or(c2, e2))) as u32,
                _mm256_movemask_epi8(sign) as u32,
            )
        };
        // A block of no byte C2, D0..D3 or E2 (most blocks of text that is not Cyrillic) has
        // no candidate.
        let leads = |v: __m256i| or(or(is(v, 0xFF, 0xC2), is(v, 0xFC, 0xD0)), is(v, 0xFF, 0xE2));
        let any = or(leads(a), leads(b));
        if _mm256_testz_si256(any, any) != 0 {
            return 0;
        }
        let (low, (high, signs)) = (half(zero, a, b).0, half(a, b, zero));
        // Byte 61's third byte after it lies past the block: a sign there is a candidate.
        u64::from(low) | u64::from(high | signs & 1 << 29) << 32
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
        let masked = |mask: u8, value: u8| {
            _mm512_cmpeq_epi8_mask(
                _mm512_and_si512(v, _mm512_set1_epi8(mask as i8)),
                _mm512_set1_epi8(value as i8),
            )
        };
        let (c2, c6, d0, d1, d2, e2) = (
            masked(0xFF, 0xC2),
            masked(0xFF, 0xC6),
            masked(0xFF, 0xD0),
            masked(0xFF, 0xD1),
            masked(0xFF, 0xD2),
            masked(0xFF, 0xE2),
        );
        // A block of none of those bytes (most blocks of text that is not Cyrillic) has no
        // candidate.
        if c2 | d0 | d1 | d2 | e2 == 0 {
            return 0;
        }
        // SAFETY: the table holds 16 bytes: one unaligned load of 16 reads inside it.
        let table =
            _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(SERBIAN_TABLE.as_ptr().cast()) });
        let serbian = _mm512_movepi8_mask(_mm512_shuffle_epi8(
            table,
            _mm512_and_si512(v, _mm512_set1_epi8(0x0F)),
        ));
        candidates(&ByteMasks {
            c2,
            c6,
            d0,
            d1,
            d2,
            e2,
            x8: masked(0xF0, 0x80),
            x9: masked(0xF0, 0x90),
            xa: masked(0xF0, 0xA0),
            boxes: masked(0xFE, 0x94),
            x89: masked(0xFF, 0x89),
            x91: masked(0xFF, 0x91),
            percent: masked(0xFF, b'%'),
            space: masked(0xFF, b' '),
            serbian,
        })
    }
    // SAFETY: `candidate_masks` chooses this path only when the processor has AVX-512 BW.
    unsafe { masks(block) }
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

    /// Text of the characters the filter tells apart: ASCII (`%` among it), small and capital
    /// Cyrillic letters, Serbian letters, signs, box drawing, C1 controls, CJK.
    fn texts() -> impl Strategy<Value = String> {
        crate::simd::texts_of(
            "ab \nпривтПРИВТДУƒ√∆≈ЁёїіґқЏџЂђЉ«»°·\u{a0}\u{ad}\u{85}–—’‑…№€≥≤™→╨╤─│中“‘„%",
        )
    }

    proptest! {
        /// Every level's block walk finds what the walk a byte at a time finds.
        #[test]
        fn every_simd_level_finds_what_the_bytewise_walk_finds(text in texts(), cut in 0usize..64) {
            // Each start within a block, so every byte sits at every place of one.
            let text = &text.as_bytes()[cut.min(text.len())..];
            let text = &text[text.iter().position(|&b| b & 0xC0 != 0x80).unwrap_or(text.len())..];
            let want = bytewise_in(text, 0, text.len());
            for (name, masks) in levels() {
                prop_assert_eq!(first_cyrillic_suspect_with(text, masks), want, "{}", name);
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

    /// Each kind of candidate alone in clean small letters, at every place of a block: the
    /// portable masks, which look only at the words with a lead and those beside them, are every
    /// level's, and every level's walk finds what the bytewise walk finds.
    #[test]
    fn every_kind_of_candidate_alone_at_every_place_of_a_block() {
        let kinds = [
            "пР",
            "пЯ",
            "пП",
            "пЀ",
            "ЂУ",
            "пђ",
            "пџ",
            "архґв",
            "Д%",
            "З%s",
            "л%s",
            " Ч з",
            " Р ф",
            "Дa",
            "«п",
            "п«",
            "ƒп",
            "        ƒп",
            "п—п",
            "╨Я",
            "п…",
            "а\u{85}б",
            "√а",
            "Ґ",
        ];
        let mut tested = 0;
        for kind in kinds {
            for at in 0..70 {
                let mut text = String::new();
                while text.len() < at {
                    text.push(if text.len() % 7 == 6 { ' ' } else { 'п' });
                }
                text.push_str(kind);
                text.push_str(&" слово".repeat(12));
                let bytes = text.as_bytes();
                let want = bytewise_in(bytes, 0, bytes.len());
                for (name, masks) in levels() {
                    assert_eq!(
                        first_cyrillic_suspect_with(bytes, masks),
                        want,
                        "{name} {text:?}"
                    );
                }
                for start in [0, at.saturating_sub(30)] {
                    let block = crate::simd::block_from(&bytes[start..]);
                    let portable = portable_candidate_masks(&block);
                    for (name, masks) in levels() {
                        assert_eq!(masks(&block), portable, "{name} {text:?} from {start}");
                    }
                }
                tested += usize::from(want.is_some());
            }
        }
        // Most kinds are found wherever they stand (the rest are there to be passed over).
        assert!(tested > 1000, "{tested}");
    }

    #[test]
    fn every_level_gives_the_portable_candidates() {
        let text = "пґд —тобы привет рТЙЧЕФ ╨Я╤А ЏаЁўҐв а\u{85}б–Я ".repeat(2);
        let mut block = [0u8; 64];
        block.copy_from_slice(&text.as_bytes()[..64]);
        let want = portable_candidate_masks(&block);
        assert_ne!(want, 0);
        for (name, masks) in levels() {
            assert_eq!(masks(&block), want, "{name}");
        }
    }

    #[test]
    fn finds_the_first_flaw_of_each_kind() {
        let at = |s: &str| first_cyrillic_suspect(s.as_bytes());
        // Clean Russian, Ukrainian, Serbian words apart: nothing.
        assert_eq!(at("Привет, мир! Москва — «столица». М’ята, їжак.\n"), None);
        assert_eq!(at("Внимание: ошибка в сети\n"), None);
        // Capitals after capitals, five at least, and three words of them for each other
        // Cyrillic word.
        assert_eq!(at("ok ВН ДА"), None);
        assert_eq!(at("ok ВНИМ ДА"), Some(5));
        assert_eq!(at("ok ВНИМ ДА нет"), None);
        assert_eq!(at("нет ВНИМ ДА ТАК"), Some(9));
        // A capital alone right before a `%`: at its lead; not one that ends a word, nor a
        // small letter.
        assert_eq!(at("хэша З%sИ"), Some(9));
        assert_eq!(at("Порт З%*sОстанній"), Some(9));
        assert_eq!(at("файл%s, з %s, у%s, ФАЙЛ%s, 5%"), None);
        // `Ч` or `Р` alone between spaces before a small letter: at its lead.
        assert_eq!(at("\"%s\" Ч зарезервированный"), Some(5));
        assert_eq!(at("Ошибка Р файл"), Some(13));
        assert_eq!(at("Ч файл, о Ч, ЧАС Ч ЧАС, С файл"), None);
        // A small letter, then a capital: at the capital's lead.
        assert_eq!(at("ok рТЙЧЕФ"), Some(5));
        // Box drawing against a letter.
        assert_eq!(at("x ╨Я"), Some(2));
        // A Serbian letter against a letter.
        assert_eq!(at("ЏаЁ"), Some(0));
        // A C1 control after a letter.
        assert_eq!(at("а\u{9F}б"), Some(2));
        // A dash between letters, but not the apostrophe.
        assert_eq!(at("ab Я—А"), Some(5));
        assert_eq!(at("м’ята"), None);
        // `ґ` after a consonant but `н`, or alone: at its lead.
        assert_eq!(at("архґв"), Some(6));
        assert_eq!(at("теґ аґрус Вашинґтон ґанок қар"), None);
        assert_eq!(at("що ґ"), Some(5));
        // `„` before a word of small letters that nothing closes: at its lead.
        assert_eq!(at("_„одати"), Some(1));
        assert_eq!(at("„одати“ і „%s”"), None);
        // `Д` opening a quote of ASCII that a `У` closes, `ƒ`, `»`, `√`, `∆` or `≈` before a
        // word of small letters: at its lead.
        assert_eq!(at("на ДgitУ"), Some(5));
        assert_eq!(at("на Д%sУ и Д x У"), Some(5));
        assert_eq!(at("Д x У, ДНК, Дa"), None);
        assert_eq!(at("ƒали"), Some(0));
        assert_eq!(at("-p »звеждане"), Some(3));
        assert_eq!(at("«слово» и"), None);
        assert_eq!(at("√абороне ∆есткий ≈сли"), Some(0));
        assert_eq!(at("a ∆есткий"), Some(2));
    }
}
