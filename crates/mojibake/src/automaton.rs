//! The all-encodings automaton: which encodings may hold a group of mojibake in a line, found in one pass for all of them.

use utf8kit_codec::unit::{declared_len, is_continuation};

use crate::bytes::{byte_in, bytes_of};
use crate::letters::{is_alphabetic, is_lowercase, is_uppercase};
use crate::scripts::{Script, is_c1_control, is_koi8_mark, judged_script};
use crate::tables::OTHER_BYTES;

pub(crate) fn is_lead(byte: u8) -> bool {
    (0xC2..=0xF4).contains(&byte)
}

/// The lead bytes after which a space may stand for a lost A0: the letters and scripts whose
/// UTF-8 second byte A0 is common (à, NBSP, Š, Π, Р, ٠, and the 3-byte ranges E0..E3).
pub(crate) fn takes_spaced_a0(byte: u8) -> bool {
    matches!(
        byte,
        0xC2 | 0xC3 | 0xC5 | 0xCE | 0xD0 | 0xD9 | 0xE0..=0xE3 | 0xF0
    )
}

/// Bit masks over the encodings for one character: where it is a lead byte of a 2-, 3- or
/// 4-byte sequence, a continuation byte, and a letter that is the lead C3.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub(crate) struct Masks {
    pub(crate) lead: [u16; 3],
    pub(crate) cont: u16,
    /// A letter that is the lead C3 ("Ã", "Г", "Γ"), after which a space may stand for the lost
    /// A0 of "à": the one group with a stand-in that can be clear mojibake (see `judge`).
    pub(crate) c3: u16,
    /// A letter of the encoding's own script other than Latin (Cyrillic in windows-1251, Greek
    /// in windows-1253). A group made of such letters only, followed by another that begins no
    /// whole group, is a word of that script ("Пі" in "Південна", "гіё" in "рэгіён"), never
    /// clear mojibake by itself ([`is_plausible`]).
    pub(crate) letter: u16,
    /// All ones for a character known to be no letter of a script (a sign, a digit, a letter of
    /// the Common script, U+FFFD); characters outside the tables have no masks and may be
    /// letters of any script.
    pub(crate) non_alpha: u16,
    /// All ones for a lowercase letter, and for an uppercase one.
    pub(crate) lower: u16,
    pub(crate) upper: u16,
    /// The KOI8 encodings in which the character is a continuation byte that leaves a group
    /// unclear (a letter, the no-break space, `©`: not [`is_koi8_mark`]): a group it ends can
    /// be no clear mojibake by itself, and is no candidate (`is_plausible`'s rule `koi8`).
    pub(crate) unclear: u16,
    /// All ones for a letter that windows-1252 has where it begins no group (its byte is
    /// C0..FF: "À", "à", "Ø"). Two such letters that make a group elsewhere than in
    /// windows-1252 are text in the languages that write them ("Ààrin" in Yoruba, "HÅØYA"):
    /// [`is_plausible`] never takes them for clear mojibake.
    pub(crate) western: u16,
}

pub(crate) fn masks(c: char) -> Masks {
    let mut m = Masks::default();
    let Some(bytes) = bytes_of(c) else {
        return m;
    };
    for (e, &b) in bytes.iter().enumerate() {
        let bit = 1 << e;
        if is_lead(b) {
            let len = declared_len(b).expect("a lead byte");
            m.lead[len - 2] |= bit;
            // Not in KOI8, whose C3 is `ц`, a letter that ends many words before a space.
            if b == 0xC3 && is_alphabetic(c) && bit & crate::chain::KOI8 == 0 {
                m.c3 |= bit;
            }
        } else if is_continuation(b) {
            m.cont |= bit;
            if bit & crate::chain::KOI8 != 0 && !is_koi8_mark(c) {
                m.unclear |= bit;
            }
        }
        if b != 0 && is_script_letter(c) {
            m.letter |= bit;
        }
    }
    let all = |yes: bool| if yes { u16::MAX } else { 0 };
    m.non_alpha = all(!is_alphabetic(c) || judged_script(c) == Script::Common);
    m.lower = all(is_lowercase(c));
    m.upper = all(is_uppercase(c));
    m.western = all(is_alphabetic(c) && byte_in(c, 0) >= 0xC0);
    m
}

/// A letter of a script other than Latin: what the encodings beyond windows-1252's kin write
/// their own words in; with the apostrophes Ukrainian and Belarusian write inside words
/// ("Об’єднаних", "М’янма").
pub(crate) fn is_script_letter(c: char) -> bool {
    is_alphabetic(c) && !matches!(judged_script(c), Script::Latin | Script::Common)
        || matches!(c, '’' | 'ʼ')
}

/// The masks of every character the line filter and [`possible_encodings`] read: U+0080..U+07FF
/// (the 2-byte characters), then U+2000..U+2FFF and U+F000..U+FFFF (the 3-byte characters that
/// start with E2 or EF, the only 3-byte leads of the tables' characters and of U+FFFD). Each
/// character has a one-byte index into a short list of distinct masks, so that the whole table
/// stays in the cache (10 KiB).
pub(crate) struct MaskTable {
    pub(crate) index: Vec<u8>,
    pub(crate) masks: Vec<Masks>,
}

/// Where the characters U+2000.. and U+F000.. start in [`MaskTable::index`].
pub(crate) const E2_START: usize = 0x800 - 0x80;
pub(crate) const EF_START: usize = E2_START + 0x1000;

