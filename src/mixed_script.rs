//! The `mixed-script` lint's Unicode rules (SPEC 1.6): which characters make words, which words
//! mix scripts that no writing system mixes, and what such a word imitates.
//!
//! The judgement is Unicode Technical Standard #39's, through the unicode-security and
//! unicode-script crates (script extensions, augmented script sets, confusable skeletons):
//!
//! - A word is a maximal run of letters, marks and digits (`char::is_alphanumeric`, or a
//!   combining mark). Its digits take part in no judgement: `১০x১১` is a size, not a word.
//! - Its letters' resolved script set is the intersection of their augmented script sets; Common
//!   and Inherited characters (`ー`, combining accents) belong to every script. A word whose set
//!   is not empty is single-script and passes.
//! - It passes at TR39's Highly Restrictive level when, leaving out its Latin letters, the rest
//!   is Japanese (Han, Hiragana, Katakana), Korean (Han, Hangul) or Han with Bopomofo.
//! - A word that fails is reported when it could pass for a word of one script (TR39's
//!   mixed-script confusable, letter by letter): some script of the word has a look-alike (the
//!   same skeleton) for each letter of the others. `pаypal` (its `а` is Latin `a`'s look-alike)
//!   and `Привeт` are; a Latin term with a suffix of a script that has no Latin look-alikes
//!   (`PNGရဲ့`, `Hyperإضافي`, as Tamil, Bengali, Myanmar and Arabic translations write) is not.
//! - After `%`, the letters of a printf conversion (`%s`, `%-17s`, `%2lu`) are no part of the
//!   word, nor after `\\` the letter of an escape: translations write `%sЗібрано`, `\\nкароткіх`.
//! - Chechen, Ingush and Avar write the palochka (`Ӏ`) with a Latin `I` or `l`: in an otherwise
//!   Cyrillic word those count as Cyrillic (`АфгIанистан`).
//!
//! - A unit symbol is no word: `μm`, `μA`, `kΩ`.
//!
//! TR39 judges words, so a whole word in one look-alike script (an all-Cyrillic `аре`) is
//! single-script and passes: no rule of this kind can tell it from a Russian word.
//!
//! ```
//! use utf8kit::mixed_script::{describe, is_mixed};
//! assert!(is_mixed("pаypal", b" "));
//! assert!(!is_mixed("東京タワーTV", b" "));
//! assert!(!is_mixed("sЗібрано", b"%"));
//! assert_eq!(describe("pаypal"), "'pаypal' mixes Latin and Cyrillic; it looks like 'paypal'");
//! ```

use std::sync::OnceLock;

