//! Text that holds no mixed-script word, found 64 bytes at a time (the `mixed-script` lint's
//! fast path, SPEC 1.6).
//!
//! Most words are written in one script: judging each would cost more than reading the text.
//! The caller's [`Quiet`] names, by the first bytes of their UTF-8 forms, the characters that
//! are in no word (spaces, punctuation, emoji: [`Quiet::neutral`]) and, for each writing
//! system, the characters whose words never mix scripts ([`Home`]). Text is quiet when every
//! character above U+007F in it is neutral or of a home, the characters of each stretch between
//! two stops (an ASCII byte that is no letter or digit, or a neutral character: no word goes
//! past one) share a home, and, unless that home takes ASCII letters into its words (Latin;
//! Chinese, Japanese and Korean, which TR39 lets mix with Latin), no ASCII letter or digit
//! touches a character of the home. Every word of such text is then ASCII alone, of one home
//! alone, or (in a home that takes them) one home with ASCII letters: none mixes scripts, and
//! the words need no judging. The caller's tests hold each zone to the Unicode data.
//!
//! `quiet_span` reads a block of 64 bytes at a time with AVX2 or AVX-512 where the processor
//! has it and the level allows, and eight bytes at a time in a `u64` at the portable level
//! (`swar_masks`; `portable_masks`, a byte at a time, is the reference both are held to). The
//! masks give the block's lead bytes and stops; each lead's class (neutral, or the set of homes
//! its character is of) is one load from a table [`Quiet::new`] draws up from the zones, and
//! the homes of the word being read are the classes' intersection: a word whose characters
//! share no home ends the quiet text. It gives how far the text is quiet, ending after an
//! ASCII stop, and where the first block that is not quiet ends: the words up to there are the
//! caller's to judge one by one.

/// Characters by the first bytes of their UTF-8 form: a lead byte in `lead`, the byte after it
/// in `next`, and the byte after that in `third` (all ranges inclusive; [`Zone::ANY`] for a
/// byte the zone does not look at, as the third of a character of two bytes). Leads are 0xC2
/// or above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone {
    /// The lead bytes.
    pub lead: (u8, u8),
    /// The bytes after the lead.
    pub next: (u8, u8),
    /// The bytes after those.
    pub third: (u8, u8),
}

impl Zone {
    /// Any byte.
    pub const ANY: (u8, u8) = (0x00, 0xFF);

    /// The characters whose lead byte is one of `first..=last`, whatever follows.
    pub const fn leads(first: u8, last: u8) -> Zone {
        Zone::after(first, 0x00, 0xFF).with_lead_to(last)
    }

    /// The characters that start with `lead` and then a byte of `first..=last`.
    pub const fn after(lead: u8, first: u8, last: u8) -> Zone {
        Zone {
            lead: (lead, lead),
            next: (first, last),
            third: Zone::ANY,
        }
    }

    /// The characters of three bytes that start with `lead`, `next` and then a byte of
    /// `first..=last`.
    pub const fn after_two(lead: u8, next: u8, first: u8, last: u8) -> Zone {
        Zone {
            lead: (lead, lead),
            next: (next, next),
            third: (first, last),
        }
    }

    const fn with_lead_to(self, last: u8) -> Zone {
        Zone {
            lead: (self.lead.0, last),
            ..self
        }
    }

    /// Whether a character whose first three bytes are `bytes` (for a character of two bytes,
    /// the byte after it third) is in the zone.
    pub const fn holds(&self, bytes: [u8; 3]) -> bool {
        within(self.lead, bytes[0]) && within(self.next, bytes[1]) && within(self.third, bytes[2])
    }
}

/// Whether `b` is in the inclusive `range`.
const fn within(range: (u8, u8), b: u8) -> bool {
    range.0 <= b && b <= range.1
}

/// A writing system: the characters above U+007F whose words never mix scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Home {
    /// Its characters.
    pub zones: &'static [Zone],
    /// Whether its words may take ASCII letters and still mix nothing (Latin itself, and the
    /// Chinese, Japanese and Korean systems that TR39 lets mix with Latin).
    pub takes_ascii: bool,
}

/// What the caller vouches for, from the Unicode data: see the module's documentation. Built
/// by [`Quiet::new`], which also draws up the table a block's characters are looked up in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// Characters in no word: they may stand anywhere.
    pub neutral: &'static [Zone],
    /// The writing systems, at most [`Quiet::MAX_HOMES`].
    pub homes: &'static [Home],
    /// Each character's class, by its first bytes.
    table: Table,
}

impl Quiet {
    /// Nothing vouched for: only ASCII is quiet.
    pub const NONE: Quiet = Quiet::new(&[], &[]);

