//! Generated puzzles of other sizes than 9x9 to a rating target ([`Puzzle::generate`]).
//!
//! On 9x9 a target is met by rating minimal puzzles until one fits. On larger boards that
//! does not work for a ceiling: nearly every minimal 25x25 puzzle needs nested forcing chains,
//! and its solve takes hours. So a minimal puzzle is solved up to the ceiling
//! ([`run_within`]), and where that solve would need a harder step (or gets stuck), the
//! clues of one symmetry group are put back: the group of an empty cell with the fewest
//! candidates there, picked at random among those (the least the solve did not know, so the
//! puzzle stays near its ceiling). The solve goes on from that position, and
//! once it ends solved, the puzzle is solved again from its clues alone, until a solve from
//! the clues stays within the ceiling with nothing put back. The puzzle is then rated as
//! `lapiz rate` rates it, and the rating checked against every target.
//!
//! A puzzle that its pipeline solves within the ceiling gets nothing back, so it stays minimal.
//!
//! [`Puzzle::generate`]: crate::text::Puzzle::generate

use rand::Rng;

use crate::engine::pipeline::Pipeline;
use crate::engine::rating::rate;
use crate::engine::{Ended, run_within, solve_sized};
use crate::model::grid::Grid;
use crate::model::on_size;
use crate::puzzle::generate::{GenerateError, GenerateOptions, Symmetry, rng_for};

use crate::model::{Alphabet, Bits, Geometry, Layout, Shape};
use crate::puzzle::{Generate, Generated};
use crate::text::Puzzle;

impl Puzzle {
    /// [`Puzzle::generate`] with a target on a board other than 9x9: rated with `pipeline` as
    /// `lapiz rate` rates (see the module's doc). Each attempt makes a minimal puzzle as
    /// [`Puzzle::generate_within`] does, puts clues back while its solve needs a step harder
    /// than the target's ceiling (the rating range's upper end, or the level's), and rates it.
    ///
    /// ```
    /// use lapiz::puzzle::generate::GenerateOptions;
    /// use lapiz::model::{Alphabet, Layout};
    /// use lapiz::{Pipeline, Puzzle};
    /// let options = GenerateOptions { rating: Some((0.0, 2.3)), ..GenerateOptions::default() };
    /// let pipeline = Pipeline::default_pipeline();
    /// let made = Puzzle::generate(Layout::new(16).unwrap(), Alphabet::Standard, &options, &pipeline, 7, 0).unwrap();
    /// let rating = made.rating.unwrap();
    /// assert!(rating.is_solved() && rating.hardest.unwrap() <= 2.3);
    /// assert_eq!(made.puzzle.count_solutions(2), 1);
    /// ```
    pub(crate) fn generate_rated(
        layout: Layout,
        alphabet: Alphabet,
        options: &GenerateOptions,
        pipeline: &Pipeline,
        seed: u64,
        index: u64,
    ) -> Result<Generated, GenerateError> {
        options.check(pipeline)?;
        crate::puzzle::check_clues(layout, options.clues)?;
        let ceiling = options.ceiling();
        let mut rng = rng_for(seed, index);
        let boards = GenerateOptions::default_attempts(layout, options.clues);
        let make = |values| Puzzle {
            layout,
            alphabet,
            values,
            givens: None,
            marks: None,
        };
        for attempt in 1..=options.attempts_on(layout) {
            if let Some(cause) = crate::model::stop::reached() {
                return Err(GenerateError::Stopped {
                    index,
                    attempts: attempt - 1,
                    cause,
                });
            }
            let made = on_size!(layout.by_size(), geo => Generate {
                symmetry: options.symmetry,
                clues: options.clues,
                attempts: boards,
                rng: &mut rng,
            }.call(geo));
            let Some((mut puzzle, solution, _)) = made else {
                continue;
            };
            if let Some(ceiling) = ceiling {
                let within = on_size!(layout.by_size(), geo => PutBack {
                    puzzle: &mut puzzle,
                    solution: &solution,
                    symmetry: options.symmetry,
                    pipeline,
                    ceiling,
                    rng: &mut rng,
                }.call(geo));
                let clues = puzzle.iter().filter(|&&v| v != 0).count();
                if !within || !options.clues.met_by(clues) {
                    continue;
                }
            }
            let puzzle = make(puzzle);
            let Ok(rating) = rate(&solve_sized(&puzzle, pipeline), pipeline) else {
                continue;
            };
            if !options.accepts(&rating) {
                continue;
            }
            return Ok(Generated {
                puzzle,
                solution: make(solution),
                attempts: attempt,
                rating: Some(rating),
            });
        }
        Err(GenerateError::BudgetExhausted {
            index,
            attempts: options.attempts_on(layout),
        })
    }
}

/// Puts clues of `solution` back into `puzzle` (values, 0 for empty) until `pipeline` solves
/// it from its clues without a step harder than `ceiling` (see the module's doc). Returns
/// false when a solve reaches the pipeline's step limit first: the puzzle is given up.
pub(crate) struct PutBack<'a, R: Rng> {
    /// The puzzle, changed in place.
    pub puzzle: &'a mut Vec<u8>,
    /// Its solution.
    pub solution: &'a [u8],
    /// The clue pattern's symmetry: clues come back a group at a time.
    pub symmetry: Symmetry,
    /// The pipeline that solves it.
    pub pipeline: &'a Pipeline,
    /// The hardest step allowed.
    pub ceiling: f32,
    /// Picks among the cells with the fewest candidates.
    pub rng: &'a mut R,
}

impl<R: Rng> PutBack<'_, R> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> bool {
        let groups = self.symmetry.groups_of_size(S::N);
        let mut group_of = vec![0; S::CELLS];
        for (g, cells) in groups.iter().enumerate() {
            for &c in cells {
                group_of[c] = g;
            }
        }
        let off: Vec<bool> = self
            .pipeline
            .techniques()
            .iter()
            .map(|t| !t.runs_on(S::N))
            .collect();
        loop {
            // a solve from the clues alone
            let mut grid = Grid::from_value_slice(geo, self.puzzle);
            let mut disabled = off.clone();
            let mut put_back = false;
            loop {
                let ended = run_within(
                    &mut grid,
                    self.pipeline,
                    self.solution,
                    &mut disabled,
                    Some(self.ceiling),
                    &mut Vec::new(),
                );
                match ended {
                    Ended::Solved if put_back => break,
                    Ended::Solved => return true,
                    Ended::StepLimit | Ended::Stopped(_) => return false,
                    Ended::Stuck | Ended::OverCeiling => {
                        let cell = narrowest_cell(&grid, self.rng);
                        for &c in &groups[group_of[cell]] {
                            let value = self.solution[c];
                            self.puzzle[c] = value;
                            let at = S::cell(c);
                            if grid.value(at) == 0 {
                                grid.set_value(at, value);
                                grid.mark_given(at);
                            }
                        }
                        put_back = true;
                    }
                }
            }
        }
    }
}

/// The index of an empty cell of `grid` with the fewest candidates, picked at random among
/// those.
fn narrowest_cell<S: Shape>(grid: &Grid<S>, rng: &mut impl Rng) -> usize {
    let empty = grid.empty_cells();
    let fewest = empty
        .iter()
        .map(|c| grid.candidates(c).count())
        .min()
        .expect("a solve stopped before the end has an empty cell");
    let narrowest: Vec<_> = empty
        .iter()
        .filter(|&c| grid.candidates(c).count() == fewest)
        .collect();
    let cell = narrowest[rng.random_range(0..narrowest.len())];
    usize::from(cell.row()) * S::N + usize::from(cell.col())
}
