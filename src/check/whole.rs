//! One big file on every core (SPEC 7): a regular file is cut into parts of 4 MiB, which the
//! threads take as they come free (so that a thread the machine slows leaves its share to the
//! others), each part read with `pread` into the thread's buffer and validated with SIMD
//! ([`utf8kit_codec::is_well_formed`]: AVX-512 where the processor has it, 64 bytes a step),
//! or, when lints are asked for, scanned for their findings.
//!
//! This answers only "is the whole file well-formed, with no finding?". That is the answer for
//! nearly every big file a check meets, and it needs no positions: a clean file has no
//! finding, so its lines and columns are never shown. A file with an ill-formed byte or a
//! finding (or one that changes length while it is read, or a read error) makes the caller scan
//! it again from its start on one thread, which gives every finding with its exact offset,
//! line and column, in order. The first part to fail stops the others, so an early mistake
//! costs little; dense-error files fail in the first piece.
//!
//! The cuts fall on character boundaries: a cut is moved forward past at most three
//! continuation bytes. A well-formed text cut before a byte that is not a continuation byte is
//! two well-formed texts, and two well-formed texts joined are one, so the file is well-formed
//! exactly when every part is. A cut that still lands on a continuation byte (four in a row)
//! starts a part that fails, as the file must. With lints, a cut moves on to the next line
//! start, and each part's scanner resumes there as after a newline
//! ([`utf8kit_codec::Scanner::resume`]): no word and no character's context spans a newline,
//! so the parts' findings are the whole file's.

use std::fs::File;
use std::ops::ControlFlow;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use utf8kit_codec::{Config, Finding, Scanner, Sink};

/// Files shorter than this are read by one thread: the threads would cost more than they save.
pub(super) const MIN_LEN: u64 = 16 * 1024 * 1024;

/// The size of each `pread`: small enough that a thread's buffer stays in its core's L2 cache,
/// large enough that the reads cost little (64 KiB took 5% longer on the bench's 256 MiB files).
const PIECE_LEN: usize = 256 * 1024;

/// How much of the file a thread takes at a time. Parts are taken as threads come free, so
/// that a thread slowed by the machine's other work leaves its share to the others.
const PART_LEN: u64 = 4 * 1024 * 1024;

/// Whether the `len` bytes of `file` from offset `start` are well-formed UTF-8 and, when
/// `config` asks for lints, hold no finding of them, read by `threads` threads at once. `false`
/// also when a read fails or the file ends early (it shrank while it was read): the caller
/// then reads it the ordinary way, which reports what it finds.
pub(super) fn is_clean(file: &File, start: u64, len: u64, threads: usize, config: &Config) -> bool {
    let lints = (!config.lints.is_empty()).then_some(config);
    in_parts(file, start, len, threads, PART_LEN, lints)
}

/// [`is_clean`] with parts of `part_len` bytes.
fn in_parts(
    file: &File,
    start: u64,
    len: u64,
    threads: usize,
    part_len: u64,
    lints: Option<&Config>,
) -> bool {
    let end = start + len;
    // Part `i` runs from `cuts[i]`, the first character boundary at or after its nominal start
    // (with lints, the first line start within the part, so that no word or context is cut;
    // a part with none goes on to the next cut), to `cuts[i + 1]`.
    let mut cuts = vec![start];
    for i in 1..len.div_ceil(part_len) {
        let nominal = start + i * part_len;
        let cut = match lints {
            Some(_) => line_start(file, nominal, (nominal + part_len).min(end)),
            None => Some(char_boundary(file, nominal, end)),
        };
        if let Some(cut) = cut.filter(|&cut| cut > cuts[cuts.len() - 1] && cut < end) {
            cuts.push(cut);
        }
    }
    cuts.push(end);
    let parts = cuts.len() as u64 - 1;
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= parts || failed.load(Ordering::Relaxed) {
                break;
            }
            let i = i as usize;
            let clean = match lints {
                Some(config) => part_has_no_finding(file, cuts[i], cuts[i + 1], &failed, config),
                None => part_is_well_formed(file, cuts[i], cuts[i + 1], &failed),
            };
            if !clean {
                failed.store(true, Ordering::Relaxed);
            }
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

/// The offset just past the first newline from `at - 1` up to `limit` (so `at` itself when a
/// line starts there), or `None` when there is none (or it cannot be read).
fn line_start(file: &File, at: u64, limit: u64) -> Option<u64> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut from = at - 1;
    while from < limit {
        let want = buffer
            .len()
            .min(usize::try_from(limit - from).unwrap_or(buffer.len()));
        let read = match file.read_at(&mut buffer[..want], from) {
            Ok(0) | Err(_) => return None,
            Ok(n) => n,
        };
        if let Some(i) = buffer[..read].iter().position(|&b| b == b'\n') {
            return Some(from + i as u64 + 1);
        }
        from += read as u64;
    }
    None
}

/// A sink that stops at the first finding.
struct AnyFinding;

