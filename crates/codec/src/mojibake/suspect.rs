//! The first place in a text where a line might hold mojibake, found at the speed of reading:
//! what lets [`crate::Repairer`] pass clean lines through without holding or judging them.
//!
//! [`super::possible_encodings`] follows every encoding at once and is exact; this filter only
//! asks whether two neighbours could belong to one group in *some* encoding, with one byte of
//! classes per character, and skips ASCII eight bytes at a time. It may point at a line that
//! holds nothing (the line is then judged and left alone), but never passes over one that
//! `possible_encodings` would judge: a test checks that on every pair of the tables' characters
//! and on random lines.

use super::{Masks, masks};

/// The character is a lead byte (C2..F4) in some encoding.
const LEAD: u8 = 1;
/// The character is a continuation byte (80..BF) in some encoding, or U+FFFD (a lost one).
const CONT: u8 = 2;
/// After it, in some encoding, a space may stand for a lost A0.
const SPACED: u8 = 4;
/// A C1 control: Latin-1 read where windows-1252 was meant, a candidate on its own.
const C1: u8 = 8;

fn class_of(m: Masks) -> u8 {
    [
        (m.lead != [0; 3], LEAD),
        (m.cont != 0, CONT),
        (m.spaced != 0, SPACED),
    ]
    .iter()
    .filter(|(is, _)| *is)
    .fold(0, |class, (_, bit)| class | bit)
}

/// The classes of U+0080..U+07FF (2-byte UTF-8), then of U+2000..U+2FFF and U+F000..U+FFFF (the
/// 3-byte characters that start with E2 or EF, the only 3-byte leads of the tables and of
/// U+FFFD), made once.
fn classes() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let two = (0x80..0x800u32).map(|cp| {
            let c = char::from_u32(cp).expect("below the surrogates");
            class_of(masks(c)) | if cp < 0xA0 { C1 } else { 0 }
        });
        let three = (0x2000..0x3000u32).chain(0xF000..0x1_0000).map(|cp| {
            let c = char::from_u32(cp).expect("outside the surrogates");
            if c == '\u{FFFD}' {
                CONT
            } else {
                class_of(masks(c))
            }
        });
        two.chain(three).collect()
    })
}

/// Where the classes of U+2000.. and U+F000.. start in [`classes`].
const E2_START: usize = 0x800 - 0x80;
const EF_START: usize = E2_START + 0x1000;

/// The number of ASCII bytes `text` starts with, read sixteen at a time.
fn ascii_prefix_len(text: &[u8]) -> usize {
    let mut n = 0;
    for block in text.chunks_exact(16) {
        let (a, b) = block.split_at(8);
        let a = u64::from_ne_bytes(a.try_into().expect("eight bytes"));
        let b = u64::from_ne_bytes(b.try_into().expect("eight bytes"));
        if (a | b) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        n += 16;
    }
    n + text[n..].iter().take_while(|b| b.is_ascii()).count()
}

/// The offset of the first character, in well-formed UTF-8 `text`, at which a line might begin
/// to hold mojibake, or `None` when no line of `text` can. The offset lies in the line that
/// [`super::possible_encodings`] would find something in (a newline starts every line afresh).
pub(crate) fn first_suspect(text: &[u8]) -> Option<usize> {
    let classes = classes();
    // The class of the character just read; 0 after ASCII.
    let mut previous = 0u8;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        let (class, len) = match b {
            0..=0x7F => {
                // A space after a lead may stand for a lost A0, a `?` for any lost byte; every
                // other ASCII byte ends whatever group was pending. Short runs (", " between
                // words of other scripts) are read a byte at a time, longer ones by blocks.
                let stands_in = match b {
                    b' ' => previous & SPACED,
                    b'?' => previous & LEAD,
                    _ => 0,
                };
                if stands_in != 0 {
                    return Some(i);
                }
                previous = 0;
                i += 1;
                if text.get(i).is_some_and(u8::is_ascii) {
                    i += ascii_prefix_len(&text[i..]);
                }
                continue;
            }
            0xC2..=0xDF => {
                let cp = usize::from(b & 0x1F) << 6 | usize::from(text[i + 1] & 0x3F);
                (classes[cp - 0x80], 2)
            }
            0xE2 | 0xEF => {
                let low = usize::from(text[i + 1] & 0x3F) << 6 | usize::from(text[i + 2] & 0x3F);
                let start = if b == 0xE2 { E2_START } else { EF_START };
                (classes[start + low], 3)
            }
            // CJK, Korean, Indic and Thai text: nothing the tables hold, nothing to follow.
            0xE0..=0xEF => {
                previous = 0;
                i += 3;
                continue;
            }
            _ => (0, 4),
        };
        if class & C1 != 0 || previous & LEAD != 0 && class & CONT != 0 {
            return Some(i);
        }
        previous = class;
        i += len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{possible_encodings, tables::OTHER_BYTES};
    use super::*;
    use proptest::prelude::*;

    /// Every character the tables give a byte, the stand-ins for lost bytes, and characters
    /// of each other kind (ASCII, CJK, 4-byte, a newline).
    fn alphabet() -> Vec<char> {
        let mut chars: Vec<char> = (0x80..=0xFFu32).filter_map(char::from_u32).collect();
        chars.extend(OTHER_BYTES.iter().map(|(c, _)| *c));
        chars.extend(['\u{FFFD}', ' ', '?', 'a', '中', '😀', '\n']);
        chars
    }

    #[test]
    fn no_pair_of_characters_that_may_start_a_group_is_passed_over() {
        let chars = alphabet();
        let mut checked = 0;
        for &a in &chars {
            for &b in &chars {
                let line = format!("{a}{b}");
                if possible_encodings(&line) != 0 {
                    let suspect = first_suspect(line.as_bytes());
                    assert!(suspect.is_some(), "{line:?} passed over");
                    checked += 1;
                }
            }
        }
        // Pairs that start a group exist in every encoding: the test saw some.
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn clean_text_is_passed_over_whole() {
        for text in [
            "Grüße aus Köln\n",
            "Привет, мир\n",
            "日本語のテキスト\n",
            "plain\n",
        ] {
            assert_eq!(first_suspect(text.as_bytes()), None, "{text:?}");
        }
        // Mojibake is found in its own line, past the clean ones.
        let text = "clean line\ncafÃ©\n";
        assert_eq!(first_suspect(text.as_bytes()), Some(16));
        assert_eq!(first_suspect("a\u{85}".as_bytes()), Some(1));
    }

    proptest! {
        #[test]
        fn the_first_line_that_may_hold_mojibake_is_never_passed_over(
            picks in prop::collection::vec(0usize..1000, 0..40)
        ) {
            let chars = alphabet();
            let text: String = picks.iter().map(|&k| chars[k % chars.len()]).collect();
            let mut end = 0;
            for line in text.split_inclusive('\n') {
                end += line.len();
                if possible_encodings(line) != 0 {
                    let suspect = first_suspect(text.as_bytes());
                    prop_assert!(suspect.is_some_and(|p| p < end), "{text:?}: {suspect:?}");
                    break;
                }
            }
        }
    }
}
