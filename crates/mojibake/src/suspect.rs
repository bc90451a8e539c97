//! The first place in a text where a line might hold mojibake, found at the speed of reading:
//! what lets [`crate::MojibakeRepairer`] pass clean lines through without holding or judging them.
//!
//! [`super::possible_encodings`] follows every encoding at once, a character at a time. Every
//! candidate it finds ends at a character that is a continuation byte in some encoding (or
//! U+FFFD, or a C1 control), or at a space right after "Ã" or its like (the lost A0 of "à").
//! Those characters are rare in clean text: in Cyrillic only ё, і, ї, є, ў and their like
//! (U+0400..U+040F, U+0450..U+045F), in Greek only the accented capitals; and the character
//! before must be able to begin or continue a group (Russian and Greek lowercase letters cannot,
//! being 3- and 4-byte leads in windows-1251 and -1253). Both are found with SIMD, 32 bytes at a
//! time with AVX2 or 64 with AVX-512 VBMI, from the two bytes of each character and of the one
//! before it, looked up in tables: a superset that needs no decoding. A block with no first
//! byte of a table character in it or just before it (ASCII, CJK, Indic, Arabic...) is passed
//! over after one test. Each place found is then settled from the masks of its character and
//! the one before, or, when that one continues a group begun further back, by the state machine
//! that `possible_encodings` runs ([`super::Pending`]), started four characters back: no group
//! is longer, so the answer is the one a pass over the whole line gives. The filter is exact: it
//! points into the first line that `possible_encodings` would find something in, and passes
//! over every other (tests check this on every pair of the tables' characters, at every place
//! of two blocks, and on random lines of them, on each SIMD path and the bytewise one).

#[cfg(any(target_arch = "x86_64", test))]
use crate::automaton::LEADS;
use crate::automaton::{MaskTable, Masks, Pending};
use crate::cyrillic::first_cyrillic_suspect;
use crate::double::{first_double_suspect, first_latin_suspect};
use utf8kit_codec::unit::{first_non_ascii, is_continuation};

/// A set of 2-byte characters, as a union of at most eight boxes: lead bytes × high halves ×
/// low halves of the second byte. A character is in the set when the bits its four halves
/// select share one; SIMD looks the four up 32 bytes at a time (`_mm256_shuffle_epi8`), and
/// [`Boxes::contains`] the same way a byte at a time.
struct Boxes {
    /// The boxes of each lead C0..CF, then D0..DF.
    lead: [[u8; 16]; 2],
    /// The boxes of each high half of the second byte, and of each low half.
    high: [u8; 16],
    low: [u8; 16],
}

/// Every half: the low halves of a box that takes them all.
const ALL: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

impl Boxes {
    const fn new(boxes: &[(&[u8], &[u8], &[u8])]) -> Boxes {
        let mut set = Boxes {
            lead: [[0; 16]; 2],
            high: [0; 16],
            low: [0; 16],
        };
        let mut k = 0;
        while k < boxes.len() {
            let bit = 1 << k;
            let (leads, highs, lows) = boxes[k];
            let mut i = 0;
            while i < leads.len() {
                set.lead[(leads[i] >> 4 & 1) as usize][(leads[i] & 0x0F) as usize] |= bit;
                i += 1;
            }
            let mut i = 0;
            while i < highs.len() {
                set.high[highs[i] as usize] |= bit;
                i += 1;
            }
            let mut i = 0;
            while i < lows.len() {
                set.low[lows[i] as usize] |= bit;
                i += 1;
            }
            k += 1;
        }
        set
    }

    /// Whether the character whose first two bytes are `lead` and `second` is in the set.
    fn contains(&self, lead: u8, second: u8) -> bool {
        let leads = match lead >> 4 {
            0x0C => self.lead[0][usize::from(lead & 0x0F)],
            0x0D => self.lead[1][usize::from(lead & 0x0F)],
            _ => 0,
        };
        leads & self.high[usize::from(second >> 4)] & self.low[usize::from(second & 0x0F)] != 0
    }
}

/// The 2-byte characters that may end a candidate: a continuation byte in some encoding (C1
/// controls among them). Cyrillic has only U+0400..U+040F, U+0450..U+045F and Ґ ґ, Greek only
/// its accented capitals, π and Ω; Latin-1 and Latin Extended-A are taken whole (most of their
/// letters are continuation bytes in MacRoman or IBM437). A test checks the superset.
static ENDS: Boxes = Boxes::new(&[
    (&[0xC2, 0xC3, 0xC4, 0xC5], &[8, 9, 10, 11], ALL),
    (&[0xCE, 0xD0], &[8], ALL),
    (&[0xD1], &[9], ALL),
    (&[0xC6, 0xD2], &[9], &[0, 1, 2]),
    (&[0xCF], &[8], &[0]),
    (&[0xCE], &[10], &[9]),
    (&[0xCB], &[8, 9], &[6, 7, 8, 11, 12, 13]),
]);

/// The 2-byte characters after which one may end a candidate: a 2-byte lead or a continuation
/// byte in some encoding. Cyrillic and Greek lowercase letters are not (in windows-1251 and
/// -1253 they are 3- and 4-byte leads), but for в and β.
static BEFORE_ENDS: Boxes = Boxes::new(&[
    (&[0xC2, 0xC3, 0xC4, 0xC5], &[8, 9, 10, 11], ALL),
    (&[0xCE, 0xD0], &[8, 9, 10], ALL),
    (&[0xCE, 0xD0], &[11], &[2]),
    // The leads KOI8 keeps (C2, C3, CA, CC, CD, D0..D3: б ц й л м п я р с), with their
    // neighbours in the box.
    (&[0xD0, 0xD1], &[8, 11], &[0, 1, 6, 9, 11, 12, 15]),
    (&[0xD1], &[9], ALL),
    (&[0xC6, 0xD2], &[9], &[0, 1, 2]),
    (&[0xCF], &[8], &[0]),
    (&[0xCB], &[8, 9], &[6, 7, 8, 11, 12, 13]),
]);

