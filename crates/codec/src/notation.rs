//! Notations: writing a code point as `U+20AC`, `\xe2\x82\xac`, `%E2%82%AC` and the rest, and
//! reading them back.

use std::fmt::{self, Write as _};

use crate::encode::{EncodeError, Form, encode};

/// A notation for one encoded code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notation {
    /// `E2 82 AC`
    Hex,
    /// `\xe2\x82\xac` (C and C++ string escapes)
    C,
    /// `\u{20ac}` (Rust)
    Rust,
    /// `\u20ac`, `\U0001f600` (Python)
    Python,
    /// `\u20AC`, `\uD83D\uDE00` (JavaScript, UTF-16 units)
    Js,
    /// `\u20AC`, `\uD83D\uDE00` (Java, UTF-16 units)
    Java,
    /// `%E2%82%AC` (RFC 3986 percent-encoding)
    Url,
    /// `&#x20AC;` (HTML and XML numeric character reference)
    Html,
    /// `=E2=82=AC` (quoted-printable, RFC 2045)
    Qp,
    /// `$'\xe2\x82\xac'` (POSIX shell ANSI-C quoting)
    Shell,
    /// `\342\202\254` (octal escapes)
    Octal,
    /// `11100010 10000010 10101100`
    Binary,
    /// `20AC`, `D83D DE00` (UTF-16 code units)
    Utf16,
    /// `000020AC` (the UTF-32 code unit)
    Utf32,
}

/// Writes the code point `codepoint`, whose UTF-8 bytes are `utf8`, in `notation`.
///
/// ```
/// use utf8kit_codec::notation::{write_notation, Notation};
/// let mut out = String::new();
/// write_notation(Notation::Js, 0x1F600, "😀".as_bytes(), &mut out);
/// assert_eq!(out, r"\uD83D\uDE00");
/// ```
pub fn write_notation(notation: Notation, codepoint: u32, utf8: &[u8], out: &mut String) {
    let each_byte = |out: &mut String, prefix: &str, upper: bool, sep: &str| {
        for (i, byte) in utf8.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(prefix);
            let _ = if upper {
                write!(out, "{byte:02X}")
            } else {
                write!(out, "{byte:02x}")
            };
        }
    };
    match notation {
        Notation::Hex => each_byte(out, "", true, " "),
        Notation::C => each_byte(out, "\\x", false, ""),
        Notation::Url => each_byte(out, "%", true, ""),
        Notation::Qp => each_byte(out, "=", true, ""),
        Notation::Shell => {
            out.push_str("$'");
            each_byte(out, "\\x", false, "");
            out.push('\'');
        }
        Notation::Octal => {
            for byte in utf8 {
                let _ = write!(out, "\\{byte:03o}");
            }
        }
        Notation::Binary => {
            for (i, byte) in utf8.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{byte:08b}");
            }
        }
        Notation::Rust => {
            let _ = write!(out, "\\u{{{codepoint:x}}}");
        }
        Notation::Python if codepoint > 0xFFFF => {
            let _ = write!(out, "\\U{codepoint:08x}");
        }
        Notation::Python => {
            let _ = write!(out, "\\u{codepoint:04x}");
        }
        Notation::Js | Notation::Java => {
            for unit in utf16_units(codepoint) {
                let _ = write!(out, "\\u{unit:04X}");
            }
        }
        Notation::Utf16 => {
            let units: Vec<String> = utf16_units(codepoint)
                .iter()
                .map(|u| format!("{u:04X}"))
                .collect();
            out.push_str(&units.join(" "));
        }
        Notation::Utf32 => {
            let _ = write!(out, "{codepoint:08X}");
        }
        Notation::Html => {
            let _ = write!(out, "&#x{codepoint:X};");
        }
    }
}

/// The UTF-16 code units of a code point (a surrogate is its own unit).
fn utf16_units(codepoint: u32) -> Vec<u16> {
    match codepoint {
        0..=0xFFFF => vec![codepoint as u16],
        _ => {
            let v = codepoint - 0x10000;
            vec![0xD800 | (v >> 10) as u16, 0xDC00 | (v & 0x3FF) as u16]
        }
    }
}

