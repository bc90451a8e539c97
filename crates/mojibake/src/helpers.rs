//! What the line fixer asks of the threads a program lends it.
//!
//! The crate starts no thread. A program that wants lines judged on several CPUs gives a
//! [`MojibakeRepairer`](crate::MojibakeRepairer) its [`Helpers`] (utf8fix keeps a pool of them
//! for `-j`), and the fixer hands them [`Work`]: a run of lines to judge while the next ones are
//! read, or the lines of one run shared out in batches. Without helpers every line is judged on
//! the calling thread, and the output is the same.

use std::sync::Arc;

/// Work that one or several threads may do at once: each call takes pieces until none is left,
/// then returns. Whoever calls it first does it; a call that finds nothing left returns at once.
pub trait Work: Send + Sync {
    /// Does pieces of the work until none is left.
    fn work(&self);
}

/// Helper threads lent by a program. Work offered is done by a helper when one comes free, or
/// by the thread that offered it, which never waits for a helper that has not begun.
pub trait Helpers: Send + Sync {
    /// How many helpers there may be at most (besides the calling thread): with `-j N`, N - 1.
    fn count(&self) -> usize;

    /// Offers `work` to up to `helpers` helpers at once, ahead of every queued [`Work`], each
    /// calling [`Work::work`] when it comes free. False when no helper could be had: the caller
    /// does it all.
    fn share(&self, work: &Arc<dyn Work>, helpers: usize) -> bool;

    /// Takes back shared `work` that not every helper it was offered to has joined: the caller
    /// has done all that was left.
    fn withdraw(&self, work: &Arc<dyn Work>);

    /// Queues `work` for the first helper that comes free (after the shared work).
    fn queue(&self, work: Arc<dyn Work>);
}
