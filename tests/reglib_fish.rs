//! The fish family: every HoDoKu regression-library case of its codes passes, and a pipeline
//! of the basic techniques plus the fish never has a step rejected.

mod common;

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use lapiz::Pipeline;
use lapiz::engine::{replay, solve_grid};
use lapiz::parse::parse_line;
use lapiz::reglib::run_library;
use lapiz::solver::solve;
use lapiz::technique::{Technique, fish};

#[test]
fn every_fish_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let techniques = fish::techniques();
    let report = run_library(&text, &techniques);
    let messages = common::reglib::failures(&report);
    common::reglib::print_codes(&report, common::reglib::ran);
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    // every code with cases in the library had them run and pass
    let ours: Vec<String> = techniques.iter().flat_map(|t| t.library_codes()).collect();
    let mut with_cases = 0;
    for code in &ours {
        let t = common::reglib::of_code(&report, code);
        assert_eq!(t.skipped, 0, "{code} cases skipped");
        let passed = t.passed;
        let in_library = text.lines().any(|l| l.starts_with(&format!(":{code}:")));
        if in_library {
            assert!(passed > 0, "no case of {code} passed");
            with_cases += 1;
        }
    }
    assert!(with_cases >= 20, "only {with_cases} fish codes have cases");
}

fn pipeline(fish: Vec<Box<dyn Technique>>) -> Pipeline {
    common::reglib::basics_then_pipeline("basics+fish", fish)
}

fn run_sound(fish: Vec<Box<dyn Technique>>, limit: usize) -> BTreeMap<String, usize> {
    let ids: Vec<String> = fish.iter().map(|t| t.id().to_string()).collect();
    let pipeline = pipeline(fish);
    let mut fired: BTreeMap<String, usize> = BTreeMap::new();
    let Some(puzzles) = common::puzzles("top1465.txt", limit) else {
        return fired;
    };
    for (i, p) in puzzles.iter().enumerate() {
        let grid = parse_line(p).unwrap_or_else(|e| panic!("puzzle {}: {e}", i + 1));
        let trace = solve_grid(&grid, &pipeline);
        assert_eq!(
            trace.summary.rejected,
            0,
            "top1465 puzzle {} ({p}): rejected step in {:#?}",
            i + 1,
            trace.entries
        );
        for s in trace.steps() {
            if ids.contains(&s.technique) {
                *fired.entry(s.technique.clone()).or_default() += 1;
            }
        }
    }
    eprintln!("fish steps: {fired:?}");
    fired
}

#[test]
fn basic_finned_and_sashimi_fish_are_sound_on_top1465() {
    let fish: Vec<Box<dyn Technique>> = fish::techniques()
        .into_iter()
        .filter(|t| !t.id().contains("franken") && !t.id().contains("mutant"))
        .collect();
    let fired = run_sound(fish, 300);
    if fired.is_empty() && common::puzzles("top1465.txt", 1).is_none() {
        return;
    }
    let total: usize = fired.values().sum();
    assert!(total >= 10, "fish fired only {total} times: {fired:?}");
    assert!(fired.contains_key("x-wing"), "{fired:?}");
    assert!(fired.contains_key("swordfish"), "{fired:?}");
    assert!(fired.keys().any(|k| k.starts_with("finned-")), "{fired:?}");
}

fn sound_without_basic_fish(kind: &str) {
    // Without the basic fish in front, so that these get to fire; the finned mutant
    // squirmbag (the slowest) is left out.
    let fish: Vec<Box<dyn Technique>> = fish::techniques()
        .into_iter()
        .filter(|t| t.id().contains(kind) && !t.id().contains("squirmbag"))
        .collect();
    let fired = run_sound(fish, 30);
    if fired.is_empty() && common::puzzles("top1465.txt", 1).is_none() {
        return;
    }
    assert!(fired.values().sum::<usize>() >= 5, "{fired:?}");
}

#[test]
fn franken_fish_are_sound_on_top1465() {
    sound_without_basic_fish("franken");
}

#[test]
fn mutant_fish_are_sound_on_top1465() {
    sound_without_basic_fish("mutant");
}

#[test]
fn every_fish_found_on_hard_grids_is_sound() {
    // Every fish the generic finder sees, of every shape and size up to 4, with and without
    // fins, on the grids where the basic techniques get stuck, agrees with the solution.
    let Some(puzzles) = common::puzzles("top1465.txt", 40) else {
        return;
    };
    let pipeline = pipeline(Vec::new());
    let mut count = 0usize;
    for (i, p) in puzzles.iter().enumerate() {
        let grid = parse_line(p).unwrap_or_else(|e| panic!("puzzle {}: {e}", i + 1));
        let trace = solve_grid(&grid, &pipeline);
        let stuck = replay(&grid, &trace);
        let solution = solve(stuck.values()).expect("a solution");
        for size in 2..=4 {
            for digit in 1..=9u8 {
                let _ = fish::find_fish(&stuck, digit, size, fish::Shape::Mutant, true, &mut |f| {
                    count += 1;
                    for c in f.eliminations {
                        assert_ne!(
                            solution[c.index()],
                            digit,
                            "puzzle {} ({p}): unsound {f:?}",
                            i + 1
                        );
                    }
                    ControlFlow::Continue(())
                });
            }
        }
    }
    eprintln!("{count} fish checked");
    assert!(count > 1000, "only {count} fish");
}
