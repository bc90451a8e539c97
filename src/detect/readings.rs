//! A candidate encoding's reading of the evidence, judged as text: letters that fit a language, anomalies.

use super::*;
use utf8kit_mojibake::scripts::{Script, breaks_case, script};

/// A final form, which ends a word and only a word: Greek ς, Hebrew ך ם ן ף ץ.
fn is_final_form(c: char) -> bool {
    matches!(c, 'ς' | 'ך' | 'ם' | 'ן' | 'ף' | 'ץ')
}

/// Symbols that may stand between two letters of a word (Hebrew's geresh and gershayim too:
/// `ג׳רש`, `צה״ל`).
pub(super) fn joins_words(c: char) -> bool {
    matches!(
        c,
        '\u{2019}'
            | '\u{2018}'
            | '\u{B7}'
            | '\u{AD}'
            | '\u{2010}'
            | '\u{2011}'
            | '\u{A0}'
            | '\u{5F3}'
            | '\u{5F4}'
    )
}

/// One candidate's reading of the evidence.
pub(super) struct Reading {
    pub(super) candidate: &'static Candidate,
    /// The candidate's place in [`CANDIDATES`]: the earlier wins a tie.
    pub(super) index: usize,
    /// The byte values the sample holds, a bit each: two single-byte readings read it alike
    /// when their candidates read each of them alike ([`Reading::reads_like`]).
    bytes: [u64; 4],
    /// Non-ASCII letters.
    pub(super) letters: usize,
    /// Non-ASCII letters in the alphabet of the best-fitting language, in one-script words.
    pub(super) fits: usize,
    /// Non-ASCII letters in the alphabet of any of the candidate's languages, in one-script
    /// words (a list of place names mixes the languages of one code page).
    pub(super) any_fits: usize,
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

/// What judging a reading asks of one character, asked once: for a single-byte candidate once
/// per byte value ([`byte_props`]), not once per byte of every input.
#[derive(Clone, Copy)]
struct Props {
    c: char,
    /// Alphabetic (a letter counts only then).
    alpha: bool,
    /// Alphabetic or a combining mark: part of a word.
    letter: bool,
    /// A CJK character of a double-byte reading: it stands on its own, in no word.
    cjk: bool,
    /// Joins two letters into one word (`’`, `·`, the soft hyphen).
    joins: bool,
    script: Script,
    /// The candidate's languages whose alphabet holds the letter (bit `k` for the `k`-th).
    languages: u32,
    lowercase: bool,
    uppercase: bool,
    /// A symbol that sits inside a word when letters stand on both sides of it.
    inner_symbol: bool,
    /// U+FFFD, a C1 control or a private-use character: never in text.
    odd: bool,
}

impl Props {
    fn of(c: char, is_cjk: bool, masks: &[(char, u32)]) -> Props {
        let alpha = is_alphabetic(c);
        let script = script(c);
        let lowercase = utf8kit_mojibake::letters::is_lowercase(c);
        let lower = if lowercase {
            c
        } else {
            c.to_lowercase().next().unwrap_or(c)
        };
        let mut languages = languages_with(masks, lower);
        if c == 'İ' {
            languages |= languages_with(masks, 'ı');
        }
        Props {
            c,
            alpha,
            letter: alpha || is_mark(c),
            cjk: is_cjk && script == Script::Cjk,
            joins: joins_words(c),
            script,
            languages,
            lowercase,
            uppercase: utf8kit_mojibake::letters::is_uppercase(c),
            inner_symbol: !(c.is_ascii()
                || alpha
                || c.is_whitespace()
                || joins_words(c)
                || is_cjk && is_cjk_punctuation(c)),
            odd: c == '\u{FFFD}'
                || (c.is_control() && !c.is_ascii())
                || Lint::classify(u32::from(c), 0) == Some(Lint::PrivateUse),
        }
    }
}

/// The [`Props`] of each byte in the single-byte candidate at `index`, built once.
fn byte_props(index: usize) -> &'static [Props; 256] {
    static TABLES: std::sync::OnceLock<Vec<Option<Box<[Props; 256]>>>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        CANDIDATES
            .iter()
            .enumerate()
            .map(|(index, candidate)| {
                candidate.single_byte.then(|| {
                    let masks = letter_languages_of(index);
                    Box::new(std::array::from_fn(|b| {
                        let byte = [b as u8];
                        let text = candidate.decode(&byte);
                        let c = text.chars().next().unwrap_or('\u{FFFD}');
                        Props::of(c, false, masks)
                    }))
                })
            })
            .collect()
    })[index]
        .as_deref()
        .expect("a single-byte candidate")
}

