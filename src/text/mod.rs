//! Text in and out, above the model: puzzles of every size read from and written to their
//! formats ([`Puzzle`]; 9x9's lines, pencil-mark grids and HoDoKu library lines in [`nine`]),
//! files read with a cap, and untrusted text made safe for a terminal.

pub mod files;
pub mod nine;
pub mod printable;
pub mod puzzle;
pub mod sized;

pub use puzzle::Puzzle;
