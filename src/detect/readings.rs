//! A candidate encoding's reading of the evidence, judged as text: letters that fit a language, anomalies.

use super::*;
use utf8kit_mojibake::scripts::{Script, breaks_case, script};

/// A final form, which ends a word and only a word: Greek ς, Hebrew ך ם ן ף ץ.
fn is_final_form(c: char) -> bool {
    matches!(c, 'ς' | 'ך' | 'ם' | 'ן' | 'ף' | 'ץ')
}

/// Symbols that may stand between two letters of a word.
pub(super) fn joins_words(c: char) -> bool {
    matches!(
        c,
        '\u{2019}' | '\u{2018}' | '\u{B7}' | '\u{AD}' | '\u{2010}' | '\u{2011}' | '\u{A0}'
    )
}

/// One candidate's reading of the evidence.
pub(super) struct Reading {
    pub(super) candidate: &'static Candidate,
    /// The candidate's place in [`CANDIDATES`]: the earlier wins a tie.
    pub(super) index: usize,
    pub(super) text: String,
    /// Non-ASCII letters.
    pub(super) letters: usize,
    /// Non-ASCII letters in the alphabet of the best-fitting language, in one-script words.
    pub(super) fits: usize,
    /// Lowercase non-ASCII letters.
    pub(super) lowercase: usize,
    /// Uppercase non-ASCII letters.
    pub(super) uppercase: usize,
    /// Distinct CJK characters (for a CJK candidate).
    pub(super) distinct_cjk: usize,
    /// Final forms where they belong, at the end of a word: evidence for Greek and Hebrew.
    pub(super) finals: usize,
    pub(super) anomalies: usize,
}

impl Reading {
    pub(super) fn of(index: usize, sample: &[u8]) -> Reading {
        let candidate = &CANDIDATES[index];
        let (text, _) = candidate.encoding.decode_without_bom_handling(sample);
        let text = text.into_owned();
        let mut reading = Reading {
            candidate,
            index,
            text: String::new(),
            letters: 0,
            fits: 0,
            lowercase: 0,
            uppercase: 0,
            distinct_cjk: 0,
            finals: 0,
            anomalies: 0,
        };
        let is_cjk = !candidate.single_byte;
        let masks = letter_languages_of(index);
        let mut hits = vec![0usize; candidate.languages.len()];
        let mut seen = std::collections::HashSet::new();
        let mut letters = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        // Whether each character is alphabetic, looked up once: the word rules below ask again
        // and again, and a lookup outside ASCII is a table search.
        let alpha: Vec<bool> = chars.iter().map(|&c| is_alphabetic(c)).collect();
        let is_letter = |j: usize| alpha[j] || is_mark(chars[j]);
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if is_letter(i) && !(is_cjk && script(c) == Script::Cjk) {
                // A word: letters and marks, with the symbols that join words.
                let start = i;
                while i < chars.len()
                    && (is_letter(i)
                        || (joins_words(chars[i])
                            && i + 1 < chars.len()
                            && is_letter(i + 1)
                            && i > start))
                    && !(is_cjk && script(chars[i]) == Script::Cjk)
                {
                    i += 1;
                }
                let word = &chars[start..i];
                // The word's alphabetic characters.
                letters.clear();
                letters.extend((start..i).filter(|&j| alpha[j]).map(|j| chars[j]));
                let is_one_script = letters
                    .split_first()
                    .is_none_or(|(&first, rest)| rest.iter().all(|&c| script(c) == script(first)));
                // A letter on its own (a keymap, a table of characters) says nothing of the
                // language: only words of two letters or more are evidence.
                let is_word = letters.len() >= 2;
                for &c in letters.iter().filter(|c| !c.is_ascii() && is_word) {
                    reading.letters += 1;
                    reading.lowercase += usize::from(utf8kit_mojibake::letters::is_lowercase(c));
                    reading.uppercase += usize::from(utf8kit_mojibake::letters::is_uppercase(c));
                    if !is_one_script || matches!(script(c), Script::Other | Script::Common) {
                        continue;
                    }
                    // Most letters are lowercase already: std's case tables only for the rest.
                    let lower = if utf8kit_mojibake::letters::is_lowercase(c) {
                        c
                    } else {
                        c.to_lowercase().next().unwrap_or(c)
                    };
                    let mut languages = languages_with(masks, lower);
                    if c == 'İ' {
                        languages |= languages_with(masks, 'ı');
                    }
                    while languages != 0 {
                        hits[languages.trailing_zeros() as usize] += 1;
                        languages &= languages - 1;
                    }
                }
                if !is_one_script {
                    reading.anomalies += 1;
                }
                // Final forms end words and only they do: Greek ς and σ, Hebrew ך ם ן ף ץ (a
                // Russian т read in windows-1253 is ς in mid-word).
                if letters.len() >= 2 {
                    let (last, inner) = letters.split_last().expect("two letters");
                    reading.anomalies += inner.iter().filter(|&&c| is_final_form(c)).count();
                    reading.anomalies += usize::from(*last == 'σ');
                    reading.finals += usize::from(is_final_form(*last));
                }
                // A capital after a small letter, one of them not ASCII (`żQué` is `¿Qué` read
                // in the wrong code page; `пРИВЕТ` is KOI8-R read as windows-1251).
                reading.anomalies += word
                    .windows(2)
                    .filter(|pair| breaks_case(pair[0], pair[1]))
                    .count();
                // A symbol right after a word and right before the next letter sits inside it;
                // but Chinese and Japanese write their punctuation (`、`, `。`, full-width
                // signs) against Latin words too (`Palm、PPC`).
                if i + 1 < chars.len()
                    && !chars[i].is_ascii()
                    && !alpha[i]
                    && !chars[i].is_whitespace()
                    && is_letter(i + 1)
                    && !joins_words(chars[i])
                    && !(is_cjk && is_cjk_punctuation(chars[i]))
                {
                    reading.anomalies += 1;
                }
                continue;
            }
            if is_cjk && script(c) == Script::Cjk {
                if alpha[i] {
                    reading.letters += 1;
                    reading.fits += 1;
                    seen.insert(c);
                }
            } else if c == '\u{FFFD}'
                || (c.is_control() && !c.is_ascii())
                || Lint::classify(u32::from(c), 0) == Some(Lint::PrivateUse)
            {
                reading.anomalies += 1;
            }
            i += 1;
        }
        if !is_cjk {
            reading.fits = hits.into_iter().max().unwrap_or(0);
        }
        reading.distinct_cjk = seen.len();
        reading.text = text;
        reading
    }

    pub(super) fn net(&self) -> i64 {
        (self.fits + self.finals) as i64
            - (self.letters - self.fits) as i64
            - 2 * self.anomalies as i64
    }

    pub(super) fn fit(&self) -> f64 {
        (self.fits as f64 - self.anomalies as f64) / ((self.letters + self.anomalies).max(1) as f64)
    }

    /// Orders readings: the higher `net`, then fewer capitals, then the earlier candidate.
    pub(super) fn rank(&self, other: &Reading) -> std::cmp::Ordering {
        self.net()
            .cmp(&other.net())
            .then(other.uppercase.cmp(&self.uppercase))
            .then(other.index.cmp(&self.index))
    }
}

