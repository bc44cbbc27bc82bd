//! Technique plugins: the example plugins pass their library cases and agree with the built-in
//! twins; every way a plugin can misbehave gives a clear error and the solve goes on; the C
//! header agrees with the Rust ABI. The plugins are built by the tests themselves
//! (`tests/common/plugins.rs`).

mod common;

use std::path::Path;
use std::process::Command;

use common::plugins::{example_c, example_rust, fault_plugin, fixture, fixture_case, root};
use lapiz::Puzzle;
use lapiz::engine::Pipeline;
use lapiz::engine::{Entry, Rejection};
use lapiz::model::House;
use lapiz::plugin::{self, PluginError, PluginMode};
use lapiz::technique::{Origin, Technique, builtin, find_all};
use lapiz::text::parse_line;
use lapiz::tools::run_library;
use lapiz::tools::{changes, positions};
use lapiz_plugin_api::abi::*;

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn techniques_of(path: &Path) -> Vec<Box<dyn Technique>> {
    plugin::load(path)
        .unwrap_or_else(|e| panic!("{e}"))
        .techniques()
}

/// Runs the library cases of the plugin's techniques; returns (passed, failed).
fn library_result(path: &Path) -> Option<(usize, usize)> {
    let text = common::read_data("reglib/reglib-1.4-dev.txt")?;
    let report = run_library(&text, &techniques_of(path));
    for f in &report.failures {
        eprintln!("FAILED line {} [{}]: {}", f.line_number, f.code, f.reason);
    }
    let total = report.total();
    Some((total.passed, total.failed))
}

#[test]
fn example_rust_plugin_describes_its_techniques() {
    let p = plugin::load(&example_rust()).unwrap();
    assert_eq!(p.name, "example-rust");
    assert_eq!(p.technique_ids(), ["remote-pairs-rs", "bug-plus-1-rs"]);
    let ts = p.techniques();
    assert_eq!(ts[0].library_codes(), ["0703"]);
    assert!(!ts[0].needs_uniqueness());
    assert!(ts[1].needs_uniqueness());
    assert_eq!(ts[1].difficulty(), 5.6);
    assert!(matches!(ts[0].origin(), Origin::Plugin(_)));
    // loading again gives the same library, never a second copy
    let again = plugin::load(&example_rust()).unwrap();
    assert!(std::sync::Arc::ptr_eq(&p, &again));
}

#[test]
fn example_rust_plugin_passes_every_library_case_of_its_codes() {
    let Some((passed, failed)) = library_result(&example_rust()) else {
        return;
    };
    assert_eq!(failed, 0);
    // 16 remote pairs (0703), 9 BUG+1 and 3 BUG+1 cases where nothing may be found
    assert_eq!(passed, 28);
}

#[test]
fn example_c_plugin_passes_every_library_case_of_its_codes() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let p = plugin::load(&example_c()).unwrap();
    assert_eq!(p.technique_ids(), ["xy-wing-c"]);
    let Some((passed, failed)) = library_result(&example_c()) else {
        return;
    };
    assert_eq!((passed, failed), (6, 0));
}

/// The plugins find exactly what their built-in twins find at every position met solving the
/// first puzzles of top1465, and on the library cases of their codes.
#[test]
fn plugins_agree_with_their_built_in_twins() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let (Some(puzzles), Some(library)) = (
        common::puzzles("top1465.txt", 150),
        common::read_data("reglib/reglib-1.4-dev.txt"),
    ) else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    let mut grids: Vec<(lapiz::Grid, Option<[u8; 81]>)> = Vec::new();
    for p in &puzzles {
        let (gs, solution) = positions(&parse_line(p).unwrap(), &pipeline).unwrap();
        grids.extend(gs.into_iter().map(|g| (g, Some(solution))));
    }
    for line in library.lines() {
        if [":0703:", ":0610", ":0800:"]
            .iter()
            .any(|c| line.starts_with(c))
        {
            let case = lapiz::text::parse_library_line(line).unwrap();
            grids.push((case.grid, None));
        }
    }
    let mut pairs: Vec<(Box<dyn Technique>, Box<dyn Technique>)> = Vec::new();
    for t in techniques_of(&example_rust())
        .into_iter()
        .chain(techniques_of(&example_c()))
    {
        let twin = match t.id() {
            "remote-pairs-rs" => "remote-pairs",
            "bug-plus-1-rs" => "bug-plus-1",
            "xy-wing-c" => "xy-wing",
            other => panic!("unexpected technique {other}"),
        };
        pairs.push((t, builtin(twin).unwrap()));
    }
    let mut fired = vec![0usize; pairs.len()];
    for (g, solution) in &grids {
        {
            for (i, (plugin, native)) in pairs.iter().enumerate() {
                let found = find_all(plugin.as_ref(), g).unwrap();
                if let Some(solution) = solution {
                    for s in &found {
                        assert!(s.contradiction(solution).is_none(), "unsound: {s:?}");
                    }
                }
                fired[i] += usize::from(!found.is_empty());
                let expected = find_all(native.as_ref(), g).unwrap();
                assert_eq!(
                    changes(&found),
                    changes(&expected),
                    "{} and {} disagree on {}",
                    plugin.id(),
                    native.id(),
                    lapiz::text::format_grid_library_line(g)
                );
            }
        }
    }
    // the comparison means something only where they fire
    assert!(fired.iter().all(|&n| n > 0), "fired: {fired:?}");
}