/// A notation that could not be read: what went wrong, and where (columns count bytes from 1).
/// `Display` gives the sentence utf8enc prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotationError {
    /// Text that is a code point in none of the accepted forms.
    NotACodepoint(String),
    /// An octal escape above `\377`.
    OctalAbove377 {
        /// Where the escape starts.
        column: usize,
    },
    /// `\u{` without its `}`.
    UnclosedBrace {
        /// Where the escape starts.
        column: usize,
    },
    /// `&#` without its `;`.
    UnclosedEntity {
        /// Where the reference starts.
        column: usize,
    },
    /// A run of hex digits of odd length.
    OddHexDigits {
        /// Where the run starts.
        column: usize,
    },
    /// Text in no byte notation.
    Unreadable {
        /// Up to 12 characters of it.
        text: String,
        /// Where it starts.
        column: usize,
    },
    /// A value that no form of UTF-8 writes.
    Unencodable {
        /// The value.
        codepoint: u32,
        /// Why.
        error: EncodeError,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::NotACodepoint(text) => write!(
                f,
                "'{text}' is not a code point (use U+20AC, 0x20AC, \\u20AC, \\u{{1F600}}, \
                 &#8364;, &#x20AC; or a single character)"
            ),
            NotationError::OctalAbove377 { column } => {
                write!(f, "octal escape at column {column} is above 377")
            }
            NotationError::UnclosedBrace { column } => {
                write!(f, "unclosed \\u{{ at column {column}")
            }
            NotationError::UnclosedEntity { column } => write!(f, "unclosed &# at column {column}"),
            NotationError::OddHexDigits { column } => {
                write!(f, "odd number of hex digits at column {column}")
            }
            NotationError::Unreadable { text, column } => {
                write!(f, "cannot read '{text}' at column {column}")
            }
            NotationError::Unencodable { codepoint, error } => {
                write!(f, "cannot write {codepoint:#X} in UTF-8: {error}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Reads a code point: `U+20AC`, `u+20ac`, `0x20AC`, `\u20AC`, `\u{1F600}`, `\U0001F600`,
/// `&#8364;`, `&#x20AC;`, bare hex digits (`20AC`) or a single character (`€`).
///
/// ```
/// use utf8kit_codec::notation::parse_codepoint;
/// assert_eq!(parse_codepoint("U+20AC")?, 0x20AC);
/// assert_eq!(parse_codepoint("&#8364;")?, 0x20AC);
/// assert_eq!(parse_codepoint("€")?, 0x20AC);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A text that is none of them.
pub fn parse_codepoint(text: &str) -> Result<u32, NotationError> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(u32::from(c));
    }
    let hex = |digits: &str| {
        (!digits.is_empty() && digits.len() <= 8 && digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
    };
    let value = if let Some(rest) = text
        .strip_prefix("U+")
        .or_else(|| text.strip_prefix("u+"))
        .or_else(|| text.strip_prefix("0x"))
        .or_else(|| text.strip_prefix("0X"))
        .or_else(|| text.strip_prefix("\\U"))
    {
        hex(rest)
    } else if let Some(rest) = text.strip_prefix("\\u{").and_then(|r| r.strip_suffix('}')) {
        hex(rest)
    } else if let Some(rest) = text.strip_prefix("\\u") {
        hex(rest)
    } else if let Some(rest) = text
        .strip_prefix("&#x")
        .or_else(|| text.strip_prefix("&#X"))
        .and_then(|r| r.strip_suffix(';'))
    {
        hex(rest)
    } else if let Some(rest) = text.strip_prefix("&#").and_then(|r| r.strip_suffix(';')) {
        rest.parse::<u32>().ok()
    } else {
        hex(text)
    };
    value.ok_or_else(|| NotationError::NotACodepoint(text.to_owned()))
}

/// Reads bytes written in any byte notation, in any mix: hex (`E2 82 AC`, `e282ac`, `0xE2`),
/// C and Python escapes (`\xe2`, `\342`), percent-encoding (`%E2`), quoted-printable (`=E2`),
/// binary (`11100010`), and code point escapes (`\u20AC`, `\u{1F600}`, `\U0001F600`,
/// `\uD83D\uDE00`, `&#x20AC;`, `&#8364;`, `U+20AC`), which stand for their UTF-8 bytes (a lone
/// surrogate for its 3-byte form, so that it is reported as one). Spaces, commas, quotes and the
/// `b'...'` and `$'...'` wrappers are ignored.
///
/// ```
/// use utf8kit_codec::notation::parse_byte_notation;
/// assert_eq!(parse_byte_notation(r"\xe2\x82\xac")?, b"\xE2\x82\xAC");
/// assert_eq!(parse_byte_notation("%E2%82%AC")?, b"\xE2\x82\xAC");
/// assert_eq!(parse_byte_notation("e2 82 ac")?, b"\xE2\x82\xAC");
/// assert_eq!(parse_byte_notation(r"\uD83D\uDE00")?, "😀".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The first thing that is none of these, with its position.
pub fn parse_byte_notation(text: &str) -> Result<Vec<u8>, NotationError> {
    let mut reader = NotationReader::new();
    let mut out = Vec::new();
    reader.feed(text, &mut out)?;
    reader.finish(&mut out);
    Ok(out)
}

/// Reads a byte notation piece by piece, as [`parse_byte_notation`] reads it whole, so that a
/// stream of any length is read in bounded memory. Each piece must end at a separator (a line
/// end, a space, a comma, ...), never inside an escape. Once a piece holds escapes, the text is
/// read as mixed text from there on; a surrogate half at the end of a piece waits for the next.
///
/// ```
/// use utf8kit_codec::notation::NotationReader;
/// let mut reader = NotationReader::new();
/// let mut out = Vec::new();
/// reader.feed("\\uD83D\n", &mut out)?;
/// reader.feed("\\uDE00 %E2%82%AC\n", &mut out)?;
/// reader.finish(&mut out);
/// assert_eq!(out, "😀€".as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct NotationReader {
    is_mixed: bool,
    pending_high: Option<u32>,
    read: usize,
}

impl NotationReader {
    /// A reader at the start of a text.
    pub fn new() -> NotationReader {
        NotationReader::default()
    }

    /// Reads the next piece of the text, appending its bytes to `out`.
    ///
    /// # Errors
    ///
    /// The first thing that is none of the notations, with its column counted from the start
    /// of the whole text.
    pub fn feed(&mut self, piece: &str, out: &mut Vec<u8>) -> Result<(), NotationError> {
        self.is_mixed |= holds_escapes(piece.as_bytes());
        let read = self.read;
        self.read += piece.len();
        parse_piece(piece, self.is_mixed, &mut self.pending_high, out)
            .map_err(|error| error.shifted(read))
    }

    /// Ends the text: a surrogate half still waiting for its pair is written as itself.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        flush_high(&mut self.pending_high, out);
    }
}

