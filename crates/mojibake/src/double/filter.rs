//! Which lines may hold a double-byte reading's mojibake: those whose first character that is
//! not ASCII could begin it, found 64 bytes at a time.

use super::N;
use super::starts::STARTS;
use super::tables::{TWO_WAYS, Tables};
use super::write::{Utf8State, encode, may_have_dropped};

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
        if may_begin(tables, &text[first..line_end]) {
            let line_start = memchr::memrchr(b'\n', &text[..first]).map_or(0, |end| end + 1);
            let line = simdutf8::basic::from_utf8(&text[line_start..line_end]).ok()?;
            let drops = may_have_dropped(line);
            if (0..N).any(|r| encode(line, r, tables, drops, &mut bytes)) {
                return Some(first);
            }
        }
        at = line_end;
    }
}

/// Where the mojibake of a line whose first character beyond ASCII is at `first` of `text` may
/// begin: there, if [`begins_mojibake`]; or at a `?` right before it, if it is a character of
/// three bytes: a decoder may have written the `?` for the lost bytes of the character before,
/// and what follows such a gap is what is left of the next character, any pair.
pub(super) fn mojibake_start(text: &[u8], first: usize) -> Option<usize> {
    if first > 0 && text[first - 1] == b'?' && text[first] & 0xF0 == 0xE0 {
        return Some(first - 1);
    }
    begins_mojibake(&text[first..]).then_some(first)
}

/// Whether `text` begins with a character of [`STARTS`] or U+FFFD, with an ideograph before
/// hangul ([`hanja_before_hangul`]) or a sign ([`hanja_before_symbol`]), or with two hanja of
/// Cyrillic ([`cyrillic_hanja_pair`]).
pub(super) fn begins_mojibake(text: &[u8]) -> bool {
    let Some(&[b0, b1, b2]) = text
        .get(..3)
        .map(|s| <&[u8; 3]>::try_from(s).expect("three"))
    else {
        return false;
    };
    let cp = usize::from(b0 & 0x0F) << 12 | usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F);
    let rest = &text[3..];
    b0 & 0xF0 == 0xE0 && (cp == 0xFFFD || STARTS[cp >> 6] >> (cp & 63) & 1 != 0)
        || matches!(b0, 0xE4..=0xE9)
            && (hanja_before_hangul(rest.first().copied())
                || hanja_before_symbol(rest)
                || cyrillic_hanja_pair(cp as u32, text))
}

/// The hanja EUC-KR reads from the UTF-8 of Cyrillic letters (`戟逵` is `на`): those of KS X
/// 1001's row D0 whose second byte a continuation byte can be (A1..BF), sorted (a test checks
/// them against encoding_rs).
pub(super) const CYRILLIC_HANJA: [char; 29] = [
    '克', '剋', '劇', '勻', '叫', '圭', '均', '奎', '戟', '揆', '棘', '極', '槻', '橘', '珪', '畇',
    '硅', '窺', '竅', '筠', '糾', '菌', '葵', '規', '赳', '逵', '鈞', '閨', '鬼',
];

/// The low ten bits of each of [`CYRILLIC_HANJA`], a bit each.
const HANJA_BITS: [u64; 16] = {
    let mut bits = [0u64; 16];
    let mut i = 0;
    while i < CYRILLIC_HANJA.len() {
        let cp = CYRILLIC_HANJA[i] as usize;
        bits[(cp >> 6) & 15] |= 1 << (cp & 63);
        i += 1;
    }
    bits
};

/// Whether `text` begins with two of [`CYRILLIC_HANJA`] side by side: how Cyrillic text read as
/// EUC-KR begins, whose hanja are common ones. Chinese text puts two of these 29 together seldom.
fn cyrillic_hanja_pair(first: u32, text: &[u8]) -> bool {
    // Most lines of Chinese begin with an ideograph: a bit for its low ten bits passes over
    // nearly all of them before the search.
    let is_one = |cp: u32| {
        HANJA_BITS[(cp as usize >> 6) & 15] >> (cp & 63) & 1 != 0
            && char::from_u32(cp).is_some_and(|c| CYRILLIC_HANJA.binary_search(&c).is_ok())
    };
    is_one(first)
        && matches!(text.get(3..6), Some(&[b0 @ 0xE4..=0xE9, b1, b2])
            if is_one(u32::from(b0 & 0x0F) << 12 | u32::from(b1 & 0x3F) << 6 | u32::from(b2 & 0x3F)))
}

