//! Technique plugins: shared libraries loaded at run time through the versioned C ABI of
//! `lapiz-plugin-api` (see `docs/plugins.md`).
//!
//! [`load`] opens a library with libloading (symbols resolved at load time), calls its entry
//! symbol `lapiz_plugin`, checks the ABI version and struct sizes, and validates every technique
//! it describes. Libraries are never unloaded (thread-local destructors make unloading unsound):
//! each is kept for the life of the process, and loading the same file again returns the same
//! [`Plugin`]. Plugins built for ABI versions 1 to `LP_ABI_VERSION` load.
//! Every step a plugin emits is checked (lengths within capacities; cells, digits and houses
//! in range; known roles; UTF-8 text) before it becomes a [`Step`]; anything wrong becomes a
//! [`TechniqueError`], and the engine disables the technique and carries on.
//!
//! [`load_as`] with [`PluginMode::Host`] (the default of pipelines and of the CLI) loads the
//! library in a separate host process instead ([`host`]): lapiz never opens it, and every
//! search runs there with a time and a memory limit, so a plugin that crashes, hangs or exits
//! costs its technique for that solve, not lapiz. On Linux the host also sandboxes itself before
//! it loads the library ([`sandbox`]): it may read only the library's folder and the system's
//! libraries, and may not write, connect, run programs or signal other processes.
//!
//! A host program loads a library and hands its techniques to a pipeline. The example is
//! `no_run` because it needs a built plugin (`cargo build -p example-rust` makes
//! `target/debug/liblapiz_example_rust.so`) and, in host mode, the `lapiz` binary to run the
//! plugin host (named by [`HostSettings::program`] or `$LAPIZ_PLUGIN_HOST`):
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//!
//! use lapiz::plugin::{self, HostSettings, PluginMode};
//! use lapiz::{Pipeline, solve_puzzle};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Hosted searches run in `lapiz plugin-host`: say where the binary is.
//! HostSettings {
//!     program: Some(PathBuf::from("target/debug/lapiz")),
//!     ..HostSettings::default()
//! }
//! .install();
//! let library = Path::new("target/debug/liblapiz_example_rust.so");
//! let loaded = plugin::load_as(library, PluginMode::Host)?;
//! println!("{}: {:?}", loaded.name, loaded.technique_ids());
//!
//! // Its techniques join a pipeline in difficulty order (ids stay unique) ...
//! let mut pipeline = Pipeline::default_pipeline();
//! for technique in loaded.techniques() {
//!     pipeline.add_technique(technique)?;
//! }
//! // ... or in one call, in the pipeline's plugin mode (trusted code may run in process).
//! let mut trusted = Pipeline::default_pipeline();
//! trusted.set_plugin_mode(PluginMode::InProcess);
//! let added = trusted.add_plugin(library)?;
//! assert_eq!(added, loaded.technique_ids());
//!
//! let trace = solve_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     &pipeline,
//! );
//! assert!(trace.is_solved());
//! # Ok(())
//! # }
//! ```
//!
//! A library that cannot be loaded is a typed error:
//!
//! ```
//! use std::path::Path;
//! use lapiz::plugin::{self, PluginError};
//!
//! let missing = plugin::load(Path::new("no/such/plugin.so"));
//! assert!(matches!(missing, Err(PluginError::Missing { .. })));
//! ```

pub mod host;
pub mod sandbox;
mod wire;

pub use host::{HostSettings, PluginMode};
pub use sandbox::Sandbox;

use std::ffi::{CStr, c_char, c_void};
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use lapiz_plugin_api::abi::*;

use crate::geometry::{Cell, House};
use crate::grid::{Candidate, Grid};
use crate::step::{Highlight, Role, Step, eliminations_text};
use crate::technique::{Origin, StepSink, Technique, TechniqueError};

