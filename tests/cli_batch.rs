//! `rate`, `generate`, `canonical` and the parallel `--file` paths of the command line: output
//! in input order, bad lines reported and skipped, same seed same output on any thread count.

mod common;

use common::cli::text;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Stuck without the forcing chains: the tests that need it stuck solve with
/// [`common::no_forcing_pipeline_file`].
const STUCK: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const UNFAIR: &str =
    "3....15..7.1..4....4......6.35.8...1.........8...9..24............3.875..5.1..9.8";

use common::cli::run_lapiz_stdin as lapiz;

#[test]
fn rate_prints_the_columns_in_order() {
    let out = lapiz(&["rate", EASY], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines[0],
        "puzzle\trating\tlevel\tscore\thardest technique\ttechniques"
    );
    let f: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(f[0], EASY);
    assert_eq!(f[1], "1.2");
    assert_eq!(f[2], "easy");
    assert!(f[3].parse::<u32>().unwrap() > 0);
    assert_eq!(f[4], "hidden-single");
    assert!(f[5].contains("hidden-single="), "{}", f[5]);
}

#[test]
fn rate_file_keeps_order_and_reports_bad_lines() {
    let input = format!(
        "# a comment\n{EASY}\nnot a puzzle\n\n{STUCK}\n33{}\n{UNFAIR}\n",
        &EASY[2..]
    );
    let pipeline = common::no_forcing_pipeline_file();
    let out = lapiz(
        &["rate", "--file", "-", "--no-header", "--pipeline", pipeline],
        Some(&input),
    );
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    let rows: Vec<Vec<&str>> = s.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 5, "{s}");
    assert_eq!((rows[0][0], rows[0][2]), (EASY, "easy"));
    assert_eq!((rows[1][0], rows[1][2]), ("not a puzzle", "invalid"));
    // beyond the pipeline: `>` its hardest technique
    let ceiling = common::pipeline_without_forcing()
        .techniques()
        .iter()
        .map(|t| t.difficulty())
        .fold(0.0f32, f32::max);
    assert_eq!(
        (rows[2][0], rows[2][1], rows[2][2]),
        (STUCK, format!(">{ceiling:.1}").as_str(), "beyond")
    );
    assert_eq!(rows[3][2], "invalid");
    assert!(rows[3][5].contains("both hold 3"), "{:?}", rows[3]);
    assert_eq!(
        (rows[4][0], rows[4][2], rows[4][4]),
        (UNFAIR, "unfair", "xyz-wing")
    );
    let err = text(&out.stderr);
    assert!(err.contains("-:3: "), "{err}");
    assert!(err.contains("-:6: invalid puzzle"), "{err}");
    // stderr is not a terminal here: no progress bar, only the two error lines.
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn rate_csv_quotes_fields() {
    let input = format!("{EASY}\n12,3\n");
    let out = lapiz(&["rate", "--file", "-", "--format", "csv"], Some(&input));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(
        lines[0],
        "puzzle,rating,level,score,hardest technique,techniques"
    );
    assert!(lines[1].starts_with(&format!("{EASY},1.2,easy,")), "{s}");
    assert!(lines[2].starts_with("\"12,3\",,invalid,"), "{s}");
}

#[test]
fn count_file_keeps_order_across_chunks() {
    // More lines than one chunk (4096), with bad lines on both sides of the boundary.
    let mut input = String::new();
    let mut expected = Vec::new();
    for i in 0..4200 {
        if i % 997 == 500 || i == 4095 || i == 4096 {
            input.push_str(&format!("bad{i}\n"));
            expected.push(format!("bad{i}\terror"));
            continue;
        }
        // A unique puzzle (EASY), or EASY with one given removed (count 1 or 2), varied by i.
        let mut p: Vec<u8> = EASY.bytes().collect();
        let k = i % 81;
        if p[k] != b'.' && i % 3 == 0 {
            p[k] = b'.';
        }
        let line = String::from_utf8(p).unwrap();
        input.push_str(&line);
        input.push('\n');
        expected.push(line);
    }
    let out = lapiz(&["count", "--file", "-"], Some(&input));
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), expected.len() + 1);
    for (got, want) in lines.iter().zip(&expected) {
        if want.starts_with("bad") {
            assert_eq!(got, want);
        } else {
            assert_eq!(got.split('\t').next().unwrap(), want);
        }
    }
    let last = lines.last().unwrap();
    assert!(last.starts_with("puzzles: 4194, unique: "), "{last}");
    let err = text(&out.stderr);
    assert!(
        err.contains("-:4096: ") && err.contains("-:4097: "),
        "{err}"
    );
}

