//! `lapiz technique bench`: times a technique script's full search against its native twin
//! over the same positions, so a script author sees what the script costs.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;

use lapiz::Grid;
use lapiz::parse::{parse_library_line, parse_puzzle};
use lapiz::pipeline::Pipeline;
use lapiz::printable::printable;
use lapiz::script::ScriptTechnique;
use lapiz::script::check::positions;
use lapiz::technique::{Technique, find_all};

/// Arguments of `lapiz technique bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The script, e.g. techniques/x-wing.rhai.
    pub script: PathBuf,
    /// A puzzle file: the positions met solving each puzzle with the default pipeline
    /// (`-` for stdin).
    #[arg(long, value_name = "PUZZLES")]
    pub file: Option<PathBuf>,
    /// Only the first N puzzles of the file.
    #[arg(long, value_name = "N", requires = "file")]
    pub limit: Option<usize>,
    /// The library file when no --file is given (default: the shared reglib-1.4-dev.txt).
    #[arg(long, value_name = "LIBFILE", conflicts_with = "file")]
    pub reglib: Option<PathBuf>,
    /// Library codes to read (repeatable; default: the script's CODES).
    #[arg(long = "code", value_name = "CODE", conflicts_with = "file")]
    pub codes: Vec<String>,
    /// The built-in technique to time against (default: as `check --compare`; `none` to
    /// time the script alone).
    #[arg(long, value_name = "ID")]
    pub native: Option<String>,
    /// Timed rounds for each side (more are run until each side has had 0.3 s).
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// Runs `lapiz technique bench`: loads the script and its twin, names them, times them.
pub fn command(args: BenchArgs, out: &mut impl Write) -> Result<ExitCode> {
    let technique = ScriptTechnique::load(&args.script)?;
    let twin = super::twin_of(&technique, args.native.as_deref(), "--native")?;
    let source = match args.file {
        Some(path) => Source::Puzzles {
            path,
            limit: args.limit,
        },
        None => Source::Library {
            path: args.reglib.unwrap_or_else(super::default_library),
            codes: if args.codes.is_empty() {
                technique.library_codes()
            } else {
                args.codes
            },
        },
    };
    writeln!(
        out,
        "script {}: {}{}",
        args.script.display(),
        technique.id(),
        match &twin {
            Some(t) => format!(", native twin {}", t.id()),
            None => String::new(),
        }
    )?;
    run(&technique, twin.as_deref(), &source, args.rounds, out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Where the positions come from.
pub enum Source {
    /// The positions met solving each puzzle of a file with the default pipeline (its first
    /// `limit` puzzles when given).
    Puzzles {
        /// The puzzle file (`-` for stdin).
        path: PathBuf,
        /// Only the first N puzzles.
        limit: Option<usize>,
    },
    /// The cases of a HoDoKu library file with these codes.
    Library {
        /// The library file.
        path: PathBuf,
        /// The codes whose cases are read.
        codes: Vec<String>,
    },
}

/// The least time each side is measured for, summed over its rounds.
const MIN_TIME: Duration = Duration::from_millis(300);

/// Runs the bench and writes its report; the last line is
/// `<script id>: S us per search, <native id>: N us per search, ratio R`.
pub fn run(
    script: &ScriptTechnique,
    twin: Option<&dyn Technique>,
    source: &Source,
    rounds: usize,
    out: &mut impl Write,
) -> Result<()> {
    let (grids, from) = match source {
        Source::Puzzles { path, limit } => puzzle_positions(path, *limit)?,
        Source::Library { path, codes } => library_positions(path, codes)?,
    };
    if grids.is_empty() {
        bail!("no positions to time: {from} gave none");
    }
    writeln!(out, "{} positions ({from})", grids.len())?;
    // One untimed pass: checks every search succeeds and warms caches for both sides.
    let script_steps = count_steps(script, &grids)?;
    let twin_steps = match twin {
        Some(t) => Some(count_steps(t, &grids)?),
        None => None,
    };
    let rounds = rounds.max(1);
    let (mut script_best, mut twin_best) = (f64::INFINITY, f64::INFINITY);
    // Rounds alternate between the two, so a slow spell of a shared machine hits both.
    let (mut script_spent, mut twin_spent) = (Duration::ZERO, Duration::ZERO);
    let mut round = 0;
    while round < rounds || script_spent < MIN_TIME || (twin.is_some() && twin_spent < MIN_TIME) {
        let t = time_searches(script, &grids)?;
        script_spent += t;
        script_best = script_best.min(t.as_secs_f64());
        if let Some(native) = twin {
            let t = time_searches(native, &grids)?;
            twin_spent += t;
            twin_best = twin_best.min(t.as_secs_f64());
        }
        round += 1;
    }
    let per = |best: f64| best * 1e6 / grids.len() as f64;
    writeln!(
        out,
        "steps found: {} {script_steps}{}",
        script.id(),
        match (twin, twin_steps) {
            (Some(t), Some(n)) => format!(", {} {n}", t.id()),
            _ => String::new(),
        }
    )?;
    writeln!(out, "best of {round} rounds")?;
    match twin {
        Some(native) => writeln!(
            out,
            "{}: {:.2} us per search, {}: {:.2} us per search, ratio {:.1}",
            script.id(),
            per(script_best),
            native.id(),
            per(twin_best),
            script_best / twin_best
        )?,
        None => writeln!(
            out,
            "{}: {:.2} us per search (no native twin: pass --native ID)",
            script.id(),
            per(script_best)
        )?,
    }
    Ok(())
}

/// The steps `t` finds over `grids` (a full search at each), or the first error.
fn count_steps(t: &dyn Technique, grids: &[Grid]) -> Result<usize> {
    let mut n = 0;
    for (i, g) in grids.iter().enumerate() {
        n += find_all(t, g)
            .with_context(|| {
                format!(
                    "{} failed at position {} ({})",
                    t.id(),
                    i + 1,
                    lapiz::parse::format_grid_library_line(g)
                )
            })?
            .len();
    }
    Ok(n)
}

/// The time of one full search at each of `grids`.
fn time_searches(t: &dyn Technique, grids: &[Grid]) -> Result<Duration> {
    let start = Instant::now();
    for g in grids {
        std::hint::black_box(find_all(t, g).with_context(|| format!("{} failed", t.id()))?);
    }
    Ok(start.elapsed())
}

/// The positions met solving the puzzles of a file, and a description of them.
fn puzzle_positions(path: &Path, limit: Option<usize>) -> Result<(Vec<Grid>, String)> {
    let input = crate::cli::batch::open_input(path)?;
    let pipeline = Pipeline::default_pipeline();
    let (mut grids, mut puzzles, mut skipped) = (Vec::new(), 0usize, 0usize);
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        let Some(text) = crate::cli::batch::puzzle_of_line(&line) else {
            continue;
        };
        if limit.is_some_and(|l| puzzles >= l) {
            break;
        }
        puzzles += 1;
        match parse_puzzle(text)
            .ok()
            .and_then(|g| positions(&g, &pipeline))
        {
            Some((g, _)) => grids.extend(g),
            None => {
                skipped += 1;
                eprintln!(
                    "{}:{}: skipped (not a puzzle with one solution): {}",
                    path.display(),
                    i + 1,
                    printable(text)
                );
            }
        }
    }
    let mut from = format!("met solving {puzzles} puzzles of {}", path.display());
    if skipped > 0 {
        from.push_str(&format!(", {skipped} skipped"));
    }
    Ok((grids, from))
}

/// The start positions of the library cases with `codes`, and a description of them.
fn library_positions(path: &Path, codes: &[String]) -> Result<(Vec<Grid>, String)> {
    if codes.is_empty() {
        bail!("the script declares no CODES: pass --code CODE or --file PUZZLES");
    }
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read the library {} (pass --reglib LIBFILE or set LAPIZ_DATA)",
            path.display()
        )
    })?;
    let (mut grids, mut unreadable) = (Vec::new(), 0usize);
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // A line that cannot be read is counted, not fatal: it may be of another code.
        match parse_library_line(line) {
            Ok(case) if codes.contains(&case.code) => grids.push(case.grid),
            Ok(_) => {}
            Err(_) => unreadable += 1,
        }
    }
    let mut from = format!("library cases of {} in {}", codes.join(","), path.display());
    if unreadable > 0 {
        from.push_str(&format!(", {unreadable} unreadable lines"));
    }
    Ok((grids, from))
}
