//! The lints that depend on their neighbours: `invisible` and `tag` (SPEC 1.6).
//!
//! The scanner reports every candidate character ([`Lint::classify`]); `Contextual` sits
//! between it and the caller's sink and turns back into text each candidate whose neighbours
//! give it a job: a ZWJ inside an emoji sequence or between letters of a joining script, a
//! variation selector after a character it varies, the tags of an emoji flag sequence. Because
//! it only sees the stream of text and findings, which does not depend on how the input was cut
//! into chunks, its decisions do not either. It holds back at most one candidate that waits for
//! the next character, or the tags of one possible flag sequence (at most
//! [`MAX_FLAG_TAGS`] + 1 findings of 4 bytes): its memory is bounded.

use std::ops::ControlFlow;

use crate::finding::{Finding, FindingKind, Sink};
use crate::position::Position;
use crate::rules::Lint;
use crate::unit::UnitBytes;

/// The most tag characters between U+1F3F4 and U+E007F in an emoji flag sequence: a subdivision
/// code is 3 to 6 lowercase letters and digits (`gbeng`, `usca`). Any other run of tags (a
/// capital, a space, punctuation, a longer run) is no flag, and its tags are reported: text
/// hidden as flags ("approve this", two black flags) is found.
pub const MAX_FLAG_TAGS: usize = 6;

/// The fewest tag characters of a subdivision code in an emoji flag sequence.
pub const MIN_FLAG_TAGS: usize = 3;

const BLACK_FLAG: char = '\u{1F3F4}';
const CANCEL_TAG: u32 = 0xE_007F;

/// A candidate finding held until its neighbours are known.
#[derive(Clone, Copy, Debug)]
struct Held {
    position: Position,
    kind: FindingKind,
    bytes: UnitBytes,
    codepoint: u32,
}

impl Held {
    fn of(finding: &Finding<'_>, codepoint: u32) -> Held {
        Held {
            position: finding.position,
            kind: finding.kind,
            bytes: UnitBytes::new(finding.bytes),
            codepoint,
        }
    }

    fn bytes(&self) -> &[u8] {
        self.bytes.as_bytes()
    }
}

/// What the context lints remember between calls (and between chunks).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContextState {
    /// The last character passed on, as text or as a finding; `None` at the start of the input
    /// and after an ill-formed unit.
    prev: Option<char>,
    /// The offset just past the last character passed on as text: a flag's tags must follow
    /// U+1F3F4 with nothing between.
    prev_end: u64,
    /// Candidates waiting for what follows: one invisible character that needs its next
    /// neighbour, or the tags of a possible emoji flag sequence.
    held: Vec<Held>,
    /// The run being gathered into one finding: non-ASCII characters (with `non-ascii`), or
    /// tag characters that follow each other.
    run: Option<NonAsciiRun>,
    /// A run's buffer, kept for the next run.
    spare: Vec<u8>,
    /// ASCII spaces and punctuation after the run, held until what follows says whether they
    /// join it to more non-ASCII text.
    gap: Vec<u8>,
    /// Whether `non-ascii` is asked for: a character the other lints exempt is then part of a
    /// run rather than text.
    non_ascii: bool,
}

/// Findings of one lint gathered into one: non-ASCII characters, with the ASCII spaces, tabs and
/// punctuation between them on one line (a line of Greek is one `non-ascii` finding), or tag
/// characters one after the other (the text they hide is one `tag` finding).
#[derive(Clone, Debug)]
struct NonAsciiRun {
    position: Position,
    codepoint: u32,
    bytes: Vec<u8>,
    lint: Lint,
}

/// The longest run of non-ASCII characters one finding covers: a longer run is reported in
/// pieces of at most this many bytes, so that memory stays bounded.
pub const MAX_NON_ASCII_RUN: usize = 4096;

impl ContextState {
    /// The state for a scanner whose lints include `non-ascii` or not.
    pub(crate) fn new(non_ascii: bool) -> ContextState {
        ContextState {
            non_ascii,
            ..ContextState::default()
        }
    }

    /// The state after a newline passed on as text, ending at `byte_offset`.
    pub(crate) fn resume_after_newline(&mut self, byte_offset: u64) {
        self.prev = Some('\n');
        self.prev_end = byte_offset;
    }
}