/// The 2-byte characters after which a space may stand for the A0 of "à": "Ã", "Ă", "Ć", "Г"
/// and "Γ", the letters that are C3 in some encoding (a test checks them).
static BEFORE_SPACES: Boxes = Boxes::new(&[
    (&[0xC3], &[8], &[3]),
    (&[0xC4], &[8], &[2, 6]),
    (&[0xCE, 0xD0], &[9], &[3]),
]);

/// The Cyrillic characters that end a candidate, all through windows-1251 alone (KOI8 has them
/// as letters, which end none that counts: [`Masks::unclear`]): Ѐ..Џ, ѐ..џ, Ґ and ґ. A test
/// checks them.
fn is_cyrillic_end(lead: u8, second: u8) -> bool {
    matches!(
        (lead, second),
        (0xD0, 0x80..=0x8F) | (0xD1, 0x90..=0x9F) | (0xD2, 0x90..=0x91)
    )
}

/// The Cyrillic small letters а..я, which only KOI8 has as a 2-byte lead or a continuation
/// byte (windows-1251 has them at E0..FF): none ends a candidate before [`is_cyrillic_end`]
/// ("лі", "ці" in Ukrainian). A test checks every pair.
fn is_koi8_only_before(lead: u8, second: u8) -> bool {
    matches!((lead, second), (0xD0, 0xB0..=0xBF) | (0xD1, 0x80..=0x8F))
}

/// Whether a 3-byte character starting with `lead` and `second` may be in the tables: E2 80..9F
/// (U+2000..U+27FF: punctuation, symbols, box drawing), EF A3 (the Apple logo), EF AC (the
/// ligatures fi and fl) and EF BF (U+FFFD and the fullwidth signs beside it). Tifinagh and the
/// rest of U+2800..U+2FFF are not, nor the fullwidth forms of CJK text (EF BC, EF BD).
fn in_tables_3(lead: u8, second: u8) -> bool {
    match lead {
        0xE2 => second < 0xA0,
        0xEF => matches!(second, 0xA3 | 0xAC | 0xBF),
        _ => false,
    }
}

/// The line filter: the offset of the first character, in well-formed UTF-8 `text`, at which a
/// line holds what the judging would take for the end of a group of mojibake in some encoding,
/// or `None` when no line of `text` does; no mojibake can be repaired in a line before it. A
/// newline starts every line afresh, so the offset lies in the first line that may hold some.
///
/// ```
/// use utf8kit_mojibake::first_suspect;
/// assert_eq!(first_suspect("plain\ncafé\n"), None);
/// // The end of the group "Ã©": its second character, at byte 11.
/// assert_eq!(first_suspect("plain\ncafÃ©\n"), Some(11));
/// ```
pub fn first_suspect(text: &str) -> Option<usize> {
    first_any_suspect(text.as_bytes())
}

/// The first place in `text` where mojibake of any reading may start: a single-byte one's
/// ([`first_suspect_in`]), a double-byte one's (`first_double_suspect`), a Latin reading of
/// double-byte text's (`first_latin_suspect`) or a Cyrillic code page's
/// (`first_cyrillic_suspect`).
pub(crate) fn first_any_suspect(text: &[u8]) -> Option<usize> {
    SuspectWalk::default().first_from(text, 0)
}

/// A line filter: the first place in well-formed UTF-8 where its reading's mojibake may start.
type Filter = fn(&[u8]) -> Option<usize>;

/// The line filters, in the order they are asked: the Cyrillic filter, the cheapest, goes
/// first, and what it finds in Russian text (a line of capitals) spares the single-byte filter,
/// which weighs many places in it, the rest of the window.
const FILTERS: [Filter; 4] = [
    first_cyrillic_suspect,
    first_suspect_in,
    first_double_suspect,
    first_latin_suspect,
];

/// What one line filter has read of a text: no place from `start` to `clean_to`, and, if `hit`,
/// one at `clean_to`, where it stopped.
#[derive(Clone, Copy, Default)]
struct Read {
    start: usize,
    clean_to: usize,
    hit: bool,
}

/// [`first_any_suspect`] asked again and again of one text, from one line after another: each
/// filter's last answer is kept while it lies ahead, so that a filter that found nothing for a
/// long way (the Cyrillic one in Latin text) does not read it again after every suspect line.
#[derive(Default)]
pub(crate) struct SuspectWalk {
    reads: [Read; FILTERS.len()],
}

impl SuspectWalk {
    /// The first place at or after `from` (a line's start) in `text` (well-formed UTF-8, the same
    /// bytes at every call, `from` never going back) where mojibake of any reading may start.
    ///
    /// The text is read in windows of whole lines, each twice the last: each filter reads only up
    /// to what those before it found.
    pub(crate) fn first_from(&mut self, text: &[u8], from: usize) -> Option<usize> {
        self.walk(text, from, true)
    }

    /// [`SuspectWalk::first_from`]; with `pass_ascii`, each window starts at the line of the
    /// next byte above 0x7F (a line of ASCII alone is no reading's mojibake, and most lines of
    /// source code and of English are passed over at a few instructions a word). Without, every
    /// window is asked: the tests' reference.
    fn walk(&mut self, text: &[u8], from: usize, pass_ascii: bool) -> Option<usize> {
        let mut window = from;
        let mut size = 256;
        while window < text.len() {
            if pass_ascii {
                let ascii = first_non_ascii(&text[window..])?;
                if ascii > 0 {
                    window +=
                        memchr::memrchr(b'\n', &text[window..window + ascii]).map_or(0, |i| i + 1);
                }
            }
            let end = match text.get(window + size..) {
                Some(rest) => {
                    memchr::memchr(b'\n', rest).map_or(text.len(), |i| window + size + i + 1)
                }
                None => text.len(),
            };
            let mut first = None;
            for filter in 0..FILTERS.len() {
                first = self
                    .first(filter, text, window, first.unwrap_or(end))
                    .or(first);
            }
            if first.is_some() {
                return first;
            }
            window = end;
            size *= 2;
        }
        None
    }

