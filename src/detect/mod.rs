//! Telling the encoding of text that is not UTF-8: the one detector behind utf8check's hint and
//! `utf8enc --from auto` (SPEC 3 and 6).
//!
//! The evidence is the lines that are not valid UTF-8 (in a file that mixes UTF-8 with a legacy
//! encoding, only those lines are legacy text), plus two counts over the whole input: well-formed
//! multi-byte characters and ill-formed units. Each single-byte candidate decodes the evidence,
//! and its reading is judged as text:
//!
//! - a non-ASCII letter *fits* when it belongs to the alphabet of a language written in that
//!   encoding, in a word of one script (`Bjцrn` mixes Latin and Cyrillic);
//! - an *anomaly* is a control character, an undefined byte, or a symbol between two letters;
//! - the reading's `net` is fits − letters that do not fit − 2 × anomalies, and its `fit` is
//!   (fits − anomalies) / (letters + anomalies).
//!
//! The reading with the highest `net` wins (a reading that decodes one more byte into a letter of
//! the language beats its twin); among equals, the one with more lowercase letters (Cyrillic
//! read in the wrong one of windows-1251 and KOI8-R comes out in capitals), then the commoner
//! encoding. The evidence is *strong*, and the hint names the encoding, only when the winner's
//! `fit` is at least [`MIN_FIT`], it has at least [`MIN_LETTERS`] letters (fewer only when the
//! letters read the same as in windows-1252 and no other reading is plausible), and no rival
//! stands: a reading that differs from it and trails it by less than [`MIN_MARGIN`] of its
//! letters (a twin, the same alphabet in another code page, only when it ties), or, when the
//! winner leaves letters out or has few, one whose letters all fit some language of its code
//! page (names from many languages). A rival is set aside when the winner is flawless and the
//! rival falls short by a few letters; else, from [`MIN_SETTLING_LETTERS`] letters on, by case
//! or by chardetng, Firefox's detector, where it could have named the rival; else the verdict is
//! "possibly A or B". chardetng is asked only when the single-byte readings leave the answer
//! open. CJK encodings are chardetng's call, accepted when its reading decodes cleanly into CJK
//! text. ISO-2022 is told by its escapes ([`iso_2022`]).

use encoding_rs::Encoding;

use utf8kit_codec::Lint;
use utf8kit_mojibake::letters::is_alphabetic;

use crate::encodings::Charset;

mod declared;
mod evidence;
mod languages;
mod readings;

use declared::declared;
pub use evidence::Evidence;
use languages::*;
use readings::*;

/// The least share of letters that must fit one language for a confident answer.
pub const MIN_FIT: f64 = 0.9;
/// The fewest non-ASCII letters for a confident answer (unless they read as windows-1252 does).
pub const MIN_LETTERS: usize = 3;
/// How far (as a share of its letters) the winner must lead a plausible rival that is not its twin.
pub const MIN_MARGIN: f64 = 0.15;

/// The fewest non-ASCII letters for a close call between two readings to be settled (by case,
/// or by chardetng): a line or two of text does not say which of two alphabets it is in.
pub const MIN_SETTLING_LETTERS: usize = 16;

/// The fewest non-ASCII letters for chardetng to settle a close call between readings whose
/// letters come from many languages of their code pages (a list of place names).
pub const MIN_MIXED_SETTLING_LETTERS: usize = 100;

/// The single-byte encodings chardetng names.
const CHARDETNG_NAMES: [&Encoding; 18] = [
    encoding_rs::WINDOWS_1250,
    encoding_rs::WINDOWS_1251,
    encoding_rs::WINDOWS_1252,
    encoding_rs::WINDOWS_1253,
    encoding_rs::WINDOWS_1254,
    encoding_rs::WINDOWS_1255,
    encoding_rs::WINDOWS_1256,
    encoding_rs::WINDOWS_1257,
    encoding_rs::WINDOWS_1258,
    encoding_rs::WINDOWS_874,
    encoding_rs::KOI8_U,
    encoding_rs::IBM866,
    encoding_rs::ISO_8859_2,
    encoding_rs::ISO_8859_4,
    encoding_rs::ISO_8859_5,
    encoding_rs::ISO_8859_6,
    encoding_rs::ISO_8859_7,
    encoding_rs::ISO_8859_8,
];

/// What the evidence says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Strong evidence for one encoding.
    Sure(Charset),
    /// Some evidence, for two encodings that read the text differently.
    Possibly(Charset, Charset),
    /// Too little evidence.
    Unknown,
}

impl Verdict {
    /// The likeliest encoding, however weak the evidence.
    pub fn likeliest(self) -> Option<Charset> {
        match self {
            Verdict::Sure(charset) | Verdict::Possibly(charset, _) => Some(charset),
            Verdict::Unknown => None,
        }
    }
}

