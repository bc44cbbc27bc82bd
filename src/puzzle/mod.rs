//! The front door, above the engine: a [`Puzzle`] of any size solved ([`Puzzle::solve`]),
//! generated ([`Puzzle::generate`]; [`generate`]: 9x9's generator and its targets) and put in
//! canonical form ([`Puzzle::canonical_line`]).

pub(crate) mod canonical;
pub mod generate;

pub use canonical::{canonical, canonical_line};

use crate::engine::pipeline::Pipeline;
use crate::engine::trace::Trace;
use crate::model::on_size;
use crate::model::{Alphabet, Geometry, Layout, Shape};
use crate::puzzle::generate::sized as generate_sized;
use crate::puzzle::generate::{Clues, GenerateError, GenerateOptions, Symmetry, rng_for};
use crate::text::Puzzle;

impl Puzzle {
    /// Solves it with `pipeline`: 9x9 with [`solve_grid`](crate::engine::solve_grid) on the grid
    /// it holds, another size with [`solve_sized`](crate::engine::solve_sized).
    pub fn solve(&self, pipeline: &Pipeline) -> Trace {
        match self.nine() {
            Some(grid) => crate::engine::solve_grid(&grid, pipeline),
            None => crate::engine::solve_sized(self, pipeline),
        }
    }

    /// [`Puzzle::solve`] that ends early once `stop` is reached: the trace keeps the steps
    /// applied before, and its outcome is [`Outcome::Stopped`](crate::engine::Outcome::Stopped).
    ///
    /// ```
    /// use std::time::Instant;
    /// use lapiz::engine::Outcome;
    /// use lapiz::model::{Stop, StopCause};
    /// use lapiz::{Pipeline, Puzzle};
    ///
    /// let p = Puzzle::read(
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    ///     None,
    ///     None,
    /// )
    /// .unwrap();
    /// let trace = p.solve_until(&Pipeline::default_pipeline(), &Stop::at(Instant::now()));
    /// assert!(matches!(trace.outcome, Outcome::Stopped { cause: StopCause::TimeLimit, .. }));
    /// ```
    pub fn solve_until(&self, pipeline: &Pipeline, stop: &crate::model::Stop) -> Trace {
        stop.during(|| self.solve(pipeline))
    }

    /// The canonical form of the givens as a line, in the puzzle's symbols (equal for
    /// equivalent puzzles; 9x9 by [`canonical_line`], other sizes by [`Puzzle::canonical`]).
    pub fn canonical_line(&self) -> String {
        match self.nine() {
            Some(grid) => canonical_line(&grid.given_values()),
            None => self.canonical().to_line(),
        }
    }
}

impl Puzzle {
    /// Generates puzzle `index` for `seed` on `layout`: a random solved board, then clues taken
    /// away in `symmetry`'s groups while one solution remains, until `clues` is met (minimal by
    /// default). Returns the puzzle and its solution, written in `alphabet`. The same seed and
    /// index give the same puzzle. At most [`Puzzle::default_attempts`] solved boards are
    /// tried; [`Puzzle::generate_within`] takes another limit and says how many were.
    ///
    /// ```
    /// use lapiz::puzzle::generate::{Clues, Symmetry};
    /// use lapiz::model::{Alphabet, Layout};
    /// use lapiz::text::Puzzle;
    /// let layout = Layout::new(6).unwrap();
    /// let (p, s) = Puzzle::generate(layout, Alphabet::Standard, Symmetry::None, Clues::Minimal, 7, 0).unwrap();
    /// assert_eq!(p.count_solutions(2), 1);
    /// assert!(p.is_minimal(Symmetry::None));
    /// assert_eq!(p.solution().unwrap(), s);
    /// ```
    pub fn generate(
        layout: Layout,
        alphabet: Alphabet,
        symmetry: Symmetry,
        clues: Clues,
        seed: u64,
        index: u64,
    ) -> Result<(Puzzle, Puzzle), GenerateError> {
        let attempts = Puzzle::default_attempts(clues);
        Puzzle::generate_within(layout, alphabet, symmetry, clues, seed, index, attempts)
            .map(|made| (made.puzzle, made.solution))
    }

    /// The solved boards [`Puzzle::generate`] tries at most: a minimal puzzle needs few (a
    /// board is given up only when its uniqueness questions take too long: at 25x25 about half
    /// the seeds need a second board, a few a third), a clue count may need many.
    pub fn default_attempts(clues: Clues) -> u32 {
        match clues {
            Clues::Minimal => 100,
            _ => GenerateOptions::DEFAULT_ATTEMPTS.min(1000),
        }
    }

