//! Runs HoDoKu regression-library cases against lapiz's finders.
//!
//! A case passes when one step found by the technique for its code has exactly the expected
//! eliminations (or placements); a `-x` case passes when none is found. Cases whose code no
//! technique answers are skipped and counted, never passed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::brute::nine::{self as solver, Solutions};
use crate::model::ParseError;
use crate::model::grid::Candidate;
use crate::step::Step;
use crate::technique::{Technique, find_all};
use crate::text::nine::{LibraryCase, parse_library_line};

/// The result of one case.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseResult {
    /// A step with exactly the expected changes was found (or none, for a `-x` case).
    Passed,
    /// No step matched; `found` lists what the technique did find.
    Failed {
        /// Why, in words.
        reason: String,
        /// The steps the technique found.
        found: Vec<Step>,
    },
    /// No technique answers this code.
    Skipped,
}

/// Passed, failed and skipped counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases passed.
    pub passed: usize,
    /// Cases failed.
    pub failed: usize,
    /// Cases skipped.
    pub skipped: usize,
}

impl Tally {
    /// Counts one result.
    pub fn add(&mut self, r: &CaseResult) {
        match r {
            CaseResult::Passed => self.passed += 1,
            CaseResult::Failed { .. } => self.failed += 1,
            CaseResult::Skipped => self.skipped += 1,
        }
    }
}

/// A failed case, for reports.
#[derive(Clone, Debug)]
pub struct Failure {
    /// 1-based line number in the library file.
    pub line_number: usize,
    /// The code as written (with variant).
    pub code: String,
    /// The line.
    pub line: String,
    /// Why.
    pub reason: String,
    /// Expected changes, as text.
    pub expected: String,
    /// Steps found.
    pub found: Vec<Step>,
}

/// The result of running a whole library.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Tally per code as written (e.g. `0110-1`), sorted.
    pub per_code: BTreeMap<String, Tally>,
    /// Every failure in file order.
    pub failures: Vec<Failure>,
    /// Lines that could not be read: line number and error.
    pub errors: Vec<(usize, String)>,
}

impl Report {
    /// The totals over all codes (unreadable lines count as failed).
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for v in self.per_code.values() {
            t.passed += v.passed;
            t.failed += v.failed;
            t.skipped += v.skipped;
        }
        t.failed += self.errors.len();
        t
    }
}

fn candidate_set(c: &[Candidate]) -> BTreeSet<Candidate> {
    c.iter().copied().collect()
}

/// The expected changes of a case as text, e.g. `r1c4<>1, r2c9=8`.
pub fn expected_text(case: &LibraryCase) -> String {
    let mut parts: Vec<String> = case
        .placements
        .iter()
        .map(|p| format!("{}={}", p.cell, p.digit))
        .collect();
    if !case.eliminations.is_empty() {
        parts.push(crate::step::eliminations_text(&case.eliminations));
    }
    if case.expects_nothing() {
        parts.push("nothing".into());
    }
    parts.join(", ")
}

/// Runs one case against `technique` (which must answer the case's code).
pub(crate) fn check_case(case: &LibraryCase, technique: &dyn Technique) -> CaseResult {
    match find_all(technique, &case.grid) {
        Ok(found) => judge(case, found),
        Err(e) => CaseResult::Failed {
            reason: e.to_string(),
            found: Vec::new(),
        },
    }
}

/// Judges the steps a technique `found` on a case's grid, without searching again: the
/// verdict `check_case` gives for them.
pub fn judge(case: &LibraryCase, found: Vec<Step>) -> CaseResult {
    // Every step must be sound where the case has a unique solution.
    if let Solutions::Unique(solution) = solver::analyze(case.grid.values()) {
        let consistent = case
            .grid
            .empty_cells()
            .iter()
            .all(|c| case.grid.has_candidate(c, solution[c.index()]));
        if consistent
            && let Some((step, bad)) = found
                .iter()
                .find_map(|s| s.contradiction(&solution).map(|c| (s, c)))
        {
            return CaseResult::Failed {
                reason: format!(
                    "unsound step (contradicts the solution at {bad}): {}",
                    step.explanation
                ),
                found,
            };
        }
    }
    if case.expects_nothing() {
        return if found.iter().any(|s| !s.is_empty()) {
            CaseResult::Failed {
                reason: "expected no step".into(),
                found,
            }
        } else {
            CaseResult::Passed
        };
    }
    let want_elims = candidate_set(&case.eliminations);
    let want_places = candidate_set(&case.placements);
    let matched = found.iter().any(|s| {
        candidate_set(&s.eliminations) == want_elims && candidate_set(&s.placements) == want_places
    });
    if matched {
        CaseResult::Passed
    } else {
        let reason = if found.is_empty() {
            "no step found".to_string()
        } else {
            format!(
                "{} step(s) found, none with exactly the expected changes",
                found.len()
            )
        };
        CaseResult::Failed { reason, found }
    }
}

/// One case line of a library text (not blank, not a `#` comment), before it is parsed.
#[derive(Clone, Copy, Debug)]
pub struct CaseLine<'a> {
    /// 1-based line number in the text.
    pub line_number: usize,
    /// The line, trimmed.
    pub text: &'a str,
}

