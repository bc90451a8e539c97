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
//! letters read the same as in windows-1252 and no other reading is plausible), and every
//! plausible reading that differs from it is its twin (the same alphabet in another code page)
//! or trails it by [`MIN_MARGIN`] of its letters; a close non-twin rival must be confirmed by
//! chardetng, Firefox's detector, or the verdict is "possibly A or B". CJK encodings are
//! chardetng's call, accepted when its reading decodes cleanly into CJK text.

use encoding_rs::Encoding;

use utf8kit_codec::Lint;
use utf8kit_mojibake::letters::is_alphabetic;

use crate::encodings::Charset;

/// How much evidence (invalid lines) is kept.
const EVIDENCE_LEN: usize = 64 * 1024;
/// How much of the start of the input is kept for the byte order patterns of UTF-16/32.
const HEAD_LEN: usize = 64 * 1024;
/// Lines longer than this are judged in pieces.
const MAX_LINE: usize = 4096;

/// The least share of letters that must fit one language for a confident answer.
pub const MIN_FIT: f64 = 0.9;
/// The fewest non-ASCII letters for a confident answer (unless they read as windows-1252 does).
pub const MIN_LETTERS: usize = 3;
/// How far (as a share of its letters) the winner must lead a plausible rival that is not its twin.
pub const MIN_MARGIN: f64 = 0.15;

/// What the detector has seen of one input.
#[derive(Debug, Default)]
pub struct Evidence {
    /// Lines that are not valid UTF-8, each ending in a newline, up to [`EVIDENCE_LEN`].
    lines: Vec<u8>,
    /// The unfinished line.
    carry: Vec<u8>,
    /// The first bytes of the input.
    head: Vec<u8>,
    /// Well-formed characters of more than one byte.
    pub valid_multibyte: u64,
    /// Ill-formed units (maximal subparts).
    pub ill_formed: u64,
    /// The first legacy encoding the text declares for itself.
    declared: Option<Charset>,
}

impl Evidence {
    /// An empty record.
    pub fn new() -> Evidence {
        Evidence::default()
    }

