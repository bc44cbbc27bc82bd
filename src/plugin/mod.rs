//! Technique plugins: shared libraries loaded at run time through the versioned C ABI of
//! `lapiz-plugin-api` (see `docs/plugins.md`).
//!
//! [`load`] opens a library with libloading (symbols resolved at load time), calls its entry
//! symbol `lapiz_plugin`, checks the ABI version and struct sizes, and validates every technique
//! it describes. Libraries are never unloaded (thread-local destructors make unloading unsound):
//! each is kept for the life of the process, and loading the same file again returns the same
//! [`Plugin`]. Plugins built for ABI versions 1 to `LP_ABI_VERSION` load: those of versions 1
//! and 2 (and techniques of version 3 with the 9x9 `search`) run on 9x9 boards only, where
//! they are searched as they always were; a technique of version 3 with `search_sized` runs on
//! the sizes it declares ([`Technique::runs_on`]), 9x9 among them if it says so, and is handed
//! the board with its size ([`Technique::find_sized`]). [`skipped_on`] says which plugin
//! techniques a pipeline leaves out of a size, and why (the command line's note).
//! Every step a plugin emits is checked (lengths within capacities; cells, digits and houses
//! in range for the board's size; known roles; UTF-8 text) before it becomes a [`Step`];
//! anything wrong becomes a [`TechniqueError`], and the engine disables the technique and
//! carries on.
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

mod call;
#[doc(hidden)]
pub mod host;
mod open;
pub mod sandbox;
mod sizes;
mod wire;

#[doc(hidden)]
pub use host::HostSettings;
pub use host::PluginMode;
pub(crate) use host::{effective_sandbox, protection_of_pipeline};
pub use sandbox::Sandbox;
#[doc(hidden)]
pub use sizes::{Skipped, skipped_on};

use open::{entry_of, unavailable};
use sizes::{SIZES_LAPIZ_RUNS, board_of, sizes_list};

use std::ffi::{CStr, c_char, c_void};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use lapiz_plugin_api::abi::*;

use crate::model::Shape;
use crate::model::grid::Grid;
use crate::step::Step;
use crate::technique::{Origin, SizedContext, StepSink, Technique, TechniqueError};

/// A plugin library could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
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
    /// The plugin host speaks another version of the wire protocol than lapiz (a host program
    /// from another lapiz build).
    #[error(
        "plugin {path}: lapiz speaks plugin wire protocol version {lapiz} but its plugin host speaks version {host}; run hosts with the same lapiz build (LAPIZ_PLUGIN_HOST)"
    )]
    WireVersion {
        /// The path.
        path: String,
        /// The version lapiz speaks.
        lapiz: u32,
        /// The version the host speaks.
        host: u32,
    },
    /// This build of lapiz loads no plugins (built without the `plugins` feature, as the
    /// WebAssembly build is).
    #[error(
        "plugin {path}: this build of lapiz loads no plugins (built without the `plugins` feature)"
    )]
    Unavailable {
        /// The path.
        path: String,
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
    /// The plugin ABI version it was built for (1 to `LP_ABI_VERSION`): below 3, its
    /// techniques run on 9x9 boards only.
    pub abi_version: u32,
    techniques: Vec<Descriptor>,
}

/// The oldest plugin ABI version this host loads: plugins built for 1 to [`LP_ABI_VERSION`]
/// load (version 2 only appended fields to `LpOutput`, which older plugins never see; version 3
/// appended the sized search to `LpTechnique`, read only from tables of version 3).
pub(crate) const OLDEST_ABI_VERSION: u32 = 1;

/// One validated technique descriptor.
#[derive(Debug, Clone)]
struct Descriptor {
    id: String,
    name: String,
    codes: Vec<String>,
    difficulty: f32,
    needs_uniqueness: bool,
    /// The plugin's ABI version.
    abi: u32,
    /// The sizes it runs on, `lp_size(n)` bits (9x9 alone for a 9x9 search).
    sizes: u32,
    call: Call,
}

