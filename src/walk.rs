//! Which inputs a run reads, and in what order: operands, `--files-from`/`--files0-from` lists
//! and recursive walks (SPEC 2, 3).
//!
//! A walk uses the `ignore` crate, as ripgrep does: `.gitignore`, `.ignore` and git's exclude
//! files are honoured (inside a git repository or not), hidden files and directories are skipped,
//! symbolic links are not followed unless asked (and then never into `/proc`, `/sys` or `/dev`),
//! and entries come in sorted order so that the output does not depend on the file system or on
//! the number of threads. Inside a git work tree the walk also takes every file git tracks under
//! its root, whatever ignore files or hidden names say: a gate cannot be talked out of a file.

use std::cmp::Ordering;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ignore::WalkBuilder;
use ignore::overrides::{Override, OverrideBuilder};

use crate::input::{Source, io_reason};
use crate::render;

/// How directories are walked.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Walk directories named as inputs (`-r`).
    pub recursive: bool,
    /// Include hidden files and directories (`--hidden`).
    pub hidden: bool,
    /// Ignore `.gitignore`, `.ignore` and git's exclude files (`--no-ignore`).
    pub no_ignore: bool,
    /// Follow symbolic links found by a walk or in a list (`--follow`).
    pub follow: bool,
    /// Glob patterns (`!` to exclude), matched like `.gitignore` lines relative to each walked
    /// directory (`--glob`).
    pub globs: Vec<String>,
    /// Directory names in NFC are to be reported too (`--deny non-nfc-name`): see [`Job::Name`].
    pub nfc_names: bool,
}

impl WalkOptions {
    /// Checks the glob patterns once, so that a bad one is a usage error before any input is read.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a valid glob, with the reason.
    pub fn validate(&self) -> Result<(), String> {
        self.overrides(Path::new("."), &self.globs).map(|_| ())
    }

    fn overrides(&self, root: &Path, globs: &[String]) -> Result<Override, String> {
        let mut builder = OverrideBuilder::new(root);
        for glob in globs {
            builder
                .add(glob)
                .map_err(|e| format!("invalid glob '{glob}': {}", glob_reason(&e)))?;
        }
        builder.build().map_err(|e| e.to_string())
    }

    /// The globs that choose files (not the `!` ones).
    fn includes(&self) -> impl Iterator<Item = &String> {
        self.globs.iter().filter(|g| !g.starts_with('!'))
    }
}

/// One thing to do, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Check an input. `from_walk` is true for files found by a walk or a list, which are
    /// skipped when they look binary; a file named as an operand is always checked.
    Check {
        /// The input.
        source: Source,
        /// Found by a walk or a list rather than named.
        from_walk: bool,
    },
    /// Report trouble met while listing inputs: `path: reason` (the path shown safely).
    Trouble {
        /// The path concerned, shown safely.
        path: String,
        /// Why it could not be listed.
        reason: String,
    },
    /// Report the name of a directory on the path of an input, because it is not UTF-8 (or,
    /// with [`WalkOptions::nfc_names`], not in NFC): once, before the first input under it.
    /// The input's own name is checked with the input.
    Name {
        /// The directory.
        path: PathBuf,
    },
    /// A note that is not trouble: `path: text` (a listed file skipped).
    Note {
        /// The path concerned, shown safely.
        path: String,
        /// What happened.
        text: String,
    },
}

impl Job {
    /// About how many bytes the job and its result hold while they wait to be printed: the
    /// length of its name, kept once in the job and again in what is reported of it.
    pub fn weight(&self) -> usize {
        let name = match self {
            Job::Check {
                source: Source::Stdin,
                ..
            } => 0,
            Job::Check {
                source: Source::Path(path),
                ..
            }
            | Job::Name { path } => path.as_os_str().len(),
            Job::Trouble { path, reason } => path.len() + reason.len(),
            Job::Note { path, text } => path.len() + text.len(),
        };
        2 * name
    }
}

