//! CJK text saved in a double-byte encoding and read as windows-1252 or Latin-1: `ÄãºÃ£¬ÊÀ½ç`
//! is `你好，世界` in GBK, as old MP3 tags, web pages and ZIP comments show it. Each character of such
//! a line stands for one byte of the text: written back as that byte, the line decodes in the
//! encoding the text was in.
//!
//! The line reads as Latin letters and signs side by side, as no language writes them; the
//! answer must be CJK text of common characters, in one reading clearly better than in any
//! other (Korean in EUC-KR is also GB2312's first level of ideographs, letter for letter: words
//! apart, as Korean writes them, tell it; a line that says no more is left). A line whose bytes
//! are UTF-8 is UTF-8's mojibake, never this.

use super::latin_filter::{first_latin_suspect, latin_byte};
use super::tables::{Tables, is_common_pair};
use super::{N, READINGS};
use crate::bytes::byte_in;
use crate::letters::is_alphabetic;
use crate::tables::COUNT;

/// Whether some encoding of the tables writes every character of `text` as one byte, and the
/// bytes are UTF-8.
fn is_utf8_through_a_code_page(text: &str) -> bool {
    let mut bytes = Vec::with_capacity(text.len());
    (0..COUNT).any(|e| {
        bytes.clear();
        for c in text.chars() {
            match byte_in(c, e) {
                0 => return false,
                b => bytes.push(b),
            }
        }
        simdutf8::basic::from_utf8(&bytes).is_ok()
    })
}

/// The score from which two readings that explain a line alike are told apart by character
/// frequencies: below it, chardetng's guess is a coin's.
const MIN_FOR_FREQUENCIES: i64 = 8;

/// The kind of text a reading's answer is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    Chinese,
    Japanese,
    Korean,
}

fn language(r: usize) -> Language {
    match r {
        0 | 2 => Language::Chinese,
        3 => Language::Korean,
        _ => Language::Japanese,
    }
}

/// A line undone: the answer, how many characters it restored, its reading (an index into
/// [`READINGS`]), and whether the line was read as Latin-1 rather than windows-1252.
pub(crate) struct LatinUndone {
    pub(crate) text: String,
    pub(crate) restored: usize,
    pub(crate) reading: usize,
    pub(crate) latin1: bool,
    /// Most of the line's bytes above 7F make UTF-8 sequences (`TiÃ¡ÂºÂ¿ng`): it may be UTF-8's
    /// mojibake, damaged, which the single-byte readings are asked about first.
    pub(crate) utf8_like: bool,
    /// The answer puts one to three CJK characters inside a word of small Latin letters
    /// (`aritm藕孤ico` for `aritmÃÂ©tico`, a byte lost): a single-byte reading's answer is
    /// taken first.
    pub(crate) inside_a_word: bool,
}

/// What [`undo_latin`] makes of a line.
pub(crate) enum LatinReading {
    /// No CJK text read as windows-1252 or Latin-1.
    Not,
    /// CJK text, but more than one reading explains it as well, or one explains it with its
    /// C1 controls: the line is left as it is (no other reading may take pieces of it).
    Undecided,
    Undone(LatinUndone),
}

/// Undoes the reading as windows-1252 or Latin-1 of CJK text that best explains `text`, a
/// line, if one clearly does.
pub(crate) fn undo_latin(text: &str) -> LatinReading {
    match undo(text) {
        Some(Some(undone)) => LatinReading::Undone(undone),
        Some(None) => LatinReading::Undecided,
        None => LatinReading::Not,
    }
}

