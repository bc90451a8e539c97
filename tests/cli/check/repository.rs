//! `utf8check` over a whole repository: walks, ignore files, binary files, listing options,
//! policies and lints, lists of paths, CI formats, threads.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::common::{json_lines, program, stdout_of, write_tree};

fn utf8check() -> assert_cmd::Command {
    program("utf8check")
}

/// A repository with one of everything a walk meets.
struct Repo {
    dir: tempfile::TempDir,
    /// Whether a mode-000 file really is unreadable (it is not to root).
    unreadable_is_unreadable: bool,
}

impl Repo {
    fn path(&self) -> &Path {
        self.dir.path()
    }
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_tree(
        root,
        &[
            (".gitignore", b"ignored/\n*.log\n"),
            ("a.txt", b"fine\n"),
            ("latin1.txt", b"caf\xe9 cr\xe8me\n"),
            ("skip.log", b"\xff"),
            ("ignored/x.txt", b"\xff"),
            (".hidden/h.txt", b"\xff"),
            (".dotfile", b"\xc0\x80"),
            ("sub/bad.txt", b"x\xc0\xaf\n"),
            ("sub/blob.bin", b"bin\x00\xff\xfe"),
            ("sub/utf16.txt", b"\xff\xfeh\x00i\x00"),
            ("sub/deep/bidi.txt", "ok \u{202E}\n".as_bytes()),
            ("locked/locked.txt", b"\xfe"),
        ],
    );
    symlink("..", root.join("sub/deep/loop")).unwrap();
    symlink("nowhere", root.join("dangling")).unwrap();
    let locked = root.join("locked/locked.txt");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let unreadable_is_unreadable = std::fs::File::open(&locked).is_err();
    Repo {
        dir,
        unreadable_is_unreadable,
    }
}

