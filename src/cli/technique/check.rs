//! `lapiz technique check`: a technique script, or each technique of a plugin library,
//! against HoDoKu library cases or at every position met solving a puzzle file (through the
//! batch runner), compared with a built-in.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use lapiz::engine::Pipeline;
use lapiz::step::Step;
use lapiz::technique::{Technique, find_all};
use lapiz::text::printable;
use lapiz::tools::SizedGrid;
use lapiz::tools::{CaseResult, Tally, case_lines, expected_text, judge};
use lapiz::tools::{changes, changes_text, solve_positions};

use crate::cli::batch::for_each_puzzle_up_to;
use crate::cli::diag;
use crate::cli::reglib::{status, write_code_tally, write_totals};
use crate::cli::sized::SizeArgs;

use super::{Subject, default_library, twin_of};

/// Arguments of `lapiz technique check`.
#[derive(Args)]
pub struct CheckArgs {
    /// A technique script (e.g. techniques/x-wing.rhai) or a plugin library (e.g.
    /// liblapiz_example_c.so; loaded in the mode --plugin-mode gives, a host by default).
    #[arg(value_name = "SCRIPT|LIBRARY")]
    pub script: PathBuf,
    /// The technique of the plugin library to check (default: each in turn).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// The library file (default: $LAPIZ_DATA/reglib/reglib-1.4-dev.txt, else
    /// ../shared/data/reglib/reglib-1.4-dev.txt).
    #[arg(long, value_name = "LIBFILE", conflicts_with = "file")]
    pub reglib: Option<PathBuf>,
    /// Library codes to run (repeatable; default: the technique's codes, a script's CODES).
    #[arg(long = "code", value_name = "CODE", conflicts_with = "file")]
    pub codes: Vec<String>,
    /// A puzzle file instead: the technique runs at every position met while solving each
    /// puzzle with the default pipeline (`-` for stdin). Puzzles of every size (4x4 to 25x25).
    #[arg(long, value_name = "PUZZLES")]
    pub file: Option<PathBuf>,
    /// How to read the puzzles of --file of other sizes than 9x9.
    #[command(flatten)]
    pub size: SizeArgs,
    /// Only the first N puzzles of the file.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// The built-in technique to compare with (default: the built-in with the id, less a
    /// `-script` suffix, else a built-in answering the same code; `none` to compare with
    /// nothing).
    #[arg(long, value_name = "ID")]
    pub compare: Option<String>,
    /// The time limit of each case's search (and of each puzzle's positions with --file).
    #[command(flatten)]
    pub time: crate::cli::stop::LimitArgs,
    /// Print every step found and every disagreement.
    #[arg(long)]
    pub verbose: bool,
    /// Exit with status 1 on a warning too: a technique that never fires, or disagrees with
    /// its twin.
    #[arg(long)]
    pub strict: bool,
}

/// Runs `lapiz technique check`: each technique of the file in turn, each with its header and
/// its totals line; fails when a case of any failed.
pub fn run(args: CheckArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let subject = Subject::load(&args.script, args.id.as_deref())?;
    let (mut all, mut checked, mut warned) = (Tally::default(), 0usize, 0usize);
    for (k, technique) in subject.techniques.iter().enumerate() {
        let technique = technique.as_ref();
        let twin = twin_of(technique, args.compare.as_deref(), "--compare")?;
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}: {} \"{}\" {:.1}, codes {}",
            subject.label(),
            technique.id(),
            printable(technique.name()),
            technique.difficulty(),
            list_or_none(&technique.library_codes()),
        )?;
        if let Some(t) = &twin {
            writeln!(out, "compared with built-in {} ({})", t.id(), t.name())?;
        }
        let check = Check {
            subject: &subject,
            technique,
            twin: twin.as_deref(),
            verbose: args.verbose,
            time: args.time,
        };
        let (total, activity) = match &args.file {
            Some(f) => check.file(f, args.limit, &args.size, out)?,
            None => match check.library(args.reglib.clone(), args.codes.clone(), out)? {
                Some(t) => t,
                None => continue,
            },
        };
        // the warnings before the totals, which stay the last line; a failed check says
        // enough already
        let warnings = match total.failed {
            0 => activity.warnings(technique, twin.as_deref()),
            _ => Vec::new(),
        };
        for w in warnings {
            warned += 1;
            writeln!(out, "warning: {w}")?;
            diag(&format!("warning: {}: {w}", subject.label()));
        }
        write_totals(out, &total)?;
        checked += 1;
        all.passed += total.passed;
        all.failed += total.failed;
        all.skipped += total.skipped;
    }
    out.flush()?;
    if checked == 0 {
        bail!(
            "{}: none of its techniques declares library codes: pass --code CODE (or --file PUZZLES)",
            subject.path.display()
        );
    }
    if args.strict && warned > 0 && all.failed == 0 {
        diag(&format!("error: --strict: {warned} warning(s)"));
        return Ok(ExitCode::from(crate::cli::exit::INVALID));
    }
    Ok(status(&all))
}

