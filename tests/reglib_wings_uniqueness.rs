//! Wings and uniqueness techniques: every HoDoKu regression-library case of their codes
//! passes, and on real puzzles every step they find is sound.

mod common;

use std::collections::BTreeMap;

use lapiz::Puzzle;
use lapiz::brute;
use lapiz::technique::{Technique, builtin, find_all, find_first};
use lapiz::text::{parse_library_line, parse_line};
use lapiz::tools::run_library;
use lapiz::{Grid, Pipeline};

fn family() -> Vec<Box<dyn Technique>> {
    let mut v = lapiz::technique::family("wings").expect("a family");
    v.extend(lapiz::technique::family("uniqueness").expect("a family"));
    v
}

fn basics_then_family() -> Vec<Box<dyn Technique>> {
    common::reglib::basics_then(family())
}

/// The codes this family answers, with whether the library has cases for them.
const CODES: &[(&str, bool)] = &[
    ("0600", true),
    ("0601", true),
    ("0602", true),
    ("0603", true),
    ("0604", true),
    ("0605", true),
    ("0606", true),
    ("0607", true),
    ("0608", true),
    ("0610", true),
    ("0800", true),
    ("0801", true),
    ("0802", false),
    ("0803", true),
];

#[test]
fn every_wing_and_uniqueness_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let techniques = family();
    let report = run_library(&text, &techniques);
    let messages = common::reglib::failures(&report);
    common::reglib::print_codes(&report, |code, _| {
        CODES.iter().any(|(c, _)| code.starts_with(c))
    });
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    for (code, has_cases) in CODES {
        if !has_cases {
            continue;
        }
        let t = common::reglib::of_code(&report, code);
        assert_eq!(t.skipped, 0, "{code} cases skipped");
        let passed = t.passed;
        assert!(passed > 0, "no case of {code} passed");
    }
}

/// Checks every step of every family technique on `grid` against `solution`.
fn all_steps_sound(grid: &Grid, solution: &[u8; 81], techniques: &[Box<dyn Technique>]) -> usize {
    let mut n = 0;
    for t in techniques {
        for step in find_all(t.as_ref(), grid).expect("search") {
            assert!(
                step.contradiction(solution).is_none(),
                "unsound {} step on {}: {}",
                t.id(),
                lapiz::text::format_grid_library_line(grid),
                step.explanation
            );
            assert!(!step.is_empty(), "empty step: {}", step.explanation);
            n += 1;
        }
    }
    n
}

/// Solves the first puzzles of a collection with the basics and this family, checking at
/// every state that all steps the family finds are sound (not only the applied one).
fn sound_over(file: &str, limit: usize) -> BTreeMap<String, usize> {
    let mut applied: BTreeMap<String, usize> = BTreeMap::new();
    let Some(puzzles) = common::puzzles(file, limit) else {
        return applied;
    };
    let techniques = basics_then_family();
    let fam = family();
    for (i, p) in puzzles.iter().enumerate() {
        let mut grid = parse_line(p).expect("puzzle");
        let solution = brute::solve(grid.values()).expect("solvable");
        for _ in 0..500 {
            all_steps_sound(&grid, &solution, &fam);
            let step = techniques
                .iter()
                .find_map(|t| find_first(t.as_ref(), &grid).expect("search"));
            let Some(step) = step else { break };
            assert!(
                step.contradiction(&solution).is_none(),
                "{file} puzzle {}: {}",
                i + 1,
                step.explanation
            );
            *applied.entry(step.technique.clone()).or_default() += 1;
            step.apply(&mut grid);
            if grid.is_solved() {
                break;
            }
        }
    }
    applied
}

#[test]
fn sound_on_top1465() {
    let applied = sound_over("top1465.txt", 300);
    if applied.is_empty() {
        return;
    }
    eprintln!("{applied:#?}");
    for id in ["xy-wing", "xyz-wing", "w-wing", "unique-rectangle-1"] {
        assert!(
            applied.get(id).copied().unwrap_or(0) >= 3,
            "{id} applied fewer than 3 times: {applied:?}"
        );
    }
}

#[test]
fn pipeline_never_rejects_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 300) else {
        return;
    };
    let pipeline =
        Pipeline::from_techniques("wings-uniqueness", basics_then_family()).expect("unique ids");
    for (i, p) in puzzles.iter().enumerate() {
        let grid = parse_line(p).expect("puzzle");
        let trace = Puzzle::from_nine(&grid).solve(&pipeline);
        assert_eq!(trace.summary.rejected, 0, "puzzle {}: {p}", i + 1);
    }
}

/// A hand-made WXYZ-Wing (bent set): r1c1 {1,2,3}, r1c2 {1,4}, r2c3 {2,4}, r1c7 {3,4}.
/// 1 (r1c1, r1c2: row 1), 2 (r1c1, r2c3: box 1) and 3 (r1c1, r1c7: row 1) are restricted;
/// 4 is not (r2c3 and r1c7 do not see each other). So 4 is in r1c2, r2c3 or r1c7, and leaves
/// r1c3, the only cell seeing all three. The other cells keep all nine candidates.
#[test]
fn wxyz_wing_hand_made() {
    let mut grid = Grid::empty();
    let set = |g: &mut Grid, r: u8, c: u8, ds: &[u8]| {
        let m = ds.iter().fold(0u16, |m, d| m | 1 << (d - 1));
        g.set_candidates(lapiz::Cell::at(r, c), m);
    };
    set(&mut grid, 0, 0, &[1, 2, 3]);
    set(&mut grid, 0, 1, &[1, 4]);
    set(&mut grid, 1, 2, &[2, 4]);
    set(&mut grid, 0, 6, &[3, 4]);
    let steps =
        find_all(builtin("wxyz-wing").expect("a built-in").as_ref(), &grid).expect("search");
    let expected = lapiz::Candidate::new(lapiz::Cell::at(0, 2), 4);
    assert!(
        steps
            .iter()
            .any(|s| s.eliminations.contains(&expected) && s.eliminations.len() == 1),
        "{:#?}",
        steps.iter().map(|s| &s.explanation).collect::<Vec<_>>()
    );
}

/// HoDoKu's fail case for the hidden rectangle: nothing may be found. (A finder that takes a
/// digit already solved in a line for a "strong link" there finds four unsound steps here.)
#[test]
fn hidden_rectangle_fail_case_finds_nothing() {
    let line = ":0606-x:34:.51.+8..4+2....2.3...........3..8.+29.....5.4......1.+9+4.....7+5+6+214.6.+29....2........:432 732 832 932 433 633 733 833 933 334 335 635 735 336 881 383 883 392 492 892 992 393 493 893 993 395:435::";
    let case = parse_library_line(line).expect("line");
    let hr = lapiz::technique::family("uniqueness")
        .expect("a family")
        .into_iter()
        .find(|t| t.id() == "hidden-rectangle")
        .expect("hidden rectangle");
    let steps = find_all(hr.as_ref(), &case.grid).expect("search");
    assert!(steps.is_empty(), "{steps:#?}");
}