fn summaries(values: &[Value]) -> Vec<(String, u64)> {
    values
        .iter()
        .filter(|v| v["type"] == "summary")
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["errors"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn pairs(rows: &[(&str, u64)]) -> Vec<(String, u64)> {
    rows.iter().map(|&(p, n)| (p.to_owned(), n)).collect()
}

#[test]
fn a_walk_honours_ignore_files_hidden_files_binary_files_and_reports_trouble() {
    let repo = repo();
    // Links are not followed: the loop and the dangling link are not even looked at, and only
    // the unreadable file (when the tests do not run as root) is trouble.
    let output = utf8check()
        .current_dir(repo.path())
        .args(["-r", "--format", "json"])
        .assert()
        .code(if repo.unreadable_is_unreadable { 2 } else { 1 })
        .get_output()
        .clone();
    let values = json_lines(&stdout_of(&output));
    let mut expected = vec![("a.txt", 0), ("latin1.txt", 2)];
    if !repo.unreadable_is_unreadable {
        expected.push(("locked/locked.txt", 1));
    }
    expected.extend([
        ("sub/bad.txt", 1),
        ("sub/deep/bidi.txt", 0),
        ("sub/utf16.txt", 1),
    ]);
    assert_eq!(summaries(&values), pairs(&expected), "sorted walk order");

    // The UTF-16 file gets one finding for its byte order mark, offset 0, length 2.
    let bom: Vec<&Value> = values.iter().filter(|v| v["kind"] == "utf16-bom").collect();
    assert_eq!(bom.len(), 1);
    assert_eq!(
        (
            bom[0]["path"].as_str(),
            &bom[0]["offset"],
            &bom[0]["length"],
            &bom[0]["bytes"]
        ),
        (Some("sub/utf16.txt"), &json!(0), &json!(2), &json!("fffe"))
    );
    assert!(
        bom[0]["message"]
            .as_str()
            .unwrap()
            .contains("little-endian")
    );

    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        !stderr.contains("dangling") && !stderr.contains("loop"),
        "{stderr}"
    );
    if repo.unreadable_is_unreadable {
        assert!(
            stderr.contains("utf8check: locked/locked.txt: Permission denied\n"),
            "{stderr}"
        );
    }
}

#[test]
fn follow_walks_links_reports_a_loop_once_and_never_enters_the_kernel_file_systems() {
    let repo = repo();
    symlink("/proc", repo.path().join("proc-link")).unwrap();
    let output = utf8check()
        .current_dir(repo.path())
        .args(["-r", "-l", "--follow"])
        .assert()
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(!stdout.contains("proc-link"), "{stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("utf8check: dangling: No such file or directory\n"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("symbolic link loop").count(),
        1,
        "the loop is one note: {stderr}"
    );
    assert!(!stderr.contains("proc-link"), "{stderr}");
}

#[test]
fn dash_capital_l_follows_in_a_walk_or_a_list_and_lists_clean_inputs_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[("outside/bad.txt", b"\xff\n"), ("tree/good.txt", b"ok\n")],
    );
    symlink("../outside/bad.txt", dir.path().join("tree/link.txt")).unwrap();
    let run = |args: &[&str]| {
        let output = utf8check()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    // A walk does not follow the link; -L (ripgrep's) and --follow do.
    assert_eq!(run(&["-r", "tree"]).0, Some(0));
    let followed = (
        Some(1),
        "tree/link.txt:1:1: invalid-byte: byte 0xFF never appears in UTF-8 (bytes ff at offset 0)\n"
            .to_owned(),
        String::new(),
    );
    assert_eq!(run(&["-r", "-L", "tree"]), followed);
    assert_eq!(run(&["-r", "--follow", "tree"]), followed);
    let listed = "tree/link.txt\n";
    fs::write(dir.path().join("list"), listed).unwrap();
    assert_eq!(run(&["--files-from", "list"]).0, Some(0));
    assert_eq!(run(&["--files-from", "list", "-L"]).0, Some(1));
    // With -r, -l combines with -L (following), and the long name lists clean files.
    assert_eq!(
        run(&["-r", "-L", "-l", "tree"]),
        (Some(1), "tree/link.txt\n".to_owned(), String::new())
    );
    assert_eq!(
        run(&["-r", "--files-without-errors", "tree"]),
        (Some(0), "tree/good.txt\n".to_owned(), String::new())
    );
    // Without a walk or a list, -L is grep's: the inputs without findings.
    assert_eq!(
        run(&["-L", "tree/good.txt", "outside/bad.txt"]),
        (Some(1), "tree/good.txt\n".to_owned(), String::new())
    );
    let (status, stdout, stderr) = run(&["-L", "-l", "tree/good.txt"]);
    assert_eq!((status, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        "utf8check: the argument '-L' (--files-without-errors without -r) cannot be used with '-l'\n"
    );
}

#[test]
fn hidden_no_ignore_and_binary_widen_the_walk() {
    let repo = repo();
    let run = |args: &[&str]| {
        let output = utf8check()
            .current_dir(repo.path())
            .args(["-r", "-c"])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let plain = run(&[]);
    assert!(!plain.contains(".hidden") && !plain.contains("skip.log") && !plain.contains("blob"));
    let hidden = run(&["--hidden"]);
    assert!(hidden.contains(".hidden/h.txt:1\n"), "{hidden}");
    assert!(hidden.contains(".dotfile:1\n"), "{hidden}");
    assert!(hidden.contains(".gitignore:0\n"), "{hidden}");
    let no_ignore = run(&["--no-ignore"]);
    assert!(no_ignore.contains("skip.log:1\n") && no_ignore.contains("ignored/x.txt:1\n"));
    assert!(!no_ignore.contains(".hidden"));
    let binary = run(&["--binary"]);
    assert!(binary.contains("sub/blob.bin:2\n"), "{binary}");
}

/// A known binary signature does not make a walked file binary when its first 8 KiB are UTF-8
/// (SPEC 3: a valid UTF-8 head is never binary): a file dressed as a tar archive, its magic at
/// offset 257 and its stray byte past the probe, is checked, as is a text file holding a NUL
/// and the same magic word away from its place.
#[test]
fn a_walk_checks_a_signature_whose_head_is_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let mut tar = vec![0u8; 512];
    tar[..9].copy_from_slice(b"notes.txt");
    tar[257..265].copy_from_slice(b"ustar  \0");
    tar.extend(b"a line of text\n".repeat(700));
    tar.extend_from_slice(b"caf\xe9\n");
    assert!(std::str::from_utf8(&tar[..8192]).is_ok());
    let mut text = b"a log line\0 with a NUL, then".to_vec();
    text.resize(300, b' ');
    text.extend_from_slice(b"ustar  \0 and then\n");
    text.extend(b"more text\n".repeat(900));
    text.extend_from_slice(b"caf\xe9\n");
    write_tree(dir.path(), &[("archive.tar", &tar), ("nul.log.txt", &text)]);
    let walked = |args: &[&str]| {
        let output = utf8check()
            .current_dir(dir.path())
            .args(["-c", "-r"])
            .args(args)
            .arg(".")
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    assert_eq!(
        walked(&[]),
        (Some(1), "archive.tar:1\nnul.log.txt:1\n".to_owned())
    );
    assert_eq!(
        walked(&["--binary"]),
        (Some(1), "archive.tar:1\nnul.log.txt:1\n".to_owned())
    );
    utf8check()
        .current_dir(dir.path())
        .args(["-c", "archive.tar", "nul.log.txt"])
        .assert()
        .code(1)
        .stdout("archive.tar:1\nnul.log.txt:1\n");
}

/// A text file dressed up as binary (a NUL and a stray byte at its start) with a hidden bidi
/// control further on is checked, and the gate reports the control; a real binary file (a NUL
/// and stray bytes in one byte of 64 and more) is still skipped.
#[test]
fn a_text_file_dressed_as_binary_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut dressed = b"\0\xff // build\n".to_vec();
    dressed.extend(b"let access = \"user\";\n".repeat(50));
    dressed.extend("if access != \"user\u{202E} \u{2066}// admin\" {}\n".as_bytes());
    let mut blob = Vec::new();
    for n in 0..4000u32 {
        blob.extend_from_slice(&n.to_le_bytes());
        blob.push(0xFF);
    }
    write_tree(
        dir.path(),
        &[("src/auth.rs", &dressed), ("data/blob.bin", &blob)],
    );
    let output = utf8check()
        .current_dir(dir.path())
        .args(["-r", "--deny", "bidi", "-c", "."])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "src/auth.rs:3\n");
}