impl NotationError {
    /// The same error with its column moved on by `by` bytes.
    fn shifted(self, by: usize) -> NotationError {
        match self {
            NotationError::OctalAbove377 { column } => NotationError::OctalAbove377 {
                column: column + by,
            },
            NotationError::UnclosedBrace { column } => NotationError::UnclosedBrace {
                column: column + by,
            },
            NotationError::UnclosedEntity { column } => NotationError::UnclosedEntity {
                column: column + by,
            },
            NotationError::OddHexDigits { column } => NotationError::OddHexDigits {
                column: column + by,
            },
            NotationError::Unreadable { text, column } => NotationError::Unreadable {
                text,
                column: column + by,
            },
            other => other,
        }
    }
}

/// The value of the `len` hex digits at `from`, if they are all hex digits.
fn hex_in(bytes: &[u8], from: usize, len: usize) -> Option<u32> {
    let digits = bytes.get(from..from + len)?;
    let digits = std::str::from_utf8(digits).ok()?;
    digits
        .bytes()
        .all(|b| b.is_ascii_hexdigit())
        .then(|| u32::from_str_radix(digits, 16).ok())
        .flatten()
}

/// Whether text holds escapes (a URL with %XX, a C or Python string with \xhh, \ooo or \u):
/// such text is read as mixed text, where what is not an escape or a separator is a character
/// of the text, not a run of hex digits ("caf%C3%A9" is "café").
fn holds_escapes(bytes: &[u8]) -> bool {
    (0..bytes.len()).any(|i| {
        let rest = &bytes[i..];
        (rest[0] == b'%' && hex_in(bytes, i + 1, 2).is_some())
            || (rest.starts_with(b"\\x") && hex_in(bytes, i + 2, 2).is_some())
            || rest.starts_with(b"\\u")
            || rest.starts_with(b"\\U")
            || rest.starts_with(b"&#")
            || (rest[0] == b'\\'
                && rest.len() >= 4
                && rest[1..4].iter().all(|b| (b'0'..=b'7').contains(b)))
    })
}