/// How often a technique fired and disagreed with its twin over a check, for the warnings.
struct Activity {
    /// What was searched: `cases` or `positions`.
    unit: &'static str,
    /// Cases or positions searched.
    searched: usize,
    /// Those where the technique found a step that changes something.
    fired: usize,
    /// Those where it and the twin disagree (or the twin failed).
    disagreeing: usize,
}

impl Activity {
    /// The warnings: the technique never fired; it disagrees with its twin.
    fn warnings(&self, technique: &dyn Technique, twin: Option<&dyn Technique>) -> Vec<String> {
        let (id, unit, n) = (printable(technique.id()), self.unit, self.searched);
        let mut out = Vec::new();
        if n > 0 && self.fired == 0 {
            out.push(format!(
                "{id} never fired (0 of {n} {unit}): is its search reaching its steps?"
            ));
        }
        if let Some(t) = twin
            && self.disagreeing > 0
        {
            let listed = match unit {
                "cases" => "listed above",
                _ => "--verbose lists them",
            };
            out.push(format!(
                "{id} disagrees with built-in {} at {} of {n} {unit} ({listed})",
                t.id(),
                self.disagreeing
            ));
        }
        out
    }
}

/// A step found, as a FAILED line shows it: what it changes, then its own explanation.
fn found_line(s: &Step) -> String {
    let what = changes(std::slice::from_ref(s))
        .first()
        .map_or_else(|| "no change".to_string(), changes_text);
    format!("{what} (explained: {})", printable(&s.explanation))
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(",")
    }
}

/// A technique (a script's, a plugin's) checked against its twin, and how much to print.
struct Check<'a> {
    subject: &'a Subject,
    technique: &'a dyn Technique,
    twin: Option<&'a dyn Technique>,
    verbose: bool,
    /// The time limit of each search.
    time: crate::cli::stop::LimitArgs,
}

/// What comparing the technique's steps with the twin's gave at one position.
enum Comparison {
    /// No twin, or the same changes.
    Agrees,
    /// The differences, as text lines.
    Disagrees(Vec<String>),
    /// The twin's search failed, and why.
    TwinFailed(String),
}

