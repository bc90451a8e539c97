//! The decoders into UTF-8 that `--from` chooses: the codec's, encoding_rs's, ASCII.

use super::*;

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
        /// For auto, what `--from auto:ENC` names for when the detection cannot decide.
        fallback: Option<Charset>,
    },
    /// After sniffing: the byte order mark's length is added to every offset.
    /// The third field: for `--from auto`, the encoding used and whether the detection was sure
    /// (not sure: the fallback of `--from auto:ENC`).
    Shifted(Box<Decoder>, u64, Option<(Charset, bool)>),
    /// `--from auto` could not decide and no fallback was named: nothing is written; why.
    Refused(String),
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
                fallback: None,
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
                fallback: None,
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
            Decoder::Refused(_) => "auto".to_owned(),
        }
    }

    /// For `--from auto`, once decided: the encoding used and whether the detection was sure.
    pub(super) fn detection(&self) -> Option<(Charset, bool)> {
        match self {
            Decoder::Shifted(_, _, Some(detection)) => Some(*detection),
            _ => None,
        }
    }

    /// For `--from auto`, why nothing was decoded.
    pub(super) fn refusal(&self) -> Option<&str> {
        match self {
            Decoder::Refused(why) => Some(why),
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
            Decoder::Refused(_) => Ok(()),
            Decoder::Sniffing {
                enc,
                head,
                replace,
                file,
                fallback,
            } => {
                head.extend_from_slice(src);
                let needed = if enc.is_none() { SNIFF_LEN } else { 4 };
                if head.len() < needed && !last {
                    return Ok(());
                }
                let head = std::mem::take(head);
                let (detected, bom_len) = sniff(*enc, &head, last, file.as_deref());
                let is_auto = enc.is_none();
                let (decided, sure) = match (detected, *fallback) {
                    (Detected::Sure(charset), _) => (charset, true),
                    (Detected::Unsure(_) | Detected::Unclean(_), Some(fallback)) => {
                        (fallback, false)
                    }
                    (undecided, _) => {
                        *self = Decoder::Refused(undecided.why());
                        return Ok(());
                    }
                };
                let mut inner = Decoder::new(Some(decided), *replace);
                let result = inner.decode(&head[bom_len..], last, dst);
                *self = Decoder::Shifted(
                    Box::new(inner),
                    bom_len as u64,
                    is_auto.then_some((decided, sure)),
                );
                result.map_err(|mut e| {
                    e.byte_offset += bom_len as u64;
                    e
                })
            }
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