/// [`undo_latin`]: `Some(None)` when undecided.
fn undo(text: &str) -> Option<Option<LatinUndone>> {
    first_latin_suspect(text.as_bytes())?;
    let mut bytes = Vec::with_capacity(text.len());
    // Which bytes the line shows as C1 controls.
    let mut shown_c1 = Vec::with_capacity(text.len());
    let (mut c1, mut signs) = (false, false);
    for c in text.chars() {
        shown_c1.push((0x80..=0x9F).contains(&u32::from(c)));
        if c.is_ascii() {
            bytes.push(c as u8);
            continue;
        }
        let (b, only_latin1) = latin_byte(c)?;
        c1 |= only_latin1;
        signs |= u32::from(c) > 0xFF;
        bytes.push(b);
    }
    // The least a judgement can rest on: two pairs side by side, both led by a byte of the
    // encodings' common rows (81..83 and 88..98 in Shift_JIS; A1..D7, the signs, kana and first
    // levels of GB2312, Big5, KS X 1001 and EUC-JP; Latin text's small accented letters are
    // E0..FF, `été`, and `Lääne` stops here); or one pair led by a byte below A0 that the line
    // shows as a C1 control or that is none of windows-1252's quotes and dashes (91..94, 96,
    // 97 stand before letters in Latin text, `l’eau`), and not right after a Latin letter
    // (`tur\u{92}stico` is `tur’stico`).
    let pair = |j: usize| bytes[j] >= 0x81 && bytes[j + 1] >= 0x40;
    let lone_lead = |j: usize| {
        bytes[j] < 0xA0
            && (shown_c1[j] || !matches!(bytes[j], 0x91..=0x94 | 0x96 | 0x97))
            && !(j > 0 && bytes[j - 1].is_ascii_alphabetic())
    };
    let common_pair =
        |j: usize| matches!(bytes[j], 0x81..=0x83 | 0x88..=0x98 | 0xA1..=0xD7) && pair(j);
    if !(0..bytes.len().saturating_sub(1)).any(|j| {
        pair(j) && lone_lead(j) || bytes.len() > j + 3 && common_pair(j) && common_pair(j + 2)
    }) {
        return None;
    }
    // A line that some single-byte encoding writes back as UTF-8 is UTF-8's mojibake (`cafÃ©`
    // through windows-1252, `–¶–£` for `ЦУ` through MacRoman), which the other readings judge.
    if std::str::from_utf8(&bytes).is_ok() || is_utf8_through_a_code_page(text) {
        return None;
    }
    let utf8_like = is_utf8_like(&bytes);
    let tables = Tables::get();
    let mut scores = [None; N];
    let mut answers: [Option<String>; N] = Default::default();
    for (r, codec) in READINGS.iter().enumerate() {
        let Some(answer) = codec.decode_without_bom_handling_and_without_replacement(&bytes) else {
            continue;
        };
        scores[r] = score(&answer, r, tables);
        answers[r] = Some(answer.into_owned());
    }
    let (best, &score) = scores
        .iter()
        .enumerate()
        .filter_map(|(r, s)| s.as_ref().map(|s| (r, s)))
        .max_by_key(|&(r, s)| (s.net, std::cmp::Reverse(r)))?;
    // A line that may be UTF-8 read twice and damaged, whose best answer glues CJK to Latin
    // letters, is not held back from the single-byte readings when undecided.
    let glued = utf8_like && answers[best].as_deref().is_some_and(glues_cjk_to_latin);
    // Too little evidence: the line is not this; but one that shows C1 controls and that some
    // reading explains is left as it is, not taken for Latin-1 read as windows-1252 on the
    // strength of its controls (`%H \u{8e}\u{9e}` is `%H 時` in Shift_JIS, not `%H Žž`).
    if !score.decisive || score.net <= 0 {
        return (score.net > 0 && shown_c1.contains(&true) && !glued).then_some(None);
    }
    // The evidence must be decisive: no other reading as good; else the character frequencies
    // of chardetng, on a line long enough for them, must name one of the readings as good.
    let tied = |r: usize| scores[r].is_some_and(|s| s.net >= score.net);
    // Between Chinese and Japanese answers as good (Big5's frequent hanzi stand where EUC-JP
    // has kana), a Japanese one of four CJK characters or more, a third of them kana and three
    // side by side, is the text. Kanji without kana say nothing: Japanese names and labels are
    // written so, and GB2312's first level reads as JIS level 1 kanji.
    let japanese_text = (0..N).any(|r| {
        tied(r) && language(r) == Language::Japanese && scores[r].is_some_and(|s| s.kana_text)
    });
    let tied = |r: usize| tied(r) && !(japanese_text && language(r) == Language::Chinese);
    // Then the answer whose characters text of its language uses (three in four or more, of
    // three different CJK characters at least), where every other's fall a third short.
    let ties = (0..N).filter(|&r| tied(r)).count();
    let familiar: [u32; N] = std::array::from_fn(|r| {
        if ties > 1 && tied(r) {
            answers[r].as_deref().map_or(0, |a| familiar_share(a, r))
        } else {
            0
        }
    });
    let most = familiar.iter().copied().max().unwrap_or(0);
    let known = most >= 75
        && (0..N)
            .filter(|&r| tied(r) && familiar[r] + 34 > most)
            .count()
            == 1;
    let tied = |r: usize| tied(r) && (!known || familiar[r] == most);
    let best = if (0..N).filter(|&r| tied(r)).count() == 1 {
        (0..N).find(|&r| tied(r)).unwrap_or(best)
    } else if score.net < MIN_FOR_FREQUENCIES {
        return (!glued).then_some(None);
    } else {
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(&bytes, true);
        let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
        let guess = if guess == encoding_rs::GB18030 {
            encoding_rs::GBK
        } else {
            guess
        };
        match (0..N).find(|&r| READINGS[r] == guess && tied(r)) {
            Some(r) => r,
            None => return (!glued).then_some(None),
        }
    };
    let text = answers[best].take()?;
    let inside_a_word = puts_cjk_inside_a_word(&text);
    let restored = text.chars().filter(|c| !c.is_ascii()).count();
    Some(Some(LatinUndone {
        text,
        restored,
        reading: best,
        latin1: c1 && !signs,
        utf8_like,
        inside_a_word,
    }))
}

