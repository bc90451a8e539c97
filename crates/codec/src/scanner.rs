//! The streaming scanner (SPEC 1.5): chunks in, text runs and findings out.
//!
//! [`Scanner::feed`] takes chunks of any size, from one byte to a whole memory map, and is told
//! explicitly which chunk is the last. Between chunks it carries only the few bytes of a unit that
//! is not yet decided (at most five), plus the running position, so memory does not depend on the
//! input's size or its line lengths.
//!
//! The fast path: SIMD ([`crate::validate`](fn@crate::validate)) finds the end of each
//! well-formed run; only the unit at that point is classified byte by byte, by [`scan_unit`].
//! Lines and columns are not counted as the run goes by: they are brought up to date when a
//! finding needs them, or at the end of a chunk that is not the last, so a clean input fed as one
//! final chunk is never counted at all.

use std::ops::ControlFlow;

use crate::bom::ForeignBom;
use crate::context::{ContextState, Contextual};
use crate::finding::{Finding, FindingKind, Sink};
use crate::position::Position;
use crate::rules::{Lint, LintSet, Policy};
use crate::starts::first_start;
use crate::unit::{Unit, UnitKind, scan_unit};
use crate::words::{WordRule, WordState, Words};

/// What the scanner reports beyond plain well-formed text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// Ill-formed units to accept as text (SPEC 1.6).
    pub policy: Policy,
    /// Well-formed characters to report as findings (SPEC 1.6).
    pub lints: LintSet,
    /// Report a UTF-16 or UTF-32 byte order mark at the start of the input as one finding of
    /// kind `utf16-bom` or `utf32-bom` covering the mark's bytes, instead of the ill-formed units
    /// those bytes would otherwise be (SPEC 3).
    pub foreign_bom: bool,
    /// What makes words and which words mix scripts, for the `mixed-script` lint; without it
    /// that lint finds nothing.
    pub words: Option<WordRule>,
}

/// The most bytes ever carried from one chunk to the next: an undecided unit is at most 5 bytes
/// long (a 6-byte form missing its last byte, or a high surrogate and two bytes of a low one).
const MAX_CARRY: usize = 5;

/// The streaming scanner: chunks of any size in, text runs and findings out, in input order.
///
/// It carries at most five bytes between chunks (an undecided unit) and its running position;
/// SIMD skips each well-formed run, and only the unit where a run ends is classified by
/// [`scan_unit`]. Lines and columns are counted only when a finding needs them or a chunk that
/// is not the last ends.
///
/// # Examples
///
/// ```
/// use std::ops::ControlFlow;
/// use utf8kit_codec::{Config, Finding, Scanner, Sink};
///
/// struct Kinds(Vec<(u64, u64, u64, &'static str)>);
/// impl Sink for Kinds {
///     fn finding(&mut self, f: &Finding<'_>) -> ControlFlow<()> {
///         let p = f.position;
///         self.0.push((p.byte_offset, p.line, p.column, f.kind.as_str()));
///         ControlFlow::Continue(())
///     }
/// }
///
/// let mut kinds = Kinds(Vec::new());
/// let mut scanner = Scanner::new(Config::default());
/// // The overlong C0 AF is split between two chunks; the result is the same.
/// let _ = scanner.feed(b"a\xC0", false, &mut kinds);
/// let _ = scanner.feed(b"\xAFb\n\xED\xA0\x80", true, &mut kinds);
/// assert_eq!(kinds.0, [(1, 1, 2, "overlong"), (5, 2, 1, "surrogate")]);
/// assert_eq!(scanner.bytes_scanned(), 8);
/// ```
#[derive(Clone, Debug)]
pub struct Scanner {
    config: Config,
    /// The position of the first byte not yet consumed (the carry's first byte, if any).
    pos: Position,
    carry: [u8; MAX_CARRY],
    carry_len: usize,
    /// The start of the input has not yet been looked at for a foreign byte order mark.
    is_bom_pending: bool,
    is_finished: bool,
    is_stopped: bool,
    /// The context lints' memory (`invisible`, `tag`, `non-ascii`), when one is asked for.
    context: Option<ContextState>,
    /// The word being read, when `mixed-script` is asked for and a rule given.
    words: Option<WordState>,
    /// A lint of characters is asked for: well-formed runs are read character by character.
    has_char_lints: bool,
    /// `non-ascii` is asked for: every character above U+007F is decoded.
    lints_non_ascii: bool,
}

