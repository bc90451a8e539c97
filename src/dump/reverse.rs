//! `-r`: reading a dump back into bytes (utf8dump's own lines, xxd's and hexyl's).

use super::*;

/// `-r`: reads dumps back and writes their bytes.
pub(super) fn reverse_all(
    settings: &Settings,
    out: &mut dyn WriteColor,
    messages: &mut Messages,
) -> io::Result<()> {
    for source in &settings.sources {
        let name = source.display_name().into_owned();
        let input = match source.open() {
            Ok(file) => file,
            Err(error) => {
                messages.trouble(&name, io_reason(&error));
                continue;
            }
        };
        let mut lines = BufReader::with_capacity(64 * 1024, input);
        let mut line = Vec::new();
        let mut bytes = Vec::new();
        let mut number = 0u64;
        loop {
            line.clear();
            // A line is read at most MAX_LINE bytes at a time: memory stays bounded whatever
            // the input (xxd -p -c 0 writes a whole file as one line).
            match std::io::Read::take(&mut lines, MAX_LINE as u64).read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(error) => {
                    messages.trouble(&name, io_reason(&error));
                    break;
                }
            }
            number += 1;
            if line.len() == MAX_LINE && line.last() != Some(&b'\n') {
                if let Err(reason) = long_plain_line(&mut lines, &mut line, out)? {
                    messages.trouble(&name, format_args!("line {number}: {reason}"));
                }
                continue;
            }
            bytes.clear();
            match parse_dump_line(&line, &mut bytes) {
                Ok(()) => out.write_all(&bytes)?,
                Err(reason) => messages.trouble(&name, format_args!("line {number}: {reason}")),
            }
        }
    }
    Ok(())
}

/// The most bytes of a line held at once by `-r`.
pub(super) const MAX_LINE: usize = 1 << 20;

/// A line longer than [`MAX_LINE`], whose first `MAX_LINE` bytes are in `line`: a plain hex
/// dump (`xxd -p -c 0`, `utf8dump -p -c 0`) is written as it is read, two digits a byte; any
/// other line that long is no dump line, and the rest of it is skipped. The error is the reason.
fn long_plain_line(
    lines: &mut impl BufRead,
    line: &mut Vec<u8>,
    out: &mut dyn WriteColor,
) -> io::Result<Result<(), String>> {
    let mut carried: Option<u8> = None;
    let mut bytes = Vec::with_capacity(MAX_LINE / 2 + 1);
    let mut is_plain = true;
    loop {
        let ends = line.last() == Some(&b'\n');
        let body = line
            .strip_suffix(b"\n")
            .map_or(&line[..], |b| b.strip_suffix(b"\r").unwrap_or(b));
        if is_plain {
            bytes.clear();
            for &c in body {
                let Some(digit) = (c as char).to_digit(16) else {
                    is_plain = false;
                    break;
                };
                match carried.take() {
                    Some(high) => bytes.push(high << 4 | digit as u8),
                    None => carried = Some(digit as u8),
                }
            }
            if is_plain {
                out.write_all(&bytes)?;
            }
        }
        if ends {
            break;
        }
        line.clear();
        if std::io::Read::take(&mut *lines, MAX_LINE as u64).read_until(b'\n', line)? == 0 {
            break;
        }
    }
    Ok(if !is_plain {
        Err(format!(
            "longer than {} MiB and not a plain hex dump: skipped",
            MAX_LINE >> 20
        ))
    } else if carried.is_some() {
        Err("a plain hex dump with an odd number of digits: the last one is left out".to_owned())
    } else {
        Ok(())
    })
}

