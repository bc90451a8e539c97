//! Habits of the tools people know (iconv, grep, hexdump, xxd, cat): what does not clash is
//! accepted, what clashes is refused with the mapping, and nothing waits without a word.

use predicates::prelude::*;

use crate::common::{program, write_tree};

/// Each clash: the program, its arguments, and the words of the mapping it must teach.
#[test]
fn clashing_habits_teach_the_mapping() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("a.txt", b"caf\xc3\xa9\n")]);
    let rows: [(&str, &[&str], &str); 5] = [
        (
            "utf8enc",
            &["-f", "cp1252", "-t", "utf-8"],
            "utf8enc: -f/--format is the notation here (table, hex, c, json, ...), and 'cp1252' \
             is an encoding: convert with --from cp1252 (iconv's -f) or --to cp1252 (iconv's -t) \
             (see utf8enc --help)\n",
        ),
        (
            "utf8check",
            &["--json", "a.txt"],
            "utf8check: --json is spelled --format json here (utf8check --format json) \
             (see utf8check --help)\n",
        ),
        (
            "utf8dump",
            &["-C", "a.txt"],
            "utf8dump: -C is --context here (the units around each ill-formed unit, with \
             --errors-only); hexdump -C's view is -x (see utf8dump --help)\n",
        ),
        (
            "utf8dump",
            &["-C", "3", "a.txt"],
            "utf8dump: -C is --context here (the units around each ill-formed unit, with \
             --errors-only); hexdump -C's view is -x (see utf8dump --help)\n",
        ),
        (
            "utf8fix",
            &["-o", "out.txt", "a.txt"],
            "utf8fix: utf8fix writes the repaired text to standard output: redirect it (> FILE), \
             or rewrite each FILE in place with -i (see utf8fix --help)\n",
        ),
    ];
    for (name, args, message) in rows {
        program(name)
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(message);
    }
    // An unknown value that is no encoding keeps clap's own reason.
    program("utf8enc")
        .args(["-f", "nosuch", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value 'nosuch' for '--format",
        ));
}

/// grep's -n and -H are what utf8check always does; -s silences messages about unreadable
/// files but not the status; xxd's -b is --bits.
#[test]
fn habits_that_do_not_clash_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("bad.txt", b"a\xc0\xafb\n")]);
    let plain = program("utf8check")
        .current_dir(dir.path())
        .arg("bad.txt")
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(1));
    program("utf8check")
        .current_dir(dir.path())
        .args(["-n", "-H", "bad.txt"])
        .assert()
        .code(1)
        .stdout(plain.stdout.clone());
    program("utf8check")
        .current_dir(dir.path())
        .args(["-s", "missing.txt", "bad.txt"])
        .assert()
        .code(2)
        .stdout(plain.stdout)
        .stderr("");
    program("utf8check")
        .current_dir(dir.path())
        .args(["missing.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.txt"));
    let bits = program("utf8dump")
        .arg("--bits")
        .write_stdin("é")
        .output()
        .unwrap();
    program("utf8dump")
        .arg("-b")
        .write_stdin("é")
        .assert()
        .code(0)
        .stdout(bits.stdout);
}

/// `utf8fix --names` on a directory without -r says that only its own name is looked at.
#[test]
fn names_on_a_directory_without_r_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("photos")).unwrap();
    program("utf8fix")
        .current_dir(dir.path())
        .args(["--names", "--nfc", "photos"])
        .assert()
        .code(0)
        .stdout("")
        .stderr(
            "utf8fix: photos: a directory: only its own name is looked at; -r takes what it \
             holds too\n",
        );
}

/// Run from a terminal with no FILE, each program says it reads standard input and how that
/// ends, once; from a pipe it says nothing.
#[test]
fn a_terminal_on_standard_input_gets_a_note() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        crate::common::skip("no script (util-linux) to give a program a terminal");
        return;
    }
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_utf8check"))
        .parent()
        .unwrap()
        .to_path_buf();
    for name in ["utf8check", "utf8dump", "utf8fix"] {
        // script gives the program a terminal; its own standard input ends at once.
        let command = format!("{} < /dev/tty", bin.join(name).display());
        let output = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&output.stdout);
        assert!(
            shown.contains(&format!(
                "{name}: reading standard input from the terminal; Ctrl-D ends it ({name} --help \
                 for usage)"
            )),
            "{name}: {shown:?}"
        );
        assert_eq!(
            shown.matches("reading standard input").count(),
            1,
            "{shown:?}"
        );
    }
    program("utf8check")
        .write_stdin("fine\n")
        .assert()
        .code(0)
        .stderr("");
}
