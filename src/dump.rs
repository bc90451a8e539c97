//! `utf8dump`: show a byte stream unit by unit (SPEC 4), and read a dump back (`-r`).
//!
//! The codec's scanner splits the input into units; each unit goes to one view: the unit lines
//! (the default, with `--names`, `--bits` or `--octal`), the hex panel (`-x`), the escaped text
//! (`-e`), JSON (`--format json`) or the statistics (`--stats`). `--errors-only` filters the unit
//! lines to the ill-formed units and their context.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufRead, BufReader, Write};
use std::ops::ControlFlow;

use clap::{Parser, ValueEnum};
use termcolor::{Color, ColorSpec, WriteColor};
use utf8kit_codec::{
    declared_len, is_continuation, scan_unit, Config, Finding, FindingKind, Position, Scanner,
    Sink, UnitKind,
};

use crate::cli::{parse_size, ColorWhen};
use crate::input::{io_reason, pieces, ChunkReader, Source};
use crate::output::{self, Messages};
use crate::render::{char_name, is_invisible, shown, Shown};
use crate::report::{push_unit_json, Detail};
use crate::status::Status;

const ABOUT: &str = "Show a byte stream unit by unit: offsets, bytes, code points, errors";

const LONG_ABOUT: &str = "\
Show a byte stream unit by unit: offsets, bytes, code points, errors.

utf8dump reads each FILE (standard input when there is none, or for '-') and shows it one unit \
a line: the byte offset (hex), the bytes (hex), the code point, and the character, rendered so \
that nothing reaches the terminal raw: C0 controls as Control Pictures (␊, ␛), C1 controls, \
format, bidi and invisible characters (everything utf8check --deny invisible,tag,bidi \
reports), private-use characters and noncharacters as \\u{...}, a tag character with the \
ASCII it hides (\\u{e0069}=i), combining marks on a dotted circle (◌́); wide characters keep the columns aligned. An \
ill-formed unit shows its kind in place of the character (overlong, truncated, ...: see \
utf8check), and the code point it decodes to where it has one.

Views: -x/--hex shows 16 bytes a row as hexdump -C does, with a text panel that shows each \
character at its lead byte (· marks the rest of its bytes, � each ill-formed byte, . controls \
and invisible characters); -c COLS sets the bytes a row and -g BYTES groups them as xxd does \
(utf8dump -x -g 2 is xxd's layout with a hexdump panel); -e/--escape writes the text itself with each ill-formed byte as \
\\xhh (lowercase, as utf8fix --escape and Python write it) and invisible characters as \\u{...}; --format json writes one object per unit; --stats \
counts units by length and kind, lines, the longest line and the share of ASCII; -p/--plain \
and -i/--include write the bytes as xxd -p and xxd -i do, byte for byte (their windows end at \
exactly the byte asked for, as xxd's do, and no note is written into them; -c sets their \
bytes a line, and -p -c 0 writes one line). -u writes the hex digits of bytes in uppercase \
(the unit view, -x, -p, -i), as xxd -u does; offsets, JSON and -e stay lowercase.

-s/--skip and -n/--length (-l, as xxd spells it) show a window of the input (-s -N starts N \
bytes before the end of a file, as xxd -s -N does) (offsets stay those of the input). The \
views that show bytes in rows (-x, -p, -i) show exactly the bytes asked for, as xxd does: a \
character cut at the start shows its last bytes as ·, one cut at the end is drawn at its lead \
byte, and -x says on a '#' line where the cut sequence starts. The views of units (the \
default, JSON, -e, --stats) show whole units: a window that starts inside a multi-byte \
sequence says so on a '#' line and resynchronises at the next unit, and a unit that starts \
inside the window is shown whole even if it ends after it.

-r/--reverse reads a dump back and writes the original bytes, ill-formed ones included, as \
xxd -r does: every view that shows all bytes (the default view with hex, --octal or --bits \
bytes, the -x view with any -c, -g and -u, -p, -i and JSON) and xxd's own output (its default \
layout with any -g and -c, and xxd -p), one format per line as it comes. Colour is not read: \
write the dump with --color never. Only the \
bytes columns are read: edit a byte there and the file changes; offsets are not used, so lines \
can be deleted or moved. Lines starting with '#', '==>' or '--' are skipped; any other line \
that is not a dump line is trouble.";

const AFTER_LONG_HELP: &str = "\
Exit status:
  0  the dump (or the bytes of -r) was written, whatever the input holds: a dump is not a check
  2  trouble: bad usage, an unreadable FILE, a line -r cannot read, a failed write

Output:
  With several inputs, text views start each with '==> PATH <=='. A closed standard output \
(utf8dump big.bin | head) ends the program at once and quietly.

Colour:
  --color auto (the default) colours only a terminal, and never when NO_COLOR is set or TERM \
is dumb: offsets blue, ASCII plain, controls and whitespace green, multi-byte characters \
yellow, ill-formed units bold red, the marker bits of --bits cyan.

JSON:
  {\"offset\":N,\"length\":N,\"bytes\":\"e282ac\",\"kind\":\"char\"|KIND,\"codepoint\":N|null}

Examples:
  utf8dump notes.txt
  utf8dump --errors-only -C 2 data.csv
  utf8dump -x -s 0x1000 -n 256 image.bin
  utf8dump -x -c 8 -g 2 -u notes.txt
  utf8dump broken.txt > dump.txt; $EDITOR dump.txt; utf8dump -r dump.txt > fixed.txt";

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DumpFormat {
    /// Text views.
    #[default]
    Text,
    /// One JSON object per unit.
    Json,
}

/// The command line of `utf8dump`.
#[derive(Debug, Parser)]
#[command(
    name = "utf8dump",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_LONG_HELP,
    max_term_width = 100,
    group(clap::ArgGroup::new("rows").args(["hex", "plain", "include"]).multiple(true))
)]
pub struct Args {
    /// Files to dump; '-' or none reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// 16 bytes a row with a text panel, as hexdump -C.
    #[arg(short = 'x', long, group = "view")]
    pub hex: bool,

    /// The text itself, with ill-formed bytes as \xhh and invisible characters as \u{...}.
    #[arg(short, long, group = "view")]
    pub escape: bool,

    /// Counts of units by length and kind, lines, the longest line, the share of ASCII.
    #[arg(long, group = "view")]
    pub stats: bool,

    /// Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back).
    #[arg(short, long, group = "view")]
    pub plain: bool,

    /// The bytes as a C array, as xxd -i writes it (a file gets its declaration and length).
    #[arg(short, long, group = "view")]
    pub include: bool,

    /// Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line
    /// with -p.
    #[arg(short = 'c', long, value_name = "COLS", requires = "rows", value_parser = parse_cols)]
    pub cols: Option<usize>,

    /// Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes
    /// with a gap every 8, as hexdump -C.
    #[arg(short = 'g', long = "group", value_name = "BYTES", requires = "hex", conflicts_with_all = ["plain", "include"], value_parser = parse_cols)]
    pub group: Option<usize>,

    /// Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and
    /// the escapes of -e stay lowercase.
    #[arg(short = 'u', long)]
    pub upper: bool,

    /// Add each character's Unicode name.
    #[arg(long)]
    pub names: bool,

    /// Show each byte in binary, marker bits set apart (1110_0010 10_000010).
    #[arg(long, conflicts_with = "octal")]
    pub bits: bool,

    /// Show bytes in octal.
    #[arg(long)]
    pub octal: bool,

    /// Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before
    /// the end of a file, as xxd -s -N does.
    #[arg(short, long, value_name = "OFFSET", value_parser = parse_skip, allow_negative_numbers = true, allow_hyphen_values = true)]
    pub skip: Option<Skip>,

    /// Show at most this many bytes (-l as xxd spells it).
    #[arg(short = 'n', long, visible_short_alias = 'l', value_name = "N", value_parser = parse_size)]
    pub length: Option<u64>,

    /// Show only ill-formed units (with -C, and the units around them).
    #[arg(long)]
    pub errors_only: bool,

    /// With --errors-only, N units before and after each ill-formed unit (at most 100000).
    #[arg(short = 'C', long, value_name = "N", requires = "errors_only", value_parser = parse_context)]
    pub context: Option<u64>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = DumpFormat::Text, value_name = "FORMAT")]
    pub format: DumpFormat,

    /// Read a dump back and write the bytes it shows.
    #[arg(short, long, conflicts_with_all = ["view", "names", "bits", "octal", "errors_only"])]
    pub reverse: bool,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print a man page or a shell completion script, and exit (KIND: man, complete-bash,
    /// complete-zsh, complete-fish, complete-elvish, complete-powershell).
    #[arg(long, value_enum, value_name = "KIND")]
    pub generate: Option<crate::cli::Generate>,
}

/// Which view renders the units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewKind {
    /// One unit a line.
    Units,
    /// hexdump -C.
    Hex,
    /// The text with escapes.
    Escape,
    /// JSON Lines.
    Json,
    /// Counts.
    Stats,
    /// xxd -p.
    Plain,
    /// xxd -i.
    Include,
}

/// What the command line asks for, resolved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The inputs.
    pub sources: Vec<Source>,
    /// The view.
    pub view: ViewKind,
    /// How bytes are written in the unit lines.
    pub bytes_as: BytesAs,
    /// Add names to unit lines.
    pub names: bool,
    /// First offset shown.
    pub skip: Skip,
    /// Bytes shown at most.
    pub length: Option<u64>,
    /// Only ill-formed units and this many around them.
    pub errors_only: Option<u64>,
    /// Read dumps back.
    pub reverse: bool,
    /// When to colour.
    pub color: ColorWhen,
    /// Bytes a row of the row views (`-c`): `None` for the view's own.
    pub cols: Option<usize>,
    /// Bytes a group in the `-x` rows (`-g`).
    pub group: Option<usize>,
    /// Uppercase hex digits for bytes (`-u`).
    pub upper: bool,
}

