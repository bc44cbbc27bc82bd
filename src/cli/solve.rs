//! `lapiz solve`: an explained solve of one puzzle (text, RON trace or HTML page), or of every
//! puzzle of a file through the batch runner.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};

use lapiz::engine::Pipeline;
use lapiz::engine::Trace;
use lapiz::engine::{Entry, GridDisplay, Outcome};
use lapiz::html::{PageKind, puzzle_page, trace_page};
use lapiz::text::parse_puzzle;
use lapiz::text::printable;

use super::args::{InputArgs, PipelineArgs};
use super::batch::{for_each_puzzle, line_ref};
use super::diag;
use super::sized::SizeArgs;
use super::stop::{INTERRUPTED, LimitArgs};
use lapiz::text::Puzzle;

/// Output format of `lapiz solve`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// Numbered steps and pencil marks for people.
    Text,
    /// The RON trace.
    Ron,
    /// One self-contained HTML page: the grid at every step, a step list, the explanations
    /// (single puzzle only).
    Html,
}

/// When `solve` prints the pencil-mark grid (text format).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GridWhen {
    /// After every step.
    Every,
    /// Only where the solve gets stuck.
    Stuck,
}

/// Arguments of `lapiz solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The puzzle or the file of puzzles to solve.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Also write the RON trace to this file (single puzzle only).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Also write the solve as an HTML page to this file (single puzzle only).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// When the text trace prints the pencil marks: after every step, or only where the
    /// solve gets stuck (single puzzle only).
    #[arg(long, value_enum, default_value = "stuck")]
    pub grid: GridWhen,
    /// Show each step's technique id in brackets in the text trace (`[x-wing-script]`).
    #[arg(long)]
    pub ids: bool,
    /// Exit with status 1 when a technique fails or has a step rejected (each is reported on
    /// stderr either way, and disabled for the rest of that solve).
    #[arg(long)]
    pub strict: bool,
    /// The pipeline, with scripts and plugins.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
    /// The time limit of each solve.
    #[command(flatten)]
    pub limit: LimitArgs,
}

/// Runs `lapiz solve`.
pub fn run(args: SolveArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let format = args.format;
    if let (Some(trace), Some(html)) = (&args.trace, &args.html)
        && super::outfile::same_target(trace, html)
    {
        bail!(
            "--trace and --html name one file ({}): give each its own",
            printable(&html.display().to_string())
        );
    }
    let pipeline = args.pipeline.load("default")?;
    if let Some(file) = &args.input.file {
        if args.trace.is_some() {
            bail!("--trace writes one puzzle's trace; use --format ron with --file");
        }
        if args.html.is_some() || format == Format::Html {
            bail!("an HTML page shows one puzzle's solve; use --format text or ron with --file");
        }
        if matches!(args.grid, GridWhen::Every) {
            bail!("--grid every prints one puzzle's pencil marks after each step; not with --file");
        }
        return solve_file(file, &pipeline, format, (args.strict, args.limit), out);
    }
    let text = args
        .input
        .puzzle
        .clone()
        .expect("clap requires a puzzle without --file");
    let input = match args.sizes.read(&text) {
        Ok(input) => input,
        Err(e) => {
            let reason = format!("cannot read the puzzle: {e}{}", super::file_hint(&text));
            if format == Format::Html || args.html.is_some() {
                // the page says what is wrong, as the error does
                let t = Trace::invalid(text.clone(), &pipeline, reason.clone());
                let page = trace_page(&t, None, PageKind::Solve);
                if let Some(path) = &args.html {
                    super::outfile::write_whole(path, page.as_bytes())?;
                }
                if format == Format::Html {
                    out.write_all(page.as_bytes())?;
                    out.flush()?;
                }
            }
            return Ok(super::invalid_input(&reason));
        }
    };
    let p = &input;
    // the text trace of another size opens with its size, symbols and clues
    if format == Format::Text && p.layout().n() != 9 {
        let (layout, symbols) = (p.layout(), p.alphabet());
        writeln!(out, "{layout}, symbols {symbols}, {} clues", p.clues())?;
    }
    super::sized::note_skipped_plugins(&pipeline, p.layout().n());
    let t = solving_shown(|| p.solve_until(&pipeline, &args.limit.stop()));
    let code = finish(&t, &input, &args, out)?;
    Ok(match &t.outcome {
        Outcome::Stopped { .. } if super::stop::interrupted() => ExitCode::from(INTERRUPTED),
        _ => code,
    })
}

/// Runs one solve, with a spinner and the time it has taken on a terminal.
pub fn solving_shown<T>(solve: impl FnOnce() -> T) -> T {
    let bar = super::batch::progress(None, "{elapsed_precise} {spinner} solving");
    let t = solve();
    bar.finish_and_clear();
    t
}

