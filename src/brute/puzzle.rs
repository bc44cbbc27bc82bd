//! What the brute force answers of a [`Puzzle`] of any size: its solution count, its one
//! solution, and how far singles alone take it.

use crate::brute::board::{Board, SingleKind};
use crate::brute::sized as brute;
use crate::model::PuzzleError;
use crate::model::on_size;
use crate::model::{Bits, Geometry, Shape};
use crate::text::Puzzle;

impl Puzzle {
    /// Counts the solutions by brute force, stopping at `limit` (at least 1). A puzzle read
    /// with pencil marks counts the solutions that keep every empty cell within its marks.
    pub fn count_solutions(&self, limit: u32) -> u32 {
        if self.marks.is_none()
            && let Some(grid) = self.nine()
        {
            return crate::brute::nine::count_solutions(grid.values(), limit);
        }
        self.count(limit.max(1)).solutions
    }

    /// The brute force's count on the generic core, within the pencil marks when there are.
    fn count(&self, limit: u32) -> brute::Counted {
        on_size!(self.layout.by_size(), geo => Count {
            values: &self.values,
            marks: self.marks.as_deref(),
            limit,
        }.call(geo))
    }

    /// The one solution: [`PuzzleError::ClashNamed`] when two cells of a house hold the same
    /// value, else [`PuzzleError::NoSolution`] or [`PuzzleError::MultipleSolutions`] when it
    /// has not one.
    pub fn solution(&self) -> Result<Puzzle, PuzzleError> {
        if let Some(clash) = self.clash_error() {
            return Err(clash);
        }
        let counted = self.count(2);
        match (counted.solutions, counted.first) {
            (1, Some(values)) => Ok(Puzzle {
                values,
                givens: None,
                marks: None,
                ..self.clone()
            }),
            (0, _) => Err(PuzzleError::NoSolution),
            _ => Err(PuzzleError::MultipleSolutions),
        }
    }

    /// Solves by singles alone (full houses, hidden singles, naked singles), as far as they
    /// go: one explanation per placement, and the puzzle they leave.
    pub fn solve_by_singles(&self) -> (Vec<String>, Puzzle) {
        let (steps, values) =
            on_size!(self.layout.by_size(), geo => Singles { puzzle: self }.call(geo));
        (
            steps,
            Puzzle {
                values,
                ..self.clone()
            },
        )
    }
}

/// [`Puzzle::count_solutions`] on the generic core.
struct Count<'a> {
    values: &'a [u8],
    marks: Option<&'a [u32]>,
    limit: u32,
}

impl Count<'_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> brute::Counted {
        match self.marks {
            Some(marks) => brute::count_within(geo, self.values, marks, self.limit),
            None => brute::count(geo, self.values, self.limit),
        }
    }
}

/// [`Puzzle::solve_by_singles`] on the generic core.
struct Singles<'a> {
    puzzle: &'a Puzzle,
}

impl Singles<'_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> (Vec<String>, Vec<u8>) {
        let p = self.puzzle;
        let mut pending = Vec::new();
        let Some(mut board) = Board::<S>::from_values(geo, &p.values, &mut pending) else {
            return (Vec::new(), p.values.clone());
        };
        if let Some(marks) = &p.marks {
            for (cell, &m) in marks.iter().enumerate() {
                for d in board.candidates(cell).ones() {
                    if m >> d & 1 == 0 && !board.eliminate(cell, d as u8 + 1, &mut pending) {
                        return (Vec::new(), p.values.clone());
                    }
                }
            }
        }
        let n = S::N;
        let house_name = |h: usize| match h / n {
            0 => format!("row {}", h % n + 1),
            1 => format!("column {}", h % n + 1),
            _ => format!("box {}", h % n + 1),
        };
        let mut steps = Vec::new();
        while let Some(single) = board.next_single() {
            let what = format!(
                "{}={}",
                p.cell_name(single.cell),
                p.alphabet.symbol(single.digit, n)
            );
            steps.push(match single.kind {
                SingleKind::FullHouse(h) => {
                    format!("Full House: {what} (last cell of {})", house_name(h))
                }
                SingleKind::Hidden(h) => format!(
                    "Hidden Single: {what} (last place for {} in {})",
                    p.alphabet.symbol(single.digit, n),
                    house_name(h)
                ),
                SingleKind::Naked => format!("Naked Single: {what} (last candidate of the cell)"),
            });
            pending.clear();
            if !board.place(single.cell, single.digit, &mut pending) {
                break;
            }
        }
        (steps, board.values().to_vec())
    }
}
