//! The solve loop: apply the first step the pipeline finds, verified, until solved or stuck.
//! A program solves through [`Puzzle::solve`](crate::Puzzle) (every size), which runs it.
//!
//! ```
//! use lapiz::engine::{Entry, Outcome, check_puzzle, replay};
//! use lapiz::text::parse_puzzle;
//! use lapiz::{Pipeline, Puzzle, solve_puzzle};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let pipeline = Pipeline::default_pipeline();
//! let grid = parse_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! )?;
//! // A proper puzzle has exactly one solution; the engine checks every step against it.
//! let solution = check_puzzle(&grid)?;
//! let trace = Puzzle::from_nine(&grid).solve(&pipeline);
//! assert_eq!(trace.outcome, Outcome::Solved);
//! assert_eq!(trace.solution.as_deref(), Some(grid_line(&solution).as_str()));
//!
//! // The entries, in order: steps applied (and any rejected or failed technique).
//! for entry in &trace.entries {
//!     if let Entry::Step(step) = entry {
//!         assert!(!step.is_empty() && step.contradiction(&solution).is_none());
//!     }
//! }
//! assert_eq!(trace.summary.steps, trace.steps().count());
//! // Replaying the applied steps from the start reaches the solution.
//! assert_eq!(replay(&grid, &trace).values(), &solution);
//!
//! // Input that is not a proper puzzle gives a trace saying why, not a panic.
//! let two_solutions = solve_puzzle(&".".repeat(81), &pipeline);
//! assert!(matches!(two_solutions.outcome, Outcome::Invalid { .. }));
//! # Ok(())
//! # }
//! # fn grid_line(values: &[u8; 81]) -> String {
//! #     values.iter().map(|v| char::from(b'0' + v)).collect()
//! # }
//! ```

pub(crate) mod pipeline;
pub(crate) mod rating;
pub mod trace;

pub use pipeline::{DuplicateId, Pipeline, PipelineError};
pub use rating::{Level, Rating, RatingError, UnknownLevel, rate};
#[doc(no_inline)]
pub use trace::{
    Entry, GridDisplay, Hardest, Outcome, Rejection, Summary, TechniqueCount, Trace,
    UniquenessSkipped,
};

use std::ops::ControlFlow;

use crate::model::on_size;
use crate::model::stop::{self, StopCause};
use crate::technique::context::Context;
use crate::technique::memo::Memo;

use crate::brute::nine::{self as solver, Solutions};
use crate::model::PuzzleError;
use crate::model::cell::Cell;
use crate::model::grid::Grid;
use crate::model::{Alphabet, Geometry, Layout, S9, Shape};
use crate::step::Step;
use crate::text::Puzzle;
use crate::text::nine::{format_grid_library_line, format_pencil_marks};

/// Up to how many solutions of the givens alone are counted when uniqueness techniques are
/// skipped (the count is only for the note in the trace).
const GIVENS_SOLUTIONS_CAP: u32 = 100;

/// Checks that `grid` is a proper puzzle and returns its unique solution.
#[doc(hidden)]
pub fn check_puzzle(grid: &Grid) -> Result<[u8; 81], PuzzleError> {
    if let Some((first, second, digit)) = grid.conflict() {
        return Err(PuzzleError::Clash {
            first,
            second,
            digit,
        });
    }
    if let Some(cell) = grid.dead_cell() {
        return Err(PuzzleError::DeadCell { cell });
    }
    let solution = match solver::analyze(grid.values()) {
        Solutions::None => return Err(PuzzleError::NoSolution),
        // the values alone have several: the pencil marks are part of the puzzle, and may
        // leave one of them, none, or several
        Solutions::Multiple if has_extra_state(grid) => match solutions_within_marks(grid) {
            Solutions::None => return Err(PuzzleError::NoSolution),
            Solutions::Multiple => return Err(PuzzleError::MultipleSolutions),
            Solutions::Unique(s) => *s,
        },
        Solutions::Multiple => return Err(PuzzleError::MultipleSolutions),
        Solutions::Unique(s) => *s,
    };
    for cell in grid.empty_cells() {
        let digit = solution[cell.index()];
        if !grid.has_candidate(cell, digit) {
            return Err(PuzzleError::PencilMarksExcludeSolution { cell, digit });
        }
    }
    Ok(solution)
}

