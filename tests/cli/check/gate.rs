//! The CI gate of the README (SPEC 3): inside a git work tree `-r` checks every tracked file,
//! whatever hides it from a walk, and the recipes work as written, on a pull request that deletes
//! a file too. These tests need git, as the gate does: a machine without git fails them.

use std::fs;
use std::path::Path;
use std::process::Command as StdCommand;

use crate::common::{program, write_tree};

fn git(dir: &Path, args: &[&str]) {
    let status = StdCommand::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .status()
        .expect("git is needed by the gate and by this test");
    assert!(status.success(), "git {args:?}");
}

/// A repository whose pull request tries every way past the gate: a Trojan Source file with a
/// NUL in a comment, one under `.github/`, one force-added although ignored, one hidden by an
/// `.ignore` the same change adds, and a deleted file.
fn trojan_repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write_tree(
        root,
        &[
            ("README.md", b"fine\n"),
            ("old.txt", b"to be deleted\n"),
            (".gitignore", b"build/\n"),
        ],
    );
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "pr"]);
    let trojan = "if (access != \"user\u{202E} \u{2066}// admin\u{2069} \u{2066}\") {}\n";
    let with_nul = format!("// \0 a NUL makes some tools call this binary\n{trojan}");
    write_tree(
        root,
        &[
            ("src/nul.js", with_nul.as_bytes()),
            (".github/workflows/ci.yml", trojan.as_bytes()),
            ("build/forced.js", trojan.as_bytes()),
            ("src/hidden.js", trojan.as_bytes()),
        ],
    );
    git(root, &["add", "-A"]);
    git(root, &["add", "-f", "build/forced.js"]);
    git(root, &["rm", "-q", "old.txt"]);
    fs::write(root.join(".ignore"), "src/hidden.js\n").unwrap();
    git(root, &["add", ".ignore"]);
    git(root, &["commit", "-q", "-m", "pr"]);
    dir
}

#[test]
fn a_walk_in_a_git_work_tree_checks_every_tracked_file() {
    let repo = trojan_repository();
    for args in [
        &["-r", "--deny", "bidi", "-l", "."][..],
        &["-r", "--deny", "bidi", "-l"],
    ] {
        // `-r .` names files relative to where the walk started, without `./` (SPEC 3), as a
        // bare `-r` does.
        let expected: String = [
            ".github/workflows/ci.yml",
            "build/forced.js",
            "src/hidden.js",
            "src/nul.js",
        ]
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
        program("utf8check")
            .current_dir(repo.path())
            .args(args)
            .assert()
            .code(1)
            .stdout(expected);
    }
    // The text file with a NUL is checked; the NUL is a finding when asked for.
    program("utf8check")
        .current_dir(repo.path())
        .args(["--deny", "nul", "-c", "src/nul.js"])
        .assert()
        .code(1)
        .stdout("1\n");
}

#[test]
fn the_readme_recipes_work_as_written() {
    let repo = trojan_repository();
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md")).unwrap();
    let recipe = readme
        .lines()
        .find_map(|line| line.strip_prefix("Only the files a change touches: `"))
        .and_then(|rest| rest.strip_suffix("`."))
        .expect("the recipe of docs/ci.md for changed files");
    // The pull request against its base, as CI sees it (origin/main is the base branch).
    let recipe = recipe.replace("origin/main", "main");
    let bin = assert_cmd::cargo::cargo_bin("utf8check");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = StdCommand::new("bash")
        .current_dir(repo.path())
        .env("PATH", path)
        .args(["-c", &format!("set -o pipefail; {recipe} --deny bidi -l")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{recipe}: {stderr}");
    for file in [
        ".github/workflows/ci.yml",
        "build/forced.js",
        "src/hidden.js",
        "src/nul.js",
    ] {
        assert!(
            stdout.contains(file),
            "{recipe}: {file} is not checked: {stdout}"
        );
    }
    assert!(
        stderr.contains("old.txt: skipped: no such file (--ignore-missing)"),
        "{stderr}"
    );
}

#[test]
fn a_glob_that_matches_nothing_and_a_broken_ignore_file_are_trouble() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("a.rs", b"fine\n"), ("b.txt", b"fine\n")]);
    program("utf8check")
        .current_dir(dir.path())
        .args(["-r", "-g", "*.rz"])
        .assert()
        .code(2)
        .stderr("utf8check: --glob '*.rz': matched no file\n");
    program("utf8check")
        .current_dir(dir.path())
        .args(["-r", "-g", "*.rs", "-g", "!*.txt"])
        .assert()
        .code(0)
        .stderr("");
    fs::write(dir.path().join(".gitignore"), "a{b\n").unwrap();
    program("utf8check")
        .current_dir(dir.path())
        .args(["-r"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "utf8check: .gitignore: ignore file cannot be used: error parsing glob 'a{b'",
        ));
}

