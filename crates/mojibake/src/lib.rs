//! Undoing mojibake: UTF-8 text that was decoded in a single-byte legacy encoding and encoded
//! again. The mojibake repair of utf8kit, over its codec (`utf8kit_codec`): it starts no thread
//! (a program may lend it [`Helpers`]) and does no I/O.
//!
//! - [`fix_mojibake`] and [`undo_mojibake`] answer one text: what it was, and the chain undone.
//! - [`MojibakeRepairer`] repairs a stream as the codec's `Repairer` does, and undoes mojibake
//!   line by line, holding only the lines in which mojibake may start.
//! - [`letters`]: `is_alphabetic`, `is_uppercase`, `is_lowercase` from tables, for code that
//!   asks them of every character (the judging here, utf8kit's encoding detector).
//!
//! "café" encoded as UTF-8 is `63 61 66 C3 A9`; read as windows-1252 those bytes are "cafÃ©",
//! and written back as UTF-8 they stay that way. Read as windows-1251 the same bytes are "cafГ©",
//! as MacRoman "caf√©". [`fix_mojibake`] reverses this, once per layer, until nothing changes,
//! and leaves correct text alone. The encodings it knows are those of [`ENCODINGS`]:
//! windows-1250 to -1254 and -1257, ISO-8859-1 and -2, MacRoman and IBM437, each also in its
//! *sloppy* form, where the bytes it leaves undefined survive as C1 controls or are lost to
//! U+FFFD.
//!
//! # How a change is decided
//!
//! A line in which no character that is a UTF-8 lead byte in some encoding is followed by as
//! many continuation bytes as it declares in the same encoding (or "Ã" by a space, the lost A0 of
//! "à", or a windows-1252 lead by U+FFFD), and which holds no C1 control, holds no mojibake that
//! can be repaired, and costs nothing more: every other kind of damage is repaired only beside
//! such a group. The repair finds these lines with SIMD, 32 bytes at a time, and never holds
//! them (`first_suspect`).
//!
//! Otherwise each possible encoding is tried on the whole line. A *group* is a lead byte C2..F4
//! followed by exactly the continuation bytes it needs, forming well-formed UTF-8; ASCII is never
//! part of one. Each group gets a verdict from what it decodes to and what surrounds it (the
//! neighbours as they will read once the other groups are decoded):
//!
//! - never a control, private-use character or noncharacter, nor a 2-byte group outside the
//!   alphabetic scripts and Latin-1 symbols;
//! - a decoded letter must not sit against a letter of another script ("AÑ’" is Spanish with a
//!   quote, not Cyrillic ђ);
//! - some groups read as well as text as they do as mojibake ("CAFÉ…", "HÄ…", "Ã’s", "ВІ",
//!   box drawing): those are *weak*, and are decoded only when the same line holds clear mojibake
//!   of the same kind;
//! - but what no text writes is clear: a capital inside a lowercase word ("aÄŤinski"), box
//!   characters against a word ("j├╕disk"), in windows-1252 the IPA letters of African alphabets
//!   after a lowercase letter ("likrÉ›ni"); and the marks of Hebrew, Syriac, Thaana and NKo are
//!   believed beside clear mojibake of their script.
//!
//! Then the line as a whole is weighed:
//!
//! - a run of non-ASCII characters in which a group is broken (a lead followed by a continuation
//!   that does not complete) is garble, not mojibake: nothing in that run changes, so a repair is
//!   never partial inside a word;
//! - a run holding a character the encoding does not have is correct text: its 2-byte groups are
//!   weak;
//! - a single 2-byte group on a line whose other non-ASCII characters are correct UTF-8 is the
//!   text as written ("Bremer/Mccoy – DrÃ¥ber");
//! - the encoding that explains the most bytes wins; on a tie the one whose reading has fewer
//!   odd letters (`is_odd_decoding`), then, outside windows-1252, commoner ones (`rarity`),
//!   then the earlier in [`ENCODINGS`].
//!
//! Damaged mojibake is repaired as far as it can be, and only with clear mojibake on the line (or
//! inside a word, where nothing else explains it): a group with a byte lost to U+FFFD or `?`
//! becomes one U+FFFD; a byte A0 turned into a space is put back ("Ã " is "à", "Ð " is "Р");
//! "â€" whose third byte was dropped becomes U+FFFD. CESU-8 pairs ("í ½í¸") become the one
//! character they encode, and C1 controls left standing alone (Latin-1 read where windows-1252
//! was meant) become windows-1252's characters.
//!
//! # The commonest case, answered first
//!
//! Most mojibake is a whole line read once as windows-1252: every character that is not ASCII
//! is in a group, and each group is clear mojibake. Such a line is answered from its bytes in
//! windows-1252, without building what the judging above needs
//! (`whole_line_through_windows_1252`); the answer is the one the judging would give, which
//! tests check both ways. Any other line goes to the judging.

#![deny(missing_docs)]

mod blockwise;
pub mod helpers;
pub mod letters;
mod pool;
mod reencode;
mod stream;
mod suspect;
mod tables;

pub use helpers::{Helpers, Work};
pub use stream::{LineRepair, MAX_HELD_LINE, MojibakeLine, MojibakeRepairer};
pub(crate) use suspect::first_suspect;

/// Whether this processor has AVX-512 F, BW and VBMI, which every 64-byte SIMD path of the
/// crate needs (the line filter, the shortcut's counts). std caches the answer.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512_vbmi() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}

use blockwise::count_by_blocks;
use reencode::windows_1252_bytes;

use std::sync::OnceLock;

use crate::letters::{is_alphabetic, is_alphanumeric, is_lowercase, is_numeric, is_uppercase};
use tables::{COUNT, HIGH_HALF, LATIN1_BYTES, NAMES, OTHER_BYTES, SLOPPY};
use utf8kit_codec::{UnitKind, declared_len, is_continuation, scan_unit};

/// The most passes over one line: each undoes one layer of encoding.
const MAX_LAYERS: usize = 8;

/// The encodings whose mojibake is undone, in the order ties are broken.
pub const ENCODINGS: [&str; COUNT] = NAMES;

/// Where a long stretch of text without ASCII may be cut, searching back from its end over at
/// most `window` bytes: before a character that no encoding of the tables reads as a
/// continuation byte (80..BF), after one that none reads as a lead byte (C2..F4). No group of
/// one layer of mojibake then straddles the cut. `None` when the window holds no such place
/// (the caller cuts at any character boundary).
pub(crate) fn cut_between_groups(text: &[u8], window: usize) -> Option<usize> {
    const CONTINUES: u8 = 1;
    const LEADS: u8 = 2;
    // Each character of the tables with what its bytes can be, sorted for binary search.
    static ROLES: std::sync::OnceLock<Vec<(char, u8)>> = std::sync::OnceLock::new();
    let roles = ROLES.get_or_init(|| {
        let mut roles: Vec<(char, u8)> = Vec::new();
        for table in &HIGH_HALF {
            for (i, &c) in table.iter().enumerate() {
                let byte = 0x80 + i as u8;
                let role = match byte {
                    0x80..=0xBF => CONTINUES,
                    0xC2..=0xF4 => LEADS,
                    _ => 0,
                };
                if c != '\0' {
                    roles.push((c, role));
                }
            }
        }
        roles.sort_unstable();
        roles.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 |= b.1;
            }
            same
        });
        roles
    });
    let role = |c: char| match roles.binary_search_by(|(k, _)| k.cmp(&c)) {
        Ok(i) => roles[i].1,
        Err(_) => 0,
    };
    let floor = text.len().saturating_sub(window);
    let mut after: Option<char> = None;
    let mut end = text.len();
    let mut at = text.len();
    while at > floor {
        at -= 1;
        if text[at] & 0xC0 == 0x80 {
            continue;
        }
        let c = std::str::from_utf8(&text[at..end]).ok()?.chars().next()?;
        if let Some(next) = after
            && role(next) & CONTINUES == 0
            && role(c) & LEADS == 0
        {
            return Some(end);
        }
        after = Some(c);
        end = at;
    }
    None
}

/// What [`undo_mojibake`] did to a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MojibakeFix {
    /// The repaired text.
    pub text: String,
    /// How many groups were decoded, over all layers.
    pub groups: usize,
    /// The encoding undone at each layer.
    pub chain: MojibakeChain,
}

/// The encodings undone, one per layer, outermost first; shown as people say it:
/// `windows-1252 x2`, `windows-1251`, `windows-1252, macintosh`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MojibakeChain {
    layers: [u8; MAX_LAYERS],
    len: u8,
}

/// The name of layer index `i`: an encoding of [`ENCODINGS`], or Latin-1 read where
/// windows-1252 was meant (stray C1 controls).
fn layer_name(i: u8) -> &'static str {
    NAMES.get(usize::from(i)).copied().unwrap_or("iso-8859-1")
}

impl MojibakeChain {
    /// The encoding undone at each layer, outermost first.
    pub fn layers(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.layers[..usize::from(self.len)]
            .iter()
            .map(|&i| layer_name(i))
    }

    fn push(&mut self, layer: u8) {
        self.layers[usize::from(self.len)] = layer;
        self.len += 1;
    }

    /// This chain, then the layers of `later` (as many as fit).
    pub(crate) fn then(mut self, later: MojibakeChain) -> MojibakeChain {
        for &layer in &later.layers[..usize::from(later.len)] {
            if usize::from(self.len) < MAX_LAYERS {
                self.push(layer);
            }
        }
        self
    }
}

impl std::fmt::Display for MojibakeChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let layers = &self.layers[..usize::from(self.len)];
        let mut i = 0;
        while i < layers.len() {
            let run = layers[i..].iter().take_while(|&&l| l == layers[i]).count();
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(layer_name(layers[i]))?;
            if run > 1 {
                write!(f, " x{run}")?;
            }
            i += run;
        }
        Ok(())
    }
}

/// Undoes every layer of mojibake in `text`, or returns `None` if nothing changes.
///
/// Returns the repaired text and the number of groups changed over all layers; see
/// [`undo_mojibake`] for the encodings undone.
///
/// ```
/// use utf8kit_mojibake::fix_mojibake;
/// assert_eq!(fix_mojibake("cafÃ©").unwrap().0, "café");
/// assert_eq!(fix_mojibake("itâ€™s").unwrap().0, "it’s");
/// assert_eq!(fix_mojibake("cafÃƒÂ©").unwrap().0, "café"); // encoded twice
/// assert_eq!(fix_mojibake("РґРѕСЂРѕРіРµ").unwrap().0, "дороге"); // through windows-1251
/// assert_eq!(fix_mojibake("SÃO PAULO, AÑO, 50¢, ©, €5"), None); // correct text
/// ```
pub fn fix_mojibake(text: &str) -> Option<(String, usize)> {
    undo_mojibake(text).map(|fix| (fix.text, fix.groups))
}

/// Undoes every layer of mojibake in `text`, saying which encodings it undid, or returns `None`
/// if nothing changes.
///
/// ```
/// use utf8kit_mojibake::undo_mojibake;
/// let fix = undo_mojibake("GrÃƒÂ¼ÃƒÅ¸e").unwrap();
/// assert_eq!(fix.text, "Grüße");
/// assert_eq!(fix.chain.to_string(), "windows-1252 x2");
/// assert_eq!(undo_mojibake("Привет, мир"), None);
/// ```
pub fn undo_mojibake(text: &str) -> Option<MojibakeFix> {
    undo_layers(text, false)
}

/// [`undo_mojibake`] of a line in which the line filter ([`first_suspect`]) has already found a
/// place where mojibake may start: its first layer is judged without asking the filter again.
pub(crate) fn undo_suspect_line(text: &str) -> Option<MojibakeFix> {
    undo_layers(text, true)
}

/// Undoes the layers of `text`, the first one already found suspect or not.
fn undo_layers(text: &str, is_suspect: bool) -> Option<MojibakeFix> {
    let mut fixed = String::new();
    undo_layers_into(text, is_suspect, &mut fixed).map(|(groups, chain)| MojibakeFix {
        text: fixed,
        groups,
        chain,
    })
}

/// [`undo_layers`] with the repaired text added to `out`: how many groups were decoded, and the
/// chain undone. A run of lines has its texts put in one string this way, without a string of
/// its own for each line.
pub(crate) fn undo_layers_into(
    text: &str,
    is_suspect: bool,
    out: &mut String,
) -> Option<(usize, MojibakeChain)> {
    undo_layers_from(text, is_suspect, (0, 0, MojibakeChain::default()), out)
}

/// [`undo_layers_into`] of `text`, the answer of the first `done.0` layers, which decoded
/// `done.1` groups over the chain `done.2`: the layers after them, up to [`MAX_LAYERS`] in all.
/// `None` when `text` is the answer of no layer and stays, or when the text still changes at
/// the last layer.
pub(crate) fn undo_layers_from(
    text: &str,
    is_suspect: bool,
    done: (usize, usize, MojibakeChain),
    out: &mut String,
) -> Option<(usize, MojibakeChain)> {
    let (first, mut groups, mut chain) = done;
    // Each layer reads the last one's answer and writes its own beside it.
    let mut last = spare(&SPARE_LAYER, text.len());
    let mut next = spare(&SPARE_BYTES, text.len());
    let mut answer = None;
    for layer in first..MAX_LAYERS {
        let input = if layer == first {
            text
        } else {
            debug_assert!(std::str::from_utf8(&last).is_ok());
            // SAFETY: `last` holds the answer of `one_layer`, well-formed UTF-8: a string the
            // general judging made, or the shortcut's bytes, whose count walked every byte
            // (see `whole_line_through_windows_1252`). Checking them again was a twentieth of
            // the repair's time.
            unsafe { std::str::from_utf8_unchecked(&last) }
        };
        let is_suspect = is_suspect && layer == first;
        let Some((count, encoding)) = one_layer(input, is_suspect, &mut next) else {
            if layer > 0 {
                out.push_str(input);
                answer = Some((groups, chain));
            }
            break;
        };
        groups += count;
        chain.push(encoding);
        std::mem::swap(&mut last, &mut next);
    }
    give_back(&SPARE_LAYER, last);
    give_back(&SPARE_BYTES, next);
    // Still changing after as many layers as any real text has been through (no answer): this
    // is not mojibake but text that only looks like it at every depth ("ÂÂÂÂÂÂÂÂÂÂ£"). It is
    // left as it is, which also keeps the repair idempotent and its work linear.
    answer
}

/// The first layer of `text`, a line the line filter found suspect, added to `out`: how many
/// groups it decoded, and its encoding; `None` when nothing in it is accepted.
pub(crate) fn undo_first_layer_into(text: &str, out: &mut String) -> Option<(usize, u8)> {
    let mut bytes = spare(&SPARE_BYTES, text.len());
    let answer = one_layer(text, true, &mut bytes);
    if answer.is_some() {
        debug_assert!(std::str::from_utf8(&bytes).is_ok());
        // SAFETY: `one_layer` answered: `bytes` is well-formed UTF-8 (see `undo_layers_from`).
        out.push_str(unsafe { std::str::from_utf8_unchecked(&bytes) });
    }
    give_back(&SPARE_BYTES, bytes);
    answer
}

/// Each encoding's byte for `c` (0 where it has none), for a character above U+007F.
fn bytes_of(c: char) -> Option<&'static [u8; COUNT]> {
    let cp = u32::from(c);
    match cp {
        0..=0x7F => None,
        0x80..=0xFF => Some(&LATIN1_BYTES[(cp - 0x80) as usize]),
        0x100..DIRECT_END => {
            let index = OTHER_BYTES_INDEX[(cp - 0x100) as usize];
            (index != NONE).then(|| &OTHER_BYTES[usize::from(index)].1)
        }
        // Between the box drawing of IBM437 and MacRoman's Apple logo no encoding has a
        // character: CJK text is answered without a search.
        DIRECT_END..=0xF8FE => None,
        0xF8FF..=0xFB02 => OTHER_BYTES
            .binary_search_by(|(k, _)| k.cmp(&c))
            .ok()
            .map(|i| &OTHER_BYTES[i].1),
        _ => None,
    }
}

/// Where the index of [`OTHER_BYTES_INDEX`] ends: past IBM437's box drawing, the last of the
/// tables' characters below CJK. Above it only MacRoman's Apple logo and ligatures remain.
const DIRECT_END: u32 = 0x2600;

/// No entry of [`OTHER_BYTES`] for this character.
const NONE: u16 = u16::MAX;

/// The entry of [`OTHER_BYTES`] for each character U+0100..[`DIRECT_END`], made by the compiler:
/// the judging asks for every character of a line in every encoding it tries, and a binary
/// search each time was an eighth of the repair's time.
static OTHER_BYTES_INDEX: [u16; (DIRECT_END - 0x100) as usize] = {
    let mut index = [NONE; (DIRECT_END - 0x100) as usize];
    let mut i = 0;
    while i < OTHER_BYTES.len() {
        let cp = OTHER_BYTES[i].0 as u32;
        if cp >= 0x100 && cp < DIRECT_END {
            index[(cp - 0x100) as usize] = i as u16;
        }
        i += 1;
    }
    index
};

