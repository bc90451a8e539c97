//! The unit scanner: one unit at a time, exactly as SPEC 1.2 defines it.
//!
//! [`scan_unit`] classifies the unit that starts at the beginning of a slice. Everything else in the
//! crate (the streaming [`Scanner`](crate::Scanner), the repair view, the lints) is built on it; the
//! SIMD fast path only decides where the next ill-formed unit *starts*, and this function decides what
//! it is.

use std::fmt;

/// What a unit is: a well-formed character or one of the seven kinds of ill-formed unit.
///
/// The names returned by [`UnitKind::as_str`] are the spelling used in every output
/// (`unexpected-continuation`, `surrogate-pair`, ...).
///
/// A closed set, unlike [`crate::Lint`] and [`crate::FindingKind`]: it is the classification of
/// RFC 3629 and SPEC 1.2, so a caller may match it exhaustively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// A well-formed UTF-8 sequence (RFC 3629).
    Char,
    /// A continuation byte (80..BF) with no lead byte before it. Always 1 byte.
    UnexpectedContinuation,
    /// FE or FF, which no form of UTF-8 ever uses. Always 1 byte.
    InvalidByte,
    /// A lead byte followed by fewer continuation bytes than it declares.
    Truncated,
    /// A complete sequence whose value has a shorter encoding.
    Overlong,
    /// An encoded UTF-16 surrogate (U+D800..U+DFFF), 3 bytes.
    Surrogate,
    /// A high then a low surrogate, 6 bytes: CESU-8's form of a supplementary character.
    SurrogatePair,
    /// A complete sequence whose value lies above U+10FFFF.
    OutOfRange,
}

impl UnitKind {
    /// Every kind of ill-formed unit, in the order of SPEC 1.2.
    pub const ILL_FORMED: [UnitKind; 7] = [
        UnitKind::UnexpectedContinuation,
        UnitKind::InvalidByte,
        UnitKind::Truncated,
        UnitKind::Overlong,
        UnitKind::Surrogate,
        UnitKind::SurrogatePair,
        UnitKind::OutOfRange,
    ];

    /// The kind's name as it appears in output: `char`, `unexpected-continuation`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Char => "char",
            UnitKind::UnexpectedContinuation => "unexpected-continuation",
            UnitKind::InvalidByte => "invalid-byte",
            UnitKind::Truncated => "truncated",
            UnitKind::Overlong => "overlong",
            UnitKind::Surrogate => "surrogate",
            UnitKind::SurrogatePair => "surrogate-pair",
            UnitKind::OutOfRange => "out-of-range",
        }
    }

    /// Parses a name written by [`UnitKind::as_str`].
    pub fn from_name(name: &str) -> Option<UnitKind> {
        std::iter::once(UnitKind::Char)
            .chain(UnitKind::ILL_FORMED)
            .find(|kind| kind.as_str() == name)
    }

    /// True for every kind except [`UnitKind::Char`].
    pub fn is_ill_formed(self) -> bool {
        self != UnitKind::Char
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One unit: its kind, its length in bytes, and the code point it carries, if any.
///
/// `codepoint` is the character for [`UnitKind::Char`]; the decoded value for `Overlong`, `Surrogate`
/// and `OutOfRange` (RFC 2279 arithmetic, so it may exceed U+10FFFF); the supplementary code point
/// a `SurrogatePair` stands for; and `None` for the other kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// What the unit is.
    pub kind: UnitKind,
    /// Its length in bytes, 1 to 6.
    pub len: usize,
    /// The code point it carries, where one was decoded.
    pub codepoint: Option<u32>,
}

