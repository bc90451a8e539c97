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
//!
//! Text of many characters of three bytes (Chinese, Japanese, Korean) would cost a lookup a
//! character, and its blocks often hold words of two homes side by side. With AVX2 or AVX-512,
//! the characters of the caller's lanes ([`Quiet::with_lanes`]) are told apart 32 or 64 bytes
//! at a time: five nibble tables, one for each of the lead's low nibble and the two nibbles of
//! each byte after it, give each byte the lanes it may start, and the lanes' homes give, for
//! each home, the leads that are not of it. Carrying those misfits on to each word's end
//! (`fill_to_stops`) shows at once whether some word of the block has a misfit for every home:
//! a block of lanes with no such word is quiet with no character looked up.

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
    /// The characters whose classes a block's nibbles give ([`Quiet::with_lanes`]).
    lanes: Lanes,
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
        Quiet::with_lanes(neutral, homes, &[])
    }

    /// The most lanes a [`Quiet`] may name.
    pub const MAX_LANES: usize = 8 * LANE_SETS;

    /// [`Quiet::new`], with the characters of three bytes whose classes the levels with SIMD
    /// give 64 bytes at a time by the nibbles of their first three bytes, not one lookup each:
    /// the text most blocks of Chinese, Japanese and Korean are made of, whatever homes their
    /// words are of. Each lane is a zone of characters of three bytes whose lead, next and
    /// third byte ranges each lie inside one high nibble or span whole ones (`E3 81..83`, `ED
    /// 90..9E`, `E4..E9`, but not `ED 80..9E`), and whose characters are all of one class: all
    /// neutral, or all of the same homes. A block whose characters above U+007F are all of
    /// lanes is judged with a few operations on its masks. Fails (at compile time, in a
    /// constant) with more than [`Quiet::MAX_LANES`] lanes, a lane of another form, or lanes
    /// of more than two homes in all.
    pub const fn with_lanes(
        neutral: &'static [Zone],
        homes: &'static [Home],
        lanes: &'static [Zone],
    ) -> Quiet {
        let table = Table::new(neutral, homes);
        let lanes = Lanes::new(&table, lanes);
        Quiet {
            neutral,
            homes,
            table,
            lanes,
        }
    }
}

/// Sets of eight lanes, a bit of a byte each.
const LANE_SETS: usize = 2;
/// The most homes the lanes' characters may be of.
const LANE_HOMES: usize = 2;

/// The lanes of a [`Quiet`] as nibble tables: a byte's lanes are those that each of the five
/// nibbles lets through (the lead's low nibble, and the high and low nibbles of the two bytes
/// after it), each set of eight lanes a table of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lanes {
    /// By set: the lead's low nibble, the next byte's high and low nibbles, the third's.
    nibbles: [[[u8; 16]; 5]; LANE_SETS],
    /// Whether any lane is named.
    named: bool,
    /// By set, the lanes of neutral characters.
    neutral: [u8; LANE_SETS],
    /// The homes the lanes' characters are of: each home's bit in a class, and by set the
    /// lanes whose characters are of it.
    homes: [(u32, [u8; LANE_SETS]); LANE_HOMES],
    /// The homes in use.
    home_count: usize,
}

/// What the lanes tell of a block's bytes, a bit a byte, each bit meaningful where a
/// character of three bytes starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LaneMasks {
    /// A character of some lane.
    pub(crate) any: u64,
    /// A neutral one.
    pub(crate) neutral: u64,
    /// One of each of [`Lanes::homes`].
    pub(crate) has: [u64; LANE_HOMES],
}

