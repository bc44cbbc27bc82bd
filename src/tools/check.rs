//! Helpers for testing a technique on puzzles: the positions a solve meets, and whether two
//! techniques find the same changes there (used by `lapiz technique check --file`, the tests
//! and the benchmark).

use std::collections::BTreeSet;

use crate::engine::pipeline::Pipeline;
use crate::engine::trace::Trace;
use crate::engine::{check_puzzle, solve_grid, solve_sized};
use crate::model::grid::{Candidate, Grid};
use crate::model::{BySize, Family, Geometry, Shape, Sym, on_size};
use crate::step::Step;
use crate::technique::{Technique, TechniqueError};
use crate::text::Puzzle;
use crate::text::nine::format_grid_library_line;

/// The positions a solve of `grid` with `pipeline` goes through: the start, the grid after
/// every applied step, so the last one is where the solve ended (solved or stuck). Solved
/// positions are left out. `None` when the grid is not a proper puzzle.
pub fn positions(grid: &Grid, pipeline: &Pipeline) -> Option<(Vec<Grid>, [u8; 81])> {
    let solution = check_puzzle(grid).ok()?;
    let trace = solve_grid(grid, pipeline);
    let mut g = grid.clone();
    let mut out = vec![g.clone()];
    for s in trace.steps() {
        s.apply(&mut g);
        if !g.is_solved() {
            out.push(g.clone());
        }
    }
    Some((out, solution))
}

/// The [`Family`] of grids: a boxed [`Grid`] of each shape.
pub struct Grids;

impl Family for Grids {
    type Of<S: Shape> = Box<Grid<S>>;
}

/// A grid of any size, named by its size: positions of several sizes in one list, each
/// searched by the core of its own shape ([`SizedGrid::find_all`]).
pub type SizedGrid = BySize<Grids>;

impl SizedGrid {
    /// Every step `technique` finds here: on 9x9 as [`crate::technique::find_all`] searches,
    /// on another size through [`Technique::find_sized`] (an error from a technique that does
    /// not run on this size).
    pub fn find_all(&self, technique: &dyn Technique) -> Result<Vec<Step>, TechniqueError> {
        match self {
            SizedGrid::S9(g) => crate::technique::find_all(technique, g),
            other => on_size!(other, g => crate::technique::find_all_sized(technique, g)),
        }
    }

    /// This position as a puzzle like `like` (same layout and symbols): its values, and its
    /// candidates as pencil marks.
    pub(crate) fn as_puzzle(&self, like: &Puzzle) -> Puzzle {
        on_size!(self, g => like.with_grid(g))
    }
}

impl Clone for SizedGrid {
    fn clone(&self) -> SizedGrid {
        on_size!(self, g => Shape::by_size::<Grids>(g.clone()))
    }
}

