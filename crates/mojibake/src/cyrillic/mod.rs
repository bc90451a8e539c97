//! Cyrillic text through the wrong code page, undone a whole line at a time: UTF-8 read as
//! IBM866 (`╨Я╤А╨╕╨▓╨╡╤В`), as x-mac-cyrillic (`–Я—А–Є–≤–µ—В`) or as ISO-8859-5; and text written
//! in one Cyrillic code page and read as another (`рТЙЧЕФ` is `Привет` in KOI8-R read as
//! windows-1251, `ЏаЁўҐв` the same word in IBM866 read as windows-1251).
//!
//! Each character of such a line stands for one byte: written back in the code page it was read
//! as, the line decodes in the one it was written in. The judge is what Cyrillic words look
//! like ([`flaws`]): letters of one language's alphabet, small letters after capitals and never
//! before one inside a word, no sign or box drawing between letters, no control; and how
//! common its pairs of letters are ([`rarity`]). A line is undone only when it breaks these
//! (or is words of capitals only, which the small letters of KOI8-R and windows-1251 are in
//! each other) and one answer breaks none and is clearly likelier than the line and than
//! every other answer (the same text however it is reached): any doubt leaves the line.

mod bigrams;
mod filter;
#[cfg(test)]
mod tests;

pub(crate) use filter::first_cyrillic_suspect;

use encoding_rs::Encoding as Codec;

use crate::letters::{is_alphabetic, is_lowercase, is_uppercase};

/// The code pages, in the order of [`crate::CYRILLIC`].
const CODE_PAGES: [&Codec; N] = [
    encoding_rs::WINDOWS_1251,
    encoding_rs::KOI8_R,
    encoding_rs::KOI8_U,
    encoding_rs::IBM866,
    encoding_rs::ISO_8859_5,
    encoding_rs::X_MAC_CYRILLIC,
];

const N: usize = 6;

/// The layer of UTF-8 read as code page `r`: the single-byte tables' own for those they hold.
fn utf8_layer(r: usize) -> u8 {
    let read_as = crate::CYRILLIC[r];
    crate::ENCODINGS
        .iter()
        .position(|&e| e == read_as)
        .map_or(crate::chain::cyrillic_layer(None, r), |e| e as u8)
}

/// Whether `a` and `b` are KOI8-R and KOI8-U, which differ in eight signs only: one read as
/// the other is no mojibake of letters.
fn both_koi8(a: usize, b: usize) -> bool {
    matches!((a, b), (1, 2) | (2, 1))
}

/// The code pages' characters.
struct Tables {
    /// The character of each byte 80..FF in each code page ('\0' where it defines none).
    high: [[char; 128]; N],
    /// Every character above 7F of any code page, sorted, with its byte in each (0 where none).
    bytes: Vec<(char, [u8; N])>,
    /// The same for U+0400..U+045F, looked up directly.
    cyrillic: [[u8; N]; 0x60],
    /// For each two code pages, the bytes 80..FF that they read differently, a bit each.
    differ: [[u128; N]; N],
}

impl Tables {
    fn get() -> &'static Tables {
        static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| {
            let mut high = [['\0'; 128]; N];
            let mut each: Vec<(char, usize, u8)> = Vec::with_capacity(N * 128);
            for (r, codec) in CODE_PAGES.iter().enumerate() {
                for b in 0x80..=0xFFu8 {
                    let byte = [b];
                    let decoded = codec.decode_without_bom_handling_and_without_replacement(&byte);
                    let Some(c) = decoded.and_then(|s| s.chars().next()) else {
                        continue;
                    };
                    high[r][usize::from(b - 0x80)] = c;
                    each.push((c, r, b));
                }
            }
            // A code page that reads two bytes as one character keeps the last of them.
            each.sort_unstable();
            let mut bytes: Vec<(char, [u8; N])> = Vec::new();
            for (c, r, b) in each {
                match bytes.last_mut() {
                    Some((k, row)) if *k == c => row[r] = b,
                    _ => {
                        let mut row = [0; N];
                        row[r] = b;
                        bytes.push((c, row));
                    }
                }
            }
            let mut cyrillic = [[0; N]; 0x60];
            for &(c, row) in &bytes {
                if let Some(slot) = cyrillic.get_mut((u32::from(c).wrapping_sub(0x400)) as usize) {
                    *slot = row;
                }
            }
            let mut differ = [[0u128; N]; N];
            for (a, row) in differ.iter_mut().enumerate() {
                for (b, bits) in row.iter_mut().enumerate() {
                    *bits = (0..128)
                        .filter(|&i| high[a][i] != high[b][i])
                        .fold(0, |bits, i| bits | 1 << i);
                }
            }
            Tables {
                high,
                bytes,
                cyrillic,
                differ,
            }
        })
    }

    /// The byte of `c` (not ASCII) in code page `r`, or 0.
    fn byte(&self, c: char, r: usize) -> u8 {
        if let Some(row) = self
            .cyrillic
            .get((u32::from(c).wrapping_sub(0x400)) as usize)
        {
            return row[r];
        }
        self.bytes
            .binary_search_by_key(&c, |&(k, _)| k)
            .map_or(0, |i| self.bytes[i].1[r])
    }
}

/// `text` written in code page `r` into `out`, or `false` when `r` lacks one of its characters.
fn encode(text: &str, r: usize, tables: &Tables, out: &mut Vec<u8>) -> bool {
    out.clear();
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c as u8);
            continue;
        }
        match tables.byte(c, r) {
            0 => return false,
            b => out.push(b),
        }
    }
    true
}

/// `bytes` read in code page `w` into `text`, or `false` when it leaves one of them undefined.
fn decode(bytes: &[u8], w: usize, tables: &Tables, text: &mut String) -> bool {
    text.clear();
    for &b in bytes {
        if b < 0x80 {
            text.push(char::from(b));
            continue;
        }
        match tables.high[w][usize::from(b - 0x80)] {
            '\0' => return false,
            c => text.push(c),
        }
    }
    true
}

