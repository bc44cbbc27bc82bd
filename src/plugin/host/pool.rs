//! lapiz's side of plugin hosts: a pool of host processes per library, each started, spoken to
//! over `plugin::wire` under the time limit, and killed when it dies, hangs or breaks the
//! protocol.

use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use lapiz_plugin_api::abi::LpBoard;

use super::{HostSettings, LOAD_TIME_LIMIT, SEARCH_MARK};
use crate::model::grid::Grid;
use crate::plugin::sandbox::{self, Sandbox};
use crate::plugin::wire::{self, Decoder, Description, HelloError, VersionMismatch};
use crate::step::Step;
use crate::technique::StepSink;

/// The hosts of one library: idle ones wait here between searches, one per thread that has
/// searched at once.
#[derive(Debug)]
pub(crate) struct Pool {
    /// The library's canonical path (passed to the host, which runs in `/`).
    path: String,
    /// The library as the user named it (in warnings).
    shown: String,
    /// Whether the user was told that its hosts leave threads running.
    warned: std::sync::atomic::AtomicBool,
    /// Whether its hosts sandbox themselves.
    sandbox: Sandbox,
    idle: Mutex<Vec<Host>>,
}

/// A running host process. lapiz never blocks on it: its frames are read by a thread into a
/// short queue, written by another thread, and every wait has a deadline.
#[derive(Debug)]
struct Host {
    /// The process (`None` once handed to the reaper on drop).
    child: Option<Child>,
    /// Frames to write to its stdin; dropping this closes its stdin.
    writes: Option<SyncSender<Vec<u8>>>,
    /// Whether each write went through.
    written: Receiver<bool>,
    /// Frames read from its stdout (an error ends them).
    frames: Receiver<Result<Vec<u8>, String>>,
    /// The end of its stderr, for the error message when it dies.
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
}

/// How much of a host's stderr is kept.
const STDERR_TAIL: usize = 2048;

/// How many frames lapiz holds read ahead of the search (the host waits when it is full).
const QUEUE_FRAMES: usize = 4;

/// The most frames one search may send: a search answers each step before sending the next,
/// so more than this is a host that floods the wire.
pub(crate) const MAX_FRAMES_PER_SEARCH: usize = 100_000;

/// The most bytes of frames one search may send.
pub(crate) const MAX_BYTES_PER_SEARCH: usize = 64 << 20;

/// How long a host whose stdin has closed gets to end before it is killed.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

impl Drop for Host {
    fn drop(&mut self) {
        // close its stdin; a host that does not end within the grace period is killed (by a
        // reaper thread, so that dropping never waits)
        drop(self.writes.take());
        let Some(mut child) = self.child.take() else {
            return;
        };
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        let reap = move || {
            if wait_within(&mut child, GRACE).is_none() {
                sandbox::kill_host(&mut child);
            }
        };
        if let Err(e) = std::thread::Builder::new()
            .name("plugin-host-reaper".into())
            .spawn(reap)
        {
            eprintln!("warning: cannot start a thread to end a plugin host: {e}");
        }
    }
}

/// How `child` ended, if it ends within `grace`.
fn wait_within(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    let until = Instant::now() + grace;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts `command` from one thread that lives as long as lapiz: on Linux a host's
/// parent-death signal follows the thread that started it, and the threads that search come
/// and go.
fn spawn_from_lasting_thread(command: Command) -> std::io::Result<Child> {
    type Order = (Command, SyncSender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Mutex<Option<Sender<Order>>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = channel::<Order>();
        let started = std::thread::Builder::new()
            .name("plugin-host-spawner".into())
            .spawn(move || {
                for (mut command, back) in rx {
                    let _ = back.send(command.spawn());
                }
            });
        Mutex::new(started.ok().map(|_| tx))
    });
    let (back, answer) = sync_channel(1);
    let sent = spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|tx| tx.send((command, back)).is_ok());
    match sent {
        Some(true) => answer
            .recv()
            .unwrap_or_else(|_| Err(std::io::Error::other("the spawning thread is gone"))),
        _ => Err(std::io::Error::other("cannot start the spawning thread")),
    }
}

/// The environment a host gets, from lapiz's: only the loader's library path and the
/// variables meant for plugins (`LAPIZ_PLUGIN_*`), so no secret of lapiz's environment
/// reaches a plugin.
pub(crate) fn host_environment() -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    std::env::vars_os()
        .filter(|(k, _)| {
            k.to_str()
                .is_some_and(|k| HOST_ENVIRONMENT.contains(&k) || k.starts_with(PLUGIN_PREFIX))
        })
        .collect()
}

