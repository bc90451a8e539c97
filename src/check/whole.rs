//! One big file on every core (SPEC 7): a regular file is cut into parts of 4 MiB, which the
//! threads take as they come free (so that a thread the machine slows leaves its share to the
//! others), each part read with `pread` into the thread's buffer and validated with SIMD
//! ([`utf8kit_codec::is_well_formed`]: AVX-512 where the processor has it, 64 bytes a step).
//!
//! This answers only "is the whole file well-formed?". That is the answer for nearly every big
//! file a check meets, and it needs no positions: a valid file has no finding, so its lines and
//! columns are never shown. A file with an ill-formed byte (or one that changes length while it
//! is read, or a read error) makes the caller scan it again from its start on one thread, which
//! gives every finding with its exact offset, line and column, in order. The first part to fail
//! stops the others, so an early mistake costs little; dense-error files fail in the first piece.
//!
//! The cuts fall on character boundaries: a cut is moved forward past at most three
//! continuation bytes. A well-formed text cut before a byte that is not a continuation byte is
//! two well-formed texts, and two well-formed texts joined are one, so the file is well-formed
//! exactly when every part is. A cut that still lands on a continuation byte (four in a row)
//! starts a part that fails, as the file must.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Files shorter than this are read by one thread: the threads would cost more than they save.
pub(super) const MIN_LEN: u64 = 16 * 1024 * 1024;

/// The size of each `pread`: small enough that a thread's buffer stays in its core's L2 cache,
/// large enough that the reads cost little (64 KiB took 5% longer on the bench's 256 MiB files).
const PIECE_LEN: usize = 256 * 1024;

/// How much of the file a thread takes at a time. Parts are taken as threads come free, so
/// that a thread slowed by the machine's other work leaves its share to the others.
const PART_LEN: u64 = 4 * 1024 * 1024;

/// Whether the `len` bytes of `file` from offset `start` are well-formed UTF-8, read by `threads`
/// threads at once. `false` also when a read fails or the file ends early (it shrank while it
/// was read): the caller then reads it the ordinary way, which reports what it finds.
pub(super) fn is_well_formed(file: &File, start: u64, len: u64, threads: usize) -> bool {
    in_parts(file, start, len, threads, PART_LEN)
}

/// [`is_well_formed`] with parts of `part_len` bytes.
fn in_parts(file: &File, start: u64, len: u64, threads: usize, part_len: u64) -> bool {
    let end = start + len;
    let parts = len.div_ceil(part_len).max(1);
    // Part `i` runs from `cuts[i]`, the first character boundary at or after its nominal start,
    // to `cuts[i + 1]`.
    let cuts: Vec<u64> = (0..=parts)
        .map(|i| match i {
            0 => start,
            i if i == parts => end,
            i => char_boundary(file, start + i * part_len, end),
        })
        .collect();
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= parts || failed.load(Ordering::Relaxed) {
                break;
            }
            let i = i as usize;
            check_part(file, cuts[i], cuts[i + 1], &failed);
        }
    };
    std::thread::scope(|scope| {
        // A thread that cannot be started (a ulimit) is done without: the parts are shared out
        // by a counter, so fewer threads check them all.
        let handles: Vec<_> = (1..threads)
            .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        work();
        for handle in handles {
            if handle.join().is_err() {
                failed.store(true, Ordering::Relaxed);
            }
        }
    });
    !failed.load(Ordering::Relaxed)
}

/// The first offset at or after `at` (and before `end`) whose byte is not a continuation byte,
/// looking at most three bytes on.
fn char_boundary(file: &File, at: u64, end: u64) -> u64 {
    let mut next = [0u8; 3];
    let Ok(n) = file.read_at(&mut next, at) else {
        return at;
    };
    let skip = next[..n].iter().take_while(|&&b| b & 0xC0 == 0x80).count();
    (at + skip as u64).min(end)
}

/// Validates `file` from `from` to `to`, setting `failed` when the part is not well-formed or
/// cannot be read whole, and stopping early once another part has set it.
fn check_part(file: &File, from: u64, to: u64, failed: &AtomicBool) {
    if !part_is_well_formed(file, from, to, failed) {
        failed.store(true, Ordering::Relaxed);
    }
}

