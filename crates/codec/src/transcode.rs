//! Transcoders the WHATWG Encoding Standard leaves out (UTF-32, UCS-2, UTF-7 of RFC 2152,
//! exact Latin-1), and a faster UTF-16 decoder than a general library's.
//!
//! Decoders are streaming: they take chunks of any size, carry a partial unit to the next one,
//! and append UTF-8 to a buffer. In strict mode they stop at the first malformed input and say
//! where; in replacing mode they write U+FFFD for it and go on. Encoders take UTF-8 text.

use std::fmt;

use crate::widen::{self, Out, write_into};

/// Byte order of a 16- or 32-bit encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first (the default of RFC 2781 without a byte order mark).
    Big,
}

/// Malformed input found by a strict decoder: where, and what ([`MalformedKind`]). `Display`
/// gives `byte offset N: ` and the kind's sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The offset of the malformed input, from the start of the stream.
    pub byte_offset: u64,
    /// What is malformed.
    pub kind: MalformedKind,
}

/// What a strict decoder found malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MalformedKind {
    /// The input ends inside a code unit of the named encoding (`UTF-16`, `UTF-32`, `UCS-2`).
    EndsInsideUnit(&'static str),
    /// A UTF-32 unit that is no Unicode scalar value (a surrogate, or above U+10FFFF).
    NotScalar(u32),
    /// A UCS-2 unit that is a surrogate, which UCS-2 does not have.
    Ucs2Surrogate(u32),
    /// UTF-16: the input ends right after a high surrogate.
    EndsAfterHighSurrogate(u16),
    /// UTF-16: a high surrogate that no low one follows.
    UnpairedHigh(u16),
    /// UTF-16: a low surrogate that follows no high one.
    UnpairedLow(u16),
    /// UTF-7: a byte above 7F.
    Utf7Not7Bit(u8),
    /// UTF-7: `+` as the last byte of the input.
    Utf7PlusAtEnd,
    /// UTF-7: a base64 run whose leftover bits are six or more, or not zero.
    Utf7BitsLeftOver,
    /// UTF-7: a surrogate (in a base64 run) without its other half.
    Utf7UnpairedHigh,
    /// UTF-7: a low surrogate without its high half.
    Utf7UnpairedLow,
    /// 7-bit ASCII: a byte above 7F.
    NotAscii(u8),
    /// A legacy encoding: this many bytes that form no character.
    NoCharacter(usize),
    /// UTF-8: an ill-formed sequence, named by its finding kind (`overlong`, `truncated`, ...),
    /// and its bytes.
    IllFormedUtf8 {
        /// What the scanner found.
        kind: crate::FindingKind,
        /// The bytes.
        bytes: Vec<u8>,
    },
}

impl fmt::Display for MalformedKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MalformedKind::EndsInsideUnit(name) => {
                write!(f, "the input ends inside a {name} code unit")
            }
            MalformedKind::NotScalar(value) => {
                write!(f, "0x{value:08X} is not a Unicode scalar value")
            }
            MalformedKind::Ucs2Surrogate(value) => {
                write!(f, "surrogate 0x{value:04X}, which UCS-2 does not have")
            }
            MalformedKind::EndsAfterHighSurrogate(high) => {
                write!(f, "the input ends after the high surrogate 0x{high:04X}")
            }
            MalformedKind::UnpairedHigh(high) => {
                write!(
                    f,
                    "the high surrogate 0x{high:04X} is not followed by a low one"
                )
            }
            MalformedKind::UnpairedLow(low) => {
                write!(f, "the low surrogate 0x{low:04X} follows no high one")
            }
            MalformedKind::Utf7Not7Bit(byte) => {
                write!(f, "byte 0x{byte:02X} is not 7-bit, as UTF-7 must be")
            }
            MalformedKind::Utf7PlusAtEnd => f.write_str("'+' at the end of the input"),
            MalformedKind::Utf7BitsLeftOver => f.write_str("a base64 run ends with bits left over"),
            MalformedKind::Utf7UnpairedHigh => f.write_str("a high surrogate without its low half"),
            MalformedKind::Utf7UnpairedLow => f.write_str("a low surrogate without its high half"),
            MalformedKind::NotAscii(byte) => write!(f, "byte {byte:02x} is not 7-bit ASCII"),
            MalformedKind::NoCharacter(count) => {
                write!(f, "{count} byte(s) that do not form a character")
            }
            MalformedKind::IllFormedUtf8 { kind, bytes } => {
                write!(f, "{kind}")?;
                for byte in bytes {
                    write!(f, " {byte:02x}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte offset {}: {}", self.byte_offset, self.kind)
    }
}