/// Variables a host keeps by name (what the dynamic loader needs to find a plugin's own
/// libraries).
pub(crate) const HOST_ENVIRONMENT: &[&str] = &["LD_LIBRARY_PATH"];

/// Variables a host keeps by prefix: the user's settings for plugins.
pub(crate) const PLUGIN_PREFIX: &str = "LAPIZ_PLUGIN_";

/// Why a hosted search did not end normally: the host is gone or must go.
/// Why a host cannot go on: it died, broke the protocol or ran past its time limit (then it
/// was killed). The message names what it was doing.
#[derive(Debug)]
pub(crate) struct Broken {
    /// Whether it ran past its time limit.
    pub(crate) timed_out: bool,
    /// What happened.
    pub(crate) message: String,
}

impl Broken {
    /// A host stopped at its time limit.
    fn timed_out(message: String) -> Broken {
        Broken {
            timed_out: true,
            message,
        }
    }
}

impl From<String> for Broken {
    fn from(message: String) -> Broken {
        Broken {
            timed_out: false,
            message,
        }
    }
}

impl From<&str> for Broken {
    fn from(message: &str) -> Broken {
        Broken::from(message.to_string())
    }
}

impl From<Broken> for String {
    fn from(broken: Broken) -> String {
        broken.message
    }
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a host could not be opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The host speaks another version of the wire protocol.
    Version(VersionMismatch),
    /// The host could not start, load the library or describe it: the loader's own message,
    /// or what became of the host.
    Failed(String),
}

impl From<Broken> for OpenError {
    fn from(broken: Broken) -> OpenError {
        OpenError::Failed(broken.message)
    }
}

impl From<String> for OpenError {
    fn from(why: String) -> OpenError {
        OpenError::Failed(why)
    }
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Version(v) => v.fmt(f),
            OpenError::Failed(why) => f.write_str(why),
        }
    }
}

impl Pool {
    /// Starts a host for the library at `path` (canonical: the host runs in `/`) and reads its
    /// description: the plugin's name and techniques, or the loader's error message. The host
    /// is kept for the first search.
    pub(crate) fn open(
        path: &str,
        shown: &str,
        sandbox: Sandbox,
    ) -> Result<(Arc<Pool>, Description), OpenError> {
        let settings = HostSettings::current();
        let (host, frame) = Host::start(path, sandbox, &settings)?;
        let description = description(&frame)??;
        let pool = Arc::new(Pool {
            path: path.to_string(),
            shown: shown.to_string(),
            warned: std::sync::atomic::AtomicBool::new(false),
            sandbox,
            idle: Mutex::new(vec![host]),
        });
        Ok((pool, description))
    }

    /// Runs technique `index` on `grid` in a host, handing its steps to `sink`. `Ok(Err)` is
    /// the plugin's own failure (the host lives on); `Err` means the host died, hung or broke
    /// the protocol, and was dropped.
    pub(crate) fn search(
        &self,
        index: usize,
        id: &str,
        grid: &Grid,
        sink: &mut StepSink<'_>,
    ) -> Result<Result<(), String>, Broken> {
        self.run(wire::search(index, grid), id, 9, sink)
    }

    /// Runs technique `index`, a sized search (ABI version 3), on `board` in a host, as
    /// [`Pool::search`] does.
    pub(crate) fn search_sized(
        &self,
        index: usize,
        id: &str,
        board: &LpBoard,
        sink: &mut StepSink<'_>,
    ) -> Result<Result<(), String>, Broken> {
        self.run(wire::search_sized(index, board), id, board.n as usize, sink)
    }

    /// Sends the search `request` to a host (an idle one, or a new one) and hands the steps
    /// of the `n x n` board it answers to `sink`.
    fn run(
        &self,
        request: Vec<u8>,
        id: &str,
        n: usize,
        sink: &mut StepSink<'_>,
    ) -> Result<Result<(), String>, Broken> {
        let settings = HostSettings::current();
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut host = match idle {
            Some(h) => h,
            None => {
                let (h, frame) =
                    Host::start(&self.path, self.sandbox, &settings).map_err(|e| e.to_string())?;
                if frame.first() != Some(&wire::DESCRIBE) {
                    return Err("the plugin host could not load the library again".into());
                }
                h
            }
        };
        let result = host.search(request, id, n, sink, &settings);
        if result.is_ok() && host.left_threads_running(self.sandbox) {
            // the search is over but the plugin's threads are not: they would burn CPU (and
            // hold memory) between searches, so the host goes and the next search starts afresh
            if !self.warned.swap(true, std::sync::atomic::Ordering::Relaxed) {
                eprintln!(
                    "warning: plugin {}: its host still ran threads after a search returned; it was stopped (a plugin must end the threads it starts before its search returns)",
                    self.shown
                );
            }
            host.kill();
            return result;
        }
        if result.is_ok() {
            self.idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(host);
        }
        result
    }
}

