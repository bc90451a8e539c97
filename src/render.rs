//! Showing bytes, characters and names safely on a terminal, and naming characters: no raw
//! control, escape, bidi or invisible character ever reaches it, combining marks get a base to sit
//! on, and widths are known so that columns stay aligned.
//!
//! The escapes are the same in every program, in lowercase: a byte that is not UTF-8 is `\xhh`
//! ([`push_byte_escape`]), as Python's `backslashreplace` and C write it; an invisible or format
//! character is `\u{hex}` as Rust's `char::escape_unicode` writes it; in names and quoted input a
//! control character is a C escape (`\n`, `\r`, `\t`, or `\x1b`).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use unicode_width::UnicodeWidthChar;
use utf8kit_codec::Lint;

/// Bytes in lowercase hex, joined by a separator: `Hex(b"\xc3\xa9", " ")` shows `c3 a9`. How
/// every program lists the bytes of a finding or a repair.
pub struct Hex<'a>(pub &'a [u8], pub &'a str);

impl std::fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(self.1)?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// How a character is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// As itself: a printable character of the given display width (1 or 2).
    Plain(char, usize),
    /// As a Control Pictures symbol (`␀`, `␊`, `␡`): C0 controls and DEL. Width 1.
    Picture(char),
    /// A combining mark, drawn on a dotted circle (`◌́`). Width 1.
    Combining(char),
    /// As `\u{...}`: C1 controls, format and bidi controls, invisible spaces and fillers,
    /// variation selectors, private-use characters and noncharacters.
    Escaped(u32),
    /// A tag character U+E0020..U+E007E, as its escape and the ASCII character it hides:
    /// `\u{e0069}=i`, so that text smuggled in tags can be read.
    Tag(u32),
}

/// Whether a character is invisible or changes how others display: shown escaped, never raw.
/// What the codec's lints find (SPEC 1.6: bidi, invisible, tag, private-use, noncharacter, and
/// the C1 controls) is the one list of such characters; showing adds the spaces, format
/// characters and fillers that are no finding but would still hide on a terminal.
pub fn is_invisible(c: char) -> bool {
    let cp = u32::from(c);
    let is_linted = match Lint::classify(cp, 1) {
        Some(Lint::Control) => cp >= 0x80,
        Some(Lint::Bidi | Lint::Invisible | Lint::Tag | Lint::PrivateUse | Lint::Noncharacter) => {
            true
        }
        _ => false,
    };
    is_linted
        || matches!(
            cp,
            0xA0 | 0xAD
                | 0x61C
                | 0x180B..=0x180F
                | 0x600..=0x605
                | 0x6DD
                | 0x70F
                | 0x890..=0x891
                | 0x8E2
                | 0x1680
                | 0x2000..=0x200F
                | 0x2028..=0x202F
                | 0x205F..=0x206F
                | 0x3000
                | 0xFFF0..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// How `c` is shown.
///
/// ```
/// use utf8kit::render::{shown, Shown};
/// assert_eq!(shown('a'), Shown::Plain('a', 1));
/// assert_eq!(shown('世'), Shown::Plain('世', 2));
/// assert_eq!(shown('\n'), Shown::Picture('␊'));
/// assert_eq!(shown('\u{202E}'), Shown::Escaped(0x202E));
/// assert_eq!(shown('\u{301}'), Shown::Combining('\u{301}'));
/// ```
pub fn shown(c: char) -> Shown {
    let cp = u32::from(c);
    match cp {
        0..=0x1F => Shown::Picture(char::from_u32(0x2400 + cp).expect("U+2400..U+241F")),
        0x7F => Shown::Picture('␡'),
        0xE_0020..=0xE_007E => Shown::Tag(cp),
        _ if is_invisible(c) => Shown::Escaped(cp),
        _ => match c.width() {
            Some(0) => Shown::Combining(c),
            Some(width) => Shown::Plain(c, width),
            None => Shown::Escaped(cp),
        },
    }
}

impl Shown {
    /// Appends the shown form to `out` and returns its display width.
    pub fn push_to(self, out: &mut String) -> usize {
        match self {
            Shown::Plain(c, width) => {
                out.push(c);
                width
            }
            Shown::Picture(c) => {
                out.push(c);
                1
            }
            Shown::Combining(c) => {
                out.push('◌');
                out.push(c);
                1
            }
            Shown::Escaped(cp) => {
                let before = out.len();
                let _ = write!(out, "\\u{{{cp:x}}}");
                out.len() - before
            }
            Shown::Tag(cp) => {
                let before = out.len();
                let hidden = char::from_u32(cp - 0xE_0000).unwrap_or('?');
                let _ = write!(out, "\\u{{{cp:x}}}={hidden}");
                out.len() - before
            }
        }
    }
}

/// Appends `\xhh` (lowercase digits) for a byte that is not UTF-8: the one form every program
/// writes (`utf8dump -e`, `utf8fix --escape` through the codec's `escape_byte`, names, quoted
/// input).
pub fn push_byte_escape(out: &mut String, byte: u8) {
    let escaped = utf8kit_codec::repair::escape_byte(byte);
    out.push_str(std::str::from_utf8(&escaped).expect("ASCII"));
}

/// Text from outside (a file name, a line of input quoted in a message) made safe to print on one
/// line: bytes that are not UTF-8 become `\xe9`; a backslash is doubled, so that an escape is never
/// ambiguous; LF, CR and TAB become `\n`, `\r`, `\t`, other C0 controls and DEL `\x1b`; C1
/// controls, bidi and other format characters, invisible spaces, private-use characters and
/// noncharacters become `\u{202e}`. Everything else is itself.
///
/// ```
/// use utf8kit::render::quoted;
/// assert_eq!(quoted(b"caf\xe9 \x1b[2J\n\xe2\x80\xae.txt"), "caf\\xe9 \\x1b[2J\\n\\u{202e}.txt");
/// assert_eq!(quoted("été.txt".as_bytes()), "été.txt");
/// ```
pub fn quoted(bytes: &[u8]) -> Cow<'_, str> {
    // Printable ASCII other than the backslash, most names, is shown as it is.
    if bytes
        .iter()
        .all(|&b| (b' '..=b'~').contains(&b) && b != b'\\')
    {
        return Cow::Borrowed(std::str::from_utf8(bytes).expect("ASCII"));
    }
    let is_plain = |c: char| c != '\\' && !c.is_control() && !is_invisible(c);
    if let Ok(text) = std::str::from_utf8(bytes)
        && text.chars().all(is_plain)
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\0'..='\x1f' | '\x7f' => {
                    let _ = write!(out, "\\x{:02x}", u32::from(c));
                }
                c if c.is_control() || is_invisible(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for &byte in chunk.invalid() {
            push_byte_escape(&mut out, byte);
        }
    }
    Cow::Owned(out)
}

