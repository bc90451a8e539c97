//! Reading a line back as the windows-1252 bytes it was decoded from: the first step of the
//! shortcut that answers most mojibake ([`super::whole_line_through_windows_1252`]).

use super::tables;

/// Each character's byte in windows-1252, put in `bytes`; or `None` when a character has none,
/// or is a C1 control that stands for a byte windows-1252 defines (Latin-1 was read: the general
/// judging names that layer and weighs it). Every other character is then the one windows-1252
/// reads its byte as (a test checks the tables), which the shortcut reads back.
pub(super) fn windows_1252_bytes(text: &str, bytes: &mut Vec<u8>) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512_vbmi2() {
            // SAFETY: the processor has AVX-512 F, BW, VBMI and VBMI2, checked just above.
            return unsafe { avx512::windows_1252_bytes(text.as_bytes(), bytes) };
        }
    }
    by_char(text.as_bytes(), bytes)
}

/// Whether the processor has what [`avx512::windows_1252_bytes`] needs.
#[cfg(target_arch = "x86_64")]
fn has_avx512_vbmi2() -> bool {
    crate::simd::has_avx512_vbmi() && std::is_x86_feature_detected!("avx512vbmi2")
}

/// [`windows_1252_bytes`] a character at a time.
fn by_char(input: &[u8], bytes: &mut Vec<u8>) -> Option<()> {
    // No character has more bytes in windows-1252 than in UTF-8: written in place, a byte at a
    // time, without growing.
    bytes.clear();
    bytes.resize(input.len(), 0);
    let (mut at, mut out) = (0, 0);
    while let Some(&b) = input.get(at) {
        let byte = match b {
            0..0x80 => {
                // ASCII is itself, eight bytes at a time while they last.
                let run = copy_ascii(&input[at..], &mut bytes[out..]);
                at += run;
                out += run;
                continue;
            }
            0xC2..0xE0 => {
                let low = usize::from(input[at + 1] & 0x3F);
                let byte = WINDOWS_1252_OF_2[usize::from(b - 0xC2) << 6 | low];
                at += 2;
                byte
            }
            0xE2 => {
                let high = usize::from(input[at + 1] & 0x3F);
                let byte = WINDOWS_1252_OF_E2[high << 6 | usize::from(input[at + 2] & 0x3F)];
                at += 3;
                byte
            }
            _ => 0,
        };
        if byte == 0 {
            return None;
        }
        bytes[out] = byte;
        out += 1;
    }
    bytes.truncate(out);
    Some(())
}

