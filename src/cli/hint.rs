//! `lapiz hint`: the next step of a puzzle or of a grid being solved, in full, as a nudge, or
//! drawn on the grid in an HTML page.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};

use lapiz::engine::Outcome;
use lapiz::html::{PageKind, puzzle_page};
use lapiz::text::printable;

use super::args::PipelineArgs;
use super::sized::SizeArgs;

/// How much a hint gives away.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum HintLevel {
    /// The step's explanation, exactly as the trace gives it.
    Full,
    /// Only the technique and where to look (a house or a digit): no placement, no
    /// elimination.
    Nudge,
}

/// Output format of `lapiz hint`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum HintFormat {
    /// Words.
    Text,
    /// A self-contained HTML page with the step drawn on the grid.
    Html,
}

/// Arguments of `lapiz hint`.
#[derive(Args)]
pub struct HintArgs {
    /// The puzzle or the grid so far, of any size: a line of symbols, a pencil-mark grid (as
    /// `lapiz candidates` writes it) or, on 9x9, a HoDoKu library line.
    pub puzzle: String,
    /// How much to give away.
    #[arg(long, value_enum, default_value = "full")]
    pub level: HintLevel,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: HintFormat,
    /// The pipeline, with scripts and plugins, as `solve` takes them.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
    /// The time limit of the search for the step.
    #[command(flatten)]
    pub limit: super::stop::LimitArgs,
}

/// Runs `lapiz hint`: the first step the pipeline finds (verified as `solve` verifies it).
pub fn run(args: HintArgs, out: &mut impl Write) -> Result<ExitCode> {
    let mut pipeline = args.pipeline.load("default")?;
    let input = match args.sizes.read(&args.puzzle) {
        Ok(input) => input,
        Err(e) => {
            return Ok(super::invalid_input(&format!(
                "cannot read the puzzle: {e}"
            )));
        }
    };
    // one step is all a hint needs
    pipeline.set_step_limit(1);
    // a nudge and a net are worded here, in the puzzle's symbols as the step was
    input.in_its_symbols(|| hint(&args, &input, &pipeline, out))
}

/// [`run`]'s hint of a puzzle as read, in the symbols already set.
fn hint(
    args: &HintArgs,
    input: &lapiz::Puzzle,
    pipeline: &lapiz::Pipeline,
    out: &mut impl Write,
) -> Result<ExitCode> {
    super::sized::note_skipped_plugins(pipeline, input.layout().n());
    let stop = args.limit.stop();
    let trace = super::solve::solving_shown(|| input.solve_until(pipeline, &stop));
    let (layout, solved) = (input.layout(), input.is_solved());
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Ok(super::invalid_input(&format!("invalid puzzle: {reason}")));
    }
    if let Outcome::Stopped { cause, .. } = &trace.outcome {
        super::diag(&format!("error: no hint: the search was stopped ({cause})"));
        return Ok(ExitCode::from(if super::stop::interrupted() {
            super::stop::INTERRUPTED
        } else {
            super::exit::ERROR
        }));
    }
    let step = trace.steps().next();
    if args.format == HintFormat::Html {
        let mut trace = trace.clone();
        if args.level == HintLevel::Nudge
            && let Some(lapiz::engine::Entry::Step(s)) = trace
                .entries
                .iter_mut()
                .find(|e| matches!(e, lapiz::engine::Entry::Step(_)))
        {
            *s = pipeline.nudge(s, layout);
        }
        write!(out, "{}", puzzle_page(&trace, input, PageKind::Hint))?;
        out.flush()?;
        return Ok(ExitCode::from(super::exit::OK));
    }
    match step {
        Some(step) => match args.level {
            HintLevel::Full => {
                writeln!(out, "{}", printable(&step.explanation))?;
                if let Some(net) = &step.net {
                    let mut text = String::new();
                    net.write_text(&mut text, 2);
                    write!(out, "{text}")?;
                }
            }
            HintLevel::Nudge => writeln!(
                out,
                "{}",
                printable(&pipeline.nudge(step, layout).explanation)
            )?,
        },
        None if solved => writeln!(out, "The grid is already solved.")?,
        None => writeln!(
            out,
            "No technique of the pipeline `{}` finds a step in this grid.",
            printable(pipeline.name())
        )?,
    }
    out.flush()?;
    Ok(ExitCode::from(super::exit::OK))
}
