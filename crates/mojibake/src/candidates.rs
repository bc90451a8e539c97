//! The candidates of one encoding in a line: whole groups, CESU-8 pairs, groups that lost a byte or a space.

use utf8kit_codec::{
    UnitKind, scan_unit,
    unit::{declared_len, is_continuation},
};

use crate::automaton::{is_lead, takes_spaced_a0};
use crate::bytes::{byte_in, windows_1252_char};
use crate::found::{Candidate, Found, Verdict};
use crate::letters::is_alphabetic;
use crate::line::Line;
use crate::scripts::is_c1_control;
use crate::spare::{SPARE_FOUND, spare};
use crate::tables::{self, SLOPPY};

/// One position of a group: a byte, or a byte that was lost or turned into a space.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Byte(u8),
    /// U+FFFD: a byte the decoder left undefined.
    Lost,
    /// `?`: a byte an encoder could not write.
    Question,
    /// A space that was A0.
    Space,
}

pub(crate) fn find_candidates(line: &Line, e: usize) -> Vec<Found> {
    let chars = &line.chars[..];
    let mut found = spare(&SPARE_FOUND, line.chars.len() / 2);
    let mut i = 0;
    while i < chars.len() {
        let lead = line.byte(i, e);
        if !is_lead(lead) || chars[i].is_ascii() {
            i += 1;
            continue;
        }
        match candidate_at(line, e, i, lead) {
            Some((len, candidate)) => {
                let uses_c1 = e == 0
                    && chars[i..i + len]
                        .iter()
                        .any(|&c| is_c1_control(c) && windows_1252_char(c) != c);
                found.push(Found {
                    start: i,
                    len,
                    candidate,
                    uses_c1,
                    verdict: Verdict::No,
                    accepted: false,
                });
                i += len;
            }
            None => i += 1,
        }
    }
    found
}

