//! The UTF-16 and Latin-1 decoders against the standard library: `char::decode_utf16` with
//! U+FFFD for each error (which is what the WHATWG Encoding Standard decodes), every unit value
//! at every position of a SIMD block, every surrogate pair, random input cut into random
//! chunks, and strict mode stopping where the first error is.

use proptest::prelude::*;
use utf8kit_codec::transcode::{Endian, Malformed, Utf16Decoder, latin1_to_utf8};

fn bytes_of(units: &[u16], endian: Endian) -> Vec<u8> {
    units
        .iter()
        .flat_map(|u| match endian {
            Endian::Little => u.to_le_bytes(),
            Endian::Big => u.to_be_bytes(),
        })
        .collect()
}

/// What a decoder must give for `bytes`: the output with U+FFFD for each error, the offset of
/// the first error, and the output before it.
fn reference(bytes: &[u8], endian: Endian) -> (String, Option<u64>, String) {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| match endian {
            Endian::Little => u16::from_le_bytes([b[0], b[1]]),
            Endian::Big => u16::from_be_bytes([b[0], b[1]]),
        })
        .collect();
    let mut replaced = String::new();
    let mut first_error = None;
    let mut before_error = String::new();
    let mut index = 0;
    let mut ends_unpaired_high = false;
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) => {
                replaced.push(c);
                index += c.len_utf16();
            }
            Err(e) => {
                if first_error.is_none() {
                    first_error = Some(2 * index as u64);
                    before_error = replaced.clone();
                }
                replaced.push('\u{FFFD}');
                index += 1;
                ends_unpaired_high = index == units.len() && e.unpaired_surrogate() < 0xDC00;
            }
        }
    }
    // A byte left over: one more error, unless a high surrogate cut by the end already made
    // one (WHATWG: one error for both).
    if bytes.len() % 2 == 1 && !ends_unpaired_high {
        if first_error.is_none() {
            first_error = Some(bytes.len() as u64 - 1);
            before_error = replaced.clone();
        }
        replaced.push('\u{FFFD}');
    }
    (replaced, first_error, before_error)
}

/// Decodes `bytes` cut at `cuts`; the error of strict mode comes with the output before it.
fn decode(
    bytes: &[u8],
    endian: Endian,
    cuts: &[usize],
    replace: bool,
) -> (Vec<u8>, Result<(), Malformed>) {
    let mut decoder = Utf16Decoder::new(endian);
    if replace {
        decoder = decoder.replacing();
    }
    let mut out = Vec::new();
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, bytes.len());
        if let Err(e) = decoder.decode(&bytes[from..cut], false, &mut out) {
            return (out, Err(e));
        }
        from = cut;
    }
    let result = decoder.decode(&bytes[from..], true, &mut out);
    (out, result)
}

fn check(bytes: &[u8], endian: Endian, cuts: &[usize]) -> Result<(), TestCaseError> {
    let (replaced, first_error, before_error) = reference(bytes, endian);
    let (out, result) = decode(bytes, endian, cuts, true);
    prop_assert!(result.is_ok());
    prop_assert_eq!(String::from_utf8(out).unwrap(), replaced);
    let (out, result) = decode(bytes, endian, cuts, false);
    match first_error {
        None => prop_assert!(result.is_ok()),
        Some(offset) => prop_assert_eq!(result.map_err(|e| e.byte_offset), Err(offset)),
    }
    let expected = if first_error.is_some() {
        before_error
    } else {
        reference(bytes, endian).0
    };
    prop_assert_eq!(String::from_utf8(out).unwrap(), expected);
    Ok(())
}

/// Mixed text around the unit under test, so that the SIMD paths see it in every lane.
const CONTEXT: &str = "aé€😀b中ñ🎉 x€é😀";

#[test]
fn every_unit_at_every_lane() {
    let context: Vec<u16> = CONTEXT.encode_utf16().collect();
    for endian in [Endian::Little, Endian::Big] {
        for lane in 0..18 {
            let mut units: Vec<u16> = context.iter().copied().cycle().take(lane).collect();
            // A pair cut by the end of the prefix is part of the test too.
            let prefix_len = units.len();
            units.push(0);
            units.extend(context.iter().copied().cycle().take(40));
            for value in 0..=u16::MAX {
                units[prefix_len] = value;
                let bytes = bytes_of(&units, endian);
                let (replaced, ..) = reference(&bytes, endian);
                let (out, result) = decode(&bytes, endian, &[], true);
                assert!(result.is_ok());
                assert_eq!(out, replaced.as_bytes(), "{value:04X} at lane {lane}");
            }
        }
    }
}

