//! Replacing a file the way careful Unix tools do (SPEC 5): `utf8fix -i` and `utf8enc -o`.
//!
//! Everything happens relative to one open directory ([`Place`]), so that a directory swapped
//! for a symbolic link halfway cannot send a later step elsewhere. The new content goes to a file
//! in that directory ([`PendingFile`]), is flushed to disk, takes the original's owner, group,
//! extended attributes (the ACL among them) and mode ([`carry_over`]), and replaces the name by
//! `renameat`; the directory is then synced, so that the rename survives a crash. A failure at any
//! point leaves the original intact.
//!
//! The copy is an unnamed `O_TMPFILE` file where the file system allows it: it gets a random name
//! only once it is complete, just before the rename, so that even SIGKILL while writing leaves
//! nothing behind. Elsewhere it is a named file with a random name, created exclusively (a name
//! that exists is never reused: another is drawn). Either way, SIGINT, SIGTERM, SIGHUP and SIGQUIT
//! while a named copy exists remove it before the program dies (the `cleanup` module). Setting
//! `UTF8KIT_NO_O_TMPFILE` in the environment makes the named path the only one, so that tests
//! can reach it on any file system, and `UTF8KIT_TEST_KILL_AT` kills the program at a named step
//! ([`kill_at`]), so that tests see what SIGKILL leaves there without racing a timer.

use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The parts of a file's status that a rewrite looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    /// Type and permission bits.
    pub mode: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
    /// Device and inode: the file's identity.
    pub dev: u64,
    /// See `dev`.
    pub ino: u64,
    /// Hard links to the file.
    pub nlink: u64,
}

impl Stat {
    // The field widths differ between targets (nlink is u32 on some), hence the conversions.
    #[allow(clippy::useless_conversion)]
    fn from_libc(raw: &libc::stat) -> Stat {
        Stat {
            mode: raw.st_mode,
            uid: raw.st_uid,
            gid: raw.st_gid,
            dev: u64::from(raw.st_dev),
            ino: u64::from(raw.st_ino),
            nlink: u64::from(raw.st_nlink),
        }
    }

    /// The status of an open file.
    ///
    /// # Errors
    ///
    /// The error of `fstat`.
    pub fn of(file: &File) -> io::Result<Stat> {
        let mut raw = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: the descriptor is open for the call, and fstat fills `raw` when it succeeds.
        let status = unsafe { libc::fstat(file.as_raw_fd(), raw.as_mut_ptr()) };
        if status != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fstat succeeded, so `raw` is initialised.
        Ok(Stat::from_libc(&unsafe { raw.assume_init() }))
    }

    /// Whether this is a regular file.
    pub fn is_regular(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFREG
    }

    /// Whether this is a symbolic link.
    pub fn is_symlink(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFLNK
    }

    /// The file's type, in words.
    pub fn kind(&self) -> &'static str {
        match self.mode & libc::S_IFMT {
            libc::S_IFREG => "a regular file",
            libc::S_IFDIR => "a directory",
            libc::S_IFIFO => "a FIFO",
            libc::S_IFCHR => "a character device",
            libc::S_IFBLK => "a block device",
            libc::S_IFSOCK => "a socket",
            libc::S_IFLNK => "a symbolic link",
            _ => "not a regular file",
        }
    }

    /// Whether both describe the same file.
    pub fn same_file(&self, other: &Stat) -> bool {
        (self.dev, self.ino) == (other.dev, other.ino)
    }
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::other("a NUL byte in the file name"))
}

