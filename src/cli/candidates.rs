//! `lapiz candidates`: the pencil-mark grid of a puzzle of any size.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::sized::SizeArgs;

/// Arguments of `lapiz candidates`.
#[derive(Args)]
pub struct CandidatesArgs {
    /// The puzzle, of any size.
    pub puzzle: String,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
}

/// Runs `lapiz candidates`.
pub fn run(args: CandidatesArgs, out: &mut impl Write) -> Result<ExitCode> {
    match args.sizes.read(&args.puzzle) {
        Ok(p) => write!(out, "{}", p.pencil_marks())?,
        Err(e) => {
            return Ok(super::invalid_input(&format!(
                "cannot read the puzzle: {e}"
            )));
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