use unicode_script::{Script, ScriptExtension, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use utf8kit_codec::quiet::{Home, Quiet, Zone};
use utf8kit_codec::words::WordRule;

mod look_alikes;

/// The rule the scanner asks at the end of each word.
pub const RULE: WordRule = WordRule {
    is_word_char,
    is_mixed,
    quiet: &QUIET,
};

/// The text whose words need no judging (see `utf8kit_codec::quiet`): the characters in no
/// word that text of every script uses, and the writing systems whose words mix no scripts
/// (their letters all of one script, Common and Inherited aside; or, for the systems that take
/// ASCII letters, Latin with Han and kana, or with Han and Hangul). The tests hold every
/// character of every zone to the Unicode data.
const QUIET: Quiet = Quiet::with_lanes(
    &[
        // General punctuation (dashes, quotes, the ellipsis), U+2000..U+203F.
        Zone::after(0xE2, 0x80, 0x80),
        // No-break space .. copyright sign, guillemets .. plus-minus, acute accent, pilcrow ..
        // cedilla, right guillemet, inverted question mark.
        Zone::after(0xC2, 0x80, 0xA9),
        Zone::after(0xC2, 0xAB, 0xB1),
        Zone::after(0xC2, 0xBB, 0xBB),
        Zone::after(0xC2, 0xB4, 0xB4),
        Zone::after(0xC2, 0xB6, 0xB8),
        Zone::after(0xC2, 0xBF, 0xBF),
        // Emoji and pictographs, U+1F300..U+1FAFF.
        Zone {
            lead: (0xF0, 0xF0),
            next: (0x9F, 0x9F),
            third: (0x8C, 0xAB),
        },
        // Box drawing, blocks, geometric shapes, symbols, dingbats (U+2500..U+2775), arrows
        // and symbols (U+2B00..U+2BFF).
        Zone::after(0xE2, 0x94, 0x9C),
        Zone::after_two(0xE2, 0x9D, 0x80, 0xB5),
        Zone::after(0xE2, 0xAC, 0xAF),
    ],
    &[
        // Latin: U+0080..U+033F (Latin-1 to the IPA, modifier letters, the first combining
        // marks) and U+1E00..U+1EFF (Vietnamese).
        Home {
            zones: &[Zone::leads(0xC2, 0xCC), Zone::after(0xE1, 0xB8, 0xBB)],
            takes_ascii: true,
        },
        // Cyrillic, U+0400..U+052F.
        single(&[Zone::leads(0xD0, 0xD3), Zone::after(0xD4, 0x80, 0xAF)]),
        // Greek, U+0370..U+03E1, U+03F0..U+03FF, U+1F00..U+1FFF.
        single(&[
            Zone::leads(0xCE, 0xCE),
            Zone::after(0xCF, 0x80, 0xA1),
            Zone::after(0xCD, 0xB0, 0xBF),
            Zone::after(0xCF, 0xB0, 0xBF),
            Zone::after(0xE1, 0xBC, 0xBF),
        ]),
        // Armenian, Hebrew, Arabic (with its supplement).
        single(&[
            Zone::leads(0xD5, 0xD5),
            Zone::after(0xD4, 0xB1, 0xBF),
            Zone::after(0xD6, 0x80, 0x8F),
        ]),
        single(&[Zone::leads(0xD7, 0xD7), Zone::after(0xD6, 0x91, 0xBF)]),
        single(&[Zone::leads(0xD8, 0xDB), Zone::after(0xDD, 0x90, 0xBF)]),
        // The scripts of India and South-East Asia, 128 code points each from U+0900.
        single(&[Zone::after(0xE0, 0xA4, 0xA5)]),
        single(&[Zone::after(0xE0, 0xA6, 0xA7)]),
        single(&[Zone::after(0xE0, 0xA8, 0xA9)]),
        single(&[Zone::after(0xE0, 0xAA, 0xAB)]),
        single(&[Zone::after(0xE0, 0xAC, 0xAD)]),
        single(&[Zone::after(0xE0, 0xAE, 0xAF)]),
        single(&[Zone::after(0xE0, 0xB0, 0xB1)]),
        single(&[Zone::after(0xE0, 0xB2, 0xB3)]),
        single(&[Zone::after(0xE0, 0xB4, 0xB5)]),
        single(&[Zone::after(0xE0, 0xB6, 0xB7)]),
        single(&[Zone::after(0xE0, 0xB8, 0xB9)]),
        single(&[Zone::after(0xE0, 0xBA, 0xBB)]),
        single(&[Zone::after(0xE0, 0xBC, 0xBF)]),
        // Myanmar, Georgian, Ethiopic, Khmer.
        single(&[Zone::after(0xE1, 0x80, 0x81)]),
        single(&[Zone::after(0xE1, 0x83, 0x83)]),
        single(&[Zone::after(0xE1, 0x88, 0x8D)]),
        single(&[Zone::after(0xE1, 0x9E, 0x9F)]),
        // Chinese and Japanese: Han, kana, CJK punctuation (the Hangul tone marks aside), the
        // fullwidth forms and halfwidth katakana.
        Home {
            zones: &[
                Zone::leads(0xE4, 0xE9),
                Zone::after(0xE3, 0x81, 0x83),
                Zone::after_two(0xE3, 0x80, 0x80, 0xAD),
                Zone::after(0xEF, 0xBC, 0xBD),
                Zone::after(0xE3, 0x90, 0xBF),
                Zone::after_two(0xE3, 0x80, 0xB0, 0xBF),
                Zone::after(0xE3, 0x87, 0x87),
                Zone::after(0xEF, 0xA4, 0xAB),
            ],
            takes_ascii: true,
        },
        // Korean: Hangul (syllables, jamo, compatibility and halfwidth jamo), Han, CJK
        // punctuation (the kana repeat marks aside) and the fullwidth forms.
        Home {
            zones: &[
                Zone::leads(0xEB, 0xEC),
                Zone::after(0xEA, 0xB0, 0xBF),
                Zone::after(0xED, 0x80, 0x9E),
                Zone::after_two(0xE3, 0x80, 0x80, 0xB0),
                Zone::leads(0xE4, 0xE9),
                Zone::after(0xEF, 0xBC, 0xBC),
                Zone::after_two(0xEF, 0xBD, 0x80, 0xA5),
                Zone::after(0xE1, 0x84, 0x87),
                Zone::after(0xE3, 0x85, 0x85),
                Zone::after_two(0xE3, 0x84, 0xB1, 0xBF),
                Zone::after_two(0xE3, 0x86, 0x80, 0x8E),
                Zone::after(0xE3, 0x90, 0xBF),
                Zone::after(0xEF, 0xA4, 0xAB),
                Zone::after_two(0xEF, 0xBE, 0xA0, 0xBF),
                Zone::after_two(0xEF, 0xBF, 0x80, 0x9C),
            ],
            takes_ascii: true,
        },
        // The variation selectors (an emoji's presentation, U+FE00..U+FE0F): marks of every
        // script, a word of no script on their own.
        Home {
            zones: &[Zone::after_two(0xEF, 0xB8, 0x80, 0x8F)],
            takes_ascii: true,
        },
    ],
    // The characters of Chinese, Japanese and Korean text, found a block at a time.
    &[
        // Han, U+4E00..U+9FFF, and its extension A, U+3400..U+3FFF; compatibility ideographs.
        Zone::leads(0xE4, 0xE9),
        Zone::after(0xE3, 0x90, 0xBF),
        Zone::after(0xEF, 0xA4, 0xAB),
        // Kana.
        Zone::after(0xE3, 0x81, 0x83),
        // CJK punctuation: the brackets and marks of both (U+3000..U+301F, U+3020..U+302D),
        // the kana repeat marks.
        Zone::after_two(0xE3, 0x80, 0x80, 0x9F),
        Zone::after_two(0xE3, 0x80, 0xA0, 0xAD),
        Zone::after_two(0xE3, 0x80, 0xB1, 0xBF),
        // Fullwidth forms, U+FF00..U+FF5F.
        Zone::after(0xEF, 0xBC, 0xBC),
        Zone::after_two(0xEF, 0xBD, 0x80, 0x9F),
        // Hangul syllables, U+AC00..U+D79F, and compatibility jamo, U+3150..U+317F.
        Zone::after(0xEA, 0xB0, 0xBF),
        Zone::leads(0xEB, 0xEC),
        Zone::after(0xED, 0x80, 0x8F),
        Zone::after(0xED, 0x90, 0x9E),
        Zone::after(0xE3, 0x85, 0x85),
        // General punctuation and box drawing, in no word.
        Zone::after(0xE2, 0x80, 0x80),
        Zone::after(0xE2, 0x94, 0x9C),
    ],
);

/// A writing system of one script that takes no ASCII letters into its words.
const fn single(zones: &'static [Zone]) -> Home {
    Home {
        zones,
        takes_ascii: false,
    }
}

/// Whether a character is part of a word: a letter, a digit or a mark.
pub fn is_word_char(c: char) -> bool {
    let cp = u32::from(c);
    if cp < 0x80 {
        return c.is_ascii_alphanumeric();
    }
    match chunk(cp) {
        Some(chunk) => chunk.word >> (cp % CHUNK) & 1 == 1,
        None => is_word_char_slow(c),
    }
}

fn is_word_char_slow(c: char) -> bool {
    c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c)
}

