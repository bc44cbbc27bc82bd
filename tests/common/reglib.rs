//! Helpers for the regression-library tests (`tests/reglib*.rs`): the library from the shared
//! data, the basic techniques a family's pipeline starts with, the cases of a code, and the
//! failures but the known gaps.

use lapiz::Pipeline;
use lapiz::technique::{Technique, builtin};
use lapiz::tools::{Report, Tally};

/// HoDoKu's regression library from the shared data, or `None` (the test is skipped, see
/// [`super::read_data`]).
pub fn library() -> Option<String> {
    super::read_data("reglib/reglib-1.4-dev.txt")
}

/// The basic techniques, in the default pipeline's order: singles, intersections, subsets.
pub const BASICS: [&str; 13] = [
    "full-house",
    "hidden-single",
    "naked-single",
    "pointing",
    "claiming",
    "locked-pair",
    "naked-pair",
    "hidden-pair",
    "locked-triple",
    "naked-triple",
    "hidden-triple",
    "naked-quad",
    "hidden-quad",
];

/// The [`BASICS`], then `family`.
pub fn basics_then(family: Vec<Box<dyn Technique>>) -> Vec<Box<dyn Technique>> {
    let mut v: Vec<Box<dyn Technique>> = BASICS
        .iter()
        .map(|id| builtin(id).unwrap_or_else(|| panic!("no built-in {id}")))
        .collect();
    v.extend(family);
    v
}

/// A pipeline named `name` of the [`BASICS`], then `family`.
pub fn basics_then_pipeline(name: &str, family: Vec<Box<dyn Technique>>) -> Pipeline {
    Pipeline::from_techniques(name, basics_then(family)).expect("unique ids")
}

/// The cases of `code` in `report`, all its variants (`0901-1`, `0901-2`, ...) together.
pub fn of_code(report: &Report, code: &str) -> Tally {
    let mut sum = Tally::default();
    for (_, t) in report
        .per_code
        .iter()
        .filter(|(c, _)| c.split('-').next() == Some(code))
    {
        sum.passed += t.passed;
        sum.failed += t.failed;
        sum.skipped += t.skipped;
    }
    sum
}

/// Prints the passed and failed cases of every code of `report` that `show` accepts.
pub fn print_codes(report: &Report, show: impl Fn(&str, &Tally) -> bool) {
    for (code, t) in &report.per_code {
        if show(code, t) {
            eprintln!("{code}: {} passed, {} failed", t.passed, t.failed);
        }
    }
}

/// Whether a code had cases run ([`print_codes`]'s usual filter).
pub fn ran(_: &str, t: &Tally) -> bool {
    t.passed + t.failed > 0
}

/// Lines of `reglib-1.4-dev.txt` our finders do not pass yet, with what is missing. The test fails if one of
/// them starts passing (take it off the list) or if any other case fails.
pub const KNOWN_GAPS: &[(usize, &str)] = &[];

/// A message for every failed case of a library run (what was expected, what was found) but
/// the known gaps ([`KNOWN_GAPS`]).
pub fn failures(report: &lapiz::tools::Report) -> Vec<String> {
    let mut messages = Vec::new();
    for f in &report.failures {
        if is_known_gap(f.line_number) {
            continue;
        }
        let found: Vec<&str> = f.found.iter().map(|s| s.explanation.as_str()).collect();
        messages.push(format!(
            "line {} [{}]: {}\n  expected {}\n  found {found:#?}",
            f.line_number, f.code, f.reason, f.expected
        ));
    }
    messages
}

/// Whether a library line is one of [`KNOWN_GAPS`].
pub fn is_known_gap(line: usize) -> bool {
    KNOWN_GAPS.iter().any(|&(l, _)| l == line)
}

/// A message for every known gap that passes now (it must come off the list), for a run of
/// the techniques that answer the gaps' codes.
pub fn gaps_unchanged(report: &lapiz::tools::Report) -> Vec<String> {
    KNOWN_GAPS
        .iter()
        .filter(|&&(line, _)| !report.failures.iter().any(|f| f.line_number == line))
        .map(|(line, why)| format!("line {line} passes now: take it off KNOWN_GAPS ({why})"))
        .collect()
}
