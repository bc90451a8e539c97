//! JSON lines (`--format json`): one object per unit.

use super::*;

/// `--format json`: one object per unit.
pub(super) struct JsonUnits {
    pub(super) line: String,
}

impl View for JsonUnits {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.line.clear();
        push_unit_json(
            &mut self.line,
            unit.offset,
            unit.bytes,
            unit.kind,
            unit.codepoint,
        );
        self.line.push('\n');
        out.write_all(self.line.as_bytes())
    }

    fn note(&mut self, _out: &mut dyn WriteColor, _text: &str) -> io::Result<()> {
        Ok(()) // JSON Lines hold units only; notes go to standard error
    }
}