impl MaskTable {
    pub(crate) fn get() -> &'static MaskTable {
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
    pub(crate) fn slot(c: char) -> Option<usize> {
        let cp = u32::from(c) as usize;
        match cp {
            0x80..0x800 => Some(cp - 0x80),
            0x2000..0x3000 => Some(E2_START + cp - 0x2000),
            0xF000..0x1_0000 => Some(EF_START + cp - 0xF000),
            _ => None,
        }
    }

    /// The masks of `c`, which is not ASCII.
    pub(crate) fn of_char(&self, c: char) -> Masks {
        Self::slot(c).map_or(Masks::default(), |slot| {
            self.masks[usize::from(self.index[slot])]
        })
    }

    /// The masks of the character that `bytes` (well-formed UTF-8) starts with, and its length.
    /// Characters outside the table have none: ASCII, the other 3-byte characters (CJK, Indic,
    /// Thai...) and the 4-byte ones. Ill-formed bytes (a caller that broke the contract) get
    /// none either, never a panic.
    #[inline(always)]
    pub(crate) fn of(&self, bytes: &[u8]) -> (Masks, usize) {
        let b = bytes[0];
        let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let at = match b {
            0..=0x7F => return (Masks::default(), 1),
            0x80..=0xC1 => return (Masks::default(), 1),
            0xC2..=0xDF => usize::from(b & 0x1F) << 6 | usize::from(byte(1) & 0x3F),
            0xE2 | 0xEF => {
                let low = usize::from(byte(1) & 0x3F) << 6 | usize::from(byte(2) & 0x3F);
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
pub(crate) const LEADS: &[u8] = &[
    0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xCB, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xE2, 0xEF,
];

/// The masks of U+FFFD: a continuation byte lost in windows-1252, the one encoding in which a
/// group with a lost byte can be clear mojibake (see `candidate_at`).
pub(crate) const LOST_BYTE: Masks = Masks {
    lead: [0; 3],
    cont: 1,
    c3: 0,
    unclear: 0,
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
pub(crate) struct Pending {
    /// Encodings in which the characters just read leave a sequence needing 1, 2 or 3 more
    /// continuations.
    pub(crate) needs: [u16; 3],
    /// Encodings in which the last character was a letter that is the lead C3.
    pub(crate) after_c3: u16,
    /// Encodings in which the group pending (as `needs`) is made of letters of the encoding's
    /// script (`Masks::letter`) so far.
    pub(crate) letter_needs: [u16; 3],
    /// Encodings in which the last character completed a group of such letters only, which
    /// counts only if what follows is no letter of the script, or one that begins a whole group
    /// ("Пі" in "Південна" is a word, "Рі" before "вЂ“" is "г–").
    pub(crate) held: u16,
    /// Encodings in which a held group waits for the group a letter after it began, which
    /// still needs 1, 2 or 3 continuation bytes.
    pub(crate) wait: [u16; 3],
    /// Encodings in which the last character let a held group count (it ended before).
    pub(crate) released: u16,
    /// Encodings in which the pending group of three or four such letters (as `letter_needs`)
    /// has no capital after a lowercase letter and follows no letter of another script; and
    /// the held groups that are such. With no letter of another script after it either, such
    /// a group is a word of the script ([`is_plausible`]'s rule for three or four letters): it
    /// never counts.
    pub(crate) calm_needs: [u16; 3],
    pub(crate) held_calm: u16,
    /// Encodings in which the last character was a letter of another script than the
    /// encoding's (`Masks::letter`), or may be one.
    pub(crate) after_foreign: u16,
    /// The last character was a lowercase letter (all ones).
    pub(crate) after_lower: u16,
    /// Encodings other than windows-1252 in which the last character was a 2-byte lead that is
    /// a letter windows-1252 has where it begins no group (`Masks::western`).
    pub(crate) after_western_lead: u16,
}

impl Pending {
    pub(crate) fn is_idle(&self) -> bool {
        self.needs == [0; 3] && self.held == 0 && self.wait == [0; 3]
    }

    /// The groups that count at the end of the text: those held, which no letter follows (a
    /// group cut short by the end is no whole group, and those waiting for it do not count),
    /// but for three or four letters that make a word.
    pub(crate) fn finish(&self) -> u16 {
        self.held & !self.held_calm
    }

    /// [`Pending::step`] for an ASCII character with nothing pending, which only notes whether
    /// it is a letter (of another script than every encoding's own).
    pub(crate) fn pass_ascii(&mut self, c: char) {
        self.after_foreign = if c.is_ascii_alphabetic() { u16::MAX } else { 0 };
        self.after_lower = 0;
    }

    /// The held groups still waiting for what follows them.
    pub(crate) fn undecided(&self) -> u16 {
        self.held | self.wait[0] | self.wait[1] | self.wait[2]
    }

    /// Reads the character that `bytes` (well-formed UTF-8) starts with: returns the encodings
    /// in which it completes a candidate, and its length.
    #[inline(always)]
    pub(crate) fn read(&mut self, table: &MaskTable, bytes: &[u8]) -> (u16, usize) {
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
    pub(crate) fn step(&mut self, mut m: Masks, c: char) -> u16 {
        // A whole group after a held one has real continuation bytes, not stand-ins.
        let real_cont = m.cont;
        // A space after "Ã" may be the lost A0 of "à"; any other ASCII ends every group.
        if c == ' ' {
            m.cont = self.after_c3;
        }
        // Two letters that windows-1252 has where they begin no group are text elsewhere.
        let mut complete =
            self.needs[0] & m.cont & !m.unclear & !(self.after_western_lead & m.western);
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
pub(crate) fn possible_encodings(chars: impl IntoIterator<Item = char>) -> u16 {
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
