//! Validation across SIMD blocks, against std at every border.

// Validation across blocks: the SIMD paths check 64 bytes at a time, each byte against the three
// before it, so a character cut by a block's end, and the end of the input inside or after a
// block, are where they can go wrong.

/// `validate` and `is_well_formed` give std's answer for `input`.
pub(crate) fn check_validate(input: &[u8]) {
    let std = std::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()));
    let ours = utf8kit_codec::validate(input).map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(ours, std, "validate {input:02X?}");
    assert_eq!(
        utf8kit_codec::is_well_formed(input),
        std.is_ok(),
        "is_well_formed {input:02X?}"
    );
}

/// `piece` at byte `place` of well-formed text made of `filler` (ASCII before it where the
/// filler's characters do not divide `place`), with `after` bytes of the same text after it.
fn placed(piece: &[u8], place: usize, filler: char, after: usize) -> Vec<u8> {
    let width = filler.len_utf8();
    let mut input = "a".repeat(place % width).into_bytes();
    input.extend(filler.to_string().repeat(place / width).bytes());
    input.extend_from_slice(piece);
    input.extend(filler.to_string().repeat(after.div_ceil(width)).bytes());
    input
}

/// The places around the borders of the first two blocks, and the start.
const BORDERS: [usize; 16] = [
    0, 1, 2, 3, 59, 60, 61, 62, 63, 64, 65, 66, 124, 125, 126, 127,
];

/// Places after runs of ASCII long enough to be passed over four blocks at a time.
const AFTER_ASCII_RUNS: [usize; 8] = [319, 320, 321, 383, 384, 575, 576, 577];

#[test]
fn every_two_byte_input_at_every_border_of_two_blocks() {
    let places = |filler| {
        let long = if filler == 'a' {
            &AFTER_ASCII_RUNS[..]
        } else {
            &[]
        };
        BORDERS.iter().chain(long).copied()
    };
    for filler in ['a', 'é', '€', '😀'] {
        for place in places(filler) {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    // Followed by more text, and ending the input.
                    check_validate(&placed(&[a, b], place, filler, 70));
                    check_validate(&placed(&[a, b], place, filler, 0));
                }
            }
        }
    }
}

#[test]
fn every_three_byte_input_from_a_lead_across_a_block_border() {
    for lead in 0xC0..=0xFFu8 {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                for (place, after) in [(62, 0), (62, 5), (63, 70), (126, 0)] {
                    check_validate(&placed(&[lead, b, c], place, 'a', after));
                }
            }
        }
    }
}

#[test]
fn every_four_byte_character_and_its_cuts_at_every_border() {
    // Every lead F0..F4 with the continuations that decide its range, cut after each byte.
    for lead in 0xF0..=0xF4u8 {
        for second in [0x80, 0x8F, 0x90, 0xBF] {
            let whole = [lead, second, 0xA0, 0x80];
            for len in 1..=4 {
                for &place in &BORDERS {
                    for filler in ['a', 'é', '😀'] {
                        check_validate(&placed(&whole[..len], place, filler, 0));
                        check_validate(&placed(&whole[..len], place, filler, 9));
                    }
                }
            }
        }
    }
}
