//! The per-solve budget of each script: operations and wall-clock time summed over every call
//! of its `find` during one solve (issue 16 item 8).
//!
//! The per-call [`Limits`](super::Limits) stop one runaway call, but a script that spends just
//! under them on every position of a solve can still take minutes. The engine opens
//! a solve scope for each solve; while it is open every script call on that thread is charged
//! to its script, and a call is stopped as soon as its script's budget for the solve runs out.
//! The script then fails with an error naming the budget, and the engine disables it for the
//! rest of the solve (the same path as any other script error). Outside a scope (a script run
//! on its own, the regression library) only the per-call limits apply.

use std::cell::RefCell;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How much each script may spend in one solve, summed over all its calls. Set in the pipeline
/// RON as `script_budget: (operations: 10000000, time_ms: 2000)`; either field may be left
/// out for its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScriptBudget {
    /// Rhai operations per script per solve.
    pub operations: u64,
    /// Wall-clock milliseconds per script per solve.
    pub time_ms: u64,
}

impl Default for ScriptBudget {
    fn default() -> Self {
        ScriptBudget {
            operations: 10_000_000,
            time_ms: 2_000,
        }
    }
}

impl ScriptBudget {
    /// The time budget as a [`Duration`].
    pub fn time(&self) -> Duration {
        Duration::from_millis(self.time_ms)
    }
}

/// What one script spent in one solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptUsage {
    /// The script's path as given.
    pub script: String,
    /// Calls of `find`.
    pub calls: u64,
    /// Rhai operations, summed over the calls.
    pub operations: u64,
    /// Wall-clock time, summed over the calls.
    pub time: Duration,
    /// Which script (scripts loaded twice from one path are told apart).
    key: u64,
}

/// What a script may still spend in the open solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Allowance {
    /// Operations left.
    pub operations: u64,
    /// Time left.
    pub time: Duration,
}

struct SolveState {
    budget: ScriptBudget,
    used: Vec<ScriptUsage>,
    /// Bytes the scripts printed in the solve.
    printed: u64,
}

/// The most bytes the scripts' `print` and `debug` may write in one solve (all scripts of the
/// solve together; outside a solve, in the life of the thread): past it their lines are
/// dropped, after one line that says so.
pub const MAX_PRINT_BYTES: u64 = 64 * 1024;

/// What to do with a line a script prints ([`print_allowance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Print {
    /// Write it.
    Write,
    /// Write the line saying the cap is reached instead, then nothing more.
    CapReached,
    /// Drop it.
    Drop,
}