impl Reading {
    pub(super) fn of(index: usize, sample: &[u8]) -> Reading {
        let candidate = &CANDIDATES[index];
        let mut reading = if candidate.single_byte {
            let table = byte_props(index);
            Reading::judged(index, sample.len(), |j| table[usize::from(sample[j])])
        } else {
            let text = candidate.decode(sample);
            let masks = letter_languages_of(index);
            let props: Vec<Props> = text.chars().map(|c| Props::of(c, true, masks)).collect();
            Reading::judged(index, props.len(), |j| props[j])
        };
        for &b in sample {
            reading.bytes[usize::from(b / 64)] |= 1 << (b % 64);
        }
        reading
    }

    /// Whether two single-byte readings of one sample are the same text.
    pub(super) fn reads_like(&self, other: &Reading) -> bool {
        let (mine, theirs) = (byte_props(self.index), byte_props(other.index));
        (0..256)
            .filter(|&b| self.bytes[b / 64] >> (b % 64) & 1 != 0)
            .all(|b| mine[b].c == theirs[b].c)
    }

    /// Judges the reading whose `j`-th character is `at(j)`, of `len`.
    fn judged(index: usize, len: usize, at: impl Fn(usize) -> Props) -> Reading {
        let candidate = &CANDIDATES[index];
        let mut reading = Reading {
            candidate,
            index,
            bytes: [0; 4],
            letters: 0,
            fits: 0,
            any_fits: 0,
            lowercase: 0,
            uppercase: 0,
            distinct_cjk: 0,
            finals: 0,
            anomalies: 0,
        };
        let mut hits = vec![0usize; candidate.languages.len()];
        let mut seen = std::collections::HashSet::new();
        let mut letters: Vec<Props> = Vec::new();
        let mut i = 0;
        while i < len {
            let p = at(i);
            if p.letter && !p.cjk {
                // A word: letters and marks, with the symbols that join words.
                let start = i;
                let mut prev: Option<Props> = None;
                letters.clear();
                while i < len {
                    let q = at(i);
                    if !((q.letter || (q.joins && i + 1 < len && at(i + 1).letter && i > start))
                        && !q.cjk)
                    {
                        break;
                    }
                    // A capital after a small letter, one of them not ASCII (`żQué` is `¿Qué`
                    // read in the wrong code page; `пРИВЕТ` is KOI8-R read as windows-1251).
                    if let Some(prev) = prev
                        && breaks_case(prev.c, q.c)
                    {
                        reading.anomalies += 1;
                    }
                    if q.alpha {
                        letters.push(q);
                    }
                    prev = Some(q);
                    i += 1;
                }
                let is_one_script = letters
                    .split_first()
                    .is_none_or(|(first, rest)| rest.iter().all(|q| q.script == first.script));
                // A letter on its own (a keymap, a table of characters) says nothing of the
                // language: only words of two letters or more are evidence.
                let is_word = letters.len() >= 2;
                for q in letters.iter().filter(|q| !q.c.is_ascii() && is_word) {
                    reading.letters += 1;
                    reading.lowercase += usize::from(q.lowercase);
                    reading.uppercase += usize::from(q.uppercase);
                    if !is_one_script || matches!(q.script, Script::Other | Script::Common) {
                        continue;
                    }
                    let mut languages = q.languages;
                    reading.any_fits += usize::from(languages != 0);
                    while languages != 0 {
                        hits[languages.trailing_zeros() as usize] += 1;
                        languages &= languages - 1;
                    }
                }
                if !is_one_script {
                    reading.anomalies += 1;
                }
                // Final forms end words and only they do: Greek ς and σ, Hebrew ך ם ן ף ץ (a
                // Russian т read in windows-1253 is ς in mid-word). Hebrew written in visual
                // order, as old catalogs and terminals hold it, has them first in a word.
                if let Some((last, inner)) = letters.split_last()
                    && !inner.is_empty()
                {
                    let visual =
                        inner[0].c != 'ς' && is_final_form(inner[0].c) && !is_final_form(last.c);
                    reading.anomalies += inner.iter().filter(|q| is_final_form(q.c)).count();
                    reading.anomalies -= usize::from(visual);
                    reading.anomalies += usize::from(last.c == 'σ');
                    reading.finals += usize::from(is_final_form(last.c) || visual);
                }
                // A symbol right after a word and right before the next letter sits inside it;
                // but Chinese and Japanese write their punctuation (`、`, `。`, full-width
                // signs) against Latin words too (`Palm、PPC`).
                if i + 1 < len && at(i).inner_symbol && at(i + 1).letter {
                    reading.anomalies += 1;
                }
                continue;
            }
            if p.cjk {
                if p.alpha {
                    reading.letters += 1;
                    reading.fits += 1;
                    seen.insert(p.c);
                }
            } else if p.odd {
                reading.anomalies += 1;
            }
            i += 1;
        }
        if candidate.single_byte {
            let table = byte_props(index);
            let (open, close) = (table[0xAB], table[0xBB]);
            if open.alpha && close.alpha {
                reading.anomalies += quoted_words(len, &at, open.c, close.c);
            }
        }
        if candidate.single_byte {
            reading.fits = hits.into_iter().max().unwrap_or(0);
        }
        reading.distinct_cjk = seen.len();
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

/// Runs between ASCII white space that open with `open` and close with `close`, ASCII
/// punctuation aside: the quotation marks `«` and `»` (bytes AB and BB of windows-1250..1258 and
/// ISO-8859-1) read in a code page that has letters there (`«%s»` is `Ť%sť` in ISO-8859-2,
/// `Ћ%sћ` in ISO-8859-5).
fn quoted_words(len: usize, at: impl Fn(usize) -> Props, open: char, close: char) -> usize {
    let is_edge = |c: char| c.is_ascii_punctuation();
    let mut count = 0;
    let mut i = 0;
    while i < len {
        let start = i;
        while i < len && !at(i).c.is_ascii_whitespace() {
            i += 1;
        }
        if let Some(first) = (start..i).find(|&j| !is_edge(at(j).c))
            && let Some(last) = (first + 1..i).rev().find(|&j| !is_edge(at(j).c))
        {
            count += usize::from(last > first + 1 && at(first).c == open && at(last).c == close);
        }
        i += 1;
    }
    count
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A reading's counts, all that judging asks of it.
    fn counts(reading: &Reading) -> [usize; 7] {
        [
            reading.letters,
            reading.fits,
            reading.lowercase,
            reading.uppercase,
            reading.distinct_cjk,
            reading.finals,
            reading.anomalies,
        ]
    }

    /// Bytes that make words, white space and symbols in every candidate.
    fn samples() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b' '),
                Just(b'\n'),
                Just(b'\t'),
                Just(b'.'),
                Just(b'\''),
                b'a'..=b'e',
                b'A'..=b'E',
                0x80u8..=0xFF,
                0x80u8..=0xFF,
                0x80u8..=0xFF,
            ],
            0..120,
        )
    }

    proptest! {
        /// Each byte's properties, looked up in a table, judge as those of the decoded text.
        #[test]
        fn the_byte_tables_judge_as_the_decoded_text(sample in samples()) {
            for (index, candidate) in CANDIDATES.iter().enumerate() {
                let text = candidate.decode(&sample);
                let masks = letter_languages_of(index);
                let props: Vec<Props> = text
                    .chars()
                    .map(|c| Props::of(c, !candidate.single_byte, masks))
                    .collect();
                let decoded = Reading::judged(index, props.len(), |j| props[j]);
                prop_assert_eq!(
                    counts(&Reading::of(index, &sample)),
                    counts(&decoded),
                    "{}",
                    candidate.name()
                );
            }
        }

        /// Words of ASCII alone count nothing in any reading: the detector leaves them out.
        #[test]
        fn words_of_ascii_alone_count_nothing(sample in samples()) {
            let words = super::super::words_not_ascii(&sample);
            for (index, candidate) in CANDIDATES.iter().enumerate() {
                prop_assert_eq!(
                    counts(&Reading::of(index, &sample)),
                    counts(&Reading::of(index, &words)),
                    "{}",
                    candidate.name()
                );
            }
        }
    }
}
