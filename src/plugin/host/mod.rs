//! Plugins in their own process: how hosts are started and limited ([`HostSettings`]), lapiz's
//! side of them (`pool`: a pool of host processes per library) and the host process itself
//! (`serve`: `lapiz plugin-host LIB`, [`serve()`]). The two talk over the host's stdin and
//! stdout in the frames of `plugin::wire`.
//!
//! The host loads one library, describes it, and runs searches on request. lapiz waits for
//! each search with a time limit; a host that dies (a segfault, `abort()`, a stack overflow,
//! `exit()`, running out of its memory limit) or runs past the limit is killed and dropped,
//! and the search fails with a [`TechniqueError`](crate::technique::TechniqueError) naming
//! the library and what happened: the engine disables that technique for the rest of the
//! solve, and the next search starts a fresh host.

mod pool;
mod serve;

pub use pool::read_host_output;
pub(crate) use pool::{Broken, OpenError, Pool};
pub use serve::serve;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::sandbox::Sandbox;

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

/// What the host writes on its stderr as it starts a search, so that lapiz quotes only that
/// search's last words when the host dies.
const SEARCH_MARK: &[u8] = b"\x1elapiz plugin host: search\x1e\n";

/// The sandbox setting hosts start with: [`HostSettings::force_sandbox`] if set, else
/// `preferred` (a pipeline's `plugin_sandbox`).
pub(crate) fn effective_sandbox(preferred: Sandbox) -> Sandbox {
    HostSettings::current().force_sandbox.unwrap_or(preferred)
}

/// The plugin mode and sandbox a pipeline's plugins load with, from what its RON (`source`)
/// asks. A pipeline is data, often downloaded: it may not lower the protection by itself. Its
/// `plugin_mode: InProcess` and `plugin_sandbox: Off` count only when the user asked for as
/// much ([`HostSettings::force_mode`], [`HostSettings::force_sandbox`]: the command line's
/// options, or a program's own call); otherwise plugins run hosted and sandboxed and a warning
/// names the file and the setting. The options win over the file either way.
pub(crate) fn protection_of_pipeline(
    mode: PluginMode,
    sandbox: Sandbox,
    source: &str,
    warnings: &mut Vec<String>,
) -> (PluginMode, Sandbox) {
    let settings = HostSettings::current();
    let mode = match (settings.force_mode, mode) {
        (Some(forced), _) => forced,
        (None, PluginMode::InProcess) => {
            warnings.push(format!(
                "{source}: `plugin_mode: InProcess` ignored: a pipeline file cannot take plugins out of their sandboxed hosts; pass --plugin-mode in-process to run them inside lapiz"
            ));
            PluginMode::Host
        }
        (None, mode) => mode,
    };
    let sandbox = match (settings.force_sandbox, sandbox) {
        (Some(forced), _) => forced,
        // in-process plugins have no sandbox to keep
        (None, Sandbox::Off) if mode == PluginMode::InProcess => Sandbox::Off,
        (None, Sandbox::Off) => {
            warnings.push(format!(
                "{source}: `plugin_sandbox: Off` ignored: a pipeline file cannot turn the plugin sandbox off; pass --plugin-sandbox off to run its plugins unsandboxed"
            ));
            Sandbox::On
        }
        (None, sandbox) => sandbox,
    };
    (mode, sandbox)
}