/// Whether `next`, the byte after an ideograph (lead E4..E9), begins a hangul syllable (lead
/// EA..ED): how UTF-8 of CJK text read as EUC-KR begins (`鸚김뇰` is `失败`), its pairs a hanja,
/// then hangul. Its ideographs are common in Chinese, so [`STARTS`] leaves them out; Chinese
/// and Japanese text never put hangul after one, Korean seldom.
fn hanja_before_hangul(next: Option<u8>) -> bool {
    matches!(next, Some(0xEA..=0xED))
}

/// The signs, kana, Greek and Cyrillic letters and fullwidth forms KS X 1001 has at a first
/// byte A1..AF and a second byte E2..EF, sorted (a test checks them against encoding_rs): what
/// EUC-KR makes of the last byte of a CJK character's UTF-8 and the lead of the next (`岳▼뤇` is
/// `信号`, `鸚ゅㄷ` is `太大`, `援щ룆` is `구독`).
pub(super) const SYMBOLS_AFTER_HANJA: [char; 149] = [
    '®', 'β', 'γ', 'δ', 'ε', 'ζ', 'η', 'θ', 'ι', 'κ', 'λ', 'μ', 'ν', 'ξ', 'ο', 'р', 'с', 'т', 'у',
    'ф', 'х', 'ц', 'ч', 'ш', 'щ', 'ъ', 'ы', 'ь', 'э', '€', '℡', '™', '←', '↑', '→', '↓', '↔', '√',
    '∽', '≪', '≫', '①', '②', '③', '④', '⑤', '⑥', '⑦', '⑧', '⑨', '⑴', '⑵', '⑶', '⑷', '⑸', '⑹', '⑺',
    '⑻', '⑼', '⒱', '⒲', '⒳', '⒴', '⒵', 'ⓥ', 'ⓦ', 'ⓧ', 'ⓨ', 'ⓩ', '╈', '╉', '╊', '▲', '△', '▼', '▽',
    '〓', 'も', 'ゃ', 'や', 'ゅ', 'ゆ', 'ょ', 'よ', 'ら', 'り', 'る', 'れ', 'ろ', 'ゎ', 'わ', 'モ',
    'ャ', 'ヤ', 'ュ', 'ユ', 'ョ', 'ヨ', 'ラ', 'リ', 'ル', 'レ', 'ロ', 'ヮ', 'ワ', 'ㅲ', 'ㅳ', 'ㅴ',
    'ㅵ', 'ㅶ', 'ㅷ', 'ㅸ', 'ㅹ', 'ㅺ', 'ㅻ', 'ㅼ', 'ㅽ', 'ㅾ', 'ㅿ', '㎩', '㎪', '㎫', '㎬', '㎮',
    '㎯', '㏂', '㏃', '㏆', '㏉', '㏐', '㏓', '㏘', '㏛', '㏜', '㏝', 'ｂ', 'ｃ', 'ｄ', 'ｅ', 'ｆ',
    'ｇ', 'ｈ', 'ｉ', 'ｊ', 'ｋ', 'ｌ', 'ｍ', 'ｎ', 'ｏ',
];

/// The first bytes of the UTF-8 of [`SYMBOLS_AFTER_HANJA`].
const SYMBOL_LEADS: [bool; 256] = {
    let mut leads = [false; 256];
    let mut i = 0;
    while i < SYMBOLS_AFTER_HANJA.len() {
        let cp = SYMBOLS_AFTER_HANJA[i] as usize;
        leads[if cp < 0x800 {
            0xC0 | cp >> 6
        } else {
            0xE0 | cp >> 12
        }] = true;
        i += 1;
    }
    leads
};

/// Whether `rest`, the text after an ideograph (lead E4..E9), begins with one of
/// [`SYMBOLS_AFTER_HANJA`]: how UTF-8 of CJK text read as EUC-KR begins when its
/// second pair is a sign. Chinese and Korean text put these after an ideograph seldom; Japanese
/// puts kana there (`見る`, one line in 200 of the catalogs), and such a line is judged.
fn hanja_before_symbol(rest: &[u8]) -> bool {
    // Most lines of CJK text go on with another ideograph, whose lead no sign of the table has.
    if rest.first().is_none_or(|&b| !SYMBOL_LEADS[usize::from(b)]) {
        return false;
    }
    let len = if rest[0] < 0xE0 { 2 } else { 3 };
    rest.get(..len)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|s| s.chars().next())
        .is_some_and(|c| SYMBOLS_AFTER_HANJA.binary_search(&c).is_ok())
}

