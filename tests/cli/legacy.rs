//! Legacy encodings (issue 15): the hint's advice, `--from auto`, one table of names, byte order
//! marks under explicit labels.

use std::fs;
use std::process::Command;

use crate::common::program;

fn encode(text: &str, label: &str) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

/// Runs the program with stdin and returns (status, stdout, stderr).
fn run(name: &str, args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let output = program(name)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        output.status.code(),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs utf8check on `file` in `dir` and returns its standard error.
fn check_in(dir: &std::path::Path, file: &str) -> String {
    let output = program("utf8check")
        .current_dir(dir)
        .arg(file)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The command a hint advises, after "with: ".
fn advised(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.contains(": hint: "))
        .expect("a hint");
    line.split("with: ").nth(1).expect("a command").to_owned()
}

/// Runs an advised command in `dir` with the programs under test first on PATH.
fn paste(dir: &std::path::Path, command: &str) {
    let bin = assert_cmd::cargo::cargo_bin("utf8fix");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .status()
        .unwrap();
    assert!(status.success(), "{command}");
}

const RUSSIAN: &str =
    "Привет! Это учебник по редактору Vim.\nЧтобы выйти, наберите :q и нажмите Enter.\n";
const GREEK: &str =
    "Καλημέρα σας. Αυτός είναι ο οδηγός του Vim.\nΓια να βγείτε, πατήστε :q και Enter.\n";
const CZECH: &str =
    "Příliš žluťoučký kůň úpěl ďábelské ódy.\nTento soubor je v kódování windows-1250.\n";

#[test]
fn the_advised_command_pasted_fixes_a_legacy_file_in_place() {
    for (text, label) in [
        (RUSSIAN, "windows-1251"),
        (RUSSIAN, "koi8-r"),
        (GREEK, "windows-1253"),
        (CZECH, "windows-1250"),
        (CZECH, "iso-8859-2"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        fs::write(&file, encode(text, label)).unwrap();
        let stderr = check_in(dir.path(), "notes.txt");
        assert!(
            stderr.contains(&format!("this looks like {label} text, not UTF-8")),
            "{label}: {stderr}"
        );
        assert_eq!(
            advised(&stderr),
            format!("utf8enc --from {label} -o notes.txt notes.txt")
        );
        paste(dir.path(), &advised(&stderr));
        assert_eq!(fs::read_to_string(&file).unwrap(), text, "{label}");
        // utf8enc --from auto agrees with the hint.
        let (code, out, _) = run("utf8enc", &["--from", "auto"], &encode(text, label));
        assert_eq!(
            (code, String::from_utf8(out).unwrap()),
            (Some(0), text.to_owned())
        );
    }
}

#[test]
fn from_auto_reads_a_whole_file_as_the_hint_does_when_its_head_tells_nothing() {
    // A catalog's head is tables and English (here with one stray byte, too little to tell an
    // encoding by); its translations come past the 64 KiB that standard input is judged by.
    let mut bytes = b"# \xb5s\n".to_vec();
    bytes.extend_from_slice("msgid \"Save\"\n".repeat(6000).as_bytes());
    assert!(bytes.len() > 64 * 1024);
    bytes.extend_from_slice(&encode(&RUSSIAN.repeat(20), "windows-1251"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vim.mo");
    fs::write(&file, &bytes).unwrap();
    let stderr = check_in(dir.path(), "vim.mo");
    assert!(
        stderr.contains("this looks like windows-1251 text"),
        "{stderr}"
    );
    let output = program("utf8enc")
        .args(["--from", "auto", "-v"])
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("detected windows-1251"), "{err}");
    assert!(String::from_utf8(output.stdout).unwrap().ends_with(RUSSIAN));
    // The same bytes on standard input: only the head is read, and it holds too little
    // evidence: nothing is written, and the status says so.
    let (code, out, err) = run("utf8enc", &["--from", "auto", "-v"], &bytes);
    assert_eq!((code, out.len()), (Some(1), 0), "{err}");
    assert_eq!(
        err,
        "utf8enc: <stdin>: cannot tell the encoding: too little evidence for any (name the encoding \
         with --from ENC, or --from auto:ENC to use ENC when detection cannot decide; nothing \
         was written)\n"
    );
    // With a fallback named, it is used, and said.
    let (code, out, err) = run("utf8enc", &["--from", "auto:windows-1251"], &bytes);
    assert_eq!(code, Some(0), "{err}");
    assert!(String::from_utf8(out).unwrap().ends_with(RUSSIAN));
    assert_eq!(
        err,
        "utf8enc: <stdin>: read as windows-1251: detection could not decide (--from \
         auto:windows-1251)\n"
    );
}

/// ISO-2022-JP is 7-bit, so it passes for UTF-8: its escape sequences say what it is. ISO-2022-KR
/// is recognised too, and refused (no decoder here reads it); a bad fallback is a usage error.
#[test]
fn from_auto_reads_iso_2022_escapes_and_refuses_what_it_cannot_decode() {
    let japanese = "コンソールを開いてください。\n";
    let (code, out, err) = run(
        "utf8enc",
        &["--from", "auto", "-v"],
        &encode(japanese, "iso-2022-jp"),
    );
    assert_eq!(
        (code, String::from_utf8(out).unwrap(), err),
        (
            Some(0),
            japanese.to_owned(),
            "utf8enc: <stdin>: detected iso-2022-jp\n".to_owned()
        )
    );
    // "안녕" in ISO-2022-KR: the designation, then SO, the letters, SI.
    let korean = b"\x1b$)C\x0e\x3e\x48\x33\x47\x0f\n";
    let (code, out, err) = run("utf8enc", &["--from", "auto"], korean);
    assert_eq!((code, out.len()), (Some(1), 0));
    assert_eq!(
        err,
        "utf8enc: <stdin>: the text is in ISO-2022-KR, which utf8enc cannot decode (iconv -f \
         ISO-2022-KR can); nothing was written\n"
    );
    let (code, _, err) = run("utf8enc", &["--from", "auto:klingon"], b"x\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("utf8enc: --from auto:klingon: "), "{err}");
}

/// `-v` names the detected encoding by the label `--from` takes for the same decoding: a
/// UTF-32LE file without a byte order mark is `utf-32le` (`utf-32` means big-endian), and
/// `--from utf-32le` decodes it alike.
#[test]
fn from_auto_names_what_from_takes() {
    let text = "Grüße, Привет\n".repeat(20);
    let utf32le: Vec<u8> = text
        .chars()
        .flat_map(|c| u32::from(c).to_le_bytes())
        .collect();
    let (code, out, err) = run("utf8enc", &["--from", "auto", "-v"], &utf32le);
    assert_eq!(
        (code, err.as_str()),
        (Some(0), "utf8enc: <stdin>: detected utf-32le\n")
    );
    assert_eq!(String::from_utf8(out).unwrap(), text);
    let (code, out, _) = run("utf8enc", &["--from", "utf-32le"], &utf32le);
    assert_eq!((code, String::from_utf8(out).unwrap()), (Some(0), text));
}

#[test]
fn a_short_shift_jis_excerpt_whose_pairs_read_as_long_units_gets_its_hint() {
    // "検索" ends in 8D F5 82 B7: read as UTF-8, an out-of-range unit, which no single-byte
    // encoding leaves; three in four findings are still lone bytes, and the detector is sure.
    let text = "\t\t\t   レッスン 4.2: 検索コマンド\n\n\n\t ** 語句を検索するには / と、前方検索する語句をタイプします。 **\n";
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("lesson"), encode(text, "shift_jis")).unwrap();
    let check = |file: &str| {
        let output = program("utf8check")
            .current_dir(dir.path())
            .arg(file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        (stdout, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (stdout, stderr) = check("lesson");
    assert!(stdout.contains("out-of-range"), "{stdout}");
    assert!(
        stderr.contains("hint: this looks like shift_jis text, not UTF-8"),
        "{stderr}"
    );
    // The same share of long units in a single-byte reading names nothing.
    fs::write(
        dir.path().join("broken"),
        b"caf\xe9 \xf5\x82\xb7\x82 na\xefve \xe9t\xe9 r\xe9sum\xe9 \xe0 \xfc\n",
    )
    .unwrap();
    let (stdout, stderr) = check("broken");
    assert!(stdout.contains("out-of-range"), "{stdout}");
    assert!(!stderr.contains("hint"), "{stderr}");
}

#[test]
fn a_mixed_file_gets_the_fallback_that_keeps_every_valid_character() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("changelog");
    let mut bytes = "  * Fix the parser (Tomasz Kłoczko), 5‰ faster.\n"
        .as_bytes()
        .to_vec();
    bytes.extend_from_slice(b"  * New translation (Bj\xf6rn Lindqvist).\n");
    fs::write(&file, &bytes).unwrap();
    let stderr = check_in(dir.path(), "changelog");
    assert!(
        stderr.contains("UTF-8 mixed with windows-1252 bytes"),
        "{stderr}"
    );
    assert_eq!(
        advised(&stderr),
        "utf8fix --fallback windows-1252 -i changelog"
    );
    paste(dir.path(), &advised(&stderr));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "  * Fix the parser (Tomasz Kłoczko), 5‰ faster.\n  * New translation (Björn Lindqvist).\n"
    );
}

#[test]
fn weak_evidence_gets_no_encoding() {
    // One stray byte: ISO-8859-2 would read it as ľ, windows-1252 as µ.
    let (code, _, stderr) = run("utf8check", &[], b"10 \xb5s\n");
    assert_eq!((code, stderr.as_str()), (Some(1), ""));
    // Greek letters one by one, as in a keymap, say nothing of the language.
    let (_, _, stderr) = run("utf8check", &[], b"a\t\xe1\nb\t\xe2\ng\t\xe3\n");
    assert_eq!(stderr, "");
}

#[test]
fn a_declared_encoding_is_believed_when_the_text_agrees() {
    let mut bytes = b"scriptencoding cp1253\n".to_vec();
    bytes.extend(encode("\" \u{3b1}\n", "windows-1253"));
    let (_, _, stderr) = run("utf8check", &[], &bytes);
    assert!(
        stderr.contains("this looks like windows-1253 text"),
        "{stderr}"
    );
    // A file that says UTF-8 and is not is what the hint is for: the statement is not evidence.
    let (_, _, stderr) = run("utf8check", &[], b"# coding: utf-8\nx = '\xb5'\n");
    assert_eq!(stderr, "");
}

#[test]
fn unmarked_utf16_gets_its_own_hint_and_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.csv");
    let text = "name,city\nJos\u{e9},M\u{e1}laga\nAnna,Berlin\n";
    let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    fs::write(&file, &bytes).unwrap();
    let stderr = check_in(dir.path(), "export.csv");
    assert!(
        stderr.contains("this looks like UTF-16LE without a byte order mark"),
        "{stderr}"
    );
    assert_eq!(
        advised(&stderr),
        "utf8enc --from utf-16le -o export.csv export.csv"
    );
    paste(dir.path(), &advised(&stderr));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    // An ASCII-only UTF-16 file is valid UTF-8 (NULs and letters) and still gets the hint.
    let ascii: Vec<u8> = "plain words only\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let (code, _, stderr) = run("utf8check", &[], &ascii);
    assert_eq!(code, Some(0));
    assert!(
        stderr.contains("UTF-16LE without a byte order mark"),
        "{stderr}"
    );
}

#[test]
fn output_file_is_replaced_only_when_everything_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    fs::write(&file, "kept\n").unwrap();
    let out = file.to_str().unwrap();
    // A strict failure half-way: the old content stays, and no temporary file is left.
    let (code, _, stderr) = run("utf8enc", &["--from", "ascii", "-o", out], b"ok\n\xe9\n");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not written"), "{stderr}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "kept\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    let (code, _, _) = run("utf8enc", &["--from", "latin1", "-o", out], b"caf\xe9\n");
    assert_eq!(code, Some(0));
    assert_eq!(fs::read_to_string(&file).unwrap(), "café\n");
}

#[test]
fn every_label_means_the_same_in_every_program() {
    let (code, list, _) = run("utf8enc", &["--list"], b"");
    assert_eq!(code, Some(0));
    let list = String::from_utf8(list).unwrap();
    let mut checked = 0;
    for line in list.lines().skip(1).filter(|l| !l.starts_with('(')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let name = fields[0];
        let takes_fallback = fields.contains(&"--fallback");
        let labels: Vec<&str> = fields
            .iter()
            .skip_while(|f| !f.starts_with("--"))
            .skip_while(|f| f.starts_with("--"))
            .copied()
            .collect();
        assert!(!labels.is_empty(), "{line}");
        let reference = run(
            "utf8enc",
            &["--from", labels[0], "--errors", "replace"],
            b"A\xe9\xc4",
        );
        for label in &labels {
            let from = run(
                "utf8enc",
                &["--from", label, "--errors", "replace"],
                b"A\xe9\xc4",
            );
            assert_eq!(from.1, reference.1, "{name}: --from {label}");
            assert_ne!(from.0, Some(2), "{name}: --from {label}: {}", from.2);
            let fix = run("utf8fix", &["--fallback", label], b"A\xe9\xc4");
            if takes_fallback {
                assert_eq!(fix.0, Some(0), "{name}: --fallback {label}: {}", fix.2);
                assert_eq!(fix.1, reference.1, "{name}: --fallback {label}");
            } else {
                assert_eq!(fix.0, Some(2), "{name}: --fallback {label}");
            }
            checked += 1;
        }
    }
    assert!(checked > 240, "{checked} labels");
}

#[test]
fn the_names_of_latin1_ascii_and_utf16_are_what_people_mean() {
    for label in [
        "latin1",
        "latin-1",
        "iso_8859-1",
        "iso88591",
        "cp819",
        "ibm819",
        "csisolatin1",
        "l1",
    ] {
        assert_eq!(
            run("utf8enc", &["--from", label], b"\x80").1,
            "\u{80}".as_bytes(),
            "{label}"
        );
        assert_eq!(
            run("utf8fix", &["--fallback", label], b"\x80").1,
            "\u{80}".as_bytes(),
            "{label}"
        );
    }
    let (code, _, stderr) = run("utf8enc", &["--to", "ascii"], "naïve".as_bytes());
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("cannot be encoded in ascii (US-ASCII)"),
        "{stderr}"
    );
    let (code, _, stderr) = run("utf8enc", &["--from", "us-ascii"], b"na\xefve");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("byte ef is not 7-bit ASCII"), "{stderr}");
    // unicode is iconv's UNICODE: UTF-16LE with a mark; the WHATWG labels of UTF-16 write UTF-16.
    assert_eq!(run("utf8enc", &["--to", "unicode"], b"A").1, b"\xFF\xFEA\0");
    assert_eq!(
        run("utf8enc", &["--to", "csunicode"], b"A").1,
        b"\xFF\xFEA\0"
    );
    assert_eq!(run("utf8enc", &["--to", "utf-16le"], b"A").1, b"A\0");
    for label in ["replacement", "hz-gb-2312", "iso-2022-kr"] {
        let (code, out, stderr) = run("utf8enc", &["--to", label], b"A");
        assert_eq!((code, out.len()), (Some(2), 0), "{label}");
        assert!(
            stderr.contains(&format!(
                "{label} is decoded as the WHATWG replacement encoding"
            )),
            "{stderr}"
        );
    }
    let (code, _, stderr) = run("utf8enc", &["--from", "hz-gb-2312"], b"A");
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("hz-gb-2312 is decoded as the WHATWG replacement encoding"),
        "{stderr}"
    );
}

