//! [`Pipeline`]: the ordered list of techniques a solve tries, read from RON.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::model::Layout;
use crate::plugin::{self, Plugin, PluginError, PluginMode, Sandbox};
use crate::script::{ScriptBudget, ScriptError, ScriptTechnique};
use crate::step::Step;
use crate::technique::{self, Technique};
use crate::text::files::read_text_capped;

/// The default pipeline's RON text, embedded in the binary.
pub(crate) const DEFAULT_PIPELINE_RON: &str = include_str!("default_pipeline.ron");

/// The `se` pipeline's RON text, embedded in the binary: Sudoku Explainer's techniques in its
/// order, for ratings on SE's scale (see `docs/rating.md`).
pub(crate) const SE_PIPELINE_RON: &str = include_str!("se_pipeline.ron");

/// The largest pipeline file read, in bytes (the embedded ones are a few KB).
pub(crate) const MAX_PIPELINE_BYTES: u64 = 1 << 20;

/// A pipeline entry in RON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum EntryConfig {
    /// A technique by id, e.g. `Technique("naked-pair")`.
    Technique(String),
    /// A Rhai script, e.g. `Script("techniques/skyscraper.rhai")`.
    Script(String),
    /// Every `.rhai` script of a folder, sorted by file name, e.g. `Scripts("techniques")`.
    Scripts(String),
    /// Every technique of a plugin library, in its order, e.g.
    /// `Plugin("plugins/liblapiz_example_rust.so")`.
    Plugin(String),
    /// Every technique of every plugin library of a folder (sorted by file name).
    Plugins(String),
    /// Every technique of an embedded pipeline (`default`, `se`), in its order, e.g.
    /// `Pipeline("default")`.
    Pipeline(String),
}

/// A pipeline as written in RON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Pipeline", deny_unknown_fields)]
pub(crate) struct PipelineConfig {
    /// A name shown in traces.
    #[serde(default)]
    pub name: String,
    /// Plugin libraries, or folders of them, to load first: their techniques can then be
    /// named by id in `techniques`, e.g. `plugins: ["plugins/build"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<String>,
    /// Where plugin searches run: `Host` (the default: a separate process with time and
    /// memory limits) or `InProcess` (direct calls, for trusted plugins). A file alone cannot
    /// lower the protection: `InProcess` counts only with `--plugin-mode in-process` (else a
    /// warning); the option overrides it.
    #[serde(default, skip_serializing_if = "is_default_mode")]
    pub plugin_mode: PluginMode,
    /// Whether plugin hosts sandbox themselves (Linux): `On` (the default) or `Off` for
    /// trusted plugins that need more than reading their own folder (see `docs/plugins.md`).
    /// `Off` counts only with `--plugin-sandbox off` (else a warning); the option overrides
    /// it; in-process plugins have no sandbox.
    #[serde(default, skip_serializing_if = "is_default_sandbox")]
    pub plugin_sandbox: Sandbox,
    /// Techniques in the order they are tried.
    pub techniques: Vec<EntryConfig>,
    /// Ids left out of what `techniques` lists, e.g. a `Pipeline("default")` entry's, as in
    /// `without: ["forcing-chain"]`; each must be one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without: Vec<String>,
    /// Check every step against the solution before applying it (default on).
    #[serde(default = "default_verify")]
    pub verify: bool,
    /// At most this many steps per solve (a guard; by default more than any solve takes, as
    /// every applied step removes a candidate).
    #[serde(default = "default_step_limit")]
    pub step_limit: usize,
    /// What each script may spend in one solve, e.g.
    /// `script_budget: (operations: 50000000, time_ms: 5000)` (see `docs/scripting.md`).
    #[serde(default, skip_serializing_if = "is_default_budget")]
    pub script_budget: ScriptBudget,
}

fn is_default_budget(b: &ScriptBudget) -> bool {
    *b == ScriptBudget::default()
}

/// Parses pipeline RON: a leading UTF-8 byte-order mark is skipped, and an unknown field (a
/// misspelt `verfy`) is an error naming it and where it is, not silently ignored.
fn parse_config(text: &str, source_name: &str) -> Result<PipelineConfig, PipelineError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron::from_str(text).map_err(|error| PipelineError::Ron {
        source_name: source_name.to_string(),
        error: Box::new(error),
    })
}

