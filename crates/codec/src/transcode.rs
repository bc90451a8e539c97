//! Transcoders the WHATWG Encoding Standard leaves out: UTF-32, UCS-2 and UTF-7 (RFC 2152).
//!
//! Decoders are streaming: they take chunks of any size, carry a partial unit to the next one,
//! and append UTF-8 to a buffer. In strict mode they stop at the first malformed input and say
//! where; in replacing mode they write U+FFFD for it and go on. Encoders take UTF-8 text.

use std::fmt;

/// Byte order of a 16- or 32-bit encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first (the default of RFC 2781 without a byte order mark).
    Big,
}

/// Malformed input found by a strict decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The offset of the malformed input, from the start of the stream.
    pub byte_offset: u64,
    /// Why it is malformed.
    pub reason: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte offset {}: {}", self.byte_offset, self.reason)
    }
}

impl std::error::Error for Malformed {}

const REPLACEMENT: char = '\u{FFFD}';

fn push_char(dst: &mut Vec<u8>, c: char) {
    dst.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Decodes fixed-width units of `WIDTH` bytes; the shared part of UTF-32 and UCS-2.
#[derive(Clone, Debug)]
struct UnitReader<const WIDTH: usize> {
    endian: Endian,
    carry: [u8; 4],
    carry_len: usize,
    offset: u64,
}

impl<const WIDTH: usize> UnitReader<WIDTH> {
    fn new(endian: Endian) -> Self {
        UnitReader {
            endian,
            carry: [0; 4],
            carry_len: 0,
            offset: 0,
        }
    }

    /// Calls `unit` with each whole unit and its offset; returns the offset of a partial unit
    /// left at the end of a last chunk.
    fn read(
        &mut self,
        src: &[u8],
        last: bool,
        unit: &mut dyn FnMut(u32, u64) -> Result<(), Malformed>,
    ) -> Result<Option<u64>, Malformed> {
        let mut src = src;
        if self.carry_len > 0 {
            let take = (WIDTH - self.carry_len).min(src.len());
            self.carry[self.carry_len..self.carry_len + take].copy_from_slice(&src[..take]);
            self.carry_len += take;
            src = &src[take..];
            if self.carry_len == WIDTH {
                let value = self.value(&self.carry[..WIDTH]);
                self.carry_len = 0;
                unit(value, self.offset)?;
                self.offset += WIDTH as u64;
            }
        }
        let mut units = src.chunks_exact(WIDTH);
        for bytes in &mut units {
            unit(self.value(bytes), self.offset)?;
            self.offset += WIDTH as u64;
        }
        let rest = units.remainder();
        self.carry[self.carry_len..self.carry_len + rest.len()].copy_from_slice(rest);
        self.carry_len += rest.len();
        if last && self.carry_len > 0 {
            self.carry_len = 0;
            return Ok(Some(self.offset));
        }
        Ok(None)
    }

    fn value(&self, bytes: &[u8]) -> u32 {
        let mut value = 0u32;
        for i in 0..WIDTH {
            let byte = match self.endian {
                Endian::Big => bytes[i],
                Endian::Little => bytes[WIDTH - 1 - i],
            };
            value = value << 8 | u32::from(byte);
        }
        value
    }
}

/// UTF-32 to UTF-8.
///
/// ```
/// use utf8kit_codec::{Endian, Utf32Decoder};
/// let mut out = Vec::new();
/// Utf32Decoder::new(Endian::Little).decode(b"\xAC\x20\x00\x00", true, &mut out, false)?;
/// assert_eq!(out, "€".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Utf32Decoder {
    reader: UnitReader<4>,
}