/// Copies the ASCII bytes `input` starts with to `output` (at least as long), eight at a time,
/// and returns how many there are. The word that holds the end of the run is written whole:
/// what follows the run in `output` is the caller's to write over. (A call of `memcpy` for each
/// run, most of them a word or two long, took a sixteenth of the repair's time.)
fn copy_ascii(input: &[u8], output: &mut [u8]) -> usize {
    let mut run = 0;
    while let (Some(word), Some(to)) = (input.get(run..run + 8), output.get_mut(run..run + 8)) {
        to.copy_from_slice(word);
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let high = word & 0x8080_8080_8080_8080;
        if high != 0 {
            return run + (high.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    while let Some(&b) = input.get(run).filter(|b| b.is_ascii()) {
        output[run] = b;
        run += 1;
    }
    run
}

/// The byte windows-1252 has for each 2-byte character (by its lead C2..DF and the low six bits
/// of its second byte), 0 for none, and for the C1 controls that stand for a byte windows-1252
/// defines (see [`windows_1252_bytes`]).
static WINDOWS_1252_OF_2: [u8; 4096] = windows_1252_table(2);

/// The same for the 3-byte characters that start with E2 (by the low six bits of their second
/// and third bytes): the punctuation, "€" and "™".
static WINDOWS_1252_OF_E2: [u8; 4096] = windows_1252_table(3);

/// [`WINDOWS_1252_OF_2`] (`len` 2) or [`WINDOWS_1252_OF_E2`] (3), made by the compiler from the
/// table of windows-1252. A test checks them against [`byte_in`] for every character.
const fn windows_1252_table(len: usize) -> [u8; 4096] {
    let mut table = [0u8; 4096];
    let mut byte = 0x80;
    while byte <= 0xFF {
        let c = tables::HIGH_HALF[0][byte - 0x80] as usize;
        let is_undefined = c == byte;
        if len == 2 && c < 0x800 && (c >= 0xA0 || is_undefined) {
            table[((c >> 6) - 2) << 6 | (c & 0x3F)] = byte as u8;
        }
        if len == 3 && c >= 0x2000 && c < 0x3000 {
            table[((c >> 6) & 0x3F) << 6 | (c & 0x3F)] = byte as u8;
        }
        byte += 1;
    }
    table
}

/// The leads of the characters windows-1252 has bytes for, C2, C3, C5, C6, CB and E2, as a set
/// of the bytes C0..FF by their low six bits (a test checks that the tables hold no other).
#[cfg(any(target_arch = "x86_64", test))]
const LEADS_1252: [u8; 64] = {
    let mut leads = [0; 64];
    let mut i = 0;
    while i < 64 {
        let lead = 0xC0 + i;
        let row = if lead >= 0xC2 && lead < 0xE0 {
            (lead - 0xC2) * 64
        } else {
            usize::MAX
        };
        let mut any = lead == 0xE2;
        let mut j = 0;
        while row != usize::MAX && j < 64 {
            any |= WINDOWS_1252_OF_2[row + j] != 0;
            j += 1;
        }
        leads[i] = any as u8;
        i += 1;
    }
    leads
};

/// [`windows_1252_bytes`] 64 bytes at a time with AVX-512.
///
/// Each byte is read with the two before it. ASCII is itself; a byte that ends a 2- or 3-byte
/// character takes that character's byte, looked up in the row of [`WINDOWS_1252_OF_2`] or
/// [`WINDOWS_1252_OF_E2`] its lead (or middle byte) picks, 64 entries a row, which one VBMI
/// permute reads; the bytes that end a character, and ASCII, are then packed together. A lead
/// windows-1252 has no character under, or a character it has no byte for (0 in its row), ends
/// the reading: `None`, as a character at a time.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{LEADS_1252, WINDOWS_1252_OF_2, WINDOWS_1252_OF_E2};

    /// The indices that put, beside each byte of a block, the byte one before (`back` 1) or two
    /// before (2), from the block before for the first ones.
    const fn back(back: u8) -> [u8; 64] {
        let mut index = [0; 64];
        let mut i = 0;
        while i < 64 {
            index[i as usize] = if i >= back {
                0x40 | (i - back)
            } else {
                64 - back + i
            };
            i += 1;
        }
        index
    }

    /// # Safety
    ///
    /// The processor must have AVX-512 F, BW, VBMI and VBMI2; `input` must be well-formed UTF-8.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
    pub(super) unsafe fn windows_1252_bytes(input: &[u8], bytes: &mut Vec<u8>) -> Option<()> {
        let load = |row: &[u8]| {
            debug_assert_eq!(row.len(), 64);
            // SAFETY: 64 bytes are read from a slice of 64.
            unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
        };
        // The rows of the leads and middle bytes windows-1252 has characters under.
        let row_2 = |lead: usize| load(&WINDOWS_1252_OF_2[(lead - 0xC2) * 64..][..64]);
        let row_3 = |middle: usize| load(&WINDOWS_1252_OF_E2[(middle - 0x80) * 64..][..64]);
        let rows_2 = [0xC2, 0xC3, 0xC5, 0xC6, 0xCB].map(|lead| (lead as i8, row_2(lead)));
        let rows_3 = [0x80, 0x82, 0x84].map(|middle| (middle as i8, row_3(middle)));
        // Made by the compiler: called here, `back` built both arrays at every call (a sixth of
        // this function's time).
        const BACK_1: [u8; 64] = back(1);
        const BACK_2: [u8; 64] = back(2);
        let leads = load(&LEADS_1252);
        let back_1 = load(&BACK_1);
        let back_2 = load(&BACK_2);
        let byte = |b: u8| _mm512_set1_epi8(b as i8);
        let is_cont = |v| _mm512_cmpeq_epi8_mask(_mm512_and_si512(v, byte(0xC0)), byte(0x80));
        // Written a whole block at a time, each block's bytes packed at the front: there is room
        // for a block past the last byte.
        bytes.clear();
        bytes.reserve(input.len() + 64);
        let (mut at, mut out) = (0, 0);
        let mut before = _mm512_setzero_si512();
        while at < input.len() {
            let live = u64::MAX >> (64 - (input.len() - at).min(64));
            // SAFETY: the bytes read are those of `live`, which lie in `input`.
            let here = unsafe { _mm512_maskz_loadu_epi8(live, input.as_ptr().add(at).cast()) };
            let one_back = _mm512_permutex2var_epi8(before, back_1, here);
            let two_back = _mm512_permutex2var_epi8(before, back_2, here);
            let is_lead = _mm512_cmpge_epu8_mask(here, byte(0xC0));
            let lead_known = _mm512_permutexvar_epi8(here, leads);
            let known = _mm512_test_epi8_mask(lead_known, lead_known);
            if is_lead & !known != 0 {
                return None;
            }
            let ascii = _mm512_cmplt_epu8_mask(here, byte(0x80)) & live;
            let cont = is_cont(here);
            let after_lead = _mm512_cmpge_epu8_mask(one_back, byte(0xC2))
                & _mm512_cmplt_epu8_mask(one_back, byte(0xE0));
            let two = cont & after_lead;
            let three = cont & is_cont(one_back) & _mm512_cmpeq_epi8_mask(two_back, byte(0xE2));
            let mut value = _mm512_maskz_mov_epi8(ascii, here);
            for (lead, row) in rows_2 {
                let of = two & _mm512_cmpeq_epi8_mask(one_back, _mm512_set1_epi8(lead));
                value = _mm512_mask_permutexvar_epi8(value, of, here, row);
            }
            for (middle, row) in rows_3 {
                let of = three & _mm512_cmpeq_epi8_mask(one_back, _mm512_set1_epi8(middle));
                value = _mm512_mask_permutexvar_epi8(value, of, here, row);
            }
            let ends = two | three;
            if _mm512_testn_epi8_mask(value, value) & ends != 0 {
                return None;
            }
            let keep = ascii | ends;
            let packed = _mm512_maskz_compress_epi8(keep, value);
            // SAFETY: `out` is at most `at` (no character has more bytes in windows-1252 than
            // in UTF-8), and the room reserved reaches 64 bytes past the input's length.
            unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().add(out).cast(), packed) };
            out += keep.count_ones() as usize;
            before = here;
            at += 64;
        }
        // SAFETY: the first `out` bytes were written, each block's after the last one's.
        unsafe { bytes.set_len(out) };
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What each path gives: the AVX-512 one where the processor has it (the other's answer
    /// stands in where it does not, which the test output says once), and the one that reads a
    /// character at a time.
    fn both_paths(text: &str) -> [Option<Vec<u8>>; 2] {
        let mut bytes = Vec::new();
        let by_char = by_char(text.as_bytes(), &mut bytes).map(|()| bytes.clone());
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx512_vbmi2() {
                // SAFETY: the processor has them, checked just above.
                let simd = unsafe { avx512::windows_1252_bytes(text.as_bytes(), &mut bytes) };
                return [by_char, simd.map(|()| bytes.clone())];
            }
            static MISSING: std::sync::Once = std::sync::Once::new();
            MISSING.call_once(|| eprintln!("no AVX-512 VBMI2 here: the 64-byte path is untested"));
        }
        [by_char.clone(), by_char]
    }

    /// The tables hold bytes under the leads C2, C3, C5, C6 and CB, and E2 with the middle
    /// bytes 80, 82 and 84: the rows the AVX-512 path looks up, and no other.
    #[test]
    fn the_tables_hold_the_rows_the_simd_path_reads() {
        let rows = |table: &[u8; 4096]| -> Vec<usize> {
            (0..64)
                .filter(|&r| table[r * 64..][..64].iter().any(|&b| b != 0))
                .collect()
        };
        assert_eq!(rows(&WINDOWS_1252_OF_2), [0, 1, 3, 4, 9]);
        assert_eq!(rows(&WINDOWS_1252_OF_E2), [0, 2, 4]);
        let leads: Vec<usize> = (0..64).filter(|&i| LEADS_1252[i] != 0).collect();
        assert_eq!(leads, [0x02, 0x03, 0x05, 0x06, 0x0B, 0x22]);
    }

    /// Both paths read every character alike, at every place of a block and across blocks.
    #[test]
    fn both_paths_read_every_character_alike() {
        let mut read = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            for at in [0, 1, 61, 62, 63, 64, 65, 126] {
                let text = format!("{}{c}b", "a".repeat(at));
                let [by_char, simd] = both_paths(&text);
                assert_eq!(simd, by_char, "{c:?} at {at}");
                read += usize::from(at == 0 && by_char.is_some());
            }
        }
        assert_eq!(read, 128 + 27 + 96 + 5);
    }

    fn windows_1252_text() -> impl Strategy<Value = String> {
        let chars: Vec<char> =
            "aZ \n\0€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ\u{81}\u{8D}\u{80}\u{9F}\u{A0}¡©ÀÃÿ中ё😀"
                .chars()
                .collect();
        proptest::collection::vec(proptest::sample::select(chars), 0..300)
            .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        /// Both paths agree on random lines of the characters windows-1252 has and some it
        /// has not, of every length.
        #[test]
        fn both_paths_agree_on_random_lines(text in windows_1252_text()) {
            let [by_char, simd] = both_paths(&text);
            prop_assert_eq!(simd, by_char);
        }
    }

    /// `copy_ascii` counts and copies the ASCII bytes a text starts with, whatever their number and
    /// wherever the first other byte is, and writes nothing past the word that holds the run's end.
    #[test]
    fn ascii_runs_are_copied_at_every_length() {
        for len in 0..40 {
            let ascii: Vec<u8> = (0..len).map(|i| b'a' + i as u8 % 26).collect();
            let mut out = vec![0; len];
            assert_eq!(copy_ascii(&ascii, &mut out), len);
            assert_eq!(out, ascii);
            for at in 0..len {
                let mut text = ascii.clone();
                text[at] = 0xC3;
                let mut out = vec![0; len];
                assert_eq!(copy_ascii(&text, &mut out), at, "{len} {at}");
                assert_eq!(out[..at], ascii[..at], "{len} {at}");
                // A whole word holds the end, or the run ends in the bytes copied one by one.
                let word_end = at / 8 * 8 + 8;
                let written = if word_end <= len { word_end } else { at };
                assert!(out[written..].iter().all(|&b| b == 0), "{len} {at}");
            }
        }
    }
}
