//! The window of `--skip`/`--length`/`-C`: where a dump starts and stops inside a stream, resynchronised on whole units.

use super::*;

/// The most input handed to the scanner at once.
pub(super) const PIECE_LEN: usize = 64 * 1024;

/// The `-s`/`-n` window: skips to the start, resynchronises if it falls inside a sequence, and
/// stops once every unit that starts inside it has been seen.
pub(super) struct Window {
    /// The byte views of xxd (-p, -i) show exactly the bytes asked for: no resynchronising.
    pub(super) exact: bool,
    pub(super) skip: u64,
    pub(super) length: Option<u64>,
    /// The absolute offset of the next byte to arrive.
    pub(super) position: u64,
    /// The last bytes skipped (up to 5): a lead byte among them may reach into the window.
    pub(super) behind: Vec<u8>,
    /// Continuation bytes still to drop to resynchronise, and where the sequence started.
    pub(super) resync: Option<(usize, u64, u8)>,
    pub(super) has_started: bool,
    pub(super) has_ended: bool,
}

/// A unit is at most 6 bytes: this many bytes past the window's end decide the last one.
pub(super) const LOOKAHEAD: u64 = 5;

impl Window {
    pub(super) fn new(skip: u64, length: Option<u64>, exact: bool) -> Window {
        Window {
            exact,
            skip,
            length,
            position: 0,
            behind: Vec::new(),
            resync: None,
            has_started: skip == 0,
            has_ended: false,
        }
    }

    /// Where the window ends (saturating: `-n` as large as the offsets go means "to the end").
    pub(super) fn end(&self) -> Option<u64> {
        self.length.map(|length| self.skip.saturating_add(length))
    }

    pub(super) fn feed(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        scanner: &mut Scanner,
        feeder: &mut Feeder<'_>,
    ) -> ControlFlow<()> {
        if self.has_ended {
            return ControlFlow::Break(());
        }
        let mut chunk = chunk;
        if !self.has_started {
            let skipped = chunk.len().min((self.skip - self.position) as usize);
            self.behind.extend_from_slice(&chunk[..skipped]);
            let excess = self.behind.len().saturating_sub(5);
            self.behind.drain(..excess);
            self.position += skipped as u64;
            chunk = &chunk[skipped..];
            if self.position < self.skip {
                return ControlFlow::Continue(());
            }
            self.has_started = true;
            self.resync = inside_sequence(&self.behind)
                .map(|(remaining, distance, lead)| (remaining, self.skip - distance as u64, lead));
            if self.resync.is_none() {
                feeder.base = self.position;
            }
        }
        if let Some((remaining, start, lead)) = self.resync {
            let mut dropped = 0;
            while dropped < remaining && dropped < chunk.len() && is_continuation(chunk[dropped]) {
                dropped += 1;
            }
            if self.exact {
                // Shown, but not given to the scanner, which would take them for stray bytes;
                // as many as the window holds.
                let room = self
                    .end()
                    .map_or(u64::MAX, |end| end.saturating_sub(self.position));
                let shown = dropped.min(usize::try_from(room).unwrap_or(usize::MAX));
                if self.position == self.skip && shown > 0 {
                    let note = format!(
                        "offset 0x{:x} is inside the sequence that starts at offset 0x{start:x} \
                         with lead byte {lead:02x}: its bytes before the window are not shown",
                        self.skip
                    );
                    if feeder.note(&note).is_err() {
                        return ControlFlow::Break(());
                    }
                }
                if feeder.continued(self.position, &chunk[..shown]).is_break() {
                    return ControlFlow::Break(());
                }
            }
            chunk = &chunk[dropped..];
            self.position += dropped as u64;
            let still = remaining - dropped;
            if still > 0 && chunk.is_empty() && !is_last {
                self.resync = Some((still, start, lead));
                return ControlFlow::Continue(());
            }
            self.resync = None;
            if !self.exact {
                let note = format!(
                    "offset 0x{:x} is inside the sequence that starts at offset 0x{start:x} \
                     with lead byte {lead:02x}: resynchronised at offset 0x{:x}",
                    self.skip, self.position
                );
                if feeder.note(&note).is_err() {
                    return ControlFlow::Break(());
                }
            }
            feeder.base = self.position;
            if self.exact && self.end().is_some_and(|end| self.position >= end) {
                self.has_ended = true;
                return ControlFlow::Break(());
            }
        }
        if let Some(window_end) = self.end() {
            feeder.end = Some(window_end);
            let limit = window_end.saturating_add(LOOKAHEAD);
            let room = usize::try_from(limit.saturating_sub(self.position)).unwrap_or(usize::MAX);
            if chunk.len() >= room {
                self.has_ended = true;
                // The window is complete whatever the scanner says: stop reading either way.
                let _ = scanner.feed(&chunk[..room], true, feeder);
                self.position += room as u64;
                return ControlFlow::Break(());
            }
        }
        self.position += chunk.len() as u64;
        scanner.feed(chunk, is_last, feeder)
    }
}

/// Whether bytes just before the window hold a lead byte whose sequence reaches into it: the
/// continuation bytes still to drop, how far back the lead is, and the lead.
pub(super) fn inside_sequence(behind: &[u8]) -> Option<(usize, usize, u8)> {
    let lead_at = behind.iter().rposition(|&b| !is_continuation(b))?;
    let lead = behind[lead_at];
    let distance = behind.len() - lead_at;
    let declared = declared_len(lead).filter(|&n| n > 1)?;
    (declared > distance).then(|| (declared - distance, distance, lead))
}
