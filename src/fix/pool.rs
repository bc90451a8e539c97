//! The helper threads `utf8fix --mojibake -j N` lends the mojibake crate's line fixer
//! ([`utf8kit_mojibake::Helpers`]): N - 1 threads, started the first time they are needed and
//! then kept, waiting for work.
//!
//! Judging the lines of one text run (a chunk of input, 64 KiB when read in full) takes about a
//! millisecond: less than a new thread takes to start and to warm its allocator, so the helpers
//! are kept. Work shared among them (the lines of one run, in batches) goes first; then whole
//! runs queued to be judged while the next ones are read, each taken by the first helper that
//! comes free.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use utf8kit_mojibake::{Helpers, Work};

/// How long a helper watches for the next work before it sleeps.
const SPIN: std::time::Duration = std::time::Duration::from_micros(200);

/// The kept helpers and the work that still wants one.
pub(super) struct Pool {
    /// How many helpers may be started.
    most: usize,
    queue: Mutex<Queue>,
    /// Told when work is offered.
    offered: Condvar,
    /// How many times work has been offered: a helper that has just finished some watches it for
    /// a while before it sleeps.
    offers: AtomicUsize,
}

#[derive(Default)]
struct Queue {
    /// Work shared among helpers, each with how many helpers it wants and how many have joined.
    shared: VecDeque<(Arc<dyn Work>, usize, usize)>,
    /// Work for one helper, not taken yet (its caller may have done it itself).
    queued: VecDeque<Arc<dyn Work>>,
    /// Helpers started.
    helpers: usize,
}

impl Pool {
    /// A pool of at most `helpers` threads, none started yet.
    pub(super) fn new(helpers: usize) -> Arc<Pool> {
        Arc::new(Pool {
            most: helpers,
            queue: Mutex::new(Queue::default()),
            offered: Condvar::new(),
            offers: AtomicUsize::new(0),
        })
    }