#[test]
fn a_byte_order_mark_under_an_explicit_label_is_a_character() {
    // Labels with a byte order keep U+FEFF (RFC 2781, as iconv and Python do).
    assert_eq!(
        run("utf8enc", &["--from", "utf-16le"], b"\xFF\xFEA\0").1,
        "\u{FEFF}A".as_bytes()
    );
    assert_eq!(
        run("utf8enc", &["--from", "utf-8"], b"\xEF\xBB\xBFA").1,
        b"\xEF\xBB\xBFA"
    );
    // Labels without one read the mark and drop it.
    assert_eq!(
        run("utf8enc", &["--from", "utf-16"], b"\xFF\xFEA\0").1,
        b"A"
    );
    assert_eq!(
        run("utf8enc", &["--from", "unicode"], b"\xFE\xFF\0A").1,
        b"A"
    );
    assert_eq!(run("utf8enc", &["--from", "unicode"], b"A\0").1, b"A");
    // auto obeys any mark.
    assert_eq!(
        run("utf8enc", &["--from", "auto"], b"\xEF\xBB\xBFA").1,
        b"A"
    );
    // A legacy label reads the bytes of a mark as its own characters.
    assert_eq!(
        run("utf8enc", &["--from", "windows-1252"], b"\xEF\xBB\xBFA").1,
        "ï»¿A".as_bytes()
    );
    assert_eq!(
        run("utf8enc", &["--from", "shift_jis"], b"\xFF\xFEA").0,
        Some(1)
    );
}

