//! `lapiz rate`: the rating table of a puzzle or of every puzzle of a file.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::engine::Pipeline;
use lapiz::engine::{Rating, RatingError, rate};
use lapiz::text::parse_puzzle;
use lapiz::text::printable;

use super::args::{InputArgs, PipelineArgs};
use super::batch::{for_each_puzzle, line_ref};
use super::sized::SizeArgs;
use super::stop::{INTERRUPTED, LimitArgs};
use super::table::{TableArgs, header, rating_row, row};
use super::{diag, exit, exit_status, invalid_input};
use lapiz::model::Stop;

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
    /// is SE's ER; on other sizes than 9x9, which SE does not rate, `default`: lapiz's own
    /// scale), with scripts and plugins.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
    /// The time limit of each rating's solve.
    #[command(flatten)]
    pub limit: LimitArgs,
}

/// The pipelines a rating uses: one for 9x9 puzzles and one for the other sizes.
struct Pipelines {
    nine: Pipeline,
    /// `None`: the 9x9 one.
    other: Option<Pipeline>,
}

/// What [`rate_text`] made of one puzzle: its line, the rating or why there is none, and
/// whether its solve was stopped (not an invalid puzzle: a time limit or Ctrl-C).
type Rated = (String, Result<Rating, String>, bool);

/// Parses, solves (until `stop`) and rates one puzzle text of any size.
fn rate_text(text: &str, pipelines: &Pipelines, sizes: &SizeArgs, stop: &Stop) -> Rated {
    // what the 9x9 reader takes (or rejects, unless it is another size) is rated as before
    let read = match parse_puzzle(text) {
        Ok(grid) if sizes.symbols.is_none() && sizes.boxes.is_none() => {
            Ok(lapiz::Puzzle::from_nine(&grid))
        }
        Ok(_) => sizes.read(text),
        // another size, or the error of the reader that saw the text's size
        Err(nine) => match sizes.read(text) {
            Ok(p) if p.layout().n() != 9 => Ok(p),
            Ok(_) => Err(nine),
            Err(e) => Err(e),
        },
    };
    let puzzle = match read {
        Err(e) => return (text.to_string(), Err(e.to_string()), false),
        Ok(puzzle) => puzzle,
    };
    // 9x9 is rated with SE's scale (`se`), other sizes with lapiz's own unless asked
    let pipeline = match (puzzle.layout().n(), &pipelines.other) {
        (9, _) | (_, None) => &pipelines.nine,
        (_, Some(other)) => other,
    };
    super::sized::note_skipped_plugins(pipeline, puzzle.layout().n());
    let trace = puzzle.solve_until(pipeline, stop);
    let r = rate(&trace, pipeline);
    let stopped = matches!(r, Err(RatingError::Stopped { .. }));
    let r = r.map_err(|e| match e {
        RatingError::Invalid(reason) => format!("invalid puzzle: {reason}"),
        other => other.to_string(),
    });
    // a candidate line is its puzzle: its values alone (often none) are not
    let shown = match lapiz::text::is_candidate_line(text.trim()) {
        true => text.trim().to_string(),
        false => trace.puzzle,
    };
    (shown, r, stopped)
}

/// Runs `lapiz rate`.
pub fn run(args: RateArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let pipelines = &Pipelines {
        nine: args.pipeline.load("se")?,
        other: match args.pipeline.pipeline {
            None => Some(args.pipeline.load("default")?),
            Some(_) => None,
        },
    };
    let sizes = &args.sizes;
    if let Some(path) = &args.input.file {
        // a file that cannot be opened fails before the header is written
        drop(super::batch::open_input(path)?);
    }
    if !args.no_header {
        writeln!(out, "{}", row(args.table.format, &header(args.se_all)))?;
    }
    let Some(path) = args.input.file else {
        let text = args.input.puzzle.unwrap_or_default();
        let stop = args.limit.stop();
        let (puzzle, r, stopped) =
            super::solve::solving_shown(|| rate_text(&text, pipelines, sizes, &stop));
        writeln!(
            out,
            "{}",
            rating_row(args.table.format, &puzzle, &r, args.se_all)
        )?;
        out.flush()?;
        return Ok(match r {
            Ok(_) => ExitCode::from(exit::OK),
            Err(e) if stopped => {
                diag(&format!("error: {e}"));
                ExitCode::from(if super::stop::interrupted() {
                    INTERRUPTED
                } else {
                    exit::ERROR
                })
            }
            Err(e) => invalid_input(&e),
        });
    };
    let mut bad = 0usize;
    let limit = args.limit;
    for_each_puzzle(
        &path,
        out,
        |text| rate_text(text, pipelines, sizes, &limit.stop()),
        |text, why| (text.to_string(), Err(why.to_string()), false),
        |out, item, (puzzle, r, stopped), bar| {
            if let Err(e) = &r {
                // a stopped rating is reported, not counted as invalid input
                bad += usize::from(!stopped);
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
    if super::stop::interrupted() {
        return Ok(ExitCode::from(INTERRUPTED));
    }
    Ok(exit_status(bad))
}
