//! The brute-force solver for every shape: singles propagated on a [`Board`], then a guess on
//! the cell with the fewest candidates (or the digit with the fewest places in a house, when
//! that is fewer), or, looking ahead, on the best binary choice ([`Board::look_ahead`]), depth
//! first, a copy of the board per guess.
//!
//! 9x9 has its own tuned solver ([`crate::brute::nine`]); this one is the same search for every
//! size, and the tests check it against that one on 9x9.

use rand::Rng;
use rand::seq::SliceRandom;

use super::board::{Board, Choice, LookAhead, Pending};
use crate::model::{Bits, Geometry, Shape};

/// What to do with each solution found.
struct Search<'r, S: Shape, R: Rng> {
    /// Stop at this many solutions.
    limit: u32,
    /// Solutions found so far.
    found: u32,
    /// The first solution's values.
    first: Option<Vec<u8>>,
    /// Guesses made (a measure of the work).
    guesses: u64,
    /// Stop after this many guesses (`u64::MAX`: never).
    guess_limit: u64,
    /// Digits in random order at each guess, when given.
    rng: Option<&'r mut R>,
    /// Whether to look ahead at each guess ([`Board::look_ahead`]): far fewer guesses on hard
    /// puzzles; not worth it when any solution will do (a random solved board).
    look_ahead: bool,
    /// A solution to stay near, when given: at each guess its value is tried first.
    prefer: Option<&'r [u8]>,
    pending: Vec<Pending>,
    /// The look-ahead's record of trials, kept from guess to guess to save an allocation.
    scratch: LookAhead,
    _shape: std::marker::PhantomData<S>,
}

impl<'r, S: Shape, R: Rng> Search<'r, S, R> {
    /// A search that stops at `limit` solutions or after `guess_limit` guesses.
    fn new(
        limit: u32,
        guess_limit: u64,
        look_ahead: bool,
        rng: Option<&'r mut R>,
        pending: Vec<Pending>,
    ) -> Self {
        Search {
            limit,
            found: 0,
            first: None,
            guesses: 0,
            guess_limit,
            rng,
            look_ahead,
            prefer: None,
            pending,
            scratch: LookAhead::default(),
            _shape: std::marker::PhantomData,
        }
    }

    /// [`Search::run`] one guess deeper, on a new stack segment when this one runs low (a
    /// board of 25x25 takes 11 KB of it per guess).
    fn descend(&mut self, board: Board<S>) {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.run(board));
    }

    fn run(&mut self, mut board: Board<S>) {
        if !board.propagate(&mut self.pending) {
            return;
        }
        let ahead = if self.look_ahead && board.empty_count() > 0 {
            match board.look_ahead(&mut self.pending, &mut self.scratch) {
                None => return,
                Some(best) => best,
            }
        } else {
            None
        };
        if board.empty_count() == 0 {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(board.values().to_vec());
            }
            return;
        }
        if self.guesses >= self.guess_limit {
            return;
        }
        self.guesses += 1;
        let choice = ahead.unwrap_or_else(|| Self::split(&board));
        let mut all = S::per_digit((0usize, 0u8));
        let len = board.options(choice, all.as_mut());
        let options = &mut all.as_mut()[..len];
        if let Some(rng) = self.rng.as_deref_mut() {
            options.shuffle(rng);
        }
        if let Some(prefer) = self.prefer
            && let Some(i) = options.iter().position(|&(c, d)| prefer[c] == d)
        {
            options[..=i].rotate_right(1);
        }
        for &(cell, d) in options.iter() {
            let mut next = board;
            if next.place(cell, d, &mut self.pending) {
                self.descend(next);
            } else {
                self.pending.clear();
            }
            if self.found >= self.limit {
                return;
            }
        }
    }

    /// The guess with the fewest branches: the empty cell with the fewest candidates, unless a
    /// house has a digit with fewer places.
    fn split(board: &Board<S>) -> Choice {
        let mut best = (u32::MAX, Choice::Cell(0));
        for cell in 0..S::CELLS {
            let k = board.candidates(cell).count();
            if k >= 1 && k < best.0 {
                best = (k, Choice::Cell(cell));
                if k <= 2 {
                    return best.1;
                }
            }
        }
        for h in 0..3 * S::N {
            for d in 1..=S::N as u8 {
                let k = board.places(h, d).count();
                if k >= 1 && !board.is_done(h, d) && k < best.0 {
                    best = (k, Choice::Place(h, d));
                    if k <= 2 {
                        return best.1;
                    }
                }
            }
        }
        best.1
    }
}