/// The candidate starting at `i`, whose lead byte is `lead`, with its length in characters.
pub(crate) fn candidate_at(
    line: &Line,
    e: usize,
    i: usize,
    lead: u8,
) -> Option<(usize, Candidate)> {
    let chars = &line.chars[..];
    let needed = declared_len(lead).expect("a lead byte C2..F4");
    let mut slots = [Slot::Byte(lead); 4];
    let mut len = 1;
    while len < needed {
        let Some(&c) = chars.get(i + len) else { break };
        let byte = line.byte(i + len, e);
        let slot = if !c.is_ascii() && is_continuation(byte) {
            Slot::Byte(byte)
        } else if c == '\u{FFFD}' {
            Slot::Lost
        } else if c == '?' && !slots[1..len].contains(&Slot::Question) {
            Slot::Question
        } else if c == ' ' && !slots[1..len].contains(&Slot::Space) && has_nbsp_at_a0(e) {
            Slot::Space
        } else {
            break;
        };
        slots[len] = slot;
        len += 1;
    }
    let slots = &slots[..len];
    let lost = slots
        .iter()
        .filter(|s| matches!(s, Slot::Lost | Slot::Question))
        .count();
    let spaced = slots.contains(&Slot::Space);
    if len < needed {
        // "â€" cut short by the end of the line or by a character that cannot continue it.
        let is_truncated = slots == [Slot::Byte(0xE2), Slot::Byte(0x80)];
        return is_truncated.then_some((2, Candidate::Truncated));
    }
    if spaced && lost > 0 {
        return None;
    }
    if lost > 0 {
        // A `?` is trusted where a lost byte is common: after C2/C3, beside real continuation
        // bytes of a longer group, or after another lead inside a word ("абхазÑ?кий": the 81
        // of "с" is undefined in windows-1252, and an encoder wrote `?`), at its end too when a
        // group goes before ("бафиÑ?," is "бафия,").
        let questions = slots.iter().filter(|s| **s == Slot::Question).count();
        let real = slots[1..]
            .iter()
            .filter(|s| matches!(s, Slot::Byte(_)))
            .count();
        let word_goes_on = chars.get(i + len).is_some_and(|&c| is_alphabetic(c))
            || i >= 2
                && !chars[i - 1].is_ascii()
                && is_continuation(line.byte(i - 1, e))
                && is_lead(line.byte(i - 2, e));
        let trusted = needed == 2 && (matches!(lead, 0xC2 | 0xC3) || word_goes_on) || real >= 1;
        if questions > 0 && !trusted {
            return None;
        }
        if !could_be_valid(slots, e) {
            return None;
        }
        let in_word = i > 0 && is_alphabetic(chars[i - 1])
            || chars.get(i + len).is_some_and(|&c| is_alphabetic(c));
        // Elsewhere than windows-1252 a lead is a letter of the text ("П\u{FFFD}и",
        // "ο\u{FFFD}\u{FFFD}" left by a windows-1252 layer with lost bytes): damage is repaired
        // there only beside clear mojibake.
        // A lead of three or four bytes whose every continuation was lost, right after an ASCII
        // letter, is the word's own letter before U+FFFD ("café\u{FFFD}\u{FFFD}"), unless it is
        // â, the lead that punctuation's mojibake is made of ("itâ\u{FFFD}\u{FFFD}s" was "it’s").
        // (A two-byte lead with its byte lost is common mojibake: "SlovenÄ\u{FFFD}ina".)
        let lone_letter = needed >= 3
            && needed - lost == 1
            && i > 0
            && chars[i - 1].is_ascii_alphabetic()
            && !matches!(lead, 0xC2 | 0xC3 | 0xE2);
        let strong = questions == 0
            && e == 0
            && !lone_letter
            && (needed - lost >= 2 || needed >= 3 || lead == 0xC3 || in_word);
        return Some((len, Candidate::Damaged { strong }));
    }
    let mut bytes = [0u8; 4];
    for (b, s) in bytes.iter_mut().zip(slots) {
        *b = match s {
            Slot::Byte(b) => *b,
            _ => 0xA0,
        };
    }
    let bytes = &bytes[..len];
    if spaced {
        // Three-byte groups of any lead: past E3 (CJK, Hangul) only beside clear mojibake of
        // the script they decode to (see `judge`).
        let restorable = match needed {
            2 => takes_spaced_a0(lead),
            3 => true,
            _ => lead == 0xF0,
        };
        let decoded = decode_group(bytes)?;
        if !restorable || !is_alphabetic(chars[i]) {
            return None;
        }
        let after = &chars[i + len..];
        if decoded != 'à' {
            return Some((
                len,
                Candidate::Spaced {
                    decoded,
                    keeps_space: false,
                },
            ));
        }
        // "Ã  le": the A0 became one space and the word's own space follows, which is kept.
        let doubled = after.first() == Some(&' ');
        let keeps_space = doubled || !drops_space_after_a_grave(after);
        return Some((
            len + usize::from(doubled),
            Candidate::Spaced {
                decoded,
                keeps_space,
            },
        ));
    }
    match decode_group(bytes) {
        Some(decoded) => Some((
            len,
            Candidate::Group {
                decoded,
                bytes: len,
            },
        )),
        None if bytes[0] == 0xED && (0xA0..=0xAF).contains(&bytes[1]) => {
            cesu_pair(line, e, i, bytes).map(|decoded| (6, Candidate::Cesu { decoded }))
        }
        None => None,
    }
}

/// Whether byte A0 is the no-break space in encoding `e`, which is what a space can stand for:
/// MacRoman has "†" there and IBM437 "á", which nothing turns into a space.
pub(crate) fn has_nbsp_at_a0(e: usize) -> bool {
    byte_in('\u{A0}', e) == 0xA0
}