/// A plugin library could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PluginError {
    /// No file at the path.
    #[error("plugin {path}: no such file")]
    Missing {
        /// The path.
        path: String,
    },
    /// The file exists but cannot be reached (permissions, a path through a file, …).
    #[error("plugin {path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        message: String,
    },
    /// The file is not a loadable shared library.
    #[error("plugin {path}: not a shared library this system can load ({message})")]
    NotALibrary {
        /// The path.
        path: String,
        /// The loader's message.
        message: String,
    },
    /// The library does not export the entry symbol.
    #[error("plugin {path}: no `{symbol}` symbol: not a lapiz plugin ({message})")]
    NoEntry {
        /// The path.
        path: String,
        /// The symbol looked for.
        symbol: &'static str,
        /// The loader's message.
        message: String,
    },
    /// The entry function returned no descriptor.
    #[error(
        "plugin {path}: `lapiz_plugin()` returned no descriptor (the plugin failed to describe itself)"
    )]
    NoDescriptor {
        /// The path.
        path: String,
    },
    /// The plugin was built for an ABI version this host does not load.
    #[error(
        "plugin {path}: built for lapiz plugin ABI version {found}, but this lapiz loads versions {oldest} to {expected}; rebuild the plugin against lapiz-plugin-api {expected}"
    )]
    AbiVersion {
        /// The path.
        path: String,
        /// The plugin's version.
        found: u32,
        /// The host's version (the newest it loads).
        expected: u32,
        /// The oldest version the host loads (1).
        oldest: u32,
    },
    /// A struct size disagrees with the host's.
    #[error("plugin {path}: sizeof({what}) is {found} in the plugin but {expected} in lapiz")]
    StructSize {
        /// The path.
        path: String,
        /// The struct.
        what: &'static str,
        /// The plugin's size.
        found: u32,
        /// The host's size.
        expected: u32,
    },
    /// A technique descriptor is malformed.
    #[error("plugin {path}: technique {index}: {message}")]
    BadTechnique {
        /// The path.
        path: String,
        /// 0-based index in the plugin's table.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// The plugin host could not load the library, or died or hung while loading it.
    #[error("plugin {path}: {message}")]
    Host {
        /// The path.
        path: String,
        /// What happened (the loader's message, or how the host ended).
        message: String,
    },
    /// A folder of plugins could not be read.
    #[error("plugin folder {path}: {message}")]
    Folder {
        /// The folder.
        path: String,
        /// The I/O error.
        message: String,
    },
}

/// A loaded plugin library: its name and the techniques it offers.
#[derive(Debug)]
pub struct Plugin {
    /// The path it was loaded from (as given).
    pub path: String,
    /// The name it gives itself.
    pub name: String,
    techniques: Vec<Descriptor>,
}

/// The oldest plugin ABI version this host loads: plugins built for 1 to [`LP_ABI_VERSION`]
/// load (a newer version only appends fields to `LpOutput`, which older plugins never see).
pub(crate) const OLDEST_ABI_VERSION: u32 = 1;

/// One validated technique descriptor.
#[derive(Debug, Clone)]
struct Descriptor {
    id: String,
    name: String,
    codes: Vec<String>,
    difficulty: f32,
    needs_uniqueness: bool,
    call: Call,
}

/// How a technique's search is reached.
#[derive(Debug, Clone)]
enum Call {
    /// Directly, in this process; `houses` when the plugin was built for ABI version 2 or
    /// later, so its steps may carry houses.
    Direct {
        context: *const c_void,
        search: LpSearchFn,
        houses: bool,
    },
    /// Through a plugin host process: technique `index` of the library in `pool`.
    Hosted { pool: Arc<host::Pool>, index: usize },
}

// SAFETY: the plugin ABI requires a search to be callable from any thread (docs/plugins.md);
// the descriptor itself is immutable plain data pointing into a library that is never unloaded.
unsafe impl Send for Descriptor {}
// SAFETY: as above.
unsafe impl Sync for Descriptor {}

impl Plugin {
    /// The ids of the techniques it offers, in its order.
    pub fn technique_ids(&self) -> Vec<String> {
        self.techniques.iter().map(|d| d.id.clone()).collect()
    }

    /// Its techniques, in its order, ready for a pipeline.
    pub fn techniques(&self) -> Vec<Box<dyn Technique>> {
        self.techniques.iter().map(|d| self.wrap(d)).collect()
    }

    /// Its technique with this id, if it offers one.
    pub fn technique(&self, id: &str) -> Option<Box<dyn Technique>> {
        self.techniques
            .iter()
            .find(|d| d.id == id)
            .map(|d| self.wrap(d))
    }

    fn wrap(&self, descriptor: &Descriptor) -> Box<dyn Technique> {
        Box::new(PluginTechnique {
            descriptor: descriptor.clone(),
            path: self.path.clone(),
        })
    }
}

/// Libraries loaded so far, by canonical path; never unloaded.
static LOADED: Mutex<Vec<(PathBuf, Arc<Plugin>)>> = Mutex::new(Vec::new());

/// Libraries loaded in plugin hosts so far, by canonical path and sandbox setting.
static HOSTED: Mutex<Vec<(PathBuf, Sandbox, Arc<Plugin>)>> = Mutex::new(Vec::new());

