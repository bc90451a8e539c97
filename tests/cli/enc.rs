//! `utf8enc` as a user runs it.

use std::io::Write;

use predicates::prelude::*;

use crate::common::{json_lines, program, stdout_of};

fn utf8enc() -> assert_cmd::Command {
    program("utf8enc")
}

fn run(args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let output = utf8enc().args(args).write_stdin(input).output().unwrap();
    (
        output.status.code(),
        output.stdout,
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn text_of(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args, b"");
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    String::from_utf8(stdout).unwrap()
}

/// The examples of RFC 3629 section 7, as bytes.
#[test]
fn rfc_3629_examples() {
    let rows: &[(&str, &str)] = &[
        ("A\u{2262}\u{391}.", "41 E2 89 A2 CE 91 2E"),
        ("\u{D55C}\u{AD6D}\u{C5B4}", "ED 95 9C EA B5 AD EC 96 B4"),
        ("\u{65E5}\u{672C}\u{8A9E}", "E6 97 A5 E6 9C AC E8 AA 9E"),
        ("\u{FEFF}\u{233B4}", "EF BB BF F0 A3 8E B4"),
    ];
    for (text, hex) in rows {
        let got = text_of(&["-f", "hex", "-t", text]);
        assert_eq!(
            got.split_whitespace().collect::<Vec<_>>().join(" "),
            *hex,
            "{text}"
        );
    }
}

#[test]
fn the_four_vectors_in_every_format() {
    let rows: &[(&str, [&str; 4])] = &[
        ("hex", ["24", "C2 A2", "E2 82 AC", "F0 90 8D 88"]),
        (
            "c",
            [
                "\\x24",
                "\\xc2\\xa2",
                "\\xe2\\x82\\xac",
                "\\xf0\\x90\\x8d\\x88",
            ],
        ),
        ("rust", ["\\u{24}", "\\u{a2}", "\\u{20ac}", "\\u{10348}"]),
        ("python", ["\\u0024", "\\u00a2", "\\u20ac", "\\U00010348"]),
        ("js", ["\\u0024", "\\u00A2", "\\u20AC", "\\uD800\\uDF48"]),
        ("java", ["\\u0024", "\\u00A2", "\\u20AC", "\\uD800\\uDF48"]),
        ("url", ["%24", "%C2%A2", "%E2%82%AC", "%F0%90%8D%88"]),
        ("html", ["&#x24;", "&#xA2;", "&#x20AC;", "&#x10348;"]),
        ("qp", ["=24", "=C2=A2", "=E2=82=AC", "=F0=90=8D=88"]),
        (
            "shell",
            [
                "$'\\x24'",
                "$'\\xc2\\xa2'",
                "$'\\xe2\\x82\\xac'",
                "$'\\xf0\\x90\\x8d\\x88'",
            ],
        ),
        (
            "octal",
            [
                "\\044",
                "\\302\\242",
                "\\342\\202\\254",
                "\\360\\220\\215\\210",
            ],
        ),
        (
            "binary",
            [
                "00100100",
                "11000010 10100010",
                "11100010 10000010 10101100",
                "11110000 10010000 10001101 10001000",
            ],
        ),
        ("utf16", ["0024", "00A2", "20AC", "D800 DF48"]),
        ("utf32", ["00000024", "000000A2", "000020AC", "00010348"]),
        (
            "name",
            [
                "DOLLAR SIGN",
                "CENT SIGN",
                "EURO SIGN",
                "GOTHIC LETTER HWAIR",
            ],
        ),
    ];
    let inputs = ["U+0024", "¢", "0x20AC", "\\u{10348}"];
    for (format, expected) in rows {
        let mut args = vec!["-f", format];
        args.extend(inputs);
        let got = text_of(&args);
        assert_eq!(got.lines().collect::<Vec<_>>(), expected, "{format}");
        // Every byte or escape notation reads back through --decode.
        if !matches!(*format, "utf16" | "utf32" | "name") {
            let back = text_of(&["-d", &got]);
            assert_eq!(
                back, "U+0024 $\nU+00A2 ¢\nU+20AC €\nU+10348 𐍈\n",
                "{format} reads back"
            );
        }
    }
    let raw = run(&["-f", "raw", "U+0024", "U+00A2", "U+20AC", "U+10348"], b"");
    assert_eq!(raw.1, "$¢€𐍈".as_bytes());
    let json = text_of(&["-f", "json", "U+20AC"]);
    assert_eq!(
        json,
        "{\"codepoint\":8364,\"char\":\"€\",\"utf8\":\"e282ac\"}\n"
    );
}

#[test]
fn table_and_every_input_notation() {
    let table = text_of(&[
        "U+20AC", "u+20ac", "\\u20AC", "&#8364;", "&#x20AC;", "€", "20AC",
    ]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "char  code point  hex               octal                 binary"
    );
    assert_eq!(lines.len(), 8);
    for line in &lines[1..] {
        assert_eq!(
            *line,
            "€     U+20AC      E2 82 AC          342 202 254           11100010 10000010 10101100"
        );
    }
    assert_eq!(text_of(&["-f", "hex", "--name", "EURO SIGN"]), "E2 82 AC\n");
    assert_eq!(text_of(&["-f", "hex", "-t", "né"]), "6E\nC3 A9\n");
    assert_eq!(text_of(&["-f", "hex", "U+0041..U+0043"]), "41\n42\n43\n");
    utf8enc().arg("nonsense").assert().code(2);
    utf8enc()
        .args(["--name", "NO SUCH CHARACTER"])
        .assert()
        .code(2);
}

#[test]
fn surrogates_and_values_past_the_end_are_refused() {
    utf8enc()
        .args(["-f", "hex", "U+D800"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("U+D800 is a surrogate"));
    utf8enc()
        .args(["-f", "hex", "U+110000", "U+41"])
        .assert()
        .code(1)
        .stdout("41\n")
        .stderr(predicate::str::contains("above U+10FFFF"));
    assert_eq!(
        text_of(&["-f", "hex", "--allow-surrogates", "U+D800"]),
        "ED A0 80\n"
    );
    assert_eq!(
        text_of(&["-f", "hex", "--legacy", "U+110000", "0x7FFFFFFF"]),
        "F4 90 80 80\nFD BF BF BF BF BF\n"
    );
    // A range skips the surrogates it covers, and says so.
    let (code, stdout, stderr) = run(&["-f", "hex", "U+D7FF..U+E000"], b"");
    assert_eq!(code, Some(0));
    assert_eq!(String::from_utf8(stdout).unwrap(), "ED 9F BF\nEE 80 80\n");
    assert!(stderr.contains("skipped 2048 surrogates"), "{stderr}");
    // Past U+10FFFF a range is one note, however wide (not one a value), and the status 1.
    let (code, stdout, stderr) = run(&["-f", "hex", "0x10FFFF..0x7FFFFFFF"], b"");
    assert_eq!(code, Some(1));
    assert_eq!(String::from_utf8(stdout).unwrap(), "F4 8F BF BF\n");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("skipped 2146369536 values above U+10FFFF"),
        "{stderr}"
    );
    let (code, stdout, _) = run(&["-f", "hex", "0x110000..0x110005"], b"");
    assert_eq!((code, stdout.len()), (Some(1), 0));
}

#[test]
fn explain_fills_the_bits() {
    assert_eq!(
        text_of(&["--explain", "U+20AC"]),
        "U+20AC EURO SIGN\n  \
         U+0800..U+FFFF take 3 bytes: 1110xxxx 10xxxxxx 10xxxxxx (16 bits)\n  \
         bits    0010000010101100\n  \
         split   0010 000010 101100 (4 + 6 + 6)\n  \
         fill    1110(0010) 10(000010) 10(101100)\n  \
         bytes   11100010 10000010 10101100 = E2 82 AC\n\n"
    );
    let ascii = text_of(&["--explain", "A"]);
    assert!(ascii.contains("bytes   01000001 = 41"), "{ascii}");
}

#[test]
fn decode_reports_units_by_kind() {
    let (code, stdout, _) = run(&["-d", "41 c0 af e2 82 ac ed a0 80 e2 82"], b"");
    assert_eq!(code, Some(1));
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        "U+0041 A\noverlong c0 af (U+002F)\nU+20AC €\nsurrogate ed a0 80 (U+D800)\ntruncated e2 82\n"
    );
    let (code, stdout, _) = run(&["-d", "-f", "json"], b"%E2%82%AC\\x80");
    assert_eq!(code, Some(1));
    let values = json_lines(&String::from_utf8(stdout).unwrap());
    assert_eq!(values.len(), 2);
    assert_eq!(values[0]["kind"], "char");
    assert_eq!(values[0]["codepoint"], 8364);
    assert_eq!(values[1]["kind"], "unexpected-continuation");
    assert_eq!(values[1]["offset"], 3);
    utf8enc()
        .args(["-d", "e2 8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("odd number of hex digits"));
}

const SAMPLE: &str = "Grüße, 世界! 😀 Привет +1 ~\\ done\n";

#[test]
fn round_trips_through_every_encoding() {
    let unicode = [
        "utf-16le", "utf-16be", "utf-16", "utf-32le", "utf-32be", "utf-32", "utf-7",
    ];
    for enc in unicode {
        let (code, encoded, stderr) = run(&["--to", enc], SAMPLE.as_bytes());
        assert_eq!(code, Some(0), "{enc}: {stderr}");
        assert_ne!(encoded, SAMPLE.as_bytes(), "{enc}");
        let (code, back, stderr) = run(&["--from", enc], &encoded);
        assert_eq!(code, Some(0), "{enc}: {stderr}");
        assert_eq!(String::from_utf8(back).unwrap(), SAMPLE, "{enc}");
    }
    let legacy: &[(&str, &str)] = &[
        ("ucs-2", "Grüße, 世界! Привет"),
        ("latin1", "Grüße, déjà vu ©"),
        ("windows-1252", "Grüße, “déjà” vu € ©"),
        ("shift_jis", "日本語のテキスト"),
        ("euc-jp", "日本語のテキスト"),
        ("gb18030", "中文 😀 汉字"),
        ("big5", "繁體字"),
        ("euc-kr", "한국어 텍스트"),
        ("koi8-r", "Привет, мир"),
        ("iso-8859-2", "Zażółć gęślą"),
        ("windows-1251", "Привет"),
    ];
    for (enc, text) in legacy {
        let (code, encoded, stderr) = run(&["--to", enc], text.as_bytes());
        assert_eq!(code, Some(0), "{enc}: {stderr}");
        let (code, back, stderr) = run(&["--from", enc], &encoded);
        assert_eq!(code, Some(0), "{enc}: {stderr}");
        assert_eq!(String::from_utf8(back).unwrap(), *text, "{enc}");
        // From one encoding to another in one call.
        let (code, direct, _) = run(&["--from", enc, "--to", "utf-16le"], &encoded);
        assert_eq!(code, Some(0));
        let (_, expected, _) = run(&["--to", "utf-16le"], text.as_bytes());
        assert_eq!(direct, expected, "{enc} to utf-16le");
    }
}

#[test]
fn byte_order_marks_and_known_bytes() {
    assert_eq!(
        run(&["--to", "utf-16"], "€".as_bytes()).1,
        b"\xFE\xFF\x20\xAC"
    );
    assert_eq!(run(&["--to", "utf-16le"], "€".as_bytes()).1, b"\xAC\x20");
    assert_eq!(
        run(&["--to", "utf-32"], "€".as_bytes()).1,
        b"\0\0\xFE\xFF\0\0\x20\xAC"
    );
    assert_eq!(run(&["--to", "latin1"], "é".as_bytes()).1, b"\xE9");
    // utf-16 reads a mark in either order, and without one means big-endian.
    assert_eq!(
        run(&["--from", "utf-16"], b"\xFF\xFE\xAC\x20").1,
        "€".as_bytes()
    );
    assert_eq!(
        run(&["--from", "utf-16"], b"\xFE\xFF\x20\xAC").1,
        "€".as_bytes()
    );
    assert_eq!(run(&["--from", "utf-16"], b"\x20\xAC").1, "€".as_bytes());
    // An explicit byte order keeps a mark as the character U+FEFF.
    assert_eq!(
        run(&["--from", "utf-16le"], b"\xFF\xFEa\0").1,
        "\u{FEFF}a".as_bytes()
    );
    // latin1 is ISO-8859-1 exactly: 0x80 is U+0080, not the euro sign of windows-1252.
    assert_eq!(run(&["--from", "latin1"], b"\x80").1, "\u{80}".as_bytes());
    assert_eq!(run(&["--from", "windows-1252"], b"\x80").1, "€".as_bytes());
}

#[test]
fn strict_errors_name_the_byte_offset() {
    let (code, out, err) = run(&["--from", "utf-16le"], b"a\0b\0\x00\xDCc\0");
    assert_eq!((code, out.as_slice()), (Some(1), &b"ab"[..]));
    assert!(
        err.contains(
            "malformed UTF-16LE: byte offset 4: the low surrogate 0xDC00 follows no high one"
        ),
        "{err}"
    );
    // Past the first piece of 64 KiB (`input::CHUNK_LEN`), and cut by the end: the offset counts from the start.
    let mut input = "€😀"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect::<Vec<u8>>();
    input = input.repeat(50_000);
    input.extend([0xD8, 0x3D]);
    let (code, out, err) = run(&["--from", "utf-16be"], &input);
    assert_eq!(code, Some(1));
    assert_eq!(out, "€😀".repeat(50_000).as_bytes());
    assert!(
        err.contains("byte offset 300000: the input ends after the high surrogate 0xD83D"),
        "{err}"
    );
    let (code, out, err) = run(&["--to", "latin1"], "naïve €5".as_bytes());
    assert_eq!((code, out.as_slice()), (Some(1), &b"na\xEFve "[..]));
    assert!(
        err.contains("byte offset 7: U+20AC EURO SIGN cannot be encoded in latin1 (ISO-8859-1)"),
        "{err}"
    );
    let (code, _, err) = run(&["--to", "utf-16le"], b"ok\xC0\xAF");
    assert_eq!(code, Some(1));
    assert!(
        err.contains("malformed UTF-8: byte offset 2: overlong c0 af"),
        "{err}"
    );
    let (code, _, err) = run(&["--from", "utf-32le"], b"a\0\0\0\0\xD8\0\0");
    assert_eq!(code, Some(1));
    assert!(err.contains("byte offset 4"), "{err}");
    let (code, _, err) = run(&["--from", "shift_jis"], b"ok\x82");
    assert_eq!(code, Some(1));
    assert!(err.contains("byte offset 2"), "{err}");
    let (code, _, err) = run(&["--to", "ucs-2le"], "a😀".as_bytes());
    assert_eq!(code, Some(1));
    assert!(err.contains("byte offset 1"), "{err}");
}

#[test]
fn replace_and_html_error_modes() {
    let (code, out, _) = run(
        &["--from", "utf-16le", "--errors", "replace"],
        b"a\0\x00\xDC",
    );
    assert_eq!((code, out), (Some(0), "a\u{FFFD}".as_bytes().to_vec()));
    let (code, out, _) = run(&["--to", "latin1", "--errors", "replace"], "€5".as_bytes());
    assert_eq!((code, out), (Some(0), b"?5".to_vec()));
    let (code, out, _) = run(
        &["--to", "windows-1252", "--errors", "html"],
        "€ ☺".as_bytes(),
    );
    assert_eq!((code, out), (Some(0), b"\x80 &#9786;".to_vec()));
    // ascii is 7-bit ASCII (WHATWG would read the label as windows-1252).
    let (code, out, _) = run(&["--to", "ascii", "--errors", "html"], "naïve".as_bytes());
    assert_eq!((code, out), (Some(0), b"na&#239;ve".to_vec()));
    utf8enc()
        .args(["--from", "utf-16le", "--errors", "html"])
        .assert()
        .code(2);
    utf8enc()
        .args(["--to", "klingon"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown encoding 'klingon'"));
}

#[test]
fn auto_detection() {
    assert_eq!(run(&["--from", "auto"], b"\xFF\xFEh\0i\0").1, b"hi");
    assert_eq!(
        run(&["--from", "auto"], "déjà".as_bytes()).1,
        "déjà".as_bytes()
    );
    assert_eq!(run(&["--from", "auto"], b"\xEF\xBB\xBFok").1, b"ok");
    let latin = b"Le caf\xe9 est d\xe9j\xe0 pr\xeat, tr\xe8s bien, \xe0 bient\xf4t.";
    assert_eq!(
        String::from_utf8(run(&["--from", "auto"], latin).1).unwrap(),
        "Le café est déjà prêt, très bien, à bientôt."
    );
}

#[test]
fn a_file_and_standard_input_give_the_same_bytes() {
    let text = SAMPLE.repeat(40_000);
    let (_, utf16, _) = run(&["--to", "utf-16le"], text.as_bytes());
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(&utf16).unwrap();
    let from_file = utf8enc()
        .args(["--from", "utf-16le"])
        .arg(file.path())
        .output()
        .unwrap();
    let from_stdin = utf8enc()
        .args(["--from", "utf-16le"])
        .write_stdin(utf16)
        .output()
        .unwrap();
    assert!(from_file.stdout == from_stdin.stdout);
    assert!(from_file.stdout == text.as_bytes());
    assert_eq!(stdout_of(&from_file).len(), text.len());
}

#[test]
fn json_output_is_i_json_a_surrogate_has_no_char() {
    let output = utf8enc()
        .args(["--allow-surrogates", "-f", "json", "U+D800", "U+20AC"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "{\"codepoint\":55296,\"char\":null,\"utf8\":\"eda080\"}\n\
         {\"codepoint\":8364,\"char\":\"€\",\"utf8\":\"e282ac\"}\n"
    );
}

/// iconv's habits: `-c` leaves out what the target cannot encode; `-t` takes a string that
/// starts with `-`.
#[test]
fn iconv_c_drops_the_unencodable_and_text_may_start_with_a_hyphen() {
    crate::common::program("utf8enc")
        .args(["--to", "ascii", "-c"])
        .write_stdin("naïve €5!\n")
        .assert()
        .code(0)
        .stdout("nave 5!\n");
    crate::common::program("utf8enc")
        .args(["--to", "latin1", "--errors", "drop"])
        .write_stdin("café €\n")
        .assert()
        .code(0)
        .stdout(b"caf\xe9 \n".as_slice());
    // Malformed input still stops the input under -c.
    crate::common::program("utf8enc")
        .args(["--from", "utf-8", "--to", "ascii", "-c"])
        .write_stdin(b"ok\xff\n".as_slice())
        .assert()
        .code(1)
        .stdout("ok");
    crate::common::program("utf8enc")
        .args(["--from", "latin1", "-c"])
        .write_stdin("x")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("are for --to"));
    crate::common::program("utf8enc")
        .args(["-t", "-x", "-f", "hex"])
        .assert()
        .code(0)
        .stdout("2D\n78\n");
}

/// `-d` reads real URLs and string literals: characters that are not escapes stand for
/// themselves.
#[test]
fn decode_reads_urls_and_mixed_text() {
    crate::common::program("utf8enc")
        .args(["-d", "caf%C3%A9"])
        .assert()
        .code(0)
        .stdout("U+0063 c\nU+0061 a\nU+0066 f\nU+00E9 é\n");
    let output = crate::common::program("utf8enc")
        .args(["-d", "https://example.com/a%20b/caf%C3%A9?q=1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines = String::from_utf8(output.stdout).unwrap();
    let codepoints: String = lines
        .lines()
        .map(|l| {
            let hex = &l[2..l.find(' ').unwrap()];
            char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap()
        })
        .collect();
    assert_eq!(codepoints, "https://example.com/a b/café?q=1");
    // A word of hex digits of its own is still bytes beside escapes.
    let output = crate::common::program("utf8enc")
        .args(["-d", "b'\\xc0\\xaf' 41"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8(output.stdout)
            .unwrap()
            .ends_with("U+0041 A\n")
    );
}

/// `-t` with a string notation writes one string, which `-d` reads back; other formats keep a
/// line per character.
#[test]
fn text_in_a_string_notation_is_one_string() {
    let run = |format: &str| {
        let output = crate::common::program("utf8enc")
            .args(["-t", "a b/é?\"", "-f", format])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(run("url"), "a%20b%2F%C3%A9%3F%22\n");
    assert_eq!(run("c"), "a b/\\xc3\\xa9?\\x22\n");
    assert_eq!(run("python"), "a b/\\u00e9?\\u0022\n");
    assert_eq!(run("shell"), "$'a b/\\xc3\\xa9?\\x22'\n");
    assert_eq!(run("html"), "a b/&#xE9;?&#x22;\n");
    assert_eq!(run("hex"), "61\n20\n62\n2F\nC3 A9\n3F\n22\n");
    for format in ["url", "c", "python", "js", "java", "html", "shell", "octal"] {
        let written = run(format);
        let back = crate::common::program("utf8enc")
            .args(["-d", written.trim_end()])
            .output()
            .unwrap();
        let back: String = String::from_utf8(back.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let hex = &l[2..l.find(' ').unwrap()];
                char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap()
            })
            .collect();
        // -d reads white space as a separator: only the URL form keeps the space.
        let expected = if format == "url" {
            "a b/é?\""
        } else {
            "ab/é?\""
        };
        assert_eq!(back, expected, "{format}: {written}");
    }
}

/// One table of byte order marks (the codec's): the mark utf8enc writes for each UTF-16 and
/// UTF-32 label is the one utf8check names and `--from auto` obeys.
#[test]
fn the_mark_utf8enc_writes_is_the_one_utf8check_names_and_auto_reads() {
    for (label, mark, kind) in [
        ("utf-16", &b"\xFE\xFF"[..], "utf16-bom: UTF-16BE"),
        ("unicode", b"\xFF\xFE", "utf16-bom: UTF-16LE"),
        ("utf-32", b"\x00\x00\xFE\xFF", "utf32-bom: UTF-32BE"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("text");
        let written = program("utf8enc")
            .args(["--to", label])
            .write_stdin("hé")
            .output()
            .unwrap();
        assert!(written.stdout.starts_with(mark), "{label}");
        std::fs::write(&file, &written.stdout).unwrap();
        let checked = program("utf8check").arg(&file).output().unwrap();
        let report = String::from_utf8_lossy(&checked.stdout);
        assert!(
            report.contains(&format!(":1:1: {kind}")),
            "{label}: {report}"
        );
        let read = program("utf8enc")
            .args(["--from", "auto"])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(read.stdout, "hé".as_bytes(), "{label}");
    }
}

/// A UTF-16 file of 16 MiB or more is converted on every core, in parts of 1 MiB: the same
/// bytes, message and status as standard input gives, which one thread reads, and what the
/// standard library decodes. Surrogate pairs straddle cuts, and the errors fall in the first
/// part, right before a cut, and in the last part.
#[test]
fn a_big_utf16_file_is_what_one_thread_writes() {
    const PART_UNITS: usize = 512 * 1024;
    let context: Vec<u16> = "aé€😀 b中ñ🎉 x€é😀 plain ASCII words"
        .encode_utf16()
        .collect();
    let clean: Vec<u16> = context
        .iter()
        .copied()
        .cycle()
        .take(33 * PART_UNITS + 777)
        .collect();
    let mut paired = clean.clone();
    for cut in 1..33 {
        // A pair across the cut, or ending right at it, or starting right after it.
        let at = cut * PART_UNITS - 1 + cut % 3;
        paired[at..at + 2].copy_from_slice(&[0xD83D, 0xDE00]);
        // The context's pairs that this cut in two.
        if (0xD800..0xDC00).contains(&paired[at - 1]) {
            paired[at - 1] = u16::from(b'q');
        }
        if (0xDC00..0xE000).contains(&paired[at + 2]) {
            paired[at + 2] = u16::from(b'q');
        }
    }
    assert!(String::from_utf16(&paired).is_ok());
    let mut lone_before_cut = paired.clone();
    lone_before_cut[5 * PART_UNITS - 2..5 * PART_UNITS + 1].copy_from_slice(&[0x71, 0xD800, 0x7A]);
    let mut spread = paired.clone();
    for at in [100, 7 * PART_UNITS + 3, 33 * PART_UNITS + 500] {
        spread[at - 1..at + 2].copy_from_slice(&[0x71, 0xDC00, 0x71]);
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, units) in [
        ("clean", &clean),
        ("paired", &paired),
        ("lone before a cut", &lone_before_cut),
        ("spread", &spread),
    ] {
        let orders: &[_] = if name == "paired" {
            &[("utf-16le", 0), ("utf-16be", 1)]
        } else {
            &[("utf-16le", 0)]
        };
        for &(endian, order) in orders {
            let bytes: Vec<u8> = units
                .iter()
                .flat_map(|u| {
                    if order == 0 {
                        u.to_le_bytes()
                    } else {
                        u.to_be_bytes()
                    }
                })
                .collect();
            let path = dir.path().join("big.txt");
            std::fs::write(&path, &bytes).unwrap();
            let lossy: String = char::decode_utf16(units.iter().copied())
                .map(|c| c.unwrap_or('\u{FFFD}'))
                .collect();
            for errors in ["strict", "replace"] {
                let args = ["--from", endian, "--errors", errors];
                let from_file = utf8enc().args(args).arg(&path).output().unwrap();
                let from_stdin = utf8enc()
                    .args(args)
                    .write_stdin(bytes.clone())
                    .output()
                    .unwrap();
                let what = format!("{name}, {endian}, {errors}");
                assert_eq!(from_file.status.code(), from_stdin.status.code(), "{what}");
                assert!(
                    from_file.stdout == from_stdin.stdout,
                    "{what}: output differs"
                );
                let message = String::from_utf8(from_file.stderr).unwrap();
                let shown = path.display().to_string();
                assert_eq!(
                    message.replace(&shown, "<stdin>"),
                    String::from_utf8(from_stdin.stderr).unwrap(),
                    "{what}"
                );
                if errors == "replace" || units == &clean || units == &paired {
                    assert!(from_file.stdout == lossy.as_bytes(), "{what}: not std's");
                    assert_eq!(from_file.status.code(), Some(0), "{what}");
                } else {
                    assert_eq!(from_file.status.code(), Some(1), "{what}");
                    let first = if units == &spread {
                        100
                    } else {
                        5 * PART_UNITS - 1
                    };
                    let before = String::from_utf16(&units[..first]).unwrap();
                    assert!(from_file.stdout == before.as_bytes(), "{what}");
                    assert!(
                        message.contains(&format!("byte offset {}:", 2 * first)),
                        "{what}: {message}"
                    );
                }
            }
        }
    }
}

/// A Latin-1 file of 16 MiB or more, converted on every core: each byte its character, in
/// order, as from standard input.
#[test]
fn a_big_latin1_file_is_each_byte_as_its_character() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(17 * 1024 * 1024 + 3).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, &bytes).unwrap();
    let expected: String = bytes.iter().map(|&b| char::from(b)).collect();
    let from_file = utf8enc()
        .args(["--from", "latin1"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), Some(0));
    assert!(from_file.stdout == expected.as_bytes());
    let (code, from_stdin, _) = run(&["--from", "latin1"], &bytes);
    assert_eq!(code, Some(0));
    assert!(from_stdin == expected.as_bytes());
}
