use super::*;

fn decode_utf7(input: &[u8]) -> Result<String, Malformed> {
    let mut out = Vec::new();
    Utf7Decoder::new().decode(input, true, &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn strict_decoders_say_what_is_malformed_and_where() {
    let utf16 = |input: &[u8]| {
        let mut out = Vec::new();
        Utf16Decoder::new(Endian::Big)
            .decode(input, true, &mut out)
            .unwrap_err()
    };
    let lone = utf16(b"\x00a\xDC\x00");
    assert_eq!(
        (lone.byte_offset, &lone.kind),
        (2, &MalformedKind::UnpairedLow(0xDC00))
    );
    assert_eq!(
        lone.to_string(),
        "byte offset 2: the low surrogate 0xDC00 follows no high one"
    );
    assert_eq!(
        utf16(b"\xD8\x00").kind,
        MalformedKind::EndsAfterHighSurrogate(0xD800)
    );
    assert_eq!(utf16(b"\x00").kind, MalformedKind::EndsInsideUnit("UTF-16"));
    assert_eq!(
        decode_utf7(b"+ZeV-").unwrap_err().kind,
        MalformedKind::Utf7BitsLeftOver
    );
    let mut out = Vec::new();
    let not_scalar = Utf32Decoder::new(Endian::Little)
        .decode(b"\x00\x00\x11\x00", true, &mut out)
        .unwrap_err();
    assert_eq!(not_scalar.kind, MalformedKind::NotScalar(0x11_0000));
}

#[test]
fn rfc_2152_examples() {
    assert_eq!(decode_utf7(b"A+ImIDkQ.").unwrap(), "A\u{2262}\u{391}.");
    assert_eq!(
        decode_utf7(b"Hi Mom -+Jjo--!").unwrap(),
        "Hi Mom -\u{263A}-!"
    );
    assert_eq!(
        decode_utf7(b"+ZeVnLIqe-").unwrap(),
        "\u{65E5}\u{672C}\u{8A9E}"
    );
    assert_eq!(decode_utf7(b"1 +- 1").unwrap(), "1 + 1");
    assert_eq!(decode_utf7(b"+2D3eAA-").unwrap(), "😀");
    assert!(decode_utf7(b"caf\xe9").is_err());
    assert_eq!(decode_utf7(b"+2D0-").unwrap_err().byte_offset, 0);
    assert!(decode_utf7(b"+ZeV-").is_err(), "bits left over");
}

#[test]
fn utf7_round_trips_every_kind_of_text() {
    let texts = [
        "plain ASCII, with (punctuation) and 1+1=2 ~ \\ done",
        "Grüße, 世界! 😀 Привет +++",
        "+-+",
        "日本語 mixed with ASCII-letters and 'quotes'",
        "",
    ];
    for text in texts {
        let mut encoded = Vec::new();
        let mut encoder = Utf7Encoder::new();
        // Encode in two pieces, splitting a base64 run.
        let mid = text
            .char_indices()
            .nth(text.chars().count() / 2)
            .map_or(0, |(i, _)| i);
        encoder.encode(&text[..mid], false, &mut encoded);
        encoder.encode(&text[mid..], true, &mut encoded);
        assert!(encoded.iter().all(u8::is_ascii), "{text:?}");
        // Decode one byte at a time.
        let mut decoded = Vec::new();
        let mut decoder = Utf7Decoder::new();
        for (i, byte) in encoded.iter().enumerate() {
            decoder
                .decode(&[*byte], i + 1 == encoded.len(), &mut decoded)
                .unwrap();
        }
        if encoded.is_empty() {
            decoder.decode(&[], true, &mut decoded).unwrap();
        }
        assert_eq!(String::from_utf8(decoded).unwrap(), text);
    }
}

#[test]
fn latin1_is_exact() {
    let all: Vec<u8> = (0..=255).cycle().take(1000).collect();
    let mut out = vec![b'>'];
    latin1_to_utf8(&all, &mut out);
    let expected: String = std::iter::once('>')
        .chain(all.iter().map(|&b| char::from(b)))
        .collect();
    assert_eq!(out, expected.as_bytes());
}

#[test]
fn utf16_is_std_in_both_orders_for_every_character_and_run() {
    let every: String = (0..=0x10FFFF).filter_map(char::from_u32).collect();
    // Runs of ASCII and of other characters, of every length up to 20, meeting.
    let mut runs = String::new();
    for len in 0..20 {
        runs.push_str(&"a".repeat(len));
        runs.push_str(&"é😀".repeat(len % 3));
    }
    for text in [&every, &runs, "", "a", "€"] {
        for endian in [Endian::Little, Endian::Big] {
            let mut ours = vec![0xAA];
            encode_utf16(text, endian, &mut ours);
            let mut std = vec![0xAA];
            for unit in text.encode_utf16() {
                std.extend_from_slice(&match endian {
                    Endian::Little => unit.to_le_bytes(),
                    Endian::Big => unit.to_be_bytes(),
                });
            }
            assert!(ours == std, "{endian:?}, {} bytes of text", text.len());
        }
    }
}

#[test]
fn utf32_and_ucs2() {
    let text = "a€😀";
    for endian in [Endian::Little, Endian::Big] {
        let mut bytes = Vec::new();
        encode_utf32(text, endian, &mut bytes);
        assert_eq!(bytes.len(), 12);
        let mut out = Vec::new();
        let mut decoder = Utf32Decoder::new(endian);
        for (i, byte) in bytes.iter().enumerate() {
            decoder.decode(&[*byte], i == 11, &mut out).unwrap();
        }
        assert_eq!(out, text.as_bytes());
    }
    let mut out = Vec::new();
    let error = Utf32Decoder::new(Endian::Big)
        .decode(b"\0\0\0a\0\0\xD8\0", true, &mut out)
        .unwrap_err();
    assert_eq!(error.byte_offset, 4);
    let error = Utf32Decoder::new(Endian::Big)
        .decode(b"\0\0\0a\0\0", true, &mut Vec::new())
        .unwrap_err();
    assert_eq!(error.byte_offset, 4);
    let mut bytes = Vec::new();
    assert_eq!(
        encode_ucs2("a😀", Endian::Little, &mut bytes, None),
        Err(Unencodable {
            byte_offset: 1,
            character: '😀'
        })
    );
    let mut bytes = Vec::new();
    encode_ucs2("a😀", Endian::Big, &mut bytes, Some("?")).unwrap();
    assert_eq!(bytes, b"\0a\0?");
    let error = Ucs2Decoder::new(Endian::Little)
        .decode(b"a\0=\xD8", true, &mut Vec::new())
        .unwrap_err();
    assert_eq!(error.byte_offset, 2);
}