    /// Takes the next bytes of the input.
    pub fn feed(&mut self, mut chunk: &[u8]) {
        if self.head.len() < HEAD_LEN {
            let room = HEAD_LEN - self.head.len();
            self.head.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        while let Some(end) = chunk.iter().position(|&b| b == b'\n' || b == 0) {
            if self.carry.is_empty() {
                self.line(&chunk[..=end]);
            } else {
                let mut line = std::mem::take(&mut self.carry);
                line.extend_from_slice(&chunk[..=end]);
                self.line(&line);
            }
            chunk = &chunk[end + 1..];
        }
        self.carry.extend_from_slice(chunk);
        while self.carry.len() > MAX_LINE {
            // Cut at the start of a character (or of a legacy byte), never inside UTF-8.
            let cut = (1..=MAX_LINE)
                .rev()
                .find(|&i| self.carry[i] & 0xC0 != 0x80)
                .unwrap_or(MAX_LINE);
            let rest = self.carry.split_off(cut);
            let piece = std::mem::replace(&mut self.carry, rest);
            self.line(&piece);
        }
    }

    /// The end of the input.
    pub fn finish(&mut self) {
        let last = std::mem::take(&mut self.carry);
        if !last.is_empty() {
            self.line(&last);
        }
    }

    fn line(&mut self, line: &[u8]) {
        if self.declared.is_none() && line.len() <= 1024 {
            self.declared = declared(line);
        }
        // Most lines of a file with a finding are well-formed: they only add to the count of
        // multi-byte characters (one per lead byte), without the character walk below.
        if line.is_ascii() {
            return;
        }
        // A piece with control bytes is binary data (the tables of a message catalogue), not text.
        let is_binary = line
            .iter()
            .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B) || b == 0x7F);
        if simdutf8::basic::from_utf8(line).is_ok() {
            if !is_binary {
                self.valid_multibyte += line.iter().filter(|&&b| b >= 0xC0).count() as u64;
            }
            return;
        }
        let mut is_valid = true;
        let mut after_invalid = false;
        let mut valid_here = 0;
        let mut ill_formed_here = 0;
        for chunk in line.utf8_chunks() {
            let before_invalid = !chunk.invalid().is_empty();
            if !is_binary {
                // A well-formed character right against a broken byte is likelier two legacy
                // letters that happen to pair (`Сё` in windows-1251) than UTF-8.
                let count = chunk.valid().chars().count();
                valid_here += chunk
                    .valid()
                    .chars()
                    .enumerate()
                    .filter(|&(i, c)| {
                        let is_against_broken =
                            (i == 0 && after_invalid) || (i + 1 == count && before_invalid);
                        !c.is_ascii() && !is_against_broken
                    })
                    .count() as u64;
            }
            if before_invalid {
                ill_formed_here += 1;
                is_valid = false;
            }
            after_invalid = before_invalid;
        }
        self.ill_formed += ill_formed_here;
        // In a line of legacy text, a word cut off by ASCII can be well-formed UTF-8 by chance
        // (`&ход` in IBM866 is `&室`): a broken line's well-formed characters count as UTF-8
        // only when they are at least as many as its broken units ("Björn Kłoczko" mixes one
        // of each).
        if valid_here >= ill_formed_here {
            self.valid_multibyte += valid_here;
        }
        if !is_valid && !is_binary && self.lines.len() < EVIDENCE_LEN {
            self.lines.extend_from_slice(line);
            if !line.ends_with(b"\n") {
                self.lines.push(b'\n');
            }
        }
    }

    /// Whether the input holds well-formed multi-byte UTF-8 beyond what chance explains, as
    /// well as ill-formed bytes: more than one well-formed character per hundred ill-formed
    /// units, not counting characters right against a broken byte or in binary data (vim's
    /// Russian tutor in windows-1251 has 5 chance pairs such as `Сё` among 21,374 lone bytes; a
    /// UTF-8 file with a few Latin-1 names has as many well-formed characters as broken ones).
    pub fn is_mixed(&self) -> bool {
        self.ill_formed > 0 && self.valid_multibyte * 100 > self.ill_formed
    }
}

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

/// The start of the input, as fed.
impl Evidence {
    /// The first bytes of the input.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// Whether the head holds all it keeps: more input no longer changes [`Evidence::head`].
    pub fn head_is_full(&self) -> bool {
        self.head.len() >= HEAD_LEN
    }
}