impl PluginMode {
    /// The mode plugins load in when this one is preferred (a pipeline's `plugin_mode`):
    /// [`HostSettings::force_mode`] if set, else this one.
    pub fn effective(self) -> PluginMode {
        HostSettings::current().force_mode.unwrap_or(self)
    }
}

/// The sandbox setting hosts start with: [`HostSettings::force_sandbox`] if set, else
/// `preferred` (a pipeline's `plugin_sandbox`).
pub(crate) fn effective_sandbox(preferred: Sandbox) -> Sandbox {
    HostSettings::current().force_sandbox.unwrap_or(preferred)
}

/// How a loaded plugin runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// In lapiz's own process: no sandbox.
    InProcess,
    /// In plugin hosts, sandboxed or not.
    Hosted(Sandbox),
}

impl Way {
    /// How the plugins loaded so far in this process run: one entry per distinct way, in the
    /// order first met (for `lapiz techniques` and the command line's warning).
    pub fn loaded() -> Vec<Way> {
        let mut ways = Vec::new();
        if !LOADED.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
            ways.push(Way::InProcess);
        }
        for (_, sandbox, _) in HOSTED.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let way = Way::Hosted(*sandbox);
            if !ways.contains(&way) {
                ways.push(way);
            }
        }
        ways
    }
}

impl Way {
    /// The sandbox of plugins that run this way, in a few words (`lapiz techniques` prints
    /// it): `on (Landlock ABI 7, seccomp)`, `off (...)`, `none (...)`.
    pub fn sandbox_words(self) -> String {
        match self {
            Way::Hosted(Sandbox::On) => sandbox::Support::probe().describe(),
            Way::Hosted(Sandbox::Off) => {
                "off (--plugin-sandbox off, or the pipeline's plugin_sandbox: Off)".into()
            }
            Way::InProcess => "none (in-process plugins run inside lapiz)".into(),
        }
    }
}

/// Refuses a path that is not a regular file (a FIFO would block the loader forever).
fn regular_file(canonical: &Path, shown: &str) -> Result<(), PluginError> {
    if canonical.is_file() {
        return Ok(());
    }
    Err(PluginError::Io {
        path: shown.to_string(),
        message: "not a regular file (a FIFO, a device or a folder is not loaded)".to_string(),
    })
}

/// Loads the plugin library at `path` in `mode`: in this process ([`load`]) or in a plugin
/// host process, which describes the library to lapiz and then runs its searches (the same
/// file gives the same [`Plugin`]).
pub fn load_as(path: &Path, mode: PluginMode) -> Result<Arc<Plugin>, PluginError> {
    load_with(path, mode, effective_sandbox(Sandbox::default()))
}

/// [`load_as`], with hosts that sandbox themselves or not as `sandbox` says (in-process
/// loads have no sandbox).
pub fn load_with(
    path: &Path,
    mode: PluginMode,
    sandbox: Sandbox,
) -> Result<Arc<Plugin>, PluginError> {
    if mode == PluginMode::InProcess {
        return load(path);
    }
    let shown = path.display().to_string();
    let canonical = path.canonicalize().map_err(|_| PluginError::Missing {
        path: shown.clone(),
    })?;
    regular_file(&canonical, &shown)?;
    let mut hosted = HOSTED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, p)) = hosted
        .iter()
        .find(|(c, s, _)| *c == canonical && *s == sandbox)
    {
        return Ok(p.clone());
    }
    let (pool, name, described) = host::Pool::open(&shown, sandbox).map_err(|message| {
        // the loader's own message already names the library
        let prefix = format!("plugin {shown}: ");
        PluginError::Host {
            path: shown.clone(),
            message: message
                .strip_prefix(&prefix)
                .unwrap_or(&message)
                .to_string(),
        }
    })?;
    let techniques = described
        .into_iter()
        .enumerate()
        .map(|(index, d)| Descriptor {
            id: d.id,
            name: d.name,
            codes: d.codes,
            difficulty: d.difficulty,
            needs_uniqueness: d.needs_uniqueness,
            call: Call::Hosted {
                pool: pool.clone(),
                index,
            },
        })
        .collect();
    let plugin = Arc::new(Plugin {
        path: shown,
        name,
        techniques,
    });
    hosted.push((canonical, sandbox, plugin.clone()));
    Ok(plugin)
}