/// Produces the jobs for `operands` then the paths of `files_from`, walking directories when
/// `options.recursive` is set. With neither operands nor a list, a recursive run walks the
/// current directory (paths shown without a leading `./`) and any other run reads standard input.
/// Last, each `--glob` that chose no file is trouble: a typo must not pass as a clean run.
pub fn jobs(
    operands: &[Source],
    files_from: Option<&FilesFrom>,
    options: &WalkOptions,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Each directory whose name is reported, once, before the first input under it. Inputs
    // come directory by directory: a directory just looked at is not looked at again.
    let mut reported = std::collections::HashSet::new();
    let mut last_directory: Option<PathBuf> = None;
    let mut emit = |job: Job| -> ControlFlow<()> {
        if let Job::Check {
            source: Source::Path(path),
            ..
        } = &job
        {
            let directory = path.parent().unwrap_or(Path::new(""));
            if last_directory.as_deref() == Some(directory) {
                return emit(job);
            }
            last_directory = Some(directory.to_path_buf());
            let components = crate::names::components(path);
            let directories = components.len().saturating_sub(1);
            for &(name, directory) in &components[..directories] {
                let is_reported = !crate::names::ill_formed(name).is_empty()
                    || (options.nfc_names && !crate::names::is_nfc(name));
                if is_reported && reported.insert(directory.to_path_buf()) {
                    emit(Job::Name {
                        path: directory.to_path_buf(),
                    })?;
                }
            }
        }
        emit(job)
    };
    let emit: &mut dyn FnMut(Job) -> ControlFlow<()> = &mut emit;
    let mut globs = GlobUse::new(options);
    if operands.is_empty() && files_from.is_none() {
        if options.recursive {
            walk(Path::new("."), true, options, &mut globs, emit)?;
            return globs.report(emit);
        }
        emit(Job::Check {
            source: Source::Stdin,
            from_walk: false,
        })?;
        return globs.report(emit);
    }
    for source in operands {
        if let Source::Path(path) = source
            && options.recursive
            && fs::metadata(path).is_ok_and(|m| m.is_dir())
        {
            // `-r .` names what it finds as a bare `-r` does: relative to the start, no `./`.
            walk(path, path == Path::new("."), options, &mut globs, emit)?;
            continue;
        }
        emit(Job::Check {
            source: source.clone(),
            from_walk: false,
        })?;
    }
    if let Some(list) = files_from {
        let read =
            list.for_each(&mut |path| listed(path, list.ignore_missing, options, &mut globs, emit));
        match read {
            Ok(flow) => flow?,
            Err(error) => emit(Job::Trouble {
                path: list.display_name(),
                reason: io_reason(&error),
            })?,
        }
    }
    globs.report(emit)
}

/// A path from a list, treated as a walk treats what it finds: a directory is walked with `-r`
/// (a submodule, which a list of changed files names as one path, always), a symbolic link is followed only with `--follow`, anything but a regular file is skipped with a
/// note, and a missing file is trouble (or, with `--ignore-missing`, a note).
fn listed(
    path: PathBuf,
    ignore_missing: bool,
    options: &WalkOptions,
    globs: &mut GlobUse,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let shown = render::path(&path).into_owned();
    let metadata = match fs::symlink_metadata(&path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == io::ErrorKind::NotFound && ignore_missing => {
            return emit(Job::Note {
                path: shown,
                text: "skipped: no such file (--ignore-missing)".into(),
            });
        }
        Err(error) => {
            return emit(Job::Trouble {
                path: shown,
                reason: io_reason(&error),
            });
        }
    };
    let metadata = if metadata.file_type().is_symlink() {
        if !options.follow {
            return emit(Job::Note {
                path: shown,
                text: "skipped: a symbolic link (--follow follows it)".into(),
            });
        }
        if leads_to_system_files(&path) {
            return emit(Job::Note {
                path: shown,
                text: "skipped: a symbolic link into /proc, /sys or /dev".into(),
            });
        }
        match fs::metadata(&path) {
            Ok(metadata) => metadata,
            Err(error) => {
                return emit(Job::Trouble {
                    path: shown,
                    reason: io_reason(&error),
                });
            }
        }
    } else {
        metadata
    };
    // A submodule (a directory with its own `.git`) is how a change list names a gitlink: what
    // the change brings is inside it, so it is walked as a root even without -r.
    if metadata.is_dir() && (options.recursive || path.join(".git").exists()) {
        return walk(&path, false, options, globs, emit);
    }
    if !metadata.is_file() {
        let what = if metadata.is_dir() {
            "a directory (-r walks it)"
        } else {
            "not a regular file"
        };
        return emit(Job::Note {
            path: shown,
            text: format!("skipped: {what}"),
        });
    }
    emit(Job::Check {
        source: Source::Path(path),
        from_walk: true,
    })
}

