//! The `guess` technique in a pipeline: a hard puzzle is finished with guesses, and the trace,
//! the text, `solve --file` (status `guessed`, the summary line) and `rate` (level `guessed`)
//! all say so.

mod common;

use common::cli::text;

use std::path::PathBuf;

use common::cli::run_lapiz_stdin as lapiz;
use lapiz::engine::Trace;
use lapiz::{Pipeline, solve_puzzle};

/// Arto Inkala's puzzle: the default pipeline finishes it with forcing chains, the pipeline
/// without them ([`common::pipeline_without_forcing`]) gets stuck.
const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The default pipeline without the forcing techniques, with `guess` appended, as RON: the
/// logic gets stuck on [`HARD`], so the guesses finish it.
fn no_forcing_with_guess() -> String {
    let fixture = std::fs::read_to_string(common::no_forcing_pipeline_file()).unwrap();
    let ron = fixture.replace(
        "techniques: [Pipeline(\"default\")],",
        "techniques: [Pipeline(\"default\"), Technique(\"guess\")],",
    );
    assert!(ron.contains("Technique(\"guess\")"), "{ron}");
    let ron = ron.replace(
        "name: \"default-without-forcing\"",
        "name: \"no-forcing-and-guess\"",
    );
    assert!(ron.contains("no-forcing-and-guess"), "{ron}");
    ron
}

/// Writes a pipeline file for one test: its path, with the guard of its temporary folder.
fn pipeline_file(name: &str, ron: &str) -> common::TempFile {
    common::temp_file("guess", &format!("{name}.ron"), ron)
}

#[test]
fn guess_is_not_in_the_default_pipeline() {
    let p = Pipeline::default_pipeline();
    assert!(p.techniques().iter().all(|t| t.id() != "guess"));
    let t = lapiz::technique::builtin("guess").expect("a built-in");
    assert_eq!((t.name(), t.difficulty()), ("Guess", 12.0));
    // above every logical built-in
    for other in lapiz::technique::builtins() {
        if other.id() != "guess" {
            assert!(other.difficulty() < t.difficulty(), "{}", other.id());
        }
    }
}

#[test]
fn the_trace_counts_the_guesses() {
    let p = Pipeline::from_ron(&no_forcing_with_guess(), "test").unwrap();
    let t = solve_puzzle(HARD, &p);
    assert!(t.is_solved(), "{}", t.to_text(None));
    assert!(t.is_guessed());
    let guesses = t.steps().filter(|s| s.technique == "guess").count();
    assert!(guesses > 0);
    assert_eq!(t.summary.guesses, guesses);
    assert_eq!(t.summary.rejected, 0);
    let h = t.summary.hardest.as_ref().unwrap();
    assert_eq!((h.technique.as_str(), h.difficulty), ("guess", 12.0));
    // in the RON, and read back
    let ron = t.to_ron();
    assert!(ron.contains(&format!("    guesses: {guesses},\n")), "{ron}");
    assert_eq!(Trace::from_ron(&ron).unwrap(), t);
    // the text says it
    let text = t.to_text(None);
    assert!(
        text.contains(&format!("The solve used {guesses} guess")),
        "{text}"
    );
    assert!(text.contains("Guess: r"), "{text}");
    // a puzzle the logic finishes has none, and no `guesses` in its RON
    let easy = solve_puzzle(EASY, &p);
    assert!(easy.is_solved() && !easy.is_guessed());
    assert_eq!(easy.summary.guesses, 0);
    assert!(!easy.to_ron().contains("guesses"));
    assert!(!easy.to_text(None).contains("guess"));
}

#[test]
fn solve_file_marks_guessed_puzzles_and_counts_them() {
    let path = pipeline_file("no-forcing-and-guess", &no_forcing_with_guess());
    let input = format!("{EASY}\n{HARD}\nnot a puzzle\n");
    let out = lapiz(
        &["solve", "--file", "-", "--pipeline", path.to_str().unwrap()],
        Some(&input),
    );
    let s = text(&out.stdout);
    // the unreadable line makes the exit code 1; the rest is processed
    assert_eq!(out.status.code(), Some(1), "{s}{}", text(&out.stderr));
    let rows: Vec<Vec<&str>> = s.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 4, "{s}");
    assert_eq!((rows[0][0], rows[0][1]), (EASY, "solved"));
    assert_eq!((rows[1][0], rows[1][1]), (HARD, "guessed"));
    assert_eq!(rows[1][3], "guess 12.0");
    assert_eq!((rows[2][0], rows[2][1]), ("not a puzzle", "invalid"));
    assert_eq!(
        s.lines().last().unwrap(),
        "solved: 1, guessed: 1, stuck: 0, invalid: 1, rejected steps: 0"
    );
    // without guess the hard puzzle is stuck
    let out = lapiz(
        &[
            "solve",
            "--file",
            "-",
            "--pipeline",
            common::no_forcing_pipeline_file(),
        ],
        Some(&format!("{EASY}\n{HARD}\n")),
    );
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout).lines().last().unwrap(),
        "solved: 1, guessed: 0, stuck: 1, invalid: 0, rejected steps: 0"
    );
}

#[test]
fn singles_and_guess_finish_a_hard_puzzle() {
    // a pipeline of singles and guess, with a script added by --technique: the guesses fill in
    // what the singles cannot
    let ron = "Pipeline(name: \"singles-and-guess\", techniques: [Technique(\"full-house\"), \
               Technique(\"hidden-single\"), Technique(\"naked-single\"), Technique(\"guess\")])";
    let path = pipeline_file("singles-and-guess", ron);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("techniques/x-wing.rhai");
    let out = lapiz(
        &[
            "solve",
            "--file",
            "-",
            "--pipeline",
            path.to_str().unwrap(),
            "--technique",
            script.to_str().unwrap(),
        ],
        Some(&format!("{HARD}\n")),
    );
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(s.starts_with(&format!("{HARD}\tguessed\t")), "{s}");
    assert!(
        s.ends_with("solved: 0, guessed: 1, stuck: 0, invalid: 0, rejected steps: 0\n"),
        "{s}"
    );
    // one puzzle: the explained solve says how many guesses it used
    let out = lapiz(&["solve", HARD, "--pipeline", path.to_str().unwrap()], None);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(s.contains("Guess: r"), "{s}");
    assert!(s.contains("The solve used "), "{s}");
}

#[test]
fn rate_marks_a_rating_that_needed_a_guess() {
    let path = pipeline_file("rate", &no_forcing_with_guess());
    let input = format!("{EASY}\n{HARD}\n");
    let out = lapiz(
        &[
            "rate",
            "--file",
            "-",
            "--no-header",
            "--pipeline",
            path.to_str().unwrap(),
        ],
        Some(&input),
    );
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    let rows: Vec<Vec<&str>> = s.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0][2], "easy");
    assert_eq!(
        (rows[1][0], rows[1][1], rows[1][2], rows[1][4]),
        (HARD, "12.0", "guessed", "guess")
    );
    assert!(rows[1][5].contains(" guess="), "{}", rows[1][5]);
}
