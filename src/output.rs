//! Standard output and standard error as the four programs use them (SPEC 2).
//!
//! Program output goes through [`stdout`]: line-buffered on a terminal, block-buffered otherwise,
//! coloured as `--color` decides. A closed pipe ends a program quietly ([`is_broken_pipe`]).
//! Trouble goes to standard error as one line, `PROGRAM: PATH: reason` ([`Messages`]).

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};

use clap::ValueEnum;
use termcolor::{BufferedStandardStream, StandardStream, WriteColor};

use crate::status::Status;

/// When to colour output: the `--color` option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// The termcolor choice for standard output. `auto` becomes `never` unless stdout is a
    /// terminal; termcolor then applies `NO_COLOR` and `TERM=dumb` itself.
    pub fn resolve(self, is_terminal: bool) -> termcolor::ColorChoice {
        match self {
            ColorWhen::Always => termcolor::ColorChoice::Always,
            ColorWhen::Never => termcolor::ColorChoice::Never,
            ColorWhen::Auto if is_terminal => termcolor::ColorChoice::Auto,
            ColorWhen::Auto => termcolor::ColorChoice::Never,
        }
    }
}

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
pub fn byte_stdout(capacity: usize) -> ByteOut<io::StdoutLock<'static>> {
    ByteOut::new(capacity, io::stdout().lock())
}

/// A buffered writer for bytes that copies only small pieces: a piece of a quarter of the
/// buffer or more, or one that would overflow it, goes out together with what the buffer holds
/// in one vectored write. utf8fix hands over clean text as long runs of its input, which a
/// `BufWriter` of the same size would copy whenever anything was buffered before them.
#[derive(Debug)]
pub struct ByteOut<W: Write> {
    buf: Vec<u8>,
    capacity: usize,
    inner: W,
}

impl<W: Write> ByteOut<W> {
    /// A writer to `inner` that holds up to `capacity` bytes.
    pub fn new(capacity: usize, inner: W) -> ByteOut<W> {
        ByteOut {
            buf: Vec::with_capacity(capacity),
            capacity,
            inner,
        }
    }

    /// Writes what the buffer holds and then `piece`, all of it, and empties the buffer.
    fn write_through(&mut self, piece: &[u8]) -> io::Result<()> {
        let mut slices = [io::IoSlice::new(&self.buf), io::IoSlice::new(piece)];
        let mut slices = &mut slices[..];
        // Empty slices go first, so that "wrote nothing" means the writer is stuck.
        io::IoSlice::advance_slices(&mut slices, 0);
        while !slices.is_empty() {
            match self.inner.write_vectored(slices) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => io::IoSlice::advance_slices(&mut slices, n),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        self.buf.clear();
        Ok(())
    }
}

impl<W: Write> Write for ByteOut<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.len() >= self.capacity / 4 || self.buf.len() + bytes.len() > self.capacity {
            return self.write_through(bytes);
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_through(&[])?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for ByteOut<W> {
    /// What is left is written, as `BufWriter` does; an error then has no one to go to (the
    /// programs flush before they end, and report it there).
    fn drop(&mut self) {
        let _ = self.write_through(&[]);
    }
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
    /// Trouble with an input changes the status but prints nothing (grep -s).
    is_trouble_silent: bool,
}

impl Messages {
    /// Messages of the program named `program`.
    pub fn new(program: &'static str) -> Messages {
        Messages {
            program,
            status: Status::Clean,
            is_trouble_silent: false,
        }
    }

    /// Messages that say nothing of trouble with an input (an unreadable file), as grep -s: the
    /// status still records it.
    #[must_use]
    pub fn without_trouble_lines(mut self) -> Messages {
        self.is_trouble_silent = true;
        self
    }

    /// Reports trouble with one input: `PROGRAM: PATH: reason`.
    pub fn trouble(&mut self, path: &str, reason: impl Display) {
        self.status = Status::Trouble;
        if self.is_trouble_silent {
            return;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes at most `most` bytes a call, and records each call's bytes.
    struct Trickle {
        most: usize,
        calls: Vec<Vec<u8>>,
    }

    impl Write for Trickle {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let n = bytes.len().min(self.most);
            self.calls.push(bytes[..n].to_vec());
            Ok(n)
        }

        fn write_vectored(&mut self, slices: &[io::IoSlice<'_>]) -> io::Result<usize> {
            let all: Vec<u8> = slices.iter().flat_map(|s| s.iter().copied()).collect();
            self.write(&all)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A `ByteOut` of `capacity` bytes over a writer that takes at most `most` a call.
    fn over_trickle(capacity: usize, most: usize) -> ByteOut<Trickle> {
        let calls = Vec::new();
        ByteOut::new(capacity, Trickle { most, calls })
    }

    #[test]
    fn small_pieces_are_gathered_and_large_ones_go_out_with_them_in_order() {
        let mut out = over_trickle(16, usize::MAX);
        out.write_all(b"ab").unwrap();
        out.write_all(b"cd").unwrap();
        assert!(out.inner.calls.is_empty(), "small pieces wait");
        // A quarter of the buffer or more goes out at once, after what waited.
        out.write_all(b"EFGH").unwrap();
        assert_eq!(out.inner.calls, [b"abcdEFGH".to_vec()]);
        // One that would overflow the buffer does too.
        for pair in [b"ij", b"kl", b"mn", b"op", b"qr", b"st", b"uv", b"wx"] {
            out.write_all(pair).unwrap();
        }
        assert_eq!(out.inner.calls.len(), 1, "16 bytes fit");
        out.write_all(b"y").unwrap();
        assert_eq!(out.inner.calls[1], b"ijklmnopqrstuvwxy");
        out.write_all(b"z").unwrap();
        out.flush().unwrap();
        assert_eq!(out.inner.calls[2], b"z");
        out.flush().unwrap();
        assert_eq!(out.inner.calls.len(), 3, "nothing to flush writes nothing");
    }

    #[test]
    fn short_writes_are_finished() {
        let mut out = over_trickle(8, 3);
        out.write_all(b"a").unwrap();
        out.write_all(b"bcdefghij").unwrap();
        let written: Vec<u8> = out.inner.calls.concat();
        assert_eq!(written, b"abcdefghij");
        assert!(out.inner.calls.iter().all(|call| call.len() <= 3));
    }

    #[test]
    fn a_writer_that_takes_nothing_is_an_error() {
        let mut out = over_trickle(8, 0);
        let error = out.write_all(b"abcdefghij").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::WriteZero);
    }
}
