//! The fast paths of UTF-16 and Latin-1 to UTF-8: each code unit becomes one to three bytes.
//!
//! A plain loop spends its time deciding, unit by unit, how many bytes to write. The SSSE3
//! kernels here compute every byte of eight units at once, then pack them together with one
//! byte shuffle chosen from a table by the units' lengths (the technique of the simdutf
//! library). They stop short of what they do not handle (a surrogate, the last
//! few units) and the scalar code of the callers takes over there.
//!
//! Output goes into the spare capacity of a `Vec` through [`Out`], so that nothing is zeroed
//! before it is written.

use std::mem::MaybeUninit;

/// Uninitialised room at the end of a `Vec<u8>`, written from the front.
///
/// Invariant: `len <= buf.len()` and `buf[..len]` has been written.
pub(crate) struct Out<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    len: usize,
}

impl Out<'_> {
    /// How many more bytes fit.
    #[inline]
    pub(crate) fn room(&self) -> usize {
        self.buf.len() - self.len
    }

    /// Appends bytes. Panics if they do not fit: callers reserve for the worst case.
    #[inline]
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        let slots = &mut self.buf[self.len..self.len + bytes.len()];
        for (slot, &byte) in slots.iter_mut().zip(bytes) {
            slot.write(byte);
        }
        self.len += bytes.len();
    }

    /// Writes the eight bytes of `word`, its lowest first, and keeps the first `keep` (at most
    /// eight) of them.
    #[inline(always)]
    pub(crate) fn push_word(&mut self, word: u64, keep: usize) {
        assert!(self.room() >= 8);
        // SAFETY: the assertion leaves eight writable bytes at `len`, and `write_unaligned` has
        // no alignment need. They are initialised by the write, so `buf[..len + keep]` stays
        // written.
        unsafe {
            self.buf
                .as_mut_ptr()
                .add(self.len)
                .cast::<[u8; 8]>()
                .write_unaligned(word.to_le_bytes());
        }
        self.len += keep.min(8);
    }

    /// Writes `first` as [`push_word`](Self::push_word) does, keeping `first_keep` of its
    /// bytes, then `second` after them, keeping `second_keep`.
    #[inline(always)]
    pub(crate) fn push_words(
        &mut self,
        first: u64,
        first_keep: usize,
        second: u64,
        second_keep: usize,
    ) {
        assert!(self.room() >= 16 && first_keep <= 8 && second_keep <= 8);
        // SAFETY: the assertion leaves sixteen writable bytes at `len`, the second word starts
        // at most eight bytes after the first, and `write_unaligned` has no alignment need.
        // What is kept was written, so `buf[..len]` stays written.
        unsafe {
            let at = self.buf.as_mut_ptr().add(self.len).cast::<u8>();
            at.cast::<[u8; 8]>().write_unaligned(first.to_le_bytes());
            at.add(first_keep)
                .cast::<[u8; 8]>()
                .write_unaligned(second.to_le_bytes());
        }
        self.len += first_keep + second_keep;
    }

    /// Appends the UTF-8 form of a Latin-1 byte (byte n is U+00nn).
    #[inline]
    pub(crate) fn push_latin1(&mut self, byte: u8) {
        if byte < 0x80 {
            self.push(&[byte]);
        } else {
            self.push(&[0xC0 | byte >> 6, 0x80 | (byte & 0x3F)]);
        }
    }

    /// Appends a character's UTF-8 form.
    #[inline]
    pub(crate) fn push_char(&mut self, c: char) {
        self.push(c.encode_utf8(&mut [0; 4]).as_bytes());
    }

    /// Stores 16 bytes at the end and keeps the first `keep` of them.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn store16(&mut self, bytes: std::arch::x86_64::__m128i, keep: usize) {
        assert!(self.room() >= 16 && keep <= 16);
        // SAFETY: the assertion leaves 16 writable bytes at `len`, and `_mm_storeu_si128` has
        // no alignment need. The 16 bytes are initialised by the store, so `buf[..len + keep]`
        // stays written.
        unsafe {
            std::arch::x86_64::_mm_storeu_si128(self.buf.as_mut_ptr().add(self.len).cast(), bytes);
        }
        self.len += keep;
    }
}

/// Reserves `room` bytes at the end of `dst`, lets `fill` write into them, and keeps what it
/// wrote.
pub(crate) fn write_into<R>(dst: &mut Vec<u8>, room: usize, fill: impl FnOnce(&mut Out) -> R) -> R {
    dst.reserve(room);
    let start = dst.len();
    let mut out = Out {
        buf: &mut dst.spare_capacity_mut()[..room],
        len: 0,
    };
    let result = fill(&mut out);
    let written = out.len;
    // SAFETY: by the invariant of `Out`, the first `written` bytes of the spare capacity have
    // been written, and `written <= room` fits in the capacity reserved above.
    unsafe { dst.set_len(start + written) };
    result
}