#[test]
fn a_table_of_every_character_is_no_evidence() {
    // encoding_rs's decoder test inputs: every JIS X 0208 pair in EUC-JP, holes included (Big5
    // happens to read it cleanly), and every JIS X 0212 character one to a line (`8F A1 A4`,
    // `8F A1 A5` ... read as `Пбд`, `Пбе` in IBM866). A code chart says nothing of a language.
    for name in ["jis0208_in.txt", "jis0212_in.txt"] {
        let Some(bytes) = crate::common::conformance_bytes("encoding_rs", name) else {
            return;
        };
        let (code, _, stderr) = run("utf8check", &[], &bytes);
        assert_eq!(code, Some(1), "{name}");
        assert_eq!(stderr, "", "{name}");
    }
    // The reference output of the GB18030 decoder, one character to a line: valid UTF-8, and no
    // line of it mojibake (`丱` alone is `Х` read as EUC-JP, one character, no evidence).
    for name in ["gb18030_in_ref.txt", "gb18030_out.txt"] {
        let Some(bytes) = crate::common::conformance_bytes("encoding_rs", name) else {
            return;
        };
        let (code, stdout, stderr) = run("utf8check", &[], &bytes);
        assert_eq!(
            (code, stdout.as_slice(), stderr.as_str()),
            (Some(0), &b""[..], ""),
            "{name}"
        );
        let (code, fixed, _) = run("utf8fix", &["--mojibake"], &bytes);
        assert_eq!(code, Some(0), "{name}");
        assert!(fixed == bytes, "{name}: --mojibake changed it");
    }
}