/// Loads the plugin library at `path` into this process (or returns the one already loaded
/// from that file): its searches are called directly, with no protection from a crash.
pub fn load(path: &Path) -> Result<Arc<Plugin>, PluginError> {
    let shown = path.display().to_string();
    let canonical = path.canonicalize().map_err(|_| PluginError::Missing {
        path: shown.clone(),
    })?;
    regular_file(&canonical, &shown)?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = loaded.iter().find(|(c, _)| *c == canonical) {
        return Ok(p.clone());
    }
    let library = open_library(&canonical).map_err(|e| PluginError::NotALibrary {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let entry: LpEntryFn = {
        // SAFETY: the symbol's type is fixed by the ABI; a library that exports the name with
        // another type breaks the ABI contract, which loading a plugin trusts.
        let symbol =
            unsafe { library.get::<LpEntryFn>(LP_ENTRY_SYMBOL.as_bytes()) }.map_err(|e| {
                PluginError::NoEntry {
                    path: shown.clone(),
                    symbol: LP_ENTRY_SYMBOL,
                    message: e.to_string(),
                }
            })?;
        *symbol
    };
    // Never unloaded: the function pointers and strings stay valid for the process.
    std::mem::forget(library);
    // SAFETY: the entry function takes nothing and returns a descriptor pointer or null.
    let table = unsafe { entry() };
    let plugin = Arc::new(read_descriptor(&shown, table)?);
    loaded.push((canonical, plugin.clone()));
    Ok(plugin)
}

#[cfg(unix)]
fn open_library(path: &Path) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // SAFETY: loading runs the library's initialisers; a plugin is trusted code in that
    // respect (docs/plugins.md says so). RTLD_NOW resolves every symbol at load time.
    unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }.map(Into::into)
}

#[cfg(not(unix))]
fn open_library(path: &Path) -> Result<libloading::Library, libloading::Error> {
    // SAFETY: as above; Windows resolves imports at load time.
    unsafe { libloading::Library::new(path) }
}

/// The file names a plugin library has on this system (`.so`, `.dylib`, `.dll`).
pub fn is_library_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == std::env::consts::DLL_EXTENSION)
}

/// Loads every plugin library of a folder (sorted by file name) in `mode`, with the given
/// sandbox setting for its hosts ([`load_with`]). Each file loads or fails on its own; the
/// folder itself must be readable.
pub(crate) fn load_folder_with(
    dir: &Path,
    mode: PluginMode,
    sandbox: Sandbox,
) -> Result<Vec<Result<Arc<Plugin>, PluginError>>, PluginError> {
    let entries = std::fs::read_dir(dir).map_err(|e| PluginError::Folder {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && is_library_name(p))
        .collect();
    files.sort();
    Ok(files.iter().map(|f| load_with(f, mode, sandbox)).collect())
}

/// A C string of the descriptor as UTF-8.
///
/// # Safety
/// `p` is null or a NUL-terminated string.
unsafe fn text(p: *const c_char) -> Result<Option<String>, String> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: per the ABI, non-null strings are NUL-terminated and live for the process.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map(|s| Some(s.to_string()))
        .map_err(|_| format!("{:?} is not UTF-8", s.to_string_lossy()))
}

fn read_descriptor(path: &str, table: *const LpPlugin) -> Result<Plugin, PluginError> {
    if table.is_null() {
        return Err(PluginError::NoDescriptor { path: path.into() });
    }
    // `abi_version` is the first field in every version, so it can be read before the rest.
    // SAFETY: a non-null descriptor pointer is valid for at least its first field.
    let found = unsafe { (*table).abi_version };
    if !(OLDEST_ABI_VERSION..=LP_ABI_VERSION).contains(&found) {
        return Err(PluginError::AbiVersion {
            path: path.into(),
            found,
            expected: LP_ABI_VERSION,
            oldest: OLDEST_ABI_VERSION,
        });
    }
    // SAFETY: a version this host loads: `LpPlugin` and `LpTechnique` have this layout in all
    // of them (only `LpOutput` grew, at its end).
    let table = unsafe { &*table };
    let sizes = [
        ("LpPlugin", table.struct_size, size_of::<LpPlugin>()),
        (
            "LpTechnique",
            table.technique_size,
            size_of::<LpTechnique>(),
        ),
    ];
    for (what, found, expected) in sizes {
        if found as usize != expected {
            return Err(PluginError::StructSize {
                path: path.into(),
                what,
                found,
                expected: expected as u32,
            });
        }
    }
    let bad = |index: usize, message: String| PluginError::BadTechnique {
        path: path.into(),
        index,
        message,
    };
    // SAFETY: null or a NUL-terminated string.
    let name = unsafe { text(table.name) }
        .map_err(|m| bad(0, format!("plugin name {m}")))?
        .unwrap_or_else(|| path.to_string());
    let count = table.technique_count as usize;
    if count > 1024 {
        return Err(bad(0, format!("{count} techniques is more than 1024")));
    }
    if count > 0 && table.techniques.is_null() {
        return Err(bad(0, "the technique table is null".into()));
    }
    let mut techniques: Vec<Descriptor> = Vec::with_capacity(count);
    for index in 0..count {
        // SAFETY: the table holds `count` descriptors.
        let t = unsafe { &*table.techniques.add(index) };
        let d = read_technique(t, found >= 2).map_err(|m| bad(index, m))?;
        if techniques.iter().any(|o| o.id == d.id) {
            return Err(bad(index, format!("id `{}` appears twice", d.id)));
        }
        techniques.push(d);
    }
    Ok(Plugin {
        path: path.into(),
        name,
        techniques,
    })
}

