//! [`Stop`]: when a long piece of work (a solve, a rating, a technique's search) is to end
//! before its end, by a cancel flag another thread sets or by a deadline.
//!
//! A stop is handed to the work by running it inside [`Stop::during`]: the stop is the
//! thread's until `during` returns, and every solve and search on the thread polls it (the
//! engine between techniques, the long searches in their loops). A search that sees it ends
//! at once, and the engine ends the solve with the steps it has.
//!
//! ```
//! use std::time::Instant;
//! use lapiz::model::{Stop, StopCause};
//!
//! let expired = Stop::at(Instant::now());
//! assert_eq!(expired.reached(), Some(StopCause::TimeLimit));
//! assert_eq!(Stop::never().reached(), None);
//! ```
//!
//! Deadlines are `web_time`'s [`Instant`]: the standard library's own everywhere but in
//! WebAssembly in a browser or Node, where `std::time::Instant::now` panics and `web_time`
//! reads `performance.now()` instead (docs/dependencies.md).

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Why work was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StopCause {
    /// Its cancel flag was set (Ctrl-C, a caller giving up).
    Cancelled,
    /// Its deadline passed (`--time-limit`, a request's deadline).
    TimeLimit,
}

impl std::fmt::Display for StopCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopCause::Cancelled => "cancelled",
            StopCause::TimeLimit => "time limit reached",
        })
    }
}

/// When to stop: a cancel flag, a deadline, both or neither ([`Stop::never`]).
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

impl Stop {
    /// No stop: the work runs to its end.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// Stops at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            flag: None,
            deadline: Some(deadline),
        }
    }

    /// Stops `limit` from now (never, for a limit too far to be an instant).
    pub fn after(limit: Duration) -> Stop {
        Stop {
            flag: None,
            deadline: Instant::now().checked_add(limit),
        }
    }

    /// Stops once `flag` is set (by any thread).
    pub fn on_flag(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            flag: Some(flag),
            deadline: None,
        }
    }

    /// The same stop, also stopping once `flag` is set.
    pub fn with_flag(self, flag: Arc<AtomicBool>) -> Stop {
        Stop {
            flag: Some(flag),
            ..self
        }
    }

    /// The same stop, also stopping at `deadline` (the earlier deadline wins).
    pub fn with_deadline(self, deadline: Instant) -> Stop {
        Stop {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            ..self
        }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether it can stop at all (a flag or a deadline).
    pub fn is_never(&self) -> bool {
        self.flag.is_none() && self.deadline.is_none()
    }

    /// Why the work must stop now, if it must: the flag is set, or the deadline passed.
    pub fn reached(&self) -> Option<StopCause> {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some(StopCause::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopCause::TimeLimit);
        }
        None
    }

    /// Runs `work` with this stop as the thread's: every solve and search in `work` polls it
    /// and ends early once it is reached. Stops nest: an inner one is the thread's until its
    /// `during` returns.
    pub fn during<R>(&self, work: impl FnOnce() -> R) -> R {
        let _scope = Scope::install(self.clone());
        work()
    }

    /// [`Stop::during`] for work whose result is only good whole: `Err` with the cause when
    /// the stop was seen inside it (a search in it may have ended early).
    pub fn run<R>(&self, work: impl FnOnce() -> R) -> Result<R, StopCause> {
        let _scope = Scope::install(self.clone());
        let r = work();
        match HIT.with(Cell::get) {
            Some(cause) => Err(cause),
            None => Ok(r),
        }
    }
}

/// Polls between real checks in [`poll`]: a check reads the clock (some 20 ns), a poll
/// between checks only counts down.
const POLLS_PER_CHECK: u32 = 16;

thread_local! {
    /// The thread's stop, if any ([`Stop::during`]).
    static CURRENT: RefCell<Option<Stop>> = const { RefCell::new(None) };
    /// Polls left before the next real check.
    static COUNTDOWN: Cell<u32> = const { Cell::new(0) };
    /// Why the thread's stop was reached, once it was (it stays reached).
    static HIT: Cell<Option<StopCause>> = const { Cell::new(None) };
}

/// The thread's stop while it is alive; the one before it comes back when it drops.
struct Scope {
    outer: Option<Stop>,
    outer_hit: Option<StopCause>,
}

impl Scope {
    fn install(stop: Stop) -> Scope {
        let outer = CURRENT.with(|c| c.borrow_mut().replace(stop));
        let outer_hit = HIT.with(|h| h.replace(None));
        COUNTDOWN.with(|c| c.set(0));
        Scope { outer, outer_hit }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = self.outer.take());
        HIT.with(|h| h.set(self.outer_hit));
        COUNTDOWN.with(|c| c.set(0));
    }
}

/// Why the thread's stop is reached, checked now: `None` without a stop.
pub(crate) fn reached() -> Option<StopCause> {
    if let Some(cause) = HIT.with(Cell::get) {
        return Some(cause);
    }
    let cause = CURRENT.with(|c| c.borrow().as_ref().and_then(Stop::reached));
    if cause.is_some() {
        HIT.with(|h| h.set(cause));
    }
    cause
}

/// Whether the thread's stop is reached, for a search's loop: cheap enough to call in every
/// round that does some work (one real check per [`POLLS_PER_CHECK`] calls; once reached,
/// always `true`).
#[inline]
pub(crate) fn poll() -> bool {
    if HIT.with(Cell::get).is_some() {
        return true;
    }
    let left = COUNTDOWN.with(|c| {
        let left = c.get();
        c.set(left.saturating_sub(1));
        left
    });
    if left > 0 {
        return false;
    }
    COUNTDOWN.with(|c| c.set(POLLS_PER_CHECK));
    reached().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_flag_stops_and_an_unset_one_does_not() {
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop::on_flag(flag.clone());
        assert_eq!(stop.reached(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(stop.reached(), Some(StopCause::Cancelled));
    }

    #[test]
    fn the_threads_stop_is_polled_inside_during_only_and_nests() {
        assert!(!poll());
        let expired = Stop::at(Instant::now());
        expired.during(|| {
            assert!(poll());
            assert_eq!(reached(), Some(StopCause::TimeLimit));
            Stop::never().during(|| {
                assert!(!poll());
                assert_eq!(reached(), None);
            });
            assert!(poll());
        });
        assert!(!poll());
        assert_eq!(reached(), None);
        assert_eq!(
            Stop::at(Instant::now()).run(poll),
            Err(StopCause::TimeLimit)
        );
        assert_eq!(Stop::never().run(poll), Ok(false));
        let far = Stop::after(Duration::from_secs(3600));
        far.during(|| assert!((0..100).all(|_| !poll())));
    }
}
