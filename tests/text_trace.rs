//! The text trace for people: the solution grid at the end, `--grid every`, and one-candidate
//! cells told apart from values.

mod common;

use common::cli::run_lapiz_stdin as lapiz;
use lapiz::engine::GridDisplay;
use lapiz::text::{
    format_pencil_marks, format_pencil_marks_marked, parse_pencil_marks, parse_puzzle,
};
use lapiz::{Cell, Grid, Pipeline, solve_puzzle};

/// Solved by the default pipeline with locked sets and discontinuous nice loops.
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";
/// Stuck without the forcing chains.
const STUCK: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// The framed grids of a text, each as its lines joined.
fn grids(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with(".-") {
            current = Some(String::new());
        }
        if let Some(g) = &mut current {
            g.push_str(line);
            g.push('\n');
            if line.starts_with("'-") {
                out.push(current.take().unwrap());
            }
        }
    }
    out
}

#[test]
fn a_solved_trace_ends_with_the_solution_grid() {
    let trace = solve_puzzle(CHAINS, &Pipeline::default_pipeline());
    let text = trace.to_text(Some(&parse_puzzle(CHAINS).unwrap()));
    let (_, tail) = text.rsplit_once("Solution:\n").expect("a solution grid");
    let grid = parse_pencil_marks(tail).unwrap();
    assert!(grid.is_solved());
    assert_eq!(grid.to_line(), *trace.solution.as_ref().unwrap());
    // by default, only the start grid and the solution
    assert_eq!(grids(&text).len(), 2);
}

#[test]
fn grid_every_prints_the_pencil_marks_after_each_step() {
    let start = parse_puzzle(CHAINS).unwrap();
    let trace = solve_puzzle(CHAINS, &Pipeline::default_pipeline());
    let text = trace.to_text_with(Some(&start), GridDisplay::Every, false);
    let found = grids(&text);
    let steps: Vec<_> = trace.steps().collect();
    // the start, one after each step but the last (solved: the solution grid instead)
    assert_eq!(found.len(), 1 + (steps.len() - 1) + 1);
    let mut g = start.clone();
    for (k, step) in steps[..steps.len() - 1].iter().enumerate() {
        step.apply(&mut g);
        assert_eq!(
            found[k + 1],
            format_pencil_marks_marked(&g),
            "after step {}",
            k + 1
        );
    }
    // and from the command line
    let out = lapiz(&["solve", CHAINS, "--grid", "every"], None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[test]
fn one_candidate_cells_are_told_apart_from_values() {
    let mut grid = Grid::from_values(&[0; 81]);
    grid.set_value(Cell::at(0, 0), 5);
    grid.set_candidates(Cell::at(0, 1), 1 << 3); // only 4 left in r1c2
    let plain = format_pencil_marks(&grid);
    let marked = format_pencil_marks_marked(&grid);
    assert!(!plain.contains("(4)"));
    assert!(
        marked.contains("| 5 ") && marked.contains(" (4) "),
        "{marked}"
    );
    // still read back as before: the parentheses are ignored
    assert_eq!(
        parse_pencil_marks(&marked).unwrap(),
        parse_pencil_marks(&plain).unwrap()
    );
    // the text trace says what the parentheses mean
    let trace = solve_puzzle(CHAINS, &Pipeline::default_pipeline());
    let text = trace.to_text_with(
        Some(&parse_puzzle(CHAINS).unwrap()),
        GridDisplay::Every,
        false,
    );
    assert!(text.contains("(d): the one candidate left in an empty cell, not yet placed"));
}

#[test]
fn a_stuck_trace_shows_the_pencil_marks_where_it_stopped() {
    let pipeline = common::pipeline_without_forcing();
    let trace = solve_puzzle(STUCK, &pipeline);
    let text = trace.to_text(Some(&parse_puzzle(STUCK).unwrap()));
    assert!(!text.contains("Solution:"));
    let found = grids(&text);
    assert_eq!(found.len(), 2);
    let lapiz::engine::Outcome::Stuck { pencil_marks } = &trace.outcome else {
        panic!("not stuck")
    };
    let stored = pencil_marks.join("\n");
    assert_eq!(
        parse_pencil_marks(&found[1]).unwrap(),
        parse_pencil_marks(&stored).unwrap()
    );
}
