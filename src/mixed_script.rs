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

use std::collections::HashMap;
use std::sync::OnceLock;

use unicode_script::{Script, ScriptExtension, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use utf8kit_codec::words::WordRule;

/// The rule the scanner asks at the end of each word.
pub const RULE: WordRule = WordRule {
    is_word_char,
    is_mixed,
};

/// Whether a character is part of a word: a letter, a digit or a mark.
pub fn is_word_char(c: char) -> bool {
    let cp = u32::from(c);
    if cp < 0x80 {
        return c.is_ascii_alphanumeric();
    }
    match tables().word.get(cp as usize / 64) {
        Some(bits) => bits >> (cp % 64) & 1 == 1,
        None => is_word_char_slow(c),
    }
}

fn is_word_char_slow(c: char) -> bool {
    c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c)
}

/// The planes where most text lives, looked up without the Unicode tables' searches.
const TABLE_END: u32 = 0x2_0000;

/// The code points of a block that [`Tables::block_script`] describes at once.
const BLOCK: u32 = 16;

/// What is looked up for every character of every word, built once from the Unicode tables.
struct Tables {
    /// One bit a code point below [`TABLE_END`]: a word character.
    word: Vec<u64>,
    /// For each block of [`BLOCK`] code points below [`TABLE_END`]: the one script of its
    /// characters that are neither Common nor Inherited (kana as Hiragana), `Some(None)` when there is none, `None`
    /// when the block mixes scripts.
    block_script: Vec<Option<Option<Script>>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut word = vec![0u64; (TABLE_END / 64) as usize];
        let mut block_script = vec![Some(None); (TABLE_END / BLOCK) as usize];
        for c in (0..TABLE_END).filter_map(char::from_u32) {
            let cp = u32::from(c);
            if is_word_char_slow(c) {
                word[cp as usize / 64] |= 1 << (cp % 64);
            }
            // Hiragana and Katakana are one writing system: a block may hold both.
            let script = match c.script() {
                Script::Katakana => Script::Hiragana,
                script => script,
            };
            if is_neutral(script) {
                continue;
            }
            let block = &mut block_script[(cp / BLOCK) as usize];
            *block = match *block {
                Some(None) => Some(Some(script)),
                Some(Some(seen)) if seen == script => Some(Some(seen)),
                _ => None,
            };
        }
        Tables { word, block_script }
    })
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
    let blocks = &tables().block_script;
    let mut first: Option<Script> = None;
    let mut seen = 0u8;
    for c in word.chars() {
        let Some(&Some(script)) = blocks.get((u32::from(c) / BLOCK) as usize) else {
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
    look_alikes()
        .get(&skeleton(c))
        .is_some_and(|scripts| scripts.contains(&script))
}

/// For each skeleton that two or more letters share, the scripts of those letters: built once,
/// the first time a word fails the Highly Restrictive level.
fn look_alikes() -> &'static HashMap<String, Vec<Script>> {
    static TABLE: OnceLock<HashMap<String, Vec<Script>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut by_skeleton: HashMap<String, Vec<Script>> = HashMap::new();
        // The blocks of ideographs and syllables are left out: their characters look like no
        // letter of another script that a word could mix them with (and Han, kana and Hangul
        // mix with Latin freely).
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
        by_skeleton.retain(|_, scripts| scripts.len() > 1);
        by_skeleton
    })
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
}