fn is_default_mode(mode: &PluginMode) -> bool {
    *mode == PluginMode::default()
}

fn is_default_sandbox(sandbox: &Sandbox) -> bool {
    *sandbox == Sandbox::default()
}

fn default_verify() -> bool {
    true
}

/// More steps than a 25x25 board has candidates (15,625): every applied step removes at least
/// one, so no solve of any size reaches the default.
fn default_step_limit() -> usize {
    16_000
}

/// A pipeline could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// The RON text is malformed.
    #[error("{source_name}: {error}")]
    Ron {
        /// File name or `<default>`.
        source_name: String,
        /// The RON error with its line and column.
        error: Box<ron::error::SpannedError>,
    },
    /// The file could not be read.
    #[error("cannot read pipeline {path}: {error}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// An entry names no known technique.
    #[error(
        "{source_name}: entry {position} names unknown technique `{id}` (see `lapiz techniques`)"
    )]
    UnknownTechnique {
        /// File name.
        source_name: String,
        /// 1-based position in the list.
        position: usize,
        /// The id.
        id: String,
    },
    /// A script entry could not be loaded.
    #[error("{source_name}: entry {position}: {error}")]
    Script {
        /// File name.
        source_name: String,
        /// 1-based position in the list.
        position: usize,
        /// Why the script could not be loaded (file, line and column).
        error: ScriptError,
    },
    /// Two entries have the same technique id.
    #[error("{source_name}: entry {position}: technique id `{id}` is already in the pipeline")]
    DuplicateId {
        /// File name.
        source_name: String,
        /// 1-based position of the second entry.
        position: usize,
        /// The id.
        id: String,
    },
    /// A `Pipeline` entry names no embedded pipeline.
    #[error("{source_name}: entry {position} names unknown pipeline `{name}` (default, se)")]
    UnknownPipeline {
        /// File name.
        source_name: String,
        /// 1-based position in the list.
        position: usize,
        /// The name.
        name: String,
    },
    /// `without` names an id twice.
    #[error("{source_name}: `without` names `{id}` twice")]
    WithoutTwice {
        /// The pipeline file's name.
        source_name: String,
        /// The id.
        id: String,
    },
    /// `without` names an id the entries do not list.
    #[error("{source_name}: `without` names `{id}`, which the pipeline's entries do not list")]
    WithoutUnknown {
        /// File name.
        source_name: String,
        /// The id.
        id: String,
    },
}

/// An ordered list of techniques and the solve settings. Its technique ids are unique: every
/// way to build one or add to it checks them (one check, in this module), so the fields are
/// private.
///
/// ```
/// use lapiz::Pipeline;
/// use lapiz::technique::builtin;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // The embedded default pipeline, cut down to the singles.
/// let mut singles = Pipeline::default_pipeline();
/// singles.retain(|t| ["full-house", "hidden-single", "naked-single"].contains(&t.id()));
/// assert_eq!(singles.ids(), ["full-house", "hidden-single", "naked-single"]);
///
/// // Adding a technique: in difficulty order, and only once.
/// singles.add_technique(builtin("pointing").expect("a built-in"))?;
/// assert_eq!(singles.ids().last().map(String::as_str), Some("pointing"));
/// assert!(singles.add_technique(builtin("pointing").expect("a built-in")).is_err());
///
/// // A pipeline file: RON naming techniques (and scripts and plugins) in order.
/// let path = std::env::temp_dir().join(format!("lapiz-doc-{}.ron", std::process::id()));
/// std::fs::write(
///     &path,
///     r#"Pipeline(
///         name: "singles",
///         techniques: [Technique("hidden-single"), Technique("naked-single")],
///         step_limit: 200,
///     )"#,
/// )?;
/// let loaded = Pipeline::from_file(&path)?;
/// std::fs::remove_file(&path)?;
/// assert_eq!((loaded.name(), loaded.step_limit(), loaded.verify()), ("singles", 200, true));
///
/// // A misspelt field or an unknown technique is an error, not skipped.
/// assert!(Pipeline::from_ron("Pipeline(techniques: [], verfy: false)", "typo").is_err());
/// assert!(Pipeline::from_ron(r#"Pipeline(techniques: [Technique("x")])"#, "x").is_err());
/// # Ok(())
/// # }
/// ```
pub struct Pipeline {
    name: String,
    techniques: Vec<Box<dyn Technique>>,
    verify: bool,
    step_limit: usize,
    script_budget: ScriptBudget,
    plugin_mode: PluginMode,
    plugin_sandbox: Sandbox,
    warnings: Vec<String>,
    plugin_failures: Vec<String>,
}

