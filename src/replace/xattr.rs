//! Extended attributes of open files.

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