/// UTF-16 or UTF-32 without a byte order mark, told by where the zero bytes of ASCII fall.
pub fn unmarked_utf16_or_32(head: &[u8]) -> Option<Charset> {
    use utf8kit_codec::transcode::Endian::{Big, Little};
    let zeros_at = |width: usize, at: usize| {
        let units = head.len() / width;
        let zeros = (0..units).filter(|&i| head[i * width + at] == 0).count();
        (zeros as f64) / (units.max(1) as f64)
    };
    if head.len() < 16 {
        return None;
    }
    let candidate =
        if head.len().is_multiple_of(4) && zeros_at(4, 2) > 0.95 && zeros_at(4, 3) > 0.95 {
            (zeros_at(4, 0) < 0.05).then_some(Charset::Utf32(Some(Little)))
        } else if head.len().is_multiple_of(4) && zeros_at(4, 0) > 0.95 && zeros_at(4, 1) > 0.95 {
            (zeros_at(4, 3) < 0.05).then_some(Charset::Utf32(Some(Big)))
        } else if zeros_at(2, 1) > 0.3 && zeros_at(2, 0) < 0.02 {
            Some(Charset::Utf16(Some(Little)))
        } else if zeros_at(2, 0) > 0.3 && zeros_at(2, 1) < 0.02 {
            Some(Charset::Utf16(Some(Big)))
        } else {
            None
        }?;
    // The reading must be text: no unpaired surrogate, hardly a control character.
    let text: String = match candidate {
        Charset::Utf16(Some(endian)) => {
            let units = head.chunks_exact(2).map(|pair| match endian {
                Little => u16::from_le_bytes([pair[0], pair[1]]),
                Big => u16::from_be_bytes([pair[0], pair[1]]),
            });
            let mut text = String::new();
            for c in char::decode_utf16(units) {
                text.push(c.ok()?);
            }
            text
        }
        Charset::Utf32(Some(endian)) => head
            .chunks_exact(4)
            .map(|quad| {
                let bytes = [quad[0], quad[1], quad[2], quad[3]];
                char::from_u32(match endian {
                    Little => u32::from_le_bytes(bytes),
                    Big => u32::from_be_bytes(bytes),
                })
            })
            .collect::<Option<String>>()?,
        _ => return None,
    };
    let controls = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C'))
        .count();
    (controls * 100 <= text.chars().count()).then_some(candidate)
}

/// An ISO-2022 encoding, told by its escape sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iso2022 {
    /// ISO-2022-JP (`ESC $ B` and its kin), which the programs decode.
    Japanese,
    /// ISO-2022-KR (`ESC $ ) C`), which no decoder here reads.
    Korean,
}

/// ISO-2022 text by its escape sequences: 7-bit, so its bytes pass for UTF-8.
pub fn iso_2022(head: &[u8]) -> Option<Iso2022> {
    if memchr::memchr(0x1B, head).is_none() || !head.is_ascii() {
        return None;
    }
    let has = |escape: &[u8]| head.windows(escape.len()).any(|w| w == escape);
    if has(b"\x1b$)C") {
        return Some(Iso2022::Korean);
    }
    let japanese = [&b"\x1b$B"[..], b"\x1b$@", b"\x1b(J", b"\x1b(I", b"\x1b$(D"];
    japanese
        .iter()
        .any(|escape| has(escape))
        .then_some(Iso2022::Japanese)
}

/// How much of the evidence the first look reads: most files are settled by it.
pub const FIRST_LOOK: usize = 2 * 1024;

/// Judges the evidence: first its first [`FIRST_LOOK`] bytes (whole lines), which settle most
/// inputs at an eighth of the cost; only when they leave it unsure, all of it. The per-input
/// cost is bounded either way (the evidence is at most 64 KiB of lines).
pub fn detect(evidence: &Evidence) -> Verdict {
    let sample = &evidence.lines;
    if sample.len() > 2 * FIRST_LOOK
        && let Some(end) = sample[..FIRST_LOOK].iter().rposition(|&b| b == b'\n')
        && let verdict @ Verdict::Sure(charset) = judge(&sample[..=end], evidence.declared, None)
    {
        if charset.is_single_byte() {
            return verdict;
        }
        // A double-byte answer is held to chardetng's on twice the evidence (a first look of
        // EUC-KR can read as GBK), and judged again on all of it when they differ.
        let more = sample.len().min(2 * FIRST_LOOK);
        let more = sample[..more]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(sample.len(), |end| end + 1);
        if Charset::Whatwg(chardetng_guess(&sample[..more])) == charset {
            return verdict;
        }
        let guess = chardetng_guess(sample);
        return judge(sample, evidence.declared, Some(guess));
    }
    judge(sample, evidence.declared, None)
}

/// chardetng's guess for a sample of lines that are not UTF-8.
fn chardetng_guess(sample: &[u8]) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(sample, true);
    detector.guess(None, chardetng::Utf8Detection::Deny)
}

/// Judges one sample of whole lines (that are not UTF-8), with the encoding the input declares
/// and chardetng's guess for the sample when it is known already.
fn judge(sample: &[u8], declared: Option<Charset>, guess: Option<&'static Encoding>) -> Verdict {
    if sample.is_empty() {
        return Verdict::Unknown;
    }
    let words = words_not_ascii(sample);
    if let Some(declared) = declared
        && agrees(declared, &words)
    {
        return Verdict::Sure(declared);
    }
    if is_code_chart(&words) {
        return Verdict::Unknown;
    }
    // Every single-byte reading ranks against the others; a double-byte reading is asked only
    // for chardetng's guess, and chardetng (the dearest part) only when the single-byte
    // readings do not settle it alone: a clean reading of many letters with no rival, which
    // text in a double-byte encoding never gives (its pairs read as letters in random case,
    // or mixed with ASCII).
    let readings = single_byte_readings(&words);
    if guess.is_none()
        && let Some(verdict) = settled_alone(&readings)
    {
        return verdict;
    }
    let guess = guess.unwrap_or_else(|| chardetng_guess(sample));
    if let Some(index) = CANDIDATES
        .iter()
        .position(|c| !c.single_byte && c.is(guess))
    {
        return cjk_verdict(guess, &Reading::of(index, &words));
    }
    match decide(&readings, || guess) {
        Verdict::Unknown => lone_letters_verdict(sample)
            .or_else(|| typographic_verdict(sample))
            .unwrap_or(Verdict::Unknown),
        verdict => verdict,
    }
}

/// The sample's words that hold a byte above 7F (runs between ASCII white space), one space
/// between them. Every reading judges only those: the candidates read ASCII alike, a word is
/// never cut by ASCII white space (no double-byte encoding takes it for a trailing byte), and
/// a word of ASCII alone counts nothing ([`Reading::of`] counts non-ASCII letters and the
/// symbols and case breaks that involve one). Latin text is mostly such words: this is most
/// of a reading's work saved.
fn words_not_ascii(sample: &[u8]) -> Vec<u8> {
    let mut words = Vec::with_capacity(sample.len() / 2);
    for word in sample
        .split(|b| b.is_ascii_whitespace() || *b == 0x0B)
        .filter(|word| !word.is_ascii())
    {
        if !words.is_empty() {
            words.push(b' ');
        }
        words.extend_from_slice(word);
    }
    words
}