impl Check<'_> {
    /// Compares the technique's steps at a grid with the twin's.
    fn compare(&self, grid: &SizedGrid, found: &[Step]) -> Comparison {
        let Some(t) = self.twin else {
            return Comparison::Agrees;
        };
        match grid.find_all(t) {
            Err(e) => Comparison::TwinFailed(printable(&e.to_string()).into_owned()),
            Ok(native) => {
                let diff = disagreements(self.subject.noun(), found, &native);
                if diff.is_empty() {
                    Comparison::Agrees
                } else {
                    Comparison::Disagrees(diff)
                }
            }
        }
    }

    /// `--reglib`: every case of the chosen codes, searched once by the technique and once
    /// by the twin. `None` when a technique of a library that offers several declares no
    /// codes (it is passed over, saying so); a script or a lone technique without codes is an
    /// error.
    fn library(
        &self,
        reglib: Option<PathBuf>,
        codes: Vec<String>,
        out: &mut (impl Write + Send),
    ) -> Result<Option<(Tally, Activity)>> {
        let technique = self.technique;
        let codes = if codes.is_empty() {
            technique.library_codes()
        } else {
            codes
        };
        if codes.is_empty() {
            let path = self.subject.path.display();
            if self.subject.mode.is_none() {
                bail!("{path} declares no CODES: pass --code CODE (or --file PUZZLES)");
            }
            let what = format!("{path}: `{}` declares no library codes", technique.id());
            if self.subject.techniques.len() == 1 {
                bail!("{what}: pass --code CODE (or --file PUZZLES)");
            }
            writeln!(
                out,
                "{what}: not checked (pass --code CODE or --file PUZZLES)"
            )?;
            return Ok(None);
        }
        let path = reglib.unwrap_or_else(default_library);
        let text = super::read_library_text(&path)?;
        writeln!(
            out,
            "library {}, codes {}",
            printable(&path.display().to_string()),
            printable(&codes.join(","))
        )?;
        let mut per_code: BTreeMap<String, Tally> = Default::default();
        let mut total = Tally::default();
        let (mut disagreeing, mut fired) = (0usize, 0usize);
        // Only lines of the chosen codes are read, so other codes' quirks do not count.
        for case_line in case_lines(&text).filter(|l| codes.iter().any(|c| c == l.code())) {
            let (line_number, line, code_field) = (
                case_line.line_number,
                case_line.text,
                case_line.code_field(),
            );
            let tally = per_code.entry(code_field.to_string()).or_default();
            let case = match case_line.parse() {
                Ok(c) => c,
                Err(e) => {
                    writeln!(
                        out,
                        "line {line_number} [{code_field}] FAILED: cannot read: {}",
                        printable(&e.to_string())
                    )?;
                    let failed = CaseResult::Failed {
                        reason: e.to_string(),
                        found: Vec::new(),
                    };
                    tally.add(&failed);
                    total.add(&failed);
                    continue;
                }
            };
            let searched = self.time.stop().run(|| find_all(technique, &case.grid));
            let (result, found) = match searched {
                Ok(Ok(found)) => (judge(&case, found.clone()), found),
                Err(cause) => {
                    let failed = CaseResult::Failed {
                        reason: format!("the search was stopped ({cause})"),
                        found: Vec::new(),
                    };
                    (failed, Vec::new())
                }
                Ok(Err(e)) => {
                    let reason = e.to_string();
                    let failed = CaseResult::Failed {
                        reason,
                        found: Vec::new(),
                    };
                    (failed, Vec::new())
                }
            };
            tally.add(&result);
            total.add(&result);
            fired += usize::from(found.iter().any(|s| !s.is_empty()));
            match &result {
                CaseResult::Passed => {
                    let mut want = case.eliminations.clone();
                    want.sort();
                    let first = found
                        .iter()
                        .find(|s| {
                            let mut e = s.eliminations.clone();
                            e.sort();
                            e == want
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
                    if self.verbose {
                        for s in &found {
                            writeln!(out, "  found:    {}", printable(&s.explanation))?;
                        }
                    }
                }
                CaseResult::Failed { reason, found } => {
                    writeln!(
                        out,
                        "line {line_number} [{code_field}] FAILED: {}",
                        printable(reason)
                    )?;
                    writeln!(out, "  case:     {}", printable(line))?;
                    writeln!(out, "  expected: {}", expected_text(&case))?;
                    for s in found {
                        writeln!(out, "  found:    {}", found_line(s))?;
                    }
                }
                CaseResult::Skipped => {}
            }
            match self.compare(&SizedGrid::S9(Box::new(case.grid.clone())), &found) {
                Comparison::Agrees => {}
                Comparison::Disagrees(diff) => {
                    disagreeing += 1;
                    writeln!(out, "  disagrees with {}:", self.twin_id())?;
                    for d in diff {
                        writeln!(out, "    {d}")?;
                    }
                }
                Comparison::TwinFailed(e) => {
                    disagreeing += 1;
                    writeln!(out, "  {} failed: {e}", self.twin_id())?;
                }
            }
            // each case's lines out as they are made: a run killed keeps them
            out.flush()?;
        }
        for (code, t) in &per_code {
            write_code_tally(out, code, t)?;
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
        let all = total.passed + total.failed + total.skipped;
        if let Some(t) = self.twin {
            writeln!(
                out,
                "{} agrees on {} of {all} cases",
                t.id(),
                all - disagreeing
            )?;
        }
        let activity = Activity {
            unit: "cases",
            searched: all,
            fired,
            disagreeing,
        };
        Ok(Some((total, activity)))
    }

    /// The twin's id (only called with a twin).
    fn twin_id(&self) -> &str {
        self.twin.map_or("", |t| t.id())
    }

    /// `--file`: the technique at every position met solving each puzzle with the default
    /// pipeline, puzzles in parallel through the batch runner, reported in file order.
    fn file(
        &self,
        path: &Path,
        limit: Option<usize>,
        size: &SizeArgs,
        out: &mut (impl Write + Send),
    ) -> Result<(Tally, Activity)> {
        let pipeline = Pipeline::default_pipeline();
        let mut total = Tally::default();
        let (mut puzzles, mut position_count, mut fired, mut steps_found) = (0usize, 0, 0, 0);
        let (mut fired_puzzles, mut disagreeing, mut compared) = (0usize, 0usize, 0usize);
        let unreadable = |_: &str, why: &str| PuzzleCheck::unreadable(why);
        let work = |text: &str| {
            let checked = self.time.stop().run(|| self.puzzle(text, size, &pipeline));
            checked.unwrap_or_else(|cause| PuzzleCheck::skipped(&format!("stopped: {cause}")))
        };
        for_each_puzzle_up_to(path, limit, out, work, unreadable, |out, item, check, _| {
            let line_number = item.line;
            puzzles += 1;
            if let Some(why) = &check.unreadable {
                // as `reglib` counts a line it cannot read: a failure of the input
                writeln!(
                    out,
                    "line {line_number} FAILED: cannot read: {}",
                    printable(why)
                )?;
                total.failed += 1;
                return Ok(());
            }
            if let Some(why) = &check.skipped {
                writeln!(out, "line {line_number}: skipped ({why})")?;
                total.skipped += 1;
                return Ok(());
            }
            position_count += check.positions;
            compared += check.compared;
            fired += check.fired;
            steps_found += check.steps;
            disagreeing += check.disagreeing;
            fired_puzzles += usize::from(check.fired > 0);
            for note in &check.notes {
                writeln!(out, "line {line_number} position {}: {}", note.0, note.1)?;
            }
            match &check.failed {
                Some(why) => {
                    total.failed += 1;
                    writeln!(out, "line {line_number} FAILED: {why}")?;
                }
                None => total.passed += 1,
            }
            out.flush()?;
            Ok(())
        })?;
        writeln!(
            out,
            "fired at {fired} of {position_count} positions (in {fired_puzzles} of {puzzles} puzzles), {steps_found} steps"
        )?;
        if let Some(t) = self.twin {
            // positions of sizes the twin does not run on are not compared
            let elsewhere = match position_count - compared {
                0 => String::new(),
                k => format!(" ({k} more on sizes it does not run on)"),
            };
            writeln!(
                out,
                "{} disagrees at {disagreeing} of {compared} positions{elsewhere}",
                t.id()
            )?;
        }
        let activity = Activity {
            unit: "positions",
            searched: position_count,
            fired,
            disagreeing,
        };
        Ok((total, activity))
    }

    /// Checks the technique at every position of one puzzle's solve (of any size).
    fn puzzle(&self, text: &str, size: &SizeArgs, pipeline: &Pipeline) -> PuzzleCheck {
        let puzzle = match size.read(text) {
            Ok(p) => p,
            Err(e) => return PuzzleCheck::unreadable(&e.to_string()),
        };
        let n = puzzle.layout().n();
        if !self.technique.runs_on(n) {
            return PuzzleCheck::skipped(&format!(
                "{} does not run on {n}x{n} boards",
                printable(self.technique.id())
            ));
        }
        let Some(solve) = solve_positions(&puzzle, pipeline) else {
            return PuzzleCheck::skipped("not a proper puzzle");
        };
        let twin_here = self.twin.is_some_and(|t| t.runs_on(n));
        let mut check = PuzzleCheck::default();
        for k in 0..solve.grids.len() {
            let position = k + 1;
            check.positions += 1;
            let found = match solve.find_all(k, self.technique) {
                Ok(f) => f,
                Err(e) => {
                    check.failed = Some(format!(
                        "position {position}: {}",
                        printable(&e.to_string())
                    ));
                    break;
                }
            };
            if !found.is_empty() {
                check.fired += 1;
                check.steps += found.len();
            }
            if self.verbose {
                for s in &found {
                    check
                        .notes
                        .push((position, printable(&s.explanation).into_owned()));
                }
            }
            if let Some((s, bad)) = found
                .iter()
                .find_map(|s| solve.contradiction(s).map(|bad| (s, bad)))
            {
                let (step, bad) = solve.in_its_symbols(|| (found_line(s), bad.to_string()));
                check.failed = Some(format!(
                    "position {position}: unsound step (contradicts the solution at {bad}): {step}\n  grid: {}",
                    solve.text(k).trim_end().replace('\n', "\n        ")
                ));
                break;
            }
            if !twin_here {
                continue;
            }
            check.compared += 1;
            match solve.in_its_symbols(|| self.compare(&solve.grids[k], &found)) {
                Comparison::Agrees => {}
                Comparison::Disagrees(diff) => {
                    check.disagreeing += 1;
                    if self.verbose {
                        let text =
                            format!("disagrees with {}: {}", self.twin_id(), diff.join("; "));
                        check.notes.push((position, text));
                    }
                }
                Comparison::TwinFailed(e) => {
                    check.disagreeing += 1;
                    check
                        .notes
                        .push((position, format!("{} failed: {e}", self.twin_id())));
                }
            }
        }
        check
    }
}

/// What checking the technique on one puzzle of `--file` gave.
#[derive(Default)]
struct PuzzleCheck {
    /// Why the line cannot be read (not UTF-8, too long, not a puzzle), if so.
    unreadable: Option<String>,
    /// Why the puzzle was skipped (not a proper puzzle), if it was.
    skipped: Option<String>,
    /// Positions searched.
    positions: usize,
    /// Positions compared with the twin (those of sizes it runs on).
    compared: usize,
    /// Positions where the technique found a step.
    fired: usize,
    /// Steps found.
    steps: usize,
    /// Positions where the technique and the twin disagree.
    disagreeing: usize,
    /// Lines to print, by position: steps found and disagreements (`--verbose`), the twin's
    /// failures.
    notes: Vec<(usize, String)>,
    /// Why the check failed (a search error, an unsound step), if it did.
    failed: Option<String>,
}

impl PuzzleCheck {
    /// A line that cannot be read, and why.
    fn unreadable(why: &str) -> PuzzleCheck {
        PuzzleCheck {
            unreadable: Some(why.to_string()),
            ..PuzzleCheck::default()
        }
    }

    /// A puzzle skipped, and why.
    fn skipped(why: &str) -> PuzzleCheck {
        PuzzleCheck {
            skipped: Some(why.to_string()),
            ..PuzzleCheck::default()
        }
    }
}

/// Differences between the technique's and the twin's changes, as text lines (`script only:`
/// or `plugin only:` as `noun` says, and `built-in only:`).
fn disagreements(noun: &str, found: &[Step], twin: &[Step]) -> Vec<String> {
    let a = changes(found);
    let b = changes(twin);
    let mut out: Vec<String> = a
        .difference(&b)
        .map(|c| format!("{noun} only: {}", changes_text(c)))
        .collect();
    out.extend(
        b.difference(&a)
            .map(|c| format!("built-in only: {}", changes_text(c))),
    );
    out
}