/// Reads and checks one technique; `houses` when the plugin's ABI version has them.
fn read_technique(t: &LpTechnique, houses: bool) -> Result<Descriptor, String> {
    // SAFETY: null or NUL-terminated strings, per the ABI.
    let (id, name, codes) = unsafe { (text(t.id)?, text(t.name)?, text(t.codes)?) };
    let id = id.ok_or("the id is null")?;
    let valid_id = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !valid_id {
        return Err(format!(
            "id {id:?} is not 1 to 64 lowercase letters, digits, `-` or `_`"
        ));
    }
    let name = name
        .filter(|n| !n.trim().is_empty())
        .ok_or(format!("`{id}`: no name"))?;
    if !crate::script::value::valid_difficulty(t.difficulty) {
        return Err(format!(
            "`{id}`: difficulty {} is not in (0, 20]",
            t.difficulty
        ));
    }
    if t.flags & !LP_NEEDS_UNIQUENESS != 0 {
        return Err(format!("`{id}`: unknown flags {:#x}", t.flags));
    }
    let search = t.search.ok_or(format!("`{id}`: no search function"))?;
    let codes = codes
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    Ok(Descriptor {
        id,
        name,
        codes,
        difficulty: t.difficulty,
        needs_uniqueness: t.flags & LP_NEEDS_UNIQUENESS != 0,
        call: Call::Direct {
            context: t.context,
            search,
            houses,
        },
    })
}

/// A technique of a plugin, as the pipeline sees it.
pub struct PluginTechnique {
    descriptor: Descriptor,
    /// The library it comes from.
    path: String,
}

const PLACEMENTS_CAP: usize = LP_MIN_PLACEMENTS as usize;
const ELIMINATIONS_CAP: usize = LP_MIN_ELIMINATIONS as usize;
const HIGHLIGHTS_CAP: usize = LP_MIN_HIGHLIGHTS as usize;
const EXPLANATION_CAP: usize = LP_MIN_EXPLANATION as usize;
const HOUSES_CAP: usize = LP_MIN_HOUSES as usize;

/// The most steps one search may emit: a plugin that never stops is refused past it, so
/// collecting every step (`find_all`) cannot exhaust memory.
pub const MAX_STEPS_PER_SEARCH: usize = 100_000;

/// The host's side of one search, reached from `emit` through `LpOutput::host`.
struct Session<'a, 'b> {
    technique: &'a Descriptor,
    sink: &'a mut StepSink<'b>,
    /// The buffers as handed out, to catch a plugin that swaps them.
    buffers: [(usize, u32); 5],
    /// Whether the plugin knows the houses buffer (ABI version 2 or later); an older one's
    /// steps have no houses.
    houses: bool,
    /// Why the host refused a step; the search fails with it.
    refused: Option<String>,
    /// The sink wants no more steps (or a step was refused).
    stopped: bool,
    /// Steps emitted so far.
    emitted: usize,
}

