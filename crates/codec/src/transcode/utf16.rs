//! UTF-16 into UTF-8, widening runs of ASCII and 2-byte characters with SIMD.

use super::decode::*;
use super::errors::{Endian, Malformed, MalformedKind};
use crate::widen::{self, Out, write_into};

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
    pub(super) replace: bool,
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
    pub(super) fn decode_in(
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
pub(super) fn malformed(error: Malformed, out: &mut Out, replace: bool) -> Result<(), Malformed> {
    if replace {
        out.push_char(REPLACEMENT);
        Ok(())
    } else {
        Err(error)
    }
}
