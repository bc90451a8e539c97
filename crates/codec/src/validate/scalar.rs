//! Validation without SIMD, for the portable level: a deterministic automaton over the byte
//! values, one table load and one shift per byte, with no branch per byte (the "shift-based
//! DFA"), and eight ASCII bytes at a time while the automaton rests between characters. Each
//! step waits for the one before, so a long input is read as two halves side by side, each with
//! an automaton of its own.
//!
//! Each state is a bit offset (a multiple of 6) in a 64-bit row; `ROWS[byte]` holds, at the
//! offset of each state, the offset of the state that byte leads to. The next state is the
//! row shifted right by the current one: the shift uses only the low 6 bits of its count, so
//! the bits above them, left over from the row, need no masking until the end.

/// Between characters: where a well-formed input ends.
const ACCEPT: u64 = 0;
/// An error was seen: every byte leads back here.
const REJECT: u64 = 6;
/// One, two or three continuation bytes (80..BF) to go.
const TAIL1: u64 = 12;
const TAIL2: u64 = 18;
const TAIL3: u64 = 24;
/// After E0: A0..BF (no overlong), then one more.
const E0: u64 = 30;
/// After ED: 80..9F (no surrogate), then one more.
const ED: u64 = 36;
/// After F0: 90..BF (no overlong), then two more.
const F0: u64 = 42;
/// After F4: 80..8F (nothing past U+10FFFF), then two more.
const F4: u64 = 48;

const STATES: [u64; 9] = [ACCEPT, REJECT, TAIL1, TAIL2, TAIL3, E0, ED, F0, F4];

/// The state after `byte` in `state`, as RFC 3629 (and the Unicode Standard's table 3-7) reads.
const fn next(state: u64, byte: u8) -> u64 {
    let cont = matches!(byte, 0x80..=0xBF);
    match state {
        ACCEPT => match byte {
            0x00..=0x7F => ACCEPT,
            0xC2..=0xDF => TAIL1,
            0xE0 => E0,
            0xE1..=0xEC | 0xEE..=0xEF => TAIL2,
            0xED => ED,
            0xF0 => F0,
            0xF1..=0xF3 => TAIL3,
            0xF4 => F4,
            _ => REJECT,
        },
        TAIL1 if cont => ACCEPT,
        TAIL2 if cont => TAIL1,
        TAIL3 if cont => TAIL2,
        E0 if matches!(byte, 0xA0..=0xBF) => TAIL1,
        ED if matches!(byte, 0x80..=0x9F) => TAIL1,
        F0 if matches!(byte, 0x90..=0xBF) => TAIL2,
        F4 if matches!(byte, 0x80..=0x8F) => TAIL2,
        _ => REJECT,
    }
}

static ROWS: [u64; 256] = {
    let mut rows = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut row = 0u64;
        let mut s = 0;
        while s < STATES.len() {
            row |= next(STATES[s], byte as u8) << STATES[s];
            s += 1;
        }
        rows[byte] = row;
        byte += 1;
    }
    rows
};

/// The bytes a block holds, between checks for an error.
const BLOCK: usize = 64;

/// From this length on the input is read as two halves at once: each byte's step waits on the
/// one before it, so one automaton keeps the processor's other units idle, and a second one
/// over the other half runs in their place.
const TWO_HALVES: usize = 1024;

/// A character boundary at or before the first error of `bytes` up to which they are
/// well-formed; `bytes.len()` exactly when they are well-formed.
pub(super) fn well_formed_prefix(bytes: &[u8]) -> usize {
    match split(bytes) {
        Some(half) => in_two_halves(bytes, half),
        None => in_one_pass(bytes),
    }
}

/// Where `bytes` may be cut in two: the first byte at or after their middle that is no
/// continuation byte, so that a character starts there if they are well-formed. `None` for a
/// short input, or four continuation bytes in a row there (an error, which one pass finds).
fn split(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < TWO_HALVES {
        return None;
    }
    let middle = bytes.len() / 2;
    (middle..middle + 4).find(|&at| !matches!(bytes[at], 0x80..=0xBF))
}

/// The automaton's walk over one stretch of the input, a block at a time.
#[derive(Clone, Copy)]
struct Walk {
    state: u64,
    /// How far the walk has read.
    at: usize,
    /// The end of the last block after which the automaton rested between characters.
    boundary: usize,
}

impl Walk {
    const START: Walk = Walk {
        state: ACCEPT,
        at: 0,
        boundary: 0,
    };

    /// Whether `block` can be passed over unread: all ASCII, between characters.
    fn passes_over(&self, block: &[u8]) -> bool {
        self.state & 63 == ACCEPT && is_ascii(block)
    }

    /// Reads `block` byte by byte.
    fn read(&mut self, block: &[u8]) {
        for &byte in block {
            self.state = step(self.state, byte);
        }
    }

    /// After a block of `len` bytes: whether the walk met an error.
    fn end_block(&mut self, len: usize) -> bool {
        self.at += len;
        match self.state & 63 {
            ACCEPT => self.boundary = self.at,
            REJECT => return true,
            _ => {}
        }
        false
    }

    /// Reads the rest of `bytes` from where the walk is; the walk's answer for them.
    fn finish(mut self, bytes: &[u8]) -> usize {
        if self.state & 63 == REJECT {
            return self.boundary;
        }
        let mut blocks = bytes[self.at..].chunks_exact(BLOCK);
        for block in blocks.by_ref() {
            if !self.passes_over(block) {
                self.read(block);
            }
            if self.end_block(BLOCK) {
                return self.boundary;
            }
        }
        let rest = blocks.remainder();
        self.read(rest);
        self.end_block(rest.len());
        self.boundary
    }
}