/// `-o` naming a FIFO or a device writes to it, as a shell redirection or iconv -o would: it is
/// never replaced by a regular file (as root, `-o /dev/null` would otherwise replace the device).
#[test]
fn output_to_a_fifo_is_written_to_not_replaced() {
    use std::io::Read;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut text)
                .unwrap();
            text
        })
    };
    crate::common::program("utf8enc")
        .args(["--from", "latin1", "-o"])
        .arg(&fifo)
        .write_stdin(b"caf\xe9\n".as_slice())
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(0)
        .stderr("");
    assert_eq!(reader.join().unwrap(), "café\n".as_bytes());
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// The IBM PC code pages that ZIP archives use for names decode and encode as iconv's do, all
/// 256 bytes.
#[test]
fn ibm_code_pages_agree_with_iconv() {
    let bytes: Vec<u8> = (0..=255u8).collect();
    for label in ["cp437", "cp850"] {
        let Ok(theirs) = std::process::Command::new("iconv")
            .args(["-f", label, "-t", "utf-8"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(&bytes)?;
                child.wait_with_output()
            })
        else {
            crate::common::skip("no iconv to compare with");
            return;
        };
        let ours = crate::common::program("utf8enc")
            .args(["--from", label])
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        assert!(
            ours.stdout == theirs.stdout,
            "{label}: decoding differs from iconv"
        );
        let back = crate::common::program("utf8enc")
            .args(["--to", label])
            .write_stdin(ours.stdout)
            .output()
            .unwrap();
        assert!(
            back.stdout == bytes,
            "{label}: encoding is not the way back"
        );
    }
}

