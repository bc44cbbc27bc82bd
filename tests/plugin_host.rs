//! Plugins in their own process (issue 16, item 13): a plugin that segfaults, aborts, loops,
//! exits, overflows its stack or eats memory costs its technique for that solve, with an error
//! naming the library and what happened, and the solve goes on — through the library and
//! through the CLI, one puzzle or `--file`. Hosted searches give exactly the in-process steps.
//! The hostile plugin is built by the test (`tests/fixtures/plugins/hostile.c`) and is only
//! ever loaded in a host. Unix only: the messages name signals.
#![cfg(unix)]

mod common;

use common::cli::run_lapiz as lapiz;
use common::plugins::{TEST_MEMORY_MIB, example_c, example_rust, hostile, use_built_host};
use lapiz::Pipeline;
use lapiz::engine::Entry;
use lapiz::plugin::{self, PluginError, PluginMode};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// What each hostile technique's error must say, besides the library's name.
fn expected() -> Vec<(&'static str, String)> {
    vec![
        (
            "hostile-segfault",
            "the plugin host was killed by signal 11 (SIGSEGV, a segmentation fault".into(),
        ),
        (
            "hostile-abort",
            "the plugin host was killed by signal 6 (SIGABRT, an abort".into(),
        ),
        (
            "hostile-loop",
            "the search ran past the time limit of 2 s; its host process was stopped".into(),
        ),
        (
            "hostile-exit",
            "the plugin host exited with status 0 during the search".into(),
        ),
        ("hostile-stack", "has overflowed its stack".into()),
        (
            "hostile-hog",
            format!("(SIGSEGV, a segmentation fault; its memory limit was {TEST_MEMORY_MIB} MiB)"),
        ),
    ]
}

/// The library's file name, which every error names.
fn library_name() -> String {
    hostile()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn each_hostile_plugin_costs_only_its_technique_for_that_solve() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    use_built_host();
    let mut pipeline = Pipeline::default_pipeline();
    assert_eq!(pipeline.plugin_mode(), PluginMode::Host);
    let added = pipeline.add_plugin(&hostile()).unwrap();
    assert_eq!(added.len(), 7);
    // twice: a crash disables the technique for its solve only, and the next solve starts
    // fresh hosts
    for _ in 0..2 {
        let trace = lapiz::solve_puzzle(PUZZLE, &pipeline);
        assert!(trace.is_solved(), "{:?}", trace.outcome);
        let failed: Vec<(&str, &str)> = trace
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Failed { technique, error } => Some((technique.as_str(), error.as_str())),
                _ => None,
            })
            .collect();
        for (id, message) in expected() {
            let errors: Vec<_> = failed.iter().filter(|(t, _)| *t == id).collect();
            assert_eq!(errors.len(), 1, "{id}: {failed:?}");
            let error = errors[0].1;
            assert!(error.contains(&message), "{id}: {error}");
            assert!(
                error.contains(&library_name()),
                "{id} names the library: {error}"
            );
        }
        // what a plugin prints to stdout goes to the host's stderr, not into the frames
        assert!(
            !failed.iter().any(|(t, _)| *t == "hostile-chatty"),
            "{failed:?}"
        );
        assert_eq!(failed.len(), expected().len(), "{failed:?}");
    }
}

#[test]
fn hosted_searches_give_the_in_process_trace() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    use_built_host();
    // the puzzle of `trace_with_a_plugin_step` (tests/plugins.rs): BUG+1 of the Rust example
    // makes a step, and both examples are searched at every position
    let puzzle =
        "..34.67.94..9........5...26.9.....15..2...8...1.357....6173.5..9.............82..";
    let traces: Vec<String> = [PluginMode::Host, PluginMode::InProcess]
        .into_iter()
        .map(|mode| {
            let mut pipeline = Pipeline::default_pipeline();
            pipeline.set_plugin_mode(mode);
            pipeline.add_plugin(&example_rust()).unwrap();
            pipeline.add_plugin(&example_c()).unwrap();
            let trace = lapiz::solve_puzzle(puzzle, &pipeline);
            assert!(trace.is_solved());
            assert!(trace.steps().any(|s| s.technique == "bug-plus-1-rs"));
            assert!(
                !trace
                    .entries
                    .iter()
                    .any(|e| matches!(e, Entry::Failed { .. })),
                "{mode:?}"
            );
            trace.to_ron()
        })
        .collect();
    assert_eq!(traces[0], traces[1]);
    // and a library that loads in a host is a different object from the in-process one
    let hosted = plugin::load_as(&example_rust(), PluginMode::Host).unwrap();
    let direct = plugin::load_as(&example_rust(), PluginMode::InProcess).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&hosted, &direct));
    assert_eq!(hosted.technique_ids(), direct.technique_ids());
    assert_eq!(hosted.name, direct.name);
}

