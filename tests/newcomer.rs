//! What a newcomer meets first: the docs' examples match real output, and a wrong argument gets
//! an error that says what to do.

mod common;

use common::cli::run_lapiz_in_root as lapiz;

/// Whitespace removed and trailing commas before `)` and `]` dropped, so a compact example
/// compares with pretty output.
fn normalize(text: &str) -> String {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    s.replace(",)", ")").replace(",]", "]")
}

#[test]
fn the_trace_example_in_the_docs_matches_real_output() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/traces.md")).unwrap();
    let start = docs.find("```ron\n").expect("a RON example") + "```ron\n".len();
    let example = &docs[start..start + docs[start..].find("```").unwrap()];
    let puzzle = example
        .lines()
        .find_map(|l| l.trim().strip_prefix("puzzle: \""))
        .and_then(|l| l.strip_suffix("\","))
        .expect("the example's puzzle");
    let (status, real, _) = lapiz(&["solve", puzzle, "--format", "ron"]);
    assert_eq!(status, Some(0));
    let real = normalize(&real);
    for line in example.lines() {
        // `...` stands for what the example leaves out: compare what comes before it
        let fragment = line.split("...").next().unwrap().trim();
        let fragment = fragment.trim_end_matches([',', ' ']);
        if fragment.is_empty() {
            continue;
        }
        let fragment = normalize(fragment);
        assert!(
            real.contains(&fragment),
            "docs/traces.md: `{}` is not in the real trace",
            line.trim()
        );
    }
}

#[test]
fn the_text_trace_example_in_the_docs_matches_real_output() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/traces.md")).unwrap();
    let section = &docs[docs
        .find("## The text trace")
        .expect("the text trace section")..];
    let start = section.find("```\n").expect("a text example") + "```\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let after = &section[start + example.len()..];
    let puzzle = after
        .split("`lapiz solve ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the example's command");
    let (status, real, _) = lapiz(&["solve", puzzle]);
    assert_eq!(status, Some(0));
    let real: Vec<&str> = real.lines().collect();
    let mut lines = 0;
    for line in example.lines().filter(|l| l.trim() != "...") {
        assert!(
            real.contains(&line),
            "docs/traces.md: `{line}` is not a line of the real trace"
        );
        lines += 1;
    }
    assert!(lines > 10, "the example has {lines} lines");
}

#[test]
fn a_file_given_as_the_puzzle_suggests_file() {
    let (status, _, err) = lapiz(&["solve", "tests/newcomer.rs"]);
    assert_eq!(status, Some(1));
    assert!(
        err.contains("did you mean --file tests/newcomer.rs?"),
        "{err}"
    );
    // a puzzle that is only wrong gets no such suggestion
    let (status, _, err) = lapiz(&["solve", "123"]);
    assert_eq!(status, Some(1));
    assert!(!err.contains("--file"), "{err}");
}

#[test]
fn technique_check_on_a_code_no_case_has_fails() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("newcomer-reglib");
    std::fs::create_dir_all(&dir).unwrap();
    let library = dir.join("empty-library.txt");
    std::fs::write(&library, "# no cases\n").unwrap();
    let (status, out, err) = lapiz(&[
        "technique",
        "check",
        "techniques/x-wing.rhai",
        "--reglib",
        library.to_str().unwrap(),
        "--code",
        "9999",
    ]);
    assert_eq!(status, Some(2), "{out}");
    assert!(err.contains("no case of code 9999"), "{err}");
    assert!(!out.contains("0 passed"), "{out}");
}
