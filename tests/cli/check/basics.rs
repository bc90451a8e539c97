//! `utf8check` on single inputs: formats, exit status, standard input, pipes.

use std::io::Write;

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::common::{fixture, json_lines, program, stdout_of};

fn utf8check() -> assert_cmd::Command {
    program("utf8check")
}

/// Every finding of the fixture that holds every kind, as SPEC 1.2 and 1.4 define them:
/// (offset, length, line, column, kind, bytes, code point).
type Expected = (u64, u64, u64, u64, &'static str, &'static str, Option<u64>);

const ALL_KINDS: &[Expected] = &[
    (14, 1, 2, 7, "unexpected-continuation", "80", None),
    (25, 1, 3, 5, "invalid-byte", "fe", None),
    (26, 1, 3, 6, "invalid-byte", "ff", None),
    (38, 2, 4, 5, "truncated", "e282", None),
    (58, 1, 4, 24, "truncated", "e9", None),
    (70, 2, 5, 10, "overlong", "c0af", Some(0x2F)),
    (77, 3, 5, 16, "overlong", "e080af", Some(0x2F)),
    (85, 4, 5, 22, "overlong", "f08da080", Some(0xD800)),
    (100, 3, 6, 11, "surrogate", "eda080", Some(0xD800)),
    (
        109,
        6,
        6,
        18,
        "surrogate-pair",
        "eda0bdedb880",
        Some(0x1F600),
    ),
    (122, 4, 7, 7, "out-of-range", "f4908080", Some(0x110000)),
    (134, 5, 7, 16, "out-of-range", "f888808080", Some(0x200000)),
    (140, 6, 7, 18, "overlong", "fc80808080af", Some(0x2F)),
    (167, 1, 8, 15, "unexpected-continuation", "80", None),
    (173, 1, 9, 5, "truncated", "e2", None),
];

fn expected_errors(path: &str) -> Vec<Value> {
    ALL_KINDS
        .iter()
        .map(|&(offset, length, line, column, kind, bytes, codepoint)| {
            json!({"type": "error", "path": path, "offset": offset, "length": length,
                   "line": line, "column": column, "kind": kind, "bytes": bytes,
                   "codepoint": codepoint})
        })
        .collect()
}

/// Drops the free-text message so that the rest compares exactly.
fn without_message(mut values: Vec<Value>) -> Vec<Value> {
    for value in &mut values {
        if let Some(object) = value.as_object_mut()
            && object.get("type") == Some(&json!("error"))
        {
            let message = object.remove("message").expect("every error has a message");
            assert!(!message.as_str().unwrap().is_empty());
        }
    }
    values
}

#[test]
fn issue_2_example() {
    let output = utf8check()
        .args(["--format", "json"])
        .write_stdin(&b"a\xc0\xafb\n\xed\xa0\x80"[..])
        .assert()
        .code(1)
        .stderr("")
        .get_output()
        .clone();
    assert_eq!(
        without_message(json_lines(&stdout_of(&output))),
        [
            json!({"type": "error", "path": "-", "offset": 1, "length": 2, "line": 1,
                   "column": 2, "kind": "overlong", "bytes": "c0af", "codepoint": 47}),
            json!({"type": "error", "path": "-", "offset": 5, "length": 3, "line": 2,
                   "column": 1, "kind": "surrogate", "bytes": "eda080", "codepoint": 55296}),
            json!({"type": "summary", "path": "-", "bytes": 8, "errors": 2, "valid": false,
                   "complete": true}),
        ]
    );
}

#[test]
fn every_kind_through_a_file_and_through_stdin() {
    let path = fixture("utf8check", "all-kinds.txt");
    let path_text = path.to_str().unwrap();
    let from_file = utf8check()
        .args(["--format", "json"])
        .arg(&path)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let mut expected = expected_errors(path_text);
    expected.push(
        json!({"type": "summary", "path": path_text, "bytes": 174, "errors": 15,
                         "valid": false, "complete": true}),
    );
    assert_eq!(
        without_message(json_lines(&stdout_of(&from_file))),
        expected
    );

    let from_stdin = utf8check()
        .args(["--format", "json", "-"])
        .pipe_stdin(&path)
        .unwrap()
        .assert()
        .code(1)
        .get_output()
        .clone();
    let mut expected = expected_errors("-");
    expected.push(
        json!({"type": "summary", "path": "-", "bytes": 174, "errors": 15,
                         "valid": false, "complete": true}),
    );
    assert_eq!(
        without_message(json_lines(&stdout_of(&from_stdin))),
        expected
    );
}

