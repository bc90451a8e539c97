//! Opening inputs and handing their bytes to a consumer in chunks (SPEC 2).
//!
//! A regular file of at least [`MMAP_MIN_LEN`] bytes (named, or redirected to standard input) is
//! memory-mapped and given as one final chunk; anything else (smaller files, pipes, FIFOs,
//! terminals, special files) is read into one reused buffer of [`CHUNK_LEN`] bytes. The consumer sees the same bytes either way and is told
//! which chunk is the last.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Seek};
use std::ops::ControlFlow;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

/// The size of a read, and so of the chunks a streamed input arrives in.
pub const CHUNK_LEN: usize = 256 * 1024;

/// Regular files at least this long are memory-mapped; shorter ones are read.
pub const MMAP_MIN_LEN: u64 = 1024 * 1024;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input (no FILE, or `-`).
    Stdin,
    /// A path.
    Path(PathBuf),
}

impl Source {
    /// The source an operand names: `-` is standard input.
    pub fn from_operand(operand: &OsStr) -> Source {
        if operand == "-" {
            Source::Stdin
        } else {
            Source::Path(PathBuf::from(operand))
        }
    }

    /// The sources named by the operands, or standard input alone when there are none.
    pub fn from_operands(operands: &[OsString]) -> Vec<Source> {
        if operands.is_empty() {
            vec![Source::Stdin]
        } else {
            operands.iter().map(|o| Source::from_operand(o)).collect()
        }
    }

    /// The name in human output and messages: the path, or `<stdin>`.
    pub fn display_name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("<stdin>"),
            Source::Path(path) => path.to_string_lossy(),
        }
    }

    /// The name in machine-readable output: the path, or `-`.
    pub fn machine_name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("-"),
            Source::Path(path) => path.to_string_lossy(),
        }
    }

    /// The path, if this is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Stdin => None,
            Source::Path(path) => Some(path),
        }
    }
}

/// Reads inputs through one reused buffer.
#[derive(Debug, Default)]
pub struct ChunkReader {
    buffer: Vec<u8>,
}

impl ChunkReader {
    /// A reader whose buffer is allocated on first use.
    pub fn new() -> ChunkReader {
        ChunkReader::default()
    }

    /// Opens `source` and gives its bytes to `consume` as `(chunk, is_last)`, until the input ends
    /// (one last call, possibly with an empty chunk) or `consume` breaks.
    ///
    /// # Errors
    ///
    /// The error of opening or reading the input; `Interrupted` reads are retried.
    pub fn read(
        &mut self,
        source: &Source,
        consume: &mut dyn FnMut(&[u8], bool) -> ControlFlow<()>,
    ) -> io::Result<()> {
        let mut file = match source {
            // A duplicate of descriptor 0: standard input redirected from a regular file can then
            // be mapped like any other file, and anything else is read through it.
            Source::Stdin => File::from(io::stdin().as_fd().try_clone_to_owned()?),
            Source::Path(path) => File::open(path)?,
        };
        let metadata = file.metadata()?;
        if metadata.is_file() {
            // Standard input may have been read from already: map only what is left.
            let start = file.stream_position()?;
            if metadata.len().saturating_sub(start) >= MMAP_MIN_LEN {
                if let Some(map) = map_file(&file, start) {
                    let _ = consume(&map, true);
                    return Ok(());
                }
            }
        }
        self.stream(&mut file, consume)
    }

    /// Reads `reader` to its end in chunks of at most [`CHUNK_LEN`] bytes.
    ///
    /// # Errors
    ///
    /// Any read error other than `Interrupted`.
    pub fn stream(
        &mut self,
        reader: &mut dyn Read,
        consume: &mut dyn FnMut(&[u8], bool) -> ControlFlow<()>,
    ) -> io::Result<()> {
        self.buffer.resize(CHUNK_LEN, 0);
        loop {
            match reader.read(&mut self.buffer) {
                Ok(0) => {
                    let _ = consume(&[], true);
                    return Ok(());
                }
                Ok(n) => {
                    if consume(&self.buffer[..n], false).is_break() {
                        return Ok(());
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }
}

/// Maps a regular file from byte `start` to its end, or returns `None` if it cannot be mapped
/// (the caller then reads it).
fn map_file(file: &File, start: u64) -> Option<memmap2::Mmap> {
    // SAFETY: the map is only read, and only while `file` is open. Another process may still
    // truncate the file meanwhile, which would fault on access to the lost pages; that risk is
    // the price of mapping, taken only for regular files (ripgrep takes the same one).
    let map = unsafe { memmap2::MmapOptions::new().offset(start).map(file) }.ok()?;
    let _ = map.advise(memmap2::Advice::Sequential);
    Some(map)
}

/// The reason an I/O error gives, without the `(os error N)` that std appends: the form grep and
/// the other Unix tools print (`No such file or directory`).
pub fn io_reason(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if error.raw_os_error().is_some() => text[..at].to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `data` through `stream` with a reader that returns a few bytes at a time and is
    /// interrupted now and then.
    #[test]
    fn stream_retries_interrupts_and_slices_to_what_was_read() {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1 += 1;
                if self.1 % 3 == 0 {
                    return Err(io::Error::from(io::ErrorKind::Interrupted));
                }
                let n = self.0.len().min(buf.len()).min(5);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let data: Vec<u8> = (0..=255).collect();
        let mut got = Vec::new();
        let mut lasts = 0;
        ChunkReader::new()
            .stream(&mut Trickle(&data, 0), &mut |chunk, is_last| {
                got.extend_from_slice(chunk);
                lasts += usize::from(is_last);
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(got, data);
        assert_eq!(lasts, 1);
    }

    #[test]
    fn stream_returns_read_errors() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("device on fire"))
            }
        }
        let error = ChunkReader::new()
            .stream(&mut Broken, &mut |_, _| ControlFlow::Continue(()))
            .unwrap_err();
        assert_eq!(error.to_string(), "device on fire");
    }

    #[test]
    fn reasons_drop_the_os_error_number() {
        let error = io::Error::from_raw_os_error(2);
        assert_eq!(io_reason(&error), "No such file or directory");
        assert_eq!(io_reason(&io::Error::other("plain")), "plain");
    }

    #[test]
    fn operands() {
        assert_eq!(Source::from_operands(&[]), [Source::Stdin]);
        let sources = Source::from_operands(&["-".into(), "a".into()]);
        assert_eq!(sources, [Source::Stdin, Source::Path("a".into())]);
        assert_eq!(sources[0].display_name(), "<stdin>");
        assert_eq!(sources[0].machine_name(), "-");
        assert_eq!(sources[1].display_name(), "a");
    }
}