/// The solutions of `grid` that keep every empty cell within its candidates, counted up to 2:
/// the solutions of a pencil-mark puzzle, whose marks are part of the puzzle.
fn solutions_within_marks(grid: &Grid) -> Solutions {
    let marks: Vec<u32> = Cell::all().map(|c| u32::from(grid.candidates(c))).collect();
    let geo = S9::geometry(Layout::NINE);
    let counted = crate::brute::sized::count_within(geo, grid.values(), &marks, 2);
    match (counted.solutions, counted.first) {
        (0, _) | (_, None) => Solutions::None,
        (1, Some(first)) => match <[u8; 81]>::try_from(first) {
            Ok(values) => Solutions::Unique(Box::new(values)),
            Err(_) => Solutions::None,
        },
        _ => Solutions::Multiple,
    }
}

/// Whether the grid holds more than its givens: placed digits or removed candidates.
fn has_extra_state(grid: &Grid) -> bool {
    Grid::from_values(&grid.given_values()) != *grid
}

/// Solves the 9x9 `grid` with `pipeline` and records everything in a [`Trace`]: the engine
/// under [`Puzzle::solve`](crate::Puzzle) on 9x9.
pub(crate) fn solve_grid(grid: &Grid, pipeline: &Pipeline) -> Trace {
    let puzzle = grid.givens_line();
    let solution = match check_puzzle(grid) {
        Ok(s) => s,
        Err(e) => return Trace::invalid(puzzle, pipeline, e.to_string()),
    };
    let uniqueness_skipped = uniqueness_skipped(grid, pipeline);
    let skip: Vec<bool> = pipeline
        .techniques()
        .iter()
        .map(|t| !t.runs_on(9) || (uniqueness_skipped.is_some() && t.needs_uniqueness()))
        .collect();
    let mut entries = Vec::new();
    let stuck = |g: &Grid| format_pencil_marks(g).lines().map(str::to_string).collect();
    let outcome = run(grid.clone(), pipeline, &solution, skip, stuck, &mut entries);
    Trace {
        start: has_extra_state(grid).then(|| format_grid_library_line(grid)),
        solution: Some(solution.iter().map(|&v| (b'0' + v) as char).collect()),
        uniqueness_skipped,
        summary: summarize(&entries, pipeline),
        entries,
        ..Trace::empty(puzzle, 9, pipeline, outcome)
    }
}

/// Solves a puzzle of any size with `pipeline` and records everything in a [`Trace`]: a 9x9
/// puzzle in digits with [`solve_grid`], another with the pipeline's techniques that run on it
/// (see [`Technique::runs_on`](crate::Technique::runs_on)), every step checked against the
/// solution. The trace's puzzle, solution and pencil marks are written in the puzzle's
/// alphabet.
pub(crate) fn solve_sized(puzzle: &Puzzle, pipeline: &Pipeline) -> Trace {
    if puzzle.layout() == Layout::NINE && puzzle.alphabet() == Alphabet::Standard {
        let values = Grid::from_value_slice(S9::geometry(Layout::NINE), puzzle.values());
        return solve_grid(&puzzle.apply_marks(values), pipeline);
    }
    let line = puzzle.to_line();
    let solution = match puzzle.solution() {
        Ok(s) => s,
        Err(e) => return Trace::invalid(line, pipeline, e.to_string()),
    };
    let n = puzzle.layout().n();
    let disabled = pipeline
        .techniques()
        .iter()
        .map(|t| !t.runs_on(n))
        .collect();
    let mut entries = Vec::new();
    // explanations write digits in the puzzle's symbols
    let outcome = puzzle.in_its_symbols(|| {
        on_size!(puzzle.layout().by_size(), geo => SolveSized {
            puzzle,
            pipeline,
            solution: solution.values(),
            disabled,
            entries: &mut entries,
        }.call(geo))
    });
    Trace {
        solution: Some(solution.to_line()),
        summary: summarize(&entries, pipeline),
        entries,
        ..Trace::empty(line, n, pipeline, outcome)
    }
}

