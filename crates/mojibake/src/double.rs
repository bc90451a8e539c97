//! UTF-8 read as a double-byte encoding: `鍙傛暟閿欒` is `参数错误` read as GBK, `譁�蟄怜喧縺�`
//! is `文字化け` read as Shift_JIS. Each pair of bytes became one character, so a line's
//! characters, written back in that encoding, give the UTF-8 bytes again.
//!
//! Such a reading often lost bytes: a lead byte before a byte it cannot pair with, or a pair the
//! encoding leaves undefined, became U+FFFD (one or two bytes each, as the WHATWG decoders do;
//! some decoders write `?`, which is read as a gap where a `?` of the text could not stand).
//! Each lost place is a gap: the characters whose bytes it cut become one U+FFFD each, and the
//! rest of the line is restored.
//!
//! The judging weighs characters, not words: the characters a reading of UTF-8 gives are rare
//! ones (the first two bytes of every CJK character in UTF-8 are, in each of these encodings, a
//! pair from its second level or its extensions), while text uses its common ones. A line is
//! undone only when its characters are rare, the answer's are common, and the answer holds no
//! control or private-use character; any doubt leaves the line.

use std::sync::OnceLock;

use encoding_rs::Encoding as Codec;

use crate::double_starts::STARTS;
use crate::letters::is_alphabetic;
use crate::scripts::{Script, script};

/// The double-byte encodings whose reading of UTF-8 is undone, in the order ties go.
pub(crate) const READINGS: [&Codec; 5] = [
    encoding_rs::GBK,
    encoding_rs::SHIFT_JIS,
    encoding_rs::BIG5,
    encoding_rs::EUC_KR,
    encoding_rs::EUC_JP,
];

const N: usize = READINGS.len();

/// A character CJK text uses every day: the first level of each encoding's ideographs (GB2312's
/// 3,755, JIS level 1, Big5's frequent ones), KS X 1001's 2,350 hangul, kana, CJK punctuation,
/// the fullwidth forms of ASCII.
const COMMON: u8 = 1;
/// A character one of the encodings has as a pair.
const KNOWN: u8 = 2;
/// A character with two byte sequences in some reading.
const TWO_WAYS: u8 = 4;

/// What the readings need, built once from the encodings' decoders.
struct Tables {
    /// Each BMP character's bytes in each reading: `length << 24 | bytes`, or 0 when it has none.
    /// When two byte sequences decode to one character, the first in byte order.
    bytes: Box<[[u32; N]]>,
    /// Each BMP character's [`COMMON`], [`KNOWN`] and [`TWO_WAYS`] bits.
    class: Box<[u8]>,
    /// The byte sequences of the characters beyond the BMP (Big5's): `(character, reading,
    /// code)`, sorted.
    astral: Vec<(u32, usize, u32)>,
    /// The second byte sequence of a character that has two in a reading: `(character,
    /// reading, code)`, sorted.
    alternates: Vec<(u32, usize, u32)>,
}

