//! `lapiz plugin-host` (hidden): serves one plugin library's searches over stdin and stdout,
//! started by lapiz itself (`lapiz::plugin::host`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::args::SandboxArg;

/// Arguments of `lapiz plugin-host`.
#[derive(Args)]
pub struct PluginHostArgs {
    /// The host's address-space limit in MiB (0 for none).
    #[arg(long, default_value_t = 0)]
    pub memory_mib: u64,
    /// Whether the host sandboxes itself before loading the library.
    #[arg(long, value_enum, default_value = "on")]
    pub sandbox: SandboxArg,
    /// The plugin library.
    pub library: PathBuf,
}

/// Runs the plugin host until its parent closes stdin; stdout is the wire, so nothing else
/// may write to it.
pub fn run(args: PluginHostArgs) -> ExitCode {
    ExitCode::from(lapiz::plugin::host::serve(
        &args.library,
        args.memory_mib,
        args.sandbox.into(),
    ))
}