/// The character that `bytes`, a lead C2..F4 and as many continuation bytes as it declares,
/// encode, or `None` when they are no well-formed UTF-8 (an overlong form, a surrogate, past
/// U+10FFFF): what `std::str::from_utf8` would say, without its general loop (the judging
/// decodes every group of every encoding it tries). A test checks it on every group.
pub(crate) fn decode_group(bytes: &[u8]) -> Option<char> {
    let (first, least) = match bytes.len() {
        2 => (u32::from(bytes[0] & 0x1F), 0x80),
        3 => (u32::from(bytes[0] & 0x0F), 0x800),
        _ => (u32::from(bytes[0] & 0x07), 0x1_0000),
    };
    let cp = bytes[1..]
        .iter()
        .fold(first, |cp, &b| cp << 6 | u32::from(b & 0x3F));
    if cp < least {
        return None;
    }
    char::from_u32(cp)
}

/// After "Ã" and a space, whether the space was the A0 of "à" and the word goes on: the
/// Portuguese contractions "às", "àquele", "àquela", "àquilo" (their "à" is never a word of its
/// own), and the Vietnamese syllables that "à" begins or carries ("hài", "vào", "màu", "bàn",
/// "làm", "hàng", "hành", "sàch"), whose tails are no word of French ("à y" is, and stays).
/// Elsewhere "à" is a word, and the A0 was dropped before the word's own space.
pub(crate) fn drops_space_after_a_grave(after: &[char]) -> bool {
    let word: String = after.iter().take(7).collect();
    let starts = |w: &str| {
        word.starts_with(w)
            && word[w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !is_alphabetic(c) && !matches!(c, '\'' | '’'))
    };
    starts("s")
        || starts("quele")
        || starts("quela")
        || starts("quilo")
        || starts("queles")
        || starts("quelas")
        || starts("quilos")
        || ["i", "o", "u", "n", "m", "ng", "nh", "c", "ch", "t", "p"]
            .iter()
            .any(|tail| starts(tail))
}

/// A high surrogate at `i` (three characters) followed by a low one: the supplementary
/// character the CESU-8 pair stands for, as the scanner reads the six bytes.
pub(crate) fn cesu_pair(line: &Line, e: usize, i: usize, high: &[u8]) -> Option<char> {
    let low = line.chars.get(i + 3..i + 6)?;
    if low.iter().any(char::is_ascii) {
        return None;
    }
    let mut pair = [0u8; 6];
    pair[..3].copy_from_slice(high);
    for (k, b) in pair[3..].iter_mut().enumerate() {
        *b = line.byte(i + 3 + k, e);
    }
    let unit = scan_unit(&pair, true)?;
    (unit.kind == UnitKind::SurrogatePair && unit.len == 6)
        .then(|| unit.codepoint.and_then(char::from_u32))
        .flatten()
}

/// Whether some choice of the lost bytes makes the group well-formed. A byte lost to U+FFFD
/// was one the encoding leaves undefined (its sloppy form keeps those as C1 controls); in an
/// encoding that defines every byte, and for `?`, it could have been any continuation byte.
pub(crate) fn could_be_valid(slots: &[Slot], e: usize) -> bool {
    let is_undefined = |b: u8| {
        let c = tables::HIGH_HALF[e][usize::from(b - 0x80)];
        c == '\0' || SLOPPY[e] && u32::from(c) == u32::from(b)
    };
    let has_undefined = (0x80..=0xBFu8).any(is_undefined);
    // One continuation byte of each range the second byte of a sequence may need.
    pub(crate) const ANY_CONTINUATION: [u8; 6] = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF];
    let choices = |s: Slot| -> Vec<u8> {
        match s {
            Slot::Byte(b) => vec![b],
            Slot::Lost if has_undefined => (0x80..=0xBFu8).filter(|&b| is_undefined(b)).collect(),
            _ => ANY_CONTINUATION.to_vec(),
        }
    };
    let options: Vec<Vec<u8>> = slots.iter().map(|&s| choices(s)).collect();
    pub(crate) fn search(options: &[Vec<u8>], at: usize, trial: &mut [u8; 4]) -> bool {
        if at == options.len() {
            return std::str::from_utf8(&trial[..at]).is_ok();
        }
        options[at].iter().any(|&b| {
            trial[at] = b;
            search(options, at + 1, trial)
        })
    }
    search(&options, 0, &mut [0u8; 4])
}