impl Technique for PluginTechnique {
    fn id(&self) -> &str {
        &self.descriptor.id
    }
    fn name(&self) -> &str {
        &self.descriptor.name
    }
    fn difficulty(&self) -> f32 {
        self.descriptor.difficulty
    }
    fn origin(&self) -> Origin {
        Origin::Plugin(self.path.clone())
    }
    fn needs_uniqueness(&self) -> bool {
        self.descriptor.needs_uniqueness
    }
    fn library_codes(&self) -> Vec<String> {
        self.descriptor.codes.clone()
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let (context, search, houses) = match &self.descriptor.call {
            Call::Direct {
                context,
                search,
                houses,
            } => (*context, *search, *houses),
            Call::Hosted { pool, index } => {
                return match pool.search(*index, &self.descriptor.id, grid, sink) {
                    Ok(Ok(())) => Ok(()),
                    // the host's message is the in-process one, naming the library
                    Ok(Err(message)) => Err(TechniqueError::Failed {
                        technique: self.descriptor.id.clone(),
                        message,
                    }),
                    Err(broken) => Err(TechniqueError::Failed {
                        technique: self.descriptor.id.clone(),
                        message: format!("{broken} (plugin {})", self.path),
                    }),
                };
            }
        };
        let mut raw = LpGrid {
            values: *grid.values(),
            candidates: [0; 81],
        };
        for cell in grid.empty_cells() {
            raw.candidates[cell.index()] = grid.candidates(cell);
        }
        let mut placements = [LpCandidate::default(); PLACEMENTS_CAP];
        let mut eliminations = [LpCandidate::default(); ELIMINATIONS_CAP];
        let mut highlights = [LpHighlight::default(); HIGHLIGHTS_CAP];
        let mut explanation = [0u8; EXPLANATION_CAP];
        let mut house_buffer = [0u8; HOUSES_CAP];
        let mut out = LpOutput {
            placements: placements.as_mut_ptr(),
            placements_cap: PLACEMENTS_CAP as u32,
            placements_len: 0,
            eliminations: eliminations.as_mut_ptr(),
            eliminations_cap: ELIMINATIONS_CAP as u32,
            eliminations_len: 0,
            highlights: highlights.as_mut_ptr(),
            highlights_cap: HIGHLIGHTS_CAP as u32,
            highlights_len: 0,
            explanation: explanation.as_mut_ptr(),
            explanation_cap: EXPLANATION_CAP as u32,
            explanation_len: 0,
            difficulty: 0.0,
            struct_size: size_of::<LpOutput>() as u32,
            host: std::ptr::null_mut(),
            emit: host_emit,
            houses: house_buffer.as_mut_ptr(),
            houses_cap: HOUSES_CAP as u32,
            houses_len: 0,
        };
        let mut session = Session {
            technique: &self.descriptor,
            sink,
            buffers: buffers_of(&out),
            houses,
            refused: None,
            stopped: false,
            emitted: 0,
        };
        out.host = &mut session as *mut Session<'_, '_> as *mut c_void;
        // SAFETY: the search gets the context its plugin gave, a valid grid, and an output
        // whose buffers live until it returns.
        let status = unsafe { search(context, &raw, &mut out) };
        let fail = |message: String| TechniqueError::Failed {
            technique: self.descriptor.id.clone(),
            message: format!("{} (plugin {})", message, self.path),
        };
        if let Some(why) = session.refused.take() {
            return Err(fail(why));
        }
        let message = || {
            let len = (out.explanation_len as usize).min(EXPLANATION_CAP);
            String::from_utf8_lossy(&explanation[..len]).into_owned()
        };
        match status {
            LP_OK => Ok(()),
            LP_ERROR => Err(fail(format!("the search failed: {}", message()))),
            LP_PANIC => Err(fail(format!("the search panicked: {}", message()))),
            other => Err(fail(format!("the search returned unknown status {other}"))),
        }
    }
}

/// The `emit` callback the host gives every search. Never unwinds into the plugin.
unsafe extern "C" fn host_emit(out: *mut LpOutput) -> i32 {
    if out.is_null() {
        return LP_REJECTED;
    }
    // SAFETY: `out` is the output this host made for the running search, and `host` points to
    // that search's session, alive until the search returns.
    let out = unsafe { &mut *out };
    let session = unsafe { &mut *(out.host as *mut Session<'_, '_>) };
    if session.stopped {
        return if session.refused.is_some() {
            LP_REJECTED
        } else {
            LP_STOP
        };
    }
    session.emitted += 1;
    if session.emitted > MAX_STEPS_PER_SEARCH {
        session.refused = Some(format!(
            "refused a step: more than {MAX_STEPS_PER_SEARCH} steps in one search"
        ));
        session.stopped = true;
        return LP_REJECTED;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the checks in `read_step` keep every read inside the host's buffers.
        let step = unsafe { read_step(out, session) };
        out.placements_len = 0;
        out.eliminations_len = 0;
        out.highlights_len = 0;
        out.explanation_len = 0;
        out.houses_len = 0;
        out.difficulty = 0.0;
        step
    }));
    let step = match result {
        Ok(Ok(step)) => step,
        Ok(Err(why)) => {
            session.refused = Some(format!("refused a step: {why}"));
            session.stopped = true;
            return LP_REJECTED;
        }
        Err(_) => {
            session.refused = Some("refused a step: the host failed reading it".into());
            session.stopped = true;
            return LP_REJECTED;
        }
    };
    match catch_unwind(AssertUnwindSafe(|| (session.sink)(step))) {
        Ok(ControlFlow::Continue(())) => LP_CONTINUE,
        Ok(ControlFlow::Break(())) => {
            session.stopped = true;
            LP_STOP
        }
        Err(_) => {
            session.refused = Some(
                "lapiz itself failed while taking a step (a bug in lapiz, not in the plugin)"
                    .into(),
            );
            session.stopped = true;
            LP_REJECTED
        }
    }
}

