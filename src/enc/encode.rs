//! Code points into bytes, in every notation (`utf8enc U+00E9`, `-f json`, `--explain`).

use super::*;

/// What a code point argument names: one code point, or an inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CodepointArg {
    Single(u32),
    /// `first..last`, both included.
    Range(u32, u32),
}

/// Reads a code point argument: a code point in any notation `parse_codepoint` reads
/// (`U+20AC`, `&#8364;`, `€`...), or a range of two of these joined by `..`. The error is the
/// sentence utf8enc prints.
fn parse_codepoint_arg(arg: &str) -> Result<CodepointArg, String> {
    if arg.chars().count() > 1
        && let Some((first, last)) = arg.split_once("..")
    {
        let first = parse_codepoint(first).map_err(|e| e.to_string())?;
        let last = parse_codepoint(last).map_err(|e| e.to_string())?;
        if last < first {
            return Err(format!("'{arg}': the range ends before it starts"));
        }
        return Ok(CodepointArg::Range(first, last));
    }
    parse_codepoint(arg)
        .map(CodepointArg::Single)
        .map_err(|e| e.to_string())
}

pub(super) fn encode_codepoints(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    let mut status = Status::Clean;
    // Ranges of code points (one point is a range of one), generated as they are written: a
    // range as wide as 0..0x7FFFFFFF streams in constant memory.
    let skips_surrogates = !args.allow_surrogates && !args.legacy;
    let mut ranges: Vec<(std::ops::RangeInclusive<u32>, bool)> = Vec::new();
    // A range wholly past U+10FFFF was named (and noted): nothing to write is no usage error.
    let mut wholly_refused = false;
    for input in &args.inputs {
        let text = input.to_string_lossy();
        match parse_codepoint_arg(&text) {
            Ok(CodepointArg::Single(cp)) => ranges.push((cp..=cp, false)),
            Ok(CodepointArg::Range(first, last)) => {
                let surrogates = last.min(0xDFFF).saturating_sub(first.max(0xD800)) + 1;
                if skips_surrogates && first <= 0xDFFF && last >= 0xD800 {
                    messages.note(format_args!(
                        "{text}: skipped {surrogates} surrogates (--allow-surrogates includes them)"
                    ));
                }
                // Past U+10FFFF only --legacy writes anything: one note for the whole part of the
                // range, not one a value (0..0x7FFFFFFF would write two billion of them).
                let mut last = last.min(0x7FFF_FFFF);
                if !args.legacy && last > 0x10_FFFF {
                    let above = last - first.max(0x11_0000) + 1;
                    messages.note(format_args!(
                        "{text}: skipped {above} values above U+10FFFF, the last code point (RFC \
                         3629 section 3): --legacy writes their RFC 2279 form"
                    ));
                    status = status.merge(Status::Problems);
                    if first > 0x10_FFFF {
                        wholly_refused = true;
                        continue;
                    }
                    last = 0x10_FFFF;
                }
                ranges.push((first..=last, skips_surrogates));
            }
            Err(error) => {
                messages.error(error);
                return Ok(Status::Trouble);
            }
        }
    }
    // A string notation writes -t's text as one string, as it would sit in a URL or a source
    // file; the other formats write a line per character.
    let mut wrote_string = false;
    if let Some(text) = &args.text {
        match args.format.notation().filter(|_| !args.explain) {
            Some(notation) if is_string_notation(notation) => {
                let mut line = string_notation(notation, text);
                line.push('\n');
                out.write_all(line.as_bytes())?;
                wrote_string = true;
            }
            _ => ranges.extend(text.chars().map(|c| (u32::from(c)..=u32::from(c), false))),
        }
    }
    if let Some(name) = &args.name {
        match unicode_names2::character(name) {
            Some(c) => ranges.push((u32::from(c)..=u32::from(c), false)),
            None => {
                messages.error(format_args!("no character is named '{name}'"));
                return Ok(Status::Trouble);
            }
        }
    }
    if ranges.is_empty() && (wrote_string || wholly_refused) {
        return Ok(status);
    }
    if ranges.is_empty() {
        messages
            .error("no code point given: name one (U+20AC), or use -t, --name, -d, --from or --to");
        return Ok(Status::Trouble);
    }
    let codepoints = ranges.iter().flat_map(|(range, skips)| {
        let skips = *skips;
        range
            .clone()
            .filter(move |cp| !skips || !(0xD800..=0xDFFF).contains(cp))
    });
    let form = if args.legacy {
        Form::Legacy
    } else if args.allow_surrogates {
        Form::Wtf8
    } else {
        Form::Standard
    };
    let mut needs_header = args.format == Format::Table && !args.explain;
    let mut line = String::new();
    for cp in codepoints {
        let encoded = match encode(cp, form) {
            Ok(encoded) => encoded,
            Err(error) => {
                let hint = match error {
                    EncodeError::Surrogate(_) => {
                        ": --allow-surrogates writes its WTF-8 form, --legacy its RFC 2279 form"
                    }
                    EncodeError::OutOfRange(v) if v <= 0x7FFF_FFFF => {
                        ": --legacy writes the RFC 2279 form"
                    }
                    EncodeError::OutOfRange(_) => "",
                };
                messages.note(format_args!("{error}{hint}"));
                status = status.merge(Status::Problems);
                continue;
            }
        };
        let bytes = encoded.as_bytes();
        line.clear();
        if args.explain {
            explain(cp, bytes, &mut line);
            out.write_all(line.as_bytes())?;
            continue;
        }
        match args.format {
            Format::Raw => {
                out.write_all(bytes)?;
                continue;
            }
            Format::Table => {
                if std::mem::take(&mut needs_header) {
                    let _ = writeln!(
                        line,
                        "{:<6}{:<12}{:<18}{:<22}binary",
                        "char", "code point", "hex", "octal"
                    );
                }
                let mut glyph = String::new();
                let width = match char::from_u32(cp) {
                    Some(c) => shown(c).push_to(&mut glyph),
                    None => {
                        glyph.push('-');
                        1
                    }
                };
                let mut hex = String::new();
                let mut octal = String::new();
                let mut binary = String::new();
                for (i, byte) in bytes.iter().enumerate() {
                    let sep = if i > 0 { " " } else { "" };
                    let _ = write!(hex, "{sep}{byte:02X}");
                    let _ = write!(octal, "{sep}{byte:03o}");
                    let _ = write!(binary, "{sep}{byte:08b}");
                }
                let pad = 6usize.saturating_sub(width);
                let _ = write!(
                    line,
                    "{glyph}{:pad$}{:<12}{hex:<18}{octal:<22}{binary}",
                    "",
                    format!("U+{cp:04X}")
                );
            }
            Format::Json => {
                let _ = write!(line, "{{\"codepoint\":{cp},\"char\":");
                // I-JSON (RFC 7493): a surrogate or a value past U+10FFFF is no character, and a
                // lone "\ud800" escape would be rejected by strict parsers.
                match char::from_u32(cp) {
                    Some(c) => line.push_str(
                        &serde_json::to_string(&c.to_string()).expect("a string serialises"),
                    ),
                    None => line.push_str("null"),
                }
                line.push_str(",\"utf8\":\"");
                for byte in bytes {
                    let _ = write!(line, "{byte:02x}");
                }
                line.push_str("\"}");
            }
            Format::Name => match char::from_u32(cp) {
                Some(c) => line.push_str(&char_name(c)),
                None if (0xD800..=0xDFFF).contains(&cp) => line.push_str("<surrogate>"),
                None => line.push_str("<not a code point>"),
            },
            format => {
                let notation = format.notation().expect("every other format is a notation");
                write_notation(notation, cp, bytes, &mut line);
            }
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(status)
}

/// The bit filling of RFC 3629 section 3, step by step.
pub(super) fn explain(cp: u32, bytes: &[u8], out: &mut String) {
    let name = char::from_u32(cp).map_or_else(|| "<surrogate>".to_owned(), char_name);
    let _ = writeln!(out, "U+{cp:04X} {name}");
    let n = bytes.len();
    if n == 1 {
        let _ = writeln!(
            out,
            "  U+0000..U+007F take 1 byte, 0xxxxxxx: the 7 bits go as they are\n  \
             bits    {cp:07b}\n  bytes   {:08b} = {:02X}\n",
            bytes[0], bytes[0]
        );
        return;
    }
    let (range, template) = match n {
        2 => ("U+0080..U+07FF", "110xxxxx 10xxxxxx"),
        3 => ("U+0800..U+FFFF", "1110xxxx 10xxxxxx 10xxxxxx"),
        4 => ("U+10000..U+10FFFF", "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx"),
        5 => (
            "0x200000..0x3FFFFFF (RFC 2279)",
            "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        ),
        _ => (
            "0x4000000..0x7FFFFFFF (RFC 2279)",
            "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        ),
    };
    let lead_bits = 7 - n;
    let payload = lead_bits + 6 * (n - 1);
    let bits = format!("{cp:0payload$b}");
    let mut groups = vec![bits[..lead_bits].to_owned()];
    for i in 0..n - 1 {
        let start = lead_bits + 6 * i;
        groups.push(bits[start..start + 6].to_owned());
    }
    let markers: Vec<String> = (0..n)
        .map(|i| {
            if i == 0 {
                format!("{}0", "1".repeat(n))
            } else {
                "10".to_owned()
            }
        })
        .collect();
    let filled: Vec<String> = markers
        .iter()
        .zip(&groups)
        .map(|(m, g)| format!("{m}({g})"))
        .collect();
    let binary: Vec<String> = bytes.iter().map(|b| format!("{b:08b}")).collect();
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    let split: Vec<String> = std::iter::once(lead_bits.to_string())
        .chain(std::iter::repeat_n("6".to_owned(), n - 1))
        .collect();
    let _ = writeln!(
        out,
        "  {range} take {n} bytes: {template} ({payload} bits)\n  \
         bits    {bits}\n  \
         split   {} ({})\n  \
         fill    {}\n  \
         bytes   {} = {}\n",
        groups.join(" "),
        split.join(" + "),
        filled.join(" "),
        binary.join(" "),
        hex.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_point_arguments_and_ranges() {
        assert_eq!(
            parse_codepoint_arg("U+20AC"),
            Ok(CodepointArg::Single(0x20AC))
        );
        assert_eq!(parse_codepoint_arg("€"), Ok(CodepointArg::Single(0x20AC)));
        assert_eq!(parse_codepoint_arg("."), Ok(CodepointArg::Single(0x2E)));
        assert_eq!(
            parse_codepoint_arg("U+0400..U+04FF"),
            Ok(CodepointArg::Range(0x400, 0x4FF))
        );
        assert_eq!(
            parse_codepoint_arg("U+42..U+41"),
            Err("'U+42..U+41': the range ends before it starts".to_owned())
        );
        assert!(parse_codepoint_arg("..").is_err(), "a range needs two ends");
        assert!(parse_codepoint_arg("U+0500..zz").is_err());
    }
}