/// Whether a path leads, through symbolic links, into the kernel's virtual file systems, where a
/// read can block forever (`/proc/kmsg`) or never end.
fn leads_to_system_files(path: &Path) -> bool {
    fs::canonicalize(path).is_ok_and(|real| {
        ["/proc", "/sys", "/dev"]
            .iter()
            .any(|system| real.starts_with(system))
    })
}

/// Which include globs chose at least one file.
struct GlobUse {
    includes: Vec<(String, bool)>,
}

impl GlobUse {
    fn new(options: &WalkOptions) -> GlobUse {
        GlobUse {
            includes: options.includes().map(|g| (g.clone(), false)).collect(),
        }
    }

    /// The include globs that no file has matched yet, each compiled once for a walk of `root`.
    fn unused(&self, options: &WalkOptions, root: &Path) -> Vec<(usize, Override)> {
        self.includes
            .iter()
            .enumerate()
            .filter(|(_, (_, used))| !*used)
            .filter_map(|(i, (glob, _))| {
                let one = options.overrides(root, std::slice::from_ref(glob));
                one.ok().map(|o| (i, o))
            })
            .collect()
    }

    /// Marks the include globs of `unused` that `path` matches, and forgets them there: once
    /// every glob has matched, a file costs nothing.
    fn saw(&mut self, unused: &mut Vec<(usize, Override)>, path: &Path) {
        unused.retain(|(i, one)| {
            let matched = one.matched(path, false).is_whitelist();
            self.includes[*i].1 |= matched;
            !matched
        });
    }

    fn report(&self, emit: &mut dyn FnMut(Job) -> ControlFlow<()>) -> ControlFlow<()> {
        for (glob, _) in self.includes.iter().filter(|(_, used)| !*used) {
            emit(Job::Trouble {
                path: format!("--glob '{}'", render::quoted(glob.as_bytes())),
                reason: "matched no file".into(),
            })?;
        }
        ControlFlow::Continue(())
    }
}

