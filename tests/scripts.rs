//! Technique scripts: the shipped scripts against the regression library and their native
//! twins, every failure path (each a clear error while the solve goes on), pipeline entries,
//! the command line, and a trace snapshot with a scripted step.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use lapiz::Puzzle;
use lapiz::engine::{Entry, Outcome, Rejection, Trace};
use lapiz::engine::{Pipeline, PipelineError};
use lapiz::script::{Evaluator, Limits, ScriptError, ScriptHost, ScriptTechnique};
use lapiz::technique::{Technique, find_all};
use lapiz::text::{parse_library_line, parse_puzzle};
use lapiz::tools::changes;
use lapiz::tools::run_library;

/// The shipped scripts and the library code each answers.
const SCRIPTS: &[(&str, &str)] = &[
    ("techniques/x-wing.rhai", "0300"),
    ("techniques/skyscraper.rhai", "0400"),
    ("techniques/2-string-kite.rhai", "0401"),
    ("techniques/xy-wing.rhai", "0800"),
];

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// The basic techniques get stuck on this one; the Skyscraper script takes it further.
const STUCK: &str =
    "........2.......39..7..1..........53......6....1.92........87.....5.4....39......";

const BASICS: &str = r#"Technique("full-house"), Technique("hidden-single"), Technique("naked-single"),
    Technique("pointing"), Technique("claiming"), Technique("locked-pair"), Technique("naked-pair"),
    Technique("hidden-pair"), Technique("locked-triple"), Technique("naked-triple"),
    Technique("hidden-triple"), Technique("naked-quad"), Technique("hidden-quad")"#;

fn fixture(name: &str) -> String {
    format!("tests/fixtures/scripts/{name}.rhai")
}

fn load(path: &str) -> ScriptTechnique {
    ScriptTechnique::load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// A pipeline: `first` entries, the basic techniques, then `last` entries.
fn pipeline(first: &str, last: &str) -> Pipeline {
    let ron = format!("Pipeline(name: \"test\", techniques: [{first} {BASICS}, {last}])");
    Pipeline::from_ron(&ron, "test.ron").unwrap_or_else(|e| panic!("{e}"))
}

fn failures(t: &Trace) -> Vec<String> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            Entry::Failed { error, .. } => Some(error.clone()),
            _ => None,
        })
        .collect()
}

// ---- The shipped scripts --------------------------------------------------------------------

#[test]
fn shipped_scripts_pass_their_library_cases() {
    let Some(lib) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    for (path, code) in SCRIPTS {
        let t = load(path);
        assert_eq!(t.library_codes(), vec![code.to_string()], "{path}");
        let lines: String = lib
            .lines()
            .filter(|l| l.starts_with(&format!(":{code}:")) || l.starts_with(&format!(":{code}-")))
            .map(|l| format!("{l}\n"))
            .collect();
        let report = run_library(&lines, &[Box::new(t) as Box<dyn Technique>]);
        let total = report.total();
        assert!(total.passed > 0, "{path}: no {code} cases");
        assert_eq!(
            total.failed,
            0,
            "{path}: {:#?}",
            report
                .failures
                .iter()
                .map(|f| (f.line_number, &f.reason))
                .collect::<Vec<_>>()
        );
        assert_eq!(total.skipped, 0, "{path}");
    }
}

#[test]
fn shipped_scripts_agree_with_their_native_twins() {
    let Some(lib) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    for (path, code) in SCRIPTS {
        let script = load(path);
        let native_id = script.id().strip_suffix("-script").unwrap();
        let Some(native) = lapiz::technique::builtin(native_id) else {
            eprintln!("skipping the comparison for {path}: no built-in `{native_id}` yet");
            continue;
        };
        let mut cases = 0;
        for line in lib.lines().filter(|l| l.starts_with(&format!(":{code}:"))) {
            let case = parse_library_line(line).unwrap();
            let a = changes(&find_all(&script, &case.grid).unwrap());
            let b = changes(&find_all(native.as_ref(), &case.grid).unwrap());
            assert_eq!(a, b, "{path} and built-in {native_id} differ on {line}");
            cases += 1;
        }
        assert!(cases > 0);
    }
}

/// Scripts written from the docs alone, with no pattern helper, as a new user would (kept to
/// time user-style scripts with `lapiz technique bench`): the script, the library code prefix
/// of its cases and its built-in twin. They must be right before their time means anything.
const USER_SCRIPTS: &[(&str, &str, &str)] = &[
    ("tests/fixtures/scripts/user/w-wing.rhai", ":0803", "w-wing"),
    (
        "tests/fixtures/scripts/user/w-wing-context.rhai",
        ":0803",
        "w-wing",
    ),
    (
        "tests/fixtures/scripts/user/empty-rectangle.rhai",
        ":0402",
        "empty-rectangle",
    ),
    (
        "tests/fixtures/scripts/user/bug-plus-1.rhai",
        ":0610",
        "bug-plus-1",
    ),
];

#[test]
fn user_style_scripts_pass_their_cases_and_agree_with_the_built_ins() {
    let Some(lib) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    for (path, code, twin) in USER_SCRIPTS {
        let script = load(path);
        let native = lapiz::technique::builtin(twin).expect("built-in twin");
        let lines: Vec<&str> = lib
            .lines()
            .filter(|l| {
                l.strip_prefix(code)
                    .is_some_and(|r| r.starts_with([':', '-']))
            })
            .collect();
        assert!(!lines.is_empty(), "{path}: no {code} cases");
        for line in &lines {
            let case = parse_library_line(line).unwrap();
            let a = changes(&find_all(&script, &case.grid).unwrap());
            let b = changes(&find_all(native.as_ref(), &case.grid).unwrap());
            assert_eq!(a, b, "{path} and built-in {twin} differ on {line}");
        }
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let report = run_library(&text, &[Box::new(script) as Box<dyn Technique>]);
        assert_eq!(report.total().failed, 0, "{path}");
        assert_eq!(report.total().passed, lines.len(), "{path}");
    }
}

