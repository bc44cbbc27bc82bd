//! The sandboxed host's thread cap (Linux): the kernel asks a counting thread before each new
//! thread of the plugin's (a seccomp filter on the search thread that answers `clone` with a
//! user notification), and the counting thread lets it through while the host runs fewer than
//! the cap, or has it fail with `EAGAIN`. `RLIMIT_NPROC` cannot do this: it counts every
//! process of the user, and does not bind root.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

/// The counting thread's side: the host's `status`, then where the search thread sends the
/// descriptor the kernel asks through.
pub(super) struct Counter {
    cap: usize,
    status: Option<File>,
    listener: Option<Sender<i32>>,
}

impl Counter {
    /// Opens `/proc/self/status`, before Landlock shuts `/proc`.
    pub(super) fn open(cap: usize) -> Result<Counter, String> {
        let status = File::open("/proc/self/status")
            .map_err(|e| format!("cannot count its threads: /proc/self/status: {e}"))?;
        Ok(Counter {
            cap,
            status: Some(status),
            listener: None,
        })
    }

    /// Starts the counting thread (after Landlock, so that it is bound too), which waits for
    /// the search thread's [`Counter::apply`].
    pub(super) fn start(&mut self) -> Result<(), String> {
        let (Some(status), cap) = (self.status.take(), self.cap) else {
            return Ok(());
        };
        let (listener, wait) = channel::<i32>();
        std::thread::Builder::new()
            .name("plugin-threads".into())
            .stack_size(64 << 10)
            .spawn(move || {
                let Ok(fd) = wait.recv() else { return };
                // the counting thread's own filter: the allow-list and the two requests it makes
                // (the request's type differs between C libraries, hence the casts)
                #[allow(clippy::unnecessary_cast)]
                let requests = [
                    libc::SECCOMP_IOCTL_NOTIF_RECV as u64,
                    libc::SECCOMP_IOCTL_NOTIF_SEND as u64,
                ];
                if let Err(e) = super::linux::restrict_calls(&requests) {
                    eprintln!("plugin host: {e}");
                    return;
                }
                count(fd, &status, cap);
            })
            .map_err(|e| format!("cannot start its thread-counting thread: {e}"))?;
        self.listener = Some(listener);
        Ok(())
    }

    /// On the search thread: installs the filter that has the kernel ask before each `clone`
    /// of this thread and of those it starts, and hands the descriptor to the counting thread.
    pub(super) fn apply(&self) -> Result<i32, String> {
        let why = |e: std::io::Error| format!("cannot cap its threads: {e}");
        // load the call's number; `clone` asks, everything else goes on to the other filters
        let program = [
            statement(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0),
            jump(libc::SYS_clone as u32, 0, 1),
            statement(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_USER_NOTIF),
            statement(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW),
        ];
        let fprog = libc::sock_fprog {
            len: program.len() as u16,
            filter: program.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: prctl takes integers; the kernel copies the program it is pointed at, which
        // lives until the call returns.
        let fd = unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(why(std::io::Error::last_os_error()));
            }
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                libc::SECCOMP_FILTER_FLAG_NEW_LISTENER,
                &fprog as *const libc::sock_fprog,
            )
        };
        if fd < 0 {
            return Err(why(std::io::Error::last_os_error()));
        }
        let fd = fd as i32;
        self.listener
            .as_ref()
            .is_some_and(|l| l.send(fd).is_ok())
            .then_some(fd)
            .ok_or_else(|| "cannot cap its threads: the counting thread is gone".to_string())
    }
}

fn statement(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    }
}

/// The host's threads now, from its `status` (read again from the start each time).
fn threads(status: &File) -> Option<usize> {
    let mut buf = [0u8; 4096];
    let n = status.read_at(&mut buf, 0).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|t| t.trim().parse().ok())
}

/// Answers the kernel's questions on `fd` until the host ends: a new thread goes through
/// while the host runs fewer than `cap`, else it fails with `EAGAIN`.
fn count(fd: i32, status: &File, cap: usize) {
    loop {
        // SAFETY: both structs are plain data the kernel fills or reads; zero is valid for
        // each, and the request must be zeroed before it is received.
        let mut request: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        let got = unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_RECV as _, &mut request) };
        if got != 0 {
            match std::io::Error::last_os_error().raw_os_error() {
                // interrupted, or the asking thread died while asking
                Some(libc::EINTR) | Some(libc::ENOENT) => continue,
                _ => return,
            }
        }
        let before = threads(status).unwrap_or(cap);
        let allow = before < cap;
        let mut response: libc::seccomp_notif_resp = unsafe { std::mem::zeroed() };
        response.id = request.id;
        if allow {
            response.flags = libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32;
        } else {
            response.error = -libc::EAGAIN;
        }
        // SAFETY: as above; a response to a thread that died meanwhile fails harmlessly.
        unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_SEND as _, &mut response) };
        if allow {
            // wait for the new thread to show, so that the next count includes it
            let until = Instant::now() + Duration::from_millis(50);
            while threads(status).is_some_and(|now| now <= before) && Instant::now() < until {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }
}
