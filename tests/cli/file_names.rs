//! File names that are not UTF-8 (SPEC 3 and 5): utf8check reports them, utf8fix --names
//! renames them, on a tree of hostile names like those ZIP archives, old file servers and macOS
//! leave behind.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::common::{json_lines, program, stdout_of};

/// Writes a file (its directories too) whose path is the exact bytes given.
fn put(root: &Path, path: &[u8], content: &[u8]) -> PathBuf {
    let path = root.join(OsStr::from_bytes(path));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    path
}

/// The names under `dir`, as bytes, sorted.
fn names(dir: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    names.sort();
    names
}

const NFD: &str = "cafe\u{301}.txt";

#[test]
fn utf8check_reports_names_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, b"caf\xe9.txt", b"fine\n");
    put(root, b"d\xe9/a.txt", b"fine\n");
    put(root, b"d\xe9/b.txt", b"fine\n");
    put(root, NFD.as_bytes(), b"fine\n");
    put(root, b"ok.txt", b"fine\n");
    let run = |args: &[&str]| {
        program("utf8check")
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    let human = run(&["-r", "."]);
    assert_eq!(human.status.code(), Some(1));
    assert_eq!(
        stdout_of(&human),
        "caf\\xe9.txt: file-name: the name is not UTF-8: lead byte 0xE9 starts a 3-byte \
         sequence, only 1 present (bytes e9 at offset 3 of the name)\n\
         d\\xe9: file-name: the name is not UTF-8: lead byte 0xE9 starts a 3-byte sequence, \
         only 1 present (bytes e9 at offset 1 of the name)\n"
    );
    let stderr = String::from_utf8_lossy(&human.stderr);
    assert!(
        stderr.contains(
            "utf8check: caf\\xe9.txt: hint: the name looks like windows-1252 (a Latin-1 or \
             Windows file server); rename it with: utf8fix --names --fallback windows-1252 \
             --apply $'caf\\xe9.txt'\n"
        ),
        "{stderr}"
    );
    // JSON: the exact bytes of the name, the offset inside it, line and column 0.
    let json = json_lines(&stdout_of(&run(&["-r", "--format", "json", "."])));
    let errors: Vec<&serde_json::Value> = json.iter().filter(|v| v["type"] == "error").collect();
    assert_eq!(errors.len(), 2, "{json:?}");
    assert_eq!(errors[0]["kind"], "file-name");
    assert_eq!(errors[0]["path_base64"], "Y2Fm6S50eHQ=");
    assert_eq!(errors[0]["offset"], 3);
    assert_eq!(errors[0]["bytes"], "e9");
    assert_eq!(
        (errors[0]["line"].clone(), errors[0]["column"].clone()),
        (0.into(), 0.into())
    );
    // The directory is an input of its own, reported once, before what it holds.
    assert_eq!(errors[1]["path_base64"], "ZOk=");
    let summaries: Vec<&serde_json::Value> =
        json.iter().filter(|v| v["type"] == "summary").collect();
    assert_eq!(summaries.len(), 6, "{json:?}");
    // NFC is asked for separately.
    let nfc = run(&["--deny", "non-nfc-name", "-l", "-r", "."]);
    assert_eq!(
        stdout_of(&nfc),
        format!("{NFD}\ncaf\\xe9.txt\nd\\xe9\n"),
        "-l lists names in walk order"
    );
    let warned = run(&["--warn", "non-nfc-name", "--format", "github", NFD]);
    assert_eq!(warned.status.code(), Some(0), "a warning is not an error");
    assert_eq!(
        stdout_of(&warned),
        format!(
            "::warning file={NFD},title=utf8check non-nfc-name::the name is not in Unicode \
             Normalization Form C (NFC), as macOS writes names (bytes 63 61 66 65 cc 81 2e 74 \
             78 74 at offset 0 of the name)\n"
        )
    );
    // SARIF names the exact bytes, percent-encoded, and the finding has no region.
    let sarif: serde_json::Value =
        serde_json::from_slice(&run(&["--format", "sarif", "-r", "."]).stdout).unwrap();
    let all = sarif["runs"][0]["results"].as_array().unwrap();
    let (hints, results): (Vec<_>, Vec<_>) = all.iter().partition(|r| r["ruleId"] == "hint");
    assert_eq!(results.len(), 2);
    // Each name that is not UTF-8 also gets its hint, a note with the renaming command.
    assert_eq!(hints.len(), 2, "{hints:?}");
    assert!(hints.iter().all(|h| {
        h["level"] == "note"
            && h["properties"]["command"]
                .as_str()
                .is_some_and(|c| c.starts_with("utf8fix --names"))
    }));
    let location = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "caf%E9.txt");
    assert!(location.get("region").is_none(), "{location}");
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().any(|rule| rule["id"] == "file-name"));
    // A name given as an operand, through a directory: each is reported where it ends.
    let operand = program("utf8check")
        .arg(root.join(OsStr::from_bytes(b"d\xe9/a.txt")))
        .output()
        .unwrap();
    assert_eq!(operand.status.code(), Some(1));
    assert_eq!(
        stdout_of(&operand).lines().count(),
        1,
        "the directory, once"
    );
}