#[test]
fn a_closed_standard_input_is_trouble_not_an_empty_valid_input() {
    let bin = assert_cmd::cargo::cargo_bin("utf8check");
    let output = StdCommand::new("bash")
        .args([
            "-c",
            "\"$0\" <&-; echo \"status $?\"; \"$0\" </dev/null; echo \"status $?\"",
        ])
        .arg(&bin)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "status 2\nstatus 0\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "utf8check: <stdin>: standard input is closed\n"
    );
}

/// `--warn` lints are shown in every format as warnings and never make the status 1; the
/// CodeClimate report is one JSON array of GitLab Code Quality issues with stable fingerprints.
#[test]
fn warnings_and_the_code_quality_report() {
    let input = "a\u{200B}b\u{202E}c\n";
    let run = |format: &str| {
        let output = program("utf8check")
            .args(["--deny", "bidi", "--warn", "invisible", "--format", format])
            .write_stdin(input)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    assert_eq!(
        run("human"),
        (
            Some(1),
            "<stdin>:1:2: warning: invisible: invisible character U+200B (bytes e2 80 8b at offset 1)\n\
             <stdin>:1:4: bidi: bidirectional control U+202E (bytes e2 80 ae at offset 5)\n"
                .to_owned()
        )
    );
    let (code, json) = run("json");
    assert_eq!(code, Some(1));
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "warning");
    assert_eq!(lines[1]["type"], "error");
    assert_eq!(lines[2]["errors"], 1);
    assert_eq!(lines[2]["warnings"], 1);
    let (_, github) = run("github");
    assert!(github.starts_with("::warning file=-,line=1,col=2,title=utf8check invisible::"));
    let (_, sarif) = run("sarif");
    let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let levels: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["warning", "error"]);
    let (code, report) = run("codeclimate");
    assert_eq!(code, Some(1));
    let issues: serde_json::Value = serde_json::from_str(&report).unwrap();
    let issues = issues.as_array().unwrap();
    assert_eq!(issues.len(), 2);
    assert_eq!(issues[0]["check_name"], "utf8check/invisible");
    assert_eq!(issues[0]["severity"], "minor");
    assert_eq!(issues[1]["severity"], "major");
    assert_eq!(issues[1]["location"]["path"], "-");
    assert_eq!(issues[1]["location"]["lines"]["begin"], 1);
    assert!(
        issues[1]["description"]
            .as_str()
            .unwrap()
            .starts_with("bidi: bidirectional control U+202E")
    );
    let fingerprint = |i: usize| issues[i]["fingerprint"].as_str().unwrap().to_owned();
    assert_ne!(fingerprint(0), fingerprint(1));
    let again: serde_json::Value = serde_json::from_str(&run("codeclimate").1).unwrap();
    assert_eq!(
        again[0]["fingerprint"].as_str().unwrap(),
        fingerprint(0),
        "stable"
    );
    // Warnings alone: status 0, and -c counts errors only. A clean input is an empty report.
    program("utf8check")
        .args(["--warn", "invisible"])
        .write_stdin("a\u{200B}b\n")
        .assert()
        .code(0);
    program("utf8check")
        .args(["--warn", "invisible", "-c"])
        .write_stdin("a\u{200B}b\n")
        .assert()
        .code(0)
        .stdout("0\n");
    program("utf8check")
        .args(["--format", "codeclimate"])
        .write_stdin("fine\n")
        .assert()
        .code(0)
        .stdout("[]\n");
}

