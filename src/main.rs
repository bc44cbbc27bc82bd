//! The `lapiz` command line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use lapiz::engine::solve_grid;
use lapiz::html::{PageKind, trace_page};
use lapiz::parse::{format_pencil_marks, parse_puzzle};
use lapiz::pipeline::Pipeline;
use lapiz::printable::printable;
use lapiz::reglib::{CaseResult, Tally, check_case, expected_text, run_library_with};
use lapiz::script::ScriptTechnique;
use lapiz::script::check::{changes, changes_text, positions};
use lapiz::solver::count_solutions;
use lapiz::technique::{Technique, find_all};
use lapiz::trace::{GridDisplay, Outcome};

mod cli;

/// lapiz: solves Sudoku the way a strong human does and explains every move.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Worker threads for file and batch commands (default: all cores, or
    /// `RAYON_NUM_THREADS`).
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    /// Where plugin searches run: `host` (a separate process with time and memory limits)
    /// or `in-process` (direct calls, for trusted plugins). Overrides the pipeline's
    /// `plugin_mode`, which is `Host` unless it says otherwise.
    #[arg(long, global = true, value_enum, value_name = "MODE")]
    plugin_mode: Option<PluginModeArg>,
    /// Seconds one plugin search may take in its host before the host is stopped and the
    /// technique disabled for that solve.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = lapiz::plugin::host::DEFAULT_TIME_LIMIT.as_secs_f64(), value_parser = parse_seconds)]
    plugin_time_limit: f64,
    /// A plugin host's memory limit in MiB (Unix; 0 for none).
    #[arg(long, global = true, value_name = "MIB", default_value_t = lapiz::plugin::host::DEFAULT_MEMORY_LIMIT_MIB)]
    plugin_memory: u64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum PluginModeArg {
    /// A separate plugin host process per library and thread.
    Host,
    /// Direct calls inside lapiz.
    InProcess,
}

/// A time limit in seconds: positive and finite.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds above 0")),
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
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
enum GridWhen {
    /// After every step.
    Every,
    /// Only where the solve gets stuck.
    Stuck,
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
        /// Also write the solve as an HTML page to this file (single puzzle only).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// When the text trace prints the pencil marks: after every step, or only where the
        /// solve gets stuck (single puzzle only).
        #[arg(long, value_enum, default_value = "stuck")]
        grid: GridWhen,
        /// A pipeline RON file instead of the default one.
        #[arg(long)]
        pipeline: Option<PathBuf>,
        /// Also try this technique script (repeatable); it goes in difficulty order, before
        /// the first technique at least as hard (so before a built-in twin).
        #[arg(long = "technique", value_name = "FILE")]
        scripts: Vec<PathBuf>,
        /// Also load this technique plugin library (repeatable); its techniques go in
        /// difficulty order. A plugin that fails to load is reported and left out.
        #[arg(long = "plugin", value_name = "FILE")]
        plugins: Vec<PathBuf>,
    },
    /// The next step of a puzzle (or of a grid being solved, with its pencil marks): its
    /// explanation, or with `--level nudge` only the technique and where to look.
    Hint(cli::hint::HintArgs),
    /// Print the pencil-mark grid of a puzzle.
    Candidates {
        /// The puzzle.
        puzzle: String,
    },
    /// Rate puzzles: hardest step, level, score, hardest technique, technique counts.
    Rate(cli::RateArgs),
    /// Generate puzzles with one solution (minimal by default), optionally to a target.
    Generate(cli::GenerateArgs),
    /// The canonical form of a puzzle (equal for equivalent puzzles), to find duplicates.
    Canonical(cli::CanonicalArgs),
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
        /// Test this plugin library's techniques instead of the built-ins (repeatable; with
        /// --pipeline, in addition to the pipeline's).
        #[arg(long = "plugin", value_name = "FILE")]
        plugins: Vec<PathBuf>,
    },
    /// List the pipeline's techniques in order.
    Techniques {
        /// A pipeline RON file instead of the default one.
        #[arg(long)]
        pipeline: Option<PathBuf>,
        /// Also list this technique script where `solve --technique` puts it (repeatable).
        #[arg(long = "technique", value_name = "FILE")]
        scripts: Vec<PathBuf>,
        /// Also list this plugin's techniques where `solve --plugin` puts them (repeatable).
        #[arg(long = "plugin", value_name = "FILE")]
        plugins: Vec<PathBuf>,
    },
    /// Work on technique scripts.
    Technique {
        #[command(subcommand)]
        command: TechniqueCommand,
    },
    /// Serve one plugin library's searches over stdin and stdout (started by lapiz itself).
    #[command(hide = true)]
    PluginHost {
        /// The host's address-space limit in MiB (0 for none).
        #[arg(long, default_value_t = 0)]
        memory_mib: u64,
        /// The plugin library.
        library: PathBuf,
    },
}

