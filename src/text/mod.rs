//! Text in and out, above the model: puzzles of every size read from and written to their
//! formats ([`Puzzle`]; 9x9's lines, pencil-mark grids and HoDoKu library lines), files read
//! with a cap, the lines of puzzle files ([`lines`]), and untrusted text made safe for a
//! terminal ([`printable()`]).

pub(crate) mod files;
pub mod lines;
pub(crate) mod nine;
pub(crate) mod printable;
pub(crate) mod puzzle;
pub(crate) mod sized;

#[doc(hidden)]
pub use nine::{
    CANDIDATE_LINE, LibraryCase, format_candidate_line, format_grid_library_line,
    format_library_line, format_pencil_marks, format_pencil_marks_marked, is_candidate_line,
    line_values, not_utf8, parse_candidate_line, parse_library_line, parse_line,
    parse_pencil_marks, parse_puzzle,
};
pub use printable::printable;
pub use puzzle::Puzzle;