/// Converts leading UTF-16 code units of `src` (an even number of bytes), eight at a time;
/// returns how many bytes of `src` it consumed. It stops before a block of eight that holds an
/// unpaired surrogate, before the last few units, and when `out` runs short; then it is up to
/// the caller. It never stops between the halves of a surrogate pair.
#[inline]
pub(crate) fn utf16(src: &[u8], big_endian: bool, out: &mut Out) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::has_avx2() {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { avx2::utf16(src, big_endian, out) };
        }
        if crate::simd::allows(crate::simd::Level::Avx2) && std::is_x86_feature_detected!("ssse3") {
            // SAFETY: the processor has SSSE3, checked just above.
            return unsafe { ssse3::utf16(src, big_endian, out) };
        }
    }
    portable::utf16(src, big_endian, out)
}

/// Converts leading Latin-1 bytes of `src`, sixteen at a time; returns how many it consumed.
#[inline]
pub(crate) fn latin1(src: &[u8], out: &mut Out) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::allows(crate::simd::Level::Avx2) && std::is_x86_feature_detected!("ssse3") {
            // SAFETY: the processor has SSSE3, checked just above.
            return unsafe { ssse3::latin1(src, out) };
        }
    }
    portable::latin1(src, out)
}

/// The same without SIMD (the portable level, and processors without SSSE3): UTF-16 four units
/// at a time, each looked up in a table; Latin-1 a run of ASCII at a time.
mod portable {
    use super::Out;

    /// For every UTF-16 unit: its UTF-8 bytes (bits 0..24, the first lowest) and how many bits
    /// they take (bits 24..32). A surrogate has two of its pair's four bytes; bits 4 and 5 of
    /// the third come from the high surrogate, which holds them in a third byte it does not
    /// count, the rest of it from the low one.
    static UTF8_OF_UNIT: [u32; 0x10000] = {
        let mut table = [0; 0x10000];
        let mut unit = 0;
        while unit < 0x10000 {
            let (bytes, len) = match unit {
                0..0x80 => (unit, 1),
                0x80..0x800 => (0xC0 | unit >> 6 | (0x80 | unit & 0x3F) << 8, 2),
                0xD800..0xDC00 => {
                    // The pair's code point above its lowest ten bits.
                    let top = unit - 0xD800 + 0x40;
                    let third = (unit & 3) << 4;
                    (
                        0xF0 | top >> 8 | (0x80 | (top >> 2 & 0x3F)) << 8 | third << 16,
                        2,
                    )
                }
                0xDC00..0xE000 => (0x80 | (unit >> 6 & 0xF) | (0x80 | unit & 0x3F) << 8, 2),
                _ => (
                    0xE0 | unit >> 12
                        | (0x80 | (unit >> 6 & 0x3F)) << 8
                        | (0x80 | unit & 0x3F) << 16,
                    3,
                ),
            };
            table[unit as usize] = bytes | (8 * len) << 24;
            unit += 1;
        }
        table
    };

    /// Converts leading UTF-16 units, surrogate pairs included, four at a time, each through
    /// [`UTF8_OF_UNIT`]: no branch on a unit's length or on a surrogate, which the text's words
    /// would make unpredictable. Returns how many bytes of `src` it consumed; it stops before
    /// an unpaired surrogate, before the last few units, and when `out` runs short.
    pub(super) fn utf16(src: &[u8], big_endian: bool, out: &mut Out) -> usize {
        if big_endian {
            utf16_in::<true>(src, out)
        } else {
            utf16_in::<false>(src, out)
        }
    }

