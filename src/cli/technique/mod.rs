//! `lapiz technique`: work on technique scripts, one module per subcommand. A new subcommand
//! is a variant of [`TechniqueCommand`], its module here and one arm in [`run`].

pub mod check;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;

/// The subcommands of `lapiz technique`.
#[derive(Subcommand)]
pub enum TechniqueCommand {
    /// Run a technique script over HoDoKu library cases (default: the script's CODES in the
    /// shared reglib-1.4-dev.txt) or over the positions met solving a puzzle file, and report
    /// where it fires, what it finds, misses, disagreements and unsound steps.
    Check(check::CheckArgs),
}

/// Runs a `lapiz technique` subcommand.
pub fn run(command: TechniqueCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        TechniqueCommand::Check(args) => check::run(args, out),
    }
}