#[test]
fn pasted_grids_across_chunk_boundaries_read_the_same_on_one_thread_and_two() {
    // One worker reads 64 lines a chunk, several 4096: grids pasted over nine rows (and a
    // border) straddle the one-worker chunks' boundaries.
    let mut input = String::new();
    for i in 0..200 {
        let mut p: Vec<u8> = EASY.bytes().collect();
        let k = i % 81;
        if p[k] != b'.' && i % 2 == 0 {
            p[k] = b'.';
        }
        let line = String::from_utf8(p).unwrap();
        if i % 3 == 0 {
            for (r, row) in line.as_bytes().chunks(9).enumerate() {
                let row: Vec<String> = row.iter().map(|&c| (c as char).to_string()).collect();
                input.push_str(&row.join(" "));
                input.push('\n');
                if r == 2 {
                    input.push_str("------+-------+------\n");
                }
            }
            input.push('\n');
        } else {
            input.push_str(&line);
            input.push('\n');
        }
    }
    let one = lapiz(&["--threads", "1", "count", "--file", "-"], Some(&input));
    let two = lapiz(&["--threads", "2", "count", "--file", "-"], Some(&input));
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    let s = text(&one.stdout);
    assert_eq!(s.lines().count(), 201);
    assert!(
        s.lines().last().unwrap().starts_with("puzzles: 200, "),
        "{s}"
    );
}

#[test]
fn solve_file_with_threads_gives_the_same_output() {
    let input = format!("{EASY}\n{STUCK}\nxx\n{UNFAIR}\n");
    let pipeline = common::no_forcing_pipeline_file();
    let one = lapiz(
        &[
            "--threads",
            "1",
            "solve",
            "--file",
            "-",
            "--pipeline",
            pipeline,
        ],
        Some(&input),
    );
    let two = lapiz(
        &[
            "solve",
            "--file",
            "-",
            "--threads",
            "2",
            "--pipeline",
            pipeline,
        ],
        Some(&input),
    );
    assert_eq!(one.stdout, two.stdout);
    let s = text(&one.stdout);
    assert!(
        s.ends_with("solved: 2, guessed: 0, stuck: 1, invalid: 1, rejected steps: 0\n"),
        "{s}"
    );
    let rows: Vec<&str> = s
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(&rows[..4], &["solved", "stuck", "invalid", "solved"]);
}

#[test]
fn generate_is_reproducible_and_in_order_on_any_thread_count() {
    let args = ["generate", "--count", "12", "--seed", "31"];
    let a = lapiz(&[&["--threads", "1"][..], &args[..]].concat(), None);
    let b = lapiz(&[&["--threads", "2"][..], &args[..]].concat(), None);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let s = text(&a.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 12);
    for l in &lines {
        assert_eq!(l.len(), 81);
        assert!(l.bytes().all(|c| c == b'.' || (b'1'..=b'9').contains(&c)));
    }
    // Puzzle i is the same whatever the count: a prefix of a longer run.
    let c = lapiz(&["generate", "--count", "3", "--seed", "31"], None);
    assert!(s.starts_with(&text(&c.stdout)));
    // And each line counts as unique.
    let counted = lapiz(&["count", "--file", "-"], Some(&s));
    assert!(text(&counted.stdout).contains("puzzles: 12, unique: 12, none: 0, multiple: 0"));
}

#[test]
fn generate_with_targets_and_rating() {
    let out = lapiz(
        &[
            "generate",
            "--count",
            "2",
            "--seed",
            "4",
            "--difficulty",
            "medium",
            "--symmetry",
            "rot180",
            "--rate",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let rows: Vec<Vec<&str>> = s.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r[2], "medium");
        let h: f32 = r[1].parse().unwrap();
        assert!((2.4..=3.4).contains(&h));
    }
}

#[test]
fn generate_gives_up_with_a_clear_error() {
    let out = lapiz(
        &[
            "generate",
            "--clues",
            "17",
            "--attempts",
            "2",
            "--seed",
            "1",
        ],
        None,
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("in 2 attempts"), "{err}");
    let out = lapiz(&["generate", "--rating", "5..3"], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("empty range"));
    let out = lapiz(&["generate", "--difficulty", "hardest"], None);
    assert!(!out.status.success());
}

#[test]
fn canonical_finds_equivalent_puzzles() {
    // EASY, transposed, its columns reversed and relabelled 1<->9: equivalent.
    let line = ".8..7..1..........5.26.89.3.267.983.9.......2.318.265.3.52.14.6..........1..8..9.";
    let input = format!("{EASY}\n{line}\n{UNFAIR}\nnope\n");
    let out = lapiz(&["canonical", "--file", "-"], Some(&input));
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], lines[1]);
    assert_ne!(lines[0], lines[2]);
    assert_eq!(lines[3], "nope\terror");
    let single = lapiz(&["canonical", line], None);
    assert_eq!(text(&single.stdout).trim(), lines[0]);
}

