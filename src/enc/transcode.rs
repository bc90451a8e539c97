//! Transcoding (`--from`, `--to`): the decoders into UTF-8 (a byte order mark or `auto`
//! decides where no label does), the encoders out of it, and the encoding list (`-l`).

use super::*;

/// The canonical name of an encoding, for messages.
pub(super) fn name_of(charset: Charset) -> String {
    encodings::entry_of(charset).name.to_owned()
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
            Some(label) if label.trim().eq_ignore_ascii_case("auto") => {
                Ok((None, "auto".to_owned()))
            }
            Some(label) => {
                encodings::resolve(label).map(|named| (Some(named.charset()), named.to_string()))
            }
        }
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
        if let (Decoder::Sniffing { file, .. }, Source::Path(path)) = (&mut decoder, source) {
            // Only a regular file can be read twice; a FIFO or a device is judged by its head.
            if from.is_none() && std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
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
        let read = reader.read(source, &mut |chunk, is_last| {
            // A chunk is at most 64 KiB (`CHUNK_LEN`): converted whole, in bounded memory.
            {
                let (piece, last) = (chunk, is_last);
                text.clear();
                bytes.clear();
                let decoded = decoder.decode(piece, last, &mut text);
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
        });
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
        if let Some((found, sure)) = decoder.detection() {
            if !sure {
                messages.note(format_args!(
                    "{name}: read as {found}, a guess: the detector found too little evidence \
                     (name the encoding with --from)"
                ));
            } else if args.verbose {
                messages.note(format_args!("{name}: detected {found}"));
            }
        }
        if let Err(error) = read {
            messages.trouble(&name, io_reason(&error));
        }
    }
    Ok(status)
}

/// Decodes one input into UTF-8.
pub(super) enum Decoder {
    Utf8Strict(Scanner),
    /// The codec's default repair: one U+FFFD per maximal subpart.
    Utf8Lossy(Repairer),
    Rs {
        decoder: encoding_rs::Decoder,
        consumed: u64,
        replace: bool,
        name: String,
    },
    Latin1,
    /// An IBM PC code page: every byte is a character.
    CodePage(&'static [char; 128]),
    /// 7-bit ASCII: the bytes read so far, and whether to replace.
    Ascii(u64, bool),
    /// UTF-16, UTF-32, UCS-2 and UTF-7: the codec's decoders, in the mode they were made with.
    Codec(Box<dyn Decode>),
    /// A byte order mark or a detection decides the decoder: the head is held until then.
    Sniffing {
        /// `None`: auto.
        enc: Option<Charset>,
        head: Vec<u8>,
        replace: bool,
        /// For auto, the regular file being read: when its head leaves the encoding to the
        /// detector, the detector reads all of it, as utf8check's hint does, so the two agree.
        file: Option<PathBuf>,
    },
    /// After sniffing: the byte order mark's length is added to every offset.
    /// The third field: for `--from auto`, whether the detection was sure.
    Shifted(Box<Decoder>, u64, Option<bool>),
}

/// How much input `--from auto` looks at before deciding.
pub(super) const SNIFF_LEN: usize = 64 * 1024;

impl Decoder {
    /// One of the codec's decoders, strict or replacing.
    fn codec<D: Decode + 'static>(decoder: D, replace: bool) -> Decoder {
        Decoder::Codec(if replace {
            Box::new(decoder.replacing())
        } else {
            Box::new(decoder)
        })
    }

    /// A decoder for `enc`; `None` detects.
    pub(super) fn new(enc: Option<Charset>, replace: bool) -> Decoder {
        let Some(charset) = enc else {
            return Decoder::Sniffing {
                enc,
                head: Vec::new(),
                replace,
                file: None,
            };
        };
        match charset {
            Charset::Utf8 if replace => Decoder::Utf8Lossy(Repairer::new(RepairOptions::default())),
            Charset::Utf8 => Decoder::Utf8Strict(Scanner::new(Config::default())),
            // The codec's decoder converts 16 units at a time (AVX2; 8 with SSSE3): 2.2 GB/s
            // where encoding_rs's decoder gave 0.55 GB/s on the bench's multilingual mix.
            Charset::Utf16(Some(endian)) => Decoder::codec(Utf16Decoder::new(endian), replace),
            // An explicit label reads a byte order mark as what its bytes are in that encoding
            // (the same rule as utf-8 and utf-16le: see the man page).
            Charset::Whatwg(encoding) => Decoder::Rs {
                decoder: encoding.new_decoder_without_bom_handling(),
                consumed: 0,
                replace,
                name: encoding.name().to_owned(),
            },
            Charset::Latin1 => Decoder::Latin1,
            Charset::CodePage(table) => Decoder::CodePage(table),
            Charset::Ascii => Decoder::Ascii(0, replace),
            Charset::Utf32(Some(endian)) => Decoder::codec(Utf32Decoder::new(endian), replace),
            Charset::Ucs2(Some(endian)) => Decoder::codec(Ucs2Decoder::new(endian), replace),
            Charset::Utf7 => Decoder::codec(Utf7Decoder::new(), replace),
            Charset::Utf16(None)
            | Charset::Unicode
            | Charset::Utf32(None)
            | Charset::Ucs2(None) => Decoder::Sniffing {
                enc,
                head: Vec::new(),
                replace,
                file: None,
            },
        }
    }