/// A sink that applies the context lints on the way to `inner`.
pub(crate) struct Contextual<'a, S: Sink + ?Sized> {
    pub(crate) state: &'a mut ContextState,
    pub(crate) inner: &'a mut S,
}

impl<S: Sink + ?Sized> Contextual<'_, S> {
    /// Reports the gathered run of non-ASCII characters, if any, then the spaces held after it.
    fn flush_run(&mut self) -> ControlFlow<()> {
        let Some(run) = self.state.run.take() else {
            return ControlFlow::Continue(());
        };
        let gap_offset = run.position.byte_offset + run.bytes.len() as u64;
        self.inner.finding(&Finding {
            position: run.position,
            kind: FindingKind::Lint(run.lint),
            bytes: &run.bytes,
            codepoint: Some(run.codepoint),
        })?;
        self.state.spare = run.bytes;
        self.state.spare.clear();
        if self.state.gap.is_empty() {
            return ControlFlow::Continue(());
        }
        let gap = std::mem::take(&mut self.state.gap);
        let flow = self.inner.text(gap_offset, &gap);
        self.state.gap = gap;
        self.state.gap.clear();
        flow
    }

    /// Passes text on; while a run is open, spaces and punctuation are held, as they may join
    /// it to more.
    fn out_text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return self.inner.text(byte_offset, bytes);
        }
        if let Some(run) = &self.state.run {
            // Spaces and punctuation may join more non-ASCII text to a run; a run of tags ends
            // at any text.
            let joins = |b: &u8| *b == b' ' || *b == b'\t' || b.is_ascii_punctuation();
            let room = MAX_NON_ASCII_RUN - run.bytes.len() - self.state.gap.len();
            if run.lint == Lint::NonAscii && bytes.iter().all(joins) && bytes.len() < room {
                self.state.gap.extend_from_slice(bytes);
                return ControlFlow::Continue(());
            }
            self.flush_run()?;
        }
        self.inner.text(byte_offset, bytes)
    }

    /// Passes a finding on; `non-ascii` findings that follow each other become one, and so do
    /// `tag` findings right after each other.
    fn out_finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let lint = match finding.kind {
            FindingKind::Lint(lint @ (Lint::NonAscii | Lint::Tag)) => lint,
            _ => {
                self.flush_run()?;
                return self.inner.finding(finding);
            }
        };
        let offset = finding.position.byte_offset;
        if let Some(run) = &mut self.state.run {
            let gap = &mut self.state.gap;
            let end = run.position.byte_offset + (run.bytes.len() + gap.len()) as u64;
            let len = run.bytes.len() + gap.len() + finding.bytes.len();
            if run.lint == lint && end == offset && len <= MAX_NON_ASCII_RUN {
                run.bytes.append(gap);
                run.bytes.extend_from_slice(finding.bytes);
                return ControlFlow::Continue(());
            }
            self.flush_run()?;
        }
        let mut bytes = std::mem::take(&mut self.state.spare);
        bytes.extend_from_slice(finding.bytes);
        self.state.run = Some(NonAsciiRun {
            position: finding.position,
            codepoint: finding.codepoint.unwrap_or(0),
            bytes,
            lint,
        });
        ControlFlow::Continue(())
    }

    /// Passes on a candidate the lints exempt (it has a job): text, or with `non-ascii` part of
    /// a run.
    fn out_exempt(&mut self, position: Position, bytes: &[u8], codepoint: u32) -> ControlFlow<()> {
        if self.state.non_ascii {
            self.out_finding(&Finding {
                position,
                kind: FindingKind::Lint(Lint::NonAscii),
                bytes,
                codepoint: Some(codepoint),
            })
        } else {
            self.out_text(position.byte_offset, bytes)
        }
    }

    /// Passes a held candidate on: exempt, or the finding it is.
    fn release(&mut self, held: &Held, has_job: bool) -> ControlFlow<()> {
        if has_job {
            self.out_exempt(held.position, held.bytes(), held.codepoint)
        } else {
            self.out_finding(&Finding {
                position: held.position,
                kind: held.kind,
                bytes: held.bytes(),
                codepoint: Some(held.codepoint),
            })
        }
    }

    /// Decides what is held, now that the next character is known (`None`: the input ended, or
    /// an ill-formed unit follows).
    fn decide(&mut self, next: Option<char>) -> ControlFlow<()> {
        if self.state.held.is_empty() {
            return ControlFlow::Continue(());
        }
        let held = std::mem::take(&mut self.state.held);
        let is_tag_run = held[0].kind == FindingKind::Lint(Lint::Tag);
        if is_tag_run {
            // A flag sequence is complete only with its cancel tag, which releases it at once:
            // a run still held here is not one.
            for candidate in &held {
                self.release(candidate, false)?;
            }
        } else {
            let candidate = held[0];
            let has_job = invisible_has_job(candidate.codepoint, self.state.prev, next);
            self.release(&candidate, has_job)?;
            if has_job {
                self.state.prev = char::from_u32(candidate.codepoint);
                self.state.prev_end =
                    candidate.position.byte_offset + candidate.bytes().len() as u64;
            }
        }
        self.state.held = held;
        self.state.held.clear();
        ControlFlow::Continue(())
    }

    /// A tag character: held while it may belong to an emoji flag sequence, released with the
    /// sequence as text when U+E007F completes it, else a finding.
    fn tag(&mut self, finding: &Finding<'_>, codepoint: u32) -> ControlFlow<()> {
        let held = &self.state.held;
        let is_tag_run = held
            .first()
            .is_some_and(|h| h.kind == FindingKind::Lint(Lint::Tag));
        if !is_tag_run {
            self.decide(None)?;
        }
        let run_len = self.state.held.len();
        // The character before the run (`prev` is not moved while tags are held), right before.
        let after_flag = self.state.prev == Some(BLACK_FLAG)
            && (run_len > 0 || self.state.prev_end == finding.position.byte_offset);
        // A subdivision code: tag digits and lowercase tag letters.
        let is_spec = matches!(codepoint, 0xE_0030..=0xE_0039 | 0xE_0061..=0xE_007A);
        if after_flag
            && codepoint == CANCEL_TAG
            && (MIN_FLAG_TAGS..=MAX_FLAG_TAGS).contains(&run_len)
        {
            // A complete emoji tag sequence: every tag of it is text.
            let run = std::mem::take(&mut self.state.held);
            for candidate in &run {
                self.release(candidate, true)?;
            }
            self.state.held = run;
            self.state.held.clear();
            self.state.prev = char::from_u32(codepoint);
            self.state.prev_end = finding.position.byte_offset + finding.bytes.len() as u64;
            return self.out_exempt(finding.position, finding.bytes, codepoint);
        }
        if after_flag && is_spec && run_len < MAX_FLAG_TAGS {
            self.state.held.push(Held::of(finding, codepoint));
            return ControlFlow::Continue(());
        }
        // Not (or no longer) a flag sequence: what was held and this tag are findings.
        self.decide(None)?;
        self.out_finding(finding)
    }
}