#[test]
fn plugin_steps_carry_roles_text_and_ratings() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let Some(case) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let line = case.lines().find(|l| l.starts_with(":0800:")).unwrap();
    let case = lapiz::text::parse_library_line(line).unwrap();
    let xy = &techniques_of(&example_c())[0];
    let steps = find_all(xy.as_ref(), &case.grid).unwrap();
    let s = &steps[0];
    assert_eq!(s.technique, "xy-wing-c");
    assert_eq!(s.difficulty, 4.2);
    assert!(s.explanation.starts_with("XY-Wing: "), "{}", s.explanation);
    assert!(s.explanation.contains(" => "), "{}", s.explanation);
    let roles: Vec<_> = s.highlights.iter().map(|h| h.role).collect();
    assert_eq!(roles, [lapiz::Role::Pivot, lapiz::Role::Pincer]);
    assert_eq!(s.highlights[0].candidates.len(), 2);
    assert_eq!(s.highlights[1].candidates.len(), 4);
}

/// The house two cells that see each other share: their row, else their column, else their
/// box (as the C example names them).
fn shared_house(a: lapiz::Cell, b: lapiz::Cell) -> House {
    if a.row() == b.row() {
        House::row(a.row())
    } else if a.col() == b.col() {
        House::col(a.col())
    } else {
        House::boxed(a.box_index())
    }
}

/// ABI version 2: the C XY-Wing's steps carry the houses linking its pivot to each pincer, and
/// they arrive the same in-process and through a plugin host.
#[test]
fn plugin_steps_carry_houses_in_process_and_hosted() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let Some(library) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    common::plugins::use_built_host();
    let cases: Vec<_> = library
        .lines()
        .filter(|l| l.starts_with(":0800:"))
        .map(|l| lapiz::text::parse_library_line(l).unwrap())
        .collect();
    let mut by_mode = Vec::new();
    for mode in [PluginMode::InProcess, PluginMode::Host] {
        let xy = plugin::load_as(&example_c(), mode)
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"))
            .technique("xy-wing-c")
            .unwrap();
        let mut steps = Vec::new();
        for case in &cases {
            steps.extend(find_all(xy.as_ref(), &case.grid).unwrap());
        }
        assert!(!steps.is_empty());
        for s in &steps {
            let pivot = s.highlights[0].candidates[0].cell;
            let mut expected: Vec<House> = Vec::new();
            for c in &s.highlights[1].candidates {
                let h = shared_house(pivot, c.cell);
                if !expected.contains(&h) {
                    expected.push(h);
                }
            }
            assert_eq!(s.houses, expected, "{mode:?}: {}", s.explanation);
        }
        by_mode.push(steps);
    }
    assert_eq!(by_mode[0], by_mode[1]);
}

/// A plugin built for ABI version 1 (before `LpOutput` had houses) still loads, in-process and
/// in a host; its steps arrive without houses, and junk in the fields it cannot know is
/// ignored.
#[test]
fn a_plugin_built_for_abi_version_1_still_loads() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    common::plugins::use_built_host();
    let grid = parse_line(PUZZLE).unwrap();
    let first = grid.empty_cells().iter().next().unwrap();
    for case in [0, 1] {
        let path = fixture_case("abi_v1", case);
        for mode in [PluginMode::InProcess, PluginMode::Host] {
            let what = format!("case {case}, {mode:?}");
            let t = plugin::load_as(&path, mode)
                .unwrap_or_else(|e| panic!("{what}: {e}"))
                .technique("abi-one")
                .unwrap();
            let steps = find_all(t.as_ref(), &grid).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(steps.len(), 1, "{what}");
            let s = &steps[0];
            assert_eq!(s.explanation, "ABI One: the first empty cell", "{what}");
            assert!(s.houses.is_empty(), "{what}: {:?}", s.houses);
            assert_eq!(
                s.highlights[0].candidates.len() as u32,
                grid.candidates(first).count_ones(),
                "{what}"
            );
        }
    }
}