impl Pipeline {
    /// Name shown in traces.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the pipeline.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// Techniques in the order tried.
    pub fn techniques(&self) -> &[Box<dyn Technique>] {
        &self.techniques
    }

    /// The name of the technique `id` in this pipeline, else the id itself.
    pub fn name_of(&self, id: &str) -> String {
        self.techniques
            .iter()
            .find(|t| t.id() == id)
            .map_or_else(|| id.to_string(), |t| t.name().to_string())
    }

    /// `step`, found on a board of `layout`, as a hint's nudge shows it ([`Step::nudge`]), with
    /// its technique named as this pipeline names it.
    pub fn nudge(&self, step: &Step, layout: Layout) -> Step {
        step.nudge(&self.name_of(&step.technique), layout)
    }

    /// The techniques in order, taken out of the pipeline.
    pub fn into_techniques(self) -> Vec<Box<dyn Technique>> {
        self.techniques
    }

    /// Whether every step is verified against the solution.
    pub fn verify(&self) -> bool {
        self.verify
    }

    /// Turns the verification of every step on or off.
    pub fn set_verify(&mut self, verify: bool) {
        self.verify = verify;
    }

    /// Step limit per solve.
    pub fn step_limit(&self) -> usize {
        self.step_limit
    }

    /// Sets the step limit per solve.
    pub fn set_step_limit(&mut self, limit: usize) {
        self.step_limit = limit;
    }

    /// What each script may spend in one solve before it is disabled for the rest of it.
    pub fn script_budget(&self) -> ScriptBudget {
        self.script_budget
    }

    /// Where the searches of plugins it loads run (a pipeline file's `plugin_mode`, as far as
    /// the host settings allow it).
    pub fn plugin_mode(&self) -> PluginMode {
        self.plugin_mode
    }

    /// Sets where the searches of plugins loaded from now on run.
    pub fn set_plugin_mode(&mut self, mode: PluginMode) {
        self.plugin_mode = mode;
    }

    /// Whether the hosts of plugins it loads sandbox themselves (a pipeline file's
    /// `plugin_sandbox`, as far as the host settings allow it).
    pub fn plugin_sandbox(&self) -> Sandbox {
        self.plugin_sandbox
    }

    /// Sets whether the hosts of plugins loaded from now on sandbox themselves.
    pub fn set_plugin_sandbox(&mut self, sandbox: Sandbox) {
        self.plugin_sandbox = sandbox;
    }

    /// What was left out while building it or adding to it (a plugin that failed to load,
    /// and the entries naming its techniques): the solve goes on without them.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The plugins of the pipeline file that failed to load, why each (each is also in
    /// [`Pipeline::warnings`]). A library user may go on without them; the command line
    /// refuses to run (README, "Exit status").
    pub fn plugin_failures(&self) -> &[String] {
        &self.plugin_failures
    }

