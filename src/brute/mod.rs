//! The brute force, above the text layer: 9x9's tuned solver ([`count_solutions`], [`solve`],
//! [`analyze`]) and the one every size shares (`sized`, on the `board`), with what they answer
//! of a [`Puzzle`](crate::text::Puzzle).

pub(crate) mod board;
pub(crate) mod nine;
pub(crate) mod puzzle;
pub(crate) mod sized;

pub use nine::{Solutions, analyze, count_solutions, solve};
