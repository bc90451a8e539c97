//! The parts of a file's status that a rewrite looks at.

use std::fs::File;
use std::io;

use rustix::fs::FileType;

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
    pub(super) fn from_raw(raw: &rustix::fs::Stat) -> Stat {
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
