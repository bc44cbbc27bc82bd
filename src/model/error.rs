//! The errors of reading a puzzle, a cell, house or candidate name, and of a puzzle that
//! cannot be solved: the ones every layer above the model may return.

use crate::model::cell::Cell;

/// A puzzle text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that is neither a digit, an empty-cell mark nor an ignored separator.
    #[error("unexpected character {ch:?} at position {position}")]
    BadChar {
        /// The character.
        ch: char,
        /// 1-based character position in the input.
        position: usize,
    },
    /// The input did not hold exactly 81 cells.
    #[error("expected 81 cells, found {found}")]
    WrongCellCount {
        /// Cells found.
        found: usize,
    },
    /// A pencil-mark grid did not hold exactly 81 candidate groups.
    #[error("expected 81 candidate groups in the pencil-mark grid, found {found}")]
    WrongGroupCount {
        /// Groups found.
        found: usize,
    },
    /// A pencil-mark group repeats a digit or is otherwise malformed.
    #[error("bad candidate group {group:?} for {cell}: a cell lists digits 1-9, each once")]
    BadGroup {
        /// The cell it describes.
        cell: Cell,
        /// The group text.
        group: String,
    },
    /// A HoDoKu library line is malformed.
    #[error("bad library line, field {field}: {message}")]
    BadLibraryLine {
        /// The field name, e.g. `givens` or `eliminations`.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A character of a candidate line (nine per cell) that is neither its place's digit nor
    /// `.` or `0`.
    #[error(
        "unexpected character {ch:?} at position {position} of the candidate line ({cell}'s \
         place for {digit}: `{digit}`, `.` or `0`)"
    )]
    BadCandidate {
        /// The character.
        ch: char,
        /// 1-based character position in the line.
        position: usize,
        /// The cell whose nine characters hold it.
        cell: Cell,
        /// The digit of its place.
        digit: u8,
    },
    /// The input is empty.
    #[error("empty input")]
    Empty,
    /// A size, box shape or cell count no board has.
    #[error("{what}")]
    BadSize {
        /// What was seen.
        what: String,
    },
    /// A symbol that is not one of the puzzle's alphabet.
    #[error("`{symbol}` at line {line}, column {col} is not {expected}")]
    BadSymbol {
        /// The symbol (or group) seen.
        symbol: String,
        /// 1-based line of the input.
        line: usize,
        /// 1-based column (character) of the line.
        col: usize,
        /// The size the input was read as (`n` of `n x n`).
        size: usize,
        /// What was expected there.
        expected: String,
    },
}

/// A grid that parses but cannot be a proper puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// Two cells of one house hold the same digit.
    #[error("{first} and {second} both hold {digit}")]
    Clash {
        /// The first cell.
        first: Cell,
        /// The second cell.
        second: Cell,
        /// The digit.
        digit: u8,
    },
    /// Two cells of one house hold the same value, on a board of any size (cells and value
    /// named as the puzzle writes them: `r1c1`, `G`).
    #[error("{first} and {second} both hold {value}")]
    ClashNamed {
        /// The first cell's name.
        first: String,
        /// The second cell's name.
        second: String,
        /// The value, in the puzzle's symbols.
        value: String,
    },
    /// An empty cell has no candidate left.
    #[error("{cell} has no candidate left")]
    DeadCell {
        /// The cell.
        cell: Cell,
    },
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has more than one solution.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// The pencil marks removed the solution's digit from a cell.
    #[error("the pencil marks exclude the solution's {digit} from {cell}")]
    PencilMarksExcludeSolution {
        /// The cell.
        cell: Cell,
        /// The solution's digit.
        digit: u8,
    },
}

/// A cell, house or candidate name that does not read (`r1c1`, `b3`, `5r3c7`; up to 25).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// Not a cell name.
    #[error("`{0}` is not a cell name (r1c1 … r9c9, up to r25c25)")]
    Cell(String),
    /// Not a house name.
    #[error("`{0}` is not a house name (r1 … r9, c1 … c9, b1 … b9, up to 25)")]
    House(String),
    /// Not a candidate.
    #[error("`{0}` is not a candidate (digit then cell, e.g. 5r3c7)")]
    Candidate(String),
}
