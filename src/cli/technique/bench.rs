//! `lapiz technique bench`: times the full search of a technique script, or of each technique
//! of a plugin library, against its native twin over the same positions, so an author sees
//! what the technique costs; with `--solve`, whole solves of the default pipeline with the
//! technique in place of its twin against the default pipeline; with `--profile`, where a
//! script's operations go, line by line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

use lapiz::Puzzle;
use lapiz::engine::Pipeline;
use lapiz::plugin::PluginMode;
use lapiz::script::{Evaluator, ScriptTechnique};
use lapiz::technique::Technique;
use lapiz::text::parse_library_line;
use lapiz::text::printable;
use lapiz::tools::SizedGrid;
use lapiz::tools::solve_positions;

use crate::cli::stop::LimitArgs;

use crate::cli::diag;
use crate::cli::sized::SizeArgs;

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
    /// (`-` for stdin). Puzzles of every size (4x4 to 25x25).
    #[arg(long, value_name = "PUZZLES")]
    pub file: Option<PathBuf>,
    /// How to read the puzzles of --file of other sizes than 9x9.
    #[command(flatten)]
    pub size: SizeArgs,
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
    /// Timed rounds for each side, 1 to 10000 (more are run until each side has had 0.3 s).
    #[arg(long, default_value_t = 3, value_parser = parse_rounds)]
    pub rounds: usize,
    /// The time limit of each puzzle's solve (the puzzles of --file whose solve is stopped
    /// are left out, saying so).
    #[command(flatten)]
    pub time: LimitArgs,
    /// Time whole solves of the puzzles of --file instead of searches: the default pipeline
    /// with the technique in place of its twin against the default pipeline, rounds
    /// alternating. The last line: `<id> in place of <twin>: S ms per solve, default
    /// pipeline: D ms per solve, ratio R`.
    #[arg(long, requires = "file")]
    pub solve: bool,
    /// How a script's `find` is evaluated: by Rhai's tree interpreter, on its bytecode VM, or
    /// both, timed side by side (default: as a pipeline runs scripts, on the interpreter).
    #[arg(long, value_enum)]
    pub evaluator: Option<EvaluatorArg>,
    /// Instead of timing, count where a script's operations go over the positions, line by
    /// line and function by function, most first.
    #[arg(long, conflicts_with_all = ["solve", "native"])]
    pub profile: bool,
}

/// The most rounds `--rounds` takes.
const MAX_ROUNDS: usize = 10_000;

/// Reads `--rounds`: a whole number from 1 to [`MAX_ROUNDS`].
fn parse_rounds(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_ROUNDS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a number of rounds from 1 to {MAX_ROUNDS}"
        )),
    }
}

/// The choices of `--evaluator`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvaluatorArg {
    /// Rhai's bytecode VM.
    Bytecode,
    /// Rhai's tree-walking interpreter.
    Tree,
    /// Both, side by side.
    Both,
}

/// Loads the script at `path` to be evaluated with `evaluator`.
fn script_with(path: &Path, evaluator: Evaluator) -> Result<Box<dyn Technique>> {
    let mut script = ScriptTechnique::load(path)?;
    script.set_evaluator(evaluator);
    Ok(Box::new(script))
}

