//! The double-byte readings' tables, written by the build script from encoding_rs's decoders
//! ([`super::index`]) into the binary: each character's bytes in each reading, and which
//! characters CJK text uses every day.

use super::N;
pub(super) use super::index::{COMMON, TWO_WAYS, is_common_pair};
#[cfg(test)]
use encoding_rs::Encoding as Codec;

// `CODE_PAGE_OF`, `ASTRAL` and `ALTERNATES`.
include!(concat!(env!("OUT_DIR"), "/double_tables.rs"));

/// Each page of 256 BMP characters that some reading holds, in the order `CODE_PAGE_OF` numbers
/// them (page 0 holds none): for each character a `u16` per reading, little-endian, the byte
/// (80..FF) or the pair (8140 and up) that it is, 0 for none.
static CODES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/double_codes.bin"));
/// The same pages' [`COMMON`] and [`TWO_WAYS`] bits, a byte per character.
static CLASSES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/double_classes.bin"));

/// What the readings need: the tables in the binary.
pub(super) struct Tables;

impl Tables {
    pub(super) fn get() -> &'static Tables {
        &Tables
    }

    /// Where the BMP character `cp` stands in the pages.
    fn slot(cp: u32) -> usize {
        usize::from(CODE_PAGE_OF[(cp >> 8) as usize]) << 8 | (cp & 0xFF) as usize
    }

    /// The bytes of `c` in each reading, `length << 24 | bytes`, 0 where it has none (where two
    /// byte sequences decode to it, the first in byte order); `None` beyond the BMP.
    pub(super) fn row(&self, c: char) -> Option<[u32; N]> {
        (u32::from(c) <= 0xFFFF).then(|| std::array::from_fn(|r| self.code(c, r)))
    }

    /// [`Tables::row`] of reading `r` alone: 0 beyond the BMP too.
    pub(super) fn code(&self, c: char, r: usize) -> u32 {
        let cp = u32::from(c);
        if cp > 0xFFFF {
            return 0;
        }
        let at = (Tables::slot(cp) * N + r) * 2;
        let code = u32::from(u16::from_le_bytes([CODES[at], CODES[at + 1]]));
        match code {
            0 => 0,
            0x80..=0xFF => 1 << 24 | code,
            _ => 2 << 24 | code,
        }
    }

    /// The characters that may begin a line of mojibake ([`STARTS`]), from the tables.
    #[cfg(test)]
    pub(super) fn starts(&self) -> Vec<u64> {
        let mut starts = vec![0u64; 1024];
        for cp in 0..0x10000 {
            let Some(c) = char::from_u32(cp).filter(|_| is_cjk(cp)) else {
                continue;
            };
            let row = self.row(c).expect("a BMP character");
            let union_rare = self.class(c) & COMMON == 0;
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
                starts[(cp >> 6) as usize] |= 1 << (cp & 63);
            }
        }
        starts
    }

    /// The byte sequence of `c`, beyond the BMP, in reading `r`, if it has one.
    pub(super) fn astral_code(&self, c: char, r: usize) -> Option<u32> {
        find_code(&ASTRAL, c, r)
    }

    /// The second byte sequence of `c` in reading `r`, if it has two.
    pub(super) fn alternate(&self, c: char, r: usize) -> Option<u32> {
        (self.class(c) & TWO_WAYS != 0)
            .then(|| find_code(&ALTERNATES, c, r))
            .flatten()
    }

    /// The [`COMMON`] and [`TWO_WAYS`] bits of `c`.
    pub(super) fn class(&self, c: char) -> u8 {
        let cp = u32::from(c);
        if cp > 0xFFFF {
            0
        } else {
            CLASSES[Tables::slot(cp)]
        }
    }
}

/// The code of `c` in reading `r` in `list`, sorted `(character, reading, code)`.
fn find_code(list: &[(u32, usize, u32)], c: char, r: usize) -> Option<u32> {
    let key = (c as u32, r);
    list.binary_search_by(|&(a, ar, _)| (a, ar).cmp(&key))
        .ok()
        .map(|i| list[i].2)
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