#[test]
fn user_style_scripts_agree_with_the_built_ins_on_solve_positions() {
    let Some(puzzles) = common::puzzles("top1465.txt", 10) else {
        return;
    };
    let basics = Pipeline::default_pipeline();
    for (path, _, twin) in USER_SCRIPTS {
        let script = load(path);
        let native = lapiz::technique::builtin(twin).expect("built-in twin");
        assert_sound_and_agreeing(path, &script, native.as_ref(), &puzzles, &basics);
    }
}

/// At every position met solving `puzzles` with `basics`: every step of `script` is sound, and
/// it changes what `native` changes.
fn assert_sound_and_agreeing(
    path: &str,
    script: &ScriptTechnique,
    native: &dyn Technique,
    puzzles: &[String],
    basics: &Pipeline,
) {
    for p in puzzles {
        let grid = parse_puzzle(p).unwrap();
        let (grids, solution) = lapiz::tools::positions(&grid, basics).unwrap();
        for g in grids {
            let found = find_all(script, &g).unwrap();
            for s in &found {
                assert_eq!(s.contradiction(&solution), None, "{path}: unsound {s:?}");
            }
            let native_found = find_all(native, &g).unwrap();
            assert_eq!(changes(&found), changes(&native_found), "{path} on {g:?}");
        }
    }
}

#[test]
fn shipped_scripts_agree_with_natives_on_solve_positions() {
    let Some(puzzles) = common::puzzles("top1465.txt", 25) else {
        return;
    };
    let basics = Pipeline::default_pipeline();
    for (path, _) in SCRIPTS {
        let script = load(path);
        let native_id = script.id().strip_suffix("-script").unwrap();
        let Some(native) = lapiz::technique::builtin(native_id) else {
            eprintln!("skipping the comparison for {path}: no built-in `{native_id}` yet");
            continue;
        };
        assert_sound_and_agreeing(path, &script, native.as_ref(), &puzzles, &basics);
    }
}

// ---- The bytecode VM against the interpreter -------------------------------------------------

/// `path` loaded twice: evaluated on the bytecode VM and by the interpreter.
fn both_ways(path: &str) -> (ScriptTechnique, ScriptTechnique) {
    let mut vm = load(path);
    vm.set_evaluator(Evaluator::Bytecode);
    assert_eq!(vm.evaluator(), Evaluator::Bytecode);
    let tree = load(path);
    assert_eq!(
        tree.evaluator(),
        Evaluator::Tree,
        "the interpreter is the default"
    );
    (vm, tree)
}

#[test]
fn the_vm_finds_the_same_steps_as_the_interpreter() {
    let Some(puzzles) = common::puzzles("top1465.txt", 10) else {
        return;
    };
    let basics = Pipeline::default_pipeline();
    let paths = SCRIPTS
        .iter()
        .map(|(p, _)| *p)
        .chain(USER_SCRIPTS.iter().map(|(p, _, _)| *p))
        .chain(["tests/fixtures/scripts/user/w-wing-context.rhai"]);
    let mut found = 0;
    for path in paths {
        let (vm, tree) = both_ways(path);
        assert_eq!(
            vm.residual_fragments(),
            0,
            "{path}: all of it lowered to bytecode"
        );
        for p in &puzzles {
            let grid = parse_puzzle(p).unwrap();
            let (grids, _) = lapiz::tools::positions(&grid, &basics).unwrap();
            for g in grids {
                // whole steps: eliminations, placements, highlights and the explanation text
                let a = vm.run(&g).unwrap();
                assert_eq!(a, tree.run(&g).unwrap(), "{path} on {g:?}");
                found += a.len();
            }
        }
    }
    assert!(found > 1000, "only {found} steps to compare");
}

#[test]
fn the_vm_fails_as_the_interpreter_does() {
    let easy = parse_puzzle(EASY).unwrap();
    for name in [
        "runtime_error",
        "infinite_loop",
        "deep_recursion",
        "huge_array",
        "malformed",
        "unsound",
        "map_steps",
    ] {
        let (vm, tree) = both_ways(&fixture(name));
        let (a, b) = (vm.run(&easy), tree.run(&easy));
        match (&a, &b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}"),
            _ => panic!("{name}: the VM gave {a:?}, the interpreter {b:?}"),
        }
    }
}

