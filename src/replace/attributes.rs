//! What the replacement takes over from the original: owner, group, extended attributes, mode.

use std::fs::File;
use std::io;

use rustix::fs::Mode;

/// The parts of a file's status that a rewrite looks at.
use super::stat::Stat;
use super::xattr;

/// Whether [`carry_over`] keeps the set-user-ID and set-group-ID bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetId {
    /// Keep them, as `sed -i` does for the file it rewrites.
    Keep,
    /// Drop them: the copy takes another place than the original (a symbolic link replaced).
    Drop,
}

/// The extended attribute that gives a file capabilities: never carried over, as the kernel
/// removes it whenever a file is written.
const CAPABILITY: &str = "security.capability";

/// Gives `replacement` everything of the original but its content: owner and group, extended
/// attributes (the POSIX ACL is one: `system.posix_acl_access`), and the mode with its
/// set-user-ID, set-group-ID and sticky bits (chown first, as it clears them). An attribute the
/// replacement has and the original has not (a directory's default ACL, inherited) is removed.
///
/// # Errors
///
/// Something could not be carried over: the reason, naming what. The caller then refuses the
/// rewrite; the original is untouched.
pub fn carry_over(
    original: &File,
    stat: &Stat,
    replacement: &File,
    set_id: SetId,
) -> Result<(), String> {
    let reason = |error: &io::Error| crate::input::io_reason(error);
    let current = Stat::of(replacement).map_err(|e| reason(&e))?;
    if (current.uid, current.gid) != (stat.uid, stat.gid) {
        std::os::unix::fs::fchown(replacement, Some(stat.uid), Some(stat.gid)).map_err(|e| {
            format!(
                "cannot give the repaired file the original's owner and group ({}:{}): {}",
                stat.uid,
                stat.gid,
                reason(&e)
            )
        })?;
    }

    let wanted = xattr::list(original)
        .map_err(|e| format!("cannot read the extended attributes: {}", reason(&e)))?;
    for name in &wanted {
        if name.as_bytes() == CAPABILITY.as_bytes() {
            continue;
        }
        let shown = name.to_string_lossy();
        let value = match xattr::get(original, name) {
            Ok(Some(value)) => value,
            // Removed meanwhile.
            Ok(None) => continue,
            Err(e) => {
                return Err(format!(
                    "cannot read the extended attribute {shown}: {}",
                    reason(&e)
                ));
            }
        };
        if let Err(error) = xattr::set(replacement, name, &value) {
            // The system may have given the new file the same value already (an SELinux label).
            if !matches!(xattr::get(replacement, name), Ok(Some(have)) if have == value) {
                return Err(format!(
                    "cannot carry over the extended attribute {shown}: {}",
                    reason(&error)
                ));
            }
        }
    }
    let extra = xattr::list(replacement).unwrap_or_default();
    for name in extra.iter().filter(|name| !wanted.contains(name)) {
        if let Err(error) = xattr::remove(replacement, name) {
            // The system sets security labels on every new file; they are not ours to remove.
            if !name.as_bytes().starts_with(b"security.") {
                return Err(format!(
                    "cannot remove the extended attribute {} the original has not: {}",
                    name.to_string_lossy(),
                    reason(&error)
                ));
            }
        }
    }

    let mut mode = stat.mode & 0o7777;
    if set_id == SetId::Drop {
        mode &= !(Mode::SUID | Mode::SGID).bits();
    }
    rustix::fs::fchmod(replacement, Mode::from_raw_mode(mode)).map_err(|e| {
        format!(
            "cannot give the repaired file mode {mode:o}: {}",
            reason(&e.into())
        )
    })
}

/// Gives `replacement` the mode of a file being overwritten, and its owner where that is allowed
/// (`utf8enc -o`, and a copied backup).
///
/// # Errors
///
/// The mode could not be set.
pub fn copy_permissions(stat: &Stat, replacement: &File) -> io::Result<()> {
    // Only root may give a file away; for anyone else the file is theirs already.
    let _ = std::os::unix::fs::fchown(replacement, Some(stat.uid), Some(stat.gid));
    Ok(rustix::fs::fchmod(
        replacement,
        Mode::from_raw_mode(stat.mode & 0o7777),
    )?)
}

/// Gives a new file the permissions `open` would: 0666 less the umask.
///
/// # Errors
///
/// The permissions could not be set.
pub fn default_permissions(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    // umask only swaps the process's file mode mask; it is put back at once.
    let mask = rustix::process::umask(Mode::from_raw_mode(0o022));
    rustix::process::umask(mask);
    let mask = mask.bits();
    file.set_permissions(std::fs::Permissions::from_mode(0o666 & !mask))
}
