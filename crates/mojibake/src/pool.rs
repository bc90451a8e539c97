//! Judging many lines at once on the helper threads a program lends ([`Helpers`]).
//!
//! The repair judges the lines of one text run together (a chunk of input, 64 KiB when read in
//! full), which takes about a millisecond: less than a new thread takes to start and to warm
//! its allocator, so the program keeps its helpers. A run is handed over as a [`Job`] holding a
//! copy of its lines; the calling thread judges too, and whatever thread comes free takes the
//! next few lines, so that one slowed by long lines (or by the machine) leaves the rest to the
//! others. The answers come back in order. A [`Task`] is a whole run judged while the caller
//! reads the next.

use std::any::Any;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::helpers::{Helpers, Work};

use crate::chain::{MojibakeChain, MojibakeFix};
use crate::suspect::{SuspectWalk, first_any_suspect};
use crate::undo::{undo_first_layer_into, undo_layers_from, undo_mojibake, undo_suspect_line};

/// The fewest lines that may hold mojibake in one text run that are shared out among threads.
const PARALLEL_LINES: usize = 32;

/// How many lines a thread takes at a time.
const BATCH: usize = 8;

/// How long the caller watches for the last answers before it sleeps.
const SPIN: std::time::Duration = std::time::Duration::from_micros(200);

/// What the mojibake repair makes of a held line (`None`: it stays as it is).
pub(crate) fn judge_line(line: &[u8]) -> Option<MojibakeFix> {
    let text = if utf8kit_codec::simd::allows(utf8kit_codec::simd::Level::Avx2) {
        simdutf8::basic::from_utf8(line).ok()
    } else {
        std::str::from_utf8(line).ok()
    };
    text.and_then(undo_mojibake)
}

/// Undoes the mojibake of many lines at once: for each of `lines` (byte ranges of `text`, one
/// line each, in any order), what [`undo_mojibake`] answers of it, in the same order. A line in
/// which the line filter ([`first_suspect`](crate::first_suspect)) finds no place where
/// mojibake may start costs one pass of it; with `helpers` and many suspect lines, the judging
/// is shared out between the calling thread and the helpers.
///
/// # Panics
///
/// If a range is out of `text` or does not start and end on a character boundary.
///
/// ```
/// use utf8kit_mojibake::undo_lines;
/// let text = "cafÃ©\nPlain text\nitâ€™s\n";
/// let fixes = undo_lines(text, &[0..7, 8..18, 19..30], None);
/// let texts: Vec<_> = fixes.iter().map(|f| f.as_ref().map(|f| f.text.as_str())).collect();
/// assert_eq!(texts, [Some("café"), None, Some("it’s")]);
/// ```
pub fn undo_lines(
    text: &str,
    lines: &[Range<usize>],
    helpers: Option<&Arc<dyn Helpers>>,
) -> Vec<Option<MojibakeFix>> {
    let suspect: Vec<usize> = (0..lines.len())
        .filter(|&i| first_any_suspect(text[lines[i].clone()].as_bytes()).is_some())
        .collect();
    // The suspect lines one after another, each with a newline, as the judging takes them.
    let mut joined = String::with_capacity(suspect.iter().map(|&i| lines[i].len() + 1).sum());
    let spans: Vec<Range<usize>> = suspect
        .iter()
        .map(|&i| {
            let start = joined.len();
            joined.push_str(&text[lines[i].clone()]);
            let end = joined.len();
            joined.push('\n');
            start..end
        })
        .collect();
    let mut answers = vec![None; lines.len()];
    for (i, fix) in suspect
        .into_iter()
        .zip(judge_lines(&joined, &spans, helpers))
    {
        answers[i] = fix;
    }
    answers
}