/// How bytes are written in the unit lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BytesAs {
    /// `e2 82 ac`
    Hex,
    /// `342 202 254`
    Octal,
    /// `1110_0010 10_000010 10_101100`
    Bits,
}

/// Where `-s` starts: an offset from the start, or (`-s -N`) a count of bytes before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// This many bytes from the start.
    From(u64),
    /// This many bytes before the end (a file, whose length is known).
    BeforeEnd(u64),
}

/// Parses `-s`: a size, or `-` and a size counted from the end.
///
/// # Errors
///
/// Not a size.
pub fn parse_skip(text: &str) -> Result<Skip, String> {
    match text.trim().strip_prefix('-') {
        Some(back) => Ok(Skip::BeforeEnd(parse_size(back)?)),
        None => Ok(Skip::From(parse_size(text)?)),
    }
}

/// Parses `-c` and `-g`: a count of bytes.
///
/// # Errors
///
/// Not a number.
pub fn parse_cols(text: &str) -> Result<usize, String> {
    let value = parse_size(text)?;
    usize::try_from(value).map_err(|_| format!("'{}' is too large", text.trim()))
}

/// The most bytes a row of `-x` or `-i` holds, as xxd allows.
pub const MAX_COLS: usize = 256;

/// The most units of context `-C` keeps: the units before an ill-formed one are held until it
/// comes, so the bound keeps memory small (about 4 MiB) whatever the input.
pub const MAX_CONTEXT: u64 = 100_000;

/// Parses `-C`: a size of at most [`MAX_CONTEXT`] units.
///
/// # Errors
///
/// Not a size, or more context than is kept.
pub fn parse_context(text: &str) -> Result<u64, String> {
    let units = parse_size(text)?;
    if units > MAX_CONTEXT {
        return Err(format!(
            "'{}' is more context than utf8dump keeps (at most {MAX_CONTEXT} units)",
            text.trim()
        ));
    }
    Ok(units)
}

impl Settings {
    /// Resolves the command line.
    pub fn from_args(args: &Args) -> Settings {
        let view = if args.hex {
            ViewKind::Hex
        } else if args.escape {
            ViewKind::Escape
        } else if args.stats {
            ViewKind::Stats
        } else if args.plain {
            ViewKind::Plain
        } else if args.include {
            ViewKind::Include
        } else if args.format == DumpFormat::Json {
            ViewKind::Json
        } else {
            ViewKind::Units
        };
        let bytes_as = if args.bits {
            BytesAs::Bits
        } else if args.octal {
            BytesAs::Octal
        } else {
            BytesAs::Hex
        };
        Settings {
            sources: Source::from_operands(&args.files),
            view,
            bytes_as,
            names: args.names,
            skip: args.skip.unwrap_or(Skip::From(0)),
            length: args.length,
            errors_only: args.errors_only.then(|| args.context.unwrap_or(0)),
            reverse: args.reverse,
            color: args.color,
            // xxd reads -c 0 as its default, but for -p as one line.
            cols: args.cols.filter(|&cols| cols > 0 || args.plain),
            group: args.group,
            upper: args.upper,
        }
    }
}

/// Runs `utf8dump`.
///
/// # Errors
///
/// Only a failure to write standard output (other than a closed pipe) is an error.
pub fn run(args: &Args) -> Status {
    let settings = Settings::from_args(args);
    let mut messages = Messages::new("utf8dump");
    if let Some(cols) = settings.cols.filter(|&cols| cols > MAX_COLS) {
        if matches!(settings.view, ViewKind::Hex | ViewKind::Include) {
            messages.error(format_args!(
                "-c {cols}: a row of -x or -i holds at most {MAX_COLS} bytes, as in xxd \
                 (see utf8dump --help)"
            ));
            return Status::Trouble;
        }
    }
    let mut out = output::stdout(settings.color);
    let written = if settings.reverse {
        reverse_all(&settings, &mut *out, &mut messages)
    } else {
        dump_all(&settings, &mut *out, &mut messages)
    }
    .and_then(|()| out.flush());
    messages.ended(written, Status::Clean)
}

fn dump_all(
    settings: &Settings,
    out: &mut dyn WriteColor,
    messages: &mut Messages,
) -> io::Result<()> {
    let mut reader = ChunkReader::new();
    let headers = settings.sources.len() > 1
        && !matches!(
            settings.view,
            ViewKind::Json | ViewKind::Escape | ViewKind::Plain | ViewKind::Include
        );
    for (i, source) in settings.sources.iter().enumerate() {
        let name = source.display_name();
        if headers {
            let blank = if i > 0 { "\n" } else { "" };
            writeln!(out, "{blank}==> {name} <==")?;
        }
        let mut view = make_view(settings, source);
        match dump_one(settings, &mut reader, source, &mut *view, out)? {
            Ok(notes) => {
                for note in notes {
                    messages.note(format_args!("{name}: {note}"));
                }
            }
            Err(reason) => messages.trouble(&name, reason),
        }
    }
    Ok(())
}

fn make_view(settings: &Settings, source: &Source) -> Box<dyn View> {
    let palette = Palette::new();
    let view: Box<dyn View> = match settings.view {
        ViewKind::Units => Box::new(UnitLines {
            bytes_as: settings.bytes_as,
            upper: settings.upper,
            names: settings.names,
            palette,
            line: String::new(),
            lines: Vec::with_capacity(LINES_LEN + 256),
        }),
        ViewKind::Hex => Box::new(HexRows::new(
            palette,
            RowLayout {
                cols: settings.cols.unwrap_or(16),
                group: settings.group,
                upper: settings.upper,
            },
        )),
        ViewKind::Escape => Box::new(Escaped {
            palette,
            pending: String::new(),
        }),
        ViewKind::Json => Box::new(JsonUnits {
            line: String::new(),
        }),
        ViewKind::Stats => Box::new(Stats::default()),
        ViewKind::Plain => Box::new(ByteList::plain(settings)),
        ViewKind::Include => Box::new(ByteList::c_array(source, settings)),
    };
    match settings.errors_only {
        Some(context) if matches!(settings.view, ViewKind::Units | ViewKind::Json) => {
            let separates = settings.view == ViewKind::Units;
            Box::new(ErrorsOnly::new(view, context as usize, separates))
        }
        _ => view,
    }
}

/// Dumps one input. The outer `Err` is a failed write; the inner one, trouble reading the input.
/// On success, the notes that could not go into the output (JSON has no place for them).
fn dump_one(
    settings: &Settings,
    reader: &mut ChunkReader,
    source: &Source,
    view: &mut dyn View,
    out: &mut dyn WriteColor,
) -> io::Result<Result<Vec<String>, String>> {
    // The views that show bytes in rows show exactly the bytes asked for, as xxd does: a
    // character cut by the window is shown in part. The others show whole units.
    let exact = matches!(
        settings.view,
        ViewKind::Hex | ViewKind::Plain | ViewKind::Include
    );
    let skip = match settings.skip {
        Skip::From(offset) => offset,
        Skip::BeforeEnd(back) => {
            // Only a regular file (named, or redirected to standard input) has a known end.
            let length = source.open().and_then(|file| {
                let metadata = file.metadata()?;
                Ok(metadata.is_file().then_some(metadata.len()))
            });
            match length {
                Ok(Some(length)) => length.saturating_sub(back),
                Ok(None) => {
                    return Ok(Err(
                        "-s -N counts from the end, which only a regular file has".to_owned(),
                    ))
                }
                Err(error) => return Ok(Err(io_reason(&error))),
            }
        }
    };
    let mut window = Window::new(skip, settings.length, exact);
    let mut scanner = Scanner::new(Config::default());
    let mut feeder = Feeder {
        view,
        out,
        base: 0,
        end: None,
        error: None,
        notes: Vec::new(),
        // Notes would break what xxd -r and a C compiler read.
        notes_in_output: !matches!(
            settings.view,
            ViewKind::Json | ViewKind::Plain | ViewKind::Include
        ),
        exact,
    };
    // Feed each chunk in pieces, so that the first units are shown at once and a closed output
    // stops the work within a piece.
    let read = reader.read(source, &mut |chunk, is_last| {
        for (piece, is_last_piece) in pieces(chunk, is_last, PIECE_LEN) {
            window.feed(piece, is_last_piece, &mut scanner, &mut feeder)?;
        }
        ControlFlow::Continue(())
    });
    if let Some(error) = feeder.error.take() {
        return Err(error);
    }
    if let Err(error) = read {
        // What was read before the failure is shown.
        feeder.view.finish(feeder.out)?;
        return Ok(Err(io_reason(&error)));
    }
    if !window.has_started {
        // The input ended before the window began.
        let note = format!(
            "the input ends at offset 0x{:x}, before the window at 0x{:x}",
            window.position, window.skip
        );
        feeder.note(&note)?;
    }
    feeder.view.finish(feeder.out)?;
    Ok(Ok(feeder.notes))
}

/// The most input handed to the scanner at once.
const PIECE_LEN: usize = 64 * 1024;

/// The `-s`/`-n` window: skips to the start, resynchronises if it falls inside a sequence, and
/// stops once every unit that starts inside it has been seen.
struct Window {
    /// The byte views of xxd (-p, -i) show exactly the bytes asked for: no resynchronising.
    exact: bool,
    skip: u64,
    length: Option<u64>,
    /// The absolute offset of the next byte to arrive.
    position: u64,
    /// The last bytes skipped (up to 5): a lead byte among them may reach into the window.
    behind: Vec<u8>,
    /// Continuation bytes still to drop to resynchronise, and where the sequence started.
    resync: Option<(usize, u64, u8)>,
    has_started: bool,
    has_ended: bool,
}

