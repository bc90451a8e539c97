//! `utf8fix` as a user runs it.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::{Duration, SystemTime};

use predicates::prelude::*;

use crate::common::{names_in, program, write_tree};

fn utf8fix() -> assert_cmd::Command {
    program("utf8fix")
}

/// A deterministic generator of bytes that are mostly UTF-8 with errors of every kind mixed in.
fn messy_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pieces: [&[u8]; 14] = [
        b"plain ascii ",
        "Grüße ".as_bytes(),
        "世界 ".as_bytes(),
        "😀".as_bytes(),
        b"\n",
        b"\xC0\xAF",
        b"\xE2\x82",
        b"\xED\xA0\x80",
        b"\xED\xA0\xBD\xED\xB8\x80",
        b"\xF4\x90\x80\x80",
        b"\xFF",
        b"\x80\xBF",
        b"\xE9 ",
        b"\xFC\x80\x80\x80\x80\xAF",
    ];
    let mut bytes = Vec::with_capacity(len + 16);
    while bytes.len() < len {
        let r = next();
        if r % 5 == 0 {
            bytes.push((r >> 8) as u8); // any byte at all
        } else {
            bytes.extend_from_slice(pieces[(r >> 16) as usize % pieces.len()]);
        }
    }
    bytes
}

#[test]
fn default_repair_is_from_utf8_lossy_on_random_input() {
    for seed in 1..=5 {
        let input = messy_bytes(300_000, seed);
        let expected = String::from_utf8_lossy(&input).into_owned().into_bytes();
        let output = utf8fix().write_stdin(input).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert!(
            output.stdout == expected,
            "seed {seed}: differs from from_utf8_lossy"
        );
    }
}

