//! Each character's byte in every encoding of the tables: the look-ups every other step asks.

use crate::tables::HIGH_HALF;
use crate::tables::{self, COUNT, LATIN1_BYTES, OTHER_BYTES};

/// Each encoding's byte for `c` (0 where it has none), for a character above U+007F.
pub(crate) fn bytes_of(c: char) -> Option<&'static [u8; COUNT]> {
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
pub(crate) const DIRECT_END: u32 = 0x2600;

/// No entry of [`OTHER_BYTES`] for this character.
pub(crate) const NONE: u16 = u16::MAX;

/// The entry of [`OTHER_BYTES`] for each character U+0100..[`DIRECT_END`], made by the compiler:
/// the judging asks for every character of a line in every encoding it tries, and a binary
/// search each time was an eighth of the repair's time.
pub(crate) static OTHER_BYTES_INDEX: [u16; (DIRECT_END - 0x100) as usize] = {
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
pub(crate) fn byte_in(c: char, e: usize) -> u8 {
    if c.is_ascii() {
        return c as u8;
    }
    bytes_of(c).map_or(0, |bytes| bytes[e])
}

/// The windows-1252 character for the byte a C1 control stands for.
pub(crate) fn windows_1252_char(c: char) -> char {
    tables::HIGH_HALF[0][(u32::from(c) - 0x80) as usize]
}

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