impl Scanner {
    /// A scanner at the start of an input.
    pub fn new(config: Config) -> Scanner {
        Scanner {
            config,
            pos: Position::START,
            carry: [0; MAX_CARRY],
            carry_len: 0,
            is_bom_pending: config.foreign_bom,
            is_finished: false,
            is_stopped: false,
            context: [
                Lint::Invisible,
                Lint::Tag,
                Lint::NonAscii,
                Lint::MixedScript,
            ]
            .iter()
            .any(|&lint| config.lints.contains(lint))
            .then(|| ContextState::new(config.lints.contains(Lint::NonAscii))),
            words: config
                .words
                .filter(|_| config.lints.contains(Lint::MixedScript))
                .map(WordState::new),
            lints_non_ascii: config.lints.contains(Lint::NonAscii),
            has_char_lints: !config
                .lints
                .without(LintSet::NONE.with(Lint::MixedScript))
                .is_empty(),
        }
    }

    /// A scanner for the bytes of an input from `byte_offset` on, right after a newline (or at
    /// the start, as [`Scanner::new`]): what a thread that checks one part of a big file uses.
    /// The findings are those a scan from the start gives from there, with lines and columns
    /// counted from the part's start.
    pub fn resume(config: Config, byte_offset: u64) -> Scanner {
        let mut scanner = Scanner::new(config);
        if byte_offset > 0 {
            scanner.pos.byte_offset = byte_offset;
            scanner.is_bom_pending = false;
            if let Some(context) = &mut scanner.context {
                context.resume_after_newline(byte_offset);
            }
            if let Some(words) = &mut scanner.words {
                words.resume_after_newline(byte_offset);
            }
        }
        scanner
    }

    /// Scans the next chunk of input; `is_last` says that no more will follow.
    ///
    /// Every byte given is consumed: the few bytes of a unit that the chunk leaves undecided are
    /// kept and scanned with the next chunk. Once `feed` has returned `Break` (a sink asked to stop),
    /// or a chunk marked last has been fed, further calls do nothing and return `Break`.
    pub fn feed<S: Sink + ?Sized>(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        sink: &mut S,
    ) -> ControlFlow<()> {
        if self.is_stopped || self.is_finished {
            return ControlFlow::Break(());
        }
        if let Some(mut state) = self.context.take() {
            // The context lints see the stream of text and findings, and pass it on.
            let mut contextual = Contextual {
                state: &mut state,
                inner: sink,
            };
            let mut flow = match self.words.take() {
                Some(mut words) => {
                    // The words come first: a mixed word is one finding before `non-ascii`
                    // gathers characters into runs.
                    let mut worded = Words {
                        state: &mut words,
                        inner: &mut contextual,
                    };
                    let mut flow = self.feed_plain(chunk, is_last, &mut worded);
                    if is_last && flow.is_continue() {
                        flow = words.finish(&mut contextual);
                    }
                    self.words = Some(words);
                    flow
                }
                None => self.feed_plain(chunk, is_last, &mut contextual),
            };
            if is_last && flow.is_continue() {
                flow = state.finish(sink);
                self.is_stopped = flow.is_break();
            }
            self.context = Some(state);
            return flow;
        }
        self.feed_plain(chunk, is_last, sink)
    }

    /// [`Scanner::feed`] without the context lints.
    fn feed_plain<S: Sink + ?Sized>(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        sink: &mut S,
    ) -> ControlFlow<()> {
        self.is_finished = is_last;
        let mut chunk = chunk;
        if self.is_bom_pending {
            match self.feed_bom(chunk, is_last, sink) {
                ControlFlow::Continue(Some(rest)) => chunk = rest,
                ControlFlow::Continue(None) => return ControlFlow::Continue(()),
                ControlFlow::Break(()) => {
                    self.is_stopped = true;
                    return ControlFlow::Break(());
                }
            }
        }
        let flow = match self.feed_carry(chunk, is_last, sink) {
            ControlFlow::Continue(Some(start)) => self.feed_chunk(chunk, start, is_last, sink),
            ControlFlow::Continue(None) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(()),
        };
        self.is_stopped = flow.is_break();
        flow
    }

    /// The number of bytes consumed so far: the input's length once the last chunk is fed, or, if
    /// a sink stopped the scan, the offset just past the last finding it was given.
    pub fn bytes_scanned(&self) -> u64 {
        self.pos.byte_offset
    }

    /// True when a sink stopped the scan before the input ended.
    pub fn is_stopped(&self) -> bool {
        self.is_stopped
    }