impl Lanes {
    const fn new(table: &Table, zones: &[Zone]) -> Lanes {
        assert!(
            zones.len() <= Quiet::MAX_LANES,
            "too many lanes for a Quiet"
        );
        let mut lanes = Lanes {
            nibbles: [[[0; 16]; 5]; LANE_SETS],
            named: !zones.is_empty(),
            neutral: [0; LANE_SETS],
            homes: [(0, [0; LANE_SETS]); LANE_HOMES],
            home_count: 0,
        };
        let mut k = 0;
        while k < zones.len() {
            let (zone, set, bit) = (zones[k], k / 8, 1 << (k % 8));
            assert!(
                zone.lead.0 >= 0xE0 && zone.lead.1 <= 0xEF,
                "a lane holds characters of three bytes"
            );
            let nibbles = [
                nibbles_of(zone.lead).1,
                nibbles_of(zone.next).0,
                nibbles_of(zone.next).1,
                nibbles_of(zone.third).0,
                nibbles_of(zone.third).1,
            ];
            let mut j = 0;
            while j < 5 {
                let mut n = 0;
                while n < 16 {
                    if nibbles[j] >> n & 1 != 0 {
                        lanes.nibbles[set][j][n] |= bit;
                    }
                    n += 1;
                }
                j += 1;
            }
            let class = table.class_of_all(zone);
            if class & NEUTRAL != 0 {
                lanes.neutral[set] |= bit;
            } else {
                let mut home = 1;
                while home < 31 {
                    if class >> home & 1 != 0 {
                        let mut h = 0;
                        while h < lanes.home_count && lanes.homes[h].0 != 1 << home {
                            h += 1;
                        }
                        if h == lanes.home_count {
                            assert!(h < LANE_HOMES, "lanes of too many homes");
                            lanes.homes[h].0 = 1 << home;
                            lanes.home_count += 1;
                        }
                        lanes.homes[h].1[set] |= bit;
                    }
                    home += 1;
                }
            }
            k += 1;
        }
        lanes
    }
}