/// Writes one puzzle's solve as `args` ask (trace file, page, output), then its warnings; the
/// exit code says whether the puzzle was invalid or, with `--strict`, whether a technique
/// failed or had a step rejected. `start` is the puzzle as read.
fn finish(
    t: &Trace,
    start: &lapiz::Puzzle,
    args: &SolveArgs,
    out: &mut impl Write,
) -> Result<ExitCode> {
    // the text trace follows a 9x9 grid; other sizes print the pencil marks the trace holds
    let grid = start.nine();
    if let Some(path) = &args.trace {
        super::outfile::write_whole(path, t.to_ron().as_bytes())?;
    }
    if let Some(path) = &args.html {
        super::outfile::write_whole(path, puzzle_page(t, start, PageKind::Solve).as_bytes())?;
    }
    match args.format {
        Format::Text => {
            let grids = match args.grid {
                GridWhen::Every => GridDisplay::Every,
                GridWhen::Stuck => GridDisplay::Stuck,
            };
            // forcing nets are worded here, in the puzzle's symbols as the steps were
            let text = start.in_its_symbols(|| t.to_text_with(grid.as_ref(), grids, args.ids));
            write!(out, "{text}")?
        }
        Format::Ron => write!(out, "{}", t.to_ron())?,
        Format::Html => write!(out, "{}", puzzle_page(t, start, PageKind::Solve))?,
    }
    out.flush()?;
    if let Outcome::Invalid { reason } = &t.outcome {
        return Ok(super::invalid_input(&format!("invalid puzzle: {reason}")));
    }
    let troubles = troubles(t);
    for line in &troubles {
        diag(&format!("warning: {line}"));
    }
    if args.strict && !troubles.is_empty() {
        diag(&format!(
            "error: --strict: {} technique(s) failed or had a step rejected",
            troubles.len()
        ));
        return Ok(ExitCode::from(super::exit::INVALID));
    }
    Ok(ExitCode::SUCCESS)
}

/// What went wrong with the techniques of one solve, one line each (escaped): a search that
/// failed, a step the engine rejected. Each disabled its technique for the rest of the solve.
fn troubles(t: &Trace) -> Vec<String> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            // the error names the technique: `technique T failed: …`
            // a script's budget error says it already
            Entry::Failed { error, .. } if error.contains("disabled for this solve") => {
                Some(printable(error).into_owned())
            }
            Entry::Failed { error, .. } => Some(format!(
                "{}; disabled for the rest of this solve",
                printable(error)
            )),
            Entry::Rejected { step, reason } => Some(format!(
                "a step of {} was rejected ({reason}); disabled for the rest of this solve: {}",
                printable(&step.technique),
                printable(&step.explanation)
            )),
            Entry::Step(_) => None,
        })
        .collect()
}

/// What `solve --file` prints and counts for one puzzle line.
enum SolveRecord {
    /// The line does not parse.
    Unreadable(String),
    /// A solve: the text to print, how it ended, the rejected steps and the techniques that
    /// failed (a plugin that crashed or hung: each is disabled for that solve only).
    Solved {
        text: String,
        status: Status,
        rejected: usize,
        troubles: Vec<String>,
    },
}

/// How one solve of `solve --file` ended.
enum Status {
    /// Solved by the pipeline without a guess.
    Solved,
    /// Solved, with at least one guess.
    Guessed,
    /// Stuck, or stopped at the step limit.
    Stuck,
    /// Stopped by its time limit or Ctrl-C, and why.
    Stopped(String),
    /// Not a proper puzzle, and why.
    Invalid(String),
}

/// Solves one line of `solve --file`: a 9x9 puzzle in any of its formats, or a puzzle of
/// another size; why the line cannot be read, if so.
fn solve_line(text: &str, pipeline: &Pipeline) -> Result<Trace, String> {
    match parse_puzzle(text) {
        Ok(grid) => Ok(Puzzle::from_nine(&grid).solve(pipeline)),
        // another size, or the error of the reader that saw the text's size
        Err(e) => match Puzzle::read(text, None, None) {
            Ok(p) if p.layout().n() != 9 => {
                super::sized::note_skipped_plugins(pipeline, p.layout().n());
                Ok(p.solve(pipeline))
            }
            Ok(_) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        },
    }
}