/// Judges the evidence.
pub fn detect(evidence: &Evidence) -> Verdict {
    let sample = &evidence.lines;
    if sample.is_empty() {
        return Verdict::Unknown;
    }
    let readings: Vec<Reading> = CANDIDATES
        .iter()
        .enumerate()
        .map(|(index, _)| Reading::of(index, sample))
        .collect();
    if let Some(declared) = evidence.declared
        && agrees(declared, &readings)
    {
        return Verdict::Sure(declared);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(sample, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if let Some(verdict) = cjk_verdict(guess, &readings) {
        return verdict;
    }
    match decide(&readings, guess) {
        Verdict::Unknown => lone_letters_verdict(sample).unwrap_or(Verdict::Unknown),
        verdict => verdict,
    }
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
            let (text, _) = candidate.encoding.decode_without_bom_handling(&bytes);
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
    alike.then(|| Verdict::Sure(Charset::Whatwg(CANDIDATES[*first].encoding)))
}

/// Picks among the single-byte readings; `guess` is chardetng's, for close calls.
fn decide(readings: &[Reading], guess: &'static Encoding) -> Verdict {
    let Some(best) = readings
        .iter()
        .filter(|r| r.candidate.single_byte)
        .max_by(|a, b| a.rank(b))
    else {
        return Verdict::Unknown;
    };
    let charset = Charset::Whatwg(best.candidate.encoding);
    if best.fit() < MIN_FIT || best.letters == 0 {
        return Verdict::Unknown;
    }
    let as_1252 = &readings[0];
    let few = best.letters < MIN_LETTERS;
    if few && as_1252.text != best.text {
        return Verdict::Unknown;
    }
    let margin = (best.letters as f64 * MIN_MARGIN).max(1.0);
    let rival = readings
        .iter()
        .filter(|r| r.candidate.single_byte && r.text != best.text)
        .filter(|r| r.fit() >= MIN_FIT && r.letters > 0)
        .filter(|r| best.candidate.twin != r.candidate.twin || r.candidate.twin == 0)
        .filter(|r| (best.net() - r.net()) as f64 <= margin)
        .max_by(|a, b| a.rank(b));
    let Some(rival) = rival else {
        return Verdict::Sure(charset);
    };
    if few {
        return Verdict::Unknown;
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
            return Verdict::Sure(Charset::Whatwg(rival.candidate.encoding));
        }
    }
    let twin_of = |encoding: &'static Encoding| {
        CANDIDATES
            .iter()
            .find(|c| c.encoding == encoding)
            .map(|c| c.twin)
    };
    let confirms = guess == best.candidate.encoding
        || (best.candidate.twin != 0 && twin_of(guess) == Some(best.candidate.twin));
    if confirms {
        Verdict::Sure(charset)
    } else {
        Verdict::Possibly(charset, Charset::Whatwg(rival.candidate.encoding))
    }
}

/// The encoding the text declares for itself, as editors and parsers read it: vim's
/// `scriptencoding`, the `coding:` line of Emacs and Python, `charset=` (HTML, e-mail, the header
/// of a gettext catalogue), XML's `encoding=` and CSS's `@charset`. Only a legacy encoding
/// counts: a file that says UTF-8 and is not is the very case the hint is for.
fn declared(line: &[u8]) -> Option<Charset> {
    const KEYS: [&[u8]; 5] = [
        b"scriptencoding ",
        b"coding:",
        b"coding=",
        b"charset=",
        b"@charset ",
    ];
    if !line.contains(&b'=') && !line.contains(&b':') && !line.contains(&b' ') {
        return None;
    }
    // Every line of an input with a finding is searched: a key is looked for only where its
    // first byte is (no lowercase copy of each line, no comparison at every position).
    for (at, &byte) in line.iter().enumerate() {
        let byte = byte.to_ascii_lowercase();
        if !matches!(byte, b's' | b'c' | b'@') {
            continue;
        }
        let rest = &line[at..];
        let Some(key) = KEYS.iter().find(|key| {
            key[0] == byte && rest.len() >= key.len() && rest[..key.len()].eq_ignore_ascii_case(key)
        }) else {
            continue;
        };
        let rest = &rest[key.len()..];
        let rest = &rest[rest
            .iter()
            .position(|&b| !matches!(b, b' ' | b'"' | b'\''))
            .unwrap_or(rest.len())..];
        let end = rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b"_.:-".contains(&b)))
            .unwrap_or(rest.len());
        let Ok(label) = std::str::from_utf8(&rest[..end]) else {
            continue;
        };
        let Some(entry) = crate::encodings::lookup(label) else {
            continue;
        };
        match entry.charset {
            Charset::Whatwg(encoding)
                if encoding != encoding_rs::UTF_8 && encoding != encoding_rs::REPLACEMENT =>
            {
                return Some(entry.charset);
            }
            Charset::Latin1 => return Some(entry.charset),
            _ => {}
        }
    }
    None
}

