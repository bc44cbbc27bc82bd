//! The argument groups several commands share (`#[command(flatten)]`), and what they load:
//! the plugin host's settings (global), a puzzle or a puzzle file, and the pipeline options of
//! every command that runs a pipeline.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

use lapiz::engine::Pipeline;
use lapiz::plugin::{self, HostSettings, PluginMode, Sandbox, Way};
use lapiz::script::ScriptTechnique;
use lapiz::text::printable;

use super::diag;

/// Where plugin searches run, as `--plugin-mode` names it.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum PluginModeArg {
    /// A separate plugin host process per library and thread.
    Host,
    /// Direct calls inside lapiz.
    InProcess,
}

/// Whether plugin hosts sandbox themselves, as `--plugin-sandbox` names it.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum SandboxArg {
    /// The host limits itself (Linux): reads only the library's folder and the system's
    /// libraries; no writing, network, new programs or signals to other processes.
    On,
    /// The host runs with your rights: for trusted plugins.
    Off,
}

impl From<SandboxArg> for Sandbox {
    fn from(arg: SandboxArg) -> Sandbox {
        match arg {
            SandboxArg::On => Sandbox::On,
            SandboxArg::Off => Sandbox::Off,
        }
    }
}

/// The plugin host's settings: global options, so every command takes them.
#[derive(Args)]
pub struct HostArgs {
    /// Where plugin searches run: `host` (a separate process with time and memory limits)
    /// or `in-process` (direct calls, for trusted plugins). Overrides the pipeline's
    /// `plugin_mode`, which is `Host` unless it says otherwise.
    #[arg(long, global = true, value_enum, value_name = "MODE")]
    pub plugin_mode: Option<PluginModeArg>,
    /// Seconds one plugin search may take in its host before the host is stopped and the
    /// technique disabled for that solve (above 0, at most 1000000).
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = HostSettings::DEFAULT_TIME_LIMIT.as_secs_f64(), value_parser = parse_seconds)]
    pub plugin_time_limit: f64,
    /// A plugin host's memory limit in MiB (Unix; 0 for none).
    #[arg(long, global = true, value_name = "MIB", default_value_t = HostSettings::DEFAULT_MEMORY_LIMIT_MIB)]
    pub plugin_memory: u64,
    /// Whether plugin hosts sandbox themselves (Linux; see docs/plugins.md): `on` or `off`
    /// for trusted plugins. Overrides the pipeline's `plugin_sandbox`, which is `On` unless it
    /// says otherwise. In-process plugins have no sandbox.
    #[arg(long, global = true, value_enum, value_name = "ON_OFF")]
    pub plugin_sandbox: Option<SandboxArg>,
}

impl HostArgs {
    /// Makes these the process's plugin host settings.
    pub fn configure(&self) {
        HostSettings {
            time_limit: std::time::Duration::from_secs_f64(self.plugin_time_limit),
            memory_limit_mib: self.plugin_memory,
            force_mode: self.plugin_mode.map(|m| match m {
                PluginModeArg::Host => PluginMode::Host,
                PluginModeArg::InProcess => PluginMode::InProcess,
            }),
            force_sandbox: self.plugin_sandbox.map(Sandbox::from),
            ..HostSettings::current()
        }
        .install();
    }
}

/// Says once on stderr what the plugin sandbox cannot enforce here (no Landlock or no
/// seccomp in the kernel, or not Linux), when a plugin loaded so far runs in a sandboxed host.
pub fn warn_if_sandbox_partial() {
    static SAID: std::sync::Once = std::sync::Once::new();
    if !Way::loaded().contains(&Way::Hosted(Sandbox::On)) {
        return;
    }
    if let Some(shortfall) = plugin::sandbox::Support::probe().shortfall() {
        SAID.call_once(|| diag(&format!("warning: {shortfall}")));
    }
}

/// The longest `--plugin-time-limit`, in seconds (about 11.6 days).
const MAX_TIME_LIMIT_SECS: f64 = 1e6;

/// A time limit in seconds: above 0, at most [`MAX_TIME_LIMIT_SECS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME_LIMIT_SECS => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds above 0 and at most {MAX_TIME_LIMIT_SECS}"
        )),
    }
}

/// One puzzle on the command line, or a file of them.
#[derive(Args)]
pub struct InputArgs {
    /// The puzzle: 81 characters, a pencil-mark grid or a HoDoKu library line.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub puzzle: Option<String>,
    /// Every puzzle of this file instead (one per line, `#` comments; `-` for stdin).
    #[arg(long)]
    pub file: Option<PathBuf>,
}

/// The pipeline a command runs, with the scripts and plugins added to it.
#[derive(Args)]
pub struct PipelineArgs {
    /// The pipeline: `default` (lapiz's own; `rate` uses `se`, Sudoku Explainer's techniques,
    /// unless told otherwise) or `se`, else a RON file (a file named like an embedded
    /// pipeline is given with its folder: `./default`).
    #[arg(long)]
    pub pipeline: Option<PathBuf>,
    /// Also try this technique script (repeatable); it goes in difficulty order, before
    /// the first technique at least as hard (so before a built-in twin).
    #[arg(long = "technique", value_name = "FILE")]
    pub scripts: Vec<PathBuf>,
    /// Also load this technique plugin library (repeatable); its techniques go in
    /// difficulty order. A plugin that fails to load stops the command (status 2).
    #[arg(long = "plugin", value_name = "FILE")]
    pub plugins: Vec<PathBuf>,
}

impl PipelineArgs {
    /// The pipeline ([`load_pipeline_or`], `fallback` without `--pipeline`) with the
    /// `--technique` scripts and `--plugin` libraries added in difficulty order, each before the
    /// first technique at least as hard as it. A script or plugin that fails to load, here or in
    /// the pipeline file, is an error; what else the pipeline warns about is reported on stderr.
    pub fn load(&self, fallback: &str) -> Result<Pipeline> {
        let mut pipeline = load_pipeline_or(self.pipeline.as_deref(), fallback)?;
        for file in &self.plugins {
            pipeline.add_plugin(file)?;
        }
        warn_if_sandbox_partial();
        for w in pipeline.warnings() {
            diag(&format!("warning: {}", printable(w)));
        }
        for file in &self.scripts {
            let t = ScriptTechnique::load(file)?;
            pipeline
                .add_technique(Box::new(t))
                .with_context(|| file.display().to_string())?;
        }
        Ok(pipeline)
    }
}

/// The pipeline `--pipeline` names, or the embedded `fallback` without the option. The name
/// of an embedded pipeline (`default`, `se`) always means that pipeline, whatever files the
/// current folder holds; a file of that name is given with its folder (`./default`), and
/// anything else is a file.
/// A plugin of the pipeline file that fails to load is an error, as a script's is.
pub fn load_pipeline_or(path: Option<&Path>, fallback: &str) -> Result<Pipeline> {
    let embedded = |name: &str| Pipeline::embedded(name).expect("an embedded pipeline");
    let pipeline = match path {
        Some(p) => match p.to_str().and_then(Pipeline::embedded) {
            Some(pipeline) => pipeline,
            None => Pipeline::from_file(p)?,
        },
        None => embedded(fallback),
    };
    if let Some(first) = pipeline.plugin_failures().first() {
        let more = pipeline.plugin_failures().len() - 1;
        match more {
            0 => bail!("{first}"),
            _ => bail!("{first} (and {more} more plugins that do not load)"),
        }
    }
    Ok(pipeline)
}