impl Tables {
    fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::build)
    }

    fn build() -> Tables {
        let mut bytes = vec![[0u32; N]; 0x10000].into_boxed_slice();
        let mut class = vec![0u8; 0x10000].into_boxed_slice();
        let mut alternates = Vec::new();
        let mut has_alternate = vec![[false; N]; 0x10000];
        let mut astral = Vec::new();
        for (r, codec) in READINGS.iter().enumerate() {
            for (b, c) in (0x80..=0xFFu32).zip(decode_each(codec, 0x80..=0xFF, None)) {
                if let Some(c) = c {
                    bytes[c][r] = 1 << 24 | b;
                }
            }
            for lead in 0x81..=0xFEu32 {
                let row = decode_each(codec, 0x40..=0xFE, Some(lead as u8));
                for (trail, c) in (0x40..=0xFEu32).zip(row) {
                    let Some(c) = c else {
                        continue;
                    };
                    let pair = lead << 8 | trail;
                    if c > 0xFFFF {
                        if !astral.iter().any(|&(a, ar, _)| a == c as u32 && ar == r) {
                            astral.push((c as u32, r, 2 << 24 | pair));
                        }
                        continue;
                    }
                    if bytes[c][r] == 0 {
                        bytes[c][r] = 2 << 24 | pair;
                    } else if !has_alternate[c][r] {
                        has_alternate[c][r] = true;
                        alternates.push((c as u32, r, 2 << 24 | pair));
                        class[c] |= TWO_WAYS;
                    }
                    class[c] |= KNOWN;
                    if is_common_pair(r, pair) {
                        class[c] |= COMMON;
                    }
                }
            }
        }
        for c in (0x3000..=0x30FF).chain(0xFF01..=0xFF5E) {
            class[c] |= COMMON;
        }
        alternates.sort_unstable();
        astral.sort_unstable();
        Tables {
            bytes,
            class,
            alternates,
            astral,
        }
    }

    /// The characters that may begin a line of mojibake ([`STARTS`]), from the tables.
    #[cfg(test)]
    fn starts(&self) -> Vec<u64> {
        let mut starts = vec![0u64; 1024];
        for (cp, row) in self.bytes.iter().enumerate() {
            let Some(c) = char::from_u32(cp as u32).filter(|_| is_cjk(cp as u32)) else {
                continue;
            };
            let union_rare = self.class[cp] & COMMON == 0;
            let begins = |r: usize, code: u32| {
                if code >> 24 == 1 {
                    // Shift_JIS's halfwidth katakana at C2..DF.
                    return may_begin_utf8(code);
                }
                let lead = (code >> 8) as u8;
                // The pair of a lead of Cyrillic (D0..D3), of punctuation, kana, ideographs and
                // hangul (E2..ED) or of the fullwidth forms (EF) with its first continuation:
                // where such mojibake begins. Rare in the reading's own text (KS X 1001's hanja,
                // common in Chinese, rare in every text), so that a line of CJK text seldom
                // begins with one; Cyrillic's pairs, which GBK reads as common ideographs, always.
                let rare_here = !is_common_pair(r, code & 0xFFFF) && (r != 3 || union_rare);
                matches!(lead, 0xD0..=0xD3 | 0xE2..=0xED | 0xEF)
                    && may_begin_utf8(code)
                    && (rare_here || lead < 0xE0)
            };
            let codes =
                (0..N).flat_map(|r| [Some(row[r]), self.alternate(c, r)].map(|code| (r, code)));
            if codes
                .filter_map(|(r, code)| Some((r, code?)))
                .any(|(r, code)| code != 0 && begins(r, code))
            {
                starts[cp >> 6] |= 1 << (cp & 63);
            }
        }
        starts
    }

    /// Whether the first characters of `text` (well-formed UTF-8) could be written back as
    /// UTF-8 in some reading: [`encode`] of their few first characters, without building the
    /// line, for the lines the line filter stops at.
    fn may_begin(&self, text: &[u8]) -> bool {
        let mut states = [Some(Utf8State::default()); N];
        let mut chars = text
            .utf8_chunks()
            .flat_map(|chunk| chunk.valid().chars())
            .take(4);
        let Some(first) = chars.next() else {
            return false;
        };
        for c in std::iter::once(first).chain(chars) {
            // A gap, or what may be one: the line is built.
            if c == '\u{FFFD}' || c == '?' {
                return true;
            }
            let row = if c.is_ascii() {
                [1 << 24 | u32::from(c); N]
            } else {
                match self.bytes.get(c as usize) {
                    Some(row) => *row,
                    // Beyond the BMP: the line is built.
                    None => return true,
                }
            };
            for (r, state) in states.iter_mut().enumerate() {
                if self.class(c) & TWO_WAYS != 0 {
                    // Either of two ways may go on: the line is built.
                    return true;
                }
                *state = state.and_then(|s| if row[r] == 0 { None } else { s.after(row[r]) });
            }
            if states.iter().all(Option::is_none) {
                return false;
            }
        }
        true
    }

    /// The byte sequence of `c`, beyond the BMP, in reading `r`, if it has one.
    fn astral_code(&self, c: char, r: usize) -> Option<u32> {
        let key = (c as u32, r);
        self.astral
            .binary_search_by(|&(a, ar, _)| (a, ar).cmp(&key))
            .ok()
            .map(|i| self.astral[i].2)
    }

    /// The second byte sequence of `c` in reading `r`, if it has two.
    fn alternate(&self, c: char, r: usize) -> Option<u32> {
        if self.class(c) & TWO_WAYS == 0 {
            return None;
        }
        let key = (c as u32, r);
        self.alternates
            .binary_search_by(|&(a, ar, _)| (a, ar).cmp(&key))
            .ok()
            .map(|i| self.alternates[i].2)
    }

    fn class(&self, c: char) -> u8 {
        self.class.get(c as usize).copied().unwrap_or(0)
    }
}

/// What each of `bytes` (after `lead`, when there is one) decodes to in `codec`: the one
/// character, not ASCII, it gives whole, if it does. All in one call: each sequence is followed
/// by a newline, which the decoder always gives back (after a sequence, or after the error of
/// one it cuts short).
fn decode_each(
    codec: &'static Codec,
    bytes: std::ops::RangeInclusive<u8>,
    lead: Option<u8>,
) -> Vec<Option<usize>> {
    let mut input = Vec::with_capacity(3 * 256);
    for b in bytes {
        input.extend(lead);
        input.extend([b, b'\n']);
    }
    let mut decoder = codec.new_decoder_without_bom_handling();
    let mut out = vec![0u16; input.len() * 2 + 16];
    let (_, _, written, _) = decoder.decode_to_utf16(&input, &mut out, true);
    out[..written]
        .split(|&u| u == u16::from(b'\n'))
        .map(|piece| match *piece {
            [u] if u >= 0x80 && u != 0xFFFD && !(0xD800..0xE000).contains(&u) => {
                Some(usize::from(u))
            }
            // Big5's ideographs beyond the BMP.
            [high, low] if (0xD800..0xDC00).contains(&high) && (0xDC00..0xE000).contains(&low) => {
                Some(0x10000 + (usize::from(high - 0xD800) << 10 | usize::from(low - 0xDC00)))
            }
            _ => None,
        })
        .collect()
}

/// The one BMP character, not ASCII, that `input` decodes to whole in `codec`.
#[cfg(test)]
fn decode_one(codec: &'static Codec, input: &[u8]) -> Option<usize> {
    let mut decoder = codec.new_decoder_without_bom_handling();
    let mut out = [0u16; 4];
    let (result, read, written) =
        decoder.decode_to_utf16_without_replacement(input, &mut out, true);
    let c = usize::from(out[0]);
    (result == encoding_rs::DecoderResult::InputEmpty
        && read == input.len()
        && written == 1
        && c >= 0x80
        && !(0xD800..0xE000).contains(&c))
    .then_some(c)
}

