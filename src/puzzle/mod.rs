//! The front door, above the engine: a puzzle of any size read ([`AnyPuzzle`]), generated
//! ([`Puzzle::generate`]; [`generate`]: 9x9's generator and its targets) and put in canonical
//! form ([`canonical`]).

pub(crate) mod canonical;
pub mod generate;

pub use canonical::{canonical, canonical_line};

use crate::engine::pipeline::Pipeline;
use crate::engine::trace::Trace;
use crate::model::{Alphabet, Geometry, Layout, ParseError, Shape, ShapeFn};
use crate::puzzle::generate::sized as generate_sized;
use crate::puzzle::generate::{Clues, GenerateError, GenerateOptions, Symmetry, rng_for};
use crate::text::Puzzle;

/// A puzzle as read from text of any size: 9x9 for the full engine (every technique, traces,
/// rating), or another size for the size-generic core ([`Puzzle`]).
///
/// ```
/// use lapiz::puzzle::AnyPuzzle;
/// let nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// assert!(matches!(AnyPuzzle::read(nine, None, None), Ok(AnyPuzzle::Nine(_))));
/// let four = AnyPuzzle::read("3.1...2.2....4..", None, None).unwrap();
/// assert!(matches!(four, AnyPuzzle::Sized(p) if p.layout().n() == 4));
/// ```
#[derive(Clone, Debug)]
pub enum AnyPuzzle {
    /// A 9x9 puzzle (also a pencil-mark grid or a library line).
    Nine(Box<crate::Grid>),
    /// A puzzle of another size.
    Sized(Puzzle),
}

impl AnyPuzzle {
    /// The board's size `n` (9 for 9x9).
    pub fn n(&self) -> usize {
        match self {
            AnyPuzzle::Nine(_) => 9,
            AnyPuzzle::Sized(p) => p.layout().n(),
        }
    }

    /// Runs `f` with explanations writing digits in the puzzle's symbols ([`with_symbols`]);
    /// a 9x9 puzzle read by the 9x9 reader writes numbers.
    pub fn in_its_symbols<R>(&self, f: impl FnOnce() -> R) -> R {
        match self {
            AnyPuzzle::Nine(_) => f(),
            AnyPuzzle::Sized(p) => p.in_its_symbols(f),
        }
    }

    /// Reads a puzzle of any size. Without `alphabet` and `boxes`, what the 9x9 reader
    /// ([`crate::text::nine::parse_puzzle`]) takes is 9x9, as it always was; other texts go to the
    /// reader of every size, whose error is reported when it saw another size (or no size at
    /// all), the 9x9 reader's otherwise.
    pub fn read(
        text: &str,
        alphabet: Option<Alphabet>,
        boxes: Option<(u8, u8)>,
    ) -> Result<AnyPuzzle, ParseError> {
        let plain = alphabet.is_none() && boxes.is_none();
        let nine = if plain {
            match crate::text::nine::parse_puzzle(text) {
                Ok(grid) => return Ok(AnyPuzzle::Nine(Box::new(grid))),
                Err(e) => Some(e),
            }
        } else {
            None
        };
        match Puzzle::parse_with(text, alphabet, boxes) {
            Ok(p) if p.layout().n() != 9 => Ok(AnyPuzzle::Sized(p)),
            Ok(p) => match nine {
                Some(e) => Err(e),
                None => {
                    let values: [u8; 81] = p.values().try_into().expect("81 values");
                    Ok(AnyPuzzle::Nine(Box::new(crate::Grid::from_values(&values))))
                }
            },
            Err(e) => Err(match (nine, &e) {
                (Some(nine), ParseError::BadSymbol { size: 9, .. }) => nine,
                (Some(ParseError::WrongCellCount { .. }), _) | (None, _) => e,
                (Some(nine), ParseError::BadSize { .. }) => nine,
                _ => e,
            }),
        }
    }

    /// Solves it with `pipeline`: 9x9 with [`solve_grid`](crate::engine::solve_grid), another
    /// size with [`solve_sized`](crate::engine::solve_sized).
    pub fn solve(&self, pipeline: &Pipeline) -> Trace {
        match self {
            AnyPuzzle::Nine(grid) => crate::engine::solve_grid(grid, pipeline),
            AnyPuzzle::Sized(p) => crate::engine::solve_sized(p, pipeline),
        }
    }

    /// The brute-force solution count, stopping at `limit`.
    pub fn count_solutions(&self, limit: u32) -> u32 {
        match self {
            AnyPuzzle::Nine(grid) => crate::brute::nine::count_solutions(grid.values(), limit),
            AnyPuzzle::Sized(p) => p.count_solutions(limit),
        }
    }

    /// The canonical form of the clues as a line, in the puzzle's symbols (9x9:
    /// [`crate::puzzle::canonical::canonical_line`]; other sizes: [`Puzzle::canonical`]).
    pub fn canonical_line(&self) -> String {
        match self {
            AnyPuzzle::Nine(grid) => crate::puzzle::canonical::canonical_line(&grid.given_values()),
            AnyPuzzle::Sized(p) => p.canonical().to_line(),
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
    /// // no 4x4 puzzle with 2 clues has one solution
    /// let none = Puzzle::generate_within(layout, Alphabet::Standard, Symmetry::None, Clues::Exactly(2), 7, 0, 3);
    /// assert!(matches!(none, Err(GenerateError::BudgetExhausted { attempts: 3, .. })));
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
        let made = layout.dispatch(Generate {
            symmetry,
            clues,
            attempts,
            rng: &mut rng,
        });
        let Some((puzzle, solution, tried)) = made else {
            return Err(GenerateError::BudgetExhausted { index, attempts });
        };
        let make = |values| Puzzle {
            layout,
            alphabet,
            values,
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
            && self.layout.dispatch(Minimal {
                values: &self.values,
                symmetry,
            })
    }
}

/// Whether a `layout` board can have `clues` clues.
fn check_clues(layout: Layout, clues: Clues) -> Result<(), GenerateError> {
    match clues {
        Clues::Exactly(k) | Clues::AtMost(k) if k > layout.cells() || k == 0 => {
            Err(GenerateError::Impossible(format!(
                "{k} clues: a {layout} board has {} cells",
                layout.cells()
            )))
        }
        _ => Ok(()),
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

impl<R: rand::Rng> ShapeFn for Generate<'_, R> {
    type Out = Option<(Vec<u8>, Vec<u8>, u32)>;
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Self::Out {
        generate_sized::generate(geo, self.symmetry, self.clues, self.attempts, self.rng)
    }
}

/// [`Puzzle::is_minimal`] on the generic core.
struct Minimal<'a> {
    values: &'a [u8],
    symmetry: Symmetry,
}

impl ShapeFn for Minimal<'_> {
    type Out = bool;
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> bool {
        generate_sized::is_minimal(geo, self.values, self.symmetry)
    }
}
