//! The default repair's guard (SPEC 5): U+FFFD never replaces text that could have been decoded,
//! unless the user chose the loss.
//!
//! When an input that needs repairs starts with the byte order mark of UTF-16 or UTF-32, or its
//! ill-formed bytes are the evidence on which utf8check names a legacy encoding
//! ([`crate::hint`]), the hint's advice is what repairs it: in place the file is left as it is
//! (status 1), in a pipe the repaired text is still written and the advice goes to standard
//! error. `--replacement`, `--drop`, `--escape` and `--fallback` are the user's choice, and turn
//! the guard off.

use std::ops::ControlFlow;

use utf8kit_codec::{Config, Finding, FindingKind, ForeignBom, Scanner};

use crate::hint::{self, Findings, LegacyTally};
use crate::input::{ChunkReader, Source};

/// The start of standard input that the guard judges (it cannot be read again).
pub(super) const SAMPLE_LEN: usize = 64 * 1024;

/// The hint that says how `source` (which needs repairs) can be decoded, if its bytes say it.
///
/// With a `sample` (the start of the input: standard input cannot be read again, and a stream's
/// advice comes after its output) that is judged; without one the file is read again whole.
/// With `names_none`, lone bytes too few for the detector to name an encoding get a hint of their
/// own (what keeps them from U+FFFD in place); without it only a named encoding is advised.
pub(super) fn decodable_hint(
    reader: &mut ChunkReader,
    source: &Source,
    sample: Option<&[u8]>,
    names_none: bool,
) -> Option<String> {
    let mut tally = LegacyTally::default();
    let mut scanner = Scanner::new(Config::default());
    let mut bom = None;
    let mut head_has_nul = false;
    let mut is_first = true;
    let mut count = |finding: &Finding<'_>| {
        if let FindingKind::IllFormed(kind) = finding.kind {
            tally.count(kind, finding.bytes.len());
        }
        ControlFlow::Continue(())
    };
    let mut consume = |chunk: &[u8], is_last: bool| {
        if is_first {
            is_first = false;
            bom = ForeignBom::detect(chunk);
            if bom.is_some() {
                return ControlFlow::Break(());
            }
            head_has_nul = chunk[..chunk.len().min(SAMPLE_LEN)].contains(&0);
        }
        scanner.feed(chunk, is_last, &mut count)
    };
    let read = match sample {
        Some(sample) => {
            let _ = consume(sample, true);
            Ok(())
        }
        None => reader.read(source, &mut consume),
    };
    if let Some(bom) = bom {
        return Some(hint::bom_hint(source, bom).human());
    }
    // A file that cannot be read again keeps the repairs it was given.
    read.ok()?;
    let findings = tally.findings();
    if findings == Findings::Other && !head_has_nul {
        return None;
    }
    let sample = sample.unwrap_or_default();
    match (hint::hint(source, reader, sample, findings), findings) {
        (Some(hint), _) => Some(hint.human()),
        // Lone bytes are letters of some legacy encoding, too few for the detector to say which:
        // still text that --fallback decodes.
        (None, Findings::Legacy) if names_none && tally.is_single_bytes() => {
            Some(hint::unnamed_legacy_hint(source).human())
        }
        (None, _) => None,
    }
}