/// In a git work tree the walk and the tracked files are merged as the walk goes: every file
/// once, in walk order (a directory's names sorted byte by byte, depth first: what is in `a/`
/// before `a-b.txt` and `a.txt`, as the name `a` sorts first), whatever hid a tracked file,
/// untracked files included.
#[test]
fn tracked_and_walked_files_come_once_each_in_walk_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write_tree(
        root,
        &[
            (".gitignore", b"ignored/\n*.log\n"),
            ("a.txt", b"ok\n"),
            ("a-b.txt", b"ok\n"),
            ("a/z.txt", b"ok\n"),
            ("a/.hidden/h.txt", b"ok\n"),
            ("ignored/forced.txt", b"\xff\n"),
            ("ignored/left.txt", b"ok\n"),
            ("m.log", b"ok\n"),
            ("z/untracked.txt", b"ok\n"),
            (".github/ci.yml", b"ok\n"),
        ],
    );
    git(root, &["add", "-A"]);
    git(root, &["add", "-f", "ignored/forced.txt", "m.log"]);
    git(root, &["rm", "-q", "--cached", "z/untracked.txt"]);
    let expected = [
        ".github/ci.yml:0",
        ".gitignore:0",
        "a/.hidden/h.txt:0",
        "a/z.txt:0",
        "a-b.txt:0",
        "a.txt:0",
        "ignored/forced.txt:1",
        "m.log:0",
        "z/untracked.txt:0",
    ]
    .map(|line| format!("{line}\n"))
    .concat();
    for threads in ["-j1", "-j2", "-j4"] {
        program("utf8check")
            .current_dir(root)
            .args(["-r", "-c", threads])
            .assert()
            .code(1)
            .stdout(expected.clone());
    }
}

/// A submodule's tracked files are checked, a hidden one force-added included; and a GIT_DIR
/// inherited from the environment (git exports it to hooks) cannot empty or misdirect the list
/// of tracked files.
#[test]
fn submodules_and_an_inherited_git_dir_hide_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (sub, main, empty) = (
        dir.path().join("sub"),
        dir.path().join("main"),
        dir.path().join("empty"),
    );
    for repo in [&sub, &main, &empty] {
        fs::create_dir(repo).unwrap();
        git(repo, &["init", "-q"]);
    }
    write_tree(&sub, &[(".hidden/x.txt", b"bad \xc0\xaf\n")]);
    git(&sub, &["add", "-f", ".hidden/x.txt"]);
    git(&sub, &["commit", "-qm", "sub"]);
    write_tree(&main, &[("a.txt", b"fine\n")]);
    git(&main, &["add", "a.txt"]);
    git(
        &main,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            "../sub",
            "sub",
        ],
    );
    git(&main, &["commit", "-qm", "main"]);
    program("utf8check")
        .current_dir(&main)
        .args(["-r", "."])
        .assert()
        .code(1)
        .stdout(
            "sub/.hidden/x.txt:1:5: overlong: overlong encoding of U+002F in 2 bytes (bytes c0 \
             af at offset 4)\n",
        );
    program("utf8check")
        .current_dir(&sub)
        .env("GIT_DIR", empty.join(".git"))
        .env("GIT_WORK_TREE", &empty)
        .args(["-r", "."])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(".hidden/x.txt:1:5: overlong"));
}
