//! The generator of utf8kit's man pages (`man/`) and shell completions (`completions/`).
//!
//! Both are rendered from the programs' clap definitions ([`utf8kit::commands`]), so they cannot
//! drift from `--help`. `cargo run -p utf8kit-gen` writes them; the test of this crate fails when
//! a committed file differs from what the definitions give today.
//!
//! ```
//! let files = utf8kit_gen::render();
//! assert!(files.iter().any(|f| f.path == "man/utf8check.1"));
//! assert!(files.iter().any(|f| f.path == "completions/utf8check.bash"));
//! ```

#![deny(missing_docs)]

use clap_complete::Shell;

/// One generated file: its path from the workspace root, and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The path relative to the workspace root, with `/` separators.
    pub path: String,
    /// The file's contents.
    pub contents: Vec<u8>,
}

/// The shells completions are written for, and each one's file name for program `name`.
pub fn completion_files(name: &str) -> [(Shell, String); 5] {
    [
        (Shell::Bash, format!("{name}.bash")),
        (Shell::Zsh, format!("_{name}")),
        (Shell::Fish, format!("{name}.fish")),
        (Shell::Elvish, format!("{name}.elv")),
        (Shell::PowerShell, format!("_{name}.ps1")),
    ]
}

/// Renders every man page and completion file of every program, as `PROGRAM --generate KIND`
/// prints them.
pub fn render() -> Vec<Generated> {
    use utf8kit::cli::{generate, Generate};
    let mut files = Vec::new();
    for command in utf8kit::commands() {
        let name = command.get_name().to_owned();
        files.push(Generated {
            path: format!("man/{name}.1"),
            contents: generate(Generate::Man, command.clone()),
        });
        for (shell, file) in completion_files(&name) {
            let kind = match shell {
                Shell::Bash => Generate::CompleteBash,
                Shell::Zsh => Generate::CompleteZsh,
                Shell::Fish => Generate::CompleteFish,
                Shell::Elvish => Generate::CompleteElvish,
                _ => Generate::CompletePowershell,
            };
            files.push(Generated {
                path: format!("completions/{file}"),
                contents: generate(kind, command.clone()),
            });
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The committed pages and completions are what the clap definitions give today.
    #[test]
    fn committed_files_are_current() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut stale = Vec::new();
        for file in super::render() {
            let committed = std::fs::read(root.join(&file.path)).unwrap_or_default();
            if committed != file.contents {
                stale.push(file.path);
            }
        }
        assert!(
            stale.is_empty(),
            "stale generated files {stale:?}: run `cargo run -p utf8kit-gen` and commit them"
        );
    }

    #[test]
    fn every_program_gets_a_page_and_five_completions() {
        let files = super::render();
        let programs = utf8kit::commands().len();
        assert_eq!(files.len(), programs * 6);
        for file in &files {
            assert!(!file.contents.is_empty(), "{} is empty", file.path);
        }
    }
}