    /// Adds a warning: something left out, the solve going on without it.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into());
    }

    /// Keeps only the techniques `keep` accepts, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&dyn Technique) -> bool) {
        self.techniques.retain(|t| keep(t.as_ref()));
    }

    /// The embedded default pipeline.
    pub fn default_pipeline() -> Pipeline {
        Pipeline::from_ron(DEFAULT_PIPELINE_RON, "<default>")
            .expect("the default pipeline is valid")
    }

    /// The embedded `se` pipeline: Sudoku Explainer's techniques, in its order.
    pub fn se_pipeline() -> Pipeline {
        Pipeline::from_ron(SE_PIPELINE_RON, "<se>").expect("the se pipeline is valid")
    }

    /// The names of the embedded pipelines, which [`Pipeline::embedded`] and a `--pipeline`
    /// option take as well as a file.
    pub const EMBEDDED: [&'static str; 2] = ["default", "se"];

    /// The embedded pipeline that rates a `layout` board unless another is chosen: `se` on
    /// 9x9, where Sudoku Explainer's scale is defined, `default` on other sizes.
    pub fn rating_name(layout: Layout) -> &'static str {
        match layout == Layout::NINE {
            true => "se",
            false => "default",
        }
    }

    /// The embedded pipeline of this name (`default` or `se`), if there is one.
    pub fn embedded(name: &str) -> Option<Pipeline> {
        match name {
            "default" => Some(Pipeline::default_pipeline()),
            "se" => Some(Pipeline::se_pipeline()),
            _ => None,
        }
    }

    /// A pipeline from RON text; `source_name` names it in errors.
    pub fn from_ron(text: &str, source_name: &str) -> Result<Pipeline, PipelineError> {
        let config = parse_config(text, source_name)?;
        Pipeline::from_config(&config, source_name)
    }

    /// A pipeline from a RON file: a regular file of at most 1 MiB.
    pub fn from_file(path: &Path) -> Result<Pipeline, PipelineError> {
        let text =
            read_text_capped(path, MAX_PIPELINE_BYTES).map_err(|error| PipelineError::Io {
                path: path.display().to_string(),
                error,
            })?;
        let config = parse_config(&text, &path.display().to_string())?;
        Pipeline::from_config_in(&config, &path.display().to_string(), path.parent())
    }

    /// A pipeline from its parsed configuration. Script paths are relative to the current
    /// directory.
    pub(crate) fn from_config(
        config: &PipelineConfig,
        source_name: &str,
    ) -> Result<Pipeline, PipelineError> {
        Pipeline::from_config_in(config, source_name, None)
    }

    /// A pipeline from its parsed configuration; a relative script path that does not exist
    /// from the current directory is looked up in `base` (the pipeline file's folder).
    pub(crate) fn from_config_in(
        config: &PipelineConfig,
        source_name: &str,
        base: Option<&Path>,
    ) -> Result<Pipeline, PipelineError> {
        let mut techniques: Vec<Box<dyn Technique>> = Vec::new();
        let mut warnings = Vec::new();
        let mut plugin_failures = Vec::new();
        let resolve = |p: &str| -> PathBuf {
            let path = PathBuf::from(p);
            match base {
                Some(b) if path.is_relative() && !path.exists() && b.join(&path).exists() => {
                    b.join(path)
                }
                _ => path,
            }
        };
        // a plugin's relative path is the pipeline file's folder's, never the current folder's
        let resolve_plugin = |p: &str| -> PathBuf {
            let path = PathBuf::from(p);
            match base {
                Some(b) if path.is_relative() => b.join(path),
                _ => path,
            }
        };
        let (mode, sandbox) = plugin::protection_of_pipeline(
            config.plugin_mode,
            config.plugin_sandbox,
            source_name,
            &mut warnings,
        );
        // Plugins whose techniques the entries may name by id.
        let mut known: Vec<Arc<Plugin>> = Vec::new();
        let mut known_failed = false;
        for p in &config.plugins {
            match load_plugins(&resolve_plugin(p), mode, sandbox) {
                Ok((ok, failed)) => {
                    known.extend(ok);
                    known_failed |= !failed.is_empty();
                    warnings.extend(failed.iter().map(|e| format!("{e}; left out")));
                    plugin_failures.extend(failed.iter().map(|e| e.to_string()));
                }
                Err(e) => {
                    known_failed = true;
                    warnings.push(format!("{e}; left out"));
                    plugin_failures.push(e.to_string());
                }
            }
        }
        warnings.extend(shadowed_ids(&known));
        for (i, entry) in config.techniques.iter().enumerate() {
            let position = i + 1;
            let script_error = |error: ScriptError| PipelineError::Script {
                source_name: source_name.to_string(),
                position,
                error,
            };
            let added: Vec<Box<dyn Technique>> = match entry {
                EntryConfig::Technique(id) => {
                    let from_plugin = || known.iter().find_map(|p| p.technique(id));
                    match technique::builtin(id).or_else(from_plugin) {
                        Some(t) => vec![t],
                        // a plugin that failed to load may have offered it: go on without
                        None if known_failed => {
                            warnings.push(format!(
                                "{source_name}: entry {position} names technique `{id}`, which is no built-in and which no loaded plugin offers (one of `plugins` failed to load); left out"
                            ));
                            vec![]
                        }
                        None => {
                            return Err(PipelineError::UnknownTechnique {
                                source_name: source_name.to_string(),
                                position,
                                id: id.clone(),
                            });
                        }
                    }
                }
                EntryConfig::Plugin(path) | EntryConfig::Plugins(path) => {
                    match load_plugins(&resolve_plugin(path), mode, sandbox) {
                        Ok((ok, failed)) => {
                            for e in &failed {
                                let why = format!("{source_name}: entry {position}: {e}");
                                warnings.push(format!("{why}; left out"));
                                plugin_failures.push(why);
                            }
                            ok.iter().flat_map(|p| p.techniques()).collect()
                        }
                        Err(e) => {
                            let why = format!("{source_name}: entry {position}: {e}");
                            warnings.push(format!("{why}; left out"));
                            plugin_failures.push(why);
                            vec![]
                        }
                    }
                }
                EntryConfig::Script(path) => {
                    let t = ScriptTechnique::load(&resolve(path)).map_err(script_error)?;
                    vec![Box::new(t)]
                }
                EntryConfig::Pipeline(name) => match Pipeline::embedded(name) {
                    Some(p) => p.techniques,
                    None => {
                        return Err(PipelineError::UnknownPipeline {
                            source_name: source_name.to_string(),
                            position,
                            name: name.clone(),
                        });
                    }
                },
                EntryConfig::Scripts(dir) => ScriptTechnique::load_folder(&resolve(dir))
                    .map_err(script_error)?
                    .into_iter()
                    .map(|t| Box::new(t) as Box<dyn Technique>)
                    .collect(),
            };
            for t in added {
                if let Err(DuplicateId { id }) = check_unique(&techniques, t.id()) {
                    return Err(PipelineError::DuplicateId {
                        source_name: source_name.to_string(),
                        position,
                        id,
                    });
                }
                techniques.push(t);
            }
        }
        for (k, id) in config.without.iter().enumerate() {
            if config.without[..k].contains(id) {
                return Err(PipelineError::WithoutTwice {
                    source_name: source_name.to_string(),
                    id: id.clone(),
                });
            }
            let Some(i) = techniques.iter().position(|t| t.id() == id) else {
                return Err(PipelineError::WithoutUnknown {
                    source_name: source_name.to_string(),
                    id: id.clone(),
                });
            };
            techniques.remove(i);
        }
        Ok(Pipeline {
            name: config.name.clone(),
            techniques,
            verify: config.verify,
            step_limit: config.step_limit,
            script_budget: config.script_budget,
            plugin_mode: mode,
            plugin_sandbox: sandbox,
            warnings,
            plugin_failures,
        })
    }

    /// Adds `technique` in difficulty order unless its id is already in the pipeline: before
    /// the first technique at least as hard, so it gets its chance before a built-in twin of
    /// the same difficulty (at the end when every technique is easier). Ids are unique; this
    /// is how whatever comes after loading is added (scripts from the command line, plugins).
    pub fn add_technique(&mut self, technique: Box<dyn Technique>) -> Result<(), DuplicateId> {
        check_unique(&self.techniques, technique.id())?;
        self.insert_by_difficulty(technique);
        Ok(())
    }

    /// Adds `technique` at the end unless its id is already in the pipeline.
    pub fn push(&mut self, technique: Box<dyn Technique>) -> Result<(), DuplicateId> {
        check_unique(&self.techniques, technique.id())?;
        self.techniques.push(technique);
        Ok(())
    }

    /// Adds `technique` in difficulty order (see [`Pipeline::add_technique`]); the caller has
    /// checked its id.
    fn insert_by_difficulty(&mut self, technique: Box<dyn Technique>) {
        let d = technique.difficulty();
        let at = self
            .techniques
            .iter()
            .position(|t| t.difficulty() >= d)
            .unwrap_or(self.techniques.len());
        self.techniques.insert(at, technique);
    }

    /// Puts `technique` in the place of the technique `id` and returns that one (`None`, and
    /// nothing changed, when `id` is not in the pipeline), unless `technique`'s id is already
    /// in the pipeline under another place.
    pub fn replace(
        &mut self,
        id: &str,
        technique: Box<dyn Technique>,
    ) -> Result<Option<Box<dyn Technique>>, DuplicateId> {
        let Some(at) = self.techniques.iter().position(|t| t.id() == id) else {
            return Ok(None);
        };
        if technique.id() != id {
            check_unique(&self.techniques, technique.id())?;
        }
        Ok(Some(std::mem::replace(&mut self.techniques[at], technique)))
    }

    /// Adds `technique` after the last of the pipeline's techniques whose id is in `after`
    /// (at the start when none is), e.g. a script after the basic techniques, unless its id is
    /// already in the pipeline.
    pub fn insert_after(
        &mut self,
        after: &[&str],
        technique: Box<dyn Technique>,
    ) -> Result<(), DuplicateId> {
        check_unique(&self.techniques, technique.id())?;
        let at = self
            .techniques
            .iter()
            .rposition(|t| after.contains(&t.id()))
            .map_or(0, |i| i + 1);
        self.techniques.insert(at, technique);
        Ok(())
    }

    /// A pipeline of the given techniques, in that order, with default settings; an error if
    /// two of them have the same id.
    pub fn from_techniques(
        name: &str,
        techniques: Vec<Box<dyn Technique>>,
    ) -> Result<Pipeline, DuplicateId> {
        let mut pipeline = Pipeline {
            name: name.to_string(),
            techniques: Vec::with_capacity(techniques.len()),
            verify: true,
            step_limit: default_step_limit(),
            script_budget: ScriptBudget::default(),
            plugin_mode: PluginMode::default(),
            plugin_sandbox: Sandbox::default(),
            warnings: Vec::new(),
            plugin_failures: Vec::new(),
        };
        for t in techniques {
            check_unique(&pipeline.techniques, t.id())?;
            pipeline.techniques.push(t);
        }
        Ok(pipeline)
    }

    /// Loads a plugin library (in the pipeline's [`Pipeline::plugin_mode`] and
    /// [`Pipeline::plugin_sandbox`], unless the host settings force others) and adds its techniques in difficulty order (as
    /// [`Pipeline::add_technique`]). A technique whose id is already in the pipeline is
    /// left out with a warning in [`Pipeline::warnings`]. Returns the ids added.
    pub fn add_plugin(&mut self, path: &Path) -> Result<Vec<String>, PluginError> {
        let plugin = plugin::load_with(
            path,
            self.plugin_mode.effective(),
            plugin::effective_sandbox(self.plugin_sandbox),
        )?;
        let mut added = Vec::new();
        for t in plugin.techniques() {
            let id = t.id().to_string();
            match self.add_technique(t) {
                Ok(()) => added.push(id),
                Err(e) => self
                    .warnings
                    .push(format!("plugin {}: {e}; left out", plugin.path)),
            }
        }
        Ok(added)
    }

    /// The technique ids in order.
    pub fn ids(&self) -> Vec<String> {
        self.techniques.iter().map(|t| t.id().to_string()).collect()
    }

    /// Ids of the techniques that run on boards of size `n`, in order.
    pub fn ids_on(&self, n: usize) -> Vec<String> {
        self.techniques
            .iter()
            .filter(|t| t.runs_on(n))
            .map(|t| t.id().to_string())
            .collect()
    }
}

