//! The trait every decoder shares, and the fixed-width unit reader of UTF-32 and UCS-2.

use super::errors::{Endian, Malformed};

/// A streaming decoder into UTF-8: chunks in, UTF-8 out, in the mode chosen when it was made
/// (strict, or `replacing()`). [`Utf16Decoder`](super::Utf16Decoder),
/// [`Utf32Decoder`](super::Utf32Decoder), [`Ucs2Decoder`](super::Ucs2Decoder) and
/// [`Utf7Decoder`](super::Utf7Decoder) are decoders, so a caller can hold any of them.
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

pub(super) const REPLACEMENT: char = '\u{FFFD}';

pub(super) fn push_char(dst: &mut Vec<u8>, c: char) {
    dst.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Decodes fixed-width units of `WIDTH` bytes; the shared part of UTF-32 and UCS-2.
#[derive(Clone, Debug)]
pub(super) struct UnitReader<const WIDTH: usize> {
    endian: Endian,
    carry: [u8; 4],
    carry_len: usize,
    offset: u64,
}

impl<const WIDTH: usize> UnitReader<WIDTH> {
    pub(super) fn new(endian: Endian) -> Self {
        UnitReader {
            endian,
            carry: [0; 4],
            carry_len: 0,
            offset: 0,
        }
    }

    /// Calls `unit` with each whole unit and its offset; returns the offset of a partial unit
    /// left at the end of a last chunk.
    pub(super) fn read(
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
