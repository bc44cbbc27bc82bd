//! The command line's exit statuses (one policy for every command), the escaping of untrusted
//! text in text output, and `canonical` on grids that defeat pruning.

mod common;

use common::cli::text;

use common::cli::run_lapiz_stdin as lapiz;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Eight givens: several solutions.
const SEVERAL: &str =
    "12345678.........................................................................";

fn code(args: &[&str], stdin: Option<&str>) -> i32 {
    let out = lapiz(args, stdin);
    out.status.code().expect("lapiz exits")
}

fn temp_file(name: &str, contents: &str) -> common::TempFile {
    common::temp_file("cli-robust", name, contents)
}

#[test]
fn single_puzzle_exit_statuses_follow_one_policy() {
    let clash = format!("33{}", &EASY[2..]);
    for command in ["solve", "rate", "canonical", "candidates"] {
        assert_eq!(code(&[command, EASY], None), 0, "{command} valid");
        assert_eq!(code(&[command, "12x"], None), 1, "{command} parse error");
    }
    // Several solutions or a clash: invalid for the commands that solve.
    for command in ["solve", "rate"] {
        assert_eq!(code(&[command, SEVERAL], None), 1, "{command} several");
        assert_eq!(code(&[command, &clash], None), 1, "{command} clash");
    }
    // canonical and candidates do not solve: a puzzle with several solutions is fine.
    assert_eq!(code(&["canonical", SEVERAL], None), 0);
    assert_eq!(code(&["candidates", SEVERAL], None), 0);
    // Usage errors and unloadable pipelines: 2.
    assert_eq!(code(&["solve"], None), 2);
    assert_eq!(code(&["rate", "--no-such-option", EASY], None), 2);
    let missing = "/nonexistent/lapiz-pipeline.ron";
    assert_eq!(code(&["solve", EASY, "--pipeline", missing], None), 2);
    assert_eq!(code(&["rate", EASY, "--pipeline", missing], None), 2);
}

#[test]
fn file_exit_statuses_follow_one_policy() {
    let valid = format!("{EASY}\n{EASY}\n");
    let several = format!("{EASY}\n{SEVERAL}\n");
    let unreadable = format!("{EASY}\nnot a puzzle\n");
    for command in ["solve", "rate", "count", "canonical"] {
        let args = [command, "--file", "-"];
        assert_eq!(code(&args, Some(&valid)), 0, "{command} valid");
        assert_eq!(code(&args, Some(&unreadable)), 1, "{command} bad line");
        assert_eq!(
            code(&[command, "--file", "/nonexistent/puzzles.txt"], None),
            2,
            "{command} missing file"
        );
    }
    // Several solutions: invalid for solve and rate, a result for count (counting is its job)
    // and canonical (which does not solve).
    assert_eq!(code(&["solve", "--file", "-"], Some(&several)), 1);
    assert_eq!(code(&["rate", "--file", "-"], Some(&several)), 1);
    assert_eq!(code(&["count", "--file", "-"], Some(&several)), 0);
    assert_eq!(code(&["canonical", "--file", "-"], Some(&several)), 0);
    let out = lapiz(&["solve", "--file", "-"], Some(&several));
    assert!(
        text(&out.stdout).contains("invalid: 1"),
        "{}",
        text(&out.stdout)
    );
    // Every line is still reported with the status 1.
    let out = lapiz(&["rate", "--file", "-", "--no-header"], Some(&several));
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

/// Characters that must never reach text output raw.
fn raw_controls(s: &str) -> Vec<char> {
    s.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
        })
        .collect()
}

#[test]
fn file_commands_escape_control_characters_of_input_lines() {
    // A bad puzzle line with ESC, CR in the middle, NUL and U+2028; a good line after it.
    let hostile = "12\u{1b}[2J\u{1b}[31m3\r4\u{0}5\u{2028}6";
    let input = format!("{hostile}\n{EASY}\n");
    for args in [
        &["solve", "--file", "-"][..],
        &["rate", "--file", "-"],
        &["rate", "--file", "-", "--format", "csv"],
        &["count", "--file", "-"],
        &["canonical", "--file", "-"],
    ] {
        let out = lapiz(args, Some(&input));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(
            raw_controls(&stdout),
            Vec::<char>::new(),
            "{args:?}: {stdout}"
        );
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{args:?}: {stderr}"
        );
        assert!(
            stdout.contains("12\\u{1b}[2J\\u{1b}[31m3\\r4\\05\\u{2028}6"),
            "{args:?}: {stdout}"
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
    // Single puzzles: the error message quotes the input escaped.
    for command in ["solve", "rate", "canonical", "candidates"] {
        let out = lapiz(&[command, "\u{1b}[2J"], None);
        let stderr = text(&out.stderr);
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("\\u{1b}"), "{command}: {stderr}");
    }
}

