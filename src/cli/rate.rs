//! `lapiz rate`: the rating table of a puzzle or of every puzzle of a file.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::engine::solve_grid;
use lapiz::parse::parse_puzzle;
use lapiz::pipeline::Pipeline;
use lapiz::printable::printable;
use lapiz::rating::{Rating, RatingError, rate};

use super::args::{InputArgs, PipelineArgs};
use super::batch::{for_each_puzzle, line_ref};
use super::table::{TableArgs, header, rating_row, row};
use super::{diag, exit, exit_status, invalid_input};

/// Arguments of `lapiz rate`.
#[derive(Args)]
pub struct RateArgs {
    /// The puzzle or the file of puzzles to rate.
    #[command(flatten)]
    pub input: InputArgs,
    /// The table format.
    #[command(flatten)]
    pub table: TableArgs,
    /// Leave out the header line.
    #[arg(long)]
    pub no_header: bool,
    /// Also give Sudoku Explainer's EP and ED, in columns `pearl` and `diamond` after
    /// `rating`: the hardest step up to the first placement, and the first step's difficulty.
    #[arg(long)]
    pub se_all: bool,
    /// The pipeline to rate with (default `se`: Sudoku Explainer's techniques, so the rating
    /// is SE's ER), with scripts and plugins.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Parses, solves and rates one puzzle text: its 81-character line and the rating or the error.
fn rate_text(text: &str, pipeline: &Pipeline) -> (String, Result<Rating, String>) {
    match parse_puzzle(text) {
        Err(e) => (text.to_string(), Err(e.to_string())),
        Ok(grid) => {
            let trace = solve_grid(&grid, pipeline);
            let r = rate(&trace, pipeline).map_err(|e| match e {
                RatingError::Invalid(reason) => format!("invalid puzzle: {reason}"),
                other => other.to_string(),
            });
            (trace.puzzle, r)
        }
    }
}

/// Runs `lapiz rate`.
pub fn run(args: RateArgs, out: &mut impl Write) -> Result<ExitCode> {
    let pipeline = &args.pipeline.load("se")?;
    if !args.no_header {
        writeln!(out, "{}", row(args.table.format, &header(args.se_all)))?;
    }
    let Some(path) = args.input.file else {
        let text = args.input.puzzle.unwrap_or_default();
        let (puzzle, r) = rate_text(&text, pipeline);
        writeln!(
            out,
            "{}",
            rating_row(args.table.format, &puzzle, &r, args.se_all)
        )?;
        out.flush()?;
        return Ok(match r {
            Ok(_) => ExitCode::from(exit::OK),
            Err(e) => invalid_input(&e),
        });
    };
    let mut bad = 0usize;
    for_each_puzzle(
        &path,
        out,
        |text| rate_text(text, pipeline),
        |text, why| (text.to_string(), Err(why.to_string())),
        |out, item, (puzzle, r), bar| {
            if let Err(e) = &r {
                bad += 1;
                bar.suspend(|| diag(&format!("{}: {}", line_ref(&path, item.line), printable(e))));
            }
            writeln!(
                out,
                "{}",
                rating_row(args.table.format, &puzzle, &r, args.se_all)
            )?;
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(exit_status(bad))
}