thread_local! {
    /// The solve open on this thread, if any.
    static SOLVE: RefCell<Option<SolveState>> = const { RefCell::new(None) };
    /// What the scripts spent in the last solve closed on this thread.
    static LAST: RefCell<Vec<ScriptUsage>> = const { RefCell::new(Vec::new()) };
    /// Bytes scripts printed on this thread outside any solve.
    static PRINTED_OUTSIDE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a line of `bytes` a script prints against [`MAX_PRINT_BYTES`] and says what to do
/// with it.
pub(crate) fn print_allowance(bytes: usize) -> Print {
    let decide = |printed: &mut u64| {
        let before = *printed;
        *printed = before.saturating_add(bytes as u64);
        if *printed <= MAX_PRINT_BYTES {
            Print::Write
        } else if before <= MAX_PRINT_BYTES {
            Print::CapReached
        } else {
            Print::Drop
        }
    };
    SOLVE.with(|s| match s.borrow_mut().as_mut() {
        Some(state) => decide(&mut state.printed),
        None => PRINTED_OUTSIDE.with(|p| {
            let mut n = p.get();
            let d = decide(&mut n);
            p.set(n);
            d
        }),
    })
}

/// An open solve: script calls on this thread are charged to it until it is dropped. Scopes
/// nest (an inner solve has its own accounts; the outer one's come back when it closes).
#[must_use = "the budget applies only while the scope is alive"]
pub struct SolveScope {
    outer: Option<SolveState>,
}

impl SolveScope {
    /// Opens a solve with this budget per script.
    pub fn begin(budget: ScriptBudget) -> SolveScope {
        let state = SolveState {
            budget,
            used: Vec::new(),
            printed: 0,
        };
        let outer = SOLVE.with(|s| s.borrow_mut().replace(state));
        SolveScope { outer }
    }
}

impl Drop for SolveScope {
    fn drop(&mut self) {
        let done = SOLVE.with(|s| std::mem::replace(&mut *s.borrow_mut(), self.outer.take()));
        if let Some(done) = done {
            LAST.with(|l| *l.borrow_mut() = done.used);
        }
    }
}

/// What each script spent in the last solve that finished on this thread (scripts that were
/// never called are left out). For measuring how far shipped scripts stay from the budget.
pub fn last_solve_usage() -> Vec<ScriptUsage> {
    LAST.with(|l| l.borrow().clone())
}

/// The budget of the solve open on this thread, if any.
pub(crate) fn current_budget() -> Option<ScriptBudget> {
    SOLVE.with(|s| s.borrow().as_ref().map(|s| s.budget))
}

/// What script `key` may still spend in the open solve; `None` outside a solve.
pub(crate) fn allowance(key: u64) -> Option<Allowance> {
    SOLVE.with(|s| {
        let s = s.borrow();
        let s = s.as_ref()?;
        let (ops, time) = s
            .used
            .iter()
            .find(|u| u.key == key)
            .map_or((0, Duration::ZERO), |u| (u.operations, u.time));
        Some(Allowance {
            operations: s.budget.operations.saturating_sub(ops),
            time: s.budget.time().saturating_sub(time),
        })
    })
}

/// Charges a call of script `key` to the open solve (nothing outside a solve).
pub(crate) fn charge(key: u64, script: &str, operations: u64, time: Duration) {
    SOLVE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(s) = s.as_mut() else { return };
        let at = match s.used.iter().position(|u| u.key == key) {
            Some(i) => i,
            None => {
                s.used.push(ScriptUsage {
                    script: script.to_string(),
                    calls: 0,
                    operations: 0,
                    time: Duration::ZERO,
                    key,
                });
                s.used.len() - 1
            }
        };
        let u = &mut s.used[at];
        u.calls += 1;
        u.operations = u.operations.saturating_add(operations);
        u.time += time;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_charged_to_their_script_and_scopes_nest() {
        assert_eq!(allowance(1), None, "no solve open");
        let budget = ScriptBudget {
            operations: 100,
            time_ms: 1000,
        };
        {
            let _outer = SolveScope::begin(budget);
            charge(1, "a.rhai", 60, Duration::from_millis(10));
            {
                let _inner = SolveScope::begin(budget);
                assert_eq!(allowance(1).unwrap().operations, 100, "fresh accounts");
            }
            charge(1, "a.rhai", 60, Duration::from_millis(10));
            let left = allowance(1).unwrap();
            assert_eq!(left.operations, 0, "saturates at zero");
            assert_eq!(left.time, Duration::from_millis(980));
            assert_eq!(allowance(2).unwrap().operations, 100, "per script");
        }
        let usage = last_solve_usage();
        assert_eq!(usage.len(), 1);
        assert_eq!((usage[0].calls, usage[0].operations), (2, 120));
        assert_eq!(allowance(1), None, "closed");
    }

    #[test]
    fn prints_are_capped_per_solve_with_one_notice() {
        let _scope = SolveScope::begin(ScriptBudget::default());
        let line = MAX_PRINT_BYTES as usize / 4;
        let got: Vec<Print> = (0..6).map(|_| print_allowance(line)).collect();
        assert_eq!(
            got,
            [
                Print::Write,
                Print::Write,
                Print::Write,
                Print::Write,
                Print::CapReached,
                Print::Drop
            ]
        );
        // a new solve starts afresh
        let _inner = SolveScope::begin(ScriptBudget::default());
        assert_eq!(print_allowance(line), Print::Write);
    }

    #[test]
    fn the_budget_reads_from_ron_with_defaults_and_no_unknown_fields() {
        let b: ScriptBudget = ron::from_str("(time_ms: 5)").unwrap();
        assert_eq!(b.time_ms, 5);
        assert_eq!(b.operations, ScriptBudget::default().operations);
        let e = ron::from_str::<ScriptBudget>("(time: 5)").unwrap_err();
        assert!(e.to_string().contains("time"), "{e}");
    }
}