    #[inline(always)]
    fn utf16_in<const BIG_ENDIAN: bool>(src: &[u8], out: &mut Out) -> usize {
        const LANES: u64 = 0x0001_0001_0001_0001;
        let units = |bytes: &[u8]| {
            let word = u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes"));
            if BIG_ENDIAN {
                ((word & 0x00FF_00FF_00FF_00FF) << 8) | ((word >> 8) & 0x00FF_00FF_00FF_00FF)
            } else {
                word
            }
        };
        // Bit 15 of each lane of `word` whose unit has these top six bits.
        let lanes_of = |word: u64, top: u64| {
            let other = ((word & (0xFC00 * LANES)) ^ (top * LANES)) >> 1;
            !(other + 0x7FFF * LANES) & (0x8000 * LANES)
        };
        let unit_of = |lanes: u64| {
            let entry = UTF8_OF_UNIT[lanes as usize & 0xFFFF];
            (u64::from(entry & 0xFF_FFFF), entry >> 24)
        };
        // Four units and the one after them (the second half of a pair that ends the four),
        // at most twelve bytes for the four and eight more for each store.
        let words = (src.len().saturating_sub(2) / 8).min(out.room().saturating_sub(16) / 12);
        let end = 8 * words;
        let mut i = 0;
        if end == 0 || lanes_of(units(src), 0xDC00) & 0x8000 != 0 {
            return 0;
        }
        // Whether the unit before the four is a high surrogate, and its third byte.
        let mut high_before = false;
        let mut third = 0;
        while i < end {
            let window: &[u8; 10] = src[i..i + 10].try_into().expect("ten bytes");
            let word = units(window);
            // Each unit is a high surrogate exactly where the next is a low one (the first
            // is no low one alone: the four before said so).
            let highs = lanes_of(word, 0xD800);
            if highs != lanes_of(units(&window[2..]), 0xDC00) {
                break;
            }
            let (b0, s0) = unit_of(word);
            let (b1, s1) = unit_of(word >> 16);
            let (b2, s2) = unit_of(word >> 32);
            let (b3, s3) = unit_of(word >> 48);
            let first = b0 | b1 << s0 | third;
            let second = b2 | b3 << s2 | (first >> (s0 + s1) & 0xFF);
            out.push_words(
                first,
                (s0 + s1) as usize / 8,
                second,
                (s2 + s3) as usize / 8,
            );
            third = second >> (s2 + s3) & 0xFF;
            high_before = highs >> 48 != 0;
            i += 8;
        }
        if high_before {
            // The second half of the pair that the last four ended with.
            let (bytes, bits) = unit_of(units(&src[i - 6..]) >> 48);
            out.push_word(bytes | third, (bits / 8) as usize);
            i += 2;
        }
        i
    }

    /// From this length on a Latin-1 input is converted as two halves at once: where each run
    /// starts depends on the length of the one before, so one walk leaves the processor
    /// waiting, and a second over the other half runs meanwhile.
    pub(super) const TWO_HALVES: usize = 2048;

    /// Converts leading Latin-1 bytes: from each place, the ASCII bytes of the next eight up to
    /// the first that is not ASCII are written in one store, then that byte's two, so that
    /// text with an accented letter in most words goes a run of ASCII at a time, not a byte.
    /// A long input is cut in two, the second half's output placed after the first's (as many
    /// bytes as the first half, and one more for each byte above 7F), and both are walked side
    /// by side.
    pub(super) fn latin1(src: &[u8], out: &mut Out) -> usize {
        if src.len() < TWO_HALVES || out.room() < 2 * src.len() + 16 {
            return latin1_walk(&mut [(src, out)])[0];
        }
        let (first, second) = src.split_at(src.len() / 2);
        let above_7f = crate::position::swar::count(first, |word| word & 0x8080_8080_8080_8080);
        let first_len = first.len() + above_7f;
        let (first_buf, second_buf) = out.buf[out.len..].split_at_mut(first_len);
        let mut first_out = Out {
            buf: first_buf,
            len: 0,
        };
        let mut second_out = Out {
            buf: second_buf,
            len: 0,
        };
        let [mut one, mut two] =
            latin1_walk(&mut [(first, &mut first_out), (second, &mut second_out)]);
        // Each goes on alone from where the other stopped, and the first half is finished to its
        // last byte, so that the second's output follows it.
        one += latin1_walk(&mut [(&first[one..], &mut first_out)])[0];
        two += latin1_walk(&mut [(&second[two..], &mut second_out)])[0];
        for &byte in &first[one..] {
            first_out.push_latin1(byte);
        }
        debug_assert_eq!(first_out.len, first_len);
        out.len += first_len + second_out.len;
        first.len() + two
    }