/// The hint's command, pasted into a shell, renames the file.
#[test]
fn the_name_hint_command_renames_the_file() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), b"\x82t\x82.txt", b"summer\n");
    let check = program("utf8check")
        .arg(OsStr::from_bytes(b"\x82t\x82.txt"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8(check.stderr).unwrap();
    let command = stderr
        .split_once("rename it with: ")
        .unwrap_or_else(|| panic!("a hint: {stderr}"))
        .1
        .trim_end();
    assert_eq!(
        command,
        "utf8fix --names --from cp437 --apply $'\\x82t\\x82.txt'"
    );
    let status = std::process::Command::new("bash")
        .args(["-c", command])
        .env("PATH", crate::common::path_with_programs())
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(names(dir.path()), ["été.txt".as_bytes()]);
}

/// A tree of the names people meet: ZIP archives made on Windows (cp437, cp850), a Latin-1
/// server, Polish names in ISO-8859-2, Japanese in Shift_JIS, names encoded twice, NFD from
/// macOS, two names that would become one, a new name that exists, and names with a newline
/// and an escape.
fn hostile_tree(root: &Path) {
    for (path, content) in [
        (&b"zip/\x82t\x82.txt"[..], &b"cp437"[..]),
        (b"zip/Gr\x81\xe1e/notes.txt", b"cp437 directory"),
        (b"latin/caf\xe9.txt", b"latin-1"),
        (
            b"latin/r\xe9sum\xe9 \ncv\x1b[31m.txt",
            b"newline and escape",
        ),
        (b"sjis/\x83e\x83X\x83g.txt", b"shift_jis"),
        ("mojibake/cafÃ©.txt".as_bytes(), b"twice"),
        ("mojibake/GrÃƒÂ¼ÃƒÅ¸e.txt".as_bytes(), b"three times"),
        ("mac/cafe\u{301}.txt".as_bytes(), b"nfd"),
        (
            "mac/Cre\u{300}me/bru\u{302}le\u{301}e.txt".as_bytes(),
            b"nfd in nfd",
        ),
        (b"collide/na\xefve.txt", b"latin-1"),
        ("collide/naïve.txt".as_bytes(), b"already there"),
        (b"twins/x\xe9", b"one"),
        ("twins/xe\u{301}".as_bytes(), b"two"),
    ] {
        put(root, path, content);
    }
}

#[test]
fn utf8fix_names_shows_then_renames_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    hostile_tree(root);
    let fix = |args: &[&str]| {
        program("utf8fix")
            .arg("--names")
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    // A dry run shows, renames nothing, and --check says something would change.
    let shown = fix(&["-r", "--from", "cp437", "--check", "zip"]);
    assert_eq!(shown.status.code(), Some(1));
    assert_eq!(
        stdout_of(&shown),
        "zip/Gr\\x81\\xe1e -> zip/Grüße\nzip/\\x82t\\x82.txt -> zip/été.txt\n"
    );
    assert_eq!(
        names(&root.join("zip")),
        [&b"Gr\x81\xe1e"[..], b"\x82t\x82.txt"]
    );
    assert!(String::from_utf8_lossy(&shown.stderr).contains("2 names would change"));
    // Applied, deepest first: the directory's content is found under its new name.
    let applied = fix(&["-r", "--from", "cp437", "--apply", "zip"]);
    assert_eq!(applied.status.code(), Some(0));
    assert_eq!(
        names(&root.join("zip")),
        ["Grüße".as_bytes(), "été.txt".as_bytes()]
    );
    assert_eq!(
        std::fs::read(root.join("zip/Grüße/notes.txt")).unwrap(),
        b"cp437 directory"
    );
    // A second run has nothing to do.
    let again = fix(&["-r", "--from", "cp437", "--check", "zip"]);
    assert_eq!((again.status.code(), again.stdout.len()), (Some(0), 0));

    // Latin-1, with a newline and an escape shown safely.
    let latin = fix(&["-r", "--fallback", "windows-1252", "--apply", "latin"]);
    assert_eq!(latin.status.code(), Some(0));
    let out = stdout_of(&latin);
    assert!(!out.contains('\x1b'), "{out:?}");
    assert_eq!(out.lines().count(), 2, "{out:?}");
    assert!(
        out.contains("latin/r\\xe9sum\\xe9 \\ncv\\x1b[31m.txt -> latin/résumé \\ncv\\x1b[31m.txt")
    );
    assert_eq!(
        names(&root.join("latin")),
        ["café.txt".as_bytes(), "résumé \ncv\x1b[31m.txt".as_bytes()]
    );

    // cp850 (where it differs from cp437: Ø is 9D) and Polish in ISO-8859-2.
    put(root, b"more/\x9dre.txt", b"cp850");
    put(root, b"pl/\xb3\xf3d\xbc.txt", b"iso-8859-2");
    let cp850 = fix(&["-r", "--from", "cp850", "--apply", "more"]);
    assert_eq!(cp850.status.code(), Some(0));
    assert_eq!(names(&root.join("more")), ["Øre.txt".as_bytes()]);
    fix(&["-r", "--fallback", "iso-8859-2", "--apply", "pl"]);
    assert_eq!(names(&root.join("pl")), ["łódź.txt".as_bytes()]);

    // Shift_JIS, whole names.
    fix(&["-r", "--from", "shift_jis", "--apply", "sjis"]);
    assert_eq!(names(&root.join("sjis")), ["テスト.txt".as_bytes()]);

    // Mojibake in UTF-8 names, once and twice.
    fix(&["-r", "--mojibake", "--apply", "mojibake"]);
    assert_eq!(
        names(&root.join("mojibake")),
        ["Grüße.txt".as_bytes(), "café.txt".as_bytes()]
    );

    // NFD to NFC, directories included; UTF-8 names are untouched without --nfc.
    let untouched = fix(&["-r", "--fallback", "windows-1252", "--apply", "mac"]);
    assert_eq!(
        (untouched.status.code(), untouched.stdout.len()),
        (Some(0), 0)
    );
    fix(&["-r", "--nfc", "--apply", "mac"]);
    assert_eq!(
        names(&root.join("mac")),
        ["Crème".as_bytes(), "café.txt".as_bytes()]
    );
    assert_eq!(names(&root.join("mac/Crème")), ["brûlée.txt".as_bytes()]);

    // A new name that exists is never replaced.
    let exists = fix(&["-r", "--fallback", "windows-1252", "--apply", "collide"]);
    assert_eq!(exists.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&exists.stderr)
            .contains("utf8fix: collide/na\\xefve.txt: not renamed: collide/naïve.txt exists")
    );
    assert_eq!(
        std::fs::read(root.join("collide/naïve.txt")).unwrap(),
        b"already there"
    );
    assert_eq!(names(&root.join("collide")).len(), 2);

    // Two names that would become one are both left.
    let twins = fix(&[
        "-r",
        "--fallback",
        "windows-1252",
        "--nfc",
        "--apply",
        "twins",
    ]);
    assert_eq!(twins.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twins.stderr).contains("would each get this name"));
    assert_eq!(
        names(&root.join("twins")),
        ["xe\u{301}".as_bytes(), &b"x\xe9"[..]]
    );

    // A name not UTF-8 with no decoding asked for is reported and left.
    put(root, b"left/\xff", b"x");
    let left = fix(&["-r", "--nfc", "left"]);
    assert_eq!(left.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&left.stderr).contains("give --fallback ENC or --from ENC"));
}

