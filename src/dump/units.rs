//! The default view: one line per unit, with `--names`, `--bits` or `--octal`.

use super::*;

pub(super) const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `value` in lowercase (or uppercase) hex, at least `digits` digits, without the
/// formatting machinery: it was a visible part of the dump's profile.
pub(super) fn push_hex_number(line: &mut String, value: u64, digits: usize, upper: bool) {
    let table: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { HEX };
    let needed = ((64 - value.leading_zeros() as usize).div_ceil(4)).max(digits);
    for i in (0..needed).rev() {
        line.push(char::from(table[(value >> (i * 4) & 15) as usize]));
    }
}

/// The default view: one unit a line.
pub(super) struct UnitLines {
    pub(super) bytes_as: BytesAs,
    /// Uppercase hex digits for bytes (`-u`).
    pub(super) upper: bool,
    pub(super) names: bool,
    pub(super) palette: Palette,
    pub(super) line: String,
    /// Lines without colour, waiting to be written (64 KiB at a time).
    pub(super) lines: Vec<u8>,
    /// The odd letters of mixed-script words still to be shown: their offsets and scripts.
    pub(super) marks: std::collections::VecDeque<(u64, &'static str)>,
}

/// The width of the bytes column: four bytes in the chosen notation (longer units overflow it).
pub(super) fn bytes_column_width(bytes_as: BytesAs) -> usize {
    match bytes_as {
        BytesAs::Hex => 11,
        BytesAs::Octal => 15,
        BytesAs::Bits => 39,
    }
}

/// One byte in binary with its marker bits apart: `0_1100001`, `10_000010`, `1110_0010`.
pub(super) fn push_bits(line: &mut String, byte: u8) {
    let marker = match byte {
        0x00..=0x7F => 1,
        0x80..=0xBF => 2,
        0xC0..=0xDF => 3,
        0xE0..=0xEF => 4,
        0xF0..=0xF7 => 5,
        0xF8..=0xFB => 6,
        0xFC..=0xFD => 7,
        _ => 8,
    };
    for bit in (0..8).rev() {
        // After the `marker` leading bits, before the payload (FE and FF have none).
        if marker < 8 && bit == 7 - marker {
            line.push('_');
        }
        line.push(if byte >> bit & 1 == 1 { '1' } else { '0' });
    }
}

impl UnitLines {
    pub(super) fn bytes_text(&self, unit: &Unit<'_>) -> String {
        let mut text = String::new();
        for (i, &byte) in unit.bytes.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            match self.bytes_as {
                BytesAs::Hex => push_hex_number(&mut text, u64::from(byte), 2, self.upper),
                BytesAs::Octal => {
                    let _ = write!(text, "{byte:03o}");
                }
                BytesAs::Bits => push_bits(&mut text, byte),
            }
        }
        text
    }
}

impl UnitLines {
    /// The line without colour, built in one buffer and written once.
    pub(super) fn plain(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        push_hex_number(line, unit.offset, 8, false);
        line.push_str("  ");
        let start = line.len();
        for (i, &byte) in unit.bytes.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            match self.bytes_as {
                BytesAs::Hex => push_hex_number(line, u64::from(byte), 2, self.upper),
                BytesAs::Octal => {
                    let _ = write!(line, "{byte:03o}");
                }
                BytesAs::Bits => push_bits(line, byte),
            }
        }
        let width = bytes_column_width(self.bytes_as);
        let used = line.len() - start;
        line.extend(std::iter::repeat_n(' ', width.saturating_sub(used) + 2));
        let start = line.len();
        match unit.codepoint {
            Some(cp) => {
                line.push_str("U+");
                push_hex_number(line, u64::from(cp), 4, true);
            }
            None => line.push('-'),
        }
        let used = line.len() - start;
        line.extend(std::iter::repeat_n(' ', 10usize.saturating_sub(used)));
        let shown_width = match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) if (' '..='~').contains(&c) => {
                line.push(c);
                1
            }
            (UnitKind::Char, Some(c)) => shown(c).push_to(line),
            (kind, _) => {
                line.push_str(kind.as_str());
                kind.as_str().len()
            }
        };
        if self.names {
            self.push_name(unit, shown_width);
        }
        self.push_mark(unit, shown_width);
        self.line.push('\n');
        self.lines.extend_from_slice(self.line.as_bytes());
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    /// After an odd letter of a mixed-script word: `mixed-script: Cyrillic`.
    pub(super) fn push_mark(&mut self, unit: &Unit<'_>, shown_width: usize) {
        while self.marks.front().is_some_and(|&(at, _)| at < unit.offset) {
            self.marks.pop_front();
        }
        if let Some(&(at, script)) = self.marks.front()
            && at == unit.offset
        {
            self.marks.pop_front();
            let pad = if self.names {
                2
            } else {
                12usize.saturating_sub(shown_width).max(1)
            };
            self.line.extend(std::iter::repeat_n(' ', pad));
            let _ = write!(self.line, "mixed-script: {script}");
        }
    }

    pub(super) fn push_name(&mut self, unit: &Unit<'_>, shown_width: usize) {
        let line = &mut self.line;
        let pad = 12usize.saturating_sub(shown_width);
        line.extend(std::iter::repeat_n(' ', pad.max(1)));
        match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => line.push_str(&char_name(c)),
            (kind, _) => {
                let finding = crate::report::Finding {
                    position: Position::START,
                    kind: crate::report::FindingKind::IllFormed(kind),
                    bytes: unit.bytes,
                    codepoint: unit.codepoint,
                };
                let _ = write!(line, "{}", Detail(&finding));
            }
        }
    }
}

