//! The one puzzle type: `Puzzle::read` takes every format and size, a 9x9 puzzle holds exactly
//! the grid the 9x9 reader made (givens, placements, pencil marks), and its solve, count and
//! canonical form are 9x9's.

mod common;

use lapiz::puzzle::canonical_line;
use lapiz::text::{format_pencil_marks, parse_library_line, parse_puzzle};
use lapiz::{Pipeline, Puzzle};

/// `Puzzle::from_nine(g).nine()` is `g`, and `Puzzle::read` of `text` holds `parse_puzzle`'s
/// grid.
fn round_trips(text: &str) {
    let grid = parse_puzzle(text).expect("a 9x9 puzzle");
    let puzzle = Puzzle::from_nine(&grid);
    assert_eq!(puzzle.nine().as_ref(), Some(&grid), "{text}");
    let read = Puzzle::read(text, None, None).expect("read");
    assert_eq!(read.nine().as_ref(), Some(&grid), "{text}");
    assert_eq!(read, puzzle);
}

#[test]
fn library_lines_keep_their_placements_and_deletions() {
    let Some(text) = common::read_data("reglib/reglib-1.4-dev.txt") else {
        return;
    };
    let mut kept = (0, 0);
    for line in text.lines().filter(|l| l.starts_with(':')) {
        let Ok(case) = parse_library_line(line) else {
            continue;
        };
        round_trips(line);
        let puzzle = Puzzle::from_nine(&case.grid);
        kept.0 += usize::from(case.grid.givens() != case.grid.filled_cells());
        kept.1 += usize::from(
            puzzle.pencil_marks() != Puzzle::parse(&case.grid.to_line()).unwrap().pencil_marks(),
        );
    }
    // the library has cases with placed digits and with deleted candidates: both must show
    assert!(kept.0 > 100 && kept.1 > 100, "{kept:?}");
}

#[test]
fn pencil_mark_grids_and_lines_read_back_exactly() {
    let Some(lines) = common::puzzles("top1465.txt", 40) else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    for line in &lines {
        round_trips(line);
        // a position halfway through the solve, as a pencil-mark grid
        let grid = parse_puzzle(line).unwrap();
        let trace = Puzzle::from_nine(&grid).solve(&pipeline);
        let mut position = grid.clone();
        for step in trace.steps().take(trace.steps().count() / 2) {
            step.apply(&mut position);
        }
        round_trips(&format_pencil_marks(&position));
    }
}

#[test]
fn a_nine_by_nine_puzzle_solves_counts_and_canonicalises_as_nine_by_nine() {
    let text = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let puzzle = Puzzle::read(text, None, None).unwrap();
    let grid = parse_puzzle(text).unwrap();
    let pipeline = Pipeline::default_pipeline();
    assert_eq!(
        puzzle.solve(&pipeline).to_ron(),
        Puzzle::from_nine(&grid).solve(&pipeline).to_ron()
    );
    assert_eq!(puzzle.count_solutions(2), 1);
    assert_eq!(
        puzzle.canonical_line(),
        canonical_line(&grid.given_values())
    );
    assert_eq!(puzzle.pencil_marks(), format_pencil_marks(&grid));
}

#[test]
fn other_sizes_hold_no_nine_by_nine_grid() {
    let four = Puzzle::read("3.1...2.2....4..", None, None).unwrap();
    assert_eq!(four.layout().n(), 4);
    assert!(four.nine().is_none());
    assert_eq!(four.count_solutions(2), 1);
    assert!(four.solve(&Pipeline::default_pipeline()).is_solved());
}