#[test]
fn every_fault_gives_its_error_and_the_solve_goes_on() {
    let grid = parse_line(PUZZLE).unwrap();
    let faults: Vec<_> = techniques_of(&fault_plugin())
        .into_iter()
        .filter(|t| t.id() != "fault-flood")
        .collect();
    let mut techniques = faults;
    let defaults = Pipeline::default_pipeline().ids();
    techniques.extend(defaults.iter().map(|id| builtin(id).expect("built-in")));
    let pipeline = Pipeline::from_techniques("faults", techniques).expect("unique ids");
    let trace = Puzzle::from_nine(&grid).solve(&pipeline);
    assert!(trace.is_solved(), "{:?}", trace.outcome);
    let failed = |id: &str| -> String {
        trace
            .entries
            .iter()
            .find_map(|e| match e {
                Entry::Failed { technique, error } if technique == id => Some(error.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no failure recorded for {id}"))
    };
    let expect = [
        (
            "fault-panic",
            "the search panicked: deliberate panic in the fault plugin",
        ),
        (
            "fault-error",
            "the search failed: deliberate failure: the search gave up",
        ),
        (
            "fault-cell-range",
            "eliminations[0] names cell 81 (cells are 0 to 80 on a 9x9 board)",
        ),
        (
            "fault-digit-range",
            "eliminations[0] names digit 10 (digits are 1 to 9 on a 9x9 board)",
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
            "fault-house-range",
            "houses[0] names house 27 (houses are 0 to 26 on a 9x9 board)",
        ),
    ];
    for (id, message) in expect {
        let error = failed(id);
        assert!(error.contains(message), "{id}: {error}");
        assert!(
            error.contains("lapiz_fault_plugin"),
            "names the plugin: {error}"
        );
    }
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
    assert_eq!(rejected, ["fault-unsound"]);
    // each failing technique is disabled after its first failure
    assert_eq!(trace.summary.rejected, 1);
    let failures = trace
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Failed { .. }))
        .count();
    assert_eq!(failures, expect.len());
}

#[test]
fn a_plugin_that_never_stops_emitting_is_cut_off() {
    let flood = techniques_of(&fault_plugin())
        .into_iter()
        .find(|t| t.id() == "fault-flood")
        .unwrap();
    let grid = parse_line(PUZZLE).unwrap();
    let err = find_all(flood.as_ref(), &grid).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "more than {} steps in one search",
            plugin::MAX_STEPS_PER_SEARCH
        )),
        "{err}"
    );
}

#[test]
fn an_undefined_status_is_named() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let t = &techniques_of(&fixture("odd_status"))[0];
    let err = find_all(t.as_ref(), &parse_line(PUZZLE).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the search returned unknown status 7"),
        "{err}"
    );
}

#[test]
fn every_malformed_descriptor_is_named() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let cases = [
        (
            1,
            "technique 0: id \"Bad Id\" is not 1 to 64 lowercase letters",
        ),
        (2, "technique 0: `no-search`: no search function"),
        (3, "technique 1: id `twice` appears twice"),
        (4, "technique 0: `nameless`: no name"),
        (
            5,
            "technique 0: `too-hard`: difficulty 25 is not in (0, 20]",
        ),
        (6, "technique 0: `flagged`: unknown flags 0x6"),
        (7, "is not UTF-8"),
        (8, "sizeof(LpTechnique) is"),
        (
            9,
            "technique 0: `both`: both search and search_sized; a technique has one search",
        ),
        (
            10,
            "technique 0: `nine-sizes`: sizes 0x10000 without search_sized",
        ),
        (
            11,
            "technique 0: `no-size`: sizes 0x408 names no size lapiz runs",
        ),
    ];
    for (case, message) in cases {
        let err = plugin::load(&fixture_case("bad_descriptor", case)).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(message), "case {case}: {text}");
        if case == 8 {
            assert!(matches!(
                err,
                PluginError::StructSize {
                    what: "LpTechnique",
                    ..
                }
            ));
        } else {
            assert!(
                matches!(err, PluginError::BadTechnique { .. }),
                "case {case}: {text}"
            );
        }
    }
}

#[test]
fn plugin_searches_run_on_several_threads_at_once() {
    let techniques = techniques_of(&example_rust());
    let Some(text) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let cases: Vec<_> = text
        .lines()
        .filter(|l| l.starts_with(":0703:"))
        .map(|l| lapiz::text::parse_library_line(l).unwrap())
        .collect();
    let single: Vec<_> = cases
        .iter()
        .map(|c| changes(&find_all(techniques[0].as_ref(), &c.grid).unwrap()))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..20 {
                    for (c, expected) in cases.iter().zip(&single) {
                        let found = find_all(techniques[0].as_ref(), &c.grid).unwrap();
                        assert_eq!(&changes(&found), expected);
                    }
                }
            });
        }
    });
}

#[test]
fn another_abi_version_is_refused_naming_both() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let err = plugin::load(&fixture("wrong_abi")).unwrap_err();
    assert!(
        matches!(err, PluginError::AbiVersion { found, expected, oldest, .. } if found == LP_ABI_VERSION + 1 && expected == LP_ABI_VERSION && oldest == 1),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains(&format!("ABI version {}", LP_ABI_VERSION + 1))
            && text.contains(&format!("loads versions 1 to {LP_ABI_VERSION}")),
        "{text}"
    );
}

#[test]
fn a_library_without_the_entry_symbol_is_not_a_plugin() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let err = plugin::load(&fixture("no_entry")).unwrap_err();
    assert!(matches!(err, PluginError::NoEntry { .. }), "{err}");
    assert!(
        err.to_string().contains("no `lapiz_plugin` symbol"),
        "{err}"
    );
}

#[test]
fn a_null_descriptor_is_refused() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let err = plugin::load(&fixture("null_descriptor")).unwrap_err();
    assert!(matches!(err, PluginError::NoDescriptor { .. }), "{err}");
}