    /// The first place filter `filter` finds in `text[from..to]`, `from` a line's start: from
    /// what it read before where that covers `from`, reading on from the line where it stopped.
    fn first(&mut self, filter: usize, text: &[u8], from: usize, to: usize) -> Option<usize> {
        let read = &mut self.reads[filter];
        let mut begin = from;
        if (read.start..=read.clean_to).contains(&from) {
            if read.hit {
                return (read.clean_to < to).then_some(read.clean_to);
            }
            if to <= read.clean_to {
                return None;
            }
            // Where it stopped may be inside a line (what another filter found): the line is
            // read again whole.
            let line = memchr::memrchr(b'\n', &text[..read.clean_to]).map_or(0, |i| i + 1);
            begin = line.max(from);
        } else {
            read.start = from;
        }
        let found = FILTERS[filter](&text[begin..to]).map(|at| begin + at);
        read.clean_to = found.unwrap_or(to);
        read.hit = found.is_some();
        found
    }
}

/// [`first_suspect`] of bytes the caller knows to be well-formed UTF-8 (the repair's own
/// buffers, validated as they were read).
pub(crate) fn first_suspect_in(text: &[u8]) -> Option<usize> {
    let table = MaskTable::get();
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx512_vbmi() {
            // SAFETY: the processor has AVX-512 F, BW and VBMI, checked just above.
            return unsafe { avx512::first_suspect(text, table) };
        }
        if crate::simd::has_avx2() {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { avx2::first_suspect(text, table) };
        }
    }
    scan(text, table)
}

/// [`first_suspect`] a character at a time, but for runs of ASCII: eight ASCII bytes after an
/// ASCII byte (or the start) end nothing, since only a non-ASCII character or a space right
/// after one ends a candidate, and are passed over in one step. A character ends one only right
/// after a non-ASCII byte (the last of the character before, [`BEFORE_ENDS`] or a 3-byte one of
/// the tables), or as a C1 control; and only if its first two bytes are in [`ENDS`] (or it is a
/// 3-byte character of the tables), which one bit of [`Pairs`] tells: most letters of Cyrillic,
/// Greek and Latin text are passed over at a few instructions each, not a lookup of each set.
fn scan(text: &[u8], table: &MaskTable) -> Option<usize> {
    let pairs = Pairs::get();
    let mut at = 0;
    while at < text.len() {
        let b = text[at];
        if b < 0x80 {
            if ends_nothing_for_eight(text, at) {
                at += 8;
                continue;
            }
            if b == b' '
                && at >= 2
                && BEFORE_SPACES.contains(text[at - 2], text[at - 1])
                && ends_a_candidate(text, at, table)
            {
                return Some(at);
            }
            at += 1;
            continue;
        }
        // Well-formed: `b` leads a character, whose second byte is there.
        let second = text.get(at + 1).copied().unwrap_or(0);
        let candidate = if b == 0xC2 && second < 0xA0 {
            true
        } else {
            at > 0 && text[at - 1] >= 0x80 && pairs.ends(b, second) && {
                let byte = |k: usize| at.checked_sub(k).map_or(0, |i| text[i]);
                let after = BEFORE_ENDS.contains(byte(2), byte(1)) || in_tables_3(byte(3), byte(2));
                after && !(is_cyrillic_end(b, second) && is_koi8_only_before(byte(2), byte(1)))
            }
        };
        if candidate && ends_a_candidate(text, at, table) {
            return Some(at);
        }
        at += match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
    }
    None
}

/// Whether the eight bytes at `at` are ASCII after an ASCII byte (or the start): they end
/// nothing, and [`scan`] passes over them in one step.
fn ends_nothing_for_eight(text: &[u8], at: usize) -> bool {
    text.get(at..at + 8).is_some_and(|word| {
        (at == 0 || text[at - 1] < 0x80)
            && u64::from_ne_bytes(word.try_into().expect("eight bytes")) & 0x8080_8080_8080_8080
                == 0
    })
}

/// The characters of [`ENDS`] and the 3-byte ones of the tables ([`in_tables_3`]), as a bit for
/// each lead C0..FF and second byte 80..BF: one load and one shift for a character.
struct Pairs {
    ends: [u64; 64],
}

impl Pairs {
    fn get() -> &'static Pairs {
        static PAIRS: std::sync::OnceLock<Pairs> = std::sync::OnceLock::new();
        PAIRS.get_or_init(|| {
            let mut ends = [0u64; 64];
            for lead in 0xC0..=0xFFu8 {
                for second in 0x80..=0xBFu8 {
                    if ENDS.contains(lead, second) || in_tables_3(lead, second) {
                        ends[usize::from(lead - 0xC0)] |= 1 << (second - 0x80);
                    }
                }
            }
            Pairs { ends }
        })
    }

    /// Whether the character whose first two bytes are `lead` (C0..FF) and `second` (80..BF)
    /// may end a candidate.
    fn ends(&self, lead: u8, second: u8) -> bool {
        self.ends[usize::from(lead & 0x3F)] >> (second & 0x3F) & 1 != 0
    }
}

/// Whether the byte at `at` may start a character that ends a candidate: the superset that the
/// SIMD path computes 32 bytes at a time, the same way, and [`scan`] a character at a time: the
/// tests' reference. Bytes before the text's start and past its end read as 0.
#[cfg(test)]
fn may_end_a_candidate(text: &[u8], at: usize) -> bool {
    let byte = |k: isize| {
        at.checked_add_signed(k)
            .and_then(|i| text.get(i))
            .copied()
            .unwrap_or(0)
    };
    // A C1 control ends a candidate alone.
    if byte(0) == 0xC2 && byte(1) < 0xA0 {
        return true;
    }
    if byte(0) == b' ' {
        return BEFORE_SPACES.contains(byte(-2), byte(-1));
    }
    let ends = ENDS.contains(byte(0), byte(1)) || in_tables_3(byte(0), byte(1));
    let after = BEFORE_ENDS.contains(byte(-2), byte(-1)) || in_tables_3(byte(-3), byte(-2));
    let koi8_pair = is_cyrillic_end(byte(0), byte(1)) && is_koi8_only_before(byte(-2), byte(-1));
    ends && after && !koi8_pair
}