/// The fewest words of a code chart.
const MIN_CHART_WORDS: usize = 100;

/// Whether the words (of [`words_not_ascii`]) are a code chart, a decoder's test input that
/// lists the characters of an encoding one after the other (encoding_rs's `jis0212_in.txt`:
/// `8F A1 A4`, `8F A1 A5`, ...): nine words in ten of three bytes or more are the word before
/// with its last byte the next one. Any reading of such a list says nothing of a language (in
/// IBM866 it is `Пбд`, `Пбе`, ..., Russian letters every one); text, even a sorted word list
/// or a page of numbered items (`ⅱ`, `ⅲ`, `ⅳ` in Shift_JIS), does not run so.
fn is_code_chart(words: &[u8]) -> bool {
    let list: Vec<&[u8]> = words.split(|&b| b == b' ').collect();
    if list.len() < MIN_CHART_WORDS {
        return false;
    }
    let next = list
        .windows(2)
        .filter(|pair| {
            let (a, b) = (pair[0], pair[1]);
            a.len() == b.len()
                && a.len() >= 3
                && a[..a.len() - 1] == b[..b.len() - 1]
                && a[a.len() - 1].wrapping_add(1) == b[b.len() - 1]
        })
        .count();
    next * 10 >= list.len() * 9
}

/// Text whose only bytes above 7F are the typographic marks that every Windows code page
/// (windows-874 and windows-1250 to -1258) holds at the same place: … ‘ ’ “ ” • – — at 85 and
/// 91..97. Whichever of them the text was written in, windows-1252 reads it alike, so naming it
/// is right; ISO-8859 reads those bytes as C1 controls, which text does not hold.
fn typographic_verdict(sample: &[u8]) -> Option<Verdict> {
    let mut high = sample.iter().filter(|&&b| b >= 0x80).peekable();
    high.peek()?;
    high.all(|&b| matches!(b, 0x85 | 0x91..=0x97))
        .then_some(Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1252)))
}

/// The fewest distinct lone letters that name an encoding.
pub const MIN_LONE_LETTERS: usize = 12;

/// A keymap or a table of characters lists letters one by one, which says nothing of a language
/// word by word; but the whole set of them can. The distinct bytes that stand alone (between
/// ASCII that is not a letter or a digit) are read in each encoding; when exactly one encoding
/// (up to its twin, or encodings that read those bytes alike) reads at least
/// [`MIN_LONE_LETTERS`] of them as letters, every letter in the alphabet of one language and
/// together at least half of that alphabet, and the rest as signs (no undefined byte, no
/// control; at most one sign for two letters), that encoding is named. A Slovak keymap in windows-1250
/// holds `ľ š ť ž` at 9A..BE, where windows-1252 has an undefined byte and ISO-8859-2 has C1
/// controls; a Greek one holds `Ά Έ Ή`, which windows-1251 reads as `ў ё №`, letters of no one
/// language and a sign. A Hebrew keymap (27 letters at E0..FA, Russian а..ъ in windows-1251)
/// stays silent.
fn lone_letters_verdict(sample: &[u8]) -> Option<Verdict> {
    let is_separator =
        |b: Option<&u8>| b.is_none_or(|b| b.is_ascii() && !b.is_ascii_alphanumeric());
    let mut lone = [false; 128];
    let (mut alone, mut high) = (0usize, 0usize);
    for (i, &b) in sample.iter().enumerate() {
        if b < 0x80 {
            continue;
        }
        high += 1;
        if is_separator(i.checked_sub(1).map(|p| &sample[p])) && is_separator(sample.get(i + 1)) {
            lone[usize::from(b - 0x80)] = true;
            alone += 1;
        }
    }
    // The whole file lists letters: nine in ten of its bytes above 7F stand alone (a code chart
    // of a double-byte encoding holds a few lone bytes among its pairs).
    if alone * 10 < high * 9 {
        return None;
    }
    let bytes: Vec<u8> = (0x80..=0xFFu8)
        .filter(|&b| lone[usize::from(b - 0x80)])
        .collect();
    if bytes.len() < MIN_LONE_LETTERS {
        return None;
    }
    let fitting: Vec<(usize, String)> = CANDIDATES
        .iter()
        .enumerate()
        .filter(|(_, candidate)| candidate.single_byte)
        .filter_map(|(index, candidate)| {
            let text = candidate.decode(&bytes);
            // Signs and punctuation (`§`, `«`, Greek tonos, the micro sign) stand in keymaps
            // too and tell nothing; an undefined byte or a control tells against the encoding.
            let is_sign = |c: char| {
                matches!(c, '\u{A0}'..='\u{BF}' | '\u{2B0}'..='\u{2FF}' | '\u{384}' | '\u{385}'
                    | '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}')
            };
            let letters: Vec<char> = text.chars().filter(|&c| !is_sign(c)).collect();
            let lower: Vec<char> = letters
                .iter()
                .map(|&c| c.to_lowercase().next().unwrap_or(c))
                .collect();
            // A keymap lists its language's alphabet, most of it: a set of letters that only
            // happens to fall inside an alphabet covers a scattered part of it (Croatian
            // `Č č Đ đ` read in windows-1253 are `Θ θ Π π`, 14 of 36 Greek letters).
            let covers = |alphabet: &[char]| {
                let mut seen: Vec<char> = lower.clone();
                seen.sort_unstable();
                seen.dedup();
                seen.len() * 2 >= alphabet.len()
            };
            let fits = letters.len() >= MIN_LONE_LETTERS
                && (text.chars().count() - letters.len()) * 2 <= letters.len()
                && alphabets_of(index).iter().any(|alphabet| {
                    letters.iter().zip(&lower).all(|(&c, lower)| {
                        is_alphabetic(c) && alphabet.binary_search(lower).is_ok()
                    }) && covers(alphabet)
                });
            fits.then(|| (index, text.into_owned()))
        })
        .collect();
    let (first, text) = fitting.first()?;
    let twin = CANDIDATES[*first].twin;
    let alike = fitting
        .iter()
        .all(|(index, other)| other == text || CANDIDATES[*index].twin == twin);
    alike.then(|| Verdict::Sure(CANDIDATES[*first].charset))
}