/// The Python definition, when Python is there to ask (it is on the development machines).
#[test]
fn default_repair_is_pythons_decode_replace() {
    let input = messy_bytes(50_000, 99);
    let python = StdCommand::new("python3")
        .args([
            "-c",
            "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read()\
             .decode('utf-8', 'replace').encode('utf-8'))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut python) = python else {
        crate::common::skip("python3 not found");
        return;
    };
    use std::io::Write;
    python.stdin.take().unwrap().write_all(&input).unwrap();
    let expected = python.wait_with_output().unwrap().stdout;
    let output = utf8fix().write_stdin(input).output().unwrap();
    assert!(
        output.stdout == expected,
        "differs from Python's decode('utf-8', 'replace')"
    );
}

const CRAFTED: &[u8] = b"\xEF\xBB\xBFa\xC0\x80b\xED\xA0\xBD\xED\xB8\x80c\xED\xA0\x80d\xE9\xFF\x80";

#[test]
fn each_option_gives_exact_bytes() {
    let rows: &[(&[&str], &str)] = &[
        (
            &[],
            "\u{FEFF}a\u{FFFD}\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}c\
             \u{FFFD}\u{FFFD}\u{FFFD}d\u{FFFD}\u{FFFD}\u{FFFD}",
        ),
        (&["--replacement", "?"], "\u{FEFF}a??b??????c???d???"),
        (&["--replacement", ""], "\u{FEFF}abcd"),
        (&["--drop"], "\u{FEFF}abcd"),
        (
            &["--escape"],
            "\u{FEFF}a\\xc0\\x80b\\xed\\xa0\\xbd\\xed\\xb8\\x80c\\xed\\xa0\\x80d\\xe9\\xff\\x80",
        ),
        (
            &["--fallback", "windows-1252"],
            "\u{FEFF}aÀ€bí\u{A0}½í¸€cí\u{A0}€déÿ€",
        ),
        (
            &["--fallback", "iso-8859-1"],
            "\u{FEFF}aÀ\u{80}bí\u{A0}½í¸\u{80}cí\u{A0}\u{80}déÿ\u{80}",
        ),
        (
            &["--cesu"],
            "\u{FEFF}a\u{FFFD}\u{FFFD}b😀c\u{FFFD}\u{FFFD}\u{FFFD}d\u{FFFD}\u{FFFD}\u{FFFD}",
        ),
        (
            &["--modified"],
            "\u{FEFF}a\u{0}b😀c\u{FFFD}\u{FFFD}\u{FFFD}d\u{FFFD}\u{FFFD}\u{FFFD}",
        ),
        (&["--strip-bom", "--modified", "--drop"], "a\u{0}b😀cd"),
    ];
    for (args, expected) in rows {
        let output = utf8fix().args(*args).write_stdin(CRAFTED).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(
            String::from_utf8(output.stdout.clone()).unwrap(),
            *expected,
            "{args:?}"
        );
        // Fixing the output again changes nothing.
        let again = utf8fix()
            .args(*args)
            .write_stdin(output.stdout.clone())
            .output()
            .unwrap();
        assert_eq!(again.stdout, output.stdout, "{args:?} is not idempotent");
    }
    utf8fix().args(["--drop", "--escape"]).assert().code(2);
    utf8fix()
        .args(["--fallback", "shift_jis"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a single-byte encoding"));
}

#[test]
fn strip_bom_removes_every_leading_mark() {
    utf8fix()
        .arg("--strip-bom")
        .write_stdin("\u{FEFF}\u{FEFF}x\u{FEFF}")
        .assert()
        .code(0)
        .stdout("x\u{FEFF}");
}

#[test]
fn verbose_lists_each_repair_and_a_summary() {
    utf8fix()
        .args(["-v", "--cesu"])
        .write_stdin(&b"ok\xE9 \xED\xA0\xBD\xED\xB8\x80"[..])
        .assert()
        .code(0)
        .stdout("ok\u{FFFD} 😀")
        .stderr(
            "utf8fix: <stdin>: offset 2: truncated e9: replaced by U+FFFD\n\
             utf8fix: <stdin>: offset 4: surrogate-pair ed a0 bd ed b8 80: surrogate pair \
             joined into one 4-byte character\n\
             utf8fix: <stdin>: 2 repairs\n",
        );
}

fn set_old_mtime(path: &Path) -> SystemTime {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(old).unwrap();
    old
}

#[test]
fn check_lists_what_would_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[("bad.txt", b"caf\xe9"), ("good.txt", "café".as_bytes())],
    );
    utf8fix()
        .current_dir(dir.path())
        .args(["--check", "good.txt", "bad.txt"])
        .assert()
        .code(1)
        .stdout("bad.txt\n");
    assert_eq!(fs::read(dir.path().join("bad.txt")).unwrap(), b"caf\xe9");
    utf8fix()
        .current_dir(dir.path())
        .args(["--check", "-i", "good.txt", "bad.txt"])
        .assert()
        .code(1);
    assert_eq!(fs::read(dir.path().join("bad.txt")).unwrap(), b"caf\xe9");
    utf8fix()
        .current_dir(dir.path())
        .args(["--check", "good.txt"])
        .assert()
        .code(0)
        .stdout("");
    // With --strip-bom, a mark alone is a change.
    utf8fix()
        .args(["--check", "--strip-bom"])
        .write_stdin("\u{FEFF}fine")
        .assert()
        .code(1)
        .stdout("<stdin>\n");
}

#[test]
fn in_place_rewrites_only_what_needs_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_tree(
        root,
        &[("bad.txt", b"caf\xe9\n"), ("good.txt", "café\n".as_bytes())],
    );
    fs::set_permissions(root.join("bad.txt"), fs::Permissions::from_mode(0o640)).unwrap();
    let good_mtime = set_old_mtime(&root.join("good.txt"));
    let good_inode = fs::metadata(root.join("good.txt")).unwrap().ino();
    utf8fix()
        .current_dir(root)
        .args(["-i", "--fallback", "windows-1252", "bad.txt", "good.txt"])
        .assert()
        .code(0)
        .stdout("")
        .stderr("");
    assert_eq!(fs::read_to_string(root.join("bad.txt")).unwrap(), "café\n");
    let bad = fs::metadata(root.join("bad.txt")).unwrap();
    assert_eq!(bad.permissions().mode() & 0o777, 0o640, "permissions kept");
    let good = fs::metadata(root.join("good.txt")).unwrap();
    assert_eq!(
        good.modified().unwrap(),
        good_mtime,
        "a clean file is not touched"
    );
    assert_eq!(good.ino(), good_inode);
    assert_eq!(
        names_in(root),
        ["bad.txt", "good.txt"],
        "no temporary file left"
    );
}