/// Whether `pair` is in the common part of reading `r` (see [`COMMON`]).
fn is_common_pair(r: usize, pair: u32) -> bool {
    let (lead, trail) = (pair >> 8, pair & 0xFF);
    match r {
        // GB2312 level 1.
        0 => (0xB0..=0xD7).contains(&lead) && trail >= 0xA1,
        // JIS X 0208 level 1 in Shift_JIS.
        1 => (0x889F..=0x9872).contains(&pair),
        // Big5's frequent ideographs.
        2 => (0xA440..=0xC67E).contains(&pair),
        // KS X 1001's hangul.
        3 => (0xB0..=0xC8).contains(&lead) && trail >= 0xA1,
        // JIS X 0208 level 1 in EUC-JP.
        _ => (0xB0..=0xCF).contains(&lead) && trail >= 0xA1,
    }
}

/// Whether bytes `code` (`length << 24 | bytes`) may begin UTF-8 that goes on after them: a
/// lead byte, and a continuation after it.
#[cfg(test)]
fn may_begin_utf8(code: u32) -> bool {
    let (b0, b1) = if code >> 24 == 1 {
        (code as u8, None)
    } else {
        ((code >> 8) as u8, Some(code as u8))
    };
    (0xC2..=0xF4).contains(&b0) && b1.is_none_or(|b| b & 0xC0 == 0x80)
}

/// Whether `cp` is an ideograph, a hangul syllable, a halfwidth katakana or a private-use
/// character: what every reading of CJK text's UTF-8 gives.
fn is_cjk(cp: u32) -> bool {
    matches!(
        cp,
        0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7A3
            | 0xE000..=0xF8FF
            | 0xF900..=0xFAFF
            | 0xFF61..=0xFF9F
            | 0x20000..=0x3FFFF
    )
}

/// A character no text would hold where a reading's answer puts it.
const REFUSED: u32 = u32::MAX / 4;

/// What a character says against being text, in halves: 0 for what text uses every day, 2 for
/// a rare ideograph, a halfwidth katakana, a symbol; [`REFUSED`] for a control, a private-use
/// character, a noncharacter.
fn cost(c: char, tables: &Tables) -> u32 {
    let cp = u32::from(c);
    // ASCII is what it was: a reading writes back the controls the line holds, and no other.
    if c.is_ascii() || c == '\u{FFFD}' {
        return 0;
    }
    if tables.class(c) & COMMON != 0 {
        return 0;
    }
    if cp < 0xA0
        || (0xE000..=0xF8FF).contains(&cp)
        || (0xFDD0..=0xFDEF).contains(&cp)
        || cp & 0xFFFE == 0xFFFE
        || cp >= 0xF0000
    {
        return REFUSED;
    }
    if cp <= 0xBF || (0x2000..=0x206F).contains(&cp) {
        return 0;
    }
    // The letters of the alphabets' own blocks; not their extensions, which only some
    // languages use (Latin Extended-B, IPA, the Cyrillic supplement).
    let alphabet = matches!(cp, 0xC0..=0x17F | 0x370..=0x4FF | 0x531..=0x6FF | 0xE00..=0xE7F);
    if alphabet
        && is_alphabetic(c)
        && matches!(
            script(c),
            Script::Latin
                | Script::Greek
                | Script::Cyrillic
                | Script::Armenian
                | Script::Hebrew
                | Script::Arabic
                | Script::Thai
        )
    {
        return 0;
    }
    2
}

/// The reading undone on a line: the answer, how many characters it restored, and the reading
/// (an index into [`READINGS`]).
pub(crate) struct Undone {
    pub(crate) text: String,
    pub(crate) restored: usize,
    pub(crate) reading: usize,
}

/// Where in `text` (well-formed UTF-8, whole lines) a double-byte reading's mojibake may
/// start: a character of three bytes in UTF-8 that a double-byte encoding has as a pair and CJK
/// text seldom uses (the first two bytes of every CJK character in UTF-8 read as such a pair),
/// on a line whose characters could be written back in some reading as UTF-8. Most lines of
/// clean text, CJK text among them, are passed over without the judging.
pub(crate) fn first_double_suspect(text: &[u8]) -> Option<usize> {
    let mut bytes = Vec::new();
    let mut at = 0;
    loop {
        let first = next_line_first(text, at)?;
        let line_end = memchr::memchr(b'\n', &text[first..]).map_or(text.len(), |end| first + end);
        let tables = Tables::get();
        if tables.may_begin(&text[first..line_end]) {
            let line_start = memchr::memrchr(b'\n', &text[..first]).map_or(0, |end| end + 1);
            let line = simdutf8::basic::from_utf8(&text[line_start..line_end]).ok()?;
            if (0..N).any(|r| encode(line, r, tables, &mut bytes)) {
                return Some(first);
            }
        }
        at = line_end;
    }
}

/// Whether `text` begins with a character of [`STARTS`] or U+FFFD.
fn begins_mojibake(text: &[u8]) -> bool {
    let Some(&[b0, b1, b2]) = text
        .get(..3)
        .map(|s| <&[u8; 3]>::try_from(s).expect("three"))
    else {
        return false;
    };
    let cp = usize::from(b0 & 0x0F) << 12 | usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F);
    b0 & 0xF0 == 0xE0 && (cp == 0xFFFD || STARTS[cp >> 6] >> (cp & 63) & 1 != 0)
}