/// A unit is at most 6 bytes: this many bytes past the window's end decide the last one.
const LOOKAHEAD: u64 = 5;

impl Window {
    fn new(skip: u64, length: Option<u64>, exact: bool) -> Window {
        Window {
            exact,
            skip,
            length,
            position: 0,
            behind: Vec::new(),
            resync: None,
            has_started: skip == 0,
            has_ended: false,
        }
    }

    /// Where the window ends (saturating: `-n` as large as the offsets go means "to the end").
    fn end(&self) -> Option<u64> {
        self.length.map(|length| self.skip.saturating_add(length))
    }

    fn feed(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        scanner: &mut Scanner,
        feeder: &mut Feeder<'_>,
    ) -> ControlFlow<()> {
        if self.has_ended {
            return ControlFlow::Break(());
        }
        let mut chunk = chunk;
        if !self.has_started {
            let skipped = chunk.len().min((self.skip - self.position) as usize);
            self.behind.extend_from_slice(&chunk[..skipped]);
            let excess = self.behind.len().saturating_sub(5);
            self.behind.drain(..excess);
            self.position += skipped as u64;
            chunk = &chunk[skipped..];
            if self.position < self.skip {
                return ControlFlow::Continue(());
            }
            self.has_started = true;
            self.resync = inside_sequence(&self.behind)
                .map(|(remaining, distance, lead)| (remaining, self.skip - distance as u64, lead));
            if self.resync.is_none() {
                feeder.base = self.position;
            }
        }
        if let Some((remaining, start, lead)) = self.resync {
            let mut dropped = 0;
            while dropped < remaining && dropped < chunk.len() && is_continuation(chunk[dropped]) {
                dropped += 1;
            }
            if self.exact {
                // Shown, but not given to the scanner, which would take them for stray bytes;
                // as many as the window holds.
                let room = self
                    .end()
                    .map_or(u64::MAX, |end| end.saturating_sub(self.position));
                let shown = dropped.min(usize::try_from(room).unwrap_or(usize::MAX));
                if self.position == self.skip && shown > 0 {
                    let note = format!(
                        "offset 0x{:x} is inside the sequence that starts at offset 0x{start:x} \
                         with lead byte {lead:02x}: its bytes before the window are not shown",
                        self.skip
                    );
                    if feeder.note(&note).is_err() {
                        return ControlFlow::Break(());
                    }
                }
                if feeder.continued(self.position, &chunk[..shown]).is_break() {
                    return ControlFlow::Break(());
                }
            }
            chunk = &chunk[dropped..];
            self.position += dropped as u64;
            let still = remaining - dropped;
            if still > 0 && chunk.is_empty() && !is_last {
                self.resync = Some((still, start, lead));
                return ControlFlow::Continue(());
            }
            self.resync = None;
            if !self.exact {
                let note = format!(
                    "offset 0x{:x} is inside the sequence that starts at offset 0x{start:x} \
                     with lead byte {lead:02x}: resynchronised at offset 0x{:x}",
                    self.skip, self.position
                );
                if feeder.note(&note).is_err() {
                    return ControlFlow::Break(());
                }
            }
            feeder.base = self.position;
            if self.exact && self.end().is_some_and(|end| self.position >= end) {
                self.has_ended = true;
                return ControlFlow::Break(());
            }
        }
        if let Some(window_end) = self.end() {
            feeder.end = Some(window_end);
            let limit = window_end.saturating_add(LOOKAHEAD);
            let room = usize::try_from(limit.saturating_sub(self.position)).unwrap_or(usize::MAX);
            if chunk.len() >= room {
                self.has_ended = true;
                // The window is complete whatever the scanner says: stop reading either way.
                let _ = scanner.feed(&chunk[..room], true, feeder);
                self.position += room as u64;
                return ControlFlow::Break(());
            }
        }
        self.position += chunk.len() as u64;
        scanner.feed(chunk, is_last, feeder)
    }
}

/// Whether bytes just before the window hold a lead byte whose sequence reaches into it: the
/// continuation bytes still to drop, how far back the lead is, and the lead.
fn inside_sequence(behind: &[u8]) -> Option<(usize, usize, u8)> {
    let lead_at = behind.iter().rposition(|&b| !is_continuation(b))?;
    let lead = behind[lead_at];
    let distance = behind.len() - lead_at;
    let declared = declared_len(lead).filter(|&n| n > 1)?;
    (declared > distance).then(|| (declared - distance, distance, lead))
}

/// One unit as the views see it.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    /// Its offset in the input.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// What it is.
    pub kind: UnitKind,
    /// Its code point, where it has one.
    pub codepoint: Option<u32>,
}

/// A unit kept for `--errors-only -C`.
#[derive(Clone, Copy, Debug)]
struct OwnedUnit {
    offset: u64,
    bytes: [u8; 6],
    len: usize,
    kind: UnitKind,
    codepoint: Option<u32>,
}

impl OwnedUnit {
    fn of(unit: &Unit<'_>) -> OwnedUnit {
        let mut bytes = [0; 6];
        bytes[..unit.bytes.len()].copy_from_slice(unit.bytes);
        OwnedUnit {
            offset: unit.offset,
            bytes,
            len: unit.bytes.len(),
            kind: unit.kind,
            codepoint: unit.codepoint,
        }
    }

    fn unit(&self) -> Unit<'_> {
        Unit {
            offset: self.offset,
            bytes: &self.bytes[..self.len],
            kind: self.kind,
            codepoint: self.codepoint,
        }
    }
}

/// Turns the scanner's text runs and findings into units for a view.
struct Feeder<'a> {
    view: &'a mut dyn View,
    out: &'a mut dyn WriteColor,
    /// The absolute offset of the first byte fed to the scanner.
    base: u64,
    /// Units starting at or after this absolute offset are past the window.
    end: Option<u64>,
    error: Option<io::Error>,
    notes: Vec<String>,
    notes_in_output: bool,
    /// The window ends at its last byte, even inside a unit (the byte views of xxd).
    exact: bool,
}

impl Feeder<'_> {
    fn note(&mut self, text: &str) -> io::Result<()> {
        if self.notes_in_output {
            self.view.note(self.out, text)
        } else {
            self.notes.push(text.to_owned());
            Ok(())
        }
    }

    fn continued(&mut self, offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return ControlFlow::Continue(());
        }
        match self.view.continued(self.out, offset, bytes) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }

    fn unit(&mut self, unit: &Unit<'_>) -> ControlFlow<()> {
        if self.end.is_some_and(|end| unit.offset >= end) {
            return ControlFlow::Break(());
        }
        let mut unit = *unit;
        if let (true, Some(end)) = (self.exact, self.end) {
            let room = usize::try_from(end - unit.offset).unwrap_or(usize::MAX);
            unit.bytes = &unit.bytes[..unit.bytes.len().min(room)];
        }
        match self.view.unit(self.out, &unit) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }
}

impl Sink for Feeder<'_> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let offset = self.base + byte_offset;
        let mut run = bytes;
        let mut ends_window = false;
        // A character the window cuts, shown in part by the exact views.
        let mut cut_char = None;
        if let Some(end) = self.end {
            let room = end.saturating_sub(offset) as usize;
            if room < run.len() {
                // The units that start before the end of the window are shown whole (but for
                // the exact views, which stop at the last byte asked for).
                let whole = room
                    + run[room..]
                        .iter()
                        .take_while(|&&b| is_continuation(b))
                        .count();
                let cut = if self.exact && whole > room {
                    let lead = run[..room]
                        .iter()
                        .rposition(|&b| !is_continuation(b))
                        .unwrap_or(0);
                    cut_char = Some((lead, room, whole));
                    lead
                } else if self.exact {
                    room
                } else {
                    whole
                };
                run = &run[..cut];
                ends_window = true;
            }
        }
        if let Err(error) = self.view.text_run(self.out, offset, run) {
            self.error = Some(error);
            return ControlFlow::Break(());
        }
        if let Some((lead, room, whole)) = cut_char {
            let (_, kind, codepoint) = next_unit(&bytes[lead..whole]);
            let part = Unit {
                offset: offset + lead as u64,
                bytes: &bytes[lead..room],
                kind,
                codepoint,
            };
            if let Err(error) = self.view.unit(self.out, &part) {
                self.error = Some(error);
                return ControlFlow::Break(());
            }
        }
        if ends_window {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let kind = match finding.kind {
            FindingKind::IllFormed(kind) => kind,
            // No lint or mark detection is configured for a dump.
            FindingKind::Lint(_) | FindingKind::ForeignBom(_) | FindingKind::Name(_) => {
                UnitKind::InvalidByte
            }
        };
        self.unit(&Unit {
            offset: self.base + finding.position.byte_offset,
            bytes: finding.bytes,
            kind,
            codepoint: finding.codepoint,
        })
    }
}

/// The first unit of a non-empty well-formed run, whose lead byte is not ASCII: its length,
/// kind and code point, as the codec's scan gives them (the scanner has checked the run, so it
/// is one character; the views have no decoder of their own).
#[inline]
fn next_unit(bytes: &[u8]) -> (usize, UnitKind, Option<u32>) {
    let unit = scan_unit(bytes, true).expect("a final scan always decides");
    (unit.len, unit.kind, unit.codepoint)
}

