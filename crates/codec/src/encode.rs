//! Encoding code points into bytes: RFC 3629, and on request the WTF-8 and RFC 2279 forms.

use std::fmt;

use crate::unit::UnitBytes;

/// Which values [`encode`] accepts beyond the Unicode scalar values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// RFC 3629: scalar values only (no surrogates, nothing above U+10FFFF).
    #[default]
    Standard,
    /// WTF-8: also surrogates, each encoded on its own in 3 bytes.
    Wtf8,
    /// RFC 2279: surrogates and every value up to 0x7FFFFFFF, in up to 6 bytes.
    Legacy,
}

/// The bytes of one encoded code point: up to six, held inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoded(UnitBytes);

impl Encoded {
    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl fmt::Debug for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Encoded({:02X?})", self.as_bytes())
    }
}

/// Why a code point cannot be encoded in the requested form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeError {
    /// A surrogate, U+D800..U+DFFF, which UTF-8 does not encode.
    Surrogate(u32),
    /// A value above U+10FFFF (or, for the legacy form, above 0x7FFFFFFF).
    OutOfRange(u32),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeError::Surrogate(cp) => write!(
                f,
                "U+{cp:04X} is a surrogate, which UTF-8 cannot encode (RFC 3629 section 3)"
            ),
            EncodeError::OutOfRange(cp) if cp <= 0x7FFF_FFFF => write!(
                f,
                "U+{cp:04X} is above U+10FFFF, the last code point (RFC 3629 section 3)"
            ),
            EncodeError::OutOfRange(cp) => {
                write!(
                    f,
                    "0x{cp:X} is above 0x7FFFFFFF, the largest RFC 2279 value"
                )
            }
        }
    }
}

impl std::error::Error for EncodeError {}

/// The number of bytes RFC 2279 uses for `value` (1 to 6), or `None` above 0x7FFFFFFF.
pub fn encoded_len(value: u32) -> Option<usize> {
    match value {
        0..=0x7F => Some(1),
        0x80..=0x7FF => Some(2),
        0x800..=0xFFFF => Some(3),
        0x1_0000..=0x1F_FFFF => Some(4),
        0x20_0000..=0x3FF_FFFF => Some(5),
        0x400_0000..=0x7FFF_FFFF => Some(6),
        _ => None,
    }
}

/// Encodes one code point in the given form.
///
/// # Errors
///
/// [`EncodeError::Surrogate`] for U+D800..U+DFFF in the standard form, and
/// [`EncodeError::OutOfRange`] above U+10FFFF (above 0x7FFFFFFF in the legacy form).
///
/// # Examples
///
/// ```
/// use utf8kit_codec::encode::{encode, EncodeError, Form};
/// assert_eq!(encode(0x20AC, Form::Standard)?.as_bytes(), b"\xE2\x82\xAC");
/// assert_eq!(encode(0xD800, Form::Standard), Err(EncodeError::Surrogate(0xD800)));
/// assert_eq!(encode(0xD800, Form::Wtf8)?.as_bytes(), b"\xED\xA0\x80");
/// assert_eq!(encode(0x7FFF_FFFF, Form::Legacy)?.as_bytes(), b"\xFD\xBF\xBF\xBF\xBF\xBF");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode(value: u32, form: Form) -> Result<Encoded, EncodeError> {
    let is_surrogate = (0xD800..=0xDFFF).contains(&value);
    match form {
        Form::Standard if is_surrogate => return Err(EncodeError::Surrogate(value)),
        Form::Standard | Form::Wtf8 if value > 0x10_FFFF => {
            return Err(EncodeError::OutOfRange(value));
        }
        _ => {}
    }
    let len = encoded_len(value).ok_or(EncodeError::OutOfRange(value))?;
    let mut bytes = [0u8; 6];
    if len == 1 {
        bytes[0] = value as u8;
    } else {
        let mut rest = value;
        for byte in bytes[1..len].iter_mut().rev() {
            *byte = 0x80 | (rest & 0x3F) as u8;
            rest >>= 6;
        }
        // The lead byte: len one bits, a zero, then the highest bits of the value.
        bytes[0] = (0xFF00_u16 >> len) as u8 | rest as u8;
    }
    Ok(Encoded(UnitBytes::new(&bytes[..len])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scalar_value_matches_std() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let expected = c.encode_utf8(&mut buf).as_bytes();
            let got = encode(u32::from(c), Form::Standard).unwrap();
            assert_eq!(got.as_bytes(), expected, "U+{:04X}", u32::from(c));
        }
    }

    type Row = (u32, Form, Result<&'static [u8], EncodeError>);

    #[test]
    fn forms() {
        let rows: &[Row] = &[
            (0x24, Form::Standard, Ok(b"$")),
            (0xA2, Form::Standard, Ok(b"\xC2\xA2")),
            (0x10348, Form::Standard, Ok(b"\xF0\x90\x8D\x88")),
            (0xDFFF, Form::Standard, Err(EncodeError::Surrogate(0xDFFF))),
            (0xDFFF, Form::Wtf8, Ok(b"\xED\xBF\xBF")),
            (0x110000, Form::Wtf8, Err(EncodeError::OutOfRange(0x110000))),
            (0x110000, Form::Legacy, Ok(b"\xF4\x90\x80\x80")),
            (0x200000, Form::Legacy, Ok(b"\xF8\x88\x80\x80\x80")),
            (
                0x8000_0000,
                Form::Legacy,
                Err(EncodeError::OutOfRange(0x8000_0000)),
            ),
        ];
        for &(value, form, ref expected) in rows {
            let got = encode(value, form);
            assert_eq!(
                got.as_ref().map(Encoded::as_bytes).map_err(|e| *e),
                *expected,
                "{value:X} {form:?}"
            );
        }
    }
}