    /// The most writing systems a [`Quiet`] may name.
    pub const MAX_HOMES: usize = 30;

    /// The characters in no word and the writing systems, with their table. Fails (at compile
    /// time, in a constant) with more than [`Quiet::MAX_HOMES`] homes, or when a zone looks at
    /// the third byte of characters of two bytes (that byte is the next character's).
    pub const fn new(neutral: &'static [Zone], homes: &'static [Home]) -> Quiet {
        Quiet {
            neutral,
            homes,
            table: Table::new(neutral, homes),
        }
    }
}

/// A character's class: bit 0 when it is neutral, bit `1 + k` when it is of home `k`.
const NEUTRAL: u32 = 1;
/// Every home: a word of no character above U+007F yet may be of any.
const EVERY_HOME: u32 = !NEUTRAL & !BY_THIRD;
/// In [`Table::pairs`], a class that depends on the third byte: the low bits give the
/// [`Table::thirds`] row.
const BY_THIRD: u32 = 1 << 31;
/// The most pairs of first bytes whose characters' classes depend on the third.
const MAX_THIRDS: usize = 16;

/// The class of every character, by its first two bytes (and the third, for the few pairs of
/// bytes that zones split): one load for most characters, whatever the number of zones.
#[derive(Clone, PartialEq, Eq)]
struct Table {
    /// By a lead byte (0xC0..=0xFF) and the byte after it, their low six bits each.
    pairs: [u32; 64 * 64],
    /// By the third byte's low six bits, for the pairs marked [`BY_THIRD`].
    thirds: [[u32; 64]; MAX_THIRDS],
    /// The homes that take ASCII letters into their words.
    takes_ascii: u32,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Table")
    }
}

impl Table {
    const fn new(neutral: &[Zone], homes: &[Home]) -> Table {
        assert!(
            homes.len() <= Quiet::MAX_HOMES,
            "too many homes for a Quiet"
        );
        let mut table = Table {
            pairs: [0; 64 * 64],
            thirds: [[0; 64]; MAX_THIRDS],
            takes_ascii: 0,
        };
        // First the pairs that some zone splits by the third byte, each given its row.
        let mut rows = 0;
        let mut class = 0;
        while class <= homes.len() {
            let zones = Table::zones_of(neutral, homes, class);
            let mut z = 0;
            while z < zones.len() {
                let zone = zones[z];
                if zone.third.0 != Zone::ANY.0 || zone.third.1 != Zone::ANY.1 {
                    assert!(
                        zone.lead.0 >= 0xE0,
                        "a zone looks past a character of two bytes"
                    );
                    let mut pair = Table::first_pair(zone);
                    while let Some(at) = pair {
                        if table.pairs[at] == 0 {
                            assert!(rows < MAX_THIRDS, "too many zones split by a third byte");
                            table.pairs[at] = BY_THIRD | rows as u32;
                            rows += 1;
                        }
                        pair = Table::next_pair(zone, at);
                    }
                }
                z += 1;
            }
            class += 1;
        }
        // Then every zone's characters, by pair or by third byte.
        let mut class = 0;
        while class <= homes.len() {
            let (zones, bit) = (Table::zones_of(neutral, homes, class), 1 << class);
            if class > 0 && homes[class - 1].takes_ascii {
                table.takes_ascii |= bit;
            }
            let mut z = 0;
            while z < zones.len() {
                let zone = zones[z];
                let mut pair = Table::first_pair(zone);
                while let Some(at) = pair {
                    if table.pairs[at] & BY_THIRD == 0 {
                        table.pairs[at] |= bit;
                    } else {
                        let row = (table.pairs[at] & !BY_THIRD) as usize;
                        let mut third = 0x80;
                        while third <= 0xBF {
                            if within(zone.third, third) {
                                table.thirds[row][(third & 0x3F) as usize] |= bit;
                            }
                            third += 1;
                        }
                    }
                    pair = Table::next_pair(zone, at);
                }
                z += 1;
            }
            class += 1;
        }
        table
    }

    /// The zones of class `class` (0 neutral, `1 + k` home `k`).
    const fn zones_of<'a>(neutral: &'a [Zone], homes: &'a [Home], class: usize) -> &'a [Zone] {
        match class {
            0 => neutral,
            _ => homes[class - 1].zones,
        }
    }

    /// The first pair of bytes of `zone` (a lead 0xC0 or above, a continuation byte after it),
    /// as its place in [`Table::pairs`].
    const fn first_pair(zone: Zone) -> Option<usize> {
        let lead = if zone.lead.0 < 0xC0 {
            0xC0
        } else {
            zone.lead.0
        };
        Table::pair_from(zone, lead as usize, 0x80)
    }

