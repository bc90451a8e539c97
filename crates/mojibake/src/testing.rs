//! Helpers for tests: a new thread for each helper that work is offered to. The crate's unit
//! tests, its integration tests and the fuzz target all include this one file (the latter two
//! by `#[path]`); the module that includes it brings `Helpers` and `Work` into scope.

use std::sync::Arc;

use super::{Helpers, Work};

/// Up to `.0` helpers, each a thread started for the work it is offered.
pub(crate) struct ThreadPerWork(pub(crate) usize);

impl ThreadPerWork {
    /// Helpers for `threads` threads in all (the calling one and `threads - 1` others), or none
    /// for one thread.
    pub(crate) fn lent(threads: usize) -> Option<Arc<dyn Helpers>> {
        (threads > 1).then(|| Arc::new(ThreadPerWork(threads - 1)) as Arc<dyn Helpers>)
    }
}

impl Helpers for ThreadPerWork {
    fn count(&self) -> usize {
        self.0
    }

    fn share(&self, work: &Arc<dyn Work>, helpers: usize) -> bool {
        for _ in 0..helpers.min(self.0) {
            let work = Arc::clone(work);
            std::thread::spawn(move || work.work());
        }
        true
    }

    fn withdraw(&self, _: &Arc<dyn Work>) {}

    fn queue(&self, work: Arc<dyn Work>) {
        std::thread::spawn(move || work.work());
    }
}