/// [`judge_lines`] of text on the calling thread, with the repaired texts added to `texts`: for
/// each span (whole lines), where its text lies there, how many groups were decoded and the
/// chain undone; `None` for a line that stays. (A string for each line, made on one thread and freed on another,
/// cost the allocator more than the judging; and even on one thread a string per line cost.)
pub(crate) fn judge_lines_into(
    lines: &str,
    spans: &[Range<usize>],
    texts: &mut String,
) -> Vec<Option<(Range<usize>, usize, MojibakeChain)>> {
    // The first layer of every line.
    let base = texts.len();
    let mut answers: Vec<_> = spans
        .iter()
        .map(|span| {
            let start = texts.len();
            let (groups, encoding) = undo_first_layer_into(&lines[span.clone()], texts)?;
            let mut chain = MojibakeChain::default();
            chain.push(encoding);
            Some((start..texts.len(), groups, chain))
        })
        .collect();
    // The layers after it, for the answers in which the line filter finds a place where
    // mojibake may start: found in one pass over all of them, each a whole line (a newline
    // starts every line afresh for the filter), rather than one call for each.
    let ends: Vec<(usize, usize)> = answers
        .iter()
        .enumerate()
        .filter_map(|(i, answer)| Some((answer.as_ref()?.0.end, i)))
        .collect();
    let first_answers = base..texts.len();
    let mut from = first_answers.start;
    let mut walk = SuspectWalk::default();
    while from < first_answers.end {
        let Some(at) = walk.first_from(&texts.as_bytes()[..first_answers.end], from) else {
            break;
        };
        // The answer that holds `at`: the first that ends after it.
        let (_, i) = ends[ends.partition_point(|&(end, _)| end <= at)];
        let (range, groups, chain) = answers[i].clone().expect("an answer holds the place");
        let first = texts[range.clone()].to_owned();
        let start = texts.len();
        answers[i] = undo_layers_from(&first, (1, groups, chain), texts)
            .map(|(groups, chain)| (start..texts.len(), groups, chain));
        from = range.end;
    }
    answers
}

/// [`judge_line`] for each of `spans` of `lines` (whole lines, each found suspect by the line
/// filter, which is not asked again), in order. With many of them and `helpers`, on the calling
/// thread and the helpers. With few, or no helper, here.
pub(crate) fn judge_lines(
    lines: &str,
    spans: &[Range<usize>],
    helpers: Option<&Arc<dyn Helpers>>,
) -> Vec<Option<MojibakeFix>> {
    let Some(from) = spans.first().map(|s| s.start) else {
        return Vec::new();
    };
    let lent = helpers.map_or(0, |helpers| helpers.count());
    if lent == 0 || spans.len() < PARALLEL_LINES {
        return spans
            .iter()
            .map(|span| undo_suspect_line(&lines[span.clone()]))
            .collect();
    }
    // The helpers own what they read: a copy of the lines the spans cover.
    let to = spans[spans.len() - 1].end;
    let job = Arc::new(Job {
        lines: lines[from..to].to_owned(),
        spans: spans.iter().map(|s| s.start - from..s.end - from).collect(),
        next: AtomicUsize::new(0),
        judged: AtomicUsize::new(0),
        progress: Mutex::new(Progress::default()),
        finished: Condvar::new(),
    });
    let wanted = lent.min(spans.len().div_ceil(BATCH) - 1);
    let shared: Arc<dyn Work> = Arc::clone(&job) as Arc<dyn Work>;
    match helpers {
        Some(helpers) if wanted > 0 && helpers.share(&shared, wanted) => {
            job.work();
            helpers.withdraw(&shared);
        }
        _ => job.work(),
    }
    // The helpers' last batches end soon after the caller's own: watched for a while first.
    let start = std::time::Instant::now();
    while job.judged.load(Ordering::Acquire) < job.spans.len() && start.elapsed() < SPIN {
        std::hint::spin_loop();
    }
    let mut progress = lock(&job.progress);
    while progress.judged < job.spans.len() {
        progress = job
            .finished
            .wait(progress)
            .unwrap_or_else(PoisonError::into_inner);
    }
    if let Some(payload) = progress.panic.take() {
        // A panic in a helper is the caller's, as it would be on one thread.
        resume_unwind(payload);
    }
    let mut batches = std::mem::take(&mut progress.batches);
    batches.sort_unstable_by_key(|(first, _)| *first);
    batches.into_iter().flat_map(|(_, fixes)| fixes).collect()
}

/// The lines of one text run, shared out a batch at a time.
struct Job {
    lines: String,
    spans: Vec<Range<usize>>,
    /// The first span of the next batch.
    next: AtomicUsize,
    /// How many spans are judged (as `progress.judged`, read without the lock).
    judged: AtomicUsize,
    progress: Mutex<Progress>,
    /// Told when the last batch is judged.
    finished: Condvar,
}

/// The batches judged so far, by their first span.
#[derive(Default)]
struct Progress {
    batches: Vec<(usize, Vec<Option<MojibakeFix>>)>,
    judged: usize,
    /// The first panic a batch raised.
    panic: Option<Box<dyn Any + Send>>,
}