/// The high and low nibbles of the bytes of `range`, as sets of bits, when the range is their
/// product: inside one high nibble, or whole high nibbles.
const fn nibbles_of((lo, hi): (u8, u8)) -> (u16, u16) {
    const fn run(from: u8, to: u8) -> u16 {
        (((1u32 << (to + 1)) - 1) & !((1u32 << from) - 1)) as u16
    }
    if lo >> 4 == hi >> 4 {
        (1 << (lo >> 4), run(lo & 0xF, hi & 0xF))
    } else {
        assert!(
            lo & 0xF == 0 && hi & 0xF == 0xF,
            "a lane's range spans part of a high nibble"
        );
        (run(lo >> 4, hi >> 4), 0xFFFF)
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
    const fn class(&self, lead: u8, next: u8, third: u8) -> u32 {
        let class = self.pairs[Table::pair(lead, next)];
        if class & BY_THIRD == 0 {
            class
        } else {
            self.thirds[class as usize % MAX_THIRDS][(third & 0x3F) as usize]
        }
    }

    /// The class every character of `zone` (of three bytes) is of. Fails when they are of
    /// different classes, or of none.
    const fn class_of_all(&self, zone: Zone) -> u32 {
        let mut class = 0;
        let mut lead = zone.lead.0;
        while lead <= zone.lead.1 {
            let mut next = if zone.next.0 < 0x80 {
                0x80
            } else {
                zone.next.0
            };
            while next <= zone.next.1 && next <= 0xBF {
                let mut third = if zone.third.0 < 0x80 {
                    0x80
                } else {
                    zone.third.0
                };
                // A pair whose class the third byte does not decide is one character's.
                let last = if self.pairs[Table::pair(lead, next)] & BY_THIRD == 0 {
                    third
                } else if zone.third.1 < 0xBF {
                    zone.third.1
                } else {
                    0xBF
                };
                while third <= last {
                    let got = self.class(lead, next, third);
                    assert!(got != 0, "a lane's character is of no class");
                    assert!(
                        class == 0 || got == class,
                        "a lane's characters are of different classes"
                    );
                    class = got;
                    third += 1;
                }
                next += 1;
            }
            lead += 1;
        }
        class
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

/// [`Masks::alnum_after`], the four bytes in a `u32` as [`swar_masks`] reads eight.
fn after_block(span: &[u8; SPAN]) -> u8 {
    const HIGH: u32 = 0x8080_8080;
    const ONES: u32 = 0x0101_0101;
    let x = u32::from_le_bytes(span[BLOCK..].try_into().expect("four bytes"));
    let within = |y: u32, lo: u8, hi: u8| {
        (y + ONES * u32::from(0x80 - lo)) & !(y + ONES * u32::from(0x7F - hi))
    };
    let letter = within((x | 0x2020_2020) & !HIGH, b'a', b'z');
    let digit = within(x & !HIGH, b'0', b'9');
    let alnum = (letter | digit) & !x & HIGH;
    ((alnum >> 7).wrapping_mul(0x1020_4080) >> 28) as u8
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

/// The lanes of each byte by the nibble tables, a byte at a time (the tests' reference for the
/// levels with SIMD).
#[cfg(test)]
fn portable_lanes(span: &[u8; SPAN], lanes: &Lanes) -> LaneMasks {
    let mut m = LaneMasks::default();
    for i in 0..BLOCK {
        let nibbles = [
            span[i] & 0xF,
            span[i + 1] >> 4,
            span[i + 1] & 0xF,
            span[i + 2] >> 4,
            span[i + 2] & 0xF,
        ];
        let of = |set: usize| {
            (0..5).fold(0xFF, |bits, j| {
                bits & lanes.nibbles[set][j][usize::from(nibbles[j])]
            })
        };
        let sets: [u8; LANE_SETS] = std::array::from_fn(of);
        let test = |wanted: [u8; LANE_SETS]| {
            u64::from(sets.iter().zip(wanted).any(|(b, w)| b & w != 0)) << i
        };
        m.any |= test([0xFF; LANE_SETS]);
        m.neutral |= test(lanes.neutral);
        for (h, (_, has)) in lanes.homes[..lanes.home_count].iter().enumerate() {
            m.has[h] |= test(*has);
        }
    }
    m
}

/// How a level tells a block's lanes.
type LanesOf = fn(&[u8; SPAN], &Lanes) -> LaneMasks;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{BLOCK, LANE_SETS, LaneMasks, Lanes, Masks, SPAN, Zone};

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

    /// [`super::portable_lanes`] with AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn lanes(span: &[u8; SPAN], lanes: &Lanes) -> LaneMasks {
        let low = _mm256_set1_epi8(0x0F);
        let zero = _mm256_setzero_si256();
        let tables = lanes.nibbles.map(|set| {
            // SAFETY: a table is 16 bytes.
            set.map(|t| _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) }))
        });
        let splat = |wanted: [u8; LANE_SETS]| wanted.map(|w| _mm256_set1_epi8(w as i8));
        let neutral = splat(lanes.neutral);
        let homes = lanes.homes.map(|(_, has)| splat(has));
        let mut m = LaneMasks::default();
        for (half, [v0, v1, v2]) in halves(span).into_iter().enumerate() {
            let shift = 32 * half;
            let nibbles = [
                _mm256_and_si256(v0, low),
                _mm256_and_si256(_mm256_srli_epi16::<4>(v1), low),
                _mm256_and_si256(v1, low),
                _mm256_and_si256(_mm256_srli_epi16::<4>(v2), low),
                _mm256_and_si256(v2, low),
            ];
            let sets = tables.map(|t| {
                let mut b = _mm256_shuffle_epi8(t[0], nibbles[0]);
                for j in 1..5 {
                    b = _mm256_and_si256(b, _mm256_shuffle_epi8(t[j], nibbles[j]));
                }
                b
            });
            let none = |v: __m256i| bits(_mm256_cmpeq_epi8(v, zero));
            let test = |wanted: &[__m256i; LANE_SETS]| {
                let of = _mm256_or_si256(
                    _mm256_and_si256(sets[0], wanted[0]),
                    _mm256_and_si256(sets[1], wanted[1]),
                );
                !none(of) & 0xFFFF_FFFF
            };
            m.any |= (!none(_mm256_or_si256(sets[0], sets[1])) & 0xFFFF_FFFF) << shift;
            m.neutral |= test(&neutral) << shift;
            for (has, wanted) in m.has.iter_mut().zip(&homes) {
                *has |= test(wanted) << shift;
            }
        }
        m
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{LANE_SETS, LaneMasks, Lanes, Masks, SPAN, Zone};

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

    /// [`super::portable_lanes`] with AVX-512.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn lanes(span: &[u8; SPAN], lanes: &Lanes) -> LaneMasks {
        let [v0, v1, v2] = shifted(span);
        let low = _mm512_set1_epi8(0x0F);
        let nibbles = [
            _mm512_and_si512(v0, low),
            _mm512_and_si512(_mm512_srli_epi16::<4>(v1), low),
            _mm512_and_si512(v1, low),
            _mm512_and_si512(_mm512_srli_epi16::<4>(v2), low),
            _mm512_and_si512(v2, low),
        ];
        let sets = lanes.nibbles.map(|set| {
            // SAFETY: a table is 16 bytes.
            let t =
                set.map(|t| _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) }));
            let mut b = _mm512_shuffle_epi8(t[0], nibbles[0]);
            for j in 1..5 {
                b = _mm512_and_si512(b, _mm512_shuffle_epi8(t[j], nibbles[j]));
            }
            b
        });
        let test = |wanted: [u8; LANE_SETS]| {
            _mm512_test_epi8_mask(sets[0], _mm512_set1_epi8(wanted[0] as i8))
                | _mm512_test_epi8_mask(sets[1], _mm512_set1_epi8(wanted[1] as i8))
        };
        let mut m = LaneMasks {
            any: test([0xFF; LANE_SETS]),
            neutral: test(lanes.neutral),
            has: [0; super::LANE_HOMES],
        };
        for (has, &(_, wanted)) in m.has.iter_mut().zip(&lanes.homes) {
            *has = test(wanted);
        }
        m
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
                Some(|span: &_, lanes: &_| avx512::lanes(span, lanes)),
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
                Some(|span: &_, lanes: &_| avx2::lanes(span, lanes)),
            )
        }
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { with_avx2(text, quiet) };
    }
    // Eight bytes at a time in a `u64`; comparing a whole block with zones, or its nibbles
    // with tables, costs more than looking its characters up.
    quiet_span_with(text, quiet, swar_masks, None::<Zones>, None::<LanesOf>)
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
    lanes: Option<impl Fn(&[u8; SPAN], &Lanes) -> LaneMasks>,
) -> (usize, usize) {
    let table = &quiet.table;
    let lanes = lanes.filter(|_| quiet.lanes.named);
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
            // Every character of lanes, and no word of them mixed: its homes found from the
            // block's masks, no character looked up.
            let of_lanes = match &lanes {
                Some(lanes) if leads == m.lead_3 => lane_word(
                    &lanes(span, &quiet.lanes),
                    &quiet.lanes,
                    Bytes {
                        leads,
                        stops,
                        touching,
                    },
                    open,
                    table.takes_ascii,
                ),
                _ => None,
            };
            let whole = match (recent, &zones) {
                _ if of_lanes.is_some() => of_lanes,
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

/// A block's lead bytes, its stops (ASCII bytes that are no letter or digit), and the leads an
/// ASCII letter or digit touches.
#[derive(Clone, Copy)]
struct Bytes {
    leads: u64,
    stops: u64,
    touching: u64,
}

/// The homes the word that a block ends in may be of (every home when no word of a character
/// above U+007F is open at its end), when every lead of the block (all of characters of three
/// bytes) is of lanes and no word of it mixes scripts; `None` when some character is of no
/// lane, or some word's characters share no home of the lanes (the block is then judged
/// character by character, which tells which). `open` is the homes of the word open before the
/// block.
///
/// A word mixes when, for each home of the lanes, one of its characters is not of that home
/// (or touches an ASCII letter and the home takes none, or the word began before the block
/// and was not of it): carrying each home's misfits on to the word's end ([`fill_to_stops`],
/// neutral characters ending words as stops do) marks every character after a misfit of that
/// home, and a character marked for every home is in a mixed word.
fn lane_word(
    m: &LaneMasks,
    lanes: &Lanes,
    block: Bytes,
    open: u32,
    takes_ascii: u32,
) -> Option<u32> {
    let Bytes {
        leads,
        stops,
        touching,
    } = block;
    if m.any & leads != leads {
        return None;
    }
    let neutral = m.neutral & leads;
    let letters = leads & !neutral;
    let ends = stops | neutral;
    // The word open before the block, when it goes on into it.
    let goes_on = 1 & !ends;
    let mut mixed = letters;
    let mut word = 0;
    for (&(bit, _), &has) in lanes.homes[..lanes.home_count].iter().zip(&m.has) {
        let mut misfits = letters & !has;
        if takes_ascii & bit == 0 {
            misfits |= letters & touching;
        }
        if open & bit == 0 {
            misfits |= goes_on;
        }
        let marked = fill_to_stops(misfits, ends);
        mixed &= marked;
        if marked >> 63 == 0 {
            word |= bit;
        }
    }
    if mixed != 0 {
        return None;
    }
    let last = 1 << (63 - leads.leading_zeros());
    Some(if neutral & last != 0 {
        EVERY_HOME
    } else {
        word
    })
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
mod tests;
