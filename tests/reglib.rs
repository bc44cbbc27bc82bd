//! Every HoDoKu regression-library case of the built-in techniques passes.

mod common;

use lapiz::technique::{CATALOGUE, builtins};
use lapiz::tools::run_library;

/// Codes of built-ins that HoDoKu's library 1.4-dev has no case of.
const NOT_IN_LIBRARY: &[&str] = &[
    "0330", "0350", "0351", "0352", "0360", "0361", "03611", "03631", "0371", "0372", "0802",
    // the fish of six and seven houses, and of five but the finned mutant one
    "0303", "0304", "0305", "0313", "03131", "0314", "03141", "0315", "03151", "0323", "03231",
    "0324", "03241", "0325", "03251", "0333", "0334", "0335", "0343", "03431", "0344", "03441",
    "0345", "03451", "0353", "0354", "0355", "0364", "03641", "0365", "03651",
];

#[test]
fn every_builtin_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let report = run_library(&text, &builtins());
    let mut messages = common::reglib::failures(&report);
    messages.extend(common::reglib::gaps_unchanged(&report));
    assert!(
        report.errors.is_empty(),
        "unreadable lines: {:?}",
        report.errors
    );
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    // every code of every built-in has cases (but those the library lacks), and all ran
    for (id, code) in CATALOGUE
        .iter()
        .flat_map(|i| i.codes.iter().map(move |c| (i.id, *c)))
    {
        let t = common::reglib::of_code(&report, code);
        assert_eq!(t.skipped, 0, "{id} cases skipped");
        let passed = t.passed;
        assert_eq!(
            passed == 0,
            NOT_IN_LIBRARY.contains(&code),
            "{code} ({id}): {passed} cases passed"
        );
    }
}

#[test]
fn unknown_codes_are_skipped_never_passed() {
    let line = ":0001:2:.......8...4..37....6..92..6.9...84.4...8...6.85...3.1..83..6....25..9...3.......:::::";
    let report = run_library(line, &builtins());
    assert_eq!(report.total().skipped, 1);
    assert_eq!(report.total().passed, 0);
}

#[test]
fn a_wrong_expectation_fails() {
    // A real hidden single case with the expected placement changed to another digit.
    let line = ":0002:9:+1....8...3.5.........72.9.1.94.8.6.5.1..4..9.8.6.1.34.6.1.32.........4.2...8.....:::813:";
    let report = run_library(line, &builtins());
    assert_eq!(report.total().failed, 1, "{report:?}");
}