#[test]
fn human_format_names_kind_bytes_code_point_and_offset() {
    let path = fixture("utf8check", "all-kinds.txt");
    let output = utf8check().arg(&path).assert().code(1).get_output().clone();
    let text = stdout_of(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), ALL_KINDS.len());
    let p = path.display();
    assert_eq!(
        lines[5],
        format!(
            "{p}:5:10: overlong: overlong encoding of U+002F in 2 bytes (bytes c0 af at offset 70)"
        )
    );
    assert_eq!(
        lines[9],
        format!(
            "{p}:6:18: surrogate-pair: CESU-8 surrogate pair encoding U+1F600 \
             (bytes ed a0 bd ed b8 80 at offset 109)"
        )
    );
    assert_eq!(
        lines[3],
        format!(
            "{p}:4:5: truncated: lead byte 0xE2 starts a 3-byte sequence, only 2 present \
             (bytes e2 82 at offset 38)"
        )
    );
    // Standard input is named <stdin>.
    utf8check()
        .write_stdin(&b"\xff"[..])
        .assert()
        .code(1)
        .stdout(
            "<stdin>:1:1: invalid-byte: byte 0xFF never appears in UTF-8 (bytes ff at offset 0)\n",
        );
}

#[test]
fn valid_and_empty_inputs_pass() {
    let empty = tempfile::NamedTempFile::new().unwrap();
    utf8check()
        .arg(fixture("utf8check", "valid.txt"))
        .arg(empty.path())
        .assert()
        .code(0)
        .stdout("")
        .stderr("");
    let output = utf8check()
        .args(["--format", "json"])
        .arg(empty.path())
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert_eq!(
        json_lines(&stdout_of(&output)),
        [
            json!({"type": "summary", "path": empty.path().to_str().unwrap(), "bytes": 0,
                "errors": 0, "valid": true, "complete": true})
        ]
    );
    utf8check().write_stdin("").assert().code(0).stdout("");
}

#[test]
fn a_missing_file_is_trouble_and_the_next_file_is_still_checked() {
    let bad = fixture("utf8check", "all-kinds.txt");
    let output = utf8check()
        .args(["--format", "json", "no-such-file.txt"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr("utf8check: no-such-file.txt: No such file or directory\n")
        .get_output()
        .clone();
    let lines = json_lines(&stdout_of(&output));
    assert_eq!(
        lines.len(),
        ALL_KINDS.len() + 1,
        "the second file was checked"
    );
    assert_eq!(lines.last().unwrap()["errors"], 15);

    // Trouble wins over findings, whatever the order; a clean run after trouble is still 2.
    utf8check()
        .arg(&bad)
        .arg("no-such-file.txt")
        .assert()
        .code(2);
    utf8check()
        .arg("no-such-file.txt")
        .arg(fixture("utf8check", "valid.txt"))
        .assert()
        .code(2)
        .stdout("");
}

#[test]
fn a_directory_without_recursion_is_trouble() {
    let dir = tempfile::tempdir().unwrap();
    utf8check()
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "utf8check: {}: Is a directory\n",
            dir.path().display()
        ));
}

#[test]
fn quiet_prints_nothing_in_any_format() {
    let bad = fixture("utf8check", "all-kinds.txt");
    for format in ["human", "json"] {
        utf8check()
            .args(["-q", "--format", format])
            .arg(&bad)
            .assert()
            .code(1)
            .stdout("")
            .stderr("");
        utf8check()
            .args(["--quiet", "--format", format])
            .arg(fixture("utf8check", "valid.txt"))
            .assert()
            .code(0)
            .stdout("");
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let input = &b"\xff"[..];
    let coloured = utf8check()
        .args(["--color", "always"])
        .write_stdin(input)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let text = stdout_of(&coloured);
    assert!(text.contains("\x1b[31m"), "red kind in {text:?}");
    assert!(text.contains("\x1b[35m<stdin>"), "magenta path in {text:?}");
    // Through a pipe, auto means no colour; NO_COLOR and never too.
    for args in [&["--color", "auto"][..], &["--color", "never"], &[]] {
        utf8check()
            .args(args)
            .write_stdin(input)
            .assert()
            .stdout(predicate::str::contains("\x1b[").not());
    }
    utf8check()
        .env("NO_COLOR", "1")
        .write_stdin(input)
        .assert()
        .stdout(predicate::str::contains("\x1b[").not());
}

#[test]
fn bad_usage_is_status_2() {
    utf8check().arg("--format=xml").assert().code(2).stdout("");
    utf8check()
        .arg("--no-such-option")
        .assert()
        .code(2)
        .stdout("");
    utf8check().arg("--color").arg("sometimes").assert().code(2);
}

#[test]
fn help_and_version() {
    for flag in ["-h", "--help"] {
        utf8check()
            .arg(flag)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("Usage: utf8check"));
    }
    utf8check()
        .arg("--help")
        .assert()
        .stdout(predicate::str::contains("Exit status:"));
    utf8check()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(format!("utf8check {}\n", env!("CARGO_PKG_VERSION")));
}