/// The languages whose alphabet holds a Cyrillic letter, a bit each: Russian, Ukrainian,
/// Belarusian, Bulgarian, Serbian, Macedonian. Letters of other languages (Kazakh's, the
/// accented vowels) say nothing: every bit.
fn alphabets(c: char) -> u8 {
    const RU: u8 = 1;
    const UK: u8 = 2;
    const BE: u8 = 4;
    const BG: u8 = 8;
    const SR: u8 = 16;
    const MK: u8 = 32;
    const ALL: u8 = 63;
    let lower = small(c);
    match lower {
        'и' => ALL & !BE,
        'й' | 'ь' | 'ю' | 'я' => RU | UK | BE | BG,
        'щ' => RU | UK | BG,
        'ъ' => RU | BG,
        'ы' | 'э' | 'ё' => RU | BE,
        'ґ' | 'є' | 'ї' => UK,
        'і' => UK | BE,
        'ў' => BE,
        'ђ' | 'ћ' => SR,
        'ј' | 'љ' | 'њ' | 'џ' => SR | MK,
        'ѓ' | 'ѕ' | 'ќ' => MK,
        _ => ALL,
    }
}

/// `c` small, where it is a capital of U+0400..U+042F or `Ґ`; else `c`.
fn small(c: char) -> char {
    match c {
        'А'..='Я' => char::from_u32(u32::from(c) + 0x20).unwrap_or(c),
        'Ѐ'..='Џ' => char::from_u32(u32::from(c) + 0x50).unwrap_or(c),
        'Ґ' => 'ґ',
        _ => c,
    }
}

fn is_cyrillic_letter(c: char) -> bool {
    ('\u{400}'..='\u{4FF}').contains(&c) && is_alphabetic(c)
}

/// What a code page holds besides letters that no text puts against a letter: C1 controls,
/// box drawing and blocks, the signs of IBM866 and KOI8 (`√ ≈ ≤ ≥ ⌠ ⌡ ∙ ■ ÷`).
fn is_odd(c: char) -> bool {
    matches!(c,
        '\u{80}'..='\u{9F}'
        | '\u{2500}'..='\u{25A0}'
        | '\u{2219}' | '\u{221A}' | '\u{2248}' | '\u{2264}' | '\u{2265}'
        | '\u{2320}' | '\u{2321}' | '÷')
}

/// Whether `c` is a letter of Latin's own blocks (`a`, `é`, x-mac-cyrillic's `ƒ`).
fn is_latin_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || ('\u{C0}'..='\u{24F}').contains(&c) && is_alphabetic(c)
}

/// Every language's bit of [`alphabets`].
const ALL_ALPHABETS: u8 = 63;

/// The [`alphabets`] of Serbian and Macedonian.
const SERBIAN_MACEDONIAN: u8 = 16 | 32;

/// Signs of the code pages that text writes apart from letters (`€ ‰ † ‡ • ™`), shown for
/// letters when one code page is read as another (`дл€` is `для` in windows-1251 read as
/// x-mac-cyrillic).
fn never_against_letters(c: char) -> bool {
    matches!(c, '€' | '‰' | '†' | '‡' | '•' | '™')
}

/// Signs that stand against one side of a word in text (quotes, dashes, `…`, `№`): odd only
/// between two letters.
fn touches_words(c: char) -> bool {
    matches!(
        c,
        '«' | '»' | '„' | '“' | '”' | '‘' | '—' | '–' | '…' | '№' | '§' | '°'
    )
}

/// Signs that text puts inside words: the apostrophes of Ukrainian and Belarusian, the soft
/// and the non-breaking hyphen, the stress mark, the no-break spaces.
fn inside_words(c: char) -> bool {
    matches!(
        c,
        '’' | 'ʼ' | '\u{AD}' | '\u{2011}' | '\u{301}' | '\u{A0}' | '\u{202F}'
    )
}

/// How far `text` is from what Cyrillic words look like, and how many Cyrillic letters it
/// holds: one flaw for each small letter followed by a capital, each Cyrillic letter against
/// a Latin one, each odd character against a character that is not ASCII ([`is_odd`]; a C1
/// control anywhere), each sign against a letter (or between two, [`touches_words`]; `№` right
/// after a Cyrillic letter), the last
/// `«` or `„` if nothing closes it, and each letter but one that the language of the most
/// letters lacks.
fn flaws(text: &str) -> (u32, u32) {
    flaws_past(text.chars(), u32::MAX, true)
}

/// Whether `c` is what the dashes of text become through x-mac-cyrillic and windows-1251 read
/// as each other, where no text writes it alone between words: `Ч` (windows-1251's `—` read
/// as x-mac-cyrillic) and `Р` (x-mac-cyrillic's `–` read as windows-1251). Not `С` and `Ц`,
/// their other dashes, which catalogs write alone for the C language.
fn is_dash_letter(c: char) -> bool {
    matches!(c, 'Ч' | 'Р')
}