#[test]
fn scripts_run_on_several_threads() {
    // One pipeline, with a Rhai technique, shared by the worker threads.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/techniques/xy-wing.rhai");
    let input = format!("{EASY}\n{UNFAIR}\n{STUCK}\n").repeat(4);
    let pipeline = common::no_forcing_pipeline_file();
    let args = [
        "solve",
        "--file",
        "-",
        "--technique",
        script,
        "--pipeline",
        pipeline,
    ];
    let one = lapiz(&[&["--threads", "1"][..], &args[..]].concat(), Some(&input));
    let two = lapiz(&[&["--threads", "2"][..], &args[..]].concat(), Some(&input));
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    assert!(
        text(&one.stdout)
            .ends_with("solved: 8, guessed: 0, stuck: 4, invalid: 0, rejected steps: 0\n"),
        "{}",
        text(&one.stdout)
    );
}

/// A puzzle file with a line that is not UTF-8 and a line of 100,000 bytes between good ones:
/// its path, with the guard of its temporary folder.
fn hostile_file(name: &str) -> common::TempFile {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(EASY.as_bytes());
    bytes.extend_from_slice(b"\nab\xff\xfecd\n");
    bytes.extend(std::iter::repeat_n(b'1', 100_000));
    bytes.push(b'\n');
    bytes.extend_from_slice(STUCK.as_bytes());
    bytes.push(b'\n');
    common::temp_file("cli-batch", &format!("{name}.txt"), bytes)
}

#[test]
fn unreadable_lines_are_reported_and_the_run_goes_on() {
    let pipeline = common::no_forcing_pipeline_file();
    for command in ["solve", "count", "canonical", "rate"] {
        let path = hostile_file(command);
        let file = path.to_str().unwrap();
        let out = if matches!(command, "solve" | "rate") {
            lapiz(&[command, "--file", file, "--pipeline", pipeline], None)
        } else {
            lapiz(&[command, "--file", file], None)
        };
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        // each bad line named with its line number and what is wrong
        assert!(
            stderr.contains(":2: not UTF-8 (invalid byte at column 3)"),
            "{command}: {stderr}"
        );
        assert!(
            stderr.contains(":3: line longer than 8192 bytes (100000 bytes)"),
            "{command}: {stderr}"
        );
        // every line has its record, in order, and the lines after the bad ones are processed
        let rows: Vec<&str> = stdout
            .lines()
            .filter(|l| !l.starts_with("puzzle\t") && !l.contains(": "))
            .collect();
        assert_eq!(rows.len(), 4, "{command}: {stdout}");
        assert!(rows[1].starts_with("abcd\t"), "{command}: {}", rows[1]);
        assert!(
            rows[2].starts_with(&"1".repeat(81)),
            "{command}: {}",
            rows[2]
        );
        assert!(
            rows[2].len() < 200,
            "{command}: the long line is not echoed whole"
        );
        if command != "canonical" {
            assert!(rows[3].starts_with(STUCK), "{command}: {}", rows[3]);
        }
        if command == "solve" {
            assert!(
                stdout
                    .ends_with("solved: 1, guessed: 0, stuck: 1, invalid: 2, rejected steps: 0\n"),
                "{stdout}"
            );
        }
    }
}

#[test]
fn library_lines_are_read_whole_in_file_mode() {
    // removed candidates with a space between them: 1 from r1c1 and from r1c2
    let line = format!(":0000:1:{EASY}:111 112:::");
    let alone = lapiz(&["solve", &line], None);
    assert!(alone.status.success(), "{}", text(&alone.stderr));
    let out = lapiz(&["solve", "--file", "-"], Some(&format!("{line}\n")));
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(
        s.ends_with("solved: 1, guessed: 0, stuck: 0, invalid: 0, rejected steps: 0\n"),
        "{s}"
    );
}

#[test]
fn ron_output_stays_ron_for_unreadable_lines() {
    let path = hostile_file("ron");
    let file = path.to_str().unwrap();
    let pipeline = common::no_forcing_pipeline_file();
    let out = lapiz(
        &[
            "solve",
            "--file",
            file,
            "--format",
            "ron",
            "--pipeline",
            pipeline,
        ],
        None,
    );
    let s = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        !s.contains('\t'),
        "no tab-separated text in the RON stream: {s}"
    );
    // four traces, each readable, then the summary line
    let (traces, summary) = s.trim_end().rsplit_once('\n').expect("a summary line");
    assert_eq!(
        summary,
        "solved: 1, guessed: 0, stuck: 1, invalid: 2, rejected steps: 0"
    );
    let header = "#![enable(unwrap_variant_newtypes)]";
    let parts: Vec<&str> = traces
        .split(header)
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert_eq!(parts.len(), 4, "{s}");
    for p in parts {
        let ron = format!("{header}{p}");
        lapiz::engine::Trace::from_ron(&ron).unwrap_or_else(|e| panic!("{e}: {ron}"));
    }
    assert!(
        s.contains("Invalid(\n    reason: \"not UTF-8 (invalid byte at column 3)\""),
        "{s}"
    );
}