/// A technique's search function.
#[derive(Debug, Clone, Copy)]
enum Search {
    /// The 9x9 search of every version; `houses` when the plugin was built for ABI version 2
    /// or later, so its steps may carry houses.
    Nine { search: LpSearchFn, houses: bool },
    /// The sized search of version 3.
    Sized(LpSizedSearchFn),
}

/// How a technique's search is reached.
#[derive(Debug, Clone)]
enum Call {
    /// Directly, in this process.
    Direct {
        context: *const c_void,
        search: Search,
    },
    /// Through a plugin host process: technique `index` of the library in `pool`; `sized`
    /// when its search is the sized one.
    Hosted {
        pool: Arc<host::Pool>,
        index: usize,
        sized: bool,
    },
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
            Way::Hosted(Sandbox::Off) => "off (--plugin-sandbox off)".into(),
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
    if !cfg!(feature = "plugins") {
        return Err(unavailable(&shown));
    }
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
    let (pool, description) = host::Pool::open(&canonical.to_string_lossy(), &shown, sandbox)
        .map_err(|e| match e {
            host::OpenError::Version(v) => PluginError::WireVersion {
                path: shown.clone(),
                lapiz: v.lapiz,
                host: v.host,
            },
            host::OpenError::Failed(message) => {
                // the loader's own message already names the library (as the host saw it)
                let prefix = format!("plugin {}: ", canonical.display());
                PluginError::Host {
                    path: shown.clone(),
                    message: message
                        .strip_prefix(&prefix)
                        .unwrap_or(&message)
                        .to_string(),
                }
            }
        })?;
    let abi_version = description.abi;
    let name = description.name;
    let techniques = description
        .techniques
        .into_iter()
        .enumerate()
        .map(|(index, d)| Descriptor {
            id: d.id,
            name: d.name,
            codes: d.codes,
            difficulty: d.difficulty,
            needs_uniqueness: d.needs_uniqueness,
            abi: abi_version,
            sizes: d.sizes,
            call: Call::Hosted {
                pool: pool.clone(),
                index,
                sized: d.sized,
            },
        })
        .collect();
    let plugin = Arc::new(Plugin {
        path: shown,
        name,
        abi_version,
        techniques,
    });
    hosted.push((canonical, sandbox, plugin.clone()));
    Ok(plugin)
}

/// Loads the plugin library at `path` into this process (or returns the one already loaded
/// from that file): its searches are called directly, with no protection from a crash.
pub fn load(path: &Path) -> Result<Arc<Plugin>, PluginError> {
    let shown = path.display().to_string();
    if !cfg!(feature = "plugins") {
        return Err(unavailable(&shown));
    }
    let canonical = path.canonicalize().map_err(|_| PluginError::Missing {
        path: shown.clone(),
    })?;
    regular_file(&canonical, &shown)?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = loaded.iter().find(|(c, _)| *c == canonical) {
        return Ok(p.clone());
    }
    let entry = entry_of(&canonical, &shown)?;
    // SAFETY: the entry function takes nothing and returns a descriptor pointer or null.
    let table = unsafe { entry() };
    let plugin = Arc::new(read_descriptor(&shown, table)?);
    loaded.push((canonical, plugin.clone()));
    Ok(plugin)
}