/// Whether the evidence does not contradict a declared encoding: its reading is text.
fn agrees(declared: Charset, readings: &[Reading]) -> bool {
    let encoding = match declared {
        Charset::Latin1 => encoding_rs::WINDOWS_1252,
        Charset::Whatwg(encoding) => encoding,
        _ => return false,
    };
    let Some(reading) = readings.iter().find(|r| r.candidate.encoding == encoding) else {
        // An encoding the detector has no model of: its decoding must at least be clean.
        return false;
    };
    if !reading.candidate.single_byte {
        // Message catalogues hold binary tables between their strings: some noise is allowed.
        return reading.anomalies * 100 <= reading.letters * 15;
    }
    reading.letters < MIN_LETTERS || reading.fit() >= 0.5
}

/// CJK encodings: chardetng's guess, when its reading is clean CJK text.
fn cjk_verdict(guess: &'static Encoding, readings: &[Reading]) -> Option<Verdict> {
    let reading = readings
        .iter()
        .find(|r| !r.candidate.single_byte && r.candidate.encoding == guess)?;
    let cjk = reading.letters;
    if reading.anomalies * 100 > cjk || reading.fit() < MIN_FIT {
        return Some(Verdict::Unknown);
    }
    if cjk < 20 {
        return Some(Verdict::Unknown);
    }
    // A table of characters, each once (a decoder's test input, a code chart), says nothing of
    // the language, as a keymap's lone letters do not: real text repeats its common characters.
    if cjk >= 200 && reading.distinct_cjk * 10 > cjk * 8 {
        return Some(Verdict::Unknown);
    }
    Some(Verdict::Sure(Charset::Whatwg(guess)))
}

/// A candidate encoding, the languages written in it, and its twin group.
struct Candidate {
    encoding: &'static Encoding,
    languages: &'static [&'static str],
    /// Encodings with the same non-zero number hold the same alphabet: naming one for the
    /// other is the twin, not a wrong answer.
    twin: u8,
    single_byte: bool,
}

const WESTERN: &[&str] = &[
    "de", "fr", "es", "pt", "it", "nl", "sv", "da", "no", "fi", "is", "fo", "ca", "gl", "eu", "ga",
    "af", "sq", "et",
];
const CENTRAL: &[&str] = &["cs", "sk", "pl", "hu", "hr", "sl", "ro", "de"];
const CYRILLIC: &[&str] = &["ru", "uk", "be", "bg", "sr", "mk"];
const BALTIC: &[&str] = &["lt", "lv", "et"];

macro_rules! candidate {
    ($encoding:ident, $languages:expr, $twin:expr) => {
        Candidate {
            encoding: encoding_rs::$encoding,
            languages: $languages,
            twin: $twin,
            single_byte: true,
        }
    };
    ($encoding:ident, $languages:expr) => {
        Candidate {
            encoding: encoding_rs::$encoding,
            languages: $languages,
            twin: 0,
            single_byte: false,
        }
    };
}

/// The candidates, commonest first: ties go to the earlier.
static CANDIDATES: &[Candidate] = &[
    candidate!(WINDOWS_1252, WESTERN, 1),
    candidate!(WINDOWS_1250, CENTRAL, 2),
    candidate!(ISO_8859_2, CENTRAL, 2),
    candidate!(WINDOWS_1251, CYRILLIC, 3),
    candidate!(KOI8_R, &["ru", "bg"], 4),
    candidate!(KOI8_U, &["uk", "ru", "be"], 4),
    candidate!(ISO_8859_5, &["ru", "bg", "sr", "mk", "be"], 5),
    candidate!(IBM866, &["ru", "bg", "be", "uk"], 6),
    candidate!(X_MAC_CYRILLIC, CYRILLIC, 7),
    candidate!(WINDOWS_1253, &["el"], 8),
    candidate!(ISO_8859_7, &["el"], 8),
    candidate!(WINDOWS_1254, &["tr"], 9),
    candidate!(WINDOWS_1257, BALTIC, 10),
    candidate!(ISO_8859_13, BALTIC, 10),
    candidate!(ISO_8859_4, BALTIC, 10),
    candidate!(WINDOWS_1255, &["he"], 11),
    candidate!(ISO_8859_8, &["he"], 11),
    candidate!(WINDOWS_1256, &["ar", "fa", "ur"], 12),
    candidate!(ISO_8859_6, &["ar"], 12),
    candidate!(ISO_8859_3, &["eo", "mt"], 13),
    candidate!(ISO_8859_15, WESTERN, 1),
    candidate!(WINDOWS_874, &["th"], 14),
    candidate!(SHIFT_JIS, &["ja"]),
    candidate!(EUC_JP, &["ja"]),
    candidate!(GBK, &["zh"]),
    candidate!(BIG5, &["zh"]),
    candidate!(EUC_KR, &["ko"]),
];