/// The state after `byte` in `state` (the bits above the low six are left over from the row).
#[inline(always)]
fn step(state: u64, byte: u8) -> u64 {
    ROWS[usize::from(byte)].wrapping_shr(state as u32)
}

fn in_one_pass(bytes: &[u8]) -> usize {
    Walk::START.finish(bytes)
}

/// [`in_one_pass`]'s answer, reading `bytes[..half]` and `bytes[half..]` side by side. The
/// first half must end between characters: since a character starts at `half` if the input is
/// well-formed, a character left open there is an error, and the first half's boundary is the
/// answer. Otherwise the two halves are well-formed or not apart.
fn in_two_halves(bytes: &[u8], half: usize) -> usize {
    let (first, second) = bytes.split_at(half);
    let mut one = Walk::START;
    let mut two = Walk::START;
    for (a, b) in first.chunks_exact(BLOCK).zip(second.chunks_exact(BLOCK)) {
        match (one.passes_over(a), two.passes_over(b)) {
            (true, true) => {}
            (true, false) => two.read(b),
            (false, true) => one.read(a),
            (false, false) => {
                let (mut s, mut t) = (one.state, two.state);
                for (&x, &y) in a.iter().zip(b) {
                    s = step(s, x);
                    t = step(t, y);
                }
                (one.state, two.state) = (s, t);
            }
        }
        if one.end_block(BLOCK) {
            return one.boundary;
        }
        if two.end_block(BLOCK) {
            break;
        }
    }
    let first_end = one.finish(first);
    if first_end < half {
        return first_end;
    }
    half + two.finish(second)
}

/// Whether a block is all ASCII, eight bytes at a time.
fn is_ascii(block: &[u8]) -> bool {
    let mut high = 0u64;
    for word in block.chunks_exact(8) {
        high |= u64::from_ne_bytes(word.try_into().expect("eight bytes"));
    }
    high & 0x8080_8080_8080_8080 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes`'s answer is a well-formed prefix, the whole input exactly when std finds it
    /// well-formed.
    fn check(input: &[u8]) {
        let ok = std::str::from_utf8(input).is_ok();
        let prefix = well_formed_prefix(input);
        assert_eq!(prefix == input.len(), ok, "{input:02X?}");
        assert!(
            std::str::from_utf8(&input[..prefix]).is_ok(),
            "{input:02X?}"
        );
    }

    /// Read in two halves: characters and errors cut by the middle, by the blocks' ends in
    /// either half and by the input's end, in text of every width, give std's answer, and the
    /// halves are read where they are long enough.
    #[test]
    fn two_halves_agree_with_std_at_the_middle_and_every_block_end() {
        let pieces: [&[u8]; 10] = [
            b"\xF0\x9F\x98\x80",
            b"\xE2\x82\xAC",
            b"\xC3\xA9",
            b"\xED\xA0\x80",
            b"\xE2\x82",
            b"\xF0\x9F\x98",
            b"\x80\x80\x80\x80\x80",
            b"\xC0\xAF",
            b"\xFF",
            b"\xF4\x90\x80\x80",
        ];
        for len in [TWO_HALVES, TWO_HALVES + 1, 1500, 4099] {
            let middle = len / 2;
            let mut places: Vec<usize> = (0..4).chain(middle - 8..middle + 8).collect();
            for end in [BLOCK, 2 * BLOCK, middle + BLOCK, middle + 2 * BLOCK] {
                places.extend(end - 3..end + 3);
            }
            places.extend(len - 6..len);
            for filler in ["a", "é", "€", "😀"] {
                let text = filler.repeat(len / filler.len() + 1).into_bytes();
                for &piece in &pieces {
                    for &place in &places {
                        let mut input = text[..place].to_vec();
                        input.extend_from_slice(piece);
                        input.extend_from_slice(&text[..len.saturating_sub(place)]);
                        check(&input);
                        check(&input[..(place + piece.len()).min(input.len())]);
                    }
                }
                let whole = &text[..len.div_ceil(filler.len()) * filler.len()];
                assert!(split(whole).is_some(), "{filler} {len}");
                check(whole);
            }
        }
    }

    /// The automaton agrees with std on every input of up to three bytes, and on every
    /// four-byte sequence that starts with a lead byte F0..F4, placed at every offset of a block.
    #[test]
    fn agrees_with_std_exhaustively() {
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                for c in 0..=255u8 {
                    check(&[a, b, c]);
                }
            }
        }
        for a in 0xF0..=0xF4u8 {
            for b in 0x80..=0xBFu8 {
                for c in [0x7F, 0x80, 0xBF, 0xC0] {
                    for d in [0x7F, 0x80, 0xBF, 0xC0] {
                        check(&[a, b, c, d]);
                    }
                }
            }
        }
        // Across a block's end, after ASCII blocks.
        for place in 56..72 {
            for piece in [
                &b"\xF0\x9F\x98\x80"[..],
                b"\xE2\x82\xAC",
                b"\xC3\xA9",
                b"\xED\xA0\x80",
                b"\xE2\x82",
            ] {
                let mut input = vec![b'a'; place];
                input.extend_from_slice(piece);
                input.extend(std::iter::repeat_n(b'b', 130));
                check(&input);
                check(&input[..place + piece.len()]);
            }
        }
    }
}
