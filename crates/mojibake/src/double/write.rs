//! A line written back in a reading: its bytes, U+FFFD as a gap, checked as UTF-8 while they are
//! written; and those bytes read as UTF-8 again, each character a gap cut as one U+FFFD.

use super::tables::Tables;
use super::{HALF_BYTES_PER_GAP, READINGS};

/// How far the bytes written so far are UTF-8: continuation bytes still owed, and whether a gap
/// came last (continuations orphaned by a lost lead may follow one).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Utf8State {
    owed: u8,
    after_gap: bool,
}

impl Utf8State {
    /// The state after the bytes of `code` (`length << 24 | bytes`), if they may follow.
    pub(super) fn after(self, code: u32) -> Option<Utf8State> {
        let mut state = self;
        for k in (0..code >> 24).rev() {
            let b = (code >> (8 * k)) as u8;
            let is_continuation = b & 0xC0 == 0x80;
            if state.owed > 0 {
                if !is_continuation {
                    return None;
                }
                state.owed -= 1;
            } else if is_continuation {
                if !state.after_gap {
                    return None;
                }
            } else {
                state.after_gap = false;
                state.owed = match b {
                    0x00..=0x7F => 0,
                    0xC2..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF4 => 3,
                    _ => return None,
                };
            }
        }
        Some(state)
    }
}

/// The bytes of `text` in reading `r`, each U+FFFD as [`GAP`]: whether every character has
/// bytes there and they could be UTF-8 with bytes lost at the gaps (checked as they are
/// written, so that most clean lines stop at their first characters). A character with two byte
/// sequences in the reading (GBK reads both 80 and A2 E3 as €) is written both ways while both
/// may go on.
///
/// With `drops` ([`may_have_dropped`]), a character cut short by ASCII or by the line's end
/// lost its last bytes there: a gap goes in.
pub(super) fn encode(
    text: &str,
    r: usize,
    tables: &Tables,
    drops: bool,
    bytes: &mut Vec<u8>,
) -> bool {
    bytes.clear();
    let write = |state, bytes: &mut Vec<u8>, code| write(state, bytes, code, drops);
    let mut state = Utf8State::default();
    // The other way, when a character had two: its state and bytes so far.
    let mut other: Option<(Utf8State, Vec<u8>)> = None;
    for c in text.chars() {
        let (code, alternate) = if c == '\u{FFFD}' {
            (0, None)
        } else if c == '?' {
            // Some decoders write `?` where bytes were lost: a gap too, when the text as
            // written cannot go on.
            (1 << 24 | u32::from(c), Some(0))
        } else if c.is_ascii() {
            (1 << 24 | u32::from(c), None)
        } else {
            match tables.code(c, r) {
                0 if u32::from(c) <= 0xFFFF => return false,
                0 => match tables.astral_code(c, r) {
                    Some(code) => (code, None),
                    None => return false,
                },
                code => (code, tables.alternate(c, r)),
            }
        };
        // One way and one sequence: written in place.
        if alternate.is_none() && other.is_none() {
            match write(state, bytes, code) {
                Some(next) => {
                    state = next;
                    continue;
                }
                None => return false,
            }
        }

        // Every way still open, each with each of the character's sequences.
        let mut ways: Vec<(Utf8State, Vec<u8>)> = Vec::new();
        let mut open = [other.take(), Some((state, std::mem::take(bytes)))];
        for way in open.iter_mut() {
            let Some((from, written)) = way.take() else {
                continue;
            };
            if let Some(alternate) = alternate {
                let mut copy = written.clone();
                if let Some(next) = write(from, &mut copy, alternate) {
                    ways.push((next, copy));
                }
            }
            let mut written = written;
            if let Some(next) = write(from, &mut written, code) {
                ways.push((next, written));
            }
        }
        // The last pushed is the first sequence of the way that went on in `bytes`: it goes on
        // there while it can.
        let Some((next, written)) = ways.pop() else {
            return false;
        };
        state = next;
        *bytes = written;
        other = ways.into_iter().rev().find(|(s, _)| *s != state);
    }
    if state.owed == 0 || bytes.last() == Some(&GAP) {
        return true;
    }
    if let Some((s, written)) = other
        && s.owed == 0
    {
        *bytes = written;
        return true;
    }
    // The line ends inside a character: its last bytes were dropped.
    if drops {
        bytes.push(GAP);
    }
    drops
}