/// The hint reaches every format: a JSON object before the input's summary, a GitHub notice, a
/// SARIF note, a CodeClimate issue of severity info; for legacy text, UTF-16 with a byte order
/// mark, and a valid file of mojibake, which stays valid (a note, never a finding).
#[test]
fn every_format_carries_the_hint() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::write_tree(
        dir.path(),
        &[
            ("menu.txt", b"Cr\xe8me br\xfbl\xe9e\n"),
            ("wide.txt", b"\xff\xfeC\x00a\x00f\x00\xe9\x00"),
            ("moji.txt", "caf\u{c3}\u{a9} au lait\nfine\n".as_bytes()),
        ],
    );
    let check = |args: &[&str]| {
        program("utf8check")
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap()
    };
    let menu_command = "utf8enc --from windows-1252 -o menu.txt menu.txt";
    let json = check(&["--format", "json", "menu.txt", "wide.txt", "moji.txt"]);
    assert_eq!(json.status.code(), Some(1));
    assert_eq!(json.stderr, b"");
    let lines = crate::common::json_lines(&String::from_utf8(json.stdout).unwrap());
    let hints: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "hint").collect();
    assert_eq!(
        *hints[0],
        serde_json::json!({
            "type": "hint",
            "path": "menu.txt",
            "encoding": "windows-1252",
            "command": menu_command,
            "message": format!(
                "this looks like windows-1252 text, not UTF-8; convert it in place with: \
                 {menu_command}"
            ),
        })
    );
    assert_eq!(hints[1]["path"], "wide.txt");
    assert_eq!(hints[1]["encoding"], "utf-16le");
    assert_eq!(
        hints[1]["command"],
        "utf8enc --from utf-16le -o wide.txt wide.txt"
    );
    assert_eq!(hints[2]["path"], "moji.txt");
    assert_eq!(hints[2]["command"], "utf8fix --mojibake -i moji.txt");
    // Each hint comes after its input's findings and before its summary; moji.txt stays valid.
    let position = |kind: &str, path: &str| {
        lines
            .iter()
            .position(|l| l["type"] == kind && l["path"] == path)
            .unwrap()
    };
    assert!(position("hint", "menu.txt") < position("summary", "menu.txt"));
    assert!(position("error", "menu.txt") < position("hint", "menu.txt"));
    assert_eq!(lines[position("summary", "moji.txt")]["valid"], true);
    assert_eq!(lines[position("summary", "moji.txt")]["errors"], 0);

    let github = check(&["--format", "github", "menu.txt"]);
    let github = String::from_utf8(github.stdout).unwrap();
    assert!(
        github.ends_with(&format!(
            "::notice file=menu.txt,title=utf8check hint::this looks like windows-1252 text, not \
             UTF-8; convert it in place with: {menu_command}\n"
        )),
        "{github}"
    );

    let sarif = check(&["--format", "sarif", "menu.txt"]);
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let note = results.iter().find(|r| r["ruleId"] == "hint").unwrap();
    assert_eq!(note["level"], "note");
    assert_eq!(note["properties"]["command"], menu_command);
    assert_eq!(
        note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "menu.txt"
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let index = note["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "hint");

    let climate = check(&["--format", "codeclimate", "moji.txt"]);
    assert_eq!(climate.status.code(), Some(0), "a note is never a finding");
    let issues: serde_json::Value = serde_json::from_slice(&climate.stdout).unwrap();
    let issues = issues.as_array().unwrap();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0]["severity"], "info");
    assert_eq!(issues[0]["check_name"], "utf8check/hint");
    assert_eq!(issues[0]["location"]["path"], "moji.txt");

    let human = check(&["moji.txt"]);
    assert_eq!(human.status.code(), Some(0));
    assert_eq!(human.stdout, b"");
    assert_eq!(
        String::from_utf8(human.stderr).unwrap(),
        "utf8check: moji.txt: hint: valid UTF-8, but some lines look like mojibake (UTF-8 read \
         as windows-1252 and saved again: 'cafÃ© au lait' for 'café au lait'); repair them \
         with: utf8fix --mojibake -i moji.txt\n"
    );
}

