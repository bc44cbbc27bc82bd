//! The fish family: every HoDoKu regression-library case of its codes passes, and a pipeline
//! of the basic techniques plus the fish never has a step rejected.

mod common;

use std::collections::BTreeMap;

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::brute::solve;
use lapiz::engine::replay;
use lapiz::technique::{Technique, family, find_all};
use lapiz::text::parse_line;
use lapiz::tools::run_library;

#[test]
fn every_fish_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let techniques = family("fish").expect("a family");
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
        let trace = Puzzle::from_nine(&grid).solve(&pipeline);
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
    let fish: Vec<Box<dyn Technique>> = family("fish")
        .expect("a family")
        .into_iter()
        .filter(|t| !t.id().contains("franken") && !t.id().contains("mutant") && !is_big(t.id()))
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

/// Whether a fish technique has five to seven houses (squirmbag, whale, leviathan).
fn is_big(id: &str) -> bool {
    BIG.iter().any(|b| id.ends_with(b))
}

/// The names of the fish of five, six and seven houses.
const BIG: [&str; 3] = ["squirmbag", "whale", "leviathan"];

fn sound_without_basic_fish(kind: &str) {
    // Without the basic fish in front, so that these get to fire; the fish of five houses
    // and more (the slowest) are left out.
    let fish: Vec<Box<dyn Technique>> = family("fish")
        .expect("a family")
        .into_iter()
        .filter(|t| t.id().contains(kind) && !is_big(t.id()))
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

/// The positions where the basic techniques get stuck, on the first `limit` puzzles of
/// top1465, with each puzzle's solution.
fn stuck_positions(limit: usize) -> Vec<(String, lapiz::Grid, Vec<u8>)> {
    let Some(puzzles) = common::puzzles("top1465.txt", limit) else {
        return Vec::new();
    };
    let pipeline = pipeline(Vec::new());
    puzzles
        .iter()
        .map(|p| {
            let grid = parse_line(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            let stuck = replay(&grid, &Puzzle::from_nine(&grid).solve(&pipeline));
            let solution = solve(stuck.values()).expect("a solution");
            (p.clone(), stuck, solution.to_vec())
        })
        .filter(|(_, g, _)| !g.is_solved())
        .collect()
}

/// Every step each of `techniques` finds at each position, checked against the solution
/// (no elimination of the solution's digit); the steps counted by technique id.
fn sound_steps(
    positions: &[(String, lapiz::Grid, Vec<u8>)],
    techniques: &[Box<dyn Technique>],
) -> BTreeMap<String, usize> {
    let mut fired: BTreeMap<String, usize> = BTreeMap::new();
    for (p, stuck, solution) in positions {
        for t in techniques {
            for step in find_all(t.as_ref(), stuck).expect("no error") {
                for e in &step.eliminations {
                    assert_ne!(
                        solution[e.cell.index()],
                        e.digit,
                        "{p}: unsound {}",
                        step.explanation
                    );
                }
                *fired.entry(t.id().to_string()).or_default() += 1;
            }
        }
    }
    fired
}

#[test]
fn every_step_of_the_fish_of_two_to_four_houses_is_sound() {
    // Every step of every fish technique of two to four houses (every shape, with and without
    // fins, siamese pairs included), on the grids where the basic techniques get stuck on the
    // first 100 puzzles of top1465, agrees with the solution.
    let positions = stuck_positions(100);
    if positions.is_empty() {
        return;
    }
    let small: Vec<Box<dyn Technique>> = family("fish")
        .expect("a family")
        .into_iter()
        .filter(|t| !is_big(t.id()))
        .collect();
    assert_eq!(small.len(), 21);
    let count: usize = sound_steps(&positions, &small).values().sum();
    eprintln!("{count} fish steps checked on {} grids", positions.len());
    assert!(count > 500, "only {count} fish steps");
}

#[test]
fn every_step_of_the_fish_of_five_to_seven_houses_is_sound() {
    // Every step of every big-fish technique (siamese pairs included) on the positions where
    // the basic techniques are stuck: its eliminations agree with the solution.
    let positions = stuck_positions(25);
    if positions.is_empty() {
        return;
    }
    let big: Vec<Box<dyn Technique>> = family("fish")
        .expect("a family")
        .into_iter()
        .filter(|t| is_big(t.id()))
        .collect();
    assert_eq!(big.len(), 21);
    let fired = sound_steps(&positions, &big);
    eprintln!("big-fish steps on {} grids: {fired:?}", positions.len());
    for size in BIG {
        let n: usize = fired
            .iter()
            .filter(|(id, _)| id.ends_with(size))
            .map(|(_, n)| n)
            .sum();
        assert!(n >= 5, "only {n} {size} steps: {fired:?}");
    }
}
