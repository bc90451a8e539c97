//! The streaming line fixer: the codec's [`Repairer`] with mojibake undone line by line.
//!
//! The codec repairs ill-formed bytes and strips what it is asked to; its output comes here
//! piece by piece ([`RepairedSink`]), held by line, and each line in which mojibake may start
//! ([`first_suspect`]) is judged when it ends. Every other line goes out as it is, neither held
//! nor copied. Lines longer than [`MAX_HELD_LINE`] are cut, so that memory stays bounded.
//!
//! With helper threads lent by the program ([`MojibakeRepairer::with_helpers`]) the lines of a run
//! are judged on them too, and with an input at hand (a regular file) runs of lines are judged on
//! them while the next chunks are fed ([`MojibakeRepairer::set_read_ahead`]); the output and the
//! log are the same whatever the number of threads.

use std::collections::VecDeque;
use std::fmt;
use std::ops::{ControlFlow, Range};
use std::sync::Arc;

use utf8kit_codec::{
    Lint, LintSet, RepairOptions, Repairer,
    repair::{Repair, RepairKind, RepairedSink},
};

use utf8kit_codec::unit::UnitBytes;

use crate::bytes::cut_between_groups;
use crate::chain::{MojibakeChain, MojibakeFix};
use crate::helpers::Helpers;
use crate::pool::{Task, judge_line, judge_lines, judge_lines_into};
use crate::suspect::SuspectWalk;
use crate::undo::undo_mojibake;

/// The UTF-8 bytes of U+FEFF, the byte order mark.
const BOM: &[u8] = "\u{FEFF}".as_bytes();

/// One repair of a [`MojibakeRepairer`], in the order they were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRepair {
    /// A repair of the codec (an ill-formed unit, a joined pair, a mark or a character stripped).
    Codec(Repair),
    /// A line whose mojibake was undone.
    Mojibake(MojibakeLine),
}

/// A line whose mojibake was undone: where it starts, its first bytes, and what was undone.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MojibakeLine {
    /// The byte offset of the line in the input.
    pub byte_offset: u64,
    /// How many groups were decoded, over all layers.
    pub groups: u32,
    /// The encoding undone at each layer.
    pub chain: MojibakeChain,
    first: UnitBytes,
}

impl MojibakeLine {
    /// The first bytes of the line (at most six), as it was before the repair.
    pub fn bytes(&self) -> &[u8] {
        self.first.as_bytes()
    }
}

impl fmt::Debug for MojibakeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MojibakeLine({} {} x{} {:02X?})",
            self.byte_offset,
            self.chain,
            self.groups,
            self.bytes()
        )
    }
}

/// Repairs a stream as the codec's [`Repairer`] does, and undoes mojibake line by line.
///
/// # Examples
///
/// ```
/// use utf8kit_codec::RepairOptions;
/// use utf8kit_mojibake::MojibakeRepairer;
///
/// let mut fixer = MojibakeRepairer::new(RepairOptions::default());
/// fixer.feed("cafÃ©\nit".as_bytes(), false);
/// fixer.feed(&["â€™s ".as_bytes(), b"\xFF fine\n"].concat(), true);
/// assert_eq!(fixer.output(), "café\nit’s \u{FFFD} fine\n".as_bytes());
/// assert_eq!(fixer.repair_count(), 3);
/// ```
pub struct MojibakeRepairer {
    repairer: Repairer,
    state: LineState,
}

struct LineState {
    /// What the decoded text of a line is held to: the codec's `strip`.
    strip: LintSet,
    /// A byte order mark that a decoding brings to the start of the output is removed.
    strip_bom: bool,
    /// The threads lent to judge the lines of a run besides the calling one, if any.
    helpers: Option<Arc<dyn Helpers>>,
    out: Vec<u8>,
    writes_output: bool,
    keeps_log: bool,
    log: Vec<LineRepair>,
    /// Lines repaired.
    count: u64,
    /// The repaired bytes of the current line, held until its end.
    line: Vec<u8>,
    /// The input offset where the held line starts.
    line_offset: Option<u64>,
    /// A line has been emitted, so the next one does not start the output.
    emitted_line: bool,
    /// Runs of lines may be judged on helper threads while the next ones are fed, and emitted
    /// later ([`MojibakeRepairer::set_read_ahead`]).
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
    lines: Vec<(Range<usize>, Judged)>,
    texts: String,
}

