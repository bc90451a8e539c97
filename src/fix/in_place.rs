//! `-i`: repairing a file in place, through `crate::replace` (a new file renamed over the
//! original, carrying its owner, mode and attributes; links and special files handled).

use super::*;
use crate::hint::LegacyTally;

/// A file opened for rewriting in place: where its replacement goes, and what it is now.
pub(super) struct Rewrite {
    /// The name the replacement takes: the operand, or with `--follow-symlinks` the file a
    /// symbolic link leads to.
    pub(super) place: Place,
    /// That name as a path, for messages.
    pub(super) path: PathBuf,
    /// The file, open for reading.
    pub(super) file: File,
    /// Its status, from the open file.
    pub(super) stat: Stat,
    /// Whether the name is a symbolic link that the replacement replaces (the default).
    pub(super) replaces_link: bool,
}

/// Opens `path` for rewriting in place, refusing what must not be rewritten: anything but a
/// regular file (before reading a byte of it), and with `--follow-symlinks` run as root, a
/// link that someone else could have pointed at a file not theirs.
pub(super) fn open_for_rewrite(path: &Path, follow_symlinks: bool) -> Result<Rewrite, String> {
    let reason = |error: io::Error| io_reason(&error);
    let mut place = Place::of(path).map_err(reason)?;
    let mut place_path = path.to_owned();
    let named = place.lstat().map_err(reason)?;
    let replaces_link = named.is_symlink() && !follow_symlinks;
    // The type is known before the file is opened: a FIFO or a device is never read. `before`
    // is what the name (or the link's target) is.
    let before = if replaces_link {
        let target = place.stat().map_err(reason)?;
        refuse_foreign_target(&named, &target)?;
        target
    } else if named.is_symlink() {
        place_path = fs::canonicalize(path).map_err(reason)?;
        let target = Place::of(&place_path).map_err(reason)?;
        let target_stat = target.lstat().map_err(reason)?;
        refuse_unsafe_follow(&place, &named, &target_stat)?;
        place = target;
        target_stat
    } else {
        named
    };
    if before.is_regular() && is_kernel_file(&place_path) {
        return Err(
            "not rewritten: it is a file of the kernel's (/proc, /sys), not text to repair"
                .to_owned(),
        );
    }
    if !before.is_regular() {
        return Err(format!(
            "not rewritten: {} {}, and -i rewrites only regular files",
            if replaces_link {
                "its target is"
            } else {
                "it is"
            },
            before.kind()
        ));
    }
    let file = place.open_read(replaces_link).map_err(reason)?;
    // What was opened is what was looked at: a name swapped in between is refused.
    let stat = Stat::of(&file).map_err(reason)?;
    if !stat.same_file(&before) {
        return Err("not rewritten: the file was replaced while it was opened".to_owned());
    }
    Ok(Rewrite {
        place,
        path: place_path,
        file,
        stat,
        replaces_link,
    })
}

/// Whether a path (or, for a link, its target) lies on one of the kernel's own file systems:
/// /proc, /sys, debugfs, tracefs. Their files look regular but are the kernel's interfaces,
/// some of which wait for ever when read (/proc/kmsg).
fn is_kernel_file(path: &Path) -> bool {
    const PROC: u64 = 0x9FA0;
    const SYSFS: u64 = 0x6265_6572;
    const DEBUGFS: u64 = 0x6462_6720;
    const TRACEFS: u64 = 0x7472_6163;
    rustix::fs::statfs(path).is_ok_and(|fs| {
        #[allow(clippy::unnecessary_cast)] // the field's type differs between C libraries
        let kind = fs.f_type as u64;
        matches!(kind, PROC | SYSFS | DEBUGFS | TRACEFS)
    })
}

/// As root, a link is replaced by a copy of its target only when the link's owner owns the
/// target: a user's link to a file in a directory only root can read would otherwise become a
/// copy the user can read.
fn refuse_foreign_target(link: &Stat, target: &Stat) -> Result<(), String> {
    if rustix::process::geteuid().is_root() && link.uid != target.uid {
        return Err(format!(
            "not rewritten: the link belongs to user {} and its target to user {}; run as root, \
             -i replaces only a link whose owner owns the target",
            link.uid, target.uid
        ));
    }
    Ok(())
}