/// `c`'s byte in encoding `e`: ASCII as itself, 0 where the encoding has no byte for it.
fn byte_in(c: char, e: usize) -> u8 {
    if c.is_ascii() {
        return c as u8;
    }
    bytes_of(c).map_or(0, |bytes| bytes[e])
}

/// A line as the judging reads it: its characters, and each one's byte in every encoding; and
/// what one pass over it tells before any judging.
struct Line {
    chars: Vec<char>,
    rows: Vec<&'static [u8; COUNT]>,
    /// [`possible_encodings`] of the line.
    possible: u16,
    /// For each encoding, how many characters it reads as a byte 80..FF.
    readable: [usize; COUNT],
    /// The line holds a C1 control.
    has_c1: bool,
}

/// The rows of ASCII characters: each is its own byte in every encoding.
static ASCII_ROWS: [[u8; COUNT]; 128] = {
    let mut rows = [[0u8; COUNT]; 128];
    let mut b = 0;
    while b < 128 {
        rows[b] = [b as u8; COUNT];
        b += 1;
    }
    rows
};

/// The row of a character no encoding has.
static NO_BYTES: [u8; COUNT] = [0; COUNT];

impl Line {
    /// One pass over the characters of `text` gives their rows, the encodings that may hold a
    /// candidate (as [`possible_encodings`], a test checks) and what each encoding could read.
    fn new(text: &str) -> Line {
        let table = MaskTable::get();
        // Room for the most characters the text can hold: growing them was a tenth of the time.
        let mut chars = spare(&SPARE_CHARS, text.len());
        let mut rows = spare(&SPARE_ROWS, text.len());
        let mut possible = 0;
        let mut pending = Pending::default();
        let mut readable = [0usize; COUNT];
        let mut has_c1 = false;
        for c in text.chars() {
            chars.push(c);
            if c.is_ascii() {
                rows.push(&ASCII_ROWS[c as usize]);
                // Nothing pending: ASCII only says whether a letter of another script came last.
                if pending.is_idle() {
                    pending.pass_ascii(c);
                } else {
                    possible |= pending.step(Masks::default(), c);
                }
                continue;
            }
            let row = bytes_of(c).unwrap_or(&NO_BYTES);
            rows.push(row);
            for (count, &b) in readable.iter_mut().zip(row) {
                *count += usize::from(b >> 7);
            }
            has_c1 |= is_c1_control(c);
            possible |= pending.step(table.of_char(c), c);
        }
        possible |= pending.finish();
        Line {
            chars,
            rows,
            possible,
            readable,
            has_c1,
        }
    }

    /// The byte of the character at `i` in encoding `e`, as [`byte_in`] gives it.
    fn byte(&self, i: usize, e: usize) -> u8 {
        self.rows[i][e]
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        give_back(&SPARE_CHARS, std::mem::take(&mut self.chars));
        give_back(&SPARE_ROWS, std::mem::take(&mut self.rows));
    }
}

/// A vector a thread's last judged line left behind (see [`spare`]).
type Spare<T> = std::thread::LocalKey<std::cell::RefCell<Vec<T>>>;

thread_local! {
    // The vectors of the judging, kept by each thread from one line to the next: allocating
    // them for every line was a twentieth of the time.
    static SPARE_CHARS: std::cell::RefCell<Vec<char>> = const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_ROWS: std::cell::RefCell<Vec<&'static [u8; COUNT]>> =
        const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_LAYER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_FOUND: std::cell::RefCell<Vec<Found>> = const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_COVERED: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The thread's spare vector of `key`, empty, with room for `len` items.
fn spare<T: 'static>(key: &'static Spare<T>, len: usize) -> Vec<T> {
    let mut vector = key.with_borrow_mut(std::mem::take);
    vector.clear();
    vector.reserve(len);
    vector
}

/// Keeps `vector` as the thread's spare of `key`, if it holds more room than the one kept.
fn give_back<T: 'static>(key: &'static Spare<T>, vector: Vec<T>) {
    key.with_borrow_mut(|kept| {
        if vector.capacity() > kept.capacity() {
            *kept = vector;
        }
    });
}

fn is_lead(byte: u8) -> bool {
    (0xC2..=0xF4).contains(&byte)
}

/// The lead bytes after which a space may stand for a lost A0: the letters and scripts whose
/// UTF-8 second byte A0 is common (à, NBSP, Š, Π, Р, ٠, and the 3-byte ranges E0..E3).
fn takes_spaced_a0(byte: u8) -> bool {
    matches!(
        byte,
        0xC2 | 0xC3 | 0xC5 | 0xCE | 0xD0 | 0xD9 | 0xE0..=0xE3 | 0xF0
    )
}

/// Bit masks over the encodings for one character: where it is a lead byte of a 2-, 3- or
/// 4-byte sequence, a continuation byte, and a letter that is the lead C3.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
struct Masks {
    lead: [u16; 3],
    cont: u16,
    /// A letter that is the lead C3 ("Ã", "Г", "Γ"), after which a space may stand for the lost
    /// A0 of "à": the one group with a stand-in that can be clear mojibake (see `judge`).
    c3: u16,
    /// A letter of the encoding's own script other than Latin (Cyrillic in windows-1251, Greek
    /// in windows-1253). A group made of such letters only, followed by another that begins no
    /// whole group, is a word of that script ("Пі" in "Південна", "гіё" in "рэгіён"), never
    /// clear mojibake by itself ([`is_plausible`]).
    letter: u16,
    /// All ones for a character known to be no letter of a script (a sign, a digit, a letter of
    /// the Common script, U+FFFD); characters outside the tables have no masks and may be
    /// letters of any script.
    non_alpha: u16,
    /// All ones for a lowercase letter, and for an uppercase one.
    lower: u16,
    upper: u16,
    /// All ones for a letter that windows-1252 has where it begins no group (its byte is
    /// C0..FF: "À", "à", "Ø"). Two such letters that make a group elsewhere than in
    /// windows-1252 are text in the languages that write them ("Ààrin" in Yoruba, "HÅØYA"):
    /// [`is_plausible`] never takes them for clear mojibake.
    western: u16,
}

fn masks(c: char) -> Masks {
    let mut m = Masks::default();
    let Some(bytes) = bytes_of(c) else {
        return m;
    };
    for (e, &b) in bytes.iter().enumerate() {
        let bit = 1 << e;
        if is_lead(b) {
            let len = declared_len(b).expect("a lead byte");
            m.lead[len - 2] |= bit;
            if b == 0xC3 && is_alphabetic(c) {
                m.c3 |= bit;
            }
        } else if is_continuation(b) {
            m.cont |= bit;
        }
        if b != 0 && is_script_letter(c) {
            m.letter |= bit;
        }
    }
    let all = |yes: bool| if yes { u16::MAX } else { 0 };
    m.non_alpha = all(!is_alphabetic(c) || script(c) == Script::Common);
    m.lower = all(is_lowercase(c));
    m.upper = all(is_uppercase(c));
    m.western = all(is_alphabetic(c) && byte_in(c, 0) >= 0xC0);
    m
}

/// A letter of a script other than Latin: what the encodings beyond windows-1252's kin write
/// their own words in; with the apostrophes Ukrainian and Belarusian write inside words
/// ("Об’єднаних", "М’янма").
fn is_script_letter(c: char) -> bool {
    is_alphabetic(c) && !matches!(script(c), Script::Latin | Script::Common)
        || matches!(c, '’' | 'ʼ')
}

/// The masks of every character the line filter and [`possible_encodings`] read: U+0080..U+07FF
/// (the 2-byte characters), then U+2000..U+2FFF and U+F000..U+FFFF (the 3-byte characters that
/// start with E2 or EF, the only 3-byte leads of the tables' characters and of U+FFFD). Each
/// character has a one-byte index into a short list of distinct masks, so that the whole table
/// stays in the cache (10 KiB).
struct MaskTable {
    index: Vec<u8>,
    masks: Vec<Masks>,
}

/// Where the characters U+2000.. and U+F000.. start in [`MaskTable::index`].
const E2_START: usize = 0x800 - 0x80;
const EF_START: usize = E2_START + 0x1000;

impl MaskTable {
    fn get() -> &'static MaskTable {
        static TABLE: std::sync::OnceLock<MaskTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            // Most characters have none: the first entry. Only the tables' own characters (and
            // U+FFFD, a continuation byte lost) are looked at.
            let mut table = MaskTable {
                index: vec![0; EF_START + 0x1000],
                masks: vec![Masks::default()],
            };
            let latin1 = (0x80..=0xFFu8).map(char::from);
            let chars = latin1.chain(OTHER_BYTES.iter().map(|(c, _)| *c));
            for c in chars.chain(['\u{FFFD}']) {
                let Some(slot) = MaskTable::slot(c) else {
                    continue;
                };
                let m = match c {
                    '\u{FFFD}' => LOST_BYTE,
                    _ => masks(c),
                };
                let at = match table.masks.iter().position(|known| *known == m) {
                    Some(at) => at,
                    None => {
                        table.masks.push(m);
                        table.masks.len() - 1
                    }
                };
                table.index[slot] = u8::try_from(at).expect("fewer than 256 distinct masks");
            }
            table
        })
    }

    /// Where `c` sits in [`MaskTable::index`], if the table covers it.
    fn slot(c: char) -> Option<usize> {
        let cp = u32::from(c) as usize;
        match cp {
            0x80..0x800 => Some(cp - 0x80),
            0x2000..0x3000 => Some(E2_START + cp - 0x2000),
            0xF000..0x1_0000 => Some(EF_START + cp - 0xF000),
            _ => None,
        }
    }

    /// The masks of `c`, which is not ASCII.
    fn of_char(&self, c: char) -> Masks {
        Self::slot(c).map_or(Masks::default(), |slot| {
            self.masks[usize::from(self.index[slot])]
        })
    }

    /// The masks of the character that `bytes` (well-formed UTF-8) starts with, and its length.
    /// Characters outside the table have none: ASCII, the other 3-byte characters (CJK, Indic,
    /// Thai...) and the 4-byte ones.
    #[inline(always)]
    fn of(&self, bytes: &[u8]) -> (Masks, usize) {
        let b = bytes[0];
        let at = match b {
            0..=0x7F => return (Masks::default(), 1),
            0xC0..=0xDF => usize::from(b & 0x1F) << 6 | usize::from(bytes[1] & 0x3F),
            0xE2 | 0xEF => {
                let low = usize::from(bytes[1] & 0x3F) << 6 | usize::from(bytes[2] & 0x3F);
                low + if b == 0xE2 {
                    E2_START + 0x80
                } else {
                    EF_START + 0x80
                }
            }
            0xE0..=0xEF => return (Masks::default(), 3),
            _ => return (Masks::default(), 4),
        };
        let len = if b < 0xE0 { 2 } else { 3 };
        (self.masks[usize::from(self.index[at - 0x80])], len)
    }
}

/// The first bytes of the tables' characters: the 2-byte leads of the C1 controls, Latin-1,
/// Latin Extended-A, ƒ, the spacing accents, Greek and Cyrillic, and E2 and EF, the only 3-byte
/// leads of the tables' characters and of U+FFFD. A test checks the list. Only the x86 SIMD
/// paths of the line filter read it.
#[cfg(any(target_arch = "x86_64", test))]
const LEADS: &[u8] = &[
    0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xCB, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xE2, 0xEF,
];

/// The masks of U+FFFD: a continuation byte lost in windows-1252, the one encoding in which a
/// group with a lost byte can be clear mojibake (see `candidate_at`).
const LOST_BYTE: Masks = Masks {
    lead: [0; 3],
    cont: 1,
    c3: 0,
    letter: 0,
    non_alpha: u16::MAX,
    lower: 0,
    upper: 0,
    western: 0,
};

/// What [`possible_encodings`] carries from one character to the next: the groups pending in
/// each encoding, as bit masks. Whether a group ends at a character depends on the group alone,
/// which began at most three characters back, so the line filter ([`first_suspect`]) starts
/// afresh a few characters before the place it asks about, reads on past it while a group of
/// letters of the encoding's script is held there, and gets the answer a pass over the whole
/// line would give.
#[derive(Clone, Copy, Default)]
struct Pending {
    /// Encodings in which the characters just read leave a sequence needing 1, 2 or 3 more
    /// continuations.
    needs: [u16; 3],
    /// Encodings in which the last character was a letter that is the lead C3.
    after_c3: u16,
    /// Encodings in which the group pending (as `needs`) is made of letters of the encoding's
    /// script (`Masks::letter`) so far.
    letter_needs: [u16; 3],
    /// Encodings in which the last character completed a group of such letters only, which
    /// counts only if what follows is no letter of the script, or one that begins a whole group
    /// ("Пі" in "Південна" is a word, "Рі" before "вЂ“" is "г–").
    held: u16,
    /// Encodings in which a held group waits for the group a letter after it began, which
    /// still needs 1, 2 or 3 continuation bytes.
    wait: [u16; 3],
    /// Encodings in which the last character let a held group count (it ended before).
    released: u16,
    /// Encodings in which the pending group of three or four such letters (as `letter_needs`)
    /// has no capital after a lowercase letter and follows no letter of another script; and
    /// the held groups that are such. With no letter of another script after it either, such
    /// a group is a word of the script ([`is_plausible`]'s rule for three or four letters): it
    /// never counts.
    calm_needs: [u16; 3],
    held_calm: u16,
    /// Encodings in which the last character was a letter of another script than the
    /// encoding's (`Masks::letter`), or may be one.
    after_foreign: u16,
    /// The last character was a lowercase letter (all ones).
    after_lower: u16,
    /// Encodings other than windows-1252 in which the last character was a 2-byte lead that is
    /// a letter windows-1252 has where it begins no group (`Masks::western`).
    after_western_lead: u16,
}

impl Pending {
    fn is_idle(&self) -> bool {
        self.needs == [0; 3] && self.held == 0 && self.wait == [0; 3]
    }

    /// The groups that count at the end of the text: those held, which no letter follows (a
    /// group cut short by the end is no whole group, and those waiting for it do not count),
    /// but for three or four letters that make a word.
    fn finish(&self) -> u16 {
        self.held & !self.held_calm
    }

    /// [`Pending::step`] for an ASCII character with nothing pending, which only notes whether
    /// it is a letter (of another script than every encoding's own).
    fn pass_ascii(&mut self, c: char) {
        self.after_foreign = if c.is_ascii_alphabetic() { u16::MAX } else { 0 };
        self.after_lower = 0;
    }

    /// The held groups still waiting for what follows them.
    fn undecided(&self) -> u16 {
        self.held | self.wait[0] | self.wait[1] | self.wait[2]
    }

    /// Reads the character that `bytes` (well-formed UTF-8) starts with: returns the encodings
    /// in which it completes a candidate, and its length.
    #[inline(always)]
    fn read(&mut self, table: &MaskTable, bytes: &[u8]) -> (u16, usize) {
        let b = bytes[0];
        if b < 0x80 {
            return (self.step(Masks::default(), char::from(b)), 1);
        }
        let (m, len) = table.of(bytes);
        // Only the C1 controls (C2 80..9F) are told apart from the other characters here.
        let c = if b == 0xC2 && bytes[1] < 0xA0 {
            '\u{80}'
        } else {
            '\u{FFFF}'
        };
        (self.step(m, c), len)
    }

    /// Reads `c`, whose masks are `m` (none for ASCII): returns the encodings in which it
    /// completes a candidate.
    #[inline(always)]
    fn step(&mut self, mut m: Masks, c: char) -> u16 {
        // A whole group after a held one has real continuation bytes, not stand-ins.
        let real_cont = m.cont;
        // A space after "Ã" may be the lost A0 of "à"; any other ASCII ends every group.
        if c == ' ' {
            m.cont = self.after_c3;
        }
        // Two letters that windows-1252 has where they begin no group are text elsewhere.
        let mut complete = self.needs[0] & m.cont & !(self.after_western_lead & m.western);
        self.after_western_lead = m.lead[0] & m.western & !1;
        // A group of letters of the encoding's script only waits for what follows: no letter of
        // the script lets it count, and so does a letter that begins a whole group (once that
        // group is whole); a letter that begins none, or a group broken off, shows a word.
        // (Nothing to do where no such letter is read or pending: most text.)
        let foreign = match c {
            'a'..='z' | 'A'..='Z' => u16::MAX,
            '\0'..='\x7F' => 0,
            _ => !m.letter & !m.non_alpha,
        };
        let pending = self.letter_needs[0] | self.letter_needs[1] | self.letter_needs[2];
        if m.letter | self.undecided() | pending != 0 {
            // Three or four letters with no letter of another script after them are a word.
            let held = self.held & !(self.held_calm & !foreign);
            self.released = held & !m.letter | self.wait[0] & real_cont;
            let begun = held & m.letter;
            self.wait = [
                self.wait[1] & real_cont | begun & m.lead[0],
                self.wait[2] & real_cont | begun & m.lead[1],
                begun & m.lead[2],
            ];
            let letter_cont = m.letter & real_cont;
            let calm_cont = letter_cont & !(self.after_lower & m.upper);
            self.held = complete & self.letter_needs[0] & letter_cont;
            self.held_calm = self.held & self.calm_needs[0] & calm_cont;
            complete = complete & !self.held | self.released;
            self.letter_needs = [
                m.letter & m.lead[0] | self.letter_needs[1] & letter_cont,
                m.letter & m.lead[1] | self.letter_needs[2] & letter_cont,
                m.letter & m.lead[2],
            ];
            self.calm_needs = [
                self.calm_needs[1] & calm_cont,
                self.calm_needs[2] & calm_cont | m.letter & m.lead[1] & !self.after_foreign,
                m.letter & m.lead[2] & !self.after_foreign,
            ];
        } else {
            self.released = 0;
        }
        self.after_foreign = foreign;
        self.after_lower = m.lower;
        // A C1 control standing alone is Latin-1 read where windows-1252 was meant.
        if is_c1_control(c) {
            complete |= 1;
        }
        self.needs = [
            m.lead[0] | self.needs[1] & m.cont,
            m.lead[1] | self.needs[2] & m.cont,
            m.lead[2],
        ];
        self.after_c3 = m.c3;
        complete
    }
}

