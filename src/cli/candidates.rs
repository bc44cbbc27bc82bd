//! `lapiz candidates`: the pencil-mark grid of a puzzle of any size.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::text::format_pencil_marks;

use super::sized::{Input, SizeArgs};

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
        Ok(Input::Nine(grid)) => write!(out, "{}", format_pencil_marks(&grid))?,
        Ok(Input::Sized(p)) => write!(out, "{}", p.pencil_marks())?,
        Err(e) => {
            return Ok(super::invalid_input(&format!(
                "cannot read the puzzle: {e}"
            )));
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