/// Whether `text` holds one to three CJK characters between two small ASCII letters.
fn puts_cjk_inside_a_word(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len()).any(|i| {
        chars[i].is_ascii_lowercase()
            && (2..=4).any(|len| {
                chars.get(i + len).is_some_and(char::is_ascii_lowercase)
                    && chars[i + 1..i + len].iter().all(|&c| c as u32 >= 0x3040)
            })
    })
}

/// Whether a CJK character of `text` stands right against an ASCII letter.
fn glues_cjk_to_latin(text: &str) -> bool {
    let is_cjk =
        |c: char| matches!(u32::from(c), 0x3040..=0x30FF | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3);
    let chars: Vec<char> = text.chars().collect();
    chars.windows(2).any(|pair| {
        is_cjk(pair[0]) && pair[1].is_ascii_alphabetic()
            || pair[0].is_ascii_alphabetic() && is_cjk(pair[1])
    })
}

/// Whether at least seven in ten of the bytes above 7F in `bytes` stand in well-formed UTF-8
/// sequences: text in a double-byte encoding seldom reaches four in ten, UTF-8 read twice and
/// damaged here and there nearly always does.
fn is_utf8_like(bytes: &[u8]) -> bool {
    let (mut covered, mut at) = (0, 0);
    while at < bytes.len() {
        let (valid, skip) = match std::str::from_utf8(&bytes[at..]) {
            Ok(_) => (bytes.len() - at, 0),
            Err(e) => (
                e.valid_up_to(),
                e.error_len().unwrap_or(bytes.len() - at - e.valid_up_to()),
            ),
        };
        covered += bytes[at..at + valid].iter().filter(|&&b| b >= 0x80).count();
        at += valid + skip;
    }
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    10 * covered >= 7 * high
}