/// Each thread keeps a script's VM from call to call, and Rhai's operation count with it: the
/// limits are on each call's own operations, however many calls came before.
#[test]
fn a_kept_vm_counts_each_calls_operations_afresh() {
    use lapiz::script::budget::{ScriptBudget, SolveScope};
    use lapiz::script::last_solve_usage;
    // over a million operations a call: four calls pass the 5,000,000 per call together
    let text = "const ID = \"busy\";\nconst DIFFICULTY = 1.0;\nfn find(grid) {\n    let n = 0;\n    for i in 0..1500000 { n += 1; }\n    ()\n}\n";
    let mut busy = ScriptTechnique::from_source(text, "busy.rhai", ScriptHost::shared()).unwrap();
    busy.set_evaluator(Evaluator::Bytecode);
    assert_eq!(busy.evaluator(), Evaluator::Bytecode);
    let easy = parse_puzzle(EASY).unwrap();
    let budget = ScriptBudget {
        operations: u64::MAX,
        time_ms: 3_600_000,
    };
    let usage = |calls: u64| {
        let solve = SolveScope::begin(budget);
        for _ in 0..calls {
            assert_eq!(busy.run(&easy).unwrap(), vec![]);
        }
        drop(solve);
        let usage = last_solve_usage();
        assert_eq!(usage.len(), 1);
        assert_eq!(usage[0].calls, calls);
        usage[0].operations
    };
    let one = usage(1);
    assert!(one > 1_250_000, "{one} operations a call");
    assert_eq!(usage(4), 4 * one, "each call is charged its own operations");
    // and the limit per call still stops a call, the first and every later one
    let mut endless = load(&fixture("infinite_loop"));
    endless.set_evaluator(Evaluator::Bytecode);
    for _ in 0..2 {
        let e = endless.run(&easy).unwrap_err().to_string();
        assert!(
            e.contains("operation limit exceeded (5000000 operations per call)"),
            "{e}"
        );
    }
}

#[test]
fn function_pointers_work_on_the_vm() {
    let text = "const ID = \"fp\";\nconst DIFFICULTY = 1.0;\n\
                fn find(grid) {\n\
                    let cs = [];\n\
                    for c in grid.empty() { cs.push(grid.count(c)); }\n\
                    let twos = cs.filter(|n| n == 2);\n\
                    let f = Fn(\"double\");\n\
                    if f.call(twos.len()) != 2 * twos.len() { throw \"wrong\"; }\n\
                    ()\n\
                }\n\
                fn double(n) { n * 2 }\n";
    let easy = parse_puzzle(EASY).unwrap();
    let mut vm = ScriptTechnique::from_source(text, "fp.rhai", ScriptHost::shared()).unwrap();
    vm.set_evaluator(Evaluator::Bytecode);
    assert_eq!(
        vm.evaluator(),
        Evaluator::Tree,
        "function pointers need the interpreter"
    );
    let mut tree = ScriptTechnique::from_source(text, "fp.rhai", ScriptHost::shared()).unwrap();
    tree.set_evaluator(Evaluator::Tree);
    assert_eq!(tree.run(&easy).unwrap(), vec![]);
    assert_eq!(vm.run(&easy).unwrap(), vec![]);
}

#[test]
fn map_returns_work_like_the_builder() {
    let t = load(&fixture("map_steps"));
    let grid = parse_puzzle(EASY).unwrap();
    let steps = find_all(&t, &grid).unwrap();
    assert!(!steps.is_empty());
    let s = &steps[0];
    assert_eq!(s.technique, "row-hidden-single-map");
    assert_eq!(s.placements.len(), 1);
    assert!(
        s.explanation.starts_with("Hidden Single: "),
        "{}",
        s.explanation
    );
    assert_eq!(s.highlights.len(), 1);
    let trace = Puzzle::from_nine(&grid).solve(&pipeline(
        &format!("Script(\"{}\"),", fixture("map_steps")),
        "",
    ));
    assert!(trace.is_solved());
    assert!(
        trace
            .steps()
            .any(|s| s.technique == "row-hidden-single-map")
    );
}

// ---- Failure paths ----------------------------------------------------------------------------

#[test]
fn parse_error_names_file_line_and_column() {
    let path = fixture("parse_error");
    let err = ScriptTechnique::load(Path::new(&path)).unwrap_err();
    assert!(matches!(err, ScriptError::Syntax { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!("{path}:5:13: syntax error")),
        "{msg}"
    );
    // In a pipeline it is an error at build time, naming the entry.
    let ron = format!("Pipeline(techniques: [Technique(\"naked-single\"), Script(\"{path}\")])");
    let err = Pipeline::from_ron(&ron, "p.ron").err().unwrap();
    assert!(matches!(err, PipelineError::Script { position: 2, .. }));
    assert!(
        err.to_string()
            .starts_with(&format!("p.ron: entry 2: {path}:5:13: syntax error")),
        "{err}"
    );
    // And when the script is one of a folder's.
    let ron = "Pipeline(techniques: [Scripts(\"tests/fixtures/scripts/bad_folder\")])";
    let err = Pipeline::from_ron(ron, "p.ron").err().unwrap();
    assert!(
        err.to_string()
            .contains("bad_folder/b.rhai:5:13: syntax error"),
        "{err}"
    );
}

/// Solves EASY with the script `name` first in the pipeline: it fails with an error
/// containing `expected`, is disabled, and the basic techniques still solve the puzzle.
fn fails_and_solve_goes_on(name: &str, expected: &[&str]) -> String {
    let path = fixture(name);
    let p = pipeline(&format!("Script(\"{path}\"),"), "");
    let t = Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p);
    let f = failures(&t);
    assert_eq!(
        f.len(),
        1,
        "one failure, then the script is disabled: {f:?}"
    );
    for e in expected {
        assert!(f[0].contains(e), "`{}` lacks `{e}`", f[0]);
    }
    assert!(t.is_solved(), "the solve goes on");
    assert!(t.steps().count() > 10);
    f[0].clone()
}

#[test]
fn runtime_error_is_recorded_with_its_line() {
    let msg = fails_and_solve_goes_on(
        "runtime_error",
        &[
            "technique runtime-error failed: ",
            "runtime_error.rhai:7:",
            "digit 10 is not 1..9",
        ],
    );
    assert!(msg.contains("runtime error"), "{msg}");
}

#[test]
fn infinite_loop_hits_the_operation_limit() {
    fails_and_solve_goes_on(
        "infinite_loop",
        &[
            "infinite_loop.rhai:",
            "operation limit exceeded (5000000 operations per call)",
        ],
    );
}

