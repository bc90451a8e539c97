//! UTF-8 read as a double-byte encoding: `鍙傛暟閿欒` is `参数错误` read as GBK, `譁�蟄怜喧縺�`
//! is `文字化け` read as Shift_JIS. Each pair of bytes became one character, so a line's
//! characters, written back in that encoding, give the UTF-8 bytes again.
//!
//! Such a reading often lost bytes: a lead byte before a byte it cannot pair with, or a pair the
//! encoding leaves undefined, became U+FFFD (one or two bytes each, as the WHATWG decoders do;
//! some decoders write `?`, which is read as a gap where a `?` of the text could not stand).
//! Each lost place is a gap: the characters whose bytes it cut become one U+FFFD each, and the
//! rest of the line is restored.
//!
//! The judging weighs characters, not words: the characters a reading of UTF-8 gives are rare
//! ones (the first two bytes of every CJK character in UTF-8 are, in each of these encodings, a
//! pair from its second level or its extensions), while text uses its common ones. A line is
//! undone only when its characters are rare, the answer's are common, and the answer holds no
//! control or private-use character; any doubt leaves the line.

mod filter;
mod index;
mod latin;
mod latin_filter;
mod seen;
mod starts;
mod tables;
mod write;

use crate::letters::is_alphabetic;
use crate::scripts::{Script, script};
use filter::{may_begin, mojibake_start};
use tables::{COMMON, Tables, is_cjk};
use write::{decode_with_gaps, encode, may_have_dropped};

pub(crate) use filter::{
    LOW, ONES, first_double_suspect, gather, with_neighbours, words_of, zero_bytes,
};
pub(crate) use index::{N, READINGS};
pub(crate) use latin::{LatinReading, undo_latin};
pub(crate) use latin_filter::first_latin_suspect;

/// How many bytes of UTF-8 each U+FFFD of a reading stands for, in halves: two (a lead byte
/// and the byte it could not pair with) in all but EUC-JP, whose lead bytes are A1..FE, so that
/// UTF-8's continuation bytes 80..A0 are lost one at a time: one and a half there.
const HALF_BYTES_PER_GAP: [usize; N] = [4, 4, 4, 4, 3];

/// A character no text would hold where a reading's answer puts it.
const REFUSED: u32 = u32::MAX / 4;

/// What a character says against being text, in halves: 0 for what text uses every day, 2 for
/// a rare ideograph, a halfwidth katakana, a symbol; [`REFUSED`] for a control, a private-use
/// character, a noncharacter.
fn cost(c: char, tables: &Tables) -> u32 {
    let cp = u32::from(c);
    // ASCII is what it was: a reading writes back the controls the line holds, and no other.
    if c.is_ascii() || c == '\u{FFFD}' {
        return 0;
    }
    if tables.class(c) & COMMON != 0 {
        return 0;
    }
    if cp < 0xA0
        || (0xE000..=0xF8FF).contains(&cp)
        || (0xFDD0..=0xFDEF).contains(&cp)
        || cp & 0xFFFE == 0xFFFE
        || cp >= 0xF0000
    {
        return REFUSED;
    }
    if cp <= 0xBF || (0x2000..=0x206F).contains(&cp) {
        return 0;
    }
    // The letters of the alphabets' own blocks; not their extensions, which only some
    // languages use (Latin Extended-B, IPA, the Cyrillic supplement).
    let alphabet = matches!(cp, 0xC0..=0x17F | 0x370..=0x4FF | 0x531..=0x6FF | 0xE00..=0xE7F);
    if alphabet
        && is_alphabetic(c)
        && matches!(
            script(c),
            Script::Latin
                | Script::Greek
                | Script::Cyrillic
                | Script::Armenian
                | Script::Hebrew
                | Script::Arabic
                | Script::Thai
        )
    {
        return 0;
    }
    2
}

/// The reading undone on a line: the answer, how many characters it restored, and the reading
/// (an index into [`READINGS`]).
pub(crate) struct Undone {
    pub(crate) text: String,
    pub(crate) restored: usize,
    pub(crate) reading: usize,
}

