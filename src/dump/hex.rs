//! The hex panel (`-x`, `-i`): rows of bytes beside their text, as xxd and hexyl show them.

use super::*;

/// `-x`: hexdump -C, with a text panel that shows each character at its lead byte.
///
/// Without colour, rows are built in a buffer of bytes and written 64 KiB at a time: the view
/// writes five bytes for each it reads, and its speed is the speed of this code.
pub(super) struct HexRows {
    pub(super) palette: Palette,
    /// Whether the output takes colour: asked once, at the first unit.
    pub(super) colour: Option<bool>,
    /// How rows are laid out (`-c`, `-g`, `-u`).
    pub(super) layout: RowLayout,
    /// The row under way: the offset of its first byte, and its `row_len` bytes.
    pub(super) row_offset: u64,
    pub(super) row: Vec<(u8, Class)>,
    pub(super) row_len: usize,
    /// The text panel of the row, and (in colour) where each cell starts in it.
    pub(super) panel: String,
    pub(super) cells: Vec<(usize, Class)>,
    /// Rows without colour, waiting to be written.
    pub(super) lines: Vec<u8>,
    /// Cells that the glyph drawn at a lead byte already covers: the next bytes of its
    /// character in this row draw none.
    pub(super) covered: usize,
    /// The last characters shown, by code point modulo its length: multilingual text repeats
    /// few characters, and deciding how one is shown was a tenth of the view's time.
    pub(super) seen: Box<[Glyph; SEEN_LEN]>,
}

/// How the rows of `-x` are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RowLayout {
    /// Bytes a row.
    pub(super) cols: usize,
    /// Bytes a group, written together (`-g`); `None` for hexdump -C's single bytes with a gap
    /// every 8.
    pub(super) group: Option<usize>,
    /// Uppercase hex digits.
    pub(super) upper: bool,
}

impl RowLayout {
    /// hexdump -C's rows, which have the fast paths.
    const HEXDUMP: RowLayout = RowLayout {
        cols: 16,
        group: None,
        upper: false,
    };

    /// What goes before the byte at `i` of a row.
    pub(super) fn separator(&self, i: usize) -> &'static str {
        match self.group {
            _ if i == 0 => "",
            None if i.is_multiple_of(8) => "  ",
            None => " ",
            Some(group) if group > 0 && i.is_multiple_of(group) => " ",
            Some(_) => "",
        }
    }
}

/// How a byte or cell is coloured in the hex view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    Ascii,
    Control,
    Multibyte,
    IllFormed,
}

/// Each byte in two lowercase hex digits and a space, and one more space, so that a cell is
/// written with one four-byte store (the next cell overwrites the fourth byte).
pub(super) static HEX_CELLS: [[u8; 4]; 256] = {
    let mut cells = [[b' '; 4]; 256];
    let mut byte = 0;
    while byte < 256 {
        cells[byte][0] = HEX[byte >> 4];
        cells[byte][1] = HEX[byte & 15];
        byte += 1;
    }
    cells
};

/// How a character looks in the text panel: its UTF-8 bytes (a combining mark after a dotted
/// circle) and its width; '.' for what is never shown raw.
#[derive(Clone, Copy)]
pub(super) struct Glyph {
    pub(super) c: char,
    pub(super) bytes: [u8; 8],
    pub(super) len: u8,
    pub(super) width: u8,
}

impl Glyph {
    pub(super) fn of(c: char) -> Glyph {
        let mut bytes = [0; 8];
        let (len, width) = match shown(c) {
            Shown::Plain(c, width) => (c.encode_utf8(&mut bytes).len(), width),
            Shown::Combining(c) => {
                let circle = '◌'.encode_utf8(&mut bytes).len();
                (circle + c.encode_utf8(&mut bytes[circle..]).len(), 1)
            }
            Shown::Picture(_) | Shown::Escaped(_) | Shown::Tag(_) => {
                bytes[0] = b'.';
                (1, 1)
            }
        };
        Glyph {
            c,
            bytes,
            len: len as u8,
            width: width as u8,
        }
    }
}

/// How many characters `HexRows` remembers how to show.
pub(super) const SEEN_LEN: usize = 512;

/// Plain lines are written once this much is waiting.
pub(super) const LINES_LEN: usize = 64 * 1024;

/// Writes the lines a view held back, and forgets them.
pub(super) fn write_lines(out: &mut dyn WriteColor, lines: &mut Vec<u8>) -> io::Result<()> {
    if !lines.is_empty() {
        out.write_all(lines)?;
        lines.clear();
    }
    Ok(())
}

