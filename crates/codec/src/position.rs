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
            let last = run
                .iter()
                .rposition(|&b| b == b'\n')
                .expect("a newline was counted");
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

/// How many bytes of `haystack` equal `needle`.
///
/// ```
/// assert_eq!(utf8kit_codec::count_byte(b"a\nb\n\nc", b'\n'), 3);
/// ```
pub fn count_byte(haystack: &[u8], needle: u8) -> usize {
    count_matching(haystack, |b| b == needle)
}

/// How many characters a well-formed run holds: its bytes that are not continuation bytes.
///
/// ```
/// assert_eq!(utf8kit_codec::count_chars("h€llo😀".as_bytes()), 6);
/// ```
pub fn count_chars(run: &[u8]) -> usize {
    count_matching(run, |b| (b as i8) >= -0x40)
}

/// Counts the bytes for which `is_match` holds, 32 lanes of 8-bit counters at a time, emptied into
/// the total before they can overflow. The shape is what lets the compiler vectorise it.
#[inline(always)]
fn count_matching(haystack: &[u8], is_match: impl Fn(u8) -> bool) -> usize {
    const LANES: usize = 32;
    const ROUNDS: usize = 255;
    let mut total = 0;
    let mut blocks = haystack.chunks_exact(LANES * ROUNDS);
    for block in &mut blocks {
        let mut lanes = [0u8; LANES];
        for step in block.chunks_exact(LANES) {
            for (lane, &byte) in lanes.iter_mut().zip(step) {
                *lane += u8::from(is_match(byte));
            }
        }
        total += lanes.iter().map(|&n| usize::from(n)).sum::<usize>();
    }
    let rest = blocks.remainder();
    let mut steps = rest.chunks_exact(LANES);
    let mut lanes = [0u8; LANES];
    for step in &mut steps {
        for (lane, &byte) in lanes.iter_mut().zip(step) {
            *lane += u8::from(is_match(byte));
        }
    }
    total += lanes.iter().map(|&n| usize::from(n)).sum::<usize>();
    total + steps.remainder().iter().filter(|&&b| is_match(b)).count()
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