/// What [`count`] found: solutions (up to the limit) and the first one's values.
pub(crate) struct Counted {
    /// Solutions found, at most the limit.
    pub solutions: u32,
    /// The first solution.
    pub first: Option<Vec<u8>>,
}

impl Counted {
    /// No solution.
    const NONE: Counted = Counted {
        solutions: 0,
        first: None,
    };
}

/// Counts the solutions of `values` (0 empty), stopping at `limit`.
pub(crate) fn count<S: Shape>(geo: &'static Geometry<S>, values: &[u8], limit: u32) -> Counted {
    let mut pending = Vec::with_capacity(4 * S::CELLS);
    match Board::from_values(geo, values, &mut pending) {
        Some(board) => count_from(board, pending, limit),
        None => Counted::NONE,
    }
}

/// Counts the solutions of `board` (with its `pending` placements), stopping at `limit`.
fn count_from<S: Shape>(board: Board<S>, pending: Vec<Pending>, limit: u32) -> Counted {
    let mut search =
        Search::<S, rand_chacha::ChaCha8Rng>::new(limit, u64::MAX, true, None, pending);
    search.run(board);
    Counted {
        solutions: search.found,
        first: search.first,
    }
}

/// Counts the solutions of `values` (0 empty) that keep every empty cell within its pencil
/// marks (`marks[cell]`: bit `d - 1` for digit `d`), stopping at `limit`: the solutions of a
/// pencil-mark puzzle, whose marks are part of the puzzle.
pub(crate) fn count_within<S: Shape>(
    geo: &'static Geometry<S>,
    values: &[u8],
    marks: &[u32],
    limit: u32,
) -> Counted {
    let mut pending = Vec::with_capacity(4 * S::CELLS);
    let Some(mut board) = Board::from_values(geo, values, &mut pending) else {
        return Counted::NONE;
    };
    for (cell, &m) in marks.iter().enumerate().take(S::CELLS) {
        if values[cell] != 0 {
            continue;
        }
        for d in board.candidates(cell).ones() {
            if m >> d & 1 == 0 && !board.eliminate(cell, d as u8 + 1, &mut pending) {
                return Counted::NONE;
            }
        }
    }
    count_from(board, pending, limit)
}

/// Whether `values` (0 empty) has a solution other than `known` (the known solution, whose
/// cells of `group`, empty in `values`, hold the values `saved`): the question clue removal
/// asks. A
/// puzzle that was unique with the group's clues has exactly one solution that keeps them all,
/// so another solution must differ from `known` in some cell of the group: the first such
/// cell is tried in turn, the cells before it kept. Each search stops at its first solution,
/// and none has to go through the known solution's part of the tree, as counting to 2 would.
/// The guesses its searches made are added to `effort`; they stop once they have made more
/// than `cap` guesses (`u64::MAX`: never), and the answer is then not to be trusted: the
/// caller sees it from `effort` having grown by more than `cap`.
pub(crate) fn has_another<S: Shape>(
    geo: &'static Geometry<S>,
    values: &[u8],
    group: &[usize],
    saved: &[u8],
    known: &[u8],
    effort: &mut u64,
    cap: u64,
) -> bool {
    let mut values = values.to_vec();
    let mut pending = Vec::with_capacity(4 * S::CELLS);
    let start = *effort;
    for (i, (&cell, &v)) in group.iter().zip(saved).enumerate() {
        let used = *effort - start;
        if used > cap {
            return false;
        }
        if i > 0 {
            values[group[i - 1]] = saved[i - 1];
        }
        pending.clear();
        let Some(mut board) = Board::from_values(geo, &values, &mut pending) else {
            return false;
        };
        if !board.propagate(&mut pending) || board.value(cell) == v {
            continue;
        }
        if board.value(cell) == 0 && !board.eliminate(cell, v, &mut pending) {
            continue;
        }
        if finds_one(board, &pending, known, effort, cap - used) {
            return true;
        }
    }
    false
}

/// Whether `board` (singles pending on `pending`) has a solution. Most boards clue removal
/// asks about have one near at hand: a plain search with a small guess budget finds it; only
/// when that runs out does the search that looks ahead take over, for the proofs. Both try
/// `known`'s value first at each guess: the other solution mostly agrees with it, and a guess
/// that follows it is the one most likely to end in a contradiction soon when none exists.
/// The searches stop once they have made more than `cap` guesses in all (then `false`).
fn finds_one<S: Shape>(
    board: Board<S>,
    pending: &[Pending],
    known: &[u8],
    effort: &mut u64,
    cap: u64,
) -> bool {
    /// Guesses the plain search may make before the looking-ahead one takes over.
    const QUICK: u64 = 64;
    let mut left = cap.saturating_add(1);
    for (look_ahead, quick) in [(false, QUICK), (true, u64::MAX)] {
        let guess_limit = quick.min(left);
        let mut search = Search::<S, rand_chacha::ChaCha8Rng>::new(
            1,
            guess_limit,
            look_ahead,
            None,
            pending.to_vec(),
        );
        search.prefer = Some(known);
        search.run(board);
        *effort += search.guesses;
        if search.found > 0 {
            return true;
        }
        if search.guesses < guess_limit {
            // the whole tree was searched: no solution
            return false;
        }
        left -= search.guesses;
        if left == 0 {
            // past the cap
            return false;
        }
    }
    false
}

