//! Showing characters safely on a terminal, and naming them: no raw control, escape, bidi or invisible character
//! ever reaches it, combining marks get a base to sit on, and widths are known so that columns stay
//! aligned.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthChar;

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
    /// variation selectors, tags, private-use characters and noncharacters.
    Escaped(u32),
}

/// Whether a character is invisible or changes how others display: shown escaped, never raw.
pub fn is_invisible(c: char) -> bool {
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
            | 0x2000..=0x200F
            | 0x2028..=0x202F
            | 0x205F..=0x206F
            | 0x3000
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFFB
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
            | 0xE000..=0xF8FF
            | 0xF0000..=0x10FFFF
            | 0xFDD0..=0xFDEF
    ) || cp & 0xFFFE == 0xFFFE
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
        }
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
            ('\u{E0041}', "\\u{e0041}", 9),
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
