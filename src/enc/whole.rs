//! One big file on every core (SPEC 7): `utf8enc --from utf-16le FILE` (or `utf-16be`, or
//! `latin1`) into UTF-8 cuts a regular file into parts of 1 MiB, which the threads convert as
//! they come free, each into its own buffer, and writes the buffers in file order.
//!
//! A part is converted strictly. Where every part is well-formed the output is what one
//! thread writes: a UTF-16 cut falls between two units and never after a high surrogate (it
//! moves on by one unit when it would), so no character spans two parts, and UTF-16 carries
//! nothing else from one unit to the next; in Latin-1 every byte is a character. The first
//! part that holds a malformed unit (or that cannot be read, or comes up short because the
//! file shrank) ends this: the parts before it are written, and the caller converts the rest
//! the ordinary way from that part's start, which replaces or reports each error with its
//! offset exactly as for any input.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use utf8kit_codec::transcode::{Endian, Utf16Decoder, latin1_to_utf8};

/// The encodings converted in parts.
#[derive(Clone, Copy, Debug)]
pub(super) enum Encoding {
    Utf16(Endian),
    Latin1,
}

/// Files shorter than this are converted by one thread: the threads would cost more than
/// they save.
pub(super) const MIN_LEN: u64 = 16 * 1024 * 1024;

/// How much of the file a thread converts at a time (its output at most twice as long).
pub(super) const PART_LEN: u64 = 1024 * 1024;

/// The size of each `pread`, which stays in the core's L2 cache.
const PIECE_LEN: usize = 256 * 1024;

/// At most this many threads: each part's output waits in memory until the parts before it
/// are written, and more threads mean more of them waiting.
const MAX_THREADS: usize = 8;

/// The number of threads that [`convert`] uses on this machine (1: it is not worth it), asked
/// of the system once.
pub(super) fn threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    })
}

/// Converts the `len` bytes of `file` (in `encoding`) into UTF-8 on `threads` threads,
/// writing to `out` in file order. Returns where the caller goes on converting the ordinary
/// way: the start of the first part that is not well-formed or could not be read (everything
/// before it is written), or `len` when all of it is written (the file may have grown since).
///
/// # Errors
///
/// A failure to write to `out`.
pub(super) fn convert(
    file: &File,
    len: u64,
    encoding: Encoding,
    threads: usize,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let cuts = cuts(file, len, encoding);
    let parts = cuts.len() - 1;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Parts written so far: a thread takes part `i` only once `i < written + window`, so that at
    // most `window` outputs wait in memory.
    let window = threads as u64 + 2;
    let written = (Mutex::new(0u64), Condvar::new());
    let (done_tx, done_rx) = mpsc::channel::<(usize, Option<Vec<u8>>)>();
    let work = |done: mpsc::Sender<(usize, Option<Vec<u8>>)>| {
        let mut buffer = vec![0u8; PIECE_LEN];
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= parts as u64 {
                break;
            }
            {
                let (count, turn) = &written;
                let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
                while i >= *count + window && !stop.load(Ordering::Relaxed) {
                    count = turn.wait(count).unwrap_or_else(|e| e.into_inner());
                }
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let i = i as usize;
            let output = convert_part(file, cuts[i], cuts[i + 1], encoding, &mut buffer);
            if done.send((i, output)).is_err() {
                break;
            }
        }
    };
    std::thread::scope(|scope| {
        // A thread that cannot be started (a ulimit) is done without; with none, this thread
        // converts every part itself before writing.
        let work = &work;
        let started = (0..threads)
            .map_while(|_| {
                let done = done_tx.clone();
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || work(done))
                    .ok()
            })
            .count();
        if started == 0 {
            work(done_tx.clone());
        }
        drop(done_tx);
        let result = write_in_order(&done_rx, parts, &cuts, &written, out);
        stop.store(true, Ordering::Relaxed);
        written.1.notify_all();
        // The threads stop at their next part; what they send is dropped with the receiver.
        drop(done_rx);
        result
    })
}