    /// Walks each input into its output side by side, until one of them is within a word of
    /// its end or short of room; how far each got.
    #[inline(always)]
    fn latin1_walk<const N: usize>(walks: &mut [(&[u8], &mut Out); N]) -> [usize; N] {
        let mut at = [0; N];
        loop {
            for (k, (src, out)) in walks.iter_mut().enumerate() {
                if at[k] + 8 > src.len() || out.room() < 16 {
                    return at;
                }
                let i = at[k];
                let word = u64::from_le_bytes(src[i..i + 8].try_into().expect("eight bytes"));
                // Eight when every byte is ASCII.
                let ascii = ((word & 0x8080_8080_8080_8080).trailing_zeros() / 8) as usize;
                out.push_word(word, ascii);
                // The byte after the run, written whether or not there is one (eight ASCII
                // bytes), without a branch that the text's letters would make unpredictable:
                // kept only when it is above 7F.
                let high = usize::from(ascii < 8);
                let byte = src[i + ascii.min(7)];
                let pair = u64::from(0xC0 | byte >> 6) | u64::from(0x80 | (byte & 0x3F)) << 8;
                out.push_word(pair, 2 * high);
                at[k] = i + ascii + high;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16, _mm_cmpgt_epi16,
        _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16,
        _mm_setr_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_slli_epi16, _mm_slli_si128,
        _mm_srli_epi16, _mm_subs_epu16, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpacklo_epi8,
        _mm_unpacklo_epi16,
    };

    use super::Out;

    /// A byte shuffle for each combination of lengths of four units, with the bytes it keeps.
    pub(super) struct Shuffles {
        patterns: [[u8; 16]; 256],
        pub(super) lens: [u8; 256],
    }

    /// UTF-16: unit k sits in bytes 4k..4k+3 as [lead of three, second to last, last, 0], and
    /// a unit of length l keeps bytes 4k+3-l ..= 4k+2. The index holds l - 1 in bits 2k, 2k+1;
    /// there, 3 keeps nothing.
    pub(super) static UTF16: Shuffles = {
        let mut patterns = [[0x80; 16]; 256];
        let mut lens = [0; 256];
        let mut index = 0;
        while index < 256 {
            let mut o = 0;
            let mut k = 0;
            while k < 4 {
                let len = (index >> (2 * k) & 3) + 1;
                if len <= 3 {
                    let mut byte = 4 * k + 3 - len;
                    while byte <= 4 * k + 2 {
                        patterns[index][o] = byte as u8;
                        o += 1;
                        byte += 1;
                    }
                }
                k += 1;
            }
            lens[index] = o as u8;
            index += 1;
        }
        Shuffles { patterns, lens }
    };

    /// Latin-1: byte k sits in bytes 2k, 2k+1 as [lead, continuation] when it is not ASCII
    /// (bit k of the index) and as [byte, 0] when it is.
    static LATIN1: Shuffles = {
        let mut patterns = [[0x80; 16]; 256];
        let mut lens = [0; 256];
        let mut index = 0;
        while index < 256 {
            let mut o = 0;
            let mut k = 0;
            while k < 8 {
                patterns[index][o] = 2 * k as u8;
                o += 1;
                if index >> k & 1 == 1 {
                    patterns[index][o] = 2 * k as u8 + 1;
                    o += 1;
                }
                k += 1;
            }
            lens[index] = o as u8;
            index += 1;
        }
        Shuffles { patterns, lens }
    };

    #[inline(always)]
    pub(super) fn load(src: &[u8], at: usize) -> __m128i {
        let bytes = &src[at..at + 16];
        // SAFETY: `bytes` is 16 readable bytes and `_mm_loadu_si128` has no alignment need.
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    #[target_feature(enable = "ssse3")]
    pub(super) fn utf16(src: &[u8], big_endian: bool, out: &mut Out) -> usize {
        let swap = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
        let not_ascii = _mm_set1_epi16(0xFF80_u16 as i16);
        let zero = _mm_setzero_si128();
        let mut i = 0;
        // Sixteen ASCII units store 16 bytes; a block of eight, 16 and then 16 more after at
        // most 12.
        while i + 32 <= src.len() && out.room() >= 32 {
            let mut first = load(src, i);
            let mut second = load(src, i + 16);
            if big_endian {
                first = _mm_shuffle_epi8(first, swap);
                second = _mm_shuffle_epi8(second, swap);
            }
            let high_bits = _mm_and_si128(_mm_or_si128(first, second), not_ascii);
            if _mm_movemask_epi8(_mm_cmpeq_epi16(high_bits, zero)) == 0xFFFF {
                out.store16(_mm_packus_epi16(first, second), 16);
                i += 32;
                continue;
            }
            let done = block(first, out);
            if done == 0 {
                return i;
            }
            i += 2 * done;
        }
        i
    }

    /// Converts eight units and returns 8; or seven when the eighth is a high surrogate (its
    /// low half is in the next block); or none when a surrogate is unpaired.
    ///
    /// A surrogate pair's four bytes are split between its two lanes, two bytes each: the
    /// high lane writes F0 | h >> 8 and 80 | (h >> 2) & 3F, where h = (high & 3FF) + 40 holds
    /// the top eleven bits of the code point; the low lane writes 80 | (high & 3) << 4 |
    /// (low >> 6) & F and 80 | low & 3F, reading the high unit from the lane before.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn block(units: __m128i, out: &mut Out) -> usize {
        let zero = _mm_setzero_si128();
        let bits_3f = _mm_set1_epi16(0x3F);
        let bits_80 = _mm_set1_epi16(0x80);
        let surrogate = _mm_cmpeq_epi16(
            _mm_and_si128(units, _mm_set1_epi16(0xF800_u16 as i16)),
            _mm_set1_epi16(0xD800_u16 as i16),
        );
        // All ones in the lanes of one-byte units, and of units of one or two bytes.
        let one = _mm_cmpeq_epi16(_mm_subs_epu16(units, _mm_set1_epi16(0x7F)), zero);
        let up_to_two = _mm_cmpeq_epi16(_mm_subs_epu16(units, _mm_set1_epi16(0x7FF)), zero);
        // The lead byte of a three-byte unit: 1110xxxx.
        let lead3 = _mm_or_si128(_mm_srli_epi16::<12>(units), _mm_set1_epi16(0xE0));
        // Second to last: 110xxxxx for two bytes, 10xxxxxx for three.
        let mut middle = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(_mm_srli_epi16::<6>(units), bits_3f), bits_80),
            _mm_and_si128(up_to_two, _mm_set1_epi16(0x40)),
        );
        // Last: the unit itself for one byte, else 10xxxxxx.
        let mut last = _mm_or_si128(
            _mm_and_si128(units, _mm_or_si128(one, bits_3f)),
            _mm_andnot_si128(one, bits_80),
        );
        // Per unit, its length less one in two bits (a surrogate's lane writes two bytes).
        let mut lens = (!_mm_movemask_epi8(one) & 0x5555)
            + (!_mm_movemask_epi8(_mm_or_si128(up_to_two, surrogate)) & 0x5555);
        // Surrogates are handled without a branch: text that has some has them in about every
        // other block, and a mispredicted branch cost more than the work it saved.
        let is_high = _mm_cmpeq_epi16(
            _mm_and_si128(units, _mm_set1_epi16(0xFC00_u16 as i16)),
            _mm_set1_epi16(0xD800_u16 as i16),
        );
        let is_low = _mm_andnot_si128(is_high, surrogate);
        let highs = _mm_movemask_epi8(is_high) & 0x5555;
        let lows = _mm_movemask_epi8(is_low) & 0x5555;
        // Each high surrogate followed by a low one, each low one preceded by a high one; a
        // high surrogate in the last lane waits for the next block.
        if (highs << 2) & 0xFFFF != lows {
            return 0;
        }
        // A high surrogate last: length code 3 for its lane, which writes nothing.
        let waits = (highs >> 14) as usize;
        lens += (waits as i32) << 15;
        let h = _mm_add_epi16(
            _mm_and_si128(units, _mm_set1_epi16(0x3FF)),
            _mm_set1_epi16(0x40),
        );
        let high_middle = _mm_or_si128(_mm_srli_epi16::<8>(h), _mm_set1_epi16(0xF0));
        let high_last = _mm_or_si128(_mm_and_si128(_mm_srli_epi16::<2>(h), bits_3f), bits_80);
        let before = _mm_slli_si128::<2>(units);
        let low_middle = _mm_or_si128(
            _mm_or_si128(
                _mm_slli_epi16::<4>(_mm_and_si128(before, _mm_set1_epi16(3))),
                _mm_and_si128(_mm_srli_epi16::<6>(units), _mm_set1_epi16(0xF)),
            ),
            bits_80,
        );
        middle = select(is_high, high_middle, select(is_low, low_middle, middle));
        last = select(is_high, high_last, last);
        let lead_middle = _mm_or_si128(lead3, _mm_slli_epi16::<8>(middle));
        let low = (lens & 0xFF) as usize;
        let high = (lens >> 8 & 0xFF) as usize;
        let bytes = _mm_unpacklo_epi16(lead_middle, last);
        out.store16(
            _mm_shuffle_epi8(bytes, pattern(&UTF16, low)),
            UTF16.lens[low].into(),
        );
        let bytes = _mm_unpackhi_epi16(lead_middle, last);
        out.store16(
            _mm_shuffle_epi8(bytes, pattern(&UTF16, high)),
            UTF16.lens[high].into(),
        );
        8 - waits
    }

