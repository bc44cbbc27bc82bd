//! The generator for every shape: a random solved board ([`brute::random_solution`]), then
//! clues taken away in random order, in the symmetry's groups, while one solution remains.
//!
//! One pass makes the puzzle minimal: a group whose removal gave several solutions still does
//! once fewer clues are left, so it never needs a second look.

use rand::Rng;

use crate::puzzle::generate::{Clues, Symmetry, remove_clue_groups};

use crate::brute::sized as brute;
use crate::model::{Geometry, Shape};

/// Guesses per cell of the board that the uniqueness questions of one removal may take in
/// all on the first solved board, by its last question (see [`Effort`]).
const EFFORT_PER_CELL: u64 = 160;

/// Guesses per cell of the board that the first questions of a removal may take in all on the
/// first solved board, before [`EFFORT_PER_CELL`]'s curve passes it (see [`Effort`]).
const FLOOR_PER_CELL: u64 = 16;

/// The power of the share of questions asked that [`Effort`]'s curve rises with.
const CURVE_POWER: u32 = 4;

/// What the uniqueness questions of one removal may take, in guesses, as the removal goes on.
///
/// A removal's questions get harder as clues go, and most of its guesses are spent in its last
/// third; a board whose questions are slow is slow all along that third. So the allowance
/// follows that curve: once `asked` of `groups` questions are answered, they may have taken
/// `all * (asked / groups)^CURVE_POWER` guesses in all, or `floor` if more. A board past the curve is
/// given up early, before it has cost what a good board costs in all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    /// What all the questions may take.
    pub all: u64,
    /// What the first questions may take, however few have been asked.
    pub floor: u64,
}

impl Effort {
    /// The allowance for a board of shape `S` met first.
    fn first<S: Shape>() -> Effort {
        Effort {
            all: EFFORT_PER_CELL * S::CELLS as u64,
            floor: FLOOR_PER_CELL * S::CELLS as u64,
        }
    }

    /// The allowance for the next board: twice this one.
    fn doubled(self) -> Effort {
        Effort {
            all: self.all.saturating_mul(2),
            floor: self.floor.saturating_mul(2),
        }
    }

    /// What the questions may have taken in all once `asked` of `groups` are answered.
    fn allowed(self, asked: usize, groups: usize) -> u64 {
        let share = |x: usize| (x as u128).pow(CURVE_POWER);
        let curve = self.all as u128 * share(asked.min(groups)) / share(groups.max(1));
        (curve as u64).max(self.floor)
    }
}

/// Clues taken from `solution` (see the module's doc): `None` when `clues` asks for a count
/// this removal did not reach, or when its uniqueness questions took more guesses than
/// `effort` allows at that point (a question is stopped as soon as the allowance is spent).
/// Uniqueness is asked of [`brute::has_another`]: the removed clues' values are the known
/// solution's.
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
    let total = groups.len();
    let (mut spent, mut asked) = (0, 0);
    let reached = remove_clue_groups(&mut puzzle, groups, clues, rng, |p, group, values| {
        if crate::model::stop::reached().is_some() {
            return None;
        }
        asked += 1;
        let before = spent;
        let cap = effort.allowed(asked, total).saturating_sub(before);
        let another = brute::has_another(geo, p, group, values, solution, &mut spent, cap);
        (spent - before <= cap).then_some(!another)
    });
    reached.then_some(puzzle)
}

/// A puzzle, its solution and how many solved boards it took: solved boards and removals
/// until one meets `clues`, at most `attempts` of them.
///
/// Some solved boards (and orders of removal) make every uniqueness question near the end
/// slow: at 25x25, about one board in seven takes more than five times the median's guesses.
/// So a removal whose questions take more than [`Effort`] allows by then is given up for a new
/// board, and each later board may take twice the one before: the effort thrown away is less
/// than the allowance of the board kept. Guesses, not time, so a seed gives the same puzzle on
/// every machine; the puzzles lean slightly to the ones whose uniqueness is quicker to prove.
pub(crate) fn generate<S: Shape>(
    geo: &'static Geometry<S>,
    symmetry: Symmetry,
    clues: Clues,
    attempts: u32,
    rng: &mut impl Rng,
) -> Option<(Vec<u8>, Vec<u8>, u32)> {
    let mut effort = Effort::first::<S>();
    for attempt in 1..=attempts {
        if crate::model::stop::reached().is_some() {
            return None;
        }
        let Some(solution) = brute::random_solution(geo, rng) else {
            continue;
        };
        let removed = remove_clues(geo, &solution, symmetry, clues, effort, rng);
        effort = effort.doubled();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Layout, S16};
    use rand::SeedableRng;

    /// The allowance is the floor at first, rises with the fourth power of the share asked,
    /// never falls, reaches `all` at the last question, and doubles from board to board.
    #[test]
    fn the_allowance_follows_its_curve_from_the_floor() {
        let e = Effort::first::<S16>();
        assert_eq!(e.all, 160 * 256);
        assert_eq!(e.floor, 16 * 256);
        assert_eq!(e.allowed(1, 256), e.floor);
        assert_eq!(e.allowed(128, 256), e.floor.max(e.all / 16));
        assert_eq!(e.allowed(192, 256), e.all * 81 / 256);
        assert_eq!(e.allowed(256, 256), e.all);
        assert_eq!(
            e.allowed(300, 256),
            e.all,
            "past the last group: the whole allowance"
        );
        let curve: Vec<u64> = (0..=256).map(|a| e.allowed(a, 256)).collect();
        assert!(curve.windows(2).all(|w| w[0] <= w[1]));
        let next = e.doubled();
        assert_eq!((next.all, next.floor), (2 * e.all, 2 * e.floor));
        let huge = Effort {
            all: u64::MAX,
            floor: u64::MAX,
        };
        assert_eq!(huge.doubled().allowed(256, 256), u64::MAX);
    }

    /// A removal given too little to answer its questions is given up (`None`), and the same
    /// removal with the first board's allowance makes a unique minimal puzzle.
    #[test]
    fn a_removal_past_its_allowance_is_given_up() {
        let geo = S16::geometry(Layout::new(16).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let solution = brute::random_solution(geo, &mut rng).unwrap();
        let starved = Effort { all: 0, floor: 0 };
        let mut same = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let given_up = remove_clues(
            geo,
            &solution,
            Symmetry::None,
            Clues::Minimal,
            starved,
            &mut same,
        );
        assert!(given_up.is_none());
        let mut same = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let effort = Effort::first::<S16>();
        let puzzle = remove_clues(
            geo,
            &solution,
            Symmetry::None,
            Clues::Minimal,
            effort,
            &mut same,
        )
        .expect("the first board's allowance is enough here");
        assert_eq!(brute::count(geo, &puzzle, 2).solutions, 1);
        assert!(is_minimal(geo, &puzzle, Symmetry::None));
    }
}