/// A directory the user cannot write: the rename fails with the reason, and nothing else moves.
#[test]
fn a_read_only_directory_is_trouble() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), b"ro/caf\xe9.txt", b"x");
    let ro = dir.path().join("ro");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = ro.join("probe");
    // Root ignores mode bits: the immutable attribute stops even root's renames.
    let chattr = |flag: &str| {
        std::process::Command::new("chattr")
            .arg(flag)
            .arg(&ro)
            .status()
            .is_ok_and(|s| s.success())
    };
    let is_root_proof = std::fs::write(&probe, b"").is_err();
    let _ = std::fs::remove_file(&probe);
    if !is_root_proof && !chattr("+i") {
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        crate::common::skip("running as root, and no chattr +i to make a directory read-only");
        return;
    }
    let output = program("utf8fix")
        .args(["--names", "--fallback", "latin1", "--apply", "-r", "ro"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    if !is_root_proof {
        chattr("-i");
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("not renamed: Permission denied")
            || stderr.contains("not renamed: Operation not permitted"),
        "{stderr}"
    );
    assert_eq!(names(&ro), [&b"caf\xe9.txt"[..]]);
}

/// What convmv makes of the same names, where it can: the same new names.
#[test]
fn renames_agree_with_convmv() {
    if std::process::Command::new("convmv")
        .arg("--help")
        .output()
        .is_err()
    {
        crate::common::skip("no convmv to compare with");
        return;
    }
    for (name, ours, theirs) in [
        (
            &b"caf\xe9.txt"[..],
            &["--from", "latin1"][..],
            &["-f", "latin1", "-t", "utf8"][..],
        ),
        (
            b"\x82t\x82.txt",
            &["--from", "cp437"],
            &["-f", "cp437", "-t", "utf8"],
        ),
        (
            b"\x83e\x83X\x83g.txt",
            &["--from", "shift_jis"],
            &["-f", "shiftjis", "-t", "utf8"],
        ),
        (
            NFD.as_bytes(),
            &["--nfc"],
            &["-f", "utf8", "-t", "utf8", "--nfc"],
        ),
    ] {
        let renamed = |program_name: &str, args: &[&str]| {
            let dir = tempfile::tempdir().unwrap();
            put(dir.path(), name, b"x");
            let mut command = if program_name == "convmv" {
                let mut command = std::process::Command::new("convmv");
                command.args(args).arg("--notest");
                command
            } else {
                let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_utf8fix"));
                command.arg("--names").args(args).arg("--apply");
                command
            };
            let status = command
                .arg(OsStr::from_bytes(name))
                .current_dir(dir.path())
                .output()
                .unwrap()
                .status;
            assert!(status.success(), "{program_name} {args:?}");
            names(dir.path())
        };
        assert_eq!(
            renamed("utf8fix", ours),
            renamed("convmv", theirs),
            "{name:?}"
        );
    }
}

/// The lints that make a name show as another read names too: an RLO (U+202E) before `gnp.js`, a NEL
/// or a CSI in a name is a `file-name` finding naming the character and its offset in the name;
/// an emoji's ZWJ and a real flag in a name are not; `--warn` makes it a warning.
#[test]
fn names_are_read_by_the_lints_that_hide_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("src")).unwrap();
    for name in [
        "src/\u{202E}gnp.js",
        "src/next\u{85}line.txt",
        "src/csi\u{9B}31m.txt",
        "src/family\u{1F468}\u{200D}\u{1F469}.txt",
        "src/plain.txt",
    ] {
        std::fs::write(root.join(name), b"fine\n").unwrap();
    }
    let check = |args: &[&str]| {
        program("utf8check")
            .current_dir(root)
            .args(args)
            .output()
            .unwrap()
    };
    let all = check(&["--deny", "all", "--format", "json", "-r", "src"]);
    assert_eq!(all.status.code(), Some(1));
    let errors: Vec<(String, u64, String, String)> =
        crate::common::json_lines(&String::from_utf8(all.stdout).unwrap())
            .iter()
            .filter(|v| v["type"] == "error")
            .map(|v| {
                (
                    v["path"].as_str().unwrap().to_owned(),
                    v["offset"].as_u64().unwrap(),
                    v["bytes"].as_str().unwrap().to_owned(),
                    v["kind"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
    let names: Vec<(&str, u64, &str)> = errors
        .iter()
        .filter(|e| e.3 == "file-name")
        .map(|e| (e.0.as_str(), e.1, e.2.as_str()))
        .collect();
    assert_eq!(
        names,
        // In walk order: sorted by name bytes.
        [
            ("src/csi\u{9B}31m.txt", 3, "c29b"),
            ("src/next\u{85}line.txt", 4, "c285"),
            ("src/\u{202E}gnp.js", 0, "e280ae"),
        ]
    );
    // Only the lints asked for: --deny bidi finds the RLO alone; none without a lint.
    let bidi = check(&["--deny", "bidi", "-l", "-r", "src"]);
    // Listed safely: the RLO as its escape, so that the list cannot be reversed on screen.
    assert_eq!(
        String::from_utf8(bidi.stdout).unwrap(),
        "src/\\u{202e}gnp.js\n"
    );
    let plain = check(&["-r", "src"]);
    assert_eq!(plain.status.code(), Some(0));
    // A warning: shown, status 0.
    let warned = check(&["--warn", "bidi", "--format", "github", "-r", "src"]);
    assert_eq!(warned.status.code(), Some(0));
    let shown = String::from_utf8(warned.stdout).unwrap();
    assert!(
        shown.starts_with("::warning file=src/\\u{202e}gnp.js,title=utf8check file-name::the name holds a bidirectional control U+202E (bidi)"),
        "{shown}"
    );
    assert!(
        root.join(std::ffi::OsStr::from_bytes(b"src/plain.txt"))
            .exists()
    );
}

/// Operands that overlap (`d d`, `. d`, `d d/sub`) name each entry once: no false collision;
/// a parent named before its child (`e e/f`) is renamed after it; `-0` writes each change as
/// its exact bytes, old and new, each ended by NUL.
#[test]
fn overlapping_operands_and_null_output() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, b"d/caf\xE9.txt", b"x");
    put(root, b"d/sub/na\xEFve", b"x");
    for operands in [
        &["d", "d"][..],
        &[".", "d"],
        &["d", "d/sub"],
        &["d/sub", "d"],
    ] {
        let output = program("utf8fix")
            .args(["--names", "--fallback", "latin1", "-r", "--check"])
            .args(operands)
            .current_dir(root)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{operands:?}");
        let shown = stdout_of(&output);
        assert_eq!(shown.lines().count(), 2, "{operands:?}: {shown}");
        assert!(
            shown.contains("d/caf\\xe9.txt -> d/café.txt"),
            "{operands:?}: {shown}"
        );
        assert!(
            shown.contains("d/sub/na\\xefve -> d/sub/naïve"),
            "{operands:?}: {shown}"
        );
    }
    let output = program("utf8fix")
        .args([
            "--names",
            "--fallback",
            "latin1",
            "-r",
            "--check",
            "-0",
            "d",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    let mut pairs: Vec<&[u8]> = output.stdout.split(|&b| b == 0).collect();
    assert_eq!(pairs.pop(), Some(&b""[..]), "each path ends with NUL");
    pairs.sort();
    assert_eq!(
        pairs,
        [
            &b"d/caf\xC3\xA9.txt"[..],
            b"d/caf\xE9.txt",
            b"d/sub/na\xC3\xAFve",
            b"d/sub/na\xEFve"
        ]
    );
    // The parent first on the command line: the child is still renamed, then the parent.
    put(root, b"e\xE9/f\xE9", b"x");
    let status = program("utf8fix")
        .args(["--names", "--fallback", "latin1", "--apply"])
        .arg(OsStr::from_bytes(b"e\xE9"))
        .arg(OsStr::from_bytes(b"e\xE9/f\xE9"))
        .current_dir(root)
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(0));
    assert_eq!(std::fs::read(root.join("eé/fé")).unwrap(), b"x");
}

/// The reports name the real file: CodeClimate gives two names that are not UTF-8 two paths
/// (`caf\xe9`, `caf\xe8`) and fingerprints from the exact bytes; GitHub's `file=` is the real
/// path, property-escaped only (a backslash and a tab stay); SARIF gives an absolute path as a
/// `file://` URI.
#[test]
fn reports_name_the_real_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, b"caf\xE9", b"a\xFF\n");
    put(root, b"caf\xE8", b"a\xFF\n");
    put(root, b"back\\slash\tx.txt", b"a\xFF\n");
    let output = program("utf8check")
        .args(["--format", "codeclimate"])
        .arg(OsStr::from_bytes(b"caf\xE9"))
        .arg(OsStr::from_bytes(b"caf\xE8"))
        .current_dir(root)
        .output()
        .unwrap();
    let issues: serde_json::Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    let invalid: Vec<(&str, &str)> = issues
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["check_name"] == "utf8check/invalid-byte")
        .map(|i| {
            (
                i["location"]["path"].as_str().unwrap(),
                i["fingerprint"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(invalid.len(), 2);
    assert_eq!((invalid[0].0, invalid[1].0), ("caf\\xe9", "caf\\xe8"));
    assert_ne!(invalid[0].1, invalid[1].1);
    let output = program("utf8check")
        .args(["--format", "github"])
        .arg(OsStr::from_bytes(b"back\\slash\tx.txt"))
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).starts_with("::error file=back\\slash\tx.txt,line=1,col=2,"),
        "{}",
        stdout_of(&output)
    );
    let absolute = root.join(OsStr::from_bytes(b"caf\xE9"));
    let output = program("utf8check")
        .args(["--format", "sarif"])
        .arg(&absolute)
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    let uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
        ["artifactLocation"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/caf%E9"),
        "{uri}"
    );
}

/// Renames what `d` holds from Latin-1, with an undo log.
const RENAME_LOGGED: [&str; 8] = [
    "--names",
    "--fallback",
    "latin1",
    "-r",
    "--apply",
    "--undo-log",
    "log",
    "d",
];

/// `--undo-log` records each rename, synced, before it is made (exact bytes, NUL-terminated,
/// after a first line and the directory the paths are relative to); `--undo` shows the renames
/// in reverse and, with `--apply`, makes them, so that the tree is as it was; a log is never
/// overwritten, and a second undo finds nothing to do.
#[test]
fn an_undo_log_puts_every_name_back() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, b"d/caf\xE9.txt", b"1");
    put(root, b"d/r\xE9s/na\xEFve", b"2");
    let before = [
        names(&root.join("d")),
        names(&root.join(OsStr::from_bytes(b"d/r\xE9s"))),
    ];
    let fix = |args: &[&str]| {
        program("utf8fix")
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    let output = fix(&RENAME_LOGGED);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let here = root.canonicalize().unwrap();
    let mut log = b"utf8fix undo log 1\n".to_vec();
    log.extend_from_slice(here.as_os_str().as_bytes());
    log.push(0);
    // Deepest first: the file in d/r\xE9s, then d's file and d/r\xE9s itself.
    for path in [
        &b"d/r\xE9s/na\xEFve"[..],
        b"d/r\xE9s/na\xC3\xAFve",
        b"d/caf\xE9.txt",
        b"d/caf\xC3\xA9.txt",
        b"d/r\xE9s",
        b"d/r\xC3\xA9s",
    ] {
        log.extend_from_slice(path);
        log.push(0);
    }
    assert!(std::fs::read(root.join("log")).unwrap() == log);
    assert_eq!(std::fs::read(root.join("d/rés/naïve")).unwrap(), b"2");
    // Shown first, reversed, nothing renamed.
    let output = fix(&["--names", "--undo", "log"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout_of(&output),
        "d/rés -> d/r\\xe9s\nd/café.txt -> d/caf\\xe9.txt\nd/r\\xe9s/naïve -> d/r\\xe9s/na\\xefve\n"
    );
    assert_eq!(std::fs::read(root.join("d/rés/naïve")).unwrap(), b"2");
    let output = fix(&["--names", "--undo", "log", "--apply"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        [
            names(&root.join("d")),
            names(&root.join(OsStr::from_bytes(b"d/r\xE9s")))
        ],
        before
    );
    assert_eq!(
        std::fs::read(root.join(OsStr::from_bytes(b"d/r\xE9s/na\xEFve"))).unwrap(),
        b"2"
    );
    // Nothing left to undo: each record is passed over with a note.
    let output = fix(&["--names", "--undo", "log", "--apply"]);
    assert_eq!((output.status.code(), output.stdout.len()), (Some(0), 0));
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 3);
    // The log is never overwritten: nothing is renamed.
    let output = fix(&RENAME_LOGGED);
    assert_eq!(output.status.code(), Some(2));
    assert!(root.join(OsStr::from_bytes(b"d/caf\xE9.txt")).exists());
    // Without --apply there is nothing to log: a usage error.
    let output = fix(&[
        "--names",
        "--fallback",
        "latin1",
        "--undo-log",
        "other",
        "d",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!root.join("other").exists());
}
