//! The standard streams: what lapiz refuses to run with (a closed or read-only stdout), a
//! closed stdin (reading `-` from it is an error, not empty input), and diagnostics on stderr
//! that never cost results.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stderr has refused a write: later diagnostics are not tried.
static STDERR_BROKEN: AtomicBool = AtomicBool::new(false);

/// Set when stdin was closed at start (`<&-`): reading `-` is then an error, not empty input.
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes one diagnostic line (a warning, an error, a `FILE:LINE:` record) to stderr in one
/// write. A diagnostic that cannot be written (stderr closed, full, a pipe whose reader has
/// gone) is dropped: it never costs results, stops a run or changes the exit status. The
/// caller escapes what comes from outside.
pub fn diag(line: &str) {
    if STDERR_BROKEN.load(Ordering::Relaxed) {
        return;
    }
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    if std::io::stderr().lock().write_all(text.as_bytes()).is_err() {
        STDERR_BROKEN.store(true, Ordering::Relaxed);
    }
}

/// Whether stdin was closed when lapiz started.
pub fn stdin_closed() -> bool {
    STDIN_CLOSED.load(Ordering::Relaxed)
}

/// Which of the descriptors 0, 1, 2 were closed when the process started (bit `fd`), noted
/// by [`note_closed_streams`] before Rust's runtime points closed ones at `/dev/null` (after
/// which `>&-` and `>/dev/null` look alike and every write to a closed stdout seems to
/// succeed).
#[cfg(unix)]
static CLOSED_AT_START: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Notes the standard descriptors that are closed; runs before `main` (below).
#[cfg(unix)]
extern "C" fn note_closed_streams() {
    let mut closed = 0u8;
    for fd in 0..3 {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Runs [`note_closed_streams`] as a loader constructor, before Rust's runtime starts.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd"
))]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STREAMS: extern "C" fn() = note_closed_streams;

/// Runs [`note_closed_streams`] as a loader constructor, before Rust's runtime starts.
#[cfg(target_vendor = "apple")]
#[used]
#[unsafe(link_section = "__DATA,__mod_init_func")]
static NOTE_CLOSED_STREAMS: extern "C" fn() = note_closed_streams;

/// Checks the standard streams before anything runs: an error when stdout was closed or is
/// not open for writing (every result would be lost while the writes seem to succeed). A
/// closed stdin or stderr has been pointed at `/dev/null` by Rust's runtime, so no file
/// lapiz opens takes its descriptor; a closed stdin is remembered ([`stdin_closed`]).
#[cfg(unix)]
pub fn prepare() -> Result<(), &'static str> {
    let closed = CLOSED_AT_START.load(Ordering::Relaxed);
    if closed & 1 != 0 {
        STDIN_CLOSED.store(true, Ordering::Relaxed);
    }
    if closed & 2 != 0 {
        return Err("standard output is closed: no result could be written");
    }
    // SAFETY: F_GETFL only reads the descriptor's flags.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags == -1 {
        return Err("standard output is closed: no result could be written");
    }
    if flags & libc::O_ACCMODE == libc::O_RDONLY {
        return Err("standard output is not open for writing: no result could be written");
    }
    Ok(())
}

/// Checks the standard streams (nothing to check outside Unix).
#[cfg(not(unix))]
pub fn prepare() -> Result<(), &'static str> {
    Ok(())
}

/// Standard output whose write errors name it (`cannot write to standard output: No space
/// left on device`), their kind kept (a closed pipe is still told by its kind).
pub struct NamedStdout;

impl NamedStdout {
    fn name(e: std::io::Error) -> std::io::Error {
        std::io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
    }
}

impl std::io::Write for NamedStdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stdout().write(buf).map_err(NamedStdout::name)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush().map_err(NamedStdout::name)
    }
}
