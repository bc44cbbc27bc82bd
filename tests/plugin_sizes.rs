//! Plugins on every grid size (plugin ABI version 3): techniques of version 3 find sound steps
//! on 6x6 and 16x16 boards, in process and in plugin hosts alike; a plugin built for version 2
//! still runs on 9x9 and is skipped on 16x16 with a note (and listed as left out); a hostile
//! plugin's out-of-range cells, digits and houses on a 16x16 board are refused with an error
//! naming the plugin and what was wrong. The plugins are built by the tests themselves
//! (`tests/common/plugins.rs`).

mod common;

use std::path::{Path, PathBuf};

use common::plugins::{example_c, example_rust, fault_plugin, root};
use lapiz::engine::Pipeline;
use lapiz::engine::{Entry, Outcome, Rejection, Trace};
use lapiz::plugin::{self, PluginMode};
use lapiz::technique::{Technique, builtin};
use lapiz::text::Puzzle;
use lapiz::text::parse_line;
use lapiz_plugin_api::abi::LP_ABI_VERSION;

/// A 6x6 puzzle on which XY-Wing (the C example) makes a step after the singles.
const SIX_XY: &str = ".......16........55...2.23.6.......4";
/// A 6x6 puzzle on which Remote Pairs (the Rust example) makes a step after the singles.
const SIX_REMOTE: &str = "..64.1..........2....6.3.3...65..3..";
/// A 16x16 puzzle on which XY-Wing makes a step after the singles.
const SIXTEEN_XY: &str = "9..8.7..A.C5....6B..9....1..7..G75..4.G.3...F...1......AF..8.C...EFB....G....3.43..4....9.A.5.2E..9.B.5..6E4.G......FA....2...C......5.412F6..E...2.3FC..4D.B....7.D8.....9C..G....C2.......D6..A...6D..85..2.BF..7F.325......98.D.3........G.A..9.....G..BF.4..";
/// Another 16x16 puzzle.
const SIXTEEN: &str = "54E.....3..8B......1E7DG......2A7.D......B...18..A.....C15.6..4...4AD...CE....F...C3...1...7..A.E8F.B.A..1D..C.2.B.....5.8.9E.3.F5...4...6..327...1798.A4..G...FC.A....6.F.....53..8C.7....E.A.....EAD9.6..B7.....3..6......9...8..67.2.E.3...D......14........E";
/// A 9x9 puzzle.
const NINE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The singles and the locked candidates, so that a plugin technique after them gets its turn.
fn singles() -> Vec<Box<dyn Technique>> {
    [
        "full-house",
        "hidden-single",
        "naked-single",
        "pointing",
        "claiming",
    ]
    .iter()
    .map(|id| builtin(id).expect("a built-in"))
    .collect()
}

fn techniques_of(path: &Path, mode: PluginMode) -> Vec<Box<dyn Technique>> {
    plugin::load_as(path, mode)
        .unwrap_or_else(|e| panic!("{e}"))
        .techniques()
}

/// The example plugin built for ABI version 2: Locked Candidates in C, 9x9 only. Built once
/// per test binary: tests run in parallel, and one compiling it again while another loads it
/// made the load fail (`dlopen failed` on a half-written library).
fn locked_candidates_v2() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            common::plugins::c_plugin(
                &root().join("plugins/example-c/locked_candidates.c"),
                "lapiz_locked_candidates_v2",
                &[],
            )
        })
        .clone()
}

fn failures(trace: &Trace) -> Vec<(String, String)> {
    trace
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Failed { technique, error } => Some((technique.clone(), error.clone())),
            _ => None,
        })
        .collect()
}