/// A large file is memory-mapped; the same bytes through a pipe are streamed in chunks. The
/// findings must be identical, including those that straddle the pipe's chunk borders.
#[test]
fn mapped_file_and_streamed_stdin_agree() {
    let mut data = Vec::new();
    let line = "Grüße, 世界 😀 ok\n".as_bytes();
    let errors: [&[u8]; 6] = [
        b"\xC0\xAF",
        b"\xED\xA0\xBD\xED\xB8\x80",
        b"\xE2\x82",
        b"\xFF",
        b"\xF4\x90\x80\x80",
        b"\xFC\x80\x80\x80\x80\xAF",
    ];
    let mut k = 0;
    while data.len() < 3 << 20 {
        data.extend_from_slice(line);
        // Land errors just before every 64 KiB border (`input::CHUNK_LEN`), and elsewhere now and then.
        let next_border = (data.len() / (64 << 10) + 1) * (64 << 10);
        if next_border - data.len() < 40 || data.len() % 7919 < 23 {
            data.extend_from_slice(errors[k % errors.len()]);
            k += 1;
        }
    }
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(&data).unwrap();
    let from_file = utf8check()
        .args(["--format", "json"])
        .arg(file.path())
        .assert()
        .code(1)
        .get_output()
        .clone();
    let from_stdin = utf8check()
        .args(["--format", "json"])
        .write_stdin(data)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let path = format!("{:?}", file.path().to_str().unwrap());
    let file_text = stdout_of(&from_file).replace(&path, "\"-\"");
    assert_eq!(file_text, stdout_of(&from_stdin));
    assert!(json_lines(&file_text).len() > 300, "errors were planted");
}

/// A file big enough to be read by every thread at once (16 MiB and more): valid, with
/// mistakes on a part's edge and at the very end, as standard input read from the middle, and
/// UTF-16 without a mark. Every thread count gives exactly what one thread gives.
#[test]
fn a_big_file_gives_one_threads_answer_on_every_core() {
    let dir = tempfile::tempdir().unwrap();
    let line = "ascii, é, €, 😀 and 日本語\n".repeat(4);
    let valid = line.repeat((17 << 20) / line.len()).into_bytes();
    let len = valid.len();
    let mut broken = valid.clone();
    // The cut for two threads falls near the middle: a sequence cut there, and a stray byte.
    let middle = len / 2 - (len / 2) % line.len() + line.find('😀').unwrap();
    broken[middle + 1] = b'!';
    broken[len - 2] = 0xFF;
    broken[3] = 0xC0;
    let utf16 = "plain words\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect::<Vec<u8>>()
        .repeat((16 << 20) / 24 + 1);
    for (name, bytes) in [("valid", &valid), ("broken", &broken), ("utf16", &utf16)] {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let run = |threads: &str, args: &[&str], stdin: Option<(&str, u64)>| {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("utf8check"));
        command.current_dir(dir.path()).arg(threads).args(args);
        if let Some((name, start)) = stdin {
            // The reader takes its input from the middle of the file, as after `read` in a
            // shell script: only the rest is the input.
            let mut file = std::fs::File::open(dir.path().join(name)).unwrap();
            std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(start)).unwrap();
            command.stdin(file);
        }
        let output = command.output().unwrap();
        (output.status.code(), output.stdout, output.stderr)
    };
    let summary = |output: &[u8]| {
        json_lines(&String::from_utf8_lossy(output))
            .last()
            .unwrap()
            .clone()
    };
    let one = run("-j1", &["--format", "json", "valid"], None);
    assert_eq!(one.0, Some(0));
    assert_eq!(
        summary(&one.1),
        json!({"type": "summary", "path": "valid", "bytes": len, "errors": 0,
               "valid": true, "complete": true})
    );
    let broken_one = run("-j1", &["--format", "json", "broken"], None);
    let findings = json_lines(&String::from_utf8_lossy(&broken_one.1));
    let offsets: Vec<&Value> = findings.iter().map(|f| &f["offset"]).collect();
    assert_eq!(
        offsets,
        [
            &json!(3),
            &json!(middle),
            &json!(middle + 2),
            &json!(middle + 3),
            &json!(len - 4),
            &json!(len - 2),
            &Value::Null
        ],
        "{findings:?}"
    );
    let rest = (len / 2 + 1) as u64;
    let stdin_one = run("-j1", &["--format", "json"], Some(("broken", rest)));
    assert_eq!(
        summary(&stdin_one.1)["bytes"],
        json!(len as u64 - rest),
        "only the rest of standard input"
    );
    let line_start = (len / 3 - (len / 3) % line.len()) as u64;
    let valid_stdin_one = run("-j1", &["--format", "json"], Some(("valid", line_start)));
    assert_eq!(
        summary(&valid_stdin_one.1),
        json!({"type": "summary", "path": "-", "bytes": len as u64 - line_start, "errors": 0,
               "valid": true, "complete": true})
    );
    let hint_one = run("-j1", &["utf16"], None);
    assert!(
        String::from_utf8_lossy(&hint_one.2).contains("UTF-16LE without a byte order mark"),
        "{hint_one:?}"
    );
    for threads in ["-j2", "-j3", "-j8"] {
        assert_eq!(run(threads, &["--format", "json", "valid"], None), one);
        assert_eq!(
            run(threads, &["--format", "json", "broken"], None),
            broken_one
        );
        assert_eq!(
            run(threads, &["--format", "json"], Some(("broken", rest))),
            stdin_one
        );
        assert_eq!(run(threads, &["utf16"], None), hint_one);
    }
}
