//! The repair view (SPEC 1.3) and the repairs of `utf8fix` (SPEC 5), as a streaming transformer.
//!
//! By default each maximal subpart of an ill-formed unit becomes one U+FFFD, exactly as
//! `String::from_utf8_lossy` and Python's `decode("utf-8", "replace")` do. [`RepairOptions`]
//! changes what an ill-formed unit becomes ([`Replacement`]) and adds the opt-in repairs that run
//! first: joining CESU-8 surrogate pairs, Java's `C0 80`, stripping a UTF-8 byte order mark, and
//! undoing mojibake line by line.
//! Every output is well-formed UTF-8 and repairing it again changes nothing.

use std::collections::VecDeque;
use std::fmt;
use std::ops::ControlFlow;

use crate::encode::{Form, encode};
use crate::mojibake::{
    MojibakeChain, MojibakeFix, Task, first_suspect, judge_line, judge_lines, judge_lines_into,
};
use crate::position::{find_byte, rfind_byte};
use crate::rules::{Lint, LintSet};
use crate::scanner::{Config, Finding, FindingKind, Scanner, Sink};
use crate::unit::{UnitKind, subparts};

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
    /// Undo mojibake, line by line ([`crate::mojibake::fix_mojibake`]).
    pub mojibake: bool,
    /// How many threads judge the lines that may hold mojibake, when a run of text holds many
    /// (0 and 1: the calling thread alone). The output is the same for every number.
    pub threads: usize,
    /// Remove the characters these lints find (SPEC 1.6), and nothing else. `bom` here is
    /// `strip_bom`.
    pub strip: LintSet,
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
    /// Mojibake was undone on one line: this many groups, over all layers, and the chain of
    /// encodings undone.
    Mojibake(u32, MojibakeChain),
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RepairKind::IllFormed(kind) => f.write_str(kind.as_str()),
            RepairKind::JoinedPair => f.write_str("surrogate-pair"),
            RepairKind::ModifiedNul => f.write_str("overlong"),
            RepairKind::StrippedBom => f.write_str("bom"),
            RepairKind::Stripped(lint) => f.write_str(lint.as_str()),
            RepairKind::Mojibake(..) => f.write_str("mojibake"),
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
    bytes: [u8; 6],
    len: u8,
}

impl Repair {
    /// The input bytes that were repaired.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
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
    /// With `mojibake`: the repaired bytes of the current line, held until its end.
    line: Vec<u8>,
    /// The input offset where the held line starts.
    line_offset: Option<u64>,
    /// With `mojibake`: a repaired line has been emitted, so the next one does not start the
    /// output.
    emitted_line: bool,
    /// Runs of lines may be judged on helper threads while the next ones are fed, and emitted
    /// later ([`Repairer::set_read_ahead`]).
    read_ahead: bool,
    /// With `read_ahead`: what is fed but not yet emitted, in order. Whatever is emitted while
    /// it holds something goes behind it.
    pending: VecDeque<Pending>,
    /// The buffers of runs emitted, kept for the next ones: each new block of memory costs its
    /// pages' first touch, and freed blocks go back to the system, only to be touched again.
    spare_runs: Vec<(String, Suspects)>,
}

/// Lines fed and not yet emitted.
#[derive(Debug)]
enum Pending {
    /// A run of whole lines at an offset, judged on a helper: its bytes, and its lines in which
    /// mojibake may start.
    Run(u64, Task<(String, Suspects)>),
    /// A held line at an offset, and what the repair made of it.
    Line(u64, Vec<u8>, Option<MojibakeFix>),
}

/// The lines of a run in which mojibake may start ([`first_suspect`]), each with what the
/// repair makes of it, their repaired texts in one string: a helper's answer is freed where it
/// is emitted, and the allocator pays for each block freed on another thread than its own.
#[derive(Debug, Default)]
struct Suspects {
    lines: Vec<(std::ops::Range<usize>, Judged)>,
    texts: String,
}

/// What the repair makes of a line in which mojibake may start.
#[derive(Debug)]
enum Judged {
    /// It stays as it is.
    Kept,
    /// Its repaired text (in [`Suspects::texts`]), and the repair.
    Fixed(std::ops::Range<usize>, RepairKind),
    /// Too long to be judged whole: `hold` cuts it.
    TooLong,
}