/// Shows a well-formed run of text through a view's `ascii_run` and `unit`: its ASCII runs,
/// then each other character as a unit.
fn text_by_units<V: View + ?Sized>(
    view: &mut V,
    out: &mut dyn WriteColor,
    offset: u64,
    run: &[u8],
) -> io::Result<()> {
    let mut at = 0;
    while at < run.len() {
        let ascii = run[at..].iter().take_while(|b| b.is_ascii()).count();
        if ascii > 0 {
            view.ascii_run(out, offset + at as u64, &run[at..at + ascii])?;
            at += ascii;
            continue;
        }
        let (len, kind, codepoint) = next_unit(&run[at..]);
        view.unit(
            out,
            &Unit {
                offset: offset + at as u64,
                bytes: &run[at..at + len],
                kind,
                codepoint,
            },
        )?;
        at += len;
    }
    Ok(())
}

/// A way of showing units.
trait View {
    /// Shows one unit.
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()>;

    /// Shows a run of ASCII bytes starting at `offset`, one unit each. Views override it with
    /// a faster path; this one goes unit by unit.
    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        for (i, &byte) in run.iter().enumerate() {
            self.unit(
                out,
                &Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                },
            )?;
        }
        Ok(())
    }

    /// Shows a well-formed run of text starting at `offset`. Views override it with a faster
    /// path; this one goes through [`text_by_units`].
    fn text_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        text_by_units(self, out, offset, run)
    }

    /// The last bytes of a character that starts before an exact window (`-x`, `-p`, `-i`),
    /// which show every byte asked for. Views that resynchronise instead never get them; this
    /// shows them as the scanner would, one ill-formed byte each.
    fn continued(&mut self, out: &mut dyn WriteColor, offset: u64, bytes: &[u8]) -> io::Result<()> {
        for (i, byte) in bytes.iter().enumerate() {
            self.unit(
                out,
                &Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(byte),
                    kind: UnitKind::InvalidByte,
                    codepoint: None,
                },
            )?;
        }
        Ok(())
    }

    /// A remark about the input, on a `#` line.
    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        writeln!(out, "# {text}")
    }

    /// Writes the whole lines a view holds back, before something else is written to `out`.
    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        let _ = out;
        Ok(())
    }

    /// The input has ended.
    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        let _ = out;
        Ok(())
    }
}

/// The colours of the views: one table from what a byte or unit is to how it looks.
struct Palette {
    offset: ColorSpec,
    control: ColorSpec,
    multibyte: ColorSpec,
    ill_formed: ColorSpec,
    marker: ColorSpec,
}

impl Palette {
    fn new() -> Palette {
        let spec = |color: Color, bold: bool| {
            let mut spec = ColorSpec::new();
            spec.set_fg(Some(color)).set_bold(bold);
            spec
        };
        Palette {
            offset: spec(Color::Blue, false),
            control: spec(Color::Green, false),
            multibyte: spec(Color::Yellow, false),
            ill_formed: spec(Color::Red, true),
            marker: spec(Color::Cyan, false),
        }
    }

    /// The colour of a unit, or `None` for plain ASCII.
    fn of(&self, unit: &Unit<'_>) -> Option<&ColorSpec> {
        match (unit.kind, unit.codepoint) {
            (UnitKind::Char, Some(cp)) if cp < 0x20 || cp == 0x7F || cp == 0x20 => {
                Some(&self.control)
            }
            (UnitKind::Char, Some(cp)) if cp < 0x80 => None,
            (UnitKind::Char, _) => Some(&self.multibyte),
            _ => Some(&self.ill_formed),
        }
    }
}

/// Writes `text` in `spec` when colour is on.
fn paint(out: &mut dyn WriteColor, spec: Option<&ColorSpec>, text: &str) -> io::Result<()> {
    match spec {
        Some(spec) if out.supports_color() => {
            out.set_color(spec)?;
            out.write_all(text.as_bytes())?;
            out.reset()
        }
        _ => out.write_all(text.as_bytes()),
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `value` in lowercase (or uppercase) hex, at least `digits` digits, without the
/// formatting machinery: it was a visible part of the dump's profile.
fn push_hex_number(line: &mut String, value: u64, digits: usize, upper: bool) {
    let table: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { HEX };
    let needed = ((64 - value.leading_zeros() as usize).div_ceil(4)).max(digits);
    for i in (0..needed).rev() {
        line.push(char::from(table[(value >> (i * 4) & 15) as usize]));
    }
}

/// The default view: one unit a line.
struct UnitLines {
    bytes_as: BytesAs,
    /// Uppercase hex digits for bytes (`-u`).
    upper: bool,
    names: bool,
    palette: Palette,
    line: String,
    /// Lines without colour, waiting to be written (64 KiB at a time).
    lines: Vec<u8>,
}

/// The width of the bytes column: four bytes in the chosen notation (longer units overflow it).
fn bytes_column_width(bytes_as: BytesAs) -> usize {
    match bytes_as {
        BytesAs::Hex => 11,
        BytesAs::Octal => 15,
        BytesAs::Bits => 39,
    }
}

/// One byte in binary with its marker bits apart: `0_1100001`, `10_000010`, `1110_0010`.
fn push_bits(line: &mut String, byte: u8) {
    let marker = match byte {
        0x00..=0x7F => 1,
        0x80..=0xBF => 2,
        0xC0..=0xDF => 3,
        0xE0..=0xEF => 4,
        0xF0..=0xF7 => 5,
        0xF8..=0xFB => 6,
        0xFC..=0xFD => 7,
        _ => 8,
    };
    for bit in (0..8).rev() {
        // After the `marker` leading bits, before the payload (FE and FF have none).
        if marker < 8 && bit == 7 - marker {
            line.push('_');
        }
        line.push(if byte >> bit & 1 == 1 { '1' } else { '0' });
    }
}

impl UnitLines {
    fn bytes_text(&self, unit: &Unit<'_>) -> String {
        let mut text = String::new();
        for (i, &byte) in unit.bytes.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            match self.bytes_as {
                BytesAs::Hex => push_hex_number(&mut text, u64::from(byte), 2, self.upper),
                BytesAs::Octal => {
                    let _ = write!(text, "{byte:03o}");
                }
                BytesAs::Bits => push_bits(&mut text, byte),
            }
        }
        text
    }
}

impl UnitLines {
    /// The line without colour, built in one buffer and written once.
    fn plain(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        push_hex_number(line, unit.offset, 8, false);
        line.push_str("  ");
        let start = line.len();
        for (i, &byte) in unit.bytes.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            match self.bytes_as {
                BytesAs::Hex => push_hex_number(line, u64::from(byte), 2, self.upper),
                BytesAs::Octal => {
                    let _ = write!(line, "{byte:03o}");
                }
                BytesAs::Bits => push_bits(line, byte),
            }
        }
        let width = bytes_column_width(self.bytes_as);
        let used = line.len() - start;
        line.extend(std::iter::repeat_n(' ', width.saturating_sub(used) + 2));
        let start = line.len();
        match unit.codepoint {
            Some(cp) => {
                line.push_str("U+");
                push_hex_number(line, u64::from(cp), 4, true);
            }
            None => line.push('-'),
        }
        let used = line.len() - start;
        line.extend(std::iter::repeat_n(' ', 10usize.saturating_sub(used)));
        let shown_width = match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) if (' '..='~').contains(&c) => {
                line.push(c);
                1
            }
            (UnitKind::Char, Some(c)) => shown(c).push_to(line),
            (kind, _) => {
                line.push_str(kind.as_str());
                kind.as_str().len()
            }
        };
        if self.names {
            self.push_name(unit, shown_width);
        }
        self.line.push('\n');
        self.lines.extend_from_slice(self.line.as_bytes());
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    fn push_name(&mut self, unit: &Unit<'_>, shown_width: usize) {
        let line = &mut self.line;
        let pad = 12usize.saturating_sub(shown_width);
        line.extend(std::iter::repeat_n(' ', pad.max(1)));
        match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => line.push_str(&char_name(c)),
            (kind, _) => {
                let finding = Finding {
                    position: Position::START,
                    kind: FindingKind::IllFormed(kind),
                    bytes: unit.bytes,
                    codepoint: unit.codepoint,
                };
                let _ = write!(line, "{}", Detail(&finding));
            }
        }
    }
}

impl View for UnitLines {
    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        if out.supports_color() || self.names || self.upper || self.bytes_as != BytesAs::Hex {
            for (i, &byte) in run.iter().enumerate() {
                let unit = Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                };
                self.unit(out, &unit)?;
            }
            return Ok(());
        }
        // "OFFSET  hh           U+00HH    c", put together on the stack and appended once.
        for (i, &byte) in run.iter().enumerate() {
            let Ok(at) = u32::try_from(offset + i as u64) else {
                let unit = Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                };
                self.plain(out, &unit)?;
                continue;
            };
            let mut line = *b"00000000  hh           U+00HH    \0\0\0\0";
            put_offset(&mut line[..8], at);
            line[10..12].copy_from_slice(&HEX_CELLS[usize::from(byte)][..2]);
            line[27] = b"0123456789ABCDEF"[usize::from(byte >> 4)];
            line[28] = b"0123456789ABCDEF"[usize::from(byte & 15)];
            let len = if (0x20..0x7F).contains(&byte) {
                line[33] = byte;
                34
            } else {
                // A control: its picture (U+2400..U+2421), three bytes.
                let Shown::Picture(picture) = shown(char::from(byte)) else {
                    unreachable!("an ASCII control is shown as its picture")
                };
                picture.encode_utf8(&mut line[33..36]);
                36
            };
            line[len] = b'\n';
            self.lines.extend_from_slice(&line[..=len]);
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        Ok(())
    }

    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let colour = out.supports_color();
        if !colour {
            return self.plain(out, unit);
        }
        write_lines(out, &mut self.lines)?;
        let bytes = self.bytes_text(unit);
        let line = &mut self.line;
        line.clear();
        let _ = write!(line, "{:08x}", unit.offset);
        if colour {
            paint(out, Some(&self.palette.offset), line)?;
            line.clear();
        }
        line.push_str("  ");
        let width = bytes_column_width(self.bytes_as);
        if colour && self.bytes_as == BytesAs::Bits {
            out.write_all(line.as_bytes())?;
            line.clear();
            for (i, part) in bytes.split(' ').enumerate() {
                if i > 0 {
                    out.write_all(b" ")?;
                }
                let (marker, payload) = part.split_once('_').unwrap_or((part, ""));
                paint(out, Some(&self.palette.marker), marker)?;
                if !payload.is_empty() {
                    out.write_all(b"_")?;
                    out.write_all(payload.as_bytes())?;
                }
            }
            let pad = width.saturating_sub(bytes.len());
            line.extend(std::iter::repeat_n(' ', pad));
        } else {
            let _ = write!(line, "{bytes:<width$}");
        }
        line.push_str("  ");
        match unit.codepoint {
            Some(cp) => {
                let _ = write!(line, "{:<10}", format!("U+{cp:04X}"));
            }
            None => line.push_str("-         "),
        }
        out.write_all(line.as_bytes())?;
        line.clear();
        let spec = self.palette.of(unit);
        let shown_width = match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => {
                let shown_width = shown(c).push_to(line);
                paint(
                    out,
                    spec.filter(|_| unit.bytes.len() > 1 || c.is_ascii_control()),
                    line,
                )?;
                shown_width
            }
            (kind, _) => {
                paint(out, spec, kind.as_str())?;
                kind.as_str().len()
            }
        };
        line.clear();
        if self.names {
            self.push_name(unit, shown_width);
        }
        let line = &mut self.line;
        line.push('\n');
        out.write_all(line.as_bytes())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        write_lines(out, &mut self.lines)?;
        writeln!(out, "# {text}")
    }

    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }
}

