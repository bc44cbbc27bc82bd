//! `lapiz candidates`: the pencil-mark grid of a puzzle.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::parse::{format_pencil_marks, parse_puzzle};

/// Arguments of `lapiz candidates`.
#[derive(Args)]
pub struct CandidatesArgs {
    /// The puzzle.
    pub puzzle: String,
}

/// Runs `lapiz candidates`.
pub fn run(args: CandidatesArgs, out: &mut impl Write) -> Result<ExitCode> {
    let grid = match parse_puzzle(&args.puzzle) {
        Ok(g) => g,
        Err(e) => {
            return Ok(super::invalid_input(&format!(
                "cannot read the puzzle: {e}"
            )));
        }
    };
    write!(out, "{}", format_pencil_marks(&grid))?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