/// The address and capacity of each buffer of `out`.
fn buffers_of(out: &LpOutput) -> [(usize, u32); 5] {
    [
        (out.placements as usize, out.placements_cap),
        (out.eliminations as usize, out.eliminations_cap),
        (out.highlights as usize, out.highlights_cap),
        (out.explanation as usize, out.explanation_cap),
        (out.houses as usize, out.houses_cap),
    ]
}

/// Reads and checks the step written in `out`.
///
/// # Safety
/// `out` is the host's output of `session`'s search.
unsafe fn read_step(out: &LpOutput, session: &Session<'_, '_>) -> Result<Step, String> {
    if buffers_of(out) != session.buffers {
        return Err("the plugin changed the output's buffer pointers or capacities".into());
    }
    // a plugin built before the houses (version 1) never wrote their length
    let houses_len = if session.houses { out.houses_len } else { 0 };
    let lengths = [
        ("placements", out.placements_len, out.placements_cap),
        ("eliminations", out.eliminations_len, out.eliminations_cap),
        ("highlights", out.highlights_len, out.highlights_cap),
        (
            "explanation bytes",
            out.explanation_len,
            out.explanation_cap,
        ),
        ("houses", houses_len, out.houses_cap),
    ];
    for (what, len, cap) in lengths {
        if len > cap {
            return Err(format!(
                "{len} {what} overflow a buffer of {cap} (lengths must stay within capacities)"
            ));
        }
    }
    // SAFETY: pointers and capacities are the host's own, lengths are within them.
    let (places, elims, lights, text, houses) = unsafe {
        (
            std::slice::from_raw_parts(out.placements, out.placements_len as usize),
            std::slice::from_raw_parts(out.eliminations, out.eliminations_len as usize),
            std::slice::from_raw_parts(out.highlights, out.highlights_len as usize),
            std::slice::from_raw_parts(out.explanation, out.explanation_len as usize),
            std::slice::from_raw_parts(out.houses, houses_len as usize),
        )
    };
    let candidate = |what: &str, i: usize, cell: u8, digit: u8| -> Result<Candidate, String> {
        if cell >= 81 {
            return Err(format!("{what}[{i}] names cell {cell} (cells are 0 to 80)"));
        }
        if !(1..=9).contains(&digit) {
            return Err(format!(
                "{what}[{i}] names digit {digit} (digits are 1 to 9)"
            ));
        }
        Ok(Candidate::new(Cell::new(cell), digit))
    };
    let technique = session.technique;
    let difficulty = match out.difficulty {
        0.0 => technique.difficulty,
        d if d.is_finite() && d > 0.0 && d <= 20.0 => d,
        d => return Err(format!("difficulty {d} is not in (0, 20]")),
    };
    let mut step = Step::new(&technique.id, difficulty);
    for (i, p) in places.iter().enumerate() {
        step.placements
            .push(candidate("placements", i, p.cell, p.digit)?);
    }
    for (i, e) in elims.iter().enumerate() {
        step.eliminations
            .push(candidate("eliminations", i, e.cell, e.digit)?);
    }
    for (i, h) in lights.iter().enumerate() {
        let c = candidate("highlights", i, h.cell, h.digit)?;
        let role = Role::from_code(h.role)
            .ok_or_else(|| format!("highlights[{i}] has role {} (roles are 0 to 8)", h.role))?;
        match step.highlights.last_mut() {
            Some(last) if last.role == role => last.candidates.push(c),
            _ => step.highlights.push(Highlight {
                role,
                candidates: vec![c],
            }),
        }
    }
    for (i, &h) in houses.iter().enumerate() {
        if h >= 27 {
            return Err(format!("houses[{i}] names house {h} (houses are 0 to 26)"));
        }
        step.houses.push(House::from_index(h));
    }
    let text =
        std::str::from_utf8(text).map_err(|e| format!("the explanation is not UTF-8: {e}"))?;
    step.explanation = if text.trim().is_empty() {
        format!(
            "{}: => {}",
            technique.name,
            eliminations_text(&step.eliminations)
        )
    } else {
        text.to_string()
    };
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_is_named() {
        let err = load(Path::new("no/such/plugin.so")).unwrap_err();
        assert_eq!(err.to_string(), "plugin no/such/plugin.so: no such file");
    }

    #[test]
    fn a_text_file_is_not_a_library() {
        let dir = std::env::temp_dir().join(format!("lapiz-plugin-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("not-a-library.so");
        std::fs::write(&file, "hello").unwrap();
        let err = load(&file).unwrap_err();
        assert!(matches!(err, PluginError::NotALibrary { .. }), "{err}");
        assert!(err.to_string().contains("not a shared library"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_role_table_is_the_abi_and_the_c_header() {
        // The plugin API crate's constants and the C header's defines give each role the code
        // of lapiz's one role table (`Role::ALL`).
        let abi = [
            (LP_ROLE_PATTERN, "LP_ROLE_PATTERN", Role::Pattern),
            (LP_ROLE_BASE, "LP_ROLE_BASE", Role::Base),
            (LP_ROLE_COVER, "LP_ROLE_COVER", Role::Cover),
            (LP_ROLE_FIN, "LP_ROLE_FIN", Role::Fin),
            (LP_ROLE_PIVOT, "LP_ROLE_PIVOT", Role::Pivot),
            (LP_ROLE_PINCER, "LP_ROLE_PINCER", Role::Pincer),
            (LP_ROLE_LINK, "LP_ROLE_LINK", Role::Link),
            (LP_ROLE_COLOR_A, "LP_ROLE_COLOR_A", Role::ColorA),
            (LP_ROLE_COLOR_B, "LP_ROLE_COLOR_B", Role::ColorB),
        ];
        assert_eq!(abi.len(), Role::ALL.len());
        let header = include_str!("../plugins/lapiz-plugin-api/include/lapiz_plugin.h");
        let defines: Vec<(&str, u8)> = header
            .lines()
            .filter_map(|l| l.strip_prefix("#define LP_ROLE_"))
            .map(|l| {
                let (name, code) = l.split_once(' ').expect("a define with a value");
                (name, code.trim().parse().expect("a code"))
            })
            .collect();
        assert_eq!(defines.len(), Role::ALL.len(), "{defines:?}");
        for (code, name, role) in abi {
            assert_eq!(role.code(), code, "{name}");
            assert_eq!(Role::from_code(code), Some(role), "{name}");
            let short = name.strip_prefix("LP_ROLE_").unwrap();
            assert!(
                defines.contains(&(short, code)),
                "{name} = {code} in the header"
            );
            // The role's name is the define's, lowercase with `-` for `_`.
            assert_eq!(role.name(), short.to_ascii_lowercase().replace('_', "-"));
        }
        assert_eq!(Role::from_code(Role::ALL.len() as u8), None);
        assert_eq!(Role::from_name("colour_a"), Some(Role::ColorA));
        assert_eq!(Role::from_name("ColorB"), Some(Role::ColorB));
        assert_eq!(Role::from_name("fins"), None);
    }

    #[test]
    fn a_null_descriptor_is_refused() {
        let err = read_descriptor("p.so", std::ptr::null()).unwrap_err();
        assert!(matches!(err, PluginError::NoDescriptor { .. }));
    }

    #[test]
    fn another_abi_version_names_both() {
        let table = LpPlugin {
            abi_version: 7,
            struct_size: 0,
            technique_size: 0,
            technique_count: 0,
            techniques: std::ptr::null(),
            name: std::ptr::null(),
        };
        let err = read_descriptor("p.so", &table).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "plugin p.so: built for lapiz plugin ABI version 7, but this lapiz loads versions 1 to {LP_ABI_VERSION}; rebuild the plugin against lapiz-plugin-api {LP_ABI_VERSION}"
            )
        );
        // version 0 is older than any this host loads
        let table = LpPlugin {
            abi_version: 0,
            ..table
        };
        let err = read_descriptor("p.so", &table).unwrap_err();
        assert!(
            matches!(
                err,
                PluginError::AbiVersion {
                    found: 0,
                    oldest: 1,
                    ..
                }
            ),
            "{err}"
        );
    }
}