/// `-x`: hexdump -C, with a text panel that shows each character at its lead byte.
///
/// Without colour, rows are built in a buffer of bytes and written 64 KiB at a time: the view
/// writes five bytes for each it reads, and its speed is the speed of this code.
struct HexRows {
    palette: Palette,
    /// Whether the output takes colour: asked once, at the first unit.
    colour: Option<bool>,
    /// How rows are laid out (`-c`, `-g`, `-u`).
    layout: RowLayout,
    /// The row under way: the offset of its first byte, and its `row_len` bytes.
    row_offset: u64,
    row: Vec<(u8, Class)>,
    row_len: usize,
    /// The text panel of the row, and (in colour) where each cell starts in it.
    panel: String,
    cells: Vec<(usize, Class)>,
    /// Rows without colour, waiting to be written.
    lines: Vec<u8>,
    /// Cells that the glyph drawn at a lead byte already covers: the next bytes of its
    /// character in this row draw none.
    covered: usize,
    /// The last characters shown, by code point modulo its length: multilingual text repeats
    /// few characters, and deciding how one is shown was a tenth of the view's time.
    seen: Box<[Glyph; SEEN_LEN]>,
}

/// How the rows of `-x` are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RowLayout {
    /// Bytes a row.
    cols: usize,
    /// Bytes a group, written together (`-g`); `None` for hexdump -C's single bytes with a gap
    /// every 8.
    group: Option<usize>,
    /// Uppercase hex digits.
    upper: bool,
}

impl RowLayout {
    /// hexdump -C's rows, which have the fast paths.
    const HEXDUMP: RowLayout = RowLayout {
        cols: 16,
        group: None,
        upper: false,
    };

    /// What goes before the byte at `i` of a row.
    fn separator(&self, i: usize) -> &'static str {
        match self.group {
            _ if i == 0 => "",
            None if i.is_multiple_of(8) => "  ",
            None => " ",
            Some(group) if group > 0 && i.is_multiple_of(group) => " ",
            Some(_) => "",
        }
    }
}

/// How a byte or cell is coloured in the hex view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Ascii,
    Control,
    Multibyte,
    IllFormed,
}

/// Each byte in two lowercase hex digits and a space, and one more space, so that a cell is
/// written with one four-byte store (the next cell overwrites the fourth byte).
static HEX_CELLS: [[u8; 4]; 256] = {
    let mut cells = [[b' '; 4]; 256];
    let mut byte = 0;
    while byte < 256 {
        cells[byte][0] = HEX[byte >> 4];
        cells[byte][1] = HEX[byte & 15];
        byte += 1;
    }
    cells
};

/// How a character looks in the text panel: its UTF-8 bytes (a combining mark after a dotted
/// circle) and its width; '.' for what is never shown raw.
#[derive(Clone, Copy)]
struct Glyph {
    c: char,
    bytes: [u8; 8],
    len: u8,
    width: u8,
}

impl Glyph {
    fn of(c: char) -> Glyph {
        let mut bytes = [0; 8];
        let (len, width) = match shown(c) {
            Shown::Plain(c, width) => (c.encode_utf8(&mut bytes).len(), width),
            Shown::Combining(c) => {
                let circle = '◌'.encode_utf8(&mut bytes).len();
                (circle + c.encode_utf8(&mut bytes[circle..]).len(), 1)
            }
            Shown::Picture(_) | Shown::Escaped(_) | Shown::Tag(_) => {
                bytes[0] = b'.';
                (1, 1)
            }
        };
        Glyph {
            c,
            bytes,
            len: len as u8,
            width: width as u8,
        }
    }
}

/// How many characters `HexRows` remembers how to show.
const SEEN_LEN: usize = 512;

/// Plain lines are written once this much is waiting.
const LINES_LEN: usize = 64 * 1024;

/// Writes the lines a view held back, and forgets them.
fn write_lines(out: &mut dyn WriteColor, lines: &mut Vec<u8>) -> io::Result<()> {
    if !lines.is_empty() {
        out.write_all(lines)?;
        lines.clear();
    }
    Ok(())
}

impl HexRows {
    fn new(palette: Palette, layout: RowLayout) -> HexRows {
        HexRows {
            palette,
            colour: None,
            layout,
            row_offset: 0,
            row: vec![(0, Class::Ascii); layout.cols],
            row_len: 0,
            panel: String::with_capacity(64),
            cells: Vec::with_capacity(16),
            lines: Vec::with_capacity(LINES_LEN + 256),
            covered: 0,
            seen: Box::new([Glyph::of('\0'); SEEN_LEN]),
        }
    }

    fn is_coloured(&mut self, out: &mut dyn WriteColor) -> bool {
        *self.colour.get_or_insert_with(|| out.supports_color())
    }

    fn class_spec(&self, class: Class) -> Option<&ColorSpec> {
        match class {
            Class::Ascii => None,
            Class::Control => Some(&self.palette.control),
            Class::Multibyte => Some(&self.palette.multibyte),
            Class::IllFormed => Some(&self.palette.ill_formed),
        }
    }