fn protocol(why: &str) -> String {
    format!("the plugin host broke the protocol: {why}")
}

/// The host's first frame: `Ok(Ok)` the plugin's name and techniques, `Ok(Err)` the loader's
/// own message (which names the library), `Err` a broken protocol.
fn description(frame: &[u8]) -> Result<Result<Description, String>, Broken> {
    let mut d = Decoder::new(frame.get(1..).unwrap_or_default());
    match frame.first() {
        Some(&wire::DESCRIBE) => Ok(Ok(d.description().map_err(|e| protocol(&e.to_string()))?)),
        Some(&wire::LOAD_FAILED) => Ok(Err(d.str().map_err(|e| protocol(&e.to_string()))?)),
        _ => Err(protocol("no description").into()),
    }
}

/// A host's frame during a search of technique `id`.
enum Reply {
    /// A step the search found.
    Step(Step),
    /// The search ended normally.
    Done,
    /// The search failed with this message.
    Failed(String),
}

/// Reads a host's frame during a search of technique `id` on an `n x n` board; `Err` is a
/// broken protocol.
fn reply(frame: &[u8], id: &str, n: usize) -> Result<Reply, Broken> {
    let mut d = Decoder::new(frame.get(1..).unwrap_or_default());
    match frame.first() {
        Some(&wire::STEP) => Ok(Reply::Step(
            d.step(id, n).map_err(|e| protocol(&e.to_string()))?,
        )),
        Some(&wire::DONE) => Ok(Reply::Done),
        Some(&wire::FAILED) => Ok(Reply::Failed(
            d.str().map_err(|e| protocol(&e.to_string()))?,
        )),
        _ => Err(protocol("an unknown frame").into()),
    }
}

/// Reads `bytes` as lapiz reads a host's output (its hello, its description, then the
/// frames of searches), returning how many frames it read: for the fuzz target `host_frames`
/// (`fuzz/`), which checks that nothing a host sends makes lapiz panic.
#[doc(hidden)]
pub fn read_host_output(mut bytes: &[u8]) -> Result<usize, String> {
    let mut frame = Vec::new();
    let mut count = 0;
    while wire::read_frame(&mut bytes, &mut frame).map_err(|e| protocol(&e.to_string()))? {
        if count == 0 {
            hello(&frame).map_err(|e| e.to_string())?;
        } else if count == 1 {
            description(&frame)??;
        } else {
            match reply(&frame, "fuzz", 9)? {
                Reply::Step(step) => drop(step),
                Reply::Done | Reply::Failed(_) => {}
            }
        }
        count += 1;
    }
    Ok(count)
}

/// Checks a host's first frame, its hello.
fn hello(frame: &[u8]) -> Result<(), OpenError> {
    match wire::check_hello(frame) {
        Ok(()) => Ok(()),
        Err(HelloError::Version(host)) => Err(OpenError::Version(VersionMismatch {
            lapiz: wire::PROTOCOL_VERSION,
            host,
        })),
        Err(e) => Err(OpenError::Failed(protocol(&e.to_string()))),
    }
}

impl Host {
    /// Starts a host, exchanges hellos and returns it with its first frame after the hello
    /// (its description or the loader's message), all within the load time limit.
    fn start(
        path: &str,
        sandbox: Sandbox,
        settings: &HostSettings,
    ) -> Result<(Host, Vec<u8>), OpenError> {
        let mut host = Host::spawn(path, sandbox, settings)?;
        let doing = "loading the library";
        let limit = settings.time_limit.max(LOAD_TIME_LIMIT);
        let deadline = Instant::now() + limit;
        host.send(wire::hello(), deadline, limit, settings, doing)?;
        hello(&host.next(deadline, limit, settings, doing)?)?;
        let frame = host.next(deadline, limit, settings, doing)?;
        Ok((host, frame))
    }