/// The encodings in which `text` might hold a candidate that changes it, as a bit mask; 0 for
/// almost all clean text, found in one pass without judging anything. Only a candidate that can
/// be clear mojibake by itself counts: every change to a line needs one (`judge` accepts the
/// others only beside clear mojibake of the same encoding). That is a lead followed by as many
/// real continuations as it declares; "Ã" and a space standing for the A0 of "à"; a byte lost to
/// U+FFFD in windows-1252; or a C1 control standing alone. A `?` for a lost byte, a space for a
/// lost A0 elsewhere, and "â€" cut short are repaired only beside those. A lead and one
/// continuation alone ("óła" in Polish through windows-1250) is no candidate, which keeps clean
/// text out of the judging; nor are the groups `judge` never takes for clear mojibake whatever
/// the line says: letters of the encoding's own script that the line shows to be a word, and
/// two letters that windows-1252 has read through another encoding (see [`Pending`]).
/// [`Line::new`] finds the same in the pass that makes the line; this
/// is the plain form the tests hold it and the line filter to.
#[cfg(test)]
fn possible_encodings(chars: impl IntoIterator<Item = char>) -> u16 {
    let table = MaskTable::get();
    let mut possible = 0;
    let mut pending = Pending::default();
    for c in chars {
        // Nothing pending: ASCII only says whether a letter of another script came last (CJK,
        // Korean, Thai have no masks either).
        if c.is_ascii() && pending.is_idle() {
            pending.pass_ascii(c);
            continue;
        }
        let masks = if c.is_ascii() {
            Masks::default()
        } else {
            table.of_char(c)
        };
        possible |= pending.step(masks, c);
    }
    possible | pending.finish()
}

/// Undoes one layer into `out` (well-formed UTF-8 then; its old content is lost), or returns
/// `None` if nothing in `text` is accepted. Returns how many groups were decoded, and the
/// encoding. `is_suspect`: the line filter has already found `text` suspect.
fn one_layer(text: &str, is_suspect: bool, out: &mut Vec<u8>) -> Option<(usize, u8)> {
    // The line filter gives the same answer as `possible_encodings != 0`, with SIMD: the layer
    // that finds nothing more (one in every repaired line) costs little. (Asked again or not,
    // the answer is the same: the filter only passes over lines that hold no candidate.)
    if !is_suspect {
        first_suspect(text.as_bytes())?;
    }
    // Most mojibake is a whole line read once as windows-1252: that reading is answered without
    // building the line the general judging needs.
    if let Some(answer) = whole_line_through_windows_1252(text, out) {
        return Some(answer);
    }
    let (fixed, count, encoding) = judge_layer(text)?;
    out.clear();
    out.extend_from_slice(fixed.as_bytes());
    Some((count, encoding))
}

/// [`one_layer`] of a line the line filter found suspect, by the general judging.
fn judge_layer(text: &str) -> Option<(String, usize, u8)> {
    let line = Line::new(text);
    let possible = line.possible;
    if possible == 0 {
        return None;
    }
    let chars = &line.chars[..];
    // An encoding explains at most the characters it reads as bytes 80..FF (a candidate's weight
    // is never more than its characters): this orders the possible encodings (one or two in
    // most lines) and passes over those that cannot beat the best so far without looking for
    // their candidates.
    let readable = line.readable;
    let mut order = [0usize; COUNT];
    let mut tried = 0;
    for e in (0..COUNT).filter(|e| possible & (1 << e) != 0) {
        order[tried] = e;
        tried += 1;
    }
    let order = &mut order[..tried];
    // Most first, ties in table order, which is the order ties are broken in.
    order.sort_unstable_by_key(|&e| (std::cmp::Reverse(readable[e]), e));
    let mut best: Option<Plan> = None;
    // A tie on weight goes to fewer odd decodings, then to the commoner letters, then to the
    // earlier encoding.
    let cannot_win = |best: &Option<Plan>, e: usize, most: usize| {
        let best_weight = best.as_ref().map_or(0, |b| b.weight);
        let could_win_tie = best
            .as_ref()
            .is_some_and(|b| b.oddities > 0 || b.rarity > 0 || e < b.encoding);
        most < best_weight || most == best_weight && !could_win_tie
    };
    for &mut e in order {
        if cannot_win(&best, e, readable[e]) {
            continue;
        }
        let found = find_candidates(&line, e);
        // What the candidates could explain at most bounds what judging them can give.
        let bound = found.iter().map(Found::weight).sum();
        if cannot_win(&best, e, bound) {
            continue;
        }
        let plan = plan_for(&line, e, found);
        let wins = match &best {
            None => plan.weight > 0,
            Some(b) => {
                (
                    plan.weight,
                    std::cmp::Reverse(plan.oddities),
                    std::cmp::Reverse(plan.rarity),
                    std::cmp::Reverse(e),
                ) > (
                    b.weight,
                    std::cmp::Reverse(b.oddities),
                    std::cmp::Reverse(b.rarity),
                    std::cmp::Reverse(b.encoding),
                )
            }
        };
        if wins {
            best = Some(plan);
        }
    }
    let c1 = if line.has_c1 {
        stray_c1_controls(chars, best.as_ref())
    } else {
        Vec::new()
    };
    let plan = best.filter(|p| p.weight > 0);
    let groups = plan
        .as_ref()
        .map_or(&[][..], |p| &p.found[..])
        .iter()
        .filter(|f| f.accepted);
    // Both lists are sorted and never overlap (a stray control is one no candidate covers):
    // one pass writes the line with each edit in place.
    let mut edits: Vec<(usize, usize, Edit)> =
        Vec::with_capacity(groups.clone().count() + c1.len());
    edits.extend(groups.map(|f| (f.start, f.len, Edit::Group(f.candidate))));
    edits.extend(c1.iter().map(|&i| (i, 1, Edit::Control(chars[i]))));
    if edits.is_empty() {
        return None;
    }
    edits.sort_unstable_by_key(|&(start, ..)| start);
    let mut fixed = String::with_capacity(text.len());
    let mut at = 0;
    for &(start, len, edit) in &edits {
        fixed.extend(&chars[at..start]);
        match edit {
            Edit::Control(c) => fixed.push(windows_1252_char(c)),
            Edit::Group(Candidate::Group { decoded, .. } | Candidate::Cesu { decoded }) => {
                fixed.push(decoded)
            }
            Edit::Group(Candidate::Spaced {
                decoded,
                keeps_space,
            }) => {
                fixed.push(decoded);
                if keeps_space {
                    fixed.push(' ');
                }
            }
            Edit::Group(Candidate::Damaged { .. } | Candidate::Truncated) => fixed.push('\u{FFFD}'),
        }
        at = start + len;
    }
    fixed.extend(&chars[at..]);
    // Layer index COUNT names Latin-1 read where windows-1252 was meant.
    let layer = match &plan {
        Some(p) if p.encoding != 0 => p.encoding as u8,
        Some(p) if !p.found.iter().any(|f| f.accepted && f.uses_c1) => 0,
        _ => COUNT as u8,
    };
    Some((fixed, edits.len(), layer))
}

/// [`one_layer`] of a line that is windows-1252 mojibake through and through, or `None` when it
/// is not, or when it may not be (the general judging then decides). Such a line reads back,
/// character by character, as bytes that are well-formed UTF-8, and each of its groups is one
/// the general judging accepts (clear mojibake by itself, or beside the line's other groups),
/// with no odd decoding.
///
/// Then the general judging would accept every group, and windows-1252 would win, which is why
/// the answer is the same:
/// - every character that is not ASCII is in a whole group, so no run holds a character no
///   candidate covers, and nothing in `weigh_runs` takes a verdict back;
/// - windows-1252 explains every such character, which no encoding can beat, and wins every
///   tie, having no odd decoding and no rarity, and coming first in [`ENCODINGS`];
/// - no C1 control stands alone;
/// - the line filter finds it (a lead followed by its continuations in windows-1252), and
///   windows-1252 is among its possible encodings (no group of its letters is held as a word:
///   it has no letter of another script at a lead byte).
///
/// Tests hold it to the general judging both ways (it answers exactly such lines, and gives them
/// the same answer) on the module's patterns, words of many scripts and random lines.
///
/// The answer is put in `out`: the bytes themselves, which are then well-formed UTF-8 (the count
/// walked every byte: each is ASCII or in a whole group, a lead and the continuation bytes it
/// declares that `decode_group` took for a character, and it refuses what std refuses, which a
/// test checks for every group; or the count of wide groups found each byte ASCII or in a group
/// of a lead E0..ED and two continuation bytes, neither overlong nor a surrogate).
///
/// Three counts answer in turn, each where the one before says nothing: the count of wide
/// groups (a line of CJK, Hangul or Indic mojibake, 64 bytes at a time), the quick count (a
/// group at a time), the careful count.
fn whole_line_through_windows_1252(text: &str, out: &mut Vec<u8>) -> Option<(usize, u8)> {
    windows_1252_bytes(text, out)?;
    let groups = count_by_blocks(out, PairClass::table())
        .or_else(|| count_surely_clear_groups(out))
        .or_else(|| count_clear_groups(out))?;
    Some((groups, 0))
}

/// The whole group of windows-1252 bytes at `at`: what it decodes to, and its length.
fn group_at(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let len = declared_len(*bytes.get(at)?)?;
    let group = bytes.get(at..at + len)?;
    if len < 2 || !group[1..].iter().all(|&b| is_continuation(b)) {
        return None;
    }
    decode_group(group).map(|c| (c, len))
}

/// The character windows-1252 reads `byte` as (ASCII as itself).
fn windows_1252_original(byte: u8) -> char {
    match byte {
        0..0x80 => char::from(byte),
        _ => windows_1252_char(char::from(byte)),
    }
}

/// [`count_clear_groups`] where every group is clear mojibake by itself and none decodes oddly;
/// `None` when a group is not, and the careful count decides. A test holds the two counts to
/// each other.
///
/// Most groups are ones that [`is_surely_clear`] answers, and its tests are made here on the
/// bytes; a group they leave open is judged as the careful count judges it
/// ([`clear_group_verdict`]), so that one accented capital or one lone letter does not send the
/// whole line to the careful count, which cost two fifths of the judging of the lines it took.
fn count_surely_clear_groups(bytes: &[u8]) -> Option<usize> {
    // A neighbour that is no letter: ASCII other than a letter, or decoded (for 3- and 4-byte
    // groups, whatever it decodes to).
    let plain = |b: Option<u8>| b.is_none_or(|b| b >= 0x80 || !b.is_ascii_alphabetic());
    let pairs = PairClass::table();
    let mut groups = 0;
    let mut last = '\0';
    // The group after the one judged, when it was decoded to read it as a neighbour.
    let mut ahead: Option<(usize, char, usize)> = None;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] < 0x80 {
            at += 1;
            continue;
        }
        let (c, len) = match ahead {
            Some((start, c, len)) if start == at => (c, len),
            _ => group_at(bytes, at)?,
        };
        let prev = at.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(at + len).copied();
        // Whether the tests below answer the group, clear by itself and not odd.
        let sure = 'sure: {
            if len > 2 {
                // `is_odd_decoding` and `plan_for`'s oddities: a capital after a lowercase letter
                // (the rare letters and the C1 controls are asked of 2-byte groups below).
                let odd =
                    is_uppercase(c) && prev.is_some_and(|p| is_lowercase(windows_1252_original(p)));
                break 'sure !(odd || is_no_text(c) || matches!(bytes[at + 1], 0xA0 | 0xBB))
                    && plain(prev)
                    && plain(next);
            }
            let pair = pairs.of(c);
            // The same oddities, and "ß" (after a vowel, left to the careful judging).
            if pair.has(PairClass::SHARP_S)
                || pair.has(PairClass::UPPER)
                    && prev.is_some_and(|p| is_lowercase(windows_1252_original(p)))
            {
                break 'sure false;
            }
            let own = pair.script;
            // Its lead is a letter, and not both of its characters are signs of mathematics.
            if !pair.has(PairClass::LETTERS) {
                break 'sure false;
            }
            // The decoded neighbours, each as whether it is a letter and its script: the last
            // group's, and the next one's.
            let next_decoded = match next {
                Some(b) if b >= 0x80 => {
                    ahead = group_at(bytes, at + len).map(|(c, len)| (at + len, c, len));
                    Some(pairs.letter_script(ahead?.1))
                }
                _ => None,
            };
            let prev_decoded = prev
                .filter(|&p| p >= 0x80)
                .map(|_| pairs.letter_script(last));
            if own == Script::Latin {
                // `is_surely_clear_latin`.
                let no_clash = |d: Option<(bool, Script)>| {
                    d.is_none_or(|(letter, script)| {
                        !letter || matches!(script, Script::Latin | Script::Common)
                    })
                };
                let is_capital = |at: Option<usize>| {
                    at.and_then(|p| bytes.get(p))
                        .is_some_and(|b| b.is_ascii_uppercase())
                };
                let fits_lead = match bytes[at] {
                    0xC3 => !(is_capital(at.checked_sub(1)) && is_capital(at.checked_sub(2))),
                    0xC4..=0xC8 => next.is_some_and(|b| b >= 0x80 || b.is_ascii_alphabetic()),
                    _ => false,
                };
                fits_lead
                    && !matches!(bytes[at + 1], 0x92 | 0xA0)
                    && no_clash(prev_decoded)
                    && no_clash(next_decoded)
                    && !pair.has(PairClass::ODD)
            } else {
                let is_own = |(letter, script): (bool, Script)| letter && script == own;
                let fits = |b: Option<u8>, d: Option<(bool, Script)>| match d {
                    Some((letter, script)) => !letter || script == own,
                    None => plain(b),
                };
                let chained = prev_decoded.is_some_and(is_own) || next_decoded.is_some_and(is_own);
                pair.has(PairClass::PAIR_SCRIPT_LETTER)
                    && fits(prev, prev_decoded)
                    && fits(next, next_decoded)
                    && chained
            }
        };
        if !sure {
            let mut decode = |from: usize| {
                ahead = group_at(bytes, from).map(|(c, len)| (from, c, len));
                ahead.map(|(_, c, _)| c)
            };
            if clear_group_verdict(bytes, at, (c, len), last, &mut decode)? != Verdict::Yes {
                return None;
            }
        }
        groups += 1;
        last = c;
        at += len;
    }
    (groups > 0).then_some(groups)
}

/// What the quick count asks of a character of two bytes in UTF-8, U+0080..U+07FF, and of
/// those two bytes read as windows-1252, from one look-up: its letter tests and script were
/// most of the quick count's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairClass {
    script: Script,
    flags: u8,
}

impl PairClass {
    /// "ß".
    const SHARP_S: u8 = 1;
    /// A capital.
    const UPPER: u8 = 2;
    /// A letter.
    const LETTER: u8 = 4;
    /// A letter whose lead byte, read as windows-1252, is a letter too, and whose two bytes are
    /// not both signs of mathematics ([`is_math`]).
    const LETTERS: u8 = 8;
    /// [`is_odd_decoding`] with nothing before it.
    const ODD: u8 = 16;
    /// [`is_pair_script_letter`].
    const PAIR_SCRIPT_LETTER: u8 = 32;