/// The bytes a dump line shows, in any of the three formats; nothing for notes and separators.
///
/// # Errors
///
/// Why the line is not a dump line.
pub fn parse_dump_line(line: &[u8], bytes: &mut Vec<u8>) -> Result<(), String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\n', '\r']);
    let trimmed = text.trim_start();
    if trimmed.is_empty()
        || trimmed.starts_with('#')
        || trimmed.starts_with("==>")
        || trimmed == "--"
    {
        return Ok(());
    }
    if trimmed.starts_with('{') {
        let value: serde_json::Value =
            serde_json::from_str(trimmed).map_err(|e| format!("not a JSON unit: {e}"))?;
        let hex = value["bytes"]
            .as_str()
            .ok_or("a JSON unit without \"bytes\"")?;
        return push_hex_bytes(hex, bytes);
    }
    // -i (and xxd -i): the declaration, the closing brace and the length carry no bytes; a
    // line of the array is "0x61, 0x62,".
    if (trimmed.starts_with("unsigned ") && trimmed.ends_with(['{', ';'])) || trimmed == "};" {
        return Ok(());
    }
    if trimmed.starts_with("0x") || trimmed.starts_with("0X") {
        for item in trimmed
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let hex = item
                .strip_prefix("0x")
                .or_else(|| item.strip_prefix("0X"))
                .filter(|hex| hex.len() == 2)
                .ok_or_else(|| format!("'{item}' is not a byte of a C array"))?;
            push_hex_bytes(hex, bytes)?;
        }
        return Ok(());
    }
    // xxd -p: nothing but hex digits, two a byte.
    if trimmed.bytes().all(|b| b.is_ascii_hexdigit()) {
        return push_hex_bytes(trimmed, bytes);
    }
    // xxd's own layout: "00000000: 6162 63e2 82ac 0a   abc....", groups of any size, then the
    // text panel after a double space (the last line pads the groups with spaces first).
    if let Some((offset, rest)) = trimmed.split_once(": ")
        && !offset.is_empty()
        && offset.bytes().all(|b| b.is_ascii_hexdigit())
    {
        let groups = rest.split("  ").next().unwrap_or("");
        for group in groups.split_whitespace() {
            if !group.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("'{group}' is not a group of bytes"));
            }
            push_hex_bytes(group, bytes)?;
        }
        return Ok(());
    }
    let (offset, rest) = trimmed
        .split_once(' ')
        .ok_or("no offset and bytes columns")?;
    if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("'{offset}' is not an offset"));
    }
    // The bytes columns end where the hex view's text panel starts ('|') or the unit view's
    // code point column (U+XXXX or '-'); the panel and the rendered character are never read.
    // The hex view writes bytes in hex, one or a group (-g) a token; the unit view one byte a
    // token, in hex (two digits), octal (three) or bits (eight, the marker bits set apart).
    let is_hex_view = rest
        .split_whitespace()
        .find(|token| token.starts_with('|') || token.starts_with("U+") || *token == "-")
        .is_some_and(|token| token.starts_with('|'));
    for token in rest.split_whitespace() {
        if token.starts_with('|') || token.starts_with("U+") || token == "-" {
            break;
        }
        let is_hex = token.bytes().all(|b| b.is_ascii_hexdigit());
        let byte = match token.len() {
            _ if is_hex_view && is_hex => {
                push_hex_bytes(token, bytes)?;
                continue;
            }
            2 if is_hex => u8::from_str_radix(token, 16).ok(),
            3 if token.bytes().all(|b| (b'0'..=b'7').contains(&b)) => {
                u8::from_str_radix(token, 8).ok()
            }
            _ => {
                let bits: String = token.chars().filter(|&c| c != '_').collect();
                (bits.len() == 8 && bits.bytes().all(|b| b == b'0' || b == b'1'))
                    .then(|| u8::from_str_radix(&bits, 2).expect("eight bits"))
            }
        };
        bytes.push(byte.ok_or_else(|| format!("'{token}' is not a byte"))?);
    }
    if bytes.is_empty() {
        return Err("no bytes on the line".to_owned());
    }
    Ok(())
}

pub(super) fn push_hex_bytes(hex: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("'{hex}' has an odd number of hex digits"));
    }
    for pair in hex.as_bytes().chunks(2) {
        let text = std::str::from_utf8(pair).map_err(|_| "not hex")?;
        bytes.push(u8::from_str_radix(text, 16).map_err(|_| format!("'{hex}' is not hex"))?);
    }
    Ok(())
}
