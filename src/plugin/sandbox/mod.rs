//! The plugin host's sandbox (Linux): what a hosted plugin may do, set up by the host on itself
//! before it loads the library (`docs/plugins.md`, "What a plugin may do").
//!
//! Two layers, each enough for most of the rules and each kept where the kernel has the other:
//! - Landlock (`restrict_files`, in the host's first thread, so that the search thread
//!   started after it inherits it): files may be read only beneath the library's folder and
//!   the system's library folders (and `/etc/ld.so.cache`); nothing may be written, created,
//!   removed or run; TCP may not bind or connect (Landlock ABI 4); signals may not reach a
//!   process outside the host, nor abstract Unix sockets (ABI 6); `ptrace` of any process
//!   outside the host is refused (every ABI).
//! - seccomp (`restrict_calls`, on each of the host's threads once the memory limit is set):
//!   an allow-list of the system calls a search and the loader need; every other call fails
//!   with `EPERM` (no sockets, no `execve`, no `fork`, no `ptrace`). `open` only reads,
//!   `kill` and `tgkill` reach only the host itself, `clone` only makes threads, `fcntl` only
//!   duplicates descriptors and sets their flags (no `F_SETOWN`), and `prlimit64` only reads
//!   limits.
//!
//! - the frame descriptors (`guard_descriptors`, on the search thread only, before the
//!   library loads): the thread that runs the plugin, and every thread it starts, cannot read,
//!   write, close, duplicate over or change the host's stdin and its frame output; only the
//!   host's own first thread speaks the wire.
//!
//! A refused call returns its error to the plugin; nothing is killed. Elsewhere than Linux there
//! is no sandbox ([`Support::probe`] says so).
//!
//! The host process is also contained from the outside, sandbox or not (`contain`, `kill_host`):
//! it starts in its own process group with no descriptor but its standard three, the kernel
//! kills it when lapiz ends (Linux), and lapiz kills its whole group when it is done with it.

use std::path::Path;
use std::process::{Child, Command};

use serde::{Deserialize, Serialize};

/// Whether plugin hosts sandbox themselves before loading their library.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sandbox {
    /// The host limits itself (Linux): reading only the library's and the system's library
    /// folders, no writing, no network, no new programs, no signals to other processes.
    #[default]
    On,
    /// The host runs with the user's rights: for trusted plugins.
    Off,
}

/// What this machine offers the plugin host's sandbox.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// Whether this platform has a sandbox at all (Linux).
    pub platform: bool,
    /// The kernel's Landlock ABI version (0 for none).
    pub landlock_abi: u32,
    /// Whether the kernel filters system calls with seccomp (and lapiz knows this
    /// architecture's calls).
    pub seccomp: bool,
}

/// The Landlock ABI that gives every rule above (scoped signals came in 6).
pub(crate) const FULL_LANDLOCK_ABI: u32 = 6;