/// The first byte that is not ASCII of the first line of `text` from `from` on (`from` begins
/// a line) whose first such byte [`begins_mojibake`]; 64 bytes at a time, with SIMD where the
/// processor has it, and no step for each line but for those that begin with a byte E0..EF.
fn next_line_first(text: &[u8], from: usize) -> Option<usize> {
    next_line_first_with(text, from, block_masks())
}

/// [`next_line_first`] with the block masks of one SIMD level.
fn next_line_first_with(text: &[u8], from: usize, masks: BlockMasks) -> Option<usize> {
    // Whether the next byte begins a line, or goes on one, that has had no byte that is not
    // ASCII yet.
    let mut wants_first = true;
    let mut i = from;
    while let Some(block) = text.get(i..i + 64) {
        let Masks {
            newlines,
            high,
            three_byte_leads,
        } = masks(block.try_into().expect("64 bytes"));
        // Each byte after a newline begins a line. Subtracting those bits from the bits of the
        // bytes that are not ASCII and the newlines clears, for each, the first of them at or
        // after it (a borrow runs up to it, and stops at the line's end): the line's first
        // byte that is not ASCII, or its newline. A line with neither in the block borrows out
        // of the top.
        let starts = newlines << 1 | u64::from(wants_first);
        let (after, borrow) = (high | newlines).overflowing_sub(starts);
        let mut firsts = high & !after & three_byte_leads;
        while firsts != 0 {
            let first = i + firsts.trailing_zeros() as usize;
            if begins_mojibake(&text[first..]) {
                return Some(first);
            }
            firsts &= firsts - 1;
        }
        wants_first = borrow || newlines >> 63 != 0;
        i += 64;
    }
    for (k, &b) in text.get(i..)?.iter().enumerate() {
        if b == b'\n' {
            wants_first = true;
        } else if b >= 0x80 && wants_first {
            if begins_mojibake(&text[i + k..]) {
                return Some(i + k);
            }
            wants_first = false;
        }
    }
    None
}

/// A block's bytes, one bit for each: the newlines, the bytes that are not ASCII, and the leads
/// of three-byte sequences (E0..EF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Masks {
    newlines: u64,
    high: u64,
    three_byte_leads: u64,
}

/// The [`Masks`] of a block of 64 bytes.
type BlockMasks = fn(&[u8; 64]) -> Masks;

/// The [`BlockMasks`] of the highest SIMD level this processor has and the program allows.
fn block_masks() -> BlockMasks {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx512bw() {
            return avx512_block_masks;
        }
        if crate::simd::has_avx2() {
            return avx2_block_masks;
        }
    }
    portable_block_masks
}

/// [`BlockMasks`] eight bytes at a time.
fn portable_block_masks(block: &[u8; 64]) -> Masks {
    const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte that is zero, exactly.
    let zero_bytes = |x: u64| !((x & LOW).wrapping_add(LOW) | x | LOW);
    // The high bit of each of eight bytes, as eight bits.
    let gather = |high: u64| ((high >> 7) & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut masks = Masks {
        newlines: 0,
        high: 0,
        three_byte_leads: 0,
    };
    for (k, word) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        masks.newlines |= gather(zero_bytes(word ^ (ONES * 0x0A))) << (8 * k);
        masks.high |= gather(word & !LOW) << (8 * k);
        masks.three_byte_leads |=
            gather(zero_bytes((word & (ONES * 0xF0)) ^ (ONES * 0xE0))) << (8 * k);
    }
    masks
}

/// [`BlockMasks`] with AVX2.
#[cfg(target_arch = "x86_64")]
fn avx2_block_masks(block: &[u8; 64]) -> Masks {
    #[target_feature(enable = "avx2")]
    fn masks(block: &[u8; 64]) -> Masks {
        use std::arch::x86_64::*;
        // SAFETY: the block holds 64 bytes: two unaligned loads of 32 read inside it.
        let halves = unsafe {
            [
                _mm256_loadu_si256(block.as_ptr().cast()),
                _mm256_loadu_si256(block.as_ptr().add(32).cast()),
            ]
        };
        let [a, b] = halves;
        let newline = _mm256_set1_epi8(b'\n' as i8);
        let nibble = _mm256_set1_epi8(0xF0u8 as i8);
        let lead = _mm256_set1_epi8(0xE0u8 as i8);
        let bits = |lo: __m256i, hi: __m256i| {
            u64::from(_mm256_movemask_epi8(lo) as u32)
                | u64::from(_mm256_movemask_epi8(hi) as u32) << 32
        };
        Masks {
            newlines: bits(_mm256_cmpeq_epi8(a, newline), _mm256_cmpeq_epi8(b, newline)),
            high: bits(a, b),
            three_byte_leads: bits(
                _mm256_cmpeq_epi8(_mm256_and_si256(a, nibble), lead),
                _mm256_cmpeq_epi8(_mm256_and_si256(b, nibble), lead),
            ),
        }
    }
    // SAFETY: `block_masks` chooses this path only when the processor has AVX2.
    unsafe { masks(block) }
}

