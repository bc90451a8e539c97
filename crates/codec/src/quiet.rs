//! Text that holds no mixed-script word, found 64 bytes at a time (the `mixed-script` lint's
//! fast path, SPEC 1.6).
//!
//! Most words are written in one script: judging each would cost more than reading the text.
//! The caller's [`Quiet`] names, by the first bytes of their UTF-8 forms, the characters that
//! are in no word (spaces, punctuation, emoji: [`Quiet::neutral`]) and, for each writing
//! system, the characters whose words never mix scripts ([`Home`]). Text is quiet when every
//! character above U+007F in it is neutral or of a home, every stretch between two stops (an
//! ASCII byte that is no letter or digit, or a neutral character: no word goes past one) holds
//! characters of one home at most, and, unless that home takes ASCII letters into its words
//! (Latin; Chinese, Japanese and Korean, which TR39 lets mix with Latin), no ASCII letter or
//! digit touches a character of the home. Every word of such text is then ASCII alone, of one
//! home alone, or (in a home that takes them) one home with ASCII letters: none mixes scripts,
//! and the words need no judging. The caller's tests hold each zone to the Unicode data.
//!
//! `quiet_span` reads a block of 64 bytes at a time with AVX2 (where the processor has it
//! and the level allows; `portable_masks` is the reference the SIMD path is held to, but a
//! byte at a time judging the words is quicker, so the portable level does that). Each lead
//! byte gets its home (the one of the word the last block ended in, one of the last block's,
//! or the first that holds it), each home's leads are carried on to the next stop
//! (`fill_to_stops`), and a lead of another home met on the way ends the quiet text. It gives
//! how far the text is quiet, ending after an ASCII stop, and where the first block that is
//! not quiet ends: the words up to there are the caller's to judge one by one.

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
    pub fn holds(&self, bytes: [u8; 3]) -> bool {
        let within = |range: (u8, u8), b: u8| (range.0..=range.1).contains(&b);
        within(self.lead, bytes[0]) && within(self.next, bytes[1]) && within(self.third, bytes[2])
    }
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

/// What the caller vouches for, from the Unicode data: see the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// Characters in no word: they may stand anywhere.
    pub neutral: &'static [Zone],
    /// The writing systems.
    pub homes: &'static [Home],
}

impl Quiet {
    /// Nothing vouched for: only ASCII is quiet.
    pub const NONE: Quiet = Quiet {
        neutral: &[],
        homes: &[],
    };
}

/// The bytes of a block, and how many after them its masks look at (the byte after a lead,
/// the ASCII letter or digit after a character of three bytes).
const BLOCK: usize = 64;
const AHEAD: usize = 3;
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
    /// Whether each of the three bytes after the block is an ASCII letter or digit (bit `k`
    /// for byte `64 + k`).
    pub(crate) alnum_after: u8,
}

impl Masks {
    /// ASCII letters and digits `k` bytes on from each byte.
    fn alnum_on(&self, k: u32) -> u64 {
        self.alnum >> k | u64::from(self.alnum_after) << (64 - k)
    }
}

/// The masks a byte at a time: what every SIMD level must give (the tests' reference; a byte
/// at a time, judging the words is quicker, and [`quiet_span`] does so).
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
                |span, zones, wanted| avx512::zones(span, zones, wanted),
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
                |span, zones, wanted| avx2::zones(span, zones, wanted),
            )
        }
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { with_avx2(text, quiet) };
    }
    // A byte at a time, the masks cost more than judging the words: none is passed over.
    (0, text.len())
}

/// The most writing systems a block may hold and still be read as a whole.
const MAX_HOMES: usize = 6;

/// What fills the unused places of a block's list of homes.
const UNUSED: Home = Home {
    zones: &[],
    takes_ascii: true,
};