/// `solve --file`: one line (text) or trace (RON) per puzzle, then the counts.
fn solve_file(
    path: &Path,
    pipeline: &Pipeline,
    format: Format,
    (strict, limit): (bool, LimitArgs),
    out: &mut (impl Write + Send),
) -> Result<ExitCode> {
    let (mut solved, mut guessed, mut stuck) = (0usize, 0usize, 0usize);
    let mut stopped = 0usize;
    let mut troubled = 0usize;
    let (mut invalid, mut rejected) = (0usize, 0usize);
    let work = |text: &str| {
        // each puzzle's own time limit, on the thread that solves it
        let t = match limit.stop().during(|| solve_line(text, pipeline)) {
            Ok(t) => t,
            Err(why) => return SolveRecord::Unreadable(why),
        };
        let status = match &t.outcome {
            Outcome::Solved if t.summary.guesses > 0 => Status::Guessed,
            Outcome::Solved => Status::Solved,
            Outcome::Stuck { .. } | Outcome::StepLimit { .. } => Status::Stuck,
            Outcome::Stopped { cause, .. } => Status::Stopped(cause.to_string()),
            Outcome::Invalid { reason } => Status::Invalid(reason.clone()),
        };
        let text = match format {
            Format::Ron | Format::Html => t.to_ron(),
            Format::Text => {
                let word = match &status {
                    Status::Solved => "solved",
                    Status::Guessed => "guessed",
                    Status::Stuck => "stuck",
                    Status::Stopped(_) => "stopped",
                    Status::Invalid(_) => "invalid",
                };
                let detail = match &status {
                    Status::Invalid(reason) | Status::Stopped(reason) => reason.clone(),
                    _ => t
                        .summary
                        .hardest
                        .as_ref()
                        .map(|h| format!("{} {:.1}", h.technique, h.difficulty))
                        .unwrap_or_default(),
                };
                // a candidate line is its puzzle: its values alone (often none) are not
                let puzzle = match lapiz::text::is_candidate_line(text.trim()) {
                    true => text.trim(),
                    false => t.puzzle.as_str(),
                };
                format!(
                    "{}\t{word}\t{}\t{}\n",
                    printable(puzzle),
                    t.summary.steps,
                    printable(&detail)
                )
            }
        };
        SolveRecord::Solved {
            troubles: troubles(&t),
            text,
            status,
            rejected: t.summary.rejected,
        }
    };
    let unreadable = |_: &str, why: &str| SolveRecord::Unreadable(why.to_string());
    for_each_puzzle(path, out, work, unreadable, |out, item, record, bar| {
        match record {
            SolveRecord::Unreadable(e) => {
                bar.suspend(|| diag(&format!("{}: {}", line_ref(path, item.line), printable(&e))));
                match format {
                    // every format stays parseable: an invalid trace in RON
                    Format::Ron | Format::Html => {
                        let t = Trace::invalid(item.text.clone(), pipeline, e);
                        out.write_all(t.to_ron().as_bytes())?;
                    }
                    // the record every solve has: puzzle, status, steps, detail
                    Format::Text => writeln!(
                        out,
                        "{}\tinvalid\t0\t{}",
                        printable(&item.text),
                        printable(&e)
                    )?,
                }
                invalid += 1;
            }
            SolveRecord::Solved {
                text,
                status,
                rejected: r,
                troubles,
            } => {
                rejected += r;
                troubled += usize::from(!troubles.is_empty());
                for f in &troubles {
                    bar.suspend(|| diag(&format!("{}: warning: {f}", line_ref(path, item.line),)));
                }
                match status {
                    Status::Solved => solved += 1,
                    Status::Guessed => guessed += 1,
                    Status::Stuck => stuck += 1,
                    Status::Stopped(_) => stopped += 1,
                    Status::Invalid(reason) => {
                        invalid += 1;
                        bar.suspend(|| {
                            diag(&format!(
                                "{}: invalid puzzle: {}",
                                line_ref(path, item.line),
                                printable(&reason)
                            ))
                        });
                    }
                }
                out.write_all(text.as_bytes())?;
            }
        }
        Ok(())
    })?;
    // stopped solves are counted when there are any
    let stopped = match stopped {
        0 => String::new(),
        n => format!(", stopped: {n}"),
    };
    writeln!(
        out,
        "solved: {solved}, guessed: {guessed}, stuck: {stuck}{stopped}, invalid: {invalid}, rejected steps: {rejected}"
    )?;
    out.flush()?;
    if super::stop::interrupted() {
        diag("interrupted: the puzzles not solved by then are recorded as stopped");
        return Ok(ExitCode::from(INTERRUPTED));
    }
    if strict && troubled > 0 && invalid == 0 {
        diag(&format!(
            "error: --strict: a technique failed or had a step rejected in {troubled} puzzle(s)"
        ));
        return Ok(ExitCode::from(super::exit::INVALID));
    }
    Ok(super::exit_status(invalid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_that_says_disabled_is_not_told_twice() {
        let pipeline = Pipeline::default_pipeline();
        let mut t = Trace::invalid(String::new(), &pipeline, String::new());
        let budget = "technique s failed: per-solve time budget spent (2000 ms per script per \
                      solve); script disabled for this solve";
        for error in [budget, "technique p failed: the search failed: x"] {
            t.entries.push(Entry::Failed {
                technique: "s".into(),
                error: error.into(),
            });
        }
        let lines = troubles(&t);
        assert_eq!(lines[0].matches("disabled").count(), 1, "{}", lines[0]);
        assert!(
            lines[1].ends_with("; disabled for the rest of this solve"),
            "{}",
            lines[1]
        );
    }
}
