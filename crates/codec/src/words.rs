//! The `mixed-script` lint's words (SPEC 1.6).
//!
//! A word is a maximal run of letters, marks and digits; the lint judges each word that holds a
//! character above U+007F, and reports a word whose scripts no writing system mixes as one
//! finding that spans it. Which characters make words and which words mix scripts is Unicode
//! data the codec does not carry: the caller gives both as a [`WordRule`].
//!
//! `Words` sits between the scanner and the context lints (`crate::context`): it sees each
//! character on its own, before `non-ascii` gathers characters into runs, so a mixed word is one
//! `mixed-script` finding and its letters are no `non-ascii` finding (a character matches at most
//! one lint). It holds back the word being read, at most [`MAX_WORD`] bytes; a longer run of
//! letters is judged in pieces. A word made of ASCII only is never held longer than its own
//! bytes and never judged. Text that the rule's [`Quiet`] vouches for (each stretch between
//! two stops of one writing system) is passed over 64 bytes at a time (`crate::quiet`), its
//! words not judged.

use std::ops::ControlFlow;

use crate::finding::{Finding, FindingKind, Sink};
use crate::position::Position;
use crate::quiet::{Quiet, quiet_span};
use crate::rules::Lint;
use crate::unit::{declared_len, first_non_ascii};

/// The longest word judged at once: a longer run of letters, marks and digits is judged in
/// pieces of at most this many bytes, so that memory stays bounded.
pub const MAX_WORD: usize = 1024;

/// What the caller knows about words: which characters make them, and which words mix scripts
/// that no writing system mixes.
#[derive(Clone, Copy)]
pub struct WordRule {
    /// Whether a character is part of a word (a letter, a mark or a digit).
    pub is_word_char: fn(char) -> bool,
    /// Whether a word (never empty, never pure ASCII) mixes scripts, given up to
    /// [`BEFORE`] bytes right before it (fewer at the start of the input): its first letters
    /// may belong to a printf conversion (`%sЗібрано`) or an escape (`\\nкароткіх`).
    pub is_mixed: fn(&str, &[u8]) -> bool,
    /// The text whose words need no judging ([`Quiet`]): where each stretch between two stops
    /// holds one writing system, the words are passed over 64 bytes at a time, not judged one
    /// by one.
    pub quiet: &'static Quiet,
}

impl PartialEq for WordRule {
    fn eq(&self, other: &WordRule) -> bool {
        std::ptr::fn_addr_eq(self.is_word_char, other.is_word_char)
            && std::ptr::fn_addr_eq(self.is_mixed, other.is_mixed)
            && self.quiet == other.quiet
    }
}

impl Eq for WordRule {}

impl std::fmt::Debug for WordRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WordRule")
    }
}

/// How many bytes before a word its rule is shown.
pub const BEFORE: usize = 8;

/// A `non-ascii` finding inside the word being held: where it is in the word, and its position.
#[derive(Clone, Copy, Debug)]
struct HeldChar {
    start: usize,
    len: usize,
    position: Position,
    codepoint: u32,
}

/// What the word layer remembers between calls (and between chunks).
#[derive(Clone, Debug)]
pub(crate) struct WordState {
    rule: WordRule,
    /// The position of the next byte to arrive.
    pos: Position,
    /// The word being read, empty when none is.
    word: Vec<u8>,
    /// Where the word starts.
    word_pos: Position,
    /// The bytes right before the word, the last at the end; `before_len` of them are known.
    before: [u8; BEFORE],
    before_len: usize,
    /// The last bytes passed on or taken into a word, in the same form.
    recent: [u8; BEFORE],
    recent_len: usize,
    /// The word holds a character above U+007F: it is judged when it ends.
    has_non_ascii: bool,
    /// The word's characters that arrived as `non-ascii` findings, passed on as such unless the
    /// word is mixed.
    held: Vec<HeldChar>,
}

impl WordState {
    pub(crate) fn new(rule: WordRule) -> WordState {
        WordState {
            rule,
            pos: Position::START,
            word: Vec::new(),
            word_pos: Position::START,
            before: [0; BEFORE],
            before_len: 0,
            recent: [0; BEFORE],
            recent_len: 0,
            has_non_ascii: false,
            held: Vec::new(),
        }
    }