/// Techniques of ABI version 3 run on 6x6 and 16x16 boards: each example finds its step, every
/// step is verified against the solution (none rejected, no technique failed), cells and
/// houses stay on the board, and the traces are the same in process and in a plugin host.
#[test]
fn version_3_plugins_find_sound_steps_on_6x6_and_16x16_in_process_and_hosted() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    common::plugins::use_built_host();
    let cases = [
        (SIX_XY, "xy-wing-c"),
        (SIX_REMOTE, "remote-pairs-rs"),
        (SIXTEEN_XY, "xy-wing-c"),
    ];
    let mut by_mode = Vec::new();
    for mode in [PluginMode::InProcess, PluginMode::Host] {
        let mut techniques = singles();
        let rust = techniques_of(&example_rust(), mode);
        let c = techniques_of(&example_c(), mode);
        for t in rust.iter().chain(&c) {
            for n in [4, 6, 8, 9, 12, 16, 25] {
                assert!(t.runs_on(n), "{} runs on {n}x{n}", t.id());
            }
        }
        techniques.extend(rust);
        techniques.extend(c);
        let pipeline = Pipeline::from_techniques("sizes", techniques).expect("unique ids");
        let mut traces = Vec::new();
        for (text, technique) in cases {
            let what = format!("{mode:?}, {technique} on {text}");
            let puzzle = Puzzle::parse(text).unwrap();
            let n = puzzle.layout().n();
            let trace = puzzle.solve(&pipeline);
            assert!(trace.verified, "{what}");
            assert!(
                !matches!(trace.outcome, Outcome::Invalid { .. }),
                "{what}: {:?}",
                trace.outcome
            );
            assert_eq!(failures(&trace), [], "{what}");
            assert_eq!(trace.summary.rejected, 0, "{what}");
            let steps: Vec<_> = trace.steps().filter(|s| s.technique == technique).collect();
            assert!(!steps.is_empty(), "{what}: no step of {technique}");
            for s in &steps {
                let on_board = |c: &lapiz::Cell| usize::from(c.row().max(c.col())) < n;
                assert!(
                    s.eliminations.iter().all(|e| on_board(&e.cell))
                        && s.highlights
                            .iter()
                            .flat_map(|h| &h.candidates)
                            .all(|c| on_board(&c.cell) && usize::from(c.digit) <= n),
                    "{what}: {s:?}"
                );
                assert!(!s.eliminations.is_empty(), "{what}: {s:?}");
                assert!(!s.explanation.is_empty(), "{what}");
                if technique == "xy-wing-c" {
                    // the pivot's two houses, each one of the board's 3n
                    assert!(!s.houses.is_empty(), "{what}: {s:?}");
                    assert!(
                        s.houses.iter().all(|h| h.index_in(n) < 3 * n),
                        "{what}: {s:?}"
                    );
                }
            }
            traces.push(trace.to_ron());
        }
        by_mode.push(traces);
    }
    assert_eq!(by_mode[0], by_mode[1], "in process and hosted differ");
}

/// A plugin built for ABI version 2 runs on 9x9 as it always did (the same steps in process
/// and hosted), and on 16x16 it is left out: `runs_on` says so, the trace lists only the
/// techniques that run, and the library names it with its version.
#[test]
fn a_version_2_plugin_runs_on_9x9_and_is_left_out_of_16x16() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    common::plugins::use_built_host();
    let path = locked_candidates_v2();
    let mut nine_traces = Vec::new();
    for mode in [PluginMode::InProcess, PluginMode::Host] {
        let loaded = plugin::load_as(&path, mode).unwrap();
        assert_eq!(loaded.abi_version, 2);
        assert!(loaded.abi_version < LP_ABI_VERSION);
        let mut techniques = loaded.techniques();
        assert!(techniques.iter().all(|t| t.runs_on(9) && !t.runs_on(16)));
        // before the built-ins, so its steps are the ones taken
        techniques.extend(singles());
        let pipeline = Pipeline::from_techniques("v2", techniques).expect("unique ids");
        let trace = Puzzle::from_nine(&parse_line(NINE).unwrap()).solve(&pipeline);
        assert!(trace.is_solved(), "{mode:?}");
        assert!(
            trace.steps().any(|s| s.technique == "pointing-c"),
            "{mode:?}: the 9x9 plugin makes steps"
        );
        nine_traces.push(trace.to_ron());

        let trace = (Puzzle::parse(SIXTEEN).unwrap()).solve(&pipeline);
        assert_eq!(failures(&trace), [], "{mode:?}");
        assert!(
            !trace.techniques.iter().any(|t| t.ends_with("-c")),
            "{mode:?}: {:?}",
            trace.techniques
        );
        assert!(trace.steps().count() > 0, "{mode:?}: the solve goes on");
        let skipped = plugin::skipped_on(pipeline.techniques(), 16);
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert_eq!(skipped[0].techniques, ["pointing-c", "claiming-c"]);
        assert_eq!(
            skipped[0].to_string(),
            "plugin `locked-candidates-c` (ABI v2) runs on 9x9 only; skipped on this 16x16 puzzle"
        );
        assert_eq!(plugin::skipped_on(pipeline.techniques(), 9), []);
    }
    assert_eq!(nine_traces[0], nine_traces[1]);
}

