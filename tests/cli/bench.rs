//! The benchmark script keeps working: its corpora, generated small, are what they say they
//! are. (The timings themselves are never a test: `python3 bench/bench.py` measures them.)

use std::path::Path;
use std::process::Command;

use crate::common::{json_lines, program, stdout_of};

#[test]
fn bench_corpora_are_what_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/bench.py");
    let output = Command::new("python3")
        .arg(&script)
        // The generated tree is a timing corpus (50,000 files by default, most of this test's
        // time): a small one is enough to see it made.
        .args([
            "--size",
            "64K",
            "--tree-files",
            "200",
            "--corpora-only",
            "--corpora",
        ])
        .arg(dir.path())
        .output()
        .expect("python3 runs the benchmark script");
    assert!(output.status.success(), "{output:?}");
    let scratch = dir.path().join("65536");
    assert_eq!(stdout_of(&output).trim(), scratch.to_str().unwrap());
    let read = |name: &str| std::fs::read(scratch.join(name)).unwrap();

    for name in [
        "ascii.txt",
        "european.txt",
        "cjk.txt",
        "emoji.txt",
        "mix.txt",
    ] {
        let bytes = read(name);
        assert!(
            (65_530..=65_536).contains(&bytes.len()),
            "{name}: {}",
            bytes.len()
        );
        assert!(std::str::from_utf8(&bytes).is_ok(), "{name} is valid");
        program("utf8check")
            .arg(scratch.join(name))
            .assert()
            .code(0);
    }
    assert!(read("ascii.txt").is_ascii());
    let mix = String::from_utf8(read("mix.txt")).unwrap();
    for sample in ["é", "日本語", "😀"] {
        assert!(mix.contains(sample), "the mix holds {sample}");
    }

    // One error per KiB and per MiB: each is one finding.
    for (name, every) in [("mix-err-kib.txt", 1024), ("mix-err-mib.txt", 1 << 20)] {
        let output = program("utf8check")
            .args(["--format", "json"])
            .arg(scratch.join(name))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{name}");
        let findings = json_lines(&stdout_of(&output))
            .into_iter()
            .filter(|line| line.get("kind").is_some())
            .count();
        assert_eq!(findings, mix.len().div_ceil(every), "{name}");
    }

    // Latin-1 and UTF-16LE decode to text.
    let latin1 = read("latin1.txt");
    assert!(latin1.iter().any(|&b| b >= 0x80) && std::str::from_utf8(&latin1).is_err());
    let decoded = program("utf8enc")
        .args(["--from", "latin1"])
        .arg(scratch.join("latin1.txt"))
        .output()
        .unwrap();
    let expected: String = latin1.iter().map(|&b| char::from(b)).collect();
    assert_eq!(stdout_of(&decoded), expected);
    let decoded = program("utf8enc")
        .args(["--from", "utf-16le"])
        .arg(scratch.join("utf16le.txt"))
        .output()
        .unwrap();
    assert_eq!(decoded.status.code(), Some(0));
    let text = stdout_of(&decoded);
    assert!(
        text.len() > 30_000 && mix.starts_with(&text),
        "the first half of the mix"
    );
}