    /// The lanes of `yes` where `mask` is all ones, of `no` elsewhere.
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn select(mask: __m128i, yes: __m128i, no: __m128i) -> __m128i {
        _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no))
    }

    #[inline(always)]
    pub(super) fn pattern(table: &Shuffles, index: usize) -> __m128i {
        load(&table.patterns[index], 0)
    }

    #[target_feature(enable = "ssse3")]
    pub(super) fn latin1(src: &[u8], out: &mut Out) -> usize {
        let zero = _mm_setzero_si128();
        let mut i = 0;
        while i + 16 <= src.len() && out.room() >= 32 {
            let bytes = load(src, i);
            let wide = _mm_movemask_epi8(bytes);
            i += 16;
            if wide == 0 {
                out.store16(bytes, 16);
                continue;
            }
            for (half, index) in [
                (_mm_unpacklo_epi8(bytes, zero), (wide & 0xFF) as usize),
                (_mm_unpackhi_epi8(bytes, zero), (wide >> 8) as usize),
            ] {
                // 110000xx 10xxxxxx for the bytes from 0x80 on, the byte itself before.
                let two = _mm_or_si128(
                    _mm_or_si128(_mm_srli_epi16::<6>(half), _mm_set1_epi16(0xC0)),
                    _mm_slli_epi16::<8>(_mm_or_si128(
                        _mm_and_si128(half, _mm_set1_epi16(0x3F)),
                        _mm_set1_epi16(0x80),
                    )),
                );
                let is_wide = _mm_cmpgt_epi16(half, _mm_set1_epi16(0x7F));
                let units =
                    _mm_or_si128(_mm_and_si128(is_wide, two), _mm_andnot_si128(is_wide, half));
                out.store16(
                    _mm_shuffle_epi8(units, pattern(&LATIN1, index)),
                    LATIN1.lens[index].into(),
                );
            }
        }
        i
    }
}