/// The non-ASCII letters of each language's alphabet (CLDR's main exemplar characters,
/// lowercase; Romanian with both the comma and the cedilla forms that code pages hold).
fn alphabet(language: &str) -> &'static str {
    match language {
        "cs" => "áčďéěíňóřšťúůýž",
        "sk" => "áäčďéíĺľňóôŕšťúýž",
        "pl" => "ąćęłńóśźż",
        "hu" => "áéíóöőúüű",
        "hr" => "čćđšž",
        "sl" => "čšž",
        "ro" => "ăâîșțşţ",
        "de" => "äöüß",
        "fr" => "àâæçéèêëîïôœùûüÿ",
        "es" => "áéíñóúü",
        "pt" => "áàâãçéêíóôõú",
        "it" => "àèéìíîòóùú",
        "nl" => "áäéëíïóöúü",
        "sv" => "åäöé",
        "da" | "no" => "åæøé",
        "fi" => "åäöšž",
        "is" => "áæðéíóöúýþ",
        "fo" => "áæðíóøúý",
        "ca" => "àçèéíïòóúü",
        "gl" => "áéíñóúü",
        "eu" => "ñ",
        "ga" => "áéíóú",
        "af" => "éèêëîïôûŉ",
        "sq" => "çë",
        "et" => "äõöüšž",
        "tr" => "âçğıîöşûü",
        "lt" => "ąčęėįšųūž",
        "lv" => "āčēģīķļņšūž",
        "eo" => "ĉĝĥĵŝŭ",
        "mt" => "àċèġħìòùż",
        "ru" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "uk" => "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
        "be" => "абвгдеёжзійклмнопрстуўфхцчшыьэюя",
        "bg" => "абвгдежзийклмнопрстуфхцчшщъьюя",
        "sr" => "абвгдђежзијклљмнњопрстћуфхцчџш",
        "mk" => "абвгдѓежзѕијклљмнњопрстќуфхцчџш",
        "el" => "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
        "he" => "אבגדהוזחטיךכלםמןנסעףפץצקרשת",
        "ar" => "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي",
        "fa" => "آأئابپتثجچحخدذرزژسشصضطظعغفقکگلمنهوی",
        "ur" => "آابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیے",
        "th" => "กขฃคฅฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรฤลฦวศษสหฬอฮะัาำิีึืฺุูเแโใไๅๆ็่้๊๋์",
        _ => "",
    }
}

/// The script of a letter, for telling words that mix scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    Cjk,
    Other,
}

fn script(c: char) -> Script {
    match u32::from(c) {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F => Script::Arabic,
        0xE00..=0xE7F => Script::Thai,
        0x3040..=0x30FF
        | 0x3400..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0x1100..=0x11FF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF
        | 0x3000..=0x303F
        | 0x3130..=0x318F => Script::Cjk,
        _ => Script::Other,
    }
}

/// Symbols that may stand between two letters of a word.
fn joins_words(c: char) -> bool {
    matches!(
        c,
        '\u{2019}' | '\u{2018}' | '\u{B7}' | '\u{AD}' | '\u{2010}' | '\u{2011}' | '\u{A0}'
    )
}

