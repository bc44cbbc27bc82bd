//! `lapiz technique bench`: times the full search of a technique script, or of each technique
//! of a plugin library, against its native twin over the same positions, so an author sees
//! what the technique costs.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;

use lapiz::Grid;
use lapiz::parse::{parse_library_line, parse_puzzle};
use lapiz::pipeline::Pipeline;
use lapiz::plugin::PluginMode;
use lapiz::printable::printable;
use lapiz::script::check::positions;
use lapiz::technique::{Technique, find_all};

use crate::cli::diag;

/// Arguments of `lapiz technique bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// A technique script (e.g. techniques/x-wing.rhai) or a plugin library (e.g.
    /// liblapiz_example_c.so; loaded in the mode --plugin-mode gives, a host by default).
    #[arg(value_name = "SCRIPT|LIBRARY")]
    pub script: PathBuf,
    /// The technique of the plugin library to time (default: each in turn).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
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
    /// Library codes to read (repeatable; default: the technique's codes, a script's CODES).
    #[arg(long = "code", value_name = "CODE", conflicts_with = "file")]
    pub codes: Vec<String>,
    /// The built-in technique to time against (default: as `check --compare`; `none` to
    /// time the technique alone).
    #[arg(long, value_name = "ID")]
    pub native: Option<String>,
    /// Timed rounds for each side (more are run until each side has had 0.3 s).
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// Runs `lapiz technique bench`: loads the script or library, then for each technique names
/// it and its twin and times them.
pub fn command(args: BenchArgs, out: &mut impl Write) -> Result<ExitCode> {
    let subject = super::Subject::load(&args.script, args.id.as_deref())?;
    // the positions of a puzzle file are the same for every technique: found once
    let puzzles = match &args.file {
        Some(path) => Some(puzzle_positions(path, args.limit)?),
        None => None,
    };
    let mut timed = 0usize;
    for (k, technique) in subject.techniques.iter().enumerate() {
        let technique = technique.as_ref();
        let twin = super::twin_of(technique, args.native.as_deref(), "--native")?;
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}: {}{}",
            subject.label(),
            technique.id(),
            match &twin {
                Some(t) => format!(", native twin {}", t.id()),
                None => String::new(),
            }
        )?;
        if subject.mode == Some(PluginMode::Host) {
            writeln!(
                out,
                "each search of {} crosses a process boundary to its plugin host; `--plugin-mode in-process` times the search alone",
                technique.id()
            )?;
        }
        let library;
        let (grids, from) = match &puzzles {
            Some(p) => p,
            None => {
                let codes = if args.codes.is_empty() {
                    technique.library_codes()
                } else {
                    args.codes.clone()
                };
                // one of several techniques without codes is passed over, saying so
                if codes.is_empty() && subject.techniques.len() > 1 {
                    writeln!(
                        out,
                        "`{}` declares no library codes: not timed (pass --code CODE or --file PUZZLES)",
                        technique.id()
                    )?;
                    continue;
                }
                let path = args.reglib.clone().unwrap_or_else(super::default_library);
                library = library_positions(technique.id(), &path, &codes)?;
                &library
            }
        };
        run(technique, twin.as_deref(), grids, from, args.rounds, out)?;
        timed += 1;
    }
    out.flush()?;
    if timed == 0 {
        bail!(
            "{}: none of its techniques declares library codes: pass --code CODE or --file PUZZLES",
            subject.path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The least time each side is measured for, summed over its rounds.
const MIN_TIME: Duration = Duration::from_millis(300);

/// Times `script` (a script's or a plugin's technique) and `twin` over `grids` (`from` says
/// where they come from) and writes the report; the last line is
/// `<id>: S us per search, <native id>: N us per search, ratio R`.
pub fn run(
    script: &dyn Technique,
    twin: Option<&dyn Technique>,
    grids: &[Grid],
    from: &str,
    rounds: usize,
    out: &mut impl Write,
) -> Result<()> {
    if grids.is_empty() {
        bail!("no positions to time: {from} gave none");
    }
    writeln!(out, "{} positions ({})", grids.len(), printable(from))?;
    // One untimed pass: checks every search succeeds and warms caches for both sides.
    let script_steps = count_steps(script, grids)?;
    let twin_steps = match twin {
        Some(t) => Some(count_steps(t, grids)?),
        None => None,
    };
    let rounds = rounds.max(1);
    let (mut script_best, mut twin_best) = (f64::INFINITY, f64::INFINITY);
    // Rounds alternate between the two, so a slow spell of a shared machine hits both.
    let (mut script_spent, mut twin_spent) = (Duration::ZERO, Duration::ZERO);
    let mut round = 0;
    while round < rounds || script_spent < MIN_TIME || (twin.is_some() && twin_spent < MIN_TIME) {
        let t = time_searches(script, grids)?;
        script_spent += t;
        script_best = script_best.min(t.as_secs_f64());
        if let Some(native) = twin {
            let t = time_searches(native, grids)?;
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
                diag(&format!(
                    "{}: skipped (not a puzzle with one solution): {}",
                    crate::cli::batch::line_ref(path, i + 1),
                    printable(text)
                ));
            }
        }
    }
    let mut from = format!("met solving {puzzles} puzzles of {}", path.display());
    if skipped > 0 {
        from.push_str(&format!(", {skipped} skipped"));
    }
    Ok((grids, from))
}

/// The start positions of the library cases with `codes` (those technique `id` answers),
/// and a description of them.
fn library_positions(id: &str, path: &Path, codes: &[String]) -> Result<(Vec<Grid>, String)> {
    if codes.is_empty() {
        bail!("`{id}` declares no library codes: pass --code CODE or --file PUZZLES");
    }
    let text = super::read_library_text(path)?;
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