impl<'a> CaseLine<'a> {
    /// The code field as written, with its variant (`0110-1`), read without parsing the rest
    /// of the line, so a caller can pass over other codes' lines; empty when there is none.
    pub fn code_field(&self) -> &'a str {
        self.text.split(':').nth(1).unwrap_or("")
    }

    /// The code without its variant (`0110`).
    pub fn code(&self) -> &'a str {
        let field = self.code_field();
        field.split('-').next().unwrap_or(field)
    }

    /// The parsed case.
    pub fn parse(&self) -> Result<LibraryCase, ParseError> {
        parse_library_line(self.text)
    }
}

/// The largest library file read, in bytes (HoDoKu's reglib-1.4 is about 150 KB).
pub(crate) const MAX_LIBRARY_BYTES: u64 = 64 << 20;

/// A library file as read by [`read_library`].
#[derive(Clone, Debug, Default)]
pub struct LibraryText {
    /// The text, each line that is not UTF-8 left blank so that line numbers are kept.
    pub text: String,
    /// The lines that are not UTF-8: line number and why.
    pub errors: Vec<(usize, String)>,
}

/// Reads a library file (a regular file of at most 64 MiB). A line that is not
/// UTF-8 becomes an error of its own and the rest is read; a UTF-8 byte-order mark is
/// dropped.
pub fn read_library(path: &Path) -> std::io::Result<LibraryText> {
    let bytes = crate::text::files::read_capped(path, MAX_LIBRARY_BYTES)?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let mut library = LibraryText {
        text: String::with_capacity(bytes.len()),
        errors: Vec::new(),
    };
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        match std::str::from_utf8(line) {
            Ok(line) => library.text.push_str(line),
            Err(e) => {
                library
                    .errors
                    .push((i + 1, crate::text::nine::not_utf8(&e)));
                library.text.push('\n');
            }
        }
    }
    Ok(library)
}

/// The case lines of a library text, in order: blank lines and `#` comments are left out.
pub fn case_lines(text: &str) -> impl Iterator<Item = CaseLine<'_>> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        (!line.is_empty() && !line.starts_with('#')).then_some(CaseLine {
            line_number: i + 1,
            text: line,
        })
    })
}

/// Runs every case of a library text (one case per line; `#` comments and blank lines
/// ignored) against `techniques`, choosing for each case the techniques that answer its code.
/// With several techniques answering a code, a case passes when any of them passes it.
pub fn run_library(text: &str, techniques: &[Box<dyn Technique>]) -> Report {
    run_library_with(text, techniques, |_, _, _| {})
}

/// Like [`run_library`], calling `on_case(line_number, case, result)` after every case.
pub(crate) fn run_library_with(
    text: &str,
    techniques: &[Box<dyn Technique>],
    mut on_case: impl FnMut(usize, &LibraryCase, &CaseResult),
) -> Report {
    let codes: Vec<Vec<String>> = techniques.iter().map(|t| t.library_codes()).collect();
    let mut report = Report::default();
    for case_line in case_lines(text) {
        let (line_number, line) = (case_line.line_number, case_line.text);
        let case = match case_line.parse() {
            Ok(c) => c,
            Err(e) => {
                report.errors.push((line_number, e.to_string()));
                continue;
            }
        };
        let mut result = CaseResult::Skipped;
        for (t, c) in techniques.iter().zip(&codes) {
            if !c.contains(&case.code) {
                continue;
            }
            let r = check_case(&case, t.as_ref());
            let done = r == CaseResult::Passed;
            if !matches!(result, CaseResult::Failed { .. }) || done {
                result = r;
            }
            if done {
                break;
            }
        }
        let code = match &case.variant {
            Some(v) => format!("{}-{v}", case.code),
            None => case.code.clone(),
        };
        report
            .per_code
            .entry(code.clone())
            .or_default()
            .add(&result);
        on_case(line_number, &case, &result);
        if let CaseResult::Failed { reason, found } = result {
            report.failures.push(Failure {
                line_number,
                code,
                line: line.to_string(),
                reason,
                expected: expected_text(&case),
                found,
            });
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    const X_WING: &str = ":0300:4:+7.9+3+2+8+6..+628145+9+3+7.5+367+9.+8+2+8...3+6.+2..+3..+1+7.685..+4+823.93.78.+42.6.8.+2.+3......+7.1+84+3::443 447::";

    #[test]
    fn case_lines_skip_blanks_and_comments_and_read_the_code_without_parsing() {
        let text = format!("# header\n\n  {X_WING}  \n:0901-2:junk\n");
        let lines: Vec<CaseLine> = case_lines(&text).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line_number, 3);
        assert_eq!(lines[0].text, X_WING);
        assert_eq!((lines[0].code_field(), lines[0].code()), ("0300", "0300"));
        assert_eq!((lines[1].code_field(), lines[1].code()), ("0901-2", "0901"));
        assert!(lines[0].parse().is_ok());
        assert!(lines[1].parse().is_err());
    }

    #[test]
    fn judge_gives_check_cases_verdict_on_the_steps_found() {
        let case = parse_library_line(X_WING).unwrap();
        let x_wing = crate::technique::builtin("x-wing").unwrap();
        let found = find_all(x_wing.as_ref(), &case.grid).unwrap();
        assert_eq!(judge(&case, found.clone()), CaseResult::Passed);
        assert_eq!(check_case(&case, x_wing.as_ref()), CaseResult::Passed);
        assert!(matches!(
            judge(&case, Vec::new()),
            CaseResult::Failed { reason, .. } if reason == "no step found"
        ));
    }
}
