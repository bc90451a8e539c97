//! The commonest case answered first: a whole line read once as windows-1252, whose every non-ASCII character is in a clear group, counted from its bytes.

mod blockwise;

use blockwise::count_by_blocks;
use std::sync::OnceLock;

use utf8kit_codec::unit::{declared_len, is_continuation};

use crate::bytes::windows_1252_char;
use crate::candidates::decode_group;
use crate::found::{Neighbour, Verdict};
use crate::languages::is_odd_decoding;
use crate::letters::{is_alphabetic, is_lowercase, is_uppercase};
use crate::reencode::windows_1252_bytes;
use crate::scripts::{Script, is_math, judged_script};
use crate::verdict::{Context, is_no_text, is_pair_script_letter, is_plausible, is_surely_clear};

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
pub(crate) fn whole_line_through_windows_1252(
    text: &str,
    out: &mut Vec<u8>,
) -> Option<(usize, u8)> {
    windows_1252_bytes(text, out)?;
    let groups = count_by_blocks(out, PairClass::table())
        .or_else(|| count_surely_clear_groups(out))
        .or_else(|| count_clear_groups(out))?;
    Some((groups, 0))
}

/// The whole group of windows-1252 bytes at `at`: what it decodes to, and its length.
pub(crate) fn group_at(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let len = declared_len(*bytes.get(at)?)?;
    let group = bytes.get(at..at + len)?;
    if len < 2 || !group[1..].iter().all(|&b| is_continuation(b)) {
        return None;
    }
    decode_group(group).map(|c| (c, len))
}

/// The character windows-1252 reads `byte` as (ASCII as itself).
pub(crate) fn windows_1252_original(byte: u8) -> char {
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
pub(crate) fn count_surely_clear_groups(bytes: &[u8]) -> Option<usize> {
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
pub(crate) struct PairClass {
    pub(crate) script: Script,
    pub(crate) flags: u8,
}

impl PairClass {
    /// "ß".
    pub(crate) const SHARP_S: u8 = 1;
    /// A capital.
    pub(crate) const UPPER: u8 = 2;
    /// A letter.
    pub(crate) const LETTER: u8 = 4;
    /// A letter whose lead byte, read as windows-1252, is a letter too, and whose two bytes are
    /// not both signs of mathematics ([`is_math`]).
    pub(crate) const LETTERS: u8 = 8;
    /// [`is_odd_decoding`] with nothing before it.
    pub(crate) const ODD: u8 = 16;
    /// [`is_pair_script_letter`].
    pub(crate) const PAIR_SCRIPT_LETTER: u8 = 32;

    pub(crate) fn of_char(c: char) -> PairClass {
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
            script: judged_script(c),
            flags: flags
                .iter()
                .filter(|(is, _)| *is)
                .fold(0, |all, (_, f)| all | f),
        }
    }

    pub(crate) fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    /// What the count of script letters ([`blockwise::count_pair_groups`]) reads of the
    /// character: 0 unless it is a letter of Greek, Cyrillic, Armenian or Arabic that the quick
    /// count answers beside letters of its own script ([`PairClass::LETTERS`] and
    /// [`PairClass::PAIR_SCRIPT_LETTER`]); else 1, with 2 for a capital, and its script above.
    pub(crate) fn script_letter_byte(self) -> u8 {
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
    pub(crate) fn latin_letter_byte(self, lead: u8) -> u8 {
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
    pub(crate) fn table() -> &'static PairTable {
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
pub(crate) struct PairTable {
    pub(crate) classes: Vec<PairClass>,
    /// [`PairClass::script_letter_byte`] of every character of two bytes, in eight windows of
    /// four leads (C0..C3, C4..C7, up to DC..DF) and 256 characters, each at the two low bits of
    /// its lead and the six of its second byte (leads C0 and C1 begin no character: 0).
    pub(crate) script_letters: Vec<[u8; 256]>,
    /// [`PairClass::latin_letter_byte`] of every character of the leads C2..C9, each at its
    /// lead's place from C2 and the six low bits of its second byte.
    pub(crate) latin_letters: [u8; 512],
}

impl PairTable {
    /// The class of `c`, a character of two bytes in UTF-8.
    pub(crate) fn of(&self, c: char) -> PairClass {
        self.classes[u32::from(c) as usize - 0x80]
    }

    /// Whether `c` is a letter, and its script: from the table for a character of two bytes.
    #[inline]
    pub(crate) fn letter_script(&self, c: char) -> (bool, Script) {
        match self.classes.get((u32::from(c) as usize).wrapping_sub(0x80)) {
            Some(class) => (class.has(PairClass::LETTER), class.script),
            None => (is_alphabetic(c), judged_script(c)),
        }
    }
}

/// The groups of windows-1252 bytes in turn, ASCII passed over, for the careful count: where
/// each starts, what it decodes to and its length, or `None` for bytes that begin no whole
/// group. The group after one may be decoded ahead, to read it as a neighbour, and is not
/// decoded again. (The quick count walks the same way with its state in locals, which measured
/// 1% to 6% faster.)
pub(crate) struct Groups<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
    pub(crate) ahead: Option<(usize, char, usize)>,
}

impl<'a> Groups<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Groups<'a> {
        Groups {
            bytes,
            at: 0,
            ahead: None,
        }
    }

    pub(crate) fn next(&mut self) -> Option<Option<(usize, char, usize)>> {
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
    pub(crate) fn ahead(&mut self, from: usize) -> Option<char> {
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
pub(crate) fn count_clear_groups(bytes: &[u8]) -> Option<usize> {
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
                clear_scripts |= 1 << judged_script(c) as u16;
                if touches_last && let Some(weak) = weak.last_mut().filter(|_| !last.2) {
                    weak.2 = true;
                }
            }
            _ => weak.push((verdict, judged_script(c), touches_last && last.2)),
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
pub(crate) fn clear_group_verdict(
    bytes: &[u8],
    at: usize,
    (c, len): (char, usize),
    last: char,
    decode: &mut dyn FnMut(usize) -> Option<char>,
) -> Option<Verdict> {
    pub(crate) const E: usize = 0;
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
