//! `UTF8KIT_FORCE_IMPL`: every instruction-set level this machine has gives the same output,
//! byte for byte, in every program; an unknown level or one the processor lacks is refused.

use utf8kit_codec::simd::{self, Level};

use crate::common::program;

/// Text with every kind of finding, mojibake of two layers, UTF-16 to convert, long enough for
/// the 64-byte kernels to run over several blocks.
fn mixed_input() -> Vec<u8> {
    let mut input = Vec::new();
    for n in 0..400 {
        input.extend_from_slice(format!("{n} plain ASCII line, and some more words\n").as_bytes());
        input.extend_from_slice("Grüße, déjà vu, Привет, 世界, 😀\n".as_bytes());
        input.extend_from_slice("cafÃ© crÃ¨me, ÐŸÑ€Ð¸Ð²ÐµÑ‚, GrÃƒÂ¼ÃƒÅ¸e\n".as_bytes());
        if n % 7 == 3 {
            input.extend_from_slice(b"bad \xc0\xaf \xed\xa0\x80 \xe2\x82 \xff \xf4\x90\x80\x80\n");
        }
    }
    input
}

#[test]
fn every_level_gives_the_same_output() {
    let input = mixed_input();
    let utf16: Vec<u8> = "Grüße, Привет, 世界 😀\n"
        .repeat(200)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let runs: [(&str, &[&str], &[u8]); 5] = [
        ("utf8check", &["--format", "json"], &input),
        ("utf8check", &["--deny", "all", "--format", "json"], &input),
        ("utf8fix", &["--mojibake", "-v"], &input),
        ("utf8dump", &["-x"], &input),
        ("utf8enc", &["--from", "utf-16le"], &utf16),
    ];
    for (name, args, input) in runs {
        let output = |level: Option<Level>| {
            let mut command = program(name);
            command.args(args).write_stdin(input.to_vec());
            if let Some(level) = level {
                command.env("UTF8KIT_FORCE_IMPL", level.as_str());
            }
            command.output().unwrap()
        };
        let expected = output(None);
        assert!(!expected.stdout.is_empty(), "{name} {args:?}");
        for &level in Level::ALL
            .iter()
            .filter(|&&level| level <= simd::detected())
        {
            let got = output(Some(level));
            assert_eq!(
                got.status.code(),
                expected.status.code(),
                "{name} {args:?} at {level}"
            );
            assert!(
                got.stdout == expected.stdout,
                "{name} {args:?}: stdout differs at {level}"
            );
            assert!(
                got.stderr == expected.stderr,
                "{name} {args:?}: stderr differs at {level}"
            );
        }
    }
}

#[test]
fn an_unknown_level_or_one_the_processor_lacks_is_refused() {
    program("utf8check")
        .env("UTF8KIT_FORCE_IMPL", "sse9")
        .write_stdin("fine\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "utf8check: UTF8KIT_FORCE_IMPL=sse9: unknown level (possible values: avx512, avx2, \
             portable)\n",
        );
    if simd::detected() < Level::Avx512 {
        program("utf8fix")
            .env("UTF8KIT_FORCE_IMPL", "avx512")
            .write_stdin("fine\n")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "UTF8KIT_FORCE_IMPL=avx512: this processor has no avx512",
            ));
    }
    // Each program reads it.
    for name in ["utf8check", "utf8dump", "utf8fix", "utf8enc"] {
        program(name)
            .env("UTF8KIT_FORCE_IMPL", "")
            .arg("--version")
            .assert()
            .code(2);
    }
}
