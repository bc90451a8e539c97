//! Scripts and character classes as the judging needs them: the script of a letter, words' ends, mathematical and box characters, C1 controls.

/// Writing systems, coarsely: enough to tell when a decoded letter would sit against a letter it
/// never sits against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Syriac,
    Thaana,
    NKo,
    /// Letters every script uses: the micro sign, the modifier letters (ʼ ʻ ˈ).
    Common,
    Other,
}

pub(crate) fn script(c: char) -> Script {
    let cp = u32::from(c);
    match SCRIPTS.get(cp as usize) {
        Some(&script) => script,
        None => script_of(cp),
    }
}

/// [`script_of`] for the 2-byte characters, where the judging asks most: one load instead of a
/// dozen comparisons.
pub(crate) static SCRIPTS: [Script; 0x800] = {
    let mut scripts = [Script::Other; 0x800];
    let mut cp = 0;
    while cp < 0x800 {
        scripts[cp] = script_of(cp as u32);
        cp += 1;
    }
    scripts
};

pub(crate) const fn script_of(cp: u32) -> Script {
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
        _ => Script::Other,
    }
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
