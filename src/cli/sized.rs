//! Puzzles of every size on the command line: `--symbols` and `--box`, and reading a puzzle as
//! 9x9 (the full engine) or as another size (the size-generic core: brute force, singles,
//! pencil marks, generator).

use clap::Args;

use std::fmt::Write as _;

use lapiz::engine::PuzzleError;
use lapiz::parse::ParseError;
use lapiz::shape::{Alphabet, Puzzle};

/// How to read puzzles of other sizes than 9x9.
#[derive(Args, Clone, Default)]
pub struct SizeArgs {
    /// The symbols of the puzzle, when not detected: `1-9A` (1-9 then A-Z; 16x16 `1-9A-G`),
    /// `0-9A` (16x16 `0-9A-F`, 0 standing for 16), `A-Z` (A for 1; 16x16 `A-P`) or `numbers`
    /// (whitespace-separated 1..n). Output is written in the input's symbols.
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<Alphabet>,
    /// The box shape, rows x columns (`3x4`), where several fit the size (6: 2x3 or 3x2, 8, 12,
    /// 16); the default is as square as the size allows, never taller than wide.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub boxes: Option<(u8, u8)>,
}

/// Reads `RxC`.
fn parse_box(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}` is not a box shape (rows x columns, like 3x4)");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

/// A puzzle as read: 9x9 for the full engine, or another size.
pub use lapiz::shape::AnyPuzzle as Input;

impl SizeArgs {
    /// Reads a puzzle of any size with these options ([`Input::read`]).
    pub fn read(&self, text: &str) -> Result<Input, ParseError> {
        Input::read(text, self.symbols, self.boxes)
    }
}

/// The explained solve of a puzzle of another size than 9x9: singles only, for now, each
/// placement checked against the brute force's solution; where they stop, the pencil marks and
/// the solution. An error for a puzzle without exactly one solution.
pub fn solve_text(p: &Puzzle) -> Result<String, PuzzleError> {
    let solution = p.solution()?;
    let (steps, after) = p.solve_by_singles();
    for (cell, (&placed, &right)) in after.values().iter().zip(solution.values()).enumerate() {
        // a single is sound on a puzzle with one solution: a wrong one is a bug, said loudly
        assert!(
            placed == 0 || placed == right,
            "unsound single at {}: placed {placed}, the solution has {right}",
            p.cell_name(cell)
        );
    }
    let mut out = String::new();
    let _ = writeln!(out, "Puzzle: {}", p.to_line());
    let _ = writeln!(
        out,
        "{}, symbols {}, {} clues",
        p.layout(),
        p.alphabet(),
        p.clues()
    );
    out.push('\n');
    for (i, step) in steps.iter().enumerate() {
        let _ = writeln!(out, "{:>4}. {step}", i + 1);
    }
    out.push('\n');
    let n = p.layout().n();
    if after.is_solved() {
        let _ = writeln!(out, "Solved by singles in {} steps.", steps.len());
        out.push('\n');
        out.push_str(&after.to_grid());
    } else {
        let _ = writeln!(
            out,
            "Stuck after {} steps: on {n}x{n} boards lapiz solves by singles only for now (the \
             other techniques come to every size next). The pencil marks where they stop:",
            steps.len(),
        );
        out.push('\n');
        out.push_str(&after.pencil_marks());
        out.push('\n');
        let _ = writeln!(out, "The solution (brute force):");
        out.push('\n');
        out.push_str(&solution.to_grid());
    }
    Ok(out)
}