impl Utf32Decoder {
    /// A decoder for one byte order.
    pub fn new(endian: Endian) -> Utf32Decoder {
        Utf32Decoder {
            reader: UnitReader::new(endian),
        }
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode (`replace` false): a surrogate, a value above U+10FFFF, or 1 to 3 bytes
    /// left at the end.
    pub fn decode(
        &mut self,
        src: &[u8],
        last: bool,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        decode_fixed(
            &mut self.reader,
            src,
            last,
            dst,
            replace,
            "UTF-32",
            |value| format!("0x{value:08X} is not a Unicode scalar value"),
        )
    }
}

/// Decodes fixed-width units into characters: the shared body of the UTF-32 and UCS-2 decoders.
/// `not_a_char` says why a unit that is no scalar value is malformed.
fn decode_fixed<const WIDTH: usize>(
    reader: &mut UnitReader<WIDTH>,
    src: &[u8],
    last: bool,
    dst: &mut Vec<u8>,
    replace: bool,
    name: &str,
    not_a_char: fn(u32) -> String,
) -> Result<(), Malformed> {
    let partial = reader.read(src, last, &mut |value, offset| {
        match char::from_u32(value) {
            Some(c) => push_char(dst, c),
            None if replace => push_char(dst, REPLACEMENT),
            None => {
                return Err(Malformed {
                    byte_offset: offset,
                    reason: not_a_char(value),
                })
            }
        }
        Ok(())
    })?;
    finish_partial(partial, replace, dst, name)
}

fn finish_partial(
    partial: Option<u64>,
    replace: bool,
    dst: &mut Vec<u8>,
    name: &str,
) -> Result<(), Malformed> {
    match partial {
        Some(_) if replace => {
            push_char(dst, REPLACEMENT);
            Ok(())
        }
        Some(offset) => Err(Malformed {
            byte_offset: offset,
            reason: format!("the input ends inside a {name} code unit"),
        }),
        None => Ok(()),
    }
}

/// UCS-2 (UTF-16 without surrogates) to UTF-8.
#[derive(Clone, Debug)]
pub struct Ucs2Decoder {
    reader: UnitReader<2>,
}

impl Ucs2Decoder {
    /// A decoder for one byte order.
    pub fn new(endian: Endian) -> Ucs2Decoder {
        Ucs2Decoder {
            reader: UnitReader::new(endian),
        }
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode: a surrogate code unit, or one byte left at the end.
    pub fn decode(
        &mut self,
        src: &[u8],
        last: bool,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        decode_fixed(
            &mut self.reader,
            src,
            last,
            dst,
            replace,
            "UCS-2",
            |value| format!("surrogate 0x{value:04X}, which UCS-2 does not have"),
        )
    }
}

/// ISO-8859-1 to UTF-8: byte n is U+00nn. Eight ASCII bytes are copied at a time; each other
/// byte becomes two.
///
/// ```
/// let mut out = Vec::new();
/// utf8kit_codec::latin1_to_utf8(b"caf\xE9", &mut out);
/// assert_eq!(out, "café".as_bytes());
/// ```
pub fn latin1_to_utf8(src: &[u8], dst: &mut Vec<u8>) {
    // Written into a slice sized for the worst case (every byte two), then cut to length:
    // pushing byte by byte spent its time on capacity checks.
    let start = dst.len();
    dst.resize(start + src.len() * 2 + 1, 0);
    let out = &mut dst[start..];
    let mut o = 0;
    let mut words = src.chunks_exact(8);
    for word in &mut words {
        let value = u64::from_ne_bytes(word.try_into().expect("chunks of eight"));
        if value & 0x8080_8080_8080_8080 == 0 {
            out[o..o + 8].copy_from_slice(word);
            o += 8;
        } else {
            for &byte in word {
                o += put_latin1(out, o, byte);
            }
        }
    }
    for &byte in words.remainder() {
        o += put_latin1(out, o, byte);
    }
    dst.truncate(start + o);
}

/// Writes one Latin-1 byte as UTF-8 at `out[o..]`, without a branch on the byte: two bytes are
/// always stored and the second is overwritten next when the first was ASCII. Returns 1 or 2.
#[inline(always)]
fn put_latin1(out: &mut [u8], o: usize, byte: u8) -> usize {
    let is_wide = usize::from(byte >> 7);
    out[o] = if is_wide == 1 { 0xC0 | byte >> 6 } else { byte };
    out[o + 1] = 0x80 | (byte & 0x3F);
    1 + is_wide
}

/// A character an encoder cannot write, and its byte offset in the UTF-8 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The byte offset of the character in the text given to the encoder.
    pub byte_offset: usize,
    /// The character.
    pub character: char,
}

/// Appends `text` as UTF-32.
pub fn encode_utf32(text: &str, endian: Endian, dst: &mut Vec<u8>) {
    for c in text.chars() {
        let bytes = u32::from(c);
        match endian {
            Endian::Little => dst.extend_from_slice(&bytes.to_le_bytes()),
            Endian::Big => dst.extend_from_slice(&bytes.to_be_bytes()),
        }
    }
}

/// Appends `text` as UCS-2; characters above U+FFFF are unencodable.
///
/// # Errors
///
/// The first unencodable character, unless `replacement` says what to write instead.
pub fn encode_ucs2(
    text: &str,
    endian: Endian,
    dst: &mut Vec<u8>,
    replacement: Option<&str>,
) -> Result<(), Unencodable> {
    for (byte_offset, c) in text.char_indices() {
        let Ok(unit) = u16::try_from(u32::from(c)) else {
            let Some(replacement) = replacement else {
                return Err(Unencodable {
                    byte_offset,
                    character: c,
                });
            };
            for r in replacement.encode_utf16() {
                push_u16(dst, r, endian);
            }
            continue;
        };
        push_u16(dst, unit, endian);
    }
    Ok(())
}

fn push_u16(dst: &mut Vec<u8>, unit: u16, endian: Endian) {
    match endian {
        Endian::Little => dst.extend_from_slice(&unit.to_le_bytes()),
        Endian::Big => dst.extend_from_slice(&unit.to_be_bytes()),
    }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_value(byte: u8) -> Option<u32> {
    match byte {
        b'A'..=b'Z' => Some(u32::from(byte - b'A')),
        b'a'..=b'z' => Some(u32::from(byte - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(byte - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Characters UTF-7 writes as themselves: RFC 2152's set D, set O (but `\` and `~`, which
/// Rule 3 leaves out), space, tab, CR and LF.
fn is_direct(c: char) -> bool {
    c.is_ascii_alphanumeric() || "'(),-./:? \t\r\n!\"#$%&*;<=>@[]^_`{|}".contains(c)
}

/// UTF-7 (RFC 2152) to UTF-8.
///
/// ```
/// use utf8kit_codec::Utf7Decoder;
/// let mut out = Vec::new();
/// Utf7Decoder::new().decode(b"Hi Mom -+Jjo--!", true, &mut out, false)?;
/// assert_eq!(out, "Hi Mom -☺-!".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Utf7Decoder {
    offset: u64,
    /// In a base64 shift: the bits gathered so far, how many, and where the shift started.
    shift: Option<Shift>,
    /// A high surrogate waiting for its low half, and the offset of its shift.
    high: Option<(u16, u64)>,
}

#[derive(Clone, Copy, Debug)]
struct Shift {
    bits: u32,
    count: u32,
    start: u64,
    /// No base64 character yet: "+-" is a plus sign.
    is_empty: bool,
}

impl Utf7Decoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Utf7Decoder {
        Utf7Decoder::default()
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode: a byte above 0x7F, a shift that ends with bits left over, or a surrogate
    /// without its other half.
    pub fn decode(
        &mut self,
        src: &[u8],
        last: bool,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        for &byte in src {
            let at = self.offset;
            self.offset += 1;
            if let Some(mut shift) = self.shift {
                if let Some(value) = base64_value(byte) {
                    shift.bits = shift.bits << 6 | value;
                    shift.count += 6;
                    shift.is_empty = false;
                    if shift.count >= 16 {
                        shift.count -= 16;
                        let unit = (shift.bits >> shift.count) as u16;
                        shift.bits &= (1 << shift.count) - 1;
                        self.shift = Some(shift);
                        self.unit(unit, shift.start, dst, replace)?;
                    }
                    self.shift = Some(shift);
                    continue;
                }
                // The shift ends; '-' is absorbed.
                self.shift = None;
                if shift.is_empty && byte == b'-' {
                    push_char(dst, '+');
                    continue;
                }
                self.end_shift(shift, dst, replace)?;
                if byte == b'-' {
                    continue;
                }
            }
            if byte == b'+' {
                self.shift = Some(Shift {
                    bits: 0,
                    count: 0,
                    start: at,
                    is_empty: true,
                });
            } else if byte < 0x80 {
                self.lone_high(dst, replace)?;
                dst.push(byte);
            } else if replace {
                push_char(dst, REPLACEMENT);
            } else {
                return Err(Malformed {
                    byte_offset: at,
                    reason: format!("byte 0x{byte:02X} is not 7-bit, as UTF-7 must be"),
                });
            }
        }
        if last {
            if let Some(shift) = self.shift.take() {
                if shift.is_empty {
                    return self.malformed(
                        shift.start,
                        "'+' at the end of the input",
                        dst,
                        replace,
                    );
                }
                self.end_shift(shift, dst, replace)?;
            }
            self.lone_high(dst, replace)?;
        }
        Ok(())
    }

    fn end_shift(
        &mut self,
        shift: Shift,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        // RFC 2152: the bits left over must be fewer than six and all zero.
        if shift.count >= 6 || shift.bits != 0 {
            return self.malformed(
                shift.start,
                "a base64 run ends with bits left over",
                dst,
                replace,
            );
        }
        Ok(())
    }

    fn unit(
        &mut self,
        unit: u16,
        at: u64,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        match (self.high.take().map(|(high, _)| high), unit) {
            (Some(high), 0xDC00..=0xDFFF) => {
                let value =
                    0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                push_char(
                    dst,
                    char::from_u32(value).expect("a pair is a scalar value"),
                );
                Ok(())
            }
            (high, 0xD800..=0xDBFF) => {
                if high.is_some() {
                    self.malformed(at, "a high surrogate without its low half", dst, replace)?;
                }
                self.high = Some((unit, at));
                Ok(())
            }
            (high, 0xDC00..=0xDFFF) => {
                if high.is_some() {
                    self.malformed(at, "a high surrogate without its low half", dst, replace)?;
                }
                self.malformed(at, "a low surrogate without its high half", dst, replace)
            }
            (high, unit) => {
                if high.is_some() {
                    self.malformed(at, "a high surrogate without its low half", dst, replace)?;
                }
                push_char(
                    dst,
                    char::from_u32(u32::from(unit)).expect("not a surrogate"),
                );
                Ok(())
            }
        }
    }

    fn lone_high(&mut self, dst: &mut Vec<u8>, replace: bool) -> Result<(), Malformed> {
        if let Some((_, at)) = self.high.take() {
            return self.malformed(at, "a high surrogate without its low half", dst, replace);
        }
        Ok(())
    }

    fn malformed(
        &self,
        at: u64,
        reason: &str,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        if replace {
            push_char(dst, REPLACEMENT);
            Ok(())
        } else {
            Err(Malformed {
                byte_offset: at,
                reason: reason.to_owned(),
            })
        }
    }
}

/// UTF-8 to UTF-7 (RFC 2152), chunk by chunk: a base64 run may span chunks.
#[derive(Clone, Debug, Default)]
pub struct Utf7Encoder {
    /// In a base64 run: the bits not yet written and how many.
    run: Option<(u32, u32)>,
}

impl Utf7Encoder {
    /// An encoder at the start of a stream.
    pub fn new() -> Utf7Encoder {
        Utf7Encoder::default()
    }

    /// Encodes `text`; `last` closes an open base64 run.
    ///
    /// ```
    /// use utf8kit_codec::Utf7Encoder;
    /// let mut out = Vec::new();
    /// Utf7Encoder::new().encode("Hi Mom -☺-! 1+1", true, &mut out);
    /// assert_eq!(out, b"Hi Mom -+Jjo--! 1+-1");
    /// ```
    pub fn encode(&mut self, text: &str, last: bool, dst: &mut Vec<u8>) {
        for c in text.chars() {
            if is_direct(c) {
                self.close(dst);
                dst.push(c as u8);
            } else if c == '+' && self.run.is_none() {
                dst.extend_from_slice(b"+-");
            } else {
                let (mut bits, mut count) = self.run.unwrap_or_else(|| {
                    dst.push(b'+');
                    (0, 0)
                });
                for unit in c.encode_utf16(&mut [0; 2]) {
                    bits = bits << 16 | u32::from(*unit);
                    count += 16;
                    while count >= 6 {
                        count -= 6;
                        dst.push(BASE64[(bits >> count & 63) as usize]);
                    }
                    bits &= (1 << count) - 1;
                }
                self.run = Some((bits, count));
            }
        }
        if last {
            self.close(dst);
        }
    }

    fn close(&mut self, dst: &mut Vec<u8>) {
        if let Some((bits, count)) = self.run.take() {
            if count > 0 {
                dst.push(BASE64[(bits << (6 - count) & 63) as usize]);
            }
            // Always end explicitly: the next character may be a base64 letter or '-'.
            dst.push(b'-');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_utf7(input: &[u8]) -> Result<String, Malformed> {
        let mut out = Vec::new();
        Utf7Decoder::new().decode(input, true, &mut out, false)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn rfc_2152_examples() {
        assert_eq!(decode_utf7(b"A+ImIDkQ.").unwrap(), "A\u{2262}\u{391}.");
        assert_eq!(
            decode_utf7(b"Hi Mom -+Jjo--!").unwrap(),
            "Hi Mom -\u{263A}-!"
        );
        assert_eq!(
            decode_utf7(b"+ZeVnLIqe-").unwrap(),
            "\u{65E5}\u{672C}\u{8A9E}"
        );
        assert_eq!(decode_utf7(b"1 +- 1").unwrap(), "1 + 1");
        assert_eq!(decode_utf7(b"+2D3eAA-").unwrap(), "😀");
        assert!(decode_utf7(b"caf\xe9").is_err());
        assert_eq!(decode_utf7(b"+2D0-").unwrap_err().byte_offset, 0);
        assert!(decode_utf7(b"+ZeV-").is_err(), "bits left over");
    }

    #[test]
    fn utf7_round_trips_every_kind_of_text() {
        let texts = [
            "plain ASCII, with (punctuation) and 1+1=2 ~ \\ done",
            "Grüße, 世界! 😀 Привет +++",
            "+-+",
            "日本語 mixed with ASCII-letters and 'quotes'",
            "",
        ];
        for text in texts {
            let mut encoded = Vec::new();
            let mut encoder = Utf7Encoder::new();
            // Encode in two pieces, splitting a base64 run.
            let mid = text
                .char_indices()
                .nth(text.chars().count() / 2)
                .map_or(0, |(i, _)| i);
            encoder.encode(&text[..mid], false, &mut encoded);
            encoder.encode(&text[mid..], true, &mut encoded);
            assert!(encoded.iter().all(u8::is_ascii), "{text:?}");
            // Decode one byte at a time.
            let mut decoded = Vec::new();
            let mut decoder = Utf7Decoder::new();
            for (i, byte) in encoded.iter().enumerate() {
                decoder
                    .decode(&[*byte], i + 1 == encoded.len(), &mut decoded, false)
                    .unwrap();
            }
            if encoded.is_empty() {
                decoder.decode(&[], true, &mut decoded, false).unwrap();
            }
            assert_eq!(String::from_utf8(decoded).unwrap(), text);
        }
    }

    #[test]
    fn latin1_is_exact() {
        let all: Vec<u8> = (0..=255).cycle().take(1000).collect();
        let mut out = vec![b'>'];
        latin1_to_utf8(&all, &mut out);
        let expected: String = std::iter::once('>')
            .chain(all.iter().map(|&b| char::from(b)))
            .collect();
        assert_eq!(out, expected.as_bytes());
    }

    #[test]
    fn utf32_and_ucs2() {
        let text = "a€😀";
        for endian in [Endian::Little, Endian::Big] {
            let mut bytes = Vec::new();
            encode_utf32(text, endian, &mut bytes);
            assert_eq!(bytes.len(), 12);
            let mut out = Vec::new();
            let mut decoder = Utf32Decoder::new(endian);
            for (i, byte) in bytes.iter().enumerate() {
                decoder.decode(&[*byte], i == 11, &mut out, false).unwrap();
            }
            assert_eq!(out, text.as_bytes());
        }
        let mut out = Vec::new();
        let error = Utf32Decoder::new(Endian::Big)
            .decode(b"\0\0\0a\0\0\xD8\0", true, &mut out, false)
            .unwrap_err();
        assert_eq!(error.byte_offset, 4);
        let error = Utf32Decoder::new(Endian::Big)
            .decode(b"\0\0\0a\0\0", true, &mut Vec::new(), false)
            .unwrap_err();
        assert_eq!(error.byte_offset, 4);
        let mut bytes = Vec::new();
        assert_eq!(
            encode_ucs2("a😀", Endian::Little, &mut bytes, None),
            Err(Unencodable {
                byte_offset: 1,
                character: '😀'
            })
        );
        let mut bytes = Vec::new();
        encode_ucs2("a😀", Endian::Big, &mut bytes, Some("?")).unwrap();
        assert_eq!(bytes, b"\0a\0?");
        let error = Ucs2Decoder::new(Endian::Little)
            .decode(b"a\0=\xD8", true, &mut Vec::new(), false)
            .unwrap_err();
        assert_eq!(error.byte_offset, 2);
    }
}
