//! The repair view (SPEC 1.3): each maximal subpart of an ill-formed unit becomes one U+FFFD.

use std::ops::ControlFlow;

use crate::scanner::{Config, Finding, Scanner, Sink};
use crate::unit::subparts;

/// The UTF-8 bytes of U+FFFD REPLACEMENT CHARACTER.
pub const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// A [`Sink`] that appends the lossy repair of what it is fed to a buffer: text as it is, and one
/// U+FFFD for each maximal subpart of each ill-formed unit.
///
/// Use it with the default [`Config`] (no policy, no lint) to get exactly what
/// `String::from_utf8_lossy` and Python's `decode("utf-8", "replace")` give. The caller empties
/// `out` whenever it likes; nothing is kept besides it.
///
/// ```
/// use utf8kit_codec::{Config, LossySink, Scanner};
/// let mut out = Vec::new();
/// let mut scanner = Scanner::new(Config::default());
/// let _ = scanner.feed(b"caf\xC3", false, &mut LossySink { out: &mut out });
/// let _ = scanner.feed(b"\xA9 \xC0\xAF", true, &mut LossySink { out: &mut out });
/// assert_eq!(out, "café \u{FFFD}\u{FFFD}".as_bytes());
/// ```
#[derive(Debug)]
pub struct LossySink<'a> {
    /// Where the repaired bytes go.
    pub out: &'a mut Vec<u8>,
}

impl Sink for LossySink<'_> {
    fn text(&mut self, _byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        self.out.extend_from_slice(bytes);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        for _ in subparts(finding.bytes) {
            self.out.extend_from_slice(REPLACEMENT);
        }
        ControlFlow::Continue(())
    }
}

/// Repairs a whole input held in memory, appending the result to `out`.
///
/// ```
/// let mut out = Vec::new();
/// utf8kit_codec::decode_lossy(b"\xED\xA0\x80!", &mut out);
/// assert_eq!(out, "\u{FFFD}\u{FFFD}\u{FFFD}!".as_bytes());
/// ```
pub fn decode_lossy(input: &[u8], out: &mut Vec<u8>) {
    let _ = Scanner::new(Config::default()).feed(input, true, &mut LossySink { out });
}