/// A line of a message made safe as a last defence: every control, format or invisible character
/// (but TAB) is escaped as [`quoted`] escapes it; backslashes are left alone, so that text already
/// made safe (a name shown by [`path`]) passes unchanged.
pub fn defanged(text: &str) -> Cow<'_, str> {
    let is_plain = |c: char| c == '\t' || (!c.is_control() && !is_invisible(c));
    let is_plain_ascii = |b: u8| b == b'\t' || (b' '..=b'~').contains(&b);
    if text.bytes().all(is_plain_ascii) || text.chars().all(is_plain) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_plain(c) {
            out.push(c);
        } else {
            let escaped = quoted(c.encode_utf8(&mut [0; 4]).as_bytes()).into_owned();
            out.push_str(&escaped);
        }
    }
    Cow::Owned(out)
}

/// A path as every program shows it to people, in output lines and messages (SPEC 2): [`quoted`],
/// and `./` before a relative name that starts with white space, `:` or `#`, so that no line that
/// starts with a name can be read as a CI command (GitHub reads `::cmd` and `##[cmd]` after leading
/// white space). The result names the same file.
///
/// ```
/// use std::path::Path;
/// use utf8kit::render::path;
/// assert_eq!(path(Path::new("a\nb.txt")), "a\\nb.txt");
/// assert_eq!(path(Path::new("::error file=x::y")), "./::error file=x::y");
/// ```
pub fn path(path: &Path) -> Cow<'_, str> {
    let text = quoted(path.as_os_str().as_bytes());
    let needs_dot = text
        .chars()
        .next()
        .is_some_and(|c| c.is_whitespace() || c == ':' || c == '#');
    if needs_dot {
        Cow::Owned(format!("./{text}"))
    } else {
        text
    }
}