/// Undoes the double-byte reading that best explains `text`, a line, if one does.
pub(crate) fn undo_double(text: &str) -> Option<Undone> {
    // The text is judged as one line: its first character that is not ASCII must begin such
    // mojibake (most lines the single-byte filter stops at end here, at once).
    let first = text.bytes().position(|b| b >= 0x80)?;
    // One character alone on its line (a code chart's) says too little: `丱` is `Х` read as
    // EUC-JP.
    text.trim().chars().nth(1)?;
    let start = mojibake_start(text.as_bytes(), first)?;
    let tables = Tables::get();
    if !may_begin(tables, &text.as_bytes()[start..]) {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() * 2);
    let drops = may_have_dropped(text);
    let gapped = questions_as_gaps(text);
    let mut best: Option<((i64, std::cmp::Reverse<usize>), Undone)> = None;
    let mut tied = false;
    // What the line says against being text in every reading: its ideographs, hangul and
    // halfwidth katakana that no encoding's text uses every day, and private-use characters (the
    // reading of a pair the encoding leaves to its users), as much as a rare ideograph each.
    // Symbols say nothing here: garbled text is full of them.
    let rare = text
        .chars()
        .filter(|&c| is_cjk(u32::from(c)))
        .map(|c| cost(c, tables).min(2))
        .sum::<u32>()
        + 2 * hanja_before_hangul(text)
        + 2 * cyrillic_hanja_pairs(text);
    for r in 0..N {
        if !encode(text, r, tables, drops, &mut bytes) {
            continue;
        }
        // Shown through reading `r`, the line is text of its language: an ideograph from
        // beyond that encoding's first level says as much against it (`紊` of `紊沿乾`, which is
        // `失败` read as EUC-JP, is common in Chinese and rare in Japanese).
        let before = rare + 2 * rare_here(text, r, tables) + 2 * guillemets(text, r, tables);
        // Rare characters are the only evidence: a line without one is left.
        if before < 2 {
            continue;
        }
        let Some((mut answer, mut damaged)) = decode_with_gaps(&bytes, r) else {
            continue;
        };
        // A `?` that only a gap explains, or one that the answer puts inside a word, says the
        // decoder wrote `?` for what it lost: every `?` against a character of the line, and
        // every run of them, is taken for a gap too, where the line still reads.
        if let Some(gapped) = &gapped
            && (answer.contains('\u{FFFD}') || question_inside_word(&answer))
            && encode(gapped, r, tables, false, &mut bytes)
            && let Some(read) = decode_with_gaps(&bytes, r)
        {
            (answer, damaged) = read;
        }
        let after = answer
            .chars()
            .map(|c| cost(c, tables))
            .fold(0u32, u32::saturating_add);
        let restored = answer.chars().filter(|&c| !c.is_ascii()).count() - damaged;
        // The answer is text, its characters common where the line's were rare; and a reading
        // that lost more characters than it gives back whole is left.
        if after >= REFUSED || before < 2 * after + 2 || restored == 0 {
            continue;
        }
        let odd = answer.chars().filter(|&c| !is_core_letter(c)).count() + damaged;
        // Where only the reading's own rare ideographs tell, the answer must be plain: two
        // characters or more restored, every letter of an alphabet's core, all of one script
        // (`視訊` is no `ҕӍ`, `螢幕` no `ΞĻ`, `迪法` no `猖@`).
        if rare < 2 * after + 2 {
            let odd_letter = |c: char| is_alphabetic(c) && !is_core_letter(c);
            // One character restored is enough where the answer has two gaps or more (what
            // the decoder lost) and the one character is an ideograph, kana or hangul that
            // every encoding's text uses: the rest of such a line is gaps (`紊掩�����障����` is
            // `失敗しました` read as EUC-JP, which keeps `失` alone).
            let lossy = damaged >= 2 && after == 0;
            let one_cjk = || {
                let mut cjk = answer.chars().filter(|&c| !c.is_ascii() && c != '\u{FFFD}');
                cjk.next().is_some_and(|c| is_cjk(u32::from(c))) && cjk.next().is_none()
            };
            let enough = restored >= 2
                || (restored == 1 && lossy && one_cjk())
                || (damaged == 0
                    && !text.contains(['?', '\u{FFFD}'])
                    && one_letter_words(text, &answer, tables));
            if !enough || answer.chars().any(odd_letter) || !one_script(&answer) {
                continue;
            }
        }
        // The margin over every encoding's common characters; on a tie, the answer with fewer
        // letters outside the core of their alphabets and fewer lost characters.
        let margin = (
            i64::from(rare) - 2 * i64::from(after),
            std::cmp::Reverse(odd),
        );
        match &best {
            Some((m, _)) if margin < *m => {}
            // A line that two readings make into one character each, as well, is left: one
            // character says too little to choose (`莠後�堺�����` is `輸出換列數` read as
            // EUC-JP, and `二` through Shift_JIS).
            Some((m, kept)) if margin == *m => {
                tied |= restored == 1 && kept.restored == 1 && kept.text != answer;
            }
            _ => {
                tied = false;
                best = Some((
                    margin,
                    Undone {
                        text: answer,
                        restored,
                        reading: r,
                    },
                ));
            }
        }
    }
    best.filter(|_| !tied).map(|(_, undone)| undone)
}