/// Whether [`super::possible_encodings`], reading the line of `at`, finds a candidate ending
/// with the character at `at`.
fn ends_a_candidate(text: &[u8], at: usize, table: &MaskTable) -> bool {
    let b = text[at];
    // Two letters that windows-1252 has at C0..FF ("úú", "àà" in Yoruba) make no group of two
    // bytes in any encoding (see the masks' `western` below), and one of three or four needs
    // the character before them to be in the tables: after ASCII, at the start, or after a
    // character of no encoding ("ṣíà"), nothing ends here. Most of the places the line filter
    // finds in clean Yoruba, answered without looking the two up.
    let is_western = |second: u8| matches!(second, 0x80..=0x96 | 0x98..=0xB6 | 0xB8..=0xBF);
    if b == 0xC3
        && at >= 2
        && text[at - 2] == 0xC3
        && is_western(text[at - 1])
        && text.get(at + 1).copied().is_some_and(is_western)
        && (at == 2
            || text[at - 3] < 0x80
            || table.of(&text[char_before(text, at - 2)..]).0 == Masks::default())
    {
        return false;
    }
    // The character at `at`: the encodings in which it is a continuation byte; a space is one
    // only right after "Ã" and its like, and any other ASCII ends no group.
    let here = match b {
        0xC2 if text[at + 1] < 0xA0 => return true,
        0x80.. => table.of(&text[at..]).0,
        b' ' => Masks::default(),
        _ => return false,
    };
    // A KOI8 letter ends no group that counts (`Masks::unclear`): "сі" in Ukrainian.
    let ends = here.cont & !here.unclear;
    if at == 0 || text[at - 1] < 0x80 || b >= 0x80 && ends == 0 {
        return false;
    }
    let start = char_before(text, at);
    let (m, _) = table.of(&text[start..]);
    if b == b' ' {
        return m.c3 != 0;
    }
    // A lead wanting one more byte: the group ends here whatever came before, unless it is two
    // letters of the encoding's script that what follows may show to be a word, or two letters
    // windows-1252 has where they begin no group, read through another encoding.
    let western = m.western & here.western & !1;
    let two_bytes = m.lead[0] & ends & !western;
    if two_bytes & !m.letter != 0 {
        return true;
    }
    // A continuation byte continues a group begun before it, by a character that is not ASCII.
    if two_bytes == 0 && (m.cont & ends == 0 || start == 0 || text[start - 1] < 0x80) {
        return false;
    }
    // Four characters back, which no group pending at `at` began before.
    let start = (0..4).fold(at, |start, _| char_before(text, start));
    let mut pending = Pending::default();
    let mut i = start;
    loop {
        let (complete, len) = pending.read(table, &text[i..]);
        i += len;
        if i > at {
            break complete & !pending.released != 0 || held_group_counts(text, i, table, pending);
        }
    }
}

/// Whether the groups `pending` holds back after reading up to `from` count, as what follows
/// them in `text` decides (a letter of the script that begins a whole group, or none).
fn held_group_counts(
    text: &[u8],
    mut from: usize,
    table: &MaskTable,
    mut pending: Pending,
) -> bool {
    let mut held = pending.held;
    while held != 0 {
        if from == text.len() {
            return held & pending.finish() != 0;
        }
        let (_, len) = pending.read(table, &text[from..]);
        if pending.released & held != 0 {
            return true;
        }
        held &= pending.undecided();
        from += len;
    }
    false
}

/// Where the character that ends just before `end` starts, in well-formed UTF-8 `text`; 0 at
/// the start.
pub(crate) fn char_before(text: &[u8], end: usize) -> usize {
    (0..end)
        .rev()
        .find(|&i| !is_continuation(text[i]))
        .unwrap_or(0)
}

/// The first of the places `from + k`, for the bits `k` of `hits` that a SIMD path found in a
/// block, that ends a candidate ([`ends_a_candidate`]).
#[cfg(target_arch = "x86_64")]
#[inline]
fn confirm(text: &[u8], table: &MaskTable, from: usize, hits: u64) -> Option<usize> {
    crate::simd::first_of_bits(from, hits, |at| {
        ends_a_candidate(text, at, table).then_some(at)
    })
}