#[derive(Subcommand)]
enum TechniqueCommand {
    /// Run a technique script over HoDoKu library cases (default: the script's CODES in the
    /// shared reglib-1.4-dev.txt) or over the positions met solving a puzzle file, and report
    /// where it fires, what it finds, misses, disagreements and unsound steps.
    Check {
        /// The script, e.g. techniques/x-wing.rhai.
        script: PathBuf,
        /// The library file (default: $LAPIZ_DATA/reglib/reglib-1.4-dev.txt, else
        /// ../shared/data/reglib/reglib-1.4-dev.txt).
        #[arg(long, value_name = "LIBFILE", conflicts_with = "file")]
        reglib: Option<PathBuf>,
        /// Library codes to run (repeatable; default: the script's CODES).
        #[arg(long = "code", value_name = "CODE", conflicts_with = "file")]
        codes: Vec<String>,
        /// A puzzle file instead: the script runs at every position met while solving each
        /// puzzle with the default pipeline (`-` for stdin).
        #[arg(long, value_name = "PUZZLES")]
        file: Option<PathBuf>,
        /// Only the first N puzzles of the file.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// The built-in technique to compare with (default: the id without `-script`, else
        /// a built-in answering the same code; `none` to compare with nothing).
        #[arg(long, value_name = "ID")]
        compare: Option<String>,
        /// Print every step found and every disagreement.
        #[arg(long)]
        verbose: bool,
    },
    /// Time a technique script's full search and its native twin's over the same positions:
    /// those met solving a puzzle file (`--file`), else the library cases of the script's
    /// codes. The last line: `<script>: S us per search, <native>: N us per search, ratio R`.
    Bench {
        /// The script, e.g. techniques/x-wing.rhai.
        script: PathBuf,
        /// A puzzle file: the positions met solving each puzzle with the default pipeline
        /// (`-` for stdin).
        #[arg(long, value_name = "PUZZLES")]
        file: Option<PathBuf>,
        /// Only the first N puzzles of the file.
        #[arg(long, value_name = "N", requires = "file")]
        limit: Option<usize>,
        /// The library file when no --file is given (default: the shared reglib-1.4-dev.txt).
        #[arg(long, value_name = "LIBFILE", conflicts_with = "file")]
        reglib: Option<PathBuf>,
        /// Library codes to read (repeatable; default: the script's CODES).
        #[arg(long = "code", value_name = "CODE", conflicts_with = "file")]
        codes: Vec<String>,
        /// The built-in technique to time against (default: as `check --compare`; `none` to
        /// time the script alone).
        #[arg(long, value_name = "ID")]
        native: Option<String>,
        /// Timed rounds for each side (more are run until each side has had 0.3 s).
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let defaults = lapiz::plugin::host::settings();
    lapiz::plugin::host::configure(lapiz::plugin::HostSettings {
        time_limit: std::time::Duration::from_secs_f64(cli.plugin_time_limit),
        memory_limit_mib: cli.plugin_memory,
        force_mode: cli.plugin_mode.map(|m| match m {
            PluginModeArg::Host => lapiz::plugin::PluginMode::Host,
            PluginModeArg::InProcess => lapiz::plugin::PluginMode::InProcess,
        }),
        ..defaults
    });
    if let Some(n) = cli.threads
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
    {
        eprintln!("error: cannot start {n} threads: {e}");
        return ExitCode::from(cli::exit::ERROR);
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", printable(&format!("{e:#}")));
            ExitCode::from(cli::exit::ERROR)
        }
    }
}

fn load_pipeline(path: Option<&Path>) -> Result<Pipeline> {
    load_pipeline_or(path, "default")
}

/// The pipeline `--pipeline` names (a file, or `default` or `se` for an embedded one when no
/// such file exists), or the embedded `fallback` without the option.
fn load_pipeline_or(path: Option<&Path>, fallback: &str) -> Result<Pipeline> {
    let embedded = |name: &str| Pipeline::embedded(name).expect("an embedded pipeline");
    Ok(match path {
        Some(p) if !p.exists() && p.to_str().and_then(Pipeline::embedded).is_some() => {
            embedded(p.to_str().unwrap_or_default())
        }
        Some(p) => Pipeline::from_file(p)?,
        None => embedded(fallback),
    })
}

/// The pipeline with the `--technique` scripts and `--plugin` libraries added in difficulty
/// order, each before the first technique at least as hard as it. A plugin that fails to load
/// and anything else the pipeline left out are reported on stderr; the rest goes on.
fn load_pipeline_with(
    path: Option<&Path>,
    scripts: &[PathBuf],
    plugins: &[PathBuf],
) -> Result<Pipeline> {
    let mut pipeline = load_pipeline(path)?;
    for file in plugins {
        if let Err(e) = pipeline.add_plugin(file) {
            pipeline.warnings.push(format!("{e}; going on without it"));
        }
    }
    for w in &pipeline.warnings {
        eprintln!("warning: {}", printable(w));
    }
    for file in scripts {
        let t = ScriptTechnique::load(file)?;
        if pipeline.techniques.iter().any(|o| o.id() == t.id()) {
            bail!(
                "{}: technique id `{}` is already in the pipeline",
                file.display(),
                t.id()
            );
        }
        pipeline.insert_by_difficulty(Box::new(t));
    }
    Ok(pipeline)
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
/// is 81 characters long. A HoDoKu library line (starting with `:`) is kept whole.
fn puzzle_of_line(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    if t.starts_with(':') {
        // a HoDoKu library line: its fields may hold spaces
        return Some(t);
    }
    match t.split_whitespace().next() {
        Some(first) if first.len() == 81 => Some(first),
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
            html,
            grid: grid_when,
            pipeline,
            scripts,
            plugins,
        } => {
            let pipeline = load_pipeline_with(pipeline.as_deref(), &scripts, &plugins)?;
            if let Some(file) = file {
                if trace.is_some() {
                    bail!("--trace writes one puzzle's trace; use --format ron with --file");
                }
                if html.is_some() || format == Format::Html {
                    bail!(
                        "an HTML page shows one puzzle's solve; use --format text or ron with --file"
                    );
                }
                return solve_file(&file, &pipeline, format, &mut out);
            }
            let text = puzzle.expect("clap requires a puzzle without --file");
            let grid = match parse_puzzle(&text) {
                Ok(g) => g,
                Err(e) => {
                    let reason = format!("cannot read the puzzle: {e}{}", cli::file_hint(&text));
                    if format == Format::Html || html.is_some() {
                        // the page says what is wrong, as the error does
                        let t =
                            lapiz::engine::invalid_trace(text.clone(), &pipeline, reason.clone());
                        let page = trace_page(&t, None, PageKind::Solve);
                        if let Some(path) = &html {
                            std::fs::write(path, &page)
                                .with_context(|| format!("cannot write {}", path.display()))?;
                        }
                        if format == Format::Html {
                            out.write_all(page.as_bytes())?;
                            out.flush()?;
                        }
                    }
                    return Ok(cli::invalid_input(&reason));
                }
            };
            let t = solve_grid(&grid, &pipeline);
            if let Some(path) = &trace {
                std::fs::write(path, t.to_ron())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            if let Some(path) = &html {
                std::fs::write(path, trace_page(&t, Some(&grid), PageKind::Solve))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            match format {
                Format::Text => {
                    let grids = match grid_when {
                        GridWhen::Every => GridDisplay::Every,
                        GridWhen::Stuck => GridDisplay::Stuck,
                    };
                    write!(out, "{}", t.to_text_with(Some(&grid), grids))?
                }
                Format::Ron => write!(out, "{}", t.to_ron())?,
                Format::Html => write!(out, "{}", trace_page(&t, Some(&grid), PageKind::Solve))?,
            }
            out.flush()?;
            if let Outcome::Invalid { reason } = &t.outcome {
                return Ok(cli::invalid_input(&format!("invalid puzzle: {reason}")));
            }
        }
        Command::PluginHost {
            memory_mib,
            library,
        } => {
            drop(out);
            return Ok(ExitCode::from(lapiz::plugin::host::serve(
                &library, memory_mib,
            )));
        }
        Command::Hint(args) => {
            let pipeline =
                load_pipeline_with(args.pipeline.as_deref(), &args.scripts, &args.plugins)?;
            return cli::hint::hint_command(&args, pipeline, &mut out);
        }
        Command::Candidates { puzzle } => {
            let grid = match parse_puzzle(&puzzle) {
                Ok(g) => g,
                Err(e) => return Ok(cli::invalid_input(&format!("cannot read the puzzle: {e}"))),
            };
            write!(out, "{}", format_pencil_marks(&grid))?;
        }
        Command::Rate(args) => {
            let pipeline = load_pipeline_or(args.pipeline.as_deref(), "se")?;
            return cli::rate_command(args, &pipeline, &mut out);
        }
        Command::Generate(args) => {
            let pipeline = load_pipeline(args.pipeline.as_deref())?;
            return cli::generate_command(args, &pipeline, &mut out);
        }
        Command::Canonical(args) => return cli::canonical_command(args, &mut out),
        Command::Count { file, limit } => {
            return count_file(&file, limit.max(1), &mut out);
        }
        Command::Reglib {
            file,
            verbose,
            pipeline,
            plugins,
        } => {
            let mut techniques = match pipeline {
                Some(p) => {
                    let p = Pipeline::from_file(&p)?;
                    for w in &p.warnings {
                        eprintln!("warning: {}", printable(w));
                    }
                    p.techniques
                }
                None if plugins.is_empty() => lapiz::technique::builtins(),
                None => Vec::new(),
            };
            for path in &plugins {
                let mode = lapiz::plugin::effective_mode(lapiz::plugin::PluginMode::default());
                let plugin = lapiz::plugin::load_as(path, mode)?;
                for t in plugin.techniques() {
                    if techniques.iter().any(|o| o.id() == t.id()) {
                        bail!(
                            "{}: technique id `{}` is already tested",
                            path.display(),
                            t.id()
                        );
                    }
                    techniques.push(t);
                }
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let report = run_library_with(&text, &techniques, |_, _, _: &CaseResult| {});
            for (line, err) in &report.errors {
                eprintln!("{}:{line}: {}", file.display(), printable(err));
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
                        f.line_number,
                        printable(&f.code),
                        printable(&f.reason)
                    )?;
                    writeln!(out, "  case:     {}", printable(&f.line))?;
                    writeln!(out, "  expected: {}", printable(&f.expected))?;
                    for s in &f.found {
                        writeln!(out, "  found:    {}", printable(&s.explanation))?;
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
                return Ok(ExitCode::from(cli::exit::INVALID));
            }
        }
        Command::Technique {
            command:
                TechniqueCommand::Check {
                    script,
                    reglib,
                    codes,
                    file,
                    limit,
                    compare,
                    verbose,
                },
        } => {
            let technique = ScriptTechnique::load(&script)?;
            let twin = twin_of(&technique, compare.as_deref())?;
            writeln!(
                out,
                "script {}: {} \"{}\" {:.1}, codes {}",
                script.display(),
                technique.id(),
                technique.name(),
                technique.difficulty(),
                list_or_none(&technique.library_codes()),
            )?;
            if let Some(t) = &twin {
                writeln!(out, "compared with built-in {} ({})", t.id(), t.name())?;
            }
            let total = match file {
                Some(f) => check_file(&technique, twin.as_deref(), &f, limit, verbose, &mut out)?,
                None => check_library(
                    &technique,
                    twin.as_deref(),
                    reglib,
                    codes,
                    verbose,
                    &mut out,
                )?,
            };
            writeln!(
                out,
                "{} passed, {} failed, {} skipped",
                total.passed, total.failed, total.skipped
            )?;
            out.flush()?;
            if total.failed > 0 {
                return Ok(ExitCode::from(cli::exit::INVALID));
            }
        }
        Command::Technique {
            command:
                TechniqueCommand::Bench {
                    script,
                    file,
                    limit,
                    reglib,
                    codes,
                    native,
                    rounds,
                },
        } => {
            let technique = ScriptTechnique::load(&script)?;
            let twin = twin_of(&technique, native.as_deref())?;
            let source = match file {
                Some(path) => cli::bench::Source::Puzzles { path, limit },
                None => cli::bench::Source::Library {
                    path: reglib.unwrap_or_else(default_library),
                    codes: if codes.is_empty() {
                        technique.library_codes()
                    } else {
                        codes
                    },
                },
            };
            writeln!(
                out,
                "script {}: {}{}",
                script.display(),
                technique.id(),
                match &twin {
                    Some(t) => format!(", native twin {}", t.id()),
                    None => String::new(),
                }
            )?;
            cli::bench::run(&technique, twin.as_deref(), &source, rounds, &mut out)?;
            out.flush()?;
        }
        Command::Techniques {
            pipeline,
            scripts,
            plugins,
        } => {
            let p = load_pipeline_with(pipeline.as_deref(), &scripts, &plugins)?;
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
                    printable(t.id()),
                    printable(t.name()),
                    t.difficulty(),
                    printable(&t.origin().to_string())
                )?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
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
        failures: Vec<String>,
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
    /// Not a proper puzzle, and why.
    Invalid(String),
}

fn solve_file(
    path: &Path,
    pipeline: &Pipeline,
    format: Format,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let (mut solved, mut guessed, mut stuck) = (0usize, 0usize, 0usize);
    let (mut invalid, mut rejected) = (0usize, 0usize);
    let work = |text: &str| {
        let grid = match parse_puzzle(text) {
            Ok(g) => g,
            Err(e) => return SolveRecord::Unreadable(e.to_string()),
        };
        let t = solve_grid(&grid, pipeline);
        let status = match &t.outcome {
            Outcome::Solved if t.summary.guesses > 0 => Status::Guessed,
            Outcome::Solved => Status::Solved,
            Outcome::Stuck { .. } | Outcome::StepLimit { .. } => Status::Stuck,
            Outcome::Invalid { reason } => Status::Invalid(reason.clone()),
        };
        let text = match format {
            Format::Ron | Format::Html => t.to_ron(),
            Format::Text => {
                let word = match &status {
                    Status::Solved => "solved",
                    Status::Guessed => "guessed",
                    Status::Stuck => "stuck",
                    Status::Invalid(_) => "invalid",
                };
                let detail = match &status {
                    Status::Invalid(reason) => reason.clone(),
                    _ => t
                        .summary
                        .hardest
                        .as_ref()
                        .map(|h| format!("{} {:.1}", h.technique, h.difficulty))
                        .unwrap_or_default(),
                };
                format!(
                    "{}\t{word}\t{}\t{}\n",
                    printable(&t.puzzle),
                    t.summary.steps,
                    printable(&detail)
                )
            }
        };
        let failures = t
            .entries
            .iter()
            .filter_map(|e| match e {
                lapiz::trace::Entry::Failed { error, .. } => Some(error.clone()),
                _ => None,
            })
            .collect();
        SolveRecord::Solved {
            text,
            status,
            rejected: t.summary.rejected,
            failures,
        }
    };
    let unreadable = |_: &str, why: &str| SolveRecord::Unreadable(why.to_string());
    cli::batch::for_each_puzzle(path, work, unreadable, |item, record, bar| {
        match record {
            SolveRecord::Unreadable(e) => {
                bar.suspend(|| eprintln!("{}:{}: {}", path.display(), item.line, printable(&e)));
                match format {
                    // every format stays parseable: an invalid trace in RON
                    Format::Ron | Format::Html => {
                        let t = lapiz::engine::invalid_trace(item.text.clone(), pipeline, e);
                        out.write_all(t.to_ron().as_bytes())?;
                    }
                    Format::Text => {
                        writeln!(out, "{}\tinvalid\t{}", printable(&item.text), printable(&e))?
                    }
                }
                invalid += 1;
            }
            SolveRecord::Solved {
                text,
                status,
                rejected: r,
                failures,
            } => {
                rejected += r;
                for f in &failures {
                    bar.suspend(|| {
                        eprintln!(
                            "{}:{}: warning: {}; disabled for this puzzle",
                            path.display(),
                            item.line,
                            printable(f)
                        )
                    });
                }
                match status {
                    Status::Solved => solved += 1,
                    Status::Guessed => guessed += 1,
                    Status::Stuck => stuck += 1,
                    Status::Invalid(reason) => {
                        invalid += 1;
                        bar.suspend(|| {
                            eprintln!(
                                "{}:{}: invalid puzzle: {}",
                                path.display(),
                                item.line,
                                printable(&reason)
                            )
                        });
                    }
                }
                out.write_all(text.as_bytes())?;
            }
        }
        Ok(())
    })?;
    writeln!(
        out,
        "solved: {solved}, guessed: {guessed}, stuck: {stuck}, invalid: {invalid}, rejected steps: {rejected}"
    )?;
    out.flush()?;
    Ok(cli::exit_status(invalid))
}

fn count_file(path: &Path, limit: u32, out: &mut impl Write) -> Result<ExitCode> {
    let (mut puzzles, mut unique, mut none, mut multiple) = (0usize, 0usize, 0usize, 0usize);
    let mut bad_lines = 0usize;
    let work = |text: &str| {
        // A one-line puzzle (most of any puzzle file) needs no candidate grid; anything else
        // (a pencil-mark grid, a library line, an error) goes through the full parser.
        let values = match lapiz::parse::line_values(text) {
            Ok(values) => values,
            Err(_) => *parse_puzzle(text).map_err(|e| e.to_string())?.values(),
        };
        Ok((values, count_solutions(&values, limit)))
    };
    let unreadable = |_: &str, why: &str| Err(why.to_string());
    cli::batch::for_each_puzzle(path, work, unreadable, |item, record, bar| {
        match record {
            Err(e) => {
                bar.suspend(|| eprintln!("{}:{}: {}", path.display(), item.line, printable(&e)));
                writeln!(out, "{}\terror", printable(&item.text))?;
                bad_lines += 1;
            }
            Ok((values, n)) => {
                puzzles += 1;
                match n {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => multiple += 1,
                }
                let mut line = [b'.'; 81];
                for (c, &v) in line.iter_mut().zip(&values) {
                    if v != 0 {
                        *c = b'0' + v;
                    }
                }
                out.write_all(&line)?;
                writeln!(out, "\t{n}")?;
            }
        }
        Ok(())
    })?;
    writeln!(
        out,
        "puzzles: {puzzles}, unique: {unique}, none: {none}, multiple: {multiple}"
    )?;
    out.flush()?;
    // Counting is the command's job: no solution or several are results, not invalid input.
    Ok(cli::exit_status(bad_lines))
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(",")
    }
}

/// The built-in technique a script is compared with.
fn twin_of(script: &ScriptTechnique, compare: Option<&str>) -> Result<Option<Box<dyn Technique>>> {
    match compare {
        Some("none") => Ok(None),
        Some(id) => match lapiz::technique::builtin(id) {
            Some(t) => Ok(Some(t)),
            None => bail!("--compare: no built-in technique `{id}` (see `lapiz techniques`)"),
        },
        None => {
            let base = script.id().strip_suffix("-script").unwrap_or(script.id());
            if let Some(t) = lapiz::technique::builtin(base) {
                return Ok(Some(t));
            }
            let codes = script.library_codes();
            Ok(lapiz::technique::builtins()
                .into_iter()
                .find(|t| t.library_codes().iter().any(|c| codes.contains(c))))
        }
    }
}

/// The shared regression library: `$LAPIZ_DATA/reglib/…`, else `../shared/data/reglib/…`.
fn default_library() -> PathBuf {
    let data = std::env::var_os("LAPIZ_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data"));
    data.join("reglib/reglib-1.4-dev.txt")
}

/// Differences between the script's and the twin's changes, as text lines.
fn disagreements(script: &[lapiz::Step], twin: &[lapiz::Step]) -> Vec<String> {
    let a = changes(script);
    let b = changes(twin);
    let mut out: Vec<String> = a
        .difference(&b)
        .map(|c| format!("script only: {}", changes_text(c)))
        .collect();
    out.extend(
        b.difference(&a)
            .map(|c| format!("built-in only: {}", changes_text(c))),
    );
    out
}

fn check_library(
    technique: &ScriptTechnique,
    twin: Option<&dyn Technique>,
    reglib: Option<PathBuf>,
    codes: Vec<String>,
    verbose: bool,
    out: &mut impl Write,
) -> Result<Tally> {
    let codes = if codes.is_empty() {
        technique.library_codes()
    } else {
        codes
    };
    if codes.is_empty() {
        bail!(
            "{} declares no CODES: pass --code CODE (or --file PUZZLES)",
            technique.path()
        );
    }
    let path = reglib.unwrap_or_else(default_library);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read the library {} (pass --reglib LIBFILE or set LAPIZ_DATA)",
            path.display()
        )
    })?;
    writeln!(out, "library {}, codes {}", path.display(), codes.join(","))?;
    let mut per_code: std::collections::BTreeMap<String, Tally> = Default::default();
    let mut total = Tally::default();
    let mut disagreeing = 0usize;
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // Only lines of the chosen codes are read, so other codes' quirks do not count.
        let code_field = line.split(':').nth(1).unwrap_or("");
        let code = code_field.split('-').next().unwrap_or("");
        if !codes.iter().any(|c| c == code) {
            continue;
        }
        let tally = per_code.entry(code_field.to_string()).or_default();
        let case = match lapiz::parse::parse_library_line(line) {
            Ok(c) => c,
            Err(e) => {
                writeln!(
                    out,
                    "line {line_number} [{code_field}] FAILED: cannot read: {}",
                    printable(&e.to_string())
                )?;
                tally.failed += 1;
                total.failed += 1;
                continue;
            }
        };
        let result = check_case(&case, technique);
        let found = find_all(technique, &case.grid).unwrap_or_default();
        match &result {
            CaseResult::Passed => {
                tally.passed += 1;
                total.passed += 1;
                let first = found
                    .iter()
                    .find(|s| {
                        let mut e = s.eliminations.clone();
                        e.sort();
                        let mut w = case.eliminations.clone();
                        w.sort();
                        e == w
                    })
                    .or(found.first());
                let what = first.map_or("nothing, as expected".to_string(), |s| {
                    printable(&s.explanation).into_owned()
                });
                let more = if found.len() > 1 {
                    format!(" (+{} more)", found.len() - 1)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "line {line_number} [{code_field}] passed: {what}{more}"
                )?;
            }
            CaseResult::Failed { reason, found } => {
                tally.failed += 1;
                total.failed += 1;
                writeln!(
                    out,
                    "line {line_number} [{code_field}] FAILED: {}",
                    printable(reason)
                )?;
                writeln!(out, "  case:     {}", printable(line))?;
                writeln!(out, "  expected: {}", expected_text(&case))?;
                for s in found {
                    writeln!(out, "  found:    {}", printable(&s.explanation))?;
                }
            }
            CaseResult::Skipped => {
                tally.skipped += 1;
                total.skipped += 1;
            }
        }
        if verbose && matches!(result, CaseResult::Passed) {
            for s in &found {
                writeln!(out, "  found:    {}", printable(&s.explanation))?;
            }
        }
        if let Some(t) = twin {
            let native = find_all(t, &case.grid).unwrap_or_default();
            let diff = disagreements(&found, &native);
            if !diff.is_empty() {
                disagreeing += 1;
                writeln!(out, "  disagrees with {}:", t.id())?;
                for d in diff {
                    writeln!(out, "    {d}")?;
                }
            }
        }
    }
    for (code, t) in &per_code {
        writeln!(
            out,
            "{code:<8} passed {:>3}  failed {:>3}  skipped {:>3}",
            t.passed, t.failed, t.skipped
        )?;
    }
    // a code no case has tests nothing: that is an error, not `0 passed`
    let missing: Vec<&str> = codes
        .iter()
        .filter(|c| {
            !per_code
                .keys()
                .any(|k| k.split('-').next() == Some(c.as_str()))
        })
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        out.flush()?;
        bail!(
            "{}: no case of code {} (see the library's codes, e.g. 0300 for X-Wing)",
            path.display(),
            missing.join(", ")
        );
    }
    if let Some(t) = twin {
        writeln!(
            out,
            "{} agrees on {} of {} cases",
            t.id(),
            total.passed + total.failed + total.skipped - disagreeing,
            total.passed + total.failed + total.skipped
        )?;
    }
    Ok(total)
}