#[test]
fn in_place_with_a_suffix_keeps_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_tree(
        root,
        &[("a.txt", b"x\xc0\xafy"), ("a.txt.orig", b"stale backup")],
    );
    utf8fix()
        .current_dir(root)
        .args(["-i.orig", "a.txt"])
        .assert()
        .code(0);
    assert_eq!(
        fs::read(root.join("a.txt")).unwrap(),
        "x\u{FFFD}\u{FFFD}y".as_bytes()
    );
    assert_eq!(fs::read(root.join("a.txt.orig")).unwrap(), b"x\xc0\xafy");
    utf8fix()
        .current_dir(root)
        .args(["--in-place=.bak", "--drop", "a.txt.orig"])
        .assert()
        .code(0);
    assert_eq!(fs::read(root.join("a.txt.orig")).unwrap(), b"xy");
    assert_eq!(
        fs::read(root.join("a.txt.orig.bak")).unwrap(),
        b"x\xc0\xafy"
    );
    assert_eq!(names_in(root), ["a.txt", "a.txt.orig", "a.txt.orig.bak"]);
}

/// Makes a directory read-only even for root (which ignores mode bits) with the immutable
/// attribute, and clears it again when dropped so that the directory can be removed.
struct ReadOnlyDir(PathBuf, bool);

impl ReadOnlyDir {
    fn new(path: &Path) -> ReadOnlyDir {
        fs::set_permissions(path, fs::Permissions::from_mode(0o555)).unwrap();
        let probe = path.join(".probe");
        let is_root_proof = fs::write(&probe, b"").is_err();
        let _ = fs::remove_file(&probe);
        let immutable = !is_root_proof
            && StdCommand::new("chattr")
                .arg("+i")
                .arg(path)
                .status()
                .is_ok_and(|s| s.success());
        ReadOnlyDir(path.to_owned(), immutable)
    }

    fn is_read_only(&self) -> bool {
        let probe = self.0.join(".probe");
        let writable = fs::write(&probe, b"").is_ok();
        let _ = fs::remove_file(&probe);
        !writable
    }
}

impl Drop for ReadOnlyDir {
    fn drop(&mut self) {
        if self.1 {
            let _ = StdCommand::new("chattr").arg("-i").arg(&self.0).status();
        }
        let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o755));
    }
}

#[test]
fn a_failed_write_leaves_the_original_intact_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    write_tree(&locked, &[("a.txt", b"caf\xc0\xaf"), ("b.txt", b"ok")]);
    write_tree(dir.path(), &[("other.txt", b"\xff")]);
    let guard = ReadOnlyDir::new(&locked);
    if !guard.is_read_only() {
        crate::common::skip("cannot make a read-only directory here");
        return;
    }
    utf8fix()
        .current_dir(dir.path())
        .args(["-i", "locked/a.txt", "other.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "utf8fix: locked/a.txt: cannot create a temporary file: ",
        ));
    drop(guard);
    assert_eq!(fs::read(locked.join("a.txt")).unwrap(), b"caf\xc0\xaf");
    assert_eq!(names_in(&locked), ["a.txt", "b.txt"]);
    assert_eq!(
        fs::read(dir.path().join("other.txt")).unwrap(),
        "\u{FFFD}".as_bytes(),
        "the next file was still repaired"
    );
}

