//! Where no label decides: a byte order mark, or `--from auto` detecting the encoding.

use super::*;

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
