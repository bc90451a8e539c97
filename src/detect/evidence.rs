//! What the detector keeps of an input: the lines that are not UTF-8, the head, and the counts.

use super::*;

/// How much evidence (invalid lines) is kept.
pub(super) const EVIDENCE_LEN: usize = 64 * 1024;
/// How much of the start of the input is kept for the byte order patterns of UTF-16/32.
pub(super) const HEAD_LEN: usize = 64 * 1024;
/// Lines longer than this are judged in pieces.
pub(super) const MAX_LINE: usize = 4096;
/// A run with no byte below 0x30 longer than this is cut at a UTF-8 character's start.
pub(super) const MAX_RUN: usize = 64 * 1024;

/// Where to end the next piece of a long line (`carry`, longer than [`MAX_LINE`]): right after
/// a byte below 0x30 (a control such as a lone CR, a space, ASCII punctuation), the last one in
/// the first `MAX_LINE` bytes, else the first one at all. No multi-byte encoding the detector
/// weighs uses such a byte inside a character (the smallest trail bytes, GB18030's, are
/// digits), so no character is split whatever the encoding: a Shift_JIS file with CR line ends
/// or a minified one-line file reaches chardetng whole. A run of [`MAX_RUN`] bytes with none is
/// cut at the start of a UTF-8 character; `None` waits for more bytes.
pub(super) fn piece_end(carry: &[u8]) -> Option<usize> {
    if let Some(at) = carry[..MAX_LINE].iter().rposition(|&b| b < 0x30) {
        return Some(at + 1);
    }
    if let Some(at) = carry.iter().position(|&b| b < 0x30) {
        return Some(at + 1);
    }
    (carry.len() > MAX_RUN).then(|| {
        (1..=MAX_LINE)
            .rev()
            .find(|&i| carry[i] & 0xC0 != 0x80)
            .unwrap_or(MAX_LINE)
    })
}

/// What the detector has seen of one input.
#[derive(Debug, Default)]
pub struct Evidence {
    /// Lines that are not valid UTF-8, each ending in a newline, up to [`EVIDENCE_LEN`].
    pub(super) lines: Vec<u8>,
    /// The unfinished line.
    pub(super) carry: Vec<u8>,
    /// The first bytes of the input.
    pub(super) head: Vec<u8>,
    /// Well-formed characters of more than one byte.
    pub valid_multibyte: u64,
    /// Ill-formed units (maximal subparts).
    pub ill_formed: u64,
    /// The first legacy encoding the text declares for itself.
    pub(super) declared: Option<Charset>,
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
        while let Some(end) = memchr::memchr2(b'\n', 0, chunk) {
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
            let Some(cut) = piece_end(&self.carry) else {
                break;
            };
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

    pub(super) fn line(&mut self, line: &[u8]) {
        if self.declared.is_none() && line.len() <= 1024 {
            self.declared = declared(line);
        }
        // Most lines of a file with a finding are well-formed: they only add to the count of
        // multi-byte characters (one per lead byte), without the character walk below.
        if line.is_ascii() {
            return;
        }
        // A piece with control bytes is binary data (the tables of a message catalogue), not text.
        let (is_binary, leads) = binary_and_leads(line);
        if utf8kit_codec::is_well_formed(line) {
            if !is_binary {
                self.valid_multibyte += leads;
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

/// Whether `line` holds a control byte that text does not ([`is_binary_byte`]), and how many of
/// its bytes are C0 or above (the leads of UTF-8's characters of more
/// than one byte): eight bytes at a time, each word with a byte below 20 or a 7F read byte by
/// byte.
fn binary_and_leads(line: &[u8]) -> (bool, u64) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte that is zero.
    let zero_bytes = |x: u64| !(((x & !HIGH) + !HIGH) | x) & HIGH;
    let (mut binary, mut leads) = (false, 0u64);
    let mut words = line.chunks_exact(8);
    for word in words.by_ref() {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        // The high bit of each byte 11xxxxxx.
        leads += u64::from((w & (w << 1) & HIGH).count_ones());
        // Some byte below 20 (bytes of 80 or above excluded), or a 7F.
        let below_20 = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        if below_20 | zero_bytes(w ^ (ONES * 0x7F)) != 0 {
            binary |= word.iter().any(|&b| is_binary_byte(b));
        }
    }
    for &b in words.remainder() {
        leads += u64::from(b >= 0xC0);
        binary |= is_binary_byte(b);
    }
    (binary, leads)
}

/// Whether `b` is a control byte that text does not hold: not a tab, line end, form feed or
/// escape.
fn is_binary_byte(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B) || b == 0x7F
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight bytes at a time gives what a byte at a time gives: every byte value at every place
    /// of a word and of the tail, after text of every width.
    #[test]
    fn binary_and_leads_agrees_with_each_byte() {
        let slow = |line: &[u8]| {
            let binary = line.iter().any(|&b| is_binary_byte(b));
            (binary, line.iter().filter(|&&b| b >= 0xC0).count() as u64)
        };
        for filler in ["a", "é", "世", "😀", "\t"] {
            let text = filler.repeat(12).into_bytes();
            for len in [0, 7, 8, 9, 16, 21] {
                for place in 0..=len {
                    for byte in 0..=255u8 {
                        let mut line = text[..len.min(text.len())].to_vec();
                        line.insert(place.min(line.len()), byte);
                        assert_eq!(binary_and_leads(&line), slow(&line), "{line:02x?}");
                    }
                }
            }
        }
    }
}