impl Work for Job {
    /// Judges batches until none is left.
    fn work(&self) {
        loop {
            let first = self.next.fetch_add(BATCH, Ordering::Relaxed);
            if first >= self.spans.len() {
                return;
            }
            let batch = &self.spans[first..self.spans.len().min(first + BATCH)];
            let fixes = catch_unwind(AssertUnwindSafe(|| {
                batch
                    .iter()
                    .map(|span| undo_suspect_line(&self.lines[span.clone()]))
                    .collect::<Vec<_>>()
            }));
            let mut progress = lock(&self.progress);
            progress.judged += batch.len();
            match fixes {
                Ok(fixes) => progress.batches.push((first, fixes)),
                Err(payload) => {
                    progress.panic.get_or_insert(payload);
                }
            }
            self.judged.store(progress.judged, Ordering::Release);
            if progress.judged == self.spans.len() {
                self.finished.notify_all();
            }
        }
    }
}

/// Work handed to the helpers whole and collected later, in the order the caller chooses: a run
/// of lines found suspect and judged while the calling thread reads the next runs. Whichever
/// thread comes to it first does it: a helper that takes it from the queue, or the caller,
/// which does it itself when it wants the answer and no helper has begun.
pub(crate) struct Task<T> {
    shared: Arc<TaskShared<T>>,
}

struct TaskShared<T> {
    /// The work, until a thread takes it.
    work: Mutex<Option<Box<dyn FnOnce() -> T + Send>>>,
    /// Its answer, or the panic it raised.
    answer: Mutex<Option<std::thread::Result<T>>>,
    /// Told when the answer is in.
    done: Condvar,
    /// The answer is in (read without the lock).
    is_done: AtomicBool,
}

impl<T: Send> TaskShared<T> {
    /// Does the work if no thread has taken it yet; false if one had.
    fn run(&self) -> bool {
        let Some(work) = lock(&self.work).take() else {
            return false;
        };
        let answer = catch_unwind(AssertUnwindSafe(work));
        *lock(&self.answer) = Some(answer);
        self.is_done.store(true, Ordering::Release);
        self.done.notify_all();
        true
    }
}

impl<T: Send> Work for TaskShared<T> {
    fn work(&self) {
        self.run();
    }
}

impl<T: Send + 'static> Task<T> {
    /// Queues `work` for the first of the `helpers` that comes free. Until one does, it waits for
    /// [`Task::join`] or [`Task::run_here`].
    pub(crate) fn spawn(
        helpers: &Arc<dyn Helpers>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Task<T> {
        let shared = Arc::new(TaskShared {
            work: Mutex::new(Some(Box::new(work))),
            answer: Mutex::new(None),
            done: Condvar::new(),
            is_done: AtomicBool::new(false),
        });
        helpers.queue(Arc::clone(&shared) as Arc<dyn Work>);
        Task { shared }
    }

    /// Does the work here if no thread has begun it: true if it did.
    pub(crate) fn run_here(&self) -> bool {
        self.shared.run()
    }

    /// Whether a thread has begun the work.
    pub(crate) fn is_started(&self) -> bool {
        lock(&self.shared.work).is_none()
    }

    /// Whether the answer is in.
    pub(crate) fn is_done(&self) -> bool {
        self.shared.is_done.load(Ordering::Acquire)
    }

    /// The answer: the work is done here if no thread has begun it, else waited for. A panic in
    /// the work is raised here, as it would have been had it been done here.
    pub(crate) fn join(self) -> T {
        self.shared.run();
        // A helper's task ends soon after the caller comes to want it: watched for a while, as
        // waking from the condition variable takes longer (on a virtual machine much longer).
        let start = std::time::Instant::now();
        while !self.is_done() && start.elapsed() < SPIN {
            std::hint::spin_loop();
        }
        let mut answer = lock(&self.shared.answer);
        loop {
            match answer.take() {
                Some(Ok(answer)) => return answer,
                Some(Err(payload)) => resume_unwind(payload),
                None => {
                    answer = self
                        .shared
                        .done
                        .wait(answer)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            }
        }
    }
}

impl<T> std::fmt::Debug for Task<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task").finish_non_exhaustive()
    }
}