impl Sink for AnyFinding {
    fn finding(&mut self, _: &Finding<'_>) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// Whether the part of `file` from `from` (a line start) to `to` is read whole and holds no
/// finding of `config` (an ill-formed unit the policy does not accept is one); `false` too once
/// another part has failed.
fn part_has_no_finding(
    file: &File,
    mut at: u64,
    to: u64,
    failed: &AtomicBool,
    config: &Config,
) -> bool {
    let mut scanner = Scanner::resume(*config, at);
    let mut buffer = vec![0u8; PIECE_LEN];
    while at < to {
        if failed.load(Ordering::Relaxed) {
            return false;
        }
        let Some(read) = crate::input::read_piece_at(file, &mut buffer, at, to) else {
            return false;
        };
        at += read as u64;
        if scanner
            .feed(&buffer[..read], at == to, &mut AnyFinding)
            .is_break()
        {
            return false;
        }
    }
    true
}

fn part_is_well_formed(file: &File, mut at: u64, to: u64, failed: &AtomicBool) -> bool {
    // Room for a piece plus the at most three bytes of a character the last piece cut.
    let mut buffer = vec![0u8; PIECE_LEN + 3];
    let mut carried = 0;
    while at < to {
        if failed.load(Ordering::Relaxed) {
            return false;
        }
        let piece = &mut buffer[carried..carried + PIECE_LEN];
        let Some(read) = crate::input::read_piece_at(file, piece, at, to) else {
            return false;
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
                    let got = in_parts(&file, start as u64, rest, threads, part_len, None);
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
                        !in_parts(&file, 0, len as u64, threads, part_len, None),
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
        assert!(!is_clean(&file, 0, 6, 2, &Config::default()));
        assert!(is_clean(&file, 0, 7, 2, &Config::default()));
    }

    #[test]
    fn four_continuation_bytes_across_a_cut_fail() {
        let mut bytes = vec![b'a'; 64];
        bytes[30..34].copy_from_slice(&[0x80; 4]);
        let file = file_of(&bytes);
        assert!(!is_clean(&file, 0, 64, 2, &Config::default()));
    }

    /// A file that is shorter than the length it had when opened fails, so that the caller
    /// reads what is there instead of passing bytes that were never read.
    #[test]
    fn a_file_shorter_than_announced_fails() {
        let file = file_of(b"plain text");
        assert!(!is_clean(&file, 0, 20, 2, &Config::default()));
    }

    /// Whether one scanner from the start finds nothing in `bytes`.
    fn one_scan_is_clean(bytes: &[u8], config: &Config) -> bool {
        Scanner::new(*config)
            .feed(bytes, true, &mut AnyFinding)
            .is_continue()
    }

    /// Lines of several scripts, emoji sequences that join and a flag (no finding), with a
    /// character or word that is a finding, or is one only in its context, put at the start
    /// or the end of a line on either side of a cut: the parts find what one scan finds.
    #[test]
    fn with_lints_the_parts_find_what_one_scan_finds() {
        let config = Config {
            lints: utf8kit_codec::LintSet::parse("all")
                .unwrap()
                .without(utf8kit_codec::LintSet::parse("non-ascii").unwrap()),
            words: Some(crate::mixed_script::RULE),
            ..Config::default()
        };
        let lines = [
            "Привет мир, hello world — «ok»\n",
            "日本語のテキスト、東京タワーTV\n",
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} family\n",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} flag\n",
            "caf\u{E9} \u{2764}\u{FE0F}\n",
        ];
        let text: String = lines.iter().cycle().take(200).copied().collect();
        // A line longer than three parts: the cuts it holds fall on the next line start.
        let long = format!("flag {}\n", "длинная строка ".repeat(150));
        let text = text.replacen("flag\n", &long, 1);
        assert!(one_scan_is_clean(text.as_bytes(), &config));
        let part_len = 1003;
        let planted = [
            "",
            "\u{FEFF}",
            "\u{200D}",
            "\u{FE0F}",
            "p\u{430}ypal",
            "\u{E0041}",
            "\u{200B}",
            "\u{202E}",
            "\u{E007F}",
        ];
        let mut findings = 0;
        for plant in planted {
            for cut in [1, 2, 3] {
                let at = text.as_bytes()[..cut * part_len]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .unwrap()
                    + 1;
                for place in [at, at - 1] {
                    let mut bytes = text.as_bytes().to_vec();
                    bytes.splice(place..place, plant.bytes());
                    let file = file_of(&bytes);
                    let want = one_scan_is_clean(&bytes, &config);
                    findings += usize::from(!want);
                    for threads in 1..=3 {
                        let len = bytes.len() as u64;
                        let got = in_parts(&file, 0, len, threads, part_len as u64, Some(&config));
                        assert_eq!(got, want, "{plant:?} at {place}, {threads} threads");
                    }
                }
            }
        }
        // Every plant but the empty one and a variation selector after a line's heart is one.
        assert!(findings >= 45, "{findings}");
    }
}