/// Warnings for plugin technique ids that `Technique(id)` cannot reach: the same id as a
/// built-in (the built-in wins) or as an earlier plugin's technique (the first wins).
fn shadowed_ids(plugins: &[Arc<Plugin>]) -> Vec<String> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    let mut out = Vec::new();
    for p in plugins {
        for id in p.technique_ids() {
            if technique::builtin(&id).is_some() {
                out.push(format!(
                    "plugin {}: technique `{id}` has a built-in's id; `Technique(\"{id}\")` names the built-in (use `Plugin(...)` for the plugin's)",
                    p.path
                ));
            } else if let Some((_, first)) = seen.iter().find(|(s, _)| *s == id) {
                out.push(format!(
                    "plugin {}: technique `{id}` is also offered by plugin {first}, which `Technique(\"{id}\")` names",
                    p.path
                ));
            } else {
                seen.push((id, &p.path));
            }
        }
    }
    out
}

/// The plugins of a library file, or of every library in a folder: those that loaded and the
/// errors of those that did not.
type Loaded = (Vec<Arc<Plugin>>, Vec<PluginError>);

fn load_plugins(path: &Path, mode: PluginMode, sandbox: Sandbox) -> Result<Loaded, PluginError> {
    if path.is_dir() {
        let (mut ok, mut failed) = (Vec::new(), Vec::new());
        for r in plugin::load_folder_with(path, mode, sandbox)? {
            match r {
                Ok(p) => ok.push(p),
                Err(e) => failed.push(e),
            }
        }
        Ok((ok, failed))
    } else {
        plugin::load_with(path, mode, sandbox).map(|p| (vec![p], vec![]))
    }
}

