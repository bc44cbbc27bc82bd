//! `lapiz canonical`: the canonical form of a puzzle of any size, equal for equivalent puzzles.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::text::printable;

use super::args::InputArgs;
use super::batch::{for_each_puzzle, line_ref};
use super::sized::SizeArgs;
use super::{diag, exit, exit_status, file_hint, invalid_input};

/// Arguments of `lapiz canonical`.
#[derive(Args)]
pub struct CanonicalArgs {
    /// The puzzle, or the file of puzzles (one canonical form per puzzle line).
    #[command(flatten)]
    pub input: InputArgs,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
}

/// The canonical line of a puzzle text of any size (givens only), in the puzzle's symbols.
fn canonical_of(sizes: &SizeArgs, text: &str) -> Result<String, String> {
    Ok(sizes
        .read(text)
        .map_err(|e| e.to_string())?
        .canonical_line())
}

/// Runs `lapiz canonical`.
pub fn run(args: CanonicalArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let Some(path) = args.input.file else {
        let text = args.input.puzzle.unwrap_or_default();
        return Ok(match canonical_of(&args.sizes, &text) {
            Ok(c) => {
                writeln!(out, "{c}")?;
                out.flush()?;
                ExitCode::from(exit::OK)
            }
            Err(e) => invalid_input(&format!("cannot read the puzzle: {e}{}", file_hint(&text))),
        });
    };
    let mut bad = 0usize;
    let unreadable = |_: &str, why: &str| Err(why.to_string());
    let work = |text: &str| canonical_of(&args.sizes, text);
    for_each_puzzle(&path, out, work, unreadable, |out, item, r, bar| {
        match r {
            Ok(c) => writeln!(out, "{c}")?,
            Err(e) => {
                bad += 1;
                bar.suspend(|| {
                    diag(&format!(
                        "{}: {}",
                        line_ref(&path, item.line),
                        printable(&e)
                    ))
                });
                writeln!(out, "{}\terror", printable(&item.text))?;
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(exit_status(bad))
}