/// A line of vim's Russian menu in KOI8-R, whose C1 bytes ("а") once reached the
/// mojibake line filter unchecked and panicked: utf8check reports its findings, no panic.
#[test]
fn a_koi8_r_line_with_c1_bytes_is_checked_without_a_panic() {
    let line = encode(
        "menutrans Toggle\\ &Toolbar\t\t\t\t&Инструментальная\\ панель\n",
        "koi8-r",
    );
    assert!(line.contains(&0xC1));
    let (code, out, err) = run("utf8check", &[], &line);
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(String::from_utf8(out).unwrap().contains("<stdin>:1:"));
    let (code, _, err) = run("utf8check", &["--format", "json"], &line);
    assert_eq!(code, Some(1), "{err}");
}

/// CJK text in GBK read as windows-1252 and saved as UTF-8: the hint names both encodings.
#[test]
fn the_mojibake_hint_names_cjk_text_read_as_windows_1252() {
    let (code, out, err) = run("utf8check", &[], "ÄãºÃ£¬ÊÀ½ç\nfine\n".as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, b"");
    assert_eq!(
        err,
        "utf8check: <stdin>: hint: valid UTF-8, but some lines look like mojibake (gbk text read \
         as windows-1252 and saved again: 'ÄãºÃ£¬ÊÀ½ç' for '你好，世界'); repair them with: \
         utf8fix --mojibake\n"
    );
}

