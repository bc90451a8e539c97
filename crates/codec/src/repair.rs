//! The repair view (SPEC 1.3) and the repairs of `utf8fix` (SPEC 5), as a streaming transformer.
//!
//! By default each maximal subpart of an ill-formed unit becomes one U+FFFD, exactly as
//! `String::from_utf8_lossy` and Python's `decode("utf-8", "replace")` do. [`RepairOptions`]
//! changes what an ill-formed unit becomes ([`Replacement`]) and adds the opt-in repairs that run
//! first: joining CESU-8 surrogate pairs, Java's `C0 80`, stripping a UTF-8 byte order mark and
//! the characters some lints find. What a repairer writes can also be taken piece by piece with
//! each repair where it happens ([`RepairedSink`]), for a repair built on top of this one.
//! Every output is well-formed UTF-8 and repairing it again changes nothing.

use std::fmt;
use std::ops::ControlFlow;

use crate::encode::{Form, encode};
use crate::finding::{Finding, FindingKind, Sink};
use crate::rules::{Lint, LintSet};
use crate::scanner::{Config, Scanner};
use crate::unit::{UnitBytes, UnitKind, subparts};

/// The UTF-8 bytes of U+FFFD REPLACEMENT CHARACTER.
pub const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// The UTF-8 bytes of U+FEFF, the byte order mark.
use crate::bom::UTF8_BOM as BOM;

/// What an ill-formed unit becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// This text for each maximal subpart (U+FFFD by default).
    Text(String),
    /// Nothing: ill-formed bytes are deleted.
    Drop,
    /// Each ill-formed byte as the four ASCII characters `\xhh` (lowercase, as Python's
    /// `backslashreplace` writes them).
    Escape,
    /// Each ill-formed byte decoded in a single-byte encoding: `table[b - 0x80]` is the character
    /// for byte `b` (an ill-formed unit never holds a byte below 0x80).
    Fallback(Box<[char; 128]>),
}

impl Default for Replacement {
    fn default() -> Self {
        Replacement::Text("\u{FFFD}".to_owned())
    }
}

/// How to repair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepairOptions {
    /// What an ill-formed unit becomes.
    pub replacement: Replacement,
    /// Join CESU-8 surrogate pairs into the 4-byte sequence of their character.
    pub cesu: bool,
    /// Also turn Java's `C0 80` into U+0000 (implies `cesu`).
    pub modified: bool,
    /// Remove a UTF-8 byte order mark (U+FEFF at offset 0), and any further U+FEFF that would
    /// then start the output (a doubled mark), so that the result starts with none.
    pub strip_bom: bool,
    /// Remove the characters these lints find (SPEC 1.6), and nothing else. `bom` here is
    /// `strip_bom`.
    pub strip: LintSet,
    /// What makes words and which words mix scripts: with `mixed-script` in `strip`, each such
    /// word is counted and logged as [`RepairKind::Flagged`] and written as it is (a word has
    /// nothing to remove; `utf8fix --check` reports it).
    pub words: Option<crate::words::WordRule>,
}

/// What one repair was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RepairKind {
    /// An ill-formed unit was replaced, dropped, escaped or decoded in the fallback encoding.
    IllFormed(UnitKind),
    /// A CESU-8 surrogate pair became one 4-byte sequence.
    JoinedPair,
    /// `C0 80` became U+0000.
    ModifiedNul,
    /// A byte order mark was removed.
    StrippedBom,
    /// A character a lint of [`RepairOptions::strip`] finds was removed.
    Stripped(Lint),
    /// What a lint of [`RepairOptions::strip`] finds was left as it is, with nothing to remove
    /// (a `mixed-script` word), and counted.
    Flagged(Lint),
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RepairKind::IllFormed(kind) => f.write_str(kind.as_str()),
            RepairKind::JoinedPair => f.write_str("surrogate-pair"),
            RepairKind::ModifiedNul => f.write_str("overlong"),
            RepairKind::StrippedBom => f.write_str("bom"),
            RepairKind::Stripped(lint) | RepairKind::Flagged(lint) => f.write_str(lint.as_str()),
        }
    }
}

