//! Replacing a file atomically: the new content goes to a file in the same directory, is flushed
//! to disk, takes the original's permissions and owner, and replaces it by rename (SPEC 5). A
//! failure at any point leaves the original intact, and a process killed while writing leaves
//! nothing behind where the file system has `O_TMPFILE`. `utf8fix -i` and `utf8enc -o` use it.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

/// The new content of a file, written in the file's directory before it takes the file's place.
///
/// Where the file system allows it, the copy is an unnamed `O_TMPFILE`: it gets a name only
/// once it is complete, just before the rename over the target, so a process killed while
/// writing (even by SIGKILL) leaves no temporary file behind. Elsewhere it is a named temporary
/// file that is removed when dropped.
pub enum PendingFile {
    /// An `O_TMPFILE` file, named when it is complete.
    Unnamed {
        /// The open file.
        file: File,
        /// Where it will be named.
        directory: PathBuf,
    },
    /// A named temporary file, removed when dropped.
    Named(tempfile::NamedTempFile),
}

impl PendingFile {
    /// Creates the pending file in `directory`.
    ///
    /// # Errors
    ///
    /// The directory cannot hold a new file.
    pub fn create_in(directory: &Path) -> io::Result<PendingFile> {
        use std::os::unix::fs::OpenOptionsExt;
        // Naming the file later goes through /proc/self/fd.
        if Path::new("/proc/self/fd").is_dir() {
            let unnamed = fs::OpenOptions::new()
                .write(true)
                .mode(0o600)
                .custom_flags(libc::O_TMPFILE)
                .open(directory);
            match unnamed {
                Ok(file) => {
                    return Ok(PendingFile::Unnamed {
                        file,
                        directory: directory.to_owned(),
                    })
                }
                // The file system has no O_TMPFILE: fall back to a named file.
                Err(e) if matches!(e.raw_os_error(), Some(libc::EOPNOTSUPP | libc::EISDIR)) => {}
                Err(e) => return Err(e),
            }
        }
        tempfile::Builder::new()
            .prefix(".utf8kit-")
            .suffix(".tmp")
            .tempfile_in(directory)
            .map(PendingFile::Named)
    }

    /// The file to write the new content to.
    pub fn as_file(&self) -> &File {
        match self {
            PendingFile::Unnamed { file, .. } => file,
            PendingFile::Named(named) => named.as_file(),
        }
    }

    /// Puts the complete copy in place of `target`, atomically.
    /// # Errors
    ///
    /// The link or the rename failed; the target is then untouched.
    pub fn persist(self, target: &Path) -> io::Result<()> {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::io::AsRawFd;
        match self {
            PendingFile::Named(named) => named.persist(target).map(|_| ()).map_err(|e| e.error),
            PendingFile::Unnamed { file, directory } => {
                let name = directory.join(format!(".utf8kit-{}.tmp", std::process::id()));
                let source = std::ffi::CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
                    .expect("no NUL in a number");
                let dest = std::ffi::CString::new(name.as_os_str().as_bytes())
                    .map_err(|_| io::Error::other("a NUL byte in the directory name"))?;
                // SAFETY: both paths are NUL-terminated C strings that live across the call.
                let linked = unsafe {
                    libc::linkat(
                        libc::AT_FDCWD,
                        source.as_ptr(),
                        libc::AT_FDCWD,
                        dest.as_ptr(),
                        libc::AT_SYMLINK_FOLLOW,
                    )
                };
                if linked != 0 {
                    return Err(io::Error::last_os_error());
                }
                fs::rename(&name, target).inspect_err(|_| {
                    let _ = fs::remove_file(&name);
                })
            }
        }
    }
}

/// Gives the replacement the original's permissions, and its owner where that is allowed.
///
/// # Errors
///
/// The permissions could not be set.
pub fn copy_attributes(original: &fs::Metadata, replacement: &File) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    replacement.set_permissions(original.permissions())?;
    // Only root may give a file away; for anyone else the file is theirs already.
    let _ = std::os::unix::fs::fchown(replacement, Some(original.uid()), Some(original.gid()));
    Ok(())
}

/// Gives a new file the permissions `open` would: 0666 less the umask.
///
/// # Errors
///
/// The permissions could not be set.
pub fn default_permissions(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: umask only swaps the process's file mode mask; it is put back at once.
    let mask = unsafe {
        let mask = libc::umask(0o022);
        libc::umask(mask);
        mask
    };
    // mode_t is u32 here and u16 on some systems.
    #[allow(clippy::useless_conversion)]
    let mask = u32::from(mask);
    file.set_permissions(fs::Permissions::from_mode(0o666 & !mask))
}