#[test]
fn infinite_loop_hits_the_time_limit() {
    let host = Arc::new(ScriptHost::new(Limits {
        max_operations: 0, // unlimited: only the clock stops it
        time_limit: Duration::from_millis(100),
        ..Limits::default()
    }));
    let t = ScriptTechnique::load_with(Path::new(&fixture("infinite_loop")), host).unwrap();
    // the message says which limit stopped it; nothing here depends on how long that took
    let err = t.run(&parse_puzzle(EASY).unwrap()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("time limit exceeded (100 ms per call)"),
        "{msg}"
    );
    assert!(
        msg.starts_with("tests/fixtures/scripts/infinite_loop.rhai:"),
        "{msg}"
    );
}

#[test]
fn deep_recursion_hits_the_call_depth_limit() {
    fails_and_solve_goes_on(
        "deep_recursion",
        &["deep_recursion.rhai:8:1: call depth limit exceeded"],
    );
}

#[test]
fn huge_array_hits_the_size_limit() {
    fails_and_solve_goes_on(
        "huge_array",
        &[
            "huge_array.rhai:4:1: ",
            "exceeds the size limit (10000 elements)",
        ],
    );
}

#[test]
fn malformed_return_names_the_field() {
    let msg = fails_and_solve_goes_on(
        "malformed",
        &[
            "malformed.rhai:4:1: find returned a malformed value: eliminations[0].cell:",
            "`r0c4` is not a cell name",
        ],
    );
    assert!(msg.starts_with("technique malformed failed: "), "{msg}");
}

#[test]
fn malformed_values_of_every_shape_are_named() {
    let cases = [
        ("42", "(returned value): the value is a i64 42"),
        ("[step(), 3]", "[1]: [1] is a i64 3"),
        (
            "#{ eliminations: [\"9r1c1\", #{cell: \"r1c2\"}] }",
            "eliminations[1].digit: missing",
        ),
        (
            "#{ explaination: \"typo\" }",
            "explaination: unknown field `explaination`",
        ),
        (
            "#{ highlights: [#{role: \"Wing\", candidates: []}] }",
            "highlights[0].role: `Wing` is not a role",
        ),
        (
            "#{ placements: [#{cell: \"r1c1\", digit: 0}] }",
            "placements[0].digit: digit 0 is not 1..9",
        ),
        ("#{ difficulty: -1.0 }", "difficulty -1 is not in (0, 20]"),
        ("#{ difficulty: 1e300 }", "difficulty inf is not in (0, 20]"),
        ("step().difficulty(50)", "difficulty 50 is not in (0, 20]"),
    ];
    for (ret, expected) in cases {
        let text =
            format!("const ID = \"m\";\nconst DIFFICULTY = 1;\nfn find(grid) {{\n    {ret}\n}}\n");
        let t = ScriptTechnique::from_source(&text, "m.rhai", ScriptHost::shared()).unwrap();
        let err = t.run(&parse_puzzle(EASY).unwrap()).unwrap_err().to_string();
        assert!(
            err.starts_with("m.rhai:3:1: find returned a malformed value: "),
            "{err}"
        );
        assert!(err.contains(expected), "`{err}` lacks `{expected}`");
    }
}

#[test]
fn unsound_step_is_rejected_and_the_solve_goes_on() {
    let p = pipeline(&format!("Script(\"{}\"),", fixture("unsound")), "");
    let t = Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p);
    let rejected: Vec<_> = t
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Rejected { step, reason } => Some((step, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].0.technique, "unsound");
    assert!(matches!(rejected[0].1, Rejection::Unsound { .. }));
    assert!(t.is_solved());
    assert_eq!(t.summary.rejected, 1);
}

#[test]
fn declaration_errors_are_clear() {
    let cases = [
        ("fn find(grid) { () }", "missing `const ID"),
        (
            "const ID = \"a b\"; const DIFFICULTY = 1; fn find(g) { () }",
            "1: ID `a b` must be",
        ),
        (
            "const ID = \"x\"; fn find(g) { () }",
            "missing `const DIFFICULTY",
        ),
        (
            "const ID = \"x\"; const DIFFICULTY = 1;",
            "no `fn find(grid)`",
        ),
        (
            "const ID = \"x\"; const DIFFICULTY = 1; const CODES = [3]; fn find(g) { () }",
            "CODES must be an array of strings",
        ),
        (
            "const ID = \"x\"; let y = undefined_name; fn find(g) { () }",
            "undefined_name",
        ),
        (
            "const ID = \"x\"; const DIFFICULTY = 0; fn find(g) { () }",
            "DIFFICULTY must be a number in (0, 20]",
        ),
        (
            "const ID = \"x\"; const DIFFICULTY = 1e300; fn find(g) { () }",
            "DIFFICULTY must be a number in (0, 20]",
        ),
        (
            "const ID = \"x\"; const DIFFICULTY = -2.5; fn find(g) { () }",
            "DIFFICULTY must be a number in (0, 20]",
        ),
    ];
    for (text, expected) in cases {
        let err = ScriptTechnique::from_source(text, "d.rhai", ScriptHost::shared())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("d.rhai"), "{err}");
        assert!(err.contains(expected), "`{err}` lacks `{expected}`");
    }
}

// ---- Per-solve budget and load bounds (issue 16 items 8 and 9) ----------------------------

/// Writes a hostile script into a fresh temporary folder: its path, with the folder's guard.
fn hostile(name: &str, text: &str) -> common::TempFile {
    common::temp_file(&format!("scripts-{name}"), &format!("{name}.rhai"), text)
}

