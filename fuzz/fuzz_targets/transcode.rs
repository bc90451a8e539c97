//! The codec's transcoders never panic on any input, always write UTF-8, and round-trip text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8kit_codec::transcode::{
    encode_ucs2, encode_utf32, latin1_to_utf8, Decode, Endian, Ucs2Decoder, Utf16Decoder, Utf32Decoder,
    Utf7Decoder, Utf7Encoder,
};

fuzz_target!(|input: &[u8]| {
    let Some((&control, data)) = input.split_first() else {
        return;
    };
    let replace = control & 1 != 0;
    let endian = if control & 2 != 0 {
        Endian::Big
    } else {
        Endian::Little
    };
    let cut = usize::from(control >> 2).min(data.len());
    let mut out = Vec::new();
    let mode = |decoder: Box<dyn Decode>, replacing: Box<dyn Decode>| {
        if replace {
            replacing
        } else {
            decoder
        }
    };
    let mut utf32 = mode(
        Box::new(Utf32Decoder::new(endian)),
        Box::new(Utf32Decoder::new(endian).replacing()),
    );
    let _ = utf32
        .decode(&data[..cut], false, &mut out)
        .and_then(|()| utf32.decode(&data[cut..], true, &mut out));
    assert!(std::str::from_utf8(&out).is_ok());
    out.clear();
    // UTF-16, cut anywhere, decodes as the standard library does (with U+FFFD for each error).
    let mut utf16 = Utf16Decoder::new(endian).replacing();
    let split = utf16
        .decode(&data[..cut], false, &mut out)
        .and_then(|()| utf16.decode(&data[cut..], true, &mut out));
    assert!(split.is_ok());
    if data.len() % 2 == 0 {
        let units = data.chunks_exact(2).map(|b| match endian {
            Endian::Little => u16::from_le_bytes([b[0], b[1]]),
            Endian::Big => u16::from_be_bytes([b[0], b[1]]),
        });
        let expected: String = char::decode_utf16(units)
            .map(|c| c.unwrap_or('\u{FFFD}'))
            .collect();
        assert_eq!(out, expected.as_bytes());
    }
    out.clear();
    let mut ucs2 = mode(
        Box::new(Ucs2Decoder::new(endian)),
        Box::new(Ucs2Decoder::new(endian).replacing()),
    );
    let _ = ucs2
        .decode(&data[..cut], false, &mut out)
        .and_then(|()| ucs2.decode(&data[cut..], true, &mut out));
    assert!(std::str::from_utf8(&out).is_ok());
    out.clear();
    let mut utf7 = mode(
        Box::new(Utf7Decoder::new()),
        Box::new(Utf7Decoder::new().replacing()),
    );
    let _ = utf7
        .decode(&data[..cut], false, &mut out)
        .and_then(|()| utf7.decode(&data[cut..], true, &mut out));
    assert!(std::str::from_utf8(&out).is_ok());
    out.clear();
    latin1_to_utf8(data, &mut out);
    assert_eq!(
        std::str::from_utf8(&out).unwrap().chars().count(),
        data.len()
    );
    // Text round-trips through UTF-7 and UTF-32, and through UCS-2 when it fits.
    let text = String::from_utf8_lossy(data);
    let mut encoded = Vec::new();
    let mut encoder = Utf7Encoder::new();
    let mid = text
        .char_indices()
        .nth(text.chars().count() / 2)
        .map_or(0, |(i, _)| i);
    encoder.encode(&text[..mid], false, &mut encoded);
    encoder.encode(&text[mid..], true, &mut encoded);
    let mut back = Vec::new();
    Utf7Decoder::new()
        .decode(&encoded, true, &mut back)
        .expect("our UTF-7 decodes");
    assert_eq!(back, text.as_bytes());
    encoded.clear();
    encode_utf32(&text, endian, &mut encoded);
    back.clear();
    Utf32Decoder::new(endian)
        .decode(&encoded, true, &mut back)
        .expect("our UTF-32 decodes");
    assert_eq!(back, text.as_bytes());
    encoded.clear();
    if encode_ucs2(&text, endian, &mut encoded, None).is_ok() {
        back.clear();
        Ucs2Decoder::new(endian)
            .decode(&encoded, true, &mut back)
            .expect("our UCS-2 decodes");
        assert_eq!(back, text.as_bytes());
    }
});
