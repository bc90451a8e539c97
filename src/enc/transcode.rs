//! Transcoding (`--from`, `--to`): one input through its decoder (`decoders`, chosen by a label,
//! a byte order mark or `auto`: `sniff`) into UTF-8 and out through an encoder (`encoders`);
//! and the encoding list (`-l`).

use super::*;

/// The canonical name of an encoding, for messages.
pub(super) fn name_of(charset: Charset) -> String {
    encodings::entry_of(charset).name.to_owned()
}

/// For `auto` (`Some(None)`) and `auto:ENC` (`Some(Some(ENC))`); `None` for a label.
fn auto_fallback(label: &str) -> Option<Option<&str>> {
    let label = label.trim();
    if !label.get(..4)?.eq_ignore_ascii_case("auto") {
        return None;
    }
    let rest = &label[4..];
    match rest.strip_prefix(':') {
        _ if rest.is_empty() => Some(None),
        Some(fallback) => Some(Some(fallback)),
        None => None,
    }
}

/// `--list`: every encoding, the options that take it, and its labels.
pub(super) fn list_encodings(out: &mut dyn Write) -> io::Result<Status> {
    writeln!(out, "{:<16} {:<22} LABELS", "ENCODING", "ACCEPTED BY")?;
    for entry in encodings::table() {
        writeln!(
            out,
            "{:<16} {:<22} {}",
            entry.name,
            entry.accepted_by().join(" "),
            entry.labels.join(" ")
        )?;
    }
    writeln!(
        out,
        "{:<16} {:<22} auto (a byte order mark, UTF-8, BOM-less UTF-16/32, then the detector \
         of utf8check's hint)",
        "(detect)", "--from"
    )?;
    Ok(Status::Clean)
}

