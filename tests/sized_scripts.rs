//! Rhai scripts on every size: the shipped scripts (written once with the shape API) run on
//! 6x6 to 16x16 positions, find steps there, every one sound and the same as their built-in
//! twins'; a script declaring `SIZES = [9]` is left out elsewhere, and `lapiz techniques
//! --size N` says so.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::cli::run_lapiz;
use lapiz::engine::{Entry, Outcome};
use lapiz::model::{Alphabet, Layout, S6, S8, S9, S12, S16, Shape};
use lapiz::puzzle::generate::GenerateOptions;
use lapiz::script::ScriptTechnique;
use lapiz::text::Puzzle;
use lapiz::tools::changes;
use lapiz::{Context, Grid, Pipeline, Step, Technique};

/// The shipped scripts.
const SCRIPTS: &[&str] = &[
    "techniques/x-wing.rhai",
    "techniques/skyscraper.rhai",
    "techniques/2-string-kite.rhai",
    "techniques/xy-wing.rhai",
];

/// 16x16 (4x4 boxes), 110 clues, from `tests/sized_traces.rs`.
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

fn load(path: &str) -> ScriptTechnique {
    ScriptTechnique::load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"))
}

fn made(layout: Layout, seed: u64) -> Puzzle {
    let made = Puzzle::generate(
        layout,
        Alphabet::Standard,
        &GenerateOptions::default(),
        &Pipeline::default_pipeline(),
        seed,
        0,
    );
    made.unwrap().puzzle
}

/// Puzzles of every size but 9x9's: generated ones of each layout, the 16x16 fixture, and
/// every twentieth of tarek's tough 16x16 puzzles when the shared data is there.
fn puzzles() -> Vec<Puzzle> {
    let mut out = Vec::new();
    for (n, r, c) in [
        (4, 2, 2),
        (6, 2, 3),
        (6, 3, 2),
        (8, 2, 4),
        (12, 3, 4),
        (12, 4, 3),
        (16, 4, 4),
    ] {
        let seeds = if n >= 12 { 2 } else { 12 };
        for seed in 0..seeds {
            out.push(made(Layout::with_box(n, r, c).unwrap(), seed));
        }
    }
    out.push(Puzzle::parse(SIXTEEN).unwrap());
    match common::read_data("puzzles/16x16/tough-206.txt") {
        Some(text) => out.extend(
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .step_by(20)
                .map(|l| Puzzle::parse(l).unwrap()),
        ),
        None => eprintln!("skipping tarek's tough 16x16 puzzles: the shared data is absent"),
    }
    out
}

