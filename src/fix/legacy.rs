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

use utf8kit_codec::{
    Config, Finding, FindingKind, Scanner, UnitKind, bom::ForeignBom, repair::RepairKind,
};
use utf8kit_mojibake::LineRepair;

use crate::hint::{self, Findings, LegacyTally};
use crate::input::{ChunkReader, Source};

/// The start of standard input that the guard judges (it cannot be read again).
pub(super) const SAMPLE_LEN: usize = 64 * 1024;

/// The ill-formed units of `sample`, counted as the hint counts them.
pub(super) fn tally_of(sample: &[u8]) -> LegacyTally {
    let mut tally = LegacyTally::default();
    let mut count = |finding: &Finding<'_>| {
        if let FindingKind::IllFormed(kind) = finding.kind {
            tally.count(kind, finding.bytes.len());
        }
        ControlFlow::Continue(())
    };
    let _ = Scanner::new(Config::default()).feed(sample, true, &mut count);
    tally
}

/// Adds to `tally` the ill-formed units a repair logged, counted as [`tally_of`] counts them (a
/// joined CESU-8 pair and Java's `C0 80` are the units they repaired).
pub(super) fn tally_repairs(tally: &mut LegacyTally, repairs: Vec<LineRepair>) {
    for repair in repairs {
        let LineRepair::Codec(repair) = repair else {
            continue;
        };
        let kind = match repair.kind {
            RepairKind::IllFormed(kind) => kind,
            RepairKind::JoinedPair => UnitKind::SurrogatePair,
            RepairKind::ModifiedNul => UnitKind::Overlong,
            _ => continue,
        };
        tally.count(kind, repair.bytes().len());
    }
}

/// The hint that says how `source` (which needs repairs) can be decoded, if its bytes say it:
/// `head` is its start (all that is judged of standard input, which cannot be read again) and
/// `tally` its ill-formed units. A file is read again only when they look like a legacy
/// encoding, for the detector's evidence.
/// With `names_none`, lone bytes too few for the detector to name an encoding get a hint of their
/// own (what keeps them from U+FFFD in place); without it only a named encoding is advised.
pub(super) fn decodable_hint(
    reader: &mut ChunkReader,
    source: &Source,
    head: &[u8],
    tally: LegacyTally,
    names_none: bool,
) -> Option<String> {
    if let Some(bom) = ForeignBom::detect(head) {
        return Some(hint::bom_hint(source, bom).human());
    }
    let head_has_nul = head[..head.len().min(SAMPLE_LEN)].contains(&0);
    let findings = tally.findings();
    if findings == Findings::Other && !head_has_nul {
        return None;
    }
    match (hint::hint(source, reader, head, findings), findings) {
        (Some(hint), _) => Some(hint.human()),
        // Lone bytes are letters of some legacy encoding, too few for the detector to say which:
        // still text that --fallback decodes.
        (None, Findings::Legacy) if names_none && tally.is_single_bytes() => {
            Some(hint::unnamed_legacy_hint(source).human())
        }
        (None, _) => None,
    }
}