impl Support {
    /// Asks the running kernel.
    pub fn probe() -> Support {
        #[cfg(target_os = "linux")]
        {
            Support {
                platform: true,
                landlock_abi: linux::landlock_abi(),
                seccomp: linux::seccomp_available(),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            Support {
                platform: false,
                landlock_abi: 0,
                seccomp: false,
            }
        }
    }

    /// The sandbox a host gets here, in a few words: `on (Landlock ABI 7, seccomp)`.
    pub fn describe(&self) -> String {
        if !self.platform {
            return "none on this platform (Linux only): plugin hosts run with the user's rights"
                .into();
        }
        match (self.landlock_abi, self.seccomp) {
            (0, false) => "none: this kernel has neither Landlock nor seccomp".into(),
            (0, true) => "partial (seccomp; this kernel has no Landlock)".into(),
            (abi, false) => format!("partial (Landlock ABI {abi}; this kernel has no seccomp)"),
            (abi, true) => format!("on (Landlock ABI {abi}, seccomp)"),
        }
    }

    /// What a sandboxed host cannot be kept from here, or `None` when every rule holds:
    /// said once on stderr by the command line.
    pub fn shortfall(&self) -> Option<String> {
        if !self.platform {
            return Some(
                "plugin hosts are not sandboxed on this platform (Linux only): a plugin runs with your files, network and processes"
                    .into(),
            );
        }
        let mut missing = Vec::new();
        if self.landlock_abi == 0 {
            missing.push(if self.seccomp {
                "this kernel has no Landlock: a plugin can read any of your files (seccomp still refuses writing, the network, new programs and signals)"
            } else {
                "this kernel has neither Landlock nor seccomp: a plugin runs with your files, network and processes"
            });
        } else if !self.seccomp {
            missing.push(if self.landlock_abi >= FULL_LANDLOCK_ABI {
                "this kernel has no seccomp: a plugin can use UDP and local sockets (Landlock still limits files, TCP, new programs and signals)"
            } else {
                "this kernel has no seccomp and an older Landlock: a plugin can use the network and signal other processes (Landlock still limits files and new programs)"
            });
        }
        if missing.is_empty() {
            None
        } else {
            Some(format!("plugin sandbox is partial: {}", missing.join("; ")))
        }
    }
}

/// Limits the calling thread's files, TCP and signals (and those of the threads it starts from
/// now on) to what a host needs to load `library` and search: see the module's doc. Where
/// the kernel has no Landlock this does nothing and returns `Ok`.
pub(crate) fn restrict_files(library: &Path) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        linux::restrict_files(library)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = library;
        Ok(())
    }
}

/// Allows the calling thread, and the threads it starts from now on, only the system calls a
/// search needs (see the module's doc); each of the host's two threads calls it for itself.
/// Where the kernel or architecture has no seccomp this does nothing and returns `Ok`.
pub(crate) fn restrict_calls() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        linux::restrict_calls(&[])
    }
    #[cfg(not(target_os = "linux"))]
    {
        Ok(())
    }
}

