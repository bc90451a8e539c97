//! Byte order marks: UTF-8's own, and those of UTF-16 and UTF-32 (a file handed to a UTF-8
//! tool, or written by utf8enc). The one table of their bytes.

use std::fmt;

use crate::transcode::Endian;

/// UTF-8's byte order mark, U+FEFF: `EF BB BF`.
pub const UTF8_BOM: &[u8] = "\u{FEFF}".as_bytes();

/// The byte order mark of UTF-16 or UTF-32, at the start of an input that should be UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForeignBom {
    /// `FF FE`: UTF-16, little-endian.
    Utf16Le,
    /// `FE FF`: UTF-16, big-endian.
    Utf16Be,
    /// `FF FE 00 00`: UTF-32, little-endian.
    Utf32Le,
    /// `00 00 FE FF`: UTF-32, big-endian.
    Utf32Be,
}

impl ForeignBom {
    /// The mark at the start of `head`, given at least four bytes or the whole input.
    ///
    /// `FF FE 00 00` is taken as UTF-32LE rather than UTF-16LE followed by U+0000, as every
    /// detector does.
    ///
    /// ```
    /// use utf8kit_codec::bom::ForeignBom;
    /// assert_eq!(ForeignBom::detect(b"\xFF\xFEa\x00"), Some(ForeignBom::Utf16Le));
    /// assert_eq!(ForeignBom::detect(b"\xFF\xFE\x00\x00"), Some(ForeignBom::Utf32Le));
    /// assert_eq!(ForeignBom::detect(b"\xEF\xBB\xBFa"), None); // UTF-8's own mark
    /// ```
    pub fn detect(head: &[u8]) -> Option<ForeignBom> {
        // The longer marks first: UTF-32LE's starts with UTF-16LE's.
        [
            ForeignBom::Utf32Be,
            ForeignBom::Utf32Le,
            ForeignBom::Utf16Be,
            ForeignBom::Utf16Le,
        ]
        .into_iter()
        .find(|mark| head.starts_with(mark.bytes()))
    }

    /// The mark's bytes.
    ///
    /// ```
    /// use utf8kit_codec::{transcode::Endian, bom::ForeignBom};
    /// assert_eq!(ForeignBom::utf16(Endian::Little).bytes(), b"\xFF\xFE");
    /// assert_eq!(ForeignBom::utf32(Endian::Big).bytes(), b"\x00\x00\xFE\xFF");
    /// ```
    pub fn bytes(self) -> &'static [u8] {
        match self {
            ForeignBom::Utf16Le => b"\xFF\xFE",
            ForeignBom::Utf16Be => b"\xFE\xFF",
            ForeignBom::Utf32Le => b"\xFF\xFE\x00\x00",
            ForeignBom::Utf32Be => b"\x00\x00\xFE\xFF",
        }
    }

    /// The mark of UTF-16 in byte order `endian`.
    pub fn utf16(endian: Endian) -> ForeignBom {
        match endian {
            Endian::Little => ForeignBom::Utf16Le,
            Endian::Big => ForeignBom::Utf16Be,
        }
    }

    /// The mark of UTF-32 in byte order `endian`.
    pub fn utf32(endian: Endian) -> ForeignBom {
        match endian {
            Endian::Little => ForeignBom::Utf32Le,
            Endian::Big => ForeignBom::Utf32Be,
        }
    }

    /// The byte order the mark announces.
    pub fn endian(self) -> Endian {
        match self {
            ForeignBom::Utf16Le | ForeignBom::Utf32Le => Endian::Little,
            ForeignBom::Utf16Be | ForeignBom::Utf32Be => Endian::Big,
        }
    }

    /// The mark's length in bytes: 2 or 4.
    pub fn len_bytes(self) -> usize {
        self.bytes().len()
    }

    /// The finding kind's name: `utf16-bom` or `utf32-bom`.
    pub fn as_str(self) -> &'static str {
        match self {
            ForeignBom::Utf16Le | ForeignBom::Utf16Be => "utf16-bom",
            ForeignBom::Utf32Le | ForeignBom::Utf32Be => "utf32-bom",
        }
    }

    /// The encoding and byte order the mark announces: `UTF-16LE`, `UTF-32BE`, ...
    pub fn encoding(self) -> &'static str {
        match self {
            ForeignBom::Utf16Le => "UTF-16LE",
            ForeignBom::Utf16Be => "UTF-16BE",
            ForeignBom::Utf32Le => "UTF-32LE",
            ForeignBom::Utf32Be => "UTF-32BE",
        }
    }

    /// The byte order in words: `little-endian` or `big-endian`.
    pub fn byte_order(self) -> &'static str {
        match self {
            ForeignBom::Utf16Le | ForeignBom::Utf32Le => "little-endian",
            ForeignBom::Utf16Be | ForeignBom::Utf32Be => "big-endian",
        }
    }
}

impl fmt::Display for ForeignBom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks() {
        let rows: &[(&[u8], Option<ForeignBom>)] = &[
            (b"", None),
            (b"\xFF", None),
            (b"\xFF\xFE", Some(ForeignBom::Utf16Le)),
            (b"\xFE\xFF\x00a", Some(ForeignBom::Utf16Be)),
            (b"\xFF\xFE\x00", Some(ForeignBom::Utf16Le)),
            (b"\xFF\xFE\x00\x00", Some(ForeignBom::Utf32Le)),
            (b"\x00\x00\xFE\xFF", Some(ForeignBom::Utf32Be)),
            (b"\x00\x00\xFE", None),
            (b"\xEF\xBB\xBF", None),
        ];
        for (head, expected) in rows {
            assert_eq!(ForeignBom::detect(head), *expected, "{head:02X?}");
        }
        assert_eq!(ForeignBom::Utf32Be.len_bytes(), 4);
        assert_eq!(ForeignBom::Utf16Be.as_str(), "utf16-bom");
    }
}
