//! The workspace's promises about itself.

use std::process::Command;

/// `rust-version` is the true minimum: no locked dependency asks for a newer Rust, so that the
/// README's `cargo install --locked` fails on an older toolchain with cargo's clear message rather
/// than halfway through a build.
///
/// Only the packages this platform builds are looked at: a build downloads no others (the Windows
/// console crates, say), and `--offline` must not ask for them.
#[test]
fn rust_version_covers_every_locked_dependency() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let verbose = Command::new(rustc).arg("-vV").output().unwrap();
    let verbose = String::from_utf8(verbose.stdout).unwrap();
    let host = verbose
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", host])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let version =
        |text: &str| -> Vec<u32> { text.split('.').map(|part| part.parse().unwrap()).collect() };
    let declared = version(env!("CARGO_PKG_RUST_VERSION"));
    let resolved: Vec<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| node["id"].as_str().unwrap())
        .collect();
    for package in metadata["packages"].as_array().unwrap() {
        let id = package["id"].as_str().unwrap();
        let Some(needed) = package["rust_version"].as_str() else {
            continue;
        };
        if resolved.contains(&id) {
            assert!(
                version(needed) <= declared,
                "{} {} needs Rust {needed}, but rust-version says {}",
                package["name"],
                package["version"],
                env!("CARGO_PKG_RUST_VERSION")
            );
        }
    }
}

/// One way to write a stray byte in every program: `utf8dump -e` and `utf8fix --escape` give the
/// same text for the same input (they once differed in letter case).
#[test]
fn utf8dump_and_utf8fix_escape_bytes_alike() {
    let input: &[u8] = b"caf\xe9 \xc0\xaf \xed\xa0\x80 ok \xf4\x90\x80\x80 \xe2\x82\n\xff\xfe";
    let dump = crate::common::program("utf8dump")
        .arg("-e")
        .write_stdin(input)
        .output()
        .unwrap();
    let fix = crate::common::program("utf8fix")
        .arg("--escape")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(dump.stdout).unwrap(),
        String::from_utf8(fix.stdout).unwrap()
    );
}

/// The four programs, as their man pages and completions are named.
const PROGRAMS: [&str; 4] = ["utf8check", "utf8dump", "utf8enc", "utf8fix"];

/// Each kind `--generate` takes, and the committed file it makes for `program`.
fn generated_files(program: &str) -> [(&'static str, String); 6] {
    [
        ("man", format!("man/{program}.1")),
        ("complete-bash", format!("completions/{program}.bash")),
        ("complete-zsh", format!("completions/_{program}")),
        ("complete-fish", format!("completions/{program}.fish")),
        ("complete-elvish", format!("completions/{program}.elv")),
        ("complete-powershell", format!("completions/_{program}.ps1")),
    ]
}

/// `PROGRAM --generate KIND` prints what `man/` and `completions/` hold, for every program and
/// kind, so that users and packagers can install them from an installed binary; `.ci/generate`
/// writes them.
#[test]
fn every_program_generates_its_man_page_and_completions() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for program in PROGRAMS {
        for (kind, file) in generated_files(program) {
            let output = crate::common::program(program)
                .args(["--generate", kind])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{program} --generate {kind}");
            assert!(!output.stdout.is_empty(), "{program} --generate {kind}");
            assert!(
                output.stdout == std::fs::read(root.join(&file)).unwrap(),
                "{program} --generate {kind} differs from {file}: run .ci/generate and commit it"
            );
        }
    }
    crate::common::program("utf8check")
        .args(["--generate", "man-page"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "possible values: man, complete-bash",
        ));
}