/// [`quiet_span`] with the block masks of one level.
#[inline(always)]
pub(crate) fn quiet_span_with(
    text: &[u8],
    quiet: &Quiet,
    masks: impl Fn(&[u8; SPAN]) -> Masks,
    zones: impl Fn(&[u8; SPAN], &[Zone], u64) -> u64,
) -> (usize, usize) {
    // The home of the characters of the word-to-be that the last block ended in (none before
    // the text: no word is open there), and the homes met lately: tried first.
    let mut open: Option<&Home> = None;
    let mut recent: [Option<&Home>; MAX_HOMES] = [None; MAX_HOMES];
    // The ASCII letter or digit right before the block.
    let mut alnum_before = 0;
    let mut safe = 0;
    let mut at = 0;
    while let Some(span) = text.get(at..at + SPAN) {
        let span: &[u8; SPAN] = span.try_into().expect("a span");
        let m = masks(span);
        let leads = m.lead_2 | m.lead_3 | m.lead_4;
        let mut stops = m.ascii & !m.alnum;
        if leads != 0 {
            // Give each lead its home: the open one, one of the last block, or the first that
            // holds it; neutral leads stop words as ASCII punctuation does.
            let mut homes: [(&Home, u64); MAX_HOMES] = [(&UNUSED, 0); MAX_HOMES];
            let mut count = 0;
            let mut rest = leads;
            let mut neutral_done = false;
            // Most blocks hold the home of the block before alone: its zones first, with no
            // lead looked up.
            if let Some(home) = open.or(recent[0]) {
                let of_home = zones(span, home.zones, rest);
                if of_home != 0 {
                    rest &= !of_home;
                    homes[0] = (home, of_home);
                    count = 1;
                }
            }
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                let lead = [span[i], span[i + 1], span[i + 2]];
                let holds = |h: &&Home| h.zones.iter().any(|z| z.holds(lead));
                let in_open = open.filter(holds);
                if in_open.is_none() && !neutral_done && quiet.neutral.iter().any(|z| z.holds(lead))
                {
                    neutral_done = true;
                    let neutral = zones(span, quiet.neutral, rest);
                    stops |= neutral;
                    rest &= !neutral;
                    continue;
                }
                let home = in_open
                    .or_else(|| recent.iter().flatten().copied().find(holds))
                    .or_else(|| quiet.homes.iter().find(holds));
                match home {
                    Some(home) if count < MAX_HOMES => {
                        let of_home = zones(span, home.zones, rest);
                        if of_home == 0 {
                            // `holds` gave the lead this home, so its zones hold it (the tests
                            // hold every level to `holds`); ending here keeps the loop finite
                            // whatever.
                            return (safe, at + BLOCK);
                        }
                        rest &= !of_home;
                        homes[count] = (home, of_home);
                        count += 1;
                    }
                    _ => return (safe, at + BLOCK),
                }
            }
            let homes = &homes[..count];
            let all = leads & !stops;
            // The bytes before the block's first stop go on the word the last block ended in.
            let prefix = match stops {
                0 => u64::MAX,
                _ => (1 << stops.trailing_zeros()) - 1,
            };
            // One home, the open one or none open: no word of the block can hold another.
            let alone = count == 1 && open.is_none_or(|o| std::ptr::eq(o, homes[0].0));
            // An ASCII letter or digit right before a character, or right after its last byte:
            // the two may be one word.
            let touching =
                (m.alnum << 1 | alnum_before) | m.lead_2 & m.alnum_on(2) | m.lead_3 & m.alnum_on(3);
            for &(home, of_home) in homes {
                // A word holds the characters of one home: those of another after them, or
                // before them in a word that began in an earlier block, end the quiet text.
                let carried = open.is_some_and(|o| std::ptr::eq(o, home));
                let from = of_home | if carried { prefix } else { 0 };
                if !alone && fill_to_stops(from, stops) & all & !of_home != 0 {
                    return (safe, at + BLOCK);
                }
                if !home.takes_ascii && of_home & touching != 0 {
                    return (safe, at + BLOCK);
                }
            }
            if let Some(o) = open
                && !homes.iter().any(|(h, _)| std::ptr::eq(*h, o))
                && all & prefix != 0
            {
                return (safe, at + BLOCK);
            }
            // The word-to-be at the block's end: after its last stop.
            let tail = if stops == 0 {
                u64::MAX
            } else {
                !(u64::MAX >> stops.leading_zeros())
            };
            let in_tail = homes.iter().find(|(_, of_home)| of_home & tail != 0);
            open = match in_tail {
                Some((home, _)) => Some(*home),
                None if stops == 0 => open,
                None => None,
            };
            if let Some(&(first, _)) = homes.first()
                && !recent[0].is_some_and(|r| std::ptr::eq(r, first))
            {
                for (place, (home, _)) in recent.iter_mut().zip(homes) {
                    *place = Some(*home);
                }
            }
        } else if stops != 0 {
            open = None;
        }
        let breaks = m.ascii & !m.alnum;
        if breaks != 0 {
            safe = at + BLOCK - breaks.leading_zeros() as usize;
        }
        alnum_before = m.alnum >> 63;
        at += BLOCK;
    }
    (safe, text.len())
}

/// The bits of `from`, each carried on to higher bits until a bit of `stops`.
fn fill_to_stops(from: u64, stops: u64) -> u64 {
    let (mut filled, mut open) = (from, !stops);
    for shift in [1, 2, 4, 8, 16, 32] {
        filled |= open & filled << shift;
        open &= open << shift;
    }
    filled
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
    const QUIET: Quiet = Quiet {
        neutral: &[Zone::after(0xC2, 0xAB, 0xAB), Zone::after(0xC2, 0xBB, 0xBB)],
        homes: &[CYRILLIC, LATIN],
    };

    /// A block's masks and zones at one level.
    type Level = (
        &'static str,
        fn(&[u8; SPAN]) -> Masks,
        fn(&[u8; SPAN], &[Zone], u64) -> u64,
    );

    /// The masks of every level this processor has, the portable ones first.
    fn levels() -> Vec<Level> {
        #[allow(unused_mut)]
        let mut levels: Vec<Level> = vec![("portable", portable_masks, portable_zones)];
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

    fn span_at(text: &str) -> (usize, usize) {
        let mut answers = levels()
            .into_iter()
            .map(|(_, masks, zones)| quiet_span_with(text.as_bytes(), &QUIET, masks, zones));
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
}