impl std::error::Error for Malformed {}

/// A streaming decoder into UTF-8: chunks in, UTF-8 out, in the mode chosen when it was made
/// (strict, or `replacing()`). [`Utf16Decoder`], [`Utf32Decoder`], [`Ucs2Decoder`] and
/// [`Utf7Decoder`] are decoders, so a caller can hold any of them.
///
/// ```
/// use utf8kit_codec::transcode::{Decode, Endian, Utf16Decoder, Utf32Decoder};
/// let mut decoders: Vec<Box<dyn Decode>> = vec![
///     Box::new(Utf16Decoder::new(Endian::Little)),
///     Box::new(Utf32Decoder::new(Endian::Little).replacing()),
/// ];
/// let mut out = Vec::new();
/// decoders[0].decode(b"h\0i\0", true, &mut out)?;
/// decoders[1].decode(b"\0\xD8\0\0", true, &mut out)?; // a surrogate: U+FFFD
/// assert_eq!(out, "hi\u{FFFD}".as_bytes());
/// # Ok::<(), utf8kit_codec::transcode::Malformed>(())
/// ```
pub trait Decode {
    /// Decodes the next chunk (`last` for the final one), appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode, the first malformed input.
    fn decode(&mut self, src: &[u8], last: bool, dst: &mut Vec<u8>) -> Result<(), Malformed>;

    /// The same decoder in replacing mode: each malformed sequence becomes one U+FFFD.
    fn replacing(self) -> Self
    where
        Self: Sized;

    /// The encoding it decodes, for messages: `UTF-16LE`, `UTF-32`, `UCS-2`, `UTF-7`.
    fn name(&self) -> &'static str;
}

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
/// use utf8kit_codec::transcode::{Endian, Utf32Decoder};
/// let mut out = Vec::new();
/// Utf32Decoder::new(Endian::Little).decode(b"\xAC\x20\x00\x00", true, &mut out)?;
/// assert_eq!(out, "€".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Utf32Decoder {
    /// Replace malformed input with U+FFFD instead of failing (set by `replacing`).
    replace: bool,
    reader: UnitReader<4>,
}

