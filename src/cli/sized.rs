//! Puzzles of every size on the command line: `--symbols` and `--box`, and reading a puzzle as
//! 9x9 (the full engine) or as another size (the size-generic core: brute force, singles,
//! pencil marks, generator).

use clap::Args;

use lapiz::Grid;
use lapiz::parse::{ParseError, parse_puzzle};
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
    Ok((r.trim().parse().map_err(|_| bad())?, c.trim().parse().map_err(|_| bad())?))
}

/// A puzzle as read: 9x9 for the full engine, or another size.
pub enum Input {
    /// A 9x9 puzzle (also a pencil-mark grid or a library line).
    Nine(Grid),
    /// A puzzle of another size.
    Sized(Puzzle),
}

impl SizeArgs {
    /// Reads a puzzle of any size. Without `--symbols` and `--box`, what the 9x9 reader takes
    /// is 9x9, as it always was; other texts go to the reader of every size, whose error is
    /// reported when it saw another size (or no size at all).
    pub fn read(&self, text: &str) -> Result<Input, ParseError> {
        let plain = self.symbols.is_none() && self.boxes.is_none();
        let nine = if plain {
            match parse_puzzle(text) {
                Ok(grid) => return Ok(Input::Nine(grid)),
                Err(e) => Some(e),
            }
        } else {
            None
        };
        match Puzzle::parse_with(text, self.symbols, self.boxes) {
            Ok(p) if p.layout().n() != 9 => Ok(Input::Sized(p)),
            Ok(p) => match nine {
                Some(e) => Err(e),
                None => {
                    let values: [u8; 81] = p.values().try_into().expect("81 values");
                    Ok(Input::Nine(Grid::from_values(&values)))
                }
            },
            Err(e) => Err(match (nine, &e) {
                (Some(nine), ParseError::BadSymbol { size: 9, .. }) => nine,
                (Some(ParseError::WrongCellCount { .. }), _) | (None, _) => e,
                (Some(nine), ParseError::BadSize { .. }) => nine,
                _ => e,
            }),
        }
    }
}