impl HexRows {
    pub(super) fn new(palette: Palette, layout: RowLayout) -> HexRows {
        HexRows {
            palette,
            colour: None,
            layout,
            row_offset: 0,
            row: vec![(0, Class::Ascii); layout.cols],
            row_len: 0,
            panel: String::with_capacity(64),
            cells: Vec::with_capacity(16),
            lines: Vec::with_capacity(LINES_LEN + 256),
            covered: 0,
            seen: Box::new([Glyph::of('\0'); SEEN_LEN]),
        }
    }

    pub(super) fn is_coloured(&mut self, out: &mut dyn WriteColor) -> bool {
        *self.colour.get_or_insert_with(|| out.supports_color())
    }

    pub(super) fn class_spec(&self, class: Class) -> Option<&ColorSpec> {
        match class {
            Class::Ascii => None,
            Class::Control => Some(&self.palette.control),
            Class::Multibyte => Some(&self.palette.multibyte),
            Class::IllFormed => Some(&self.palette.ill_formed),
        }
    }

    pub(super) fn flush_row(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.row_len == 0 {
            return Ok(());
        }
        let offset = self.row_offset;
        if self.colour == Some(true) || self.layout != RowLayout::HEXDUMP {
            return self.flush_laid_out(out, offset);
        }
        let bytes: [u8; 16] = std::array::from_fn(|i| self.row[i].0);
        let mut start = [0; 64];
        let from = row_start(&mut start, &mut self.lines, offset, &bytes[..self.row_len]);
        self.lines.extend_from_slice(&start[from..61]);
        self.lines.extend_from_slice(self.panel.as_bytes());
        self.lines.extend_from_slice(b"|\n");
        self.row_len = 0;
        self.panel.clear();
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    /// A row in colour, or in another layout than hexdump -C's: its offset, then each byte after
    /// the layout's separator (blanks past the end of a short row), then the text panel. Without
    /// colour the row joins the held-back lines; with colour each piece is painted.
    pub(super) fn flush_laid_out(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
    ) -> io::Result<()> {
        let coloured = self.colour == Some(true);
        let mut line = String::with_capacity(16 + 3 * self.layout.cols + self.panel.len());
        // The coloured pieces of the line: where each is, and its class (`None`: the offset).
        let mut pieces: Vec<(std::ops::Range<usize>, Option<Class>)> = Vec::new();
        push_hex_number(&mut line, offset, 8, false);
        if coloured {
            pieces.push((0..line.len(), None));
        }
        line.push_str("  ");
        for i in 0..self.layout.cols {
            line.push_str(self.layout.separator(i));
            match self.row[..self.row_len].get(i) {
                Some(&(byte, class)) => {
                    let from = line.len();
                    push_hex_number(&mut line, u64::from(byte), 2, self.layout.upper);
                    if coloured {
                        pieces.push((from..line.len(), Some(class)));
                    }
                }
                None => line.push_str("  "),
            }
        }
        line.push_str("  |");
        let panel_start = line.len();
        line.push_str(&self.panel);
        for (i, &(start, class)) in self.cells.iter().enumerate() {
            let end = self.cells.get(i + 1).map_or(self.panel.len(), |c| c.0);
            pieces.push((panel_start + start..panel_start + end, Some(class)));
        }
        line.push_str("|\n");
        if coloured {
            write_lines(out, &mut self.lines)?;
            let mut at = 0;
            for (range, class) in pieces {
                let spec = class.map_or(Some(&self.palette.offset), |c| self.class_spec(c));
                out.write_all(&line.as_bytes()[at..range.start])?;
                paint(out, spec, &line[range.clone()])?;
                at = range.end;
            }
            out.write_all(&line.as_bytes()[at..])?;
        } else {
            self.lines.extend_from_slice(line.as_bytes());
        }
        self.row_len = 0;
        self.panel.clear();
        self.cells.clear();
        if self.lines.len() >= LINES_LEN {
            write_lines(out, &mut self.lines)?;
        }
        Ok(())
    }

    /// Starts a cell of the text panel (only colour needs to know where).
    pub(super) fn cell(&mut self, class: Class) {
        if self.colour == Some(true) {
            self.cells.push((self.panel.len(), class));
        }
    }

    /// Adds a byte to the row, starting one at `offset` if none is under way.
    #[inline]
    pub(super) fn push_byte(&mut self, offset: u64, byte: u8, class: Class) {
        if self.row_len == 0 {
            self.row_offset = offset;
        }
        self.row[self.row_len] = (byte, class);
        self.row_len += 1;
    }

    pub(super) fn ascii_byte(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
        byte: u8,
    ) -> io::Result<()> {
        let printable = (0x20..0x7F).contains(&byte);
        let class = if printable {
            Class::Ascii
        } else {
            Class::Control
        };
        self.push_byte(offset, byte, class);
        self.cell(class);
        self.panel
            .push(if printable { char::from(byte) } else { '.' });
        self.covered = 0;
        if self.row_len == self.layout.cols {
            self.flush_row(out)?;
        }
        Ok(())
    }

    /// How `c` looks in the panel, from the cache when it was seen lately.
    #[inline]
    pub(super) fn glyph(&mut self, c: char) -> Glyph {
        let slot = &mut self.seen[u32::from(c) as usize % SEEN_LEN];
        if slot.c != c {
            *slot = Glyph::of(c);
        }
        *slot
    }

    /// Draws `c` in the panel if its width fits in the `cells` its bytes have in this row, else
    /// '.'; returns how many of the next cells the glyph covers.
    pub(super) fn push_glyph(&mut self, c: char, cells: usize) -> usize {
        let glyph = self.glyph(c);
        if usize::from(glyph.width) <= cells {
            let bytes = &glyph.bytes[..usize::from(glyph.len)];
            self.panel
                .push_str(std::str::from_utf8(bytes).expect("encoded from a char"));
            usize::from(glyph.width) - 1
        } else {
            self.panel.push('.');
            0
        }
    }

    /// Whole rows of ASCII without colour: the common case of a text file.
    pub(super) fn ascii_rows(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
        rows: &[u8],
    ) -> io::Result<()> {
        for (r, row) in rows.chunks_exact(16).enumerate() {
            let mut line = [0u8; 61 + 16 + 2];
            let from = row_start(&mut line, &mut self.lines, offset + (r * 16) as u64, row);
            for (cell, &byte) in line[61..77].iter_mut().zip(row) {
                *cell = PANEL_ASCII[usize::from(byte)];
            }
            line[77..].copy_from_slice(b"|\n");
            self.lines.extend_from_slice(&line[from..]);
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        Ok(())
    }
}

/// Writes the fixed part of a row into `line[..61]`: its offset, its bytes in hex, and the
/// opening bar. An offset past 8 hex digits goes to `lines` instead, and the row's part then
/// starts at byte 10: returns where it starts.
pub(super) fn row_start(line: &mut [u8], lines: &mut Vec<u8>, offset: u64, bytes: &[u8]) -> usize {
    let line = &mut line[..64];
    line.fill(b' ');
    let from = match u32::try_from(offset) {
        Ok(offset) => {
            put_offset(&mut line[..8], offset);
            0
        }
        Err(_) => {
            push_row_start(lines, offset);
            10
        }
    };
    for (i, &byte) in bytes.iter().take(16).enumerate() {
        let at = 10 + 3 * i + usize::from(i >= 8);
        line[at..at + 4].copy_from_slice(&HEX_CELLS[usize::from(byte)]);
    }
    line[60] = b'|';
    from
}

/// Writes an offset below 4 GiB as eight lowercase hex digits, all eight at once in a `u64`
/// (every row has one).
pub(super) fn put_offset(digits: &mut [u8], offset: u32) {
    // Each four bits of the offset into a byte of their own, the lowest in the lowest byte.
    let mut x = u64::from(offset);
    x = (x & 0xFFFF_0000) << 16 | x & 0xFFFF;
    x = (x & 0x0000_FF00_0000_FF00) << 8 | x & 0x0000_00FF_0000_00FF;
    x = (x & 0x00F0_00F0_00F0_00F0) << 4 | x & 0x000F_000F_000F_000F;
    // '0' + n, and 'a' - '0' - 10 more where n is 10 or above (n + 6 carries into bit 4).
    let letters = (x + 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101;
    let ascii = x + 0x3030_3030_3030_3030 + letters * u64::from(b'a' - b'0' - 10);
    digits[..8].copy_from_slice(&ascii.to_be_bytes());
}

/// The offset of a row (eight hex digits or more) and the two spaces after it.
pub(super) fn push_row_start(lines: &mut Vec<u8>, offset: u64) {
    let digits = ((64 - offset.leading_zeros() as usize).div_ceil(4)).max(8);
    for i in (0..digits).rev() {
        lines.push(HEX[(offset >> (i * 4) & 15) as usize]);
    }
    lines.extend_from_slice(b"  ");
}

impl HexRows {
    /// A well-formed run without colour. The row under way is finished byte by byte; then
    /// each whole row of the run is written straight from its bytes; the rest byte by byte.
    pub(super) fn plain_text(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
        run: &[u8],
    ) -> io::Result<()> {
        let mut at = 0;
        if self.row_len != 0 {
            at = self.plain_bytes(out, offset, run, 0, true)?;
        }
        while at + 16 <= run.len() {
            let row: &[u8; 16] = run[at..at + 16].try_into().expect("16 bytes");
            if u128::from_ne_bytes(*row) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0 {
                self.ascii_rows(out, offset + at as u64, row)?;
            } else if !self.direct_row(offset + at as u64, &run[at..]) {
                // Not text after all: byte by byte, which knows ill-formed units, to the end
                // of a row (a unit may run past this one).
                at = self.plain_bytes(out, offset, run, at, true)?;
                continue;
            }
            at += 16;
            if self.lines.len() >= LINES_LEN {
                write_lines(out, &mut self.lines)?;
            }
        }
        self.covered = 0;
        self.plain_bytes(out, offset, run, at, false)?;
        Ok(())
    }

    /// Writes the row of the 16 bytes at the start of `rest`, which continues to the end of a
    /// well-formed run (a character may end in the next row). Returns false, having written
    /// nothing, if the row holds an ill-formed unit.
    ///
    /// The row is put together in a buffer on the stack with fixed-size copies and appended
    /// once: appending piece by piece spent its time in `memcpy` calls.
    pub(super) fn direct_row(&mut self, offset: u64, rest: &[u8]) -> bool {
        let mark = self.lines.len();
        let row = &rest[..16];
        // 61 bytes, at most 8 a byte of the row (7 for a glyph, then a store of 8), and "|\n".
        let mut line = [0u8; 61 + 16 * 8 + 8 + 2];
        let from = row_start(&mut line, &mut self.lines, offset, row);
        let mut o = 61;
        const DOT: [u8; 2] = [0xC2, 0xB7];
        // The continuation bytes of a character that started in the row before.
        let mut i = 0;
        while i < 16 && is_continuation(row[i]) {
            line[o..o + 2].copy_from_slice(&DOT);
            o += 2;
            i += 1;
        }
        while i < 16 {
            let byte = row[i];
            if byte < 0x80 {
                line[o] = PANEL_ASCII[usize::from(byte)];
                o += 1;
                i += 1;
                continue;
            }
            // The run is well-formed: each character is decoded by its bits, with no scan of
            // its unit.
            let Some(c) = utf8kit_codec::unit::first_char(&rest[i..]) else {
                self.lines.truncate(mark);
                return false;
            };
            let len = c.len_utf8();
            let cells_here = len.min(16 - i);
            let glyph = self.glyph(c);
            let mut covered = 0;
            if usize::from(glyph.width) <= cells_here {
                line[o..o + 8].copy_from_slice(&glyph.bytes);
                o += usize::from(glyph.len);
                covered = usize::from(glyph.width) - 1;
            } else {
                line[o] = b'.';
                o += 1;
            }
            for _ in 1..cells_here {
                if covered > 0 {
                    covered -= 1;
                } else {
                    line[o..o + 2].copy_from_slice(&DOT);
                    o += 2;
                }
            }
            i += len;
        }
        line[o..o + 2].copy_from_slice(b"|\n");
        self.lines.extend_from_slice(&line[from..o + 2]);
        true
    }

    /// Shows `run` from `at` byte by byte; with `to_row_end`, stops once a row is written.
    /// Returns where it stopped.
    pub(super) fn plain_bytes(
        &mut self,
        out: &mut dyn WriteColor,
        offset: u64,
        run: &[u8],
        mut at: usize,
        to_row_end: bool,
    ) -> io::Result<usize> {
        while at < run.len() {
            let byte = run[at];
            if byte < 0x80 {
                self.push_byte(offset + at as u64, byte, Class::Ascii);
                self.panel.push(char::from(PANEL_ASCII[usize::from(byte)]));
                self.covered = 0;
            } else if is_continuation(byte) {
                self.push_byte(offset + at as u64, byte, Class::Multibyte);
                if self.covered > 0 {
                    self.covered -= 1;
                } else {
                    self.panel.push('·');
                }
            } else {
                let (len, kind, codepoint) = next_unit(&run[at..]);
                let c = codepoint
                    .and_then(char::from_u32)
                    .filter(|_| kind == UnitKind::Char);
                let Some(c) = c else {
                    let unit = Unit {
                        offset: offset + at as u64,
                        bytes: &run[at..at + len],
                        kind,
                        codepoint,
                    };
                    self.unit(out, &unit)?;
                    at += len;
                    if to_row_end && self.row_len == 0 {
                        break;
                    }
                    continue;
                };
                self.covered = self.push_glyph(c, len.min(self.layout.cols - self.row_len));
                self.push_byte(offset + at as u64, byte, Class::Multibyte);
            }
            at += 1;
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
                if to_row_end {
                    break;
                }
            }
        }
        Ok(at)
    }
}

/// The text panel's cell of an ASCII byte: itself if printable, else '.'.
pub(super) static PANEL_ASCII: [u8; 128] = {
    let mut cells = [b'.'; 128];
    let mut byte = 0x20;
    while byte < 0x7F {
        cells[byte] = byte as u8;
        byte += 1;
    }
    cells
};

impl View for HexRows {
    fn text_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        if self.is_coloured(out) || self.layout != RowLayout::HEXDUMP {
            return text_by_units(self, out, offset, run);
        }
        self.plain_text(out, offset, run)
    }

    /// Only the coloured path and other layouts than hexdump -C's come here: otherwise
    /// `text_run` takes the whole run.
    fn ascii_run(&mut self, out: &mut dyn WriteColor, offset: u64, run: &[u8]) -> io::Result<()> {
        for (i, &byte) in run.iter().enumerate() {
            self.ascii_byte(out, offset + i as u64, byte)?;
        }
        Ok(())
    }

    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.is_coloured(out);
        let class = match (unit.kind, unit.codepoint) {
            (UnitKind::Char, Some(cp)) if cp < 0x20 || cp == 0x7F => Class::Control,
            (UnitKind::Char, Some(cp)) if cp < 0x80 => Class::Ascii,
            (UnitKind::Char, _) => Class::Multibyte,
            _ => Class::IllFormed,
        };
        for (i, &byte) in unit.bytes.iter().enumerate() {
            self.push_byte(unit.offset + i as u64, byte, class);
            let row_room = self.layout.cols - (self.row_len - 1);
            if class == Class::IllFormed {
                self.cell(class);
                self.panel.push('\u{FFFD}');
            } else if i == 0 {
                // The character at its lead byte, if its width fits in the cells its bytes
                // have in this row; its other bytes draw '·'.
                self.cell(class);
                let c = unit.codepoint.and_then(char::from_u32).unwrap_or('.');
                if (' '..='~').contains(&c) {
                    self.panel.push(c);
                    self.covered = 0;
                } else {
                    self.covered = self.push_glyph(c, unit.bytes.len().min(row_room));
                }
            } else if self.covered > 0 {
                self.covered -= 1;
            } else {
                self.cell(class);
                self.panel.push('·');
            }
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
            }
        }
        Ok(())
    }

    fn continued(&mut self, out: &mut dyn WriteColor, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.is_coloured(out);
        for (i, &byte) in bytes.iter().enumerate() {
            self.push_byte(offset + i as u64, byte, Class::Multibyte);
            self.cell(Class::Multibyte);
            self.panel.push('·');
            self.covered = 0;
            if self.row_len == self.layout.cols {
                self.flush_row(out)?;
            }
        }
        Ok(())
    }

    fn note(&mut self, out: &mut dyn WriteColor, text: &str) -> io::Result<()> {
        self.flush_row(out)?;
        write_lines(out, &mut self.lines)?;
        writeln!(out, "# {text}")
    }

    fn write_pending(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        write_lines(out, &mut self.lines)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        self.flush_row(out)?;
        write_lines(out, &mut self.lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset's digits are `{:08x}`'s: every value below 2^16, every digit value at every
    /// place, and a walk over the whole range.
    #[test]
    fn put_offset_writes_what_format_writes() {
        let mut offsets: Vec<u32> = (0..=0xFFFF).collect();
        for place in 0..8 {
            for digit in 0..16u32 {
                offsets.push(digit << (4 * place));
                offsets.push(!(digit << (4 * place)));
            }
        }
        offsets.extend((0..=u32::MAX).step_by(65_521));
        offsets.push(u32::MAX);
        for offset in offsets {
            let mut digits = [0u8; 8];
            put_offset(&mut digits, offset);
            assert_eq!(digits, format!("{offset:08x}").as_bytes(), "{offset:#x}");
        }
    }
}
