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

mod evidence;
mod languages;
mod readings;

pub use evidence::Evidence;
use languages::*;
use readings::*;

/// The least share of letters that must fit one language for a confident answer.
pub const MIN_FIT: f64 = 0.9;
/// The fewest non-ASCII letters for a confident answer (unless they read as windows-1252 does).
pub const MIN_LETTERS: usize = 3;
/// How far (as a share of its letters) the winner must lead a plausible rival that is not its twin.
pub const MIN_MARGIN: f64 = 0.15;

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
        if is_single_byte(charset) {
            return verdict;
        }
        // A double-byte answer is held to chardetng's on eight times the evidence (a few KiB of
        // EUC-KR can read as GBK), and judged again on all of it when they differ.
        let more = sample.len().min(8 * FIRST_LOOK);
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

fn is_single_byte(charset: Charset) -> bool {
    matches!(charset, Charset::Whatwg(encoding) if encoding.is_single_byte())
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
    // A double-byte reading is asked only for chardetng's guess (it is the dearest); every
    // single-byte reading ranks against the others.
    let guess = guess.unwrap_or_else(|| chardetng_guess(sample));
    if let Some(index) = CANDIDATES
        .iter()
        .position(|c| !c.single_byte && c.encoding == guess)
    {
        return cjk_verdict(guess, &Reading::of(index, &words));
    }
    let readings: Vec<Reading> = CANDIDATES
        .iter()
        .enumerate()
        .filter(|(_, c)| c.single_byte)
        .map(|(index, _)| Reading::of(index, &words))
        .collect();
    match decide(&readings, guess) {
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
    if few && !as_1252.reads_like(best) {
        return Verdict::Unknown;
    }
    let margin = (best.letters as f64 * MIN_MARGIN).max(1.0);
    let rival = readings
        .iter()
        .filter(|r| r.candidate.single_byte && !r.reads_like(best))
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

/// Whether the evidence (the sample's [`words_not_ascii`]) does not contradict a declared
/// encoding: its reading is text.
fn agrees(declared: Charset, words: &[u8]) -> bool {
    let encoding = match declared {
        Charset::Latin1 => encoding_rs::WINDOWS_1252,
        Charset::Whatwg(encoding) => encoding,
        _ => return false,
    };
    let Some(index) = CANDIDATES.iter().position(|c| c.encoding == encoding) else {
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
