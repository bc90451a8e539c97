//! UTF-32 and UCS-2: fixed-width units.

use super::decode::*;
use super::errors::{Endian, Malformed, MalformedKind};

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
    pub(super) replace: bool,
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
    pub(super) fn decode_in(
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
pub(super) fn decode_fixed<const WIDTH: usize>(
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

pub(super) fn finish_partial(
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
    pub(super) replace: bool,
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
    pub(super) fn decode_in(
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