    /// The pair of `zone` after the one at `at` in [`Table::pairs`].
    const fn next_pair(zone: Zone, at: usize) -> Option<usize> {
        Table::pair_from(zone, 0xC0 + at / 64, 0x80 + at % 64 + 1)
    }

    /// The first pair of `zone` at or after the lead `lead` and the byte `next` after it.
    const fn pair_from(zone: Zone, mut lead: usize, mut next: usize) -> Option<usize> {
        while lead <= zone.lead.1 as usize {
            while next <= 0xBF {
                if within(zone.next, next as u8) {
                    return Some(Table::pair(lead as u8, next as u8));
                }
                next += 1;
            }
            lead += 1;
            next = 0x80;
        }
        None
    }

    /// Where a character's first two bytes are in [`Table::pairs`].
    const fn pair(lead: u8, next: u8) -> usize {
        ((lead & 0x3F) as usize) << 6 | (next & 0x3F) as usize
    }

    /// The class of the character whose first bytes are these (its lead 0xC0 or above, the
    /// byte after a continuation byte; the third is looked at only for characters of three
    /// bytes or more).
    #[inline(always)]
    fn class(&self, lead: u8, next: u8, third: u8) -> u32 {
        let class = self.pairs[Table::pair(lead, next)];
        if class & BY_THIRD == 0 {
            class
        } else {
            self.thirds[class as usize % MAX_THIRDS][usize::from(third & 0x3F)]
        }
    }
}

/// The bytes of a block, and how many after them it looks at (the two bytes after a lead, the
/// ASCII letter or digit after a character of four bytes).
const BLOCK: usize = 64;
const AHEAD: usize = 4;
/// The bytes a block's masks read.
pub(crate) const SPAN: usize = BLOCK + AHEAD;

/// What a block of 64 bytes holds, a bit a byte (bit `i` for byte `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Masks {
    /// Bytes below 0x80.
    pub(crate) ascii: u64,
    /// ASCII letters and digits.
    pub(crate) alnum: u64,
    /// Lead bytes of two, three and four-byte characters.
    pub(crate) lead_2: u64,
    pub(crate) lead_3: u64,
    pub(crate) lead_4: u64,
    /// Whether each of the [`AHEAD`] bytes after the block is an ASCII letter or digit (bit
    /// `k` for byte `64 + k`).
    pub(crate) alnum_after: u8,
}

impl Masks {
    /// ASCII letters and digits `k` bytes on from each byte.
    fn alnum_on(&self, k: u32) -> u64 {
        self.alnum >> k | u64::from(self.alnum_after) << (64 - k)
    }
}

/// The masks a byte at a time: what every level must give (the tests' reference).
#[cfg(test)]
pub(crate) fn portable_masks(span: &[u8; SPAN]) -> Masks {
    let mut m = Masks::default();
    for (i, &b) in span[..BLOCK].iter().enumerate() {
        let bit = |yes: bool| u64::from(yes) << i;
        m.ascii |= bit(b < 0x80);
        m.alnum |= bit(b.is_ascii_alphanumeric());
        m.lead_2 |= bit((0xC0..0xE0).contains(&b));
        m.lead_3 |= bit((0xE0..0xF0).contains(&b));
        m.lead_4 |= bit(b >= 0xF0);
    }
    m.alnum_after = after_block(span);
    m
}

/// [`portable_masks`] eight bytes at a time in a `u64`.
fn swar_masks(span: &[u8; SPAN]) -> Masks {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const CASE: u64 = 0x2020_2020_2020_2020;
    // The high bit of each byte of `x`, gathered into a byte.
    let gather = |x: u64| ((x & HIGH) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    // Bytes of `y` (each below 0x80) in `lo..=hi`, in their high bits: adding `0x80 - lo` sets
    // the high bit from `lo` on, adding `0x7F - hi` past `hi`, and no sum carries into the
    // next byte.
    let within = |y: u64, lo: u8, hi: u8| {
        (y + ONES * u64::from(0x80 - lo)) & !(y + ONES * u64::from(0x7F - hi))
    };
    let mut m = Masks::default();
    for (k, word) in span[..BLOCK].chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let shift = 8 * k;
        // Each byte's bits 6, 5 and 4 in its bit 7.
        let (b6, b5, b4) = (x << 1, x << 2, x << 3);
        let lead = x & b6;
        let ascii = !x & HIGH;
        let low = x & !HIGH;
        let letter = within((x | CASE) & !HIGH, b'a', b'z');
        let digit = within(low, b'0', b'9');
        m.ascii |= gather(ascii) << shift;
        m.alnum |= gather((letter | digit) & ascii) << shift;
        m.lead_2 |= gather(lead & !b5) << shift;
        m.lead_3 |= gather(lead & b5 & !b4) << shift;
        m.lead_4 |= gather(lead & b5 & b4) << shift;
    }
    m.alnum_after = after_block(span);
    m
}

