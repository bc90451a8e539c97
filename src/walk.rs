//! Which inputs a run reads, and in what order: operands, `--files-from` lists and recursive
//! walks (SPEC 3).
//!
//! A walk uses the `ignore` crate, as ripgrep does: `.gitignore`, `.ignore` and git's exclude
//! files are honoured (inside a git repository or not), hidden files and directories are skipped,
//! symbolic links are followed with loops detected, and entries come in sorted order so that the
//! output does not depend on the file system or on the number of threads.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ignore::overrides::{Override, OverrideBuilder};
use ignore::WalkBuilder;

use crate::input::{io_reason, Source};

/// How directories are walked.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Walk directories named as inputs (`-r`).
    pub recursive: bool,
    /// Include hidden files and directories (`--hidden`).
    pub hidden: bool,
    /// Ignore `.gitignore`, `.ignore` and git's exclude files (`--no-ignore`).
    pub no_ignore: bool,
    /// Glob patterns (`!` to exclude), matched like `.gitignore` lines relative to each walked
    /// directory (`--glob`).
    pub globs: Vec<String>,
}

impl WalkOptions {
    /// Checks the glob patterns once, so that a bad one is a usage error before any input is read.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a valid glob, with the reason.
    pub fn validate(&self) -> Result<(), String> {
        self.overrides(Path::new(".")).map(|_| ())
    }

    fn overrides(&self, root: &Path) -> Result<Override, String> {
        let mut builder = OverrideBuilder::new(root);
        for glob in &self.globs {
            builder
                .add(glob)
                .map_err(|e| format!("invalid glob '{glob}': {}", glob_reason(&e)))?;
        }
        builder.build().map_err(|e| e.to_string())
    }
}

/// One thing to do, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Check an input. `from_walk` is true for files found by a walk, which are skipped when
    /// they look binary; a file named explicitly is always checked.
    Check {
        /// The input.
        source: Source,
        /// Found by a walk rather than named.
        from_walk: bool,
    },
    /// Report trouble met while listing inputs: `path: reason`.
    Trouble {
        /// The path concerned.
        path: String,
        /// Why it could not be listed.
        reason: String,
    },
}

/// Produces the jobs for `operands` then the paths of `files_from`, walking directories when
/// `options.recursive` is set. With neither operands nor a list, a recursive run walks the
/// current directory (paths shown without a leading `./`) and any other run reads standard input.
pub fn jobs(
    operands: &[Source],
    files_from: Option<&FilesFrom>,
    options: &WalkOptions,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if operands.is_empty() && files_from.is_none() {
        if options.recursive {
            return walk(Path::new("."), true, options, emit);
        }
        return emit(Job::Check {
            source: Source::Stdin,
            from_walk: false,
        });
    }
    for source in operands {
        named(source.clone(), options, emit)?;
    }
    if let Some(list) = files_from {
        match list.read() {
            Ok(paths) => {
                for path in paths {
                    named(Source::Path(path), options, emit)?;
                }
            }
            Err(error) => emit(Job::Trouble {
                path: list.display_name(),
                reason: io_reason(&error),
            })?,
        }
    }
    ControlFlow::Continue(())
}

/// A path named on the command line or in a list: walked if it is a directory and `-r` is set,
/// else checked as it is (a directory then fails to read, as grep reports it).
fn named(
    source: Source,
    options: &WalkOptions,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if let Source::Path(path) = &source {
        if options.recursive && fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return walk(path, false, options, emit);
        }
    }
    emit(Job::Check {
        source,
        from_walk: false,
    })
}