/// Every single-byte candidate's reading of `words`.
fn single_byte_readings(words: &[u8]) -> Vec<Reading> {
    CANDIDATES
        .iter()
        .enumerate()
        .filter(|(_, c)| c.single_byte)
        .map(|(index, _)| Reading::of(index, words))
        .collect()
}

/// The fewest non-ASCII letters of a reading that settles the answer without chardetng.
const SETTLED_ALONE_LETTERS: usize = 32;

/// The single-byte readings' verdict when it needs no word from chardetng: a sure answer
/// without a close rival, from a reading of at least [`SETTLED_ALONE_LETTERS`] letters with no
/// anomaly.
fn settled_alone(readings: &[Reading]) -> Option<Verdict> {
    let best = readings.iter().max_by(|a, b| a.rank(b))?;
    if best.letters < SETTLED_ALONE_LETTERS || best.anomalies > 0 {
        return None;
    }
    let asked = std::cell::Cell::new(false);
    let verdict = decide(readings, || {
        asked.set(true);
        encoding_rs::UTF_8
    });
    (matches!(verdict, Verdict::Sure(_)) && !asked.get()).then_some(verdict)
}

/// Picks among the single-byte readings; `guess` gives chardetng's, asked for close calls.
fn decide(readings: &[Reading], guess: impl Fn() -> &'static Encoding) -> Verdict {
    let Some(best) = readings
        .iter()
        .filter(|r| r.candidate.single_byte)
        .max_by(|a, b| a.rank(b))
    else {
        return Verdict::Unknown;
    };
    let charset = best.candidate.charset;
    if best.fit() < MIN_FIT || best.letters == 0 {
        return Verdict::Unknown;
    }
    let as_1252 = &readings[0];
    let few = best.letters < MIN_LETTERS;
    if few && !as_1252.reads_like(best) {
        return Verdict::Unknown;
    }
    let margin = (best.letters as f64 * MIN_MARGIN).max(1.0);
    let close = readings
        .iter()
        .filter(|r| r.candidate.single_byte && !r.reads_like(best))
        .filter(|r| r.fit() >= MIN_FIT && r.letters > 0)
        .filter(|r| best.candidate.twin != r.candidate.twin || best.net() == r.net())
        .filter(|r| (best.net() - r.net()) as f64 <= margin)
        .max_by(|a, b| a.rank(b));
    // Names from many languages (`Panamá`, `Pietà`, `Plužine`) fit no one language in the right
    // code page, and may fit one in a wrong one (`Pietŕ`, Slovak): a reading whose letters all
    // fit some language of its code page, as many as the best reading's that fit, is a rival
    // too, when the best reading leaves one letter in twenty out; or, in a line or two, when
    // the rival's code page is the commoner and fits three in four of its letters to one
    // language (`zapotèque, Sierra de Juárez` is French and Spanish in windows-1252, Czech in
    // windows-1250; `Crème brûlée, café naïve` stays windows-1252).
    let mixed = readings
        .iter()
        .filter(|_| close.is_none())
        .filter(|r| r.candidate.single_byte && !r.reads_like(best))
        .filter(|r| r.anomalies == 0 && r.any_fits == r.letters && r.letters > 0)
        .filter(|r| r.any_fits >= best.fits && best.candidate.twin != r.candidate.twin)
        .filter(|r| {
            (best.letters - best.fits) * 20 >= best.letters
                || best.letters < MIN_SETTLING_LETTERS
                    && r.fits * 4 >= r.letters * 3
                    && r.index < best.index
        })
        .max_by(|a, b| a.rank(b));
    let rival = close.or(mixed);
    let Some(rival) = rival else {
        return Verdict::Sure(charset);
    };
    if few {
        return Verdict::Unknown;
    }
    // A reading that explains every letter, with no anomaly, against a rival that falls short
    // by at least three and one in fifty of its letters (a letter outside its language, an
    // anomaly, a letter it reads as a sign): Hungarian `ő` is Portuguese `õ` in windows-1252,
    // Spanish `ñ` Polish `ń` in windows-1250, Russian capitals signs in x-mac-cyrillic.
    let misfits = |r: &Reading| r.letters - r.fits + r.anomalies;
    let short = misfits(rival) + best.letters.saturating_sub(rival.letters);
    if misfits(best) == 0 && short >= 3 && short * 50 >= best.letters {
        return Verdict::Sure(charset);
    }
    // Neither case nor chardetng tells a line or two apart, nor a short list of names from
    // many languages (on longer text chardetng's letter pairs do).
    if mixed.is_some() && best.letters < MIN_MIXED_SETTLING_LETTERS
        || best.letters < MIN_SETTLING_LETTERS
    {
        return Verdict::Possibly(charset, rival.candidate.charset);
    }
    // Two readings that fit alike but one in capitals: prose is mostly small letters, and the
    // wrong one of KOI8-R and windows-1251 (or of MacCyrillic) turns them into capitals.
    // (Only between readings whose letters have case: Hebrew and Arabic have none.)
    let lowercase = |r: &Reading| {
        let cased = r.lowercase + r.uppercase;
        (cased * 2 > r.letters).then(|| r.lowercase as f64 / cased as f64)
    };
    if let (Some(ours), Some(theirs)) = (lowercase(best), lowercase(rival)) {
        if ours >= 0.5 && theirs * 2.0 <= ours {
            return Verdict::Sure(charset);
        }
        if theirs >= 0.5 && ours * 2.0 <= theirs {
            return Verdict::Sure(rival.candidate.charset);
        }
    }
    let twin_of =
        |encoding: &'static Encoding| CANDIDATES.iter().find(|c| c.is(encoding)).map(|c| c.twin);
    // chardetng names no x-mac-cyrillic, IBM855, ISO-8859-3, -13 or -15 (KOI8-U stands for
    // KOI8-R): for text in one of them it names another encoding of the same language, so its
    // word counts against such a rival only when the two share no language, or when the best
    // reading fits more letters (x-mac-cyrillic reads windows-1251's `П` as `ѕ`; but its `і`
    // is windows-1251's `ґ`, and a line of `і` alone is no evidence either way).
    let sees_rival = CHARDETNG_NAMES
        .iter()
        .any(|&encoding| rival.candidate.is(encoding))
        || rival.candidate.is(encoding_rs::KOI8_R)
        || best.fits > rival.fits
        || !best
            .candidate
            .languages
            .iter()
            .any(|language| rival.candidate.languages.contains(language));
    let guess = guess();
    let confirms = sees_rival
        && (best.candidate.is(guess)
            || (best.candidate.twin != rival.candidate.twin
                && twin_of(guess) == Some(best.candidate.twin)));
    if confirms {
        Verdict::Sure(charset)
    } else {
        Verdict::Possibly(charset, rival.candidate.charset)
    }
}