/// [`Masks::alnum_after`].
fn after_block(span: &[u8; SPAN]) -> u8 {
    (0..AHEAD).fold(0, |bits, k| {
        bits | u8::from(span[BLOCK + k].is_ascii_alphanumeric()) << k
    })
}

/// The bytes among `wanted` where a character of `zones` starts, a byte at a time (the tests'
/// reference).
#[cfg(test)]
pub(crate) fn portable_zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
    let all = (0..BLOCK).fold(0, |bits, i| {
        let first = [span[i], span[i + 1], span[i + 2]];
        bits | u64::from(zones.iter().any(|z| z.holds(first))) << i
    });
    all & wanted
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{BLOCK, Masks, SPAN, Zone};

    /// The two halves of the block, each as it is and one and two bytes on.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn halves(span: &[u8; SPAN]) -> [[__m256i; 3]; 2] {
        let load = |at: usize| {
            // SAFETY: `at + 32 <= SPAN`: each load reads inside the span.
            unsafe { _mm256_loadu_si256(span.as_ptr().add(at).cast()) }
        };
        [0, 32].map(|at| [load(at), load(at + 1), load(at + 2)])
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn bits(v: __m256i) -> u64 {
        u64::from(_mm256_movemask_epi8(v) as u32)
    }

    /// Bytes of `v` in `lo..=hi` (`lo` and `hi - lo` given splat): `v - lo` (wrapping) is at
    /// most `hi - lo`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn within(v: __m256i, lo: __m256i, span: __m256i) -> __m256i {
        let d = _mm256_sub_epi8(v, lo);
        _mm256_cmpeq_epi8(_mm256_min_epu8(d, span), d)
    }

    /// A range as [`within`] takes it.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn range((lo, hi): (u8, u8)) -> (__m256i, __m256i) {
        (
            _mm256_set1_epi8(lo as i8),
            _mm256_set1_epi8(hi.wrapping_sub(lo) as i8),
        )
    }

    /// [`super::portable_masks`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) fn masks(span: &[u8; SPAN]) -> Masks {
        let (letters, digits, case) = (
            range((b'a', b'z')),
            range((b'0', b'9')),
            _mm256_set1_epi8(0x20),
        );
        let mut m = Masks::default();
        for (half, [v, _, _]) in halves(span).into_iter().enumerate() {
            let shift = 32 * half;
            // The top four bits of each byte, each in the byte's sign bit.
            let [b7, b6, b5, b4] = [
                bits(v),
                bits(_mm256_slli_epi16::<1>(v)),
                bits(_mm256_slli_epi16::<2>(v)),
                bits(_mm256_slli_epi16::<3>(v)),
            ];
            let lead = b7 & b6;
            m.ascii |= (!b7 & 0xFFFF_FFFF) << shift;
            m.lead_2 |= (lead & !b5) << shift;
            m.lead_3 |= (lead & b5 & !b4) << shift;
            m.lead_4 |= (lead & b5 & b4) << shift;
            let letter = within(_mm256_or_si256(v, case), letters.0, letters.1);
            let alnum = _mm256_or_si256(letter, within(v, digits.0, digits.1));
            m.alnum |= bits(alnum) << shift;
        }
        m.alnum_after = super::after_block(span);
        m
    }

    /// [`super::portable_zones`] with AVX2: the zones in their order, until every byte
    /// wanted is found.
    #[target_feature(enable = "avx2")]
    pub(crate) fn zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
        let halves = halves(span);
        let mut found = 0;
        for z in zones {
            let lead = range(z.lead);
            let next = (z.next != Zone::ANY).then(|| range(z.next));
            let third = (z.third != Zone::ANY).then(|| range(z.third));
            let [low, high] = halves.map(|v| {
                let mut yes = within(v[0], lead.0, lead.1);
                if let Some(next) = next {
                    yes = _mm256_and_si256(yes, within(v[1], next.0, next.1));
                }
                if let Some(third) = third {
                    yes = _mm256_and_si256(yes, within(v[2], third.0, third.1));
                }
                bits(yes)
            });
            found |= (low | high << (BLOCK / 2)) & wanted;
            if found == wanted {
                break;
            }
        }
        found
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Masks, SPAN, Zone};

    /// The block as it is and one and two bytes on.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn shifted(span: &[u8; SPAN]) -> [__m512i; 3] {
        // SAFETY: `at + 64 <= SPAN` for `at` up to 2: each load reads inside the span.
        [0, 1, 2].map(|at| unsafe { _mm512_loadu_si512(span.as_ptr().add(at).cast()) })
    }

    /// Bytes of `v` in `lo..=hi`: `v - lo` (wrapping) is at most `hi - lo`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn within(v: __m512i, (lo, hi): (u8, u8)) -> u64 {
        let d = _mm512_sub_epi8(v, _mm512_set1_epi8(lo as i8));
        _mm512_cmple_epu8_mask(d, _mm512_set1_epi8(hi.wrapping_sub(lo) as i8))
    }

    /// [`super::portable_masks`] with AVX-512.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn masks(span: &[u8; SPAN]) -> Masks {
        let [v, _, _] = shifted(span);
        let letter = within(_mm512_or_si512(v, _mm512_set1_epi8(0x20)), (b'a', b'z'));
        Masks {
            ascii: !_mm512_movepi8_mask(v),
            alnum: letter | within(v, (b'0', b'9')),
            lead_2: within(v, (0xC0, 0xDF)),
            lead_3: within(v, (0xE0, 0xEF)),
            lead_4: within(v, (0xF0, 0xFF)),
            alnum_after: super::after_block(span),
        }
    }

    /// [`super::portable_zones`] with AVX-512: the zones in their order, until every byte
    /// wanted is found.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
        let v = shifted(span);
        let mut found = 0;
        for z in zones {
            let mut yes = within(v[0], z.lead);
            if z.next != Zone::ANY {
                yes &= within(v[1], z.next);
            }
            if z.third != Zone::ANY {
                yes &= within(v[2], z.third);
            }
            found |= yes & wanted;
            if found == wanted {
                break;
            }
        }
        found
    }
}