    fn of_char(c: char) -> PairClass {
        let cp = u32::from(c);
        let lead = windows_1252_original(0xC0 | (cp >> 6) as u8);
        let second = windows_1252_original(0x80 | (cp & 0x3F) as u8);
        let letters =
            is_alphabetic(c) && is_alphabetic(lead) && !(is_math(lead) && is_math(second));
        let flags = [
            (c == 'ß', Self::SHARP_S),
            (is_uppercase(c), Self::UPPER),
            (is_alphabetic(c), Self::LETTER),
            (letters, Self::LETTERS),
            (is_odd_decoding(c, None), Self::ODD),
            (is_pair_script_letter(c), Self::PAIR_SCRIPT_LETTER),
        ];
        PairClass {
            script: script(c),
            flags: flags
                .iter()
                .filter(|(is, _)| *is)
                .fold(0, |all, (_, f)| all | f),
        }
    }

    fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    /// What the count of script letters ([`blockwise::count_pair_groups`]) reads of the
    /// character: 0 unless it is a letter of Greek, Cyrillic, Armenian or Arabic that the quick
    /// count answers beside letters of its own script ([`PairClass::LETTERS`] and
    /// [`PairClass::PAIR_SCRIPT_LETTER`]); else 1, with 2 for a capital, and its script above.
    fn script_letter_byte(self) -> u8 {
        let answered = self.has(Self::LETTERS) && self.has(Self::PAIR_SCRIPT_LETTER);
        match answered {
            true => 1 | u8::from(self.has(Self::UPPER)) << 1 | (self.script as u8) << 2,
            false => 0,
        }
    }

    /// What the count of Latin letters ([`blockwise::count_latin_groups`]) reads of the
    /// character, whose lead is `lead`: 0 unless it is a letter of Latin with a lead C3..C8
    /// that the quick count answers by its lead, its second byte and its neighbours, with no
    /// oddity and no "ß"; else 1, with 2 for a capital.
    fn latin_letter_byte(self, lead: u8) -> u8 {
        let answered = self.script == Script::Latin
            && (0xC3..=0xC8).contains(&lead)
            && self.has(Self::LETTERS)
            && !self.has(Self::SHARP_S)
            && !self.has(Self::ODD);
        match answered {
            true => 1 | u8::from(self.has(Self::UPPER)) << 1,
            false => 0,
        }
    }

    /// Every character's class, made the first time it is asked for.
    fn table() -> &'static PairTable {
        static TABLE: OnceLock<PairTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let classes: Vec<PairClass> = (0x80..0x800)
                .map(|cp| PairClass::of_char(char::from_u32(cp).expect("no surrogate")))
                .collect();
            let script_letters = (0..8)
                .map(|window| {
                    std::array::from_fn(|i| {
                        let at = (window << 8 | i).checked_sub(0x80);
                        let class = at.and_then(|at| classes.get(at));
                        class.map_or(0, |class| class.script_letter_byte())
                    })
                })
                .collect();
            let latin_letters = std::array::from_fn(|i| {
                let lead = 0xC2 + (i >> 6) as u8;
                let cp = usize::from(lead & 0x1F) << 6 | i & 0x3F;
                classes[cp - 0x80].latin_letter_byte(lead)
            });
            PairTable {
                classes,
                script_letters,
                latin_letters,
            }
        })
    }
}

/// [`PairClass`] of every character U+0080..U+07FF.
struct PairTable {
    classes: Vec<PairClass>,
    /// [`PairClass::script_letter_byte`] of every character of two bytes, in eight windows of
    /// four leads (C0..C3, C4..C7, up to DC..DF) and 256 characters, each at the two low bits of
    /// its lead and the six of its second byte (leads C0 and C1 begin no character: 0).
    script_letters: Vec<[u8; 256]>,
    /// [`PairClass::latin_letter_byte`] of every character of the leads C2..C9, each at its
    /// lead's place from C2 and the six low bits of its second byte.
    latin_letters: [u8; 512],
}

impl PairTable {
    /// The class of `c`, a character of two bytes in UTF-8.
    fn of(&self, c: char) -> PairClass {
        self.classes[u32::from(c) as usize - 0x80]
    }

    /// Whether `c` is a letter, and its script: from the table for a character of two bytes.
    #[inline]
    fn letter_script(&self, c: char) -> (bool, Script) {
        match self.classes.get((u32::from(c) as usize).wrapping_sub(0x80)) {
            Some(class) => (class.has(PairClass::LETTER), class.script),
            None => (is_alphabetic(c), script(c)),
        }
    }
}

/// The groups of windows-1252 bytes in turn, ASCII passed over, for the careful count: where
/// each starts, what it decodes to and its length, or `None` for bytes that begin no whole
/// group. The group after one may be decoded ahead, to read it as a neighbour, and is not
/// decoded again. (The quick count walks the same way with its state in locals, which measured
/// 1% to 6% faster.)
struct Groups<'a> {
    bytes: &'a [u8],
    at: usize,
    ahead: Option<(usize, char, usize)>,
}

impl<'a> Groups<'a> {
    fn new(bytes: &'a [u8]) -> Groups<'a> {
        Groups {
            bytes,
            at: 0,
            ahead: None,
        }
    }

    fn next(&mut self) -> Option<Option<(usize, char, usize)>> {
        while *self.bytes.get(self.at)? < 0x80 {
            self.at += 1;
        }
        let group = match self.ahead {
            Some(group) if group.0 == self.at => Some(group),
            _ => group_at(self.bytes, self.at).map(|(c, len)| (self.at, c, len)),
        };
        self.at += group.map_or(1, |(_, _, len)| len);
        Some(group)
    }

    /// What the group at `from` decodes to, if it is a whole group.
    fn ahead(&mut self, from: usize) -> Option<char> {
        self.ahead = group_at(self.bytes, from).map(|(c, len)| (from, c, len));
        self.ahead.map(|(_, c, _)| c)
    }
}

/// How many groups `bytes` holds when the general judging would accept each of them through
/// windows-1252 and none decodes oddly, with nothing else but ASCII; else `None`.
///
/// Each group gets the verdict `judge` gives it, with the characters around it as `judge` reads
/// them: ASCII as itself, any other as what its group decodes to. Then, as there, a group that
/// is clear mojibake only beside more is accepted when it touches clear mojibake, or when the
/// line holds clear mojibake of its script (Latin and signs: twice); a group that lost a byte
/// never occurs here.
fn count_clear_groups(bytes: &[u8]) -> Option<usize> {
    // The groups that are clear mojibake, and their scripts.
    let mut evidence = 0;
    let mut clear_scripts = 0u16;
    // The groups that need more, each with its script and whether it touches a clear one.
    let mut weak: Vec<(Verdict, Script, bool)> = Vec::new();
    // The last group: what it decodes to, where it ends, and whether it was clear.
    let mut last = ('\0', usize::MAX, false);
    let mut walk = Groups::new(bytes);
    while let Some(group) = walk.next() {
        let (at, c, len) = group?;
        let verdict =
            clear_group_verdict(bytes, at, (c, len), last.0, &mut |from| walk.ahead(from))?;
        let touches_last = last.1 == at;
        match verdict {
            Verdict::No => return None,
            Verdict::Yes => {
                evidence += 1;
                clear_scripts |= 1 << script(c) as u16;
                if touches_last && let Some(weak) = weak.last_mut().filter(|_| !last.2) {
                    weak.2 = true;
                }
            }
            _ => weak.push((verdict, script(c), touches_last && last.2)),
        }
        last = (c, at + len, verdict == Verdict::Yes);
    }
    // As `judge` accepts the groups that need more.
    let accepted = |&(verdict, own, touching): &(Verdict, Script, bool)| {
        let is_clear = clear_scripts & (1 << own as u16) != 0;
        match verdict {
            Verdict::WithEvidence => evidence > 0,
            _ => match own {
                Script::Latin => touching || is_clear && evidence >= 2,
                Script::Common => touching || clear_scripts != 0 && evidence >= 2,
                _ => touching || is_clear,
            },
        }
    };
    (evidence > 0 && weak.iter().all(accepted)).then_some(evidence + weak.len())
}

/// The verdict [`count_clear_groups`] gives the group at `at` of `bytes` (what it decodes to,
/// and its length), after the group that decoded to `last` (read when the byte before is not
/// ASCII), or `None` when it decodes oddly. `decode` gives what the group at a place decodes to,
/// or `None` when the bytes there begin no whole group.
fn clear_group_verdict(
    bytes: &[u8],
    at: usize,
    (c, len): (char, usize),
    last: char,
    decode: &mut dyn FnMut(usize) -> Option<char>,
) -> Option<Verdict> {
    const E: usize = 0;
    let original = windows_1252_original;
    let ascii = |c: u8| Neighbour {
        c: char::from(c),
        is_decoded: false,
        is_sure: false,
    };
    let decoded = |c: char| Neighbour {
        c,
        is_decoded: true,
        is_sure: true,
    };
    // The oddities of `plan_for`, which windows-1252 must not have to win every tie.
    let before = at.checked_sub(1).map(|p| original(bytes[p]));
    let odd_sharp_s = c == 'ß' && !before.is_some_and(|b| "aeiouyäöü".contains(b));
    if is_odd_decoding(c, before) || odd_sharp_s {
        return None;
    }
    // Before the group: ASCII, or the last group's (every group is two bytes or more).
    let behind = |back: usize| {
        let b = *bytes.get(at.checked_sub(back)?)?;
        Some(if b < 0x80 { ascii(b) } else { decoded(last) })
    };
    // After it: ASCII, or the next group's (a byte that begins no whole group ends the count
    // when it is reached).
    let mut ahead_of = |from: usize| -> Option<Neighbour> {
        let b = *bytes.get(from)?;
        if b < 0x80 {
            return Some(ascii(b));
        }
        Some(decoded(decode(from).unwrap_or('\u{FFFD}')))
    };
    let next = ahead_of(at + len);
    let context = Context {
        // What follows a group is ASCII or another whole group.
        holds_back: false,
        before_prev: behind(2),
        prev: behind(1),
        next,
        after_next: match next {
            Some(n) if n.is_decoded => next,
            _ => ahead_of(at + len + 1),
        },
    };
    let mut group = ['\0'; 4];
    for (o, &b) in group.iter_mut().zip(&bytes[at..at + len]) {
        *o = original(b);
    }
    let group = &group[..len];
    Some(if is_surely_clear(c, group, &context) {
        Verdict::Yes
    } else {
        is_plausible(c, len, group, E, context)
    })
}

/// One change to a line: a candidate decoded, or a stray C1 control read as windows-1252.
#[derive(Clone, Copy)]
enum Edit {
    Group(Candidate),
    Control(char),
}

/// The windows-1252 character for the byte a C1 control stands for.
fn windows_1252_char(c: char) -> char {
    tables::HIGH_HALF[0][(u32::from(c) - 0x80) as usize]
}

/// C1 controls that no candidate group touches and that windows-1252 defines: Latin-1 read
/// where windows-1252 was meant ("\u{93}quoted\u{94}"). The five bytes windows-1252 leaves
/// undefined stay, as they may be meant.
fn stray_c1_controls(chars: &[char], plan: Option<&Plan>) -> Vec<usize> {
    let covered = |i: usize| {
        plan.is_some_and(|p| {
            let before = p.found.partition_point(|f| f.start <= i);
            before
                .checked_sub(1)
                .is_some_and(|k| i < p.found[k].start + p.found[k].len)
        })
    };
    chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| is_c1_control(c) && windows_1252_char(c) != c && !covered(i))
        .map(|(i, _)| i)
        .collect()
}

/// What one encoding makes of a line.
struct Plan {
    encoding: usize,
    found: Vec<Found>,
    /// The bytes of UTF-8 the accepted groups explain: the encoding with most wins.
    weight: usize,
    /// Among encodings of equal weight, the one with fewer odd decodings wins (see
    /// [`is_odd_decoding`]).
    oddities: usize,
    /// Then the one whose decoded letters are commoner (see [`rarity`]).
    rarity: usize,
}

/// What a candidate stretch of characters becomes.
#[derive(Clone, Copy, Debug)]
enum Candidate {
    /// A whole group that decodes to `decoded`, `bytes` long in UTF-8.
    Group { decoded: char, bytes: usize },
    /// Two 3-byte groups that are a CESU-8 surrogate pair: one supplementary character.
    Cesu { decoded: char },
    /// A group with a byte lost to U+FFFD (or `?`): one U+FFFD for the lost character. `strong`
    /// when nothing but a lost character explains it.
    Damaged { strong: bool },
    /// "â€" whose third byte was lost: one U+FFFD.
    Truncated,
    /// A group whose byte A0 became a space: `decoded`, and a space after it when the space
    /// was a word's own and the A0 was dropped ("voilÃ le" is "voilà le").
    Spaced { decoded: char, keeps_space: bool },
}

/// A character next to a candidate, as it will read: decoded itself, or original text.
#[derive(Clone, Copy, Debug)]
struct Neighbour {
    c: char,
    is_decoded: bool,
    /// Decoded from a whole group (or a CESU-8 pair), not from one that lost a byte or a space
    /// and is decoded only beside clear mojibake: such a neighbour cannot itself make its
    /// neighbour clear ("Latvijā” É…" is Latvian with a quote and "É…", not "Latvij┠Ʌ").
    is_sure: bool,
}

struct Found {
    start: usize,
    len: usize,
    candidate: Candidate,
    /// Whether a C1 control stands for a byte windows-1252 defines (Latin-1 was read).
    uses_c1: bool,
    verdict: Verdict,
    accepted: bool,
}

impl Found {
    /// The bytes of UTF-8 the candidate explains, once accepted.
    fn weight(&self) -> usize {
        match self.candidate {
            Candidate::Group { bytes, .. } => bytes,
            Candidate::Cesu { .. } => 6,
            _ => 1,
        }
    }
}

impl Drop for Plan {
    fn drop(&mut self) {
        give_back(&SPARE_FOUND, std::mem::take(&mut self.found));
    }
}

/// How plausible a decoded group is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Clearly mojibake.
    Yes,
    /// Not mojibake.
    No,
    /// Not on its own, but yes when the same line holds clear mojibake of the same script.
    Weak,
    /// Damaged or spaced: yes when the same line holds clear mojibake.
    WithEvidence,
}

/// Judges the candidates one encoding finds in a line.
fn plan_for(line: &Line, e: usize, mut found: Vec<Found>) -> Plan {
    judge(line, e, &mut found);
    let weight = found.iter().filter(|f| f.accepted).map(Found::weight).sum();
    // The character at `i` as the line will read: what an accepted group holding it decodes
    // to, or itself.
    let reads_as = |i: usize| -> Option<char> {
        let k = found.partition_point(|f| f.start <= i).checked_sub(1);
        match k.map(|k| &found[k]) {
            Some(f) if f.accepted && i < f.start + f.len => match f.candidate {
                Candidate::Spaced {
                    keeps_space: true, ..
                } if i + 1 == f.start + f.len => Some(' '),
                Candidate::Group { decoded, .. }
                | Candidate::Cesu { decoded }
                | Candidate::Spaced { decoded, .. } => Some(decoded),
                _ => Some('\u{FFFD}'),
            },
            _ => line.chars.get(i).copied(),
        }
    };
    let oddities = found
        .iter()
        .filter(|f| f.accepted)
        .filter(|f| match f.candidate {
            Candidate::Group { decoded, .. } => {
                let before = f.start.checked_sub(1).map(|p| line.chars[p]);
                // "ß" is lowercase and never starts a word ("GĂźceratça" is "Güceratça"
                // through ISO-8859-2, not "Gßceratça" through windows-1250), and it follows
                // a vowel, never a consonant ("fĂźr" is "für", not "fßr").
                let odd_sharp_s =
                    decoded == 'ß' && !before.is_some_and(|b| "aeiouyäöü".contains(b));
                // Outside windows-1252, a capital before a lowercase letter that does not begin
                // a word (it follows a capital: "DĂŠanta" is "Déanta", not "DÊanta"); or "Ê",
                // "Î", "Ì" or "Ï", which begin no name, beginning a word after a lowercase one.
                // ISO-8859-2 reads the same bytes as the lowercase letter ("sur ĂŠvènement" is
                // "évènement", "lipsă ĂŽn" is "în"). Other capitals begin names mid-sentence
                // ("Demirgazyk Ýewropa" in Turkmen, "Insulele Åland"), and German nouns.
                // (Read only for a capital: a search among the groups.)
                let before_word = || f.start.checked_sub(2).and_then(reads_as);
                let odd_capital = e != 0
                    && is_uppercase(decoded)
                    && reads_as(f.start + f.len).is_some_and(is_lowercase)
                    && match before {
                        Some(' ') => {
                            matches!(decoded, 'Ê' | 'Î' | 'Ì' | 'Ï')
                                && before_word().is_some_and(is_lowercase)
                        }
                        Some(b) => is_uppercase(b) && !before_word().is_some_and(is_alphabetic),
                        None => false,
                    };
                is_odd_decoding(decoded, before) || odd_sharp_s || odd_capital
            }
            _ => false,
        })
        .count();
    // Windows-1252, the commonest by far, keeps its ties ("Kĩkũyũ" is no "čkũ" through
    // windows-1257): only the others are told apart by their letters.
    let rarity = if e == 0 {
        0
    } else {
        found
            .iter()
            .filter(|f| f.accepted)
            .map(|f| match f.candidate {
                Candidate::Group { decoded, .. } => rarity(decoded),
                _ => 0,
            })
            .sum()
    };
    Plan {
        encoding: e,
        found,
        weight,
        oddities,
        rarity,
    }
}

