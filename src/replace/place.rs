//! The open directory a replacement happens in, and the pending copy in it.

use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

/// The parts of a file's status that a rewrite looks at.
use super::attributes::copy_permissions;
use super::cleanup;
use super::stat::Stat;

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::other("a NUL byte in the file name"))
}

/// One name in one open directory: where a file is replaced.
#[derive(Debug)]
pub struct Place {
    directory: OwnedFd,
    /// Whether the directory was opened for reading, which `fsync` needs.
    syncable: bool,
    name: CString,
}

impl Place {
    /// Opens the directory that holds `path` (following symbolic links in the directory part
    /// only) and keeps the last component.
    ///
    /// # Errors
    ///
    /// The path has no last component (`/`, `..`), or its directory cannot be opened.
    pub fn of(path: &Path) -> io::Result<Place> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::other("the path does not name a file"))?;
        let directory = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let open = |flags: OFlags| {
            let flags = flags | OFlags::DIRECTORY | OFlags::CLOEXEC;
            rustix::fs::open(directory, flags, Mode::empty())
        };
        // A directory we may write but not list cannot be opened for reading: it is then held
        // by path only, and not synced.
        let (directory, syncable) = match open(OFlags::RDONLY) {
            Ok(fd) => (fd, true),
            Err(Errno::ACCESS) => (open(OFlags::PATH)?, false),
            Err(error) => return Err(error.into()),
        };
        Ok(Place {
            directory,
            syncable,
            name: cstring(name.as_bytes())?,
        })
    }

    fn stat_at(&self, name: &CStr, flags: AtFlags) -> io::Result<Stat> {
        Ok(Stat::from_raw(&rustix::fs::statat(
            &self.directory,
            name,
            flags,
        )?))
    }

    /// The status of the name itself (a symbolic link is not followed).
    ///
    /// # Errors
    ///
    /// The error of `fstatat`.
    pub fn lstat(&self) -> io::Result<Stat> {
        self.stat_at(&self.name, AtFlags::SYMLINK_NOFOLLOW)
    }

    /// The status of the file the name leads to (a symbolic link is followed).
    ///
    /// # Errors
    ///
    /// The error of `fstatat`.
    pub fn stat(&self) -> io::Result<Stat> {
        self.stat_at(&self.name, AtFlags::empty())
    }

    /// The status of the directory.
    ///
    /// # Errors
    ///
    /// The error of `fstat`.
    pub fn directory_stat(&self) -> io::Result<Stat> {
        self.stat_at(c".", AtFlags::empty())
    }

    /// Opens the file for reading, without blocking on a FIFO and without taking a terminal;
    /// with `follow` false a symbolic link is refused (`ELOOP`).
    ///
    /// # Errors
    ///
    /// The error of `openat`.
    pub fn open_read(&self, follow: bool) -> io::Result<File> {
        let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        if !follow {
            flags |= OFlags::NOFOLLOW;
        }
        let file = File::from(rustix::fs::openat(
            &self.directory,
            &self.name,
            flags,
            Mode::empty(),
        )?);
        // The flag stays: reads of a regular file ignore it, and a file that only looks regular
        // but waits for data that may never come (/proc/kmsg) answers EAGAIN instead of
        // hanging the program. The descriptor is read here and closed, never handed on.
        Ok(file)
    }

    /// Keeps what the name holds now under the name plus `suffix`: a hard link (the original
    /// inode, untouched; a symbolic link stays a link, as with `sed -i`), or where the file
    /// system refuses one, a copy of `original`'s content with its permissions.
    ///
    /// # Errors
    ///
    /// An earlier backup could not be removed, or neither a link nor a copy could be made.
    pub fn keep_backup(&self, suffix: &OsStr, original: &File, stat: &Stat) -> io::Result<()> {
        use rustix::fs::{AtFlags, Mode, OFlags};
        let backup = self.backup_name(suffix)?;
        let dir = &self.directory;
        match rustix::fs::unlinkat(dir, &backup, AtFlags::empty()) {
            Err(error) if error != rustix::io::Errno::NOENT => return Err(error.into()),
            _ => {}
        }
        let linked = rustix::fs::linkat(dir, &self.name, dir, &backup, AtFlags::empty());
        if linked.is_ok() {
            return Ok(());
        }
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
        let mut copy = File::from(rustix::fs::openat(
            dir,
            &backup,
            flags | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?);
        let copied = (|| {
            use std::io::Seek;
            let mut source = original;
            source.rewind()?;
            io::copy(&mut source, &mut copy)?;
            copy.sync_all()?;
            copy_permissions(stat, &copy)
        })();
        if copied.is_err() {
            let _ = rustix::fs::unlinkat(dir, &backup, AtFlags::empty());
        }
        copied
    }

    /// Removes the backup `keep_backup` made, after a failed replacement.
    pub fn remove_backup(&self, suffix: &OsStr) {
        if let Ok(backup) = self.backup_name(suffix) {
            let _ = rustix::fs::unlinkat(&self.directory, &backup, rustix::fs::AtFlags::empty());
        }
    }

    /// The name plus `suffix`: where `-iSUFFIX` keeps the original.
    fn backup_name(&self, suffix: &OsStr) -> io::Result<CString> {
        let mut backup = self.name.as_bytes().to_vec();
        backup.extend_from_slice(suffix.as_bytes());
        cstring(&backup)
    }

    /// Syncs the directory, so that a rename in it survives a crash. A directory held by path
    /// only (not readable) cannot be synced, and is not.
    fn sync(&self) -> io::Result<()> {
        if !self.syncable {
            return Ok(());
        }
        Ok(rustix::fs::fsync(&self.directory)?)
    }
}

