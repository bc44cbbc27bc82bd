//! The plugin host process (`lapiz plugin-host LIB`): sandboxes itself, loads one library and
//! serves lapiz's searches over `plugin::wire` until its stdin closes.

use std::io::{BufReader, Read, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use super::SEARCH_MARK;
use crate::model::on_size;
use crate::model::{Bits, Geometry, Shape};
use crate::plugin::sandbox::{self, Sandbox, ThreadCap};
use crate::plugin::wire::{self, Described, Description, Request};
use crate::step::Step;
use crate::technique::{Context, StepSink, Technique, TechniqueError};

/// What the search thread tells the host's first thread.
enum Event {
    /// The library loaded: its description.
    Loaded(Description),
    /// The library did not load: why.
    LoadFailed(String),
    /// A step the search found, as a [`wire::STEP`] payload; a [`Job::Answer`] follows.
    Step(Vec<u8>),
    /// The search ended: a [`wire::DONE`] or [`wire::FAILED`] payload.
    Finished(Vec<u8>),
}

/// What the host's first thread tells the search thread.
enum Job {
    /// Run this search.
    Search(Request),
    /// lapiz's answer to the last step: keep searching (`true`) or stop.
    Answer(bool),
}

/// The plugin host: `lapiz plugin-host --memory-mib N --sandbox on|off -- LIB`. Sandboxes
/// itself (`sandbox`), limits its own memory, keeps its stdout for frames (whatever the plugin
/// prints goes to stderr), loads the library, describes it and serves searches until its stdin
/// closes. Returns the exit status.
///
/// Two threads: the first owns the wire (stdin and the frame output) and never runs plugin
/// code; the search thread loads the library and runs every search, and (sandboxed) can
/// reach neither descriptor, nor can any thread the plugin starts. They speak through
/// channels, so all a plugin can send lapiz is what its searches return.
pub fn serve(library: &Path, memory_limit_mib: u64, sandbox: Sandbox) -> u8 {
    // Landlock binds the thread that asks and the threads it starts after: the first thread
    // asks before starting the search thread. A host that cannot sandbox itself loads nothing.
    let mut refused = None;
    // the thread cap's counting thread reads /proc, which Landlock then shuts
    let mut cap = match sandbox {
        Sandbox::On => ThreadCap::open().map_err(|e| refused = Some(e)).ok(),
        Sandbox::Off => None,
    };
    if sandbox == Sandbox::On
        && refused.is_none()
        && let Err(e) = sandbox::restrict_files(library)
    {
        refused = Some(e);
    }
    if let Some(c) = &mut cap
        && refused.is_none()
        && let Err(e) = c.start()
    {
        refused = Some(e);
    }
    let (frames_fd, mut out) = match frame_output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("plugin host: cannot set up its output: {e}");
            return 2;
        }
    };
    // The searches run on a thread whose stack (and allocator arena, made by its first
    // allocation) is mapped before the memory limit is set, so a stack overflow meets the
    // guard page (and is named as one) rather than the limit; the thread starts work once
    // the limit is in place, after filtering its own system calls.
    let (go, wait) = channel::<Option<String>>();
    let (ready, started) = channel::<()>();
    let (jobs, job) = channel::<Job>();
    let (tell, events) = sync_channel::<Event>(0);
    let library = library.to_path_buf();
    let worker = std::thread::Builder::new()
        .name("plugin-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            std::hint::black_box(Box::new([0u8; 64]));
            let _ = ready.send(());
            let Ok(mut refused) = wait.recv() else { return };
            if sandbox == Sandbox::On && refused.is_none() {
                refused = cap
                    .as_ref()
                    .map_or(Ok(None), ThreadCap::apply)
                    .and_then(|listener| {
                        let mut guarded = vec![0, frames_fd];
                        guarded.extend(listener);
                        sandbox::guard_descriptors(&guarded)
                    })
                    .and_then(|()| sandbox::restrict_calls())
                    .err();
            }
            search_thread(&library, memory_limit_mib, refused, &job, &tell);
        });
    if let Err(e) = worker {
        eprintln!("plugin host: cannot start its search thread: {e}");
        return 2;
    }
    let _ = started.recv();
    limit_memory(memory_limit_mib);
    if sandbox == Sandbox::On
        && refused.is_none()
        && let Err(e) = sandbox::restrict_calls()
    {
        refused = Some(e);
    }
    sandbox::block_signals();
    let _ = go.send(refused);
    let mut input = BufReader::new(std::io::stdin().lock());
    let status = speak(&mut input, &mut out, &jobs, &events);
    if status == 0 {
        // lapiz closed the wire: nothing the plugin started outlives the host
        let _ = out.flush();
        sandbox::end_own_group();
    }
    status
}

/// The stack of the host's search thread.
pub(crate) const SEARCH_STACK: usize = 8 << 20;