/// One repair: where, what, and the bytes it replaced.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair {
    /// The byte offset of the repaired unit in the input.
    pub byte_offset: u64,
    /// What was done.
    pub kind: RepairKind,
    bytes: UnitBytes,
}

impl Repair {
    /// A repair of `kind` at `byte_offset` of the input, of the bytes `unit` (their first six are
    /// kept), for a repair built on top of [`Repairer`] that logs its own beside the codec's.
    pub fn new(byte_offset: u64, kind: RepairKind, unit: &[u8]) -> Repair {
        Repair {
            byte_offset,
            kind,
            bytes: UnitBytes::new(unit),
        }
    }

    /// The input bytes that were repaired.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_bytes()
    }
}

impl fmt::Debug for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Repair({} {} {:02X?})",
            self.byte_offset,
            self.kind,
            self.bytes()
        )
    }
}

/// Repairs a stream: chunks in, repaired bytes appended to [`Repairer::output`].
///
/// # Examples
///
/// ```
/// use utf8kit_codec::{Repairer, RepairOptions, Replacement};
///
/// let mut fixer = Repairer::new(RepairOptions::default());
/// fixer.feed(b"caf\xC3", false);
/// fixer.feed(b"\xA9 \xC0\xAF", true);
/// assert_eq!(fixer.output(), "café \u{FFFD}\u{FFFD}".as_bytes());
/// assert_eq!(fixer.repair_count(), 1); // one ill-formed unit, two subparts
///
/// let options = RepairOptions { replacement: Replacement::Escape, ..RepairOptions::default() };
/// let mut fixer = Repairer::new(options);
/// fixer.feed(b"caf\xE9", true);
/// assert_eq!(fixer.output(), br"caf\xe9");
/// ```
#[derive(Debug)]
pub struct Repairer {
    scanner: Scanner,
    state: RepairState,
}

/// Receives a repairer's output piece by piece ([`Repairer::feed_pieces`]), with each repair
/// where it happens: what a repair built on top of this one (such as undoing mojibake line by
/// line) reads. Either method stops the repair by returning `Break`.
pub trait RepairedSink {
    /// A run of the input that needed no repair, starting at `byte_offset` of the input. Runs
    /// arrive in pieces of any size, never inside a character.
    fn text(&mut self, byte_offset: u64, text: &str) -> ControlFlow<()>;

    /// One repair, and what it wrote in place of the bytes it repaired (nothing for a mark
    /// stripped or bytes dropped).
    fn repaired(&mut self, repair: &Repair, written: &[u8]) -> ControlFlow<()>;
}

#[derive(Debug)]
struct RepairState {
    options: RepairOptions,
    out: Vec<u8>,
    writes_output: bool,
    keeps_log: bool,
    log: Vec<Repair>,
    count: u64,
    /// Something has been written: a U+FEFF from now on is not a leading mark.
    has_output: bool,
}

impl Repairer {
    /// A repairer at the start of an input.
    pub fn new(options: RepairOptions) -> Repairer {
        let mut options = options;
        options.strip_bom |= options.strip.contains(Lint::Bom);
        let lints = if options.strip_bom {
            options.strip.with(Lint::Bom)
        } else {
            options.strip
        };
        Repairer {
            scanner: Scanner::new(Config {
                lints,
                words: options.words,
                ..Config::default()
            }),
            state: RepairState {
                options,
                out: Vec::new(),
                writes_output: true,
                keeps_log: false,
                log: Vec::new(),
                count: 0,
                has_output: false,
            },
        }
    }

    /// A repairer that only counts repairs and writes no output: whether a file needs fixing.
    pub fn counting(options: RepairOptions) -> Repairer {
        let mut repairer = Repairer::new(options);
        repairer.state.writes_output = false;
        repairer
    }

    /// Keeps a log of each repair, drained with [`Repairer::take_log`] (for `--verbose`).
    #[must_use]
    pub fn with_log(mut self) -> Repairer {
        self.state.keeps_log = true;
        self
    }