/// How well `answer` reads as text in the language of reading `r`, or `None` when it is no
/// such text (a control or private-use character, a rare or foreign character in four).
fn score(answer: &str, r: usize, tables: &Tables) -> Option<Score> {
    let language = language(r);
    let (mut common, mut against, mut side_by_side) = (0i64, 0i64, false);
    let (mut apart, mut kana) = (0i64, false);
    let mut cjk_chars = Vec::new();
    let mut previous = None;
    let mut before_space = None;
    for c in answer.chars() {
        let cp = u32::from(c);
        let kind = class(c, r, tables);
        match kind {
            Class::Ascii => {}
            Class::Common => common += 1,
            Class::Neutral => {}
            Class::Against => against += 2,
            Class::Refused => return None,
        }
        let cjk = matches!(kind, Class::Common | Class::Against) && cp >= 0x3040;
        if cjk && previous == Some(true) {
            side_by_side = true;
        }
        if cjk && before_space == Some(true) {
            apart += 1;
        }
        kana |= is_kana(c);
        if c == ' ' {
            before_space = previous;
        } else {
            before_space = None;
        }
        previous = Some(cjk);
        if cjk {
            cjk_chars.push(c);
        }
    }
    // An alphabet's UTF-8 read twice repeats its lead byte at every other character (`Õ«Õ¢`
    // is Armenian): one ideograph or hangul a third of six or more is no text.
    cjk_chars.sort_unstable();
    if cjk_chars.len() >= 6
        && cjk_chars
            .chunk_by(|a, b| a == b)
            .any(|run| run[0] >= '\u{4E00}' && 3 * run.len() > cjk_chars.len())
    {
        return None;
    }
    // Words apart, CJK on both sides of a space: Korean writes them, Chinese does not, nor
    // Japanese without kana.
    if language == Language::Chinese || language == Language::Japanese && !kana {
        against += apart;
    }
    // The longest run of kana (`として`).
    let kana_run = answer
        .chars()
        .fold((0, 0), |(run, best), c| {
            let run = if is_kana(c) { run + 1 } else { 0 };
            (run, best.max(run))
        })
        .1;
    let kana_count = cjk_chars.iter().filter(|&&c| is_kana(c)).count();
    (2 * against <= common).then_some(Score {
        net: common - against,
        decisive: common >= 2 && side_by_side,
        kana_text: cjk_chars.len() >= 4 && 3 * kana_count >= cjk_chars.len() && kana_run >= 3,
    })
}

/// The share, in hundredths, of the CJK characters of `answer` (reading `r`'s) that text of its
/// language uses ([`super::seen`]); 0 under three different ones.
fn familiar_share(answer: &str, r: usize) -> u32 {
    let seen: &[char] = match language(r) {
        Language::Chinese => super::seen::CHINESE,
        Language::Japanese => super::seen::JAPANESE,
        Language::Korean => super::seen::KOREAN,
    };
    let cjk_letter = |c: char| u32::from(c) >= 0x3040 && is_alphabetic(c);
    let mut cjk: Vec<char> = answer.chars().filter(|&c| cjk_letter(c)).collect();
    // A katakana alone between other characters is no word: Japanese writes them in runs
    // (`ヘ雀教ヘ` is `目錄項目` in Big5 read as EUC-JP).
    let katakana = |c: char| ('\u{30A1}'..='\u{30FE}').contains(&c);
    let mut chars = answer.chars().peekable();
    let mut previous = ' ';
    let mut known = 0;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        let lone = katakana(c) && !katakana(previous) && !katakana(next);
        known += usize::from(cjk_letter(c) && !lone && seen.binary_search(&c).is_ok());
        previous = c;
    }
    let all = cjk.len();
    cjk.sort_unstable();
    cjk.dedup();
    // One character over and over (`舊舊舊舊` is `Â` twelve times in Big5) is no text; two
    // different ones count only when text uses both and neither is a kana (`실패`, `失败`; not
    // `ア英`, which is `失敗` in Big5 read as Shift_JIS).
    match cjk.len() {
        0 | 1 => 0,
        2 if known < all || cjk.iter().any(|&c| is_kana(c)) => 0,
        _ => (100 * known / all) as u32,
    }
}

/// Whether `c` is a hiragana or katakana.
fn is_kana(c: char) -> bool {
    ('\u{3041}'..='\u{30FE}').contains(&c)
}

/// A reading's answer as text: its common characters less what speaks against it, and whether
/// that is evidence enough (two common characters, two CJK characters side by side).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    net: i64,
    decisive: bool,
    /// Four CJK characters or more, a third of them kana, three kana side by side: Japanese
    /// text.
    kana_text: bool,
}