/// Two capitals of one script: elsewhere than in windows-1252, likelier a word of it than one
/// letter ("ЕЊ" in Serbian "ОГРАНИЧЕЊЕ").
fn is_capital_pair(group: &[char]) -> bool {
    matches!(group, [a, b] if is_uppercase(*a) && is_uppercase(*b) && script(*a) == script(*b))
}

/// The languages that write `c`, a letter of Latin-1 or Latin Extended-A, as a set of bits; 0
/// for any other character, and for the Latin-1 letters every Western language shares.
fn languages(c: char) -> u16 {
    const WESTERN: u16 = 1;
    const POLISH: u16 = 1 << 1;
    const CZECH_SLOVAK: u16 = 1 << 2;
    const HUNGARIAN: u16 = 1 << 3;
    const ROMANIAN: u16 = 1 << 4;
    const SOUTH_SLAVIC: u16 = 1 << 5;
    const BALTIC: u16 = 1 << 6;
    const TURKIC: u16 = 1 << 7;
    const ESPERANTO: u16 = 1 << 8;
    const MALTESE: u16 = 1 << 9;
    const SAMI_AND_OTHERS: u16 = 1 << 10;
    let lower = latin_lowercase(c);
    match lower {
        'á' | 'é' | 'í' | 'ó' | 'ú' => WESTERN | CZECH_SLOVAK | HUNGARIAN | POLISH,
        'ä' | 'ö' | 'ü' => WESTERN | CZECH_SLOVAK | HUNGARIAN | TURKIC | BALTIC,
        'â' | 'î' => WESTERN | ROMANIAN | TURKIC,
        'ç' => WESTERN | TURKIC,
        'ô' | 'ý' => WESTERN | CZECH_SLOVAK,
        'õ' => WESTERN | BALTIC,
        'û' => WESTERN | TURKIC,
        'à'..='ÿ' => WESTERN,
        'ą' | 'ę' => POLISH | BALTIC,
        'ć' => POLISH | SOUTH_SLAVIC,
        'ł' | 'ń' | 'ś' | 'ź' => POLISH,
        'ż' => POLISH | MALTESE,
        'č' | 'š' | 'ž' => CZECH_SLOVAK | SOUTH_SLAVIC | BALTIC | SAMI_AND_OTHERS,
        'ď' | 'ě' | 'ĺ' | 'ľ' | 'ň' | 'ŕ' | 'ř' | 'ť' | 'ů' => CZECH_SLOVAK,
        'ő' | 'ű' => HUNGARIAN,
        'ă' | 'ș' | 'ț' | 'ţ' => ROMANIAN,
        'ş' => ROMANIAN | TURKIC,
        'đ' => SOUTH_SLAVIC | SAMI_AND_OTHERS,
        'ā' | 'ē' | 'ī' | 'ū' | 'ģ' | 'ķ' | 'ļ' | 'ņ' | 'ė' | 'į' | 'ų' => BALTIC,
        'ğ' | 'ı' => TURKIC,
        'ĉ' | 'ĝ' | 'ĥ' | 'ĵ' | 'ŝ' | 'ŭ' => ESPERANTO,
        'ċ' | 'ġ' | 'ħ' => MALTESE,
        'ŋ' | 'ŧ' => SAMI_AND_OTHERS,
        _ => 0,
    }
}

/// `c` in lowercase where that is a letter of Latin-1 or Latin Extended-A (what [`languages`]
/// and [`rarity`] name), else `c`. Only those letters, "ẞ" and the Ångström sign lowercase into
/// that range, so the standard library's search is left for them.
fn latin_lowercase(c: char) -> char {
    match c {
        '\u{C0}'..='\u{17F}' | '\u{1E9E}' | '\u{212B}' => c.to_lowercase().next().unwrap_or(c),
        _ => c,
    }
}

/// Two letters that no language writes side by side: "ĂŤ" and "Ăź" mix Romanian with Czech or
/// Polish, "ÄŚ" German with Polish. Such a pair is a group of mojibake, whatever its case.
fn is_foreign_pair(group: &[char]) -> bool {
    match group {
        [a, b] => {
            let (x, y) = (languages(*a), languages(*b));
            x != 0 && y != 0 && x & y == 0
        }
        _ => false,
    }
}

/// How rarely text holds `c`, decoded from a group: 0 for the accented letters most languages
/// written in Latin letters use and for the letters of other scripts, 1 for the Latin letters
/// of fewer languages ("å", "ø", "ť", "ď"), 2 for anything else. Windows-1250 and ISO-8859-2
/// differ in a dozen places, so a short line often reads in both: "ĂĄ" is "á" in one and "å"
/// in the other, "ĹĄ" is "š" or "ť", "ĂĽ" is "ü" or "å".
fn rarity(c: char) -> usize {
    let lower = latin_lowercase(c);
    match lower {
        'á' | 'é' | 'í' | 'ó' | 'ú' | 'ý' | 'à' | 'è' | 'ì' | 'ò' | 'ù' | 'â' | 'ê' | 'î' | 'ô'
        | 'û' | 'ä' | 'ë' | 'ï' | 'ö' | 'ü' | 'ç' | 'ñ' | 'ã' | 'õ' | 'č' | 'š' | 'ž' | 'ř'
        | 'ě' | 'ů' | 'ł' | 'ą' | 'ę' | 'ż' | 'ś' | 'ć' | 'ń' | 'ź' | 'ő' | 'ű' | 'ă' | 'ț'
        | 'ș' | 'ş' | 'ţ' | 'ğ' | 'ı' | 'ā' | 'ē' | 'ī' | 'ū' | 'ė' | 'į' | 'ų' | 'ß' => {
            0
        }
        'å' | 'ø' | 'æ' | 'œ' | 'ť' | 'ď' | 'ň' | 'ľ' | 'ĺ' | 'ŕ' | 'ÿ' | 'ļ' | 'ķ' | 'ņ' | 'ģ'
        | 'ð' | 'þ' | 'đ' | 'ō' | 'ġ' | 'ħ' | 'ċ' | 'ŵ' | 'ŷ' | 'ĩ' | 'ũ' | 'ŋ' => 1,
        // The letters of other scripts, ideographs and syllables included, are what their
        // mojibake decodes to ("ę\u{9C}\u{88}" is "月" through windows-1257, not "\u{A708}"
        // through windows-1250).
        _ if is_alphabetic(c) && script(c) != Script::Latin => 0,
        _ => 2,
    }
}

/// A decoded character that text rarely holds where it lands: a letter of Latin Extended-B
/// other than those of Romanian, Vietnamese, pinyin, Sami, Navajo and the African alphabets
/// ("Ƥ", "ƶ": the "ä" and "ö" of Estonian read through windows-1250 where windows-1257 was
/// meant), a capital right after a lowercase letter ("vokieĨių"), or a C1 control. Two
/// encodings that explain the same bytes are told apart by these.
#[inline]
fn is_odd_decoding(decoded: char, before: Option<char>) -> bool {
    let rare = match u32::from(decoded) {
        0x1A0 | 0x1A1 | 0x1AF | 0x1B0 | 0x1CD..=0x1DC | 0x218..=0x21B => false,
        0x181 | 0x186 | 0x189 | 0x18A | 0x18E..=0x192 | 0x194 | 0x198 | 0x199 | 0x1B2..=0x1B4 => {
            false
        }
        // Clicks of the Khoisan languages, Sami's ǥ ǧ ǩ ǯ, Navajo's ǫ, pinyin's ǹ, Livonian's ȳ.
        0x1B7 | 0x1C0..=0x1C3 | 0x1DD | 0x1E4..=0x1F0 | 0x1F8 | 0x1F9 | 0x232 | 0x233 => false,
        0x180..=0x24F => true,
        _ => false,
    };
    // A C1 control is no text at all: ISO-8859-2 reads "ÂŤ" as "«" where windows-1250 reads
    // U+008D.
    rare || is_c1_control(decoded) || is_uppercase(decoded) && before.is_some_and(is_lowercase)
}

/// One position of a group: a byte, or a byte that was lost or turned into a space.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Byte(u8),
    /// U+FFFD: a byte the decoder left undefined.
    Lost,
    /// `?`: a byte an encoder could not write.
    Question,
    /// A space that was A0.
    Space,
}

fn find_candidates(line: &Line, e: usize) -> Vec<Found> {
    let chars = &line.chars[..];
    let mut found = spare(&SPARE_FOUND, line.chars.len() / 2);
    let mut i = 0;
    while i < chars.len() {
        let lead = line.byte(i, e);
        if !is_lead(lead) || chars[i].is_ascii() {
            i += 1;
            continue;
        }
        match candidate_at(line, e, i, lead) {
            Some((len, candidate)) => {
                let uses_c1 = e == 0
                    && chars[i..i + len]
                        .iter()
                        .any(|&c| is_c1_control(c) && windows_1252_char(c) != c);
                found.push(Found {
                    start: i,
                    len,
                    candidate,
                    uses_c1,
                    verdict: Verdict::No,
                    accepted: false,
                });
                i += len;
            }
            None => i += 1,
        }
    }
    found
}

/// The candidate starting at `i`, whose lead byte is `lead`, with its length in characters.
fn candidate_at(line: &Line, e: usize, i: usize, lead: u8) -> Option<(usize, Candidate)> {
    let chars = &line.chars[..];
    let needed = declared_len(lead).expect("a lead byte C2..F4");
    let mut slots = [Slot::Byte(lead); 4];
    let mut len = 1;
    while len < needed {
        let Some(&c) = chars.get(i + len) else { break };
        let byte = line.byte(i + len, e);
        let slot = if !c.is_ascii() && is_continuation(byte) {
            Slot::Byte(byte)
        } else if c == '\u{FFFD}' {
            Slot::Lost
        } else if c == '?' && !slots[1..len].contains(&Slot::Question) {
            Slot::Question
        } else if c == ' ' && !slots[1..len].contains(&Slot::Space) && has_nbsp_at_a0(e) {
            Slot::Space
        } else {
            break;
        };
        slots[len] = slot;
        len += 1;
    }
    let slots = &slots[..len];
    let lost = slots
        .iter()
        .filter(|s| matches!(s, Slot::Lost | Slot::Question))
        .count();
    let spaced = slots.contains(&Slot::Space);
    if len < needed {
        // "â€" cut short by the end of the line or by a character that cannot continue it.
        let is_truncated = slots == [Slot::Byte(0xE2), Slot::Byte(0x80)];
        return is_truncated.then_some((2, Candidate::Truncated));
    }
    if spaced && lost > 0 {
        return None;
    }
    if lost > 0 {
        // A `?` is trusted where a lost byte is common: after C2/C3, beside real continuation
        // bytes of a longer group, or after another lead inside a word ("абхазÑ?кий": the 81
        // of "с" is undefined in windows-1252, and an encoder wrote `?`), at its end too when a
        // group goes before ("бафиÑ?," is "бафия,").
        let questions = slots.iter().filter(|s| **s == Slot::Question).count();
        let real = slots[1..]
            .iter()
            .filter(|s| matches!(s, Slot::Byte(_)))
            .count();
        let word_goes_on = chars.get(i + len).is_some_and(|&c| is_alphabetic(c))
            || i >= 2
                && !chars[i - 1].is_ascii()
                && is_continuation(line.byte(i - 1, e))
                && is_lead(line.byte(i - 2, e));
        let trusted = needed == 2 && (matches!(lead, 0xC2 | 0xC3) || word_goes_on) || real >= 1;
        if questions > 0 && !trusted {
            return None;
        }
        if !could_be_valid(slots, e) {
            return None;
        }
        let in_word = i > 0 && is_alphabetic(chars[i - 1])
            || chars.get(i + len).is_some_and(|&c| is_alphabetic(c));
        // Elsewhere than windows-1252 a lead is a letter of the text ("П\u{FFFD}и",
        // "ο\u{FFFD}\u{FFFD}" left by a windows-1252 layer with lost bytes): damage is repaired
        // there only beside clear mojibake.
        let strong = questions == 0
            && e == 0
            && (needed - lost >= 2 || needed >= 3 || lead == 0xC3 || in_word);
        return Some((len, Candidate::Damaged { strong }));
    }
    let mut bytes = [0u8; 4];
    for (b, s) in bytes.iter_mut().zip(slots) {
        *b = match s {
            Slot::Byte(b) => *b,
            _ => 0xA0,
        };
    }
    let bytes = &bytes[..len];
    if spaced {
        // Three-byte groups of any lead: past E3 (CJK, Hangul) only beside clear mojibake of
        // the script they decode to (see `judge`).
        let restorable = match needed {
            2 => takes_spaced_a0(lead),
            3 => true,
            _ => lead == 0xF0,
        };
        let decoded = decode_group(bytes)?;
        if !restorable || !is_alphabetic(chars[i]) {
            return None;
        }
        let after = &chars[i + len..];
        if decoded != 'à' {
            return Some((
                len,
                Candidate::Spaced {
                    decoded,
                    keeps_space: false,
                },
            ));
        }
        // "Ã  le": the A0 became one space and the word's own space follows, which is kept.
        let doubled = after.first() == Some(&' ');
        let keeps_space = doubled || !drops_space_after_a_grave(after);
        return Some((
            len + usize::from(doubled),
            Candidate::Spaced {
                decoded,
                keeps_space,
            },
        ));
    }
    match decode_group(bytes) {
        Some(decoded) => Some((
            len,
            Candidate::Group {
                decoded,
                bytes: len,
            },
        )),
        None if bytes[0] == 0xED && (0xA0..=0xAF).contains(&bytes[1]) => {
            cesu_pair(line, e, i, bytes).map(|decoded| (6, Candidate::Cesu { decoded }))
        }
        None => None,
    }
}

/// Whether byte A0 is the no-break space in encoding `e`, which is what a space can stand for:
/// MacRoman has "†" there and IBM437 "á", which nothing turns into a space.
fn has_nbsp_at_a0(e: usize) -> bool {
    byte_in('\u{A0}', e) == 0xA0
}

/// The character that `bytes`, a lead C2..F4 and as many continuation bytes as it declares,
/// encode, or `None` when they are no well-formed UTF-8 (an overlong form, a surrogate, past
/// U+10FFFF): what `std::str::from_utf8` would say, without its general loop (the judging
/// decodes every group of every encoding it tries). A test checks it on every group.
fn decode_group(bytes: &[u8]) -> Option<char> {
    let (first, least) = match bytes.len() {
        2 => (u32::from(bytes[0] & 0x1F), 0x80),
        3 => (u32::from(bytes[0] & 0x0F), 0x800),
        _ => (u32::from(bytes[0] & 0x07), 0x1_0000),
    };
    let cp = bytes[1..]
        .iter()
        .fold(first, |cp, &b| cp << 6 | u32::from(b & 0x3F));
    if cp < least {
        return None;
    }
    char::from_u32(cp)
}

/// After "Ã" and a space, whether the space was the A0 of "à" and the word goes on: the
/// Portuguese contractions "às", "àquele", "àquela", "àquilo" (their "à" is never a word of its
/// own), and the Vietnamese syllables that "à" begins or carries ("hài", "vào", "màu", "bàn",
/// "làm", "hàng", "hành", "sàch"), whose tails are no word of French ("à y" is, and stays).
/// Elsewhere "à" is a word, and the A0 was dropped before the word's own space.
fn drops_space_after_a_grave(after: &[char]) -> bool {
    let word: String = after.iter().take(7).collect();
    let starts = |w: &str| {
        word.starts_with(w)
            && word[w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !is_alphabetic(c) && !matches!(c, '\'' | '’'))
    };
    starts("s")
        || starts("quele")
        || starts("quela")
        || starts("quilo")
        || starts("queles")
        || starts("quelas")
        || starts("quilos")
        || ["i", "o", "u", "n", "m", "ng", "nh", "c", "ch", "t", "p"]
            .iter()
            .any(|tail| starts(tail))
}

/// A high surrogate at `i` (three characters) followed by a low one: the supplementary
/// character the CESU-8 pair stands for, as the scanner reads the six bytes.
fn cesu_pair(line: &Line, e: usize, i: usize, high: &[u8]) -> Option<char> {
    let low = line.chars.get(i + 3..i + 6)?;
    if low.iter().any(char::is_ascii) {
        return None;
    }
    let mut pair = [0u8; 6];
    pair[..3].copy_from_slice(high);
    for (k, b) in pair[3..].iter_mut().enumerate() {
        *b = line.byte(i + 3 + k, e);
    }
    let unit = scan_unit(&pair, true)?;
    (unit.kind == UnitKind::SurrogatePair && unit.len == 6)
        .then(|| unit.codepoint.and_then(char::from_u32))
        .flatten()
}

