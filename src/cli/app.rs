//! The command line's entry: parses the arguments and hands each command to its module. The
//! `lapiz` binary runs it, and so does the Python package's `lapiz` command (`python -m lapiz`),
//! which builds this folder into its extension.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use lapiz::text::printable;

use crate::cli::args::HostArgs;
use crate::cli::{self, diag};

/// lapiz: solves Sudoku the way a strong human does and explains every move.
#[derive(Parser)]
#[command(name = "lapiz", version, about)]
struct Cli {
    /// Worker threads for file and batch commands, 1 to 256 (default: all cores, or
    /// `RAYON_NUM_THREADS`); started only when a command has a batch to run.
    #[arg(long, global = true, value_name = "N", value_parser = cli::batch::parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    host: HostArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle (or every puzzle of a file) with an explained trace.
    Solve(cli::solve::SolveArgs),
    /// The next step of a puzzle (or of a grid being solved, with its pencil marks): its
    /// explanation, or with `--level nudge` only the technique and where to look.
    Hint(cli::hint::HintArgs),
    /// Print the pencil-mark grid of a puzzle.
    Candidates(cli::candidates::CandidatesArgs),
    /// Rate puzzles: hardest step, level, score, hardest technique, technique counts.
    Rate(cli::rate::RateArgs),
    /// Generate puzzles with one solution (minimal by default), optionally to a target.
    Generate(cli::generate::GenerateArgs),
    /// Serve a web page to solve, play and learn puzzles in the browser, and a JSON API.
    Serve(cli::serve::ServeArgs),
    /// The canonical form of a puzzle (equal for equivalent puzzles), to find duplicates.
    Canonical(cli::canonical::CanonicalArgs),
    /// Count solutions by brute force (capped at the limit).
    Count(cli::count::CountArgs),
    /// Run HoDoKu regression-library cases against lapiz's finders.
    Reglib(cli::reglib::ReglibArgs),
    /// List the pipeline's techniques in order.
    Techniques(cli::technique::list::TechniquesArgs),
    /// Check or time a technique script (.rhai) or a plugin library (.so, .dylib, .dll):
    /// `check` against library cases or puzzles, `bench` against its built-in twin.
    Technique {
        #[command(subcommand)]
        command: cli::technique::TechniqueCommand,
    },
    /// Serve one plugin library's searches over stdin and stdout (started by lapiz itself).
    #[command(hide = true)]
    PluginHost(cli::plugin_host::PluginHostArgs),
}

/// Runs the command line `args` names (the program's name first), as `lapiz` does.
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    if let Err(why) = cli::stdio::prepare() {
        diag(&format!("error: {why}"));
        return ExitCode::from(cli::exit::ERROR);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    cli.host.configure();
    if let Some(n) = cli.threads {
        cli::batch::request_threads(n);
    }
    match run(cli.command) {
        Ok(code) => code,
        // the reader went away (`lapiz solve --file F | head`): output was lost, so the
        // status says so (README, "Exit status"), but the message would only clutter the
        // terminal the reader left
        Err(e) if is_broken_pipe(&e) => ExitCode::from(cli::exit::ERROR),
        Err(e) => {
            diag(&format!("error: {}", printable(&format!("{e:#}"))));
            ExitCode::from(cli::exit::ERROR)
        }
    }
}

/// Whether `e` comes from writing to a pipe whose reader has closed.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// What clap's early exits give: a usage error on stderr ([`cli::exit::ERROR`]); `--help` or
/// `--version` on stdout, which succeeds only when it was written.
fn clap_exit(e: &clap::Error) -> ExitCode {
    if e.use_stderr() {
        // a usage error: the message is a diagnostic, the status says it anyway
        let _ = e.print();
        return ExitCode::from(cli::exit::ERROR);
    }
    match e.print().and_then(|()| io::stdout().flush()) {
        Ok(()) => ExitCode::from(cli::exit::OK),
        Err(why) => {
            diag(&format!("error: cannot write to stdout: {why}"));
            ExitCode::from(cli::exit::ERROR)
        }
    }
}

/// Runs one command, its output buffered on stdout.
fn run(command: Command) -> Result<ExitCode> {
    let mut out = BufWriter::with_capacity(cli::batch::IO_BUFFER, cli::stdio::NamedStdout);
    let o = &mut out;
    match command {
        Command::Solve(args) => cli::solve::run(args, o),
        Command::Hint(args) => cli::hint::run(args, o),
        Command::Candidates(args) => cli::candidates::run(args, o),
        Command::Rate(args) => cli::rate::run(args, o),
        Command::Generate(args) => cli::generate::run(args, o),
        Command::Serve(args) => cli::serve::run(args, o),
        Command::Canonical(args) => cli::canonical::run(args, o),
        Command::Count(args) => cli::count::run(args, o),
        Command::Reglib(args) => cli::reglib::run(args, o),
        Command::Techniques(args) => cli::technique::list::run(args, o),
        Command::Technique { command } => cli::technique::run(command, o),
        Command::PluginHost(args) => {
            // stdout is the host's wire: nothing else may hold it
            drop(out);
            Ok(cli::plugin_host::run(args))
        }
    }
}