#[test]
fn script_explanations_and_errors_are_escaped_in_text_traces() {
    let script = temp_file(
        "loud.rhai",
        r#"const ID = "loud-single";
const NAME = "Loud single";
const DIFFICULTY = 0.5;
fn find(grid) {
    for d in 1..=9 {
        for s in grid.cells_by_house(d, "row", 1, 1) {
            return [step().place(s.first, d).explain("\x1b[2J\x1b[31mplaced\r\x00 here\u2028!")];
        }
    }
    []
}
"#,
    );
    let out = lapiz(
        &["solve", EASY, "--technique", script.to_str().unwrap()],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert_eq!(raw_controls(&stdout), Vec::<char>::new(), "{stdout}");
    assert!(
        stdout.contains("\\u{1b}[2J\\u{1b}[31mplaced\\r\\0 here\\u{2028}!"),
        "{stdout}"
    );
    // The RON trace keeps the explanation exactly (serde escapes it).
    let out = lapiz(
        &[
            "solve",
            EASY,
            "--format",
            "ron",
            "--technique",
            script.to_str().unwrap(),
        ],
        None,
    );
    let trace = lapiz::engine::Trace::from_ron(&text(&out.stdout)).unwrap();
    assert!(trace.to_ron().contains("placed"));

    // A script that fails with escapes in its message: the FAILED line is escaped too.
    let failing = temp_file(
        "failing.rhai",
        "const ID = \"failing\";\nconst DIFFICULTY = 0.5;\nfn find(grid) {\n    throw \"\\x1b[2Jboom\\r\";\n}\n",
    );
    let out = lapiz(
        &["solve", EASY, "--technique", failing.to_str().unwrap()],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("FAILED failing"), "{stdout}");
    assert_eq!(raw_controls(&stdout), Vec::<char>::new(), "{stdout}");
    assert!(stdout.contains("\\u{1b}[2Jboom\\r"), "{stdout}");
}

#[test]
fn script_prints_are_escaped_and_capped_per_solve() {
    let script = temp_file(
        "printer.rhai",
        r#"const ID = "printer";
const DIFFICULTY = 0.5;
fn find(grid) {
    print("\x1b[2J\x1b[31mred\r");
    debug("\x1b]0;title\x07");
    for i in 0..5000 {
        print("a line of forty bytes to fill stderr...");
    }
    []
}
"#,
    );
    let out = lapiz(
        &["solve", EASY, "--technique", script.to_str().unwrap()],
        None,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        raw_controls(&stderr),
        Vec::<char>::new(),
        "{}",
        &stderr[..200]
    );
    assert!(
        stderr.contains("\\u{1b}[2J\\u{1b}[31mred\\r"),
        "{}",
        &stderr[..200]
    );
    // the script runs at every position of the solve: 5000 lines each time, but the solve's
    // scripts print 64 KiB at most, then one line that says so
    assert!(
        stderr.len() < 64 * 1024 + 4096,
        "{} bytes of stderr",
        stderr.len()
    );
    assert_eq!(stderr.matches("script output cut").count(), 1, "one notice");
}

#[test]
fn canonical_of_a_thousand_empty_grids_and_sparse_lines() {
    let empty = ".".repeat(81);
    let mut input = String::new();
    for _ in 0..1000 {
        input.push_str(&empty);
        input.push('\n');
    }
    // A few clues, symmetric patterns: equivalent lines keep equal forms.
    let sparse = [
        format!("1{}", ".".repeat(80)),
        format!("{}1", ".".repeat(80)),
        format!("12{}", ".".repeat(79)),
        format!("{}21", ".".repeat(79)),
    ];
    for line in &sparse {
        input.push_str(line);
        input.push('\n');
    }
    let out = lapiz(&["canonical", "--file", "-"], Some(&input));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 1004);
    assert!(lines[..1000].iter().all(|l| *l == empty));
    assert_eq!(lines[1000], lines[1001]);
    assert_eq!(lines[1002], lines[1003]);
    assert_eq!(lines[1000], format!("{}1", ".".repeat(80)));
    // The search's work is bounded by a unit test in src/transform.rs (the empty grid places
    // nine rows); speed is measured, not timed here (docs/performance.md: 1,000 empty lines
    // 0.23 s, were 220 s).
}