/// Whether some choice of the lost bytes makes the group well-formed. A byte lost to U+FFFD
/// was one the encoding leaves undefined (its sloppy form keeps those as C1 controls); in an
/// encoding that defines every byte, and for `?`, it could have been any continuation byte.
fn could_be_valid(slots: &[Slot], e: usize) -> bool {
    let is_undefined = |b: u8| {
        let c = tables::HIGH_HALF[e][usize::from(b - 0x80)];
        c == '\0' || SLOPPY[e] && u32::from(c) == u32::from(b)
    };
    let has_undefined = (0x80..=0xBFu8).any(is_undefined);
    // One continuation byte of each range the second byte of a sequence may need.
    const ANY_CONTINUATION: [u8; 6] = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF];
    let choices = |s: Slot| -> Vec<u8> {
        match s {
            Slot::Byte(b) => vec![b],
            Slot::Lost if has_undefined => (0x80..=0xBFu8).filter(|&b| is_undefined(b)).collect(),
            _ => ANY_CONTINUATION.to_vec(),
        }
    };
    let options: Vec<Vec<u8>> = slots.iter().map(|&s| choices(s)).collect();
    fn search(options: &[Vec<u8>], at: usize, trial: &mut [u8; 4]) -> bool {
        if at == options.len() {
            return std::str::from_utf8(&trial[..at]).is_ok();
        }
        options[at].iter().any(|&b| {
            trial[at] = b;
            search(options, at + 1, trial)
        })
    }
    search(&options, 0, &mut [0u8; 4])
}

/// Gives every candidate its verdict and decides which are accepted.
fn judge(line: &Line, e: usize, found: &mut [Found]) {
    let chars = &line.chars[..];
    if found.is_empty() {
        return;
    }
    // Neighbours are judged as they would read once the other candidates are decoded.
    let covered = covering(chars.len(), found);
    // What each candidate reads as to its neighbours, and whether that says the word goes on.
    // Two capitals of one script read as one letter elsewhere than in windows-1252 are likelier
    // a word ("ЕЊ"): such a neighbour is no sign of it.
    let readings: Vec<(char, bool)> = found
        .iter()
        .map(|f| match f.candidate {
            Candidate::Group { decoded, .. } => (
                decoded,
                e == 0 || !is_capital_pair(&chars[f.start..f.start + f.len]),
            ),
            Candidate::Cesu { decoded } => (decoded, true),
            Candidate::Spaced { decoded, .. } => (decoded, false),
            _ => ('\u{FFFD}', false),
        })
        .collect();
    let decoded_at = |index: usize| -> Option<Neighbour> {
        if let Some(&k) = covered.get(index).filter(|&&k| k != usize::MAX) {
            let (c, is_sure) = readings[k];
            return Some(Neighbour {
                c,
                is_decoded: true,
                is_sure,
            });
        }
        chars.get(index).map(|&c| Neighbour {
            c,
            is_decoded: false,
            is_sure: false,
        })
    };
    // A letter of the encoding's script right after a group that begins no whole group (a
    // candidate there starts there: candidates do not overlap) shows the group to be part of a
    // word (`Pending::held`).
    let holds_back = |found: &[Found], i: usize| {
        let begins_whole = covered.get(i).is_some_and(|&k| {
            k != usize::MAX
                && matches!(
                    found[k].candidate,
                    Candidate::Group { .. } | Candidate::Cesu { .. }
                )
        });
        chars
            .get(i)
            .is_some_and(|&c| line.byte(i, e) != 0 && is_script_letter(c) && !begins_whole)
    };
    for k in 0..found.len() {
        let f = &found[k];
        let verdict = match f.candidate {
            Candidate::Group { decoded, bytes } => {
                let context = Context {
                    holds_back: holds_back(found, f.start + f.len),
                    before_prev: f.start.checked_sub(2).and_then(&decoded_at),
                    prev: f.start.checked_sub(1).and_then(&decoded_at),
                    next: decoded_at(f.start + f.len),
                    after_next: decoded_at(f.start + f.len + 1),
                };
                is_plausible(decoded, bytes, &chars[f.start..f.start + f.len], e, context)
            }
            Candidate::Cesu { .. } => Verdict::Yes,
            Candidate::Damaged { strong: true } => Verdict::Yes,
            Candidate::Spaced { decoded: 'à', .. }
                if e == 0 && f.start > 0 && is_lowercase(chars[f.start - 1]) =>
            {
                // A lowercase letter, a capital Ã and a space: "voilÃ le" is nothing but "voilà".
                Verdict::Yes
            }
            // A lead past E3, a space and a sign is also how text runs ("très – bien" is no
            // "tr耖bien"): only among clear mojibake of its script ("ë ˆì¦ˆ" is Korean "레즈").
            Candidate::Spaced { decoded, .. } if u32::from(decoded) >= 0x4000 => Verdict::Weak,
            _ => Verdict::WithEvidence,
        };
        found[k].verdict = verdict;
    }
    // Every acceptance needs a group that is clear mojibake by itself (below), and the verdicts
    // of the whole line only ever take one back: with none, nothing is accepted. Most clean
    // lines the filter lets through end here, without weighing their runs.
    if !found.iter().any(|f| f.verdict == Verdict::Yes) {
        return;
    }
    weigh_runs(line, e, found, &covered);
    // The scripts clear mojibake decodes into, as a set of bits.
    let clear_scripts: u16 = found
        .iter()
        .filter(|f| f.verdict == Verdict::Yes)
        .filter_map(|f| match f.candidate {
            Candidate::Group { decoded, .. } => Some(1 << script(decoded) as u16),
            _ => None,
        })
        .fold(0, |set, bit| set | bit);
    // A group holding a C1 control is mojibake whatever it decodes to: no text holds those
    // controls, and an encoding that leaves bytes 80..9F undefined puts them in every group
    // with such a byte ("â\u{80}\u{93}" is "–" through ISO-8859-2). It is evidence for every
    // script of the line ("KongĂł â\u{80}\u{93} Brazzaville" is "Kongó – Brazzaville").
    let c1_clear = e != 0
        && found.iter().any(|f| {
            f.verdict == Verdict::Yes
                && matches!(f.candidate, Candidate::Group { .. })
                && chars[f.start..f.start + f.len]
                    .iter()
                    .any(|&c| is_c1_control(c))
        });
    let is_clear = |own: Script| c1_clear || clear_scripts & (1 << own as u16) != 0;
    let evidence = found
        .iter()
        .filter(|f| {
            f.verdict == Verdict::Yes
                && matches!(
                    f.candidate,
                    Candidate::Group { .. } | Candidate::Cesu { .. }
                )
        })
        .count();
    let touches_yes = |k: usize| {
        let f = &found[k];
        k.checked_sub(1).is_some_and(|p| {
            found[p].verdict == Verdict::Yes && found[p].start + found[p].len == f.start
        }) || found
            .get(k + 1)
            .is_some_and(|n| n.verdict == Verdict::Yes && n.start == f.start + f.len)
    };
    let touching: Vec<bool> = (0..found.len()).map(touches_yes).collect();
    for (f, touching) in found.iter_mut().zip(touching) {
        f.accepted = match f.verdict {
            Verdict::Yes => true,
            Verdict::No => false,
            Verdict::WithEvidence => evidence > 0,
            Verdict::Weak => match f.candidate {
                Candidate::Group { decoded, .. } | Candidate::Spaced { decoded, .. } => {
                    let own = script(decoded);
                    touching
                        || !matches!(own, Script::Latin | Script::Common) && is_clear(own)
                        || own == Script::Latin && is_clear(own) && (evidence >= 2 || e != 0)
                        // A modifier letter ("Ęź" is "ʼ" through ISO-8859-2) belongs to no
                        // script: the line's clear mojibake of any script vouches for it.
                        || own == Script::Common
                            && (clear_scripts != 0 || c1_clear)
                            && (evidence >= 2 || e != 0)
                }
                _ => false,
            },
        };
    }
}

/// For each character of a line, the index of the candidate that covers it, or `usize::MAX`.
/// Candidates are sorted and do not overlap.
fn covering(len: usize, found: &[Found]) -> Covering {
    let mut covered = spare(&SPARE_COVERED, len);
    covered.resize(len, usize::MAX);
    for (k, f) in found.iter().enumerate() {
        for slot in &mut covered[f.start..f.start + f.len] {
            *slot = k;
        }
    }
    Covering(covered)
}

/// What [`covering`] gives: its vector goes back to the thread for the next line.
struct Covering(Vec<usize>);

impl std::ops::Deref for Covering {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        &self.0
    }
}

impl Drop for Covering {
    fn drop(&mut self) {
        give_back(&SPARE_COVERED, std::mem::take(&mut self.0));
    }
}

/// The verdicts that depend on the whole line rather than on a group's neighbours.
fn weigh_runs(line: &Line, e: usize, found: &mut [Found], covered: &[usize]) {
    let chars = &line.chars[..];
    // Runs of non-ASCII characters (a `?` or a space inside a candidate belongs to it).
    // The runs holding characters no candidate covers.
    let mut untiled_runs = Vec::new();
    let mut run_start = None;
    let mut next_found = 0;
    for i in 0..=chars.len() {
        let inside = i < chars.len() && (!chars[i].is_ascii() || covered[i] != usize::MAX);
        match (inside, run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(start)) => {
                run_start = None;
                let run = start..i;
                let mut broken = false;
                let mut foreign = false;
                let mut untiled = false;
                for j in run.clone() {
                    if covered[j] != usize::MAX {
                        continue;
                    }
                    let c = chars[j];
                    let byte = line.byte(j, e);
                    if c == '\u{FFFD}' {
                        continue;
                    }
                    // Only a character the encoding has shows that this stretch did not go
                    // through it ("–" beside "DrÃ¥ber"); one it lacks ("ʼ") tells nothing.
                    untiled |= byte != 0;
                    if byte == 0 {
                        foreign = true;
                    } else if is_continuation(byte) && is_alphabetic(c) {
                        // A letter that can only continue a group, standing alone among groups:
                        // garble ("ã†â€™ãƒâ€" through MacRoman), not a layer of mojibake.
                        broken = true;
                    } else if is_lead(byte)
                        && chars
                            .get(j + 1)
                            .is_some_and(|&n| !n.is_ascii() && is_continuation(line.byte(j + 1, e)))
                    {
                        broken = true;
                    }
                }
                if untiled {
                    untiled_runs.push(run.clone());
                }
                // Candidates are sorted: those of this run follow those of the runs before it.
                while next_found < found.len() && found[next_found].start < run.start {
                    next_found += 1;
                }
                let first = next_found;
                while next_found < found.len() && run.contains(&found[next_found].start) {
                    next_found += 1;
                }
                for f in &mut found[first..next_found] {
                    if broken {
                        f.verdict = Verdict::No;
                    } else if foreign
                        && f.verdict == Verdict::Yes
                        && matches!(f.candidate, Candidate::Group { bytes: 2, .. })
                    {
                        f.verdict = Verdict::Weak;
                    }
                }
            }
            _ => {}
        }
    }
    // A lone 2-byte group among correct UTF-8 is the text as written.
    let mut yes = (0..found.len()).filter(|&k| found[k].verdict == Verdict::Yes);
    if let (Some(only), None) = (yes.next(), yes.next()) {
        let f = &mut found[only];
        let elsewhere = untiled_runs.iter().any(|run| !run.contains(&f.start));
        if elsewhere && matches!(f.candidate, Candidate::Group { bytes: 2, .. }) {
            f.verdict = Verdict::Weak;
        }
    }
}

/// Writing systems, coarsely: enough to tell when a decoded letter would sit against a letter it
/// never sits against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Syriac,
    Thaana,
    NKo,
    /// Letters every script uses: the micro sign, the modifier letters (ʼ ʻ ˈ).
    Common,
    Other,
}

fn script(c: char) -> Script {
    let cp = u32::from(c);
    match SCRIPTS.get(cp as usize) {
        Some(&script) => script,
        None => script_of(cp),
    }
}

/// [`script_of`] for the 2-byte characters, where the judging asks most: one load instead of a
/// dozen comparisons.
static SCRIPTS: [Script; 0x800] = {
    let mut scripts = [Script::Other; 0x800];
    let mut cp = 0;
    while cp < 0x800 {
        scripts[cp] = script_of(cp as u32);
        cp += 1;
    }
    scripts
};

const fn script_of(cp: u32) -> Script {
    match cp {
        0xB5 | 0x2B0..=0x2FF => Script::Common,
        0x41..=0x5A
        | 0x61..=0x7A
        | 0xAA
        | 0xBA
        | 0xC0..=0x2AF
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFB00..=0xFB06 => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F => Script::Arabic,
        0x700..=0x74F => Script::Syriac,
        0x780..=0x7BF => Script::Thaana,
        0x7C0..=0x7FF => Script::NKo,
        _ => Script::Other,
    }
}

/// Punctuation that ends a word: after an accented capital it is far likelier text than the
/// second half of a group ("CAFÉ…" is not "CAFɅ").
fn ends_words(c: char) -> bool {
    matches!(
        c,
        '…' | '’' | '”' | '»' | '\u{A0}' | '–' | '—' | '›' | '´' | '•' | '·'
    )
}

fn is_c1_control(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// Mathematical signs, and the Greek letters formulas use, as MacRoman has them.
fn is_math(c: char) -> bool {
    matches!(
        c,
        '√' | '∆'
            | 'π'
            | '°'
            | '±'
            | '≠'
            | '≤'
            | '≥'
            | '∞'
            | '∂'
            | '∑'
            | '∏'
            | '∫'
            | 'Ω'
            | 'µ'
            | '¬'
            | '≈'
            | '÷'
            | '◊'
            | '×'
            | '⁄'
    )
}

/// Box drawing and block elements: IBM437's upper half, which text drawn with it is made of.
fn is_box(c: char) -> bool {
    ('\u{2500}'..='\u{259F}').contains(&c)
}

/// What surrounds a candidate, as it will read.
#[derive(Clone, Copy, Debug)]
struct Context {
    /// The character after the group is a letter of the encoding's script that begins no whole
    /// group (see `Pending::held`).
    holds_back: bool,
    before_prev: Option<Neighbour>,
    prev: Option<Neighbour>,
    next: Option<Neighbour>,
    after_next: Option<Neighbour>,
}

/// The commonest clear mojibake, answered without the rules of [`is_plausible`], for
/// windows-1252 (with nothing held back, as in a whole line of it): `true` only where
/// `is_plausible` says [`Verdict::Yes`] (a test holds it to that on every group, beside every
/// kind of neighbour); `false` says nothing. Three kinds of group (the third, Latin letters, in
/// [`is_surely_clear_latin`]):
///
/// - three or four characters that decode to anything but a control, a private-use character or
///   a noncharacter, with no original letter on either side ("à¤¹à¤¿à¤‚" is "हिं", "â€™" is
///   "’"). Such a group is no ideograph squeezed against a word, no sign against a letter, no
///   accented letter and no-break space before a symbol, no letter and guillemet before
///   punctuation.
/// - two that decode to a letter of Greek, Cyrillic, Armenian or Arabic beside a letter of the
///   same script decoded from a whole group, with no letter of another script on either side
///   ("Ð°Ð±Ñ…Ð°Ð·" is "абхаз"). It is no control, sign, mark, box, formula or quote; it clashes
///   with no letter and is not lone in its script; it ends no word after an original letter
///   (the decoded neighbour is sure); and its lead is not "Ã" or "Â", which decode to Latin-1
///   and have rules of their own.
fn is_surely_clear(decoded: char, group: &[char], context: &Context) -> bool {
    let lead = group[0];
    if context.holds_back
        || !is_alphabetic(lead)
        || group.iter().all(|&c| is_math(c))
        || is_odd_decoding(decoded, None)
    {
        return false;
    }
    if group.len() > 2 {
        // Decoded text or no letter.
        let is_plain = |n: Option<Neighbour>| n.is_none_or(|n| n.is_decoded || !is_alphabetic(n.c));
        return !is_no_text(decoded)
            && !matches!(group[1], '\u{A0}' | '»')
            && is_plain(context.prev)
            && is_plain(context.next);
    }
    let own = script(decoded);
    if !is_alphabetic(decoded) {
        return false;
    }
    if own == Script::Latin {
        return is_surely_clear_latin(group, context);
    }
    if !is_pair_script_letter(decoded) {
        return false;
    }
    // A sure letter of the same script, or no letter at all.
    let is_own = |n: &Neighbour| n.is_decoded && n.is_sure && script(n.c) == own;
    let fits = |n: Option<Neighbour>| n.is_none_or(|n| !is_alphabetic(n.c) || is_own(&n));
    let is_chained = |n: Option<Neighbour>| n.is_some_and(|n| is_alphabetic(n.c) && is_own(&n));
    fits(context.prev)
        && fits(context.next)
        && (is_chained(context.prev) || is_chained(context.next))
}

/// A letter of Greek, Cyrillic, Armenian or Arabic that `is_plausible` takes from a 2-byte
/// group (not the marks and signs of those blocks).
fn is_pair_script_letter(c: char) -> bool {
    let in_range = matches!(u32::from(c), 0x370..=0x3FF | 0x400..=0x482 | 0x48A..=0x52F
        | 0x531..=0x58F | 0x600..=0x6FF | 0x750..=0x77F);
    let is_script = matches!(
        script(c),
        Script::Greek | Script::Cyrillic | Script::Armenian | Script::Arabic
    );
    in_range && is_script && is_alphabetic(c)
}

/// A character no group decodes to in text: a control, a private-use character, a noncharacter,
/// or a code point past plane 3 (planes 4 to 13 hold nothing, 14 only tags and selectors, 15
/// and 16 private use).
fn is_no_text(c: char) -> bool {
    let cp = u32::from(c);
    c.is_control()
        || (0xE000..=0xF8FF).contains(&cp)
        || cp >= 0x4_0000
        || (0xFDD0..=0xFDEF).contains(&cp)
        || cp & 0xFFFE == 0xFFFE
}

/// [`is_surely_clear`] for a 2-byte group that decodes to a Latin letter of Latin-1 or Latin
/// Extended-A and -B (below the IPA letters): "Ã" and a byte 80..BF ("Ã©" is "é"), or "Ä" to
/// "È" and one ("Å‚" is "ł"). It clashes with no letter of another script beside it; its second
/// character is no apostrophe or no-break space (which end or join words); after "Ã" it is not
/// inside a word of original capitals ("CAFÃ©" may be "CAFÃ" and a sign); after the others the
/// word goes on (at a word's end "HÄ…" is text).
fn is_surely_clear_latin(group: &[char], context: &Context) -> bool {
    let lead = group[0];
    let no_clash = |n: Option<Neighbour>| {
        n.is_none_or(|n| {
            !is_alphabetic(n.c) || matches!(script(n.c), Script::Latin | Script::Common)
        })
    };
    let is_original_capital =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_uppercase(n.c));
    let goes_on = context
        .next
        .is_some_and(|n| n.is_decoded || is_alphabetic(n.c));
    let fits_lead = match lead {
        'Ã' => !(is_original_capital(context.prev) && is_original_capital(context.before_prev)),
        'Ä'..='È' => goes_on,
        _ => false,
    };
    fits_lead
        && !matches!(group[1], '’' | '\u{A0}')
        && no_clash(context.prev)
        && no_clash(context.next)
}

