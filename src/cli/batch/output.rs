//! Where a batch's results go: in input order, each as soon as it and every earlier one are
//! done, flushed when the next is slow to come. Several workers hand their results to the
//! calling thread, which writes them ([`in_pool`]); one worker is the calling thread, which
//! works and writes in turn while a second thread flushes ([`Turn`]).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::{CHUNK, ONE_WORKER_CHUNK, workers};

/// How long written results may wait in the output buffer while the next result is not
/// ready: a slow puzzle does not hold back the ones before it, and fast runs are not slowed by
/// a flush per result.
const FLUSH_AFTER: Duration = Duration::from_millis(100);

/// How long the thread that writes the results first naps when none is ready; each nap is
/// twice the one before, up to [`NAP_LONGEST`], and a nap that finds results waiting does not
/// start the series again, so a steady stream of results wakes the writer about once per
/// [`NAP_LONGEST`] and it takes them all at once. It naps rather than blocks on the channel:
/// waking a blocked thread for each result cost a third of the time of a fast batch (`count`,
/// a few µs a puzzle), and even waking every 50 µs cost a tenth of it (docs/performance.md).
/// The workers wake it when they are done, so the end of a chunk is not waited for.
const NAP_SHORTEST: Duration = Duration::from_micros(50);

/// The longest nap (see [`NAP_SHORTEST`]): how late a result may be written, at most.
const NAP_LONGEST: Duration = Duration::from_millis(5);

/// Where a batch writes its results, for the length of one file (or one run of
/// [`for_each_index`](super::for_each_index)): with one worker, the writer shared with a thread that flushes results
/// left waiting ([`Turn`]); with more, the writer itself. Made by [`with_output`].
pub(super) enum Output<'s, 'e, W: Write + Send> {
    /// The results of several workers, written by the calling thread ([`in_pool`]).
    Pool { out: &'e mut W, workers: usize },
    /// One worker: the calling thread works and writes in turn.
    Turn(Turn<'s, 'e, W>),
}

/// Runs `body` with the output of a batch writing to `out`: the number of workers is read
/// once, and with one worker the thread that flushes results is started at most once.
pub(super) fn with_output<W: Write + Send>(
    out: &mut W,
    body: impl FnOnce(&mut Output<'_, '_, W>) -> Result<()>,
) -> Result<()> {
    match workers()? {
        1 => one_thread(out, body),
        workers => body(&mut Output::Pool { out, workers }),
    }
}

/// [`with_output`] with one worker.
fn one_thread<W: Write + Send>(
    out: &mut W,
    body: impl FnOnce(&mut Output<'_, '_, W>) -> Result<()>,
) -> Result<()> {
    let shared = Mutex::new(Written {
        out,
        unflushed_since: None,
        failed: None,
    });
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut output = Output::Turn(Turn {
            shared: &shared,
            finished: &finished,
            scope,
            flusher: None,
        });
        body(&mut output)?;
        // Stops the flushing thread (dropping the turn does, a panic's unwinding too).
        drop(output);
        match lock(&shared).failed.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    })
}

impl<W: Write + Send> Output<'_, '_, W> {
    /// How many puzzle lines a chunk holds: [`CHUNK`] for several workers, [`ONE_WORKER_CHUNK`]
    /// for one.
    pub(super) fn chunk(&self) -> usize {
        match self {
            Output::Pool { .. } => CHUNK,
            Output::Turn(_) => ONE_WORKER_CHUNK,
        }
    }

    /// Flushes the results written so far.
    pub(super) fn flush(&mut self) -> Result<()> {
        match self {
            Output::Pool { out, .. } => out.flush()?,
            Output::Turn(turn) => {
                let mut w = lock(turn.shared);
                if let Some(e) = w.failed.take() {
                    return Err(e.into());
                }
                w.unflushed_since = None;
                w.out.flush()?;
            }
        }
        Ok(())
    }

    /// Runs `work` on `0..n` and hands each result to `emit` in index order, each as soon as it
    /// and every earlier one are done, so output streams in input order and an interrupted
    /// run keeps what it finished; the first error `emit` returns stops the run. A result
    /// written does not wait in the output buffer more than about [`FLUSH_AFTER`] while the
    /// next is not ready: a slow puzzle does not hold back the ones before it.
    pub(super) fn in_order<T: Send>(
        &mut self,
        n: usize,
        work: impl Fn(usize) -> T + Sync,
        emit: impl FnMut(&mut W, usize, T) -> Result<()>,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        match self {
            Output::Pool { out, workers } => in_pool(n, *workers, *out, work, emit),
            Output::Turn(turn) => turn.run(n, work, emit),
        }
    }
}