fn walk(
    root: &Path,
    strip_dot: bool,
    options: &WalkOptions,
    globs: &mut GlobUse,
    emit: &mut dyn FnMut(Job) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let shown = |path: &Path| -> String {
        match path.strip_prefix("./") {
            Ok(relative) if strip_dot => render::path(relative).into_owned(),
            _ => render::path(path).into_owned(),
        }
    };
    let relative = |path: PathBuf| -> PathBuf {
        match path.strip_prefix("./") {
            Ok(relative) if strip_dot => relative.to_path_buf(),
            _ => path,
        }
    };
    let overrides = match options.overrides(root, &options.globs) {
        Ok(overrides) => overrides,
        Err(reason) => {
            return emit(Job::Trouble {
                path: shown(root),
                reason,
            });
        }
    };
    // Inside a git work tree, the files git tracks are checked whatever hides them from the walk.
    // The walk visits files in walk order (each directory's names sorted, depth first), and the
    // tracked paths are sorted the same way: the two lists are merged as the walk goes, so that
    // every file is checked once, in one order, and the first results print at once.
    let mut tracked = match tracked_files(root) {
        Ok(tracked) => tracked.map(|mut paths| {
            paths.sort_unstable_by(|a, b| walk_order(a, b));
            paths.into_iter().peekable()
        }),
        Err(reason) => {
            emit(Job::Trouble {
                path: shown(root),
                reason,
            })?;
            None
        }
    };
    let mut unused_globs = globs.unused(options, root);
    let honour = !options.no_ignore;
    let follow = options.follow;
    // A tracked file the walk did not find: checked when it is a regular file (or, with
    // --follow, leads to one) and the globs choose it.
    let emit_hidden = |full: PathBuf,
                       unused: &mut Vec<(usize, Override)>,
                       globs: &mut GlobUse,
                       emit: &mut dyn FnMut(Job) -> ControlFlow<()>|
     -> ControlFlow<()> {
        let Ok(metadata) = fs::symlink_metadata(&full) else {
            return ControlFlow::Continue(());
        };
        let is_file = if metadata.file_type().is_symlink() {
            follow
                && !leads_to_system_files(&full)
                && fs::metadata(&full).is_ok_and(|m| m.is_file())
        } else {
            metadata.is_file()
        };
        // An excluded directory excludes what it holds, as it does in the walk.
        let in_excluded_directory = full
            .ancestors()
            .skip(1)
            .take_while(|a| *a != root)
            .any(|a| overrides.matched(a, true).is_ignore());
        let chosen = match overrides.matched(&full, false) {
            ignore::Match::Ignore(_) => false,
            ignore::Match::Whitelist(_) => true,
            ignore::Match::None => overrides.num_whitelists() == 0,
        } && !in_excluded_directory;
        if !is_file || !chosen {
            return ControlFlow::Continue(());
        }
        globs.saw(unused, &full);
        emit(Job::Check {
            source: Source::Path(relative(full)),
            from_walk: true,
        })
    };
    let walker = WalkBuilder::new(root)
        .hidden(!options.hidden)
        .ignore(honour)
        .git_ignore(honour)
        .git_exclude(honour)
        .git_global(honour)
        .parents(honour)
        .require_git(false)
        .follow_links(follow)
        .overrides(overrides.clone())
        .filter_entry(move |entry| {
            // Never into the kernel's virtual file systems through a followed link.
            let is_followed_directory =
                follow && entry.depth() > 0 && entry.file_type().is_some_and(|t| t.is_dir());
            !(is_followed_directory && leads_to_system_files(entry.path()))
        })
        // Siblings share their parent's path, so their paths' bytes sort as their names do; this
        // compares bytes where a comparison of names would parse each path for its last component.
        .sort_by_file_path(|a, b| a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes()))
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                // An ignore file that cannot be used (a bad line, a pattern set too large) would
                // let the walk check the wrong files: trouble, as ripgrep warns.
                if let Some(error) = entry.error() {
                    let (path, reason) = describe(error, &shown);
                    emit(Job::Trouble {
                        path: shown(path.unwrap_or(entry.path())),
                        reason: format!("ignore file cannot be used: {reason}"),
                    })?;
                }
                // Only regular files: a FIFO or a device found by a walk would block or never end.
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                if follow && entry.path_is_symlink() && leads_to_system_files(entry.path()) {
                    continue;
                }
                let path = entry.into_path();
                if let Some(tracked) = &mut tracked {
                    // The tracked files the walk passed without finding them come first.
                    while let Some(hidden) =
                        tracked.next_if(|t| walk_order(t, &path) == Ordering::Less)
                    {
                        emit_hidden(hidden, &mut unused_globs, globs, emit)?;
                    }
                    tracked.next_if(|t| *t == path);
                }
                globs.saw(&mut unused_globs, &path);
                emit(Job::Check {
                    source: Source::Path(relative(path)),
                    from_walk: true,
                })?;
            }
            Err(error) => {
                let (path, reason) = describe(&error, &shown);
                let is_loop = matches!(innermost(&error), ignore::Error::Loop { .. });
                let path = shown(path.unwrap_or(root));
                // A loop exists only where links are followed: it is skipped with a note.
                emit(if is_loop {
                    Job::Note { path, text: reason }
                } else {
                    Job::Trouble { path, reason }
                })?;
            }
        }
    }
    for hidden in tracked.into_iter().flatten() {
        emit_hidden(hidden, &mut unused_globs, globs, emit)?;
    }
    ControlFlow::Continue(())
}

