//! Plugins in their own process: the plugin host (`lapiz plugin-host LIB`, [`serve`]) and
//! lapiz's side of it (a pool of hosts per library, [`HostSettings`]).
//!
//! The host loads one library, describes it, and runs searches on request over its stdin and
//! stdout (`plugin::wire`). lapiz waits for each search with a time limit; a host that dies
//! (a segfault, `abort()`, a stack overflow, `exit()`, running out of its memory limit) or
//! runs past the limit is killed and dropped, and the search fails with a
//! [`TechniqueError`] naming the library and what happened:
//! the engine disables that technique for the rest of the solve, and the next search starts a
//! fresh host.

use std::io::{BufReader, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use lapiz_plugin_api::abi::LpBoard;

use super::sandbox::{self, Sandbox};
use super::wire::{self, Decoder, Encoder, FrameError};
use crate::model::grid::Grid;
use crate::model::on_size;
use crate::model::{Bits, Geometry, Layout, Shape};
use crate::step::Step;
use crate::technique::{Context, StepSink, Technique, TechniqueError};

/// Where plugin searches run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PluginMode {
    /// In a separate host process, with a time and a memory limit (the default): a plugin that
    /// crashes, hangs or exits cannot take lapiz down.
    #[default]
    Host,
    /// Called directly inside lapiz, as fast as a built-in but with no protection from a
    /// plugin that crashes or hangs: for trusted plugins only.
    InProcess,
}

/// How plugin hosts are started and limited; one setting for the whole process
/// ([`HostSettings::install`]).
#[derive(Clone, Debug, PartialEq)]
pub struct HostSettings {
    /// The program run as `PROGRAM plugin-host LIB` (the `lapiz` binary); `None` when it is
    /// unknown, and hosted searches then fail saying so.
    pub program: Option<PathBuf>,
    /// How long one search may take before its host is killed.
    pub time_limit: Duration,
    /// The host's address-space limit in MiB (Unix only; 0 for none).
    pub memory_limit_mib: u64,
    /// Forces this mode over every pipeline's `plugin_mode` (the `--plugin-mode` option).
    pub force_mode: Option<PluginMode>,
    /// Forces this sandbox setting over every pipeline's `plugin_sandbox` (the
    /// `--plugin-sandbox` option).
    pub force_sandbox: Option<Sandbox>,
}

/// The least time a host is given to start and load its library (the search time limit
/// when that is longer): starting a process on a busy machine is not the plugin's fault.
pub(crate) const LOAD_TIME_LIMIT: Duration = Duration::from_secs(10);

impl Default for HostSettings {
    fn default() -> HostSettings {
        HostSettings {
            program: default_program(),
            time_limit: HostSettings::DEFAULT_TIME_LIMIT,
            memory_limit_mib: HostSettings::DEFAULT_MEMORY_LIMIT_MIB,
            force_mode: None,
            force_sandbox: None,
        }
    }
}

/// `$LAPIZ_PLUGIN_HOST`, else the running program when it is `lapiz` itself. The running
/// program is looked up once a process (a `readlink` of `/proc/self/exe` on Linux).
pub(crate) fn default_program() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(HostSettings::PROGRAM_ENV).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    static RUNNING: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    RUNNING
        .get_or_init(|| {
            std::env::current_exe()
                .ok()
                .filter(|exe| exe.file_stem().is_some_and(|s| s == "lapiz"))
        })
        .clone()
}

static SETTINGS: Mutex<Option<HostSettings>> = Mutex::new(None);

impl HostSettings {
    /// The environment variable naming the plugin host program (the `lapiz` binary), for
    /// programs other than `lapiz` itself that use the library.
    pub const PROGRAM_ENV: &'static str = "LAPIZ_PLUGIN_HOST";
    /// The default time limit per search.
    pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);
    /// The default memory limit of a host, in MiB.
    pub const DEFAULT_MEMORY_LIMIT_MIB: u64 = 4096;

    /// Sets how plugin hosts are started and limited from now on, for the whole process
    /// (hosts already running keep their memory limit; the time limit applies to the next
    /// search).
    pub fn install(self) {
        *SETTINGS.lock().unwrap_or_else(|e| e.into_inner()) = Some(self);
    }

    /// The settings in force ([`HostSettings::default`] until [`HostSettings::install`]).
    pub fn current() -> HostSettings {
        SETTINGS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HostSettings::default)
            .clone()
    }
}

/// One technique as the host describes it.
#[derive(Debug, Clone)]
pub(crate) struct Described {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) codes: Vec<String>,
    pub(crate) difficulty: f32,
    pub(crate) needs_uniqueness: bool,
    /// The sizes it runs on, `lp_size(n)` bits.
    pub(crate) sizes: u32,
    /// Whether its search is the sized one (ABI version 3).
    pub(crate) sized: bool,
}