/// The planes where most text lives, looked up without the Unicode tables' searches.
const TABLE_END: u32 = 0x2_0000;

/// The code points a [`Chunk`] describes.
const CHUNK: u32 = 64;

/// The code points of a block that [`Chunk::block_script`] describes at once.
const BLOCK: u32 = 16;

/// What is looked up for every character of every word, for [`CHUNK`] code points below
/// [`TABLE_END`]: built from the Unicode tables the first time one of them is asked about, so
/// that a check pays only for the scripts its text uses.
struct Chunk {
    /// One bit a code point: a word character.
    word: u64,
    /// For each block of [`BLOCK`] code points: the one script of its characters that are
    /// neither Common nor Inherited (kana as Hiragana), `Some(None)` when there is none,
    /// `None` when the block mixes scripts.
    block_script: [Option<Option<Script>>; (CHUNK / BLOCK) as usize],
}

/// The chunk of `cp`, `None` past [`TABLE_END`].
fn chunk(cp: u32) -> Option<&'static Chunk> {
    static CHUNKS: [OnceLock<Chunk>; (TABLE_END / CHUNK) as usize] =
        [const { OnceLock::new() }; (TABLE_END / CHUNK) as usize];
    let first = cp / CHUNK * CHUNK;
    let cell = CHUNKS.get((cp / CHUNK) as usize)?;
    Some(cell.get_or_init(|| {
        let mut chunk = Chunk {
            word: 0,
            block_script: [Some(None); (CHUNK / BLOCK) as usize],
        };
        for c in (first..first + CHUNK).filter_map(char::from_u32) {
            let cp = u32::from(c);
            if is_word_char_slow(c) {
                chunk.word |= 1 << (cp % CHUNK);
            }
            // Hiragana and Katakana are one writing system: a block may hold both.
            let script = match c.script() {
                Script::Katakana => Script::Hiragana,
                script => script,
            };
            if is_neutral(script) {
                continue;
            }
            let block = &mut chunk.block_script[(cp % CHUNK / BLOCK) as usize];
            *block = match *block {
                Some(None) => Some(Some(script)),
                Some(Some(seen)) if seen == script => Some(Some(seen)),
                _ => None,
            };
        }
        chunk
    }))
}

