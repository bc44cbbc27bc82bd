//! `--time-limit` and Ctrl-C on the command line: a stopped solve is reported as stopped with
//! its steps, a file records the stopped puzzle and goes on, Ctrl-C lets every record made out,
//! and runs that could go on without end are bounded.

mod common;

use std::process::{Command, Stdio};

use common::cli::{run_lapiz, run_lapiz_within, text};
use common::temp_file;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// The first puzzle of `top1465`: the default pipeline needs a forcing net.
const FORCING: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// `lapiz generate --size 25 --seed 1`: a minimal 25x25 puzzle, whose solve by logic takes
/// hours.
const MINIMAL_25: &str = include_str!("fixtures/minimal-25x25.txt");

/// A time limit that has passed by the time the solve starts.
const NO_TIME: &str = "0.000001";

#[test]
fn a_solve_past_its_time_limit_is_reported_stopped() {
    let (ok, out, err) = run_lapiz(&["solve", FORCING, "--time-limit", NO_TIME]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Stopped (time limit reached) after 0 steps"),
        "{out}"
    );
    let (ok, out, _) = run_lapiz(&["solve", FORCING, "--time-limit", NO_TIME, "--format", "ron"]);
    assert!(ok && out.contains("Stopped("), "{out}");
    // a generous limit changes nothing
    let (ok, out, _) = run_lapiz(&["solve", FORCING, "--time-limit", "600"]);
    assert!(ok && out.contains("Solved in"), "{out}");
    let (ok, _, err) = run_lapiz(&["solve", FORCING, "--time-limit", "0"]);
    assert!(!ok && err.contains("above 0"), "{err}");
}

#[test]
fn a_file_records_each_stopped_puzzle_and_goes_on() {
    let file = temp_file("stop", "p.txt", format!("{EASY}\n{FORCING}\n{EASY}\n"));
    let path = file.to_str().unwrap();
    let (ok, out, err) = run_lapiz(&["solve", "--file", path, "--time-limit", NO_TIME]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for line in &lines[..3] {
        assert!(line.contains("\tstopped\t0\ttime limit reached"), "{line}");
    }
    assert_eq!(
        lines[3],
        "solved: 0, guessed: 0, stuck: 0, stopped: 3, invalid: 0, rejected steps: 0"
    );
    let (ok, out, _) = run_lapiz(&["rate", "--file", path, "--time-limit", NO_TIME]);
    assert!(ok, "a stopped rating is no invalid puzzle: {out}");
    assert_eq!(
        out.matches("stopped (time limit reached)").count(),
        3,
        "{out}"
    );
}

#[test]
fn a_single_rating_or_hint_past_its_time_limit_fails_saying_so() {
    for command in ["rate", "hint"] {
        let out = Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args([command, FORCING, "--time-limit", NO_TIME])
            .output()
            .expect("lapiz runs");
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            text(&out.stderr).contains("stopped"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_minimal_25x25_is_stopped_at_its_time_limit_with_its_steps() {
    let puzzle = MINIMAL_25.trim();
    let out = run_lapiz_within(&["solve", puzzle, "--time-limit", "1"], 120)
        .expect("the time limit ends the solve");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = text(&out.stdout);
    assert!(out.contains("Stopped (time limit reached) after"), "{out}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_lets_every_record_made_out() {
    // two workers: one holds the 25x25 puzzle, the other solves the rest
    let lines = format!("{EASY}\n{}\n{FORCING}\n{EASY}\n", MINIMAL_25.trim());
    let file = temp_file("stop", "p.txt", lines);
    let child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(["solve", "--file", file.to_str().unwrap(), "--threads", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lapiz runs");
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().expect("lapiz ends");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let records: Vec<&str> = stdout.lines().collect();
    assert_eq!(records.len(), 5, "{stdout}");
    assert!(records[0].contains("\tsolved\t"), "{stdout}");
    assert!(records[1].contains("\tstopped\t") && records[1].contains("cancelled"));
    assert!(records[2].contains("\tsolved\t") && records[3].contains("\tsolved\t"));
    assert!(records[4].contains("stopped: 1"), "{stdout}");
}

#[test]
fn bench_rounds_are_bounded() {
    let (ok, _, err) = run_lapiz(&[
        "technique",
        "bench",
        "techniques/x-wing.rhai",
        "--rounds",
        "18446744073709551615",
    ]);
    assert!(
        !ok && err.contains("not a number of rounds from 1 to 10000"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_line_without_end_is_reported_and_left() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/techniques/x-wing.rhai");
    let out = run_lapiz_within(
        &[
            "technique",
            "check",
            script,
            "--file",
            "/dev/zero",
            "--limit",
            "1",
        ],
        120,
    )
    .expect("an endless line is cut");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("line 1 FAILED: cannot read: line longer than 8192 bytes"),
        "{stdout}"
    );
}
