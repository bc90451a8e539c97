//! The double-byte readings' tables, built once from encoding_rs's decoders: each character's
//! bytes in each reading, and which characters CJK text uses every day.

use std::sync::OnceLock;

use encoding_rs::Encoding as Codec;

use super::{N, READINGS};

/// A character CJK text uses every day: the first level of each encoding's ideographs (GB2312's
/// 3,755, JIS level 1, Big5's frequent ones), KS X 1001's 2,350 hangul, kana, CJK punctuation,
/// the fullwidth forms of ASCII.
pub(super) const COMMON: u8 = 1;
/// A character with two byte sequences in some reading.
pub(super) const TWO_WAYS: u8 = 4;

/// What the readings need, built once from the encodings' decoders.
pub(super) struct Tables {
    /// Each BMP character's bytes in each reading: `length << 24 | bytes`, or 0 when it has none.
    /// When two byte sequences decode to one character, the first in byte order.
    pub(super) bytes: Box<[[u32; N]]>,
    /// Each BMP character's [`COMMON`] and [`TWO_WAYS`] bits.
    class: Box<[u8]>,
    /// The byte sequences of the characters beyond the BMP (Big5's): `(character, reading,
    /// code)`, sorted.
    pub(super) astral: Vec<(u32, usize, u32)>,
    /// The second byte sequence of a character that has two in a reading: `(character,
    /// reading, code)`, sorted.
    pub(super) alternates: Vec<(u32, usize, u32)>,
}

impl Tables {
    pub(super) fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::build)
    }

    pub(super) fn build() -> Tables {
        let mut bytes = vec![[0u32; N]; 0x10000].into_boxed_slice();
        let mut class = vec![0u8; 0x10000].into_boxed_slice();
        let mut alternates = Vec::new();
        // Bit `r` of a character: it has a second sequence in reading `r`.
        let mut has_alternate = vec![0u8; 0x10000];
        let mut astral = Vec::new();
        let mut decoded = Vec::new();
        for (r, codec) in READINGS.iter().enumerate() {
            for (code, c) in decode_all(codec, &mut decoded) {
                let Some(c) = c else {
                    continue;
                };
                if code >> 24 == 1 {
                    bytes[c][r] = code;
                    continue;
                }
                let pair = code & 0xFFFF;
                if c > 0xFFFF {
                    astral.push((c as u32, r, code));
                    continue;
                }
                if bytes[c][r] == 0 {
                    bytes[c][r] = code;
                } else if has_alternate[c] >> r & 1 == 0 {
                    has_alternate[c] |= 1 << r;
                    alternates.push((c as u32, r, code));
                    class[c] |= TWO_WAYS;
                }
                if is_common_pair(r, pair) {
                    class[c] |= COMMON;
                }
            }
        }
        for c in (0x3000..=0x30FF).chain(0xFF01..=0xFF5E) {
            class[c] |= COMMON;
        }
        alternates.sort_unstable();
        // A character beyond the BMP with two sequences keeps the first (the smaller).
        astral.sort_unstable();
        astral.dedup_by_key(|&mut (c, r, _)| (c, r));
        Tables {
            bytes,
            class,
            alternates,
            astral,
        }
    }

    /// The characters that may begin a line of mojibake ([`STARTS`]), from the tables.
    #[cfg(test)]
    pub(super) fn starts(&self) -> Vec<u64> {
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
                // The no-break space and the guillemets, which Cyrillic text and numbers with
                // units begin with (`«%s»`, `%.1f\u{A0}MB`): UTF-8's C2 A0, C2 AB and C2 BB.
                let latin1_sign = matches!(code & 0xFFFF, 0xC2A0 | 0xC2AB | 0xC2BB);
                matches!(lead, 0xD0..=0xD3 | 0xE2..=0xED | 0xEF)
                    && may_begin_utf8(code)
                    && (rare_here || lead < 0xE0)
                    || latin1_sign
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

    /// The byte sequence of `c`, beyond the BMP, in reading `r`, if it has one.
    pub(super) fn astral_code(&self, c: char, r: usize) -> Option<u32> {
        find_code(&self.astral, c, r)
    }

    /// The second byte sequence of `c` in reading `r`, if it has two.
    pub(super) fn alternate(&self, c: char, r: usize) -> Option<u32> {
        (self.class(c) & TWO_WAYS != 0)
            .then(|| find_code(&self.alternates, c, r))
            .flatten()
    }

    /// The [`COMMON`] and [`TWO_WAYS`] bits of `c`.
    pub(super) fn class(&self, c: char) -> u8 {
        self.class.get(c as usize).copied().unwrap_or(0)
    }
}

/// The code of `c` in reading `r` in `list`, sorted `(character, reading, code)`.
fn find_code(list: &[(u32, usize, u32)], c: char, r: usize) -> Option<u32> {
    let key = (c as u32, r);
    list.binary_search_by(|&(a, ar, _)| (a, ar).cmp(&key))
        .ok()
        .map(|i| list[i].2)
}

/// What each byte 80..FF, then each pair of a lead 81..FE and a byte 40..FE, decodes to in
/// `codec`: its code (`length << 24 | bytes`) and the one character, not ASCII, it gives whole,
/// if it does. All in one call of the decoder (`buffer` holds its output): each sequence is
/// followed by a newline, which the decoder always gives back (after a sequence, or after the
/// error of one it cuts short).
fn decode_all<'a>(
    codec: &'static Codec,
    buffer: &'a mut Vec<u16>,
) -> impl Iterator<Item = (u32, Option<usize>)> + 'a {
    let codes = || {
        let singles = (0x80..=0xFFu32).map(|b| 1 << 24 | b);
        let pairs = (0x81..=0xFEu32)
            .flat_map(|lead| (0x40..=0xFEu32).map(move |trail| 2 << 24 | lead << 8 | trail));
        singles.chain(pairs)
    };
    let mut input = Vec::with_capacity(3 * codes().count());
    for code in codes() {
        if code >> 24 == 2 {
            input.push((code >> 8) as u8);
        }
        input.extend([code as u8, b'\n']);
    }
    let mut decoder = codec.new_decoder_without_bom_handling();
    buffer.clear();
    buffer.resize(input.len() * 2 + 16, 0);
    let (_, _, written, _) = decoder.decode_to_utf16(&input, buffer, true);
    let pieces = buffer[..written].split(|&u| u == u16::from(b'\n'));
    codes().zip(pieces.map(|piece| match *piece {
        [u] if u >= 0x80 && u != 0xFFFD && !(0xD800..0xE000).contains(&u) => Some(usize::from(u)),
        // Big5's ideographs beyond the BMP.
        [high, low] if (0xD800..0xDC00).contains(&high) && (0xDC00..0xE000).contains(&low) => {
            Some(0x10000 + (usize::from(high - 0xD800) << 10 | usize::from(low - 0xDC00)))
        }
        _ => None,
    }))
}

/// The one BMP character, not ASCII, that `input` decodes to whole in `codec`.
#[cfg(test)]
pub(super) fn decode_one(codec: &'static Codec, input: &[u8]) -> Option<usize> {
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
pub(super) fn is_common_pair(r: usize, pair: u32) -> bool {
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
pub(super) fn is_cjk(cp: u32) -> bool {
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