/// [`solve_sized`]'s loop on the puzzle's shape.
struct SolveSized<'a> {
    puzzle: &'a Puzzle,
    pipeline: &'a Pipeline,
    solution: &'a [u8],
    disabled: Vec<bool>,
    entries: &'a mut Vec<Entry>,
}

impl SolveSized<'_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Outcome {
        let p = self.puzzle;
        let grid = p.grid(geo);
        let stuck = |g: &Grid<S>| {
            let marks = p.with_grid(g).pencil_marks();
            marks.lines().map(str::to_string).collect()
        };
        run(
            grid,
            self.pipeline,
            self.solution,
            self.disabled,
            stuck,
            self.entries,
        )
    }
}

/// Whether the pipeline's uniqueness techniques must be skipped on `grid`: they are only sound
/// when the givens alone have exactly one solution, and a grid with placed digits (a HoDoKu
/// library line's `+` digits) can have a unique solution while its givens do not.
fn uniqueness_skipped(grid: &Grid, pipeline: &Pipeline) -> Option<UniquenessSkipped> {
    let techniques: Vec<String> = pipeline
        .techniques()
        .iter()
        .filter(|t| t.needs_uniqueness())
        .map(|t| t.id().to_string())
        .collect();
    // Without placed digits the givens are the grid's values, already proved unique.
    if techniques.is_empty() || grid.given_values() == *grid.values() {
        return None;
    }
    let n = solver::count_solutions(&grid.given_values(), GIVENS_SOLUTIONS_CAP);
    (n != 1).then_some(UniquenessSkipped {
        givens_solutions: n,
        at_least: n == GIVENS_SOLUTIONS_CAP,
        techniques,
    })
}

/// Why a step cannot be applied to `grid`, if it cannot.
fn rejection<S: Shape>(step: &Step, grid: &Grid<S>, solution: Option<&[u8]>) -> Option<Rejection> {
    let off_board = |c: &Cell| usize::from(c.row().max(c.col())) >= S::N;
    if let Some(p) = step.placements.iter().find(|p| off_board(&p.cell)) {
        return Some(Rejection::Malformed {
            message: format!("places {p}, off the {n}x{n} board", n = S::N),
        });
    }
    for p in &step.placements {
        if grid.value(p.cell) != 0 {
            return Some(Rejection::Malformed {
                message: format!(
                    "places {} in {}, which already holds {}",
                    p.digit,
                    p.cell,
                    grid.value(p.cell)
                ),
            });
        }
        if !(1..=S::N).contains(&usize::from(p.digit)) {
            return Some(Rejection::Malformed {
                message: format!("places digit {} in {}", p.digit, p.cell),
            });
        }
    }
    if let Some(solution) = solution
        && let Some(candidate) = step.contradiction_in(solution, S::N)
    {
        return Some(Rejection::Unsound { candidate });
    }
    if let Some(e) = step.eliminations.iter().find(|e| off_board(&e.cell)) {
        return Some(Rejection::Malformed {
            message: format!("eliminates {e}, off the {n}x{n} board", n = S::N),
        });
    }
    let changes = !step.placements.is_empty()
        || step
            .eliminations
            .iter()
            .any(|e| grid.has_candidate(e.cell, e.digit));
    if !changes {
        return Some(Rejection::NoChange);
    }
    None
}

