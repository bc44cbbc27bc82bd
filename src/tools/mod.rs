//! Tools over the whole engine: HoDoKu's regression library ([`run_library`], [`judge`]), the
//! harness that checks a technique over the positions of solves ([`solve_positions`],
//! [`changes`]) and the rating table ([`table`]) that the command line and Python write.

pub(crate) mod check;
pub(crate) mod reglib;
pub mod table;

pub use check::{
    Changes, Grids, SizedGrid, SolvePositions, changes, changes_text, positions, solve_positions,
};
pub use reglib::{
    CaseLine, CaseResult, Failure, LibraryText, Report, Tally, case_lines, expected_text, judge,
    read_library, run_library,
};
