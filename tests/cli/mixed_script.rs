//! The `mixed-script` lint (SPEC 1.6): look-alike words across scripts, in every program that
//! shows it.

use serde_json::Value;

use crate::common::{json_lines, program, stdout_of};

/// The JSON error objects `utf8check --format json ARGS` writes for `input` on standard input.
fn errors(args: &[&str], input: &str) -> Vec<Value> {
    let output = program("utf8check")
        .args(["--format", "json"])
        .args(args)
        .write_stdin(input.as_bytes().to_vec())
        .output()
        .unwrap();
    json_lines(&stdout_of(&output))
        .into_iter()
        .filter(|v| v["type"] == "error")
        .collect()
}

#[test]
fn a_look_alike_word_is_one_finding_with_the_word_it_imitates() {
    let output = program("utf8check")
        .args(["--deny", "mixed-script"])
        .write_stdin("pay with pаypal\nsudo ѕudo admіn\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout_of(&output),
        "<stdin>:1:10: mixed-script: 'pаypal' mixes Latin and Cyrillic; it looks like 'paypal' \
         (bytes 70 d0 b0 79 70 61 6c at offset 9)\n\
         <stdin>:2:6: mixed-script: 'ѕudo' mixes Cyrillic and Latin; it looks like 'sudo' \
         (bytes d1 95 75 64 6f at offset 22)\n\
         <stdin>:2:11: mixed-script: 'admіn' mixes Latin and Cyrillic; it looks like 'admin' \
         (bytes 61 64 6d d1 96 6e at offset 28)\n"
    );
    let json = errors(&["--deny", "mixed-script"], "x pаypal\n");
    assert_eq!(json.len(), 1);
    let e = &json[0];
    assert_eq!(
        (
            &e["kind"],
            &e["offset"],
            &e["length"],
            &e["line"],
            &e["column"],
            &e["codepoint"],
            &e["bytes"]
        ),
        (
            &Value::from("mixed-script"),
            &Value::from(2),
            &Value::from(7),
            &Value::from(1),
            &Value::from(3),
            &Value::from(0x430),
            &Value::from("70d0b07970616c")
        )
    );
    assert_eq!(
        e["message"],
        "'pаypal' mixes Latin and Cyrillic; it looks like 'paypal'"
    );
    // A mixed word with no ASCII look-alike is named without one.
    let json = errors(&["--deny", "mixed-script"], "Привeт\n");
    assert_eq!(json[0]["message"], "'Привeт' mixes Cyrillic and Latin");
}

#[test]
fn ordinary_text_of_many_languages_gives_no_finding() {
    let text = "東京タワーのTシャツを買った。漢字かなカナABC\n\
                한국語 텍스트와 漢字, iPhone용 앱\n\
                Привет, мир! Hello, world! Ελλάδα/Greece, Россия/Russia\n\
                The constant α is 1/137; β decay; a 5 μm filter and a 10 kΩ resistor\n\
                中文ㄅㄆㄇ 繁體中文 简体中文\n\
                printf(\"%sЗібрано\\n\"); ошибка\\nповтор\n\
                Naïve café Straße İstanbul ǅemal ১০x১১ PNGရဲ့ АфгIанистан\n";
    let output = program("utf8check")
        .args(["--deny", "mixed-script"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(stdout_of(&output), "");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_mixed_word_is_no_non_ascii_finding_too() {
    let json = errors(&["--deny", "all"], "мир pаypal мир\n");
    let kinds: Vec<(&str, u64, u64)> = json
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap(),
                e["offset"].as_u64().unwrap(),
                e["length"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("non-ascii", 0, 6),
            ("mixed-script", 7, 7),
            ("non-ascii", 15, 6)
        ]
    );
}

#[test]
fn warn_and_every_format_carry_it() {
    let input = "x pаypal\n";
    let output = program("utf8check")
        .args([
            "--warn",
            "mixed-script",
            "--format",
            "github",
            "--label",
            "a.txt",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "a warning leaves the status 0"
    );
    assert_eq!(
        stdout_of(&output),
        "::warning file=a.txt,line=1,col=3,title=utf8check mixed-script::'pаypal' mixes Latin \
         and Cyrillic; it looks like 'paypal' (bytes 70 d0 b0 79 70 61 6c at offset 2)\n"
    );
    for format in ["sarif", "codeclimate"] {
        let output = program("utf8check")
            .args(["--deny", "mixed-script", "--format", format])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{format}");
        let report: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
        let text = report.to_string();
        assert!(text.contains("mixed-script"), "{format}: {text}");
        assert!(text.contains("it looks like 'paypal'"), "{format}: {text}");
    }
}

#[test]
fn the_word_is_the_same_wherever_a_chunk_ends() {
    const CHUNK: usize = 64 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input.txt");
    let word = "pаypal";
    for shift in 0..=word.len() {
        let mut input = vec![b' '; CHUNK - shift];
        input.extend_from_slice(word.as_bytes());
        input.push(b'\n');
        std::fs::write(&file, &input).unwrap();
        let output = program("utf8check")
            .args(["--deny", "mixed-script", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        let json = json_lines(&stdout_of(&output));
        assert_eq!(json[0]["kind"], "mixed-script", "shift {shift}");
        assert_eq!(json[0]["offset"], CHUNK - shift, "shift {shift}");
        assert_eq!(json[0]["length"], word.len(), "shift {shift}");
    }
}

#[test]
fn utf8dump_marks_the_odd_letters_and_reads_back() {
    let output = program("utf8dump")
        .write_stdin("pаy ѕudo\n")
        .output()
        .unwrap();
    let text = stdout_of(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "00000001  d0 b0        U+0430    а           mixed-script: Cyrillic"
    );
    assert_eq!(
        lines[4],
        "00000005  d1 95        U+0455    ѕ           mixed-script: Cyrillic"
    );
    assert_eq!(lines[0], "00000000  70           U+0070    p");
    assert_eq!(lines[5], "00000007  75           U+0075    u");
    let back = program("utf8dump")
        .arg("-r")
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(back.stdout, "pаy ѕudo\n".as_bytes());
}

#[test]
fn utf8fix_keeps_the_words_and_check_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    let text = "pay pаypal\u{200B}\n";
    std::fs::write(&file, text).unwrap();
    // --strip removes the invisible character and keeps the word.
    let output = program("utf8fix")
        .args(["--strip", "invisible,mixed-script"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_of(&output), "pay pаypal\n");
    // --strip mixed-script alone has nothing to remove...
    let output = program("utf8fix")
        .args(["--strip", "mixed-script"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.stdout, text.as_bytes());
    // ... and --check reports the file, -v the word.
    let output = program("utf8fix")
        .args(["--strip", "mixed-script", "--check", "-v"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_of(&output), format!("{}\n", file.display()));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("offset 4: mixed-script 70 d0 b0 79 70 61: a word mixing scripts"),
        "{stderr}"
    );
    // In place, the word stays and the file is left alone.
    let output = program("utf8fix")
        .args(["--strip", "mixed-script", "-i"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(std::fs::read(&file).unwrap(), text.as_bytes());
}
