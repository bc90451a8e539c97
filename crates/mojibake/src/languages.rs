//! What languages write: the letters they pair, which capitals and rarities betray a wrong reading.

use crate::letters::{is_alphabetic, is_lowercase, is_uppercase};
use crate::scripts::{Script, is_c1_control, judged_script};

/// Two capitals of one script: elsewhere than in windows-1252, likelier a word of it than one
/// letter ("ЕЊ" in Serbian "ОГРАНИЧЕЊЕ").
pub(crate) fn is_capital_pair(group: &[char]) -> bool {
    matches!(group, [a, b] if is_uppercase(*a) && is_uppercase(*b) && judged_script(*a) == judged_script(*b))
}

/// The languages that write `c`, a letter of Latin-1 or Latin Extended-A, as a set of bits; 0
/// for any other character, and for the Latin-1 letters every Western language shares.
pub(crate) fn languages(c: char) -> u16 {
    pub(crate) const WESTERN: u16 = 1;
    pub(crate) const POLISH: u16 = 1 << 1;
    pub(crate) const CZECH_SLOVAK: u16 = 1 << 2;
    pub(crate) const HUNGARIAN: u16 = 1 << 3;
    pub(crate) const ROMANIAN: u16 = 1 << 4;
    pub(crate) const SOUTH_SLAVIC: u16 = 1 << 5;
    pub(crate) const BALTIC: u16 = 1 << 6;
    pub(crate) const TURKIC: u16 = 1 << 7;
    pub(crate) const ESPERANTO: u16 = 1 << 8;
    pub(crate) const MALTESE: u16 = 1 << 9;
    pub(crate) const SAMI_AND_OTHERS: u16 = 1 << 10;
    let lower = latin_lowercase(c);
    match lower {
        'á' | 'é' | 'í' | 'ó' | 'ú' => WESTERN | CZECH_SLOVAK | HUNGARIAN | POLISH,
        'ä' | 'ö' | 'ü' => WESTERN | CZECH_SLOVAK | HUNGARIAN | TURKIC | BALTIC,
        'â' | 'î' => WESTERN | ROMANIAN | TURKIC,
        'ç' => WESTERN | TURKIC,
        'ô' | 'ý' => WESTERN | CZECH_SLOVAK,
        'õ' => WESTERN | BALTIC,
        'û' => WESTERN | TURKIC,
        'à'..='ÿ' => WESTERN,
        'ą' | 'ę' => POLISH | BALTIC,
        'ć' => POLISH | SOUTH_SLAVIC,
        'ł' | 'ń' | 'ś' | 'ź' => POLISH,
        'ż' => POLISH | MALTESE,
        'č' | 'š' | 'ž' => CZECH_SLOVAK | SOUTH_SLAVIC | BALTIC | SAMI_AND_OTHERS,
        'ď' | 'ě' | 'ĺ' | 'ľ' | 'ň' | 'ŕ' | 'ř' | 'ť' | 'ů' => CZECH_SLOVAK,
        'ő' | 'ű' => HUNGARIAN,
        'ă' | 'ș' | 'ț' | 'ţ' => ROMANIAN,
        'ş' => ROMANIAN | TURKIC,
        'đ' => SOUTH_SLAVIC | SAMI_AND_OTHERS,
        'ā' | 'ē' | 'ī' | 'ū' | 'ģ' | 'ķ' | 'ļ' | 'ņ' | 'ė' | 'į' | 'ų' => BALTIC,
        'ğ' | 'ı' => TURKIC,
        'ĉ' | 'ĝ' | 'ĥ' | 'ĵ' | 'ŝ' | 'ŭ' => ESPERANTO,
        'ċ' | 'ġ' | 'ħ' => MALTESE,
        'ŋ' | 'ŧ' => SAMI_AND_OTHERS,
        _ => 0,
    }
}

/// `c` in lowercase where that is a letter of Latin-1 or Latin Extended-A (what [`languages`]
/// and [`rarity`] name), else `c`. Only those letters, "ẞ" and the Ångström sign lowercase into
/// that range, so the standard library's search is left for them.
pub(crate) fn latin_lowercase(c: char) -> char {
    match c {
        '\u{C0}'..='\u{17F}' | '\u{1E9E}' | '\u{212B}' => c.to_lowercase().next().unwrap_or(c),
        _ => c,
    }
}