impl<S: Sink + ?Sized> Sink for Contextual<'_, S> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return self.out_text(byte_offset, bytes);
        }
        if !self.state.held.is_empty() {
            self.decide(crate::unit::first_char(bytes).filter(|&c| !is_hidden(c)))?;
        }
        self.state.prev = last_char(bytes);
        self.state.prev_end = byte_offset + bytes.len() as u64;
        self.out_text(byte_offset, bytes)
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let codepoint = finding.codepoint.filter(|_| {
            matches!(
                finding.kind,
                FindingKind::Lint(_) | FindingKind::ForeignBom(_)
            )
        });
        match (finding.kind, codepoint) {
            (FindingKind::Lint(Lint::Tag), Some(cp)) => self.tag(finding, cp),
            (FindingKind::Lint(Lint::Invisible), Some(cp)) => {
                self.decide(None)?;
                if needs_next(cp) {
                    self.state.held.push(Held::of(finding, cp));
                    return ControlFlow::Continue(());
                }
                if invisible_has_job(cp, self.state.prev, None) {
                    self.state.prev = char::from_u32(cp);
                    self.state.prev_end = finding.position.byte_offset + finding.bytes.len() as u64;
                    self.out_exempt(finding.position, finding.bytes, cp)
                } else {
                    self.out_finding(finding)
                }
            }
            (FindingKind::Lint(Lint::NonAscii), Some(cp)) => {
                // With `non-ascii`, every other character above U+007F arrives here: it is a
                // neighbour like text (it is only gathered into a run).
                let c = char::from_u32(cp);
                self.decide(c.filter(|&c| !is_hidden(c)))?;
                self.state.prev = c;
                self.state.prev_end = finding.position.byte_offset + finding.bytes.len() as u64;
                self.out_finding(finding)
            }
            (FindingKind::Lint(_), Some(cp)) => {
                // Another lint's finding: it is the next character of what is held, and is
                // skipped as a neighbour after (utf8fix --strip removes it).
                self.decide(char::from_u32(cp).filter(|&c| !is_hidden(c)))?;
                self.out_finding(finding)
            }
            _ => {
                // An ill-formed unit is no neighbour at all.
                self.decide(None)?;
                self.state.prev = None;
                self.out_finding(finding)
            }
        }
    }
}