/// The order a walk visits files in: each directory's names sorted byte by byte, depth first.
/// That is the paths' byte order with the separator below every other byte ("a/b" before
/// "a.txt", as the walk enters directory "a" before it reaches file "a.txt").
fn walk_order(a: &Path, b: &Path) -> Ordering {
    let key = |byte: &u8| if *byte == b'/' { 0 } else { *byte };
    let (a, b) = (a.as_os_str().as_bytes(), b.as_os_str().as_bytes());
    a.iter().map(key).cmp(b.iter().map(key))
}

/// The files git tracks under `root`, as paths that start with `root`; `None` outside a git work
/// tree.
///
/// # Errors
///
/// Git is needed but could not be run, or refused the repository (its first line of error).
fn tracked_files(root: &Path) -> Result<Option<Vec<PathBuf>>, String> {
    let mut git = Command::new("git");
    // The repository is the one `root` is in: an inherited GIT_DIR (git exports it to hooks),
    // GIT_WORK_TREE or GIT_INDEX_FILE must not empty or misdirect the list.
    for (name, _) in std::env::vars_os() {
        if name.as_bytes().starts_with(b"GIT_") && !name.as_bytes().starts_with(b"GIT_CONFIG") {
            git.env_remove(name);
        }
    }
    // Submodules' tracked files are tracked files too.
    let output = git
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "core.fsmonitor=false",
            "ls-files",
            "-z",
            "--cached",
            "--recurse-submodules",
        ])
        .stdin(Stdio::null())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) => {
            let in_git = root
                .canonicalize()
                .is_ok_and(|real| real.ancestors().any(|a| a.join(".git").exists()));
            if in_git {
                return Err(format!(
                    "inside a git work tree, but git could not be run to list the files it \
                     tracks: {}",
                    io_reason(&error)
                ));
            }
            return Ok(None);
        }
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("not a git repository") {
            return Ok(None);
        }
        let first = stderr.lines().next().unwrap_or("failed").trim();
        let first = first.strip_prefix("fatal: ").unwrap_or(first);
        return Err(format!(
            "git could not list the files it tracks: {}",
            render::quoted(first.as_bytes())
        ));
    }
    let paths = output
        .stdout
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .map(|name| root.join(OsStr::from_bytes(name)))
        .collect();
    Ok(Some(paths))
}

fn innermost(error: &ignore::Error) -> &ignore::Error {
    match error {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => innermost(err),
        other => other,
    }
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

/// The options that name a list of files, shared by utf8check and utf8fix (SPEC 2).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ListArgs {
    /// Read more paths from FILE ('-' for standard input), one a line; listed files are treated
    /// as a walk treats the files it finds (one that looks binary is skipped).
    #[arg(long, value_name = "FILE", group = "list")]
    pub files_from: Option<OsString>,

    /// Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and
    /// utf8check -l -0 write them.
    #[arg(long, value_name = "FILE", group = "list")]
    pub files0_from: Option<OsString>,

    /// With --files-from or --files0-from, skip a listed file that does not exist, with a note
    /// (a list of changed files names deleted ones too).
    #[arg(long)]
    pub ignore_missing: bool,
}

