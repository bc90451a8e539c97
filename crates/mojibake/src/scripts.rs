//! Scripts and character classes, one home for the whole toolkit: the script of a letter (the
//! mojibake judging, utf8kit's encoding detector and its file-name guesser all ask it), words'
//! ends, mathematical and box characters, C1 controls.

/// Writing systems, coarsely: enough to tell when a decoded letter would sit against a letter it
/// never sits against, and which alphabet a legacy encoding's reading is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Script {
    /// Basic Latin letters, Latin-1's, Latin Extended-A to -E, IPA, the ligatures.
    Latin,
    /// Greek and Coptic, Greek Extended.
    Greek,
    /// Cyrillic and its supplement and extensions.
    Cyrillic,
    /// Armenian.
    Armenian,
    /// Hebrew.
    Hebrew,
    /// Arabic and its supplement.
    Arabic,
    /// Syriac.
    Syriac,
    /// Thaana.
    Thaana,
    /// NKo.
    NKo,
    /// Thai.
    Thai,
    /// Chinese, Japanese and Korean: ideographs, kana, hangul, their punctuation and the
    /// fullwidth forms.
    Cjk,
    /// Letters every script uses: the micro sign, the modifier letters (ʼ ʻ ˈ).
    Common,
    /// Everything else: symbols, punctuation, scripts none of the above.
    Other,
}

/// The script of `c`.
pub fn script(c: char) -> Script {
    let cp = u32::from(c);
    match SCRIPTS.get(cp as usize) {
        Some(&script) => script,
        None => script_of(cp),
    }
}

/// The script of `c` as the mojibake judging weighs neighbours: Thai and CJK, which no
/// single-byte encoding here holds and no 2-byte group decodes to, are [`Script::Other`] to it,
/// like every symbol above U+07FF.
pub(crate) fn judged_script(c: char) -> Script {
    let cp = u32::from(c);
    match SCRIPTS.get(cp as usize) {
        Some(&script) => script,
        None => match script_of(cp) {
            Script::Thai | Script::Cjk => Script::Other,
            script => script,
        },
    }
}

/// [`script_of`] for the 2-byte characters, where the judging asks most: one load instead of a
/// dozen comparisons.
static SCRIPTS: [Script; 0x800] = {
    let mut scripts = [Script::Other; 0x800];
    let mut cp = 0;
    while cp < 0x800 {
        scripts[cp] = script_of(cp as u32);
        cp += 1;
    }
    scripts
};

const fn script_of(cp: u32) -> Script {
    match cp {
        0xB5 | 0x2B0..=0x2FF => Script::Common,
        0x41..=0x5A
        | 0x61..=0x7A
        | 0xAA
        | 0xBA
        | 0xC0..=0x2AF
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFB00..=0xFB06 => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F => Script::Arabic,
        0x700..=0x74F => Script::Syriac,
        0x780..=0x7BF => Script::Thaana,
        0x7C0..=0x7FF => Script::NKo,
        0xE00..=0xE7F => Script::Thai,
        0x1100..=0x11FF
        | 0x3000..=0x303F
        | 0x3040..=0x30FF
        | 0x3130..=0x318F
        | 0x3400..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF => Script::Cjk,
        _ => Script::Other,
    }
}

/// A letter of the Latin code pages' alphabets: Latin-1's and Latin Extended-A's (what a
/// Western or Central European code page makes of a byte).
pub fn is_code_page_latin(c: char) -> bool {
    ('\u{C0}'..='\u{17F}').contains(&c)
        && script(c) == Script::Latin
        && crate::letters::is_alphabetic(c)
}

/// Whether `c` right after `prev` breaks the case of a word: a capital after a small letter, one
/// of them not ASCII. No language writes it ("camelCase" is ASCII); a wrong code page does
/// ("żQué" is "¿Qué", "пРИВЕТ" is KOI8-R read as windows-1251, "вЂћ" is "„" through
/// windows-1251). Every judge of "does this read as text" asks it: the mojibake verdict, the
/// encoding detector, the file-name guesser.
pub fn breaks_case(prev: char, c: char) -> bool {
    crate::letters::is_lowercase(prev)
        && crate::letters::is_uppercase(c)
        && !(prev.is_ascii() && c.is_ascii())
}

/// Punctuation that ends a word: after an accented capital it is far likelier text than the
/// second half of a group ("CAFÉ…" is not "CAFɅ").
pub(crate) fn ends_words(c: char) -> bool {
    matches!(
        c,
        '…' | '’' | '”' | '»' | '\u{A0}' | '–' | '—' | '›' | '´' | '•' | '·'
    )
}

pub(crate) fn is_c1_control(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// Mathematical signs, and the Greek letters formulas use, as MacRoman has them.
pub(crate) fn is_math(c: char) -> bool {
    matches!(
        c,
        '√' | '∆'
            | 'π'
            | '°'
            | '±'
            | '≠'
            | '≤'
            | '≥'
            | '∞'
            | '∂'
            | '∑'
            | '∏'
            | '∫'
            | 'Ω'
            | 'µ'
            | '¬'
            | '≈'
            | '÷'
            | '◊'
            | '×'
            | '⁄'
    )
}

/// Box drawing and block elements: IBM437's upper half, which text drawn with it is made of.
pub(crate) fn is_box(c: char) -> bool {
    ('\u{2500}'..='\u{259F}').contains(&c)
}

/// What KOI8 holds at 80..BF besides its letters, the no-break space and `©`: box drawing,
/// blocks, `⌠ ■ ∙ √ ≈ ≤ ≥ ⌡`, `° ² · ÷`. A KOI8 group that ends with one is its mojibake
/// (`п÷я─п╦` for `При`); one that ends with a letter may be correct Cyrillic text (`сё`).
pub(crate) fn is_koi8_mark(c: char) -> bool {
    is_box(c)
        || matches!(
            c,
            '\u{2219}'..='\u{221A}' | '\u{2248}' | '\u{2264}' | '\u{2265}'
        )
        || matches!(
            c,
            '\u{2320}' | '\u{2321}' | '\u{25A0}' | '°' | '²' | '·' | '÷'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_classifier_two_views() {
        for (c, script_of_c) in [
            ('a', Script::Latin),
            ('ª', Script::Latin),
            ('ɛ', Script::Latin),
            ('µ', Script::Common),
            ('ж', Script::Cyrillic),
            ('ς', Script::Greek),
            ('ש', Script::Hebrew),
            ('ก', Script::Thai),
            ('日', Script::Cjk),
            ('한', Script::Cjk),
            ('€', Script::Other),
        ] {
            assert_eq!(script(c), script_of_c, "{c}");
            let judged = match script_of_c {
                Script::Thai | Script::Cjk => Script::Other,
                other => other,
            };
            assert_eq!(judged_script(c), judged, "{c}");
        }
        assert!(breaks_case('ż', 'Q') && breaks_case('п', 'Р') && breaks_case('a', 'É'));
        assert!(!breaks_case('a', 'B') && !breaks_case('É', 'a') && !breaks_case('.', 'Ж'));
        assert!(is_code_page_latin('é') && is_code_page_latin('Ő'));
        assert!(!is_code_page_latin('×') && !is_code_page_latin('ɛ') && !is_code_page_latin('ж'));
    }
}