/// The number of bytes a lead byte declares (RFC 2279), or `None` for bytes that cannot lead.
///
/// ```
/// use utf8kit_codec::unit::declared_len;
/// assert_eq!(declared_len(b'a'), Some(1));
/// assert_eq!(declared_len(0xE2), Some(3));
/// assert_eq!(declared_len(0xFC), Some(6));
/// assert_eq!(declared_len(0x80), None);
/// assert_eq!(declared_len(0xFF), None);
/// ```
#[inline]
pub fn declared_len(lead: u8) -> Option<usize> {
    match lead {
        0x00..=0x7F => Some(1),
        0x80..=0xBF | 0xFE | 0xFF => None,
        0xC0..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF7 => Some(4),
        0xF8..=0xFB => Some(5),
        0xFC..=0xFD => Some(6),
    }
}

/// The character whose UTF-8 form starts `bytes`, decoded by its bits; `None` where the bytes
/// begin no character's shortest form (overlong, surrogate, past U+10FFFF, a continuation byte
/// or an undefined lead) or stop short of it.
///
/// ```
/// use utf8kit_codec::unit::first_char;
/// assert_eq!(first_char("€ and more".as_bytes()), Some('€'));
/// assert_eq!(first_char(b"a"), Some('a'));
/// assert_eq!(first_char(&[0xE2, 0x82]), None);
/// assert_eq!(first_char(&[0xC0, 0xAF]), None);
/// assert_eq!(first_char(&[0xED, 0xA0, 0x80]), None);
/// ```
#[inline]
pub fn first_char(bytes: &[u8]) -> Option<char> {
    let lead = *bytes.first()?;
    let (len, bits, least) = match lead {
        0x00..=0x7F => return Some(char::from(lead)),
        0xC2..=0xDF => (2, lead & 0x1F, 0x80),
        0xE0..=0xEF => (3, lead & 0x0F, 0x800),
        0xF0..=0xF4 => (4, lead & 0x07, 0x1_0000),
        _ => return None,
    };
    let mut cp = u32::from(bits);
    for &byte in bytes.get(1..len)? {
        if !is_continuation(byte) {
            return None;
        }
        cp = cp << 6 | u32::from(byte & 0x3F);
    }
    char::from_u32(cp).filter(|_| cp >= least)
}