#[test]
fn output_to_a_full_device_is_trouble() {
    let full = fs::File::options().write(true).open("/dev/full");
    let Ok(full) = full else {
        crate::common::skip("no /dev/full");
        return;
    };
    let mut input = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut input, &messy_bytes(100_000, 3)).unwrap();
    // With --mojibake, clean lines go to the writer as they are, between repaired ones.
    for flags in [&[][..], &["--mojibake"]] {
        let output = StdCommand::new(assert_cmd::cargo::cargo_bin("utf8fix"))
            .args(flags)
            .arg(input.path())
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            "utf8fix: write error: No space left on device\n",
            "{flags:?}"
        );
    }
}

#[test]
fn in_place_needs_files_and_reports_missing_ones() {
    utf8fix()
        .arg("-i")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("-i needs FILE operands"));
    utf8fix()
        .args(["-i", "no-such.txt"])
        .assert()
        .code(2)
        .stderr("utf8fix: no-such.txt: No such file or directory\n");
}

/// A file large enough to be mapped and the same bytes through a pipe give the same output.
#[test]
fn mapped_file_and_stdin_agree() {
    let input = messy_bytes(3 << 20, 7);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, &input).unwrap();
    let from_file = utf8fix().arg(file.path()).output().unwrap();
    let from_stdin = utf8fix().write_stdin(input.clone()).output().unwrap();
    assert!(from_file.stdout == from_stdin.stdout);
    assert!(from_file.stdout == String::from_utf8_lossy(&input).as_bytes());
}

#[test]
fn several_files_are_concatenated_like_cat() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("1", b"a\xc0\xaf"), ("2", b"b")]);
    utf8fix()
        .current_dir(dir.path())
        .args(["1", "missing", "2"])
        .assert()
        .code(2)
        .stdout("a\u{FFFD}\u{FFFD}b")
        .stderr("utf8fix: missing: No such file or directory\n");
}