    /// Repairs the next chunk; `is_last` says that no more will follow.
    pub fn feed(&mut self, chunk: &[u8], is_last: bool) {
        let _ = self.scanner.feed(chunk, is_last, &mut self.state);
    }

    /// Repairs the next chunk like [`Repairer::feed`], and hands every repaired byte to `emit`
    /// in order, well-formed runs straight from `chunk`: clean text is never copied. `emit`
    /// stops the repair by returning `Break` (a failed write), and so does this function then.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use utf8kit_codec::{RepairOptions, Repairer};
    /// let mut repairer = Repairer::new(RepairOptions::default());
    /// let mut out = Vec::new();
    /// let _ = repairer.feed_to(b"caf\xC3", false, &mut |bytes| {
    ///     out.extend_from_slice(bytes);
    ///     ControlFlow::Continue(())
    /// });
    /// let _ = repairer.feed_to(b"\xA9 \xFF!", true, &mut |bytes| {
    ///     out.extend_from_slice(bytes);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(out, "café \u{FFFD}!".as_bytes());
    /// ```
    pub fn feed_to(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut direct = Direct {
            state: &mut self.state,
            emit,
        };
        self.scanner.feed(chunk, is_last, &mut direct)?;
        direct.flush()
    }

    /// Repairs the next chunk and hands the result to `sink` piece by piece: the runs that need
    /// no repair as they are, and each repair with what it wrote, in input order. The count goes
    /// on as with [`Repairer::feed`]; nothing goes to [`Repairer::output`] or the log.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use utf8kit_codec::{RepairOptions, Repairer, repair::{Repair, RepairedSink}};
    ///
    /// #[derive(Default)]
    /// struct Pieces(Vec<(u64, String)>);
    /// impl RepairedSink for Pieces {
    ///     fn text(&mut self, byte_offset: u64, text: &str) -> ControlFlow<()> {
    ///         self.0.push((byte_offset, text.to_owned()));
    ///         ControlFlow::Continue(())
    ///     }
    ///     fn repaired(&mut self, repair: &Repair, written: &[u8]) -> ControlFlow<()> {
    ///         let written = String::from_utf8_lossy(written);
    ///         self.0.push((repair.byte_offset, format!("{} -> {written}", repair.kind)));
    ///         ControlFlow::Continue(())
    ///     }
    /// }
    /// let mut pieces = Pieces::default();
    /// let mut repairer = Repairer::new(RepairOptions::default());
    /// let _ = repairer.feed_pieces(b"ok \xC0\xAF!", true, &mut pieces);
    /// assert_eq!(pieces.0, [
    ///     (0, "ok ".to_owned()),
    ///     (3, "overlong -> \u{FFFD}\u{FFFD}".to_owned()),
    ///     (5, "!".to_owned()),
    /// ]);
    /// assert_eq!(repairer.repair_count(), 1);
    /// ```
    pub fn feed_pieces(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        sink: &mut dyn RepairedSink,
    ) -> ControlFlow<()> {
        let state = &mut self.state;
        let (writes_output, keeps_log) = (state.writes_output, state.keeps_log);
        (state.writes_output, state.keeps_log) = (true, true);
        let (out, log) = (
            std::mem::take(&mut state.out),
            std::mem::take(&mut state.log),
        );
        let mut pieces = Pieces { state, sink };
        let flow = self.scanner.feed(chunk, is_last, &mut pieces);
        let state = &mut self.state;
        (state.writes_output, state.keeps_log) = (writes_output, keeps_log);
        (state.out, state.log) = (out, log);
        flow
    }

    /// The repaired bytes produced so far and not yet taken: write them, then clear the vector.
    /// They never end inside a character.
    pub fn output(&mut self) -> &mut Vec<u8> {
        &mut self.state.out
    }

    /// The repairs logged since the last call (with [`Repairer::with_log`]).
    pub fn take_log(&mut self) -> Vec<Repair> {
        std::mem::take(&mut self.state.log)
    }

    /// How many repairs were made: ill-formed units (not subparts), joined pairs, `C0 80`, marks.
    pub fn repair_count(&self) -> u64 {
        self.state.count
    }