/// Every pre-commit hook declares the pre-commit version that builds Rust hooks, and its entry,
/// run as pre-commit runs it (the entry, then the staged file names), passes a clean file and
/// fails a file with hidden text.
#[test]
fn pre_commit_hooks_run_as_pre_commit_runs_them() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).unwrap();
    let entries: Vec<&str> = hooks
        .lines()
        .filter_map(|l| l.trim().strip_prefix("entry: "))
        .collect();
    let ids: Vec<&str> = hooks
        .lines()
        .filter_map(|l| l.strip_prefix("- id: "))
        .collect();
    assert_eq!(
        ids,
        [
            "utf8check",
            "utf8check-lint",
            "utf8fix-check",
            "utf8check-system",
            "utf8check-lint-system",
            "utf8fix-check-system"
        ]
    );
    // The Rust hooks need the pre-commit that builds them; the system twins build nothing.
    assert_eq!(
        hooks
            .matches("minimum_pre_commit_version: \"2.21.0\"")
            .count(),
        3
    );
    assert_eq!(hooks.matches("language: rust").count(), 3);
    assert_eq!(hooks.matches("language: system").count(), 3);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("clean.txt"), "café\n").unwrap();
    std::fs::write(
        dir.path().join("bad.txt"),
        b"caf\xe9 pass\xe2\x80\x8bword\n",
    )
    .unwrap();
    for entry in entries {
        let mut words = entry.split_whitespace();
        let program = words.next().unwrap();
        let args: Vec<&str> = words.collect();
        for (file, code) in [("clean.txt", 0), ("bad.txt", 1)] {
            crate::common::program(program)
                .args(&args)
                .arg(file)
                .current_dir(dir.path())
                .assert()
                .code(code);
        }
    }
}

/// Each man page has the sections a Unix user expects and lints clean: `mandoc -T lint` reports
/// no warning (CI installs mandoc).
#[test]
fn man_pages_have_the_expected_sections_and_lint_clean() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let has_mandoc = std::process::Command::new("mandoc")
        .arg("-V")
        .output()
        .is_ok();
    for program in ["utf8check", "utf8dump", "utf8enc", "utf8fix"] {
        let path = root.join(format!("man/{program}.1"));
        let page = std::fs::read_to_string(&path).unwrap();
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH \"EXIT STATUS\"",
            ".SH \"EXAMPLES\"",
            ".SH ENVIRONMENT",
            ".SH \"SEE ALSO\"",
        ] {
            assert!(page.contains(section), "{program}.1 lacks {section}");
        }
        assert!(page.contains(".nh\n"), "{program}.1 hyphenates");
        for other in ["utf8check", "utf8dump", "utf8enc", "utf8fix"] {
            assert!(
                other == program || page.contains(&format!("\\fB{other}\\fR(1)")),
                "{program}.1 does not mention {other}"
            );
        }
        if !has_mandoc {
            continue;
        }
        let lint = std::process::Command::new("mandoc")
            .args(["-T", "lint", "-W", "warning"])
            .arg(&path)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&lint.stdout).into_owned()
            + &String::from_utf8_lossy(&lint.stderr);
        assert!(
            report.trim().is_empty(),
            "mandoc -T lint {program}.1:\n{report}"
        );
    }
    if !has_mandoc {
        crate::common::skip("no mandoc to lint the man pages");
    }
}