#[test]
fn mojibake_is_undone_in_layers_and_correct_text_is_left_alone() {
    let input = "cafÃ©\nitâ€™s\nGrÃƒÂ¼ÃƒÅ¸e\nÐŸÑ€Ð¸Ð²ÐµÑ‚\nSÃO PAULO, AÑO, 50¢ ©\n";
    utf8fix()
        .arg("--mojibake")
        .write_stdin(input)
        .assert()
        .code(0)
        .stdout("café\nit’s\nGrüße\nПривет\nSÃO PAULO, AÑO, 50¢ ©\n");
    // Without the option, valid mojibake is valid UTF-8: nothing to do.
    utf8fix().write_stdin(input).assert().code(0).stdout(input);
    // Fixing the output again changes nothing.
    utf8fix()
        .args(["--mojibake", "--check"])
        .write_stdin("café\nit’s\n")
        .assert()
        .code(0)
        .stdout("");
    utf8fix()
        .args(["--mojibake", "--check"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("<stdin>\n");
}

#[test]
fn mojibake_and_ill_formed_bytes_together_with_verbose() {
    utf8fix()
        .args(["--mojibake", "-v"])
        .write_stdin(&b"ok\ncaf\xc3\x83\xc2\xa9 \xff\n"[..])
        .assert()
        .code(0)
        .stdout("ok\ncafé \u{FFFD}\n")
        .stderr(
            "utf8fix: <stdin>: offset 11: invalid-byte ff: replaced by U+FFFD\n\
             utf8fix: <stdin>: offset 3: mojibake 63 61 66 c3 83 c2: line decoded back from \
             windows-1252 (1 sequence)\n\
             utf8fix: <stdin>: 2 repairs\n",
        );
}

#[test]
fn mojibake_in_place_repairs_a_file_once() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("m.txt", "naÃ¯ve\n".as_bytes())]);
    utf8fix()
        .current_dir(dir.path())
        .args(["--mojibake", "-i", "m.txt"])
        .assert()
        .code(0);
    assert_eq!(
        fs::read_to_string(dir.path().join("m.txt")).unwrap(),
        "naïve\n"
    );
    let mtime = set_old_mtime(&dir.path().join("m.txt"));
    utf8fix()
        .current_dir(dir.path())
        .args(["--mojibake", "-i", "m.txt"])
        .assert()
        .code(0);
    let after = fs::metadata(dir.path().join("m.txt"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(after, mtime, "the repaired file needs nothing more");
}

/// `utf8fix -i` killed (SIGKILL, no chance to clean up) at each step of a rewrite, by the
/// program itself at a named point (`UTF8KIT_TEST_KILL_AT`), so that every run reaches it: the
/// file is the original, and an unnamed copy (O_TMPFILE) leaves nothing behind until it is
/// named. Between naming and renaming, the complete repair is left under its random name (no
/// program can clean up after SIGKILL); a named copy (`UTF8KIT_NO_O_TMPFILE`) is left from its
/// creation on.
#[test]
fn in_place_killed_at_each_step_leaves_the_original() {
    use std::os::unix::process::ExitStatusExt;
    let original: Vec<u8> = b"caf\xe9, na\xefve, \xc0\xaf ok\n".repeat(50_000);
    let repaired = String::from_utf8_lossy(&original).into_owned().into_bytes();
    for (point, named, left) in [
        ("created", false, None),
        ("written", false, None),
        ("linked", false, Some(&repaired)),
        ("created", true, Some(&Vec::new())),
        ("written", true, Some(&repaired)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.txt");
        fs::write(&file, &original).unwrap();
        let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin("utf8fix"));
        command
            .arg("-i")
            .arg(&file)
            .env("UTF8KIT_TEST_KILL_AT", point);
        if named {
            command.env("UTF8KIT_NO_O_TMPFILE", "1");
        }
        let status = command.status().unwrap();
        let case = format!("killed when {point}, named: {named}");
        assert_eq!(status.signal(), Some(libc::SIGKILL), "{case}");
        assert_eq!(fs::read(&file).unwrap(), original, "{case}");
        let others: Vec<String> = names_in(dir.path())
            .into_iter()
            .filter(|n| n != "big.txt")
            .collect();
        match left {
            None => assert!(others.is_empty(), "{case}: {others:?}"),
            Some(content) => {
                assert_eq!(others.len(), 1, "{case}: {others:?}");
                assert!(others[0].starts_with(".utf8kit-"), "{case}: {others:?}");
                let kept = fs::read(dir.path().join(&others[0])).unwrap();
                assert!(kept == *content, "{case}: what the copy holds");
            }
        }
    }
    // Unset, the same run repairs the file and leaves nothing else.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.txt");
    fs::write(&file, &original).unwrap();
    let status = StdCommand::new(assert_cmd::cargo::cargo_bin("utf8fix"))
        .arg("-i")
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read(&file).unwrap(), repaired);
    assert_eq!(names_in(dir.path()), ["big.txt"]);
}

#[test]
fn lists_of_files_repair_text_and_skip_binary_missing_and_special_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("a.txt"), b"caf\xc0\xaf\n").unwrap();
    std::fs::write(root.join("ok.txt"), "fine\n").unwrap();
    std::fs::write(root.join("blob.bin"), b"\x00\xff\xfe binary").unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    // --check lists what would change, NUL-separated with -0, exact bytes.
    utf8fix()
        .current_dir(root)
        .args(["--check", "-0", "--files0-from", "-", "--ignore-missing"])
        .write_stdin("a.txt\0ok.txt\0blob.bin\0gone.txt\0sub\0")
        .assert()
        .code(1)
        .stdout("a.txt\0")
        .stderr(
            "utf8fix: blob.bin: skipped: it looks binary\n\
             utf8fix: gone.txt: skipped: no such file (--ignore-missing)\n\
             utf8fix: sub: skipped: not a regular file\n",
        );
    // Without --ignore-missing a missing file is trouble; the others are still repaired.
    utf8fix()
        .current_dir(root)
        .args(["-i", "--files-from", "-"])
        .write_stdin("gone.txt\na.txt\nblob.bin\n")
        .assert()
        .code(2)
        .stderr(
            "utf8fix: gone.txt: No such file or directory\n\
             utf8fix: blob.bin: skipped: it looks binary\n",
        );
    assert_eq!(
        std::fs::read(root.join("a.txt")).unwrap(),
        "caf\u{FFFD}\u{FFFD}\n".as_bytes()
    );
    assert_eq!(
        std::fs::read(root.join("blob.bin")).unwrap(),
        b"\x00\xff\xfe binary"
    );
    // A file named as an operand is always repaired, binary or not; stdin is read once.
    utf8fix()
        .current_dir(root)
        .args(["--check", "blob.bin"])
        .assert()
        .code(1)
        .stdout("blob.bin\n");
    utf8fix()
        .args(["--files-from", "-", "-"])
        .write_stdin("x\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "standard input can be read only once",
        ));
}