/// Whether the evidence (the sample's [`words_not_ascii`]) does not contradict a declared
/// encoding: its reading is text.
fn agrees(declared: Charset, words: &[u8]) -> bool {
    let declared = match declared {
        Charset::Latin1 => Charset::Whatwg(encoding_rs::WINDOWS_1252),
        other => other,
    };
    let Some(index) = CANDIDATES.iter().position(|c| c.charset == declared) else {
        // An encoding the detector has no model of: its decoding must at least be clean.
        return false;
    };
    let reading = Reading::of(index, words);
    if !reading.candidate.single_byte {
        // Message catalogues hold binary tables between their strings: some noise is allowed.
        return reading.anomalies * 100 <= reading.letters * 15;
    }
    reading.letters < MIN_LETTERS || reading.fit() >= 0.5
}

/// For evidence the detector cannot name ([`Verdict::Unknown`]), the encodings it came
/// nearest to: chardetng's guess and the best single-byte reading, when either read at least
/// [`MIN_SETTLING_LETTERS`] letters (text in an encoding no decoder here reads, Johab or
/// EUC-TW, reads as no clean text in any of them); none when the evidence is too little.
pub fn nearest(evidence: &Evidence) -> Vec<Charset> {
    let sample = &evidence.lines;
    if sample.is_empty() {
        return Vec::new();
    }
    let words = words_not_ascii(sample);
    let mut nearest = Vec::new();
    let guess = chardetng_guess(sample);
    if let Some(index) = CANDIDATES.iter().position(|c| c.is(guess))
        && Reading::of(index, &words).letters >= MIN_SETTLING_LETTERS
    {
        nearest.push(CANDIDATES[index].charset);
    }
    let readings = single_byte_readings(&words);
    if let Some(best) = readings.iter().max_by(|a, b| a.rank(b))
        && best.letters >= MIN_SETTLING_LETTERS
        && !nearest.contains(&best.candidate.charset)
    {
        nearest.push(best.candidate.charset);
    }
    nearest
}