/// `text` with each run of `?` that touches a character beyond ASCII, each of two or more, and
/// each lone `?` between spaces that stands between words beyond ASCII, as as many U+FFFD, if
/// it has one and no U+FFFD: what a decoder that writes `?` for the bytes it lost showed as
/// gaps (a character lost whole between spaces is `??`, a word of one letter `?`), but for the
/// other lone `?` between ASCII, which text writes.
fn questions_as_gaps(text: &str) -> Option<String> {
    if text.contains('\u{FFFD}') || !text.contains('?') {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut at = 0;
    let mut changed = false;
    while at < chars.len() {
        if chars[at] != '?' {
            out.push(chars[at]);
            at += 1;
            continue;
        }
        let end = at + chars[at..].iter().take_while(|&&c| c == '?').count();
        let touches = |c: Option<&char>| c.is_some_and(|c| !c.is_ascii());
        let before = |back: usize| at.checked_sub(back).and_then(|i| chars.get(i));
        // A word of one letter lost whole, between words beyond ASCII (Ukrainian's `і`), whose
        // ends may be gaps too.
        let word_end = |c: Option<&char>| touches(c) || c == Some(&'?');
        let word = before(1) == Some(&' ')
            && chars.get(end) == Some(&' ')
            && word_end(before(2))
            && word_end(chars.get(end + 1));
        let gap = end - at > 1 || word || touches(before(1)) || touches(chars.get(end));
        changed |= gap;
        out.extend(std::iter::repeat_n(
            if gap { '\u{FFFD}' } else { '?' },
            end - at,
        ));
        at = end;
    }
    changed.then_some(out)
}

/// Whether `text` has a `?`, or a run of them, between two letters beyond ASCII, where no text
/// writes one.
fn question_inside_word(text: &str) -> bool {
    let letter = |c: Option<char>| c.is_some_and(|c| !c.is_ascii() && is_alphabetic(c));
    let mut chars = text.chars();
    let mut prev = None;
    while let Some(c) = chars.next() {
        if c == '?' && letter(prev) && letter(chars.clone().find(|&c| c != '?')) {
            return true;
        }
        prev = Some(c);
    }
    false
}

/// Whether the letters and CJK characters of `text` beyond ASCII are all of one script.
fn one_script(text: &str) -> bool {
    let mut scripts = text
        .chars()
        .filter(|&c| !c.is_ascii())
        .map(script)
        .filter(|&s| s != Script::Other && s != Script::Common);
    let first = scripts.next();
    scripts.all(|s| Some(s) == first)
}

/// How many ideographs of `text` are common in some encoding's text but stand beyond the first
/// level of reading `r`.
fn rare_here(text: &str, r: usize, tables: &Tables) -> u32 {
    let mut count = 0;
    for c in text.chars() {
        let cp = u32::from(c);
        if !(0x4E00..=0x9FFF).contains(&cp) || tables.class(c) & COMMON == 0 {
            continue;
        }
        let code = tables.code(c, r);
        count += u32::from(code >> 24 == 2 && !tables::is_common_pair(r, code & 0xFFFF));
    }
    count
}

/// Whether each character of `text` beyond ASCII is a word of its own (no letter or digit on
/// either side) and an ideograph that neither Chinese nor Japanese writes every day (beyond
/// GB2312's first level and JIS level 1), and each of `answer` a small Cyrillic letter alone
/// so: `%s 亳 %s` is `%s и %s` read as EUC-JP (Russian's words of one letter are its
/// conjunctions and prepositions), where a lone common ideograph is Chinese (`%s 于 %s`). The
/// caller asks it of lines that lost nothing: on a line with gaps, one letter is too little
/// to restore the rest by.
fn one_letter_words(text: &str, answer: &str, tables: &Tables) -> bool {
    // Their places in [`READINGS`].
    const GBK: usize = 0;
    const EUC_JP: usize = 4;
    let alone = |s: &str, ok: &dyn Fn(char) -> bool| {
        let mut prev = ' ';
        let mut chars = s.chars().peekable();
        let mut any = false;
        while let Some(c) = chars.next() {
            let next = chars.peek().copied().unwrap_or(' ');
            if !c.is_ascii() {
                if !ok(c) || prev.is_alphanumeric() || next.is_alphanumeric() {
                    return false;
                }
                any = true;
            }
            prev = c;
        }
        any
    };
    let uncommon = |c: char| {
        (0x4E00..=0x9FFF).contains(&u32::from(c))
            && [GBK, EUC_JP].iter().all(|&r| {
                let code = tables.code(c, r);
                !(code >> 24 == 2 && tables::is_common_pair(r, code & 0xFFFF))
            })
    };
    let small_cyrillic = |c: char| matches!(c, 'а'..='я');
    alone(text, &uncommon) && alone(answer, &small_cyrillic)
}

/// How many pairs of characters of `text` are, in reading `r`, the bytes of `«` and `»` with
/// nothing but ASCII between them (`束%s損` is `«%s»` read as EUC-JP): no text of the reading's
/// language quotes so.
fn guillemets(text: &str, r: usize, tables: &Tables) -> u32 {
    let code = |c: char| {
        (!c.is_ascii())
            .then(|| tables.row(c).map(|row| row[r]))
            .flatten()
    };
    let mut open = false;
    let mut count = 0;
    for c in text.chars() {
        match code(c) {
            None => {}
            Some(0x0200_C2AB) => open = true,
            Some(0x0200_C2BB) if open => {
                count += 1;
                open = false;
            }
            Some(_) => open = false,
        }
    }
    count
}

/// How many ideographs of `text` stand right before a hangul syllable, as much evidence as a
/// rare character each: what EUC-KR makes of the UTF-8 of CJK text (`鸚김뇰` is `失败`), whose
/// characters are all common ones; Korean text puts hangul after hanja only now and then, and
/// only an answer of common characters whose bytes are UTF-8 takes it.
fn hanja_before_hangul(text: &str) -> u32 {
    let mut prev = ' ';
    let mut count = 0;
    for c in text.chars() {
        count += u32::from(
            ('\u{4E00}'..='\u{9FFF}').contains(&prev) && ('\u{AC00}'..='\u{D7A3}').contains(&c),
        );
        prev = c;
    }
    count
}

/// How many pairs of [`filter::CYRILLIC_HANJA`] stand side by side in `text`, as much evidence
/// as a rare character each: what EUC-KR makes of Cyrillic words (`戟逵` is `на`).
fn cyrillic_hanja_pairs(text: &str) -> u32 {
    let mut prev = false;
    let mut count = 0;
    for c in text.chars() {
        let cur = filter::CYRILLIC_HANJA.binary_search(&c).is_ok();
        count += u32::from(prev && cur);
        prev = cur;
    }
    count
}

/// Whether `c` is ASCII, a CJK character, or a letter of the core of its alphabet: Latin-1's
/// and Latin Extended-A, Greek's, the Cyrillic letters Russian, Ukrainian, Belarusian, Serbian,
/// Macedonian and Bulgarian write.
fn is_core_letter(c: char) -> bool {
    matches!(u32::from(c), 0..=0x7F | 0xC0..=0x17F | 0x386..=0x3CE | 0x400..=0x45F | 0x490 | 0x491)
        || u32::from(c) >= 0x3000
}

#[cfg(test)]
mod tests;
