//! The byte list of `-x --plain` and the like: bytes only, in the notation asked for.

use super::*;

/// The byte views of xxd: `-p` (hex, 30 bytes a line, as `xxd -p`) and `-i` (a C array, 12
/// bytes a line, as `xxd -i`; a file gets the declaration and its length, named after the path
/// as xxd names it: other characters than letters and digits as `_`, and `__` before a leading
/// digit). Units and runs alike are only bytes here.
pub(super) struct ByteList {
    /// The C array's name, with `-i` on a file.
    pub(super) name: Option<String>,
    pub(super) is_c: bool,
    /// Bytes a line (`-c`); 0 is one line for `-p`.
    pub(super) cols: u64,
    pub(super) upper: bool,
    pub(super) line: String,
    pub(super) total: u64,
}

impl ByteList {
    pub(super) fn plain(settings: &Settings) -> ByteList {
        ByteList {
            name: None,
            is_c: false,
            cols: settings.cols.unwrap_or(30) as u64,
            upper: settings.upper,
            line: String::new(),
            total: 0,
        }
    }

    pub(super) fn c_array(source: &Source, settings: &Settings) -> ByteList {
        let name = source.path().map(|path| {
            let mut name: String = path
                .to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                name.insert_str(0, "__");
            }
            name
        });
        let line = match &name {
            Some(name) => format!("unsigned char {name}[] = {{\n"),
            None => String::new(),
        };
        ByteList {
            name,
            is_c: true,
            cols: settings.cols.unwrap_or(12) as u64,
            upper: settings.upper,
            line,
            total: 0,
        }
    }

    pub(super) fn push(&mut self, out: &mut dyn WriteColor, bytes: &[u8]) -> io::Result<()> {
        for &byte in bytes {
            if self.is_c {
                let separator = match self.total {
                    0 => "  ",
                    n if n.is_multiple_of(self.cols) => ",\n  ",
                    _ => ", ",
                };
                self.line.push_str(separator);
                self.line.push_str(if self.upper { "0X" } else { "0x" });
                push_hex_number(&mut self.line, u64::from(byte), 2, self.upper);
            } else {
                push_hex_number(&mut self.line, u64::from(byte), 2, self.upper);
                if self.cols > 0 && (self.total + 1).is_multiple_of(self.cols) {
                    self.line.push('\n');
                }
            }
            self.total += 1;
            if self.line.len() >= 64 * 1024 {
                out.write_all(self.line.as_bytes())?;
                self.line.clear();
            }
        }
        Ok(())
    }
}

impl View for ByteList {
    fn unit(&mut self, out: &mut dyn WriteColor, unit: &Unit<'_>) -> io::Result<()> {
        self.push(out, unit.bytes)
    }

    fn ascii_run(&mut self, out: &mut dyn WriteColor, _: u64, run: &[u8]) -> io::Result<()> {
        self.push(out, run)
    }

    fn text_run(&mut self, out: &mut dyn WriteColor, _: u64, run: &[u8]) -> io::Result<()> {
        self.push(out, run)
    }

    fn continued(&mut self, out: &mut dyn WriteColor, _: u64, bytes: &[u8]) -> io::Result<()> {
        self.push(out, bytes)
    }

    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        use std::fmt::Write as _;
        // The last line ends unless it was full (plain) or empty.
        let is_open = if self.is_c || self.cols == 0 {
            self.total > 0
        } else {
            !self.total.is_multiple_of(self.cols)
        };
        if is_open {
            self.line.push('\n');
        }
        if let Some(name) = &self.name {
            let _ = write!(
                self.line,
                "}};\nunsigned int {name}_len = {};\n",
                self.total
            );
        }
        out.write_all(self.line.as_bytes())?;
        self.line.clear();
        Ok(())
    }
}