impl Utf32Decoder {
    /// A decoder for one byte order.
    pub fn new(endian: Endian) -> Utf32Decoder {
        Utf32Decoder {
            reader: UnitReader::new(endian),
            replace: false,
        }
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode (`replace` false): a surrogate, a value above U+10FFFF, or 1 to 3 bytes
    /// left at the end.
    fn decode_in(
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
            MalformedKind::NotScalar,
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
    name: &'static str,
    not_a_char: fn(u32) -> MalformedKind,
) -> Result<(), Malformed> {
    let partial = reader.read(src, last, &mut |value, offset| {
        match char::from_u32(value) {
            Some(c) => push_char(dst, c),
            None if replace => push_char(dst, REPLACEMENT),
            None => {
                return Err(Malformed {
                    byte_offset: offset,
                    kind: not_a_char(value),
                });
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
    name: &'static str,
) -> Result<(), Malformed> {
    match partial {
        Some(_) if replace => {
            push_char(dst, REPLACEMENT);
            Ok(())
        }
        Some(offset) => Err(Malformed {
            byte_offset: offset,
            kind: MalformedKind::EndsInsideUnit(name),
        }),
        None => Ok(()),
    }
}

/// UCS-2 (UTF-16 without surrogates) to UTF-8.
#[derive(Clone, Debug)]
pub struct Ucs2Decoder {
    /// Replace malformed input with U+FFFD instead of failing (set by `replacing`).
    replace: bool,
    reader: UnitReader<2>,
}

impl Ucs2Decoder {
    /// A decoder for one byte order.
    pub fn new(endian: Endian) -> Ucs2Decoder {
        Ucs2Decoder {
            reader: UnitReader::new(endian),
            replace: false,
        }
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`.
    ///
    /// # Errors
    ///
    /// In strict mode: a surrogate code unit, or one byte left at the end.
    fn decode_in(
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
            MalformedKind::Ucs2Surrogate,
        )
    }
}

/// ISO-8859-1 to UTF-8: byte n is U+00nn. Sixteen bytes are converted at a time (SSSE3),
/// eight ASCII bytes at a time without it.
///
/// ```
/// let mut out = Vec::new();
/// utf8kit_codec::transcode::latin1_to_utf8(b"caf\xE9", &mut out);
/// assert_eq!(out, "café".as_bytes());
/// ```
pub fn latin1_to_utf8(src: &[u8], dst: &mut Vec<u8>) {
    // Every byte becomes at most two; the kernel also wants 32 bytes of room to store into.
    write_into(dst, src.len() * 2 + 32, |out| {
        let done = widen::latin1(src, out);
        let mut words = src[done..].chunks_exact(8);
        for word in &mut words {
            if u64::from_ne_bytes(word.try_into().expect("chunks of eight")) & 0x8080_8080_8080_8080
                == 0
            {
                out.push(word);
            } else {
                for &byte in word {
                    push_latin1(out, byte);
                }
            }
        }
        for &byte in words.remainder() {
            push_latin1(out, byte);
        }
    });
}

#[inline]
fn push_latin1(out: &mut Out, byte: u8) {
    if byte < 0x80 {
        out.push(&[byte]);
    } else {
        out.push(&[0xC0 | byte >> 6, 0x80 | (byte & 0x3F)]);
    }
}

/// UTF-16 to UTF-8, as the WHATWG Encoding Standard decodes it: a surrogate without its other
/// half is malformed (one U+FFFD when replacing), and so is a unit or a high surrogate cut by
/// the end of the input (one U+FFFD for both). Sixteen units at a time with AVX2, eight with
/// SSSE3.
///
/// ```
/// use utf8kit_codec::transcode::{Endian, Utf16Decoder};
/// let mut out = Vec::new();
/// let mut decoder = Utf16Decoder::new(Endian::Big);
/// decoder.decode(b"\x20\xAC\xD8", false, &mut out)?;
/// decoder.decode(b"\x00\xDF\x48", true, &mut out)?;
/// assert_eq!(out, "€𐍈".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Utf16Decoder {
    /// Replace malformed input with U+FFFD instead of failing (set by `replacing`).
    replace: bool,
    endian: Endian,
    /// The first byte of a unit cut by the end of the last chunk.
    odd_byte: Option<u8>,
    /// A high surrogate that ended the last chunk, and its offset: its low half may follow.
    high: Option<(u16, u64)>,
    /// The offset of the start of the next chunk.
    offset: u64,
}

impl Utf16Decoder {
    /// A decoder for one byte order.
    pub fn new(endian: Endian) -> Utf16Decoder {
        Utf16Decoder {
            endian,
            odd_byte: None,
            high: None,
            offset: 0,
            replace: false,
        }
    }

    /// Decodes the next chunk, appending UTF-8 to `dst`. In strict mode, what comes before
    /// the malformed unit is written.
    ///
    /// # Errors
    ///
    /// In strict mode (`replace` false): a lone surrogate, or a unit or high surrogate cut by
    /// the end of the last chunk.
    fn decode_in(
        &mut self,
        src: &[u8],
        last: bool,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        // Each unit becomes at most three bytes, four with a high surrogate carried in, and
        // the end may add a U+FFFD; the kernel wants room to store 16 bytes at a time.
        let room = src.len() / 2 * 3 + 64;
        write_into(dst, room, |out| self.decode_into(src, last, out, replace))
    }

    fn decode_into(
        &mut self,
        src: &[u8],
        last: bool,
        out: &mut Out,
        replace: bool,
    ) -> Result<(), Malformed> {
        let mut src = src;
        if let (Some(first), Some((&second, rest))) = (self.odd_byte, src.split_first()) {
            self.odd_byte = None;
            let unit = self.unit([first, second]);
            self.offset += 1;
            self.take(unit, self.offset - 2, out, replace)?;
            src = rest;
        }
        let whole = src.len() & !1;
        let big_endian = self.endian == Endian::Big;
        let mut i = 0;
        while i < whole {
            if self.high.is_none() {
                i += widen::utf16(&src[i..whole], big_endian, out);
            }
            // Unit by unit up to the end of the next surrogate pair, or of the input.
            while i < whole {
                let unit = self.unit([src[i], src[i + 1]]);
                let at = self.offset + i as u64;
                i += 2;
                let was_surrogate = unit & 0xF800 == 0xD800;
                if let Err(error) = self.take(unit, at, out, replace) {
                    self.offset += i as u64;
                    return Err(error);
                }
                if was_surrogate && self.high.is_none() {
                    break;
                }
            }
        }
        self.offset += src.len() as u64;
        if whole < src.len() {
            self.odd_byte = Some(src[whole]);
        }
        if !last || (self.odd_byte.is_none() && self.high.is_none()) {
            return Ok(());
        }
        // One error for both a high surrogate and a byte cut by the end, at the first.
        self.odd_byte = None;
        let cut = match self.high.take() {
            Some((high, at)) => Malformed {
                byte_offset: at,
                kind: MalformedKind::EndsAfterHighSurrogate(high),
            },
            None => Malformed {
                byte_offset: self.offset - 1,
                kind: MalformedKind::EndsInsideUnit("UTF-16"),
            },
        };
        malformed(cut, out, replace)
    }

    /// The name of the encoding: UTF-16LE or UTF-16BE.
    pub fn name(&self) -> &'static str {
        match self.endian {
            Endian::Little => "UTF-16LE",
            Endian::Big => "UTF-16BE",
        }
    }

    fn unit(&self, bytes: [u8; 2]) -> u16 {
        match self.endian {
            Endian::Little => u16::from_le_bytes(bytes),
            Endian::Big => u16::from_be_bytes(bytes),
        }
    }

    /// Decodes one unit at offset `at`, pairing surrogates.
    #[inline]
    fn take(&mut self, unit: u16, at: u64, out: &mut Out, replace: bool) -> Result<(), Malformed> {
        if let Some((high, high_at)) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                out.push_char(char::from_u32(c).expect("a surrogate pair is a scalar value"));
                return Ok(());
            }
            let lone = Malformed {
                byte_offset: high_at,
                kind: MalformedKind::UnpairedHigh(high),
            };
            malformed(lone, out, replace)?;
        }
        match unit {
            0xD800..0xDC00 => self.high = Some((unit, at)),
            0xDC00..0xE000 => {
                let lone = Malformed {
                    byte_offset: at,
                    kind: MalformedKind::UnpairedLow(unit),
                };
                malformed(lone, out, replace)?;
            }
            _ => out.push_char(char::from_u32(unit.into()).expect("not a surrogate")),
        }
        Ok(())
    }
}

/// In replacing mode writes U+FFFD for malformed input; in strict mode returns it.
fn malformed(error: Malformed, out: &mut Out, replace: bool) -> Result<(), Malformed> {
    if replace {
        out.push_char(REPLACEMENT);
        Ok(())
    } else {
        Err(error)
    }
}

/// A character an encoder cannot write, and its byte offset in the UTF-8 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The byte offset of the character in the text given to the encoder.
    pub byte_offset: usize,
    /// The character.
    pub character: char,
}

impl fmt::Display for Unencodable {
    /// `byte offset 4: U+1F600 cannot be encoded`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte offset {}: U+{:04X} cannot be encoded",
            self.byte_offset,
            u32::from(self.character)
        )
    }
}

impl std::error::Error for Unencodable {}

/// Appends `text` as UTF-16 in the byte order `endian`, without a byte order mark.
///
/// ```
/// use utf8kit_codec::transcode::{encode_utf16, Endian};
/// let mut out = Vec::new();
/// encode_utf16("a€😀", Endian::Little, &mut out);
/// assert_eq!(out, b"a\x00\xAC\x20\x3D\xD8\x00\xDE");
/// ```
pub fn encode_utf16(text: &str, endian: Endian, dst: &mut Vec<u8>) {
    dst.reserve(text.len() * 2);
    let mut rest = text;
    while !rest.is_empty() {
        // A run of ASCII is widened byte by byte, a loop the compiler vectorises.
        let ascii = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        let start = dst.len();
        dst.resize(start + ascii * 2, 0);
        for (pair, &byte) in dst[start..]
            .chunks_exact_mut(2)
            .zip(&rest.as_bytes()[..ascii])
        {
            pair.copy_from_slice(&u16_bytes(u16::from(byte), endian));
        }
        rest = &rest[ascii..];
        // Then the run of other characters, up to the next ASCII byte.
        let mut chars = rest.chars();
        while let Some(c) = chars.next().filter(|c| !c.is_ascii()) {
            for &unit in c.encode_utf16(&mut [0; 2]).iter() {
                push_u16(dst, unit, endian);
            }
            rest = chars.as_str();
        }
    }
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
/// ```
/// use utf8kit_codec::transcode::{encode_ucs2, Endian};
/// let mut out = Vec::new();
/// let error = encode_ucs2("ab😀", Endian::Big, &mut out, None).unwrap_err();
/// assert_eq!(error.to_string(), "byte offset 2: U+1F600 cannot be encoded");
/// ```
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
    dst.extend_from_slice(&u16_bytes(unit, endian));
}

fn u16_bytes(unit: u16, endian: Endian) -> [u8; 2] {
    match endian {
        Endian::Little => unit.to_le_bytes(),
        Endian::Big => unit.to_be_bytes(),
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
/// use utf8kit_codec::transcode::Utf7Decoder;
/// let mut out = Vec::new();
/// Utf7Decoder::new().decode(b"Hi Mom -+Jjo--!", true, &mut out)?;
/// assert_eq!(out, "Hi Mom -☺-!".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Utf7Decoder {
    /// Replace malformed input with U+FFFD instead of failing (set by `replacing`).
    replace: bool,
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
    fn decode_in(
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
                    kind: MalformedKind::Utf7Not7Bit(byte),
                });
            }
        }
        if last {
            if let Some(shift) = self.shift.take() {
                if shift.is_empty {
                    return self.malformed(shift.start, MalformedKind::Utf7PlusAtEnd, dst, replace);
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
            return self.malformed(shift.start, MalformedKind::Utf7BitsLeftOver, dst, replace);
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
                    self.malformed(at, MalformedKind::Utf7UnpairedHigh, dst, replace)?;
                }
                self.high = Some((unit, at));
                Ok(())
            }
            (high, 0xDC00..=0xDFFF) => {
                if high.is_some() {
                    self.malformed(at, MalformedKind::Utf7UnpairedHigh, dst, replace)?;
                }
                self.malformed(at, MalformedKind::Utf7UnpairedLow, dst, replace)
            }
            (high, unit) => {
                if high.is_some() {
                    self.malformed(at, MalformedKind::Utf7UnpairedHigh, dst, replace)?;
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
            return self.malformed(at, MalformedKind::Utf7UnpairedHigh, dst, replace);
        }
        Ok(())
    }

    fn malformed(
        &self,
        at: u64,
        kind: MalformedKind,
        dst: &mut Vec<u8>,
        replace: bool,
    ) -> Result<(), Malformed> {
        if replace {
            push_char(dst, REPLACEMENT);
            Ok(())
        } else {
            Err(Malformed {
                byte_offset: at,
                kind,
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
    /// use utf8kit_codec::transcode::Utf7Encoder;
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

/// The mode and the [`Decode`] face of a decoder whose body is
/// `decode_in(src, last, dst, replace)`, with a `replace` field that is false when made: written
/// once for the four decoders.
macro_rules! decoder_mode {
    ($decoder:ident, $name:expr) => {
        impl $decoder {
            /// The same decoder, replacing each malformed sequence with one U+FFFD instead of
            /// failing at the first (strict, the default).
            pub fn replacing(mut self) -> $decoder {
                self.replace = true;
                self
            }

            /// Decodes the next chunk (`last` for the final one), appending UTF-8 to `dst`.
            ///
            /// # Errors
            ///
            /// In strict mode, the first malformed input (see the type's description).
            pub fn decode(
                &mut self,
                src: &[u8],
                last: bool,
                dst: &mut Vec<u8>,
            ) -> Result<(), Malformed> {
                let replace = self.replace;
                self.decode_in(src, last, dst, replace)
            }
        }

        impl Decode for $decoder {
            fn decode(
                &mut self,
                src: &[u8],
                last: bool,
                dst: &mut Vec<u8>,
            ) -> Result<(), Malformed> {
                $decoder::decode(self, src, last, dst)
            }

            fn replacing(self) -> $decoder {
                $decoder::replacing(self)
            }

            fn name(&self) -> &'static str {
                let name: fn(&$decoder) -> &'static str = $name;
                name(self)
            }
        }
    };
}

decoder_mode!(Utf32Decoder, |_| "UTF-32");
decoder_mode!(Ucs2Decoder, |_| "UCS-2");
decoder_mode!(Utf16Decoder, Utf16Decoder::name);
decoder_mode!(Utf7Decoder, |_| "UTF-7");

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_utf7(input: &[u8]) -> Result<String, Malformed> {
        let mut out = Vec::new();
        Utf7Decoder::new().decode(input, true, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn strict_decoders_say_what_is_malformed_and_where() {
        let utf16 = |input: &[u8]| {
            let mut out = Vec::new();
            Utf16Decoder::new(Endian::Big)
                .decode(input, true, &mut out)
                .unwrap_err()
        };
        let lone = utf16(b"\x00a\xDC\x00");
        assert_eq!(
            (lone.byte_offset, &lone.kind),
            (2, &MalformedKind::UnpairedLow(0xDC00))
        );
        assert_eq!(
            lone.to_string(),
            "byte offset 2: the low surrogate 0xDC00 follows no high one"
        );
        assert_eq!(
            utf16(b"\xD8\x00").kind,
            MalformedKind::EndsAfterHighSurrogate(0xD800)
        );
        assert_eq!(utf16(b"\x00").kind, MalformedKind::EndsInsideUnit("UTF-16"));
        assert_eq!(
            decode_utf7(b"+ZeV-").unwrap_err().kind,
            MalformedKind::Utf7BitsLeftOver
        );
        let mut out = Vec::new();
        let not_scalar = Utf32Decoder::new(Endian::Little)
            .decode(b"\x00\x00\x11\x00", true, &mut out)
            .unwrap_err();
        assert_eq!(not_scalar.kind, MalformedKind::NotScalar(0x11_0000));
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
                    .decode(&[*byte], i + 1 == encoded.len(), &mut decoded)
                    .unwrap();
            }
            if encoded.is_empty() {
                decoder.decode(&[], true, &mut decoded).unwrap();
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
    fn utf16_is_std_in_both_orders_for_every_character_and_run() {
        let every: String = (0..=0x10FFFF).filter_map(char::from_u32).collect();
        // Runs of ASCII and of other characters, of every length up to 20, meeting.
        let mut runs = String::new();
        for len in 0..20 {
            runs.push_str(&"a".repeat(len));
            runs.push_str(&"é😀".repeat(len % 3));
        }
        for text in [&every, &runs, "", "a", "€"] {
            for endian in [Endian::Little, Endian::Big] {
                let mut ours = vec![0xAA];
                encode_utf16(text, endian, &mut ours);
                let mut std = vec![0xAA];
                for unit in text.encode_utf16() {
                    std.extend_from_slice(&match endian {
                        Endian::Little => unit.to_le_bytes(),
                        Endian::Big => unit.to_be_bytes(),
                    });
                }
                assert!(ours == std, "{endian:?}, {} bytes of text", text.len());
            }
        }
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
                decoder.decode(&[*byte], i == 11, &mut out).unwrap();
            }
            assert_eq!(out, text.as_bytes());
        }
        let mut out = Vec::new();
        let error = Utf32Decoder::new(Endian::Big)
            .decode(b"\0\0\0a\0\0\xD8\0", true, &mut out)
            .unwrap_err();
        assert_eq!(error.byte_offset, 4);
        let error = Utf32Decoder::new(Endian::Big)
            .decode(b"\0\0\0a\0\0", true, &mut Vec::new())
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
            .decode(b"a\0=\xD8", true, &mut Vec::new())
            .unwrap_err();
        assert_eq!(error.byte_offset, 2);
    }
}