    fn spawn(path: &str, sandbox: Sandbox, settings: &HostSettings) -> Result<Host, Broken> {
        let program = settings.program.as_ref().ok_or_else(|| {
            format!(
                "no plugin host program to run it in: set {} to the lapiz binary, or choose the in-process plugin mode for trusted plugins",
                HostSettings::PROGRAM_ENV
            )
        })?;
        let mut command = Command::new(program);
        command
            .arg("plugin-host")
            .arg("--memory-mib")
            .arg(settings.memory_limit_mib.to_string())
            .arg("--sandbox")
            .arg(match sandbox {
                Sandbox::On => "on",
                Sandbox::Off => "off",
            })
            .arg("--")
            .arg(path)
            .current_dir("/")
            .env_clear()
            .envs(host_environment())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        sandbox::contain(&mut command);
        let mut child = spawn_from_lasting_thread(command)
            .map_err(|e| format!("cannot start the plugin host {}: {e}", program.display()))?;
        sandbox::note_host(&child);
        let (input, output, err) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    sandbox::kill_host(&mut child);
                    return Err("the plugin host's pipes could not be opened".into());
                }
            };
        // frames in: a short queue, so a host that floods the wire waits on its own pipe
        let (tx, frames) = sync_channel(QUEUE_FRAMES);
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut buf = Vec::new();
                match wire::read_frame(&mut output, &mut buf) {
                    Ok(true) => {
                        if tx.send(Ok(buf)).is_err() {
                            return;
                        }
                    }
                    Ok(false) => return,
                    Err(e) => {
                        let _ = tx.send(Err(e.to_string()));
                        return;
                    }
                }
            }
        });
        // frames out: written by a thread, so a host that never reads cannot block lapiz
        let (writes, to_write) = sync_channel::<Vec<u8>>(1);
        let (wrote, written) = sync_channel(1);
        std::thread::spawn(move || {
            let mut input: ChildStdin = input;
            for frame in to_write {
                let ok = wire::write_frame(&mut input, &frame).is_ok();
                if wrote.send(ok).is_err() || !ok {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, stderr_done) = channel();
        let tail = stderr.clone();
        std::thread::spawn(move || {
            let mut err = err;
            let mut chunk = [0u8; 512];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend_from_slice(&chunk[..n]);
                if t.len() > STDERR_TAIL {
                    let cut = t.len() - STDERR_TAIL;
                    t.drain(..cut);
                }
            }
            let _ = done_tx.send(());
        });
        Ok(Host {
            child: Some(child),
            writes: Some(writes),
            written,
            frames,
            stderr,
            stderr_done,
        })
    }

    /// The process (there until the host is dropped).
    fn child(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("a host's process is there until it is dropped")
    }

    /// Whether the host runs more threads than its own (`sandbox::host_threads`) once a
    /// search has returned: the plugin left some behind.
    fn left_threads_running(&mut self, sandbox: Sandbox) -> bool {
        let pid = self.child().id();
        sandbox::threads_of(pid).is_some_and(|n| n > sandbox::host_threads(sandbox))
    }

    /// Kills the host (and its process group).
    fn kill(&mut self) {
        sandbox::kill_host(self.child());
    }

    /// Writes `frame` to the host by `deadline`; `Err` when the host is gone or does not
    /// take it in time (it is then killed).
    fn send(
        &mut self,
        frame: Vec<u8>,
        deadline: Instant,
        limit: Duration,
        settings: &HostSettings,
        doing: &str,
    ) -> Result<(), Broken> {
        let queued = self
            .writes
            .as_ref()
            .is_some_and(|w| w.try_send(frame).is_ok());
        let wait = deadline.saturating_duration_since(Instant::now());
        match (queued, self.written.recv_timeout(wait)) {
            (true, Ok(true)) => Ok(()),
            (true, Err(RecvTimeoutError::Timeout)) => {
                self.kill();
                Err(Broken::timed_out(format!(
                    "{doing} ran past the time limit of {} (the host did not read what lapiz wrote); its host process was stopped",
                    seconds(limit)
                )))
            }
            _ => Err(self.death(doing, settings).into()),
        }
    }

    /// The next frame, by `deadline`; `Err` when the host died or ran late (it is then
    /// killed) or sent something unreadable.
    fn next(
        &mut self,
        deadline: Instant,
        limit: Duration,
        settings: &HostSettings,
        doing: &str,
    ) -> Result<Vec<u8>, Broken> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.frames.recv_timeout(wait) {
            Ok(Ok(frame)) => Ok(frame),
            Ok(Err(e)) => {
                self.kill();
                Err(protocol(&e).into())
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Broken::timed_out(format!(
                    "{doing} ran past the time limit of {}; its host process was stopped",
                    seconds(limit)
                )))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.death(doing, settings).into()),
        }
    }

    /// What became of a host whose output ended: how it ended and its last words on stderr.
    fn death(&mut self, doing: &str, settings: &HostSettings) -> String {
        // its stdout closed or its stdin broke; whatever is left of it goes
        let child = self.child();
        let status = match wait_within(child, GRACE) {
            Some(s) => Ok(s),
            None => {
                sandbox::kill_host(child);
                child.wait()
            }
        };
        // its stderr is closed once it is gone; give the reader a moment to take the rest
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        let how = match status {
            Ok(s) => ended(s, settings),
            Err(e) => format!("ended (its status cannot be read: {e})"),
        };
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        // only what this search wrote: after the host's last search mark (what an earlier
        // search wrote may still have been in the pipe when the tail was cleared)
        let from = tail
            .windows(SEARCH_MARK.len())
            .rposition(|w| w == SEARCH_MARK)
            .map_or(0, |i| i + SEARCH_MARK.len());
        let text = String::from_utf8_lossy(&tail[from..]);
        let last: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let words = match last.len() {
            0 => String::new(),
            n => format!(
                " (its last words: {})",
                last[n.saturating_sub(2)..].join(" / ")
            ),
        };
        format!("the plugin host {how} during {doing}{words}")
    }

    fn search(
        &mut self,
        request: Vec<u8>,
        id: &str,
        n: usize,
        sink: &mut StepSink<'_>,
        settings: &HostSettings,
    ) -> Result<Result<(), String>, Broken> {
        let doing = "the search";
        let limit = settings.time_limit;
        // last words are this search's only
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        let deadline = Instant::now() + limit;
        self.send(request, deadline, limit, settings, doing)?;
        let (mut frames, mut bytes) = (0usize, 0usize);
        loop {
            let frame = self.next(deadline, limit, settings, doing)?;
            frames += 1;
            bytes += frame.len();
            if frames > MAX_FRAMES_PER_SEARCH || bytes > MAX_BYTES_PER_SEARCH {
                self.kill();
                return Err(protocol(&format!(
                    "more than {MAX_FRAMES_PER_SEARCH} frames or {} MiB in one search; its host process was stopped",
                    MAX_BYTES_PER_SEARCH >> 20
                ))
                .into());
            }
            let reply = match reply(&frame, id, n) {
                Ok(r) => r,
                Err(why) => {
                    self.kill();
                    return Err(why);
                }
            };
            match reply {
                Reply::Step(step) => {
                    let answer = match sink(step) {
                        ControlFlow::Continue(()) => wire::CONTINUE,
                        ControlFlow::Break(()) => wire::STOP,
                    };
                    self.send(vec![answer], deadline, limit, settings, doing)?;
                }
                Reply::Done => return Ok(Ok(())),
                Reply::Failed(message) => return Ok(Err(message)),
            }
        }
    }
}