/// Whether the decoder that showed `text` may have dropped what it could not read: a decoder
/// either shows it (U+FFFD, `?`) or drops it, so a line with neither may have lost bytes where
/// a character is cut short.
pub(super) fn may_have_dropped(text: &str) -> bool {
    !text.contains(['\u{FFFD}', '?'])
}

/// `code` (`length << 24 | bytes`, or 0 for a gap) written after bytes in `state`: the state
/// after it, or `None` when its bytes cannot follow. With `drops`, ASCII after a character cut
/// short follows a gap: the character's last bytes were dropped.
pub(super) fn write(
    state: Utf8State,
    bytes: &mut Vec<u8>,
    code: u32,
    drops: bool,
) -> Option<Utf8State> {
    if code == 0 {
        bytes.push(GAP);
        return Some(Utf8State {
            owed: 0,
            after_gap: true,
        });
    }
    let next = match state.after(code) {
        Some(next) => next,
        // A character cut short by ASCII: its last bytes were lost (a decoder that drops the
        // pairs it cannot read, as `参数错误` shows as `鍙傛暟閿欒`).
        None if drops && state.owed > 0 && code >> 24 == 1 && code & 0x80 == 0 => {
            bytes.push(GAP);
            Utf8State::default().after(code)?
        }
        None => return None,
    };
    for k in (0..code >> 24).rev() {
        bytes.push((code >> (8 * k)) as u8);
    }
    Some(next)
}

/// Where a reading lost bytes; never a byte of UTF-8.
pub(super) const GAP: u8 = 0xFF;

/// `bytes` as UTF-8, each character cut by a gap as one U+FFFD; and how many there are. `None`
/// when a part between gaps is not UTF-8 but for the characters a gap cut. `r` is the reading
/// that lost the gaps' bytes ([`READINGS`]).
pub(super) fn decode_with_gaps(bytes: &[u8], r: usize) -> Option<(String, usize)> {
    let half_bytes = HALF_BYTES_PER_GAP[r];
    let euc_jp = READINGS[r] == encoding_rs::EUC_JP;
    let mut text = String::with_capacity(bytes.len());
    let mut damaged = 0;
    // Continuation bytes the character cut by the last gap still needed.
    let mut owed = 0usize;
    let parts = bytes.iter().filter(|&&b| b == GAP).count() + 1;
    // Gaps side by side are one that lost up to two bytes each.
    let mut gaps = 0usize;
    for (k, part) in bytes.split(|&b| b == GAP).enumerate() {
        let after_gap = k > 0;
        if after_gap {
            gaps += 1;
        }
        if after_gap && part.is_empty() && k + 1 < parts {
            continue;
        }
        let orphans = if after_gap {
            part.iter().take_while(|&&b| b & 0xC0 == 0x80).count()
        } else {
            0
        };
        if after_gap {
            // Each U+FFFD of the gap lost one byte or two (a lead and the byte it could not
            // pair with). The gap cut one character when what it left on both sides is one with
            // that many bytes lost; else the one it left unfinished and the one it left
            // without a lead, or a whole one lost too when the gap lost more than the first
            // still owed.
            let (least, most) = (gaps, 2 * gaps);
            let one = owed > orphans && (least..=most).contains(&(owed - orphans));
            gaps = 0;
            // The characters lost whole are as long as their neighbours (a U+FFFD for each
            // 2-byte letter of Cyrillic, one for two of them between ideographs).
            let rest = &part[orphans..];
            let neighbour = text
                .chars()
                .next_back()
                .into_iter()
                .chain(rest.utf8_chunks().flat_map(|c| c.valid().chars()).take(1))
                .find(|&c| !c.is_ascii() && c != '\u{FFFD}')
                .map_or(3, char::len_utf8);
            // What the gap lost besides the end of the character it left unfinished and the
            // start of the one it left without a lead (`half_bytes` for each U+FFFD), in whole
            // characters.
            let head = if orphans > 0 {
                neighbour.saturating_sub(orphans).max(1)
            } else {
                0
            };
            let lost = least * half_bytes / 2;
            let between = |cut: usize| lost.saturating_sub(owed + head) / neighbour + cut;
            let cut = match (owed > 0, orphans > 0) {
                (true, true) if !one => between(2),
                (true, false) if least > owed => between(1).max(2),
                (false, true) => between(1),
                (false, false) => (most / neighbour).max(1),
                _ => 1,
            };
            // Where one count of whole characters lost alone gives a length the U+FFFD could
            // have lost, that is the count. EUC-JP's U+FFFD are of known shapes, so the bytes
            // must also fall into them (see [`euc_jp_gap_fits`]).
            let partial = usize::from(owed > 0) + usize::from(orphans > 0);
            let fits = |n: usize| {
                let len = owed + head + n * neighbour;
                (least..=most).contains(&len)
                    && (!euc_jp || euc_jp_gap_fits(owed, n, neighbour, head, least))
            };
            // Where EUC-JP's U+FFFD leave several counts, the fewest: more of them lost a
            // continuation byte 80..A0 alone than a pair.
            let mut counts = (0..=most / neighbour).filter(|&n| fits(n));
            let cut = match (counts.next(), counts.next()) {
                (Some(n), next) if !(one && orphans > 0) && (next.is_none() || euc_jp) => {
                    (n + partial).max(1)
                }
                _ => cut,
            };
            text.extend(std::iter::repeat_n('\u{FFFD}', cut));
            damaged += cut;
        }
        let rest = &part[orphans..];
        // A character the next gap cuts: the lead of the last one that is not whole.
        let (whole, tail) = if k + 1 < parts {
            split_tail(rest)
        } else {
            (rest, &[][..])
        };
        text.push_str(std::str::from_utf8(whole).ok()?);
        owed = if tail.is_empty() {
            0
        } else {
            sequence_len(tail[0]) - tail.len()
        };
    }
    Some((text, damaged))
}