/// A pipeline with the script at `path` first, then the basics, and this `script_budget`.
fn budget_pipeline(path: &Path, budget: &str) -> Pipeline {
    let ron = format!(
        "Pipeline(name: \"budget\", techniques: [Script({:?}), {BASICS}], script_budget: {budget})",
        path.display().to_string()
    );
    Pipeline::from_ron(&ron, "budget.ron").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_script_that_spends_its_operation_budget_is_disabled_for_the_solve() {
    // About 600,000 operations a call: well inside the per-call limit, every call.
    let path = hostile(
        "slow_loop",
        "const ID = \"slow-loop\";\nconst DIFFICULTY = 1.0;\nfn find(grid) {\n    let n = 0;\n    for i in 0..200000 { n += 1; }\n    ()\n}\n",
    );
    let p = budget_pipeline(&path, "(operations: 2000000)");
    let t = Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p);
    let f = failures(&t);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("technique slow-loop failed: "), "{}", f[0]);
    assert!(
        f[0].contains("slow_loop.rhai:"),
        "names the script: {}",
        f[0]
    );
    assert!(
        f[0].contains(
            "per-solve operation budget spent (2000000 operations per script per solve); script disabled for this solve"
        ),
        "{}",
        f[0]
    );
    assert!(t.is_solved(), "the solve goes on without it");
    assert!(
        t.to_text(None)
            .contains("FAILED slow-loop; technique disabled")
    );
    let usage = lapiz::script::last_solve_usage();
    assert_eq!(usage.len(), 1, "{usage:?}");
    assert!(usage[0].calls >= 3, "{usage:?}");
    assert!(
        usage[0].operations <= 2_000_000 + 1024,
        "stopped within a check interval of the budget: {usage:?}"
    );
    // The next solve starts with a fresh budget: the script fails again, once.
    let t = Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p);
    assert_eq!(failures(&t).len(), 1);
}

#[test]
fn an_endless_script_stops_at_its_time_budget_not_the_per_call_limit() {
    // 1 ms of budget: far less than the per-call limits (2 s, 5,000,000 operations), so the
    // budget is what stops the first call.
    let p = budget_pipeline(
        Path::new(&fixture("infinite_loop")),
        "(operations: 1000000000000, time_ms: 1)",
    );
    let t = Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p);
    let f = failures(&t);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("infinite_loop.rhai:")
            && f[0].contains("per-solve time budget spent (1 ms per script per solve)"),
        "{}",
        f[0]
    );
    assert!(t.is_solved());
}

#[test]
fn the_shipped_scripts_stay_far_from_the_default_budget() {
    // Every shipped script after the basics, where it is asked at nearly every position.
    let Some(puzzles) = common::puzzles("top1465.txt", 20) else {
        return;
    };
    let p = Pipeline::from_ron(
        &format!("Pipeline(techniques: [{BASICS}, Scripts(\"techniques\")])"),
        "p.ron",
    )
    .unwrap();
    let budget = p.script_budget();
    for puzzle in &puzzles {
        let t = Puzzle::from_nine(&parse_puzzle(puzzle).unwrap()).solve(&p);
        assert!(failures(&t).is_empty(), "{puzzle}: {:?}", failures(&t));
        for u in lapiz::script::last_solve_usage() {
            assert!(
                u.operations < budget.operations / 10,
                "{puzzle}: {} used {} operations",
                u.script,
                u.operations
            );
        }
    }
}

#[test]
fn deeply_nested_values_do_not_overflow_a_small_thread_stack() {
    // Nested 2,500 deep (inside the 10,000-element size limit; Rhai's size check walks the whole
    // value after each assignment, so building it is quadratic), then formatted, compared and
    // thrown: Rhai recurses once per level in native code, about 1.5 KiB of stack a level, which
    // overflowed a 2 MiB stack (a rayon worker's) near 1,500 levels and aborted the process. The
    // solve runs on a 1 MiB thread here.
    let path = hostile(
        "deep",
        "const ID = \"deep\";\nconst DIFFICULTY = 1.0;\nfn find(grid) {\n    let a = [];\n    for i in 0..2500 { a = [take(a)]; }\n    let s = `${a}`;\n    let same = a == a;\n    throw a;\n}\n",
    );
    let p = budget_pipeline(&path, "(time_ms: 60000)");
    let t = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || Puzzle::from_nine(&parse_puzzle(EASY).unwrap()).solve(&p))
        .unwrap()
        .join()
        .expect("no stack overflow");
    let f = failures(&t);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("deep.rhai:8:5: runtime error: [[[["),
        "{}",
        &f[0][..200.min(f[0].len())]
    );
    assert!(t.is_solved());
}

#[test]
fn an_oversized_script_is_refused_before_it_is_compiled() {
    let limit = Limits::default().max_script_bytes;
    let mut text =
        String::from("const ID = \"big\";\nconst DIFFICULTY = 1.0;\nfn find(grid) { () }\n");
    while text.len() <= limit {
        text.push_str("// padding padding padding padding padding padding padding padding\n");
    }
    let path = hostile("big", &text);
    let err = ScriptTechnique::load(&path).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}: script too large: {} bytes (the limit is {limit} bytes)",
            path.display(),
            text.len()
        )
    );
    let err = ScriptTechnique::from_source(&text, "big.rhai", ScriptHost::shared())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("big.rhai: script too large"), "{err}");
    // Through a pipeline the entry is named too.
    let ron = format!(
        "Pipeline(techniques: [Script({:?})])",
        path.display().to_string()
    );
    let err = Pipeline::from_ron(&ron, "p.ron").err().unwrap().to_string();
    assert!(err.starts_with("p.ron: entry 1: "), "{err}");
    assert!(err.contains("script too large"), "{err}");
}