/// A technique whose id is already in the pipeline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("technique id `{id}` is already in the pipeline")]
pub struct DuplicateId {
    /// The id.
    pub id: String,
}

/// The one check that technique ids are unique: `id` must not be among `techniques`.
fn check_unique(techniques: &[Box<dyn Technique>], id: &str) -> Result<(), DuplicateId> {
    if techniques.iter().any(|t| t.id() == id) {
        return Err(DuplicateId { id: id.to_string() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::grid::Grid;
    use crate::technique::{StepSink, TechniqueError};

    #[test]
    fn an_embedded_pipeline_as_an_entry_less_the_ids_without() {
        let p = Pipeline::from_ron(
            r#"Pipeline(name: "d", techniques: [Pipeline("default"), Technique("guess")],
               without: ["x-wing", "forcing-chain"])"#,
            "d.ron",
        )
        .unwrap();
        let mut expected = Pipeline::default_pipeline().ids();
        expected.retain(|id| id != "x-wing" && id != "forcing-chain");
        expected.push("guess".to_string());
        assert_eq!(p.ids(), expected);
        let e = Pipeline::from_ron(r#"Pipeline(techniques: [Pipeline("defualt")])"#, "e.ron")
            .err()
            .expect("an error");
        assert_eq!(
            e.to_string(),
            "e.ron: entry 1 names unknown pipeline `defualt` (default, se)"
        );
        let e = Pipeline::from_ron(
            r#"Pipeline(techniques: [Pipeline("se")], without: ["skyscraper"])"#,
            "w.ron",
        )
        .err()
        .expect("an error");
        assert_eq!(
            e.to_string(),
            "w.ron: `without` names `skyscraper`, which the pipeline's entries do not list"
        );
        let e = Pipeline::from_ron(
            r#"Pipeline(techniques: [Pipeline("default")], without: ["x-wing", "x-wing"])"#,
            "t.ron",
        )
        .err()
        .expect("an error");
        assert_eq!(e.to_string(), "t.ron: `without` names `x-wing` twice");
    }

    #[test]
    fn add_technique_refuses_an_id_already_there_and_leaves_the_pipeline_as_it_was() {
        let mut p =
            Pipeline::from_techniques("t", vec![technique::builtin("x-wing").unwrap()]).unwrap();
        p.add_technique(technique::builtin("skyscraper").unwrap())
            .unwrap();
        let before = p.ids();
        let e = p
            .add_technique(technique::builtin("x-wing").unwrap())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "technique id `x-wing` is already in the pipeline"
        );
        assert_eq!(p.ids(), before);
    }

    #[test]
    fn no_way_to_build_or_extend_a_pipeline_lets_a_duplicate_id_in() {
        let twice = vec![
            technique::builtin("x-wing").unwrap(),
            technique::builtin("x-wing").unwrap(),
        ];
        let e = Pipeline::from_techniques("t", twice)
            .err()
            .expect("refused");
        assert_eq!(e.id, "x-wing");
        let mut p =
            Pipeline::from_techniques("t", vec![technique::builtin("x-wing").unwrap()]).unwrap();
        let before = p.ids();
        assert!(p.push(technique::builtin("x-wing").unwrap()).is_err());
        assert!(
            p.insert_after(&["x-wing"], technique::builtin("x-wing").unwrap())
                .is_err()
        );
        assert_eq!(p.ids(), before);
        p.insert_after(&["x-wing"], technique::builtin("skyscraper").unwrap())
            .unwrap();
        p.push(technique::builtin("swordfish").unwrap()).unwrap();
        assert_eq!(p.ids(), ["x-wing", "skyscraper", "swordfish"]);
    }

    #[test]
    fn an_unknown_field_is_named_with_its_position() {
        let err = Pipeline::from_ron(
            "Pipeline(\n  techniques: [Technique(\"naked-single\")],\n  verfy: false,\n)",
            "p.ron",
        )
        .err()
        .expect("rejected")
        .to_string();
        assert!(err.starts_with("p.ron: 3:"), "{err}");
        assert!(err.contains("verfy"), "{err}");
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let p = Pipeline::from_ron(
            "\u{feff}Pipeline(techniques: [Technique(\"naked-single\")], verify: false)",
            "p.ron",
        )
        .expect("accepted");
        assert!(!p.verify);
    }

    #[test]
    fn the_script_budget_is_read_and_checked() {
        let p = Pipeline::from_ron(
            "Pipeline(techniques: [], script_budget: (operations: 1000))",
            "p.ron",
        )
        .expect("accepted");
        assert_eq!(p.script_budget.operations, 1000);
        assert_eq!(p.script_budget.time_ms, ScriptBudget::default().time_ms);
        let err = Pipeline::from_ron(
            "Pipeline(techniques: [],\n script_budget: (operations: 1, tme_ms: 5))",
            "p.ron",
        )
        .err()
        .expect("rejected")
        .to_string();
        assert!(err.starts_with("p.ron: 2:"), "{err}");
        assert!(err.contains("tme_ms"), "{err}");
    }

    #[test]
    fn default_pipeline_lists_every_builtin() {
        let p = Pipeline::default_pipeline();
        assert!(p.ids().len() >= 13);
        assert!(p.verify);
    }

    /// A technique that finds nothing, of a chosen difficulty, runs on 9x9 only.
    struct Probe(f32);

    impl Technique for Probe {
        fn id(&self) -> &str {
            "probe"
        }
        fn name(&self) -> &str {
            "Probe"
        }
        fn difficulty(&self) -> f32 {
            self.0
        }
        fn find(&self, _: &Grid, _: &mut StepSink<'_>) -> Result<(), TechniqueError> {
            Ok(())
        }
    }

    #[test]
    fn default_pipeline_is_in_difficulty_order() {
        // So a technique added by difficulty goes before the same 9x9 technique whether or not
        // the techniques that run on larger boards only are counted.
        let p = Pipeline::default_pipeline();
        let d: Vec<(f32, &str)> = p
            .techniques()
            .iter()
            .map(|t| (t.difficulty(), t.id()))
            .collect();
        for w in d.windows(2) {
            assert!(w[0].0 <= w[1].0, "{} before {}", w[0].1, w[1].1);
        }
        let nine: Vec<&str> = (p.techniques().iter())
            .filter(|t| t.runs_on(9))
            .map(|t| t.id())
            .collect();
        for difficulty in [1.1, 4.45, 5.1, 5.3, 5.7, 6.0, 6.9, 7.0, 7.25, 12.0] {
            let mut added = Pipeline::default_pipeline();
            added
                .add_technique(Box::new(Probe(difficulty)))
                .expect("a new id");
            let at = added
                .ids()
                .iter()
                .position(|id| id == "probe")
                .expect("added");
            let before: Vec<&str> = (added.techniques()[..at].iter())
                .filter(|t| t.runs_on(9))
                .map(|t| t.id())
                .collect();
            let expected = nine.iter().take_while(|id| {
                let t = p
                    .techniques()
                    .iter()
                    .find(|t| t.id() == **id)
                    .expect("listed");
                t.difficulty() < difficulty
            });
            assert!(before.iter().copied().eq(expected.copied()), "{difficulty}");
        }
    }

    #[test]
    fn unknown_technique_is_named_with_position() {
        let err = Pipeline::from_ron(
            "Pipeline(techniques: [Technique(\"naked-single\"), Technique(\"nope\")])",
            "p.ron",
        )
        .err()
        .unwrap();
        assert_eq!(
            err.to_string(),
            "p.ron: entry 2 names unknown technique `nope` (see `lapiz techniques`)"
        );
    }

    #[test]
    fn ron_errors_have_a_position() {
        let err = Pipeline::from_ron("Pipeline(techniques: [", "p.ron")
            .err()
            .unwrap();
        assert!(err.to_string().starts_with("p.ron: 1:"), "{err}");
    }
}