    fn flush_row(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.row_len == 0 {
            return Ok(());
        }
        let offset = self.row_offset;
        if self.colour == Some(true) || self.layout != RowLayout::HEXDUMP {
            return self.flush_laid_out(out, offset);
        }
        let bytes: [u8; 16] = std::array::from_fn(|i| self.row[i].0);
        let mut start = [0; 64];
        let from = row_start(&mut start, &mut self.lines, offset, &bytes[..self.row_len]);
        self.lines.extend_from_slice(&start[from..61]);
        self.lines.extend_from_slice(self.panel.as_bytes());
        self.lines.extend_from_slice(b"|\n");
        self.row_len = 0;
        self.panel.clear();
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    /// A row in colour, or in another layout than hexdump -C's: its offset, then each byte after
    /// the layout's separator (blanks past the end of a short row), then the text panel. Without
    /// colour the row joins the held-back lines; with colour each piece is painted.
    fn flush_laid_out(&mut self, out: &mut dyn WriteColor, offset: u64) -> io::Result<()> {
        let coloured = self.colour == Some(true);
        let mut line = String::with_capacity(16 + 3 * self.layout.cols + self.panel.len());
        // The coloured pieces of the line: where each is, and its class (`None`: the offset).
        let mut pieces: Vec<(std::ops::Range<usize>, Option<Class>)> = Vec::new();
        push_hex_number(&mut line, offset, 8, false);
        if coloured {
            pieces.push((0..line.len(), None));
        }
        line.push_str("  ");
        for i in 0..self.layout.cols {
            line.push_str(self.layout.separator(i));
            match self.row[..self.row_len].get(i) {
                Some(&(byte, class)) => {
                    let from = line.len();
                    push_hex_number(&mut line, u64::from(byte), 2, self.layout.upper);
                    if coloured {
                        pieces.push((from..line.len(), Some(class)));
                    }
                }
                None => line.push_str("  "),
            }
        }
        line.push_str("  |");
        let panel_start = line.len();
        line.push_str(&self.panel);
        for (i, &(start, class)) in self.cells.iter().enumerate() {
            let end = self.cells.get(i + 1).map_or(self.panel.len(), |c| c.0);
            pieces.push((panel_start + start..panel_start + end, Some(class)));
        }
        line.push_str("|\n");
        if coloured {
            write_lines(out, &mut self.lines)?;
            let mut at = 0;
            for (range, class) in pieces {
                let spec = class.map_or(Some(&self.palette.offset), |c| self.class_spec(c));
                out.write_all(&line.as_bytes()[at..range.start])?;
                paint(out, spec, &line[range.clone()])?;
                at = range.end;
            }
            out.write_all(&line.as_bytes()[at..])?;
        } else {
            self.lines.extend_from_slice(line.as_bytes());
        }
        self.row_len = 0;
        self.panel.clear();
        self.cells.clear();
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    /// Starts a cell of the text panel (only colour needs to know where).
    fn cell(&mut self, class: Class) {
        if self.colour == Some(true) {
            self.cells.push((self.panel.len(), class));
        }
    }

    /// Adds a byte to the row, starting one at `offset` if none is under way.
    #[inline]
    fn push_byte(&mut self, offset: u64, byte: u8, class: Class) {
        if self.row_len == 0 {
            self.row_offset = offset;
        }
        self.row[self.row_len] = (byte, class);
        self.row_len += 1;
    }

    fn ascii_byte(&mut self, out: &mut dyn WriteColor, offset: u64, byte: u8) -> io::Result<()> {
        let printable = (0x20..0x7F).contains(&byte);
        let class = if printable {
            Class::Ascii
        } else {
            Class::Control
        };
        self.push_byte(offset, byte, class);
        self.cell(class);
        self.panel
            .push(if printable { char::from(byte) } else { '.' });
        self.covered = 0;
        if self.row_len == self.layout.cols {
            self.flush_row(out)?;
        }
        Ok(())
    }

    /// How `c` looks in the panel, from the cache when it was seen lately.
    #[inline]
    fn glyph(&mut self, c: char) -> Glyph {
        let slot = &mut self.seen[u32::from(c) as usize % SEEN_LEN];
        if slot.c != c {
            *slot = Glyph::of(c);
        }
        *slot
    }

    /// Draws `c` in the panel if its width fits in the `cells` its bytes have in this row, else
    /// '.'; returns how many of the next cells the glyph covers.
    fn push_glyph(&mut self, c: char, cells: usize) -> usize {
        let glyph = self.glyph(c);
        if usize::from(glyph.width) <= cells {
            let bytes = &glyph.bytes[..usize::from(glyph.len)];
            self.panel
                .push_str(std::str::from_utf8(bytes).expect("encoded from a char"));
            usize::from(glyph.width) - 1
        } else {
            self.panel.push('.');
            0
        }
    }

    /// Whole rows of ASCII without colour: the common case of a text file.
    fn ascii_rows(&mut self, out: &mut dyn WriteColor, offset: u64, rows: &[u8]) -> io::Result<()> {
        for (r, row) in rows.chunks_exact(16).enumerate() {
            let mut line = [0u8; 61 + 16 + 2];
            let from = row_start(&mut line, &mut self.lines, offset + (r * 16) as u64, row);
            for (cell, &byte) in line[61..77].iter_mut().zip(row) {
                *cell = PANEL_ASCII[usize::from(byte)];
            }
            line[77..].copy_from_slice(b"|\n");
            self.lines.extend_from_slice(&line[from..]);
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        Ok(())
    }
}

/// Writes the fixed part of a row into `line[..61]`: its offset, its bytes in hex, and the
/// opening bar. An offset past 8 hex digits goes to `lines` instead, and the row's part then
/// starts at byte 10: returns where it starts.
fn row_start(line: &mut [u8], lines: &mut Vec<u8>, offset: u64, bytes: &[u8]) -> usize {
    let line = &mut line[..64];
    line.fill(b' ');
    let from = match u32::try_from(offset) {
        Ok(offset) => {
            put_offset(&mut line[..8], offset);
            0
        }
        Err(_) => {
            push_row_start(lines, offset);
            10
        }
    };
    for (i, &byte) in bytes.iter().take(16).enumerate() {
        let at = 10 + 3 * i + usize::from(i >= 8);
        line[at..at + 4].copy_from_slice(&HEX_CELLS[usize::from(byte)]);
    }
    line[60] = b'|';
    from
}

/// Writes an offset below 4 GiB as eight lowercase hex digits.
fn put_offset(digits: &mut [u8], offset: u32) {
    for (i, digit) in digits[..8].iter_mut().enumerate() {
        *digit = HEX[(offset >> (28 - 4 * i) & 15) as usize];
    }
}

/// The offset of a row (eight hex digits or more) and the two spaces after it.
fn push_row_start(lines: &mut Vec<u8>, offset: u64) {
    let digits = ((64 - offset.leading_zeros() as usize).div_ceil(4)).max(8);
    for i in (0..digits).rev() {
        lines.push(HEX[(offset >> (i * 4) & 15) as usize]);
    }
    lines.extend_from_slice(b"  ");
}

impl HexRows {
    /// A well-formed run without colour. The row under way is finished byte by byte; then
    /// each whole row of the run is written straight from its bytes; the rest byte by byte.
    fn plain_text(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        let mut at = 0;
        if self.row_len != 0 {
            at = self.plain_bytes(out, offset, run, 0, true)?;
        }
        while at + 16 <= run.len() {
            let row: &[u8; 16] = run[at..at + 16].try_into().expect("16 bytes");
            if u128::from_ne_bytes(*row) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0 {
                self.ascii_rows(out, offset + at as u64, row)?;
            } else if !self.direct_row(offset + at as u64, &run[at..]) {
                // Not text after all: byte by byte, which knows ill-formed units, to the end
                // of a row (a unit may run past this one).
                at = self.plain_bytes(out, offset, run, at, true)?;
                continue;
            }
            at += 16;
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        self.covered = 0;
        self.plain_bytes(out, offset, run, at, false)?;
        Ok(())
    }

    /// Writes the row of the 16 bytes at the start of `rest`, which continues to the end of a
    /// well-formed run (a character may end in the next row). Returns false, having written
    /// nothing, if the row holds an ill-formed unit.
    ///
    /// The row is put together in a buffer on the stack with fixed-size copies and appended
    /// once: appending piece by piece spent its time in `memcpy` calls.
    fn direct_row(&mut self, offset: u64, rest: &[u8]) -> bool {
        let mark = self.lines.len();
        let row = &rest[..16];
        // 61 bytes, at most 8 a byte of the row (7 for a glyph, then a store of 8), and "|\n".
        let mut line = [0u8; 61 + 16 * 8 + 8 + 2];
        let from = row_start(&mut line, &mut self.lines, offset, row);
        let mut o = 61;
        const DOT: [u8; 2] = [0xC2, 0xB7];
        // The continuation bytes of a character that started in the row before.
        let mut i = 0;
        while i < 16 && is_continuation(row[i]) {
            line[o..o + 2].copy_from_slice(&DOT);
            o += 2;
            i += 1;
        }
        while i < 16 {
            let byte = row[i];
            if byte < 0x80 {
                line[o] = PANEL_ASCII[usize::from(byte)];
                o += 1;
                i += 1;
                continue;
            }
            let (len, kind, codepoint) = next_unit(&rest[i..]);
            let Some(c) = codepoint
                .and_then(char::from_u32)
                .filter(|_| kind == UnitKind::Char)
            else {
                self.lines.truncate(mark);
                return false;
            };
            let cells_here = len.min(16 - i);
            let glyph = self.glyph(c);
            let mut covered = 0;
            if usize::from(glyph.width) <= cells_here {
                line[o..o + 8].copy_from_slice(&glyph.bytes);
                o += usize::from(glyph.len);
                covered = usize::from(glyph.width) - 1;
            } else {
                line[o] = b'.';
                o += 1;
            }
            for _ in 1..cells_here {
                if covered > 0 {
                    covered -= 1;
                } else {
                    line[o..o + 2].copy_from_slice(&DOT);
                    o += 2;
                }
            }
            i += len;
        }
        line[o..o + 2].copy_from_slice(b"|\n");
        self.lines.extend_from_slice(&line[from..o + 2]);
        true
    }

    /// Shows `run` from `at` byte by byte; with `to_row_end`, stops once a row is written.
    /// Returns where it stopped.
    fn plain_bytes(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
        run: &[u8],
        mut at: usize,
        to_row_end: bool,
    ) -> io::Result<usize> {
        while at < run.len() {
            let byte = run[at];
            if byte < 0x80 {
                self.push_byte(offset + at as u64, byte, Class::Ascii);
                self.panel.push(char::from(PANEL_ASCII[usize::from(byte)]));
                self.covered = 0;
            } else if is_continuation(byte) {
                self.push_byte(offset + at as u64, byte, Class::Multibyte);
                if self.covered > 0 {
                    self.covered -= 1;
                } else {
                    self.panel.push('·');
                }
            } else {
                let (len, kind, codepoint) = next_unit(&run[at..]);
                let c = codepoint
                    .and_then(char::from_u32)
                    .filter(|_| kind == UnitKind::Char);
                let Some(c) = c else {
                    let unit = Unit {
                        offset: offset + at as u64,
                        bytes: &run[at..at + len],
                        kind,
                        codepoint,
                    };
                    self.unit(out, &unit)?;
                    at += len;
                    if to_row_end && self.row_len == 0 {
                        break;
                    }
                    continue;
                };
                self.covered = self.push_glyph(c, len.min(self.layout.cols - self.row_len));
                self.push_byte(offset + at as u64, byte, Class::Multibyte);
            }
            at += 1;
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
                if to_row_end {
                    break;
                }
            }
        }
        Ok(at)
    }
}

/// The text panel's cell of an ASCII byte: itself if printable, else '.'.
static PANEL_ASCII: [u8; 128] = {
    let mut cells = [b'.'; 128];
    let mut byte = 0x20;
    while byte < 0x7F {
        cells[byte] = byte as u8;
        byte += 1;
    }
    cells
};

impl View for HexRows {
    fn text_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        if self.is_coloured(out) || self.layout != RowLayout::HEXDUMP {
            return text_by_units(self, out, offset, run);
        }
        self.plain_text(out, offset, run)
    }

    /// Only the coloured path and other layouts than hexdump -C's come here: otherwise
    /// `text_run` takes the whole run.
    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        for (i, &byte) in run.iter().enumerate() {
            self.ascii_byte(out, offset + i as u64, byte)?;
        }
        Ok(())
    }

    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.is_coloured(out);
        let class = match (unit.kind, unit.codepoint) {
            (UnitKind::Char, Some(cp)) if cp < 0x20 || cp == 0x7F => Class::Control,
            (UnitKind::Char, Some(cp)) if cp < 0x80 => Class::Ascii,
            (UnitKind::Char, _) => Class::Multibyte,
            _ => Class::IllFormed,
        };
        for (i, &byte) in unit.bytes.iter().enumerate() {
            self.push_byte(unit.offset + i as u64, byte, class);
            let row_room = self.layout.cols - (self.row_len - 1);
            if class == Class::IllFormed {
                self.cell(class);
                self.panel.push('\u{FFFD}');
            } else if i == 0 {
                // The character at its lead byte, if its width fits in the cells its bytes
                // have in this row; its other bytes draw '·'.
                self.cell(class);
                let c = unit.codepoint.and_then(char::from_u32).unwrap_or('.');
                if (' '..='~').contains(&c) {
                    self.panel.push(c);
                    self.covered = 0;
                } else {
                    self.covered = self.push_glyph(c, unit.bytes.len().min(row_room));
                }
            } else if self.covered > 0 {
                self.covered -= 1;
            } else {
                self.cell(class);
                self.panel.push('·');
            }
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
            }
        }
        Ok(())
    }

    fn continued(&mut self, out: &mut dyn WriteColor, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.is_coloured(out);
        for (i, &byte) in bytes.iter().enumerate() {
            self.push_byte(offset + i as u64, byte, Class::Multibyte);
            self.cell(Class::Multibyte);
            self.panel.push('·');
            self.covered = 0;
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
            }
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.flush_row(out)?;
        write_lines(out, &mut self.lines)?;
        writeln!(out, "# {text}")
    }

    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.flush_row(out)?;
        write_lines(out, &mut self.lines)
    }
}