/// The solve loop, on a grid of any size. `disabled` says which techniques are off from the
/// start (uniqueness techniques when the givens are not unique, techniques that do not run on
/// the grid's size); a technique that fails or makes a rejected step is turned off too.
/// Scripts are charged to a per-solve budget for the length of the loop. `stuck` writes the
/// pencil marks where it stops.
pub(crate) fn run<S: Shape>(
    mut grid: Grid<S>,
    pipeline: &Pipeline,
    solution: &[u8],
    mut disabled: Vec<bool>,
    stuck: impl Fn(&Grid<S>) -> Vec<String>,
    entries: &mut Vec<Entry>,
) -> Outcome {
    match run_within(&mut grid, pipeline, solution, &mut disabled, None, entries) {
        Ended::Solved => Outcome::Solved,
        Ended::StepLimit => Outcome::StepLimit {
            limit: pipeline.step_limit(),
        },
        Ended::Stuck | Ended::OverCeiling => Outcome::Stuck {
            pencil_marks: stuck(&grid),
        },
        Ended::Stopped(cause) => Outcome::Stopped {
            cause,
            pencil_marks: stuck(&grid),
        },
    }
}

/// Where [`run_within`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// Every cell has its value.
    Solved,
    /// The pipeline's step limit was reached.
    StepLimit,
    /// No technique found a step.
    Stuck,
    /// The next step would be harder than the ceiling, or only techniques harder than it are
    /// left to search (the puzzle's rating is over the ceiling, or it is beyond the pipeline).
    OverCeiling,
    /// The thread's [`Stop`](crate::model::Stop) was reached.
    Stopped(StopCause),
}

/// [`run`]'s loop on `grid`, which it leaves where the solve stopped. With a `ceiling`, the
/// solve stops before a step harder than it, and instead of searching the techniques past the
/// last one whose difficulty is within it: so it applies exactly the steps a solve without a
/// ceiling would, as long as they are within it.
pub(crate) fn run_within<S: Shape>(
    grid: &mut Grid<S>,
    pipeline: &Pipeline,
    solution: &[u8],
    disabled: &mut [bool],
    ceiling: Option<f32>,
    entries: &mut Vec<Entry>,
) -> Ended {
    let _scripts = crate::script::SolveScope::begin(pipeline.script_budget());
    let mut applied = 0usize;
    let verify = pipeline.verify().then_some(solution);
    // (difficulties have one decimal: a little slack for float noise)
    let over = |difficulty: f32| ceiling.is_some_and(|c| difficulty > c + 1e-4);
    // the techniques past the last one within the ceiling cannot give a step within it
    let searched = match ceiling {
        None => pipeline.techniques().len(),
        Some(_) => pipeline
            .techniques()
            .iter()
            .rposition(|t| !over(t.difficulty()))
            .map_or(0, |i| i + 1),
    };
    // where searches found nothing, kept across the positions of this solve
    let memo = Memo::default();
    'solve: loop {
        if grid.is_solved() {
            return Ended::Solved;
        }
        if applied >= pipeline.step_limit() {
            return Ended::StepLimit;
        }
        let ctx = Context::with_memo(grid, &memo);
        for (i, technique) in pipeline.techniques()[..searched].iter().enumerate() {
            if disabled[i] {
                continue;
            }
            if let Some(cause) = stop::reached() {
                return Ended::Stopped(cause);
            }
            let mut found = None;
            let result = technique.find_sized(ctx.sized(), &mut |step| {
                found = Some(step);
                ControlFlow::Break(())
            });
            // a search cut short by the stop may have missed its first step: nothing it
            // found (or failed to find) counts
            if let Some(cause) = stop::reached() {
                return Ended::Stopped(cause);
            }
            if let Err(e) = result {
                disabled[i] = true;
                entries.push(Entry::Failed {
                    technique: technique.id().to_string(),
                    error: e.to_string(),
                });
                continue;
            }
            let Some(step) = found else { continue };
            if let Some(reason) = rejection(&step, grid, verify) {
                disabled[i] = true;
                entries.push(Entry::Rejected { step, reason });
                continue;
            }
            if over(step.difficulty) {
                return Ended::OverCeiling;
            }
            drop(ctx);
            step.apply(grid);
            entries.push(Entry::Step(step));
            applied += 1;
            continue 'solve;
        }
        return match ceiling {
            Some(_) => Ended::OverCeiling,
            None => Ended::Stuck,
        };
    }
}