/// Locks `mutex`; a batch that panicked did so outside every lock, so what it guards is whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::ThreadPerWork;

    /// `count` lines, a mix of mojibake, correct text and a line no encoding explains, each
    /// numbered, and their spans.
    fn text(count: usize, seed: usize) -> (String, Vec<Range<usize>>) {
        let kinds = [
            "GrÃƒÂ¼ÃƒÅ¸e aus KÃ¶ln",
            "clean text, déjà vu",
            "itâ€™s a cafÃ© â€“ ÐŸÑ€Ð¸Ð²ÐµÑ‚",
            "РґРѕСЂРѕРіРµ",
            "Ã©tÃ© \u{FFFD}",
        ];
        numbered(count, |n| {
            format!("{seed}.{n} {}\n", kinds[(n * 7 + seed) % kinds.len()])
        })
    }

    /// The lines `line` makes of 0..`count`, one after another, and their spans.
    fn numbered(count: usize, line: impl Fn(usize) -> String) -> (String, Vec<Range<usize>>) {
        let mut lines = String::new();
        let mut spans = Vec::new();
        for n in 0..count {
            let start = lines.len();
            lines.push_str(&line(n));
            spans.push(start..lines.len());
        }
        (lines, spans)
    }

    fn one_by_one(lines: &str, spans: &[Range<usize>]) -> Vec<Option<MojibakeFix>> {
        spans
            .iter()
            .map(|s| judge_line(lines[s.clone()].as_bytes()))
            .collect()
    }

    /// Shared out or not, on any number of threads, the answers are those of one thread, in
    /// order, for runs both shorter and longer than a batch.
    #[test]
    fn helpers_answer_as_one_thread_does() {
        for count in [PARALLEL_LINES - 1, PARALLEL_LINES, 33, 250] {
            let (lines, spans) = text(count, 1);
            let expected = one_by_one(&lines, &spans);
            // Correct text stays, mojibake in one layer and in two is repaired.
            let texts: Vec<_> = expected[..3]
                .iter()
                .map(|f| f.as_ref().map(|f| f.text.as_str()))
                .collect();
            assert_eq!(
                texts,
                [None, Some("1.1 дороге\n"), Some("1.2 Grüße aus Köln\n")]
            );
            for threads in [1, 2, 3, 8] {
                let helpers = ThreadPerWork::lent(threads);
                assert_eq!(
                    judge_lines(&lines, &spans, helpers.as_ref()),
                    expected,
                    "{threads}"
                );
            }
        }
    }

    /// Spans that start past the beginning of the text (the run's first lines held no
    /// mojibake) are judged from where they are.
    #[test]
    fn spans_are_read_where_they_are() {
        let (lines, spans) = text(100, 2);
        let padded = format!("xxxxx{lines}");
        let shifted: Vec<_> = spans[10..].iter().map(|s| s.start + 5..s.end + 5).collect();
        let expected = one_by_one(&lines, &spans[10..]);
        assert!(expected.iter().any(Option::is_some));
        let helpers = ThreadPerWork::lent(2);
        assert_eq!(judge_lines(&padded, &shifted, helpers.as_ref()), expected);
    }

    /// Callers on several threads at once share the helpers, and each gets its own answers.
    #[test]
    fn callers_at_once_each_get_their_own_answers() {
        std::thread::scope(|scope| {
            let callers: Vec<_> = (0..4)
                .map(|seed| {
                    scope.spawn(move || {
                        let (lines, spans) = text(120 + seed * 13, seed);
                        let expected = one_by_one(&lines, &spans);
                        for round in 0..20 {
                            let threads = 2 + (seed + round) % 3;
                            let helpers = ThreadPerWork::lent(threads);
                            assert_eq!(judge_lines(&lines, &spans, helpers.as_ref()), expected);
                        }
                    })
                })
                .collect();
            for caller in callers {
                caller.join().expect("a caller finishes");
            }
        });
    }

    /// Tasks give their answers, in whatever order they are collected, wherever they ran: on
    /// a helper, taken back by the caller, or (one thread) only ever here.
    #[test]
    fn tasks_answer_wherever_they_run() {
        for threads in [1, 2, 3] {
            // One thread: no helper ever takes a task.
            let helpers: Arc<dyn Helpers> = Arc::new(ThreadPerWork(threads - 1));
            let tasks: Vec<_> = (0..200)
                .map(|seed| {
                    let helpers = if threads == 1 { &idle() } else { &helpers };
                    Task::spawn(helpers, move || {
                        let (lines, spans) = text(20, seed);
                        (seed, one_by_one(&lines, &spans))
                    })
                })
                .collect();
            let mut ran_here = 0;
            for (seed, task) in tasks.iter().enumerate().rev().step_by(3) {
                // Done here, or begun on a helper.
                let here = task.run_here();
                ran_here += usize::from(here);
                assert!(task.is_started() && (task.is_done() || !here), "{seed}");
                assert!(!task.run_here());
            }
            if threads == 1 {
                assert_eq!(ran_here, 67);
            }
            for (seed, task) in tasks.into_iter().enumerate() {
                let (lines, spans) = text(20, seed);
                assert_eq!(task.join(), (seed, one_by_one(&lines, &spans)));
            }
        }
    }

    /// A panic in a task is raised where it is collected, helper or not.
    #[test]
    fn a_task_that_panics_panics_where_it_is_collected() {
        for threads in [1, 2] {
            let helpers = if threads == 1 {
                idle()
            } else {
                Arc::new(ThreadPerWork(1)) as Arc<dyn Helpers>
            };
            let task = Task::spawn(&helpers, || -> usize { panic!("judged badly") });
            let after = Task::spawn(&helpers, || 7);
            let raised = catch_unwind(AssertUnwindSafe(|| task.join()));
            let message = raised.expect_err("the panic comes back");
            assert_eq!(message.downcast_ref::<&str>(), Some(&"judged badly"));
            assert_eq!(after.join(), 7);
        }
    }

    /// Judged into one string, the lines get the answers they get one by one, text, groups and
    /// chain, in order, after what the string held.
    #[test]
    fn lines_judged_into_one_string_answer_as_one_by_one() {
        let (lines, spans) = text(50, 4);
        let expected = one_by_one(&lines, &spans);
        assert!(expected.iter().filter(|f| f.is_some()).count() > 20);
        assert!(expected.iter().filter(|f| f.is_none()).count() > 5);
        let mut texts = "left as it was".to_owned();
        assert_judged_into_as(&lines, &spans, &mut texts, &expected);
        assert!(texts.starts_with("left as it was"));
    }

    /// The later layers, found in one pass over the first answers, are those of each line on
    /// its own: two, three and four layers, text that changes at every depth (which stays), a
    /// second layer with nothing accepted, beside lines of one layer and clean ones.
    #[test]
    fn later_layers_found_together_answer_as_one_by_one() {
        let kinds = [
            "GrÃƒÂ¼ÃƒÅ¸e, cafÃƒÂ©",
            "GrÃƒÆ’Ã‚Â¼ÃƒÆ’Ã…Â¸e, cafÃƒÆ’Ã‚Â©",
            "cafÃƒÆ’Ã†â€™Ãƒâ€šÃ‚Â©",
            "ÂÂÂÂÂÂÂÂÂÂ£",
            "cafÃ© Ã©tÃ©",
            "plain text",
            "Ã‰tat: Ð°",
            "déjà vu",
        ];
        let (lines, spans) = numbered(120, |n| format!("{n} {}\n", kinds[n % kinds.len()]));
        let expected = one_by_one(&lines, &spans);
        let layers = |i: usize| expected[i].as_ref().map_or(0, |f| f.chain.layers().count());
        assert_eq!(
            (layers(0), layers(1), layers(2), layers(3), layers(4)),
            (2, 3, 4, 0, 1)
        );
        assert_judged_into_as(&lines, &spans, &mut String::new(), &expected);
    }

    /// `judge_lines_into` gives each of `spans` the answer `expected` holds for it.
    fn assert_judged_into_as(
        lines: &str,
        spans: &[Range<usize>],
        texts: &mut String,
        expected: &[Option<MojibakeFix>],
    ) {
        let got = judge_lines_into(lines, spans, texts);
        assert_eq!(got.len(), expected.len());
        for (answer, fix) in got.iter().zip(expected) {
            let answer = answer.as_ref().map(|(text, groups, chain)| MojibakeFix {
                text: texts[text.clone()].to_owned(),
                groups: *groups,
                chain: *chain,
            });
            assert_eq!(answer.as_ref(), fix.as_ref());
        }
    }

    /// Helpers that never take anything: what is queued waits for its caller.
    fn idle() -> Arc<dyn Helpers> {
        struct Idle;
        impl Helpers for Idle {
            fn count(&self) -> usize {
                0
            }
            fn share(&self, _: &Arc<dyn Work>, _: usize) -> bool {
                false
            }
            fn withdraw(&self, _: &Arc<dyn Work>) {}
            fn queue(&self, _: Arc<dyn Work>) {}
        }
        Arc::new(Idle)
    }
}