/// A random name for a temporary file: `.utf8kit-` and 16 hexadecimal digits.
/// Where a rewrite can be killed on purpose: with `UTF8KIT_TEST_KILL_AT=POINT` in the
/// environment the program sends itself SIGKILL (no handler, no destructor runs) on reaching
/// POINT: `created` (the copy exists, nothing written), `written` (the copy complete and synced,
/// not yet named), `linked` (named, not yet renamed over the original). For the tests of
/// [`PendingFile`]; unset, it costs one look at the environment per rewrite.
pub fn kill_at(point: &str) {
    if std::env::var_os("UTF8KIT_TEST_KILL_AT").is_some_and(|at| at == point) {
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    }
}

pub(super) fn random_name() -> CString {
    let mut bytes = [0u8; 8];
    let got = rustix::rand::getrandom(&mut bytes, rustix::rand::GetRandomFlags::empty());
    let mut value = u64::from_ne_bytes(bytes);
    if !matches!(got, Ok(8)) {
        // No entropy source: the clock and the process id still differ from run to run, and
        // exclusive creation makes a clash harmless (another name is drawn).
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        value ^= now.rotate_left(17) ^ u64::from(std::process::id());
    }
    CString::new(format!(".utf8kit-{value:016x}.tmp")).expect("no NUL in hexadecimal digits")
}

/// How many random names are drawn before giving up on a directory full of them.
const NAME_ATTEMPTS: usize = 64;

/// The new content of a file, written in the file's directory before it takes the file's name.
pub struct PendingFile<'a> {
    place: &'a Place,
    file: File,
    /// The temporary name of a named copy; `None` for an unnamed `O_TMPFILE` one.
    name: Option<(CString, cleanup::Registration)>,
}

impl<'a> PendingFile<'a> {
    /// Creates the pending file in `place`'s directory, mode 0600 until it is complete.
    ///
    /// # Errors
    ///
    /// The directory cannot hold a new file.
    pub fn create(place: &'a Place) -> io::Result<PendingFile<'a>> {
        let pending = PendingFile::open(place)?;
        kill_at("created");
        Ok(pending)
    }

    fn open(place: &'a Place) -> io::Result<PendingFile<'a>> {
        let dir = &place.directory;
        let private = Mode::from_raw_mode(0o600);
        // Naming an O_TMPFILE file later goes through /proc/self/fd.
        let unnamed_allowed = std::env::var_os("UTF8KIT_NO_O_TMPFILE").is_none()
            && Path::new("/proc/self/fd").is_dir();
        if unnamed_allowed {
            let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
            match rustix::fs::openat(dir, c".", flags, private) {
                Ok(fd) => {
                    return Ok(PendingFile {
                        place,
                        file: File::from(fd),
                        name: None,
                    });
                }
                // Only a file system without O_TMPFILE falls back to a named file.
                Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL) => {}
                Err(error) => return Err(error.into()),
            }
        }
        for _ in 0..NAME_ATTEMPTS {
            let name = random_name();
            // Registered first, so that a signal right after the file appears still removes it.
            let registration = cleanup::register(dir.as_raw_fd(), &name);
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match rustix::fs::openat(dir, &name, flags, private) {
                Ok(fd) => {
                    return Ok(PendingFile {
                        place,
                        file: File::from(fd),
                        name: Some((name, registration)),
                    });
                }
                Err(Errno::EXIST) => drop(registration),
                Err(error) => {
                    drop(registration);
                    return Err(error.into());
                }
            }
        }
        Err(io::Error::other("no free temporary file name"))
    }

    /// The file to write the new content to.
    pub fn as_file(&self) -> &File {
        &self.file
    }

    /// Gives an unnamed copy a random name in the directory.
    fn link(&self) -> io::Result<(CString, cleanup::Registration)> {
        let dir = &self.place.directory;
        let source = format!("/proc/self/fd/{}", self.file.as_raw_fd());
        for _ in 0..NAME_ATTEMPTS {
            let name = random_name();
            let registration = cleanup::register(dir.as_raw_fd(), &name);
            let linked = rustix::fs::linkat(
                rustix::fs::CWD,
                source.as_str(),
                dir,
                &name,
                AtFlags::SYMLINK_FOLLOW,
            );
            match linked {
                Ok(()) => return Ok((name, registration)),
                Err(Errno::EXIST) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Err(io::Error::other("no free temporary file name"))
    }

    /// Puts the complete copy in place of the name, atomically, and syncs the directory.
    ///
    /// # Errors
    ///
    /// The link or the rename failed (the original is then untouched), or the directory could
    /// not be synced (the rename is done, but may not survive a crash).
    pub fn persist(mut self) -> io::Result<()> {
        kill_at("written");
        let (name, registration) = match self.name.take() {
            Some(named) => named,
            None => self.link()?,
        };
        kill_at("linked");
        let dir = &self.place.directory;
        let renamed = rustix::fs::renameat(dir, &name, dir, &self.place.name);
        if renamed.is_err() {
            let _ = rustix::fs::unlinkat(dir, &name, AtFlags::empty());
        }
        drop(registration);
        renamed?;
        self.place.sync()
    }
}

impl Drop for PendingFile<'_> {
    fn drop(&mut self) {
        if let Some((name, _registration)) = &self.name {
            let _ = rustix::fs::unlinkat(&self.place.directory, name, AtFlags::empty());
        }
    }
}