impl ContextState {
    /// Releases what is still held when the input ends.
    pub(crate) fn finish<S: Sink + ?Sized>(&mut self, sink: &mut S) -> ControlFlow<()> {
        let mut contextual = Contextual {
            state: self,
            inner: sink,
        };
        contextual.decide(None)?;
        contextual.flush_run()
    }
}

fn last_char(bytes: &[u8]) -> Option<char> {
    let start = bytes.iter().rposition(|&b| b & 0xC0 != 0x80).unwrap_or(0);
    std::str::from_utf8(&bytes[start..]).ok()?.chars().next()
}

/// Whether a character is one the context lints look at (`invisible` or `tag`): such a
/// character is never the neighbour that gives another one its job, so that removing them all
/// (utf8fix --strip) leaves nothing a second pass would remove.
fn is_hidden(c: char) -> bool {
    matches!(
        Lint::classify(u32::from(c), 1),
        Some(Lint::Invisible | Lint::Tag)
    )
}

/// Whether the decision on an invisible candidate waits for the character after it.
fn needs_next(codepoint: u32) -> bool {
    matches!(codepoint, 0x200B..=0x200D | 0x2800 | 0x180E | 0x115F)
}

/// Whether a character of the `invisible` lint's set has a job between the characters `prev`
/// and `next` (`None`: the start or end of the input, or a unit that is not a character), and is
/// then not reported: a ZWJ inside an emoji sequence, a variation selector after what it varies.
///
/// ```
/// use utf8kit_codec::context::invisible_has_job;
/// assert!(invisible_has_job(0x200D, Some('👨'), Some('👩')));
/// assert!(!invisible_has_job(0x200D, Some('s'), Some('w')));
/// assert!(invisible_has_job(0xFE0F, Some('❤'), None));
/// assert!(!invisible_has_job(0x200B, Some('a'), Some('b')));
/// ```
pub fn invisible_has_job(codepoint: u32, prev: Option<char>, next: Option<char>) -> bool {
    let Some(before) = prev else {
        return false;
    };
    // A hidden character gives no job to its neighbours (but a kept variation selector or a
    // flag's cancel tag may still link an emoji to a ZWJ).
    let n = next.filter(|&c| !is_hidden(c));
    let p = if is_hidden(before) { '\0' } else { before };
    match codepoint {
        // ZWJ and ZWNJ: emoji sequences, and the shaping of joining and Indic scripts.
        0x200C | 0x200D => {
            let Some(n) = n else { return false };
            (is_emoji(p) || is_emoji_link(before)) && is_emoji(n) || joins(p) && joins(n)
        }
        // Zero width space: the word boundaries of scripts written without spaces.
        0x200B => n.is_some_and(|n| unspaced(p) && unspaced(n)),
        // Variation selectors vary the character before them; ASCII only for keycaps.
        0xFE00..=0xFE0F => {
            !p.is_ascii() && !p.is_whitespace() && !p.is_control()
                || matches!(p, '0'..='9' | '#' | '*')
        }
        // The ideographic variation selectors follow CJK ideographs.
        0xE_0100..=0xE_01EF => is_ideograph(p),
        0x2800 => is_braille(p) || n.is_some_and(is_braille),
        0x180E => n.is_some_and(is_mongolian) && is_mongolian(p),
        // Hangul fillers inside a conjoining jamo sequence.
        0x115F => n.is_some_and(|n| matches!(u32::from(n), 0x1160..=0x11A7 | 0xD7B0..=0xD7C6)),
        0x1160 => matches!(u32::from(p), 0x1100..=0x115F | 0xA960..=0xA97C),
        _ => false,
    }
}