/// [`flaws`] of the characters `chars`, but as soon as they are more than `limit` ([`flaws`]
/// says how many), without the count of letters.
///
/// Without `latin`, a Cyrillic letter against a Latin one is no flaw: an answer of UTF-8,
/// whose bytes say enough, may hold `%sФайл`.
fn flaws_past(chars: impl Iterator<Item = char>, limit: u32, latin: bool) -> (u32, u32) {
    let mut flaws = 0;
    let mut letters = 0;
    let mut outside = [0u32; 6];
    let mut chars = chars.peekable();
    let mut prev = ' ';
    // Whether the last `«`, and the last `„`, is still open.
    let (mut guillemet, mut low_quote) = (false, false);
    // The alphabets that hold every letter of the word so far ([`alphabets`]), and how many
    // Cyrillic letters it has.
    let (mut word, mut length) = (ALL_ALPHABETS, 0);
    // Whether a printf directive (`%s`, `%-10lu`) is open, and whether `prev` ended one: its
    // letter is no Latin letter against a word it runs into (`%sФайл`).
    let (mut directive, mut after_directive) = (false, false);
    // Whether `prev` is a space after a word of `Ч` or `Р` alone ([`is_dash_letter`]).
    let mut after_dash_letter = false;
    // How many characters were read before `c`.
    let mut at = 0;
    let mut before_prev = ' ';
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        if !is_cyrillic_letter(c) && !inside_words(c) {
            // A word whose letters no one alphabet holds (`выџсните`): a flaw.
            flaws += u32::from(word == 0);
            (word, length) = (ALL_ALPHABETS, 0);
        }
        let ends_directive = directive
            && c.is_ascii_alphabetic()
            && !matches!(c, 'l' | 'h' | 'z' | 'j' | 't' | 'q' | 'L');
        if c.is_ascii() {
            flaws += u32::from(
                latin && c.is_ascii_alphabetic() && !directive && is_cyrillic_letter(prev),
            );
        } else if is_cyrillic_letter(c) {
            // Not a word that a directive runs into (`%sФайл`); a letter alone there is a flaw
            // (`З%sИ`, x-mac-cyrillic's guillemets read as windows-1251).
            flaws += u32::from(
                latin && is_latin_letter(prev) && !(after_directive && is_alphabetic(next)),
            );
            letters += 1;
            let mask = tally_outside(&mut outside, c);
            word &= mask;
            length += 1;
            // A unit of three letters, a capital, a small letter and a capital (`КиБ`, `МіБ`).
            let unit = length == 3 && is_uppercase(before_prev) && !is_alphabetic(next);
            if is_uppercase(c) && is_cyrillic_letter(prev) && is_lowercase(prev) && !unit {
                // A capital of Serbian or Macedonian alone inside a word weighs two.
                flaws += 1 + u32::from(mask & !SERBIAN_MACEDONIAN == 0);
            }
        } else if latin && is_latin_letter(c) && is_cyrillic_letter(prev) {
            flaws += 1;
        } else if (is_odd(c) || never_against_letters(c))
            && (is_cyrillic_letter(prev) || is_cyrillic_letter(next))
        {
            // No text writes these against a Cyrillic letter: two flaws.
            flaws += 2;
        } else if is_odd(c) {
            let against = |x: char| !x.is_ascii() && !x.is_whitespace();
            flaws += u32::from(c < '\u{A0}' || against(prev) || against(next));
        } else if !is_alphabetic(c) && !c.is_whitespace() && !inside_words(c) {
            let (before, after) = (is_alphabetic(prev), is_alphabetic(next));
            // `№` right after a Cyrillic letter is x-mac-cyrillic's `є` read as windows-1251
            // (`немає` shows as `нема№`): text writes it before a number.
            flaws += u32::from(if touches_words(c) {
                before && after || c == '№' && is_cyrillic_letter(prev)
            } else {
                before || after
            });
            match c {
                '«' => guillemet = true,
                '»' => guillemet = false,
                '„' => low_quote = true,
                '“' | '”' => low_quote = false,
                _ => {}
            }
        }
        if flaws > limit {
            return (flaws, letters);
        }
        // A capital alone right before a directive (`З%sИ`: x-mac-cyrillic's guillemets read
        // as windows-1251), as a letter alone right after one.
        flaws += u32::from(
            latin
                && c == '%'
                && !directive
                && is_cyrillic_letter(prev)
                && is_uppercase(prev)
                && !is_alphabetic(before_prev),
        );
        // `Ч` or `Р` alone between spaces before a small letter: a dash read as a letter, which
        // no text writes so: two flaws.
        flaws += 2 * u32::from(after_dash_letter && is_cyrillic_letter(c) && is_lowercase(c));
        after_dash_letter = c == ' ' && is_dash_letter(prev) && before_prev == ' ' && at > 1;
        at += 1;
        after_directive = ends_directive;
        // `%%` opens one too: catalogs formatted twice write `%%sФайл` for `%sФайл`.
        directive = if c == '%' {
            true
        } else {
            directive && !ends_directive && (c.is_ascii_alphanumeric() || "-+ #.*".contains(c))
        };
        before_prev = prev;
        prev = c;
    }
    // An opening quote that nothing closes.
    flaws += u32::from(guillemet) + u32::from(low_quote) + u32::from(word == 0);
    // One letter of another language is a word of it; two or more are a flaw each.
    let outside = outside.iter().min().copied().unwrap_or(0);
    (flaws + outside.saturating_sub(1), letters)
}

/// How many Cyrillic letters of `text` the alphabet of the language that holds most of them
/// lacks ([`alphabets`]).
fn outsiders(text: &str) -> u32 {
    let mut outside = [0u32; 6];
    for c in text.chars().filter(|&c| is_cyrillic_letter(c)) {
        tally_outside(&mut outside, c);
    }
    outside.iter().min().copied().unwrap_or(0)
}

/// Whether `c` is a letter that Serbian or Macedonian alone of [`alphabets`] hold (`ђ ј љ њ ћ
/// џ ѓ ѕ ќ`, either case).
fn is_serbian_letter(c: char) -> bool {
    is_cyrillic_letter(c) && alphabets(c) & !SERBIAN_MACEDONIAN == 0
}

/// How many letters of `text` are [`is_serbian_letter`].
fn serbian_letters(text: &str) -> usize {
    text.chars().filter(|&c| is_serbian_letter(c)).count()
}

/// Whether `text` holds 20 Cyrillic letters or more, one of them of Serbian or Macedonian alone
/// ([`is_serbian_letter`]), which begins a word of small letters.
fn lone_serbian_initial(text: &str) -> bool {
    text.chars().filter(|&c| is_cyrillic_letter(c)).count() >= 20
        && serbian_letters(text) == 1
        && count_in_context(text, |prev, c, next| {
            is_serbian_letter(c) && !prev.is_alphanumeric() && is_lowercase(next)
        }) == 1
}

/// Counts Cyrillic letter `c` in `outside` for each language whose alphabet lacks it
/// ([`alphabets`]), and gives back its [`alphabets`].
fn tally_outside(outside: &mut [u32; 6], c: char) -> u8 {
    let mask = alphabets(c);
    for (l, count) in outside.iter_mut().enumerate() {
        *count += u32::from(mask & 1 << l == 0);
    }
    mask
}