/// Runs `lapiz technique bench`: loads the script or library, then for each technique names
/// it and its twin and times them.
pub fn command(args: BenchArgs, out: &mut impl Write) -> Result<ExitCode> {
    let mut subject = super::Subject::load(&args.script, args.id.as_deref())?;
    if subject.mode.is_some() && (args.evaluator.is_some() || args.profile) {
        bail!(
            "{}: --evaluator and --profile are for scripts, not plugin libraries",
            args.script.display()
        );
    }
    match args.evaluator {
        Some(EvaluatorArg::Tree) => {
            subject.techniques = vec![script_with(&args.script, Evaluator::Tree)?];
        }
        Some(EvaluatorArg::Bytecode | EvaluatorArg::Both) => {
            subject.techniques = vec![script_with(&args.script, Evaluator::Bytecode)?];
        }
        None => {}
    }
    // with `both`, the script once more, on the interpreter
    let tree = match args.evaluator {
        Some(EvaluatorArg::Both) => Some(script_with(&args.script, Evaluator::Tree)?),
        _ => None,
    };
    if args.solve {
        return solve_command(&args, subject, tree, out);
    }
    // the positions of a puzzle file are the same for every technique: found once
    let puzzles = match &args.file {
        Some(path) => Some(puzzle_positions(path, (args.limit, args.time), &args.size)?),
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
        if args.profile {
            profile(&args.script, grids, from, out)?;
        } else {
            run(
                technique,
                tree.as_deref(),
                twin.as_deref(),
                grids,
                from,
                args.rounds,
                out,
            )?;
        }
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

/// Times `script` (a script's or a plugin's technique), `tree` (the script on the interpreter,
/// reported on the line before the last) and `twin` over `grids` (`from` says where they come
/// from), in the same rounds, and writes the report; the last line is
/// `<id>: S us per search, <native id>: N us per search, ratio R`.
fn run(
    script: &dyn Technique,
    tree: Option<&dyn Technique>,
    twin: Option<&dyn Technique>,
    grids: &[SizedGrid],
    from: &str,
    rounds: usize,
    out: &mut impl Write,
) -> Result<()> {
    if grids.is_empty() {
        bail!("no positions to time: {from} gave none");
    }
    let sides = [Some(script), tree, twin];
    for t in sides.iter().flatten() {
        if let Some(g) = grids.iter().find(|g| !t.runs_on(g.n())) {
            let n = g.n();
            bail!(
                "{} does not run on {n}x{n} boards, and {from} include some{}",
                t.id(),
                match twin {
                    Some(w) if w.id() == t.id() => " (--native none times the script alone)",
                    _ => "",
                }
            );
        }
    }
    writeln!(out, "{} positions ({})", grids.len(), printable(from))?;
    // One untimed pass: checks every search succeeds and warms caches for every side.
    let script_steps = count_steps(script, grids)?;
    if let Some(t) = tree {
        count_steps(t, grids)?;
    }
    let twin_steps = match twin {
        Some(t) => Some(count_steps(t, grids)?),
        None => None,
    };
    let sides: Vec<&dyn Technique> = [Some(script), tree, twin].into_iter().flatten().collect();
    let mut timers: Vec<Box<dyn FnMut() -> Result<()> + '_>> = sides
        .iter()
        .map(|&t| Box::new(move || time_searches(t, grids)) as Box<dyn FnMut() -> Result<()>>)
        .collect();
    let (best, round) = alternate(&mut timers, rounds)?;
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
    if tree.is_some() {
        writeln!(
            out,
            "{} on the tree interpreter: {:.2} us per search, on the bytecode VM: {:.2} us per search, ratio {:.2}",
            script.id(),
            per(best[1]),
            per(best[0]),
            best[1] / best[0]
        )?;
    }
    match twin {
        Some(native) => {
            let twin_best = best[best.len() - 1];
            writeln!(
                out,
                "{}: {:.2} us per search, {}: {:.2} us per search, ratio {:.1}",
                script.id(),
                per(best[0]),
                native.id(),
                per(twin_best),
                best[0] / twin_best
            )?
        }
        None => writeln!(
            out,
            "{}: {:.2} us per search (no native twin: pass --native ID)",
            script.id(),
            per(best[0])
        )?,
    }
    Ok(())
}

/// Runs each of `sides` in turn, round after round (so a slow spell of a shared machine hits
/// them all), at least `rounds` times and until each has had [`MIN_TIME`]; the best time of
/// each in seconds, and the rounds run.
fn alternate(
    sides: &mut [Box<dyn FnMut() -> Result<()> + '_>],
    rounds: usize,
) -> Result<(Vec<f64>, usize)> {
    let mut best = vec![f64::INFINITY; sides.len()];
    let mut spent = vec![Duration::ZERO; sides.len()];
    let mut round = 0;
    while round < rounds.max(1) || spent.iter().any(|&s| s < MIN_TIME) {
        for (i, side) in sides.iter_mut().enumerate() {
            let start = Instant::now();
            side()?;
            let t = start.elapsed();
            spent[i] += t;
            best[i] = best[i].min(t.as_secs_f64());
        }
        round += 1;
    }
    Ok((best, round))
}

/// The steps `t` finds over `grids` (a full search at each), or the first error.
fn count_steps(t: &dyn Technique, grids: &[SizedGrid]) -> Result<usize> {
    let mut n = 0;
    for (i, g) in grids.iter().enumerate() {
        n += g
            .find_all(t)
            .with_context(|| {
                let at = match g {
                    SizedGrid::S9(g) => format!(" ({})", lapiz::text::format_grid_library_line(g)),
                    _ => String::new(),
                };
                format!("{} failed at position {}{at}", t.id(), i + 1)
            })?
            .len();
    }
    Ok(n)
}

/// One full search at each of `grids`.
fn time_searches(t: &dyn Technique, grids: &[SizedGrid]) -> Result<()> {
    for g in grids {
        std::hint::black_box(
            g.find_all(t)
                .with_context(|| format!("{} failed", t.id()))?,
        );
    }
    Ok(())
}

/// The puzzle texts of a file's lines, with their line numbers: a line that cannot be read
/// is reported and skipped, one with no puzzle (blank, a comment) left out.
fn puzzle_lines(path: &Path) -> Result<impl Iterator<Item = Result<(usize, String)>> + '_> {
    let input = crate::cli::batch::open_input(path)?;
    Ok(
        crate::cli::batch::capped_lines(input).filter_map(move |line| {
            let (number, line) = match line {
                Ok(read) => read,
                Err(e) => {
                    return Some(Err(e).with_context(|| format!("cannot read {}", path.display())));
                }
            };
            match line {
                Ok(line) => {
                    crate::cli::batch::puzzle_of_line(&line).map(|t| Ok((number, t.to_string())))
                }
                Err(why) => {
                    diag(&format!(
                        "{}: skipped: {why}",
                        crate::cli::batch::line_ref(path, number)
                    ));
                    None
                }
            }
        }),
    )
}

/// The positions met solving the puzzles of a file (of any size, read with `size`), and a
/// description of them.
fn puzzle_positions(
    path: &Path,
    (limit, time): (Option<usize>, LimitArgs),
    size: &SizeArgs,
) -> Result<(Vec<SizedGrid>, String)> {
    let pipeline = Pipeline::default_pipeline();
    let (mut grids, mut puzzles, mut skipped) = (Vec::new(), 0usize, 0usize);
    for line in puzzle_lines(path)? {
        let (number, text) = line?;
        let (i, text) = (number - 1, text.as_str());
        if limit.is_some_and(|l| puzzles >= l) {
            break;
        }
        puzzles += 1;
        let solved = size.read(text).ok().map(|p| {
            time.stop()
                .run(|| solve_positions(&p, &pipeline))
                .map_err(|cause| format!("stopped ({cause})"))
        });
        match solved {
            Some(Ok(Some(solve))) => grids.extend(solve.grids),
            Some(Err(why)) => {
                skipped += 1;
                diag(&format!(
                    "{}: skipped ({why}): {}",
                    crate::cli::batch::line_ref(path, i + 1),
                    printable(text)
                ));
            }
            _ => {
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
fn library_positions(id: &str, path: &Path, codes: &[String]) -> Result<(Vec<SizedGrid>, String)> {
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
            Ok(case) if codes.contains(&case.code) => {
                grids.push(SizedGrid::S9(Box::new(case.grid)))
            }
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

/// Samples per position for `--profile`.
const PROFILE_SAMPLES: u64 = 64;

/// `--profile`: where the script at `path` spends its operations over `grids`, by line (with
/// the line's text) and by function, most first.
fn profile(path: &Path, grids: &[SizedGrid], from: &str, out: &mut impl Write) -> Result<()> {
    if grids.is_empty() {
        bail!("no positions to profile: {from} gave none");
    }
    let grids: Vec<&lapiz::Grid> = grids
        .iter()
        .map(|g| match g {
            SizedGrid::S9(g) => Ok(&**g),
            other => bail!(
                "--profile counts a script's operations on 9x9 positions only; {from} include {n}x{n} ones",
                n = other.n()
            ),
        })
        .collect::<Result<_>>()?;
    let script = ScriptTechnique::load(path)?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut profile = lapiz::script::Profile::default();
    for g in &grids {
        script.profile(g, PROFILE_SAMPLES, &mut profile)?;
    }
    writeln!(out, "{} positions ({})", grids.len(), printable(from))?;
    writeln!(
        out,
        "{} operations, {:.0} per search; estimated from {} samples (up to {PROFILE_SAMPLES} per search)",
        profile.operations,
        profile.operations as f64 / grids.len() as f64,
        profile.samples
    )?;
    let share = |n: u64| 100.0 * n as f64 / profile.operations.max(1) as f64;
    let mut functions: Vec<_> = profile.functions.iter().collect();
    functions.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    writeln!(out, "by function:")?;
    for (name, n) in functions {
        writeln!(out, "  {:5.1}%  {}", share(*n), printable(name))?;
    }
    let mut lines: Vec<_> = profile.lines.iter().collect();
    lines.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    writeln!(out, "by line:")?;
    for (line, n) in lines {
        let source = match *line {
            0 => "(no line recorded: loop steps and operators the VM runs without one)",
            l => text.lines().nth(l - 1).map_or("", str::trim),
        };
        writeln!(
            out,
            "  {:5.1}%  {line:>4}: {}",
            share(*n),
            printable(source)
        )?;
    }
    Ok(())
}

/// `--solve`: for each technique of `subject`, whole solves of the default pipeline with it
/// (and with `tree`, the script on the interpreter, when given) in place of its twin, against
/// the default pipeline, over the puzzles of `--file`.
fn solve_command(
    args: &BenchArgs,
    subject: super::Subject,
    tree: Option<Box<dyn Technique>>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let path = args
        .file
        .as_deref()
        .expect("clap requires --file with --solve");
    let (puzzles, from) = read_puzzles(path, args.limit, &args.size)?;
    if puzzles.is_empty() {
        bail!("no puzzles to solve in {}", path.display());
    }
    let label = subject.label();
    let mut tree = tree;
    for (k, technique) in subject.techniques.into_iter().enumerate() {
        let Some(twin) = super::twin_of(technique.as_ref(), args.native.as_deref(), "--native")?
        else {
            bail!(
                "{}: no native twin to replace (pass --native ID)",
                technique.id()
            );
        };
        if k > 0 {
            writeln!(out)?;
        }
        let (id, twin_id) = (technique.id().to_string(), twin.id().to_string());
        writeln!(
            out,
            "{label}: {id} in place of {twin_id} in the default pipeline"
        )?;
        writeln!(out, "{} puzzles ({})", puzzles.len(), printable(&from))?;
        let mut pipelines = vec![with_in_place(technique, &twin_id)?];
        if let Some(t) = tree.take() {
            pipelines.push(with_in_place(t, &twin_id)?);
        }
        pipelines.push(Pipeline::default_pipeline());
        // One untimed pass: what each solves, and any failure of the technique.
        for (i, p) in pipelines.iter().enumerate() {
            let (mut solved, mut steps, mut failures) = (0usize, 0usize, 0usize);
            for g in &puzzles {
                let trace = g.solve_until(p, &args.time.stop());
                solved += usize::from(trace.is_solved());
                steps += trace.steps().count();
                failures += trace
                    .entries
                    .iter()
                    .filter(|e| matches!(e, lapiz::engine::Entry::Failed { .. }))
                    .count();
            }
            let name = match (i, pipelines.len() - i) {
                (_, 1) => "default pipeline".to_string(),
                (0, _) => format!("with {id}"),
                _ => format!("with {id} on the tree interpreter"),
            };
            writeln!(
                out,
                "{name}: {solved} solved, {steps} steps{}",
                if failures > 0 {
                    format!(", {failures} failures of a technique (see `lapiz solve`)")
                } else {
                    String::new()
                }
            )?;
        }
        let puzzles = &puzzles;
        let mut timers: Vec<Box<dyn FnMut() -> Result<()> + '_>> = pipelines
            .iter()
            .map(|p| {
                Box::new(move || {
                    for g in puzzles {
                        std::hint::black_box(g.solve_until(p, &args.time.stop()));
                    }
                    Ok(())
                }) as Box<dyn FnMut() -> Result<()>>
            })
            .collect();
        let (best, round) = alternate(&mut timers, args.rounds)?;
        let per = |b: f64| b * 1e3 / puzzles.len() as f64;
        let base = best[best.len() - 1];
        writeln!(out, "best of {round} rounds")?;
        if best.len() == 3 {
            writeln!(
                out,
                "{id} on the tree interpreter in place of {twin_id}: {:.3} ms per solve, default pipeline: {:.3} ms per solve, ratio {:.3}",
                per(best[1]),
                per(base),
                best[1] / base
            )?;
        }
        writeln!(
            out,
            "{id} in place of {twin_id}: {:.3} ms per solve, default pipeline: {:.3} ms per solve, ratio {:.3}",
            per(best[0]),
            per(base),
            best[0] / base
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The default pipeline with `technique` in place of `twin`.
fn with_in_place(technique: Box<dyn Technique>, twin: &str) -> Result<Pipeline> {
    let id = technique.id().to_string();
    let mut pipeline = Pipeline::default_pipeline();
    if pipeline.replace(twin, technique)?.is_none() {
        bail!("{twin} (the twin of {id}) is not in the default pipeline: nothing to replace");
    }
    Ok(pipeline)
}

/// The puzzles of a file (at most `limit`, of any size, read with `size`) and a description
/// of them; a line that is not a puzzle is reported and skipped.
fn read_puzzles(
    path: &Path,
    limit: Option<usize>,
    size: &SizeArgs,
) -> Result<(Vec<Puzzle>, String)> {
    let (mut grids, mut skipped) = (Vec::new(), 0usize);
    for line in puzzle_lines(path)? {
        let (number, text) = line?;
        let (i, text) = (number - 1, text.as_str());
        if limit.is_some_and(|l| grids.len() + skipped >= l) {
            break;
        }
        match size.read(text) {
            Ok(g) => grids.push(g),
            Err(_) => {
                skipped += 1;
                diag(&format!(
                    "{}: skipped (not a puzzle): {}",
                    crate::cli::batch::line_ref(path, i + 1),
                    printable(text)
                ));
            }
        }
    }
    let mut from = format!("the first {} of {}", grids.len() + skipped, path.display());
    if skipped > 0 {
        from.push_str(&format!(", {skipped} skipped"));
    }
    Ok((grids, from))
}