#[test]
fn every_surrogate_pair() {
    for endian in [Endian::Little, Endian::Big] {
        for prefix in [&[][..], &[0x61][..], &[0x61, 0xE9, 0x4E2D][..]] {
            let mut units = prefix.to_vec();
            for high in 0xD800..0xDC00u16 {
                units.truncate(prefix.len());
                for low in 0xDC00..0xE000u16 {
                    units.extend([high, low]);
                }
                let bytes = bytes_of(&units, endian);
                let (out, result) = decode(&bytes, endian, &[], false);
                assert!(result.is_ok());
                assert_eq!(out, String::from_utf16(&units).unwrap().as_bytes());
            }
        }
    }
}

#[test]
fn errors_name_the_unit_and_why() {
    let error = |bytes: &[u8]| decode(bytes, Endian::Little, &[], false).1.unwrap_err();
    assert_eq!(
        error(b"a\0\x00\xDCb\0").to_string(),
        "byte offset 2: the low surrogate 0xDC00 follows no high one"
    );
    assert_eq!(
        error(b"a\0\x3D\xD8b\0").to_string(),
        "byte offset 2: the high surrogate 0xD83D is not followed by a low one"
    );
    assert_eq!(
        error(b"a\0\x3D\xD8").to_string(),
        "byte offset 2: the input ends after the high surrogate 0xD83D"
    );
    assert_eq!(
        error(b"a\0b").to_string(),
        "byte offset 2: the input ends inside a UTF-16 code unit"
    );
    // A pair, a unit and a cut across chunks of one byte.
    let bytes = bytes_of(&[0xD83D, 0xDE00, 0x20AC], Endian::Big);
    let (out, result) = decode(&bytes, Endian::Big, &[1, 2, 3, 4, 5], false);
    assert_eq!((out, result), ("😀€".as_bytes().to_vec(), Ok(())));
}

/// Units of every kind: pairs often, lone surrogates now and then.
fn units() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop_oneof![
        4 => (0u16..0x80).prop_map(|u| vec![u]),
        2 => (0x80u16..0x800).prop_map(|u| vec![u]),
        3 => (0x800u16..0xD800).prop_map(|u| vec![u]),
        1 => (0xE000u16..=0xFFFF).prop_map(|u| vec![u]),
        3 => (0xD800u16..0xDC00, 0xDC00u16..0xE000).prop_map(|(h, l)| vec![h, l]),
        1 => (0xD800u16..0xE000).prop_map(|u| vec![u]),
    ];
    proptest::collection::vec(unit, 0..120).prop_map(|units| units.concat())
}

fn any_endian() -> impl Strategy<Value = Endian> {
    prop_oneof![Just(Endian::Little), Just(Endian::Big)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn utf16_equals_std_in_any_chunks(
        units in units(),
        endian in any_endian(),
        odd_byte in proptest::option::of(any::<u8>()),
        mut cuts in proptest::collection::vec(0..300usize, 0..6),
    ) {
        let mut bytes = bytes_of(&units, endian);
        bytes.extend(odd_byte);
        cuts.sort_unstable();
        check(&bytes, endian, &[])?;
        check(&bytes, endian, &cuts)?;
    }

    #[test]
    fn latin1_equals_std(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut out = b"kept".to_vec();
        latin1_to_utf8(&bytes, &mut out);
        let expected: String = bytes.iter().map(|&b| char::from(b)).collect();
        prop_assert_eq!(&out[..4], b"kept");
        prop_assert_eq!(&out[4..], expected.as_bytes());
    }
}

#[test]
fn every_latin1_byte_at_every_lane() {
    let mut bytes: Vec<u8> = b"ab\xE9cd".iter().copied().cycle().take(60).collect();
    for lane in 0..33 {
        for value in 0..=255u8 {
            bytes[lane] = value;
            let mut out = Vec::new();
            latin1_to_utf8(&bytes, &mut out);
            let expected: String = bytes.iter().map(|&b| char::from(b)).collect();
            assert_eq!(out, expected.as_bytes(), "{value:02X} at {lane}");
        }
    }
}