#[test]
fn a_file_named_on_the_command_line_is_always_checked() {
    let repo = repo();
    utf8check()
        .current_dir(repo.path())
        .args(["-r", "-c", "sub/blob.bin", "skip.log", ".hidden/h.txt"])
        .assert()
        .code(1)
        .stdout("sub/blob.bin:2\nskip.log:1\n.hidden/h.txt:1\n");
}

#[test]
fn listing_options() {
    let repo = repo();
    let dir = repo.path();
    let files = ["a.txt", "latin1.txt", "sub/bad.txt", "sub/deep/bidi.txt"];
    utf8check()
        .current_dir(dir)
        .arg("-l")
        .args(files)
        .assert()
        .code(1)
        .stdout("latin1.txt\nsub/bad.txt\n");
    utf8check()
        .current_dir(dir)
        .arg("--files-without-errors")
        .args(files)
        .assert()
        .code(1)
        .stdout("a.txt\nsub/deep/bidi.txt\n");
    utf8check()
        .current_dir(dir)
        .arg("--count")
        .args(files)
        .assert()
        .code(1)
        .stdout("a.txt:0\nlatin1.txt:2\nsub/bad.txt:1\nsub/deep/bidi.txt:0\n");
    // One named input: the count alone, as grep prints it.
    utf8check()
        .current_dir(dir)
        .args(["-c", "latin1.txt"])
        .assert()
        .code(1)
        .stdout("2\n");
    utf8check()
        .current_dir(dir)
        .args(["-l", "a.txt"])
        .assert()
        .code(0)
        .stdout("");
    utf8check().args(["-l", "-c"]).assert().code(2);
}

