//! Property tests on random and UTF-8-biased bytes: the codec against the reference scanner,
//! std, and itself cut into chunks.

use std::ops::ControlFlow;

use proptest::prelude::*;
use utf8kit_codec::{
    Config, Lint, LintSet, Policy, RepairOptions, Repairer, Replacement,
    quiet::{Home, Quiet, Zone},
    repair::{Repair, RepairedSink, decode_lossy, latin1_table},
    words::WordRule,
};

use crate::blocks::check_validate;
use crate::oracle::*;

// Property tests on random and UTF-8-biased bytes.

/// Bytes that are mostly pieces of UTF-8: whole characters of every length, lone leads and
/// continuations, surrogates, the RFC 2279 leads, and ASCII, so that errors are dense and varied.
fn utf8ish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        any::<char>().prop_map(|c| c.to_string().into_bytes()),
        "[a-z\n ]{1,8}".prop_map(String::into_bytes),
        // Stretches of Cyrillic, which the word rule below reads a block at a time.
        "[а-яa1«\n ]{20,90}".prop_map(String::into_bytes),
        (0xD800u32..=0xDFFF).prop_map(|s| {
            utf8kit_codec::encode::encode(s, utf8kit_codec::encode::Form::Wtf8)
                .unwrap()
                .as_bytes()
                .to_vec()
        }),
        (0xC0u8..=0xFF).prop_map(|b| vec![b]),
        (0x80u8..=0xBF).prop_map(|b| vec![b]),
        proptest::collection::vec(any::<u8>(), 1..4),
        // The context lints' characters and their neighbours, dense.
        proptest::sample::select(vec![
            '\u{200D}',
            '\u{200C}',
            '\u{200B}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{1F3F4}',
            '\u{E0067}',
            '\u{E0062}',
            '\u{E007F}',
            '\u{E0001}',
            '👨',
            'क',
            'a',
            '1',
            '\u{2800}',
            '⠁',
            '\u{115F}',
            '\u{1160}',
            '\u{1100}',
            '葛',
            '\u{FEFF}',
        ])
        .prop_map(|c| c.to_string().into_bytes()),
    ];
    let bom = prop_oneof![
        Just(&b""[..]),
        Just(&b"\xFF\xFE"[..]),
        Just(&b"\xFE\xFF"[..]),
        Just(&b"\xFF\xFE\x00\x00"[..]),
        Just(&b"\x00\x00\xFE\xFF"[..]),
        Just(&b"\xEF\xBB\xBF"[..]),
        Just(&b"\xEF\xBB\xBF\xEF\xBB\xBF"[..]),
        Just(&b"\xFF\xEF\xBB\xBF"[..]),
    ];
    (bom, proptest::collection::vec(piece, 0..40))
        .prop_map(|(bom, pieces)| [bom.to_vec(), pieces.concat()].concat())
}

fn any_config() -> impl Strategy<Value = Config> {
    (0..4usize, any::<u16>(), any::<bool>()).prop_map(|(p, lints, foreign_bom)| Config {
        foreign_bom,
        policy: [
            Policy::STRICT,
            Policy::CESU8,
            Policy::SURROGATES,
            Policy::MODIFIED,
        ][p],
        lints: Lint::ALL
            .iter()
            .copied()
            .enumerate()
            .filter(|(i, _)| lints & (1 << i) != 0)
            .fold(LintSet::NONE, |set, (_, lint)| set.with(lint)),
        // Every word holding a letter above U+007F and an ASCII letter "mixes scripts": many
        // words are judged, so that a decision that depends on the chunking shows.
        words: Some(WordRule {
            is_word_char: char::is_alphanumeric,
            is_mixed: |word, before| {
                word.contains(|c: char| c.is_ascii_alphabetic()) && before.last() != Some(&b'%')
            },
            quiet: &CYRILLIC_IS_QUIET,
        }),
    })
}

/// Cyrillic words, and ASCII ones, do not mix: so the rule of [`any_config`] says too.
const CYRILLIC_IS_QUIET: Quiet = Quiet::new(
    &[Zone::after(0xC2, 0xAB, 0xAB)],
    &[Home {
        zones: &[Zone::leads(0xD0, 0xD3)],
        takes_ascii: false,
    }],
);

fn any_repair_options() -> impl Strategy<Value = RepairOptions> {
    let replacement = prop_oneof![
        Just(Replacement::default()),
        Just(Replacement::Text("?".into())),
        Just(Replacement::Text(String::new())),
        Just(Replacement::Drop),
        Just(Replacement::Escape),
        Just(Replacement::Fallback(latin1_table())),
    ];
    let strip = prop_oneof![
        Just(LintSet::NONE),
        Just(LintSet::NONE),
        Just(LintSet::ALL),
        Just(LintSet::parse("invisible,tag").unwrap()),
        Just(LintSet::parse("invisible,control,replacement").unwrap()),
    ];
    (replacement, any::<[bool; 3]>(), strip).prop_map(
        |(replacement, [cesu, modified, strip_bom], strip)| RepairOptions {
            replacement,
            cesu,
            modified,
            strip_bom,
            strip,
            words: None,
        },
    )
}

