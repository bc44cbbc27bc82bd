//! `lapiz techniques` (list.rs) and `lapiz technique`: listing a pipeline's techniques, and work on
//! technique scripts and plugin libraries, one module per
//! subcommand. A new subcommand is a variant of [`TechniqueCommand`], its module here and one
//! arm in [`run`].

pub mod bench;
pub mod check;
pub mod list;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Subcommand;

use lapiz::plugin::{self, PluginMode};
use lapiz::script::ScriptTechnique;
use lapiz::technique::Technique;
use lapiz::text::printable;

/// The subcommands of `lapiz technique`.
#[derive(Subcommand)]
pub enum TechniqueCommand {
    /// Run a technique script, or each technique of a plugin library, over HoDoKu library
    /// cases (default: its codes in the shared reglib-1.4-dev.txt) or over the positions met
    /// solving a puzzle file, and report where it fires, what it finds, misses,
    /// disagreements with its built-in twin and unsound steps.
    Check(check::CheckArgs),
    /// Time the full search of a technique script, or of each technique of a plugin library,
    /// and its native twin's over the same positions: those met solving a puzzle file
    /// (`--file`), else the library cases of its codes. The last line of each:
    /// `<id>: S us per search, <native>: N us per search, ratio R`.
    Bench(bench::BenchArgs),
}

/// Runs a `lapiz technique` subcommand.
pub fn run(command: TechniqueCommand, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    match command {
        TechniqueCommand::Check(args) => check::run(args, out),
        TechniqueCommand::Bench(args) => bench::command(args, out),
    }
}

/// What `check` and `bench` work on: a technique script, or a plugin library and the
/// techniques it offers (all of them, or the one `--id` picks).
pub struct Subject {
    /// The file as given.
    pub path: PathBuf,
    /// The mode a plugin library was loaded in; `None` for a script.
    pub mode: Option<PluginMode>,
    /// The techniques to check or time, in the file's order.
    pub techniques: Vec<Box<dyn Technique>>,
}

impl Subject {
    /// Loads `path`: a plugin library when its name is one ([`plugin::is_library_name`]),
    /// in the mode `--plugin-mode` gives (default: a host process), else a technique script.
    /// `id` picks one technique; one the file does not offer is an error naming both.
    pub fn load(path: &Path, id: Option<&str>) -> Result<Subject> {
        let (mode, techniques) = if plugin::is_library_name(path) {
            let mode = PluginMode::default().effective();
            let loaded = plugin::load_as(path, mode)?;
            super::args::warn_if_sandbox_partial();
            (Some(mode), loaded.techniques())
        } else {
            let script: Box<dyn Technique> = Box::new(ScriptTechnique::load(path)?);
            (None, vec![script])
        };
        let offered: Vec<String> = techniques.iter().map(|t| t.id().to_string()).collect();
        let techniques: Vec<_> = match id {
            Some(id) => techniques.into_iter().filter(|t| t.id() == id).collect(),
            None => techniques,
        };
        if techniques.is_empty() {
            let offers = if offered.is_empty() {
                "it offers none".to_string()
            } else {
                format!("it offers {}", offered.join(", "))
            };
            match id {
                Some(id) => bail!("{}: no technique `{id}` ({offers})", path.display()),
                None => bail!("{}: no technique to run ({offers})", path.display()),
            }
        }
        Ok(Subject {
            path: path.to_path_buf(),
            mode,
            techniques,
        })
    }

    /// `script` or `plugin`, for headers and disagreement lines.
    pub fn noun(&self) -> &'static str {
        match self.mode {
            None => "script",
            Some(_) => "plugin",
        }
    }

    /// The header's opening: `script FILE` or `plugin FILE (plugin mode host)`.
    pub fn label(&self) -> String {
        let path = printable(&self.path.display().to_string()).into_owned();
        match self.mode {
            None => format!("script {path}"),
            Some(PluginMode::Host) => format!("plugin {path} (plugin mode host)"),
            Some(PluginMode::InProcess) => format!("plugin {path} (plugin mode in-process)"),
        }
    }
}

/// The built-in technique `technique` (a script's, a plugin's) is compared with or timed
/// against: `compare` when given (`none` for no twin), else the built-in with its id (less a
/// `-script` suffix), else the first built-in answering one of its library codes. `flag` names the option `compare` came
/// from, for the error.
pub fn twin_of(
    technique: &dyn Technique,
    compare: Option<&str>,
    flag: &str,
) -> Result<Option<Box<dyn Technique>>> {
    match compare {
        Some("none") => Ok(None),
        Some(id) => match lapiz::technique::builtin(id) {
            Some(t) => Ok(Some(t)),
            None => bail!("{flag}: no built-in technique `{id}` (see `lapiz techniques`)"),
        },
        None => {
            let id = technique.id();
            if let Some(t) = lapiz::technique::builtin(id.strip_suffix("-script").unwrap_or(id)) {
                return Ok(Some(t));
            }
            let codes = technique.library_codes();
            Ok(lapiz::technique::builtins()
                .into_iter()
                .find(|t| t.library_codes().iter().any(|c| codes.contains(c))))
        }
    }
}

/// The text of the library file `path` ([`lapiz::tools::read_library`]); each line that is
/// not UTF-8 is reported on stderr and passed over.
pub fn read_library_text(path: &Path) -> Result<String> {
    let library = lapiz::tools::read_library(path).with_context(|| {
        format!(
            "cannot read the library {} (pass --reglib LIBFILE or set LAPIZ_DATA)",
            path.display()
        )
    })?;
    for (line, why) in &library.errors {
        crate::cli::diag(&format!(
            "{}: {why}; passed over",
            crate::cli::batch::line_ref(path, *line)
        ));
    }
    Ok(library.text)
}

/// The shared regression library: `$LAPIZ_DATA/reglib/…`, else `../shared/data/reglib/…`.
pub fn default_library() -> PathBuf {
    let data = std::env::var_os("LAPIZ_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data"));
    data.join("reglib/reglib-1.4-dev.txt")
}