#[test]
fn max_errors_stops_each_input_and_marks_it_incomplete() {
    let input = &b"\xff\xfe\x80 ok \xc0\xaf"[..];
    let input = [b"x", input].concat();
    let output = utf8check()
        .args(["-m", "2", "--format", "json"])
        .write_stdin(input)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let values = json_lines(&stdout_of(&output));
    let offsets: Vec<&Value> = values.iter().map(|v| &v["offset"]).collect();
    assert_eq!(offsets[..2], [&json!(1), &json!(2)]);
    assert_eq!(values.len(), 3);
    assert_eq!(values[2]["errors"], 2);
    assert_eq!(values[2]["complete"], false);
    assert_eq!(
        values[2]["bytes"], 4,
        "the scan stopped after the third finding"
    );

    // Exactly N findings: nothing was left unread, so the input is complete.
    let output = utf8check()
        .args(["--max-errors", "2", "--format", "json"])
        .write_stdin(&b"a\xff\xfe"[..])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let values = json_lines(&stdout_of(&output));
    assert_eq!(
        values.last().unwrap(),
        &json!({"type": "summary", "path": "-", "bytes": 3, "errors": 2, "valid": false,
                "complete": true})
    );
    utf8check().args(["-m", "lots"]).assert().code(2);
}

#[test]
fn summary_lines_and_total() {
    let repo = repo();
    utf8check()
        .current_dir(repo.path())
        .args(["--summary", "a.txt", "sub/bad.txt"])
        .assert()
        .code(1)
        .stdout(
            "a.txt: valid in 5 bytes\n\
             sub/bad.txt:1:2: overlong: overlong encoding of U+002F in 2 bytes \
             (bytes c0 af at offset 1)\n\
             sub/bad.txt: 1 error in 4 bytes\n\
             2 inputs checked, 1 with findings, 1 finding in all\n",
        );
}

