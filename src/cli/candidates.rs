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
    /// Write the candidates as one 729-character line (nine characters a cell, the digit where
    /// it is a candidate, `.` where not; 9x9 only), as tdoku and SukakuExplainer read them.
    #[arg(long)]
    pub line: bool,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
}

/// Runs `lapiz candidates`.
pub fn run(args: CandidatesArgs, out: &mut impl Write) -> Result<ExitCode> {
    match args.sizes.read(&args.puzzle) {
        Ok(p) if args.line => match p.to_candidate_line() {
            Some(line) => writeln!(out, "{line}")?,
            None => {
                return Ok(super::invalid_input(&format!(
                    "--line: a candidate line is 9x9's, and this puzzle is {}",
                    p.layout()
                )));
            }
        },
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