/// Writes the parts' outputs in order as they arrive, counting them in `written`; where the
/// caller goes on (the start of the first part that failed, or the end of the last).
fn write_in_order(
    done: &mpsc::Receiver<(usize, Option<Vec<u8>>)>,
    parts: usize,
    cuts: &[u64],
    written: &(Mutex<u64>, Condvar),
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut waiting = BTreeMap::new();
    for (i, &start) in cuts.iter().enumerate().take(parts) {
        let output = loop {
            if let Some(output) = waiting.remove(&i) {
                break output;
            }
            match done.recv() {
                Ok((at, output)) => {
                    waiting.insert(at, output);
                }
                // Every thread ended (one panicked) before this part came.
                Err(_) => break None,
            }
        };
        let Some(output) = output else {
            return Ok(start);
        };
        out.write_all(&output)?;
        let (count, turn) = written;
        *count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        turn.notify_all();
    }
    Ok(cuts[parts])
}

/// Where the parts start, and the file's end: every [`PART_LEN`] bytes, in UTF-16 one unit
/// later where the unit before is a high surrogate (whose low half may follow), and never
/// where that cannot be read.
fn cuts(file: &File, len: u64, encoding: Encoding) -> Vec<u64> {
    let cut = |at: u64| match encoding {
        Encoding::Latin1 => Some(at),
        Encoding::Utf16(endian) => {
            let mut before = [0u8; 2];
            file.read_exact_at(&mut before, at - 2).ok()?;
            let unit = match endian {
                Endian::Little => u16::from_le_bytes(before),
                Endian::Big => u16::from_be_bytes(before),
            };
            Some(
                at + if (0xD800..0xDC00).contains(&unit) {
                    2
                } else {
                    0
                },
            )
        }
    };
    let nominal = (1..)
        .map(|k| k * PART_LEN)
        .take_while(|at| at + PART_LEN / 2 < len);
    std::iter::once(0)
        .chain(nominal.filter_map(cut))
        .chain(std::iter::once(len))
        .collect()
}

/// The UTF-8 of the file's bytes `from..to`, read through `buffer`, or `None` when one of
/// them is malformed, cannot be read, or is missing.
fn convert_part(
    file: &File,
    from: u64,
    to: u64,
    encoding: Encoding,
    buffer: &mut [u8],
) -> Option<Vec<u8>> {
    let len = usize::try_from(to - from).ok()?;
    let (mut decoder, most) = match encoding {
        Encoding::Utf16(endian) => (Some(Utf16Decoder::new(endian)), len / 2 * 3),
        Encoding::Latin1 => (None, len * 2),
    };
    let mut output = Vec::with_capacity(most + 64);
    let mut at = from;
    while at < to {
        let read = crate::input::read_piece_at(file, buffer, at, to)?;
        at += read as u64;
        match &mut decoder {
            Some(decoder) => decoder
                .decode(&buffer[..read], at == to, &mut output)
                .ok()?,
            None => latin1_to_utf8(&buffer[..read], &mut output),
        }
    }
    Some(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut right after a high surrogate moves on by one unit, in either byte order; any
    /// other cut stays on its mebibyte, and the last part is never under half of one.
    #[test]
    fn no_cut_falls_after_a_high_surrogate() {
        let units = 3 * PART_LEN as usize / 2 + 100;
        for (endian, high) in [(Endian::Little, [0x3D, 0xD8]), (Endian::Big, [0xD8, 0x3D])] {
            let mut bytes = b"a\0".repeat(units);
            let at = 2 * PART_LEN as usize;
            bytes[PART_LEN as usize - 2..PART_LEN as usize].copy_from_slice(&high);
            let mut file = tempfile::tempfile().unwrap();
            file.write_all(&bytes).unwrap();
            let len = bytes.len() as u64;
            let utf16 = Encoding::Utf16(endian);
            assert_eq!(cuts(&file, len, utf16), [0, PART_LEN + 2, at as u64, len]);
            assert_eq!(
                cuts(&file, len, Encoding::Latin1),
                [0, PART_LEN, at as u64, len]
            );
            bytes[PART_LEN as usize - 2..PART_LEN as usize].copy_from_slice(b"a\0");
            file.write_all_at(&bytes, 0).unwrap();
            assert_eq!(cuts(&file, len, utf16), [0, PART_LEN, at as u64, len]);
            assert_eq!(
                cuts(&file, at as u64 + PART_LEN / 2, utf16),
                [0, PART_LEN, at as u64 + PART_LEN / 2]
            );
        }
    }
}
