//! The limits of the script call running on a thread: set for the call's duration by a
//! [`CallGuard`], read by the engine's progress hook.

use super::*;

/// What stops the script call running on a thread, besides the engine's own limits.
#[derive(Clone, Copy, Debug)]
pub(super) struct CallLimits {
    /// The engine's operation count when the call began: a VM kept for the next call counts
    /// on from where the last one ended, so every limit is on the operations since `base`.
    pub(super) base: u64,
    /// Operations per call ([`Limits::max_operations`]; 0: unlimited).
    pub(super) max_operations: u64,
    /// The wall-clock deadline.
    pub(super) deadline: Instant,
    /// Whether the deadline is the end of the script's per-solve time budget (else the per-call
    /// time limit).
    pub(super) deadline_is_budget: bool,
    /// The operations the script has left in its per-solve budget.
    pub(super) operations_left: u64,
}

thread_local! {
    /// The limits of the script call running on this thread.
    pub(super) static CALL: StdCell<Option<CallLimits>> = const { StdCell::new(None) };
    /// The operations counted so far in the script call running on this thread.
    pub(super) static OPERATIONS: StdCell<u64> = const { StdCell::new(0) };
    /// When a [`ScriptTechnique::profile`] run is stopped on this thread (0: never).
    pub(super) static STOP_AT: StdCell<u64> = const { StdCell::new(0) };
}

/// The value `on_progress` stops a profiling run with.
pub(super) const PROFILE_STOP: &str = "lapiz: profile sample";

/// The value `on_progress` terminates a script with when it passes its operations per call.
pub(super) const OPERATIONS_UP: &str = "lapiz: operation limit";

/// The value `on_progress` terminates a script with when its time is up.
pub(super) const TIME_UP: &str = "lapiz: time limit";
/// ... when its per-solve time budget is spent.
pub(super) const BUDGET_TIME_UP: &str = "lapiz: per-solve time budget";
/// ... when its per-solve operation budget is spent.
pub(super) const BUDGET_OPERATIONS_UP: &str = "lapiz: per-solve operation budget";

/// Sets this thread's call limits for the duration of a call and restores the previous ones.
pub(super) struct CallGuard {
    pub(super) base: u64,
    prev: Option<CallLimits>,
    prev_operations: u64,
}

impl CallGuard {
    /// Limits for a call: `limits`' operations and wall-clock time, less time if `allowance`
    /// (what is left of the script's per-solve budget) is shorter; `base` is the engine's
    /// operation count when the call begins (0 for a fresh engine state or VM).
    pub(super) fn new(
        limits: &Limits,
        allowance: Option<budget::Allowance>,
        base: u64,
    ) -> CallGuard {
        let limit = limits.time_limit;
        let now = Instant::now();
        let (time, deadline_is_budget, operations_left) = match allowance {
            Some(a) if a.time < limit => (a.time, true, a.operations),
            Some(a) => (limit, false, a.operations),
            None => (limit, false, u64::MAX),
        };
        let limits = CallLimits {
            base,
            max_operations: limits.max_operations,
            deadline: now
                .checked_add(time)
                .unwrap_or(now + Duration::from_secs(86_400)),
            deadline_is_budget,
            operations_left,
        };
        let prev = CALL.with(|c| c.replace(Some(limits)));
        let prev_operations = OPERATIONS.with(|o| o.replace(base));
        CallGuard {
            base,
            prev,
            prev_operations,
        }
    }

    /// The operations counted in this call so far.
    pub(super) fn operations(&self) -> u64 {
        OPERATIONS.with(StdCell::get).saturating_sub(self.base)
    }

    /// The engine's operation count now (`base` plus this call's operations).
    pub(super) fn count(&self) -> u64 {
        OPERATIONS.with(StdCell::get)
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        CALL.with(|c| c.set(self.prev));
        OPERATIONS.with(|o| o.set(self.prev_operations));
    }
}