/// Where the first byte above 0x7F of `bytes` is, eight bytes at a time.
///
/// ```
/// use utf8kit_codec::unit::first_non_ascii;
/// assert_eq!(first_non_ascii("plain text, then é".as_bytes()), Some(17));
/// assert_eq!(first_non_ascii(b"ASCII only"), None);
/// ```
#[inline]
pub fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    // 32 bytes of ASCII at a step, then the word that holds the first byte above 0x7F.
    let mut at = 0;
    while at + 32 <= bytes.len()
        && (word(at) | word(at + 8) | word(at + 16) | word(at + 24)) & HIGH == 0
    {
        at += 32;
    }
    while at + 8 <= bytes.len() {
        let high = word(at) & HIGH;
        if high != 0 {
            return Some(at + (high.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| b >= 0x80).map(|i| at + i)
}

/// True for a continuation byte, 80..BF.
#[inline]
pub fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The smallest value that needs `n` bytes (RFC 2279); anything below is overlong.
const MIN_VALUE: [u32; 7] = [0, 0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000];

/// Classifies the unit that starts at `input[0]`.
///
/// Returns `None` only when `is_last` is false and the bytes given do not yet decide the unit: the
/// input ends inside a sequence, or after a high surrogate that may still be followed by its low
/// half. With `is_last` true the answer is always `Some`. At most six bytes are ever needed.
///
/// # Panics
///
/// Panics if `input` is empty.
///
/// # Examples
///
/// ```
/// use utf8kit_codec::{scan_unit, Unit, UnitKind};
///
/// let unit = scan_unit(b"\xC0\xAF", true).unwrap();
/// assert_eq!(unit, Unit { kind: UnitKind::Overlong, len: 2, codepoint: Some(0x2F) });
///
/// // "E2 82" at the end of input is one truncated unit of length 2 ...
/// let unit = scan_unit(b"\xE2\x82", true).unwrap();
/// assert_eq!((unit.kind, unit.len, unit.codepoint), (UnitKind::Truncated, 2, None));
/// // ... but in the middle of a stream it is undecided until more bytes arrive.
/// assert_eq!(scan_unit(b"\xE2\x82", false), None);
///
/// let unit = scan_unit(b"\xED\xA0\xBD\xED\xB8\x80", true).unwrap();
/// assert_eq!((unit.kind, unit.len, unit.codepoint), (UnitKind::SurrogatePair, 6, Some(0x1F600)));
/// ```
#[inline]
pub fn scan_unit(input: &[u8], is_last: bool) -> Option<Unit> {
    let lead = input[0];
    if lead < 0x80 {
        return Some(Unit {
            kind: UnitKind::Char,
            len: 1,
            codepoint: Some(u32::from(lead)),
        });
    }
    let Some(n) = declared_len(lead) else {
        let kind = if is_continuation(lead) {
            UnitKind::UnexpectedContinuation
        } else {
            UnitKind::InvalidByte
        };
        return Some(Unit {
            kind,
            len: 1,
            codepoint: None,
        });
    };

    // Collect up to n-1 continuation bytes, decoding as RFC 2279 does.
    let mut value = u32::from(lead) & (0x7F >> n);
    let mut len = 1;
    while len < n {
        match input.get(len) {
            Some(&byte) if is_continuation(byte) => {
                value = (value << 6) | u32::from(byte & 0x3F);
                len += 1;
            }
            Some(_) => break,
            None if is_last => break,
            None => return None,
        }
    }
    if len < n {
        return Some(Unit {
            kind: UnitKind::Truncated,
            len,
            codepoint: None,
        });
    }

    let kind = if value < MIN_VALUE[n] {
        UnitKind::Overlong
    } else if (0xD800..=0xDFFF).contains(&value) {
        // Only ED A0..BF xx reaches here: every longer form of a surrogate is overlong.
        if value <= 0xDBFF {
            match low_surrogate_after(&input[3..], is_last) {
                None => return None,
                Some(Some(low)) => {
                    return Some(Unit {
                        kind: UnitKind::SurrogatePair,
                        len: 6,
                        codepoint: Some(0x1_0000 + ((value - 0xD800) << 10) + (low - 0xDC00)),
                    });
                }
                Some(None) => {}
            }
        }
        UnitKind::Surrogate
    } else if value > 0x10_FFFF {
        UnitKind::OutOfRange
    } else {
        UnitKind::Char
    };
    Some(Unit {
        kind,
        len: n,
        codepoint: Some(value),
    })
}

/// Whether `rest` starts with a complete 3-byte low surrogate (ED B0..BF 80..BF).
///
/// `None`: undecided, more input is needed. `Some(None)`: no. `Some(Some(value))`: yes.
#[inline]
fn low_surrogate_after(rest: &[u8], is_last: bool) -> Option<Option<u32>> {
    let pattern: [fn(u8) -> bool; 3] = [
        |b| b == 0xED,
        |b| (0xB0..=0xBF).contains(&b),
        is_continuation,
    ];
    for (i, matches) in pattern.iter().enumerate() {
        match rest.get(i) {
            Some(&byte) if matches(byte) => {}
            Some(_) => return Some(None),
            None if is_last => return Some(None),
            None => return None,
        }
    }
    let value = 0xD000 | (u32::from(rest[1] & 0x3F) << 6) | u32::from(rest[2] & 0x3F);
    Some(Some(value))
}

/// The length of the first maximal subpart of `bytes` (SPEC 1.3), at least 1.
///
/// A maximal subpart is the longest prefix of a well-formed sequence (or a single byte if the first
/// byte starts none). Applied to a well-formed sequence, it returns the sequence's length.
///
/// ```
/// use utf8kit_codec::unit::maximal_subpart_len;
/// assert_eq!(maximal_subpart_len(b"\xE2\x82"), 2); // a prefix of U+20AC
/// assert_eq!(maximal_subpart_len(b"\xED\xA0\x80"), 1); // ED never takes A0
/// assert_eq!(maximal_subpart_len(b"\xC0\xAF"), 1); // C0 never leads
/// ```
///
/// # Panics
///
/// Panics if `bytes` is empty.
#[inline]
pub fn maximal_subpart_len(bytes: &[u8]) -> usize {
    let lead = bytes[0];
    // The second-byte range of Unicode Table 3-7; later bytes are plain continuations.
    let (n, second) = match lead {
        0xC2..=0xDF => (2, 0x80..=0xBF),
        0xE0 => (3, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
        0xED => (3, 0x80..=0x9F),
        0xF0 => (4, 0x90..=0xBF),
        0xF1..=0xF3 => (4, 0x80..=0xBF),
        0xF4 => (4, 0x80..=0x8F),
        _ => return 1,
    };
    match bytes.get(1) {
        Some(byte) if second.contains(byte) => {}
        _ => return 1,
    }
    let mut len = 2;
    while len < n && bytes.get(len).is_some_and(|&b| is_continuation(b)) {
        len += 1;
    }
    len
}

/// Splits an ill-formed unit into its maximal subparts (SPEC 1.3): the repair view of one unit.
///
/// The first subpart starts at the unit's lead byte; every byte after it is a continuation byte
/// and so a subpart of its own. Lossy decoding writes one U+FFFD per item.
///
/// ```
/// use utf8kit_codec::unit::subparts;
/// let lengths: Vec<usize> = subparts(b"\xC0\xAF").map(<[u8]>::len).collect();
/// assert_eq!(lengths, [1, 1]);
/// assert_eq!(subparts(b"\xED\xA0\x80").count(), 3);
/// assert_eq!(subparts(b"\xE2\x82").count(), 1);
/// ```
pub fn subparts(unit_bytes: &[u8]) -> Subparts<'_> {
    Subparts { rest: unit_bytes }
}

/// The iterator returned by [`subparts`].
#[derive(Clone, Debug)]
pub struct Subparts<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Subparts<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let (part, rest) = self.rest.split_at(maximal_subpart_len(self.rest));
        self.rest = rest;
        Some(part)
    }
}

