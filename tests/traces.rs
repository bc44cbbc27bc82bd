//! insta snapshots of whole solve traces, and their RON round trip.
//!
//! The fixtures are our own: puzzles derived by relabelling and transposing, a famous hard
//! puzzle, and broken inputs.

mod common;

use lapiz::engine::Trace;
use lapiz::{Pipeline, solve_puzzle};

/// Project Euler's first grid: singles only.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Needs a hidden pair.
const HIDDEN_PAIR: &str =
    ".....8..5....7..6.....14......5..2.3..7........1.....8......87...9.......3.2.....";
/// Needs a naked triple.
const NAKED_TRIPLE: &str =
    "..............2..8..7.5..69.....834...1........9...2......1........9...6.3....4..";
/// Needs fish beyond the basics: a sashimi X-wing and a sashimi swordfish.
const FISH: &str =
    "........2.......39..7..1..........53......6....1.92........87.....5.4....39......";
/// Arto Inkala's famous hard puzzle: only the forcing chains finish it; without them the
/// solve gets stuck.
const STUCK: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// Many solutions (only the first three rows of EASY).
const MULTIPLE: &str =
    "..3.2.6..9..3.5..1..18.64........................................................";
/// Two 3s in row 1.
const CLASH: &str =
    "3.3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn trace(puzzle: &str) -> Trace {
    trace_with(puzzle, &Pipeline::default_pipeline())
}

fn trace_with(puzzle: &str, pipeline: &Pipeline) -> Trace {
    let t = solve_puzzle(puzzle, pipeline);
    let back = Trace::from_ron(&t.to_ron()).expect("a trace reads back");
    assert_eq!(back, t, "RON round trip");
    t
}

#[test]
fn easy_singles_only() {
    let t = trace(EASY);
    assert!(t.is_solved());
    insta::assert_snapshot!("easy", t.to_ron());
}

#[test]
fn hidden_pair() {
    let t = trace(HIDDEN_PAIR);
    assert!(t.is_solved());
    assert!(t.steps().any(|s| s.technique == "hidden-pair"));
    insta::assert_snapshot!("hidden_pair", t.to_ron());
}

#[test]
fn naked_triple() {
    let t = trace(NAKED_TRIPLE);
    assert!(t.is_solved());
    assert!(t.steps().any(|s| s.technique == "naked-triple"));
    insta::assert_snapshot!("naked_triple", t.to_ron());
}

#[test]
fn sashimi_fish() {
    let t = trace(FISH);
    assert!(t.is_solved());
    assert!(t.steps().any(|s| s.technique == "sashimi-swordfish"));
    insta::assert_snapshot!("sashimi_fish", t.to_ron());
    let grid = lapiz::text::parse_puzzle(FISH).unwrap();
    insta::assert_snapshot!("sashimi_fish_text", t.to_text(Some(&grid)));
}

#[test]
fn stuck_keeps_the_pencil_marks() {
    let t = trace_with(STUCK, &common::pipeline_without_forcing());
    assert!(matches!(t.outcome, lapiz::engine::Outcome::Stuck { .. }));
    insta::assert_snapshot!("stuck", t.to_ron());
    let grid = lapiz::text::parse_puzzle(STUCK).unwrap();
    insta::assert_snapshot!("stuck_text", t.to_text(Some(&grid)));
}

#[test]
fn invalid_inputs() {
    insta::assert_snapshot!("multiple", trace(MULTIPLE).to_ron());
    insta::assert_snapshot!("clash", trace(CLASH).to_ron());
    insta::assert_snapshot!("malformed", trace("12345").to_ron());
}

#[test]
fn library_line_start_is_recorded() {
    // A hidden single case written as a library line: placed digits and removed candidates.
    let line = ":0002:1:74..+2+9..6+3+9.8..2..+28.3+7.+945.+2..651......+9+3.+2...328....63...7.9+2.+79+6.2...5+1+2+9+3+8+764:118 123 125 126 185::175:";
    let t = trace(line);
    assert!(t.start.is_some());
    assert!(t.is_solved());
    insta::assert_snapshot!("library_start", t.to_ron());
}

#[test]
fn easy_text() {
    let grid = lapiz::text::parse_puzzle(EASY).unwrap();
    insta::assert_snapshot!("easy_text", trace(EASY).to_text(Some(&grid)));
}