    /// The state after a newline passed on as text, ending at `byte_offset`.
    pub(crate) fn resume_after_newline(&mut self, byte_offset: u64) {
        self.pos.byte_offset = byte_offset;
        self.remember(b"\n");
    }

    /// Adds whole word characters to the word (opening one if none is open), moving the
    /// position past them.
    fn push_bytes(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.word.is_empty() {
            self.word_pos = self.pos;
            self.before = self.recent;
            self.before_len = self.recent_len;
        }
        self.remember(bytes);
        self.has_non_ascii |= !bytes.is_ascii();
        self.word.extend_from_slice(bytes);
        self.pos.advance_over(bytes);
    }

    /// Keeps the last [`BEFORE`] bytes of what has gone by.
    fn remember(&mut self, bytes: &[u8]) {
        let take = bytes.len().min(BEFORE);
        self.recent.copy_within(take.., 0);
        self.recent[BEFORE - take..].copy_from_slice(&bytes[bytes.len() - take..]);
        self.recent_len = (self.recent_len + take).min(BEFORE);
    }

    /// Passes on what is still held when the input ends.
    pub(crate) fn finish<S: Sink + ?Sized>(&mut self, sink: &mut S) -> ControlFlow<()> {
        Words {
            state: self,
            inner: sink,
        }
        .end_word()
    }
}

/// A sink that finds mixed-script words on the way to `inner`.
pub(crate) struct Words<'a, S: Sink + ?Sized> {
    pub(crate) state: &'a mut WordState,
    pub(crate) inner: &'a mut S,
}

impl<S: Sink + ?Sized> Words<'_, S> {
    /// Ends the word being read: one `mixed-script` finding if it mixes scripts, else its text
    /// and findings as they came.
    fn end_word(&mut self) -> ControlFlow<()> {
        let state = &mut *self.state;
        if state.word.is_empty() {
            return ControlFlow::Continue(());
        }
        let word = std::mem::take(&mut state.word);
        let held = std::mem::take(&mut state.held);
        let flow = if state.has_non_ascii
            && let Ok(text) = std::str::from_utf8(&word)
            && (state.rule.is_mixed)(text, &state.before[BEFORE - state.before_len..])
        {
            self.inner.finding(&Finding {
                position: state.word_pos,
                kind: FindingKind::Lint(Lint::MixedScript),
                bytes: &word,
                codepoint: text.chars().find(|c| !c.is_ascii()).map(u32::from),
            })
        } else {
            release(&mut *self.inner, state.word_pos.byte_offset, &word, &held)
        };
        let state = &mut *self.state;
        state.word = word;
        state.word.clear();
        state.held = held;
        state.held.clear();
        state.has_non_ascii = false;
        flow
    }

    /// Adds one character (`bytes`, at the layer's position) to the word, opening one if none
    /// is open and judging a piece that has grown to [`MAX_WORD`].
    fn push_char(&mut self, bytes: &[u8], held: Option<u32>) -> ControlFlow<()> {
        if self.state.word.len() + bytes.len() > MAX_WORD {
            self.end_word()?;
        }
        let state = &mut *self.state;
        if state.word.is_empty() {
            state.word_pos = state.pos;
            state.before = state.recent;
            state.before_len = state.recent_len;
        }
        state.remember(bytes);
        if let Some(codepoint) = held {
            state.held.push(HeldChar {
                start: state.word.len(),
                len: bytes.len(),
                position: state.pos,
                codepoint,
            });
        }
        state.has_non_ascii |= bytes[0] >= 0x80;
        state.word.extend_from_slice(bytes);
        state.pos.byte_offset += bytes.len() as u64;
        state.pos.column += 1;
        ControlFlow::Continue(())
    }

    /// Passes `bytes[from..to]` of a text at `byte_offset` on (the position is brought up to
    /// date by the caller).
    fn pass_text(
        &mut self,
        byte_offset: u64,
        bytes: &[u8],
        from: usize,
        to: usize,
    ) -> ControlFlow<()> {
        if to > from {
            return self.inner.text(byte_offset + from as u64, &bytes[from..to]);
        }
        ControlFlow::Continue(())
    }

    /// Adds word characters (`run`, at the layer's position) to the word, opening one if none
    /// is open, and judging a piece each time the word reaches [`MAX_WORD`] bytes.
    fn push_run(&mut self, run: &[u8]) -> ControlFlow<()> {
        let mut rest = run;
        while !rest.is_empty() {
            let room = MAX_WORD - self.state.word.len();
            if rest.len() <= room {
                self.state.push_bytes(rest);
                return ControlFlow::Continue(());
            }
            let mut cut = room;
            while cut > 0 && rest[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
            self.state.push_bytes(&rest[..cut]);
            self.end_word()?;
            rest = &rest[cut..];
        }
        ControlFlow::Continue(())
    }
}

