//! Helpers shared by the program tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// A command running one of the programs, with colour-related environment cleared.
pub fn program(name: &str) -> Command {
    let mut cmd = Command::cargo_bin(name).expect("the program is built");
    cmd.env_remove("NO_COLOR").env_remove("TERM");
    cmd
}

/// Says why a test cannot run on this machine (a tool, a device or a privilege is missing). With
/// `UTF8KIT_NO_SKIP=1` in the environment (a CI machine that has everything) a skip is a failure,
/// so that no test passes silently without running.
pub fn skip(why: &str) {
    assert!(
        std::env::var_os("UTF8KIT_NO_SKIP").is_none_or(|v| v != "1"),
        "{why}: the test cannot run here, and UTF8KIT_NO_SKIP=1 forbids skipping it"
    );
    eprintln!("{why}: test skipped");
}

/// The bytes of `name` in the shared conformance folder's `dir`, or `None` (through [`skip`])
/// where the folder is not beside the repository.
pub fn conformance_bytes(dir: &str, name: &str) -> Option<Vec<u8>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance")
        .join(dir)
        .join(name);
    let bytes = std::fs::read(&path).ok();
    if bytes.is_none() {
        skip(&format!(
            "{dir} conformance data absent: {} (the shared conformance folder is not beside the \
             repository)",
            path.display()
        ));
    }
    bytes
}

/// `PATH` with the directory of the built programs first, for commands run through a shell as a
/// user types them.
pub fn path_with_programs() -> std::ffi::OsString {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_utf8check"))
        .parent()
        .unwrap()
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest))).unwrap()
}

/// The path of a fixture file.
pub fn fixture(program: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(program)
        .join(name)
}

/// Standard output as text.
pub fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("output is UTF-8")
}

/// JSON Lines parsed into values.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Writes `files` (path, bytes) under `root`, creating directories.
pub fn write_tree(root: &std::path::Path, files: &[(&str, &[u8])]) {
    for (path, bytes) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// The names in a directory, sorted.
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