/// Two letters that no language writes side by side: "ĂŤ" and "Ăź" mix Romanian with Czech or
/// Polish, "ÄŚ" German with Polish. Such a pair is a group of mojibake, whatever its case.
pub(crate) fn is_foreign_pair(group: &[char]) -> bool {
    match group {
        [a, b] => {
            let (x, y) = (languages(*a), languages(*b));
            x != 0 && y != 0 && x & y == 0
        }
        _ => false,
    }
}

/// How rarely text holds `c`, decoded from a group: 0 for the accented letters most languages
/// written in Latin letters use and for the letters of other scripts, 1 for the Latin letters
/// of fewer languages ("å", "ø", "ť", "ď"), 2 for anything else. Windows-1250 and ISO-8859-2
/// differ in a dozen places, so a short line often reads in both: "ĂĄ" is "á" in one and "å"
/// in the other, "ĹĄ" is "š" or "ť", "ĂĽ" is "ü" or "å".
pub(crate) fn rarity(c: char) -> usize {
    let lower = latin_lowercase(c);
    match lower {
        'á' | 'é' | 'í' | 'ó' | 'ú' | 'ý' | 'à' | 'è' | 'ì' | 'ò' | 'ù' | 'â' | 'ê' | 'î' | 'ô'
        | 'û' | 'ä' | 'ë' | 'ï' | 'ö' | 'ü' | 'ç' | 'ñ' | 'ã' | 'õ' | 'č' | 'š' | 'ž' | 'ř'
        | 'ě' | 'ů' | 'ł' | 'ą' | 'ę' | 'ż' | 'ś' | 'ć' | 'ń' | 'ź' | 'ő' | 'ű' | 'ă' | 'ț'
        | 'ș' | 'ş' | 'ţ' | 'ğ' | 'ı' | 'ā' | 'ē' | 'ī' | 'ū' | 'ė' | 'į' | 'ų' | 'ß' => {
            0
        }
        'å' | 'ø' | 'æ' | 'œ' | 'ť' | 'ď' | 'ň' | 'ľ' | 'ĺ' | 'ŕ' | 'ÿ' | 'ļ' | 'ķ' | 'ņ' | 'ģ'
        | 'ð' | 'þ' | 'đ' | 'ō' | 'ġ' | 'ħ' | 'ċ' | 'ŵ' | 'ŷ' | 'ĩ' | 'ũ' | 'ŋ' => 1,
        // The letters of other scripts, ideographs and syllables included, are what their
        // mojibake decodes to ("ę\u{9C}\u{88}" is "月" through windows-1257, not "\u{A708}"
        // through windows-1250).
        _ if is_alphabetic(c) && judged_script(c) != Script::Latin => 0,
        _ => 2,
    }
}

/// A decoded character that text rarely holds where it lands: a letter of Latin Extended-B
/// other than those of Romanian, Vietnamese, pinyin, Sami, Navajo and the African alphabets
/// ("Ƥ", "ƶ": the "ä" and "ö" of Estonian read through windows-1250 where windows-1257 was
/// meant), a capital right after a lowercase letter ("vokieĨių"), or a C1 control. Two
/// encodings that explain the same bytes are told apart by these.
#[inline]
pub(crate) fn is_odd_decoding(decoded: char, before: Option<char>) -> bool {
    let rare = match u32::from(decoded) {
        0x1A0 | 0x1A1 | 0x1AF | 0x1B0 | 0x1CD..=0x1DC | 0x218..=0x21B => false,
        0x181 | 0x186 | 0x189 | 0x18A | 0x18E..=0x192 | 0x194 | 0x198 | 0x199 | 0x1B2..=0x1B4 => {
            false
        }
        // Clicks of the Khoisan languages, Sami's ǥ ǧ ǩ ǯ, Navajo's ǫ, pinyin's ǹ, Livonian's ȳ.
        0x1B7 | 0x1C0..=0x1C3 | 0x1DD | 0x1E4..=0x1F0 | 0x1F8 | 0x1F9 | 0x232 | 0x233 => false,
        0x180..=0x24F => true,
        _ => false,
    };
    // A C1 control is no text at all: ISO-8859-2 reads "ÂŤ" as "«" where windows-1250 reads
    // U+008D.
    rare || is_c1_control(decoded) || is_uppercase(decoded) && before.is_some_and(is_lowercase)
}