enum Class {
    Ascii,
    /// A character the language uses every day.
    Common,
    /// Punctuation and full-width forms: CJK text's own, but common to every reading.
    Neutral,
    /// A rare character, or one of another language or alphabet.
    Against,
    /// A control, a private-use character: no text holds it.
    Refused,
}

/// What `c` is in the answer of reading `r`.
fn class(c: char, r: usize, tables: &Tables) -> Class {
    let cp = u32::from(c);
    match cp {
        0..=0x7F => Class::Ascii,
        0x80..=0x9F | 0xE000..=0xF8FF | 0xFFFD => Class::Refused,
        // The signs every one of these encodings holds in its first rows, which CJK text
        // writes: `“ ” ‘ ’ … — · × ° § №`, arrows, circled numbers, shapes, box drawing, CJK
        // punctuation, full-width forms.
        0xA7 | 0xB0 | 0xB1 | 0xB7 | 0xD7 | 0xF7 => Class::Neutral,
        0x2010..=0x203B | 0x2103 | 0x2116 | 0x2160..=0x2179 | 0x2190..=0x21FF => Class::Neutral,
        0x2460..=0x24FF | 0x2500..=0x257F | 0x25A0..=0x25FF | 0x2605 | 0x2606 => Class::Neutral,
        0x3000..=0x303F | 0xFF01..=0xFF5E | 0xFFE0..=0xFFE5 => Class::Neutral,
        // Kana: Japanese; GB2312 and KS X 1001 hold them too, where Chinese and Korean text
        // seldom reach.
        0x3041..=0x30FE if language(r) == Language::Japanese => Class::Common,
        // Ideographs in Chinese and Japanese, hangul in Korean (hanja are rare in Korean
        // text): those of the reading's own first level.
        0x4E00..=0x9FFF if language(r) == Language::Korean => Class::Against,
        0x4E00..=0x9FFF | 0xAC00..=0xD7A3 => {
            let code = tables.code(c, r);
            if code >> 24 == 2 && is_common_pair(r, code & 0xFFFF) {
                Class::Common
            } else {
                Class::Against
            }
        }
        _ => Class::Against,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` in `codec`, read as windows-1252 (its undefined bytes as C1 controls).
    fn shown(text: &str, codec: &'static encoding_rs::Encoding) -> String {
        let (bytes, _, unmappable) = codec.encode(text);
        assert!(!unmappable, "{text} in {}", codec.name());
        encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(&bytes)
            .0
            .into_owned()
    }

    fn undone_of(line: &str) -> Option<LatinUndone> {
        match undo_latin(line) {
            LatinReading::Undone(undone) => Some(undone),
            _ => None,
        }
    }

    #[test]
    fn cjk_text_read_as_windows_1252_is_undone() {
        assert_eq!(shown("你好，世界", encoding_rs::GBK), "ÄãºÃ£¬ÊÀ½ç");
        for (text, codec, reading) in [
            ("你好，世界", encoding_rs::GBK, 0),
            ("文件不存在", encoding_rs::GBK, 0),
            ("文字化けしています", encoding_rs::SHIFT_JIS, 1),
            ("無法開啟檔案", encoding_rs::BIG5, 2),
            ("파일을 열 수 없습니다", encoding_rs::EUC_KR, 3),
            ("ファイルを開けません", encoding_rs::EUC_JP, 4),
        ] {
            let line = shown(text, codec);
            let undone = undone_of(&line).unwrap_or_else(|| panic!("{line:?} ({text})"));
            assert_eq!(undone.text, text);
            assert_eq!(undone.reading, reading, "{text}");
            assert_eq!(
                undone.restored,
                text.chars().filter(|c| !c.is_ascii()).count()
            );
            assert!(!undone.latin1);
        }
    }

    #[test]
    fn a_line_read_as_latin_1_is_named_so() {
        // 文字化け in Shift_JIS is 95 B6 8E 9A 89 BB 82 AF: Latin-1 reads 95, 8E, 9A, 89 and 82
        // as C1 controls; a line that also holds windows-1252's signs was read as windows-1252.
        let line = "\u{95}¶\u{8E}\u{9A}‰»‚¯";
        let undone = undone_of(line).expect("signs and controls");
        assert_eq!(undone.text, "文字化け");
        assert!(!undone.latin1);
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("文字化けです");
        let line: String = bytes.iter().map(|&b| char::from(b)).collect();
        let undone = undone_of(&line).expect("Latin-1's reading");
        assert_eq!(undone.text, "文字化けです");
        assert!(undone.latin1);
    }

    #[test]
    fn a_line_that_two_readings_explain_alike_is_left() {
        // `山川河流` in GBK is also four of EUC-JP's level-1 kanji, too few for frequencies,
        // and of characters the manual pages seldom use.
        let line = shown("山川河流", encoding_rs::GBK);
        assert!(matches!(undo_latin(&line), LatinReading::Undecided));
        // `无法打开文件` is the same, but text uses each of its characters.
        let line = shown("无法打开文件", encoding_rs::GBK);
        assert_eq!(undone_of(&line).expect("gbk").text, "无法打开文件");
    }

    #[test]
    fn japanese_with_kana_beats_the_frequent_hanzi_big5_reads_alike() {
        // EUC-JP's kana rows are Big5's frequent hanzi (`含まれるのは` is `殖引木月及反`).
        let line = shown("\" 含まれるのは:", encoding_rs::EUC_JP);
        assert_eq!(line, "\" ´Þ¤Þ¤ì¤ë¤Î¤Ï:");
        let undone = undone_of(&line).expect("undone");
        assert_eq!(undone.text, "\" 含まれるのは:");
        assert_eq!(READINGS[undone.reading], encoding_rs::EUC_JP);
        // Kana that are no run of three say nothing (`目錄項目` in Big5 is `ヘ雀教ヘ` in EUC-JP):
        // the characters text uses choose Big5.
        let line = shown("ID 目錄項目", encoding_rs::BIG5);
        let undone = undone_of(&line).expect("undone");
        assert_eq!(undone.text, "ID 目錄項目");
        assert_eq!(READINGS[undone.reading], encoding_rs::BIG5);
    }

    #[test]
    fn ties_go_to_the_answer_whose_characters_its_language_uses() {
        // GBK's `文件非常陈旧` is EUC-JP's `猟周掲械蛎症`, all JIS level 1; Korean in EUC-KR is
        // GB2312's first level; a Japanese label of kanji reads as GB2312's too.
        for (text, codec) in [
            ("文件非常陈旧", encoding_rs::GBK),
            ("경고 (알림음)", encoding_rs::EUC_KR),
            ("#  最終修正 %s", encoding_rs::EUC_JP),
        ] {
            let undone = undone_of(&shown(text, codec)).expect(text);
            assert_eq!(undone.text, text);
            assert_eq!(READINGS[undone.reading], codec, "{text}");
        }
        // Two characters tell when text of one language uses both, neither a kana: `失败` in
        // GBK, `실패` in EUC-KR; not `ア英`, Shift_JIS's reading of `失敗` in Big5.
        for (text, codec) in [
            ("\"%s\" 失败", encoding_rs::GBK),
            ("\"%s\" 실패", encoding_rs::EUC_KR),
        ] {
            let undone = undone_of(&shown(text, codec)).expect(text);
            assert_eq!(undone.text, text);
        }
        assert!(matches!(
            undo_latin(&shown("%s 失敗", encoding_rs::BIG5)),
            LatinReading::Undecided
        ));
        assert_eq!(familiar_share("ア英", 1), 0);
        assert_eq!(familiar_share("失败", 0), 100);
        assert_eq!(familiar_share("失", 0), 0);
        assert!(familiar_share("文件非常陈旧", 0) >= 75);
        // The lists are searched by halves: each must be sorted, each character once.
        for list in [
            super::super::seen::CHINESE,
            super::super::seen::JAPANESE,
            super::super::seen::KOREAN,
        ] {
            assert!(list.len() > 500 && list.windows(2).all(|w| w[0] < w[1]));
        }
        assert!(familiar_share("猟周掲械蛎症", 4) < 50);
    }

    #[test]
    fn latin_text_and_utf8_mojibake_are_left() {
        for line in [
            // ЦУ through MacRoman: in windows-1252 the bytes are Shift_JIS's 霧魅.
            "–¶–£: %s:",
            "Š Š°Š½Š³",
            "Crème brûlée à la française",
            "«Ça va», «Ça ira»",
            "Ärger über Öl, Åland",
            "ÉCOLE FRANÇAISE",
            "cafÃ© crÃ¨me",
            "Ã©Ã¨",
            "Þórður Ægisson",
            "naïve façade — «déjà vu»",
            // One common ideograph alone is no evidence.
            "¤@",
        ] {
            assert!(matches!(undo_latin(line), LatinReading::Not), "{line}");
        }
    }

    #[test]
    fn korean_that_gb2312_also_reads_needs_words_apart() {
        // Hangul-only EUC-KR is GB2312's first level byte for byte: a single word says nothing
        // but what its characters are (`확인`'s two are Korean text's, GBK's `犬牢` not both
        // Chinese text's); one character alone, nothing.
        assert_eq!(
            encoding_rs::GBK
                .decode_without_bom_handling_and_without_replacement(
                    &encoding_rs::EUC_KR.encode("확인").0
                )
                .as_deref(),
            Some("犬牢")
        );
        let word = shown("확인", encoding_rs::EUC_KR);
        assert_eq!(undone_of(&word).expect("two characters").text, "확인");
        let one = shown("%s 확", encoding_rs::EUC_KR);
        assert!(!matches!(undo_latin(&one), LatinReading::Undone(_)));
        let words = shown("설정 파일 확인", encoding_rs::EUC_KR);
        assert_eq!(
            undone_of(&words).expect("words apart").text,
            "설정 파일 확인"
        );
    }

    #[test]
    fn utf8_read_twice_and_damaged_is_left_to_the_single_byte_readings() {
        // Armenian read as windows-1252 twice, its first character cut: after the first layer
        // (`•¢Õ«Õ¢...`, with a C1 control) GBK reads what is left as common ideographs, but the
        // single-byte readings explain nearly all of it.
        let line = "•Â¢Ã•Â«Ã•Â¢Ã•Â«Ã•Â¸, Ã•Â«Ã•Â£Ã•Â¢Ã•Â¸, Ã•Â«Ã•Â¤Ã•Â«Ã•Â·, Ã•Â«Ã•Â¤Ã•Â¸, \
                    Ã•Â«Ã•Â¬Ã•Â¸Ã•Â¯Ã•Â¥Ã–Â\u{80}Ã•Â¥Ã•Â¶";
        let fix = crate::undo_mojibake(line).expect("the single-byte readings repair it");
        assert_eq!(fix.text, "•¢իբիո, իգբո, իդիշ, իդո, իլոկերեն");
        assert!(
            fix.chain.layers().all(|layer| layer.written.is_none()),
            "{}",
            fix.chain
        );
        assert!(is_utf8_like(&[0xC3, 0xA1, 0xC2, 0xBA, 0xC2, b'x']));
        assert!(!is_utf8_like(&encoding_rs::GBK.encode("你好，世界").0));
    }

    #[test]
    fn the_filter_finds_the_first_pair() {
        assert_eq!(first_latin_suspect("abc ÄãºÃ".as_bytes()), Some(4));
        assert_eq!(first_latin_suspect("x•¶".as_bytes()), Some(4));
        assert_eq!(first_latin_suspect("é é é".as_bytes()), None);
        assert_eq!(first_latin_suspect("€ ü".as_bytes()), None);
        assert_eq!(first_latin_suspect("你好".as_bytes()), None);
        assert_eq!(first_latin_suspect("# ƒtƒ@ƒCƒ‹".as_bytes()), Some(2));
        assert_eq!(
            first_latin_suspect("%H \u{8e}\u{9e} (00..23)".as_bytes()),
            Some(3)
        );
        assert_eq!(first_latin_suspect("ƒ(x) = ǅ".as_bytes()), None);
    }
}