/// Passes a word that does not mix scripts on as it came: its text, and the characters that
/// arrived as `non-ascii` findings.
fn release<S: Sink + ?Sized>(
    sink: &mut S,
    byte_offset: u64,
    word: &[u8],
    held: &[HeldChar],
) -> ControlFlow<()> {
    let mut at = 0;
    for c in held {
        if c.start > at {
            sink.text(byte_offset + at as u64, &word[at..c.start])?;
        }
        sink.finding(&Finding {
            position: c.position,
            kind: FindingKind::Lint(Lint::NonAscii),
            bytes: &word[c.start..c.start + c.len],
            codepoint: Some(c.codepoint),
        })?;
        at = c.start + c.len;
    }
    if at < word.len() {
        sink.text(byte_offset + at as u64, &word[at..])?;
    }
    ControlFlow::Continue(())
}

/// The unit that starts a text (a character, or a unit a policy lets through): the character,
/// if it is one, and the unit's length. Text never splits a unit.
#[inline]
fn char_at(bytes: &[u8]) -> (Option<char>, usize) {
    let lead = bytes[0];
    if lead < 0x80 {
        return (Some(char::from(lead)), 1);
    }
    let len = declared_len(lead).unwrap_or(1).min(bytes.len());
    let mut value = u32::from(lead) & (0x7F >> len);
    for &byte in &bytes[1..len] {
        value = value << 6 | u32::from(byte & 0x3F);
    }
    (char::from_u32(value), len)
}

/// Where the run of word characters that starts at `at` ends.
#[inline]
fn word_end(bytes: &[u8], mut at: usize, is_word_char: fn(char) -> bool) -> usize {
    while at < bytes.len() {
        let byte = bytes[at];
        if byte < 0x80 {
            if !byte.is_ascii_alphanumeric() {
                break;
            }
            at += 1;
            continue;
        }
        let (c, len) = char_at(&bytes[at..]);
        if !c.is_some_and(is_word_char) {
            break;
        }
        at += len;
    }
    at
}

/// The last [`BEFORE`] bytes before a word: those of `text` before it, after the `recent`
/// bytes that came before `text` (`buf` holds them when they are not all in `text`).
fn before<'a>(
    recent: &([u8; BEFORE], usize),
    text: &'a [u8],
    buf: &'a mut [u8; BEFORE],
) -> &'a [u8] {
    if text.len() >= BEFORE {
        return &text[text.len() - BEFORE..];
    }
    let (bytes, len) = recent;
    let from_recent = (*len).min(BEFORE - text.len());
    let total = from_recent + text.len();
    buf[..from_recent].copy_from_slice(&bytes[BEFORE - from_recent..]);
    buf[from_recent..total].copy_from_slice(text);
    &buf[..total]
}