fn walk(
    root: &Path,
    strip_dot: bool,
    options: &WalkOptions,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let overrides = match options.overrides(root) {
        Ok(overrides) => overrides,
        Err(reason) => {
            return emit(Job::Trouble {
                path: root.display().to_string(),
                reason,
            })
        }
    };
    let honour = !options.no_ignore;
    let walker = WalkBuilder::new(root)
        .hidden(!options.hidden)
        .ignore(honour)
        .git_ignore(honour)
        .git_exclude(honour)
        .git_global(honour)
        .parents(honour)
        .require_git(false)
        .follow_links(true)
        .overrides(overrides)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                // Only regular files: a FIFO or a device found by a walk would block or never end.
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let path = match entry.path().strip_prefix("./") {
                    Ok(relative) if strip_dot => relative.to_path_buf(),
                    _ => entry.into_path(),
                };
                emit(Job::Check {
                    source: Source::Path(path),
                    from_walk: true,
                })?;
            }
            Err(error) => {
                let shown = |path: &Path| match path.strip_prefix("./") {
                    Ok(relative) if strip_dot => relative.display().to_string(),
                    _ => path.display().to_string(),
                };
                let (path, reason) = describe(&error, &shown);
                let path = shown(path.unwrap_or(root));
                emit(Job::Trouble { path, reason })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The path and the reason of a walk error, in the `PATH: reason` form of every message.
fn describe<'e>(
    error: &'e ignore::Error,
    shown: &dyn Fn(&Path) -> String,
) -> (Option<&'e Path>, String) {
    match error {
        ignore::Error::WithPath { path, err } => (Some(path), describe(err, shown).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            describe(err, shown)
        }
        ignore::Error::Loop { ancestor, child } => (
            Some(child),
            format!(
                "symbolic link loop: leads back to {}, not followed",
                shown(ancestor)
            ),
        ),
        ignore::Error::Io(error) => (None, io_reason(innermost_io_error(error))),
        ignore::Error::Partial(errors) => match errors.first() {
            Some(first) => describe(first, shown),
            None => (None, error.to_string()),
        },
        other => (None, other.to_string()),
    }
}

/// The walker wraps the operating system's error in its own (whose text repeats the path):
/// find the innermost I/O error, whose reason is what the message needs.
fn innermost_io_error(error: &io::Error) -> &io::Error {
    let mut innermost = error;
    let mut cause = error.get_ref().and_then(|inner| inner.source());
    while let Some(next) = cause {
        if let Some(io_error) = next.downcast_ref::<io::Error>() {
            innermost = io_error;
        }
        cause = next.source();
    }
    innermost
}

fn glob_reason(error: &ignore::Error) -> String {
    match error {
        ignore::Error::Glob { err, .. } => err.clone(),
        other => other.to_string(),
    }
}

/// A list of paths to check: `--files-from FILE`, one path a line, or NUL-separated with `-0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilesFrom {
    /// The list's own source (`-` for standard input).
    pub source: Source,
    /// Paths end with NUL rather than LF (`find -print0`, `git ls-files -z`).
    pub nul_separated: bool,
}

impl FilesFrom {
    fn display_name(&self) -> String {
        self.source.display_name().into_owned()
    }

    /// Reads the list. Empty entries are skipped; with LF separators a final CR is kept, since
    /// it may be part of a name.
    ///
    /// # Errors
    ///
    /// The error of reading the list.
    pub fn read(&self) -> io::Result<Vec<PathBuf>> {
        let mut bytes = Vec::new();
        match &self.source {
            Source::Stdin => io::stdin().lock().read_to_end(&mut bytes)?,
            Source::Path(path) => fs::File::open(path)?.read_to_end(&mut bytes)?,
        };
        Ok(split_list(&bytes, self.nul_separated))
    }
}

/// Splits a list of paths at LF or NUL.
pub fn split_list(bytes: &[u8], nul_separated: bool) -> Vec<PathBuf> {
    let separator = if nul_separated { b'\0' } else { b'\n' };
    bytes
        .split(|&b| b == separator)
        .filter(|entry| !entry.is_empty())
        .map(|entry| PathBuf::from(OsStr::from_bytes(entry)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_at_lf_or_nul() {
        let paths = split_list(b"a.txt\n\nsub dir/b.txt\nc\n", false);
        assert_eq!(
            paths,
            ["a.txt", "sub dir/b.txt", "c"].map(PathBuf::from).to_vec()
        );
        let paths = split_list(b"x\ny\0z\0\0", true);
        assert_eq!(paths, ["x\ny", "z"].map(PathBuf::from).to_vec());
        let odd = split_list(b"caf\xe9\n", false);
        assert_eq!(odd[0].as_os_str().as_bytes(), b"caf\xe9");
    }

    #[test]
    fn bad_globs_are_refused() {
        let options = WalkOptions {
            globs: vec!["*.rs".into(), "!{unclosed".into()],
            ..WalkOptions::default()
        };
        let error = options.validate().unwrap_err();
        assert!(error.starts_with("invalid glob '!{unclosed'"), "{error}");
    }
}