/// The letters and marks of a word, without its digits and without the letters that belong to
/// what comes before it: a printf conversion (`%s`, `%-17s`, `%2lu`) or a backslash escape
/// (`\\n`, `\\x`).
fn letters(word: &str, before: &[u8]) -> Vec<char> {
    let mut rest = word;
    let flags = before
        .iter()
        .rev()
        .take_while(|b| b"-+ #0'".contains(b) || b.is_ascii_digit())
        .count();
    if before[..before.len() - flags].ends_with(b"%") {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '$');
        rest = rest.trim_start_matches(['h', 'l', 'L', 'q', 'j', 'z', 't']);
        if rest.starts_with(|c: char| "diouxXeEfFgGaAcspnS".contains(c)) {
            rest = &rest[1..];
        }
    } else if before.ends_with(b"\\") && rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
        rest = &rest[1..];
    }
    let letters: Vec<char> = rest.chars().filter(|c| !c.is_numeric()).collect();
    // Chechen, Ingush, Avar and other Caucasian languages write the palochka (Ӏ) with a Latin
    // capital I or small l: in an otherwise Cyrillic word, those are Cyrillic.
    let cyrillic = |c: &char| c.script() == Script::Cyrillic;
    let palochka = |c: &char| matches!(c, 'I' | 'l');
    if letters.iter().any(cyrillic)
        && letters
            .iter()
            .all(|c| cyrillic(c) || palochka(c) || !c.is_alphabetic())
    {
        return letters
            .into_iter()
            .map(|c| if palochka(&c) { '\u{4C0}' } else { c })
            .collect();
    }
    letters
}

/// Whether a word mixes scripts that no writing system mixes (TR39, Highly Restrictive) and
/// could pass for a word of one script; `before` holds the bytes right before it.
pub fn is_mixed(word: &str, before: &[u8]) -> bool {
    if passes_at_a_glance(word) {
        return false;
    }
    let letters = letters(word, before);
    fails_highly_restrictive(&letters)
        && is_confusable(&letters)
        && !is_unit(&letters)
        && !is_key_list(&letters)
}

/// Whether letters are the keys that answer a prompt, each in its small and its capital form
/// (`yYдД` for yes in English and Russian, `nNнНхХ`): a list, not a word.
fn is_key_list(letters: &[char]) -> bool {
    letters.len() >= 4
        && letters.len().is_multiple_of(2)
        && letters.chunks_exact(2).all(|pair| {
            pair[0].is_lowercase() && pair[0].to_uppercase().eq(std::iter::once(pair[1]))
        })
}

/// Whether a word is plainly single-script, or Japanese or Korean with Latin, judged from the
/// blocks of its characters alone: a character in a block of mixed scripts, or past the table,
/// sends the word to the full rule.
fn passes_at_a_glance(word: &str) -> bool {
    let mut first: Option<Script> = None;
    let mut seen = 0u8;
    for c in word.chars() {
        let cp = u32::from(c);
        let Some(Some(script)) =
            chunk(cp).map(|chunk| chunk.block_script[(cp % CHUNK / BLOCK) as usize])
        else {
            return false;
        };
        let Some(script) = script else { continue };
        seen |= match script {
            Script::Latin => 1,
            Script::Han => 2,
            Script::Hiragana | Script::Katakana => 4,
            Script::Hangul => 8,
            _ => 16,
        };
        match first {
            None => first = Some(script),
            Some(s) if s == script => {}
            Some(_) if seen & 16 != 0 => return false,
            Some(_) => {}
        }
    }
    seen & 16 == 0 && seen & 12 != 12 || seen.count_ones() <= 1
}

/// Whether letters are a unit symbol with a Greek letter: the SI prefix micro before a unit
/// (`μm`, `μA`), or ohm after a prefix (`kΩ`, `MΩ`).
fn is_unit(letters: &[char]) -> bool {
    match letters {
        ['\u{3BC}', unit @ ..] => {
            (1..=3).contains(&unit.len()) && unit.iter().all(char::is_ascii_alphabetic)
        }
        [prefix, '\u{3A9}' | '\u{2126}'] => prefix.is_ascii_alphabetic(),
        _ => false,
    }
}

