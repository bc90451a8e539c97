//! What a view is (`View`), and the colours every view paints with.

use super::*;

/// A way of showing units.
pub(super) trait View {
    /// Shows one unit.
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()>;

    /// Shows a run of ASCII bytes starting at `offset`, one unit each. Views override it with
    /// a faster path; this one goes unit by unit.
    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        for (i, &byte) in run.iter().enumerate() {
            self.unit(
                out,
                &Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                },
            )?;
        }
        Ok(())
    }

    /// Shows a well-formed run of text starting at `offset`. Views override it with a faster
    /// path; this one goes through [`text_by_units`].
    fn text_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        text_by_units(self, out, offset, run)
    }

    /// The last bytes of a character that starts before an exact window (`-x`, `-p`, `-i`),
    /// which show every byte asked for. Views that resynchronise instead never get them; this
    /// shows them as the scanner would, one ill-formed byte each.
    fn continued(&mut self, out: &mut dyn WriteColor, offset: u64, bytes: &[u8]) -> io::Result<()> {
        for (i, byte) in bytes.iter().enumerate() {
            self.unit(
                out,
                &Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(byte),
                    kind: UnitKind::InvalidByte,
                    codepoint: None,
                },
            )?;
        }
        Ok(())
    }

    /// The unit at `offset` is a letter of a mixed-script word in another script than the
    /// word's first (SPEC 1.6): views that show characters one a line say so beside it.
    fn mark_script(&mut self, offset: u64, script: &'static str) {
        let _ = (offset, script);
    }

    /// A remark about the input, on a `#` line.
    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        writeln!(out, "# {text}")
    }

    /// Writes the whole lines a view holds back, before something else is written to `out`.
    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        let _ = out;
        Ok(())
    }

    /// The input has ended.
    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        let _ = out;
        Ok(())
    }
}

/// The colours of the views: one table from what a byte or unit is to how it looks.
pub(super) struct Palette {
    pub(super) offset: ColorSpec,
    pub(super) control: ColorSpec,
    pub(super) multibyte: ColorSpec,
    pub(super) ill_formed: ColorSpec,
    pub(super) marker: ColorSpec,
}

impl Palette {
    pub(super) fn new() -> Palette {
        let spec = |color: Color, bold: bool| {
            let mut spec = ColorSpec::new();
            spec.set_fg(Some(color)).set_bold(bold);
            spec
        };
        Palette {
            offset: spec(Color::Blue, false),
            control: spec(Color::Green, false),
            multibyte: spec(Color::Yellow, false),
            ill_formed: spec(Color::Red, true),
            marker: spec(Color::Cyan, false),
        }
    }

    /// The colour of a unit, or `None` for plain ASCII.
    pub(super) fn of(&self, unit: &Unit<'_>) -> Option<&ColorSpec> {
        match (unit.kind, unit.codepoint) {
            (UnitKind::Char, Some(cp)) if cp < 0x20 || cp == 0x7F || cp == 0x20 => {
                Some(&self.control)
            }
            (UnitKind::Char, Some(cp)) if cp < 0x80 => None,
            (UnitKind::Char, _) => Some(&self.multibyte),
            _ => Some(&self.ill_formed),
        }
    }
}

/// Writes `text` in `spec` when colour is on.
pub(super) fn paint(
    out: &mut dyn WriteColor,
    spec: Option<&ColorSpec>,
    text: &str,
) -> io::Result<()> {
    match spec {
        Some(spec) if out.supports_color() => {
            out.set_color(spec)?;
            out.write_all(text.as_bytes())?;
            out.reset()
        }
        _ => out.write_all(text.as_bytes()),
    }
}
