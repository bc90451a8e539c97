//! `--stats`: counts of units by kind and width.

use super::*;

/// `--stats`: counts.
#[derive(Debug, Default)]
pub(super) struct Stats {
    pub(super) bytes: u64,
    pub(super) ascii_bytes: u64,
    pub(super) chars_by_len: [u64; 5],
    pub(super) ill_formed: Vec<(UnitKind, u64)>,
    pub(super) lines: u64,
    pub(super) line_units: u64,
    pub(super) line_bytes: u64,
    pub(super) longest: (u64, u64, u64),
    pub(super) ends_with_newline: bool,
}

impl View for Stats {
    fn unit(&mut self, _out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let len = unit.bytes.len() as u64;
        self.bytes += len;
        self.ascii_bytes += unit.bytes.iter().filter(|b| b.is_ascii()).count() as u64;
        match unit.kind {
            UnitKind::Char => self.chars_by_len[unit.bytes.len()] += 1,
            kind => match self.ill_formed.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => self.ill_formed.push((kind, 1)),
            },
        }
        self.line_units += 1;
        self.line_bytes += len;
        self.ends_with_newline = unit.bytes == b"\n";
        if self.ends_with_newline {
            self.end_line();
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.line_bytes > 0 {
            self.end_line();
        }
        let chars: u64 = self.chars_by_len.iter().sum();
        let ill: u64 = self.ill_formed.iter().map(|(_, n)| n).sum();
        self.ill_formed.sort();
        let share = if self.bytes == 0 {
            0.0
        } else {
            100.0 * self.ascii_bytes as f64 / self.bytes as f64
        };
        let mut text = String::new();
        let _ = writeln!(text, "bytes             {:>12}", self.bytes);
        let _ = writeln!(text, "units             {:>12}", chars + ill);
        let _ = writeln!(text, "  characters      {chars:>12}");
        for (len, n) in self.chars_by_len.iter().enumerate().skip(1) {
            let _ = writeln!(text, "    {len}-byte        {n:>12}");
        }
        let _ = writeln!(text, "  ill-formed      {ill:>12}");
        for (kind, n) in &self.ill_formed {
            let _ = writeln!(text, "    {:<14}{n:>12}", kind.as_str());
        }
        let _ = writeln!(text, "lines             {:>12}", self.lines);
        let (line, units, bytes) = self.longest;
        let _ = writeln!(
            text,
            "longest line      {units:>12} units ({bytes} bytes), line {line}"
        );
        let _ = writeln!(text, "ASCII share       {share:>11.1}%");
        out.write_all(text.as_bytes())
    }
}

impl Stats {
    pub(super) fn end_line(&mut self) {
        self.lines += 1;
        // The line's own units, without its line feed.
        let units = self.line_units - u64::from(self.ends_with_newline);
        let bytes = self.line_bytes - u64::from(self.ends_with_newline);
        if units > self.longest.1 || self.longest.0 == 0 {
            self.longest = (self.lines, units, bytes);
        }
        self.line_units = 0;
        self.line_bytes = 0;
    }
}
