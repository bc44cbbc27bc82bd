//! Hostile input files: what is not a regular file, files too large, lines that are not
//! UTF-8, names that shadow paths. Each must end quickly with the documented status.

mod common;

use common::cli::{run_lapiz_within, text};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// A HoDoKu library case lapiz passes (a full house).
const CASE: &str = ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:";

fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> common::TempFile {
    common::temp_file("cli-inputs", name, contents)
}

/// Runs lapiz, which must end within 20 seconds.
fn run(args: &[&str]) -> std::process::Output {
    run_lapiz_within(args, 20).unwrap_or_else(|| panic!("lapiz {args:?} did not end"))
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_where_a_file_is_loaded_whole() {
    let dir = common::temp_dir("cli-inputs");
    let fifo = dir.path().join("fifo");
    common::cli::make_fifo(&fifo);
    for path in [fifo.to_str().unwrap(), "/dev/zero"] {
        for option in ["--pipeline", "--technique"] {
            let out = run(&["solve", EASY, option, path]);
            assert_eq!(out.status.code(), Some(2), "{option} {path}");
            assert!(
                text(&out.stderr).contains("not a regular file"),
                "{option} {path}: {}",
                text(&out.stderr)
            );
        }
        let out = run(&["reglib", path]);
        assert_eq!(out.status.code(), Some(2), "reglib {path}");
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "reglib {path}"
        );
        let out = run(&["technique", "check", path]);
        assert_eq!(out.status.code(), Some(2), "technique check {path}");
        let out = run(&["solve", EASY, "--plugin", path]);
        assert_eq!(out.status.code(), Some(2), "--plugin {path}");
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "--plugin {path}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn pipeline_and_library_files_are_capped() {
    let big = temp_file("big.ron", vec![b' '; 2 << 20]);
    let out = run(&["solve", EASY, "--pipeline", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("larger than the limit"),
        "{}",
        text(&out.stderr)
    );
    // A library is capped far above any real one: a sparse file past the cap is refused
    // after reading one byte past it.
    let huge = temp_file("huge.txt", "");
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let out = run(&["reglib", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than the limit"));
}

#[test]
fn reglib_reports_a_line_that_is_not_utf8_and_runs_the_rest() {
    let mut library = b"# a case, a line that is not UTF-8, the case again\n".to_vec();
    library.extend_from_slice(CASE.as_bytes());
    library.extend_from_slice(b"\n:0003:\xff\xfe:bad\n");
    library.extend_from_slice(CASE.as_bytes());
    library.push(b'\n');
    let path = temp_file("not-utf8.txt", library);
    let out = run(&["reglib", path.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains(":3: not UTF-8"), "{stderr}");
    assert!(
        stdout.ends_with("2 passed, 1 failed, 0 skipped\n"),
        "{stdout}"
    );
}

#[test]
fn count_needs_a_limit_of_two_to_call_a_puzzle_unique() {
    let several = format!("12345678{}\n", ".".repeat(73));
    let file = temp_file("several.txt", &several);
    for limit in ["0", "1"] {
        let out = run(&["count", "--file", file.to_str().unwrap(), "--limit", limit]);
        assert_eq!(out.status.code(), Some(2), "--limit {limit}");
        assert!(text(&out.stdout).is_empty(), "--limit {limit}");
    }
    let out = run(&["count", "--file", file.to_str().unwrap(), "--limit", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).ends_with("unique: 0, none: 0, multiple: 1\n"));
}

#[test]
fn embedded_pipeline_names_are_never_shadowed_by_files() {
    let shadow = common::temp_dir("cli-inputs");
    let dir = shadow.path().join("shadow");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("default"),
        "Pipeline(name: \"singles\", techniques: [Technique(\"naked-single\")])",
    )
    .unwrap();
    let techniques = |pipeline: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args(["techniques", "--pipeline", pipeline])
            .current_dir(&dir)
            .output()
            .expect("lapiz runs");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout).lines().count()
    };
    // the header and one technique from the file; the embedded pipeline has dozens
    assert_eq!(techniques("./default"), 2);
    assert!(techniques("default") > 20);
}

#[test]
fn technique_check_fails_on_a_line_it_cannot_read() {
    let file = temp_file("check.txt", format!("{EASY}\nnot a puzzle\n"));
    let (code, stdout, stderr) = common::cli::run_lapiz_in_root(&[
        "technique",
        "check",
        "techniques/skyscraper.rhai",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("line 2 FAILED: cannot read"), "{stdout}");
    assert!(
        stdout.ends_with("1 passed, 1 failed, 0 skipped\n"),
        "{stdout}"
    );
}

#[test]
fn the_line_limit_does_not_count_the_line_end() {
    let line = |len: usize| format!("{EASY} {}", "x".repeat(len - 82));
    let input = format!("{}\n{}\r\n{}\n", line(8192), line(8192), line(8193));
    let file = temp_file("long-lines.txt", input);
    let out = run(&["count", "--file", file.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.starts_with(&format!("{EASY}\t1\n{EASY}\t1\n")),
        "{stdout}"
    );
    assert!(
        stderr.contains(":3: line longer than 8192 bytes (8193 bytes), skipped"),
        "{stderr}"
    );
    assert!(stdout.ends_with("puzzles: 2, unique: 2, none: 0, multiple: 0\n"));
}

#[test]
fn solve_file_records_have_one_shape() {
    let several = format!("12345678{}", ".".repeat(73));
    let file = temp_file("shapes.txt", format!("{EASY}\nnot a puzzle\n{several}\n"));
    let out = run(&["solve", "--file", file.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let records: Vec<&str> = stdout.lines().collect();
    assert_eq!(records.len(), 4, "{stdout}");
    for record in &records[..3] {
        assert_eq!(record.split('\t').count(), 4, "{record:?}");
    }
    assert!(
        records[1].starts_with("not a puzzle\tinvalid\t0\t"),
        "{stdout}"
    );
}

/// Characters that must never reach text output raw.
fn raw_controls(s: &str) -> Vec<char> {
    s.chars()
        .filter(|&c| c != '\n' && c != '\t')
        .filter(|&c| lapiz::text::printable(&c.to_string()) != c.to_string().as_str())
        .collect()
}

#[test]
fn file_names_in_records_are_escaped() {
    let file = temp_file("esc\u{1b}[2J\nname.txt", "not a puzzle\n");
    for command in ["solve", "count", "rate", "canonical"] {
        let out = run(&[command, "--file", file.to_str().unwrap()]);
        let stderr = text(&out.stderr);
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{command}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(
            stderr.contains("esc\\u{1b}[2J\\nname.txt:1: "),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn a_byte_order_mark_starts_a_file_and_is_escaped_elsewhere() {
    let file = temp_file("bom.txt", format!("\u{feff}{EASY}\n\u{feff}{EASY}\n"));
    for command in ["solve", "count", "rate", "canonical"] {
        let out = run(&[command, "--file", file.to_str().unwrap()]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        // line 1 is read; line 2's mark is not at the start of the file: an error, escaped
        assert_eq!(out.status.code(), Some(1), "{command}: {stdout}{stderr}");
        assert!(stderr.contains(":2: "), "{command}: {stderr}");
        assert!(!stderr.contains(":1: "), "{command}: {stderr}");
        assert!(!stdout.contains('\u{feff}'), "{command}: {stdout}");
        assert!(stdout.contains("\\u{feff}"), "{command}: {stdout}");
    }
}

#[test]
fn pencil_mark_grids_name_the_bad_cell_and_tell_none_from_several() {
    let marks = text(&run(&["candidates", EASY]).stdout);
    let first = marks.lines().nth(1).expect("a row of cells").to_string();
    // r1c2's group `4578` made `0`, then `119`
    for bad in ["0", "119"] {
        let row = first.replacen("4578", bad, 1);
        let grid = marks.replacen(&first, &row, 1);
        let out = run(&["candidates", &grid]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("bad candidate group \"{bad}\" for r1c2")),
            "{stderr}"
        );
    }
    // Row 1 placed; box 1's six other cells may hold only 4 and 5: the values alone have
    // several solutions, the marks none.
    let mut groups: Vec<String> = (1..=9).map(|d| d.to_string()).collect();
    for cell in 9..81 {
        let (row, col) = (cell / 9, cell % 9);
        groups.push(
            if row < 3 && col < 3 {
                "45"
            } else {
                "123456789"
            }
            .to_string(),
        );
    }
    let grid: String = groups
        .chunks(9)
        .map(|row| format!("| {} |\n", row.join(" ")))
        .collect();
    let out = run(&["solve", &grid]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no solution"), "{stderr}");
}

/// The candidate line (nine characters a cell) of a 9x9 line's givens alone: each given its
/// one candidate, every other cell all nine, so that the puzzle has no value at all.
fn bare_candidate_line(puzzle: &str) -> String {
    puzzle
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => {
                let d = usize::from(b - b'0');
                format!("{}{}{}", ".".repeat(d - 1), b as char, ".".repeat(9 - d))
            }
            _ => "123456789".to_string(),
        })
        .collect()
}

/// The rating column of `lapiz rate`'s one record.
fn rating(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let record = stdout.lines().nth(1).expect("a record");
    record.split('\t').nth(1).expect("a rating").to_string()
}

#[test]
fn candidate_lines_of_top1465_count_rate_and_solve_as_their_puzzles() {
    let Some(puzzles) = common::puzzles("top1465.txt", 3) else {
        eprintln!("skipped: ../shared/data/puzzles/top1465.txt is absent");
        return;
    };
    for p in &puzzles {
        // the puzzle's own pencil marks, from `candidates --line`; and its givens as bare
        // candidates, which no value settles (SukakuExplainer's reading: naked singles)
        let out = run(&["candidates", "--line", p]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let marks = text(&out.stdout).trim().to_string();
        assert_eq!(marks.len(), 729, "{marks}");
        let want = rating(&["rate", p]);
        for line in [marks, bare_candidate_line(p)] {
            let file = temp_file("sukaku.txt", format!("{line}\t9.0 a name\n"));
            let out = run(&["count", "--file", file.to_str().unwrap()]);
            let stdout = text(&out.stdout);
            assert!(stdout.contains("unique: 1"), "{line}: {stdout}");
            assert!(stdout.starts_with(&format!("{line}\t1\n")), "{stdout}");
            assert_eq!(rating(&["rate", &line]), want, "{p}: {line}");
            // the records of `rate --file` and `solve --file` show the line, not its values
            let out = run(&["rate", "--file", file.to_str().unwrap()]);
            assert!(
                text(&out.stdout).contains(&format!("\n{line}\t")),
                "{}",
                text(&out.stdout)
            );
            let out = run(&["solve", "--file", file.to_str().unwrap()]);
            assert!(
                text(&out.stdout).starts_with(&format!("{line}\tsolved\t")),
                "{}",
                text(&out.stdout)
            );
            let out = run(&["solve", &line]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            assert!(
                text(&out.stdout).contains("Solved in"),
                "{}",
                text(&out.stdout)
            );
        }
    }
}

#[test]
fn a_candidate_line_with_several_solutions_is_refused_as_such() {
    let all = "123456789".repeat(81);
    let out = run(&["solve", &all]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("more than one solution"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn nine_by_nine_lines_with_star_or_underscore_for_empty_cells_are_read() {
    let want = text(&run(&["solve", EASY]).stdout);
    for mark in ["*", "_"] {
        let line = EASY.replace('.', mark);
        let out = run(&["solve", &line]);
        assert_eq!(out.status.code(), Some(0), "{mark}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), want, "{mark}");
    }
}

/// A 16x16 solved board's row `r` in 1-9A-G: every symbol once.
fn sixteen_row(r: usize) -> String {
    (0..16)
        .map(|c| {
            let v = ((r % 4) * 4 + r / 4 + c) % 16 + 1;
            char::from_digit(v as u32, 17).unwrap().to_ascii_uppercase()
        })
        .map(|ch| if ch == '0' { 'G' } else { ch })
        .collect()
}

#[test]
fn a_cut_sixteen_grid_does_not_swallow_the_four_by_four_puzzles_after_it() {
    let mut file = String::new();
    for r in 0..10 {
        file.push_str(&sixteen_row(r));
        file.push('\n');
    }
    for _ in 0..8 {
        file.push_str("3.1...2.2....4..\n");
    }
    let path = temp_file("cut.txt", &file);
    let out = run(&["count", "--file", path.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(":1: a 16x16 grid cut short: lines 1-10 hold 10 of its 16 rows"),
        "{stderr}"
    );
    assert_eq!(stdout.matches("3.1...2.2....4..\t1").count(), 8, "{stdout}");
    // the cut grid is an error record of its own, before them
    assert!(
        stdout.starts_with(&format!("{}\terror\n", sixteen_row(0))),
        "{stdout}"
    );
    assert!(stdout.contains("puzzles: 8, unique: 8"), "{stdout}");
}

#[test]
fn errors_name_the_cause_the_input_has() {
    // a line of 255 or 257 cells: its count, not a 9x9 character
    for cells in [255, 257] {
        let line = format!("A{}", ".".repeat(cells - 1));
        let out = run(&["candidates", &line]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(&format!("{cells} cells")), "{stderr}");
        assert!(!stderr.contains("unexpected character"), "{stderr}");
    }
    // a grid over several lines cut short
    let grid: Vec<String> = (0..10).map(sixteen_row).collect();
    let out = run(&["candidates", &grid.join("\n")]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("10 rows of 16 cells: a 16x16 grid cut short"),
        "{stderr}"
    );
    // a repeated clue on 16x16, named by its cells as on 9x9
    let mut line = ".".repeat(256);
    line.replace_range(0..1, "3");
    line.replace_range(2..3, "3");
    let out = run(&["solve", &line]);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(all.contains("r1c1 and r1c3 both hold 3"), "{all}");
    // `solve --file` and `rate --file` on a line of no size: its count, not 9x9's 81 cells
    let path = temp_file("five.txt", "12345\n");
    for command in ["solve", "rate"] {
        let out = run(&[command, "--file", path.to_str().unwrap()]);
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            all.contains("5 cells: a puzzle has 16 (4x4)"),
            "{command}: {all}"
        );
        assert!(!all.contains("expected 81 cells"), "{command}: {all}");
    }
}

#[test]
fn trace_and_html_to_one_file_are_refused() {
    let dir = common::temp_dir("cli-inputs");
    let a = dir.path().join("out.html");
    let b = dir.path().join(".").join("out.html");
    let out = run(&[
        "solve",
        EASY,
        "--trace",
        a.to_str().unwrap(),
        "--html",
        b.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--trace and --html name one file"),
        "{}",
        text(&out.stderr)
    );
    assert!(!a.exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_fails_the_page_with_status_two() {
    let out = run(&["solve", EASY, "--html", "/dev/full"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot write /dev/full"),
        "{}",
        text(&out.stderr)
    );
}