/// How far `text` is quiet, and where the words must be judged one by one up to.
///
/// `text` starts where no word is open (its first character's word, if any, starts there).
/// The first number is a place `text[..n]` holds no mixed word and no word crosses: 0, or just
/// after an ASCII byte that is no letter or digit. The second is where the caller, having
/// judged the words from there, may ask again: the end of the first block that is not quiet,
/// or `text.len()` when the last whole blocks were quiet (the rest is too short for a block).
pub(crate) fn quiet_span(text: &[u8], quiet: &Quiet) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::has_avx512bw() {
        #[target_feature(enable = "avx512f,avx512bw")]
        fn with_avx512(text: &[u8], quiet: &Quiet) -> (usize, usize) {
            quiet_span_with(
                text,
                quiet,
                |span| avx512::masks(span),
                Some(|span: &_, zones: &_, wanted| avx512::zones(span, zones, wanted)),
            )
        }
        // SAFETY: the processor has AVX-512 BW (and so F), checked just above.
        return unsafe { with_avx512(text, quiet) };
    }
    #[cfg(target_arch = "x86_64")]
    if crate::simd::has_avx2() {
        #[target_feature(enable = "avx2")]
        fn with_avx2(text: &[u8], quiet: &Quiet) -> (usize, usize) {
            quiet_span_with(
                text,
                quiet,
                |span| avx2::masks(span),
                Some(|span: &_, zones: &_, wanted| avx2::zones(span, zones, wanted)),
            )
        }
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { with_avx2(text, quiet) };
    }
    // Eight bytes at a time in a `u64`; comparing a whole block with zones costs more than
    // looking its characters up.
    quiet_span_with(text, quiet, swar_masks, None::<Zones>)
}

/// How a level finds the characters of some zones in a block.
type Zones = fn(&[u8; SPAN], &[Zone], u64) -> u64;

