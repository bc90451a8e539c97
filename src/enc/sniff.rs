//! Where no label decides: a byte order mark, or `--from auto` detecting the encoding.

use super::*;

/// What `--from auto` made of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Detected {
    /// An encoding it is sure of (a byte order mark, UTF-8, ISO-2022-JP's escapes, strong
    /// statistics).
    Sure(Charset),
    /// Evidence too weak to decide: the candidates it weighed (none, one or two).
    Unsure(Vec<Charset>),
    /// Evidence enough, but no reading is clean text: the encodings it came nearest to.
    Unclean(Vec<Charset>),
    /// An encoding it recognises but no decoder here reads.
    Undecodable(&'static str),
}

impl Detected {
    /// Why nothing was decoded, for the message.
    pub(super) fn why(&self) -> String {
        let advice = "name the encoding with --from ENC, or --from auto:ENC to use ENC when \
                      detection cannot decide; nothing was written";
        match self {
            Detected::Sure(charset) => format!("detected {}", label_of(*charset)),
            Detected::Unsure(candidates) if candidates.is_empty() => {
                format!("cannot tell the encoding: too little evidence for any ({advice})")
            }
            Detected::Unsure(candidates) => {
                let names: Vec<String> = candidates.iter().map(|&c| label_of(c)).collect();
                format!(
                    "cannot tell the encoding: the evidence is too weak to choose (weighed: {}; \
                     {advice})",
                    names.join(", ")
                )
            }
            Detected::Unclean(nearest) => {
                let names: Vec<String> = nearest.iter().map(|&c| label_of(c)).collect();
                format!(
                    "cannot tell the encoding: no reading is clean text (weighed: {}; the text \
                     may be in an encoding utf8enc does not read, such as Johab or EUC-TW; \
                     {advice})",
                    names.join(", ")
                )
            }
            Detected::Undecodable(name) => format!(
                "the text is in {name}, which utf8enc cannot decode (iconv -f {name} can); \
                 nothing was written"
            ),
        }
    }
}

/// The label `--from` takes for exactly this decoding (`utf-32le`, not `utf-32`, which reads
/// a byte order mark and means big-endian without one).
pub(super) fn label_of(charset: Charset) -> String {
    encodings::entry_of(charset).name.to_ascii_lowercase()
}

/// ISO-2022 text by its escape sequences: 7-bit, so it would pass for UTF-8.
fn iso_2022(head: &[u8]) -> Option<Detected> {
    match crate::detect::iso_2022(head)? {
        crate::detect::Iso2022::Korean => Some(Detected::Undecodable("ISO-2022-KR")),
        crate::detect::Iso2022::Japanese => {
            Some(Detected::Sure(Charset::Whatwg(encoding_rs::ISO_2022_JP)))
        }
    }
}

/// Decides an encoding from the start of the input (`is_whole` when that is all of it): what
/// was detected (for an explicit label, that label, sure) and the length of its byte order
/// mark. `enc` is `None` for auto.
pub(super) fn sniff(
    enc: Option<Charset>,
    head: &[u8],
    is_whole: bool,
    file: Option<&Path>,
) -> (Detected, usize) {
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
        return (Detected::Sure(found), len);
    }
    match enc {
        None => (detect_head(head, is_whole, file), 0),
        // iconv's UNICODE: without a byte order mark, little-endian.
        Some(Charset::Unicode) => (Detected::Sure(Charset::Utf16(Some(Endian::Little))), 0),
        // RFC 2781: without a byte order mark, big-endian.
        other => (Detected::Sure(with_endian(other, Endian::Big)), 0),
    }
}

/// `--from auto` without a byte order mark: ISO-2022 by its escapes, UTF-8 when the head is
/// valid (but for a character cut by its end), UTF-16/32 by the zero bytes of ASCII, else the
/// detector of utf8check's hint, over all of `file` when the input is a regular file longer
/// than its head (a gettext catalog holds its translations past 64 KiB of tables and English),
/// over the head otherwise; unsure, with the candidates it weighed, when the evidence is weak.
pub(super) fn detect_head(head: &[u8], is_whole: bool, file: Option<&Path>) -> Detected {
    let is_utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && !is_whole,
    };
    if let Some(charset) = crate::detect::unmarked_utf16_or_32(head) {
        return Detected::Sure(charset);
    }
    if let Some(detected) = iso_2022(head) {
        return detected;
    }
    if is_utf8 {
        return Detected::Sure(Charset::Utf8);
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
    match crate::detect::detect(&evidence) {
        crate::detect::Verdict::Sure(charset) => Detected::Sure(charset),
        crate::detect::Verdict::Possibly(first, second) => Detected::Unsure(vec![first, second]),
        crate::detect::Verdict::Unknown => match crate::detect::nearest(&evidence) {
            nearest if nearest.is_empty() => Detected::Unsure(nearest),
            nearest => Detected::Unclean(nearest),
        },
    }
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
