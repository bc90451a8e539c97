//! `char::is_alphabetic`, `is_uppercase`, `is_lowercase` and `is_numeric` for code that asks them
//! of every character it reads: the mojibake judging (every neighbour of every candidate, in
//! every encoding tried) and utf8kit's legacy-encoding detector (every letter of every reading).
//! std answers each character outside ASCII with a search of a compressed table (a quarter of
//! the repair's time on real mojibake); here every code point is answered from a table that the
//! build script makes with the same std (`build.rs`: a byte of four bits for each code point,
//! in pages of 256 shared where alike). A test compares every character with std.

const ALPHABETIC: u8 = 1;
const UPPERCASE: u8 = 2;
const LOWERCASE: u8 = 4;
const NUMERIC: u8 = 8;

include!(concat!(env!("OUT_DIR"), "/letters_table.rs"));

/// The four answers for `c` as bits.
#[inline]
fn flags(c: char) -> u8 {
    let cp = u32::from(c);
    let page = PAGE_OF[(cp >> 8) as usize];
    PAGES[usize::from(page)][(cp & 0xFF) as usize]
}

/// The same as `c.is_alphabetic()`.
#[inline]
pub fn is_alphabetic(c: char) -> bool {
    c.is_ascii_alphabetic() || !c.is_ascii() && flags(c) & ALPHABETIC != 0
}

/// The same as `c.is_uppercase()`.
#[inline]
pub fn is_uppercase(c: char) -> bool {
    c.is_ascii_uppercase() || !c.is_ascii() && flags(c) & UPPERCASE != 0
}

/// The same as `c.is_lowercase()`.
#[inline]
pub fn is_lowercase(c: char) -> bool {
    c.is_ascii_lowercase() || !c.is_ascii() && flags(c) & LOWERCASE != 0
}

/// The same as `c.is_numeric()`.
#[inline]
pub fn is_numeric(c: char) -> bool {
    c.is_ascii_digit() || !c.is_ascii() && flags(c) & NUMERIC != 0
}

/// The same as `c.is_alphanumeric()`.
#[inline]
pub fn is_alphanumeric(c: char) -> bool {
    is_alphabetic(c) || is_numeric(c)
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
            assert_eq!(is_numeric(c), c.is_numeric(), "{c:?} numeric");
            assert_eq!(
                is_alphanumeric(c),
                c.is_alphanumeric(),
                "{c:?} alphanumeric"
            );
        }
    }
}