/// Turns a libc status (0 or -1) into a result.
fn check(status: libc::c_int) -> io::Result<()> {
    if status == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
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
        let directory_c = cstring(directory.as_os_str().as_bytes())?;
        let open = |flags: libc::c_int| {
            // SAFETY: the path is a NUL-terminated C string that lives across the call.
            let fd = unsafe {
                libc::open(
                    directory_c.as_ptr(),
                    flags | libc::O_DIRECTORY | libc::O_CLOEXEC,
                )
            };
            if fd < 0 {
                Err(io::Error::last_os_error())
            } else {
                // SAFETY: `fd` was just opened and is owned by nothing else.
                Ok(unsafe { OwnedFd::from_raw_fd(fd) })
            }
        };
        // A directory we may write but not list cannot be opened for reading: it is then held
        // by path only, and not synced.
        let (directory, syncable) = match open(libc::O_RDONLY) {
            Ok(fd) => (fd, true),
            Err(error) if error.raw_os_error() == Some(libc::EACCES) => {
                (open(libc::O_PATH)?, false)
            }
            Err(error) => return Err(error),
        };
        Ok(Place {
            directory,
            syncable,
            name: cstring(name.as_bytes())?,
        })
    }

    fn stat_at(&self, name: &CStr, flags: libc::c_int) -> io::Result<Stat> {
        let mut raw = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: the directory is open, the name is NUL-terminated, and fstatat fills `raw`
        // when it succeeds.
        let status = unsafe {
            libc::fstatat(
                self.directory.as_raw_fd(),
                name.as_ptr(),
                raw.as_mut_ptr(),
                flags,
            )
        };
        check(status)?;
        // SAFETY: fstatat succeeded, so `raw` is initialised.
        Ok(Stat::from_libc(&unsafe { raw.assume_init() }))
    }

    /// The status of the name itself (a symbolic link is not followed).
    ///
    /// # Errors
    ///
    /// The error of `fstatat`.
    pub fn lstat(&self) -> io::Result<Stat> {
        self.stat_at(&self.name, libc::AT_SYMLINK_NOFOLLOW)
    }

    /// The status of the file the name leads to (a symbolic link is followed).
    ///
    /// # Errors
    ///
    /// The error of `fstatat`.
    pub fn stat(&self) -> io::Result<Stat> {
        self.stat_at(&self.name, 0)
    }

    /// The status of the directory.
    ///
    /// # Errors
    ///
    /// The error of `fstat`.
    pub fn directory_stat(&self) -> io::Result<Stat> {
        self.stat_at(c".", 0)
    }

    /// Opens the file for reading, without blocking on a FIFO and without taking a terminal;
    /// with `follow` false a symbolic link is refused (`ELOOP`).
    ///
    /// # Errors
    ///
    /// The error of `openat`.
    pub fn open_read(&self, follow: bool) -> io::Result<File> {
        let mut flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
        if !follow {
            flags |= libc::O_NOFOLLOW;
        }
        // SAFETY: the directory is open and the name NUL-terminated for the call.
        let fd = unsafe { libc::openat(self.directory.as_raw_fd(), self.name.as_ptr(), flags) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        let file = unsafe { File::from_raw_fd(fd) };
        // Reads of a regular file never block; clearing the flag keeps it from surprising
        // anything that reads the file later.
        // SAFETY: fcntl on an open descriptor with integer arguments.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
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
        // SAFETY: fsync on an open descriptor.
        check(unsafe { libc::fsync(self.directory.as_raw_fd()) })
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
        // SAFETY: kill with our own pid and a valid signal number.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    }
}

fn random_name() -> CString {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    let mut value = u64::from_ne_bytes(bytes);
    if got != 8 {
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
        let dir = place.directory.as_raw_fd();
        // Naming an O_TMPFILE file later goes through /proc/self/fd.
        let unnamed_allowed = std::env::var_os("UTF8KIT_NO_O_TMPFILE").is_none()
            && Path::new("/proc/self/fd").is_dir();
        if unnamed_allowed {
            let flags = libc::O_TMPFILE | libc::O_WRONLY | libc::O_CLOEXEC;
            // SAFETY: the directory is open and "." NUL-terminated for the call.
            let fd = unsafe { libc::openat(dir, c".".as_ptr(), flags, 0o600) };
            if fd >= 0 {
                return Ok(PendingFile {
                    place,
                    // SAFETY: `fd` was just opened and is owned by nothing else.
                    file: unsafe { File::from_raw_fd(fd) },
                    name: None,
                });
            }
            let error = io::Error::last_os_error();
            // Only a file system without O_TMPFILE falls back to a named file.
            if !matches!(
                error.raw_os_error(),
                Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
            ) {
                return Err(error);
            }
        }
        for _ in 0..NAME_ATTEMPTS {
            let name = random_name();
            // Registered first, so that a signal right after the file appears still removes it.
            let registration = cleanup::register(dir, &name);
            let flags =
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
            // SAFETY: the directory is open and the name NUL-terminated for the call.
            let fd = unsafe { libc::openat(dir, name.as_ptr(), flags, 0o600) };
            if fd >= 0 {
                return Ok(PendingFile {
                    place,
                    // SAFETY: `fd` was just opened and is owned by nothing else.
                    file: unsafe { File::from_raw_fd(fd) },
                    name: Some((name, registration)),
                });
            }
            let error = io::Error::last_os_error();
            drop(registration);
            if error.kind() != io::ErrorKind::AlreadyExists {
                return Err(error);
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
        let dir = self.place.directory.as_raw_fd();
        let source = CString::new(format!("/proc/self/fd/{}", self.file.as_raw_fd()))
            .expect("no NUL in a number");
        for _ in 0..NAME_ATTEMPTS {
            let name = random_name();
            let registration = cleanup::register(dir, &name);
            // SAFETY: both paths are NUL-terminated and the directory open for the call.
            let linked = check(unsafe {
                libc::linkat(
                    libc::AT_FDCWD,
                    source.as_ptr(),
                    dir,
                    name.as_ptr(),
                    libc::AT_SYMLINK_FOLLOW,
                )
            });
            match linked {
                Ok(()) => return Ok((name, registration)),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(error),
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
        let dir = self.place.directory.as_raw_fd();
        // SAFETY: the directory is open and both names NUL-terminated for the call.
        let renamed =
            check(unsafe { libc::renameat(dir, name.as_ptr(), dir, self.place.name.as_ptr()) });
        if renamed.is_err() {
            // SAFETY: as above.
            unsafe { libc::unlinkat(dir, name.as_ptr(), 0) };
        }
        drop(registration);
        renamed?;
        self.place.sync()
    }
}

impl Drop for PendingFile<'_> {
    fn drop(&mut self) {
        if let Some((name, _registration)) = &self.name {
            // SAFETY: the directory is open and the name NUL-terminated for the call.
            unsafe { libc::unlinkat(self.place.directory.as_raw_fd(), name.as_ptr(), 0) };
        }
    }
}

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
        mode &= !(libc::S_ISUID | libc::S_ISGID);
    }
    // SAFETY: fchmod on an open descriptor.
    check(unsafe { libc::fchmod(replacement.as_raw_fd(), mode as libc::mode_t) }).map_err(|e| {
        format!(
            "cannot give the repaired file mode {mode:o}: {}",
            reason(&e)
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
    // SAFETY: fchmod on an open descriptor.
    check(unsafe {
        libc::fchmod(
            replacement.as_raw_fd(),
            (stat.mode & 0o7777) as libc::mode_t,
        )
    })
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
    file.set_permissions(std::fs::Permissions::from_mode(0o666 & !mask))
}

/// Extended attributes of open files, through the raw system calls.
mod xattr {
    use std::ffi::{CStr, CString};
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;

    /// Whether the error says the file system has no extended attributes at all.
    fn unsupported(error: &io::Error) -> bool {
        matches!(error.raw_os_error(), Some(libc::ENOTSUP | libc::ENOSYS))
    }

    /// Calls `fill` with a growing buffer until the value fits: the size is asked first, and
    /// asked again when the value grew in between (`ERANGE`).
    fn sized(mut fill: impl FnMut(&mut [u8]) -> isize) -> io::Result<Vec<u8>> {
        loop {
            let size = fill(&mut []);
            if size < 0 {
                return Err(io::Error::last_os_error());
            }
            let mut buffer = vec![0u8; size as usize];
            let got = fill(&mut buffer);
            if got >= 0 {
                buffer.truncate(got as usize);
                return Ok(buffer);
            }
            let error = io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::ERANGE) {
                return Err(error);
            }
        }
    }

    /// The names of the attributes this process may see; none on a file system without them.
    pub fn list(file: &File) -> io::Result<Vec<CString>> {
        let fd = file.as_raw_fd();
        // SAFETY: the buffer pointer and length describe a live buffer (or are null and 0).
        let names = sized(|buffer| unsafe {
            libc::flistxattr(fd, buffer.as_mut_ptr().cast(), buffer.len())
        });
        match names {
            Ok(names) => Ok(names
                .split(|&b| b == 0)
                .filter(|name| !name.is_empty())
                .map(|name| CString::new(name).expect("split at NUL"))
                .collect()),
            Err(error) if unsupported(&error) => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    /// The value of one attribute, `None` when the file has no such attribute.
    pub fn get(file: &File, name: &CStr) -> io::Result<Option<Vec<u8>>> {
        let fd = file.as_raw_fd();
        // SAFETY: as in `list`; the name is NUL-terminated.
        let value = sized(|buffer| unsafe {
            libc::fgetxattr(fd, name.as_ptr(), buffer.as_mut_ptr().cast(), buffer.len())
        });
        match value {
            Ok(value) => Ok(Some(value)),
            Err(error) if error.raw_os_error() == Some(libc::ENODATA) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Sets one attribute.
    pub fn set(file: &File, name: &CStr, value: &[u8]) -> io::Result<()> {
        // SAFETY: the name is NUL-terminated and the value a live buffer of its length.
        let status = unsafe {
            libc::fsetxattr(
                file.as_raw_fd(),
                name.as_ptr(),
                value.as_ptr().cast(),
                value.len(),
                0,
            )
        };
        super::check(status)
    }

    /// Removes one attribute.
    pub fn remove(file: &File, name: &CStr) -> io::Result<()> {
        // SAFETY: the name is NUL-terminated.
        super::check(unsafe { libc::fremovexattr(file.as_raw_fd(), name.as_ptr()) })
    }
}

/// Removing a named temporary file when a signal ends the program.
///
/// One name at a time is registered (the programs replace one file at a time). The handler, for
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT, removes it with `unlinkat`, restores the default action
/// and raises the signal again, so that the program dies of it as it would have. A signal the
/// program was started with ignored (`nohup`, a background job) stays ignored.
mod cleanup {
    use std::ffi::{CStr, CString};
    use std::os::fd::RawFd;
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, Ordering};

    struct Pending {
        directory: RawFd,
        name: CString,
    }

    static PENDING: AtomicPtr<Pending> = AtomicPtr::new(std::ptr::null_mut());
    static INSTALL: Once = Once::new();
    const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

    /// A registered name; dropping it unregisters the name (and removes nothing).
    #[derive(Debug)]
    pub struct Registration(());

    /// Registers `name` in the open directory `directory` for removal on a signal.
    pub fn register(directory: RawFd, name: &CStr) -> Registration {
        INSTALL.call_once(install);
        let pending = Box::into_raw(Box::new(Pending {
            directory,
            name: name.to_owned(),
        }));
        let old = PENDING.swap(pending, Ordering::AcqRel);
        if !old.is_null() {
            // SAFETY: every pointer stored comes from Box::into_raw, and the swap took it out,
            // so nothing else frees or reads it.
            drop(unsafe { Box::from_raw(old) });
        }
        Registration(())
    }

    impl Drop for Registration {
        fn drop(&mut self) {
            let pending = PENDING.swap(std::ptr::null_mut(), Ordering::AcqRel);
            if !pending.is_null() {
                // SAFETY: as in `register`.
                drop(unsafe { Box::from_raw(pending) });
            }
        }
    }

    fn install() {
        for signal in SIGNALS {
            // SAFETY: sigaction reads and writes plain structs; a zeroed one is a valid start.
            // The handler only calls async-signal-safe functions (unlinkat, signal, raise).
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }

    extern "C" fn on_signal(signal: libc::c_int) {
        // Taking the pointer out makes sure that nothing frees it while it is read here.
        let pending = PENDING.swap(std::ptr::null_mut(), Ordering::AcqRel);
        // SAFETY: a non-null pointer came from Box::into_raw and is now ours alone (it is
        // leaked: the program is about to die). unlinkat, signal and raise are
        // async-signal-safe.
        unsafe {
            if !pending.is_null() {
                libc::unlinkat((*pending).directory, (*pending).name.as_ptr(), 0);
            }
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn random_names_differ_and_are_hidden() {
        let a = random_name();
        let b = random_name();
        assert_ne!(a, b);
        let text = a.to_str().unwrap();
        assert!(
            text.starts_with(".utf8kit-") && text.ends_with(".tmp"),
            "{text}"
        );
        assert_eq!(text.len(), ".utf8kit-".len() + 16 + ".tmp".len());
    }

    #[test]
    fn a_pending_file_replaces_the_name_and_a_dropped_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "old").unwrap();
        let place = Place::of(&path).unwrap();
        let pending = PendingFile::create(&place).unwrap();
        pending.as_file().write_all(b"new").unwrap();
        drop(pending);
        assert_eq!(entries(dir.path()), ["f"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");

        let pending = PendingFile::create(&place).unwrap();
        pending.as_file().write_all(b"new").unwrap();
        pending.persist().unwrap();
        assert_eq!(entries(dir.path()), ["f"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn places_hold_the_last_component_and_stat_without_following() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("target"), "x").unwrap();
        std::os::unix::fs::symlink("target", dir.path().join("link")).unwrap();
        let link = Place::of(&dir.path().join("link")).unwrap();
        assert!(link.lstat().unwrap().is_symlink());
        assert_eq!(
            link.open_read(false).unwrap_err().raw_os_error(),
            Some(libc::ELOOP)
        );
        let mut text = String::new();
        link.open_read(true)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "x");
        assert!(Place::of(Path::new("/")).is_err());
        assert_eq!(
            Place::of(dir.path()).unwrap().lstat().unwrap().kind(),
            "a directory"
        );
    }
}
