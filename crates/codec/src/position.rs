//! Positions (SPEC 1.4) and the bulk counts that keep them up to date.
//!
//! Lines and columns over long well-formed runs are counted in bulk: the counting loops below are
//! written so that the compiler turns them into vector compares and adds (16 or 32 bytes a step),
//! which is what keeps position tracking off the profile of a clean file.

/// Where a unit starts: byte offset, line and column, as SPEC 1.4 defines them.
///
/// `line` is 1 + the number of LF bytes before the unit; `column` is 1 + the number of units
/// between the last LF and the unit (an ill-formed unit counts as one column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// 0-based byte offset from the start of the input.
    pub byte_offset: u64,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in units.
    pub column: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl Position {
    /// The start of an input: offset 0, line 1, column 1.
    pub const START: Position = Position {
        byte_offset: 0,
        line: 1,
        column: 1,
    };

    /// Moves past a well-formed run (or any bytes in which each non-continuation byte starts one
    /// unit), counting its lines and characters.
    ///
    /// ```
    /// use utf8kit_codec::Position;
    /// let mut pos = Position::START;
    /// pos.advance_over("héllo\nwörld".as_bytes());
    /// assert_eq!((pos.byte_offset, pos.line, pos.column), (13, 2, 6));
    /// ```
    #[inline]
    pub fn advance_over(&mut self, run: &[u8]) {
        if run.is_empty() {
            return;
        }
        self.byte_offset += run.len() as u64;
        let newlines = count_byte(run, b'\n');
        if newlines == 0 {
            self.column += count_chars(run) as u64;
        } else {
            self.line += newlines as u64;
            let last = last_newline(run).expect("a newline was counted");
            self.column = 1 + count_chars(&run[last + 1..]) as u64;
        }
    }

    /// Moves past one unit of `len` bytes that is not a line feed: one column further.
    #[inline]
    pub fn advance_unit(&mut self, len: usize) {
        self.byte_offset += len as u64;
        self.column += 1;
    }
}

/// Where the last line feed of `haystack` is, eight bytes at a time from its end.
fn last_newline(haystack: &[u8]) -> Option<usize> {
    let mut end = haystack.len();
    while end >= 8 {
        let word = u64::from_le_bytes(haystack[end - 8..end].try_into().expect("eight bytes"));
        let newlines = swar::zero_bytes(word ^ swar::splat(b'\n'));
        if newlines != 0 {
            return Some(end - 8 + (63 - newlines.leading_zeros() as usize) / 8);
        }
        end -= 8;
    }
    haystack[..end].iter().rposition(|&b| b == b'\n')
}

/// How many bytes of `haystack` equal `needle`.
///
/// ```
/// assert_eq!(utf8kit_codec::position::count_byte(b"a\nb\n\nc", b'\n'), 3);
/// ```
pub fn count_byte(haystack: &[u8], needle: u8) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::allows(crate::simd::Level::Avx2) {
        // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 processor has it.
        return unsafe { sse2::count::<false>(haystack, needle) };
    }
    swar::count(haystack, |word| {
        swar::zero_bytes(word ^ swar::splat(needle))
    })
}

/// How many characters a well-formed run holds: its bytes that are not continuation bytes.
///
/// ```
/// assert_eq!(utf8kit_codec::position::count_chars("h€llo😀".as_bytes()), 6);
/// ```
pub fn count_chars(run: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::allows(crate::simd::Level::Avx2) {
        // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 processor has it.
        return unsafe { sse2::count::<true>(run, 0) };
    }
    run.len() - swar::count(run, swar::continuation_bytes)
}

/// Counting eight bytes at a time in a `u64`, without SIMD: where the portable level counts.
/// Each test marks the bytes it counts with their high bit; the marks of up to 255 words are
/// added up bytewise, then across the bytes.
pub(crate) mod swar {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

    /// `byte` in every byte of a word.
    pub(super) const fn splat(byte: u8) -> u64 {
        u64::from_ne_bytes([byte; 8])
    }

    /// The high bit of each byte of `word` that is zero.
    pub(super) fn zero_bytes(word: u64) -> u64 {
        !(((word & LOW7) + LOW7) | word) & HIGH
    }

    /// The high bit of each byte of `word` that is a continuation byte (10xxxxxx).
    pub(super) fn continuation_bytes(word: u64) -> u64 {
        word & !(word << 1) & HIGH
    }

    /// How many bytes of `bytes` `marks` marks.
    pub(crate) fn count(bytes: &[u8], marks: impl Fn(u64) -> u64) -> usize {
        // Bytewise sums of at most 255 marks, so that no byte overflows: runs of 255 words,
        // each a loop of fixed length, then the words left.
        let sum = |words: &mut std::slice::ChunksExact<'_, u8>| {
            let mut sums = 0u64;
            for word in words {
                let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
                sums += marks(word) >> 7;
            }
            // Pairs of bytes into 16-bit lanes (at most 510 each), then the lanes together.
            let pairs = (sums & 0x00FF_00FF_00FF_00FF) + ((sums >> 8) & 0x00FF_00FF_00FF_00FF);
            (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
        };
        let mut runs = bytes.chunks_exact(8 * 255);
        let mut total = runs
            .by_ref()
            .map(|run| sum(&mut run.chunks_exact(8)))
            .sum::<usize>();
        let mut words = runs.remainder().chunks_exact(8);
        total += sum(&mut words);
        let mut tail = [0u8; 8];
        let rest = words.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        let in_tail = marks(u64::from_le_bytes(tail)).count_ones() as usize;
        // The padding's zeros are no bytes of the input (every test marks all or none of them).
        let padding = (marks(0) >> 7).count_ones() as usize * (8 - rest.len()) / 8;
        total + in_tail - padding
    }
}

