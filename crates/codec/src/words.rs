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
//! bytes and never judged.

use std::ops::ControlFlow;

use crate::finding::{Finding, FindingKind, Sink};
use crate::position::Position;
use crate::rules::Lint;
use crate::unit::{UnitKind, scan_unit};

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
}

impl PartialEq for WordRule {
    fn eq(&self, other: &WordRule) -> bool {
        std::ptr::fn_addr_eq(self.is_word_char, other.is_word_char)
            && std::ptr::fn_addr_eq(self.is_mixed, other.is_mixed)
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

    /// Passes text that is no part of a word on, moving the position past it.
    fn pass_text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return ControlFlow::Continue(());
        }
        self.state.pos.advance_over(bytes);
        self.state.remember(bytes);
        self.inner.text(byte_offset, bytes)
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

/// The character that starts `bytes` and its length, or `None` for a unit that is no character
/// (a surrogate a policy lets through).
fn char_at(bytes: &[u8]) -> (Option<char>, usize) {
    let unit = scan_unit(bytes, true).expect("a final scan always decides");
    let c = (unit.kind == UnitKind::Char)
        .then(|| unit.codepoint.and_then(char::from_u32))
        .flatten();
    (c, unit.len)
}

impl<S: Sink + ?Sized> Sink for Words<'_, S> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return self.inner.text(byte_offset, bytes);
        }
        let is_word_char = self.state.rule.is_word_char;
        // `from..at` is text not yet passed on; `at` is where reading goes on.
        let mut from = 0;
        let mut at = 0;
        while at < bytes.len() {
            if !self.state.word.is_empty() {
                // A word is open: it takes the word characters that follow.
                let (c, len) = char_at(&bytes[at..]);
                if c.is_some_and(is_word_char) {
                    self.push_char(&bytes[at..at + len], None)?;
                    at += len;
                    from = at;
                    continue;
                }
                self.end_word()?;
            }
            // No word is open: skip to the next character above U+007F, or to the end.
            let next = bytes[at..]
                .iter()
                .position(|&b| b >= 0x80)
                .map_or(bytes.len(), |i| at + i);
            // The ASCII letters and digits right before it start its word (or, at the end of
            // the text, a word that what follows may continue).
            let start = bytes[at..next]
                .iter()
                .rposition(|b| !b.is_ascii_alphanumeric())
                .map_or(at, |i| at + i + 1);
            let mut end = next;
            if next == bytes.len() {
                if start == next {
                    break;
                }
            } else {
                let (c, len) = char_at(&bytes[next..]);
                if !c.is_some_and(is_word_char) {
                    at = next + len;
                    continue;
                }
                end += len;
            }
            self.pass_text(byte_offset + from as u64, &bytes[from..start])?;
            for i in start..next {
                self.push_char(&bytes[i..=i], None)?;
            }
            if end > next {
                self.push_char(&bytes[next..end], None)?;
            }
            at = end;
            from = at;
        }
        self.pass_text(byte_offset + from as u64, &bytes[from..])
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