/// Whether the bytes a gap of `gaps` U+FFFD lost in EUC-JP can be `owed` continuation bytes,
/// `n` whole characters of `len` bytes and the first `head` bytes of one more, as its decoder
/// loses them, one U+FFFD for each: a continuation byte 80..A0 alone; a byte A1..FE and the
/// byte after it that it could not pair with (80..A0), or that the pair leaves undefined; a
/// lead byte alone before ASCII. A lead of UTF-8 (C2..F4) pairs with a continuation A1..BF
/// (the rows of Cyrillic and of the ideographs are all defined), so one in a gap went with the
/// next byte, a continuation 80..A0, or stood last.
pub(super) fn euc_jp_gap_fits(owed: usize, n: usize, len: usize, head: usize, gaps: usize) -> bool {
    // Whether each byte of the gap is a lead.
    let leads: Vec<bool> = std::iter::repeat_n(false, owed)
        .chain((0..n).flat_map(|_| (0..len).map(|i| i == 0)))
        .chain((0..head).map(|i| i == 0))
        .collect();
    // `can[i]`: the U+FFFD counts that bytes `i..` can make.
    let mut can = vec![0u64; leads.len() + 1];
    can[leads.len()] = 1;
    for i in (0..leads.len()).rev() {
        let mut here = 0;
        if leads[i] {
            // A lead and the continuation 80..A0 it could not pair with, one U+FFFD; or a
            // lead alone at the gap's end, before ASCII.
            match leads.get(i + 1) {
                Some(false) => here |= can[i + 2] << 1,
                None => here |= can[i + 1] << 1,
                Some(true) => {}
            }
        } else {
            here |= can[i + 1] << 1;
            if i + 1 < leads.len() {
                here |= can[i + 2] << 1;
            }
        }
        can[i] = here;
    }
    gaps < 64 && can[0] >> gaps & 1 != 0
}

/// `part` split before the last character it does not hold whole.
pub(super) fn split_tail(part: &[u8]) -> (&[u8], &[u8]) {
    let start = part
        .iter()
        .rposition(|&b| b & 0xC0 != 0x80)
        .unwrap_or(part.len());
    if start < part.len() && part.len() - start < sequence_len(part[start]) {
        part.split_at(start)
    } else {
        (part, &[])
    }
}

/// The length of the UTF-8 sequence `lead` begins.
pub(super) fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}
