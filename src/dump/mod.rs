//! `utf8dump`: show a byte stream unit by unit (SPEC 4), and read a dump back (`-r`).
//!
//! The codec's scanner splits the input into units; each unit goes to one view: the unit lines
//! (the default, with `--names`, `--bits` or `--octal`), the hex panel (`-x`), the escaped text
//! (`-e`), JSON (`--format json`) or the statistics (`--stats`). `--errors-only` filters the unit
//! lines to the ill-formed units and their context.
//!
//! This file holds the options and the run; `feed.rs` feeds the units to the views and
//! `view.rs` is what every view shares (the `View` trait, colours); each view has its own file: `units.rs`, `hex.rs`, `escaped.rs`, `json.rs`,
//! `byte_list.rs`, `stats.rs`, `errors_only.rs`; `window.rs` is `--skip`/`--length`/`-C`, and
//! `reverse.rs` is `-r`.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufRead, BufReader, Write};
use std::ops::ControlFlow;

use clap::{Parser, ValueEnum};
use termcolor::{Color, ColorSpec, WriteColor};
use utf8kit_codec::{
    Config, Finding, FindingKind, Lint, LintSet, Position, Scanner, Sink, UnitKind, scan_unit,
    unit::{declared_len, is_continuation},
};

use crate::cli::{ColorWhen, parse_size};
use crate::input::{ChunkReader, Source, io_reason, pieces};
use crate::output::{self, Messages};
use crate::render::{Shown, char_name, is_invisible, shown};
use crate::report::{Detail, push_unit_json};
use crate::status::Status;

mod byte_list;
mod errors_only;
mod escaped;
mod feed;
mod hex;
mod json;
mod reverse;
mod stats;
#[cfg(test)]
mod tests;
mod units;
mod view;
mod window;

use byte_list::*;
use errors_only::*;
use escaped::*;
use feed::*;
use hex::*;
use json::*;
use reverse::*;
use stats::*;
use units::*;
use view::*;
use window::*;

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
utf8check), and the code point it decodes to where it has one. A letter of a word that mixes \
scripts (what utf8check --deny mixed-script reports: 'pаypal' with a Cyrillic 'а') is marked \
with its script beside it when it is not in the script of most of the word's letters \
('mixed-script: Cyrillic'); -r reads such lines back as any other.

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
that is not a dump line is trouble. Memory stays bounded: a line is held at most 1 MiB at a \
time, so a line longer than that reads back only as a plain hex dump (xxd -p -c 0 of a whole \
file), written as it is read.";

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

    /// Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd
    /// spells its bits dump.
    #[arg(short = 'b', long, conflicts_with = "octal")]
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

    /// Read a dump back and write the bytes it shows (any view of its own that shows every
    /// byte, xxd's default, -p and -i; -r -p and -r -i are accepted as xxd spells them).
    #[arg(short, long, conflicts_with_all = ["hex", "escape", "stats", "names", "bits", "octal",
        "errors_only", "cols", "group"])]
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
    if let Some(cols) = settings.cols.filter(|&cols| cols > MAX_COLS)
        && matches!(settings.view, ViewKind::Hex | ViewKind::Include)
    {
        messages.error(format_args!(
            "-c {cols}: a row of -x or -i holds at most {MAX_COLS} bytes, as in xxd \
                 (see utf8dump --help)"
        ));
        return Status::Trouble;
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
            marks: VecDeque::new(),
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
                    ));
                }
                Err(error) => return Ok(Err(io_reason(&error))),
            }
        }
    };
    let mut window = Window::new(skip, settings.length, exact);
    // The unit view marks the odd letters of mixed-script words.
    let config = match settings.view {
        ViewKind::Units => Config {
            lints: LintSet::NONE.with(Lint::MixedScript),
            words: Some(crate::mixed_script::RULE),
            ..Config::default()
        },
        _ => Config::default(),
    };
    let mut scanner = Scanner::new(config);
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