/// Where the mojibake of the first line of `text` from `from` on (`from` begins a line) may
/// begin ([`mojibake_start`] of its first byte that is not ASCII); 64 bytes at a time, with SIMD
/// where the processor has it, and no step for each line but for those that begin with a byte
/// E0..EF.
pub(super) fn next_line_first(text: &[u8], from: usize) -> Option<usize> {
    crate::simd::walk_at_best_level!(
        next_line_first_with(text: &[u8], from: usize),
        portable_block_masks,
        avx2_block_masks,
        avx512_block_masks
    )
}

/// [`next_line_first`] with the block masks of one SIMD level.
#[inline(always)]
pub(super) fn next_line_first_with(text: &[u8], from: usize, masks: BlockMasks) -> Option<usize> {
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
        let firsts = high & !after & three_byte_leads;
        let found = crate::simd::first_of_bits(i, firsts, |first| mojibake_start(text, first));
        if found.is_some() {
            return found;
        }
        wants_first = borrow || newlines >> 63 != 0;
        i += 64;
    }
    for (k, &b) in text.get(i..)?.iter().enumerate() {
        if b == b'\n' {
            wants_first = true;
        } else if b >= 0x80 && wants_first {
            if let Some(start) = mojibake_start(text, i + k) {
                return Some(start);
            }
            wants_first = false;
        }
    }
    None
}

/// A block's bytes, one bit for each: the newlines, the bytes that are not ASCII, and the leads
/// of three-byte sequences (E0..EF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Masks {
    pub(super) newlines: u64,
    pub(super) high: u64,
    pub(super) three_byte_leads: u64,
}

/// The [`Masks`] of a block of 64 bytes.
pub(super) type BlockMasks = fn(&[u8; 64]) -> Masks;

/// Each byte of a word of eight but its high bit.
pub(crate) const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// One in each byte of a word of eight.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `x` that is zero, exactly.
pub(crate) fn zero_bytes(x: u64) -> u64 {
    !((x & LOW).wrapping_add(LOW) | x | LOW)
}

/// The high bit of each of the eight bytes of `high`, as eight bits.
pub(crate) fn gather(high: u64) -> u64 {
    ((high >> 7) & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// A block of 64 bytes as eight words of eight, the first byte lowest.
pub(crate) fn words_of(block: &[u8; 64]) -> [u64; 8] {
    std::array::from_fn(|k| u64::from_le_bytes(block[8 * k..8 * k + 8].try_into().expect("8")))
}

/// The words of a block (one bit each) that a portable filter looks at: those that hold a lead
/// it asks about, a bit of `with_leads`, and the words beside them, where the neighbours of a
/// candidate (at most three bytes away) lie.
pub(crate) fn with_neighbours(with_leads: u32) -> u32 {
    with_leads | with_leads << 1 | with_leads >> 1
}

/// [`BlockMasks`] eight bytes at a time.
pub(super) fn portable_block_masks(block: &[u8; 64]) -> Masks {
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
pub(super) fn avx2_block_masks(block: &[u8; 64]) -> Masks {
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
pub(super) fn avx512_block_masks(block: &[u8; 64]) -> Masks {
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

/// Whether the first characters of `text` (well-formed UTF-8) could be written back as
/// UTF-8 in some reading: [`encode`] of their few first characters, without building the
/// line, for the lines the line filter stops at.
pub(super) fn may_begin(tables: &Tables, text: &[u8]) -> bool {
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
            match tables.row(c) {
                Some(row) => row,
                // Beyond the BMP: the line is built.
                None => return true,
            }
        };
        // Either of two ways may go on: the line is built.
        if tables.class(c) & TWO_WAYS != 0 {
            return true;
        }
        for (r, state) in states.iter_mut().enumerate() {
            *state = state.and_then(|s| if row[r] == 0 { None } else { s.after(row[r]) });
        }
        if states.iter().all(Option::is_none) {
            return false;
        }
    }
    true
}