/// A random solved board, digits tried in random order at every guess; `None` when a try runs
/// past its guess budget (rare on the largest boards), after which the caller tries again.
pub(crate) fn random_solution<S: Shape>(
    geo: &'static Geometry<S>,
    rng: &mut impl Rng,
) -> Option<Vec<u8>> {
    let mut board = Board::empty(geo);
    let mut pending = Vec::new();
    // A random first row fixes the digits' names at once and leaves less to guess.
    let mut row: Vec<u8> = (1..=S::N as u8).collect();
    row.shuffle(rng);
    for (col, &d) in row.iter().enumerate() {
        if !board.place(col, d, &mut pending) {
            return None;
        }
    }
    let mut search = Search::<S, _>::new(1, 50 * S::CELLS as u64, false, Some(rng), pending);
    search.run(board);
    search.first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Layout, S4, S9, S16};
    use rand::SeedableRng;

    #[test]
    fn agrees_with_the_nine_by_nine_solver() {
        let geo = S9::geometry(Layout::NINE);
        let puzzles = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ".................................................................................",
            "11...............................................................................",
        ];
        for p in puzzles {
            let values = crate::text::nine::line_values(p).unwrap();
            for limit in [1, 2, 5] {
                let ours = count(geo, &values, limit);
                assert_eq!(
                    ours.solutions,
                    crate::brute::nine::count_solutions(&values, limit),
                    "{p} limit {limit}"
                );
                if limit > 1 && ours.solutions == 1 {
                    assert_eq!(
                        ours.first.as_deref(),
                        crate::brute::nine::solve(&values).as_ref().map(|s| &s[..])
                    );
                }
            }
        }
    }

    #[test]
    fn random_solutions_are_valid_and_seeded() {
        let geo = S16::geometry(Layout::new(16).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let a = random_solution(geo, &mut rng).unwrap();
        assert!(Board::from_values(geo, &a, &mut Vec::new()).is_some());
        assert!(a.iter().all(|&v| (1..=16).contains(&v)));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(random_solution(geo, &mut rng).unwrap(), a);
        let small = S4::geometry(Layout::new(4).unwrap());
        assert_eq!(count(small, &[0; 16], 1000).solutions, 288);
    }

    /// The look-ahead's eliminations (failed options, and what neither side of a choice keeps)
    /// and the known-solution-first search must not change an answer: counts and
    /// [`has_another`] against the 9x9 solver on many boards, from nearly full to nearly empty;
    /// with a cap on its guesses, [`has_another`] stops one guess past it at most, and answers
    /// right when it did not go past.
    #[test]
    fn the_look_ahead_and_has_another_agree_with_the_nine_by_nine_solver() {
        use rand::seq::index::sample;
        let geo = S9::geometry(Layout::NINE);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..300 {
            let solution = random_solution(geo, &mut rng).unwrap();
            let mut values = solution.clone();
            let holes = 20 + round % 50;
            for c in sample(&mut rng, 81, holes) {
                values[c] = 0;
            }
            let p: [u8; 81] = values.clone().try_into().unwrap();
            let expected = crate::brute::nine::count_solutions(&p, 2);
            assert_eq!(count(geo, &values, 2).solutions, expected, "{values:?}");
            if expected != 1 {
                continue;
            }
            for cell in (0..81).filter(|&c| values[c] != 0).take(12) {
                let mut fewer = p;
                fewer[cell] = 0;
                let several = crate::brute::nine::count_solutions(&fewer, 2) > 1;
                let group = [cell];
                let saved = [solution[cell]];
                assert_eq!(
                    has_another(geo, &fewer, &group, &saved, &solution, &mut 0, u64::MAX),
                    several,
                    "{values:?} without {cell}"
                );
                // with a cap, the answer stands unless the searches went past it
                let mut spent = 0;
                let capped = has_another(geo, &fewer, &group, &saved, &solution, &mut spent, 2);
                assert!(spent <= 3, "{values:?} without {cell}: {spent} guesses");
                assert!(spent > 2 || capped == several, "{values:?} without {cell}");
            }
        }
    }
}
