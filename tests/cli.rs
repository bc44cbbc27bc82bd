//! The `lapiz` command line: names, output shapes and exit codes other tools rely on.

mod common;

use common::cli::text;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Stuck without the forcing chains ([`common::no_forcing_pipeline_file`]).
const STUCK: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

use common::cli::run_lapiz_stdin as lapiz;

#[test]
fn solve_prints_an_explained_solution() {
    let out = lapiz(&["solve", EASY], None);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("  1. Hidden Single:"), "{s}");
    assert!(s.contains("Solved in"), "{s}");
}

#[test]
fn solve_writes_ron_trace() {
    let dir = common::temp_dir("cli");
    let path = dir.path().join("trace.ron");
    let out = lapiz(
        &[
            "solve",
            EASY,
            "--format",
            "ron",
            "--trace",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success());
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, text(&out.stdout));
    assert!(
        lapiz::engine::Trace::from_ron(&written)
            .unwrap()
            .is_solved()
    );
}

#[test]
fn solve_rejects_bad_input_with_a_clear_error() {
    let out = lapiz(&["solve", "12x"], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unexpected character 'x' at position 3"));
    let clash = format!("33{}", &EASY[2..]);
    let out = lapiz(&["solve", &clash], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("r1c1 and r1c2 both hold 3"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn solve_file_processes_every_line_and_summarises() {
    let input = format!(
        "# a comment\n{EASY}\n\n{STUCK}\nnot a puzzle\n{}\n",
        ".".repeat(81)
    );
    let pipeline = ["--pipeline", common::no_forcing_pipeline_file()];
    let out = lapiz(
        &[&["solve", "--file", "-"][..], &pipeline].concat(),
        Some(&input),
    );
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "solved: 1, guessed: 0, stuck: 1, invalid: 2, rejected steps: 0"
    );
    assert_eq!(stdout.lines().count(), 5);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("-:5: unexpected character 'n' at position 1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("-:6: invalid puzzle: the puzzle has more than one solution"),
        "{stderr}"
    );
    assert!(
        !out.status.success(),
        "a bad line makes the exit status non-zero"
    );
}

#[test]
fn candidates_prints_the_pencil_marks() {
    let out = lapiz(&["candidates", EASY], None);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 13);
    assert!(s.starts_with(".--"));
}

#[test]
fn count_reports_each_puzzle_and_totals() {
    let input = format!("{EASY}\n{}\n33{}\nbad\n", ".".repeat(81), &EASY[2..]);
    let out = lapiz(&["count", "--file", "-", "--limit", "5"], Some(&input));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[0].ends_with("\t1"));
    assert!(lines[1].ends_with("\t5"));
    assert!(lines[2].ends_with("\t0"));
    assert!(lines[3].ends_with("\terror"));
    assert_eq!(lines[4], "puzzles: 3, unique: 1, none: 1, multiple: 1");
    assert!(text(&out.stderr).contains("-:4:"));
}

#[test]
fn techniques_lists_the_pipeline() {
    let out = lapiz(&["techniques"], None);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("naked-pair"));
    assert!(s.contains("Hidden Quadruple"));
    assert!(s.contains("built-in"));
}

#[test]
fn reglib_counts_and_fails_on_failure() {
    let dir = common::temp_dir("cli-reglib");
    let good = ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:";
    let skipped = ":0001:2:.......8...4..37....6..92..6.9...84.4...8...6.85...3.1..83..6....25..9...3.......:::::";
    let wrong = good.replace(":829:", ":819:");
    let path = dir.path().join("lib.txt");
    std::fs::write(&path, format!("# cases\n{good}\n{skipped}\n")).unwrap();
    let out = lapiz(&["reglib", path.to_str().unwrap()], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).ends_with("1 passed, 0 failed, 1 skipped\n"));
    std::fs::write(&path, format!("{good}\n{wrong}\n")).unwrap();
    let out = lapiz(&["reglib", path.to_str().unwrap(), "--verbose"], None);
    assert!(!out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("FAILED line 2 [0003]"), "{s}");
    assert!(s.contains("expected: r1c9=8"), "{s}");
    assert!(s.ends_with("1 passed, 1 failed, 0 skipped\n"));
}

#[test]
fn pipeline_file_is_used_and_errors_are_named() {
    let dir = common::temp_dir("cli-pipe");
    let path = dir.path().join("p.ron");
    std::fs::write(
        &path,
        "Pipeline(name: \"singles\", techniques: [Technique(\"naked-single\")])",
    )
    .unwrap();
    let out = lapiz(&["techniques", "--pipeline", path.to_str().unwrap()], None);
    assert_eq!(text(&out.stdout).lines().count(), 2);
    std::fs::write(&path, "Pipeline(techniques: [Technique(\"bogus\")])").unwrap();
    let out = lapiz(&["solve", EASY, "--pipeline", path.to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown technique `bogus`"));
}

#[test]
fn a_reader_that_stops_early_gets_no_message() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // many puzzles, so the batch is still writing when the reader goes away
    let puzzle =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    let file = common::temp_file("cli-reader", "puzzles.txt", puzzle.repeat(20_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(["--threads", "1", "solve", "--file"])
        .arg(file.as_os_str())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lapiz runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // the pipe's reader is gone (as after `| head -1`)
    let out = child.wait_with_output().unwrap();
    assert!(first.contains("solved"), "{first}");
    // output was lost: status 2, but no message to the terminal the reader left
    assert_eq!(out.status.code(), Some(2), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