    /// Looks for a foreign byte order mark once four bytes (or the whole input) are at hand,
    /// reports it, and returns the part of `chunk` left to scan; `None` while bytes are still
    /// gathered in the carry.
    fn feed_bom<'c, S: Sink + ?Sized>(
        &mut self,
        chunk: &'c [u8],
        is_last: bool,
        sink: &mut S,
    ) -> ControlFlow<(), Option<&'c [u8]>> {
        let carried = self.carry_len;
        if carried + chunk.len() < 4 && !is_last {
            self.carry[carried..carried + chunk.len()].copy_from_slice(chunk);
            self.carry_len += chunk.len();
            return ControlFlow::Continue(None);
        }
        self.is_bom_pending = false;
        let mut head = [0u8; 4];
        let head_len = (carried + chunk.len()).min(4);
        let from_carry = carried.min(head_len);
        head[..from_carry].copy_from_slice(&self.carry[..from_carry]);
        head[from_carry..head_len].copy_from_slice(&chunk[..head_len - from_carry]);
        let Some(bom) = ForeignBom::detect(&head[..head_len]) else {
            return ControlFlow::Continue(Some(chunk));
        };
        let len = bom.len_bytes();
        let at = self.pos;
        self.pos.advance_unit(len);
        let rest = if len <= carried {
            self.carry.copy_within(len..carried, 0);
            self.carry_len = carried - len;
            chunk
        } else {
            self.carry_len = 0;
            &chunk[len - carried..]
        };
        sink.finding(&Finding {
            position: at,
            kind: FindingKind::ForeignBom(bom),
            bytes: &head[..len],
            codepoint: Some(0xFEFF),
        })?;
        ControlFlow::Continue(Some(rest))
    }

    /// Finishes the units carried over from the previous chunk, using the start of this one.
    /// Returns where the rest of the chunk starts, or `None` if the chunk was all taken into the
    /// carry because it is still too short to decide the carried unit.
    fn feed_carry<S: Sink + ?Sized>(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        sink: &mut S,
    ) -> ControlFlow<(), Option<usize>> {
        let carried = self.carry_len;
        if carried == 0 {
            return ControlFlow::Continue(Some(0));
        }
        // Enough of the chunk that every unit starting in the carry can be decided (6 bytes each).
        let mut joined = [0u8; MAX_CARRY + 8];
        let taken = chunk.len().min(joined.len() - carried);
        joined[..carried].copy_from_slice(&self.carry[..carried]);
        joined[carried..carried + taken].copy_from_slice(&chunk[..taken]);
        let joined = &joined[..carried + taken];
        let joined_is_last = is_last && taken == chunk.len();

        let mut at = 0;
        while at < carried {
            let Some(unit) = scan_unit(&joined[at..], joined_is_last) else {
                // Only possible when the whole chunk is in `joined` and more input may come.
                let rest = &joined[at..];
                self.carry[..rest.len()].copy_from_slice(rest);
                self.carry_len = rest.len();
                return ControlFlow::Continue(None);
            };
            self.emit_unit(unit, &joined[at..at + unit.len], sink)?;
            at += unit.len;
        }
        self.carry_len = 0;
        ControlFlow::Continue(Some(at - carried))
    }

    /// Reports one unit whose position is `self.pos` (the carry path, unit by unit).
    fn emit_unit<S: Sink + ?Sized>(
        &mut self,
        unit: Unit,
        bytes: &[u8],
        sink: &mut S,
    ) -> ControlFlow<()> {
        let at = self.pos;
        let kind = match unit.kind {
            UnitKind::Char => match self.lint(unit, at.byte_offset) {
                Some(lint) => FindingKind::Lint(lint),
                None => {
                    self.pos.advance_over(bytes);
                    return sink.text(at.byte_offset, bytes);
                }
            },
            _ if self.config.policy.accepts(&unit, bytes) => {
                self.pos.advance_unit(unit.len);
                return sink.text(at.byte_offset, bytes);
            }
            kind => FindingKind::IllFormed(kind),
        };
        self.pos.advance_unit(unit.len);
        sink.finding(&Finding {
            position: at,
            kind,
            bytes,
            codepoint: unit.codepoint,
        })
    }

    /// The main loop over one chunk, from `start` (the carry has been dealt with).
    fn feed_chunk<S: Sink + ?Sized>(
        &mut self,
        chunk: &[u8],
        start: usize,
        is_last: bool,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut run = Run {
            chunk,
            base: self.pos.byte_offset - start as u64,
            known: start,
            text_start: start,
        };
        let mut at = start;
        while at < chunk.len() {
            let valid_end = at + well_formed_prefix_len(&chunk[at..]);
            if self.has_char_lints {
                self.lint_run(&mut run, at, valid_end, sink)?;
            }
            at = valid_end;
            if at == chunk.len() {
                break;
            }
            let Some(unit) = scan_unit(&chunk[at..], is_last) else {
                break; // undecided: carried into the next chunk below
            };
            let bytes = &chunk[at..at + unit.len];
            if self.config.policy.accepts(&unit, bytes) {
                run.sync(&mut self.pos, at);
                self.pos.advance_unit(unit.len);
                run.known = at + unit.len;
            } else {
                let finding = Finding {
                    position: run.position_at(&mut self.pos, at),
                    kind: FindingKind::IllFormed(unit.kind),
                    bytes,
                    codepoint: unit.codepoint,
                };
                run.finish_text(at, sink)?;
                self.pos.advance_unit(unit.len);
                run.known = at + unit.len;
                run.text_start = run.known;
                sink.finding(&finding)?;
            }
            at += unit.len;
        }
        run.finish_text(at, sink)?;
        let rest = &chunk[at..];
        debug_assert!(
            rest.len() <= MAX_CARRY,
            "an undecided unit is at most {MAX_CARRY} bytes"
        );
        self.carry[..rest.len()].copy_from_slice(rest);
        self.carry_len = rest.len();
        if is_last {
            // Nobody will ask for a line or column again: skip counting the tail.
            self.pos.byte_offset = run.base + at as u64;
        } else {
            run.sync(&mut self.pos, at);
        }
        ControlFlow::Continue(())
    }

    /// Reports the lint findings among the well-formed bytes `chunk[from..to]`.
    fn lint_run<S: Sink + ?Sized>(
        &mut self,
        run: &mut Run<'_>,
        from: usize,
        to: usize,
        sink: &mut S,
    ) -> ControlFlow<()> {
        // Only the characters that may be a finding are decoded ([`first_start`]); continuation
        // bytes are skipped with their lead.
        let mut at = from;
        while at < to {
            match first_start(&run.chunk[at..to], self.lints_non_ascii) {
                Some(skip) => at += skip,
                None => break,
            }
            let unit = scan_unit(&run.chunk[at..to], true).expect("a final scan always decides");
            let offset = run.base + at as u64;
            if let Some(lint) = self.lint(unit, offset) {
                let finding = Finding {
                    position: run.position_at(&mut self.pos, at),
                    kind: FindingKind::Lint(lint),
                    bytes: &run.chunk[at..at + unit.len],
                    codepoint: unit.codepoint,
                };
                run.finish_text(at, sink)?;
                self.pos.advance_unit(unit.len);
                run.known = at + unit.len;
                run.text_start = run.known;
                sink.finding(&finding)?;
            }
            at += unit.len;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn lint(&self, unit: Unit, byte_offset: u64) -> Option<Lint> {
        let codepoint = unit.codepoint?;
        self.config.lints.check(codepoint, byte_offset)
    }
}

/// The bookkeeping of one chunk: how far the position is known, and where unreported text starts.
struct Run<'a> {
    chunk: &'a [u8],
    /// The byte offset of `chunk[0]`.
    base: u64,
    /// The chunk index the scanner's position describes.
    known: usize,
    /// The chunk index where text not yet given to the sink starts.
    text_start: usize,
}

