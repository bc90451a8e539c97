//! `utf8fix --names`: rename files and directories whose names are not UTF-8 (or, when asked,
//! not in NFC, or mojibake), convmv's job done safely (SPEC 5).
//!
//! Nothing is renamed without `--apply`: each change is shown as `OLD -> NEW`. Renames go deepest
//! first, so that the paths still to do stay valid; none replaces an existing name (the kernel's
//! `RENAME_NOREPLACE` where it has it); two names that would become one are both left. Each
//! rename is made relative to its directory, opened from the operand one step at a time without
//! following a link, and only when the name is still the file the walk found (its device and
//! inode): a directory swapped for a link between the walk and the rename redirects nothing.
//! `--undo-log FILE` records each rename before it is made, and `--undo FILE` replays a log
//! backwards.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::io::{self, Write as _};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
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
    /// Record each rename here before it is made (`--undo-log`).
    pub undo_log: Option<PathBuf>,
    /// Undo the renames this log records instead (`--undo`).
    pub undo: Option<PathBuf>,
}

/// One name to look at: the directory it is in and the name, and how to reach it again.
struct Entry {
    /// The directory as shown (`d/sub`).
    directory: PathBuf,
    name: Vec<u8>,
    /// Where the directory is reached from: the operand's own directory, as typed.
    root: PathBuf,
    /// The directories from `root` down to the entry's, each opened without following a link.
    steps: Vec<Vec<u8>>,
    /// The device and inode of the file the name was when it was found.
    id: (u64, u64),
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
    if let Some(log) = &settings.undo {
        return undo(log, settings.apply, settings.null, out, messages);
    }
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
            collect(path, &mut Vec::new(), path, &mut entries, messages);
        } else if metadata.is_dir() {
            // As `mv` and `convmv` without -r: the directory's own name only, said aloud.
            messages.note(format_args!(
                "{}: a directory: only its own name is looked at; -r takes what it holds too",
                render::path(path)
            ));
        }
        // The operand's own name last (a path such as `.` has none).
        if let (Some(name), Some(directory)) = (path.file_name(), path.parent()) {
            let root = if directory.as_os_str().is_empty() {
                Path::new(".")
            } else {
                directory
            };
            entries.push(Entry {
                directory: directory.to_path_buf(),
                name: name.as_bytes().to_vec(),
                root: root.to_path_buf(),
                steps: Vec::new(),
                id: (metadata.dev(), metadata.ino()),
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
    let mut undo_log = match &settings.undo_log {
        Some(path) if settings.apply && !planned.is_empty() => match UndoLog::create(path) {
            Ok(log) => Some(log),
            Err(error) => {
                messages.trouble(
                    &render::path(path),
                    format_args!(
                        "cannot write the undo log: {}; nothing was renamed",
                        io_reason(&error)
                    ),
                );
                return Ok(Status::Trouble);
            }
        },
        _ => None,
    };
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
        if let Some(log) = &mut undo_log
            && let Err(error) = log.record(&old, &target)
        {
            messages.trouble(
                &render::path(&log.path),
                format_args!(
                    "cannot write the undo log: {}; nothing more is renamed",
                    io_reason(&error)
                ),
            );
            return Ok(Status::Trouble);
        }
        if settings.apply
            && let Err(error) = rename_entry(entry, new)
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

/// Every entry under `directory` (reached from the operand `root` through `steps`), each
/// directory's entries before the directory itself (so that renaming in this order keeps the
/// later paths valid), sorted by name. Symbolic links are entries, never followed.
fn collect(
    directory: &Path,
    steps: &mut Vec<Vec<u8>>,
    root: &Path,
    entries: &mut Vec<Entry>,
    messages: &mut Messages,
) {
    let read = match fs::read_dir(directory) {
        Ok(read) => read,
        Err(error) => {
            messages.trouble(&render::path(directory), io_reason(&error));
            return;
        }
    };
    let mut names: Vec<(Vec<u8>, bool, (u64, u64))> = Vec::new();
    for item in read {
        // The entry's own metadata: a link is the link, not what it points to.
        match item.and_then(|item| Ok((item.file_name(), item.metadata()?))) {
            Ok((name, metadata)) => names.push((
                name.as_bytes().to_vec(),
                metadata.is_dir(),
                (metadata.dev(), metadata.ino()),
            )),
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
    for (name, is_dir, id) in names {
        if is_dir {
            steps.push(name.clone());
            collect(
                &shown.join(OsStr::from_bytes(&name)),
                steps,
                root,
                entries,
                messages,
            );
            steps.pop();
        }
        entries.push(Entry {
            directory: shown.to_path_buf(),
            name,
            root: root.to_path_buf(),
            steps: steps.clone(),
            id,
        });
    }
}

/// Opens the directory at `steps` under `root`: `root` as typed, then each step without
/// following a link, so that no directory swapped for a link since the walk is entered.
fn open_directory(root: &Path, steps: &[Vec<u8>]) -> io::Result<rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let mut directory = rustix::fs::open(root, flags, Mode::empty())?;
    for step in steps {
        directory = rustix::fs::openat(
            &directory,
            OsStr::from_bytes(step),
            flags | OFlags::NOFOLLOW,
            Mode::empty(),
        )?;
    }
    Ok(directory)
}

/// Renames an entry to `new` in its directory, if its name is still the file the walk found.
fn rename_entry(entry: &Entry, new: &[u8]) -> io::Result<()> {
    let directory = open_directory(&entry.root, &entry.steps)?;
    let name = OsStr::from_bytes(&entry.name);
    let stat = rustix::fs::statat(&directory, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)?;
    if (stat.st_dev as u64, stat.st_ino as u64) != entry.id {
        return Err(io::Error::other(
            "it is no longer the file that was read (replaced since)",
        ));
    }
    rename_no_replace(&directory, name, OsStr::from_bytes(new))
}

/// Renames `old` to `new` in `directory` unless `new` exists: atomically with
/// `renameat2(RENAME_NOREPLACE)`; where the kernel or file system lacks it, after checking that
/// `new` does not exist.
fn rename_no_replace(directory: &rustix::fd::OwnedFd, old: &OsStr, new: &OsStr) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    {
        use rustix::fs::{RenameFlags, renameat_with};
        match renameat_with(directory, old, directory, new, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            // The kernel or the file system lacks it.
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {}
            Err(error) => return Err(error.into()),
        }
    }
    if rustix::fs::statat(directory, new, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).is_ok() {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    Ok(rustix::fs::renameat(directory, old, directory, new)?)
}

/// The undo log (`--undo-log FILE`): a first line that says what the file is, the directory
/// the paths are relative to and a NUL, then for each rename, before it is made, the old path,
/// a NUL, the new path and a NUL, each as its exact bytes, synced to disk.
struct UndoLog {
    file: fs::File,
    path: PathBuf,
}

/// The first line of an undo log.
const UNDO_HEADER: &[u8] = b"utf8fix undo log 1\n";

impl UndoLog {
    fn create(path: &Path) -> io::Result<UndoLog> {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?;
        let here = std::env::current_dir()?;
        file.write_all(UNDO_HEADER)?;
        file.write_all(here.as_os_str().as_bytes())?;
        file.write_all(b"\0")?;
        file.sync_data()?;
        Ok(UndoLog {
            file,
            path: path.to_path_buf(),
        })
    }

    fn record(&mut self, old: &Path, new: &Path) -> io::Result<()> {
        for path in [old, new] {
            self.file.write_all(path.as_os_str().as_bytes())?;
            self.file.write_all(b"\0")?;
        }
        self.file.sync_data()
    }
}

/// Replays an undo log backwards (`--undo FILE`): each rename it records is made in reverse,
/// last first, shown as `NEW -> OLD`, and made only with `--apply`. A rename the log records
/// but that was never made (its new name is missing and its old name is there) is passed over.
fn undo(
    log: &Path,
    apply: bool,
    null: bool,
    out: &mut dyn io::Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    let text = match fs::read(log) {
        Ok(text) => text,
        Err(error) => {
            messages.trouble(&render::path(log), io_reason(&error));
            return Ok(Status::Trouble);
        }
    };
    let Some(rest) = text.strip_prefix(UNDO_HEADER) else {
        messages.trouble(&render::path(log), "not an undo log of utf8fix --names");
        return Ok(Status::Trouble);
    };
    let mut fields: Vec<&[u8]> = rest.split(|&b| b == 0).collect();
    // The last NUL ends the last field: what follows it is empty (or a record cut short).
    if fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    if fields.is_empty() || fields.len().is_multiple_of(2) {
        messages.trouble(
            &render::path(log),
            "a damaged undo log (a record cut short)",
        );
        return Ok(Status::Trouble);
    }
    let here = PathBuf::from(OsStr::from_bytes(fields[0]));
    let mut status = Status::Clean;
    let mut changes = 0u64;
    for pair in fields[1..].chunks(2).rev() {
        let (old, new) = (
            Path::new(OsStr::from_bytes(pair[0])),
            Path::new(OsStr::from_bytes(pair[1])),
        );
        let (Some(parent), Some(old_name), Some(new_name)) =
            (new.parent(), old.file_name(), new.file_name())
        else {
            messages.trouble(
                &render::path(log),
                "a damaged undo log (a path without a name)",
            );
            return Ok(Status::Trouble);
        };
        let steps: Vec<Vec<u8>> = parent
            .components()
            .filter(|c| {
                matches!(
                    c,
                    std::path::Component::Normal(_) | std::path::Component::ParentDir
                )
            })
            .map(|c| c.as_os_str().as_bytes().to_vec())
            .collect();
        let root = if parent.is_absolute() {
            Path::new("/")
        } else {
            here.as_path()
        };
        // Without --apply the plan is shown as the log has it: the directories of the later
        // records get their old names back only as the earlier ones are undone.
        let result = if apply {
            open_directory(root, &steps).and_then(|directory| {
                let exists = |name: &OsStr| {
                    rustix::fs::statat(&directory, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                        .is_ok()
                };
                match (exists(new_name), exists(old_name)) {
                    (false, true) => Ok(false),
                    _ => rename_no_replace(&directory, new_name, old_name).map(|()| true),
                }
            })
        } else {
            Ok(true)
        };
        match result {
            Ok(false) => messages.note(format_args!(
                "{}: never renamed to {}; nothing to undo",
                render::path(old),
                render::path(new)
            )),
            Ok(true) => {
                changes += 1;
                if null {
                    for path in [new, old] {
                        out.write_all(path.as_os_str().as_bytes())?;
                        out.write_all(b"\0")?;
                    }
                } else {
                    writeln!(out, "{} -> {}", render::path(new), render::path(old))?;
                }
            }
            Err(error) => {
                status = Status::Trouble;
                messages.trouble(
                    &render::path(new),
                    format_args!("not renamed back: {}", io_reason(&error)),
                );
            }
        }
    }
    if !apply && changes > 0 {
        let plural = if changes == 1 { "" } else { "s" };
        messages.note(format_args!(
            "{changes} rename{plural} would be undone; nothing was renamed (add --apply to rename)"
        ));
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry the walk finds for `name` in `directory` (under `root`, through `steps`).
    fn found(root: &Path, steps: &[&str], name: &str) -> Entry {
        let mut directory = root.to_path_buf();
        for step in steps {
            directory.push(step);
        }
        let metadata = fs::symlink_metadata(directory.join(name)).unwrap();
        Entry {
            directory,
            name: name.as_bytes().to_vec(),
            root: root.to_path_buf(),
            steps: steps.iter().map(|s| s.as_bytes().to_vec()).collect(),
            id: (metadata.dev(), metadata.ino()),
        }
    }

    #[test]
    fn a_directory_swapped_for_a_link_redirects_no_rename() {
        let tree = tempfile::tempdir().unwrap();
        let root = tree.path();
        fs::create_dir_all(root.join("d")).unwrap();
        fs::create_dir_all(root.join("elsewhere")).unwrap();
        fs::write(root.join("d/x"), "mine").unwrap();
        fs::write(root.join("elsewhere/x"), "theirs").unwrap();
        let entry = found(root, &["d"], "x");
        // Between the walk and the rename, d becomes a link to another directory.
        fs::rename(root.join("d"), root.join("d.old")).unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere"), root.join("d")).unwrap();
        assert!(rename_entry(&entry, b"y").is_err());
        assert_eq!(
            fs::read_to_string(root.join("elsewhere/x")).unwrap(),
            "theirs"
        );
        assert!(!root.join("elsewhere/y").exists());
    }

    #[test]
    fn a_name_that_is_another_file_now_is_left() {
        let tree = tempfile::tempdir().unwrap();
        let root = tree.path();
        fs::write(root.join("x"), "found").unwrap();
        let entry = found(root, &[], "x");
        fs::rename(root.join("x"), root.join("x.old")).unwrap();
        fs::write(root.join("x"), "swapped in").unwrap();
        let error = rename_entry(&entry, b"y").unwrap_err();
        assert!(error.to_string().contains("no longer the file"), "{error}");
        assert_eq!(fs::read_to_string(root.join("x")).unwrap(), "swapped in");
        // The file the walk found, under its name, is renamed.
        fs::rename(root.join("x"), root.join("z")).unwrap();
        fs::rename(root.join("x.old"), root.join("x")).unwrap();
        rename_entry(&entry, b"y").unwrap();
        assert_eq!(fs::read_to_string(root.join("y")).unwrap(), "found");
    }
}