/// Reads one piece of a text (see [`NotationReader`]), `is_mixed` as the text so far is.
fn parse_piece(
    text: &str,
    is_mixed: bool,
    pending_high: &mut Option<u32>,
    out: &mut Vec<u8>,
) -> Result<(), NotationError> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let hex_at = |from: usize, len: usize| hex_in(bytes, from, len);
    // In mixed text a word of its own made of an even number of hex digits is still bytes
    // (`b'\xc0\xaf' 41`); hex digits inside a word are letters (`caf%C3%A9`).
    let is_separator =
        |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b',' | b'\'' | b'"' | b';');
    let is_hex_word = |at: usize| {
        let starts_word = at == 0 || is_separator(bytes[at - 1]);
        let len = bytes[at..]
            .iter()
            .take_while(|b| !is_separator(**b))
            .count();
        starts_word && len % 2 == 0 && bytes[at..at + len].iter().all(u8::is_ascii_hexdigit)
    };
    let literal = |at: usize, out: &mut Vec<u8>| -> usize {
        let len = text[at..].chars().next().map_or(1, char::len_utf8);
        out.extend_from_slice(&bytes[at..at + len]);
        len
    };
    while at < bytes.len() {
        let rest = &bytes[at..];
        let mut codepoint = None;
        let consumed;
        if rest.starts_with(b"b'") || rest.starts_with(b"b\"") || rest.starts_with(b"$'") {
            consumed = 2;
        } else if matches!(
            rest[0],
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'\'' | b'"' | b';'
        ) {
            consumed = 1;
        } else if (rest.starts_with(b"\\x") || rest.starts_with(b"\\X"))
            && hex_at(at + 2, 2).is_some()
        {
            out.push(hex_at(at + 2, 2).expect("checked") as u8);
            consumed = 4;
        } else if (rest[0] == b'%' || rest[0] == b'=') && hex_at(at + 1, 2).is_some() {
            out.push(hex_at(at + 1, 2).expect("checked") as u8);
            consumed = 3;
        } else if rest[0] == b'\\'
            && rest.len() >= 4
            && rest[1..4].iter().all(|b| (b'0'..=b'7').contains(b))
        {
            let value = u32::from_str_radix(std::str::from_utf8(&rest[1..4]).expect("digits"), 8)
                .expect("octal digits");
            out.push(
                u8::try_from(value).map_err(|_| NotationError::OctalAbove377 { column: at + 1 })?,
            );
            consumed = 4;
        } else if rest.starts_with(b"\\u{") {
            let end = rest
                .iter()
                .position(|&b| b == b'}')
                .ok_or(NotationError::UnclosedBrace { column: at + 1 })?;
            codepoint = hex_at(at + 3, end - 3);
            consumed = end + 1;
        } else if rest.starts_with(b"\\u") && hex_at(at + 2, 4).is_some() {
            codepoint = hex_at(at + 2, 4);
            consumed = 6;
        } else if rest.starts_with(b"\\U") && hex_at(at + 2, 8).is_some() {
            codepoint = hex_at(at + 2, 8);
            consumed = 10;
        } else if rest.starts_with(b"&#") {
            let end = rest
                .iter()
                .position(|&b| b == b';')
                .ok_or(NotationError::UnclosedEntity { column: at + 1 })?;
            let inner = std::str::from_utf8(&rest[2..end]).unwrap_or("");
            codepoint = match inner.strip_prefix('x').or_else(|| inner.strip_prefix('X')) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => inner.parse().ok(),
            };
            consumed = end + 1;
        } else if rest.starts_with(b"U+") || rest.starts_with(b"u+") {
            let len = rest[2..]
                .iter()
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            codepoint = hex_at(at + 2, len);
            consumed = 2 + len;
        } else if rest.starts_with(b"0x") || rest.starts_with(b"0X") {
            let len = rest[2..]
                .iter()
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            push_hex_run(&rest[2..2 + len], at + 2, out)?;
            consumed = 2 + len;
        } else if is_mixed && !is_hex_word(at) {
            // Mixed text: a character of its own.
            consumed = literal(at, out);
        } else if rest[0] == b'0' || rest[0] == b'1' {
            // Binary (eight 0s and 1s), else a run of hex digits.
            let bits = rest
                .iter()
                .take_while(|b| **b == b'0' || **b == b'1')
                .count();
            let hex_len = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            if bits == 8 && hex_len == 8 {
                let text = std::str::from_utf8(&rest[..8]).expect("digits");
                out.push(u8::from_str_radix(text, 2).expect("binary digits"));
                consumed = 8;
            } else {
                push_hex_run(&rest[..hex_len], at, out)?;
                consumed = hex_len;
            }
        } else if rest[0].is_ascii_hexdigit() {
            let len = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            push_hex_run(&rest[..len], at, out)?;
            consumed = len;
        } else {
            let shown: String = text[at..].chars().take(12).collect();
            return Err(NotationError::Unreadable {
                text: shown,
                column: at + 1,
            });
        }
        if let Some(cp) = codepoint {
            push_codepoint(cp, pending_high, out)?;
        } else if consumed > 0 && pending_high.is_some() && !bytes[at].is_ascii_whitespace() {
            flush_high(pending_high, out);
        }
        at += consumed.max(1);
    }
    Ok(())
}

