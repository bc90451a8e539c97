//! Opening inputs and handing their bytes to a consumer in chunks (SPEC 2).
//!
//! Every input (regular files, pipes, FIFOs, terminals, special files) is read into one reused
//! buffer of [`CHUNK_LEN`] bytes, and the consumer is told which chunk is the last. Nothing is
//! memory-mapped: a file that another process truncates or rewrites while it is read is then
//! read as it is, each byte the consumer sees is a byte `read` returned, and a read error is
//! reported as what it is. (Maps measured faster on one thread, but a truncated map faults with
//! SIGBUS; `utf8check` instead reads a big valid file on every core, see `check/whole.rs`.)

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

/// The size of a read, and so of the chunks a streamed input arrives in.
pub const CHUNK_LEN: usize = 64 * 1024;

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

    /// The name in human output and messages: the path shown safely ([`crate::render::path`]),
    /// or `<stdin>`.
    pub fn display_name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("<stdin>"),
            Source::Path(path) => crate::render::path(path),
        }
    }

    /// The name in machine-readable output: the path, or `-`.
    pub fn machine_name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("-"),
            Source::Path(path) => path.to_string_lossy(),
        }
    }

    /// Opens the input for reading: standard input as [`stdin`] gives it.
    ///
    /// # Errors
    ///
    /// The error of opening the file, or a closed standard input.
    pub fn open(&self) -> io::Result<File> {
        match self {
            Source::Stdin => stdin(),
            Source::Path(path) => File::open(path),
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

/// Cuts a chunk into pieces of at most `max_len` bytes, the last piece of the last chunk marked
/// last: a program that does per-unit work or writes output
/// takes it in pieces, so that its memory stays bounded and a closed output stops it early.
/// An empty chunk is one empty piece, so that the end of the input is never missed.
pub fn pieces(chunk: &[u8], is_last: bool, max_len: usize) -> impl Iterator<Item = (&[u8], bool)> {
    let count = chunk.len().div_ceil(max_len).max(1);
    let empty = chunk.is_empty().then_some((chunk, is_last));
    chunk
        .chunks(max_len)
        .enumerate()
        .map(move |(i, piece)| (piece, is_last && i + 1 == count))
        .chain(empty)
}

/// Reads inputs through one reused buffer.
#[derive(Debug, Default)]
pub struct ChunkReader {
    buffer: Vec<u8>,
    /// The directory of the last file [`ChunkReader::open`] opened, and the directory itself,
    /// open: the next file in it is opened relative to it.
    directory: Option<(PathBuf, File)>,
}

impl ChunkReader {
    /// A reader whose buffer is allocated on first use.
    pub fn new() -> ChunkReader {
        ChunkReader::default()
    }

    /// Opens `source` ([`ChunkReader::open`]) and gives its bytes to `consume` as
    /// `(chunk, is_last)`, until the input ends (one last call, possibly with an empty chunk) or
    /// `consume` breaks.
    ///
    /// # Errors
    ///
    /// The error of opening or reading the input; `Interrupted` reads are retried.
    pub fn read(
        &mut self,
        source: &Source,
        consume: &mut dyn FnMut(&[u8], bool) -> ControlFlow<()>,
    ) -> io::Result<()> {
        let mut file = self.open(source)?;
        self.read_file(&mut file, consume)
    }

    /// Opens `source` as [`Source::open`] does, but a file in the same directory as the one
    /// opened before is opened relative to that directory (`openat`), so that the kernel looks
    /// up one name, not every directory of the path again. A walk gives the files of a
    /// directory one after another: on the Python standard library (30,000 files in 8,300
    /// directories) this took 3% off `utf8check -r`, the lookups having been a tenth of the
    /// kernel's time. Whenever the relative open fails, the path is opened as it is, so every
    /// error, and a directory replaced since, is what a plain open gives.
    ///
    /// # Errors
    ///
    /// The error of opening the file, or a closed standard input.
    pub fn open(&mut self, source: &Source) -> io::Result<File> {
        let Source::Path(path) = source else {
            return source.open();
        };
        let (Some(directory), Some(name)) = (path.parent(), path.file_name()) else {
            return source.open();
        };
        if directory.as_os_str().is_empty() {
            return source.open();
        }
        if self
            .directory
            .as_ref()
            .is_none_or(|(held, _)| held != directory)
        {
            self.directory = File::open(directory)
                .ok()
                .map(|open| (directory.to_path_buf(), open));
        }
        match &self.directory {
            Some((_, open)) => open_in(open, name).or_else(|_| source.open()),
            None => source.open(),
        }
    }

    /// Gives the bytes of an open file, from its current position, to `consume` as
    /// [`ChunkReader::read`] does.
    ///
    /// # Errors
    ///
    /// The error of reading the file; `Interrupted` reads are retried.
    pub fn read_file(
        &mut self,
        file: &mut File,
        consume: &mut dyn FnMut(&[u8], bool) -> ControlFlow<()>,
    ) -> io::Result<()> {
        self.stream(file, consume)
    }

    /// Like [`ChunkReader::read_file`], but when the first read fills the whole buffer (the
    /// input may be big), `whole` is first asked whether it takes the input itself, given the
    /// file and the bytes that read took (so that it can look at them: a binary file is not worth
    /// reading whole): if it does (`true`), nothing is consumed. Small inputs, most of a walk,
    /// cost no look at the file's size.
    ///
    /// # Errors
    ///
    /// The error of reading the file; `Interrupted` reads are retried.
    pub fn read_file_unless(
        &mut self,
        file: &mut File,
        whole: &mut dyn FnMut(&mut File, &[u8]) -> bool,
        consume: &mut dyn FnMut(&[u8], bool) -> ControlFlow<()>,
    ) -> io::Result<bool> {
        self.buffer.resize(CHUNK_LEN, 0);
        let first = loop {
            match file.read(&mut self.buffer) {
                Ok(n) => break n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        };
        if first == CHUNK_LEN && whole(file, &self.buffer[..first]) {
            return Ok(true);
        }
        if first == 0 {
            let _ = consume(&[], true);
            return Ok(false);
        }
        if consume(&self.buffer[..first], false).is_continue() {
            self.stream(file, consume)?;
        }
        Ok(false)
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

/// Reads the bytes of `file` from offset `at` into `buffer` with `pread`, at most `to - at` of
/// them, retrying a read that a signal interrupted: how many it read, or `None` at a read
/// error or where the file ends before `to` (it shrank while it was read).
pub fn read_piece_at(file: &File, buffer: &mut [u8], at: u64, to: u64) -> Option<usize> {
    use std::os::unix::fs::FileExt;
    let want = buffer
        .len()
        .min(usize::try_from(to - at).unwrap_or(usize::MAX));
    loop {
        match file.read_at(&mut buffer[..want], at) {
            Ok(0) => return None,
            Ok(n) => return Some(n),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// How many bytes at the start of a walked or listed file are looked at to tell binary from text.
pub const BINARY_PROBE_LEN: usize = 8 * 1024;

/// The known binary signatures (SPEC 3): where a format's magic bytes stand, and what they are.
///
/// They are there for the binary files whose first 8 KiB pass the NUL-and-not-UTF-8 test: a tar
/// archive of text files (ASCII headers, NUL padding), an SQLite database of ASCII rows, a small
/// font or icon. Each one holds a NUL, a control character that no source language accepts
/// outside a comment, or a byte that is not UTF-8, so that no text file starts with one by
/// accident; magic words that are plain text (`%PDF-`, `GIF89a`, `MZ`, `!<arch>`, `RIFF`) are
/// left to the NUL test, which such files fail anyway.
const BINARY_SIGNATURES: &[(usize, &[u8])] = &[
    (0, b"\x89PNG\r\n\x1a\n"),
    (0, b"\xff\xd8\xff"),       // JPEG
    (0, b"\x1f\x8b"),           // gzip
    (0, b"\x1f\x9d"),           // compress
    (0, b"\xfd7zXZ\0"),         // xz
    (0, b"\x28\xb5\x2f\xfd"),   // zstd
    (0, b"7z\xbc\xaf\x27\x1c"), // 7-Zip
    (0, b"PK\x03\x04"),         // zip, jar, docx, epub
    (0, b"PK\x05\x06"),         // empty zip
    (0, b"\x7fELF"),            // ELF executables and objects
    (0, b"\xca\xfe\xba\xbe"),   // Java class, Mach-O universal
    (0, b"\xcf\xfa\xed\xfe"),   // Mach-O 64-bit
    (0, b"\xce\xfa\xed\xfe"),   // Mach-O 32-bit
    (0, b"\0asm"),              // WebAssembly
    (0, b"SQLite format 3\0"),
    (0, b"\0\x01\0\0"), // TrueType font
    (0, b"\0\0\x01\0"), // Windows icon
    (0, b"OggS\0"),
    (0, b".snd\0\0"),     // Sun audio, its header offset below 64 KiB
    (2, b"\r\n\0\0\0\0"), // compiled Python, after its 2-byte version
    (4, b"ftyp"),         // MP4, MOV, HEIC, after a 32-bit box size
    (257, b"ustar\0"),    // POSIX tar
    (257, b"ustar  \0"),  // GNU tar
];

/// Whether `head` starts with one of the [`BINARY_SIGNATURES`].
fn has_binary_signature(head: &[u8]) -> bool {
    BINARY_SIGNATURES.iter().any(|(at, magic)| {
        let found = head.get(*at..*at + magic.len()) == Some(*magic);
        // An MP4 box size below 16 MiB starts with a NUL: the magic word alone is plain text.
        found && (*at != 4 || head.starts_with(b"\0"))
    })
}

/// Without a known signature, a walked file is binary only when at least one byte in this many
/// of its head is a NUL or another control byte (tab, line feed, carriage return and form feed
/// aside). Measured on /usr/share, /usr/lib, a Python installation and the cargo registry: of
/// 20,986 files there whose head holds a NUL and ill-formed bytes, every one is binary by this
/// rule or by a signature (Sun audio and compiled Python files among them, which can hold
/// fewer control bytes). Text in a legacy encoding with a stray NUL stays text (its high bytes
/// are not control bytes), and a text file dressed up as binary needs 64 control bytes in its
/// first 8 KiB.
pub const MIN_CONTROL_ONE_IN: usize = 128;

/// Whether the first bytes of a walked file make it binary (SPEC 3): bytes that are not UTF-8
/// *and* either a known binary signature, or NUL bytes with at least one byte in
/// [`MIN_CONTROL_ONE_IN`] a control byte. A file whose head is valid UTF-8 is never binary,
/// whatever signature it starts with (a script that begins `PK\x03\x04`, a JavaScript file
/// with `ustar` at offset 257 runs all the same); nor is one with a UTF-16 or UTF-32 byte order
/// mark.
pub fn looks_binary(head: &[u8]) -> bool {
    let head = &head[..head.len().min(BINARY_PROBE_LEN)];
    if utf8kit_codec::bom::ForeignBom::detect(head).is_some() {
        return false;
    }
    let is_ill_formed = match utf8kit_codec::validate(head) {
        Ok(()) => false,
        // A character cut by the end of the probe is not evidence.
        Err(error) => error.error_len().is_some(),
    };
    if !is_ill_formed {
        return false;
    }
    if has_binary_signature(head) {
        return true;
    }
    if !head.contains(&0) {
        return false;
    }
    let is_control = |b: &&u8| **b < 0x20 && !matches!(**b, b'\t' | b'\n' | b'\r' | 0x0C);
    head.iter().filter(is_control).count() * MIN_CONTROL_ONE_IN >= head.len()
}

/// A duplicate of descriptor 0, or an error when the program was started with standard input
/// closed (`<&-`).
///
/// The Rust runtime puts `/dev/null`, opened read-write, on a standard descriptor that was closed
/// at start, so such an input would read as empty and pass as valid. A shell redirection from
/// `/dev/null` opens it read-only: only the runtime's placeholder is refused.
///
/// # Errors
///
/// "standard input is closed", or the error of duplicating the descriptor.
pub fn stdin() -> io::Result<File> {
    let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    if is_runtime_placeholder(&file) {
        return Err(io::Error::other("standard input is closed"));
    }
    note_if_terminal();
    Ok(file)
}

/// A program run with no FILE from a shell waits for the keyboard without a word, a known
/// puzzle of `cat`-like tools: on a terminal, a note on standard error says what it waits for.
fn note_if_terminal() {
    use std::io::IsTerminal;
    static SAID: std::sync::Once = std::sync::Once::new();
    if !io::stdin().is_terminal() {
        return;
    }
    SAID.call_once(|| {
        let program = std::env::args_os()
            .next()
            .and_then(|arg| {
                let name = std::path::Path::new(&arg).file_name()?.to_owned();
                name.into_string().ok()
            })
            .unwrap_or_else(|| "utf8kit".to_owned());
        eprintln!(
            "{program}: reading standard input from the terminal; Ctrl-D ends it \
             ({program} --help for usage)"
        );
    });
}

/// Opens the file `name` of the open directory `directory` for reading.
fn open_in(directory: &File, name: &OsStr) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
    Ok(File::from(rustix::fs::openat(
        directory,
        name,
        flags,
        Mode::empty(),
    )?))
}

fn is_runtime_placeholder(file: &File) -> bool {
    use rustix::fs::OFlags;
    use std::os::unix::fs::MetadataExt;
    let Ok(flags) = rustix::fs::fcntl_getfl(file) else {
        return false;
    };
    if flags & OFlags::RWMODE != OFlags::RDWR {
        return false;
    }
    match (file.metadata(), std::fs::metadata("/dev/null")) {
        (Ok(ours), Ok(null)) => ours.rdev() == null.rdev() && !ours.is_file(),
        _ => false,
    }
}

/// The reason an I/O error gives, without the `(os error N)` that std appends: the form grep and
/// the other Unix tools print (`No such file or directory`).
pub fn io_reason(error: &io::Error) -> String {
    // A file opened without waiting that has nothing to read yet (/proc/kmsg): what the
    // kernel's "Resource temporarily unavailable" means here.
    if error.kind() == io::ErrorKind::WouldBlock {
        return "it would wait for data that may never come (a file such as /proc/kmsg): not read"
            .to_owned();
    }
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if error.raw_os_error().is_some() => text[..at].to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_means_nul_and_not_utf8_without_a_foreign_mark() {
        assert!(looks_binary(b"ab\0c\xffd"));
        // A text file dressed up as binary: one NUL and one stray byte among 4 KiB of text
        // is checked; 32 control bytes in the same 4 KiB (one in 128) make it binary.
        let mut dressed = b"\0\xff".to_vec();
        dressed.extend(std::iter::repeat_n(b'a', 4094));
        assert!(!looks_binary(&dressed));
        dressed[2..2 + 31].fill(0x01);
        assert!(looks_binary(&dressed), "32 of 4096 control bytes");
        dressed[32] = b'a';
        assert!(!looks_binary(&dressed), "31 of 4096 control bytes");
        // Legacy text with a stray NUL is text: its high bytes are no control bytes.
        let mut legacy = "Привет, мир! ".repeat(300).into_bytes();
        for byte in legacy.iter_mut().filter(|b| **b >= 0x80) {
            *byte |= 0xC0;
        }
        legacy[10] = 0;
        assert!(!looks_binary(&legacy));
        assert!(
            !looks_binary(b"ab\0cd"),
            "a text file holding a NUL is text"
        );
        assert!(!looks_binary(b"\xFF\xFEa\0b\0"));
        assert!(!looks_binary(b"plain text"));
        let mut late = vec![b'a'; BINARY_PROBE_LEN];
        late.extend_from_slice(b"\0\xff");
        assert!(!looks_binary(&late), "a NUL after 8 KiB does not count");
    }

    #[test]
    fn a_signature_makes_a_file_binary_only_with_bytes_that_are_not_utf8() {
        for (at, magic) in BINARY_SIGNATURES {
            let mut head = vec![b'a'; *at];
            if *at == 4 {
                head = b"\0\0\0\x20".to_vec();
            }
            head.extend_from_slice(magic);
            head.extend_from_slice(b" then text\n");
            assert!(has_binary_signature(&head), "{}", magic.escape_ascii());
            // Valid UTF-8 after the magic: a script dressed as an archive, checked as text.
            if std::str::from_utf8(&head).is_ok() {
                assert!(!looks_binary(&head), "{} at {at}", magic.escape_ascii());
            }
            // A byte that is not UTF-8 after it: binary.
            let mut binary = head.clone();
            binary.extend_from_slice(b"\xff\xfe\x80");
            assert!(looks_binary(&binary), "{} at {at}", magic.escape_ascii());
            // One byte off, the magic is not recognised.
            let mut off = head.clone();
            off[*at] ^= 0x20;
            if *at == 4 {
                off[0] = b'a';
            }
            assert!(
                !has_binary_signature(&off),
                "{} altered",
                magic.escape_ascii()
            );
        }
        // A shell script that starts with a zip signature, and a JavaScript file with a tar
        // header's magic at offset 257: valid UTF-8, so checked (SPEC 3).
        assert!(!looks_binary(b"PK\x03\x04\necho run\n"));
        let mut tar = vec![b' '; 1024];
        tar[..2].copy_from_slice(b"//");
        tar[257..263].copy_from_slice(b"ustar\0");
        assert!(utf8kit_codec::is_well_formed(&tar));
        assert!(!looks_binary(&tar));
        // The plain-text magic words are not signatures, and a word cut short is not one.
        assert!(!looks_binary(b"%PDF-1.7 in a text file\n"));
        assert!(!looks_binary(b"GIF89a is a format\n"));
        assert!(!looks_binary(b"....ftyp is an MP4 box\n"));
        assert!(!looks_binary(b"\x89PN"));
        // UTF-32 text with its byte order mark is text: its NULs are parts of code units.
        assert!(!looks_binary(b"\xff\xfe\0\0a\0\0\0"));
    }

    /// Feeds `data` through `stream` with a reader that returns a few bytes at a time and is
    /// interrupted now and then.
    #[test]
    fn stream_retries_interrupts_and_slices_to_what_was_read() {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1 += 1;
                if self.1.is_multiple_of(3) {
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

    /// Another process truncates a file while it is read: the bytes already read and nothing
    /// after them, no error and no crash.
    #[test]
    fn a_file_truncated_while_it_is_read_ends_where_it_now_ends() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, &vec![b'x'; CHUNK_LEN * 4]).unwrap();
        let path = file.path().to_path_buf();
        let mut seen = 0;
        let mut lasts = 0;
        ChunkReader::new()
            .read(&Source::Path(path.clone()), &mut |chunk, is_last| {
                seen += chunk.len();
                lasts += usize::from(is_last);
                std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .unwrap()
                    .set_len(0)
                    .unwrap();
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!((seen, lasts), (CHUNK_LEN, 1));
    }

    /// Reads a whole file opened by `reader`.
    fn read_all(reader: &mut ChunkReader, path: &Path) -> io::Result<Vec<u8>> {
        let mut file = reader.open(&Source::Path(path.to_path_buf()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Whether `reader` holds `directory` open for the next file in it.
    fn holds(reader: &ChunkReader, directory: &Path) -> bool {
        reader
            .directory
            .as_ref()
            .is_some_and(|(held, _)| held == directory)
    }

    #[test]
    fn files_opened_relative_to_their_directory_are_the_files_the_paths_name() {
        let root = tempfile::tempdir().unwrap();
        let (one, two) = (root.path().join("one"), root.path().join("two"));
        std::fs::create_dir(&one).unwrap();
        std::fs::create_dir(&two).unwrap();
        std::fs::write(one.join("a"), "one a").unwrap();
        std::fs::write(one.join("b"), "one b").unwrap();
        std::fs::write(two.join("a"), "two a").unwrap();
        let mut reader = ChunkReader::new();
        // The second file of a directory is opened relative to it; another directory is
        // opened in turn, and the first one again.
        assert_eq!(read_all(&mut reader, &one.join("a")).unwrap(), b"one a");
        assert!(holds(&reader, &one));
        assert_eq!(read_all(&mut reader, &one.join("b")).unwrap(), b"one b");
        assert_eq!(read_all(&mut reader, &two.join("a")).unwrap(), b"two a");
        assert!(holds(&reader, &two));
        assert_eq!(read_all(&mut reader, &one.join("b")).unwrap(), b"one b");
        // A directory replaced since its last file was opened: the path's file, not a stale one.
        std::fs::remove_dir_all(&one).unwrap();
        std::fs::create_dir(&one).unwrap();
        std::fs::write(one.join("b"), "new b").unwrap();
        assert!(holds(&reader, &one));
        assert_eq!(read_all(&mut reader, &one.join("b")).unwrap(), b"new b");
        // A missing file is the error a plain open gives, and so is a missing directory.
        let missing = read_all(&mut reader, &one.join("c")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let gone = read_all(&mut reader, &root.path().join("three/a")).unwrap_err();
        assert_eq!(gone.kind(), io::ErrorKind::NotFound);
        // A name without a directory opens as it always did.
        assert_eq!(
            reader
                .open(&Source::Path(PathBuf::from("no-such-file-here")))
                .unwrap_err()
                .kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn pieces_mark_only_the_very_last() {
        let got: Vec<(usize, bool)> = pieces(&[0; 10], true, 4)
            .map(|(p, l)| (p.len(), l))
            .collect();
        assert_eq!(got, [(4, false), (4, false), (2, true)]);
        let got: Vec<(usize, bool)> = pieces(&[0; 8], false, 4)
            .map(|(p, l)| (p.len(), l))
            .collect();
        assert_eq!(got, [(4, false), (4, false)]);
        let got: Vec<(usize, bool)> = pieces(&[], true, 4).map(|(p, l)| (p.len(), l)).collect();
        assert_eq!(got, [(0, true)]);
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
