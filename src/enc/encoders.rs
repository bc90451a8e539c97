//! The encoders out of UTF-8 that `--to` chooses, and what they do with what they cannot write.

use super::*;

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