fn push_hex_run(digits: &[u8], at: usize, out: &mut Vec<u8>) -> Result<(), NotationError> {
    if !digits.len().is_multiple_of(2) {
        return Err(NotationError::OddHexDigits { column: at + 1 });
    }
    for pair in digits.chunks(2) {
        let text = std::str::from_utf8(pair).expect("hex digits");
        out.push(u8::from_str_radix(text, 16).expect("hex digits"));
    }
    Ok(())
}

/// Appends a code point's UTF-8, joining a high and a low surrogate written apart (`\uD83D\uDE00`).
fn push_codepoint(
    codepoint: u32,
    pending_high: &mut Option<u32>,
    out: &mut Vec<u8>,
) -> Result<(), NotationError> {
    if let (Some(high), 0xDC00..=0xDFFF) = (*pending_high, codepoint) {
        *pending_high = None;
        let joined = 0x10000 + ((high - 0xD800) << 10) + (codepoint - 0xDC00);
        return push_codepoint(joined, pending_high, out);
    }
    flush_high(pending_high, out);
    if (0xD800..=0xDBFF).contains(&codepoint) {
        *pending_high = Some(codepoint);
        return Ok(());
    }
    let encoded = encode(codepoint, Form::Legacy)
        .map_err(|error| NotationError::Unencodable { codepoint, error })?;
    out.extend_from_slice(encoded.as_bytes());
    Ok(())
}