/// [`quiet_span`] with the block masks of one level.
#[inline(always)]
pub(crate) fn quiet_span_with(
    text: &[u8],
    quiet: &Quiet,
    masks: impl Fn(&[u8; SPAN]) -> Masks,
    zones: Option<impl Fn(&[u8; SPAN], &[Zone], u64) -> u64>,
) -> (usize, usize) {
    let table = &quiet.table;
    // The home of every character of the last two blocks whose characters were looked up one
    // by one, when they had one and it was the same: most text keeps to one home (and neutral
    // characters) for long, and its blocks are then found by the home's zones, each a block at
    // a time, until every lead is found. A block of another home costs all its zones, so text
    // that changes home from block to block (words of Japanese beside words of Korean) is not
    // compared with one.
    let mut recent: Option<usize> = None;
    let mut looked_up: Option<usize> = None;
    // The homes the word that the last block ended in may be of (every home when no word is
    // open, or when it has no character above U+007F yet).
    let mut open = EVERY_HOME;
    // The ASCII letter or digit right before the block.
    let mut alnum_before = 0;
    let mut safe = 0;
    let mut at = 0;
    while let Some(span) = text.get(at..at + SPAN) {
        let span: &[u8; SPAN] = span.try_into().expect("a span");
        let m = masks(span);
        let mut leads = m.lead_2 | m.lead_3 | m.lead_4;
        let stops = m.ascii & !m.alnum;
        if leads != 0 {
            // An ASCII letter or digit right before a character, or right after its last byte:
            // the two are one word, whose home must take ASCII letters.
            let touching = (m.alnum << 1 | alnum_before)
                | m.lead_2 & m.alnum_on(2)
                | m.lead_3 & m.alnum_on(3)
                | m.lead_4 & m.alnum_on(4);
            // The leads with a stop between them and the lead before (or the block's start):
            // each stop carried on up to the next lead.
            let first = leads & fill_to_stops(stops, leads) << 1;
            // After the last lead, a stop ends the word.
            let last = 1 << (63 - leads.leading_zeros());
            let ended = stops & !(last | (last - 1)) != 0;
            // Every lead of the home of the last block or neutral, no ASCII letter touching the
            // home's characters unless it takes them, and the word the block begins in (if its
            // first characters are the home's) of the home too: every word of the block is of
            // that home, found with no character looked up. Then the word at the block's end.
            let whole = match (recent, &zones) {
                (Some(k), Some(zones)) => {
                    let (home, bit) = (&quiet.homes[k], 2 << k);
                    let of_home = zones(span, home.zones, leads);
                    let rest = leads & !of_home;
                    let lowest = leads & leads.wrapping_neg();
                    let neutral = |i: u32| {
                        let i = i as usize;
                        table.class(span[i], span[i + 1], span[i + 2]) & NEUTRAL != 0
                    };
                    (rest.count_ones() <= 4
                        && bits(rest).all(neutral)
                        && (home.takes_ascii || of_home & touching == 0)
                        && (open & bit != 0 || lowest & (first | rest) != 0))
                        .then_some(if rest & last != 0 { EVERY_HOME } else { bit })
                }
                _ => None,
            };
            let word = match whole {
                Some(word) => word,
                None => {
                    // The homes every character of the word so far is of, and those of the
                    // block.
                    let mut word = open;
                    let mut block = EVERY_HOME;
                    while leads != 0 {
                        let i = leads.trailing_zeros() as usize;
                        leads &= leads - 1;
                        let class = table.class(span[i], span[i + 1], span[i + 2]);
                        if first >> i & 1 != 0 {
                            word = EVERY_HOME;
                        }
                        word = match (class & NEUTRAL, touching >> i & 1) {
                            // In no word: it ends the one before it.
                            (NEUTRAL, _) => EVERY_HOME,
                            (_, 0) => word & class,
                            _ => word & class & table.takes_ascii,
                        };
                        if word == 0 {
                            // A character of no home, or of none its word's other characters
                            // share.
                            return (safe, at + BLOCK);
                        }
                        if class & NEUTRAL == 0 {
                            block &= class;
                        }
                    }
                    let home = (block != 0).then(|| block.trailing_zeros() as usize - 1);
                    recent = home.filter(|_| home == looked_up);
                    looked_up = home;
                    word
                }
            };
            open = if ended { EVERY_HOME } else { word };
        } else if stops != 0 {
            open = EVERY_HOME;
        }
        if stops != 0 {
            safe = at + BLOCK - stops.leading_zeros() as usize;
        }
        alnum_before = m.alnum >> 63;
        at += BLOCK;
    }
    (safe, text.len())
}