/// Byte counting with SSE2. The portable loops were measured to come out of the compiler badly
/// vectorised (byte loads and unpacks), and counting is most of what a streamed check does.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        _mm_add_epi64, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cvtsi128_si64, _mm_loadu_si128,
        _mm_sad_epu8, _mm_set1_epi8, _mm_setzero_si128, _mm_srli_si128, _mm_sub_epi8,
    };

    /// Counts the bytes equal to `needle`, or with `CHARS` the bytes that are not continuation
    /// bytes, 16 at a time; lane counters hold at most 255 steps before they are summed.
    #[target_feature(enable = "sse2")]
    pub(super) fn count<const CHARS: bool>(haystack: &[u8], needle: u8) -> usize {
        let wanted = _mm_set1_epi8(needle as i8);
        // As signed bytes, continuation bytes are -128..=-65; every other byte is greater.
        let last_continuation = _mm_set1_epi8(-65);
        let mut blocks = haystack.chunks_exact(16);
        let mut total = _mm_setzero_si128();
        let mut lanes = _mm_setzero_si128();
        let mut steps = 0;
        for block in &mut blocks {
            // SAFETY: `block` is 16 readable bytes and `_mm_loadu_si128` has no alignment need.
            let block = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
            let mask = if CHARS {
                _mm_cmpgt_epi8(block, last_continuation)
            } else {
                _mm_cmpeq_epi8(block, wanted)
            };
            // A marked lane is -1: subtracting it counts one.
            lanes = _mm_sub_epi8(lanes, mask);
            steps += 1;
            if steps == 255 {
                total = _mm_add_epi64(total, _mm_sad_epu8(lanes, _mm_setzero_si128()));
                lanes = _mm_setzero_si128();
                steps = 0;
            }
        }
        total = _mm_add_epi64(total, _mm_sad_epu8(lanes, _mm_setzero_si128()));
        let sum = _mm_cvtsi128_si64(total) + _mm_cvtsi128_si64(_mm_srli_si128::<8>(total));
        let tail = blocks.remainder().iter();
        let tail = if CHARS {
            tail.filter(|&&b| (b as i8) > -65).count()
        } else {
            tail.filter(|&&b| b == needle).count()
        };
        sum as usize + tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_naive_loops_at_every_length() {
        let text: Vec<u8> = "ab\ncdé€\n😀xyz\n\n"
            .repeat(1200)
            .into_bytes()
            .into_iter()
            .chain(std::iter::repeat_n(b'\n', 300))
            .collect();
        for len in (0..200).chain([8159, 8160, 8161, 16320, text.len()]) {
            let slice = &text[..len];
            let lf = slice.iter().filter(|&&b| b == b'\n').count();
            let chars = slice.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            assert_eq!(count_byte(slice, b'\n'), lf, "len {len}");
            assert_eq!(count_chars(slice), chars, "len {len}");
            // The portable level's counts, whatever level this machine runs the above at.
            let newlines = swar::count(slice, |w| swar::zero_bytes(w ^ swar::splat(b'\n')));
            assert_eq!(newlines, lf, "len {len}");
            assert_eq!(
                len - swar::count(slice, swar::continuation_bytes),
                chars,
                "len {len}"
            );
        }
        // Every byte value as the needle, over every byte value (and zeros, as the padding is).
        let every: Vec<u8> = (0..=255u8)
            .cycle()
            .take(256 * 9 + 5)
            .chain([0, 0, 0])
            .collect();
        for needle in 0..=255u8 {
            for len in [0, 3, 255, 2048, 2311, every.len()] {
                let slice = &every[..len];
                let expected = slice.iter().filter(|&&b| b == needle).count();
                let counted = swar::count(slice, |w| swar::zero_bytes(w ^ swar::splat(needle)));
                assert_eq!(counted, expected, "needle {needle:02X}, len {len}");
            }
        }
        let conts = every.iter().filter(|&&b| b & 0xC0 == 0x80).count();
        assert_eq!(swar::count(&every, swar::continuation_bytes), conts);
        // Every byte marked, so that each byte's sum reaches its bound in every run of words.
        for len in [8 * 255 - 1, 8 * 255, 8 * 255 + 1, 8 * 255 * 2 + 7, 8 * 300] {
            let newlines = vec![b'\n'; len];
            let counted = swar::count(&newlines, |w| swar::zero_bytes(w ^ swar::splat(b'\n')));
            assert_eq!(counted, len, "{len} newlines");
        }
    }

    #[test]
    fn the_last_newline_is_found_at_every_place_and_length() {
        // Newlines beside every byte value (0x0A with its neighbours, which a borrow could
        // make look like one), at every place of the words read from the end.
        let pool = [b'\n', 0x09, 0x0B, 0x00, 0x8A, 0xFF, b'a'];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..90 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        pool[(seed % pool.len() as u64) as usize]
                    })
                    .collect();
                let want = bytes.iter().rposition(|&b| b == b'\n');
                assert_eq!(last_newline(&bytes), want, "{bytes:02X?}");
            }
        }
    }

    #[test]
    fn advance() {
        let mut pos = Position::START;
        pos.advance_over(b"");
        assert_eq!(pos, Position::START);
        pos.advance_over(b"ab");
        assert_eq!((pos.line, pos.column), (1, 3));
        pos.advance_unit(2);
        assert_eq!((pos.byte_offset, pos.line, pos.column), (4, 1, 4));
        pos.advance_over(b"\n");
        assert_eq!((pos.byte_offset, pos.line, pos.column), (5, 2, 1));
    }
}
