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
/// last: a mapped file arrives whole, and a program that does per-unit work or writes output
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
        // Standard input is a duplicate of descriptor 0: redirected from a regular file, it can
        // then be mapped like any other file, and anything else is read through it.
        let mut file = source.open()?;
        self.read_file(&mut file, consume)
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
        let metadata = file.metadata()?;
        if metadata.is_file() {
            // Standard input may have been read from already: map only what is left.
            let start = file.stream_position()?;
            if metadata.len().saturating_sub(start) >= MMAP_MIN_LEN {
                if let Some(map) = map_file(file, start) {
                    // A map that cannot be guarded is not read: the file is streamed instead.
                    if let Some(guard) = shrink_guard::Guard::register(&map) {
                        let _ = consume(&map, true);
                        if guard.has_faulted() {
                            return Err(io::Error::other("the file shrank while it was read"));
                        }
                        return Ok(());
                    }
                }
            }
        }
        self.stream(file, consume)
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

/// Keeps a file that shrinks while it is mapped from killing the program (SPEC 2).
///
/// Reading a mapped page that a truncation removed raises SIGBUS. While a map is registered here,
/// a SIGBUS inside it maps a page of zeros over the lost page and flags the map; the reader then
/// reports the input as trouble ("the file shrank while it was read") instead of crashing. A
/// SIGBUS anywhere else gets the default action, as if no handler were installed.
mod shrink_guard {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Once;

    const SLOTS: usize = 64;
    static STARTS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static LENS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static FAULTED: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    static INSTALL: Once = Once::new();

    /// A registered map; dropping it unregisters the map.
    pub struct Guard {
        slot: usize,
    }

    impl Guard {
        /// Registers `map`, installing the handler on first use; `None` when every slot is
        /// taken or the handler cannot be installed.
        pub fn register(map: &[u8]) -> Option<Guard> {
            INSTALL.call_once(install);
            if !INSTALLED.load(Ordering::Acquire) || map.is_empty() {
                return None;
            }
            let start = map.as_ptr() as usize;
            for slot in 0..SLOTS {
                if STARTS[slot]
                    .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
                {
                    FAULTED[slot].store(false, Ordering::Release);
                    LENS[slot].store(map.len(), Ordering::Release);
                    STARTS[slot].store(start, Ordering::Release);
                    return Some(Guard { slot });
                }
            }
            None
        }

        /// Whether a read of the map touched a page the file no longer had.
        pub fn has_faulted(&self) -> bool {
            FAULTED[self.slot].load(Ordering::Acquire)
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            LENS[self.slot].store(0, Ordering::Release);
            STARTS[self.slot].store(0, Ordering::Release);
        }
    }

    static INSTALLED: AtomicBool = AtomicBool::new(false);

    fn install() {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if page > 0 {
            PAGE.store(page as usize, Ordering::Release);
        }
        // SAFETY: a zeroed sigaction is a valid starting value; the handler has the signature
        // SA_SIGINFO asks for, and only calls async-signal-safe functions (mmap, signal).
        let installed = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
        };
        INSTALLED.store(installed, Ordering::Release);
    }

    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo_t to an SA_SIGINFO handler.
        let address = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Acquire);
        for slot in 0..SLOTS {
            let start = STARTS[slot].load(Ordering::Acquire);
            let len = LENS[slot].load(Ordering::Acquire);
            if start == 0 || start == usize::MAX || address < start || address >= start + len {
                continue;
            }
            FAULTED[slot].store(true, Ordering::Release);
            let page_start = address & !(page - 1);
            // SAFETY: the page lies inside a live map registered by its owner, which only reads
            // it; replacing it with zeros keeps every address of that map valid.
            let replaced = unsafe {
                libc::mmap(
                    page_start as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if replaced != libc::MAP_FAILED {
                return;
            }
        }
        // Not a page of ours: the default action, when the faulting access is retried.
        // SAFETY: signal() is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
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

/// How many bytes at the start of a walked or listed file are looked at to tell binary from text.
pub const BINARY_PROBE_LEN: usize = 8 * 1024;

/// Whether the first bytes of a walked file make it binary (SPEC 3): a NUL byte *and* bytes
/// that are not UTF-8, and no UTF-16 or UTF-32 byte order mark.
pub fn looks_binary(head: &[u8]) -> bool {
    let head = &head[..head.len().min(BINARY_PROBE_LEN)];
    let is_utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        // A character cut by the end of the probe is not evidence.
        Err(error) => error.error_len().is_none(),
    };
    head.contains(&0) && utf8kit_codec::ForeignBom::detect(head).is_none() && !is_utf8
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
    Ok(file)
}

fn is_runtime_placeholder(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    // SAFETY: F_GETFL only reads the flags of a descriptor this function borrows.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 || flags & libc::O_ACCMODE != libc::O_RDWR {
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

    /// Another process truncates a mapped file while it is read: trouble, not a crash.
    #[test]
    fn a_file_that_shrinks_while_mapped_is_trouble_not_a_crash() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, &vec![b'x'; (MMAP_MIN_LEN as usize) * 2]).unwrap();
        let path = file.path().to_path_buf();
        let mut sum = 0u64;
        let error = ChunkReader::new()
            .read(&Source::Path(path.clone()), &mut |chunk, _| {
                std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .unwrap()
                    .set_len(0)
                    .unwrap();
                sum += chunk.iter().map(|&b| u64::from(b)).sum::<u64>();
                ControlFlow::Continue(())
            })
            .unwrap_err();
        assert_eq!(error.to_string(), "the file shrank while it was read");
        assert_eq!(sum, 0, "the lost pages read as zeros");
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