/// The places of the bits of `bits`, lowest first.
fn bits(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let i = bits.trailing_zeros();
        bits &= bits.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

/// The bits of `from`, each carried on to higher bits until a bit of `stops` (`from` holds
/// none of them): adding `from` to the other bits clears each run of them from its lowest bit
/// of `from` up, and carries out into the stop after the run.
fn fill_to_stops(from: u64, stops: u64) -> u64 {
    debug_assert_eq!(from & stops, 0, "a bit to carry on is a stop");
    let open = !stops;
    from | open & !open.wrapping_add(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CYRILLIC: Home = Home {
        zones: &[Zone::leads(0xD0, 0xD3)],
        takes_ascii: false,
    };
    const LATIN: Home = Home {
        zones: &[Zone::leads(0xC3, 0xC9)],
        takes_ascii: true,
    };
    const QUIET: Quiet = Quiet::new(
        &[Zone::after(0xC2, 0xAB, 0xAB), Zone::after(0xC2, 0xBB, 0xBB)],
        &[CYRILLIC, LATIN],
    );

    /// A block's masks and zones at one level.
    type Level = (
        &'static str,
        fn(&[u8; SPAN]) -> Masks,
        fn(&[u8; SPAN], &[Zone], u64) -> u64,
    );

    /// The masks of every level this processor has, the portable ones first.
    fn levels() -> Vec<Level> {
        #[allow(unused_mut)]
        let mut levels: Vec<Level> = vec![
            ("portable", portable_masks, portable_zones),
            ("eight bytes", swar_masks, portable_zones),
        ];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            fn masks(span: &[u8; SPAN]) -> Masks {
                // SAFETY: the test runs this only where the processor has AVX2.
                unsafe { avx2::masks(span) }
            }
            fn zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
                // SAFETY: the test runs this only where the processor has AVX2.
                unsafe { avx2::zones(span, zones, wanted) }
            }
            levels.push(("avx2", masks, zones));
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512bw") {
            fn masks(span: &[u8; SPAN]) -> Masks {
                // SAFETY: the test runs this only where the processor has AVX-512 BW.
                unsafe { avx512::masks(span) }
            }
            fn zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
                // SAFETY: the test runs this only where the processor has AVX-512 BW.
                unsafe { avx512::zones(span, zones, wanted) }
            }
            levels.push(("avx512", masks, zones));
        }
        levels
    }

    /// What every level answers, with and without comparing blocks with zones whole.
    fn answers(text: &str, quiet: &Quiet) -> Vec<(usize, usize)> {
        let text = text.as_bytes();
        let mut answers: Vec<_> = levels()
            .into_iter()
            .map(|(_, masks, zones)| quiet_span_with(text, quiet, masks, Some(zones)))
            .collect();
        answers.push(quiet_span_with(text, quiet, swar_masks, None::<Zones>));
        answers
    }

    fn span_at(text: &str) -> (usize, usize) {
        let mut answers = answers(text, &QUIET).into_iter();
        let first = answers.next().expect("the portable level");
        assert!(answers.all(|a| a == first), "levels differ on {text:?}");
        first
    }

    #[test]
    fn one_script_with_its_punctuation_is_quiet_to_the_last_space() {
        let text = "«Привет», мир; это тест: всё хорошо и ещё раз хорошо. ".repeat(3);
        let (safe, retry) = span_at(&text);
        // The whole blocks, each with the three bytes after it: up to the last break in them.
        let blocks_end = (text.len() - AHEAD) / BLOCK * BLOCK;
        let last_break = text.as_bytes()[..blocks_end]
            .iter()
            .rposition(|b| b.is_ascii() && !b.is_ascii_alphanumeric());
        assert_eq!((safe, retry), (last_break.unwrap() + 1, text.len()));
    }

    #[test]
    fn a_block_stops_at_a_letter_of_another_script_or_an_ascii_letter_touching_the_home() {
        let base = "мир ".repeat(40);
        for odd in ["pаypal", "при1", "«Приветé»", "1мир", "мир\u{0301}", "日本"]
        {
            let text = format!("{base}{odd} {base}");
            let (safe, retry) = span_at(&text);
            let at = base.len();
            assert!(safe <= at, "{odd}: quiet up to {safe}, past {at}");
            assert!(
                retry > at && retry <= at + odd.len() + 64,
                "{odd}: ask again at {retry}"
            );
            assert_eq!(retry % 64, 0, "{odd}");
        }
    }

    #[test]
    fn ascii_with_neutral_characters_alone_is_quiet_between_the_homes() {
        let text = format!(
            "{}{}{}",
            "мир ".repeat(20),
            "say «hi» ".repeat(20),
            "мир ".repeat(20)
        );
        let (safe, retry) = span_at(&text);
        assert_eq!(retry, text.len());
        assert!(safe + SPAN > text.len(), "quiet up to {safe}");
    }

    #[test]
    fn latin_takes_ascii_letters_into_its_words() {
        let text = "café naïve übergroß ".repeat(10);
        let (safe, retry) = span_at(&text);
        assert_eq!(retry, text.len());
        assert!(safe + 64 + AHEAD > text.len(), "quiet up to {safe}");
    }

    #[test]
    fn a_character_of_two_homes_takes_the_home_of_its_word() {
        // Han is Japanese and Korean; kana Japanese alone, Hangul Korean alone.
        const CJK: Quiet = Quiet::new(
            &[],
            &[
                CYRILLIC,
                Home {
                    zones: &[Zone::leads(0xE4, 0xE9), Zone::after(0xE3, 0x81, 0x83)],
                    takes_ascii: true,
                },
                Home {
                    zones: &[Zone::leads(0xE4, 0xE9), Zone::leads(0xEA, 0xED)],
                    takes_ascii: true,
                },
            ],
        );
        let spans = |text: &str| {
            let answers = answers(text, &CJK);
            assert!(answers.iter().all(|a| *a == answers[0]), "{text}");
            answers[0]
        };
        let base = "日本語のテキスト 한국어 漢字 文字 ".repeat(8);
        let (safe, retry) = spans(&base);
        assert_eq!(retry, base.len());
        assert!(safe + SPAN > base.len(), "quiet up to {safe}");
        // A word of kana and Hangul, or of Han and Cyrillic, shares no home.
        for odd in ["のは한국", "漢字мир", "OK한국の"] {
            let text = format!("{base}{odd} {base}");
            let (safe, retry) = spans(&text);
            let at = base.len();
            assert!(safe <= at, "{odd}: quiet up to {safe}, past {at}");
            assert!(retry > at && retry <= at + odd.len() + 64, "{odd}: {retry}");
        }
    }

    #[test]
    fn filling_carries_each_bit_up_to_the_next_stop() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..20_000 {
            // Sparse and dense stops, and every bit of a run from the first.
            let stops = match round % 3 {
                0 => next() & next(),
                1 => next() | next(),
                _ => next(),
            };
            let from = next() & next() & !stops;
            let mut want = 0u64;
            let mut carrying = false;
            for i in 0..64 {
                carrying = stops >> i & 1 == 0 && (carrying || from >> i & 1 == 1);
                want |= u64::from(carrying) << i;
            }
            assert_eq!(fill_to_stops(from, stops), want, "{from:064b} {stops:064b}");
        }
        assert_eq!(fill_to_stops(1, 0), !0);
        assert_eq!(fill_to_stops(1 << 63, 0), 1 << 63);
        assert_eq!(fill_to_stops(0b1, 0b1000), 0b111);
    }

    #[test]
    fn every_level_gives_the_portable_masks_at_every_byte() {
        let zones = [
            Zone::leads(0xD0, 0xD3),
            Zone::after(0xE2, 0x80, 0x81),
            Zone::after_two(0xE3, 0x80, 0x80, 0xA9),
        ];
        let pool: Vec<u8> = [
            0x00, b' ', b'0', b'9', b'a', b'Z', b'z', b'@', b'[', b'`', b'{',
        ]
        .into_iter()
        .chain([
            0x7F, 0x80, 0xA9, 0xAA, 0xBF, 0xC0, 0xC2, 0xCF, 0xD0, 0xD3, 0xD4, 0xDF,
        ])
        .chain([0xE0, 0xE2, 0xE3, 0xEF, 0xF0, 0xF4, 0xFF])
        .collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let span: [u8; SPAN] = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pool[(seed % pool.len() as u64) as usize]
            });
            let wanted = portable_masks(&span).lead_3 | seed;
            let want = (portable_masks(&span), portable_zones(&span, &zones, wanted));
            for (name, masks, zones_of) in levels() {
                assert_eq!(
                    (masks(&span), zones_of(&span, &zones, wanted)),
                    want,
                    "{name} on {span:02X?}"
                );
            }
        }
    }

    #[test]
    fn the_table_gives_each_character_the_zones_that_hold_it() {
        const SPLIT: Quiet = Quiet::new(
            &[Zone {
                lead: (0xF0, 0xF0),
                next: (0x9F, 0x9F),
                third: (0x8C, 0xAB),
            }],
            &[
                CYRILLIC,
                LATIN,
                Home {
                    zones: &[
                        Zone::leads(0xE4, 0xE9),
                        Zone::after_two(0xE3, 0x80, 0x80, 0xAD),
                    ],
                    takes_ascii: true,
                },
                Home {
                    zones: &[Zone::leads(0xE5, 0xE5), Zone::after(0xE3, 0x80, 0x81)],
                    takes_ascii: false,
                },
            ],
        );
        for quiet in [&QUIET, &SPLIT, &Quiet::NONE] {
            for lead in 0xC0..=0xFF {
                for next in 0x80..=0xBF {
                    for third in (0x00..=0xFF).filter(|&b| lead >= 0xE0 || b % 7 == 0) {
                        let bytes = [lead, next, third];
                        let holds = |zones: &[Zone]| zones.iter().any(|z| z.holds(bytes));
                        let want = quiet
                            .homes
                            .iter()
                            .enumerate()
                            .fold(u32::from(holds(quiet.neutral)), |class, (k, home)| {
                                class | u32::from(holds(home.zones)) << (k + 1)
                            });
                        // A continuation byte third for a character of three bytes or more.
                        if lead < 0xE0 || (0x80..=0xBF).contains(&third) {
                            let got = quiet.table.class(lead, next, third);
                            assert_eq!(got, want, "{bytes:02X?}");
                        }
                    }
                }
            }
        }
        assert_eq!(SPLIT.table.takes_ascii, 0b1100);
    }
}