/// The bigram index of `c`: a letter of [`bigrams::LETTERS`], any case, or [`bigrams::EDGE`].
fn bigram_index(c: char) -> usize {
    let lower = small(c);
    match lower {
        'а'..='я' => (u32::from(lower) - u32::from('а')) as usize,
        // The rest of the letters are U+0450..U+045F and ґ: nothing below needs a look.
        ..='\u{44F}' => bigrams::EDGE,
        _ => bigrams::LETTERS
            .chars()
            .skip(32)
            .position(|l| l == lower)
            .map_or(bigrams::EDGE, |i| 32 + i),
    }
}

/// How unlike Cyrillic text the letters of `text` are, per pair of letters (or of a letter and
/// a word's edge) side by side: in thousandths of a tenth of a bit, from [`bigrams::COST`].
fn rarity(text: &str) -> u32 {
    let (mut sum, mut pairs) = (0u32, 0u32);
    let mut prev = bigrams::EDGE;
    for c in text.chars() {
        let cur = bigram_index(c);
        if cur == bigrams::EDGE && prev == bigrams::EDGE {
            continue;
        }
        sum += u32::from(bigrams::COST[prev][cur]);
        pairs += 1;
        prev = cur;
    }
    if prev != bigrams::EDGE {
        sum += u32::from(bigrams::COST[prev][bigrams::EDGE]);
        pairs += 1;
    }
    sum * 1000 / pairs.max(1)
}

/// How many Cyrillic capitals of `text` follow a letter.
fn capitals_inside_words(text: &str) -> usize {
    count_in_context(text, |prev, c, _| {
        is_cyrillic_letter(c) && is_uppercase(c) && is_alphabetic(prev)
    })
}

/// How many Cyrillic capitals of `text` follow a small letter and come before none (`длЯ`,
/// not `типЦП`, a word and an abbreviation written together).
fn capitals_after_small(text: &str) -> usize {
    count_in_context(text, |prev, c, next| {
        is_cyrillic_letter(c) && is_uppercase(c) && is_lowercase(prev) && !is_uppercase(next)
    })
}

/// How many characters of `text` `hit` holds for, given each with the character before it and
/// the one after (a space past either end).
fn count_in_context(text: &str, hit: impl Fn(char, char, char) -> bool) -> usize {
    let mut chars = text.chars().peekable();
    let (mut prev, mut count) = (' ', 0);
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        count += usize::from(hit(prev, c, next));
        prev = c;
    }
    count
}

/// Whether a `ґ` between `prev` and `next` is x-mac-cyrillic's `і` read as windows-1251
/// (`пґдтримку` for `підтримку`, `ґндекс`, `що ґ`): after a consonant but `н`, or beginning a
/// word before anything but a vowel, `р`, `л` or `в`. Ukrainian writes `ґ` after vowels and `н`
/// (`теґ`, `аґрус`, `Вашинґтон`), after another consonant seldom (`підґрунті`), and begins
/// words with it before those letters (`ґанок`, `ґрунт`, `ґвалт`).
pub(super) fn is_hard_g(prev: char, next: char) -> bool {
    let consonant = |c: char| "бвгґджзйклмнпрстфхцчшщ".contains(small(c));
    let begins = !is_alphabetic(prev) && !matches!(prev, '\'' | '’' | 'ʼ' | '-');
    consonant(prev) && small(prev) != 'н' || begins && !"аеєиіїоуюярлв".contains(small(next))
}

/// How many `ґ` of `text` are [`is_hard_g`].
fn hard_gs(text: &str) -> usize {
    count_in_context(text, |prev, c, next| c == 'ґ' && is_hard_g(prev, next))
}

/// How many words of `text` begin with a capital shown as a sign: [`signs_before_words`] and
/// [`unclosed_quotes`].
fn signed_words(text: &str) -> usize {
    signs_before_words(text) + unclosed_quotes(text)
}

/// What [`signed_words`] add to [`rarity`]: ten bits each, spread over the pairs.
fn signed_words_cost(text: &str) -> u32 {
    ten_bits_each(signed_words(text), text)
}

/// What the signs of the code pages that text seldom writes at all ([`is_odd`], `€ ‰ † ‡ • ™ ƒ`)
/// add to [`rarity`], which takes them for a word's edge: ten bits each, spread over the pairs
/// (`що ≥` is no likelier than `що і`).
fn odd_signs_cost(text: &str) -> u32 {
    // `ƒ` too: x-mac-cyrillic's, which no Cyrillic text writes (`ƒ%s”` is no `„%s“`).
    let n = text
        .chars()
        .filter(|&c| is_odd(c) || never_against_letters(c) || c == 'ƒ')
        .count();
    ten_bits_each(n, text)
}

/// What the letters of `text` that its language lacks ([`outsiders`]) add to [`rarity`], which
/// takes the letters beyond `а..я` for a word's edge: ten bits each, spread over the pairs.
fn outsiders_cost(text: &str) -> u32 {
    ten_bits_each(outsiders(text) as usize, text)
}

/// Ten bits for each of `n` things wrong with `text`, spread over its pairs of letters as
/// [`rarity`] counts them (thousandths of a tenth of a bit per pair).
fn ten_bits_each(n: usize, text: &str) -> u32 {
    if n == 0 {
        return 0;
    }
    let pairs = text
        .chars()
        .filter(|&c| bigram_index(c) != bigrams::EDGE)
        .count() as u32
        + 1;
    n as u32 * 100 * 1000 / pairs
}

/// How many words of `text` begin with a sign against a small Cyrillic letter (`—алерно`,
/// `”становлен`, `ƒали`): not an opening quote, nor the no-break space after a digit or a
/// letter.
fn signs_before_words(text: &str) -> usize {
    count_in_context(text, |prev, c, next| {
        // `ƒ` too, x-mac-cyrillic's, for windows-1251's `Д` (`ƒали`).
        !c.is_ascii()
            && (!is_alphabetic(c) || c == 'ƒ')
            && !matches!(c, '«' | '„' | '“' | '‘' | '\u{301}')
            && !prev.is_alphanumeric()
            && is_cyrillic_letter(next)
            && is_lowercase(next)
    })
}

