//! Ctrl-C inside one long solve: the solve runs on a thread of its own under a
//! [`Stop`](lapiz::model::Stop) while the calling thread, the GIL released, wakes every
//! [`CHECK_EVERY`] to let Python run its signal handlers; a `KeyboardInterrupt` there sets the
//! stop, the solve ends within moments, and the exception is raised. A time limit ends it the
//! same way, as `--time-limit` does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

use lapiz::model::Stop;

/// How often the calling thread checks for signals while the solve runs.
const CHECK_EVERY: Duration = Duration::from_millis(50);

/// A `time_limit` argument: seconds above 0, as `--time-limit` takes them.
pub fn deadline(time_limit: Option<f64>) -> PyResult<Option<Instant>> {
    let Some(secs) = time_limit else {
        return Ok(None);
    };
    if !(secs.is_finite() && secs > 0.0) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "time_limit {secs} is not a number of seconds above 0"
        )));
    }
    // a limit past what a clock holds is no limit
    Ok(Duration::try_from_secs_f64(secs)
        .ok()
        .and_then(|d| Instant::now().checked_add(d)))
}

/// Runs `work` so that Ctrl-C (any exception a signal handler raises) stops it, as does the
/// `deadline` when given: its result, or the exception once the work has stopped.
pub fn interruptible<R: Send>(
    py: Python<'_>,
    deadline: Option<Instant>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    let flag = Arc::new(AtomicBool::new(false));
    let stop = Stop::on_flag(Arc::clone(&flag));
    let stop = match deadline {
        Some(at) => stop.with_deadline(at),
        None => stop,
    };
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let handle = scope.spawn(move || {
            let r = stop.during(work);
            caller.unpark();
            r
        });
        loop {
            let done = py.detach(|| {
                if !handle.is_finished() {
                    std::thread::park_timeout(CHECK_EVERY);
                }
                handle.is_finished()
            });
            if done {
                break;
            }
            if let Err(e) = py.check_signals() {
                flag.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        match handle.join() {
            Ok(r) => Ok(r),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