/// Sets up how a host process starts, on the command before it is spawned: in its own process
/// group (Unix), with every descriptor but stdin, stdout and stderr closed as it starts (Unix),
/// and killed by the kernel (`SIGKILL`) when the thread that started it ends (Linux: lapiz
/// starts hosts from one thread that lives as long as lapiz). Nothing elsewhere.
pub(crate) fn contain(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        // SAFETY: getpid is async-signal-safe; it runs in lapiz, before the fork.
        let lapiz = unsafe { libc::getpid() };
        // SAFETY: the closure runs in the child between fork and exec and makes only
        // async-signal-safe system calls (prctl, getppid, close_range, fcntl, _exit).
        unsafe {
            command.pre_exec(move || {
                #[cfg(target_os = "linux")]
                linux::die_with_parent(lapiz);
                #[cfg(not(target_os = "linux"))]
                let _ = lapiz;
                close_inherited();
                Ok(())
            });
        }
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// Marks every descriptor above stderr close-on-exec, in the child before exec (the standard
/// library's own error pipe is close-on-exec already): `close_range` where the kernel has it,
/// else each descriptor below the limit in turn.
#[cfg(unix)]
fn close_inherited() {
    #[cfg(target_os = "linux")]
    // SAFETY: close_range takes plain integers.
    if unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    } == 0
    {
        return;
    }
    // SAFETY: sysconf and fcntl take plain integers; fcntl on a closed descriptor fails
    // harmlessly.
    unsafe {
        let max = libc::sysconf(libc::_SC_OPEN_MAX);
        let max = if max <= 0 { 65536 } else { max.min(1 << 20) } as i32;
        for fd in 3..max {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

/// The hosts started (their pids, each its group's id: [`contain`]), for [`end_host_groups`].
#[cfg(unix)]
static HOSTS: std::sync::Mutex<Vec<libc::pid_t>> = std::sync::Mutex::new(Vec::new());

/// Notes a host just started, so that its process group is ended when lapiz exits, sandbox or
/// not: a process the plugin forked stays in the group after its host is gone, and the
/// kernel's parent-death signal reaches the host only. The first call sets the exit handler.
pub(crate) fn note_host(child: &Child) {
    #[cfg(unix)]
    {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(|| {
            // SAFETY: registers a function with no arguments that the C runtime calls at exit.
            unsafe {
                libc::atexit(end_host_groups_at_exit);
            }
        });
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            let mut hosts = HOSTS.lock().unwrap_or_else(|e| e.into_inner());
            hosts.retain(|&p| is_unreaped_child(p));
            hosts.push(pid);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// Whether `pid` is a child of lapiz's not yet reaped (running or a zombie): then its pid, and
/// so its group's id, cannot have gone to another process.
#[cfg(unix)]
fn is_unreaped_child(pid: libc::pid_t) -> bool {
    if pid <= 1 {
        return false;
    }
    // SAFETY: waitid writes only the siginfo it is given; WNOWAIT leaves the child as it is.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        ) == 0
    }
}

/// Ends the process group of every host lapiz started and has not reaped (checked each, so no
/// other group is ever signalled): what a host's plugin forked goes with lapiz.
#[cfg(unix)]
pub(crate) fn end_host_groups() {
    let hosts = match HOSTS.try_lock() {
        Ok(h) => h.clone(),
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner().clone(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for pid in hosts {
        if is_unreaped_child(pid) {
            // SAFETY: `pid` is an unreaped child of lapiz, started as its group's leader
            // (`contain`): the signal reaches that group only.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

#[cfg(unix)]
extern "C" fn end_host_groups_at_exit() {
    end_host_groups();
}

/// In a host, once its stdin has closed: ends the host's process group, itself with it, when
/// the host leads one (as lapiz starts it: [`contain`]), so that nothing its plugin forked
/// lives on. A host started another way (by hand, in its caller's group) is left alone.
pub(crate) fn end_own_group() {
    #[cfg(unix)]
    // SAFETY: getpgrp and getpid take nothing; kill(0, …) signals the caller's own group, which
    // the check makes the host's own.
    unsafe {
        if libc::getpgrp() == libc::getpid() {
            libc::kill(0, libc::SIGKILL);
        }
    }
}

/// Kills a host and every process of its group (Unix), then reaps it.
pub(crate) fn kill_host(child: &mut Child) {
    if matches!(child.try_wait(), Ok(Some(_))) {
        return;
    }
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id())
        && group > 1
    {
        // SAFETY: kill with a negative pid below -1 signals that one group: the host's own
        // (its pid, set by `contain`); the host has not been reaped yet, so the group id is
        // still its own.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The threads a host runs of its own between searches: the one that speaks the wire, the
/// search thread, and (sandboxed, where seccomp is) the one that counts new threads.
pub(crate) fn host_threads(sandbox: Sandbox) -> usize {
    2 + usize::from(sandbox == Sandbox::On && Support::probe().seccomp)
}

/// How many threads process `pid` runs now (Linux, from `/proc`); `None` where that cannot be
/// known.
pub(crate) fn threads_of(pid: u32) -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .and_then(|n| n.trim().parse().ok())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}

/// Keeps the descriptors `fds` (the host's stdin and frame output) out of reach of the
/// calling thread and of every thread it starts from now on: reading, writing, closing,
/// duplicating over or changing them fails with `EBADF` (Linux seccomp; where the kernel
/// or architecture has none, this does nothing and returns `Ok`).
pub(crate) fn guard_descriptors(fds: &[i32]) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        linux::guard_descriptors(fds)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fds;
        Ok(())
    }
}

/// Blocks every signal on the calling thread (Unix), so that no handler a plugin installs runs
/// on the host's first thread, which holds the frame descriptors; the search thread, started
/// before, takes the signals.
pub(crate) fn block_signals() {
    #[cfg(unix)]
    // SAFETY: the set is initialised by sigfillset before pthread_sigmask reads it.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut());
    }
}

/// The most threads a sandboxed host runs at once: its own three (the wire, the search, the
/// thread that counts) and the plugin's. A plugin's `pthread_create` past it fails with
/// `EAGAIN`.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) const MAX_HOST_THREADS: usize = 64;

/// The sandboxed host's thread cap ([`MAX_HOST_THREADS`], Linux with seccomp): a thread of
/// the host's, started before the search thread, that the kernel asks before each new thread
/// of the plugin's (seccomp user notification) and that says yes while the host has fewer
/// than the cap. Elsewhere there is no cap.
pub(crate) struct ThreadCap {
    #[cfg(target_os = "linux")]
    inner: Option<threads::Counter>,
}

impl ThreadCap {
    /// Opens what the counting thread reads (`/proc/self/status`): call before Landlock,
    /// which shuts `/proc`. Without seccomp there is nothing to do.
    pub(crate) fn open() -> Result<ThreadCap, String> {
        #[cfg(target_os = "linux")]
        {
            if !linux::seccomp_available() {
                return Ok(ThreadCap { inner: None });
            }
            Ok(ThreadCap {
                inner: Some(threads::Counter::open(MAX_HOST_THREADS)?),
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            Ok(ThreadCap {})
        }
    }

    /// Starts the counting thread: call after Landlock (so that it is bound too) and before
    /// the memory limit.
    pub(crate) fn start(&mut self) -> Result<(), String> {
        #[cfg(target_os = "linux")]
        if let Some(counter) = &mut self.inner {
            return counter.start();
        }
        Ok(())
    }

    /// On the search thread: from now on every thread it (or a thread it started) starts is
    /// counted first. Returns the descriptor the kernel asks through, which the plugin must not
    /// reach (see `guard_descriptors`), if there is one.
    pub(crate) fn apply(&self) -> Result<Option<i32>, String> {
        #[cfg(target_os = "linux")]
        {
            match &self.inner {
                Some(counter) => counter.apply().map(Some),
                None => Ok(None),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            Ok(None)
        }
    }
}

#[cfg(target_os = "linux")]
mod threads;

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
        RulesetAttr, RulesetCreatedAttr, Scope,
    };

    /// The system folders shared libraries load from (those that exist are allowed).
    const SYSTEM_LIBRARY_FOLDERS: &[&str] = &[
        "/lib",
        "/lib32",
        "/lib64",
        "/usr/lib",
        "/usr/lib32",
        "/usr/lib64",
        "/usr/local/lib",
    ];
    /// The loader's cache of library locations.
    const LOADER_CACHE: &str = "/etc/ld.so.cache";

    /// The kernel's Landlock ABI version, 0 for none.
    pub(super) fn landlock_abi() -> u32 {
        const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
        // SAFETY: with a null attribute, size 0 and the VERSION flag the call only returns
        // the ABI version (or -1); it reads and writes no memory.
        let v = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<libc::c_void>(),
                0usize,
                LANDLOCK_CREATE_RULESET_VERSION,
            )
        };
        u32::try_from(v).unwrap_or(0)
    }

    /// Whether seccomp filters can be installed here (kernel and architecture).
    pub(super) fn seccomp_available() -> bool {
        if calls::arch().is_none() {
            return false;
        }
        const SECCOMP_GET_ACTION_AVAIL: libc::c_uint = 2;
        let action: u32 = libc::SECCOMP_RET_ERRNO;
        // SAFETY: the call reads the u32 it is pointed at and changes nothing.
        let r = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                SECCOMP_GET_ACTION_AVAIL,
                0u32,
                &action as *const u32,
            )
        };
        r == 0
    }

    /// The folders (and files) a host may read to load `library`: its folder, the system's
    /// library folders, the loader's cache and the folders of `LD_LIBRARY_PATH`.
    fn readable(library: &Path) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        if let Some(folder) = library
            .canonicalize()
            .ok()
            .and_then(|l| l.parent().map(Path::to_path_buf))
        {
            paths.push(folder);
        }
        paths.extend(SYSTEM_LIBRARY_FOLDERS.iter().map(PathBuf::from));
        paths.push(PathBuf::from(LOADER_CACHE));
        if let Some(more) = std::env::var_os("LD_LIBRARY_PATH") {
            paths.extend(std::env::split_paths(&more).filter(|p| p.is_absolute()));
        }
        paths
    }

    pub(super) fn restrict_files(library: &Path) -> Result<(), String> {
        let abi = ABI::V6;
        let why = |e: &dyn std::fmt::Display| format!("cannot set up Landlock: {e}");
        let read = AccessFs::ReadFile | AccessFs::ReadDir;
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::from_all(abi))
            .map_err(|e| why(&e))?
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| why(&e))?
            .scope(Scope::AbstractUnixSocket | Scope::Signal)
            .map_err(|e| why(&e))?
            .create()
            .map_err(|e| why(&e))?;
        for path in readable(library) {
            // a folder that does not exist here is simply not allowed
            let Ok(fd) = PathFd::new(&path) else { continue };
            let access = if path.is_dir() {
                read
            } else {
                AccessFs::ReadFile.into()
            };
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, access))
                .map_err(|e| why(&e))?;
        }
        ruleset.restrict_self().map_err(|e| why(&e))?;
        Ok(())
    }

    /// The allow-list on the calling thread, with `ioctl` also allowed for the requests
    /// `ioctls`.
    pub(super) fn restrict_calls(ioctls: &[u64]) -> Result<(), String> {
        let Some(arch) = calls::arch() else {
            return Ok(());
        };
        if !seccomp_available() {
            return Ok(());
        }
        let why = |e: &dyn std::fmt::Display| format!("cannot set up seccomp: {e}");
        // SAFETY: getpid has no preconditions.
        let pid = unsafe { libc::getpid() };
        let allowed = seccompiler::SeccompFilter::new(
            calls::allowed(pid as u32, ioctls).map_err(|e| why(&e))?,
            seccompiler::SeccompAction::Errno(libc::EPERM as u32),
            seccompiler::SeccompAction::Allow,
            arch,
        )
        .map_err(|e| why(&e))?;
        // clone3 takes its flags in memory, where a filter cannot look: it fails as if the
        // kernel had none, and the C library falls back to clone, whose flags are checked
        let no_clone3 = seccompiler::SeccompFilter::new(
            BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
            seccompiler::SeccompAction::Allow,
            seccompiler::SeccompAction::Errno(libc::ENOSYS as u32),
            arch,
        )
        .map_err(|e| why(&e))?;
        // the allow-list last: once it is in place, prctl cannot install another filter
        for filter in [no_clone3, allowed] {
            let program: seccompiler::BpfProgram = filter.try_into().map_err(|e| why(&e))?;
            seccompiler::apply_filter(&program).map_err(|e| why(&e))?;
        }
        Ok(())
    }

    /// In a new host between fork and exec: the kernel sends it `SIGKILL` when the thread
    /// that started it ends; if lapiz (`parent`) is already gone, it ends at once.
    pub(super) fn die_with_parent(parent: libc::pid_t) {
        // SAFETY: prctl, getppid and _exit take plain integers and are async-signal-safe.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != parent {
                libc::_exit(1);
            }
        }
    }

    pub(super) fn guard_descriptors(fds: &[i32]) -> Result<(), String> {
        use seccompiler::{SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, SeccompCondition as Cond};
        let Some(arch) = calls::arch() else {
            return Ok(());
        };
        if !seccomp_available() {
            return Ok(());
        }
        let why = |e: &dyn std::fmt::Display| format!("cannot guard its descriptors: {e}");
        let on = |arg: u8| -> Result<Vec<seccompiler::SeccompRule>, seccompiler::BackendError> {
            fds.iter()
                .map(|&fd| {
                    seccompiler::SeccompRule::new(vec![Cond::new(arg, Dword, Eq, fd as u64)?])
                })
                .collect()
        };
        let mut rules = BTreeMap::new();
        let first_arg = [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_readv,
            libc::SYS_writev,
            libc::SYS_pread64,
            libc::SYS_pwrite64,
            libc::SYS_close,
            libc::SYS_dup,
            libc::SYS_fcntl,
            libc::SYS_ioctl,
            libc::SYS_lseek,
            libc::SYS_fstat,
            libc::SYS_getdents64,
        ];
        for call in first_arg {
            rules.insert(call, on(0).map_err(|e| why(&e))?);
        }
        // duplicating another descriptor over one of them
        let mut dup3 = on(0).map_err(|e| why(&e))?;
        dup3.extend(on(1).map_err(|e| why(&e))?);
        #[cfg(target_arch = "x86_64")]
        rules.insert(libc::SYS_dup2, dup3.clone());
        rules.insert(libc::SYS_dup3, dup3);
        let filter = seccompiler::SeccompFilter::new(
            rules,
            seccompiler::SeccompAction::Allow,
            seccompiler::SeccompAction::Errno(libc::EBADF as u32),
            arch,
        )
        .map_err(|e| why(&e))?;
        let program: seccompiler::BpfProgram = filter.try_into().map_err(|e| why(&e))?;
        seccompiler::apply_filter(&program).map_err(|e| why(&e))
    }

    /// The allow-list, per architecture.
    mod calls {
        use std::collections::BTreeMap;

        use seccompiler::{
            SeccompCmpArgLen::{Dword, Qword},
            SeccompCmpOp::{Eq, MaskedEq},
            SeccompCondition as Cond, SeccompRule, TargetArch,
        };

        /// The architecture's filter target, where lapiz knows its calls.
        pub(super) fn arch() -> Option<TargetArch> {
            if cfg!(target_arch = "x86_64") {
                Some(TargetArch::x86_64)
            } else if cfg!(target_arch = "aarch64") {
                Some(TargetArch::aarch64)
            } else {
                None
            }
        }

        type Rules = BTreeMap<i64, Vec<SeccompRule>>;

        /// Open flags that write, create or truncate: an `open` with any of them is refused.
        const WRITING: u64 =
            (libc::O_WRONLY | libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC | libc::O_APPEND) as u64;

        /// The calls a host may make, `pid` being its own process id.
        pub(super) fn allowed(
            pid: u32,
            ioctls: &[u64],
        ) -> Result<Rules, seccompiler::BackendError> {
            let mut rules = Rules::new();
            // unconditional: memory, reading and writing open descriptors, threads' own
            // bookkeeping, time, signal handlers, identity, exiting
            let free = [
                libc::SYS_read,
                libc::SYS_write,
                libc::SYS_readv,
                libc::SYS_writev,
                libc::SYS_pread64,
                libc::SYS_close,
                libc::SYS_fstat,
                libc::SYS_newfstatat,
                libc::SYS_statx,
                libc::SYS_lseek,
                libc::SYS_getdents64,
                libc::SYS_readlinkat,
                libc::SYS_faccessat,
                libc::SYS_faccessat2,
                libc::SYS_getcwd,
                libc::SYS_dup,
                libc::SYS_dup3,
                libc::SYS_ppoll,
                libc::SYS_pselect6,
                libc::SYS_mmap,
                libc::SYS_munmap,
                libc::SYS_mprotect,
                libc::SYS_mremap,
                libc::SYS_madvise,
                libc::SYS_brk,
                libc::SYS_futex,
                libc::SYS_set_robust_list,
                libc::SYS_rseq,
                libc::SYS_set_tid_address,
                libc::SYS_sched_yield,
                libc::SYS_sched_getaffinity,
                libc::SYS_getrandom,
                libc::SYS_clock_gettime,
                libc::SYS_clock_getres,
                libc::SYS_clock_nanosleep,
                libc::SYS_nanosleep,
                libc::SYS_gettimeofday,
                libc::SYS_getpid,
                libc::SYS_gettid,
                libc::SYS_getppid,
                libc::SYS_getuid,
                libc::SYS_geteuid,
                libc::SYS_getgid,
                libc::SYS_getegid,
                libc::SYS_uname,
                libc::SYS_sysinfo,
                libc::SYS_rt_sigaction,
                libc::SYS_rt_sigprocmask,
                libc::SYS_rt_sigreturn,
                libc::SYS_sigaltstack,
                libc::SYS_restart_syscall,
                libc::SYS_exit,
                libc::SYS_exit_group,
                // clone3 is in the list only to be answered ENOSYS by the second filter
                libc::SYS_clone3,
            ];
            for call in free {
                rules.insert(call, Vec::new());
            }
            #[cfg(target_arch = "x86_64")]
            for call in [
                libc::SYS_stat,
                libc::SYS_lstat,
                libc::SYS_access,
                libc::SYS_readlink,
                libc::SYS_poll,
                libc::SYS_dup2,
                libc::SYS_arch_prctl,
                libc::SYS_time,
                libc::SYS_getrlimit,
            ] {
                rules.insert(call, Vec::new());
            }
            let rule = |conditions: Vec<Cond>| SeccompRule::new(conditions);
            // opening only reads (Landlock decides what)
            let read_only = |flags_arg: u8| -> Result<_, seccompiler::BackendError> {
                Ok(vec![rule(vec![Cond::new(
                    flags_arg,
                    Dword,
                    MaskedEq(WRITING),
                    0,
                )?])?])
            };
            rules.insert(libc::SYS_openat, read_only(2)?);
            #[cfg(target_arch = "x86_64")]
            rules.insert(libc::SYS_open, read_only(1)?);
            // signals only to the host itself (raise, abort)
            let to_self = |arg: u8| -> Result<_, seccompiler::BackendError> {
                Ok(vec![rule(vec![Cond::new(
                    arg,
                    Dword,
                    Eq,
                    u64::from(pid),
                )?])?])
            };
            rules.insert(libc::SYS_kill, to_self(0)?);
            rules.insert(libc::SYS_tgkill, to_self(0)?);
            // new threads, never new processes
            let thread = libc::CLONE_THREAD as u64;
            rules.insert(
                libc::SYS_clone,
                vec![rule(vec![Cond::new(0, Qword, MaskedEq(thread), thread)?])?],
            );
            // reading its own limits, never raising them
            rules.insert(
                libc::SYS_prlimit64,
                vec![rule(vec![
                    Cond::new(0, Dword, Eq, 0)?,
                    Cond::new(2, Qword, Eq, 0)?,
                ])?],
            );
            // duplicating descriptors and their flags, never `F_SETOWN`, which would have the
            // kernel signal another process
            rules.insert(
                libc::SYS_fcntl,
                [
                    libc::F_DUPFD,
                    libc::F_DUPFD_CLOEXEC,
                    libc::F_GETFD,
                    libc::F_SETFD,
                    libc::F_GETFL,
                    libc::F_SETFL,
                ]
                .into_iter()
                .map(|cmd| rule(vec![Cond::new(1, Dword, Eq, cmd as u64)?]))
                .collect::<Result<_, _>>()?,
            );
            // naming threads
            rules.insert(
                libc::SYS_prctl,
                vec![
                    rule(vec![Cond::new(0, Dword, Eq, libc::PR_SET_NAME as u64)?])?,
                    rule(vec![Cond::new(0, Dword, Eq, libc::PR_GET_NAME as u64)?])?,
                ],
            );
            // asking whether a descriptor is a terminal (the request's type differs between
            // C libraries, hence the casts)
            #[allow(clippy::unnecessary_cast)]
            let terminal = [libc::TCGETS as u64, libc::TIOCGWINSZ as u64];
            rules.insert(
                libc::SYS_ioctl,
                terminal
                    .iter()
                    .chain(ioctls)
                    .map(|&request| rule(vec![Cond::new(1, Dword, Eq, request)?]))
                    .collect::<Result<_, _>>()?,
            );
            Ok(rules)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_missing_is_said() {
        let full = Support {
            platform: true,
            landlock_abi: 7,
            seccomp: true,
        };
        assert_eq!(full.shortfall(), None);
        assert_eq!(full.describe(), "on (Landlock ABI 7, seccomp)");
        let no_landlock = Support {
            landlock_abi: 0,
            ..full
        };
        assert!(
            no_landlock
                .shortfall()
                .unwrap()
                .contains("no Landlock: a plugin can read any of your files")
        );
        let no_seccomp = Support {
            seccomp: false,
            ..full
        };
        assert!(no_seccomp.shortfall().unwrap().contains("no seccomp"));
        let elsewhere = Support {
            platform: false,
            landlock_abi: 0,
            seccomp: false,
        };
        assert!(elsewhere.shortfall().unwrap().contains("Linux only"));
        assert!(elsewhere.describe().starts_with("none on this platform"));
    }
}
