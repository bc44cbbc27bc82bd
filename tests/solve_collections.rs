//! The default pipeline over real puzzle collections: no step is ever rejected, and solved
//! traces end on the solution.

mod common;

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::engine::Outcome;
use lapiz::engine::replay;
use lapiz::text::parse_line;
use rayon::prelude::*;

/// Solves the first `limit` puzzles of `file` and checks every trace; returns how many were
/// solved (`None` when the file is absent).
fn run_collection(file: &str, limit: usize) -> Option<usize> {
    let puzzles = common::puzzles(file, limit)?;
    let pipeline = Pipeline::default_pipeline();
    // Each puzzle on its own (rayon spreads them over the cores); `true` when solved.
    let outcomes: Vec<bool> = puzzles
        .par_iter()
        .enumerate()
        .map(|(i, p)| check_solve(file, i, p, &pipeline))
        .collect();
    let solved = outcomes.iter().filter(|&&s| s).count();
    eprintln!(
        "{file}: {solved} solved, {} stuck of {}",
        puzzles.len() - solved,
        puzzles.len()
    );
    Some(solved)
}

/// Solves one puzzle and checks its trace: no rejected step, a solved trace ends on the
/// solution, a stuck one still holds it among the candidates. Whether it was solved.
fn check_solve(file: &str, i: usize, p: &str, pipeline: &Pipeline) -> bool {
    {
        let grid = parse_line(p).unwrap_or_else(|e| panic!("{file} puzzle {}: {e}", i + 1));
        let trace = Puzzle::from_nine(&grid).solve(pipeline);
        assert_eq!(
            trace.summary.rejected,
            0,
            "{file} puzzle {} ({p}): rejected step in {:#?}",
            i + 1,
            trace.entries
        );
        let end = replay(&grid, &trace);
        let solution = trace.solution.as_deref().expect("unique puzzles");
        match trace.outcome {
            Outcome::Solved => {
                assert_eq!(end.to_line(), solution, "{file} puzzle {}", i + 1);
                true
            }
            Outcome::Stuck { .. } => {
                // the solution is still among the candidates
                for cell in end.empty_cells() {
                    let d = solution.as_bytes()[cell.index()] - b'0';
                    assert!(
                        end.has_candidate(cell, d),
                        "{file} puzzle {}: {cell}",
                        i + 1
                    );
                }
                false
            }
            ref other => panic!("{file} puzzle {}: {other:?}", i + 1),
        }
    }
}

/// The solved count must not fall below `floor` (since forcing chains: every puzzle).
fn at_least(solved: Option<usize>, floor: usize, what: &str) {
    if let Some(n) = solved {
        assert!(n >= floor, "{what}: {n} solved, fewer than {floor}");
    }
}

#[test]
fn first_5000_of_17_clue_without_rejected_steps() {
    at_least(
        run_collection("17-clue.txt", 5000),
        5000,
        "first 5000 of 17-clue",
    );
}

/// Forcing chains finish every puzzle of `top1465` by logic (the default pipeline has no
/// guess).
#[test]
fn all_of_top1465_solved_without_rejected_steps() {
    at_least(run_collection("top1465.txt", usize::MAX), 1465, "top1465");
}

/// Nested forcing chains finish the hardest puzzles by logic: the first 300 here (about half
/// a second each), the first 2,000 in the ignored test below.
#[test]
fn first_300_of_hardest_solved_without_rejected_steps() {
    at_least(
        run_collection("hardest-1905-11plus.txt", 300),
        300,
        "first 300 of hardest-1905-11plus",
    );
}

/// The first 2,000 of the hardest list (about 20 CPU minutes):
/// `cargo test --release --test solve_collections -- --ignored first_2000`.
#[test]
#[ignore = "long: 2,000 puzzles that need nested forcing chains"]
fn first_2000_of_hardest_solved_without_rejected_steps() {
    at_least(
        run_collection("hardest-1905-11plus.txt", 2000),
        2000,
        "first 2000 of hardest-1905-11plus",
    );
}

#[test]
fn first_1000_of_unbiased_without_rejected_steps() {
    at_least(
        run_collection("unbiased-1000.txt", usize::MAX),
        1000,
        "unbiased-1000",
    );
}

/// The whole of the two large collections: `cargo test --release -- --ignored`.
#[test]
#[ignore = "long: every 17-clue and hardest puzzle"]
fn all_17_clue_and_hardest_without_rejected_steps() {
    at_least(run_collection("17-clue.txt", usize::MAX), 49_158, "17-clue");
    at_least(
        run_collection("hardest-1905-11plus.txt", usize::MAX),
        48_766,
        "hardest-1905-11plus",
    );
}