/// With `--follow-symlinks`, root follows a link only when its owner could have written the
/// target anyway, as the kernel's `protected_symlinks` reasons: the link and its target have
/// one owner, and no one but root can change the link (its directory is not writable by others).
pub(super) fn refuse_unsafe_follow(
    link_place: &Place,
    link: &Stat,
    target: &Stat,
) -> Result<(), String> {
    if !rustix::process::geteuid().is_root() {
        return Ok(());
    }
    if link.uid != target.uid {
        return Err(format!(
            "not rewritten: the link belongs to user {} and its target to user {}; \
             run as root, --follow-symlinks follows only a link whose owner owns the target",
            link.uid, target.uid
        ));
    }
    let directory = link_place.directory_stat().map_err(|e| io_reason(&e))?;
    if directory.mode & 0o022 != 0 || directory.uid != 0 && directory.uid != link.uid {
        return Err(
            "not rewritten: the link is in a directory other users can write, where it could \
             be changed after it was checked; run as root, --follow-symlinks refuses it"
                .to_owned(),
        );
    }
    Ok(())
}

/// Rewrites one file in place, or leaves it untouched when it needs no repair.
pub(super) fn fix_in_place(
    settings: &Settings,
    reader: &mut ChunkReader,
    path: &Path,
    suffix: &str,
    log: &mut RepairLog<'_>,
) -> Result<(), Failure> {
    use std::io::Seek;
    let name = crate::render::path(path).into_owned();
    let mut rewrite = open_for_rewrite(path, settings.follow_symlinks).map_err(Failure::Input)?;
    // With the guard, the count also gathers what it judges: the ill-formed units the repair
    // logs, and the file's start.
    let guards = settings.guards_decodable;
    let mut counter = Fixer::new(settings, true, false);
    if guards {
        counter = counter.with_log();
    }
    let (mut tally, mut head) = (LegacyTally::default(), Vec::new());
    let input = Reading::File(&mut rewrite.file);
    let head_to = guards.then_some(&mut head);
    repair_input(reader, input, &mut counter, None, head_to, &mut |counter| {
        legacy::tally_repairs(&mut tally, counter.take_log());
    })?;
    if counter.repair_count() == 0 {
        log.summary(&name, 0, Some("unchanged"));
        return Ok(());
    }
    if guards
        && let Some(hint) =
            legacy::decodable_hint(reader, &Source::Path(path.to_owned()), &head, tally, true)
    {
        return Err(Failure::Refused(hint));
    }

    let trouble =
        |what: &str, error: io::Error| Failure::Input(format!("{what}: {}", io_reason(&error)));
    rewrite
        .file
        .rewind()
        .map_err(|e| trouble("cannot read the file again", e))?;
    let temporary = PendingFile::create(&rewrite.place)
        .map_err(|e| trouble("cannot create a temporary file", e))?;
    let mut writer = BufWriter::with_capacity(crate::input::CHUNK_LEN, temporary.as_file());
    let mut repairer = log.repairer(Fixer::new(settings, false, false));
    let mut print = |repairer: &mut Fixer| log.print(&name, repairer);
    let input = Reading::File(&mut rewrite.file);
    let written = repair_input(
        reader,
        input,
        &mut repairer,
        Some(&mut writer),
        None,
        &mut print,
    );
    // Writing the temporary file is part of doing this input: its failure is trouble with it.
    match written {
        Err(Failure::Output(error)) => {
            return Err(trouble("cannot write the repaired file", error));
        }
        other => other?,
    }
    writer
        .into_inner()
        .map_err(io::IntoInnerError::into_error)
        .and_then(File::sync_all)
        .map_err(|e| trouble("cannot write the repaired file", e))?;
    // A link replaced by a file: the copy takes the target's owner and permissions, but it sits
    // elsewhere than the target, so it does not become a set-user-ID program there.
    let set_id = if rewrite.replaces_link {
        SetId::Drop
    } else {
        SetId::Keep
    };
    carry_over(&rewrite.file, &rewrite.stat, temporary.as_file(), set_id)
        .map_err(|reason| Failure::Input(format!("not rewritten: {reason}")))?;

    let suffix = std::ffi::OsStr::new(suffix);
    let keeps_backup = !suffix.is_empty();
    if keeps_backup {
        rewrite
            .place
            .keep_backup(suffix, &rewrite.file, &rewrite.stat)
            .map_err(|e| {
                let mut backup = rewrite.path.as_os_str().to_owned();
                backup.push(suffix);
                trouble(
                    &format!(
                        "cannot keep the original as {}",
                        crate::render::path(Path::new(&backup))
                    ),
                    e,
                )
            })?;
    }
    if let Err(error) = temporary.persist() {
        if keeps_backup {
            rewrite.place.remove_backup(suffix);
        }
        return Err(trouble("cannot replace the file", error));
    }
    log.summary(&name, repairer.repair_count(), Some("rewritten"));
    Ok(())
}
