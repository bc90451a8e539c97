//! Standard output and standard error as the four programs use them (SPEC 2).
//!
//! Program output goes through [`stdout`]: line-buffered on a terminal, block-buffered otherwise,
//! coloured as `--color` decides. A closed pipe ends a program quietly ([`is_broken_pipe`]).
//! Trouble goes to standard error as one line, `PROGRAM: PATH: reason` ([`Messages`]).

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};

use termcolor::{BufferedStandardStream, StandardStream, WriteColor};

use crate::cli::ColorWhen;
use crate::status::Status;

/// Standard output, buffered for a pipe or a file and by line for a terminal, coloured as `color`
/// resolves for it. Flush it at the end so that a late write error is seen.
pub fn stdout(color: ColorWhen) -> Box<dyn WriteColor> {
    let is_terminal = io::stdout().is_terminal();
    let choice = color.resolve(is_terminal);
    if is_terminal {
        Box::new(StandardStream::stdout(choice))
    } else {
        Box::new(BufferedStandardStream::stdout(choice))
    }
}

/// Standard output for bytes (utf8fix's repairs, utf8enc's conversions): no colour, buffered in
/// blocks of `capacity` whatever it is, as `cat` does, since the bytes are data, not lines for a
/// person. Flush it at the end so that a late write error is seen.
pub fn byte_stdout(capacity: usize) -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(capacity, io::stdout().lock())
}

/// True when `error` says the reader of our output went away (`EPIPE`).
pub fn is_broken_pipe(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// Writes trouble to standard error, one line each, and remembers that there was some.
#[derive(Debug)]
pub struct Messages {
    program: &'static str,
    status: Status,
}

impl Messages {
    /// Messages of the program named `program`.
    pub fn new(program: &'static str) -> Messages {
        Messages {
            program,
            status: Status::Clean,
        }
    }

    /// Reports trouble with one input: `PROGRAM: PATH: reason`.
    pub fn trouble(&mut self, path: &str, reason: impl Display) {
        self.status = Status::Trouble;
        self.line(format_args!("{}: {path}: {reason}", self.program));
    }

    /// Reports trouble that concerns no one input: `PROGRAM: reason`.
    pub fn error(&mut self, reason: impl Display) {
        self.status = Status::Trouble;
        self.line(format_args!("{}: {reason}", self.program));
    }

    /// A note on standard error that is not trouble (a hint, a summary): `PROGRAM: text`.
    pub fn note(&self, text: impl Display) {
        self.line(format_args!("{}: {text}", self.program));
    }

    /// Ends a program's output, the one place a write error becomes a message and a status:
    /// what `written` says of the last writes and flush is reported once as
    /// `PROGRAM: write error: reason` and makes the status trouble; a closed pipe ends the
    /// program quietly with the status `earned` so far (`utf8check bad | head -1` is 1).
    pub fn ended(&mut self, written: io::Result<()>, earned: Status) -> Status {
        match written {
            Err(error) if !is_broken_pipe(&error) => {
                self.error(format_args!(
                    "write error: {}",
                    crate::input::io_reason(&error)
                ));
                Status::Trouble
            }
            _ => earned.merge(self.status),
        }
    }

    /// [`Status::Trouble`] once any trouble was reported, else [`Status::Clean`].
    pub fn status(&self) -> Status {
        self.status
    }

    fn line(&self, text: std::fmt::Arguments<'_>) {
        // Names in messages are shown safely where they are made; input quoted in a reason is
        // made safe here, so that no message can reach the terminal with a control character.
        let text = text.to_string();
        let text = crate::render::defanged(&text);
        // A closed or failing stderr leaves nowhere to complain: ignore it, as ripgrep does.
        let _ = writeln!(io::stderr().lock(), "{text}");
    }
}
