//! Hostile file names (SPEC 2): no name can move the cursor, start a new line of output, or
//! forge a finding or a CI command, in any program, option or format; machine formats keep the
//! exact bytes.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::common::program;

/// Names that try every trick: new lines that start workflow commands, terminal escapes, bidi
/// controls, GitHub property separators, bytes that are not UTF-8, a leading dash.
const HOSTILE: &[&[u8]] = &[
    b"x\n::error file=forged.rs,line=1::forged",
    b"::stop-commands::TOKEN",
    b"  ::warning::indented",
    b"##[error]old style",
    b"esc\x1b[2J\x1b]0;title\x07.txt",
    b"cr\rcarriage.txt",
    b"pct%0A,comma:colon.txt",
    b"bidi\xe2\x80\xae\xe2\x81\xa6txt.exe",
    b"caf\xe9 latin1.txt",
    b"-dash.txt",
];

/// Whether a line of output could be taken by GitHub Actions for a workflow command, other than
/// the ones utf8check writes on purpose in `--format github`.
fn is_forged_command(line: &str, github: bool) -> bool {
    let trimmed = line.trim_start();
    if trimmed.starts_with("##[") {
        return true;
    }
    if !trimmed.starts_with("::") {
        return false;
    }
    if !github {
        return true;
    }
    // Our own lines: `::error|notice file=P[,line=N,col=N],title=utf8check KIND::message`, with
    // no `:` or `,` inside P (escaped as %3A, %2C).
    let Some(rest) = ["::error ", "::notice ", "::warning "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
    else {
        return true;
    };
    let Some((properties, _message)) = rest.split_once("::") else {
        return true;
    };
    !properties.split(',').all(|p| {
        p.starts_with("file=")
            || p.starts_with("line=")
            || p.starts_with("col=")
            || p.starts_with("title=utf8check ")
    })
}

fn assert_safe(what: &str, bytes: &[u8], github: bool) {
    let text = String::from_utf8_lossy(bytes);
    for line in text.split('\n') {
        assert!(
            !line.chars().any(|c| (c.is_control() && c != '\t')
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)),
            "{what}: raw control or bidi character in {line:?}"
        );
        assert!(
            !is_forged_command(line, github),
            "{what}: a line reads as a workflow command: {line:?}"
        );
    }
}

fn hostile_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in HOSTILE {
        fs::write(
            dir.path().join(OsStr::from_bytes(name)),
            b"bad \xc0\xaf byte\n",
        )
        .unwrap();
    }
    dir
}

fn names() -> Vec<&'static OsStr> {
    HOSTILE.iter().map(|n| OsStr::from_bytes(n)).collect()
}

#[test]
fn utf8check_shows_every_hostile_name_safely_in_every_format_and_mode() {
    let dir = hostile_tree();
    let missing = OsStr::from_bytes(b"gone\n::error::missing\x1b[2J");
    let runs: &[&[&str]] = &[
        &[],
        &["--format", "json"],
        &["--format", "github"],
        &["--format", "sarif"],
        &["-l"],
        &["-L"],
        &["-c"],
        &["--summary"],
        &["--format", "github", "--summary"],
        &["--format", "github", "-l"],
        &["--format", "github", "-c"],
        &["-j1"],
        &["-j2"],
    ];
    for args in runs {
        let github = args.contains(&"github");
        for walk in [false, true] {
            let mut command = program("utf8check");
            command.current_dir(dir.path()).args(*args);
            if walk {
                command.arg("-r");
            } else {
                command.arg("--").args(names()).arg(missing);
            }
            let output = command.output().unwrap();
            let what = format!("utf8check {args:?} walk={walk}");
            assert_eq!(
                output.status.code(),
                Some(if walk { 1 } else { 2 }),
                "{what}"
            );
            assert_safe(&what, &output.stdout, github);
            assert_safe(&what, &output.stderr, false);
            // Every input shows up once per line-per-input mode: no name split a line.
            if args == &["-l"] {
                let lines = output.stdout.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(lines, HOSTILE.len(), "{what}");
            }
        }
    }
}

#[test]
fn machine_formats_carry_the_exact_bytes_of_a_name() {
    let dir = hostile_tree();
    let name = OsStr::from_bytes(b"caf\xe9 latin1.txt");
    let output = program("utf8check")
        .current_dir(dir.path())
        .args(["--format", "json"])
        .arg(name)
        .output()
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["path"], "caf\u{FFFD} latin1.txt");
    assert_eq!(first["path_base64"], "Y2Fm6SBsYXRpbjEudHh0");
    let output = program("utf8check")
        .current_dir(dir.path())
        .args(["--format", "sarif"])
        .arg(name)
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    assert_eq!(uri, "caf%E9%20latin1.txt");
    // -0 writes the exact bytes for xargs -0, and utf8fix reads them back.
    let output = program("utf8check")
        .current_dir(dir.path())
        .args(["-l", "-0", "--"])
        .args(names())
        .output()
        .unwrap();
    let listed: Vec<&[u8]> = output
        .stdout
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .collect();
    assert_eq!(listed, HOSTILE.to_vec());
    program("utf8fix")
        .current_dir(dir.path())
        .args(["-i", "--files0-from", "-"])
        .write_stdin(output.stdout.clone())
        .assert()
        .code(0);
    for name in HOSTILE {
        let fixed = fs::read(dir.path().join(OsStr::from_bytes(name))).unwrap();
        assert_eq!(fixed, "bad \u{FFFD}\u{FFFD} byte\n".as_bytes(), "{name:?}");
    }
}