/// What a host says of its library: the plugin's name, its ABI version and its techniques.
type Description = (String, u32, Vec<Described>);

/// The hosts of one library: idle ones wait here between searches, one per thread that has
/// searched at once.
#[derive(Debug)]
pub(crate) struct Pool {
    /// The library as given (passed to the host and named in errors).
    path: String,
    /// Whether its hosts sandbox themselves.
    sandbox: Sandbox,
    idle: Mutex<Vec<Host>>,
}

/// A running host process.
#[derive(Debug)]
struct Host {
    child: Child,
    input: ChildStdin,
    frames: Receiver<Result<Vec<u8>, String>>,
    /// The end of its stderr, for the error message when it dies.
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
}

/// How much of a host's stderr is kept.
const STDERR_TAIL: usize = 2048;

impl Drop for Host {
    fn drop(&mut self) {
        // an idle host ends by itself when its stdin closes; a broken one is killed
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Why a hosted search did not end normally: the host is gone or must go.
type Broken = String;

impl Pool {
    /// Starts a host for `path` and reads its description: the plugin's name and techniques,
    /// or the loader's error message. The host is kept for the first search.
    pub(crate) fn open(
        path: &str,
        sandbox: Sandbox,
    ) -> Result<(Arc<Pool>, String, u32, Vec<Described>), String> {
        let settings = HostSettings::current();
        let mut host = Host::spawn(path, sandbox, &settings)?;
        let limit = settings.time_limit.max(LOAD_TIME_LIMIT);
        let frame = host.next(
            Instant::now() + limit,
            limit,
            &settings,
            "loading the library",
        )?;
        let description = description(&frame)??;
        let pool = Arc::new(Pool {
            path: path.to_string(),
            sandbox,
            idle: Mutex::new(vec![host]),
        });
        Ok((pool, description.0, description.1, description.2))
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
        let mut e = Encoder::new(wire::SEARCH);
        e.u16(index as u16);
        e.0.extend_from_slice(grid.values());
        for cell in crate::model::cell::Cell::all() {
            e.u16(grid.candidates(cell));
        }
        self.run(e.0, id, 9, sink)
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
        let mut e = Encoder::new(wire::SEARCH_SIZED);
        e.u16(index as u16);
        let cells = board.cells as usize;
        e.u8(board.n as u8);
        e.u8(board.box_rows as u8);
        e.u8(board.box_cols as u8);
        e.0.extend_from_slice(&board.values[..cells]);
        for &mask in &board.candidates[..cells] {
            e.u32(mask);
        }
        self.run(e.0, id, board.n as usize, sink)
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
                let mut h = Host::spawn(&self.path, self.sandbox, &settings)?;
                let limit = settings.time_limit.max(LOAD_TIME_LIMIT);
                let frame = h.next(
                    Instant::now() + limit,
                    limit,
                    &settings,
                    "loading the library",
                )?;
                if frame.first() != Some(&wire::DESCRIBE) {
                    return Err("the plugin host could not load the library again".into());
                }
                h
            }
        };
        let result = host.search(&request, id, n, sink, &settings);
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
        Some(&wire::DESCRIBE) => Ok(Ok(describe(&mut d).map_err(|e| protocol(&e.to_string()))?)),
        Some(&wire::LOAD_FAILED) => Ok(Err(d.str().map_err(|e| protocol(&e.to_string()))?)),
        _ => Err(protocol("no description")),
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
        _ => Err(protocol("an unknown frame")),
    }
}