/// Every step of `t` at a position.
fn steps_of(t: &dyn Technique, ctx: &Context<'_, impl Shape>) -> Vec<Step> {
    let mut steps = Vec::new();
    t.find_sized(ctx.sized(), &mut |s| {
        steps.push(s);
        std::ops::ControlFlow::Continue(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    steps
}

/// At every position of `p`'s default solve: each script's steps are sound and change what
/// its built-in twin changes. Counts the steps per script and size in `found`.
fn check<S: Shape>(
    p: &Puzzle,
    scripts: &[(ScriptTechnique, Box<dyn Technique>)],
    found: &mut BTreeMap<(String, usize), usize>,
) {
    let n = S::N;
    let solution = p.solution().unwrap();
    let trace = p.solve(&Pipeline::default_pipeline());
    let mut grid = Grid::<S>::from_value_slice(S::geometry(p.layout()), p.values());
    let steps: Vec<&Step> = trace.steps().collect();
    for i in 0..=steps.len() {
        let ctx = Context::new(&grid);
        for (script, twin) in scripts {
            let mine = p.in_its_symbols(|| steps_of(script, &ctx));
            for s in &mine {
                // explained in the puzzle's symbols (`symbol(d)`): `<>E` for 14 on 16x16
                let d = s.eliminations[0].digit;
                let end = p.in_its_symbols(|| format!("<>{}", lapiz::model::Sym(d)));
                assert!(s.explanation.ends_with(&end), "{}: {}", end, s.explanation);
                if d >= 10 {
                    *found
                        .entry(("digits 10 and up".to_string(), n))
                        .or_default() += 1;
                }
                assert_eq!(
                    s.contradiction_in(solution.values(), n),
                    None,
                    "{} on {}: unsound {}",
                    script.id(),
                    p.to_line(),
                    s.explanation
                );
            }
            *found.entry((script.id().to_string(), n)).or_default() += mine.len();
            if !twin.runs_on(n) {
                continue;
            }
            let theirs = steps_of(twin.as_ref(), &ctx);
            assert_eq!(
                changes(&mine),
                changes(&theirs),
                "{} and {} differ on {} after {i} steps",
                script.id(),
                twin.id(),
                p.to_line()
            );
        }
        if let Some(step) = steps.get(i) {
            step.apply(&mut grid);
        }
    }
}

#[test]
fn shipped_scripts_run_on_every_size_soundly_as_their_twins() {
    let scripts: Vec<(ScriptTechnique, Box<dyn Technique>)> = SCRIPTS
        .iter()
        .map(|path| {
            let script = load(path);
            assert_eq!(
                script.sizes(),
                None,
                "{path} declares no size: it runs on all"
            );
            for n in Layout::SIZES {
                assert!(script.runs_on(n.into()), "{path} on {n}x{n}");
            }
            let twin = script.id().strip_suffix("-script").unwrap();
            let twin = lapiz::technique::builtin(twin).expect("a built-in twin");
            (script, twin)
        })
        .collect();
    let mut found = BTreeMap::new();
    for p in puzzles() {
        match p.layout().n() {
            4 => check::<lapiz::model::S4>(&p, &scripts, &mut found),
            6 => check::<S6>(&p, &scripts, &mut found),
            8 => check::<S8>(&p, &scripts, &mut found),
            12 => check::<S12>(&p, &scripts, &mut found),
            _ => check::<S16>(&p, &scripts, &mut found),
        }
    }
    eprintln!("steps found per script and size: {found:?}");
    assert!(
        found.contains_key(&("digits 10 and up".to_string(), 16)),
        "no script step on a digit written as a letter: {found:?}"
    );
    // every script finds steps on 16x16, and on some smaller size than 9x9
    for (script, _) in &scripts {
        let on = |n: usize| {
            found
                .get(&(script.id().to_string(), n))
                .copied()
                .unwrap_or(0)
        };
        assert!(
            on(16) > 0,
            "{} found nothing on 16x16: {found:?}",
            script.id()
        );
        assert!(
            on(6) + on(8) > 0,
            "{} found nothing on 6x6 or 8x8: {found:?}",
            script.id()
        );
    }
}

/// A pipeline of the singles, the intersections and the shipped scripts, and no other
/// technique: what solves with it shows the scripts' steps applied.
fn script_pipeline() -> Pipeline {
    let scripts: String = SCRIPTS
        .iter()
        .map(|p| format!("Script(\"{p}\"), "))
        .collect();
    let ron = format!(
        "Pipeline(name: \"scripts\", techniques: [Technique(\"full-house\"), \
         Technique(\"hidden-single\"), Technique(\"naked-single\"), Technique(\"pointing\"), \
         Technique(\"claiming\"), Technique(\"naked-pair\"), Technique(\"hidden-pair\"), {scripts}])"
    );
    Pipeline::from_ron(&ron, "scripts.ron").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn solves_of_other_sizes_apply_the_scripts_steps() {
    let pipeline = script_pipeline();
    let mut used = BTreeMap::new();
    for p in puzzles() {
        let n = p.layout().n();
        let t = p.solve(&pipeline);
        assert_eq!(t.summary.rejected, 0, "{}", p.to_line());
        // every script runs there, none failed
        for path in SCRIPTS {
            let id = load(path).id().to_string();
            assert!(t.techniques.contains(&id), "{id} left out on {n}x{n}");
        }
        for e in &t.entries {
            assert!(!matches!(e, Entry::Failed { .. }), "{e:?}");
        }
        assert!(!matches!(t.outcome, Outcome::Invalid { .. }));
        for s in t.steps().filter(|s| s.technique.ends_with("-script")) {
            *used.entry((s.technique.clone(), n)).or_insert(0) += 1;
            // cells and candidates of the larger boards are named in full
            if n == 16 {
                assert!(s.explanation.contains('r') && s.explanation.contains("<>"));
            }
        }
    }
    eprintln!("script steps applied per size: {used:?}");
    assert!(
        used.keys().any(|(_, n)| *n == 16) && used.keys().any(|(_, n)| *n != 9 && *n < 16),
        "{used:?}"
    );
}

#[test]
fn a_script_written_once_for_every_size_solves_each() {
    let script = load("tests/fixtures/scripts/sized/hidden-single-any.rhai");
    let singles = lapiz::technique::builtin("naked-single").unwrap();
    let pipeline = Pipeline::from_techniques("any", vec![Box::new(script), singles]).unwrap();
    for p in [
        made(Layout::new(4).unwrap(), 1),
        made(Layout::with_box(6, 3, 2).unwrap(), 1),
        Puzzle::parse(SIXTEEN).unwrap(),
    ] {
        let n = p.layout().n();
        let t = p.solve(&pipeline);
        assert_eq!(t.summary.rejected, 0);
        let first = t
            .steps()
            .find(|s| s.technique == "hidden-single-any-script")
            .expect("a scripted hidden single");
        assert!(
            first.explanation.ends_with(&format!("({n}x{n})")),
            "{}",
            first.explanation
        );
    }
}

#[test]
fn a_nine_by_nine_only_script_is_left_out_on_other_sizes() {
    let path = "tests/fixtures/scripts/sized/nine-only.rhai";
    let script = load(path);
    assert_eq!(script.sizes(), Some(&[9usize][..]));
    assert!(script.runs_on(9) && !script.runs_on(16) && !script.runs_on(6));
    // asked anyway, it says why it does not run there
    let p = Puzzle::parse(SIXTEEN).unwrap();
    let grid = Grid::<S16>::from_value_slice(S16::geometry(p.layout()), p.values());
    let e = script
        .find_sized(Context::new(&grid).sized(), &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("runs on 9x9 boards only"), "{e}");
    // on 9x9 it runs as before
    let nine = Puzzle::parse(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    )
    .unwrap();
    let g9 = Grid::<S9>::from_value_slice(S9::geometry(nine.layout()), nine.values());
    assert!(!steps_of(&script, &Context::new(&g9)).is_empty());
    // a solve of another size leaves it out of its pipeline from the start
    let mut pipeline = Pipeline::default_pipeline();
    pipeline.add_technique(Box::new(load(path))).unwrap();
    let t = p.solve(&pipeline);
    assert!(!t.techniques.iter().any(|id| id == "nine-only-script"));
    assert!(t.entries.iter().all(|e| !matches!(e, Entry::Failed { .. })));
    assert_eq!(t.outcome, Outcome::Solved);
    // and `lapiz techniques --size 16` names it with the reason
    let (ok, out, err) = run_lapiz(&["techniques", "--size", "16", "--technique", path]);
    assert!(ok, "{err}");
    assert!(
        out.lines().any(
            |l| l.starts_with("Left out on 16x16 boards (they run on 9x9 only): ")
                && l.contains("nine-only-script")
        ),
        "{out}"
    );
    let (ok, out, err) = run_lapiz(&["techniques", "--size", "9", "--technique", path]);
    assert!(ok, "{err}");
    assert!(
        out.lines()
            .any(|l| l.split_whitespace().nth(1) == Some("nine-only-script")),
        "{out}"
    );
    assert!(
        !out.contains("Left out on 9x9 boards (they run on 9x9"),
        "{out}"
    );
}

#[test]
fn scripts_declaring_other_sizes_are_listed_with_them() {
    let dir = common::temp_dir("sized-scripts");
    let path = dir.path().join("small.rhai");
    std::fs::write(
        &path,
        "const ID = \"small-script\"; const DIFFICULTY = 1.0; const SIZES = [6, 4];\n\
         fn find(grid) { () }",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(load(path).sizes(), Some(&[4usize, 6][..]));
    let (ok, out, err) = run_lapiz(&["techniques", "--size", "16", "--technique", path]);
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "Left out on 16x16 boards (they run on other sizes only): small-script (4x4, 6x6)"
        ),
        "{out}"
    );
    let (ok, out, err) = run_lapiz(&["techniques", "--size", "6", "--technique", path]);
    assert!(ok, "{err}");
    assert!(!out.contains("small-script ("), "{out}");
}

/// `lapiz technique check` and `bench` with `--file`: puzzles of every size in one file, each
/// searched at every position of its solve, compared with the built-in twin; a script that
/// does not run on a size skips its puzzles, saying why; an unsound step on 16x16 is caught
/// and shown with the position's pencil marks, in the puzzle's symbols.
#[test]
fn technique_check_and_bench_take_puzzles_of_every_size() {
    let dir = common::temp_dir("sized-check");
    let file = dir.path().join("mixed.txt");
    let six = made(Layout::new(6).unwrap(), 3).to_line();
    let nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    std::fs::write(&file, format!("{SIXTEEN}\n{six}\n{nine}\n")).unwrap();
    let file = file.to_str().unwrap();

    let (ok, out, err) = run_lapiz(&["technique", "check", SCRIPTS[3], "--file", file]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("3 passed, 0 failed, 0 skipped"), "{out}");
    let fired = out
        .lines()
        .find_map(|l| l.strip_prefix("fired at "))
        .and_then(|l| l.split_whitespace().next()?.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(fired > 0, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("xy-wing disagrees at 0 of ") && !l.contains("more on")),
        "{out}"
    );

    // a 9x9-only script: the other sizes' lines are skipped, with the reason
    let nine_only = "tests/fixtures/scripts/sized/nine-only.rhai";
    let (ok, out, err) = run_lapiz(&["technique", "check", nine_only, "--file", file]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("line 1: skipped (nine-only-script does not run on 16x16 boards)"),
        "{out}"
    );
    assert!(
        out.contains("line 2: skipped (nine-only-script does not run on 6x6 boards)"),
        "{out}"
    );
    assert!(out.contains("1 passed, 0 failed, 2 skipped"), "{out}");

    // an unsound script on 16x16: the failure names the step in the puzzle's symbols and
    // shows the position as pencil marks `lapiz hint` reads
    let sixteen = dir.path().join("sixteen.txt");
    std::fs::write(&sixteen, format!("{SIXTEEN}\n")).unwrap();
    let sixteen = sixteen.to_str().unwrap();
    let unsound = "tests/fixtures/scripts/unsound.rhai";
    let (ok, out, _) = run_lapiz(&["technique", "check", unsound, "--file", sixteen]);
    assert!(!ok, "{out}");
    let failed = out
        .lines()
        .find(|l| l.starts_with("line 1 FAILED: position 1: unsound step"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(failed.contains("r1c1<>"), "{failed}");
    let grid: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("  grid: "))
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.get(8..).unwrap_or(""))
        .collect();
    assert_eq!(grid.len(), 16 + 3, "{out}");
    let (ok, hint, err) = run_lapiz(&["hint", &grid.join("\n")]);
    assert!(ok, "{hint}\n{err}");

    // bench: the script against its twin over the same positions of every size
    let bench = |more: &[&str]| {
        let mut args = vec![
            "technique",
            "bench",
            SCRIPTS[0],
            "--file",
            file,
            "--rounds",
            "1",
        ];
        args.extend(more);
        run_lapiz(&args)
    };
    let (ok, out, err) = bench(&[]);
    assert!(ok, "{out}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("x-wing-script: ") && last.contains("us per search, x-wing: "),
        "{out}"
    );
    let (ok, out, err) = bench(&["--solve"]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("default pipeline: 3 solved"), "{out}");
    // a 9x9-only script cannot be timed on positions of other sizes
    let (ok, _, err) = run_lapiz(&[
        "technique",
        "bench",
        nine_only,
        "--file",
        file,
        "--native",
        "none",
    ]);
    assert!(!ok);
    assert!(
        err.contains("nine-only-script does not run on 16x16 boards"),
        "{err}"
    );
    // --profile counts operations on 9x9 positions only, and says so
    let (ok, _, err) = run_lapiz(&[
        "technique",
        "bench",
        SCRIPTS[0],
        "--file",
        file,
        "--profile",
    ]);
    assert!(!ok);
    assert!(err.contains("9x9 positions only"), "{err}");
}