/// [`BlockMasks`] with AVX-512 BW.
#[cfg(target_arch = "x86_64")]
fn avx512_block_masks(block: &[u8; 64]) -> Masks {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn masks(block: &[u8; 64]) -> Masks {
        use std::arch::x86_64::*;
        // SAFETY: the block holds 64 bytes: one unaligned load of 64 reads inside it.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        Masks {
            newlines: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\n' as i8)),
            high: _mm512_movepi8_mask(v),
            three_byte_leads: _mm512_cmpeq_epi8_mask(
                _mm512_and_si512(v, _mm512_set1_epi8(0xF0u8 as i8)),
                _mm512_set1_epi8(0xE0u8 as i8),
            ),
        }
    }
    // SAFETY: `block_masks` chooses this path only when the processor has AVX-512 BW.
    unsafe { masks(block) }
}

/// Undoes the double-byte reading that best explains `text`, a line, if one does.
pub(crate) fn undo_double(text: &str) -> Option<Undone> {
    // The text is judged as one line: its first character that is not ASCII must begin such
    // mojibake (most lines the single-byte filter stops at end here, at once).
    let first = text.bytes().position(|b| b >= 0x80)?;
    if !begins_mojibake(&text.as_bytes()[first..]) {
        return None;
    }
    let tables = Tables::get();
    if !tables.may_begin(&text.as_bytes()[first..]) {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() * 2);
    let mut best: Option<((u32, std::cmp::Reverse<usize>), Undone)> = None;
    let mut before = None;
    for r in 0..N {
        if !encode(text, r, tables, &mut bytes) {
            continue;
        }
        // What the line says against being text: its rare ideographs, hangul and halfwidth
        // katakana, and private-use characters (the reading of a pair the encoding leaves to
        // its users), as much as a rare ideograph each. Symbols say nothing here: garbled text
        // is full of them.
        let before = *before.get_or_insert_with(|| {
            text.chars()
                .filter(|&c| is_cjk(u32::from(c)))
                .map(|c| cost(c, tables).min(2))
                .sum::<u32>()
        });
        // Rare characters are the only evidence: a line without one is left.
        if before < 2 {
            return None;
        }
        let Some((answer, damaged)) = decode_with_gaps(&bytes) else {
            continue;
        };
        let after = answer
            .chars()
            .map(|c| cost(c, tables))
            .fold(0u32, u32::saturating_add);
        let restored = answer.chars().filter(|&c| !c.is_ascii()).count() - damaged;
        // The answer is text, its characters common where the line's were rare; and a reading
        // that lost more characters than it gives back whole is left.
        if after >= REFUSED || before < 2 * after + 2 || restored == 0 {
            continue;
        }
        // On a tie, the answer with fewer letters outside the core of their alphabets and
        // fewer lost characters.
        let odd = answer.chars().filter(|&c| !is_core_letter(c)).count() + damaged;
        let margin = (before - 2 * after, std::cmp::Reverse(odd));
        if best.as_ref().is_none_or(|(m, _)| margin > *m) {
            best = Some((
                margin,
                Undone {
                    text: answer,
                    restored,
                    reading: r,
                },
            ));
        }
    }
    best.map(|(_, undone)| undone)
}

/// Whether `c` is ASCII, a CJK character, or a letter of the core of its alphabet: Latin-1's
/// and Latin Extended-A, Greek's, the Cyrillic letters Russian, Ukrainian, Belarusian, Serbian,
/// Macedonian and Bulgarian write.
fn is_core_letter(c: char) -> bool {
    matches!(u32::from(c), 0..=0x7F | 0xC0..=0x17F | 0x386..=0x3CE | 0x400..=0x45F | 0x490 | 0x491)
        || u32::from(c) >= 0x3000
}

/// How far the bytes written so far are UTF-8: continuation bytes still owed, and whether a gap
/// came last (continuations orphaned by a lost lead may follow one).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Utf8State {
    owed: u8,
    after_gap: bool,
}

impl Utf8State {
    /// The state after the bytes of `code` (`length << 24 | bytes`), if they may follow.
    fn after(self, code: u32) -> Option<Utf8State> {
        let mut state = self;
        for k in (0..code >> 24).rev() {
            let b = (code >> (8 * k)) as u8;
            let is_continuation = b & 0xC0 == 0x80;
            if state.owed > 0 {
                if !is_continuation {
                    return None;
                }
                state.owed -= 1;
            } else if is_continuation {
                if !state.after_gap {
                    return None;
                }
            } else {
                state.after_gap = false;
                state.owed = match b {
                    0x00..=0x7F => 0,
                    0xC2..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF4 => 3,
                    _ => return None,
                };
            }
        }
        Some(state)
    }
}

