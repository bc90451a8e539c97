//! Notations: reading any text never panics, and every written notation reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8kit_codec::encode::{encode, Form};
use utf8kit_codec::notation::{parse_byte_notation, parse_codepoint, write_notation, Notation};

const NOTATIONS: [Notation; 12] = [
    Notation::Hex,
    Notation::C,
    Notation::Rust,
    Notation::Python,
    Notation::Js,
    Notation::Java,
    Notation::Url,
    Notation::Html,
    Notation::Qp,
    Notation::Shell,
    Notation::Octal,
    Notation::Binary,
];

fuzz_target!(|input: &[u8]| {
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = parse_byte_notation(text);
        let _ = parse_codepoint(text);
    }
    if input.len() >= 5 {
        let value = u32::from_le_bytes(input[..4].try_into().unwrap()) % 0x11_0000;
        let notation = NOTATIONS[usize::from(input[4]) % NOTATIONS.len()];
        if let Ok(encoded) = encode(value, Form::Standard) {
            let mut text = String::new();
            write_notation(notation, value, encoded.as_bytes(), &mut text);
            let back =
                parse_byte_notation(&text).unwrap_or_else(|e| panic!("{notation:?} {text:?}: {e}"));
            assert_eq!(back, encoded.as_bytes(), "{notation:?} {text:?}");
        }
    }
});