#[test]
fn pipelines_name_plugins_by_path_and_by_id_after_loading_a_folder() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    // pipelines load plugins in hosts: the test binary is not `lapiz`
    common::plugins::use_built_host();
    let folder = common::temp_dir("plugins");
    let dir = folder.path();
    let lib = dir.join(common::plugins::library_file("lapiz_example_rust"));
    std::fs::copy(example_rust(), &lib).unwrap();
    let ron = format!(
        r#"Pipeline(
            name: "with plugins",
            plugins: ["{dir}"],
            techniques: [
                Technique("hidden-single"),
                Technique("naked-single"),
                Technique("remote-pairs-rs"),
                Plugin("{c}"),
            ],
        )"#,
        dir = dir.display(),
        c = example_c().display(),
    );
    let p = Pipeline::from_ron(&ron, "p.ron").unwrap();
    assert!(p.warnings().is_empty(), "{:?}", p.warnings());
    // a plugin id that a built-in or an earlier plugin already has is named in a warning
    let shadowing = format!(
        r#"Pipeline(plugins: ["{}", "{}"], techniques: [Technique("naked-single")])"#,
        example_rust().display(),
        lib.display()
    );
    let q = Pipeline::from_ron(&shadowing, "q.ron").unwrap();
    assert_eq!(q.warnings().len(), 2, "{:?}", q.warnings());
    assert!(q.warnings()[0].contains("`remote-pairs-rs` is also offered by plugin"));
    assert_eq!(
        p.ids(),
        [
            "hidden-single",
            "naked-single",
            "remote-pairs-rs",
            "xy-wing-c"
        ]
    );
}

#[test]
fn a_plugin_that_fails_to_load_is_left_out_and_the_solve_goes_on() {
    let ron = r#"Pipeline(
        plugins: ["no/such/folder"],
        techniques: [
            Technique("hidden-single"),
            Technique("naked-single"),
            Plugin("no/such/plugin.so"),
            Technique("remote-pairs-rs"),
        ],
    )"#;
    let p = Pipeline::from_ron(ron, "p.ron").unwrap();
    assert_eq!(p.ids(), ["hidden-single", "naked-single"]);
    assert_eq!(p.warnings().len(), 3, "{:?}", p.warnings());
    // the two plugins, for a caller (the command line) that will not go on without them
    assert_eq!(p.plugin_failures().len(), 2, "{:?}", p.plugin_failures());
    assert!(
        p.warnings()[0].contains("no/such/folder"),
        "{:?}",
        p.warnings()
    );
    assert!(
        p.warnings()[1].contains("entry 3: plugin no/such/plugin.so: no such file"),
        "{:?}",
        p.warnings()
    );
    assert!(
        p.warnings()[2].contains("`remote-pairs-rs`"),
        "{:?}",
        p.warnings()
    );
    let trace = lapiz::solve_puzzle(PUZZLE, &p);
    assert!(trace.is_solved());
    // a failed `Plugin(...)` entry cannot excuse an unknown id: only `plugins` can offer ids
    let err = Pipeline::from_ron(
        r#"Pipeline(techniques: [Plugin("no/such/plugin.so"), Technique("naked-singel")])"#,
        "r.ron",
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("unknown technique `naked-singel`"));
    // without a failed plugin, an unknown id is still an error
    let err = Pipeline::from_ron(
        r#"Pipeline(techniques: [Technique("remote-pairs-rs")])"#,
        "q.ron",
    )
    .err()
    .unwrap();
    assert!(
        err.to_string()
            .contains("unknown technique `remote-pairs-rs`")
    );
}

use common::cli::run_lapiz as lapiz;