/// The fewest suspect lines in a run that is handed to a helper when nothing waits.
const AHEAD_LINES: usize = 32;

/// How many runs of lines (64 KiB each when a file is read) may wait to be emitted with
/// `read_ahead`, judged or being judged, before the oldest is emitted. Four measured 1.4%
/// faster than eight on the eval mix with 2 CPUs: fewer buffers are touched for the first time.
const AHEAD: usize = 4;

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
                line: Vec::new(),
                line_offset: None,
                emitted_line: false,
                read_ahead: false,
                pending: VecDeque::new(),
                spare_runs: Vec::new(),
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

    /// With `mojibake` and more than one thread: the input is at hand (a regular file), so the
    /// lines of a chunk may be judged on helper threads while the next chunks are fed, and their
    /// repaired bytes are emitted (or put in [`Repairer::output`]) a few chunks later, in order,
    /// and all by the last chunk. The output is the same; only its timing changes. Not for an
    /// input read as it comes (a pipe, a terminal), whose lines are wanted as soon as they are
    /// fed.
    pub fn set_read_ahead(&mut self, read_ahead: bool) {
        self.state.read_ahead = read_ahead;
    }

    /// Repairs the next chunk; `is_last` says that no more will follow.
    pub fn feed(&mut self, chunk: &[u8], is_last: bool) {
        let _ = self.scanner.feed(chunk, is_last, &mut self.state);
        if is_last {
            self.state.finish_line();
            let _ = self.state.settle(0, &mut None);
        }
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
        if is_last {
            direct.state.finish_line();
            direct.state.settle(0, &mut Some(&mut *direct.emit))?;
        }
        direct.flush()
    }

    /// Emits to `emit` what reading ahead ([`Repairer::set_read_ahead`]) still holds back, the
    /// lines fed whole and not yet written, as [`Repairer::feed_to`] would have by now without
    /// it: for an input that ends in an error before its last chunk, so that what was read
    /// before the error is written all the same. A line not yet ended stays held.
    pub fn flush_read_ahead(
        &mut self,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut direct = Direct {
            state: &mut self.state,
            emit,
        };
        direct.state.settle(0, &mut Some(&mut *direct.emit))?;
        direct.flush()
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
    /// A text run, as [`Sink::text`] takes it; lines that need no repair go to `emit` when
    /// there is one (see [`RepairState::write_text`]).
    fn text_to(&mut self, byte_offset: u64, bytes: &[u8], emit: Emit<'_, '_>) -> ControlFlow<()> {
        let mut bytes = bytes;
        let mut offset = byte_offset;
        // Every mark that would lead the output goes (a doubled mark, or one that followed
        // dropped bytes), so that repairing the output again finds nothing to strip.
        while self.options.strip_bom && !self.has_output && bytes.starts_with(BOM) {
            self.log_bytes(offset, BOM, RepairKind::StrippedBom);
            bytes = &bytes[BOM.len()..];
            offset += BOM.len() as u64;
        }
        self.write_text(offset, bytes, emit)
    }

    fn log(&mut self, finding: &Finding<'_>, kind: RepairKind) {
        self.log_bytes(finding.position.byte_offset, finding.bytes, kind);
    }

    fn log_bytes(&mut self, byte_offset: u64, unit: &[u8], kind: RepairKind) {
        self.count += 1;
        if self.keeps_log {
            let mut bytes = [0u8; 6];
            let len = unit.len().min(6);
            bytes[..len].copy_from_slice(&unit[..len]);
            self.log.push(Repair {
                byte_offset,
                kind,
                bytes,
                len: len as u8,
            });
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.has_output = true;
            if self.options.mojibake {
                self.line.extend_from_slice(bytes);
            } else if self.writes_output {
                self.out.extend_from_slice(bytes);
            }
        }
    }

    /// Text, which with `mojibake` is held by line: each line is repaired when it ends. Whole
    /// lines in which no mojibake can start go out as they are, unheld and unjudged
    /// ([`first_suspect`]): most lines of most text. With `emit`, they go straight to it, after
    /// what is in `out`, and are not copied.
    fn write_text(
        &mut self,
        byte_offset: u64,
        bytes: &[u8],
        emit: Emit<'_, '_>,
    ) -> ControlFlow<()> {
        if !self.options.mojibake {
            self.write(bytes);
            return ControlFlow::Continue(());
        }
        let mut rest = bytes;
        let mut offset = byte_offset;
        // A line already held (begun in an earlier run, or by a finding) goes on to its end.
        if self.line_offset.is_some() || !self.line.is_empty() {
            let Some(end) = find_byte(rest, b'\n') else {
                self.hold(offset, rest);
                return ControlFlow::Continue(());
            };
            self.hold(offset, &rest[..=end]);
            self.finish_line();
            rest = &rest[end + 1..];
            offset += end as u64 + 1;
        }
        // The last line may go on in the next run: it is held whatever it holds.
        let whole = rfind_byte(rest, b'\n').map_or(0, |end| end + 1);
        let (lines, tail) = rest.split_at(whole);
        self.write_lines(offset, lines, emit)?;
        if !tail.is_empty() {
            self.hold(offset + whole as u64, tail);
        }
        ControlFlow::Continue(())
    }

    /// Whole lines of a text run, the first at `offset`, with mojibake repaired. The lines that
    /// may hold some are found first and judged together, on `options.threads` threads when
    /// there are many; then every line is emitted in order. With `read_ahead`, a run that may
    /// hold some is queued instead, found and judged on a helper while the next runs are fed: it
    /// is emitted once more than [`AHEAD`] runs wait.
    fn write_lines(&mut self, offset: u64, lines: &[u8], emit: Emit<'_, '_>) -> ControlFlow<()> {
        debug_assert!(std::str::from_utf8(lines).is_ok());
        // SAFETY: `lines` are whole lines of a text run of this repairer's scanner (`text_to` is
        // called from `Sink::text` only), whose policy is the default, strict one, which accepts
        // nothing ill-formed: a text run is then well-formed UTF-8 (`Sink::text`). Checking the
        // lines again was a sixteenth of the judging's time.
        let text = unsafe { std::str::from_utf8_unchecked(lines) };
        let threads = self.options.threads;
        if self.read_ahead && threads > 1 {
            // When nothing waits, the run's suspect lines are found here: with few of them
            // (clean text, or nearly) they are judged here too and the run goes out at once,
            // neither copied nor handed over. Once runs wait, the helpers find them.
            let mut found = None;
            if self.pending.is_empty() {
                let spans = suspect_spans(lines);
                if spans.len() < AHEAD_LINES {
                    let suspects = judge_spans(text, spans, 1);
                    return self.emit_run(offset, lines, &suspects, emit);
                }
                found = Some(spans);
            }
            self.has_output = true;
            let (mut run, mut suspects) = self.spare_runs.pop().unwrap_or_default();
            run.clear();
            run.push_str(text);
            let task = Task::spawn(threads, move || {
                let spans = found.unwrap_or_else(|| suspect_spans(run.as_bytes()));
                judge_spans_into(&run, spans, 1, &mut suspects);
                (run, suspects)
            });
            self.pending.push_back(Pending::Run(offset, task));
            return self.settle(AHEAD, emit);
        }
        self.settle(0, emit)?;
        let suspects = judge_spans(text, suspect_spans(lines), threads);
        self.emit_run(offset, lines, &suspects, emit)
    }

    /// Emits the runs and lines that wait until at most `left` do, oldest first. While the
    /// oldest is being judged on a helper, this thread judges the next ones no helper has begun.
    fn settle(&mut self, left: usize, emit: Emit<'_, '_>) -> ControlFlow<()> {
        while self.pending.len() > left {
            let oldest = self.pending.pop_front().expect("more than none wait");
            // What is emitted now comes before everything that still waits: a line that `hold`
            // finishes while the oldest is emitted goes out at once, not behind the others.
            let rest = std::mem::take(&mut self.pending);
            let flow = match oldest {
                Pending::Run(offset, task) => {
                    // While a helper judges it, this thread judges the next runs no helper
                    // has begun (the oldest, if none has, it judges first, in `join`). One run
                    // not begun is left for a helper coming free, so that it does not wait for
                    // the next to be read; at the end (`left` 0) nothing more is read, and this
                    // thread takes the last one too rather than wait for the helper to.
                    while task.is_started() && !task.is_done() {
                        let mut waiting = rest.iter().filter_map(|next| match next {
                            Pending::Run(_, next) if !next.is_started() => Some(next),
                            _ => None,
                        });
                        let Some(next) = waiting.next() else {
                            break;
                        };
                        if left > 0 && waiting.next().is_none() {
                            break;
                        }
                        next.run_here();
                    }
                    let (lines, suspects) = task.join();
                    let flow = self.emit_run(offset, lines.as_bytes(), &suspects, emit);
                    if self.spare_runs.len() <= AHEAD {
                        self.spare_runs.push((lines, suspects));
                    }
                    flow
                }
                Pending::Line(offset, line, fixed) => {
                    self.emit_judged(&line, offset, fixed.as_ref().map(repaired));
                    ControlFlow::Continue(())
                }
            };
            self.pending = rest;
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Emits whole lines, the first at `offset`, their `suspects` judged ([`judge_spans`]).
    fn emit_run(
        &mut self,
        offset: u64,
        lines: &[u8],
        suspects: &Suspects,
        emit: Emit<'_, '_>,
    ) -> ControlFlow<()> {
        let mut at = 0;
        for (span, judged) in &suspects.lines {
            self.emit_unjudged(&lines[at..span.start], emit)?;
            let start = offset + span.start as u64;
            let line = &lines[span.clone()];
            // Emitted from where they lie: held, they would be copied for nothing.
            self.has_output = true;
            match judged {
                Judged::Kept => self.emit_judged(line, start, None),
                Judged::Fixed(text, kind) => {
                    let fixed = (&suspects.texts[text.clone()], *kind);
                    self.emit_judged(line, start, Some(fixed));
                }
                Judged::TooLong => {
                    // Cut as `hold` cuts it, held apart from the line held now, which comes
                    // after it.
                    let held = (std::mem::take(&mut self.line), self.line_offset.take());
                    self.hold(start, line);
                    self.finish_line();
                    (self.line, self.line_offset) = held;
                }
            }
            at = span.end;
        }
        self.emit_unjudged(&lines[at..], emit)
    }

    /// Lines that hold no mojibake, written as they are: to `emit` if there is one, after what
    /// `out` holds, else to `out`.
    fn emit_unjudged(&mut self, lines: &[u8], emit: Emit<'_, '_>) -> ControlFlow<()> {
        if lines.is_empty() {
            return ControlFlow::Continue(());
        }
        self.has_output = true;
        self.emitted_line = true;
        if !self.writes_output {
            return ControlFlow::Continue(());
        }
        match emit {
            Some(emit) => {
                if !self.out.is_empty() {
                    emit(&self.out)?;
                    self.out.clear();
                }
                emit(lines)
            }
            None => {
                self.out.extend_from_slice(lines);
                ControlFlow::Continue(())
            }
        }
    }

    /// Adds to the held line, which a repair of mojibake judges whole when it ends.
    fn hold(&mut self, offset: u64, bytes: &[u8]) {
        self.line_offset.get_or_insert(offset);
        self.write(bytes);
        if self.line.len() > MAX_HELD_LINE {
            // A line this long is cut at its last ASCII byte, which no mojibake group contains,
            // if one is near the end; otherwise (a line without ASCII) between two groups of
            // one layer of mojibake, or failing that at its last character boundary. Either way
            // the scan is bounded and what stays held is short, so that any line costs linear
            // time and bounded memory.
            let near = self.line.len() - CUT_SEARCH.min(self.line.len());
            let cut = match self.line[near..].iter().rposition(u8::is_ascii) {
                Some(i) => near + i + 1,
                None => crate::mojibake::cut_between_groups(&self.line, CUT_SEARCH)
                    .or_else(|| self.line.iter().rposition(|&b| b & 0xC0 != 0x80))
                    .unwrap_or(self.line.len()),
            };
            if cut > 0 {
                let tail = self.line.split_off(cut);
                let start = self.line_offset.unwrap_or(offset);
                self.finish_line();
                self.line = tail;
                // Bytes held are output bytes, not input bytes: the offset of the tail is an
                // estimate for -v, exact when nothing before it was replaced.
                self.line_offset = Some(start + cut as u64);
            }
        }
    }

    /// Repairs the held line's mojibake and emits it, or queues it behind what waits.
    fn finish_line(&mut self) {
        if self.line.is_empty() {
            return;
        }
        let fixed = judge_line(&self.line);
        if self.pending.is_empty() {
            self.emit_line(fixed);
        } else {
            let offset = self.line_offset.take().unwrap_or(0);
            let line = std::mem::take(&mut self.line);
            self.pending.push_back(Pending::Line(offset, line, fixed));
        }
    }

    /// Emits the held line as `fixed` (what [`judge_line`] made of it) says.
    fn emit_line(&mut self, fixed: Option<MojibakeFix>) {
        let mut line = std::mem::take(&mut self.line);
        let offset = self.line_offset.take().unwrap_or(0);
        self.emit_judged(&line, offset, fixed.as_ref().map(repaired));
        // The room stays for the next line held.
        line.clear();
        self.line = line;
    }

    /// Emits `line`, which starts at `offset` of the input, as `fixed` says: its repaired text
    /// and the repair, if it was repaired.
    fn emit_judged(&mut self, line: &[u8], offset: u64, fixed: Option<(&str, RepairKind)>) {
        let stripped;
        let mut output = match fixed {
            Some((text, kind)) => {
                let first = &line[..line.len().min(6)];
                self.log_bytes(offset, first, kind);
                // What the decoding brought to light is held to `strip` too.
                stripped = without_stripped(text, self.options.strip);
                stripped.as_bytes()
            }
            None => line,
        };
        // "ï»¿" is a byte order mark read as windows-1252: once decoded it leads the output, and
        // `strip_bom` removes it there too, or a second pass would (issue 14).
        if self.options.strip_bom && !self.emitted_line {
            while let Some(rest) = output.strip_prefix(BOM) {
                self.log_bytes(offset, BOM, RepairKind::StrippedBom);
                output = rest;
            }
        }
        self.emitted_line |= !output.is_empty();
        if self.writes_output {
            self.out.extend_from_slice(output);
        }
    }
}

/// The first line of `lines` (whole lines, each with its newline) from offset `from` on in
/// which mojibake may start ([`first_suspect`]), as the range of its bytes with the newline.
fn next_suspect_line(lines: &[u8], from: usize) -> Option<std::ops::Range<usize>> {
    let suspect = from + first_suspect(&lines[from..])?;
    let start = rfind_byte(&lines[..suspect], b'\n').map_or(0, |end| end + 1);
    let end =
        suspect + find_byte(&lines[suspect..], b'\n').expect("whole lines end with a newline");
    Some(start..end + 1)
}

/// The lines of `lines` (whole lines) in which mojibake may start ([`next_suspect_line`]).
fn suspect_spans(lines: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(line) = next_suspect_line(lines, from) {
        from = line.end;
        spans.push(line);
    }
    spans
}

/// The lines `spans` of `lines` (whole lines), which [`suspect_spans`] found, each judged, on
/// `threads` threads when there are many; those too long to be held whole are left to `hold`.
fn judge_spans(lines: &str, spans: Vec<std::ops::Range<usize>>, threads: usize) -> Suspects {
    let mut suspects = Suspects::default();
    judge_spans_into(lines, spans, threads, &mut suspects);
    suspects
}

/// [`judge_spans`] into `suspects`, whose old content is lost (its buffers are kept).
fn judge_spans_into(
    lines: &str,
    spans: Vec<std::ops::Range<usize>>,
    threads: usize,
    suspects: &mut Suspects,
) {
    let fits = |span: &std::ops::Range<usize>| span.len() <= MAX_HELD_LINE;
    let judged: Vec<_> = spans.iter().filter(|s| fits(s)).cloned().collect();
    suspects.lines.clear();
    suspects.lines.reserve(spans.len());
    suspects.texts.clear();
    suspects.texts.reserve(judged.iter().map(|s| s.len()).sum());
    let fixes = if threads <= 1 {
        judge_lines_into(lines, &judged, &mut suspects.texts)
    } else {
        let texts = &mut suspects.texts;
        let fixes = judge_lines(lines, &judged, threads).into_iter();
        fixes
            .map(|fix| {
                let fix = fix?;
                let start = texts.len();
                texts.push_str(&fix.text);
                Some((start..texts.len(), fix.groups, fix.chain))
            })
            .collect()
    };
    let mut fixes = fixes.into_iter();
    for span in spans {
        let judged = if !fits(&span) {
            Judged::TooLong
        } else if let Some((text, groups, chain)) = fixes.next().expect("an answer for each line") {
            Judged::Fixed(text, RepairKind::Mojibake(groups as u32, chain))
        } else {
            Judged::Kept
        };
        suspects.lines.push((span, judged));
    }
}

/// The text of a repair of mojibake, and the repair.
fn repaired(fix: &MojibakeFix) -> (&str, RepairKind) {
    let kind = RepairKind::Mojibake(fix.groups as u32, fix.chain);
    (&fix.text, kind)
}

/// The longest line held whole for the mojibake repair; longer ones are cut (see
/// `write_text`). The repair of a held line takes about 60 bytes of memory per byte of dense
/// mojibake, so this bound keeps the whole program under 16 MiB (SPEC 7) on any input.
const MAX_HELD_LINE: usize = 64 << 10;

/// How far back from the end of an over-long line an ASCII byte is looked for.
const CUT_SEARCH: usize = 8 << 10;

/// Where [`RepairState::write_text`] may write lines that need no repair without copying them.
type Emit<'a, 'b> = &'a mut Option<&'b mut dyn FnMut(&[u8]) -> ControlFlow<()>>;

/// The sink of [`Repairer::feed_to`]: text runs go to `emit` as they are, after whatever the
/// state has written before them; what needs the state (a leading mark to strip, lines held
/// for mojibake, replacements) goes through it.
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
        if state.options.mojibake || !state.writes_output || may_strip || bytes.is_empty() {
            return state.text_to(byte_offset, bytes, &mut Some(&mut *self.emit));
        }
        self.flush()?;
        self.state.has_output = true;
        (self.emit)(bytes)
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.state.finding(finding)
    }
}

