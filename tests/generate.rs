//! The generator: every puzzle has one solution, is minimal (or has the clues asked), keeps
//! the symmetry asked, meets the rating target, and the same seed gives the same puzzles on
//! any number of threads.

mod common;

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::brute::{count_solutions, solve};
use lapiz::engine::Level;
use lapiz::model::{Alphabet, Layout};
use lapiz::puzzle::generate::{Clues, GenerateError, GenerateOptions, Symmetry};
use rayon::prelude::*;

/// A 9x9 puzzle of the front door, as arrays.
struct Made {
    puzzle: [u8; 81],
    solution: [u8; 81],
    rating: Option<lapiz::engine::Rating>,
    line: String,
}

impl Made {
    fn line(&self) -> String {
        self.line.clone()
    }
}

/// Puzzle `index` of `seed` on 9x9 with `o`, rated with `p`.
fn generate(
    o: &GenerateOptions,
    p: &Pipeline,
    seed: u64,
    index: u64,
) -> Result<Made, GenerateError> {
    let made = Puzzle::generate(Layout::NINE, Alphabet::Standard, o, p, seed, index)?;
    let array = |p: &Puzzle| <[u8; 81]>::try_from(p.values()).expect("81 cells");
    Ok(Made {
        puzzle: array(&made.puzzle),
        solution: array(&made.solution),
        rating: made.rating,
        line: made.puzzle.to_line(),
    })
}

/// Whether the 9x9 `puzzle` is minimal for `symmetry`, asked of the front door.
fn is_minimal(puzzle: &[u8; 81], symmetry: Symmetry) -> bool {
    let line: String = puzzle.iter().map(|&v| char::from(b'0' + v)).collect();
    Puzzle::read(&line, None, None)
        .unwrap()
        .is_minimal(symmetry)
}

fn clues(p: &[u8; 81]) -> usize {
    p.iter().filter(|&&v| v != 0).count()
}

fn check_proper(g: &Made) {
    assert_eq!(count_solutions(&g.puzzle, 2), 1, "{}", g.line());
    assert_eq!(solve(&g.puzzle), Some(g.solution), "{}", g.line());
    for i in 0..81 {
        assert!(g.puzzle[i] == 0 || g.puzzle[i] == g.solution[i]);
    }
}

#[test]
fn default_puzzles_are_unique_and_minimal() {
    let p = Pipeline::default_pipeline();
    let o = GenerateOptions::default();
    for i in 0..6 {
        let g = generate(&o, &p, 2024, i).unwrap();
        check_proper(&g);
        assert!(is_minimal(&g.puzzle, Symmetry::None), "{}", g.line());
        assert!(clues(&g.puzzle) >= 17 && clues(&g.puzzle) < 40);
        assert_eq!(g.rating, None);
    }
}

#[test]
fn symmetric_puzzles_keep_their_symmetry_and_are_minimal_for_it() {
    let p = Pipeline::default_pipeline();
    for (k, s) in Symmetry::ALL.into_iter().enumerate() {
        let o = GenerateOptions {
            symmetry: s,
            ..Default::default()
        };
        let g = generate(&o, &p, 99, k as u64).unwrap();
        check_proper(&g);
        assert!(s.holds_for(&g.puzzle), "{s}: {}", g.line());
        assert!(is_minimal(&g.puzzle, s), "{s}: {}", g.line());
    }
}

#[test]
fn symmetry_check_can_fail() {
    // A single clue in a corner has no half-turn symmetry.
    let mut p = [0u8; 81];
    p[0] = 5;
    assert!(!Symmetry::Rot180.holds_for(&p));
    assert!(Symmetry::None.holds_for(&p));
    p[80] = 3;
    assert!(Symmetry::Rot180.holds_for(&p));
    assert!(!Symmetry::Horizontal.holds_for(&p));
}

#[test]
fn clue_counts_are_met() {
    let p = Pipeline::default_pipeline();
    let o = GenerateOptions {
        clues: Clues::Exactly(30),
        ..Default::default()
    };
    let g = generate(&o, &p, 5, 0).unwrap();
    check_proper(&g);
    assert_eq!(clues(&g.puzzle), 30);
    let o = GenerateOptions {
        clues: Clues::AtMost(27),
        symmetry: Symmetry::Rot180,
        ..Default::default()
    };
    let g = generate(&o, &p, 5, 1).unwrap();
    check_proper(&g);
    assert!(clues(&g.puzzle) <= 27 && clues(&g.puzzle) >= 26);
    assert!(Symmetry::Rot180.holds_for(&g.puzzle));
}

#[test]
fn rating_targets_are_met() {
    let p = Pipeline::default_pipeline();
    let o = GenerateOptions {
        rating: Some((2.6, 3.4)),
        ..Default::default()
    };
    for i in 0..3 {
        let g = generate(&o, &p, 11, i).unwrap();
        check_proper(&g);
        let r = g.rating.expect("rated");
        let h = r.hardest.unwrap();
        assert!(r.is_solved() && (2.6..=3.4).contains(&h), "{h}");
        assert_eq!(r.level, Level::Medium);
    }
    // beyond a pipeline: the default one finishes every puzzle with its forcing chains, so
    // beyond the pipeline without them
    let no_forcing = common::pipeline_without_forcing();
    for (level, p) in [
        (Level::Easy, &p),
        (Level::Hard, &p),
        (Level::Beyond, &no_forcing),
    ] {
        let o = GenerateOptions {
            level: Some(level),
            ..Default::default()
        };
        let g = generate(&o, p, 12, 0).unwrap();
        check_proper(&g);
        assert_eq!(g.rating.unwrap().level, level);
    }
}

#[test]
fn required_techniques_are_used() {
    let p = Pipeline::default_pipeline();
    let o = GenerateOptions {
        requires: vec!["x-wing".into()],
        ..Default::default()
    };
    let g = generate(&o, &p, 3, 0).unwrap();
    check_proper(&g);
    assert!(g.rating.unwrap().count_of("x-wing") > 0);
    // And the trace of the puzzle really applies an X-Wing.
    let t = Puzzle::from_nine(&lapiz::Grid::from_values(&g.puzzle)).solve(&p);
    assert!(t.steps().any(|s| s.technique == "x-wing"));
}

#[test]
fn same_seed_same_puzzles_on_any_thread_count() {
    let p = Pipeline::default_pipeline();
    let o = GenerateOptions {
        rate: true,
        ..Default::default()
    };
    let sequential: Vec<String> = (0..8)
        .map(|i| generate(&o, &p, 77, i).unwrap().line())
        .collect();
    let parallel: Vec<String> = (0..8u64)
        .into_par_iter()
        .map(|i| generate(&o, &p, 77, i).unwrap().line())
        .collect();
    assert_eq!(sequential, parallel);
    let other: Vec<String> = (0..8)
        .map(|i| generate(&o, &p, 78, i).unwrap().line())
        .collect();
    assert_ne!(sequential, other);
    // All different puzzles.
    let mut dedup = sequential.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), 8);
}

#[test]
fn reproducible_across_platforms() {
    // ChaCha8 output is fixed by its specification: the first puzzle of seed 1 is fixed too.
    // (If this changes, generated sets published with a seed no longer reproduce.)
    let p = Pipeline::default_pipeline();
    let g = generate(&GenerateOptions::default(), &p, 1, 0).unwrap();
    assert_eq!(g.line(), FIRST_OF_SEED_1);
}

const FIRST_OF_SEED_1: &str =
    "4.....57867......3.....8.....1.6..9...2..9.....7.8.2.....59...7.1.....6...3..7...";