    pub(super) fn name(&self) -> String {
        match self {
            Decoder::Utf8Strict(_) | Decoder::Utf8Lossy(_) => "UTF-8".into(),
            Decoder::Rs { name, .. } => name.clone(),
            Decoder::Latin1 => "ISO-8859-1".into(),
            Decoder::CodePage(table) => name_of(Charset::CodePage(table)),
            Decoder::Ascii(..) => "US-ASCII".into(),
            Decoder::Codec(decoder) => decoder.name().into(),
            Decoder::Sniffing { enc, .. } => enc.map_or_else(|| "auto".to_owned(), name_of),
            Decoder::Shifted(inner, ..) => inner.name(),
        }
    }

    /// For `--from auto`, once decided: the encoding found and whether the evidence was strong.
    pub(super) fn detection(&self) -> Option<(String, bool)> {
        match self {
            Decoder::Shifted(inner, _, Some(sure)) => Some((inner.name(), *sure)),
            _ => None,
        }
    }

    pub(super) fn decode(
        &mut self,
        src: &[u8],
        last: bool,
        dst: &mut Vec<u8>,
    ) -> Result<(), Malformed> {
        match self {
            Decoder::Utf8Lossy(repairer) => {
                repairer.feed(src, last);
                dst.append(repairer.output());
                Ok(())
            }
            Decoder::Utf8Strict(scanner) => {
                let mut sink = StrictSink { dst, error: None };
                let _ = scanner.feed(src, last, &mut sink);
                sink.error.map_or(Ok(()), Err)
            }
            Decoder::Rs {
                decoder,
                consumed,
                replace,
                ..
            } => decode_rs(decoder, consumed, *replace, src, last, dst),
            Decoder::Latin1 => {
                latin1_to_utf8(src, dst);
                Ok(())
            }
            Decoder::CodePage(table) => {
                for c in utf8kit_mojibake::codepages::chars(table, src) {
                    dst.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                Ok(())
            }
            Decoder::Ascii(consumed, replace) => {
                let result = decode_ascii(src, *consumed, *replace, dst);
                *consumed += src.len() as u64;
                result
            }
            Decoder::Codec(decoder) => decoder.decode(src, last, dst),
            Decoder::Shifted(inner, shift, _) => inner.decode(src, last, dst).map_err(|mut e| {
                e.byte_offset += *shift;
                e
            }),
            Decoder::Sniffing {
                enc,
                head,
                replace,
                file,
            } => {
                head.extend_from_slice(src);
                let needed = if enc.is_none() { SNIFF_LEN } else { 4 };
                if head.len() < needed && !last {
                    return Ok(());
                }
                let head = std::mem::take(head);
                let (decided, bom_len, sure) = sniff(*enc, &head, last, file.as_deref());
                let mut inner = Decoder::new(Some(decided), *replace);
                let result = inner.decode(&head[bom_len..], last, dst);
                *self = Decoder::Shifted(Box::new(inner), bom_len as u64, sure);
                result.map_err(|mut e| {
                    e.byte_offset += bom_len as u64;
                    e
                })
            }
        }
    }
}

/// Decides an encoding from the start of the input (`is_whole` when that is all of it): the
/// encoding and the length of its byte order mark.
/// `enc` is `None` for auto, which also reports whether its detection was sure.
pub(super) fn sniff(
    enc: Option<Charset>,
    head: &[u8],
    is_whole: bool,
    file: Option<&Path>,
) -> (Charset, usize, Option<bool>) {
    let is_utf32 = matches!(enc, Some(Charset::Utf32(None)));
    let bom = match ForeignBom::detect(head) {
        Some(mark) if mark.len_bytes() == 4 && (is_utf32 || enc.is_none()) => {
            Some((Charset::Utf32(Some(mark.endian())), 4))
        }
        // Under a UTF-16 label `FF FE 00 00` is UTF-16LE's mark and a NUL.
        Some(ForeignBom::Utf16Le | ForeignBom::Utf32Le) if !is_utf32 => {
            Some((with_endian(enc, Endian::Little), 2))
        }
        Some(ForeignBom::Utf16Be) if !is_utf32 => Some((with_endian(enc, Endian::Big), 2)),
        _ if enc.is_none() && head.starts_with(UTF8_BOM) => Some((Charset::Utf8, 3)),
        _ => None,
    };
    if let Some((found, len)) = bom {
        return (found, len, enc.is_none().then_some(true));
    }
    match enc {
        None => {
            let (found, sure) = detect_head(head, is_whole, file);
            (found, 0, Some(sure))
        }
        // iconv's UNICODE: without a byte order mark, little-endian.
        Some(Charset::Unicode) => (Charset::Utf16(Some(Endian::Little)), 0, None),
        // RFC 2781: without a byte order mark, big-endian.
        other => (with_endian(other, Endian::Big), 0, None),
    }
}

/// `--from auto` without a byte order mark: UTF-8 when the head is valid (but for a character
/// cut by its end), UTF-16/32 by the zero bytes of ASCII, else the detector of utf8check's hint,
/// over all of `file` when the input is a regular file longer than its head (a gettext catalog
/// holds its translations past 64 KiB of tables and English), over the head otherwise;
/// windows-1252 when even the likeliest reading is no better than a guess.
pub(super) fn detect_head(head: &[u8], is_whole: bool, file: Option<&Path>) -> (Charset, bool) {
    let is_utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && !is_whole,
    };
    if let Some(charset) = crate::detect::unmarked_utf16_or_32(head) {
        return (charset, true);
    }
    if is_utf8 {
        return (Charset::Utf8, true);
    }
    let mut evidence = crate::detect::Evidence::new();
    let whole = file.filter(|_| !is_whole).and_then(|path| {
        let mut whole = crate::detect::Evidence::new();
        feed_file(path, &mut whole).ok().map(|()| whole)
    });
    match whole {
        Some(whole) => evidence = whole,
        None => evidence.feed(head),
    }
    evidence.finish();
    let verdict = crate::detect::detect(&evidence);
    let found = verdict
        .likeliest()
        .unwrap_or(Charset::Whatwg(encoding_rs::WINDOWS_1252));
    (found, matches!(verdict, crate::detect::Verdict::Sure(_)))
}

