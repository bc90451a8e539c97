//! `--errors-only`: the unit lines of the ill-formed units and their context.

use super::*;

/// `--errors-only`: ill-formed units and `context` units around each, groups apart by `--`.
pub(super) struct ErrorsOnly {
    pub(super) inner: Box<dyn View>,
    pub(super) context: usize,
    pub(super) before: VecDeque<OwnedUnit>,
    pub(super) after: usize,
    /// The end offset of the last unit shown, to know when a `--` separates groups.
    pub(super) shown_until: Option<u64>,
    /// Write `--` between groups, as grep does (not in JSON Lines).
    pub(super) separates: bool,
}

impl ErrorsOnly {
    pub(super) fn new(inner: Box<dyn View>, context: usize, separates: bool) -> ErrorsOnly {
        ErrorsOnly {
            inner,
            context,
            before: VecDeque::new(),
            after: 0,
            shown_until: None,
            separates,
        }
    }

    pub(super) fn show(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        if self.separates && self.shown_until.is_some_and(|end| end < unit.offset) {
            self.inner.write_pending(out)?;
            writeln!(out, "--")?;
        }
        self.shown_until = Some(unit.offset + unit.bytes.len() as u64);
        self.inner.unit(out, unit)
    }
}

impl View for ErrorsOnly {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        if unit.kind.is_ill_formed() {
            while let Some(kept) = self.before.pop_front() {
                self.show(out, &kept.unit())?;
            }
            self.after = self.context;
            return self.show(out, unit);
        }
        if self.after > 0 {
            self.after -= 1;
            return self.show(out, unit);
        }
        if self.context > 0 {
            if self.before.len() == self.context {
                self.before.pop_front();
            }
            self.before.push_back(OwnedUnit::of(unit));
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.inner.note(out, text)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.inner.finish(out)
    }
}