/// Characters that take part in emoji sequences: pictographs, emoji modifiers, and the symbols
/// that have emoji presentations.
fn is_emoji(c: char) -> bool {
    matches!(u32::from(c),
        0x1F000..=0x1FAFF
        | 0x2600..=0x27BF
        | 0x2300..=0x23FF
        | 0x2B00..=0x2BFF
        | 0x2190..=0x21FF
        | 0x25A0..=0x25FF
        | 0x2900..=0x297F
        | 0x3030 | 0x303D | 0x3297 | 0x3299
        | 0x00A9 | 0x00AE | 0x203C | 0x2049 | 0x2122 | 0x2139 | 0x24C2)
}

/// What may sit between an emoji and a ZWJ: the emoji presentation selector, a keycap, the
/// cancel tag that ends a flag.
fn is_emoji_link(c: char) -> bool {
    matches!(u32::from(c), 0xFE0F | 0x20E3 | CANCEL_TAG)
}

/// Letters and marks of the scripts in which ZWJ and ZWNJ shape text: every letter outside
/// ASCII, and the combining marks and viramas of the Indic, Arabic, Syriac, Mongolian and
/// Southeast Asian blocks.
fn joins(c: char) -> bool {
    !c.is_ascii()
        && (c.is_alphabetic()
            || matches!(u32::from(c),
                0x0300..=0x036F | 0x0591..=0x05C7 | 0x0600..=0x08FF | 0x0900..=0x0DFF
                | 0x0E00..=0x0FFF | 0x1000..=0x109F | 0x1780..=0x18AF | 0xA800..=0xABFF))
}

/// Scripts written without spaces between words, where U+200B marks the boundaries.
fn unspaced(c: char) -> bool {
    matches!(u32::from(c),
        0x0E00..=0x0EFF | 0x0F00..=0x0FFF | 0x1000..=0x109F | 0x1780..=0x17FF
        | 0x1980..=0x19DF | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF)
}

fn is_ideograph(c: char) -> bool {
    matches!(u32::from(c),
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x2_0000..=0x3_FFFF)
}

fn is_braille(c: char) -> bool {
    matches!(u32::from(c), 0x2800..=0x28FF)
}

fn is_mongolian(c: char) -> bool {
    matches!(u32::from(c), 0x1800..=0x18AF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_of_invisible_characters() {
        let zwj = 0x200D;
        assert!(invisible_has_job(zwj, Some('👨'), Some('👩')));
        assert!(invisible_has_job(zwj, Some('\u{FE0F}'), Some('🔥')));
        assert!(invisible_has_job(zwj, Some('क'), Some('ष')));
        assert!(invisible_has_job(0x200C, Some('\u{094D}'), Some('ष')));
        assert!(!invisible_has_job(zwj, Some('s'), Some('w')));
        assert!(!invisible_has_job(zwj, Some('👨'), None));
        assert!(!invisible_has_job(zwj, None, Some('👩')));
        assert!(invisible_has_job(0x200B, Some('ก'), Some('ข')));
        assert!(!invisible_has_job(0x200B, Some('a'), Some('b')));
        assert!(invisible_has_job(0xFE0F, Some('❤'), None));
        assert!(invisible_has_job(0xFE0F, Some('1'), None));
        assert!(!invisible_has_job(0xFE0F, Some('a'), None));
        assert!(invisible_has_job(0xE_0100, Some('葛'), None));
        assert!(!invisible_has_job(0xE_0100, Some('x'), None));
        assert!(invisible_has_job(0x2800, Some('⠁'), Some(' ')));
        assert!(!invisible_has_job(0x2800, Some('x'), Some(' ')));
        for always in [
            0x2060, 0x2061, 0x2064, 0xFEFF, 0x3164, 0xFFA0, 0x034F, 0x17B4, 0x17B5,
        ] {
            assert!(
                !invisible_has_job(always, Some('가'), Some('가')),
                "{always:X}"
            );
        }
    }
}
