//! `lapiz technique`: work on technique scripts, one module per subcommand. A new subcommand
//! is a variant of [`TechniqueCommand`], its module here and one arm in [`run`].

pub mod bench;
pub mod check;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Subcommand;

use lapiz::script::ScriptTechnique;
use lapiz::technique::Technique;

/// The subcommands of `lapiz technique`.
#[derive(Subcommand)]
pub enum TechniqueCommand {
    /// Run a technique script over HoDoKu library cases (default: the script's CODES in the
    /// shared reglib-1.4-dev.txt) or over the positions met solving a puzzle file, and report
    /// where it fires, what it finds, misses, disagreements and unsound steps.
    Check(check::CheckArgs),
    /// Time a technique script's full search and its native twin's over the same positions:
    /// those met solving a puzzle file (`--file`), else the library cases of the script's
    /// codes. The last line: `<script>: S us per search, <native>: N us per search, ratio R`.
    Bench(bench::BenchArgs),
}

/// Runs a `lapiz technique` subcommand.
pub fn run(command: TechniqueCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        TechniqueCommand::Check(args) => check::run(args, out),
        TechniqueCommand::Bench(args) => bench::command(args, out),
    }
}

/// The built-in technique a script is compared with; `flag` names the option the id came from,
/// for the error.
pub fn twin_of(
    script: &ScriptTechnique,
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
            let base = script.id().strip_suffix("-script").unwrap_or(script.id());
            if let Some(t) = lapiz::technique::builtin(base) {
                return Ok(Some(t));
            }
            let codes = script.library_codes();
            Ok(lapiz::technique::builtins()
                .into_iter()
                .find(|t| t.library_codes().iter().any(|c| codes.contains(c))))
        }
    }
}

/// The shared regression library: `$LAPIZ_DATA/reglib/…`, else `../shared/data/reglib/…`.
pub fn default_library() -> PathBuf {
    let data = std::env::var_os("LAPIZ_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data"));
    data.join("reglib/reglib-1.4-dev.txt")
}