    /// The number of input bytes consumed.
    pub fn bytes_read(&self) -> u64 {
        self.scanner.bytes_scanned()
    }
}

impl RepairState {
    /// The marks that would lead the output, stripped from the start of a text run at
    /// `byte_offset` with `strip_bom` (a doubled mark, or one that followed dropped bytes), so
    /// that repairing the output again finds nothing to strip: the rest of the run, and where
    /// it starts.
    fn strip_leading_marks<'b>(&mut self, byte_offset: u64, bytes: &'b [u8]) -> (u64, &'b [u8]) {
        let mut bytes = bytes;
        let mut offset = byte_offset;
        while self.options.strip_bom && !self.has_output && bytes.starts_with(BOM) {
            self.log_bytes(offset, BOM, RepairKind::StrippedBom);
            bytes = &bytes[BOM.len()..];
            offset += BOM.len() as u64;
        }
        (offset, bytes)
    }

    fn log(&mut self, finding: &Finding<'_>, kind: RepairKind) {
        self.log_bytes(finding.position.byte_offset, finding.bytes, kind);
    }

    fn log_bytes(&mut self, byte_offset: u64, unit: &[u8], kind: RepairKind) {
        self.count += 1;
        if self.keeps_log {
            self.log.push(Repair::new(byte_offset, kind, unit));
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.has_output = true;
            if self.writes_output {
                self.out.extend_from_slice(bytes);
            }
        }
    }
}

/// The sink of [`Repairer::feed_to`]: text runs go to `emit` as they are, after whatever the
/// state has written before them; what needs the state (a leading mark to strip, replacements)
/// goes through it.
struct Direct<'a> {
    state: &'a mut RepairState,
    emit: &'a mut dyn FnMut(&[u8]) -> ControlFlow<()>,
}

impl Direct<'_> {
    fn flush(&mut self) -> ControlFlow<()> {
        if !self.state.out.is_empty() {
            (self.emit)(&self.state.out)?;
            self.state.out.clear();
        }
        ControlFlow::Continue(())
    }
}

impl Sink for Direct<'_> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let state = &mut *self.state;
        let may_strip = state.options.strip_bom && !state.has_output;
        if !state.writes_output || may_strip || bytes.is_empty() {
            return state.text(byte_offset, bytes);
        }
        self.flush()?;
        self.state.has_output = true;
        (self.emit)(bytes)
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.state.finding(finding)
    }
}

/// The sink of [`Repairer::feed_pieces`]: the state writes each repair to `out` and logs it,
/// and both are handed on at once.
struct Pieces<'a> {
    state: &'a mut RepairState,
    sink: &'a mut dyn RepairedSink,
}

impl Pieces<'_> {
    /// Hands on the repairs the state has logged, each with what it wrote.
    fn hand_on(&mut self) -> ControlFlow<()> {
        let log = std::mem::take(&mut self.state.log);
        let flow = log.iter().try_for_each(|repair| {
            let written = std::mem::take(&mut self.state.out);
            let flow = self.sink.repaired(repair, &written);
            self.state.out = written;
            self.state.out.clear();
            flow
        });
        self.state.log = log;
        self.state.log.clear();
        flow
    }
}

impl Sink for Pieces<'_> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let (offset, bytes) = self.state.strip_leading_marks(byte_offset, bytes);
        self.hand_on()?;
        if bytes.is_empty() {
            return ControlFlow::Continue(());
        }
        self.state.has_output = true;
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a text run of this repairer's scanner, whose policy is the default, strict one,
        // which accepts nothing ill-formed: a text run is then well-formed UTF-8 and never splits
        // a unit (`Sink::text`).
        let text = unsafe { std::str::from_utf8_unchecked(bytes) };
        self.sink.text(offset, text)
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.state.finding(finding)?;
        self.hand_on()
    }
}

