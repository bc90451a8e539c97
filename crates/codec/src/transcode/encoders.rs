//! UTF-8 out into UTF-16, UTF-32 and UCS-2.

use std::fmt;

use super::errors::Endian;

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

pub(super) fn push_u16(dst: &mut Vec<u8>, unit: u16, endian: Endian) {
    dst.extend_from_slice(&u16_bytes(unit, endian));
}

pub(super) fn u16_bytes(unit: u16, endian: Endian) -> [u8; 2] {
    match endian {
        Endian::Little => unit.to_le_bytes(),
        Endian::Big => unit.to_be_bytes(),
    }
}