/// A SIMD path's walk over `$text`, `$width` bytes (32 or 64) a block, in the `#[target_feature]`
/// function it is expanded in (so that the block is compiled with its instructions and inlined):
/// `$block`, of the bytes, the offset of a block in them and what it made of the block before,
/// gives the places of the block that may end a candidate, as bits, and what it made of it.
/// The first place [`confirm`] settles is the answer. Bytes before the text read as 0, as in
/// `may_end_a_candidate`; the last block is read from a copy with zeros past the end, which
/// read as 0 too.
#[cfg(target_arch = "x86_64")]
macro_rules! walk {
    ($text:expr, $table:expr, $width:literal, |$bytes:ident, $at:ident, $before:ident| $block:expr) => {{
        let (text, table) = ($text, $table);
        let mut before = Default::default();
        let mut copy = [0u8; $width + 1];
        let mut i = 0;
        // One call of the block, which the compiler then inlines: the last block too is read
        // here, from the copy.
        loop {
            let rest = text.len() - i;
            if rest == 0 {
                return None;
            }
            // A block reads one byte past its end: the second byte of its last character.
            let (bytes, at, keep) = if rest > $width {
                (text, i, u64::MAX)
            } else {
                copy[..rest].copy_from_slice(&text[i..]);
                (&copy[..], 0, u64::MAX >> (64 - rest))
            };
            let (hits, here) = {
                let ($bytes, $at, $before): (&[u8], usize, _) = (bytes, at, before);
                $block
            };
            if let Some(at) = super::confirm(text, table, i, u64::from(hits) & keep) {
                return Some(at);
            }
            if rest <= $width {
                return None;
            }
            before = here;
            i += $width;
        }
    }};
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    };

    use super::{BEFORE_ENDS, BEFORE_SPACES, Boxes, ENDS, LEADS, MaskTable};

    /// The 32 bytes of `text` from `at`.
    #[inline(always)]
    fn load(text: &[u8], at: usize) -> __m256i {
        let bytes = &text[at..at + 32];
        // SAFETY: `bytes` is 32 readable bytes and `_mm256_loadu_si256` has no alignment need.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    /// A table for `_mm256_shuffle_epi8`: the 16 bytes of `t` in both lanes.
    fn lanes(t: &[u8; 16]) -> __m256i {
        let mut both = [0u8; 32];
        both[..16].copy_from_slice(t);
        both[16..].copy_from_slice(t);
        load(&both, 0)
    }

    /// [`Boxes`] as four shuffle tables.
    struct Tables {
        lead_c: __m256i,
        lead_d: __m256i,
        high: __m256i,
        low: __m256i,
    }

    impl Tables {
        fn new(boxes: &Boxes) -> Tables {
            Tables {
                lead_c: lanes(&boxes.lead[0]),
                lead_d: lanes(&boxes.lead[1]),
                high: lanes(&boxes.high),
                low: lanes(&boxes.low),
            }
        }
    }

    /// The halves of each byte of a block: its high half, its low half, and whether it is
    /// C0..CF or D0..DF.
    struct Halves {
        high: __m256i,
        low: __m256i,
        is_c: __m256i,
        is_d: __m256i,
    }

    #[target_feature(enable = "avx2")]
    fn halves(v: __m256i) -> Halves {
        let nibble = _mm256_set1_epi8(0x0F);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
        Halves {
            high,
            low: _mm256_and_si256(v, nibble),
            is_c: _mm256_cmpeq_epi8(high, _mm256_set1_epi8(0x0C)),
            is_d: _mm256_cmpeq_epi8(high, _mm256_set1_epi8(0x0D)),
        }
    }

    /// Non-zero in each byte that starts a 2-byte character of the set, `first` and `second`
    /// holding each character's first and second bytes.
    #[target_feature(enable = "avx2")]
    fn contains(set: &Tables, first: &Halves, second: &Halves) -> __m256i {
        let leads = _mm256_or_si256(
            _mm256_and_si256(first.is_c, _mm256_shuffle_epi8(set.lead_c, first.low)),
            _mm256_and_si256(first.is_d, _mm256_shuffle_epi8(set.lead_d, first.low)),
        );
        _mm256_and_si256(
            leads,
            _mm256_and_si256(
                _mm256_shuffle_epi8(set.high, second.high),
                _mm256_shuffle_epi8(set.low, second.low),
            ),
        )
    }

    /// What the places of a block are, one bit each, and what the block before it was: the
    /// places where a group may end depend on the three before them.
    #[derive(Clone, Copy, Default)]
    struct Places {
        /// A 2-byte character that comes before an ending (`BEFORE_ENDS`) starts here.
        before_ends: u32,
        /// A letter a space may follow (`BEFORE_SPACES`) starts here.
        before_spaces: u32,
        /// A small Cyrillic letter that ends nothing before a Cyrillic ending starts here
        /// (`super::is_koi8_only_before`).
        koi8_before: u32,
        /// A 3-byte character of the tables starts here.
        three: u32,
        /// The first byte of a table character (`LEADS`).
        leads: u32,
        /// A byte that is not ASCII.
        not_ascii: u32,
    }

    /// `LEADS` as rows C, D, E (bits 0, 1, 2) indexed by high halves, and the columns of
    /// each row indexed by low halves.
    const LEAD_HALVES: ([u8; 16], [u8; 16]) = {
        let (mut rows, mut columns) = ([0u8; 16], [0u8; 16]);
        let mut i = 0;
        while i < LEADS.len() {
            let lead = LEADS[i];
            let row = 1 << ((lead >> 4) - 0x0C);
            rows[(lead >> 4) as usize] = row;
            columns[(lead & 0x0F) as usize] |= row;
            i += 1;
        }
        (rows, columns)
    };

    #[target_feature(enable = "avx2")]
    pub(super) fn first_suspect(text: &[u8], table: &MaskTable) -> Option<usize> {
        let ends = Tables::new(&ENDS);
        let before_ends = Tables::new(&BEFORE_ENDS);
        let before_spaces = Tables::new(&BEFORE_SPACES);
        let zero = _mm256_setzero_si256();
        let is = |v: __m256i, byte: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(byte as i8));
        let mask = |v: __m256i| _mm256_movemask_epi8(v) as u32;
        let non_zero = |v: __m256i| !mask(_mm256_cmpeq_epi8(v, zero));
        let below_a0 = |v: __m256i| _mm256_cmpgt_epi8(_mm256_set1_epi8(0xA0_u8 as i8), v);
        let (lead_rows, lead_columns) = (lanes(&LEAD_HALVES.0), lanes(&LEAD_HALVES.1));
        // The places of the block of `bytes` at `i` that may end a candidate, as bits, with
        // `before` the block before; and this block, for the next.
        // E2 80..9F, EF A3, EF AC and EF BF, as `super::in_tables_3`, `next` holding the byte
        // after each of `v`; and E2 and EF with any other byte after them.
        let three_bytes = |v: __m256i, next: __m256i| {
            let below_a0 = below_a0(next);
            let e2 = is(v, 0xE2);
            let ef = is(v, 0xEF);
            let ef_table = _mm256_or_si256(
                _mm256_or_si256(is(next, 0xA3), is(next, 0xAC)),
                is(next, 0xBF),
            );
            let table = _mm256_or_si256(
                _mm256_and_si256(e2, below_a0),
                _mm256_and_si256(ef, ef_table),
            );
            let other = _mm256_andnot_si256(table, _mm256_or_si256(e2, ef));
            (mask(table), mask(other))
        };
        let block = |bytes: &[u8], i: usize, before: Places| {
            let v = load(bytes, i);
            let v_halves = halves(v);
            let mut leads = non_zero(_mm256_and_si256(
                _mm256_shuffle_epi8(lead_rows, v_halves.high),
                _mm256_shuffle_epi8(lead_columns, v_halves.low),
            ));
            // The 3-byte characters of E2 and EF that are not in the tables (the fullwidth
            // signs of CJK text) are no table character.
            let next = load(bytes, i + 1);
            let (three, other_three) = if leads == 0 {
                (0, 0)
            } else {
                three_bytes(v, next)
            };
            leads &= !other_three;
            let not_ascii = mask(v);
            let mut here = Places {
                leads,
                not_ascii,
                ..Places::default()
            };
            // Every character of a group is in the tables, but for the space that stands for
            // the A0 of "à" right after "Ã" and its like: a block without the first byte of a
            // table character, nor in the two bytes before it, ends none (ASCII, CJK, Indic,
            // Arabic, Hebrew, Armenian text). Its table characters are none.
            if leads == 0 && before.leads >> 30 == 0 {
                return (0, here);
            }
            // A group ends at the lead byte of a character, or at a space, right after a byte
            // that is not ASCII (the end of the character before it), or at a C1 control (after
            // C2): a block with none of those ends none (accented letters between ASCII ones,
            // as most Latin-script text has them). Every character that starts in it counts as
            // one an ending may follow, for the next block.
            let spaces = mask(is(v, b' '));
            let after_not_ascii = not_ascii << 1 | before.not_ascii >> 31;
            if (leads | spaces) & after_not_ascii | mask(is(v, 0xC2)) == 0 {
                here.before_ends = leads;
                here.before_spaces = leads;
                here.three = leads;
                return (0, here);
            }
            let next_halves = halves(next);
            let below_a0 = below_a0(next);
            here.three = three;
            here.before_ends = non_zero(contains(&before_ends, &v_halves, &next_halves));
            here.before_spaces = non_zero(contains(&before_spaces, &v_halves, &next_halves));
            // D0 B0..BF and D1 80..8F, as `super::is_koi8_only_before`; D0 80..8F, D1 90..9F
            // and D2 90..91, as `super::is_cyrillic_end`.
            let high_is = |half: i8| _mm256_cmpeq_epi8(next_halves.high, _mm256_set1_epi8(half));
            let (d0, d1) = (is(v, 0xD0), is(v, 0xD1));
            let (h8, h9) = (high_is(8), high_is(9));
            here.koi8_before = mask(_mm256_or_si256(
                _mm256_and_si256(d0, high_is(11)),
                _mm256_and_si256(d1, h8),
            ));
            let below_2 = _mm256_cmpgt_epi8(_mm256_set1_epi8(2), next_halves.low);
            let cyrillic_ends = mask(_mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(d0, h8), _mm256_and_si256(d1, h9)),
                _mm256_and_si256(is(v, 0xD2), _mm256_and_si256(h9, below_2)),
            ));
            // A C1 control ends a candidate alone.
            let c1 = mask(_mm256_and_si256(is(v, 0xC2), below_a0));
            let ends_here = non_zero(contains(&ends, &v_halves, &next_halves)) | here.three;
            // Each kind of place `k` places back, the block before supplying the first `k`.
            let back = |now: u32, then: u32, k: u32| now << k | then >> (32 - k);
            let after =
                back(here.before_ends, before.before_ends, 2) | back(here.three, before.three, 3);
            let spaces_after = spaces & back(here.before_spaces, before.before_spaces, 2);
            let koi8_pairs = cyrillic_ends & back(here.koi8_before, before.koi8_before, 2);
            (c1 | ends_here & after & !koi8_pairs | spaces_after, here)
        };
        walk!(text, table, 32, |bytes, i, before| block(bytes, i, before))
    }
}