#[test]
fn an_option_that_does_not_apply_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let menu = b"Cr\xe8me br\xfbl\xe9e\n";
    // Each option with a mode it does not apply to, and the words of the reason.
    let rows: [(&[&str], &str); 13] = [
        (
            &["--from", "windows-1252", "-i"],
            "--from applies only with --names",
        ),
        (
            &["--from", "windows-1252", "-v"],
            "--from applies only with --names",
        ),
        (&["--from", "windows-1252"], "not provided: --names"),
        (&["--nfc", "-i"], "--nfc applies only with --names"),
        (&["--apply", "-i"], "--apply applies only with --names"),
        (&["-r", "-i"], "-r/--recursive applies only with --names"),
        (&["-r", "-v"], "-r/--recursive applies only with --names"),
        (&["--follow-symlinks"], "--in-place"),
        (
            &["--names", "--follow-symlinks"],
            "--follow-symlinks applies only with -i",
        ),
        (&["-0", "-i"], "-0/--null applies only with --check"),
        (&["-j2"], "-j/--threads applies only with --mojibake"),
        (&["-j2", "-i"], "-j/--threads applies only with --mojibake"),
        (
            &["--names", "--mojibake", "-j2"],
            "-j/--threads applies only with --mojibake on content",
        ),
    ];
    for (options, reason) in rows {
        let file = dir.path().join("menu.txt");
        fs::write(&file, menu).unwrap();
        utf8fix()
            .current_dir(dir.path())
            .args(options)
            .arg("menu.txt")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(reason));
        assert_eq!(
            fs::read(&file).unwrap(),
            menu,
            "{options:?} changed the file"
        );
    }
}