impl View for UnitLines {
    fn mark_script(&mut self, offset: u64, script: &'static str) {
        self.marks.push_back((offset, script));
    }

    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        let marked = !self.marks.is_empty();
        if out.supports_color()
            || self.names
            || self.upper
            || self.bytes_as != BytesAs::Hex
            || marked
        {
            for (i, &byte) in run.iter().enumerate() {
                let unit = Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                };
                self.unit(out, &unit)?;
            }
            return Ok(());
        }
        // "OFFSET  hh           U+00HH    c", put together on the stack and appended once.
        for (i, &byte) in run.iter().enumerate() {
            let Ok(at) = u32::try_from(offset + i as u64) else {
                let unit = Unit {
                    offset: offset + i as u64,
                    bytes: std::slice::from_ref(&run[i]),
                    kind: UnitKind::Char,
                    codepoint: Some(u32::from(byte)),
                };
                self.plain(out, &unit)?;
                continue;
            };
            let mut line = *b"00000000  hh           U+00HH    \0\0\0\0";
            put_offset(&mut line[..8], at);
            line[10..12].copy_from_slice(&HEX_CELLS[usize::from(byte)][..2]);
            line[27] = b"0123456789ABCDEF"[usize::from(byte >> 4)];
            line[28] = b"0123456789ABCDEF"[usize::from(byte & 15)];
            let len = if (0x20..0x7F).contains(&byte) {
                line[33] = byte;
                34
            } else {
                // A control: its picture (U+2400..U+2421), three bytes.
                let Shown::Picture(picture) = shown(char::from(byte)) else {
                    unreachable!("an ASCII control is shown as its picture")
                };
                picture.encode_utf8(&mut line[33..36]);
                36
            };
            line[len] = b'\n';
            self.lines.extend_from_slice(&line[..=len]);
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        Ok(())
    }

    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        let colour = out.supports_color();
        if !colour {
            return self.plain(out, unit);
        }
        write_lines(out, &mut self.lines)?;
        let bytes = self.bytes_text(unit);
        let line = &mut self.line;
        line.clear();
        let _ = write!(line, "{:08x}", unit.offset);
        if colour {
            paint(out, Some(&self.palette.offset), line)?;
            line.clear();
        }
        line.push_str("  ");
        let width = bytes_column_width(self.bytes_as);
        if colour && self.bytes_as == BytesAs::Bits {
            out.write_all(line.as_bytes())?;
            line.clear();
            for (i, part) in bytes.split(' ').enumerate() {
                if i > 0 {
                    out.write_all(b" ")?;
                }
                let (marker, payload) = part.split_once('_').unwrap_or((part, ""));
                paint(out, Some(&self.palette.marker), marker)?;
                if !payload.is_empty() {
                    out.write_all(b"_")?;
                    out.write_all(payload.as_bytes())?;
                }
            }
            let pad = width.saturating_sub(bytes.len());
            line.extend(std::iter::repeat_n(' ', pad));
        } else {
            let _ = write!(line, "{bytes:<width$}");
        }
        line.push_str("  ");
        match unit.codepoint {
            Some(cp) => {
                let _ = write!(line, "{:<10}", format!("U+{cp:04X}"));
            }
            None => line.push_str("-         "),
        }
        out.write_all(line.as_bytes())?;
        line.clear();
        let spec = self.palette.of(unit);
        let shown_width = match (unit.kind, unit.codepoint.and_then(char::from_u32)) {
            (UnitKind::Char, Some(c)) => {
                let shown_width = shown(c).push_to(line);
                paint(
                    out,
                    spec.filter(|_| unit.bytes.len() > 1 || c.is_ascii_control()),
                    line,
                )?;
                shown_width
            }
            (kind, _) => {
                paint(out, spec, kind.as_str())?;
                kind.as_str().len()
            }
        };
        line.clear();
        if self.names {
            self.push_name(unit, shown_width);
        }
        self.push_mark(unit, shown_width);
        let line = &mut self.line;
        line.push('\n');
        out.write_all(line.as_bytes())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        write_lines(out, &mut self.lines)?;
        writeln!(out, "# {text}")
    }

    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }
}