/// What the repair makes of a line in which mojibake may start.
#[derive(Debug)]
enum Judged {
    /// It stays as it is.
    Kept,
    /// Its repaired text (in [`Suspects::texts`]), how many groups were decoded, and the chain.
    Fixed(Range<usize>, u32, MojibakeChain),
    /// Too long to be judged whole: `hold` cuts it.
    TooLong,
}

/// How many runs of lines (64 KiB each when a file is read) may wait to be emitted with
/// `read_ahead`, judged or being judged, before the oldest is emitted: few, so that few
/// buffers are touched for the first time.
const AHEAD: usize = 4;

/// The longest line held whole; longer ones are cut (see `hold`). The repair of a held line
/// takes about 60 bytes of memory per byte of dense mojibake, so this bound keeps a program
/// under 16 MiB on any input.
pub const MAX_HELD_LINE: usize = 64 << 10;

/// How far back from the end of an over-long line an ASCII byte is looked for.
const CUT_SEARCH: usize = 8 << 10;

/// Where lines that need no repair may be written without copying them.
type Emit<'a, 'b> = &'a mut Option<EmitFn<'b>>;

/// What takes repaired bytes as they come (a writer that may fail: `Break`).
type EmitFn<'b> = &'b mut dyn FnMut(&[u8]) -> ControlFlow<()>;

impl MojibakeRepairer {
    /// A repairer at the start of an input, with `options` for the codec's repairs, judging
    /// every line on the calling thread.
    pub fn new(options: RepairOptions) -> MojibakeRepairer {
        let strip = options.strip;
        let strip_bom = options.strip_bom || strip.contains(Lint::Bom);
        MojibakeRepairer {
            repairer: Repairer::new(options),
            state: LineState {
                strip,
                strip_bom,
                helpers: None,
                out: Vec::new(),
                writes_output: true,
                keeps_log: false,
                log: Vec::new(),
                count: 0,
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
    pub fn counting(options: RepairOptions) -> MojibakeRepairer {
        let mut repairer = MojibakeRepairer::new(options);
        repairer.state.writes_output = false;
        repairer
    }

    /// Judges the lines of a run that holds many suspect ones on `helpers` too, the threads a
    /// program lends (see [`Helpers`]). The output is the same with or without them.
    #[must_use]
    pub fn with_helpers(mut self, helpers: Arc<dyn Helpers>) -> MojibakeRepairer {
        self.state.helpers = Some(helpers);
        self
    }

    /// Keeps a log of each repair, drained with [`MojibakeRepairer::take_log`].
    #[must_use]
    pub fn with_log(mut self) -> MojibakeRepairer {
        self.state.keeps_log = true;
        self
    }

    /// With helpers: the input is at hand (a regular file), so the lines of a chunk
    /// may be judged on helper threads while the next chunks are fed, and their repaired bytes
    /// are emitted (or put in [`MojibakeRepairer::output`]) a few chunks later, in order, and
    /// all by the last chunk. The output is the same; only its timing changes. Not for an input
    /// read as it comes (a pipe, a terminal), whose lines are wanted as soon as they are fed.
    pub fn set_read_ahead(&mut self, read_ahead: bool) {
        self.state.read_ahead = read_ahead;
    }

    /// Repairs the next chunk; `is_last` says that no more will follow.
    pub fn feed(&mut self, chunk: &[u8], is_last: bool) {
        let mut lines = Lines {
            state: &mut self.state,
            emit: None,
        };
        let _ = self.repairer.feed_pieces(chunk, is_last, &mut lines);
        if is_last {
            self.state.finish_line();
            let _ = self.state.settle(0, &mut None);
        }
    }

    /// Repairs the next chunk like [`MojibakeRepairer::feed`], and hands every repaired byte
    /// to `emit` in order, lines that need no repair straight from `chunk`. `emit` stops the
    /// repair by returning `Break` (a failed write), and so does this function then.
    pub fn feed_to(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut lines = Lines {
            state: &mut self.state,
            emit: Some(emit),
        };
        self.repairer.feed_pieces(chunk, is_last, &mut lines)?;
        if is_last {
            lines.state.finish_line();
            lines.state.settle(0, &mut lines.emit)?;
        }
        lines.flush()
    }

    /// Emits to `emit` what reading ahead still holds back, the lines fed whole and not yet
    /// written, as [`MojibakeRepairer::feed_to`] would have by now without it: for an input that
    /// ends in an error before its last chunk, so that what was read before the error is written
    /// all the same. A line not yet ended stays held.
    pub fn flush_read_ahead(
        &mut self,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut lines = Lines {
            state: &mut self.state,
            emit: Some(emit),
        };
        lines.state.settle(0, &mut lines.emit)?;
        lines.flush()
    }

    /// The repaired bytes produced so far and not yet taken: write them, then clear the vector.
    /// They never end inside a character.
    pub fn output(&mut self) -> &mut Vec<u8> {
        &mut self.state.out
    }

    /// The repairs logged since the last call (with [`MojibakeRepairer::with_log`]).
    pub fn take_log(&mut self) -> Vec<LineRepair> {
        std::mem::take(&mut self.state.log)
    }

    /// How many repairs were made: the codec's, and one per line whose mojibake was undone.
    pub fn repair_count(&self) -> u64 {
        self.repairer.repair_count() + self.state.count
    }

    /// The number of input bytes consumed.
    pub fn bytes_read(&self) -> u64 {
        self.repairer.bytes_read()
    }
}

impl fmt::Debug for MojibakeRepairer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MojibakeRepairer")
            .field("repairer", &self.repairer)
            .field("helpers", &self.state.helpers.as_ref().map(|h| h.count()))
            .field("read_ahead", &self.state.read_ahead)
            .field("pending", &self.state.pending.len())
            .finish_non_exhaustive()
    }
}

/// The codec's output for [`LineState`], and where lines that need no repair go.
struct Lines<'a, 'b> {
    state: &'a mut LineState,
    emit: Option<EmitFn<'b>>,
}

impl Lines<'_, '_> {
    /// Hands what `out` holds to `emit`, if there is one.
    fn flush(&mut self) -> ControlFlow<()> {
        if let Some(emit) = self.emit.as_deref_mut()
            && !self.state.out.is_empty()
        {
            emit(&self.state.out)?;
            self.state.out.clear();
        }
        ControlFlow::Continue(())
    }
}

impl RepairedSink for Lines<'_, '_> {
    fn text(&mut self, byte_offset: u64, text: &str) -> ControlFlow<()> {
        self.state.write_text(byte_offset, text, &mut self.emit)
    }