impl Run<'_> {
    /// Brings `pos` forward to chunk index `to` over units already known to be well-formed.
    #[inline]
    fn sync(&mut self, pos: &mut Position, to: usize) {
        pos.advance_over(&self.chunk[self.known..to]);
        self.known = to;
    }

    #[inline]
    fn position_at(&mut self, pos: &mut Position, to: usize) -> Position {
        self.sync(pos, to);
        *pos
    }

    /// Gives the sink the text from `text_start` up to chunk index `to`.
    #[inline]
    fn finish_text<S: Sink + ?Sized>(&mut self, to: usize, sink: &mut S) -> ControlFlow<()> {
        if to > self.text_start {
            let from = self.text_start;
            self.text_start = to;
            return sink.text(self.base + from as u64, &self.chunk[from..to]);
        }
        ControlFlow::Continue(())
    }
}

/// The length of the longest well-formed prefix, found with SIMD ([`crate::validate`](fn@crate::validate)).
#[inline]
pub(crate) fn well_formed_prefix_len(input: &[u8]) -> usize {
    crate::validate(input).map_or_else(|error| error.valid_up_to(), |()| input.len())
}

/// Scans a whole input held in memory: one call to [`Scanner::feed`] with `is_last` set.
///
/// Returns the scanner so the caller can ask how far it got.
///
/// ```
/// use std::ops::ControlFlow;
/// use utf8kit_codec::{scan, Config, Finding, Lint, LintSet};
///
/// let mut offsets = Vec::new();
/// let config = Config { lints: LintSet::NONE.with(Lint::Bidi), ..Config::default() };
/// let scanner = scan("a\u{202E}b\u{FFFD}".as_bytes(), config, &mut |f: &Finding<'_>| {
///     offsets.push((f.position.byte_offset, f.kind.as_str()));
///     ControlFlow::Continue(())
/// });
/// assert_eq!(offsets, [(1, "bidi")]);
/// assert_eq!(scanner.bytes_scanned(), 8);
/// ```
pub fn scan<S: Sink + ?Sized>(input: &[u8], config: Config, sink: &mut S) -> Scanner {
    let mut scanner = Scanner::new(config);
    let _ = scanner.feed(input, true, sink);
    scanner
}