/// [`Output::in_order`] on the worker threads. The workers take the indices in order (one at
/// a time, from a shared counter), so results come nearly in order and the ones done ahead of
/// their turn wait in a reorder buffer (at most `n`). `out` is flushed whenever results were
/// written and the next one has not come for [`FLUSH_AFTER`]. The first error `emit` returns
/// stops the workers taking more and is returned once those running have finished.
fn in_pool<T: Send, W: Write + Send>(
    n: usize,
    workers: usize,
    out: &mut W,
    work: impl Fn(usize) -> T + Sync,
    mut emit: impl FnMut(&mut W, usize, T) -> Result<()>,
) -> Result<()> {
    let workers = workers.clamp(1, n);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    let writer = std::thread::current();
    rayon::in_place_scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, work, writer) = (&next, &stop, &work, &writer);
            scope.spawn(move |_| {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
                // The sender first, so that the writer, woken, finds the channel closed once
                // the last worker is done.
                drop(tx);
                writer.unpark();
            });
        }
        // Only the workers hold senders: `recv` fails once the last one is done.
        drop(tx);
        // `waiting[k]` holds the result of index `turn + k` once it is done.
        let mut waiting: VecDeque<Option<T>> = VecDeque::new();
        let (mut turn, mut result, mut unflushed) = (0usize, Ok(()), false);
        // When the results stopped coming, while they have; and the next nap's length.
        let (mut idle_since, mut nap) = (None, NAP_SHORTEST);
        loop {
            let message = match rx.try_recv() {
                Ok(m) => m,
                Err(mpsc::TryRecvError::Disconnected) => break,
                Err(mpsc::TryRecvError::Empty) => {
                    let since = *idle_since.get_or_insert_with(Instant::now);
                    if unflushed && result.is_ok() && since.elapsed() >= FLUSH_AFTER {
                        unflushed = false;
                        if let Err(e) = out.flush() {
                            result = Err(e.into());
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    // A worker that is done unparks it (a stale unpark only ends a nap early).
                    std::thread::park_timeout(nap);
                    nap = (nap * 2).min(NAP_LONGEST);
                    continue;
                }
            };
            idle_since = None;
            let (i, r) = message;
            let k = i - turn;
            if waiting.len() <= k {
                waiting.resize_with(k + 1, || None);
            }
            waiting[k] = Some(r);
            while let Some(Some(r)) = waiting.front_mut().map(Option::take) {
                waiting.pop_front();
                if result.is_ok() {
                    result = emit(out, turn, r);
                    unflushed = true;
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                turn += 1;
            }
        }
        result
    })
}

/// What the calling thread and the flushing thread of a [`Turn`] share.
struct Written<'w, W> {
    out: &'w mut W,
    /// When the oldest result not yet flushed was written, if one is.
    unflushed_since: Option<Instant>,
    /// Why the flushing thread could not flush, once it could not.
    failed: Option<io::Error>,
}

/// Locks what the two threads of a [`Turn`] share. A poisoned lock means `emit` panicked,
/// which the scope passes on: the state is still whole (a writer), so it is used as it is.
fn lock<'a, 'w, W>(shared: &'a Mutex<Written<'w, W>>) -> std::sync::MutexGuard<'a, Written<'w, W>> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// A batch with one worker: the calling thread runs each item and writes its result itself,
/// with no channel or reordering between them (2-4% of the time of counting a file of fast
/// puzzles, docs/performance.md). A second thread, asleep but for a check every
/// [`FLUSH_AFTER`], flushes the output once results have waited there that long, so a slow
/// puzzle still does not hold back the ones written before it. It is started when the
/// second item is due (a one-puzzle file starts none), once for the whole file: starting it
/// for each chunk cost 1-2% of counting a file of fast puzzles.
pub(super) struct Turn<'s, 'e, W> {
    shared: &'e Mutex<Written<'e, W>>,
    /// Set when the batch is done: the flushing thread stops.
    finished: &'e AtomicBool,
    scope: &'s std::thread::Scope<'s, 'e>,
    /// The flushing thread, once started.
    flusher: Option<std::thread::Thread>,
}

impl<W: Write + Send> Turn<'_, '_, W> {
    /// [`Output::in_order`] on the calling thread.
    fn run<T>(
        &mut self,
        n: usize,
        work: impl Fn(usize) -> T,
        mut emit: impl FnMut(&mut W, usize, T) -> Result<()>,
    ) -> Result<()> {
        for i in 0..n {
            if self.flusher.is_none() && lock(self.shared).unflushed_since.is_some() {
                self.start_flusher();
            }
            let r = work(i);
            let mut w = lock(self.shared);
            if let Some(e) = w.failed.take() {
                return Err(e.into());
            }
            emit(w.out, i, r)?;
            w.unflushed_since.get_or_insert_with(Instant::now);
        }
        Ok(())
    }

    fn start_flusher(&mut self) {
        let (shared, finished) = (self.shared, self.finished);
        let flusher = self.scope.spawn(move || {
            loop {
                std::thread::park_timeout(FLUSH_AFTER);
                if finished.load(Ordering::Acquire) {
                    break;
                }
                let mut w = lock(shared);
                if w.failed.is_none()
                    && w.unflushed_since
                        .is_some_and(|t| t.elapsed() >= FLUSH_AFTER)
                {
                    w.unflushed_since = None;
                    if let Err(e) = w.out.flush() {
                        w.failed = Some(e);
                    }
                }
            }
        });
        self.flusher = Some(flusher.thread().clone());
    }
}

