//! `utf8fix --names`: rename files and directories whose names are not UTF-8 (or, when asked,
//! not in NFC, or mojibake), convmv's job done safely (SPEC 5).
//!
//! Nothing is renamed without `--apply`: each change is shown as `OLD -> NEW`. Renames go deepest
//! first, so that the paths still to do stay valid; none replaces an existing name (the kernel's
//! `RENAME_NOREPLACE` where it has it); two names that would become one are both left.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::input::io_reason;
use crate::names::Renaming;
use crate::output::Messages;
use crate::render;
use crate::status::Status;

/// What `--names` was asked to do.
#[derive(Clone, Debug)]
pub struct NameSettings {
    /// The paths named on the command line.
    pub paths: Vec<PathBuf>,
    /// Walk directories (`-r`).
    pub recursive: bool,
    /// What a name becomes.
    pub renaming: Renaming,
    /// Rename; otherwise only show.
    pub apply: bool,
    /// Exit 1 when a name needs (or got) a change.
    pub check: bool,
    /// Write each change as the old path's exact bytes, NUL, the new path's, NUL (`-0`), for
    /// `xargs -0` and for names that hold ` -> ` or a newline.
    pub null: bool,
}

/// One name to look at: the directory it is in and the name.
struct Entry {
    directory: PathBuf,
    name: Vec<u8>,
}

impl Entry {
    fn path(&self) -> PathBuf {
        self.directory.join(OsStr::from_bytes(&self.name))
    }
}

/// Runs `utf8fix --names`, writing `OLD -> NEW` lines to `out`.
///
/// # Errors
///
/// A failure to write to `out`.
pub fn run(
    settings: &NameSettings,
    out: &mut dyn io::Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    let mut entries = Vec::new();
    for path in &settings.paths {
        let metadata = match fs::symlink_metadata(path) {
            Ok(metadata) => metadata,
            Err(error) => {
                messages.trouble(&render::path(path), io_reason(&error));
                continue;
            }
        };
        if settings.recursive && metadata.is_dir() {
            collect(path, &mut entries, messages);
        } else if metadata.is_dir() {
            // As `mv` and `convmv` without -r: the directory's own name only, said aloud.
            messages.note(format_args!(
                "{}: a directory: only its own name is looked at; -r takes what it holds too",
                render::path(path)
            ));
        }
        // The operand's own name last (a path such as `.` has none).
        if let (Some(name), Some(directory)) = (path.file_name(), path.parent()) {
            entries.push(Entry {
                directory: directory.to_path_buf(),
                name: name.as_bytes().to_vec(),
            });
        }
    }
    // An entry reached twice (`d d`, `. d`, `d d/sub`) is one entry; and every entry comes
    // before the directory that holds it, whatever the order of the operands (`d d/x`), so that
    // no rename moves a path still to do.
    let mut seen = HashSet::new();
    entries.retain(|entry| seen.insert(normalized(&entry.path())));
    entries.sort_by_key(|entry| std::cmp::Reverse(normalized(&entry.path()).components().count()));
    // The new name of each entry that changes, deepest first.
    let mut planned: Vec<(Entry, Vec<u8>)> = Vec::new();
    for entry in entries {
        match settings.renaming.apply(&entry.name) {
            Ok(Some(new)) => planned.push((entry, new)),
            Ok(None) => {}
            Err(reason) => messages.trouble(&render::path(&entry.path()), reason),
        }
    }
    // Two names that would become one, in one directory: both are left.
    let mut targets: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (entry, new) in &planned {
        *targets
            .entry(entry.directory.join(OsStr::from_bytes(new)))
            .or_default() += 1;
    }
    let mut changes = 0u64;
    let mut reported = HashSet::new();
    for (entry, new) in &planned {
        let old = entry.path();
        let target = entry.directory.join(OsStr::from_bytes(new));
        if targets[&target] > 1 {
            if reported.insert(target.clone()) {
                let sources: Vec<String> = planned
                    .iter()
                    .filter(|(e, n)| e.directory == entry.directory && n == new)
                    .map(|(e, _)| render::path(&e.path()).into_owned())
                    .collect();
                messages.trouble(
                    &render::path(&target),
                    format_args!(
                        "not renamed: {} would each get this name; all are left as they are",
                        sources.join(" and ")
                    ),
                );
            }
            continue;
        }
        if fs::symlink_metadata(&target).is_ok() {
            messages.trouble(
                &render::path(&old),
                format_args!(
                    "not renamed: {} exists, and is never replaced",
                    render::path(&target)
                ),
            );
            continue;
        }
        if settings.apply
            && let Err(error) = rename_no_replace(&old, &target)
        {
            messages.trouble(
                &render::path(&old),
                format_args!("not renamed: {}", io_reason(&error)),
            );
            continue;
        }
        changes += 1;
        if settings.null {
            for path in [&old, &target] {
                out.write_all(path.as_os_str().as_bytes())?;
                out.write_all(b"\0")?;
            }
        } else {
            writeln!(out, "{} -> {}", render::path(&old), render::path(&target))?;
        }
    }
    if !settings.apply && changes > 0 {
        let plural = if changes == 1 { "" } else { "s" };
        messages.note(format_args!(
            "{changes} name{plural} would change; nothing was renamed (add --apply to rename)"
        ));
    }
    Ok(if settings.check && changes > 0 {
        Status::Problems
    } else {
        Status::Clean
    })
}

/// A path without its `.` components: `./d/x` and `d/x` name one entry.
fn normalized(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

/// Every entry under `directory`, each directory's entries before the directory itself (so that
/// renaming in this order keeps the later paths valid), sorted by name. Symbolic links are
/// entries, never followed.
fn collect(directory: &Path, entries: &mut Vec<Entry>, messages: &mut Messages) {
    let read = match fs::read_dir(directory) {
        Ok(read) => read,
        Err(error) => {
            messages.trouble(&render::path(directory), io_reason(&error));
            return;
        }
    };
    let mut names: Vec<(Vec<u8>, bool)> = Vec::new();
    for item in read {
        match item {
            Ok(item) => {
                let is_dir = item.file_type().is_ok_and(|t| t.is_dir());
                names.push((item.file_name().as_bytes().to_vec(), is_dir));
            }
            Err(error) => messages.trouble(&render::path(directory), io_reason(&error)),
        }
    }
    names.sort();
    // What `.` holds is shown without `./`, as utf8check -r . shows it.
    let shown = if directory == Path::new(".") {
        Path::new("")
    } else {
        directory
    };
    for (name, is_dir) in names {
        if is_dir {
            collect(&shown.join(OsStr::from_bytes(&name)), entries, messages);
        }
        entries.push(Entry {
            directory: shown.to_path_buf(),
            name,
        });
    }
}

/// Renames `old` to `new` unless `new` exists: atomically with `renameat2(RENAME_NOREPLACE)`;
/// where the kernel or file system lacks it, after checking that `new` does not exist.
fn rename_no_replace(old: &Path, new: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, old, CWD, new, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            // The kernel or the file system lacks it.
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {}
            Err(error) => return Err(error.into()),
        }
    }
    if fs::symlink_metadata(new).is_ok() {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    fs::rename(old, new)
}