/// On the command line: a 16x16 puzzle with a version 2 plugin solves, with the note once on
/// stderr (once per run, however many puzzles); `lapiz techniques --size 16` lists the plugin's
/// techniques as left out, with the reason; on 9x9 there is no note.
#[test]
fn cli_notes_a_version_2_plugin_skipped_on_16x16_once_per_run() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let path = locked_candidates_v2();
    let lib = path.to_str().unwrap();
    let note = "note: plugin `locked-candidates-c` (ABI v2) runs on 9x9 only; skipped on this 16x16 puzzle";
    let (ok, stdout, stderr) = common::cli::run_lapiz(&["solve", SIXTEEN, "--plugin", lib]);
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(stdout.contains("16x16"), "{stdout}");

    let dir = common::plugins::build_dir().join("plugin-sizes");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-16x16.txt");
    std::fs::write(&file, format!("{SIXTEEN}\n{SIXTEEN_XY}\n{NINE}\n")).unwrap();
    let (_, stdout, stderr) = common::cli::run_lapiz(&[
        "solve",
        "--file",
        file.to_str().unwrap(),
        "--plugin",
        lib,
        "--threads",
        "2",
    ]);
    assert!(stdout.contains("invalid: 0"), "{stdout}\n{stderr}");
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    let (ok, _, stderr) = common::cli::run_lapiz(&["solve", NINE, "--plugin", lib]);
    assert!(ok && !stderr.contains("note:"), "{stderr}");

    let (ok, stdout, stderr) =
        common::cli::run_lapiz(&["techniques", "--size", "16", "--plugin", lib]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(
            "Left out on 16x16 boards (plugin `locked-candidates-c`, ABI v2: runs on 9x9 only): pointing-c, claiming-c"
        ),
        "{stdout}"
    );
    let (ok, stdout, _) = common::cli::run_lapiz(&["techniques", "--size", "9", "--plugin", lib]);
    assert!(
        ok && stdout.contains("pointing-c") && !stdout.contains("plugin `"),
        "{stdout}"
    );
}

/// A hostile plugin on a 16x16 board: a cell, digit or house past the board, an overflowing
/// buffer, an unknown role, text that is not UTF-8, swapped buffers are each refused with an
/// error naming the plugin and what was wrong; an unsound step is rejected by verification;
/// nothing panics and the solve goes on. In process and in a plugin host alike.
#[test]
fn a_hostile_plugin_on_16x16_gets_clear_errors_and_the_solve_goes_on() {
    common::plugins::use_built_host();
    for mode in [PluginMode::InProcess, PluginMode::Host] {
        let mut techniques: Vec<_> = techniques_of(&fault_plugin(), mode)
            .into_iter()
            .filter(|t| t.id() != "fault-flood")
            .collect();
        let faults = techniques.len();
        techniques.extend(singles());
        let pipeline = Pipeline::from_techniques("faults", techniques).expect("unique ids");
        let trace = (Puzzle::parse(SIXTEEN).unwrap()).solve(&pipeline);
        assert!(
            !matches!(trace.outcome, Outcome::Invalid { .. }),
            "{mode:?}: {:?}",
            trace.outcome
        );
        let failed = failures(&trace);
        let error = |id: &str| -> String {
            failed
                .iter()
                .find(|(t, _)| t == id)
                .map(|(_, e)| e.clone())
                .unwrap_or_else(|| panic!("{mode:?}: no failure recorded for {id}: {failed:?}"))
        };
        let expect = [
            (
                "fault-cell-range",
                "refused a step: eliminations[0] names cell 256 (cells are 0 to 255 on a 16x16 board)",
            ),
            (
                "fault-digit-range",
                "refused a step: eliminations[0] names digit 17 (digits are 1 to 16 on a 16x16 board)",
            ),
            (
                "fault-house-range",
                "refused a step: houses[0] names house 48 (houses are 0 to 47 on a 16x16 board)",
            ),
            (
                "fault-overflow",
                "15626 eliminations overflow a buffer of 15625",
            ),
            (
                "fault-bad-role",
                "highlights[0] has role 200 (roles are 0 to 8)",
            ),
            ("fault-bad-text", "the explanation is not UTF-8"),
            ("fault-bad-difficulty", "difficulty 99 is not in (0, 20]"),
            (
                "fault-swapped-buffers",
                "the plugin changed the output's buffer pointers or capacities",
            ),
            (
                "fault-panic",
                "the search panicked: deliberate panic in the fault plugin",
            ),
            (
                "fault-error",
                "the search failed: deliberate failure: the search gave up",
            ),
        ];
        for (id, message) in expect {
            let e = error(id);
            assert!(e.contains(message), "{mode:?} {id}: {e}");
            assert!(
                e.starts_with(&format!("technique {id} failed: "))
                    && e.contains("lapiz_fault_plugin"),
                "{mode:?}: names the technique and the plugin: {e}"
            );
        }
        assert_eq!(failed.len(), expect.len(), "{mode:?}: {failed:?}");
        // the unsound step reaches verification and goes no further
        let rejected: Vec<_> = trace
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Rejected {
                    step,
                    reason: Rejection::Unsound { .. },
                } => Some(step.technique.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(rejected, ["fault-unsound"], "{mode:?}");
        assert_eq!(faults, expect.len() + 1);
        // every step applied is a built-in's, and there are some: the solve went on
        assert!(trace.steps().count() > 0, "{mode:?}");
        assert!(
            trace.steps().all(|s| !s.technique.starts_with("fault-")),
            "{mode:?}"
        );
    }
}