/// Reads `bytes` as lapiz reads a host's output (its description, then the frames of
/// searches), returning how many frames it read: for the fuzz target `host_frames`
/// (`fuzz/`), which checks that nothing a host sends makes lapiz panic.
#[doc(hidden)]
pub fn read_host_output(mut bytes: &[u8]) -> Result<usize, String> {
    let mut frame = Vec::new();
    let mut count = 0;
    while wire::read_frame(&mut bytes, &mut frame).map_err(|e| protocol(&e.to_string()))? {
        if count == 0 {
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

/// The plugin's name, ABI version and techniques from a [`wire::DESCRIBE`] frame.
fn describe(d: &mut Decoder<'_>) -> Result<Description, FrameError> {
    let name = d.str()?;
    let abi = d.u32()?;
    let count = d.u16()?;
    let mut techniques = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let id = d.str()?;
        let name = d.str()?;
        let codes = (0..d.u16()?).map(|_| d.str()).collect::<Result<_, _>>()?;
        let difficulty = d.f32()?;
        let needs_uniqueness = d.u8()? != 0;
        let sizes = d.u32()?;
        let sized = d.u8()? != 0;
        techniques.push(Described {
            id,
            name,
            codes,
            difficulty,
            needs_uniqueness,
            sizes,
            sized,
        });
    }
    Ok((name, abi, techniques))
}

impl Host {
    fn spawn(path: &str, sandbox: Sandbox, settings: &HostSettings) -> Result<Host, Broken> {
        let program = settings.program.as_ref().ok_or_else(|| {
            format!(
                "no plugin host program to run it in: set {} to the lapiz binary, or choose the in-process plugin mode for trusted plugins",
                HostSettings::PROGRAM_ENV
            )
        })?;
        let mut child = Command::new(program)
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
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the plugin host {}: {e}", program.display()))?;
        let (input, output, err) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("the plugin host's pipes could not be opened".into());
                }
            };
        let (tx, frames) = channel();
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
            child,
            input,
            frames,
            stderr,
            stderr_done,
        })
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
            Ok(Err(e)) => Err(protocol(&e)),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                Err(format!(
                    "{doing} ran past the time limit of {}; its host process was stopped",
                    seconds(limit)
                ))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.death(doing, settings)),
        }
    }

    /// What became of a host whose output ended: how it ended and its last words on stderr.
    fn death(&mut self, doing: &str, settings: &HostSettings) -> String {
        let status = self.child.wait();
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
        request: &[u8],
        id: &str,
        n: usize,
        sink: &mut StepSink<'_>,
        settings: &HostSettings,
    ) -> Result<Result<(), String>, Broken> {
        let doing = "the search";
        // last words are this search's only
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        let deadline = Instant::now() + settings.time_limit;
        if wire::write_frame(&mut self.input, request).is_err() {
            return Err(self.death(doing, settings));
        }
        loop {
            let frame = self.next(deadline, settings.time_limit, settings, doing)?;
            match reply(&frame, id, n)? {
                Reply::Step(step) => {
                    let answer = match sink(step) {
                        ControlFlow::Continue(()) => wire::CONTINUE,
                        ControlFlow::Break(()) => wire::STOP,
                    };
                    if wire::write_frame(&mut self.input, &[answer]).is_err() {
                        return Err(self.death(doing, settings));
                    }
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

/// How a host process ended, in words.
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

/// What the host writes on its stderr as it starts a search, so that lapiz quotes only that
/// search's last words when the host dies.
const SEARCH_MARK: &[u8] = b"\x1elapiz plugin host: search\x1e\n";

/// The plugin host: `lapiz plugin-host --memory-mib N --sandbox on|off -- LIB`. Sandboxes
/// itself (`sandbox`), limits its own memory, keeps its stdout for frames (whatever the plugin
/// prints goes to stderr), loads the library, describes it and serves searches until its stdin
/// closes. Returns the exit status.
pub fn serve(library: &Path, memory_limit_mib: u64, sandbox: Sandbox) -> u8 {
    // Landlock binds the thread that asks and the threads it starts after: the first thread
    // asks before starting the search thread. A host that cannot sandbox itself loads nothing.
    let mut refused = None;
    if sandbox == Sandbox::On
        && let Err(e) = sandbox::restrict_files(library)
    {
        refused = Some(e);
    }
    // The searches run on a thread whose stack (and allocator arena, made by its first
    // allocation) is mapped before the memory limit is set, so a stack overflow meets the
    // guard page (and is named as one) rather than the limit; the thread starts work once
    // the limit and the system-call filter (on every thread) are in place.
    let (go, wait) = channel::<Option<String>>();
    let (ready, started) = channel::<()>();
    let library = library.to_path_buf();
    let worker = std::thread::Builder::new()
        .name("plugin-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            std::hint::black_box(Box::new([0u8; 64]));
            let _ = ready.send(());
            match wait.recv() {
                Ok(refused) => serve_here(&library, memory_limit_mib, refused),
                Err(_) => 2,
            }
        });
    let worker = match worker {
        Ok(w) => w,
        Err(e) => {
            eprintln!("plugin host: cannot start its search thread: {e}");
            return 2;
        }
    };
    let _ = started.recv();
    limit_memory(memory_limit_mib);
    if sandbox == Sandbox::On
        && refused.is_none()
        && let Err(e) = sandbox::restrict_calls()
    {
        refused = Some(e);
    }
    let _ = go.send(refused);
    worker.join().unwrap_or(101)
}

/// The stack of the host's search thread.
pub(crate) const SEARCH_STACK: usize = 8 << 20;

fn serve_here(library: &Path, memory_limit_mib: u64, refused: Option<String>) -> u8 {
    let mut out = match frame_output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("plugin host: cannot set up its output: {e}");
            return 2;
        }
    };
    if let Some(why) = refused {
        let mut f = Encoder::new(wire::LOAD_FAILED);
        f.str(&format!(
            "plugin {}: the plugin host {why}, so it did not load the library (--plugin-sandbox off runs trusted plugins without the sandbox)",
            library.display()
        ));
        let _ = wire::write_frame(&mut out, &f.0);
        return 2;
    }
    let plugin = match super::load(library) {
        Ok(p) => p,
        Err(e) => {
            let mut f = Encoder::new(wire::LOAD_FAILED);
            // a limit too small to map the library fails as a bad library does: say which
            let why = if memory_limit_mib > 0 && !room_to_load(library) {
                format!(
                    "plugin {}: the plugin host's memory limit of {memory_limit_mib} MiB (--plugin-memory) leaves too little room to load it; raise the limit",
                    library.display()
                )
            } else {
                e.to_string()
            };
            f.str(&why);
            let _ = wire::write_frame(&mut out, &f.0);
            return 2;
        }
    };
    let mut f = Encoder::new(wire::DESCRIBE);
    f.str(&plugin.name);
    f.u32(plugin.abi_version);
    let techniques = plugin.techniques();
    f.u16(techniques.len() as u16);
    for (t, d) in techniques.iter().zip(&plugin.techniques) {
        f.str(t.id());
        f.str(t.name());
        let codes = t.library_codes();
        f.u16(codes.len() as u16);
        for c in &codes {
            f.str(c);
        }
        f.f32(t.difficulty());
        f.u8(u8::from(t.needs_uniqueness()));
        f.u32(d.sizes);
        f.u8(u8::from(matches!(
            d.call,
            super::Call::Direct {
                search: super::Search::Sized(_),
                ..
            }
        )));
    }
    if wire::write_frame(&mut out, &f.0).is_err() {
        return 0;
    }
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut frame = Vec::new();
    loop {
        match wire::read_frame(&mut input, &mut frame) {
            Ok(true) => {}
            // lapiz is done with this host (or gone)
            Ok(false) | Err(_) => return 0,
        }
        let request = match search_request(&frame) {
            Ok(r) => r,
            Err(why) => {
                eprintln!("plugin host: a bad request: {why}");
                return 2;
            }
        };
        let index = match &request {
            Request::Nine(index, _) | Request::Sized { index, .. } => *index,
        };
        let Some(technique) = techniques.get(index) else {
            eprintln!("plugin host: no technique {index}");
            return 2;
        };
        // everything on stderr after this belongs to this search (see `Host::death`)
        {
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(SEARCH_MARK);
        }
        let mut lost = false;
        let mut answer = Vec::new();
        let n = match &request {
            Request::Nine(..) => 9,
            Request::Sized { layout, .. } => layout.n(),
        };
        let sink = &mut |step: Step| {
            let mut e = Encoder::new(wire::STEP);
            e.step(&step, n);
            let ok = wire::write_frame(&mut out, &e.0).is_ok()
                && matches!(wire::read_frame(&mut input, &mut answer), Ok(true));
            if !ok {
                lost = true;
                return ControlFlow::Break(());
            }
            match answer.first() {
                Some(&wire::CONTINUE) => ControlFlow::Continue(()),
                _ => ControlFlow::Break(()),
            }
        };
        let result = match request {
            Request::Nine(_, grid) => technique.find(&grid, sink),
            Request::Sized {
                layout,
                values,
                masks,
                ..
            } => on_size!(layout.by_size(), geo => SizedSearch {
                technique: technique.as_ref(),
                values: &values,
                masks: &masks,
                sink,
            }.call(geo)),
        };
        if lost {
            return 0;
        }
        let reply = match result {
            Ok(()) => Encoder::new(wire::DONE),
            Err(crate::technique::TechniqueError::Failed { message, .. }) => {
                let mut e = Encoder::new(wire::FAILED);
                e.str(&message);
                e
            }
        };
        if wire::write_frame(&mut out, &reply.0).is_err() {
            return 0;
        }
    }
}

/// A search request: the technique's index and the board.
enum Request {
    /// A 9x9 search of the grid.
    Nine(usize, Box<Grid>),
    /// A sized search (ABI version 3) of a board of `layout`: its values and candidate masks.
    Sized {
        index: usize,
        layout: Layout,
        values: Vec<u8>,
        masks: Vec<u32>,
    },
}

/// Runs a sized search in the host on the grid of the request's shape.
struct SizedSearch<'a, 'b> {
    technique: &'a dyn Technique,
    values: &'a [u8],
    masks: &'a [u32],
    sink: &'a mut StepSink<'b>,
}

impl SizedSearch<'_, '_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Result<(), TechniqueError> {
        let mut grid = crate::model::grid::Grid::from_value_slice(geo, self.values);
        for (i, &mask) in self.masks.iter().enumerate() {
            let cell = S::cell(i);
            if grid.value(cell) == 0 {
                let mask = (0..S::N)
                    .filter(|d| mask >> d & 1 != 0)
                    .fold(S::Mask::ZERO, |m, d| m.or(S::Mask::bit(d)));
                grid.set_candidates(cell, mask);
            }
        }
        let ctx = Context::new(&grid);
        self.technique.find_sized(ctx.sized(), self.sink)
    }
}