/// One candidate's reading of the evidence.
struct Reading {
    candidate: &'static Candidate,
    /// The candidate's place in [`CANDIDATES`]: the earlier wins a tie.
    index: usize,
    text: String,
    /// Non-ASCII letters.
    letters: usize,
    /// Non-ASCII letters in the alphabet of the best-fitting language, in one-script words.
    fits: usize,
    /// Lowercase non-ASCII letters.
    lowercase: usize,
    /// Uppercase non-ASCII letters.
    uppercase: usize,
    /// Distinct CJK characters (for a CJK candidate).
    distinct_cjk: usize,
    /// Final forms where they belong, at the end of a word: evidence for Greek and Hebrew.
    finals: usize,
    anomalies: usize,
}

impl Reading {
    fn of(index: usize, sample: &[u8]) -> Reading {
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
        let alphabets = alphabets_of(index);
        let mut hits = vec![0usize; alphabets.len()];
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
                    reading.lowercase += usize::from(c.is_lowercase());
                    reading.uppercase += usize::from(c.is_uppercase());
                    if !is_one_script || script(c) == Script::Other {
                        continue;
                    }
                    let lower = c.to_lowercase().next().unwrap_or(c);
                    for (hit, alphabet) in hits.iter_mut().zip(alphabets) {
                        let has = |c: char| alphabet.binary_search(&c).is_ok();
                        *hit += usize::from(has(lower) || (c == 'İ' && has('ı')));
                    }
                }
                if !is_one_script {
                    reading.anomalies += 1;
                }
                // Final forms end words and only they do: Greek ς and σ, Hebrew ך ם ן ף ץ (a
                // Russian т read in windows-1253 is ς in mid-word).
                if letters.len() >= 2 {
                    let (last, inner) = letters.split_last().expect("two letters");
                    reading.anomalies += inner.iter().filter(|c| "ςךםןףץ".contains(**c)).count();
                    reading.anomalies += usize::from(*last == 'σ');
                    reading.finals += usize::from("ςךםןףץ".contains(*last));
                }
                // A capital after a small letter, one of them not ASCII (`żQué` is `¿Qué` read
                // in the wrong code page; `пРИВЕТ` is KOI8-R read as windows-1251).
                reading.anomalies += word
                    .windows(2)
                    .filter(|pair| {
                        pair[0].is_lowercase()
                            && pair[1].is_uppercase()
                            && !(pair[0].is_ascii() && pair[1].is_ascii())
                    })
                    .count();
                // A symbol right after a word and right before the next letter sits inside it.
                if i + 1 < chars.len()
                    && !chars[i].is_ascii()
                    && !alpha[i]
                    && !chars[i].is_whitespace()
                    && is_letter(i + 1)
                    && !joins_words(chars[i])
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

    fn net(&self) -> i64 {
        (self.fits + self.finals) as i64
            - (self.letters - self.fits) as i64
            - 2 * self.anomalies as i64
    }

    fn fit(&self) -> f64 {
        (self.fits as f64 - self.anomalies as f64) / ((self.letters + self.anomalies).max(1) as f64)
    }

    /// Orders readings: the higher `net`, then fewer capitals, then the earlier candidate.
    fn rank(&self, other: &Reading) -> std::cmp::Ordering {
        self.net()
            .cmp(&other.net())
            .then(other.uppercase.cmp(&self.uppercase))
            .then(other.index.cmp(&self.index))
    }
}

/// The alphabets ([`alphabet`]) of the languages of the candidate at `index`, each sorted for a
/// binary search, built once: a `str::contains` per letter and language was a fifth of the
/// hint's time, and sorting each alphabet for each reading of each input a tenth.
fn alphabets_of(index: usize) -> &'static [Vec<char>] {
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

fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x300..=0x36F | 0x591..=0x5C7 | 0x610..=0x61A | 0x64B..=0x65F | 0x670 | 0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E)
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