/// The UTF-16 kernel of [`ssse3`] on sixteen units at a time: the same arithmetic on twice the
/// lanes, then the same four-unit shuffles.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_packus_epi16, _mm_shuffle_epi8, _mm256_add_epi16, _mm256_alignr_epi8,
        _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_castsi256_si128,
        _mm256_cmpeq_epi16, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi16, _mm256_setr_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_srli_epi16,
        _mm256_subs_epu16, _mm256_unpackhi_epi16, _mm256_unpacklo_epi16,
    };

    use super::Out;
    use super::ssse3::{UTF16, pattern};

    #[target_feature(enable = "avx2")]
    pub(super) fn utf16(src: &[u8], big_endian: bool, out: &mut Out) -> usize {
        let swap = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
            10, 13, 12, 15, 14,
        );
        let not_ascii = _mm256_set1_epi16(0xFF80_u16 as i16);
        let zero = _mm256_setzero_si256();
        let mut i = 0;
        // A block of sixteen stores four times 16 bytes, each after at most 12.
        while i + 32 <= src.len() && out.room() >= 64 {
            let bytes = &src[i..i + 32];
            // SAFETY: `bytes` is 32 readable bytes and `_mm256_loadu_si256` has no alignment
            // need.
            let mut units = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
            if big_endian {
                units = _mm256_shuffle_epi8(units, swap);
            }
            let high_bits = _mm256_and_si256(units, not_ascii);
            if _mm256_movemask_epi8(_mm256_cmpeq_epi16(high_bits, zero)) == -1 {
                out.store16(
                    _mm_packus_epi16(
                        _mm256_castsi256_si128(units),
                        _mm256_extracti128_si256::<1>(units),
                    ),
                    16,
                );
                i += 32;
                continue;
            }
            let done = block(units, out);
            if done == 0 {
                return i;
            }
            i += 2 * done;
        }
        i
    }

    /// Converts sixteen units and returns 16; or fifteen when the last is a high surrogate; or
    /// none when a surrogate is unpaired. See `ssse3::block` for the arithmetic.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn block(units: __m256i, out: &mut Out) -> usize {
        let zero = _mm256_setzero_si256();
        let bits_3f = _mm256_set1_epi16(0x3F);
        let bits_80 = _mm256_set1_epi16(0x80);
        let surrogate = _mm256_cmpeq_epi16(
            _mm256_and_si256(units, _mm256_set1_epi16(0xF800_u16 as i16)),
            _mm256_set1_epi16(0xD800_u16 as i16),
        );
        let one = _mm256_cmpeq_epi16(_mm256_subs_epu16(units, _mm256_set1_epi16(0x7F)), zero);
        let up_to_two =
            _mm256_cmpeq_epi16(_mm256_subs_epu16(units, _mm256_set1_epi16(0x7FF)), zero);
        let lead3 = _mm256_or_si256(_mm256_srli_epi16::<12>(units), _mm256_set1_epi16(0xE0));
        let middle = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi16::<6>(units), bits_3f),
                bits_80,
            ),
            _mm256_and_si256(up_to_two, _mm256_set1_epi16(0x40)),
        );
        let last = _mm256_or_si256(
            _mm256_and_si256(units, _mm256_or_si256(one, bits_3f)),
            _mm256_andnot_si256(one, bits_80),
        );
        let mut lens = (!_mm256_movemask_epi8(one) as u32 & 0x5555_5555)
            + (!_mm256_movemask_epi8(_mm256_or_si256(up_to_two, surrogate)) as u32 & 0x5555_5555);
        let is_high = _mm256_cmpeq_epi16(
            _mm256_and_si256(units, _mm256_set1_epi16(0xFC00_u16 as i16)),
            _mm256_set1_epi16(0xD800_u16 as i16),
        );
        let is_low = _mm256_andnot_si256(is_high, surrogate);
        let highs = _mm256_movemask_epi8(is_high) as u32 & 0x5555_5555;
        let lows = _mm256_movemask_epi8(is_low) as u32 & 0x5555_5555;
        if highs << 2 != lows {
            return 0;
        }
        let waits = (highs >> 30) as usize;
        lens += (waits as u32) << 31;
        let h = _mm256_add_epi16(
            _mm256_and_si256(units, _mm256_set1_epi16(0x3FF)),
            _mm256_set1_epi16(0x40),
        );
        let high_middle = _mm256_or_si256(_mm256_srli_epi16::<8>(h), _mm256_set1_epi16(0xF0));
        let high_last = _mm256_or_si256(
            _mm256_and_si256(_mm256_srli_epi16::<2>(h), bits_3f),
            bits_80,
        );
        // Each unit's predecessor: the lanes moved up by one unit across the two halves.
        let before =
            _mm256_alignr_epi8::<14>(units, _mm256_permute2x128_si256::<0x08>(units, units));
        let low_middle = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_slli_epi16::<4>(_mm256_and_si256(before, _mm256_set1_epi16(3))),
                _mm256_and_si256(_mm256_srli_epi16::<6>(units), _mm256_set1_epi16(0xF)),
            ),
            bits_80,
        );
        let middle = _mm256_blendv_epi8(
            _mm256_blendv_epi8(middle, low_middle, is_low),
            high_middle,
            is_high,
        );
        let last = _mm256_blendv_epi8(last, high_last, is_high);
        let lead_middle = _mm256_or_si256(lead3, _mm256_slli_epi16::<8>(middle));
        // Units 0-3 and 8-11, then 4-7 and 12-15.
        let first = _mm256_unpacklo_epi16(lead_middle, last);
        let second = _mm256_unpackhi_epi16(lead_middle, last);
        let quarters = [
            _mm256_castsi256_si128(first),
            _mm256_castsi256_si128(second),
            _mm256_extracti128_si256::<1>(first),
            _mm256_extracti128_si256::<1>(second),
        ];
        for (k, quarter) in quarters.into_iter().enumerate() {
            let index = (lens >> (8 * k) & 0xFF) as usize;
            out.store16(
                _mm_shuffle_epi8(quarter, pattern(&UTF16, index)),
                UTF16.lens[index].into(),
            );
        }
        16 - waits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Units of every kind, surrogate pairs often, lone surrogates now and then.
    fn sample_units(seed: u64, len: usize, lone: bool) -> Vec<u16> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut units = Vec::new();
        while units.len() < len {
            let r = next();
            match r % 9 {
                // Runs of ASCII, as real text has them, of every length up to 47.
                7 | 8 => units.extend((0..(r >> 8) % 48).map(|k| (k as u16 * 7 + 3) & 0x7F)),
                0 => units.push((r >> 8) as u16 & 0x7F),
                1 => units.push(0x80 + (r >> 8) as u16 % 0x780),
                2 => units.push(0x800 + (r >> 8) as u16 % 0xD000),
                3 => units.push(0xE000 + (r >> 8) as u16 % 0x2000),
                4 | 5 => {
                    units.push(0xD800 | (r >> 8) as u16 & 0x3FF);
                    units.push(0xDC00 | (r >> 18) as u16 & 0x3FF);
                }
                _ if lone => units.push(0xD800 | (r >> 8) as u16 & 0x7FF),
                _ => units.push(b' '.into()),
            }
        }
        units
    }

    fn bytes_of(units: &[u16], big_endian: bool) -> Vec<u8> {
        units
            .iter()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    /// Runs a kernel on `units` and checks what it wrote against the standard library: all of
    /// the input it took, which ends on a unit and not inside a surrogate pair; with `valid`
    /// input, all but the last few units.
    fn check_utf16_kernel(kernel: &dyn Fn(&[u8], bool, &mut Out) -> usize) {
        for seed in 0..300 {
            for big_endian in [false, true] {
                let lone = seed % 3 == 0;
                let units = sample_units(seed, 8 + seed as usize % 200, lone);
                let src = bytes_of(&units, big_endian);
                let mut dst = b"kept".to_vec();
                let done = write_into(&mut dst, src.len() * 2 + 64, |out| {
                    kernel(&src, big_endian, out)
                });
                assert_eq!(done % 2, 0);
                let taken = &units[..done / 2];
                let expected = String::from_utf16(taken).expect("the kernel takes whole pairs");
                assert_eq!(&dst[..4], b"kept");
                assert_eq!(&dst[4..], expected.as_bytes(), "seed {seed}");
                if !lone {
                    assert!(src.len() - done <= 32, "seed {seed}: stopped at {done}");
                }
            }
        }
    }

    #[test]
    fn portable_utf16_kernel_equals_std() {
        check_utf16_kernel(&portable::utf16);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn ssse3_utf16_kernel_equals_std() {
        if std::is_x86_feature_detected!("ssse3") {
            // SAFETY: the processor has SSSE3, checked just above.
            check_utf16_kernel(&|src, big, out| unsafe { ssse3::utf16(src, big, out) });
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_utf16_kernel_equals_std() {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            check_utf16_kernel(&|src, big, out| unsafe { avx2::utf16(src, big, out) });
        }
    }

    #[test]
    fn portable_latin1_kernel_is_each_byte_as_its_character() {
        // Each byte above 7F after a run of ASCII of every length up to nine, so that it falls
        // at every place of a word, first and last of them included.
        let mut src = Vec::new();
        for byte in 0x80..=0xFFu8 {
            for run in 0..10 {
                src.extend(std::iter::repeat_n(b'a' + run as u8, run));
                src.push(byte);
            }
        }
        let mut dst = Vec::new();
        let done = write_into(&mut dst, src.len() * 2 + 32, |out| {
            portable::latin1(&src, out)
        });
        let expected: String = src[..done].iter().map(|&b| char::from(b)).collect();
        assert_eq!(dst, expected.as_bytes());
        assert!(done + 8 > src.len(), "{done} of {} bytes", src.len());
    }

    /// Long inputs are converted in two halves: whichever half holds more bytes above 7F, and
    /// wherever the middle falls, the output is each byte's character, in order, and all but
    /// the last few bytes are taken.
    #[test]
    fn portable_latin1_kernel_in_two_halves_is_each_byte_as_its_character() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let lens = [
            portable::TWO_HALVES - 1,
            portable::TWO_HALVES,
            portable::TWO_HALVES + 1,
            3001,
            5000,
        ];
        for len in lens {
            // Random bytes, ASCII then accented letters, accented letters then ASCII.
            let shapes: [Box<dyn Fn(usize, u64) -> u8>; 3] = [
                Box::new(|_, r| r as u8),
                Box::new(move |i, r| if i < len / 2 { b'a' } else { 0x80 | r as u8 }),
                Box::new(move |i, r| {
                    if i < len / 2 {
                        0xE9
                    } else {
                        b'a' + (r % 26) as u8
                    }
                }),
            ];
            for shape in &shapes {
                let src: Vec<u8> = (0..len).map(|i| shape(i, random())).collect();
                let mut dst = Vec::new();
                let done = write_into(&mut dst, src.len() * 2 + 32, |out| {
                    portable::latin1(&src, out)
                });
                let expected: String = src[..done].iter().map(|&b| char::from(b)).collect();
                assert!(dst == expected.as_bytes(), "{len}");
                assert!(done + 8 > src.len(), "{done} of {len} bytes");
            }
        }
    }

    #[test]
    fn latin1_kernel_takes_all_but_the_tail() {
        let src: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut dst = Vec::new();
        let done = write_into(&mut dst, src.len() * 2 + 32, |out| latin1(&src, out));
        let expected: String = src[..done].iter().map(|&b| char::from(b)).collect();
        assert_eq!(dst, expected.as_bytes());
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            assert_eq!(done, 992);
        }
    }

    #[test]
    fn out_keeps_only_what_was_written() {
        let mut dst = vec![1, 2];
        write_into(&mut dst, 10, |out| {
            out.push(&[3]);
            out.push_char('é');
            assert_eq!(out.room(), 7);
        });
        assert_eq!(dst, [1, 2, 3, 0xC3, 0xA9]);
    }
}