/// `2 s`, `1.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// How a host process ended, in words (with the memory limit when a signal ended it, on
/// Unix: elsewhere `settings` is not needed).
#[cfg_attr(not(unix), allow(unused_variables))]
fn ended(status: ExitStatus, settings: &HostSettings) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGSEGV => "SIGSEGV, a segmentation fault",
                libc::SIGABRT => "SIGABRT, an abort",
                libc::SIGBUS => "SIGBUS, a bus error",
                libc::SIGILL => "SIGILL, an illegal instruction",
                libc::SIGFPE => "SIGFPE, an arithmetic fault",
                libc::SIGKILL => "SIGKILL",
                _ => "",
            };
            let memory = match settings.memory_limit_mib {
                0 => String::new(),
                n => format!("its memory limit was {n} MiB"),
            };
            let why = [name.to_string(), memory]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            return if why.is_empty() {
                format!("was killed by signal {signal}")
            } else {
                format!("was killed by signal {signal} ({why})")
            };
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("ended ({status})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn how_a_host_ended_is_said_in_words() {
        use std::os::unix::process::ExitStatusExt;
        let limited = HostSettings {
            memory_limit_mib: 64,
            ..HostSettings::default()
        };
        // a raw wait status: the low 7 bits are the signal, `code << 8` an exit code
        assert_eq!(
            ended(ExitStatus::from_raw(11), &limited),
            "was killed by signal 11 (SIGSEGV, a segmentation fault; its memory limit was 64 MiB)"
        );
        let unlimited = HostSettings {
            memory_limit_mib: 0,
            ..HostSettings::default()
        };
        assert_eq!(
            ended(ExitStatus::from_raw(6), &unlimited),
            "was killed by signal 6 (SIGABRT, an abort)"
        );
        assert_eq!(
            ended(ExitStatus::from_raw(3 << 8), &unlimited),
            "exited with status 3"
        );
    }
}