#[test]
fn cli_reglib_tests_a_plugin_against_the_library() {
    let Some(lib) = common::data_file("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let rust = example_rust();
    let (ok, out, err) = lapiz(&[
        "reglib",
        lib.to_str().unwrap(),
        "--plugin",
        rust.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("0703     passed  16  failed   0"), "{out}");
    // only the codes the plugin answers are listed and counted (issue 15)
    let codes: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" passed ") && l.contains(" skipped "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(
        codes
            .iter()
            .all(|c| c.starts_with("0703") || c.starts_with("0610")),
        "{out}"
    );
    assert!(
        out.contains("866 cases of other codes were not run (the plugins answer 0703,0610)\n"),
        "{out}"
    );
    assert!(out.ends_with("28 passed, 0 failed, 0 skipped\n"), "{out}");
}

#[test]
fn cli_lists_plugin_techniques_with_their_origin() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    let c = example_c();
    let (ok, out, err) = lapiz(&["techniques", "--plugin", c.to_str().unwrap()]);
    assert!(ok, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains("xy-wing-c"))
        .expect("listed");
    assert!(line.contains(&format!("plugin {}", c.display())), "{line}");
    // in difficulty order: just before the built-in XY-Wing
    let ids: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    let at = |id: &str| ids.iter().position(|&i| i == id).unwrap();
    assert!(at("xy-wing-c") < at("xy-wing"), "{out}");
    assert!(at("xy-wing-c") > at("naked-triple"), "{out}");
}

#[test]
fn cli_stops_on_a_plugin_that_fails_to_load() {
    // One policy (README, "Exit status"): a plugin that does not load, named on the command
    // line or in a pipeline file, is status 2, as a script that does not load is.
    let not_a_lib = root().join("README.md");
    for plugin in ["no/such/plugin.so", not_a_lib.to_str().unwrap()] {
        for command in ["solve", "rate", "hint"] {
            let (code, out, err) =
                common::cli::run_lapiz_in_root(&[command, PUZZLE, "--plugin", plugin]);
            assert_eq!(code, Some(2), "{command} --plugin {plugin}: {out}{err}");
            assert!(out.is_empty(), "{command}: {out}");
            assert!(err.starts_with("error: plugin "), "{command}: {err}");
        }
    }
    let pipeline = common::temp_file(
        "plugins-failing",
        "failing.ron",
        r#"Pipeline(techniques: [Technique("naked-single"), Plugin("no/such/plugin.so")])"#,
    );
    let (code, out, err) = common::cli::run_lapiz_in_root(&[
        "solve",
        PUZZLE,
        "--pipeline",
        pipeline.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    // a relative plugin path is the pipeline file's folder's
    let folder = pipeline.parent().unwrap().display().to_string();
    assert!(
        err.contains(&format!(
            "entry 2: plugin {folder}/no/such/plugin.so: no such file"
        )),
        "{err}"
    );
}

/// The C header and the Rust ABI agree: a C file asserting every size, offset and constant
/// (with the Rust values) must compile, for the header's default version (3) and, with
/// `LP_ABI_TARGET` 2 or 1, for the older versions' `LpTechnique` (`LpTechniqueV2`).
#[test]
fn c_header_matches_the_rust_abi() {
    if !common::plugins::c_compiler_available() {
        return;
    }
    use std::mem::{offset_of, size_of};
    let mut c = String::from("#include <stddef.h>\n#include \"lapiz_plugin.h\"\n");
    let mut check = |expr: String, value: usize| {
        c.push_str(&format!(
            "_Static_assert({expr} == {value}, \"{}\");\n",
            expr.replace('"', "'")
        ));
    };
    macro_rules! sizes {
        ($check:ident: $($t:ident $(as $c:ident)? { $($f:ident),* }),* $(,)?) => {$(
            let name = sizes!(@name $t $($c)?);
            $check(format!("sizeof({name})"), size_of::<$t>());
            $check(format!("_Alignof({name})"), align_of::<$t>());
            $($check(
                format!("offsetof({name}, {})", stringify!($f)),
                offset_of!($t, $f),
            );)*
        )*};
        (@name $t:ident) => { stringify!($t) };
        (@name $t:ident $c:ident) => { stringify!($c) };
    }
    sizes!(check:
        LpGrid { values, candidates },
        LpCandidate { cell, digit },
        LpHighlight { cell, digit, role },
        LpOutput {
            placements,
            placements_cap,
            placements_len,
            eliminations,
            eliminations_cap,
            eliminations_len,
            highlights,
            highlights_cap,
            highlights_len,
            explanation,
            explanation_cap,
            explanation_len,
            difficulty,
            struct_size,
            host,
            emit,
            houses,
            houses_cap,
            houses_len
        },
        LpBoard {
            n,
            box_rows,
            box_cols,
            cells,
            candidates,
            values
        },
        LpSizedCandidate { cell, digit },
        LpSizedHighlight { cell, digit, role },
        LpSizedOutput {
            placements,
            placements_cap,
            placements_len,
            eliminations,
            eliminations_cap,
            eliminations_len,
            highlights,
            highlights_cap,
            highlights_len,
            houses,
            houses_cap,
            houses_len,
            explanation,
            explanation_cap,
            explanation_len,
            difficulty,
            struct_size,
            host,
            emit
        },
        LpTechnique {
            id,
            name,
            codes,
            difficulty,
            flags,
            context,
            search,
            search_sized,
            sizes
        },
        LpPlugin {
            abi_version,
            struct_size,
            technique_size,
            technique_count,
            techniques,
            name
        },
    );
    let constants: [(&str, i64); 36] = [
        ("LP_ABI_VERSION", LP_ABI_VERSION.into()),
        ("LP_ABI_TARGET", LP_ABI_SIZED.into()),
        ("LP_OK", LP_OK.into()),
        ("LP_ERROR", LP_ERROR.into()),
        ("LP_PANIC", LP_PANIC.into()),
        ("LP_CONTINUE", LP_CONTINUE.into()),
        ("LP_STOP", LP_STOP.into()),
        ("LP_REJECTED", LP_REJECTED.into()),
        ("LP_NEEDS_UNIQUENESS", LP_NEEDS_UNIQUENESS.into()),
        ("LP_ROLE_PATTERN", LP_ROLE_PATTERN.into()),
        ("LP_ROLE_BASE", LP_ROLE_BASE.into()),
        ("LP_ROLE_COVER", LP_ROLE_COVER.into()),
        ("LP_ROLE_FIN", LP_ROLE_FIN.into()),
        ("LP_ROLE_PIVOT", LP_ROLE_PIVOT.into()),
        ("LP_ROLE_PINCER", LP_ROLE_PINCER.into()),
        ("LP_ROLE_LINK", LP_ROLE_LINK.into()),
        ("LP_ROLE_COLOR_A", LP_ROLE_COLOR_A.into()),
        ("LP_ROLE_COLOR_B", LP_ROLE_COLOR_B.into()),
        ("LP_MIN_PLACEMENTS", LP_MIN_PLACEMENTS.into()),
        ("LP_MIN_ELIMINATIONS", LP_MIN_ELIMINATIONS.into()),
        ("LP_MIN_HIGHLIGHTS", LP_MIN_HIGHLIGHTS.into()),
        ("LP_MIN_EXPLANATION", LP_MIN_EXPLANATION.into()),
        ("LP_MIN_HOUSES", LP_MIN_HOUSES.into()),
        ("LP_MAX_SIZE", LP_MAX_SIZE.into()),
        ("LP_MAX_CELLS", LP_MAX_CELLS.into()),
        ("LP_EVERY_SIZE", LP_EVERY_SIZE.into()),
        ("LP_SIZE(16)", lp_size(16).into()),
        ("LP_SIZE(25)", lp_size(25).into()),
        ("LP_SIZED_MIN_PLACEMENTS", LP_SIZED_MIN_PLACEMENTS.into()),
        (
            "LP_SIZED_MIN_ELIMINATIONS",
            LP_SIZED_MIN_ELIMINATIONS.into(),
        ),
        ("LP_SIZED_MIN_HIGHLIGHTS", LP_SIZED_MIN_HIGHLIGHTS.into()),
        ("LP_SIZED_MIN_HOUSES", LP_SIZED_MIN_HOUSES.into()),
        ("sizeof(((LpBoard *)0)->values)", LP_MAX_CELLS.into()),
        ("sizeof(uint16_t)", 2),
        ("sizeof(float)", 4),
        ("sizeof(LpEntryFn)", size_of::<LpEntryFn>() as i64),
    ];
    for (name, value) in constants {
        c.push_str(&format!("_Static_assert({name} == {value}, \"{name}\");\n"));
    }
    // the entry symbol's name, as a declaration the compiler checks against the typedef
    c.push_str(&format!(
        "const LpPlugin *{LP_ENTRY_SYMBOL}(void);\nLpEntryFn entry = {LP_ENTRY_SYMBOL};\n"
    ));
    // the callback types, checked against functions of the Rust signatures
    c.push_str(
        "int32_t search_fn(const void *context, const LpGrid *grid, LpOutput *out);\n\
         LpSearchFn search_ptr = search_fn;\n\
         int32_t emit_fn(LpOutput *out);\nLpEmitFn emit_ptr = emit_fn;\n\
         int32_t sized_fn(const void *context, const LpBoard *board, LpSizedOutput *out);\n\
         LpSizedSearchFn sized_ptr = sized_fn;\n\
         int32_t sized_emit_fn(LpSizedOutput *out);\nLpSizedEmitFn sized_emit_ptr = sized_emit_fn;\n",
    );
    // versions 1 and 2: `LP_ABI_TARGET` lays `LpTechnique` out as `LpTechniqueV2`
    let mut old = Vec::new();
    for target in [1u32, 2] {
        let mut c = format!(
            "#include <stddef.h>\n#define LP_ABI_TARGET {target}\n#include \"lapiz_plugin.h\"\n"
        );
        let mut check = |expr: String, value: usize| {
            c.push_str(&format!(
                "_Static_assert({expr} == {value}, \"{}\");\n",
                expr.replace('"', "'")
            ));
        };
        sizes!(check:
            LpTechniqueV2 as LpTechnique {
                id,
                name,
                codes,
                difficulty,
                flags,
                context,
                search
            },
        );
        check("LP_ABI_VERSION".into(), target as usize);
        old.push((format!("check_v{target}.c"), c));
    }
    let dir = common::plugins::build_dir().join("header-check");
    std::fs::create_dir_all(&dir).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    for (name, c) in std::iter::once(("check.c".to_string(), c)).chain(old) {
        let file = dir.join(&name);
        std::fs::write(&file, &c).unwrap();
        let out = Command::new(&cc)
            .args(["-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I"])
            .arg(root().join("plugins/lapiz-plugin-api/include"))
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
        assert!(
            out.status.success(),
            "the C header disagrees with the Rust ABI ({name}):\n{}\n{c}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A whole trace in which a plugin technique makes a step (BUG+1 from the Rust example, which
/// goes before the built-in twin of the same difficulty).
#[test]
fn trace_with_a_plugin_step() {
    common::plugins::use_built_host();
    let puzzle =
        "..34.67.94..9........5...26.9.....15..2...8...1.357....6173.5..9.............82..";
    let mut pipeline = Pipeline::default_pipeline();
    let added = pipeline.add_plugin(&example_rust()).unwrap();
    assert_eq!(added, ["remote-pairs-rs", "bug-plus-1-rs"]);
    let trace = lapiz::solve_puzzle(puzzle, &pipeline);
    assert!(trace.is_solved(), "{:?}", trace.outcome);
    assert!(trace.summary.uniqueness_assumed);
    let plugin_steps: Vec<_> = trace
        .steps()
        .filter(|s| s.technique == "bug-plus-1-rs")
        .collect();
    assert_eq!(plugin_steps.len(), 1);
    assert_eq!(
        plugin_steps[0].explanation,
        "BUG+1: r2c8 is 8 (every other cell bivalue) => r2c8<>3,5"
    );
    assert_eq!(trace.summary.rejected, 0);
    insta::assert_snapshot!("plugin_bug_plus_1", trace.to_ron());
}

/// The ids and figures of a `technique bench` result line
/// (`<id>: S us per search, <native>: N us per search, ratio R`), checked for its shape.
fn bench_result(line: &str) -> (String, String) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 12, "{line}");
    assert_eq!(&words[2..5], ["us", "per", "search,"], "{line}");
    assert_eq!(&words[7..11], ["us", "per", "search,", "ratio"], "{line}");
    for w in [words[1], words[6], words[11]] {
        assert!(w.parse::<f64>().is_ok_and(|x| x > 0.0), "{line}");
    }
    let id = |w: &str| w.trim_end_matches(':').to_string();
    (id(words[0]), id(words[5]))
}

/// The files the `technique` command tests use, as text: the library, top1465, the Rust and C
/// examples and the fault plugin; `None` (the test is skipped, saying why) without a C
/// compiler or the shared data.
fn technique_cli_files() -> Option<[String; 5]> {
    if !common::plugins::c_compiler_available() {
        return None;
    }
    let lib = common::data_file("reglib/reglib-1.4-dev.txt")?;
    let puzzles = common::data_file("puzzles/top1465.txt")?;
    let text = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
    Some([lib, puzzles, example_rust(), example_c(), fault_plugin()].map(text))
}

/// `technique check LIB`: each technique of a plugin library against its built-in twin, on
/// the library cases of its codes and at every position of a puzzle file, in a host and
/// in-process; `--id` picks one; bad input is a clear error.
#[test]
fn cli_technique_check_takes_a_plugin_library() {
    let Some(files) = technique_cli_files() else {
        return;
    };
    let [lib, puzzles, rust, c, fault] = files.each_ref().map(String::as_str);

    // every technique of the Rust example, in a host (the default), on the library
    let (ok, out, err) = lapiz(&["technique", "check", rust, "--reglib", lib]);
    assert!(ok, "{out}{err}");
    for (id, twin, cases) in [
        ("remote-pairs-rs", "remote-pairs", 16),
        ("bug-plus-1-rs", "bug-plus-1", 12),
    ] {
        assert!(
            out.contains(&format!("plugin {rust} (plugin mode host): {id} \"")),
            "{out}"
        );
        assert!(
            out.contains(&format!("compared with built-in {twin} (")),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "{twin} agrees on {cases} of {cases} cases\n{cases} passed, 0 failed, 0 skipped\n"
            )),
            "{out}"
        );
    }

    // the C example in-process, at every position met solving puzzles: sound, and in
    // agreement with the built-in
    let args = ["technique", "check", c, "--file", puzzles, "--limit", "20"];
    let (ok, out, err) = lapiz(&[&["--plugin-mode", "in-process"], &args[..]].concat());
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(&format!("plugin {c} (plugin mode in-process): xy-wing-c")),
        "{out}"
    );
    assert!(
        out.contains("compared with built-in xy-wing (XY-Wing)"),
        "{out}"
    );
    let fired = out.lines().find(|l| l.starts_with("fired at ")).unwrap();
    assert!(!fired.starts_with("fired at 0 "), "{out}");
    assert!(out.contains("xy-wing disagrees at 0 of "), "{out}");
    assert!(out.ends_with("20 passed, 0 failed, 0 skipped\n"), "{out}");

    // --id picks one technique
    let args = [
        "technique",
        "check",
        rust,
        "--id",
        "bug-plus-1-rs",
        "--file",
        puzzles,
    ];
    let (ok, out, err) = lapiz(&[&args[..], &["--limit", "10"]].concat());
    assert!(ok, "{out}{err}");
    assert!(!out.contains("remote-pairs"), "{out}");
    assert!(out.contains("bug-plus-1 disagrees at 0 of "), "{out}");

    // an id the library does not offer, a file that is no library, a failing search
    let (ok, _, err) = lapiz(&["technique", "check", rust, "--id", "nope"]);
    assert!(!ok);
    assert!(
        err.contains(&format!(
            "{rust}: no technique `nope` (it offers remote-pairs-rs, bug-plus-1-rs)"
        )),
        "{err}"
    );
    let dir = common::plugins::build_dir().join("cli-check");
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join(common::plugins::library_file("not_a_library"));
    std::fs::write(&fake, "not a library\n").unwrap();
    let fake = fake.to_str().unwrap();
    for mode in ["host", "in-process"] {
        let (ok, _, err) = lapiz(&["--plugin-mode", mode, "technique", "check", fake]);
        assert!(!ok, "{mode}");
        assert!(
            err.contains(&format!("plugin {fake}: not a shared library"))
                && !err.contains("panicked"),
            "{mode}: {err}"
        );
    }
    // a library none of whose techniques declares codes checks nothing: an error
    let (ok, out, err) = lapiz(&["technique", "check", fault]);
    assert!(!ok);
    assert!(
        out.contains("`fault-panic` declares no library codes: not checked"),
        "{out}"
    );
    assert!(
        err.contains(&format!(
            "{fault}: none of its techniques declares library codes"
        )),
        "{err}"
    );
    let args = [
        "technique",
        "check",
        fault,
        "--id",
        "fault-error",
        "--file",
        puzzles,
    ];
    let (ok, out, _) = lapiz(&[&args[..], &["--limit", "1"]].concat());
    assert!(!ok);
    assert!(
        out.contains(&format!("line 3 FAILED: position 1: technique fault-error failed: the search failed: deliberate failure: the search gave up (plugin {fault})")),
        "{out}"
    );
}

/// `technique bench LIB`: each technique of a plugin library timed against its built-in twin,
/// saying so when the searches cross into a host; a failing search names the position.
#[test]
fn cli_technique_bench_times_plugins_against_their_twins() {
    let Some(files) = technique_cli_files() else {
        return;
    };
    let [lib, puzzles, rust, c, fault] = files.each_ref().map(String::as_str);

    let (ok, out, err) = lapiz(&["technique", "bench", c, "--reglib", lib, "--rounds", "1"]);
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with(&format!(
            "plugin {c} (plugin mode host): xy-wing-c, native twin xy-wing\n"
        )),
        "{out}"
    );
    assert!(out.contains("crosses a process boundary"), "{out}");
    assert!(
        out.contains("`--plugin-mode in-process` times the search alone"),
        "{out}"
    );
    assert!(
        out.contains("steps found: xy-wing-c 8, xy-wing 8\n"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    assert_eq!(bench_result(last), ("xy-wing-c".into(), "xy-wing".into()));

    // in-process: no boundary; each technique of the library in turn, each with its last line
    let args = ["technique", "bench", rust, "--reglib", lib, "--rounds", "1"];
    let (ok, out, err) = lapiz(&[&["--plugin-mode", "in-process"], &args[..]].concat());
    assert!(ok, "{out}{err}");
    assert!(!out.contains("process boundary"), "{out}");
    let results: Vec<_> = out
        .lines()
        .filter(|l| l.ends_with(|c: char| c.is_ascii_digit()) && l.contains(" ratio "))
        .map(bench_result)
        .collect();
    assert_eq!(
        results,
        [
            ("remote-pairs-rs".into(), "remote-pairs".into()),
            ("bug-plus-1-rs".into(), "bug-plus-1".into())
        ],
        "{out}"
    );
    // the bug-plus-1 section ends the output
    assert_eq!(bench_result(out.lines().last().unwrap()).0, "bug-plus-1-rs");

    let (ok, _, err) = lapiz(&["technique", "bench", rust, "--id", "nope"]);
    assert!(!ok);
    assert!(err.contains("no technique `nope`"), "{err}");
    // a library none of whose techniques declares codes times nothing: an error
    let (ok, out, err) = lapiz(&["technique", "bench", fault]);
    assert!(!ok);
    assert!(
        out.contains("`fault-panic` declares no library codes: not timed"),
        "{out}"
    );
    assert!(
        err.contains(&format!(
            "{fault}: none of its techniques declares library codes"
        )),
        "{err}"
    );
    let args = [
        "technique",
        "bench",
        fault,
        "--id",
        "fault-panic",
        "--file",
        puzzles,
    ];
    let (ok, _, err) = lapiz(&[&args[..], &["--limit", "1"]].concat());
    assert!(!ok);
    assert!(
        err.contains("fault-panic failed at position 1")
            && err.contains("the search panicked: deliberate panic in the fault plugin")
            && err.contains(fault),
        "{err}"
    );
}

#[test]
fn cli_plugin_limits_say_what_is_wrong() {
    // A memory limit too small to load the library is named as such, not as a bad library.
    let lib = example_rust();
    let (code, _, err) = common::cli::run_lapiz_in_root(&[
        "--plugin-memory",
        "1",
        "solve",
        PUZZLE,
        "--plugin",
        lib.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    // the loader's refusal names the limit, and so does a host that aborted on it before
    // (its extra threads' stacks can take the room first)
    assert!(
        err.contains("memory limit of 1 MiB") || err.contains("its memory limit was 1 MiB"),
        "{err}"
    );
    assert!(!err.contains("not a shared library"), "{err}");
    // The time limit's maximum is stated.
    let (code, _, err) =
        common::cli::run_lapiz_in_root(&["--plugin-time-limit", "31536000", "solve", PUZZLE]);
    assert_eq!(code, Some(2));
    assert!(err.contains("at most 1000000"), "{err}");
}