#[test]
fn the_other_programs_show_names_safely_too() {
    let dir = hostile_tree();
    let missing = OsStr::from_bytes(b"gone\n::error::missing\x1b[2J");
    let runs: &[(&str, &[&str])] = &[
        ("utf8dump", &[]),
        ("utf8dump", &["-x"]),
        ("utf8fix", &["-v"]),
        ("utf8fix", &["--check"]),
        ("utf8fix", &["-v", "-i"]),
        ("utf8enc", &["--from", "latin1"]),
    ];
    for (name, args) in runs {
        let output = program(name)
            .current_dir(dir.path())
            .args(*args)
            .arg("--")
            .args(names())
            .arg(missing)
            .output()
            .unwrap();
        let what = format!("{name} {args:?}");
        assert_eq!(output.status.code(), Some(2), "{what}");
        assert_safe(&what, &output.stderr, false);
        // The files hold only safe text, so all of standard output must be safe: headers too.
        assert_safe(&what, &output.stdout, false);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "{name}: gone\\n::error::missing\\x1b[2J: No such file"
            )),
            "{what}: {stderr}"
        );
    }
}

#[test]
fn the_hint_quotes_any_name_so_that_the_pasted_command_works() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Ceci est un texte français écrit à la main, déjà très ancien.\n";
    let latin1: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    for name in [
        &b"-dash latin1.txt"[..],
        b"new\nline\x1b.txt",
        b"caf\xe9's.txt",
    ] {
        let path = dir.path().join(OsStr::from_bytes(name));
        fs::write(&path, &latin1).unwrap();
        let output = program("utf8check")
            .current_dir(dir.path())
            .arg("--")
            .arg(OsStr::from_bytes(name))
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_safe("hint", stderr.as_bytes(), false);
        let command = stderr
            .split("convert it in place with: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{name:?}: {stderr}"))
            .trim_end();
        let status = std::process::Command::new("bash")
            .current_dir(dir.path())
            .env("PATH", path_with_programs())
            .args(["-c", command])
            .status()
            .unwrap();
        assert!(status.success(), "{command}");
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "{command}");
    }
}

fn path_with_programs() -> std::ffi::OsString {
    let bin = assert_cmd::cargo::cargo_bin("utf8enc");
    let mut path = bin
        .parent()
        .map(Path::to_path_buf)
        .unwrap()
        .into_os_string();
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    path
}

/// Runs a program whose reader goes away after the first bytes; returns its exit status.
fn status_with_closed_stdout(name: &str, args: &[&str], input: &Path) -> Option<i32> {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin(name))
        .args(args)
        .arg(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "",
        "{name} {args:?}: a closed pipe ends quietly"
    );
    output.status.code()
}

#[test]
fn a_closed_stdout_keeps_the_status_earned_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("many.txt");
    fs::write(&input, b"bad \xff line\n".repeat(5_000)).unwrap();
    for format in ["human", "json", "github", "sarif"] {
        for threads in ["-j1", "-j2"] {
            let args = ["--format", format, threads];
            assert_eq!(
                status_with_closed_stdout("utf8check", &args, &input),
                Some(1),
                "utf8check {args:?}: a finding was already made"
            );
        }
    }
    // Many inputs, so that -c writes after the reader has gone.
    let list = dir.path().join("list");
    fs::write(&list, format!("{}\n", input.display()).repeat(5_000)).unwrap();
    assert_eq!(
        status_with_closed_stdout("utf8check", &["-c", "--files-from"], &list),
        Some(1),
        "utf8check -c"
    );
    for (name, args) in [
        ("utf8dump", &[][..]),
        ("utf8dump", &["-x"]),
        ("utf8dump", &["--format", "json"]),
        ("utf8fix", &[]),
        ("utf8enc", &["--from", "latin1"]),
    ] {
        assert_eq!(
            status_with_closed_stdout(name, args, &input),
            Some(0),
            "{name} {args:?}: a dump, a repair or a conversion is not a check"
        );
    }
}

#[test]
fn input_quoted_in_an_error_message_is_shown_safely() {
    let output = program("utf8enc")
        .args(["-d", "zz\x1b[2J\u{202E}"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_safe("utf8enc -d", stderr.as_bytes(), false);
    assert!(stderr.contains("zz\\x1b[2J\\u{202e}"), "{stderr}");
    let output = program("utf8dump")
        .arg("-r")
        .write_stdin("00000000  zz\x1b[2J\n")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_safe("utf8dump -r", stderr.as_bytes(), false);
}

/// A rename never creates a name holding a control, bidi or invisible character: Latin-1 reads
/// 9B as the C1 control CSI and 85 as NEL, so `--fallback latin1` refuses those names (status 2,
/// nothing renamed); windows-1252 reads them as '›' and '…' and renames them.
#[test]
fn a_rename_never_creates_a_name_that_hides_text() {
    let dir = tempfile::tempdir().unwrap();
    for name in [&b"a\x9bb.txt"[..], b"c\x85d.txt"] {
        fs::write(dir.path().join(OsStr::from_bytes(name)), b"x").unwrap();
    }
    program("utf8fix")
        .current_dir(dir.path())
        .args(["--names", "--fallback", "latin1", "--apply", "-r", "."])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "not renamed: the new name a\\u{9b}b.txt would hold U+009B (control), which shows a \
             name as another",
        ));
    let mut names: Vec<Vec<u8>> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    names.sort();
    assert_eq!(names, [b"a\x9bb.txt".to_vec(), b"c\x85d.txt".to_vec()]);
    program("utf8fix")
        .current_dir(dir.path())
        .args([
            "--names",
            "--fallback",
            "windows-1252",
            "--apply",
            "-r",
            ".",
        ])
        .assert()
        .code(0);
    assert!(dir.path().join("a\u{203A}b.txt").exists());
    assert!(dir.path().join("c\u{2026}d.txt").exists());
}