/// Reads a search request.
fn search_request(frame: &[u8]) -> Result<Request, FrameError> {
    if frame.first() == Some(&wire::SEARCH_SIZED) {
        let mut d = Decoder::new(&frame[1..]);
        let index = d.u16()? as usize;
        let (n, rows, cols) = (d.u8()?, d.u8()?, d.u8()?);
        let layout =
            Layout::with_box(n, rows, cols).map_err(|_| FrameError::Board { n, rows, cols })?;
        let cells = layout.n() * layout.n();
        let values = d.bytes(cells)?.to_vec();
        let masks = (0..cells).map(|_| d.u32()).collect::<Result<_, _>>()?;
        return Ok(Request::Sized {
            index,
            layout,
            values,
            masks,
        });
    }
    if frame.first() != Some(&wire::SEARCH) {
        return Err(FrameError::NotASearch);
    }
    let mut d = Decoder::new(&frame[1..]);
    let index = d.u16()? as usize;
    let values: [u8; 81] = d
        .bytes(81)?
        .try_into()
        .map_err(|_| FrameError::EndsEarly { at: frame.len() })?;
    let mut grid = Grid::from_values(&values);
    for cell in crate::model::cell::Cell::all() {
        let mask = d.u16()?;
        if grid.value(cell) == 0 {
            grid.set_candidates(cell, mask);
        }
    }
    Ok(Request::Nine(index, Box::new(grid)))
}

