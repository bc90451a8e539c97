//! `utf8check`: validate inputs and report every ill-formed unit (SPEC 3).

use std::ffi::OsString;
use std::ops::ControlFlow;

use clap::Parser;
use termcolor::WriteColor;
use utf8kit_codec::{Config, Finding, Scanner, Sink};

use crate::cli::ColorWhen;
use crate::input::{io_reason, ChunkReader, Source};
use crate::output::{self, Messages};
use crate::report::{Format, InputName, Printer, Summary};
use crate::status::Status;

const ABOUT: &str = "Validate UTF-8 and report every ill-formed sequence";

const LONG_ABOUT: &str = "\
Validate UTF-8 and report every ill-formed sequence.

utf8check reads each FILE (standard input when there is none, or for '-') and reports every \
ill-formed unit it holds, with its byte offset, line, column, kind, bytes and code point. \
Well-formed UTF-8 is exactly RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. \
An empty file is valid.

Each mistake is reported once, as one unit whose length follows its lead byte:
  unexpected-continuation  a continuation byte (80..BF) with no lead byte
  invalid-byte             FE or FF, never used in any form of UTF-8
  truncated                a lead byte followed by too few continuation bytes
  overlong                 a value encoded in more bytes than it needs (C0 AF for '/')
  surrogate                an encoded UTF-16 surrogate, U+D800..U+DFFF (ED A0 80)
  surrogate-pair           a CESU-8 pair of surrogates, one 6-byte unit
  out-of-range             a value above U+10FFFF (F4 90 80 80)

The line is 1 + the number of LF bytes before the unit; the column is 1 + the number of units \
since the last LF, so a column counts characters, and an ill-formed unit counts as one.";

const AFTER_LONG_HELP: &str = "\
Exit status:
  0  every input is valid
  1  at least one finding
  2  trouble: bad usage, or an input that could not be read (the other inputs are still checked)

Output:
  Findings go to standard output, trouble to standard error as 'utf8check: PATH: reason'. \
Standard input is named <stdin> in human output and - in JSON. A closed standard output \
(utf8check big | head) ends the program quietly.

Colour:
  --color auto (the default) colours only a terminal, and never when NO_COLOR is set or TERM \
is dumb. --color always colours a pipe too.

JSON:
  {\"type\":\"error\",\"path\":P,\"offset\":N,\"length\":N,\"line\":N,\"column\":N,\"kind\":K,\
\"bytes\":\"c0af\",\"codepoint\":N|null,\"message\":S}
  {\"type\":\"summary\",\"path\":P,\"bytes\":N,\"errors\":N,\"valid\":B,\"complete\":B}

Examples:
  utf8check notes.txt
  printf 'a\\xc0\\xafb\\n' | utf8check --format json
  utf8check -q data.csv && echo valid";

/// The command line of `utf8check`.
#[derive(Debug, Parser)]
#[command(
    name = "utf8check",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_LONG_HELP,
    max_term_width = 100
)]
pub struct Args {
    /// Files to check; '-' or none reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Output format: one line per finding, or JSON Lines.
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    pub format: Format,

    /// Print nothing; exit with the status only, at the first finding.
    #[arg(short, long)]
    pub quiet: bool,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

/// What the command line asks for, resolved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The inputs, in order.
    pub sources: Vec<Source>,
    /// How findings are written.
    pub format: Format,
    /// Print nothing and stop at the first finding.
    pub quiet: bool,
    /// What counts as a finding.
    pub codec: Config,
    /// When to colour.
    pub color: ColorWhen,
}

impl Settings {
    /// Resolves the command line.
    pub fn from_args(args: &Args) -> Settings {
        Settings {
            sources: Source::from_operands(&args.files),
            format: args.format,
            quiet: args.quiet,
            codec: Config::default(),
            color: args.color,
        }
    }
}

/// Runs `utf8check` with standard output as the output.
///
/// # Errors
///
/// Only a failure to write standard output (other than a closed pipe) is an error; trouble with
/// one input is reported on standard error and makes the status 2.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let settings = Settings::from_args(args);
    let mut out = output::stdout(settings.color);
    let mut messages = Messages::new("utf8check");
    check_all(&settings, &mut *out, &mut messages)
}

/// Checks every input in order, writing to `out` and reporting trouble to `messages`.
///
/// # Errors
///
/// A failure to write to `out`; a closed pipe ends the run quietly with the status so far.
pub fn check_all(
    settings: &Settings,
    out: &mut dyn WriteColor,
    messages: &mut Messages,
) -> anyhow::Result<Status> {
    let printer = Printer::new(settings.format);
    let mut reader = ChunkReader::new();
    let mut status = Status::Clean;
    for source in &settings.sources {
        match check_one(settings, &printer, &mut reader, source, out) {
            Ok(Checked::Done(summary)) => {
                if summary.errors > 0 {
                    status = status.merge(Status::Problems);
                    if settings.quiet {
                        break;
                    }
                }
            }
            Ok(Checked::Unreadable(error)) => {
                messages.trouble(&source.display_name(), io_reason(&error));
            }
            Err(error) if output::is_broken_pipe(&error) => {
                return Ok(status.merge(messages.status()));
            }
            Err(error) => return Err(anyhow::Error::new(error).context("write error")),
        }
    }
    match out.flush() {
        Err(error) if !output::is_broken_pipe(&error) => {
            return Err(anyhow::Error::new(error).context("write error"))
        }
        _ => {}
    }
    Ok(status.merge(messages.status()))
}

/// The outcome of checking one input whose output could be written.
enum Checked {
    /// The input was read (to its end, or as far as the options asked).
    Done(Summary),
    /// The input could not be opened or read.
    Unreadable(std::io::Error),
}

/// Checks one input. The `Err` case is a failure to write the output, which ends the run.
fn check_one(
    settings: &Settings,
    printer: &Printer,
    reader: &mut ChunkReader,
    source: &Source,
    out: &mut dyn WriteColor,
) -> std::io::Result<Checked> {
    let name = InputName::new(&source.display_name(), &source.machine_name());
    let mut scanner = Scanner::new(settings.codec);
    let mut sink = FindingSink {
        printer,
        name: &name,
        out,
        quiet: settings.quiet,
        errors: 0,
        write_error: None,
    };
    let read = reader.read(source, &mut |chunk, is_last| {
        scanner.feed(chunk, is_last, &mut sink)
    });
    if let Some(error) = sink.write_error {
        return Err(error);
    }
    if let Err(error) = read {
        return Ok(Checked::Unreadable(error));
    }
    let summary = Summary {
        bytes: scanner.bytes_scanned(),
        errors: sink.errors,
        complete: !scanner.is_stopped(),
    };
    if !settings.quiet {
        printer.summary(out, &name, &summary, false)?;
    }
    Ok(Checked::Done(summary))
}

/// Writes each finding as it comes.
struct FindingSink<'a> {
    printer: &'a Printer,
    name: &'a InputName,
    out: &'a mut dyn WriteColor,
    quiet: bool,
    errors: u64,
    write_error: Option<std::io::Error>,
}

impl Sink for FindingSink<'_> {
    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.errors += 1;
        if self.quiet {
            return ControlFlow::Break(());
        }
        match self.printer.finding(self.out, self.name, finding) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.write_error = Some(error);
                ControlFlow::Break(())
            }
        }
    }
}
