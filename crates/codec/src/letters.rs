//! `char::is_alphabetic`, `is_uppercase` and `is_lowercase` for code that asks them of every
//! character it reads: the mojibake judging (every neighbour of every candidate, in every
//! encoding tried) and utf8kit's legacy-encoding detector (every letter of every reading). std
//! answers each character outside ASCII with a search of a compressed table (a quarter of the
//! repair's time on real mojibake); here the Basic Multilingual Plane is answered from tables
//! made once, and the planes above it (rare in text) by std. A test compares every character
//! with std.

/// Pages of answers to one question, one per block of 256 code points of the Basic
/// Multilingual Plane, each made the first time a character of the block is asked about: a line
/// costs the blocks of its scripts, a few microseconds each, once per run. Each question has its
/// own pages, since the judging asks whether a character is a letter of every character near a
/// candidate, and its case of only a few.
type Pages = [std::sync::OnceLock<[bool; 256]>; 256];

static ALPHABETIC: Pages = [const { std::sync::OnceLock::new() }; 256];
static UPPERCASE: Pages = [const { std::sync::OnceLock::new() }; 256];
static LOWERCASE: Pages = [const { std::sync::OnceLock::new() }; 256];

/// `question(c)` from `pages`, or `None` above the Basic Multilingual Plane.
#[inline]
fn answer(pages: &Pages, question: fn(char) -> bool, c: char) -> Option<bool> {
    let cp = u32::from(c);
    let page = pages.get((cp >> 8) as usize)?;
    let answers = page.get_or_init(|| {
        let mut answers = [false; 256];
        for (low, slot) in answers.iter_mut().enumerate() {
            // Surrogate code points are no characters: their page stays all false.
            if let Some(c) = char::from_u32(cp & !0xFF | low as u32) {
                *slot = question(c);
            }
        }
        answers
    });
    Some(answers[(cp & 0xFF) as usize])
}

/// The same as `c.is_alphabetic()`.
#[inline]
pub fn is_alphabetic(c: char) -> bool {
    c.is_ascii_alphabetic()
        || !c.is_ascii()
            && answer(&ALPHABETIC, char::is_alphabetic, c).unwrap_or_else(|| c.is_alphabetic())
}

/// The same as `c.is_uppercase()`.
#[inline]
pub fn is_uppercase(c: char) -> bool {
    c.is_ascii_uppercase()
        || !c.is_ascii()
            && answer(&UPPERCASE, char::is_uppercase, c).unwrap_or_else(|| c.is_uppercase())
}

/// The same as `c.is_lowercase()`.
#[inline]
pub fn is_lowercase(c: char) -> bool {
    c.is_ascii_lowercase()
        || !c.is_ascii()
            && answer(&LOWERCASE, char::is_lowercase, c).unwrap_or_else(|| c.is_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_is_answered_as_std_answers_it() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_alphabetic(c), c.is_alphabetic(), "{c:?} alphabetic");
            assert_eq!(is_uppercase(c), c.is_uppercase(), "{c:?} uppercase");
            assert_eq!(is_lowercase(c), c.is_lowercase(), "{c:?} lowercase");
        }
    }
}