impl PartialEq for SizedGrid {
    fn eq(&self, other: &SizedGrid) -> bool {
        match (self, other) {
            (BySize::S4(a), BySize::S4(b)) => a == b,
            (BySize::S6(a), BySize::S6(b)) => a == b,
            (BySize::S8(a), BySize::S8(b)) => a == b,
            (BySize::S9(a), BySize::S9(b)) => a == b,
            (BySize::S12(a), BySize::S12(b)) => a == b,
            (BySize::S16(a), BySize::S16(b)) => a == b,
            (BySize::S25(a), BySize::S25(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for SizedGrid {}

impl std::fmt::Debug for SizedGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizedGrid::S9(g) => write!(f, "{g:?}"),
            other => on_size!(other, g => write!(f, "Grid{n}x{n}", n = g.geometry().layout().n())),
        }
    }
}

/// The positions one solve of a puzzle of any size goes through, and its solution: what
/// `lapiz technique check --file` searches a technique at.
pub struct SolvePositions {
    /// The start, then the grid after every applied step (solved grids left out).
    pub grids: Vec<SizedGrid>,
    /// The solution's values, cell by cell.
    pub solution: Vec<u8>,
    /// The puzzle, for its symbols and layout (`None`: 9x9, read as 9x9).
    sized: Option<Puzzle>,
}

/// The positions a solve of `puzzle` with `pipeline` goes through, as [`positions`] gives them
/// on 9x9, for a puzzle of any size (another size is solved by [`Puzzle::solve`], with the
/// pipeline's techniques that run on it). `None` when it is not a proper puzzle.
pub fn solve_positions(puzzle: &Puzzle, pipeline: &Pipeline) -> Option<SolvePositions> {
    match puzzle.nine() {
        Some(grid) => {
            let (grids, solution) = positions(&grid, pipeline)?;
            Some(SolvePositions {
                grids: grids
                    .into_iter()
                    .map(|g| SizedGrid::S9(Box::new(g)))
                    .collect(),
                solution: solution.to_vec(),
                sized: None,
            })
        }
        None => {
            let p = puzzle;
            let solution = p.solution().ok()?;
            let trace = solve_sized(p, pipeline);
            let grids = on_size!(p.layout().by_size(), geo => Replay {
                puzzle: p,
                trace: &trace,
            }.call(geo));
            Some(SolvePositions {
                grids,
                solution: solution.values().to_vec(),
                sized: Some(p.clone()),
            })
        }
    }
}

/// [`solve_positions`]' replay of a trace on the puzzle's shape.
struct Replay<'a> {
    puzzle: &'a Puzzle,
    trace: &'a Trace,
}

impl Replay<'_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Vec<SizedGrid> {
        let mut g = self.puzzle.grid(geo);
        let mut out = vec![S::by_size::<Grids>(Box::new(g.clone()))];
        for s in self.trace.steps() {
            s.apply(&mut g);
            if !g.is_solved() {
                out.push(S::by_size::<Grids>(Box::new(g.clone())));
            }
        }
        out
    }
}

impl SolvePositions {
    /// The board's size.
    pub fn n(&self) -> usize {
        self.sized.as_ref().map_or(9, |p| p.layout().n())
    }

    /// Runs `f` with explanations writing digits in the puzzle's symbols.
    pub fn in_its_symbols<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.sized {
            Some(p) => p.in_its_symbols(f),
            None => f(),
        }
    }

    /// Every step `technique` finds at position `k` ([`SizedGrid::find_all`]), explained in
    /// the puzzle's symbols.
    pub fn find_all(
        &self,
        k: usize,
        technique: &dyn Technique,
    ) -> Result<Vec<Step>, TechniqueError> {
        self.in_its_symbols(|| self.grids[k].find_all(technique))
    }

    /// The first change of `step` the solution contradicts, if any.
    pub fn contradiction(&self, step: &Step) -> Option<Candidate> {
        step.contradiction_in(&self.solution, self.n())
    }

    /// Position `k` as text to paste back: a 9x9 library line, or the pencil-mark grid of
    /// another size (what `lapiz hint` reads).
    pub fn text(&self, k: usize) -> String {
        match (&self.grids[k], &self.sized) {
            (SizedGrid::S9(g), None) => format_grid_library_line(g),
            (other, Some(p)) => other.as_puzzle(p).pencil_marks(),
            (other, None) => format!("{other:?}"),
        }
    }
}

/// What a step changes: its eliminations and placements as sorted sets.
pub type Changes = (BTreeSet<Candidate>, BTreeSet<Candidate>);

/// The distinct changes of a list of steps (steps that change nothing are left out).
pub fn changes(steps: &[Step]) -> BTreeSet<Changes> {
    steps
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| {
            (
                s.eliminations.iter().copied().collect(),
                s.placements.iter().copied().collect(),
            )
        })
        .collect()
}

/// Text for a set of changes, e.g. `r1c4,r5c4<>3`.
pub fn changes_text(c: &Changes) -> String {
    let elims: Vec<Candidate> = c.0.iter().copied().collect();
    let mut parts: Vec<String> =
        c.1.iter()
            .map(|p| format!("{}={}", p.cell, Sym(p.digit)))
            .collect();
    if !elims.is_empty() {
        parts.push(crate::step::eliminations_text(&elims));
    }
    parts.join(", ")
}