fn summarize(entries: &[Entry], pipeline: &Pipeline) -> Summary {
    let mut summary = Summary::default();
    let mut counts = vec![0usize; pipeline.techniques().len()];
    for entry in entries {
        match entry {
            Entry::Step(step) => {
                summary.steps += 1;
                if step.technique == crate::technique::guess::GUESS_ID {
                    summary.guesses += 1;
                }
                if let Some(i) = pipeline
                    .techniques()
                    .iter()
                    .position(|t| t.id() == step.technique)
                {
                    counts[i] += 1;
                    summary.uniqueness_assumed |= pipeline.techniques()[i].needs_uniqueness();
                }
                let harder = summary
                    .hardest
                    .as_ref()
                    .is_none_or(|h| step.difficulty > h.difficulty);
                if harder {
                    summary.hardest = Some(Hardest {
                        technique: step.technique.clone(),
                        difficulty: step.difficulty,
                    });
                }
            }
            Entry::Rejected { .. } => summary.rejected += 1,
            Entry::Failed { .. } => {}
        }
    }
    summary.techniques = pipeline
        .techniques()
        .iter()
        .zip(counts)
        .filter(|(_, c)| *c > 0)
        .map(|(t, count)| TechniqueCount {
            technique: t.id().to_string(),
            count,
        })
        .collect();
    summary
}

/// The grid after applying every applied step of `trace` to `start`.
pub fn replay(start: &Grid, trace: &crate::engine::trace::Trace) -> Grid {
    let mut g = start.clone();
    for s in trace.steps() {
        s.apply(&mut g);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_puzzle;

    /// A solve within a ceiling applies exactly the steps of the solve without one up to its
    /// first step over the ceiling, and stops there.
    #[test]
    fn a_ceiling_stops_the_solve_before_its_first_harder_step() {
        let pipeline = Pipeline::default_pipeline();
        let grid = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let solution = check_puzzle(&grid).unwrap();
        let full = solve_grid(&grid, &pipeline);
        assert_eq!(full.outcome, Outcome::Solved);
        let steps: Vec<&Step> = full.steps().collect();
        let mut ceilings: Vec<f32> = steps.iter().map(|s| s.difficulty).collect();
        ceilings.sort_by(f32::total_cmp);
        ceilings.dedup();
        assert!(
            ceilings.len() > 3,
            "a puzzle with steps of several difficulties"
        );
        for ceiling in ceilings.iter().flat_map(|&c| [c - 0.05, c]) {
            let mut g = grid.clone();
            let mut disabled: Vec<bool> = pipeline
                .techniques()
                .iter()
                .map(|t| !t.runs_on(9))
                .collect();
            let mut entries = Vec::new();
            let ended = run_within(
                &mut g,
                &pipeline,
                &solution,
                &mut disabled,
                Some(ceiling),
                &mut entries,
            );
            let within = steps
                .iter()
                .position(|s| s.difficulty > ceiling + 1e-4)
                .unwrap_or(steps.len());
            let applied: Vec<&Step> = entries
                .iter()
                .map(|e| match e {
                    Entry::Step(s) => s,
                    other => panic!("{other:?} at ceiling {ceiling}"),
                })
                .collect();
            assert_eq!(applied, steps[..within], "ceiling {ceiling}");
            let expected = if within == steps.len() {
                Ended::Solved
            } else {
                Ended::OverCeiling
            };
            assert_eq!(ended, expected, "ceiling {ceiling}");
            let mut replayed = grid.clone();
            for s in &steps[..within] {
                s.apply(&mut replayed);
            }
            assert!(
                g == replayed,
                "ceiling {ceiling}: the grid is left where the solve stopped"
            );
        }
    }
}
