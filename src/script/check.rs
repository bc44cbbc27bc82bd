//! Helpers for testing a technique on puzzles: the positions a solve meets, and whether two
//! techniques find the same changes there (used by `lapiz technique check --file`, the tests
//! and the benchmark).

use std::collections::BTreeSet;

use crate::engine::{check_puzzle, solve_grid};
use crate::grid::{Candidate, Grid};
use crate::pipeline::Pipeline;
use crate::step::Step;

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
            .map(|p| format!("{}={}", p.cell, p.digit))
            .collect();
    if !elims.is_empty() {
        parts.push(crate::step::eliminations_text(&elims));
    }
    parts.join(", ")
}
