//! UTF-7 (RFC 2152), both ways.

use super::decode::*;
use super::errors::{Malformed, MalformedKind};

pub(super) const BASE64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(super) fn base64_value(byte: u8) -> Option<u32> {
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
pub(super) fn is_direct(c: char) -> bool {
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
    pub(super) replace: bool,
    offset: u64,
    /// In a base64 shift: the bits gathered so far, how many, and where the shift started.
    shift: Option<Shift>,
    /// A high surrogate waiting for its low half, and the offset of its shift.
    high: Option<(u16, u64)>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Shift {
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
    pub(super) fn decode_in(
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
