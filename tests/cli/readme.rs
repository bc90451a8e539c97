//! The README's console examples, run as written: every command that needs no file of the
//! reader's must print what the README shows.

use std::path::Path;
use std::process::Command;

/// One `$ command` of a console block and the lines shown after it.
struct Example {
    command: String,
    shown: Vec<String>,
}

/// The README and every guide of `docs/`, whose console examples are all run.
fn documents() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let mut guides: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    assert!(guides.len() >= 8, "{guides:?}");
    for guide in guides {
        text.push('\n');
        text.push_str(&std::fs::read_to_string(&guide).unwrap());
    }
    text
}

fn examples() -> Vec<Example> {
    let readme = documents();
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            examples.push(Example {
                command: String::new(),
                shown: Vec::new(),
            });
            continue;
        }
        if !in_console {
            continue;
        }
        // A command is `$ ` and something; a line of output may start with `$` and spaces.
        match line.strip_prefix("$ ") {
            Some(command) if !command.starts_with(' ') => examples.push(Example {
                command: command.to_owned(),
                shown: Vec::new(),
            }),
            _ => examples
                .last_mut()
                .expect("a block starts first")
                .shown
                .push(line.to_owned()),
        }
    }
    examples.retain(|example| !example.command.is_empty());
    examples
}

/// Commands that read or write a file of the reader's (`notes.txt`, `*.csv`, ...) are shown for
/// their form; every other command is run.
fn needs_no_file(command: &str) -> bool {
    let command = command.split(" #").next().unwrap_or(command);
    let words = [
        "notes.txt",
        "page.html",
        "tutor.ru",
        "changelog",
        "review.md",
        "*.csv",
        "git ",
    ];
    !words.iter().any(|word| command.contains(word))
}

#[test]
fn console_examples_print_what_the_readme_shows() {
    let path = crate::common::path_with_programs();
    let dir = tempfile::tempdir().unwrap();
    let mut last_status = None;
    let mut run = 0;
    for example in examples() {
        if example.command == "echo $?" {
            let status = last_status
                .take()
                .expect("echo $? follows a command that was run");
            assert_eq!(example.shown, [format!("{status}")], "echo $?");
            continue;
        }
        if !needs_no_file(&example.command) {
            last_status = None;
            continue;
        }
        let output = Command::new("bash")
            .args(["-c", &example.command])
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .env_remove("TERM")
            .current_dir(dir.path())
            .output()
            .unwrap();
        last_status = output.status.code();
        run += 1;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        // The README shows both streams; a pipe holds standard output back, so the order
        // between them is not kept: each stream must be shown in its own order.
        let stdout: Vec<&str> = stdout.lines().collect();
        let stderr: Vec<&str> = stderr.lines().collect();
        let shown: Vec<&str> = example.shown.iter().map(String::as_str).collect();
        if shown.contains(&"...") {
            // Elided: what is shown must appear.
            for line in shown.iter().filter(|line| **line != "...") {
                assert!(
                    stdout.contains(line) || stderr.contains(line),
                    "`{}` does not print {line:?}: {stdout:#?} {stderr:#?}",
                    example.command
                );
            }
        } else {
            let (on_stdout, on_stderr): (Vec<&str>, Vec<&str>) =
                shown.iter().partition(|line| stdout.contains(line));
            assert_eq!(on_stdout, stdout, "`{}` (standard output)", example.command);
            assert_eq!(on_stderr, stderr, "`{}` (standard error)", example.command);
        }
    }
    assert!(run >= 10, "only {run} README examples ran");
}

/// Every example of the four `--help` texts (the man pages' EXAMPLES) runs as written, in a git
/// work tree holding the files it names: none is a usage error.
#[test]
fn help_examples_run_as_written() {
    let bin = Path::new(env!("CARGO_BIN_EXE_utf8check")).parent().unwrap();
    let path = crate::common::path_with_programs();
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8]); 8] = [
        ("notes.txt", b"caf\xe9 au lait\n"),
        ("data.csv", "a,b\n\u{e9},\u{20ac}\n".as_bytes()),
        ("image.bin", &[0x89, b'P', b'N', b'G', 0, 0xff, 0xfe]),
        ("broken.txt", b"a\xc0\xafb\n"),
        ("tutor.ru", b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0\n"),
        ("mystery.txt", b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0\n"),
        ("page.html", "<p>caf\u{e9}</p>\n".as_bytes()),
        ("README.md", b"# notes\n"),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    // The directories of utf8fix --names: a ZIP archive's names, and NFD names from macOS.
    crate::common::write_tree(
        dir.path(),
        &[
            ("unzipped/r\u{e9}sum\u{e9}.txt", b"cp437"),
            ("photos/cafe\u{301}.jpg", b"nfd"),
        ],
    );
    let git_ok = Command::new("git")
        .args(["init", "-q", "."])
        .current_dir(dir.path())
        .status()
        .is_ok_and(|status| status.success());
    if !git_ok {
        crate::common::skip("no git to make a work tree");
        return;
    }
    let mut run = 0;
    for program in ["utf8check", "utf8dump", "utf8fix", "utf8enc"] {
        let help = Command::new(bin.join(program))
            .arg("--help")
            .output()
            .unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        let examples = help
            .split_once("\nExamples:\n")
            .unwrap_or_else(|| panic!("{program} --help has examples"))
            .1;
        for line in examples.lines().take_while(|line| line.starts_with("  ")) {
            let command = line.trim();
            // A pull request's diff needs a remote; tests/cli/check/gate.rs runs that recipe.
            if command.contains("origin/main") {
                continue;
            }
            let output = Command::new("bash")
                .args(["-c", command])
                .env("PATH", &path)
                .env("EDITOR", "true")
                .current_dir(dir.path())
                .output()
                .unwrap();
            run += 1;
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                !stderr.contains("--help)") && !stderr.contains("command not found"),
                "`{command}` ({program} --help): {stderr}"
            );
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "`{command}` ({program} --help) exits {:?}: {stderr}",
                output.status.code()
            );
        }
    }
    assert!(run >= 20, "only {run} examples ran");
}

/// The README is what a newcomer reads in five minutes (SPEC 2): at most about 300 lines, the
/// two set-up commands, a section per program, and where to read on; every guide it names
/// exists.
#[test]
fn the_readme_is_short_and_its_links_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.lines().count() <= 300, "{}", readme.lines().count());
    for section in [
        "## utf8check",
        "## utf8dump",
        "## utf8fix",
        "## utf8enc",
        "## Read on",
    ] {
        assert!(readme.contains(&format!("\n{section}\n")), "{section}");
    }
    assert!(readme.contains("cargo install --path . --locked"));
    assert!(readme.contains("cargo test --workspace --locked"));
    let mut documents = vec![readme];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        documents.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    for (i, text) in documents.iter().enumerate() {
        let base = if i == 0 {
            root.to_path_buf()
        } else {
            root.join("docs")
        };
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap();
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            assert!(
                base.join(file).exists(),
                "a link to {target} that leads nowhere"
            );
        }
    }
}