fn is_plausible(
    decoded: char,
    bytes: usize,
    group: &[char],
    e: usize,
    context: Context,
) -> Verdict {
    let Context {
        holds_back,
        before_prev,
        prev,
        next,
        after_next,
    } = context;
    let cp = u32::from(decoded);
    // A C1 control right after a decoded character that the encoding has is a layer in
    // between: the next pass reads it as the byte it was ("MÃ„Â\u{81}ori" is "MÄ\u{81}ori",
    // then "Māori").
    let is_c1 = is_c1_control(decoded);
    let is_between_layers = is_c1
        && prev.is_some_and(|p| {
            p.is_decoded && bytes_of(p.c).is_some_and(|b| b.iter().any(|&b| b >= 0x80))
        });
    // "Â" and a C1 control is exactly what Latin-1 makes of a C1 control in UTF-8: the
    // control is what was there ("Â\u{84}Handwerk" is "\u{84}Handwerk", a layer closer to
    // "„Handwerk").
    if is_between_layers || is_c1 && is_c1_control(group[1]) {
        return Verdict::Yes;
    }
    // Elsewhere than windows-1252 and Latin-1, whose undefined bytes sloppy decoders keep as
    // C1 controls, a group that decodes to one is two letters of the text ("ÂŤ" is "«" through
    // ISO-8859-2, not U+008D through windows-1250).
    if is_c1 {
        return if e == 0 {
            Verdict::WithEvidence
        } else {
            Verdict::No
        };
    }
    // A C1 control right after a letter is never text: the pair is Latin-1 mojibake ("Ð\u{95}"
    // is "Е", whatever stands beside it).
    if bytes == 2 && is_c1_control(group[1]) && !decoded.is_control() && is_alphabetic(decoded) {
        return Verdict::Yes;
    }
    // Four-byte mojibake decodes into planes 1 to 3 (emoji, historic scripts, CJK extensions);
    // planes 4 to 13 hold nothing, 14 only tags and selectors, 15 and 16 private use.
    if is_no_text(decoded) {
        return Verdict::No;
    }
    // Below its emoji and symbols, plane 1 holds historic scripts (cuneiform, hieroglyphs,
    // Linear B) and a few living ones (Chakma, Adlam): elsewhere than in windows-1252, a
    // decoding that lands there is only believed beside clear mojibake ("π’®’", Greek with
    // quotes read as windows-1253, is not U+12B92). In windows-1252 the group is "ð" and
    // three signs ("ð‘„ƒ" is Chakma "𑄃"), which no text writes.
    if (0x1_0000..0x1_F000).contains(&cp) && e != 0 {
        return Verdict::Weak;
    }
    // A no-break space leads a group only in MacRoman (CA), where a space before a sign is
    // what it looks like ("\u{a0}±" would be U+02B1, a phonetic modifier letter): only beside
    // clear mojibake. (The okina and the modifier apostrophe, CA BB and CA BC, are real.)
    if group[0] == '\u{a0}' && group[1..].iter().all(|&c| is_math(c)) {
        return Verdict::Weak;
    }
    // Text drawn with box characters reads as letters in IBM437 ("├┤" is "ô"), formulas as
    // letters in MacRoman ("√π" is "ù", "∆°" is "ơ"): only with clear mojibake beside them.
    // Two box characters against a word of two letters or more, with no other box character
    // beside them, draw nothing: they are a letter ("j├╕disk" is "jødisk", "merkist├╢" is
    // "merkistö"); between single letters they are line art ("├┤a┼┐a┼┐a").
    let in_word = prev.is_some_and(|p| !p.is_decoded && is_alphabetic(p.c));
    let is_letter = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_alphabetic(n.c));
    let is_drawing = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_box(n.c));
    // A pair between two letters, with no box character or other group beyond them, is inside
    // a word too ("f├╝r" is "für"; "├┤a┼┐a┼┐a" is line art).
    let is_plain = |n: Option<Neighbour>| !n.is_some_and(|n| n.is_decoded || is_box(n.c));
    let in_text = || {
        let beside_word = is_letter(prev) && is_letter(before_prev)
            || is_letter(next) && is_letter(after_next)
            || is_letter(prev) && is_letter(next) && is_plain(before_prev) && is_plain(after_next);
        beside_word && !is_drawing(prev) && !is_drawing(next)
    };
    // Signs that start a word of two lowercase letters or more are its first letter
    // ("√∏stfrisisk" is "østfrisisk"); a formula has a digit or a letter before them ("2√πr").
    let is_lower = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_lowercase(n.c));
    let opens_lowercase_word = || {
        is_lower(next)
            && is_lower(after_next)
            && !prev.is_some_and(|p| is_alphanumeric(p.c) || is_math(p.c))
    };
    if group.iter().all(|&c| is_box(c)) && !in_text()
        || group.iter().all(|&c| is_math(c)) && !in_word && !opens_lowercase_word()
    {
        return Verdict::Weak;
    }
    // Letters that windows-1252 has too, where they form no group, are text in the languages
    // that write them ("HÅØYA" is Norwegian, not "HŨYA" through windows-1257).
    if e != 0
        && bytes == 2
        && group
            .iter()
            .all(|&c| is_alphabetic(c) && !is_continuation(byte_in(c, 0)) && byte_in(c, 0) != 0)
    {
        return Verdict::WithEvidence;
    }
    // Three or four letters of one script other than Latin (an apostrophe inside the word
    // counts as one) are a word of it, whatever they decode to: Ukrainian "дії" is no CJK "䳿"
    // through windows-1251, "д’є" no "䒺". Real mojibake of CJK text holds signs in most of
    // its groups, and those vouch for the others; three accented Latin letters in a row are no
    // word ("Êúà" is "月" through MacRoman).
    // Squeezed against an original letter of another script, they are no word: "Tiбєїng" is
    // Vietnamese "Tiếng" through windows-1251, and "вЂЊ" between Persian letters is a ZWNJ.
    let is_word = |c: char| is_alphabetic(c) || matches!(c, '’' | 'ʼ');
    let is_foreign_letter = |n: Option<Neighbour>| {
        n.is_some_and(|n| {
            !n.is_decoded
                && is_alphabetic(n.c)
                && !matches!(script(n.c), Script::Common)
                && script(n.c) != script(group[0])
        })
    };
    // Nor is a run with a capital after a lowercase letter: "вЂћ" is "„" through windows-1251.
    let has_inner_capital = group
        .windows(2)
        .any(|pair| is_lowercase(pair[0]) && is_uppercase(pair[1]));
    if e != 0
        && bytes > 2
        && script(group[0]) != Script::Latin
        && !has_inner_capital
        && !is_foreign_letter(prev)
        && !is_foreign_letter(next)
        && group.iter().all(|&c| is_word(c))
        && group
            .iter()
            .filter(|&&c| is_alphabetic(c))
            .all(|&c| script(c) == script(group[0]))
    {
        return Verdict::Weak;
    }
    // No letter on either side, decoded or not.
    let stands_alone =
        !prev.is_some_and(|p| is_alphabetic(p.c)) && !next.is_some_and(|n| is_alphabetic(n.c));
    // A neighbour of the lead's script (the lead is a letter of the text elsewhere than in
    // windows-1252).
    let of_lead_script = |c: char| script(c) == script(group[0]);
    // The rules below are for the encodings other than windows-1252, whose leads are letters.
    if e != 0 {
        // Letters of a script that decode to a letter of the same script are a word of it ("Тё"
        // in Russian is not "Ҹ" through windows-1251, "ášť" in Czech not "ṻ"), unless the line
        // shows more of the same mojibake ("Рё" beside "Р°" is "и"). A capital inside a lowercase
        // word is no word of any script, but a lead ("jĆødisk" is "jødisk" through windows-1257,
        // "aÄŤinski" is "ačinski" through windows-1250). Nor are three letters that decode to a
        // letter of Vietnamese, which no word of these encodings' languages holds ("Tiáşżng" is
        // "Tiếng"), nor a group led by "ƒ", the florin or function sign that MacRoman has at C4
        // ("afƒÅru" is "afāru", "abhazƒÉ" is "abhază").
        let capital_inside_word = prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && is_uppercase(group[0])
            && is_lowercase(decoded);
        let is_vietnamese = bytes == 3 && (0x1EA0..=0x1EF9).contains(&cp);
        // No word goes on in lowercase after two capitals of the same script: such a pair is one
        // letter ("JĂĽdisch" is "Jüdisch" through windows-1250, "ГЃrabes" is "Árabes" through
        // windows-1251).
        let before_lowercase_word = next.is_some_and(|n| !n.is_decoded && is_lowercase(n.c));
        // Nor is a pair that makes a word of its own after an elision ("c'ГЁ" is Italian "c'è"
        // through windows-1251, "c'ĆØ" through windows-1257).
        let after_elision = matches!(prev, Some(p) if !p.is_decoded && matches!(p.c, '\'' | '’'))
            && before_prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && !next.is_some_and(|n| is_alphabetic(n.c));
        // And a standalone capital pair that is a Latin-1 letter ("%s ГЁ una" is Italian "è",
        // "ГҐ" Norwegian "å" through windows-1251): no two-letter word of capitals is written so.
        let is_latin1_pair = byte_in(group[0], e) == 0xC3 && stands_alone;
        let is_pair_before_lowercase = is_capital_pair(group)
            && (before_lowercase_word || after_elision || is_latin1_pair)
            || is_foreign_pair(group);
        // Nor does a Latin word start with a capital and one of the lowercase letters these
        // encodings hold at 80..BF (ą ł ľ ś š ş ť ź ž ż), alone or after one capital: "Ăźbergeben"
        // is "übergeben" through ISO-8859-2, "FĆølgende" "Følgende" through windows-1257.
        let starts_word_here = !prev.is_some_and(|p| is_alphabetic(p.c))
            || prev.is_some_and(|p| !p.is_decoded && is_uppercase(p.c))
                && !before_prev.is_some_and(|p| is_alphabetic(p.c));
        let is_title_pair = bytes == 2
            && script(decoded) == Script::Latin
            && script(group[0]) == Script::Latin
            && is_uppercase(group[0])
            && is_lowercase(group[1])
            && starts_word_here;
        if !capital_inside_word
            && !is_pair_before_lowercase
            && !is_title_pair
            && !is_vietnamese
            && group[0] != 'ƒ'
            && is_alphabetic(decoded)
            && group
                .iter()
                .all(|&c| is_alphabetic(c) && script(c) == script(decoded))
        {
            return Verdict::Weak;
        }
        // Elsewhere than windows-1252, two capitals of one script are a word of it whatever they
        // decode to (Serbian "ОГРАНИЧЕЊЕ" is no "ОГРАНИЧŌ" through windows-1251); a letter of
        // Latin Extended-B is what a letter and a quote make ("»З«" is no "»ǫ"); and a letter
        // before an apostrophe is a word ("Л’Акуила" is no "˒Акуила").
        let is_elided = bytes == 2 && is_alphabetic(group[0]) && matches!(group[1], '’' | 'ʼ');
        // And a capital ending a word in capitals before punctuation or a no-break space
        // ("УПОЗОРЕЊЕ…", "ЕЊЕ\u{A0}").
        let after_capitals = prev.is_some_and(|p| {
            if p.is_decoded {
                // Decoded from two capitals (see `judge`).
                !p.is_sure
            } else {
                // Of the same script: "%PВ\u{A0}:" is a no-break space through windows-1251.
                is_uppercase(p.c) && of_lead_script(p.c)
            }
        });
        let ends_capital_word =
            bytes == 2 && is_uppercase(group[0]) && ends_words(group[1]) && after_capitals;
        if !capital_inside_word
            && (is_capital_pair(group) && !is_pair_before_lowercase
                || is_elided
                || ends_capital_word
                || is_odd_decoding(decoded, None))
        {
            return Verdict::Weak;
        }
    }
    // In windows-1252 too, such a letter with no letter on either side is what a capital and a
    // sign make in a list of symbols ("€Æ¾÷ß" is no "€ƾ÷ß"): only beside clear mojibake.
    if bytes == 2 && stands_alone && is_odd_decoding(decoded, None) {
        return Verdict::Weak;
    }
    let is_west_asian = matches!(
        script(decoded),
        Script::Syriac | Script::Thaana | Script::NKo
    );
    if bytes == 2 {
        // The marks and signs of Hebrew (points, geresh and gershayim: "×\u{90}Ö·" is "אַ",
        // "×’×³" is "ג׳"), Syriac, Thaana and NKo, and in windows-1252 the Cyrillic titlo and
        // breathings of Church Slavonic ("Ò†"), belong to the letters beside them: only with
        // clear mojibake of their script on the line, as "Ö·", "×³", "Ò…" and "ß²" are also a
        // capital or a times sign before a sign ("PERCHÒ…"), or German "ß" with a square.
        let is_script_mark = matches!(cp, 0x591..=0x5C7 | 0x5F0..=0x5F4 | 0x730..=0x74A
            | 0x7A6..=0x7B0 | 0x7EB..=0x7F5)
            || e == 0 && (0x483..=0x489).contains(&cp);
        if is_script_mark {
            return Verdict::Weak;
        }
        let is_combining = (0x300..=0x36F).contains(&cp);
        let in_range = matches!(cp, 0xA0..=0x2FF | 0x370..=0x3FF | 0x400..=0x52F
            | 0x531..=0x58F | 0x5D0..=0x5EA | 0x600..=0x6FF | 0x750..=0x77F
            // The letters of Syriac, Thaana and NKo; not NKo's digits ("ß…" is German).
            | 0x710..=0x72F | 0x74D..=0x74F | 0x780..=0x7A5 | 0x7B1 | 0x7CA..=0x7EA)
            || is_combining;
        // What a 2-byte group decodes to is a letter, a digit, a mark, or one of Latin-1's
        // symbols; not a Cyrillic combining sign ("“Ö" through MacRoman is not "\u{485}").
        let is_sign = !(0x483..=0x489).contains(&cp);
        if !in_range || !is_sign {
            return Verdict::No;
        }
        // A Syriac, Thaana or NKo letter is "Ü", "Ý", "Þ" or "ß" and a sign, a Hebrew one "×"
        // and a sign: with a quote, a dash, an ellipsis or a no-break space after it that is
        // how German and Icelandic words end ("Fuß“", "Fuß\u{A0}") and how a times sign
        // stands ("2×\u{A0}3"), so only clear mojibake of the script vouches for it.
        let sign_after_text = ends_words(group[1]) || matches!(group[1], '“' | '‘' | '«' | '‹');
        if (is_west_asian || script(decoded) == Script::Hebrew) && sign_after_text {
            return Verdict::Weak;
        }
        // IPA letters are what a no-break space or a capital before a sign makes in MacRoman
        // ("\u{A0}è" reads as "ʏ", "É¿" as "ɿ"), and a capital É or Ê before a sign in
        // windows-1252 ("CAFÉ–BAR"): only beside clear mojibake. But the alphabets of West and
        // Central Africa write some of them as letters ("likrɛni", "Zapɔ", "Dentuɗi", "imək"):
        // in windows-1252, right after a lowercase letter, the pair is that letter.
        // At the start of a word, before a lowercase letter, it is that letter too ("ɔtb"), and
        // after the capital of a word in title case ("Dɔmimiki", not "CAFÉ–bar").
        let after_lowercase = prev.is_some_and(|p| is_lowercase(p.c));
        let before_lowercase = next.is_some_and(|n| is_lowercase(n.c));
        let starts_word = !prev.is_some_and(|p| is_alphabetic(p.c)) && before_lowercase;
        let after_initial = prev.is_some_and(|p| !p.is_decoded && is_uppercase(p.c))
            && !before_prev.is_some_and(|p| is_alphabetic(p.c))
            && before_lowercase;
        let is_african_letter = after_lowercase || starts_word || after_initial;
        // Elsewhere than windows-1252 the pair is a letter of the encoding's script or a sign,
        // which no text puts between two lowercase Latin letters ("HaЙ—a" is Hausa "Haɗa"
        // through windows-1251, "Ha…óa" through MacRoman).
        let is_latin_lower = |n: Option<Neighbour>| {
            n.is_some_and(|n| is_lowercase(n.c) && script(n.c) == Script::Latin)
        };
        let inside_latin_word =
            prev.is_some_and(|p| !p.is_decoded) && is_latin_lower(prev) && is_latin_lower(next);
        let is_african_alphabet = matches!(
            cp,
            0x251
                | 0x253
                | 0x254
                | 0x256
                | 0x257
                | 0x259
                | 0x25B
                | 0x263
                | 0x266
                | 0x268
                | 0x269
                | 0x26A
                | 0x272
                | 0x283
                | 0x289..=0x28B | 0x292
        );
        if (0x250..=0x2AF).contains(&cp)
            && !(e == 0 && is_african_letter)
            && !(e != 0 && inside_latin_word && is_african_alphabet)
        {
            return Verdict::Weak;
        }
        if is_combining {
            // A mark decoded from a pair no text holds ("Ì¶", "Ì€": a capital and a symbol),
            // after anything, as in struck-out prices and emoticons; from a plainer pair only
            // after a letter, and with more on the line. Two letters are a plainer pair ("ĚŽ" in
            // Czech capitals is no "\u{30E}" through windows-1250).
            let is_plain_pair = group.iter().all(|&c| is_alphabetic(c));
            return if is_odd_after_letter(group[1]) && !is_plain_pair {
                Verdict::Yes
            } else if prev.is_some_and(|p| is_alphabetic(p.c)) {
                Verdict::Weak
            } else {
                Verdict::No
            };
        }
        // Two letters that read as a symbol or a modifier ("ВІ" in Ukrainian capitals is not
        // "²"): text, unless the line shows more.
        let is_symbolic = !is_alphabetic(decoded) || script(decoded) == Script::Common;
        // A quote before a word or a sign is how text starts or joins one ("«été", "“Öl", "«©",
        // "’à’Über"), whatever a MacRoman reading makes of it. Not a guillemet inside a
        // lowercase word, where no text puts one: MacRoman reads C8 as "»" ("ba»ôkir" is
        // Romanian "bașkir").
        let is_guillemet_in_word = matches!(group[0], '«' | '»')
            && prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && next.is_some_and(|n| is_lowercase(n.c));
        if matches!(
            group[0],
            '«' | '“' | '‘' | '‚' | '„' | '‹' | '¿' | '¡' | '’' | '”' | '»' | '›'
        ) && !is_guillemet_in_word
        {
            return Verdict::Weak;
        }
        let is_word_letter = |c: &char| is_alphabetic(*c) && !matches!(c, 'µ' | 'ª' | 'º');
        // Spanish opens its questions and exclamations with "¿" and "¡" ("ÂżEstá" is "¿Está"
        // through windows-1250), and guillemets and the common signs are what two letters of
        // no one language make ("ÂŤ%sÂť" is "«%s»", "Copyright ÂŠ 2004" is "©" and "Âś" is
        // "¶" through ISO-8859-2; "Āø", a lone cedilla, stays).
        let opens_sentence =
            matches!(decoded, '¿' | '¡') && next.is_some_and(|n| is_alphabetic(n.c));
        // Not "¥": ISO-8859-2's "ÂĄ" is also "¡" through windows-1250.
        let is_common_sign = matches!(decoded, '«' | '»' | '©' | '®' | '°' | '±' | '§' | '¶' | '£');
        if is_symbolic
            && !opens_sentence
            && !(is_foreign_pair(group) && is_common_sign)
            && group.iter().all(is_word_letter)
        {
            return Verdict::Weak;
        }
        // "’s" after a capital is English ("There are a lot of Ã’s"); the possessive and the
        // contractions end the word right after.
        let is_contraction = group[1] == '’'
            && next.is_some_and(|n| !n.is_decoded && matches!(n.c, 's' | 't' | 'd' | 'm'))
            && !after_next.is_some_and(|n| is_alphabetic(n.c));
        if is_contraction {
            return Verdict::Weak;
        }
    }
    if is_alphabetic(decoded) {
        let own = script(decoded);
        // Chuvash is often typed with the Latin "ă", "ĕ" and "ç" for its Cyrillic letters
        // ("вăтаçĕр"): those sit among Cyrillic letters.
        let is_chuvash_letter = |c: char| matches!(c, 'ă' | 'Ă' | 'ĕ' | 'Ĕ' | 'ç' | 'Ç');
        let clashes = |n: Option<Neighbour>| {
            n.is_some_and(|n| {
                let theirs = script(n.c);
                is_alphabetic(n.c)
                    && theirs != own
                    && theirs != Script::Common
                    && own != Script::Common
                    && !(is_chuvash_letter(decoded) && theirs == Script::Cyrillic)
                    && !(own == Script::Cyrillic && is_chuvash_letter(n.c))
            })
        };
        // A pair no text holds ("Î³" in "IL2RÎ³cKO") is mojibake even among Latin letters, and
        // a decoded run of a script may start right after a letter of another ("CÑ€Ð¿" is a
        // Latin C before Cyrillic). Not a Syriac, Thaana or NKo letter: "Ü" or "ß" and any sign
        // is a German word, or garble ("ßŸÜ" among Arabic read as MacRoman).
        let chained = |n: Option<Neighbour>| n.is_some_and(|n| n.is_decoded && script(n.c) == own);
        if bytes == 2
            && !(e == 0 && is_odd_after_letter(group[1]) && !is_west_asian)
            && (clashes(prev) && !chained(next) || clashes(next) && !chained(prev))
        {
            return Verdict::No;
        }
        // Mojibake of Greek, Cyrillic, Armenian, Hebrew or Arabic text decodes into runs of that
        // script: a lone letter of one ("×’" as a Hebrew gimel), with no letter of its script
        // beside it (nor a group that lost a byte, "ÐŸÑ\u{FFFD}Ð¸"), needs the line to show more.
        let same_script = |n: Option<Neighbour>| {
            n.is_some_and(|n| {
                n.is_decoded && n.c == '\u{FFFD}' || is_alphabetic(n.c) && script(n.c) == own
            })
        };
        let is_lone_foreign_letter = bytes == 2
            && !is_odd_after_letter(group[1])
            && !matches!(own, Script::Latin | Script::Common)
            && !same_script(prev)
            && !same_script(next);
        if is_lone_foreign_letter {
            return Verdict::Weak;
        }
        // Three- and four-byte groups decode to scripts that do mix with Latin letters in real
        // text ("RINET基金", "文字A"), but then in runs: against an original letter of another
        // script, the other side must be decoded text of the same script, or the line must
        // show clear mojibake of that script, for the kana, ideographs and syllables that mix
        // with Latin words ("GUIë¥¼ 실행" is Korean "GUI를" among more of it, "%sã\u{81}¨%s"
        // Japanese "%sと%s"). A lone ideograph squeezed against a Latin word
        // ("été\u{A0}©", "café”…") is the text as written.
        let against_original =
            |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded) && clashes(n);
        let is_east_asian = matches!(cp, 0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7A3);
        if bytes > 2
            && (against_original(prev) && !chained(next)
                || against_original(next) && !chained(prev))
        {
            return if is_east_asian {
                Verdict::Weak
            } else {
                Verdict::No
            };
        }
    }
    // A sign (or an unassigned code point) of a script's block squeezed against a letter of the
    // text ("się’Ł" is not "si꒣", "zvlášť" is not "zvl\u{169D}"): the punctuation, symbols and
    // fullwidth forms of the shared blocks do sit between letters ("itâ€™s", "Ningboï¼ŒChina").
    let is_far_sign = bytes > 2
        && !is_alphabetic(decoded)
        && !is_numeric(decoded)
        && !matches!(cp, 0x2000..=0x2BFF | 0x3000..=0x303F | 0xFE00..=0xFE0F | 0xFE30..=0xFE4F
            | 0xFEFF | 0xFF00..=0xFFEF | 0xFFFD);
    let touches_letter =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_alphabetic(n.c));
    // Elsewhere than windows-1252 the lead is a letter of the text, so only punctuation,
    // currency, letterlike and mathematical signs may sit against letters ("Latvijā’©" is not
    // "Latvij⒩"; MacRoman's "‚àö" is the "√" of a layer below).
    let is_odd_sign = e != 0
        && bytes > 2
        && !is_alphabetic(decoded)
        && !matches!(cp, 0x2000..=0x22FF | 0x3000..=0x303F | 0xFEFF | 0xFF00..=0xFFEF);
    if (is_far_sign || is_odd_sign) && (touches_letter(prev) || touches_letter(next)) {
        return Verdict::No;
    }
    // A word-final accented letter, a no-break space and a symbol ("à\u{A0}©") read as one
    // ideograph or syllable too; real CJK and Hangul mojibake does that only among more of its
    // own script on the line.
    if bytes > 2 && group[1] == '\u{A0}' {
        return Verdict::Weak;
    }
    // So does a word-final accented letter before a closing guillemet and punctuation ("«mamá»…"
    // is no "«mamễ", "«está»—dijo" no "«estỗdijo"): real Vietnamese mojibake, which makes
    // such groups of "ễ", "ỗ", "ờ" and "ớ", holds more groups on the line.
    let closes_quote = group.len() == 3
        && is_alphabetic(group[0])
        && group[1] == '»'
        && matches!(group[2], '…' | '—' | '–' | '”' | '’' | '»' | '›')
        && (!next.is_some_and(|n| is_alphabetic(n.c)) || matches!(group[2], '—' | '–'));
    if closes_quote {
        return Verdict::Weak;
    }
    // "Ã" and a byte 80..BF is a Latin-1 letter, the commonest mojibake of all ("NÃ–" is "NÖ",
    // "NÃ¼" is "Nü", "Ã…rhus" is "Århus"): the general end-of-word rules at the bottom are for
    // the rarer leads, and "Ã" has its own narrower ones.
    // "Â" (C2 where it is that letter) and a byte A0..BF, a Latin-1 sign, is as common: the
    // no-break space French puts before a colon ("%PÂ\u{A0}: ne peut"). MacRoman's C2, "¬",
    // keeps the general rules ("`¬´", one of ftfy's negative cases).
    let is_latin1_letter = byte_in(group[0], e) == 0xC3 || group[0] == 'Â';
    let ends_the_word = !next.is_some_and(|n| is_alphabetic(n.c) || n.is_decoded);
    // An apostrophe or a no-break space after a capitalised word ("HÄ’été", "HÄ\u{A0}été")
    // separates words; at the start of a word it is the second byte of a letter
    // ("Å\u{A0}panělsko" is "Španělsko", "Ã’gmhios" is "Ògmhios"), and inside a lowercase word,
    // or after decoded text, it is mojibake too.
    let is_original_capital =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_uppercase(n.c));
    let separates_words = matches!(group[1], '’' | '\u{A0}');
    // (A capital of another script does not make a word with the lead: "%PВ\u{A0}:" is a
    // no-break space through windows-1251.)
    let same_word = prev.is_some_and(|p| of_lead_script(p.c));
    if bytes == 2 && !is_latin1_letter && separates_words && is_original_capital(prev) && same_word
    {
        return Verdict::Weak;
    }
    // For "Ã" the same holds only inside an all-capitals word ("IRMÃ’été", "IRMÃ\u{A0}été"),
    // with a closing quote or an ellipsis that ends it too ("“IRMÃ”", "«IRMÃ»", "IRMÃ…"). After
    // a single capital the word is in title case and "Ã" is mojibake ("TÃ\u{A0}idh" is
    // "Tàidh", "DÃ\u{A0}" is "Dà"), as it is after a lowercase letter ("voilÃ\u{A0}"). Before
    // the punctuation French spaces off, "Â" and a no-break space is that space ("d'IDÂ\u{A0};"),
    // where before a word it may end one in capitals ("MISUTÂ\u{A0}AJIKKO", romaji).
    let in_capital_word = is_original_capital(prev) && is_original_capital(before_prev);
    let is_trailing =
        matches!(group[1], '…' | '”' | '»' | '™' | '›' | '‘' | '´' | '©') && ends_the_word;
    let french_spacing = group == ['Â', '\u{A0}']
        && next.is_some_and(|n| matches!(n.c, ';' | ':' | '!' | '?' | '»'));
    if is_latin1_letter && !french_spacing && in_capital_word && (separates_words || is_trailing) {
        return Verdict::Weak;
    }
    if bytes == 2 && !is_latin1_letter && !next.is_some_and(|n| is_alphabetic(n.c) || n.is_decoded)
    {
        // The group ends a word (a decoded neighbour would mean the word goes on, in layers).
        // After an original capital ("HÄ…"), a lowercase decode is the text as written; after
        // anything but an original lowercase letter ("CAFÉ…", "É…"), so is an accented capital
        // followed by word-final punctuation. After a lowercase letter ("sÄ…" for "są") it is
        // mojibake.
        let prev_original = prev.filter(|p| !p.is_decoded).map(|p| p.c);
        let after_capital = prev_original.is_some_and(is_uppercase);
        let after_lowercase = prev_original.is_some_and(is_lowercase);
        // A decoded neighbour says the word goes on, unless this group decodes to a letter
        // text rarely holds ("CAFÉ’É…" is no "CAFɒɅ").
        let after_decoded =
            prev.is_some_and(|p| p.is_decoded && p.is_sure) && !is_odd_decoding(decoded, None);
        if after_capital && is_lowercase(decoded) {
            return Verdict::Weak;
        }
        // A lead of another script than the letter before it is no letter of that word
        // ("%PВ\u{A0}:" is a no-break space through windows-1251).
        let glued = prev_original.is_some_and(|p| {
            is_alphabetic(p)
                && is_alphabetic(group[0])
                && !of_lead_script(p)
                && script(group[0]) != Script::Common
        });
        if !after_lowercase && !after_decoded && !glued && ends_words(group[1]) {
            return Verdict::Weak;
        }
    }
    // Letters of the encoding's own script, before another that begins no whole group, are a
    // word of that script: Ukrainian "Південна" is no "ϳвденна" through windows-1251, nor
    // Belarusian "рэгіён" "рэ㳸н", whatever the line's other groups say (`Pending` holds such a
    // group back the same way).
    if group.iter().all(|&c| is_script_letter(c)) && holds_back {
        return Verdict::Weak;
    }
    Verdict::Yes
}

/// A character that text rarely puts right after a letter: a symbol that windows-1252 and its
/// kin hold at a continuation byte, where it follows a letter only as mojibake.
fn is_odd_after_letter(c: char) -> bool {
    matches!(
        c,
        '\u{80}'
            ..='\u{9F}'
                | '¤'
                | '¦'
                | '¨'
                | '¬'
                | '¯'
                | '¸'
                | '¶'
                | '§'
                | '±'
                | '¹'
                | '²'
                | '³'
                | '°'
                | '¼'
                | '½'
                | '¾'
                | '¢'
                | '€'
                | 'ƒ'
                | '†'
                | '‡'
                | 'ˆ'
                | '‰'
                | '‹'
                | '˜'
                | '¡'
                | '¿'
                | 'Œ'
                | 'œ'
                | 'Š'
                | 'š'
                | 'Ž'
                | 'ž'
                | 'Ÿ'
    )
}

#[cfg(test)]
mod tests;
