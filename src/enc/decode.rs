//! Notations back into bytes (`utf8enc -d`): hex, escapes, arrays, JSON strings.

use super::*;

pub(super) fn decode_notation(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    if !matches!(args.format, Format::Table | Format::Json) {
        messages.error("--decode writes lines or, with --format json, unit objects");
        return Ok(Status::Trouble);
    }
    let text = if args.inputs.is_empty() {
        let mut text = String::new();
        let read = crate::input::stdin().and_then(|mut stdin| stdin.read_to_string(&mut text));
        if let Err(error) = read {
            messages.trouble("<stdin>", io_reason(&error));
            return Ok(Status::Trouble);
        }
        text
    } else {
        let parts: Vec<String> = args
            .inputs
            .iter()
            .map(|i| i.to_string_lossy().into_owned())
            .collect();
        parts.join(" ")
    };
    let bytes = match parse_byte_notation(&text) {
        Ok(bytes) => bytes,
        Err(error) => {
            messages.error(error);
            return Ok(Status::Trouble);
        }
    };
    let mut status = Status::Clean;
    let mut line = String::new();
    for (offset, unit) in units(&bytes) {
        let unit_bytes = &bytes[offset..offset + unit.len];
        line.clear();
        if args.format == Format::Json {
            push_unit_json(
                &mut line,
                offset as u64,
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
            status = Status::Problems;
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(status)
}
