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
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

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
    fn from_raw(raw: &rustix::fs::Stat) -> Stat {
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
        Ok(Stat::from_raw(&rustix::fs::fstat(file)?))
    }

    /// The file's type.
    fn file_type(&self) -> FileType {
        FileType::from_raw_mode(self.mode)
    }

    /// Whether this is a regular file.
    pub fn is_regular(&self) -> bool {
        self.file_type() == FileType::RegularFile
    }

    /// Whether this is a symbolic link.
    pub fn is_symlink(&self) -> bool {
        self.file_type() == FileType::Symlink
    }

    /// The file's type, in words.
    pub fn kind(&self) -> &'static str {
        match self.file_type() {
            FileType::RegularFile => "a regular file",
            FileType::Directory => "a directory",
            FileType::Fifo => "a FIFO",
            FileType::CharacterDevice => "a character device",
            FileType::BlockDevice => "a block device",
            FileType::Socket => "a socket",
            FileType::Symlink => "a symbolic link",
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
        // Reads of a regular file never block; clearing the flag keeps it from surprising
        // anything that reads the file later.
        if let Ok(flags) = rustix::fs::fcntl_getfl(&file) {
            let _ = rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK);
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

fn random_name() -> CString {
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

/// Extended attributes of open files.
mod xattr {
    use std::ffi::{CStr, CString};
    use std::fs::File;
    use std::io;

    use rustix::io::Errno;

    /// Calls `fill` with a growing buffer until the value fits: the size is asked first (`query`),
    /// and asked again when the value grew in between (`ERANGE`).
    fn sized(
        query: impl Fn() -> rustix::io::Result<usize>,
        fill: impl Fn(&mut [u8]) -> rustix::io::Result<usize>,
    ) -> rustix::io::Result<Vec<u8>> {
        loop {
            let mut buffer = vec![0u8; query()?];
            match fill(&mut buffer) {
                Ok(got) => {
                    buffer.truncate(got);
                    return Ok(buffer);
                }
                Err(Errno::RANGE) => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// The names of the attributes this process may see; none on a file system without them.
    pub fn list(file: &File) -> io::Result<Vec<CString>> {
        let names = sized(
            || rustix::fs::flistxattr_query(file),
            |buffer| rustix::fs::flistxattr(file, buffer),
        );
        match names {
            Ok(names) => Ok(names
                .split(|&b| b == 0)
                .filter(|name| !name.is_empty())
                .map(|name| CString::new(name).expect("split at NUL"))
                .collect()),
            // The file system has no extended attributes at all.
            Err(Errno::NOTSUP | Errno::NOSYS) => Ok(Vec::new()),
            Err(error) => Err(error.into()),
        }
    }

    /// The value of one attribute, `None` when the file has no such attribute.
    pub fn get(file: &File, name: &CStr) -> io::Result<Option<Vec<u8>>> {
        let value = sized(
            || rustix::fs::fgetxattr_query(file, name),
            |buffer| rustix::fs::fgetxattr(file, name, buffer),
        );
        match value {
            Ok(value) => Ok(Some(value)),
            Err(Errno::NODATA) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// Sets one attribute.
    pub fn set(file: &File, name: &CStr, value: &[u8]) -> io::Result<()> {
        Ok(rustix::fs::fsetxattr(
            file,
            name,
            value,
            rustix::fs::XattrFlags::empty(),
        )?)
    }

    /// Removes one attribute.
    pub fn remove(file: &File, name: &CStr) -> io::Result<()> {
        Ok(rustix::fs::fremovexattr(file, name)?)
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
