//! The `lapiz` command line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use lapiz::engine::solve_grid;
use lapiz::parse::{format_pencil_marks, parse_puzzle};
use lapiz::pipeline::Pipeline;
use lapiz::reglib::{CaseResult, run_library_with};
use lapiz::solver::count_solutions;
use lapiz::trace::Outcome;

/// lapiz: solves Sudoku the way a strong human does and explains every move.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    /// Numbered steps and pencil marks for people.
    Text,
    /// The RON trace.
    Ron,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle (or every puzzle of a file) with an explained trace.
    Solve {
        /// The puzzle: 81 characters, a pencil-mark grid or a HoDoKu library line.
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        puzzle: Option<String>,
        /// Solve every puzzle of this file (one per line, `#` comments; `-` for stdin).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also write the RON trace to this file (single puzzle only).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// A pipeline RON file instead of the default one.
        #[arg(long)]
        pipeline: Option<PathBuf>,
    },
    /// Print the pencil-mark grid of a puzzle.
    Candidates {
        /// The puzzle.
        puzzle: String,
    },
    /// Count solutions by brute force (capped at the limit).
    Count {
        /// Puzzle file (one per line, `#` comments; `-` for stdin).
        #[arg(long)]
        file: PathBuf,
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2)]
        limit: u32,
    },
    /// Run HoDoKu regression-library cases against lapiz's finders.
    Reglib {
        /// The library file.
        file: PathBuf,
        /// Show each failure with the expected and found steps.
        #[arg(long)]
        verbose: bool,
        /// A pipeline RON file whose techniques are tested (default: all built-ins).
        #[arg(long)]
        pipeline: Option<PathBuf>,
    },
    /// List the pipeline's techniques in order.
    Techniques {
        /// A pipeline RON file instead of the default one.
        #[arg(long)]
        pipeline: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn load_pipeline(path: Option<&Path>) -> Result<Pipeline> {
    Ok(match path {
        Some(p) => Pipeline::from_file(p)?,
        None => Pipeline::default_pipeline(),
    })
}

/// Opens a file, or stdin for `-`.
fn open_input(path: &Path) -> Result<Box<dyn BufRead>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(io::stdin())));
    }
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Box::new(BufReader::new(f)))
}