#[test]
fn allow_accepts_what_other_systems_write() {
    let pair = &b"\xed\xa0\xbd\xed\xb8\x80"[..];
    let lone = &b"\xed\xa0\x80"[..];
    let nul = &b"\xc0\x80"[..];
    let input = [pair, b" ", lone, b" ", nul].concat();
    let kinds = |allow: &[&str]| {
        let output = utf8check()
            .args(["--format", "json"])
            .args(allow)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        json_lines(&stdout_of(&output))
            .iter()
            .filter(|v| v["type"] == "error")
            .map(|v| v["kind"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds(&[]), ["surrogate-pair", "surrogate", "overlong"]);
    assert_eq!(kinds(&["--allow", "cesu8"]), ["surrogate", "overlong"]);
    assert_eq!(kinds(&["--allow", "surrogates"]), ["overlong"]);
    assert!(kinds(&["--allow", "modified"]).is_empty());
    assert_eq!(kinds(&["--allow=cesu8,surrogates"]), ["overlong"]);
    utf8check()
        .args(["--allow", "modified"])
        .write_stdin(input)
        .assert()
        .code(0);
    utf8check().args(["--allow", "latin1"]).assert().code(2);
}

#[test]
fn deny_reports_each_lint_with_its_own_kind() {
    let input = "\u{FEFF}a\u{0}b\u{7}c\u{85}d\u{FDD0}e\u{202E}f\u{E000}g\u{FFFD}h\u{FEFF}\t\r\n";
    let output = utf8check()
        .args(["--deny", "all", "--format", "json"])
        .write_stdin(input)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let rows: Vec<(String, u64, u64, Value)> = json_lines(&stdout_of(&output))
        .iter()
        .filter(|v| v["type"] == "error")
        .map(|v| {
            (
                v["kind"].as_str().unwrap().to_owned(),
                v["offset"].as_u64().unwrap(),
                v["column"].as_u64().unwrap(),
                v["codepoint"].clone(),
            )
        })
        .collect();
    let expected = [
        ("bom", 0, 1, 0xFEFF),
        ("nul", 4, 3, 0),
        ("control", 6, 5, 7),
        ("control", 8, 7, 0x85),
        ("noncharacter", 11, 9, 0xFDD0),
        ("bidi", 15, 11, 0x202E),
        ("private-use", 19, 13, 0xE000),
        ("replacement", 23, 15, 0xFFFD),
        ("invisible", 27, 17, 0xFEFF),
    ];
    let expected: Vec<(String, u64, u64, Value)> = expected
        .iter()
        .map(|&(k, o, c, cp)| (k.to_owned(), o, c, json!(cp)))
        .collect();
    assert_eq!(
        rows, expected,
        "TAB, CR and LF are not findings; a later U+FEFF is invisible, not bom"
    );
    utf8check()
        .args(["--deny", "bidi", "--deny", "nul", "-c"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("2\n");
    utf8check()
        .args(["--deny", "bidi"])
        .write_stdin("plain\n")
        .assert()
        .code(0);
    utf8check()
        .args(["--deny", "emoji"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value 'emoji' for '--deny <LINTS>' [possible values: bom, nul,",
        ));
}

#[test]
fn files_from_lists_with_lf_or_nul() {
    let repo = repo();
    let dir = repo.path();
    std::fs::write(dir.join("list.txt"), "a.txt\nsub/bad.txt\n\nmissing.txt\n").unwrap();
    utf8check()
        .current_dir(dir)
        .args(["-c", "--files-from", "list.txt"])
        .assert()
        .code(2)
        .stdout("a.txt:0\nsub/bad.txt:1\n")
        .stderr("utf8check: missing.txt: No such file or directory\n");
    utf8check()
        .current_dir(dir)
        .args(["-c", "--files0-from", "-"])
        .write_stdin("latin1.txt\0sub/deep/bidi.txt\0")
        .assert()
        .code(1)
        .stdout("latin1.txt:2\nsub/deep/bidi.txt:0\n");
    // A deleted file in a list of changed files: trouble, or a note with --ignore-missing.
    utf8check()
        .current_dir(dir)
        .args(["-c", "--files-from", "list.txt", "--ignore-missing"])
        .assert()
        .code(1)
        .stdout("a.txt:0\nsub/bad.txt:1\n")
        .stderr("utf8check: missing.txt: skipped: no such file (--ignore-missing)\n");
    // Listed files are treated as walked ones: a binary file is skipped, a link not followed.
    utf8check()
        .current_dir(dir)
        .args(["-c", "--files-from", "-"])
        .write_stdin("sub/blob.bin\ndangling\nsub/bad.txt\n")
        .assert()
        .code(1)
        .stdout("sub/bad.txt:1\n")
        .stderr("utf8check: dangling: skipped: a symbolic link (--follow follows it)\n");
    // A list of changed files names a submodule by its path: a directory holding its own
    // `.git`, walked as a root; any other directory is skipped with a note without -r.
    std::fs::create_dir_all(dir.join("vendor/lib/src")).unwrap();
    std::fs::write(
        dir.join("vendor/lib/.git"),
        "gitdir: ../../.git/modules/lib\n",
    )
    .unwrap();
    std::fs::write(dir.join("vendor/lib/src/x.txt"), "ok\n").unwrap();
    std::fs::write(dir.join("vendor/lib/src/hidden.txt"), "a\u{202E}b\n").unwrap();
    std::fs::create_dir_all(dir.join("plain")).unwrap();
    utf8check()
        .current_dir(dir)
        .args(["-c", "--deny", "bidi", "--files0-from", "-"])
        .write_stdin("vendor/lib\0plain\0")
        .assert()
        .code(1)
        .stdout("vendor/lib/src/hidden.txt:1\nvendor/lib/src/x.txt:0\n")
        .stderr("utf8check: plain: skipped: a directory (-r walks it)\n");
    // Standard input is read by one reader only.
    utf8check()
        .current_dir(dir)
        .args(["--files-from", "-", "-"])
        .write_stdin("a.txt\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "standard input can be read only once",
        ));
    // A listed directory is walked with -r.
    utf8check()
        .current_dir(dir)
        .args(["-r", "-l", "--files-from", "-"])
        .write_stdin("sub\n")
        .assert()
        .stdout("sub/bad.txt\nsub/utf16.txt\n");
    utf8check()
        .args(["--files-from", "no-such-list"])
        .assert()
        .code(2)
        .stderr("utf8check: no-such-list: No such file or directory\n");
    // -0 ends the printed paths with NUL, written as their exact bytes.
    utf8check()
        .current_dir(dir)
        .args(["-l", "-0", "a.txt", "sub/bad.txt", "latin1.txt"])
        .assert()
        .code(1)
        .stdout("sub/bad.txt\0latin1.txt\0");
    utf8check()
        .current_dir(dir)
        .args(["-c", "-0", "a.txt", "sub/bad.txt"])
        .assert()
        .code(1)
        .stdout("a.txt\x000\nsub/bad.txt\x001\n");
}

#[test]
fn globs_include_and_exclude() {
    let repo = repo();
    utf8check()
        .current_dir(repo.path())
        .args([
            "-r",
            "-c",
            "--glob",
            "*.txt",
            "--glob",
            "!latin1.txt",
            "sub",
            "a.txt",
        ])
        .assert()
        .stdout("sub/bad.txt:1\nsub/deep/bidi.txt:0\nsub/utf16.txt:1\na.txt:0\n");
    utf8check()
        .args(["-r", "--glob", "{oops"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "utf8check: invalid glob '{oops'",
        ));
}

#[test]
fn github_annotations() {
    let repo = repo();
    utf8check()
        .current_dir(repo.path())
        .args(["--format", "github", "sub/bad.txt"])
        .assert()
        .code(1)
        .stdout(
            "::error file=sub/bad.txt,line=1,col=2,title=utf8check overlong::overlong encoding \
             of U+002F in 2 bytes (bytes c0 af at offset 1)\n",
        );
}

#[test]
fn sarif_log() {
    let repo = repo();
    let output = utf8check()
        .current_dir(repo.path())
        .args([
            "--format",
            "sarif",
            "--deny",
            "bidi",
            "sub/bad.txt",
            "a.txt",
        ])
        .arg("sub/deep/bidi.txt")
        .assert()
        .code(1)
        .get_output()
        .clone();
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["tool"]["driver"]["name"], "utf8check");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    for kind in [
        "overlong",
        "truncated",
        "bidi",
        "utf16-bom",
        "surrogate-pair",
    ] {
        assert_eq!(ids.iter().filter(|&&id| id == kind).count(), 1, "{kind}");
    }
    assert!(
        rules
            .iter()
            .all(|r| !r["help"]["text"].as_str().unwrap().is_empty())
    );
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let first = &results[0];
    assert_eq!(first["ruleId"], "overlong");
    assert_eq!(
        ids[first["ruleIndex"].as_u64().unwrap() as usize],
        "overlong"
    );
    let location = &first["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "sub/bad.txt");
    assert_eq!(
        location["region"],
        json!({"startLine": 1, "startColumn": 2, "endLine": 1, "endColumn": 3,
               "byteOffset": 1, "byteLength": 2})
    );
    let second = &results[1]["locations"][0]["physicalLocation"];
    assert_eq!(second["artifactLocation"]["uri"], "sub/deep/bidi.txt");
    assert_eq!(second["region"]["startColumn"], 4);
    assert_eq!(second["region"]["byteLength"], 3);
}

#[test]
fn a_hint_names_the_legacy_encoding_and_the_command() {
    let repo = repo();
    fs::write(
        repo.path().join("menu.txt"),
        b"Cr\xe8me br\xfbl\xe9e, caf\xe9 na\xefve\n",
    )
    .unwrap();
    let output = utf8check()
        .current_dir(repo.path())
        .arg("menu.txt")
        .assert()
        .code(1)
        .stderr(
            "utf8check: menu.txt: hint: this looks like windows-1252 text, not UTF-8; convert \
             it in place with: utf8enc --from windows-1252 -o menu.txt menu.txt\n",
        )
        .get_output()
        .clone();
    assert_eq!(
        stdout_of(&output).lines().count(),
        5,
        "one line per finding on stdout"
    );
    // Two letters that read differently in windows-1250 (crčme) are too little evidence.
    utf8check()
        .current_dir(repo.path())
        .arg("latin1.txt")
        .assert()
        .code(1)
        .stderr("");
    // Not for an overlong or a lone FF, and never in JSON.
    for args in [
        &["sub/bad.txt"][..],
        &["skip.log"],
        &["--format", "json", "latin1.txt"],
    ] {
        utf8check()
            .current_dir(repo.path())
            .args(args)
            .assert()
            .code(1)
            .stderr("");
    }
}

#[test]
fn quiet_stops_at_the_first_finding_but_trouble_still_counts() {
    let repo = repo();
    // Trouble after the first finding still wins: the later files are opened, not read.
    utf8check()
        .current_dir(repo.path())
        .args(["-q", "latin1.txt", "missing.txt"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("utf8check: missing.txt: No such file or directory\n");
    for threads in ["-j1", "-j2"] {
        utf8check()
            .current_dir(repo.path())
            .args(["-q", threads, "latin1.txt", "a.txt", "missing.txt"])
            .assert()
            .code(2)
            .stdout("");
    }
    utf8check()
        .current_dir(repo.path())
        .args(["-q", "a.txt", "latin1.txt", "sub/bad.txt"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("");
}

/// A tree of a few hundred files: the output is byte for byte the same for every thread count.
#[test]
fn threads_do_not_change_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..320u32 {
        let mut bytes = format!("file {i}\n").into_bytes();
        for k in 0..(i % 7) {
            bytes.extend_from_slice(b"text \xc3\xa9 ");
            if (i + k) % 3 == 0 {
                bytes.extend_from_slice(&[0xC0 + (k as u8), 0xAF, b'\n']);
            }
        }
        files.push((format!("d{}/e{}/f{i:03}.txt", i % 5, i % 3), bytes));
    }
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), &b[..])).collect();
    write_tree(dir.path(), &refs);
    for format in ["human", "json", "sarif", "github"] {
        let run = |threads: &str| {
            let output = utf8check()
                .current_dir(dir.path())
                .args(["-r", "--format", format, "-j", threads])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(1));
            output.stdout
        };
        let one = run("1");
        assert!(one.len() > 1000, "{format}: there were findings");
        assert_eq!(run("4"), one, "{format}: -j 4");
        assert_eq!(run("3"), one, "{format}: -j 3");
    }
    let counts = utf8check()
        .current_dir(dir.path())
        .args(["-r", "-c", "-j", "4"])
        .output()
        .unwrap();
    assert_eq!(stdout_of(&counts).lines().count(), 320);
    utf8check().args(["-j", "0"]).assert().code(2);
}

/// The README's "Beyond one machine" recipe, with local workers: GNU parallel hands slices of a
/// NUL-separated list to `utf8check --files0-from -`, and the JSON lines add up to one run.
#[test]
fn a_list_spread_over_workers_with_gnu_parallel() {
    let is_gnu = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU parallel"));
    if !is_gnu {
        crate::common::skip("no GNU parallel");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut list = Vec::new();
    // Links to one file: creating thousands of files costs seconds on some disks.
    std::fs::write(dir.path().join("ok"), "ok\n").unwrap();
    for i in 0..2500 {
        let name = format!("f{i}.txt");
        std::fs::hard_link(dir.path().join("ok"), dir.path().join(&name)).unwrap();
        list.extend_from_slice(name.as_bytes());
        list.push(0);
    }
    for (name, body) in [("bad1.txt", &b"caf\xe9\n"[..]), ("bad2.txt", b"x\xff\n")] {
        std::fs::write(dir.path().join(name), body).unwrap();
        list.extend_from_slice(name.as_bytes());
        list.push(0);
    }
    std::fs::write(dir.path().join("files.list"), &list).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("utf8check");
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "parallel --will-cite --pipe --recend '\\0' -N 1000 --sshlogin 2/: \
             {} --files0-from - --ignore-missing --format json < files.list",
            binary.display()
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    // One slice (the last, with both bad files) failed.
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.matches("\"type\":\"error\"").count(), 2);
    assert_eq!(text.matches("\"type\":\"summary\"").count(), 2502);
    assert_eq!(text.matches("\"valid\":false").count(), 2);
}