#[test]
fn a_library_that_does_not_load_in_its_host_is_named() {
    use_built_host();
    let not_a_lib = common::plugins::root().join("README.md");
    let err = plugin::load_as(&not_a_lib, PluginMode::Host).unwrap_err();
    assert!(matches!(err, PluginError::Host { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "plugin {}: not a shared library",
            not_a_lib.display()
        )),
        "{text}"
    );
    let err = plugin::load_as("no/such/plugin.so".as_ref(), PluginMode::Host).unwrap_err();
    assert!(matches!(err, PluginError::Missing { .. }), "{err}");
}

#[test]
fn pipelines_choose_the_plugin_mode() {
    // a pipeline alone cannot take plugins out of their hosts: it gets hosts and a warning
    let p = Pipeline::from_ron(
        r#"Pipeline(plugin_mode: InProcess, techniques: [Technique("naked-single")])"#,
        "p.ron",
    )
    .unwrap();
    assert_eq!(p.plugin_mode(), PluginMode::Host);
    assert!(
        p.warnings()
            .iter()
            .any(|w| w.starts_with("p.ron: `plugin_mode: InProcess` ignored")),
        "{:?}",
        p.warnings()
    );
    let err = Pipeline::from_ron(
        r#"Pipeline(plugin_mode: Sandbox, techniques: [Technique("naked-single")])"#,
        "q.ron",
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.starts_with("q.ron: 1:"), "{err}");
    assert!(err.contains("Sandbox"), "{err}");
    assert_eq!(Pipeline::default_pipeline().plugin_mode(), PluginMode::Host);
}

fn limits() -> [String; 4] {
    [
        "--plugin-time-limit".into(),
        common::plugins::TEST_TIME_LIMIT_SECS.to_string(),
        "--plugin-memory".into(),
        TEST_MEMORY_MIB.to_string(),
    ]
}

#[test]
fn cli_solve_survives_every_hostile_plugin() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let lib = hostile();
    let mut args = vec!["solve", PUZZLE, "--plugin", lib.to_str().unwrap()];
    let limits = limits();
    args.extend(limits.iter().map(String::as_str));
    let (ok, out, err) = lapiz(&args);
    assert!(ok, "{err}");
    assert!(out.contains("Solved in"), "{out}");
    for (id, message) in expected() {
        let line = out
            .lines()
            .find(|l| l.contains(&format!("FAILED {id};")))
            .unwrap_or_else(|| panic!("no failure for {id}:\n{out}"));
        assert!(line.contains(&message), "{line}");
        assert!(line.contains(&library_name()), "{line}");
    }
    assert!(!out.contains("chatter"), "{out}");
}

#[test]
fn cli_file_solves_every_line_despite_hostile_plugins() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let dir = common::plugins::build_dir().join("host-file");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("puzzles.txt");
    let second =
        "..34.67.94..9........5...26.9.....15..2...8...1.357....6173.5..9.............82..";
    std::fs::write(&file, format!("{PUZZLE}\nnot a puzzle\n{second}\n")).unwrap();
    let lib = hostile();
    let mut args = vec![
        "solve",
        "--file",
        file.to_str().unwrap(),
        "--threads",
        "2",
        "--plugin",
        lib.to_str().unwrap(),
    ];
    let limits = limits();
    args.extend(limits.iter().map(String::as_str));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // the bad line makes the status 1 (invalid input); the plugin's failures do not
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("solved: 2, guessed: 0, stuck: 0, invalid: 1"),
        "{stdout}"
    );
    // each puzzle line reports each hostile technique, naming the library and what happened
    for line in [1, 3] {
        for (id, message) in expected() {
            let prefix = format!(
                "{}:{line}: warning: technique {id} failed: ",
                file.display()
            );
            let report = stderr
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("no report for {id} on line {line}:\n{stderr}"));
            assert!(report.contains(&message), "{report}");
            assert!(report.contains(&library_name()), "{report}");
        }
    }
}

#[test]
fn cli_in_process_mode_still_runs_trusted_plugins() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let Some(library) = common::data_file("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let c = example_c();
    for mode in ["in-process", "host"] {
        let (ok, out, err) = lapiz(&[
            "reglib",
            "--plugin-mode",
            mode,
            "--plugin",
            c.to_str().unwrap(),
            library.to_str().unwrap(),
        ]);
        assert!(ok, "{mode}: {err}");
        // only the plugin's code is listed and counted (issue 15)
        assert!(
            out.ends_with(
                "888 cases of other codes were not run (the plugins answer 0800)\n6 passed, 0 failed, 0 skipped\n"
            ),
            "{mode}: {out}"
        );
    }
}
