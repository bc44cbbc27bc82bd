//! The front door, above the engine: a [`Puzzle`] of any size solved ([`Puzzle::solve`]),
//! generated ([`Puzzle::generate`], with the targets of [`generate`]) and put in canonical
//! form ([`Puzzle::canonical_line`]).

pub(crate) mod canonical;
pub mod generate;

#[doc(hidden)]
pub use canonical::{canonical, canonical_line};

use crate::engine::pipeline::Pipeline;
use crate::engine::trace::Trace;
use crate::model::on_size;
use crate::model::{Alphabet, Geometry, Layout, Shape};
use crate::puzzle::generate::sized as generate_sized;
use crate::puzzle::generate::{
    Clues, GenerateError, GenerateOptions, Symmetry, generate_nine, is_minimal_nine, rng_for,
};
use crate::text::Puzzle;

/// Reads `text` as [`Puzzle::read`] does (any size, any format) and solves it with
/// [`Puzzle::solve`]. Text that is not a puzzle gives a trace whose
/// [`Outcome::Invalid`](crate::engine::Outcome::Invalid) names the problem.
pub fn solve_puzzle(text: &str, pipeline: &Pipeline) -> Trace {
    match Puzzle::read(text, None, None) {
        Ok(puzzle) => puzzle.solve(pipeline),
        Err(e) => Trace::invalid(text.trim().to_string(), pipeline, e.to_string()),
    }
}

impl Puzzle {
    /// Solves it with `pipeline`, every step checked against the solution, into a [`Trace`]:
    /// the one way into the engine. 9x9 runs on the grid the puzzle holds, in digits; another
    /// size runs the pipeline's techniques that run on it, in the puzzle's symbols.
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
    /// Generates puzzle `index` for `seed`: a `layout` board in `alphabet`'s symbols that meets
    /// `options`' targets (clues, symmetry, level, rating range, techniques required), rated
    /// with `pipeline` as `lapiz rate` rates it when a target asks. A random solved board,
    /// then clues taken away in `options.symmetry`'s groups while one solution remains, until
    /// the clues are met (minimal by default). The same seed and index give the same puzzle on
    /// any thread. 9x9 runs its own tuned generator; on other sizes a rating target is met
    /// by putting clues back (see `docs/rating.md`), so such a puzzle may not be minimal.
    ///
    /// ```
    /// use lapiz::puzzle::generate::{Clues, GenerateError, GenerateOptions, Symmetry};
    /// use lapiz::model::{Alphabet, Layout};
    /// use lapiz::{Pipeline, Puzzle};
    /// let pipeline = Pipeline::default_pipeline();
    /// let options = GenerateOptions::default();
    /// let nine = Puzzle::generate(Layout::NINE, Alphabet::Standard, &options, &pipeline, 42, 0).unwrap();
    /// assert_eq!(nine.puzzle.count_solutions(2), 1);
    /// assert!(nine.puzzle.is_minimal(Symmetry::None));
    ///
    /// let six = Layout::new(6).unwrap();
    /// let made = Puzzle::generate(six, Alphabet::Standard, &options, &pipeline, 7, 0).unwrap();
    /// assert_eq!(made.puzzle.solution().unwrap(), made.solution);
    /// assert_eq!(made.attempts, 1);
    ///
    /// // no 6x6 puzzle with 5 clues has one solution: the attempts run out
    /// let five = GenerateOptions { clues: Clues::Exactly(5), attempts: Some(3), ..options.clone() };
    /// let none = Puzzle::generate(six, Alphabet::Standard, &five, &pipeline, 7, 0);
    /// assert!(matches!(none, Err(GenerateError::BudgetExhausted { attempts: 3, .. })));
    /// // and none of 4x4 with 2: refused at once
    /// let two = GenerateOptions { clues: Clues::Exactly(2), ..options };
    /// let four = Layout::new(4).unwrap();
    /// let refused = Puzzle::generate(four, Alphabet::Standard, &two, &pipeline, 7, 0);
    /// assert!(matches!(refused, Err(GenerateError::Impossible(_))));
    /// ```
    pub fn generate(
        layout: Layout,
        alphabet: Alphabet,
        options: &GenerateOptions,
        pipeline: &Pipeline,
        seed: u64,
        index: u64,
    ) -> Result<Generated, GenerateError> {
        let make = |values: Vec<u8>| Puzzle {
            layout,
            alphabet,
            values,
            givens: None,
            marks: None,
        };
        if layout == Layout::NINE {
            let made = generate_nine(options, pipeline, seed, index)?;
            return Ok(Generated {
                puzzle: make(made.puzzle.to_vec()),
                solution: make(made.solution.to_vec()),
                attempts: made.attempts,
                rating: made.rating,
            });
        }
        if options.needs_rating() {
            return Puzzle::generate_rated(layout, alphabet, options, pipeline, seed, index);
        }
        options.check(pipeline)?;
        let attempts = options.attempts_on(layout);
        Puzzle::generate_within(
            layout,
            alphabet,
            options.symmetry,
            options.clues,
            seed,
            index,
            attempts,
        )
    }

    /// The generic core's generator, with no rating target: at most `attempts` solved boards
    /// (at least 1) for the puzzle. The puzzle does not depend on the limit, as long as it is
    /// found within it.
    ///
    pub(crate) fn generate_within(
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
        if let Ok(nine) = <&[u8; 81]>::try_from(self.values.as_slice())
            && self.layout == Layout::NINE
        {
            return self.count_solutions(2) == 1 && is_minimal_nine(nine, symmetry);
        }
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

/// What [`Puzzle::generate`] made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: one solution.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
    /// The attempts it took, this puzzle's included (1 = the first).
    pub attempts: u32,
    /// Its rating, when a target or [`GenerateOptions::rate`] asked for it.
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