/// CJK encodings: chardetng's guess, when its reading is clean CJK text.
fn cjk_verdict(guess: &'static Encoding, reading: &Reading) -> Verdict {
    let cjk = reading.letters;
    if reading.anomalies * 100 > cjk || reading.fit() < MIN_FIT {
        return Verdict::Unknown;
    }
    if cjk < 20 {
        return Verdict::Unknown;
    }
    // A table of characters, each once (a decoder's test input, a code chart), says nothing of
    // the language, as a keymap's lone letters do not: real text repeats its common characters.
    if cjk >= 200 && reading.distinct_cjk * 10 > cjk * 8 {
        return Verdict::Unknown;
    }
    Verdict::Sure(Charset::Whatwg(guess))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(bytes: &[u8]) -> Verdict {
        let mut evidence = Evidence::new();
        evidence.feed(bytes);
        evidence.finish();
        detect(&evidence)
    }

    fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(!unmappable, "{text} in {}", encoding.name());
        bytes.into_owned()
    }

    /// A keymap: one letter to a line, after the keys that type it.
    fn keymap(letters: &str) -> String {
        let mut text = String::from("\" keymap\nloadkeymap\n");
        for (i, c) in letters.chars().enumerate() {
            text.push_str(&format!("k{i} {c}\n"));
        }
        text
    }

    #[test]
    fn a_keymap_is_named_by_its_whole_set_of_lone_letters() {
        let slovak = keymap("ľščťžýáíéúäňô§ĺŕóďĽŠČŤŽÝÁÍÉÚÄŇÔĹŔÓĎ");
        for encoding in [encoding_rs::WINDOWS_1250, encoding_rs::ISO_8859_2] {
            assert_eq!(
                verdict(&encode(&slovak, encoding)),
                Verdict::Sure(Charset::Whatwg(encoding)),
                "{}",
                encoding.name()
            );
        }
        let greek = keymap("αβγδεζηθικλμνξοπρστυφχψωςάέήίόύώΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΉ«»·");
        assert_eq!(
            verdict(&encode(&greek, encoding_rs::WINDOWS_1253)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1253))
        );
        // Hebrew letters at E0..FA are Russian а..ъ in windows-1251: nothing to tell them apart.
        let hebrew = keymap("אבגדהוזחטיךכלםמןנסעףפץצקרשת");
        assert_eq!(
            verdict(&encode(&hebrew, encoding_rs::ISO_8859_8)),
            Verdict::Unknown
        );
        // Croatian with signs and a few foreign letters fits no one alphabet; read in
        // windows-1253 its letters are Greek, but a scattered few of them.
        let croatian = keymap("˘¤§¨Š\u{AD}Ž°´¸š˝žĆČĐ×ÜÝßâćçčíîđö÷");
        assert_ne!(
            verdict(&encode(&croatian, encoding_rs::ISO_8859_2)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1253))
        );
        // Fewer than a dozen letters tell nothing.
        assert_eq!(
            verdict(&encode(&keymap("ľščťžýáíéú"), encoding_rs::WINDOWS_1250)),
            Verdict::Unknown
        );
    }

    fn cp855(text: &str) -> Vec<u8> {
        let table = &utf8kit_mojibake::codepages::CP855;
        text.chars()
            .map(|c| match u8::try_from(c) {
                Ok(b) if b.is_ascii() => b,
                _ => 0x80 + table.iter().position(|&t| t == c).expect("in cp855") as u8,
            })
            .collect()
    }

    #[test]
    fn ibm855_is_a_candidate() {
        let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n\
                    Широкая электрификация южных губерний даст мощный толчок подъёму \
                    сельского хозяйства.\n";
        assert_eq!(
            verdict(&cp855(text)),
            Verdict::Sure(Charset::CodePage(&utf8kit_mojibake::codepages::CP855))
        );
    }

    #[test]
    fn guillemets_read_as_letters_are_no_evidence_for_them() {
        // `«%s»` and `«palabra»` are `Ť%sť` and `Ťpalabrať` in ISO-8859-2, whose `Ť ť` are
        // Czech letters: more letters, but not a better reading.
        let spanish = "no se puede heredar de la tabla temporal «%s»\n\
                       no se puede insertar en la columna «%s» de la vista «%s»\n\
                       el valor «predeterminado» no es válido para el año «%s»\n\
                       la función «%s» no existe\n\
                       la opción «configuración» no está disponible\n\
                       el índice «%s» de la relación «%s» no es único; revíselo después\n\
                       la conexión con el servidor terminó antes de la autenticación\n\
                       no se encontró la traducción de «%s» en el catálogo\n\
                       la contraseña del usuario «%s» caducó el miércoles\n";
        assert_eq!(
            verdict(&encode(spanish, encoding_rs::WINDOWS_1252)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1252))
        );
    }

    #[test]
    fn close_calls_on_little_text_are_left_open() {
        let not_sure = |text: &str, encoding: &'static Encoding, wrong: &'static Encoding| {
            let verdict = verdict(&encode(text, encoding));
            assert!(
                !matches!(verdict, Verdict::Sure(charset) if charset == Charset::Whatwg(wrong)),
                "{text}: {verdict:?}"
            );
        };
        // Hungarian `ő` is Portuguese `õ` in windows-1252: three letters do not tell.
        not_sure(
            "ez az első definíció\n",
            encoding_rs::WINDOWS_1250,
            encoding_rs::WINDOWS_1252,
        );
        // A word of capitals reads as small letters in windows-1251: not prose, no evidence.
        not_sure("ПРОГРАМА\n", encoding_rs::KOI8_U, encoding_rs::WINDOWS_1251);
        // x-mac-cyrillic `і` is windows-1251 `ґ`, which chardetng cannot tell (it names no
        // x-mac-cyrillic).
        not_sure(
            "канауджі\nкандас\nкандаво\nканде\nканембу\n",
            encoding_rs::X_MAC_CYRILLIC,
            encoding_rs::WINDOWS_1251,
        );
        // Twins that read the text differently: `ž` of ISO-8859-2 is `ľ` in windows-1250.
        not_sure(
            "OpenOffice Calc predložak\nOpenOffice Draw crtež\n",
            encoding_rs::ISO_8859_2,
            encoding_rs::WINDOWS_1250,
        );
        // Place names from many languages fit none in windows-1252, and Czech and Slovak in
        // windows-1250 but for a few letters.
        not_sure(
            "Otepää\n\
             Ouaddaï\n\
             Oudômxay\n\
             Ouham-Pendé\n\
             Ouémé\n\
             Panamá\n\
             Panamá Oeste\n\
             Paraguarí\n\
             Paraná\n\
             Paraíba\n\
             Pardubický kraj\n\
             Pará\n\
             Passoré\n\
             Paysandú\n\
             Peipsiääre\n\
             Pelopónnisos\n\
             Petén\n\
             Phôngsali\n\
             Phú Yên\n\
             Piauí\n\
             Pietà\n\
             Pinar del Río\n\
             Plužine\n\
             Österbotten\n\
             Nordösterbotten\n\
             Französisch-Polynesien\n\
             Potosí\n\
             Gespanschaft Požega-Slawonien\n\
             Praha-východ\n\
             Praha-západ\n\
             Probištip\n\
             Provence-Alpes-Côte-d’Azur\n\
             Príncipe\n\
             Puy-de-Dôme\n\
             Pyrénées-Atlantiques\n\
             Pyrénées-Orientales\n\
             Päijät-Häme\n\
             Pärnu\n\
             Pärnu\n\
             Pécs\n",
            encoding_rs::WINDOWS_1252,
            encoding_rs::WINDOWS_1250,
        );
    }

    #[test]
    fn a_clean_reading_without_a_rival_needs_no_chardetng() {
        let words = words_not_ascii(&encode(
            "Příliš žluťoučký kůň úpěl ďábelské ódy, řekl Štěpán.\n\
             Na čerstvém sněhu se třpytí ledové krystaly a děti se radují.\n\
             Soubor nelze otevřít, protože přístup byl odepřen správcem systému.\n",
            encoding_rs::WINDOWS_1250,
        ));
        let readings = single_byte_readings(&words);
        assert_eq!(
            settled_alone(&readings),
            Some(Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1250)))
        );
        // A few letters are not enough.
        let words = words_not_ascii(&encode("Příliš žluťoučký\n", encoding_rs::WINDOWS_1250));
        let readings = single_byte_readings(&words);
        assert_eq!(settled_alone(&readings), None);
    }

    #[test]
    fn hebrew_in_visual_order_and_with_geresh_is_hebrew() {
        // Old catalogs hold Hebrew in visual order, reversed, its final letters first in a word;
        // read in windows-1251 its letters are small Russian ones, with no flaw.
        let logical = [
            "שגיאה בקריאת הקובץ הנבחר",
            "לא ניתן למחוק את המפתח שבחרת",
            "הגדרות מקורות התוכנה והעדכונים",
            "מספר הקבצים שנמצאו בתיקייה",
            "אנא המתן עד לסיום ההתקנה",
            "הקובץ נשמר בהצלחה בתיקייה שלך",
            "חיפוש מידע על חבילות התוכנה",
            "שם המשתמש או הסיסמה אינם נכונים",
        ];
        let mut text = String::new();
        for line in logical {
            text.push_str(&line.chars().rev().collect::<String>());
            text.push('\n');
        }
        // Place names with a geresh (`ג׳רש`), which joins the letters of a word.
        text.push_str("ג׳רש\nהאי ג׳רביס\nדז׳יזק\nאטול ג׳ונסטון\nקריצ׳ו\nח׳וסת\n");
        let verdict = verdict(&encode(&text, encoding_rs::WINDOWS_1255));
        assert!(
            matches!(verdict, Verdict::Sure(Charset::Whatwg(e)) if e == encoding_rs::WINDOWS_1255
                || e == encoding_rs::ISO_8859_8),
            "{verdict:?}"
        );
    }

    #[test]
    fn a_code_chart_names_no_encoding() {
        // EUC-JP's three-byte JIS X 0212 characters one to a line, as a decoder's test input
        // lists them: every line reads as three Russian letters in IBM866.
        let mut chart = Vec::new();
        for second in 0xA1..=0xA4u8 {
            for third in 0xA1..=0xFEu8 {
                chart.extend_from_slice(&[0x8F, second, third, b'\n']);
            }
        }
        assert_eq!(verdict(&chart), Verdict::Unknown);
        // A sorted word list is text: it is named.
        let words = "абажур абзац аборт абрикос август авиация автобус автомат автор агент \
                     агрессия адвокат администрация адрес азбука академия аквариум акт \
                     актёр акула акцент алмаз алфавит альбом амбар анализ ангел анекдот \
                     антенна апельсин аппарат аппетит аптека арбуз аренда армия артист архив";
        let list: String = words
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| format!("{w}\n"))
            .collect::<String>()
            .repeat(3);
        assert_eq!(
            verdict(&encode(&list, encoding_rs::KOI8_R)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::KOI8_R))
        );
    }

    #[test]
    fn iso_2022_is_told_by_its_escapes() {
        assert_eq!(iso_2022(b"\x1b$B%3%s\x1b(B\n"), Some(Iso2022::Japanese));
        assert_eq!(
            iso_2022(b"\x1b$)C\x0e\x3e\x48\x0f\n"),
            Some(Iso2022::Korean)
        );
        // A terminal's colours, or any byte above 7F, are not ISO-2022.
        assert_eq!(iso_2022(b"plain \x1b[31mred\x1b[0m\n"), None);
        assert_eq!(iso_2022("\x1b$B caf\u{e9}".as_bytes()), None);
    }

    #[test]
    fn a_lone_byte_is_no_evidence() {
        assert_eq!(verdict(b"10 \xb5s\n"), Verdict::Unknown);
    }

    #[test]
    fn words_that_pair_by_chance_in_a_legacy_line_are_not_utf8() {
        // IBM866 menu lines: "&ход" and "ран" are well-formed UTF-8 by chance ("&室"); the file
        // is converted whole, not repaired byte by byte.
        let text = "menutrans &Save\t&Сохранить\nmenutrans Sa&ve-Exit\tВы&ход\\ с\\ сохранением\n";
        let mut evidence = Evidence::new();
        evidence.feed(&encode(text, encoding_rs::IBM866));
        evidence.finish();
        assert!(evidence.ill_formed > 0);
        assert!(!evidence.is_mixed(), "{evidence:?}");
        // A line that mixes one broken byte with one well-formed character still counts it.
        let mut evidence = Evidence::new();
        evidence.feed(b"Bj\xf6rn K\xc5\x82oczko\n");
        evidence.finish();
        assert_eq!((evidence.valid_multibyte, evidence.ill_formed), (1, 1));
        assert!(evidence.is_mixed());
    }

    #[test]
    fn a_latin1_name_among_utf8_reads_as_windows_1252() {
        let mut evidence = Evidence::new();
        evidence.feed(
            "Kłoczko ‰\nBj\u{0}rn\n"
                .replace('\u{0}', "\u{F6}")
                .as_bytes(),
        );
        evidence.feed(b"Bj\xf6rn Lindqvist\n");
        evidence.finish();
        assert!(evidence.is_mixed());
        assert_eq!(
            detect(&evidence),
            Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1252))
        );
    }

    #[test]
    fn each_script_is_told_apart() {
        let cases: &[(&str, &'static Encoding)] = &[
            (
                "Привет, как дела? Сегодня хорошая погода.\n",
                encoding_rs::WINDOWS_1251,
            ),
            (
                "Привет, как дела? Сегодня хорошая погода.\n",
                encoding_rs::KOI8_R,
            ),
            (
                "Привет, как дела? Сегодня хорошая погода.\n",
                encoding_rs::IBM866,
            ),
            (
                "Καλημέρα σας, τι κάνετε σήμερα;\n",
                encoding_rs::WINDOWS_1253,
            ),
            ("שלום עולם, מה שלומך היום\n", encoding_rs::WINDOWS_1255),
            (
                "Příliš žluťoučký kůň úpěl ďábelské ódy\n",
                encoding_rs::WINDOWS_1250,
            ),
            (
                "Příliš žluťoučký kůň úpěl ďábelské ódy\n",
                encoding_rs::ISO_8859_2,
            ),
            ("Zażółć gęślą jaźń\n", encoding_rs::WINDOWS_1250),
            (
                "Pijamalı hasta yağız şoföre çabucak güvendi\n",
                encoding_rs::WINDOWS_1254,
            ),
            (
                "Įlinkdama fechtuotojo špaga sublykčiojusi\n",
                encoding_rs::WINDOWS_1257,
            ),
            (
                "Le cœur déçu mais l'âme plutôt naïve\n",
                encoding_rs::WINDOWS_1252,
            ),
        ];
        for (text, encoding) in cases {
            assert_eq!(
                verdict(&encode(text, encoding)),
                Verdict::Sure(Charset::Whatwg(encoding)),
                "{text} in {}",
                encoding.name()
            );
        }
    }

    /// A long line is never cut inside a character, whatever the encoding and the line ends
    /// (CR only, none): a Shift_JIS text with CR line ends, and one with no line end at all,
    /// fed in pieces of every size across the 4 KiB cut, is Shift_JIS.
    #[test]
    fn long_lines_are_cut_between_characters() {
        let sentence = "日本語のテキストです。漢字とかなカナを含む文章、句読点も。";
        let shift_jis = encoding_rs::SHIFT_JIS;
        let cr = encode(&format!("{sentence}\r").repeat(400), shift_jis);
        let none = encode(&sentence.repeat(400), shift_jis);
        assert!(cr.len() > 3 * evidence::MAX_LINE && none.len() > 3 * evidence::MAX_LINE);
        for text in [&cr, &none] {
            for piece in [1, 2, 3, 1000, 4095, 4096, 4097, 8191, text.len()] {
                let mut evidence = Evidence::new();
                for chunk in text.chunks(piece) {
                    evidence.feed(chunk);
                }
                evidence.finish();
                assert_eq!(
                    detect(&evidence).likeliest(),
                    Some(Charset::Whatwg(shift_jis)),
                    "pieces of {piece}, {} line ends",
                    if text == &cr { "CR" } else { "no" }
                );
            }
        }
        // Cut after a byte below 0x30, or not yet, or (after 64 KiB with none) at a UTF-8
        // character's start.
        let mut run = vec![0x82u8; evidence::MAX_LINE + 10];
        assert_eq!(evidence::piece_end(&run), None);
        run[evidence::MAX_LINE + 5] = b'\r';
        assert_eq!(evidence::piece_end(&run), Some(evidence::MAX_LINE + 6));
        run[100] = b' ';
        assert_eq!(evidence::piece_end(&run), Some(101));
        let long = "é".repeat(evidence::MAX_RUN).into_bytes();
        let cut = evidence::piece_end(&long).unwrap();
        assert!(cut <= evidence::MAX_LINE && long[cut] == 0xC3, "{cut}");
    }

    /// Text whose only high bytes are the typographic marks every Windows code page holds at
    /// the same place is named windows-1252, which reads it alike; a pound sign (Ł in
    /// windows-1250) among them leaves it to the other rules.
    #[test]
    fn typographic_marks_alone_read_alike_in_every_windows_code_page() {
        let quotes = encode(
            "He said “don’t” – twice… and left — fine.\n",
            encoding_rs::WINDOWS_1252,
        );
        for encoding in [
            encoding_rs::WINDOWS_1250,
            encoding_rs::WINDOWS_1251,
            encoding_rs::WINDOWS_874,
        ] {
            assert_eq!(
                encoding.decode_without_bom_handling(&quotes).0,
                encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(&quotes)
                    .0
            );
        }
        assert_eq!(
            verdict(&quotes),
            Verdict::Sure(Charset::Whatwg(encoding_rs::WINDOWS_1252))
        );
        assert_eq!(typographic_verdict(b"price \xa3 5 \x93ok\x94\n"), None);
        assert_eq!(typographic_verdict(b"plain\n"), None);
    }

    /// Chinese and Japanese write their punctuation against Latin words (`Palm、PPC`, `GP。`):
    /// no anomaly of a double-byte reading.
    #[test]
    fn cjk_punctuation_between_latin_words_is_text() {
        let chinese = "本软件支持Palm、PPC、Symbian和Linux等多种平台。".repeat(10);
        assert_eq!(
            verdict(&encode(&chinese, encoding_rs::GBK)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::GBK))
        );
        let japanese = "対応機種はWindows、Mac、Linuxです。詳しくはFAQ。ご覧ください。".repeat(10);
        assert_eq!(
            verdict(&encode(&japanese, encoding_rs::EUC_JP)),
            Verdict::Sure(Charset::Whatwg(encoding_rs::EUC_JP))
        );
    }

    #[test]
    fn unmarked_utf16_is_seen() {
        use utf8kit_codec::transcode::Endian;
        let le: Vec<u8> = "plain text, no mark\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "plain text, no mark\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(
            unmarked_utf16_or_32(&le),
            Some(Charset::Utf16(Some(Endian::Little)))
        );
        assert_eq!(
            unmarked_utf16_or_32(&be),
            Some(Charset::Utf16(Some(Endian::Big)))
        );
        assert_eq!(unmarked_utf16_or_32(b"plain text, no mark at all\n"), None);
    }
}
