//! The escaped text (`-e`): the input as text, every byte that is not UTF-8 as `\xhh`.

use super::*;

/// `-e`: the text itself, with ill-formed bytes as `\xhh` and invisible characters escaped.
pub(super) struct Escaped {
    pub(super) palette: Palette,
    pub(super) pending: String,
}

impl Escaped {
    pub(super) fn flush(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        out.write_all(self.pending.as_bytes())?;
        self.pending.clear();
        Ok(())
    }
}

impl View for Escaped {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => {
                let hidden = (c.is_control() && c != '\n' && c != '\t') || is_invisible(c);
                if hidden {
                    self.flush(out)?;
                    let text = format!("\\u{{{:x}}}", u32::from(c));
                    paint(out, Some(&self.palette.control), &text)?;
                } else {
                    self.pending.push(c);
                    if self.pending.len() >= 8192 {
                        self.flush(out)?;
                    }
                }
            }
            _ => {
                self.flush(out)?;
                let mut text = String::new();
                for &byte in unit.bytes {
                    crate::render::push_byte_escape(&mut text, byte);
                }
                paint(out, Some(&self.palette.ill_formed), &text)?;
            }
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.flush(out)?;
        writeln!(out, "# {text}")
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.flush(out)
    }
}