/// The file names a plugin library has on this system (`.so`, `.dylib`, `.dll`).
#[doc(hidden)]
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
    // SAFETY: a version this host loads: `LpPlugin` has this layout in all of them.
    let table = unsafe { &*table };
    // `LpTechnique` grew in version 3; older tables hold `LpTechniqueV2` entries
    let sized = found >= LP_ABI_SIZED;
    let technique_size = if sized {
        size_of::<LpTechnique>()
    } else {
        size_of::<LpTechniqueV2>()
    };
    let sizes = [
        ("LpPlugin", table.struct_size, size_of::<LpPlugin>()),
        ("LpTechnique", table.technique_size, technique_size),
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
        // SAFETY: the table holds `count` descriptors of `technique_size` bytes, whose first
        // fields are `LpTechniqueV2`'s in every version (version 3 appended its own).
        let (t, extra) = unsafe {
            let at = (table.techniques as *const u8).add(index * technique_size);
            let v3 = sized.then(|| {
                let t = &*(at as *const LpTechnique);
                (t.search_sized, t.sizes)
            });
            (&*(at as *const LpTechniqueV2), v3)
        };
        let d = read_technique(t, found, extra).map_err(|m| bad(index, m))?;
        if techniques.iter().any(|o| o.id == d.id) {
            return Err(bad(index, format!("id `{}` appears twice", d.id)));
        }
        techniques.push(d);
    }
    Ok(Plugin {
        path: path.into(),
        name,
        abi_version: found,
        techniques,
    })
}

/// Reads and checks one technique of a plugin of ABI version `abi`; `sized` holds the fields
/// version 3 appended (`search_sized`, `sizes`).
fn read_technique(
    t: &LpTechniqueV2,
    abi: u32,
    sized: Option<(Option<LpSizedSearchFn>, u32)>,
) -> Result<Descriptor, String> {
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
    if !crate::technique::valid_difficulty(t.difficulty) {
        return Err(format!(
            "`{id}`: difficulty {} is not in (0, 20]",
            t.difficulty
        ));
    }
    if t.flags & !LP_NEEDS_UNIQUENESS != 0 {
        return Err(format!("`{id}`: unknown flags {:#x}", t.flags));
    }
    let (search, sizes) = match (t.search, sized) {
        (Some(_), Some((Some(_), _))) => {
            return Err(format!(
                "`{id}`: both search and search_sized; a technique has one search"
            ));
        }
        (Some(_), Some((None, sizes))) if sizes != 0 => {
            return Err(format!(
                "`{id}`: sizes {sizes:#x} without search_sized (the 9x9 search runs on 9x9 only; sizes must be 0)"
            ));
        }
        (Some(search), _) => (
            Search::Nine {
                search,
                houses: abi >= 2,
            },
            lp_size(9),
        ),
        (None, Some((Some(search), sizes))) => {
            if sizes & SIZES_LAPIZ_RUNS == 0 {
                return Err(format!(
                    "`{id}`: sizes {sizes:#x} names no size lapiz runs (4, 6, 8, 9, 12, 16, 25)"
                ));
            }
            (Search::Sized(search), sizes & SIZES_LAPIZ_RUNS)
        }
        (None, _) => return Err(format!("`{id}`: no search function")),
    };
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
        abi,
        sizes,
        call: Call::Direct {
            context: t.context,
            search,
        },
    })
}

/// A technique of a plugin, as the pipeline sees it.
pub struct PluginTechnique {
    descriptor: Descriptor,
    /// The library it comes from.
    path: String,
}

/// The most steps one search may emit: a plugin that never stops is refused past it, so
/// collecting every step (`find_all`) cannot exhaust memory.
#[doc(hidden)]
pub const MAX_STEPS_PER_SEARCH: usize = 100_000;

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
    fn runs_on(&self, n: usize) -> bool {
        n < 32 && self.descriptor.sizes & lp_size(n as u32) != 0
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        // a technique that does not run on 9x9 finds nothing there, whoever asks
        if !self.runs_on(9) {
            return Ok(());
        }
        self.find_any(grid, Some(grid), sink)
    }
    fn find_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let n = ctx.n();
        if !self.runs_on(n) {
            return Err(TechniqueError::WrongSize {
                technique: self.descriptor.id.clone(),
                n,
                message: format!("{} (plugin {})", self.sizes_words(n), self.path),
            });
        }
        match ctx {
            // 9x9 as it always was: `find_in` searches the grid
            SizedContext::S9(c) => self.find_in(c, sink),
            other => {
                crate::model::on_size!(other, c => self.find_any(c.grid(), None, sink))
            }
        }
    }
}

