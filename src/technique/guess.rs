//! Guess: a trial placement checked against the solution, not a deduction.
//!
//! When a pipeline has nothing left that it can prove, a guess lets it finish anyway: it takes
//! an empty cell with the fewest candidates (the first in cell order on ties), finds the grid's
//! solution with the brute-force solver ([`crate::brute::nine`]) from the current values, and places
//! the solution's digit there. It emits nothing when the grid has no solution or more than one,
//! or when the solution's digit is no longer a candidate of the cell (the pencil marks disagree
//! with the values).
//!
//! A guess is not logic: it is rated 12.0, above every logical technique (Sudoku Explainer's
//! scale tops out at 11.x with nested forcing chains), so a solve that needed one is never rated
//! as if it were a deduction. It is off in the default pipeline; the trace counts the guesses
//! (`Summary::guesses`), `solve --file` gives such a puzzle the status `guessed` and `rate`
//! the level `guessed`.

use crate::brute::nine::{self as solver, Solutions};
use crate::model::Sym;
use crate::model::grid::Candidate;
use crate::step::{Role, Step};
use crate::technique::Builtin;
use crate::technique::catalogue::entry;
use crate::technique::context::Context;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family (off in the default pipeline).
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(Guess)]
}

/// The catalogue entry of [`Guess`].
const INFO: &TechniqueInfo = entry("guess");

/// The id of [`Guess`]; the engine counts the steps of this id as guesses.
pub const GUESS_ID: &str = INFO.id;

/// Places the solution's digit in an empty cell with the fewest candidates.
pub struct Guess;

impl Builtin for Guess {
    fn info(&self) -> &'static TechniqueInfo {
        INFO
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        // the first empty cell with the fewest candidates (min_by_key keeps the first of ties)
        let Some(cell) = grid
            .empty_cells()
            .iter()
            .min_by_key(|&c| grid.candidates(c).count_ones())
        else {
            return Ok(());
        };
        let Solutions::Unique(solution) = solver::analyze(grid.values()) else {
            return Ok(());
        };
        let digit = solution[cell.index()];
        if !grid.has_candidate(cell, digit) {
            return Ok(());
        }
        stoppable(|| {
            sink(
                Step::new(self.id(), self.difficulty())
                    .place(cell, digit)
                    .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                    .explain(format!(
                        "Guess: {cell}={} (a trial placement checked against the solution, not a deduction)",
                        Sym(digit)
                    )),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::grid::Grid;
    use crate::technique::{find_all, find_first};
    use crate::text::nine::parse_puzzle;

    /// Arto Inkala's puzzle: no single, nothing simple.
    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn grid(text: &str) -> Grid {
        parse_puzzle(text).unwrap()
    }

    #[test]
    fn places_the_solution_digit_in_a_cell_with_fewest_candidates() {
        let g = grid(HARD);
        let solution = solver::solve(g.values()).unwrap();
        let steps = find_all(&Guess, &g).unwrap();
        assert_eq!(steps.len(), 1);
        let step = &steps[0];
        assert_eq!(step.technique, "guess");
        assert_eq!(step.difficulty, 12.0);
        assert!(step.eliminations.is_empty());
        assert_eq!(step.placements.len(), 1);
        let p = step.placements[0];
        assert_eq!(p.digit, solution[p.cell.index()]);
        let fewest = g
            .empty_cells()
            .iter()
            .map(|c| g.candidates(c).count_ones())
            .min()
            .unwrap();
        assert_eq!(g.candidates(p.cell).count_ones(), fewest);
        // the first such cell in cell order
        let first = g
            .empty_cells()
            .iter()
            .find(|&c| g.candidates(c).count_ones() == fewest)
            .unwrap();
        assert_eq!(p.cell, first);
        assert_eq!(
            step.explanation,
            format!(
                "Guess: {}={} (a trial placement checked against the solution, not a deduction)",
                p.cell,
                Sym(p.digit)
            )
        );
        assert_eq!(step.contradiction(&solution), None);
    }

    #[test]
    fn nothing_on_a_solved_grid() {
        let g = grid(HARD);
        let solution = solver::solve(g.values()).unwrap();
        assert_eq!(
            find_first(&Guess, &Grid::from_values(&solution)).unwrap(),
            None
        );
    }

    #[test]
    fn nothing_on_a_grid_with_no_solution() {
        // a wrong digit added to the hard puzzle, where it leaves no clash and no cell without
        // candidates: the grid has no solution, though nothing shows it at a glance
        let g = grid(HARD);
        let solution = solver::solve(g.values()).unwrap();
        let broken = g
            .empty_cells()
            .iter()
            .flat_map(|c| (1..=9u8).map(move |d| (c, d)))
            .filter(|&(c, d)| g.has_candidate(c, d) && d != solution[c.index()])
            .map(|(c, d)| {
                let mut values = *g.values();
                values[c.index()] = d;
                Grid::from_values(&values)
            })
            .find(|b| b.conflict().is_none() && b.dead_cell().is_none())
            .expect("some wrong digit leaves no dead cell");
        assert_eq!(solver::count_solutions(broken.values(), 1), 0);
        assert_eq!(find_first(&Guess, &broken).unwrap(), None);
    }

    #[test]
    fn nothing_on_a_grid_with_several_solutions() {
        let g = Grid::empty();
        assert_eq!(find_first(&Guess, &g).unwrap(), None);
    }

    #[test]
    fn nothing_when_the_cell_no_longer_has_the_solution_digit() {
        let mut g = grid(HARD);
        let step = find_first(&Guess, &g).unwrap().unwrap();
        let p = step.placements[0];
        // remove the solution digit from the chosen cell, keeping it (one of) the fewest
        assert!(g.eliminate(p.cell, p.digit));
        assert!(g.candidates(p.cell) != 0);
        let chosen = g
            .empty_cells()
            .iter()
            .min_by_key(|&c| g.candidates(c).count_ones())
            .unwrap();
        assert_eq!(chosen, p.cell);
        assert_eq!(find_first(&Guess, &g).unwrap(), None);
    }
}