/// How many signs of `text` beyond ASCII stand alone between characters that are no letters,
/// where text writes none (`¬ строке`: not a dash, a quote, `…` or `№`, [`touches_words`]);
/// with a closing quote that begins the line before a space (`” вас`), and the line's only
/// quote standing between spaces (`42 “ это`), which open or close nothing (quotes in pairs
/// between spaces quote a space or a sign: `„ _ “`).
fn lone_signs(text: &str) -> usize {
    let is_quote = |c: char| matches!(c, '«' | '»' | '„' | '“' | '”' | '‘');
    let mut chars = text.chars();
    let closes_nothing =
        matches!(chars.next(), Some('”' | '»')) && chars.next().is_some_and(char::is_whitespace);
    let one_quote = text.chars().filter(|&c| is_quote(c)).count() == 1;
    usize::from(closes_nothing)
        + count_in_context(text, |prev, c, next| {
            !c.is_ascii()
                && !is_alphabetic(c)
                && !c.is_whitespace()
                && (!touches_words(c)
                    || one_quote
                        && !closes_nothing
                        && is_quote(c)
                        && prev.is_whitespace()
                        && next.is_whitespace())
                && !inside_words(c)
                && !is_alphabetic(prev)
                && !is_alphabetic(next)
        })
}

/// How many opening quotes `“`, `„` and `‘` of `text` stand before a small Cyrillic letter and
/// are not closed (by `”`, `”` or `“`, and `’`) later in the line: a capital that a code page
/// shows as a quote (`“становить` is `Установить` in x-mac-cyrillic read as windows-1251,
/// `„одати` is `Додати`).
fn unclosed_quotes(text: &str) -> usize {
    if !text.contains(['“', '‘', '„']) {
        return 0;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut count = 0;
    for (i, &c) in chars.iter().enumerate() {
        let closer = match c {
            '“' | '„' => '”',
            '‘' => '’',
            _ => continue,
        };
        let before = i.checked_sub(1).map_or(' ', |p| chars[p]);
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        count += usize::from(
            !before.is_alphanumeric()
                && is_cyrillic_letter(next)
                && is_lowercase(next)
                && !chars[i + 1..].contains(&closer)
                && !(c == '„' && chars[i + 1..].contains(&'“')),
        );
    }
    count
}

/// Whether `a` and `b` are the same text but for the case of their letters.
fn same_letters(a: &str, b: &str) -> bool {
    a.chars().map(bigram_index).eq(b.chars().map(bigram_index))
        && a.chars()
            .filter(|&c| bigram_index(c) == bigrams::EDGE)
            .eq(b.chars().filter(|&c| bigram_index(c) == bigrams::EDGE))
}

/// The Cyrillic words of `text` (UTF-8), a word being a run of characters of U+0400..U+04FF:
/// how many letters each holds, whether all are capitals of U+0400..U+042F, whether none is,
/// and where it ends (its bytes are the two bytes of each letter before that).
fn cyrillic_words(text: &[u8]) -> impl Iterator<Item = (usize, bool, bool, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let (mut run, mut all, mut none) = (0, true, true);
        while i < text.len() {
            if let Some(&b @ 0xD0..=0xD3) = text.get(i)
                && let Some(&second) = text.get(i + 1)
            {
                run += 1;
                // A small `ъ` counts with capitals: x-mac-cyrillic's `я` read as KOI8 (`БШОНКМЕМХъ`
                // for `выполнения`), which no word of capitals has in text.
                all &= b == 0xD0 && second < 0xB0 || b == 0xD1 && second == 0x8A;
                none &= !(b == 0xD0 && second < 0xB0);
                i += 2;
                continue;
            }
            i += 1;
            if run > 0 {
                return Some((run, all, none, i - 1));
            }
        }
        (run > 0).then_some((run, all, none, i))
    })
}

/// How many words of `text` (UTF-8) are two or more capitals of U+0400..U+042F and nothing
/// else, and how many other words of two letters or more it holds ([`cyrillic_words`]).
pub(super) fn capital_words(text: &[u8]) -> (usize, usize) {
    cyrillic_words(text).filter(|&(run, ..)| run >= 2).fold(
        (0, 0),
        |(capitals, others), (_, all, ..)| {
            (capitals + usize::from(all), others + usize::from(!all))
        },
    )
}

/// Whether `text` is words of capitals, five capitals at least (an abbreviation, `СССР`, has
/// fewer), and three of them at least for each other Cyrillic word, a word written again
/// counted once: what KOI8-R and windows-1251 make of each other's small letters, when no
/// capital began a word (the other words were written in capitals, placeholders that a line
/// names more than once: `йнс ОЕ ЪБДБОП` for `ИМЯ не задано`, `уйнчпм ВХДЕФ ... уйнчпм`; a word
/// of small letters after `=`, `<`, `[` or `_`, or before `_`, `>` or `]`, is such a placeholder
/// and not counted: `--file=жбкм ЛБЛ ... жбкмб`). Done as soon as two other words or more
/// outnumber the words of capitals, where most lines end.
pub(super) fn all_capitals(text: &[u8]) -> bool {
    let (mut capitals, mut words) = (0, 0);
    // The other words, each once: the first, and those after it (most lines end at the second).
    let (mut first, mut others): (Option<&[u8]>, Vec<&[u8]>) = (None, Vec::new());
    for (run, all, small, end) in cyrillic_words(text).filter(|&(run, ..)| run >= 2) {
        if all {
            capitals += run;
            words += 1;
            continue;
        }
        let word = &text[end - 2 * run..end];
        // A placeholder (`--file=ФАЙЛ`, `ИМЯ_ФАЙЛА`, `<ФАЙЛ>`) is written in capitals in text:
        // in small letters (KOI8-R and windows-1251 read as each other swap case), it is no
        // word of the line's own.
        let before = (end - 2 * run).checked_sub(1).map(|at| text[at]);
        let placeholder = matches!(before, Some(b'=' | b'<' | b'[' | b'_'))
            || matches!(text.get(end), Some(b'_' | b'>' | b']'));
        if placeholder && small {
            continue;
        }
        if first.is_none() {
            first = Some(word);
        } else if first != Some(word) && !others.contains(&word) {
            if others.len() + 2 > words {
                return false;
            }
            others.push(word);
        }
    }
    capitals >= 5 && words >= 3 * (usize::from(first.is_some()) + others.len())
}