/// The host's first thread: speaks the wire with lapiz, handing searches to the search thread
/// and its steps back. Returns the host's exit status.
fn speak(
    input: &mut impl Read,
    out: &mut impl Write,
    jobs: &Sender<Job>,
    events: &Receiver<Event>,
) -> u8 {
    // hellos first, both ways: a host of another protocol version loads nothing
    let mut frame = Vec::new();
    if wire::write_frame(out, &wire::hello()).is_err() {
        return 0;
    }
    match wire::read_frame(input, &mut frame) {
        Ok(true) => {}
        Ok(false) | Err(_) => return 0,
    }
    if let Err(why) = wire::check_hello(&frame) {
        eprintln!(
            "plugin host: lapiz's hello: {why}, but this host speaks version {}; it loads nothing",
            wire::PROTOCOL_VERSION
        );
        return 2;
    }
    let description = match events.recv() {
        Ok(Event::Loaded(d)) => d,
        Ok(Event::LoadFailed(why)) => {
            let _ = wire::write_frame(out, &wire::message(wire::LOAD_FAILED, &why));
            return 2;
        }
        Ok(_) | Err(_) => return 2,
    };
    let count = description.techniques.len();
    if wire::write_frame(out, &wire::describe(&description)).is_err() {
        return 0;
    }
    loop {
        match wire::read_frame(input, &mut frame) {
            Ok(true) => {}
            // lapiz is done with this host (or gone)
            Ok(false) | Err(_) => return 0,
        }
        let request = match Request::read(&frame) {
            Ok(r) => r,
            Err(why) => {
                eprintln!("plugin host: a bad request: {why}");
                return 2;
            }
        };
        if request.index() >= count {
            eprintln!("plugin host: no technique {}", request.index());
            return 2;
        }
        // everything on stderr after this belongs to this search (see `Host::death`)
        let _ = std::io::stderr().write_all(SEARCH_MARK);
        if jobs.send(Job::Search(request)).is_err() {
            return 2;
        }
        loop {
            match events.recv() {
                Ok(Event::Step(step)) => {
                    let ok = wire::write_frame(out, &step).is_ok()
                        && matches!(wire::read_frame(input, &mut frame), Ok(true));
                    if !ok {
                        return 0;
                    }
                    let go_on = frame.first() == Some(&wire::CONTINUE);
                    if jobs.send(Job::Answer(go_on)).is_err() {
                        return 2;
                    }
                }
                Ok(Event::Finished(reply)) => {
                    if wire::write_frame(out, &reply).is_err() {
                        return 0;
                    }
                    break;
                }
                Ok(_) | Err(_) => return 2,
            }
        }
    }
}

/// The search thread: loads the library (unless the sandbox was `refused`) and runs the
/// searches it is handed, telling the first thread each step and each end.
fn search_thread(
    library: &Path,
    memory_limit_mib: u64,
    refused: Option<String>,
    job: &Receiver<Job>,
    tell: &SyncSender<Event>,
) {
    if let Some(why) = refused {
        let _ = tell.send(Event::LoadFailed(format!(
            "plugin {}: the plugin host {why}, so it did not load the library (--plugin-sandbox off runs trusted plugins without the sandbox)",
            library.display()
        )));
        return;
    }
    let plugin = match crate::plugin::load(library) {
        Ok(p) => p,
        Err(e) => {
            // a limit too small to map the library fails as a bad library does: say which
            let why = if memory_limit_mib > 0 && !room_to_load(library) {
                format!(
                    "plugin {}: the plugin host's memory limit of {memory_limit_mib} MiB (--plugin-memory) leaves too little room to load it; raise the limit",
                    library.display()
                )
            } else {
                e.to_string()
            };
            let _ = tell.send(Event::LoadFailed(why));
            return;
        }
    };
    let techniques = plugin.techniques();
    let description = Description {
        name: plugin.name.clone(),
        abi: plugin.abi_version,
        techniques: techniques
            .iter()
            .zip(&plugin.techniques)
            .map(|(t, d)| Described {
                id: t.id().to_string(),
                name: t.name().to_string(),
                codes: t.library_codes(),
                difficulty: t.difficulty(),
                needs_uniqueness: t.needs_uniqueness(),
                sizes: d.sizes,
                sized: matches!(
                    d.call,
                    crate::plugin::Call::Direct {
                        search: crate::plugin::Search::Sized(_),
                        ..
                    }
                ),
            })
            .collect(),
    };
    if tell.send(Event::Loaded(description)).is_err() {
        return;
    }
    while let Ok(Job::Search(request)) = job.recv() {
        let Some(technique) = techniques.get(request.index()) else {
            return;
        };
        let n = request.n();
        let mut lost = false;
        let sink = &mut |step: Step| {
            let answer = tell
                .send(Event::Step(wire::step(&step, n)))
                .ok()
                .and_then(|()| job.recv().ok());
            match answer {
                Some(Job::Answer(true)) => ControlFlow::Continue(()),
                Some(Job::Answer(false)) => ControlFlow::Break(()),
                _ => {
                    lost = true;
                    ControlFlow::Break(())
                }
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
            return;
        }
        let reply = match result {
            Ok(()) => vec![wire::DONE],
            Err(e) => wire::message(wire::FAILED, e.message()),
        };
        if tell.send(Event::Finished(reply)).is_err() {
            return;
        }
    }
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

/// The host's frame output and its descriptor: on Unix a private copy of stdout, with stdout
/// itself pointed at stderr so a plugin that prints cannot corrupt the frames; elsewhere
/// stdout (descriptor 1).
fn frame_output() -> std::io::Result<(i32, Box<dyn Write>)> {
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: dup/dup2 on the standard descriptors; the new descriptor is owned by the
        // File from here on.
        unsafe {
            let frames = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
            if frames < 0 || libc::dup2(2, 1) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok((
                frames,
                Box::new(std::io::BufWriter::new(std::fs::File::from_raw_fd(frames))),
            ))
        }
    }
    #[cfg(not(unix))]
    {
        Ok((1, Box::new(std::io::stdout())))
    }
}