#[test]
fn in_place_never_turns_legacy_text_into_replacement_characters() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let menu = b"Cr\xe8me br\xfbl\xe9e\n";
    let mixed = "café and "
        .bytes()
        .chain(*b"cr\xe8me\n")
        .collect::<Vec<u8>>();
    let utf16 = b"\xff\xfeC\x00a\x00f\x00\xe9\x00";
    write_tree(
        root,
        &[
            ("menu.txt", menu),
            ("mixed.txt", &mixed),
            ("utf16.txt", utf16),
        ],
    );
    let old = set_old_mtime(&root.join("menu.txt"));
    utf8fix()
        .current_dir(root)
        .args(["-i", "menu.txt"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "utf8fix: menu.txt: hint: this looks like windows-1252 text, not UTF-8; convert it \
             in place with: utf8enc --from windows-1252 -o menu.txt menu.txt\n\
             utf8fix: menu.txt: left unchanged: U+FFFD would replace text that can be decoded; \
             follow the hint, or choose the loss with --replacement, --drop or --escape\n",
        );
    assert_eq!(fs::read(root.join("menu.txt")).unwrap(), menu);
    assert_eq!(
        fs::metadata(root.join("menu.txt"))
            .unwrap()
            .modified()
            .unwrap(),
        old
    );
    // The advice, followed, decodes the file.
    program("utf8enc")
        .current_dir(root)
        .args(["--from", "windows-1252", "-o", "menu.txt", "menu.txt"])
        .assert()
        .code(0);
    assert_eq!(
        fs::read_to_string(root.join("menu.txt")).unwrap(),
        "Crème brûlée\n"
    );

    // Too few bytes to name the encoding: still refused, with --fallback as the way.
    utf8fix()
        .current_dir(root)
        .args(["-i", "mixed.txt"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "hint: its ill-formed bytes look like letters of a legacy encoding, too few to tell \
             which; decode them with the right one: utf8fix --fallback ENC -i mixed.txt",
        ));
    assert_eq!(fs::read(root.join("mixed.txt")).unwrap(), mixed);
    utf8fix()
        .current_dir(root)
        .args(["--fallback", "windows-1252", "-i", "mixed.txt"])
        .assert()
        .code(0)
        .stderr("");
    assert_eq!(
        fs::read_to_string(root.join("mixed.txt")).unwrap(),
        "café and crème\n"
    );

    // UTF-16 with its byte order mark.
    utf8fix()
        .current_dir(root)
        .args(["-i", "utf16.txt"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "utf8fix: utf16.txt: hint: this is UTF-16LE text with a byte order mark, not UTF-8; \
             convert it in place with: utf8enc --from utf-16le -o utf16.txt utf16.txt\n",
        ));
    assert_eq!(fs::read(root.join("utf16.txt")).unwrap(), utf16);

    // A loss the user chose is carried out.
    for (option, expected) in [
        (
            "--replacement=\u{FFFD}",
            "Cr\u{FFFD}me br\u{FFFD}l\u{FFFD}e\n",
        ),
        ("--drop", "Crme brle\n"),
        ("--escape", "Cr\\xe8me br\\xfbl\\xe9e\n"),
    ] {
        fs::write(root.join("menu.txt"), menu).unwrap();
        utf8fix()
            .current_dir(root)
            .args([option, "-i", "menu.txt"])
            .assert()
            .code(0)
            .stderr("");
        assert_eq!(
            fs::read_to_string(root.join("menu.txt")).unwrap(),
            expected,
            "{option}"
        );
    }

    // A UTF-8 file cut inside a character is not legacy text: repaired as before.
    fs::write(root.join("cut.txt"), b"price: 5 \xe2\x82").unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "cut.txt"])
        .assert()
        .code(0)
        .stderr("");
    assert_eq!(
        fs::read_to_string(root.join("cut.txt")).unwrap(),
        "price: 5 \u{FFFD}"
    );
}

#[test]
fn in_a_pipe_and_with_check_the_legacy_advice_goes_to_standard_error() {
    let menu = b"Cr\xe8me br\xfbl\xe9e\n";
    utf8fix()
        .write_stdin(&menu[..])
        .assert()
        .code(0)
        .stdout("Cr\u{FFFD}me br\u{FFFD}l\u{FFFD}e\n")
        .stderr(
            "utf8fix: <stdin>: hint: this looks like windows-1252 text, not UTF-8; convert it \
             with: utf8enc --from windows-1252\n",
        );
    utf8fix()
        .args(["-v"])
        .write_stdin(&menu[..])
        .assert()
        .code(0)
        .stderr(predicate::str::ends_with(
            "utf8fix: <stdin>: 3 repairs\nutf8fix: <stdin>: hint: this looks like windows-1252 \
             text, not UTF-8; convert it with: utf8enc --from windows-1252\n",
        ));
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("menu.txt"), menu).unwrap();
    for options in [&["--check"][..], &["--check", "-i"]] {
        utf8fix()
            .current_dir(dir.path())
            .args(options)
            .arg("menu.txt")
            .assert()
            .code(1)
            .stdout("menu.txt\n")
            .stderr(predicate::str::contains(
                "utf8fix: menu.txt: hint: this looks like windows-1252 text, not UTF-8",
            ));
    }
    assert_eq!(fs::read(dir.path().join("menu.txt")).unwrap(), menu);
    // No advice when the loss was chosen.
    utf8fix()
        .arg("--replacement=?")
        .write_stdin(&menu[..])
        .assert()
        .code(0)
        .stdout("Cr?me br?l?e\n")
        .stderr("");
}