fn flush_high(pending_high: &mut Option<u32>, out: &mut Vec<u8>) {
    if let Some(high) = pending_high.take() {
        let encoded = encode(high, Form::Wtf8).expect("a surrogate has a WTF-8 form");
        out.extend_from_slice(encoded.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_form() {
        let rows: &[(&str, u32)] = &[
            ("U+20AC", 0x20AC),
            ("u+20ac", 0x20AC),
            ("0x20AC", 0x20AC),
            ("\\u20AC", 0x20AC),
            ("\\u{1F600}", 0x1F600),
            ("\\U0001F600", 0x1F600),
            ("&#8364;", 0x20AC),
            ("&#x20AC;", 0x20AC),
            ("€", 0x20AC),
            ("a", 0x61),
            ("20AC", 0x20AC),
            ("10", 0x10),
        ];
        for &(text, expected) in rows {
            assert_eq!(parse_codepoint(text), Ok(expected), "{text}");
        }
        assert!(parse_codepoint("xyz").is_err());
        assert!(parse_codepoint("").is_err());
    }

    /// The vectors of the issue in every format, and each byte or escape format read back.
    #[test]
    fn known_vectors_in_every_format() {
        use Notation::*;
        let rows: &[(u32, Notation, &str)] = &[
            (0x24, Hex, "24"),
            (0xA2, Hex, "C2 A2"),
            (0x20AC, Hex, "E2 82 AC"),
            (0x10348, Hex, "F0 90 8D 88"),
            (0x20AC, C, "\\xe2\\x82\\xac"),
            (0x20AC, Rust, "\\u{20ac}"),
            (0x20AC, Python, "\\u20ac"),
            (0x10348, Python, "\\U00010348"),
            (0x20AC, Js, "\\u20AC"),
            (0x10348, Java, "\\uD800\\uDF48"),
            (0x20AC, Url, "%E2%82%AC"),
            (0x20AC, Html, "&#x20AC;"),
            (0xA2, Qp, "=C2=A2"),
            (0x20AC, Shell, "$'\\xe2\\x82\\xac'"),
            (0x20AC, Octal, "\\342\\202\\254"),
            (0x24, Binary, "00100100"),
            (0x20AC, Binary, "11100010 10000010 10101100"),
            (0x10348, Utf16, "D800 DF48"),
            (0x10348, Utf32, "00010348"),
        ];
        for &(cp, notation, expected) in rows {
            let utf8 = encode(cp, Form::Standard).unwrap();
            let mut out = String::new();
            write_notation(notation, cp, utf8.as_bytes(), &mut out);
            assert_eq!(out, expected, "U+{cp:04X} {notation:?}");
            if !matches!(notation, Utf16 | Utf32) {
                assert_eq!(
                    parse_byte_notation(&out).unwrap(),
                    utf8.as_bytes(),
                    "{notation:?} reads back"
                );
            }
        }
    }

    #[test]
    fn byte_notations_mix_and_fail_clearly() {
        // Text with escapes is mixed text: other characters are themselves.
        assert_eq!(parse_byte_notation("caf%C3%A9").unwrap(), "café".as_bytes());
        assert_eq!(
            parse_byte_notation("https://example.com/a%20b?q=1").unwrap(),
            b"https://example.com/a b?q=1"
        );
        assert_eq!(
            parse_byte_notation("\"caf\\xc3\\xa9!\"").unwrap(),
            "café!".as_bytes()
        );
        assert_eq!(
            parse_byte_notation("b'\\xc0\\xaf' 41").unwrap(),
            b"\xC0\xAFA"
        );
        assert_eq!(
            parse_byte_notation("0xE2 0x82 0xAC").unwrap(),
            b"\xE2\x82\xAC"
        );
        assert_eq!(parse_byte_notation("\\ud800").unwrap(), b"\xED\xA0\x80");
        assert_eq!(parse_byte_notation("U+20AC").unwrap(), "€".as_bytes());
        let error = parse_byte_notation("e2 8").unwrap_err();
        assert_eq!(error, NotationError::OddHexDigits { column: 4 });
        assert_eq!(error.to_string(), "odd number of hex digits at column 4");
        assert_eq!(
            parse_byte_notation("zz").unwrap_err(),
            NotationError::Unreadable {
                text: "zz".to_owned(),
                column: 1
            }
        );
        assert_eq!(
            parse_byte_notation("\\u{41").unwrap_err(),
            NotationError::UnclosedBrace { column: 1 }
        );
    }
}