impl Sink for RepairState {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let (_, bytes) = self.strip_leading_marks(byte_offset, bytes);
        self.write(bytes);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let kind = match finding.kind {
            FindingKind::IllFormed(kind) => kind,
            // Names are not content: the scanner never reports them.
            // Only the lints of `strip` (and `bom` with `strip_bom`) are enabled: what they
            // find is removed.
            FindingKind::Lint(Lint::Bom) | FindingKind::ForeignBom(_) => {
                self.log(finding, RepairKind::StrippedBom);
                return ControlFlow::Continue(());
            }
            FindingKind::Lint(lint @ Lint::MixedScript) => {
                self.write(finding.bytes);
                self.log(finding, RepairKind::Flagged(lint));
                return ControlFlow::Continue(());
            }
            FindingKind::Lint(lint) => {
                self.log(finding, RepairKind::Stripped(lint));
                if lint == Lint::NonAscii {
                    // A run holds the spaces and punctuation between its characters: they stay.
                    let kept: Vec<u8> =
                        finding.bytes.iter().copied().filter(u8::is_ascii).collect();
                    self.write(&kept);
                }
                return ControlFlow::Continue(());
            }
        };
        let options = &self.options;
        let joins_pairs = options.cesu || options.modified;
        if kind == UnitKind::SurrogatePair && joins_pairs {
            let codepoint = finding.codepoint.expect("a pair carries its code point");
            let joined = encode(codepoint, Form::Standard).expect("a pair is a scalar value");
            if !char::from_u32(codepoint).is_some_and(|c| is_stripped(self.options.strip, c)) {
                self.write(joined.as_bytes());
            }
            self.log(finding, RepairKind::JoinedPair);
            return ControlFlow::Continue(());
        }
        if options.modified && finding.bytes == b"\xC0\x80" {
            if !is_stripped(options.strip, '\0') {
                self.write(b"\0");
            }
            self.log(finding, RepairKind::ModifiedNul);
            return ControlFlow::Continue(());
        }
        // What the repair writes is held to `strip` too (U+FFFD under `--strip replacement`, a
        // C1 control from a fallback under `--strip control`), so that a second pass removes
        // nothing more.
        let strip = options.strip;
        let text = match &options.replacement {
            Replacement::Text(text) => without_stripped(text, strip),
            _ => std::borrow::Cow::Borrowed(""),
        };
        let writes_nothing = matches!(options.replacement, Replacement::Drop)
            || matches!(&options.replacement, Replacement::Text(_) if text.is_empty());
        self.has_output |= !writes_nothing;
        if self.writes_output {
            let out = &mut self.out;
            match &options.replacement {
                Replacement::Text(_) => {
                    for _ in subparts(finding.bytes) {
                        out.extend_from_slice(text.as_bytes());
                    }
                }
                Replacement::Drop => {}
                Replacement::Escape => {
                    for byte in finding.bytes {
                        out.extend_from_slice(&escape_byte(*byte));
                    }
                }
                Replacement::Fallback(table) => {
                    for &byte in finding.bytes {
                        let c = table[usize::from(byte.wrapping_sub(0x80)) & 0x7F];
                        if !is_stripped(strip, c) {
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                    }
                }
            }
        }
        self.log(finding, RepairKind::IllFormed(kind));
        ControlFlow::Continue(())
    }
}

/// Whether `strip` removes a character the repairer writes itself. Its neighbours are not
/// looked at: such a character was never in the input.
fn is_stripped(strip: LintSet, c: char) -> bool {
    !strip.is_empty() && strip.check(u32::from(c), 1).is_some()
}

/// `text` without the characters `strip` removes.
fn without_stripped(text: &str, strip: LintSet) -> std::borrow::Cow<'_, str> {
    if !strip.is_empty() && text.chars().any(|c| is_stripped(strip, c)) {
        std::borrow::Cow::Owned(text.chars().filter(|&c| !is_stripped(strip, c)).collect())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// `\xhh` for one byte, lowercase.
pub fn escape_byte(byte: u8) -> [u8; 4] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    [
        b'\\',
        b'x',
        HEX[usize::from(byte >> 4)],
        HEX[usize::from(byte & 15)],
    ]
}