/// Whether the host's address space has room left to map `library` (twice its size, and at
/// least 8 MiB), tried as the loader maps it: when it has not, a load that failed is blamed
/// on the memory limit.
fn room_to_load(library: &Path) -> bool {
    #[cfg(unix)]
    {
        let size = std::fs::metadata(library).map_or(0, |m| m.len());
        let want = usize::try_from(size.saturating_mul(2))
            .unwrap_or(usize::MAX)
            .max(8 << 20);
        // SAFETY: an anonymous private mapping no one else sees, unmapped at once.
        unsafe {
            let at = libc::mmap(
                std::ptr::null_mut(),
                want,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if at == libc::MAP_FAILED {
                return false;
            }
            libc::munmap(at, want);
        }
        true
    }
    #[cfg(not(unix))]
    {
        let _ = library;
        true
    }
}

/// Caps the host's address space (Unix: `setrlimit(RLIMIT_AS)`); elsewhere there is no cap.
fn limit_memory(mib: u64) {
    #[cfg(unix)]
    if mib > 0 {
        let bytes = mib.saturating_mul(1 << 20) as libc::rlim_t;
        let limit = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: bytes,
        };
        // SAFETY: setrlimit reads the struct it is given and changes only this process.
        if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
            eprintln!(
                "plugin host: cannot limit memory to {mib} MiB: {}",
                std::io::Error::last_os_error()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = mib;
}

/// The host's frame output: on Unix a private copy of stdout, with stdout itself pointed at
/// stderr so a plugin that prints cannot corrupt the frames; elsewhere stdout.
fn frame_output() -> std::io::Result<Box<dyn Write>> {
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: dup/dup2 on the standard descriptors; the new descriptor is owned by the
        // File from here on.
        unsafe {
            let frames = libc::dup(1);
            if frames < 0 || libc::dup2(2, 1) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(Box::new(std::io::BufWriter::new(
                std::fs::File::from_raw_fd(frames),
            )))
        }
    }
    #[cfg(not(unix))]
    {
        Ok(Box::new(std::io::stdout()))
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

    #[test]
    fn a_bad_search_request_is_an_error_not_a_panic() {
        assert!(search_request(b"").is_err());
        assert!(search_request(b"X").is_err());
        assert!(search_request(&[wire::SEARCH, 0, 0, 1, 2]).is_err());
    }
}