/// Whether `answer`, a reading of `line` character for character, made a sign of a letter of
/// the line only where the sign stands alone (`я` for `—` between spaces) or against Latin
/// letters (`Ђ%sї` for `«%s»`), or as a quote or `…` that closes a word (`шаблонИ` for
/// `шаблон»`) or a quote that opens one, or as an apostrophe inside a word (`пам’яті`): a
/// reading that makes other signs of the letters inside Cyrillic words is no answer.
fn keeps_words(line: &str, answer: &str) -> bool {
    let mut line = line.chars().peekable();
    let mut before = false;
    answer.chars().all(|c| {
        let letter = line.next().is_some_and(is_cyrillic_letter);
        let after = line.peek().is_some_and(|&n| is_cyrillic_letter(n));
        let edge = match (before, after) {
            (false, false) => true,
            (true, false) => matches!(c, '»' | '“' | '…'),
            (false, true) => matches!(c, '«' | '„'),
            (true, true) => false,
        };
        before = letter;
        // Ukrainian and Belarusian write an apostrophe inside words (`пам’яті`), which IBM866
        // and x-mac-cyrillic read as a letter (`ярьТ`).
        !letter || is_alphabetic(c) || edge || matches!(c, '’' | 'ʼ')
    })
}

/// How many words of `line` that begin small and go on in capitals (`фЕНБ`) `answer`, a reading
/// of it character for character, makes small after their first letter (`Тема`): what KOI8 and
/// windows-1251, read as each other, do to the words that begin with a capital, and text does
/// not write.
fn inverted_words_made_small(line: &str, answer: &str) -> usize {
    let line: Vec<char> = line.chars().collect();
    let at = |i: usize| line.get(i).copied().filter(|&c| is_cyrillic_letter(c));
    let capital = |i: usize| at(i).is_some_and(is_uppercase);
    answer
        .chars()
        .enumerate()
        .filter(|&(i, c)| {
            i > 0
                && capital(i)
                && capital(i + 1)
                && at(i - 1).is_some_and(is_lowercase)
                && (i < 2 || at(i - 2).is_none())
                && is_lowercase(c)
        })
        .count()
}

/// Whether `answer`, a reading of `line` character for character, changed only letters of the
/// line's words into letters, and signs that stand against a Cyrillic letter where text does not
/// put them (not `—` alone between spaces, nor a quote before a word: a reading may make
/// letters of those too).
fn changes_inside_words(line: &str, answer: &str) -> bool {
    let line: Vec<char> = line.chars().collect();
    let letter = |i: usize| line.get(i).is_some_and(|&c| is_cyrillic_letter(c));
    answer.chars().enumerate().all(|(i, b)| {
        let a = line[i];
        let (before, after) = (i > 0 && letter(i - 1), letter(i + 1));
        a == b
            || is_cyrillic_letter(b)
                && (is_cyrillic_letter(a)
                    || before && after
                    || (before || after) && !touches_words(a) && !a.is_whitespace())
    })
}

/// A line undone: the answer, how many characters were read again, and the layer (a
/// `chain::cyrillic_layer`).
pub(crate) struct CyrillicUndone {
    pub(crate) text: String,
    pub(crate) restored: usize,
    pub(crate) layer: u8,
}

/// What [`undo_cyrillic`] makes of a line.
pub(crate) enum CyrillicReading {
    /// Nothing to undo here.
    Not,
    /// Readings make flawless Cyrillic text of a line that shows C1 controls, but none clearly
    /// enough: the line is left as it is (the single-byte judging would take the controls for
    /// windows-1252's signs, a wrong answer).
    Undecided,
    Undone(CyrillicUndone),
}

impl CyrillicReading {
    /// The line undone, if it was.
    #[cfg(test)]
    pub(crate) fn undone(self) -> Option<CyrillicUndone> {
        match self {
            CyrillicReading::Undone(undone) => Some(undone),
            _ => None,
        }
    }
}

/// Undoes the one reading of `text`, a line, through a Cyrillic code page that makes it what
/// Cyrillic words look like, if the line is far from it and exactly one answer is.
#[cfg(test)]
pub(crate) fn undo_cyrillic(text: &str) -> CyrillicReading {
    undo_cyrillic_layer(text, true)
}

/// [`undo_cyrillic`] of a line as it came (`outermost`), or of the answer of a layer undone: a
/// line of capitals that a reading made is what that reading meant, not small letters shown as
/// capitals.
pub(crate) fn undo_cyrillic_layer(text: &str, outermost: bool) -> CyrillicReading {
    let mut answered = false;
    match judge(text, outermost, &mut answered) {
        Some(undone) => CyrillicReading::Undone(undone),
        None if answered && text.chars().any(|c| ('\u{80}'..='\u{9F}').contains(&c)) => {
            CyrillicReading::Undecided
        }
        None => CyrillicReading::Not,
    }
}