/// The ISO-8859-1 table for [`Replacement::Fallback`]: byte n is U+00nn.
pub fn latin1_table() -> Box<[char; 128]> {
    Box::new(std::array::from_fn(|i| {
        char::from_u32(0x80 + i as u32).expect("U+0080..U+00FF are characters")
    }))
}

/// Repairs a whole input held in memory with the default options (one U+FFFD per maximal
/// subpart), appending the result to `out`.
///
/// ```
/// let mut out = Vec::new();
/// utf8kit_codec::repair::decode_lossy(b"\xED\xA0\x80!", &mut out);
/// assert_eq!(out, "\u{FFFD}\u{FFFD}\u{FFFD}!".as_bytes());
/// ```
pub fn decode_lossy(input: &[u8], out: &mut Vec<u8>) {
    let mut repairer = Repairer::new(RepairOptions::default());
    std::mem::swap(repairer.output(), out);
    repairer.feed(input, true);
    std::mem::swap(repairer.output(), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(input: &[u8], options: RepairOptions) -> Vec<u8> {
        let mut repairer = Repairer::new(options);
        repairer.feed(input, true);
        std::mem::take(repairer.output())
    }

    #[test]
    fn each_option_on_crafted_input() {
        let input = b"\xEF\xBB\xBFa\xC0\x80b\xED\xA0\xBD\xED\xB8\x80c\xED\xA0\x80d\xE9\xFF";
        let latin1 = Replacement::Fallback(latin1_table());
        let rows: &[(RepairOptions, &[u8])] = &[
            (
                RepairOptions::default(),
                "\u{FEFF}a\u{FFFD}\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}c\
                 \u{FFFD}\u{FFFD}\u{FFFD}d\u{FFFD}\u{FFFD}"
                    .as_bytes(),
            ),
            (
                RepairOptions {
                    replacement: Replacement::Text("?".into()),
                    ..RepairOptions::default()
                },
                "\u{FEFF}a??b??????c???d??".as_bytes(),
            ),
            (
                RepairOptions {
                    replacement: Replacement::Drop,
                    strip_bom: true,
                    ..RepairOptions::default()
                },
                b"abcd",
            ),
            (
                RepairOptions {
                    replacement: Replacement::Escape,
                    cesu: true,
                    ..RepairOptions::default()
                },
                "\u{FEFF}a\\xc0\\x80b😀c\\xed\\xa0\\x80d\\xe9\\xff".as_bytes(),
            ),
            (
                RepairOptions {
                    replacement: latin1,
                    cesu: false,
                    modified: true,
                    strip_bom: true,
                    strip: LintSet::NONE,
                    words: None,
                },
                "a\u{0}b😀cí\u{A0}\u{80}déÿ".as_bytes(),
            ),
        ];
        for (options, expected) in rows {
            let got = fix(input, options.clone());
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(expected),
                "{options:?}"
            );
        }
    }

    #[test]
    fn log_names_each_repair() {
        let mut repairer = Repairer::new(RepairOptions {
            cesu: true,
            strip_bom: true,
            ..RepairOptions::default()
        })
        .with_log();
        repairer.feed(b"\xEF\xBB\xBFx\xED\xA0\xBD\xED\xB8\x80\xE2\x82", true);
        let log: Vec<(u64, String, Vec<u8>)> = repairer
            .take_log()
            .iter()
            .map(|r| (r.byte_offset, r.kind.to_string(), r.bytes().to_vec()))
            .collect();
        assert_eq!(
            log,
            [
                (0, "bom".to_owned(), vec![0xEF, 0xBB, 0xBF]),
                (
                    4,
                    "surrogate-pair".to_owned(),
                    vec![0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]
                ),
                (10, "truncated".to_owned(), vec![0xE2, 0x82]),
            ]
        );
        assert_eq!(repairer.repair_count(), 3);
    }

    #[test]
    fn counting_writes_nothing() {
        let mut repairer = Repairer::counting(RepairOptions::default());
        repairer.feed(b"ok \xFF ok", true);
        assert!(repairer.output().is_empty());
        assert_eq!(repairer.repair_count(), 1);
        assert_eq!(repairer.bytes_read(), 7);
    }
}
