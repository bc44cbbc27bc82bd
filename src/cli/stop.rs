//! When a command's work stops early: `--time-limit` per puzzle, and Ctrl-C (SIGINT), which
//! stops the solves running, lets every record already made out, and ends the run.

#[cfg(unix)]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use clap::Args;

use lapiz::model::Stop;

/// The exit status of a run ended by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// `--time-limit`: how long one puzzle's work may take.
#[derive(Args, Clone, Copy, Default)]
pub struct LimitArgs {
    /// Stop each puzzle's solve after this many seconds (above 0): it is reported as stopped,
    /// with the steps found before; a file goes on with the next puzzle.
    #[arg(long, value_name = "SECONDS", value_parser = super::args::parse_seconds)]
    pub time_limit: Option<f64>,
}

impl LimitArgs {
    /// The stop of one puzzle's work, begun now: its time limit, and Ctrl-C.
    pub fn stop(&self) -> Stop {
        let stop = Stop::on_flag(interrupt_flag());
        match self
            .time_limit
            .and_then(|s| Instant::now().checked_add(Duration::from_secs_f64(s)))
        {
            Some(deadline) => stop.with_deadline(deadline),
            None => stop,
        }
    }
}

/// Set by the first Ctrl-C.
static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag Ctrl-C sets (the handler is installed on the first call).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = FLAG
        .get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone();
    install();
    flag
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// A second SIGINT this long after the first ends the process at once; one sooner is the
/// same Ctrl-C delivered twice (`timeout -s INT` signals the process and its group).
#[cfg(unix)]
const SECOND_AFTER_MS: u64 = 500;

/// Installs the SIGINT handler once: the first signal sets the flag (the solves running see it
/// and stop, the records made are written), a second one ends the process at once.
fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        #[cfg(unix)]
        {
            /// When the first signal came, in milliseconds of the monotonic clock.
            static FIRST: AtomicU64 = AtomicU64::new(0);
            extern "C" fn on_sigint(_: libc::c_int) {
                let mut now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                // SAFETY: clock_gettime is async-signal-safe and writes only `now`.
                unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
                let ms = (now.tv_sec as u64).saturating_mul(1000) + now.tv_nsec as u64 / 1_000_000;
                let Some(flag) = FLAG.get() else { return };
                if !flag.swap(true, Ordering::Relaxed) {
                    FIRST.store(ms, Ordering::Relaxed);
                } else if ms.saturating_sub(FIRST.load(Ordering::Relaxed)) >= SECOND_AFTER_MS {
                    // SAFETY: _exit is async-signal-safe.
                    unsafe { libc::_exit(i32::from(INTERRUPTED)) };
                }
            }
            // SAFETY: a handler that only touches an atomic (or exits), installed once.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
            }
        }
    });
}
