//! A line as the judging reads it: its characters and their bytes in every encoding, read once.

use crate::automaton::{MaskTable, Masks, Pending};
use crate::bytes::bytes_of;
use crate::scripts::is_c1_control;
use crate::spare::{SPARE_CHARS, SPARE_ROWS, give_back, spare};
use crate::tables::COUNT;

/// A line as the judging reads it: its characters, and each one's byte in every encoding; and
/// what one pass over it tells before any judging.
pub(crate) struct Line {
    pub(crate) chars: Vec<char>,
    pub(crate) rows: Vec<&'static [u8; COUNT]>,
    /// [`possible_encodings`] of the line.
    pub(crate) possible: u16,
    /// For each encoding, how many characters it reads as a byte 80..FF.
    pub(crate) readable: [usize; COUNT],
    /// The line holds a C1 control.
    pub(crate) has_c1: bool,
}

/// The rows of ASCII characters: each is its own byte in every encoding.
pub(crate) static ASCII_ROWS: [[u8; COUNT]; 128] = {
    let mut rows = [[0u8; COUNT]; 128];
    let mut b = 0;
    while b < 128 {
        rows[b] = [b as u8; COUNT];
        b += 1;
    }
    rows
};

/// The row of a character no encoding has.
pub(crate) static NO_BYTES: [u8; COUNT] = [0; COUNT];

impl Line {
    /// One pass over the characters of `text` gives their rows, the encodings that may hold a
    /// candidate (as [`possible_encodings`], a test checks) and what each encoding could read.
    pub(crate) fn new(text: &str) -> Line {
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
    pub(crate) fn byte(&self, i: usize, e: usize) -> u8 {
        self.rows[i][e]
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        give_back(&SPARE_CHARS, std::mem::take(&mut self.chars));
        give_back(&SPARE_ROWS, std::mem::take(&mut self.rows));
    }
}
