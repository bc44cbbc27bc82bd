//! Loud feedback for technique authors (issue 37): failures and rejections of a solve on
//! stderr and `--strict`, `technique check`'s warnings and FAILED lines, Rhai errors in lapiz's
//! words, `--ids`, non-candidates dropped from a script's step, the `techniques` columns,
//! `technique --help`, and `technique check` under a closed pipe.

mod common;

use std::process::{Command, Stdio};

use common::cli::text;
use lapiz::script::ScriptTechnique;
use lapiz::technique::find_all;
use lapiz::text::parse_puzzle;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Writes a script into a fresh temporary folder: its path, with the folder's guard.
fn script(name: &str, body: &str) -> common::TempFile {
    common::temp_file("author-feedback", &format!("{name}.rhai"), body)
}

/// Runs lapiz: (exit code, stdout, stderr).
fn lapiz(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .output()
        .expect("lapiz runs");
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn header(id: &str) -> String {
    format!("const ID = \"{id}\";\nconst NAME = \"{id}\";\nconst DIFFICULTY = 1.0;\n")
}

#[test]
fn a_script_that_fails_during_a_solve_says_so_on_stderr_and_strict_fails() {
    let path = script(
        "slip",
        &format!(
            "{}fn find(grid) {{\n    let a = [1, 2];\n    let n = a.length();\n    []\n}}\n",
            header("slip")
        ),
    );
    let p = path.to_str().unwrap();
    let (code, stdout, stderr) = lapiz(&["solve", EASY, "--technique", p]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("FAILED slip"), "{stdout}");
    // on stderr, in lapiz's runtime-error format with file, line and column, and a hint
    let want = format!(
        "warning: technique slip failed: {p}:6:15: runtime error: no function length(array) (did you mean `len`?); disabled for the rest of this solve"
    );
    assert!(stderr.contains(&want), "{stderr}");
    let (code, _, stderr) = lapiz(&["solve", EASY, "--technique", p, "--strict"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--strict"), "{stderr}");
    // a solve file too: per line on stderr, and --strict fails the run
    let file = script("puzzles", &format!("{EASY}\n"));
    let f = file.to_str().unwrap();
    let (code, _, stderr) = lapiz(&["solve", "--file", f, "--technique", p]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("{f}:1: warning: technique slip failed: ")),
        "{stderr}"
    );
    let (code, _, _) = lapiz(&["solve", "--file", f, "--technique", p, "--strict"]);
    assert_eq!(code, Some(1));
}

#[test]
fn a_rejected_step_is_reported_on_stderr() {
    // r1c1 is 4 in EASY's solution: eliminating it is unsound
    let path = script(
        "unsound",
        &format!(
            "{}fn find(grid) {{ step().eliminate(cell(1, 1), 4).explain(\"Nonsense\") }}\n",
            header("unsound")
        ),
    );
    let p = path.to_str().unwrap();
    let (code, _, stderr) = lapiz(&["solve", EASY, "--technique", p]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: a step of unsound was rejected (unsound, contradicts the solution at 4r1c1); disabled for the rest of this solve: Nonsense"),
        "{stderr}"
    );
    let (code, _, _) = lapiz(&["solve", EASY, "--technique", p, "--strict"]);
    assert_eq!(code, Some(1));
}

#[test]
fn ids_show_which_technique_made_each_step() {
    let (code, stdout, _) = lapiz(&["solve", EASY, "--ids"]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("  1. [hidden-single] Hidden Single: "),
        "{stdout}"
    );
    let (_, stdout, _) = lapiz(&["solve", EASY]);
    assert!(!stdout.contains("[hidden-single]"), "{stdout}");
}

#[test]
fn eliminations_of_non_candidates_are_dropped_like_highlights() {
    let grid = parse_puzzle(EASY).unwrap();
    // every cell of r1 loses 7 (most have no 7): only the candidates are kept
    let loose = script(
        "loose",
        &format!(
            "{}fn find(grid) {{ step().eliminate(cells_of([house(\"r1\")]), 7).highlight(\"Pattern\", cells_of([house(\"r1\")]), 7) }}\n",
            header("loose")
        ),
    );
    let t = ScriptTechnique::load(&loose).unwrap();
    let steps = find_all(&t, &grid).unwrap();
    assert_eq!(steps.len(), 1);
    let want: Vec<_> = (0..9u8)
        .map(lapiz::model::Cell::new)
        .filter(|&c| grid.has_candidate(c, 7))
        .collect();
    assert!(!want.is_empty());
    let got: Vec<_> = steps[0].eliminations.iter().map(|e| e.cell).collect();
    assert_eq!(got, want);
    assert!(steps[0].highlights.iter().all(|h| {
        h.candidates
            .iter()
            .all(|c| grid.has_candidate(c.cell, c.digit))
    }));
    // a step that eliminates only non-candidates changes nothing: dropped, not rejected
    let idle = script(
        "idle",
        &format!(
            "{}fn find(grid) {{ step().eliminate(cell(1, 3), 3) }}\n",
            header("idle")
        ),
    );
    let t = ScriptTechnique::load(&idle).unwrap();
    assert!(find_all(&t, &grid).unwrap().is_empty());
    let (_, stdout, stderr) = lapiz(&["solve", EASY, "--technique", idle.to_str().unwrap()]);
    assert!(!stdout.contains("REJECTED"), "{stdout}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn technique_check_warns_when_a_script_never_fires_and_strict_fails() {
    let path = script(
        "never",
        &format!(
            "{}const CODES = [\"0300\"];\nfn find(grid) {{ [] }}\n",
            header("never")
        ),
    );
    let p = path.to_str().unwrap();
    let file = script("never-puzzles", &format!("{EASY}\n"));
    let f = file.to_str().unwrap();
    // compared with a technique that fires on EASY: it disagrees too
    let args = [
        "technique",
        "check",
        p,
        "--file",
        f,
        "--compare",
        "hidden-single",
    ];
    let (code, stdout, stderr) = lapiz(&args);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    for out in [&stdout, &stderr] {
        assert!(out.contains("never never fired (0 of "), "{out}");
        assert!(
            out.contains("never disagrees with built-in hidden-single at "),
            "{out}"
        );
    }
    let mut strict = args.to_vec();
    strict.push("--strict");
    let (code, _, stderr) = lapiz(&strict);
    assert_eq!(code, Some(1), "{stderr}");
}

#[test]
fn a_failed_line_shows_what_the_step_changes() {
    // the explanation claims one thing, the step does another (and is unsound)
    let path = script(
        "liar",
        &format!(
            "{}fn find(grid) {{ step().eliminate(cell(1, 1), 4).explain(\"Liar: r9c9<>1\") }}\n",
            header("liar")
        ),
    );
    let file = script("liar-puzzles", &format!("{EASY}\n"));
    let (code, stdout, _) = lapiz(&[
        "technique",
        "check",
        path.to_str().unwrap(),
        "--file",
        file.to_str().unwrap(),
        "--compare",
        "none",
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "unsound step (contradicts the solution at 4r1c1): r1c1<>4 (explained: Liar: r9c9<>1)"
        ),
        "{stdout}"
    );
}

#[test]
fn techniques_keep_their_columns_for_long_ids_and_names() {
    let path = script(
        "long",
        "const ID = \"a-very-long-technique-id-from-a-script\";\nconst NAME = \"A Very Long Technique Name From A Script, Longer Than Forty\";\nconst DIFFICULTY = 3.0;\nfn find(grid) { [] }\n",
    );
    let (code, stdout, _) = lapiz(&["techniques", "--technique", path.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains("  ")).collect();
    let name_at = lines[0].find("name").unwrap();
    let source_at = lines[0].find("source").unwrap();
    for l in &lines[1..] {
        if l.starts_with("plugin sandbox") {
            continue;
        }
        // the name starts under `name`, the difficulty ends before `source`
        assert_eq!(l.as_bytes()[name_at - 1], b' ', "{l}");
        assert_ne!(l.as_bytes()[name_at], b' ', "{l}");
        assert_eq!(&l[source_at - 2..source_at], "  ", "{l}");
        assert!(
            l[..source_at - 2].ends_with(|c: char| c.is_ascii_digit()),
            "{l}"
        );
    }
    assert!(stdout.contains("a-very-long-technique-id-from-a-script A Very Long"));
}

#[test]
fn technique_help_names_plugin_libraries() {
    let (code, stdout, _) = lapiz(&["technique", "--help"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("plugin library"), "{stdout}");
    let (_, stdout, _) = lapiz(&["--help"]);
    assert!(stdout.contains("plugin library"), "{stdout}");
}

#[test]
fn technique_check_under_a_closed_pipe_exits_2_without_a_panic() {
    let file = script("pipe-puzzles", &format!("{EASY}\n{EASY}\n"));
    let x_wing = concat!(env!("CARGO_MANIFEST_DIR"), "/techniques/x-wing.rhai");
    for args in [
        vec![
            "technique",
            "check",
            x_wing,
            "--file",
            file.to_str().unwrap(),
            "--verbose",
        ],
        vec![
            "technique",
            "bench",
            x_wing,
            "--file",
            file.to_str().unwrap(),
        ],
        vec!["techniques"],
    ] {
        // the reader is gone before lapiz starts, so its first write fails (closing it after
        // the start raced with a fast command, whose output then fitted in the pipe)
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("lapiz runs");
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_complete_c_example_is_the_one_in_the_docs_and_agrees_with_its_twins() {
    let root = common::plugins::root();
    let source = root.join("plugins/example-c/locked_candidates.c");
    let code = std::fs::read_to_string(&source).unwrap();
    let docs = std::fs::read_to_string(root.join("docs/plugins.md")).unwrap();
    let start = docs
        .find("### A complete example")
        .expect("the complete example's section");
    let block = &docs[start..];
    let block = &block[block.find("```c\n").unwrap() + "```c\n".len()..];
    let block = &block[..block.find("```\n").unwrap()];
    assert_eq!(
        block,
        code,
        "docs/plugins.md's copy differs from {}",
        source.display()
    );
    if !common::plugins::c_compiler_available() {
        return;
    }
    let library = common::plugins::c_plugin(&source, "locked_candidates_c", &[]);
    let Some(puzzles) = common::puzzles("top1465.txt", 10) else {
        return;
    };
    let file = script("locked-puzzles", &(puzzles.join("\n") + "\n"));
    let (code, stdout, stderr) = lapiz(&[
        "technique",
        "check",
        library.to_str().unwrap(),
        "--file",
        file.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("pointing disagrees at 0 of "), "{stdout}");
    assert!(stdout.contains("claiming disagrees at 0 of "), "{stdout}");
    assert!(!stdout.contains("warning"), "{stdout}");
}

#[test]
fn the_worked_pointing_script_is_the_one_in_the_docs_and_agrees_with_the_built_in() {
    let root = common::plugins::root();
    let path = root.join("tests/fixtures/scripts/pointing-worked.rhai");
    let code = std::fs::read_to_string(&path).unwrap();
    let docs = std::fs::read_to_string(root.join("docs/scripting.md")).unwrap();
    let start = docs
        .find("## Worked example: Locked Candidates (Pointing)")
        .expect("the worked example's section");
    let block = &docs[start..];
    let block = &block[block.find("```rhai\n").unwrap() + "```rhai\n".len()..];
    let block = &block[..block.find("```\n").unwrap()];
    assert_eq!(
        block,
        code,
        "docs/scripting.md's copy differs from {}",
        path.display()
    );
    let Some(puzzles) = common::puzzles("top1465.txt", 10) else {
        return;
    };
    let file = script("pointing-puzzles", &(puzzles.join("\n") + "\n"));
    let p = path.to_str().unwrap();
    let (status, stdout, stderr) = lapiz(&[
        "technique",
        "check",
        p,
        "--file",
        file.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("pointing disagrees at 0 of "), "{stdout}");
    let Some(library) = common::data_file("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let (status, stdout, _) = lapiz(&[
        "technique",
        "check",
        p,
        "--reglib",
        library.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.contains(", 0 failed, "), "{stdout}");
}

#[test]
fn a_plugins_eliminations_of_non_candidates_are_dropped_too() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    common::plugins::use_built_host();
    let library = common::plugins::fixture("loose");
    let grid = parse_puzzle(EASY).unwrap();
    for mode in [
        lapiz::plugin::PluginMode::InProcess,
        lapiz::plugin::PluginMode::Host,
    ] {
        let loaded = lapiz::plugin::load_as(&library, mode).unwrap();
        let techniques = loaded.techniques();
        let row = find_all(techniques[0].as_ref(), &grid).unwrap();
        assert_eq!(row.len(), 1);
        let want: Vec<_> = (0..9u8)
            .map(lapiz::model::Cell::new)
            .filter(|&c| grid.has_candidate(c, 7))
            .collect();
        let got: Vec<_> = row[0].eliminations.iter().map(|e| e.cell).collect();
        assert_eq!(got, want);
        assert!(row[0].highlights.iter().all(|h| {
            h.candidates
                .iter()
                .all(|c| grid.has_candidate(c.cell, c.digit))
        }));
        // nothing left to change: no step at all
        assert!(find_all(techniques[1].as_ref(), &grid).unwrap().is_empty());
    }
}