impl<S: Sink + ?Sized> Sink for Words<'_, S> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return self.inner.text(byte_offset, bytes);
        }
        let is_word_char = self.state.rule.is_word_char;
        // `from..` is text not yet passed on; `at` is where reading goes on, always at the end
        // of a word or after a character that is none.
        let mut from = 0;
        let mut at = 0;
        if !self.state.word.is_empty() {
            // A word is open: it takes the word characters that start this text.
            let end = word_end(bytes, 0, is_word_char);
            self.push_run(&bytes[..end])?;
            if end == bytes.len() {
                return ControlFlow::Continue(());
            }
            self.end_word()?;
            (from, at) = (end, end);
        }
        // Positions inside this text are counted from `base` only when one is needed.
        let (base, base_pos) = (from, self.state.pos);
        let position_at = |i: usize| {
            let mut pos = base_pos;
            pos.advance_over(&bytes[base..i]);
            pos
        };
        let recent = (self.state.recent, self.state.recent_len);
        // Where the text is next read a block at a time ([`quiet_span`]), passing over the
        // words of a stretch that holds no mixed one.
        let mut ask_quiet = at;
        loop {
            if at >= ask_quiet {
                let (quiet, ask_again) = quiet_span(&bytes[at..], self.state.rule.quiet);
                ask_quiet = at + ask_again;
                at += quiet;
            }
            let Some(next) = first_non_ascii(&bytes[at..]).map(|i| at + i) else {
                break;
            };
            let (c, len) = char_at(&bytes[next..]);
            if !c.is_some_and(is_word_char) {
                at = next + len;
                continue;
            }
            // The ASCII letters and digits right before it start its word.
            let start = bytes[at..next]
                .iter()
                .rposition(|b| !b.is_ascii_alphanumeric())
                .map_or(at, |i| at + i + 1);
            let end = word_end(bytes, next + len, is_word_char);
            if end == bytes.len() || end - start > MAX_WORD {
                // The word may go on in the next text, or is judged in pieces: it is held.
                self.pass_text(byte_offset, bytes, from, start)?;
                self.state.pos = position_at(start);
                self.state.remember(&bytes[base..start]);
                self.push_run(&bytes[start..end])?;
                if end == bytes.len() {
                    return ControlFlow::Continue(());
                }
                // The position is past the word: the rest of the text goes on from there.
                self.end_word()?;
                return self.text(byte_offset + end as u64, &bytes[end..]);
            }
            // SAFETY: a word is made of whole characters that `char_at` decoded, each a Unicode
            // scalar value, so its bytes are UTF-8.
            let word = unsafe { std::str::from_utf8_unchecked(&bytes[start..end]) };
            let mut buf = [0; BEFORE];
            let before = before(&recent, &bytes[base..start], &mut buf);
            if (self.state.rule.is_mixed)(word, before) {
                self.pass_text(byte_offset, bytes, from, start)?;
                self.inner.finding(&Finding {
                    position: position_at(start),
                    kind: FindingKind::Lint(Lint::MixedScript),
                    bytes: &bytes[start..end],
                    codepoint: word.chars().find(|c| !c.is_ascii()).map(u32::from),
                })?;
                from = end;
            }
            at = end;
        }
        // The ASCII letters and digits that end the text may start a word that goes on.
        let tail = bytes[at..]
            .iter()
            .rposition(|b| !b.is_ascii_alphanumeric())
            .map_or(at, |i| at + i + 1);
        self.pass_text(byte_offset, bytes, from, tail)?;
        self.state.pos = position_at(tail);
        self.state.remember(&bytes[base..tail]);
        self.push_run(&bytes[tail..])
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        if finding.kind == FindingKind::Lint(Lint::NonAscii)
            && let Some(c) = finding.codepoint.and_then(char::from_u32)
            && (self.state.rule.is_word_char)(c)
        {
            self.state.pos = finding.position;
            return self.push_char(finding.bytes, Some(u32::from(c)));
        }
        self.end_word()?;
        self.state.pos = finding.position;
        self.state.pos.advance_unit(finding.bytes.len());
        self.state.remember(finding.bytes);
        self.inner.finding(finding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LintSet;
    use crate::scanner::Config;

    fn is_word_char(c: char) -> bool {
        c.is_alphanumeric()
    }

    /// A toy rule for the layer's own tests: a word mixes scripts when it holds both ASCII
    /// letters and Cyrillic letters, and does not follow `%`.
    fn is_mixed(word: &str, before: &[u8]) -> bool {
        before.last() != Some(&b'%')
            && word.chars().any(|c| c.is_ascii_alphabetic())
            && word.chars().any(|c| ('\u{400}'..='\u{4FF}').contains(&c))
    }

    const RULE: WordRule = WordRule {
        is_word_char,
        is_mixed,
        quiet: &crate::quiet::Quiet::NONE,
    };

    /// A finding as `(offset, line, column, kind, bytes)`.
    type Seen = (u64, u64, u64, String, String);

    /// The findings and the text (as one string) of a scan, fed in chunks of `chunk` bytes.
    fn run(input: impl AsRef<[u8]>, lints: &str, chunk: usize) -> (Vec<Seen>, String) {
        struct Out(Vec<Seen>, Vec<u8>, u64);
        impl Sink for Out {
            fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
                assert_eq!(byte_offset, self.2, "text arrives in order");
                self.2 += bytes.len() as u64;
                self.1.extend_from_slice(bytes);
                ControlFlow::Continue(())
            }
            fn finding(&mut self, f: &Finding<'_>) -> ControlFlow<()> {
                assert_eq!(f.position.byte_offset, self.2, "findings arrive in order");
                self.2 += f.bytes.len() as u64;
                self.1.extend_from_slice(b"[");
                self.1.extend_from_slice(f.bytes);
                self.1.extend_from_slice(b"]");
                let p = f.position;
                self.0.push((
                    p.byte_offset,
                    p.line,
                    p.column,
                    f.kind.as_str().to_owned(),
                    String::from_utf8_lossy(f.bytes).into_owned(),
                ));
                ControlFlow::Continue(())
            }
        }
        let config = Config {
            lints: LintSet::parse(lints).unwrap(),
            words: Some(RULE),
            ..Config::default()
        };
        let mut out = Out(Vec::new(), Vec::new(), 0);
        let mut scanner = crate::Scanner::new(config);
        let bytes = input.as_ref();
        let pieces: Vec<&[u8]> = bytes.chunks(chunk.max(1)).collect();
        for (i, piece) in pieces.iter().enumerate() {
            let _ = scanner.feed(piece, i + 1 == pieces.len(), &mut out);
        }
        if bytes.is_empty() {
            let _ = scanner.feed(b"", true, &mut out);
        }
        (out.0, String::from_utf8_lossy(&out.1).into_owned())
    }

    #[test]
    fn a_mixed_word_is_one_finding_spanning_it() {
        let input = "pay pаypal\nab мир, xмир1 end %sмир";
        for chunk in [1, 2, 3, 5, 64] {
            let (findings, text) = run(input, "mixed-script", chunk);
            assert_eq!(
                findings,
                [
                    (4, 1, 5, "mixed-script".into(), "pаypal".into()),
                    (23, 2, 9, "mixed-script".into(), "xмир1".into()),
                ],
                "chunk {chunk}"
            );
            assert_eq!(
                text, "pay [pаypal]\nab мир, [xмир1] end %sмир",
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn with_non_ascii_a_mixed_word_is_not_also_a_run() {
        for chunk in [1, 4, 64] {
            let (findings, text) = run("мир pаypal, мир", "non-ascii,mixed-script", chunk);
            assert_eq!(
                findings,
                [
                    (0, 1, 1, "non-ascii".into(), "мир".into()),
                    (7, 1, 5, "mixed-script".into(), "pаypal".into()),
                    (16, 1, 13, "non-ascii".into(), "мир".into()),
                ],
                "chunk {chunk}"
            );
            assert_eq!(text, "[мир] [pаypal], [мир]");
        }
    }

    #[test]
    fn words_end_at_other_findings_and_at_ill_formed_bytes() {
        let input = ["pа\u{200B}ypal pа".as_bytes(), b"\xFFx"].concat();
        let (findings, _) = run(input, "invisible,mixed-script", 3);
        assert_eq!(
            findings,
            [
                (0, 1, 1, "mixed-script".into(), "pа".into()),
                (3, 1, 3, "invisible".into(), "\u{200B}".into()),
                (11, 1, 9, "mixed-script".into(), "pа".into()),
                (14, 1, 11, "invalid-byte".into(), "\u{FFFD}".into()),
            ]
        );
    }

    #[test]
    fn a_long_word_is_judged_in_pieces() {
        let input = format!("{}я{}", "a".repeat(MAX_WORD - 1), "b".repeat(10));
        let (findings, text) = run(input.as_bytes(), "mixed-script", 100);
        // The piece of 1023 ASCII letters is left; the next piece mixes scripts.
        assert_eq!(
            findings,
            [(
                1023,
                1,
                1024,
                "mixed-script".into(),
                format!("я{}", "b".repeat(10))
            )]
        );
        assert!(text.ends_with(&format!("я{}]", "b".repeat(10))));
        // Without a Cyrillic letter, nothing is held past the word.
        let (findings, text) = run("a".repeat(5000), "mixed-script", 7);
        assert!(findings.is_empty());
        assert_eq!(text.len(), 5000);
    }
}
