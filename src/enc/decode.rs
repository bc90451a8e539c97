//! Notations back into bytes (`utf8enc -d`): hex, escapes, arrays, JSON strings.

use super::*;
use utf8kit_codec::notation::NotationReader;

/// How much of standard input is read into one piece: the notation is read and its units
/// written a piece at a time, so memory stays bounded whatever the input's length.
const PIECE: usize = 64 * 1024;

pub(super) fn decode_notation(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    if !matches!(args.format, Format::Table | Format::Json) {
        messages.error("--decode writes lines or, with --format json, unit objects");
        return Ok(Status::Trouble);
    }
    let mut reader = NotationReader::new();
    let mut shown = Shown {
        bytes: Vec::new(),
        offset: 0,
        status: Status::Clean,
        json: args.format == Format::Json,
    };
    if !args.inputs.is_empty() {
        let parts: Vec<String> = args
            .inputs
            .iter()
            .map(|i| i.to_string_lossy().into_owned())
            .collect();
        if let Err(error) = reader.feed(&parts.join(" "), &mut shown.bytes) {
            messages.error(error);
            return Ok(Status::Trouble);
        }
        reader.finish(&mut shown.bytes);
        shown.write(out, true)?;
        return Ok(shown.status);
    }
    let mut stdin = match crate::input::stdin() {
        Ok(stdin) => stdin,
        Err(error) => {
            messages.trouble("<stdin>", io_reason(&error));
            return Ok(Status::Trouble);
        }
    };
    // Standard input is read in pieces that end at a line end, or else after a separator (a
    // space, a tab, a comma, a semicolon), which no escape holds, or else inside a long run of
    // hex digits (`xxd -p -c 0`) after an even number of them.
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; PIECE];
    loop {
        let read = match stdin.read(&mut chunk) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                messages.trouble("<stdin>", io_reason(&error));
                return Ok(Status::Trouble);
            }
        };
        pending.extend_from_slice(&chunk[..read]);
        let is_last = read == 0;
        let cut = if is_last {
            Some(pending.len())
        } else if pending.len() >= PIECE {
            pending
                .iter()
                .rposition(|&b| b == b'\n')
                .or_else(|| {
                    pending
                        .iter()
                        .rposition(|&b| matches!(b, b' ' | b'\t' | b',' | b';'))
                })
                .map(|at| at + 1)
                .or_else(|| hex_run_cut(&pending))
        } else {
            None
        };
        if let Some(cut) = cut {
            let Ok(piece) = std::str::from_utf8(&pending[..cut]) else {
                let error = io::Error::new(
                    io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                );
                messages.trouble("<stdin>", io_reason(&error));
                return Ok(Status::Trouble);
            };
            if let Err(error) = reader.feed(piece, &mut shown.bytes) {
                messages.error(error);
                return Ok(Status::Trouble);
            }
            pending.drain(..cut);
            if is_last {
                reader.finish(&mut shown.bytes);
            }
            shown.write(out, is_last)?;
        }
        if is_last {
            return Ok(shown.status);
        }
    }
}

/// Where a piece may end inside the run of hex digits that ends `pending`: after an even
/// number of its digits, 16 or more kept for the next piece. Only a run of hex on its own is
/// cut (it starts `pending`, where an earlier cut left it, or follows a separator or `0x`): the
/// digits of an escape (`\u20AC`, `U+20AC`) are never parted.
fn hex_run_cut(pending: &[u8]) -> Option<usize> {
    let start = pending
        .iter()
        .rposition(|b| !b.is_ascii_hexdigit())
        .map_or(0, |at| at + 1);
    let on_its_own = start == 0
        || matches!(
            pending[start - 1],
            b' ' | b'\t' | b'\n' | b',' | b';' | b'\'' | b'"'
        )
        || (start >= 2 && matches!(&pending[start - 2..start], b"0x" | b"0X"));
    let digits = pending.len() - start;
    (on_its_own && digits >= 32).then(|| start + (digits - 16) / 2 * 2)
}

/// The bytes read back and not yet shown, and what showing them found.
struct Shown {
    /// Bytes not yet shown: a unit that more bytes may still complete.
    bytes: Vec<u8>,
    /// The offset of `bytes[0]` in all that was read back.
    offset: u64,
    status: Status,
    json: bool,
}

impl Shown {
    /// Writes a line for each unit of `bytes` that is decided (all of them at the end), and
    /// keeps the rest.
    fn write(&mut self, out: &mut dyn Write, is_last: bool) -> io::Result<()> {
        let mut line = String::new();
        let mut at = 0;
        while at < self.bytes.len() {
            let Some(unit) = scan_unit(&self.bytes[at..], is_last) else {
                break;
            };
            let unit_bytes = &self.bytes[at..at + unit.len];
            line.clear();
            if self.json {
                push_unit_json(
                    &mut line,
                    self.offset + at as u64,
                    unit_bytes,
                    unit.kind,
                    unit.codepoint,
                );
            } else if unit.kind.is_ill_formed() {
                let hex = crate::render::Hex(unit_bytes, " ");
                let _ = write!(line, "{} {hex}", unit.kind.as_str());
                if let Some(cp) = unit.codepoint {
                    let _ = write!(line, " (U+{cp:04X})");
                }
            } else {
                let cp = unit.codepoint.expect("a character has a code point");
                let _ = write!(line, "U+{cp:04X} ");
                shown(char::from_u32(cp).expect("a scalar value")).push_to(&mut line);
            }
            if unit.kind.is_ill_formed() {
                self.status = Status::Problems;
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
            at += unit.len;
        }
        self.bytes.drain(..at);
        self.offset += at as u64;
        Ok(())
    }
}