/// Stops the flushing thread however the batch ends, a panic in `work` or `emit` included:
/// the scope waits for it before passing the panic on.
impl<W> Drop for Turn<'_, '_, W> {
    fn drop(&mut self) {
        self.finished.store(true, Ordering::Release);
        if let Some(t) = &self.flusher {
            t.unpark();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Output, one_thread};
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// A writer that keeps what is written and when each flush came.
    #[derive(Clone, Default)]
    struct Recorder {
        written: Arc<Mutex<Vec<u8>>>,
        flushes: Arc<Mutex<Vec<Instant>>>,
        fail: bool,
    }

    impl Write for Recorder {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.written.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.flushes.lock().unwrap().push(Instant::now());
            if self.fail {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "reader gone"));
            }
            Ok(())
        }
    }

    #[test]
    fn one_thread_flushes_a_result_while_the_next_is_slow() {
        let mut out = Recorder::default();
        let slow_started = Mutex::new(None);
        let work = |i: usize| {
            if i == 1 {
                *slow_started.lock().unwrap() = Some(Instant::now());
                std::thread::sleep(Duration::from_millis(1500));
            }
            i
        };
        let emit = |o: &mut Recorder, _: usize, r: usize| Ok(writeln!(o, "{r}")?);
        one_thread(&mut out, |o| o.in_order(3, work, emit)).unwrap();
        assert_eq!(*out.written.lock().unwrap(), b"0\n1\n2\n");
        let started = slow_started.lock().unwrap().expect("the slow item ran");
        // result 0 was flushed while item 1 worked, not only at the end
        let flushes = out.flushes.lock().unwrap();
        assert!(
            flushes
                .iter()
                .any(|&t| t > started && t < started + Duration::from_millis(1400)),
            "no flush during the slow item: {flushes:?}"
        );
    }

    #[test]
    fn one_thread_starts_one_flushing_thread_for_all_chunks_and_none_for_one_item() {
        let mut out = Recorder::default();
        let emit = |o: &mut Recorder, _: usize, r: usize| Ok(writeln!(o, "{r}")?);
        let flusher = |o: &Output<'_, '_, Recorder>| match o {
            Output::Turn(t) => t.flusher.as_ref().map(|t| t.id()),
            Output::Pool { .. } => panic!("one thread"),
        };
        one_thread(&mut out, |o| {
            o.in_order(1, |i| i, emit)?;
            assert_eq!(flusher(o), None, "one item needs no flushing thread");
            o.in_order(2, |i| i, emit)?;
            let first = flusher(o).expect("started for the second item");
            // a later chunk: the same thread, and it flushes the results before a slow item
            let slow_started = Mutex::new(None);
            o.in_order(
                2,
                |i| {
                    if i == 1 {
                        *slow_started.lock().unwrap() = Some(Instant::now());
                        std::thread::sleep(Duration::from_millis(1000));
                    }
                    i
                },
                emit,
            )?;
            assert_eq!(flusher(o), Some(first));
            let started = slow_started.lock().unwrap().expect("the slow item ran");
            let flushes = out_flushes(o);
            assert!(
                flushes
                    .iter()
                    .any(|&t| t > started && t < started + Duration::from_millis(900)),
                "no flush during the slow item: {flushes:?}"
            );
            Ok(())
        })
        .unwrap();
        assert_eq!(*out.written.lock().unwrap(), b"0\n0\n1\n0\n1\n");
    }

    /// When the recorder under a one-thread output was flushed.
    fn out_flushes(o: &Output<'_, '_, Recorder>) -> Vec<Instant> {
        match o {
            Output::Turn(t) => super::lock(t.shared).out.flushes.lock().unwrap().clone(),
            Output::Pool { .. } => panic!("one thread"),
        }
    }

    #[test]
    fn one_thread_reports_a_failed_flush_and_survives_a_panic() {
        let mut out = Recorder {
            fail: true,
            ..Recorder::default()
        };
        let emit = |o: &mut Recorder, _: usize, r: usize| Ok(writeln!(o, "{r}")?);
        // result 0 waits while item 1 works: the flush fails, and that is the run's error
        let slow = |i: usize| {
            if i == 1 {
                std::thread::sleep(Duration::from_millis(1000));
            }
            i
        };
        let err = one_thread(&mut out, |o| o.in_order(3, slow, emit)).unwrap_err();
        assert!(err.to_string().contains("reader gone"), "{err}");
        // a panic in the work ends the run (the flushing thread stops too) instead of hanging
        let mut out = Recorder::default();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            one_thread(&mut out, |o| {
                o.in_order(
                    3,
                    |i| {
                        assert!(i != 1, "item 1 fails");
                        i
                    },
                    emit,
                )
            })
        }));
        assert!(caught.is_err());
    }
}