/// Each completion script loads in its shell (`bash -n`, `zsh -n`, `fish -n`; CI installs zsh
/// and fish), and the lint and policy options complete their values, not file names.
#[test]
fn completion_scripts_parse_and_complete_values() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for program in ["utf8check", "utf8dump", "utf8enc", "utf8fix"] {
        for (shell, file) in [
            ("bash", format!("completions/{program}.bash")),
            ("zsh", format!("completions/_{program}")),
            ("fish", format!("completions/{program}.fish")),
        ] {
            let Ok(output) = std::process::Command::new(shell)
                .arg("-n")
                .arg(root.join(&file))
                .output()
            else {
                missing.push(shell);
                continue;
            };
            assert!(
                output.status.success(),
                "{shell} -n {file}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
    let bash = std::fs::read_to_string(root.join("completions/utf8check.bash")).unwrap();
    assert!(bash.contains(
        "compgen -P \"${prefix}\" -W \"bom nul control noncharacter bidi private-use replacement \
         invisible tag non-ascii mixed-script all non-nfc-name\""
    ));
    assert!(bash.contains("compgen -P \"${prefix}\" -W \"surrogates cesu8 modified\""));
    // Encoding labels complete where an option takes them: every label for --from (and auto),
    // those with an encoder for --to, the single-byte ones for --fallback.
    let enc = std::fs::read_to_string(root.join("completions/utf8enc.bash")).unwrap();
    let from = enc.split("--from)").nth(1).unwrap().lines().nth(1).unwrap();
    assert!(
        from.contains(" shift_jis ") && from.contains(" auto\""),
        "{from}"
    );
    let to = enc.split("--to)").nth(1).unwrap().lines().nth(1).unwrap();
    assert!(
        to.contains(" utf-16le ") && !to.contains(" replacement "),
        "{to}"
    );
    let fix = std::fs::read_to_string(root.join("completions/utf8fix.bash")).unwrap();
    let fallback = fix
        .split("--fallback)")
        .nth(1)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap();
    assert!(
        fallback.contains(" cp1252 ") && !fallback.contains(" shift_jis "),
        "{fallback}"
    );
    let fish = std::fs::read_to_string(root.join("completions/utf8fix.fish")).unwrap();
    assert!(
        fish.contains("-l strip") && fish.contains("invisible"),
        "{fish}"
    );
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        crate::common::skip(&format!(
            "no {} to parse the completions",
            missing.join(", ")
        ));
    }
}

#[test]
fn every_committed_page_and_completion_has_its_program() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let expected: Vec<String> = PROGRAMS
        .iter()
        .flat_map(|name| generated_files(name).map(|(_, path)| path))
        .collect();
    for dir in ["man", "completions"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = format!("{dir}/{}", entry.unwrap().file_name().to_string_lossy());
            assert!(
                expected.contains(&path),
                "{path} is generated by no program"
            );
        }
    }
}

/// The commit that docs/ci.md pins for pre-commit has every hook the page offers, and the
/// workflow recipes never hide trouble behind `|| true`.
#[test]
fn the_pinned_pre_commit_rev_has_every_hook_offered() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/ci.md")).unwrap();
    assert!(!page.contains("|| true"), "a recipe hides status 2");
    let rev = page
        .lines()
        .find_map(|line| line.trim().strip_prefix("rev: "))
        .expect("a pinned rev")
        .trim();
    assert_eq!(rev.len(), 40, "a whole commit id: {rev}");
    let offered: Vec<&str> = page
        .lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("# ");
            line.strip_prefix("- id: ")
                .map(|id| id.split_whitespace().next().unwrap())
        })
        .collect();
    assert!(offered.len() >= 4, "{offered:?}");
    let show = std::process::Command::new("git")
        .args(["show", &format!("{rev}:.pre-commit-hooks.yaml")])
        .current_dir(root)
        .output();
    let hooks = match show {
        Ok(output) if output.status.success() => String::from_utf8(output.stdout).unwrap(),
        _ => {
            crate::common::skip("no git history here to read the pinned commit from");
            return;
        }
    };
    for id in offered {
        assert!(
            hooks.lines().any(|line| line == format!("- id: {id}")),
            "{rev} has no hook {id}"
        );
    }
}

/// Each man page's SYNOPSIS names the value of every option that takes one (`-m N`,
/// `-i[=SUFFIX]`) and the operands; no backtick of the help text reaches a page.
#[test]
fn man_pages_show_placeholders_and_no_backticks() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = |name: &str| std::fs::read_to_string(root.join(format!("man/{name}.1"))).unwrap();
    let synopsis = |text: &str| -> String {
        let from = text.find(".SH SYNOPSIS\n").expect("a SYNOPSIS") + 13;
        text[from..].lines().next().unwrap().to_owned()
    };
    let rows = [
        (
            "utf8check",
            "[\\fB\\-m\\fR|\\fB\\-\\-max\\-errors\\fR \\fIN\\fR]",
        ),
        ("utf8check", "[\\fB\\-\\-format\\fR \\fIFORMAT\\fR]"),
        ("utf8check", "[\\fIFILE\\fR]..."),
        (
            "utf8fix",
            "[\\fB\\-i\\fR|\\fB\\-\\-in\\-place\\fR[=\\fISUFFIX\\fR]]",
        ),
        ("utf8fix", "[\\fB\\-\\-fallback\\fR \\fIENCODING\\fR]"),
        (
            "utf8dump",
            "[\\fB\\-s\\fR|\\fB\\-\\-skip\\fR \\fIOFFSET\\fR]",
        ),
        ("utf8enc", "[\\fB\\-\\-from\\fR \\fIENC\\fR]"),
    ];
    for (name, option) in rows {
        let text = page(name);
        assert!(synopsis(&text).contains(option), "{name}: {option}");
        assert!(!text.contains('`'), "{name}: a backtick");
    }
}