impl ListArgs {
    /// The list these options name, if any, checked against the `operands`: standard input is
    /// read by one reader only.
    ///
    /// # Errors
    ///
    /// Standard input named both as an operand and as the list, or twice as an operand.
    pub fn resolve(&self, operands: &[Source]) -> Result<Option<FilesFrom>, String> {
        let list = match (&self.files_from, &self.files0_from) {
            (Some(list), _) => Some((list, false)),
            (None, Some(list)) => Some((list, true)),
            (None, None) => None,
        };
        let list = list.map(|(list, nul_separated)| FilesFrom {
            source: Source::from_operand(list),
            nul_separated,
            ignore_missing: self.ignore_missing,
        });
        let stdin_readers = operands.iter().filter(|s| **s == Source::Stdin).count()
            + usize::from(list.as_ref().is_some_and(|l| l.source == Source::Stdin));
        if stdin_readers > 1 {
            return Err(
                "standard input can be read only once: as one input or as the list of \
                        files, not both"
                    .into(),
            );
        }
        Ok(list)
    }
}

/// A list of paths to check: `--files-from FILE`, one path a line, or `--files0-from FILE`,
/// NUL-separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilesFrom {
    /// The list's own source (`-` for standard input).
    pub source: Source,
    /// Paths end with NUL rather than LF (`find -print0`, `git ls-files -z`).
    pub nul_separated: bool,
    /// A listed file that does not exist is skipped with a note (`--ignore-missing`).
    pub ignore_missing: bool,
}

impl FilesFrom {
    fn display_name(&self) -> String {
        self.source.display_name().into_owned()
    }

    /// Reads the list and gives each path to `each` as it is read, so that a list of any length
    /// takes the memory of one entry. Empty entries are skipped; with LF separators a final CR
    /// is kept, since it may be part of a name.
    ///
    /// # Errors
    ///
    /// The error of opening or reading the list (the paths before it were given).
    pub fn for_each(
        &self,
        each: &mut dyn FnMut(PathBuf) -> ControlFlow<()>,
    ) -> io::Result<ControlFlow<()>> {
        use std::io::BufRead;
        let separator = if self.nul_separated { b'\0' } else { b'\n' };
        let mut reader = io::BufReader::with_capacity(64 * 1024, self.source.open()?);
        let mut entry = Vec::new();
        loop {
            entry.clear();
            if reader.read_until(separator, &mut entry)? == 0 {
                return Ok(ControlFlow::Continue(()));
            }
            if entry.last() == Some(&separator) {
                entry.pop();
            }
            if entry.is_empty() {
                continue;
            }
            if each(PathBuf::from(OsStr::from_bytes(&entry))).is_break() {
                return Ok(ControlFlow::Break(()));
            }
            // A name that was very long does not keep its buffer.
            entry.shrink_to(4096);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_list(bytes: &[u8], nul_separated: bool) -> Vec<PathBuf> {
        let file = tempfile::NamedTempFile::new().unwrap();
        fs::write(file.path(), bytes).unwrap();
        let list = FilesFrom {
            source: Source::Path(file.path().to_owned()),
            nul_separated,
            ignore_missing: false,
        };
        let mut paths = Vec::new();
        let flow = list
            .for_each(&mut |path| {
                paths.push(path);
                ControlFlow::Continue(())
            })
            .unwrap();
        assert!(flow.is_continue());
        paths
    }

    #[test]
    fn lists_split_at_lf_or_nul() {
        let paths = split_list(b"a.txt\n\nsub dir/b.txt\nc\n", false);
        assert_eq!(
            paths,
            ["a.txt", "sub dir/b.txt", "c"].map(PathBuf::from).to_vec()
        );
        let paths = split_list(b"x\ny\0z\0\0", true);
        assert_eq!(paths, ["x\ny", "z"].map(PathBuf::from).to_vec());
        let odd = split_list(b"caf\xe9\r\nlast", false);
        assert_eq!(odd[0].as_os_str().as_bytes(), b"caf\xe9\r");
        assert_eq!(odd[1].as_os_str().as_bytes(), b"last");
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