/// `-e`: the text itself, with ill-formed bytes as `\xhh` and invisible characters escaped.
struct Escaped {
    palette: Palette,
    pending: String,
}

impl Escaped {
    fn flush(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        out.write_all(self.pending.as_bytes())?;
        self.pending.clear();
        Ok(())
    }
}

impl View for Escaped {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => {
                let hidden = (c.is_control() && c != '\n' && c != '\t') || is_invisible(c);
                if hidden {
                    self.flush(out)?;
                    let text = format!("\\u{{{:x}}}", u32::from(c));
                    paint(out, Some(&self.palette.control), &text)?;
                } else {
                    self.pending.push(c);
                    if self.pending.len() >= 8192 {
                        self.flush(out)?;
                    }
                }
            }
            _ => {
                self.flush(out)?;
                let mut text = String::new();
                for &byte in unit.bytes {
                    crate::render::push_byte_escape(&mut text, byte);
                }
                paint(out, Some(&self.palette.ill_formed), &text)?;
            }
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.flush(out)?;
        writeln!(out, "# {text}")
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.flush(out)
    }
}

/// `--format json`: one object per unit.
struct JsonUnits {
    line: String,
}

impl View for JsonUnits {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.line.clear();
        push_unit_json(
            &mut self.line,
            unit.offset,
            unit.bytes,
            unit.kind,
            unit.codepoint,
        );
        self.line.push('\n');
        out.write_all(self.line.as_bytes())
    }

    fn note(&mut self, _out: &mut dyn WriteColor, _text: &str) -> io::Result<()> {
        Ok(()) // JSON Lines hold units only; notes go to standard error
    }
}

/// `--errors-only`: ill-formed units and `context` units around each, groups apart by `--`.
struct ErrorsOnly {
    inner: Box<dyn View>,
    context: usize,
    before: VecDeque<OwnedUnit>,
    after: usize,
    /// The end offset of the last unit shown, to know when a `--` separates groups.
    shown_until: Option<u64>,
    /// Write `--` between groups, as grep does (not in JSON Lines).
    separates: bool,
}

impl ErrorsOnly {
    fn new(inner: Box<dyn View>, context: usize, separates: bool) -> ErrorsOnly {
        ErrorsOnly {
            inner,
            context,
            before: VecDeque::new(),
            after: 0,
            shown_until: None,
            separates,
        }
    }

    fn show(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        if self.separates && self.shown_until.is_some_and(|end| end < unit.offset) {
            self.inner.write_pending(out)?;
            writeln!(out, "--")?;
        }
        self.shown_until = Some(unit.offset + unit.bytes.len() as u64);
        self.inner.unit(out, unit)
    }
}

impl View for ErrorsOnly {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        if unit.kind.is_ill_formed() {
            while let Some(kept) = self.before.pop_front() {
                self.show(out, &kept.unit())?;
            }
            self.after = self.context;
            return self.show(out, unit);
        }
        if self.after > 0 {
            self.after -= 1;
            return self.show(out, unit);
        }
        if self.context > 0 {
            if self.before.len() == self.context {
                self.before.pop_front();
            }
            self.before.push_back(OwnedUnit::of(unit));
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.inner.note(out, text)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.inner.finish(out)
    }
}

/// The byte views of xxd: `-p` (hex, 30 bytes a line, as `xxd -p`) and `-i` (a C array, 12
/// bytes a line, as `xxd -i`; a file gets the declaration and its length, named after the path
/// as xxd names it: other characters than letters and digits as `_`, and `__` before a leading
/// digit). Units and runs alike are only bytes here.
struct ByteList {
    /// The C array's name, with `-i` on a file.
    name: Option<String>,
    is_c: bool,
    /// Bytes a line (`-c`); 0 is one line for `-p`.
    cols: u64,
    upper: bool,
    line: String,
    total: u64,
}

impl ByteList {
    fn plain(settings: &Settings) -> ByteList {
        ByteList {
            name: None,
            is_c: false,
            cols: settings.cols.unwrap_or(30) as u64,
            upper: settings.upper,
            line: String::new(),
            total: 0,
        }
    }

    fn c_array(source: &Source, settings: &Settings) -> ByteList {
        let name = source.path().map(|path| {
            let mut name: String = path
                .to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                name.insert_str(0, "__");
            }
            name
        });
        let line = match &name {
            Some(name) => format!("unsigned char {name}[] = {{\n"),
            None => String::new(),
        };
        ByteList {
            name,
            is_c: true,
            cols: settings.cols.unwrap_or(12) as u64,
            upper: settings.upper,
            line,
            total: 0,
        }
    }

    fn push(&mut self, out: &mut dyn WriteColor, bytes: &[u8]) -> io::Result<()> {
        for &byte in bytes {
            if self.is_c {
                let separator = match self.total {
                    0 => "  ",
                    n if n.is_multiple_of(self.cols) => ",\n  ",
                    _ => ", ",
                };
                self.line.push_str(separator);
                self.line.push_str(if self.upper { "0X" } else { "0x" });
                push_hex_number(&mut self.line, u64::from(byte), 2, self.upper);
            } else {
                push_hex_number(&mut self.line, u64::from(byte), 2, self.upper);
                if self.cols > 0 && (self.total + 1).is_multiple_of(self.cols) {
                    self.line.push('\n');
                }
            }
            self.total += 1;
            if self.line.len() >= 64 * 1024 {
                out.write_all(self.line.as_bytes())?;
                self.line.clear();
            }
        }
        Ok(())
    }
}

impl View for ByteList {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.push(out, unit.bytes)
    }

    fn ascii_run(&mut self, out: &mut dyn WriteColor, _: u64, run: &[u8]) -> io::Result<()> {
        self.push(out, run)
    }

    fn text_run(&mut self, out: &mut dyn WriteColor, _: u64, run: &[u8]) -> io::Result<()> {
        self.push(out, run)
    }

    fn continued(&mut self, out: &mut dyn WriteColor, _: u64, bytes: &[u8]) -> io::Result<()> {
        self.push(out, bytes)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        use std::fmt::Write as _;
        // The last line ends unless it was full (plain) or empty.
        let is_open = if self.is_c || self.cols == 0 {
            self.total > 0
        } else {
            !self.total.is_multiple_of(self.cols)
        };
        if is_open {
            self.line.push('\n');
        }
        if let Some(name) = &self.name {
            let _ = write!(
                self.line,
                "}};\nunsigned int {name}_len = {};\n",
                self.total
            );
        }
        out.write_all(self.line.as_bytes())?;
        self.line.clear();
        Ok(())
    }
}

/// `--stats`: counts.
#[derive(Debug, Default)]
struct Stats {
    bytes: u64,
    ascii_bytes: u64,
    chars_by_len: [u64; 5],
    ill_formed: Vec<(UnitKind, u64)>,
    lines: u64,
    line_units: u64,
    line_bytes: u64,
    longest: (u64, u64, u64),
    ends_with_newline: bool,
}

impl View for Stats {
    fn unit(&mut self, _out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let len = unit.bytes.len() as u64;
        self.bytes += len;
        self.ascii_bytes += unit.bytes.iter().filter(|b| b.is_ascii()).count() as u64;
        match unit.kind {
            UnitKind::Char => self.chars_by_len[unit.bytes.len()] += 1,
            kind => match self.ill_formed.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => self.ill_formed.push((kind, 1)),
            },
        }
        self.line_units += 1;
        self.line_bytes += len;
        self.ends_with_newline = unit.bytes == b"\n";
        if self.ends_with_newline {
            self.end_line();
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.line_bytes > 0 {
            self.end_line();
        }
        let chars: u64 = self.chars_by_len.iter().sum();
        let ill: u64 = self.ill_formed.iter().map(|(_, n)| n).sum();
        self.ill_formed.sort();
        let share = if self.bytes == 0 {
            0.0
        } else {
            100.0 * self.ascii_bytes as f64 / self.bytes as f64
        };
        let mut text = String::new();
        let _ = writeln!(text, "bytes             {:>12}", self.bytes);
        let _ = writeln!(text, "units             {:>12}", chars + ill);
        let _ = writeln!(text, "  characters      {chars:>12}");
        for (len, n) in self.chars_by_len.iter().enumerate().skip(1) {
            let _ = writeln!(text, "    {len}-byte        {n:>12}");
        }
        let _ = writeln!(text, "  ill-formed      {ill:>12}");
        for (kind, n) in &self.ill_formed {
            let _ = writeln!(text, "    {:<14}{n:>12}", kind.as_str());
        }
        let _ = writeln!(text, "lines             {:>12}", self.lines);
        let (line, units, bytes) = self.longest;
        let _ = writeln!(
            text,
            "longest line      {units:>12} units ({bytes} bytes), line {line}"
        );
        let _ = writeln!(text, "ASCII share       {share:>11.1}%");
        out.write_all(text.as_bytes())
    }
}