/// [`undo_cyrillic`]; `answered` says whether some reading made flawless text.
fn judge(text: &str, outermost: bool, answered: &mut bool) -> Option<CyrillicUndone> {
    // What the line filter passes over is never read again (the other readings' lines come
    // here too).
    first_cyrillic_suspect(text.as_bytes())?;
    let (flawed, letters) = flaws(text);
    let (capitals, _) = capital_words(text.as_bytes());
    let capitals_only = outermost && flawed == 0 && all_capitals(text.as_bytes());
    let tables = Tables::get();
    // The line in each code page that writes it.
    let mut written: [Vec<u8>; N] = Default::default();
    let mut writes = [false; N];
    for (r, bytes) in written.iter_mut().enumerate() {
        bytes.reserve(text.len());
        writes[r] = encode(text, r, tables, bytes) && !bytes.is_ascii();
    }
    // The flawless answers, each text once: UTF-8 read as a code page, then the code pages read
    // as one another, each with its rarity and its layer.
    let mut utf8: Vec<(String, u32, u8)> = Vec::new();
    let mut legacy: Vec<(String, u32, u8)> = Vec::new();
    // An answer of UTF-8 holds two Cyrillic letters at least, one of the code pages four: fewer
    // are no evidence (`ГЂЃ` reads as `Гло` through two of them).
    // `letters` is the candidate's count of Cyrillic letters, when it is known to be flawless.
    let consider = |answers: &mut Vec<(String, u32, u8)>,
                    candidate: &str,
                    layer: u8,
                    least: u32,
                    letters: Option<u32>| {
        if candidate == text || answers.iter().any(|a| a.0 == candidate) {
            return;
        }
        // The answers of UTF-8 need two letters, the others four and no Latin letter against a
        // Cyrillic one.
        let (flawed, found) = letters.map_or_else(
            || flaws_past(candidate.chars(), u32::MAX, least > 2),
            |n| (0, n),
        );
        if flawed == 0 && found >= least {
            let rare = rarity(candidate)
                + signed_words_cost(candidate)
                + odd_signs_cost(candidate)
                + outsiders_cost(candidate);
            answers.push((candidate.to_owned(), rare, layer));
        }
    };
    // A line that some code page writes as UTF-8 is UTF-8's mojibake: only a reading of UTF-8
    // may answer it, here if its answer is Cyrillic text, else in the single-byte judging.
    let mut any_utf8 = false;
    for r in (0..N).filter(|&r| writes[r]) {
        if let Ok(answer) = std::str::from_utf8(&written[r]) {
            any_utf8 = true;
            if flawed >= 2 {
                consider(&mut utf8, answer, utf8_layer(r), 2, None);
            }
        }
    }
    if any_utf8 && utf8.is_empty() {
        return None;
    }
    let mut candidate = String::with_capacity(2 * text.len());
    // A line of capitals only, whose first capital a reading must make small.
    let first_capital = if capitals_only {
        text.chars()
            .find(|&c| is_cyrillic_letter(c) && is_uppercase(c))
    } else {
        None
    };
    // The readings tried, each the code page the line was written in and the one it was read
    // as: a reading of the same bytes (KOI8-U writes a line with no letter of Ukrainian's own
    // as KOI8-R does) by a code page that reads each byte the line uses alike makes the same
    // candidate, judged once (the first's layer names it).
    let (mut tried, mut count) = ([(0, 0); N * N], 0);
    for r in (0..N).filter(|&r| writes[r] && !any_utf8) {
        let bytes = &written[r];
        let used = bytes
            .iter()
            .filter(|&&b| b >= 0x80)
            .fold(0u128, |bits, &b| bits | 1 << (b - 0x80));
        // The code pages, `r` among them, that wrote the line as `r` did.
        let twins = (0..r)
            .filter(|&p| writes[p] && written[p] == *bytes)
            .fold(1u8 << r, |set, p| set | 1 << p);
        let readings = (0..N).filter(|&w| {
            w != r
                && !both_koi8(w, r)
                && first_capital.is_none_or(|c| {
                    let b = tables.byte(c, r);
                    b >= 0x80 && is_lowercase(tables.high[w][usize::from(b - 0x80)])
                })
        });
        for w in readings {
            if tried[..count]
                .iter()
                .any(|&(p, t)| twins >> p & 1 != 0 && tables.differ[t][w] & used == 0)
            {
                continue;
            }
            tried[count] = (r, w);
            count += 1;
            // Most readings show a flaw within a few characters: judged as they are read, only
            // the flawless are written out.
            let high = &tables.high[w];
            let read = bytes.iter().map(|&b| match b {
                0..=0x7F => char::from(b),
                _ => high[usize::from(b - 0x80)],
            });
            // The flaws of the reading, counted to its end when there are none, are those of
            // the candidate it decodes to.
            let (flawed, found) = flaws_past(read, 0, true);
            if flawed == 0
                && decode(bytes, w, tables, &mut candidate)
                && keeps_words(text, &candidate)
                // A line of words of capitals ([`all_capitals`]) becomes one of fewer.
                && (!capitals_only || capital_words(candidate.as_bytes()).0 < capitals)
            {
                consider(
                    &mut legacy,
                    &candidate,
                    crate::chain::cyrillic_layer(Some(w), r),
                    4,
                    Some(found),
                );
            }
        }
    }
    let count = |s: &str| {
        s.chars()
            .filter(|&c| bigram_index(c) != bigrams::EDGE)
            .count() as i64
    };
    let letters = i64::from(letters);
    // Tenths of a bit over `pairs` letters: how much likelier the best answer's letters are as
    // Cyrillic text than those of the text of rarity `other`.
    let gain =
        |best: u32, other: u32, pairs: i64| (i64::from(other) - i64::from(best)) * pairs / 1000;
    let best_of = |mut answers: Vec<(String, u32, u8)>| {
        // Answers of the same letters in another case (ISO-8859-5 and windows-1251 read as each
        // other) go by their capitals inside words, which text seldom has.
        answers.sort_by_cached_key(|a| (a.1, capitals_inside_words(&a.0)));
        let pairs = count(&answers.first()?.0).max(letters);
        let close = answers
            .iter()
            .take_while(|a| gain(answers[0].1, a.1, pairs) < BEATS_OTHERS)
            .count();
        let tied = close > 1
            && !(same_letters(&answers[0].0, &answers[1].0)
                && capitals_inside_words(&answers[0].0) < capitals_inside_words(&answers[1].0));
        if !tied {
            return answers.into_iter().next();
        }
        // Of answers as likely, one that begins a word with a capital where each other has a
        // sign against the word's small letters (`Салерно`, `—алерно`), or a word of one
        // letter where each other has a sign alone (`В строке`, `¬ строке`), is the text.
        let signs: Vec<usize> = answers[..close]
            .iter()
            .map(|a| signs_before_words(&a.0) + lone_signs(&a.0))
            .collect();
        let fewest = signs.iter().copied().min()?;
        if signs.iter().filter(|&&n| n == fewest).count() > 1 {
            return None;
        }
        let at = signs.iter().position(|&n| n == fewest)?;
        Some(answers.swap_remove(at))
    };
    *answered = !utf8.is_empty() || !legacy.is_empty();
    let is_utf8 = !utf8.is_empty();
    let (answer, _, layer) = if is_utf8 {
        best_of(utf8)?
    } else {
        let (answer, rare, layer) = best_of(legacy)?;
        // A word that begins with a sign against its small letters, or with a quote that
        // nothing closes, is a capital shown as a sign: a flaw each, for the line only (an
        // answer pays for its signs in its rarity); so is a `ґ` where Ukrainian seldom writes
        // one ([`is_hard_g`]), which an answer may hold (`підґрунті`: its pairs weigh it).
        let signed = signed_words(text) + hard_gs(text);
        // A line of no flaw, not of capitals only, may still be one letter away from text: a
        // lone letter of another language, which an answer that changes only the line's words
        // ([`changes_inside_words`]) does away with, counts as its flaw. Without one, its
        // letters alone decide, by a wider margin.
        let quiet = flawed == 0 && signed == 0 && !capitals_only;
        // Letters the answer only makes small (x-mac-cyrillic's `я` is windows-1251's `Я`) are
        // the same pairs to [`rarity`]: each capital inside a word it makes small weighs
        // another flaw.
        let unfolded = if same_letters(&answer, text) {
            capitals_inside_words(text).saturating_sub(capitals_inside_words(&answer))
        } else {
            capitals_after_small(text).saturating_sub(capitals_after_small(&answer))
        };
        // A line of no flaw has one letter of another language at most: an answer with none
        // weighs that letter as a flaw. So does a long line whose one letter of Serbian or
        // Macedonian alone begins a word (`Џредупреждение` is `Предупреждение` in
        // x-mac-cyrillic read as windows-1251): text of those languages has more of them.
        let lone = quiet
            && (outsiders(text) == 1 || lone_serbian_initial(text))
            && outsiders(&answer) == 0
            && serbian_letters(&answer) == 0
            && changes_inside_words(text, &answer);
        // A line of no flaw and no such letter goes by its letters alone, and must lose by more.
        if quiet && !lone && gain(rare, rarity(text), letters) < QUIET_BEATS_LINE {
            return None;
        }
        // Each word that began small and went on in capitals, which the answer turns, weighs a
        // flaw more.
        let inverted = inverted_words_made_small(text, &answer);
        // A word that begins with a sign weighs two flaws on a line of ten Cyrillic letters or
        // more; on a shorter one (a place name alone, `“иган`) the readings that make the sign
        // one capital or another (`Уиган`, `Тиган`) are told apart by few pairs of letters.
        let signed = signed as i64 * if letters >= 10 { 2 } else { 1 };
        let flawed =
            i64::from(flawed) + unfolded as i64 + i64::from(lone) + inverted as i64 + signed;
        // A line of words of capitals shows no flaw, yet where the reading is one of those
        // whose small letters are the other's capitals (windows-1251 or x-mac-cyrillic read as
        // KOI8, KOI8 read as windows-1251), its making them small is already evidence: the
        // letters of an answer of common pairs must tell by less, on a line of six letters or
        // more (of five, too many words of no dictionary read two ways: `вакде`, `ачиде`).
        let beats = if capitals_only && turns_case(layer) && rare <= COMMON_TEXT && letters >= 6 {
            CAPITALS_BEAT_LINE
        } else {
            BEATS_LINE
        };
        if flawed * FLAW + gain(rare, rarity(text), letters) < beats {
            return None;
        }
        (answer, rare, layer)
    };
    // Each character the answer decoded from UTF-8, or each the line read again.
    let restored = if is_utf8 { &answer } else { text };
    Some(CyrillicUndone {
        restored: restored.chars().filter(|c| !c.is_ascii()).count(),
        text: answer,
        layer,
    })
}

