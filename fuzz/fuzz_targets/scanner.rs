//! The streaming scanner and `validate` against the unit iterator and std: the same units
//! whatever the chunk splits, validity and the first error where std puts them.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use utf8kit_codec::quiet::{Home, Quiet, Zone};
use utf8kit_codec::{units, words::WordRule, Config, Finding, LintSet, Policy, Scanner, Sink};

/// The toy rule's text that needs no judging: Cyrillic stretches, and guillemets between words.
const CYRILLIC_IS_QUIET: Quiet = Quiet::new(
    &[Zone::after(0xC2, 0xAB, 0xAB)],
    &[Home {
        zones: &[Zone::leads(0xD0, 0xD3)],
        takes_ascii: false,
    }],
);

#[derive(Default, PartialEq, Debug)]
struct Seen {
    findings: Vec<(u64, u64, u64, String, Vec<u8>, Option<u32>)>,
    rebuilt: Vec<u8>,
}

impl Sink for Seen {
    fn text(&mut self, _: u64, bytes: &[u8]) -> ControlFlow<()> {
        self.rebuilt.extend_from_slice(bytes);
        ControlFlow::Continue(())
    }
    fn finding(&mut self, f: &Finding<'_>) -> ControlFlow<()> {
        self.rebuilt.extend_from_slice(f.bytes);
        let p = f.position;
        self.findings.push((
            p.byte_offset,
            p.line,
            p.column,
            f.kind.to_string(),
            f.bytes.to_vec(),
            f.codepoint,
        ));
        ControlFlow::Continue(())
    }
}

fn scan(data: &[u8], config: Config, cuts: &[usize]) -> Seen {
    let mut seen = Seen::default();
    let mut scanner = Scanner::new(config);
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, data.len());
        let _ = scanner.feed(&data[from..cut], false, &mut seen);
        from = cut;
    }
    let _ = scanner.feed(&data[from..], true, &mut seen);
    assert_eq!(scanner.bytes_scanned(), data.len() as u64);
    seen
}

fuzz_target!(|input: &[u8]| {
    let Some((&control, data)) = input.split_first() else {
        return;
    };
    let config = Config {
        policy: [
            Policy::STRICT,
            Policy::CESU8,
            Policy::SURROGATES,
            Policy::MODIFIED,
        ][usize::from(control & 3)],
        lints: if control & 4 != 0 {
            LintSet::ALL
        } else {
            LintSet::NONE
        },
        foreign_bom: control & 8 != 0,
        // With the lints, a toy rule that calls many words mixed: a word's decision must not
        // depend on the chunking either.
        words: (control & 4 != 0).then_some(WordRule {
            is_word_char: char::is_alphanumeric,
            is_mixed: |word, before| {
                word.contains(|c: char| c.is_ascii_alphabetic()) && before.last() != Some(&b'%')
            },
            // Cyrillic words, and ASCII ones, do not mix: so the rule above says too.
            quiet: &CYRILLIC_IS_QUIET,
        }),
    };
    let whole = scan(data, config, &[]);
    assert_eq!(whole.rebuilt, data, "text and findings rebuild the input");
    let step = usize::from(control >> 4) + 1;
    let cuts: Vec<usize> = (step..data.len()).step_by(step).collect();
    assert_eq!(
        scan(data, config, &cuts),
        whole,
        "chunk splits change nothing"
    );
    if config == Config::default() {
        let ill: Vec<(usize, usize)> = units(data)
            .filter(|(_, u)| u.kind.is_ill_formed())
            .map(|(offset, u)| (offset, u.len))
            .collect();
        let found: Vec<(usize, usize)> = whole
            .findings
            .iter()
            .map(|f| (f.0 as usize, f.4.len()))
            .collect();
        assert_eq!(
            found, ill,
            "the fast path finds the units the plain iterator finds"
        );
        match std::str::from_utf8(data) {
            Ok(_) => assert!(whole.findings.is_empty()),
            Err(e) => assert_eq!(whole.findings[0].0, e.valid_up_to() as u64),
        }
    }
    // `validate` and `is_well_formed` (SIMD, 64 bytes a step) are std's answer.
    let std = std::str::from_utf8(data).map(|_| ()).map_err(|e| (e.valid_up_to(), e.error_len()));
    let ours = utf8kit_codec::validate(data).map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(ours, std, "validate is std's answer");
    assert_eq!(utf8kit_codec::is_well_formed(data), std.is_ok(), "is_well_formed");
});