/// The alphabets ([`alphabet`]) of the languages of the candidate at `index`, each sorted for a
/// binary search, built once: a `str::contains` per letter and language was a fifth of the
/// hint's time, and sorting each alphabet for each reading of each input a tenth.
pub(super) fn alphabets_of(index: usize) -> &'static [Vec<char>] {
    static ALPHABETS: std::sync::OnceLock<Vec<Vec<Vec<char>>>> = std::sync::OnceLock::new();
    &ALPHABETS.get_or_init(|| {
        CANDIDATES
            .iter()
            .map(|candidate| {
                candidate
                    .languages
                    .iter()
                    .map(|l| {
                        let mut letters: Vec<char> = alphabet(l).chars().collect();
                        letters.sort_unstable();
                        letters
                    })
                    .collect()
            })
            .collect()
    })[index]
}

/// For each letter of the alphabets of the candidate at `index`, the languages (bit `k` for
/// the candidate's `k`-th) whose alphabet holds it, sorted by letter: one binary search a letter
/// instead of one a language.
fn letter_languages_of(index: usize) -> &'static [(char, u32)] {
    static MASKS: std::sync::OnceLock<Vec<Vec<(char, u32)>>> = std::sync::OnceLock::new();
    &MASKS.get_or_init(|| {
        (0..CANDIDATES.len())
            .map(|index| {
                let mut masks: Vec<(char, u32)> = Vec::new();
                for (k, alphabet) in alphabets_of(index).iter().enumerate() {
                    for &c in alphabet {
                        match masks.iter_mut().find(|(letter, _)| *letter == c) {
                            Some((_, mask)) => *mask |= 1 << k,
                            None => masks.push((c, 1 << k)),
                        }
                    }
                }
                masks.sort_unstable();
                masks
            })
            .collect()
    })[index]
}

/// The languages whose alphabet holds `c`, from [`letter_languages_of`].
fn languages_with(masks: &[(char, u32)], c: char) -> u32 {
    masks
        .binary_search_by_key(&c, |&(letter, _)| letter)
        .map_or(0, |i| masks[i].1)
}

/// The punctuation of Chinese, Japanese and Korean text: the CJK symbols and punctuation block
/// and the full-width forms.
fn is_cjk_punctuation(c: char) -> bool {
    matches!(u32::from(c), 0x3000..=0x303F | 0xFF01..=0xFF65 | 0x30FB)
}

pub(super) fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x300..=0x36F | 0x591..=0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0x670 | 0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E)
}