/// Whether letters fail TR39's Highly Restrictive level.
fn fails_highly_restrictive(letters: &[char]) -> bool {
    let mut all = AugmentedScriptSet::default();
    let mut without_latin = AugmentedScriptSet::default();
    for &c in letters {
        let set = AugmentedScriptSet::for_char(c);
        all.intersect_with(set);
        if !set.base.contains_script(Script::Latin) {
            without_latin.intersect_with(set);
        }
    }
    all.is_empty() && !(without_latin.jpan || without_latin.kore || without_latin.hanb)
}

/// Whether some script of the letters has a look-alike for each letter of the others.
fn is_confusable(letters: &[char]) -> bool {
    let scripts = scripts(&letters.iter().collect::<String>());
    scripts.iter().any(|&script| {
        letters.iter().all(|&c| {
            let ext = ScriptExtension::from(c);
            ext.is_common()
                || ext.is_inherited()
                || ext.contains_script(script)
                || has_look_alike(c, script)
        })
    })
}

/// The skeleton of one character (TR39).
fn skeleton(c: char) -> String {
    let mut buf = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut buf)).collect()
}

/// Whether a letter of `script` has the same skeleton as `c`.
fn has_look_alike(c: char, script: Script) -> bool {
    let skeleton = skeleton(c);
    look_alikes::BY_SKELETON
        .binary_search_by(|(other, _)| other.cmp(&skeleton.as_str()))
        .is_ok_and(|i| look_alikes::BY_SKELETON[i].1.contains(&script))
}

/// Common, Inherited and unassigned characters: they take the script of the word they are in.
fn is_neutral(script: Script) -> bool {
    matches!(script, Script::Common | Script::Inherited | Script::Unknown)
}

/// The scripts of a word's characters in the order they first appear, Common and Inherited
/// left out.
pub fn scripts(word: &str) -> Vec<Script> {
    let mut scripts = Vec::new();
    for c in word.chars() {
        let script = c.script();
        if !is_neutral(script) && !scripts.contains(&script) {
            scripts.push(script);
        }
    }
    scripts
}

/// The all-ASCII word a mixed word imitates: each character outside ASCII replaced by its TR39
/// prototype, when every prototype is ASCII (`pаypal` gives `paypal`). The ASCII letters stay
/// as they are (TR39's skeleton would also turn `m` into `rn`).
pub fn look_alike(word: &str) -> Option<String> {
    let mut ascii = String::with_capacity(word.len());
    let mut buf = [0u8; 4];
    for c in word.chars() {
        if c.is_ascii() {
            ascii.push(c);
            continue;
        }
        let start = ascii.len();
        ascii.extend(unicode_security::skeleton(c.encode_utf8(&mut buf)));
        if !ascii[start..].is_ascii() || ascii.len() == start {
            return None;
        }
    }
    Some(ascii)
}

/// Names a list: `Latin`, `Latin and Cyrillic`, `Latin, Greek and Cyrillic`.
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The message of a `mixed-script` finding: the word, its scripts and, where there is one, the
/// ASCII word it imitates.
pub fn describe(word: &str) -> String {
    let names: Vec<&str> = scripts(word).iter().map(|s| s.full_name()).collect();
    let mut message = format!("'{word}' mixes {}", list(&names));
    if let Some(ascii) = look_alike(word) {
        message.push_str(&format!("; it looks like '{ascii}'"));
    }
    message
}