/// IBM855, the DOS Cyrillic page before cp866, which WHATWG leaves out: decoded, encoded,
/// detected, and advised by the hint.
#[test]
fn ibm855_is_decoded_encoded_and_detected() {
    let (code, out, err) = run(
        "utf8enc",
        &["--from", "cp855"],
        b"\xdd\xe1\xb7\xeb\xa8\xe5, \xd2\xb7\xe1\n",
    );
    assert_eq!(
        (code, String::from_utf8(out).unwrap(), err.as_str()),
        (Some(0), "Привет, мир\n".to_owned(), "")
    );
    let (code, out, _) = run("utf8enc", &["--to", "ibm855"], "Привет, мир\n".as_bytes());
    assert_eq!(
        (code, out),
        (
            Some(0),
            b"\xdd\xe1\xb7\xeb\xa8\xe5, \xd2\xb7\xe1\n".to_vec()
        )
    );
    let (_, list, _) = run("utf8enc", &["-l"], b"");
    let list = String::from_utf8(list).unwrap();
    let row = list
        .lines()
        .find(|l| l.starts_with("IBM855 "))
        .expect("listed");
    assert!(row.ends_with("ibm855 cp855 855 csibm855"), "{row}");
    let (_, pangram, _) = run("utf8enc", &["--to", "cp855"], RUSSIAN.as_bytes());
    let (code, out, err) = run("utf8enc", &["--from", "auto", "-v"], &pangram);
    assert_eq!(
        (code, String::from_utf8(out).unwrap(), err.as_str()),
        (
            Some(0),
            RUSSIAN.to_owned(),
            "utf8enc: <stdin>: detected ibm855\n"
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    fs::write(&file, &pangram).unwrap();
    let stderr = check_in(dir.path(), "notes.txt");
    assert_eq!(
        advised(&stderr),
        "utf8enc --from ibm855 -o notes.txt notes.txt"
    );
    paste(dir.path(), &advised(&stderr));
    assert_eq!(fs::read_to_string(&file).unwrap(), RUSSIAN);
    // "загрузки": `за` is F3 A0, and `загр` reads as a 4-byte lead and two continuations, a
    // longer unit than a single-byte code page usually leaves; the whole line is IBM855.
    fs::write(&file, b"\xf3\xa0\xac\xe1\xe7\xf3\xc6\xb7\n").unwrap();
    let stderr = check_in(dir.path(), "notes.txt");
    assert_eq!(
        advised(&stderr),
        "utf8enc --from ibm855 -o notes.txt notes.txt"
    );
    paste(dir.path(), &advised(&stderr));
    assert_eq!(fs::read_to_string(&file).unwrap(), "загрузки\n");
}

/// ISO-2022-JP is 7-bit, valid UTF-8 byte for byte: utf8check finds nothing (status 0) but
/// notes what the file is and the command that converts it; ISO-2022-KR gets a note without
/// a command (no decoder here reads it).
#[test]
fn utf8check_notes_iso_2022_text() {
    let japanese = "コンソールを開いてください。\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("readme.txt");
    fs::write(&file, encode(japanese, "iso-2022-jp")).unwrap();
    let output = program("utf8check")
        .current_dir(dir.path())
        .arg("readme.txt")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "utf8check: readme.txt: hint: valid UTF-8 bytes, but ISO-2022-JP text (its escape \
         sequences switch to Japanese); convert it in place with: utf8enc --from iso-2022-jp -o \
         readme.txt readme.txt\n"
    );
    paste(
        dir.path(),
        "utf8enc --from iso-2022-jp -o readme.txt readme.txt",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), japanese);
    let (code, out, err) = run(
        "utf8check",
        &["--format", "json"],
        b"\x1b$)C\x0e\x3e\x48\x33\x47\x0f\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let hint = String::from_utf8(out).unwrap();
    let hint: serde_json::Value = serde_json::from_str(hint.lines().next().unwrap()).unwrap();
    assert_eq!(hint["type"], "hint");
    assert_eq!(hint["command"], serde_json::Value::Null);
    assert_eq!(
        hint["message"],
        "valid UTF-8 bytes, but ISO-2022-KR text (its escape sequences switch to Korean), \
         which utf8enc cannot decode; iconv -f ISO-2022-KR -t UTF-8 can"
    );
    // A terminal's colour escapes are not ISO-2022.
    let (code, _, err) = run("utf8check", &[], b"plain \x1b[31mred\x1b[0m\n");
    assert_eq!((code, err.as_str()), (Some(0), ""));
}

/// Text in an encoding no decoder here reads (Korean in Johab) reads as no clean text in any
/// candidate: `--from auto` writes nothing, names the encodings it came nearest to, and says
/// the text may be in one it does not read.
#[test]
fn from_auto_names_what_it_weighed_when_no_reading_is_text() {
    // "안녕하세요. 이 프로그램은 파일을 읽고 쓰는 간단한 도구입니다. 설정 파일을 확인하십시오."
    // in Johab (Python's codec), twice.
    let line: &[u8] = b"\xb4e\x91w\xd0a\xadA\xb6a. \xb7\xa1 \xcfa\x9d\xa1\x8ba\x9c\x91\xb7e \
        \xcca\xb7\xa9\xb7i \xb7\xaa\x89\xa1 \xb3a\x93e \x88e\x94e\xd0e \x95\xa1\x8a\x81\xb7\xb3\
        \x93\xa1\x94a. \xac\xe9\xb8\xf7 \xcca\xb7\xa9\xb7i \xd1\xc2\xb7\xa5\xd0a\xaf\xb3\xaf\xa1\
        \xb5\xa1.\n";
    let johab = [line, line].concat();
    let (code, out, err) = run("utf8enc", &["--from", "auto"], &johab);
    assert_eq!((code, out.len()), (Some(1), 0), "{err}");
    assert_eq!(
        err,
        "utf8enc: <stdin>: cannot tell the encoding: no reading is clean text (weighed: \
         windows-1252, windows-1254; the text may be in an encoding utf8enc does not read, such \
         as Johab or EUC-TW; name the encoding with --from ENC, or --from auto:ENC to use ENC \
         when detection cannot decide; nothing was written)\n"
    );
    // A fallback is used, and said.
    let (code, out, _) = run("utf8enc", &["--from", "auto:windows-1252"], &johab);
    assert_eq!((code, out.len() > johab.len()), (Some(0), true));
}