impl PluginTechnique {
    /// Why it does not run on `n x n` boards, in words.
    fn sizes_words(&self, n: usize) -> String {
        let d = &self.descriptor;
        if d.abi < LP_ABI_SIZED {
            format!(
                "built for plugin ABI version {}, it runs on 9x9 boards only, not {n}x{n}",
                d.abi
            )
        } else {
            format!(
                "it runs on {} boards only, not {n}x{n}",
                sizes_list(d.sizes)
            )
        }
    }

    /// Searches a grid of any size it runs on, handing each step (its candidates kept to
    /// those of the grid) to `sink`: 9x9 grids by `nine` (the 9x9 search of versions 1 and
    /// 2), every grid by the sized search of version 3.
    fn find_any<S: Shape>(
        &self,
        grid: &Grid<S>,
        nine: Option<&Grid>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        // candidates the grid lacks are dropped, as from a script's steps
        let sink = &mut |mut step: Step| {
            if step.keep_candidates_of(grid) {
                sink(step)
            } else {
                ControlFlow::Continue(())
            }
        };
        let technique = || self.descriptor.id.clone();
        let fail = |message: String| TechniqueError::Plugin {
            technique: technique(),
            message,
        };
        let hosted = |result: Result<Result<(), String>, host::Broken>| match result {
            Ok(Ok(())) => Ok(()),
            // the host's message is the in-process one, naming the library
            Ok(Err(message)) => Err(fail(message)),
            Err(broken) => {
                let message = format!("{broken} (plugin {})", self.path);
                Err(match broken.timed_out {
                    true => TechniqueError::TimedOut {
                        technique: technique(),
                        message,
                    },
                    false => fail(message),
                })
            }
        };
        match (&self.descriptor.call, nine) {
            (
                Call::Direct {
                    context,
                    search: Search::Nine { search, houses },
                },
                Some(grid),
            ) => call::search(self, *context, *search, *houses, grid, sink),
            (
                Call::Direct {
                    context,
                    search: Search::Sized(search),
                },
                _,
            ) => call::search_sized(self, *context, *search, &board_of(grid), sink),
            (
                Call::Hosted {
                    pool,
                    index,
                    sized: false,
                },
                Some(grid),
            ) => hosted(pool.search(*index, &self.descriptor.id, grid, sink)),
            (
                Call::Hosted {
                    pool,
                    index,
                    sized: true,
                },
                _,
            ) => hosted(pool.search_sized(*index, &self.descriptor.id, &board_of(grid), sink)),
            (Call::Direct { .. } | Call::Hosted { .. }, None) => Err(TechniqueError::WrongSize {
                technique: technique(),
                n: S::N,
                message: format!("{} (plugin {})", self.sizes_words(S::N), self.path),
            }),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::Role;

    #[test]
    fn missing_file_is_named() {
        let err = load(Path::new("no/such/plugin.so")).unwrap_err();
        assert_eq!(err.to_string(), "plugin no/such/plugin.so: no such file");
    }

    #[test]
    fn a_text_file_is_not_a_library() {
        // removed with the file when the guard drops, pass or fail
        let dir = tempfile::Builder::new()
            .prefix("lapiz-plugin-test-")
            .tempdir()
            .unwrap();
        let file = dir.path().join("not-a-library.so");
        std::fs::write(&file, "hello").unwrap();
        let err = load(&file).unwrap_err();
        assert!(matches!(err, PluginError::NotALibrary { .. }), "{err}");
        assert!(err.to_string().contains("not a shared library"), "{err}");
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
        let header = include_str!("../../plugins/lapiz-plugin-api/include/lapiz_plugin.h");
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
