//! Undoing mojibake never panics, and its output needs no second pass.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8kit_mojibake::fix_mojibake;

fuzz_target!(|text: &str| {
    if let Some((fixed, _)) = fix_mojibake(text) {
        assert_eq!(
            fix_mojibake(&fixed),
            None,
            "idempotent: {text:?} gave {fixed:?}"
        );
    }
});
