//! `lapiz reglib`: runs HoDoKu regression-library cases against the built-ins, a pipeline's
//! techniques or plugins' techniques.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use lapiz::plugin::{self, PluginMode};
use lapiz::text::printable;
use lapiz::tools::{Report, Tally, case_lines, read_library, run_library};

use super::batch::line_ref;
use super::{diag, exit};

/// Arguments of `lapiz reglib`.
#[derive(Args)]
pub struct ReglibArgs {
    /// The library file.
    pub file: PathBuf,
    /// Show each failure with the expected and found steps.
    #[arg(long)]
    pub verbose: bool,
    /// A pipeline RON file whose techniques are tested (default: all built-ins).
    #[arg(long)]
    pub pipeline: Option<PathBuf>,
    /// Test this plugin library's techniques instead of the built-ins (repeatable; with
    /// --pipeline, in addition to the pipeline's). Without --pipeline, only the codes the
    /// plugins answer are listed and counted, and one line says how many other cases were
    /// not run.
    #[arg(long = "plugin", value_name = "FILE")]
    pub plugins: Vec<PathBuf>,
}

/// Runs `lapiz reglib`: the tally per code, the failures with `--verbose`, the totals.
pub fn run(args: ReglibArgs, out: &mut impl Write) -> Result<ExitCode> {
    let mut techniques = match &args.pipeline {
        Some(p) => {
            let p = super::args::load_pipeline_or(Some(p), "default")?;
            for w in p.warnings() {
                diag(&format!("warning: {}", printable(w)));
            }
            p.into_techniques()
        }
        None if args.plugins.is_empty() => lapiz::technique::builtins(),
        None => Vec::new(),
    };
    for path in &args.plugins {
        let loaded = plugin::load_as(path, PluginMode::default().effective())?;
        super::args::warn_if_sandbox_partial();
        for t in loaded.techniques() {
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
    let file = &args.file;
    let library = read_library(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = &library.text;
    let mut report = run_library(text, &techniques);
    // Plugins alone: only the codes they answer are listed and counted.
    let not_run = if args.pipeline.is_none() && !args.plugins.is_empty() {
        let answered: Vec<String> = techniques.iter().flat_map(|t| t.library_codes()).collect();
        Some((keep_codes(&mut report, text, &answered), answered))
    } else {
        None
    };
    // lines that are not UTF-8 have no code to keep or drop them by: always reported
    report.errors.extend(library.errors);
    report.errors.sort_by_key(|(line, _)| *line);
    for (line, err) in &report.errors {
        diag(&format!("{}: {}", line_ref(file, *line), printable(err)));
    }
    for (code, t) in &report.per_code {
        write_code_tally(out, code, t)?;
    }
    if args.verbose {
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
    if let Some((n, answered)) = not_run {
        let answered = if answered.is_empty() {
            "none".to_string()
        } else {
            answered.join(",")
        };
        writeln!(
            out,
            "{n} cases of other codes were not run (the plugins answer {answered})"
        )?;
    }
    finish(out, report.total())
}

/// Keeps in `report` only the cases (and unreadable lines) of the `answered` codes; returns
/// how many cases of other codes it drops.
fn keep_codes(report: &mut Report, text: &str, answered: &[String]) -> usize {
    let answers = |code: &str| answered.iter().any(|a| a == code);
    let mut dropped = 0;
    report.per_code.retain(|code, t| {
        let keep = answers(code.split('-').next().unwrap_or(code));
        if !keep {
            dropped += t.passed + t.failed + t.skipped;
        }
        keep
    });
    if !report.errors.is_empty() {
        let codes: std::collections::HashMap<usize, &str> = case_lines(text)
            .map(|l| (l.line_number, l.code()))
            .collect();
        let before = report.errors.len();
        report
            .errors
            .retain(|(line, _)| codes.get(line).is_some_and(|c| answers(c)));
        dropped += before - report.errors.len();
    }
    dropped
}

/// One code's line of the tally: `0300     passed   2  failed   0  skipped   0`.
pub fn write_code_tally(out: &mut impl Write, code: &str, t: &Tally) -> Result<()> {
    writeln!(
        out,
        "{code:<8} passed {:>3}  failed {:>3}  skipped {:>3}",
        t.passed, t.failed, t.skipped
    )?;
    Ok(())
}

/// Writes the totals line and gives the exit status: [`exit::INVALID`] when a case failed.
pub fn finish(out: &mut impl Write, total: Tally) -> Result<ExitCode> {
    write_totals(out, &total)?;
    out.flush()?;
    Ok(status(&total))
}

/// The totals line: `28 passed, 0 failed, 0 skipped`.
pub fn write_totals(out: &mut impl Write, total: &Tally) -> Result<()> {
    writeln!(
        out,
        "{} passed, {} failed, {} skipped",
        total.passed, total.failed, total.skipped
    )?;
    Ok(())
}

/// The exit status of a run with these totals: [`exit::INVALID`] when a case failed.
pub fn status(total: &Tally) -> ExitCode {
    ExitCode::from(if total.failed > 0 {
        exit::INVALID
    } else {
        exit::OK
    })
}