/// The filter 64 bytes at a time, for the processors with AVX-512 VBMI (Ice Lake and later,
/// Zen 4), whose byte permutation looks a byte up in a table of 64: the 64 possible lead bytes
/// C0..FF, or the 64 continuation bytes 80..BF, each in one step. A 2-byte character is in a
/// set when the bits its lead and its second byte select share one. Those tables are made once
/// from the masks themselves, a bit for each lead byte that matters (the rarest three share
/// one, and C2 is one comparison), so that the sets are the characters' exact roles where the
/// AVX2 path's boxes take whole ranges: "č", "ć", "ě" and the other letters that are a lead byte in every encoding
/// end nothing. It also passes over a space unless "Ã" or its like comes before it. Fewer
/// places then reach the bytewise confirmation.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask,
        _mm512_cmplt_epu8_mask, _mm512_loadu_si512, _mm512_mask_test_epi8_mask,
        _mm512_movepi8_mask, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_srli_epi16,
    };

    use std::sync::OnceLock;

    use super::{LEADS, MaskTable};
    use crate::automaton::Masks;

    /// The 64 bytes of `text` from `at`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load(text: &[u8], at: usize) -> __m512i {
        let bytes = &text[at..at + 64];
        // SAFETY: `bytes` is 64 readable bytes and `_mm512_loadu_si512` has no alignment need.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// A set of 2-byte characters as two tables of 64: the bit of each lead byte C0..FF that
    /// has a character in the set (none for E0..FF), and for each second byte 80..BF the bits
    /// of the leads with which it makes one. C2 has no bit: its characters are all in a set or
    /// none is (C1 controls and Latin-1 signs, each a continuation byte somewhere), which one
    /// byte comparison tells.
    pub(super) struct Set {
        lead: [u8; 64],
        second: [u8; 64],
        /// Every character of C2 is in the set (if any is).
        c2: bool,
    }

    impl Set {
        /// The 2-byte characters whose masks `is_in` takes.
        fn of(table: &MaskTable, is_in: impl Fn(char, Masks) -> bool) -> Set {
            let mut set = Set {
                lead: [0; 64],
                second: [0; 64],
                c2: false,
            };
            for lead in 0xC2..=0xDFu8 {
                for second in 0x80..=0xBFu8 {
                    let c = char::from_u32(u32::from(lead & 0x1F) << 6 | u32::from(second & 0x3F))
                        .expect("a 2-byte character");
                    if !is_in(c, table.of(&[lead, second]).0) {
                        continue;
                    }
                    if lead == 0xC2 {
                        set.c2 = true;
                    } else {
                        set.lead[usize::from(lead - 0xC0)] = bit_of(lead);
                        set.second[usize::from(second - 0x80)] |= bit_of(lead);
                    }
                }
            }
            set
        }

        /// Whether the character `lead`, `second` is in the set, as the SIMD lookup says.
        #[cfg(test)]
        pub(super) fn contains(&self, lead: u8, second: u8) -> bool {
            if lead == 0xC2 {
                return self.c2;
            }
            lead >= 0xC0
                && (0x80..0xC0).contains(&second)
                && self.lead[usize::from(lead - 0xC0)] & self.second[usize::from(second - 0x80)]
                    != 0
        }
    }

    /// The bit of a lead byte: one each for those of Latin-1, Latin Extended-A, Greek and
    /// Cyrillic; the rarest (C6, CB, D2) share the last, where a character of one then counts
    /// for the others too (a superset, which the confirmation settles).
    fn bit_of(lead: u8) -> u8 {
        match lead {
            0xC3 => 1,
            0xC4 => 1 << 1,
            0xC5 => 1 << 2,
            0xCE => 1 << 3,
            0xCF => 1 << 4,
            0xD0 => 1 << 5,
            0xD1 => 1 << 6,
            _ => 1 << 7,
        }
    }

    /// The three sets the filter reads with, made once.
    pub(super) struct Sets {
        /// A continuation byte in some encoding: what may end a candidate.
        pub(super) ends: Set,
        /// A 2-byte lead or a continuation byte in some encoding: what may come before an
        /// ending.
        pub(super) before_ends: Set,
        /// The letters after which a space may stand for the A0 of "à" ("Ã", "Г", "Γ"...).
        pub(super) before_spaces: Set,
        /// Cyrillic letters (which only windows-1251 has) that are a 2-byte lead there ("П"),
        /// a continuation byte ("і"), or any: a group of the first two before a letter whose
        /// next character continues nothing is a word (`Pending::held`).
        pub(super) word_lead: Set,
        pub(super) word_cont: Set,
        pub(super) word_letter: Set,
    }

    /// A Cyrillic character: the tables give it a byte in windows-1251 alone (a test checks).
    pub(super) fn is_cyrillic(c: char) -> bool {
        ('\u{400}'..='\u{4FF}').contains(&c)
    }

    pub(super) fn sets() -> &'static Sets {
        static SETS: OnceLock<Sets> = OnceLock::new();
        SETS.get_or_init(|| {
            let table = MaskTable::get();
            Sets {
                ends: Set::of(table, |_, m| m.cont != 0),
                before_ends: Set::of(table, |_, m| m.lead[0] | m.cont != 0),
                before_spaces: Set::of(table, |_, m| m.c3 != 0),
                // A 2-byte lead in windows-1251 that KOI8 reads as no lead: a KOI8 group of
                // letters is released by a letter KOI8 lacks ("бЄЂ"), so its pairs are never
                // passed over.
                word_lead: Set::of(table, |c, m| {
                    is_cyrillic(c)
                        && m.letter & m.lead[0] != 0
                        && m.lead[0] & crate::chain::KOI8 == 0
                }),
                word_cont: Set::of(table, |c, m| is_cyrillic(c) && m.letter & m.cont != 0),
                word_letter: Set::of(table, |c, m| is_cyrillic(c) && m.letter != 0),
            }
        })
    }

    /// A [`Set`] in registers.
    struct Tables {
        lead: __m512i,
        second: __m512i,
        /// All ones when the characters of C2 are in the set.
        c2: u64,
    }

    impl Tables {
        #[target_feature(enable = "avx512f")]
        fn new(set: &Set) -> Tables {
            Tables {
                lead: load(&set.lead, 0),
                second: load(&set.second, 0),
                c2: if set.c2 { u64::MAX } else { 0 },
            }
        }

        /// The places of a block where a 2-byte character of the set starts, `v` holding the
        /// block and `next` the byte after each; `leads` the places of bytes C0..FF and `c2`
        /// those of C2. Byte permutation reads only the low six bits of each byte: among the
        /// leads those name C0..FF, and after a lead of two bytes, in well-formed text, a byte
        /// 80..BF.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
        fn contains(&self, v: __m512i, next: __m512i, leads: u64, c2: u64) -> u64 {
            let lead = _mm512_permutexvar_epi8(v, self.lead);
            let second = _mm512_permutexvar_epi8(next, self.second);
            _mm512_mask_test_epi8_mask(leads, lead, second) | c2 & self.c2
        }
    }

    /// What the places of a block are, one bit each, for the block after it.
    #[derive(Clone, Copy, Default)]
    struct Places {
        /// A 2-byte character that comes before an ending (`BEFORE_ENDS`) starts here.
        before_ends: u64,
        /// A letter a space may follow (`before_spaces`) starts here.
        before_spaces: u64,
        /// A small Cyrillic letter that ends nothing before a Cyrillic ending starts here
        /// (`super::is_koi8_only_before`).
        koi8_before: u64,
        /// A 3-byte character of the tables starts here.
        three: u64,
        /// The first byte of a table character (`LEADS`).
        leads: u64,
        /// A byte that is not ASCII.
        not_ascii: u64,
        /// A Cyrillic letter that is a 2-byte lead in windows-1251 starts here (where the block
        /// was read in full).
        word_lead: u64,
    }

    /// The tables the blocks are read with.
    struct Filter {
        ends: Tables,
        before_ends: Tables,
        before_spaces: Tables,
        word_lead: Tables,
        word_cont: Tables,
        word_letter: Tables,
        /// 1 for each byte of `LEADS` among C0..FF, by its low six bits.
        table_leads: __m512i,
    }

    impl Filter {
        #[target_feature(enable = "avx512f")]
        fn new() -> Filter {
            let mut table_leads = [0u8; 64];
            for &lead in LEADS {
                table_leads[usize::from(lead - 0xC0)] = 1;
            }
            let sets = sets();
            Filter {
                ends: Tables::new(&sets.ends),
                before_ends: Tables::new(&sets.before_ends),
                before_spaces: Tables::new(&sets.before_spaces),
                word_lead: Tables::new(&sets.word_lead),
                word_cont: Tables::new(&sets.word_cont),
                word_letter: Tables::new(&sets.word_letter),
                table_leads: load(&table_leads, 0),
            }
        }

        /// The places of the block of `bytes` at `i` that may end a candidate, as bits, with
        /// `before` the block before; and this block, for the next. The same reasoning as the
        /// AVX2 path's, step by step.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
        fn block(&self, bytes: &[u8], i: usize, before: Places) -> (u64, Places) {
            let is = |v: __m512i, byte: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8));
            let v = load(bytes, i);
            let starts = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0_u8 as i8));
            let found = _mm512_permutexvar_epi8(v, self.table_leads);
            let mut leads = _mm512_mask_test_epi8_mask(starts, found, found);
            // E2 80..9F, EF A3, EF AC and EF BF, as `super::in_tables_3`; the other 3-byte
            // characters of E2 and EF (the fullwidth signs of CJK text) are no table character.
            let next = load(bytes, i + 1);
            let mut three = 0;
            if leads != 0 {
                let below_a0 = _mm512_cmplt_epu8_mask(next, _mm512_set1_epi8(0xA0_u8 as i8));
                let (e2, ef) = (is(v, 0xE2), is(v, 0xEF));
                three = e2 & below_a0 | ef & (is(next, 0xA3) | is(next, 0xAC) | is(next, 0xBF));
                leads &= !((e2 | ef) & !three);
            }
            let not_ascii = _mm512_movepi8_mask(v);
            let mut here = Places {
                leads,
                not_ascii,
                ..Places::default()
            };
            // No first byte of a table character here nor in the two bytes before: no ending.
            if leads == 0 && before.leads >> 62 == 0 {
                return (0, here);
            }
            // No character start or space right after a byte that is not ASCII, and no C2: no
            // ending; every character that starts here may come before one, for the next block.
            let spaces = is(v, b' ');
            let after_not_ascii = not_ascii << 1 | before.not_ascii >> 63;
            let c2 = is(v, 0xC2);
            if (leads | spaces) & after_not_ascii | c2 == 0 {
                here.before_ends = leads;
                here.before_spaces = leads;
                here.three = leads;
                return (0, here);
            }
            let below_a0 = _mm512_cmplt_epu8_mask(next, _mm512_set1_epi8(0xA0_u8 as i8));
            here.three = three;
            here.before_ends = self.before_ends.contains(v, next, starts, c2);
            here.before_spaces = self.before_spaces.contains(v, next, starts, c2);
            // A C1 control ends a candidate alone.
            let c1 = c2 & below_a0;
            let back = |now: u64, then: u64, k: u32| now << k | then >> (64 - k);
            let ends = self.ends.contains(v, next, starts, c2) | here.three;
            let after =
                back(here.before_ends, before.before_ends, 2) | back(here.three, before.three, 3);
            let spaces_after = spaces & back(here.before_spaces, before.before_spaces, 2);
            // D0 B0..BF and D1 80..8F, as `super::is_koi8_only_before`; D0 80..8F, D1 90..9F
            // and D2 90..91, as `super::is_cyrillic_end`.
            let high =
                _mm512_srli_epi16::<4>(_mm512_and_si512(next, _mm512_set1_epi8(0xF0_u8 as i8)));
            let high_is = |half: u8| is(high, half);
            let (d0, d1) = (is(v, 0xD0), is(v, 0xD1));
            let (h8, h9) = (high_is(8), high_is(9));
            here.koi8_before = d0 & high_is(11) | d1 & h8;
            let d2_end =
                is(v, 0xD2) & _mm512_cmplt_epu8_mask(next, _mm512_set1_epi8(0x92_u8 as i8)) & h9;
            let cyrillic_ends = d0 & h8 | d1 & h9 | d2_end;
            let koi8_pairs = cyrillic_ends & back(here.koi8_before, before.koi8_before, 2);
            here.word_lead = self.word_lead.contains(v, next, starts, 0);
            let mut found = ends & after & !koi8_pairs;
            if found != 0 {
                // A Cyrillic capital and a continuation letter ("Пі") before a letter whose next
                // character is no continuation byte anywhere (so the letter begins no whole group
                // in windows-1251): a word, which `Pending` holds back and the confirmation
                // would refuse. Where the characters after it lie past this block, the
                // confirmation decides.
                let cont = self.word_cont.contains(v, next, starts, 0);
                let letter = self.word_letter.contains(v, next, starts, 0);
                let word = back(here.word_lead, before.word_lead, 2) & cont & letter >> 2;
                found &= !(word & !(ends >> 4) & u64::MAX >> 4);
            }
            (c1 | found | spaces_after, here)
        }
    }

    /// [`super::first_suspect`] 64 bytes at a time.
    ///
    /// # Safety
    ///
    /// The processor must have AVX-512 F, BW and VBMI ([`crate::simd::has_avx512_vbmi`]).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn first_suspect(text: &[u8], table: &MaskTable) -> Option<usize> {
        // Made once: the repair asks once for every line it holds, and loading the tables each
        // time was 3% of its time on mojibake.
        static FILTER: OnceLock<Filter> = OnceLock::new();
        let filter = FILTER.get_or_init(|| Filter::new());
        walk!(text, table, 64, |bytes, i, before| filter
            .block(bytes, i, before))
    }
}

#[cfg(test)]
mod tests;