/// Iterates over the units of a complete input, one by one (the whole input is treated as final).
///
/// This is the plain, byte-at-a-time view; the streaming [`Scanner`](crate::Scanner) skips
/// well-formed runs much faster and is the one to use for findings.
///
/// ```
/// use utf8kit_codec::{units, UnitKind};
/// let kinds: Vec<(usize, UnitKind, usize)> =
///     units(b"a\xE9 ").map(|(offset, unit)| (offset, unit.kind, unit.len)).collect();
/// assert_eq!(kinds, [(0, UnitKind::Char, 1), (1, UnitKind::Truncated, 1), (2, UnitKind::Char, 1)]);
/// ```
pub fn units(input: &[u8]) -> Units<'_> {
    Units { input, offset: 0 }
}

/// The iterator returned by [`units`]: yields each unit's byte offset and the unit.
#[derive(Clone, Debug)]
pub struct Units<'a> {
    input: &'a [u8],
    offset: usize,
}

impl Iterator for Units<'_> {
    type Item = (usize, Unit);

    fn next(&mut self) -> Option<(usize, Unit)> {
        let rest = self
            .input
            .get(self.offset..)
            .filter(|rest| !rest.is_empty())?;
        let unit = scan_unit(rest, true).expect("a final scan always decides");
        let offset = self.offset;
        self.offset += unit.len;
        Some((offset, unit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_byte_above_7f_is_found_at_every_place() {
        for len in 0..100 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = 0x80 | (at as u8);
                    // A second one after it never hides the first.
                    if at + 3 < len {
                        bytes[at + 3] = 0xFF;
                    }
                }
                let want = bytes.iter().position(|&b| b >= 0x80);
                assert_eq!(first_non_ascii(&bytes), want, "{len} {at}");
            }
        }
    }

    fn unit(kind: UnitKind, len: usize, codepoint: Option<u32>) -> Unit {
        Unit {
            kind,
            len,
            codepoint,
        }
    }

    /// Every example of SPEC 1.2 and every row of its table.
    #[test]
    fn spec_table() {
        use UnitKind::*;
        let rows: &[(&[u8], Unit)] = &[
            (b"a", unit(Char, 1, Some(0x61))),
            (b"\x00", unit(Char, 1, Some(0))),
            (b"\xC3\xA9", unit(Char, 2, Some(0xE9))),
            (b"\xE2\x82\xAC", unit(Char, 3, Some(0x20AC))),
            (b"\xF0\x9F\x98\x80", unit(Char, 4, Some(0x1F600))),
            (b"\xEF\xBF\xBE", unit(Char, 3, Some(0xFFFE))),
            (b"\xF4\x8F\xBF\xBF", unit(Char, 4, Some(0x10FFFF))),
            (b"\x80", unit(UnexpectedContinuation, 1, None)),
            (b"\xBF\xBF", unit(UnexpectedContinuation, 1, None)),
            (b"\xFE", unit(InvalidByte, 1, None)),
            (b"\xFF\x80", unit(InvalidByte, 1, None)),
            (b"\xC0\xAF", unit(Overlong, 2, Some(0x2F))),
            (b"\xC1\xBF", unit(Overlong, 2, Some(0x7F))),
            (b"\xE0\x80\xAF", unit(Overlong, 3, Some(0x2F))),
            (b"\xF0\x80\x80\xAF", unit(Overlong, 4, Some(0x2F))),
            (b"\xF0\x8D\xA0\x80", unit(Overlong, 4, Some(0xD800))),
            (b"\xF8\x80\x80\x80\xAF", unit(Overlong, 5, Some(0x2F))),
            (b"\xFC\x80\x80\x80\x80\xAF", unit(Overlong, 6, Some(0x2F))),
            (b"\xED\xA0\x80", unit(Surrogate, 3, Some(0xD800))),
            (b"\xED\xB0\x80", unit(Surrogate, 3, Some(0xDC00))),
            (b"\xED\xBF\xBF", unit(Surrogate, 3, Some(0xDFFF))),
            (
                b"\xED\xA0\x80\xED\xA0\x80",
                unit(Surrogate, 3, Some(0xD800)),
            ),
            (b"\xED\xA0\x80\xED\xB0", unit(Surrogate, 3, Some(0xD800))),
            (
                b"\xED\xA0\xBD\xED\xB8\x80",
                unit(SurrogatePair, 6, Some(0x1F600)),
            ),
            (
                b"\xED\xA0\x80\xED\xB0\x80",
                unit(SurrogatePair, 6, Some(0x10000)),
            ),
            (
                b"\xED\xAF\xBF\xED\xBF\xBF",
                unit(SurrogatePair, 6, Some(0x10FFFF)),
            ),
            (b"\xF4\x90\x80\x80", unit(OutOfRange, 4, Some(0x110000))),
            (b"\xF7\xBF\xBF\xBF", unit(OutOfRange, 4, Some(0x1FFFFF))),
            (b"\xF8\x88\x80\x80\x80", unit(OutOfRange, 5, Some(0x200000))),
            (
                b"\xFD\xBF\xBF\xBF\xBF\xBF",
                unit(OutOfRange, 6, Some(0x7FFF_FFFF)),
            ),
            (b"\xE2\x82", unit(Truncated, 2, None)),
            (b"\xE9 ", unit(Truncated, 1, None)),
            (b"\xE0\x80\x41", unit(Truncated, 2, None)),
            (b"\xC2", unit(Truncated, 1, None)),
            (b"\xF0\x9F\x98", unit(Truncated, 3, None)),
            (b"\xFC\x80\x80\x80\x80", unit(Truncated, 5, None)),
            (b"\xF8\x80\x80\x80\xC0", unit(Truncated, 4, None)),
        ];
        for (input, expected) in rows {
            assert_eq!(
                scan_unit(input, true).as_ref(),
                Some(expected),
                "input {input:02X?}"
            );
        }
    }

    #[test]
    fn undecided_only_while_more_may_come() {
        let rows: &[&[u8]] = &[
            b"\xE2\x82",
            b"\xC2",
            b"\xFC\x80\x80\x80\x80",
            b"\xED\xA0\x80",
            b"\xED\xA0\x80\xED",
            b"\xED\xA0\x80\xED\xB0",
        ];
        for input in rows {
            assert_eq!(scan_unit(input, false), None, "input {input:02X?}");
        }
        // A low surrogate needs no look-ahead, nor does a high one followed by something else.
        assert_eq!(
            scan_unit(b"\xED\xB0\x80", false).unwrap().kind,
            UnitKind::Surrogate
        );
        assert_eq!(
            scan_unit(b"\xED\xA0\x80a", false).unwrap().kind,
            UnitKind::Surrogate
        );
    }

    #[test]
    fn subparts_match_the_standard() {
        let rows: &[(&[u8], &[usize])] = &[
            (b"\xC0\xAF", &[1, 1]),
            (b"\xED\xA0\x80", &[1, 1, 1]),
            (b"\xE2\x82", &[2]),
            (b"\xF4\x90\x80\x80", &[1, 1, 1, 1]),
            (b"\xF0\x9F\x98", &[3]),
            (b"\xE0\x80", &[1, 1]),
            (b"\xFC\x80\x80\x80\x80\x80", &[1, 1, 1, 1, 1, 1]),
            (b"\xED\xA0\xBD\xED\xB8\x80", &[1, 1, 1, 1, 1, 1]),
        ];
        for (input, expected) in rows {
            let lengths: Vec<usize> = subparts(input).map(<[u8]>::len).collect();
            assert_eq!(&lengths, expected, "input {input:02X?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for kind in std::iter::once(UnitKind::Char).chain(UnitKind::ILL_FORMED) {
            assert_eq!(UnitKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(UnitKind::from_name("nope"), None);
    }

    #[test]
    fn first_char_decodes_each_character_as_std_does() {
        for c in (0x80..=0x10_FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(first_char(bytes), Some(c), "U+{:04X}", u32::from(c));
            assert_eq!(first_char(&bytes[..bytes.len() - 1]), None);
        }
        // Every lead with every continuation byte or none after it, and the ill-formed forms the
        // codec names (overlong, surrogate, past U+10FFFF): what std accepts, and nothing else.
        for lead in 0x80..=0xFF_u8 {
            for next in [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                for last in [0x80, 0xBF, 0x41] {
                    let bytes = [lead, next, last, last];
                    let want = (1..=4).find_map(|n| {
                        std::str::from_utf8(&bytes[..n])
                            .ok()
                            .and_then(|s| s.chars().next())
                    });
                    assert_eq!(first_char(&bytes), want, "{bytes:02X?}");
                }
            }
        }
    }
}

/// The bytes of one unit, held inline: up to six (the longest unit, a legacy 6-byte form), so
/// that a repair, a held finding or an encoded code point carries its bytes without a
/// `Vec`. Longer slices keep their first six.
///
/// ```
/// use utf8kit_codec::unit::UnitBytes;
/// assert_eq!(UnitBytes::new(b"\xE2\x82").as_bytes(), b"\xE2\x82");
/// assert_eq!(UnitBytes::new(b"abcdefgh").as_bytes(), b"abcdef");
/// assert_eq!(format!("{:?}", UnitBytes::new(b"\xC0\xAF")), "[C0, AF]");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct UnitBytes {
    bytes: [u8; 6],
    len: u8,
}

impl UnitBytes {
    /// The first six bytes of `bytes` (all of them, for a unit).
    pub fn new(bytes: &[u8]) -> UnitBytes {
        let mut held = UnitBytes::default();
        let len = bytes.len().min(6);
        held.bytes[..len].copy_from_slice(&bytes[..len]);
        held.len = len as u8;
        held
    }

    /// The bytes held.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl fmt::Debug for UnitBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02X?}", self.as_bytes())
    }
}
