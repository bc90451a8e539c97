//! What a strict decoder or an encoder reports: where, and what went wrong.

use std::fmt;

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