    /// [`Puzzle::generate`] trying at most `attempts` solved boards (at least 1): the puzzle,
    /// its solution and how many boards it took. The puzzle does not depend on the limit, as
    /// long as it is found within it.
    ///
    /// ```
    /// use lapiz::puzzle::generate::{Clues, GenerateError, Symmetry};
    /// use lapiz::model::{Alphabet, Layout};
    /// use lapiz::text::Puzzle;
    /// let layout = Layout::new(4).unwrap();
    /// let made = Puzzle::generate_within(layout, Alphabet::Standard, Symmetry::None, Clues::Minimal, 7, 0, 5).unwrap();
    /// assert_eq!(made.attempts, 1);
    /// // no 6x6 puzzle with 5 clues has one solution
    /// let six = Layout::new(6).unwrap();
    /// let none = Puzzle::generate_within(six, Alphabet::Standard, Symmetry::None, Clues::Exactly(5), 7, 0, 3);
    /// assert!(matches!(none, Err(GenerateError::BudgetExhausted { attempts: 3, .. })));
    /// // and none with 2 clues: refused at once
    /// let two = Puzzle::generate_within(layout, Alphabet::Standard, Symmetry::None, Clues::Exactly(2), 7, 0, 3);
    /// assert!(matches!(two, Err(GenerateError::Impossible(_))));
    /// ```
    pub fn generate_within(
        layout: Layout,
        alphabet: Alphabet,
        symmetry: Symmetry,
        clues: Clues,
        seed: u64,
        index: u64,
        attempts: u32,
    ) -> Result<Generated, GenerateError> {
        check_clues(layout, clues)?;
        if attempts == 0 {
            return Err(GenerateError::no_attempts());
        }
        let mut rng = rng_for(seed, index);
        let made = on_size!(layout.by_size(), geo => Generate {
            symmetry,
            clues,
            attempts,
            rng: &mut rng,
        }.call(geo));
        let Some((puzzle, solution, tried)) = made else {
            if let Some(cause) = crate::model::stop::reached() {
                return Err(GenerateError::Stopped {
                    index,
                    attempts,
                    cause,
                });
            }
            return Err(GenerateError::BudgetExhausted { index, attempts });
        };
        let make = |values| Puzzle {
            layout,
            alphabet,
            values,
            givens: None,
            marks: None,
        };
        Ok(Generated {
            puzzle: make(puzzle),
            solution: make(solution),
            attempts: tried,
            rating: None,
        })
    }

    /// Whether no clue group of `symmetry` can be taken away with one solution kept (and the
    /// puzzle has one solution).
    pub fn is_minimal(&self, symmetry: Symmetry) -> bool {
        self.count_solutions(2) == 1
            && on_size!(self.layout.by_size(), geo => Minimal {
                values: &self.values,
                symmetry,
            }.call(geo))
    }
}

/// Whether a `layout` board can have `clues` clues: no more than its cells, no fewer than
/// [`min_clues`].
fn check_clues(layout: Layout, clues: Clues) -> Result<(), GenerateError> {
    let least = min_clues(layout.n());
    match clues {
        Clues::Exactly(k) | Clues::AtMost(k) if k > layout.cells() => {
            Err(GenerateError::Impossible(format!(
                "{k} clues: a {layout} board has {} cells",
                layout.cells()
            )))
        }
        Clues::Exactly(k) | Clues::AtMost(k) if k < least => Err(GenerateError::Impossible(
            format!("{k} clues: no {layout} puzzle with one solution has fewer than {least}"),
        )),
        _ => Ok(()),
    }
}

/// The fewest clues a puzzle of size `n` with one solution can have, or a proven lower bound:
///
/// - 4x4: 4, found by checking the two essentially different solved grids (OEIS A198297);
/// - 8x8 (boxes of 2x4): 14, found by an exhaustive search (Afmob, Sudoku Programmers forum,
///   2011);
/// - 9x9: 17 (McGuire, Tugemann and Civario, "There is no 16-clue Sudoku", 2012);
/// - any other size: n - 1, since the clues must show all digits but one (two digits absent
///   from the clues can be swapped in any solution, which makes another one).
pub(crate) fn min_clues(n: usize) -> usize {
    match n {
        4 => 4,
        8 => 14,
        9 => 17,
        n => n - 1,
    }
}

/// What [`Puzzle::generate_within`] made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: one solution.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
    /// The solved boards tried, this puzzle's included (attempts, with a rating target).
    pub attempts: u32,
    /// Its rating, from [`Puzzle::generate_rated`].
    pub rating: Option<crate::engine::rating::Rating>,
}

/// [`Puzzle::generate`] on the generic core.
struct Generate<'r, R: rand::Rng> {
    symmetry: Symmetry,
    clues: Clues,
    attempts: u32,
    rng: &'r mut R,
}

impl<R: rand::Rng> Generate<'_, R> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Option<(Vec<u8>, Vec<u8>, u32)> {
        generate_sized::generate(geo, self.symmetry, self.clues, self.attempts, self.rng)
    }
}

/// [`Puzzle::is_minimal`] on the generic core.
struct Minimal<'a> {
    values: &'a [u8],
    symmetry: Symmetry,
}

impl Minimal<'_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> bool {
        generate_sized::is_minimal(geo, self.values, self.symmetry)
    }
}