pub(super) fn transcode_all(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    // Messages name the label as the user typed it, and what it resolved to. `None` is auto.
    let parse = |label: &Option<String>| -> Result<(Option<Charset>, String), String> {
        match label.as_deref() {
            None => Ok((Some(Charset::Utf8), "UTF-8".to_owned())),
            Some(label) if auto_fallback(label).is_some() => Ok((None, "auto".to_owned())),
            Some(label) => {
                encodings::resolve(label).map(|named| (Some(named.charset()), named.to_string()))
            }
        }
    };
    // `--from auto:ENC`: ENC when the detection cannot decide.
    let fallback = match args.from.as_deref().and_then(auto_fallback) {
        Some(Some(label)) => match encodings::resolve(label) {
            Ok(named) => Some(named.charset()),
            Err(reason) => {
                messages.error(format_args!("--from auto:{label}: {reason}"));
                return Ok(Status::Trouble);
            }
        },
        _ => None,
    };
    let ((from, from_label), (to, to_label)) = match (parse(&args.from), parse(&args.to)) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(reason), _) | (_, Err(reason)) => {
            messages.error(reason);
            return Ok(Status::Trouble);
        }
    };
    let Some(to) = to else {
        messages.error("--to auto: detection only reads input");
        return Ok(Status::Trouble);
    };
    if !to.can_encode() {
        let typed = args.to.as_deref().unwrap_or_default().trim();
        messages.error(format_args!(
            "--to {typed}: {typed} is decoded as the WHATWG replacement encoding, which has no \
             encoder; nothing can be written in it"
        ));
        return Ok(Status::Trouble);
    }
    let errors = if args.drop_unencodable {
        Errors::Drop
    } else {
        args.errors
    };
    if matches!(errors, Errors::Html | Errors::Drop) && args.to.is_none() {
        messages.error(
            "--errors html, --errors drop and -c are for --to: what the target cannot encode",
        );
        return Ok(Status::Trouble);
    }
    let sources = Source::from_operands(&args.inputs);
    let mut reader = ChunkReader::new();
    let mut status = Status::Clean;
    for source in &sources {
        let name = source.display_name().into_owned();
        let mut decoder = Decoder::new(from, matches!(errors, Errors::Replace | Errors::Html));
        if let Decoder::Sniffing {
            file,
            fallback: auto_fallback,
            ..
        } = &mut decoder
        {
            *auto_fallback = fallback;
            // Only a regular file can be read twice; a FIFO or a device is judged by its head.
            if let Source::Path(path) = source
                && from.is_none()
                && std::fs::metadata(path).is_ok_and(|m| m.is_file())
            {
                *file = Some(path.clone());
            }
        }
        let mut encoder = Encoder::new(to, &to_label, errors);
        let mut text = Vec::new();
        let mut bytes = Vec::new();
        // The first malformed or unencodable character ends the input (strict); what came
        // before it is written. A failed write ends the run.
        let mut problem: Option<String> = None;
        let mut write_error: Option<io::Error> = None;
        // A big UTF-16 or Latin-1 file goes to every core first, up to where the ordinary
        // conversion below goes on with the offsets of the whole file (its end, or the first
        // part that is not well-formed).
        let mut rest: Option<std::fs::File> = None;
        let in_parts = match from {
            Some(Charset::Utf16(Some(endian))) => Some(whole::Encoding::Utf16(endian)),
            Some(Charset::Latin1) => Some(whole::Encoding::Latin1),
            _ => None,
        };
        if let (Some(encoding), Charset::Utf8, Source::Path(path)) = (in_parts, to, source)
            && whole::threads() > 1
            && std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= whole::MIN_LEN)
            && let Ok(mut file) = reader.open(source)
            && let Ok(meta) = file.metadata()
            && meta.is_file()
        {
            use std::io::{Seek, SeekFrom};
            let resume = whole::convert(&file, meta.len(), encoding, whole::threads(), out)?;
            if let Err(error) = file.seek(SeekFrom::Start(resume)) {
                messages.trouble(&name, io_reason(&error));
                continue;
            }
            decoder = Decoder::Shifted(Box::new(decoder), resume, None);
            rest = Some(file);
        }
        let mut consume = |chunk: &[u8], is_last: bool| {
            // A chunk is at most 64 KiB (`CHUNK_LEN`): converted whole, in bounded memory.
            {
                let (piece, last) = (chunk, is_last);
                text.clear();
                bytes.clear();
                let decoded = decoder.decode(piece, last, &mut text);
                if decoder.refusal().is_some() {
                    return ControlFlow::Break(());
                }
                if let Err(malformed) = &decoded {
                    problem = Some(if from == Some(Charset::Whatwg(encoding_rs::REPLACEMENT)) {
                        let typed = args.from.as_deref().unwrap_or_default().trim();
                        format!(
                            "{typed} is decoded as the WHATWG replacement encoding: its input \
                             is one malformed character (--errors replace writes U+FFFD)"
                        )
                    } else if from.is_none() {
                        format!("malformed {}: {malformed}", decoder.name())
                    } else {
                        format!("malformed {from_label}: {malformed}")
                    });
                }
                // To UTF-8 the decoded bytes are the output; only another target needs them as
                // text. The decoders write whole UTF-8 characters, and the copy they wrote is
                // checked as it is (SIMD, a small share of a conversion): no unchecked `&str`.
                let encoded = if to == Charset::Utf8 {
                    Ok(())
                } else {
                    match std::str::from_utf8(&text) {
                        Ok(text) => encoder.encode(text, last && decoded.is_ok(), &mut bytes),
                        Err(_) => Err("the decoder wrote text that is not UTF-8".to_owned()),
                    }
                };
                let output = if to == Charset::Utf8 {
                    &text[..]
                } else {
                    &bytes[..]
                };
                if let Err(error) = out.write_all(output) {
                    write_error = Some(error);
                    return ControlFlow::Break(());
                }
                if let Err(detail) = encoded {
                    problem.get_or_insert(detail);
                }
                if problem.is_some() {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        };
        let read = match &mut rest {
            Some(file) => reader.read_file(file, &mut consume),
            None => reader.read(source, &mut consume),
        };
        let failure = match (write_error, problem) {
            (Some(error), _) => Some(Err(error)),
            (None, Some(detail)) => Some(Ok(detail)),
            (None, None) => None,
        };
        match failure {
            Some(Err(error)) => return Err(error),
            Some(Ok(detail)) => {
                messages.note(format_args!("{name}: {detail}"));
                status = status.merge(Status::Problems);
            }
            None => {}
        }
        if let Some(why) = decoder.refusal() {
            messages.note(format_args!("{name}: {why}"));
            status = status.merge(Status::Problems);
        }
        if let Some((found, sure)) = decoder.detection() {
            let label = label_of(found);
            if !sure {
                messages.note(format_args!(
                    "{name}: read as {label}: detection could not decide (--from auto:{label})"
                ));
            } else if args.verbose {
                messages.note(format_args!("{name}: detected {label}"));
            }
        }
        if let Err(error) = read {
            messages.trouble(&name, io_reason(&error));
        }
    }
    Ok(status)
}