#[test]
fn a_script_with_too_many_functions_is_refused() {
    let max = Limits::default().max_functions;
    let mut text =
        String::from("const ID = \"many\";\nconst DIFFICULTY = 1.0;\nfn find(grid) { () }\n");
    for i in 0..max {
        text.push_str(&format!("fn f{i}(x) {{ x + {i} }}\n"));
    }
    let path = hostile("many", &text);
    let err = ScriptTechnique::load(&path).unwrap_err().to_string();
    assert!(err.starts_with(&path.display().to_string()), "{err}");
    assert!(
        err.contains(&format!(
            "too many functions (the limit is {max} per script)"
        )),
        "{err}"
    );
    // One function fewer loads.
    let fewer = text.rsplit_once("fn f").unwrap().0;
    ScriptTechnique::from_source(fewer, "fewer.rhai", ScriptHost::shared()).unwrap();
}

// ---- Pipelines ------------------------------------------------------------------------------

#[test]
fn pipeline_entries_take_scripts_anywhere() {
    // A fixture folder, not `techniques/`: what a user adds there must not change the tests.
    let ron = r#"Pipeline(techniques: [
        Script("tests/fixtures/scripts/folder/a.rhai"),
        Technique("naked-single"),
        Scripts("tests/fixtures/scripts/folder"),
    ])"#;
    let err = Pipeline::from_ron(ron, "p.ron").err().unwrap();
    assert!(
        err.to_string()
            .contains("entry 3: technique id `zeta` is already in the pipeline"),
        "{err}"
    );
    let ron = r#"Pipeline(techniques: [
        Script("techniques/xy-wing.rhai"),
        Technique("naked-single"),
        Scripts("tests/fixtures/scripts/bad_folder"),
    ])"#;
    assert!(Pipeline::from_ron(ron, "p.ron").is_err());
    let ron = r#"Pipeline(techniques: [Technique("naked-single"), Scripts("tests/fixtures/scripts/folder")])"#;
    let p = Pipeline::from_ron(ron, "p.ron").unwrap();
    // The folder's scripts, sorted by file name (a.rhai is `zeta`, b.rhai is `alpha`).
    assert_eq!(p.ids(), ["naked-single", "zeta", "alpha"]);
    assert_eq!(
        p.techniques()[2].origin().to_string(),
        "script tests/fixtures/scripts/folder/b.rhai"
    );
}

#[test]
fn add_technique_goes_before_the_first_as_hard() {
    let mut p = Pipeline::default_pipeline();
    p.add_technique(Box::new(load("techniques/skyscraper.rhai")))
        .unwrap();
    let ids = p.ids();
    let at = ids.iter().position(|i| i == "skyscraper-script").unwrap();
    assert!(p.techniques()[..at].iter().all(|t| t.difficulty() < 4.0));
    if let Some(native) = ids.iter().position(|i| i == "skyscraper") {
        assert!(at < native, "the script goes before its built-in twin");
    }
}

#[test]
fn insert_after_puts_a_script_after_the_basics() {
    let mut p = Pipeline::default_pipeline();
    let n = p.techniques().len();
    p.insert_after(&["hidden-quad"], Box::new(load("techniques/x-wing.rhai")))
        .unwrap();
    assert_eq!(p.techniques().len(), n + 1);
    let at = p.ids().iter().position(|i| i == "x-wing-script").unwrap();
    assert_eq!(p.ids()[at - 1], "hidden-quad");
}

// ---- Trace snapshot -------------------------------------------------------------------------

#[test]
fn trace_with_a_scripted_step() {
    let p = pipeline("", "Script(\"techniques/skyscraper.rhai\")");
    let t = Puzzle::from_nine(&parse_puzzle(STUCK).unwrap()).solve(&p);
    assert!(t.steps().any(|s| s.technique == "skyscraper-script"));
    assert_eq!(t.summary.rejected, 0);
    assert!(failures(&t).is_empty());
    let back = Trace::from_ron(&t.to_ron()).unwrap();
    assert_eq!(back, t);
    insta::assert_snapshot!("scripted_skyscraper", t.to_ron());
    // Without the script the basics are stuck earlier.
    let basics = Puzzle::from_nine(&parse_puzzle(STUCK).unwrap()).solve(&pipeline("", ""));
    assert!(matches!(basics.outcome, Outcome::Stuck { .. }));
    assert!(basics.steps().count() < t.steps().count());
}

#[test]
fn masks_have_a_complement_and_a_difference() {
    let engine = lapiz::script::ScriptHost::shared();
    let eval = |e: &str| engine.engine().eval::<i64>(e);
    assert_eq!(eval("complement(0b101)").unwrap(), 0x1ff & !0b101);
    assert_eq!(eval("complement(0)").unwrap(), 0x1ff);
    assert_eq!(eval("without(mask([1, 2, 3]), bit(2))").unwrap(), 0b101);
    assert_eq!(eval("without(0b11, 0b111)").unwrap(), 0);
    let e = eval("complement(512)").unwrap_err().to_string();
    assert!(e.contains("512 is not a digit mask"), "{e}");
    let e = eval("without(1, -1)").unwrap_err().to_string();
    assert!(e.contains("-1 is not a digit mask"), "{e}");
}

// ---- Command line ---------------------------------------------------------------------------

use common::cli::run_lapiz as lapiz;