/// Whether `layer` is text written in a code page and read as one whose capitals are its small
/// letters: windows-1251 or x-mac-cyrillic read as KOI8-R or KOI8-U, or KOI8 read as
/// windows-1251.
fn turns_case(layer: u8) -> bool {
    let layer_of = crate::chain::cyrillic_layer;
    [(0, 1), (0, 2), (5, 1), (5, 2), (1, 0), (2, 0)]
        .into_iter()
        .any(|(written, read_as)| layer == layer_of(Some(written), read_as))
}

/// What a flaw of the line weighs against it, in tenths of a bit.
const FLAW: i64 = 100;

/// How much likelier the answer must be than the line, in tenths of a bit: its flaws and how
/// much commoner the answer's letters are, over the line's letters.
const BEATS_LINE: i64 = 160;

/// How much likelier the answer must be than a line of words of capitals ([`all_capitals`])
/// that it makes small: the best answer of a clean such line of the catalogs (`ЦИКЪЛ`,
/// `МСК_ТИПА`) is 6 bits likelier at most, that of one read the other way round (`ЙСКНМ` for
/// `кулон`) mostly 12 to 16.
const CAPITALS_BEAT_LINE: i64 = 120;

/// The rarity ([`rarity`]) of text whose pairs of letters are common: words of the catalogs
/// are 38,000 to 56,000 (`Литомержице`, `Аудио`), the wrong readings of lines of capitals
/// 63,000 and more (`йтущаь`, `дьтжь`).
const COMMON_TEXT: u32 = 58_000;

/// How much likelier the answer must be than a line of no flaw, in tenths of a bit over the
/// line's letters: its letters alone must tell (a clean Serbian line of rare words, `ђу, ђула`,
/// is 16 bits from `Ру, Рула`).
const QUIET_BEATS_LINE: i64 = 400;

/// How much commoner the answer's letters must be than any other answer's, in tenths of a bit
/// over the line's letters.
const BEATS_OTHERS: i64 = 40;