fn part_is_well_formed(file: &File, mut at: u64, to: u64, failed: &AtomicBool) -> bool {
    // Room for a piece plus the at most three bytes of a character the last piece cut.
    let mut buffer = vec![0u8; PIECE_LEN + 3];
    let mut carried = 0;
    while at < to {
        if failed.load(Ordering::Relaxed) {
            return false;
        }
        let want = PIECE_LEN.min(usize::try_from(to - at).unwrap_or(PIECE_LEN));
        let read = match file.read_at(&mut buffer[carried..carried + want], at) {
            Ok(0) => return false,
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        at += read as u64;
        let filled = carried + read;
        // A character cut by the end of the piece is validated with the next one. The fastest
        // validation (`basic`, which gives no position) then sees whole characters only.
        let whole = if at < to {
            uncut_len(&buffer[..filled])
        } else {
            filled
        };
        if !utf8kit_codec::is_well_formed(&buffer[..whole]) {
            return false;
        }
        buffer.copy_within(whole..filled, 0);
        carried = filled - whole;
    }
    carried == 0
}

/// The length of `bytes` without a character its end cuts: the last lead byte among the last
/// three bytes, when fewer bytes follow it than it announces. Anything else is left whole, for
/// the validation to judge.
fn uncut_len(bytes: &[u8]) -> usize {
    let tail = bytes.len().saturating_sub(3);
    match (tail..bytes.len()).rev().find(|&i| bytes[i] & 0xC0 != 0x80) {
        Some(lead)
            if utf8kit_codec::unit::declared_len(bytes[lead])
                .is_some_and(|n| n > bytes.len() - lead) =>
        {
            lead
        }
        _ => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(bytes: &[u8]) -> File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    /// A text holding characters of every length, cut into parts of several sizes (the
    /// nominal cuts fall inside characters) and read by 1 to 5 threads, from each of its first
    /// four offsets: the answer is `std::str::from_utf8`'s.
    #[test]
    fn agrees_with_std_wherever_the_cuts_fall() {
        let text = "aé€😀".repeat(PIECE_LEN / 5);
        let mut bytes = text.into_bytes();
        let len = bytes.len();
        let file = file_of(&bytes);
        let part_lens = [1003, PIECE_LEN as u64 + 1, PART_LEN];
        for part_len in part_lens {
            for threads in 1..=5 {
                for start in 0..4 {
                    let expected = std::str::from_utf8(&bytes[start..]).is_ok();
                    let rest = (len - start) as u64;
                    let got = in_parts(&file, start as u64, rest, threads, part_len);
                    assert_eq!(
                        got, expected,
                        "parts of {part_len}, {threads} threads, start {start}"
                    );
                }
            }
        }
        // One bad byte anywhere: at the start, on a part's cut and beside it, at a piece's
        // end, in the middle, at the very end.
        for at in [
            0,
            1002,
            1003,
            1004,
            PIECE_LEN - 1,
            PIECE_LEN,
            len / 2,
            len - 1,
        ] {
            let saved = bytes[at];
            bytes[at] = 0xFF;
            let file = file_of(&bytes);
            for part_len in part_lens {
                for threads in 1..=4 {
                    assert!(
                        !in_parts(&file, 0, len as u64, threads, part_len),
                        "0xFF at {at}, parts of {part_len}, {threads} threads"
                    );
                }
            }
            bytes[at] = saved;
        }
    }

    /// One- to three-byte ends after a prefix, against std: `uncut_len` keeps all of a
    /// valid input, and of valid text ending in a character cut short (`error_len() == None`)
    /// all but that character; an ill-formed input never splits into two parts that pass.
    #[test]
    fn uncut_len_leaves_only_a_cut_character() {
        // Every byte alone and in pairs; in threes, a byte of each class and each edge.
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE2,
            0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE, 0xFF,
        ];
        let singles = (0..=255u8).map(|a| vec![a]);
        let pairs = (0..=255u8).flat_map(|a| (0..=255u8).map(move |b| vec![a, b]));
        let threes = edges.iter().flat_map(|&a| {
            edges
                .iter()
                .flat_map(move |&b| edges.map(|c| vec![a, b, c]))
        });
        let mut input = b"ab".to_vec();
        for end in singles.chain(pairs).chain(threes) {
            input.truncate(2);
            input.extend_from_slice(&end);
            let kept = uncut_len(&input);
            let std = std::str::from_utf8(&input);
            let expected = match std {
                Ok(_) => input.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => {
                    // Ill-formed: what is kept fails, or what is left can start no
                    // character whatever bytes follow it.
                    let kept_ok = std::str::from_utf8(&input[..kept]).is_ok();
                    let left = std::str::from_utf8(&input[kept..]);
                    let left_fails = left.is_err_and(|e| e.error_len().is_some());
                    assert!(!kept_ok || left_fails, "{input:02X?}");
                    continue;
                }
            };
            assert_eq!(kept, expected, "{input:02X?}");
        }
    }

    #[test]
    fn a_character_cut_by_the_end_is_not_well_formed() {
        let file = file_of("aaaa€".as_bytes());
        assert!(!is_well_formed(&file, 0, 6, 2));
        assert!(is_well_formed(&file, 0, 7, 2));
    }

    #[test]
    fn four_continuation_bytes_across_a_cut_fail() {
        let mut bytes = vec![b'a'; 64];
        bytes[30..34].copy_from_slice(&[0x80; 4]);
        let file = file_of(&bytes);
        assert!(!is_well_formed(&file, 0, 64, 2));
    }

    /// A file that is shorter than the length it had when opened fails, so that the caller
    /// reads what is there instead of passing bytes that were never read.
    #[test]
    fn a_file_shorter_than_announced_fails() {
        let file = file_of(b"plain text");
        assert!(!is_well_formed(&file, 0, 20, 2));
    }
}