fn check_file(
    technique: &ScriptTechnique,
    twin: Option<&dyn Technique>,
    path: &Path,
    limit: Option<usize>,
    verbose: bool,
    out: &mut impl Write,
) -> Result<Tally> {
    let input = open_input(path)?;
    let pipeline = Pipeline::default_pipeline();
    let mut total = Tally::default();
    let (mut puzzles, mut position_count, mut fired, mut steps_found) = (0usize, 0, 0, 0);
    let (mut fired_puzzles, mut disagreeing) = (0usize, 0usize);
    for (i, line) in input.lines().enumerate() {
        let line_number = i + 1;
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        let Some(text) = puzzle_of_line(&line) else {
            continue;
        };
        if limit.is_some_and(|l| puzzles >= l) {
            break;
        }
        puzzles += 1;
        let Some((grids, solution)) = parse_puzzle(text)
            .ok()
            .and_then(|g| positions(&g, &pipeline))
        else {
            writeln!(out, "line {line_number}: skipped (not a proper puzzle)")?;
            total.skipped += 1;
            continue;
        };
        let mut failed = None;
        let mut fired_here = false;
        for (k, grid) in grids.iter().enumerate() {
            position_count += 1;
            let found = match technique.run(grid) {
                Ok(f) => f,
                Err(e) => {
                    failed = Some(format!("position {}: {}", k + 1, printable(&e.to_string())));
                    break;
                }
            };
            if !found.is_empty() {
                fired += 1;
                fired_here = true;
                steps_found += found.len();
            }
            if verbose {
                for s in &found {
                    writeln!(
                        out,
                        "line {line_number} position {}: {}",
                        k + 1,
                        printable(&s.explanation)
                    )?;
                }
            }
            if let Some(s) = found.iter().find(|s| s.contradiction(&solution).is_some()) {
                let bad = s.contradiction(&solution).expect("found above");
                failed = Some(format!(
                    "position {}: unsound step (contradicts the solution at {bad}): {}\n  grid: {}",
                    k + 1,
                    printable(&s.explanation),
                    lapiz::parse::format_grid_library_line(grid)
                ));
                break;
            }
            if let Some(t) = twin {
                let native = find_all(t, grid).unwrap_or_default();
                let diff = disagreements(&found, &native);
                if !diff.is_empty() {
                    disagreeing += 1;
                    if verbose {
                        writeln!(
                            out,
                            "line {line_number} position {}: disagrees with {}: {}",
                            k + 1,
                            t.id(),
                            diff.join("; ")
                        )?;
                    }
                }
            }
        }
        fired_puzzles += usize::from(fired_here);
        match failed {
            Some(why) => {
                total.failed += 1;
                writeln!(out, "line {line_number} FAILED: {why}")?;
            }
            None => total.passed += 1,
        }
    }
    writeln!(
        out,
        "fired at {fired} of {position_count} positions (in {fired_puzzles} of {puzzles} puzzles), {steps_found} steps"
    )?;
    if let Some(t) = twin {
        writeln!(
            out,
            "{} disagrees at {disagreeing} of {position_count} positions",
            t.id()
        )?;
    }
    Ok(total)
}
