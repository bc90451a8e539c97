//! What the double-byte readings' tables are made of, as encoding_rs's decoders give it: each
//! character's byte sequences in each reading, and which characters CJK text uses every day.
//! The build script runs [`index`] once and writes the tables (`tables.rs` reads them); the
//! crate shares the readings and [`is_common_pair`], and its tests compare the tables with
//! [`index`].

// The crate's own code needs only the readings and `is_common_pair`.
#![cfg_attr(not(test), allow(dead_code))]

use encoding_rs::Encoding as Codec;

/// The double-byte encodings whose reading of UTF-8 is undone, in the order ties go.
pub(crate) const READINGS: [&Codec; 5] = [
    encoding_rs::GBK,
    encoding_rs::SHIFT_JIS,
    encoding_rs::BIG5,
    encoding_rs::EUC_KR,
    encoding_rs::EUC_JP,
];

pub(crate) const N: usize = READINGS.len();

/// A character CJK text uses every day: the first level of each encoding's ideographs (GB2312's
/// 3,755, JIS level 1, Big5's frequent ones), KS X 1001's 2,350 hangul, kana, CJK punctuation,
/// the fullwidth forms of ASCII.
pub(crate) const COMMON: u8 = 1;
/// A character with two byte sequences in some reading.
pub(crate) const TWO_WAYS: u8 = 4;

/// The tables, as plain vectors.
pub(crate) struct Index {
    /// Each BMP character's bytes in each reading: `length << 24 | bytes`, or 0 when it has none.
    /// When two byte sequences decode to one character, the first in byte order.
    pub(crate) bytes: Vec<[u32; N]>,
    /// Each BMP character's [`COMMON`] and [`TWO_WAYS`] bits.
    pub(crate) class: Vec<u8>,
    /// The byte sequences of the characters beyond the BMP (Big5's): `(character, reading,
    /// code)`, sorted.
    pub(crate) astral: Vec<(u32, usize, u32)>,
    /// The second byte sequence of a character that has two in a reading: `(character,
    /// reading, code)`, sorted.
    pub(crate) alternates: Vec<(u32, usize, u32)>,
}

/// The tables, from every byte and pair each reading decodes.
pub(crate) fn index() -> Index {
    let mut bytes = vec![[0u32; N]; 0x10000];
    let mut class = vec![0u8; 0x10000];
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
    Index {
        bytes,
        class,
        astral,
        alternates,
    }
}

/// Whether `pair` is in the common part of reading `r` (see [`COMMON`]).
pub(crate) fn is_common_pair(r: usize, pair: u32) -> bool {
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