/// Feeds a whole file to the detector, read again from its start (the conversion goes on from
/// the head it already holds).
pub(super) fn feed_file(path: &Path, evidence: &mut crate::detect::Evidence) -> io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; SNIFF_LEN];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => evidence.feed(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// 7-bit ASCII into UTF-8: a byte above 7F is malformed (U+FFFD when replacing).
pub(super) fn decode_ascii(
    src: &[u8],
    consumed: u64,
    replace: bool,
    dst: &mut Vec<u8>,
) -> Result<(), Malformed> {
    let ascii = src.iter().position(|&b| b >= 0x80).unwrap_or(src.len());
    dst.extend_from_slice(&src[..ascii]);
    if ascii == src.len() {
        return Ok(());
    }
    if !replace {
        return Err(Malformed {
            byte_offset: consumed + ascii as u64,
            kind: MalformedKind::NotAscii(src[ascii]),
        });
    }
    for &byte in &src[ascii..] {
        if byte < 0x80 {
            dst.push(byte);
        } else {
            dst.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    Ok(())
}

/// The byte-ordered form of a UTF-16, UTF-32 or UCS-2 label (UTF-16 for auto and `unicode`).
pub(super) fn with_endian(enc: Option<Charset>, endian: Endian) -> Charset {
    match enc {
        Some(Charset::Utf32(_)) => Charset::Utf32(Some(endian)),
        Some(Charset::Ucs2(_)) => Charset::Ucs2(Some(endian)),
        _ => Charset::Utf16(Some(endian)),
    }
}

pub(super) fn decode_rs(
    decoder: &mut encoding_rs::Decoder,
    consumed: &mut u64,
    replace: bool,
    src: &[u8],
    last: bool,
    dst: &mut Vec<u8>,
) -> Result<(), Malformed> {
    let mut src = src;
    loop {
        let room = if replace {
            decoder.max_utf8_buffer_length(src.len())
        } else {
            decoder.max_utf8_buffer_length_without_replacement(src.len())
        }
        .unwrap_or(src.len() * 3 + 16)
        .max(16);
        let start = dst.len();
        dst.resize(start + room, 0);
        if replace {
            let (_, read, written, _) = decoder.decode_to_utf8(src, &mut dst[start..], last);
            dst.truncate(start + written);
            *consumed += read as u64;
            src = &src[read..];
            if src.is_empty() {
                return Ok(());
            }
            continue;
        }
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(src, &mut dst[start..], last);
        dst.truncate(start + written);
        match result {
            DecoderResult::InputEmpty => {
                *consumed += read as u64;
                return Ok(());
            }
            DecoderResult::OutputFull => {
                *consumed += read as u64;
                src = &src[read..];
            }
            DecoderResult::Malformed(bad, extra) => {
                let offset =
                    (*consumed + read as u64).saturating_sub(u64::from(bad) + u64::from(extra));
                return Err(Malformed {
                    byte_offset: offset,
                    kind: MalformedKind::NoCharacter(usize::from(bad)),
                });
            }
        }
    }
}

pub(super) struct StrictSink<'a> {
    pub(super) dst: &'a mut Vec<u8>,
    pub(super) error: Option<Malformed>,
}

impl Sink for StrictSink<'_> {
    fn text(&mut self, _: u64, bytes: &[u8]) -> ControlFlow<()> {
        self.dst.extend_from_slice(bytes);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.error = Some(Malformed {
            byte_offset: finding.position.byte_offset,
            kind: MalformedKind::IllFormedUtf8 {
                kind: finding.kind,
                bytes: finding.bytes.to_vec(),
            },
        });
        ControlFlow::Break(())
    }
}

/// Encodes UTF-8 text into the target, handling what it cannot encode as `--errors` says.
pub(super) struct Encoder {
    pub(super) kind: EncoderKind,
    pub(super) target: String,
    pub(super) errors: Errors,
    /// Bytes of text encoded so far: where an unencodable character is.
    pub(super) text_offset: u64,
}

pub(super) enum EncoderKind {
    Utf8,
    Utf16 { endian: Endian, needs_bom: bool },
    Utf32 { endian: Endian, needs_bom: bool },
    Ucs2 { endian: Endian, needs_bom: bool },
    Utf7(Utf7Encoder),
    Latin1,
    CodePage(&'static [char; 128]),
    Ascii,
    Rs(encoding_rs::Encoder),
}

pub(super) fn push_bom(dst: &mut Vec<u8>, needs_bom: &mut bool, endian: Endian, width: usize) {
    if std::mem::take(needs_bom) {
        let mark = if width == 2 {
            ForeignBom::utf16(endian)
        } else {
            ForeignBom::utf32(endian)
        };
        dst.extend_from_slice(mark.bytes());
    }
}

impl Encoder {
    pub(super) fn new(enc: Charset, label: &str, errors: Errors) -> Encoder {
        let kind = match enc {
            Charset::Utf8 => EncoderKind::Utf8,
            Charset::Utf16(endian) => EncoderKind::Utf16 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Utf32(endian) => EncoderKind::Utf32 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Ucs2(endian) => EncoderKind::Ucs2 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Utf7 => EncoderKind::Utf7(Utf7Encoder::new()),
            Charset::Unicode => EncoderKind::Utf16 {
                endian: Endian::Little,
                needs_bom: true,
            },
            Charset::Latin1 => EncoderKind::Latin1,
            Charset::CodePage(table) => EncoderKind::CodePage(table),
            Charset::Ascii => EncoderKind::Ascii,
            Charset::Whatwg(encoding) => EncoderKind::Rs(encoding.new_encoder()),
        };
        Encoder {
            kind,
            target: label.to_owned(),
            errors,
            text_offset: 0,
        }
    }

    /// What replaces an unencodable character, or the strict error naming it.
    pub(super) fn unencodable(&self, offset_in_text: usize, c: char) -> Result<String, String> {
        match self.errors {
            Errors::Strict => Err(format!(
                "byte offset {}: U+{:04X} {} cannot be encoded in {}",
                self.text_offset + offset_in_text as u64,
                u32::from(c),
                char_name(c),
                self.target
            )),
            Errors::Replace => Ok("?".to_owned()),
            Errors::Html => Ok(format!("&#{};", u32::from(c))),
            Errors::Drop => Ok(String::new()),
        }
    }

    pub(super) fn encode(
        &mut self,
        text: &str,
        last: bool,
        dst: &mut Vec<u8>,
    ) -> Result<(), String> {
        let result = self.encode_text(text, last, dst);
        self.text_offset += text.len() as u64;
        result
    }

    pub(super) fn encode_text(
        &mut self,
        text: &str,
        last: bool,
        dst: &mut Vec<u8>,
    ) -> Result<(), String> {
        match &mut self.kind {
            EncoderKind::Utf8 => Ok(()),
            EncoderKind::Utf16 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 2);
                encode_utf16(text, *endian, dst);
                Ok(())
            }
            EncoderKind::Utf32 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 4);
                encode_utf32(text, *endian, dst);
                Ok(())
            }
            EncoderKind::Ucs2 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 2);
                let endian = *endian;
                let mut rest = text;
                let mut done = 0;
                while let Err(bad) = encode_ucs2(rest, endian, dst, None) {
                    let replacement = self.unencodable(done + bad.byte_offset, bad.character)?;
                    encode_ucs2(&replacement, endian, dst, None).expect("ASCII is UCS-2");
                    let next = bad.byte_offset + bad.character.len_utf8();
                    done += next;
                    rest = &rest[next..];
                }
                Ok(())
            }
            EncoderKind::Utf7(encoder) => {
                encoder.encode(text, last, dst);
                Ok(())
            }
            EncoderKind::Latin1 => {
                if encoding_rs::mem::is_str_latin1(text) {
                    let start = dst.len();
                    dst.resize(start + text.len(), 0);
                    let written = encoding_rs::mem::convert_utf8_to_latin1_lossy(
                        text.as_bytes(),
                        &mut dst[start..],
                    );
                    dst.truncate(start + written);
                    return Ok(());
                }
                for (offset, c) in text.char_indices() {
                    match u8::try_from(u32::from(c)) {
                        Ok(byte) => dst.push(byte),
                        Err(_) => dst.extend_from_slice(self.unencodable(offset, c)?.as_bytes()),
                    }
                }
                Ok(())
            }
            EncoderKind::CodePage(table) => {
                let table: &'static [char; 128] = table;
                for (offset, c) in text.char_indices() {
                    if c.is_ascii() {
                        dst.push(c as u8);
                    } else if let Some(i) = table.iter().position(|&t| t == c) {
                        dst.push(0x80 + i as u8);
                    } else {
                        dst.extend_from_slice(self.unencodable(offset, c)?.as_bytes());
                    }
                }
                Ok(())
            }
            EncoderKind::Ascii => {
                let ascii = text.bytes().position(|b| b >= 0x80).unwrap_or(text.len());
                dst.extend_from_slice(&text.as_bytes()[..ascii]);
                for (offset, c) in text[ascii..].char_indices() {
                    if c.is_ascii() {
                        dst.push(c as u8);
                    } else {
                        let replacement = self.unencodable(ascii + offset, c)?;
                        dst.extend_from_slice(replacement.as_bytes());
                    }
                }
                Ok(())
            }
            EncoderKind::Rs(_) => self.encode_rs(text, last, dst),
        }
    }

    pub(super) fn encode_rs(
        &mut self,
        text: &str,
        last: bool,
        dst: &mut Vec<u8>,
    ) -> Result<(), String> {
        let mut rest = text;
        let mut done = 0;
        loop {
            let EncoderKind::Rs(encoder) = &mut self.kind else {
                unreachable!("called for encoding_rs encoders only")
            };
            let room = encoder
                .max_buffer_length_from_utf8_without_replacement(rest.len())
                .unwrap_or(rest.len() * 4 + 16)
                .max(16);
            let start = dst.len();
            dst.resize(start + room, 0);
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(rest, &mut dst[start..], last);
            dst.truncate(start + written);
            match result {
                EncoderResult::InputEmpty => return Ok(()),
                EncoderResult::OutputFull => {
                    done += read;
                    rest = &rest[read..];
                }
                EncoderResult::Unmappable(c) => {
                    let offset = done + read - c.len_utf8();
                    let replacement = self.unencodable(offset, c)?;
                    // ASCII replacements are the same in every encoding utf8enc writes this way.
                    dst.extend_from_slice(replacement.as_bytes());
                    done += read;
                    rest = &rest[read..];
                }
            }
        }
    }
}