impl Sink for RepairState {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        // Without a writer to stop, nothing breaks.
        let _ = self.text_to(byte_offset, bytes, &mut None);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        if self.keeps_log {
            // The log stays in the order of the input: what waits is logged first. (Emitted to
            // `out`, which goes before anything emitted later.)
            let _ = self.settle(0, &mut None);
        }
        if self.options.mojibake {
            self.line_offset.get_or_insert(finding.position.byte_offset);
        }
        let kind = match finding.kind {
            FindingKind::IllFormed(kind) => kind,
            // Names are not content: the scanner never reports them.
            FindingKind::Name(_) => return ControlFlow::Continue(()),
            // Only the lints of `strip` (and `bom` with `strip_bom`) are enabled: what they
            // find is removed.
            FindingKind::Lint(Lint::Bom) | FindingKind::ForeignBom(_) => {
                self.log(finding, RepairKind::StrippedBom);
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
        if self.writes_output || options.mojibake {
            let out = if options.mojibake {
                &mut self.line
            } else {
                &mut self.out
            };
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
/// utf8kit_codec::decode_lossy(b"\xED\xA0\x80!", &mut out);
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
                    mojibake: false,
                    threads: 1,
                    strip: LintSet::NONE,
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
    fn mojibake_is_undone_line_by_line_across_chunks() {
        let options = RepairOptions {
            mojibake: true,
            ..RepairOptions::default()
        };
        let input = [
            "cafÃ©\nitâ€™s ".as_bytes(),
            b"\xFF",
            " fine\nSÃO PAULO\nÃ…r".as_bytes(),
        ]
        .concat();
        let expected = "café\nit’s \u{FFFD} fine\nSÃO PAULO\nÅr";
        for cut in 0..input.len() {
            let mut repairer = Repairer::new(options.clone()).with_log();
            repairer.feed(&input[..cut], false);
            repairer.feed(&input[cut..], true);
            assert_eq!(
                String::from_utf8_lossy(repairer.output()),
                expected,
                "cut {cut}"
            );
            let kinds: Vec<(u64, String)> = repairer
                .take_log()
                .iter()
                .map(|r| (r.byte_offset, r.kind.to_string()))
                .collect();
            assert!(kinds.contains(&(0, "mojibake".to_owned())), "{kinds:?}");
        }
        let mut counter = Repairer::counting(options);
        counter.feed("only fine\nSÃO\n".as_bytes(), true);
        assert_eq!(counter.repair_count(), 0);
    }

    #[test]
    fn counting_writes_nothing() {
        let mut repairer = Repairer::counting(RepairOptions::default());
        repairer.feed(b"ok \xFF ok", true);
        assert!(repairer.output().is_empty());
        assert_eq!(repairer.repair_count(), 1);
        assert_eq!(repairer.bytes_read(), 7);
    }

    /// Lines of every kind the read-ahead hands on: mojibake of one and two layers, clean
    /// text, a byte order mark read as windows-1252 first, ill-formed bytes inside mojibake,
    /// a line too long to be judged whole, and a last line without its newline.
    fn many_lines() -> Vec<u8> {
        let kinds = [
            "cafÃ© and crÃ¨me brÃ»lÃ©e",
            "plain ASCII, nothing to see",
            "GrÃƒÂ¼ÃƒÅ¸e aus KÃ¶ln",
            "déjà vu, correct already",
            "ÐŸÑ€Ð¸Ð²ÐµÑ‚ Ð¼Ð¸Ñ€",
            "ä¸\u{AD}æ–‡ and Ã ",
        ];
        let mut input = "ï»¿Ã©tÃ© first\n".as_bytes().to_vec();
        for n in 0..6000 {
            input.extend_from_slice(format!("{n} {}\n", kinds[n % kinds.len()]).as_bytes());
            // An ill-formed byte ends a run of text: one now and then, so that most runs are
            // long enough to be handed over.
            if n % 500 == 250 {
                input.extend_from_slice(b"bad \xFF byte in caf\xC3\x83\xC2\xA9\n");
            }
            if n == 2500 {
                input.extend_from_slice(&"Ã©".repeat(MAX_HELD_LINE / 3).into_bytes());
                input.push(b'\n');
            }
        }
        input.extend_from_slice("last: Ã©tÃ©".as_bytes());
        input
    }

    /// `input` repaired in chunks of `chunk` bytes, through `feed` or (`direct`) `feed_to`,
    /// with a log or not, reading ahead or not: the output, the log, the count, and whether some output was held
    /// back until a later chunk (a line fed whole that had not gone out when `feed` returned).
    fn in_chunks(
        input: &[u8],
        options: RepairOptions,
        chunk: usize,
        (direct, logged, read_ahead): (bool, bool, bool),
    ) -> (Vec<u8>, Vec<Repair>, u64, bool) {
        let mut repairer = Repairer::new(options);
        if logged {
            repairer = repairer.with_log();
        }
        repairer.set_read_ahead(read_ahead);
        let mut out = Vec::new();
        let mut held_back = false;
        let newlines = |bytes: &[u8]| bytes.iter().filter(|&&b| b == b'\n').count();
        let pieces: Vec<_> = input.chunks(chunk).collect();
        for (i, piece) in pieces.iter().enumerate() {
            let is_last = i + 1 == pieces.len();
            if direct {
                let mut emit = |bytes: &[u8]| {
                    out.extend_from_slice(bytes);
                    ControlFlow::Continue(())
                };
                let _ = repairer.feed_to(piece, is_last, &mut emit);
            } else {
                repairer.feed(piece, is_last);
            }
            out.append(repairer.output());
            let fed = &input[..(chunk * (i + 1)).min(input.len())];
            held_back |= newlines(&out) < newlines(fed);
        }
        let log = repairer.take_log();
        (out, log, repairer.repair_count(), held_back)
    }

    /// The buffers of runs emitted are used again, emptied: what a run's judging leaves in
    /// them is never more than that run needs.
    #[test]
    fn buffers_of_runs_are_used_again_emptied() {
        let mut repairer = Repairer::new(RepairOptions {
            mojibake: true,
            threads: 2,
            ..RepairOptions::default()
        });
        repairer.set_read_ahead(true);
        let input = many_lines();
        let pieces: Vec<_> = input.chunks(7 << 10).collect();
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            repairer.feed(piece, i + 1 == pieces.len());
            out.append(repairer.output());
        }
        assert!(pieces.len() > 2 * (AHEAD + 1), "{}", pieces.len());
        let spare = &repairer.state.spare_runs;
        assert!((2..=AHEAD + 1).contains(&spare.len()), "{}", spare.len());
        for (run, suspects) in spare {
            let lines = run.bytes().filter(|&b| b == b'\n').count();
            assert!(!run.is_empty() && suspects.lines.len() <= lines);
            assert!(
                suspects.texts.len() <= run.len(),
                "{}",
                suspects.texts.len()
            );
        }
        let (expected, ..) = in_chunks(
            &input,
            repairer.state.options.clone(),
            7 << 10,
            (false, false, false),
        );
        assert!(out == expected);
    }

    /// Read ahead or not, on any number of threads, fed in chunks of any size, through
    /// `feed` or `feed_to`: the output, the log and the count are the same. Reading ahead holds
    /// some output back until later chunks, and everything is out after the last one.
    #[test]
    fn reading_ahead_changes_only_when_output_comes() {
        let input = many_lines();
        let options = |threads| RepairOptions {
            mojibake: true,
            strip_bom: true,
            threads,
            ..RepairOptions::default()
        };
        for chunk in [1000, 7 << 10, 64 << 10, 256 << 10] {
            // A line too long to be judged whole is cut where the chunks leave it: the same
            // chunks are compared.
            let (expected, log, count, held_back) =
                in_chunks(&input, options(1), chunk, (false, true, false));
            // Every line is out as soon as it is fed: what a pipe needs.
            assert!(!held_back);
            assert!(expected.starts_with("été first\n0 café".as_bytes()));
            assert!(expected.ends_with("last: été".as_bytes()));
            assert!(log.len() > 4000, "{}", log.len());
            let ill_formed = log
                .iter()
                .filter(|r| matches!(r.kind, RepairKind::IllFormed(_)));
            assert_eq!(ill_formed.count(), 12);
            for threads in [2, 3] {
                for direct in [false, true] {
                    // With a log, each ill-formed byte has what waits emitted first, to keep
                    // the log in order; without one, nothing does.
                    for logged in [false, true] {
                        let case = format!(
                            "{threads} threads, chunks of {chunk}, direct {direct}, log {logged}"
                        );
                        let how = (direct, logged, true);
                        let (out, got, counted, held_back) =
                            in_chunks(&input, options(threads), chunk, how);
                        assert!(out == expected, "{case}");
                        assert_eq!(counted, count, "{case}");
                        // A run of 1000 bytes has fewer suspect lines than are handed over
                        // when nothing waits: each goes out at once, as if nothing was read
                        // ahead.
                        if logged {
                            assert!(got == log, "{case}");
                        } else {
                            assert!(got.is_empty(), "{case}");
                        }
                        assert_eq!(held_back, chunk > 1000, "{case}");
                    }
                }
            }
        }
    }

    /// Cut short before its last chunk (an input that fails), a repair that read ahead writes,
    /// once flushed, every line fed whole: what it writes without reading ahead.
    #[test]
    fn a_flush_writes_what_was_read_ahead() {
        let input = many_lines();
        let options = RepairOptions {
            mojibake: true,
            threads: 2,
            ..RepairOptions::default()
        };
        let chunks: Vec<_> = input.chunks(7 << 10).take(20).collect();
        let mut outs = Vec::new();
        for read_ahead in [false, true] {
            let mut repairer = Repairer::new(options.clone());
            repairer.set_read_ahead(read_ahead);
            let mut out = Vec::new();
            let mut emit = |bytes: &[u8]| {
                out.extend_from_slice(bytes);
                ControlFlow::Continue(())
            };
            for chunk in &chunks {
                let _ = repairer.feed_to(chunk, false, &mut emit);
            }
            let before = out.len();
            let mut emit = |bytes: &[u8]| {
                out.extend_from_slice(bytes);
                ControlFlow::Continue(())
            };
            let _ = repairer.flush_read_ahead(&mut emit);
            // Without reading ahead nothing waited; with it, chunks did.
            assert_eq!(out.len() > before, read_ahead);
            outs.push(out);
        }
        assert!(outs[0] == outs[1]);
        let fed = chunks.concat();
        let lines = fed.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(outs[1].iter().filter(|&&b| b == b'\n').count(), lines);
    }
}