/// The Unicode name of a character; controls, which have none, by their common alias.
pub fn char_name(c: char) -> String {
    if let Some(name) = unicode_names2::name(c) {
        return name.to_string();
    }
    let alias = match u32::from(c) {
        0x00 => "NULL",
        0x07 => "BELL",
        0x08 => "BACKSPACE",
        0x09 => "CHARACTER TABULATION",
        0x0A => "LINE FEED",
        0x0B => "LINE TABULATION",
        0x0C => "FORM FEED",
        0x0D => "CARRIAGE RETURN",
        0x1B => "ESCAPE",
        0x7F => "DELETE",
        0x85 => "NEXT LINE",
        0xA0 => "NO-BREAK SPACE",
        _ => "",
    };
    if !alias.is_empty() {
        return format!("<control> {alias}");
    }
    match u32::from(c) {
        0x00..=0x1F | 0x7F..=0x9F => "<control>".to_owned(),
        0xE000..=0xF8FF | 0xF0000..=0x10FFFF => "<private use>".to_owned(),
        cp if cp & 0xFFFE == 0xFFFE || (0xFDD0..=0xFDEF).contains(&cp) => {
            "<noncharacter>".to_owned()
        }
        _ => "<unassigned>".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names_hold_no_control_bidi_or_stray_byte() {
        let rows: &[(&[u8], &str)] = &[
            (b"plain.txt", "plain.txt"),
            (b"a\nb\rc\td", "a\\nb\\rc\\td"),
            (b"\x1b[31m\x7f\0", "\\x1b[31m\\x7f\\x00"),
            (b"back\\slash", "back\\\\slash"),
            (b"caf\xe9\xff", "caf\\xe9\\xff"),
            (
                "\u{85}\u{202E}\u{2066}\u{600}\u{110BD}".as_bytes(),
                "\\u{85}\\u{202e}\\u{2066}\\u{600}\\u{110bd}",
            ),
            ("日本語 é".as_bytes(), "日本語 é"),
        ];
        for &(raw, expected) in rows {
            assert_eq!(quoted(raw), expected, "{raw:?}");
        }
        assert_eq!(path(Path::new(" ::x")), "./ ::x");
        assert_eq!(path(Path::new("##[error]x")), "./##[error]x");
        assert_eq!(path(Path::new("/::x")), "/::x");
        assert_eq!(path(Path::new("dir/::x")), "dir/::x");
    }

    /// The table `is_invisible` had before the lints became its source, character for character.
    fn former_table(c: char) -> bool {
        let cp = u32::from(c);
        matches!(
            cp,
            0x80..=0xA0
                | 0xAD
                | 0x34F
                | 0x61C
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180F
                | 0x600..=0x605
                | 0x6DD
                | 0x70F
                | 0x890..=0x891
                | 0x8E2
                | 0x1680
                | 0x2000..=0x200F
                | 0x2028..=0x202F
                | 0x205F..=0x206F
                | 0x3000
                | 0x2800
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
                | 0xE000..=0xF8FF
                | 0xF0000..=0x10FFFF
                | 0xFDD0..=0xFDEF
        ) || cp & 0xFFFE == 0xFFFE
    }

    #[test]
    fn invisible_is_the_lints_and_the_display_extras_and_nothing_else() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_invisible(c), former_table(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn every_format_character_is_invisible() {
        // General category Cf, Unicode 16: each is escaped wherever a character is shown.
        for cp in [
            0xAD, 0x600, 0x605, 0x61C, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x180E, 0x200B, 0x200F,
            0x202A, 0x202E, 0x2060, 0x2064, 0x2066, 0x206F, 0xFEFF, 0xFFF9, 0xFFFB, 0x110BD,
            0x110CD, 0x13430, 0x1343F, 0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A, 0xE0001, 0xE0020,
            0xE007F,
        ] {
            let c = char::from_u32(cp).unwrap();
            assert!(is_invisible(c), "U+{cp:04X}");
            let hides_ascii = (0xE_0020..=0xE_007E).contains(&cp);
            let expected = if hides_ascii {
                Shown::Tag(cp)
            } else {
                Shown::Escaped(cp)
            };
            assert_eq!(shown(c), expected);
        }
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(char_name('€'), "EURO SIGN");
        assert_eq!(char_name('\n'), "<control> LINE FEED");
        assert_eq!(char_name('\u{E000}'), "<private use>");
    }

    #[test]
    fn nothing_dangerous_is_shown_raw() {
        let rows: &[(char, &str, usize)] = &[
            ('a', "a", 1),
            ('\u{1B}', "␛", 1),
            ('\0', "␀", 1),
            ('\x7F', "␡", 1),
            ('\u{85}', "\\u{85}", 6),
            ('\u{A0}', "\\u{a0}", 6),
            ('\u{200B}', "\\u{200b}", 8),
            ('\u{200D}', "\\u{200d}", 8),
            ('\u{202E}', "\\u{202e}", 8),
            ('\u{2066}', "\\u{2066}", 8),
            ('\u{FEFF}', "\\u{feff}", 8),
            ('\u{FE0F}', "\\u{fe0f}", 8),
            ('\u{E0041}', "\\u{e0041}=A", 11),
            ('\u{E007F}', "\\u{e007f}", 9),
            ('\u{2800}', "\\u{2800}", 8),
            ('\u{E000}', "\\u{e000}", 8),
            ('\u{FFFE}', "\\u{fffe}", 8),
            ('\u{301}', "◌\u{301}", 1),
            ('😀', "😀", 2),
            ('é', "é", 1),
        ];
        for &(c, expected, width) in rows {
            let mut out = String::new();
            assert_eq!(shown(c).push_to(&mut out), width, "U+{:04X}", u32::from(c));
            assert_eq!(out, expected, "U+{:04X}", u32::from(c));
        }
    }
}