/// For each character of a mixed word, its script's name when it is not the script most of the
/// word's letters are in (the first such script on a tie), else `None`: the odd letters utf8dump
/// marks.
pub fn odd_letters(word: &str) -> Vec<(char, Option<&'static str>)> {
    let scripts = scripts(word);
    let count = |script: Script| word.chars().filter(|c| c.script() == script).count();
    let main = scripts.iter().copied().rev().max_by_key(|&s| count(s));
    word.chars()
        .map(|c| {
            let script = c.script();
            let odd = !is_neutral(script) && Some(script) != main;
            (c, odd.then(|| script.full_name()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_mix_scripts() {
        for word in [
            "pаypal",
            "ѕudo",
            "admіn",
            "Тoyota",
            "αpple",
            "gοogle",
            "Привeт",
            "ԁοg",
            "sЗібрано",
        ] {
            assert!(is_mixed(word, b" "), "{word}");
        }
    }

    #[test]
    fn words_that_do_not() {
        for word in [
            "paypal",
            "Привет",
            "Ελλάδα",
            "東京タワー",
            "Tシャツ",
            "漢字かなカナABC",
            "한국語",
            "中文ㄅㄆ",
            "Naïve",
            "café",
            "x2",
            "٣٤",
            "ÀÉ",
            "ー",
            "ab\u{301}c",
            "日本語123",
            "Straße",
            "İstanbul",
            "ǅemal",
            "১০x১১",
            "PNGရဲ့",
            "Hyperإضافي",
            "winxp2",
            "μm",
            "μA",
            "kΩ",
            "MΩ",
        ] {
            assert!(!is_mixed(word, b" "), "{word}");
        }
        for (before, word) in [
            (&b"%"[..], "sЗібрано"),
            (b"x %", "liч"),
            (b"%", "dஐ"),
            (b"%-", "17sвключить"),
            (b"%", "2luс"),
            (b"\\", "nкароткіх"),
            (b" ", "АфгIанистан"),
            (b" ", "Хlоьттина"),
        ] {
            assert!(!is_mixed(word, before), "{word}");
        }
        // Without what comes before, the same words mix scripts.
        assert!(is_mixed("sЗібрано", b" ") && is_mixed("nкароткіх", b""));
    }

    #[test]
    fn messages() {
        assert_eq!(
            describe("pаypal"),
            "'pаypal' mixes Latin and Cyrillic; it looks like 'paypal'"
        );
        assert_eq!(
            describe("admіn"),
            "'admіn' mixes Latin and Cyrillic; it looks like 'admin'"
        );
        assert_eq!(describe("xмир"), "'xмир' mixes Latin and Cyrillic");
        assert_eq!(
            describe("gοοgleя"),
            "'gοοgleя' mixes Latin, Greek and Cyrillic"
        );
        assert_eq!(
            odd_letters("pаy"),
            [('p', None), ('а', Some("Cyrillic")), ('y', None)]
        );
        assert_eq!(
            odd_letters("ѕu"),
            [('ѕ', None), ('u', Some("Latin"))],
            "a tie goes to the first script"
        );
        assert_eq!(odd_letters("ѕudo")[0], ('ѕ', Some("Cyrillic")));
    }

    #[test]
    fn key_lists_are_no_words() {
        for keys in ["yYдД", "yYдДщЩ", "nNнНхХ", "yYνΝ"] {
            assert!(!is_mixed(keys, b""), "{keys}");
        }
        // A word is still judged: one pair is no list, nor are capitals alone.
        for word in ["pаypal", "уY", "YДNН", "yYдДa"] {
            assert_eq!(is_mixed(word, b""), is_mixed_but_keys(word), "{word}");
        }
        assert!(is_mixed("pаypal", b""));
    }

    /// The rule without the key-list exception.
    fn is_mixed_but_keys(word: &str) -> bool {
        let letters = letters(word, b"");
        !passes_at_a_glance(word)
            && fails_highly_restrictive(&letters)
            && is_confusable(&letters)
            && !is_unit(&letters)
    }

    #[test]
    fn a_glance_agrees_with_the_full_rule() {
        for word in [
            "paypal",
            "Привет",
            "東京タワーTV",
            "한국語abc",
            "Ελλάδα",
            "pаypal",
            "Привeт",
            "カナ한",
            "αpple",
            "ภาษาไทย",
            "ქართული",
            "Tシャツ",
        ] {
            if passes_at_a_glance(word) {
                assert!(
                    !fails_highly_restrictive(&word.chars().collect::<Vec<_>>()),
                    "{word}"
                );
            }
        }
        assert!(passes_at_a_glance("Привет") && passes_at_a_glance("東京タワーTV"));
        assert!(!passes_at_a_glance("pаypal") && !passes_at_a_glance("カナ한"));
    }

    #[test]
    fn the_word_table_agrees_with_the_unicode_tables() {
        for c in (0..=0x3_FFFF).filter_map(char::from_u32) {
            assert_eq!(
                is_word_char(c),
                is_word_char_slow(c),
                "U+{:04X}",
                u32::from(c)
            );
        }
    }

    #[test]
    fn word_characters() {
        assert!(is_word_char('a') && is_word_char('я') && is_word_char('7'));
        assert!(is_word_char('\u{301}') && is_word_char('\u{94D}'));
        assert!(!is_word_char('-') && !is_word_char(' ') && !is_word_char('\u{200B}'));
    }

    /// The characters of a zone: every scalar value whose first three UTF-8 bytes it holds.
    fn zone_chars(zone: &Zone) -> impl Iterator<Item = char> + '_ {
        (0x80..=0x10_FFFF).filter_map(char::from_u32).filter(|c| {
            let mut buf = [0u8; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            zone.holds([bytes[0], bytes[1], *bytes.get(2).unwrap_or(&0)])
        })
    }

    #[test]
    fn every_neutral_character_is_in_no_word() {
        for zone in QUIET.neutral {
            assert!(zone.lead.0 >= 0xC2, "{zone:?}");
            for c in zone_chars(zone) {
                assert!(!is_word_char(c), "U+{:04X} in {zone:?}", u32::from(c));
            }
        }
    }

    #[test]
    fn the_letters_of_a_home_make_words_that_mix_nothing() {
        for home in QUIET.homes {
            let letters: Vec<char> = home
                .zones
                .iter()
                .flat_map(zone_chars)
                .filter(|&c| is_word_char(c) && !c.is_numeric())
                .collect();
            assert!(!letters.is_empty(), "{home:?}");
            // The script every letter of a home of one script has.
            let script = letters
                .iter()
                .map(|&c| c.script())
                .find(|&s| !is_neutral(s));
            for &c in &letters {
                let set = AugmentedScriptSet::for_char(c);
                let fits = if !home.takes_ascii {
                    script.is_some_and(|s| set.base.contains_script(s))
                } else if script == Some(Script::Latin) {
                    set.base.contains_script(Script::Latin)
                } else if letters.contains(&'가') {
                    set.base.contains_script(Script::Latin) || set.kore
                } else {
                    set.base.contains_script(Script::Latin) || set.jpan
                };
                assert!(fits, "U+{:04X} in {home:?}", u32::from(c));
                assert!(home.zones.iter().all(|z| z.lead.0 >= 0xC2));
            }
        }
    }

    #[test]
    fn text_read_a_block_at_a_time_gives_the_findings_of_every_word_judged() {
        // Each line: one writing system, with the punctuation and ASCII around it; a mixed
        // word (or one that is not) somewhere in a long stretch of it.
        let lines = [
            "«Привет», мир — это тест; ещё раз: всё хорошо (10 МБ) ",
            "Ελλάδα και Κύπρος, «δοκιμή» — άλλη μία φορά ",
            "日本語のテキスト、東京タワーTVとカタカナ。「テスト」 ",
            "한국어 텍스트, 漢字와 함께 ABC 테스트입니다. ",
            "café naïve übergroß Straße — déjà vu ",
            "हिन्दी पाठ का परीक्षण, एक और ",
            "ภาษาไทย ทดสอบ ",
        ];
        for line in lines {
            for odd in [
                "pаypal",
                "Привeт",
                "αpple",
                "wоrd1",
                "カナ한",
                "1мир",
                "%sЗібрано",
            ] {
                let text = format!("{}{odd} {}", line.repeat(9), line.repeat(9));
                let words = mixed_words(&text, &QUIET);
                assert_eq!(words, mixed_words(&text, &Quiet::NONE), "{odd} in {line}");
                let at = line.len() * 9;
                if ["pаypal", "Привeт", "αpple", "wоrd1"].contains(&odd) {
                    assert_eq!(words, [(at, odd.to_owned())], "{odd} in {line}");
                }
            }
        }
    }

    /// Random text of pieces of many scripts, joined with and without spaces and punctuation
    /// (so that words of one script, of two, and of a script and ASCII arise everywhere, on
    /// either side of a block's edge): read a block at a time, the findings are those of every
    /// word judged.
    #[test]
    fn random_text_of_many_scripts_gives_the_findings_of_every_word_judged() {
        let pieces = [
            "мир",
            "Привет",
            "р",
            "café",
            "é",
            "naïve",
            "日本",
            "カナ",
            "漢",
            "한국",
            "글",
            "Ελλάδα",
            "α",
            "עברית",
            "عربي",
            "हिन्दी",
            "ไทย",
            "abc",
            "x",
            "7",
            "ª",
            "µ",
            "\u{301}",
            "\u{2116}",
            "ｔｅｓｔ",
            "ｶﾅ",
            "paper",
            "coca",
            "\u{440}\u{430}",
            "\u{441}\u{43E}",
            "\u{3BF}\u{3BD}",
        ];
        let joints = [
            "", "", "", " ", " ", "«", "» ", "—", "、", "\n", "-", "%s", "\u{A0}",
        ];
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as usize % n
        };
        let mut found = 0;
        for _ in 0..1000 {
            let mut text = String::new();
            // Long stretches of one script, then pieces of any.
            let home = pieces[next(pieces.len())];
            for _ in 0..next(60) {
                text += home;
                text += [" ", ", "][next(2)];
            }
            for _ in 0..next(120) {
                text += pieces[next(pieces.len())];
                text += joints[next(joints.len())];
            }
            let words = mixed_words(&text, &QUIET);
            assert_eq!(words, mixed_words(&text, &Quiet::NONE), "{text}");
            found += words.len();
        }
        assert!(found > 1000, "{found} mixed words");
    }

    /// A word whose letters of one script end a block and whose letters of another begin the
    /// next, wherever the edge falls in it, is found.
    #[test]
    fn a_word_that_changes_script_at_a_block_edge_is_found() {
        for word in ["оооοοο", "éééооо", "ρρρааа", "сссοοο"] {
            for shift in 0..80 {
                let text = format!(
                    "{}{} {word}{}",
                    "мир ".repeat(30),
                    "ж".repeat(shift),
                    " мир".repeat(30)
                );
                let words = mixed_words(&text, &QUIET);
                assert_eq!(
                    words,
                    mixed_words(&text, &Quiet::NONE),
                    "{word} after {shift}"
                );
                assert_eq!(words.len(), 1, "{word} after {shift}");
            }
        }
    }

    /// The `mixed-script` findings of `text`, as offset and word, read in chunks of 4 KiB
    /// (`Config` with only that lint, and this module's rule with `quiet`).
    fn mixed_words(text: &str, quiet: &'static Quiet) -> Vec<(usize, String)> {
        use std::ops::ControlFlow;
        use utf8kit_codec::{Config, Finding, LintSet, Policy, Scanner, Sink};
        struct Found(Vec<(usize, String)>);
        impl Sink for Found {
            fn finding(&mut self, f: &Finding<'_>) -> ControlFlow<()> {
                let word = String::from_utf8_lossy(f.bytes).into_owned();
                self.0.push((f.position.byte_offset as usize, word));
                ControlFlow::Continue(())
            }
        }
        let mut scanner = Scanner::new(Config {
            policy: Policy::STRICT,
            lints: LintSet::parse("mixed-script").unwrap(),
            foreign_bom: false,
            words: Some(WordRule { quiet, ..RULE }),
        });
        let mut found = Found(Vec::new());
        let chunks: Vec<&[u8]> = text.as_bytes().chunks(4096).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let _ = scanner.feed(chunk, i + 1 == chunks.len(), &mut found);
        }
        found.0
    }

    /// For each skeleton that letters of two or more scripts share, those scripts in the
    /// order of their first letter: what `look_alikes.rs` holds. The blocks of ideographs and
    /// syllables are left out: their characters look like no letter of another script that a
    /// word could mix them with (and Han, kana and Hangul mix with Latin freely).
    fn look_alikes_from_the_unicode_data() -> Vec<(String, Vec<Script>)> {
        let mut by_skeleton: std::collections::BTreeMap<String, Vec<Script>> = Default::default();
        let letters = (0..=0x1_FFFF)
            .filter(|cp| {
                !matches!(cp, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA48F
                    | 0xAC00..=0xD7A3 | 0x1_7000..=0x1_8AFF | 0x1_B000..=0x1_B2FF)
            })
            .filter_map(char::from_u32)
            .filter(|c| c.is_alphabetic());
        for c in letters {
            let script = c.script();
            let scripts = by_skeleton.entry(skeleton(c)).or_default();
            if !scripts.contains(&script) {
                scripts.push(script);
            }
        }
        by_skeleton
            .into_iter()
            .filter(|(_, scripts)| scripts.len() > 1)
            .collect()
    }

    /// `look_alikes.rs` is the Unicode data's table; with `UTF8KIT_REGENERATE=1` this test
    /// writes it (after an update of unicode-security or unicode-script).
    #[test]
    fn the_look_alike_table_is_the_unicode_datas() {
        let mut source = String::from(
            "// Generated by the test `the_look_alike_table_is_the_unicode_datas` (run it with\n\
             // UTF8KIT_REGENERATE=1) from unicode-security's skeletons; do not edit.\n\n\
             use unicode_script::Script;\n\n\
             /// Each skeleton that letters of two or more scripts share, sorted, with those\n\
             /// scripts.\n\
             #[rustfmt::skip]\n\
             pub(super) const BY_SKELETON: &[(&str, &[Script])] = &[\n",
        );
        for (skeleton, scripts) in look_alikes_from_the_unicode_data() {
            let scripts: Vec<String> = scripts.iter().map(|s| format!("Script::{s:?}")).collect();
            source += &format!("    ({skeleton:?}, &[{}]),\n", scripts.join(", "));
        }
        source += "];\n";
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/mixed_script/look_alikes.rs"
        );
        if std::env::var_os("UTF8KIT_REGENERATE").is_some() {
            std::fs::write(path, &source).unwrap();
        }
        assert!(
            std::fs::read_to_string(path).unwrap() == source,
            "{path} is not what the Unicode data gives: run this test with UTF8KIT_REGENERATE=1"
        );
    }
}