/// The puzzle text of a line of a puzzle file, or `None` for blanks and comments.
/// A line may carry more after the puzzle (a rating, a name): the first field is used when it
/// is 81 characters long.
fn puzzle_of_line(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    match t.split_whitespace().next() {
        Some(first) if first.len() == 81 || first.starts_with(':') => Some(first),
        _ => Some(t),
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cli.command {
        Command::Solve {
            puzzle,
            file,
            format,
            trace,
            pipeline,
        } => {
            let pipeline = load_pipeline(pipeline.as_deref())?;
            if let Some(file) = file {
                if trace.is_some() {
                    bail!("--trace writes one puzzle's trace; use --format ron with --file");
                }
                return solve_file(&file, &pipeline, format, &mut out);
            }
            let text = puzzle.expect("clap requires a puzzle without --file");
            let grid = parse_puzzle(&text).context("cannot read the puzzle")?;
            let t = solve_grid(&grid, &pipeline);
            if let Some(path) = &trace {
                std::fs::write(path, t.to_ron())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            match format {
                Format::Text => write!(out, "{}", t.to_text(Some(&grid)))?,
                Format::Ron => write!(out, "{}", t.to_ron())?,
            }
            out.flush()?;
            if let Outcome::Invalid { reason } = &t.outcome {
                eprintln!("error: invalid puzzle: {reason}");
                return Ok(ExitCode::from(2));
            }
        }
        Command::Candidates { puzzle } => {
            let grid = parse_puzzle(&puzzle).context("cannot read the puzzle")?;
            write!(out, "{}", format_pencil_marks(&grid))?;
        }
        Command::Count { file, limit } => {
            return count_file(&file, limit.max(1), &mut out);
        }
        Command::Reglib {
            file,
            verbose,
            pipeline,
        } => {
            let techniques = match pipeline {
                Some(p) => Pipeline::from_file(&p)?.techniques,
                None => lapiz::technique::builtins(),
            };
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let report = run_library_with(&text, &techniques, |_, _, _: &CaseResult| {});
            for (line, err) in &report.errors {
                eprintln!("{}:{line}: {err}", file.display());
            }
            for (code, t) in &report.per_code {
                writeln!(
                    out,
                    "{code:<8} passed {:>3}  failed {:>3}  skipped {:>3}",
                    t.passed, t.failed, t.skipped
                )?;
            }
            if verbose {
                for f in &report.failures {
                    writeln!(
                        out,
                        "\nFAILED line {} [{}]: {}",
                        f.line_number, f.code, f.reason
                    )?;
                    writeln!(out, "  case:     {}", f.line)?;
                    writeln!(out, "  expected: {}", f.expected)?;
                    for s in &f.found {
                        writeln!(out, "  found:    {}", s.explanation)?;
                    }
                }
            }
            let total = report.total();
            writeln!(
                out,
                "{} passed, {} failed, {} skipped",
                total.passed, total.failed, total.skipped
            )?;
            out.flush()?;
            if total.failed > 0 {
                return Ok(ExitCode::FAILURE);
            }
        }
        Command::Techniques { pipeline } => {
            let p = load_pipeline(pipeline.as_deref())?;
            writeln!(
                out,
                "{:<3} {:<16} {:<40} {:>10}  source",
                "#", "id", "name", "difficulty"
            )?;
            for (i, t) in p.techniques.iter().enumerate() {
                writeln!(
                    out,
                    "{:<3} {:<16} {:<40} {:>10.1}  {}",
                    i + 1,
                    t.id(),
                    t.name(),
                    t.difficulty(),
                    t.origin()
                )?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn solve_file(
    path: &Path,
    pipeline: &Pipeline,
    format: Format,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let input = open_input(path)?;
    let (mut solved, mut stuck, mut invalid, mut rejected) = (0usize, 0usize, 0usize, 0usize);
    let mut bad_lines = 0usize;
    for (i, line) in input.lines().enumerate() {
        let line_number = i + 1;
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        let Some(text) = puzzle_of_line(&line) else {
            continue;
        };
        let grid = match parse_puzzle(text) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{}:{line_number}: {e}", path.display());
                writeln!(out, "{text}\tinvalid\t{e}")?;
                invalid += 1;
                bad_lines += 1;
                continue;
            }
        };
        let t = solve_grid(&grid, pipeline);
        rejected += t.summary.rejected;
        let (status, detail) = match &t.outcome {
            Outcome::Solved => {
                solved += 1;
                ("solved", String::new())
            }
            Outcome::Stuck { .. } | Outcome::StepLimit { .. } => {
                stuck += 1;
                ("stuck", String::new())
            }
            Outcome::Invalid { reason } => {
                invalid += 1;
                eprintln!("{}:{line_number}: invalid puzzle: {reason}", path.display());
                ("invalid", reason.clone())
            }
        };
        match format {
            Format::Ron => write!(out, "{}", t.to_ron())?,
            Format::Text => {
                let hardest = t
                    .summary
                    .hardest
                    .as_ref()
                    .map(|h| format!("{} {:.1}", h.technique, h.difficulty))
                    .unwrap_or_default();
                let detail = if detail.is_empty() { hardest } else { detail };
                writeln!(out, "{}\t{status}\t{}\t{detail}", t.puzzle, t.summary.steps)?;
            }
        }
    }
    writeln!(
        out,
        "solved: {solved}, stuck: {stuck}, invalid: {invalid}, rejected steps: {rejected}"
    )?;
    out.flush()?;
    Ok(if bad_lines > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn count_file(path: &Path, limit: u32, out: &mut impl Write) -> Result<ExitCode> {
    let input = open_input(path)?;
    let (mut puzzles, mut unique, mut none, mut multiple) = (0usize, 0usize, 0usize, 0usize);
    let mut bad_lines = 0usize;
    for (i, line) in input.lines().enumerate() {
        let line_number = i + 1;
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        let Some(text) = puzzle_of_line(&line) else {
            continue;
        };
        let grid = match parse_puzzle(text) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{}:{line_number}: {e}", path.display());
                writeln!(out, "{text}\terror")?;
                bad_lines += 1;
                continue;
            }
        };
        let n = count_solutions(grid.values(), limit);
        puzzles += 1;
        match n {
            0 => none += 1,
            1 => unique += 1,
            _ => multiple += 1,
        }
        writeln!(out, "{}\t{n}", grid.to_line())?;
    }
    writeln!(
        out,
        "puzzles: {puzzles}, unique: {unique}, none: {none}, multiple: {multiple}"
    )?;
    out.flush()?;
    Ok(if bad_lines > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