/// The second item of a comma list completes too (`--deny bidi,` offers `bidi,tag`), in bash and
/// fish as their users press Tab, and zsh completes each item with `_sequence`.
#[test]
fn comma_lists_complete_every_item() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let zsh = std::fs::read_to_string(root.join("completions/_utf8check")).unwrap();
    assert!(
        zsh.contains(":LINTS:_sequence compadd - bom nul control"),
        "zsh"
    );
    let bash = std::process::Command::new("bash")
        .arg("-c")
        .arg(
            "source completions/utf8check.bash; COMP_WORDS=(utf8check --deny bidi,ta); \
             COMP_CWORD=2; _utf8check utf8check bidi,ta --deny; printf '%s\\n' \"${COMPREPLY[@]}\"",
        )
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&bash.stdout), "bidi,tag\n");
    let fish = std::process::Command::new("fish")
        .arg("-c")
        .arg("source completions/utf8fix.fish; complete -C 'utf8fix --strip bidi,invi'")
        .current_dir(&root)
        .output();
    match fish {
        Ok(output) => {
            let offered = String::from_utf8_lossy(&output.stdout);
            assert!(offered.starts_with("bidi,invisible\t"), "{offered}");
        }
        Err(_) => crate::common::skip("no fish to complete with"),
    }
}

/// zsh completes a comma list item by item as its user presses Tab: an interactive zsh (driven
/// through zpty) with the completions on its `fpath` and `compinit` run, as the README says to
/// set it up, completes `--deny bidi,ta` to `bidi,tag` and `--strip invisible,mix` to
/// `invisible,mixed-script`.
#[test]
fn zsh_completes_the_second_item_of_a_comma_list_on_tab() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if std::process::Command::new("zsh")
        .args(["-f", "-c", "zmodload zsh/zpty"])
        .output()
        .is_err()
    {
        crate::common::skip("no zsh to complete with");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Types the line, Tab, then Ctrl-X, bound to a widget that writes the line to a file; zle
    // reads keys in order, so the completion is done when the widget runs.
    let script = r#"
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "dumpbuf() { print -r -- \"\$BUFFER\" > $2; }; zle -N dumpbuf; bindkey '^X' dumpbuf"
zpty -w -n z "$3"$'\t\x18'
for i in {1..100}; do [[ -s $2 ]] && break; sleep 0.1; done
zpty -d z
"#;
    for (typed, completed) in [
        ("utf8check --deny bidi,ta", "utf8check --deny bidi,tag,"),
        (
            "utf8fix --strip invisible,mix",
            "utf8fix --strip invisible,mixed-script,",
        ),
        (
            "utf8check --allow surrogates,ce",
            "utf8check --allow surrogates,cesu8,",
        ),
    ] {
        let buffer = dir.path().join("buffer");
        let _ = std::fs::remove_file(&buffer);
        let status = std::process::Command::new("zsh")
            .args(["-f", "-c", script, "zsh"])
            .arg(root.join("completions"))
            .arg(&buffer)
            .arg(typed)
            .status()
            .unwrap();
        assert!(status.success(), "{typed}");
        let line = std::fs::read_to_string(&buffer).unwrap_or_default();
        assert_eq!(line.trim_end(), completed, "{typed}");
    }
}