impl Stats {
    fn end_line(&mut self) {
        self.lines += 1;
        // The line's own units, without its line feed.
        let units = self.line_units - u64::from(self.ends_with_newline);
        let bytes = self.line_bytes - u64::from(self.ends_with_newline);
        if units > self.longest.1 || self.longest.0 == 0 {
            self.longest = (self.lines, units, bytes);
        }
        self.line_units = 0;
        self.line_bytes = 0;
    }
}

/// `-r`: reads dumps back and writes their bytes.
fn reverse_all(
    settings: &Settings,
    out: &mut dyn WriteColor,
    messages: &mut Messages,
) -> io::Result<()> {
    for source in &settings.sources {
        let name = source.display_name().into_owned();
        let input = match source.open() {
            Ok(file) => file,
            Err(error) => {
                messages.trouble(&name, io_reason(&error));
                continue;
            }
        };
        let mut lines = BufReader::with_capacity(64 * 1024, input);
        let mut line = Vec::new();
        let mut bytes = Vec::new();
        let mut number = 0u64;
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(error) => {
                    messages.trouble(&name, io_reason(&error));
                    break;
                }
            }
            number += 1;
            bytes.clear();
            match parse_dump_line(&line, &mut bytes) {
                Ok(()) => out.write_all(&bytes)?,
                Err(reason) => messages.trouble(&name, format_args!("line {number}: {reason}")),
            }
        }
    }
    Ok(())
}

/// The bytes a dump line shows, in any of the three formats; nothing for notes and separators.
///
/// # Errors
///
/// Why the line is not a dump line.
pub fn parse_dump_line(line: &[u8], bytes: &mut Vec<u8>) -> Result<(), String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\n', '\r']);
    let trimmed = text.trim_start();
    if trimmed.is_empty()
        || trimmed.starts_with('#')
        || trimmed.starts_with("==>")
        || trimmed == "--"
    {
        return Ok(());
    }
    if trimmed.starts_with('{') {
        let value: serde_json::Value =
            serde_json::from_str(trimmed).map_err(|e| format!("not a JSON unit: {e}"))?;
        let hex = value["bytes"]
            .as_str()
            .ok_or("a JSON unit without \"bytes\"")?;
        return push_hex_bytes(hex, bytes);
    }
    // -i (and xxd -i): the declaration, the closing brace and the length carry no bytes; a
    // line of the array is "0x61, 0x62,".
    if (trimmed.starts_with("unsigned ") && trimmed.ends_with(['{', ';'])) || trimmed == "};" {
        return Ok(());
    }
    if trimmed.starts_with("0x") || trimmed.starts_with("0X") {
        for item in trimmed
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let hex = item
                .strip_prefix("0x")
                .or_else(|| item.strip_prefix("0X"))
                .filter(|hex| hex.len() == 2)
                .ok_or_else(|| format!("'{item}' is not a byte of a C array"))?;
            push_hex_bytes(hex, bytes)?;
        }
        return Ok(());
    }
    // xxd -p: nothing but hex digits, two a byte.
    if trimmed.bytes().all(|b| b.is_ascii_hexdigit()) {
        return push_hex_bytes(trimmed, bytes);
    }
    // xxd's own layout: "00000000: 6162 63e2 82ac 0a   abc....", groups of any size, then the
    // text panel after a double space (the last line pads the groups with spaces first).
    if let Some((offset, rest)) = trimmed.split_once(": ") {
        if !offset.is_empty() && offset.bytes().all(|b| b.is_ascii_hexdigit()) {
            let groups = rest.split("  ").next().unwrap_or("");
            for group in groups.split_whitespace() {
                if !group.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(format!("'{group}' is not a group of bytes"));
                }
                push_hex_bytes(group, bytes)?;
            }
            return Ok(());
        }
    }
    let (offset, rest) = trimmed
        .split_once(' ')
        .ok_or("no offset and bytes columns")?;
    if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("'{offset}' is not an offset"));
    }
    // The bytes columns end where the hex view's text panel starts ('|') or the unit view's
    // code point column (U+XXXX or '-'); the panel and the rendered character are never read.
    // The hex view writes bytes in hex, one or a group (-g) a token; the unit view one byte a
    // token, in hex (two digits), octal (three) or bits (eight, the marker bits set apart).
    let is_hex_view = rest
        .split_whitespace()
        .find(|token| token.starts_with('|') || token.starts_with("U+") || *token == "-")
        .is_some_and(|token| token.starts_with('|'));
    for token in rest.split_whitespace() {
        if token.starts_with('|') || token.starts_with("U+") || token == "-" {
            break;
        }
        let is_hex = token.bytes().all(|b| b.is_ascii_hexdigit());
        let byte = match token.len() {
            _ if is_hex_view && is_hex => {
                push_hex_bytes(token, bytes)?;
                continue;
            }
            2 if is_hex => u8::from_str_radix(token, 16).ok(),
            3 if token.bytes().all(|b| (b'0'..=b'7').contains(&b)) => {
                u8::from_str_radix(token, 8).ok()
            }
            _ => {
                let bits: String = token.chars().filter(|&c| c != '_').collect();
                (bits.len() == 8 && bits.bytes().all(|b| b == b'0' || b == b'1'))
                    .then(|| u8::from_str_radix(&bits, 2).expect("eight bits"))
            }
        };
        bytes.push(byte.ok_or_else(|| format!("'{token}' is not a byte"))?);
    }
    if bytes.is_empty() {
        return Err("no bytes on the line".to_owned());
    }
    Ok(())
}

fn push_hex_bytes(hex: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("'{hex}' has an odd number of hex digits"));
    }
    for pair in hex.as_bytes().chunks(2) {
        let text = std::str::from_utf8(pair).map_err(|_| "not hex")?;
        bytes.push(u8::from_str_radix(text, 16).map_err(|_| format!("'{hex}' is not hex"))?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_set_markers_apart() {
        let rows: &[(u8, &str)] = &[
            (b'a', "0_1100001"),
            (0x82, "10_000010"),
            (0xC3, "110_00011"),
            (0xE2, "1110_0010"),
            (0xF0, "11110_000"),
            (0xF8, "111110_00"),
            (0xFC, "1111110_0"),
            (0xFE, "11111110"),
            (0xFF, "11111111"),
        ];
        for &(byte, expected) in rows {
            let mut text = String::new();
            push_bits(&mut text, byte);
            assert_eq!(text, expected, "{byte:02x}");
        }
    }

    #[test]
    fn windows_find_the_sequence_they_start_in() {
        assert_eq!(inside_sequence(b"ab\xE2"), Some((2, 1, 0xE2)));
        assert_eq!(inside_sequence(b"\xE2\x82"), Some((1, 2, 0xE2)));
        assert_eq!(
            inside_sequence(b"\xE2\x82\xAC"),
            None,
            "the sequence is complete"
        );
        assert_eq!(inside_sequence(b"abc"), None);
        assert_eq!(inside_sequence(b"\x80\x80"), None, "no lead byte");
    }

    #[test]
    fn dump_lines_parse_back() {
        let rows: &[(&str, &[u8])] = &[
            ("00000000  e2 82 ac     U+20AC      €\n", b"\xE2\x82\xAC"),
            // xxd's layouts: the default, -g 1, -c 4 with a panel that looks like hex, and -p.
            (
                "00000000: 6162 63e2 82ac 0a                        abc....\n",
                b"abc\xE2\x82\xAC\n",
            ),
            ("00000000: 63 61 66 65                                      cafe\n", b"cafe"),
            ("00000004: 6361 6665  cafe\n", b"cafe"),
            ("6162e282ac0a\n", b"ab\xE2\x82\xAC\n"),
            ("00000003  c0 af        U+002F      overlong\n", b"\xC0\xAF"),
            (
                "00000000  63 61 66 c3 a9 20 c0 af  0a                       |caf·é·�|\n",
                b"caf\xC3\xA9 \xC0\xAF\n",
            ),
            (
                "{\"offset\":0,\"length\":2,\"bytes\":\"c0af\",\"kind\":\"overlong\",\"codepoint\":47}",
                b"\xC0\xAF",
            ),
            ("# a note\n", b""),
            ("--\n", b""),
        ];
        for (line, expected) in rows {
            let mut bytes = Vec::new();
            parse_dump_line(line.as_bytes(), &mut bytes).unwrap();
            assert_eq!(&bytes, expected, "{line:?}");
        }
        let mut bytes = Vec::new();
        assert!(parse_dump_line(b"hello world\n", &mut bytes).is_err());
        assert!(parse_dump_line(b"00000000  zz |x|\n", &mut bytes).is_err());
        bytes.clear();
        parse_dump_line(b"00000005  7c           U+007C      |\n", &mut bytes).unwrap();
        assert_eq!(bytes, b"|", "a '|' character is not a text panel");
    }
}