    fn repaired(&mut self, repair: &Repair, written: &[u8]) -> ControlFlow<()> {
        let state = &mut *self.state;
        if state.keeps_log {
            // The log stays in the order of the input: what waits is logged first. (Emitted to
            // `out`, which goes before anything emitted later.)
            let _ = state.settle(0, &mut None);
        }
        state.line_offset.get_or_insert(repair.byte_offset);
        state.line.extend_from_slice(written);
        if state.keeps_log {
            state.log.push(LineRepair::Codec(*repair));
        }
        ControlFlow::Continue(())
    }
}

impl LineState {
    /// Text, held by line: each line is repaired when it ends. Whole lines in which no mojibake
    /// can start go out as they are, unheld and unjudged ([`first_suspect`]): most lines of most
    /// text. With `emit`, they go straight to it, after what is in `out`, and are not copied.
    fn write_text(&mut self, byte_offset: u64, text: &str, emit: Emit<'_, '_>) -> ControlFlow<()> {
        let mut rest = text;
        let mut offset = byte_offset;
        // A line already held (begun in an earlier run, or by a repair) goes on to its end.
        if self.line_offset.is_some() || !self.line.is_empty() {
            let Some(end) = memchr::memchr(b'\n', rest.as_bytes()) else {
                self.hold(offset, rest.as_bytes());
                return ControlFlow::Continue(());
            };
            self.hold(offset, &rest.as_bytes()[..=end]);
            self.finish_line();
            rest = &rest[end + 1..];
            offset += end as u64 + 1;
        }
        // The last line may go on in the next run: it is held whatever it holds.
        let whole = memchr::memrchr(b'\n', rest.as_bytes()).map_or(0, |end| end + 1);
        let (lines, tail) = rest.split_at(whole);
        self.write_lines(offset, lines, emit)?;
        if !tail.is_empty() {
            self.hold(offset + whole as u64, tail.as_bytes());
        }
        ControlFlow::Continue(())
    }