#[test]
fn cli_technique_check_on_a_library_file() {
    let dir = common::temp_dir("scripts");
    let lib = dir.path().join("lib.txt");
    // Two X-Wing cases from the HoDoKu library; the second with a wrong expectation.
    let good = ":0300:4:+7.9+3+2+8+6..+628145+9+3+7.5+367+9.+8+2+8...3+6.+2..+3..+1+7.685..+4+823.93.78.+42.6.8.+2.+3......+7.1+84+3::443 447::";
    let bad = good.replace("443 447", "443");
    std::fs::write(&lib, format!("{good}\n:0000:1:junk\n{bad}\n")).unwrap();
    let lib = lib.to_str().unwrap();
    let (ok, out, err) = lapiz(&[
        "technique",
        "check",
        "techniques/x-wing.rhai",
        "--reglib",
        lib,
    ]);
    assert!(!ok, "a failed case fails the command");
    assert!(
        out.contains("script techniques/x-wing.rhai: x-wing-script"),
        "{out}"
    );
    assert!(out.contains("line 1 [0300] passed: X-Wing: 4"), "{out}");
    assert!(out.contains("line 3 [0300] FAILED"), "{out}");
    assert!(out.contains("  expected: r4c3<>4"), "{out}");
    assert!(
        out.ends_with("1 passed, 1 failed, 0 skipped\n"),
        "{out}{err}"
    );

    std::fs::write(dir.path().join("lib2.txt"), format!("{good}\n")).unwrap();
    let lib2 = dir.path().join("lib2.txt");
    let (ok, out, _) = lapiz(&[
        "technique",
        "check",
        "techniques/x-wing.rhai",
        "--reglib",
        lib2.to_str().unwrap(),
        "--code",
        "0300",
    ]);
    assert!(ok);
    assert!(out.ends_with("1 passed, 0 failed, 0 skipped\n"), "{out}");
}

#[test]
fn cli_technique_check_on_a_puzzle_file_reports_failures() {
    let dir = common::temp_dir("scripts-f");
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{STUCK}\n{EASY}\nnot a puzzle\n")).unwrap();
    let f = file.to_str().unwrap();
    let (ok, out, _) = lapiz(&[
        "technique",
        "check",
        "techniques/skyscraper.rhai",
        "--file",
        f,
    ]);
    // the line that is not a puzzle fails the check, as an unreadable line fails `reglib`
    assert!(!ok, "{out}");
    assert!(out.contains("fired at "), "{out}");
    assert!(out.contains("line 3 FAILED: cannot read: "), "{out}");
    assert!(out.ends_with("2 passed, 1 failed, 0 skipped\n"), "{out}");
    let (ok, out, _) = lapiz(&["technique", "check", &fixture("unsound"), "--file", f]);
    assert!(!ok);
    assert!(out.contains("FAILED: position 1: unsound step"), "{out}");
    let (ok, out, _) = lapiz(&["technique", "check", &fixture("runtime_error"), "--file", f]);
    assert!(!ok);
    assert!(out.contains("runtime_error.rhai:7:"), "{out}");
    assert!(out.ends_with("0 passed, 3 failed, 0 skipped\n"), "{out}");
}

#[test]
fn cli_technique_bench_solves_profiles_and_times_both_evaluators() {
    let dir = common::temp_dir("scripts-s");
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{STUCK}\n{EASY}\n")).unwrap();
    let f = file.to_str().unwrap();
    let script = "techniques/skyscraper.rhai";
    let args = ["technique", "bench", script, "--file", f, "--rounds", "1"];
    // whole solves: the same puzzles solved either way, and the documented last line
    let (ok, out, err) = lapiz(&[&args[..], &["--solve", "--evaluator", "both"]].concat());
    assert!(ok, "{out}{err}");
    assert!(out.contains("with skyscraper-script: 2 solved"), "{out}");
    assert!(out.contains("default pipeline: 2 solved"), "{out}");
    assert!(
        out.contains("on the tree interpreter in place of skyscraper"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("skyscraper-script in place of skyscraper: ") && last.contains(" ratio "),
        "{last}"
    );
    // per search, both ways
    let (ok, out, err) = lapiz(&[&args[..], &["--evaluator", "both"]].concat());
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("skyscraper-script on the tree interpreter: "),
        "{out}"
    );
    // the profile names lines of the script, and its shares add up to about 100%
    let (ok, out, err) = lapiz(&["technique", "bench", script, "--file", f, "--profile"]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("by function:") && out.contains("  find"),
        "{out}"
    );
    let shares: f64 = out
        .lines()
        .skip_while(|l| *l != "by line:")
        .skip(1)
        .filter_map(|l| l.trim().split('%').next()?.parse::<f64>().ok())
        .sum();
    assert!((shares - 100.0).abs() < 1.0, "{shares}: {out}");
    assert!(
        out.contains("grid.link_pairs(d, kind)"),
        "a line of the script is quoted: {out}"
    );
}

