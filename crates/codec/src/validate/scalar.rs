//! Validation without SIMD, for the portable level: a deterministic automaton over the byte
//! values, one table load and one shift per byte, with no branch per byte (the "shift-based
//! DFA"), and eight ASCII bytes at a time while the automaton rests between characters.
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

/// A character boundary at or before the first error of `bytes` up to which they are
/// well-formed; `bytes.len()` exactly when they are well-formed.
pub(super) fn well_formed_prefix(bytes: &[u8]) -> usize {
    let mut state = ACCEPT;
    // The end of the last block after which the automaton rested between characters.
    let mut boundary = 0;
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut at = 0;
    for block in blocks.by_ref() {
        if state & 63 == ACCEPT && is_ascii(block) {
            at += BLOCK;
            boundary = at;
            continue;
        }
        for &byte in block {
            state = ROWS[usize::from(byte)].wrapping_shr(state as u32);
        }
        at += BLOCK;
        match state & 63 {
            ACCEPT => boundary = at,
            REJECT => return boundary,
            _ => {}
        }
    }
    for &byte in blocks.remainder() {
        state = ROWS[usize::from(byte)].wrapping_shr(state as u32);
    }
    if state & 63 == ACCEPT {
        bytes.len()
    } else {
        boundary
    }
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

    /// The automaton agrees with std on every input of up to three bytes, and on every
    /// four-byte sequence that starts with a lead byte F0..F4, placed at every offset of a block.
    #[test]
    fn agrees_with_std_exhaustively() {
        let check = |input: &[u8]| {
            let ok = std::str::from_utf8(input).is_ok();
            let prefix = well_formed_prefix(input);
            assert_eq!(prefix == input.len(), ok, "{input:02X?}");
            assert!(
                std::str::from_utf8(&input[..prefix]).is_ok(),
                "{input:02X?}"
            );
        };
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