/// The bytes of `text` in reading `r`, each U+FFFD as [`GAP`]: whether every character has
/// bytes there and they could be UTF-8 with bytes lost at the gaps (checked as they are
/// written, so that most clean lines stop at their first characters). A character with two byte
/// sequences in the reading (GBK reads both 80 and A2 E3 as €) is written both ways while both
/// may go on.
fn encode(text: &str, r: usize, tables: &Tables, bytes: &mut Vec<u8>) -> bool {
    bytes.clear();
    let mut state = Utf8State::default();
    // The other way, when a character had two: its state and bytes so far.
    let mut other: Option<(Utf8State, Vec<u8>)> = None;
    for c in text.chars() {
        let (code, alternate) = if c == '\u{FFFD}' {
            (0, None)
        } else if c == '?' {
            // Some decoders write `?` where bytes were lost: a gap too, when the text as
            // written cannot go on.
            (1 << 24 | u32::from(c), Some(0))
        } else if c.is_ascii() {
            (1 << 24 | u32::from(c), None)
        } else {
            match tables.bytes.get(c as usize) {
                Some(row) if row[r] != 0 => (row[r], tables.alternate(c, r)),
                Some(_) => return false,
                None => match tables.astral_code(c, r) {
                    Some(code) => (code, None),
                    None => return false,
                },
            }
        };
        // One way and one sequence: written in place.
        if alternate.is_none() && other.is_none() {
            match write(state, bytes, code) {
                Some(next) => {
                    state = next;
                    continue;
                }
                None => return false,
            }
        }

        // Every way still open, each with each of the character's sequences.
        let mut ways: Vec<(Utf8State, Vec<u8>)> = Vec::new();
        let mut open = [other.take(), Some((state, std::mem::take(bytes)))];
        for way in open.iter_mut() {
            let Some((from, written)) = way.take() else {
                continue;
            };
            if let Some(alternate) = alternate {
                let mut copy = written.clone();
                if let Some(next) = write(from, &mut copy, alternate) {
                    ways.push((next, copy));
                }
            }
            let mut written = written;
            if let Some(next) = write(from, &mut written, code) {
                ways.push((next, written));
            }
        }
        // The last pushed is the first sequence of the way that went on in `bytes`: it goes on
        // there while it can.
        let Some((next, written)) = ways.pop() else {
            return false;
        };
        state = next;
        *bytes = written;
        other = ways.into_iter().rev().find(|(s, _)| *s != state);
    }
    if state.owed == 0 || bytes.last() == Some(&GAP) {
        return true;
    }
    match other {
        Some((s, written)) if s.owed == 0 => {
            *bytes = written;
            true
        }
        _ => false,
    }
}

/// `code` (`length << 24 | bytes`, or 0 for a gap) written after bytes in `state`: the state
/// after it, or `None` when its bytes cannot follow.
fn write(state: Utf8State, bytes: &mut Vec<u8>, code: u32) -> Option<Utf8State> {
    if code == 0 {
        bytes.push(GAP);
        return Some(Utf8State {
            owed: 0,
            after_gap: true,
        });
    }
    let next = state.after(code)?;
    for k in (0..code >> 24).rev() {
        bytes.push((code >> (8 * k)) as u8);
    }
    Some(next)
}

/// Where a reading lost bytes; never a byte of UTF-8.
const GAP: u8 = 0xFF;

/// `bytes` as UTF-8, each character cut by a gap as one U+FFFD; and how many there are. `None`
/// when a part between gaps is not UTF-8 but for the characters a gap cut.
fn decode_with_gaps(bytes: &[u8]) -> Option<(String, usize)> {
    let mut text = String::with_capacity(bytes.len());
    let mut damaged = 0;
    // Continuation bytes the character cut by the last gap still needed.
    let mut owed = 0usize;
    let parts = bytes.iter().filter(|&&b| b == GAP).count() + 1;
    // Gaps side by side are one that lost up to two bytes each.
    let mut gaps = 0usize;
    for (k, part) in bytes.split(|&b| b == GAP).enumerate() {
        let after_gap = k > 0;
        if after_gap {
            gaps += 1;
        }
        if after_gap && part.is_empty() && k + 1 < parts {
            continue;
        }
        let orphans = if after_gap {
            part.iter().take_while(|&&b| b & 0xC0 == 0x80).count()
        } else {
            0
        };
        if after_gap {
            // Each U+FFFD of the gap lost one byte or two (a lead and the byte it could not
            // pair with). The gap cut one character when what it left on both sides is one with
            // that many bytes lost; else the one it left unfinished and the one it left
            // without a lead, or a whole one lost too when the gap lost more than the first
            // still owed.
            let (least, most) = (gaps, 2 * gaps);
            let one = owed > orphans && (least..=most).contains(&(owed - orphans));
            gaps = 0;
            let cut = match (owed > 0, orphans > 0) {
                (true, true) if !one => 2,
                (true, false) if least > owed => 2,
                (false, false) => {
                    // Only whole characters were lost: as many as the bytes lost make of
                    // characters as long as their neighbours (a U+FFFD for each 2-byte letter
                    // of Cyrillic, one for two of them between ideographs).
                    let rest = &part[orphans..];
                    let neighbour = text
                        .chars()
                        .next_back()
                        .into_iter()
                        .chain(rest.utf8_chunks().flat_map(|c| c.valid().chars()).take(1))
                        .find(|&c| !c.is_ascii() && c != '\u{FFFD}')
                        .map_or(3, char::len_utf8);
                    (most / neighbour).max(1)
                }
                _ => 1,
            };
            text.extend(std::iter::repeat_n('\u{FFFD}', cut));
            damaged += cut;
        }
        let rest = &part[orphans..];
        // A character the next gap cuts: the lead of the last one that is not whole.
        let (whole, tail) = if k + 1 < parts {
            split_tail(rest)
        } else {
            (rest, &[][..])
        };
        text.push_str(std::str::from_utf8(whole).ok()?);
        owed = if tail.is_empty() {
            0
        } else {
            sequence_len(tail[0]) - tail.len()
        };
    }
    Some((text, damaged))
}

/// `part` split before the last character it does not hold whole.
fn split_tail(part: &[u8]) -> (&[u8], &[u8]) {
    let start = part
        .iter()
        .rposition(|&b| b & 0xC0 != 0x80)
        .unwrap_or(part.len());
    if start < part.len() && part.len() - start < sequence_len(part[start]) {
        part.split_at(start)
    } else {
        (part, &[])
    }
}