fn repair(input: &[u8], options: &RepairOptions, cuts: &[usize]) -> Vec<u8> {
    let mut repairer = Repairer::new(options.clone());
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, input.len());
        repairer.feed(&input[from..cut], false);
        from = cut;
    }
    repairer.feed(&input[from..], true);
    std::mem::take(repairer.output())
}

/// `repair`, with the output handed over by `feed_to` (runs straight from the input).
fn repair_to(input: &[u8], options: &RepairOptions, cuts: &[usize]) -> Vec<u8> {
    let mut repairer = Repairer::new(options.clone());
    let mut out = Vec::new();
    let mut emit = |bytes: &[u8]| {
        assert!(!bytes.is_empty(), "nothing empty is emitted");
        out.extend_from_slice(bytes);
        ControlFlow::Continue(())
    };
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, input.len());
        let _ = repairer.feed_to(&input[from..cut], false, &mut emit);
        from = cut;
    }
    let _ = repairer.feed_to(&input[from..], true, &mut emit);
    assert!(repairer.output().is_empty(), "everything was emitted");
    out
}

/// `repair`, with the output taken piece by piece (`feed_pieces`): the pieces put together, and
/// the repairs handed on, which each start where the output stood and are counted once.
fn repair_pieces(input: &[u8], options: &RepairOptions, cuts: &[usize]) -> (Vec<u8>, u64) {
    struct Collect {
        out: Vec<u8>,
        repairs: u64,
        next_offset: u64,
    }
    impl RepairedSink for Collect {
        fn text(&mut self, byte_offset: u64, text: &str) -> ControlFlow<()> {
            assert!(
                byte_offset >= self.next_offset,
                "pieces come in input order"
            );
            assert!(!text.is_empty(), "nothing empty is handed on");
            self.next_offset = byte_offset + text.len() as u64;
            self.out.extend_from_slice(text.as_bytes());
            ControlFlow::Continue(())
        }
        fn repaired(&mut self, repair: &Repair, written: &[u8]) -> ControlFlow<()> {
            assert!(
                repair.byte_offset >= self.next_offset,
                "repairs come in input order"
            );
            self.next_offset = repair.byte_offset;
            self.repairs += 1;
            self.out.extend_from_slice(written);
            ControlFlow::Continue(())
        }
    }
    let mut repairer = Repairer::new(options.clone());
    let mut sink = Collect {
        out: Vec::new(),
        repairs: 0,
        next_offset: 0,
    };
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, input.len());
        let _ = repairer.feed_pieces(&input[from..cut], false, &mut sink);
        from = cut;
    }
    let _ = repairer.feed_pieces(&input[from..], true, &mut sink);
    assert!(repairer.output().is_empty(), "nothing goes to the output");
    assert_eq!(sink.repairs, repairer.repair_count());
    (sink.out, sink.repairs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn pieces_are_what_feed_writes(
        input in utf8ish(),
        options in any_repair_options(),
        mut cuts in proptest::collection::vec(0..200usize, 0..6),
    ) {
        cuts.sort_unstable();
        let (pieces, count) = repair_pieces(&input, &options, &cuts);
        prop_assert_eq!(pieces, repair(&input, &options, &[]));
        let mut counter = Repairer::counting(options.clone());
        counter.feed(&input, true);
        prop_assert_eq!(count, counter.repair_count());
    }

    #[test]
    fn feed_to_emits_what_feed_writes(
        input in utf8ish(),
        options in any_repair_options(),
        mut cuts in proptest::collection::vec(0..200usize, 0..6),
    ) {
        cuts.sort_unstable();
        prop_assert_eq!(repair_to(&input, &options, &cuts), repair(&input, &options, &cuts));
        prop_assert_eq!(repair_to(&input, &options, &cuts), repair(&input, &options, &[]));
    }

    #[test]
    fn fast_scanner_equals_reference(input in utf8ish(), config in any_config()) {
        // The reference knows no words.
        let config = Config { words: None, ..config };
        let report = scan_whole(&input, config);
        prop_assert_eq!(&report.rebuilt, &input);
        prop_assert!(report.text_offsets_ok);
        prop_assert_eq!(report.findings, reference_findings(&input, config));
    }

    #[test]
    fn random_bytes_equal_reference(input in proptest::collection::vec(any::<u8>(), 0..300)) {
        let report = scan_whole(&input, Config::default());
        prop_assert_eq!(report.findings, reference_findings(&input, Config::default()));
    }

    #[test]
    fn chunk_splits_change_nothing(
        input in utf8ish(),
        mut cuts in proptest::collection::vec(0..200usize, 0..12),
        config in any_config(),
    ) {
        cuts.sort_unstable();
        prop_assert_eq!(scan_split(&input, &cuts, config), scan_whole(&input, config));
    }

    #[test]
    fn repair_equals_from_utf8_lossy(input in utf8ish()) {
        let mut out = Vec::new();
        decode_lossy(&input, &mut out);
        let expected = String::from_utf8_lossy(&input);
        prop_assert_eq!(out.as_slice(), expected.as_bytes());
        // Repair is idempotent and its output well-formed.
        prop_assert!(std::str::from_utf8(&out).is_ok());
        let mut again = Vec::new();
        decode_lossy(&out, &mut again);
        prop_assert_eq!(again, out);
    }

    #[test]
    fn every_repair_is_well_formed_idempotent_and_split_invariant(
        input in utf8ish(),
        options in any_repair_options(),
        cut in 0..200usize,
    ) {
        let whole = repair(&input, &options, &[]);
        prop_assert!(std::str::from_utf8(&whole).is_ok());
        prop_assert_eq!(repair(&whole, &options, &[]), whole.clone(), "idempotent");
        prop_assert_eq!(repair(&input, &options, &[cut, cut + 3]), whole);
    }

    #[test]
    fn validity_and_first_error_equal_std(input in utf8ish()) {
        check_validate(&input);
        let report = scan_whole(&input, Config::default());
        match std::str::from_utf8(&input) {
            Ok(_) => prop_assert!(report.findings.is_empty()),
            Err(e) => prop_assert_eq!(report.findings[0].0, e.valid_up_to() as u64),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Long well-formed text of every width of character, with one byte replaced anywhere:
    /// the error lands in any block, at any place of it.
    #[test]
    fn one_wrong_byte_in_long_text_is_found_where_std_finds_it(
        text in proptest::collection::vec(
            prop_oneof![any::<char>(), proptest::char::range('a', 'z'), Just('é'), Just('€')],
            0..400,
        ),
        place in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut input = text.iter().collect::<String>().into_bytes();
        check_validate(&input);
        if !input.is_empty() {
            let place = place.index(input.len());
            input[place] = byte;
            check_validate(&input);
            check_validate(&input[..place + 1]);
        }
    }
}

#[test]
fn feed_to_strips_leading_marks_like_feed() {
    let options = RepairOptions {
        strip_bom: true,
        ..RepairOptions::default()
    };
    let input = b"\xEF\xBB\xBF\xEF\xBB\xBFok \xEF\xBB\xBF\xFF";
    let expected = "ok \u{FEFF}\u{FFFD}".as_bytes();
    assert_eq!(repair(input, &options, &[]), expected);
    assert_eq!(repair_to(input, &options, &[]), expected);
    assert_eq!(repair_to(input, &options, &[1, 4, 5]), expected);
}

/// Every SIMD path is held to its portable reference at every level this machine has: the
/// validator, the counts and the widening give std's answers with the kernels capped at each
/// level (the cap is process-wide; every level answers alike, so tests that run meanwhile are
/// not disturbed).
#[test]
fn every_simd_level_gives_the_portable_answers() {
    use utf8kit_codec::simd::{self, Level};
    use utf8kit_codec::{
        is_well_formed,
        position::{count_byte, count_chars},
        validate,
    };
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for len in [0usize, 1, 15, 16, 31, 32, 63, 64, 65, 127, 128, 1000, 4099] {
        for flavour in 0..6u64 {
            let mut bytes = "Grüße, Привет, 世界 😀 text\n"
                .repeat(len / 20 + 1)
                .into_bytes();
            bytes.truncate(len);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if flavour > 0 && len > 0 {
                let at = (state % len as u64) as usize;
                bytes[at] = [0xFF, 0xC0, 0x80, 0xED, 0xF4][(flavour - 1) as usize];
            }
            inputs.push(bytes);
        }
    }
    let reference: Vec<_> = inputs
        .iter()
        .map(|bytes| {
            let std = std::str::from_utf8(bytes);
            (
                std.as_ref().err().map(|e| (e.valid_up_to(), e.error_len())),
                bytes.iter().filter(|&&b| b == b'\n').count(),
                std.map(|text| text.chars().count()).ok(),
            )
        })
        .collect();
    for &level in Level::ALL
        .iter()
        .filter(|&&level| level <= simd::detected())
    {
        simd::cap(level).unwrap();
        assert_eq!(simd::level(), level);
        for (bytes, (error, lines, chars)) in inputs.iter().zip(&reference) {
            let got = validate(bytes)
                .err()
                .map(|e| (e.valid_up_to(), e.error_len()));
            assert_eq!(&got, error, "{level}: {bytes:02x?}");
            assert_eq!(is_well_formed(bytes), error.is_none(), "{level}");
            assert_eq!(count_byte(bytes, b'\n'), *lines, "{level}");
            if let Some(chars) = chars {
                assert_eq!(count_chars(bytes), *chars, "{level}");
            }
        }
    }
    // The widening: UTF-16 of every width (with lone surrogates) and Latin-1, in both byte
    // orders, against std.
    use utf8kit_codec::transcode::{Endian, Utf16Decoder, latin1_to_utf8};
    let mut units: Vec<u16> = "aé€😀 Grüße ¡Привет! 世界 ߀ plain ASCII text of some length"
        .repeat(40)
        .encode_utf16()
        .collect();
    for (k, at) in [7usize, 300, 301, 1500, units.len() - 1]
        .into_iter()
        .enumerate()
    {
        units[at] = [0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0xD834][k];
    }
    let widened: String = char::decode_utf16(units.iter().copied())
        .map(|c| c.unwrap_or('\u{FFFD}'))
        .collect();
    let latin1: Vec<u8> = (0..=255u8).cycle().take(3001).collect();
    let latin1_text: String = latin1.iter().map(|&b| char::from(b)).collect();
    for &level in Level::ALL
        .iter()
        .filter(|&&level| level <= simd::detected())
    {
        simd::cap(level).unwrap();
        for endian in [Endian::Little, Endian::Big] {
            let bytes: Vec<u8> = units
                .iter()
                .flat_map(|u| match endian {
                    Endian::Little => u.to_le_bytes(),
                    Endian::Big => u.to_be_bytes(),
                })
                .collect();
            for cut in [bytes.len(), 33, 4097] {
                let mut decoder = Utf16Decoder::new(endian).replacing();
                let mut out = Vec::new();
                for chunk in bytes.chunks(cut) {
                    decoder.decode(chunk, false, &mut out).unwrap();
                }
                decoder.decode(&[], true, &mut out).unwrap();
                assert!(
                    out == widened.as_bytes(),
                    "{level} {endian:?} chunks of {cut}"
                );
            }
        }
        let mut out = Vec::new();
        latin1_to_utf8(&latin1, &mut out);
        assert!(out == latin1_text.as_bytes(), "{level}: Latin-1");
    }
    simd::cap(simd::detected()).unwrap();
    assert!(simd::cap(Level::Avx512).is_ok() == (simd::detected() == Level::Avx512));
}

/// A byte notation as people write it: hex words, C and URL escapes, code point escapes (a
/// surrogate half too), and separators, some of them line ends.
fn notation_tokens() -> impl Strategy<Value = Vec<String>> {
    let token = prop_oneof![
        any::<u8>().prop_map(|b| format!("{b:02x}")),
        any::<u8>().prop_map(|b| format!("\\x{b:02x}")),
        any::<u8>().prop_map(|b| format!("%{b:02X}")),
        any::<char>().prop_map(|c| format!("\\u{{{:x}}}", u32::from(c))),
        (0xD800u32..=0xDFFF).prop_map(|s| format!("\\u{s:04X}")),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just(", ".to_owned()),
    ];
    proptest::collection::vec(token, 0..40)
}

proptest! {
    /// A notation read piece by piece, cut after any separator, gives the bytes it gives read
    /// whole (or an error in both ways).
    #[test]
    fn a_notation_reads_alike_in_pieces(tokens in notation_tokens(), cuts in proptest::collection::vec(any::<usize>(), 0..4)) {
        let mut text = String::new();
        for token in &tokens {
            if !text.is_empty() && !token.starts_with([' ', '\n', ',']) {
                text.push(' ');
            }
            text.push_str(token);
        }
        let whole = utf8kit_codec::notation::parse_byte_notation(&text);
        let separators: Vec<usize> = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| matches!(b, b' ' | b'\n' | b','))
            .map(|(i, _)| i + 1)
            .collect();
        let mut at: Vec<usize> = cuts
            .iter()
            .filter(|_| !separators.is_empty())
            .map(|c| separators[c % separators.len()])
            .collect();
        at.sort_unstable();
        at.dedup();
        let mut reader = utf8kit_codec::notation::NotationReader::new();
        let mut out = Vec::new();
        let mut from = 0;
        let mut pieces = Ok(());
        for cut in at.into_iter().chain([text.len()]) {
            if pieces.is_ok() && cut >= from {
                pieces = reader.feed(&text[from..cut], &mut out);
                from = cut;
            }
        }
        reader.finish(&mut out);
        match whole {
            Ok(bytes) => {
                prop_assert!(pieces.is_ok(), "{text:?}: {pieces:?}");
                prop_assert_eq!(out, bytes);
            }
            Err(error) => prop_assert_eq!(pieces, Err(error)),
        }
    }
}