    /// Whole lines of a text run, the first at `offset`, with mojibake repaired. The lines that
    /// may hold some are found first and judged together, on the helpers too when there are
    /// many; then every line is emitted in order. With `read_ahead`, each run is queued instead,
    /// its suspect lines found and judged on a helper while the next runs are fed: it is
    /// emitted once more than [`AHEAD`] runs wait.
    fn write_lines(&mut self, offset: u64, text: &str, emit: Emit<'_, '_>) -> ControlFlow<()> {
        let lines = text.as_bytes();
        let helpers = self.helpers.clone().filter(|helpers| helpers.count() > 0);
        if let (true, Some(helpers)) = (self.read_ahead, &helpers) {
            // Even a clean run is handed over: finding its suspect lines (the four line
            // filters) costs more than reading and writing it, and done on a helper it
            // overlaps this thread's reading of the next runs.
            let (mut run, mut suspects) = self.spare_runs.pop().unwrap_or_default();
            run.clear();
            run.push_str(text);
            let task = Task::spawn(helpers, move || {
                let spans = suspect_spans(run.as_bytes());
                judge_spans_into(&run, spans, None, &mut suspects);
                (run, suspects)
            });
            self.pending.push_back(Pending::Run(offset, task));
            return self.settle(AHEAD, emit);
        }
        self.settle(0, emit)?;
        let suspects = judge_spans(text, suspect_spans(lines), helpers.as_ref());
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
            match judged {
                Judged::Kept => self.emit_judged(line, start, None),
                Judged::Fixed(text, groups, chain) => {
                    let fixed = (&suspects.texts[text.clone()], *groups, *chain);
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
        self.line.extend_from_slice(bytes);
        if self.line.len() > MAX_HELD_LINE {
            // A line this long is cut at its last ASCII byte, which no mojibake group contains,
            // if one is near the end; otherwise (a line without ASCII) between two groups of
            // one layer of mojibake, or failing that at its last character boundary. Either way
            // the scan is bounded and what stays held is short, so that any line costs linear
            // time and bounded memory.
            let near = self.line.len() - CUT_SEARCH.min(self.line.len());
            let cut = match self.line[near..].iter().rposition(u8::is_ascii) {
                Some(i) => near + i + 1,
                None => cut_between_groups(&self.line, CUT_SEARCH)
                    .or_else(|| self.line.iter().rposition(|&b| b & 0xC0 != 0x80))
                    .unwrap_or(self.line.len()),
            };
            if cut > 0 {
                let tail = self.line.split_off(cut);
                let start = self.line_offset.unwrap_or(offset);
                self.finish_line();
                self.line = tail;
                // Bytes held are output bytes, not input bytes: the offset of the tail is an
                // estimate for the log, exact when nothing before it was replaced.
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

    /// Emits `line`, which starts at `offset` of the input, as `fixed` says: its repaired text,
    /// the groups decoded and the chain undone, if it was repaired.
    fn emit_judged(&mut self, line: &[u8], offset: u64, fixed: Option<(&str, u32, MojibakeChain)>) {
        let stripped;
        let judged_again;
        let mut output = match fixed {
            Some((text, groups, chain)) => {
                // A byte order mark read as windows-1252 ("ï»¿") that `strip_bom` removes from
                // the start of the output: the rest of the line is judged again without it, as
                // a second pass would judge it, so that a second pass changes nothing.
                let (mut text, mut groups, mut chain) = (text, groups, chain);
                let rest = text.trim_start_matches('\u{FEFF}');
                if self.strip_bom
                    && !self.emitted_line
                    && rest.len() < text.len()
                    && let Some(again) = undo_mojibake(rest)
                {
                    judged_again = format!("{}{}", &text[..text.len() - rest.len()], again.text);
                    text = &judged_again;
                    groups += again.groups as u32;
                    chain = chain.then(again.chain);
                }
                // What the decoding brought to light is held to `strip` too; and what stripping
                // removed may have stood between two layers ("â€®Ã„€": an RLO between "Ä" and
                // "€"), so the rest is judged again, as a second run would judge it, until
                // nothing more is stripped: one run reaches the fixed point.
                let mut current = std::borrow::Cow::Borrowed(text);
                for _ in 0..crate::chain::MAX_LAYERS {
                    let std::borrow::Cow::Owned(rest) = without_stripped(&current, self.strip)
                    else {
                        break;
                    };
                    match undo_mojibake(&rest) {
                        Some(again) => {
                            groups += again.groups as u32;
                            chain = chain.then(again.chain);
                            current = std::borrow::Cow::Owned(again.text);
                        }
                        None => {
                            current = std::borrow::Cow::Owned(rest);
                            break;
                        }
                    }
                }
                self.count += 1;
                if self.keeps_log {
                    self.log.push(LineRepair::Mojibake(MojibakeLine {
                        byte_offset: offset,
                        groups,
                        chain,
                        first: UnitBytes::new(line),
                    }));
                }
                stripped = match without_stripped(&current, self.strip) {
                    std::borrow::Cow::Owned(rest) => rest,
                    std::borrow::Cow::Borrowed(_) => current.into_owned(),
                };
                stripped.as_bytes()
            }
            None => line,
        };
        // "ï»¿" is a byte order mark read as windows-1252: once decoded it leads the output, and
        // `strip_bom` removes it there too, or a second pass would.
        if self.strip_bom && !self.emitted_line {
            while let Some(rest) = output.strip_prefix(BOM) {
                self.count += 1;
                if self.keeps_log {
                    let repair = Repair::new(offset, RepairKind::StrippedBom, BOM);
                    self.log.push(LineRepair::Codec(repair));
                }
                output = rest;
            }
        }
        self.emitted_line |= !output.is_empty();
        if self.writes_output {
            self.out.extend_from_slice(output);
        }
    }
}

/// `text` without the characters `strip` removes. Their neighbours are not looked at: these
/// characters were never in the input.
fn without_stripped(text: &str, strip: LintSet) -> std::borrow::Cow<'_, str> {
    if strip.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let is_stripped = |c: char| strip.check(u32::from(c), 1).is_some();
    if text.chars().any(is_stripped) {
        std::borrow::Cow::Owned(text.chars().filter(|&c| !is_stripped(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The first line of `lines` (whole lines, each with its newline) from offset `from` on in
/// which mojibake may start ([`first_suspect`]), as the range of its bytes with the newline.
fn next_suspect_line(walk: &mut SuspectWalk, lines: &[u8], from: usize) -> Option<Range<usize>> {
    let suspect = walk.first_from(lines, from)?;
    let start = memchr::memrchr(b'\n', &lines[..suspect]).map_or(0, |end| end + 1);
    let end =
        suspect + memchr::memchr(b'\n', &lines[suspect..]).expect("whole lines end with a newline");
    Some(start..end + 1)
}

/// The lines of `lines` (whole lines) in which mojibake may start ([`next_suspect_line`]).
fn suspect_spans(lines: &[u8]) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut from = 0;
    let mut walk = SuspectWalk::default();
    while let Some(line) = next_suspect_line(&mut walk, lines, from) {
        from = line.end;
        spans.push(line);
    }
    spans
}

/// The lines `spans` of `lines` (whole lines), which [`suspect_spans`] found, each judged, on
/// `helpers` too when there are many; those too long to be held whole are left to `hold`.
fn judge_spans(
    lines: &str,
    spans: Vec<Range<usize>>,
    helpers: Option<&Arc<dyn Helpers>>,
) -> Suspects {
    let mut suspects = Suspects::default();
    judge_spans_into(lines, spans, helpers, &mut suspects);
    suspects
}

/// [`judge_spans`] into `suspects`, whose old content is lost (its buffers are kept).
fn judge_spans_into(
    lines: &str,
    spans: Vec<Range<usize>>,
    helpers: Option<&Arc<dyn Helpers>>,
    suspects: &mut Suspects,
) {
    let fits = |span: &Range<usize>| span.len() <= MAX_HELD_LINE;
    let judged: Vec<_> = spans.iter().filter(|s| fits(s)).cloned().collect();
    suspects.lines.clear();
    suspects.lines.reserve(spans.len());
    suspects.texts.clear();
    suspects.texts.reserve(judged.iter().map(|s| s.len()).sum());
    let fixes = if helpers.is_none() {
        judge_lines_into(lines, &judged, &mut suspects.texts)
    } else {
        let texts = &mut suspects.texts;
        let fixes = judge_lines(lines, &judged, helpers).into_iter();
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
            Judged::Fixed(text, groups as u32, chain)
        } else {
            Judged::Kept
        };
        suspects.lines.push((span, judged));
    }
}

/// The text of a repair of mojibake, the groups it decoded and the chain it undid.
fn repaired(fix: &MojibakeFix) -> (&str, u32, MojibakeChain) {
    (&fix.text, fix.groups as u32, fix.chain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::ThreadPerWork;

    /// A byte order mark read as windows-1252 leads a line whose rest is two layers deep: with
    /// `strip_bom` the mark goes and the rest is judged as a second pass would judge it, so that
    /// a second pass changes nothing (found by the property test).
    #[test]
    fn a_stripped_mark_leaves_nothing_for_a_second_pass() {
        let options = RepairOptions {
            strip_bom: true,
            ..RepairOptions::default()
        };
        let input = "ï»¿Ãâ€™A \nÃ©\n";
        let mut repairer = MojibakeRepairer::new(options.clone()).with_log();
        repairer.feed(input.as_bytes(), true);
        let once = std::mem::take(repairer.output());
        assert_eq!(String::from_utf8_lossy(&once), "ÒA \né\n");
        let log: Vec<String> = repairer
            .take_log()
            .iter()
            .map(|r| match r {
                LineRepair::Codec(r) => format!("{} {}", r.byte_offset, r.kind),
                LineRepair::Mojibake(l) => format!("{} {} x{}", l.byte_offset, l.chain, l.groups),
            })
            .collect();
        assert_eq!(log, ["0 windows-1252 x2 x3", "0 bom", "19 windows-1252 x1"]);
        let mut again = MojibakeRepairer::new(options);
        again.feed(&once, true);
        assert_eq!(again.output(), &once);
    }

    #[test]
    fn mojibake_is_undone_line_by_line_across_chunks() {
        let options = RepairOptions::default();
        let input = [
            "cafÃ©\nitâ€™s ".as_bytes(),
            b"\xFF",
            " fine\nSÃO PAULO\nÃ…r".as_bytes(),
        ]
        .concat();
        let expected = "café\nit’s \u{FFFD} fine\nSÃO PAULO\nÅr";
        for cut in 0..input.len() {
            let mut repairer = MojibakeRepairer::new(options.clone()).with_log();
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
                .map(|r| match r {
                    LineRepair::Codec(r) => (r.byte_offset, r.kind.to_string()),
                    LineRepair::Mojibake(line) => (line.byte_offset, "mojibake".to_owned()),
                })
                .collect();
            assert!(kinds.contains(&(0, "mojibake".to_owned())), "{kinds:?}");
        }
        let mut counter = MojibakeRepairer::counting(options);
        counter.feed("only fine\nSÃO\n".as_bytes(), true);
        assert_eq!(counter.repair_count(), 0);
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
        (options, threads): (RepairOptions, usize),
        chunk: usize,
        (direct, logged, read_ahead): (bool, bool, bool),
    ) -> (Vec<u8>, Vec<LineRepair>, u64, bool) {
        let mut repairer = MojibakeRepairer::new(options);
        if let Some(helpers) = ThreadPerWork::lent(threads) {
            repairer = repairer.with_helpers(helpers);
        }
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
        let helpers = ThreadPerWork::lent(2).expect("two threads lend one");
        let mut repairer = MojibakeRepairer::new(RepairOptions::default()).with_helpers(helpers);
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
            (RepairOptions::default(), 2),
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
        let options = |threads| {
            let options = RepairOptions {
                strip_bom: true,
                ..RepairOptions::default()
            };
            (options, threads)
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
            let ill_formed = log.iter().filter(
                |r| matches!(r, LineRepair::Codec(r) if matches!(r.kind, RepairKind::IllFormed(_))),
            );
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
                        if logged {
                            assert!(got == log, "{case}");
                        } else {
                            assert!(got.is_empty(), "{case}");
                        }
                        // Every run is handed over, however few suspect lines it holds.
                        assert!(held_back, "{case}");
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
        let options = RepairOptions::default();
        let chunks: Vec<_> = input.chunks(7 << 10).take(20).collect();
        let mut outs = Vec::new();
        for read_ahead in [false, true] {
            let helpers = ThreadPerWork::lent(2).expect("two threads lend one");
            let mut repairer = MojibakeRepairer::new(options.clone()).with_helpers(helpers);
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
