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

/// True when `error` says the reader of our output went away (`EPIPE`).
pub fn is_broken_pipe(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// True when any error in the chain of `error` is a broken pipe (context wraps it).
pub fn chain_has_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<io::Error>())
        .any(is_broken_pipe)
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

/// Ends a program: turns the result of its `run` into an exit code, printing a fatal error once as
/// `PROGRAM: reason` (a closed stdout ends quietly with the status earned so far, which the
/// programs return as `Ok`).
pub fn finish(program: &'static str, result: anyhow::Result<Status>) -> std::process::ExitCode {
    match result {
        Ok(status) => status.into(),
        Err(error) if chain_has_broken_pipe(&error) => Status::Clean.into(),
        Err(error) => {
            Messages::new(program).error(format_args!("{error:#}"));
            Status::Trouble.into()
        }
    }
}
