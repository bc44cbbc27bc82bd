//! The generator for every shape: a random solved board ([`brute::random_solution`]), then
//! clues taken away in random order, in the symmetry's groups, while one solution remains.
//!
//! One pass makes the puzzle minimal: a group whose removal gave several solutions still does
//! once fewer clues are left, so it never needs a second look.

use rand::Rng;

use crate::generate::{Clues, Symmetry, remove_clue_groups};

use super::{Geometry, Shape, brute};

/// Guesses per cell of the board that the uniqueness questions of one removal may take in
/// all on the first solved board (see [`generate`]).
const EFFORT_PER_CELL: u64 = 100;

/// Guesses per cell of the board that one uniqueness question may take on the first solved
/// board (see [`generate`]).
const QUESTION_EFFORT_PER_CELL: u64 = 6;

/// What the uniqueness questions of one removal may take, in guesses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    /// All of them together.
    pub all: u64,
    /// Any one of them.
    pub each: u64,
}

/// Clues taken from `solution` (see the module's doc): `None` when `clues` asks for a count
/// this removal did not reach, or when its uniqueness questions took more guesses than
/// `effort` allows (a question is stopped as soon as it has). Uniqueness is asked of
/// [`brute::has_another`]: the removed clues' values are the known solution's.
pub(crate) fn remove_clues<S: Shape>(
    geo: &'static Geometry<S>,
    solution: &[u8],
    symmetry: Symmetry,
    clues: Clues,
    effort: Effort,
    rng: &mut impl Rng,
) -> Option<Vec<u8>> {
    let mut puzzle = solution.to_vec();
    let groups = symmetry.groups_of_size(S::N);
    let mut spent = 0;
    let reached = remove_clue_groups(&mut puzzle, groups, clues, rng, |p, group, values| {
        let before = spent;
        let cap = effort.each.min(effort.all - before);
        let another = brute::has_another(geo, p, group, values, solution, &mut spent, cap);
        (spent - before <= cap).then_some(!another)
    });
    reached.then_some(puzzle)
}

/// A puzzle, its solution and how many solved boards it took: solved boards and removals
/// until one meets `clues`, at most `attempts` of them.
///
/// Some solved boards (and orders of removal) make every uniqueness question near the end
/// slow: at 25x25, three of the first twelve seeds took 2-15 times the median's guesses. So a removal
/// whose questions take more than [`EFFORT_PER_CELL`] guesses per cell in all, or one of
/// them more than [`QUESTION_EFFORT_PER_CELL`] (a few questions far slower than the rest
/// mark such a board early), is given up for a new board, and each later board may take twice
/// the one before: the effort thrown away is less than the allowance of the board kept.
/// Guesses, not time, so a seed gives the same puzzle on every machine; the puzzles lean
/// slightly to the ones whose uniqueness is quicker to prove.
pub(crate) fn generate<S: Shape>(
    geo: &'static Geometry<S>,
    symmetry: Symmetry,
    clues: Clues,
    attempts: u32,
    rng: &mut impl Rng,
) -> Option<(Vec<u8>, Vec<u8>, u32)> {
    let mut effort = Effort {
        all: EFFORT_PER_CELL * S::CELLS as u64,
        each: QUESTION_EFFORT_PER_CELL * S::CELLS as u64,
    };
    for attempt in 1..=attempts {
        let Some(solution) = brute::random_solution(geo, rng) else {
            continue;
        };
        let removed = remove_clues(geo, &solution, symmetry, clues, effort, rng);
        effort = Effort {
            all: effort.all.saturating_mul(2),
            each: effort.each.saturating_mul(2),
        };
        if let Some(puzzle) = removed {
            return Some((puzzle, solution, attempt));
        }
    }
    None
}

/// Whether no clue group of `symmetry` can leave `puzzle` with one solution kept.
pub(crate) fn is_minimal<S: Shape>(
    geo: &'static Geometry<S>,
    puzzle: &[u8],
    symmetry: Symmetry,
) -> bool {
    symmetry.groups_of_size(S::N).iter().all(|g| {
        if g.iter().all(|&c| puzzle[c] == 0) {
            return true;
        }
        let mut p = puzzle.to_vec();
        for &c in g {
            p[c] = 0;
        }
        brute::count(geo, &p, 2).solutions != 1
    })
}
