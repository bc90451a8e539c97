//! Doing the jobs: one after another, or on `-j` threads with the output kept in input
//! order (the walker is one of the threads; batches in, a bounded reorder window out).

use super::*;

/// Checks the inputs one after the other, writing straight to `out`.
///
/// # Errors
///
/// A failure to write to `out`.
pub fn check_sequential(
    settings: &Settings,
    out: &mut dyn WriteColor,
    tally: &mut Tally,
    messages: &mut Messages,
) -> io::Result<()> {
    let mut reader = ChunkReader::new();
    let mut result = Ok(());
    let _ = walk::jobs(
        &settings.operands,
        settings.files_from.as_ref(),
        &settings.walk,
        &mut |job| {
            if tally.is_stopped {
                // -q has its answer: only trouble can still change the status.
                tally.absorb(probe_job(&job), messages);
                return ControlFlow::Continue(());
            }
            let mut outcome = check_job(settings, &job, &mut reader, out);
            let write_error = outcome.write_error.take();
            // After -q's first finding the later jobs are still probed for trouble.
            tally.absorb(outcome, messages);
            match write_error {
                Some(error) => {
                    result = Err(error);
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            }
        },
    );
    result
}

/// Checks the inputs on `settings.threads` threads, each into its own buffer, and prints the
/// buffers in input order: the walker and `threads - 1` workers. The walker checks jobs itself
/// whenever the workers' queue is full, so that it neither waits nor competes with one thread
/// more than cores (with a separate walker on two cores, the walk got two thirds of a core and
/// set the pace: the Python standard library took 0.90 of ripgrep's time, now 1.00).
///
/// The walker hands out jobs in batches, and a worker sends back a batch's results at once, so
/// that the threads meet once per batch, not once per file (per-file hand-offs cost 7 futex
/// calls a file and made two threads slower than one on a tree of small files). Batches grow
/// from 1 job to [`BATCH_MAX`], so that the first results of a walk are printed at once.
///
/// Every job index gets an outcome, so the in-order printer never waits for one that will not
/// come. When `-q` sees a finding, `stop_after` drops to that job's index: later jobs are only
/// probed for trouble, earlier ones still run, and the result is what one thread gives. When
/// standard output closes, `is_closed` stops the listing.
///
/// Returns `false`, having checked nothing, when not even the walker's thread can be started
/// (a `ulimit` on threads or memory): the caller checks on one thread. Workers that cannot be
/// started are done without, with a note.
pub(super) fn check_parallel(
    settings: &Settings,
    tally: &mut Tally,
    messages: &mut Messages,
) -> io::Result<bool> {
    type Done = (usize, Vec<(termcolor::Buffer, Outcome)>);
    let is_terminal = io::stdout().is_terminal();
    let choice = settings.color.resolve(is_terminal);
    let writer = BufferWriter::stdout(choice);
    let stop_after = AtomicUsize::new(usize::MAX);
    let is_closed = AtomicBool::new(false);
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Vec<Job>)>(settings.threads * 2);
    // How many results may wait for an earlier, slower one: a job is handed out only once the
    // printer is within REORDER_WINDOW of it, so a slow first input (a FIFO, a huge file) holds
    // at most that many rendered results in memory, not the whole tree's.
    let printed = (Mutex::new(0usize), std::sync::Condvar::new());
    let batch_rx = Mutex::new(batch_rx);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut result = Ok(());
    // One batch of jobs, checked by whichever thread holds it, into its results.
    let check_batch = |first: usize, jobs: &[Job], reader: &mut ChunkReader| {
        let mut results = Vec::with_capacity(jobs.len());
        for (index, job) in (first..).zip(jobs) {
            let mut buffer = writer.buffer();
            let outcome = if index > stop_after.load(Ordering::Relaxed) {
                probe_job(job)
            } else {
                check_job(settings, job, reader, &mut buffer)
            };
            if settings.mode == Mode::Quiet && outcome.has_findings() {
                stop_after.fetch_min(index, Ordering::Relaxed);
            }
            results.push((buffer, outcome));
        }
        results
    };
    let mut walker_started = false;
    let mut workers_started = 0;
    std::thread::scope(|scope| {
        // The workers first, so that the walker knows whether it has any. The walker checks
        // when the workers are behind: one worker fewer than threads keeps every core busy
        // without one thread more than cores.
        for _ in 1..settings.threads {
            let done_tx = done_tx.clone();
            let batch_rx = &batch_rx;
            let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut reader = ChunkReader::new();
                loop {
                    let next = batch_rx.lock().expect("no worker panics").recv();
                    let Ok((first, jobs)) = next else { break };
                    if done_tx
                        .send((first, check_batch(first, &jobs, &mut reader)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
            if started.is_err() {
                break;
            }
            workers_started += 1;
        }
        let has_workers = workers_started > 0;
        let walker_done_tx = done_tx.clone();
        let (check_batch, printed, is_closed) = (&check_batch, &printed, &is_closed);
        let walker = std::thread::Builder::new().spawn_scoped(scope, move || {
            let mut reader = ChunkReader::new();
            let mut first = 0;
            let mut batch = Vec::with_capacity(1);
            let mut batch_len = 1;
            // The batches handed out and not yet printed: (index after the last, weight), and
            // their total weight.
            let mut in_flight = VecDeque::new();
            let mut held = 0;
            let mut send = |batch: Vec<Job>, first: usize| -> ControlFlow<()> {
                let weight: usize = batch.iter().map(Job::weight).sum();
                let (count, turned) = printed;
                let mut count = count.lock().expect("no thread panics holding it");
                loop {
                    while let Some(&(end, done)) = in_flight.front() {
                        if end > *count {
                            break;
                        }
                        in_flight.pop_front();
                        held -= done;
                    }
                    let full = first >= *count + REORDER_WINDOW
                        || (held > 0 && held + weight > REORDER_WINDOW_BYTES);
                    if !full || is_closed.load(Ordering::Relaxed) {
                        break;
                    }
                    count = turned.wait(count).expect("no thread panics holding it");
                }
                drop(count);
                in_flight.push_back((first + batch.len(), weight));
                held += weight;
                if is_closed.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                // The walker is one of the threads: while the workers are behind, it checks the
                // batch's jobs itself, one at a time so that it hands the rest over as soon as
                // a worker is free (a whole batch would leave the workers idle meanwhile).
                let (mut batch, mut at, mut results) = (batch, first, Vec::new());
                let handed = loop {
                    // With no worker (none could be started) the walker checks every job.
                    let offered = if has_workers {
                        batch_tx.try_send((at, batch))
                    } else {
                        Err(mpsc::TrySendError::Full((at, batch)))
                    };
                    match offered {
                        Ok(()) => break true,
                        Err(mpsc::TrySendError::Full((_, rest))) => batch = rest,
                        Err(mpsc::TrySendError::Disconnected(_)) => break false,
                    }
                    let rest = batch.split_off(1);
                    results.extend(check_batch(at, &batch, &mut reader));
                    (batch, at) = (rest, at + 1);
                    if batch.is_empty() {
                        break true;
                    }
                };
                let sent = results.is_empty() || walker_done_tx.send((first, results)).is_ok();
                if handed && sent {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            };
            let walked = walk::jobs(
                &settings.operands,
                settings.files_from.as_ref(),
                &settings.walk,
                &mut |job| {
                    batch.push(job);
                    if batch.len() < batch_len {
                        return ControlFlow::Continue(());
                    }
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(batch_len * 2));
                    let sent = full.len();
                    send(full, first)?;
                    first += sent;
                    batch_len = (batch_len * 2).min(BATCH_MAX);
                    ControlFlow::Continue(())
                },
            );
            if walked.is_continue() && !batch.is_empty() {
                let _ = send(batch, first);
            }
            drop(batch_tx);
        });
        // Not started: the closure, and the senders it holds, are dropped; nothing is sent,
        // and the workers, finding the channel closed, end.
        walker_started = walker.is_ok();
        drop(done_tx);
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (first, results) in done_rx {
            pending.insert(first, results);
            while let Some(results) = pending.remove(&next) {
                next += results.len();
                for (buffer, mut outcome) in results {
                    if result.is_err() {
                        continue;
                    }
                    if tally.is_stopped {
                        // -q has its answer: only trouble can still change the status.
                        tally.absorb(probe_outcome(outcome), messages);
                        continue;
                    }
                    let shown = match outcome.write_error.take() {
                        Some(error) => Err(error),
                        None => writer.print(&buffer),
                    };
                    // The findings count even when their output could not be written.
                    tally.absorb(outcome, messages);
                    if let Err(error) = shown {
                        stop_after.store(0, Ordering::Relaxed);
                        is_closed.store(true, Ordering::Relaxed);
                        result = Err(error);
                    }
                }
                // Under the lock, so that the walker cannot miss the wake-up.
                *printed.0.lock().expect("no thread panics holding it") = next;
                printed.1.notify_all();
            }
        }
    });
    result?;
    if !walker_started {
        return Ok(false);
    }
    if workers_started + 1 < settings.threads {
        messages.note(format_args!(
            "only {} of {} threads could be started; checking on {}",
            workers_started + 1,
            settings.threads,
            workers_started + 1
        ));
    }
    let mut buffer = writer.buffer();
    tally.finish(&mut buffer)?;
    writer.print(&buffer)?;
    Ok(true)
}

/// How many jobs past the oldest unprinted one may be handed out (see `check_parallel`). 512 held
/// the walk back behind a run of slow files (a directory of legacy files, each read again for
/// its hint: 0.75 of ripgrep's time on a 50k-file tree, 0.89 with 2048).
pub(super) const REORDER_WINDOW: usize = 2048;

/// How many bytes of names the jobs handed out and not yet printed may hold (see
/// [`Job::weight`]): 2048 ordinary paths weigh a few hundred kilobytes, but 2048 names near
/// PATH_MAX (a long list of deep paths) would weigh 16 MB.
pub(super) const REORDER_WINDOW_BYTES: usize = 2 << 20;

/// The most jobs a batch of `check_parallel` holds.
pub(super) const BATCH_MAX: usize = 64;

/// What is left of a job once `-q` has its answer: trouble (a missing file) still counts, since
/// trouble wins over findings; nothing is read.
pub(super) fn probe_job(job: &Job) -> Outcome {
    let trouble = match job {
        Job::Trouble { path, reason } => Some((path.clone(), reason.clone())),
        Job::Note { .. } | Job::Name { .. } => None,
        Job::Check {
            source: Source::Stdin,
            ..
        } => None,
        Job::Check {
            source: Source::Path(path),
            ..
        } => std::fs::File::open(path)
            .err()
            .map(|error| (crate::render::path(path).into_owned(), io_reason(&error))),
    };
    Outcome {
        trouble,
        ..Outcome::default()
    }
}

/// The trouble of an outcome checked before `-q` stopped the run, without its findings.
pub(super) fn probe_outcome(outcome: Outcome) -> Outcome {
    Outcome {
        trouble: outcome.trouble,
        ..Outcome::default()
    }
}
