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

mod attributes;
mod cleanup;
mod place;
mod stat;
mod xattr;

pub use attributes::{SetId, carry_over, copy_permissions, default_permissions};
pub use place::{PendingFile, Place, kill_at};
pub use stat::Stat;

#[cfg(test)]
mod tests;
