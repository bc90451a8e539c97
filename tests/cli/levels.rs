//! `UTF8KIT_FORCE_IMPL`: every instruction-set level this machine has gives the same output,
//! byte for byte, in every program; an unknown level or one the processor lacks is refused.

use utf8kit_codec::simd::{self, Level};

use crate::common::program;

/// Text with every kind of finding, mojibake of two layers and of double-byte readings, UTF-16
/// to convert, long enough for the 64-byte kernels to run over several blocks.
fn mixed_input() -> Vec<u8> {
    let mut input = Vec::new();
    for n in 0..400 {
        input.extend_from_slice(format!("{n} plain ASCII line, and some more words\n").as_bytes());
        input.extend_from_slice("Grüße, déjà vu, Привет, 世界, 😀\n".as_bytes());
        input.extend_from_slice("cafÃ© crÃ¨me, ÐŸÑ€Ð¸Ð²ÐµÑ‚, GrÃƒÂ¼ÃƒÅ¸e\n".as_bytes());
        // UTF-8 read as GBK and as Shift_JIS (the second lost bytes), and clean CJK text.
        input.extend_from_slice(
            "鍙傛暟閿欒\u{E1E4}锛岃\u{E1EC}閲嶈瘯銆傛枃浠朵笉瀛樺湪\n".as_bytes(),
        );
        input.extend_from_slice("譁\u{FFFD}ｭ怜喧縺\u{FFFD}繝ｭ繧ｰ繧｢繧ｦ繝医＠縺ｾ縺励◆\n".as_bytes());
        input.extend_from_slice("参数错误，请重试。文字化けのテスト。안녕하세요\n".as_bytes());
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
        let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        assert_alike_at_every_level(name, &args, Some(input));
    }
}

/// `name args` (reading `stdin`, if any) uncapped and capped at each level this machine has:
/// the same status, output and messages, byte for byte.
fn assert_alike_at_every_level(name: &str, args: &[&std::ffi::OsStr], stdin: Option<&[u8]>) {
    let output = |level: Option<Level>| {
        let mut command = program(name);
        command.args(args);
        if let Some(stdin) = stdin {
            command.write_stdin(stdin.to_vec());
        }
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

/// The public test data (Kuhn's stress test, the WHATWG cases, encoding_rs's files, the
/// naughty strings, ftfy's cases), a file of one error per KiB of every kind, and a file large
/// enough that utf8check checks it in parts on every core: alike at every level.
#[test]
fn the_conformance_data_and_dense_errors_are_alike_at_every_level() {
    let conformance =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if !conformance.is_dir() {
        crate::common::skip(&format!(
            "conformance data absent: {}",
            conformance.display()
        ));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // One mistake of each kind in turn, one per KiB, in text of several scripts.
    let kinds: [&[u8]; 9] = [
        b"\x80",
        b"\xe9 ",
        b"\xf8",
        b"\xff",
        b"\xc0\xaf",
        b"\xe0\x80\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xe2\x82 ",
    ];
    let text = "Grüße déjà vu Привет 世界 😀 plain words\n".repeat(20);
    let mut dense = Vec::new();
    for (n, kind) in kinds.iter().cycle().take(900).enumerate() {
        dense.extend_from_slice(&text.as_bytes()[..1000 + n % 17]);
        dense.extend_from_slice(kind);
    }
    let dense_path = dir.path().join("dense.txt");
    std::fs::write(&dense_path, &dense).unwrap();
    // 40 MB of well-formed text of every width, but one mistake near the end.
    let mut big = "Grüße déjà vu Привет 世界 😀 plain ASCII words to fill the line\n"
        .repeat(500_000)
        .into_bytes();
    let at = big.len() - 1000;
    big.splice(at..at, *b"\xed\xa0\x80");
    let big_path = dir.path().join("big.txt");
    std::fs::write(&big_path, &big).unwrap();
    let c = conformance.as_os_str();
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    assert_alike_at_every_level(
        "utf8check",
        &[os("-r"), os("--format"), os("json"), c],
        None,
    );
    assert_alike_at_every_level(
        "utf8check",
        &[os("-r"), os("--deny"), os("all"), os("-c"), c],
        None,
    );
    assert_alike_at_every_level(
        "utf8check",
        &[os("--format"), os("json"), dense_path.as_os_str()],
        None,
    );
    assert_alike_at_every_level("utf8check", &[os("-c"), big_path.as_os_str()], None);
    assert_alike_at_every_level("utf8check", &[big_path.as_os_str()], None);
    for file in [
        "ftfy/ftfy-cases.jsonl",
        "ftfy/ftfy-extra-layer.jsonl",
        "kuhn/UTF-8-test.txt",
        "naughty-strings/blns.txt",
    ] {
        let path = conformance.join(file);
        if !path.exists() {
            crate::common::skip(&format!("conformance file absent: {}", path.display()));
            continue;
        }
        let path = path.as_os_str();
        assert_alike_at_every_level("utf8fix", &[os("--mojibake"), os("-v"), path], None);
        assert_alike_at_every_level("utf8fix", &[os("-v"), path], None);
        assert_alike_at_every_level("utf8dump", &[os("--color"), os("never"), path], None);
    }
    assert_alike_at_every_level(
        "utf8fix",
        &[os("--mojibake"), os("-v"), dense_path.as_os_str()],
        None,
    );
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