#[test]
fn cli_technique_bench_times_a_script_against_its_twin() {
    let dir = common::temp_dir("scripts-b");
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{STUCK}\n{EASY}\nnot a puzzle\n")).unwrap();
    let f = file.to_str().unwrap();
    let script = "techniques/skyscraper.rhai";
    let (ok, out, err) = lapiz(&["technique", "bench", script, "--file", f, "--rounds", "1"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("native twin skyscraper"), "{out}");
    assert!(out.contains("(met solving 3 puzzles of"), "{out}");
    assert!(err.contains(":3: skipped"), "the bad line is named: {err}");
    // Both find the same steps, and the last line has the documented shape.
    let steps = out.lines().find(|l| l.starts_with("steps found:")).unwrap();
    let counts: Vec<&str> = steps
        .split(' ')
        .map(|w| w.trim_end_matches(','))
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(counts.len(), 2, "{steps}");
    assert_eq!(counts[0], counts[1], "{steps}");
    assert_ne!(counts[0], "0", "the Skyscraper fires on STUCK: {steps}");
    let last = out.lines().last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words[0], "skyscraper-script:", "{last}");
    assert_eq!(&words[2..5], ["us", "per", "search,"], "{last}");
    assert_eq!(words[5], "skyscraper:", "{last}");
    assert_eq!(&words[7..11], ["us", "per", "search,", "ratio"], "{last}");
    for w in [words[1], words[6], words[11]] {
        assert!(w.parse::<f64>().is_ok_and(|x| x > 0.0), "{last}");
    }
    // Alone, and with an unknown twin.
    let (ok, out, _) = lapiz(&[
        "technique",
        "bench",
        script,
        "--file",
        f,
        "--native",
        "none",
    ]);
    assert!(ok);
    assert!(
        out.trim_end()
            .ends_with("(no native twin: pass --native ID)"),
        "{out}"
    );
    let (ok, _, err) = lapiz(&["technique", "bench", script, "--native", "no-such"]);
    assert!(!ok);
    assert!(
        err.contains("--native: no built-in technique `no-such`"),
        "{err}"
    );
    // A script that fails names the position.
    let (ok, _, err) = lapiz(&["technique", "bench", &fixture("runtime_error"), "--file", f]);
    assert!(!ok);
    assert!(err.contains("failed at position 1"), "{err}");
}

#[test]
fn cli_solve_and_techniques_take_a_script() {
    let dir = common::temp_dir("scripts-s");
    let basics = dir.path().join("basics.ron");
    std::fs::write(&basics, format!("Pipeline(techniques: [{BASICS}])")).unwrap();
    let (ok, out, _) = lapiz(&[
        "solve",
        STUCK,
        "--pipeline",
        basics.to_str().unwrap(),
        "--technique",
        "techniques/skyscraper.rhai",
    ]);
    assert!(ok);
    assert!(out.contains(". Skyscraper: 4 in "), "{out}");
    let (ok, out, _) = lapiz(&["techniques", "--technique", "techniques/x-wing.rhai"]);
    assert!(ok);
    assert!(out.contains("script techniques/x-wing.rhai"), "{out}");
    assert!(out.contains("built-in"), "{out}");
    let (ok, _, err) = lapiz(&["solve", EASY, "--technique", &fixture("parse_error")]);
    assert!(!ok);
    assert!(err.contains("parse_error.rhai:5:13: syntax error"), "{err}");
}

#[test]
fn cli_rate_and_generate_take_a_script_like_solve() {
    // `rate` and `generate` share `solve`'s pipeline options (issue 17): a script added with
    // `--technique` is rated like a built-in.
    let dir = common::temp_dir("scripts-r");
    let basics = dir.path().join("basics.ron");
    std::fs::write(&basics, format!("Pipeline(techniques: [{BASICS}])")).unwrap();
    let basics = basics.to_str().unwrap();
    let script = "techniques/skyscraper.rhai";
    let (ok, out, err) = lapiz(&["rate", STUCK, "--pipeline", basics, "--technique", script]);
    assert!(ok, "{err}");
    assert!(out.contains("skyscraper-script="), "{out}");
    let (ok, out, _) = lapiz(&["rate", STUCK, "--pipeline", basics]);
    assert!(ok);
    assert!(!out.contains("skyscraper-script="), "{out}");
    let args = ["generate", "--seed", "7", "--rate", "--pipeline", basics];
    let (ok, out, err) = lapiz(&[&args[..], &["--technique", script]].concat());
    assert!(ok, "{err}");
    assert!(out.starts_with("puzzle\trating"), "{out}");
    // a script whose id is already there is refused, as `solve` refuses it
    let (status, _, err) = lapiz(&["generate", "--technique", script, "--technique", script]);
    assert!(!status, "{err}");
    assert!(err.contains("is already in the pipeline"), "{err}");
}

#[test]
fn cli_technique_check_file_goes_on_past_an_unreadable_line_and_stops_at_the_limit() {
    // `technique check --file` reads through the batch runner: a line that is not UTF-8 fails
    // and is named, not the end of the run; `--limit` counts puzzle lines.
    let dir = common::temp_dir("scripts-u");
    let file = dir.path().join("p.txt");
    let mut bytes = b"# a comment\n".to_vec();
    bytes.extend_from_slice(STUCK.as_bytes());
    bytes.extend_from_slice(b"\n\xff\xfe not text\n");
    bytes.extend_from_slice(EASY.as_bytes());
    bytes.extend_from_slice(b"\n");
    std::fs::write(&file, bytes).unwrap();
    let f = file.to_str().unwrap();
    let script = "techniques/skyscraper.rhai";
    let (ok, out, err) = lapiz(&["technique", "check", script, "--file", f]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains("line 3 FAILED: cannot read: not UTF-8"),
        "{out}"
    );
    assert!(out.contains("of 3 puzzles)"), "{out}");
    assert!(out.ends_with("2 passed, 1 failed, 0 skipped\n"), "{out}");
    let (ok, out, _) = lapiz(&["technique", "check", script, "--file", f, "--limit", "1"]);
    assert!(ok, "{out}");
    assert!(out.contains("of 1 puzzles)"), "{out}");
    assert!(out.ends_with("1 passed, 0 failed, 0 skipped\n"), "{out}");
}