/// The length of the UTF-8 sequence `lead` begins.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text`'s UTF-8 read as `codec` by encoding_rs (a lost byte as U+FFFD), as a browser or
    /// a program built on it shows it.
    fn read_as(text: &str, codec: &'static Codec) -> String {
        codec
            .decode_without_bom_handling(text.as_bytes())
            .0
            .into_owned()
    }

    fn undone(text: &str) -> Option<(String, &'static str)> {
        undo_double(text).map(|u| (u.text, READINGS[u.reading].name()))
    }

    /// `double_starts.rs` holds what the decoders give; `UTF8KIT_WRITE_TABLES=1 cargo test -p
    /// utf8kit-mojibake starts` writes it again.
    #[test]
    fn the_starts_table_is_the_decoders() {
        let starts = Tables::build().starts();
        if std::env::var_os("UTF8KIT_WRITE_TABLES").is_some() {
            let mut source = String::from(
                "// Generated by the test `double::tests::the_starts_table_is_the_decoders` from\n\
                 // encoding_rs's decoders; do not edit.\n\n\
                 /// One bit for each BMP character that may begin a line of mojibake: see\n\
                 /// `double::first_double_suspect`.\n\
                 pub(crate) static STARTS: [u64; 1024] = [\n",
            );
            for word in &starts {
                source.push_str(&format!("    0x{word:016x},\n"));
            }
            source.push_str("];\n");
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/double_starts.rs");
            std::fs::write(path, source).expect("double_starts.rs written");
        }
        assert!(starts[..] == STARTS[..], "double_starts.rs is out of date");
        assert!(starts.iter().map(|w| w.count_ones()).sum::<u32>() > 1000);
    }

    #[test]
    fn every_byte_sequence_in_the_tables_reads_back_as_its_character() {
        let tables = Tables::get();
        let mut count = 0;
        for (cp, row) in tables.bytes.iter().enumerate() {
            for (r, &code) in row.iter().enumerate() {
                if code == 0 {
                    continue;
                }
                let len = (code >> 24) as usize;
                let bytes: Vec<u8> = (0..len).rev().map(|k| (code >> (8 * k)) as u8).collect();
                let c = char::from_u32(cp as u32).unwrap();
                assert_eq!(decode_one(READINGS[r], &bytes), Some(cp), "{c} in {r}");
                count += 1;
            }
        }
        for &(cp, r, code) in &tables.alternates {
            let bytes = [(code >> 8) as u8, code as u8];
            assert_eq!(decode_one(READINGS[r], &bytes), Some(cp as usize));
            assert_ne!(tables.bytes[cp as usize][r], code);
        }
        for &(cp, r, code) in &tables.astral {
            let bytes = [(code >> 8) as u8, code as u8];
            let read = READINGS[r].decode_without_bom_handling_and_without_replacement(&bytes);
            assert_eq!(
                read.as_deref(),
                char::from_u32(cp).map(String::from).as_deref()
            );
        }
        assert!(!tables.astral.is_empty());
        // GB2312, JIS X 0208, Big5 and KS X 1001 each hold thousands of ideographs.
        assert!(count > 60_000, "{count}");
        assert!(!tables.alternates.is_empty());
    }

    #[test]
    fn utf8_read_as_each_double_byte_encoding_is_restored() {
        let cases = [
            (
                "参数错误，请重试。文件不存在",
                encoding_rs::GBK,
                "鍙傛暟閿欒",
            ),
            (
                "Привет, мир! Файл не найден",
                encoding_rs::GBK,
                "袩褉懈胁械褌",
            ),
            ("ログアウトしました", encoding_rs::SHIFT_JIS, "繝ｭ繧ｰ"),
            ("文字化けのテストです", encoding_rs::GBK, "鏂囧瓧鍖栥亼"),
            ("안녕하세 세계", encoding_rs::GBK, "鞎堧厱"),
            ("%1$s на %2$s", encoding_rs::BIG5, "郇訄"),
        ];
        for (text, codec, shown) in cases {
            let mojibake = read_as(text, codec);
            assert!(
                mojibake.starts_with(shown) || mojibake.contains(shown),
                "{mojibake}"
            );
            assert!(!mojibake.contains('\u{FFFD}'), "{mojibake}");
            assert_eq!(
                undone(&mojibake),
                Some((text.to_owned(), codec.name())),
                "{mojibake}"
            );
        }
    }

    #[test]
    fn a_character_whose_bytes_were_lost_becomes_one_replacement() {
        // Nine bytes: the last is a lead byte at the line's end, lost.
        let mojibake = read_as("文字化", encoding_rs::GBK);
        assert!(
            mojibake.starts_with('鏂') && mojibake.ends_with('\u{FFFD}'),
            "{mojibake}"
        );
        assert_eq!(undone(&mojibake), Some(("文字\u{FFFD}".to_owned(), "GBK")));
        // Shown as `?` by a decoder that writes it for what it cannot read: the same; and a
        // `?` of the text stays one.
        let shown = mojibake.replace('\u{FFFD}', "?");
        assert_eq!(undone(&shown), Some(("文字\u{FFFD}".to_owned(), "GBK")));
        let asked = read_as("参数错误？文件名?", encoding_rs::GBK);
        assert!(
            asked.ends_with('?') && !asked.contains('\u{FFFD}'),
            "{asked}"
        );
        assert_eq!(
            undone(&asked),
            Some(("参数错误？文件名?".to_owned(), "GBK"))
        );
        // Shift_JIS has no pair 87 E5: 文 loses its last byte and 字 its first; け its last.
        let mojibake = read_as("文字化け", encoding_rs::SHIFT_JIS);
        assert_eq!(mojibake, "譁\u{FFFD}ｭ怜喧縺\u{FFFD}");
        assert_eq!(
            undone(&mojibake).map(|(text, _)| text),
            Some("\u{FFFD}\u{FFFD}化\u{FFFD}".to_owned())
        );
        // Korean read as EUC-KR loses the start of most syllables; the rest comes back.
        let mojibake = read_as("안녕하세요, 세계 여러분", encoding_rs::EUC_KR);
        let (text, name) = undone(&mojibake).expect("restored");
        assert_eq!(name, "EUC-KR");
        // 안 lost EC 95 (no pair in EUC-KR), 녕 came whole (88 EB and 85 95 are pairs), ...
        assert_eq!(
            text,
            "\u{FFFD}녕\u{FFFD}세\u{FFFD}, \u{FFFD}계 \u{FFFD}러\u{FFFD}"
        );
    }

    #[test]
    fn gbk_reads_80_and_a2_e3_as_the_euro_sign_both_ways_are_tried() {
        // ダ ends in byte 80 (€ alone); ア's A2 and the next lead E3 are a pair, € too.
        let text = "\"%s\": ダイジェスト・アルゴリズム";
        let mojibake = read_as(text, encoding_rs::GBK);
        assert_eq!(mojibake.matches('€').count(), 2, "{mojibake}");
        assert_eq!(undone(&mojibake), Some((text.to_owned(), "GBK")));
    }

    /// Every level's block masks are the portable ones, and the line walk over them finds what
    /// a walk a byte at a time finds, lines and blocks cut anywhere.
    #[test]
    fn every_simd_level_finds_what_the_bytewise_walk_finds() {
        let mut levels: Vec<(&str, BlockMasks)> = vec![("portable", portable_block_masks)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                levels.push(("avx2", avx2_block_masks));
            }
            if std::is_x86_feature_detected!("avx512bw") {
                levels.push(("avx512", avx512_block_masks));
            }
        }
        // A walk a byte at a time, as the contract says.
        let bytewise = |text: &[u8], from: usize| -> Option<usize> {
            let mut wants_first = true;
            for (k, &b) in text[from..].iter().enumerate() {
                if b == b'\n' {
                    wants_first = true;
                } else if b >= 0x80 && wants_first {
                    if begins_mojibake(&text[from + k..]) {
                        return Some(from + k);
                    }
                    wants_first = false;
                }
            }
            None
        };
        let pieces = [
            "a", " ", "\n", "\n\n", "é", "文", "鏂", "\u{FFFD}", "浣", "ｭ", "𝄞", "—",
        ];
        let mut seed = 7u64;
        for round in 0..3000 {
            let mut text = String::new();
            for _ in 0..(round % 90) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let bytes = text.as_bytes();
            for (name, masks) in &levels {
                for from in [0, 1, 7] {
                    let from = text.char_indices().map(|(i, _)| i).nth(from).unwrap_or(0);
                    if from > 0 && bytes[from - 1] != b'\n' {
                        continue;
                    }
                    assert_eq!(
                        next_line_first_with(bytes, from, *masks),
                        bytewise(bytes, from),
                        "{name}: {text:?} from {from}"
                    );
                }
            }
        }
        for block in [[0x0Au8; 64], [0xE5; 64], [0xFF; 64], [0x7F; 64]] {
            for (name, masks) in &levels {
                assert_eq!(masks(&block), portable_block_masks(&block), "{name}");
            }
        }
        for seed in 0..2000u64 {
            let mut block = [0u8; 64];
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for b in block.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = [0x0A, 0xE3, 0xEF, 0x80, 0xBF, 0x41, 0xF0, 0xDF][(x % 8) as usize]
                    ^ (x >> 60) as u8 & 1;
            }
            let want = portable_block_masks(&block);
            assert_eq!(
                want.newlines.count_ones() as usize,
                block.iter().filter(|&&b| b == 0x0A).count()
            );
            for (name, masks) in &levels {
                assert_eq!(masks(&block), want, "{name}: {block:02x?}");
            }
        }
    }

    /// Correct text whose bytes in some double-byte encoding happen to be UTF-8 (`停止` in GBK
    /// is `ֹͣ`, `寬度` in Shift_JIS is `펓x`), or which holds rare ideographs, stays.
    #[test]
    fn correct_text_stays() {
        for text in [
            "停止",
            "未知：",
            "寬度",
            "邊框闊度",
            "兵庫",
            "岡山",
            "%lld年",
            "スエズ",
            "カケタ",
            "圜",
            "撣語",
            "類別",
            "頁碼",
            "鏈結",
            "文:  %s",
            "X-Motif UIL 表",
            "矢印",
            "龘靐齉",
            "鬱",
            "Привет, мир",
            "café",
            "参数错误",
            "文字化け",
            "안녕하세요",
            "\u{FFFD}\u{FFFD}",
            "鑷\u{FFFD}",
        ] {
            assert_eq!(undone(text), None, "{text}");
            assert_eq!(undone(&format!("{text}\n")), None, "{text}");
        }
        assert_eq!(
            first_double_suspect("参数错误 文字化け 안녕하세요".as_bytes()),
            None
        );
        assert_eq!(first_double_suspect("x\n鍙傛暟".as_bytes()), Some(2));
    }
}
