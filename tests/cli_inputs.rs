//! Hostile input files: what is not a regular file, files too large, lines that are not
//! UTF-8, names that shadow paths. Each must end quickly with the documented status.

mod common;

use common::cli::{run_lapiz_within, text};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// A HoDoKu library case lapiz passes (a full house).
const CASE: &str = ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:";

fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> std::path::PathBuf {
    common::cli::temp_file("cli-inputs", name, contents)
}

/// Runs lapiz, which must end within 20 seconds.
fn run(args: &[&str]) -> std::process::Output {
    run_lapiz_within(args, 20).unwrap_or_else(|| panic!("lapiz {args:?} did not end"))
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_where_a_file_is_loaded_whole() {
    let fifo = temp_file("placeholder", "").with_file_name("fifo");
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
