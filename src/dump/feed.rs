//! Feeding the views: the scanner's units, whole or in runs of ASCII, and the window's notes.

use super::*;
use utf8kit_codec::unit::UnitBytes;

/// One unit as the views see it.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    /// Its offset in the input.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// What it is.
    pub kind: UnitKind,
    /// Its code point, where it has one.
    pub codepoint: Option<u32>,
}

/// A unit kept for `--errors-only -C`.
#[derive(Clone, Copy, Debug)]
pub(super) struct OwnedUnit {
    pub(super) offset: u64,
    pub(super) bytes: UnitBytes,
    pub(super) kind: UnitKind,
    pub(super) codepoint: Option<u32>,
}

impl OwnedUnit {
    pub(super) fn of(unit: &Unit<'_>) -> OwnedUnit {
        OwnedUnit {
            offset: unit.offset,
            bytes: UnitBytes::new(unit.bytes),
            kind: unit.kind,
            codepoint: unit.codepoint,
        }
    }

    pub(super) fn unit(&self) -> Unit<'_> {
        Unit {
            offset: self.offset,
            bytes: self.bytes.as_bytes(),
            kind: self.kind,
            codepoint: self.codepoint,
        }
    }
}

/// Turns the scanner's text runs and findings into units for a view.
pub(super) struct Feeder<'a> {
    pub(super) view: &'a mut dyn View,
    pub(super) out: &'a mut dyn WriteColor,
    /// The absolute offset of the first byte fed to the scanner.
    pub(super) base: u64,
    /// Units starting at or after this absolute offset are past the window.
    pub(super) end: Option<u64>,
    pub(super) error: Option<io::Error>,
    pub(super) notes: Vec<String>,
    pub(super) notes_in_output: bool,
    /// The window ends at its last byte, even inside a unit (the byte views of xxd).
    pub(super) exact: bool,
}

impl Feeder<'_> {
    pub(super) fn note(&mut self, text: &str) -> io::Result<()> {
        if self.notes_in_output {
            self.view.note(self.out, text)
        } else {
            self.notes.push(text.to_owned());
            Ok(())
        }
    }

    pub(super) fn continued(&mut self, offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        if bytes.is_empty() {
            return ControlFlow::Continue(());
        }
        match self.view.continued(self.out, offset, bytes) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }

    pub(super) fn unit(&mut self, unit: &Unit<'_>) -> ControlFlow<()> {
        if self.end.is_some_and(|end| unit.offset >= end) {
            return ControlFlow::Break(());
        }
        let mut unit = *unit;
        if let (true, Some(end)) = (self.exact, self.end) {
            let room = usize::try_from(end - unit.offset).unwrap_or(usize::MAX);
            unit.bytes = &unit.bytes[..unit.bytes.len().min(room)];
        }
        match self.view.unit(self.out, &unit) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }
}

impl Sink for Feeder<'_> {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let offset = self.base + byte_offset;
        let mut run = bytes;
        let mut ends_window = false;
        // A character the window cuts, shown in part by the exact views.
        let mut cut_char = None;
        if let Some(end) = self.end {
            let room = end.saturating_sub(offset) as usize;
            if room < run.len() {
                // The units that start before the end of the window are shown whole (but for
                // the exact views, which stop at the last byte asked for).
                let whole = room
                    + run[room..]
                        .iter()
                        .take_while(|&&b| is_continuation(b))
                        .count();
                let cut = if self.exact && whole > room {
                    let lead = run[..room]
                        .iter()
                        .rposition(|&b| !is_continuation(b))
                        .unwrap_or(0);
                    cut_char = Some((lead, room, whole));
                    lead
                } else if self.exact {
                    room
                } else {
                    whole
                };
                run = &run[..cut];
                ends_window = true;
            }
        }
        if let Err(error) = self.view.text_run(self.out, offset, run) {
            self.error = Some(error);
            return ControlFlow::Break(());
        }
        if let Some((lead, room, whole)) = cut_char {
            let (_, kind, codepoint) = next_unit(&bytes[lead..whole]);
            let part = Unit {
                offset: offset + lead as u64,
                bytes: &bytes[lead..room],
                kind,
                codepoint,
            };
            if let Err(error) = self.view.unit(self.out, &part) {
                self.error = Some(error);
                return ControlFlow::Break(());
            }
        }
        if ends_window {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let kind = match finding.kind {
            FindingKind::IllFormed(kind) => kind,
            // A mixed-script word (the unit view asks for them): its characters as text, each
            // odd letter marked with its script.
            FindingKind::Lint(Lint::MixedScript) => {
                let word = String::from_utf8_lossy(finding.bytes);
                let mut at = self.base + finding.position.byte_offset;
                for (c, script) in crate::mixed_script::odd_letters(&word) {
                    if let Some(script) = script {
                        self.view.mark_script(at, script);
                    }
                    at += c.len_utf8() as u64;
                }
                return self.text(finding.position.byte_offset, finding.bytes);
            }
            // No other lint or mark detection is configured for a dump.
            _ => UnitKind::InvalidByte,
        };
        self.unit(&Unit {
            offset: self.base + finding.position.byte_offset,
            bytes: finding.bytes,
            kind,
            codepoint: finding.codepoint,
        })
    }
}

/// The first unit of a non-empty well-formed run, whose lead byte is not ASCII: its length,
/// kind and code point, as the codec's scan gives them (the scanner has checked the run, so it
/// is one character; the views have no decoder of their own).
#[inline]
pub(super) fn next_unit(bytes: &[u8]) -> (usize, UnitKind, Option<u32>) {
    let unit = scan_unit(bytes, true).expect("a final scan always decides");
    (unit.len, unit.kind, unit.codepoint)
}

/// Shows a well-formed run of text through a view's `ascii_run` and `unit`: its ASCII runs,
/// then each other character as a unit.
pub(super) fn text_by_units<V: View + ?Sized>(
    view: &mut V,
    out: &mut dyn WriteColor,
    offset: u64,
    run: &[u8],
) -> io::Result<()> {
    let mut at = 0;
    while at < run.len() {
        let ascii = run[at..].iter().take_while(|b| b.is_ascii()).count();
        if ascii > 0 {
            view.ascii_run(out, offset + at as u64, &run[at..at + ascii])?;
            at += ascii;
            continue;
        }
        let (len, kind, codepoint) = next_unit(&run[at..]);
        view.unit(
            out,
            &Unit {
                offset: offset + at as u64,
                bytes: &run[at..at + len],
                kind,
                codepoint,
            },
        )?;
        at += len;
    }
    Ok(())
}