    /// The queue, locked, once at least `helpers` helpers are started (fewer if a thread could
    /// not be).
    fn with_helpers(self: &Arc<Self>, helpers: usize) -> MutexGuard<'_, Queue> {
        let mut queue = lock(&self.queue);
        while queue.helpers < helpers.min(self.most) {
            let allowed = placement::allowed();
            let pool = Arc::clone(self);
            let started = std::thread::Builder::new()
                .name("mojibake-judge".into())
                .spawn(move || pool.help(allowed));
            let Ok(helper) = started else {
                break;
            };
            // The new thread first runs on another CPU than this one: the kernel tends to
            // queue it behind this thread, which is busy, for milliseconds (the whole of what
            // it was meant to share). It may run anywhere again once it has work, which it
            // cannot take before this thread lets the queue go.
            placement::away(&helper, allowed.as_ref());
            queue.helpers += 1;
        }
        queue
    }

    /// A helper's life: join the first shared work that still wants a helper and do it until
    /// it is done, or take the first queued work; then the next, or wait for some.
    fn help(&self, allowed: Option<placement::CpuSet>) {
        let mut allowed = allowed;
        loop {
            let seen = self.offers.load(Ordering::Acquire);
            let work = match self.next_work(false) {
                Some(work) => work,
                None => {
                    // The next run of text comes soon when the input is read from a file:
                    // waking from the condition variable would take longer than the wait.
                    let start = std::time::Instant::now();
                    while self.offers.load(Ordering::Acquire) == seen && start.elapsed() < SPIN {
                        std::hint::spin_loop();
                    }
                    self.next_work(true).expect("waited for")
                }
            };
            // Sent away from the thread that started it (see `with_helpers`), it may run on
            // every CPU it was allowed again.
            if let Some(allowed) = allowed.take() {
                placement::free(&allowed);
            }
            work.work();
        }
    }

    /// The first shared work that still wants a helper (waited for now by its caller), else the
    /// first queued; with `wait`, the first to be offered if there is none yet.
    fn next_work(&self, wait: bool) -> Option<Arc<dyn Work>> {
        let mut queue = lock(&self.queue);
        loop {
            if let Some((work, wanted, joined)) = queue.shared.front_mut() {
                *joined += 1;
                let work = Arc::clone(work);
                if *joined >= *wanted {
                    queue.shared.pop_front();
                }
                return Some(work);
            }
            if let Some(work) = queue.queued.pop_front() {
                return Some(work);
            }
            if !wait {
                return None;
            }
            queue = self
                .offered
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A pool's handle as the line fixer holds it.
pub(super) struct Lent(pub(super) Arc<Pool>);

impl Helpers for Lent {
    fn count(&self) -> usize {
        self.0.most
    }

    fn share(&self, work: &Arc<dyn Work>, helpers: usize) -> bool {
        let mut queue = self.0.with_helpers(helpers);
        if queue.helpers == 0 {
            return false;
        }
        queue.shared.push_back((Arc::clone(work), helpers, 0));
        self.0.offers.fetch_add(1, Ordering::Release);
        self.0.offered.notify_all();
        true
    }

    fn withdraw(&self, work: &Arc<dyn Work>) {
        lock(&self.0.queue)
            .shared
            .retain(|(queued, ..)| !std::ptr::addr_eq(Arc::as_ptr(queued), Arc::as_ptr(work)));
    }

    fn queue(&self, work: Arc<dyn Work>) {
        let mut queue = self.0.with_helpers(self.0.most);
        if queue.helpers == 0 {
            return;
        }
        queue.queued.push_back(work);
        self.0.offers.fetch_add(1, Ordering::Release);
        self.0.offered.notify_one();
    }
}

/// Where a new helper first runs: on a CPU other than the one of the thread that starts it,
/// where the kernel would often leave it queued behind that (busy) thread for milliseconds.
/// Linux only; elsewhere nothing is done. Every call is a request the kernel may refuse, and
/// a refusal changes nothing but where the helper runs.
#[cfg(target_os = "linux")]
mod placement {
    use std::os::unix::thread::JoinHandleExt;

    pub(super) use rustix::thread::CpuSet;

    /// The CPUs the calling thread may run on, if the kernel says.
    pub(super) fn allowed() -> Option<CpuSet> {
        rustix::thread::sched_getaffinity(None).ok()
    }

    /// Asks that the thread of `helper` run on the CPUs of `allowed` other than the calling
    /// thread's (nothing when there is none).
    pub(super) fn away<T>(helper: &std::thread::JoinHandle<T>, allowed: Option<&CpuSet>) {
        let Some(allowed) = allowed else {
            return;
        };
        let here = rustix::thread::sched_getcpu();
        // SAFETY: `cpu_set_t` is plain bits, for which all zeros is a valid (empty) set.
        let mut others: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let mut any = false;
        let most = CpuSet::MAX_CPU.min(8 * size_of::<libc::cpu_set_t>());
        for cpu in (0..most).filter(|&cpu| cpu != here && allowed.is_set(cpu)) {
            // SAFETY: `cpu` is below the number of bits of a `cpu_set_t`, which CPU_SET
            // writes one of without a check.
            unsafe { libc::CPU_SET(cpu, &mut others) };
            any = true;
        }
        if !any {
            return;
        }
        // SAFETY: the handle is borrowed, so its thread is not joined or detached and the id
        // is valid; the kernel reads `size` bytes of `others`. (No safe wrapper sets another
        // thread's CPUs: rustix's takes a thread id, which a new thread has not told yet.)
        let _ = unsafe {
            libc::pthread_setaffinity_np(
                helper.as_pthread_t(),
                size_of::<libc::cpu_set_t>(),
                &raw const others,
            )
        };
    }

    /// Lets the calling thread run on the CPUs of `allowed` again.
    pub(super) fn free(allowed: &CpuSet) {
        let _ = rustix::thread::sched_setaffinity(None, allowed);
    }
}

/// [`placement`] where there is nothing to ask.
#[cfg(not(target_os = "linux"))]
mod placement {
    pub(super) type CpuSet = ();

    pub(super) fn allowed() -> Option<CpuSet> {
        None
    }

    pub(super) fn away<T>(_: &std::thread::JoinHandle<T>, _: Option<&CpuSet>) {}

    pub(super) fn free(_: &CpuSet) {}
}

/// Locks `mutex`; work that panicked did so outside every lock, so what it guards is whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work of `pieces` pieces that any number of threads may do at once, each piece once.
    struct Pieces {
        pieces: usize,
        next: AtomicUsize,
        done: Mutex<Vec<(usize, String)>>,
    }

    impl Work for Pieces {
        fn work(&self) {
            loop {
                let piece = self.next.fetch_add(1, Ordering::Relaxed);
                if piece >= self.pieces {
                    return;
                }
                let name = std::thread::current().name().unwrap_or("caller").to_owned();
                lock(&self.done).push((piece, name));
            }
        }
    }

    fn pieces(pieces: usize) -> Arc<Pieces> {
        Arc::new(Pieces {
            pieces,
            next: AtomicUsize::new(0),
            done: Mutex::new(Vec::new()),
        })
    }

    /// Shared work is done once, piece by piece, by the caller and the helpers that join it;
    /// queued work by a helper, or by nobody until its caller does it. No more helpers start
    /// than the pool holds.
    #[test]
    fn shared_and_queued_work_is_done_once() {
        let pool = Pool::new(2);
        let lent = Lent(Arc::clone(&pool));
        assert_eq!(lent.count(), 2);
        let work = pieces(10_000);
        let shared: Arc<dyn Work> = Arc::clone(&work) as Arc<dyn Work>;
        assert!(lent.share(&shared, 5));
        work.work();
        lent.withdraw(&shared);
        // Helpers may still be finishing their last piece.
        while lock(&work.done).len() < 10_000 {
            std::thread::yield_now();
        }
        let mut done: Vec<usize> = lock(&work.done).iter().map(|(piece, _)| *piece).collect();
        done.sort_unstable();
        assert_eq!(done, (0..10_000).collect::<Vec<_>>());
        assert_eq!(lock(&pool.queue).helpers, 2);
        assert!(lock(&pool.queue).shared.is_empty());

        let queued = pieces(3);
        lent.queue(Arc::clone(&queued) as Arc<dyn Work>);
        while lock(&queued.done).len() < 3 {
            std::thread::yield_now();
        }
        assert!(
            lock(&queued.done)
                .iter()
                .all(|(_, name)| name == "mojibake-judge")
        );

        // A pool of none takes nothing: the caller does it all.
        let none = Lent(Pool::new(0));
        assert!(!none.share(&shared, 1));
        let waiting = pieces(1);
        none.queue(Arc::clone(&waiting) as Arc<dyn Work>);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(lock(&waiting.done).is_empty());
    }

    /// A thread sent away runs on the allowed CPUs but the sender's, and on all of them again
    /// once freed; with one CPU allowed, nothing changes.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_helper_is_sent_away_then_freed() {
        let allowed = placement::allowed().expect("the kernel tells the CPUs");
        let count = allowed.count();
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let helper = std::thread::spawn(move || {
            wait.recv().expect("told to go");
            let away = placement::allowed().expect("the kernel tells the CPUs");
            placement::free(&allowed);
            (
                away,
                placement::allowed().expect("the kernel tells the CPUs"),
            )
        });
        placement::away(&helper, Some(&allowed));
        go.send(()).expect("the helper waits");
        let (away, freed) = helper.join().expect("the helper ends");
        // Sent away: one CPU fewer (the sender's when it asked, which it may have left since).
        if count > 1 {
            assert_eq!(away.count(), count - 1);
            assert!((0..CpuSetMax::MAX).all(|cpu| !away.is_set(cpu) || allowed.is_set(cpu)));
        } else {
            assert_eq!(away, allowed);
        }
        assert_eq!(freed, allowed);
    }

    #[cfg(target_os = "linux")]
    struct CpuSetMax;

    #[cfg(target_os = "linux")]
    impl CpuSetMax {
        const MAX: usize = placement::CpuSet::MAX_CPU;
    }
}