/// Runs `sh -c script` in a fresh temporary folder (removed once the shell has ended), with
/// `$LAPIZ` the binary and `$P` an easy puzzle, so a test can redirect and close descriptors as
/// a shell user does.
fn shell(script: &str) -> std::process::Output {
    let dir = common::temp_dir("cli-robust-sh");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("LAPIZ", env!("CARGO_BIN_EXE_lapiz"))
        .env("P", EASY)
        .current_dir(dir.path())
        .output()
        .expect("sh runs")
}

#[test]
fn a_diagnostic_that_cannot_be_written_costs_no_results() {
    // An error message stderr refuses: the status stays the policy's, not a panic's 101.
    let out = shell(r#""$LAPIZ" solve abc 2>/dev/full"#);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // Per-line errors and the warnings of a solve on a full stderr: every result still written.
    let file = temp_file("bad-lines.txt", &format!("{EASY}\nnot a puzzle\n{EASY}\n"));
    let script = format!(r#""$LAPIZ" solve --file {} 2>/dev/full"#, file.display());
    let out = shell(&script);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(
        stdout.ends_with("invalid: 1, rejected steps: 0\n"),
        "{stdout}"
    );
    // stderr a pipe whose reader leaves after one line: every line still counted.
    let mut many = String::new();
    for i in 0..20_000 {
        many.push_str(if i % 2 == 0 { "bad line\n" } else { EASY });
        if i % 2 == 1 {
            many.push('\n');
        }
    }
    let file = temp_file("many-bad-lines.txt", &many);
    let script = format!(
        r#""$LAPIZ" count --file {} 2>&1 >count.out | head -1 >/dev/null; cat count.out"#,
        file.display()
    );
    let out = shell(&script);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 20_001, "{}", text(&out.stderr));
    assert!(
        stdout.ends_with("puzzles: 10000, unique: 10000, none: 0, multiple: 0\n"),
        "{}",
        stdout.lines().last().unwrap_or_default()
    );
}

#[test]
fn a_closed_or_read_only_stdout_is_an_error() {
    for script in [
        r#""$LAPIZ" solve "$P" >&-"#,
        r#""$LAPIZ" solve "$P" 1</dev/null"#,
        r#"echo "$P" | "$LAPIZ" count --file - >&-"#,
    ] {
        let out = shell(script);
        assert_eq!(out.status.code(), Some(2), "{script}");
        assert!(
            text(&out.stderr).contains("standard output is"),
            "{script}: {}",
            text(&out.stderr)
        );
    }
    // stdin closed: reading `-` is an error, not an empty file.
    let out = shell(r#""$LAPIZ" count --file - <&-"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("standard input is closed"));
    // stderr closed: no file lapiz writes takes its place, and the solve is whole.
    let out = shell(r#""$LAPIZ" solve "$P" --trace t.ron 2>&- && cat t.ron"#);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("Solved"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn help_and_version_fail_when_they_cannot_be_written() {
    for flag in ["--help", "--version", "help"] {
        let out = shell(&format!(r#""$LAPIZ" {flag} >/dev/full"#));
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let out = shell(&format!(r#""$LAPIZ" {flag} >/dev/null"#));
        assert_eq!(out.status.code(), Some(0), "{flag}");
    }
}

/// The first line `lapiz args` writes to stdout, waiting at most `seconds`; the run is then
/// killed (`None` when no line came in time).
fn first_line_within(args: &[&str], seconds: u64) -> Option<String> {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("lapiz runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(std::time::Duration::from_secs(seconds))
        .ok();
    let _ = child.kill();
    let _ = child.wait();
    line.filter(|l| !l.is_empty())
}

#[test]
fn batch_results_are_written_as_soon_as_their_turn_comes() {
    // An easy puzzle, then empty grids whose count (up to four billion) takes hours: the first
    // line must come out long before the chunk is done.
    let mut input = format!("{EASY}\n");
    for _ in 0..50 {
        input.push_str(&".".repeat(81));
        input.push('\n');
    }
    let file = temp_file("slow-after-easy.txt", &input);
    let file = file.to_str().unwrap();
    for threads in ["1", "2"] {
        let args = [
            "--threads",
            threads,
            "count",
            "--file",
            file,
            "--limit",
            "4000000000",
        ];
        let line = first_line_within(&args, 30);
        assert_eq!(line, Some(format!("{EASY}\t1\n")), "--threads {threads}");
    }
}

#[test]
fn threads_are_bounded_and_started_only_for_a_batch() {
    for n in ["0", "257", "100000"] {
        let out = shell(&format!(r#""$LAPIZ" --threads {n} canonical "$P""#));
        assert_eq!(out.status.code(), Some(2), "--threads {n}");
        assert!(text(&out.stderr).contains("from 1 to 256"), "--threads {n}");
    }
    let out = shell(r#"echo "$P" | RAYON_NUM_THREADS=100000 "$LAPIZ" count --file -"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("at most 256"));
    // In an address space too small for 200 threads' stacks and arenas, a single-puzzle
    // command still runs: it never starts the pool.
    let out = shell(r#"ulimit -v 400000 && "$LAPIZ" --threads 200 candidates "$P""#);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = shell(r#"ulimit -v 400000 && "$LAPIZ" --threads 200 canonical "$P""#);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A batch does start it, with the threads asked for.
    let out = shell(r#"echo "$P" | "$LAPIZ" --threads 256 count --file -"#);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn generate_refuses_impossible_targets_up_front() {
    // The default pipeline has no `guess`: no puzzle can be `guessed`.
    let out = common::cli::run_lapiz_within(&["generate", "--difficulty", "guessed"], 10)
        .expect("refused at once");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs a pipeline with the `guess` technique"));
    let out = common::cli::run_lapiz_within(&["generate", "--attempts", "0"], 10)
        .expect("refused at once");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("0 attempts"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn a_batch_from_a_pipe_answers_each_line_without_waiting_for_more() {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    for threads in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args(["--threads", threads, "count", "--file", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("lapiz runs");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = std::io::BufReader::new(stdout).lines();
            while let Some(Ok(line)) = lines.next() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // one line at a time, the pipe left open: each answer comes before the next line
        for _ in 0..3 {
            writeln!(stdin, "{EASY}").unwrap();
            stdin.flush().unwrap();
            let line = rx.recv_timeout(std::time::Duration::from_secs(20));
            assert_eq!(line, Ok(format!("{EASY}\t1")), "--threads {threads}");
        }
        drop(stdin);
        let totals = rx.recv_timeout(std::time::Duration::from_secs(20));
        assert_eq!(
            totals,
            Ok("puzzles: 3, unique: 3, none: 0, multiple: 0".to_string())
        );
        assert!(child.wait().unwrap().success());
    }
}

/// Runs lapiz with one variable set in its environment.
fn lapiz_with_env(args: &[&str], key: &str, value: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .env(key, value)
        .output()
        .expect("lapiz runs")
}

#[test]
fn small_things_say_what_is_wrong() {
    // a full stdout is named
    #[cfg(target_os = "linux")]
    {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args(["solve", EASY])
            .stdout(full)
            .output()
            .expect("lapiz runs");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("cannot write to standard output"),
            "{}",
            text(&out.stderr)
        );
    }
    // `rate --file` of a missing file writes no header
    let out = lapiz(&["rate", "--file", "/no/such/file.txt"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    // `--grid every` is one puzzle's
    let out = lapiz(&["solve", "--file", "-", "--grid", "every"], Some(EASY));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--grid every"),
        "{}",
        text(&out.stderr)
    );
    // a negative seed is named as a bad seed
    let out = lapiz(&["generate", "--seed", "-1"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`-1` is not a seed"),
        "{}",
        text(&out.stderr)
    );
    // a thread count that is no number
    let out = lapiz_with_env(&["count", "--file", "-"], "RAYON_NUM_THREADS", "abc");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("RAYON_NUM_THREADS=abc"),
        "{}",
        text(&out.stderr)
    );
    // CSV cells a spreadsheet would read as formulas are neutralised
    let out = lapiz(&["rate", "--format", "csv", "=1+1"], None);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\"'=1+1\""), "{stdout}");
}
